//! Navigation in a bare `App`: the variation tree (moves by hand kept as branches, ↑/↓ between
//! variations, promoting and deleting), a reload that refuses a move keeping the line, and steps
//! that play or undo only the moves between two positions (a 300-move record).

use bevy::prelude::*;
use sandbox::session::{Action, Replay};

use crate::common;
use common::*;

#[test]
fn moves_by_hand_stay_in_the_tree_through_steps_jumps_and_list_clicks() {
    let mut app = file("tests/pgn/opera-game.pgn");
    send(&mut app, Replay::To(2));
    // 1. e4 e5 in the record; 2. d4 instead of Nf3, then ...exd4.
    act(&mut app, Action::Play("d2d4".into()));
    act(&mut app, Action::Play("e5d4".into()));
    let deep = fen(&app);
    let s = session(&app);
    let node = s.node.expect("a branch");
    assert_eq!(s.variations.roots(2).len(), 1);
    assert_eq!(s.variations.line(node), ["d2d4", "e5d4"]);
    // A step, a jump and a list click leave the branch in the tree.
    send(&mut app, Replay::Back);
    assert_eq!(
        session(&app).variations.depth(session(&app).node.expect("in the branch")),
        1,
        "one move back"
    );
    send(&mut app, Replay::To(10));
    send(&mut app, Replay::Last);
    assert_eq!(session(&app).node, None);
    send(&mut app, Replay::Node(node));
    assert_eq!(fen(&app), deep, "the branch is found again");
    assert_eq!(session(&app).step, 2);
    // The record's move played by hand follows the main line rather than branching.
    send(&mut app, Replay::To(2));
    act(&mut app, Action::Play("g1f3".into()));
    let s = session(&app);
    assert_eq!((s.step, s.node, s.off_script), (3, None, 0));
    assert_eq!(s.variations.roots(2).len(), 1, "no new branch");
    // Forward walks into the branch when on it; back out to the step it left.
    let d4 = s.variations.roots(2)[0];
    send(&mut app, Replay::Node(d4));
    send(&mut app, Replay::Forward);
    assert_eq!(fen(&app), deep);
    send(&mut app, Replay::Back);
    send(&mut app, Replay::Back);
    let s = session(&app);
    assert_eq!((s.step, s.node), (2, None));
}

#[test]
fn up_and_down_move_between_the_main_line_and_its_variations() {
    let mut app = file("tests/pgn/opera-game.pgn");
    send(&mut app, Replay::To(2));
    act(&mut app, Action::Play("d2d4".into()));
    send(&mut app, Replay::To(2));
    act(&mut app, Action::Play("f1c4".into()));
    let bc4 = session(&app).node.expect("a branch");
    send(&mut app, Replay::To(3));
    let main = fen(&app);
    send(&mut app, Replay::Down);
    let d4 = session(&app).node.expect("the first variation");
    assert_eq!(session(&app).variations.line(d4), ["d2d4"]);
    send(&mut app, Replay::Down);
    assert_eq!(session(&app).node, Some(bc4));
    send(&mut app, Replay::Down);
    assert_eq!(session(&app).node, Some(bc4), "no variation below the last");
    send(&mut app, Replay::Up);
    send(&mut app, Replay::Up);
    assert_eq!(fen(&app), main);
    assert_eq!(session(&app).step, 3);
    // Inside a branch, between the moves played from the same position.
    send(&mut app, Replay::Node(d4));
    act(&mut app, Action::Play("e5d4".into()));
    send(&mut app, Replay::Back);
    act(&mut app, Action::Play("b8c6".into()));
    let nc6 = session(&app).node.expect("a second reply");
    send(&mut app, Replay::Up);
    assert_eq!(session(&app).variations.line(session(&app).node.expect("node")), ["d2d4", "e5d4"]);
    send(&mut app, Replay::Down);
    assert_eq!(session(&app).node, Some(nc6));
}

#[test]
fn a_variation_is_deleted_or_promoted_to_the_main_line() {
    let mut app = file("tests/pgn/opera-game.pgn");
    let record_len = session(&app).timeline.len();
    send(&mut app, Replay::To(2));
    act(&mut app, Action::Play("d2d4".into()));
    act(&mut app, Action::Play("e5d4".into()));
    let exd4 = session(&app).node.expect("a branch");
    let deep = fen(&app);
    send(&mut app, Replay::To(2));
    act(&mut app, Action::Play("f1c4".into()));
    let bc4 = session(&app).node.expect("another branch");
    // Deleting the branch we are in goes back to where it started.
    act(&mut app, Action::Delete(bc4));
    let s = session(&app);
    assert_eq!((s.step, s.node), (2, None));
    assert_eq!(s.variations.roots(2).len(), 1);
    // Promoting: the branch's moves become steps 3 and 4, the record's moves after step 2 a branch.
    act(&mut app, Action::Promote(exd4));
    let s = session(&app);
    assert!(s.log.last().expect("logged").ok, "{:?}", s.log.last());
    assert_eq!(s.timeline.len(), 5);
    assert_eq!(s.timeline[4].fen, deep);
    assert_eq!((s.step, s.node), (4, None));
    let old = s.variations.roots(2);
    assert_eq!(old.len(), 1);
    let mut depth = 0;
    let mut at = Some(old[0]);
    while let Some(n) = at {
        depth += 1;
        at = s.variations.children(2, Some(n)).first().copied();
    }
    assert_eq!(depth, record_len - 3, "the record's moves after step 2 are kept as a branch");
}

#[test]
fn a_reload_that_refuses_a_move_by_hand_keeps_it_and_what_follows_in_the_tree() {
    let dir = temp_dir("reload");
    std::fs::create_dir_all(&dir).expect("a folder");
    let path = dir.join("chess.rules");
    let original = std::fs::read_to_string(root().join("rulesets/chess.rules")).expect("chess.rules");
    std::fs::write(&path, &original).expect("written");
    let mut app = app(path.to_str().expect("UTF-8"));
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        act(&mut app, Action::Play(m.into()));
    }
    let knight = original.lines().find(|l| l.starts_with("piece Knight")).expect("the knight");
    std::fs::write(
        &path,
        original.replace(knight, "piece Knight \"N\" { step forward to empty [3.6] }"),
    )
    .expect("written");
    act(&mut app, Action::Reload);
    let s = session(&app);
    assert_eq!(s.broken.as_ref().map(|b| b.ply), Some(3));
    assert_eq!(s.game.ply(), 2);
    let at = s.node.expect("the last move the new rules allow");
    let refused = s.variations.children(0, Some(at));
    assert_eq!(refused.len(), 1, "the refused move stays in the tree");
    assert_eq!(s.variations.node(refused[0]).map(|n| n.written.as_str()), Some("Nf3"));
    // Under the new rules it cannot be played; fixed again, the whole line comes back.
    send(&mut app, Replay::Forward);
    assert_eq!(session(&app).game.ply(), 2);
    std::fs::write(&path, &original).expect("restored");
    act(&mut app, Action::Reload);
    send(&mut app, Replay::Forward);
    send(&mut app, Replay::Forward);
    assert_eq!(session(&app).game.ply(), 4, "Nf3 and Nc6 were not dropped");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn steps_in_a_300_move_record_play_or_undo_only_the_moves_between() {
    let mut app = file("tests/go/random-300-19x19.sgf");
    let last = session(&app).timeline.len() - 1;
    assert_eq!(last, 300);
    send(&mut app, Replay::Last);
    assert_eq!(session(&app).game.ply(), 300);
    send(&mut app, Replay::Back);
    assert_eq!((session(&app).step, session(&app).replayed), (299, 1), "one move undone, no replay");
    assert_eq!(fen(&app), session(&app).timeline[299].fen);
    send(&mut app, Replay::Forward);
    assert_eq!((session(&app).step, session(&app).replayed), (300, 1));
    send(&mut app, Replay::To(290));
    assert_eq!(session(&app).replayed, 10);
    assert_eq!(fen(&app), session(&app).timeline[290].fen);
    // A move by hand and back again: one move each way.
    let pos = session(&app).game.current().clone();
    let m = pos
        .legal_moves()
        .into_iter()
        .find(|m| arbiter::notation::uci::to_text(&pos, *m) != session(&app).timeline[291].played[0])
        .expect("a move");
    act(&mut app, Action::Play(arbiter::notation::uci::to_text(&pos, m)));
    send(&mut app, Replay::Back);
    assert_eq!((session(&app).step, session(&app).replayed), (290, 1));
    send(&mut app, Replay::Forward);
    assert_eq!((session(&app).step, session(&app).replayed), (291, 1));
    assert_eq!(session(&app).game.ply(), 291);
}

fn list(app: &App) -> Vec<sandbox::timeline::movelist::Row> {
    let s = session(app);
    let mut main = sandbox::timeline::movelist::MainLine::default();
    main.update(s);
    sandbox::timeline::movelist::rows(s, &main)
}

#[test]
fn the_move_list_is_in_the_rulesets_notation_numbered_per_move_pair_with_variations_after_their_move() {
    let mut app = file("tests/pgn/opera-game.pgn");
    let rows = list(&app);
    let texts: Vec<String> = rows.iter().map(|r| r.text()).collect();
    assert_eq!(texts[0], "1. e4 e5");
    assert_eq!(texts[1], "2. Nf3 d6");
    send(&mut app, Replay::To(2));
    act(&mut app, Action::Play("d2d4".into()));
    act(&mut app, Action::Play("e5d4".into()));
    let rows = list(&app);
    let texts: Vec<String> = rows.iter().map(|r| r.text()).collect();
    // The variation replaces 2. Nf3: it follows that move, and the pair starts again after it.
    assert_eq!(&texts[1..4], ["2. Nf3", "2. d4 exd4", "2... d6"], "{texts:?}");
    assert_eq!(rows[2].depth, 1);
    assert!(rows[2].entries[1].current, "the current move is marked");
    assert_eq!(
        sandbox::timeline::movelist::last_move_written(session(&app)).as_deref(),
        Some("exd4")
    );
}

#[test]
fn a_scenarios_steps_are_rows_with_their_captions_whole() {
    let app = file("scenarios/chess/checkmate-fools-mate.ron");
    let rows = list(&app);
    assert_eq!(rows.len(), session(&app).timeline.len());
    assert!(rows.iter().all(|r| r.entries.len() == 1 && r.entries[0].number.is_some()));
    for (row, frame) in rows.iter().zip(&session(&app).timeline).skip(1) {
        if frame.played.is_empty()
            && let Some(c) = &frame.caption
        {
            assert_eq!(&row.entries[0].text, c, "the caption is not cut");
        }
    }
}

#[test]
fn the_move_list_scrolls_to_the_current_move() {
    let mut app = file("tests/go/random-300-19x19.sgf");
    send(&mut app, Replay::Last);
    let rows = list(&app);
    assert!(rows.iter().flat_map(|r| &r.entries).any(|e| e.current));
    let ctx = bevy_egui::egui::Context::default();
    let mut shown = None;
    for frame in 0..3 {
        // A second between frames: the scroll animation has ended by the next one.
        let input = bevy_egui::egui::RawInput {
            time: Some(frame as f64),
            screen_rect: Some(bevy_egui::egui::Rect::from_min_size(
                Default::default(),
                bevy_egui::egui::vec2(320.0, 600.0),
            )),
            ..Default::default()
        };
        let mut out = ctx.run_ui(input, |ui| {
            shown = Some(sandbox::timeline::movelist::show(ui, &rows, 150.0, true, false));
        });
        out.textures_delta.clear();
    }
    let shown = shown.expect("drawn");
    let current = shown.current.expect("the current move is drawn");
    assert!(
        shown.visible.contains(current.center()),
        "move 300 at {current:?} is inside the visible list {:?}",
        shown.visible
    );
}

/// An app with a keyboard: the session's systems and the key reader.
fn keyboard_app(rel: &str) -> App {
    let mut app = file(rel);
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<sandbox::board::layout::View>()
        .add_plugins(sandbox::panel::keys::plugin);
    app
}

fn press(app: &mut App, keys: &[KeyCode]) {
    {
        let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
        for &k in keys {
            input.press(k);
        }
    }
    app.update();
    let mut input = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    input.release_all();
    input.clear();
}

#[test]
fn the_keyboard_steps_jumps_flips_cancels_takes_back_and_plays() {
    let mut app = keyboard_app("tests/pgn/opera-game.pgn");
    let last = session(&app).timeline.len() - 1;
    press(&mut app, &[KeyCode::End]);
    assert_eq!(session(&app).step, last);
    press(&mut app, &[KeyCode::ArrowLeft]);
    press(&mut app, &[KeyCode::ArrowLeft]);
    assert_eq!(session(&app).step, last - 2);
    press(&mut app, &[KeyCode::ArrowRight]);
    assert_eq!(session(&app).step, last - 1);
    press(&mut app, &[KeyCode::Home]);
    assert_eq!(session(&app).step, 0);
    // ↓ at a branch point goes into the variation, ↑ back to the main line.
    act(&mut app, Action::Play("d2d4".into()));
    send(&mut app, Replay::To(1));
    press(&mut app, &[KeyCode::ArrowDown]);
    assert_eq!(session(&app).variations.line(session(&app).node.expect("the variation")), ["d2d4"]);
    press(&mut app, &[KeyCode::ArrowUp]);
    assert_eq!((session(&app).step, session(&app).node), (1, None));
    press(&mut app, &[KeyCode::KeyF]);
    assert!(app.world().resource::<sandbox::board::layout::View>().flipped);
    // Esc lets a selection go; Ctrl+Z takes back (a plain Z does nothing).
    let e5 = session(&app).engine.rules().board.parse_square("e7").expect("e7");
    send(&mut app, sandbox::session::Clicked(e5));
    assert!(session(&app).selected.is_some());
    press(&mut app, &[KeyCode::Escape]);
    assert!(session(&app).selected.is_none());
    press(&mut app, &[KeyCode::KeyZ]);
    assert_eq!(session(&app).game.ply(), 1);
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_eq!(session(&app).game.ply(), 0);
    press(&mut app, &[KeyCode::Space]);
    assert!(app.world().resource::<sandbox::timeline::replay::Autoplay>().playing);
    press(&mut app, &[KeyCode::Space]);
    assert!(!app.world().resource::<sandbox::timeline::replay::Autoplay>().playing);
}

/// Moves played from a bare ruleset are the main line, numbered per move pair (`1. Nf3 Nf6
/// 2. g3`), not a variation of "0. start" numbered per ply; a second line from the start is its
/// variation.
#[test]
fn moves_from_a_bare_ruleset_are_the_main_line_numbered_per_move_pair() {
    let mut app = app("chess");
    for m in ["g1f3", "g8f6", "g2g3"] {
        act(&mut app, Action::Play(m.into()));
    }
    let rows = |app: &App| {
        let s = session(app);
        sandbox::timeline::movelist::rows(s, &sandbox::timeline::movelist::MainLine::of(&s.engine, &s.timeline))
    };
    let now = rows(&app);
    assert_eq!(
        now.iter().map(|r| (r.depth, r.text())).collect::<Vec<_>>(),
        vec![(0, "1. Nf3 Nf6 2. g3".to_string())]
    );
    // Back to the start and another first move: a variation, numbered the same way.
    for _ in 0..3 {
        send(&mut app, Replay::Back);
    }
    act(&mut app, Action::Play("e2e4".into()));
    act(&mut app, Action::Play("e7e5".into()));
    let now = rows(&app);
    assert_eq!(
        now.iter().map(|r| (r.depth, r.text())).collect::<Vec<_>>(),
        vec![(0, "1. Nf3 Nf6 2. g3".to_string()), (1, "1. e4 e5".to_string())]
    );
}

/// Delete takes a variation away and Undo delete brings it back, where it was, moves and all.
#[test]
fn a_deleted_variation_comes_back_with_undo_delete() {
    let mut app = app("chess");
    for m in ["e2e4", "e7e5", "g1f3"] {
        act(&mut app, Action::Play(m.into()));
    }
    send(&mut app, Replay::Back);
    send(&mut app, Replay::Back);
    for m in ["c7c5", "g1f3", "d7d6"] {
        act(&mut app, Action::Play(m.into()));
    }
    let rows = |app: &App| {
        let s = session(app);
        sandbox::timeline::movelist::rows(s, &sandbox::timeline::movelist::MainLine::of(&s.engine, &s.timeline))
            .iter()
            .map(|r| r.text())
            .collect::<Vec<_>>()
    };
    let with = rows(&app);
    assert_eq!(with.len(), 2, "{with:?}");
    let node = session(&app).node.expect("in the variation");
    let first = session(&app).variations.path(node)[1];
    act(&mut app, Action::Delete(first));
    assert_eq!(rows(&app).len(), 1, "deleted");
    act(&mut app, Action::UndoDelete);
    assert_eq!(rows(&app), with, "back as it was");
    act(&mut app, Action::UndoDelete);
    assert!(!session(&app).log.last().is_some_and(|l| l.ok), "nothing left to bring back");
}

/// Home (the start) scrolls the move list back to its top, though the start has no entry of its
/// own to scroll to.
#[test]
fn home_scrolls_the_move_list_to_its_top() {
    let mut app = file("tests/go/random-300-19x19.sgf");
    send(&mut app, Replay::Last);
    let mut tools = sandbox::session::Tools::default();
    let mut panel = Panel::new(800.0);
    let at_end = panel.settle(session(&app), &mut tools);
    // What is scrolled out of sight is not drawn.
    assert!(!at_end.iter().any(|(t, _)| t == "1."), "at the end, the first move is out of sight");
    send(&mut app, Replay::First);
    let at_start = panel.settle(session(&app), &mut tools);
    assert!(at_start.iter().any(|(t, _)| t == "1."), "Home shows the list's top");
}

/// `?` (or F1, or the panel's `?` button) shows the shortcut sheet: every key the sandbox reads,
/// with what it does; again hides it.
#[test]
fn the_shortcut_sheet_lists_every_key_and_comes_and_goes_with_question_mark() {
    let mut app = keyboard_app("tests/pgn/opera-game.pgn");
    app.init_resource::<sandbox::session::Tools>();
    press(&mut app, &[KeyCode::ShiftLeft, KeyCode::Slash]);
    assert!(app.world().resource::<sandbox::session::Tools>().help, "? shows it");
    let mut tools = app.world().resource::<sandbox::session::Tools>().clone();
    let mut panel = Panel::new(800.0);
    let texts = panel.settle(session(&app), &mut tools);
    assert!(texts.iter().any(|(t, _)| t == "Shortcuts"), "the sheet's title");
    for (key, what) in sandbox::panel::keys::SHEET {
        assert!(
            texts.iter().any(|(t, _)| t == key) && texts.iter().any(|(t, _)| t == what),
            "{key}: {what}"
        );
    }
    // Every key the keyboard reads is on the sheet.
    for (code, name) in [
        (KeyCode::ArrowLeft, "←"),
        (KeyCode::Home, "Home"),
        (KeyCode::ArrowUp, "↑"),
        (KeyCode::Space, "Space"),
        (KeyCode::KeyF, "F"),
        (KeyCode::Escape, "Esc"),
        (KeyCode::F1, "F1"),
    ] {
        assert!(sandbox::panel::keys::command(code, false).is_some(), "{code:?} does something");
        assert!(
            sandbox::panel::keys::SHEET
                .iter()
                .any(|(k, _)| k.split(" / ").chain(k.split(" or ")).any(|p| p == name)),
            "{name} on the sheet"
        );
    }
    press(&mut app, &[KeyCode::F1]);
    assert!(!app.world().resource::<sandbox::session::Tools>().help, "F1 hides it");
}
