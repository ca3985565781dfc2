//! Records with variations, read by independent readers: what Arbiter writes as PGN, python-chess
//! reads to the same tree of moves, and what it writes as SGF, sgfmill reads to the same tree
//! (`tests/oracles/records.py`, installed by `scripts/setup`). Every record Arbiter writes also reads
//! back into Arbiter as the same main line and variations. What the records say besides the moves
//! — headers (PGN tags, SGF game information), the game comment, each move's comment and glyphs
//! (NAGs; SGF's `TE`, `BM`, `IT`, `DO`), a variation's comment before its first move — is read by
//! the independent readers from what Arbiter wrote just as Arbiter's tree holds it, and by Arbiter
//! again the same. The records are the annotated files under `tests/pgn` and `tests/go`, and seeded
//! random games with random nested variations, comments, glyphs and headers.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arbiter::game::{Engine, Game, Status};
use arbiter::notation::annotation::{Annotation, Commentary};
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
    let read = oracle_all(kind, path);
    (read.head, read.lines)
}

/// All the independent reader says of a record file.
struct Oracle {
    /// `fen …` or `size …`.
    head: String,
    /// The other lines (`board …`, `tag NAME VALUE`) by their first word and name.
    said: std::collections::BTreeMap<String, String>,
    /// The lines of the tree, main line first.
    lines: Vec<String>,
    /// The headers: PGN tags, SGF game information on the root.
    headers: Vec<(String, String)>,
    /// The game comment, each move's comment and glyphs, each variation's first comment, as
    /// [`said_of`] writes them for Arbiter's tree, sorted.
    notes: Vec<String>,
}

/// What a tree says besides its moves, one line each, as `tests/oracles/records.py` prints it
/// (comments with their whitespace made single spaces, glyphs sorted, move paths in lowercase), sorted.
fn said_of(main: &[String], commentary: &Commentary, branches: &[Branch]) -> Vec<String> {
    fn flat(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }
    fn walk(
        prefix: &[String],
        moves: &[String],
        annotations: &[Annotation],
        comment: Option<&str>,
        branches: &[Branch],
        out: &mut Vec<String>,
    ) {
        for (i, m) in moves.iter().enumerate() {
            let mut path = prefix.to_vec();
            path.extend(moves[..i].iter().cloned());
            path.push(m.clone());
            let path = path.join(" ").to_lowercase();
            if let Some(c) = comment.map(flat).filter(|c| i == 0 && !c.is_empty()) {
                out.push(format!("start {path}\t{c}"));
            }
            if let Some(a) = annotations.get(i).filter(|a| !a.is_empty()) {
                let mut nags = a.nags.clone();
                nags.sort();
                nags.dedup();
                let nags: Vec<String> = nags.iter().map(u8::to_string).collect();
                out.push(format!(
                    "note {path}\t{}\t{}",
                    nags.join(","),
                    flat(a.comment.as_deref().unwrap_or(""))
                ));
            }
        }
        for b in branches {
            let mut p = prefix.to_vec();
            p.extend(moves[..b.at.min(moves.len())].iter().cloned());
            walk(&p, &b.moves, &b.annotations, b.comment.as_deref(), &b.branches, out);
        }
    }
    let mut out = Vec::new();
    if let Some(c) = commentary.comment.as_deref().map(flat).filter(|c| !c.is_empty()) {
        out.push(format!("game\t{c}"));
    }
    walk(&[], main, &commentary.annotations, None, branches, &mut out);
    out.sort();
    out
}

/// As [`oracle`], with everything else the reader says.
fn oracle_all(kind: &str, path: &Path) -> Oracle {
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
    let mut headers = Vec::new();
    let mut notes = Vec::new();
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("header ") {
            let (name, value) = rest.split_once('\t').unwrap_or((rest, ""));
            headers.push((name.to_string(), value.to_string()));
            continue;
        }
        if l.starts_with("note ") || l.starts_with("start ") || l.starts_with("game\t") {
            let (path, rest) = l.split_once('\t').unwrap_or((l, ""));
            notes.push(format!("{}\t{rest}", path.to_lowercase()));
            continue;
        }
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
    notes.sort();
    Oracle {
        head,
        said,
        lines,
        headers,
        notes,
    }
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
            let Oracle { head, said, lines, .. } = oracle_all(ext, &path);
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

/// A record to write: the game, its headers, what it says of the moves, its variations.
struct Written<'a> {
    game: &'a Game,
    tags: &'a [(String, String)],
    commentary: &'a Commentary,
    branches: &'a [Branch],
}

/// Writes `w` in `format`, checks that the reader `kind` sees the same tree, headers, comments and
/// glyphs, and that Arbiter reads the text back to the same main line, variations and annotations.
fn check_written(engine: &Engine, w: &Written, format: Format, name: &str) {
    let Written {
        game,
        tags,
        commentary,
        branches,
    } = *w;
    let (text, notes) = match format {
        Format::Sgf => sgf::write_tree(game, tags, commentary, branches),
        _ => pgn::write_tree(game, tags, commentary, branches),
    };
    assert!(notes.is_empty(), "{name}: {notes:?}");
    let ext = if format == Format::Sgf { "sgf" } else { "pgn" };
    let path = scratch(&format!("{name}.{ext}"));
    std::fs::write(&path, &text).expect("written");
    let main = coordinates(game);
    let expected = leaves(&main, branches);

    let read = oracle_all(ext, &path);
    assert_eq!(read.lines, expected, "{name}: the independent reader sees another tree in\n{text}");
    if format == Format::Pgn {
        // python-chess's FEN has no en passant square unless a capture is possible; Arbiter's
        // placement, side and castling fields must match it.
        let ours = game.current().fen();
        let fields = |f: &str| f.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        assert_eq!(fields(read.head.trim_start_matches("fen ")), fields(&ours), "{name}");
    }
    let said = said_of(&main, commentary, branches);
    let only = |a: &[String], b: &[String]| a.iter().filter(|l| !b.contains(l)).cloned().collect::<Vec<_>>();
    assert!(
        read.notes == said,
        "{name}: the independent reader sees other comments or glyphs:\nonly it: {:#?}\nonly Arbiter: {:#?}\nin\n{text}",
        only(&read.notes, &said),
        only(&said, &read.notes)
    );
    // Every header given is written as given; those the writer sets from the game itself (the
    // result once the rules end the game, SGF's rules and board) are its own.
    let over = game.outcome().status != Status::Ongoing;
    let own = |n: &str| match format {
        Format::Sgf => n == "RU" || (n == "RE" && over) || !sgf::GAME_INFO.contains(&n),
        _ => ["Result", "SetUp", "FEN"].contains(&n),
    };
    for (n, v) in tags.iter().filter(|(n, _)| !own(n)) {
        let found = read.headers.iter().find(|(h, _)| h == n).map(|(_, v)| v);
        assert_eq!(found, Some(v), "{name}: the header {n} in\n{text}");
    }

    let back = record::read(&text, format).unwrap_or_else(|e| panic!("{name}: Arbiter cannot read what it wrote: {e}\n{text}"));
    assert!(back.notes.is_empty(), "{name}: {:?}", back.notes);
    for (n, v) in tags.iter().filter(|(n, _)| !own(n)) {
        assert_eq!(back.tag(n), Some(v.as_str()), "{name}: the header {n} read back");
    }
    let replayed = back.replay(engine).expect("the start fits");
    assert!(
        replayed.stopped.is_none() && replayed.skipped.is_empty(),
        "{name}: {:?} {:?}",
        replayed.stopped,
        replayed.skipped
    );
    let main_back = coordinates(&replayed.game);
    assert_eq!(
        leaves(&main_back, &replayed.variations),
        expected,
        "{name}: read back to another tree"
    );
    assert_eq!(
        said_of(&main_back, &replayed.commentary, &replayed.variations),
        said,
        "{name}: read back with other comments or glyphs"
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
        let said = said_of(&coordinates(&replayed.game), &replayed.commentary, &replayed.variations);
        assert!(said.len() >= 3, "{rel}: the file's comments are read: {said:?}");
        let name = Path::new(rel).file_stem().and_then(|s| s.to_str()).expect("a name");
        let written = Written {
            game: &replayed.game,
            tags: &rec.tags,
            commentary: &replayed.commentary,
            branches: &replayed.variations,
        };
        check_written(engine, &written, format, name);
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
            out.push(Branch {
                at,
                moves,
                branches,
                ..Branch::default()
            });
        }
    }
    out
}

fn pick<'a>(rng: &mut ChaCha8Rng, from: &[&'a str]) -> &'a str {
    from[(rng.next_u64() % from.len() as u64) as usize]
}

/// A comment one time in three: words with spaces between them, from other scripts and with
/// movetext's own signs in them; for SGF also `]`, `\` and line breaks, which its writer escapes or
/// keeps. Never a `{` or `}` (PGN cannot hold `}`) nor a `%` (an escape line after a break).
fn random_comment(rng: &mut ChaCha8Rng, sgf: bool) -> Option<String> {
    if !rng.next_u64().is_multiple_of(3) {
        return None;
    }
    let words = [
        "good",
        "move",
        "Zugzwang",
        "é",
        "naïve",
        "漢字",
        "♞♜",
        "(sic)",
        "1-0",
        "*",
        "x;y",
        "\"quoted\"",
        "e4",
        "$5",
        "!?",
        "[a]",
        "(",
        ")",
        "back\\slash",
    ];
    let sgf_words = ["a]b", "]", "end\\", "\\]", "two\nlines", "x:y", "[%cal Ra1a2]"];
    let n = 1 + (rng.next_u64() % 6) as usize;
    let text: Vec<&str> = (0..n)
        .map(|_| {
            if sgf && rng.next_u64().is_multiple_of(3) {
                pick(rng, &sgf_words)
            } else {
                pick(rng, &words)
            }
        })
        .collect();
    Some(text.join(" "))
}

/// A move's random annotation: a comment ([`random_comment`]) and glyphs — for PGN up to two of
/// any NAG, for SGF those it has properties for, one of each property.
fn random_annotation(rng: &mut ChaCha8Rng, sgf: bool) -> Annotation {
    let mut nags = Vec::new();
    if sgf {
        for group in [&[1u8, 3][..], &[2, 4], &[5], &[6]] {
            if rng.next_u64().is_multiple_of(5) {
                nags.push(group[(rng.next_u64() % group.len() as u64) as usize]);
            }
        }
    } else {
        for _ in 0..rng.next_u64() % 3 {
            let n = 1 + (rng.next_u64() % 255) as u8;
            if !nags.contains(&n) {
                nags.push(n);
            }
        }
    }
    Annotation {
        nags,
        comment: random_comment(rng, sgf),
    }
}

/// `branches` (and theirs) given random comments and glyphs.
fn annotate(branches: &mut [Branch], rng: &mut ChaCha8Rng, sgf: bool) {
    for b in branches {
        b.annotations = b.moves.iter().map(|_| random_annotation(rng, sgf)).collect();
        b.comment = random_comment(rng, sgf);
        annotate(&mut b.branches, rng, sgf);
    }
}

/// Random headers: PGN tags with quotes, backslashes and other scripts in their values; SGF game
/// information with `]` and `\`.
fn random_tags(rng: &mut ChaCha8Rng, sgf: bool, name: &str) -> Vec<(String, String)> {
    let people = ["Anna \"the Rook\" Ng", "Back\\slash", "Müller", "李昌镐", "O'Neil"];
    let mut tags: Vec<(String, String)> = if sgf {
        vec![
            ("GN".into(), name.into()),
            ("PB".into(), pick(rng, &people).into()),
            ("PW".into(), format!("{} ]", pick(rng, &people))),
            ("DT".into(), "2026-12-02".into()),
            ("GC".into(), "a \\] tricky [game\\".into()),
        ]
    } else {
        vec![
            ("Event".into(), name.into()),
            ("Site".into(), "Café \"Régence\"".into()),
            ("Date".into(), "2026.12.02".into()),
            ("White".into(), pick(rng, &people).into()),
            ("Black".into(), pick(rng, &people).into()),
            ("ECO".into(), "C41".into()),
            ("Annotator".into(), "a \\ b".into()),
        ]
    };
    if rng.next_u64().is_multiple_of(2) {
        tags.pop();
    }
    tags
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
        let sgf = format == Format::Sgf;
        for g in 0..12 {
            let mut game = Game::new(engine.clone(), engine.start());
            let main = random_line(&mut game, &mut rng, 60, None);
            let mut branches = random_branches(&mut game, &main, &mut rng, 2);
            record::play_line(&mut game, &main).expect("the line is legal");
            annotate(&mut branches, &mut rng, sgf);
            let commentary = Commentary {
                comment: random_comment(&mut rng, sgf),
                annotations: main.iter().map(|_| random_annotation(&mut rng, sgf)).collect(),
            };
            let name = format!("random-{g}");
            let tags = random_tags(&mut rng, sgf, &name);
            let written = Written {
                game: &game,
                tags: &tags,
                commentary: &commentary,
                branches: &branches,
            };
            check_written(&engine, &written, format, &name);
        }
    }
}

/// A PGN with the headers real files carry, comments and glyphs, read, written and read again, is
/// the same record: tags, moves, variations and annotations.
#[test]
fn a_pgn_read_written_and_read_again_is_the_same_record() {
    let text = "[Event \"Casual \\\"blitz\\\"\"]\n[Site \"Berlin GER\"]\n[Date \"1852.??.??\"]\n[Round \"?\"]\n\
                [White \"Adolf Anderssen\"]\n[Black \"Jean Dufresne\"]\n[Result \"*\"]\n[ECO \"C52\"]\n\n\
                {The Evergreen game, its opening.} 1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4!? {The Evans gambit.} \
                4... Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O $1 d3 {[%eval 0.4] a quiet answer} {in two comments} \
                (7... dxc3 {accepting} 8. Qb3 $14 ( {rather} 8. Nxc3) ) 8. Qb3 Qf6?! $6 *";
    let engine = common::bundled("chess");
    let first = record::read(text, Format::Pgn).expect("valid PGN");
    assert!(first.notes.is_empty(), "{:?}", first.notes);
    let replayed = first.replay(&engine).expect("the start fits");
    assert!(replayed.stopped.is_none(), "{:?}", replayed.stopped);
    let (written, notes) = pgn::write_tree(&replayed.game, &first.tags, &first.commentary, &first.variations);
    assert!(notes.is_empty(), "{notes:?}");
    let again = record::read(&written, Format::Pgn).expect("Arbiter reads what it wrote");
    assert!(again.notes.is_empty(), "{:?}", again.notes);
    assert_eq!(again.tags, first.tags, "{written}");
    assert_eq!(again.moves, first.moves, "{written}");
    assert_eq!(again.commentary, first.commentary, "{written}");
    assert_eq!(again.variations, first.variations, "{written}");
    assert_eq!(again.commentary.comment.as_deref(), Some("The Evergreen game, its opening."));
    let d3 = &again.commentary.annotations[13];
    assert_eq!(d3.comment.as_deref(), Some("[%eval 0.4] a quiet answer in two comments"));
    assert_eq!(
        (
            again.commentary.annotations[6].nags.as_slice(),
            again.commentary.annotations[15].nags.as_slice()
        ),
        (&[5u8][..], &[6u8][..])
    );
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
        let (text, notes) = pgn::write_tree(&game, &[], &Commentary::default(), &branches);
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
