//! Records with variations, read by independent readers: what Arbiter writes as PGN, python-chess
//! reads to the same tree of moves, and what it writes as SGF, sgfmill reads to the same tree
//! (`tests/oracles/records.py`, installed by `scripts/setup`). Every record Arbiter writes also reads
//! back into Arbiter as the same main line and variations. The records are the annotated files under
//! `tests/pgn` and `tests/go`, and seeded random games with random nested variations.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter::game::{Engine, Game, Status};
use arbiter::notation::record::{self, Format};
use arbiter::notation::variation::Branch;
use arbiter::notation::{pgn, sgf, uci};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

/// Every line from the start to a leaf of a tree: the main line's first, then the others sorted.
fn leaves(main: &[String], branches: &[Branch]) -> Vec<String> {
    fn walk(prefix: &[String], moves: &[String], branches: &[Branch], out: &mut Vec<String>) {
        let mut full = prefix.to_vec();
        full.extend(moves.iter().cloned());
        out.push(full.join(" "));
        for b in branches {
            let mut p = prefix.to_vec();
            p.extend(moves[..b.at.min(moves.len())].iter().cloned());
            walk(&p, &b.moves, &b.branches, out);
        }
    }
    let mut out = Vec::new();
    walk(&[], main, branches, &mut out);
    let mut rest = out.split_off(1);
    rest.sort();
    rest.dedup();
    out.extend(rest);
    out.iter().map(|l| l.to_lowercase()).collect()
}

/// What the independent reader makes of a record file: its first line (`fen …` or `size …`) and
/// the lines of its tree, main line first.
fn oracle(kind: &str, path: &Path) -> (String, Vec<String>) {
    let (head, _, lines) = oracle_all(kind, path);
    (head, lines)
}

/// As [`oracle`], with the reader's other lines (`board …`, `tag NAME VALUE`) by their first word
/// and name.
fn oracle_all(kind: &str, path: &Path) -> (String, std::collections::BTreeMap<String, String>, Vec<String>) {
    let script = common::root().join("tests/oracles/records.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(kind)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 {}: {e} (run scripts/setup)", script.display()));
    assert!(
        out.status.success(),
        "the {kind} reader refused {}: {}\n(is python-chess/sgfmill installed? run scripts/setup)\n{}",
        path.display(),
        String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(path).unwrap_or_default()
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut head = String::new();
    let mut said = std::collections::BTreeMap::new();
    let mut lines = Vec::new();
    for l in text.lines() {
        match l.split_once(' ') {
            Some(("line", moves)) => lines.push(moves.to_lowercase()),
            None if l == "line" => lines.push(String::new()),
            Some(("fen" | "size", _)) => head = l.to_string(),
            Some(("tag", rest)) => {
                let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
                said.insert(name.to_string(), value.to_string());
            }
            Some((word, rest)) => {
                said.insert(word.to_string(), rest.to_string());
            }
            None => head = l.to_string(),
        }
    }
    let mut rest = lines.split_off(1.min(lines.len()));
    rest.sort();
    rest.dedup();
    lines.extend(rest);
    (head, said, lines)
}

/// `arbiter simulate --games-out`, as a user writes the games of a run: python-chess reads every
/// PGN game to Arbiter's main line and final position, with the rules (`Variant`) and the end
/// (`Termination`) named; sgfmill reads every SGF game to Arbiter's main line and its board after
/// it, point by point, with the rules (`RU`) and komi.
#[test]
fn simulated_games_written_out_are_read_by_independent_readers() {
    for (ruleset, params, ext) in [("chess", vec![], "pgn"), ("go", vec!["--param", "size=9"], "sgf")] {
        let out = scratch(&format!("simulated-{ruleset}.{ext}"));
        let _ = std::fs::remove_file(&out);
        let out_text = out.display().to_string();
        let args = [
            &["simulate", ruleset, "--games", "4", "--seed", "11", "--games-out", &out_text][..],
            &params,
        ]
        .concat();
        let r = common::arbiter(&args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let text = std::fs::read_to_string(&out).expect("the games were written");
        let records: Vec<String> = match ext {
            "pgn" => text
                .split("\n\n[Event")
                .enumerate()
                .map(|(i, t)| if i == 0 { t.to_string() } else { format!("[Event{t}") })
                .collect(),
            _ => text
                .split("\n(;")
                .enumerate()
                .map(|(i, t)| if i == 0 { t.to_string() } else { format!("(;{t}") })
                .collect(),
        };
        assert_eq!(records.len(), 4, "{text}");
        let size = [("size", "9")];
        let engine = common::engine(&format!("rulesets/{ruleset}.rules"), if ruleset == "go" { &size[..] } else { &[] });
        for (i, one) in records.iter().enumerate() {
            let name = format!("{ruleset} game {i}");
            let path = scratch(&format!("simulated-{ruleset}-{i}.{ext}"));
            std::fs::write(&path, one).expect("written");
            let format = if ext == "sgf" { Format::Sgf } else { Format::Pgn };
            let ours = record::read(one, format)
                .unwrap_or_else(|e| panic!("{name}: {e}\n{one}"))
                .replay(&engine)
                .expect("the start fits");
            assert!(ours.stopped.is_none(), "{name}: {:?}", ours.stopped);
            let (head, said, lines) = oracle_all(ext, &path);
            assert_eq!(
                lines.first(),
                Some(&coordinates(&ours.game).join(" ").to_lowercase()),
                "{name}: the main line"
            );
            if ext == "pgn" {
                let fields = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
                assert_eq!(
                    fields(head.trim_start_matches("fen ")),
                    fields(&ours.game.current().fen()),
                    "{name}"
                );
                assert_eq!(said.get("Variant").map(String::as_str), Some("chess"), "{name}: {said:?}");
                let reason = ours.game.outcome().reason.unwrap_or_else(|| "cut at 1000 plies".into());
                assert_eq!(said.get("Termination"), Some(&reason), "{name}: {said:?}");
            } else {
                let board: String = ours
                    .game
                    .current()
                    .fen()
                    .split_whitespace()
                    .next()
                    .expect("a board")
                    .split('/')
                    .map(|row| {
                        row.chars()
                            .map(|c| match c {
                                'X' => "X".to_string(),
                                'x' => "O".to_string(),
                                d => ".".repeat(d.to_digit(10).unwrap_or(0) as usize),
                            })
                            .collect::<String>()
                    })
                    .collect::<Vec<_>>()
                    .join("/");
                assert_eq!(said.get("board"), Some(&board), "{name}: sgfmill's board after the main line");
                assert_eq!(said.get("RU").map(String::as_str), Some("Chinese"), "{name}: {said:?}");
                assert_eq!(said.get("KM").map(String::as_str), Some("7.5"), "{name}: {said:?}");
            }
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

/// The main line of a game in coordinates.
fn coordinates(game: &Game) -> Vec<String> {
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(p, &m)| uci::to_text(p, m))
        .collect()
}

/// Writes `game` with `branches` in `format`, checks that the reader `kind` sees the same tree, and
/// that Arbiter reads the text back to the same main line and variations.
fn check_written(engine: &Engine, game: &Game, branches: &[Branch], format: Format, name: &str) {
    let (text, notes) = match format {
        Format::Sgf => sgf::write_tree(game, branches),
        _ => pgn::write_tree(game, &[("Event".into(), name.into())], branches),
    };
    assert!(notes.is_empty(), "{name}: {notes:?}");
    let ext = if format == Format::Sgf { "sgf" } else { "pgn" };
    let path = scratch(&format!("{name}.{ext}"));
    std::fs::write(&path, &text).expect("written");
    let expected = leaves(&coordinates(game), branches);

    let (head, lines) = oracle(ext, &path);
    assert_eq!(lines, expected, "{name}: the independent reader sees another tree in\n{text}");
    if format == Format::Pgn {
        // python-chess's FEN has no en passant square unless a capture is possible; Arbiter's
        // placement, side and castling fields must match it.
        let ours = game.current().fen();
        let fields = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(head.trim_start_matches("fen ")), fields(&ours), "{name}");
    }

    let back = record::read(&text, format).unwrap_or_else(|e| panic!("{name}: Arbiter cannot read what it wrote: {e}\n{text}"));
    let replayed = back.replay(engine).expect("the start fits");
    assert!(
        replayed.stopped.is_none() && replayed.skipped.is_empty(),
        "{name}: {:?} {:?}",
        replayed.stopped,
        replayed.skipped
    );
    assert_eq!(
        leaves(&coordinates(&replayed.game), &replayed.variations),
        expected,
        "{name}: read back to another tree"
    );
}

#[test]
fn annotated_records_keep_their_variations_through_arbiter_and_independent_readers() {
    let chess = common::bundled("chess");
    let go = common::engine("rulesets/go.rules", &[("size", "9")]);
    let cases = [
        ("tests/pgn/annotated-opera-game.pgn", Format::Pgn, &chess, 2),
        ("tests/pgn/variations-two-knights.pgn", Format::Pgn, &chess, 6),
        ("tests/go/teaching-9x9.sgf", Format::Sgf, &go, 1),
        ("tests/go/variations-9x9.sgf", Format::Sgf, &go, 4),
    ];
    for (rel, format, engine, branches) in cases {
        let path = common::root().join(rel);
        let text = std::fs::read_to_string(&path).expect("the record exists");
        let rec = record::read(&text, format).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let replayed = rec.replay(engine).expect("the start fits");
        assert!(replayed.stopped.is_none(), "{rel}: {:?}", replayed.stopped);
        assert!(replayed.skipped.is_empty(), "{rel}: {:?}", replayed.skipped);
        let count = |bs: &[Branch]| {
            fn n(bs: &[Branch]) -> usize {
                bs.iter().map(|b| 1 + n(&b.branches)).sum()
            }
            n(bs)
        };
        assert_eq!(count(&replayed.variations), branches, "{rel}: variations read");
        // The file as it stands is read by the independent reader to the tree Arbiter read.
        let (_, lines) = oracle(if format == Format::Sgf { "sgf" } else { "pgn" }, &path);
        assert_eq!(lines, leaves(&coordinates(&replayed.game), &replayed.variations), "{rel}");
        let name = Path::new(rel).file_stem().and_then(|s| s.to_str()).expect("a name");
        check_written(engine, &replayed.game, &replayed.variations, format, name);
    }
}

/// A random legal line of up to `len` moves from `game`'s position (left as it was), avoiding
/// `not_first` as its first move; empty when the game is over.
fn random_line(game: &mut Game, rng: &mut ChaCha8Rng, len: usize, not_first: Option<&str>) -> Vec<String> {
    let mut line = Vec::new();
    for i in 0..len {
        if game.outcome().status != Status::Ongoing {
            break;
        }
        let pos = game.current().clone();
        let moves: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| i > 0 || Some(uci::to_text(&pos, m).as_str()) != not_first)
            .collect();
        if moves.is_empty() {
            break;
        }
        let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
        line.push(uci::to_text(&pos, m));
        game.play(m);
    }
    for _ in 0..line.len() {
        game.undo();
    }
    line
}

/// Random branches off `main` (played from `game`'s position, left as it was), nested `depth` deep.
fn random_branches(game: &mut Game, main: &[String], rng: &mut ChaCha8Rng, depth: usize) -> Vec<Branch> {
    let mut out = Vec::new();
    if main.is_empty() {
        return out;
    }
    let count = (rng.next_u64() % 4) as usize;
    let mut ats: Vec<usize> = (0..count).map(|_| (rng.next_u64() % main.len() as u64) as usize).collect();
    ats.sort();
    for at in ats {
        for m in &main[..at] {
            let mv = arbiter::notation::find(game.current(), m).expect("the line is legal");
            game.play(mv);
        }
        let len = 1 + (rng.next_u64() % 8) as usize;
        let moves = random_line(game, rng, len, Some(&main[at]));
        let branches = if depth > 0 && !moves.is_empty() {
            random_branches(game, &moves, rng, depth - 1)
        } else {
            Vec::new()
        };
        for _ in 0..at {
            game.undo();
        }
        if !moves.is_empty() {
            out.push(Branch { at, moves, branches });
        }
    }
    out
}

#[test]
fn random_games_with_nested_variations_round_trip_through_independent_readers() {
    let cases = [
        ("rulesets/chess.rules", None, Format::Pgn),
        ("rulesets/go.rules", Some(("size", "9")), Format::Sgf),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    for (rel, params, format) in cases {
        let engine = common::engine(rel, params.as_slice());
        for g in 0..12 {
            let mut game = Game::new(engine.clone(), engine.start());
            let main = random_line(&mut game, &mut rng, 60, None);
            let branches = random_branches(&mut game, &main, &mut rng, 2);
            record::play_line(&mut game, &main).expect("the line is legal");
            check_written(&engine, &game, &branches, format, &format!("random-{g}"));
        }
    }
}

#[test]
fn xiangqi_variations_round_trip_in_wxf() {
    let engine = common::bundled("xiangqi");
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    for g in 0..8 {
        let mut game = Game::new(engine.clone(), engine.start());
        let main = random_line(&mut game, &mut rng, 50, None);
        let branches = random_branches(&mut game, &main, &mut rng, 2);
        record::play_line(&mut game, &main).expect("the line is legal");
        let (text, notes) = pgn::write_tree(&game, &[], &branches);
        assert!(notes.is_empty(), "{notes:?}");
        let back = record::read(&text, Format::Pgn).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let replayed = back.replay(&engine).expect("the start fits");
        assert!(replayed.stopped.is_none() && replayed.skipped.is_empty(), "game {g}\n{text}");
        assert_eq!(
            leaves(&coordinates(&replayed.game), &replayed.variations),
            leaves(&main, &branches),
            "game {g}: read back to another tree\n{text}"
        );
    }
}
