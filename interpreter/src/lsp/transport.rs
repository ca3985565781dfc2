//! The base protocol: messages framed by a `Content-Length` header, read and written on byte
//! streams. Reading is bounded (a header line, a message's length) and never panics: a frame that
//! cannot be read is reported as a [`Frame::Bad`] the server answers with a JSON-RPC error, and
//! reading goes on with the next frame: where a bad frame ends is unknown, the [`Reader`] skips to
//! the next `Content-Length:` header.

use std::io::{BufRead, Write};

/// The largest message accepted (a ruleset is at most 4 MiB; its JSON escaping may double it).
pub const MAX_MESSAGE: usize = 32 << 20;
/// The longest header line read.
const MAX_HEADER_LINE: usize = 8 << 10;

/// What one read gave.
#[derive(Debug, PartialEq)]
pub enum Frame<Why = String> {
    /// A message's body.
    Message(String),
    /// A frame that could not be read, and why; the stream goes on after it.
    Bad(Why),
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

/// A header's name: a token of the HTTP grammar (letters, digits and ``!#$%&'*+-.^_`|~``), so a
/// body glued onto the headers (`{"jsonrpc":…}`) is not taken for one.
fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// Where `Content-Length:` starts in `text` (any case), if it does.
fn find_length_header(text: &[u8]) -> Option<usize> {
    text.windows(LENGTH_HEADER.len())
        .position(|w| w.eq_ignore_ascii_case(LENGTH_HEADER))
}

const LENGTH_HEADER: &[u8] = b"content-length:";

/// Reads frames from a byte stream, and finds its footing again after a frame it could not read.
///
/// After a frame whose length is unknown (a `Content-Length` that is missing, not a number or given
/// twice; a line that is not a header), where the next message starts is unknown. The reader then
/// skips to the next `Content-Length:` it sees and reads on from there, so the next well-framed
/// message is served. It looks for one anywhere, not only at the start of a line: clients write a
/// message's body with no line break after it, so the next header begins on the line where a
/// misread body ends. That is also how a wrong length is caught: the rest of a body longer than
/// its `Content-Length` (or the next message's rest, after one shorter) comes before the next
/// header on its line, which is then no header.
pub struct Reader<R> {
    input: R,
    /// A header line already read while skipping ahead: the next frame's first.
    pending: Option<Result<String, String>>,
    /// Out of step: the next read first skips to a `Content-Length:`.
    lost: bool,
}

impl<R: BufRead> Reader<R> {
    pub fn new(input: R) -> Reader<R> {
        Reader {
            input,
            pending: None,
            lost: false,
        }
    }

    /// Skips to the next `Content-Length:` (any case) and keeps its line as the next header line;
    /// `false` if the input ended first.
    fn skip_to_header(&mut self) -> std::io::Result<bool> {
        // `c` occurs once in the pattern, so after a mismatch a match can only restart there.
        let mut matched = 0;
        loop {
            let buf = self.input.fill_buf()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let mut used = 0;
            let mut found = false;
            for &b in buf {
                used += 1;
                let b = b.to_ascii_lowercase();
                if b == LENGTH_HEADER[matched] {
                    matched += 1;
                    if matched == LENGTH_HEADER.len() {
                        found = true;
                        break;
                    }
                } else {
                    matched = usize::from(b == LENGTH_HEADER[0]);
                }
            }
            self.input.consume(used);
            if found {
                break;
            }
        }
        let rest = read_line(&mut self.input, MAX_HEADER_LINE)?;
        self.pending = Some(match rest {
            None => Ok("Content-Length:".into()),
            Some(Ok(value)) => Ok(format!("Content-Length:{value}")),
            Some(Err(e)) => Err(e),
        });
        Ok(true)
    }

    fn header_line(&mut self) -> std::io::Result<Option<Result<String, String>>> {
        match self.pending.take() {
            Some(line) => Ok(Some(line)),
            None => read_line(&mut self.input, MAX_HEADER_LINE),
        }
    }

    /// Reads the next frame.
    ///
    /// # Errors
    /// Only the input's own read errors.
    pub fn read(&mut self) -> std::io::Result<Frame> {
        if std::mem::take(&mut self.lost) && !self.skip_to_header()? {
            return Ok(Frame::End);
        }
        let frame = self.read_frame()?;
        if let Frame::Bad(Framing::Lost(_)) = &frame {
            self.lost = self.pending.is_none();
        }
        Ok(match frame {
            Frame::Message(m) => Frame::Message(m),
            Frame::Bad(Framing::Lost(why) | Framing::Kept(why)) => Frame::Bad(why),
            Frame::End => Frame::End,
        })
    }

    fn read_frame(&mut self) -> std::io::Result<Frame<Framing>> {
        let mut length: Option<Result<u64, String>> = None;
        let mut problem: Option<String> = None;
        let mut seen_header = false;
        loop {
            let line = match self.header_line()? {
                None if !seen_header => return Ok(Frame::End),
                None => return Ok(Frame::Bad(Framing::Kept("the input ended inside a message's headers".into()))),
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
                    if length.is_some() {
                        problem.get_or_insert("two Content-Length headers".into());
                    }
                    length = Some(
                        value
                            .trim()
                            .parse::<u64>()
                            .map_err(|_| format!("Content-Length `{}` is not a number", value.trim())),
                    );
                }
                Some((name, _)) if is_header_name(name.trim()) && find_length_header(line.as_bytes()).is_none_or(|at| at == 0) => {}
                _ => {
                    // Not a header: most likely a body that followed headers without their blank
                    // line. A `Content-Length:` further on this line begins the next message.
                    if let Some(at) = find_length_header(line.as_bytes()).filter(|&at| at > 0) {
                        self.pending = Some(Ok(line[at..].to_string()));
                    }
                    let shown: String = line.chars().take(80).collect();
                    return Ok(Frame::Bad(Framing::Lost(format!("`{shown}` is not a header (NAME: VALUE)"))));
                }
            }
        }
        let n = match length {
            _ if problem.is_some() => {
                return Ok(Frame::Bad(Framing::Lost(problem.unwrap_or_default())));
            }
            Some(Ok(n)) if n <= MAX_MESSAGE as u64 => n as usize,
            Some(Ok(n)) => {
                // Too large to hold: the body is skipped as it streams by.
                let mut rest = std::io::Read::take(&mut self.input, n);
                std::io::copy(&mut rest, &mut std::io::sink())?;
                return Ok(Frame::Bad(Framing::Kept(format!(
                    "Content-Length {n} is over the limit of {MAX_MESSAGE} bytes"
                ))));
            }
            Some(Err(e)) => return Ok(Frame::Bad(Framing::Lost(e))),
            None => {
                return Ok(Frame::Bad(Framing::Lost("a message without a Content-Length header".into())));
            }
        };
        let mut body = vec![0u8; n];
        let mut got = 0;
        while got < n {
            let k = self.input.read(&mut body[got..])?;
            if k == 0 {
                return Ok(Frame::Bad(Framing::Kept(format!(
                    "the input ended {got} bytes into a message of {n}"
                ))));
            }
            got += k;
        }
        match String::from_utf8(body) {
            Ok(s) => Ok(Frame::Message(s)),
            Err(_) => Ok(Frame::Bad(Framing::Kept("a message body that is not UTF-8".into()))),
        }
    }
}

/// Why a frame could not be read, and whether the stream is still in step after it.
enum Framing {
    /// Its length was known and its body skipped: the next frame starts where it ended.
    Kept(String),
    /// Where it ends is unknown: the reader skips ahead to the next `Content-Length:`.
    Lost(String),
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
        let mut reader = Reader::new(std::io::Cursor::new(bytes.to_vec()));
        let mut out = Vec::new();
        loop {
            match reader.read().expect("a cursor reads") {
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

    /// Each way a frame's length can be wrong or unknown: the bad frame is named, and the message
    /// after it, written right after the bad one's body as clients write, is read whole.
    #[test]
    fn after_a_frame_of_unknown_length_the_next_message_is_read() {
        let body = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;
        let next = r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#;
        let good = format!("Content-Length: {}\r\n\r\n{next}", next.len());
        let bad = [
            ("not a number", format!("Content-Length: abc\r\n\r\n{body}")),
            ("without a Content-Length", format!("Content-Type: x\r\n\r\n{body}")),
            (
                "two Content-Length",
                format!("Content-Length: {}\r\nContent-Length: 3\r\n\r\n{body}", body.len()),
            ),
            ("not a header", format!("Content-Length: {}\r\n{body}", body.len())),
            ("not a header", format!("X-Junk\r\nContent-Length: {}\r\n\r\n{body}", body.len())),
        ];
        for (why, frame) in bad {
            let got = frames(format!("{frame}{good}").as_bytes());
            assert!(matches!(&got[0], Frame::Bad(e) if e.contains(why)), "{frame:?}: {got:?}");
            assert_eq!(got.last(), Some(&Frame::Message(next.into())), "{frame:?}: {got:?}");
        }
        // A length too small or too large: the body read is not JSON (the server says so), and the
        // rest before the next header is no header.
        let got = frames(format!("Content-Length: 10\r\n\r\n{body}{good}").as_bytes());
        assert_eq!(got[0], Frame::Message(body[..10].into()));
        assert!(matches!(&got[1], Frame::Bad(e) if e.contains("not a header")), "{got:?}");
        assert_eq!(got[2..], [Frame::Message(next.into())]);
        let long = format!("Content-Length: {}\r\n\r\n{body}{good}{good}", body.len() + 30);
        let got = frames(long.as_bytes());
        assert!(matches!(&got[1], Frame::Bad(e) if e.contains("not a header")), "{got:?}");
        assert_eq!(got[2..], [Frame::Message(next.into())]);
        // Glued to letters only, a header is still found.
        let got = frames(format!("Content-Length: 3\r\n\r\nabcdef{good}").as_bytes());
        assert_eq!(
            got[1..],
            [
                Frame::Bad("`defContent-Length: 44` is not a header (NAME: VALUE)".into()),
                Frame::Message(next.into())
            ]
        );
        // Skipping ahead to an input that ends: the end.
        assert_eq!(
            frames(b"Content-Length: x\r\n\r\n{}{}"),
            [Frame::Bad("Content-Length `x` is not a number".into())]
        );
    }
}
