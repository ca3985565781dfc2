//! Race games that count pieces and dice: stacks of one side's pieces on a square (`pieces
//! stack`), dice used one by one (`roll 2 dice of 6 used one by one, doubles twice`), pieces that
//! must enter from hand first, bearing off only from home and overshooting from the rearmost, and
//! the obligation to use as many dice as can be used (`must use the most dice, else the higher`).
//!
//! Such games move only along tracks (the checker sees to it), so they have a generator and a
//! `make`/`unmake` of their own, here, which every other game never reaches: one table test in
//! `generate`, `make` and `unmake` of games that roll. Their tables are
//! [`crate::compile::race`]'s; the dice still to use are a state there, kept in [`Pos::roll`] as
//! 1 + its index. A die's move goes to the state without that die; a turn ends when no die is
//! left, or when no move can use one that is.

use super::bits::Bits;
use super::position::{NO_SQ, Pos, cell, cell_kind, cell_side};
use super::{Move, MoveKind};
use crate::compile::race::{DiceState, RaceForm, RaceTables};
use crate::model::*;

/// What `unmake` restores after a race game's move.
#[derive(Clone, Copy, Debug)]
pub(super) struct RaceUndo {
    /// The two squares the move touched, each with the cell and the count it held.
    squares: [(u16, u8, u8); 2],
    hands: [[u8; MAX_KINDS]; MAX_SIDES],
    tallies: [[i16; MAX_TALLIES]; 2],
    passes: u8,
    last_captured: u32,
    roll: u8,
    again: bool,
    stm: Side,
    fullmove: u64,
}

impl<B: Bits> Pos<B> {
    #[inline]
    fn race(&self) -> &RaceTables {
        self.t.race.as_deref().expect("a race game's tables")
    }

    /// The dice state of the side to move, once it has rolled.
    pub(crate) fn dice_state(&self) -> Option<&DiceState> {
        let r = (self.roll as usize).checked_sub(1)?;
        self.t.race.as_deref()?.states.get(r)
    }

    /// How many pieces stand on `sq` (a stack's count; 1 for a lone piece, 0 on an empty square).
    pub fn stack_count(&self, sq: usize) -> u32 {
        match self.cells.get(sq) {
            Some(0) | None => 0,
            Some(_) => self.stack.get(sq).map_or(1, |&n| n.max(1) as u32),
        }
    }

    /// Sets the count of the stack on `sq`, keeping the hash.
    pub(super) fn set_stack(&mut self, sq: usize, n: u8) {
        let Some(z) = self.t.race.as_deref().and_then(|r| r.z_stack.get(sq).copied()) else {
            return;
        };
        let old = self.stack[sq];
        self.hash ^= z.wrapping_mul(old as u64) ^ z.wrapping_mul(n as u64);
        self.stack[sq] = n;
    }

    /// May a piece of `us` moved by clause `fi` land on `to`: empty, its own stack (where pieces
    /// stack), or an enemy it may hit (alone, or where stacks do not block, any stack)?
    /// Where pieces stack, a piece entering from hand lands as a moving one does.
    fn may_land(&self, us: Side, fi: usize, to: usize) -> bool {
        let f = &self.t.forms[us.index()][fi];
        if !f.within.has(to) {
            return false;
        }
        let stack = self.race().stack;
        let target = if stack.is_some() && self.race().forms[us.index()][fi].drop {
            Target::Any
        } else {
            f.target
        };
        let c = self.cells[to];
        if c == 0 {
            return target != Target::Enemy && !self.walls.has(to);
        }
        if cell_side(c) == us {
            return stack.is_some() && target == Target::Any && c == cell(f.kind, us);
        }
        if target == Target::Empty {
            return false;
        }
        match stack {
            Some(Some(block)) => self.stack_count(to) < block,
            _ => true,
        }
    }

    /// May `us` bear off by clause `rf` the piece `at` on its track, by a number that takes it
    /// `exact`ly one past the end (else beyond)?
    fn may_bear_off(&self, us: Side, rf: &RaceForm, at: usize, exact: bool) -> bool {
        if let Some(home) = &rf.home {
            if self.hands[us.index()].iter().any(|&n| n > 0) {
                return false;
            }
            if self.side_bb[us.index()].iter().any(|sq| !home[sq]) {
                return false;
            }
        }
        if exact {
            return true;
        }
        // Overshooting: only the piece farthest back.
        rf.overshoot
            && !self.side_bb[us.index()]
                .iter()
                .any(|sq| (1..=at).contains(&(rf.index[sq] as usize)))
    }

    /// The moves the dice allow (before `must use the most dice`), in clause order.
    pub(super) fn race_pseudo(&self, out: &mut Vec<Move>) {
        self.race_each(|m| {
            out.push(m);
            true
        });
    }

    /// Can the dice move anything (the first move found ends the search)?
    fn race_move_exists(&self) -> bool {
        let mut any = false;
        self.race_each(|_| {
            any = true;
            false
        });
        any
    }

    /// Each move the dice allow, in clause order, to `emit`, until it returns false.
    fn race_each(&self, mut emit: impl FnMut(Move) -> bool) {
        let Some(state) = self.dice_state() else { return };
        let rt = self.race();
        let us = self.stm;
        let in_hand = rt.enter_first
            && rt.forms[us.index()]
                .iter()
                .zip(&self.t.forms[us.index()])
                .any(|(rf, f)| rf.drop && self.hands[us.index()][f.kind.0 as usize] > 0);
        for (fi, rf) in rt.forms[us.index()].iter().enumerate() {
            let f = &self.t.forms[us.index()][fi];
            if self.t.gated && !self.clause_applies(f) {
                continue;
            }
            let by = |v: u32| rf.on_roll.as_ref().is_none_or(|n| n.contains(&v));
            if rf.drop {
                if self.hands[us.index()][f.kind.0 as usize] == 0 {
                    continue;
                }
                for &(v, _) in state.steps.iter().filter(|s| by(s.0)) {
                    // At the track's start the move keeps the number it uses in `from` (unused
                    // by a drop); along the track the square says it.
                    let (i, from) = if rf.at_start {
                        (0, v as u16)
                    } else {
                        ((v as usize).wrapping_sub(1), NO_SQ)
                    };
                    let Some(&to) = rf.squares.get(i) else { continue };
                    if self.may_land(us, fi, to as usize)
                        && !emit(Move {
                            from,
                            to,
                            kind: MoveKind::Drop(fi as u8),
                            promo: 0,
                            route: 0,
                        })
                    {
                        return;
                    }
                }
                continue;
            }
            if in_hand {
                continue;
            }
            for from in (self.pieces(us, f.kind) & f.from).iter() {
                let Some(at) = (rf.index[from] as usize).checked_sub(1) else {
                    continue;
                };
                for &(v, _) in state.steps.iter().filter(|s| by(s.0)) {
                    let j = at + v as usize;
                    if let Some(&to) = rf.squares.get(j) {
                        if self.may_land(us, fi, to as usize)
                            && !emit(Move {
                                from: from as u16,
                                to,
                                kind: MoveKind::Form(fi as u8),
                                promo: 0,
                                route: 0,
                            })
                        {
                            return;
                        }
                    } else if rf.bear_off
                        && self.may_bear_off(us, rf, at, j == rf.squares.len())
                        && !emit(Move {
                            from: from as u16,
                            to: v as u16,
                            kind: MoveKind::BearOff(fi as u8),
                            promo: 0,
                            route: 0,
                        })
                    {
                        return;
                    }
                }
            }
        }
    }

    /// The number a race game's move `m` of the side to move uses (0 for a pass).
    pub(crate) fn die_of(&self, m: Move) -> u32 {
        let rt = self.race();
        let forms = &rt.forms[self.stm.index()];
        match m.kind {
            MoveKind::Form(fi) => {
                let rf = &forms[fi as usize];
                (rf.index[m.to as usize] as u32).saturating_sub(rf.index[m.from as usize] as u32)
            }
            MoveKind::Drop(fi) if forms[fi as usize].at_start => m.from as u32,
            MoveKind::Drop(fi) => forms[fi as usize].index[m.to as usize] as u32,
            MoveKind::BearOff(_) => m.to as u32,
            _ => 0,
        }
    }

    /// A race game's legal moves: the dice's moves, only those that use the most dice where the
    /// rules say so (and the higher die where only one of two can be), else the pass where
    /// allowed. Returns how many were added.
    #[inline(never)]
    pub(super) fn race_generate<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        let start = out.len();
        self.race_pseudo(out);
        if self.race().enter_when_can || self.race().start_first.is_some() {
            self.keep_first_moves(out, start);
        }
        if let Some(higher) = self.race().most_dice
            && out.len() > start + 1
        {
            self.keep_most_dice(out, start, higher);
        }
        if self.t.pass && (!self.t.pass_only_when_stuck || out.len() == start) {
            out.push(super::position::PASS);
        }
        let n = (out.len() - start) as u64;
        if COUNT {
            out.truncate(start);
        }
        n
    }

    /// `must move from the start of TRACK first` and `must enter from hand when it can`: while
    /// the side to move has pieces in hand, of the moves from `start` on only those of its piece
    /// on the track's first square where it has any, else only the entering ones where there
    /// are any.
    fn keep_first_moves(&self, out: &mut Vec<Move>, start: usize) {
        let us = self.stm;
        if self.hands[us.index()].iter().all(|&n| n == 0) {
            return;
        }
        let rt = self.race();
        if let Some(firsts) = rt.start_first {
            let first = firsts[us.index()];
            let from_first = |m: &Move| matches!(m.kind, MoveKind::Form(_) | MoveKind::BearOff(_)) && m.from == first;
            if out[start..].iter().any(from_first) {
                let mut i = 0;
                out.retain(|m| {
                    i += 1;
                    i <= start || from_first(m)
                });
                return;
            }
        }
        let entering = |m: &Move| matches!(m.kind, MoveKind::Drop(_));
        if rt.enter_when_can && out[start..].iter().any(entering) {
            let mut i = 0;
            out.retain(|m| {
                i += 1;
                i <= start || entering(m)
            });
        }
    }

    /// Keeps, of the moves from `start` on, those after which the turn can use the most dice;
    /// with `higher`, where that is one die of two different numbers, those using the higher.
    fn keep_most_dice(&self, out: &mut Vec<Move>, start: usize, higher: bool) {
        let Some(state) = self.dice_state() else { return };
        let left = state.dice.len() as u32;
        let distinct = state.steps.len();
        let mut p = self.clone();
        let used: Vec<u32> = out[start..].iter().map(|&m| p.dice_used_by(m, left)).collect();
        let best = used.iter().copied().max().unwrap_or(0);
        let mut i = 0;
        out.retain(|_| {
            i += 1;
            i <= start || used[i - 1 - start] == best
        });
        if higher && best == 1 && distinct > 1 {
            let top = out[start..].iter().map(|&m| self.die_of(m)).max().unwrap_or(0);
            let mut i = 0;
            out.retain(|&m| {
                i += 1;
                i <= start || self.die_of(m) == top
            });
        }
    }

    /// How many dice the turn can use in all when it starts with the die move `m` (the move's own
    /// included).
    pub(crate) fn dice_used_with(&self, m: Move) -> u32 {
        let left = self.dice_state().map_or(0, |s| s.dice.len() as u32);
        self.clone().dice_used_by(m, left)
    }

    /// [`Pos::dice_used_with`] on this position, made and unmade, with `left` dice to use.
    fn dice_used_by(&mut self, m: Move, left: u32) -> u32 {
        let u = self.make(m);
        let n = 1 + self.dice_depth(left.saturating_sub(1));
        self.unmake(m, &u);
        n
    }

    /// How many more dice the turn of the side to move can use, at most `limit` (counted no
    /// further once reached).
    fn dice_depth(&mut self, limit: u32) -> u32 {
        if limit == 0 || self.roll == 0 || !self.again {
            return 0;
        }
        let mut moves = Vec::new();
        self.race_pseudo(&mut moves);
        let mut best = 0;
        for m in moves {
            let u = self.make(m);
            let n = 1 + self.dice_depth(limit - 1);
            self.unmake(m, &u);
            best = best.max(n);
            if best == limit {
                break;
            }
        }
        best
    }

    /// Lifts one piece off `sq` (the top of its stack).
    fn lift(&mut self, sq: usize) -> u8 {
        let c = self.cells[sq];
        if self.race().stack.is_some() && self.stack[sq] > 1 {
            let n = self.stack[sq] - 1;
            self.set_stack(sq, n);
        } else {
            if self.race().stack.is_some() {
                self.set_stack(sq, 0);
            }
            self.remove(sq);
        }
        c
    }

    /// Lands the piece `c` of `us` on `sq`: joins a stack of its own, or hits what stands there (a
    /// lone enemy, or where stacks do not block, a whole stack) back to its owner's hand.
    fn land(&mut self, sq: usize, c: u8, us: Side) {
        let stacks = self.race().stack.is_some();
        let there = self.cells[sq];
        if there != 0 && cell_side(there) == us {
            let n = self.stack[sq].max(1) + 1;
            self.set_stack(sq, n);
            return;
        }
        if there != 0 {
            let hit = if stacks { self.stack[sq].max(1) } else { 1 };
            if stacks {
                self.set_stack(sq, 0);
            }
            self.remove(sq);
            self.last_captured |= 1 << cell_kind(there).0;
            if self.t.hand {
                for _ in 0..hit {
                    self.hand_gain(us, there, sq, self.promoted);
                }
            }
        }
        self.place(sq, c);
        if stacks {
            self.set_stack(sq, 1);
        }
    }

    /// `make` in a race game (the roll is made as in every game of chance).
    #[inline(never)]
    pub(super) fn make_race(&mut self, m: Move) -> super::position::Undo<B> {
        let us = self.stm;
        let from = m.from as usize;
        let to = m.to as usize;
        let u = self.undo_with(0);
        let square = |p: &Self, sq: usize| -> (u16, u8, u8) {
            if sq < p.cells.len() {
                (sq as u16, p.cells[sq], p.stack.get(sq).copied().unwrap_or(0))
            } else {
                (NO_SQ, 0, 0)
            }
        };
        let to_sq = if matches!(m.kind, MoveKind::Form(_) | MoveKind::Drop(_)) {
            to
        } else {
            usize::MAX
        };
        self.race_undo.push(RaceUndo {
            squares: [
                square(self, to_sq),
                square(self, if matches!(m.kind, MoveKind::Drop(_)) { usize::MAX } else { from }),
            ],
            hands: self.hands,
            tallies: self.tallies,
            passes: self.passes,
            last_captured: self.last_captured,
            roll: self.roll,
            again: self.again,
            stm: self.stm,
            fullmove: self.fullmove,
        });
        let before = (!self.t.tallies.is_empty()).then(|| (self.kind_counts(us.other()), self.side_bb[us.other().index()]));
        let die = self.die_of(m);
        self.ep = B::EMPTY;
        self.ep_victim = NO_SQ;
        for c in self.counters.iter_mut() {
            *c = c.saturating_add(1);
        }
        self.last_captured = 0;
        self.passes = if m.kind == MoveKind::Pass {
            self.passes.saturating_add(1)
        } else {
            0
        };
        match m.kind {
            MoveKind::Form(_) => {
                let c = self.lift(from);
                self.land(to, c, us);
            }
            MoveKind::Drop(fi) => {
                let kind = self.t.forms[us.index()][fi as usize].kind;
                self.hand_take(us, kind);
                self.land(to, cell(kind, us), us);
            }
            MoveKind::BearOff(_) => {
                self.lift(from);
            }
            _ => {}
        }
        if self.last_captured != 0 {
            for c in self.counters.iter_mut() {
                *c = 0;
            }
        }
        if let Some((enemy_before, enemy_squares)) = before {
            self.count_turn(
                us,
                &enemy_before,
                enemy_squares,
                NO_SQ as usize,
                matches!(m.kind, MoveKind::BearOff(_)),
            );
        }
        // The die used: on to the state without it, while a move can use what is left.
        let next = self
            .dice_state()
            .and_then(|s| s.steps.iter().find(|st| st.0 == die))
            .and_then(|st| st.1);
        let go_on = match next {
            Some(n) if m.kind != MoveKind::Pass => {
                self.set_roll(n as usize + 1);
                self.race_move_exists()
            }
            _ => false,
        };
        if go_on {
            self.again = true;
        } else {
            self.end_turn_of_chance(us, m);
        }
        self.push_history();
        u
    }

    /// `unmake` in a race game.
    #[inline(never)]
    pub(super) fn unmake_race(&mut self, u: &super::position::Undo<B>) {
        if self.t.repetition.is_some() {
            self.pop_history();
        }
        let Some(r) = self.race_undo.pop() else { return };
        for &(sq, c, n) in &r.squares {
            let sq = sq as usize;
            if sq >= self.cells.len() {
                continue;
            }
            if self.cells[sq] != 0 {
                self.remove(sq);
            }
            if c != 0 {
                self.place(sq, c);
            }
            if let Some(s) = self.stack.get_mut(sq) {
                *s = n;
            }
        }
        self.hands = r.hands;
        self.tallies = r.tallies;
        self.passes = r.passes;
        self.last_captured = r.last_captured;
        self.roll = r.roll;
        self.again = r.again;
        self.stm = r.stm;
        self.fullmove = r.fullmove;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.virgin = u.virgin;
        self.counters = u.counters;
        self.hash = u.hash;
    }
}
