//! Turns of several parts: the move of a piece, then each later part of the ruleset's `turn` (a
//! piece placed — a neutral one moved —, an enemy piece removed, a piece dropped onto a square the
//! move left), each a choice the mover makes. A whole turn is one [`Move`]: its later parts are
//! slots in the move's route (see [`Move::part`]), so generation, perft, notation and undo treat it
//! as one move. Neutral pieces (a duck, a hole) stand on [`Pos::walls`]: they block every line and
//! are never captured.
//!
//! Generation makes each turn so far and looks: a later part's choices depend on the position
//! the earlier parts leave — except where the move is a plain move of one piece and the part has
//! no condition: then the squares it leaves and takes say what is empty after it, and a place or
//! gating part's choices are read from the position before (counted as a set at perft's last
//! ply). A ruleset whose turns have one part never comes here.

use super::bits::Bits;
use super::position::{NO_SQ, Pos, cell, cell_kind, cell_side};
use super::{MAX_PARTS, Move, MoveKind, part_slot, slot_parts};
use crate::compile::{CPart, CPartCond};
use crate::model::*;

/// What `unmake` needs to take a turn's later parts back, one entry per part slot: the square a
/// moved neutral piece came from (`NO_SQ`: it was not on the board), or the cell a removal took
/// (with bit 8 set where the piece had promoted).
pub(super) type PartsUndo = [u16; MAX_PARTS];

impl<B: Bits> Pos<B> {
    // ------------------------------------------------------------------ neutral pieces

    /// Puts a neutral piece of `kind` on `sq`.
    pub(crate) fn put_neutral(&mut self, sq: usize, kind: KindId) {
        self.walls.set(sq);
        self.kind_bb[kind.0 as usize].set(sq);
        self.hash ^= self.t.z_piece.key(cell(kind, Side::FIRST), sq);
    }

    /// Takes the neutral piece of `kind` off `sq`.
    pub(crate) fn remove_neutral(&mut self, sq: usize, kind: KindId) {
        self.walls.toggle(sq);
        self.kind_bb[kind.0 as usize].toggle(sq);
        self.hash ^= self.t.z_piece.key(cell(kind, Side::FIRST), sq);
    }

    /// The neutral piece on `sq`, if there is one.
    pub fn neutral_at(&self, sq: usize) -> Option<KindId> {
        if !self.walls.has(sq) {
            return None;
        }
        (0..self.kind_bb.len()).find(|&k| self.kind_bb[k].has(sq)).map(|k| KindId(k as u8))
    }

    // ------------------------------------------------------------------ generation

    /// The legal turns (or their number, when `COUNT`): each legal first part with every choice of
    /// the later parts. A turn's move must be legal by itself (a piece placed or dropped later
    /// never shields a royal, as Fairy-Stockfish judges gating); where a part moves a neutral
    /// piece, which may open a line to a royal, each whole turn is also made and tested.
    pub(super) fn generate_turns<const COUNT: bool>(&self, out: &mut Vec<Move>) -> u64 {
        // The first parts are listed where the turns go, and taken away once the turns follow them.
        let start = out.len();
        self.generate_plain::<false>(out);
        let end = out.len();
        let mut scratch = None;
        let mut n = 0;
        if COUNT && let Some(gate) = self.gate_count() {
            // A single gating part, counted as a set: every first part once when the gate is
            // optional, and once more per kind in hand for each plain move off a gating square.
            for i in start..end {
                let m = out[i];
                n += match gate.count(self, m) {
                    Some(k) => k,
                    None => self.extend_turn::<COUNT>(&mut scratch, out, m, 0),
                };
            }
            out.truncate(start);
            return n;
        }
        for i in start..end {
            let m = out[i];
            n += self.extend_turn::<COUNT>(&mut scratch, out, m, 0);
        }
        out.drain(start..end);
        n
    }

    /// Where a turn's only later part is a gating drop with no condition and perft counts the last
    /// ply, what counting needs of this position: the squares a move may gate from, how many kinds
    /// the hand holds, and whether the gate is optional. `None` where the turns must be followed one
    /// by one.
    fn gate_count(&self) -> Option<GateCount<B>> {
        let t = &*self.t;
        if t.parts.len() != 1 || t.turn_decides_legality || t.hand || t.explosion.is_some() {
            return None;
        }
        let part = &t.parts[0];
        let PartAction::Gate { unmoved, .. } = &part.action else {
            return None;
        };
        if part.condition.is_some() {
            return None;
        }
        let s = self.stm.index();
        let kinds = part
            .choices
            .iter()
            .filter(|&&c| t.part_choices[c as usize].1.is_some_and(|k| self.hands[s][k.0 as usize] > 0))
            .count() as u64;
        let from = if *unmoved { part.within[s] & self.virgin } else { part.within[s] };
        Some(GateCount {
            from,
            kinds,
            optional: part.optional as u64,
        })
    }

    /// A copy of this position to make turns on, made the first time a turn must be made.
    fn scratch<'a>(&self, scratch: &'a mut Option<Pos<B>>) -> &'a mut Pos<B> {
        scratch.get_or_insert_with(|| {
            let mut copy = self.clone();
            copy.forget_undo();
            copy
        })
    }

    /// Emits (or counts) the turns that begin with `m` (its slots before `next` filled), choosing
    /// each part from `next` on. `self` is the position the turn starts from; `scratch` a copy of
    /// it (made when first needed) to make the turn so far on where a part's choices need that.
    fn extend_turn<const COUNT: bool>(&self, scratch: &mut Option<Pos<B>>, out: &mut Vec<Move>, m: Move, next: usize) -> u64 {
        let t = &*self.t;
        if m.kind == MoveKind::Pass || m.kind == MoveKind::Swap || next == t.parts.len() {
            return self.emit_turn::<COUNT>(scratch, out, m);
        }
        let part = &t.parts[next];
        let slot_index = (0..MAX_PARTS).find(|&i| m.part(i) == 0).unwrap_or(MAX_PARTS);
        if slot_index < MAX_PARTS
            && let Some(sets) = self.choices_unmade(part, m)
        {
            let mut n = 0;
            if part.optional {
                n += self.extend_turn::<COUNT>(scratch, out, m, next + 1);
            }
            if COUNT && next + 1 == t.parts.len() && !t.turn_decides_legality {
                return n + sets.iter().map(|(_, squares)| squares.count() as u64).sum::<u64>();
            }
            for (choice, squares) in sets {
                for sq in squares.iter() {
                    n += self.extend_turn::<COUNT>(scratch, out, m.with_part(slot_index, part_slot(choice, sq)), next + 1);
                }
            }
            return n;
        }
        let (applies, choices) = {
            let after = self.scratch(scratch);
            let u = after.make(m);
            let mover = after.stm.other();
            let applies = part.condition.as_ref().is_none_or(|c| after.part_condition(c, mover, m));
            let choices = if applies && slot_index < MAX_PARTS {
                after.part_choices(self, part, mover, m)
            } else {
                Vec::new()
            };
            after.unmake(m, &u);
            (applies, choices)
        };
        let mut n = 0;
        if !applies || part.optional {
            n += self.extend_turn::<COUNT>(scratch, out, m, next + 1);
        }
        if COUNT && next + 1 == t.parts.len() && !t.turn_decides_legality {
            return n + choices.len() as u64;
        }
        for (choice, sq) in choices {
            n += self.extend_turn::<COUNT>(scratch, out, m.with_part(slot_index, part_slot(choice, sq)), next + 1);
        }
        n
    }

    /// Emits one whole turn, if it is legal (where parts decide legality, by making it).
    fn emit_turn<const COUNT: bool>(&self, scratch: &mut Option<Pos<B>>, out: &mut Vec<Move>, m: Move) -> u64 {
        if self.t.turn_decides_legality {
            let after = self.scratch(scratch);
            let us = after.stm;
            let u = after.make(m);
            let exposed = after.side_exposed(us);
            after.unmake(m, &u);
            if exposed {
                return 0;
            }
        }
        if !COUNT {
            out.push(m);
        }
        1
    }

    /// A part's choices after `m` (the turn so far: its move alone, not made; `self` is the position
    /// before it), where that position tells them: a place or gating part with no condition after
    /// a plain move of one piece — no effects, no en passant, no explosion, no copy left, no capture
    /// into a hand —, after which the squares empty are those empty before, with the square left
    /// and without the square taken. Per choice (an index into `part_choices`), its squares, in the
    /// order [`Pos::part_choices`] gives them; `None` where the move must be made to know.
    fn choices_unmade(&self, part: &CPart<B>, m: Move) -> Option<smallvec::SmallVec<[(usize, B); 4]>> {
        let t = &*self.t;
        if part.condition.is_some() || t.hand || t.explosion.is_some() || !self.moves_plainly(m) {
            return None;
        }
        let s = self.stm.index();
        let (from, to) = (m.from as usize, m.to as usize);
        let occ = (self.occ() & !B::bit(from)) | B::bit(to);
        let empty = !occ & t.board_mask;
        let mut sets = smallvec::SmallVec::new();
        match &part.action {
            PartAction::Place { .. } => {
                let mut squares = empty & part.within[s];
                if !part.along[s].is_empty() {
                    let mut reach = B::EMPTY;
                    for &d in &part.along[s] {
                        reach |= t.ray_attacks(d as usize, to, occ);
                    }
                    squares &= reach;
                }
                sets.push((part.choices[0] as usize, squares));
            }
            PartAction::Gate { unmoved, .. } => {
                if part.within[s].has(from) && (!*unmoved || self.virgin.has(from)) {
                    for &c in &part.choices {
                        let (_, kind) = t.part_choices[c as usize];
                        if kind.is_some_and(|k| self.hands[s][k.0 as usize] > 0) {
                            sets.push((c as usize, B::bit(from)));
                        }
                    }
                }
            }
            PartAction::Remove { .. } => return None,
        }
        Some(sets)
    }

    /// Is `m` a move of one piece that leaves its square empty and changes nothing but the square it
    /// takes (no effects, no copy left, not en passant)? Ruleset-wide conditions (hands, explosions)
    /// are the caller's.
    #[inline]
    fn moves_plainly(&self, m: Move) -> bool {
        let MoveKind::Form(fi) = m.kind else { return false };
        self.t.forms[self.stm.index()]
            .get(fi as usize)
            .is_some_and(|f| !f.effects && !f.clone && f.target != Target::EnPassant && m.from != m.to)
    }

    /// Does a later part's condition hold after the turn so far (`m`, made: `self` is after it)?
    fn part_condition(&self, c: &CPartCond, mover: Side, m: Move) -> bool {
        match c {
            CPartCond::Captured => self.last_captured != 0,
            CPartCond::MadeRow { n, dirs } => {
                let at = m.to as usize;
                let own = self.side_bb[mover.index()];
                own.has(at) && dirs[mover.index()].iter().any(|&(d, r)| self.run_through(at, own, d, r) >= *n)
            }
        }
    }

    /// The length of the run of `own` pieces through `at` along ray `d` and its reverse `r`.
    pub(super) fn run_through(&self, at: usize, own: B, d: u8, r: u8) -> u32 {
        let t = &*self.t;
        let mut len = 1;
        for dir in [d, r] {
            let next = &t.next[dir as usize];
            let mut sq = next[at];
            while sq != NO_SQ && own.has(sq as usize) {
                len += 1;
                sq = next[sq as usize];
            }
        }
        len
    }

    /// A part's choices after the turn so far (`self` is after it; `before` the position the turn
    /// started from): (index into `part_choices`, square).
    fn part_choices(&self, before: &Pos<B>, part: &CPart<B>, mover: Side, m: Move) -> Vec<(usize, usize)> {
        let t = &*self.t;
        let s = mover.index();
        let empty = !self.occ() & t.board_mask;
        let mut out = Vec::new();
        match &part.action {
            PartAction::Place { .. } => {
                let mut squares = empty & part.within[s];
                if !part.along[s].is_empty() {
                    let occ = self.occ();
                    let mut reach = B::EMPTY;
                    for &d in &part.along[s] {
                        reach |= t.ray_attacks(d as usize, m.to as usize, occ);
                    }
                    squares &= reach;
                }
                let choice = part.choices[0] as usize;
                out.extend(squares.iter().map(|sq| (choice, sq)));
            }
            PartAction::Remove { .. } => {
                let enemy = self.enemies(mover);
                let mut squares = enemy & part.within[s];
                if let Some((n, dirs)) = &part.row_safe {
                    let safe = |sq: usize| dirs[1 - s].iter().any(|&(d, r)| self.run_through(sq, enemy, d, r) >= *n);
                    let open: Vec<usize> = squares.iter().filter(|&sq| !safe(sq)).collect();
                    if !open.is_empty() {
                        squares = open.iter().fold(B::EMPTY, |b, &sq| b | B::bit(sq));
                    }
                }
                let choice = part.choices[0] as usize;
                out.extend(squares.iter().map(|sq| (choice, sq)));
            }
            PartAction::Gate { unmoved, .. } => {
                // The squares the move left empty: where the piece stood, and a castling partner's.
                let mut left = Vec::new();
                if let MoveKind::Form(_) | MoveKind::Castle(_) = m.kind {
                    left.push(m.from as usize);
                }
                if let MoveKind::Castle(ci) = m.kind {
                    let c = &t.castles[s][ci as usize];
                    let dir = if m.to > m.from { c.dirs[0] } else { c.dirs[1] } as usize;
                    if let Some(p) = before.castle_partner(c, dir, m.from as usize) {
                        left.push(p);
                    }
                }
                for sq in left {
                    if !empty.has(sq) || !part.within[s].has(sq) || (*unmoved && !before.virgin.has(sq)) {
                        continue;
                    }
                    for &c in &part.choices {
                        let (_, kind) = t.part_choices[c as usize];
                        if kind.is_some_and(|k| self.hands[s][k.0 as usize] > 0) {
                            out.push((c as usize, sq));
                        }
                    }
                }
            }
        }
        out
    }

    // ------------------------------------------------------------------ make / unmake

    /// Carries out the later parts of `m` after its first part (the side to move is still the
    /// mover). Returns how many pieces they captured.
    pub(super) fn make_parts(&mut self, m: Move, undo: &mut PartsUndo) -> u32 {
        let us = self.stm;
        let mut captured = 0;
        for (i, slot) in undo.iter_mut().enumerate() {
            *slot = NO_SQ;
            let Some((choice, sq)) = slot_parts(m.part(i)) else { continue };
            let (pi, kind) = self.t.part_choices[choice];
            match self.t.parts[pi as usize].action {
                PartAction::Place { kind: k, moving } => {
                    if self.t.kinds_neutral[k.0 as usize] {
                        if moving && let Some(old) = (self.kind_bb[k.0 as usize] & self.walls).iter().next() {
                            self.remove_neutral(old, k);
                            *slot = old as u16;
                        }
                        self.put_neutral(sq, k);
                    } else {
                        self.put(sq, k, us);
                    }
                }
                PartAction::Remove { .. } => {
                    let c = self.remove(sq);
                    let promoted = self.promoted.has(sq);
                    *slot = c as u16 | (promoted as u16) << 8;
                    self.last_captured |= 1 << cell_kind(c).0;
                    if self.t.hand {
                        self.hand_gain(us, c, sq, self.promoted);
                    }
                    self.promoted &= !B::bit(sq);
                    captured += 1;
                }
                PartAction::Gate { .. } => {
                    let k = kind.expect("a drop's choice names its kind");
                    self.hand_take(us, k);
                    self.put(sq, k, us);
                }
            }
        }
        captured
    }

    /// Takes back the later parts of `m` (the side to move is the mover again).
    pub(super) fn unmake_parts(&mut self, m: Move, undo: &PartsUndo) {
        let us = self.stm;
        for i in (0..MAX_PARTS).rev() {
            let Some((choice, sq)) = slot_parts(m.part(i)) else { continue };
            let (pi, kind) = self.t.part_choices[choice];
            match self.t.parts[pi as usize].action {
                PartAction::Place { kind: k, .. } => {
                    if self.t.kinds_neutral[k.0 as usize] {
                        self.remove_neutral(sq, k);
                        if undo[i] != NO_SQ {
                            self.put_neutral(undo[i] as usize, k);
                        }
                    } else {
                        self.remove(sq);
                    }
                }
                PartAction::Remove { .. } => {
                    let c = (undo[i] & 0xFF) as u8;
                    self.place(sq, c);
                    if undo[i] >> 8 & 1 == 1 {
                        self.promoted |= B::bit(sq);
                    }
                    if self.t.hand {
                        // What the captor's hand gained is what the piece returns as.
                        let promoted = if undo[i] >> 8 & 1 == 1 { B::bit(sq) } else { B::EMPTY };
                        self.hand_lose(us, c, sq, promoted);
                    }
                    debug_assert_eq!(cell_side(c), us.other());
                }
                PartAction::Gate { .. } => {
                    let k = kind.expect("a drop's choice names its kind");
                    self.remove(sq);
                    self.hand_put_back(us, k);
                }
            }
        }
    }
}

/// What counting a position's gating turns as a set needs (see [`Pos::gate_count`]).
struct GateCount<B> {
    /// The squares a piece may gate from as it leaves them.
    from: B,
    /// How many kinds of the gate's choices are in the mover's hand.
    kinds: u64,
    /// 1 where the gate may be left out.
    optional: u64,
}

impl<B: Bits> GateCount<B> {
    /// The number of turns beginning with the legal first part `m`, where the position before tells
    /// it (a plain move of one piece, as [`Pos::choices_unmade`] takes); `None` otherwise.
    #[inline]
    fn count(&self, pos: &Pos<B>, m: Move) -> Option<u64> {
        let MoveKind::Form(_) = m.kind else {
            return matches!(m.kind, MoveKind::Pass | MoveKind::Swap).then_some(1);
        };
        if !self.from.has(m.from as usize) {
            return Some(self.optional);
        }
        pos.moves_plainly(m).then_some(self.optional + self.kinds)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, MoveKind, Position};
    use rand::Rng;
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    fn engine(name: &str) -> Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../rulesets/{name}.rules"));
        Engine::new(crate::check::check_file(&path, &[]).rules.expect("a bundled ruleset is valid"))
    }

    /// Gating turns counted as a set (perft's last ply) are the turns listed one by one, along
    /// seeded random Seirawan games: castling with a gate on either square, en passant, promotions,
    /// a hand of one kind or none come up in them.
    #[test]
    fn gating_turns_counted_as_a_set_are_the_turns_listed() {
        let e = engine("seirawan");
        let mut rng = ChaCha8Rng::seed_from_u64(2026);
        let (mut gates, mut castles_gating) = (0, 0);
        for _ in 0..40 {
            let mut pos: Position = e.start();
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                assert_eq!(pos.perft(1), moves.len() as u64, "{}", pos.fen());
                for &m in &moves {
                    if pos.part_of(m, 0).is_some() {
                        gates += 1;
                        castles_gating += matches!(m.kind, MoveKind::Castle(_)) as u32;
                    }
                }
                pos.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
        }
        assert!(
            gates > 1000 && castles_gating > 10,
            "too few gating turns came up: {gates}, {castles_gating} castling"
        );
    }
}
