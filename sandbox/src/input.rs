//! Mouse input: a left click on the board becomes a [`Clicked`] message with the square under the
//! cursor, found with the geometry the board was last drawn with ([`BoardLayout`], flipped or not); a
//! click on a piece in a hand (right of the board) becomes [`ClickedHand`], and a click anywhere else
//! [`ClickedAway`]. A piece may also be dragged: the press selects it, the release on another square
//! is the second click (a press on the piece already selected lets it go only if released there); a
//! piece dragged from a hand onto a square is dropped there.
//! The right button draws the trainer's [`Marks`]: a click marks a square, a drag an arrow; a left
//! press clears them; in the editor, while a brush is armed, a right-click puts the brush down
//! instead ([`ClickedAway`]), and so it cancels a turn of several parts being entered. Clicks on the
//! egui panel never reach the board, nor do clicks on squares the board leaves out (not drawn).
//!
//! Two steps: the window's buttons and cursor become [`Pointer`] messages in world positions
//! (windowed only), and [`handle_pointer`] turns those into clicks and marks (no window needed).

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::egui_wants_any_pointer_input;

use crate::board::BoardLayout;
use crate::marks::Marks;
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
pub fn cell_at(layout: &crate::layout::Layout, session: &Session, at: Vec2) -> Option<usize> {
    layout.square_at(at).filter(|&sq| session.engine.rules().board.has(sq))
}

/// Where a click at world position `at` lands: a square, a slot of a hand, or neither.
pub fn click_at(layout: &crate::layout::Layout, session: &Session, at: Vec2) -> ClickTarget {
    if let Some(sq) = cell_at(layout, session, at) {
        return ClickTarget::Square(sq);
    }
    let kinds = session.hand_kinds();
    match layout.hand_at(at, kinds.len()) {
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

/// The window's left and right buttons as [`Pointer`] messages at the cursor's world position.
fn read_mouse(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    press: Res<Press>,
    mut drag: ResMut<Drag>,
    mut pointer: MessageWriter<Pointer>,
) {
    let Some(cursor) = window.cursor_position() else { return };
    let (camera, at) = *camera;
    let Ok(world) = camera.viewport_to_world_2d(at, cursor) else {
        return;
    };
    // The left button held since a press on a square: the piece follows (written only on a move).
    let held = buttons.pressed(MouseButton::Left) && !buttons.just_pressed(MouseButton::Left) && press.left.is_some();
    let now = held.then_some(world);
    if drag.0 != now {
        drag.0 = now;
    }
    for (mouse, button) in [(MouseButton::Left, Button::Left), (MouseButton::Right, Button::Right)] {
        for pressed in [true, false] {
            let now = if pressed {
                buttons.just_pressed(mouse)
            } else {
                buttons.just_released(mouse)
            };
            if now {
                pointer.write(Pointer {
                    button,
                    pressed,
                    at: world,
                });
            }
        }
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
    app.add_plugins(pointer_plugin).add_systems(
        PreUpdate,
        read_mouse
            .before(handle_pointer)
            .after(bevy::input::InputSystems)
            .run_if(not(egui_wants_any_pointer_input)),
    );
}
