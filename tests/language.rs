//! The language's constructs, each proved on small rulesets of its own (tests/language/): every
//! scenario there must pass, every ruleset there must check cleanly and be the subject of at least
//! one scenario or oracle comparison, and each perft count stated below comes from an independent
//! reference (Fairy-Stockfish, open_spiel) or from counting by hand.

use arbiter::scenario::{self, Report, Runner};

use crate::common;

use common::{problems, root};

#[test]
fn every_scenario_of_the_language_passes() {
    let files = scenario::collect(&[root().join("tests/language")]).expect("tests/language can be read");
    let mut r = Runner::new(vec![root().join("rulesets")]);
    let reports: Vec<Report> = files.iter().map(|f| r.run_file(f)).collect();
    assert!(reports.len() >= 25, "only {} scenarios found", reports.len());
    let bad = problems(&reports);
    assert!(bad.is_empty(), "scenarios that did not pass:\n{bad}");
}

/// Each ruleset checks without a warning, and something exercises it: a scenario names it, or the
/// oracle tests (tests/oracles.rs) play it.
#[test]
fn every_ruleset_checks_cleanly_and_is_tested() {
    let dir = root().join("tests/language");
    let oracles = std::fs::read_to_string(root().join("tests/oracles.rs")).expect("tests/oracles.rs");
    let scenarios: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/language")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "ron"))
        .map(|e| std::fs::read_to_string(e.path()).expect("a scenario"))
        .collect();
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("tests/language").flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !name.ends_with(".rules") {
            continue;
        }
        n += 1;
        let c = arbiter::check::check_file(&e.path(), &[]);
        let said: Vec<String> = c.diagnostics.items.iter().map(|d| d.message.clone()).collect();
        assert!(c.rules.is_some() && said.is_empty(), "{name}: {said:?}");
        let quoted = format!("\"{name}\"");
        let path = format!("\"tests/language/{name}\"");
        assert!(
            scenarios.iter().any(|s| s.contains(&quoted)) || oracles.contains(&path),
            "{name}: no scenario names it and no oracle test plays it"
        );
    }
    assert!(n >= 10, "only {n} rulesets");
}

/// Perft from the start of the rulesets the oracle tests compare move by move, against the
/// counts their references give (tests/oracles/README.md): the whole tree, not only the lines
/// the random games walk.
#[test]
fn perft_counts_agree_with_the_references() {
    for (rel, counts) in [
        // Fairy-Stockfish `ataxx` (and libataxx's own tests).
        ("tests/language/ataxx.rules", &[16u64, 256, 6460, 155888][..]),
        // Fairy-Stockfish `amazons`.
        ("tests/language/amazons.rules", &[2176][..]),
        // open_spiel `havannah`, board_size 4: 37 · 36 · 35 · 34 before any game can end.
        ("tests/language/havannah.rules", &[37, 1332, 46620, 1585080][..]),
    ] {
        let e = common::engine(rel, &[]);
        for (d, &want) in counts.iter().enumerate() {
            let got = e.start().perft_stop_at_end(d as u32 + 1);
            assert_eq!(got, want, "{rel}: perft {}", d + 1);
        }
    }
}

/// Every `.rules` file under `dir`, recursively.
fn rules_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a test folder reads").flatten() {
        let path = e.path();
        if path.is_dir() {
            rules_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rules") {
            out.push(path);
        }
    }
}

/// `arbiter fmt` changes only the layout: every ruleset the repository has (bundled, the
/// language's, the variants', the scenarios', the golden diagnostics') formats to text that checks
/// to the same rules with the same messages, and formatting that again changes nothing. The
/// bundled rulesets are already in the formatter's layout.
#[test]
fn formatting_keeps_every_ruleset_s_meaning_and_is_idempotent() {
    use arbiter::check::check_source;
    use arbiter::syntax::format::{FormatError, format};

    let mut files = Vec::new();
    for dir in ["rulesets", "tests", "scenarios"] {
        rules_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 100, "only {} rulesets found", files.len());
    let (mut formatted, mut unparsable) = (0, 0);
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a ruleset reads");
        let name = path.display().to_string();
        let new = match format(&text) {
            Ok(new) => new,
            Err(FormatError::Syntax(_)) => {
                unparsable += 1;
                continue;
            }
            Err(e) => panic!("{name}: {e}"),
        };
        formatted += 1;
        assert_eq!(
            format(&new).expect("formatted text formats"),
            new,
            "{name}: formatting is not idempotent"
        );
        let dir = path.parent();
        let before = check_source(&name, &text, dir, &[]);
        let after = check_source(&name, &new, dir, &[]);
        let said = |c: &arbiter::check::Checked| -> Vec<String> {
            c.diagnostics.sorted().iter().map(|d| format!("{} {}", d.code, d.message)).collect()
        };
        assert_eq!(said(&before), said(&after), "{name}: the diagnostics changed");
        assert!(before.rules == after.rules, "{name}: the formatted ruleset checks to other rules");
        if path.starts_with(root().join("rulesets")) {
            assert!(new == text, "{name} is not in the formatter's layout: run `arbiter fmt {name}`");
        }
    }
    assert!(
        formatted > 100 && unparsable > 0,
        "{formatted} formatted, {unparsable} left alone (syntax errors)"
    );
}

/// A `play` line whose first side is not the first declared: that side still sees the board from
/// its own seat (here blue, seated a quarter turn from red, runs right along its rank), its goal
/// turned with it.
#[test]
fn a_side_in_play_sees_the_board_from_its_own_seat_whatever_its_turn() {
    let text = r#"
param n = 2 in 2..4 "players"
game "Rev" {
  players red "r", blue "b", yellow "y", green "g" seated by quarter turns
  play blue, red when n = 2
  play red, blue, yellow, green when n = 4
}
board 7 x 7 squares {
  files a..g
  ranks 1..7
}
zone goal = rank 7
piece Runner "R" {
  step forward to empty
}
allow pass when no other move
end {
  home: Runner in goal -> mover wins
}
setup "3yR3/7/7/bR5gR/7/7/3rR3 b - - 0 1"
"#;
    let checked = arbiter::check::check_source("rev.rules", text, None, &[]);
    let rules = checked.rules.expect("the ruleset checks");
    assert_eq!(rules.players.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["blue", "red"]);
    let engine = arbiter::game::Engine::new(rules);
    let start = engine.start();
    let texts = |p: &arbiter::game::Position| {
        p.legal_moves()
            .into_iter()
            .map(|m| arbiter::notation::uci::to_text(p, m))
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&start), ["a4b4"], "blue runs right");
    // Yellow's and green's pieces are left off: only two play.
    assert_eq!(start.fen(), "7/7/7/bR6/7/7/3rR3 b - - 0 1");
    let home = engine.from_fen("7/7/7/5bR1/7/7/3rR3 b - - 0 1").expect("a position");
    let mut g = arbiter::game::Game::new(engine.clone(), home);
    g.play(arbiter::notation::uci::find(g.current(), "f4g4").expect("legal"));
    assert_eq!(g.outcome().winner.map(|s| s.index()), Some(0), "blue home on file g wins");
}

/// perft by copying each position rather than unmaking: what `unmake` must give back.
fn perft_by_copy(p: &arbiter::game::Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    p.legal_moves()
        .into_iter()
        .map(|m| {
            let mut next = p.clone();
            next.play_unchecked(m);
            perft_by_copy(&next, depth - 1)
        })
        .sum()
}

/// Sides put out one by one (`mover finishes`, `side to move loses` among three): along seeded
/// random games every position's FEN reads back to the same position and hash, and perft by
/// make and unmake counts what perft by copying counts, through the moves that put sides out.
#[test]
fn places_among_three_survive_unmake_and_a_fen_round_trip() {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut outs_seen = 0;
    for file in ["tests/language/three-racers.rules", "tests/language/three-blockers.rules"] {
        let engine = common::engine(file, &[]);
        for seed in 0..12u64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut pos = engine.start();
            for _ in 0..40 {
                let back = engine.from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
                assert_eq!(back.fen(), pos.fen());
                assert_eq!(back.hash(), pos.hash(), "{file}: the hash of {} as read", pos.fen());
                assert_eq!(pos.perft(3), perft_by_copy(&pos, 3), "{file}: perft 3 from {}", pos.fen());
                if !pos.places().is_empty() {
                    outs_seen += 1;
                }
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.finished_by().is_some() {
                    break;
                }
                pos.play_unchecked(moves[(rng.next_u32() as usize) % moves.len()]);
            }
        }
    }
    assert!(outs_seen > 20, "the games reach sides put out: {outs_seen}");
}
