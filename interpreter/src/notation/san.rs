//! SAN placeholder replaced below.
use crate::game::{Move, Position};
pub fn to_san(pos: &Position, m: Move) -> String { crate::notation::uci::to_text(pos, m) }
pub fn find(_pos: &Position, _text: &str) -> Option<Move> { None }
