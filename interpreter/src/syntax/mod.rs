//! Stage 1, parse: `.rules` text → [`ast::RulesFile`]. Parsing never fails: an item or clause the
//! grammar cannot read becomes a diagnostic (with what was expected) and parsing goes on.
//! This module knows nothing about any game.

pub mod ast;
mod expect;
pub mod format;
mod parse;

pub use expect::{Expect, expected_at};
pub use parse::{TOP_KEYWORDS, parse_file};
