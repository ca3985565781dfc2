//! Mouse input: a left click on the board becomes a [`Clicked`] message with the square under the
//! cursor, found with the geometry the board was last drawn with ([`BoardLayout`], flipped or not); a
//! click on a piece in a hand (right of the board) becomes [`ClickedHand`], and a click anywhere else
//! [`ClickedAway`]. A piece may also be dragged: the press selects it, the release on another square
//! is the second click (a press on the piece already selected lets it go only if released there); a
//! piece dragged from a hand onto a square is dropped there.
//! The right button draws the trainer's [`Marks`]: a click marks a square, a drag an arrow; a left
//! press clears them; in the editor, while a brush is armed, a right-click puts the brush down
//! instead ([`ClickedAway`]), and so it cancels a turn of several parts being entered. Clicks on the
//! egui panel never reach the board (found by where the cursor was when the button went down, not by
//! egui's state of the last frame, which a quick click outruns), nor do clicks on squares the board
//! leaves out (not drawn).
//!
//! Two steps: the window's buttons and cursor become [`Pointer`] messages in world positions
//! (windowed only), and [`handle_pointer`] turns those into clicks and marks (no window needed).

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use crate::board::BoardLayout;
use crate::session::marks::Marks;
use crate::session::{Clicked, ClickedAway, ClickedHand, Session, Tools};

/// A mouse button pressed or released over the board's world (not over the panel), where.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub struct Pointer {
    pub button: Button,
    pub pressed: bool,
    pub at: Vec2,
}

/// The buttons the board reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    Left,
    Right,
}

/// Where the cursor is while the left button drags the selected piece (`None` otherwise); the
/// board draws the piece there.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct Drag(pub Option<Vec2>);

/// A press under way: where each button went down.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Press {
    /// The square the left button went down on, and whether its click waits for the release
    /// (a press on the piece already selected: let go only if released on it).
    pub left: Option<(usize, bool)>,
    /// The left button went down on a piece in a hand (a drop may follow on the release).
    pub hand: bool,
    /// The square the right button went down on.
    pub right: Option<usize>,
}

/// The cell under world position `at`: a square of the board's grid that is on the board (none
/// over a square the board leaves out, which is not drawn).
pub fn cell_at(layout: &crate::board::layout::Layout, session: &Session, at: Vec2) -> Option<usize> {
    layout.square_at(at).filter(|&sq| session.engine.rules().board.has(sq))
}

/// Where a click at world position `at` lands: a square, a slot of a hand, or neither.
pub fn click_at(layout: &crate::board::layout::Layout, session: &Session, at: Vec2) -> ClickTarget {
    if let Some(sq) = cell_at(layout, session, at) {
        return ClickTarget::Square(sq);
    }
    let kinds = session.hand_kinds();
    match layout.hand_at(at, session.engine.rules().players.len(), kinds.len()) {
        Some((side, i)) => ClickTarget::Hand(ClickedHand { side, kind: kinds[i] }),
        None => ClickTarget::Away,
    }
}

/// What a click hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClickTarget {
    Square(usize),
    Hand(ClickedHand),
    Away,
}

/// Turns presses and releases into clicks, drags and marks (see the module's documentation).
#[allow(clippy::too_many_arguments)]
pub fn handle_pointer(
    mut pointer: MessageReader<Pointer>,
    layout: Res<BoardLayout>,
    session: Res<Session>,
    tools: Option<Res<Tools>>,
    mut press: ResMut<Press>,
    mut drag: ResMut<Drag>,
    mut marks: ResMut<Marks>,
    mut clicks: MessageWriter<Clicked>,
    mut hands: MessageWriter<ClickedHand>,
    mut away: MessageWriter<ClickedAway>,
) {
    for p in pointer.read() {
        let square = cell_at(&layout.0, &session, p.at);
        match (p.button, p.pressed) {
            (Button::Left, true) => {
                if marks.any() {
                    marks.clear();
                }
                press.left = None;
                press.hand = false;
                match click_at(&layout.0, &session, p.at) {
                    // The piece already selected: wait, a drag from it is a move.
                    ClickTarget::Square(sq) if session.selected == Some(sq) => press.left = Some((sq, true)),
                    ClickTarget::Square(sq) => {
                        clicks.write(Clicked(sq));
                        press.left = Some((sq, false));
                    }
                    ClickTarget::Hand(h) => {
                        hands.write(h);
                        press.hand = true;
                    }
                    ClickTarget::Away => {
                        away.write(ClickedAway);
                    }
                }
            }
            (Button::Left, false) => {
                // The drag, if any, ends here (written only when there was one).
                if drag.0.is_some() {
                    drag.0 = None;
                }
                // From a hand onto the board while that piece is selected (or is a pending turn's
                // choice for more than one square): the drop's click.
                let kind_chosen = session.selected_hand.is_some() || session.pending.as_ref().is_some_and(|p| p.kind.is_some());
                if std::mem::take(&mut press.hand)
                    && kind_chosen
                    && let Some(to) = square
                {
                    clicks.write(Clicked(to));
                }
                match (press.left.take(), square) {
                    // Dropped on another square while the piece is selected: the second click.
                    (Some((from, _)), Some(to)) if to != from && session.selected == Some(from) => {
                        clicks.write(Clicked(to));
                    }
                    (Some((from, true)), Some(to)) if to == from => {
                        clicks.write(Clicked(from));
                    }
                    _ => {}
                }
            }
            // An armed brush is put down first, a turn being entered cancelled: the right-click
            // does not mark.
            (Button::Right, true) if tools.as_ref().is_some_and(|t| t.brush.is_some()) || session.pending.is_some() => {
                press.right = None;
                away.write(ClickedAway);
            }
            (Button::Right, true) => press.right = square,
            (Button::Right, false) => match (press.right.take(), square) {
                (Some(a), Some(b)) if a == b => marks.toggle_square(a),
                (Some(a), Some(b)) => marks.toggle_arrow(a, b),
                _ => {}
            },
        }
    }
}

/// The side panel's area in the window's logical pixels, as the panel last laid itself out
/// (written by the panel each frame; none before it is drawn). A press there is the panel's.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub struct PanelArea(pub Option<Rect>);

/// One frame's window events, in the order they happened, as presses and releases of the buttons
/// the board reads, each at the cursor where it happened (logical pixels): a fast drag's press is
/// where the button went down, not where the cursor is when the frame runs. `cursor` carries the
/// position from frame to frame. A press over the interface (`over_ui`: the panel, a window) is
/// left to it — never a click beside the board that cancels a choice or clears marks; a release
/// goes through wherever it is (a drag from the board may end anywhere).
pub fn button_changes<'a>(
    events: impl IntoIterator<Item = &'a bevy::window::WindowEvent>,
    cursor: &mut Option<Vec2>,
    over_ui: impl Fn(Vec2) -> bool,
) -> Vec<(Button, bool, Vec2)> {
    use bevy::input::ButtonState;
    use bevy::window::WindowEvent;
    let mut out = Vec::new();
    for e in events {
        match e {
            WindowEvent::CursorMoved(m) => *cursor = Some(m.position),
            WindowEvent::CursorLeft(_) => *cursor = None,
            WindowEvent::MouseButtonInput(b) => {
                let button = match b.button {
                    MouseButton::Left => Button::Left,
                    MouseButton::Right => Button::Right,
                    _ => continue,
                };
                let Some(at) = *cursor else { continue };
                let pressed = b.state == ButtonState::Pressed;
                if pressed && over_ui(at) {
                    continue;
                }
                out.push((button, pressed, at));
            }
            _ => {}
        }
    }
    out
}

/// The window's left and right buttons as [`Pointer`] messages at the world position of the
/// cursor when each happened ([`button_changes`]); the piece being dragged follows the cursor.
#[allow(clippy::too_many_arguments)]
fn read_mouse(
    mut events: MessageReader<bevy::window::WindowEvent>,
    mut cursor: Local<Option<Vec2>>,
    panel: Res<PanelArea>,
    mut contexts: bevy_egui::EguiContexts,
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    press: Res<Press>,
    mut drag: ResMut<Drag>,
    mut pointer: MessageWriter<Pointer>,
) {
    let (camera, at) = *camera;
    let world = |p: Vec2| camera.viewport_to_world_2d(at, p).ok();
    // An egui window (Simulate's, a rule error's pane) over the board takes its presses too.
    let windows = contexts.ctx_mut().ok().cloned();
    let over_ui = |p: Vec2| {
        panel.0.is_some_and(|r| r.contains(p))
            || windows.as_ref().is_some_and(|ctx| {
                ctx.layer_id_at(bevy_egui::egui::pos2(p.x, p.y))
                    .is_some_and(|l| l.order != bevy_egui::egui::Order::Background)
            })
    };
    for (button, pressed, p) in button_changes(events.read(), &mut cursor, over_ui) {
        if let Some(at) = world(p) {
            pointer.write(Pointer { button, pressed, at });
        }
    }
    // The left button held since a press on a square: the piece follows (written only on a move).
    let held = buttons.pressed(MouseButton::Left) && !buttons.just_pressed(MouseButton::Left) && press.left.is_some();
    let now = window.cursor_position().filter(|_| held).and_then(world);
    if drag.0 != now {
        drag.0 = now;
    }
}

/// [`Pointer`] messages turned into clicks and marks ([`handle_pointer`]); no window needed.
pub fn pointer_plugin(app: &mut App) {
    app.add_message::<Pointer>()
        .init_resource::<Press>()
        .init_resource::<Drag>()
        .init_resource::<Marks>()
        .add_systems(PreUpdate, handle_pointer.run_if(resource_exists::<BoardLayout>));
}

/// Turns the window's mouse buttons into [`Clicked`], [`ClickedHand`] and [`ClickedAway`] messages
/// and the trainer's marks (windowed mode only).
pub fn plugin(app: &mut App) {
    app.add_plugins(pointer_plugin)
        .init_resource::<PanelArea>()
        .add_systems(PreUpdate, read_mouse.before(handle_pointer).after(bevy::input::InputSystems));
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::input::ButtonState;
    use bevy::input::mouse::MouseButtonInput;
    use bevy::window::{CursorMoved, WindowEvent};

    fn moved(x: f32, y: f32) -> WindowEvent {
        WindowEvent::CursorMoved(CursorMoved {
            window: Entity::PLACEHOLDER,
            position: Vec2::new(x, y),
            delta: None,
        })
    }

    fn button(button: MouseButton, pressed: bool) -> WindowEvent {
        WindowEvent::MouseButtonInput(MouseButtonInput {
            button,
            state: if pressed { ButtonState::Pressed } else { ButtonState::Released },
            window: Entity::PLACEHOLDER,
        })
    }

    /// The panel: the window's left 320 pixels.
    fn panel(p: Vec2) -> bool {
        p.x < 320.0
    }

    #[test]
    fn a_press_on_the_panel_is_the_panel_s_even_in_the_frame_the_cursor_arrived() {
        // The cursor jumps onto a button and clicks within one frame (as xdotool and quick hands
        // do): egui has not seen it there yet, but the press is still not the board's.
        let mut cursor = Some(Vec2::new(700.0, 300.0));
        let events = [
            moved(100.0, 200.0),
            button(MouseButton::Left, true),
            button(MouseButton::Left, false),
        ];
        let got = button_changes(&events, &mut cursor, panel);
        assert_eq!(
            got,
            vec![(Button::Left, false, Vec2::new(100.0, 200.0))],
            "only the release, which clicks nothing"
        );
        let events = [button(MouseButton::Right, true)];
        assert!(button_changes(&events, &mut cursor, panel).is_empty());
    }

    #[test]
    fn a_fast_drag_is_read_where_each_button_change_happened() {
        let mut cursor = None;
        let events = [
            moved(500.0, 500.0),
            button(MouseButton::Left, true),
            moved(560.0, 440.0),
            moved(620.0, 380.0),
            button(MouseButton::Left, false),
            moved(900.0, 100.0),
        ];
        let got = button_changes(&events, &mut cursor, panel);
        assert_eq!(
            got,
            vec![
                (Button::Left, true, Vec2::new(500.0, 500.0)),
                (Button::Left, false, Vec2::new(620.0, 380.0))
            ]
        );
        assert_eq!(cursor, Some(Vec2::new(900.0, 100.0)), "the cursor carries over to the next frame");
    }

    #[test]
    fn buttons_without_a_known_cursor_or_of_other_kinds_are_ignored() {
        let mut cursor = None;
        let events = [
            button(MouseButton::Left, true),
            moved(600.0, 300.0),
            button(MouseButton::Middle, true),
        ];
        assert!(button_changes(&events, &mut cursor, panel).is_empty());
        let events = [
            WindowEvent::CursorLeft(bevy::window::CursorLeft {
                window: Entity::PLACEHOLDER,
            }),
            button(MouseButton::Left, true),
        ];
        assert!(button_changes(&events, &mut cursor, panel).is_empty(), "the cursor left the window");
    }
}
