//! Notations: FEN for positions, UCI-style coordinates and SAN for moves, PGN for game records.
//! All are driven by the ruleset (its letters, coordinate names and castling rules).

pub mod fen;
pub mod pgn;
pub mod san;
pub mod uci;
