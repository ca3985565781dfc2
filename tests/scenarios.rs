//! Scenarios: the library under `scenarios/` must pass, scenario by scenario, and the runner must
//! say exactly where a broken scenario goes wrong — the step and its caption for a wrong expectation,
//! file:line:col for malformed RON, the step for an unknown square — through the library and through
//! the `arbiter scenario run` command, never with a panic. The broken scenarios live in
//! `tests/scenarios-broken/`, outside the library.

use arbiter::scenario::{self, Report, Runner, Verdict};

use crate::common;

use common::{arbiter, arbiter_within, problems, root, scratch};

fn runner() -> Runner {
    Runner::new(vec![root().join("rulesets")])
}

fn run(path: &str) -> Report {
    runner().run_file(&root().join(path))
}

#[test]
fn every_library_scenario_passes() {
    let files = scenario::collect(&[root().join("scenarios")]).expect("scenarios/ can be read");
    let mut r = runner();
    let reports: Vec<Report> = files.iter().map(|f| r.run_file(f)).collect();
    assert!(reports.len() >= 30, "only {} scenarios found", reports.len());
    let bad = problems(&reports);
    assert!(bad.is_empty(), "scenarios that did not pass:\n{bad}");
}

#[test]
fn each_game_has_fifteen_scenarios_each_tied_to_its_rule_book() {
    for (game, book) in [("chess", "Chess"), ("xiangqi", "Xiangqi"), ("go", "Go")] {
        let files = scenario::collect(&[root().join("scenarios").join(game)]).expect("the game's folder can be read");
        assert!(files.len() >= 15, "{game}: {} scenarios", files.len());
        for f in files {
            let s = scenario::load(&f).unwrap_or_else(|e| panic!("{e}"));
            let rule = s.rule.unwrap_or_default();
            // The rule book as the manual (rulesets/RULES.md) titles it, then an article.
            assert!(
                rule.starts_with(&format!("{book}, ")) && rule.contains(|c: char| c.is_ascii_digit()),
                "{}: `rule` should cite an article of the {book} rule book (`{book}, Movement [5.1]: ...`), not {rule:?}",
                f.display()
            );
            assert_eq!(s.ruleset, game, "{}", f.display());
        }
    }
}

#[test]
fn a_wrong_expectation_fails_at_its_step_and_says_what_happened() {
    let r = run("tests/scenarios-broken/wrong-expectation.ron");
    let Verdict::Fail(f) = &r.verdict else {
        panic!("expected a failure, got {:?}", r.verdict);
    };
    assert_eq!(f.step, 2);
    assert_eq!(f.caption.as_deref(), Some("Qh4 mates."));
    assert!(f.expectation.contains("winner white"), "{}", f.expectation);
    assert!(f.actual.contains("winner black") && f.actual.contains("checkmate"), "{}", f.actual);
    let said = f.to_string();
    assert!(said.starts_with("step 2 (\"Qh4 mates.\"): expected outcome win"), "{said}");
    // The runner stopped there: frames for steps 1 and 2 only, the second after the mate.
    assert_eq!(r.frames.len(), 2);
    assert_eq!(r.frames[1].played, ["d8h4"]);
}

#[test]
fn a_malformed_file_is_an_error_with_line_and_column() {
    let r = run("tests/scenarios-broken/malformed.ron");
    let Verdict::Error(e) = &r.verdict else {
        panic!("expected an error, got {:?}", r.verdict);
    };
    assert_eq!((e.line, e.column), (Some(10), Some(9)), "{e}");
    assert!(e.to_string().ends_with("malformed.ron:10:9: Expected comma"), "{e}");
}

#[test]
fn an_unknown_square_is_an_error_naming_the_step() {
    let r = run("tests/scenarios-broken/unknown-square.ron");
    let Verdict::Error(e) = &r.verdict else {
        panic!("expected an error, got {:?}", r.verdict);
    };
    assert!(e.message.starts_with("step 2 (\"Look at z9.\"): highlight: no square `z9`"), "{e}");
    // Nothing was played: the names are checked before the script runs.
    assert!(r.frames.is_empty());
}

#[test]
fn a_random_step_past_the_limit_is_refused_before_play() {
    let r = run("tests/scenarios-broken/random-too-long.ron");
    let Verdict::Error(e) = &r.verdict else {
        panic!("expected an error, got {:?}", r.verdict);
    };
    let said = e.to_string();
    assert!(
        said.contains("tests/scenarios-broken/random-too-long.ron"),
        "names the file: {said}"
    );
    assert!(said.contains("step 2 (\"Play on and on.\")"), "names the step: {said}");
    assert!(
        e.message.ends_with(&format!(
            "Random: 4294967295 moves is past the limit of {} a step",
            scenario::MAX_RANDOM_PLIES
        )),
        "names the limit: {said}"
    );
    assert!(r.frames.is_empty(), "nothing was played");
}

#[test]
fn random_steps_past_the_limit_together_are_refused_at_the_step_that_passes_it() {
    let r = run("tests/scenarios-broken/random-too-long-together.ron");
    let Verdict::Error(e) = &r.verdict else {
        panic!("expected an error, got {:?}", r.verdict);
    };
    let step = scenario::MAX_SCENARIO_RANDOM_PLIES / u64::from(scenario::MAX_RANDOM_PLIES) + 1;
    let total = step * u64::from(scenario::MAX_RANDOM_PLIES);
    assert_eq!(step, 5, "the file has five steps of the most a step may play");
    assert_eq!(
        e.message,
        format!(
            "step {step}: Random: the Random steps up to this one play {total} moves, past the limit of {} a scenario",
            scenario::MAX_SCENARIO_RANDOM_PLIES
        )
    );
    assert!(r.frames.is_empty(), "nothing was played");
}

#[test]
fn garbage_and_wrong_shapes_are_errors_not_panics() {
    let texts = [
        "",
        "(",
        "()",
        "(title: 3, ruleset: \"chess\")",
        "(title: \"t\", ruleset: \"chess\", steps: [(do: Fly(\"e4\"))])",
        "(title: \"t\", ruleset: \"chess\", start: Board(rows: [\"k\"], to_move: \"white\"))",
        "(title: \"t\", ruleset: \"chess\", start: Fen(\"8/8 w\"))",
        "(title: \"t\", ruleset: \"no-such-game\")",
        "(title: \"t\", ruleset: \"chess\", steps: [(expect: [Perft(depth: 40, nodes: 1)])])",
        "(title: \"t\", ruleset: \"chess\", steps: [(expect: [ToMove(\"green\")])])",
        "(title: \"t\", ruleset: \"chess\", steps: [(do: TakeBack(1))])",
        "(title: \"t\", ruleset: \"chess\", steps: [(do: Line([\"e4\", \"e4\"]))])",
        "(title: \"t\", ruleset: \"chess\", steps: [(expect: [Moves([\"e4\", \"zz\"])])])",
    ];
    let path = root().join("scenarios/chess/inline.ron");
    for text in texts {
        let report = match scenario::parse(text, &path) {
            Ok(s) => runner().run(&s, &path),
            Err(e) => {
                assert!(!e.message.is_empty(), "{text:?}");
                continue;
            }
        };
        assert!(!report.passed(), "{text:?} passed");
    }
}

#[test]
fn seeded_random_moves_replay_identically() {
    let a = run("scenarios/chess/seeded-random-game.ron");
    let b = run("scenarios/chess/seeded-random-game.ron");
    assert!(a.passed(), "{:?}", a.verdict);
    assert_eq!(a.frames, b.frames);
    assert_eq!(a.frames[0].played.len(), 40);
}

#[test]
fn frames_carry_the_annotations_as_board_squares() {
    let r = run("scenarios/chess/castling-through-check.ron");
    assert!(r.passed(), "{:?}", r.verdict);
    let f = &r.frames[0];
    // Chess squares are numbered a1 = 0 … h8 = 63: f1 = 5, f8 = 61, e1 = 4, g1 = 6.
    assert_eq!(f.highlight, [5]);
    assert_eq!(f.arrows, [(61, 5), (4, 6)]);
    assert!(f.caption.as_deref().is_some_and(|c| c.contains("f8")));
}

// ---------------------------------------------------------------- the command line

#[test]
fn scenario_run_passes_the_library_one_line_each() {
    let r = arbiter(&["scenario", "run", "scenarios/"]);
    assert_eq!(r.code, Some(0), "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().filter(|l| !l.is_empty()).collect();
    let (summary, each) = lines.split_last().expect("output");
    let files = scenario::collect(&[root().join("scenarios")]).expect("scenarios/");
    assert_eq!(each.len(), files.len(), "{}", r.stdout);
    assert!(each.iter().all(|l| l.starts_with("pass  scenarios/")), "{}", r.stdout);
    assert_eq!(*summary, format!("{} passed, 0 failed", files.len()));
}

#[test]
fn scenario_run_points_at_the_failing_step_and_exits_non_zero() {
    let r = arbiter(&["scenario", "run", "tests/scenarios-broken/wrong-expectation.ron"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("FAIL  tests/scenarios-broken/wrong-expectation.ron: Fool's mate, with the winner got wrong: step 2 (\"Qh4 mates.\"): expected outcome win (winner white, reason checkmate); instead: outcome win (winner black"),
        "{}",
        r.stdout
    );
    assert!(!r.stderr.trim().is_empty());
}

#[test]
fn scenario_run_reports_malformed_ron_with_file_line_and_column() {
    let r = arbiter(&["scenario", "run", "tests/scenarios-broken/malformed.ron"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains("ERROR tests/scenarios-broken/malformed.ron:10:9: Expected comma"),
        "{}",
        r.stdout
    );
    assert!(r.stderr.contains("malformed.ron:10:9"), "{}", r.stderr);
}

#[test]
fn scenario_run_json_counts_and_describes_each_scenario() {
    let r = arbiter(&["scenario", "run", "--json", "tests/scenarios-broken"]);
    assert_eq!(r.code, Some(1));
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("{e}:\n{}", r.stdout));
    // Every file there is an error but the one with a wrong expectation.
    let files = scenario::collect(&[root().join("tests/scenarios-broken")]).expect("tests/scenarios-broken/");
    assert_eq!(
        (v["passed"].as_u64(), v["failed"].as_u64(), v["errors"].as_u64()),
        (Some(0), Some(1), Some(files.len() as u64 - 1)),
        "{v}"
    );
    let all = v["scenarios"].as_array().expect("an array");
    let fail = all.iter().find(|s| s["status"] == "fail").expect("one failure");
    assert_eq!(fail["step"], 2);
    assert_eq!(fail["caption"], "Qh4 mates.");
    let malformed = all
        .iter()
        .find(|s| s["path"].as_str().is_some_and(|p| p.ends_with("malformed.ron")))
        .expect("the malformed file is reported");
    assert_eq!(
        (malformed["status"].as_str(), malformed["line"].as_u64()),
        (Some("error"), Some(10))
    );
}

#[test]
fn scenario_run_on_a_missing_path_is_an_input_error() {
    let r = arbiter(&["scenario", "run", "scenarios/no-such-folder"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("no-such-folder"), "{}", r.stderr);
}

#[test]
fn explain_cites_the_clause_for_illegal_castling_and_a_flying_general() {
    let castle = arbiter(&["explain", "chess", "--fen", "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1"]);
    assert_eq!(castle.code, Some(0));
    assert_eq!(
        castle.stdout.trim(),
        "e1g1: illegal (castling-into-check) — FIDE 3.8.2.2: castling onto an attacked square g1: the rook on g8 attacks it"
    );
    let general = arbiter(&["explain", "xiangqi", "--fen", "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", "e5d7"]);
    assert_eq!(general.code, Some(0));
    assert_eq!(
        general.stdout.trim(),
        "e5d7: illegal (royals-facing) — CXA 2.2: the general on e1 would face the general on e10 with nothing between them"
    );
}

#[test]
fn a_game_end_explains_itself() {
    let r = arbiter(&["explain", "chess", "f2f3", "e7e5", "g2g4", "d8h4"]);
    assert!(
        r.stdout.contains(
            "it ends the game: checkmate (FIDE 5.1.1) — white's king on e1 is attacked by the queen on h4 and white has no legal move: black wins"
        ),
        "{}",
        r.stdout
    );
    let stalemate = arbiter(&["play", "xiangqi", "--json", "--fen", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", "a2a9"]);
    let v: serde_json::Value = serde_json::from_str(stalemate.stdout.trim()).expect("JSON");
    assert_eq!(v["reason"], "stalemate");
    assert_eq!(v["message"], "black has no legal move and is not in check: red wins");
}

#[test]
#[cfg(unix)]
fn ctrl_c_stops_a_scenario_run_part_way_and_reports_what_was_done() {
    use std::io::{BufRead, Read};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["scenario", "run", "tests/scenarios-long"])
        .current_dir(root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    let mut lines = std::io::BufReader::new(child.stdout.take().expect("stdout is piped")).lines();
    // The quick scenario's line comes while the perft 7 after it is being counted.
    let first = lines.next().expect("a line").expect("text");
    assert!(first.starts_with("pass  tests/scenarios-long/a-quick.ron"), "{first}");
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("wait");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr is piped")
        .read_to_string(&mut stderr)
        .expect("stderr");
    assert_eq!(status.code(), Some(130), "stdout: {rest:?}\nstderr: {stderr}");
    assert_eq!(rest, ["", "1 passed, 0 failed"], "the summary of the scenarios finished");
    assert!(stderr.contains("interrupted: 1 of 2 scenarios run"), "{stderr}");
}

// ---------------------------------------------------------------- folders and files that are not files

/// A folder holding one passing scenario and two symlinks to itself: walking it naively finds
/// 2^40 paths before the system refuses one.
#[cfg(unix)]
#[test]
fn scenario_run_searches_a_folder_with_a_symlink_loop_once() {
    let dir = scratch("scenario-loop");
    std::fs::copy(
        root().join("scenarios/chess/castling-both-ways.ron"),
        dir.join("castling-both-ways.ron"),
    )
    .expect("the library scenario copies");
    std::os::unix::fs::symlink(".", dir.join("x")).expect("symlinks work here");
    std::os::unix::fs::symlink(".", dir.join("y")).expect("symlinks work here");
    // The command first, with a deadline: without the check the walk never ends.
    let r = arbiter_within(60, &["scenario", "run", dir.to_str().expect("a UTF-8 temporary path")]);
    assert_eq!(r.code, Some(0), "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert_eq!(r.stdout.lines().last(), Some("1 passed, 0 failed"), "{}", r.stdout);
    let files = scenario::collect(std::slice::from_ref(&dir)).expect("the folder reads");
    assert_eq!(files, [dir.join("castling-both-ways.ron")]);
}

/// A FIFO named like a scenario, and a scenario whose SGF start is a device: each is an error
/// saying what the file is, not a run that waits or reads forever.
#[cfg(unix)]
#[test]
fn a_scenario_or_its_record_that_is_not_a_regular_file_is_an_error() {
    let dir = scratch("scenario-special");
    common::mkfifo(&dir.join("pipe.ron"));
    std::fs::write(
        dir.join("device-start.ron"),
        "(title: \"a record that never ends\", ruleset: \"go\", start: Sgf(\"/dev/zero\"))",
    )
    .expect("writable");
    let reports: Vec<Report> = scenario::collect(std::slice::from_ref(&dir))
        .expect("the folder reads")
        .iter()
        .map(|f| runner().run_file(f))
        .collect();
    let errors = problems(&reports);
    assert!(
        errors.contains("pipe.ron: cannot read: it is a FIFO (named pipe), not a regular file"),
        "{errors}"
    );
    assert!(
        errors.contains("cannot read /dev/zero: it is a device, not a regular file"),
        "{errors}"
    );
    let r = arbiter_within(60, &["scenario", "run", dir.to_str().expect("a UTF-8 temporary path")]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stdout.contains("it is a FIFO (named pipe)"), "{}", r.stdout);
}

#[test]
fn a_scenario_over_the_size_limit_is_an_error_with_its_size() {
    let dir = scratch("scenario-large");
    let big = dir.join("big.ron");
    std::fs::File::create(&big).and_then(|f| f.set_len(17 << 20)).expect("writable");
    let report = runner().run_file(&big);
    assert!(
        problems(&[report]).contains("it is 17 MiB (17825792 bytes), larger than the limit of 16 MiB"),
        "the size and the limit are given"
    );
}
