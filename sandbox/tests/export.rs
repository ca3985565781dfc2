//! Export in a bare `App`: the game with the variations played by hand is written as a record
//! (PGN for games that move pieces, SGF for games that capture chains) and opens again with the
//! same main line and the same tree; a record's own variations open as branches.

use crate::common;

use std::path::PathBuf;

use bevy::prelude::*;
use common::{app_with, file, send, session, temp_dir};
use sandbox::session::tree::Tree;
use sandbox::session::{Action, Apply, Replay, Session};

fn play(app: &mut App, moves: &[&str]) {
    for m in moves {
        send(app, Apply(Action::Play(m.to_string())));
        let last = session(app).log.last().expect("logged");
        assert!(last.ok, "{m}: {}", last.said);
    }
}

fn scratch(name: &str) -> PathBuf {
    temp_dir(&format!("export-{name}")).join(name)
}

/// Every branch of the tree as `anchor: moves`, sorted.
fn lines(tree: &Tree) -> Vec<String> {
    let mut out: Vec<String> = (0..tree.nodes.len())
        .map(sandbox::session::tree::NodeId)
        .filter(|&id| tree.node(id).is_some_and(|n| tree.children(n.anchor, Some(id)).is_empty()))
        .map(|leaf| format!("{}: {}", tree.nodes[leaf.0].anchor, tree.line(leaf).join(" ")))
        .collect();
    out.sort();
    out
}

fn fens(s: &Session) -> Vec<String> {
    s.timeline.iter().map(|f| f.fen.clone()).collect()
}

fn export(app: &mut App, name: &str) -> PathBuf {
    let path = scratch(name);
    send(app, Apply(Action::Export(path.clone())));
    let last = session(app).log.last().expect("logged");
    assert!(last.ok, "{}", last.said);
    assert!(last.said.contains(&path.display().to_string()), "{}", last.said);
    path
}

#[test]
fn a_record_with_variations_played_by_hand_exports_and_opens_again_the_same() {
    let mut app = file("tests/pgn/opera-game.pgn");
    // 2. d4 exd4 instead of 2. Nf3; 5... Qf6 instead of 5... dxe5, with 6. Qxf6 and 6. Nc3.
    send(&mut app, Replay::To(2));
    play(&mut app, &["d2d4", "e5d4"]);
    send(&mut app, Replay::To(9));
    play(&mut app, &["d8f6", "f3f6"]);
    send(&mut app, Replay::Back);
    play(&mut app, &["b1c3"]);
    let before = lines(&session(&app).variations);
    assert_eq!(before.len(), 3, "{before:?}");
    let path = export(&mut app, "opera-variations.pgn");
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("[Variant \"chess\"]"), "{text}");
    assert!(text.contains("2. d4 exd4"), "{text}");

    let again = common::app(path.to_str().expect("UTF-8"));
    let s = session(&again);
    assert_eq!(fens(s), fens(session(&app)), "the same main line");
    assert_eq!(lines(&s.variations), before, "the same variations");
    // The written text of a branch's move is the ruleset's notation.
    let written: Vec<&str> = s.variations.nodes.iter().map(|n| n.written.as_str()).collect();
    assert!(written.contains(&"exd4") && written.contains(&"Qxf6"), "{written:?}");
    // An existing file is never overwritten.
    let mut app = app;
    send(&mut app, Apply(Action::Export(path.clone())));
    let last = session(&app).log.last().expect("logged");
    assert!(!last.ok && last.said.contains("already exists"), "{}", last.said);
}

#[test]
fn a_go_game_played_by_hand_exports_as_sgf_with_its_alternatives() {
    let opened = sandbox::session::source::open_with_params(Some("go"), &[("size".to_string(), "9".to_string())]).expect("go opens");
    let mut app = app_with(Session::new(opened));
    play(&mut app, &["E5", "C7", "G7", "pass", "C3"]);
    // Back two moves by hand, then another line: a branch of the hand-played line.
    send(&mut app, Replay::Back);
    send(&mut app, Replay::Back);
    play(&mut app, &["G3", "C3"]);
    let path = export(&mut app, "go-9.sgf");
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.starts_with("(;FF[4]GM[1]") && text.contains("SZ[9]"), "{text}");

    let again = common::app(path.to_str().expect("UTF-8"));
    let s = session(&again);
    // The first line played became the main line; the other is a variation at ply 3.
    assert_eq!(s.timeline.len(), 6, "the start and five moves");
    assert_eq!(lines(&s.variations), vec!["3: G3 C3".to_string()]);
}

#[test]
fn a_records_own_variations_open_as_branches() {
    let app = file("tests/pgn/variations-two-knights.pgn");
    let s = session(&app);
    let l = lines(&s.variations);
    assert!(l.contains(&"5: f8c5 c2c3 g8f6 d2d4".to_string()), "{l:?}");
    assert!(l.contains(&"9: f6d5 d2d4".to_string()), "{l:?}");
    assert!(l.contains(&"6: d2d4 e5d4 e4e5 d7d5".to_string()), "{l:?}");
    assert_eq!(l.len(), 6, "{l:?}");
    assert_eq!(s.note, None);
}

#[test]
fn turns_of_several_parts_export_and_open_again_and_a_record_that_would_not_read_back_is_not_written() {
    // Duck chess writes a turn whole, in coordinates: it opens again as it was.
    let mut app = common::app("duck-chess");
    play(&mut app, &["e2e4,e4d5", "e7e5,e5d4"]);
    let path = export(&mut app, "duck.pgn");
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("1. e2e4,e4d5 e7e5,e5d4"), "{text}");
    let again = Session::new(sandbox::session::source::open(Some(path.to_str().expect("UTF-8"))).expect("opens"));
    assert_eq!(fens(&again).last(), Some(&session(&app).game.current().fen()));
    // Seirawan's gating is written as Fairy-Stockfish writes it (`Nc3/H`): it opens again too.
    let mut app = common::app("seirawan");
    play(&mut app, &["b1c3h", "g8f6"]);
    let path = export(&mut app, "seirawan.pgn");
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("1. Nc3/H Nf6"), "{text}");
    let again = Session::new(sandbox::session::source::open(Some(path.to_str().expect("UTF-8"))).expect("opens"));
    assert_eq!(fens(&again).last(), Some(&session(&app).game.current().fen()));
    // Opened, the record is the main line; a text that would read as another game is refused (the
    // same moves without the hawk).
    assert_eq!(again.timeline.len(), 3, "the start and two moves");
    let said = sandbox::session::records::reads_back(&again, &text.replace("Nc3/H", "Nc3"), sandbox::session::records::RecordFormat::Pgn)
        .expect_err("another game");
    assert!(said.starts_with("not exported: the record would not read back"), "{said}");
    // A piece that may step or leave a copy behind: both moves are written `d1c1`, so neither can
    // be named, played or written (the checker warns of such clauses).
    let rules = scratch("cloner.rules");
    std::fs::write(
        &rules,
        "game \"Cloner\" {\n  players white \"w\", black \"b\"\n}\nboard 4 x 4 squares {\n  files a..d\n  ranks 1..4\n}\n\
         piece Man \"M\" {\n  step orthogonal to empty\n  step orthogonal to empty, leaving a copy\n}\n\
         end {\n  stuck: no legal move -> side to move loses\n}\nsetup \"m3/4/4/3M w - - 0 1\"\n",
    )
    .expect("written");
    let mut app = common::app(rules.to_str().expect("UTF-8"));
    send(&mut app, Apply(Action::Play("d1c1".into())));
    assert!(!session(&app).log.last().expect("logged").ok, "d1c1 names two moves");
    assert_eq!(session(&app).game.ply(), 0, "nothing played");
}

/// What the independent reader (`tests/oracles/records.py`: python-chess for PGN, sgfmill for SGF)
/// says a record carries besides its moves: its headers, the game comment, each move's comment and
/// glyphs, a variation's opening comment — one line each, sorted.
fn carried(kind: &str, path: &std::path::Path) -> Vec<String> {
    let script = common::root().join("tests/oracles/records.py");
    let out = std::process::Command::new("python3")
        .arg(&script)
        .arg(kind)
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 {}: {e} (run scripts/setup)", script.display()));
    assert!(out.status.success(), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    let mut said: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| ["header ", "game\t", "note ", "start "].iter().any(|p| l.starts_with(p)))
        .map(str::to_string)
        .collect();
    said.sort();
    said
}

/// A record opened keeps what it carries — headers, the game comment, each move's comment and
/// glyphs, in the main line and in its variations — shows the glyphs beside the moves and the
/// comment of the move in view, and writes them all back on export: the independent reader finds
/// in the exported file everything it found in the original (the export may add the ruleset's
/// name, and a `;` comment python-chess skips, which Arbiter keeps and writes in braces).
#[test]
fn a_record_keeps_its_headers_comments_and_glyphs_through_opening_and_export() {
    for (file, kind, ext) in [
        ("tests/pgn/annotated-opera-game.pgn", "pgn", "pgn"),
        ("tests/go/teaching-9x9.sgf", "sgf", "sgf"),
        ("tests/go/variations-9x9.sgf", "sgf", "sgf"),
    ] {
        let original = common::root().join(file);
        let mut app = app_with(Session::new(
            sandbox::session::source::open(original.to_str()).unwrap_or_else(|e| panic!("{file}: {e}")),
        ));
        assert!(
            sandbox::timeline::movelist::has_commentary(session(&app)),
            "{file}: commentary kept"
        );
        let path = export(&mut app, &format!("carried-{}.{ext}", kind));
        let before = carried(kind, &original);
        let after = carried(kind, &path);
        let missing: Vec<&String> = before.iter().filter(|l| !after.contains(l)).collect();
        assert!(missing.is_empty(), "{file}: lost on export: {missing:?}\nexported: {after:?}");
        assert!(
            before.iter().any(|l| l.starts_with("note ")),
            "{file}: the original has comments or glyphs"
        );
        assert!(before.iter().any(|l| l.starts_with("header ")), "{file}: the original has headers");
    }
    // In the sandbox: the glyphs beside the moves, the comment of the move in view.
    let original = common::root().join("tests/pgn/annotated-opera-game.pgn");
    let mut app = app_with(Session::new(sandbox::session::source::open(original.to_str()).expect("opens")));
    let mut main = sandbox::timeline::movelist::MainLine::default();
    main.update(session(&app));
    let texts: Vec<String> = sandbox::timeline::movelist::rows(session(&app), &main)
        .iter()
        .flat_map(|r| r.entries.iter().map(|e| e.text.clone()))
        .collect();
    for shown in ["Bg4?!", "Qb3!", "b5?", "Qb8+!!"] {
        assert!(texts.iter().any(|t| t == shown), "`{shown}` in the list: {texts:?}");
    }
    assert_eq!(
        sandbox::timeline::movelist::comment_here(session(&app)).as_deref(),
        Some("Played in a box at the opera, during The Barber of Seville."),
        "the game's comment at the start"
    );
    send(&mut app, Replay::To(4));
    assert_eq!(
        sandbox::timeline::movelist::comment_here(session(&app)).as_deref(),
        Some("Philidor's defence.")
    );
    // Into a variation: its moves' comments.
    let queen = session(&app)
        .variations
        .nodes
        .iter()
        .position(|n| n.annotation.comment.as_deref() == Some("the queen is chased"))
        .expect("the nested variation's comment");
    send(&mut app, Replay::Node(sandbox::session::tree::NodeId(queen)));
    assert_eq!(
        sandbox::timeline::movelist::comment_here(session(&app)).as_deref(),
        Some("the queen is chased")
    );
    // An edit starts a timeline of its own: the record's notes go with the old one, and come back
    // with it when the edit is undone.
    send(
        &mut app,
        Apply(Action::Edit(sandbox::session::Edit::SideToMove(arbiter::model::Side::SECOND))),
    );
    assert!(session(&app).record.is_none());
    send(&mut app, Apply(Action::UndoEdit));
    assert!(session(&app).record.is_some());
}

/// Export offers only the format the game's records are kept in, as its ruleset says: PGN for
/// chess and xiangqi (and duck chess, which declares it), SGF for go, none for draughts, hex or
/// othello — whose export is refused with the reason, and no file is written.
#[test]
fn export_offers_only_the_format_the_game_has() {
    use sandbox::session::records::RecordFormat;
    let format = |what: &str| RecordFormat::of(&session(&common::app(what)).engine);
    assert_eq!(format("chess"), Some(RecordFormat::Pgn));
    assert_eq!(format("xiangqi"), Some(RecordFormat::Pgn));
    assert_eq!(format("duck-chess"), Some(RecordFormat::Pgn));
    assert_eq!(format("go"), Some(RecordFormat::Sgf));
    for none in ["draughts", "hex", "othello", "tic-tac-toe"] {
        assert_eq!(format(none), None, "{none}");
    }
    let mut app = common::app("draughts");
    play(&mut app, &["c3d4"]);
    let path = scratch("draughts.pgn");
    send(&mut app, Apply(Action::Export(path.clone())));
    let last = session(&app).log.last().expect("logged");
    assert!(!last.ok && last.said.contains("has no game record format"), "{}", last.said);
    assert!(!path.exists(), "nothing written");
    // The panel's button: greyed, its reason on hover; enabled and named for chess.
    let mut tools = sandbox::session::Tools::default();
    let texts = common::panel_texts(session(&app), &mut tools);
    assert!(texts.iter().any(|(t, _)| t == "Export"), "a greyed Export for draughts");
    assert!(!texts.iter().any(|(t, _)| t.starts_with("Export as")));
    let chess = common::app("chess");
    let texts = common::panel_texts(session(&chess), &mut tools);
    assert!(texts.iter().any(|(t, _)| t == "Export as PGN"));
}
