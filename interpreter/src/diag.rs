//! Diagnostics: plain data (severity, stable code, message, span, labels, help), collected in a sink
//! and rendered only at the edge (the command line). Every stage reports into a [`Diagnostics`] sink
//! and keeps going, so a user sees every problem of a ruleset at once.

use std::fmt;

/// Index of a source file in a [`Sources`] map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The source texts a ruleset was read from (a file and everything it extends).
#[derive(Clone, Debug, Default)]
pub struct Sources {
    files: Vec<(String, String)>,
    /// For each file, where its lines start and how many characters come before each
    /// [`CHECKPOINT`]-byte block, so [`Sources::line_col`] costs no more than one block of counting.
    index: Vec<LineIndex>,
}

/// Bytes between two counts of characters in a [`LineIndex`].
const CHECKPOINT: usize = 1024;

#[derive(Clone, Debug, Default)]
struct LineIndex {
    line_starts: Vec<usize>,
    /// `(byte, characters before it)` at the first character boundary at or after each multiple of
    /// [`CHECKPOINT`].
    checkpoints: Vec<(usize, usize)>,
}

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let mut checkpoints = vec![(0, 0)];
        let (mut at, mut chars) = (0, 0);
        while at + CHECKPOINT < text.len() {
            let mut next = at + CHECKPOINT;
            while !text.is_char_boundary(next) {
                next += 1;
            }
            chars += text[at..next].chars().count();
            at = next;
            checkpoints.push((at, chars));
        }
        LineIndex { line_starts, checkpoints }
    }
    /// How many characters come before byte `offset` (a character boundary).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let k = self.checkpoints.partition_point(|&(b, _)| b <= offset) - 1;
        let (b, c) = self.checkpoints[k];
        c + text.get(b..offset).map_or(0, |t| t.chars().count())
    }
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        let text = text.into();
        self.index.push(LineIndex::new(&text));
        self.files.push((name.into(), text));
        FileId(self.files.len() as u32 - 1)
    }
    /// The names of the files read, the ruleset first, then each file it extends.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(n, _)| n.as_str())
    }
    pub fn name(&self, id: FileId) -> &str {
        &self.files[id.0 as usize].0
    }
    pub fn text(&self, id: FileId) -> &str {
        &self.files[id.0 as usize].1
    }
    pub fn slice(&self, span: Span) -> &str {
        &self.text(span.file)[span.start as usize..span.end as usize]
    }
    /// The text under `span` for a message: cut short past [`MAX_TOKEN_CHARS`] characters (an
    /// expression of 100,000 terms is not repeated whole in its error).
    pub fn shown(&self, span: Span) -> String {
        let text = self.slice(span);
        if text.chars().count() > MAX_TOKEN_CHARS {
            let mut cut: String = text.chars().take(MAX_TOKEN_CHARS).collect();
            cut.push('…');
            cut
        } else {
            text.to_string()
        }
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let text = self.text(file);
        let index = &self.index[file.0 as usize];
        let mut offset = (offset as usize).min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = index.line_starts.partition_point(|&s| s <= offset);
        let start = index.line_starts[line - 1];
        let col = index.chars_before(text, offset) - index.chars_before(text, start) + 1;
        (line, col)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Warning,
    Error,
}

/// One problem found in a ruleset.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable code, e.g. `E0201`; see [`codes`].
    pub code: &'static str,
    pub message: String,
    pub span: Span,
    /// The text under the caret.
    pub label: String,
    /// Further spans with their own text (e.g. "first defined here").
    pub labels: Vec<(Span, String)>,
    /// Hints: "did you mean `Knight`?", "expected one of ...".
    pub help: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span,
            label: String::new(),
            labels: Vec::new(),
            help: Vec::new(),
        }
    }
    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }
    pub fn label(mut self, text: impl Into<String>) -> Diagnostic {
        self.label = text.into();
        self
    }
    pub fn with(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push((span, text.into()));
        self
    }
    pub fn help(mut self, text: impl Into<String>) -> Diagnostic {
        self.help.push(text.into());
        self
    }
}

/// Stable diagnostic codes. The manual (`rulesets/README.md`) lists them with examples.
pub mod codes {
    /// The parser could not read an item or clause.
    pub const SYNTAX: &str = "E0001";
    /// A ruleset file could not be read (missing `extends` target, cycle).
    pub const FILE: &str = "E0002";
    /// A name that is not defined (piece, zone, direction, parameter).
    pub const UNKNOWN_NAME: &str = "E0101";
    /// A name defined twice.
    pub const DUPLICATE: &str = "E0102";
    /// A value of the wrong type (a decimal where a count is needed, ...).
    pub const TYPE: &str = "E0201";
    /// A value outside the range the engine supports (board size, ray length, number of kinds).
    pub const BOUND: &str = "E0202";
    /// Clauses that contradict each other or cannot work together.
    pub const CONTRADICTION: &str = "E0301";
    /// Something every ruleset needs is missing (board, players, a setup).
    pub const MISSING: &str = "E0302";
    /// The setup position does not fit the rules.
    pub const SETUP: &str = "E0303";
    /// Defined but never used.
    pub const UNUSED: &str = "W0001";
    /// An override that overrides nothing, or a redundant clause.
    pub const REDUNDANT: &str = "W0002";
    /// A hint of the language server's: citations that name no rule book (no `cite` line).
    pub const CITE_SOURCE: &str = "H0001";
}

/// Where stages put their problems.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity == Severity::Error)
    }
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.severity == Severity::Error).count()
    }
    pub fn warning_count(&self) -> usize {
        self.items.iter().filter(|d| d.severity == Severity::Warning).count()
    }
    /// Diagnostics in source order (file, then position), as a user reads them.
    pub fn sorted(&self) -> Vec<&Diagnostic> {
        let mut v: Vec<&Diagnostic> = self.items.iter().collect();
        v.sort_by_key(|d| (d.span.file.0, d.span.start, d.severity));
        v
    }
}

/// How many diagnostics [`render`] shows; the rest are counted in a last note.
pub const MAX_SHOWN: usize = 50;

/// Source lines longer than this many characters are shown as a window of this width around the
/// caret, with `…` where text is left out.
pub const MAX_LINE_CHARS: usize = 120;

/// How many characters of the line a window keeps before the column it shows.
const WINDOW_LEAD: usize = 40;

/// A quoted token longer than this many characters in a message is shortened with `…`.
pub const MAX_TOKEN_CHARS: usize = 80;

/// Renders diagnostics like rustc: `error[E0101]: ...`, `--> file:line:col`, the line and a caret.
///
/// At most [`MAX_SHOWN`] diagnostics are shown, in source order, then a note counts the rest. A
/// source line longer than [`MAX_LINE_CHARS`] is shown as a window around the caret, and a token
/// quoted in a message (`unexpected `…``) is cut at [`MAX_TOKEN_CHARS`], so one long line full of
/// errors cannot print megabytes.
pub fn render(sources: &Sources, diags: &Diagnostics, color: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as CsDiag, Label};
    use codespan_reporting::term::{self, Config, termcolor};

    let config = Config {
        chars: term::Chars::ascii(),
        ..Config::default()
    };
    let originals: Vec<Original> = sources.files.iter().map(|(n, t)| Original::new(n, t)).collect();
    let mut out = termcolor::Buffer::no_color();
    let mut colored = termcolor::Buffer::ansi();
    let sorted = diags.sorted();
    for d in sorted.iter().take(MAX_SHOWN) {
        let mut spans = vec![d.span];
        spans.extend(d.labels.iter().map(|(s, _)| *s));
        let view = View::new(&originals, &spans);
        let mut cs = match d.severity {
            Severity::Error => CsDiag::error(),
            Severity::Warning => CsDiag::warning(),
        }
        .with_code(d.code)
        .with_message(shorten_quoted(&d.message));
        let mut labels = vec![Label::primary(d.span.file.0 as usize, view.range(d.span)).with_message(shorten_quoted(&d.label))];
        for (s, t) in &d.labels {
            labels.push(Label::secondary(s.file.0 as usize, view.range(*s)).with_message(shorten_quoted(t)));
        }
        cs = cs
            .with_labels(labels)
            .with_notes(d.help.iter().map(|h| format!("help: {}", shorten_quoted(h))).collect());
        let buf = if color { &mut colored } else { &mut out };
        // Emitting into an in-memory buffer only fails on an invalid span, which is a bug upstream.
        let _ = term::emit(buf, &config, &view, &cs);
    }
    let mut text = String::from_utf8_lossy(&if color { colored.into_inner() } else { out.into_inner() }).into_owned();
    if sorted.len() > MAX_SHOWN {
        let rest = &sorted[MAX_SHOWN..];
        let errors = rest.iter().filter(|d| d.severity == Severity::Error).count();
        let warnings = rest.len() - errors;
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        text.push_str(&format!(
            "note: {} more not shown ({}, {}); `arbiter check --json` lists them all\n\n",
            rest.len(),
            plural(errors, "error"),
            plural(warnings, "warning")
        ));
    }
    text
}

/// A word of a message (text between spaces) longer than this many characters is cut short,
/// quoted or not: what a user gave by mistake (a file's contents as an argument) comes back in a
/// line, while a real path or position fits (a full board of four-player chess in FEN is under
/// 340 characters).
pub const MAX_WORD_CHARS: usize = 400;

/// `unexpected `xxxxxxxx…``: every backquoted token longer than [`MAX_TOKEN_CHARS`] cut short,
/// and every other word longer than [`MAX_WORD_CHARS`] (its closing punctuation kept).
pub fn shorten_quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4 * MAX_WORD_CHARS));
    for (i, part) in text.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        // Odd parts are inside backquotes.
        if i % 2 == 1 && part.chars().count() > MAX_TOKEN_CHARS {
            out.extend(part.chars().take(MAX_TOKEN_CHARS));
            out.push('…');
        } else {
            shorten_words(part, &mut out);
        }
    }
    out
}

/// Writes `text` to `out` with each word longer than [`MAX_WORD_CHARS`] cut to its first
/// [`MAX_TOKEN_CHARS`] characters, `…`, and the punctuation that closed it.
fn shorten_words(text: &str, out: &mut String) {
    if text.len() <= MAX_WORD_CHARS {
        out.push_str(text);
        return;
    }
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        if word.chars().count() > MAX_WORD_CHARS {
            let kept = word.trim_end_matches(|c: char| c.is_ascii_punctuation());
            let closing = &word[kept.len()..];
            out.extend(word.chars().take(MAX_TOKEN_CHARS));
            out.push('…');
            out.extend(closing.chars().take(3));
        } else {
            out.push_str(word);
        }
        let next = rest[end..].find(|c: char| !c.is_whitespace()).map_or(rest.len(), |i| end + i);
        out.push_str(&rest[end..next]);
        rest = &rest[next..];
    }
}

/// A source file with the byte offsets where its lines start.
struct Original<'s> {
    name: &'s str,
    text: &'s str,
    line_starts: Vec<usize>,
    /// Whether any line is longer than [`MAX_LINE_CHARS`] (most files have none: they are shown as they are).
    long: bool,
}

impl<'s> Original<'s> {
    fn new(name: &'s str, text: &'s str) -> Original<'s> {
        let line_starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let long = line_starts.iter().enumerate().any(|(i, &s)| {
            let e = line_starts.get(i + 1).copied().unwrap_or(text.len());
            e - s > MAX_LINE_CHARS && text[s..e].chars().count() > MAX_LINE_CHARS
        });
        Original {
            name,
            text,
            line_starts,
            long,
        }
    }
    fn line_of(&self, byte: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= byte) - 1
    }
    /// The byte range of line `i`, without its line break.
    fn line(&self, i: usize) -> (usize, usize) {
        let s = self.line_starts[i];
        let e = self.line_starts.get(i + 1).map_or(self.text.len(), |&n| n - 1);
        (s, e.max(s))
    }
}

/// A long line as one diagnostic shows it: the bytes `from..to` of the original, with `…` before
/// and after where text is left out.
#[derive(Clone, Copy)]
struct Window {
    /// Where the line starts in the shown text.
    shown_start: usize,
    from: usize,
    to: usize,
    /// The length in bytes of the `…` before the window (0 or 3).
    lead: usize,
    /// Where the line ends in the original and in the shown text (before any `…` after it).
    original_end: usize,
    shown_end: usize,
}

/// The files one diagnostic shows: each long line cut to a window around the diagnostic's columns.
struct View<'s> {
    files: Vec<ViewFile<'s>>,
}

struct ViewFile<'s> {
    original: &'s Original<'s>,
    /// The shown text: the original when no line is long.
    text: std::borrow::Cow<'s, str>,
    line_starts: Vec<usize>,
    /// The window of each long line, by line index.
    windows: std::collections::HashMap<usize, Window>,
}

impl<'s> View<'s> {
    fn new(originals: &'s [Original<'s>], spans: &[Span]) -> View<'s> {
        let files = originals
            .iter()
            .enumerate()
            .map(|(id, o)| {
                if !o.long {
                    return ViewFile {
                        original: o,
                        text: std::borrow::Cow::Borrowed(o.text),
                        line_starts: o.line_starts.clone(),
                        windows: Default::default(),
                    };
                }
                // Where on each line the diagnostic points: the first label start there, or else
                // the first label end (the last line of a span over several lines).
                let mut anchors: std::collections::HashMap<usize, usize> = Default::default();
                for s in spans.iter().filter(|s| s.file.0 as usize == id) {
                    let start = (s.start as usize).min(o.text.len());
                    let a = anchors.entry(o.line_of(start)).or_insert(start);
                    *a = (*a).min(start);
                }
                for s in spans.iter().filter(|s| s.file.0 as usize == id) {
                    let end = (s.end as usize).min(o.text.len());
                    anchors.entry(o.line_of(end)).or_insert(end);
                }
                let mut text = String::with_capacity(o.text.len().min(1 << 16));
                let mut line_starts = Vec::with_capacity(o.line_starts.len());
                let mut windows = std::collections::HashMap::new();
                for i in 0..o.line_starts.len() {
                    let (s, e) = o.line(i);
                    line_starts.push(text.len());
                    let line = &o.text[s..e];
                    let chars = line.chars().count();
                    if chars <= MAX_LINE_CHARS {
                        text.push_str(line);
                    } else {
                        let anchor = anchors
                            .get(&i)
                            .and_then(|&a| o.text.get(s..a.max(s)))
                            .map_or(0, |t| t.chars().count());
                        let first = anchor.saturating_sub(WINDOW_LEAD).min(chars - MAX_LINE_CHARS);
                        let byte = |c: usize| line.char_indices().nth(c).map_or(line.len(), |(b, _)| b);
                        let (from, to) = (s + byte(first), s + byte(first + MAX_LINE_CHARS));
                        let lead = if first > 0 { "…" } else { "" };
                        let shown_start = text.len();
                        text.push_str(lead);
                        text.push_str(&o.text[from..to]);
                        let shown_end = text.len();
                        if to < e {
                            text.push('…');
                        }
                        windows.insert(
                            i,
                            Window {
                                shown_start,
                                from,
                                to,
                                lead: lead.len(),
                                original_end: e,
                                shown_end,
                            },
                        );
                    }
                    if e < o.text.len() {
                        text.push('\n');
                    }
                }
                ViewFile {
                    original: o,
                    text: std::borrow::Cow::Owned(text),
                    line_starts,
                    windows,
                }
            })
            .collect();
        View { files }
    }

    /// Where an original byte offset is in the shown text: a point left out of a window is shown
    /// at the `…` that stands for it.
    fn shown(&self, file: usize, byte: usize) -> usize {
        let f = &self.files[file];
        let o = f.original;
        let byte = byte.min(o.text.len());
        let line = o.line_of(byte);
        match f.windows.get(&line) {
            None => f.line_starts[line] + (byte - o.line_starts[line]),
            Some(w) if byte < w.from => w.shown_start,
            Some(w) if byte <= w.to => w.shown_start + w.lead + (byte - w.from),
            Some(w) if w.to == w.original_end => w.shown_end,
            // Past the window: up to the end of the `…` after it.
            Some(_) => f.line_starts.get(line + 1).map_or(f.text.len(), |&n| n - 1),
        }
    }

    /// The shown byte range of a span.
    fn range(&self, s: Span) -> std::ops::Range<usize> {
        let f = s.file.0 as usize;
        let start = self.shown(f, s.start as usize);
        start..self.shown(f, s.end as usize).max(start)
    }
}

impl<'a> codespan_reporting::files::Files<'a> for View<'_> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files
            .get(id)
            .map(|f| f.original.name)
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }
    fn source(&'a self, id: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        self.files
            .get(id)
            .map(|f| f.text.as_ref())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }
    fn line_index(&'a self, id: usize, byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        let f = self.files.get(id).ok_or(codespan_reporting::files::Error::FileMissing)?;
        Ok(f.line_starts.partition_point(|&s| s <= byte_index).saturating_sub(1))
    }
    fn line_range(&'a self, id: usize, line_index: usize) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let f = self.files.get(id).ok_or(codespan_reporting::files::Error::FileMissing)?;
        let start = *f
            .line_starts
            .get(line_index)
            .ok_or(codespan_reporting::files::Error::LineTooLarge {
                given: line_index,
                max: f.line_starts.len() - 1,
            })?;
        let end = f.line_starts.get(line_index + 1).copied().unwrap_or(f.text.len());
        Ok(start..end)
    }
    /// The column in the original line, counted in characters, wherever the window starts.
    fn column_number(&'a self, id: usize, line_index: usize, byte_index: usize) -> Result<usize, codespan_reporting::files::Error> {
        let f = self.files.get(id).ok_or(codespan_reporting::files::Error::FileMissing)?;
        let original = match f.windows.get(&line_index) {
            None => {
                let start = f.line_starts[line_index];
                f.original.line_starts[line_index] + (byte_index.max(start) - start)
            }
            Some(w) => w.from + byte_index.saturating_sub(w.shown_start + w.lead).min(w.to - w.from),
        };
        let line_start = f.original.line_starts[line_index];
        let original = original.min(f.original.text.len());
        let column = f.original.text.get(line_start..original).map_or(0, |t| t.chars().count());
        Ok(column + 1)
    }
}

/// The longest name [`suggest`] compares.
pub const SUGGEST_MAX_CHARS: usize = 40;

/// "did you mean `x`?": the closest candidate within a small edit distance.
/// Names longer than [`SUGGEST_MAX_CHARS`] get no suggestion and are suggested for none: the edit
/// distance takes time and memory in the product of the two lengths.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let chars = name.chars().count();
    if chars > SUGGEST_MAX_CHARS {
        return None;
    }
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let c_chars = c.chars().count();
        let longer = chars.max(c_chars);
        let limit = (longer / 3).max(1);
        // The distance is at least the difference in length: no need to compute it.
        if c_chars > SUGGEST_MAX_CHARS || chars.abs_diff(c_chars) > limit {
            continue;
        }
        let d = edit_distance(&lower, &c.to_lowercase());
        // `d < longer`: a candidate that shares nothing with the name (one letter for another) is
        // no suggestion.
        if d <= limit && d < longer && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    // Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps.
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j - 1] + cost).min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_names_only() {
        let names = ["Knight", "Bishop", "Queen"];
        assert_eq!(suggest("Knigt", names), Some("Knight"));
        assert_eq!(suggest("knight", names), Some("Knight"));
        assert_eq!(suggest("Dragon", names), None);
        assert_eq!(suggest("X", ["K", "Q"]), None);
        assert_eq!(suggest("k", ["K", "Q"]), Some("K"));
    }

    /// One error at `start..end` of a file holding `text`, rendered.
    fn render_one(text: &str, start: usize, end: usize) -> String {
        let mut s = Sources::default();
        let f = s.add("t.rules", text);
        let mut d = Diagnostics::default();
        d.push(Diagnostic::error(codes::SYNTAX, Span::new(f, start, end), "bad").label("here"));
        render(&s, &d, false)
    }

    #[test]
    fn a_long_line_is_shown_as_a_window_around_the_caret_with_its_true_column() {
        // Characters of three bytes each, so byte and character offsets differ.
        let line = format!("{}BAD{}", "帥".repeat(500), "將".repeat(500));
        let at = line.find("BAD").expect("written above");
        let out = render_one(&format!("first\n{line}\nlast\n"), 6 + at, 6 + at + 3);
        assert!(out.contains("--> t.rules:2:501"), "{out}");
        let shown = out.lines().find(|l| l.starts_with("2 |")).expect("the line is shown");
        assert!(
            shown.contains("…帥帥") && shown.contains("BAD") && shown.ends_with("將…"),
            "{shown}"
        );
        assert!(shown.chars().count() < MAX_LINE_CHARS + 10, "{shown}");
        let caret = out.lines().find(|l| l.contains("^^^")).expect("a caret line");
        // The caret stands under `BAD`: each `帥` before it is two columns wide on a terminal.
        let width = |t: &str| t.chars().map(|c| if c == '帥' { 2 } else { 1 }).sum::<usize>();
        assert_eq!(
            caret.find('^').map(|c| width(&caret[..c])),
            shown.find("BAD").map(|c| width(&shown[..c]))
        );
        // A span longer than the window, starting at the line's start: carets up to the `…`.
        let long = "x".repeat(1_000);
        let out = render_one(&long, 0, 1_000);
        assert!(out.contains("--> t.rules:1:1"), "{out}");
        assert!(out.lines().all(|l| l.chars().count() < MAX_LINE_CHARS + 20), "{out}");
    }

    #[test]
    fn lines_within_the_width_are_shown_whole() {
        let line = "y".repeat(MAX_LINE_CHARS);
        let out = render_one(&line, 3, 5);
        assert!(out.contains(&line) && !out.contains('…'), "{out}");
    }

    #[test]
    fn long_quoted_tokens_are_cut_short() {
        let token = "z".repeat(200);
        let cut = shorten_quoted(&format!("unexpected `{token}` here, `short` kept"));
        assert_eq!(cut, format!("unexpected `{}…` here, `short` kept", "z".repeat(MAX_TOKEN_CHARS)));
    }

    /// A word past [`MAX_WORD_CHARS`] outside backquotes is cut too, keeping its closing
    /// punctuation and the spacing around it; a long path within the limit is left whole.
    #[test]
    fn long_unquoted_words_are_cut_short() {
        let word = "é".repeat(100_000);
        let cut = shorten_quoted(&format!("--param {word}=1: no parameter\n  and  \"{word}\", after"));
        let short = "é".repeat(MAX_TOKEN_CHARS);
        // (The opening quote counts among the characters kept.)
        let quoted = "é".repeat(MAX_TOKEN_CHARS - 1);
        assert_eq!(cut, format!("--param {short}…: no parameter\n  and  \"{quoted}…\", after"));
        let path = format!("/{}/x.rules:", "d".repeat(MAX_WORD_CHARS - 10));
        assert_eq!(
            shorten_quoted(&format!("cannot read {path} here")),
            format!("cannot read {path} here")
        );
    }

    #[test]
    fn only_the_first_diagnostics_are_shown_and_the_rest_counted() {
        let mut s = Sources::default();
        let f = s.add("t.rules", "x".repeat(200));
        let mut d = Diagnostics::default();
        for i in 0..MAX_SHOWN + 7 {
            d.push(Diagnostic::error(codes::SYNTAX, Span::new(f, i, i + 1), "bad"));
        }
        d.push(Diagnostic::warning(codes::UNUSED, Span::new(f, 199, 200), "unused"));
        let out = render(&s, &d, false);
        assert_eq!(out.matches("error[E0001]").count(), MAX_SHOWN);
        assert!(out.contains("note: 8 more not shown (7 errors, 1 warning)"), "{out}");
    }

    #[test]
    fn line_and_column_count_characters() {
        let mut s = Sources::default();
        let f = s.add("t", "ab\n帥x");
        assert_eq!(s.line_col(f, 0), (1, 1));
        assert_eq!(s.line_col(f, 3), (2, 1));
        assert_eq!(s.line_col(f, 6), (2, 2));
        // Past the first blocks of counted characters, on a long line of wide characters.
        let long = format!("x\n{}y", "帥".repeat(3 * CHECKPOINT));
        let g = s.add("u", long.as_str());
        let y = long.find('y').expect("written above");
        assert_eq!(s.line_col(g, y as u32), (2, 3 * CHECKPOINT + 1));
        assert_eq!(s.line_col(g, long.len() as u32 + 9), (2, 3 * CHECKPOINT + 2));
    }
}
