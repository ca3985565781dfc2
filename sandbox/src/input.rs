//! Mouse input: a left click on the board becomes a [`Clicked`] message with the square under the
//! cursor, found with the geometry the board was last drawn with ([`BoardLayout`], flipped or not).
//! Clicks on the egui panel never reach the board.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::egui_wants_any_pointer_input;

use crate::board::BoardLayout;
use crate::session::Clicked;

fn click_board(
    buttons: Res<ButtonInput<MouseButton>>,
    window: Single<&Window, With<PrimaryWindow>>,
    camera: Single<(&Camera, &GlobalTransform)>,
    layout: Res<BoardLayout>,
    mut clicks: MessageWriter<Clicked>,
) {
    if !buttons.just_pressed(MouseButton::Left) {
        return;
    }
    let Some(cursor) = window.cursor_position() else { return };
    let (camera, at) = *camera;
    let Ok(world) = camera.viewport_to_world_2d(at, cursor) else {
        return;
    };
    if let Some(sq) = layout.0.square_at(world) {
        clicks.write(Clicked(sq));
    }
}

/// Turns left clicks on the board into [`Clicked`] messages (windowed mode only).
pub fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        click_board
            .run_if(resource_exists::<BoardLayout>)
            .run_if(not(egui_wants_any_pointer_input)),
    );
}
