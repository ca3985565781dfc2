//! Helpers the integration tests share: where the workspace is, loading a ruleset, and writing
//! readable test positions as FEN. Each test crate includes this file with `mod common;` and uses
//! only some of it.
#![allow(dead_code)]

use std::path::Path;

use arbiter::game::{Engine, Position};
use arbiter::model::Rules;

/// The workspace folder (the one holding `rulesets/`, `scenarios/`, `tests/`).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the interpreter crate sits in the workspace")
}

/// The checked rules of the ruleset at `rel` (relative to the workspace) with `params` set;
/// panics with the checker's messages if it has errors.
pub fn rules(rel: &str, params: &[(&str, &str)]) -> Rules {
    let params: Vec<(String, String)> = params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let c = arbiter::check::check_file(&root().join(rel), &params);
    let errors: Vec<String> = c.diagnostics.items.iter().map(|d| d.message.clone()).collect();
    c.rules.unwrap_or_else(|| panic!("{rel} has errors: {errors:?}"))
}

/// An engine for the ruleset at `rel` with `params` set.
pub fn engine(rel: &str, params: &[(&str, &str)]) -> Engine {
    Engine::new(rules(rel, params))
}

/// An engine for a bundled ruleset (`chess`, `xiangqi`, `go`) with its default parameters.
pub fn bundled(name: &str) -> Engine {
    engine(&format!("rulesets/{name}.rules"), &[])
}

/// One rank of a FEN board field: pieces by letter, runs of empty squares as digits.
pub fn rank_text(cells: impl IntoIterator<Item = Option<char>>) -> String {
    let mut row = String::new();
    let mut empty = 0;
    for c in cells {
        match c {
            None => empty += 1,
            Some(c) => {
                if empty > 0 {
                    row.push_str(&empty.to_string());
                    empty = 0;
                }
                row.push(c);
            }
        }
    }
    if empty > 0 {
        row.push_str(&empty.to_string());
    }
    row
}

/// A xiangqi FEN from pieces on squares: `("R", "a1")` is a red chariot, `("r", "a10")` a black one.
pub fn xiangqi_fen(pieces: &[(&str, &str)], side: &str) -> String {
    let mut board = [[None; 9]; 10];
    for (p, sq) in pieces {
        let file = (sq.as_bytes()[0] - b'a') as usize;
        let rank: usize = sq[1..].parse().expect("rank");
        board[rank - 1][file] = Some(p.chars().next().expect("letter"));
    }
    let rows: Vec<String> = (0..10).rev().map(|r| rank_text(board[r])).collect();
    format!("{} {side} - - 0 1", rows.join("/"))
}

/// The xiangqi position with `pieces` and `side` to move (default parameters).
pub fn xiangqi_pos(pieces: &[(&str, &str)], side: &str) -> Position {
    let f = xiangqi_fen(pieces, side);
    bundled("xiangqi").from_fen(&f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

/// What a run of the `arbiter` binary printed, and its exit code.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the built `arbiter` from the workspace root with `args`; it must not panic, whatever it says.
pub fn arbiter(args: &[&str]) -> Run {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the arbiter binary runs");
    let r = Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(!r.stderr.contains("panicked"), "the binary panicked:\n{}", r.stderr);
    r
}

/// Runs the built `arbiter` as [`arbiter`] does, but gives it `seconds` to finish: a run that
/// takes longer is killed and the test fails, saying so, rather than hanging.
pub fn arbiter_within(seconds: u64, args: &[&str]) -> Run {
    use std::io::Read;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the arbiter binary runs");
    // Read both pipes while waiting, so a chatty run cannot stall on a full pipe.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            let _ = pipe.read_to_end(&mut text);
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`arbiter {}` did not finish within {seconds} s", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let r = Run {
        code: status.code(),
        stdout: stdout.join().expect("the stdout reader ends"),
        stderr: stderr.join().expect("the stderr reader ends"),
    };
    assert!(!r.stderr.contains("panicked"), "the binary panicked:\n{}", r.stderr);
    r
}

/// A fresh, empty folder under the system's temporary folder, named after the test.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the temporary folder is writable");
    dir
}

/// Makes a FIFO (named pipe) at `path` with the system's `mkfifo`.
pub fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo {} failed", path.display());
}

/// One line per scenario report that did not pass.
pub fn problems(reports: &[arbiter::scenario::Report]) -> String {
    use arbiter::scenario::Verdict;
    reports
        .iter()
        .filter(|r| !r.passed())
        .map(|r| match &r.verdict {
            Verdict::Fail(f) => format!("{}: {f}", r.path.display()),
            Verdict::Error(e) => e.to_string(),
            Verdict::Pass { .. } => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}
