//! Simulation: `arbiter simulate` run as a user runs it, and the players' strength. The contract:
//! a run's statistics depend only on the ruleset, parameters, start, players, seed and number of
//! games — never on threads or on how the games are split into shards — and shards merge into
//! exactly the statistics of one run.

use std::sync::atomic::AtomicBool;

use serde_json::Value;

use crate::common;

use common::{Run, arbiter, scratch};

use arbiter::sim::{self, Config, PlayerSpec, Shard};

fn json(r: &Run) -> Value {
    assert_eq!(r.code, Some(0), "exit code; stderr:\n{}", r.stderr);
    serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}):\n{}", r.stdout))
}

/// A report without what may differ between runs of the same games: timing, and the shard marks.
fn statistics(mut v: Value) -> Value {
    let o = v.as_object_mut().expect("a report is an object");
    o.remove("timing");
    v
}

const RUN: [&str; 9] = ["simulate", "chess", "--games", "40", "--seed", "11", "--max-plies", "300", "--json"];

#[test]
fn a_report_has_every_statistic_in_the_rulesets_own_names() {
    let v = json(&arbiter(&[&RUN[..], &["--threads", "2"]].concat()));
    assert_eq!(v["games"], 40);
    assert_eq!(v["seed"], 11);
    assert_eq!(v["players"], serde_json::json!(["random", "random"]));
    let r = &v["results"];
    let total: u64 = ["white", "black", "draw", "no-result", "unfinished"]
        .iter()
        .map(|k| r[k].as_u64().expect(k))
        .sum();
    assert_eq!(total, 40, "{r}");
    let reasons: u64 = v["reasons"]
        .as_object()
        .expect("reasons")
        .values()
        .map(|n| n.as_u64().expect("a count"))
        .sum();
    assert_eq!(reasons, 40);
    assert_eq!(
        v["reasons"].get("max-plies").and_then(Value::as_u64).unwrap_or(0),
        r["unfinished"].as_u64().expect("unfinished")
    );
    let s = &v["first_player_score"];
    let (mean, low, high) = (
        s["mean"].as_f64().expect("mean"),
        s["low"].as_f64().expect("low"),
        s["high"].as_f64().expect("high"),
    );
    assert!(0.0 <= low && low <= mean && mean <= high && high <= 1.0, "{s}");
    assert_eq!(v["first_player"], "white");
    let len = &v["length"];
    let (p10, median, p90) = (
        len["p10"].as_u64().expect("p10"),
        len["median"].as_u64().expect("median"),
        len["p90"].as_u64().expect("p90"),
    );
    assert!(p10 <= median && median <= p90 && p90 <= 300, "{len}");
    let binned: u64 = len["histogram"]
        .as_array()
        .expect("a histogram")
        .iter()
        .map(|b| b["games"].as_u64().expect("games"))
        .sum();
    assert_eq!(binned, 40);
    for phase in ["opening", "middle", "end"] {
        assert!(v["branching"]["by_phase"][phase].as_f64().expect(phase) > 1.0, "{}", v["branching"]);
    }
    // Random chess games capture: about a piece every dozen plies.
    assert!(v["captures_per_game"].as_f64().expect("captures") > 5.0);
    assert!(v["timing"]["seconds"].as_f64().is_some());
}

#[test]
fn results_do_not_depend_on_the_number_of_threads() {
    let one = json(&arbiter(&[&RUN[..], &["--threads", "1"]].concat()));
    let three = json(&arbiter(&[&RUN[..], &["--threads", "3"]].concat()));
    assert_eq!(statistics(one), statistics(three));
}

#[test]
fn four_shards_run_apart_merge_into_the_statistics_of_one_run() {
    let dir = scratch("shards");
    // Four processes at once, as four machines of a job array would run them.
    let children: Vec<_> = (0..4)
        .map(|k| {
            std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
                .args(RUN)
                .args(["--threads", "1", "--shard", &format!("{k}/4")])
                .current_dir(common::root())
                .output()
        })
        .collect();
    let mut files = Vec::new();
    for (k, c) in children.into_iter().enumerate() {
        let out = c.expect("a shard runs");
        assert!(out.status.success(), "shard {k}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).expect("a shard's report is JSON");
        assert_eq!(v["shard"]["index"], k as u64);
        assert_eq!(v["games"], 10, "40 games in 4 shards");
        let f = dir.join(format!("shard-{k}.json"));
        std::fs::write(&f, &out.stdout).expect("writable");
        files.push(f.display().to_string());
    }
    let whole = json(&arbiter(&RUN));
    let mut args = vec!["simulate", "merge", "--json"];
    args.extend(files.iter().map(String::as_str));
    let merged = json(&arbiter(&args));
    assert_eq!(statistics(merged), statistics(whole));
    // Human output of the merge says the same.
    let text = arbiter(&["simulate", "merge", &files[0], &files[1], &files[2], &files[3]]);
    assert_eq!(text.code, Some(0));
    assert!(text.stdout.contains("Chess: 40 games, seed 11"), "{}", text.stdout);
    // A missing shard is said, and the result marked partial.
    let three = json(&arbiter(&["simulate", "merge", "--json", &files[0], &files[1], &files[3]]));
    assert_eq!(three["games"], 30);
    assert_eq!(three["partial"], true);
}

#[test]
fn reports_of_different_runs_or_a_shard_twice_do_not_merge() {
    let dir = scratch("merge-bad");
    let write = |name: &str, args: &[&str]| {
        let r = arbiter(args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let f = dir.join(name);
        std::fs::write(&f, &r.stdout).expect("writable");
        f.display().to_string()
    };
    let small = ["simulate", "tic-tac-toe", "--games", "10", "--json"];
    let a = write("a.json", &[&small[..], &["--seed", "1", "--shard", "0/2"]].concat());
    let b = write("b.json", &[&small[..], &["--seed", "2", "--shard", "1/2"]].concat());
    let r = arbiter(&["simulate", "merge", &a, &b]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("a different run"), "{}", r.stderr);
    let r = arbiter(&["simulate", "merge", &a, &a]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("shard 0 is given twice"), "{}", r.stderr);
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"games\": 3}").expect("writable");
    let r = arbiter(&["simulate", "merge", &junk.display().to_string()]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("not a report of `arbiter simulate --json`"), "{}", r.stderr);
}

/// A report whose counts no run could have written (edited by hand, or damaged) is refused with
/// what is wrong, never merged into figures that wrap or a panic: a game longer than the cut, more
/// wins than games, more games than the shard's share, counts past what a number holds.
#[test]
fn reports_whose_counts_no_run_could_write_are_refused() {
    let dir = scratch("merge-counts");
    let r = arbiter(&[
        "simulate",
        "tic-tac-toe",
        "--games",
        "10",
        "--seed",
        "1",
        "--json",
        "--shard",
        "1/3",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let shard: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON");
    let cases: [(&str, serde_json::Value, &str); 5] = [
        (
            "lengths",
            serde_json::json!({"18446744073709551615": 3}),
            "past the run's cut at 1000",
        ),
        (
            "lengths",
            serde_json::json!({"5": u64::MAX, "7": u64::MAX}),
            "add up past what a count can hold",
        ),
        (
            "wins",
            serde_json::json!([1_000_000, 1_000_000]),
            "add up to 2000000 games, not the 3",
        ),
        (
            "games",
            serde_json::json!(1000),
            "it counts 1000 games where its share of the run is 3",
        ),
        ("branching_games", serde_json::json!(4), "the moves of 4 games, more than the 3"),
    ];
    for (i, (key, value, why)) in cases.into_iter().enumerate() {
        let mut edited = shard.clone();
        edited["tally"][key] = value;
        let f = dir.join(format!("edited-{i}.json"));
        std::fs::write(&f, edited.to_string()).expect("writable");
        let r = arbiter(&["simulate", "merge", &f.display().to_string()]);
        assert_eq!(r.code, Some(1), "{key}: {}", r.stdout);
        assert!(!r.stderr.contains("panicked"), "{key}: {}", r.stderr);
        assert!(r.stderr.contains(why), "{key}: {}", r.stderr);
    }
    // The run's description, which the figures are read against: a first side past the sides
    // (it panicked), wins of more sides than the run has (two were dropped from the shares),
    // teams and players that do not match the sides. Text and JSON alike.
    let cases: [(&str, &str, serde_json::Value, &str); 6] = [
        ("run", "first", serde_json::json!(2), "has side 2 move first, of its 2 sides"),
        ("run", "sides", serde_json::json!([]), "names no sides"),
        ("run", "teams", serde_json::json!([0]), "gives 1 teams for its 2 sides"),
        ("run", "teams", serde_json::json!([0, 7]), "puts a side in team 7"),
        ("run", "players", serde_json::json!(["random"]), "names 1 players for its 2 sides"),
        (
            "tally",
            "wins",
            serde_json::json!([1, 1, 1]),
            "counts the wins or places of 3 sides, where the run has 2",
        ),
    ];
    for (i, (part, key, value, why)) in cases.into_iter().enumerate() {
        let mut edited = shard.clone();
        edited[part][key] = value;
        let f = dir.join(format!("described-{i}.json"));
        std::fs::write(&f, edited.to_string()).expect("writable");
        for json in [false, true] {
            let file = f.display().to_string();
            let args: Vec<&str> = ["simulate", "merge"]
                .into_iter()
                .chain(json.then_some("--json"))
                .chain([file.as_str()])
                .collect();
            let r = arbiter(&args);
            assert_eq!(r.code, Some(1), "{part}.{key}: {}", r.stdout);
            assert!(!r.stderr.contains("panicked"), "{part}.{key}: {}", r.stderr);
            assert!(
                r.stderr.contains(why) || r.stdout.contains(why),
                "{part}.{key}: {} {}",
                r.stdout,
                r.stderr
            );
        }
    }
}

/// In go, whose random players draw their moves without listing them, the legal moves are counted
/// in one game in 16 unless told otherwise: the games are the same, only the branching figures
/// come from fewer of them, the same ones however the run is split.
#[test]
fn go_counts_its_branching_in_a_sample_of_the_games() {
    let run = ["simulate", "go", "--param", "size=7", "--games", "40", "--seed", "5", "--json"];
    let sampled = statistics(json(&arbiter(&run)));
    let every = statistics(json(&arbiter(&[&run[..], &["--branching-every", "1"]].concat())));
    for key in ["results", "reasons", "length", "captures_per_game", "first_player_score"] {
        assert_eq!(sampled[key], every[key], "{key}");
    }
    // Games 0, 16 and 32.
    assert_eq!(sampled["branching"]["games"], 3);
    assert_eq!(every["branching"]["games"], 40);
    for phase in ["opening", "middle", "end"] {
        let (a, b) = (
            sampled["branching"]["by_phase"][phase].as_f64().expect(phase),
            every["branching"]["by_phase"][phase].as_f64().expect(phase),
        );
        assert!(a > 1.0 && b > 1.0 && (a - b).abs() < 0.3 * b, "{phase}: {a} against {b}");
    }
    assert_eq!(sampled["run"]["branching_every"], 16);
    // Shards count the same games: merged, the figures are one run's.
    let dir = scratch("branching-shards");
    let mut files = Vec::new();
    for k in 0..3 {
        let r = arbiter(&[&run[..], &["--shard", &format!("{k}/3")]].concat());
        let f = dir.join(format!("{k}.json"));
        std::fs::write(&f, &r.stdout).expect("write a shard's report");
        files.push(f.display().to_string());
    }
    let merged = json(&arbiter(
        &[
            &["simulate", "merge", "--json"][..],
            &files.iter().map(String::as_str).collect::<Vec<_>>(),
        ]
        .concat(),
    ));
    assert_eq!(merged["branching"], sampled["branching"]);
    // Told in words too.
    let text = arbiter(&run[..run.len() - 1]);
    assert!(
        text.stdout.contains("legal moves per ply (counted in 3 of the games)"),
        "{}",
        text.stdout
    );
    // A report written before the sample was kept (no `branching_every`, no `branching_games`)
    // counted every game, and merges so.
    let mut old = json(&arbiter(&[&run[..], &["--branching-every", "1"]].concat()));
    old["run"].as_object_mut().expect("a run").remove("branching_every");
    old["tally"].as_object_mut().expect("a tally").remove("branching_games");
    let f = dir.join("old.json");
    std::fs::write(&f, old.to_string()).expect("write a report");
    let merged = json(&arbiter(&["simulate", "merge", "--json", &f.display().to_string()]));
    assert_eq!(merged["branching"], every["branching"]);
    // A shard of another sample is another run.
    let other = arbiter(&[&run[..], &["--shard", "0/3", "--branching-every", "2"]].concat());
    let f = dir.join("other.json");
    std::fs::write(&f, &other.stdout).expect("write a report");
    let r = arbiter(&["simulate", "merge", &files[1], &files[2], &f.display().to_string()]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("branching sample"), "{}", r.stderr);
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for (args, says) in [
        (vec!["--games", "0", "--seed", "1"], "--games 0"),
        (vec!["--games", "5", "--seed", "1", "--shard", "4/4"], "below N"),
        (vec!["--games", "5", "--seed", "1", "--shard", "x"], "K/N"),
        (
            vec!["--games", "5", "--seed", "1", "--players", "alphazero"],
            "unknown player `alphazero`",
        ),
        (
            vec!["--games", "5", "--seed", "1", "--players", "random,random,random"],
            "two separated by a comma",
        ),
        (vec!["--games", "5", "--seed", "1", "--threads", "0"], "--threads 0"),
        (vec!["--games", "5", "--seed", "1", "--max-plies", "0"], "--max-plies 0"),
        (vec!["--games", "5", "--seed", "1", "--branching-every", "0"], "--branching-every 0"),
        (
            vec!["--games", "5", "--seed", "1", "--branching-every", "100000001"],
            "--branching-every 100000001",
        ),
        (vec!["--games", "5", "--seed", "1", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "--fen"),
        (
            vec!["--games", "5", "--seed", "1", "--games-out", "/nonexistent-dir/games.pgn"],
            "--games-out",
        ),
    ] {
        let r = arbiter(&[&["simulate", "chess"][..], &args].concat());
        assert_eq!(r.code, Some(1), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    let r = arbiter(&["simulate", "no-such-game", "--games", "5", "--seed", "1"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("no ruleset `no-such-game`"), "{}", r.stderr);
}

#[test]
fn games_written_out_replay_to_the_same_results() {
    let dir = scratch("games-out");
    for (ruleset, params, file) in [("chess", vec![], "games.pgn"), ("go", vec!["--param", "size=7"], "games.sgf")] {
        let out = dir.join(file);
        let out_text = out.display().to_string();
        let args = [
            &[
                "simulate",
                ruleset,
                "--games",
                "3",
                "--seed",
                "5",
                "--max-plies",
                "400",
                "--json",
                "--games-out",
                &out_text,
            ][..],
            &params,
        ]
        .concat();
        let v = json(&arbiter(&args));
        let text = std::fs::read_to_string(&out).expect("the games were written");
        // One record per game; each read back by the record reader and replayed to its result.
        let records: Vec<&str> = match file {
            "games.pgn" => text.split("\n\n[Event").collect(),
            _ => text.split("\n(;").collect(),
        };
        assert_eq!(records.len(), 3, "{text}");
        let decided: u64 = ["white", "black", "draw"].iter().map(|k| v["results"][k].as_u64().expect(k)).sum();
        let results: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("[Result \"").map(|r| r.trim_end_matches("\"]")))
            .chain(
                text.match_indices("RE[")
                    .map(|(i, _)| &text[i + 3..i + 3 + text[i + 3..].find(']').expect("RE closes")]),
            )
            .collect();
        assert_eq!(results.iter().filter(|r| **r != "*").count() as u64, decided, "{results:?}");
    }
    let first_pgn = std::fs::read_to_string(dir.join("games.pgn")).expect("written");
    let first = first_pgn.split("\n\n[Event").next().expect("a game");
    let f = dir.join("one.pgn");
    std::fs::write(&f, first).expect("writable");
    let r = arbiter(&["play", "chess", "--pgn", &f.display().to_string(), "--json"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// Records that cannot be written — here a file-size limit standing in for a full disk — cost the
/// records, never the report of the games played: it is printed whole, the failure said after it,
/// the exit code 1 and the part of the file written removed.
#[test]
#[cfg(unix)]
fn a_games_file_that_cannot_be_written_keeps_the_report() {
    let dir = scratch("games-out-full");
    let out = dir.join("games.pgn");
    let _ = std::fs::remove_file(&out);
    let script = format!(
        "trap '' XFSZ; ulimit -f 4; exec '{}' simulate chess --games 40 --seed 1 --json --games-out '{}'",
        env!("CARGO_BIN_EXE_arbiter"),
        out.display()
    );
    let r = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(common::root())
        .output()
        .expect("bash runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&r.stdout), String::from_utf8_lossy(&r.stderr));
    assert_eq!(r.status.code(), Some(1), "{stdout}\n{stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).expect("the report alone, as JSON");
    assert_eq!(report["games"], 40, "{stdout}");
    assert!(
        stderr.contains("--games-out") && stderr.contains("the report above is whole"),
        "{stderr}"
    );
    assert!(!out.exists(), "the part written was removed");
}

#[test]
#[cfg(unix)]
fn ctrl_c_prints_the_statistics_of_the_finished_games_marked_partial() {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["simulate", "chess", "--games", "100000", "--seed", "3", "--threads", "1", "--json"])
        .current_dir(common::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = child.wait().expect("wait");
    let (mut out, mut err) = (String::new(), String::new());
    child.stdout.take().expect("piped").read_to_string(&mut out).expect("stdout");
    child.stderr.take().expect("piped").read_to_string(&mut err).expect("stderr");
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted:"), "{err}");
    let v: Value = serde_json::from_str(out.trim()).expect("the partial report is JSON");
    assert_eq!(v["partial"], true);
    let played = v["games"].as_u64().expect("games");
    assert!(played > 0 && played < 100000, "{played}");
}

/// `mcts` against `random`, half the games with each side: the searching player's wins.
fn searcher_wins(ruleset: &str, params: &[(&str, &str)], mcts: PlayerSpec, games: u64, seed: u64) -> (u64, f64) {
    let e = common::engine(&format!("rulesets/{ruleset}.rules"), params);
    let stop = AtomicBool::new(false);
    let mut wins = 0;
    let mut points = 0.0;
    for (side, players) in [(0, [mcts, PlayerSpec::Random]), (1, [PlayerSpec::Random, mcts])] {
        let cfg = Config {
            games: games / 2,
            seed: seed + side as u64,
            players: players.to_vec(),
            max_plies: 600,
            threads: 2,
            shard: Shard::WHOLE,
            keep_moves: false,
            branching_every: arbiter::sim::BRANCHING_EVERY,
        };
        let t = sim::run(&e.start(), &cfg, &stop, &|_| {}).tally;
        wins += t.won(side);
        points += t.won(side) as f64 + 0.5 * (t.draws + t.no_result + t.unfinished) as f64;
    }
    (wins, points / games as f64)
}

#[test]
fn mcts_with_2000_iterations_beats_random_at_9x9_go() {
    let (wins, _) = searcher_wins("go", &[("size", "9")], PlayerSpec::parse("mcts:2000").expect("a player"), 40, 2026);
    assert!(wins >= 38, "mcts:2000 won {wins} of 40 games against random (at least 95% asked)");
}

#[test]
fn mcts_scores_clearly_above_random_at_chess() {
    let games = 16;
    let (_, score) = searcher_wins("chess", &[], PlayerSpec::parse("mcts:100").expect("a player"), games, 7);
    let low = sim::Interval::wilson(score * games as f64, games).low;
    assert!(
        low > 0.5,
        "mcts:100 scored {score:.3} against random over {games} games (95% interval from {low:.3})"
    );
}

/// Four players seated round a board: each side's results are counted apart, and an MCTS player
/// (each node summing the results of the side that moved into it: max^n) wins more often than the
/// same seat played at random.
#[test]
fn four_players_are_counted_per_side_and_mcts_plays_for_its_own_seat() {
    let e = common::engine("tests/language/four-walkers.rules", &[]);
    let run = |players: Vec<PlayerSpec>| tally_of(&e, 40, 200, players);
    let random = run(vec![PlayerSpec::Random; 4]);
    assert_eq!(random.games, 40);
    assert_eq!(
        random.wins.iter().sum::<u64>() + random.draws + random.no_result + random.unfinished,
        40
    );
    assert!(
        random.wins.len() > 2 && random.wins.iter().filter(|&&w| w > 0).count() >= 3,
        "{:?}",
        random.wins
    );
    let mcts = PlayerSpec::parse("mcts:300").expect("a player");
    let searched = run(vec![PlayerSpec::Random, mcts, PlayerSpec::Random, PlayerSpec::Random]);
    eprintln!(
        "blue wins {} of 40 at random, {} of 40 searching; all: {:?} / {:?}",
        random.won(1),
        searched.won(1),
        random.wins,
        searched.wins
    );
    assert!(
        searched.won(1) >= random.won(1) + 10,
        "blue searching won {} of 40, at random {}",
        searched.won(1),
        random.won(1)
    );
}

/// A runner one step from home takes it: the search sees the win for the side to move among four.
#[test]
fn mcts_takes_a_win_among_four_players() {
    let e = common::engine("tests/language/four-runners.rules", &[]);
    let pos = e.from_fen("7/3rR3/7/bR5gR/7/7/3yR3 r - - 0 1").expect("a position");
    let mut m = sim::Mcts::new(
        sim::Budget::Iterations(200),
        <rand_chacha::ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(3),
    );
    let (best, _) = m.search(&sim::Walk::new(pos.clone()));
    assert_eq!(pos.rules().board.rank(best.to as usize), 6, "{best:?} reaches rank 7");
}

/// Ludo among four, with a die: the simulation counts each side's wins, every game finishes, and a
/// searching red (MCTS through the throws, as chance nodes) wins clearly more than at random, over
/// the same seeded throws.
#[test]
fn ludo_among_four_is_played_out_and_mcts_searches_through_the_throws() {
    let e = common::engine("rulesets/ludo.rules", &[]);
    let run = |players: Vec<PlayerSpec>| tally_of(&e, 40, 3000, players);
    let random = run(vec![PlayerSpec::Random; 4]);
    assert_eq!(random.wins.iter().sum::<u64>(), 40, "every game has a winner: {random:?}");
    assert!(random.wins.iter().all(|&w| w > 3), "each side wins some: {:?}", random.wins);
    let mcts = PlayerSpec::parse("mcts:1000").expect("a player");
    let searched = run(vec![mcts, PlayerSpec::Random, PlayerSpec::Random, PlayerSpec::Random]);
    eprintln!("red wins {} of 40 at random, {} searching", random.won(0), searched.won(0));
    assert!(
        searched.won(0) >= random.won(0) + 8,
        "red searching won {} of 40, at random {}",
        searched.won(0),
        random.won(0)
    );
}

/// The tally of `games` games from the engine's start (seed 11, two threads), cut at `max_plies`.
fn tally_of(e: &arbiter::game::Engine, games: u64, max_plies: usize, players: Vec<PlayerSpec>) -> arbiter::sim::Tally {
    let cfg = Config {
        games,
        seed: 11,
        players,
        max_plies,
        threads: 2,
        shard: Shard::WHOLE,
        keep_moves: false,
        branching_every: arbiter::sim::BRANCHING_EVERY,
    };
    sim::run(&e.start(), &cfg, &AtomicBool::new(false), &|_| {}).tally
}

/// Four-player chess in teams: partners win together, so a simulation reports a row per team (a
/// win is tallied for the side whose move won it: a team's wins are its sides' together);
/// searching partners (MCTS values a game by team) beat random ones.
#[test]
fn four_player_chess_is_simulated_by_teams() {
    let e = common::engine("rulesets/four-player-chess.rules", &[]);
    let random = tally_of(&e, 16, 1200, vec![PlayerSpec::Random; 4]);
    assert_eq!(random.games, 16);
    let finished = random.games - random.unfinished;
    assert_eq!(
        (0..4).map(|s| random.won(s)).sum::<u64>() + random.draws,
        finished,
        "every finished game is a team's win or a draw: {random:?}"
    );
    assert!(
        finished > 4 && random.draws < finished,
        "some games end with a team winning: {random:?}"
    );
    let mcts = PlayerSpec::parse("mcts:40").expect("a player");
    let searched = tally_of(&e, 4, 400, vec![mcts.clone(), PlayerSpec::Random, mcts, PlayerSpec::Random]);
    eprintln!("red and yellow searching: {searched:?}");
    let (ours, theirs) = (searched.won(0) + searched.won(2), searched.won(1) + searched.won(3));
    assert!(
        ours >= 2 && theirs == 0,
        "red and yellow searching won {ours} of 4, blue and green {theirs}: {searched:?}"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["simulate", "four-player-chess", "--games", "4", "--seed", "2", "--max-plies", "200"])
        .current_dir(common::root())
        .output()
        .expect("arbiter runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("red and yellow win") && text.contains("blue and green win"), "{text}");
    assert!(!text.contains("yellow wins"), "{text}");
    // The first player's score is its team's.
    assert!(text.contains("first player's team (red and yellow) scores"), "{text}");
}

/// A run started with the third side to move reports that side as the first player (it was
/// taken as the second).
#[test]
fn a_run_whose_third_side_moves_first_names_it_first() {
    const YELLOW: &str = "3yRyNyByKyQyByNyR3/3yPyPyPyPyPyPyPyP3/14/bRbP10gPgR/bNbP10gPgN/bBbP10gPgB/bQbP10gPgK/bKbP10gPgQ/bBbP10gPgB/bNbP10gPgN/bRbP10gPgR/14/3rPrPrPrPrPrPrPrP3/3rRrNrBrQrKrBrNrR3 y rKrQbKbQyKyQgKgQ - 0 1";
    let v = json(&arbiter(&[
        "simulate",
        "four-player-chess",
        "--fen",
        YELLOW,
        "--games",
        "2",
        "--seed",
        "1",
        "--max-plies",
        "20",
        "--json",
    ]));
    assert_eq!(v["first_player"], "yellow", "{v}");
}

/// Among four played on for places, the report gives each side's mean place: the means add up
/// to 1 + 2 + 3 + 4 over games that gave every place.
#[test]
fn places_among_four_are_reported_as_each_side_s_mean_place() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args([
            "simulate",
            "tests/language/ludo-places.rules",
            "--games",
            "8",
            "--seed",
            "3",
            "--max-plies",
            "4000",
            "--json",
        ])
        .current_dir(common::root())
        .output()
        .expect("arbiter runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    let means = v["mean_places"].as_object().unwrap_or_else(|| panic!("mean_places in {v}"));
    assert_eq!(means.len(), 4, "{means:?}");
    let sum: f64 = means.values().map(|m| m.as_f64().expect("a number")).sum();
    assert!((sum - 10.0).abs() < 1e-9, "{means:?}");
    assert!(
        means.values().all(|m| (1.0..=4.0).contains(&m.as_f64().unwrap_or(0.0))),
        "{means:?}"
    );
}
