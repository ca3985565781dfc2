//! Scenarios: scripted positions with expected rulings, read from RON files (`scenarios/<game>/`).
//! Beside the pipeline, not a stage of it: a scenario names a ruleset, a start, and an ordered
//! script of steps — play a move, a line, seeded random moves, take back — with expectations about
//! the position at any step and teaching annotations (caption, highlighted squares, arrows).
//!
//! This file is the data model ([`Scenario`] and its parts, deserialised with serde); [`run`] plays
//! one and returns a [`Report`]. Invariants: reading a scenario never panics — bad RON is a
//! [`ScenarioError`] with file:line:col, and a scenario that names an unknown square, side or ruleset
//! is an error naming the step; library code never prints. The format is documented for authors in
//! `scenarios/README.md`.

mod run;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use run::{
    Checked, Failure, Frame, INTERRUPTED, MAX_PERFT_DEPTH, MAX_RANDOM_PLIES, MAX_SCENARIO_RANDOM_PLIES, Report, Runner, Verdict, collect,
    find_move, pick_random, start_position,
};

/// One scenario file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What the scenario shows, in a line.
    pub title: String,
    /// A bundled ruleset name (`chess`) or a path to a `.rules` file relative to the scenario file.
    pub ruleset: String,
    /// Parameter overrides: `{"natural_limit": 2}`.
    #[serde(default)]
    pub params: BTreeMap<String, ParamValue>,
    /// The clause of the rule book this scenario checks: `"Chess, Movement [5.1]: castling ..."` (the rule book as `rulesets/RULES.md` titles it, then the article).
    #[serde(default)]
    pub rule: Option<String>,
    /// Play on a clock: a time control of the ruleset (`rapid-30`) or a PGN `TimeControl` value.
    /// Moves may then carry the seconds they took, `h3e3@100`.
    #[serde(default)]
    pub clock: Option<String>,
    /// Where play starts (default: the ruleset's setup).
    #[serde(default)]
    pub start: Start,
    /// The script, in order.
    #[serde(default)]
    pub steps: Vec<Step>,
}

/// A parameter value as written: a number or a word.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamValue(pub String);

impl<'de> Deserialize<'de> for ParamValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ParamValue, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = ParamValue;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, a word or a boolean")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<ParamValue, E> {
                Ok(ParamValue(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

/// Where a scenario starts.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Start {
    /// The ruleset's `setup` position.
    #[default]
    Setup,
    /// A FEN with the ruleset's letters.
    Fen(String),
    /// A board drawn as rows of text, top rank first: `.` for an empty square, FEN letters for
    /// pieces; spaces are ignored. `to_move` is a player's name (`white`, `red`) or FEN side letter.
    Board {
        rows: Vec<String>,
        to_move: String,
        /// FEN's castling field (default `-`).
        #[serde(default)]
        castling: Option<String>,
    },
    /// An SGF game record (a path relative to the scenario file): its setup stones, then its moves,
    /// played before the first step. Set the board size with `params` to match its `SZ`.
    Sgf(String),
}

/// One step of the script: an optional action, then expectations about the position it leaves,
/// and what a teacher would point at.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// A sentence shown with the position.
    #[serde(default)]
    pub caption: Option<String>,
    /// Squares to highlight.
    #[serde(default)]
    pub highlight: Vec<String>,
    /// Arrows from a square to a square.
    #[serde(default)]
    pub arrows: Vec<(String, String)>,
    /// What to do first (nothing: the expectations are about the position as it stands).
    #[serde(default, rename = "do")]
    pub action: Option<Action>,
    /// What must hold after the action.
    #[serde(default)]
    pub expect: Vec<Expect>,
}

/// What a step does to the game.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Action {
    /// Play one move: coordinates (`e2e4`, `e7e8q`) or the ruleset's notation (SAN `Nf3`, WXF `C2.5`).
    Play(String),
    /// Play a line of moves, in order.
    Line(Vec<String>),
    /// Play `plies` moves chosen at random (ChaCha8 seeded with `seed`, among the legal moves sorted
    /// by their coordinates), stopping early if the game ends.
    Random { plies: u32, seed: u64 },
    /// Take back this many moves.
    TakeBack(u32),
    /// Mark the chains containing these points dead, to be removed before counting (go). Replaces
    /// any earlier marking; `Dead([])` clears it. Every point must hold a piece.
    Dead(Vec<String>),
}

/// A game state as an outcome expectation names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
pub enum ExpectedStatus {
    Ongoing,
    Win,
    Draw,
    /// Ended without a result.
    NoResult,
}

/// Something that must hold at a step. Moves are written like [`Action::Play`]; a move expected to
/// be illegal is written in coordinates (no other notation can name a move that is not legal).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Expect {
    /// This move is legal now.
    Legal(String),
    /// This move is illegal, for this reason code; optionally citing this clause (`FIDE 3.8.2.2`),
    /// with a sentence that mentions each of `mentions` (squares, piece names).
    Illegal {
        #[serde(rename = "move")]
        mv: String,
        reason: String,
        #[serde(default)]
        clause: Option<String>,
        #[serde(default)]
        mentions: Vec<String>,
    },
    /// The side to move is (true) or is not (false) in check.
    InCheck(bool),
    /// The side to move, by name (`white`, `red`).
    ToMove(String),
    /// Exactly these legal moves (in any order and notation).
    Moves(Vec<String>),
    /// Exactly this many legal moves.
    MoveCount(usize),
    /// The piece on `from` may go to exactly these squares.
    MovesFrom { from: String, to: Vec<String> },
    /// Perft: leaf nodes at `depth` plies.
    Perft { depth: u32, nodes: u64 },
    /// How the game stands; fields left out are not checked. `winner` is a player's name.
    Outcome {
        status: ExpectedStatus,
        #[serde(default)]
        winner: Option<String>,
        #[serde(default)]
        reason: Option<String>,
        #[serde(default)]
        clause: Option<String>,
        #[serde(default)]
        mentions: Vec<String>,
    },
    /// The result as a game record writes it: `1-0`, `0-1`, `1/2-1/2`; for a game ended by counting
    /// the winner's side letter and margin (`B+3.5`, `W+0.5`) or `0` for a tie; `*` while the game goes on.
    Result(String),
    /// The area count before komi: the first player's (black's) points and the second player's
    /// (white's). Read from the outcome once the game has ended by counting; while it goes on, the
    /// board is counted as it stands (dead chains removed). Only for rulesets that count by area.
    Score { black: f64, white: f64 },
    /// Exactly these draws (reason codes) may be claimed by the side to move.
    Claimable(Vec<String>),
    /// The seconds left on each clock, first player then second (in byo-yomi, the period's).
    Clocks { first: f64, second: f64 },
    /// The position's FEN.
    Fen(String),
    /// Whether the player named `side` can still win by some series of legal moves: `can: true`
    /// needs a winning line found (and replayed to the win), `can: false` a proof that none
    /// exists. An answer the search leaves undecided meets neither.
    Winnable { side: String, can: bool },
    /// The value of a declared count (`count checks = 3, ...`) for the player named `of`.
    Count { name: String, of: String, value: i64 },
    /// The phase the game is in, by name (`placing`); only for rulesets with phases.
    Phase(String),
}

impl fmt::Display for Expect {
    /// The expectation as a failure report states it: `` `e1g1` is illegal (castling-through-check) ``.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Expect::Legal(m) => write!(f, "`{m}` is legal"),
            Expect::Illegal {
                mv,
                reason,
                clause,
                mentions,
            } => {
                write!(f, "`{mv}` is illegal ({reason}")?;
                if let Some(c) = clause {
                    write!(f, ", {c}")?;
                }
                write!(f, ")")?;
                if !mentions.is_empty() {
                    write!(f, " mentioning {}", mentions.join(", "))?;
                }
                Ok(())
            }
            Expect::InCheck(true) => write!(f, "the side to move is in check"),
            Expect::InCheck(false) => write!(f, "the side to move is not in check"),
            Expect::ToMove(s) => write!(f, "{s} to move"),
            Expect::Moves(ms) => write!(f, "the legal moves are exactly [{}]", ms.join(", ")),
            Expect::MoveCount(n) => write!(f, "{n} legal moves"),
            Expect::MovesFrom { from, to } => write!(f, "the piece on {from} may go to exactly [{}]", to.join(", ")),
            Expect::Perft { depth, nodes } => write!(f, "perft({depth}) = {nodes}"),
            Expect::Outcome {
                status,
                winner,
                reason,
                clause,
                mentions,
            } => {
                write!(f, "outcome {}", status_text(*status))?;
                let extra: Vec<String> = [
                    winner.as_ref().map(|w| format!("winner {w}")),
                    reason.as_ref().map(|r| format!("reason {r}")),
                    clause.as_ref().map(|c| format!("clause {c}")),
                    (!mentions.is_empty()).then(|| format!("mentioning {}", mentions.join(", "))),
                ]
                .into_iter()
                .flatten()
                .collect();
                if !extra.is_empty() {
                    write!(f, " ({})", extra.join(", "))?;
                }
                Ok(())
            }
            Expect::Result(r) => write!(f, "result {r}"),
            Expect::Score { black, white } => write!(f, "score black {black}, white {white} (before komi)"),
            Expect::Clocks { first, second } => write!(f, "clocks at {first} s and {second} s"),
            Expect::Claimable(v) if v.is_empty() => write!(f, "no claimable draw"),
            Expect::Claimable(v) => write!(f, "claimable draws exactly [{}]", v.join(", ")),
            Expect::Fen(s) => write!(f, "FEN {s}"),
            Expect::Winnable { side, can: true } => write!(f, "{side} can still win"),
            Expect::Winnable { side, can: false } => write!(f, "{side} cannot win by any series of legal moves"),
            Expect::Count { name, of, value } => write!(f, "{of}'s {name} is {value}"),
            Expect::Phase(p) => write!(f, "phase {p}"),
        }
    }
}

fn status_text(s: ExpectedStatus) -> &'static str {
    match s {
        ExpectedStatus::Ongoing => "ongoing",
        ExpectedStatus::Win => "win",
        ExpectedStatus::Draw => "draw",
        ExpectedStatus::NoResult => "no-result",
    }
}

/// A scenario that cannot be read or set up: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScenarioError {
    pub path: PathBuf,
    /// Line and column (1-based) in the file, when the RON reader knows them.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl ScenarioError {
    fn new(path: &Path, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: path.to_path_buf(),
            line: None,
            column: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, ":{l}:{c}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// Reads a scenario from RON text. `path` names the file in errors.
///
/// RON's `implicit_some` extension is on, so optional fields are written bare (`caption: "…"`).
///
/// # Errors
/// A [`ScenarioError`] with the line and column where the RON reader stopped and what it expected.
///
/// # Examples
/// ```
/// use arbiter::scenario::{parse, Start};
/// let s = parse(r#"(title: "Opening", ruleset: "chess", steps: [(expect: [MoveCount(20)])])"#, "x.ron".as_ref()).unwrap();
/// assert_eq!(s.start, Start::Setup);
/// let bad = parse("(title: \"x\",\n ruleset: chess)", "x.ron".as_ref()).unwrap_err();
/// assert_eq!((bad.line, bad.column), (Some(2), Some(11)));
/// ```
pub fn parse(text: &str, path: &Path) -> Result<Scenario, ScenarioError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| ScenarioError {
        path: path.to_path_buf(),
        line: Some(e.position.line),
        column: Some(e.position.col),
        message: e.code.to_string(),
    })
}

/// Reads and parses a scenario file.
///
/// # Errors
/// The file cannot be read, or [`parse`] fails.
pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
    let text =
        crate::input::read_text(path, crate::input::SCENARIO_LIMIT).map_err(|e| ScenarioError::new(path, format!("cannot read: {e}")))?;
    parse(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Scenario, ScenarioError> {
        parse(text, Path::new("t.ron"))
    }

    #[test]
    fn optional_fields_are_written_bare_and_default_when_left_out() {
        let s = read(
            r#"(
                title: "t",
                ruleset: "chess",
                params: {"natural_limit": 2, "mode": "fast"},
                steps: [
                    (caption: "c", do: Play("e4"), expect: [Illegal(move: "e1g1", reason: "x", clause: "FIDE 1")]),
                    (),
                ],
            )"#,
        )
        .expect("valid");
        assert_eq!(s.rule, None);
        assert_eq!(s.start, Start::Setup);
        assert_eq!(s.params["natural_limit"], ParamValue("2".into()));
        assert_eq!(s.params["mode"], ParamValue("fast".into()));
        assert_eq!(s.steps[0].caption.as_deref(), Some("c"));
        assert_eq!(s.steps[0].action, Some(Action::Play("e4".into())));
        assert_eq!(
            s.steps[0].expect[0],
            Expect::Illegal {
                mv: "e1g1".into(),
                reason: "x".into(),
                clause: Some("FIDE 1".into()),
                mentions: Vec::new(),
            }
        );
        assert_eq!(s.steps[1], Step::default());
    }

    #[test]
    fn every_start_and_action_reads() {
        let s = read(
            r#"(title: "t", ruleset: "xiangqi", start: Board(rows: ["k", "K"], to_move: "red", castling: "-"),
                steps: [(do: Line(["a", "b"])), (do: Random(plies: 3, seed: 9)), (do: TakeBack(2))])"#,
        )
        .expect("valid");
        assert!(matches!(s.start, Start::Board { ref rows, .. } if rows.len() == 2));
        let actions: Vec<Action> = s.steps.into_iter().filter_map(|s| s.action).collect();
        assert_eq!(
            actions,
            [
                Action::Line(vec!["a".into(), "b".into()]),
                Action::Random { plies: 3, seed: 9 },
                Action::TakeBack(2)
            ]
        );
        let fen = read(r#"(title: "t", ruleset: "chess", start: Fen("8/8/8/8/8/8/8/8 w - - 0 1"))"#).expect("valid");
        assert!(matches!(fen.start, Start::Fen(_)));
    }

    #[test]
    fn a_misspelt_field_or_variant_names_its_line_and_column() {
        let e = read("(\n  title: \"t\",\n  ruleset: \"chess\",\n  steps: [(captoin: \"x\")],\n)").expect_err("unknown field");
        assert_eq!(e.line, Some(4));
        assert!(e.message.contains("captoin") && e.message.contains("caption"), "{}", e.message);
        let e = read("(title: \"t\", ruleset: \"chess\",\n steps: [(expect: [Checkmate])])").expect_err("unknown variant");
        assert_eq!(e.line, Some(2));
        assert!(e.to_string().starts_with("t.ron:2:"), "{e}");
        let e = read("(title: \"t\", ruleset: \"chess\", steps: [(expect: [Outcome(status: Win, winer: \"white\")])])")
            .expect_err("a misspelt field inside an expectation");
        assert!(e.message.contains("winer"), "{}", e.message);
        let e = read("(title: \"t\", ruleset: \"chess\", steps: [(do: Random(plies: 3, sed: 1))])").expect_err("misspelt");
        assert!(e.message.contains("sed"), "{}", e.message);
        let e = read("(title: \"t\")").expect_err("missing ruleset");
        assert!(e.message.contains("ruleset"), "{}", e.message);
    }

    #[test]
    fn expectations_read_as_sentences() {
        let e = Expect::Illegal {
            mv: "e1g1".into(),
            reason: "castling-through-check".into(),
            clause: Some("FIDE 3.8.2.2".into()),
            mentions: vec!["f1".into()],
        };
        assert_eq!(
            e.to_string(),
            "`e1g1` is illegal (castling-through-check, FIDE 3.8.2.2) mentioning f1"
        );
        let o = Expect::Outcome {
            status: ExpectedStatus::Win,
            winner: Some("black".into()),
            reason: None,
            clause: None,
            mentions: Vec::new(),
        };
        assert_eq!(o.to_string(), "outcome win (winner black)");
        assert_eq!(Expect::Claimable(Vec::new()).to_string(), "no claimable draw");
        let s = Expect::Score { black: 13.0, white: 12.5 };
        assert_eq!(s.to_string(), "score black 13, white 12.5 (before komi)");
    }

    #[test]
    fn a_count_and_dead_stones_read() {
        let s = read(
            r#"(title: "t", ruleset: "go", steps: [(do: Dead(["D4", "E5"]), expect: [Score(black: 13, white: 12.5), Result("B+0.5")])])"#,
        )
        .expect("valid");
        assert_eq!(s.steps[0].action, Some(Action::Dead(vec!["D4".into(), "E5".into()])));
        assert_eq!(s.steps[0].expect[0], Expect::Score { black: 13.0, white: 12.5 });
    }
}
