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
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> FileId {
        self.files.push((name.into(), text.into()));
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
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let text = self.text(file);
        let offset = (offset as usize).min(text.len());
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
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

/// Renders diagnostics like rustc: `error[E0101]: ...`, `--> file:line:col`, the line and a caret.
pub fn render(sources: &Sources, diags: &Diagnostics, color: bool) -> String {
    use codespan_reporting::diagnostic::{Diagnostic as CsDiag, Label};
    use codespan_reporting::files::SimpleFiles;
    use codespan_reporting::term::{self, Config, termcolor};

    let mut files = SimpleFiles::new();
    for i in 0..sources.files.len() {
        let (n, t) = &sources.files[i];
        files.add(n.clone(), t.clone());
    }
    let config = Config {
        chars: term::Chars::ascii(),
        ..Config::default()
    };
    let mut out = termcolor::Buffer::no_color();
    let mut colored = termcolor::Buffer::ansi();
    for d in diags.sorted() {
        let mut cs = match d.severity {
            Severity::Error => CsDiag::error(),
            Severity::Warning => CsDiag::warning(),
        }
        .with_code(d.code)
        .with_message(&d.message);
        let mut labels = vec![Label::primary(d.span.file.0 as usize, d.span.start as usize..d.span.end as usize).with_message(&d.label)];
        for (s, t) in &d.labels {
            labels.push(Label::secondary(s.file.0 as usize, s.start as usize..s.end as usize).with_message(t));
        }
        cs = cs
            .with_labels(labels)
            .with_notes(d.help.iter().map(|h| format!("help: {h}")).collect());
        let buf = if color { &mut colored } else { &mut out };
        // Emitting into an in-memory buffer only fails on an invalid span, which is a bug upstream.
        let _ = term::emit(buf, &config, &files, &cs);
    }
    let bytes = if color { colored.into_inner() } else { out.into_inner() };
    String::from_utf8_lossy(&bytes).into_owned()
}

/// "did you mean `x`?": the closest candidate within a small edit distance.
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let d = edit_distance(&lower, &c.to_lowercase());
        let longer = name.chars().count().max(c.chars().count());
        let limit = (longer / 3).max(1);
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

    #[test]
    fn line_and_column_count_characters() {
        let mut s = Sources::default();
        let f = s.add("t", "ab\n帥x");
        assert_eq!(s.line_col(f, 0), (1, 1));
        assert_eq!(s.line_col(f, 3), (2, 1));
        assert_eq!(s.line_col(f, 6), (2, 2));
    }
}
