//! When the window draws. The window updates reactively (winit's `UpdateMode::Reactive`): on input,
//! on egui's own repaint requests (hover, a blinking cursor), when the ruleset watcher's thread sees
//! the file change, and at the latest every [`IDLE_WAIT`]; with nothing under way it costs almost
//! nothing. While something moves on its
//! own — autoplay, the computer thinking, a simulation running — [`keep_drawing`] asks for the next
//! frame every frame, so those stay smooth. bevy_egui 0.42 tells egui "the modifier keys changed"
//! every frame, changed or not, and egui answers any event with a repaint: [`quiet_modifiers`]
//! drops the repeats, else the window would never sleep. Knows nothing of any game.

use std::time::Duration;

use bevy::prelude::*;
use bevy::window::RequestRedraw;
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_egui::{EguiInput, EguiPreUpdateSet, egui};

use crate::players::computer::Computer;
use crate::players::simulate::Simulation;
use crate::session::{Session, Tools};
use crate::timeline::replay::Autoplay;

/// The longest the window sleeps with nothing under way. The ruleset watcher wakes it when the
/// file changes (`reload.rs`'s waker thread), input and egui's repaints wake it too: this is only
/// a safety net, long enough that an idle window costs next to nothing.
pub const IDLE_WAIT: Duration = Duration::from_secs(30);

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

/// Removes from `events` every "modifiers changed" that repeats the modifiers last reported
/// (`last`, updated to the newest reported).
pub fn drop_repeated_modifiers(events: &mut Vec<egui::Event>, last: &mut Option<egui::Modifiers>) {
    events.retain(|e| match e {
        egui::Event::ModifiersChanged(m) if *last == Some(*m) => false,
        egui::Event::ModifiersChanged(m) => {
            *last = Some(*m);
            true
        }
        _ => true,
    });
}

/// [`drop_repeated_modifiers`] on each egui context's input, between bevy_egui's reading of input
/// and the start of egui's pass.
pub fn quiet_modifiers(mut inputs: Query<(Entity, &mut EguiInput)>, mut last: Local<Vec<(Entity, egui::Modifiers)>>) {
    for (entity, mut input) in &mut inputs {
        let mut mine = last.iter().find(|(e, _)| *e == entity).map(|(_, m)| *m);
        drop_repeated_modifiers(&mut input.0.events, &mut mine);
        last.retain(|(e, _)| *e != entity);
        if let Some(m) = mine {
            last.push((entity, m));
        }
    }
}

/// The update mode of a window that draws only when needed.
pub fn settings() -> WinitSettings {
    WinitSettings {
        focused_mode: UpdateMode::reactive(IDLE_WAIT),
        unfocused_mode: UpdateMode::reactive_low_power(IDLE_WAIT),
    }
}

/// [`quiet_modifiers`] before egui's pass; [`keep_drawing`] after the session's systems (so a step
/// taken this frame is seen) and before a finished simulation is collected (so the frame it ends
/// in still asks for the next, which draws its result). The window's
/// [`settings`] are inserted by the binary for a real window only: an offscreen render has no winit
/// loop to wake.
pub fn plugin(app: &mut App) {
    app.add_message::<RequestRedraw>()
        .add_systems(
            PreUpdate,
            quiet_modifiers
                .after(EguiPreUpdateSet::ProcessInput)
                .before(EguiPreUpdateSet::BeginPass),
        )
        .add_systems(
            Update,
            keep_drawing
                .after(crate::players::computer::play_turn)
                .before(crate::players::simulate::collect),
        );
}
