//! WXF notation against hand-worked positions and a real game record. Every expected text below
//! was worked out by hand from the WXF's rules — files counted from the mover's own right (red's
//! file 1 is `i`, black's is `a`), `+` towards the opponent, `-` away, `.` along the rank — not
//! taken from the code under test. The game record is replayed twice: from its WXF movetext, and from
//! a coordinate version of the same line written separately, move by move; both must agree.

use std::collections::HashSet;
use std::path::PathBuf;

use arbiter::game::{Engine, Game, Position, Status};
use arbiter::notation::{self, pgn, uci, wxf};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

use crate::common;

use common::{Run, arbiter, root, xiangqi_pos as pos};

fn xiangqi() -> Engine {
    common::bundled("xiangqi")
}

/// Asserts the WXF of each coordinate move, and that the WXF reads back to it.
fn assert_wxf(p: &Position, cases: &[(&str, &str)]) {
    for &(coords, text) in cases {
        let m = uci::find(p, coords).unwrap_or_else(|| panic!("{coords} is not legal in {}", p.fen()));
        assert_eq!(wxf::to_wxf(p, m), text, "{coords} in {}", p.fen());
        assert_eq!(wxf::find(p, text), Some(m), "{text} in {}", p.fen());
    }
}

/// The coordinates of the move a text reads as.
fn reads(p: &Position, text: &str) -> Option<String> {
    wxf::find(p, text).map(|m| uci::to_text(p, m))
}

#[test]
fn the_start_position_from_each_side() {
    let red = xiangqi().start();
    assert_wxf(
        &red,
        &[
            // 炮二平五: red's file 2 is h, file 5 is e.
            ("h3e3", "C2.5"),
            ("b3e3", "C8.5"),
            ("h1g3", "H2+3"),
            ("b1c3", "H8+7"),
            ("b1a3", "H8+9"),
            ("i1i3", "R1+2"),
            ("a1a2", "R9+1"),
            ("c1e3", "E7+5"),
            ("g1i3", "E3+1"),
            ("d1e2", "A6+5"),
            ("e1e2", "K5+1"),
            ("g4g5", "P3+1"),
            ("b3b10", "C8+7"),
            ("h3h4", "C2+1"),
            ("b3b2", "C8-1"),
        ],
    );
    let mut game = Game::new(xiangqi(), red.clone());
    game.play(wxf::find(&red, "C2.5").expect("C2.5 is legal"));
    let black = game.current().clone();
    assert_wxf(
        &black,
        &[
            // 马8进7: black's file 8 is h (black counts from a), the horse goes down to g8.
            ("h10g8", "H8+7"),
            ("b10c8", "H2+3"),
            ("b10a8", "H2+1"),
            ("h8e8", "C8.5"),
            ("b8b9", "C2-1"),
            ("b8b4", "C2+4"),
            ("i10i8", "R9+2"),
            ("a10a9", "R1+1"),
            ("g10e8", "E7+5"),
            ("c10a8", "E3+1"),
            ("f10e9", "A6+5"),
            ("e10e9", "K5+1"),
            ("c7c6", "P3+1"),
            ("g7g6", "P7+1"),
            // The b8 cannon takes the b1 horse over the b3 cannon: 7 ranks down.
            ("b8b1", "C2+7"),
        ],
    );
}

#[test]
fn along_a_file_the_count_of_ranks() {
    let red = pos(&[("K", "e1"), ("R", "a1"), ("R", "i6"), ("C", "b5"), ("k", "f10")], "w");
    assert_wxf(
        &red,
        &[
            ("a1a10", "R9+9"),
            ("a1a5", "R9+4"),
            ("i6i1", "R1-5"),
            ("i6i10", "R1+4"),
            ("i6i5", "R1-1"),
            ("b5b1", "C8-4"),
            ("b5b10", "C8+5"),
            ("e1e2", "K5+1"),
        ],
    );
    let black = pos(&[("k", "e9"), ("r", "a10"), ("r", "i5"), ("c", "b6"), ("K", "d1")], "b");
    assert_wxf(
        &black,
        &[
            ("a10a1", "R1+9"),
            ("a10a7", "R1+3"),
            ("i5i10", "R9-5"),
            ("i5i1", "R9+4"),
            ("b6b10", "C2-4"),
            ("b6b2", "C2+4"),
            ("e9e10", "K5-1"),
            ("e9e8", "K5+1"),
        ],
    );
}

#[test]
fn sideways_the_destination_file() {
    // The black advisor on f8 keeps the generals from facing when the red one steps to f2.
    let red = pos(
        &[("K", "e2"), ("R", "a6"), ("C", "h3"), ("P", "c7"), ("k", "f10"), ("a", "f8")],
        "w",
    );
    assert_wxf(
        &red,
        &[
            ("a6i6", "R9.1"),
            ("a6b6", "R9.8"),
            ("h3a3", "C2.9"),
            ("h3i3", "C2.1"),
            ("c7b7", "P7.8"),
            ("c7d7", "P7.6"),
            ("c7c8", "P7+1"),
            ("e2d2", "K5.6"),
            ("e2f2", "K5.4"),
            ("e2e1", "K5-1"),
        ],
    );
    let black = pos(&[("k", "d9"), ("r", "i5"), ("c", "b8"), ("p", "c4"), ("K", "f1")], "b");
    assert_wxf(
        &black,
        &[
            ("i5b5", "R9.2"),
            ("i5a5", "R9.1"),
            ("b8h8", "C2.8"),
            ("c4b4", "P3.2"),
            ("c4d4", "P3.4"),
            ("c4c3", "P3+1"),
            ("d9e9", "K4.5"),
            ("d9d10", "K4-1"),
        ],
    );
}

#[test]
fn horses_elephants_and_advisors_name_the_destination_file() {
    let red = pos(&[("K", "e1"), ("A", "e2"), ("B", "e3"), ("N", "e5"), ("k", "f10")], "w");
    assert_wxf(
        &red,
        &[
            ("e5d7", "H5+6"),
            ("e5f7", "H5+4"),
            ("e5c6", "H5+7"),
            ("e5g6", "H5+3"),
            ("e5c4", "H5-7"),
            ("e5g4", "H5-3"),
            ("e5d3", "H5-6"),
            ("e5f3", "H5-4"),
            ("e3c5", "E5+7"),
            ("e3g5", "E5+3"),
            ("e3c1", "E5-7"),
            ("e3g1", "E5-3"),
            ("e2d3", "A5+6"),
            ("e2f3", "A5+4"),
            ("e2d1", "A5-6"),
            ("e2f1", "A5-4"),
        ],
    );
    let black = pos(&[("k", "e10"), ("a", "e9"), ("b", "e8"), ("n", "e6"), ("K", "d1")], "b");
    assert_wxf(
        &black,
        &[
            ("e6d4", "H5+4"),
            ("e6f4", "H5+6"),
            ("e6c5", "H5+3"),
            ("e6g5", "H5+7"),
            ("e6c7", "H5-3"),
            ("e6g7", "H5-7"),
            ("e6d8", "H5-4"),
            ("e6f8", "H5-6"),
            ("e8c6", "E5+3"),
            ("e8g6", "E5+7"),
            ("e8c10", "E5-3"),
            ("e8g10", "E5-7"),
            ("e9d8", "A5+4"),
            ("e9f8", "A5+6"),
            ("e9d10", "A5-4"),
            ("e9f10", "A5-6"),
        ],
    );
}

#[test]
fn tandem_pieces_are_front_and_rear() {
    // Black chariots on c8 and c4 (black's file 3): c4 is nearer red, so it is the front one.
    let chariots = pos(&[("k", "f10"), ("r", "c8"), ("r", "c4"), ("K", "e1")], "b");
    assert_wxf(
        &chariots,
        &[
            ("c4c1", "+R+3"),
            ("c4a4", "+R.1"),
            ("c4c5", "+R-1"),
            ("c8c9", "-R-1"),
            ("c8d8", "-R.4"),
            ("c8c6", "-R+2"),
        ],
    );
    // Black cannons on b8 and b5.
    let cannons = pos(&[("k", "e10"), ("c", "b8"), ("c", "b5"), ("K", "d1")], "b");
    assert_wxf(&cannons, &[("b5b1", "+C+4"), ("b5a5", "+C.1"), ("b8b9", "-C-1"), ("b8c8", "-C.3")]);
    // Red soldiers across the river on c6 and c7 (red's file 7).
    let soldiers = pos(&[("K", "e1"), ("P", "c6"), ("P", "c7"), ("k", "f10")], "w");
    assert_wxf(&soldiers, &[("c7c8", "+P+1"), ("c7b7", "+P.8"), ("c6b6", "-P.8"), ("c6d6", "-P.6")]);
    // Red horses on c3 and c5; every destination here is open to both, so only the marker tells.
    let horses = pos(&[("K", "e1"), ("N", "c3"), ("N", "c5"), ("k", "f10")], "w");
    assert_wxf(
        &horses,
        &[
            ("c5b7", "+H+8"),
            ("c5d7", "+H+6"),
            ("c3d1", "-H-6"),
            ("c3d5", "-H+6"),
            ("c3a4", "-H+9"),
            ("c3b1", "-H-8"),
        ],
    );
    assert_eq!(wxf::find(&horses, "H7+6"), None, "both horses go forward to file 6");
    // Red elephants on c1 and c5; advisors on d1 and d3.
    let defenders = pos(
        &[("K", "e1"), ("B", "c1"), ("B", "c5"), ("A", "d1"), ("A", "d3"), ("k", "f10")],
        "w",
    );
    assert_wxf(
        &defenders,
        &[
            ("c5a3", "+E-9"),
            ("c5e3", "+E-5"),
            ("c1a3", "-E+9"),
            ("c1e3", "-E+5"),
            ("d3e2", "+A-5"),
            ("d1e2", "-A+5"),
        ],
    );
    // The plain file number of older records reads where only one of the pair can make the move.
    assert_eq!(reads(&defenders, "E7-5").as_deref(), Some("c5e3"));
    assert_eq!(reads(&defenders, "E7+5").as_deref(), Some("c1e3"));
    assert_eq!(reads(&defenders, "A6+5").as_deref(), Some("d1e2"));
    assert_eq!(reads(&defenders, "B7+5").as_deref(), Some("c1e3"));
    // The WXF's own order, marker after the letter.
    assert_eq!(reads(&chariots, "R++3").as_deref(), Some("c4c1"));
    assert_eq!(reads(&chariots, "R-.4").as_deref(), Some("c8d8"));
    assert_eq!(reads(&chariots, "r-=4").as_deref(), Some("c8d8"));
    assert_eq!(reads(&horses, "N+ +8"), None);
    assert_eq!(reads(&horses, "n++8").as_deref(), Some("c5b7"));
}

#[test]
fn three_to_five_soldiers_on_a_file() {
    // Black soldiers on c2, c3, c4 (black's file 3; c2 is the front one) sideways to file 4 (d).
    let three = pos(&[("k", "e10"), ("p", "c2"), ("p", "c3"), ("p", "c4"), ("K", "f1")], "b");
    assert_wxf(&three, &[("c2d2", "+P.4"), ("c3d3", "P3.4"), ("c4d4", "-P.4"), ("c2b2", "+P.2")]);
    assert_eq!(reads(&three, "P+.4").as_deref(), Some("c2d2"));
    assert_eq!(reads(&three, "33.4").as_deref(), Some("c3d3"));
    assert_eq!(reads(&three, "P-=4").as_deref(), Some("c4d4"));
    let five = pos(
        &[
            ("k", "e10"),
            ("p", "c1"),
            ("p", "c2"),
            ("p", "c3"),
            ("p", "c4"),
            ("p", "c5"),
            ("K", "f1"),
        ],
        "b",
    );
    assert_wxf(
        &five,
        &[
            ("c1d1", "++.4"),
            ("c2d2", "+P.4"),
            ("c3d3", "P3.4"),
            ("c4d4", "-P.4"),
            ("c5d5", "--.4"),
        ],
    );
    let four = pos(
        &[("k", "e10"), ("p", "c2"), ("p", "c3"), ("p", "c4"), ("p", "c5"), ("K", "f1")],
        "b",
    );
    assert_wxf(&four, &[("c2d2", "++.4"), ("c3d3", "+P.4"), ("c4d4", "-P.4"), ("c5d5", "--.4")]);
    // Tandems on two files: the file number takes the letter's place (black's files 3 and 7).
    let two_files = pos(
        &[
            ("k", "e10"),
            ("p", "c2"),
            ("p", "c3"),
            ("p", "c4"),
            ("p", "g3"),
            ("p", "g4"),
            ("K", "f1"),
        ],
        "b",
    );
    assert_wxf(
        &two_files,
        &[
            ("c2d2", "+3.4"),
            ("c3d3", "P3.4"),
            ("c4d4", "-3.4"),
            ("g3f3", "+7.6"),
            ("g4f4", "-7.6"),
            ("g3h3", "+7.8"),
        ],
    );
    assert_eq!(reads(&two_files, "3+.4").as_deref(), Some("c2d2"));
    assert_eq!(reads(&two_files, "33.4").as_deref(), Some("c3d3"));
    assert_eq!(reads(&two_files, "7-.6").as_deref(), Some("g4f4"));
}

#[test]
fn reading_is_lenient_but_names_one_legal_move_or_none() {
    let start = xiangqi().start();
    for text in ["C2.5", "c2.5", "C2=5", "  C2.5 ", "\tc2=5\n"] {
        assert_eq!(reads(&start, text).as_deref(), Some("h3e3"), "{text:?}");
    }
    assert_eq!(reads(&start, "N2+3").as_deref(), Some("h1g3"));
    assert_eq!(reads(&start, "b3+5").as_deref(), Some("g1e3"));
    for text in [
        "", "   ", "C2", "C2.", "2.5", ".5", "C.5", "C2.05", "C2.9999", "C2+9", "H2+2", "R1.2", "+C.5", "C+.5", "K5.4",
    ] {
        assert_eq!(wxf::find(&start, text), None, "{text:?}");
    }
    for text in [
        "炮二平五",
        "C２.5",
        "C2.5\u{301}",
        "=",
        "==5",
        "+++1",
        "C2.5=",
        "C2.5=Q",
        "\u{feff}",
    ] {
        assert_eq!(wxf::find(&start, text), None, "{text:?}");
    }
}

/// Texts of the shape WXF writes: an origin, a direction and a number (no coordinates).
fn is_wxf_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() >= 4
        && matches!(b[2], b'+' | b'-' | b'.')
        && b[3..].iter().all(u8::is_ascii_digit)
        && b[..2]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || matches!(c, b'+' | b'-'))
}

#[test]
fn random_games_round_trip_with_unique_texts() {
    let engine = xiangqi();
    let mut rng = ChaCha8Rng::seed_from_u64(1999);
    let (mut positions, mut moves, mut tandem) = (0, 0, 0);
    for _ in 0..40 {
        let mut game = Game::new(engine.clone(), engine.start());
        for _ in 0..100 {
            if game.outcome().status != Status::Ongoing {
                break;
            }
            let p = game.current().clone();
            let legal = p.legal_moves();
            let mut seen = HashSet::new();
            for &m in &legal {
                let text = wxf::to_wxf(&p, m);
                assert!(is_wxf_shaped(&text), "{text} for {} in {}", uci::to_text(&p, m), p.fen());
                assert_eq!(wxf::find(&p, &text), Some(m), "{text} in {}", p.fen());
                assert!(seen.insert(text.clone()), "two moves are written {text} in {}", p.fen());
                tandem += usize::from(text.starts_with(['+', '-']));
                moves += 1;
            }
            positions += 1;
            game.play(legal[rng.gen_range(0..legal.len())]);
        }
    }
    assert!(positions >= 3000, "{positions} positions");
    assert!(moves > 60_000, "{moves} moves");
    assert!(tandem > 100, "only {tandem} tandem moves were written");
}

/// The record's line written separately in coordinates, one entry per move.
const RECORD_IN_COORDINATES: [&str; 42] = [
    "h3e3", "h10g8", // 1. the central cannon; the horse from h10 to g8
    "h1g3", "i10h10", // 2.
    "i1h1", "b10c8", // 3.
    "c4c5", "g7g6", // 4.
    "h1h7", "h8i8", // 5. the chariot crosses the river; the cannon to the edge
    "h7g7", "i8i9", // 6.
    "b1c3", "d10e9", // 7.
    "c3d5", "i9g9", // 8.
    "g7f7", "g8h6", // 9.
    "b3c3", "a10b10", // 10.
    "a1b1", "b8b4", // 11.
    "c3c2", "c7c6", // 12.
    "c2e2", "c6c5", // 13. the cannons doubled on e; c6 takes c5
    "e3e7", "c8e7", // 14. the front cannon takes e7 with check; the horse takes it back
    "d5e7", "g9g7", // 15.
    "f7g7", "c5d5", // 16.
    "g1e3", "e10d10", // 17.
    "b1b4", "b10b4", // 18.
    "g7g10", "h10g10", // 19.
    "e4e5", "b4g4", // 20. the chariots doubled on g
    "e7d5", "g4g3", // 21. the front chariot takes the g3 horse
];

/// Where the line ends, worked out by hand from the captures along the way.
const RECORD_END: &str = "2bk1ar2/4a4/9/p7p/6pn1/3NP4/P7P/4B1r2/4C4/2BAKA3 w - - 0 22";

fn record_path() -> PathBuf {
    root().join("tests/wxf/central-cannon-screen-horses.pgn")
}

fn record() -> pgn::Record {
    let text = std::fs::read_to_string(record_path()).expect("the record exists");
    pgn::parse(&text).expect("the record parses")
}

/// Replays WXF texts with the library; every one must name a legal move.
fn replay_wxf(engine: &Engine, start: Position, moves: &[String]) -> Game {
    let mut game = Game::new(engine.clone(), start);
    for (i, text) in moves.iter().enumerate() {
        let m = wxf::find(game.current(), text).unwrap_or_else(|| panic!("ply {} `{text}` names no legal move", i + 1));
        game.play(m);
    }
    game
}

#[test]
fn a_game_record_in_wxf_replays_like_its_coordinates() {
    let engine = xiangqi();
    let rec = record();
    assert_eq!(rec.moves.len(), RECORD_IN_COORDINATES.len());
    let by_wxf = replay_wxf(&engine, engine.start(), &rec.moves);
    let mut by_coords = Game::new(engine.clone(), engine.start());
    for (i, (coords, text)) in RECORD_IN_COORDINATES.iter().zip(&rec.moves).enumerate() {
        let p = by_coords.current().clone();
        let m = uci::find(&p, coords).unwrap_or_else(|| panic!("ply {} {coords} is illegal in {}", i + 1, p.fen()));
        assert_eq!(by_wxf.moves()[i], m, "ply {}: {text} and {coords} differ", i + 1);
        assert_eq!(&wxf::to_wxf(&p, m), text, "ply {}: {coords} is written", i + 1);
        by_coords.play(m);
    }
    assert_eq!(by_coords.current().fen(), RECORD_END);
    assert_eq!(by_wxf.current().fen(), RECORD_END);
    assert_eq!(by_wxf.outcome().status, Status::Ongoing);
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("not one JSON value ({e}): {stdout}"))
}

#[test]
fn the_command_line_replays_the_record_and_plays_wxf() {
    let path = record_path();
    let Run { code, stdout, stderr } = arbiter(&["play", "xiangqi", "--pgn", path.to_str().expect("a UTF-8 path"), "--json"]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    let v = json(&stdout);
    assert_eq!(v["position"], RECORD_END);
    assert_eq!(v["ply"], 42);
    assert_eq!(v["status"], "ongoing");

    let Run { code, stdout, .. } = arbiter(&["play", "xiangqi", "--json", "C2.5", "h8+7", "H2=3"]);
    assert_eq!(code, Some(2), "H2=3 is no move: {stdout}");
    assert_eq!(json(&stdout)["ply"], 3);
    let Run { code, stdout, stderr } = arbiter(&["play", "xiangqi", "--json", "C2.5", "h8+7", "H2+3", "R9.8"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        json(&stdout)["position"],
        "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3"
    );
}

#[test]
fn moves_written_uses_the_rulesets_notation() {
    let Run { code, stdout, stderr } = arbiter(&["moves", "xiangqi", "--written", "h3e3"]);
    assert_eq!(code, Some(0), "{stderr}");
    let listed: Vec<&str> = stdout.lines().collect();
    for text in ["H8+7", "H2+3", "C8.5", "R9+2", "A4+5", "P3+1"] {
        assert!(listed.contains(&text), "{text} not in {listed:?}");
    }
    let engine = xiangqi();
    let mut game = Game::new(engine.clone(), engine.start());
    game.play(wxf::find(&engine.start(), "C2.5").expect("legal"));
    let mut expected: Vec<String> = game
        .current()
        .legal_moves()
        .into_iter()
        .map(|m| notation::written(game.current(), m))
        .collect();
    let mut got: Vec<String> = listed.iter().map(|s| s.to_string()).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected);

    let Run { code, stdout, .. } = arbiter(&["moves", "chess", "--written", "--json"]);
    assert_eq!(code, Some(0));
    let chess_moves = json(&stdout)["moves"].as_array().expect("a list").len();
    assert_eq!(chess_moves, 20);
    assert!(stdout.contains("\"Nf3\""), "{stdout}");
    let Run { code, stdout, .. } = arbiter(&["moves", "chess", "--san"]);
    assert_eq!(code, Some(0));
    assert!(stdout.lines().any(|l| l == "Nf3"), "{stdout}");
    let Run { code, stdout, .. } = arbiter(&["moves", "xiangqi", "--json"]);
    assert_eq!(code, Some(0));
    assert!(stdout.contains("\"h3e3\""), "coordinates stay the default: {stdout}");
    let Run { code, stderr, .. } = arbiter(&["moves", "xiangqi", "--written", "--san"]);
    assert_ne!(code, Some(0), "--written and --san together: {stderr}");
}

#[test]
fn pgn_export_writes_wxf_and_reads_back() {
    let engine = xiangqi();
    let rec = record();
    let game = replay_wxf(&engine, engine.start(), &rec.moves);
    let written = pgn::write(&game, &rec.tags);
    let movetext = written.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(movetext.contains("] 1. C2.5 H8+7 2. H2+3 R9.8 3. R1.2"), "{written}");
    assert!(movetext.contains(" 14. +C+4 H3+5 15. "), "{written}");
    assert!(movetext.ends_with(" 21. H5-6 +R+1 *"), "{written}");
    let back = pgn::parse(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back.moves, rec.moves);
    assert_eq!(replay_wxf(&engine, engine.start(), &back.moves).moves(), game.moves());

    // Random games, one from a position set up by FEN, out through PGN and back in: the library
    // and the command line both replay them to the same position.
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let from_fen = engine
        .from_fen("2bakab2/9/4c4/p1P1p1P1p/2p3p2/1R5r1/P3P3P/4C4/9/2BAKAB2 w - - 0 1")
        .expect("a valid FEN");
    for (round, start) in [engine.start(), engine.start(), from_fen].into_iter().enumerate() {
        let mut game = Game::new(engine.clone(), start.clone());
        for _ in 0..160 {
            if game.outcome().status != Status::Ongoing {
                break;
            }
            let legal = game.current().legal_moves();
            game.play(legal[rng.gen_range(0..legal.len())]);
        }
        let written = pgn::write(&game, &[]);
        let back = pgn::parse(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(back.fen.is_some(), round == 2, "{written}");
        let again = replay_wxf(&engine, start, &back.moves);
        assert_eq!(again.moves(), game.moves(), "{written}");
        assert_eq!(again.current().fen(), game.current().fen());

        let file = std::env::temp_dir().join(format!("arbiter-wxf-{}-{round}.pgn", std::process::id()));
        std::fs::write(&file, &written).expect("the temporary file is written");
        let Run { code, stdout, stderr } = arbiter(&["play", "xiangqi", "--pgn", file.to_str().expect("a UTF-8 path"), "--json"]);
        let _ = std::fs::remove_file(&file);
        assert_eq!(code, Some(0), "{stderr}\n{written}");
        assert_eq!(json(&stdout)["position"], game.current().fen().as_str(), "{written}");
    }
}

/// `play --write wxf` writes a WXF file (header lines, the movetext between `START{` and `}END`)
/// that reads back to the same game and clocks.
#[test]
fn a_written_wxf_file_reads_back_to_the_same_game_and_clocks() {
    let run = common::arbiter(&["play", "xiangqi", "--clock", "classical", "h3e3@30", "h10g8@45", "--write", "wxf"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout.starts_with("FORMAT WXF\n"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("START{\n1. C2.5 {[%clk 1:29:30]} 1... H8+7 {[%clk 1:29:15]} *\n}END\n"),
        "{}",
        run.stdout
    );
    let path = std::env::temp_dir().join(format!("arbiter-wxf-{}.wxf", std::process::id()));
    std::fs::write(&path, &run.stdout).expect("written");
    let back = common::arbiter(&["play", "xiangqi", "--pgn", path.to_str().expect("UTF-8"), "--json"]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(back.code, Some(0), "{}", back.stderr);
    let v: serde_json::Value = serde_json::from_str(&back.stdout).expect("JSON");
    let direct = common::arbiter(&["play", "xiangqi", "h3e3", "h10g8", "--json"]);
    let d: serde_json::Value = serde_json::from_str(&direct.stdout).expect("JSON");
    assert_eq!(v["position"], d["position"]);
    assert_eq!(
        (v["clocks"]["red"].as_f64(), v["clocks"]["black"].as_f64()),
        (Some(5370.0), Some(5355.0))
    );
}

/// WXF records games written in WXF notation: `--write wxf` of chess or go is refused with what to
/// use instead, and writes nothing.
#[test]
fn wxf_is_refused_for_games_not_written_in_wxf() {
    for (ruleset, mv) in [("chess", "e4"), ("go", "D4")] {
        let run = common::arbiter(&["play", ruleset, mv, "--write", "wxf"]);
        assert_eq!(run.code, Some(1), "{ruleset}: {}", run.stdout);
        assert!(run.stdout.is_empty(), "{ruleset}: {}", run.stdout);
        assert!(
            run.stderr
                .contains("WXF records games whose ruleset writes its moves in WXF notation"),
            "{}",
            run.stderr
        );
    }
}
