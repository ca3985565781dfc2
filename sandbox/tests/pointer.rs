//! The board's pointer in a bare `App` (no window): drag-and-drop moves beside click-click (from a
//! hand too), and the
//! trainer's marks — a right-click marks a square, a right-drag draws an arrow, a second one removes
//! it, a left press or a move clears them — saved with a caption in a scenario that loads back with them.

use bevy::prelude::*;
use sandbox::board::BoardLayout;
use sandbox::board::input::{Button, Pointer};
use sandbox::session::marks::Marks;
use sandbox::session::{Action, Apply, Session, Tools};

use crate::common;
use common::*;

fn marks(app: &App) -> &Marks {
    app.world().resource::<Marks>()
}

fn drag(app: &mut App, button: Button, from: &str, to: &str) {
    pointer(app, button, true, from);
    pointer(app, button, false, to);
}

fn piece_on(app: &App, name: &str) -> Option<String> {
    let s = session(app);
    let (kind, _) = s.game.current().piece_at(square(app, name))?;
    Some(s.engine.rules().kind(kind).name.clone())
}

#[test]
fn a_piece_dragged_to_a_target_moves_there() {
    let mut app = pointer_app("chess");
    pointer(&mut app, Button::Left, true, "e2");
    assert_eq!(session(&app).selected, Some(square(&app, "e2")), "the press selects");
    pointer(&mut app, Button::Left, false, "e4");
    assert_eq!(session(&app).game.ply(), 1, "the release on a target plays");
    assert_eq!(piece_on(&app, "e4").as_deref(), Some("Pawn"));
    // Click-click still works: a press and release on one square, then on another.
    drag(&mut app, Button::Left, "e7", "e7");
    assert_eq!(
        session(&app).selected,
        Some(square(&app, "e7")),
        "released where pressed: still selected"
    );
    drag(&mut app, Button::Left, "e5", "e5");
    assert_eq!(session(&app).game.ply(), 2);
    assert_eq!(piece_on(&app, "e5").as_deref(), Some("Pawn"));
}

#[test]
fn a_selected_piece_dragged_moves_and_clicked_again_is_let_go() {
    let mut app = pointer_app("chess");
    drag(&mut app, Button::Left, "g1", "g1");
    assert_eq!(session(&app).selected, Some(square(&app, "g1")));
    // Pressed again and dragged: a move, not a let-go followed by nothing.
    drag(&mut app, Button::Left, "g1", "f3");
    assert_eq!(piece_on(&app, "f3").as_deref(), Some("Knight"));
    drag(&mut app, Button::Left, "b8", "b8");
    drag(&mut app, Button::Left, "b8", "b8");
    assert_eq!(session(&app).selected, None, "a second click on the selected piece lets it go");
    // A drag to a square it cannot reach is refused with the interpreter's ruling.
    drag(&mut app, Button::Left, "b8", "b5");
    assert_eq!(session(&app).game.ply(), 1);
    assert!(session(&app).refusal.is_some(), "b8-b5 is judged and refused");
}

#[test]
fn right_clicks_mark_squares_right_drags_draw_arrows_and_a_left_press_or_a_move_clears_them() {
    let mut app = pointer_app("chess");
    let (e4, d5, g1, f3) = (square(&app, "e4"), square(&app, "d5"), square(&app, "g1"), square(&app, "f3"));
    drag(&mut app, Button::Right, "e4", "e4");
    drag(&mut app, Button::Right, "g1", "f3");
    drag(&mut app, Button::Right, "d5", "d5");
    assert_eq!(
        (marks(&app).squares.clone(), marks(&app).arrows.clone()),
        (vec![e4, d5], vec![(g1, f3)])
    );
    drag(&mut app, Button::Right, "d5", "d5");
    drag(&mut app, Button::Right, "g1", "f3");
    assert_eq!(
        (marks(&app).squares.clone(), marks(&app).arrows.clone()),
        (vec![e4], vec![]),
        "toggled off"
    );
    assert_eq!(session(&app).selected, None, "the right button never selects");
    pointer(&mut app, Button::Left, true, "a4");
    assert!(!marks(&app).any(), "a left press clears the marks");
    pointer(&mut app, Button::Left, false, "a4");
    drag(&mut app, Button::Right, "g1", "f3");
    app.world_mut().write_message(Apply(Action::Play("e2e4".into())));
    app.update();
    app.update();
    assert!(!marks(&app).any(), "a move clears them");
}

#[test]
fn a_caption_and_marks_are_saved_in_the_scenario_and_load_back_with_it() {
    let mut app = pointer_app("chess");
    app.world_mut().write_message(Apply(Action::Play("e2e4".into())));
    app.update();
    drag(&mut app, Button::Right, "d7", "d5");
    drag(&mut app, Button::Right, "e4", "e4");
    app.world_mut().resource_mut::<Marks>().caption = "Black strikes \"back\" in the centre".into();
    let dir = temp_dir("caption");
    let _ = std::fs::remove_dir_all(&dir);
    let path = dir.join("marks.ron");
    let saved = sandbox::session::editor::save_scenario(session(&app), marks(&app), &path).expect("saved and passing");
    let text = std::fs::read_to_string(&saved).expect("the file");
    assert!(
        text.contains("highlight: [\"e4\"]") && text.contains("arrows: [(\"d7\", \"d5\")]"),
        "{text}"
    );
    let opened = sandbox::session::source::open(saved.to_str()).expect("the saved scenario opens");
    let back = Session::new(opened);
    let last = back.timeline.last().expect("a step");
    let board = &back.engine.rules().board;
    let name = |sq: usize| board.name(sq);
    assert_eq!(last.caption.as_deref(), Some("Black strikes \"back\" in the centre"));
    assert_eq!(last.highlight.iter().map(|&s| name(s)).collect::<Vec<_>>(), ["e4"]);
    assert_eq!(
        last.arrows.iter().map(|&(a, b)| (name(a), name(b))).collect::<Vec<_>>(),
        [("d7".to_string(), "d5".to_string())]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_piece_dragged_from_the_hand_onto_a_square_is_dropped_there() {
    let mut app = pointer_app("crazyhouse");
    app.world_mut().write_message(Apply(Action::Edit(sandbox::session::Edit::Fen(
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R[Pn] w KQkq - 0 5".into(),
    ))));
    app.update();
    let pawn = {
        let s = session(&app);
        let rules = s.engine.rules();
        s.hand_kinds()
            .into_iter()
            .find(|&k| rules.kind(k).name == "Pawn")
            .expect("pawns may be dropped")
    };
    let slot = session(&app).hand_kinds().iter().position(|&k| k == pawn).expect("a slot");
    let at = app.world().resource::<BoardLayout>().0.hand_slot(arbiter::model::Side::FIRST, slot);
    app.world_mut().write_message(Pointer {
        button: Button::Left,
        pressed: true,
        at,
    });
    app.update();
    assert_eq!(session(&app).selected_hand, Some(pawn), "the press picks the pawn up");
    pointer(&mut app, Button::Left, false, "e4");
    assert_eq!(session(&app).game.ply(), 1, "the release on e4 drops it");
    assert_eq!(piece_on(&app, "e4").as_deref(), Some("Pawn"));
}

/// Saving the scenario keeps the marks on the board (they go with a change of position, a left
/// click on the board or "Clear marks"), and the saved file has them.
#[test]
fn saving_keeps_the_marks_and_clear_marks_takes_them_off() {
    let mut app = pointer_app("chess");
    let (e4, g1, f3) = (square(&app, "e4"), square(&app, "g1"), square(&app, "f3"));
    drag(&mut app, Button::Right, "e4", "e4");
    drag(&mut app, Button::Right, "g1", "f3");
    let dir = temp_dir("keep-marks");
    let path = dir.join("marked.ron");
    let mut saved = marks(&app).clone();
    saved.caption = "the knight comes out".into();
    app.world_mut().write_message(Apply(Action::Save(path.clone(), saved)));
    app.update();
    app.update();
    assert!(session(&app).log.last().is_some_and(|l| l.ok), "{:?}", session(&app).log.last());
    assert_eq!(
        (marks(&app).squares.clone(), marks(&app).arrows.clone()),
        (vec![e4], vec![(g1, f3)]),
        "still on the board after saving"
    );
    let text = std::fs::read_to_string(&path).expect("saved");
    assert!(text.contains("the knight comes out") && text.contains("e4"), "{text}");

    // The panel's "Clear marks" asks for them to go; it is greyed out when there are none.
    let mut panel = Panel::new(2000.0);
    panel.marks = marks(&app).clone();
    let mut tools = Tools::default();
    let texts = panel.settle(session(&app), &mut tools);
    let button = at(&texts, "Clear marks");
    panel.click(session(&app), &mut tools, button);
    assert!(panel.asked.clear_marks, "the click asks for the marks to go");
}
