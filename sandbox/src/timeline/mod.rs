//! The timeline room: moving through the game — the timeline's steps and the variation tree
//! ([`navigate`]), the move list that shows them ([`movelist`]) and autoplay ([`replay`]).
//! Uses the session room only.

pub mod movelist;
pub mod navigate;
pub mod replay;

/// The timeline room's plugin: autoplay, after the session's handlers.
pub fn plugin(app: &mut bevy::prelude::App) {
    app.add_plugins(replay::plugin);
}
