//! Chains of placed pieces (go): orthogonally connected pieces of one side, with pseudo-liberty
//! counts kept incrementally (a liberty counted once per adjacent stone), plus the sum and the sum
//! of squares of those liberties, so "exactly one liberty" is `sum² = count × sum of squares` —
//! no flood fill per move. Each chain also keeps the XOR of its stones' Zobrist keys, so the hash
//! after a capture is known before the move is made (for superko).

use super::bits::Bits;
use super::position::{NO_SQ, Pos, cell, cell_side};
use crate::model::{KindId, RepetitionRule, Side};

/// Chain bookkeeping, indexed by square; a chain's data lives at its root square.
#[derive(Clone, Debug, Default)]
pub struct Chains {
    pub root: Vec<u16>,
    next: Vec<u16>,
    size: Vec<u16>,
    lib_cnt: Vec<u32>,
    lib_sum: Vec<u64>,
    lib_sq: Vec<u64>,
    hash: Vec<u64>,
    /// The empty points, in no order, and where each sits in that list (for playouts).
    pub empty: Vec<u16>,
    empty_at: Vec<u16>,
}

impl Chains {
    pub fn new(n: usize) -> Chains {
        Chains {
            root: vec![NO_SQ; n],
            next: vec![NO_SQ; n],
            size: vec![0; n],
            lib_cnt: vec![0; n],
            lib_sum: vec![0; n],
            lib_sq: vec![0; n],
            hash: vec![0; n],
            empty: Vec::with_capacity(n),
            empty_at: vec![NO_SQ; n],
        }
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
    pub fn swap_empty(&mut self, i: usize, j: usize) {
        self.empty.swap(i, j);
        self.empty_at[self.empty[i] as usize] = i as u16;
        self.empty_at[self.empty[j] as usize] = j as u16;
    }
    #[inline]
    fn add_lib(&mut self, r: usize, sq: usize) {
        self.lib_cnt[r] += 1;
        self.lib_sum[r] += sq as u64;
        self.lib_sq[r] += (sq * sq) as u64;
    }
    #[inline]
    fn remove_lib(&mut self, r: usize, sq: usize) {
        self.lib_cnt[r] -= 1;
        self.lib_sum[r] -= sq as u64;
        self.lib_sq[r] -= (sq * sq) as u64;
    }
    /// Does the chain have exactly one liberty (counted with multiplicity or not)?
    #[inline]
    pub fn in_atari(&self, r: usize) -> bool {
        let c = self.lib_cnt[r] as u64;
        c > 0 && self.lib_sum[r] * self.lib_sum[r] == c * self.lib_sq[r]
    }
    pub fn has_liberty(&self, r: usize) -> bool {
        self.lib_cnt[r] > 0
    }
    /// The squares of the chain whose root is `r`.
    pub fn stones(&self, r: usize) -> Vec<usize> {
        let mut v = vec![r];
        let mut s = self.next[r] as usize;
        while s != r {
            v.push(s);
            s = self.next[s] as usize;
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
            if self.cells[sq] == 0 {
                ch.add_empty(sq);
            }
        }
        for sq in 0..n {
            if self.cells[sq] == 0 || ch.root[sq] != NO_SQ {
                continue;
            }
            // Flood fill once, at load time.
            let side = cell_side(self.cells[sq]);
            let mut stack = vec![sq];
            let mut members = Vec::new();
            ch.root[sq] = sq as u16;
            while let Some(s) = stack.pop() {
                members.push(s);
                for &m in &self.t.neighbours[s] {
                    let m = m as usize;
                    if m != NO_SQ as usize && self.cells[m] != 0 && cell_side(self.cells[m]) == side && ch.root[m] == NO_SQ {
                        ch.root[m] = sq as u16;
                        stack.push(m);
                    }
                }
            }
            for (i, &s) in members.iter().enumerate() {
                ch.next[s] = members[(i + 1) % members.len()] as u16;
                ch.hash[sq] ^= self.t.z_piece[self.cells[s] as usize][s];
                for &m in &self.t.neighbours[s] {
                    if m != NO_SQ && self.cells[m as usize] == 0 {
                        ch.add_lib(sq, m as usize);
                    }
                }
            }
            ch.size[sq] = members.len() as u16;
        }
        self.chains = Some(Box::new(ch));
    }

    /// The hash of the board alone (without the side to move).
    #[inline]
    pub fn board_hash(&self) -> u64 {
        if self.stm == Side::SECOND {
            self.hash ^ self.t.z_side
        } else {
            self.hash
        }
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
    pub fn place_problem(&self, kind: KindId, sq: usize) -> Option<&'static str> {
        let Some(ch) = self.chains.as_deref() else { return None };
        let us = self.stm;
        let mut liberty = false;
        let mut captured = 0u64;
        let mut seen = [NO_SQ; 4];
        for (i, &m) in self.t.neighbours[sq].iter().enumerate() {
            if m == NO_SQ {
                continue;
            }
            let m = m as usize;
            let c = self.cells[m];
            if c == 0 {
                liberty = true;
                continue;
            }
            let r = ch.root[m];
            if cell_side(c) == us {
                if !ch.in_atari(r as usize) {
                    liberty = true;
                }
            } else if ch.in_atari(r as usize) && !seen.contains(&r) {
                captured ^= ch.hash[r as usize];
                liberty = true;
            }
            seen[i] = r;
        }
        if !liberty {
            if self.t.suicide_forbidden {
                return Some("suicide");
            }
            // Suicide allowed: the board after it is hard to predict cheaply; make it and look.
            if self.t.repetition.is_some() {
                let mut after = self.clone();
                after.make_place(kind, sq);
                return after.repeats_last().then_some("repetition");
            }
            return None;
        }
        if self.t.repetition.is_some() {
            let board = self.board_hash() ^ self.t.z_piece[cell(kind, us) as usize][sq] ^ captured;
            if self.seen_before(self.repetition_key_for(board, us.other())) {
                return Some("repetition");
            }
        }
        None
    }

    /// Is `key` forbidden by the repetition rule, given the history so far?
    fn seen_before(&self, key: u64) -> bool {
        match self.t.repetition {
            None => false,
            Some(RepetitionRule::Ko) => self.history.len() >= 2 && self.history[self.history.len() - 2] == key,
            Some(_) => self.seen.contains_key(&key),
        }
    }

    /// After a move: does the current position break the repetition rule?
    fn repeats_last(&self) -> bool {
        let Some(&last) = self.history.last() else { return false };
        let earlier = &self.history[..self.history.len() - 1];
        match self.t.repetition {
            None => false,
            Some(RepetitionRule::Ko) => earlier.len() >= 2 && earlier[earlier.len() - 2] == last,
            Some(_) => self.seen.get(&last).is_some_and(|n| *n >= 2),
        }
    }

    /// Places a piece and resolves captures; records the new position for repetition rules.
    pub fn make_place(&mut self, kind: KindId, sq: usize) -> u32 {
        let us = self.stm;
        let c = cell(kind, us);
        self.put(sq, kind, us);
        let mut captured = 0;
        if let Some(mut ch) = self.chains.take() {
            ch.remove_empty(sq);
            ch.root[sq] = sq as u16;
            ch.next[sq] = sq as u16;
            ch.size[sq] = 1;
            ch.lib_cnt[sq] = 0;
            ch.lib_sum[sq] = 0;
            ch.lib_sq[sq] = 0;
            ch.hash[sq] = self.t.z_piece[c as usize][sq];
            let nbrs = self.t.neighbours[sq];
            for &m in &nbrs {
                if m == NO_SQ {
                    continue;
                }
                let m = m as usize;
                if self.cells[m] == 0 {
                    ch.add_lib(sq, m);
                } else {
                    let r = ch.root[m] as usize;
                    ch.remove_lib(r, sq);
                }
            }
            for &m in &nbrs {
                if m != NO_SQ && self.cells[m as usize] != 0 && cell_side(self.cells[m as usize]) == us {
                    let a = ch.root[sq] as usize;
                    let b = ch.root[m as usize] as usize;
                    if a != b {
                        merge(&mut ch, a, b);
                    }
                }
            }
            for &m in &nbrs {
                if m != NO_SQ && self.cells[m as usize] != 0 && cell_side(self.cells[m as usize]) != us {
                    let r = ch.root[m as usize] as usize;
                    if !ch.has_liberty(r) {
                        captured += self.capture_chain(&mut ch, r);
                    }
                }
            }
            let own = ch.root[sq] as usize;
            if !ch.has_liberty(own) {
                captured += self.capture_chain(&mut ch, own);
            }
            self.chains = Some(ch);
        }
        captured
    }

    fn capture_chain(&mut self, ch: &mut Chains, r: usize) -> u32 {
        // Walk the chain's circular list twice (it stays intact while its stones are lifted):
        // first lift the stones, then give their points back as liberties to the neighbours.
        let mut count = 0;
        let mut s = r;
        loop {
            self.remove_piece(s);
            ch.root[s] = NO_SQ;
            ch.add_empty(s);
            count += 1;
            s = ch.next[s] as usize;
            if s == r {
                break;
            }
        }
        let mut s = r;
        loop {
            for &m in &self.t.neighbours[s] {
                if m != NO_SQ && self.cells[m as usize] != 0 {
                    let rr = ch.root[m as usize] as usize;
                    ch.add_lib(rr, s);
                }
            }
            s = ch.next[s] as usize;
            if s == r {
                break;
            }
        }
        count
    }

    /// Records the position after a move for repetition rules.
    pub fn push_history(&mut self) {
        if self.t.repetition.is_some() {
            let key = self.repetition_key_for(self.board_hash(), self.stm);
            self.history.push(key);
            *self.seen.entry(key).or_insert(0) += 1;
        }
    }

    /// The chain containing `sq` (empty if none).
    pub fn chain_at(&self, sq: usize) -> Vec<usize> {
        match self.chains.as_deref() {
            Some(ch) if ch.root[sq] != NO_SQ => ch.stones(ch.root[sq] as usize),
            _ => Vec::new(),
        }
    }
}

fn merge(ch: &mut Chains, a: usize, b: usize) {
    let (big, small) = if ch.size[a] >= ch.size[b] { (a, b) } else { (b, a) };
    let mut s = small;
    loop {
        ch.root[s] = big as u16;
        s = ch.next[s] as usize;
        if s == small {
            break;
        }
    }
    ch.next.swap(big, small);
    ch.size[big] += ch.size[small];
    ch.lib_cnt[big] += ch.lib_cnt[small];
    ch.lib_sum[big] += ch.lib_sum[small];
    ch.lib_sq[big] += ch.lib_sq[small];
    ch.hash[big] ^= ch.hash[small];
}

impl<B: Bits> Pos<B> {
    /// Forgets the last recorded position (unmake).
    pub fn pop_history(&mut self) {
        if let Some(k) = self.history.pop() {
            if let Some(n) = self.seen.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    self.seen.remove(&k);
                }
            }
        }
    }
}

/// Zobrist keys are already uniformly random: hashing them again is wasted work.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of position keys with their counts.
pub type KeySet = std::collections::HashMap<u64, u32, std::hash::BuildHasherDefault<KeyHasher>>;
