//! The `arbiter` command line, run as a user runs it: the built binary, from the workspace root.
//! Each test states one part of the contract — exit codes, what the last line of output is, the
//! JSON shapes — and that bad input gets a message naming what is wrong, never a panic.

use serde_json::Value;

use crate::common;

use common::{Run, arbiter, arbiter_within, mkfifo, scratch};

/// Kiwipete, the standard perft test position with castling, en passant and promotions nearby.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// White may castle short, but the black rook on f8 attacks f1, which the king passes.
const CASTLE_THROUGH_CHECK: &str = "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1";

impl Run {
    fn last_line(&self) -> &str {
        self.stdout.lines().last().unwrap_or_default()
    }
    fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim()).unwrap_or_else(|e| panic!("stdout is not one JSON value ({e}):\n{}", self.stdout))
    }
    /// The run ended with `code` (not a crash: no panic).
    fn assert_exit(&self, code: i32) {
        assert_eq!(
            self.code,
            Some(code),
            "exit code; stdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "the binary panicked:\n{}", self.stderr);
    }
    /// A failure that is reported, not a crash: the given exit code, a message on stderr, no panic.
    fn assert_fails_cleanly(&self, code: i32) {
        self.assert_exit(code);
        assert!(!self.stderr.trim().is_empty(), "no message on stderr");
    }
}

fn moves_of(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .expect("`moves` is an array")
        .iter()
        .map(|m| m.as_str().expect("a move is a string").to_string())
        .collect()
}

// ---------------------------------------------------------------- check

#[test]
fn check_accepts_the_bundled_chess_rules() {
    let r = arbiter(&["check", "chess"]);
    assert_eq!(r.code, Some(0), "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    assert!(r.last_line().ends_with("ok (0 warnings)"), "{}", r.stdout);
}

#[test]
fn check_reports_a_broken_ruleset_with_file_line_and_column() {
    let path = "tests/diagnostics/misspelt-piece.rules";
    // Where the misspelt name is, so the test does not depend on the case's exact layout.
    let text = std::fs::read_to_string(common::root().join(path)).expect("the golden case exists");
    let (line, col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("Knigt").map(|c| (i + 1, c + 1)))
        .expect("the case misspells `Knight` as `Knigt`");
    let r = arbiter(&["check", path]);
    // `check` prints its diagnostics on stdout: they are its output.
    r.assert_exit(1);
    assert!(
        r.stdout.contains(&format!("{path}:{line}:{col}")),
        "no `{path}:{line}:{col}` in:\n{}",
        r.stdout
    );
    assert!(r.stdout.contains("error[E0101]: unknown piece `Knigt`"), "{}", r.stdout);
    assert!(r.stdout.contains("did you mean `Knight`?"), "{}", r.stdout);
}

#[test]
fn check_json_lists_the_diagnostics() {
    let r = arbiter(&["check", "--json", "tests/diagnostics/syntax-recovery.rules"]);
    r.assert_exit(1);
    let v = r.json();
    assert_eq!(v["ok"], false);
    let codes: Vec<&str> = v["diagnostics"]
        .as_array()
        .expect("an array")
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(codes, ["E0001", "E0001", "E0101"], "{v}");
    assert!(v["diagnostics"][0]["line"].as_u64().is_some_and(|l| l > 0), "{v}");
}

#[test]
fn commands_that_need_a_valid_ruleset_print_its_errors() {
    let r = arbiter(&["perft", "tests/diagnostics/misspelt-piece.rules", "1"]);
    r.assert_fails_cleanly(1);
    assert!(r.stderr.contains("unknown piece `Knigt`"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
}

// ---------------------------------------------------------------- perft

#[test]
fn perft_prints_the_count_as_the_last_line() {
    let r = arbiter(&["perft", "chess", "3"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    assert_eq!(r.last_line(), "8902");
}

#[test]
fn perft_stops_at_the_end_only_when_asked() {
    let r = arbiter(&["perft", "tic-tac-toe", "9"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    assert_eq!(r.last_line(), "362880");
    let r = arbiter(&["perft", "tic-tac-toe", "--stop-at-end", "9"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    assert_eq!(r.last_line(), "127872");
    let r = arbiter(&["perft", "tic-tac-toe", "--stop-at-end", "--divide", "6"]);
    assert_eq!(r.last_line(), "54720");
}

#[test]
fn perft_on_threads_counts_the_same_tree() {
    let one = arbiter(&["perft", "chess", "--fen", KIWIPETE, "3", "--divide"]);
    let two = arbiter(&["perft", "chess", "--fen", KIWIPETE, "3", "--divide", "--threads", "2"]);
    assert_eq!((one.code, two.code), (Some(0), Some(0)), "stderr:\n{}\n{}", one.stderr, two.stderr);
    assert_eq!((one.last_line(), two.last_line()), ("97862", "97862"));
    // The same line for each first move, in whatever order the threads finished them.
    let sorted = |out: &str| {
        let mut rows: Vec<String> = out.lines().filter(|l| l.contains(": ")).map(str::to_string).collect();
        rows.sort();
        rows
    };
    assert_eq!(sorted(&one.stdout), sorted(&two.stdout));
    assert_eq!(sorted(&two.stdout).len(), 48);
    let r = arbiter(&["perft", "tic-tac-toe", "--stop-at-end", "9", "--threads", "3"]);
    assert_eq!(r.last_line(), "127872", "stderr:\n{}", r.stderr);
}

#[test]
fn perft_refuses_threads_it_cannot_use() {
    for bad in ["0", "257"] {
        let r = arbiter(&["perft", "chess", "3", "--threads", bad]);
        r.assert_fails_cleanly(1);
        assert!(r.stderr.contains(&format!("--threads {bad}: from 1 to 256")), "{}", r.stderr);
    }
    let r = arbiter(&["perft", "chess", "3", "--threads", "two"]);
    r.assert_fails_cleanly(2);
    assert!(r.stderr.contains("--threads"), "{}", r.stderr);
}

#[test]
fn perft_starts_from_a_given_fen() {
    let r = arbiter(&["perft", "chess", "--fen", KIWIPETE, "2"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    assert_eq!(r.last_line(), "2039");
}

#[test]
fn perft_divide_prints_each_move_then_the_total() {
    let r = arbiter(&["perft", "chess", "--fen", KIWIPETE, "2", "--divide"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    let rows: Vec<(String, u64)> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(m, n)| {
            (
                m.to_string(),
                n.trim().parse().unwrap_or_else(|_| panic!("`{m}: {n}` is not a count")),
            )
        })
        .collect();
    assert_eq!(rows.len(), 48, "Kiwipete has 48 legal moves:\n{}", r.stdout);
    assert!(
        rows.iter().any(|(m, n)| m == "e1g1" && *n == 43),
        "castling short leads to 43 replies:\n{}",
        r.stdout
    );
    assert_eq!(rows.iter().map(|(_, n)| n).sum::<u64>(), 2039);
    assert_eq!(r.last_line(), "2039");
}

/// Starts `arbiter ARGS` from the workspace root with stdout piped; its lines arrive on the
/// receiver as the program prints them.
#[cfg(unix)]
fn spawn_arbiter(args: &[&str]) -> (std::process::Child, std::sync::mpsc::Receiver<String>) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(common::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    (child, receive)
}

/// Sends SIGINT, as Ctrl-C in a terminal does.
#[cfg(unix)]
fn interrupt(child: &std::process::Child) {
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -INT {}", child.id());
}

/// `partial: N nodes counted before the interrupt, K of M first moves finished (…)`: N, K, M.
#[cfg(unix)]
fn partial_line(line: &str) -> (u64, usize, usize) {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words[..] {
        [
            "partial:",
            nodes,
            "nodes",
            "counted",
            "before",
            "the",
            "interrupt,",
            done,
            "of",
            roots,
            "first",
            "moves",
            "finished",
            ..,
        ] => (
            nodes.parse().expect("a node count"),
            done.parse().expect("a count of first moves"),
            roots.parse().expect("a count of first moves"),
        ),
        _ => panic!("not a partial count: {line}"),
    }
}

#[test]
#[cfg(unix)]
fn ctrl_c_stops_a_long_perft_with_the_partial_count() {
    let (mut child, lines) = spawn_arbiter(&["perft", "chess", "9", "--force"]);
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert!(child.try_wait().expect("wait").is_none(), "perft 9 ended within a second");
    interrupt(&child);
    let status = child.wait().expect("wait");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr is piped"), &mut stderr).expect("stderr");
    assert_eq!(status.code(), Some(130), "exit on Ctrl-C; stderr:\n{stderr}");
    assert!(
        stderr.contains("interrupted: perft 9 stopped after 0 of 20 first moves"),
        "{stderr}"
    );
    let out: Vec<String> = lines.iter().collect();
    let (nodes, done, roots) = partial_line(out.last().map_or("", String::as_str));
    assert!(nodes > 0, "something was counted in a second");
    assert_eq!((done, roots), (0, 20), "no first move of perft 9 ends in a second");
}

#[test]
#[cfg(unix)]
fn ctrl_c_stops_every_thread_of_a_perft_with_the_partial_count() {
    let (mut child, lines) = spawn_arbiter(&["perft", "chess", "9", "--force", "--threads", "2"]);
    std::thread::sleep(std::time::Duration::from_secs(1));
    assert!(child.try_wait().expect("wait").is_none(), "perft 9 ended within a second");
    interrupt(&child);
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130), "exit on Ctrl-C, both threads stopped");
    let out: Vec<String> = lines.iter().collect();
    let (nodes, done, roots) = partial_line(out.last().map_or("", String::as_str));
    assert!(nodes > 0, "something was counted in a second");
    assert_eq!((done, roots), (0, 20));
}

#[test]
#[cfg(unix)]
fn perft_divide_prints_each_first_move_as_it_is_finished() {
    let (mut child, lines) = spawn_arbiter(&["perft", "chess", "6", "--divide"]);
    let first = lines
        .recv_timeout(std::time::Duration::from_secs(300))
        .expect("a line within minutes");
    // The first line is there while the other 19 first moves are still being counted.
    assert!(
        child.try_wait().expect("wait").is_none(),
        "perft 6 had ended when its first line came"
    );
    interrupt(&child);
    assert_eq!(child.wait().expect("wait").code(), Some(130));
    let (m, n) = first.split_once(": ").unwrap_or_else(|| panic!("`{first}` is not `move: count`"));
    let start = common::bundled("chess").start();
    let mut after = start.clone();
    after.play_unchecked(arbiter::notation::uci::find(&start, m).expect("a legal first move"));
    assert_eq!(n.parse::<u64>().ok(), Some(after.perft(5)), "{first}");
    let rest: Vec<String> = lines.iter().collect();
    let (_, done, roots) = partial_line(rest.last().map_or("", String::as_str));
    assert_eq!(roots, 20);
    assert_eq!(
        done,
        rest.len(),
        "one line per finished first move, then the partial count: {rest:?}"
    );
}

// ---------------------------------------------------------------- moves

#[test]
fn moves_json_lists_the_twenty_opening_moves() {
    let r = arbiter(&["moves", "chess", "--json"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    let v = r.json();
    assert_eq!(v.as_object().map(|o| o.len()), Some(1), "only `moves`: {v}");
    let moves = moves_of(&v);
    assert_eq!(moves.len(), 20, "{moves:?}");
    for m in ["e2e4", "g1f3", "b1a3", "h2h3"] {
        assert!(moves.iter().any(|x| x == m), "{m} missing from {moves:?}");
    }
}

#[test]
fn moves_after_a_line_lists_the_replies() {
    let r = arbiter(&["moves", "chess", "e2e4", "e7e5"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    let moves: Vec<&str> = r.stdout.lines().collect();
    assert!(moves.contains(&"g1f3"), "{moves:?}");
    assert!(moves.contains(&"e1e2"), "the king may step up: {moves:?}");
    assert!(!moves.contains(&"e4e5"), "the pawn is blocked: {moves:?}");
    assert_eq!(moves.len(), 29, "{moves:?}");
}

// ---------------------------------------------------------------- play

#[test]
fn play_reports_a_checkmate() {
    let r = arbiter(&["play", "chess", "--json", "f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    let v = r.json();
    assert_eq!(v["status"], "win", "{v}");
    assert_eq!(v["winner"], "black", "{v}");
    assert_eq!(v["reason"], "checkmate", "{v}");
    assert_eq!(v["result"], "0-1", "{v}");
    assert_eq!(v["claimable"], serde_json::json!([]), "{v}");
    assert_eq!(v["ply"], 4, "{v}");
}

#[test]
fn play_names_the_moves_that_would_produce_a_claimable_draw() {
    let r = arbiter(&["play", "chess", "--json", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]);
    r.assert_exit(0);
    let v = r.json();
    assert_eq!(v["claimable"], serde_json::json!(["threefold-repetition"]), "{v}");
    assert_eq!(v["claim_moves"], serde_json::json!({"threefold-repetition": ["f6g8"]}), "{v}");
    // Where the draw holds already, no move is needed to claim it.
    let r = arbiter(&[
        "play", "chess", "--json", "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ]);
    let v = r.json();
    assert_eq!(v["claimable"], serde_json::json!(["threefold-repetition"]), "{v}");
    assert_eq!(v["claim_moves"], serde_json::json!({}), "{v}");
}

#[test]
fn play_rejects_moving_a_pinned_piece() {
    // 3.d3?? — the d2 pawn is pinned to the king by the bishop on b4.
    let r = arbiter(&["play", "chess", "--json", "e2e4", "e7e6", "g1f3", "f8b4", "d2d3"]);
    r.assert_fails_cleanly(2);
    let v = r.json();
    assert_eq!(v["error"], "illegal-move", "{v}");
    assert_eq!(v["ply"], 5, "{v}");
    assert_eq!(v["move"], "d2d3", "{v}");
    assert_eq!(v["reason"], "royal-attacked", "{v}");
    assert_eq!(v["clause"], "FIDE 3.9.2", "{v}");
    let mut keys: Vec<&str> = v.as_object().expect("an object").keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["clause", "error", "move", "ply", "reason"], "{v}");
    assert!(
        r.stderr.contains("b4"),
        "the message names the attacking bishop's square: {}",
        r.stderr
    );
    assert!(r.stderr.contains("d2d3"), "{}", r.stderr);
}

#[test]
fn play_rejects_castling_through_an_attacked_square() {
    let r = arbiter(&["play", "chess", "--json", "--fen", CASTLE_THROUGH_CHECK, "e1g1"]);
    r.assert_fails_cleanly(2);
    let v = r.json();
    assert_eq!(v["error"], "illegal-move", "{v}");
    assert_eq!(v["ply"], 1, "{v}");
    assert_eq!(v["move"], "e1g1", "{v}");
    assert_eq!(v["reason"], "castling-through-check", "{v}");
    assert!(v["clause"].as_str().is_some_and(|c| c.starts_with("FIDE 3.8.2")), "{v}");
    assert!(r.stderr.contains("f1"), "the message names the attacked square: {}", r.stderr);
}

#[test]
fn explain_names_the_chase_and_what_was_chased() {
    // Red's chariot chases black's lone cannon up and down the a-file; the last move ends the game.
    let line = ["b6b5", "a5a6", "b5b6", "a6a5", "b6b5", "a5a6", "b5b6", "a6a5"];
    let mut args = vec!["explain", "xiangqi", "--fen", "3k5/9/9/9/1R7/c8/9/9/9/4K4 w - - 0 1"];
    args.extend(line);
    let r = arbiter(&args);
    assert_eq!(
        r.code,
        Some(0),
        "stderr:
{}",
        r.stderr
    );
    assert!(r.stdout.contains("it ends the game: perpetual-chase (CXA 4.1)"), "{}", r.stdout);
    assert!(r.stdout.contains("red chased black's cannon on a5"), "{}", r.stdout);
    assert!(r.stdout.contains("black wins"), "{}", r.stdout);
    args.insert(1, "--json");
    let json = arbiter(&args);
    let v: serde_json::Value = serde_json::from_str(json.stdout.trim()).expect("one JSON object");
    assert_eq!(v["reason"], "perpetual-chase", "{v}");
    assert_eq!(v["end_clause"], "CXA 4.1", "{v}");
    assert!(v["end_message"].as_str().is_some_and(|m| m.contains("cannon on a5")), "{v}");
}

#[test]
fn explain_prints_the_clause_an_illegal_castling_breaks() {
    let r = arbiter(&["explain", "chess", "--fen", CASTLE_THROUGH_CHECK, "e1g1"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    assert!(r.stdout.contains("illegal"), "{}", r.stdout);
    assert!(r.stdout.contains("castling-through-check"), "{}", r.stdout);
    assert!(r.stdout.contains("FIDE 3.8.2.2"), "{}", r.stdout);

    let legal = arbiter(&["explain", "chess", "--fen", CASTLE_THROUGH_CHECK, "e1c1"]);
    assert_eq!(legal.code, Some(0), "stderr:\n{}", legal.stderr);
    assert!(legal.stdout.contains("legal"), "{}", legal.stdout);
    assert!(
        !legal.stdout.contains("illegal"),
        "castling long passes no attacked square: {}",
        legal.stdout
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn a_malformed_fen_is_reported() {
    let r = arbiter(&["perft", "chess", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1", "1"]);
    r.assert_fails_cleanly(1);
    assert!(r.stderr.contains("--fen"), "{}", r.stderr);
    assert!(r.stderr.contains("ranks"), "says which field is wrong: {}", r.stderr);

    let json = arbiter(&["moves", "chess", "--json", "--fen", "this is not a fen"]);
    json.assert_fails_cleanly(1);
    assert_eq!(json.json()["error"], "bad-input", "{}", json.stdout);
}

#[test]
fn a_malformed_param_is_reported() {
    let r = arbiter(&["perft", "chess", "--param", "foo", "1"]);
    r.assert_fails_cleanly(1);
    assert!(r.stderr.contains("`foo`"), "names the argument: {}", r.stderr);
    assert!(r.stderr.contains("NAME=VALUE"), "says what was expected: {}", r.stderr);
}

#[test]
fn an_unknown_param_is_reported() {
    let r = arbiter(&["perft", "chess", "--param", "foo=1", "1"]);
    r.assert_fails_cleanly(1);
    assert!(r.stderr.contains("no parameter `foo`"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
}

/// A parameter given twice is refused (the last value won unsaid); and where a parameter makes
/// the ruleset fail, the command offered to show the errors again gives it too.
#[test]
fn a_param_given_twice_is_refused_and_a_failing_one_is_passed_on() {
    let r = arbiter(&["perft", "go", "--param", "size=9", "--param", "size=11", "1"]);
    r.assert_fails_cleanly(1);
    assert!(
        r.stderr.contains("--param size is given twice (size=9 and size=11)"),
        "{}",
        r.stderr
    );
    let r = arbiter(&["simulate", "chess", "--games", "1", "--seed", "1", "--param", "foo=1"]);
    r.assert_fails_cleanly(1);
    assert!(r.stderr.contains("run `arbiter check chess --param foo=1`"), "{}", r.stderr);
}

#[test]
fn an_unknown_ruleset_is_reported() {
    let r = arbiter(&["perft", "no-such-game", "1"]);
    r.assert_fails_cleanly(1);
    assert!(r.stderr.contains("no-such-game"), "{}", r.stderr);
    assert!(r.stderr.contains("chess"), "lists the bundled rulesets: {}", r.stderr);
}

#[test]
fn an_unreadable_move_is_reported() {
    let r = arbiter(&["play", "chess", "--json", "e2e4", "banana"]);
    r.assert_fails_cleanly(2);
    let v = r.json();
    assert_eq!(v["error"], "illegal-move", "{v}");
    assert_eq!(v["ply"], 2, "{v}");
    assert_eq!(v["move"], "banana", "{v}");
    assert!(v["reason"].is_string(), "{v}");
}

// ---------------------------------------------------------------- files that are not files

/// A sparse file of `size` bytes: large on paper, nothing written.
fn sparse(path: &std::path::Path, size: u64) {
    std::fs::File::create(path)
        .and_then(|f| f.set_len(size))
        .unwrap_or_else(|e| panic!("cannot make {}: {e}", path.display()));
}

#[cfg(unix)]
#[test]
fn a_device_or_a_fifo_as_a_ruleset_is_refused_at_once() {
    let r = arbiter_within(20, &["check", "/dev/zero"]);
    r.assert_exit(1);
    assert!(
        r.stdout.contains("cannot read /dev/zero: it is a device, not a regular file"),
        "{}",
        r.stdout
    );
    let dir = scratch("ruleset-fifo");
    let fifo = dir.join("game.rules");
    mkfifo(&fifo);
    let fifo = fifo.to_str().expect("a UTF-8 temporary path");
    let r = arbiter_within(20, &["perft", fifo, "1"]);
    r.assert_fails_cleanly(1);
    assert!(
        r.stderr
            .contains(&format!("cannot read {fifo}: it is a FIFO (named pipe), not a regular file")),
        "{}",
        r.stderr
    );
}

#[cfg(unix)]
#[test]
fn extending_a_device_a_fifo_or_a_folder_is_a_diagnostic() {
    let dir = scratch("extends-special");
    mkfifo(&dir.join("pipe.rules"));
    std::fs::create_dir(dir.join("folder.rules")).expect("writable");
    for (target, what) in [
        ("/dev/zero", "a device"),
        ("pipe.rules", "a FIFO (named pipe)"),
        ("folder.rules", "a directory"),
    ] {
        let rules = dir.join("variant.rules");
        std::fs::write(&rules, format!("extends \"{target}\"\n")).expect("writable");
        let r = arbiter_within(20, &["check", rules.to_str().expect("a UTF-8 temporary path")]);
        r.assert_exit(1);
        assert!(r.stdout.contains("error[E0002]: cannot read `"), "{target}: {}", r.stdout);
        assert!(
            r.stdout.contains(&format!("{target}`: it is {what}, not a regular file")),
            "{target}: {}",
            r.stdout
        );
    }
}

#[test]
fn a_ruleset_over_the_size_limit_is_refused_with_its_size() {
    let dir = scratch("large-ruleset");
    let big = dir.join("big.rules");
    sparse(&big, 5 << 20);
    let r = arbiter_within(20, &["check", big.to_str().expect("a UTF-8 temporary path")]);
    r.assert_exit(1);
    assert!(
        r.stdout.contains("it is 5 MiB (5242880 bytes), larger than the limit of 4 MiB"),
        "{}",
        r.stdout
    );
    // A base file over the limit, reached through `extends`.
    let variant = dir.join("variant.rules");
    std::fs::write(&variant, "extends \"big.rules\"\n").expect("writable");
    let r = arbiter_within(20, &["check", variant.to_str().expect("a UTF-8 temporary path")]);
    r.assert_exit(1);
    assert!(r.stdout.contains("larger than the limit of 4 MiB"), "{}", r.stdout);
}

#[cfg(unix)]
#[test]
fn a_game_record_that_is_a_device_a_fifo_or_a_folder_is_refused_at_once() {
    let dir = scratch("record-special");
    let fifo = dir.join("game.pgn");
    mkfifo(&fifo);
    let fifo = fifo.to_str().expect("a UTF-8 temporary path").to_string();
    let folder = dir.to_str().expect("a UTF-8 temporary path").to_string();
    for (args, path, what) in [
        (["play", "chess", "--pgn"], "/dev/urandom", "a device"),
        (["play", "chess", "--pgn"], fifo.as_str(), "a FIFO (named pipe)"),
        (["play", "go", "--sgf"], fifo.as_str(), "a FIFO (named pipe)"),
        (["play", "chess", "--pgn"], folder.as_str(), "a directory"),
    ] {
        let mut all: Vec<&str> = args.to_vec();
        all.push(path);
        let r = arbiter_within(20, &all);
        r.assert_fails_cleanly(1);
        assert!(
            r.stderr.contains(&format!("cannot read {path}: it is {what}, not a regular file")),
            "{all:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_game_record_over_the_size_limit_is_refused_with_its_size() {
    let dir = scratch("large-record");
    for (flag, name) in [("--pgn", "game.pgn"), ("--pgn", "game.wxf"), ("--sgf", "game.sgf")] {
        let big = dir.join(name);
        sparse(&big, 17 << 20);
        let ruleset = if flag == "--sgf" { "go" } else { "chess" };
        let r = arbiter_within(20, &["play", ruleset, flag, big.to_str().expect("a UTF-8 temporary path")]);
        r.assert_fails_cleanly(1);
        assert!(
            r.stderr.contains("it is 17 MiB (17825792 bytes), larger than the limit of 16 MiB"),
            "{name}: {}",
            r.stderr
        );
    }
}

/// A reader that stops early (`arbiter moves go | head -1`) closes stdout: the run ends quietly,
/// without a panic, for every command that prints many lines.
#[test]
fn a_closed_stdout_ends_the_run_without_a_panic() {
    use std::process::{Command, Stdio};
    for args in [
        &["moves", "go"][..],
        &["moves", "go", "--json"],
        &["perft", "chess", "3", "--divide"],
        &["check", "chess"],
        // A report with a row per team, and one with mean places.
        &["simulate", "four-player-chess", "--games", "2", "--seed", "1", "--max-plies", "60"],
        &[
            "simulate",
            "tests/language/ludo-places.rules",
            "--games",
            "2",
            "--seed",
            "1",
            "--max-plies",
            "2000",
        ],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(common::root())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbiter runs");
        // Close the reading end before the ruleset is even read: every line goes nowhere.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("arbiter ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}

/// A closed stderr (its reader gone) drops the messages, never the run: the exit code still says
/// what went wrong, where `eprintln!` would have panicked with 101.
#[test]
fn a_closed_stderr_keeps_the_exit_code_without_a_panic() {
    use std::process::{Command, Stdio};
    for (args, code) in [
        (&["moves", "no-such-ruleset"][..], 1),
        (&["perft", "chess", "2", "--fen", "not a fen"], 1),
        (&["play", "chess", "e2e5"], 2),
        (&["fmt", "no-such-file.rules"], 1),
        (&["simulate", "chess", "--games", "2", "--seed", "1"], 0),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(common::root())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("arbiter runs");
        drop(child.stderr.take());
        let status = child.wait().expect("arbiter ends");
        assert_eq!(status.code(), Some(code), "{args:?}: {status:?}");
    }
}

#[test]
fn explain_under_explosions_names_the_capture_then_what_the_blast_removes() {
    // The knight takes the pawn on d6; the queen on d5 stands in the blast, and the knight goes too.
    let r = arbiter(&["explain", "atomic", "--fen", "4k3/8/3p4/3q4/4N3/8/8/4K3 w - - 0 1", "e4d6"]);
    assert_eq!(r.code, Some(0), "stderr:\n{}", r.stderr);
    assert!(
        r.stdout
            .contains("capturing the pawn on d6; the explosion removes the queen on d5 and the knight itself"),
        "{}",
        r.stdout
    );
}

/// `arbiter fmt`: `--check` names an unformatted file and exits 1 without touching it; without
/// it the file is rewritten once and then checks clean; a file that does not parse is refused
/// with the parser's diagnostics, and left as it was.
#[test]
fn fmt_checks_rewrites_and_refuses_what_does_not_parse() {
    let dir = common::scratch("fmt");
    let messy = dir.join("messy.rules");
    let original = std::fs::read_to_string(common::root().join("rulesets/tic-tac-toe.rules")).expect("a bundled ruleset");
    // Deeper indentation, tabs, the citations' padding gone, trailing spaces (its strings hold none).
    let unformatted = original.replace("\n  ", "\n\t    ").replace("    ", " ").replace("\n", "   \n");
    std::fs::write(&messy, &unformatted).expect("writable");
    let path = messy.to_str().expect("a UTF-8 path");

    let check = arbiter(&["fmt", "--check", path]);
    assert_eq!(check.code, Some(1), "{}{}", check.stdout, check.stderr);
    assert!(check.stdout.contains("messy.rules: not formatted (from line"), "{}", check.stdout);
    assert_eq!(
        std::fs::read_to_string(&messy).expect("readable"),
        unformatted,
        "--check changes nothing"
    );

    let fmt = arbiter(&["fmt", path]);
    assert_eq!(fmt.code, Some(0), "{}{}", fmt.stdout, fmt.stderr);
    assert!(fmt.stdout.contains("formatted"), "{}", fmt.stdout);
    assert_eq!(
        std::fs::read_to_string(&messy).expect("readable"),
        original,
        "the bundled layout again"
    );
    assert_eq!(arbiter(&["fmt", "--check", path]).code, Some(0));

    let broken = dir.join("broken.rules");
    std::fs::write(&broken, "piece King \"K\" {\n  step   any\n").expect("writable");
    let refused = arbiter(&["fmt", broken.to_str().expect("a UTF-8 path"), path]);
    assert_eq!(refused.code, Some(1));
    assert!(
        refused.stderr.contains("broken.rules was not formatted: it does not parse"),
        "{}",
        refused.stderr
    );
    assert!(refused.stderr.contains("error["), "the parser's diagnostics: {}", refused.stderr);
    assert_eq!(
        std::fs::read_to_string(&broken).expect("readable"),
        "piece King \"K\" {\n  step   any\n"
    );
    let fifo = dir.join("pipe.rules");
    mkfifo(&fifo);
    let refused = arbiter_within(10, &["fmt", fifo.to_str().expect("a UTF-8 path")]);
    assert_eq!(refused.code, Some(1), "a FIFO is refused at once, not waited on");
    assert!(refused.stderr.contains("cannot read"), "{}", refused.stderr);
    let missing = arbiter(&["fmt", "/nonexistent/x.rules"]);
    assert_eq!(missing.code, Some(1));
    assert!(missing.stderr.contains("cannot read /nonexistent/x.rules"), "{}", missing.stderr);

    // Through a symbolic link the file it names is formatted, and the link stays a link.
    let target = dir.join("target.rules");
    std::fs::write(&target, &unformatted).expect("writable");
    let link = dir.join("link.rules");
    std::os::unix::fs::symlink("target.rules", &link).expect("a link");
    let fmt = arbiter(&["fmt", link.to_str().expect("a UTF-8 path")]);
    assert_eq!(fmt.code, Some(0), "{}{}", fmt.stdout, fmt.stderr);
    assert!(
        std::fs::symlink_metadata(&link).expect("there").file_type().is_symlink(),
        "the link was replaced by a file"
    );
    assert_eq!(
        std::fs::read_to_string(&target).expect("readable"),
        original,
        "the file it names is formatted"
    );

    // A read-only file is refused, and left as it was.
    let locked = dir.join("locked.rules");
    std::fs::write(&locked, &unformatted).expect("writable");
    let mut perms = std::fs::metadata(&locked).expect("there").permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&locked, perms).expect("read-only");
    let refused = arbiter(&["fmt", locked.to_str().expect("a UTF-8 path")]);
    assert_eq!(refused.code, Some(1), "{}{}", refused.stdout, refused.stderr);
    assert!(
        refused.stderr.contains("cannot write") && refused.stderr.contains("locked.rules: the file is read-only"),
        "{}",
        refused.stderr
    );
    assert_eq!(std::fs::read_to_string(&locked).expect("readable"), unformatted);
}

/// `fmt` keeps a file's line endings and byte-order mark: a CRLF file formatted stays CRLF, a
/// formatted one with a BOM is left as it is.
#[test]
fn fmt_keeps_crlf_line_endings_and_a_byte_order_mark() {
    let dir = common::scratch("fmt-layout");
    let original = std::fs::read_to_string(common::root().join("rulesets/tic-tac-toe.rules")).expect("a bundled ruleset");
    let crlf = original.replace('\n', "\r\n");
    let bom = format!("\u{feff}{crlf}");
    let messy = crlf.replace("\r\n  ", "\r\n\t    ");
    for (name, text, want) in [("formatted", &crlf, &crlf), ("bom", &bom, &bom), ("messy", &messy, &crlf)] {
        let f = dir.join(format!("{name}.rules"));
        std::fs::write(&f, text).expect("writable");
        let r = arbiter(&["fmt", f.to_str().expect("a UTF-8 path")]);
        assert_eq!(r.code, Some(0), "{name}: {}{}", r.stdout, r.stderr);
        assert_eq!(&std::fs::read_to_string(&f).expect("readable"), want, "{name}");
    }
}

/// The `status:` line says the status, then who won: `win 0-1` between two, `win for red and
/// yellow` where the result names a team (not `win red and yellow win`).
#[test]
fn the_status_line_names_the_winners_once() {
    let status = |r: &Run| {
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout
            .lines()
            .find_map(|l| l.strip_prefix("status:"))
            .map(str::trim)
            .unwrap_or_default()
            .to_string()
    };
    let r = arbiter(&["play", "chess", "f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(status(&r), "win 0-1 (checkmate, FIDE 5.1.1)");
    let r = arbiter(&[
        "play",
        "four-player-chess",
        "--fen",
        "6yK7/14/14/14/14/bR11gPgB/12gNgK/10rN1gPgQ/14/bK13/14/14/14/4rK9 r - - 0 1",
        "k7l9",
        "a5a4",
        "g14g13",
    ]);
    assert_eq!(status(&r), "win for red and yellow (checkmate, 4PC 7)");
}

/// A long text given where a word was expected (a file's contents pasted as an argument) is
/// refused with a line, not echoed whole: every door quotes it cut short — the argument parser,
/// a ruleset's name, a parameter, a FEN, a move, a player — and still says what is wrong.
#[test]
fn a_long_bad_argument_is_quoted_cut_short() {
    let long = "x".repeat(100_000);
    let param = format!("{long}=1");
    let size = format!("size={long}");
    let cases: [(&[&str], i32, &str); 9] = [
        (&["perft", &long, "1"], 1, "no ruleset `xxx"),
        (&["perft", "chess", "2", "--param", &param], 1, "has no parameter"),
        (&["perft", "go", "1", "--param", &size], 1, "takes a number"),
        (&["moves", "chess", "--fen", &long], 1, "ranks"),
        (&["play", "chess", &long], 2, "is not a move"),
        (&["simulate", "go", "--games", &long, "--seed", "1"], 2, "invalid value"),
        (
            &["simulate", "go", "--games", "2", "--seed", "1", "--players", &long],
            1,
            "unknown player",
        ),
        (
            &["tournament", "go", "--entrants", "2", "--seed", "1", "--players", &long],
            1,
            "unknown player",
        ),
        (&["engine", "--protocol", &long], 2, "possible values"),
    ];
    for (args, code, says) in cases {
        let r = arbiter(args);
        r.assert_fails_cleanly(code);
        assert!(r.stderr.len() < 2_000, "{} bytes on stderr for {:?}", r.stderr.len(), &args[..2]);
        assert!(
            r.stderr.contains("xxxx…") && r.stderr.contains(says),
            "{:?}:\n{}",
            &args[..2],
            r.stderr
        );
    }
    // `explain` rules on a move that is not one: its line quotes it cut short too.
    let r = arbiter(&["explain", "chess", "e2e4", &long]);
    r.assert_exit(0);
    assert!(
        r.stdout.len() < 1_000 && r.stdout.contains("illegal (unreadable-move)"),
        "{}",
        &r.stdout[..200]
    );
}
