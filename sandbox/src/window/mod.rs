//! The window room: the life of a real window around the rest — when it draws ([`redraw`]),
//! watching the ruleset file ([`reload`]), screenshots ([`shot`]) and the `--trace` file
//! ([`trace`]). May use every other room; none uses it.

pub mod redraw;
pub mod reload;
pub mod shot;
pub mod trace;
