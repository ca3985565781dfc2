//! Comparing two rulesets of one board — a variant and its base, or two versions of a file — to say
//! what exactly changed: perft per depth and the first moves whose subtrees differ
//! ([`compare_perft`]), a shortest line after which the legal moves or the game's standing differ,
//! with the clause responsible on each side ([`first_line`]), and the scenarios whose verdicts change
//! when one ruleset stands in for the other ([`compare_scenarios`]), and two simulations' statistics
//! with the significance of each difference ([`compare_simulations`]).
//!
//! Beside the pipeline, like `scenario`: it runs two compiled rulesets side by side through the
//! `game` API and never looks inside either. Invariants: moves are matched by their coordinate text
//! (`notation::uci`), so two rulesets are comparable only on the same board ([`same_board`]); every
//! search is bounded (depth, positions) and says how far it got; nothing here prints or panics.

use std::collections::{HashMap, HashSet};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::game::{Game, Illegal, Move, MoveKind, Position, Ruling, Status};
use crate::model::{Board, Rules, Side};
use crate::notation::uci;
use crate::scenario::{Report, Runner, Verdict};
use crate::sim::Tally;

/// One thing for each ruleset: A's and B's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pair<T> {
    pub a: T,
    pub b: T,
}

/// Why two rulesets cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// Moves are matched by the names of their squares, so the boards must be the same.
    #[error("the boards differ: A has {a}, B has {b}; compare needs rulesets of the same board")]
    Boards { a: String, b: String },
}

/// The board in words: `8 × 8 squares (files a..h, ranks 1..8)`.
fn board_words(b: &Board) -> String {
    let cells = if b.hexes {
        "hexagons"
    } else if b.points {
        "points"
    } else {
        "squares"
    };
    let span = |names: &[String]| match (names.first(), names.last()) {
        (Some(f), Some(l)) => format!("{f}..{l}"),
        _ => "none".to_string(),
    };
    format!(
        "{} × {} {cells} (files {}, ranks {})",
        b.width,
        b.height,
        span(&b.file_names),
        span(&b.rank_names)
    )
}

/// Checks that two rulesets play on the same board: the same size, cells (squares, points or
/// hexagons) and coordinate names, so that a move's text names the same squares in both.
///
/// # Errors
/// [`CompareError::Boards`] describing each board.
pub fn same_board(a: &Rules, b: &Rules) -> Result<(), CompareError> {
    let (x, y) = (&a.board, &b.board);
    let same = x.width == y.width
        && x.height == y.height
        && x.points == y.points
        && x.hexes == y.hexes
        && x.file_names == y.file_names
        && x.rank_names == y.rank_names;
    if same {
        Ok(())
    } else {
        Err(CompareError::Boards {
            a: board_words(x),
            b: board_words(y),
        })
    }
}

// ---------------------------------------------------------------- perft

/// How deep [`compare_perft`] counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftDepth {
    /// Every depth from 1 to this one.
    Exactly(u32),
    /// Every depth from 1 up to `depth`, but no deeper once the next depth would count more than
    /// about `nodes` leaves in either ruleset (estimated from the growth of the last two).
    UpTo { depth: u32, nodes: u64 },
}

/// Perft at one depth in each ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PerftRow {
    pub depth: u32,
    pub a: u64,
    pub b: u64,
}

/// A first move and the leaves below it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RootCount {
    #[serde(rename = "move")]
    pub mv: String,
    pub nodes: u64,
}

/// A first move legal in both rulesets whose subtrees count differently.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RootDifference {
    #[serde(rename = "move")]
    pub mv: String,
    pub a: u64,
    pub b: u64,
}

/// The first moves whose subtrees differ at one depth (perft divide on both sides, matched by
/// coordinate text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RootMoves {
    pub depth: u32,
    /// Legal in A only.
    pub only_a: Vec<RootCount>,
    /// Legal in B only.
    pub only_b: Vec<RootCount>,
    /// Legal in both, with different counts below.
    pub differ: Vec<RootDifference>,
}

/// The perft of two rulesets side by side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PerftComparison {
    pub rows: Vec<PerftRow>,
    /// The first depth whose counts differ.
    pub first_difference: Option<u32>,
    /// At that depth, the first moves whose subtrees differ.
    pub root_moves: Option<RootMoves>,
    /// Under [`PerftDepth::UpTo`], the depth not counted because it would be too large, with its
    /// estimated count.
    pub skipped: Option<(u32, u64)>,
}

/// Perft divide with each first move written in coordinates.
fn divide(pos: &Position, depth: u32, stop_at_end: bool) -> Vec<(String, u64)> {
    pos.perft_divide_with(depth, stop_at_end)
        .into_iter()
        .map(|(m, n)| (uci::to_text(pos, m), n))
        .collect()
}

/// The first moves whose counts differ between two divides, in A's order then B's.
fn root_moves(depth: u32, a: &[(String, u64)], b: &[(String, u64)]) -> RootMoves {
    let in_b: HashMap<&str, u64> = b.iter().map(|(m, n)| (m.as_str(), *n)).collect();
    let in_a: HashSet<&str> = a.iter().map(|(m, _)| m.as_str()).collect();
    let mut out = RootMoves {
        depth,
        ..RootMoves::default()
    };
    for (m, n) in a {
        match in_b.get(m.as_str()) {
            None => out.only_a.push(RootCount { mv: m.clone(), nodes: *n }),
            Some(nb) if nb != n => out.differ.push(RootDifference {
                mv: m.clone(),
                a: *n,
                b: *nb,
            }),
            Some(_) => {}
        }
    }
    for (m, n) in b {
        if !in_a.contains(m.as_str()) {
            out.only_b.push(RootCount { mv: m.clone(), nodes: *n });
        }
    }
    out
}

/// Perft from `a` (a position of ruleset A) and `b` (of B) at every depth from 1, and at the first
/// depth whose counts differ, the first moves whose subtrees differ. `stop_at_end` as in
/// [`Position::perft_stop_at_end`]: without it no end rule is applied.
///
/// # Examples
/// ```
/// # let chess = arbiter::game::Engine::new(arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]).rules.expect("valid"));
/// use arbiter::compare::{PerftDepth, compare_perft};
/// let same = compare_perft(&chess.start(), &chess.start(), PerftDepth::Exactly(3), false);
/// assert_eq!(same.rows.last().map(|r| (r.a, r.b)), Some((8902, 8902)));
/// assert_eq!(same.first_difference, None);
/// ```
pub fn compare_perft(a: &Position, b: &Position, depth: PerftDepth, stop_at_end: bool) -> PerftComparison {
    let (most, budget) = match depth {
        PerftDepth::Exactly(d) => (d, None),
        PerftDepth::UpTo { depth, nodes } => (depth, Some(nodes)),
    };
    let mut out = PerftComparison {
        rows: Vec::new(),
        first_difference: None,
        root_moves: None,
        skipped: None,
    };
    let mut last = 1u64;
    for d in 1..=most {
        let (da, db) = (divide(a, d, stop_at_end), divide(b, d, stop_at_end));
        let row = PerftRow {
            depth: d,
            a: da.iter().map(|x| x.1).sum(),
            b: db.iter().map(|x| x.1).sum(),
        };
        out.rows.push(row);
        if row.a != row.b && out.first_difference.is_none() {
            out.first_difference = Some(d);
            out.root_moves = Some(root_moves(d, &da, &db));
        }
        let now = row.a.max(row.b);
        if let Some(budget) = budget
            && d < most
        {
            // The next depth grows about as much as this one did.
            let next = (now as u128 * now as u128 / last.max(1) as u128).min(u64::MAX as u128) as u64;
            if next > budget {
                out.skipped = Some((d + 1, next));
                break;
            }
        }
        if now == 0 {
            break;
        }
        last = now;
    }
    out
}

// ---------------------------------------------------------------- the first line that differs

/// How far [`first_line`] searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bounds {
    /// The longest line tried.
    pub plies: u32,
    /// The most distinct positions (pairs of positions, A's and B's) examined.
    pub positions: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            plies: 20,
            positions: 200_000,
        }
    }
}

/// How a game stands, as a comparison shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// `ongoing`, `win`, `draw`, `no-result`.
    pub status: &'static str,
    /// The winner's name.
    pub winner: Option<String>,
    /// The end rule's reason code.
    pub reason: Option<String>,
    /// The clause it cites.
    pub clause: Option<String>,
    /// The standing as a sentence.
    pub message: String,
    /// The draws the side to move could claim.
    pub claimable: Vec<String>,
}

impl Standing {
    /// The standing without its sentence (the search reads one per position; only the report needs words).
    fn of(game: &Game) -> Standing {
        Standing::read(game, false)
    }
    /// The standing with its sentence.
    fn described(game: &Game) -> Standing {
        Standing::read(game, true)
    }
    fn read(game: &Game, words: bool) -> Standing {
        let o = game.outcome();
        let pos = game.current();
        let rules = pos.rules();
        let mut claimable: Vec<String> = o.claimable.iter().map(|c| c.0.clone()).collect();
        claimable.sort();
        Standing {
            status: o.status.as_str(),
            winner: o.winner.map(|s| rules.players[s.index()].name.clone()),
            reason: o.reason.clone(),
            clause: o.clause.clone(),
            message: if words { o.message(pos) } else { String::new() },
            claimable,
        }
    }
    fn over(&self) -> bool {
        self.status != Status::Ongoing.as_str()
    }
    /// Do the two say the same about the game: over or not, who won, which draws may be
    /// claimed? (Reason codes are names a variant may change; what they decide is compared.)
    fn same_as(&self, other: &Standing) -> bool {
        self.status == other.status && self.winner == other.winner && self.claimable == other.claimable
    }
}

/// A ruling on a move in one ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judgement {
    pub legal: bool,
    /// The reason code when illegal (`royal-attacked`, `game-over`).
    pub code: Option<&'static str>,
    /// The clause that allows or forbids it.
    pub clause: Option<String>,
    pub message: String,
}

/// A move legal in one ruleset and not the other, with each one's ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    #[serde(rename = "move")]
    pub mv: String,
    /// `gained` (legal in B, not in A) or `lost` (legal in A, not in B).
    pub change: &'static str,
    pub a: Judgement,
    pub b: Judgement,
}

/// A shortest line after which the rulesets differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstLine {
    /// The moves, in coordinates; legal in both.
    pub moves: Vec<String>,
    /// The position reached, as each ruleset writes it.
    pub fen: Pair<String>,
    /// Legal in B, not in A (a game over has no legal move).
    pub gained: Vec<String>,
    /// Legal in A, not in B.
    pub lost: Vec<String>,
    /// The ruling of each ruleset on each gained and lost move: lost ones first.
    pub rulings: Vec<Change>,
    /// How the game stands in each, when that differs (one ends it, the other goes on; different
    /// winners; different draws to claim).
    pub ends: Option<Pair<Standing>>,
}

/// What [`first_line`] found, and how far it looked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Search {
    pub line: Option<FirstLine>,
    /// Distinct positions examined.
    pub positions: usize,
    /// Every line of up to this many plies was examined and showed no difference.
    pub complete_to: u32,
    /// No position was left unexamined: every line ends, or comes back to a position already
    /// seen, within `complete_to` plies.
    pub exhausted: bool,
    pub bounds: Bounds,
}

/// The ruling a game gives on a move written in coordinates: over if the game is over, as
/// [`Position::explain`] says otherwise.
pub fn ruling(game: &Game, text: &str) -> Ruling {
    let o = game.outcome();
    if o.status != Status::Ongoing {
        let pos = game.current();
        return Ruling::Illegal(Illegal {
            code: "game-over",
            message: format!("the game is over ({}): {}", o.reason.clone().unwrap_or_default(), o.message(pos)),
            clause: o.clause.clone(),
        });
    }
    game.current().explain(text)
}

fn judgement(r: Ruling) -> Judgement {
    match r {
        Ruling::Legal { clause, message, .. } => Judgement {
            legal: true,
            code: None,
            clause,
            message,
        },
        Ruling::Illegal(i) => Judgement {
            legal: false,
            code: Some(i.code),
            clause: i.clause,
            message: i.message,
        },
    }
}

/// One position pair as the search sees it: each game's standing and the moves they share.
struct Node {
    standing: Pair<Standing>,
    /// Legal in both: A's move and B's, in A's order.
    shared: Vec<(Move, Move)>,
    lost: Vec<String>,
    gained: Vec<String>,
}

/// What a move's coordinate text says, without writing it: from, to and the promotion's letter for
/// a move of one leg (castling is written as the royal's move); the square and, where the text
/// names it, the kind's letter for a piece put on the board; else the text itself. Two moves of two
/// rulesets on one board have the same signature exactly when they have the same text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Sig {
    Leg {
        from: u16,
        to: u16,
        promo: Option<char>,
    },
    /// A placement or a drop: `X@D4` (letter `X`), or `D4` where only one kind can be placed
    /// (letter `None`).
    Put {
        letter: Option<char>,
        to: u16,
    },
    Pass,
    Swap,
    Text(String),
}

/// Does the coordinate text of a placement name the kind (more than one kind can be placed)?
fn placements_lettered(rules: &Rules) -> bool {
    rules
        .kinds
        .iter()
        .filter(|k| k.forms.iter().any(|f| f.primitive == crate::model::Primitive::Place))
        .count()
        != 1
}

fn sig(pos: &Position, m: Move, lettered: bool) -> Sig {
    let letter = || pos.form_of_place(m).map_or('?', |k| pos.rules().kind(k).letter);
    match m.kind {
        MoveKind::Pass => Sig::Pass,
        MoveKind::Swap => Sig::Swap,
        MoveKind::Form(_) | MoveKind::Castle(_) if m.legs() == 0 => Sig::Leg {
            from: m.from,
            to: m.to,
            promo: m.promotion().map(|k| pos.rules().kind(k).letter.to_ascii_lowercase()),
        },
        MoveKind::Drop(_) => Sig::Put {
            letter: Some(letter()),
            to: m.to,
        },
        MoveKind::Place(_) => Sig::Put {
            letter: if lettered {
                pos.form_of_place(m).map(|k| pos.rules().kind(k).letter)
            } else {
                None
            },
            to: m.to,
        },
        _ => Sig::Text(uci::to_text(pos, m)),
    }
}

impl Node {
    fn read(a: &Game, b: &Game) -> Node {
        let standing = Pair {
            a: Standing::of(a),
            b: Standing::of(b),
        };
        let playable = |g: &Game, s: &Standing| -> Vec<(Sig, Move)> {
            if s.over() {
                return Vec::new();
            }
            let pos = g.current();
            let lettered = placements_lettered(pos.rules());
            pos.legal_moves().into_iter().map(|m| (sig(pos, m, lettered), m)).collect()
        };
        let (ma, mut mb) = (playable(a, &standing.a), playable(b, &standing.b));
        mb.sort_by(|x, y| x.0.cmp(&y.0));
        let mut matched_b = vec![false; mb.len()];
        let mut shared = Vec::with_capacity(ma.len());
        let mut lost = Vec::new();
        for (sa, m) in &ma {
            match mb.binary_search_by(|x| x.0.cmp(sa)) {
                Ok(i) => {
                    matched_b[i] = true;
                    shared.push((*m, mb[i].1));
                }
                Err(_) => {
                    // Failing the same text, a text B reads as one of its moves (a promotion B
                    // writes without its forced letter) is the same move.
                    let t = uci::to_text(a.current(), *m);
                    let found = (!standing.b.over()).then(|| uci::find(b.current(), &t)).flatten();
                    match found {
                        Some(fb) => {
                            if let Some(i) = mb.iter().position(|x| x.1 == fb) {
                                matched_b[i] = true;
                            }
                            shared.push((*m, fb));
                        }
                        None => lost.push(t),
                    }
                }
            }
        }
        let mut gained = Vec::new();
        for ((_, m), matched) in mb.iter().zip(&matched_b) {
            if *matched {
                continue;
            }
            let t = uci::to_text(b.current(), *m);
            if standing.a.over() || uci::find(a.current(), &t).is_none() {
                gained.push(t);
            }
        }
        if gained.len() > 1 {
            // In B's generation order, as `lost` is in A's.
            let order: Vec<String> = b
                .current()
                .legal_moves()
                .into_iter()
                .map(|m| uci::to_text(b.current(), m))
                .collect();
            gained.sort_by_key(|t| order.iter().position(|o| o == t));
        }
        Node {
            standing,
            shared,
            lost,
            gained,
        }
    }

    fn differs(&self) -> bool {
        !self.lost.is_empty() || !self.gained.is_empty() || !self.standing.a.same_as(&self.standing.b)
    }
}

/// Mixes one more word into a running hash (splitmix64's finaliser).
fn mix(h: u64, x: u64) -> u64 {
    let mut z = h ^ x.wrapping_add(0x9E37_79B9_7F4A_7C15).wrapping_add(h << 6).wrapping_add(h >> 2);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Positions told apart: in both games the pieces, hands and side to move (the Zobrist hash), the
/// en-passant squares and the unmoved squares castling reads — not the move counters, so
/// transpositions meet.
fn key(a: &Game, b: &Game) -> u64 {
    let mut h = 0u64;
    for g in [a, b] {
        let pos = g.current();
        h = mix(h, pos.hash());
        for sq in pos.en_passant_squares() {
            h = mix(h, sq as u64 + 1);
        }
        h = mix(h, u64::MAX);
        for sq in pos.virgin_squares() {
            h = mix(h, sq as u64 + 1);
        }
        h = mix(h, u64::MAX - 1);
    }
    h
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
struct Already(u64);

impl Hasher for Already {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

type Seen = HashMap<u64, u32, std::hash::BuildHasherDefault<Already>>;

enum Flow {
    Go,
    Found,
    OutOfBudget,
}

struct Walk {
    a: Game,
    b: Game,
    /// This iteration: each position's shallowest ply.
    seen: Seen,
    budget: usize,
    /// The plies the games had before the search (the line starts after them).
    before: usize,
    found: Option<FirstLine>,
    /// The iteration reached a position first seen at its last ply: a deeper one may find more.
    more: bool,
}

impl Walk {
    fn visit(&mut self, left: u32, ply: u32) -> Flow {
        let node = Node::read(&self.a, &self.b);
        if node.differs() {
            self.found = Some(self.report(node));
            return Flow::Found;
        }
        if left == 0 {
            self.more = true;
            return Flow::Go;
        }
        for (ma, mb) in node.shared {
            self.a.play(ma);
            self.b.play(mb);
            let k = key(&self.a, &self.b);
            let fresh = self.seen.get(&k).is_none_or(|&p| p > ply + 1);
            let flow = if !fresh {
                Flow::Go
            } else if self.seen.len() >= self.budget {
                Flow::OutOfBudget
            } else {
                self.seen.insert(k, ply + 1);
                self.visit(left - 1, ply + 1)
            };
            self.a.undo();
            self.b.undo();
            if !matches!(flow, Flow::Go) {
                return flow;
            }
        }
        Flow::Go
    }

    fn report(&self, node: Node) -> FirstLine {
        let mut rulings = Vec::new();
        for (list, change) in [(&node.lost, "lost"), (&node.gained, "gained")] {
            for t in list {
                rulings.push(Change {
                    mv: t.clone(),
                    change,
                    a: judgement(ruling(&self.a, t)),
                    b: judgement(ruling(&self.b, t)),
                });
            }
        }
        let ends = (!node.standing.a.same_as(&node.standing.b)).then(|| Pair {
            a: Standing::described(&self.a),
            b: Standing::described(&self.b),
        });
        FirstLine {
            moves: self.a.moves()[self.before..]
                .iter()
                .zip(&self.a.positions()[self.before..])
                .map(|(m, p)| uci::to_text(p, *m))
                .collect(),
            fen: Pair {
                a: self.a.current().fen(),
                b: self.b.current().fen(),
            },
            gained: node.gained,
            lost: node.lost,
            rulings,
            ends,
        }
    }
}

/// A shortest line of moves legal in both games after which they differ: the legal moves (matched
/// by coordinate text) or how the game stands. Lines are tried by iterative deepening, depth
/// first in A's move order, so the first found is among the shortest; positions reached again
/// (FEN without the move counters, in both) are not searched again, so a repetition along a line
/// is not seen. `a` and `b` are games at the start (their history counts).
///
/// # Examples
/// ```
/// # let chess = arbiter::game::Engine::new(arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]).rules.expect("valid"));
/// use arbiter::compare::{Bounds, first_line};
/// use arbiter::game::Game;
/// let g = Game::new(chess.clone(), chess.start());
/// let s = first_line(g.clone(), g, Bounds { plies: 3, positions: 100_000 });
/// assert!(s.line.is_none());
/// assert_eq!(s.complete_to, 3);
/// ```
pub fn first_line(a: Game, b: Game, bounds: Bounds) -> Search {
    let before = a.ply();
    let mut walk = Walk {
        a,
        b,
        seen: Seen::default(),
        budget: bounds.positions.max(1),
        before,
        found: None,
        more: false,
    };
    let root = key(&walk.a, &walk.b);
    let mut complete_to = 0;
    let mut exhausted = false;
    for depth in 0..=bounds.plies {
        walk.seen.clear();
        walk.seen.insert(root, 0);
        walk.more = false;
        match walk.visit(depth, 0) {
            Flow::Found | Flow::OutOfBudget => break,
            Flow::Go => {}
        }
        complete_to = depth;
        if !walk.more {
            exhausted = true;
            break;
        }
    }
    Search {
        line: walk.found,
        positions: walk.seen.len(),
        complete_to,
        exhausted,
        bounds,
    }
}

// ---------------------------------------------------------------- scenarios

/// How a scenario went, in the terms a comparison looks at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Run {
    /// `pass`, `fail` or `error`.
    pub status: &'static str,
    /// What the verdict says: the steps and expectations passed, the failure, or the error.
    pub detail: String,
    /// Each expectation tested: step, expectation, held, what held instead.
    #[serde(skip)]
    pub rulings: Vec<(usize, String, bool, Option<String>)>,
}

impl Run {
    fn of(r: &Report) -> Run {
        let (status, detail) = match &r.verdict {
            Verdict::Pass { steps, expectations } => (
                "pass",
                format!(
                    "{steps} step{}, {expectations} expectation{}",
                    if *steps == 1 { "" } else { "s" },
                    if *expectations == 1 { "" } else { "s" }
                ),
            ),
            Verdict::Fail(f) => ("fail", f.to_string()),
            Verdict::Error(e) => ("error", e.message.clone()),
        };
        let rulings = r
            .frames
            .iter()
            .flat_map(|f| f.expectations.iter().map(|e| (f.step, e.text.clone(), e.passed, e.instead.clone())))
            .collect();
        Run { status, detail, rulings }
    }
}

/// A scenario run on A and on B.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScenarioChange {
    pub path: PathBuf,
    pub title: Option<String>,
    pub a: Run,
    pub b: Run,
}

/// A scenario that could run on neither ruleset: a malformed file, or a square, side or start
/// that neither has. It says nothing of the difference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScenarioBroken {
    pub path: PathBuf,
    /// The error as running it on A found it, with its place in the file where known.
    pub error: String,
}

/// Scenarios run on each ruleset in place of the one they name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScenarioComparison {
    /// Those whose verdict or rulings differ.
    pub changed: Vec<ScenarioChange>,
    /// Those that went the same way on both.
    pub unchanged: Vec<PathBuf>,
    /// Those that could run on neither.
    pub broken: Vec<ScenarioBroken>,
}

/// Runs each scenario file twice — on ruleset A (the file `a` with `params`) and on B, each in
/// place of the ruleset the scenario names — and sorts them by whether the verdict or any ruling
/// changed (pass → fail, a different step failing, an expectation that held and no longer does).
/// One that could run on neither is set apart, not counted unchanged. `ruleset_dirs` is where
/// bundled names are looked up, as in [`Runner::new`].
pub fn compare_scenarios(
    files: &[PathBuf],
    a: &Path,
    b: &Path,
    params: &[(String, String)],
    ruleset_dirs: Vec<PathBuf>,
) -> ScenarioComparison {
    let mut on_a = Runner::new(ruleset_dirs.clone());
    on_a.substitute(a.to_path_buf(), params.to_vec());
    let mut on_b = Runner::new(ruleset_dirs);
    on_b.substitute(b.to_path_buf(), params.to_vec());
    let mut out = ScenarioComparison::default();
    for f in files {
        let (ra, rb) = (on_a.run_file(f), on_b.run_file(f));
        let (a, b) = (Run::of(&ra), Run::of(&rb));
        if let (Verdict::Error(e), Verdict::Error(_)) = (&ra.verdict, &rb.verdict) {
            let place = match (e.line, e.column) {
                (Some(l), Some(c)) => format!("{}:{l}:{c}", e.path.display()),
                (Some(l), None) => format!("{}:{l}", e.path.display()),
                _ => e.path.display().to_string(),
            };
            out.broken.push(ScenarioBroken {
                path: f.clone(),
                error: format!("{place}: {}", e.message),
            });
            continue;
        }
        // An error names the ruleset file it ran on: only its kind is compared.
        let same = a.status == b.status && a.rulings == b.rulings && (a.status == "error" || a.detail == b.detail);
        if same {
            out.unchanged.push(f.clone());
        } else {
            out.changed.push(ScenarioChange {
                path: f.clone(),
                title: ra.title.clone().or(rb.title.clone()),
                a,
                b,
            });
        }
    }
    out
}

// ---------------------------------------------------------------- simulations

/// One statistic of two simulations side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimRow {
    /// What is measured: `white wins`, `draws`, `first player's score`, `mean length (plies)`.
    pub what: String,
    pub a: f64,
    pub b: f64,
    /// B − A.
    pub difference: f64,
    /// The test statistic; `None` where it is undefined (no games, or no variation at all with a
    /// difference).
    pub z: Option<f64>,
    /// |z| > 1.96: the difference is significant at the 95% level (two-sided), this row alone.
    pub significant: bool,
    /// `proportions` (pooled two-proportion z-test) or `means` (z-test on the difference of two
    /// means, each with its own variance).
    pub test: &'static str,
}

fn row(what: String, a: f64, b: f64, z: Option<f64>, test: &'static str) -> SimRow {
    SimRow {
        what,
        a,
        b,
        difference: b - a,
        z,
        significant: z.is_some_and(|z| z.abs() > crate::sim::Z95),
        test,
    }
}

/// The pooled two-proportion z statistic of `xb` of `nb` against `xa` of `na`.
fn z_proportions(xa: f64, na: u64, xb: f64, nb: u64) -> Option<f64> {
    if na == 0 || nb == 0 {
        return None;
    }
    let (pa, pb) = (xa / na as f64, xb / nb as f64);
    let p = (xa + xb) / (na + nb) as f64;
    let se = (p * (1.0 - p) * (1.0 / na as f64 + 1.0 / nb as f64)).sqrt();
    z_of(pb - pa, se)
}

/// The z statistic of a difference of two means from (sum, sum of squares, n) each.
fn z_means(a: (f64, f64, u64), b: (f64, f64, u64)) -> Option<f64> {
    let (sa, qa, na) = a;
    let (sb, qb, nb) = b;
    if na < 2 || nb < 2 {
        return None;
    }
    let var = |s: f64, q: f64, n: u64| {
        let n = n as f64;
        ((q - s * s / n) / (n - 1.0)).max(0.0)
    };
    let se = (var(sa, qa, na) / na as f64 + var(sb, qb, nb) / nb as f64).sqrt();
    z_of(sb / nb as f64 - sa / na as f64, se)
}

fn z_of(difference: f64, se: f64) -> Option<f64> {
    if difference == 0.0 {
        Some(0.0)
    } else if se > 0.0 {
        Some(difference / se)
    } else {
        None
    }
}

/// Reads one count of games from a tally (each side's wins, the draws...).
type Count = Box<dyn Fn(&Tally) -> u64>;

fn share(x: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { x as f64 / n as f64 }
}

/// The statistics of two simulations (the same games, seed and players, one on each ruleset)
/// side by side with the difference and whether it is significant: the share of games each side
/// won, drawn, ended without result or cut (two-proportion z-tests, over all games), the first
/// player's score (win 1, draw or no result ½, over finished games) and the mean length in plies
/// (z-tests on the difference of means). `sides` names the sides in the ruleset's order; `first`
/// is the side that moves first in each; `teams` each side's team in each, empty where a ruleset
/// has no teams (the first player's score is then its team's in that ruleset, a draw halved
/// between the teams). Each row is tested alone: with six rows, one in about four pairs of
/// identical rulesets shows a "significant" row by chance.
///
/// # Examples
/// ```
/// use arbiter::compare::{Pair, compare_simulations};
/// use arbiter::model::Side;
/// use arbiter::sim::Tally;
/// let mut a = Tally::default();
/// a.games = 1000;
/// a.wins = vec![700, 300];
/// a.lengths.insert(9, 1000);
/// let mut b = a.clone();
/// b.wins = vec![500, 500];
/// let sides = ["cross".to_string(), "nought".to_string()];
/// let none: &[u8] = &[];
/// let rows = compare_simulations(&a, &b, Pair { a: Side::FIRST, b: Side::FIRST }, &sides, Pair { a: none, b: none });
/// assert!(rows[0].what == "cross wins" && rows[0].significant);
/// ```
pub fn compare_simulations(a: &Tally, b: &Tally, first: Pair<Side>, sides: &[String], teams: Pair<&[u8]>) -> Vec<SimRow> {
    let mut rows = Vec::new();
    let n = sides.len();
    // Each side's wins, then the draws; the rarer outcomes when either run has some.
    let mut counts: Vec<(String, Count, bool)> = sides
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("{s} wins"), Box::new(move |t: &Tally| t.won(i)) as Count, true))
        .collect();
    counts.push(("draws".to_string(), Box::new(|t: &Tally| t.draws), true));
    counts.push(("no result".to_string(), Box::new(|t: &Tally| t.no_result), false));
    counts.push(("unfinished (cut)".to_string(), Box::new(|t: &Tally| t.unfinished), false));
    for (what, count, always) in counts {
        let (xa, xb) = (count(a), count(b));
        if !always && xa == 0 && xb == 0 {
            continue;
        }
        rows.push(row(
            what,
            share(xa, a.games),
            share(xb, b.games),
            z_proportions(xa as f64, a.games, xb as f64, b.games),
            "proportions",
        ));
    }
    // A win 1, a draw 1/N among N parties (a half between two sides or two teams): the sum of
    // the scores and of their squares.
    let score = |t: &Tally, f: Side, teams: &[u8]| {
        let (w, parties) = t.party_wins(f, n, teams);
        let (w, d, share_of_draw) = (w as f64, (t.draws + t.no_result) as f64, 1.0 / parties as f64);
        (w + share_of_draw * d, w + share_of_draw * share_of_draw * d, t.finished())
    };
    let (sa, sb) = (score(a, first.a, teams.a), score(b, first.b, teams.b));
    rows.push(row(
        "first player's score".to_string(),
        a.score(first.a, n, teams.a).mean,
        b.score(first.b, n, teams.b).mean,
        z_means(sa, sb),
        "means",
    ));
    let length = |t: &Tally| {
        let s = t.lengths.iter().map(|(l, n)| (*l * *n) as f64).sum::<f64>();
        let q = t.lengths.iter().map(|(l, n)| (*l * *l) as f64 * *n as f64).sum::<f64>();
        (s, q, t.games)
    };
    rows.push(row(
        "mean length (plies)".to_string(),
        a.mean_length(),
        b.mean_length(),
        z_means(length(a), length(b)),
        "means",
    ));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::check_source;
    use crate::game::Engine;

    fn engine(text: &str) -> Engine {
        let c = check_source("test.rules", text, None, &[]);
        Engine::new(c.rules.unwrap_or_else(|| panic!("{:?}", c.diagnostics.items)))
    }

    #[test]
    fn among_teams_the_first_player_s_score_is_its_team_s() {
        // Red and yellow (sides 0 and 2) won 30 and 20, blue and green 10 each, 30 draws.
        let a = Tally {
            games: 100,
            wins: vec![30, 10, 20, 10],
            draws: 30,
            lengths: [(50, 100)].into_iter().collect(),
            ..Tally::default()
        };
        let sides: Vec<String> = ["red", "blue", "yellow", "green"].map(String::from).to_vec();
        let score = |ta: &[u8], tb: &[u8]| {
            let first = Pair {
                a: Side::FIRST,
                b: Side::FIRST,
            };
            let rows = compare_simulations(&a, &a.clone(), first, &sides, Pair { a: ta, b: tb });
            rows.iter()
                .find(|r| r.what == "first player's score")
                .map(|r| (r.a, r.b))
                .unwrap_or((f64::NAN, f64::NAN))
        };
        let near = |(x, y): (f64, f64), (u, v): (f64, f64)| (x - u).abs() < 1e-9 && (y - v).abs() < 1e-9;
        // (30 + 20 + 30 / 2) / 100 with teams; (30 + 30 / 4) / 100 without.
        assert!(near(score(&[0, 1, 0, 1], &[0, 1, 0, 1]), (0.65, 0.65)));
        assert!(near(score(&[], &[]), (0.375, 0.375)));
        // Each ruleset's first player is scored by its own teams: red with yellow in A, with
        // blue in B ((30 + 10 + 30 / 2) / 100), alone in a third.
        assert!(near(score(&[0, 1, 0, 1], &[0, 0, 1, 1]), (0.65, 0.55)));
        assert!(near(score(&[0, 0, 1, 1], &[]), (0.55, 0.375)));
    }

    const LINE: &str = r#"
game "Line" { players white "w", black "b" }
board 4 x 1 squares { files a..d ranks 1..1 }
piece Stone "S" { step orthogonal to empty }
end { stuck: no legal move -> side to move loses }
setup "S2s w - - 0 1"
"#;

    #[test]
    fn boards_of_another_size_are_refused_with_both_described() {
        let wide = LINE.replace("4 x 1", "5 x 1").replace("a..d", "a..e").replace("S2s", "S3s");
        let e = same_board(engine(LINE).rules(), engine(&wide).rules()).expect_err("5 files against 4");
        assert_eq!(
            e.to_string(),
            "the boards differ: A has 4 × 1 squares (files a..d, ranks 1..1), B has 5 × 1 squares (files a..e, ranks 1..1); \
             compare needs rulesets of the same board"
        );
    }

    #[test]
    fn a_piece_that_also_leaps_is_gained_at_the_root_with_its_clause() {
        let leaper = LINE.replace("step orthogonal to empty", "step orthogonal to empty\n leap (2,0) to empty [9]");
        let (a, b) = (engine(LINE), engine(&leaper));
        let s = first_line(Game::new(a.clone(), a.start()), Game::new(b.clone(), b.start()), Bounds::default());
        let line = s.line.expect("the leap is a difference");
        assert!(line.moves.is_empty());
        assert_eq!(line.gained, vec!["a1c1".to_string()]);
        assert!(line.lost.is_empty());
        let c = &line.rulings[0];
        assert!(c.b.legal && !c.a.legal);
        assert_eq!(c.b.clause.as_deref(), Some("9"));
    }

    #[test]
    fn a_game_that_ends_sooner_is_a_difference_of_standing() {
        // B: the first player wins as soon as the stones touch.
        let touch = LINE
            .replace("end {", "end {\n touch: Stone in near -> mover wins")
            .replace("setup", "zone near = b1..c1\nsetup");
        let (a, b) = (engine(LINE), engine(&touch));
        let s = first_line(Game::new(a.clone(), a.start()), Game::new(b.clone(), b.start()), Bounds::default());
        let line = s.line.expect("B ends the game");
        assert_eq!(line.moves.len(), 1);
        let ends = line.ends.expect("the standings differ");
        assert_eq!((ends.a.status, ends.b.status), ("ongoing", "win"));
        assert!(line.gained.is_empty() && !line.lost.is_empty());
        assert!(line.rulings.iter().all(|c| c.b.code == Some("game-over")));
    }

    #[test]
    fn the_same_rules_never_differ_and_a_finite_tree_is_exhausted() {
        let a = engine(LINE);
        let g = Game::new(a.clone(), a.start());
        let s = first_line(g.clone(), g, Bounds::default());
        assert!(s.line.is_none());
        assert!(s.exhausted, "{s:?}");
    }

    #[test]
    fn z_tests_match_hand_computed_values() {
        // 60 of 100 against 50 of 100: pooled p = 0.55, se = sqrt(0.55 * 0.45 * 0.02) = 0.070356.
        let z = z_proportions(60.0, 100, 50.0, 100).expect("defined");
        assert!((z + 1.421338).abs() < 1e-5, "{z}");
        // Means 9 (values 8, 10) against 11 (10, 12): variances 2 each, se = sqrt(2/2 + 2/2).
        let z = z_means((18.0, 164.0, 2), (22.0, 244.0, 2)).expect("defined");
        assert!((z - 2.0 / 2f64.sqrt()).abs() < 1e-12, "{z}");
        assert_eq!(z_proportions(5.0, 10, 5.0, 10), Some(0.0));
        assert_eq!(z_means((10.0, 50.0, 2), (12.0, 72.0, 2)), None, "no variation, yet a difference");
        assert_eq!(z_proportions(1.0, 0, 1.0, 10), None);
    }
}
