//! Games of chance: the roll as chance's move, in FEN, in simulations (drawn by weight from the
//! run's seed, whatever the threads and the players), and the ruling on it.

use crate::common;

use arbiter::game::{Engine, MoveKind, Position};
use arbiter::sim::{self, Config, PlayerSpec, Shard};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use std::sync::atomic::AtomicBool;

/// The dice race with its die replaced by `roll`.
fn race_with(roll: &str) -> Engine {
    let text = std::fs::read_to_string(common::root().join("rulesets/dice-race.rules")).expect("the dice race");
    let text = text.replace("roll 1 die of 4", roll);
    let c = arbiter::check::check_source("race.rules", &text, None, &[]);
    Engine::new(c.rules.unwrap_or_else(|| panic!("`{roll}` checks: {:?}", c.diagnostics.items)))
}

#[test]
fn rolls_are_drawn_as_likely_as_the_dice_make_them() {
    let pos = race_with("roll 2 dice of 6 summed").start();
    assert!(pos.to_roll());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut seen = [0u32; 13];
    let n = 72_000;
    for _ in 0..n {
        let m = pos.draw_roll(&mut rng).expect("a roll");
        assert!(matches!(m.kind, MoveKind::Roll(_)));
        seen[m.to as usize] += 1;
    }
    for (sum, &count) in seen.iter().enumerate().skip(2) {
        let ways = 6 - (7 - sum as i64).unsigned_abs();
        let expected = n as f64 * ways as f64 / 36.0;
        // Four standard deviations of a binomial count: a seeded run far inside it.
        let sd = (expected * (1.0 - ways as f64 / 36.0)).sqrt();
        assert!(
            (count as f64 - expected).abs() < 4.0 * sd,
            "{sum}: {count} of {n}, expected {expected:.0}"
        );
    }
    assert_eq!(seen[0] + seen[1], 0);
    // A position that has rolled draws nothing: the player moves.
    let rolled = pos.with_roll(7).expect("7 is a result");
    assert_eq!(rolled.draw_roll(&mut rng), None);
}

#[test]
fn a_rolled_position_reads_back_from_its_fen_with_its_roll_and_hash() {
    let e = common::bundled("dice-race");
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..30 {
        let mut pos = e.start();
        for _ in 0..40 {
            let back = e.from_fen(&pos.fen()).unwrap_or_else(|err| panic!("{}: {err}", pos.fen()));
            assert_eq!((back.fen(), back.hash(), back.rolled()), (pos.fen(), pos.hash(), pos.rolled()));
            assert_eq!(back.legal_moves(), pos.legal_moves(), "{}", pos.fen());
            let m = match pos.draw_roll(&mut rng) {
                Some(r) => r,
                None => arbiter::scenario::pick_random(&pos, &mut rng).expect("a move or a pass"),
            };
            pos.play_unchecked(m);
        }
    }
    // A roll the die never shows, a roll in a game without one: refused, naming the field.
    for (rules, fen, says) in [
        (e.clone(), "5/5[RRRrrr] w - - roll:5 0 1", "the roll shows one of 1, 2, 3, 4"),
        (e.clone(), "5/5[RRRrrr] w - - roll:x 0 1", "roll field"),
        (
            common::bundled("chess"),
            "8/8/8/8/8/8/8/K1k5 w - - roll:2 0 1",
            "nothing is rolled in this game",
        ),
    ] {
        let err = rules.from_fen(fen).expect_err(fen).to_string();
        assert!(err.contains(says), "{fen}: {err}");
    }
}

/// The moves of game `game` of a dice race run with these players, and the rolls among them.
fn rolls_of(players: [PlayerSpec; 2], threads: usize, game: u64) -> Vec<u16> {
    let e = common::bundled("dice-race");
    let cfg = Config {
        games: game + 1,
        seed: 2026,
        players: players.to_vec(),
        max_plies: 400,
        threads,
        shard: Shard::WHOLE,
        keep_moves: true,
        branching_every: 1,
    };
    let out = sim::run(&e.start(), &cfg, &AtomicBool::new(false), &|_| {});
    let (_, _, moves) = out.games.iter().find(|g| g.0 == game).expect("the game was played");
    moves.iter().filter(|m| matches!(m.kind, MoveKind::Roll(_))).map(|m| m.to).collect()
}

#[test]
fn a_run_s_rolls_come_from_its_seed_whatever_the_threads_and_the_players() {
    let random = [PlayerSpec::Random, PlayerSpec::Random];
    let a = rolls_of(random, 1, 5);
    assert_eq!(a, rolls_of(random, 2, 5), "threads change no roll");
    // Other players make other games, of other lengths; the rolls they share come in the same order.
    let b = rolls_of([PlayerSpec::parse("mcts:50").expect("a player"), PlayerSpec::Random], 1, 5);
    let common = a.len().min(b.len());
    assert!(common >= 5, "{a:?} / {b:?}");
    assert_eq!(a[..common], b[..common]);
    // And the games of a run roll differently.
    assert_ne!(a, rolls_of(random, 1, 6));
}

#[test]
fn explain_rules_on_the_roll_and_names_it_after() {
    let e = common::bundled("dice-race");
    let start: Position = e.start();
    let said = |pos: &Position, text: &str| match pos.explain(text) {
        arbiter::game::Ruling::Legal { message, .. } => format!("legal: {message}"),
        arbiter::game::Ruling::Illegal(i) => format!("{}: {}", i.code, i.message),
    };
    assert_eq!(
        said(&start, "roll:3"),
        "legal: white rolls 3 (`roll 1 die of 4`: a chance of 1 in 4)"
    );
    assert!(said(&start, "b1").starts_with("roll-first:"), "{}", said(&start, "b1"));
    assert!(
        said(&start, "roll:5").starts_with("not-a-roll-result:"),
        "{}",
        said(&start, "roll:5")
    );
    let rolled = start.with_roll(2).expect("a roll of 2");
    assert!(said(&rolled, "roll:2").starts_with("rolled-already:"));
    let c1 = said(&rolled, "c1");
    assert!(
        c1.starts_with("not-allowed:") && c1.contains("white rolled 2: a piece from the hand enters on b1"),
        "{c1}"
    );
    assert!(said(&rolled, "b1").starts_with("legal:"));
}

/// The command line's doors for chance refuse what cannot be: a roll the die never shows, a roll
/// in a game without one or after the roll, an engine protocol for a game of chance.
#[test]
fn rolls_on_the_command_line_are_refused_where_they_cannot_be() {
    for (args, says) in [
        (
            vec!["perft", "dice-race", "2", "--roll", "7"],
            "--roll 7: the roll never shows 7: it shows 1, 2, 3, 4",
        ),
        (
            vec!["perft", "chess", "2", "--roll", "3"],
            "--roll 3: nothing is rolled in this game",
        ),
        (
            vec!["moves", "dice-race", "roll:2", "--roll", "3"],
            "--roll 3: the side to move has rolled 2 already",
        ),
        (
            vec!["moves", "dice-race", "--roll", "x"],
            "--roll x: the roll never shows x: it shows 1, 2, 3, 4",
        ),
        (vec!["engine", "ur", "--protocol", "uci"], "ur is a game of chance"),
        (
            vec!["perft", "backgammon", "2", "--roll", "7-1"],
            "--roll 7-1: the roll never shows 7-1 (its dice as `5-3`)",
        ),
        (vec!["moves", "backgammon", "--roll", "5"], "--roll 5: the roll never shows 5"),
        (
            vec!["moves", "backgammon", "--fen", "(5C)11/12 w - - 0+0 roll:6-6-6-6-6 0 1"],
            "roll field",
        ),
    ] {
        let run = common::arbiter(&args);
        assert_ne!(run.code, Some(0), "{args:?} is refused");
        assert!(run.stderr.contains(says), "{args:?}: {}", run.stderr);
    }
    // Dice used one by one, in either order: 5-3 from backgammon's start moves 13/8 or 8/3 by the 5
    // (24/19 and 6/1 are closed), 24/21, 13/10, 8/5 or 6/3 by the 3; then the other die: 4 moves after
    // either 5, and 3, 3, 2, 2 after the 3s (the 3-point and the 5-point bear nothing off yet): 18.
    for roll in ["3-5", "5-3"] {
        let run = common::arbiter(&["perft", "backgammon", "2", "--roll", roll]);
        assert_eq!((run.code, run.stdout.lines().last()), (Some(0), Some("18")), "{}", run.stderr);
    }
    let run = common::arbiter(&["moves", "backgammon", "--roll", "6-5", "--written"]);
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (Some(0), "8/2\n8/3\n13/7\n13/8\n24/18\n"),
        "{}",
        run.stderr
    );
    // A ruling asked in points is given on the coordinates they name, legal or not.
    let run = common::arbiter(&["explain", "backgammon", "roll:6-5", "24/18"]);
    assert!(
        run.code == Some(0)
            && run
                .stdout
                .contains("24/18: legal — one of the 2 checkers on l2 moves to f2, by the 6"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    let run = common::arbiter(&["explain", "backgammon", "roll:6-5", "24/19"]);
    assert!(
        run.stdout.contains("24/19: illegal (point-blocked)") && run.stdout.contains("g2 holds 5 of black's pieces"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    // And what they accept: the moves after a roll, a perft from it.
    let run = common::arbiter(&["moves", "dice-race", "--roll", "2"]);
    assert_eq!((run.code, run.stdout.as_str()), (Some(0), "b1\n"));
    let run = common::arbiter(&["perft", "ur", "3", "--roll", "4", "--stop-at-end"]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // a1 (a rosette: white throws again), then each throw: a pass, or an entry and a1 on (tests/oracles/ur.py 3 roll:4).
    assert_eq!(run.stdout.lines().last(), Some("8"));
}
