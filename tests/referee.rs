//! Wrong answers found by writing new games, each fixed at its root: every door (play, explain,
//! perft, the FEN reader and writer) must give the same ruling. One test per finding; each fails
//! without its fix.

use crate::common;

use common::arbiter;

/// Writes `text` to a new file `name` in the test's own scratch folder `dir`; its path.
fn file(dir: &str, name: &str, text: &str) -> String {
    let folder = common::scratch(dir);
    let path = folder.join(name);
    std::fs::write(&path, text).expect("the scratch folder is writable");
    path.display().to_string()
}

/// The lines of a run's output that start with `label` (`status:`, `why:`), trimmed.
fn field(stdout: &str, label: &str) -> String {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| panic!("no `{label}` line in:\n{stdout}"))
}

/// A chain taken for want of liberties by `after each move capture …` is a capture for `captured`:
/// the game ends on it in `play`, and `perft --stop-at-end` counts no children below it.
#[test]
fn a_chain_taken_by_the_rule_of_liberties_is_a_capture() {
    let rules = "tests/language/first-capture.rules";
    // White's chain C4–D4 has one liberty left, E4.
    let fen = "7/7/2XX3/1Xxx3/2XX3/7/7 b - - 0 1";
    let r = arbiter(&["play", rules, "--fen", fen, "E4"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(field(&r.stdout, "status:").starts_with("win"), "{}", r.stdout);
    assert!(field(&r.stdout, "why:").contains("the last move captured"), "{}", r.stdout);
    let r = arbiter(&["perft", rules, "2", "--fen", fen, "--divide", "--stop-at-end"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let below_e4 = r
        .stdout
        .lines()
        .find(|l| l.starts_with("E4"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(below_e4.ends_with(" 0"), "the game is over after E4: {below_e4}");
    // A move that captures nothing ends nothing: the other first moves have children.
    let quiet = r
        .stdout
        .lines()
        .find(|l| l.starts_with("A1"))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(!quiet.ends_with(" 0"), "{quiet}");
}

/// `connects` names the chain that connects, and only it: a separate pair on the same edge is not
/// part of it.
#[test]
fn a_connection_is_explained_with_the_one_chain_that_connects() {
    // Red: a1–a11 (the file of the connection, a11 last), and a pair f1–f2 apart from it.
    let moves = "a1 k1 a2 k2 a3 k3 a4 k4 a5 k5 a6 k6 a7 k7 a8 k8 a9 k9 a10 k10 f1 k11 f2 j1 a11";
    let mut args = vec!["play", "hex"];
    args.extend(moves.split(' '));
    let r = arbiter(&args);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let why = field(&r.stdout, "why:");
    assert!(why.contains("(11 connected, from a1 to a11)"), "{why}");
}

/// A captured `+P` is `+P` in the hand (not `P`, which is another piece), read back from FEN, and
/// dropped as `+P@a1` beside the pawn's `P@a1`: no two moves share a text.
#[test]
fn a_promoted_kind_with_a_plus_letter_keeps_it_in_the_hand() {
    let rules = "tests/variants/plus-hand.rules";
    let r = arbiter(&["play", rules, "c2c3", "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "k4/5/2P2/5/4K[+P] b - - 0 1");
    let fen = "k4/5/5/5/4K[P+Pp+p] w - - 0 1";
    let r = arbiter(&["play", rules, "--fen", fen, "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), fen, "the hand reads back as written");
    let r = arbiter(&["moves", rules, "--fen", fen]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let moves: Vec<&str> = r.stdout.lines().collect();
    assert!(moves.contains(&"P@a1") && moves.contains(&"+P@a1"), "{moves:?}");
    let mut unique = moves.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), moves.len(), "two moves share a text: {moves:?}");
    let r = arbiter(&["explain", rules, "--fen", fen, "+P@a1"]);
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(r.stdout.starts_with("+P@a1: legal"), "{}", r.stdout);
    // An unknown piece in the hand is named as written.
    let r = arbiter(&["play", rules, "--fen", "k4/5/5/5/4K[+K] w - - 0 1"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stderr.contains("`+K` is not a piece of this ruleset (its letters: K P +P)"),
        "{}",
        r.stderr
    );
}

/// A promotion to a kind lettered `+P` is written `c3c4+` by `moves`, and `play` and `explain` both
/// read it.
#[test]
fn a_promotion_written_with_plus_is_read_by_every_command() {
    let rules = "tests/variants/plus-hand.rules";
    let fen = "k4/5/2P2/5/4K w - - 0 1";
    let r = arbiter(&["moves", rules, "--fen", fen]);
    let moves: Vec<&str> = r.stdout.lines().collect();
    assert!(moves.contains(&"c3c4+") && moves.contains(&"c3c4"), "{moves:?}");
    let r = arbiter(&["explain", rules, "--fen", fen, "c3c4+"]);
    assert!(r.stdout.starts_with("c3c4+: legal"), "{}{}", r.stdout, r.stderr);
    let r = arbiter(&["play", rules, "--fen", fen, "c3c4+", "--write", "fen"]);
    assert_eq!(r.stdout.trim(), "k4/2+P2/5/5/4K[] b - - 1 1", "{}", r.stderr);
}

/// Where captures go back unpromoted, `+P` on the board is a promoted pawn, written without `~`
/// (Fairy-Stockfish reads no `+P~`) and returned to the hand a pawn.
#[test]
fn a_plus_letter_says_promoted_without_a_tilde() {
    let rules = "tests/variants/plus-unpromoted.rules";
    let r = arbiter(&["play", rules, "c2c3", "--write", "fen"]);
    assert_eq!(r.stdout.trim(), "k4/5/2P2/5/4K[P] b - - 0 1", "{}", r.stderr);
    let r = arbiter(&["play", rules, "--fen", "k4/5/2P2/5/4K w - - 0 1", "c3c4+", "--write", "fen"]);
    assert_eq!(r.stdout.trim(), "k4/2+P2/5/5/4K[] b - - 1 1", "{}", r.stderr);
    // `Q~~` and a `~` after an empty square are refused, the field named.
    for fen in ["k4/5/2P~~2/5/4K w - - 0 1", "k4/5/2~P2/5/4K w - - 0 1"] {
        let r = arbiter(&["play", rules, "--fen", fen]);
        assert_eq!(r.code, Some(1), "{fen}: {}", r.stdout);
        assert!(r.stderr.contains("follows no piece"), "{fen}: {}", r.stderr);
    }
}

/// `engine --fen` is refused, not ignored (the protocol sets positions), whatever the FEN.
#[test]
fn an_engine_refuses_a_start_position_it_would_ignore() {
    for fen in ["rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "garbage"] {
        let r = common::arbiter_within(20, &["engine", "chess", "--protocol", "uci", "--fen", fen]);
        assert_eq!(r.code, Some(1), "{}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("--fen") && r.stderr.contains("position fen"), "{}", r.stderr);
    }
}

/// A PGN record tagged with another game's `Variant` is refused, naming the tag (and the bundled
/// ruleset it names), rather than replayed by chess's rules and exported under the foreign tag;
/// PGN's `Standard` and the ruleset's own name are accepted.
#[test]
fn a_record_of_another_variant_is_refused() {
    let pgn = |name: &str, tag: &str| {
        file(
            &format!("referee-variant-{name}"),
            name,
            &format!("[Event \"t\"]\n[Variant \"{tag}\"]\n\n1. e4 e5 *\n"),
        )
    };
    let atomic = pgn("atomic.pgn", "Atomic");
    let r = arbiter(&["play", "chess", "--pgn", &atomic]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stderr.contains("Variant tag is \"Atomic\", the bundled ruleset `atomic`"),
        "{}",
        r.stderr
    );
    let unknown = pgn("unknown.pgn", "Martian chess");
    let r = arbiter(&["play", "chess", "--pgn", &unknown]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stderr.contains("\"Martian chess\""), "{}", r.stderr);
    for (name, tag) in [("standard.pgn", "Standard"), ("own.pgn", "Chess")] {
        let path = pgn(name, tag);
        let r = arbiter(&["play", "chess", "--pgn", &path, "--write", "pgn"]);
        assert_eq!(r.code, Some(0), "{tag}: {}", r.stderr);
        assert!(r.stdout.contains(&format!("[Variant \"{tag}\"]")), "{}", r.stdout);
    }
    let r = arbiter(&["play", "atomic", "--pgn", &atomic]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// Output that cannot be written is an error, not a success: every command's stdout on a full
/// disk (`/dev/full`) exits 1 and says so (a closed pipe still ends quietly with exit 0:
/// tests/cli.rs, `a_closed_stdout_ends_the_run_without_a_panic`).
#[test]
fn output_that_cannot_be_written_is_not_a_success() {
    use std::process::{Command, Stdio};
    let full = || std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full opens");
    for args in [
        &["moves", "chess"][..],
        &["perft", "chess", "2"],
        &["perft", "chess", "2", "--divide"],
        &["play", "chess", "e2e4", "--write", "pgn"],
        &["play", "chess", "e2e4", "--write", "fen"],
        &["play", "chess", "e2e4"],
        &["explain", "chess", "e2e4"],
        &["check", "chess"],
        &["simulate", "tic-tac-toe", "--games", "3", "--seed", "1"],
        &["compare", "chess", "chess", "--depth", "1"],
        &["scenario", "run", "tests/language/hex-zones.ron"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(common::root())
            .stdout(full())
            .stderr(Stdio::piped())
            .output()
            .expect("arbiter runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("cannot write the output: No space left on device"), "{args:?}: {err}");
    }
}

/// `simulate --games-out` opens its file as `play --out` does: a new file only, so an existing
/// file is not overwritten and a FIFO is refused at once instead of blocking the run.
#[test]
fn games_out_never_overwrites_or_waits_on_a_fifo() {
    let dir = common::scratch("referee-games-out");
    let existing = dir.join("games.pgn");
    std::fs::write(&existing, "keep me").expect("writes");
    let fifo = dir.join("fifo");
    common::mkfifo(&fifo);
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).expect("makes a folder");
    let dangling = dir.join("dangling");
    std::os::unix::fs::symlink(dir.join("nothing"), &dangling).expect("links");
    let nowhere = dir.join("no-such-folder").join("games.pgn");
    let no_folder = format!("there is no folder {} to make it in", dir.join("no-such-folder").display());
    for (path, what) in [
        (&existing, "the file exists; nothing was overwritten"),
        (&fifo, "a FIFO (named pipe) is there; nothing was overwritten"),
        (&folder, "a directory is there; nothing was overwritten"),
        (&dangling, "a symbolic link to nothing is there; nothing was overwritten"),
        (&nowhere, no_folder.as_str()),
    ] {
        let p = path.display().to_string();
        let r = common::arbiter_within(20, &["simulate", "tic-tac-toe", "--games", "2", "--seed", "1", "--games-out", &p]);
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        assert!(r.stderr.contains(what), "{}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(&existing).expect("reads"), "keep me");
}

/// A record that cannot be written whole (here, past a file-size limit, as on a full disk) is
/// removed: no truncated file passes for a whole one or stands in the way of the next try.
#[test]
fn a_record_that_cannot_be_written_whole_leaves_no_file() {
    let dir = common::scratch("referee-partial");
    for args in [
        vec!["simulate", "chess", "--games", "20", "--seed", "1", "--games-out"],
        vec!["play", "chess", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "--write", "pgn", "--out"],
    ] {
        let path = dir.join(format!("{}.pgn", args[0]));
        // A shell that ignores SIGXFSZ hands the limit's EFBIG to the first write (no bytes may be written).
        let line = format!("trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\" '{}'", path.display());
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(line)
            .arg(env!("CARGO_BIN_EXE_arbiter"))
            .args(&args)
            .current_dir(common::root())
            .output()
            .expect("sh runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("the part written was removed"), "{args:?}: {err}");
        assert!(!path.exists(), "{args:?}: {} was left", path.display());
    }
}

/// A perft that would run for days is refused at once with an estimate of its work, unless asked
/// for with `--force`; a scenario's perft has the same budget.
#[test]
fn perft_past_the_budget_is_refused_with_its_estimate() {
    let r = common::arbiter_within(30, &["perft", "chess", "12"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stderr.contains("about 1.2e16 leaf nodes") && r.stderr.contains("--force"),
        "{}",
        r.stderr
    );
    // Within the budget, nothing changes.
    let r = common::arbiter_within(30, &["perft", "chess", "4"]);
    assert_eq!(r.stdout.trim(), "197281");
    let path = file(
        "referee-perft-budget",
        "deep.ron",
        "(title: \"deep\", ruleset: \"chess\", steps: [(expect: [Perft(depth: 8, nodes: 84998978956)])])",
    );
    let r = common::arbiter_within(30, &["scenario", "run", &path]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stdout.contains("past a scenario's budget"), "{}", r.stdout);
}

/// A pawn dropped on a square of its promotion zone where it can still move (legal by the ruleset's
/// `not where it cannot move`) stands where a pawn that moved there would have promoted: the
/// position is written, read back and accepted as a setup all the same.
#[test]
fn a_position_reached_by_a_drop_reads_back() {
    let rules = "tests/variants/drop-in-zone.rules";
    let r = arbiter(&["check", rules]);
    assert_eq!(
        r.code,
        Some(0),
        "the setup's pawn on a4 is one a drop puts there: {}{}",
        r.stdout,
        r.stderr
    );
    let r = arbiter(&["play", rules, "P@c4", "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let fen = r.stdout.trim().to_string();
    assert_eq!(fen, "4k/P1P2/5/5/4K[p] b - - 1 1");
    let r = arbiter(&["play", rules, "--fen", &fen, "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), fen);
    // On the last rank it could never move: no drop there, and no pawn there in a FEN.
    let r = arbiter(&["play", rules, "P@c5"]);
    assert_eq!(r.code, Some(2), "{}", r.stdout);
    let r = arbiter(&["play", rules, "--fen", "k1P2/5/5/5/4K w - - 0 1"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stderr.contains("must already have promoted"), "{}", r.stderr);
}

/// A man placed from the supply on the rank where a man that steps there is crowned arrives
/// uncrowned, as a dropped piece does: the FEN written after the placement reads back, and a setup
/// with a man there is accepted. (The reader refused it, so that `play` wrote a position it could
/// not read: found by the long fuzz run on a draughts ruleset with a stray `place`.)
#[test]
fn a_position_reached_by_a_placement_reads_back() {
    let rules = "tests/variants/place-in-zone.rules";
    let r = arbiter(&["play", rules, "c5", "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let fen = r.stdout.trim().to_string();
    assert_eq!(fen, "2M2/5/5/5/5 b - - 1 1", "the man placed on c5 stands there uncrowned");
    let r = arbiter(&["play", rules, "--fen", &fen, "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), fen);
    // A man that steps onto the far rank is crowned all the same.
    let r = arbiter(&["play", rules, "--fen", "5/2M2/5/5/5 w - - 0 1", "c4c5", "--write", "fen"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "2K2/5/5/5/5 b - - 1 1");
}

/// A stage of a time control has one bound wherever the control comes from: a ruleset's `clock`
/// refuses 20000 moves (tests/diagnostics/clock-controls), and so do `--clock` and a PGN
/// `TimeControl`, in the same words.
#[test]
fn a_time_control_has_one_bound_everywhere() {
    let r = arbiter(&["play", "chess", "--clock", "20000/60", "e2e4"]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stderr.contains("a stage lasts 1 to 10000 moves, not 20000"), "{}", r.stderr);
    let path = file(
        "referee-clock",
        "game.pgn",
        "[Event \"t\"]\n[TimeControl \"20000/60\"]\n\n1. e4 e5 *\n",
    );
    let r = arbiter(&["play", "chess", "--pgn", &path]);
    assert!(
        format!("{}{}", r.stdout, r.stderr).contains("a stage lasts 1 to 10000 moves, not 20000"),
        "{}{}",
        r.stdout,
        r.stderr
    );
    let r = arbiter(&["play", "chess", "--clock", "40/5400:3600", "e2e4"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

/// What a record reader passes over is said: a second game in the file, text after the game's end,
/// and a result the final position contradicts (the rules' result is kept).
#[test]
fn a_record_s_skipped_parts_and_wrong_result_are_named() {
    let write = |name: &str, text: &str| file(&format!("referee-records-{name}"), name, text);
    let two = write("two.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 *\n");
    let r = arbiter(&["play", "chess", "--pgn", &two]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("holds another game after the first (from line 5): only the first game is read"),
        "{}",
        r.stderr
    );
    let stray = write("stray.pgn", "[Event \"a\"]\n\n1. e4 e5 * )\n");
    let r = arbiter(&["play", "chess", "--pgn", &stray]);
    assert!(
        r.stderr.contains("skipped the text after the game's end at line 3, column 12: `)`"),
        "{}",
        r.stderr
    );
    let wrong = write("wrong.pgn", "[Event \"a\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n");
    let r = arbiter(&["play", "chess", "--pgn", &wrong]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("the record's result 1-0 contradicts its final position (checkmate: 0-1)"),
        "{}",
        r.stderr
    );
    assert!(r.stdout.contains("0-1"), "{}", r.stdout);
}

/// A parameter an SGF record sets (its board size) that the ruleset refuses is blamed on the
/// record's property, not on a `--param` the user never gave.
#[test]
fn a_parameter_a_record_sets_is_named_as_the_record_s() {
    let big = file("referee-sgf-params-go", "big.sgf", "(;GM[1]FF[4]SZ[40];B[aa])");
    let r = arbiter(&["play", "go", "--sgf", &big]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stderr.contains("the record's SZ[40] (size) does not fit go"), "{}", r.stderr);
    let hex = file("referee-sgf-params-hex", "hex.sgf", "(;GM[1]FF[4]SZ[9];B[aa])");
    let r = arbiter(&["play", "hex", "--sgf", &hex]);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stderr.contains("the record's SZ[9] (size) does not fit hex"), "{}", r.stderr);
}
