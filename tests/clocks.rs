//! The time controls the bundled rulesets state, as the seeds give them: each is checked against
//! the same control written as a PGN `TimeControl` tag (an independent reading of the numbers),
//! and run on clocks move by move to the flag fall.

use crate::common;

use arbiter::clock::{Clocks, FlagFall, TimeControl, parse_pgn_time_control, write_pgn_time_control};
use common::bundled;

fn control(game: &str, name: &str) -> TimeControl {
    let e = bundled(game);
    e.rules()
        .clocks
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{game} has no control `{name}`"))
        .clone()
}

/// A bundled control equals its PGN form, apart from its name and citation.
fn same_as_pgn(game: &str, name: &str, pgn: &str) {
    let mut c = control(game, name);
    let p = parse_pgn_time_control(pgn).expect("valid PGN").expect("timed");
    assert_eq!(c.stages, p.stages, "{game} {name} against {pgn}");
    assert_eq!(write_pgn_time_control(&c), pgn);
    c.name = p.name.clone();
    c.cite = None;
    assert_eq!(c, p);
}

#[test]
fn xiangqis_five_controls_are_the_seeds() {
    let names: Vec<String> = bundled("xiangqi").rules().clocks.iter().map(|c| c.name.clone()).collect();
    assert_eq!(names, ["classical", "standard", "rapid", "rapid-30", "sudden-death"]);
    same_as_pgn("xiangqi", "classical", "40/5400:10/900");
    same_as_pgn("xiangqi", "standard", "30/3600:10/600");
    same_as_pgn("xiangqi", "rapid", "40/600:30/300");
    same_as_pgn("xiangqi", "rapid-30", "30/300");
    same_as_pgn("xiangqi", "sudden-death", "3600");
    assert_eq!(control("xiangqi", "classical").cite.as_deref(), Some("6.1"));
}

#[test]
fn chess_controls_carry_their_increment_through_every_stage() {
    same_as_pgn("chess", "classical", "40/5400+30:1800+30");
    same_as_pgn("chess", "rapid", "900+10");
    same_as_pgn("chess", "blitz", "180+2");
}

/// Go's national control: three hours, then five one-minute periods. A player who uses the main
/// time and then makes every move within the minute never loses a period; one who takes 61 s
/// loses one; the flag falls when the fifth runs out.
#[test]
fn gos_count_down_runs_out_after_its_last_period() {
    let c = control("go", "national");
    assert_eq!(c.byoyomi, Some((5, 60_000)));
    let mut clocks = Clocks::new(&c);
    clocks.spend(0, 3 * 3_600_000).expect("the main time, to the millisecond");
    for _ in 0..200 {
        clocks.spend(0, 59_000).expect("within the minute");
    }
    assert_eq!(clocks.sides[0].periods_left, 5);
    for left in (1..5).rev() {
        clocks.spend(0, 61_000).expect("a period used up");
        assert_eq!(clocks.sides[0].periods_left, left);
    }
    assert_eq!(clocks.spend(0, 60_500), Err(FlagFall { side: 0, over_ms: 500 }));
}

/// Xiangqi's classical control to the minute: after 40 moves in 80 minutes, 10 are left and the
/// next 15 are added; the 50th move is due by 25 minutes later.
#[test]
fn xiangqis_classical_clock_adds_each_stage_to_what_is_left() {
    let mut clocks = Clocks::new(&control("xiangqi", "classical"));
    for _ in 0..40 {
        clocks.spend(1, 120_000).expect("two minutes a move");
    }
    assert_eq!(clocks.seconds_left()[1], 25.0 * 60.0);
    for _ in 0..9 {
        clocks.spend(1, 150_000).expect("two and a half minutes a move");
    }
    assert_eq!(clocks.spend(1, 180_000), Err(FlagFall { side: 1, over_ms: 30_000 }));
}

fn play_json(args: &[&str]) -> serde_json::Value {
    let out = common::arbiter(args);
    assert_eq!(out.code, Some(0), "{args:?}: {}", out.stderr);
    serde_json::from_str(&out.stdout).expect("JSON")
}

/// A move that takes more than the player has is not made: the flag falls, and the ruleset's
/// `flag fallen` rule rules (xiangqi 4.1: the player loses). `play --json` reports the clocks.
#[test]
fn a_flag_fall_ends_a_xiangqi_game_on_the_command_line() {
    let v = play_json(&[
        "play", "xiangqi", "--clock", "rapid-30", "h3e3@100", "h8e8@200", "b1c3@250", "--json",
    ]);
    assert_eq!(v["status"], "win");
    assert_eq!(v["winner"], "black");
    assert_eq!(v["reason"], "flag-fall");
    assert_eq!(v["clause"], "CXA 4.1");
    assert_eq!(v["ply"], 2, "the move that ran out of time was not made");
    assert_eq!(v["clock"], "rapid-30");
    assert_eq!(v["clocks"]["red"], 0.0);
    assert_eq!(v["clocks"]["black"], 100.0);
    // In time, the same moves go on.
    let v = play_json(&[
        "play", "xiangqi", "--clock", "rapid-30", "h3e3@100", "h8e8@200", "b1c3@150", "--json",
    ]);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["clocks"]["red"], 50.0);
}

/// Go's byo-yomi on the command line: white's move 30 s into its only period is in time, the
/// next one over a minute is not.
#[test]
fn gos_periods_show_in_play_and_the_last_one_ends_the_game() {
    let v = play_json(&["play", "go", "--param", "size=9", "--clock", "club", "E5@3600", "E6@3630", "--json"]);
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["periods"]["white"], 1);
    assert_eq!(v["clocks"]["white"], 60.0);
    let v = play_json(&[
        "play", "go", "--param", "size=9", "--clock", "club", "E5@3600", "E6@3630", "D5@61", "--json",
    ]);
    assert_eq!(v["reason"], "flag-fall");
    assert_eq!(v["winner"], "white");
    assert_eq!(v["periods"]["black"], 0);
}

/// What `--clock` and `@` refuse, each with a message naming what and where, exit 1.
#[test]
fn clock_arguments_are_checked() {
    for (args, says) in [
        (
            &["play", "chess", "--clock", "bullet", "e4"][..],
            "the ruleset's are classical, rapid, blitz",
        ),
        (&["play", "chess", "e4@3"][..], "a move's time needs a clock"),
        (
            &["play", "chess", "--clock", "300", "e4@30x"][..],
            "`30x` after `@` is not a number of seconds",
        ),
        (&["play", "chess", "--clock", "40/x", "e4"][..], "TimeControl field `40/x`"),
        // Crazyhouse states no flag rule (chess's own decides a flag fall: see below).
        (
            &["play", "crazyhouse", "--clock", "180", "e4@181"][..],
            "the flag fell, and the ruleset has no end rule for it",
        ),
    ] {
        let out = common::arbiter(args);
        assert_eq!(out.code, Some(1), "{args:?}");
        assert!(out.stderr.contains(says), "{args:?}: {}", out.stderr);
    }
    // Chess rules on a flag fall (FIDE 6.9): the opponent could still mate, so the player loses.
    let out = common::arbiter(&["play", "chess", "--clock", "blitz", "--json", "e4@181"]);
    assert_eq!(out.code, Some(0), "{}", out.stderr);
    assert!(
        out.stdout.contains(r#""reason":"flag-fall""#) && out.stdout.contains(r#""winner":"black""#),
        "{}",
        out.stdout
    );
    // An illegal move is ruled illegal, whatever time it carries: only a legal move spends time.
    let out = common::arbiter(&["play", "xiangqi", "--clock", "rapid-30", "h3h9@400"]);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("illegal"), "{}", out.stderr);
}

/// Runs `arbiter ARGS`, expecting success; its standard output.
fn arbiter_out(args: &[&str]) -> String {
    let out = common::arbiter(args);
    assert_eq!(out.code, Some(0), "arbiter {args:?}: {}", out.stderr);
    out.stdout
}

/// Python's answer to `code` (python-chess, sgfmill: installed by scripts/setup).
fn python(code: &str) -> String {
    let out = std::process::Command::new("python3")
        .args(["-c", code])
        .output()
        .expect("python3 runs (run scripts/setup)");
    assert!(out.status.success(), "{code}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8").trim().to_string()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-clocks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

const PGN_CLOCKS: &str = "import chess.pgn, sys\ng = chess.pgn.read_game(open(sys.argv[1]))\nassert not g.errors, g.errors\nprint(g.headers.get('TimeControl'), [n.clock() for n in g.mainline()])";

/// A blitz record's `[%clk]` comments drive the clocks: the time each move took is what the mover
/// had, plus the increment, less what the comment says was left. What Arbiter writes back,
/// python-chess reads to the same clock after every move.
#[test]
fn a_pgn_records_clock_comments_run_the_clocks_and_are_written_back() {
    let v = play_json(&["play", "chess", "--pgn", "tests/pgn/blitz-with-clocks.pgn", "--json"]);
    assert_eq!(v["clock"], "180+2");
    assert_eq!(
        (v["clocks"]["white"].as_f64(), v["clocks"]["black"].as_f64()),
        (Some(174.3), Some(160.2))
    );
    assert_eq!(v["reason"], "checkmate");
    let path = scratch("blitz.pgn");
    let p = path.to_str().expect("UTF-8");
    arbiter_out(&[
        "play",
        "chess",
        "--pgn",
        "tests/pgn/blitz-with-clocks.pgn",
        "--write",
        "pgn",
        "--out",
        p,
    ]);
    let original = common::root().join("tests/pgn/blitz-with-clocks.pgn");
    let read = |f: &str| python(&PGN_CLOCKS.replace("sys.argv[1]", &format!("{f:?}")));
    assert_eq!(read(p), read(original.to_str().expect("UTF-8")));
    assert_eq!(read(p), "180+2 [180.0, 180.0, 178.4, 179.1, 175.0, 160.2, 174.3]");
    // Moves timed on the command line are written as the clocks they leave.
    let text = arbiter_out(&["play", "chess", "--clock", "blitz", "e4@3", "e5@4.5", "--write", "pgn"]);
    assert!(text.contains("[TimeControl \"180+2\"]"), "{text}");
    assert!(text.contains("1. e4 {[%clk 0:02:59]} 1... e5 {[%clk 0:02:57.5]} *"), "{text}");
    // The file is never overwritten.
    let out = common::arbiter(&["play", "chess", "e4", "--write", "pgn", "--out", p]);
    assert_eq!(out.code, Some(1));
    assert!(out.stderr.contains("nothing was overwritten"), "{}", out.stderr);
}

const SGF_CLOCKS: &str = "from sgfmill import sgf\ng = sgf.Sgf_game.from_bytes(open(PATH, 'rb').read())\nr = g.get_root()\nprint(r.get('TM'), r.get('OT'), [{k: n.get(k) for k in sorted(n.properties()) if k in ('BL', 'WL', 'OB', 'OW')} for n in g.get_main_sequence()[1:]])";

/// A go record's `TM`, `OT` and `BL`/`WL`/`OB`/`OW` drive main time and byo-yomi: black runs out of
/// main time and then loses a period, as the record says; sgfmill reads what Arbiter writes back
/// to the same times and periods.
#[test]
fn an_sgf_records_times_and_periods_run_the_clocks_and_are_written_back() {
    let v = play_json(&["play", "go", "--sgf", "tests/go/byoyomi-clocks.sgf", "--json"]);
    assert_eq!(
        (v["clocks"]["black"].as_f64(), v["clocks"]["white"].as_f64()),
        (Some(30.0), Some(1.5))
    );
    assert_eq!((v["periods"]["black"].as_u64(), v["periods"]["white"].as_u64()), (Some(2), Some(3)));
    let path = scratch("byoyomi.sgf");
    let p = path.to_str().expect("UTF-8");
    arbiter_out(&["play", "go", "--sgf", "tests/go/byoyomi-clocks.sgf", "--write", "sgf", "--out", p]);
    let original = common::root().join("tests/go/byoyomi-clocks.sgf");
    let read = |f: &str| python(&SGF_CLOCKS.replace("PATH", &format!("{f:?}")));
    assert_eq!(read(p), read(original.to_str().expect("UTF-8")));
    assert!(read(p).starts_with("60.0 3x30 byo-yomi"), "{}", read(p));
}

/// `explain` rules on a move's time as `play` does: past what the player had, the flag falls
/// before the move is made, with the clause of the ruleset's flag rule; within it, the clocks after.
#[test]
fn explain_rules_on_a_flag_fall_with_its_clause() {
    let run = common::arbiter(&[
        "explain",
        "xiangqi",
        "--clock",
        "sudden-death",
        "h3e3@3000",
        "h10g8@100",
        "b3b5@700",
    ]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("red took 700 s with 600 s left: the flag falls"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("flag-fall (CXA 4.1)"), "{}", run.stdout);
    let v = play_json(&[
        "explain", "go", "--param", "size=9", "--clock", "club", "E5@3590", "C7@10", "G7@75", "--json",
    ]);
    assert_eq!(
        (v["reason"].as_str(), v["end_clause"].as_str()),
        (Some("flag-fall"), Some("ch. 2 art. 3"))
    );
    assert_eq!(v["status"], "win");
    assert!(
        v["flag_fall"]
            .as_str()
            .is_some_and(|f| f.contains("black took 75 s with 10 s left")),
        "{v}"
    );
    let v = play_json(&[
        "explain", "go", "--param", "size=9", "--clock", "club", "E5@3590", "C7@10", "G7@50", "--json",
    ]);
    assert_eq!((v["flag_fall"].is_null(), v["status"].as_str()), (true, Some("ongoing")));
    assert_eq!(v["clocks"]["black"].as_f64(), Some(60.0), "in byo-yomi: the period");
    let bad = common::arbiter(&["explain", "chess", "e2e4@2"]);
    assert_eq!(bad.code, Some(1));
    assert!(bad.stderr.contains("needs a clock"), "{}", bad.stderr);
}
