//! Coordinate moves (`e2e4`, `e7e8q`, `h3e3`, `P@e4`, `D4`, `pass`): the engine's own names for
//! moves, which every ruling uses, so they live with the engine ([`crate::game::movetext`]) and
//! are read and written here under the name the engine protocols know them by.

pub use crate::game::movetext::{MoveText, find, first_text, parse_text, to_text};
