//! The referee's editor around the board: the palette stays where it was while lines come and go
//! below it (in a low window, scrolled down to reach it), and the armed brush shows and is put down
//! by a second click on it, Esc, a right-click, a click beside the board or leaving the editor.

use arbiter::model::{KindId, Side};
use bevy::prelude::*;
use bevy_egui::egui;
use sandbox::board::input::Button;
use sandbox::session::{Action, Brush, Clicked, Edit, Mode, Session, Tools};

use crate::common;
use common::*;

/// A key pressed and released with Ctrl held (Ctrl is egui's `command` off macOS).
fn ctrl_key(key: egui::Key) -> [egui::Event; 2] {
    let event = |pressed| egui::Event::Key {
        key,
        physical_key: Some(key),
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::COMMAND,
    };
    [event(true), event(false)]
}

fn chess() -> Session {
    Session::new(sandbox::session::source::open(Some("chess")).expect("chess"))
}

#[test]
fn the_palette_stays_put_in_a_low_window_scrolled_down_when_a_refusal_comes_and_goes() {
    let mut session = chess();
    let mut tools = Tools {
        mode: Mode::Edit,
        ..Tools::default()
    };
    tools.arm(Brush::Piece(KindId(1), Side::FIRST));
    let board = session.engine.rules().board.clone();
    // The log full, so a new entry adds no line.
    for _ in 0..8 {
        session.apply(Action::Edit(Edit::SideToMove(Side::FIRST))).expect("an edit");
    }
    // A window as low as 560 pixels: the palette is reached by scrolling the panel down.
    let mut panel = Panel::new(560.0);
    panel.settle(&session, &mut tools);
    panel.scroll_down();
    let scrolled = panel.settle(&session, &mut tools);
    let labels = ["Erase", "Castling:", "Clear board", "Set from FEN", "Copy FEN", "Save as scenario"];
    assert!(at(&scrolled, "Erase").y < 400.0, "scrolled down: the palette came up");
    // An edit refused: its reason appears under the board, where the eye is, inside the window
    // however far the panel is scrolled.
    let e1 = board.parse_square("e1").expect("e1");
    assert!(session.apply(Action::Edit(Edit::Clear(e1))).is_err(), "no king: refused");
    let refused = panel.settle(&session, &mut tools);
    let reason = refused
        .iter()
        .find(|(t, at)| t.contains("refused") && at.x > sandbox::board::layout::PANEL_WIDTH)
        .expect("the reason is shown beside the panel");
    assert!(
        reason.1.y > 280.0 && reason.1.y < 540.0,
        "under the board, in the window: {reason:?}"
    );
    // The next edit passes: the reason goes.
    let d4 = board.parse_square("d4").expect("d4");
    session
        .apply(Action::Edit(Edit::Clear(d4)))
        .expect("emptying an empty square is fine");
    assert!(session.edit_error.is_none());
    let after = panel.settle(&session, &mut tools);
    for label in labels {
        assert_eq!(at(&scrolled, label), at(&refused, label), "`{label}` when the refusal came");
        assert_eq!(at(&scrolled, label), at(&after, label), "`{label}` when the refusal went");
    }
}

#[test]
fn a_second_click_on_the_armed_brush_puts_it_down_and_the_panel_says_which_is_armed() {
    let session = chess();
    let mut tools = Tools {
        mode: Mode::Edit,
        ..Tools::default()
    };
    let mut panel = Panel::new(1000.0);
    let texts = panel.settle(&session, &mut tools);
    assert!(texts.iter().any(|(t, _)| t == "No brush"), "none armed on entering the editor");
    let queen = at(&texts, "♕ Queen") + egui::vec2(4.0, 4.0);
    panel.click(&session, &mut tools, queen);
    assert_eq!(tools.brush, Some(Brush::Piece(KindId(1), Side::FIRST)));
    let texts = panel.settle(&session, &mut tools);
    assert!(
        texts.iter().any(|(t, _)| t.starts_with("Brush: ♕ white's queen")),
        "the armed brush is named: {:?}",
        texts.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
    assert_eq!(at(&texts, "♕ Queen") + egui::vec2(4.0, 4.0), queen, "the palette did not move");
    panel.click(&session, &mut tools, queen);
    assert_eq!(tools.brush, None, "a second click puts it down");
    // Leaving the editor puts an armed brush down too.
    panel.click(&session, &mut tools, queen);
    assert!(tools.brush.is_some());
    let texts = panel.settle(&session, &mut tools);
    panel.click(&session, &mut tools, at(&texts, "Play") + egui::vec2(4.0, 4.0));
    assert_eq!((tools.mode, tools.brush), (Mode::Play, None));
}

/// A bare App with the session's systems, the keyboard and the board's pointer, in the editor.
fn editor_app() -> App {
    let mut app = pointer_app("chess");
    app.init_resource::<ButtonInput<KeyCode>>()
        .add_plugins(sandbox::panel::keys::plugin);
    app.world_mut().resource_mut::<Tools>().mode = Mode::Edit;
    app
}

fn arm(app: &mut App, brush: Brush) {
    app.world_mut().resource_mut::<Tools>().brush = Some(brush);
}

fn brush(app: &App) -> Option<Brush> {
    app.world().resource::<Tools>().brush
}

#[test]
fn esc_a_right_click_or_a_click_beside_the_board_puts_the_brush_down_and_then_clicks_change_nothing() {
    let mut app = editor_app();
    let start = fen(&app);
    // Esc.
    arm(&mut app, Brush::Erase);
    app.world_mut().resource_mut::<ButtonInput<KeyCode>>().press(KeyCode::Escape);
    app.update();
    assert_eq!(brush(&app), None, "Esc puts the brush down");
    // A click on a square with no brush changes nothing, and says why.
    let a2 = app
        .world()
        .resource::<Session>()
        .engine
        .rules()
        .board
        .parse_square("a2")
        .expect("a2");
    app.world_mut().write_message(Clicked(a2));
    app.update();
    assert_eq!(fen(&app), start, "no brush: nothing erased");
    let note = app.world().resource::<Session>().note.clone().expect("a note");
    assert!(note.contains("No brush"), "{note}");
    // A right-click on the board: the brush goes down, and no square is marked.
    arm(&mut app, Brush::Erase);
    pointer(&mut app, Button::Right, true, "a2");
    pointer(&mut app, Button::Right, false, "a2");
    assert_eq!(brush(&app), None, "a right-click puts the brush down");
    assert!(!app.world().resource::<sandbox::session::marks::Marks>().any(), "and marks nothing");
    pointer(&mut app, Button::Left, true, "a2");
    pointer(&mut app, Button::Left, false, "a2");
    assert_eq!(fen(&app), start, "the next left click erases nothing");
    // With the brush armed the same click erases; a click beside the board puts it down.
    arm(&mut app, Brush::Erase);
    pointer(&mut app, Button::Left, true, "a2");
    pointer(&mut app, Button::Left, false, "a2");
    assert_ne!(fen(&app), start, "the armed eraser empties a2");
    app.world_mut().write_message(sandbox::session::ClickedAway);
    app.update();
    assert_eq!(brush(&app), None, "a click beside the board puts it down");
}

#[test]
fn ctrl_v_pastes_into_the_fen_field_and_set_from_fen_asks_for_that_position() {
    let session = chess();
    let mut tools = Tools {
        mode: Mode::Edit,
        ..Tools::default()
    };
    let start = session.game.current().fen();
    let mut panel = Panel::new(1000.0);
    let texts = panel.settle(&session, &mut tools);
    assert_eq!(tools.fen_text, start, "the field shows the position");
    // Click into the field, select all with Ctrl+A, and paste with Ctrl+V: bevy_egui (with its
    // `manage_clipboard` feature) reads the system clipboard on Ctrl+V and hands egui its text as
    // `Event::Text`, after the key event itself. The clipboard's text ends with a newline, as text
    // copied from a terminal or a web page often does.
    let field = at(&texts, &start) + egui::vec2(20.0, 4.0);
    panel.click(&session, &mut tools, field);
    let wanted = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    panel.events.extend(ctrl_key(egui::Key::A));
    panel.events.extend(ctrl_key(egui::Key::V));
    panel.events.push(egui::Event::Text(format!("{wanted}\n")));
    panel.frame(&session, &mut tools);
    assert_eq!(tools.fen_text, wanted, "the clipboard's FEN replaced the field's text, on one line");
    let texts = panel.settle(&session, &mut tools);
    assert_eq!(tools.fen_text, wanted, "and stays there while the position does not change");
    assert!(texts.iter().any(|(t, _)| t == wanted), "the field shows it");
    panel.click(&session, &mut tools, at(&texts, "Set from FEN") + egui::vec2(4.0, 4.0));
    assert_eq!(
        panel.asked.actions,
        vec![Action::Edit(Edit::Fen(wanted.to_string()))],
        "Set from FEN asks for the pasted position"
    );
    // Other integrations send a paste as `Event::Paste`: it lands the same way.
    let texts = panel.settle(&session, &mut tools);
    panel.click(&session, &mut tools, at(&texts, wanted) + egui::vec2(20.0, 4.0));
    panel.events.extend(ctrl_key(egui::Key::A));
    panel.events.push(egui::Event::Paste(start.clone()));
    panel.frame(&session, &mut tools);
    assert_eq!(tools.fen_text, start);
}

/// What bevy_egui's reading of the keys sees of Ctrl, frame by frame.
#[derive(Resource, Default)]
struct SeenCtrl(Vec<bool>);

fn see_ctrl(state: Res<bevy_egui::input::ModifierKeysState>, mut seen: ResMut<SeenCtrl>) {
    seen.0.push(!state.text_input_is_allowed());
}

#[test]
fn a_ctrl_chord_typed_within_one_frame_reaches_egui_as_a_chord_and_ctrl_does_not_stick() {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardFocusLost, KeyboardInput};
    use bevy_egui::EguiInputSet;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_message::<KeyboardInput>()
        .add_message::<KeyboardFocusLost>()
        .init_resource::<bevy_egui::input::ModifierKeysState>()
        .init_resource::<SeenCtrl>()
        .add_systems(
            PreUpdate,
            (
                bevy_egui::input::write_modifiers_keys_state_system.in_set(EguiInputSet::InitReading),
                see_ctrl.in_set(EguiInputSet::ReadBevyMessages),
            ),
        )
        .configure_sets(PreUpdate, (EguiInputSet::InitReading, EguiInputSet::ReadBevyMessages).chain())
        .add_plugins(sandbox::panel::chords::plugin);
    let window = app.world_mut().spawn_empty().id();
    let key = |key_code: KeyCode, logical_key: Key, pressed: bool| KeyboardInput {
        key_code,
        logical_key,
        state: if pressed { ButtonState::Pressed } else { ButtonState::Released },
        text: None,
        repeat: false,
        window,
    };
    let ctrl = |pressed| key(KeyCode::ControlLeft, Key::Control, pressed);
    let v = |pressed| key(KeyCode::KeyV, Key::Character("v".into()), pressed);
    // Ctrl+V, all four messages in one frame.
    app.world_mut().write_message_batch([ctrl(true), v(true), v(false), ctrl(false)]);
    app.update();
    // Then a plain v.
    app.world_mut().write_message_batch([v(true), v(false)]);
    app.update();
    // Ctrl held over two frames, as a slow hand types it.
    app.world_mut().write_message(ctrl(true));
    app.update();
    app.world_mut().write_message_batch([v(true), v(false)]);
    app.update();
    app.world_mut().write_message(ctrl(false));
    app.update();
    app.world_mut().write_message_batch([v(true), v(false)]);
    app.update();
    assert_eq!(
        app.world().resource::<SeenCtrl>().0,
        [true, false, true, true, false, false],
        "the chord in one frame is a chord; Ctrl is up for the plain v after it"
    );
    assert!(!app.world().resource::<bevy_egui::input::ModifierKeysState>().ctrl);
}

/// An edit starts a timeline of its own: the moves played from the edited position are its main
/// line, ← steps back within it (not to the original start), and "Undo edit" brings back the game
/// the edit replaced, moves and all.
#[test]
fn an_edit_starts_a_timeline_of_its_own_and_can_be_undone() {
    let mut app = app("chess");
    for m in ["e2e4", "e7e5"] {
        act(&mut app, Action::Play(m.into()));
    }
    let before = fen(&app);
    act(&mut app, Action::Edit(Edit::Fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".into())));
    for m in ["e2e4", "e8d7", "e1d2"] {
        act(&mut app, Action::Play(m.into()));
    }
    let s = session(&app);
    assert_eq!(s.game.ply(), 3);
    let rows = sandbox::timeline::movelist::rows(s, &sandbox::timeline::movelist::MainLine::of(&s.engine, &s.timeline));
    assert_eq!(
        rows.iter().map(|r| r.text()).collect::<Vec<_>>(),
        ["1. e4 Kd7 2. Kd2"],
        "the moves after the edit are listed"
    );
    // Back three times: the edited position, and no further.
    for _ in 0..4 {
        send(&mut app, sandbox::session::Replay::Back);
    }
    assert_eq!(fen(&app), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    send(&mut app, sandbox::session::Replay::Forward);
    assert_eq!(session(&app).game.ply(), 1, "and forward again along its line");
    // Undone: the game before the edit, at the position it had.
    act(&mut app, Action::UndoEdit);
    assert_eq!(fen(&app), before);
    assert_eq!(session(&app).game.ply(), 2);
    let logged = session(&app).log.last().cloned().expect("logged");
    assert!(logged.ok && logged.said.starts_with("undid the edit"), "{logged:?}");
    act(&mut app, Action::UndoEdit);
    assert!(!session(&app).log.last().is_some_and(|l| l.ok), "nothing left to undo");
}

/// The editor clears the board (the kings stay: the rules need them) and sets the starting
/// position, and says as the FEN field is typed whether the rules accept it.
#[test]
fn clear_board_starting_position_and_the_fen_field_checked_as_it_is_typed() {
    let mut app = app("chess");
    act(&mut app, Action::Play("e2e4".into()));
    let cleared = sandbox::session::editor::cleared_fen(session(&app).game.current());
    assert_eq!(cleared, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    act(&mut app, Action::Edit(Edit::Fen(cleared.clone())));
    assert_eq!(fen(&app), cleared, "accepted by the rules");
    let start = session(&app).engine.start().fen();
    act(&mut app, Action::Edit(Edit::Fen(start)));
    assert_eq!(fen(&app), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // Go has no royal stones: cleared, the board is empty.
    let go = self::app("go");
    assert!(sandbox::session::editor::cleared_fen(session(&go).game.current()).starts_with("19/19/"));

    // The field's line: the board's position, then a refusal as a king goes missing, then a
    // position the rules accept.
    let mut tools = Tools {
        mode: Mode::Edit,
        ..Default::default()
    };
    let mut panel = Panel::new(2000.0);
    let said = |texts: &Texts, start: &str| texts.iter().any(|(t, _)| t.starts_with(start));
    let texts = panel.settle(session(&app), &mut tools);
    assert!(said(&texts, "the position on the board"), "{texts:?}");
    let anchor = at(&texts, "Set from FEN");
    tools.fen_text = "8/8/8/8/8/8/8/4K3 w - - 0 1".into();
    let texts = panel.settle(session(&app), &mut tools);
    assert!(said(&texts, "not a position yet:"), "{texts:?}");
    assert_eq!(at(&texts, "Set from FEN"), anchor, "the buttons stay put");
    tools.fen_text = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".into();
    let texts = panel.settle(session(&app), &mut tools);
    assert!(said(&texts, "a position the rules accept"), "{texts:?}");
}

/// The castling rights and the en-passant square have fields of their own in the editor (where
/// the ruleset castles and takes en passant): typing puts the whole FEN into the FEN field, whose
/// check line says at once what the rules make of it, and Enter sets the position.
#[test]
fn castling_rights_and_the_en_passant_square_are_edited_in_fields_of_their_own() {
    let session = chess();
    let mut tools = Tools {
        mode: Mode::Edit,
        ..Tools::default()
    };
    let mut panel = Panel::new(1200.0);
    let texts = panel.settle(&session, &mut tools);
    let castling = at(&texts, "Castling:");
    assert!(texts.iter().any(|(t, _)| t == "En passant:"), "the en-passant field");
    // The castling field shows the position's rights, right of its label.
    let field = texts
        .iter()
        .find(|(t, at)| t == "KQkq" && (at.y - castling.y).abs() < 6.0)
        .map(|(_, at)| *at)
        .expect("the rights in their field");
    panel.click(&session, &mut tools, field + egui::vec2(10.0, 4.0));
    panel.events.extend(ctrl_key(egui::Key::A));
    panel.events.push(egui::Event::Text("Kq".into()));
    panel.frame(&session, &mut tools);
    let wanted = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1";
    assert_eq!(tools.fen_text, wanted, "the whole FEN with the field changed, for the check line");
    let texts = panel.settle(&session, &mut tools);
    assert!(
        texts.iter().any(|(t, _)| t.starts_with("a position the rules accept")),
        "checked as typed: {:?}",
        texts.iter().map(|t| &t.0).collect::<Vec<_>>()
    );
    let enter = |pressed| egui::Event::Key {
        key: egui::Key::Enter,
        physical_key: Some(egui::Key::Enter),
        pressed,
        repeat: false,
        modifiers: egui::Modifiers::NONE,
    };
    panel.events.extend([enter(true), enter(false)]);
    panel.frame(&session, &mut tools);
    assert_eq!(
        panel.asked.actions,
        vec![Action::Edit(Edit::Fen(wanted.to_string()))],
        "Enter sets it"
    );
    // A right the position cannot have is not set: the check line says why.
    let texts = panel.settle(&session, &mut tools);
    let field = texts
        .iter()
        .find(|(t, at)| t == "Kq" && (at.y - castling.y).abs() < 6.0)
        .map(|(_, at)| *at)
        .expect("the field keeps what was typed");
    panel.click(&session, &mut tools, field + egui::vec2(10.0, 4.0));
    panel.events.extend(ctrl_key(egui::Key::A));
    panel.events.push(egui::Event::Text("Z".into()));
    panel.frame(&session, &mut tools);
    panel.events.extend([enter(true), enter(false)]);
    panel.frame(&session, &mut tools);
    assert!(panel.asked.actions.is_empty(), "refused: {:?}", panel.asked.actions);
    let texts = panel.settle(&session, &mut tools);
    assert!(
        texts.iter().any(|(t, _)| t.starts_with("not a position yet: castling field")),
        "why"
    );
    // Go has neither field.
    let go = Session::new(sandbox::session::source::open(Some("go")).expect("go"));
    let texts = Panel::new(1200.0).settle(&go, &mut tools);
    assert!(!texts.iter().any(|(t, _)| t == "Castling:" || t == "En passant:"));
}
