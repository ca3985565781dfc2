//! PGN and SAN against an independent oracle: every game under `tests/pgn/` is replayed move by
//! move with arbiter (driven by `rulesets/chess.rules`) and with the `shakmaty` crate. After every
//! move both must give the same FEN and the same legal moves, and arbiter's SAN of the move must
//! be shakmaty's. The files hold real games (written from the published scores) and a few made
//! to reach en passant, under-promotion, both castlings and a FEN start.

use std::path::PathBuf;

use arbiter::game::{Engine, Game, Status};
use arbiter::model::Side;
use arbiter::notation::{pgn, san, uci};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

use crate::common;

use common::root;

fn chess() -> Engine {
    common::bundled("chess")
}

/// Every `tests/pgn/*.pgn` file, sorted, with its text.
fn games() -> Vec<(PathBuf, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/pgn"))
        .expect("tests/pgn exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, text)
        })
        .collect()
}

/// Replays a record with arbiter, every move found with `san::find`.
fn replay(engine: &Engine, rec: &pgn::Record, name: &str) -> Game {
    let start = match &rec.fen {
        None => engine.start(),
        Some(f) => engine.from_fen(f).unwrap_or_else(|e| panic!("{name}: FEN {f}: {e}")),
    };
    let mut game = Game::new(engine.clone(), start);
    for (i, text) in rec.moves.iter().enumerate() {
        let m = san::find(game.current(), text).unwrap_or_else(|| panic!("{name}: ply {} `{text}` names no legal move", i + 1));
        game.play(m);
    }
    game
}

fn shakmaty_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

fn sorted_uci(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn every_game_replays_exactly_as_shakmaty_plays_it() {
    let engine = chess();
    let all = games();
    assert!(all.len() >= 4, "expected the game files under tests/pgn");
    let mut plies = 0;
    for (path, text) in &all {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let rec = pgn::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!rec.moves.is_empty(), "{name}: no moves read");
        assert!(rec.result.is_some(), "{name}: no result token read");
        let (mut oracle, mut pos): (Chess, _) = match &rec.fen {
            None => (Chess::default(), engine.start()),
            Some(f) => (
                Fen::from_ascii(f.as_bytes())
                    .expect("shakmaty reads the FEN")
                    .into_position(CastlingMode::Standard)
                    .expect("a legal FEN"),
                engine.from_fen(f).unwrap_or_else(|e| panic!("{name}: {e}")),
            ),
        };
        assert_eq!(pos.fen(), shakmaty_fen(&oracle), "{name}: start position");
        for (i, text) in rec.moves.iter().enumerate() {
            let at = format!("{name}, ply {} `{text}`", i + 1);
            let sm = SanPlus::from_ascii(text.as_bytes())
                .unwrap_or_else(|e| panic!("{at}: shakmaty cannot read it: {e}"))
                .san
                .to_move(&oracle)
                .unwrap_or_else(|e| panic!("{at}: shakmaty finds no move: {e}"));
            let expected = SanPlus::from_move(oracle.clone(), sm).to_string();
            let m = san::find(&pos, text).unwrap_or_else(|| panic!("{at}: arbiter finds no move"));
            assert_eq!(
                uci::to_text(&pos, m),
                sm.to_uci(CastlingMode::Standard).to_string(),
                "{at}: a different move"
            );
            assert_eq!(san::to_san(&pos, m), expected, "{at}: SAN");
            assert_eq!(*text, expected, "{at}: the file should hold canonical SAN");
            oracle.play_unchecked(sm);
            pos.play_unchecked(m);
            plies += 1;
            assert_eq!(pos.fen(), shakmaty_fen(&oracle), "{at}: position after the move");
            let mut ours: Vec<String> = pos.legal_moves().into_iter().map(|m| uci::to_text(&pos, m)).collect();
            ours.sort();
            assert_eq!(ours, sorted_uci(&oracle), "{at}: legal moves after the move");
        }
    }
    assert!(plies > 250, "only {plies} plies replayed");
}

#[test]
fn written_pgn_reads_back_to_the_same_moves() {
    let engine = chess();
    for (path, text) in games() {
        let name = path.display().to_string();
        let rec = pgn::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let game = replay(&engine, &rec, &name);
        let written = pgn::write(&game, &rec.tags);
        let back = pgn::parse(&written).unwrap_or_else(|e| panic!("{name}: written PGN does not parse: {e}\n{written}"));
        assert_eq!(back.moves, rec.moves, "{name}: moves after the round trip\n{written}");
        assert_eq!(back.result, rec.result, "{name}: result after the round trip");
        assert_eq!(back.fen, rec.fen, "{name}: FEN tag after the round trip");
        for (tag, value) in &rec.tags {
            assert_eq!(back.tag(tag), Some(value.as_str()), "{name}: tag {tag}");
        }
        let again = replay(&engine, &back, &name);
        assert_eq!(again.moves(), game.moves(), "{name}: replayed moves");
        assert!(
            written.lines().all(|l| l.chars().count() < 80),
            "{name}: a line of 80 or more\n{written}"
        );
    }
}

#[test]
fn written_pgn_numbers_moves_and_marks_a_fen_start() {
    let engine = chess();
    let path = root().join("tests/pgn/rook-endgame-from-fen.pgn");
    let rec = pgn::parse(&std::fs::read_to_string(&path).expect("the file exists")).expect("it parses");
    let game = replay(&engine, &rec, "rook-endgame-from-fen.pgn");
    let written = pgn::write(&game, &[("Event".to_string(), "Endgame \"drill\"".to_string())]);
    assert!(
        written.starts_with("[Event \"Endgame \\\"drill\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n"),
        "{written}"
    );
    assert!(
        written.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/1r6/4K2R b K - 3 40\"]\n"),
        "{written}"
    );
    assert!(
        written.ends_with("\n40... Rb1+ 41. Ke2 Rxh1 42. Kf3 Kd7 43. Kg2 Rd1 *\n"),
        "{written}"
    );
    // A game from the ruleset's setup has no SetUp or FEN tag.
    let mut from_start = Game::new(engine.clone(), engine.start());
    for text in ["e4", "e5"] {
        let m = san::find(from_start.current(), text).expect("legal");
        from_start.play(m);
    }
    let written = pgn::write(&from_start, &[]);
    assert!(!written.contains("FEN") && !written.contains("SetUp"), "{written}");
    assert!(written.ends_with("\n1. e4 e5 *\n"), "{written}");
}

#[test]
fn games_ending_in_mate_are_reported_as_checkmate() {
    let engine = chess();
    let mut mates = 0;
    for (path, text) in games() {
        let name = path.display().to_string();
        let rec = pgn::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let game = replay(&engine, &rec, &name);
        let outcome = game.outcome();
        let last = rec.moves.last().expect("moves");
        if last.ends_with('#') {
            mates += 1;
            assert_eq!(outcome.status, Status::Win, "{name}");
            assert_eq!(outcome.reason.as_deref(), Some("checkmate"), "{name}");
            assert_eq!(outcome.result(), rec.result.as_deref(), "{name}: the result token");
            let loser = game.current().side_to_move();
            assert_eq!(outcome.winner, Some(loser.other()), "{name}");
        } else {
            assert_eq!(outcome.status, Status::Ongoing, "{name}: no mate, no end");
        }
    }
    assert!(mates >= 3, "only {mates} games end in mate");
}

#[test]
fn the_opera_game_ends_with_black_mated_on_the_back_rank() {
    let engine = chess();
    let rec = pgn::parse(&std::fs::read_to_string(root().join("tests/pgn/opera-game.pgn")).expect("the file")).expect("parses");
    assert_eq!(rec.tag("White"), Some("Paul Morphy"));
    assert_eq!(rec.moves.len(), 33);
    let game = replay(&engine, &rec, "opera-game.pgn");
    assert_eq!(game.current().side_to_move(), Side::SECOND);
    assert!(game.current().in_check());
    assert!(game.current().legal_moves().is_empty());
    assert_eq!(game.current().fen(), "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17");
    assert_eq!(game.outcome().result(), Some("1-0"));
}

#[test]
fn written_variations_follow_the_pgn_export_format() {
    let engine = chess();
    let rec = pgn::parse("1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 2. Nf3) 2. Nf3 *").expect("it parses");
    assert_eq!(rec.variations.len(), 2);
    let game = replay(&engine, &rec, "inline");
    let (written, notes) = pgn::write_tree(&game, &[], &rec.commentary, &rec.variations);
    assert!(notes.is_empty(), "{notes:?}");
    // A variation in parentheses after the move it replaces, the second player's move numbered
    // again after it, and a variation of a variation's first move written beside it.
    assert!(
        written.ends_with("\n1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 2. Nf3) 2. Nf3 *\n"),
        "{written}"
    );
    // A variation whose move is illegal where it stands is cut there, and the writer says so.
    let bad = vec![arbiter::notation::variation::Branch {
        at: 1,
        moves: vec!["c5".into(), "Ke3".into()],
        ..Default::default()
    }];
    let (written, notes) = pgn::write_tree(&game, &[], &Default::default(), &bad);
    assert!(written.contains("1. e4 e5 (1... c5) 2. Nf3 *"), "{written}");
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("`Ke3`"), "{notes:?}");
}

#[test]
fn variations_nested_without_end_are_refused_with_their_place() {
    let deep = format!("1. e4 {}", "(1. d4 ".repeat(100));
    let e = pgn::parse(&deep).expect_err("too deep");
    assert_eq!(e.problem, pgn::PgnProblem::TooDeep);
    let unclosed = pgn::parse("1. e4 (1. d4 d5\n\n[Event \"next\"]\n1. c4 *").expect_err("never closed");
    assert_eq!((e.line, unclosed.line, unclosed.column), (1, 1, 7));
    assert_eq!(unclosed.problem, pgn::PgnProblem::UnclosedVariation);
}
