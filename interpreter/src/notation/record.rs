//! Game records of every format the interpreter reads — PGN (with SAN or WXF movetext), WXF files,
//! SGF — as one value: where the game starts, the moves as written, and the tags. [`read`] parses a
//! text; [`GameRecord::replay`] plays the moves through a [`Game`] and stops at the first one that
//! is not a legal move, with the interpreter's ruling on it.
//!
//! Moves stay text until they are replayed, so one record can be tried against several rulesets (a
//! viewer choosing the ruleset a record was written for). Invariant: nothing here panics on any
//! text; a malformed record is a [`RecordError`] naming the line and column where the reader could
//! not go on.

use std::fmt;
use std::path::Path;

use crate::clock::{Stamp, TimeControl};
use crate::game::{Engine, Game, Position, Ruling, Status};
use crate::notation::annotation::Commentary;
use crate::notation::variation::{self, Branch};
use crate::notation::{find, pgn, sgf};

/// The formats of game records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// PGN: tag pairs and movetext in the ruleset's notation (SAN, WXF or coordinates).
    Pgn,
    /// A WXF file: `KEY value` header lines, then the movetext between `START{` and `}END`. A text
    /// without `START{` is read as PGN (xiangqi games are often kept as PGN with WXF movetext).
    Wxf,
    /// SGF (FF[4]): a go record's main line.
    Sgf,
}

impl Format {
    /// The format a file name's extension names (`.pgn`, `.wxf`, `.sgf`, in any case).
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pgn" => Some(Format::Pgn),
            "wxf" => Some(Format::Wxf),
            "sgf" => Some(Format::Sgf),
            _ => None,
        }
    }
}

/// Where a record's game starts.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordStart {
    /// The ruleset's setup position.
    Setup,
    /// A FEN (PGN's `FEN` tag, a WXF file's `FEN` line).
    Fen(String),
    /// An SGF record's board: its size, setup stones and player to move.
    Sgf(Box<sgf::SgfGame>),
}

/// A game record, read but not yet replayed.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub format: Format,
    /// Tag pairs (PGN), header lines (WXF), or an SGF record's board size (`SZ`), komi (`KM`) and
    /// game information (`PB`, `PW`, `DT`, `RE`, … in SGF's own identifiers), in file order.
    pub tags: Vec<(String, String)>,
    pub start: RecordStart,
    /// The main line's moves as the record writes them (`Nf3`, `C2.5`, `D4`, `pass`).
    pub moves: Vec<String>,
    /// The result the record states (`1-0`, `B+2.5`), if any.
    pub result: Option<String>,
    /// The variations, as written, hanging off the main line's moves they replace.
    pub variations: Vec<Branch>,
    /// The time control the record states (PGN `TimeControl`, SGF `TM` and `OT`).
    pub control: Option<TimeControl>,
    /// Each main-line move's time (PGN `[%clk]`/`[%emt]`, SGF `BL`/`WL`), if given; as long as `moves`.
    pub stamps: Vec<Option<Stamp>>,
    /// The game comment and the main line's annotations (comments, glyphs).
    pub commentary: Commentary,
    /// What the reader skipped, in words (a `TimeControl` it cannot read, an `OT` it does not know).
    pub notes: Vec<String>,
}

/// Why a record could not be read or set up, and where when the reader knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line and column.
    pub at: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "line {line}, column {column}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for RecordError {}

/// The first move of a line that could not be played: which, and the interpreter's ruling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop {
    /// 0-based index into the line.
    pub index: usize,
    /// The move as written.
    pub text: String,
    /// The ruling's reason code (`castling-in-check`; `game-over` once the game has ended).
    pub code: String,
    pub message: String,
    pub clause: Option<String>,
}

impl fmt::Display for Stop {
    /// `move 3 (`Nf3`) is illegal (no-such-move): …`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "move {} (`{}`) is illegal ({}", self.index + 1, self.text, self.code)?;
        if let Some(c) = &self.clause {
            write!(f, ", {c}")?;
        }
        write!(f, "): {}", self.message)
    }
}

/// A record played through a [`Game`].
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game up to the last move that could be played.
    pub game: Game,
    /// The first move that could not be played, if one could not.
    pub stopped: Option<Stop>,
    /// The record's variations that could be played, in coordinates ([`crate::notation::uci`]),
    /// with their annotations.
    pub variations: Vec<Branch>,
    /// The record's game comment and the annotations of the main-line moves played (those of
    /// moves after [`Replayed::stopped`] are not kept).
    pub commentary: Commentary,
    /// What was skipped of the variations: moves that are not legal where they stand.
    pub skipped: Vec<String>,
}

/// Reads a record in `format`.
///
/// # Errors
/// A [`RecordError`] at the place where the text stops being a record of that format.
///
/// # Examples
/// ```
/// use arbiter::notation::record::{Format, RecordStart, read};
/// let rec = read("[Event \"?\"]\n1. e4 e5 2. Nf3 *", Format::Pgn).unwrap();
/// assert_eq!((rec.moves.len(), rec.start), (3, RecordStart::Setup));
/// let wxf = read("FORMAT WXF\nGAME Chinese Chess\nSTART{\n1. C2.5 H8+7\n}END\n", Format::Wxf).unwrap();
/// assert_eq!(wxf.moves, ["C2.5", "H8+7"]);
/// assert_eq!(wxf.tag("GAME"), Some("Chinese Chess"));
/// let bad = read("(;SZ[9];B[zz])", Format::Sgf).unwrap_err();
/// assert_eq!(bad.at, Some((1, 10)));
/// ```
pub fn read(text: &str, format: Format) -> Result<GameRecord, RecordError> {
    match format {
        Format::Pgn => read_pgn(text, 0, Vec::new(), format),
        Format::Wxf => read_wxf(text),
        Format::Sgf => {
            let at = |e: sgf::SgfError| RecordError {
                at: Some((e.line, e.column)),
                message: e.kind.to_string(),
            };
            let game = sgf::parse(text).map_err(at)?;
            let moves = game.gtp_moves().map_err(at)?;
            let variations = game.gtp_variations().map_err(at)?;
            let mut tags = vec![("SZ".to_string(), game.size.to_string())];
            if let Some(k) = game.komi {
                tags.push(("KM".to_string(), k.to_string()));
            }
            tags.extend(game.info.iter().cloned());
            let commentary = game.commentary();
            let mut notes: Vec<String> = game
                .overtime_unread
                .iter()
                .map(|ot| format!("OT[{ot}]: only byo-yomi (`5x30 byo-yomi`) is read; the clock has main time only"))
                .collect();
            if !game.skipped.is_empty() {
                let said: Vec<String> = game
                    .skipped
                    .iter()
                    .map(|(id, n)| if *n == 1 { id.clone() } else { format!("{id} ×{n}") })
                    .collect();
                notes.push(format!(
                    "skipped the properties {}: Arbiter keeps the board, stones, moves, variations, komi, handicap, clocks, game information, comments and assessments",
                    said.join(", ")
                ));
            }
            Ok(GameRecord {
                format,
                tags,
                control: game.control.clone(),
                stamps: game.stamps.clone(),
                start: RecordStart::Sgf(Box::new(game)),
                moves,
                result: None,
                variations,
                commentary,
                notes,
            })
        }
    }
}

/// PGN text whose first line is line `1 + line_offset` of the file; `tags` come before its own.
fn read_pgn(text: &str, line_offset: usize, mut tags: Vec<(String, String)>, format: Format) -> Result<GameRecord, RecordError> {
    let rec = pgn::parse(text).map_err(|e| RecordError {
        at: Some((e.line + line_offset, e.column)),
        message: e.problem.to_string(),
    })?;
    let fen = rec
        .fen
        .or_else(|| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")).map(|(_, v)| v.clone()));
    let result = rec
        .result
        .or_else(|| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("RESULT")).map(|(_, v)| v.clone()));
    tags.extend(rec.tags);
    let mut notes = rec.notes;
    let control = match tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("TimeControl")) {
        None => None,
        Some((_, v)) => match crate::clock::parse_pgn_time_control(v) {
            Ok(c) => c,
            Err(e) => {
                notes.push(format!("{e}: the game is read without a clock"));
                None
            }
        },
    };
    Ok(GameRecord {
        format,
        tags,
        start: fen.map_or(RecordStart::Setup, RecordStart::Fen),
        moves: rec.moves,
        result,
        variations: rec.variations,
        control,
        stamps: rec.stamps,
        commentary: rec.commentary,
        notes,
    })
}

/// A WXF file: `KEY value` lines, `START{`, movetext (read like PGN movetext), `}END`.
fn read_wxf(text: &str) -> Result<GameRecord, RecordError> {
    let lines: Vec<&str> = text.lines().collect();
    let is_start = |l: &str| l.trim_start().to_ascii_uppercase().starts_with("START{");
    let Some(open) = lines.iter().position(|l| is_start(l)) else {
        return read_pgn(text, 0, Vec::new(), Format::Wxf);
    };
    let mut tags = Vec::new();
    for l in &lines[..open] {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        let (key, value) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        tags.push((key.to_string(), value.trim().to_string()));
    }
    let close = lines[open + 1..]
        .iter()
        .position(|l| l.trim_start().to_ascii_uppercase().starts_with("}END"))
        .map(|i| i + open + 1)
        .ok_or_else(|| RecordError {
            at: Some((open + 1, 1)),
            message: "this `START{` is never closed with `}END`".to_string(),
        })?;
    let movetext = lines[open + 1..close].join("\n");
    read_pgn(&movetext, open + 1, tags, Format::Wxf)
}

impl GameRecord {
    /// The value of the first tag with this name (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The ruleset parameters the record sets: an SGF record's board size as `size`, its komi as
    /// `komi` and its handicap (`HA`, 2 or more) as `handicap`. A caller passes on those the ruleset declares.
    pub fn params(&self) -> Vec<(String, String)> {
        match &self.start {
            RecordStart::Sgf(g) => {
                let mut v = vec![("size".to_string(), g.size.to_string())];
                if let Some(k) = g.komi {
                    v.push(("komi".to_string(), k.to_string()));
                }
                if let Some(n) = g.handicap {
                    v.push(("handicap".to_string(), n.to_string()));
                }
                v
            }
            RecordStart::Setup | RecordStart::Fen(_) => Vec::new(),
        }
    }

    /// The position the game starts from, under `engine`'s rules.
    ///
    /// # Errors
    /// The start does not fit the rules: a FEN the engine rejects, an SGF board of another size.
    pub fn start_position(&self, engine: &Engine) -> Result<Position, RecordError> {
        match &self.start {
            RecordStart::Setup => Ok(engine.start()),
            RecordStart::Fen(fen) => engine.from_fen(fen).map_err(|e| RecordError {
                at: None,
                message: format!("the start position \"{fen}\": {e}"),
            }),
            RecordStart::Sgf(g) => {
                let setup = g.setup(engine.rules()).map_err(|e| RecordError {
                    at: Some((e.line, e.column)),
                    message: e.kind.to_string(),
                })?;
                engine.position(&setup).map_err(|e| RecordError {
                    at: None,
                    message: format!("the start position (the record's AB, AW and PL): {e}"),
                })
            }
        }
    }

    /// Plays the record from its start under `engine`'s rules, up to its end or the first move that
    /// is not legal.
    ///
    /// # Errors
    /// The start position does not fit the rules ([`GameRecord::start_position`]).
    pub fn replay(&self, engine: &Engine) -> Result<Replayed, RecordError> {
        let mut game = Game::new(engine.clone(), self.start_position(engine)?);
        let stopped = play_line(&mut game, &self.moves).err();
        let (variations, skipped) = variation::replay(&game, &self.variations);
        let mut commentary = self.commentary.clone();
        commentary.annotations.truncate(game.moves().len());
        Ok(Replayed {
            game,
            stopped,
            variations,
            commentary,
            skipped,
        })
    }
}

/// Plays moves written in coordinates or the ruleset's notation ([`find`]) while the game goes on.
///
/// # Errors
/// The first move that is not legal (or comes after the game has ended), with the ruling on it; the
/// moves before it stay played.
pub fn play_line<S: AsRef<str>>(game: &mut Game, moves: &[S]) -> Result<(), Stop> {
    for (index, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let outcome = game.outcome();
        let stop = |code: &str, message: String, clause: Option<String>| Stop {
            index,
            text: text.to_string(),
            code: code.to_string(),
            message,
            clause,
        };
        if outcome.status != Status::Ongoing {
            let message = format!("the game is already over: {}", outcome.message(game.current()));
            return Err(stop("game-over", message, outcome.clause.clone()));
        }
        match find(game.current(), text) {
            Some(m) => game.play(m),
            None => {
                return Err(match game.current().explain(text) {
                    Ruling::Illegal(i) => stop(i.code, i.message, i.clause),
                    Ruling::Legal { message, .. } => stop("unreadable", format!("no legal move is written `{text}` ({message})"), None),
                });
            }
        }
    }
    Ok(())
}

/// Writes a game as a WXF file: `FORMAT WXF`, the header lines (`GAME`, `RED`, `BLACK`, `DATE`,
/// `RESULT`, `FEN` when the game does not start from the setup, then the other `tags`), and the
/// movetext of [`pgn::write_timed`] (WXF moves for a ruleset whose notation is WXF) between
/// `START{` and `}END`, with the comments and glyphs of `commentary` and `branches`. Also returns
/// the writer's notes on variations cut short and comments it could not write whole.
pub fn write_wxf(
    game: &Game,
    tags: &[(String, String)],
    commentary: &Commentary,
    branches: &[Branch],
    timing: Option<&crate::clock::Timing>,
) -> (String, Vec<String>) {
    let (pgn_text, notes) = pgn::write_timed(game, tags, commentary, branches, timing);
    let (head, movetext) = pgn_text.split_once("\n\n").unwrap_or(("", pgn_text.as_str()));
    let pgn_tag = |name: &str| {
        head.lines().find_map(|l| {
            let rest = l.strip_prefix('[')?.strip_suffix(']')?;
            let (n, v) = rest.split_once(' ')?;
            (n == name).then(|| v.trim_matches('"').replace("\\\"", "\"").replace("\\\\", "\\"))
        })
    };
    let mut out = String::from("FORMAT WXF\n");
    let given = |name: &str| tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.clone());
    let line = |out: &mut String, key: &str, value: Option<String>| {
        if let Some(v) = value.filter(|v| !v.is_empty() && v != "?") {
            out.push_str(&format!("{key} {}\n", v.replace('\n', " ")));
        }
    };
    line(&mut out, "GAME", given("GAME").or_else(|| given("Event")));
    line(&mut out, "RED", given("RED").or_else(|| given("White")));
    line(&mut out, "BLACK", given("BLACK").or_else(|| given("Black")));
    line(
        &mut out,
        "DATE",
        given("DATE").or_else(|| given("Date")).filter(|d| d != "????.??.??"),
    );
    line(&mut out, "RESULT", pgn_tag("Result"));
    line(&mut out, "FEN", pgn_tag("FEN"));
    line(&mut out, "TIMECONTROL", pgn_tag("TimeControl"));
    let known = [
        "GAME",
        "Event",
        "RED",
        "White",
        "BLACK",
        "Black",
        "DATE",
        "Date",
        "RESULT",
        "Result",
        "FEN",
        "SetUp",
        "FORMAT",
        "TimeControl",
        "TIMECONTROL",
    ];
    for (name, value) in tags {
        if !known.iter().any(|k| k.eq_ignore_ascii_case(name)) && !name.contains(char::is_whitespace) {
            line(&mut out, &name.to_ascii_uppercase(), Some(value.clone()));
        }
    }
    out.push_str("START{\n");
    out.push_str(movetext.trim_end());
    out.push_str("\n}END\n");
    (out, notes)
}
