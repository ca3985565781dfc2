//! Stage 4, run: positions, moves, legality, perft and game outcomes. Works on the compiled
//! tables; never sees a source span or a name. [`Engine`] picks the bitboard width once per
//! ruleset; [`Position`] hides the width behind one type for callers.

mod chains;
pub use chains::{RandomPly, Repeats};
pub(crate) use playout::below;
mod chase;
mod effects;
mod ends;
mod explain;
mod explain_race;
mod explain_turn;
pub mod movetext;
mod outcome;
mod playout;
pub mod position;
pub mod race;
mod setup;
mod turn;
pub(crate) mod validity;
mod winnable;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use crate::bits;
use bits::{Bits, Broad, Wide};
use position::Pos;

use crate::compile::{Tables, compile};
use crate::model::*;

pub use chase::Chase;
pub(crate) use chase::chaser_in_cycle;
pub use explain::{Illegal, Ruling};
pub use outcome::{Game, Outcome, Score, Status, ordinal};
pub(crate) use outcome::{History, checker_in_cycle, rule_holds, verdict_result};
pub use setup::PositionError;
pub use winnable::{Answer, Bounds, Proof, Winnability};

/// What produced a move: one of the mover's movement clauses, or a castling rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Index into the compiled forms of the side to move.
    Form(u8),
    /// Index into the compiled castling rules of the side to move.
    Castle(u8),
    /// A new piece placed by the clause with this index (`from` is unused).
    Place(u8),
    /// A piece from the hand, by the clause with this index (`from` is unused).
    Drop(u8),
    /// The player gives up the turn.
    Pass,
    /// The second player takes over the first player's piece, mirrored across the long diagonal
    /// (`from` is that piece's square, `to` where it goes).
    Swap,
    /// Chance, not a player: the roll that starts a turn comes up with the result of this index
    /// (into the compiled rolls; `to` is the number shown, `from` is unused). The side to move
    /// stays, and then moves by it.
    Roll(u8),
    /// A piece taken off the board past its track's end by the clause with this index (`from` is
    /// its square; `to` the same): borne off.
    BearOff(u8),
}

/// A move — a whole turn: from, to, how, the kind promoted to (0 = none, else kind + 1), and in
/// `route` what else the turn holds: for a continuing move the legs after the first (see
/// [`Move::legs`]), for a turn of several parts its later parts (see [`Move::part`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: u16,
    pub to: u16,
    pub kind: MoveKind,
    pub promo: u8,
    /// A continuing move's legs: the count in the low 4 bits, then one leg (an index into the
    /// compiled jump directions, and for a jump over a distance the squares it lands beyond) per
    /// leg, `leg_bits` each: in the low 32 bits where the turn has later parts, in all 64
    /// otherwise. The later parts of a turn, 16 bits each, from bit 32 (see [`Move::part`]). 0 for
    /// a move of one piece.
    pub route: u64,
}

/// The most later parts a turn holds (after its first, the move of a piece).
pub const MAX_PARTS: usize = 2;

/// The most leaf nodes a perft is started for without being asked to go on (`perft --force`), by
/// [`Position::perft_estimate`]: a few minutes of counting; a scenario's perft never goes past it.
pub const PERFT_BUDGET: f64 = 1e10;

/// About the most leaves [`Position::perft_estimate`] counts to see how a tree branches.
pub const PERFT_SAMPLE: u64 = 5_000_000;

impl Move {
    /// The roll's result of index `index` (into the compiled rolls), showing `value`: chance's
    /// move at the start of a turn.
    pub fn roll(index: usize, value: u32) -> Move {
        Move {
            from: position::NO_SQ,
            to: value as u16,
            kind: MoveKind::Roll(index as u8),
            promo: 0,
            route: 0,
        }
    }
    pub fn promotion(&self) -> Option<KindId> {
        (self.promo != 0).then(|| KindId(self.promo - 1))
    }
    /// The number of legs of a continuing move (0 for a move of one leg).
    pub fn legs(&self) -> u32 {
        (self.route & 15) as u32
    }
    /// The `i`th later part of a turn (0 for none): the choice (an index into the compiled
    /// parts' choices, plus one) in the high 6 bits, the square in the low 10.
    pub fn part(&self, i: usize) -> u16 {
        (self.route >> (32 + 16 * i)) as u16
    }
    /// This move with its `i`th later part set to `slot`.
    pub fn with_part(self, i: usize, slot: u16) -> Move {
        let shift = 32 + 16 * i;
        Move {
            route: (self.route & !(0xFFFF << shift)) | (slot as u64) << shift,
            ..self
        }
    }
    /// The move without its later parts: the turn's first part.
    pub fn first_part(self) -> Move {
        Move {
            route: self.route & 0xFFFF_FFFF,
            ..self
        }
    }
}

/// A later part's slot: `choice` (see [`crate::compile::CPart`]) and the square it acts on.
pub fn part_slot(choice: usize, sq: usize) -> u16 {
    ((choice as u16 + 1) << 10) | sq as u16
}

/// The choice and square of a part's slot (`None` for an empty slot).
pub fn slot_parts(slot: u16) -> Option<(usize, usize)> {
    (slot != 0).then(|| ((slot >> 10) as usize - 1, (slot & 0x3FF) as usize))
}

#[derive(Clone, Debug)]
enum AnyTables {
    Small(Arc<Tables<u64>>),
    Medium(Arc<Tables<u128>>),
    Large(Arc<Tables<Broad>>),
    Huge(Arc<Tables<Wide>>),
}

/// A compiled ruleset: the rules and the generator's tables, shared by every position.
#[derive(Clone, Debug)]
pub struct Engine {
    rules: Arc<Rules>,
    tables: AnyTables,
}

/// The bitboard width an engine runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// `u64`: up to 64 squares.
    Small,
    /// `u128`: up to 128 squares.
    Medium,
    /// 6 × `u64`: up to 384 squares (go on 19 × 19).
    Large,
    /// 11 × `u64`: up to 704 squares.
    Huge,
}

impl Engine {
    /// Compiles the rules, picking the narrowest bitboard width that holds the board.
    pub fn new(rules: impl Into<Arc<Rules>>) -> Engine {
        let rules = rules.into();
        let n = rules.board.squares();
        let width = if n <= 64 {
            Width::Small
        } else if n <= 128 {
            Width::Medium
        } else if n <= Broad::CAPACITY {
            Width::Large
        } else {
            Width::Huge
        };
        Engine::with_width(rules, width).expect("the narrowest width holds the board")
    }

    /// Compiles the rules for a given width (wider than needed works, only slower: the tests use it
    /// to check that every width generates the same moves). `None` if the board does not fit.
    pub fn with_width(rules: impl Into<Arc<Rules>>, width: Width) -> Option<Engine> {
        let rules = rules.into();
        let n = rules.board.squares();
        let tables = match width {
            Width::Small if n <= u64::CAPACITY => AnyTables::Small(Arc::new(compile::<u64>(&rules))),
            Width::Medium if n <= u128::CAPACITY => AnyTables::Medium(Arc::new(compile::<u128>(&rules))),
            Width::Large if n <= Broad::CAPACITY => AnyTables::Large(Arc::new(compile::<Broad>(&rules))),
            Width::Huge if n <= Wide::CAPACITY => AnyTables::Huge(Arc::new(compile::<Wide>(&rules))),
            _ => return None,
        };
        Some(Engine { rules, tables })
    }

    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
}

/// A long perft's progress, shared with whoever watches it (see
/// [`Position::perft_divide_watched`]).
#[derive(Debug, Default)]
pub struct PerftWatch {
    /// Leaf nodes counted so far.
    pub nodes: AtomicU64,
    /// Set from anywhere (another thread, a Ctrl-C handler) to stop the count.
    pub stop: Arc<AtomicBool>,
}

impl PerftWatch {
    /// Nothing counted yet; the count stops once `stop` is set.
    pub fn stopped_by(stop: Arc<AtomicBool>) -> PerftWatch {
        PerftWatch {
            nodes: AtomicU64::new(0),
            stop,
        }
    }
}

/// A perft stopped before the end: how many first moves it had finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerftStopped {
    pub finished: usize,
}

/// How deep the subtrees a watched perft counts whole are: deeper while they take under
/// [`Cut::SHORT`], shallower while they take over [`Cut::LONG`].
struct Cut {
    depth: u32,
}

impl Cut {
    const SHORT: Duration = Duration::from_millis(2);
    const LONG: Duration = Duration::from_millis(40);

    fn adapt(&mut self, depth: u32, took: Duration) {
        if took < Cut::SHORT && depth == self.depth {
            self.depth += 1;
        } else if took > Cut::LONG && self.depth > 1 {
            self.depth -= 1;
        }
    }
}

#[derive(Debug)]
enum Inner {
    Small(Pos<u64>),
    Medium(Pos<u128>),
    Large(Pos<Broad>),
    Huge(Pos<Wide>),
}

impl Clone for Inner {
    fn clone(&self) -> Self {
        match self {
            Inner::Small(p) => Inner::Small(p.clone()),
            Inner::Medium(p) => Inner::Medium(p.clone()),
            Inner::Large(p) => Inner::Large(p.clone()),
            Inner::Huge(p) => Inner::Huge(p.clone()),
        }
    }

    /// Into the position already held where both have the same width (see `Pos::clone_from`).
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Inner::Small(p), Inner::Small(q)) => p.clone_from(q),
            (Inner::Medium(p), Inner::Medium(q)) => p.clone_from(q),
            (Inner::Large(p), Inner::Large(q)) => p.clone_from(q),
            (Inner::Huge(p), Inner::Huge(q)) => p.clone_from(q),
            (p, q) => *p = q.clone(),
        }
    }
}

/// What the end rules of a simulated game read of a position before judging it (see
/// [`Position::end_counts`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EndCounts {
    pub pieces: [u32; 2],
    pub passes: u32,
    /// Plies since each move counter was reset, the first `in_use` of them the ruleset's.
    pub counters: [u16; crate::compile::MAX_COUNTERS],
    pub in_use: usize,
}

impl EndCounts {
    /// Has counter `i` reached `plies`?
    #[inline]
    pub fn reaches(&self, i: usize, plies: u32) -> bool {
        self.counters.get(i).is_some_and(|&c| c as u32 >= plies)
    }
    /// Were all the ruleset's counters just reset (see [`Position::counters_reset`])?
    #[inline]
    pub fn reset(&self) -> bool {
        self.counters[..self.in_use].iter().all(|&c| c == 0)
    }
}

/// A position of any ruleset.
#[derive(Debug)]
pub struct Position {
    rules: Arc<Rules>,
    inner: Inner,
}

impl Clone for Position {
    fn clone(&self) -> Self {
        Position {
            rules: self.rules.clone(),
            inner: self.inner.clone(),
        }
    }

    /// Into the position already held, keeping its room: what a playout or a search that starts
    /// again and again from one position should use.
    fn clone_from(&mut self, source: &Self) {
        self.rules.clone_from(&source.rules);
        self.inner.clone_from(&source.inner);
    }
}

macro_rules! with {
    ($self:expr, $p:ident => $e:expr) => {
        match &$self.inner {
            Inner::Small($p) => $e,
            Inner::Medium($p) => $e,
            Inner::Large($p) => $e,
            Inner::Huge($p) => $e,
        }
    };
}
macro_rules! with_mut {
    ($self:expr, $p:ident => $e:expr) => {
        match &mut $self.inner {
            Inner::Small($p) => $e,
            Inner::Medium($p) => $e,
            Inner::Large($p) => $e,
            Inner::Huge($p) => $e,
        }
    };
}

impl Position {
    pub fn rules(&self) -> &Arc<Rules> {
        &self.rules
    }
    pub fn side_to_move(&self) -> Side {
        with!(self, p => p.stm)
    }
    pub fn piece_at(&self, sq: usize) -> Option<(KindId, Side)> {
        with!(self, p => p.piece_at(sq))
    }
    /// The phase the game is in: an index into the ruleset's phases (0 where it has none).
    pub fn phase(&self) -> usize {
        with!(self, p => p.phase as usize)
    }
    /// The name of the phase the game is in, where the ruleset has phases.
    pub fn phase_name(&self) -> Option<&str> {
        self.rules.phases.get(self.phase()).map(|p| p.name.as_str())
    }
    /// The `i`th later part of the turn `m`: the index of the ruleset's part it is (in
    /// `Rules::turn`), the kind it drops where it chooses one, and its square.
    pub fn part_of(&self, m: Move, i: usize) -> Option<(usize, Option<KindId>, usize)> {
        let (choice, sq) = slot_parts(m.part(i))?;
        with!(self, p => p.t.part_choices.get(choice).map(|&(pi, k)| (pi as usize, k, sq)))
    }
    /// The choice (see [`part_slot`]) of the turn's part `pi` that places or removes (its only one).
    pub(crate) fn part_choice(&self, pi: usize) -> Option<usize> {
        with!(self, p => p.t.part_choices.iter().position(|&(q, k)| q as usize == pi && k.is_none()))
    }
    /// The neutral piece on `sq` (a duck, a hole), if there is one: it belongs to no player.
    pub fn neutral_at(&self, sq: usize) -> Option<KindId> {
        with!(self, p => p.neutral_at(sq))
    }
    pub fn fullmove(&self) -> u64 {
        with!(self, p => p.fullmove)
    }
    /// In a game with a roll: the number the side to move rolled (`None`: still to roll, or a
    /// game without chance).
    pub fn rolled(&self) -> Option<u32> {
        with!(self, p => p.rolled())
    }
    /// How many pieces stand on `sq`: a stack's count where pieces stack (1 for a lone piece
    /// elsewhere, 0 on an empty square).
    pub fn stack_count(&self, sq: usize) -> u32 {
        with!(self, p => p.stack_count(sq))
    }
    /// In a race game (dice used one by one, stacks...): the dice the side to move has still to
    /// use, highest first (empty before the roll). In other games of chance, the number rolled.
    pub fn dice_left(&self) -> Vec<u32> {
        match (self.rolled(), &self.rules.roll) {
            (Some(v), Some(r)) => r.dice(v),
            _ => Vec::new(),
        }
    }
    /// The roll as written (`5`, `5-3`), or the dice still to use partway through a turn.
    pub fn roll_text(&self) -> Option<String> {
        Some(self.rules.roll.as_ref()?.show(self.rolled()?))
    }
    /// The number a race game's move uses (its die), where the game is one.
    pub fn die_of(&self, m: Move) -> Option<u32> {
        with!(self, p => p.t.race.is_some().then(|| p.die_of(m)))
    }
    /// In a race game: the moves the dice allow before `must use the most dice` keeps only some.
    pub(crate) fn race_pseudo_moves(&self) -> Vec<Move> {
        let mut v = Vec::new();
        with!(self, p => if p.t.race.is_some() { p.race_pseudo(&mut v) });
        v
    }
    /// In a race game: how many dice the turn can use in all when it starts with `m`.
    pub(crate) fn dice_used_with(&self, m: Move) -> u32 {
        with!(self, p => p.dice_used_with(m))
    }
    /// The player who made the last move: the other side, unless the side to move earned
    /// another turn (`another turn after ...`).
    pub fn mover(&self) -> Side {
        with!(self, p => p.mover())
    }
    /// Is the side to move still to roll? Then the legal moves are the roll's results
    /// ([`MoveKind::Roll`]), chance's and not the player's.
    pub fn to_roll(&self) -> bool {
        with!(self, p => p.to_roll())
    }
    /// The roll's results: each the number shown and its weight (its chance is the weight over the
    /// weights' sum); empty in a game without chance.
    pub fn roll_results(&self) -> &[(u32, u64)] {
        match &self.inner {
            Inner::Small(p) => &p.t.rolls,
            Inner::Medium(p) => &p.t.rolls,
            Inner::Large(p) => &p.t.rolls,
            Inner::Huge(p) => &p.t.rolls,
        }
    }
    /// Where the side to move is still to roll: a result drawn with `rng` as likely as the roll
    /// makes it (the weights, without bias), as chance's move. `None` elsewhere.
    pub fn draw_roll(&self, rng: &mut impl rand_chacha::rand_core::RngCore) -> Option<Move> {
        if !self.to_roll() {
            return None;
        }
        let results = self.roll_results();
        let total: u64 = results.iter().map(|r| r.1).sum();
        // Uniform below `total`: draws past the last whole multiple of it are drawn again.
        let zone = u64::MAX - u64::MAX % total;
        let mut x = rng.next_u64();
        while x >= zone {
            x = rng.next_u64();
        }
        let mut x = x % total;
        for (i, &(value, weight)) in results.iter().enumerate() {
            if x < weight {
                return Some(Move::roll(i, value));
            }
            x -= weight;
        }
        unreachable!("a draw below the weights' sum falls on a result")
    }

    /// The position after the side to move rolls `value` (the same position, rolled), or why not:
    /// nothing is rolled in this game, the side has rolled already, or the roll never shows it.
    pub fn with_roll(&self, value: u32) -> Result<Position, String> {
        self.with_roll_text(&value.to_string())
    }

    /// [`Position::with_roll`] for a roll as written: `5`, or where the dice are used one by one,
    /// `5-3` (either order).
    pub fn with_roll_text(&self, text: &str) -> Result<Position, String> {
        let Some(roll) = self.rules.roll.as_ref() else {
            return Err("nothing is rolled in this game".into());
        };
        if !self.to_roll() {
            return Err(format!(
                "the side to move has rolled {} already",
                self.roll_text().unwrap_or_default()
            ));
        }
        let results = self.roll_results();
        let Some(i) = roll.read(text).and_then(|v| results.iter().position(|r| r.0 == v)) else {
            let form = if roll.apart.is_some() { " (its dice as `5-3`)" } else { "" };
            return Err(format!("the roll never shows {text}{form}: it shows {}", roll.shown_results()));
        };
        let mut out = self.clone();
        with_mut!(out, p => p.set_roll(i + 1));
        Ok(out)
    }
    /// The first move counter (FEN's halfmove clock).
    pub fn halfmove_clock(&self) -> u32 {
        with!(self, p => p.counters[0] as u32)
    }
    /// Plies since the last capture or move of `resetting` (the counter an end rule reads).
    pub fn counter_for(&self, resetting: Option<KindId>) -> u32 {
        with!(self, p => p.t.counters.iter().position(|c| *c == resetting).map_or(0, |i| p.counters[i] as u32))
    }
    /// Which of the move counters (see [`EndCounts::counters`]) a rule of plies without a capture
    /// or a move of `resetting` reads.
    pub(crate) fn counter_index(&self, resetting: Option<KindId>) -> usize {
        with!(self, p => p.t.counter_index(resetting))
    }
    /// What a simulated game's end rules ask of every position before they are judged, read at
    /// once: each side's pieces, the passes in a row and the move counters.
    pub(crate) fn end_counts(&self) -> EndCounts {
        with!(self, p => EndCounts {
            pieces: [p.side_bb[0].count(), p.side_bb[1].count()],
            passes: p.passes as u32,
            counters: p.counters,
            in_use: p.t.counters.len().min(crate::compile::MAX_COUNTERS),
        })
    }
    pub fn en_passant_squares(&self) -> Vec<usize> {
        with!(self, p => if p.ep_victim == position::NO_SQ { Vec::new() } else { p.ep.iter().collect() })
    }
    pub(crate) fn virgin_squares(&self) -> Vec<usize> {
        with!(self, p => p.virgin.iter().collect())
    }
    pub fn in_check(&self) -> bool {
        with!(self, p => p.in_check())
    }
    /// The legal moves into `out` (cleared first): [`Position::legal_moves`] without a new
    /// buffer each time, for loops that ask at every ply.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        with!(self, p => p.legal_moves(out));
    }
    /// The number of legal moves, counted without listing them, in a game that captures chains
    /// and has only placements and the pass; `None` in any other (see [`Pos::count_chain_moves`]).
    pub fn count_chain_moves(&self, repeats: chains::Repeats) -> Option<usize> {
        with!(self, p => p.count_chain_moves(repeats))
    }
    /// Starts or stops tracking the chains: which stones are in atari, and where each side's
    /// placement would be suicide or capture, what lets [`Position::count_chain_moves`] count
    /// without ruling on each point (a walk that counts its moves turns it on; it costs every
    /// placement a little). No effect in other games.
    pub fn track_atari(&mut self, on: bool) {
        with_mut!(self, p => p.track_atari(on))
    }
    /// Do the atari flags and point sets a tracking position keeps match the board (see
    /// [`Position::track_atari`])?
    #[cfg(test)]
    pub(crate) fn atari_sets_hold(&self) -> bool {
        with!(self, p => p.atari_sets_hold())
    }
    /// See [`Pos::chains_match_rebuild`].
    #[cfg(test)]
    pub(crate) fn chains_match_rebuild(&self) -> bool {
        with!(self, p => p.chains_match_rebuild())
    }
    /// Does the attack query agree with the full scan of attackers on every square, for both
    /// sides (the query takes a shortcut where every attack is a lookup)?
    #[cfg(test)]
    pub(crate) fn attack_queries_agree(&self) -> bool {
        with!(self, p => p.attack_queries_agree())
    }
    /// How many positions the repetition record holds (this one included).
    pub fn recorded_positions(&self) -> usize {
        with!(self, p => p.history.len())
    }
    /// A random player's move in such a game, drawn without listing the moves (see
    /// [`Pos::random_chain_move`]); `None` where the moves must be listed to choose.
    pub fn random_chain_move(&self, rng: &mut impl rand_chacha::rand_core::RngCore, scratch: &mut Vec<u16>) -> Option<Move> {
        with!(self, p => p.random_chain_move(rng, scratch))
    }
    /// Draws as [`Position::random_chain_move`] does and plays the move drawn, without the
    /// general path of [`Position::play_forward`] (see [`Pos::play_random_chain_move`]).
    pub fn play_random_chain_move(&mut self, rng: &mut impl rand_chacha::rand_core::RngCore, scratch: &mut Vec<u16>) -> RandomPly {
        with_mut!(self, p => p.play_random_chain_move(rng, scratch))
    }
    /// The legal moves, in generation order.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        with!(self, p => p.legal_moves(&mut v));
        v
    }
    pub fn pseudo_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        with!(self, p => p.pseudo_moves(&mut v));
        v
    }
    /// The legal moves by the plain definition: every pseudo-legal move that passes the full
    /// test. Slow; tests use it to check the generator's shortcuts.
    pub fn legal_moves_reference(&self) -> Vec<Move> {
        let mut v = self.pseudo_moves();
        with!(self, p => {
            v.retain(|m| p.is_legal_slow(*m));
            // The pass comes from no clause: it is a move wherever the ruleset allows it (and,
            // under `when no other move`, nothing else is legal) and it exposes no royal.
            if p.t.pass && (!p.t.pass_only_when_stuck || v.is_empty()) && p.is_legal_slow(position::PASS) {
                v.push(position::PASS);
            }
        });
        v
    }
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }
    /// Does `m` take a piece: does it land on an enemy, or is it an en-passant capture?
    /// Castling never captures.
    pub fn is_capture(&self, m: Move) -> bool {
        self.captures_of(m) > 0
    }
    /// How many pieces `m` captures: on its square, en passant, jumped over, or enclosed.
    pub fn captures_of(&self, m: Move) -> u32 {
        with!(self, p => p.captures_of(m))
    }
    /// The squares a jump passes over, in order (empty for any other move).
    pub fn jumped(&self, m: Move) -> Vec<usize> {
        match m.kind {
            MoveKind::Form(fi) => with!(self, p => {
                if p.t.forms[p.stm.index()].get(fi as usize).is_some_and(|f| f.jump.is_some()) { p.jumped(m).into_iter().map(usize::from).collect() } else { Vec::new() }
            }),
            _ => Vec::new(),
        }
    }
    /// The squares a move lands on, in order: for a continuing move each leg's landing square,
    /// otherwise just `to`.
    pub fn landings(&self, m: Move) -> Vec<usize> {
        let jump = match m.kind {
            MoveKind::Form(fi) => with!(self, p => p.t.forms[p.stm.index()].get(fi as usize).is_some_and(|f| f.jump.is_some())),
            _ => false,
        };
        if !jump || m.legs() == 0 {
            return vec![m.to as usize];
        }
        with!(self, p => p.route_squares(m).into_iter().map(|(_, land)| land as usize).collect())
    }
    /// The pieces in `side`'s hand: (kind, count) for each kind it holds.
    /// Among more than two players, the sides out of the game and their places.
    pub fn places(&self) -> Vec<(Side, u8)> {
        with!(self, p => (0..p.t.sides).map(Side).filter(|s| p.place[s.index()] != 0).map(|s| (s, p.place[s.index()])).collect())
    }
    /// Has every side its place (a game of more than two players over: see
    /// [`crate::compile::Tables::outs`])? The end rule that gave the last place.
    pub fn finished_by(&self) -> Option<usize> {
        with!(self, p => p.all_placed().then_some(p.out_rule as usize))
    }
    pub fn hand(&self, side: Side) -> Vec<(KindId, u32)> {
        with!(self, p => (0..self.rules.kinds.len())
            .filter(|&k| p.hands[side.index()][k] > 0)
            .map(|k| (KindId(k as u8), p.hands[side.index()][k] as u32))
            .collect())
    }
    /// Is the piece on `sq` a promoted one (tracked where captures go to hand unpromoted)?
    pub fn is_promoted(&self, sq: usize) -> bool {
        with!(self, p => p.promoted.has(sq))
    }
    /// Perft where a position that an automatic end rule ends (history conditions aside) is a
    /// leaf with no children.
    pub fn perft_stop_at_end(&self, depth: u32) -> u64 {
        let mut c = self.clone();
        with_mut!(c, p => p.perft_stop(depth))
    }
    /// About how many leaves perft at `depth` counts, from the exact counts of the first plies
    /// (up to three, none that would count more than about [`PERFT_SAMPLE`] leaves) and the
    /// branching of the last of them carried on to `depth`. Exact where `depth` is within the
    /// plies counted; cheap however deep `depth` is.
    pub fn perft_estimate(&self, depth: u32, stop_at_end: bool) -> f64 {
        let count = |d: u32| if stop_at_end { self.perft_stop_at_end(d) } else { self.perft(d) };
        let (mut before, mut at, mut ply) = (1u64, 1u64, 0u32);
        while ply < depth.min(3) {
            let next = at as f64 * (at as f64 / before as f64);
            if ply > 0 && next > PERFT_SAMPLE as f64 {
                break;
            }
            before = at;
            ply += 1;
            at = count(ply);
            if at == 0 {
                return 0.0;
            }
        }
        let branching = at as f64 / before as f64;
        at as f64 * branching.powi(depth.saturating_sub(ply) as i32)
    }
    /// Does condition `cond` of end rule `rule` hold here? Conditions about the game's history
    /// (repetition, checking throughout) never do here: [`Game`] decides them.
    pub fn end_condition_holds(&self, rule: usize, cond: usize) -> bool {
        with!(self, p => {
            let mut legal = None;
            p.t.ends.get(rule).and_then(|e| e.conds.get(cond)).is_some_and(|c| p.cond_holds(c, &mut legal))
        })
    }
    /// Can `side` still win from here, by any series of legal moves (both players helping)? An
    /// answer within `bounds`: see [`Winnability`].
    ///
    /// # Examples
    /// ```
    /// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
    /// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
    /// use arbiter::game::{Bounds, Winnability};
    /// use arbiter::model::Side;
    /// // Kings and a locked chain of pawns: neither king can ever reach the other side.
    /// let locked = engine.from_fen("8/4k3/8/p1p1p1p1/P1P1P1P1/8/4K3/8 w - - 0 1").expect("a legal FEN");
    /// assert!(matches!(locked.winnability(Side::FIRST, Bounds::FULL).verdict, Winnability::CannotWin(_)));
    /// ```
    pub fn winnability(&self, side: Side, bounds: Bounds) -> Answer {
        with!(self, p => p.winnability(&self.rules, side, bounds))
    }
    /// Does a `cannot win` condition for `who` hold: is "cannot win" proved for each player it
    /// names, within `bounds`?
    pub fn cannot_win(&self, who: Contender, bounds: Bounds) -> bool {
        who.sides(self.side_to_move()).into_iter().all(|s| {
            matches!(
                with!(self, p => p.winnability(&self.rules, s, bounds)).verdict,
                Winnability::CannotWin(_)
            )
        })
    }
    /// A cheap necessary test for the static "cannot win" proof, from the side to move's legal
    /// moves: none captures, no piece that may promote can move, and some piece of the side to move
    /// cannot move at all. False means the proof would fail; true means it may hold.
    pub fn may_be_walled_in(&self, legal: &[Move]) -> bool {
        with!(self, p => p.may_be_walled_in(legal))
    }
    /// Can a piece of `kind` of the side to move promote (somewhere)?
    pub fn promotes(&self, kind: KindId) -> bool {
        with!(self, p => p.t.promotion[p.stm.index()].get(kind.0 as usize).is_some_and(|x| x.is_some()))
    }
    /// Did the last move start a new stretch of the game's move counters (a capture or a move of
    /// the kind that resets them), or has the ruleset none? Moves within a stretch are ones the
    /// counters call reversible, so whether a side can still win is asked at its start.
    pub fn counters_reset(&self) -> bool {
        self.end_counts().reset()
    }
    /// The squares of `side`'s run that an `N in a row` condition of rule `rule` found.
    pub fn end_line(&self, rule: usize, cond: usize, side: Side) -> Option<Vec<usize>> {
        with!(self, p => match p.t.ends.get(rule).and_then(|e| e.conds.get(cond)) {
            Some(crate::compile::CCond::InARow { n, exact, dirs }) => p.line(side, *n, *exact, dirs),
            _ => None,
        })
    }
    /// The chain of `side`'s pieces a `connects` condition of rule `rule` found.
    pub fn end_connection(&self, rule: usize, cond: usize, side: Side) -> Option<Vec<usize>> {
        with!(self, p => match p.t.ends.get(rule).and_then(|e| e.conds.get(cond)) {
            Some(crate::compile::CCond::Connects { zones, need }) => p.connection_of(side, zones, *need),
            _ => None,
        })
    }
    /// The value of `side`'s declared count `i` (see [`crate::model::Tally`]).
    pub fn tally(&self, side: Side, i: usize) -> i64 {
        with!(self, p => p.tallies[side.index()].get(i).map_or(0, |v| *v as i64))
    }
    /// The count a comparison of end rule `rule` (condition `cond`) reads, for `side`.
    pub fn end_count(&self, rule: usize, cond: usize, side: Side) -> Option<i64> {
        with!(self, p => match p.t.ends.get(rule).and_then(|e| e.conds.get(cond)) {
            Some(crate::compile::CCond::Compare { count, .. }) => Some(p.count_of(count, side)),
            _ => None,
        })
    }
    /// Makes room in the record of positions (see [`Pos::reserve_record`]) for a game of up to
    /// `max_plies` more plies of placements, in a chain game: a game played forward then grows
    /// its table of keys once, not a doubling at a time.
    pub fn reserve_record(&mut self, max_plies: usize) {
        if self.chain_game() {
            with_mut!(self, p => p.reserve_record(max_plies));
        }
    }
    /// How many of the moves that led here were passes in a row.
    pub fn passes(&self) -> u32 {
        with!(self, p => p.passes as u32)
    }
    /// Area counts by whole sets, where the board allows (see `Pos::area_points`).
    pub(crate) fn area_points(&self) -> Option<[f64; 2]> {
        with!(self, p => p.area_points())
    }
    /// The number of pieces each side has on the board.
    pub fn piece_counts(&self) -> [u32; 2] {
        with!(self, p => [p.side_bb[0].count(), p.side_bb[1].count()])
    }
    /// Plays a move known to be legal (from [`Position::legal_moves`]).
    pub fn play_unchecked(&mut self, m: Move) {
        with_mut!(self, p => { p.make(m); });
    }
    /// Plays a legal move and forgets what only `unmake` would read, keeping the buffers' room:
    /// for a position played forward only (a simulated game), whose memory then stays flat.
    pub fn play_forward(&mut self, m: Move) {
        with_mut!(self, p => {
            p.make_forward(m);
            p.clear_undo();
        });
    }
    /// This position with `side` to move: a null move when it is not (for what the other side
    /// could do here, as chases ask).
    pub(crate) fn turned(&self, side: Side) -> Position {
        Position {
            rules: self.rules.clone(),
            inner: match &self.inner {
                Inner::Small(p) => Inner::Small(p.turned(side)),
                Inner::Medium(p) => Inner::Medium(p.turned(side)),
                Inner::Large(p) => Inner::Large(p.turned(side)),
                Inner::Huge(p) => Inner::Huge(p.turned(side)),
            },
        }
    }
    /// Drops the records only `unmake` reads (a position a game keeps is never unmade).
    pub(crate) fn forget_undo(&mut self) {
        with_mut!(self, p => p.forget_undo())
    }
    /// Takes the repetition record (the keys of the positions so far) out, leaving it empty.
    pub(crate) fn take_record(&mut self) -> chains::Record {
        with_mut!(self, p => p.take_record())
    }
    /// Puts a record taken by [`Position::take_record`] back.
    pub(crate) fn put_record(&mut self, r: chains::Record) {
        with_mut!(self, p => p.put_record(r))
    }
    /// The bytes this position holds on the heap: its board, chains, repetition record and undo
    /// records (the ruleset's tables, shared by every position, are not counted).
    pub fn heap_bytes(&self) -> usize {
        with!(self, p => p.heap_bytes())
    }
    /// Leaf nodes at `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut c = self.clone();
        with_mut!(c, p => p.perft(depth))
    }
    /// Perft on this very position (not a copy): every move below is made and unmade in place, so
    /// the position afterwards must be the one before (the tests hold make and unmake to that).
    pub fn perft_in_place(&mut self, depth: u32) -> u64 {
        with_mut!(self, p => p.perft(depth))
    }
    /// Perft per first move.
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        self.perft_divide_with(depth, false)
    }
    /// Perft per first move; `stop_at_end` as in [`Position::perft_stop_at_end`].
    pub fn perft_divide_with(&self, depth: u32, stop_at_end: bool) -> Vec<(Move, u64)> {
        if stop_at_end && with!(self, p => p.ended()) {
            return Vec::new();
        }
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut c = self.clone();
                c.play_unchecked(m);
                let n = match (depth <= 1, stop_at_end) {
                    (true, _) => 1,
                    (false, true) => c.perft_stop_at_end(depth - 1),
                    (false, false) => c.perft(depth - 1),
                };
                (m, n)
            })
            .collect()
    }
    /// Perft per first move, in generation order, calling `each` with a first move's count as
    /// soon as it is known; `stop_at_end` as in [`Position::perft_stop_at_end`]. Made for long
    /// runs: the tree is cut into subtrees that take a few milliseconds each (how deep to cut
    /// adapts to the game as the count goes), and between two of them the count adds to
    /// `watch.nodes` and looks at `watch.stop`. The generator's inner loop is untouched.
    ///
    /// # Errors
    /// [`PerftStopped`] once `watch.stop` is set, with how many first moves were finished;
    /// `watch.nodes` holds the nodes counted until then.
    ///
    /// # Examples
    /// ```
    /// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
    /// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
    /// use arbiter::game::PerftWatch;
    /// let watch = PerftWatch::default();
    /// let mut rows = Vec::new();
    /// engine.start().perft_divide_watched(3, false, &watch, |m, n| rows.push((m, n))).expect("not stopped");
    /// assert_eq!(rows.len(), 20);
    /// assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 8902);
    /// assert_eq!(watch.nodes.load(std::sync::atomic::Ordering::Relaxed), 8902);
    /// ```
    pub fn perft_divide_watched(
        &self,
        depth: u32,
        stop_at_end: bool,
        watch: &PerftWatch,
        each: impl FnMut(Move, u64) + Send,
    ) -> Result<(), PerftStopped> {
        self.perft_divide_threads(depth, stop_at_end, watch, 1, each)
    }

    /// [`Position::perft_divide_watched`] on `threads` threads (at least one; the caller's is one
    /// of them): each takes the next first move not yet taken, so `each` is called as first moves
    /// finish — in generation order on one thread, in the order they finish on several. The count
    /// does not depend on the threads. Stopped, the first moves finished are counted in
    /// [`PerftStopped::finished`] and `watch.nodes` holds every node counted on any thread.
    ///
    /// # Errors
    /// [`PerftStopped`] once `watch.stop` is set.
    ///
    /// # Examples
    /// ```
    /// # let checked = arbiter::check::check_file(std::path::Path::new("../rulesets/chess.rules"), &[]);
    /// # let engine = arbiter::game::Engine::new(checked.rules.expect("chess.rules is valid"));
    /// use arbiter::game::PerftWatch;
    /// let watch = PerftWatch::default();
    /// let mut total = 0;
    /// engine.start().perft_divide_threads(4, false, &watch, 2, |_, n| total += n).expect("not stopped");
    /// assert_eq!(total, 197_281);
    /// ```
    pub fn perft_divide_threads(
        &self,
        depth: u32,
        stop_at_end: bool,
        watch: &PerftWatch,
        threads: usize,
        each: impl FnMut(Move, u64) + Send,
    ) -> Result<(), PerftStopped> {
        if depth == 0 || (stop_at_end && with!(self, p => p.ended())) {
            return Ok(());
        }
        let moves = self.legal_moves();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let finished = std::sync::atomic::AtomicUsize::new(0);
        let each = std::sync::Mutex::new(each);
        let work = || {
            let mut cut = Cut { depth: 1 };
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&m) = moves.get(i) else { return };
                let mut c = self.clone();
                c.play_unchecked(m);
                let Some(n) = c.perft_in_pieces(depth - 1, stop_at_end, watch, &mut cut) else {
                    return;
                };
                // A panic in another thread's `each` leaves the lock poisoned, not the count wrong.
                (each.lock().unwrap_or_else(|e| e.into_inner()))(m, n);
                finished.fetch_add(1, Ordering::Relaxed);
            }
        };
        std::thread::scope(|s| {
            for _ in 1..threads.max(1) {
                s.spawn(work);
            }
            work();
        });
        let finished = finished.into_inner();
        if finished < moves.len() {
            return Err(PerftStopped { finished });
        }
        Ok(())
    }

    /// Perft from here, whole below `cut.depth` and split by moves above it; `None` once stopped.
    fn perft_in_pieces(&self, depth: u32, stop_at_end: bool, watch: &PerftWatch, cut: &mut Cut) -> Option<u64> {
        if watch.stop.load(Ordering::Relaxed) {
            return None;
        }
        if depth <= cut.depth {
            let began = Instant::now();
            let n = if stop_at_end {
                self.perft_stop_at_end(depth)
            } else {
                self.perft(depth)
            };
            cut.adapt(depth, began.elapsed());
            watch.nodes.fetch_add(n, Ordering::Relaxed);
            return Some(n);
        }
        if stop_at_end && with!(self, p => p.ended()) {
            return Some(0);
        }
        let mut n = 0;
        for m in self.legal_moves() {
            let mut c = self.clone();
            c.play_unchecked(m);
            n += c.perft_in_pieces(depth - 1, stop_at_end, watch, cut)?;
        }
        Some(n)
    }
    /// Zobrist hash of pieces and side to move.
    pub fn hash(&self) -> u64 {
        with!(self, p => p.hash)
    }
    /// The identity of a position for repetition: pieces, side to move, castling rights that
    /// still exist, and an en-passant square only if an en-passant capture is legal.
    pub fn repetition_key(&self) -> u64 {
        // The legal moves count only where an en-passant capture might be: generate them only then
        // (a game computes this key at every move).
        let legal = if with!(self, p => p.ep_victim != position::NO_SQ) {
            self.legal_moves()
        } else {
            Vec::new()
        };
        with!(self, p => repetition_key(p, &legal))
    }
    /// [`Position::repetition_key`] given this position's legal moves (`legal_moves()`), which
    /// the key reads (an en-passant capture counts only when one is legal).
    pub fn repetition_key_given(&self, legal: &[Move]) -> u64 {
        with!(self, p => repetition_key(p, legal))
    }
    /// Would the placement `m` fill a single-point eye of the mover's own: an empty point whose
    /// neighbours are all the mover's pieces or the board's edge? (Games that capture chains;
    /// false for every other move.) Random players never fill one, as go programs' playouts do not.
    pub fn fills_own_eye(&self, m: Move) -> bool {
        if !matches!(m.kind, MoveKind::Place(_)) {
            return false;
        }
        with!(self, p => p.fills_own_eye(m.to as usize))
    }
    /// Pieces of each side by kind.
    pub fn material(&self) -> [Vec<KindId>; 2] {
        let mut out = [Vec::new(), Vec::new()];
        for sq in 0..self.rules.board.squares() {
            if let Some((k, s)) = self.piece_at(sq) {
                out[s.index()].push(k);
            }
        }
        out[0].sort();
        out[1].sort();
        out
    }
    /// The squares of the royal pieces of `side`.
    pub fn royal_squares(&self, side: Side) -> Vec<usize> {
        with!(self, p => p.royals(side).iter().collect())
    }
    /// The pieces of `by` attacking `sq` in the current position.
    pub fn attackers_of(&self, sq: usize, by: Side) -> Vec<usize> {
        with!(self, p => p.attackers(sq, by, p.occ(), Default::default()))
    }
    /// The pieces of `side`'s enemies attacking `sq`: the other player's, or among more than two
    /// every enemy's (not its partners', not those of a side out of the game).
    pub fn enemy_attackers_of(&self, sq: usize, side: Side) -> Vec<usize> {
        with!(self, p => {
            if !p.many() {
                return p.attackers(sq, side.other(), p.occ(), Default::default());
            }
            let occ = p.occ();
            p.enemy_sides(side).flat_map(|by| p.attackers(sq, by, occ, Default::default())).collect()
        })
    }
    /// Attackers of `side`'s royals after `m` is played by `side`: what makes a move illegal.
    pub(crate) fn exposing(&self, m: Move) -> Vec<(usize, usize)> {
        let mut after = self.clone();
        after.play_unchecked(m);
        let us = self.side_to_move();
        let mut v = Vec::new();
        for r in after.royal_squares(us) {
            for a in after.enemy_attackers_of(r, us) {
                v.push((r, a));
            }
        }
        v
    }
    /// Royal squares facing an enemy royal after `m` (flying general).
    pub(crate) fn facing_after(&self, m: Move) -> Vec<(usize, usize)> {
        let mut after = self.clone();
        after.play_unchecked(m);
        let us = self.side_to_move();
        with!(after, p => {
            let occ = p.occ();
            let mut v = Vec::new();
            for r in p.royals(us).iter() {
                for &d in &p.t.facing {
                    if let Some(b) = p.t.first_blocker(d as usize, r, occ)
                        && p.royals(us.other()).has(b) {
                            v.push((r, b));
                        }
                }
            }
            v
        })
    }
    /// Squares reached by a piece's clause from `from` ignoring what stands on them (for explanations).
    pub(crate) fn clause_reach(&self, side: Side, kind: KindId, clause: usize, from: usize, empty_board: bool) -> Vec<usize> {
        with!(self, p => {
            let f = p.t.forms[side.index()].iter().find(|f| f.kind == kind && f.clause as usize == clause);
            match f {
                Some(f) => {
                    let occ = if empty_board { Default::default() } else { p.occ() };
                    (p.form_targets(f, from, occ) & f.within).iter().collect()
                }
                None => Vec::new(),
            }
        })
    }
    pub(crate) fn form_of(&self, m: Move) -> Option<(KindId, usize)> {
        match m.kind {
            MoveKind::Form(fi) | MoveKind::BearOff(fi) => with!(self, p => {
                let f = &p.t.forms[p.stm.index()][fi as usize];
                Some((f.kind, f.clause as usize))
            }),
            MoveKind::Castle(_) | MoveKind::Place(_) | MoveKind::Drop(_) | MoveKind::Pass | MoveKind::Swap | MoveKind::Roll(_) => None,
        }
    }
    /// The kind and clause (its index among the kind's) that place or drop `m`'s piece.
    pub(crate) fn placing_clause_of(&self, m: Move) -> Option<(KindId, usize)> {
        match m.kind {
            MoveKind::Place(fi) | MoveKind::Drop(fi) => {
                with!(self, p => p.t.forms[p.stm.index()].get(fi as usize).map(|f| (f.kind, f.clause as usize)))
            }
            _ => None,
        }
    }
    pub(crate) fn castle_of(&self, m: Move) -> Option<(KindId, usize)> {
        match m.kind {
            MoveKind::Castle(ci) => with!(self, p => {
                let c = &p.t.castles[p.stm.index()][ci as usize];
                Some((c.kind, c.index as usize))
            }),
            MoveKind::Form(_)
            | MoveKind::Place(_)
            | MoveKind::Drop(_)
            | MoveKind::Pass
            | MoveKind::Swap
            | MoveKind::Roll(_)
            | MoveKind::BearOff(_) => None,
        }
    }
    /// Does this game capture chains (go-like)?
    pub fn chain_game(&self) -> bool {
        with!(self, p => p.t.chains)
    }
    /// The kind a placing move puts on the board.
    pub fn form_of_place(&self, m: Move) -> Option<KindId> {
        self.placing_clause_of(m).map(|(k, _)| k)
    }
    /// The squares of the chain containing `sq` (games that capture chains; empty otherwise).
    pub fn chain_at(&self, sq: usize) -> Vec<usize> {
        with!(self, p => p.chain_at(sq))
    }
    /// Why placing a piece of `kind` on `sq` would be illegal: `suicide` or `repetition`.
    pub fn place_problem(&self, kind: KindId, sq: usize) -> Option<&'static str> {
        with!(self, p => p.place_problem(kind, sq))
    }
}

fn repetition_key<B: Bits>(p: &Pos<B>, legal: &[Move]) -> u64 {
    let mut h = p.hash;
    for side in [Side::FIRST, Side::SECOND] {
        for c in &p.t.castles[side.index()] {
            let castlers = p.pieces(side, c.kind) & p.virgin;
            for k in castlers.iter() {
                for &d in &c.dirs {
                    let partners = p.t.ray(d as usize, k) & p.pieces(side, c.partner) & p.virgin;
                    for r in partners.iter() {
                        h ^= p.t.z_virgin[r].rotate_left(7) ^ p.t.z_virgin[k];
                    }
                }
            }
        }
    }
    if p.ep_victim != position::NO_SQ {
        let ep_legal = legal.iter().any(|m| match m.kind {
            MoveKind::Form(fi) => p.t.forms[p.stm.index()][fi as usize].target == Target::EnPassant,
            MoveKind::Castle(_)
            | MoveKind::Place(_)
            | MoveKind::Drop(_)
            | MoveKind::Pass
            | MoveKind::Swap
            | MoveKind::Roll(_)
            | MoveKind::BearOff(_) => false,
        });
        if ep_legal {
            h ^= p.t.z_ep[p.ep_victim as usize];
        }
    }
    h
}
