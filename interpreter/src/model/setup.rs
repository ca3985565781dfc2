//! A position as plain data: what stands where, who moves, which rights remain, what is in hand,
//! before the engine has accepted any of it.
//!
//! Positions reach the engine in two steps, the same for every door (a FEN on the command line, a
//! record's start, an engine protocol's `position fen`, the sandbox's editor, a ruleset's `setup`):
//! the text is read into a [`Setup`] (`notation::fen::parse_setup`, which refuses what the text
//! gets wrong, naming the field), and [`crate::game::Engine::position`] turns a `Setup` into a
//! position, refusing what the rules make impossible (a piece where it could never stand, a
//! castling right with nothing to castle, a chain without liberties). The second step is the only
//! way to get a position; [`crate::game::Position::setup`] goes back.
//!
//! Nothing here knows a notation or the engine: a setup is part of the rules' model (a ruleset's
//! `setup` line is one).

use super::{Board, KindId, MAX_TALLIES, Rules, Side};

/// A position as written, before the engine has accepted it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Setup {
    /// What stands on each square (`None`: empty), indexed as the board numbers squares.
    pub board: Vec<Option<(KindId, Side)>>,
    /// The side to move.
    pub stm: Side,
    /// The castling (and gating) rights still held, in the order given.
    pub castling: Vec<CastlingRight>,
    /// The square a piece just passed over, where it may be taken en passant.
    pub ep: Option<usize>,
    /// Half-moves since the last capture or irreversible move.
    pub halfmove: u32,
    /// The move number (1 for the first move).
    pub fullmove: u64,
    /// Pieces in hand, one entry per piece.
    pub hands: Vec<(KindId, Side)>,
    /// Squares of promoted pieces (FEN's `~`, or a `+` letter where captures return pieces
    /// unpromoted).
    pub promoted: Vec<usize>,
    /// Neutral pieces (see [`crate::model::Kind::neutral`]) and their squares.
    pub neutral: Vec<(usize, KindId)>,
    /// The declared counts' values, per side.
    pub tallies: [[i64; MAX_TALLIES]; 2],
    /// In a game with a roll: the number the side to move rolled (`None`: still to roll); where
    /// the dice are used one by one, those it has still to use, packed (see
    /// [`crate::model::Roll::read_left`]).
    pub roll: Option<u32>,
    /// Where pieces stack: the squares holding more than one piece, and how many.
    pub stacks: Vec<(usize, u32)>,
    /// Among more than two players, the sides out of the game and their places (`places:r1,g4`).
    pub places: Vec<(Side, u8)>,
}

impl Setup {
    /// An empty board of `rules`, the first player to move at move 1, no rights, nothing in hand,
    /// every count at its start value: what a FEN's missing fields mean, and where a record that
    /// lists its stones (SGF's `AB`/`AW`) starts.
    pub fn empty(rules: &Rules) -> Setup {
        let mut tallies = [[0i64; MAX_TALLIES]; 2];
        for (i, t) in rules.counts.iter().enumerate().take(MAX_TALLIES) {
            tallies[0][i] = t.start;
            tallies[1][i] = t.start;
        }
        Setup {
            board: vec![None; rules.board.squares()],
            stm: Side::FIRST,
            fullmove: 1,
            tallies,
            ..Setup::default()
        }
    }
}

/// A right a side still holds: to castle towards one wing, or with (or, where pieces are dropped
/// onto the square a first move leaves, to open) the unmoved piece on one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRight {
    pub side: Side,
    pub wing: Wing,
}

/// Which castling right: by direction, as `K` and `Q` say, or by the partner's file (Shredder-FEN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wing {
    /// Towards the higher files, with the outermost partner there (`K`).
    King,
    /// Towards the lower files, with the outermost partner there (`Q`).
    Queen,
    /// With the piece on this file (index into the board's files).
    File(usize),
}

impl CastlingRight {
    /// The right as FEN letters write it: `K`, `q`, `H`, `c` (upper case for the first player).
    pub fn letter(&self, board: &Board) -> String {
        let text = match self.wing {
            Wing::King => "K".to_string(),
            Wing::Queen => "Q".to_string(),
            Wing::File(f) => board.file_names[f].to_uppercase(),
        };
        if self.side == Side::FIRST { text } else { text.to_lowercase() }
    }

    /// The right as this game's FEN writes it: [`CastlingRight::letter`] between two players; among
    /// more, the side's letter and `K` or `Q` (`bK`: blue's right towards its king's wing).
    pub fn text(&self, rules: &crate::model::Rules) -> String {
        if rules.players.len() <= 2 {
            return self.letter(&rules.board);
        }
        let wing = match self.wing {
            Wing::King => "K".to_string(),
            Wing::Queen => "Q".to_string(),
            Wing::File(f) => rules.board.file_names[f].to_uppercase(),
        };
        format!("{}{wing}", rules.players[self.side.index()].fen)
    }
}
