//! Perft counts from data files: `tests/perft/<ruleset>.txt`, one position per line with
//! `; depth count` pairs. Every count is checked; a wrong one names the position and depth.
//!
//! A position is a FEN, the word `start` (the ruleset's setup), or `moves M1 M2 …` (the setup, then
//! those moves in coordinates). A line `stop-at-end` makes the counts below it treat a position
//! that an automatic end rule ends as a leaf with no children (`arbiter perft --stop-at-end`).

use crate::common;

use common::root;

fn run(ruleset: &str) {
    let engine = common::bundled(ruleset);
    let data = std::fs::read_to_string(root().join(format!("tests/perft/{ruleset}.txt"))).expect("perft data file");
    let mut checked_counts = 0;
    let mut stop_at_end = false;
    for line in data.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if line == "stop-at-end" {
            stop_at_end = true;
            continue;
        }
        let mut parts = line.split(';').map(str::trim);
        let where_ = parts.next().expect("a position first");
        let pos = if where_ == "start" {
            engine.start()
        } else if let Some(moves) = where_.strip_prefix("moves") {
            let mut pos = engine.start();
            for m in moves.split_whitespace() {
                let mv = arbiter::notation::uci::find(&pos, m).unwrap_or_else(|| panic!("{where_}: `{m}` is not legal"));
                pos.play_unchecked(mv);
            }
            pos
        } else {
            engine.from_fen(where_).unwrap_or_else(|e| panic!("{where_}: {e}"))
        };
        for p in parts {
            let (d, n) = p.split_once(' ').expect("`depth count`");
            let (d, n): (u32, u64) = (d.parse().expect("depth"), n.trim().parse().expect("count"));
            let got = if stop_at_end { pos.perft_stop_at_end(d) } else { pos.perft(d) };
            assert_eq!(
                got,
                n,
                "perft({d}) of {where_} in {ruleset}{}",
                if stop_at_end { " (stop at end)" } else { "" }
            );
            checked_counts += 1;
        }
    }
    assert!(checked_counts > 0, "no perft data for {ruleset}");
}

#[test]
fn chess_perft_matches_published_counts() {
    run("chess");
}

#[test]
fn xiangqi_perft_matches_published_counts() {
    run("xiangqi");
}

#[test]
fn tic_tac_toe_perft_matches_the_oracles() {
    run("tic-tac-toe");
}

#[test]
fn connect_four_perft_matches_the_oracles() {
    run("connect-four");
}

#[test]
fn othello_perft_matches_published_counts_and_the_oracles() {
    run("othello");
}

#[test]
fn draughts_perft_matches_published_counts_and_the_oracles() {
    run("draughts");
}

#[test]
fn breakthrough_perft_matches_the_oracles() {
    run("breakthrough");
}

#[test]
fn crazyhouse_perft_matches_published_counts_and_the_oracles() {
    run("crazyhouse");
}

#[test]
fn hex_perft_matches_the_oracles() {
    run("hex");
}

#[test]
fn antichess_perft_matches_fairy_stockfish() {
    // `must capture` without jumps: the obligation filters every list, plain moves included.
    run("antichess");
}

#[test]
fn clobber_perft_matches_fairy_stockfish() {
    run("clobber");
}

#[test]
fn duck_chess_perft_matches_fairy_stockfish() {
    // Turns of two parts: the move, then the duck.
    run("duck-chess");
}

#[test]
fn isolation_perft_matches_fairy_stockfish() {
    run("isolation");
}

#[test]
fn atomic_perft_matches_fairy_stockfish_and_python_chess() {
    run("atomic");
}

#[test]
fn three_check_perft_matches_fairy_stockfish_and_python_chess() {
    run("three-check");
}

#[test]
fn seirawan_perft_matches_fairy_stockfish() {
    // Gating: a turn's later part, a drop on the square the move left.
    run("seirawan");
}

#[test]
fn four_player_chess_perft_matches_its_reference() {
    run("four-player-chess");
}

#[test]
fn dice_race_perft_matches_its_reference() {
    // Chance: each throw of the die a node of its own; entering from the hand by the throw, running
    // along a track, hits sent back to their owner's hand, a pass when stuck.
    run("dice-race");
}

#[test]
fn ur_perft_matches_its_reference() {
    // Chance weighted by four coins, bearing off by the exact throw, another turn on a rosette, a
    // safe square.
    run("ur");
}

#[test]
fn tapatan_perft_matches_its_reference() {
    // Phases: drops while the hands hold men, then steps along the lines.
    run("tapatan");
}

#[test]
fn lines_of_action_perft_matches_open_spiel() {
    // A slide as long as the pieces on its line, over its own.
    run("lines-of-action");
}

#[test]
fn y_perft_matches_open_spiel() {
    // A board cut to a triangle of hexes (`cells where ...`).
    run("y");
}

#[test]
fn russian_draughts_perft_matches_pydraughts() {
    // Flying kings, and a man crowned in a capture going on as a king.
    run("russian-draughts");
}

#[test]
fn turkish_draughts_perft_matches_pydraughts() {
    run("turkish-draughts");
}
