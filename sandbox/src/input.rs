//! Mouse input: a left click on the board becomes a [`Clicked`] message with the square under the
//! cursor, found with the geometry the board was last drawn with ([`BoardLayout`], flipped or not); a
//! click on a piece in a hand (right of the board) becomes [`ClickedHand`], and a click anywhere else
//! [`ClickedAway`]. Clicks on the egui panel never reach the board.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::egui_wants_any_pointer_input;

use crate::board::BoardLayout;
use crate::session::{Clicked, ClickedAway, ClickedHand, Session};

/// Where a click at world position `at` lands: a square, a slot of a hand, or neither.
pub fn click_at(layout: &crate::layout::Layout, session: &Session, at: Vec2) -> ClickTarget {
    if let Some(sq) = layout.square_at(at) {
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

#[allow(clippy::too_many_arguments)]
fn click_board(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    layout: Res<BoardLayout>,
    session: Res<Session>,
    mut clicks: MessageWriter<Clicked>,
    mut hands: MessageWriter<ClickedHand>,
    mut away: MessageWriter<ClickedAway>,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cursor) = window.cursor_position() else { return };
    let (camera, at) = *camera;
    let Ok(world) = camera.viewport_to_world_2d(at, cursor) else {
        return;
    };
    match click_at(&layout.0, &session, world) {
        ClickTarget::Square(sq) => {
            clicks.write(Clicked(sq));
        }
        ClickTarget::Hand(h) => {
            hands.write(h);
        }
        ClickTarget::Away => {
            away.write(ClickedAway);
        }
    }
}

/// Turns left clicks on the board into [`Clicked`], [`ClickedHand`] and [`ClickedAway`] messages
/// (windowed mode only).
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        click_board
            .run_if(resource_exists::<BoardLayout>)
            .run_if(not(egui_wants_any_pointer_input)),
    );
}
