//! Notations: FEN for positions, UCI-style coordinates, SAN and WXF for moves, PGN and SGF (go) for
//! game records, and [`record`], which reads any of those records into one value and replays it.
//! All are driven by the ruleset (its letters, coordinate names, castling rules and notation).

pub mod annotation;
mod cursor;
pub mod fen;
pub mod pgn;
pub mod points;
pub mod record;
pub mod san;
pub mod sgf;
pub mod uci;
pub mod variation;
pub mod wxf;

use std::sync::Arc;

use crate::game::{Engine, Move, Outcome, Position};
use crate::model::{Notation, Rules};

impl Engine {
    /// A position from FEN, in the two steps every position takes (see [`crate::model::setup`]): the
    /// text read into a plain setup ([`fen::parse_setup`]), the setup checked against the rules
    /// ([`Engine::position`]).
    ///
    /// # Errors
    /// A [`fen::FenError`] saying which field is wrong and why, or what the rules refuse.
    pub fn from_fen(&self, text: &str) -> Result<Position, fen::FenError> {
        let setup = fen::parse_setup(self.rules(), text)?;
        Ok(self.position(&setup)?)
    }
}

impl Position {
    /// Compiles `rules` and reads a FEN (a convenience for one-off use; reuse an [`Engine`]).
    ///
    /// # Errors
    /// As [`Engine::from_fen`].
    pub fn from_fen(rules: Arc<Rules>, text: &str) -> Result<Position, fen::FenError> {
        Engine::new(rules).from_fen(text)
    }

    /// The position as FEN: [`Position::setup`] written by [`fen::write`].
    pub fn fen(&self) -> String {
        fen::write(self.rules(), &self.setup())
    }
}

impl Outcome {
    /// How the game stands, as a sentence (see [`Outcome::message_naming`]), with any move it
    /// names in the ruleset's notation ([`written`]).
    pub fn message(&self, pos: &Position) -> String {
        self.message_naming(pos, &written)
    }

    /// Why the draw `reason` may be claimed in `pos` (see [`Outcome::claim_why_naming`]), with
    /// the moves that would produce it in the ruleset's notation ([`written`]).
    pub fn claim_why(&self, pos: &Position, reason: &str) -> Option<String> {
        self.claim_why_naming(pos, reason, &written)
    }
}

/// A move in the notation the ruleset's game records use ([`crate::model::Rules::notation`]):
/// coordinates ([`uci::to_text`]), SAN ([`san::to_san`]) or WXF ([`wxf::to_wxf`]).
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/xiangqi.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("xiangqi.rules is valid"));
/// use arbiter::notation::{uci, written};
/// let start = engine.start();
/// let m = uci::find(&start, "h3e3").expect("a legal move");
/// assert_eq!(written(&start, m), "C2.5");
/// ```
pub fn written(pos: &Position, m: Move) -> String {
    match pos.rules().notation {
        Notation::Coordinates => uci::to_text(pos, m),
        Notation::San => san::to_san(pos, m),
        Notation::Wxf => wxf::to_wxf(pos, m),
        Notation::Points => points::to_points(pos, m),
    }
}

/// A line of moves from `pos`, each written as [`written`] writes it in the position it is played in.
pub fn written_line(pos: &Position, line: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let text = written(&p, m);
            p.play_unchecked(m);
            text
        })
        .collect()
}

/// The legal move a text names: coordinates first (`e2e4`, `h3e3`, `D4`, `pass`), then the ruleset's
/// own notation (WXF for a ruleset that writes WXF, SAN otherwise).
///
/// # Examples
/// ```
/// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
/// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
/// use arbiter::notation::find;
/// let start = engine.start();
/// assert_eq!(find(&start, "g1f3"), find(&start, "Nf3"));
/// assert_eq!(find(&start, "e2e5"), None);
/// ```
pub fn find(pos: &Position, text: &str) -> Option<Move> {
    let coords = uci::find(pos, text);
    if let Some(m) = coords
        && uci::to_text(pos, m) == text.trim()
    {
        return Some(m);
    }
    // Coordinates are read in any case (`D4`, `E2E4`), but a text that reads as coordinates only so
    // is first the ruleset's own notation: `B6b5` is the bishop from the sixth rank, not `b6b5`.
    let own = match pos.rules().notation {
        Notation::Wxf => wxf::find(pos, text),
        Notation::Points => points::find(pos, text),
        _ => san::find(pos, text),
    };
    own.or(coords)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Engine;
    use std::path::Path;

    #[test]
    fn a_text_in_the_rulesets_notation_wins_over_coordinates_read_in_another_case() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/chess.rules");
        let e = Engine::new(crate::check::check_file(&path, &[]).rules.expect("valid"));
        // Bishops on a6 and a4 both reach b5; a rook on b6 does too.
        let pos = e.from_fen("4k3/8/br6/8/b7/8/8/4K3 b - - 0 1").expect("valid");
        let bishop = uci::find(&pos, "a6b5").expect("legal");
        let rook = uci::find(&pos, "b6b5").expect("legal");
        assert_eq!(written(&pos, bishop), "B6b5");
        assert_eq!(find(&pos, "B6b5"), Some(bishop));
        assert_eq!(find(&pos, "b6b5"), Some(rook));
        assert_eq!(find(&pos, "B6B5"), Some(rook), "coordinates in capitals, which SAN does not read");
    }
}
