//! PGN game records: reading the first game of a file ([`parse`]) and writing a [`Game`] ([`write`]).
//!
//! Reading keeps what replaying needs — the tag pairs, the `FEN` tag, the main line's moves as
//! written (less move numbers), its variations (`( ... )`, nested up to [`MAX_DEPTH`] deep) as
//! [`Branch`]es, and the result token — and what the record says about the moves, so it can be
//! written again: comments (`{...}`, `;` to end of line) and annotation glyphs (`$12`, `!?`) as
//! [`Annotation`]s, and clock comments as stamps. It skips `%` escape lines, and says so.
//! Moves stay text here: which move a text names depends on the position, so the caller matches
//! them with [`san::find`](notation::san::find) or [`wxf::find`](notation::wxf::find) while
//! replaying. Invariant: [`parse`] returns a [`PgnError`] with a line and column for malformed
//! input and never panics.

use super::cursor::Cursor;
use thiserror::Error;

use crate::clock::{Stamp, Timing, stamp_in_comment, write_hms, write_pgn_time_control};
use crate::game::{Game, Move};
use crate::model::Side;
use crate::notation;
use crate::notation::annotation::{Annotation, Commentary, glyph_nag, join_comment, trimmed};
use crate::notation::variation::{self, Branch, Line, MAX_DEPTH};

/// The first game of a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Tag pairs in file order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The `FEN` tag's value: where the game starts, if not from the ruleset's setup.
    pub fen: Option<String>,
    /// The main line's moves as written (`e4`, `Nxf7+`, `O-O`), without move numbers.
    pub moves: Vec<String>,
    /// The result token ending the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if there is one.
    pub result: Option<String>,
    /// The variations, hanging off the main line's moves they replace.
    pub variations: Vec<Branch>,
    /// Each main-line move's time from the comment after it (`[%clk …]`, `[%emt …]`), if given;
    /// as long as `moves`.
    pub stamps: Vec<Option<Stamp>>,
    /// The comment before the first move and the main line's annotations.
    pub commentary: Commentary,
    /// What the read skipped (escape lines, glyphs it cannot place), in words.
    pub notes: Vec<String>,
}

impl Record {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Why a PGN text was rejected, and where (1-based line and column, counted in characters).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct PgnError {
    pub line: usize,
    pub column: usize,
    pub problem: PgnProblem,
}

/// What is wrong at a [`PgnError`]'s place.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PgnProblem {
    #[error("this comment `{{` is never closed with `}}`")]
    UnterminatedComment,
    #[error("`}}` without a `{{` before it")]
    UnopenedComment,
    #[error("this tag `[` is never closed with `]`")]
    UnterminatedTag,
    #[error("this string is not closed with `\"` before the end of its line")]
    UnterminatedString,
    #[error("malformed tag: {0}")]
    MalformedTag(&'static str),
    #[error("this variation `(` is never closed with `)`")]
    UnclosedVariation,
    #[error("`)` without a `(` before it")]
    UnopenedVariation,
    #[error("variations nested more than {MAX_DEPTH} deep")]
    TooDeep,
    #[error("unexpected `{0}` in the movetext")]
    Unexpected(char),
}

/// The result tokens, which end a game's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads the first game of a PGN text.
///
/// A game ends at its result token, at the tag section of a next game, or at the end of the text.
/// Comments and annotation glyphs are kept with the move they follow ([`Annotation`]); a comment
/// before a line's first move with the line (the game comment, [`Branch::comment`]). A comment's
/// clock commands (`[%clk …]`, `[%emt …]`) are read as [`Record::stamps`] and taken out of its
/// text; its other commands (`[%eval …]`, `[%cal …]`) stay in the text as written. Whitespace in a
/// comment reads as single spaces (PGN breaks lines anywhere), and several comments after one move
/// join with a space.
///
/// # Errors
/// A [`PgnError`] at an unterminated comment, tag or string, a malformed tag, an unbalanced
/// parenthesis or brace, or a stray `]` or `"` in the movetext.
///
/// # Examples
/// ```
/// let rec = arbiter::notation::pgn::parse("[Event \"?\"]\n1. e4 {best by test} e5 (1... c5) 2. Nf3 $1 *").unwrap();
/// assert_eq!(rec.moves, ["e4", "e5", "Nf3"]);
/// assert_eq!(rec.commentary.annotations[0].comment.as_deref(), Some("best by test"));
/// assert_eq!(rec.commentary.annotations[2].nags, [1]);
/// assert_eq!(rec.result.as_deref(), Some("*"));
/// ```
pub fn parse(text: &str) -> Result<Record, PgnError> {
    let mut c = Cursor::new(text);
    let mut rec = Record::default();
    let mut main = ReadLine::default();
    let mut in_movetext = false;
    let mut dropped = Dropped::default();
    loop {
        c.skip_space();
        let Some(ch) = c.peek() else { break };
        match ch {
            '[' if in_movetext => break,
            '[' => {
                // A comment before the tag section is the file's, not the game's (other readers
                // skip it too).
                if main.comment.take().is_some() {
                    dropped.before_tags += 1;
                }
                let (name, value) = c.tag()?;
                if name == "FEN" {
                    rec.fen = Some(value.clone());
                }
                rec.tags.push((name, value));
            }
            ')' => return Err(c.at().error(PgnProblem::UnopenedVariation)),
            _ => {
                in_movetext |= !matches!(ch, '{' | ';' | '%');
                if let Some(r) = c.movetext(&mut main, 0, &mut dropped)? {
                    rec.result = Some(r.to_string());
                    break;
                }
            }
        }
    }
    rec.moves = main.moves;
    rec.stamps = main.stamps;
    rec.stamps.resize(rec.moves.len(), None);
    rec.variations = main.branches;
    rec.commentary = Commentary {
        comment: main.comment,
        annotations: trimmed(main.annotations),
    };
    rec.notes.extend(dropped.note());
    // What follows the game: another game (only the first is read), or stray text after its end.
    c.skip_space();
    let (line, column) = (c.line, c.column);
    let rest = c.take_while(|_| true);
    if !rest.trim().is_empty() {
        let games = rest.matches("[Event ").count();
        rec.notes.push(if rest.starts_with('[') {
            format!(
                "the record holds {} after the first (from line {line}): only the first game is read",
                if games > 1 {
                    format!("{games} more games")
                } else {
                    "another game".to_string()
                }
            )
        } else {
            let shown: String = rest.trim().chars().take(20).collect();
            format!("skipped the text after the game's end at line {line}, column {column}: `{shown}`")
        });
    }
    Ok(rec)
}

/// A line of movetext as read: the main line or a variation.
#[derive(Default)]
struct ReadLine {
    moves: Vec<String>,
    /// As long as `moves`.
    annotations: Vec<Annotation>,
    /// The comment before the first move.
    comment: Option<String>,
    /// As long as `moves`.
    stamps: Vec<Option<Stamp>>,
    branches: Vec<Branch>,
}

impl ReadLine {
    fn push(&mut self, m: &str) {
        self.moves.push(m.to_string());
        self.annotations.push(Annotation::default());
        self.stamps.push(None);
    }

    /// A `{…}` or `;…` comment: its text with the move before it (or with the line, before the
    /// first move), its clock as that move's stamp.
    fn comment(&mut self, raw: &str, dropped: &mut Dropped) {
        let (text, stamp) = comment_text(raw);
        match (self.annotations.last_mut(), self.stamps.last_mut()) {
            (Some(a), Some(s)) => {
                a.add_comment(&text);
                if stamp.is_some() {
                    *s = stamp;
                }
            }
            _ => {
                join_comment(&mut self.comment, &text);
                dropped.clocks += stamp.is_some() as usize;
            }
        }
    }

    /// A glyph (`$n` or a suffix such as `!?`) for the move before it.
    fn glyph(&mut self, nag: Option<u8>, dropped: &mut Dropped) {
        match (nag, self.annotations.last_mut()) {
            (Some(n), Some(a)) => a.add_nag(n),
            _ => dropped.glyphs += 1,
        }
    }

    /// The line as a variation replacing move `at` of the line it hangs from. Its clocks are not
    /// kept: Arbiter keeps the main line's.
    fn into_branch(self, at: usize, dropped: &mut Dropped) -> Branch {
        dropped.clocks += self.stamps.iter().flatten().count();
        Branch {
            at,
            moves: self.moves,
            branches: self.branches,
            annotations: trimmed(self.annotations),
            comment: self.comment,
        }
    }
}

/// A comment's text as kept — its clock commands (`[%clk …]`, `[%emt …]` that read as times)
/// taken out, whitespace runs made single spaces — and the clock it states, if any.
fn comment_text(raw: &str) -> (String, Option<Stamp>) {
    let stamp = stamp_in_comment(raw);
    let mut text = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find("[%") {
        let Some(close) = rest[open..].find(']').map(|c| open + c) else {
            break;
        };
        text.push_str(&rest[..open]);
        let command = &rest[open..=close];
        if stamp_in_comment(command).is_some() {
            text.push(' ');
        } else {
            text.push_str(command);
        }
        rest = &rest[close + 1..];
    }
    text.push_str(rest);
    (text.split_whitespace().collect::<Vec<_>>().join(" "), stamp)
}

/// What a read skips of a game's movetext, to say so: Arbiter keeps the moves, the variations,
/// the comments, the annotation glyphs and the main line's clocks.
#[derive(Default)]
struct Dropped {
    /// Glyphs Arbiter cannot keep: before a line's first move, `$` without a number from 0 to 255,
    /// a run of `!` and `?` that is none of the six glyphs.
    glyphs: usize,
    /// Clock commands off the main line's moves (in a variation, before the first move).
    clocks: usize,
    /// `%` escape lines.
    escapes: usize,
    /// Variations before the first move (they replace nothing).
    before_first: usize,
    /// Comments before the tag section.
    before_tags: usize,
}

impl Dropped {
    /// One note naming what was not kept, if anything.
    fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        let mut say = |n: usize, one: &str, many: &str| {
            if n > 0 {
                parts.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        };
        say(
            self.glyphs,
            "annotation glyph that is not a NAG of a move",
            "annotation glyphs that are not NAGs of a move",
        );
        say(
            self.clocks,
            "clock comment off the main line's moves",
            "clock comments off the main line's moves",
        );
        say(self.escapes, "escape line", "escape lines");
        say(
            self.before_tags,
            "comment before the tag section",
            "comments before the tag section",
        );
        say(
            self.before_first,
            "variation before the first move",
            "variations before the first move",
        );
        (!parts.is_empty()).then(|| {
            format!(
                "skipped {}: Arbiter keeps the moves, variations, comments, glyphs and the main line's clocks",
                parts.join(", ")
            )
        })
    }
}

/// Adds the tags other programs read to know the rules and the end, where `tags` lack them:
/// `Variant`, the ruleset's name as given (a bundled name, or a path whose file stem is used), and
/// `Termination`, the end rule that ended the game (`termination`, when there is one).
///
/// # Examples
/// ```
/// let mut tags = vec![("Event".to_string(), "club night".to_string())];
/// arbiter::notation::pgn::add_game_tags(&mut tags, "rulesets/chess.rules", Some("checkmate".into()));
/// assert_eq!(tags[1], ("Variant".to_string(), "chess".to_string()));
/// assert_eq!(tags[2], ("Termination".to_string(), "checkmate".to_string()));
/// ```
pub fn add_game_tags(tags: &mut Vec<(String, String)>, ruleset: &str, termination: Option<String>) {
    let has = |tags: &[(String, String)], name: &str| tags.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
    if !has(tags, "Variant") {
        let stem = std::path::Path::new(ruleset)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(ruleset);
        tags.push(("Variant".to_string(), stem.to_string()));
    }
    if let Some(t) = termination.filter(|_| !has(tags, "Termination")) {
        tags.push(("Termination".to_string(), t));
    }
}

/// Writes a game as PGN: the seven-tag roster first (from `tags`, `?` where missing), the other
/// `tags`, `SetUp` and `FEN` when the game does not start from the ruleset's setup, then the
/// moves with move numbers, wrapped before 80 columns, and the result. Moves are written in the
/// ruleset's notation ([`notation::written`]): SAN for chess, WXF for xiangqi, coordinates by default.
///
/// The result is the game's own ([`crate::game::Outcome::result`]) when the rules have ended it;
/// otherwise the `Result` of `tags` if it is a result token (a resignation, say), else `*`.
pub fn write(game: &Game, tags: &[(String, String)]) -> String {
    write_tree(game, tags, &Commentary::default(), &[]).0
}

/// As [`write`], with annotations and variations. The game comment of `commentary` comes before
/// the first move, and each move's annotation after it: its NAGs as `$n`, its comment in `{…}`.
/// Each [`Branch`] (its moves in coordinates or the ruleset's notation) is written in `( ... )`
/// after the main-line move it replaces, nested as given, its own comment after the `(`; a branch
/// at the end of the main line continues it.
///
/// Also returns notes: on branch moves that are not legal where they stand (the branch is cut
/// there), and on comments holding a `}`, which no PGN comment can hold (it is left out).
pub fn write_tree(game: &Game, tags: &[(String, String)], commentary: &Commentary, branches: &[Branch]) -> (String, Vec<String>) {
    write_timed(game, tags, commentary, branches, None)
}

/// As [`write_tree`], on a clock: the control as the `TimeControl` tag (unless `tags` give one),
/// and after each main-line move the mover's time left as a `[%clk h:mm:ss]` command, in one
/// comment with the move's own (`{[%clk 0:05:00] good move}`).
pub fn write_timed(
    game: &Game,
    tags: &[(String, String)],
    commentary: &Commentary,
    branches: &[Branch],
    timing: Option<&Timing>,
) -> (String, Vec<String>) {
    let result = game
        .outcome()
        .result()
        .map(str::to_string)
        .or_else(|| {
            tags.iter()
                .find(|(n, v)| n == "Result" && RESULTS.contains(&v.as_str()))
                .map(|(_, v)| v.clone())
        })
        .unwrap_or_else(|| "*".to_string());
    let given = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let mut out = String::new();
    for name in roster {
        let value = match name {
            "Result" => result.clone(),
            "Date" => given(name).unwrap_or_else(|| "????.??.??".into()),
            _ => given(name).unwrap_or_else(|| "?".into()),
        };
        push_tag(&mut out, name, &value);
    }
    for (name, value) in tags {
        if !roster.contains(&name.as_str()) && name != "SetUp" && name != "FEN" {
            push_tag(&mut out, name, value);
        }
    }
    if let Some(t) = timing
        && given("TimeControl").is_none()
    {
        push_tag(&mut out, "TimeControl", &write_pgn_time_control(&t.control));
    }
    let start = &game.positions()[0];
    let start_fen = start.fen();
    if start_fen != game.engine().start().fen() {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &start_fen);
    }
    out.push('\n');

    let mut g = Game::new(game.engine().clone(), start.clone());
    let mut notes = Vec::new();
    let mut resolved = variation::resolve(&mut g, game.moves(), &commentary.annotations, branches, &mut notes, "");
    resolved.comment = commentary.comment.clone();
    let line = variation::normalize(resolved);
    let mut words = Vec::new();
    let clk: Vec<Option<u64>> = timing
        .map(|t| t.after.iter().map(|(ms, _)| Some(*ms)).collect())
        .unwrap_or_default();
    let mut braces = 0;
    line_words(&mut g, &line, &mut words, &clk, &mut braces);
    if braces > 0 {
        notes.push(format!(
            "{braces} comment(s) held `}}`, which a PGN comment cannot hold: it is left out of the text"
        ));
    }
    words.push(Word::Text(result));
    let mut line_len = 0;
    let mut glue = false;
    for word in words {
        let (w, closing) = match &word {
            Word::Text(t) => (t.as_str(), false),
            Word::Open => ("(", false),
            Word::Close => (")", true),
        };
        // A line starting with `%` would read as an escape line: no break before such a word.
        if line_len > 0 && line_len + 1 + w.len() > 79 && !w.starts_with('%') {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 && !glue && !closing {
            out.push(' ');
            line_len += 1;
        }
        glue = matches!(word, Word::Open);
        line_len += w.len();
        out.push_str(w);
    }
    out.push('\n');
    (out, notes)
}

/// A word of movetext: text, or a variation's parenthesis (no space after `(` or before `)`).
enum Word {
    Text(String),
    Open,
    Close,
}

/// The movetext words of `line` from `g`'s position (left as it was): its comment, move numbers,
/// moves with their glyphs and comments, and each variation in `(` `)` after the move it replaces.
/// A move by the second player gets its number (`3...`) at the start of a line and after a comment
/// or variation. `clk[i]`, if given, is written after move `i` as a `[%clk]` command in its comment.
/// `braces` counts the comments a `}` was taken out of.
fn line_words(g: &mut Game, line: &Line, words: &mut Vec<Word>, clk: &[Option<u64>], braces: &mut usize) {
    let mut numbered = false;
    if let Some(c) = &line.comment {
        comment_words(c, words, braces);
    }
    let mut branches = line.branches.iter().peekable();
    for (i, &m) in line.moves.iter().enumerate() {
        let pos = g.current();
        if pos.side_to_move() == Side::FIRST {
            words.push(Word::Text(format!("{}.", pos.fullmove())));
        } else if !numbered {
            words.push(Word::Text(format!("{}...", pos.fullmove())));
        }
        words.push(Word::Text(notation::written(pos, m)));
        numbered = true;
        let annotation = line.annotations.get(i);
        for nag in annotation.map(|a| a.nags.as_slice()).unwrap_or_default() {
            words.push(Word::Text(format!("${nag}")));
        }
        let clock = clk.get(i).copied().flatten().map(|ms| format!("[%clk {}]", write_hms(ms)));
        let text: Vec<&str> = clock
            .iter()
            .map(String::as_str)
            .chain(annotation.and_then(|a| a.comment.as_deref()))
            .collect();
        if comment_words(&text.join(" "), words, braces) {
            numbered = false;
        }
        while let Some((_, l)) = branches.next_if(|(at, _)| *at == i) {
            words.push(Word::Open);
            line_words(g, l, words, &[], braces);
            words.push(Word::Close);
            numbered = false;
        }
        g.play(m);
    }
    let played: &[Move] = &line.moves;
    for _ in played {
        g.undo();
    }
}

/// A comment as movetext words, `{` on the first and `}` on the last, so lines may break between
/// them; a `}` in the text is left out (and counted in `braces`). False if there was nothing to write.
fn comment_words(text: &str, words: &mut Vec<Word>, braces: &mut usize) -> bool {
    if text.contains('}') {
        *braces += 1;
    }
    let cleaned = text.replace('}', " ");
    let parts: Vec<&str> = cleaned.split_whitespace().collect();
    let last = parts.len().saturating_sub(1);
    for (i, part) in parts.iter().enumerate() {
        let open = if i == 0 { "{" } else { "" };
        let close = if i == last { "}" } else { "" };
        words.push(Word::Text(format!("{open}{part}{close}")));
    }
    !parts.is_empty()
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// Characters that end a movetext token.
fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';' | '"' | '$')
}

enum Token<'a> {
    Result(&'static str),
    /// A move and the glyph run after it (`!?`), empty if none.
    Move(&'a str, &'a str),
    /// A glyph run standing alone (`e4 !?`).
    Glyph(&'a str),
    Nothing,
}

/// A movetext token: a result, a move (after any move number `12.` / `12...`, with any glyphs
/// `!?` after it), a glyph alone, or nothing (a bare move number).
fn read_token(token: &str) -> Token<'_> {
    if let Some(r) = RESULTS.iter().find(|r| **r == token) {
        return Token::Result(r);
    }
    if token == "½-½" {
        return Token::Result("1/2-1/2");
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let after_digits = &token[digits..];
    let after_dots = after_digits.trim_start_matches('.');
    let numbered = after_dots.len() < after_digits.len() || after_digits.is_empty();
    let body = if numbered { after_dots } else { token };
    let glyph_start = body.trim_end_matches(['!', '?']).len();
    let (body, glyph) = body.split_at(glyph_start);
    match (body.is_empty(), glyph.is_empty()) {
        (false, _) => Token::Move(body, glyph),
        (true, false) => Token::Glyph(glyph),
        (true, true) => Token::Nothing,
    }
}

/// A place in the text, for errors.
#[derive(Clone, Copy)]
struct At {
    line: usize,
    column: usize,
}

impl At {
    fn error(self, problem: PgnProblem) -> PgnError {
        PgnError {
            line: self.line,
            column: self.column,
            problem,
        }
    }
}

impl Cursor {
    fn at(&self) -> At {
        At {
            line: self.line,
            column: self.column,
        }
    }
    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }
    /// `{ ... }`, from its `{`: the text between the braces.
    fn comment(&mut self) -> Result<String, PgnError> {
        let at = self.at();
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                Some('}') => return Ok(text),
                Some(c) => text.push(c),
                None => return Err(at.error(PgnProblem::UnterminatedComment)),
            }
        }
    }
    /// One item of movetext, from the character at the cursor (not `[`, `)` or the end) into
    /// `line`: a comment, an escape line, a variation (`depth` counts the `(`s open around
    /// `line`), a glyph, or a token. A result token is returned; the caller decides what it ends.
    fn movetext(&mut self, line: &mut ReadLine, depth: usize, dropped: &mut Dropped) -> Result<Option<&'static str>, PgnError> {
        let at = self.at();
        match self.peek() {
            Some('{') => {
                let text = self.comment()?;
                line.comment(&text, dropped);
            }
            Some('}') => return Err(at.error(PgnProblem::UnopenedComment)),
            Some(';') => {
                self.bump();
                let text = self.take_while(|c| c != '\n');
                line.comment(&text, dropped);
            }
            Some('%') if self.column == 1 => {
                self.skip_line();
                dropped.escapes += 1;
            }
            Some('(') => {
                let inner = self.variation(depth + 1, dropped)?;
                // A variation before the first move replaces nothing: it is read and dropped.
                match line.moves.len().checked_sub(1) {
                    Some(at) => {
                        let b = inner.into_branch(at, dropped);
                        line.branches.push(b);
                    }
                    None => dropped.before_first += 1,
                }
            }
            Some('$') => {
                self.bump();
                let digits = self.take_while(|ch| ch.is_ascii_digit());
                line.glyph(digits.parse::<u8>().ok(), dropped);
            }
            Some(ch @ (']' | '"')) => return Err(at.error(PgnProblem::Unexpected(ch))),
            _ => {
                let token = self.take_while(|ch| !is_delimiter(ch));
                match read_token(&token) {
                    Token::Result(r) => return Ok(Some(r)),
                    Token::Move(m, glyph) => {
                        line.push(m);
                        if !glyph.is_empty() {
                            line.glyph(glyph_nag(glyph), dropped);
                        }
                    }
                    Token::Glyph(glyph) => line.glyph(glyph_nag(glyph), dropped),
                    Token::Nothing => {}
                }
            }
        }
        Ok(None)
    }
    /// `( ... )` from its `(`: the variation's moves, their annotations, and the variations nested
    /// in it (each replacing the move before its `(`). `depth` counts the `(`s open, this one included.
    fn variation(&mut self, depth: usize, dropped: &mut Dropped) -> Result<ReadLine, PgnError> {
        let open = self.at();
        if depth > MAX_DEPTH {
            return Err(open.error(PgnProblem::TooDeep));
        }
        self.bump();
        let mut line = ReadLine::default();
        loop {
            self.skip_space();
            match self.peek() {
                // A tag section (the next game) inside a variation: this `(` was never closed.
                None | Some('[') => return Err(open.error(PgnProblem::UnclosedVariation)),
                Some(')') => {
                    self.bump();
                    return Ok(line);
                }
                // A result inside a variation (some programs write one) ends nothing.
                Some(_) => {
                    self.movetext(&mut line, depth, dropped)?;
                }
            }
        }
    }
    /// `[Name "value"]`, from its `[`.
    fn tag(&mut self) -> Result<(String, String), PgnError> {
        let open = self.at();
        self.bump();
        self.skip_space();
        let name = self.take_while(|c| c.is_alphanumeric() || c == '_');
        if name.is_empty() {
            return Err(match self.peek() {
                None => open.error(PgnProblem::UnterminatedTag),
                Some(_) => self.at().error(PgnProblem::MalformedTag("expected a tag name after `[`")),
            });
        }
        self.skip_space();
        match self.peek() {
            Some('"') => {}
            None => return Err(open.error(PgnProblem::UnterminatedTag)),
            Some(_) => {
                return Err(self
                    .at()
                    .error(PgnProblem::MalformedTag("expected a quoted value after the tag name")));
            }
        }
        let quote = self.at();
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') => match self.peek() {
                    Some(c) if c != '\n' => {
                        value.push(c);
                        self.bump();
                    }
                    _ => return Err(quote.error(PgnProblem::UnterminatedString)),
                },
                Some('\n') | None => return Err(quote.error(PgnProblem::UnterminatedString)),
                Some(c) => value.push(c),
            }
        }
        self.skip_space();
        match self.peek() {
            Some(']') => {
                self.bump();
                Ok((name, value))
            }
            _ => Err(open.error(PgnProblem::UnterminatedTag)),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    fn chess() -> crate::game::Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/chess.rules");
        crate::game::Engine::new(crate::check::check_file(&path, &[]).rules.expect("chess.rules is valid"))
    }

    fn said(rec: &Record, i: usize) -> (Vec<u8>, Option<&str>) {
        let a = rec.commentary.annotations.get(i).cloned().unwrap_or_default();
        let comment = rec.commentary.annotations.get(i).and_then(|a| a.comment.as_deref());
        (a.nags, comment)
    }

    #[test]
    fn comments_and_glyphs_are_kept_with_the_move_they_follow() {
        let rec =
            parse("1. e4 {[%clk 0:05:00]} e5!? $1 {good} {move} (1... c5 {Sicilian} $2 ; a line comment\n) 2. Nf3 *").expect("valid PGN");
        assert_eq!(rec.moves, ["e4", "e5", "Nf3"]);
        assert!(rec.notes.is_empty(), "nothing was dropped: {:?}", rec.notes);
        // The clock is a stamp, not a comment; two comments after one move join with a space.
        assert_eq!(said(&rec, 0), (vec![], None));
        assert!(rec.stamps[0].is_some());
        assert_eq!(said(&rec, 1), (vec![5, 1], Some("good move")));
        assert_eq!(rec.commentary.annotations.len(), 2, "no empty annotations at the end");
        let v = &rec.variations[0];
        assert_eq!((v.at, v.moves.as_slice()), (1, &["c5".to_string()][..]));
        assert_eq!(v.annotations[0].nags, [2]);
        assert_eq!(v.annotations[0].comment.as_deref(), Some("Sicilian a line comment"));
        // Suffixes read as their NAGs, alone or after the move.
        let glyphs = parse("1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5 !? a6 ?! *").expect("valid PGN");
        let nags: Vec<Vec<u8>> = (0..6).map(|i| said(&glyphs, i).0).collect();
        assert_eq!(nags, [[1], [2], [3], [4], [5], [6]]);
    }

    #[test]
    fn clock_commands_leave_the_comment_and_others_stay_in_it_as_written() {
        let rec = parse("1. e4 {[%clk 0:05:00]  [%eval 0.3]\n fast [%cal Ra1a2,Rb1b2]} e5 {[%emt 0:00:07]} *").expect("valid PGN");
        assert_eq!(said(&rec, 0).1, Some("[%eval 0.3] fast [%cal Ra1a2,Rb1b2]"));
        assert_eq!(rec.stamps, [Some(Stamp::Left(300_000)), Some(Stamp::Spent(7_000))]);
        assert_eq!(said(&rec, 1), (vec![], None));
        // A clock command that does not read as a time is text like any other.
        let odd = parse("1. e4 {[%clk soon]} *").expect("valid PGN");
        assert_eq!((said(&odd, 0).1, odd.stamps[0]), (Some("[%clk soon]"), None));
    }

    #[test]
    fn comments_before_a_line_belong_to_the_line_and_after_a_variation_to_the_move_before_it() {
        let text = "[Event \"x\"]\n{The Opera game} 1. e4 e5 ( {Sicilian instead} 1... c5 2. Nf3 \
                    (2. c3 {Alapin} ?! ) {after the inner one} ) {after the outer one} 2. Nf3 *";
        let rec = parse(text).expect("valid PGN");
        assert_eq!(rec.commentary.comment.as_deref(), Some("The Opera game"));
        assert_eq!(said(&rec, 1).1, Some("after the outer one"));
        let v = &rec.variations[0];
        assert_eq!(v.comment.as_deref(), Some("Sicilian instead"));
        assert_eq!(v.annotations[1].comment.as_deref(), Some("after the inner one"));
        let inner = &v.branches[0];
        assert_eq!((inner.at, inner.comment.as_deref()), (1, None));
        assert_eq!(inner.annotations[0].nags, [6]);
        assert_eq!(inner.annotations[0].comment.as_deref(), Some("Alapin"));
    }

    #[test]
    fn a_read_says_only_what_it_dropped() {
        let rec = parse("$1 1. e4 $300 $ e5!!!? (1... c5 {[%clk 0:01:00]}) \n%escaped\n(2. d4) *").expect("valid PGN");
        assert_eq!(rec.moves, ["e4", "e5"]);
        assert_eq!(
            rec.notes,
            [
                "skipped 4 annotation glyphs that are not NAGs of a move, 1 clock comment off the main line's moves, \
              1 escape line: Arbiter keeps the moves, variations, comments, glyphs and the main line's clocks"
            ]
        );
        let plain = parse("{intro} 1. e4 {[%clk 0:05:00]} e5 $14 (1... c5 {fine}) *").expect("valid PGN");
        assert!(plain.notes.is_empty(), "{:?}", plain.notes);
        // A comment before the tag section is the file's, not the game's.
        let before = parse("; the file's own words\n[Event \"x\"]\n{the game's} 1. e4 *").expect("valid PGN");
        assert_eq!(before.commentary.comment.as_deref(), Some("the game's"));
        assert_eq!(before.notes.len(), 1, "{:?}", before.notes);
        assert!(
            before.notes[0].starts_with("skipped 1 comment before the tag section"),
            "{:?}",
            before.notes
        );
    }

    #[test]
    fn annotations_are_written_where_they_were_read_and_read_back_the_same() {
        let engine = chess();
        let text = "[Event \"Paris\"]\n\n{Opera} 1. e4 $1 {best by test} e5 ( {or} 1... c5 $5 {Sicilian} 2. Nf3 \
                    (2. c3 $6) ) 2. Nf3 {[%cal Rg1f3] develops} d6 *";
        let rec = crate::notation::record::read(text, crate::notation::record::Format::Pgn).expect("valid PGN");
        let first = rec.replay(&engine).expect("it replays");
        let (written, notes) = write_tree(&first.game, &rec.tags, &first.commentary, &first.variations);
        assert!(notes.is_empty(), "{notes:?}");
        assert!(
            written.replace('\n', " ").contains(" {Opera} 1. e4 $1 {best by test} 1... e5 ({or} 1... c5 $5 {Sicilian} 2. Nf3 (2. c3 $6)) 2. Nf3 {[%cal Rg1f3] develops} 2... d6 *"),
            "{written}"
        );
        let back = crate::notation::record::read(&written, crate::notation::record::Format::Pgn).expect("it reads what it wrote");
        let again = back.replay(&engine).expect("it replays");
        assert_eq!(again.commentary, first.commentary);
        assert_eq!(again.variations, first.variations);
    }

    #[test]
    fn a_brace_in_a_comment_is_left_out_and_said() {
        let engine = chess();
        let mut game = Game::new(engine.clone(), engine.start());
        crate::notation::record::play_line(&mut game, &["e4"]).expect("legal");
        let commentary = Commentary {
            comment: Some("a {set} of words".into()),
            annotations: vec![Annotation {
                nags: vec![],
                comment: Some("}".into()),
            }],
        };
        let (written, notes) = write_tree(&game, &[], &commentary, &[]);
        assert!(written.ends_with("\n{a {set of words} 1. e4 *\n"), "{written}");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("2 comment(s) held `}`"), "{notes:?}");
        let back = parse(&written).expect("what is written reads");
        assert_eq!(back.commentary.comment.as_deref(), Some("a {set of words"));
    }

    fn problem(text: &str) -> (usize, usize, PgnProblem) {
        let e = parse(text).expect_err("the text is malformed");
        (e.line, e.column, e.problem)
    }

    #[test]
    fn reads_tags_moves_and_result() {
        let text = "[Event \"Paris \\\"Opera\\\" \\\\ 1858\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n\
                    1. e4 e5 2.Nf3 d6 3. d4 Bg4 4... dxe5 1/2-1/2\n\n[Event \"next\"]\n1. d4 *\n";
        let rec = parse(text).unwrap();
        assert_eq!(rec.tags[0], ("Event".to_string(), "Paris \"Opera\" \\ 1858".to_string()));
        assert_eq!(rec.tag("FEN"), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert_eq!(rec.fen.as_deref(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert_eq!(rec.moves, ["e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5"]);
        assert_eq!(rec.result.as_deref(), Some("1/2-1/2"));
    }

    #[test]
    fn reads_moves_around_comments_nags_and_nested_variations() {
        let text = "1. e4 {a comment with ( and ; inside} e5 ; to the end ) of the line\n\
                    2. Nf3 $1 (2. f4 exf4 (2... d5 {deep}) 3. Nf3) 2... Nc6!? 3. Bb5 ?! \n%escaped line )\n3... a6 0-1 4. Ba4";
        let rec = parse(text).unwrap();
        assert_eq!(rec.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(rec.result.as_deref(), Some("0-1"));
        assert_eq!(parse("1. O-O 0-0-0 2. e8=Q+ *").unwrap().moves, ["O-O", "0-0-0", "e8=Q+"]);
    }

    #[test]
    fn a_game_without_result_ends_at_the_next_tags_or_the_end() {
        assert_eq!(parse("1. e4 e5\n[Event \"2\"]\n1. d4").unwrap().moves, ["e4", "e5"]);
        let rec = parse("1. e4 e5").unwrap();
        assert_eq!((rec.moves.len(), rec.result), (2, None));
        assert_eq!(parse("").unwrap(), Record::default());
    }

    #[test]
    fn malformed_input_is_an_error_with_its_place() {
        assert_eq!(problem("1. e4 {never closed"), (1, 7, PgnProblem::UnterminatedComment));
        assert_eq!(problem("[Event \"x\"\n[Site \"y\"]"), (1, 1, PgnProblem::UnterminatedTag));
        assert_eq!(problem("[Event \"x"), (1, 8, PgnProblem::UnterminatedString));
        assert_eq!(problem("[Event \"x\n\"]"), (1, 8, PgnProblem::UnterminatedString));
        assert_eq!(problem("1. e4\n  (1. d4 (1. c4) e5"), (2, 3, PgnProblem::UnclosedVariation));
        assert_eq!(problem("1. e4 e5)"), (1, 9, PgnProblem::UnopenedVariation));
        assert_eq!(problem("1. e4 }"), (1, 7, PgnProblem::UnopenedComment));
        assert_eq!(problem("[ \"x\"]").2, PgnProblem::MalformedTag("expected a tag name after `[`"));
        assert_eq!(
            problem("[Event x]").2,
            PgnProblem::MalformedTag("expected a quoted value after the tag name")
        );
        assert_eq!(problem("1. e4 \"e5\"").2, PgnProblem::Unexpected('"'));
        let shown = parse("\n\n  {x").unwrap_err().to_string();
        assert_eq!(shown, "line 3, column 3: this comment `{` is never closed with `}`");
    }

    #[test]
    fn garbage_never_panics() {
        let mut rng = ChaCha8Rng::seed_from_u64(1858);
        let pgnish: Vec<char> = "[]{}()\";%$.\\\n \t1-0/2*eNxO+#!?Eventé\u{feff}".chars().collect();
        for round in 0..600 {
            let len = rng.gen_range(0..120);
            let text = if round % 2 == 0 {
                let bytes: Vec<u8> = (0..len).map(|_| rng.r#gen()).collect();
                String::from_utf8_lossy(&bytes).into_owned()
            } else {
                (0..len).map(|_| pgnish[rng.gen_range(0..pgnish.len())]).collect()
            };
            if let Err(e) = parse(&text) {
                assert!(e.line >= 1 && e.column >= 1, "{text:?}: {e}");
                assert!(e.line <= text.lines().count().max(1), "{text:?}: {e}");
            }
        }
    }
}
