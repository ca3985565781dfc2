//! The games beyond chess, xiangqi and go against independent engines: seeded random games are
//! played in Arbiter (a bundled ruleset, or one of tests/language's rulesets that prove a construct
//! of the language), and at every ply the oracle process (`tests/oracles/oracle.py serve GAME`,
//! wrapping open_spiel, pydraughts and Fairy-Stockfish, installed by `scripts/setup`) is asked for
//! the legal moves and the status; both must agree exactly. The oracle speaks Arbiter's notation
//! (see tests/oracles/README.md for its mappings and their proofs).

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use arbiter::game::{Game, Status};
use arbiter::model::Side;
use arbiter::notation::uci;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// A running oracle process.
struct Oracle {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl Oracle {
    fn start(game: &str) -> Oracle {
        let script = common::root().join("tests/oracles/oracle.py");
        let mut child = Command::new("python3")
            .arg(&script)
            .args(["serve", game])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start python3 {}: {e} (run scripts/setup)", script.display()));
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        Oracle { child, stdin, stdout }
    }

    /// The oracle's status and sorted legal moves after `moves` from the start.
    fn ask(&mut self, moves: &[String]) -> (String, Vec<String>) {
        let stdin = self.stdin.as_mut().expect("open until drop");
        writeln!(stdin, "moves {}", moves.join(" ")).expect("the oracle reads");
        stdin.flush().expect("the oracle reads");
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("the oracle answers");
        let mut words = line.split_whitespace();
        match words.next() {
            Some("ok") => {
                let status = words.next().expect("a status").to_string();
                (status, words.map(str::to_string).collect())
            }
            _ => panic!(
                "the oracle did not answer `ok` after {:?}: {line:?} (is it installed? run scripts/setup; `python3 tests/oracles/oracle.py available` says)",
                moves
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

fn status(game: &Game) -> String {
    let o = game.outcome();
    match (o.status, o.winner) {
        (Status::Ongoing, _) => "ongoing".into(),
        (Status::Win, Some(Side::FIRST)) => "win:first".into(),
        (Status::Win, Some(_)) => "win:second".into(),
        (Status::Draw, _) => "draw".into(),
        (s, _) => s.as_str().into(),
    }
}

/// Plays `games` seeded random games of at most `plies` plies and compares every position.
fn agree(name: &str, games: usize, plies: usize) {
    compare(name, &common::bundled(name), games, plies, false);
}

/// [`agree`] for the ruleset at `rel` (relative to the workspace) against the oracle's `name`.
fn agree_with(name: &str, rel: &str, games: usize, plies: usize) {
    compare(name, &common::engine(rel, &[]), games, plies, false);
}

/// [`agree`], each game ending where the oracle rules a draw that Arbiter's rules do not have.
fn agree_until_draw(name: &str, games: usize, plies: usize) {
    compare(name, &common::bundled(name), games, plies, true);
}

fn compare(name: &str, engine: &arbiter::game::Engine, games: usize, plies: usize, stop_at_their_draw: bool) {
    let mut oracle = Oracle::start(name);
    let mut rng = ChaCha8Rng::seed_from_u64(0x0_AC1E);
    let mut positions = 0;
    for g in 0..games {
        let mut game = Game::new(engine.clone(), engine.start());
        let mut line: Vec<String> = Vec::new();
        loop {
            let pos = game.current();
            let ours_status = status(&game);
            let mut ours: Vec<String> = if ours_status == "ongoing" {
                pos.legal_moves().into_iter().map(|m| uci::to_text(pos, m)).collect()
            } else {
                Vec::new()
            };
            ours.sort();
            let (theirs_status, theirs) = oracle.ask(&line);
            if stop_at_their_draw && theirs_status == "draw" && ours_status != "draw" {
                break;
            }
            assert_eq!(
                (&ours_status, &ours),
                (&theirs_status, &theirs),
                "{name}, game {g}, after `{}` ({})",
                line.join(" "),
                pos.fen()
            );
            positions += 1;
            if ours.is_empty() || line.len() >= plies {
                break;
            }
            let pick = &ours[(rng.next_u32() as usize) % ours.len()];
            let m = uci::find(pos, pick).expect("a listed move is found");
            game.play(m);
            line.push(pick.clone());
        }
    }
    eprintln!("{name}: {positions} positions compared in {games} games");
    assert!(positions > games, "{name}: only {positions} positions compared");
}

#[test]
fn tic_tac_toe_agrees_with_open_spiel() {
    agree("tic-tac-toe", 200, 9);
}

#[test]
fn connect_four_agrees_with_open_spiel() {
    agree("connect-four", 60, 42);
}

#[test]
fn othello_agrees_with_open_spiel() {
    agree("othello", 25, 70);
}

#[test]
fn draughts_agrees_with_pydraughts() {
    // pydraughts draws after 40 king moves each without a capture; random games stop short of it.
    agree("draughts", 20, 60);
}

#[test]
fn breakthrough_agrees_with_fairy_stockfish() {
    agree("breakthrough", 20, 80);
}

#[test]
fn crazyhouse_agrees_with_fairy_stockfish() {
    agree("crazyhouse", 12, 80);
}

#[test]
fn hex_agrees_with_open_spiel() {
    agree("hex", 8, 121);
}

// The third family: turns of several parts, counts, obligations.

#[test]
fn antichess_agrees_with_fairy_stockfish() {
    agree("antichess", 12, 80);
}

#[test]
fn three_check_agrees_with_fairy_stockfish() {
    agree("three-check", 12, 80);
}

#[test]
fn duck_chess_agrees_with_fairy_stockfish() {
    agree("duck-chess", 6, 60);
}

#[test]
fn isolation_agrees_with_fairy_stockfish() {
    agree("isolation", 10, 48);
}

#[test]
fn clobber_agrees_with_fairy_stockfish() {
    agree("clobber", 20, 60);
}

#[test]
fn atomic_agrees_with_fairy_stockfish() {
    agree("atomic", 16, 100);
}

#[test]
fn seirawan_agrees_with_fairy_stockfish() {
    agree("seirawan", 12, 80);
}

#[test]
fn tapatan_agrees_with_its_reference() {
    // Placing, then moving: the phase changes once both hands are empty.
    agree("tapatan", 60, 40);
}

#[test]
fn lines_of_action_agrees_with_open_spiel() {
    // open_spiel draws a game at any board seen before, whoever is to move (and at ply 1000), which
    // the rules do not: the comparison stops there.
    agree_until_draw("lines-of-action", 12, 150);
}

#[test]
fn y_agrees_with_open_spiel() {
    // A board of hexes cut to a triangle; a chain touching all three sides wins.
    agree("y", 8, 190);
}

#[test]
fn russian_draughts_agrees_with_pydraughts() {
    // Flying kings, men capturing backwards, a man crowned in a capture going on as a king.
    agree("russian-draughts", 20, 150);
}

#[test]
fn turkish_draughts_agrees_with_pydraughts() {
    // Orthogonal moves, captured pieces removed at once, no turning back, the longest capture.
    agree("turkish-draughts", 20, 150);
}

#[test]
fn ataxx_agrees_with_fairy_stockfish() {
    // tests/language/ataxx.rules: a step that leaves a copy behind, a jump that does not, and
    // every enemy stone next to the landing square turned; a side with no move passes.
    agree_with("ataxx", "tests/language/ataxx.rules", 20, 120);
}

#[test]
fn amazons_agrees_with_fairy_stockfish() {
    // tests/language/amazons.rules: a queen's move, then an arrow shot from where it landed,
    // a neutral piece that blocks both sides; the side with no turn left loses.
    agree_with("amazons", "tests/language/amazons.rules", 3, 90);
}

#[test]
fn havannah_agrees_with_open_spiel() {
    // tests/language/havannah.rules: a hexagon cut from a rhombus, bridges between corners, forks
    // between sides and rings around a cell.
    agree_with("havannah", "tests/language/havannah.rules", 300, 37);
}

// Backgammon: dice used one by one, stacks, the bar, bearing off, and the most dice used.

/// A position of `tests/oracles/backgammon.py` (28 numbers: the points from x's start, x's
/// positive; the bars; the checkers borne off) as a FEN of `rulesets/backgammon.rules`, with the
/// mover and the dice. Absolute point `p` is white's track square `p` and black's `23 - p`: the
/// same square.
fn backgammon_fen(canon: &str, mover: &str, dice: &str) -> String {
    let v: Vec<i64> = canon.split(',').map(|x| x.parse().expect("a number")).collect();
    assert_eq!(v.len(), 28, "{canon}");
    // Rank 2 from a2 to l2 holds absolute points 11 down to 0; rank 1 from a1 to l1, 12 to 23.
    let cell = |p: usize| match v[p] {
        0 => None,
        n if n > 0 => Some(format!("({n}C)")),
        n => Some(format!("({}c)", -n)),
    };
    let rank = |points: Vec<usize>| {
        let mut s = String::new();
        let mut empty = 0;
        for p in points {
            match cell(p) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        s
    };
    let hand = "C".repeat(v[24] as usize) + &"c".repeat(v[25] as usize);
    format!(
        "{}/{}[{hand}] {} - - {}+{} roll:{dice} 0 1",
        rank((0..12).rev().collect()),
        rank((12..24).collect()),
        if mover == "0" { "w" } else { "b" },
        v[26],
        v[27]
    )
}

/// The position as `backgammon.py` writes it.
fn backgammon_canon(pos: &arbiter::game::Position) -> String {
    let route = &pos.rules().tracks[0].squares;
    let mut v: Vec<i64> = (0..24)
        .map(|p| {
            let sq = route.0[0][p];
            assert_eq!(sq, route.0[1][23 - p], "the two routes meet square by square");
            let n = pos.stack_count(sq) as i64;
            match pos.piece_at(sq) {
                Some((_, Side::FIRST)) => n,
                Some(_) => -n,
                None => 0,
            }
        })
        .collect();
    for side in [Side::FIRST, Side::SECOND] {
        v.push(pos.hand(side).iter().map(|(_, n)| *n as i64).sum());
    }
    for side in [Side::FIRST, Side::SECOND] {
        v.push(pos.tally(side, 0));
    }
    v.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
}

/// Every position the turn of the side to move can end in (each die's move a ply of its own).
fn backgammon_ends(pos: &arbiter::game::Position, mover: Side, out: &mut std::collections::BTreeSet<String>) {
    for m in pos.legal_moves() {
        let mut next = pos.clone();
        next.play_unchecked(m);
        if next.side_to_move() != mover || next.to_roll() || next.legal_moves().is_empty() {
            out.insert(backgammon_canon(&next));
        } else {
            backgammon_ends(&next, mover, out);
        }
    }
}

#[test]
fn backgammon_agrees_with_open_spiel_on_every_turn_of_random_games() {
    let engine = common::bundled("backgammon");
    let script = common::root().join("tests/oracles/backgammon.py");
    let run = Command::new("python3")
        .arg(&script)
        .args(["turns", "24", "2026"])
        .output()
        .unwrap_or_else(|e| panic!("cannot start python3 {}: {e} (run scripts/setup)", script.display()));
    assert!(
        run.status.success(),
        "backgammon.py failed (is open_spiel installed? run scripts/setup): {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = String::from_utf8(run.stdout).expect("utf-8");
    let (mut turns, mut ends, mut doubles, mut entering, mut bearing, mut one_die) = (0, 0, 0, 0, 0, 0);
    for line in text.lines() {
        let (head, theirs) = line.split_once(" ; ").expect("a turn line");
        let mut words = head.split(' ');
        let (canon, mover, dice) = (words.next().unwrap(), words.next().unwrap(), words.next().unwrap());
        // The FEN's roll field holds the dice still to use: a double's four.
        let d: Vec<&str> = dice.split('-').collect();
        let left = if d[0] == d[1] { [dice, dice].join("-") } else { dice.to_string() };
        let fen = backgammon_fen(canon, mover, &left);
        let pos = engine.from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(backgammon_canon(&pos), canon, "{fen} reads back");
        let mut ours = std::collections::BTreeSet::new();
        backgammon_ends(&pos, pos.side_to_move(), &mut ours);
        let theirs: std::collections::BTreeSet<String> = theirs.split(' ').filter(|s| !s.is_empty()).map(str::to_string).collect();
        if ours != theirs {
            let only_ours: Vec<_> = ours.difference(&theirs).take(5).collect();
            let only_theirs: Vec<_> = theirs.difference(&ours).take(5).collect();
            panic!(
                "backgammon: {fen}: {} ends here, {} in open_spiel\nonly here: {only_ours:?}\nonly in open_spiel: {only_theirs:?}",
                ours.len(),
                theirs.len()
            );
        }
        turns += 1;
        ends += ours.len();
        doubles += (d[0] == d[1]) as usize;
        let v: Vec<i64> = canon.split(',').map(|x| x.parse().unwrap()).collect();
        entering += (v[24 + (mover == "1") as usize] > 0) as usize;
        bearing += (v[26 + (mover == "1") as usize] > 0) as usize;
        // A turn where some way to end it used fewer dice than the roll has.
        one_die += (ours.len() == 1) as usize;
    }
    eprintln!(
        "backgammon: {turns} turns, {ends} end positions; {doubles} doubles, {entering} from the bar, {bearing} bearing off, {one_die} with one way"
    );
    assert!(
        turns > 1000 && doubles > 100 && entering > 50 && bearing > 50,
        "the games reach every rule"
    );
}

// Chinese checkers: two to six players, hops chained at will, seats turned round a hex star.

#[test]
fn chinese_checkers_agrees_with_open_spiel_for_2_3_4_and_6_players() {
    let script = common::root().join("tests/oracles/chinese_checkers.py");
    for players in ["2", "3", "4", "6"] {
        let engine = common::engine("rulesets/chinese-checkers.rules", &[("players", players)]);
        let run = Command::new("python3")
            .arg(&script)
            .args(["turns", players, "3", "2026", "400"])
            .output()
            .unwrap_or_else(|e| panic!("cannot start python3 {}: {e} (run scripts/setup)", script.display()));
        assert!(
            run.status.success(),
            "chinese_checkers.py failed (is open_spiel installed? run scripts/setup): {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = String::from_utf8(run.stdout).expect("utf-8");
        let (mut turns, mut moves, mut chains) = (0, 0, 0);
        let mut movers = std::collections::BTreeSet::new();
        for line in text.lines().filter(|l| l.contains(" ; ")) {
            let (fen, theirs) = line.split_once(" ; ").expect("a turn line");
            let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.fen(), fen, "the FEN reads back as written");
            let legal = pos.legal_moves();
            let ours: std::collections::BTreeSet<String> = legal.iter().map(|&m| uci::to_text(&pos, m)).collect();
            let theirs: std::collections::BTreeSet<String> = theirs
                .split(' ')
                .filter(|s| !s.is_empty() && *s != "pass")
                .map(str::to_string)
                .collect();
            assert_eq!(
                ours,
                theirs,
                "chinese checkers, {players} players: {fen}\nonly here: {:?}\nonly in open_spiel: {:?}",
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            );
            turns += 1;
            moves += ours.len();
            movers.insert(pos.side_to_move());
            // A move that ends farther than a neighbour or a single hop: a chain of hops.
            let board = &pos.rules().board;
            chains += legal
                .iter()
                .filter(|m| {
                    let (f, t) = (m.from as usize, m.to as usize);
                    let dq = board.file(t) as i64 - board.file(f) as i64;
                    let dr = board.rank(t) as i64 - board.rank(f) as i64;
                    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2 > 2
                })
                .count();
        }
        eprintln!("chinese checkers, {players} players: {turns} turns, {moves} moves, {chains} chains of hops");
        assert_eq!(movers.len(), players.parse::<usize>().unwrap(), "every side moves in turn");
        assert!(turns >= 1000 && chains > 100, "the games reach long chains of hops");
    }
}

// Ludo: two to four players, a die, pawns brought in on a 6 that hit what they land on, and the
// start square cleared first.

#[test]
fn ludo_agrees_with_open_spiel_maedn_for_2_3_and_4_players() {
    let script = common::root().join("tests/oracles/ludo.py");
    for players in ["2", "3", "4"] {
        let engine = common::engine("rulesets/ludo.rules", &[("players", players)]);
        let run = Command::new("python3")
            .arg(&script)
            .args(["turns", players, "16", "2026", "2000"])
            .output()
            .unwrap_or_else(|e| panic!("cannot start python3 {}: {e} (run scripts/setup)", script.display()));
        assert!(
            run.status.success(),
            "ludo.py failed (is open_spiel installed? run scripts/setup): {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = String::from_utf8(run.stdout).expect("utf-8");
        let (mut turns, mut moves, mut entering, mut hits, mut goal, mut held) = (0, 0, 0, 0, 0, 0);
        let mut movers = std::collections::BTreeSet::new();
        let mut ends = 0;
        for line in text.lines() {
            if let Some(end) = line.strip_prefix("end ") {
                // The final position ends the game for the same winner (the winner moved last).
                let (fen, winner) = end.split_once(" ; ").expect("end FEN ; WINNER");
                let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
                let game = arbiter::game::Game::new(engine.clone(), pos);
                let o = game.outcome();
                let ours = o.winner.map(|w| game.current().rules().players[w.index()].fen.clone());
                assert_eq!(
                    (o.status, ours.as_deref()),
                    (Status::Win, Some(winner)),
                    "ludo, {players} players: the game over at {fen}"
                );
                ends += 1;
                continue;
            }
            let (fen, theirs) = line.split_once(" ; ").expect("a turn line");
            let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.fen(), fen, "the FEN reads back as written");
            let legal = pos.legal_moves();
            let ours: std::collections::BTreeSet<String> = legal.iter().map(|&m| uci::to_text(&pos, m)).collect();
            let theirs: std::collections::BTreeSet<String> = theirs.split(' ').filter(|s| !s.is_empty()).map(str::to_string).collect();
            assert_eq!(
                ours,
                theirs,
                "ludo, {players} players: {fen}\nonly here: {:?}\nonly in open_spiel: {:?}",
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            );
            turns += 1;
            moves += ours.len();
            movers.insert(pos.side_to_move());
            let us = pos.side_to_move();
            let goal_zone = &pos.rules().zones.iter().find(|z| z.0 == "goal").expect("zone goal").1;
            for &m in &legal {
                let to = m.to as usize;
                match pos.piece_at(to) {
                    Some((_, s)) if s != us && m.to != u16::MAX => hits += 1,
                    _ => {}
                }
                if ours.len() == 1 && uci::to_text(&pos, m).len() <= 3 {
                    entering += 1;
                }
                if m.from != u16::MAX && goal_zone[us].contains(to) {
                    goal += 1;
                }
            }
            // Pawns waiting and a choice narrowed to one: the start square cleared, or a 6 bringing
            // a pawn in, where other pawns could have moved.
            let on_board = (0..pos.rules().board.squares())
                .filter(|&sq| pos.piece_at(sq).is_some_and(|(_, s)| s == us))
                .count();
            if !pos.hand(us).is_empty() && ours.len() == 1 && on_board > 1 {
                held += 1;
            }
        }
        eprintln!(
            "ludo, {players} players: {turns} turns, {moves} moves, {entering} brought in, {hits} hits, {goal} into or within the goal, {held} turns held to one move, {ends} games ended"
        );
        assert_eq!(movers.len(), players.parse::<usize>().unwrap(), "every side moves in turn");
        // perft 8 (four throws and four moves) from positions well into random games, each throw a
        // child: counted by open_spiel's tree.
        for seed in ["5", "11", "23"] {
            let run = Command::new("python3")
                .arg(&script)
                .args(["perft", players, seed, "80", "8"])
                .output()
                .expect("python3");
            assert!(run.status.success(), "ludo.py perft: {}", String::from_utf8_lossy(&run.stderr));
            let text = String::from_utf8(run.stdout).expect("utf-8");
            let (fen, theirs) = text.trim().split_once(" ; ").expect("FEN ; count");
            let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.perft(8).to_string(), theirs, "ludo perft 8, {players} players, from {fen}");
        }
        assert!(
            turns >= 2000 && entering > 50 && hits > 50 && goal > 50 && held > 50 && ends >= 1,
            "the games reach every rule"
        );
    }
}

// Four-player chess (teams): a reference of our own, written in Python from the manual's rules
// alone (tests/oracles/four_player_chess.py, which checks itself against a second, slow
// implementation first), since no published engine plays these rules as a library.

#[test]
fn four_player_chess_agrees_with_an_independent_reference() {
    let script = common::root().join("tests/oracles/four_player_chess.py");
    let python = |args: &[&str]| -> String {
        let run = Command::new("python3")
            .arg(&script)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("cannot start python3 {}: {e}", script.display()));
        assert!(
            run.status.success(),
            "four_player_chess.py {args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        String::from_utf8(run.stdout).expect("utf-8")
    };
    python(&["selftest", "--quick"]);
    let engine = common::engine("rulesets/four-player-chess.rules", &[]);
    // A FEN's first three fields (placement, side to move, castling): the reference writes no
    // move counter, which Arbiter keeps.
    let head = |fen: &str| fen.split(' ').take(3).collect::<Vec<_>>().join(" ");
    let text = python(&["turns", "40", "4", "600"]);
    let (mut turns, mut checks, mut castles, mut promotions, mut king_takes) = (0, 0, 0, 0, 0);
    let mut ends: std::collections::BTreeMap<String, usize> = Default::default();
    let mut previous: Option<(String, Vec<String>)> = None;
    for line in text.lines() {
        if let Some(end) = line.strip_prefix("end ") {
            let (fen, result) = end.split_once(" ; ").expect("end FEN ; RESULT");
            // The game as played to its end: the previous position and the move that led here
            // (a king taken ends the game by the move, which no FEN records).
            let (before, moves) = previous.take().expect("a turn before the end");
            let start = engine.from_fen(&before).unwrap_or_else(|e| panic!("{before}: {e}"));
            let mut game = Game::new(engine.clone(), start.clone());
            let last = moves.iter().find_map(|text| {
                let m = uci::find(&start, text)?;
                let mut after = start.clone();
                after.play_unchecked(m);
                (head(&after.fen()) == head(fen)).then_some(m)
            });
            let game = match last {
                Some(m) => {
                    game.play(m);
                    game
                }
                // The end position is the one given: its player has no legal move.
                None => Game::new(engine.clone(), engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))),
            };
            let o = game.outcome();
            let names = |side: usize| game.current().rules().players[side].fen.clone();
            let ours = match (o.status, &o.places) {
                (Status::Win, Some(places)) => (0..4).filter(|&s| places[s] == 1).map(names).collect::<String>(),
                (Status::Draw, _) => "draw".to_string(),
                other => format!("{other:?}"),
            };
            assert_eq!(ours, result, "four-player chess: the game over at {fen} ({:?})", o.reason);
            *ends.entry(o.reason.clone().unwrap_or_default()).or_default() += 1;
            continue;
        }
        let (fen, theirs) = line.split_once(" ; ").expect("a turn line");
        let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(head(&pos.fen()), head(fen), "the FEN reads back as written");
        let legal = pos.legal_moves();
        let ours: std::collections::BTreeSet<String> = legal.iter().map(|&m| uci::to_text(&pos, m)).collect();
        let theirs_set: std::collections::BTreeSet<String> = theirs.split(' ').filter(|s| !s.is_empty()).map(str::to_string).collect();
        assert_eq!(
            ours,
            theirs_set,
            "four-player chess: {fen}\nonly here: {:?}\nonly in the reference: {:?}",
            ours.difference(&theirs_set).collect::<Vec<_>>(),
            theirs_set.difference(&ours).collect::<Vec<_>>()
        );
        turns += 1;
        checks += usize::from(pos.in_check());
        for &m in &legal {
            castles += usize::from(matches!(m.kind, arbiter::game::MoveKind::Castle(_)));
            promotions += usize::from(m.promo != 0);
            let taken = pos.piece_at(m.to as usize);
            king_takes += usize::from(taken.is_some_and(|(k, _)| pos.rules().kind(k).royal));
        }
        previous = Some((fen.to_string(), theirs_set.into_iter().collect()));
    }
    eprintln!(
        "four-player chess: {turns} turns, {checks} in check, {castles} castling moves, {promotions} promotions, {king_takes} kings to take, games ended: {ends:?}"
    );
    assert!(
        turns >= 10_000 && checks > 100 && castles > 50 && promotions > 20 && king_takes > 0,
        "the games reach every rule"
    );
    for reason in ["king-captured", "checkmate", "stalemate"] {
        assert!(ends.contains_key(reason), "no random game ended by {reason}: {ends:?}");
    }
    // perft from the start, and from positions well into random games.
    let start = engine.start();
    assert_eq!(start.perft(4), 152_050, "perft 4 from the start");
    for fen in python(&["random-positions", "4", "7", "40"]).lines() {
        let pos = engine.from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let theirs = python(&["perft", fen, "3"]);
        assert_eq!(pos.perft(3).to_string(), theirs.trim(), "perft 3 from {fen}");
    }
}
