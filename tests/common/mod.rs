//! Helpers the integration tests share: where the workspace is, loading a ruleset, and writing
//! readable test positions as FEN. The test binaries include it with `mod common;` (the modules of
//! `suite.rs` reach it as `crate::common`), and each uses only some of it.
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
    let r = run_arbiter(args, b"", None, std::time::Duration::from_secs(seconds)).unwrap_or_else(|e| panic!("{e}"));
    assert!(!r.stderr.contains("panicked"), "the binary panicked:\n{}", r.stderr);
    r
}

/// Runs the built `arbiter` from the workspace root with `args`, `input` on its stdin and its
/// stdout to `stdout` (piped when `None`), both output pipes read while it runs (a chatty run
/// cannot stall on a full pipe). Killed past `within`: then, or if a signal ended it, the error
/// says which run and how.
pub fn run_arbiter(args: &[&str], input: &[u8], stdout: Option<std::fs::File>, within: std::time::Duration) -> Result<Run, String> {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    use std::time::Instant;

    let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(stdout.map_or_else(Stdio::piped, Stdio::from))
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start arbiter: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_vec();
    // An engine may stop reading before the end: what it leaves unread is not an error.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut text);
            }
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let out = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let deadline = Instant::now() + within;
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| e.to_string())? {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("`arbiter {}` did not finish within {within:?}", args.join(" ")));
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let _ = writer.join();
    let r = Run {
        code: status.code(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    if status.code().is_none() {
        return Err(format!("`arbiter {}` ended by {status}: {}", args.join(" "), r.stderr));
    }
    Ok(r)
}

/// An `arbiter` on pipes (an engine, say) whose output lines arrive on a channel, so a test can
/// wait for one with a deadline instead of hanging. Killed when dropped.
pub struct Piped {
    pub child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
}

impl Piped {
    pub fn start(args: &[&str]) -> Piped {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(args)
            .current_dir(root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("arbiter starts");
        let stdin = child.stdin.take();
        let stdout = std::io::BufReader::new(child.stdout.take().expect("piped"));
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Piped { child, stdin, lines }
    }

    pub fn send(&mut self, bytes: &[u8]) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("open");
        stdin.write_all(bytes).expect("the engine reads");
        stdin.flush().expect("the engine reads");
    }

    /// Closes the engine's input (the end of input, as when a GUI goes away).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// The exit status, if the process ends within `seconds`.
    pub fn exits_within(&mut self, seconds: u64) -> Option<std::process::ExitStatus> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        while std::time::Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("waits") {
                return Some(status);
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        None
    }

    /// The next line within `wait`, if one comes.
    pub fn line_within(&self, wait: std::time::Duration) -> Option<String> {
        self.lines.recv_timeout(wait).ok()
    }

    /// The lines up to and including the first that `done` accepts, within `seconds`.
    pub fn until(&self, seconds: u64, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let stop = done(&line);
                    seen.push(line);
                    if stop {
                        return seen;
                    }
                }
                Err(_) => panic!("no such line within {seconds} s; the engine said {seen:?}"),
            }
        }
    }
}

impl Drop for Piped {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
