//! When the window draws. The window updates reactively (winit's `UpdateMode::Reactive`): on input,
//! on egui's own repaint requests (hover, a blinking cursor) and every [`IDLE_WAIT`] (for the
//! ruleset watcher); with nothing under way it costs almost nothing. While something moves on its
//! own — autoplay, the computer thinking, a simulation running — [`keep_drawing`] asks for the next
//! frame every frame, so those stay smooth. Knows nothing of any game.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};

use crate::computer::Computer;
use crate::replay::Autoplay;
use crate::session::{Session, Tools};
use crate::simulate::Simulation;

/// The longest the window sleeps with nothing under way: the ruleset watcher (`reload.rs`) polls
/// once per update, so a change to the file shows within about this long.
pub const IDLE_WAIT: Duration = Duration::from_millis(700);

/// Is anything moving on its own, so the next frame should come at once?
pub fn busy(session: &Session, tools: &Tools, auto: &Autoplay, computer: &Computer, sim: &Simulation) -> bool {
    auto.playing || computer.thinking.is_some() || sim.running.is_some() || computer.to_move(session, tools, auto)
}

/// Asks for another frame while [`busy`].
pub fn keep_drawing(
    session: Res<Session>,
    tools: Res<Tools>,
    auto: Res<Autoplay>,
    computer: Res<Computer>,
    sim: Res<Simulation>,
    mut redraw: MessageWriter<RequestRedraw>,
) {
    if busy(&session, &tools, &auto, &computer, &sim) {
        redraw.write(RequestRedraw);
    }
}

/// The update mode of a window that draws only when needed.
pub fn settings() -> WinitSettings {
    WinitSettings {
        focused_mode: UpdateMode::reactive(IDLE_WAIT),
        unfocused_mode: UpdateMode::reactive_low_power(IDLE_WAIT),
    }
}

/// [`keep_drawing`] after the session's systems (so a step taken this frame is seen). The window's
/// [`settings`] are inserted by the binary for a real window only: an offscreen render has no winit
/// loop to wake.
pub fn plugin(app: &mut App) {
    app.add_message::<RequestRedraw>()
        .add_systems(Update, keep_drawing.after(crate::computer::play_turn));
}
