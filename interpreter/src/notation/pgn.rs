//! PGN game records: reading the first game of a file ([`parse`]) and writing a [`Game`] ([`write`]).
//!
//! Reading keeps what replaying needs — the tag pairs, the `FEN` tag, the main line's moves as
//! written (less move numbers and `!`/`?` glyphs), its variations (`( ... )`, nested up to
//! [`MAX_DEPTH`] deep) as [`Branch`]es, and the result token — and skips comments (`{...}`, `;` to
//! end of line, `%` escape lines) and NAGs (`$12`).
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
    /// What the read skipped (comments, annotation glyphs), in words.
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
///
/// # Errors
/// A [`PgnError`] at an unterminated comment, tag or string, a malformed tag, an unbalanced
/// parenthesis or brace, or a stray `]` or `"` in the movetext.
///
/// # Examples
/// ```
/// let rec = arbiter::notation::pgn::parse("[Event \"?\"]\n1. e4 {best by test} e5 (1... c5) 2. Nf3 $1 *").unwrap();
/// assert_eq!(rec.moves, ["e4", "e5", "Nf3"]);
/// assert_eq!(rec.result.as_deref(), Some("*"));
/// ```
pub fn parse(text: &str) -> Result<Record, PgnError> {
    let mut c = Cursor::new(text);
    let mut rec = Record::default();
    let mut in_movetext = false;
    let mut dropped = Dropped::default();
    loop {
        c.skip_space();
        let Some(ch) = c.peek() else { break };
        let at = c.at();
        match ch {
            '[' if in_movetext => break,
            '[' => {
                let (name, value) = c.tag()?;
                if name == "FEN" {
                    rec.fen = Some(value.clone());
                }
                rec.tags.push((name, value));
            }
            '{' => {
                let comment = c.comment()?;
                let stamp = stamp_in_comment(&comment);
                if let (Some(stamp), Some(last)) = (stamp, rec.moves.len().checked_sub(1)) {
                    rec.stamps.resize(rec.moves.len(), None);
                    rec.stamps[last] = Some(stamp);
                }
                dropped.comment(&comment, stamp.is_some());
            }
            '}' => return Err(at.error(PgnProblem::UnopenedComment)),
            ';' => {
                c.skip_line();
                dropped.comments += 1;
            }
            '%' if c.column == 1 => {
                c.skip_line();
                dropped.escapes += 1;
            }
            '(' => {
                in_movetext = true;
                let (moves, branches) = c.variation(1, &mut dropped)?;
                // A variation before the first move replaces nothing: it is read and dropped.
                if let Some(at) = rec.moves.len().checked_sub(1) {
                    rec.variations.push(Branch { at, moves, branches });
                } else {
                    dropped.before_first += 1;
                }
            }
            ')' => return Err(at.error(PgnProblem::UnopenedVariation)),
            '$' => {
                in_movetext = true;
                c.bump();
                c.take_while(|ch| ch.is_ascii_digit());
                dropped.glyphs += 1;
            }
            ']' | '"' => return Err(at.error(PgnProblem::Unexpected(ch))),
            _ => {
                in_movetext = true;
                let token = c.take_while(|ch| !is_delimiter(ch));
                match read_token(&token) {
                    Token::Result(r) => {
                        rec.result = Some(r.to_string());
                        break;
                    }
                    Token::Move(m) => {
                        dropped.glyphs += (token.ends_with(['!', '?'])) as usize;
                        rec.moves.push(m.to_string())
                    }
                    Token::Nothing => {}
                }
            }
        }
    }
    rec.stamps.resize(rec.moves.len(), None);
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

/// What a read skips of a game's movetext, to say so: Arbiter keeps the moves, the variations and
/// the clock comments, not the words and signs around them.
#[derive(Default)]
struct Dropped {
    /// Comments (`{…}` with more than a clock, `;…`).
    comments: usize,
    /// Annotation glyphs: `$n` and `!`/`?` after a move.
    glyphs: usize,
    /// `%` escape lines.
    escapes: usize,
    /// Variations before the first move (they replace nothing).
    before_first: usize,
}

impl Dropped {
    /// A `{…}` comment: dropped unless it holds nothing but a clock reading Arbiter keeps.
    fn comment(&mut self, text: &str, kept_stamp: bool) {
        // The words left once every `[%command …]` is taken out.
        let mut words = String::new();
        let mut rest = text;
        while let Some(open) = rest.find("[%") {
            words.push_str(&rest[..open]);
            rest = rest[open..].find(']').map_or("", |close| &rest[open + close + 1..]);
        }
        words.push_str(rest);
        if !kept_stamp || !words.trim().is_empty() {
            self.comments += 1;
        }
    }

    /// One note naming what was not kept, if anything.
    fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        let mut say = |n: usize, one: &str, many: &str| {
            if n > 0 {
                parts.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        };
        say(self.comments, "comment", "comments");
        say(self.glyphs, "annotation glyph ($n, !, ?)", "annotation glyphs ($n, !, ?)");
        say(self.escapes, "escape line", "escape lines");
        say(
            self.before_first,
            "variation before the first move",
            "variations before the first move",
        );
        (!parts.is_empty()).then(|| format!("skipped {}: Arbiter keeps the moves, variations and clocks", parts.join(", ")))
    }
}

/// Writes a game as PGN: the seven-tag roster first (from `tags`, `?` where missing), the other
/// `tags`, `SetUp` and `FEN` when the game does not start from the ruleset's setup, then the
/// moves with move numbers, wrapped before 80 columns, and the result. Moves are written in the
/// ruleset's notation ([`notation::written`]): SAN for chess, WXF for xiangqi, coordinates by default.
///
/// The result is the game's own ([`crate::game::Outcome::result`]) when the rules have ended it;
/// otherwise the `Result` of `tags` if it is a result token (a resignation, say), else `*`.
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

pub fn write(game: &Game, tags: &[(String, String)]) -> String {
    write_tree(game, tags, &[]).0
}

/// As [`write`], with variations: each [`Branch`] (its moves in coordinates or the ruleset's
/// notation) is written in `( ... )` after the main-line move it replaces, nested as given; a
/// branch at the end of the main line continues it. Also returns notes on branch moves that are not
/// legal where they stand (the branch is cut there).
pub fn write_tree(game: &Game, tags: &[(String, String)], branches: &[Branch]) -> (String, Vec<String>) {
    write_timed(game, tags, branches, None)
}

/// As [`write_tree`], on a clock: the control as the `TimeControl` tag (unless `tags` give one),
/// and after each main-line move the mover's time left as a `{[%clk h:mm:ss]}` comment.
pub fn write_timed(game: &Game, tags: &[(String, String)], branches: &[Branch], timing: Option<&Timing>) -> (String, Vec<String>) {
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
    let line = variation::normalize(variation::resolve(&mut g, game.moves(), branches, &mut notes, ""));
    let mut words = Vec::new();
    let clk: Vec<Option<u64>> = timing
        .map(|t| t.after.iter().map(|(ms, _)| Some(*ms)).collect())
        .unwrap_or_default();
    line_words(&mut g, &line, &mut words, &clk);
    words.push(result);
    let mut line_len = 0;
    let mut glue = false;
    for w in words {
        let closing = w == ")";
        if line_len > 0 && line_len + 1 + w.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 && !glue && !closing {
            out.push(' ');
            line_len += 1;
        }
        glue = w == "(";
        line_len += w.len();
        out.push_str(&w);
    }
    out.push('\n');
    (out, notes)
}

/// The movetext words of `line` from `g`'s position (left as it was): move numbers, moves, and each
/// variation in `(` `)` after the move it replaces. A move by the second player gets its number
/// (`3...`) at the start of a line and after a variation. `clk[i]`, if given, is written after
/// move `i` as a `[%clk]` comment.
fn line_words(g: &mut Game, line: &Line, words: &mut Vec<String>, clk: &[Option<u64>]) {
    let mut numbered = false;
    let mut branches = line.branches.iter().peekable();
    for (i, &m) in line.moves.iter().enumerate() {
        let pos = g.current();
        if pos.side_to_move() == Side::FIRST {
            words.push(format!("{}.", pos.fullmove()));
        } else if !numbered {
            words.push(format!("{}...", pos.fullmove()));
        }
        words.push(notation::written(pos, m));
        numbered = true;
        if let Some(Some(ms)) = clk.get(i) {
            words.push(format!("{{[%clk {}]}}", write_hms(*ms)));
            numbered = false;
        }
        while let Some((_, l)) = branches.next_if(|(at, _)| *at == i) {
            words.push("(".to_string());
            line_words(g, l, words, &[]);
            words.push(")".to_string());
            numbered = false;
        }
        g.play(m);
    }
    let played: &[Move] = &line.moves;
    for _ in played {
        g.undo();
    }
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
    Result(&'a str),
    Move(&'a str),
    Nothing,
}

/// A movetext token: a result, a move (after any move number `12.` / `12...` and glyphs `!?`),
/// or nothing (a bare move number or glyph).
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
    let body = if after_dots.len() < after_digits.len() || after_digits.is_empty() {
        after_dots
    } else {
        token
    };
    let body = body.trim_end_matches(['!', '?']);
    if body.is_empty() { Token::Nothing } else { Token::Move(body) }
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
    /// `( ... )` from its `(`: the variation's moves, and the variations nested in it (each
    /// replacing the move before its `(`). `depth` counts the `(`s open, this one included.
    fn variation(&mut self, depth: usize, dropped: &mut Dropped) -> Result<(Vec<String>, Vec<Branch>), PgnError> {
        let open = self.at();
        if depth > MAX_DEPTH {
            return Err(open.error(PgnProblem::TooDeep));
        }
        self.bump();
        let mut moves: Vec<String> = Vec::new();
        let mut branches = Vec::new();
        loop {
            self.skip_space();
            let at = self.at();
            match self.peek() {
                // A tag section (the next game) inside a variation: this `(` was never closed.
                None | Some('[') => return Err(open.error(PgnProblem::UnclosedVariation)),
                Some(')') => {
                    self.bump();
                    return Ok((moves, branches));
                }
                Some('(') => {
                    let (m, b) = self.variation(depth + 1, dropped)?;
                    if let Some(at) = moves.len().checked_sub(1) {
                        branches.push(Branch { at, moves: m, branches: b });
                    } else {
                        dropped.before_first += 1;
                    }
                }
                Some('{') => {
                    self.comment()?;
                    dropped.comments += 1;
                }
                Some('}') => return Err(at.error(PgnProblem::UnopenedComment)),
                Some(';') => {
                    self.skip_line();
                    dropped.comments += 1;
                }
                Some('%') if self.column == 1 => {
                    self.skip_line();
                    dropped.escapes += 1;
                }
                Some('$') => {
                    self.bump();
                    self.take_while(|ch| ch.is_ascii_digit());
                    dropped.glyphs += 1;
                }
                Some(ch @ (']' | '"')) => return Err(at.error(PgnProblem::Unexpected(ch))),
                Some(_) => {
                    let token = self.take_while(|ch| !is_delimiter(ch));
                    // A result inside a variation (some programs write one) ends nothing.
                    if let Token::Move(m) = read_token(&token) {
                        dropped.glyphs += (token.ends_with(['!', '?'])) as usize;
                        moves.push(m.to_string());
                    }
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

    #[test]
    fn a_read_says_what_it_skipped_and_not_what_it_kept() {
        let rec = parse("1. e4 {[%clk 0:05:00]} e5!? $1 {good} (1... c5 {Sicilian} $2 ; a line comment\n) 2. Nf3 *").expect("valid PGN");
        assert_eq!(rec.moves, ["e4", "e5", "Nf3"]);
        assert_eq!(
            rec.notes,
            ["skipped 3 comments, 3 annotation glyphs ($n, !, ?): Arbiter keeps the moves, variations and clocks"]
        );
        // Clock comments, moves and variations alone: nothing to say.
        let plain = parse("1. e4 {[%clk 0:05:00]} e5 (1... c5) *").expect("valid PGN");
        assert!(plain.notes.is_empty(), "{:?}", plain.notes);
        // A comment with words beside its clock is said to be skipped; the clock is kept.
        let both = parse("1. e4 {[%clk 0:05:00] fast} *").expect("valid PGN");
        assert!(both.stamps[0].is_some());
        assert_eq!(both.notes.len(), 1);
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
    fn skips_comments_nags_and_nested_variations() {
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
