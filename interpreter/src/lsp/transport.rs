//! The base protocol: messages framed by a `Content-Length` header, read and written on byte
//! streams. Reading is bounded (a header line, a message's length) and never panics: a frame that
//! cannot be read is reported as a [`Frame::Bad`] the server answers with a JSON-RPC error, and
//! reading goes on with the next frame.

use std::io::{BufRead, Write};

/// The largest message accepted (a ruleset is at most 4 MiB; its JSON escaping may double it).
pub const MAX_MESSAGE: usize = 32 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: usize = 8 << 10;

/// What one read gave.
#[derive(Debug, PartialEq)]
pub enum Frame {
    /// A message's body.
    Message(String),
    /// A frame that could not be read, and why; the stream goes on after it.
    Bad(String),
    /// The input ended.
    End,
}

/// One line of at most `limit` bytes, without its line ending: `None` at the end of the input,
/// `Err` for a longer one (the rest of it is skipped).
fn read_line(input: &mut impl BufRead, limit: usize) -> std::io::Result<Option<Result<String, String>>> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            if line.is_empty() && !too_long {
                return Ok(None);
            }
            break;
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take <= limit {
            line.extend_from_slice(&buf[..take]);
        } else {
            too_long = true;
        }
        input.consume(take);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Some(Err(format!("a header line longer than {limit} bytes"))));
    }
    while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        line.pop();
    }
    Ok(Some(
        String::from_utf8(line).map_err(|_| "a header line that is not UTF-8".to_string()),
    ))
}

/// Reads the next frame.
///
/// # Errors
/// Only the input's own read errors.
pub fn read(input: &mut impl BufRead) -> std::io::Result<Frame> {
    let mut length: Option<Result<u64, String>> = None;
    let mut problem: Option<String> = None;
    let mut seen_header = false;
    loop {
        let line = match read_line(input, MAX_HEADER_LINE)? {
            None if !seen_header => return Ok(Frame::End),
            None => return Ok(Frame::Bad("the input ended inside a message's headers".into())),
            Some(Err(e)) => {
                problem.get_or_insert(e);
                seen_header = true;
                continue;
            }
            Some(Ok(l)) => l,
        };
        if line.is_empty() {
            if !seen_header {
                // Blank lines between messages are skipped.
                continue;
            }
            break;
        }
        seen_header = true;
        match line.split_once(':') {
            Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                length = Some(
                    value
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| format!("Content-Length `{}` is not a number", value.trim())),
                );
            }
            Some(_) => {}
            None => {
                problem.get_or_insert(format!(
                    "`{}` is not a header (NAME: VALUE)",
                    line.chars().take(80).collect::<String>()
                ));
            }
        }
    }
    let n = match length {
        Some(Ok(n)) if n <= MAX_MESSAGE as u64 => n as usize,
        Some(Ok(n)) => {
            // Too large to hold: the body is skipped as it streams by.
            let mut rest = std::io::Read::take(&mut *input, n);
            std::io::copy(&mut rest, &mut std::io::sink())?;
            return Ok(Frame::Bad(format!("Content-Length {n} is over the limit of {MAX_MESSAGE} bytes")));
        }
        Some(Err(e)) => return Ok(Frame::Bad(e)),
        None => {
            return Ok(Frame::Bad(
                problem.unwrap_or_else(|| "a message without a Content-Length header".into()),
            ));
        }
    };
    let mut body = vec![0u8; n];
    let mut got = 0;
    while got < n {
        let k = input.read(&mut body[got..])?;
        if k == 0 {
            return Ok(Frame::Bad(format!("the input ended {} bytes into a message of {n}", got)));
        }
        got += k;
    }
    if let Some(p) = problem {
        return Ok(Frame::Bad(p));
    }
    match String::from_utf8(body) {
        Ok(s) => Ok(Frame::Message(s)),
        Err(_) => Ok(Frame::Bad("a message body that is not UTF-8".into())),
    }
}

/// Writes one message.
///
/// # Errors
/// The output's own write errors (a closed pipe: the client has gone).
pub fn write(output: &mut impl Write, body: &str) -> std::io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(bytes: &[u8]) -> Vec<Frame> {
        let mut input = std::io::Cursor::new(bytes.to_vec());
        let mut out = Vec::new();
        loop {
            match read(&mut input).expect("a cursor reads") {
                Frame::End => return out,
                f => out.push(f),
            }
        }
    }

    #[test]
    fn frames_are_read_in_turn_and_bad_ones_named_without_losing_the_next() {
        let good = |s: &str| format!("Content-Length: {}\r\n\r\n{s}", s.len());
        let stream = format!(
            "{}Content-Type: x\r\n\r\n{}Content-Length: nine\r\n\r\n{}",
            good("{\"a\":1}"),
            good("{}"),
            good("[]")
        );
        let got = frames(stream.as_bytes());
        assert_eq!(got[0], Frame::Message("{\"a\":1}".into()));
        assert_eq!(got[1], Frame::Bad("a message without a Content-Length header".into()));
        assert_eq!(got[2], Frame::Message("{}".into()));
        assert_eq!(got[3], Frame::Bad("Content-Length `nine` is not a number".into()));
        assert_eq!(got[4], Frame::Message("[]".into()));
    }

    #[test]
    fn an_oversized_or_cut_message_is_refused() {
        let huge = format!("Content-Length: {}\r\n\r\n", MAX_MESSAGE + 1);
        assert!(matches!(&frames(huge.as_bytes())[0], Frame::Bad(e) if e.contains("over the limit")));
        let cut = b"Content-Length: 10\r\n\r\nabc";
        assert!(matches!(&frames(cut)[0], Frame::Bad(e) if e.contains("ended 3 bytes into")));
        // An endless header line is cut off at the bound, and the next frame still reads.
        let mut endless = format!("X-Junk: {}\r\nContent-Length: 2\r\n\r\n{{}}", "a".repeat(MAX_HEADER_LINE * 4)).into_bytes();
        endless.extend_from_slice(b"Content-Length: 2\r\n\r\n[]");
        let got = frames(&endless);
        assert!(matches!(&got[0], Frame::Bad(e) if e.contains("header line longer than")), "{got:?}");
        assert_eq!(got[1], Frame::Message("[]".into()));
        let bytes = b"Content-Length: 2\r\n\r\n\xff\xfe";
        assert!(matches!(&frames(bytes)[0], Frame::Bad(e) if e.contains("not UTF-8")));
    }
}
