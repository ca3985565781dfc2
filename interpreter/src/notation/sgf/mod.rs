//! SGF (Smart Game Format, FF[4]) records of go games: [`parse`] reads the main line of a record —
//! board size, komi, setup stones, moves — and [`write`] writes a [`Game`](crate::game::Game) back out.
//!
//! Invariants: reading never panics, whatever the input; every error names the line and column
//! (1-based, counted in characters) where the record goes wrong. Besides the board and the moves,
//! a read keeps the game information (`PB`, `DT`, `RE`, …, see [`GAME_INFO`]), comments (`C`) and
//! move assessments (`TE`, `BM`, `IT`, `DO`, read as PGN's NAGs) so a record written again says
//! what it said; other properties of the main line are counted in [`SgfGame::skipped`], those of
//! variations ignored. SGF's black is the player who moves first, Arbiter's first player.
//!
//! SGF writes a point as two letters, column then row, both from `a`, rows counted from the TOP
//! (`aa` is the top-left corner). [`SgfGame`] keeps points that way, as `(column, row from top)`;
//! [`SgfMove::gtp`] turns one into the coordinates Arbiter and GTP use (`D4`: files `A..T` without
//! `I`, rows counted from the bottom).

mod write;

pub use write::{write, write_timed, write_tree};

use super::annotation::{Annotation, Commentary, join_comment, trimmed};
use super::cursor::Cursor;
use super::variation::{Branch, MAX_DEPTH};
use crate::clock::{Stamp, TimeControl};
use thiserror::Error;

use crate::model::{KindId, Primitive, Rules, Setup, Side};

/// A player as SGF names them; black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// The Arbiter side: black is the first player.
    pub fn side(self) -> Side {
        match self {
            Colour::Black => Side::FIRST,
            Colour::White => Side::SECOND,
        }
    }
    fn letter(self) -> &'static str {
        match self {
            Colour::Black => "B",
            Colour::White => "W",
        }
    }
    fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

/// One move of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfMove {
    pub colour: Colour,
    /// `(column, row from top)`, or `None` for a pass.
    pub point: Option<(usize, usize)>,
    /// Where the move's value starts in the record.
    pub line: usize,
    pub column: usize,
}

impl SgfMove {
    /// The move as GTP writes it on a `size` × `size` board: `D4` (files `A..Z` without `I`, rows
    /// from the bottom) or `pass`. `None` past the 25th column, where GTP has no letters.
    ///
    /// # Examples
    /// ```
    /// use arbiter::notation::sgf::{Colour, SgfMove};
    /// let m = SgfMove { colour: Colour::Black, point: Some((3, 5)), line: 1, column: 1 };
    /// assert_eq!(m.gtp(9).as_deref(), Some("D4"));
    /// ```
    pub fn gtp(&self, size: usize) -> Option<String> {
        match self.point {
            None => Some("pass".into()),
            Some((col, row)) => {
                let letter = (b'A'..=b'Z').filter(|&c| c != b'I').nth(col)? as char;
                Some(format!("{letter}{}", size.checked_sub(row)?))
            }
        }
    }
}

/// A line played instead of move `at` of the line it branches off (an SGF game tree after the first
/// at its branch point).
#[derive(Clone, Debug, PartialEq)]
pub struct SgfVariation {
    pub at: usize,
    pub moves: Vec<SgfMove>,
    pub variations: Vec<SgfVariation>,
    /// Each move's comment and assessment, as long as `moves`.
    pub annotations: Vec<Annotation>,
    /// The comment of a node without a move before the line's first move.
    pub comment: Option<String>,
}

/// The game-information properties a read keeps as the record's tags, under these identifiers:
/// players and their ranks and teams, date, game name, event, round, place, result, source, user,
/// annotator, game comment, opening, copyright and rules.
pub const GAME_INFO: [&str; 19] = [
    "PB", "PW", "BR", "WR", "BT", "WT", "DT", "GN", "EV", "RO", "PC", "RE", "SO", "US", "AN", "GC", "ON", "CP", "RU",
];

/// The main line of an SGF game record, and its variations.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// Lines each way (`SZ`, 19 when absent).
    pub size: usize,
    /// `KM`, if given.
    pub komi: Option<f64>,
    /// `HA`: handicap stones (their points are the `AB` stones), when 2 or more.
    pub handicap: Option<usize>,
    /// `AB` setup stones, `(column, row from top)`.
    pub black_setup: Vec<(usize, usize)>,
    /// `AW` setup stones.
    pub white_setup: Vec<(usize, usize)>,
    pub moves: Vec<SgfMove>,
    /// `PL`: who plays first, if the record says.
    pub to_play: Option<Colour>,
    /// Where `SZ` stands, as (line, column); (1, 1) when absent. Errors about the size point here.
    pub size_at: (usize, usize),
    /// The variations off the main line (their setup properties are not read).
    pub variations: Vec<SgfVariation>,
    /// `TM`, the main time, and `OT` when it is byo-yomi (`5x30 byo-yomi`): the game's control.
    pub control: Option<TimeControl>,
    /// `OT` as written when Arbiter does not understand it.
    pub overtime_unread: Option<String>,
    /// Each main-line move's `BL`/`WL` (time left after it), if given; as long as `moves`.
    pub stamps: Vec<Option<Stamp>>,
    /// Properties of the main line Arbiter does not keep (marks, labels, other programs' own), by
    /// name, with how often each occurred.
    pub skipped: Vec<(String, usize)>,
    /// The game information ([`GAME_INFO`]) as `(identifier, value)`, in file order.
    pub info: Vec<(String, String)>,
    /// The comments of the nodes before the first move (the root's `C`), joined.
    pub comment: Option<String>,
    /// Each main-line move's comment and assessment, as long as `moves`.
    pub annotations: Vec<Annotation>,
}

/// Why a record could not be read, and where.
#[derive(Clone, Debug, Error, PartialEq)]
#[error("line {line}, column {column}: {kind}")]
pub struct SgfError {
    pub line: usize,
    pub column: usize,
    pub kind: SgfErrorKind,
}

#[derive(Clone, Debug, Error, PartialEq)]
pub enum SgfErrorKind {
    #[error("expected {expected}, found {found}")]
    Expected { expected: &'static str, found: String },
    #[error("the record ends inside this property value (a `]` is missing)")]
    UnclosedValue,
    #[error("the record ends before the game tree is closed (expected `)`)")]
    UnexpectedEnd,
    #[error("a game tree must start with a node (`;`)")]
    EmptyTree,
    #[error("a node after a variation: the nodes of a sequence come before its variations")]
    NodeAfterVariation,
    #[error("variations nested more than {MAX_DEPTH} deep")]
    TooDeep,
    #[error("property {0} has no value")]
    NoValue(String),
    #[error("GM[{0}] is not go (GM[1])")]
    NotGo(String),
    #[error("FF[{0}]: only file formats 1 to 4 are read")]
    Format(String),
    #[error("SZ[{0}]: {1}")]
    Size(String, &'static str),
    #[error("KM[{0}] is not a number")]
    Komi(String),
    #[error("HA[{0}]: expected a number of handicap stones")]
    Handicap(String),
    #[error("`{0}` is not a number of seconds")]
    Time(String),
    #[error("`{0}` is not a number of byo-yomi periods")]
    Periods(String),
    #[error("`{value}` is not a point of a {size} × {size} board")]
    Point { value: String, size: usize },
    #[error("PL[{0}]: expected B or W")]
    Player(String),
    #[error("a node with both a black and a white move")]
    TwoMoves,
    #[error("{0} after the first move: setup stones are read only before play starts")]
    SetupAfterMoves(String),
    #[error("point `{0}` is set up twice")]
    SetupTwice(String),
    #[error("{0} moves out of turn: Arbiter's players alternate")]
    OutOfTurn(&'static str),
    #[error("{0} has no GTP name (GTP letters stop at the 25th column)")]
    NoGtpName(String),
    #[error("the record's board is {sgf} × {sgf}, the ruleset's {width} × {height}")]
    BoardMismatch { sgf: usize, width: usize, height: usize },
    #[error("the ruleset has no piece placed from the supply, so setup stones cannot be written")]
    NoPlaceablePiece,
}

/// A property value as read, with where it starts.
#[derive(Clone)]
struct Value {
    text: String,
    line: usize,
    column: usize,
}

impl Cursor {
    fn error(&self, kind: SgfErrorKind) -> SgfError {
        SgfError {
            line: self.line,
            column: self.column,
            kind,
        }
    }
    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("`{c}`"),
            None => "the end of the record".into(),
        }
    }
    /// A bracketed value; the cursor stands on `[`. Escapes (`\]`, `\\`) are resolved and an
    /// escaped line break (a soft break) is dropped.
    fn value(&mut self) -> Result<Value, SgfError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let mut text = String::new();
        loop {
            match self.bump() {
                None => {
                    return Err(SgfError {
                        line,
                        column,
                        kind: SgfErrorKind::UnclosedValue,
                    });
                }
                Some(']') => return Ok(Value { text, line, column }),
                Some('\\') => match self.bump() {
                    None => {
                        return Err(SgfError {
                            line,
                            column,
                            kind: SgfErrorKind::UnclosedValue,
                        });
                    }
                    Some('\n') => {
                        if self.peek() == Some('\r') {
                            self.bump();
                        }
                    }
                    Some('\r') => {
                        if self.peek() == Some('\n') {
                            self.bump();
                        }
                    }
                    Some(c) => text.push(c),
                },
                Some(c) => text.push(c),
            }
        }
    }
}

/// One game tree being read: is it on the main line, and how many variations has it had.
struct Frame {
    /// Where its `(` stands.
    open: (usize, usize),
    main: bool,
    variations: usize,
    nodes: usize,
    /// The line (index into [`Raw::lines`]) its moves belong to: its parent's for a first
    /// variation, which continues the parent's line; a new one for any other.
    line: usize,
    /// The length of its line when its first variation opened: where the others branch off.
    split: usize,
}

/// A line of the tree as read: its moves off the main line (the main line's are [`Raw::moves`]),
/// the lines branching off it as `(index of the move they replace, line)`, and how deeply it is nested.
#[derive(Default)]
struct RawLine {
    moves: Vec<(Colour, Value)>,
    branches: Vec<(usize, usize)>,
    depth: usize,
    /// As long as `moves`.
    annotations: Vec<Annotation>,
    /// Comments of nodes without a move before its first move.
    comment: Option<String>,
}

/// What the main line said, before the points are checked against the final board size.
#[derive(Default)]
struct Raw {
    size: Option<Value>,
    komi: Option<Value>,
    handicap: Option<Value>,
    setup: Vec<(Colour, Value)>,
    moves: Vec<(Colour, Value)>,
    to_play: Option<Value>,
    /// Line 0 is the main line (its moves are `moves`); the others are variations.
    lines: Vec<RawLine>,
    main_time: Option<Value>,
    overtime: Option<Value>,
    /// `(index into moves, BL/WL value, OB/OW value)`.
    left: Vec<(usize, Value, Option<Value>)>,
    /// Main-line properties not read, by name (see [`SgfGame::skipped`]).
    skipped: std::collections::BTreeMap<String, usize>,
    /// See [`SgfGame::info`].
    info: Vec<(String, String)>,
    /// Comments of main-line nodes before the first move.
    comment: Option<String>,
    /// As long as `moves`.
    annotations: Vec<Annotation>,
}

/// Reads the first game of an SGF collection: its main line (the first variation at each branch)
/// and the moves of its other variations.
///
/// # Errors
/// An [`SgfError`] with the line and column of the first problem: broken syntax, a game other
/// than go, a non-square board, a point off the board, setup stones after play started.
///
/// # Examples
/// ```
/// let g = arbiter::notation::sgf::parse("(;FF[4]GM[1]SZ[9]KM[6.5]AB[cc:cd];W[ee](;B[]) (;B[aa]))").expect("valid SGF");
/// assert_eq!((g.size, g.komi), (9, Some(6.5)));
/// assert_eq!(g.black_setup, vec![(2, 2), (2, 3)]);
/// assert_eq!(g.moves.len(), 2);
/// assert_eq!(g.moves[1].point, None);
/// ```
pub fn parse(text: &str) -> Result<SgfGame, SgfError> {
    let mut cur = Cursor::new(text);
    let mut raw = Raw {
        lines: vec![RawLine::default()],
        ..Raw::default()
    };
    let mut stack: Vec<Frame> = Vec::new();
    cur.skip_space();
    if cur.peek() != Some('(') {
        return Err(cur.error(SgfErrorKind::Expected {
            expected: "`(` to open a game tree",
            found: cur.found(),
        }));
    }
    loop {
        cur.skip_space();
        match cur.peek() {
            None => return Err(cur.error(SgfErrorKind::UnexpectedEnd)),
            Some('(') => {
                let (main, line) = match stack.last_mut() {
                    None => (true, 0),
                    Some(parent) => {
                        if parent.nodes == 0 {
                            let (line, column) = parent.open;
                            return Err(SgfError {
                                line,
                                column,
                                kind: SgfErrorKind::EmptyTree,
                            });
                        }
                        parent.variations += 1;
                        let len = if parent.line == 0 {
                            raw.moves.len()
                        } else {
                            raw.lines[parent.line].moves.len()
                        };
                        if parent.variations == 1 {
                            parent.split = len;
                            (parent.main, parent.line)
                        } else {
                            let depth = raw.lines[parent.line].depth + 1;
                            if depth > MAX_DEPTH {
                                return Err(cur.error(SgfErrorKind::TooDeep));
                            }
                            let id = raw.lines.len();
                            raw.lines.push(RawLine {
                                depth,
                                ..RawLine::default()
                            });
                            raw.lines[parent.line].branches.push((parent.split, id));
                            (false, id)
                        }
                    }
                };
                stack.push(Frame {
                    open: (cur.line, cur.column),
                    main,
                    variations: 0,
                    nodes: 0,
                    line,
                    split: 0,
                });
                cur.bump();
            }
            Some(')') => {
                let Some(frame) = stack.pop() else {
                    return Err(cur.error(SgfErrorKind::Expected {
                        expected: "`(`",
                        found: cur.found(),
                    }));
                };
                if frame.nodes == 0 {
                    let (line, column) = frame.open;
                    return Err(SgfError {
                        line,
                        column,
                        kind: SgfErrorKind::EmptyTree,
                    });
                }
                cur.bump();
                if stack.is_empty() {
                    // The first game is read; further games in the collection are not.
                    break;
                }
            }
            Some(';') => {
                let Some(frame) = stack.last_mut() else {
                    return Err(cur.error(SgfErrorKind::Expected {
                        expected: "`(`",
                        found: cur.found(),
                    }));
                };
                if frame.variations > 0 {
                    return Err(cur.error(SgfErrorKind::NodeAfterVariation));
                }
                frame.nodes += 1;
                let (main, line) = (frame.main, frame.line);
                cur.bump();
                node(&mut cur, &mut raw, main, line)?;
            }
            Some(_) => {
                let expected = if stack.last().is_some_and(|f| f.nodes == 0) {
                    "`;` to start a node"
                } else {
                    "`;`, `(` or `)`"
                };
                return Err(cur.error(SgfErrorKind::Expected {
                    expected,
                    found: cur.found(),
                }));
            }
        }
    }
    resolve(raw)
}

/// Reads the properties of one node; the cursor stands after its `;`.
/// Off the main line only moves are kept, in line `branch` of [`Raw::lines`].
fn node(cur: &mut Cursor, raw: &mut Raw, main: bool, branch: usize) -> Result<(), SgfError> {
    let mut moved: Option<(usize, usize)> = None;
    // `BL`/`WL`: the time left after this node's move, in any order with it.
    let mut left: Option<Value> = None;
    let mut periods: Option<Value> = None;
    // `C`, `TE`, `BM`, `IT`, `DO`: what the node says of its move, in any order with it.
    let mut said = Annotation::default();
    loop {
        cur.skip_space();
        match cur.peek() {
            Some(c) if c.is_ascii_alphabetic() => {}
            _ => {
                if let (Some(v), Some(_), true) = (left, moved, main) {
                    raw.left.push((raw.moves.len() - 1, v, periods));
                }
                raw.annotate(main, branch, said);
                return Ok(());
            }
        }
        let (line, column) = (cur.line, cur.column);
        // FF[1-3] allowed lowercase letters in identifiers (`AddBlack`); only capitals count.
        let mut id = String::new();
        while let Some(c) = cur.peek().filter(char::is_ascii_alphabetic) {
            if c.is_ascii_uppercase() {
                id.push(c);
            }
            cur.bump();
        }
        cur.skip_space();
        let mut values = Vec::new();
        while cur.peek() == Some('[') {
            values.push(cur.value()?);
            cur.skip_space();
        }
        if id.is_empty() {
            return Err(SgfError {
                line,
                column,
                kind: SgfErrorKind::Expected {
                    expected: "a property name in capitals",
                    found: "lowercase letters".into(),
                },
            });
        }
        let Some(first) = values.first() else {
            return Err(SgfError {
                line,
                column,
                kind: SgfErrorKind::NoValue(id),
            });
        };
        match id.as_str() {
            "C" => {
                said.add_comment(&first.text);
                continue;
            }
            // SGF's move assessments as PGN's glyphs: `TE[2]`, very good, is `!!`.
            "TE" | "BM" | "IT" | "DO" => {
                let double = first.text.trim() == "2";
                said.add_nag(match (id.as_str(), double) {
                    ("TE", false) => 1,
                    ("TE", true) => 3,
                    ("BM", false) => 2,
                    ("BM", true) => 4,
                    ("IT", _) => 5,
                    _ => 6,
                });
                continue;
            }
            _ => {}
        }
        if !main {
            if (id == "B" || id == "W") && moved.is_none() {
                moved = Some((line, column));
                let colour = if id == "B" { Colour::Black } else { Colour::White };
                raw.lines[branch].moves.push((colour, first.clone()));
                raw.lines[branch].annotations.push(Annotation::default());
            }
            continue;
        }
        let one = || Value {
            text: first.text.clone(),
            line: first.line,
            column: first.column,
        };
        match id.as_str() {
            "GM" if first.text.trim() != "1" => {
                return Err(at(first, SgfErrorKind::NotGo(first.text.clone())));
            }
            "FF" if !matches!(first.text.trim(), "1" | "2" | "3" | "4") => {
                return Err(at(first, SgfErrorKind::Format(first.text.clone())));
            }
            "SZ" => raw.size = Some(one()),
            "TM" => raw.main_time = Some(one()),
            "OT" => raw.overtime = Some(one()),
            "BL" | "WL" => left = Some(one()),
            "OB" | "OW" => periods = Some(one()),
            "KM" => raw.komi = Some(one()),
            "HA" => raw.handicap = Some(one()),
            "PL" if raw.moves.is_empty() => raw.to_play = Some(one()),
            "AB" | "AW" => {
                if !raw.moves.is_empty() {
                    return Err(SgfError {
                        line,
                        column,
                        kind: SgfErrorKind::SetupAfterMoves(id),
                    });
                }
                let colour = if id == "AB" { Colour::Black } else { Colour::White };
                raw.setup.extend(values.into_iter().map(|v| (colour, v)));
            }
            "B" | "W" => {
                if moved.is_some() {
                    return Err(SgfError {
                        line,
                        column,
                        kind: SgfErrorKind::TwoMoves,
                    });
                }
                moved = Some((line, column));
                let colour = if id == "B" { Colour::Black } else { Colour::White };
                raw.moves.push((colour, one()));
                raw.annotations.push(Annotation::default());
            }
            _ if GAME_INFO.contains(&id.as_str()) => raw.info.push((id, first.text.clone())),
            // The file's own format, encoding and the program that wrote it: nothing a reader loses.
            "GM" | "FF" | "CA" | "AP" | "ST" | "PL" => {}
            _ => *raw.skipped.entry(id).or_default() += 1,
        }
    }
}

impl Raw {
    /// What a node said (`said`) given to its move: the last move of its line, the node's own if it
    /// has one; before the line's first move, to the line (the game comment on the main line).
    fn annotate(&mut self, main: bool, branch: usize, said: Annotation) {
        if said.is_empty() {
            return;
        }
        let (annotations, comment) = if main {
            (&mut self.annotations, &mut self.comment)
        } else {
            let l = &mut self.lines[branch];
            (&mut l.annotations, &mut l.comment)
        };
        match annotations.last_mut() {
            Some(a) => {
                if let Some(c) = &said.comment {
                    a.add_comment(c);
                }
                for n in said.nags {
                    a.add_nag(n);
                }
            }
            // Glyphs before the first move assess nothing.
            None => {
                if let Some(c) = &said.comment {
                    join_comment(comment, c);
                }
            }
        }
    }
}

fn at(v: &Value, kind: SgfErrorKind) -> SgfError {
    SgfError {
        line: v.line,
        column: v.column,
        kind,
    }
}

/// Checks the values of the main line against the board size.
fn resolve(raw: Raw) -> Result<SgfGame, SgfError> {
    let (size, size_at) = match &raw.size {
        None => (19, (1, 1)),
        Some(v) => {
            let t = v.text.trim();
            let (w, h) = t.split_once(':').unwrap_or((t, t));
            let (Ok(w), Ok(h)) = (w.trim().parse::<usize>(), h.trim().parse::<usize>()) else {
                return Err(at(v, SgfErrorKind::Size(v.text.clone(), "expected a number of lines")));
            };
            if w != h {
                return Err(at(v, SgfErrorKind::Size(v.text.clone(), "only square boards are read")));
            }
            if !(1..=52).contains(&w) {
                return Err(at(v, SgfErrorKind::Size(v.text.clone(), "SGF boards have 1 to 52 lines")));
            }
            (w, (v.line, v.column))
        }
    };
    let komi = match &raw.komi {
        None => None,
        Some(v) if v.text.trim().is_empty() => None,
        Some(v) => match v.text.trim().parse::<f64>() {
            Ok(k) if k.is_finite() => Some(k),
            _ => return Err(at(v, SgfErrorKind::Komi(v.text.clone()))),
        },
    };
    // HA[0] and HA[1] are written by some programs for an even game and a game without komi.
    let handicap = match &raw.handicap {
        None => None,
        Some(v) if v.text.trim().is_empty() => None,
        Some(v) => match v.text.trim().parse::<usize>() {
            Ok(n) if n >= 2 => Some(n),
            Ok(_) => None,
            Err(_) => return Err(at(v, SgfErrorKind::Handicap(v.text.clone()))),
        },
    };
    let to_play = match &raw.to_play {
        None => None,
        Some(v) => match v.text.trim() {
            "B" | "b" => Some(Colour::Black),
            "W" | "w" => Some(Colour::White),
            _ => return Err(at(v, SgfErrorKind::Player(v.text.clone()))),
        },
    };
    let mut black_setup = Vec::new();
    let mut white_setup = Vec::new();
    let mut taken = vec![false; size * size];
    for (colour, v) in &raw.setup {
        let t = v.text.trim();
        let (a, b) = t.split_once(':').unwrap_or((t, t));
        let bad = || {
            at(
                v,
                SgfErrorKind::Point {
                    value: v.text.clone(),
                    size,
                },
            )
        };
        let (a, b) = (point(a, size).ok_or_else(bad)?, point(b, size).ok_or_else(bad)?);
        for row in a.1.min(b.1)..=a.1.max(b.1) {
            for col in a.0.min(b.0)..=a.0.max(b.0) {
                if std::mem::replace(&mut taken[row * size + col], true) {
                    return Err(at(v, SgfErrorKind::SetupTwice(point_text(col, row))));
                }
                match colour {
                    Colour::Black => black_setup.push((col, row)),
                    Colour::White => white_setup.push((col, row)),
                }
            }
        }
    }
    let moves = sgf_moves(&raw.moves, size)?;
    let variations = variations_of(&raw, 0, size)?;
    let mut stamps = vec![None; moves.len()];
    for (i, v, periods) in &raw.left {
        let left_ms = match v.text.trim().parse::<f64>() {
            Ok(secs) if secs.is_finite() && secs >= 0.0 && secs * 1000.0 <= crate::clock::MAX_TIME_MS as f64 => {
                (secs * 1000.0).round() as u64
            }
            _ => return Err(at(v, SgfErrorKind::Time(v.text.clone()))),
        };
        stamps[*i] = Some(match periods {
            None => Stamp::Left(left_ms),
            Some(p) => match p.text.trim().parse::<u32>() {
                Ok(periods) => Stamp::Overtime { left_ms, periods },
                Err(_) => return Err(at(p, SgfErrorKind::Periods(p.text.clone()))),
            },
        });
    }
    let mut overtime_unread = None;
    let control = match &raw.main_time {
        None => None,
        Some(v) => {
            let secs: f64 = v.text.trim().parse().map_err(|_| at(v, SgfErrorKind::Time(v.text.clone())))?;
            if !(secs.is_finite() && secs >= 0.0 && secs * 1000.0 <= crate::clock::MAX_TIME_MS as f64) {
                return Err(at(v, SgfErrorKind::Time(v.text.clone())));
            }
            let byoyomi = raw.overtime.as_ref().and_then(|o| {
                let read = crate::clock::parse_sgf_overtime(&o.text);
                if read.is_none() {
                    overtime_unread = Some(o.text.clone());
                }
                read
            });
            let mut name = format!("TM[{}]", v.text.trim());
            if let Some(o) = &raw.overtime {
                name.push_str(&format!(" OT[{}]", o.text.trim()));
            }
            Some(TimeControl {
                name,
                stages: vec![crate::clock::Stage {
                    moves: None,
                    time_ms: (secs * 1000.0).round() as u64,
                    increment_ms: 0,
                    delay_ms: 0,
                    repeat: false,
                }],
                byoyomi,
                cite: None,
            })
        }
    };
    Ok(SgfGame {
        size,
        komi,
        handicap,
        black_setup,
        white_setup,
        moves,
        to_play,
        size_at,
        variations,
        control,
        overtime_unread,
        stamps,
        skipped: raw.skipped.into_iter().collect(),
        info: raw.info,
        comment: raw.comment,
        annotations: raw.annotations,
    })
}

/// Moves as read, their points checked against the board size (`tt` is a pass up to 19 × 19).
fn sgf_moves(raw: &[(Colour, Value)], size: usize) -> Result<Vec<SgfMove>, SgfError> {
    let mut moves = Vec::new();
    for (colour, v) in raw {
        let t = v.text.trim();
        let p = if t.is_empty() || (t == "tt" && size <= 19) {
            None
        } else {
            Some(point(t, size).ok_or_else(|| {
                at(
                    v,
                    SgfErrorKind::Point {
                        value: v.text.clone(),
                        size,
                    },
                )
            })?)
        };
        moves.push(SgfMove {
            colour: *colour,
            point: p,
            line: v.line,
            column: v.column,
        });
    }
    Ok(moves)
}

/// The variations branching off line `id` of the raw tree (not nested deeper than [`MAX_DEPTH`]).
fn variations_of(raw: &Raw, id: usize, size: usize) -> Result<Vec<SgfVariation>, SgfError> {
    let mut out = Vec::new();
    for &(at, line) in &raw.lines[id].branches {
        let l = &raw.lines[line];
        // A variation without a move (comments only) adds no line.
        if l.moves.is_empty() && l.branches.is_empty() {
            continue;
        }
        out.push(SgfVariation {
            at,
            moves: sgf_moves(&l.moves, size)?,
            variations: variations_of(raw, line, size)?,
            annotations: l.annotations.clone(),
            comment: l.comment.clone(),
        });
    }
    Ok(out)
}

/// `cd` → (2, 3): letters `a..z` then `A..Z`, within the board.
fn point(t: &str, size: usize) -> Option<(usize, usize)> {
    let mut cs = t.chars();
    let (c, r) = (cs.next()?, cs.next()?);
    if cs.next().is_some() {
        return None;
    }
    let (c, r) = (coord(c)?, coord(r)?);
    (c < size && r < size).then_some((c, r))
}

fn coord(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

fn coord_letter(i: usize) -> char {
    let i = i as u8;
    if i < 26 { (b'a' + i) as char } else { (b'A' + i - 26) as char }
}

fn point_text(col: usize, row: usize) -> String {
    format!("{}{}", coord_letter(col), coord_letter(row))
}

impl SgfGame {
    /// The game comment and the main line's annotations, as the writers take them.
    pub fn commentary(&self) -> Commentary {
        Commentary {
            comment: self.comment.clone(),
            annotations: trimmed(self.annotations.clone()),
        }
    }

    /// Who moves first: `PL` if given, else the colour of the first move, else black.
    pub fn first_to_move(&self) -> Colour {
        self.to_play.or(self.moves.first().map(|m| m.colour)).unwrap_or(Colour::Black)
    }

    /// The start position for `rules` as a plain setup (the first of the two steps a position
    /// takes, see [`crate::model::setup`]): a `size` × `size` board with the setup stones, as the
    /// ruleset's placeable piece, and [`SgfGame::first_to_move`] to move.
    ///
    /// # Errors
    /// The ruleset's board is not `size` × `size`, or it has no piece placed from the supply.
    pub fn setup(&self, rules: &Rules) -> Result<Setup, SgfError> {
        let b = &rules.board;
        let (line, column) = self.size_at;
        let err = |kind| SgfError { line, column, kind };
        if b.width != self.size || b.height != self.size {
            return Err(err(SgfErrorKind::BoardMismatch {
                sgf: self.size,
                width: b.width,
                height: b.height,
            }));
        }
        let Some(kind) = rules
            .kinds
            .iter()
            .position(|k| k.forms.iter().any(|f| f.primitive == Primitive::Place))
        else {
            return Err(err(SgfErrorKind::NoPlaceablePiece));
        };
        let mut setup = Setup::empty(rules);
        // SGF counts rows from the top.
        let square = |&(c, r): &(usize, usize)| b.square(c, self.size - 1 - r);
        for (stones, colour) in [(&self.black_setup, Colour::Black), (&self.white_setup, Colour::White)] {
            for point in stones {
                setup.board[square(point)] = Some((KindId(kind as u8), colour.side()));
            }
        }
        setup.stm = self.first_to_move().side();
        Ok(setup)
    }

    /// The moves as GTP text (`D4`, `pass`), checked to alternate from [`SgfGame::first_to_move`].
    ///
    /// # Errors
    /// A move out of turn (two black moves in a row), or a point past GTP's 25 letters; the error
    /// names the move's place in the record.
    pub fn gtp_moves(&self) -> Result<Vec<String>, SgfError> {
        self.gtp_line(&self.moves, self.first_to_move())
    }

    /// The variations as [`Branch`]es of GTP text, checked as [`SgfGame::gtp_moves`] checks the
    /// main line: each line alternates from the colour of the move it replaces.
    ///
    /// # Errors
    /// As [`SgfGame::gtp_moves`], for a move of any variation.
    pub fn gtp_variations(&self) -> Result<Vec<Branch>, SgfError> {
        self.gtp_branches(&self.variations, self.first_to_move())
    }

    fn gtp_branches(&self, variations: &[SgfVariation], first: Colour) -> Result<Vec<Branch>, SgfError> {
        let mut out = Vec::new();
        for v in variations {
            let start = if v.at % 2 == 0 { first } else { first.other() };
            out.push(Branch {
                at: v.at,
                moves: self.gtp_line(&v.moves, start)?,
                branches: self.gtp_branches(&v.variations, start)?,
                annotations: trimmed(v.annotations.clone()),
                comment: v.comment.clone(),
            });
        }
        Ok(out)
    }

    fn gtp_line(&self, moves: &[SgfMove], first: Colour) -> Result<Vec<String>, SgfError> {
        let mut turn = first;
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let err = |kind| SgfError {
                line: m.line,
                column: m.column,
                kind,
            };
            if m.colour != turn {
                return Err(err(SgfErrorKind::OutOfTurn(m.colour.letter())));
            }
            let text = m.gtp(self.size).ok_or_else(|| {
                let (c, r) = m.point.unwrap_or_default();
                err(SgfErrorKind::NoGtpName(point_text(c, r)))
            })?;
            out.push(text);
            turn = turn.other();
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A 9×9 go game after `moves`.
    fn go9_after(moves: &[&str]) -> Game {
        let checked = crate::check::check_file(
            std::path::Path::new("../rulesets/go.rules"),
            &[("size".to_string(), "9".to_string())],
        );
        let engine = crate::game::Engine::new(checked.rules.expect("go.rules is valid"));
        let mut game = Game::new(engine.clone(), engine.start());
        crate::notation::record::play_line(&mut game, moves).expect("legal");
        game
    }

    fn err(text: &str) -> SgfError {
        parse(text).expect_err("an invalid record")
    }

    #[test]
    fn the_main_line_s_properties_not_kept_are_counted() {
        // The first variation continues the main line; the second is a variation's, not counted.
        let g =
            parse("(;FF[4]GM[1]CA[UTF-8]SZ[9]KM[7]PB[Lee]C[a game];B[ee]C[center]LB[ee:A]SQ[aa];W[cc](;B[dd]LB[dd:B])(;B[ff]LB[ff:C]))")
                .expect("valid SGF");
        assert_eq!(g.skipped, [("LB".to_string(), 2), ("SQ".to_string(), 1)]);
        let plain = parse("(;FF[4]GM[1]SZ[9]KM[7]RE[B+R]PB[Lee]C[hi];B[ee]TE[1];W[cc])").expect("valid SGF");
        assert!(plain.skipped.is_empty(), "{:?}", plain.skipped);
    }

    #[test]
    fn game_information_comments_and_assessments_are_kept() {
        let g = parse(
            "(;FF[4]GM[1]SZ[9]PW[Honinbo \\\\ Shusaku]DT[1846-09-11]PB[Gennan\\\n Inseki]RE[B+2]C[The ear-reddening\\]\n game]\
             ;B[ee]TE[2]C[a]C[b];W[cc]BM[1];C[about white's move]\
             (;B[dd]IT[])(;C[instead];B[ff]DO[]C[dubious]))",
        )
        .expect("valid SGF");
        // In file order, in SGF's identifiers; escapes resolved and the soft line break dropped.
        assert_eq!(
            g.info,
            [
                ("PW".to_string(), "Honinbo \\ Shusaku".to_string()),
                ("DT".to_string(), "1846-09-11".to_string()),
                ("PB".to_string(), "Gennan Inseki".to_string()),
                ("RE".to_string(), "B+2".to_string()),
            ]
        );
        assert_eq!(g.comment.as_deref(), Some("The ear-reddening]\n game"));
        let said: Vec<(Vec<u8>, Option<&str>)> = g.annotations.iter().map(|a| (a.nags.clone(), a.comment.as_deref())).collect();
        assert_eq!(
            said,
            [(vec![3], Some("a b")), (vec![2], Some("about white's move")), (vec![5], None)]
        );
        let v = g.gtp_variations().expect("valid");
        assert_eq!(v[0].comment.as_deref(), Some("instead"));
        assert_eq!(v[0].annotations[0].nags, [6]);
        assert_eq!(v[0].annotations[0].comment.as_deref(), Some("dubious"));
        let rec = crate::notation::record::read("(;SZ[9]KM[6.5]PB[Lee]C[game];B[ee]C[move])", crate::notation::record::Format::Sgf)
            .expect("valid SGF");
        let tags: Vec<&str> = rec.tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(tags, ["SZ", "KM", "PB"]);
        assert_eq!(rec.commentary.comment.as_deref(), Some("game"));
        assert_eq!(rec.commentary.annotations[0].comment.as_deref(), Some("move"));
        assert!(rec.notes.is_empty(), "{:?}", rec.notes);
    }

    #[test]
    fn written_annotations_are_escaped_and_read_back_the_same() {
        let game = go9_after(&["E5", "C7", "G7"]);
        let note = |nags: Vec<u8>, c: Option<&str>| Annotation {
            nags,
            comment: c.map(str::to_string),
        };
        let commentary = Commentary {
            comment: Some("a [bracketed] \\ game\non two lines".into()),
            annotations: vec![
                note(vec![1, 3, 14], Some("x]y\\")),
                note(vec![4, 6], None),
                note(vec![5], Some("é")),
            ],
        };
        let branches = vec![Branch {
            at: 1,
            moves: vec!["C3".into()],
            annotations: vec![note(vec![2], Some("other"))],
            comment: Some("instead:".into()),
            ..Branch::default()
        }];
        let tags = [
            ("PB".to_string(), "Black ]".to_string()),
            ("SZ".to_string(), "19".to_string()),
            ("Event".to_string(), "club".to_string()),
        ];
        let (text, notes) = write_tree(&game, &tags, &commentary, &branches);
        assert!(text.contains("PB[Black \\]]C[a [bracketed\\] \\\\ game\non two lines]"), "{text}");
        assert!(!text.contains("SZ[19]"), "the writer's own size wins: {text}");
        assert!(text.contains(";B[ee]TE[1]C[x\\]y\\\\]\n(;W[cc]BM[2]DO[]"), "{text}");
        assert!(text.contains("(;C[instead:]\n;W[cg]BM[1]C[other])"), "{text}");
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("`Event` is not an SGF property"), "{notes:?}");
        assert!(notes[1].contains("2 annotation glyph(s)"), "{notes:?}");
        let back = crate::notation::record::read(&text, crate::notation::record::Format::Sgf).expect("it reads what it wrote");
        let replayed = back.replay(game.engine()).expect("it replays");
        assert_eq!(replayed.commentary.comment, commentary.comment);
        let nags: Vec<Vec<u8>> = replayed.commentary.annotations.iter().map(|a| a.nags.clone()).collect();
        assert_eq!(nags, [vec![1], vec![4, 6], vec![5]], "$3 shares TE with $1, $14 has no property");
        assert_eq!(replayed.commentary.annotations[0].comment.as_deref(), Some("x]y\\"));
        assert_eq!(replayed.variations[0].comment.as_deref(), Some("instead:"));
        assert_eq!(replayed.variations[0].annotations, branches[0].annotations);
        assert_eq!(back.tag("PB"), Some("Black ]"));
    }

    #[test]
    fn reads_the_main_line_and_its_variations() {
        let g = parse(
            "(;FF[4]GM[1]SZ[9]KM[7.5]C[a comment \\] with an escaped bracket]\n;B[ee];W[cc]\n(;B[gg](;W[])(;W[aa]))\n(;B[dd];W[tt]))",
        )
        .expect("valid");
        assert_eq!(g.size, 9);
        assert_eq!(g.komi, Some(7.5));
        let points: Vec<_> = g.moves.iter().map(|m| (m.colour, m.point)).collect();
        assert_eq!(
            points,
            vec![
                (Colour::Black, Some((4, 4))),
                (Colour::White, Some((2, 2))),
                (Colour::Black, Some((6, 6))),
                (Colour::White, None),
            ]
        );
        assert_eq!((g.moves[2].line, g.moves[2].column), (3, 4));
        // `(;W[aa])` replaces the pass (move 3); `(;B[dd];W[tt])` replaces B[gg] (move 2). The
        // second's `tt` is a pass on a 9 × 9 board.
        let v = g.gtp_variations().expect("the variations alternate");
        let shape: Vec<_> = v.iter().map(|b| (b.at, b.moves.clone())).collect();
        assert_eq!(
            shape,
            vec![(3, vec!["A9".to_string()]), (2, vec!["D6".to_string(), "pass".to_string()])]
        );
        let nested = parse("(;SZ[9];B[ee](;W[cc](;B[gg])(;B[dd](;W[aa])(;W[bb])))(;W[gc]))").expect("valid");
        let v = nested.gtp_variations().expect("valid");
        assert_eq!((v.len(), v[0].at, v[1].at), (2, 2, 1));
        assert_eq!(
            (v[0].moves.clone(), v[0].branches[0].at),
            (vec!["D6".to_string(), "A9".to_string()], 1)
        );
        let deep = format!("(;SZ[9];B[ee]{}", "(;W[aa])(;W[bb]".repeat(MAX_DEPTH + 2));
        assert_eq!(parse(&deep).expect_err("too deep").kind, SgfErrorKind::TooDeep);
    }

    #[test]
    fn written_variations_are_game_trees_after_the_main_continuation() {
        let game = go9_after(&["E5", "C7", "G7"]);
        let branches = vec![
            Branch {
                at: 1,
                moves: vec!["pass".into(), "C3".into()],
                ..Branch::default()
            },
            Branch {
                at: 2,
                moves: vec!["C3".into()],
                ..Branch::default()
            },
            Branch {
                at: 3,
                moves: vec!["G3".into()],
                ..Branch::default()
            },
        ];
        let (text, notes) = write_tree(&game, &[], &Commentary::default(), &branches);
        assert!(notes.is_empty(), "{notes:?}");
        let moves = &text[text.find(";B[ee]").expect("the first move")..];
        assert_eq!(moves, ";B[ee]\n(;W[cc]\n(;B[gc]\n;W[gg])\n(;B[cg]))\n(;W[]\n;B[cg]))\n");
        let back = parse(&text).expect("it reads what it wrote");
        assert_eq!(back.gtp_variations().expect("valid").len(), 2);
    }

    #[test]
    fn tt_is_a_pass_only_on_small_boards() {
        let g = parse("(;SZ[19];B[tt];W[])").expect("valid");
        assert_eq!(g.moves.iter().map(|m| m.point).collect::<Vec<_>>(), vec![None, None]);
        let g = parse("(;SZ[21];B[tt])").expect("valid");
        assert_eq!(g.moves[0].point, Some((19, 19)));
        assert_eq!(g.size, 21);
    }

    #[test]
    fn compressed_setup_lists_and_the_player_to_move() {
        let g = parse("(;SZ[5]AB[aa:bb][ee]AW[ca:cb]PL[W])").expect("valid");
        assert_eq!(g.black_setup, vec![(0, 0), (1, 0), (0, 1), (1, 1), (4, 4)]);
        assert_eq!(g.white_setup, vec![(2, 0), (2, 1)]);
        assert_eq!(g.first_to_move(), Colour::White);
        let e = err("(;SZ[5]AB[aa:bb]AW[bb])");
        assert_eq!(e.kind, SgfErrorKind::SetupTwice("bb".into()));
        assert_eq!((e.line, e.column), (1, 19));
    }

    #[test]
    fn setup_may_come_before_the_size_in_a_node() {
        let g = parse("(;AB[hh]SZ[9])").expect("valid");
        assert_eq!(g.black_setup, vec![(7, 7)]);
        assert_eq!(
            err("(;AB[jj]SZ[9])").kind,
            SgfErrorKind::Point {
                value: "jj".into(),
                size: 9
            }
        );
    }

    #[test]
    fn old_lowercase_identifiers_count_by_their_capitals() {
        let g = parse("(;GaMe[1]SiZe[9];Black[ee])").expect("valid");
        assert_eq!((g.size, g.moves[0].point), (9, Some((4, 4))));
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases: &[(&str, (usize, usize), &str)] = &[
            ("", (1, 1), "expected `(` to open a game tree, found the end of the record"),
            ("(;SZ[9]\n;B[ee", (2, 3), "the record ends inside this property value"),
            ("(;SZ[9];B[ee]", (1, 14), "the record ends before the game tree is closed"),
            ("(;GM[2])", (1, 5), "GM[2] is not go"),
            ("(;SZ[9:13])", (1, 5), "only square boards"),
            ("(;SZ[x])", (1, 5), "expected a number of lines"),
            ("(;KM[six])", (1, 5), "KM[six] is not a number"),
            ("(;SZ[9]\n;B[zz])", (2, 3), "`zz` is not a point of a 9 × 9 board"),
            ("(;B[aa]W[bb])", (1, 8), "both a black and a white move"),
            ("(;B[aa];AB[bb])", (1, 9), "AB after the first move"),
            ("(;B)", (1, 3), "property B has no value"),
            ("(;SZ[9]\n  1[aa])", (2, 3), "expected `;`, `(` or `)`, found `1`"),
            ("(SZ[9])", (1, 2), "expected `;` to start a node"),
            ("(;SZ[9]();B[aa])", (1, 8), "a game tree must start with a node"),
            ("(;SZ[9](;B[aa]);W[bb])", (1, 16), "a node after a variation"),
            ("(;PL[X])", (1, 5), "PL[X]: expected B or W"),
            ("(;FF[5])", (1, 5), "FF[5]"),
        ];
        for (text, (line, column), words) in cases {
            let e = err(text);
            assert_eq!((e.line, e.column), (*line, *column), "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
    }

    #[test]
    fn moves_must_alternate_for_arbiter() {
        let g = parse("(;SZ[9];B[aa];B[bb])").expect("valid SGF");
        let e = g.gtp_moves().expect_err("out of turn");
        assert_eq!((e.line, e.column, e.kind), (1, 16, SgfErrorKind::OutOfTurn("B")));
        let g = parse("(;SZ[19];B[aa];W[];B[ss])").expect("valid SGF");
        assert_eq!(g.gtp_moves().expect("alternating"), vec!["A19", "pass", "T1"]);
    }

    #[test]
    fn garbage_never_panics() {
        let alphabet: Vec<char> = "();[]:\\\n ABWSZKMPLGFabcdeftz019.-é".chars().collect();
        let seeds = [
            "(;FF[4]GM[1]SZ[9]KM[6.5]AB[aa:cc]AW[dd];B[ee];W[](;B[ff])(;B[gg]))",
            "(;SZ[19]PL[W];W[tt];B[aa])",
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(0x5AF);
        let mut errors = 0;
        for i in 0..600 {
            let text: String = if i % 2 == 0 {
                let n = rng.gen_range(0..60);
                (0..n).map(|_| alphabet[rng.gen_range(0..alphabet.len())]).collect()
            } else {
                // A valid record with a few characters changed, dropped or inserted.
                let mut cs: Vec<char> = seeds[i % 4 / 2].chars().collect();
                for _ in 0..rng.gen_range(1..5) {
                    let at = rng.gen_range(0..cs.len());
                    match rng.gen_range(0..3) {
                        0 => cs[at] = alphabet[rng.gen_range(0..alphabet.len())],
                        1 => {
                            cs.remove(at);
                        }
                        _ => cs.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                    }
                    if cs.is_empty() {
                        break;
                    }
                }
                cs.into_iter().collect()
            };
            if let Err(e) = parse(&text) {
                errors += 1;
                let lines = text.split('\n').count();
                assert!(e.line >= 1 && e.line <= lines, "{text:?}: {e}");
                assert!(e.column >= 1, "{text:?}: {e}");
            }
        }
        assert!(errors > 300, "most garbage is rejected ({errors} of 600)");
    }
}
