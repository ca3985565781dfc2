//! Property tests of every entry point that reads text a user wrote: rules, FEN, moves in SAN,
//! coordinates and WXF, PGN/WXF/SGF records, RON scenarios, and the engine protocols' command
//! streams (UCI, GTP, with bytes that are not UTF-8); and of the writers on a full disk. Each case mutates a valid input
//! (deletes, duplicates, inserts tokens and odd characters, swaps lines) and asserts that the library
//! neither panics nor runs long, and that an error points inside the input.
//!
//! A few thousand cases run with `cargo test`, the same ones every time; `ARBITER_FUZZ_CASES=N` runs
//! N per entry point instead and `ARBITER_FUZZ_SEED=S` draws other cases (a long run:
//! `ARBITER_FUZZ_CASES=250000 ARBITER_FUZZ_SEED=7 cargo test --release -p arbiter --test fuzz`).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use arbiter::check::check_source;
use arbiter::game::{Engine, Game};
use arbiter::notation::record::{self, Format};
use arbiter::scenario;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use common::root;

/// `ARBITER_FUZZ_CASES`, where it is set to a number.
fn cases_asked() -> Option<u32> {
    std::env::var("ARBITER_FUZZ_CASES").ok().and_then(|v| v.parse().ok())
}

/// Cases per entry point run in the test's own process: `ARBITER_FUZZ_CASES`, or `default`.
fn cases(default: u32) -> u32 {
    cases_asked().unwrap_or(default)
}

/// Cases per entry point whose case is a whole session (the `arbiter` binary started, or a
/// language server run with its checker thread): a hundredth of `ARBITER_FUZZ_CASES` (at least
/// one), or `default`. Such a case costs what a hundred or more of the others do (an engine
/// session plays its `go` commands), so a long run deepens every entry point without one of them
/// taking hours.
fn session_cases(default: u32) -> u32 {
    cases_asked().map_or(default, |n| (n / 100).max(1))
}

/// The longest one case may take (a debug build on a slow machine): far above what any takes, far
/// below a hang.
const SLOW: Duration = Duration::from_secs(10);

/// Pieces of text that tend to break readers: the language's own words, brackets, numbers at and
/// past every integer width, odd characters.
const TOKENS: &[&str] = &[
    " ",
    "\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "..",
    ",",
    "|",
    "#",
    "\"",
    "->",
    ":",
    "=",
    "/",
    "-",
    "+",
    "~",
    "@",
    "*",
    "piece",
    "zone",
    "step",
    "slide",
    "leap",
    "hop",
    "jump",
    "drop",
    "place",
    "promotes",
    "castle",
    "extends",
    "override",
    "setup",
    "board",
    "end",
    "forbid",
    "allow",
    "param",
    "within",
    "from",
    "to",
    "blocked at",
    "over",
    "falling",
    "enclosed",
    "in a row",
    "hexes",
    "any",
    "orthogonal",
    "diagonal",
    "forward",
    "royal",
    "0",
    "1",
    "9",
    "08",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "-1",
    "-9223372036854775808",
    "99999999999999999999",
    "é",
    "帥",
    "\u{0}",
    "\u{feff}",
    "\t",
    "\r\n",
    "1.",
    "...",
    "O-O",
    "O-O-O",
    "=Q",
    "e8=",
    "x",
    "P@",
    "K",
    "k",
    "Q",
    ";",
    "B[",
    "W[",
    "SZ[",
    "AB[",
    "(;",
    "START{",
    "}END",
    "FORMAT WXF",
    "Fen(\"",
    "Play(\"",
    "Random(plies: ",
    "steps: [",
    "expect: [",
    // The third family: turns of parts, counts, phases, neutral pieces, holes, goals.
    "turn",
    "then",
    "if it captured:",
    "moving it",
    "count",
    "plus 1 for each",
    "less",
    "phase",
    "during",
    "until each hand is empty",
    "neutral",
    "cells",
    "where",
    "points",
    "surrounded",
    "exploding",
    "either side up",
    "leaving a copy",
    "next to own",
    "connects",
    "ring",
    "3+3",
    "0+0",
    "[HEhe]",
    "KQBCDFGkqbcdfg",
    "h",
    ",e4d5",
    ",",
    // Chance: rolls, tracks, hits sent back.
    "roll",
    "roll:",
    "roll:3",
    "roll 2 dice of 6 summed",
    "coins",
    "one of 1, 2",
    "track",
    "along lane by roll",
    "move along",
    "go back to hand",
];

/// One edit of a text: where (a fraction of its length), what, and with which token.
#[derive(Clone, Debug)]
enum Edit {
    Delete { at: u32, len: u8 },
    Insert { at: u32, token: usize },
    Duplicate { at: u32, len: u8 },
    SwapLines { a: u32, b: u32 },
    Byte { at: u32, byte: u8 },
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (any::<u32>(), any::<u8>()).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<u32>(), 0..TOKENS.len()).prop_map(|(at, token)| Edit::Insert { at, token }),
        (any::<u32>(), any::<u8>()).prop_map(|(at, len)| Edit::Duplicate { at, len }),
        (any::<u32>(), any::<u32>()).prop_map(|(a, b)| Edit::SwapLines { a, b }),
        (any::<u32>(), 0x20u8..0x7f).prop_map(|(at, byte)| Edit::Byte { at, byte }),
    ];
    prop::collection::vec(edit, 1..6)
}

/// The nearest character boundary at or before `at % (len + 1)`.
fn place(text: &str, at: u32) -> usize {
    let mut i = at as usize % (text.len() + 1);
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut s = text.to_string();
    for e in edits {
        match *e {
            Edit::Delete { at, len } => {
                let a = place(&s, at);
                let b = place(&s, (a + len as usize % 24) as u32 % (s.len() as u32 + 1)).max(a);
                s.replace_range(a..b, "");
            }
            Edit::Insert { at, token } => {
                let a = place(&s, at);
                s.insert_str(a, TOKENS[token]);
            }
            Edit::Duplicate { at, len } => {
                let a = place(&s, at);
                let b = place(&s, (a + len as usize) as u32 % (s.len() as u32 + 1)).max(a);
                let piece = s[a..b].to_string();
                s.insert_str(b, &piece);
            }
            Edit::SwapLines { a, b } => {
                let mut lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let (i, j) = (a as usize % lines.len(), b as usize % lines.len());
                    lines.swap(i, j);
                }
                s = lines.join("\n");
            }
            Edit::Byte { at, byte } => {
                let a = place(&s, at);
                let end = s[a..].chars().next().map_or(a, |c| a + c.len_utf8());
                s.replace_range(a..end, &(byte as char).to_string());
            }
        }
    }
    s
}

/// Runs `check` on `cases` mutations of `seeds` (each case mutates one of them), reporting the
/// input of a failing case.
fn fuzz(name: &str, cases: u32, seeds: &[String], check: impl Fn(&str) -> Result<(), String>) {
    // The same cases every run unless `ARBITER_FUZZ_SEED` picks others: a test run must not fail
    // by chance, and a failure found in a long run is replayed by its seed.
    let seed: u64 = std::env::var("ARBITER_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(2026);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new_with_rng(config, rng);
    let strategy = (0..seeds.len(), edits());
    let result = runner.run(&strategy, |(seed, e)| {
        let text = mutate(&seeds[seed], &e);
        let start = Instant::now();
        let verdict = check(&text);
        let took = start.elapsed();
        prop_assert!(took < SLOW, "{name}: {took:?} on {text:?}");
        if let Err(why) = verdict {
            prop_assert!(false, "{name}: {why}\ninput: {text:?}");
        }
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A 1-based (line, column) lies inside `text` (or just past its end).
fn inside(text: &str, line: usize, column: usize) -> bool {
    let lines: Vec<&str> = text.split('\n').collect();
    line >= 1 && line <= lines.len() && column >= 1 && column <= lines[line - 1].chars().count() + 1
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every diagnostic points inside its file and says something; the report renders.
fn diagnostics_in_place(checked: &arbiter::check::Checked) -> Result<(), String> {
    for d in &checked.diagnostics.items {
        let span = d.span;
        if !(span.start <= span.end && span.end as usize <= checked.sources.text(span.file).len()) {
            return Err(format!("diagnostic `{}` points outside its file: {span:?}", d.message));
        }
        if d.message.trim().is_empty() {
            return Err(format!("diagnostic {} has no message", d.code));
        }
    }
    let _ = arbiter::diag::render(&checked.sources, &checked.diagnostics, false);
    Ok(())
}

#[test]
fn mutated_rulesets_get_diagnostics_inside_the_text_and_never_a_panic() {
    let seeds: Vec<String> = [
        "chess",
        "xiangqi",
        "go",
        "draughts",
        "othello",
        "crazyhouse",
        "hex",
        "connect-four",
        "chinese-checkers",
        "ludo",
        "four-player-chess",
    ]
    .iter()
    .map(|n| read(&format!("rulesets/{n}.rules")))
    .collect();
    fuzz("rules", cases(600), &seeds, |text| {
        let checked = check_source("fuzz.rules", text, None, &[]);
        diagnostics_in_place(&checked)?;
        if let Some(rules) = checked.rules
            && checked
                .diagnostics
                .items
                .iter()
                .all(|d| d.severity != arbiter::diag::Severity::Error)
        {
            // What checks clean runs: a position, its moves, one ply of each, the outcome.
            let engine = Engine::new(rules);
            let start = engine.start();
            let moves = start.legal_moves();
            for m in moves.iter().take(40) {
                let mut p = start.clone();
                p.play_unchecked(*m);
                let _ = p.legal_moves();
                let _ = p.fen();
            }
            let _ = Game::new(engine.clone(), start).outcome();
        }
        Ok(())
    });
}

/// The formatter on the same mutated rulesets: a file it refuses is one that does not parse;
/// what it writes formats to itself and checks to the same rules with the same messages.
#[test]
fn mutated_rulesets_format_to_the_same_meaning_or_are_refused() {
    use arbiter::syntax::format::{FormatError, format};
    let seeds: Vec<String> = ["chess", "xiangqi", "go", "draughts", "duck-chess", "othello", "hex"]
        .iter()
        .map(|n| read(&format!("rulesets/{n}.rules")))
        .collect();
    fuzz("format", cases(1000), &seeds, |text| {
        let new = match format(text) {
            Ok(new) => new,
            Err(FormatError::Syntax(_)) => return Ok(()),
            Err(e) => return Err(format!("refused for another reason than syntax: {e}")),
        };
        match format(&new) {
            Ok(again) if again == new => {}
            Ok(_) => return Err("formatting the output again changes it".into()),
            Err(e) => return Err(format!("the output does not format: {e}")),
        }
        let said = |c: &arbiter::check::Checked| -> Vec<String> {
            c.diagnostics.sorted().iter().map(|d| format!("{} {}", d.code, d.message)).collect()
        };
        let (before, after) = (
            check_source("fuzz.rules", text, None, &[]),
            check_source("fuzz.rules", &new, None, &[]),
        );
        if said(&before) != said(&after) {
            return Err(format!("the diagnostics changed: {:?} -> {:?}", said(&before), said(&after)));
        }
        if before.rules != after.rules {
            return Err("the formatted text checks to other rules".into());
        }
        Ok(())
    });
}

/// The language server's completion asks the grammar what may stand at a cursor: on mutated
/// rulesets, at offsets all through them (inside a character of several bytes too), it answers or
/// says it cannot, and never panics.
#[test]
fn completion_s_grammar_question_on_mutated_rulesets_never_panics() {
    let seeds: Vec<String> = ["chess", "duck-chess", "go", "xiangqi"]
        .iter()
        .map(|n| read(&format!("rulesets/{n}.rules")))
        .collect();
    fuzz("expect", cases(300), &seeds, |text| {
        let step = (text.len() / 40).max(1);
        for offset in (0..=text.len() + 2).step_by(step) {
            let _ = arbiter::syntax::expected_at(text, offset);
        }
        Ok(())
    });
}

#[test]
fn mutated_fens_and_moves_are_refused_with_a_message_and_never_a_panic() {
    let games = [
        (
            "chess",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 e5f7 e1g1 Nxf7 O-O a2a4 Qh3",
        ),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 h2e2 C2.5 H8+7 b1c3",
        ),
        (
            "crazyhouse",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Pn] w KQkq - 0 4 P@e6 N@d4 e4e5",
        ),
        (
            "draughts",
            "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 b - - 0 1 c3d4 a3b4",
        ),
        ("go", "9/9/9/9/9/9/9/9/9 b - - 0 1 e5 d4 pass"),
        // Side letter and kind letter per piece, in a game declared for six.
        (
            "chinese-checkers",
            "4gM12/4gMgM11/4gMgMgM10/4gMgMgMgM9/17/17/17/17/17/17/17/17/17/9rMrMrMrM4/10rMrMrM4/11rMrM4/12rM4 r - - 0 1 k3i5 f15h13 m1k3",
        ),
        // Pieces in hand with their side's letter, throws of a die, pawns hit back to hand.
        (
            "ludo",
            "11/11/11/11/11/11/11/11/4bP6/11/4bP6[rPrPrPrPbPbPgPgPgPgPyPyPyPyP] r - - 0 1 roll:6 e1 roll:2 e1e3 roll:6 a7",
        ),
        // Four sides with kings, partners and castling rights written per side (`rKbQ`).
        (
            "four-player-chess",
            "3yRyNyByKyQyByNyR3/3yPyPyPyPyPyPyPyP3/14/bRbP10gPgR/bNbP10gPgN/bBbP10gPgB/bQbP10gPgK/bKbP10gPgQ/bBbP10gPgB/bNbP10gPgN/bRbP10gPgR/14/3rPrPrPrPrPrPrPrP3/3rR3rKrB1rR3 r rKrQbKbQyKyQgKgQ - 0 1 h1f1 b7d7 g13g11 n8n10 i1c7",
        ),
        // The places of sides out of the game, in a game whose rules put no side out (refused).
        (
            "ludo",
            "11/11/11/11/11/11/11/4rP6/11/11/11[rPrPrPbPbPbPbPgPgPgPgP] r - - places:y4 0 1 roll:3 e4c5",
        ),
    ];
    let engines: Vec<Engine> = games.iter().map(|(n, _)| common::bundled(n)).collect();
    let seeds: Vec<String> = games.iter().enumerate().map(|(i, (_, s))| format!("{i}|{s}")).collect();
    fuzz("fen", cases(1200), &seeds, |text| {
        // The game is chosen by the unmutated prefix; a mangled prefix picks the first.
        let (i, rest) = text.split_once('|').unwrap_or(("0", text));
        let engine = &engines[i.parse::<usize>().unwrap_or(0) % engines.len()];
        // The FEN is the first fields; what follows are moves in every notation.
        let fields: Vec<&str> = rest.split(' ').collect();
        let cut = fields.len().min(6);
        let fen = fields[..cut].join(" ");
        match engine.from_fen(&fen) {
            Err(e) if e.to_string().trim().is_empty() => return Err("a FEN error without a message".into()),
            Err(_) => {}
            Ok(pos) => {
                let mut pos = pos;
                for m in &fields[cut..] {
                    if let Some(mv) = arbiter::notation::find(&pos, m) {
                        let _ = arbiter::notation::written(&pos, mv);
                        pos.play_unchecked(mv);
                        // What the engine writes, it reads.
                        if let Err(e) = engine.from_fen(&pos.fen()) {
                            return Err(format!("wrote {} but reading it back says: {e}", pos.fen()));
                        }
                    }
                    let _ = pos.explain(m);
                }
            }
        }
        Ok(())
    });
}

/// A move written reads back as itself, or (where two clauses with different effects give moves
/// between the same squares, written alike) as nothing: never as another move.
fn read_back(pos: &arbiter::game::Position, m: arbiter::game::Move, legal: &[arbiter::game::Move]) -> Result<(), String> {
    let text = arbiter::notation::written(pos, m);
    match arbiter::notation::find(pos, &text) {
        Some(found) if found == m => Ok(()),
        None if legal.iter().any(|&o| o != m && arbiter::notation::written(pos, o) == text) => Ok(()),
        other => Err(format!("`{text}` reads back as {other:?}, not {m:?}, at {}", pos.fen())),
    }
}

/// The rules of the third family (turns of parts, counts, phases, neutral pieces, custodial and
/// exploding captures, goals on chains): rulesets that stand alone, so a mutation keeps its meaning.
#[test]
fn mutated_rulesets_of_the_third_family_get_diagnostics_and_never_a_panic() {
    let seeds: Vec<String> = [
        "rulesets/duck-chess.rules",
        "rulesets/seirawan.rules",
        "rulesets/three-check.rules",
        "rulesets/atomic.rules",
        "rulesets/isolation.rules",
        "rulesets/tapatan.rules",
        "rulesets/lines-of-action.rules",
        "rulesets/y.rules",
        "rulesets/russian-draughts.rules",
        "tests/language/morris.rules",
        "tests/language/brandubh.rules",
        "tests/language/cloning.rules",
        "tests/language/havannah.rules",
        "tests/language/two-sided-drops.rules",
        "tests/language/amazons.rules",
        "rulesets/dice-race.rules",
        "rulesets/backgammon.rules",
    ]
    .iter()
    .map(|rel| read(rel))
    .collect();
    fuzz("rules III", cases(500), &seeds, |text| {
        let checked = check_source("fuzz.rules", text, None, &[]);
        diagnostics_in_place(&checked)?;
        if let Some(rules) = checked.rules
            && checked
                .diagnostics
                .items
                .iter()
                .all(|d| d.severity != arbiter::diag::Severity::Error)
        {
            // What checks clean plays: two plies of each of the first moves, written and read
            // back, the FEN read back, the outcome.
            let engine = Engine::new(rules);
            let start = engine.start();
            let legal = start.legal_moves();
            for m in legal.iter().take(24) {
                let mut p = start.clone();
                read_back(&p, *m, &legal)?;
                p.play_unchecked(*m);
                if let Some(&reply) = p.legal_moves().first() {
                    p.play_unchecked(reply);
                }
                if let Err(e) = engine.from_fen(&p.fen()) {
                    return Err(format!("wrote {} but reading it back says: {e}", p.fen()));
                }
            }
            let _ = Game::new(engine.clone(), start).outcome();
        }
        Ok(())
    });
}

/// FENs with the third family's fields: counts (`3+3`), gating letters in the hand and castling
/// field, neutral pieces (`*`), hands that feed a phase, promoted pieces (`~`), hex boards; a
/// game of chance's roll field (`roll:3`) with rolls among the moves; stacks (`(5C)`) and dice
/// used one by one (`roll:6-5`, `roll:4-4-4`) with moves in points (`13/8`, `bar/21`).
#[test]
fn mutated_fens_and_turns_of_the_third_family_are_refused_or_played_and_never_panic() {
    let games: [(&str, usize, &str); 10] = [
        (
            "rulesets/backgammon.rules",
            8,
            "(5C)3(3c)1(5c)4(2C)/(4c)3(3C)1(5C)4(2c)[c] w - - 0+0 roll:6-5 0 1 l2f2 13/8 roll:4-4 bar/21 roll:3-5 g1off:6 3-1: pass",
        ),
        (
            "rulesets/dice-race.rules",
            7,
            "1Rr1R/2R1r[r] w - - roll:3 3 8 pass roll:2 c2e2 roll:1 a1",
        ),
        (
            "rulesets/three-check.rules",
            7,
            "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 2+3 1 2 g7g6 Qxg6+ h7xg6",
        ),
        (
            "rulesets/seirawan.rules",
            6,
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKBHR[Ehe] b KQBCDFkqbcdfg - 1 2 b8c6e Bc4 Nf6/H O-O/Ee1",
        ),
        (
            "rulesets/duck-chess.rules",
            6,
            "rnbqkbnr/ppp1pppp/3p4/8/3*P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 g1f3,f3d5 Nf3,e6 e7e5,e5a3",
        ),
        ("rulesets/isolation.rules", 6, "3p2/6/6/6/6/6/6/*P4 b - - 1 1 d8d7,d7c6 b1b2,b2b3"),
        ("rulesets/tapatan.rules", 6, "3/1m1/M1M[Mmm] b - - 3 2 a3 b1 c3 b2a2"),
        (
            "rulesets/atomic.rules",
            6,
            "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2 d8d2 Qxd2 e1d2",
        ),
        ("tests/language/havannah.rules", 6, "7/7/7/3S3/7/7/3s3 w - - 2 2 d1 e1 c4"),
        ("tests/language/two-sided-drops.rules", 6, "G~2/2k/K2/3[P] w - - 2 8 P@b2 G@b2 a4a3"),
    ];
    let engines: Vec<Engine> = games.iter().map(|(rel, _, _)| common::engine(rel, &[])).collect();
    let seeds: Vec<String> = games.iter().enumerate().map(|(i, (_, _, s))| format!("{i}|{s}")).collect();
    fuzz("fen III", cases(800), &seeds, |text| {
        let (i, rest) = text.split_once('|').unwrap_or(("0", text));
        let i = i.parse::<usize>().unwrap_or(0) % engines.len();
        let engine = &engines[i];
        let fields: Vec<&str> = rest.split(' ').collect();
        let cut = fields.len().min(games[i].1);
        let fen = fields[..cut].join(" ");
        match engine.from_fen(&fen) {
            Err(e) if e.to_string().trim().is_empty() => return Err("a FEN error without a message".into()),
            Err(_) => {}
            Ok(mut pos) => {
                for m in &fields[cut..] {
                    let _ = pos.explain(m);
                    if let Some(mv) = arbiter::notation::find(&pos, m) {
                        read_back(&pos, mv, &pos.legal_moves())?;
                        pos.play_unchecked(mv);
                        if let Err(e) = engine.from_fen(&pos.fen()) {
                            return Err(format!("wrote {} but reading it back says: {e}", pos.fen()));
                        }
                    }
                }
            }
        }
        Ok(())
    });
}

#[test]
fn mutated_records_are_read_or_refused_at_a_place_inside_them() {
    let seeds = vec![
        "[Event \"Fuzz\"]\n[Site \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 {a comment} 6. Re1 b5 (6... d6) 7. Bb3 *\n".to_string(),
        "[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a8=Q+ Kd7 2. Qb7+ 1-0\n".to_string(),
        "FORMAT WXF\nGAME Chinese Chess\nRED A\nBLACK B\nSTART{\n1. C2.5 H8+7\n2. H2+3 R9.8\n3. R1.2 C8+4\n}END\n".to_string(),
        "(;GM[1]FF[4]SZ[9]KM[7.5]RU[Chinese];B[ee];W[dc];B[gc];W[cg](;B[eg])(;B[ff]);W[]C[pass])".to_string(),
        "(;GM[1]FF[4]SZ[19]HA[2]AB[dp][pd];W[dd];B[pp];W[qc])".to_string(),
        "[Event \"Notes\"]\n\n{before} 1. e4! $14 {[%clk 0:01:00] [%eval 0.2] fine} e5?! (1... c5 {x} ; line\n( {y} 1... e6 $2)) 2. Nf3 *\n"
            .to_string(),
        "(;FF[4]SZ[9]PB[A\\]]PW[B\\\\]C[game\\\n text];B[ee]TE[2]C[a];W[cc]BM[1](;B[dd]IT[])(;C[v];B[ff]DO[]C[b\\]]))".to_string(),
    ];
    let chess = common::bundled("chess");
    let xiangqi = common::bundled("xiangqi");
    let go = common::bundled("go");
    fuzz("records", cases(900), &seeds, |text| {
        for (format, engine) in [(Format::Pgn, &chess), (Format::Wxf, &xiangqi), (Format::Sgf, &go)] {
            match record::read(text, format) {
                Err(e) => {
                    if let Some((line, column)) = e.at
                        && !inside(text, line, column)
                    {
                        return Err(format!("{format:?} error at {line}:{column} lies outside the text: {e}"));
                    }
                }
                Ok(rec) => {
                    let Ok(start) = rec.start_position(engine) else {
                        continue;
                    };
                    let mut g = Game::new(engine.clone(), start);
                    let _ = record::play_line(&mut g, &rec.moves);
                    // What was read is written again with its comments, glyphs and headers, and
                    // the text written reads.
                    let Ok(r) = rec.replay(engine) else { continue };
                    let written = match format {
                        Format::Pgn => arbiter::notation::pgn::write_tree(&r.game, &rec.tags, &r.commentary, &r.variations).0,
                        Format::Sgf => arbiter::notation::sgf::write_tree(&r.game, &rec.tags, &r.commentary, &r.variations).0,
                        Format::Wxf => continue,
                    };
                    if let Err(e) = record::read(&written, format) {
                        return Err(format!("{format:?}: what was written does not read: {e}\n{written}"));
                    }
                }
            }
        }
        Ok(())
    });
}

#[test]
fn mutated_scenarios_are_refused_or_run_and_never_panic() {
    let dir = root().join("scenarios");
    let mut seeds = Vec::new();
    for sub in ["chess", "xiangqi", "go", "draughts", "crazyhouse"] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
            .expect("scenario folder")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ron"))
            .collect();
        files.sort();
        seeds.extend(files.iter().take(3).map(|p| std::fs::read_to_string(p).expect("scenario")));
    }
    let path = dir.join("chess").join("fuzz.ron");
    let runner = std::cell::RefCell::new(scenario::Runner::new(vec![root().join("rulesets")]));
    fuzz("scenarios", cases(300), &seeds, |text| {
        match scenario::parse(text, &path) {
            Err(e) if e.to_string().trim().is_empty() => return Err("a scenario error without a message".into()),
            Err(_) => {}
            Ok(s) => {
                let _ = runner.borrow_mut().run(&s, Path::new(&path));
            }
        }
        Ok(())
    });
}

/// Runs `arbiter` with `args`, `input` on its stdin and its stdout to `stdout` (piped when `None`),
/// killed past [`SLOW`]: (exit code, stdout, stderr), or why it failed the test.
fn run_binary(args: &[&str], input: &[u8], stdout: Option<std::fs::File>) -> Result<(Option<i32>, String, String), String> {
    let r = common::run_arbiter(args, input, stdout, SLOW)?;
    if r.stderr.contains("panicked") {
        return Err(format!("{args:?} panicked: {}", r.stderr));
    }
    Ok((r.code, r.stdout, r.stderr))
}

/// Mutated command streams to the engine protocols (and raw bytes among them): the engine ends at
/// the end of its input, never panics or hangs, and GTP answers every block with `=` or `?`.
#[test]
fn mutated_engine_sessions_are_answered_and_never_panic() {
    let seeds = vec![
        "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo movetime 20\nisready\nposition fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\ngo nodes 30\nd\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo movetime 10\nstop\nquit\n".to_string(),
        "1 protocol_version\n2 boardsize 9\nclear_board\nkomi 6.5\nplay b E5\nplay w C3\ngenmove b\nfixed_handicap 3\nundo\nshowboard\nfinal_score\nset_free_handicap A1 B2\nknown_command play\nlist_commands\nquit\n".to_string(),
    ];
    fuzz("engine sessions", session_cases(80), &seeds, |text| {
        let (args, gtp): (&[&str], bool) = if text.contains("protocol_version") || text.contains("boardsize") {
            (&["engine", "go", "--protocol", "gtp", "--param", "size=9"], true)
        } else {
            (&["engine", "chess", "--protocol", "uci"], false)
        };
        // A stray byte that is not UTF-8 in the middle of the stream, as a broken pipe may deliver.
        let mut bytes = text.as_bytes().to_vec();
        let at = bytes.len() / 2;
        bytes.splice(at..at, [b'\n', 0xff, 0xfe, b'\n']);
        let (code, out, _) = run_binary(args, &bytes, None)?;
        if !matches!(code, Some(0 | 1)) {
            return Err(format!("exit code {code:?}"));
        }
        if gtp {
            for block in out.split("\n\n").filter(|b| !b.trim().is_empty()) {
                if !block.starts_with(['=', '?']) {
                    return Err(format!("a GTP answer that is neither = nor ?: {block:?}"));
                }
            }
        }
        Ok(())
    });
}

/// A writer the language server can own (it wants `Send + 'static`) whose bytes the test reads after.
#[derive(Clone, Default)]
struct Shared(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("no panic while writing").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs a language server session in process on `input`: its exit code and the messages it
/// wrote, or what was wrong with what it wrote (a frame without a length, a body that is not
/// JSON-RPC 2.0).
fn lsp_session(input: &[u8]) -> Result<(i32, Vec<serde_json::Value>), String> {
    let out = Shared::default();
    let code = arbiter::lsp::run(std::io::BufReader::new(input), out.clone());
    let bytes = out.0.lock().map_err(|_| "the output's lock is poisoned")?.clone();
    let mut messages = Vec::new();
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let text = String::from_utf8_lossy(&rest[..rest.len().min(64)]).to_string();
        let header_end = rest
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .ok_or_else(|| format!("a frame without the end of its header: {text:?}"))?;
        let header = std::str::from_utf8(&rest[..header_end]).map_err(|_| format!("a header not UTF-8: {text:?}"))?;
        let length: usize = header
            .strip_prefix("Content-Length: ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("a header without a Content-Length: {header:?}"))?;
        let body = rest
            .get(header_end + 4..header_end + 4 + length)
            .ok_or_else(|| format!("a frame shorter than its Content-Length: {text:?}"))?;
        let message: serde_json::Value = serde_json::from_slice(body).map_err(|e| format!("a body that is not JSON ({e}): {text:?}"))?;
        if message.get("jsonrpc").and_then(|v| v.as_str()) != Some("2.0") {
            return Err(format!("a message that is not JSON-RPC 2.0: {message}"));
        }
        messages.push(message);
        rest = &rest[header_end + 4 + length..];
    }
    Ok((code, messages))
}

/// Mutated language server sessions, a message a line, each line framed as a client frames it
/// (so the mutations reach the handlers: positions past the text, wrong types, missing
/// parameters, unknown methods, requests before `initialize` or after `shutdown`), run in
/// process: the server ends at the end of its input without a panic (its checker thread's
/// included), writes only frames of JSON-RPC 2.0, and answers every request it read before an
/// `exit`, by its id. Then streams of random bytes, some with headers among them.
#[test]
fn mutated_language_server_sessions_are_answered_and_never_panic() {
    use serde_json::json;
    let ruleset = read("rulesets/tic-tac-toe.rules");
    let uri = "file:///nonexistent/arbiter-fuzz/tic-tac-toe.rules";
    let doc = json!({ "uri": uri });
    let at = |line: u32, character: u32| json!({ "textDocument": doc, "position": { "line": line, "character": character } });
    let range = json!({ "start": { "line": 6, "character": 10 }, "end": { "line": 6, "character": 15 } });
    let with = |mut v: serde_json::Value, key: &str, extra: serde_json::Value| {
        v[key] = extra;
        v
    };
    let requests = [
        ("textDocument/hover", at(14, 8)),
        ("textDocument/completion", at(15, 2)),
        ("textDocument/definition", at(14, 8)),
        (
            "textDocument/references",
            with(at(14, 8), "context", json!({ "includeDeclaration": true })),
        ),
        ("textDocument/prepareRename", at(14, 8)),
        ("textDocument/rename", with(at(14, 8), "newName", json!("Stone"))),
        (
            "textDocument/formatting",
            json!({ "textDocument": doc, "options": { "tabSize": 2, "insertSpaces": true } }),
        ),
        ("textDocument/documentSymbol", json!({ "textDocument": doc })),
        ("textDocument/semanticTokens/full", json!({ "textDocument": doc })),
        ("textDocument/codeLens", json!({ "textDocument": doc })),
        ("textDocument/foldingRange", json!({ "textDocument": doc })),
        (
            "textDocument/codeAction",
            json!({ "textDocument": doc, "range": range, "context": { "diagnostics": [] } }),
        ),
    ];
    let mut session = vec![
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }),
        json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} }),
        json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": { "uri": uri, "languageId": "arbiter", "version": 1, "text": ruleset } } }),
        json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "range": range, "text": "cross" }] } }),
    ];
    for (i, (method, params)) in requests.iter().enumerate() {
        session.push(json!({ "jsonrpc": "2.0", "id": 10 + i, "method": method, "params": params }));
    }
    session.push(json!({ "jsonrpc": "2.0", "method": "textDocument/didClose", "params": { "textDocument": doc } }));
    session.push(json!({ "jsonrpc": "2.0", "id": 99, "method": "shutdown" }));
    session.push(json!({ "jsonrpc": "2.0", "method": "exit" }));
    let seed = session.iter().map(|m| m.to_string()).collect::<Vec<_>>().join("\n");
    // The session as written is answered in full, and ends with the code `exit` after `shutdown` asks.
    let frame = |lines: &str| -> Vec<u8> {
        let mut bytes = Vec::new();
        for line in lines.split('\n') {
            bytes.extend_from_slice(format!("Content-Length: {}\r\n\r\n{line}", line.len()).as_bytes());
        }
        bytes
    };
    let (code, said) = lsp_session(&frame(&seed)).expect("the server writes frames of JSON-RPC");
    assert_eq!(code, 0, "{said:?}");
    let answered = |said: &[serde_json::Value], id: &serde_json::Value| {
        said.iter()
            .any(|m| m.get("method").is_none() && m.get("id") == Some(id) && (m.get("result").is_some() || m.get("error").is_some()))
    };
    for id in [1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 99] {
        assert!(
            said.iter().any(|m| m.get("id") == Some(&json!(id)) && m.get("result").is_some()),
            "request {id} has no result: {said:?}"
        );
    }
    fuzz("language server", session_cases(300), &[seed], |text| {
        let (code, said) = lsp_session(&frame(text))?;
        if !matches!(code, 0 | 1) {
            return Err(format!("exit code {code}"));
        }
        // Every request read before anything that may be an `exit` has its answer.
        for line in text.split('\n').take_while(|l| !l.contains("exit")) {
            let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let id = message.get("id").filter(|id| id.is_i64() || id.is_u64() || id.is_string());
            if let (Some(id), Some(_)) = (id, message.get("method").and_then(|m| m.as_str())) {
                if !answered(&said, id) {
                    return Err(format!("the request {id} got no answer: {line}"));
                }
            }
        }
        Ok(())
    });
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(std::env::var("ARBITER_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(2026));
    for case in 0..session_cases(60) {
        let mut bytes = vec![0u8; (rng.next_u32() % 4096) as usize];
        rng.fill_bytes(&mut bytes);
        // Headers now and then, some with a length that fits what follows, so frames are read at all.
        let mut input = Vec::new();
        for chunk in bytes.chunks(1 + (rng.next_u32() % 512) as usize) {
            match rng.next_u32() % 4 {
                0 => input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", chunk.len()).as_bytes()),
                1 => input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", rng.next_u32()).as_bytes()),
                _ => {}
            }
            input.extend_from_slice(chunk);
        }
        let (code, _) = lsp_session(&input).unwrap_or_else(|e| panic!("case {case}: {e}"));
        assert!(matches!(code, 0 | 1), "case {case}: exit code {code}");
    }
}

/// A record read and written back to a full disk (`--write` on `/dev/full`) never succeeds: it
/// fails as bad input or as output that cannot be written, never with exit 0, never a panic.
#[test]
fn records_written_to_a_full_disk_never_succeed() {
    let seeds = vec![
        "[Event \"Fuzz\"]\n[Site \"?\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 {a comment} 4. Ba4 Nf6 (4... d6) 5. O-O *\n"
            .to_string(),
    ];
    let dir = std::env::temp_dir().join(format!("arbiter-fuzz-full-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("game.pgn");
    let format = std::cell::Cell::new(0usize);
    fuzz("writers on a full disk", session_cases(24), &seeds, |text| {
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        let f = ["pgn", "fen"][format.get() % 2];
        format.set(format.get() + 1);
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .map_err(|e| e.to_string())?;
        let p = path.display().to_string();
        let (code, _, err) = run_binary(&["play", "chess", "--pgn", &p, "--write", f], b"", Some(full))?;
        match code {
            Some(0) => Err(format!("--write {f} to a full disk exited 0: {err}")),
            Some(1) if err.contains("cannot write the output") || err.contains("error:") => Ok(()),
            Some(2) => Ok(()),
            other => Err(format!("--write {f}: exit {other:?}: {err}")),
        }
    });
}

/// Streams of random bytes (lines of any bytes, some long, some not UTF-8) to each engine protocol:
/// it reads them to the end and exits, answering GTP's lines with `=` or `?`, never panicking.
#[test]
fn random_bytes_to_the_engine_protocols_are_answered_and_never_panic() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(std::env::var("ARBITER_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(2026));
    for case in 0..session_cases(24) {
        let mut bytes = vec![0u8; (rng.next_u32() % 4096) as usize];
        rng.fill_bytes(&mut bytes);
        // Lines now and then, so that commands are read at all.
        for b in bytes.iter_mut() {
            if *b % 16 == 0 {
                *b = b'\n';
            }
        }
        let (args, gtp): (&[&str], bool) = if case % 2 == 0 {
            (&["engine", "go", "--protocol", "gtp", "--param", "size=9"], true)
        } else {
            (&["engine", "xiangqi", "--protocol", "ucci"], false)
        };
        let (code, out, err) = run_binary(args, &bytes, None).unwrap_or_else(|e| panic!("case {case}: {e}"));
        assert!(matches!(code, Some(0 | 1)), "case {case}: exit {code:?}: {err}");
        if gtp {
            for block in out.split("\n\n").filter(|b| !b.trim().is_empty()) {
                assert!(
                    block.starts_with(['=', '?']),
                    "case {case}: a GTP answer that is neither = nor ?: {block:?}"
                );
            }
        }
    }
}
