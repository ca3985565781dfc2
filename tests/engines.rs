//! `arbiter engine` against real clients: python-chess's engine module plays complete chess games
//! against the UCI engine and checks every move it receives with its own rules
//! (`tests/oracles/uci_games.py`); GNU Go and Arbiter's GTP engine play complete 9 × 9 games, each
//! side's moves accepted by the other, and the final position and count compared. Both clients are
//! installed by `scripts/setup`.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

#[test]
fn python_chess_plays_complete_games_against_the_uci_engine() {
    let script = common::root().join("tests/oracles/uci_games.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg("4")
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(["engine", "chess", "--protocol", "uci", "--player", "mcts:30"])
        .output()
        .expect("python3 runs (run scripts/setup)");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    let plies: usize = said.split_whitespace().nth(2).and_then(|p| p.parse().ok()).expect("ok GAMES PLIES");
    assert!(plies > 100, "{said}");
}

/// `go infinite` thinks until `stop`, says what it has done every second, and then answers with
/// the best move it found, not the first it could: here the mate in one.
#[test]
fn go_infinite_reports_as_it_thinks_and_stop_answers_with_the_search_s_move() {
    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci", "--player", "mcts:1000", "--seed", "3"]);
    // Scholar's mate: Qxf7 mates; the queen's move comes late in generation order.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    e.send(format!("uci\nposition fen {fen}\ngo infinite\n").as_bytes());
    let began = std::time::Instant::now();
    let mut infos = Vec::new();
    while began.elapsed() < std::time::Duration::from_millis(2600) {
        if let Some(line) = e.line_within(std::time::Duration::from_millis(50)) {
            assert!(!line.starts_with("bestmove"), "answered before stop: {line}");
            if line.starts_with("info depth") {
                infos.push(line);
            }
        }
    }
    assert!(infos.len() >= 2, "an info line a second while thinking: {infos:?}");
    let nodes = |l: &str| -> u64 {
        let w: Vec<&str> = l.split_whitespace().collect();
        w.iter()
            .position(|x| *x == "nodes")
            .and_then(|i| w.get(i + 1))
            .and_then(|n| n.parse().ok())
            .expect("nodes N")
    };
    assert!(nodes(&infos[1]) > nodes(&infos[0]), "the work grows: {infos:?}");
    assert!(infos.iter().all(|l| l.contains(" pv ")), "{infos:?}");
    e.send(b"stop\n");
    let said = e.until(10, |l| l.starts_with("bestmove "));
    let best = said.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("");
    assert_eq!(best, "h5f7");
}

/// A GTP program on pipes.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(program: &str, args: &[&str]) -> Gtp {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e} (run scripts/setup)"));
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Gtp { child, stdin, stdout }
    }

    /// The answer to `command`: `Ok` for `=`, `Err` for `?`, without the sign.
    fn ask(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").expect("the program reads");
        self.stdin.flush().expect("the program reads");
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("the program answers");
            assert!(n > 0, "the program ended while answering `{command}`");
            let line = line.trim_end().to_string();
            if line.is_empty() && !lines.is_empty() {
                break;
            }
            if !line.is_empty() {
                lines.push(line);
            }
        }
        let text = lines.join("\n");
        match text.chars().next() {
            Some('=') => Ok(text[1..].trim().to_string()),
            Some('?') => Err(text[1..].trim().to_string()),
            _ => panic!("not a GTP answer to `{command}`: {text}"),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn gnu_go_and_the_gtp_engine_play_complete_games_and_agree_on_the_board() {
    let gnugo = gnu_go();
    for (game, arbiter_is) in [(0, "black"), (1, "white")] {
        let mut arbiter = Gtp::start(
            env!("CARGO_BIN_EXE_arbiter"),
            &["engine", "go", "--protocol", "gtp", "--seed", &game.to_string()],
        );
        let mut gnu = Gtp::start(gnugo, &["--mode", "gtp", "--level", "1", "--chinese-rules"]);
        for p in [&mut arbiter, &mut gnu] {
            assert_eq!(p.ask("boardsize 9"), Ok(String::new()));
            assert_eq!(p.ask("clear_board"), Ok(String::new()));
            assert_eq!(p.ask("komi 7"), Ok(String::new()));
        }
        let mut passes = 0;
        let mut moves = 0;
        let mut colour = "black";
        while passes < 2 && moves < 300 {
            let (mover, other) = if colour == arbiter_is {
                (&mut arbiter, &mut gnu)
            } else {
                (&mut gnu, &mut arbiter)
            };
            let m = mover.ask(&format!("genmove {colour}")).expect("a move");
            if m.eq_ignore_ascii_case("resign") {
                break;
            }
            assert_eq!(
                other.ask(&format!("play {colour} {m}")),
                Ok(String::new()),
                "game {game}: {colour} {m} refused"
            );
            passes = if m.eq_ignore_ascii_case("pass") { passes + 1 } else { 0 };
            moves += 1;
            colour = if colour == "black" { "white" } else { "black" };
        }
        assert!(moves > 20, "game {game}: {moves} moves");
        same_board(&mut gnu, &mut arbiter, 9, &format!("game {game}"));
        // With the stones GNU Go finds dead marked dead, Arbiter's area count is GNU Go's
        // (both count by area with komi 7).
        let theirs = gnu.ask("showboard").expect("a board");
        let dead = gnu.ask("final_status_list dead").expect("a list");
        let points: Vec<&str> = dead.split_whitespace().collect();
        assert_eq!(arbiter.ask(&format!("arbiter-dead {}", points.join(" "))), Ok(String::new()));
        assert_eq!(
            arbiter.ask("final_score"),
            gnu.ask("final_score"),
            "game {game}, dead: {dead}\n{theirs}"
        );
        // The living stones: GNU Go's alive and seki lists together (Arbiter tells no seki apart).
        let stones = |s: &str| {
            let mut v: Vec<String> = s.split_whitespace().map(str::to_ascii_uppercase).collect();
            v.sort();
            v
        };
        let living = format!(
            "{} {}",
            gnu.ask("final_status_list alive").expect("a list"),
            gnu.ask("final_status_list seki").expect("a list")
        );
        let ours = arbiter.ask("final_status_list alive").expect("a list");
        assert!(!ours.is_empty(), "game {game}: some stone lives\n{theirs}");
        assert_eq!(stones(&ours), stones(&living), "game {game}: the living stones\n{theirs}");
        assert_eq!(
            stones(&arbiter.ask("final_status_list dead").expect("a list")),
            stones(&dead),
            "game {game}"
        );
        assert_eq!(
            arbiter.ask("final_status_list living"),
            Err("syntax error: final_status_list alive|seki|dead".into())
        );
    }
}

fn gnu_go() -> &'static str {
    ["/usr/games/gnugo", "/usr/bin/gnugo"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("GNU Go is installed (run scripts/setup)")
}

/// Both programs see the same stones on the same points of a `size` board.
fn same_board(gnu: &mut Gtp, arbiter: &mut Gtp, size: usize, context: &str) {
    let theirs = gnu.ask("showboard").expect("a board");
    let ours = arbiter.ask("arbiter-fen").expect("a FEN");
    let rows: Vec<String> = ours.split_whitespace().next().expect("a board").split('/').map(expand).collect();
    assert_eq!(rows.len(), size, "{context}: {ours}");
    for (r, row) in rows.iter().enumerate() {
        let label = format!("{}", size - r);
        let line = theirs
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{label} ")))
            .unwrap_or_else(|| panic!("{context}: row {label} in GNU Go's board:\n{theirs}"));
        let cells: String = line
            .split_whitespace()
            .skip(1)
            .take(size)
            .map(|c| match c {
                "X" => 'X',
                "O" => 'O',
                _ => '.',
            })
            .collect();
        assert_eq!(&cells, row, "{context}, row {label}:\n{theirs}\n{ours}");
    }
}

/// `loadsgf` (a whole record, and its first N moves) and `undo`, as a GTP controller such as
/// GoGui or Sabaki sends them: after each, Arbiter's board is GNU Go's, and both accept the same
/// next moves.
#[test]
fn loadsgf_and_undo_leave_the_same_board_as_gnu_go() {
    let record = common::root().join("tests/go/variations-9x9.sgf");
    let record = record.to_str().expect("a UTF-8 path");
    let mut arbiter = Gtp::start(env!("CARGO_BIN_EXE_arbiter"), &["engine", "go", "--protocol", "gtp"]);
    let mut gnu = Gtp::start(gnu_go(), &["--mode", "gtp", "--level", "1", "--chinese-rules"]);
    // The whole main line, then only its first 6 moves (GTP counts the move to stop before).
    for (command, what) in [
        (format!("loadsgf {record}"), "the whole record"),
        (format!("loadsgf {record} 7"), "6 moves"),
    ] {
        let to_move = gnu.ask(&command).expect("GNU Go loads the record");
        assert_eq!(arbiter.ask(&command), Ok(to_move.clone()), "{what}: the colour to move");
        same_board(&mut gnu, &mut arbiter, 9, what);
    }
    // Three moves GNU Go chooses, told to Arbiter, then taken back one at a time.
    for colour in ["black", "white", "black"] {
        let m = gnu.ask(&format!("genmove {colour}")).expect("a move");
        assert_eq!(arbiter.ask(&format!("play {colour} {m}")), Ok(String::new()), "{colour} {m}");
    }
    for n in 1..=3 {
        assert_eq!(arbiter.ask("undo"), gnu.ask("undo").map(|_| String::new()), "undo {n}");
        same_board(&mut gnu, &mut arbiter, 9, &format!("after undo {n}"));
    }
    // Stones of one colour twice in a row, as a controller places setup stones: the other side
    // passes in between, and `undo` takes back each stone with its pass.
    for vertex in ["B2", "H8"] {
        assert_eq!(gnu.ask(&format!("play white {vertex}")), Ok(String::new()));
        assert_eq!(arbiter.ask(&format!("play white {vertex}")), Ok(String::new()), "white {vertex}");
    }
    same_board(&mut gnu, &mut arbiter, 9, "after two white stones");
    assert_eq!(arbiter.ask("undo"), gnu.ask("undo").map(|_| String::new()), "undo H8");
    same_board(&mut gnu, &mut arbiter, 9, "after undoing H8");
    // Arbiter moves for a side out of turn too, and GNU Go accepts its move.
    let m = arbiter.ask("genmove white").expect("a move");
    assert_eq!(gnu.ask(&format!("play white {m}")), Ok(String::new()), "white {m}");
    same_board(&mut gnu, &mut arbiter, 9, "after Arbiter's move");
    // A refused move changes nothing, and says why in GTP's words.
    let refusal = arbiter.ask("play black B2").expect_err("B2 is taken");
    assert!(refusal.starts_with("illegal move"), "{refusal}");
    same_board(&mut gnu, &mut arbiter, 9, "after a refused move");
}

/// Arbiter's UCCI engine plays complete xiangqi games against Fairy-Stockfish's (Debian's
/// `fairy-stockfish`, in UCCI mode), refereed by `tests/oracles/ucci_match.py`: every move either
/// sends is checked with pyffish before the other is told it, in UCCI's square names, and
/// Arbiter's board after each game is pyffish's.
#[test]
fn fairy_stockfish_and_the_ucci_engine_play_complete_xiangqi_games() {
    let fsf = ["/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("Fairy-Stockfish is installed (run scripts/setup)");
    let out = Command::new("python3")
        .arg(common::root().join("tests/oracles/ucci_match.py"))
        .args(["4", fsf, "--"])
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(["engine", "xiangqi", "--protocol", "ucci", "--player", "mcts:30", "--seed", "5"])
        .output()
        .expect("python3 runs (run scripts/setup)");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    let plies: usize = said.split_whitespace().nth(2).and_then(|p| p.parse().ok()).expect("ok GAMES PLIES");
    assert!(plies > 60, "{said}");
}

/// A FEN row of go.rules (`X` black, `x` white, digits for runs of empty points) as GNU Go draws
/// it (`X`, `O`, `.`).
fn expand(row: &str) -> String {
    let mut s = String::new();
    let mut run = 0;
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            // A run of empty points may take two digits (`19`).
            run = run * 10 + d as usize;
            continue;
        }
        s.push_str(&".".repeat(run));
        run = 0;
        s.push(match c {
            'X' => 'X',
            'x' => 'O',
            _ => '?',
        });
    }
    s.push_str(&".".repeat(run));
    s
}

/// GTP's handicap commands as GNU Go answers them: `fixed_handicap N` puts the same stones on the
/// same points (19 × 19 and 9 × 9), refuses a board with stones and a number out of range;
/// `set_free_handicap` takes the controller's points, white to move; both games then count
/// white's compensation as the ruleset gives it (`final_score` as `play` says).
#[test]
fn handicap_commands_answer_as_gnu_go_does() {
    let arbiter = env!("CARGO_BIN_EXE_arbiter");
    for (size, n) in [(19, 9), (19, 2), (13, 5), (9, 4)] {
        let mut gnu = Gtp::start(gnu_go(), &["--mode", "gtp", "--chinese-rules"]);
        let mut ours = Gtp::start(arbiter, &["engine", "go", "--protocol", "gtp"]);
        for g in [&mut gnu, &mut ours] {
            g.ask(&format!("boardsize {size}")).expect("a size");
            g.ask("clear_board").expect("cleared");
        }
        let theirs = gnu.ask(&format!("fixed_handicap {n}")).expect("GNU Go places them");
        let mine = ours.ask(&format!("fixed_handicap {n}")).expect("Arbiter places them");
        let sorted = |s: &str| {
            let mut v: Vec<String> = s.split_whitespace().map(str::to_ascii_uppercase).collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&mine), sorted(&theirs), "{size} x {size}, {n} stones");
        same_board(&mut gnu, &mut ours, size, &format!("fixed_handicap {n}"));
        // A second handicap on a board with stones is refused by both.
        assert_eq!(ours.ask(&format!("fixed_handicap {n}")), Err("board not empty".into()));
        assert!(gnu.ask(&format!("fixed_handicap {n}")).is_err());
    }
    let mut ours = Gtp::start(arbiter, &["engine", "go", "--protocol", "gtp"]);
    ours.ask("boardsize 9").expect("a size");
    for bad in ["fixed_handicap 1", "fixed_handicap 10", "fixed_handicap x"] {
        assert!(ours.ask(bad).is_err(), "{bad} is refused");
    }
    for bad in [
        "set_free_handicap A1",
        "set_free_handicap A1 A1",
        "set_free_handicap A1 Z9",
        "set_free_handicap A1 pass",
    ] {
        assert_eq!(ours.ask(bad), Err("bad vertex list".into()), "{bad}");
    }
    assert_eq!(
        ours.ask("arbiter-fen").expect("a FEN"),
        "9/9/9/9/9/9/9/9/9 b - - 0 1",
        "the refusals changed nothing"
    );
    ours.ask("set_free_handicap C3 G7 E5").expect("three stones");
    let fen = ours.ask("arbiter-fen").expect("a FEN");
    assert_eq!(fen, "9/9/6X2/9/4X4/9/2X6/9/9 w - - 0 1");
    // Black's three stones own the board: white receives the handicap (3) instead of the komi.
    ours.ask("play w pass").expect("white passes");
    ours.ask("play b pass").expect("black passes");
    assert_eq!(ours.ask("final_score"), Ok("B+78.0".into()));
}

/// GTP's colours are black and white (`b`, `w`, any case): another word is an error, and plays
/// nothing.
#[test]
fn a_colour_gtp_does_not_know_is_refused() {
    let mut ours = Gtp::start(
        env!("CARGO_BIN_EXE_arbiter"),
        &["engine", "go", "--protocol", "gtp", "--param", "size=9"],
    );
    for bad in ["play x A1", "play purple A1", "genmove purple", "genmove x"] {
        assert_eq!(ours.ask(bad), Err("invalid color".into()), "{bad}");
    }
    assert_eq!(
        ours.ask("arbiter-fen").expect("a FEN"),
        "9/9/9/9/9/9/9/9/9 b - - 0 1",
        "nothing was played"
    );
    ours.ask("play W a1")
        .expect("white, named in capitals, plays after black's implied pass");
}

/// `final_score` is go's count by area: asked in a game that has none — chess, or four-player
/// chess (whose four sides it panicked on) — it is refused, and the session goes on.
#[test]
fn final_score_is_refused_where_the_game_does_not_count_by_area() {
    for (game, name) in [
        ("chess", "Chess"),
        ("four-player-chess", "Four-player chess"),
        ("othello", "Othello"),
    ] {
        let mut ours = Gtp::start(env!("CARGO_BIN_EXE_arbiter"), &["engine", game, "--protocol", "gtp"]);
        assert_eq!(ours.ask("final_score"), Err(format!("{name} does not count by area")), "{game}");
        assert_eq!(ours.ask("protocol_version"), Ok("2".into()), "{game}: the session goes on");
    }
}

/// A UCI line of 3 MiB without an end in sight is skipped and said so (the engine holds at most
/// 1 MiB of it), a line that is not UTF-8 is an unknown command, and the session goes on.
#[test]
fn uci_skips_an_endless_line_and_bytes_that_are_not_text() {
    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci"]);
    e.send(&vec![b'a'; 3 << 20]);
    e.send(b"\n\xff\xfe go\nisready\n");
    let said = e.until(20, |l| l == "readyok");
    assert!(said.iter().any(|l| l.contains("longer than 1048576 bytes was skipped")), "{said:?}");
    assert!(said.iter().any(|l| l.contains("not UTF-8")), "{said:?}");
    e.send(b"position startpos moves e2e4\nd\n");
    e.until(10, |l| l.contains("4P3"));
}

/// A long word where the protocol expects a short one (a move, a FEN, a variant's name, a
/// command) is quoted cut short in the answer, in UCI, UCCI and GTP alike; the session goes on.
#[test]
fn a_long_word_is_quoted_cut_short_in_every_protocol() {
    let long = "x".repeat(100_000);
    for (protocol, ruleset) in [("uci", "chess"), ("ucci", "xiangqi")] {
        let mut e = common::Piped::start(&["engine", ruleset, "--protocol", protocol]);
        let lines = [
            long.clone(),
            format!("position fen {long}"),
            format!("position startpos moves {long}"),
            format!("setoption name UCI_Variant value {long}"),
            format!("setoption name {long} value 1"),
            "isready".to_string(),
        ];
        e.send(format!("{}\n", lines.join("\n")).as_bytes());
        let said = e.until(20, |l| l == "readyok");
        let infos: Vec<&String> = said.iter().filter(|l| l.starts_with("info string")).collect();
        assert!(infos.len() >= 4, "{protocol}: {said:?}");
        for l in &infos {
            assert!(l.len() < 600, "{protocol}: a line of {} bytes: {}", l.len(), &l[..200]);
        }
        assert!(
            infos.iter().any(|l| l.contains("unknown command `xxxx") && l.contains("…`")),
            "{protocol}: {infos:?}"
        );
    }
    let mut ours = Gtp::start(env!("CARGO_BIN_EXE_arbiter"), &["engine", "go", "--protocol", "gtp"]);
    for (command, says) in [(long.clone(), "unknown command"), (format!("play black {long}"), "illegal move")] {
        let answer = ours.ask(&command).expect_err("refused");
        assert!(
            answer.len() < 600 && answer.contains(says) && answer.contains("xxxx…"),
            "{}",
            &answer[..200]
        );
    }
    assert_eq!(
        ours.ask("arbiter-fen").expect("a FEN").split(' ').next(),
        Some("19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19")
    );
}

/// `isready` and `stop` are answered at once while a search runs, even with another command
/// queued behind the search; the queued command is then taken, in order.
#[test]
fn isready_and_stop_are_answered_with_commands_queued_behind_a_search() {
    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci", "--player", "mcts:1000000"]);
    e.send(b"uci\n");
    e.until(10, |l| l == "uciok");
    e.send(b"position startpos\ngo infinite\nposition startpos moves e2e4\nisready\n");
    let said = e.until(5, |l| l == "readyok");
    assert!(
        !said.iter().any(|l| l.starts_with("bestmove")),
        "the search was still running: {said:?}"
    );
    e.send(b"stop\n");
    e.until(5, |l| l.starts_with("bestmove"));
    e.send(b"d\n");
    e.until(5, |l| l.contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
}

/// An engine whose output is closed stops at its next answer instead of reading forever, with
/// its input still open.
#[test]
fn an_engine_whose_output_is_closed_exits() {
    for protocol in ["uci", "gtp"] {
        let ruleset = if protocol == "uci" { "chess" } else { "go" };
        let mut child = Command::new(env!("CARGO_BIN_EXE_arbiter"))
            .args(["engine", ruleset, "--protocol", protocol])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("arbiter starts");
        drop(child.stdout.take());
        let mut stdin = child.stdin.take().expect("piped");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let _ = stdin.write_all(if protocol == "uci" { b"isready\n" } else { b"name\n" });
            let _ = stdin.flush();
            if let Some(status) = child.try_wait().expect("waits") {
                assert!(status.code().is_some(), "{protocol}: ended by a signal: {status}");
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{protocol}: still running with its output closed"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

/// GTP answers an endless line and a line that is not UTF-8 with errors, and goes on.
#[test]
fn gtp_answers_an_endless_line_and_bytes_that_are_not_text() {
    let mut e = common::Piped::start(&["engine", "go", "--protocol", "gtp", "--param", "size=9"]);
    e.send(&vec![b'x'; 3 << 20]);
    e.send(b"\n\xff play b A1\n1 name\n");
    let said = e.until(20, |l| l.starts_with("=1"));
    assert!(said.iter().any(|l| l.starts_with("? line too long")), "{said:?}");
    assert!(said.iter().any(|l| l == "? unknown command"), "{said:?}");
    assert_eq!(said.last().map(String::as_str), Some("=1 Arbiter"));
}

/// `setoption` with its words in any order or case is read or refused, never a crash: `value`
/// before `name`, and option names in lower case (UCI's names are not case-sensitive).
#[test]
fn uci_setoption_in_any_order_or_case_is_read_or_refused() {
    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci"]);
    e.send(b"setoption value 1 name X\nsetoption\nsetoption name uci_variant value crazyhouse\nd\nisready\n");
    let said = e.until(10, |l| l == "readyok");
    assert!(said.iter().any(|l| l == "info string unknown option `X`"), "{said:?}");
    assert!(said.iter().any(|l| l.contains("expected `setoption name NAME")), "{said:?}");
    assert!(
        said.iter().any(|l| l.contains("RNBQKBNR[] w")),
        "crazyhouse was not chosen: {said:?}"
    );
}

/// A parameter given at start-up belongs to its ruleset: switching to another variant keeps only
/// the parameters that one declares, and switching back restores it.
#[test]
fn uci_variants_keep_only_the_start_up_parameters_they_declare() {
    let mut e = common::Piped::start(&["engine", "go", "--protocol", "uci", "--param", "size=9"]);
    e.send(b"setoption name UCI_Variant value chess\nd\nsetoption name UCI_Variant value go\nd\n");
    e.until(10, |l| l == "info string rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    e.until(10, |l| l == "info string 9/9/9/9/9/9/9/9/9 b - - 0 1");
}

/// `go infinite` gives its move only when stopped, as UCI asks, even where the player has chosen
/// at once (the random player); the end of input stops every search, one waiting behind another
/// included, and the engine exits.
#[test]
fn go_infinite_waits_for_stop_and_the_end_of_input_ends_every_search() {
    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci"]);
    e.send(b"go infinite\n");
    assert_eq!(
        e.line_within(std::time::Duration::from_millis(1500)).as_deref(),
        Some("info string random thinks")
    );
    assert_eq!(
        e.line_within(std::time::Duration::from_millis(1500)),
        None,
        "an infinite search answered unasked"
    );
    e.send(b"stop\n");
    e.until(5, |l| l.starts_with("bestmove"));

    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci", "--player", "mcts:100"]);
    e.send(b"go depth 1\ngo infinite\n");
    e.close();
    e.until(20, |l| l.starts_with("bestmove"));
    e.until(20, |l| l.starts_with("bestmove"));
    let status = e.exits_within(20).expect("the engine exits once its input ends");
    assert!(status.success(), "{status}");
}

/// A `stop` sent after a `go` that waits behind the search under way stops that one too: nothing
/// is left thinking forever.
#[test]
fn a_stop_after_a_waiting_go_stops_that_search_too() {
    let mut e = common::Piped::start(&["engine", "chess", "--protocol", "uci", "--player", "mcts:100"]);
    e.send(b"go movetime 2000\nposition startpos moves e2e4\ngo infinite\nstop\n");
    e.until(10, |l| l.starts_with("bestmove"));
    let second = e.until(10, |l| l.starts_with("bestmove"));
    // Black's reply to 1. e4: the second search ran on the position sent before it.
    let mv = second.last().expect("a line").trim_start_matches("bestmove ");
    assert!(mv.chars().nth(1).is_some_and(|r| r == '7' || r == '8'), "{second:?}");
    e.send(b"isready\n");
    e.until(5, |l| l == "readyok");
}

/// GTP: `komi` changes the komi and nothing else (handicap stones and moves stay, and `undo`
/// still takes back a pass played for a move out of turn); `clear_board` and `boardsize` clear
/// the stones of a handicap command; a game that is over gets `pass` from `genmove`, never a
/// resignation; a record that cannot be loaded leaves the game as it was.
#[test]
fn gtp_commands_change_what_they_name_and_nothing_else() {
    let mut e = common::Piped::start(&["engine", "go", "--protocol", "gtp", "--param", "size=9"]);
    let mut ask = |command: &str| -> String {
        e.send(format!("{command}\n").as_bytes());
        let said = e.until(10, |l| l.starts_with('=') || l.starts_with('?'));
        said.last().expect("an answer").clone()
    };
    assert_eq!(ask("set_free_handicap A1 B1"), "=");
    assert_eq!(ask("play w C3"), "=");
    assert_eq!(ask("komi 0.5"), "=");
    assert_eq!(ask("arbiter-fen"), "= 9/9/9/9/9/9/2x6/9/XX7 b - - 1 2");
    assert_eq!(ask("clear_board"), "=");
    assert_eq!(ask("arbiter-fen"), "= 9/9/9/9/9/9/9/9/9 b - - 0 1");
    assert_eq!(ask("fixed_handicap 2"), "= C3 G7");
    assert_eq!(ask("boardsize 9"), "=");
    assert_eq!(ask("arbiter-fen"), "= 9/9/9/9/9/9/9/9/9 b - - 0 1");
    // White plays out of turn: black passes first; komi kept the pass, and undo takes both back.
    assert_eq!(ask("play b D4"), "=");
    assert_eq!(ask("play b E5"), "=");
    assert_eq!(ask("komi 6.5"), "=");
    assert_eq!(ask("undo"), "=");
    assert_eq!(ask("arbiter-fen"), "= 9/9/9/9/9/3X5/9/9/9 w - - 1 1");
    assert_eq!(ask("komi NaN"), "? komi not a float");
    assert!(ask("komi 2000").starts_with("? go: --param komi=2000: `komi` must be in"));
    // A record that cannot be loaded: nothing changes.
    let dir = common::scratch("gtp-loadsgf");
    let bad = dir.join("occupied.sgf");
    std::fs::write(&bad, "(;GM[1]SZ[13];B[dd];W[dd])").expect("written");
    assert!(ask(&format!("loadsgf {}", bad.display())).starts_with("? cannot load file: move 2"));
    assert_eq!(ask("arbiter-fen"), "= 9/9/9/9/9/3X5/9/9/9 w - - 1 1");
    assert!(ask(&format!("loadsgf {} -5", bad.display())).starts_with("? syntax error"));
    // Over after two passes: `genmove` passes for either colour, and the board stays.
    assert_eq!(ask("play w pass"), "=");
    assert_eq!(ask("play b pass"), "=");
    assert_eq!(ask("genmove w"), "= pass");
    assert_eq!(ask("genmove b"), "= pass");
    assert!(ask("play b A1").starts_with("? illegal move: the game is over"));
    assert!(ask("arbiter-fen").starts_with("= 9/9/9/9/9/3X5/9/9/9 w - -"));
    // An id alone is answered; control characters are dropped, ids echoed as written.
    assert_eq!(ask("14"), "?14 syntax error: an id with no command");
    assert_eq!(ask("007 na\u{1}me"), "=007 Arbiter");
}

/// UCCI counts ranks from 0: a refusal names the squares as UCCI writes them (`h3e3` names the
/// empty h3 of UCCI, the interpreter's h4).
#[test]
fn ucci_refusals_name_squares_as_ucci_does() {
    let mut e = common::Piped::start(&["engine", "xiangqi", "--protocol", "ucci"]);
    e.send(b"position startpos moves h3e3\n");
    let said = e.until(10, |l| l.starts_with("info string move 1"));
    assert!(said.last().is_some_and(|l| l.contains("no piece on h3")), "{said:?}");
    // What is no move at all is quoted back as written, its would-be squares untouched.
    e.send(b"position startpos moves a9\n");
    let said = e.until(10, |l| l.starts_with("info string move 1"));
    let last = said.last().map_or("", String::as_str);
    assert!(last.contains("`a9` is not") && !last.contains("`a8`"), "{said:?}");
}
