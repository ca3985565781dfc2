//! Xiangqi's repetition rulings — perpetual check, perpetual chase, and the repetitions that stay
//! draws — against Fairy-Stockfish, which implements the Asian rules' chases: every case of
//! `tests/chase/fsf.txt` is played in Arbiter and asked of pyffish
//! (`tests/oracles/xiangqi_repetition.py serve`, installed by `scripts/setup`), and the two must
//! rule the same, except where the data file lists a difference, with the reason the seed decides
//! otherwise beside it (and then both must still rule as listed, so a difference that goes away
//! is noticed).
//!
//! The data file: cases separated by blank lines, `#` comments;
//! `case NAME`, `fen FEN`, then `moves M1 M2 ...` (the whole line) or `cycle M1 M2 M3 M4` (played
//! twice, so the position after it occurs for the third time); `differs STATUS REASON` where
//! Arbiter rules STATUS (`win:first`, `win:second`, `draw`, `ongoing`) and pyffish does not.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use arbiter::game::{Game, Status};
use arbiter::model::Side;
use arbiter::notation::uci;

/// One case of the data file.
struct Case {
    name: String,
    line: usize,
    fen: String,
    moves: Vec<String>,
    /// Arbiter's ruling where it differs from pyffish's, with the reason.
    differs: Option<(String, String)>,
}

fn cases() -> Vec<Case> {
    let path = common::root().join("tests/chase/fsf.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out: Vec<Case> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (word, rest) = l.split_once(' ').unwrap_or((l, ""));
        let rest = rest.trim();
        if word == "case" {
            out.push(Case {
                name: rest.to_string(),
                line: i + 1,
                fen: String::new(),
                moves: Vec::new(),
                differs: None,
            });
            continue;
        }
        let c = out
            .last_mut()
            .unwrap_or_else(|| panic!("{}:{}: `{word}` before the first `case`", path.display(), i + 1));
        match word {
            "fen" => c.fen = rest.to_string(),
            "moves" => c.moves = rest.split_whitespace().map(str::to_string).collect(),
            "cycle" => {
                let cycle: Vec<String> = rest.split_whitespace().map(str::to_string).collect();
                c.moves = [cycle.clone(), cycle].concat();
            }
            "differs" => {
                let (status, why) = rest.split_once(' ').unwrap_or((rest, ""));
                assert!(
                    !why.trim().is_empty(),
                    "{}:{}: a difference needs its reason",
                    path.display(),
                    i + 1
                );
                c.differs = Some((status.to_string(), why.trim().to_string()));
            }
            _ => panic!("{}:{}: unknown line `{l}`", path.display(), i + 1),
        }
    }
    for c in &out {
        assert!(
            !c.fen.is_empty() && !c.moves.is_empty(),
            "{}:{}: case `{}` needs a fen and moves",
            path.display(),
            c.line,
            c.name
        );
    }
    out
}

/// The pyffish process.
struct Oracle {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start() -> Oracle {
        let script = common::root().join("tests/oracles/xiangqi_repetition.py");
        let mut child = Command::new("python3")
            .arg(&script)
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start python3 {}: {e} (run scripts/setup)", script.display()));
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Oracle { child, stdin, stdout }
    }

    fn ask(&mut self, fen: &str, moves: &[String]) -> String {
        let stdin = self.stdin.as_mut().expect("open until drop");
        writeln!(stdin, "{fen} ; {}", moves.join(" ")).expect("the oracle reads");
        stdin.flush().expect("the oracle reads");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("the oracle answers");
        match line.trim().strip_prefix("ok ") {
            Some(status) => status.to_string(),
            None => panic!(
                "pyffish did not rule on `{fen} ; {}`: {line:?} (run scripts/setup)",
                moves.join(" ")
            ),
        }
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        self.stdin.take();
        let _ = self.child.wait();
    }
}

/// Arbiter's ruling after the case's moves, with the outcome's sentence.
fn ours(engine: &arbiter::game::Engine, c: &Case) -> (String, String) {
    let start = engine
        .from_fen(&c.fen)
        .unwrap_or_else(|e| panic!("case `{}`: Arbiter cannot read its FEN: {e:?}", c.name));
    let mut game = Game::new(engine.clone(), start);
    for (i, text) in c.moves.iter().enumerate() {
        assert_eq!(
            game.outcome().status,
            Status::Ongoing,
            "case `{}`: the game ended before move {} ({text}): {}",
            c.name,
            i + 1,
            game.outcome().message(game.current())
        );
        let m =
            uci::find(game.current(), text).unwrap_or_else(|| panic!("case `{}`: move {} ({text}) is not legal in Arbiter", c.name, i + 1));
        game.play(m);
    }
    let o = game.outcome();
    let status = match (o.status, o.winner) {
        (Status::Ongoing, _) => "ongoing".to_string(),
        (Status::Win, Some(Side::FIRST)) => "win:first".to_string(),
        (Status::Win, Some(_)) => "win:second".to_string(),
        (Status::Draw, _) => "draw".to_string(),
        (s, _) => s.as_str().to_string(),
    };
    let said = format!("{} — {}", o.reason.clone().unwrap_or_default(), o.message(game.current()));
    (status, said)
}

#[test]
fn xiangqi_repetitions_agree_with_fairy_stockfish() {
    let engine = common::bundled("xiangqi");
    let mut oracle = Oracle::start();
    let cases = cases();
    let mut agree = 0;
    let mut differ = 0;
    let mut won = 0;
    let mut failures = Vec::new();
    for c in &cases {
        let (status, said) = ours(&engine, c);
        let theirs = oracle.ask(&c.fen, &c.moves);
        match &c.differs {
            None if status == theirs => {
                agree += 1;
                won += status.starts_with("win") as usize;
            }
            None => failures.push(format!(
                "case `{}` (line {}): Arbiter rules {status} ({said}), pyffish {theirs}",
                c.name, c.line
            )),
            Some((listed, _)) if *listed == status && theirs != status => differ += 1,
            Some((listed, why)) => failures.push(format!(
                "case `{}` (line {}): listed as a difference (Arbiter {listed}, because {why}), but Arbiter rules {status} ({said}) and pyffish {theirs}",
                c.name, c.line
            )),
        }
    }
    eprintln!(
        "{agree} of {} cases agree with pyffish ({won} of them a win by a repetition rule), {differ} differ as listed",
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(won > 0 && agree > won, "the cases should include both wins and draws");
}
