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
use smallvec::SmallVec;

/// A jump's legs as generation collects them: (square jumped, landing square, leg as the route
/// keeps it, ray direction). Held inline: a capture rarely has more than a few ways on.
type Legs = SmallVec<[(usize, usize, u32, u8); 16]>;

/// A jump move's route read back: (square jumped, landing square) per leg, held inline.
pub(crate) type Route = SmallVec<[(u16, u16); 8]>;

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
        self.hand_put_back(self.hand_of(captor, captured), k);
    }

    pub(super) fn hand_lose(&mut self, captor: Side, captured: u8, sq: usize, promoted: B) {
        let k = self.hand_kind(captured, sq, promoted);
        self.hand_take(self.hand_of(captor, captured), k);
    }

    /// Whose hand a piece captured by `captor` joins: the captor's, or under `captures go back
    /// to hand` its owner's.
    #[inline]
    fn hand_of(&self, captor: Side, captured: u8) -> Side {
        if self.t.hand_back { cell_side(captured) } else { captor }
    }

    // ------------------------------------------------------------------ effects

    /// The enemy runs clause `f` encloses from `to`: straight runs of `enemy` pieces along its
    /// directions that end at an `own` piece (or an empty square of its hostile zone), of its exact
    /// length where it sets one, none holding a kind taken only when surrounded.
    #[inline(always)]
    pub(super) fn enclosed_of(&self, f: &CForm<B>, to: usize, own: B, enemy: B) -> B {
        let Some((_, dirs)) = &f.enclose else { return B::EMPTY };
        self.enclosed_by(to, own, enemy, dirs, f.enclose_exact, f.enclose_against[self.stm.index()])
    }

    #[inline(always)]
    fn enclosed_by(&self, to: usize, own: B, enemy: B, dirs: &[u8], exact: Option<u32>, hostile: B) -> B {
        let t = &*self.t;
        if exact.is_none() && hostile.is_empty() && t.surround_kinds == 0 {
            // Othello's rule and plain custodial capture: runs closed by an own piece.
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
            return out;
        }
        let occ = self.occ();
        let mut out = B::EMPTY;
        for &d in dirs {
            let next = &t.next[d as usize];
            let mut run = B::EMPTY;
            let mut len = 0;
            let mut sq = next[to];
            while sq != NO_SQ && enemy.has(sq as usize) {
                run |= B::bit(sq as usize);
                len += 1;
                sq = next[sq as usize];
            }
            let closed = sq != NO_SQ && (own.has(sq as usize) || (hostile.has(sq as usize) && !occ.has(sq as usize)));
            let shielded = t.surround_kinds != 0 && run.iter().any(|x| t.surround_kinds >> cell_kind(self.cells[x]).0 & 1 == 1);
            if closed && exact.is_none_or(|n| n == len) && !shielded {
                out |= run;
            }
        }
        out
    }

    /// The enemy pieces next to `to` (a move's landing square) that are taken only when surrounded,
    /// and now are: every neighbour along their rule's directions is one of `own`, an empty square
    /// of its zone, or (where the edge counts) off the board.
    pub(super) fn surrounded(&self, to: usize, own: B, enemy: B) -> B {
        let t = &*self.t;
        if t.surround_kinds == 0 {
            return B::EMPTY;
        }
        let occ = self.occ();
        let us = self.stm.index();
        let mut out = B::EMPTY;
        for x in (t.around[to] & enemy).iter() {
            let Some((dirs, against, edge)) = t.surround.get(cell_kind(self.cells[x]).0 as usize).and_then(|s| s.as_ref()) else {
                continue;
            };
            let all = dirs.iter().all(|&d| match t.next[d as usize][x] {
                NO_SQ => *edge,
                n => own.has(n as usize) || (against[us].has(n as usize) && !occ.has(n as usize)),
            });
            if all && dirs.iter().any(|&d| t.next[d as usize][x] as usize == to) {
                out |= B::bit(x);
            }
        }
        out
    }

    /// The squares a jump move passes over, in order (its captured pieces when it captures).
    pub(super) fn jumped(&self, m: Move) -> SmallVec<[u16; 8]> {
        self.route_squares(m).into_iter().map(|(over, _)| over).collect()
    }

    /// Each leg of a jump move: (the square jumped over, the landing square). Read against the
    /// board before the move (or during `make`, where the piece already stands on `to`): a leg
    /// jumps the first piece along its direction (its start and end squares taken as empty; with
    /// `capturing at once`, the pieces jumped earlier too) and lands its distance beyond.
    pub(crate) fn route_squares(&self, m: Move) -> Route {
        let t = &*self.t;
        let (from, to) = (m.from as usize, m.to as usize);
        let legs = m.legs();
        if legs == 0 {
            // One leg to the next square but one: the square between.
            let w = t.width;
            let over = ((from % w + to % w) / 2) + ((from / w + to / w) / 2) * w;
            return smallvec::smallvec![(over as u16, to as u16)];
        }
        let at_once = match m.kind {
            MoveKind::Form(fi) => self.t.forms[self.stm.index()]
                .get(fi as usize)
                .and_then(|f| f.jump)
                .is_some_and(|j| j.at_once),
            _ => false,
        };
        // The mover is lifted. Its last landing square may still hold a piece now: one it takes
        // on the way (captured at once) and then lands where it stood.
        let mut occ = self.occ() & !B::bit(from);
        let mut out = Route::new();
        let mut cur = from;
        let mask = (1u64 << t.leg_bits) - 1;
        let dir_mask = (1u64 << t.dir_bits) - 1;
        for i in 0..legs {
            let leg = (m.route >> (4 + i * t.leg_bits)) & mask;
            let Some(&d) = t.legs.get((leg & dir_mask) as usize) else { break };
            let dist = (leg >> t.dir_bits) + 1;
            let next = &t.next[d as usize];
            let mut over = next[cur];
            while over != NO_SQ && !occ.has(over as usize) {
                over = next[over as usize];
            }
            if over == NO_SQ {
                break;
            }
            let mut land = over;
            for _ in 0..dist {
                if land == NO_SQ {
                    break;
                }
                land = next[land as usize];
            }
            if land == NO_SQ {
                break;
            }
            out.push((over, land));
            if at_once {
                occ &= !B::bit(over as usize);
            }
            cur = land as usize;
        }
        out
    }

    /// Carries out the effects of the clause `fi` after the moving or placed piece reached `to`.
    /// Returns how many pieces it captured.
    pub(super) fn apply_effects(&mut self, fi: usize, to: usize, m: Move) -> u32 {
        let us = self.stm;
        let (jump, enclose, neighbours) = {
            let f = &self.t.forms[us.index()][fi];
            (f.jump, f.enclose.clone(), f.neighbours)
        };
        let promoted = self.promoted;
        let mut captured = 0;
        if let Some(j) = jump
            && j.capturing
        {
            for over in self.jumped(m) {
                let over = over as usize;
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
        // At most three sets (enclosed, surrounded, neighbours): on the stack, as every placement of
        // Othello makes one (a heap list here was a tenth of its perft's instructions).
        let mut affected: SmallVec<[(Enclose, B); 3]> = SmallVec::new();
        if let Some((what, _)) = enclose {
            let own = self.side_bb[us.index()];
            let enemy = self.enemies(us);
            affected.push((what, self.enclosed_of(&self.t.forms[us.index()][fi], to, own, enemy)));
            if what == Enclose::Capture {
                affected.push((what, self.surrounded(to, own, enemy)));
            }
        }
        if let Some(what) = neighbours {
            affected.push((what, self.t.around[to] & self.enemies(us)));
        }
        let mut done = B::EMPTY;
        for (what, run) in affected {
            let run = run & !done;
            done |= run;
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

    /// The squares a placing or dropping clause may put its piece on, before the tests of each
    /// square (the flips it must make, the royal's safety): empty, in its zone, next to an own
    /// piece, on a file free of its kind, where it comes to rest — none for a drop from an
    /// empty hand. `own` is the mover's pieces, `empty` the board's empty squares.
    #[inline]
    pub(super) fn place_targets(&self, f: &CForm<B>, own: B, empty: B) -> B {
        let t = &*self.t;
        let us = self.stm;
        if matches!(f.how, Gen::Drop) && self.hands[us.index()][f.kind.0 as usize] == 0 {
            return B::EMPTY;
        }
        let mut targets = empty & f.within & !f.stuck;
        if f.by_roll.is_some() {
            targets &= self.entered_by_roll(f);
        }
        if f.next_to_own {
            let mut around = B::EMPTY;
            for sq in own.iter() {
                around |= t.around[sq];
            }
            targets &= around;
        }
        if let Some(k) = f.no_file_with {
            for sq in self.pieces(us, k).iter() {
                targets &= !t.files[sq % t.width];
            }
        }
        if let Some(d) = f.falling {
            targets &= match &t.ray_shifts[d as usize] {
                Some(r) => empty & (r.ends | r.back(!empty & t.board_mask)),
                None => self.resting(d, empty),
            };
        }
        targets
    }

    /// The empty squares where a piece of `f` (with [`CForm::flips_set_wise`]) would enclose a
    /// run of `enemy` pieces against an `own` one along one of its rays: along each, the enemy
    /// pieces from which the ray runs over enemies to an own piece, grown back one square at a
    /// time, then the squares just before them.
    pub(super) fn flip_targets(&self, f: &CForm<B>, own: B, enemy: B) -> B {
        let t = &*self.t;
        let Some((_, dirs)) = &f.enclose else { return B::EMPTY };
        let empty = !self.occ() & t.board_mask;
        let mut out = B::EMPTY;
        for &d in dirs {
            let Some(r) = &t.ray_shifts[d as usize] else { continue };
            let mut run = r.back(own) & enemy;
            loop {
                let grown = run | (r.back(run) & enemy);
                if grown == run {
                    break;
                }
                run = grown;
            }
            out |= r.back(run) & empty;
        }
        out
    }

    /// Moves of a placing, dropping or jumping clause; legal ones only when `ctx` is given
    /// (pseudo-legal otherwise).
    #[inline(never)]
    pub(super) fn effect_moves(&self, out: &mut Vec<Move>, fi: usize, f: &CForm<B>, ctx: Option<&LegalCtx<B>>) {
        let t = &*self.t;
        let us = self.stm;
        let (own, enemy, occ) = self.own_enemy_occ(us);
        match &f.how {
            Gen::Place | Gen::Drop => {
                let dropping = matches!(f.how, Gen::Drop);
                let targets = self.place_targets(f, own, !occ & self.t.board_mask);
                // A royal placed must land where it is safe: each such placement takes the full test.
                let royal = t.is_royal(f.kind);
                let kind = if dropping {
                    MoveKind::Drop(fi as u8)
                } else {
                    MoveKind::Place(fi as u8)
                };
                for to in targets.iter() {
                    // `only if it flips` / `captures`: the enclosed runs are what it would flip or take.
                    if f.only_if.is_some() && self.enclosed_of(f, to, own | B::bit(to), enemy).is_empty() {
                        continue;
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
                            && (ctx.in_check || f.effects || royal || ctx.forbidden.has(to) || ctx.slow.any())
                            && !self.is_legal_slow(m)
                        {
                            continue;
                        }
                        if f.not_giving_mate && !self.mate_probe && self.mates(m) {
                            continue;
                        }
                    }
                    out.push(m);
                    // Either side up: the same drop as each kind it promotes to.
                    for k in &f.other_sides {
                        let turned = Move { promo: k.0 + 1, ..m };
                        if let Some(ctx) = ctx
                            && ctx.constrained
                            && !self.is_legal_slow(turned)
                        {
                            continue;
                        }
                        out.push(turned);
                    }
                }
            }
            // A jump that goes on at will, apart: the capturing jumps' loop below stays as it is.
            Gen::Jump { chain: true, .. } => {
                let Some(j) = f.jump else { return };
                let mut pieces = self.pieces(us, f.kind) & f.from;
                if f.unmoved {
                    pieces &= self.virgin;
                }
                let start = out.len();
                self.chain_jumps(out, fi, f, j, pieces, own, enemy, occ);
                if let Some(ctx) = ctx
                    && ctx.constrained
                {
                    let legal: Vec<Move> = out.drain(start..).filter(|&m| self.is_legal_slow(m)).collect();
                    out.extend(legal);
                }
            }
            Gen::Jump { .. } => {
                let Some(j) = f.jump else { return };
                let mut pieces = self.pieces(us, f.kind) & f.from;
                if f.unmoved {
                    pieces &= self.virgin;
                }
                let start = out.len();
                let any = occ & !self.walls;
                for from in pieces.iter() {
                    let lifted = occ & !B::bit(from);
                    let over_ok = over_ok(j, from, own, enemy, any);
                    if !j.far {
                        // Over an adjacent piece: straight from the table, nothing collected.
                        let Gen::Jump { entries, .. } = &f.how else { return };
                        for &(over, land, leg) in &entries[from] {
                            let (over, land) = (over as usize, land as usize);
                            if !over_ok.has(over) || lifted.has(land) || !f.within.has(land) {
                                continue;
                            }
                            if j.continuing {
                                let occ = if j.at_once { lifted & !B::bit(over) } else { lifted };
                                let route = 1 | (leg as u64) << 4;
                                let d = self.t.legs[leg as usize];
                                self.continue_jump(out, fi, f.kind, f.kind, from, land, occ, B::bit(over), route, d);
                            } else {
                                self.push_jump(out, fi, f.kind, None, from, land, 0);
                            }
                        }
                        continue;
                    }
                    let legs = self.jump_legs(f, j, from, lifted, over_ok, None);
                    for (over, land, leg, d) in self.landings_going_on(f.kind, from, j, legs, lifted, B::EMPTY) {
                        if j.continuing {
                            let occ = if j.at_once { lifted & !B::bit(over) } else { lifted };
                            let route = 1 | (leg as u64) << 4;
                            self.continue_jump(out, fi, f.kind, f.kind, from, land, occ, B::bit(over), route, d);
                        } else {
                            let route = if j.far { 1 | (leg as u64) << 4 } else { 0 };
                            self.push_jump(out, fi, f.kind, None, from, land, route);
                        }
                    }
                }
                if let Some(ctx) = ctx
                    && ctx.constrained
                {
                    // `position::keep_from` written out: through the helper, draughts' effect
                    // moves were laid out worse (+0.75% instructions at perft 8).
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

    /// The moves of a jump that goes on at will (`again at will`) from each of `pieces`: every
    /// square reached by one jump after another, none twice (nor the start), is a move.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn chain_jumps(&self, out: &mut Vec<Move>, fi: usize, f: &CForm<B>, j: crate::compile::JumpRule, pieces: B, own: B, enemy: B, occ: B) {
        let Gen::Jump { entries, .. } = &f.how else { return };
        let any = occ & !self.walls;
        for from in pieces.iter() {
            let lifted = occ & !B::bit(from);
            let over_ok = over_ok(j, from, own, enemy, any);
            let mut seen = B::bit(from);
            let mut frontier = B::bit(from);
            while !frontier.is_empty() {
                let mut next = B::EMPTY;
                for at in frontier.iter() {
                    for &(over, land, _) in &entries[at] {
                        let (over, land) = (over as usize, land as usize);
                        if over_ok.has(over) && !lifted.has(land) && f.within.has(land) && !seen.has(land) {
                            seen |= B::bit(land);
                            next |= B::bit(land);
                            self.push_jump(out, fi, f.kind, None, from, land, 0);
                        }
                    }
                }
                frontier = next;
            }
        }
    }

    /// Emits a jump landing on `to`: as the kind it became on the way (`became`), or with one move
    /// per promotion choice where the piece promotes there.
    #[allow(clippy::too_many_arguments)]
    fn push_jump(&self, out: &mut Vec<Move>, fi: usize, kind: KindId, became: Option<KindId>, from: usize, to: usize, route: u64) {
        let m = Move {
            from: from as u16,
            to: to as u16,
            kind: MoveKind::Form(fi as u8),
            promo: 0,
            route,
        };
        if let Some(k) = became {
            out.push(Move { promo: k.0 + 1, ..m });
            return;
        }
        super::position::emit_set::<B, false>(out, m, B::bit(to), self.t.promotion[self.stm.index()][kind.0 as usize].as_ref());
    }

    /// The capturing legs of clause `g` (jump rule `j`) from `at`, over a piece of `over_ok`, with
    /// `occ` the pieces standing (the mover lifted; pieces jumped earlier still there, unless
    /// captured at once): (square jumped, landing square, leg as the route keeps it, ray
    /// direction). `prev` is the direction of the leg before, where a leg may not turn back.
    fn jump_legs(&self, g: &CForm<B>, j: crate::compile::JumpRule, at: usize, occ: B, over_ok: B, prev: Option<u8>) -> Legs {
        let t = &*self.t;
        let Gen::Jump { entries, dirs, .. } = &g.how else {
            return Legs::new();
        };
        let back = |d: u8| j.no_reverse && prev.is_some_and(|p| t.reverse.get(p as usize) == Some(&d));
        let leg_of = |d: u8, dist: u32| -> u32 {
            let i = t.legs.iter().position(|&l| l == d).unwrap_or(0) as u32;
            i | (dist - 1) << t.dir_bits
        };
        let mut out = Legs::new();
        if !j.far {
            for &(over, land, leg) in &entries[at] {
                let d = t.legs[leg as usize];
                let (over, land) = (over as usize, land as usize);
                if over_ok.has(over) && !occ.has(land) && g.within.has(land) && !back(d) {
                    out.push((over, land, leg as u32, d));
                }
            }
            return out;
        }
        let most = (1u32 << t.dist_bits).max(1);
        for &d in dirs {
            if back(d) {
                continue;
            }
            let next = &t.next[d as usize];
            let mut x = next[at];
            while x != NO_SQ && !occ.has(x as usize) {
                x = next[x as usize];
            }
            if x == NO_SQ || !over_ok.has(x as usize) {
                continue;
            }
            let mut y = next[x as usize];
            let mut dist = 1;
            while y != NO_SQ && !occ.has(y as usize) && dist <= most {
                if g.within.has(y as usize) {
                    out.push((x as usize, y as usize, leg_of(d, dist), d));
                }
                y = next[y as usize];
                dist += 1;
            }
        }
        out
    }

    /// After a capturing leg in direction `prev` landing on `at` (with `dead` the pieces jumped so
    /// far — still standing until the move ends, unless captured at once —, and `occ` the board
    /// without the moving piece), jumps again while the piece can, as the kind it is now (`kind`,
    /// which promoting at once may have changed from `first`); emits the move where it cannot (or
    /// where it promotes and that ends the move, or where the route is full). Of the squares a leg
    /// over a distance may land on, only those from which the capture goes on are taken, if any.
    #[allow(clippy::too_many_arguments)]
    fn continue_jump(
        &self,
        out: &mut Vec<Move>,
        fi: usize,
        first: KindId,
        kind: KindId,
        from: usize,
        at: usize,
        occ: B,
        dead: B,
        route: u64,
        prev: u8,
    ) {
        let t = &*self.t;
        let us = self.stm;
        let legs = (route & 15) as u32;
        let promo = t.promotion[us.index()][kind.0 as usize].as_ref();
        let promoting = promo.is_some_and(|p| p.split(from, B::bit(at)).0.any());
        // Promoting at once: the capture goes on as the new kind (one branch per choice).
        if promoting && t.promotion_at_once.get(kind.0 as usize).copied().unwrap_or(false) {
            let choices = promo.map(|p| p.choices.clone()).unwrap_or_default();
            for c in choices {
                self.continue_jump(out, fi, first, c, from, at, occ, dead, route, prev);
            }
            return;
        }
        let ends_here = promoting && self.promotion_ends_move(kind);
        let full = legs >= max_legs(t.leg_bits, t.route_bits);
        let mut went_on = false;
        if !ends_here && !full {
            let mut go_on = |over: usize, land: usize, leg: u32, d: u8, at_once: bool| {
                went_on = true;
                let next = (route & !15) | (leg as u64) << (4 + legs * t.leg_bits) | (legs as u64 + 1);
                let occ = if at_once { occ & !B::bit(over) } else { occ };
                self.continue_jump(out, fi, first, kind, from, land, occ, dead | B::bit(over), next, d);
            };
            // The direction straight back, where a leg may not turn back.
            let back = t.reverse.get(prev as usize).copied().unwrap_or(u8::MAX);
            for g in t.forms[us.index()].iter().filter(|g| g.kind == kind) {
                let (Gen::Jump { entries, .. }, Some(j)) = (&g.how, g.jump) else {
                    continue;
                };
                if !j.continuing || !j.capturing {
                    continue;
                }
                let over_ok = self.jumpable(j, from, occ, dead);
                if !j.far {
                    // Over an adjacent piece: straight from the table, nothing collected.
                    for &(over, land, leg) in &entries[at] {
                        let (over, land) = (over as usize, land as usize);
                        if over_ok.has(over) && !occ.has(land) && g.within.has(land) && !(j.no_reverse && t.legs[leg as usize] == back) {
                            let d = t.legs[leg as usize];
                            go_on(over, land, leg as u32, d, j.at_once);
                        }
                    }
                    continue;
                }
                let found = self.jump_legs(g, j, at, occ, over_ok, Some(prev));
                for (over, land, leg, d) in self.landings_going_on(kind, from, j, found, occ, dead) {
                    go_on(over, land, leg, d, j.at_once);
                }
            }
        }
        if !went_on {
            let became = (kind != first).then_some(kind);
            self.push_jump(out, fi, first, became, from, at, route);
        }
    }

    /// The pieces a continuing capture (jump rule `j`, the mover from `from`) may jump next,
    /// with `occ` the pieces standing and `dead` those jumped so far.
    #[inline]
    fn jumpable(&self, j: crate::compile::JumpRule, from: usize, occ: B, dead: B) -> B {
        let us = self.stm;
        let standing = if j.at_once { occ } else { occ & !dead };
        match j.over {
            // Every other side's (what stands, less the mover's side and the neutral pieces: the
            // checker refuses capturing chains among partners).
            Over::Enemy => occ & !self.side_bb[us.index()] & !self.walls & standing & !dead,
            Over::Own => self.side_bb[us.index()] & !B::bit(from) & !dead,
            Over::Any => standing & !dead & !self.walls,
        }
    }

    /// Of the legs over a distance beyond one piece, those landing where the capture can go on, if
    /// any land so (a capture must go on while it can, so the landing is chosen for it); the other
    /// legs as they are.
    fn landings_going_on(&self, kind: KindId, from: usize, j: crate::compile::JumpRule, legs: Legs, occ: B, dead: B) -> Legs {
        if !j.far || !j.continuing {
            return legs;
        }
        let mut out = Legs::new();
        let mut i = 0;
        while i < legs.len() {
            let (over, d) = (legs[i].0, legs[i].3);
            let group: Legs = legs[i..].iter().take_while(|l| l.0 == over && l.3 == d).cloned().collect();
            i += group.len();
            let on: SmallVec<[bool; 16]> = group
                .iter()
                .map(|&(o, l, _, d)| {
                    let occ2 = if j.at_once { occ & !B::bit(o) } else { occ };
                    self.next_legs_exist(kind, from, l, occ2, dead | B::bit(o), d)
                })
                .collect();
            let any_on = on.contains(&true);
            out.extend(group.into_iter().zip(on).filter(|(_, c)| *c || !any_on).map(|(g, _)| g));
        }
        out
    }

    /// Can a piece of `kind` landed on `at` (after a leg in direction `prev`) capture again?
    fn next_legs_exist(&self, kind: KindId, from: usize, at: usize, occ: B, dead: B, prev: u8) -> bool {
        let t = &*self.t;
        let promo = t.promotion[self.stm.index()][kind.0 as usize].as_ref();
        let promoting = promo.is_some_and(|p| p.split(from, B::bit(at)).0.any());
        if promoting && self.promotion_ends_move(kind) {
            return false;
        }
        let kinds: SmallVec<[KindId; 4]> = if promoting && t.promotion_at_once.get(kind.0 as usize).copied().unwrap_or(false) {
            promo.map(|p| p.choices.iter().copied().collect()).unwrap_or_default()
        } else {
            smallvec::smallvec![kind]
        };
        kinds.into_iter().any(|k| {
            t.forms[self.stm.index()].iter().filter(|g| g.kind == k).any(|g| {
                let (Gen::Jump { .. }, Some(j)) = (&g.how, g.jump) else {
                    return false;
                };
                if !j.continuing || !j.capturing {
                    return false;
                }
                let over_ok = self.jumpable(j, from, occ, dead);
                !self.jump_legs(g, j, at, occ, over_ok, Some(prev)).is_empty()
            })
        })
    }

    /// Does promoting this kind end a continuing move?
    fn promotion_ends_move(&self, kind: KindId) -> bool {
        self.t.promotion_ends.get(kind.0 as usize).copied().unwrap_or(false)
    }

    /// What generation adds in games on the general path, after the clauses' moves: the swap and
    /// the obligation to capture. Returns the new count.
    #[inline(never)]
    pub(super) fn general_tail<const COUNT: bool>(&self, out: &mut Vec<Move>, mut n: u64) -> u64 {
        if self.t.bears_off {
            n += self.bear_off_moves::<COUNT>(out);
        }
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

    /// The pieces the roll takes exactly one past the end of their track (none before the roll):
    /// apart from [`Pos::general_tail`], which the games without them keep small.
    #[inline(never)]
    fn bear_off_moves<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        let Some(r) = (self.roll as usize).checked_sub(1) else { return 0 };
        let us = self.stm;
        let mut n = 0;
        for (fi, f) in self.t.forms[us.index()].iter().enumerate() {
            let Some(off) = &f.bear_off else { continue };
            if self.t.gated && !self.clause_applies(f) {
                continue;
            }
            for from in (self.pieces(us, f.kind) & f.from & off[r]).iter() {
                n += 1;
                if !COUNT {
                    out.push(Move {
                        from: from as u16,
                        to: from as u16,
                        kind: MoveKind::BearOff(fi as u8),
                        promo: 0,
                        route: 0,
                    });
                }
            }
        }
        n
    }

    /// The square a drop `along TRACK by roll` enters on with the roll made (none before it).
    #[inline(never)]
    fn entered_by_roll(&self, f: &CForm<B>) -> B {
        match (&f.by_roll, (self.roll as usize).checked_sub(1)) {
            (Some(by_roll), Some(r)) => by_roll[r],
            _ => B::EMPTY,
        }
    }

    /// Does `m` change squares other than its own (so that only making it tells its legality)?
    pub(super) fn has_effects(&self, m: Move) -> bool {
        match m.kind {
            MoveKind::Form(fi) | MoveKind::Place(fi) => self.t.forms[self.stm.index()][fi as usize].effects,
            MoveKind::Swap => true,
            MoveKind::Drop(_) | MoveKind::Castle(_) | MoveKind::Pass | MoveKind::Roll(_) | MoveKind::BearOff(_) => false,
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

    /// Does `m` capture at all? As [`Pos::captures_of`] `> 0`, answered early where the clause
    /// tells: a capturing jump always does, a plain move only on an enemy piece.
    #[inline]
    fn captures_any(&self, m: Move, forms: &[CForm<B>], enemy: B) -> bool {
        if let MoveKind::Form(fi) = m.kind {
            let f = &forms[fi as usize];
            if f.jump.is_some_and(|j| j.capturing) || f.target == Target::EnPassant || enemy.has(m.to as usize) {
                return true;
            }
            if f.enclose.is_none() && f.neighbours.is_none() {
                return false;
            }
        }
        self.captures_of(m) > 0
    }

    /// How many pieces `m` captures (on its square, en passant, jumped over, or enclosed).
    pub fn captures_of(&self, m: Move) -> u32 {
        let us = self.stm;
        match m.kind {
            MoveKind::Form(fi) => {
                let f = &self.t.forms[us.index()][fi as usize];
                let enemy = self.enemies(us);
                let mut n = 0;
                let to = m.to as usize;
                if f.target == Target::EnPassant || enemy.has(to) {
                    n += 1;
                }
                if let Some(j) = f.jump
                    && j.capturing
                {
                    // One piece a leg (a move of one leg keeps no route).
                    n += m.legs().max(1);
                }
                if let Some((Enclose::Capture, _)) = &f.enclose {
                    let own = (self.side_bb[us.index()] & !B::bit(m.from as usize)) | B::bit(to);
                    n += self.enclosed_of(f, to, own, enemy & !B::bit(to)).count();
                    n += self.surrounded(to, own, enemy & !B::bit(to)).count();
                }
                if f.neighbours == Some(Enclose::Capture) {
                    n += (self.t.around[to] & enemy & !B::bit(to)).count();
                }
                n
            }
            MoveKind::Place(fi) | MoveKind::Drop(fi) => {
                let f = &self.t.forms[us.index()][fi as usize];
                let enemy = self.enemies(us);
                let mut n = match &f.enclose {
                    Some((Enclose::Capture, _)) => {
                        let own = self.side_bb[us.index()] | B::bit(m.to as usize);
                        self.enclosed_of(f, m.to as usize, own, enemy).count() + self.surrounded(m.to as usize, own, enemy).count()
                    }
                    _ => 0,
                };
                if f.neighbours == Some(Enclose::Capture) {
                    n += (self.t.around[m.to as usize] & enemy).count();
                }
                n
            }
            MoveKind::Castle(_) | MoveKind::Pass | MoveKind::Swap | MoveKind::Roll(_) | MoveKind::BearOff(_) => 0,
        }
    }

    /// `must capture`: when some moves capture, only they stay (only those capturing the most,
    /// under `must capture the most`).
    pub(super) fn keep_obligatory(&self, out: &mut Vec<Move>) {
        let Some(most) = self.t.must_capture else { return };
        if !most {
            // What the test reads, once for the whole list: the mover's forms and every enemy piece.
            let forms = &self.t.forms[self.stm.index()][..];
            let enemy = self.enemies(self.stm);
            if out.iter().any(|&m| self.captures_any(m, forms, enemy)) {
                out.retain(|&m| self.captures_any(m, forms, enemy));
            }
            return;
        }
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

    /// The full test where captures explode, worked out without making the move: what a capture
    /// blows up (the captor, the captured piece, every piece around its square but the kinds
    /// spared), then the same verdict as [`Pos::legal_by_making`] — no own royal blown up, every
    /// enemy royal blown up wins, else no own royal [`Pos::threatened`] on the board left.
    /// `None` where the move is not a plain move of one piece (castling, a drop, later parts,
    /// other effects, a promotion to a royal, royals that may not face): those are made.
    pub(super) fn legal_exploding(&self, m: Move) -> Option<bool> {
        let t = &*self.t;
        let (blast, spare) = t.explosion.as_ref()?;
        let MoveKind::Form(fi) = m.kind else { return None };
        let us = self.stm;
        let them = us.other();
        let f = t.forms[us.index()].get(fi as usize)?;
        if !t.royal_safety || !t.facing.is_empty() || m.route >> 32 != 0 || f.effects || f.clone {
            return None;
        }
        if m.promo != 0 && t.royal_kinds.contains(&KindId(m.promo - 1)) {
            return None;
        }
        let (from, to) = (m.from as usize, m.to as usize);
        let occ = self.occ();
        let victim = if f.target == Target::EnPassant {
            Some(self.ep_victim as usize)
        } else {
            self.side_bb[them.index()].has(to).then_some(to)
        };
        let mut own_royals = self.royals(us);
        let mut their_royals = self.royals(them);
        let (occ, gone) = match victim {
            None => {
                if own_royals.has(from) {
                    own_royals = (own_royals & !B::bit(from)) | B::bit(to);
                }
                ((occ & !B::bit(from)) | B::bit(to), B::EMPTY)
            }
            Some(v) => {
                let mut spared = B::EMPTY;
                for k in (0..MAX_KINDS).filter(|k| spare >> k & 1 == 1) {
                    spared |= self.kind_bb[k];
                }
                let around = blast[to] & (self.side_bb[0] | self.side_bb[1]) & !B::bit(from) & !B::bit(v);
                let blown = (around & !spared) | B::bit(from) | B::bit(v);
                let before = (own_royals.count(), their_royals.any());
                own_royals &= !blown;
                their_royals &= !blown;
                if own_royals.count() < before.0 {
                    return Some(false);
                }
                if before.1 && their_royals.is_empty() {
                    return Some(true);
                }
                (occ & !blown, blown)
            }
        };
        Some(
            !own_royals
                .iter()
                .any(|r| (blast[r] & their_royals).is_empty() && self.attacked(r, them, occ, gone | their_royals)),
        )
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
            .any(|r| (self.t.royal_safety && self.in_danger(r, side, occ)) || self.faces(r, side, occ, B::EMPTY))
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

/// The pieces a jump of rule `j` from `from` may pass over: the enemy's, the mover's own (not
/// itself), or any.
#[inline(always)]
fn over_ok<B: Bits>(j: crate::compile::JumpRule, from: usize, own: B, enemy: B, pieces: B) -> B {
    match j.over {
        Over::Enemy => enemy,
        Over::Own => own & !B::bit(from),
        // Every side's piece, partners' too (`pieces`: the occupied squares less the neutral ones).
        Over::Any => pieces & !B::bit(from),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, Inner, Move, Position};
    use super::{Bits, Pos};
    use crate::model::Side;
    use rand::Rng;
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    fn engine(name: &str) -> Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid"))
    }

    /// How many of `moves` the set-wise explosion verdict decides, each checked against making it.
    fn agree<B: Bits>(p: &Pos<B>, moves: &[Move], fen: &str) -> usize {
        let mut decided = 0;
        for &m in moves {
            if let Some(legal) = p.legal_exploding(m) {
                decided += 1;
                assert_eq!(legal, p.legal_by_making(m), "{m:?} in {fen}");
            }
        }
        decided
    }

    /// Where captures explode, the verdict worked out as sets is the verdict of making the move,
    /// for every pseudo-legal move along seeded random atomic games (checks, blasts next to
    /// royals, kings side by side, en passant and promotions come up in them).
    #[test]
    fn explosions_ruled_as_sets_agree_with_making_the_move() {
        let e = engine("atomic");
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let mut decided = 0;
        for _ in 0..60 {
            let mut pos: Position = e.start();
            for _ in 0..150 {
                let moves = pos.legal_moves();
                let kings_stand = [Side::FIRST, Side::SECOND].iter().all(|&s| !pos.royal_squares(s).is_empty());
                if moves.is_empty() || !kings_stand {
                    break;
                }
                let pseudo = pos.pseudo_moves();
                let fen = pos.fen();
                decided += match &pos.inner {
                    Inner::Small(p) => agree(p, &pseudo, &fen),
                    Inner::Medium(p) => agree(p, &pseudo, &fen),
                    Inner::Large(p) => agree(p, &pseudo, &fen),
                    Inner::Huge(p) => agree(p, &pseudo, &fen),
                };
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(decided > 20_000, "only {decided} moves were decided as sets");
    }
}
