//! Arbiter: board-game rules as data. A `.rules` file is parsed ([`syntax`]), checked into
//! [`model::Rules`] ([`check`]), compiled into per-square tables ([`compile`]) and run ([`game`]).
//! No Rust code names a particular game: chess, xiangqi and go differ only in their `.rules` files.
//!
//! ```
//! let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
//! let engine = checked.engine.expect("chess.rules is valid");
//! assert_eq!(engine.start().perft(3), 8902);
//! ```

pub mod bits;
pub mod check;
pub mod clock;
pub mod compare;
pub mod compile;
pub mod diag;
pub mod game;
pub mod input;
pub mod lsp;
pub mod model;
pub mod notation;
pub mod scenario;
pub mod sim;
pub mod syntax;

#[cfg(test)]
mod layering;
