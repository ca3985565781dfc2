//! The second family of rules, one construct at a time, each on at least two games or variants:
//! hands and drops, jumps that capture and go on, enclosures that flip or capture, gravity,
//! obligations, goals on the board (lines, zones, captures, no pieces, connections, counts), hex
//! geometry and the swap; and perft's two semantics. Positions are small and chosen so that each
//! test fails if its rule were missing.

use crate::common;

use arbiter::game::{Engine, Game, Move, Position, Ruling, Status};
use arbiter::model::Side;
use arbiter::notation::{self, uci};

fn variant(name: &str) -> Engine {
    common::engine(&format!("tests/variants/{name}.rules"), &[])
}

/// A game from `fen` (or the setup) after `moves`, each of which must be legal.
fn game(engine: &Engine, fen: Option<&str>, moves: &[&str]) -> Game {
    let start = match fen {
        Some(f) => engine.from_fen(f).unwrap_or_else(|e| panic!("{f}: {e}")),
        None => engine.start(),
    };
    let mut g = Game::new(engine.clone(), start);
    for m in moves {
        let mv = notation::find(g.current(), m).unwrap_or_else(|| panic!("`{m}` is not legal in {}", g.current().fen()));
        g.play(mv);
    }
    g
}

fn texts(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().into_iter().map(|m| uci::to_text(pos, m)).collect();
    v.sort();
    v
}

fn code(pos: &Position, text: &str) -> &'static str {
    match pos.explain(text) {
        Ruling::Illegal(i) => i.code,
        Ruling::Legal { .. } => "legal",
    }
}

// ---------------------------------------------------------------- hands and drops

#[test]
fn a_capture_goes_to_the_captors_hand_and_comes_back_as_a_drop() {
    let e = common::bundled("crazyhouse");
    let g = game(&e, None, &["e2e4", "d7d5", "e4d5", "d8d5"]);
    let pos = g.current();
    assert_eq!(pos.fen(), "rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3");
    assert_eq!(pos.hand(Side::FIRST).len(), 1);
    let drops: Vec<String> = texts(pos).into_iter().filter(|t| t.contains('@')).collect();
    // A pawn anywhere empty but the first and last ranks: 32 empty squares, minus none on those.
    assert!(
        drops.contains(&"P@e5".to_string()) && drops.contains(&"P@d4".to_string()),
        "{drops:?}"
    );
    assert!(drops.iter().all(|d| !d.ends_with('1') && !d.ends_with('8')), "{drops:?}");
    let mut after = pos.clone();
    after.play_unchecked(uci::find(pos, "P@e5").expect("a legal drop"));
    assert!(after.hand(Side::FIRST).is_empty());
    assert_eq!(code(pos, "N@e5"), "not-in-hand");
    assert_eq!(code(pos, "P@e8"), "occupied");
}

#[test]
fn a_promoted_piece_returns_to_the_hand_as_what_it_was() {
    let e = common::bundled("crazyhouse");
    // White's promoted queen on b7 (Q~) is taken by black's king: black's hand gains a pawn.
    let g = game(&e, Some("k7/1Q~6/8/8/8/8/8/4K3[] b - - 0 1"), &["a8b7"]);
    assert_eq!(g.current().fen(), "8/1k6/8/8/8/8/8/4K3[p] w - - 0 2");
    // An unpromoted queen goes as a queen.
    let g = game(&e, Some("k7/1Q6/8/8/8/8/8/4K3[] b - - 0 1"), &["a8b7"]);
    assert_eq!(g.current().fen(), "8/1k6/8/8/8/8/8/4K3[q] w - - 0 2");
    // A promotion marks the new piece.
    let g = game(&e, Some("k7/4P3/8/8/8/8/8/4K3[] w - - 0 1"), &["e7e8q"]);
    assert!(g.current().fen().starts_with("k3Q~3/"), "{}", g.current().fen());
}

#[test]
fn drops_obey_the_file_checkmate_and_stuck_restrictions() {
    let e = variant("drop-restrictions");
    // White has a pawn on e2 and one in hand: not on the e-file, not on the last rank (stuck).
    let pos = e.from_fen("4k3/8/8/8/8/8/4P3/4K3[P] w - - 0 1").expect("valid");
    let drops: Vec<String> = texts(&pos).into_iter().filter(|t| t.contains('@')).collect();
    assert!(!drops.iter().any(|d| d.starts_with("P@e")), "{drops:?}");
    assert!(!drops.iter().any(|d| d.ends_with('8')), "{drops:?}");
    assert!(
        drops.contains(&"P@a1".to_string()),
        "a pawn on the first rank can still move: {drops:?}"
    );
    // A pawn dropped on g7 checks the king on h8, which its own bishop and pawn box in, and the
    // knight on e6 guards g7: the drop would checkmate.
    let fen = "6bk/7p/4N3/8/8/8/8/4K3[P] w - - 0 1";
    let pos = e.from_fen(fen).expect("valid");
    assert!(!texts(&pos).contains(&"P@g7".to_string()), "P@g7 mates and must not be legal");
    assert!(texts(&pos).contains(&"P@f7".to_string()));
    assert_eq!(code(&pos, "P@g7"), "drop-mates");
    // Crazyhouse itself has no such restriction: the same drop is legal there, and mates.
    let g = game(&common::bundled("crazyhouse"), Some(fen), &["P@g7"]);
    assert_eq!(g.outcome().reason.as_deref(), Some("checkmate"));
}

#[test]
fn fen_with_hands_round_trips_and_bad_hands_are_refused() {
    let e = common::bundled("crazyhouse");
    for fen in [
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[NPb] b KQkq - 0 1",
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1",
    ] {
        assert_eq!(e.from_fen(fen).expect("valid").fen(), fen);
    }
    for bad in [
        "8/8/8/8/8/8/8/4K2k[X] w - - 0 1",
        "8/8/8/8/8/8/8/4K2k[P w - - 0 1",
        "~8/8/8/8/8/8/8/4K2k[] w - - 0 1",
    ] {
        assert!(e.from_fen(bad).is_err(), "{bad} must be refused");
    }
    // A ruleset without hands refuses pieces in hand.
    assert!(common::bundled("chess").from_fen("4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1").is_err());
    // A hand holds up to 255 of each piece, as a position keeps it: 255 pawns and a rook read
    // back (a capture into a hand of 255 pawns wrote this, and the reader refused its 256
    // pieces: found by the long fuzz run), and 256 pawns are refused, naming the bound.
    let full = "4k3/8/8/8/8/8/8/4K3[R255p] w - - 0 1";
    let pos = e.from_fen(full).expect("255 of one piece and one of another");
    assert_eq!(e.from_fen(&pos.fen()).expect("reads back").fen(), pos.fen());
    let err = e.from_fen("4k3/8/8/8/8/8/8/4K3[256p] w - - 0 1").expect_err("256 of one piece");
    assert!(err.to_string().contains("more than 255 of one piece in a hand"), "{err}");
}

// ---------------------------------------------------------------- jumps

#[test]
fn a_capture_goes_on_while_it_can_and_is_one_move() {
    let e = common::bundled("draughts");
    // Black man on c3 can take d4 and then f6: one move, c3e5g7.
    let pos = e.from_fen("8/8/5m2/8/3m4/2M5/8/8 b - - 0 1").expect("valid");
    assert_eq!(texts(&pos), vec!["c3e5g7"]);
    let m = uci::find(&pos, "c3e5g7").expect("legal");
    assert_eq!(pos.landings(m).len(), 2);
    assert_eq!(pos.captures_of(m), 2);
    assert_eq!(pos.perft(1), 1);
    // Stopping halfway is not a move.
    assert_eq!(code(&pos, "c3e5"), "capture-must-continue");
    let mut after = pos.clone();
    after.play_unchecked(m);
    assert_eq!(after.fen(), "8/6M1/8/8/8/8/8/8 w - - 0 1");
}

#[test]
fn capturing_is_compulsory_and_the_most_when_the_rules_say_so() {
    let fen = "8/8/5m2/8/1m1m4/2M5/8/8 b - - 0 1";
    // c3 can take b4 (landing a5) or d4 then f6 (c3e5g7): any capture is fine in English draughts.
    let pos = common::bundled("draughts").from_fen(fen).expect("valid");
    assert_eq!(texts(&pos), vec!["c3a5", "c3e5g7"]);
    assert_eq!(code(&pos, "c3d2"), "no-such-move");
    // Under `must capture the most` only the double capture remains.
    let pos = variant("draughts-most").from_fen(fen).expect("valid");
    assert_eq!(texts(&pos), vec!["c3e5g7"]);
    assert_eq!(code(&pos, "c3a5"), "capture-required");
}

#[test]
fn crowning_ends_the_move() {
    let e = common::bundled("draughts");
    // The man on b6 jumps c7 to d8 and is crowned; as a king it could go on over e7 to f6, but
    // crowning ends the move.
    let pos = e.from_fen("8/2m1m3/1M6/8/8/8/8/8 b - - 0 1").expect("valid");
    assert_eq!(texts(&pos), vec!["b6d8"]);
    let mut after = pos.clone();
    after.play_unchecked(uci::find(&pos, "b6d8").expect("legal"));
    assert_eq!(after.fen(), "3K4/4m3/8/8/8/8/8/8 w - - 0 1");
}

// ---------------------------------------------------------------- enclosures

#[test]
fn a_placement_flips_every_enclosed_line_and_must_flip_something() {
    let e = common::bundled("othello");
    let pos = e.start();
    assert_eq!(texts(&pos), vec!["c4", "d3", "e6", "f5"]);
    assert_eq!(code(&pos, "a1"), "no-effect");
    let g = game(&e, None, &["d3"]);
    // A flip is not a capture: the clock runs on.
    assert_eq!(g.current().fen(), "8/8/8/3Dd3/3DD3/3D4/8/8 w - - 1 1");
    // 6 × 6: the same rules on a smaller board.
    let six = variant("othello-6");
    assert_eq!(texts(&six.start()), vec!["b3", "c2", "d5", "e4"]);
}

#[test]
fn a_player_without_a_flip_passes_and_the_count_decides() {
    let e = common::bundled("othello");
    // Black cannot move (no flip anywhere) but white can: black's only move is a pass.
    let pos = e.from_fen("8/8/8/8/8/8/dD6/8 b - - 0 1").expect("valid");
    assert_eq!(texts(&pos), vec!["pass"]);
    let g = game(&e, Some("8/8/8/8/8/8/dD6/8 b - - 0 1"), &["pass", "c2"]);
    let o = g.outcome();
    assert_eq!(
        (o.status, o.winner, o.reason.as_deref()),
        (Status::Win, Some(Side::SECOND), Some("count"))
    );
    assert!(
        o.message(g.current()).contains("black has 0 pieces and white 3"),
        "{}",
        o.message(g.current())
    );
}

#[test]
fn enclosed_pieces_are_captured_by_a_custodial_move() {
    let e = variant("hasami");
    // White's stone on e5 is enclosed between black's e4 and the black stone arriving on e6.
    let g = game(&e, Some("9/9/9/S8/4s4/4S4/9/9/9 b - - 0 1"), &["a6e6"]);
    assert_eq!(g.current().fen(), "9/9/9/4S4/9/4S4/9/9/9 w - - 0 1");
    let o = g.outcome();
    assert_eq!(
        (o.status, o.winner, o.reason.as_deref()),
        (Status::Win, Some(Side::FIRST), Some("wiped-out"))
    );
    // Arriving beside it without a stone beyond captures nothing.
    let g = game(&e, Some("9/9/9/S8/4s4/9/9/9/9 b - - 0 1"), &["a6e6"]);
    assert_eq!(g.current().fen(), "9/9/9/4S4/4s4/9/9/9/9 w - - 1 1");
}

// ---------------------------------------------------------------- gravity

#[test]
fn a_placed_piece_falls_to_the_lowest_empty_cell() {
    for (name, engine) in [
        ("connect-four", common::bundled("connect-four")),
        ("connect-three", variant("connect-three")),
    ] {
        let g = game(&engine, None, &["b1", "b2"]);
        let pos = g.current();
        assert!(texts(pos).contains(&"b3".to_string()), "{name}");
        assert!(!texts(pos).contains(&"b4".to_string()), "{name}");
        assert_eq!(code(pos, "b4"), "not-resting", "{name}");
        // The file alone names the cell the disc comes to rest on.
        assert_eq!(uci::find(pos, "b").map(|m| m.to), uci::find(pos, "b3").map(|m| m.to), "{name}");
    }
}

// ---------------------------------------------------------------- goals

#[test]
fn n_in_a_row_wins_for_the_mover_and_explains_itself() {
    let e = common::bundled("tic-tac-toe");
    let g = game(&e, None, &["a1", "b1", "a2", "b2", "a3"]);
    let o = g.outcome();
    assert_eq!(
        (o.status, o.winner, o.reason.as_deref()),
        (Status::Win, Some(Side::FIRST), Some("three-in-a-row"))
    );
    assert!(
        o.message(g.current()).contains("cross has 3 in a row, a1–a3"),
        "{}",
        o.message(g.current())
    );
    // A line is named from its lowest square whichever way it runs (a rank, the other diagonal).
    for (line, named) in [(["c2", "a1", "b2", "b1", "a2"], "a2–c2"), (["c1", "a1", "b2", "b1", "a3"], "c1–a3")] {
        let g = game(&e, None, &line);
        let said = g.outcome().message(g.current());
        assert!(said.contains(&format!("cross has 3 in a row, {named}")), "{line:?}: {said}");
    }
    let e = common::bundled("connect-four");
    let g = game(&e, None, &["a", "b", "b", "c", "c", "d", "c", "d", "d", "g", "d"]);
    assert_eq!(g.outcome().reason.as_deref(), Some("four-in-a-row"));
}

#[test]
fn exactly_n_in_a_row_does_not_count_an_overline() {
    let e = variant("gomoku");
    // Black has a1..e1 minus c1, and f1: c1 would make six in a row, which does not win.
    let g = game(&e, None, &["a1", "a5", "b1", "b5", "d1", "c5", "e1", "d5", "f1", "h8", "c1"]);
    assert_eq!(g.outcome().status, Status::Ongoing);
    let g = game(&e, None, &["a1", "a5", "b1", "b5", "d1", "c5", "e1", "h5", "c1"]);
    assert_eq!(g.outcome().reason.as_deref(), Some("five"));
}

#[test]
fn a_kind_in_a_zone_wins() {
    let e = common::bundled("breakthrough");
    let g = game(&e, Some("8/1P6/8/8/8/8/8/p7 w - - 0 1"), &["b7b8"]);
    let o = g.outcome();
    assert_eq!((o.winner, o.reason.as_deref()), (Some(Side::FIRST), Some("breakthrough")));
    assert!(
        o.message(g.current()).contains("white's pawn stands on b8"),
        "{}",
        o.message(g.current())
    );
    let e = variant("king-of-the-hill");
    let g = game(&e, None, &["e2e4", "e7e5", "e1e2", "e8e7", "e2d3", "e7d6", "d3c4", "d6c6"]);
    assert_eq!(g.outcome().status, Status::Ongoing);
    let g = game(&e, Some("4k3/8/8/8/8/2K5/8/R7 w - - 0 1"), &["c3d4"]);
    assert_eq!(g.outcome().reason.as_deref(), Some("hill"));
}

#[test]
fn no_pieces_left_and_a_capture_of_a_kind_end_the_game() {
    let e = common::bundled("breakthrough");
    let g = game(&e, Some("8/8/8/8/8/2p5/1P6/8 w - - 0 1"), &["b2c3"]);
    let o = g.outcome();
    assert_eq!((o.winner, o.reason.as_deref()), (Some(Side::FIRST), Some("wiped-out")));
    let e = variant("capture-the-king");
    let g = game(&e, Some("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), &["h1h8", "e8d8", "h8d8"]);
    let o = g.outcome();
    assert_eq!((o.winner, o.reason.as_deref()), (Some(Side::FIRST), Some("king-taken")));
    assert!(
        o.message(g.current()).contains("the last move captured a king"),
        "{}",
        o.message(g.current())
    );
    // Taking another kind does not end it.
    let g = game(&e, Some("3rk3/8/8/8/8/8/8/3RK3 w - - 0 1"), &["d1d8"]);
    assert_eq!(g.outcome().status, Status::Ongoing);
}

#[test]
fn a_chain_joining_the_movers_two_edges_wins_on_hexes() {
    let e = common::bundled("hex");
    // Red needs rank 1 to rank 11 along one file: 11 stones on c1..c11 (blue elsewhere).
    let mut moves = Vec::new();
    for r in 1..=11 {
        moves.push(format!("c{r}"));
        if r < 11 {
            moves.push(format!("k{r}"));
        }
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let g = game(&e, None, &refs[..refs.len() - 1]);
    assert_eq!(g.outcome().status, Status::Ongoing);
    let g = game(&e, None, &refs);
    let o = g.outcome();
    assert_eq!((o.winner, o.reason.as_deref()), (Some(Side::FIRST), Some("connection")));
    // Blue joins file a to file k along rank 1 while red fills rank 3 (which joins nothing of red's).
    let mut moves = Vec::new();
    for f in "abcdefghijk".chars() {
        moves.push(format!("{f}3"));
        moves.push(format!("{f}1"));
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let g = game(&e, None, &refs);
    let o = g.outcome();
    assert_eq!((o.winner, o.reason.as_deref()), (Some(Side::SECOND), Some("connection")));
    // Cells touching only at a corner ((f+1, r+1)) are not neighbours: a diagonal of red stones
    // from a1 to k11 joins nothing.
    let mut moves = Vec::new();
    for (i, f) in "abcdefghijk".chars().enumerate() {
        moves.push(format!("{f}{}", i + 1));
        if i < 10 {
            moves.push(format!("{f}{}", if i < 5 { 11 } else { 1 }));
        }
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    assert_eq!(game(&e, None, &refs).outcome().status, Status::Ongoing);
}

#[test]
fn hex_cells_have_six_neighbours() {
    let rules = common::rules("rulesets/hex.rules", &[]);
    let b = &rules.board;
    let c = b.parse_square("f6").expect("a cell");
    let mut names: Vec<String> = b.neighbours(c).map(|s| b.name(s)).collect();
    names.sort();
    assert_eq!(names, vec!["e6", "e7", "f5", "f7", "g5", "g6"]);
    assert_eq!(b.neighbours(b.parse_square("a1").expect("a cell")).count(), 2);
    assert_eq!(b.neighbours(b.parse_square("k1").expect("a cell")).count(), 3);
    // `diagonal` means nothing on hexes.
    let c = arbiter::check::check_source(
        "t.rules",
        "game \"G\" { players a \"a\", b \"b\" }\nboard 3 x 3 hexes { }\npiece S \"S\" { step diagonal }\nsetup empty\n",
        None,
        &[],
    );
    assert!(c.rules.is_none());
}

#[test]
fn the_swap_takes_over_the_first_stone_mirrored() {
    let e = variant("hex-5");
    let g = game(&e, None, &["b4"]);
    assert!(texts(g.current()).contains(&"swap".to_string()));
    let g = game(&e, None, &["b4", "swap"]);
    let pos = g.current();
    let b = &pos.rules().board;
    // Red's stone on b4 (file b, rank 4) becomes blue's on d2 (file d, rank 2).
    assert_eq!(pos.piece_at(b.parse_square("d2").expect("a cell")).map(|p| p.1), Some(Side::SECOND));
    assert_eq!(pos.piece_counts(), [0, 1]);
    assert_eq!(pos.side_to_move(), Side::FIRST);
    // Off by default in the bundled ruleset.
    let g = game(&common::bundled("hex"), None, &["b4"]);
    assert!(!texts(g.current()).contains(&"swap".to_string()));
}

// ---------------------------------------------------------------- perft semantics

#[test]
fn perft_applies_end_rules_only_when_asked() {
    let e = common::bundled("tic-tac-toe");
    let pos = e.start();
    // Without end rules every game runs to a full board: 9! leaves.
    assert_eq!(pos.perft(9), 362_880);
    assert_eq!(pos.perft_stop_at_end(9), 127_872);
    // A finished position has no children when stopping at the end.
    let g = game(&e, None, &["a1", "b1", "a2", "b2", "a3"]);
    assert_eq!(g.current().perft_stop_at_end(1), 0);
    assert_eq!(g.current().perft(1), 4);
    // Chess keeps its standard counts either way from the start.
    let c = common::bundled("chess").start();
    assert_eq!(c.perft(3), c.perft_stop_at_end(3));
}

#[test]
fn every_width_generates_the_same_new_moves() {
    use arbiter::game::Width;
    for (name, depth) in [
        ("othello", 4),
        ("draughts", 5),
        ("crazyhouse", 3),
        ("connect-four", 5),
        ("breakthrough", 3),
        ("antichess", 3),
        ("clobber", 3),
        ("duck-chess", 2),
        ("isolation", 2),
    ] {
        let rules = common::rules(&format!("rulesets/{name}.rules"), &[]);
        let counts: Vec<u64> = [Width::Small, Width::Medium, Width::Large, Width::Huge]
            .into_iter()
            .filter_map(|w| Engine::with_width(rules.clone(), w))
            .map(|e| e.start().perft_stop_at_end(depth))
            .collect();
        assert_eq!(counts.len(), 4, "{name}");
        assert!(counts.windows(2).all(|w| w[0] == w[1]), "{name}: {counts:?}");
    }
}

/// A leaf's count (perft 1, which counts the moves without listing them, some clauses' pieces all
/// at once) is the length of the list, in every bundled game and in the language tests' games,
/// at every position of seeded random games: pins, checks, promotions and en passant included.
#[test]
fn counted_moves_are_the_listed_moves_in_every_game() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files: Vec<String> = ["rulesets", "tests/language"]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(root.join(dir))
                .expect("the folder is there")
                .map(move |e| format!("{dir}/{}", e.expect("entry").file_name().to_string_lossy()))
        })
        .filter(|f| f.ends_with(".rules"))
        .collect();
    files.sort();
    let mut games_played = 0;
    for file in &files {
        let checked = arbiter::check::check_file(&root.join(file), &[]);
        let Some(rules) = checked.rules else { continue };
        let e = Engine::new(rules);
        games_played += 1;
        let games = if e.start().legal_moves().len() > 60 { 3 } else { 12 };
        for game in 0..games {
            let mut pos = e.start();
            for ply in 0..120 {
                let legal = pos.legal_moves();
                assert_eq!(pos.perft(1), legal.len() as u64, "{file}: game {game}, ply {ply}, {}", pos.fen());
                if legal.is_empty() || pos.perft_stop_at_end(1) == 0 {
                    break;
                }
                pos.play_unchecked(legal[(rng.next_u32() as usize) % legal.len()]);
            }
        }
    }
    // The bundled games at least: a folder read wrong must not pass with nothing checked.
    assert!(games_played >= 20, "only {games_played} rulesets loaded");
}

#[test]
fn make_and_unmake_restore_everything_in_the_new_games() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for name in [
        "othello",
        "draughts",
        "crazyhouse",
        "connect-four",
        "breakthrough",
        "hex",
        "tic-tac-toe",
        "antichess",
        "clobber",
        "duck-chess",
        "isolation",
        "seirawan",
        "three-check",
        "atomic",
        "tapatan",
        "lines-of-action",
        "y",
        "russian-draughts",
        "turkish-draughts",
        "tests/language/morris.rules",
        "tests/language/brandubh.rules",
        "tests/language/brandubh-edge.rules",
        "tests/language/cloning.rules",
        "tests/language/ataxx.rules",
        "tests/language/havannah.rules",
        "tests/language/duck-crazyhouse.rules",
        "tests/language/two-sided-drops.rules",
        "tests/language/chess-truce.rules",
        "tests/language/facing-kings.rules",
        "tests/language/atari-go.rules",
    ] {
        let e = if name.ends_with(".rules") {
            common::engine(name, &[])
        } else {
            common::bundled(name)
        };
        // Fewer games where a position has hundreds of moves: perft 2 there is 10^5 makes.
        let games = if e.start().legal_moves().len() > 60 { 4 } else { 20 };
        for _ in 0..games {
            let mut pos = e.start();
            for _ in 0..60 {
                let legal = pos.legal_moves();
                if legal.is_empty() || pos.perft_stop_at_end(1) == 0 {
                    break;
                }
                let m: Move = legal[(rng.next_u32() as usize) % legal.len()];
                let mut after = pos.clone();
                after.play_unchecked(m);
                // Perft makes and unmakes every move below in place: the position must come back whole.
                let before = (after.fen(), after.hash(), after.legal_moves());
                let _ = arbiter::game::Position::perft_in_place(&mut after, 2);
                assert_eq!(
                    (after.fen(), after.hash(), after.legal_moves()),
                    before,
                    "{name}: after {}",
                    uci::to_text(&pos, m)
                );
                // Every move's coordinates read back as it (`P@e4`, or the square alone where
                // one kind can be dropped or placed, `b2`; parts after a comma).
                assert_eq!(
                    uci::find(&pos, &uci::to_text(&pos, m)),
                    Some(m),
                    "{name}: {}",
                    uci::to_text(&pos, m)
                );
                pos = after;
            }
        }
    }
}

/// Counts, phases, parts and the undo records of the third family cost a constant per ply: a long
/// game holds each position's board and no more, and a position carries nothing from the plies
/// before it but its repetition keys.
#[test]
fn long_games_with_counts_and_parts_cost_a_constant_per_ply() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for name in [
        "duck-chess",
        "three-check",
        "seirawan",
        "tapatan",
        "lines-of-action",
        "isolation",
        "tests/language/morris.rules",
        "tests/language/duck-crazyhouse.rules",
    ] {
        let e = if name.ends_with(".rules") {
            common::engine(name, &[])
        } else {
            common::bundled(name)
        };
        let start = e.start();
        let one = std::mem::size_of::<Position>() + start.heap_bytes();
        // Games played on past their end (while moves remain), several joined, up to 600 plies.
        let mut longest = 0;
        let mut g = Game::new(e.clone(), start.clone());
        for _ in 0..600 {
            let legal = g.current().legal_moves();
            if legal.is_empty() {
                longest = longest.max(g.ply());
                g = Game::new(e.clone(), start.clone());
                continue;
            }
            g.play(legal[(rng.next_u32() as usize) % legal.len()]);
            let bound = 2 * (g.ply() + 1) * one + 8 * g.ply();
            assert!(
                g.heap_bytes() <= bound,
                "{name}: {} bytes at ply {}, over {bound}",
                g.heap_bytes(),
                g.ply()
            );
            // The position in play keeps its repetition keys (8 bytes a ply) and no undo records.
            let now = g.current().heap_bytes();
            assert!(
                now <= 2 * start.heap_bytes() + 16 * g.ply() + 1024,
                "{name}: the position holds {now} bytes at ply {}, against {} at the start",
                g.ply(),
                start.heap_bytes()
            );
        }
        longest = longest.max(g.ply());
        assert!(longest >= 20, "{name}: no game lasted 20 plies ({longest})");
        // The positions left behind keep their boards and nothing that grows with the game.
        let behind: usize = g.positions().iter().rev().skip(1).map(Position::heap_bytes).sum();
        let each = behind / g.ply().max(1);
        assert!(
            each <= start.heap_bytes() + 64,
            "{name}: {each} bytes on the heap for each position behind, {} for the start",
            start.heap_bytes()
        );
    }
}

/// Two clauses that reach the same square with the same effect give one move there, in the list,
/// in perft and in notation; clauses whose moves differ (a step that may only go to an empty
/// square beside one that captures) are not merged.
#[test]
fn clauses_that_meet_give_each_move_once() {
    let text = |pieces: &str| {
        format!(
            "game \"Meet\" {{\n  players white \"w\", black \"b\"\n}}\nboard 4 x 4 squares {{\n  files a..d\n  ranks 1..4\n}}\n\
             {pieces}\nend {{\n  stuck: no legal move -> side to move loses\n}}\nsetup \"d3/4/4/3D w - - 0 1\"\n"
        )
    };
    let engine = |pieces: &str| {
        let c = arbiter::check::check_source("meet.rules", &text(pieces), None, &[]);
        Engine::new(c.rules.unwrap_or_else(|| panic!("{pieces}: {:?}", c.diagnostics.items)))
    };
    // A dragon: a rook's slides and a king's steps. From d1 on 4 × 4: a1, b1, c1, d2, d3, d4 by
    // sliding, c2 by a diagonal step; c1 and d2 are reached both ways.
    let dragon = engine("piece Dragon \"D\" {\n  step any\n  slide orthogonal\n}");
    let start = dragon.start();
    assert_eq!(texts(&start), ["d1a1", "d1b1", "d1c1", "d1c2", "d1d2", "d1d3", "d1d4"]);
    assert_eq!(start.perft(1), 7);
    for t in texts(&start) {
        assert!(uci::find(&start, &t).is_some(), "{t}");
    }
    // A line written twice changes nothing.
    let twice = engine("piece Dragon \"D\" {\n  step any\n  slide orthogonal\n  slide orthogonal\n}");
    assert_eq!(twice.start().perft(3), start.perft(3));
    // Clauses with other effects stay apart: a copy left behind is another move than a step.
    let cloner = engine("piece Dragon \"D\" {\n  step orthogonal to empty\n  step orthogonal to empty, leaving a copy\n}");
    assert_eq!(cloner.start().legal_moves().len(), 4, "d1c1 and d1d2, each moving or copying");
}

/// A count of captures counts pieces that leave the board, by kind where the count names one: a
/// piece turned over changes owner and is not captured.
#[test]
fn pieces_turned_over_are_not_counted_as_captured() {
    let text = |effect: &str| {
        format!(
            "game \"Turn\" {{\n  players white \"w\", black \"b\"\n}}\nboard 4 x 4 squares {{\n  files a..d\n  ranks 1..4\n}}\n\
             count taken = 0, plus 1 for each capture\ncount men = 0, plus 1 for each Man captured\n\
             piece Man \"M\" {{\n  step any to empty, {effect}\n}}\npiece Post \"P\" {{ }}\n\
             end {{\n  five: taken of mover >= 5 -> mover wins\n  men: men of mover >= 5 -> mover wins\n  stuck: no legal move -> side to move loses\n}}\n\
             setup \"4/4/mp2/M3 w - - 0 1\"\n"
        )
    };
    for (effect, taken) in [("flipping neighbours", 0), ("capturing neighbours", 2)] {
        let c = arbiter::check::check_source("turn.rules", &text(effect), None, &[]);
        let e = Engine::new(c.rules.unwrap_or_else(|| panic!("{effect}: {:?}", c.diagnostics.items)));
        let mut pos = e.start();
        // a1 to b1: next to the enemy man on a2 and the enemy post on b2.
        pos.play_unchecked(uci::find(&pos, "a1b1").expect("legal"));
        assert_eq!(
            (pos.tally(Side::FIRST, 0), pos.tally(Side::FIRST, 1)),
            (taken, taken / 2),
            "{effect}"
        );
    }
}

// ---------------------------------------------------------------- finer movement

#[test]
fn a_lame_leap_is_blocked_at_any_of_its_points() {
    let e = variant("janggi-elephant");
    let free = texts(&e.start());
    assert!(free.contains(&"e1c4".to_string()) && free.contains(&"e1g4".to_string()), "{free:?}");
    // The first point, e2, blocks both leaps that pass it.
    let pos = e.from_fen("4k4/9/9/9/9/9/9/9/4p4/K3E4 w - - 0 1").expect("valid");
    let moves = texts(&pos);
    assert!(
        !moves.contains(&"e1c4".to_string()) && !moves.contains(&"e1g4".to_string()),
        "{moves:?}"
    );
    // The second point, f3, blocks only the leap to g4.
    let pos = e.from_fen("4k4/9/9/9/9/9/9/5p3/9/K3E4 w - - 0 1").expect("valid");
    let moves = texts(&pos);
    assert!(
        moves.contains(&"e1c4".to_string()) && !moves.contains(&"e1g4".to_string()),
        "{moves:?}"
    );
    assert_eq!(code(&pos, "e1g4"), "blocked");
    // The xiangqi horse keeps its one leg.
    let x = common::bundled("xiangqi").start();
    assert_eq!(x.perft(3), 79666);
}

#[test]
fn promotion_may_be_optional_forced_on_a_sub_zone_and_taken_when_leaving() {
    let e = variant("optional-promotion");
    // a5 to a6 enters the far ranks: stay or promote. b6 to b7 starts there: the same.
    let moves = texts(&e.start());
    for m in ["a5a6", "a5a6g", "b6b7", "b6b7g"] {
        assert!(moves.contains(&m.to_string()), "{m}: {moves:?}");
    }
    // On the last rank it must promote (the letter is written, as the promotion is optional elsewhere).
    let pos = e.from_fen("k7/1P6/8/8/8/8/8/7K w - - 0 1").expect("valid");
    let moves = texts(&pos);
    assert!(
        moves.contains(&"b7b8g".to_string()) && !moves.contains(&"b7b8".to_string()),
        "{moves:?}"
    );
    let mut after = pos.clone();
    after.play_unchecked(uci::find(&pos, "b7b8g").expect("legal"));
    assert_eq!(after.fen(), "kG6/8/8/8/8/8/8/7K b - - 1 1");
    // Standing unpromoted in the optional zone is a legal position; on the last rank it is not.
    assert!(e.from_fen("k7/8/1P6/8/8/8/8/7K w - - 0 1").is_ok());
    assert!(e.from_fen("kP6/8/8/8/8/8/8/7K w - - 0 1").is_err());
    // Chess keeps its four choices on the last rank only.
    let c = common::bundled("chess").from_fen("k7/4P3/8/8/8/8/8/7K w - - 0 1").expect("valid");
    assert_eq!(texts(&c).iter().filter(|m| m.starts_with("e7e8")).count(), 4);
}

#[test]
fn a_zone_given_per_player_takes_each_players_own_named_zones() {
    let text = "game \"G\" { players red \"r\", blue \"b\" }\nboard 5 x 5 squares { }\nzone home = rank 1\n\
                zone goal = home for red, home for blue\nzone edge = file a for red, file e for blue\n\
                piece S \"S\" { place on empty }\nend { e: S in goal -> mover wins\n f: S in edge -> mover loses }\nsetup empty\n";
    let c = arbiter::check::check_source("zones.rules", text, None, &[]);
    let e = Engine::new(c.rules.expect("valid"));
    // Blue's `home` is its own (rank 5, the mirror of rank 1); a literal `file e` is taken as written.
    let g = game(&e, None, &["b3", "b5"]);
    assert_eq!((g.outcome().winner, g.outcome().reason.as_deref()), (Some(Side::SECOND), Some("e")));
    let g = game(&e, None, &["b3", "e3"]);
    assert_eq!((g.outcome().winner, g.outcome().reason.as_deref()), (Some(Side::FIRST), Some("f")));
    let g = game(&e, None, &["b3", "b1"]);
    assert_eq!(g.outcome().status, Status::Ongoing);
}

#[test]
fn a_promoted_kind_may_be_written_plus_its_bases_letter() {
    let e = variant("plus-letters");
    let g = game(&e, None, &["c4c5"]);
    assert_eq!(g.current().fen(), "k1+P2/5/5/5/4K b - - 1 1");
    let pos = e.from_fen("k1+P2/5/5/5/4K b - - 0 1").expect("valid");
    let b = &pos.rules().board;
    let tokin = pos.piece_at(b.parse_square("c5").expect("a square")).expect("a piece");
    assert_eq!(pos.rules().kind(tokin.0).name, "Tokin");
    assert_eq!(pos.fen(), "k1+P2/5/5/5/4K b - - 0 1");
    // `+` before a letter no promoted kind has is refused, naming it.
    let err = e.from_fen("k1+K2/5/5/5/4K b - - 0 1").expect_err("no promoted king");
    assert!(err.to_string().contains("+K"), "{err}");
}

#[test]
fn a_hop_may_refuse_some_screens_and_some_targets() {
    let e = variant("janggi-cannon");
    let moves = |fen: &str| -> Vec<String> {
        let pos = e.from_fen(fen).expect("valid");
        texts(&pos).into_iter().filter(|m| m.starts_with("a1")).collect()
    };
    // Over a soldier to the empty squares beyond, up to the own general.
    assert_eq!(moves("4k4/9/9/9/9/9/9/9/9/CP2K4 w - - 0 1"), vec!["a1c1", "a1d1"]);
    // Never over a cannon.
    assert!(moves("4k4/9/9/9/9/9/9/9/9/CC2K4 w - - 0 1").is_empty());
    // Never taking a cannon, but taking a soldier.
    assert!(moves("4k4/9/9/9/9/9/9/9/9/CPc1K4 w - - 0 1").is_empty());
    assert_eq!(moves("4k4/9/9/9/9/9/9/9/9/CPp1K4 w - - 0 1"), vec!["a1c1"]);
    // A cannon is no screen for a check either; a soldier is.
    assert!(!e.from_fen("3kc4/9/9/9/9/4C4/9/9/9/4K4 w - - 0 1").expect("valid").in_check());
    assert!(e.from_fen("3kc4/9/9/9/9/4P4/9/9/9/4K4 w - - 0 1").expect("valid").in_check());
    // The generator agrees with the plain definition of legality around such screens.
    let pos = e.from_fen("3kc4/9/9/4p4/9/4C4/9/9/3P5/4K4 w - - 0 1").expect("valid");
    let mut fast = pos.legal_moves();
    let mut slow = pos.legal_moves_reference();
    fast.sort_by_key(|m| (m.from, m.to));
    slow.sort_by_key(|m| (m.from, m.to));
    assert_eq!(fast, slow);
}

#[test]
fn mangled_fens_and_moves_are_refused_without_a_panic() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let pieces = ['P', 'p', 'Q', '~', '+', '[', ']', '/', '1', '9', ' ', '@', 'x', '-', 'M', 'k'];
    for (name, fen) in [
        (
            "crazyhouse",
            "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[NPb] b KQkq - 0 1",
        ),
        ("draughts", "1m1m1m1m/m1m1m1m1/1m1m1m1m/8/8/M1M1M1M1/1M1M1M1M/M1M1M1M1 b - - 0 1"),
        ("othello", "8/8/8/3Dd3/3dD3/8/8/8 b - - 0 1"),
        ("hex", "11/11/11/11/11/11/11/11/11/11/11 r - - 0 1"),
    ] {
        let e = common::bundled(name);
        let pos = e.from_fen(fen).expect("valid");
        for _ in 0..400 {
            let mut chars: Vec<char> = fen.chars().collect();
            for _ in 0..1 + rng.next_u32() % 3 {
                let i = (rng.next_u32() as usize) % chars.len();
                match rng.next_u32() % 3 {
                    0 => {
                        chars.remove(i);
                    }
                    1 => chars.insert(i, pieces[(rng.next_u32() as usize) % pieces.len()]),
                    _ => chars[i] = pieces[(rng.next_u32() as usize) % pieces.len()],
                }
                if chars.is_empty() {
                    break;
                }
            }
            let text: String = chars.into_iter().collect();
            if let Ok(p) = e.from_fen(&text) {
                let _ = p.legal_moves();
                let _ = p.fen();
            }
        }
        for text in [
            "",
            "@",
            "P@",
            "P@z9",
            "c3e5g7e5c3a1c3e5",
            "a1a1a1",
            "swap",
            "pass",
            "z",
            "d",
            "+",
            "e7e8+",
            "~",
        ] {
            let _ = pos.explain(text);
            let _ = notation::find(&pos, text);
        }
    }
}

#[test]
fn a_capture_may_come_back_to_its_start_square() {
    let e = common::bundled("draughts");
    let fen = "8/8/8/2m1m3/8/2m1m3/3K4/8 b - - 0 1";
    let pos = e.from_fen(fen).expect("valid");
    let moves = texts(&pos);
    assert!(
        moves.contains(&"d2f4d6b4d2".to_string()) && moves.contains(&"d2b4d6f4d2".to_string()),
        "{moves:?}"
    );
    let mut after = pos.clone();
    after.play_unchecked(uci::find(&pos, "d2f4d6b4d2").expect("legal"));
    assert_eq!(after.fen(), "8/8/8/8/8/8/3K4/8 w - - 0 1");
    let mut same = pos.clone();
    assert_eq!(Position::perft_in_place(&mut same, 2), pos.perft(2));
    assert_eq!(same.fen(), fen);
}
