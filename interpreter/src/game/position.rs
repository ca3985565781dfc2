//! A position for one bitboard width: piece bitboards plus a mailbox, side to move, en-passant
//! mark, unmoved pieces, move counters and an incremental Zobrist hash. Move generation and
//! make/unmake run on the compiled [`Tables`] only: no names, no syntax tree.

use std::sync::Arc;

use super::bits::Bits;
use super::ends::Known;
use super::{Move, MoveKind};
use crate::compile::{CForm, Gen, MAX_COUNTERS, Out, QuickForm, Tables};
use crate::model::*;

pub const NO_SQ: u16 = u16::MAX;

/// The slots of [`Pos::side_bb`]: every value a cell's side bits can take.
pub const SIDE_SLOTS: usize = 1 << SIDE_BITS;

/// The pass: the player gives up the turn.
pub const PASS: Move = Move {
    from: NO_SQ,
    to: NO_SQ,
    kind: MoveKind::Pass,
    promo: 0,
    route: 0,
};

/// What `make` needs to undo a move.
#[derive(Clone, Copy, Debug)]
pub struct Undo<B> {
    captured: u8,
    cap_sq: u16,
    moved: u8,
    pub(super) ep: B,
    pub(super) ep_victim: u16,
    pub(super) virgin: B,
    pub(super) counters: [u16; MAX_COUNTERS],
    pub(super) hash: u64,
    partner_from: u16,
    partner_to: u16,
}

/// What `make` keeps for `unmake` in games that take the general path (hands, effects, passes):
/// on a stack of its own, so the plain case's [`Undo`] stays small.
#[derive(Clone, Copy, Debug)]
struct Extra<B> {
    promoted: B,
    last_captured: u32,
    passes: u8,
    /// Length of the effect log before the move.
    log_len: u32,
    /// What the turn's later parts changed.
    parts: super::turn::PartsUndo,
    /// The counts before the move.
    tallies: [[i16; MAX_TALLIES]; 2],
    /// The phase before the move.
    phase: u8,
}

#[derive(Debug)]
pub struct Pos<B: Bits> {
    pub t: Arc<Tables<B>>,
    /// Each side's pieces (only the first [`Tables::sides`] are ever set). One slot per value a
    /// cell's side bits can take, so that indexing by [`cell_side`] needs no bounds check.
    pub side_bb: [B; SIDE_SLOTS],
    pub kind_bb: [B; MAX_KINDS],
    /// 0 = empty, else 1 + 2 × kind + side.
    pub cells: Vec<u8>,
    pub stm: Side,
    /// Squares marked for en passant by the last move (capturable by the side to move).
    pub ep: B,
    /// The piece that made the mark.
    pub ep_victim: u16,
    /// Pieces that have not moved (tracked for castling and `unmoved` forms).
    pub virgin: B,
    pub counters: [u16; MAX_COUNTERS],
    pub fullmove: u64,
    /// Zobrist hash of the pieces and the side to move.
    pub hash: u64,
    /// Squares holding neutral pieces (each also in its kind's bitboard, in no side's, and empty
    /// in `cells`): they block every line and are never captured.
    pub walls: B,
    /// Chains and liberties, in games that capture chains.
    pub chains: Option<Box<super::chains::Chains<B>>>,
    /// Points a capture of chains has emptied while this position's line was played (a superset
    /// is harmless: see [`Pos::count_chain_moves`]).
    pub vacated: B,
    /// Each side's empty points where a placement of its captures (beside an enemy chain in
    /// atari), kept with [`Pos::airless`].
    pub takes: [B; 2],
    /// Each side's empty points where a placement of its would capture nothing and leave its chain
    /// no liberty, kept only while the chains are [tracked](super::chains::Chains::track): what
    /// lets [`Pos::count_chain_moves`] count the suicides without ruling on each point. Where it
    /// stands changes only beside a placement, a capture or a chain whose standing in atari
    /// changed, so it is ruled on there alone.
    pub airless: [B; 2],
    /// Keys of the positions so far, in games that forbid repetition (superko, ko).
    pub history: Vec<u64>,
    /// The same keys counted, for constant-time lookups.
    pub seen: super::chains::KeySet,
    /// What `unmake` restores in chain games (captures rebuild chains too much to undo by hand).
    snapshots: Vec<Snapshot<B>>,
    /// Pieces in hand, per side and kind.
    pub hands: [[u8; MAX_KINDS]; MAX_SIDES],
    /// Pieces that promoted (tracked where captures go to hand unpromoted).
    pub promoted: B,
    /// The kinds the last move captured, a bit per kind.
    pub last_captured: u32,
    /// How many of the last moves were passes.
    pub passes: u8,
    /// The declared counts' values, per side (see [`crate::model::Tally`]).
    pub tallies: [[i16; MAX_TALLIES]; 2],
    /// The phase the game is in (an index into the ruleset's phases; 0 where it has none).
    pub phase: u8,
    /// In a game with a roll: 0 while the side to move is still to roll (the position's moves are
    /// the roll's results), else 1 + the index of the result rolled (into `Tables::rolls`).
    /// Always 0 in a game without chance.
    pub roll: u8,
    /// The side to move made the last move too: it earned another turn (`another turn after
    /// ...`). Then it is the mover the end rules name. Not in FEN: a position read from one has
    /// the other side as its mover.
    pub again: bool,
    /// [`Tables::many`], kept here: the occupancy and enemy masks read it on every move, and a
    /// field beside `side_bb` costs no load through the tables' pointer.
    many: bool,
    /// Among more than two players: each side's place once it is out of the game (finished or
    /// lost: see [`Tables::outs`]), 0 while it plays.
    pub place: [u8; MAX_SIDES],
    /// Among more than two players: the side that made the last move (the turn may since have
    /// passed over sides that are out).
    pub(super) moved: Side,
    /// The end rule that gave the last place (an index into the end rules).
    pub out_rule: u8,
    /// What `unmake` restores among more than two players.
    many_undo: Vec<ManyUndo>,
    /// Squares changed by effects (jumped, enclosed or swapped pieces), with the cell each held
    /// before, for `unmake`.
    pub(super) log: Vec<(u16, u8)>,
    /// Set while judging the replies to a drop that may not checkmate (no question within it).
    pub(super) mate_probe: bool,
    /// What `unmake` restores in games on the general path.
    extra: Vec<Extra<B>>,
    /// In games with a roll or another turn: [`Pos::roll`] and [`Pos::again`] before each move
    /// (the roll in the low 7 bits, `again` in the top one), for `unmake`; apart from `extra`, so
    /// that the other games' undo records stay as they were.
    turn_undo: Vec<u8>,
    /// In a race game where pieces stack: per square, how many pieces stand there (empty in every
    /// other game; see [`super::race`]).
    pub stack: Vec<u8>,
    /// What `unmake` restores in a race game.
    pub(super) race_undo: Vec<super::race::RaceUndo>,
}

impl<B: Bits> Clone for Pos<B> {
    fn clone(&self) -> Self {
        Pos {
            t: self.t.clone(),
            cells: self.cells.clone(),
            chains: self.chains.clone(),
            history: self.history.clone(),
            seen: self.seen.clone(),
            snapshots: self.snapshots.clone(),
            log: self.log.clone(),
            extra: self.extra.clone(),
            turn_undo: self.turn_undo.clone(),
            stack: self.stack.clone(),
            race_undo: self.race_undo.clone(),
            many_undo: self.many_undo.clone(),
            // The rest is `Copy` (a field that is not cannot be taken from `*self` here).
            ..*self
        }
    }

    /// Into what `self` holds: its tables and lists keep their room (a playout or a search
    /// copying its start into the same position again and again allocates nothing, and copies a
    /// chain game's points alone: see `Chains::clone_from`).
    fn clone_from(&mut self, source: &Self) {
        let mut cells = std::mem::take(&mut self.cells);
        let mut chains = self.chains.take();
        let mut history = std::mem::take(&mut self.history);
        let mut seen = std::mem::take(&mut self.seen);
        let mut snapshots = std::mem::take(&mut self.snapshots);
        let mut log = std::mem::take(&mut self.log);
        let mut extra = std::mem::take(&mut self.extra);
        let mut turn_undo = std::mem::take(&mut self.turn_undo);
        let mut stack = std::mem::take(&mut self.stack);
        let mut race_undo = std::mem::take(&mut self.race_undo);
        let mut many_undo = std::mem::take(&mut self.many_undo);
        many_undo.clone_from(&source.many_undo);
        stack.clone_from(&source.stack);
        race_undo.clone_from(&source.race_undo);
        cells.clone_from(&source.cells);
        chains.clone_from(&source.chains);
        history.clone_from(&source.history);
        seen.clone_from(&source.seen);
        snapshots.clone_from(&source.snapshots);
        log.clone_from(&source.log);
        extra.clone_from(&source.extra);
        turn_undo.clone_from(&source.turn_undo);
        *self = Pos {
            t: source.t.clone(),
            cells,
            chains,
            history,
            seen,
            snapshots,
            log,
            extra,
            turn_undo,
            stack,
            race_undo,
            many_undo,
            ..*source
        };
    }
}

/// What `unmake` restores among more than two players: the places and the last mover from
/// before the move, and the side to move (with the move number and `again`) as the move itself
/// left them, before the turn passed over sides that are out.
#[derive(Clone, Copy, Debug)]
struct ManyUndo {
    place: [u8; MAX_SIDES],
    moved: Side,
    out_rule: u8,
    stm: Side,
    fullmove: u64,
    again: bool,
    roll: u8,
}

#[derive(Clone, Debug)]
struct Snapshot<B: Bits> {
    cells: Vec<u8>,
    side_bb: [B; SIDE_SLOTS],
    kind_bb: [B; MAX_KINDS],
    chains: Option<Box<super::chains::Chains<B>>>,
    takes: [B; 2],
    airless: [B; 2],
}

#[inline(always)]
pub fn cell(kind: KindId, side: Side) -> u8 {
    1 + (kind.0 << SIDE_BITS) + side.0
}
#[inline(always)]
pub fn cell_kind(c: u8) -> KindId {
    KindId((c - 1) >> SIDE_BITS)
}
#[inline(always)]
pub fn cell_side(c: u8) -> Side {
    Side((c - 1) & ((1 << SIDE_BITS) - 1))
}

impl<B: Bits> Pos<B> {
    pub fn empty(t: Arc<Tables<B>>) -> Pos<B> {
        let n = t.squares;
        let t_stacks = t.race.as_ref().is_some_and(|r| r.stack.is_some());
        let many = t.many;
        Pos {
            t,
            side_bb: [B::EMPTY; SIDE_SLOTS],
            kind_bb: [B::EMPTY; MAX_KINDS],
            cells: vec![0; n],
            stm: Side::FIRST,
            ep: B::EMPTY,
            ep_victim: NO_SQ,
            virgin: B::EMPTY,
            counters: [0; MAX_COUNTERS],
            fullmove: 1,
            hash: 0,
            walls: B::EMPTY,
            chains: None,
            vacated: B::EMPTY,
            takes: [B::EMPTY; 2],
            airless: [B::EMPTY; 2],
            history: Vec::new(),
            seen: Default::default(),
            snapshots: Vec::new(),
            hands: [[0; MAX_KINDS]; MAX_SIDES],
            promoted: B::EMPTY,
            last_captured: 0,
            passes: 0,
            tallies: [[0; MAX_TALLIES]; 2],
            phase: 0,
            roll: 0,
            again: false,
            many,
            place: [0; MAX_SIDES],
            moved: Side::FIRST,
            out_rule: 0,
            many_undo: Vec::new(),
            log: Vec::new(),
            mate_probe: false,
            extra: Vec::new(),
            turn_undo: Vec::new(),
            stack: if t_stacks { vec![0; n] } else { Vec::new() },
            race_undo: Vec::new(),
        }
    }

    /// Drops what only `unmake` reads: the snapshots, effect log and restore records of moves
    /// made on this position and never unmade. A position a game keeps after `make` is never
    /// unmade, and in chain games each of those records holds a whole board.
    pub(crate) fn forget_undo(&mut self) {
        self.snapshots = Vec::new();
        self.log = Vec::new();
        self.extra = Vec::new();
        self.turn_undo = Vec::new();
        self.race_undo = Vec::new();
    }

    /// [`Pos::forget_undo`] that keeps the buffers' room, for a position played forward move
    /// after move (a simulated game), where freeing and growing them again each move would cost.
    pub(crate) fn clear_undo(&mut self) {
        self.snapshots.clear();
        self.log.clear();
        self.extra.clear();
        self.turn_undo.clear();
        self.race_undo.clear();
    }

    /// The bytes this position holds on the heap (its own allocations; the shared tables are
    /// not counted).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let chains =
            |c: &Option<Box<super::chains::Chains<B>>>| c.as_deref().map_or(0, |c| size_of::<super::chains::Chains<B>>() + c.heap_bytes());
        self.cells.capacity()
            + chains(&self.chains)
            + self.history.capacity() * size_of::<u64>()
            + self.seen.heap_bytes()
            + self.snapshots.capacity() * size_of::<Snapshot<B>>()
            + self.snapshots.iter().map(|s| s.cells.capacity() + chains(&s.chains)).sum::<usize>()
            + self.log.capacity() * size_of::<(u16, u8)>()
            + self.extra.capacity() * size_of::<Extra<B>>()
            + self.turn_undo.capacity()
            + self.stack.capacity()
            + self.race_undo.capacity() * size_of::<super::race::RaceUndo>()
    }

    pub(crate) fn remove_piece(&mut self, sq: usize) {
        self.remove(sq);
    }

    /// The occupied squares: every side's pieces and the neutral ones.
    #[inline(always)]
    pub fn occ(&self) -> B {
        if self.many {
            return self.occ_of_many();
        }
        self.side_bb[0] | self.side_bb[1] | self.walls
    }
    /// The pieces of every side but `us` (its enemies: in a game of more than two players, all
    /// the others').
    #[inline(always)]
    pub fn enemies(&self, us: Side) -> B {
        if self.many {
            return self.enemies_of_many(us);
        }
        self.side_bb[us.other().index()]
    }
    /// `us`'s pieces, its enemies' and the occupied squares (every side's, partners' too), with
    /// one test of the number of sides.
    #[inline(always)]
    pub fn own_enemy_occ(&self, us: Side) -> (B, B, B) {
        let own = self.side_bb[us.index()];
        if self.many {
            return (own, self.enemies_of_many(us), self.occ_of_many());
        }
        let enemy = self.side_bb[us.other().index()];
        (own, enemy, own | enemy | self.walls)
    }
    /// [`Pos::occ`] in a game of more than two players: out of line, so that the two-player
    /// callers keep their registers.
    #[inline(never)]
    fn occ_of_many(&self) -> B {
        self.side_bb.iter().fold(self.walls, |a, &b| a | b)
    }
    /// [`Pos::enemies`] in a game of more than two players (out of line, as [`Pos::occ_of_many`]).
    #[inline(never)]
    fn enemies_of_many(&self, us: Side) -> B {
        let ours = self.t.team[us.index()];
        let t = &*self.t;
        (0..t.sides as usize)
            .filter(|&s| t.team[s] != ours)
            .fold(B::EMPTY, |a, s| a | self.side_bb[s])
    }

    /// The sides that are `us`'s enemies among more than two: not its own, not its partners', not
    /// out of the game.
    pub(crate) fn enemy_sides(&self, us: Side) -> impl Iterator<Item = Side> + '_ {
        let ours = self.t.team[us.index()];
        (0..self.t.sides)
            .map(Side)
            .filter(move |s| self.t.team[s.index()] != ours && self.place[s.index()] == 0)
    }

    /// Is `sq` threatened (as royal safety means it) by a piece of any of `us`'s enemies?
    #[inline(always)]
    pub(crate) fn in_danger(&self, sq: usize, us: Side, occ: B) -> bool {
        if self.many {
            return self.enemy_sides(us).any(|by| self.threatened(sq, by, occ));
        }
        self.threatened(sq, us.other(), occ)
    }
    #[inline(always)]
    pub fn pieces(&self, side: Side, kind: KindId) -> B {
        self.kind_bb[kind.0 as usize] & self.side_bb[side.index()]
    }

    #[inline(always)]
    pub fn put(&mut self, sq: usize, kind: KindId, side: Side) {
        let c = cell(kind, side);
        self.cells[sq] = c;
        self.side_bb[side.index()].set(sq);
        self.kind_bb[kind.0 as usize].set(sq);
        self.hash ^= self.t.z_piece.key(c, sq);
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, sq: usize) -> u8 {
        let c = self.cells[sq];
        debug_assert!(c != 0);
        self.cells[sq] = 0;
        self.side_bb[cell_side(c).index()].toggle(sq);
        self.kind_bb[cell_kind(c).0 as usize].toggle(sq);
        self.hash ^= self.t.z_piece.key(c, sq);
        c
    }

    #[inline(always)]
    pub(super) fn place(&mut self, sq: usize, c: u8) {
        self.cells[sq] = c;
        self.side_bb[cell_side(c).index()].set(sq);
        self.kind_bb[cell_kind(c).0 as usize].set(sq);
        self.hash ^= self.t.z_piece.key(c, sq);
    }

    /// The piece on `sq`; `None` for an empty square and for a square off the board (`NO_SQ`, the
    /// `from` of a placement or a pass).
    pub fn piece_at(&self, sq: usize) -> Option<(KindId, Side)> {
        let c = self.cells.get(sq).copied().unwrap_or(0);
        (c != 0).then(|| (cell_kind(c), cell_side(c)))
    }

    pub fn royals(&self, side: Side) -> B {
        let mut r = B::EMPTY;
        for k in &self.t.royal_kinds {
            r |= self.pieces(side, *k);
        }
        r
    }

    // ------------------------------------------------------------------ attacks

    /// The pieces of the kinds in `kinds` (a bit per kind), of either side.
    #[inline(always)]
    fn kinds_of(&self, kinds: u32) -> B {
        let mut b = B::EMPTY;
        let mut k = kinds;
        while k != 0 {
            b |= self.kind_bb[k.trailing_zeros() as usize];
            k &= k - 1;
        }
        b
    }

    /// Is `sq` attacked by `by`, with occupancy `occ` and the pieces on `gone` removed?
    #[inline(always)]
    pub fn attacked(&self, sq: usize, by: Side, occ: B, gone: B) -> bool {
        let t = &*self.t;
        let a = &t.attacks[by.index()];
        if a.lookups_only {
            let them = self.side_bb[by.index()] & !gone;
            if (a.leap_reach[sq] & them).any()
                && a.leaps
                    .iter()
                    .any(|(k, rev, _)| (rev[sq] & self.kind_bb[k.0 as usize] & them).any())
            {
                return true;
            }
            return a
                .line_slides
                .iter()
                .any(|&(l, kinds)| (t.lines.attacks(l, sq, occ) & them & self.kinds_of(kinds)).any());
        }
        let mut hit = false;
        self.scan_attackers::<true>(sq, by, occ, gone, &mut |_| {
            hit = true;
            true
        });
        hit
    }

    /// See [`super::Position::attack_queries_agree`].
    #[cfg(test)]
    pub(super) fn attack_queries_agree(&self) -> bool {
        let occ = self.occ();
        // The probe of many squares at once, each with its own piece taken, as a royal's steps ask.
        let probed = [Side::FIRST, Side::SECOND].iter().all(|&by| match Probe::new(self, by) {
            Some(probe) => {
                // Both ways of asking the slides: from each square, and from the sliders.
                let every = self.t.board_mask;
                [None, Some(probe.reached(self, occ))].into_iter().all(|reached| {
                    let safe = probe.safe_given(self, every, occ, reached);
                    every.iter().all(|sq| safe.has(sq) != self.attacked(sq, by, occ, B::bit(sq)))
                })
            }
            None => true,
        });
        probed
            && (0..self.t.squares).filter(|&sq| self.t.board_mask.has(sq)).all(|sq| {
                [Side::FIRST, Side::SECOND].iter().all(|&by| {
                    // With the square's own piece lifted too, as a move's legality test asks.
                    [B::EMPTY, B::bit(sq)]
                        .iter()
                        .all(|&gone| self.attacked(sq, by, occ, gone) == !self.attackers(sq, by, occ, gone).is_empty())
                })
            })
    }

    /// All attackers of `sq` by `by`.
    pub fn attackers(&self, sq: usize, by: Side, occ: B, gone: B) -> Vec<usize> {
        let mut v = Vec::new();
        self.scan_attackers::<true>(sq, by, occ, gone, &mut |s| {
            v.push(s);
            false
        });
        v
    }

    /// Calls `found` for each attacker until it returns true (slides only when `SLIDES`).
    #[inline(always)]
    fn scan_attackers<const SLIDES: bool>(&self, sq: usize, by: Side, occ: B, gone: B, found: &mut impl FnMut(usize) -> bool) {
        let t = &*self.t;
        let a = &t.attacks[by.index()];
        let them = self.side_bb[by.index()] & !gone;
        for (k, rev, unmoved) in a.leaps.iter().filter(|_| (a.leap_reach[sq] & them).any()) {
            let mut x = rev[sq] & self.kind_bb[k.0 as usize] & them;
            if *unmoved {
                x &= self.virgin;
            }
            for s in x.iter() {
                if found(s) {
                    return;
                }
            }
        }
        for (k, rev) in &a.lame {
            let pk = self.kind_bb[k.0 as usize] & them;
            if pk.any() {
                for &(from, block) in &rev[sq] {
                    if pk.has(from as usize) && (block & occ).is_empty() && found(from as usize) {
                        return;
                    }
                }
            }
        }
        // What is left looks along rays: only hops without `SLIDES`, and only where an enemy piece
        // that slides or hops stands on a line to the square.
        if (!SLIDES && a.hops.is_empty() && a.hops_not.is_empty()) || (a.reach[sq] & them & self.kinds_of(a.ray_kinds)).is_empty() {
            return;
        }
        for &(l, kinds) in a.line_slides.iter().filter(|_| SLIDES) {
            let sliders = them & self.kinds_of(kinds);
            if (t.lines.span(l, sq) & sliders).is_empty() {
                continue;
            }
            for s in (t.lines.attacks(l, sq, occ) & sliders).iter() {
                if found(s) {
                    return;
                }
            }
        }
        for s in a.slides.iter().filter(|_| SLIDES) {
            let rd = s.dir as usize;
            if (t.ray(rd, sq) & them).is_empty() || !s.within.has(sq) {
                continue;
            }
            if let Some(b) = t.first_blocker(rd, sq, occ)
                && them.has(b)
                && s.by(b, cell_kind(self.cells[b]), self.virgin)
            {
                if let Some(m) = s.max
                    && self.distance(rd, sq, b) > m
                {
                    continue;
                }
                if found(b) {
                    return;
                }
            }
        }
        for h in a.hops.iter().chain(&a.hops_not) {
            if let Some(b) = self.hopper(sq, h, them, occ)
                && found(b)
            {
                return;
            }
        }
    }

    /// The hopper of `h` (among `them`) that attacks `sq` from along its line over exactly its
    /// number of screens, none of a kind it refuses, if there is one.
    #[inline(always)]
    fn hopper(&self, sq: usize, h: &crate::compile::RayAttack<B>, them: B, occ: B) -> Option<usize> {
        let t = &*self.t;
        if !h.within.has(sq) {
            return None;
        }
        let (rd, screen_not) = (h.dir as usize, h.screen_not);
        let mut cur = sq;
        let mut left = h.screens;
        while let Some(b) = t.first_blocker(rd, cur, occ) {
            if left == 0 {
                return (them.has(b) && h.by(b, cell_kind(self.cells[b]), self.virgin)).then_some(b);
            }
            // A square the move being tested fills has no cell yet; `is_legal_slow` makes such moves
            // instead where screens are refused, so only real pieces are screens here.
            let c = self.cells[b];
            if screen_not != 0 && c != 0 && 1u32 << cell_kind(c).0 & screen_not != 0 {
                return None;
            }
            left -= 1;
            cur = b;
        }
        None
    }

    fn distance(&self, dir: usize, a: usize, b: usize) -> u32 {
        let (dx, dy, _) = self.t.dirs[dir];
        let w = self.width();
        let (fa, ra) = ((a % w) as i32, (a / w) as i32);
        let (fb, rb) = ((b % w) as i32, (b / w) as i32);
        if dx != 0 {
            ((fb - fa) / dx).unsigned_abs()
        } else {
            ((rb - ra) / dy).unsigned_abs()
        }
    }

    fn width(&self) -> usize {
        self.t.width
    }

    /// Would the royal on `sq` of `side` face an enemy royal along a forbidden line?
    #[inline(always)]
    pub(super) fn faces(&self, sq: usize, side: Side, occ: B, gone: B) -> bool {
        if self.t.facing.is_empty() {
            return false;
        }
        let enemy_royals = self.royals(side.other()) & !gone;
        self.t
            .facing
            .iter()
            .any(|&d| self.t.first_blocker(d as usize, sq, occ).is_some_and(|b| enemy_royals.has(b)))
    }

    /// Is the side to move's royal attacked (in check)?
    pub fn in_check(&self) -> bool {
        self.side_in_check(self.stm)
    }

    pub fn side_in_check(&self, side: Side) -> bool {
        if !self.t.royal_safety {
            return false;
        }
        let occ = self.occ();
        self.royals(side).iter().any(|r| self.in_danger(r, side, occ))
    }

    /// Is `sq` attacked by `by` in the sense royal safety means: any attack, or — where captures
    /// explode — an attack by a piece that is not royal (a royal's capture would blow up the royal
    /// itself), unless a royal of `by` stands within the blast (the capture would blow it up too).
    #[inline]
    pub(crate) fn threatened(&self, sq: usize, by: Side, occ: B) -> bool {
        if self.t.explosion.is_some() {
            return self.threatened_by_explosion(sq, by, occ);
        }
        self.attacked(sq, by, occ, B::EMPTY)
    }

    /// [`Pos::threatened`] where captures explode: kept out of line, so that the games without
    /// explosions test an attack inline.
    #[inline(never)]
    fn threatened_by_explosion(&self, sq: usize, by: Side, occ: B) -> bool {
        let Some((blast, _)) = &self.t.explosion else { return false };
        let their_royals = self.royals(by);
        (blast[sq] & their_royals).is_empty() && self.attacked(sq, by, occ, their_royals)
    }

    // ------------------------------------------------------------------ generation

    /// All pseudo-legal moves (every rule but royal safety and facing royals).
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let first = out.len();
        let t = &*self.t;
        let us = self.stm;
        let enemy = self.enemies(us);
        let occ = self.occ();
        let empty = !occ & t.board_mask;
        for (fi, f) in t.forms[us.index()].iter().enumerate() {
            if t.gated && !self.clause_applies(f) {
                continue;
            }
            if matches!(f.how, Gen::Place | Gen::Drop | Gen::Jump { .. }) {
                self.effect_moves(out, fi, f, None);
                continue;
            }
            let mut pieces = self.pieces(us, f.kind) & f.from;
            if f.unmoved {
                pieces &= self.virgin;
            }
            let allowed = self.allowed_targets(f, enemy, empty);
            if allowed.is_empty() {
                continue;
            }
            for from in pieces.iter() {
                let targets = self.form_targets(f, from, occ) & allowed;
                for to in targets.iter() {
                    self.push(out, fi, f, from, to);
                }
            }
        }
        if !t.castles[us.index()].is_empty() {
            self.castle_moves(out, None, false);
        }
        if t.swap {
            self.extra_swap(out);
        }
        if t.must_capture.is_some() {
            self.keep_obligatory(out);
        }
        if t.overlapping {
            self.drop_repeats(out, first);
        }
    }

    /// Removes from `out[start..]` the moves that repeat one before them: the same squares, parts
    /// and promotion, given by clauses whose moves do the same ([`Tables::form_class`]).
    pub(super) fn drop_repeats(&self, out: &mut Vec<Move>, start: usize) {
        let class = &self.t.form_class[self.stm.index()];
        let key = |m: &Move| {
            let kind = match m.kind {
                MoveKind::Form(fi) => MoveKind::Form(class[fi as usize]),
                k => k,
            };
            (m.from, m.to, m.promo, m.route, kind)
        };
        let mut seen = std::collections::HashSet::with_capacity(out.len() - start);
        let mut w = start;
        for r in start..out.len() {
            let m = out[r];
            if seen.insert(key(&m)) {
                out[w] = m;
                w += 1;
            }
        }
        out.truncate(w);
    }

    /// Does clause `f` apply now: in this phase, its `when` holding? (Asked only where some clause
    /// has a phase or a `when`: [`Tables::gated`].)
    #[inline(never)]
    pub(super) fn clause_applies(&self, f: &CForm<B>) -> bool {
        f.phases >> self.phase & 1 == 1 && self.when_holds(f)
    }

    /// Does the clause's `when` hold (or has it none)? Its counts are the side to move's.
    #[inline(always)]
    fn when_holds(&self, f: &CForm<B>) -> bool {
        match &f.when {
            None => true,
            Some(c) => {
                let mut legal = None;
                self.cond_holds(c, &mut legal)
            }
        }
    }

    /// The squares a form may land on, whatever reaches them: by its target kind (empty, enemy,
    /// either, the en-passant mark) and its `within` zone.
    #[inline(always)]
    fn allowed_targets(&self, f: &CForm<B>, enemy: B, empty: B) -> B {
        let by_kind = match f.target {
            // Neither own nor a wall: empty or enemy.
            Target::Any => empty | enemy,
            Target::Empty => empty,
            Target::Enemy => enemy,
            Target::EnPassant if self.ep_victim == NO_SQ => B::EMPTY,
            Target::EnPassant => self.ep & empty,
        };
        by_kind & f.within
    }

    /// The squares a form reaches from `from` before filtering by target kind.
    #[inline(always)]
    pub fn form_targets(&self, f: &CForm<B>, from: usize, occ: B) -> B {
        let t = &*self.t;
        match &f.how {
            Gen::Place | Gen::Drop => B::EMPTY,
            Gen::Jump { entries, dirs, .. } => {
                let mut b = B::EMPTY;
                if f.jump.is_some_and(|j| j.far) {
                    // Over the first piece along each line, to the empty squares beyond it.
                    for &d in dirs {
                        if let Some(x) = t.first_blocker(d as usize, from, occ) {
                            b |= t.ray_attacks(d as usize, x, occ) & !occ;
                        }
                    }
                    return b;
                }
                for &(over, land, _) in &entries[from] {
                    if occ.has(over as usize) && !occ.has(land as usize) {
                        b |= B::bit(land as usize);
                    }
                }
                b
            }
            Gen::Leap { targets } => targets[from],
            // (Nothing before the roll: a position waiting for one has only the roll's results.)
            Gen::Track { by_roll } => match (self.roll as usize).checked_sub(1) {
                Some(r) => by_roll[r][from],
                None => B::EMPTY,
            },
            Gen::Counted { dirs, over_own } => {
                let us = self.stm;
                let pieces = self.side_bb[0] | self.side_bb[1];
                let blocks = if *over_own { occ & !self.side_bb[us.index()] } else { occ };
                let mut b = B::EMPTY;
                for &(d, r) in dirs {
                    let n = ((t.ray(d as usize, from) | t.ray(r as usize, from)) & pieces).count() + 1;
                    let next = &t.next[d as usize];
                    let mut sq = from;
                    let mut open = true;
                    for step in 1..=n {
                        let x = next[sq];
                        if x == NO_SQ {
                            open = false;
                            break;
                        }
                        sq = x as usize;
                        if step < n && blocks.has(sq) {
                            open = false;
                            break;
                        }
                    }
                    if open {
                        b |= B::bit(sq);
                    }
                }
                b
            }
            Gen::Lame { entries } => {
                let mut b = B::EMPTY;
                for &(to, block) in &entries[from] {
                    if (block & occ).is_empty() {
                        b |= B::bit(to as usize);
                    }
                }
                b
            }
            Gen::Slide { dirs, bounded, lines } => {
                let mut b = B::EMPTY;
                if let Some(lines) = lines {
                    b = t.lines.reach(lines, from, occ);
                } else {
                    for &d in dirs {
                        b |= t.ray_attacks(d as usize, from, occ);
                    }
                }
                if let Some(bd) = bounded {
                    b &= bd[from];
                }
                b
            }
            Gen::Hop { dirs, screens } => {
                let mut b = B::EMPTY;
                for &d in dirs {
                    let mut cur = from;
                    let mut left = *screens;
                    while let Some(s) = t.first_blocker(d as usize, cur, occ) {
                        if left == 0 {
                            break;
                        }
                        left -= 1;
                        cur = s;
                    }
                    if left == 0 && cur != from {
                        b |= t.ray_attacks(d as usize, cur, occ);
                    }
                }
                b
            }
            Gen::HopNot {
                dirs,
                screens,
                screen_not,
                target_not,
            } => {
                // A wall (a neutral piece) is no kind: it screens and stops like any piece.
                let kind_bit = |s: usize| match self.cells[s] {
                    0 => 0,
                    c => 1u32 << cell_kind(c).0,
                };
                let mut b = B::EMPTY;
                for &d in dirs {
                    let mut cur = from;
                    let mut left = *screens;
                    let mut usable = true;
                    while let Some(s) = t.first_blocker(d as usize, cur, occ) {
                        if left == 0 {
                            break;
                        }
                        usable &= kind_bit(s) & screen_not == 0;
                        left -= 1;
                        cur = s;
                    }
                    if usable && left == 0 && cur != from {
                        let mut reach = t.ray_attacks(d as usize, cur, occ);
                        if let Some(x) = t.first_blocker(d as usize, cur, occ)
                            && kind_bit(x) & target_not != 0
                        {
                            reach &= !B::bit(x);
                        }
                        b |= reach;
                    }
                }
                b
            }
        }
    }

    #[inline(always)]
    fn push(&self, out: &mut Vec<Move>, fi: usize, f: &CForm<B>, from: usize, to: usize) {
        let m = Move {
            from: from as u16,
            to: to as u16,
            kind: MoveKind::Form(fi as u8),
            promo: 0,
            route: 0,
        };
        emit_set::<B, false>(out, m, B::bit(to), self.t.promotion[self.stm.index()][f.kind.0 as usize].as_ref());
    }

    /// The partner square for a castling move in ray direction `dir` from `from`, if the first
    /// piece along it is an own partner (unmoved when required).
    pub fn castle_partner(&self, c: &crate::compile::CCastle, dir: usize, from: usize) -> Option<usize> {
        let occ = self.occ();
        let b = self.t.first_blocker(dir, from, occ)?;
        let us = self.stm;
        (self.pieces(us, c.partner).has(b) && (!c.partner_unmoved || self.virgin.has(b))).then_some(b)
    }

    /// Might some castler castle: does a partner stand first along its line either way? (Checked
    /// whole-line where the line tables have it; the rest of the conditions are `castle_moves`'.)
    #[inline(always)]
    fn may_castle(&self, occ: B) -> bool {
        let us = self.stm;
        // Castlings of one castler along one line (a king's two wings) share the lookup: what
        // the castlers reach along it is found once.
        let mut last: Option<(KindId, bool, u16, B)> = None;
        for c in &self.t.castles[us.index()] {
            let mut castlers = self.pieces(us, c.kind);
            if c.unmoved {
                castlers &= self.virgin;
            }
            if castlers.is_empty() {
                continue;
            }
            let Some(l) = c.line else { return true };
            let reach = match last {
                Some((kind, unmoved, line, reach)) if (kind, unmoved, line) == (c.kind, c.unmoved, l) => reach,
                _ => {
                    let reach = castlers.iter().fold(B::EMPTY, |r, from| r | self.t.lines.attacks(l, from, occ));
                    last = Some((c.kind, c.unmoved, l, reach));
                    reach
                }
            };
            let mut partners = self.pieces(us, c.partner);
            if c.partner_unmoved {
                partners &= self.virgin;
            }
            if (reach & partners).any() {
                return true;
            }
        }
        false
    }

    /// Castling moves whose own conditions hold (unmoved pieces, empty path, not in check, path
    /// not attacked); with `legal`, only those that pass the general legality test as well.
    fn castle_moves(&self, out: &mut Vec<Move>, in_check: Option<bool>, legal: bool) {
        let t = &*self.t;
        let us = self.stm;
        let them = us.other();
        let occ = self.occ();
        // Where attacks are the only test and the castler is the only royal, the test is whether
        // the castler's landing square is attacked once both pieces stand where they land.
        let royals = self.royals(us);
        let direct = t.attacks[them.index()].lookups_only;
        for (ci, c) in t.castles[us.index()].iter().enumerate() {
            let mut castlers = self.pieces(us, c.kind);
            if c.unmoved {
                castlers &= self.virgin;
            }
            for from in castlers.iter() {
                let mut checked = None;
                for &d in &c.dirs {
                    let Some(partner) = self.castle_partner(c, d as usize, from) else {
                        continue;
                    };
                    let Some((to, partner_to)) = self.castle_squares(c, d as usize, from, partner) else {
                        continue;
                    };
                    if c.not_in_check {
                        let attacked = *checked.get_or_insert_with(|| in_check.unwrap_or_else(|| self.in_danger(from, us, occ)));
                        if attacked {
                            break;
                        }
                    }
                    if c.path_safe {
                        let path = t.ray(d as usize, from) & !t.ray(d as usize, to);
                        if path.iter().any(|s| self.in_danger(s, us, occ)) {
                            continue;
                        }
                    }
                    let m = Move {
                        from: from as u16,
                        to: to as u16,
                        kind: MoveKind::Castle(ci as u8),
                        promo: 0,
                        route: 0,
                    };
                    if legal {
                        let ok = if direct && royals == B::bit(from) {
                            let after = (occ & !B::bit(from) & !B::bit(partner)) | B::bit(to) | B::bit(partner_to);
                            !self.attacked(to, them, after, B::EMPTY)
                        } else {
                            self.is_legal_slow(m)
                        };
                        if !ok {
                            continue;
                        }
                    }
                    out.push(m);
                }
            }
        }
    }

    /// Where castler and partner land; `None` if the castler's target is off the board, the partner is
    /// adjacent or no further than the castling distance, or a landing square is taken by another piece.
    pub fn castle_squares(&self, c: &crate::compile::CCastle, dir: usize, from: usize, partner: usize) -> Option<(usize, usize)> {
        if c.distance < 2 {
            return None;
        }
        let (dx, dy, _) = self.t.dirs[dir];
        let step = dx as isize + dy as isize * self.t.width as isize;
        let to = from as isize + step * c.distance as isize;
        let ray = self.t.ray(dir, from);
        if to < 0 || !ray.has(to as usize) {
            return None;
        }
        let (to, partner_to) = (to as usize, (to - step) as usize);
        // The partner must stand beyond the landing square (the castler stops short of it); the
        // partner stands on the castler's ray, so beyond means on the landing square's ray.
        if !self.t.ray(dir, to).has(partner) {
            return None;
        }
        // The squares castler and partner land on must be empty or theirs.
        let occ = self.occ() & !B::bit(from) & !B::bit(partner);
        if occ.has(to) || occ.has(partner_to) {
            return None;
        }
        Some((to, partner_to))
    }

    // ------------------------------------------------------------------ legality

    /// Appends the legal moves.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate::<false>(out);
    }

    /// Counts the legal moves without listing them (perft's last ply); `buf` is scratch space.
    #[inline(never)]
    pub fn count_legal(&self, buf: &mut Vec<Move>) -> u64 {
        buf.clear();
        self.generate::<true>(buf)
    }

    /// Legal move generation. Moves that cannot expose a royal — not the royal's own, not an
    /// en-passant capture or castling, not a pinned piece leaving its line, not touching a square
    /// where a lame leaper's block point or a hopper's line meets the royal — are taken whole
    /// target sets at a time (and only counted, when `COUNT`); the rest get the full test.
    #[inline]
    pub fn generate<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        // One test for the rare cases: a roll to come, or clauses that may give one move twice.
        if self.t.unusual_generation {
            return self.generate_unusual::<COUNT>(out);
        }
        if self.t.parts.is_empty() {
            self.generate_plain::<COUNT>(out)
        } else {
            self.generate_turns::<COUNT>(out)
        }
    }

    /// [`Pos::generate`] where a roll may be to come or two clauses may give one move.
    #[inline(never)]
    fn generate_unusual<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        if self.to_roll() {
            return self.roll_results::<COUNT>(out);
        }
        if self.t.race.is_some() {
            return self.race_generate::<COUNT>(out);
        }
        if self.t.guarded_many {
            return self.generate_guarded::<COUNT>(out);
        }
        if self.t.overlapping {
            // Two clauses may give one move: list them, drop the repeats, then count.
            let start = out.len();
            if self.t.parts.is_empty() {
                self.generate_plain::<false>(out);
            } else {
                self.generate_turns::<false>(out);
            }
            self.drop_repeats(out, start);
            let n = (out.len() - start) as u64;
            if COUNT {
                out.truncate(start);
            }
            return n;
        }
        if self.t.parts.is_empty() {
            self.generate_plain::<COUNT>(out)
        } else {
            self.generate_turns::<COUNT>(out)
        }
    }

    /// [`Pos::generate`] among more than two sides with royals to keep safe or with partners: a
    /// royal may be attacked by any enemy, so each pseudo-legal move (taken over every side's
    /// pieces) is judged against all of them (see [`Pos::legal_among_many`]).
    #[inline(never)]
    fn generate_guarded<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        let start = out.len();
        self.pseudo_moves(out);
        keep_from(out, start, |m| self.legal_among_many(m));
        let n = (out.len() - start) as u64;
        if COUNT {
            out.truncate(start);
        }
        n
    }

    /// [`Pos::keeps_royals_safe`] without making the move, for a plain move or capture (the rare
    /// others — castling, en passant, a move with effects, a drop — are made on a copy).
    pub(crate) fn legal_among_many(&self, m: Move) -> bool {
        if !self.t.royal_safety {
            return true;
        }
        let us = self.stm;
        let MoveKind::Form(fi) = m.kind else {
            return self.clone().keeps_royals_safe(m);
        };
        let f = &self.t.forms[us.index()][fi as usize];
        if f.effects || f.clone || f.target == Target::EnPassant {
            return self.clone().keeps_royals_safe(m);
        }
        let (from, to) = (m.from as usize, m.to as usize);
        let enemies = self.enemies(us);
        let gone = if enemies.has(to) { B::bit(to) } else { B::EMPTY };
        let royal_kinds = self.t.royal_bits;
        if (gone & self.kinds_of(royal_kinds)).any() {
            // It takes an enemy royal: legal whatever it leaves.
            return true;
        }
        let occ = (self.occ() & !B::bit(from)) | B::bit(to);
        let mut royals = self.royals(us);
        if royals.has(from) {
            royals = (royals & !B::bit(from)) | B::bit(to);
        }
        if m.promo != 0 {
            if royal_kinds & 1 << (m.promo - 1) != 0 {
                royals |= B::bit(to);
            } else {
                royals &= !B::bit(to);
            }
        }
        !royals
            .iter()
            .any(|r| self.enemy_sides(us).any(|by| self.attacked(r, by, occ, gone)))
    }

    /// Among more than two sides: after `m`, is no royal of the mover's attacked by an enemy?
    /// A move that takes an enemy royal passes whatever it leaves: the royal is taken, and the
    /// end rules rule on that. `self` is made and unmade (left as it was).
    pub(crate) fn keeps_royals_safe(&mut self, m: Move) -> bool {
        let us = self.stm;
        let royal_kinds = self.t.royal_bits;
        let enemy_royals = (self.kinds_of(royal_kinds) & self.enemies(us)).count();
        let u = self.make(m);
        let occ = self.occ();
        let ok = (self.kinds_of(royal_kinds) & self.enemies(us)).count() < enemy_royals
            || !self.royals(us).iter().any(|r| self.in_danger(r, us, occ));
        self.unmake(m, &u);
        ok
    }

    /// The moves of a position where the side to move is still to roll: one per result of the
    /// roll (a chance node's children; how likely each is, `Tables::rolls` says).
    #[cold]
    fn roll_results<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        let n = self.t.rolls.len();
        if !COUNT {
            out.extend((0..n).map(|r| Move::roll(r, self.t.rolls[r].0)));
        }
        n as u64
    }

    /// Where placing clause `f` may put its piece, when the squares' own tests settle it at once
    /// (a placement on any empty square of its zone — tic-tac-toe, hex, go —, or one whose
    /// condition is a flip computed set-wise); `None` when each move must be worked out.
    #[inline]
    pub(super) fn placement_targets(&self, f: &CForm<B>, empty: B, own: B, enemy: B) -> Option<B> {
        let set_wise = f.bare_place
            || (matches!(f.how, Gen::Place | Gen::Drop)
                && (f.only_if.is_none() || f.flips_set_wise)
                && f.other_sides.is_empty()
                && !f.not_giving_mate);
        if !set_wise {
            None
        } else if f.bare_place {
            Some(empty & f.within)
        } else if f.only_if.is_some() {
            Some(self.place_targets(f, own, empty) & self.flip_targets(f, own, enemy))
        } else {
            Some(self.place_targets(f, own, empty))
        }
    }

    /// [`Pos::generate`] of turns of one part: the moves of the pieces' clauses, castling, the
    /// general path's additions and the pass.
    #[inline]
    pub(super) fn generate_plain<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        let t = &*self.t;
        if COUNT && t.must_capture.is_some() {
            // Which moves are legal depends on all of them: list them, then count.
            let start = out.len();
            self.generate_plain::<false>(out);
            let n = (out.len() - start) as u64;
            out.truncate(start);
            return n;
        }
        let us = self.stm;
        let own = self.side_bb[us.index()];
        let enemy = self.enemies(us);
        // Every side's pieces: a game with partners, whose pieces are neither own nor enemy, never
        // comes here (see `Tables::guarded_many`).
        let occ = own | enemy | self.walls;
        let empty = !occ & t.board_mask;
        let ctx = LegalCtx::new(self);
        let mut n = 0u64;
        let promos = &t.promotion[us.index()];
        let forms = &t.forms[us.index()];
        let split = t.moving_forms[us.index()];
        let gated = t.gated;
        // Clauses that place, drop or jump come after those that move a piece (compile sorts them
        // so): the moving loop below tests nothing of theirs.
        for (j, f) in forms[split..].iter().enumerate() {
            let fi = split + j;
            if gated && !self.clause_applies(f) {
                continue;
            }
            let Some(targets) = self.placement_targets(f, empty, own, enemy) else {
                let start = out.len();
                self.effect_moves(out, fi, f, Some(&ctx));
                n += (out.len() - start) as u64;
                if COUNT {
                    out.truncate(start);
                }
                continue;
            };
            // A placement or drop that no square's own test can refuse: its targets at once.
            let base = Move {
                from: NO_SQ,
                to: 0,
                kind: if matches!(f.how, Gen::Drop) {
                    MoveKind::Drop(fi as u8)
                } else {
                    MoveKind::Place(fi as u8)
                },
                promo: 0,
                route: 0,
            };
            if !t.chains && !ctx.constrained {
                n += emit_set::<B, COUNT>(out, base, targets, None);
                continue;
            }
            // A royal placed must land where it is safe.
            let f_royal = t.is_royal(f.kind);
            for to in targets.iter() {
                if t.chains && self.place_problem(f.kind, to).is_some() {
                    continue;
                }
                let m = Move { to: to as u16, ..base };
                if ctx.constrained
                    && (ctx.in_check || f.effects || f_royal || ctx.forbidden.has(to) || ctx.slow.any())
                    && !self.is_legal_slow(m)
                {
                    continue;
                }
                n += emit_set::<B, COUNT>(out, base, B::bit(to), None);
            }
        }
        // Clauses that move a piece, where there are any (in a game of placements, what the
        // compiler would hoist out of this loop would be paid at every count).
        if split != 0 {
            // Counting, the quick clauses' free pieces are taken in one pass (see `Quick`); the loop
            // below is left the other clauses, and the quick ones of the kinds of pieces held back.
            let q = &t.quick[us.index()];
            let (quick, todo) = if COUNT && !gated && !ctx.tested.any() && q.forms != 0 {
                n += self.count_quick(out, &ctx, own, enemy, empty, occ);
                let held = if ctx.constrained {
                    own & (ctx.careful | ctx.pinned)
                } else {
                    B::EMPTY
                };
                let mut todo = !q.forms;
                if self.ep_victim == NO_SQ {
                    // No square marked: the en-passant clauses have nothing to take.
                    todo &= !q.en_passant;
                }
                for sq in held.iter() {
                    todo |= q.by_kind.get(cell_kind(self.cells[sq]).0 as usize).copied().unwrap_or(0);
                }
                (q.forms, todo)
            } else {
                (0, !0)
            };
            // (`todo` and `quick` say nothing of forms past the 64th: there are none where they are set.)
            // The clauses to take: every one, or (counting quick) those `todo` names.
            let mut todo = if quick != 0 { todo & (!0u64 >> (64 - split)) } else { 0 };
            let mut every = forms[..split].iter().enumerate();
            loop {
                let (fi, f) = if quick != 0 {
                    if todo == 0 {
                        break;
                    }
                    let fi = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    (fi, &forms[fi])
                } else {
                    match every.next() {
                        Some(clause) => clause,
                        None => break,
                    }
                };
                if gated && !self.clause_applies(f) {
                    continue;
                }
                let mut pieces = self.pieces(us, f.kind) & f.from;
                if f.unmoved {
                    pieces &= self.virgin;
                }
                if quick != 0 && quick >> fi & 1 == 1 {
                    pieces &= ctx.careful | ctx.pinned;
                }
                if pieces.is_empty() {
                    continue;
                }
                let allowed = self.allowed_targets(f, enemy, empty);
                if allowed.is_empty() {
                    continue;
                }
                let promo = promos[f.kind.0 as usize].as_ref();
                let ep = f.target == Target::EnPassant;
                if !f.shifts.is_empty() {
                    // Pieces free to move (no royal, none pinned or needing the full test, no check)
                    // take their targets all at once.
                    let free = if !ctx.constrained {
                        pieces
                    } else {
                        pieces & !(ctx.careful | ctx.pinned)
                    };
                    if !free.is_empty() {
                        let allowed = if ctx.constrained {
                            allowed & !ctx.forbidden & ctx.evade
                        } else {
                            allowed
                        };
                        n += emit_shifts::<B, COUNT>(out, fi, &f.shifts, free, empty, allowed, promo);
                        pieces &= !free;
                    }
                }
                // Pieces free to move (none royal, pinned or needing the full test; no target square
                // needing it) take their targets whole, through one lookup chosen once per clause.
                let free = if ep || ctx.tested.any() {
                    B::EMPTY
                } else if !ctx.constrained {
                    pieces
                } else {
                    pieces & !(ctx.careful | ctx.pinned)
                };
                if free.any() {
                    let allowed = if ctx.constrained {
                        allowed & !ctx.forbidden & ctx.evade
                    } else {
                        allowed
                    };
                    n += match &f.how {
                        Gen::Leap { targets } => emit_each::<B, COUNT>(out, fi, free, promo, |from| targets[from] & allowed),
                        Gen::Slide {
                            lines: Some(lines),
                            bounded: None,
                            ..
                        } => emit_each::<B, COUNT>(out, fi, free, promo, |from| t.lines.reach(lines, from, occ) & allowed),
                        _ => emit_each::<B, COUNT>(out, fi, free, promo, |from| self.form_targets(f, from, occ) & allowed),
                    };
                    pieces &= !free;
                }
                for from in pieces.iter() {
                    let targets = self.form_targets(f, from, occ) & allowed;
                    if targets.is_empty() {
                        continue;
                    }
                    let base = Move {
                        from: from as u16,
                        to: 0,
                        kind: MoveKind::Form(fi as u8),
                        promo: 0,
                        route: 0,
                    };
                    if !ctx.constrained {
                        n += emit_set::<B, COUNT>(out, base, targets, promo);
                    } else if ep || ctx.careful.has(from) {
                        if !ep && ctx.quick_royal.has(from) {
                            // The only royal, where only attacks make a move illegal: a step is legal
                            // where no enemy piece attacks the square with the royal gone from its own.
                            let them = us.other();
                            let occ = occ & !B::bit(from);
                            // One square is one query; more share the gathered pieces.
                            let probe = if targets.count() > 1 { Probe::new(self, them) } else { None };
                            let safe = match probe {
                                Some(probe) => probe.safe(self, targets, occ),
                                None => targets
                                    .iter()
                                    .filter(|&to| !self.attacked(to, them, occ, enemy & B::bit(to)))
                                    .fold(B::EMPTY, |b, to| b | B::bit(to)),
                            };
                            n += emit_set::<B, COUNT>(out, base, safe, promo);
                        } else {
                            for to in targets.iter() {
                                let m = Move { to: to as u16, ..base };
                                if self.is_legal_slow(m) {
                                    n += emit_set::<B, COUNT>(out, base, B::bit(to), promo);
                                }
                            }
                        }
                    } else {
                        let mut fast = targets & ctx.evade;
                        if ctx.pinned.has(from) {
                            fast &= ctx.pin_line(from);
                        }
                        fast &= !ctx.forbidden;
                        if ctx.tested.any() {
                            fast &= !ctx.tested;
                            for to in (targets & ctx.tested).iter() {
                                if self.is_legal_slow(Move { to: to as u16, ..base }) {
                                    fast |= B::bit(to);
                                }
                            }
                        }
                        n += emit_set::<B, COUNT>(out, base, fast, promo);
                    }
                }
            }
        }
        if !t.castles[us.index()].is_empty() && self.may_castle(occ) {
            let start = out.len();
            let in_check = (t.royal_safety && ctx.royals.iter().count() == 1).then_some(ctx.in_check);
            self.castle_moves(out, in_check, ctx.constrained);
            n += (out.len() - start) as u64;
            if COUNT {
                out.truncate(start);
            }
        }
        if t.general {
            n = self.general_tail::<COUNT>(out, n);
        }
        // A pass obeys the same `forbid`s as any other move: it may not leave the royal attacked
        // or facing (only rulesets with passes ask).
        if t.pass && (!t.pass_only_when_stuck || n == 0) && (!ctx.constrained || self.is_legal_slow(PASS)) {
            n += 1;
            if !COUNT {
                out.push(PASS);
            }
        }
        n
    }

    /// The moves of the [quick](crate::compile::Quick) clauses' free pieces (none royal, pinned
    /// or needing the full test), counted as [`Pos::generate_plain`]'s loop counts them: by
    /// shifts of the whole set, or a lookup per piece. Nothing is written to `out`.
    #[inline(always)]
    fn count_quick(&self, out: &mut Vec<Move>, ctx: &LegalCtx<B>, own: B, enemy: B, empty: B, occ: B) -> u64 {
        let t = &*self.t;
        let us = self.stm.index();
        let q = &t.quick[us];
        let promos = &t.promotion[us];
        let forms = &t.forms[us];
        let (free, land) = if ctx.constrained {
            (own & !(ctx.careful | ctx.pinned), !ctx.forbidden & ctx.evade)
        } else {
            (own, !B::EMPTY)
        };
        let by_target = [(empty | enemy) & land, empty & land, enemy & land];
        // What each clause's count starts from: its free pieces (if any), where they may land,
        // and its promotion. (Counting writes nothing to `out`.)
        let take = |c: &QuickForm<B>| {
            let pieces = self.kind_bb[c.kind.0 as usize] & free & c.from;
            pieces
                .any()
                .then(|| (pieces, by_target[c.target as usize] & c.within, promos[c.kind.0 as usize].as_ref()))
        };
        let mut n = 0;
        for c in &q.shifts {
            let Some((pieces, allowed, promo)) = take(c) else { continue };
            n += emit_shifts::<B, true>(out, 0, &forms[c.form as usize].shifts, pieces, empty, allowed, promo);
        }
        for c in &q.leaps {
            let Some((pieces, allowed, promo)) = take(c) else { continue };
            let Gen::Leap { targets } = &forms[c.form as usize].how else {
                continue;
            };
            n += emit_each::<B, true>(out, 0, pieces, promo, |from| targets[from] & allowed);
        }
        for c in &q.lines {
            let Some((pieces, allowed, promo)) = take(c) else { continue };
            n += count_slides(out, pieces, promo, &t.lines, &c.lines[..c.nlines as usize], occ, allowed);
        }
        n
    }

    /// Does the side to move's placement or drop by clause `fi` (turned to kind `promo - 1`
    /// where `promo` is set) put a royal piece on the board?
    #[inline]
    pub(super) fn places_royal(&self, fi: u8, promo: u8) -> bool {
        let kind = match promo {
            0 => self.t.forms[self.stm.index()].get(fi as usize).map_or(KindId(0), |f| f.kind),
            p => KindId(p - 1),
        };
        self.t.is_royal(kind)
    }

    /// The full test: after the move, no own royal is attacked or facing an enemy royal.
    pub fn is_legal_slow(&self, m: Move) -> bool {
        if self.t.guarded_many {
            return self.legal_among_many(m);
        }
        let us = self.stm;
        let them = us.other();
        let from = m.from as usize;
        let to = m.to as usize;
        let mut occ = self.occ();
        let mut gone = B::EMPTY;
        let mut royals = self.royals(us);
        if self.t.general && (self.has_effects(m) || !self.t.attacks[them.index()].hops_not.is_empty() || self.t.explosion.is_some()) {
            if self.t.attacks[them.index()].hops_not.is_empty()
                && let Some(legal) = self.legal_exploding(m)
            {
                return legal;
            }
            return self.legal_by_making(m);
        }
        match m.kind {
            MoveKind::Form(fi) => {
                let f = &self.t.forms[us.index()][fi as usize];
                if f.target == Target::EnPassant {
                    gone |= B::bit(self.ep_victim as usize);
                    occ &= !B::bit(self.ep_victim as usize);
                }
                if self.side_bb[them.index()].has(to) {
                    gone |= B::bit(to);
                }
                if f.clone {
                    // The piece stays, and a copy lands: a royal copied stands on both squares.
                    occ |= B::bit(to);
                    if royals.has(from) {
                        royals |= B::bit(to);
                    }
                } else {
                    occ = (occ & !B::bit(from)) | B::bit(to);
                    if royals.has(from) {
                        royals = (royals & !B::bit(from)) | B::bit(to);
                    }
                }
                // A promotion to or from a royal kind changes the royal set.
                if m.promo != 0 {
                    let nk = KindId(m.promo - 1);
                    if !self.t.royal_kinds.contains(&nk) {
                        royals &= !B::bit(to);
                    } else {
                        royals |= B::bit(to);
                    }
                }
            }
            MoveKind::Place(fi) | MoveKind::Drop(fi) => {
                occ |= B::bit(to);
                // A royal placed (or dropped) must be safe where it lands, like any other.
                if self.places_royal(fi, m.promo) {
                    royals |= B::bit(to);
                }
            }
            MoveKind::Pass | MoveKind::Swap | MoveKind::Roll(_) => {}
            MoveKind::BearOff(_) => occ &= !B::bit(from),
            MoveKind::Castle(ci) => {
                let c = &self.t.castles[us.index()][ci as usize];
                let dir = if to > from { c.dirs[0] } else { c.dirs[1] } as usize;
                let Some(partner) = self.castle_partner(c, dir, from) else {
                    return false;
                };
                let Some((castler_to, pto)) = self.castle_squares(c, dir, from, partner) else {
                    return false;
                };
                occ = (occ & !B::bit(from) & !B::bit(partner)) | B::bit(castler_to) | B::bit(pto);
                if royals.has(from) {
                    royals = (royals & !B::bit(from)) | B::bit(castler_to);
                }
                if royals.has(partner) {
                    royals = (royals & !B::bit(partner)) | B::bit(pto);
                }
            }
        }
        for r in royals.iter() {
            if self.t.royal_safety && self.attacked(r, them, occ, gone) {
                return false;
            }
            if self.faces(r, us, occ, gone) {
                return false;
            }
        }
        true
    }

    // ------------------------------------------------------------------ make / unmake

    pub fn make(&mut self, m: Move) -> Undo<B> {
        if self.t.general {
            // More than two players always take the general path (see `compile`).
            if self.many {
                return self.make_many::<true>(m);
            }
            self.make_on::<true, true>(m)
        } else {
            self.make_on::<false, true>(m)
        }
    }

    /// [`Pos::make`] for a position that is never unmade (a game played forward): in games that
    /// capture chains it takes no snapshot of the board to restore.
    pub fn make_forward(&mut self, m: Move) -> Undo<B> {
        if self.t.general {
            if self.many {
                return self.make_many::<false>(m);
            }
            self.make_on::<true, false>(m)
        } else {
            self.make_on::<false, false>(m)
        }
    }

    /// [`Pos::make`] among more than two players: the move, then (but for a roll) the last mover
    /// noted and the sides an end rule puts out settled ([`Pos::settle_outs`]).
    #[inline(never)]
    fn make_many<const UNDO: bool>(&mut self, m: Move) -> Undo<B> {
        let us = self.stm;
        let (place, moved, out_rule) = (self.place, self.moved, self.out_rule);
        let u = if self.t.general {
            self.make_on::<true, UNDO>(m)
        } else {
            self.make_on::<false, UNDO>(m)
        };
        if matches!(m.kind, MoveKind::Roll(_)) {
            return u;
        }
        self.many_undo.push(ManyUndo {
            place,
            moved,
            out_rule,
            stm: self.stm,
            fullmove: self.fullmove,
            again: self.again,
            roll: self.roll,
        });
        self.moved = us;
        if !self.t.outs.is_empty() {
            self.settle_outs(us);
        }
        u
    }

    /// More than two sides play.
    #[inline]
    pub fn many(&self) -> bool {
        self.many
    }

    /// The sides still playing (not out).
    pub fn playing(&self) -> usize {
        self.place[..self.t.sides as usize].iter().filter(|&&p| p == 0).count()
    }

    /// Has every side its place (the game is over: see [`Tables::outs`])?
    pub fn all_placed(&self) -> bool {
        !self.t.outs.is_empty() && self.playing() == 0
    }

    /// `side` takes the next free place: from the top (`top`: it finished) or from the bottom
    /// (it lost), by end rule `rule`.
    fn take_place(&mut self, side: Side, top: bool, rule: usize) {
        let n = self.t.sides as usize;
        let free = |p: &u8| !self.place[..n].contains(p);
        let p = if top {
            (1..=n as u8).find(free)
        } else {
            (1..=n as u8).rev().find(free)
        };
        let Some(p) = p else { return };
        self.place[side.index()] = p;
        self.hash ^= self.t.z_place[side.index() * (MAX_SIDES + 1) + p as usize];
        self.out_rule = rule as u8;
    }

    /// After `mover`'s move among more than two players: the end rules that put a side out, in
    /// the ruleset's order, until none holds — the mover finishing or losing, the side to move
    /// losing (then the next one is judged). The last side left takes the last place; the turn
    /// passes over the sides that are out (a mover out gives up another turn it earned).
    #[inline(never)]
    fn settle_outs(&mut self, mover: Side) {
        let t = self.t.clone();
        // A game over (every side placed) is played on only by perft, which ignores its end.
        if self.playing() == 0 {
            return;
        }
        loop {
            let mut changed = false;
            for &(ri, out) in &t.outs {
                if self.playing() <= 1 {
                    break;
                }
                let who = match out {
                    Out::MoverFinishes | Out::MoverLoses => mover,
                    Out::ToMoveLoses => self.stm,
                };
                if self.place[who.index()] != 0 {
                    continue;
                }
                let mut legal = None;
                if !t.ends[ri].conds.iter().all(|c| self.cond_holds(c, &mut legal)) {
                    continue;
                }
                self.take_place(who, out == Out::MoverFinishes, ri);
                changed = true;
            }
            if self.playing() == 1 {
                let last = (0..t.sides).map(Side).find(|s| self.place[s.index()] == 0);
                if let Some(last) = last {
                    let rule = self.out_rule as usize;
                    self.take_place(last, true, rule);
                }
                return;
            }
            if self.place[self.stm.index()] != 0 {
                // The side to move is out: its turn (and any it earned) passes on.
                if self.roll != 0 {
                    self.hash ^= t.z_roll[self.roll as usize];
                    self.roll = 0;
                }
                self.again = false;
                while self.place[self.stm.index()] != 0 {
                    let s = self.stm;
                    self.pass_turn_on(s);
                }
                changed = true;
            }
            if !changed {
                return;
            }
        }
    }

    /// [`Pos::make`] on the general path (`GENERAL`: hands, effects, passes, counts, phases,
    /// parts) or on the plain one, where none of that is compiled in; with `UNDO`, keeping what
    /// `unmake` needs in games that capture chains.
    #[inline(always)]
    fn make_on<const GENERAL: bool, const UNDO: bool>(&mut self, m: Move) -> Undo<B> {
        // Games of chance: the roll, and race games' moves, take their own way (one test of a
        // table flag for every other game on the general path).
        if GENERAL && self.t.turn_state {
            if let MoveKind::Roll(r) = m.kind {
                return self.make_roll(r);
            }
            if self.t.race.is_some() {
                return self.make_race(m);
            }
        }
        let us = self.stm;
        let from = m.from as usize;
        let to = m.to as usize;
        if UNDO && self.chains.is_some() {
            self.push_snapshot();
        }
        let mut u = self.undo_with(if from < self.cells.len() { self.cells[from] } else { 0 });
        let general = GENERAL;
        // What the counts compare the turn against: the opponent's pieces before it.
        let mut before = None;
        if general {
            if !self.t.tallies.is_empty() {
                before = Some((self.kind_counts(us.other()), self.side_bb[us.other().index()]));
            }
            self.extra.push(Extra {
                promoted: self.promoted,
                last_captured: self.last_captured,
                passes: self.passes,
                log_len: self.log.len() as u32,
                parts: [NO_SQ; super::MAX_PARTS],
                tallies: self.tallies,
                phase: self.phase,
            });
            if self.t.turn_state {
                self.turn_undo.push(self.roll | (self.again as u8) << 7);
            }
            self.last_captured = 0;
            self.passes = if m.kind == MoveKind::Pass {
                self.passes.saturating_add(1)
            } else {
                0
            };
        }
        self.ep = B::EMPTY;
        self.ep_victim = NO_SQ;
        for c in self.counters.iter_mut() {
            *c = c.saturating_add(1);
        }
        match m.kind {
            MoveKind::Place(fi) | MoveKind::Drop(fi) => {
                let kind = self.t.forms[us.index()][fi as usize].kind;
                if let MoveKind::Drop(_) = m.kind {
                    self.hand_take(us, kind);
                }
                // A drop with either side up may put the piece down as its promoted kind.
                let placed = if m.promo != 0 { KindId(m.promo - 1) } else { kind };
                let mut captured = if self.chains.is_some() {
                    self.make_place(placed, to)
                } else {
                    self.put(to, placed, us);
                    0
                };
                if m.promo != 0 && self.t.track_promoted {
                    self.promoted |= B::bit(to);
                }
                if self.t.forms[us.index()][fi as usize].effects {
                    captured += self.apply_effects(fi as usize, to, m);
                }
                for (i, rk) in self.t.counters.iter().enumerate() {
                    if captured > 0 || rk.is_some_and(|k| k == kind) {
                        self.counters[i] = 0;
                    }
                }
            }
            MoveKind::Pass | MoveKind::Roll(_) => {}
            MoveKind::BearOff(_) => {
                // Off the board: the square empties (the piece is in `u.moved` for unmake).
                self.remove(from);
            }
            MoveKind::Swap => self.make_swap(m),
            MoveKind::Form(fi) => {
                let (target, kind, path, effects, clone) = {
                    let f = &self.t.forms[us.index()][fi as usize];
                    (
                        f.target,
                        f.kind,
                        if f.marks_ep { self.passed(f, from, to) } else { B::EMPTY },
                        f.effects,
                        self.t.clones && f.clone,
                    )
                };
                let cap_sq = if target == Target::EnPassant { u.ep_victim as usize } else { to };
                // A continuing capture may come back to its own start square: nothing to take there.
                if self.cells[cap_sq] != 0 && cap_sq != from {
                    u.captured = self.remove(cap_sq);
                    u.cap_sq = cap_sq as u16;
                    if general {
                        self.last_captured |= 1 << cell_kind(u.captured).0;
                        if self.t.hand {
                            self.hand_gain(us, u.captured, cap_sq, self.promoted);
                        }
                    }
                }
                let c = if clone { self.cells[from] } else { self.remove(from) };
                let placed = if m.promo != 0 { cell(KindId(m.promo - 1), us) } else { c };
                self.place(to, placed);
                self.virgin &= !(B::bit(from) | B::bit(to) | B::bit(cap_sq));
                if general && u.captured != 0 && self.t.explosion.is_some() {
                    self.explode(to);
                }
                if path.any() {
                    self.ep = path;
                    self.ep_victim = to as u16;
                }
                let mut captured = u.captured != 0;
                if general {
                    if self.t.track_promoted {
                        let was = self.promoted.has(from);
                        self.promoted &= !(B::bit(from) | B::bit(cap_sq));
                        if was || m.promo != 0 {
                            self.promoted |= B::bit(to);
                        }
                    }
                    if effects {
                        captured |= self.apply_effects(fi as usize, to, m) > 0;
                    }
                }
                for (i, rk) in self.t.counters.iter().enumerate() {
                    if captured || rk.is_some_and(|k| k == kind) {
                        self.counters[i] = 0;
                    }
                }
                // Without a counter rule, FEN's clock still counts the plies since the last capture.
                if captured && self.t.counters.is_empty() {
                    self.counters[0] = 0;
                }
            }
            MoveKind::Castle(ci) => {
                let c = self.t.castles[us.index()][ci as usize].clone();
                let dir = if to > from { c.dirs[0] } else { c.dirs[1] } as usize;
                let partner = self.castle_partner(&c, dir, from).expect("castling move generated with a partner");
                let (castler_to, pto) = self
                    .castle_squares(&c, dir, from, partner)
                    .expect("castling move generated with room");
                let k = self.remove(from);
                let r = self.remove(partner);
                self.place(castler_to, k);
                self.place(pto, r);
                self.virgin &= !(B::bit(from) | B::bit(partner));
                u.partner_from = partner as u16;
                u.partner_to = pto as u16;
                for (i, rk) in self.t.counters.iter().enumerate() {
                    if rk.is_some_and(|k| k == c.kind || k == c.partner) {
                        self.counters[i] = 0;
                    }
                }
            }
        }
        if general && m.route >> 32 != 0 && !self.t.parts.is_empty() {
            let mut undo = [NO_SQ; super::MAX_PARTS];
            if self.make_parts(m, &mut undo) > 0 {
                for c in self.counters.iter_mut().take(self.t.counters.len().max(1)) {
                    *c = 0;
                }
            }
            if let Some(e) = self.extra.last_mut() {
                e.parts = undo;
            }
        }
        if let Some((enemy_before, enemy_squares)) = before {
            self.count_turn(
                us,
                &enemy_before,
                enemy_squares,
                m.to as usize,
                matches!(m.kind, MoveKind::BearOff(_)),
            );
        }
        if general && self.t.turn_state {
            self.end_turn_of_chance(us, m);
        } else {
            self.pass_turn(us);
        }
        if general && !self.t.phase_ends.is_empty() {
            self.advance_phase();
        }
        self.push_history();
        u
    }

    /// The end of `us`'s move `m` in a game with a roll or another turn: the turn passes unless
    /// the move earned another, and the next turn rolls anew.
    #[inline(never)]
    pub(super) fn end_turn_of_chance(&mut self, us: Side, m: Move) {
        let again = self.t.turn_kept && self.earns_another_turn(us, m);
        self.again = again;
        if !again {
            self.pass_turn(us);
        }
        if self.roll != 0 {
            self.hash ^= self.t.z_roll[self.roll as usize];
            self.roll = 0;
        }
    }

    /// After `us`'s move: the other side is to move (the move number counts on after the
    /// second player's).
    #[inline(always)]
    pub(super) fn pass_turn(&mut self, us: Side) {
        if self.many {
            return self.pass_turn_on(us);
        }
        if us == Side::SECOND {
            self.fullmove += 1;
        }
        self.stm = us.other();
        self.hash ^= self.t.z_side;
    }

    /// [`Pos::pass_turn`] in a game of more than two players: the next side in turn order (the
    /// move number counts on after the last's).
    #[inline(never)]
    fn pass_turn_on(&mut self, us: Side) {
        let next = self.t.next_side(us);
        if next == Side::FIRST {
            self.fullmove += 1;
        }
        self.stm = next;
        self.hash ^= self.t.z_turn[us.index()] ^ self.t.z_turn[next.index()];
    }

    /// The roll's result `r` (an index into `Tables::rolls`) comes up: the side to move stays,
    /// and now moves by it. Nothing else changes (not the counters, not the history).
    #[cold]
    fn make_roll(&mut self, r: u8) -> Undo<B> {
        let u = self.undo_with(0);
        self.set_roll(r as usize + 1);
        u
    }

    /// What `unmake` restores of this position, before a move of the piece `moved` (nothing
    /// captured yet, no castling partner).
    #[inline(always)]
    pub(super) fn undo_with(&self, moved: u8) -> Undo<B> {
        Undo {
            captured: 0,
            cap_sq: NO_SQ,
            moved,
            ep: self.ep,
            ep_victim: self.ep_victim,
            virgin: self.virgin,
            counters: self.counters,
            hash: self.hash,
            partner_from: NO_SQ,
            partner_to: NO_SQ,
        }
    }

    /// Does move `m` of `us` (just made) earn another turn: did it land in the zone that earns
    /// one, or was it made by a roll that does?
    #[inline]
    fn earns_another_turn(&self, us: Side, m: Move) -> bool {
        let landed = matches!(m.kind, MoveKind::Form(_) | MoveKind::Place(_) | MoveKind::Drop(_))
            && self.t.again_zone[us.index()].has(m.to as usize);
        let rolled = (self.roll as usize)
            .checked_sub(1)
            .is_some_and(|r| self.t.again_rolls >> r & 1 == 1);
        landed || rolled
    }

    /// The player who made the last move: the other side, unless the side to move earned another
    /// turn ([`Pos::again`]).
    #[inline]
    pub fn mover(&self) -> Side {
        if self.again {
            self.stm
        } else if self.many {
            self.moved
        } else {
            self.t.previous_side(self.stm)
        }
    }

    /// Sets [`Pos::roll`] (0: to roll; else 1 + the result's index), keeping the hash.
    pub fn set_roll(&mut self, roll: usize) {
        self.hash ^= self.t.z_roll[self.roll as usize] ^ self.t.z_roll[roll];
        self.roll = roll as u8;
    }

    /// Is the side to move still to roll (a chance node: its moves are the roll's results)?
    #[inline]
    pub fn to_roll(&self) -> bool {
        self.roll == 0 && !self.t.rolls.is_empty()
    }

    /// The number the side to move rolled, if it has. In a race game, the dice it has still to
    /// use, packed as a roll's result packs them (see [`crate::model::Roll::dice`]).
    pub fn rolled(&self) -> Option<u32> {
        let r = (self.roll as usize).checked_sub(1)?;
        match self.dice_state() {
            Some(s) if !s.fresh || self.t.race.as_ref().is_some_and(|_| r >= self.t.rolls.len()) => Some(crate::model::Roll::pack(&s.dice)),
            _ => self.t.rolls.get(r).map(|x| x.0),
        }
    }

    /// Keeps what `unmake` restores in a chain game: the board and a copy of the chains, made into
    /// tables an earlier unmake gave back (held by the chains, `Chains::spare`) where there are
    /// any: no allocation, and only the board's own points copied. Out of line, so that `make` in
    /// every other game is compiled as lean as without chains.
    #[inline(never)]
    fn push_snapshot(&mut self) {
        let n = self.t.squares;
        let Some(ch) = self.chains.as_deref_mut() else { return };
        let mut copy = ch.spare.0.pop().unwrap_or_else(|| super::chains::Chains::boxed(n));
        copy.copy_from(ch);
        self.snapshots.push(Snapshot {
            cells: self.cells.clone(),
            side_bb: self.side_bb,
            kind_bb: self.kind_bb,
            chains: Some(copy),
            takes: self.takes,
            airless: self.airless,
        });
    }

    /// Restores the last snapshot (see [`Pos::push_snapshot`]), keeping the chains it replaces
    /// (and the spare tables they held) for the next one.
    #[inline(never)]
    fn restore_snapshot(&mut self) {
        let Some(s) = self.snapshots.pop() else { return };
        self.cells = s.cells;
        self.side_bb = s.side_bb;
        self.kind_bb = s.kind_bb;
        let mut restored = s.chains;
        if let (Some(r), Some(mut done)) = (restored.as_deref_mut(), self.chains.take()) {
            r.spare.0 = std::mem::take(&mut done.spare.0);
            r.spare.0.push(done);
        }
        self.chains = restored;
        self.takes = s.takes;
        self.airless = s.airless;
    }

    /// Moves on through the phases while the current one's end holds (after a turn, or when a
    /// position is read).
    pub(crate) fn advance_phase(&mut self) {
        while (self.phase as usize) + 1 < self.t.phase_ends.len() && self.phase_ended() {
            self.hash ^= self.t.z_phase[self.phase as usize];
            self.phase += 1;
            self.hash ^= self.t.z_phase[self.phase as usize];
        }
    }

    /// Does the current phase's end hold?
    fn phase_ended(&self) -> bool {
        let t = self.t.clone();
        match &t.phase_ends[self.phase as usize] {
            crate::compile::CPhaseEnd::Never => false,
            crate::compile::CPhaseEnd::HandsEmpty => self.hands.iter().all(|h| h.iter().all(|&n| n == 0)),
            crate::compile::CPhaseEnd::Conditions(cs) => {
                let mut legal = None;
                cs.iter().all(|c| self.cond_holds(c, &mut legal))
            }
        }
    }

    /// Each side's pieces by kind, where a count changes with captures (else nothing).
    pub(super) fn kind_counts(&self, side: Side) -> [u8; MAX_KINDS] {
        let mut c = [0u8; MAX_KINDS];
        if self.t.tally_captures {
            let own = self.side_bb[side.index()];
            for (k, n) in c.iter_mut().enumerate() {
                *n = (self.kind_bb[k] & own).count() as u8;
            }
        }
        c
    }

    /// Sets `side`'s count `i` to `v` (kept within the counts' bounds), keeping the hash.
    pub fn set_tally(&mut self, side: Side, i: usize, v: i64) {
        let v = v.clamp(TALLY_MIN, TALLY_MAX) as i16;
        let old = self.tallies[side.index()][i];
        let z = self.t.z_tally[side.index()][i];
        self.hash ^= z.wrapping_mul(old as u64) ^ z.wrapping_mul(v as u64);
        self.tallies[side.index()][i] = v;
    }

    /// Changes `us`'s counts for the turn just made: a check given, the pieces captured (the
    /// opponent's pieces by kind before the turn were `enemy_before`, on `enemy_squares`; the move
    /// landed on `to`), the turn itself. A piece turned over (Othello, Ataxx) changed owner and
    /// left no board: it is not captured.
    pub(super) fn count_turn(&mut self, us: Side, enemy_before: &[u8; MAX_KINDS], enemy_squares: B, to: usize, borne_off: bool) {
        let gives_check = self.t.tally_checks && self.side_in_check(us.other());
        let mut after = self.kind_counts(us.other());
        if self.t.tally_captures {
            // Squares the opponent held that are now ours, other than where the move landed: turned
            // over, each keeping its kind. They count as still the opponent's here.
            let mut turned = enemy_squares & self.side_bb[us.index()];
            if to < self.t.squares {
                turned &= !B::bit(to);
            }
            for sq in turned.iter() {
                let k = cell_kind(self.cells[sq]).0 as usize;
                after[k] = after[k].saturating_add(1);
            }
        }
        for i in 0..self.t.tallies.len() {
            let mut delta = 0i64;
            for &(amount, event) in &self.t.tallies[i].changes {
                delta += amount
                    * match event {
                        TallyEvent::CheckGiven => gives_check as i64,
                        TallyEvent::Turn => 1,
                        TallyEvent::BorneOff => borne_off as i64,
                        TallyEvent::Captured(None) => (0..MAX_KINDS).map(|k| enemy_before[k].saturating_sub(after[k]) as i64).sum(),
                        TallyEvent::Captured(Some(k)) => enemy_before[k.0 as usize].saturating_sub(after[k.0 as usize]) as i64,
                    };
            }
            if delta != 0 {
                let v = self.tallies[us.index()][i] as i64 + delta;
                self.set_tally(us, i, v);
            }
        }
    }

    pub fn unmake(&mut self, m: Move, u: &Undo<B>) {
        // More than two players always take the general path (see `compile`).
        if self.t.general && self.many {
            return self.unmake_many(m, u);
        }
        self.unmake_one(m, u);
    }

    /// [`Pos::unmake`] among more than two players: the move itself as `make_many` found it,
    /// then the places and the last mover from before.
    #[inline(never)]
    fn unmake_many(&mut self, m: Move, u: &Undo<B>) {
        if !matches!(m.kind, MoveKind::Roll(_))
            && let Some(b) = self.many_undo.pop()
        {
            // As the move left it, before the turn passed over sides that are out.
            (self.stm, self.fullmove, self.again, self.roll) = (b.stm, b.fullmove, b.again, b.roll);
            self.unmake_one(m, u);
            (self.place, self.moved, self.out_rule) = (b.place, b.moved, b.out_rule);
            return;
        }
        self.unmake_one(m, u);
    }

    /// [`Pos::unmake`] of the move itself.
    #[inline(always)]
    fn unmake_one(&mut self, m: Move, u: &Undo<B>) {
        if self.t.turn_state {
            if let MoveKind::Roll(_) = m.kind {
                // A roll is made only where the side to move is still to roll.
                self.roll = 0;
                self.hash = u.hash;
                return;
            }
            if self.t.race.is_some() {
                return self.unmake_race(u);
            }
        }
        let from = m.from as usize;
        let to = m.to as usize;
        // A move that earned another turn left the side to move as it was.
        if !(self.t.turn_state && self.again) {
            if self.many {
                if self.stm == Side::FIRST {
                    self.fullmove -= 1;
                }
                self.stm = self.t.previous_side(self.stm);
            } else {
                self.stm = self.stm.other();
                if self.stm == Side::SECOND {
                    self.fullmove -= 1;
                }
            }
        }
        if self.t.repetition.is_some() {
            self.pop_history();
        }
        let extra = if self.t.general { self.extra.pop() } else { None };
        if let Some(e) = extra
            && m.route >> 32 != 0
            && !self.t.parts.is_empty()
        {
            self.unmake_parts(m, &e.parts);
        }
        if let MoveKind::Swap = m.kind {
            // The new stone goes first: it may stand where the old one stood (on the diagonal).
            self.remove(to);
        }
        if let Some(e) = extra
            && self.log.len() > e.log_len as usize
        {
            self.undo_effects(e.log_len as usize, e.promoted);
        }
        match m.kind {
            MoveKind::Place(_) | MoveKind::Drop(_) | MoveKind::Pass => {
                if !self.snapshots.is_empty() {
                    self.restore_snapshot();
                } else if let MoveKind::Place(_) | MoveKind::Drop(_) = m.kind {
                    self.remove(to);
                    if let MoveKind::Drop(fi) = m.kind {
                        // What left the hand is the clause's kind, whichever side was up.
                        let kind = self.t.forms[self.stm.index()][fi as usize].kind;
                        self.hand_put_back(self.stm, kind);
                    }
                }
            }
            MoveKind::Swap | MoveKind::Roll(_) => {}
            MoveKind::BearOff(_) => self.place(from, u.moved),
            MoveKind::Form(fi) => {
                self.remove(to);
                if !(self.t.clones && self.t.forms[self.stm.index()][fi as usize].clone) {
                    self.place(from, u.moved);
                }
                if u.captured != 0 {
                    self.place(u.cap_sq as usize, u.captured);
                    if let Some(e) = extra
                        && self.t.hand
                    {
                        self.hand_lose(self.stm, u.captured, u.cap_sq as usize, e.promoted);
                    }
                }
            }
            MoveKind::Castle(_) => {
                let k = self.remove(to);
                let r = self.remove(u.partner_to as usize);
                self.place(from, k);
                self.place(u.partner_from as usize, r);
            }
        }
        if let Some(e) = extra {
            self.promoted = e.promoted;
            self.last_captured = e.last_captured;
            self.passes = e.passes;
            self.tallies = e.tallies;
            self.phase = e.phase;
        }
        if self.t.turn_state
            && let Some(was) = self.turn_undo.pop()
        {
            self.roll = was & 0x7F;
            self.again = was >> 7 == 1;
        }
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.virgin = u.virgin;
        self.counters = u.counters;
        self.hash = u.hash;
    }

    /// The squares a multi-square step passed over.
    fn passed(&self, f: &CForm<B>, from: usize, to: usize) -> B {
        match &f.how {
            Gen::Lame { entries } => entries[from].iter().find(|e| e.0 as usize == to).map_or(B::EMPTY, |e| e.1),
            Gen::Slide { dirs, .. } => {
                for &d in dirs {
                    let r = self.t.ray(d as usize, from);
                    if r.has(to) {
                        return r & !self.t.ray(d as usize, to) & !B::bit(to);
                    }
                }
                B::EMPTY
            }
            _ => B::EMPTY,
        }
    }

    // ------------------------------------------------------------------ perft

    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.perft_with::<false>(depth)
    }

    /// Perft; with `STOP`, a position that an automatic end rule ends has no children.
    pub(super) fn perft_with<const STOP: bool>(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut bufs: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(256)).collect();
        self.perft_rec::<STOP>(depth, &mut bufs)
    }

    fn perft_rec<const STOP: bool>(&mut self, depth: u32, bufs: &mut [Vec<Move>]) -> u64 {
        let (buf, rest) = bufs.split_first_mut().expect("one buffer per ply");
        // With STOP, the end rules are judged once the moves are known, so that "no legal move"
        // and the side to move's half of "neither side can move" cost nothing more: judged first,
        // they generated them a second time at every node.
        if depth == 1 {
            let n = self.count_legal(buf);
            return if STOP && self.ended_given(Known::from_count(n, self.t.pass), buf) {
                0
            } else {
                n
            };
        }
        buf.clear();
        self.legal_moves(buf);
        if STOP && self.ended_given(Known::from_moves(buf), &mut rest[0]) {
            return 0;
        }
        let mut n = 0;
        for i in 0..buf.len() {
            let m = buf[i];
            let u = self.make(m);
            n += self.perft_rec::<STOP>(depth - 1, rest);
            self.unmake(m, &u);
        }
        n
    }
}

/// Emits the moves of form `fi` onto every square of `to`, each from the square `by` indices back
/// (one per promotion choice where the piece must promote), or only counts them.
#[inline(always)]
fn emit_shifted<B: Bits, const COUNT: bool>(
    out: &mut Vec<Move>,
    fi: usize,
    by: i32,
    to: B,
    promo: Option<&crate::compile::CPromo<B>>,
) -> u64 {
    if COUNT {
        // The promotion zone decides alone: forms whose promotion depends on the start square
        // have no shifts.
        return match promo {
            None => to.count() as u64,
            Some(p) => {
                let (promoting, plain) = p.split(NO_SQ as usize, to);
                plain.count() as u64 + promoting.count() as u64 * p.choices.len() as u64
            }
        };
    }
    let move_to = |sq: usize, promo: u8| Move {
        from: (sq as i32 - by) as u16,
        to: sq as u16,
        kind: MoveKind::Form(fi as u8),
        promo,
        route: 0,
    };
    match promo {
        None => {
            for sq in to.iter() {
                out.push(move_to(sq, 0));
            }
            to.count() as u64
        }
        Some(p) => {
            // Split once for the whole set (as counting does), then the same moves in the same
            // order as square by square: the plain move first, then each promotion.
            let (promoting, plain) = p.split(NO_SQ as usize, to);
            for sq in to.iter() {
                if plain.has(sq) {
                    out.push(move_to(sq, 0));
                }
                if promoting.has(sq) {
                    for c in &p.choices {
                        out.push(move_to(sq, c.0 + 1));
                    }
                }
            }
            plain.count() as u64 + promoting.count() as u64 * p.choices.len() as u64
        }
    }
}

/// Emits the moves of form `fi` by its `shifts` (see [`CForm::shifts`]) for the pieces `pieces`
/// onto `allowed`, each where its block squares are empty (or only counts them).
#[inline(always)]
fn emit_shifts<B: Bits, const COUNT: bool>(
    out: &mut Vec<Move>,
    fi: usize,
    shifts: &[crate::compile::Shift<B>],
    pieces: B,
    empty: B,
    allowed: B,
    promo: Option<&crate::compile::CPromo<B>>,
) -> u64 {
    let mut n = 0;
    for sh in shifts {
        let mut src = pieces & sh.from;
        for &b in &sh.blocks {
            src &= empty.shift(-b);
        }
        n += emit_shifted::<B, COUNT>(out, fi, sh.by, src.shift(sh.by) & allowed, promo);
    }
    n
}

/// Emits the moves of form `fi` from each square of `from` onto the targets `targets` gives it.
#[inline(always)]
fn emit_each<B: Bits, const COUNT: bool>(
    out: &mut Vec<Move>,
    fi: usize,
    from: B,
    promo: Option<&crate::compile::CPromo<B>>,
    targets: impl Fn(usize) -> B,
) -> u64 {
    let mut n = 0;
    for sq in from.iter() {
        let base = Move {
            from: sq as u16,
            to: 0,
            kind: MoveKind::Form(fi as u8),
            promo: 0,
            route: 0,
        };
        n += emit_set::<B, COUNT>(out, base, targets(sq), promo);
    }
    n
}

/// The count of [`emit_each`] for sliders along line tables: the moves from each of `from` to
/// what it reaches along `lines` within `allowed`. Two lines (a rook's, a bishop's) are spelled
/// out, chosen once for all the pieces, where a loop over the lines took a count and a branch per
/// line and piece (chess perft 5 from the start: 11 M instructions of 504 M). Other counts stay a
/// loop: a queen's four spelled out too made the whole count slower (more code than the registers
/// hold).
#[inline(always)]
fn count_slides<B: Bits>(
    out: &mut Vec<Move>,
    from: B,
    promo: Option<&crate::compile::CPromo<B>>,
    t: &crate::compile::lines::Lines<B>,
    lines: &[u16],
    occ: B,
    allowed: B,
) -> u64 {
    match *lines {
        [a, b] => emit_each::<B, true>(out, 0, from, promo, |sq| (t.attacks(a, sq, occ) | t.attacks(b, sq, occ)) & allowed),
        _ => emit_each::<B, true>(out, 0, from, promo, |sq| t.reach(lines, sq, occ) & allowed),
    }
}

/// Emits the moves from `base.from` to every square of `to` (one per promotion choice where the
/// piece must promote), or only counts them.
#[inline(always)]
pub(super) fn emit_set<B: Bits, const COUNT: bool>(
    out: &mut Vec<Move>,
    base: Move,
    to: B,
    promo: Option<&crate::compile::CPromo<B>>,
) -> u64 {
    match promo {
        None => {
            if !COUNT {
                for sq in to.iter() {
                    out.push(Move { to: sq as u16, ..base });
                }
            }
            to.count() as u64
        }
        Some(p) => {
            let (promoting, plain) = p.split(base.from as usize, to);
            if !COUNT {
                for sq in plain.iter() {
                    out.push(Move { to: sq as u16, ..base });
                }
                for sq in promoting.iter() {
                    for c in &p.choices {
                        out.push(Move {
                            to: sq as u16,
                            promo: c.0 + 1,
                            ..base
                        });
                    }
                }
            }
            plain.count() as u64 + promoting.count() as u64 * p.choices.len() as u64
        }
    }
}

/// The most leaps and lines a [`Probe`] gathers.
const MAX_PROBE: usize = 8;

/// One side's attacks as lookups, for many squares of one position (a royal's steps): the pieces
/// of each leap and each line's sliders gathered once, where every attack of the side is a leap by
/// kind or a slide along a line table (`Attacks::lookups_only`).
struct Probe<B> {
    /// The pieces of every leap's kinds (a quick test before each leap's own).
    leaping: B,
    leapers: [B; MAX_PROBE],
    sliders: [B; MAX_PROBE],
    by: Side,
    /// The lookups a square's slides take (its lines that have sliders), and those that find
    /// every slider's reach (one per slider and line): see [`Probe::safe`].
    per_square: u32,
    per_slider: u32,
}

impl<B: Bits> Probe<B> {
    #[inline(always)]
    fn new(p: &Pos<B>, by: Side) -> Option<Probe<B>> {
        let a = &p.t.attacks[by.index()];
        if !a.lookups_only || a.leaps.len() > MAX_PROBE || a.line_slides.len() > MAX_PROBE {
            return None;
        }
        let them = p.side_bb[by.index()];
        let mut probe = Probe {
            leaping: B::EMPTY,
            leapers: [B::EMPTY; MAX_PROBE],
            sliders: [B::EMPTY; MAX_PROBE],
            by,
            per_square: 0,
            per_slider: 0,
        };
        for (i, (k, ..)) in a.leaps.iter().enumerate() {
            probe.leapers[i] = p.kind_bb[k.0 as usize] & them;
            probe.leaping |= probe.leapers[i];
        }
        // (Lines of one slider group follow each other: each group's pieces are gathered once.)
        let mut group = (0, B::EMPTY);
        for (i, &(_, kinds)) in a.line_slides.iter().enumerate() {
            if kinds != group.0 {
                group = (kinds, p.kinds_of(kinds) & them);
            }
            probe.sliders[i] = group.1;
            probe.per_square += group.1.any() as u32;
            probe.per_slider += group.1.count();
        }
        Some(probe)
    }

    /// The squares of `targets` no piece attacks with occupancy `occ` (a piece standing on the
    /// square itself taken: it does not attack its own square).
    #[inline(always)]
    fn safe(&self, p: &Pos<B>, targets: B, occ: B) -> B {
        // The slides asked either way, whichever takes fewer lookups: from each target along each
        // line that has sliders, or from each slider along its line (the squares they all reach,
        // found once). Where the royal has many steps and the enemy few sliders — open boards,
        // late in a game — the second.
        let reached = (self.per_slider < self.per_square * targets.count()).then(|| self.reached(p, occ));
        self.safe_given(p, targets, occ, reached)
    }

    /// The squares the sliders reach along their lines with occupancy `occ`.
    #[inline(always)]
    fn reached(&self, p: &Pos<B>, occ: B) -> B {
        let t = &*p.t;
        let lines = &t.attacks[self.by.index()].line_slides;
        let mut reached = B::EMPTY;
        for (&(l, _), &s) in lines.iter().zip(&self.sliders) {
            for from in s.iter() {
                reached |= t.lines.attacks(l, from, occ);
            }
        }
        reached
    }

    /// [`Probe::safe`], the slides looked up from each target, or read from `reached`
    /// ([`Probe::reached`]) where given.
    #[inline(always)]
    fn safe_given(&self, p: &Pos<B>, targets: B, occ: B, reached: Option<B>) -> B {
        let t = &*p.t;
        let a = &t.attacks[self.by.index()];
        let mut safe = targets;
        for to in targets.iter() {
            // Every square but `to`: a piece there is taken by the step (a slider there reaches
            // other squares, never its own).
            let rest = !B::bit(to);
            let leapt = (a.leap_reach[to] & self.leaping & rest).any()
                && a.leaps
                    .iter()
                    .zip(&self.leapers)
                    .any(|((_, rev, _), &l)| (rev[to] & l & rest).any());
            let hit = leapt
                || match reached {
                    Some(reached) => reached.has(to),
                    None => a
                        .line_slides
                        .iter()
                        .zip(&self.sliders)
                        .any(|(&(l, _), &s)| s.any() && (t.lines.attacks(l, to, occ) & s & rest).any()),
                };
            if hit {
                safe &= rest;
            }
        }
        safe
    }
}

/// The most pins tracked exactly; pieces pinned beyond that are tested one move at a time.
const MAX_PINS: usize = 8;

/// Per-position facts the legality filter reuses for every move: whether the side to move is in
/// check, its royals, the pieces pinned to them (by slides and facing royals: to their line; by a
/// lame leaper's block point: to capturing the leaper; as one of too many screens before a hopper:
/// to the hopper's line), and the squares no other piece may enter (a hopper's line with one screen
/// too few). With these, every move but the royal's own, en passant, castling and moves out of check
/// is legal or not without a test of its own.
pub(super) struct LegalCtx<B> {
    /// Some rule restricts moves by the safety of royals.
    pub(super) constrained: bool,
    pub(super) in_check: bool,
    royals: B,
    pinned: B,
    /// The pinned pieces' squares and their lines, in two arrays (a line of 128 bits beside a
    /// square would double the size of what every generation initialises).
    pin_sq: [u16; MAX_PINS],
    pin_lines: [B; MAX_PINS],
    npins: usize,
    /// Pieces whose every move takes the full test.
    pub(super) slow: B,
    /// Squares a non-royal piece may not move to.
    pub(super) forbidden: B,
    /// Squares a move onto takes the full test, whatever pins and checks say of the piece: the
    /// enemy pieces, where captures explode (a capture may blow up a pinner, a checker or the
    /// enemy royal, or the mover's own royal).
    pub(super) tested: B,
    /// The squares a non-royal piece may move to: every square, but in check, where the rules let
    /// every check be met by taking the checker or stepping in between (`Attacks::simple_checks`,
    /// one royal), only those (none in double check).
    pub(super) evade: B,
    /// The pieces whose moves are tested one by one: the royals and `slow`, or every piece in
    /// check where checks are not that simple.
    pub(super) careful: B,
    /// The only royal, where only attacks on it make a move illegal (`Attacks::simple_checks`)
    /// and it is not in `slow`: its steps are tested by one attack query each.
    pub(super) quick_royal: B,
}

impl<B: Bits> LegalCtx<B> {
    #[inline(always)]
    fn new(p: &Pos<B>) -> LegalCtx<B> {
        let t = &*p.t;
        let us = p.stm;
        let them = us.other();
        let mut ctx = LegalCtx {
            constrained: t.royal_safety || !t.facing.is_empty(),
            in_check: false,
            royals: p.royals(us),
            pinned: B::EMPTY,
            pin_sq: [0; MAX_PINS],
            pin_lines: [B::EMPTY; MAX_PINS],
            npins: 0,
            slow: B::EMPTY,
            forbidden: B::EMPTY,
            tested: B::EMPTY,
            evade: !B::EMPTY,
            careful: B::EMPTY,
            quick_royal: B::EMPTY,
        };
        if !ctx.constrained {
            return ctx;
        }
        if let Some((blast, _)) = &t.explosion {
            // Captures blow up pieces around their target: each takes the full test. A move that
            // captures nothing is judged as in any game — pins and checks — while the one royal
            // stands apart from the enemy's; royals side by side are immune to each other's
            // attackers, so there every move takes the full test.
            let theirs = p.royals(them);
            let apart = ctx.royals.count() == 1 && ctx.royals.iter().all(|r| (blast[r] & theirs).is_empty());
            if !apart {
                ctx.in_check = p.in_check();
                ctx.slow = !B::EMPTY;
                ctx.careful = !B::EMPTY;
                return ctx;
            }
            ctx.tested = p.side_bb[them.index()];
        }
        // Checkers and the squares between them and the royal, where evasions are that simple.
        let simple = t.attacks[them.index()].simple_checks && ctx.royals.count() == 1;
        let mut checkers = 0u32;
        let mut block = B::EMPTY;
        let occ = p.occ();
        let own = p.side_bb[us.index()];
        let enemy = p.side_bb[them.index()];
        let a = &t.attacks[them.index()];
        // Hops that refuse some screens: too many cases for pins, so every move takes the full test.
        if !a.hops_not.is_empty() {
            ctx.slow = !B::EMPTY;
        }
        // The enemy's pieces that attack along rays (slides and hops): where none stands on a
        // royal's lines, no check or pin of theirs is looked for.
        let rays = enemy & p.kinds_of(a.ray_kinds);
        for r in ctx.royals.iter() {
            if !t.facing.is_empty() {
                let enemy_royals = p.royals(them);
                for &d in &t.facing {
                    let d = d as usize;
                    let Some(b1) = t.first_blocker(d, r, occ) else { continue };
                    if enemy_royals.has(b1) {
                        ctx.in_check = true;
                    } else if own.has(b1)
                        && let Some(b2) = t.first_blocker(d, b1, occ)
                        && enemy_royals.has(b2)
                    {
                        ctx.pin(b1, t.ray(d, r) & !t.ray(d, b2));
                    }
                }
            }
            if t.royal_safety {
                // Leaps, lame leaps and hops here; slides below, in the same pass as pins.
                p.scan_attackers::<false>(r, them, occ, B::EMPTY, &mut |s| {
                    ctx.in_check = true;
                    checkers += 1;
                    block |= B::bit(s);
                    // Every checker counts where evasions are computed; one is enough otherwise.
                    !simple
                });
                for (k, rev) in &a.lame {
                    let pk = p.kind_bb[k.0 as usize] & enemy;
                    if pk.is_empty() {
                        continue;
                    }
                    for &(from, block) in &rev[r] {
                        let blockers = block & occ;
                        if pk.has(from as usize) && blockers.count() == 1 && own.has(blockers.lsb()) {
                            ctx.pin(blockers.lsb(), B::bit(from as usize));
                        }
                    }
                }
                if (a.reach[r] & rays).is_empty() {
                    continue;
                }
                // Lines of one slider group follow each other (a rook's two, a bishop's two):
                // each group's pieces are gathered once.
                let (mut group, mut sliders) = (0, B::EMPTY);
                for &(l, kinds) in &a.line_slides {
                    let span = t.lines.span(l, r);
                    if (span & enemy).is_empty() {
                        continue;
                    }
                    if kinds != group {
                        (group, sliders) = (kinds, enemy & p.kinds_of(kinds));
                    }
                    if (span & sliders).is_empty() {
                        continue;
                    }
                    let seen = t.lines.attacks(l, r, occ);
                    for c in (seen & sliders).iter() {
                        ctx.in_check = true;
                        checkers += 1;
                        block |= t.line_segment(l, r, c);
                    }
                    // Behind each own piece first on the line, an enemy slider pins it.
                    let screens = seen & own;
                    if screens.is_empty() {
                        continue;
                    }
                    let behind = t.lines.attacks(l, r, occ & !screens) & sliders & !seen;
                    for pinner in behind.iter() {
                        let line = t.line_segment(l, r, pinner);
                        ctx.pin((line & screens).lsb(), line);
                    }
                }
                for s in &a.slides {
                    let rd = s.dir as usize;
                    if (t.ray(rd, r) & enemy).is_empty() || !s.within.has(r) {
                        continue;
                    }
                    let slider = |b: usize| s.by(b, cell_kind(p.cells[b]), p.virgin) && s.max.is_none_or(|m| p.distance(rd, r, b) <= m);
                    let Some(b1) = t.first_blocker(rd, r, occ) else { continue };
                    if !own.has(b1) {
                        // Not ours: an enemy that may check, or a wall (a neutral piece) that blocks.
                        if enemy.has(b1) && slider(b1) {
                            ctx.in_check = true;
                            checkers += 1;
                            block |= t.ray(rd, r) & !t.ray(rd, b1);
                        }
                        continue;
                    }
                    let Some(b2) = t.first_blocker(rd, b1, occ) else { continue };
                    if enemy.has(b2) && slider(b2) {
                        ctx.pin(b1, t.ray(rd, r) & !t.ray(rd, b2));
                    }
                }
                for h in &a.hops {
                    let rd = h.dir as usize;
                    if (t.ray(rd, r) & enemy).is_empty() || !h.within.has(r) {
                        continue;
                    }
                    let screens = h.screens as usize;
                    // The first screens + 2 pieces along the line.
                    let mut blockers = [0usize; crate::model::MAX_SCREENS as usize + 2];
                    let mut nb = 0;
                    let mut cur = r;
                    while nb < screens + 2 {
                        match t.first_blocker(rd, cur, occ) {
                            Some(b) => {
                                blockers[nb] = b;
                                nb += 1;
                                cur = b;
                            }
                            None => break,
                        }
                    }
                    let hopper =
                        |i: usize| i < nb && enemy.has(blockers[i]) && h.by(blockers[i], cell_kind(p.cells[blockers[i]]), p.virgin);
                    let segment = |i: usize| t.ray(rd, r) & !t.ray(rd, blockers[i]);
                    if hopper(screens + 1) {
                        // One screen too many: an own screen may only move to an empty square of
                        // the line or take the hopper (taking another screen would leave one too few).
                        let h = blockers[screens + 1];
                        let line = (segment(screens + 1) & !occ) | B::bit(h);
                        for &b in &blockers[..=screens] {
                            if own.has(b) {
                                ctx.pin(b, line);
                            }
                        }
                    }
                    if screens >= 1 && hopper(screens - 1) {
                        // One screen too few: nothing may step in between; own screens already
                        // there may move along the line, so they take the full test.
                        let seg = segment(screens - 1) & !B::bit(blockers[screens - 1]);
                        ctx.forbidden |= seg & !occ;
                        ctx.slow |= seg & own;
                    }
                }
            }
        }
        if t.royal_clones {
            // A royal that leaves a copy stays where it was as well: no quick test of its steps.
            ctx.slow |= ctx.royals;
        }
        ctx.careful = if ctx.in_check && !simple {
            !B::EMPTY
        } else {
            ctx.royals | ctx.slow
        };
        if simple {
            ctx.quick_royal = ctx.royals & !ctx.slow;
        }
        if simple && ctx.in_check {
            ctx.evade = if checkers == 1 { block } else { B::EMPTY };
        }
        ctx
    }

    fn pin(&mut self, sq: usize, line: B) {
        if self.npins < MAX_PINS {
            self.pin_sq[self.npins] = sq as u16;
            self.pin_lines[self.npins] = line;
            self.npins += 1;
            self.pinned |= B::bit(sq);
        } else {
            self.slow |= B::bit(sq);
        }
    }

    /// The squares a pinned piece may move to: the intersection of its pin lines.
    #[inline]
    fn pin_line(&self, sq: usize) -> B {
        let mut line = !B::EMPTY;
        for (&s, &l) in self.pin_sq[..self.npins].iter().zip(&self.pin_lines[..self.npins]) {
            if s as usize == sq {
                line &= l;
            }
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::MoveKind;

    /// Castling's landing square is judged with both pieces where they land: a partner that
    /// stood between an enemy slider and the landing square uncovers it. The generator's direct
    /// test must agree with the full one in every case.
    #[test]
    fn a_castler_may_not_land_where_its_partner_uncovered_an_attack() {
        let e = crate::sim::tests::engine("chess");
        let castles = |fen: &str| {
            let p = e.from_fen(fen).expect("a legal position");
            let moves = crate::sim::tests::assert_legal_as_defined(p.legal_moves(), &p, fen);
            moves.iter().filter(|m| matches!(m.kind, MoveKind::Castle(_))).count()
        };
        // The b-file rook castles to d1 with the king on c1; the a1 rook then sees c1.
        assert_eq!(castles("4k3/8/8/8/8/8/8/rR2K3 w B - 0 1"), 0);
        assert_eq!(castles("4k3/8/8/8/8/8/8/1R2K3 w B - 0 1"), 1);
        // A leaper behind the partner attacks what it attacked before.
        assert_eq!(castles("4k3/8/8/8/8/8/8/nR2K3 w B - 0 1"), 1);
        // An own piece behind the partner shields the landing square.
        assert_eq!(castles("4k3/8/8/8/8/8/8/NR2K3 w B - 0 1"), 1);
        // The ordinary cases: both wings, a path square attacked, castling out of check refused.
        assert_eq!(castles("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"), 2);
        assert_eq!(castles("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"), 2);
        assert_eq!(castles("r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1"), 0);
        assert_eq!(castles("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1"), 1);
        assert_eq!(castles("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1"), 0);
    }
}

/// Keeps the moves of `out[start..]` that `keep` accepts, in order (the earlier ones untouched).
pub(super) fn keep_from(out: &mut Vec<Move>, start: usize, mut keep: impl FnMut(Move) -> bool) {
    let mut w = start;
    for r in start..out.len() {
        let m = out[r];
        if keep(m) {
            out[w] = m;
            w += 1;
        }
    }
    out.truncate(w);
}
