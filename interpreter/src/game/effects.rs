//! Moves with effects beyond their own squares, and moves that do not come from the board: drops
//! from a hand, placements that fall (gravity) or flip enclosed runs, jumps that capture the piece
//! jumped over and go on while they can (one move in all), the swap, and the obligation to capture.
//! Everything here runs on the compiled tables; the plain "one piece moves" case never comes here.
//!
//! Undo: every square an effect changes is logged with the cell it held ([`Pos::log`]); `unmake`
//! puts the log back. A logged square that is empty now held a captured piece, one that is taken
//! held a flipped one.

use super::bits::Bits;
use super::position::{LegalCtx, NO_SQ, Pos, cell, cell_kind, cell_side};
use super::{Move, MoveKind};
use crate::compile::{CForm, Gen, max_legs};
use crate::model::*;

impl<B: Bits> Pos<B> {
    // ------------------------------------------------------------------ hands

    #[inline]
    fn hand_hash(&mut self, side: Side, kind: KindId, from: u8, to: u8) {
        let z = self.t.z_hand[side.index()][kind.0 as usize];
        self.hash ^= z.wrapping_mul(from as u64) ^ z.wrapping_mul(to as u64);
    }

    /// Sets the count of `kind` in `side`'s hand, keeping the hash.
    pub fn set_hand(&mut self, side: Side, kind: KindId, count: u8) {
        let old = self.hands[side.index()][kind.0 as usize];
        self.hand_hash(side, kind, old, count);
        self.hands[side.index()][kind.0 as usize] = count;
    }

    pub(super) fn hand_take(&mut self, side: Side, kind: KindId) {
        let c = self.hands[side.index()][kind.0 as usize];
        self.set_hand(side, kind, c.saturating_sub(1));
    }

    pub(super) fn hand_put_back(&mut self, side: Side, kind: KindId) {
        let c = self.hands[side.index()][kind.0 as usize];
        self.set_hand(side, kind, c.saturating_add(1));
    }

    /// The kind a captured piece joins the captor's hand as: what it promoted from, if it promoted.
    fn hand_kind(&self, captured: u8, sq: usize, promoted: B) -> KindId {
        let k = cell_kind(captured);
        if promoted.has(sq) { self.t.demote[k.0 as usize] } else { k }
    }

    /// `captor` takes the piece `captured` that stood on `sq` (`promoted`: the promoted pieces then).
    pub(super) fn hand_gain(&mut self, captor: Side, captured: u8, sq: usize, promoted: B) {
        let k = self.hand_kind(captured, sq, promoted);
        self.hand_put_back(captor, k);
    }

    pub(super) fn hand_lose(&mut self, captor: Side, captured: u8, sq: usize, promoted: B) {
        let k = self.hand_kind(captured, sq, promoted);
        self.hand_take(captor, k);
    }

    // ------------------------------------------------------------------ effects

    /// The enemy runs enclosed from `to` along `dirs`: straight runs of `enemy` pieces that end at
    /// an `own` piece.
    pub(super) fn enclosed(&self, to: usize, own: B, enemy: B, dirs: &[u8]) -> B {
        let t = &*self.t;
        let mut out = B::EMPTY;
        for &d in dirs {
            let next = &t.next[d as usize];
            let mut run = B::EMPTY;
            let mut sq = next[to];
            while sq != NO_SQ && enemy.has(sq as usize) {
                run |= B::bit(sq as usize);
                sq = next[sq as usize];
            }
            if sq != NO_SQ && own.has(sq as usize) {
                out |= run;
            }
        }
        out
    }

    /// The squares a jump move passes over, in order (its captured pieces when it captures).
    pub(super) fn jumped(&self, m: Move) -> Vec<usize> {
        let t = &*self.t;
        let (from, to) = (m.from as usize, m.to as usize);
        let legs = m.legs();
        if legs == 0 {
            // One leg: the square between.
            let w = t.width;
            let over = ((from % w + to % w) / 2) + ((from / w + to / w) / 2) * w;
            return vec![over];
        }
        let mut out = Vec::with_capacity(legs as usize);
        let mut cur = from;
        let mask = (1u32 << t.leg_bits) - 1;
        for i in 0..legs {
            let leg = (m.route >> (4 + i * t.leg_bits)) as u32 & mask;
            let d = t.legs[leg as usize] as usize;
            let over = t.next[d][cur] as usize;
            out.push(over);
            cur = t.next[d][over] as usize;
        }
        out
    }

    /// Carries out the effects of the clause `fi` after the moving or placed piece reached `to`.
    /// Returns how many pieces it captured.
    pub(super) fn apply_effects(&mut self, fi: usize, to: usize, m: Move) -> u32 {
        let us = self.stm;
        let (jump, enclose) = {
            let f = &self.t.forms[us.index()][fi];
            (f.jump, f.enclose.clone())
        };
        let promoted = self.promoted;
        let mut captured = 0;
        if let Some(j) = jump
            && j.capturing
        {
            for over in self.jumped(m) {
                let c = self.cells[over];
                if c == 0 {
                    continue;
                }
                self.log.push((over as u16, c));
                self.remove(over);
                self.last_captured |= 1 << cell_kind(c).0;
                if self.t.hand {
                    self.hand_gain(us, c, over, promoted);
                }
                self.promoted &= !B::bit(over);
                captured += 1;
            }
        }
        if let Some((what, dirs)) = enclose {
            let own = self.side_bb[us.index()];
            let enemy = self.side_bb[us.other().index()];
            let run = self.enclosed(to, own, enemy, &dirs);
            for sq in run.iter() {
                let c = self.cells[sq];
                self.log.push((sq as u16, c));
                self.remove(sq);
                match what {
                    Enclose::Flip => self.place(sq, cell(cell_kind(c), us)),
                    Enclose::Capture => {
                        self.last_captured |= 1 << cell_kind(c).0;
                        if self.t.hand {
                            self.hand_gain(us, c, sq, promoted);
                        }
                        self.promoted &= !B::bit(sq);
                        captured += 1;
                    }
                }
            }
        }
        captured
    }

    /// Puts back what effects changed since the log had `len` entries (`promoted`: the promoted
    /// pieces before the move, to know what a captured piece went to the hand as).
    pub(super) fn undo_effects(&mut self, len: usize, promoted: B) {
        let captor = self.stm;
        while self.log.len() > len {
            let (sq, old) = self.log.pop().expect("the log is longer than len");
            let sq = sq as usize;
            if self.cells[sq] != 0 {
                self.remove(sq);
            } else if self.t.hand && cell_side(old) != captor {
                self.hand_lose(captor, old, sq, promoted);
            }
            self.place(sq, old);
        }
    }

    /// The second player takes over the first player's piece, mirrored across the long diagonal.
    pub(super) fn make_swap(&mut self, m: Move) {
        let us = self.stm;
        let from = m.from as usize;
        let c = self.cells[from];
        self.log.push((from as u16, c));
        self.remove(from);
        self.put(m.to as usize, cell_kind(c), us);
    }

    // ------------------------------------------------------------------ generation

    /// The cells where a piece falling along `dir` comes to rest: empty, with the next square along
    /// `dir` taken or off the board.
    fn resting(&self, dir: u8, empty: B) -> B {
        let next = &self.t.next[dir as usize];
        let occ = self.occ();
        let mut out = B::EMPTY;
        for sq in empty.iter() {
            let n = next[sq];
            if n == NO_SQ || occ.has(n as usize) {
                out |= B::bit(sq);
            }
        }
        out
    }

    /// Moves of a placing, dropping or jumping clause; legal ones only when `ctx` is given
    /// (pseudo-legal otherwise).
    #[inline(never)]
    pub(super) fn effect_moves(&self, out: &mut Vec<Move>, fi: usize, f: &CForm<B>, ctx: Option<&LegalCtx<B>>) {
        let t = &*self.t;
        let us = self.stm;
        let own = self.side_bb[us.index()];
        let enemy = self.side_bb[us.other().index()];
        let occ = own | enemy | self.walls;
        let empty = !occ & t.board_mask;
        match &f.how {
            Gen::Place | Gen::Drop => {
                let dropping = matches!(f.how, Gen::Drop);
                if dropping && self.hands[us.index()][f.kind.0 as usize] == 0 {
                    return;
                }
                let mut targets = empty & f.within & !f.stuck;
                if let Some(k) = f.no_file_with {
                    for sq in self.pieces(us, k).iter() {
                        targets &= !t.files[sq % t.width];
                    }
                }
                if let Some(d) = f.falling {
                    targets &= self.resting(d, empty);
                }
                let kind = if dropping {
                    MoveKind::Drop(fi as u8)
                } else {
                    MoveKind::Place(fi as u8)
                };
                for to in targets.iter() {
                    // `only if it flips` / `captures`: the enclosed runs are what it would flip or take.
                    if f.only_if.is_some() {
                        let dirs = f.enclose.as_ref().map_or(&[][..], |e| &e.1[..]);
                        if self.enclosed(to, own | B::bit(to), enemy, dirs).is_empty() {
                            continue;
                        }
                    }
                    let m = Move {
                        from: NO_SQ,
                        to: to as u16,
                        kind,
                        promo: 0,
                        route: 0,
                    };
                    if let Some(ctx) = ctx {
                        if t.chains && self.place_problem(f.kind, to).is_some() {
                            continue;
                        }
                        if ctx.constrained
                            && (ctx.in_check || f.effects || ctx.forbidden.has(to) || ctx.slow.any())
                            && !self.is_legal_slow(m)
                        {
                            continue;
                        }
                        if f.not_giving_mate && !self.mate_probe && self.mates(m) {
                            continue;
                        }
                    }
                    out.push(m);
                }
            }
            Gen::Jump { entries } => {
                let Some(j) = f.jump else { return };
                let mut pieces = self.pieces(us, f.kind) & f.from;
                if f.unmoved {
                    pieces &= self.virgin;
                }
                let over_ok = match j.over {
                    Over::Enemy => enemy,
                    Over::Own => own,
                    Over::Any => own | enemy,
                };
                let start = out.len();
                for from in pieces.iter() {
                    for &(over, land, leg) in &entries[from] {
                        let (over, land) = (over as usize, land as usize);
                        if !over_ok.has(over) || !empty.has(land) || !f.within.has(land) {
                            continue;
                        }
                        if j.continuing {
                            let lifted = occ & !B::bit(from);
                            let route = 1 | (leg as u64) << 4;
                            self.continue_jump(out, fi, f.kind, from, land, lifted, B::bit(over), route);
                        } else {
                            self.push_jump(out, fi, f.kind, from, land, 0);
                        }
                    }
                }
                if let Some(ctx) = ctx
                    && ctx.constrained
                {
                    let mut w = start;
                    for r in start..out.len() {
                        let m = out[r];
                        if self.is_legal_slow(m) {
                            out[w] = m;
                            w += 1;
                        }
                    }
                    out.truncate(w);
                }
            }
            _ => {}
        }
    }

    /// Emits a jump landing on `to` (one move per promotion choice where the piece promotes there).
    fn push_jump(&self, out: &mut Vec<Move>, fi: usize, kind: KindId, from: usize, to: usize, route: u64) {
        let m = Move {
            from: from as u16,
            to: to as u16,
            kind: MoveKind::Form(fi as u8),
            promo: 0,
            route,
        };
        super::position::emit_set::<B, false>(out, m, B::bit(to), self.t.promotion[self.stm.index()][kind.0 as usize].as_ref());
    }

    /// After a capturing leg landing on `at` (with `dead` the pieces jumped so far, still standing
    /// until the move ends, and `occ` the board without the moving piece), jumps again while the
    /// piece can; emits the move where it cannot (or where it promotes and that ends the move, or
    /// where the route is full).
    #[allow(clippy::too_many_arguments)]
    fn continue_jump(&self, out: &mut Vec<Move>, fi: usize, kind: KindId, from: usize, at: usize, occ: B, dead: B, route: u64) {
        let t = &*self.t;
        let us = self.stm;
        let legs = (route & 15) as u32;
        let promoting = t.promotion[us.index()][kind.0 as usize]
            .as_ref()
            .is_some_and(|p| p.split(from, B::bit(at)).0.any());
        let ends_here = promoting && self.promotion_ends_move(kind);
        let full = legs >= max_legs(t.leg_bits).min(15);
        let mut went_on = false;
        if !ends_here && !full {
            let enemy = self.side_bb[us.other().index()] & !dead;
            for g in t.forms[us.index()].iter().filter(|g| g.kind == kind) {
                let (Gen::Jump { entries }, Some(j)) = (&g.how, g.jump) else {
                    continue;
                };
                if !j.continuing || !j.capturing {
                    continue;
                }
                let over_ok = match j.over {
                    Over::Enemy => enemy,
                    Over::Own => self.side_bb[us.index()] & !B::bit(from),
                    Over::Any => occ & !dead & !self.walls,
                };
                for &(over, land, leg) in &entries[at] {
                    let (over, land) = (over as usize, land as usize);
                    if !over_ok.has(over) || occ.has(land) || !g.within.has(land) || dead.has(over) {
                        continue;
                    }
                    went_on = true;
                    let next = (route & !15) | (leg as u64) << (4 + legs * t.leg_bits) | (legs as u64 + 1);
                    self.continue_jump(out, fi, kind, from, land, occ, dead | B::bit(over), next);
                }
            }
        }
        if !went_on {
            self.push_jump(out, fi, kind, from, at, route);
        }
    }

    /// Does promoting this kind end a continuing move?
    fn promotion_ends_move(&self, kind: KindId) -> bool {
        self.t.promotion_ends.get(kind.0 as usize).copied().unwrap_or(false)
    }

    /// What generation adds in games on the general path, after the clauses' moves: the swap and
    /// the obligation to capture. Returns the new count.
    #[inline(never)]
    pub(super) fn general_tail<const COUNT: bool>(&self, out: &mut Vec<Move>, mut n: u64) -> u64 {
        if self.t.swap {
            let start = out.len();
            self.extra_swap(out);
            n += (out.len() - start) as u64;
            if COUNT {
                out.truncate(start);
            }
        }
        if self.t.must_capture.is_some() {
            self.keep_obligatory(out);
            n = out.len() as u64;
        }
        n
    }

    /// Does `m` change squares other than its own (so that only making it tells its legality)?
    pub(super) fn has_effects(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::Form(fi) | MoveKind::Place(fi) => self.t.forms[self.stm.index()][fi as usize].effects,
            MoveKind::Swap => true,
            MoveKind::Drop(_) | MoveKind::Castle(_) | MoveKind::Pass => false,
        }
    }

    /// The swap: on the second player's first move, the first player's one piece.
    pub(super) fn extra_swap(&self, out: &mut Vec<Move>) {
        let t = &*self.t;
        if self.stm != Side::SECOND || self.side_bb[1].any() || self.side_bb[0].count() != 1 || t.width * t.width != t.squares {
            return;
        }
        let from = self.side_bb[0].lsb();
        let (f, r) = (from % t.width, from / t.width);
        out.push(Move {
            from: from as u16,
            to: (f * t.width + r) as u16,
            kind: MoveKind::Swap,
            promo: 0,
            route: 0,
        });
    }

    /// How many pieces `m` captures (on its square, en passant, jumped over, or enclosed).
    pub fn captures_of(&self, m: Move) -> u32 {
        let us = self.stm;
        match m.kind {
            MoveKind::Form(fi) => {
                let f = &self.t.forms[us.index()][fi as usize];
                let enemy = self.side_bb[us.other().index()];
                let mut n = 0;
                let to = m.to as usize;
                if f.target == Target::EnPassant || enemy.has(to) {
                    n += 1;
                }
                if let Some(j) = f.jump
                    && j.capturing
                {
                    n += self.jumped(m).len() as u32;
                }
                if let Some((Enclose::Capture, dirs)) = &f.enclose {
                    let own = (self.side_bb[us.index()] & !B::bit(m.from as usize)) | B::bit(to);
                    n += self.enclosed(to, own, enemy & !B::bit(to), dirs).count();
                }
                n
            }
            MoveKind::Place(fi) | MoveKind::Drop(fi) => {
                let f = &self.t.forms[us.index()][fi as usize];
                match &f.enclose {
                    Some((Enclose::Capture, dirs)) => {
                        let own = self.side_bb[us.index()] | B::bit(m.to as usize);
                        self.enclosed(m.to as usize, own, self.side_bb[us.other().index()], dirs).count()
                    }
                    _ => 0,
                }
            }
            MoveKind::Castle(_) | MoveKind::Pass | MoveKind::Swap => 0,
        }
    }

    /// `must capture`: when some moves capture, only they stay (only those capturing the most,
    /// under `must capture the most`).
    pub(super) fn keep_obligatory(&self, out: &mut Vec<Move>) {
        let Some(most) = self.t.must_capture else { return };
        let counts: Vec<u32> = out.iter().map(|m| self.captures_of(*m)).collect();
        let best = counts.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return;
        }
        let keep = if most { best } else { 1 };
        let mut i = 0;
        out.retain(|_| {
            let k = counts[i] >= keep;
            i += 1;
            k
        });
    }

    /// The full test for moves whose effects reach other squares: make it and look.
    pub(super) fn legal_by_making(&self, m: Move) -> bool {
        let us = self.stm;
        let mut after = self.clone();
        after.make(m);
        if self.t.explosion.is_some() && self.t.royal_safety {
            // A move may not blow up its own royal; one that blows up every enemy royal wins, and
            // what it leaves attacked no longer matters.
            if after.royals(us).count() < self.royals(us).count() {
                return false;
            }
            if self.royals(us.other()).any() && after.royals(us.other()).is_empty() {
                return true;
            }
        }
        !after.side_exposed(us)
    }

    /// Is a royal of `side` attacked, or facing an enemy royal (after `side` moved)?
    pub(super) fn side_exposed(&self, side: Side) -> bool {
        let occ = self.occ();
        self.royals(side)
            .iter()
            .any(|r| (self.t.royal_safety && self.threatened(r, side.other(), occ)) || self.faces(r, side, occ, B::EMPTY))
    }

    /// A capture landing on `to` explodes: the captor and every piece around `to` leave the board,
    /// except the kinds spared (each logged for `unmake`).
    pub(super) fn explode(&mut self, to: usize) {
        let Some((blast, spare)) = &self.t.explosion else { return };
        let us = self.stm;
        let around = blast[to] & (self.side_bb[0] | self.side_bb[1]);
        let spare = *spare;
        let promoted = self.promoted;
        for sq in around.iter().chain(std::iter::once(to)) {
            let c = self.cells[sq];
            if c == 0 || (sq != to && spare >> cell_kind(c).0 & 1 == 1) {
                continue;
            }
            self.log.push((sq as u16, c));
            self.remove(sq);
            if cell_side(c) != us {
                self.last_captured |= 1 << cell_kind(c).0;
                if self.t.hand {
                    self.hand_gain(us, c, sq, promoted);
                }
            }
            self.promoted &= !B::bit(sq);
            self.virgin &= !B::bit(sq);
        }
    }

    /// Would `m` checkmate at once (the opponent in check, with no legal move)?
    pub(super) fn mates(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.make(m);
        if !after.in_check() {
            return false;
        }
        // The replies are judged without asking the same question again (no unbounded recursion).
        after.mate_probe = true;
        let mut buf = Vec::new();
        after.count_legal(&mut buf) == 0
    }
}
