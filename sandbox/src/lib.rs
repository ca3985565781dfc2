//! The Arbiter sandbox: a Bevy window onto the interpreter. It draws any ruleset's board from the
//! ruleset alone, replays scenarios step by step, and lets a person click moves that the interpreter
//! judges. Invariant: the sandbox changes a position only through the interpreter's API (`Game`,
//! `Engine::from_fen`); it never names a particular game.
//!
//! One plugin per feature, each a `plugin(app)` function: [`session`] (the game and its messages, no
//! window needed), [`board`] (drawing), [`input`] (mouse), [`panel`] (egui), [`shot`] (headless screenshots).

pub mod board;
pub mod input;
pub mod layout;
pub mod panel;
pub mod session;
pub mod shot;
pub mod source;

use bevy::prelude::*;

use crate::panel::PANEL_WIDTH;

/// The camera, shifted so the board sits right of the panel.
pub fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Transform::from_xyz(-PANEL_WIDTH / 2.0, 0.0, 0.0)));
}

/// Everything but the window, the camera and input: logic, drawing and the panel.
pub fn plugin(app: &mut App) {
    app.add_plugins(bevy_egui::EguiPlugin::default());
    app.add_plugins((session::plugin, board::plugin, panel::plugin));
}
