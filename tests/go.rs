//! Go (rulesets/go.rules) against an independent oracle, then one test per rule.
//!
//! The oracle below is a deliberately naive go: a `Vec<Option<Colour>>` board, flood fill for
//! chains and liberties on every question, captures, the suicide test, positional superko (or
//! simple ko) by comparing whole boards, and passes. It shares no code with Arbiter's incremental
//! chains. Perft counts and seeded random games must agree with it move by move.

use std::collections::HashMap;

use arbiter::game::{Engine, Game, MoveKind, Position, Ruling, Status};
use arbiter::model::Side;
use arbiter::notation::{sgf, uci};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

// ---------------------------------------------------------------------------------------- oracle

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Colour {
    Black,
    White,
}

impl Colour {
    fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

type Board = Vec<Option<Colour>>;

/// Which earlier boards a move may not recreate.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Ko {
    /// The board before the opponent's last move.
    Simple,
    /// Any board since the start of the line.
    Positional,
}

/// Naive go. Points are numbered as Arbiter numbers squares: `row * size + column`, row 0 at the
/// bottom (so `A1` is 0).
#[derive(Clone)]
struct Naive {
    size: usize,
    board: Board,
    to_move: Colour,
    ko: Ko,
    /// Every board of the line, the current one last (a pass repeats it).
    line: Vec<Board>,
    /// How often each board occurs in `line`.
    seen: HashMap<Board, usize>,
}

impl Naive {
    fn new(size: usize, board: Board, to_move: Colour, ko: Ko) -> Naive {
        let mut seen = HashMap::new();
        seen.insert(board.clone(), 1);
        Naive {
            size,
            line: vec![board.clone()],
            board,
            to_move,
            ko,
            seen,
        }
    }

    fn empty(size: usize) -> Naive {
        Naive::new(size, vec![None; size * size], Colour::Black, Ko::Positional)
    }

    fn neighbours(&self, p: usize) -> Vec<usize> {
        let (row, col) = (p / self.size, p % self.size);
        let mut v = Vec::with_capacity(4);
        if row > 0 {
            v.push(p - self.size);
        }
        if row + 1 < self.size {
            v.push(p + self.size);
        }
        if col > 0 {
            v.push(p - 1);
        }
        if col + 1 < self.size {
            v.push(p + 1);
        }
        v
    }

    /// The chain through `p` on `board` (sorted) and its number of distinct liberties.
    fn chain(&self, board: &Board, p: usize) -> (Vec<usize>, usize) {
        let colour = board[p];
        let mut in_chain = vec![false; board.len()];
        let mut liberty = vec![false; board.len()];
        let mut stack = vec![p];
        in_chain[p] = true;
        let mut stones = Vec::new();
        while let Some(q) = stack.pop() {
            stones.push(q);
            for r in self.neighbours(q) {
                if board[r].is_none() {
                    liberty[r] = true;
                } else if board[r] == colour && !in_chain[r] {
                    in_chain[r] = true;
                    stack.push(r);
                }
            }
        }
        stones.sort();
        (stones, liberty.iter().filter(|&&l| l).count())
    }

    /// The board after the side to move places on `p`, and the points it captures; or why not.
    fn try_place(&self, p: usize) -> Result<(Board, Vec<usize>), &'static str> {
        if self.board[p].is_some() {
            return Err("occupied");
        }
        let me = self.to_move;
        let mut b = self.board.clone();
        b[p] = Some(me);
        let mut captured = Vec::new();
        for q in self.neighbours(p) {
            if b[q] == Some(me.other()) {
                let (stones, libs) = self.chain(&b, q);
                if libs == 0 {
                    for s in stones {
                        b[s] = None;
                        captured.push(s);
                    }
                }
            }
        }
        if self.chain(&b, p).1 == 0 {
            return Err("suicide");
        }
        let repeats = match self.ko {
            Ko::Positional => self.seen.contains_key(&b),
            Ko::Simple => self.line.len() >= 2 && self.line[self.line.len() - 2] == b,
        };
        if repeats {
            return Err("repetition");
        }
        captured.sort();
        Ok((b, captured))
    }

    /// The legal moves: points in increasing order, then the pass (`None`).
    fn legal(&self) -> Vec<Option<usize>> {
        let mut v: Vec<Option<usize>> = (0..self.board.len()).filter(|&p| self.try_place(p).is_ok()).map(Some).collect();
        v.push(None);
        v
    }

    /// Plays a legal move; returns the captured points.
    fn play(&mut self, m: Option<usize>) -> Vec<usize> {
        let captured = match m {
            None => Vec::new(),
            Some(p) => {
                let (b, captured) = self.try_place(p).unwrap_or_else(|e| panic!("oracle: {p} is illegal ({e})"));
                self.board = b;
                captured
            }
        };
        self.to_move = self.to_move.other();
        self.line.push(self.board.clone());
        *self.seen.entry(self.board.clone()).or_insert(0) += 1;
        captured
    }

    fn undo(&mut self) {
        let last = self.line.pop().expect("a move to undo");
        if let Some(n) = self.seen.get_mut(&last) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&last);
            }
        }
        self.board = self.line.last().expect("the start stays").clone();
        self.to_move = self.to_move.other();
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            self.play(m);
            n += self.perft(depth - 1);
            self.undo();
        }
        n
    }

    /// Area count: stones plus empty regions bordered by one colour only; regions bordered by
    /// both (or neither) are split half and half.
    fn area(&self) -> [f64; 2] {
        let mut points = [0.0; 2];
        let idx = |c: Colour| if c == Colour::Black { 0 } else { 1 };
        let mut seen = vec![false; self.board.len()];
        for p in 0..self.board.len() {
            match self.board[p] {
                Some(c) => points[idx(c)] += 1.0,
                None if !seen[p] => {
                    let mut region = vec![p];
                    seen[p] = true;
                    let mut borders = [false; 2];
                    let mut i = 0;
                    while i < region.len() {
                        for q in self.neighbours(region[i]) {
                            match self.board[q] {
                                Some(c) => borders[idx(c)] = true,
                                None if !seen[q] => {
                                    seen[q] = true;
                                    region.push(q);
                                }
                                None => {}
                            }
                        }
                        i += 1;
                    }
                    let n = region.len() as f64;
                    match borders {
                        [true, false] => points[0] += n,
                        [false, true] => points[1] += n,
                        _ => {
                            points[0] += n / 2.0;
                            points[1] += n / 2.0;
                        }
                    }
                }
                None => {}
            }
        }
        points
    }
}

// ---------------------------------------------------------------------------------------- helpers

use crate::common;

use common::{Run, arbiter, root, rules as rules_from};

fn go(size: usize) -> Engine {
    Engine::new(rules_from("rulesets/go.rules", &[("size", &size.to_string())]))
}

fn go_with(params: &[(&str, &str)]) -> Engine {
    Engine::new(rules_from("rulesets/go.rules", params))
}

/// The square a point name (`D4`) stands for.
fn at(pos: &Position, name: &str) -> usize {
    pos.rules()
        .board
        .parse_square(name)
        .unwrap_or_else(|| panic!("{name} is not a point"))
}

/// Plays moves written as points (`D4`) or `pass`; each must be legal.
fn play(game: &mut Game, moves: &[&str]) {
    for text in moves {
        let m = uci::find(game.current(), text).unwrap_or_else(|| {
            panic!(
                "{text} is not legal after {:?}: {:?}",
                game.moves().iter().map(|m| uci::to_text(game.current(), *m)).collect::<Vec<_>>(),
                game.current().explain(text)
            )
        });
        game.play(m);
    }
}

fn game_from(engine: &Engine, fen: &str, moves: &[&str]) -> Game {
    let start = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut g = Game::new(engine.clone(), start);
    play(&mut g, moves);
    g
}

fn board_of(pos: &Position) -> Board {
    (0..pos.rules().board.squares())
        .map(|sq| {
            pos.piece_at(sq)
                .map(|(_, s)| if s == Side::FIRST { Colour::Black } else { Colour::White })
        })
        .collect()
}

fn oracle_of(pos: &Position, ko: Ko) -> Naive {
    let size = pos.rules().board.width;
    let to_move = if pos.side_to_move() == Side::FIRST {
        Colour::Black
    } else {
        Colour::White
    };
    Naive::new(size, board_of(pos), to_move, ko)
}

fn arbiter_moves(pos: &Position) -> Vec<Option<usize>> {
    let mut v: Vec<Option<usize>> = pos
        .legal_moves()
        .into_iter()
        .map(|m| match m.kind {
            MoveKind::Pass => None,
            _ => Some(m.to as usize),
        })
        .collect();
    v.sort_by_key(|m| m.unwrap_or(usize::MAX));
    v
}

/// The names of the points of `pos` holding a stone of `side`, sorted.
fn stones(pos: &Position, side: Side) -> Vec<String> {
    let b = &pos.rules().board;
    let mut v: Vec<String> = (0..b.squares())
        .filter(|&sq| pos.piece_at(sq).is_some_and(|(_, s)| s == side))
        .map(|sq| b.name(sq))
        .collect();
    v.sort();
    v
}

fn illegal_code(pos: &Position, text: &str) -> (&'static str, Option<String>) {
    match pos.explain(text) {
        Ruling::Illegal(i) => (i.code, i.clause),
        Ruling::Legal { message, .. } => panic!("{text} is legal: {message}"),
    }
}

// ---------------------------------------------------------------------------------------- oracle tests

#[test]
fn perft_agrees_with_the_oracle_on_small_boards() {
    // (size, depth): the deepest that runs in about a second each.
    for (size, depth) in [(3, 7), (4, 5), (5, 4)] {
        let start = go(size).start();
        let mut oracle = Naive::empty(size);
        for d in 1..=depth {
            assert_eq!(start.perft(d), oracle.perft(d), "perft({d}) on {size}×{size}");
        }
    }
}

#[test]
fn perft_agrees_with_the_oracle_from_positions_with_captures_and_ko() {
    // 4×4: a ko in the middle, stones in atari at the edge, a corner where placing is suicide.
    let positions = [
        (4, ".X../XxX./x.x./.x.. b", 4),
        (4, "Xx../.Xx./x.X./.x.X w", 4),
        (5, ".XXx./X.Xx./XXxx./xx.../..... b", 3),
        (3, "X.x/.x./x.X w", 6),
    ];
    for (size, fen, depth) in positions {
        let fen = fen_dots(fen);
        let pos = go(size).from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut oracle = oracle_of(&pos, Ko::Positional);
        for d in 1..=depth {
            assert_eq!(pos.perft(d), oracle.perft(d), "perft({d}) from {fen}");
        }
    }
}

/// `.X../x..X b` → `1X2/x2X b`: FEN with dots for empty points, for readable test positions.
fn fen_dots(s: &str) -> String {
    let (board, rest) = s.split_once(' ').unwrap_or((s, ""));
    let rows: Vec<String> = board
        .split('/')
        .map(|row| common::rank_text(row.chars().map(|c| (c != '.').then_some(c))))
        .collect();
    format!("{} {rest}", rows.join("/")).trim().to_string()
}

/// Plays seeded random games with `engine` and the oracle side by side; after every move the board,
/// the captured stones and every chain must agree, before every move the legal moves, and at the
/// end the area count. Returns how many positions were compared.
fn random_games(engine: &Engine, ko: Ko, games: u64, max_plies: usize) -> usize {
    let size = engine.rules().board.width;
    let mut compared = 0;
    for seed in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(1000 * size as u64 + seed);
        let mut game = Game::new(engine.clone(), engine.start());
        let mut oracle = Naive::empty(size);
        oracle.ko = ko;
        let here = |ply: usize| format!("{size}×{size} seed {seed} ply {ply}");
        for ply in 0..max_plies {
            let pos = game.current().clone();
            assert_eq!(arbiter_moves(&pos), oracle.legal(), "{}: legal moves", here(ply));
            compared += 1;
            if game.outcome().status != Status::Ongoing {
                assert_eq!(game.area_score(7.5).points, oracle.area(), "{}: area count", here(ply));
                break;
            }
            // Pass rarely, so that games run long and crowd the board.
            let moves = pos.legal_moves();
            let places: Vec<_> = moves.iter().filter(|m| m.kind != MoveKind::Pass).copied().collect();
            let m = if places.is_empty() || rng.gen_range(0..40) == 0 {
                *moves.iter().find(|m| m.kind == MoveKind::Pass).expect("pass is always legal")
            } else {
                places[rng.gen_range(0..places.len())]
            };
            game.play(m);
            let after = game.current();
            let captured: Vec<usize> = (0..size * size)
                .filter(|&sq| pos.piece_at(sq).is_some() && after.piece_at(sq).is_none())
                .collect();
            let expected = oracle.play((m.kind != MoveKind::Pass).then_some(m.to as usize));
            assert_eq!(captured, expected, "{}: captures", here(ply));
            assert_eq!(board_of(after), oracle.board, "{}: board", here(ply));
            // Arbiter's incremental chains against the oracle's flood fill.
            let mut done = vec![false; size * size];
            for sq in 0..size * size {
                if oracle.board[sq].is_some() && !done[sq] {
                    let chain = oracle.chain(&oracle.board, sq).0;
                    for &s in &chain {
                        done[s] = true;
                        let mut mine = after.chain_at(s);
                        mine.sort();
                        assert_eq!(mine, chain, "{}: chain at {}", here(ply), after.rules().board.name(s));
                    }
                }
            }
        }
    }
    compared
}

#[test]
fn random_games_agree_with_the_oracle_move_by_move() {
    let mut compared = 0;
    for (size, games, max_plies) in [(5, 60, 200), (9, 12, 400), (19, 1, 600)] {
        compared += random_games(&go(size), Ko::Positional, games, max_plies);
    }
    // Over 10,000 positions: a count that would drop if games stopped early.
    assert!(compared > 10_000, "compared {compared} positions");
}

#[test]
fn random_games_under_simple_ko_agree_with_the_oracle() {
    let variant = Engine::new(rules_from("tests/variants/go-simple-ko.rules", &[("size", "5")]));
    let compared = random_games(&variant, Ko::Simple, 40, 200);
    assert!(compared > 4_000, "compared {compared} positions");
}

// ---------------------------------------------------------------------------------------- one rule each

#[test]
fn a_stone_without_liberties_is_captured() {
    // White C3 has one liberty, C2; black fills it.
    let mut g = game_from(&go(5), &fen_dots("...../..X../.XxX./...../..... b"), &[]);
    assert_eq!(g.current().explain("C2"), {
        let mv = uci::find(g.current(), "C2").expect("legal");
        Ruling::Legal {
            mv,
            clause: Some("Weiqi 2".into()),
            message: "black places a stone on C2 and captures 1 stone (C3)".into(),
        }
    });
    play(&mut g, &["C2"]);
    assert_eq!(stones(g.current(), Side::SECOND), Vec::<String>::new());
    assert_eq!(stones(g.current(), Side::FIRST), ["B3", "C2", "C4", "D3"]);
}

#[test]
fn a_chain_without_liberties_is_captured_whole() {
    // White C3-C4 shares one liberty, C2.
    let mut g = game_from(&go(5), &fen_dots("..X../.XxX./.XxX./...../..... b"), &[]);
    let c3 = at(g.current(), "C3");
    let mut chain: Vec<String> = g
        .current()
        .chain_at(c3)
        .into_iter()
        .map(|s| g.current().rules().board.name(s))
        .collect();
    chain.sort();
    assert_eq!(chain, ["C3", "C4"]);
    play(&mut g, &["C2"]);
    assert_eq!(stones(g.current(), Side::SECOND), Vec::<String>::new());
    assert!(g.current().chain_at(c3).is_empty());
    assert_eq!(stones(g.current(), Side::FIRST).len(), 6);
}

#[test]
fn captures_at_the_edge_and_in_the_corner() {
    // Edge: white C1 between black B1 and D1 has only C2.
    let mut g = game_from(&go(5), &fen_dots("...../...../...../...../.XxX. b"), &["C2"]);
    assert_eq!(stones(g.current(), Side::SECOND), Vec::<String>::new());
    // Corner: white A1 next to black B1 has only A2.
    g = game_from(&go(5), &fen_dots("...../...../...../...../xX... b"), &["A2"]);
    assert_eq!(stones(g.current(), Side::SECOND), Vec::<String>::new());
    // A chain along the edge: white A1-B1 under black A2, B2, C1.
    g = game_from(&go(5), &fen_dots("...../...../...../XX.../xx... b"), &["C1"]);
    assert_eq!(stones(g.current(), Side::SECOND), Vec::<String>::new());
    assert_eq!(stones(g.current(), Side::FIRST), ["A2", "B2", "C1"]);
}

#[test]
fn suicide_of_one_stone_is_illegal() {
    // White to move; A1 has no liberty once filled, and black B1, A2 keep theirs.
    let pos = go(5).from_fen(&fen_dots("...../...../...../X..../.X... w")).expect("FEN");
    let a1 = at(&pos, "A1");
    assert!(!arbiter_moves(&pos).contains(&Some(a1)));
    let stone = pos.form_of_place(pos.legal_moves()[0]).expect("a placing move");
    assert_eq!(pos.place_problem(stone, a1), Some("suicide"));
    let Ruling::Illegal(i) = pos.explain("A1") else {
        panic!("A1 is suicide")
    };
    assert_eq!((i.code, i.clause.as_deref()), ("suicide", Some("Weiqi 5")));
    assert_eq!(
        i.message,
        "white's stone on A1 would leave itself without liberties and capture nothing"
    );
    // The same point is fine for black, whose stones surround it.
    let pos = go(5).from_fen(&fen_dots("...../...../...../X..../.X... b")).expect("FEN");
    assert!(arbiter_moves(&pos).contains(&Some(a1)));
}

#[test]
fn suicide_of_a_chain_is_illegal() {
    // White A2 would join A1; the chain A1-A2 would have no liberty and capture nothing.
    let pos = go(5).from_fen(&fen_dots("...../...../X..../.X.../xX... w")).expect("FEN");
    assert!(!arbiter_moves(&pos).contains(&Some(at(&pos, "A2"))));
    let Ruling::Illegal(i) = pos.explain("A2") else {
        panic!("A2 is suicide")
    };
    assert_eq!((i.code, i.clause.as_deref()), ("suicide", Some("Weiqi 5")));
    assert!(i.message.contains("its chain (with A1)"), "{}", i.message);
}

#[test]
fn a_move_that_looks_like_suicide_but_captures_is_legal() {
    // Black A1 has no empty neighbour, but white B1 and A2 each have A1 as their last liberty.
    let mut g = game_from(&go(5), &fen_dots("...../...../X..../xX.../.xX.. b"), &[]);
    let Ruling::Legal { message, .. } = g.current().explain("A1") else {
        panic!("A1 captures")
    };
    assert_eq!(message, "black places a stone on A1 and captures 2 stones (B1, A2)");
    play(&mut g, &["A1"]);
    assert_eq!(stones(g.current(), Side::SECOND), Vec::<String>::new());
    assert!(stones(g.current(), Side::FIRST).contains(&"A1".to_string()));
}

/// A ko in the middle of a 5×5 board: black D3 takes white C3, and white C3 would take D3 back.
const KO: &str = "...../..Xx./.Xx.x/..Xx./..... b";

#[test]
fn simple_ko_the_immediate_recapture_is_illegal() {
    for engine in [
        go(5),
        Engine::new(rules_from("tests/variants/go-simple-ko.rules", &[("size", "5")])),
    ] {
        let mut g = game_from(&engine, &fen_dots(KO), &["D3"]);
        assert_eq!(stones(g.current(), Side::SECOND), ["D2", "D4", "E3"], "D3 captured C3");
        let pos = g.current();
        assert!(!arbiter_moves(pos).contains(&Some(at(pos, "C3"))));
        assert_eq!(illegal_code(pos, "C3"), ("repetition", Some("Weiqi 6".to_string())));
        // After an exchange elsewhere the board differs, and the recapture is legal.
        play(&mut g, &["A1", "E5", "C3"]);
        assert_eq!(stones(g.current(), Side::FIRST), ["B3", "C2", "C4", "E5"], "C3 took D3 back");
    }
}

/// Found by playing seeded random games on 3×3 with the oracle and looking for a move that simple
/// ko allows and positional superko forbids: white C3 takes two stones (C1, C2), and black C2 takes
/// C3 back, which recreates the board after move 4, three moves earlier.
const SUPERKO_LINE: [&str; 6] = ["B3", "B1", "C2", "B2", "C1", "C3"];

#[test]
fn positional_superko_forbids_a_cycle_that_simple_ko_allows() {
    let g = game_from(&go(3), &go(3).start().fen(), &SUPERKO_LINE);
    let pos = g.current();
    assert_eq!(stones(pos, Side::FIRST), ["B3"], "C3 captured C1 and C2");
    assert_eq!(illegal_code(pos, "C2"), ("repetition", Some("Weiqi 6".to_string())));
    assert!(!arbiter_moves(pos).contains(&Some(at(pos, "C2"))));
    // The oracle agrees: simple ko allows C2, positional superko does not.
    let mut oracle = Naive::empty(3);
    for m in SUPERKO_LINE {
        oracle.play(Some(at(pos, m)));
    }
    assert_eq!(oracle.try_place(at(pos, "C2")).map(|_| ()), Err("repetition"));
    oracle.ko = Ko::Simple;
    assert!(oracle.try_place(at(pos, "C2")).is_ok());
    // Under `forbid repetition ko` the cycle goes round: C2 recaptures and the board repeats.
    let variant = Engine::new(rules_from("tests/variants/go-simple-ko.rules", &[("size", "3")]));
    let mut g = game_from(&variant, &variant.start().fen(), &SUPERKO_LINE);
    play(&mut g, &["C2"]);
    assert_eq!(board_of(g.current()), board_of(&g.positions()[4]), "the board after move 4 again");
    assert_eq!(stones(g.current(), Side::FIRST), ["B3", "C2"]);
}

#[test]
fn taking_moves_back_keeps_the_repetition_record() {
    let mut g = game_from(&go(3), &go(3).start().fen(), &SUPERKO_LINE);
    assert_eq!(g.undo().map(|m| uci::to_text(&g.positions()[4], m)).as_deref(), Some("C3"));
    assert_eq!(g.undo().map(|m| uci::to_text(&g.positions()[3], m)).as_deref(), Some("C1"));
    // Played again, the line reaches the same cycle, which the record still forbids.
    play(&mut g, &["C1", "C3"]);
    let pos = g.current();
    assert_eq!(illegal_code(pos, "C2"), ("repetition", Some("Weiqi 6".to_string())));
    assert!(!arbiter_moves(pos).contains(&Some(at(pos, "C2"))));
}

/// A game of 300 random legal moves on 19 × 19 (written by Arbiter's SGF writer from seeded random
/// play). Every position used to carry the board snapshots of all the moves before it, so memory
/// grew with the square of the length (`arbiter play go --sgf` on it peaked at 591 MiB).
#[test]
fn a_long_game_costs_a_constant_per_ply() {
    let text = std::fs::read_to_string(root().join("tests/go/random-300-19x19.sgf")).expect("the record");
    let rec = sgf::parse(&text).expect("valid SGF");
    let engine = go_with(&[("size", "19")]);
    let moves = rec.gtp_moves().expect("alternating");
    let g = game_from(
        &engine,
        &engine.start().fen(),
        &moves.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(g.ply(), 300);
    // One position with its chains, at most twice over for the vector's spare room, per position.
    let one = std::mem::size_of::<Position>() + engine.start().heap_bytes();
    let bound = 2 * (g.ply() + 1) * one;
    let held = g.heap_bytes();
    assert!(
        held <= bound,
        "{held} bytes for {} plies, over {bound} ({one} per position)",
        g.ply()
    );
    assert!(held < 40 << 20, "{held} bytes");
}

#[test]
fn two_passes_end_the_game_and_one_does_not() {
    let engine = go(9);
    let one = game_from(&engine, &engine.start().fen(), &["pass"]);
    assert_eq!(one.outcome().status, Status::Ongoing);
    let apart = game_from(&engine, &engine.start().fen(), &["pass", "E5", "pass"]);
    assert_eq!(apart.outcome().status, Status::Ongoing, "passes that are not consecutive");
    let two = game_from(&engine, &engine.start().fen(), &["E5", "pass", "pass"]);
    let o = two.outcome();
    assert_eq!(
        (o.status, o.reason.as_deref(), o.clause.as_deref()),
        (Status::Win, Some("score"), Some("Weiqi 9"))
    );
    assert_eq!(o.message(two.current()), "the last 2 moves were passes: black wins");
    // One black stone on an empty board owns it all: 81 to 0, less komi.
    assert_eq!(o.result_text(engine.rules()).as_deref(), Some("B+73.5"));
}

/// A finished 9×9 game. Black's wall runs down column E from row 8 and turns to F9; white's runs down
/// column F from row 8 and turns to G9:
/// ```text
///   9 . . . . . X O . .
///   8 . . . . X O . . .     (rows 7 to 1 as row 8)
///     A B C D E F G H J
/// ```
/// Black: 9 stones + A1–D8 (32) + A9–E9 (5) = 46. White: 9 stones + G1–J8 (24) + H9, J9 (2) = 35.
/// 46 + 35 = 81. With komi 7.5: 46 − 35 − 7.5 = 3.5, `B+3.5`.
const FINISHED_9X9: &str = "5Xx2/4Xx3/4Xx3/4Xx3/4Xx3/4Xx3/4Xx3/4Xx3/4Xx3 b";

#[test]
fn a_finished_9x9_game_is_scored_by_area_with_komi() {
    let engine = go(9);
    let g = game_from(&engine, FINISHED_9X9, &["pass", "pass"]);
    let o = g.outcome();
    let score = o.score.expect("a scored game");
    assert_eq!((score.points, score.komi), ([46.0, 35.0], 7.5));
    assert_eq!((o.status, o.winner), (Status::Win, Some(Side::FIRST)));
    assert_eq!(o.result_text(engine.rules()).as_deref(), Some("B+3.5"));
    // Komi is a parameter: without it black wins by the 11 points of the board.
    let no_komi = go_with(&[("size", "9"), ("komi", "0")]);
    let o = game_from(&no_komi, FINISHED_9X9, &["pass", "pass"]).outcome();
    assert_eq!(o.result_text(no_komi.rules()).as_deref(), Some("B+11"));
}

#[test]
fn equal_areas_without_komi_are_a_draw() {
    // 4×4: black B1–B4 and the A file, white C1–C4 and the D file: 8 points each.
    let even = "1Xx1/1Xx1/1Xx1/1Xx1 b";
    let jigo = go_with(&[("size", "4"), ("komi", "0")]);
    let o = game_from(&jigo, even, &["pass", "pass"]).outcome();
    assert_eq!(o.score.map(|s| s.points), Some([8.0, 8.0]));
    assert_eq!((o.status, o.winner), (Status::Draw, None));
    assert_eq!(o.result_text(jigo.rules()).as_deref(), Some("0"));
    // With the default komi white wins by it.
    let o = game_from(&go(4), even, &["pass", "pass"]).outcome();
    assert_eq!((o.status, o.winner), (Status::Win, Some(Side::SECOND)));
    assert_eq!(o.result_text(go(4).rules()).as_deref(), Some("W+7.5"));
}

/// Seki on 5×5: black (A, B files and C1–C3, 13 stones) and white (D, E files, 10 stones) share
/// their only two liberties, C4 and C5. Whoever fills one is captured by the other filling the
/// second, so neither does. The shared region C4–C5 is split: black 13 + 1 = 14, white 10 + 1 = 11.
const SEKI: &str = "XX.xx/XX.xx/XXXxx/XXXxx/XXXxx b";

#[test]
fn seki_points_are_shared_half_and_half() {
    let engine = go(5);
    let o = game_from(&engine, &fen_dots(SEKI), &["pass", "pass"]).outcome();
    assert_eq!(o.score.map(|s| s.points), Some([14.0, 11.0]));
    assert_eq!(o.result_text(engine.rules()).as_deref(), Some("W+4.5"));
    // It is seki: black filling C4 lets white take all 14 black stones with C5, and the other way.
    let g = game_from(&engine, &fen_dots(SEKI), &["C4", "C5"]);
    assert_eq!(
        (stones(g.current(), Side::FIRST).len(), stones(g.current(), Side::SECOND).len()),
        (0, 11)
    );
    let g = game_from(&engine, &fen_dots(SEKI), &["pass", "C4", "C5"]);
    assert_eq!(
        (stones(g.current(), Side::FIRST).len(), stones(g.current(), Side::SECOND).len()),
        (14, 0)
    );
}

#[test]
fn stones_marked_dead_are_removed_before_counting() {
    // The finished game with a white stone left inside black's area at B2.
    let engine = go(9);
    let fen = FINISHED_9X9
        .replacen("4Xx3 b", "1x2Xx3 b", 1)
        .replacen("4Xx3/1x2Xx3 b", "1x2Xx3/4Xx3 b", 1);
    let mut g = game_from(&engine, &fen, &["pass", "pass"]);
    assert_eq!(g.current().piece_at(at(g.current(), "B2")).map(|(_, s)| s), Some(Side::SECOND));
    // Alive, it makes black's 36 empty points shared: black 9 + 18 = 27, white 10 + 18 + 26 = 54.
    let o = g.outcome();
    assert_eq!(o.score.map(|s| s.points), Some([27.0, 54.0]));
    assert_eq!(o.result_text(engine.rules()).as_deref(), Some("W+34.5"));
    // Dead, it is removed: the count of the finished game, black 46, white 35.
    g.set_dead(vec![at(g.current(), "B2")]);
    let o = g.outcome();
    assert_eq!(o.score.map(|s| s.points), Some([46.0, 35.0]));
    assert_eq!(o.result_text(engine.rules()).as_deref(), Some("B+3.5"));
}

#[test]
fn the_size_parameter_sets_the_board() {
    for (size, points) in [(9, 81), (13, 169), (19, 361)] {
        let start = go(size).start();
        assert_eq!(start.rules().board.squares(), points);
        assert_eq!(start.legal_moves().len(), points + 1, "every point and the pass on {size}×{size}");
    }
    // The default is 19.
    assert_eq!(Engine::new(rules_from("rulesets/go.rules", &[])).start().legal_moves().len(), 362);
}

// ---------------------------------------------------------------------------------------- SGF

#[test]
fn sgf_round_trip_of_a_played_game() {
    let engine = go(9);
    // A start with setup stones and white to move, then a seeded random game ended by two passes.
    let start = engine
        .from_fen(&fen_dots(
            "........./........./..X....../........./....x..../........./......X../........./......... w",
        ))
        .expect("FEN");
    let mut g = Game::new(engine.clone(), start);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..60 {
        let moves = g.current().legal_moves();
        let places: Vec<_> = moves.iter().filter(|m| m.kind != MoveKind::Pass).copied().collect();
        g.play(places[rng.gen_range(0..places.len())]);
    }
    play(&mut g, &["pass", "pass"]);
    let text = sgf::write(&g);
    assert!(text.starts_with("(;FF[4]GM[1]"), "{text}");
    assert!(text.contains("SZ[9]KM[7.5]"), "{text}");
    let re = g.outcome().result_text(engine.rules()).expect("the game is over");
    assert!(text.contains(&format!("RE[{re}]")), "{text}");
    assert!(text.contains("AB[gg][cc]AW[ee]PL[W]"), "{text}");
    assert!(text.ends_with("\n;W[]\n;B[])\n"), "passes as empty values: {text}");

    let rec = sgf::parse(&text).expect("Arbiter's own SGF reads back");
    assert_eq!((rec.size, rec.komi), (9, Some(7.5)));
    assert_eq!(rec.black_setup, vec![(6, 6), (2, 2)], "G3, C7 as (column, row from top)");
    assert_eq!(rec.white_setup, vec![(4, 4)]);
    let start = engine
        .position(&rec.setup(engine.rules()).expect("fits go.rules"))
        .expect("a legal start");
    assert_eq!(start.fen(), g.positions()[0].fen());
    let written: Vec<String> = g.positions().iter().zip(g.moves()).map(|(p, m)| uci::to_text(p, *m)).collect();
    assert_eq!(rec.gtp_moves().expect("alternating"), written);
    // Replayed from the record, the game ends where it ended.
    let replay = game_from(
        &engine,
        &engine
            .position(&rec.setup(engine.rules()).expect("fits"))
            .expect("a legal start")
            .fen(),
        &written.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(board_of(replay.current()), board_of(g.current()));
    assert_eq!(replay.outcome(), g.outcome());
    assert_eq!(sgf::write(&replay), text);
}

#[test]
fn sgf_record_of_a_real_game_replays_to_its_result() {
    let text = std::fs::read_to_string(root().join("tests/go/teaching-9x9.sgf")).expect("the record");
    let rec = sgf::parse(&text).expect("valid SGF");
    assert_eq!((rec.size, rec.komi, rec.moves.len()), (9, Some(6.5), 29));
    let engine = go_with(&[("size", "9"), ("komi", "6.5")]);
    let moves = rec.gtp_moves().expect("alternating");
    assert_eq!(&moves[..4], ["E5", "D5", "D4", "F4"]);
    let g = game_from(
        &engine,
        &engine
            .position(&rec.setup(engine.rules()).expect("fits"))
            .expect("a legal start")
            .fen(),
        &moves.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert_eq!(g.outcome().result_text(engine.rules()).as_deref(), Some("B+2.5"), "the record's RE");
    // Written back and read again, the main line is the same.
    let again = sgf::parse(&sgf::write(&g)).expect("valid");
    assert_eq!(again.gtp_moves().expect("alternating"), moves);
}

#[test]
fn the_command_line_replays_an_sgf_record() {
    let Run { code, stdout, stderr } = arbiter(&["play", "go", "--sgf", "tests/go/teaching-9x9.sgf", "--json"]);
    assert_eq!(code, Some(0), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON value");
    assert_eq!(
        v,
        serde_json::json!({
            "position": "1X3Xx2/X4Xx2/5Xx2/3XXx3/2X1Xx1x1/3XXx3/3Xx4/3Xx2x1/3Xx4 w - - 29 15",
            "to_move": "white",
            "ply": 29,
            "status": "win",
            "winner": "black",
            "reason": "score",
            "clause": "Weiqi 9",
            "claimable": [],
            "claim_moves": {},
            "result": "B+2.5",
            "score": {"black": 45.0, "white": 36.0},
            "check": false,
            "message": "the last 2 moves were passes: black wins",
        })
    );
    // A komi given on the command line wins over the record's KM.
    let Run { stdout, .. } = arbiter(&["play", "go", "--sgf", "tests/go/teaching-9x9.sgf", "--param", "komi=0", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON value");
    assert_eq!(v["result"], "B+9");
}

#[test]
fn the_command_line_reports_a_bad_sgf_record_by_line_and_column() {
    let dir = std::env::temp_dir().join(format!("arbiter-go-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let broken = dir.join("broken.sgf");
    std::fs::write(&broken, "(;GM[1]SZ[9]\n;B[ee];W[zz])").expect("write");
    let Run { code, stderr, .. } = arbiter(&["play", "go", "--sgf", broken.to_str().expect("UTF-8 path")]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("line 2, column 9: `zz` is not a point of a 9 × 9 board"),
        "{stderr}"
    );
    // A legal record of an illegal game: the second stone lands on the first.
    let illegal = dir.join("illegal.sgf");
    std::fs::write(&illegal, "(;GM[1]SZ[9];B[ee];W[ee])").expect("write");
    let Run { code, stdout, stderr } = arbiter(&["play", "go", "--sgf", illegal.to_str().expect("UTF-8 path"), "--json"]);
    assert_eq!(code, Some(2), "{stderr}");
    let v: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON value");
    assert_eq!(
        (v["error"].as_str(), v["ply"].as_u64(), v["reason"].as_str()),
        (Some("illegal-move"), Some(2), Some("occupied"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// GNU Go, the reference for the fixed handicap points (GTP's `fixed_handicap`): installed by
/// `scripts/setup` (Debian's `gnugo`, in /usr/games).
fn gnugo() -> std::path::PathBuf {
    ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .iter()
        .map(std::path::PathBuf::from)
        .find(|p| p.exists())
        .expect("GNU Go is not installed: run scripts/setup (Debian package gnugo)")
}

/// GNU Go's answer to `fixed_handicap n` on a `size` board: the points, or `None` where it refuses.
fn gnugo_handicap(size: usize, n: usize) -> Option<Vec<String>> {
    use std::io::Write;
    let mut child = std::process::Command::new(gnugo())
        .args(["--mode", "gtp"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("GNU Go starts");
    write!(child.stdin.take().expect("stdin"), "boardsize {size}\nfixed_handicap {n}\nquit\n").expect("GTP commands written");
    let out = child.wait_with_output().expect("GNU Go answers");
    let text = String::from_utf8_lossy(&out.stdout);
    // Three answers: `=` (boardsize), the points or `? invalid handicap`, `=` (quit).
    let answer = text.split("\n\n").nth(1).unwrap_or_else(|| panic!("GNU Go said {text:?}"));
    if answer.starts_with('?') {
        return None;
    }
    let mut points: Vec<String> = answer.trim_start_matches('=').split_whitespace().map(str::to_string).collect();
    points.sort();
    Some(points)
}

/// On every board size GNU Go plays (7 to 19 lines) and every handicap from 2 to 9, the ruleset
/// puts black's stones exactly where GNU Go's `fixed_handicap` does, with white to move, and
/// refuses the handicaps GNU Go refuses.
#[test]
fn handicap_stones_stand_on_gnugos_fixed_points() {
    let mut compared = 0;
    for size in 7..=19usize {
        for n in 2..=9usize {
            let params = [("size", size.to_string()), ("handicap", n.to_string())];
            let params: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let owned: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            let checked = arbiter::check::check_file(&root().join("rulesets/go.rules"), &owned);
            match (gnugo_handicap(size, n), checked.rules) {
                (Some(want), Some(rules)) => {
                    let start = Engine::new(rules).start();
                    let mut black = stones(&start, Side::FIRST);
                    black.sort();
                    assert_eq!(black, want, "{size} × {size}, handicap {n}");
                    assert!(stones(&start, Side::SECOND).is_empty());
                    assert_eq!(start.side_to_move(), Side::SECOND, "white moves first after the handicap");
                    compared += 1;
                }
                (None, None) => {
                    let messages: Vec<&str> = checked.diagnostics.items.iter().map(|d| d.message.as_str()).collect();
                    assert!(
                        messages.iter().any(|m| m.contains("handicap stones")),
                        "{size} × {size}, handicap {n}: {messages:?}"
                    );
                }
                (want, got) => panic!(
                    "{size} × {size}, handicap {n}: GNU Go {want:?}, Arbiter accepts it: {}",
                    got.is_some()
                ),
            }
        }
    }
    assert_eq!(
        compared,
        6 * 8 + 7 * 3,
        "odd sizes from 9 take 2 to 9 stones, the others (7 included) 2 to 4"
    );
}

/// The compensation replaces komi in a handicap game: an untouched 9 × 9 board with black's 2
/// stones counts 81 to 0, less 2 for white (not 7.5); an even game keeps komi.
#[test]
fn a_handicap_game_counts_the_compensation_instead_of_komi() {
    let e = go_with(&[("size", "9"), ("handicap", "2")]);
    let mut g = Game::new(e.clone(), e.start());
    play(&mut g, &["pass", "pass"]);
    let o = g.outcome();
    assert_eq!(o.winner, Some(Side::FIRST));
    assert_eq!(o.score.expect("a scored game").margin(), 79.0);
    let even = go_with(&[("size", "9"), ("handicap", "0")]);
    let mut g = Game::new(even.clone(), even.start());
    play(&mut g, &["pass", "pass"]);
    assert_eq!(g.outcome().score.expect("a scored game").margin(), -7.5);
}

/// An SGF handicap record (`HA`, its stones as `AB`, white first) is read with the handicap's
/// compensation, and written back with `HA` and the komi it was counted with.
#[test]
fn sgf_handicap_records_read_and_write_the_handicap() {
    let text = "(;FF[4]GM[1]SZ[9]HA[2]KM[0.5]AB[gc][cg]PL[W];W[ee];B[];W[])";
    let path = std::env::temp_dir().join(format!("arbiter-handicap-{}.sgf", std::process::id()));
    std::fs::write(&path, text).expect("a temporary file");
    let out = arbiter(&["play", "go", "--sgf", path.to_str().expect("a UTF-8 path"), "--json"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    // Black 2 stones + its area, white the rest: the count uses the compensation 2, not KM[0.5].
    assert_eq!(v["status"], "win", "{v}");
    let (b, w) = (v["score"]["black"].as_f64().unwrap(), v["score"]["white"].as_f64().unwrap());
    let margin = b - w - 2.0;
    let result = if margin > 0.0 {
        format!("B+{margin}")
    } else {
        format!("W+{}", -margin)
    };
    assert_eq!(v["result"], result.as_str(), "{v}");
    let e = go_with(&[("size", "9"), ("handicap", "2")]);
    let written = sgf::write(&Game::new(e.clone(), e.start()));
    assert!(
        written.contains("HA[2]") && written.contains("KM[2]") && written.contains("PL[W]"),
        "{written}"
    );
    let back = sgf::parse(&written).expect("what Arbiter writes, it reads");
    assert_eq!(back.handicap, Some(2));
    assert_eq!(back.black_setup.len(), 2);
}
