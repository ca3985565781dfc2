//! Chains of placed pieces (go): orthogonally connected pieces of one side, with pseudo-liberty
//! counts kept incrementally (a liberty counted once per adjacent stone), plus the sum and the sum
//! of squares of those liberties, so "exactly one liberty" is `sum² = count × sum of squares` —
//! no flood fill per move. Each chain also keeps the XOR of its stones' Zobrist keys, so the hash
//! after a capture is known before the move is made (for superko).

use super::bits::Bits;
use super::position::{NO_SQ, Pos, cell, cell_kind, cell_side};
use crate::model::{KindId, RepetitionRule, Side};

/// What [`Chains::color`] holds for a point: empty, a side's piece (`1 + side`), or the border.
pub const EMPTY: u8 = 0;
pub const BORDER: u8 = 3;

/// The ruling on a placement, as far as it can be made without playing it.
pub(super) enum Verdict {
    Legal,
    Illegal(&'static str),
    /// The point is a single-point eye of the mover's own (asked for by playouts, which never fill one).
    OwnEye,
    /// No liberty and nothing captured, suicide is allowed and a repetition rule applies: only
    /// the board after the move can say.
    NoLiberty,
}

/// One point's chain data. `root` and `next` (the chain's stones as a circular list) are kept for
/// every stone; the rest only at the chain's root. An empty point's `root` is the border point
/// (whose counts stay zero), so a neighbour's chain can be read before asking what is there. Liberty counts fit: a chain has at most
/// 4 × 676 pseudo-liberties, whose indices sum to under 2³² and whose squares do too.
#[derive(Clone, Copy, Debug, Default)]
struct Point {
    root: u16,
    next: u16,
    size: u16,
    lib_cnt: u16,
    lib_sum: u32,
    lib_sq: u32,
    hash: u64,
}

/// Chain bookkeeping: one [`Point`] per square, so a chain's data is one cache line away.
#[derive(Clone, Debug, Default)]
pub struct Chains {
    /// [`EMPTY`], `1 + side`, or [`BORDER`] for the extra point at index `squares`, which every
    /// missing neighbour names.
    pub color: Vec<u8>,
    pts: Vec<Point>,
    /// The empty points, in no order, and where each sits in that list (for playouts).
    pub empty: Vec<u16>,
    empty_at: Vec<u16>,
}

impl Chains {
    pub fn new(n: usize) -> Chains {
        let mut color = vec![EMPTY; n + 1];
        color[n] = BORDER;
        Chains {
            color,
            pts: vec![
                Point {
                    root: n as u16,
                    next: n as u16,
                    ..Point::default()
                };
                n + 1
            ],
            empty: Vec::with_capacity(n),
            empty_at: vec![NO_SQ; n],
        }
    }
    /// The bytes these tables hold on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.color.capacity()
            + self.pts.capacity() * std::mem::size_of::<Point>()
            + (self.empty.capacity() + self.empty_at.capacity()) * std::mem::size_of::<u16>()
    }
    fn add_empty(&mut self, sq: usize) {
        self.empty_at[sq] = self.empty.len() as u16;
        self.empty.push(sq as u16);
    }
    fn remove_empty(&mut self, sq: usize) {
        let i = self.empty_at[sq] as usize;
        let last = *self.empty.last().expect("the point was empty");
        self.empty.swap_remove(i);
        if last as usize != sq {
            self.empty_at[last as usize] = i as u16;
        }
        self.empty_at[sq] = NO_SQ;
    }
    /// Moves the empty point at list index `i` to index `j` (and the one there to `i`).
    #[inline]
    pub fn swap_empty(&mut self, i: usize, j: usize) {
        self.empty.swap(i, j);
        self.empty_at[self.empty[i] as usize] = i as u16;
        self.empty_at[self.empty[j] as usize] = j as u16;
    }
    /// The root of the chain on `sq` (which holds a piece).
    #[inline(always)]
    pub fn root(&self, sq: usize) -> usize {
        self.pts[sq].root as usize
    }
    #[inline(always)]
    fn add_lib(&mut self, r: usize, sq: usize) {
        let p = &mut self.pts[r];
        p.lib_cnt += 1;
        p.lib_sum += sq as u32;
        p.lib_sq += (sq * sq) as u32;
    }
    #[inline(always)]
    fn remove_lib(&mut self, r: usize, sq: usize) {
        let p = &mut self.pts[r];
        p.lib_cnt -= 1;
        p.lib_sum -= sq as u32;
        p.lib_sq -= (sq * sq) as u32;
    }
    /// Does the chain rooted at `r` have exactly one liberty (counted with multiplicity or not)?
    /// All pseudo-liberties are one point exactly when `sum² = count × sum of squares`.
    #[inline(always)]
    pub fn in_atari(&self, r: usize) -> bool {
        let p = &self.pts[r];
        let c = p.lib_cnt as u64;
        c > 0 && p.lib_sum as u64 * p.lib_sum as u64 == c * p.lib_sq as u64
    }
    #[inline(always)]
    pub fn has_liberty(&self, r: usize) -> bool {
        self.pts[r].lib_cnt > 0
    }
    /// The XOR of the Zobrist keys of the chain rooted at `r`.
    #[inline(always)]
    fn hash(&self, r: usize) -> u64 {
        self.pts[r].hash
    }
    /// The squares of the chain whose root is `r`.
    pub fn stones(&self, r: usize) -> Vec<usize> {
        let mut v = vec![r];
        let mut s = self.pts[r].next as usize;
        while s != r {
            v.push(s);
            s = self.pts[s].next as usize;
        }
        v
    }
}

impl<B: Bits> Pos<B> {
    /// Builds chains from the pieces on the board (after reading a FEN).
    pub fn rebuild_chains(&mut self) {
        let n = self.t.squares;
        let mut ch = Chains::new(n);
        for sq in 0..n {
            match self.cells[sq] {
                0 => ch.add_empty(sq),
                c => ch.color[sq] = 1 + cell_side(c).0,
            }
        }
        for sq in 0..n {
            if ch.color[sq] == EMPTY || ch.root(sq) != n {
                continue;
            }
            // Flood fill once, at load time.
            let colour = ch.color[sq];
            let mut stack = vec![sq];
            let mut members = Vec::new();
            ch.pts[sq].root = sq as u16;
            while let Some(s) = stack.pop() {
                members.push(s);
                for &m in &self.t.neighbours[s] {
                    let m = m as usize;
                    if ch.color[m] == colour && ch.root(m) == n {
                        ch.pts[m].root = sq as u16;
                        stack.push(m);
                    }
                }
            }
            for (i, &s) in members.iter().enumerate() {
                ch.pts[s].next = members[(i + 1) % members.len()] as u16;
                ch.pts[sq].hash ^= self.t.z_piece[self.cells[s] as usize][s];
                for &m in &self.t.neighbours[s] {
                    if ch.color[m as usize] == EMPTY {
                        ch.add_lib(sq, m as usize);
                    }
                }
            }
            ch.pts[sq].size = members.len() as u16;
        }
        self.chains = Some(Box::new(ch));
    }

    /// The hash of the board alone (without the side to move).
    #[inline]
    pub fn board_hash(&self) -> u64 {
        // Without a branch: the side to move alternates, with passes in between, and predicts badly.
        self.hash ^ (self.t.z_side & 0u64.wrapping_sub(self.stm.0 as u64))
    }

    /// The key repetition rules compare: the board, or board and side for situational superko.
    #[inline]
    pub fn repetition_key_for(&self, board: u64, side_after: Side) -> u64 {
        match self.t.repetition {
            Some(RepetitionRule::Situational) if side_after == Side::SECOND => board ^ self.t.z_side,
            _ => board,
        }
    }

    /// Why placing `kind` on `sq` is illegal, if it is: `Some("suicide")`, `Some("repetition")`.
    #[inline]
    pub fn place_problem(&self, kind: KindId, sq: usize) -> Option<&'static str> {
        let ch = self.chains.as_deref()?;
        match self.place_verdict(ch, kind, sq, false) {
            Verdict::Legal | Verdict::OwnEye => None,
            Verdict::Illegal(why) => Some(why),
            Verdict::NoLiberty => {
                // Suicide allowed: the board after it is hard to predict cheaply; make it and look.
                let mut after = self.clone();
                after.make_place(kind, sq);
                after.repeats_last().then_some("repetition")
            }
        }
    }

    /// The ruling on placing `kind` on `sq` with chains `ch` (which stand for `self.chains`),
    /// short of the one case that needs the move made: a permitted suicide under a repetition rule.
    /// With `eyes`, a point whose neighbours are all the mover's own or the edge is `OwnEye`.
    #[inline(always)]
    pub(super) fn place_verdict(&self, ch: &Chains, kind: KindId, sq: usize, eyes: bool) -> Verdict {
        let own = 1 + self.stm.0;
        let nbrs = self.t.neighbours[sq];
        if eyes && nbrs.iter().all(|&m| ch.color[m as usize] == own || ch.color[m as usize] == BORDER) {
            return Verdict::OwnEye;
        }
        let mut liberty = false;
        let mut captured = 0u64;
        let mut taken = [NO_SQ; 4];
        for (i, &m) in nbrs.iter().enumerate() {
            let m = m as usize;
            match ch.color[m] {
                EMPTY => liberty = true,
                BORDER => {}
                c => {
                    let r = ch.root(m);
                    if c == own {
                        liberty |= !ch.in_atari(r);
                    } else if ch.in_atari(r) {
                        liberty = true;
                        if !taken.contains(&(r as u16)) {
                            captured ^= ch.hash(r);
                            taken[i] = r as u16;
                        }
                    }
                }
            }
        }
        if !liberty {
            return match (self.t.suicide_forbidden, self.t.repetition.is_some()) {
                (true, _) => Verdict::Illegal("suicide"),
                (false, true) => Verdict::NoLiberty,
                (false, false) => Verdict::Legal,
            };
        }
        if self.t.repetition.is_some() {
            let board = self.board_hash() ^ self.t.z_piece[cell(kind, self.stm) as usize][sq] ^ captured;
            if self.seen_before(self.repetition_key_for(board, self.stm.other())) {
                return Verdict::Illegal("repetition");
            }
        }
        Verdict::Legal
    }

    /// Is `key` forbidden by the repetition rule, given the history so far?
    #[inline]
    fn seen_before(&self, key: u64) -> bool {
        match self.t.repetition {
            None => false,
            Some(RepetitionRule::Ko) => self.history.len() >= 2 && self.history[self.history.len() - 2] == key,
            Some(_) => self.seen.count(key) > 0,
        }
    }

    /// After a move: does the current position break the repetition rule?
    fn repeats_last(&self) -> bool {
        let Some(&last) = self.history.last() else { return false };
        let earlier = &self.history[..self.history.len() - 1];
        match self.t.repetition {
            None => false,
            Some(RepetitionRule::Ko) => earlier.len() >= 2 && earlier[earlier.len() - 2] == last,
            Some(_) => self.seen.count(last) >= 2,
        }
    }

    /// Places a piece and resolves captures. Returns the number of pieces captured.
    pub fn make_place(&mut self, kind: KindId, sq: usize) -> u32 {
        match self.chains.take() {
            Some(mut ch) => {
                let captured = self.place_in(&mut ch, kind, sq);
                self.chains = Some(ch);
                captured
            }
            None => {
                self.put(sq, kind, self.stm);
                0
            }
        }
    }

    /// [`make_place`](Self::make_place) with the chains held apart from `self` (`self.chains` is
    /// not read): the playout loop keeps them in a local while it runs.
    #[inline(always)]
    pub(super) fn place_in(&mut self, ch: &mut Chains, kind: KindId, sq: usize) -> u32 {
        let us = self.stm;
        let c = cell(kind, us);
        self.put(sq, kind, us);
        let own = 1 + us.0;
        ch.remove_empty(sq);
        ch.color[sq] = own;
        ch.pts[sq] = Point {
            root: sq as u16,
            next: sq as u16,
            size: 1,
            hash: self.t.z_piece[c as usize][sq],
            ..Point::default()
        };
        let nbrs = self.t.neighbours[sq];
        for &m in &nbrs {
            let m = m as usize;
            match ch.color[m] {
                EMPTY => ch.add_lib(sq, m),
                BORDER => {}
                _ => {
                    let r = ch.root(m);
                    ch.remove_lib(r, sq);
                }
            }
        }
        // Which neighbours are own stones, and which enemy chains have no liberty: masks built without
        // branches, then one well-predicted test each (most moves merge or capture nothing).
        let enemy = 3 - own;
        let mut own_mask = 0u32;
        let mut dead_mask = 0u32;
        for (i, &m) in nbrs.iter().enumerate() {
            let c = ch.color[m as usize];
            own_mask |= ((c == own) as u32) << i;
            dead_mask |= (((c == enemy) & !ch.has_liberty(ch.root(m as usize))) as u32) << i;
        }
        while own_mask != 0 {
            let m = nbrs[own_mask.trailing_zeros() as usize] as usize;
            own_mask &= own_mask - 1;
            let (a, b) = (ch.root(sq), ch.root(m));
            if a != b {
                merge(ch, a, b);
            }
        }
        let mut captured = 0;
        while dead_mask != 0 {
            let m = nbrs[dead_mask.trailing_zeros() as usize] as usize;
            dead_mask &= dead_mask - 1;
            // A chain touching the point twice is gone (its points empty) the second time.
            if ch.color[m] == enemy {
                let r = ch.root(m);
                captured += self.capture_chain(ch, r);
            }
        }
        let mine = ch.root(sq);
        if !ch.has_liberty(mine) {
            captured += self.capture_chain(ch, mine);
        }
        captured
    }

    fn capture_chain(&mut self, ch: &mut Chains, r: usize) -> u32 {
        // A chain of the opponent's is captured, as conditions on the last move's captures ask
        // (`captured`, `captured Stone`); a chain of one's own taken by suicide is not.
        let c = self.cells[r];
        if cell_side(c) != self.stm {
            self.last_captured |= 1 << cell_kind(c).0;
        }
        // Walk the chain's circular list twice (it stays intact while its stones are lifted):
        // first lift the stones, then give their points back as liberties to the neighbours.
        let mut count = 0;
        let mut s = r;
        loop {
            self.remove_piece(s);
            ch.color[s] = EMPTY;
            ch.pts[s].root = self.t.squares as u16;
            ch.add_empty(s);
            count += 1;
            s = ch.pts[s].next as usize;
            if s == r {
                break;
            }
        }
        let mut s = r;
        loop {
            for &m in &self.t.neighbours[s] {
                let m = m as usize;
                if ch.color[m] != EMPTY && ch.color[m] != BORDER {
                    let rr = ch.root(m);
                    ch.add_lib(rr, s);
                }
            }
            s = ch.pts[s].next as usize;
            if s == r {
                break;
            }
        }
        count
    }

    /// Records the position after a move for repetition rules.
    #[inline]
    pub fn push_history(&mut self) {
        if self.t.repetition.is_some() {
            let key = self.repetition_key_for(self.board_hash(), self.stm);
            self.history.push(key);
            self.seen.add(key);
        }
    }

    /// Is `sq` a single-point eye of the side to move (see [`super::Position::fills_own_eye`])?
    pub fn fills_own_eye(&self, sq: usize) -> bool {
        let Some(ch) = self.chains.as_deref() else { return false };
        let own = 1 + self.stm.0;
        sq < self.t.squares
            && ch.color[sq] == EMPTY
            && self.t.neighbours[sq]
                .iter()
                .all(|&m| ch.color[m as usize] == own || ch.color[m as usize] == BORDER)
    }

    /// The chain containing `sq` (empty if none).
    pub fn chain_at(&self, sq: usize) -> Vec<usize> {
        match self.chains.as_deref() {
            Some(ch) if sq < self.t.squares && ch.color[sq] != EMPTY => ch.stones(ch.root(sq)),
            _ => Vec::new(),
        }
    }
}

fn merge(ch: &mut Chains, a: usize, b: usize) {
    let (big, small) = if ch.pts[a].size >= ch.pts[b].size { (a, b) } else { (b, a) };
    let mut s = small;
    loop {
        ch.pts[s].root = big as u16;
        s = ch.pts[s].next as usize;
        if s == small {
            break;
        }
    }
    let (nb, ns) = (ch.pts[big].next, ch.pts[small].next);
    ch.pts[big].next = ns;
    ch.pts[small].next = nb;
    let sm = ch.pts[small];
    let p = &mut ch.pts[big];
    p.size += sm.size;
    p.lib_cnt += sm.lib_cnt;
    p.lib_sum += sm.lib_sum;
    p.lib_sq += sm.lib_sq;
    p.hash ^= sm.hash;
}

impl<B: Bits> Pos<B> {
    /// Forgets the last recorded position (unmake).
    pub fn pop_history(&mut self) {
        if let Some(k) = self.history.pop() {
            self.seen.remove_one(k);
        }
    }
}

/// A position's repetition record taken out of it (see [`Pos::take_record`]): the keys of the
/// positions so far, in order and counted.
#[derive(Debug, Default)]
pub(crate) struct Record {
    history: Vec<u64>,
    seen: KeySet,
}

impl Record {
    /// Forgets the last position (as `unmake` does).
    pub(crate) fn forget_last(&mut self) {
        if let Some(k) = self.history.pop() {
            self.seen.remove_one(k);
        }
    }
}

impl<B: Bits> Pos<B> {
    /// Takes the repetition record out, leaving it empty.
    pub(crate) fn take_record(&mut self) -> Record {
        Record {
            history: std::mem::take(&mut self.history),
            seen: std::mem::take(&mut self.seen),
        }
    }

    /// Puts a record taken by [`Pos::take_record`] back.
    pub(crate) fn put_record(&mut self, r: Record) {
        self.history = r.history;
        self.seen = r.seen;
    }
}

/// Position keys with how often each occurred: an open-addressing table with linear probing,
/// indexed by the key's low bits (Zobrist keys are uniformly random already), cloned with one
/// copy. The key 0 is counted apart, so an empty slot needs no flag.
#[derive(Clone, Debug, Default)]
pub struct KeySet {
    slots: Vec<(u64, u32)>,
    len: usize,
    zero: u32,
}

impl KeySet {
    /// The bytes the table holds on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<(u64, u32)>()
    }

    /// How often `key` was added (and not removed).
    #[inline]
    pub fn count(&self, key: u64) -> u32 {
        if key == 0 {
            return self.zero;
        }
        if self.slots.is_empty() {
            return 0;
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let (k, n) = self.slots[i];
            if k == key {
                return n;
            }
            if k == 0 {
                return 0;
            }
            i = (i + 1) & mask;
        }
    }

    /// Counts one more occurrence of `key`.
    #[inline]
    pub fn add(&mut self, key: u64) {
        if key == 0 {
            self.zero += 1;
            return;
        }
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow((self.len + 1) * 2);
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let (k, n) = &mut self.slots[i];
            if *k == key {
                *n += 1;
                return;
            }
            if *k == 0 {
                *k = key;
                *n = 1;
                self.len += 1;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Forgets one occurrence of `key` (backward-shift deletion keeps probe runs unbroken).
    pub fn remove_one(&mut self, key: u64) {
        if key == 0 {
            self.zero = self.zero.saturating_sub(1);
            return;
        }
        if self.slots.is_empty() {
            return;
        }
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let (k, n) = self.slots[i];
            if k == 0 {
                return;
            }
            if k == key {
                if n > 1 {
                    self.slots[i].1 -= 1;
                    return;
                }
                break;
            }
            i = (i + 1) & mask;
        }
        self.len -= 1;
        let mut hole = i;
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            let (k, _) = self.slots[j];
            if k == 0 {
                break;
            }
            let home = k as usize & mask;
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            let stays = if hole <= j {
                hole < home && home <= j
            } else {
                hole < home || home <= j
            };
            if !stays {
                self.slots[hole] = self.slots[j];
                hole = j;
            }
        }
        self.slots[hole] = (0, 0);
    }

    /// Makes room for `n` distinct keys without growing.
    pub fn reserve(&mut self, n: usize) {
        if 2 * n > self.slots.len() {
            self.grow(n);
        }
    }

    fn grow(&mut self, n: usize) {
        let cap = (2 * n).next_power_of_two().max(16);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); cap]);
        self.len = 0;
        let mask = cap - 1;
        for (k, n) in old.into_iter().filter(|e| e.0 != 0) {
            let mut i = k as usize & mask;
            while self.slots[i].0 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (k, n);
            self.len += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::KeySet;
    use std::collections::HashMap;

    /// The table against a HashMap, under adds and removes of colliding keys (same low bits).
    #[test]
    fn key_set_counts_like_a_map() {
        let mut set = KeySet::default();
        let mut map: HashMap<u64, u32> = HashMap::new();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for step in 0..20_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Few distinct keys, many sharing low bits, and 0 among them.
            let key = (x % 97) << 20 | (x >> 60) & 3;
            if step % 3 == 2 {
                set.remove_one(key);
                if let Some(n) = map.get_mut(&key) {
                    *n -= 1;
                    if *n == 0 {
                        map.remove(&key);
                    }
                }
            } else {
                set.add(key);
                *map.entry(key).or_insert(0) += 1;
            }
            for probe in [key, key ^ 1 << 20, 0, (x % 97) << 20] {
                assert_eq!(
                    set.count(probe),
                    map.get(&probe).copied().unwrap_or(0),
                    "step {step}, key {probe:#x}"
                );
            }
        }
    }
}
