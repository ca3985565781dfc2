//! The canonical layout of a `.rules` file, as the bundled rulesets are laid out: two spaces per
//! block level, one space between words, a clause's closing citation at column 66 (two spaces
//! after a longer line), one blank line at most between items, and every comment kept where it
//! was (a comment of its own line indented as the code around it). `arbiter fmt` and the language
//! server's formatting share this one function.
//!
//! Only whitespace changes: a string, a citation or a comment is copied as written, and one space
//! is left wherever there was any, so a formatted file reads as the same tokens. A file that does
//! not parse is left alone (its layout may be what the parser could not read), and the result is
//! parsed again before it is handed back: a layout that would read differently is an error, never
//! an output.

use crate::diag::{Diagnostics, FileId};

/// The column (counted from 0) where a clause's closing citation starts, as in the bundled
/// rulesets: `step any` followed by spaces up to it, then `[3.8.1]`.
pub const CITATION_COLUMN: usize = 65;
/// Spaces in one level of indentation.
pub const INDENT: usize = 2;

/// Why a file was not formatted.
#[derive(Debug, Clone)]
pub enum FormatError {
    /// The file does not parse; formatting waits until it does (the diagnostics say where).
    Syntax(Diagnostics),
    /// The layout produced reads differently from the original (a bug; the file is untouched).
    Changed(String),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(d) => write!(f, "the file has {} syntax error(s); fix them first", d.error_count()),
            FormatError::Changed(why) => write!(f, "the formatted text would read differently ({why}); the file is left as it is"),
        }
    }
}

/// One piece of a line.
#[derive(Clone, Debug, PartialEq)]
enum Piece<'a> {
    /// Code between strings, citations and comments, whitespace already collapsed (may be empty).
    Code(String),
    /// `"..."` as written (an unclosed one runs to the end of the line).
    Str(&'a str),
    /// `[...]` as written.
    Cite(&'a str),
    /// `# ...` to the end of the line.
    Comment(&'a str),
}

/// A line cut into pieces, with whether whitespace stood before each.
fn pieces(line: &str) -> Vec<(bool, Piece<'_>)> {
    let mut out: Vec<(bool, Piece<'_>)> = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut code = String::new();
    let mut code_space_before = false;
    let mut pending_space = false;
    let flush = |code: &mut String, out: &mut Vec<(bool, Piece<'_>)>, space_before: bool| {
        if !code.is_empty() {
            out.push((space_before, Piece::Code(std::mem::take(code))));
        }
    };
    while i < bytes.len() {
        let c = bytes[i];
        let closing = |open: usize, close: u8| -> usize {
            match bytes[open + 1..].iter().position(|&b| b == close) {
                Some(p) => open + 1 + p + 1,
                None => bytes.len(),
            }
        };
        match c {
            b' ' | b'\t' | b'\r' => {
                pending_space = true;
                i += 1;
            }
            b'"' | b'[' | b'#' => {
                flush(&mut code, &mut out, code_space_before);
                let end = match c {
                    b'"' => closing(i, b'"'),
                    b'[' => closing(i, b']'),
                    _ => bytes.len(),
                };
                let text = &line[i..end];
                let piece = match c {
                    b'"' => Piece::Str(text),
                    b'[' => Piece::Cite(text),
                    _ => Piece::Comment(text.trim_end()),
                };
                out.push((pending_space, piece));
                pending_space = false;
                i = end;
            }
            _ => {
                if code.is_empty() {
                    code_space_before = pending_space;
                } else if pending_space {
                    code.push(' ');
                }
                pending_space = false;
                // One character at a time (a multi-byte one whole).
                let ch = line[i..].chars().next().expect("inside the line");
                code.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    flush(&mut code, &mut out, code_space_before);
    out
}

/// The code of a line's pieces (strings and citations as placeholders), for counting braces and
/// spotting continuations.
fn code_of(pieces: &[(bool, Piece<'_>)]) -> String {
    let mut s = String::new();
    for (_, p) in pieces {
        match p {
            Piece::Code(c) => {
                s.push(' ');
                s.push_str(c);
            }
            Piece::Str(_) => s.push_str(" \"\""),
            Piece::Cite(_) => s.push_str(" []"),
            Piece::Comment(_) => {}
        }
    }
    s.trim().to_string()
}

/// Does a line whose code is `code` leave its clause open for the next line (`setup empty, plus
/// ... ,` then the rest)?
fn leaves_open(code: &str) -> bool {
    let code = code.trim_end();
    [",", "|", "->", "(", "+", "*", "=", ":"].iter().any(|t| code.ends_with(t))
        || ["and", "or", "plus", "with"].iter().any(|w| {
            code.strip_suffix(w)
                .is_some_and(|before| before.is_empty() || before.ends_with(' '))
        })
}

/// Does a line whose code is `code` go on with the clause above it?
fn goes_on(code: &str) -> bool {
    ["|", "->", ",", ")", "+", "*"].iter().any(|t| code.starts_with(t)) || ["and ", "or "].iter().any(|w| code.starts_with(w))
}

/// The canonical layout of `source` (see the module's documentation).
///
/// # Errors
/// The file does not parse, or (never expected) the new layout would read differently.
pub fn format(source: &str) -> Result<String, FormatError> {
    let mut diags = Diagnostics::default();
    let before = super::parse_file(source, FileId(0), &mut diags);
    if diags.has_errors() {
        return Err(FormatError::Syntax(diags));
    }
    let text = layout(source);
    let mut again = Diagnostics::default();
    let after = super::parse_file(&text, FileId(0), &mut again);
    if again.has_errors() {
        return Err(FormatError::Changed("it would not parse".into()));
    }
    if before.items.len() != after.items.len() {
        return Err(FormatError::Changed(format!(
            "{} items instead of {}",
            after.items.len(),
            before.items.len()
        )));
    }
    Ok(text)
}

/// A line of the new layout before it is written: its pieces and indentation, and whether blank
/// lines stood before it.
struct Line<'a> {
    pieces: Vec<(bool, Piece<'a>)>,
    indent: usize,
    blank_before: bool,
}

/// The new layout, line by line.
fn layout(source: &str) -> String {
    let source = source.strip_prefix('\u{FEFF}').unwrap_or(source);
    let mut lines: Vec<Line<'_>> = Vec::new();
    let mut depth: usize = 0;
    let mut blank_run = 0usize;
    let mut open_clause = false;
    for raw in source.split('\n') {
        let ps = pieces(raw);
        if ps.is_empty() {
            blank_run += 1;
            continue;
        }
        let code = code_of(&ps);
        let leading_closers = code.chars().take_while(|&c| c == '}' || c == ' ').filter(|&c| c == '}').count();
        let continued = !code.is_empty() && (open_clause || goes_on(&code)) && leading_closers == 0;
        let level = depth.saturating_sub(leading_closers) + usize::from(continued);
        lines.push(Line {
            pieces: ps,
            indent: INDENT * level,
            blank_before: blank_run > 0 && !lines.is_empty(),
        });
        blank_run = 0;
        depth = (depth + code.matches('{').count()).saturating_sub(code.matches('}').count());
        if !code.is_empty() {
            open_clause = leaves_open(&code) && !code.ends_with('{');
        }
    }
    // Runs of like lines align their anchors, as the bundled rulesets do: `zone a  = ...` under
    // `zone abc = ...`, `piece Queen "Q"  { ... }` under `piece Bishop "B" { ... }`.
    let mut pads = vec![0usize; lines.len()];
    let mut i = 0;
    while i < lines.len() {
        let Some(kind) = anchor_kind(&lines[i].pieces) else {
            i += 1;
            continue;
        };
        let mut j = i + 1;
        while j < lines.len() && !lines[j].blank_before && lines[j].indent == lines[i].indent && anchor_kind(&lines[j].pieces) == Some(kind)
        {
            j += 1;
        }
        if j - i > 1 {
            let cols: Vec<usize> = (i..j)
                .map(|k| anchor_column(&render(&lines[k].pieces, lines[k].indent, None), kind).unwrap_or(0))
                .collect();
            let target = cols.iter().copied().max().unwrap_or(0);
            for (k, col) in (i..j).zip(cols) {
                pads[k] = target - col;
            }
        }
        i = j;
    }
    let mut out = String::new();
    for (line, pad) in lines.iter().zip(pads) {
        if line.blank_before {
            out.push('\n');
        }
        out.push_str(&render(&line.pieces, line.indent, Some((anchor_kind(&line.pieces), pad))));
        out.push('\n');
    }
    out
}

/// What a line aligns on, if it is one of a run of like lines: the `=` of a `zone` or
/// `direction`, the `{` of a piece written on one line.
fn anchor_kind(ps: &[(bool, Piece<'_>)]) -> Option<&'static str> {
    let Some((_, Piece::Code(first))) = ps.first() else { return None };
    let word = first.split(' ').next().unwrap_or("");
    let code = code_of(ps);
    match word {
        "zone" | "direction" if first.contains(" = ") => Some(" = "),
        "piece" if code.contains('{') && code.ends_with('}') => Some("{"),
        _ => None,
    }
}

/// The column of the anchor in a rendered line.
fn anchor_column(line: &str, anchor: &str) -> Option<usize> {
    // The anchor never stands inside the piece's letter string before it (`"K"`): letters are
    // letters.
    line.find(anchor).map(|b| line[..b].chars().count())
}

/// One line: its indentation, its pieces joined by single spaces, a closing citation aligned.
fn render(ps: &[(bool, Piece<'_>)], indent: usize, align: Option<(Option<&str>, usize)>) -> String {
    // The citation that closes a clause: the last citation, followed only by `}` and a comment.
    let closing_cite = ps.iter().rposition(|(_, p)| matches!(p, Piece::Cite(_))).filter(|&i| {
        i > 0
            && ps[i + 1..].iter().all(|(_, p)| match p {
                Piece::Code(c) => c.chars().all(|ch| ch == '}' || ch == ' '),
                Piece::Comment(_) => true,
                _ => false,
            })
    });
    let mut line = " ".repeat(indent);
    let start = line.len();
    let mut anchor = match align {
        Some((Some(a), pad)) if pad > 0 => Some((a, pad)),
        _ => None,
    };
    for (i, (space, p)) in ps.iter().enumerate() {
        let padded;
        let text: &str = match p {
            Piece::Code(c) => match anchor.and_then(|(a, pad)| c.find(a.trim_start()).map(|at| (at, pad))) {
                Some((at, pad)) => {
                    anchor = None;
                    // Spaces before the anchor (after the one already there, if any).
                    padded = format!("{}{}{}", &c[..at], " ".repeat(pad), &c[at..]);
                    &padded
                }
                None => c,
            },
            Piece::Str(s) | Piece::Cite(s) => s,
            Piece::Comment(c) => c,
        };
        if line.len() > start {
            if Some(i) == closing_cite {
                let width = line.chars().count();
                let pad = if width + 2 <= CITATION_COLUMN { CITATION_COLUMN - width } else { 2 };
                line.push_str(&" ".repeat(pad));
            } else if matches!(p, Piece::Comment(_)) {
                line.push_str("  ");
            } else if *space {
                line.push(' ');
            }
        }
        line.push_str(text);
    }
    line.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_spaced_once_blocks_indented_and_citations_aligned() {
        let messy = "game \"X\"   {\n players  white \"w\",black \"b\" [2.1]\n}\n\n\n\npiece King \"K\" royal {\n\tstep any [3.8.1]\n  }\n";
        let want = format!(
            "game \"X\" {{\n  players white \"w\",black \"b\"{}[2.1]\n}}\n\npiece King \"K\" royal {{\n  step any{}[3.8.1]\n}}\n",
            " ".repeat(CITATION_COLUMN - 29),
            " ".repeat(CITATION_COLUMN - 10)
        );
        assert_eq!(layout(messy), want);
        assert_eq!(layout(&want), want, "idempotent");
    }

    #[test]
    fn strings_citations_and_comments_are_copied_as_written() {
        let text = "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1\"   #  two  spaces  kept\n";
        assert_eq!(
            layout(text),
            "setup \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w KQkq - 0 1\"  #  two  spaces  kept\n"
        );
        let cite = "forbid royal attacked [a  b]\n";
        assert!(layout(cite).ends_with("[a  b]\n"), "{}", layout(cite));
    }

    #[test]
    fn a_long_line_keeps_two_spaces_before_its_citation_and_a_block_header_one() {
        let long = format!("end {{\n  {}: no legal move -> draw [5.2.1]\n}}\n", "x".repeat(70));
        assert!(layout(&long).contains("-> draw  [5.2.1]"), "{}", layout(&long));
        let header = "board 8 x 8 squares   [2.1]   {\n  files a..h\n}\n";
        assert_eq!(layout(header), "board 8 x 8 squares [2.1] {\n  files a..h\n}\n");
    }

    #[test]
    fn a_clause_that_goes_on_is_indented_one_level_more() {
        let text = "setup empty, plus handicap Stone on handicap points,\nwhite receives handicap instead of komi [9]\n";
        let got = layout(text);
        assert!(got.contains("\n  white receives handicap instead of komi"), "{got}");
    }

    /// A closing citation glued to its clause is set off and aligned: the clause checks to the
    /// same rules, its text for explanations included (they differed, found by the long fuzz run),
    /// and that text keeps a citation with a `#` in it whole.
    #[test]
    fn a_citation_glued_to_its_clause_formats_to_the_same_rules() {
        let text = "game \"X\" { players white \"w\", black \"b\" }\nboard 3 x 3 squares { files a..c  ranks 1..3 }\n\
                    piece King \"K\" royal { step any[1.1 #a] }  # a comment\npiece Rook \"R\" {\n  slide orthogonal[ [1.2]\n}\n\
                    forbid royal attacked\nend { checkmate: no legal move, in check -> side to move loses }\n\
                    setup \"k2/3/K1R w - - 0 1\"\n";
        let new = format(text).expect("it parses");
        assert!(new.contains("step any ") && !new.contains("any[1.1"), "{new}");
        let (before, after) = (
            crate::check::check_source("x.rules", text, None, &[]),
            crate::check::check_source("x.rules", &new, None, &[]),
        );
        assert!(before.rules.is_some(), "{:?}", before.diagnostics.sorted());
        assert!(before.rules == after.rules, "{text}\n{new}");
        let rules = before.rules.expect("checked");
        let texts: Vec<&str> = rules.kinds.iter().flat_map(|k| k.forms.iter().map(|f| f.text.as_str())).collect();
        // (A `#` inside a citation starts no comment.)
        assert_eq!(texts, ["step any [1.1 #a]", "slide orthogonal [ [1.2]"]);
    }

    #[test]
    fn a_file_that_does_not_parse_is_left_alone() {
        let err = format("piece King \"K\" {\n  step any\n").expect_err("unclosed");
        assert!(matches!(err, FormatError::Syntax(_)), "{err:?}");
        assert!(err.to_string().contains("syntax error"), "{err}");
    }
}
