//! Ctrl chords (Ctrl+V, Ctrl+A, Ctrl+C, Ctrl+X) whose keys all arrive within one frame. bevy_egui
//! 0.42 reads the modifier keys once per frame, after every key message of the frame, and then
//! turns each key message into egui events with that one state: when Ctrl goes down and up again
//! within a frame — a quick tap on a slow (software-rendered) frame, a remote desktop, `xdotool` —
//! it sees Ctrl released, and Ctrl+V types a `v` instead of pasting. [`hold_control_for_chords`]
//! follows Ctrl through the frame's messages in order and, when a key went down while Ctrl was
//! held, shows bevy_egui Ctrl held for this frame's keys; [`release_control`] takes it back
//! afterwards, so Ctrl never sticks. Knows nothing of any game.

use bevy::input::keyboard::{Key, KeyboardFocusLost, KeyboardInput};
use bevy::prelude::*;
use bevy_egui::EguiInputSet;
use bevy_egui::input::ModifierKeysState;

/// Ctrl as the frame's key messages left it, and whether this frame's state was held for a chord.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chords {
    /// Is Ctrl down (after the messages read so far)?
    pub held: bool,
    /// Was bevy_egui's Ctrl set for this frame only?
    pub lent: bool,
}

/// Between bevy_egui's reading of the modifiers and its reading of the keys: Ctrl held for this
/// frame if a key went down while Ctrl was down, even if Ctrl is up again by the frame's end.
pub fn hold_control_for_chords(
    mut keys: MessageReader<KeyboardInput>,
    mut lost: MessageReader<KeyboardFocusLost>,
    mut chords: ResMut<Chords>,
    mut state: ResMut<ModifierKeysState>,
) {
    if lost.read().count() > 0 {
        chords.held = false;
    }
    let mut chord = false;
    for k in keys.read() {
        match &k.logical_key {
            Key::Control => chords.held = k.state.is_pressed(),
            Key::Shift | Key::Alt | Key::Super | Key::Meta => {}
            _ => chord |= chords.held && k.state.is_pressed(),
        }
    }
    if chord && !state.ctrl {
        state.ctrl = true;
        chords.lent = true;
    }
}

/// After bevy_egui's reading of the keys: Ctrl as it really is again.
pub fn release_control(mut chords: ResMut<Chords>, mut state: ResMut<ModifierKeysState>) {
    if chords.lent {
        chords.lent = false;
        state.ctrl = chords.held;
    }
}

/// [`hold_control_for_chords`] and [`release_control`] around bevy_egui's reading of the keys.
pub fn plugin(app: &mut App) {
    app.init_resource::<Chords>().add_systems(
        PreUpdate,
        (
            hold_control_for_chords
                .after(EguiInputSet::InitReading)
                .before(EguiInputSet::ReadBevyMessages),
            release_control.after(EguiInputSet::ReadBevyMessages),
        ),
    );
}
