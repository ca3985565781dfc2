//! The keyboard: ←/→ step, Home/End to the first and last step, ↑/↓ through the variations at a
//! branch point, Space plays or pauses autoplay, F flips the board, Esc cancels a selection or a
//! choice, Ctrl+Z takes a move back. Keys are read from Bevy's `ButtonInput<KeyCode>` and turned into
//! the same messages the panel sends ([`Replay`], [`Apply`], [`ClickedAway`]); nothing happens while
//! an egui text field has the keyboard (`EguiWantsInput`). [`command`] is the mapping, as data.

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use crate::layout::View;
use crate::replay::Autoplay;
use crate::session::{Action, Apply, ClickedAway, Replay, Session};

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Replay(Replay),
    TogglePlay,
    Flip,
    Cancel,
    TakeBack,
}

/// The command of a key just pressed (`ctrl`: a Control key is held).
pub fn command(key: KeyCode, ctrl: bool) -> Option<Command> {
    Some(match key {
        KeyCode::KeyZ if ctrl => Command::TakeBack,
        _ if ctrl => return None,
        KeyCode::ArrowLeft => Command::Replay(Replay::Back),
        KeyCode::ArrowRight => Command::Replay(Replay::Forward),
        KeyCode::Home => Command::Replay(Replay::First),
        KeyCode::End => Command::Replay(Replay::Last),
        KeyCode::ArrowUp => Command::Replay(Replay::Up),
        KeyCode::ArrowDown => Command::Replay(Replay::Down),
        KeyCode::Space => Command::TogglePlay,
        KeyCode::KeyF => Command::Flip,
        KeyCode::Escape => Command::Cancel,
        _ => return None,
    })
}

/// Turns the keys pressed this frame into messages (none while egui wants the keyboard).
fn read_keys(
    keys: Res<ButtonInput<KeyCode>>,
    wants: Option<Res<EguiWantsInput>>,
    session: Res<Session>,
    mut auto: ResMut<Autoplay>,
    mut view: Option<ResMut<View>>,
    (mut replay, mut apply, mut away): (MessageWriter<Replay>, MessageWriter<Apply>, MessageWriter<ClickedAway>),
) {
    if wants.is_some_and(|w| w.wants_keyboard_input()) {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    for &key in keys.get_just_pressed() {
        match command(key, ctrl) {
            Some(Command::Replay(r)) => {
                auto.playing = false;
                replay.write(r);
            }
            Some(Command::TogglePlay) => {
                if let Some(a) = auto.toggle(&session) {
                    apply.write(Apply(a));
                }
            }
            Some(Command::Flip) => {
                if let Some(v) = view.as_mut() {
                    v.flipped = !v.flipped;
                }
            }
            Some(Command::Cancel) => {
                away.write(ClickedAway);
            }
            Some(Command::TakeBack) => {
                apply.write(Apply(Action::TakeBack));
            }
            None => {}
        }
    }
}

/// Reads the keyboard (where there is one) once Bevy has updated it, before the session's systems
/// run in `Update`.
pub fn plugin(app: &mut App) {
    app.add_systems(
        PreUpdate,
        read_keys
            .run_if(resource_exists::<ButtonInput<KeyCode>>)
            .after(bevy::input::InputSystems),
    );
}
