//! The keyboard: ←/→ step, Home/End to the first and last step, ↑/↓ through the variations at a
//! branch point, Space plays or pauses autoplay, F flips the board, Esc cancels a selection or a
//! choice, Ctrl+Z takes a move back, ? (or F1) shows the sheet of them all ([`SHEET`]). Keys are read from Bevy's `ButtonInput<KeyCode>` and turned into
//! the same messages the panel sends ([`Replay`], [`Apply`], [`ClickedAway`]); nothing happens while
//! an egui text field has the keyboard (`EguiWantsInput`). [`command`] is the mapping, as data.

use bevy::prelude::*;
use bevy_egui::input::EguiWantsInput;

use crate::board::layout::View;
use crate::session::{Action, Apply, ClickedAway, Replay, Session};
use crate::timeline::replay::Autoplay;

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Replay(Replay),
    TogglePlay,
    Flip,
    Cancel,
    TakeBack,
    /// Show or hide the shortcut sheet.
    Help,
}

/// The shortcut sheet: each key (or pointer gesture) and what it does, as `?` shows them.
pub const SHEET: &[(&str, &str)] = &[
    ("← / →", "one step back / forward"),
    ("Home / End", "the first / the last step"),
    ("↑ / ↓", "between the variations at a branch point"),
    ("Space", "play or pause the timeline"),
    ("F", "flip the board"),
    ("Esc", "let go of the selection, the choice or the brush"),
    ("Ctrl+Z", "take the last move back"),
    ("? or F1", "show or hide this sheet"),
    ("click, click", "select a piece, then its target"),
    ("drag", "a piece to its target"),
    ("right-click", "mark a square (again: unmark it)"),
    ("right-drag", "draw an arrow (again: remove it)"),
];

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
        // `?` is Shift+/ on most layouts: the key is the slash either way.
        KeyCode::Slash | KeyCode::F1 => Command::Help,
        _ => return None,
    })
}

/// Turns the keys pressed this frame into messages (none while egui wants the keyboard).
fn read_keys(
    keys: Res<ButtonInput<KeyCode>>,
    wants: Option<Res<EguiWantsInput>>,
    session: Res<Session>,
    mut auto: ResMut<Autoplay>,
    (mut view, mut tools): (Option<ResMut<View>>, Option<ResMut<crate::session::Tools>>),
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
            Some(Command::Help) => {
                if let Some(t) = tools.as_mut() {
                    t.help = !t.help;
                }
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
