//! Chains of placed pieces (go): orthogonally connected pieces of one side, with pseudo-liberty
//! counts kept incrementally (a liberty counted once per adjacent stone). Whether a placement's
//! neighbour is in atari there is a comparison: its count equals its stones beside the point.
//! Where the chains are tracked (a walk that keeps the points without air), each chain also keeps
//! the sum and the sum of squares of its liberties, so "exactly one liberty" anywhere is
//! `sum² = count × sum of squares`, and that liberty is `sum / count` — no flood fill per move.
//! Each chain also keeps the XOR of its stones' Zobrist keys, so the hash after a capture is
//! known before the move is made (for superko).

use super::below;
use super::bits::{Bits, PointTable};
use super::position::{NO_SQ, PASS, Pos, cell, cell_kind, cell_side};
use super::{Move, MoveKind};
use crate::compile::{CForm, Gen};
use crate::model::{KindId, RepetitionRule, Side};

/// What [`Chains::color`] holds for a point: empty, a side's piece (`1 + side`), or the border.
pub const EMPTY: u8 = 0;
pub const BORDER: u8 = 3;

/// Where [`Chains::nbr`] counts each colour of neighbour: the first side's (border included),
/// the second side's (border included), and empty points.
const NBR_FIRST: u32 = 0;
const NBR_SECOND: u32 = 4;
const NBR_EMPTY: u32 = 8;
/// The top two bits of a point's [`Chains::nbr`]: a capture has emptied the point of a stone of
/// the first side (`1 << 14`) or of the second (`1 << 15`) along the line of moves that led here.
/// A placement can repeat an earlier board only where the mover's own stone was lifted since
/// (that board had it there, and only captures empty a point), so only there is the record
/// asked. Together they mirror [`Pos::vacated`] where a placement is ruled on, beside the counts
/// read there anyway (a rebuild, knowing only that, sets both); the counts never carry into them
/// (each field stays under 5), and an unmake restores them with them.
const VACATED: u16 = 3 << 14;
/// The bit of [`VACATED`] for a stone of colour `c` (1 + side).
#[inline(always)]
const fn vacated_of(c: u8) -> u16 {
    1 << (13 + c as u32)
}
/// What a neighbour of each colour adds to a point's counts.
const NBR_OF: [u16; 4] = [1 << NBR_EMPTY, 1 << NBR_FIRST, 1 << NBR_SECOND, 1 << NBR_FIRST | 1 << NBR_SECOND];
/// What a stone placed on an empty point adds to its neighbours' counts, by its colour (1 + side).
const NBR_PLACE: [u16; 3] = [
    0,
    (1u16 << NBR_FIRST).wrapping_sub(1 << NBR_EMPTY),
    (1u16 << NBR_SECOND).wrapping_sub(1 << NBR_EMPTY),
];

/// The ruling on a placement, as far as it can be made without playing it.
pub(super) enum Verdict {
    Legal,
    Illegal(&'static str),
    /// The point is a single-point eye of the mover's own (asked for by playouts, which never fill one).
    OwnEye,
}

/// One point's chain data. `root` and `next` (the chain's stones as a circular list) are kept for
/// every stone; the rest only at the chain's root. An empty point's `root` is the border point
/// (whose liberty counts are zeroed after each update that adds to or takes from them), so a neighbour's chain can be read before asking what is there. Liberty counts fit: a chain has at most
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
#[derive(Debug)]
pub struct Chains<B: Bits> {
    /// [`EMPTY`], `1 + side`, or [`BORDER`] for the extra point at index `squares`, which every
    /// missing neighbour names.
    pub color: B::Points<u8>,
    /// Per point, its neighbours counted by colour in three fields of four bits ([`NBR_FIRST`],
    /// [`NBR_SECOND`], [`NBR_EMPTY`]), the border counted as both sides': whether a point is an
    /// own eye, or has an empty neighbour (so is never suicide), is one load.
    nbr: B::Points<u16>,
    /// Each point's four neighbours (the border point for a missing one): the tables' own,
    /// copied here where the hot loops read them with one load and no bounds check.
    nb: B::Points<[u16; 4]>,
    /// A fingerprint of [`Chains::nb`] (0 before any): a copy between chains of one board (a
    /// snapshot, a playout's start) leaves the neighbours where they are.
    nb_key: u64,
    pts: B::Points<Point>,
    /// The empty points, and where each sits in that list (for playouts): the first side's
    /// single-point eyes at its front, the second side's at its back, [`Chains::eyes`] of each,
    /// and the rest between, in no order. A random player of a side draws among all but its own
    /// eyes (see [`Chains::drawable`]), which it never fills.
    empty: B::Points<u16>,
    /// How many points [`Chains::empty`] holds.
    empties: u16,
    empty_at: B::Points<u16>,
    /// How many of the first side's eyes begin [`Chains::empty`], and of the second side's end
    /// it. A point is there while it is that side's eye ([`Chains::own_eye`]; the first side's
    /// where it would be both sides', every neighbour the edge). A point becomes an eye when a
    /// placement beside it leaves it no empty neighbour, or when the stone on it is captured;
    /// it stops being one only when it is filled (a chain beside an eye has it as a liberty, so
    /// no capture lifts an eye's neighbour).
    eyes: [u16; 2],
    /// Whether [`Pos::airless`] and [`Pos::takes`] are kept up to date as stones are placed
    /// and captured (a walk that counts its legal moves asks for it; playouts, which never
    /// count, do without).
    pub track: bool,
    /// The empty points where what a placement does may have changed during a placement, to be
    /// ruled on again for [`Pos::airless`] once it is done.
    pub(super) dirty: Vec<u16>,
    /// The border point: `squares`.
    border: usize,
    /// Tables a snapshot was restored from, kept for the next snapshot to copy into (see
    /// `Pos::push_snapshot`). Not copied with the chains.
    pub(super) spare: Spare<B>,
}

/// Chain tables kept for reuse: a copy starts without any.
#[derive(Debug)]
pub(super) struct Spare<B: Bits>(pub(super) Vec<Box<Chains<B>>>);

impl<B: Bits> Clone for Spare<B> {
    fn clone(&self) -> Self {
        Spare(Vec::new())
    }
}

impl<B: Bits> Clone for Chains<B> {
    fn clone(&self) -> Self {
        Chains {
            color: self.color.clone(),
            nbr: self.nbr.clone(),
            nb: self.nb.clone(),
            nb_key: self.nb_key,
            pts: self.pts.clone(),
            empty: self.empty.clone(),
            empties: self.empties,
            empty_at: self.empty_at.clone(),
            eyes: self.eyes,
            track: self.track,
            dirty: self.dirty.clone(),
            border: self.border,
            spare: self.spare.clone(),
        }
    }

    /// Copies the board's points alone ([`Chains::copy_from`]): the tables are sized for the
    /// widest board of their width, most of a 19 × 19 board's past its points.
    fn clone_from(&mut self, source: &Self) {
        self.copy_from(source);
    }
}

impl<B: Bits> Chains<B> {
    /// Chains for a board of `n` points (at most [`Bits::CAPACITY`]), all empty.
    pub fn new(n: usize) -> Chains<B> {
        debug_assert!(n <= B::CAPACITY);
        let mut color = B::Points::filled(EMPTY);
        color[n] = BORDER;
        Chains {
            nbr: B::Points::filled(0),
            nb: B::Points::filled([n as u16; 4]),
            nb_key: 0,
            color,
            pts: B::Points::filled(Point {
                root: n as u16,
                next: n as u16,
                ..Point::default()
            }),
            empty: B::Points::filled(NO_SQ),
            empties: 0,
            empty_at: B::Points::filled(NO_SQ),
            eyes: [0; 2],
            track: false,
            dirty: Vec::new(),
            border: n,
            spare: Spare(Vec::new()),
        }
    }
    /// [`Chains::new`] on the heap, out of line: the tables are kilobytes, which a caller's frame
    /// would otherwise make room for.
    #[cold]
    #[inline(never)]
    pub fn boxed(n: usize) -> Box<Chains<B>> {
        Box::new(Chains::new(n))
    }
    /// Makes these tables `other`'s, copying the entries of the board's points (and the border
    /// point) alone: past them nothing is read.
    pub(crate) fn copy_from(&mut self, other: &Chains<B>) {
        let n = other.border + 1;
        self.color.as_mut_slice()[..n].copy_from_slice(&other.color.as_slice()[..n]);
        self.nbr.as_mut_slice()[..n].copy_from_slice(&other.nbr.as_slice()[..n]);
        if (self.nb_key, self.border) != (other.nb_key, other.border) {
            self.nb.as_mut_slice()[..n].copy_from_slice(&other.nb.as_slice()[..n]);
            self.nb_key = other.nb_key;
        }
        self.pts.as_mut_slice()[..n].copy_from_slice(&other.pts.as_slice()[..n]);
        self.empty_at.as_mut_slice()[..n].copy_from_slice(&other.empty_at.as_slice()[..n]);
        self.empty.as_mut_slice()[..n].copy_from_slice(&other.empty.as_slice()[..n]);
        self.empties = other.empties;
        self.eyes = other.eyes;
        self.dirty.clone_from(&other.dirty);
        self.track = other.track;
        self.border = other.border;
    }
    /// The bytes these tables hold on the heap besides the fixed ones.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.dirty.capacity() * std::mem::size_of::<u16>()
            + self.spare.0.capacity() * std::mem::size_of::<Box<Chains<B>>>()
            + self
                .spare
                .0
                .iter()
                .map(|c| std::mem::size_of::<Chains<B>>() + c.heap_bytes())
                .sum::<usize>()
    }
    /// The empty points (see [`Chains::empty`]).
    #[inline(always)]
    pub(super) fn empty_points(&self) -> &[u16] {
        &self.empty.as_slice()[..self.empties as usize]
    }
    /// The empty points from list index `start`, `len` of them, to swap draws in.
    #[inline(always)]
    pub(super) fn empty_part(&mut self, start: usize, len: usize) -> &mut [u16] {
        &mut self.empty.as_mut_slice()[start..start + len]
    }
    /// Swaps list indices `i` and `j` of [`Chains::empty`] without keeping
    /// [`Chains::empty_at`] (a draw's refusals, undone before anything else looks).
    #[inline(always)]
    pub(super) fn swap_drawn(&mut self, i: usize, j: usize) {
        let (a, b) = (self.empty[i], self.empty[j]);
        self.empty[i] = b;
        self.empty[j] = a;
    }
    /// The empty point at list index `i`.
    #[inline(always)]
    pub(super) fn empty_at_index(&self, i: usize) -> usize {
        self.empty[i] as usize
    }
    /// Writes `sq` at index `i` of [`Chains::empty`].
    #[inline(always)]
    fn put_at(&mut self, i: usize, sq: u16) {
        self.empty[i] = sq;
        self.empty_at[sq as usize] = i as u16;
    }
    /// Swaps the empty points at list indices `i` and `j`.
    #[inline(always)]
    fn swap_at(&mut self, i: usize, j: usize) {
        let (a, b) = (self.empty[i], self.empty[j]);
        self.put_at(i, b);
        self.put_at(j, a);
    }
    /// Adds the point `sq`, newly empty, to the points that are no one's eye (at their end: the
    /// first of the second side's eyes moves to the list's end).
    #[inline(always)]
    fn add_empty(&mut self, sq: usize) {
        let n = self.empties as usize;
        self.empties += 1;
        self.put_at(n, sq as u16);
        self.swap_at(n - self.eyes[1] as usize, n);
    }
    /// Takes the point `sq` off the empty points, from whichever part it is in.
    #[inline(always)]
    fn remove_empty(&mut self, sq: usize) {
        let n = self.empties as usize;
        let mut i = self.empty_at[sq] as usize;
        // An eye (one a placement of the other side fills) first becomes one of the rest.
        if i < self.eyes[0] as usize {
            self.eyes[0] -= 1;
            self.swap_at(i, self.eyes[0] as usize);
            i = self.eyes[0] as usize;
        } else if i >= n - self.eyes[1] as usize {
            i = n - self.eyes[1] as usize;
            self.swap_at(self.empty_at[sq] as usize, i);
            self.eyes[1] -= 1;
        }
        // The last of the rest fills its slot, and the last of the second side's eyes that one's.
        let last = n - 1 - self.eyes[1] as usize;
        if i != last {
            self.put_at(i, self.empty[last]);
        }
        if last != n - 1 {
            self.put_at(last, self.empty[n - 1]);
        }
        self.empties -= 1;
        self.empty_at[sq] = NO_SQ;
    }
    /// Moves the empty point `sq`, one of the rest, to `side`'s eyes.
    #[inline(always)]
    fn eye_in(&mut self, sq: usize, side: usize) {
        let i = self.empty_at[sq] as usize;
        let j = if side == 0 {
            self.eyes[0] as usize
        } else {
            self.empties as usize - 1 - self.eyes[1] as usize
        };
        self.swap_at(i, j);
        self.eyes[side] += 1;
    }
    /// Which side's eyes the empty point `sq` is among, if any (see [`Chains::eyes`]).
    #[inline(always)]
    fn eye_part(&self, sq: usize) -> Option<usize> {
        let i = self.empty_at[sq] as usize;
        if i < self.eyes[0] as usize {
            Some(0)
        } else if i >= self.empties as usize - self.eyes[1] as usize {
            Some(1)
        } else {
            None
        }
    }
    /// Whose eye the empty point `sq` is by its neighbours, if anyone's (the first side's where
    /// it is both sides').
    #[inline(always)]
    fn eye_of(&self, sq: usize) -> Option<usize> {
        if self.own_eye(sq, 1) {
            Some(0)
        } else if self.own_eye(sq, 2) {
            Some(1)
        } else {
            None
        }
    }
    /// Puts every empty point in its part of the list (after a load).
    fn sort_eyes(&mut self) {
        self.eyes = [0; 2];
        let mut i = 0;
        while i < self.empties as usize - self.eyes[1] as usize {
            let sq = self.empty[i] as usize;
            match self.eye_of(sq) {
                // What comes to `i` from the rest's end is looked at next.
                Some(1) => self.eye_in(sq, 1),
                // What comes to `i` from the rest's start was looked at.
                Some(_) => {
                    self.eye_in(sq, 0);
                    i += 1;
                }
                None => i += 1,
            }
        }
    }
    /// The part of [`Chains::empty`] a random player of `side` draws from: its start and length
    /// (all but the side's own eyes).
    #[inline(always)]
    pub(super) fn drawable(&self, side: usize) -> (usize, usize) {
        let n = self.empties as usize;
        let start = self.eyes[0] as usize & 0usize.wrapping_sub((side == 0) as usize);
        (start, n - self.eyes[side & 1] as usize)
    }
    /// The root of the chain on `sq` (which holds a piece).
    #[inline(always)]
    pub fn root(&self, sq: usize) -> usize {
        self.pts[sq].root as usize
    }
    /// Adds `sq` to the liberties of the chain rooted at `r`: to its count, and with `SUMS` to
    /// the sums that tell where a chain in atari has its liberty (kept only where the chains are
    /// [tracked](Chains::track): nothing else reads them).
    #[inline(always)]
    fn add_lib<const SUMS: bool>(&mut self, r: usize, sq: usize) {
        let p = &mut self.pts[r];
        p.lib_cnt = p.lib_cnt.wrapping_add(1);
        if SUMS {
            p.lib_sum = p.lib_sum.wrapping_add(sq as u32);
            p.lib_sq = p.lib_sq.wrapping_add((sq * sq) as u32);
        }
    }
    /// Takes `sq` off the liberties of the chain rooted at `r` (as [`Chains::add_lib`] adds it).
    #[inline(always)]
    fn take_lib<const SUMS: bool>(&mut self, r: usize, sq: usize) {
        let p = &mut self.pts[r];
        p.lib_cnt = p.lib_cnt.wrapping_sub(1);
        if SUMS {
            p.lib_sum = p.lib_sum.wrapping_sub(sq as u32);
            p.lib_sq = p.lib_sq.wrapping_sub((sq * sq) as u32);
        }
    }
    /// Counts the liberties of every chain, and their sums, from the board.
    fn count_liberties(&mut self, neighbours: &[[u16; 4]]) {
        for sq in 0..=self.border {
            let p = &mut self.pts[sq];
            (p.lib_cnt, p.lib_sum, p.lib_sq) = (0, 0, 0);
        }
        for (sq, nbrs) in neighbours[..self.border].iter().enumerate() {
            if self.color[sq] != EMPTY {
                let r = self.root(sq);
                for &m in nbrs {
                    if self.color[m as usize] == EMPTY {
                        self.add_lib::<true>(r, m as usize);
                    }
                }
            }
        }
    }
    /// Zeroes the border point's liberty counts, which code without branches adds to and takes
    /// from for empty points and the edge (their chain is the border point): it is never in atari
    /// and has no liberty.
    #[inline(always)]
    fn clear_border(&mut self) {
        let p = &mut self.pts[self.border];
        (p.lib_cnt, p.lib_sum, p.lib_sq) = (0, 0, 0);
    }
    /// Does the chain rooted at `r` have exactly one liberty (counted with multiplicity or not)?
    /// All pseudo-liberties are one point exactly when `sum² = count × sum of squares`.
    #[inline(always)]
    pub fn in_atari(&self, r: usize) -> bool {
        let p = &self.pts[r];
        let c = p.lib_cnt as u64;
        (c > 0) & (p.lib_sum as u64 * p.lib_sum as u64 == c * p.lib_sq as u64)
    }
    /// The one liberty of the chain rooted at `r`, where it is [in atari](Chains::in_atari)
    /// (anything elsewhere): every pseudo-liberty is that point, so their sum is it times their
    /// count, which is at most 4 (one per stone beside the point). Divided by a multiply by the
    /// count's reciprocal, exact for any point under 2¹⁵ (boards have at most 676).
    #[inline(always)]
    fn single_liberty(&self, r: usize) -> u16 {
        /// 2¹⁶ / count, rounded up.
        const RECIPROCAL: [u32; 8] = [0, 1 << 16, 1 << 15, 21_846, 1 << 14, 0, 0, 0];
        let p = &self.pts[r];
        (p.lib_sum.wrapping_mul(RECIPROCAL[(p.lib_cnt & 7) as usize]) >> 16) as u16
    }
    /// Adds `p` to the dirty points if `cond`, without a branch on it (it predicts badly).
    #[inline(always)]
    fn dirty_if(&mut self, p: u16, cond: bool) {
        let n = self.dirty.len();
        self.dirty.push(p);
        self.dirty.truncate(n + cond as usize);
    }
    /// Marks the liberty of the chain rooted at `r` dirty if `cond` holds and the chain is in
    /// atari: the one point where a placement captures it, or where one of its own side's has no
    /// air from it. Without a branch on either.
    #[inline(always)]
    fn dirty_liberty_if(&mut self, r: usize, cond: bool) {
        let l = self.single_liberty(r);
        self.dirty_if(l, cond & self.in_atari(r));
    }
    #[inline(always)]
    pub fn has_liberty(&self, r: usize) -> bool {
        self.pts[r].lib_cnt > 0
    }
    /// Is `sq` an eye of the side whose colour is `own` (every neighbour its stone or the border)?
    #[inline(always)]
    fn own_eye(&self, sq: usize, own: u8) -> bool {
        let shift = if own == 1 { NBR_FIRST } else { NBR_SECOND };
        (self.nbr[sq] >> shift) & 15 == 4
    }
    /// Has the point `sq` an empty neighbour?
    #[inline(always)]
    fn has_empty_neighbour(&self, sq: usize) -> bool {
        (self.nbr[sq] >> NBR_EMPTY) & 15 != 0
    }
    /// Has a capture emptied `sq` (see [`VACATED`])?
    #[inline(always)]
    #[cfg(test)]
    fn vacated(&self, sq: usize) -> bool {
        self.nbr[sq] & VACATED != 0
    }
    /// Has a capture lifted a stone of colour `own` (1 + side) from `sq`, so that a placement
    /// of that side there may repeat an earlier board (see [`VACATED`])?
    #[inline(always)]
    fn vacated_by(&self, sq: usize, own: u8) -> bool {
        self.nbr[sq] & vacated_of(own) != 0
    }
    /// Takes a stone of colour `own` off `sq` from its neighbours' counts.
    #[inline(always)]
    fn count_lifted(&mut self, nbrs: [u16; 4], own: u8) {
        let d = NBR_PLACE[own as usize];
        for m in nbrs {
            self.nbr[m as usize] = self.nbr[m as usize].wrapping_sub(d);
        }
    }
    /// Counts every point's neighbours from the colours (after a load).
    fn count_neighbours(&mut self, neighbours: &[[u16; 4]]) {
        // FNV-1a over the points' neighbours, never 0 (the key of chains without them).
        let mut key = 0xcbf2_9ce4_8422_2325u64;
        for (sq, nbrs) in neighbours[..self.border].iter().enumerate() {
            self.nb[sq] = *nbrs;
            for &m in nbrs {
                key = (key ^ u64::from(m)).wrapping_mul(0x0000_0100_0000_01b3);
            }
            let counts: u16 = nbrs.iter().map(|&m| NBR_OF[self.color[m as usize] as usize]).sum();
            self.nbr[sq] = counts | (self.nbr[sq] & VACATED);
        }
        self.nb_key = key | 1;
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
        let mut ch = Chains::<B>::new(n);
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
                ch.pts[sq].hash ^= self.t.z_piece.key(self.cells[s], s);
                for &m in &self.t.neighbours[s] {
                    if ch.color[m as usize] == EMPTY {
                        ch.add_lib::<true>(sq, m as usize);
                    }
                }
            }
            ch.pts[sq].size = members.len() as u16;
        }
        ch.count_neighbours(&self.t.neighbours);
        ch.sort_eyes();
        for sq in self.vacated.iter().filter(|&sq| sq < n) {
            ch.nbr[sq] |= VACATED;
        }
        self.chains = Some(Box::new(ch));
        self.takes = [B::EMPTY; 2];
        self.airless = [B::EMPTY; 2];
    }

    /// Starts or stops keeping [`Pos::airless`] and [`Pos::takes`] (see [`Chains::track`]);
    /// from scratch when started.
    pub fn track_atari(&mut self, on: bool) {
        let Some(mut ch) = self.chains.take() else { return };
        ch.track = on;
        self.takes = [B::EMPTY; 2];
        self.airless = [B::EMPTY; 2];
        if on {
            // Untracked, the chains kept their liberties' counts but not their sums.
            ch.count_liberties(&self.t.neighbours);
            let stones = self.side_bb[0] | self.side_bb[1];
            let mut in_atari = B::EMPTY;
            for sq in stones.iter() {
                if ch.in_atari(ch.root(sq)) {
                    in_atari.set(sq);
                }
            }
            // Only a point without an empty neighbour can lack air, and only one beside a chain
            // in atari captures: the rest keep the sets' empty bits.
            // Empty as the chains see it (a wall's point included, as `Chains::empty` has it).
            let empty = !stones & self.t.board_mask;
            let look = match &self.t.adjacent {
                Some(dirs) => empty & (!beside(dirs, empty) | beside(dirs, in_atari)),
                None => empty,
            };
            for sq in look.iter() {
                self.rule_on_air(&ch, sq);
            }
        }
        self.chains = Some(ch);
    }

    /// Do the neighbour counts, the border point's empty liberty counts, and (where tracked) the
    /// airless and capture sets hold what a count from scratch finds?
    #[cfg(test)]
    pub(crate) fn atari_sets_hold(&self) -> bool {
        let Some(ch) = self.chains.as_deref() else { return true };
        let mut counted = ch.clone();
        counted.count_neighbours(&self.t.neighbours);
        let border = &ch.pts[self.t.squares];
        if counted.nbr.as_slice()[..self.t.squares] != ch.nbr.as_slice()[..self.t.squares]
            || (border.lib_cnt, border.lib_sum, border.lib_sq) != (0, 0, 0)
        {
            return false;
        }
        if !ch.track {
            return true;
        }
        let mut fresh = self.clone();
        fresh.track_atari(true);
        fresh.takes == self.takes && fresh.airless == self.airless
    }

    /// Do the chains hold what a rebuild from the board finds: the same colours, neighbour counts
    /// (and no point marked emptied by a capture that [`Pos::vacated`] lacks) and empty points, the same stones in each chain, and the same liberties, size and key at
    /// each chain's root (the root itself may differ)?
    #[cfg(test)]
    pub(crate) fn chains_match_rebuild(&self) -> bool {
        let Some(ch) = self.chains.as_deref() else { return true };
        let mut fresh = self.clone();
        fresh.rebuild_chains();
        let re = fresh.chains.as_deref().expect("rebuilt");
        let n = self.t.squares;
        let sorted = |c: &Chains<B>, sq: usize| {
            let mut v = c.stones(c.root(sq));
            v.sort_unstable();
            v
        };
        // The liberties' sums are kept only where tracked.
        let chain = |c: &Chains<B>, sq: usize| {
            let p = &c.pts[c.root(sq)];
            let sums = if ch.track { (p.lib_sum, p.lib_sq) } else { (0, 0) };
            (p.lib_cnt, sums, p.size, p.hash)
        };
        let mut empty = ch.empty_points().to_vec();
        let mut empty_re = re.empty_points().to_vec();
        empty.sort_unstable();
        empty_re.sort_unstable();
        // (An unmake leaves `vacated` a superset of what the chains mark: harmless, see there.)
        ch.empty_points()
            .iter()
            .all(|&sq| ch.eye_part(sq as usize) == ch.eye_of(sq as usize))
            && (0..=n).all(|sq| ch.color[sq] == re.color[sq])
            && (0..n).all(|sq| ch.nbr[sq] & !VACATED == re.nbr[sq] & !VACATED && (!ch.vacated(sq) || self.vacated.has(sq)))
            && empty == empty_re
            && ch
                .empty_points()
                .iter()
                .enumerate()
                .all(|(i, &sq)| ch.empty_at[sq as usize] as usize == i)
            && (0..n)
                .filter(|&sq| ch.color[sq] != EMPTY)
                .all(|sq| sorted(ch, sq) == sorted(re, sq) && chain(ch, sq) == chain(re, sq))
    }

    /// Rules on the empty point `sq` for [`Pos::airless`] and [`Pos::takes`], from its neighbours'
    /// colours and whether their chains are in atari.
    #[inline(always)]
    fn rule_on_air(&mut self, ch: &Chains<B>, sq: usize) {
        // Per neighbour, by its colour and whether its chain is in atari, which sides it gives air
        // (bit 0 the first side, bit 1 the second) and which sides a placement beside it
        // captures (bits 2 and 3): an empty point gives both air; a chain gives its own side air
        // when out of atari, and the other side a capture (so air) when in it.
        const AIR: [u8; 8] = [0b0011, 0b0011, 0b0001, 0b1010, 0b0010, 0b0101, 0, 0];
        let mut air = 0u8;
        for m in self.t.neighbours[sq] {
            let m = m as usize;
            // An empty point's and the edge's chain is the border point, never in atari.
            air |= AIR[((ch.color[m] & 3) << 1 | ch.in_atari(ch.root(m)) as u8) as usize];
        }
        self.airless[0].assign(sq, air & 1 == 0);
        self.airless[1].assign(sq, air & 2 == 0);
        self.takes[0].assign(sq, air & 4 != 0);
        self.takes[1].assign(sq, air & 8 != 0);
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
        }
    }

    /// The ruling on placing `kind` on `sq` with chains `ch` (which stand for `self.chains`).
    /// With `eyes`, a point whose neighbours are all the mover's own or the edge is `OwnEye`.
    #[inline(always)]
    pub(super) fn place_verdict(&self, ch: &Chains<B>, kind: KindId, sq: usize, eyes: bool) -> Verdict {
        self.place_verdict_as(ch, kind, sq, eyes, true)
    }

    /// [`Pos::place_verdict`], asking the repetition rule only with `repeats` (a caller that
    /// knows the board after a placement that keeps its stone is new; a permitted suicide is
    /// always looked up).
    #[inline(always)]
    fn place_verdict_as(&self, ch: &Chains<B>, kind: KindId, sq: usize, eyes: bool, repeats: bool) -> Verdict {
        let own = 1 + self.stm.0;
        if eyes && ch.own_eye(sq, own) {
            return Verdict::OwnEye;
        }
        // A placement can repeat an earlier board only on a point a capture has emptied of the
        // mover's stone since (that board had it there); beside an empty point it is never suicide.
        let again = repeats && self.t.repetition.is_some() && ch.vacated_by(sq, own);
        let mut liberty = ch.has_empty_neighbour(sq);
        if !again && liberty {
            return Verdict::Legal;
        }
        // Without a branch on what each neighbour holds. A neighbour's chain has this point as
        // its one liberty when its pseudo-liberties number its stones beside the point (each
        // counts the point once): no sums needed, so this holds tracked or not. An empty
        // point's and the edge's chain is the border point, with no liberty: never in atari.
        let enemy = 3 - own;
        let nbrs = ch.nb[sq];
        let roots = nbrs.map(|m| ch.root(m as usize));
        let mut takes = 0u32;
        for (i, &m) in nbrs.iter().enumerate() {
            let c = ch.color[m as usize];
            let beside = roots.iter().map(|&r| (r == roots[i]) as u16).sum::<u16>();
            let atari = ch.pts[roots[i]].lib_cnt == beside;
            liberty |= (c == own) & !atari;
            takes |= (((c == enemy) & atari) as u32) << i;
        }
        if !(liberty | (takes != 0)) {
            return self.no_liberty_verdict(ch, sq);
        }
        if again && self.board_recorded(self.board_after(ch, kind, sq, takes)) {
            return Verdict::Illegal("repetition");
        }
        Verdict::Legal
    }

    /// [`Pos::place_verdict`] with `eyes`, untracked, for a random player's drawn point: on the
    /// other side's eye (a third of the draws refused on 19 × 19) without asking what each
    /// neighbour holds. The point is drawn from [`Chains::drawable`], which holds none of the
    /// mover's own eyes: that is not asked again.
    #[inline(always)]
    pub(super) fn drawn_verdict(&self, ch: &Chains<B>, kind: KindId, sq: usize) -> Verdict {
        debug_assert!(
            !ch.own_eye(sq, 1 + self.stm.0) || ch.own_eye(sq, 2 - self.stm.0),
            "an own eye drawn"
        );
        let verdict = if ch.own_eye(sq, 2 - self.stm.0) {
            self.enemy_eye_verdict(ch, kind, sq)
        } else {
            self.place_verdict(ch, kind, sq, false)
        };
        debug_assert_eq!(
            matches!(verdict, Verdict::Legal),
            matches!(self.place_verdict(ch, kind, sq, true), Verdict::Legal),
            "the ruling on an eye of the other side's"
        );
        verdict
    }

    /// [`Pos::place_verdict`] on a point that is the other side's eye (every neighbour its stone
    /// or the edge): the placement is legal only where it captures, a neighbour's chain having
    /// the point as its one liberty, and then may repeat a board only where a capture emptied
    /// the point of the mover's stone.
    #[inline(always)]
    fn enemy_eye_verdict(&self, ch: &Chains<B>, kind: KindId, sq: usize) -> Verdict {
        let nbrs = ch.nb[sq];
        let roots = nbrs.map(|m| ch.root(m as usize));
        let mut takes = 0u32;
        for i in 0..4 {
            let beside = roots.iter().map(|&r| (r == roots[i]) as u16).sum::<u16>();
            // (The edge's chain is the border point, with no liberty: never taken.)
            takes |= ((ch.pts[roots[i]].lib_cnt == beside) as u32) << i;
        }
        if takes == 0 {
            return self.no_liberty_verdict(ch, sq);
        }
        if self.t.repetition.is_some() && ch.vacated_by(sq, 1 + self.stm.0) && self.board_recorded(self.board_after(ch, kind, sq, takes)) {
            return Verdict::Illegal("repetition");
        }
        Verdict::Legal
    }

    /// The hash of the board after the side to move places `kind` on `sq` and takes the chains
    /// beside it that `takes` names (a bit per neighbour, in the order of the point's neighbours).
    #[inline(always)]
    fn board_after(&self, ch: &Chains<B>, kind: KindId, sq: usize, mut takes: u32) -> u64 {
        let nbrs = ch.nb[sq];
        let mut board = self.board_hash() ^ self.t.z_piece.key(cell(kind, self.stm), sq);
        let mut taken = [NO_SQ; 4];
        while takes != 0 {
            let i = takes.trailing_zeros() as usize;
            takes &= takes - 1;
            // A chain beside the point twice is taken once.
            let r = ch.root(nbrs[i] as usize) as u16;
            if !taken.contains(&r) {
                board ^= ch.hash(r as usize);
                taken[i] = r;
            }
        }
        board
    }

    /// [`Pos::place_verdict`] with `eyes`, where the chains are [tracked](Chains::track): a point
    /// without air is [`Pos::airless`], and a placement can repeat a board only on a point a
    /// capture has emptied of the mover's stone (looked up in the record only there).
    #[inline(always)]
    fn place_verdict_tracked(&self, ch: &Chains<B>, kind: KindId, sq: usize) -> Verdict {
        if ch.own_eye(sq, 1 + self.stm.0) {
            return Verdict::OwnEye;
        }
        if self.airless[self.stm.index()].has(sq) {
            return self.no_liberty_verdict(ch, sq);
        }
        if self.t.repetition.is_some() && ch.vacated_by(sq, 1 + self.stm.0) {
            let repeats = if self.takes[self.stm.index()].has(sq) {
                self.capture_repeats(ch, kind, sq)
            } else {
                self.board_recorded(self.board_hash() ^ self.t.z_piece.key(cell(kind, self.stm), sq))
            };
            if repeats {
                return Verdict::Illegal("repetition");
            }
        }
        Verdict::Legal
    }

    /// The ruling on a placement on `sq` that leaves its chain no liberty and captures nothing.
    /// A permitted suicide lifts the new stone with the mover's chains beside it: what a caller
    /// knows of the boards after placements does not cover it, so the record is asked whatever
    /// the point (see [`Pos::board_after_suicide`]).
    #[inline(always)]
    fn no_liberty_verdict(&self, ch: &Chains<B>, sq: usize) -> Verdict {
        match (self.t.suicide_forbidden, self.t.repetition.is_some()) {
            (true, _) => Verdict::Illegal("suicide"),
            (false, true) if self.board_recorded(self.board_after_suicide(ch, sq)) => Verdict::Illegal("repetition"),
            (false, _) => Verdict::Legal,
        }
    }

    /// The hash of the board after the side to move commits suicide on `sq` (no liberty, nothing
    /// captured): its stone and every chain of its own beside the point (each was in atari there,
    /// or the stone would have a liberty) are lifted, so the board is this one without those
    /// chains. A single stone's suicide leaves the board as it is.
    #[cold]
    fn board_after_suicide(&self, ch: &Chains<B>, sq: usize) -> u64 {
        let own = 1 + self.stm.0;
        let mut board = self.board_hash();
        let mut lifted = [NO_SQ; 4];
        for (i, &m) in ch.nb[sq].iter().enumerate() {
            if ch.color[m as usize] == own {
                // A chain beside the point twice is lifted once.
                let r = ch.root(m as usize) as u16;
                if !lifted.contains(&r) {
                    board ^= ch.hash(r as usize);
                    lifted[i] = r;
                }
            }
        }
        board
    }

    /// Would the board `board`, reached by a placement of the side to move, break the repetition
    /// rule?
    #[inline(always)]
    fn board_recorded(&self, board: u64) -> bool {
        self.seen_before(self.repetition_key_for(board, self.stm.other()))
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

    /// Places a piece and resolves captures. Returns the number of pieces captured.
    pub fn make_place(&mut self, kind: KindId, sq: usize) -> u32 {
        match self.chains.take() {
            Some(mut ch) => {
                let captured = if ch.track {
                    self.place_in::<true>(&mut ch, kind, sq)
                } else {
                    self.place_in::<false>(&mut ch, kind, sq)
                };
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
    /// not read): the playout loop keeps them in a local while it runs. `TRACK` is
    /// [`Chains::track`], a constant so that the playouts' loop carries none of the tracking's work.
    #[inline(always)]
    pub(super) fn place_in<const TRACK: bool>(&mut self, ch: &mut Chains<B>, kind: KindId, sq: usize) -> u32 {
        let us = self.stm;
        let c = cell(kind, us);
        self.put(sq, kind, us);
        let own = 1 + us.0;
        ch.remove_empty(sq);
        ch.color[sq] = own;
        let nbrs = ch.nb[sq];
        // The stone counted in its neighbours' counts. A point beside this one left
        // with only the mover's stones and the edge around is its eye now (the chains beside it
        // may be captured below, but those are the other side's).
        let d = NBR_PLACE[own as usize];
        let shift = if own == 1 { NBR_FIRST } else { NBR_SECOND };
        let (field, four) = (15 << shift, 4 << shift);
        let mut eyes = 0u32;
        for (i, &m) in nbrs.iter().enumerate() {
            // The border point's counts are never read: they may wrap.
            let v = ch.nbr[m as usize].wrapping_add(d);
            ch.nbr[m as usize] = v;
            // (Not a stone whose neighbours are all the mover's: most such counts are those.)
            eyes |= (((v & field == four) & (ch.color[m as usize] == EMPTY)) as u32) << i;
        }
        while eyes != 0 {
            let m = nbrs[eyes.trailing_zeros() as usize] as usize;
            eyes &= eyes - 1;
            // A point beside the new stone twice is moved once.
            if ch.eye_part(m).is_none() {
                ch.eye_in(m, us.index());
            }
        }
        // Without a branch on what each neighbour holds (it predicts badly): the empty ones are
        // the new stone's liberties, and every neighbour's chain loses this point as one. An
        // empty point's and the edge's chain is the border point, whose counts are zeroed after.
        let (mut cnt, mut sum, mut sqs) = (0u16, 0u32, 0u32);
        for &m in &nbrs {
            let m = m as usize;
            let e = (ch.color[m] == EMPTY) as u32;
            cnt += e as u16;
            sum += e * m as u32;
            sqs += e * (m * m) as u32;
            ch.take_lib::<TRACK>(ch.root(m), sq);
        }
        ch.clear_border();
        ch.pts[sq] = Point {
            root: sq as u16,
            next: sq as u16,
            size: 1,
            lib_cnt: cnt,
            lib_sum: if TRACK { sum } else { 0 },
            lib_sq: if TRACK { sqs } else { 0 },
            hash: self.t.z_piece.key(c, sq),
        };
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
        if TRACK {
            // The empty points where what a placement does may have changed (`ch.dirty`, for
            // `airless` and `takes`): those a capture empties, the liberty of each chain whose
            // standing in atari changed, and those beside this one left without an empty
            // neighbour. A chain's standing bears only on its liberties, and one in atari has one;
            // a neighbour's chain in atari had this point as its liberty, so merged or captured
            // now it leaves none to rule on again. A point beside this one that keeps an empty
            // neighbour keeps its air, and what placing there captures changes only with a
            // chain's standing.
            for &m in &nbrs {
                ch.dirty_if(m, (ch.color[m as usize] == EMPTY) & !ch.has_empty_neighbour(m as usize));
            }
            self.airless[0].clear(sq);
            self.airless[1].clear(sq);
            self.takes[0].clear(sq);
            self.takes[1].clear(sq);
        }
        if own_mask != 0 {
            // The stone joins the chain of its first own neighbour (no list walked for it), then
            // any other own chain beside it is merged into that one.
            let r = ch.root(nbrs[own_mask.trailing_zeros() as usize] as usize);
            own_mask &= own_mask - 1;
            join(ch, r, sq);
            while own_mask != 0 {
                let m = nbrs[own_mask.trailing_zeros() as usize] as usize;
                own_mask &= own_mask - 1;
                let (a, b) = (ch.root(sq), ch.root(m));
                if a != b {
                    merge(ch, a, b);
                }
            }
        }
        let mut captured = 0;
        while dead_mask != 0 {
            let m = nbrs[dead_mask.trailing_zeros() as usize] as usize;
            dead_mask &= dead_mask - 1;
            // A chain touching the point twice is gone (its points empty) the second time.
            if ch.color[m] == enemy {
                let r = ch.root(m);
                captured += self.capture_chain::<TRACK>(ch, r);
            }
        }
        let mine = ch.root(sq);
        if !ch.has_liberty(mine) {
            captured += self.capture_chain::<TRACK>(ch, mine);
        }
        if TRACK {
            // The enemy chains beside the point lost a liberty, and may be in atari now (they
            // were not before: their liberty was this point); so may the new chain.
            // (The border point, an empty point's chain, is never in atari; nor is the own chain's
            // root after a suicide, where the point is empty again.)
            for &m in &nbrs {
                let r = ch.root(m as usize);
                ch.dirty_liberty_if(r, ch.color[m as usize] == enemy);
            }
            ch.dirty_liberty_if(ch.root(sq), true);
            // Every dirty point is empty: those beside this point and the liberties were empty
            // when marked, and only captures followed.
            for i in 0..ch.dirty.len() {
                let p = ch.dirty[i] as usize;
                debug_assert_eq!(ch.color[p], EMPTY);
                self.rule_on_air(ch, p);
            }
            ch.dirty.clear();
        }
        captured
    }

    /// Lifts the chain rooted at `r` (its points are dirty, and the liberty of each chain beside
    /// it that leaves atari: see [`Pos::place_in`]).
    fn capture_chain<const TRACK: bool>(&mut self, ch: &mut Chains<B>, r: usize) -> u32 {
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
            self.vacated.set(s);
            ch.nbr[s] |= vacated_of(ch.color[s]);
            if TRACK {
                ch.dirty.push(s as u16);
            }
            ch.count_lifted(ch.nb[s], ch.color[s]);
            ch.color[s] = EMPTY;
            ch.pts[s].root = self.t.squares as u16;
            ch.add_empty(s);
            count += 1;
            s = ch.pts[s].next as usize;
            if s == r {
                break;
            }
        }
        // The chain had no liberty: the only empty points beside its stones are its own, all
        // dirty already. So no eye was beside it (an eye beside a chain is its liberty), and each
        // of its points may be an eye of the other side's now.
        let mut s = r;
        loop {
            let nbrs = ch.nb[s];
            if let Some(side) = ch.eye_of(s) {
                ch.eye_in(s, side);
            }
            for m in nbrs {
                // Without a branch: an empty point's and the edge's chain is the border point,
                // whose counts are zeroed after.
                let rr = ch.root(m as usize);
                if TRACK {
                    // A chain in atari leaves it: its liberty is ruled on again. (Not the border
                    // point's counts, which this loop adds to until they are zeroed.)
                    let c = ch.color[m as usize];
                    let stone = (c != EMPTY) & (c != BORDER);
                    ch.dirty_liberty_if(rr, stone);
                }
                ch.add_lib::<TRACK>(rr, s);
            }
            s = ch.pts[s].next as usize;
            if s == r {
                break;
            }
        }
        ch.clear_border();
        count
    }

    /// Records the position after a move for repetition rules.
    #[inline]
    pub fn push_history(&mut self) {
        self.push_history_inlined();
    }

    /// [`Pos::push_history`], always inlined: for the playouts' and the runs' loops, where a
    /// call costs as much as the work (`make` leaves the choice to the compiler).
    #[inline(always)]
    pub(super) fn push_history_inlined(&mut self) {
        if self.t.repetition.is_some() {
            let key = self.repetition_key_for(self.board_hash(), self.stm);
            self.history.push(key);
            self.seen.add(key);
        }
    }

    /// Is `sq` a single-point eye of the side to move (see [`super::Position::fills_own_eye`])?
    pub fn fills_own_eye(&self, sq: usize) -> bool {
        let Some(ch) = self.chains.as_deref() else { return false };
        sq < self.t.squares && ch.color[sq] == EMPTY && ch.own_eye(sq, 1 + self.stm.0)
    }

    /// The chain containing `sq` (empty if none).
    pub fn chain_at(&self, sq: usize) -> Vec<usize> {
        match self.chains.as_deref() {
            Some(ch) if sq < self.t.squares && ch.color[sq] != EMPTY => ch.stones(ch.root(sq)),
            _ => Vec::new(),
        }
    }
}

/// Which placements of the side to move may repeat an earlier board, as far as the caller knows
/// (see [`Pos::count_chain_moves`]): it knows what every earlier board of the record held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeats {
    /// Any placement on a point a capture emptied (all the position itself can tell).
    Anywhere,
    /// Only one that captures: no earlier board has the counts of stones a placement that takes
    /// nothing would leave.
    ByCapture,
    /// None: no earlier board has as many of the mover's stones as any placement would leave.
    Nowhere,
}

impl<B: Bits> Pos<B> {
    /// The number of legal moves here, counted without listing them, in a game that captures
    /// chains and whose moves are placements (each clause's targets settled set-wise) and the
    /// pass; `None` in any other. A placement on a point with an empty neighbour is never
    /// suicide, and it can repeat an earlier board only where a capture has emptied the point since
    /// (the earlier board had a stone there, and only a capture lifts one): so only the points with
    /// no empty neighbour, and under a repetition rule the [`vacated`](Pos::vacated) ones, are ruled
    /// on one at a time; fewer where `repeats` says the record cannot hold the board a placement
    /// makes.
    pub fn count_chain_moves(&self, repeats: Repeats) -> Option<usize> {
        let t = &*self.t;
        let us = self.stm.index();
        if !self.only_placements() {
            return None;
        }
        let (own, enemy) = (self.side_bb[us], self.side_bb[1 - us]);
        let empty = !(own | enemy | self.walls) & t.board_mask;
        let ch = self.chains.as_deref()?;
        let mut n = if ch.track {
            self.count_tracked(repeats, empty, own, enemy)?
        } else {
            self.count_untracked(ch, repeats, empty, own, enemy)?
        };
        if t.pass && (!t.pass_only_when_stuck || n == 0) {
            n += 1;
        }
        Some(n)
    }

    /// [`Pos::count_chain_moves`] where the chains are not tracked: each point without an empty
    /// neighbour, and each a capture has emptied, is ruled on alone. Counts the placements only.
    fn count_untracked(&self, ch: &Chains<B>, repeats: Repeats, empty: B, own: B, enemy: B) -> Option<usize> {
        let t = &*self.t;
        let open = match &t.adjacent {
            Some(dirs) => beside(dirs, empty) & empty,
            None => B::EMPTY,
        };
        // Points where the placement may be suicide.
        let closed = empty & !open;
        // Points where the placement may repeat a board.
        let again = match (t.repetition, repeats, &t.adjacent) {
            (None, ..) | (_, Repeats::Nowhere, _) => B::EMPTY,
            // A capture needs an enemy stone beside the point.
            (_, Repeats::ByCapture, Some(dirs)) => empty & self.vacated & beside(dirs, enemy),
            _ => empty & self.vacated,
        };
        self.sum_over_clauses(empty, own, enemy, |f, targets| {
            let mut n = targets.count() as usize;
            for to in (targets & again).iter() {
                n -= self.place_problem(f.kind, to).is_some() as usize;
            }
            for to in (targets & closed & !again).iter() {
                n -= matches!(self.place_verdict_as(ch, f.kind, to, false, false), Verdict::Illegal(_)) as usize;
            }
            n
        })
    }

    /// The sum of `count` over the side to move's placing clauses that apply here, each given
    /// its targets; `None` where some clause's targets are not settled set-wise.
    #[inline(always)]
    fn sum_over_clauses(&self, empty: B, own: B, enemy: B, mut count: impl FnMut(&CForm<B>, B) -> usize) -> Option<usize> {
        let t = &*self.t;
        let mut n = 0;
        for f in &t.forms[self.stm.index()] {
            if t.gated && !self.clause_applies(f) {
                continue;
            }
            n += count(f, self.placement_targets(f, empty, own, enemy)?);
        }
        Some(n)
    }

    /// [`Pos::count_chain_moves`] where the chains are [tracked](Chains::track): the points where
    /// a placement leaves its chain no liberty are [`Pos::airless`]; only those a capture has
    /// emptied since are ruled on one at a time, and only where `repeats` says a board may come
    /// back. Counts the placements only.
    fn count_tracked(&self, repeats: Repeats, empty: B, own: B, enemy: B) -> Option<usize> {
        let t = &*self.t;
        let us = self.stm.index();
        let dead = self.airless[us];
        // Points where the placement may repeat a board: emptied by a capture since.
        let again = match (t.repetition, repeats) {
            (None, _) | (_, Repeats::Nowhere) => B::EMPTY,
            _ => empty & self.vacated & !dead,
        };
        let takes = self.takes[us];
        let ch = self.chains.as_deref()?;
        self.sum_over_clauses(empty, own, enemy, |f, targets| {
            let mut n = targets.count() as usize;
            if t.suicide_forbidden {
                n -= (targets & dead).count() as usize;
            } else if t.repetition.is_some() {
                // Permitted suicide: what it leaves is not a board the record's counts say.
                for to in (targets & dead).iter() {
                    n -= self.place_problem(f.kind, to).is_some() as usize;
                }
            }
            // A placement that captures can repeat a board whatever the counts say; one that
            // captures nothing leaves this board and its stone: one look at the record.
            for to in (targets & again & takes).iter() {
                n -= self.capture_repeats(ch, f.kind, to) as usize;
            }
            if repeats == Repeats::Anywhere {
                let board = self.board_hash();
                let z = t.z_piece.row(cell(f.kind, self.stm));
                for to in (targets & again & !takes).iter() {
                    n -= self.board_recorded(board ^ z[to]) as usize;
                }
            }
            n
        })
    }

    /// Would placing `kind` on `sq`, which captures (beside an enemy chain in atari, the chains
    /// [tracked](Chains::track)), make a board the repetition rule forbids?
    fn capture_repeats(&self, ch: &Chains<B>, kind: KindId, sq: usize) -> bool {
        let them = 2 - self.stm.0;
        // Which neighbours' chains it takes, without a branch on each.
        let mut takes = 0u32;
        for (i, &m) in ch.nb[sq].iter().enumerate() {
            let m = m as usize;
            takes |= (((ch.color[m] == them) & ch.in_atari(ch.root(m))) as u32) << i;
        }
        self.board_recorded(self.board_after(ch, kind, sq, takes))
    }

    /// Does the side to move of this chain game have only placements and the pass, with nothing
    /// (parts, obligations, the swap, a royal) that makes a move's legality depend on the others?
    pub(super) fn only_placements(&self) -> bool {
        let t = &*self.t;
        t.chains
            && t.parts.is_empty()
            && !t.overlapping
            && t.must_capture.is_none()
            && !t.swap
            && !t.royal_safety
            && t.facing.is_empty()
            && t.moving_forms[self.stm.index()] == 0
    }

    /// A move drawn uniformly from those a random player of a chain game chooses among (see
    /// [`crate::sim::Walk::candidates`]: a legal placement that does not fill a single-point eye
    /// of the mover's own, else the pass), by drawing empty points until one is such a placement;
    /// `scratch` holds the points not yet drawn. `None` where the game's moves are not all bare
    /// placements of one clause and the pass, or where only own eyes are left and the pass is not
    /// always allowed (the caller then lists the moves).
    pub fn random_chain_move(&self, rng: &mut impl rand_chacha::rand_core::RngCore, scratch: &mut Vec<u16>) -> Option<Move> {
        let t = &*self.t;
        let us = self.stm.index();
        let ch = self.chains.as_deref()?;
        if !self.only_placements() {
            return None;
        }
        let [f] = &t.forms[us][..] else { return None };
        if !f.bare_place || !matches!(f.how, Gen::Place) || (t.gated && !self.clause_applies(f)) {
            return None;
        }
        // The playouts' ruling on a point (`playout_chains`), with the chains left in place (from
        // what tracking keeps, where the chains are tracked).
        let chosen = |sq: usize| {
            f.within.has(sq)
                && match if ch.track {
                    self.place_verdict_tracked(ch, f.kind, sq)
                } else {
                    self.place_verdict(ch, f.kind, sq, true)
                } {
                    Verdict::Legal => true,
                    Verdict::Illegal(_) | Verdict::OwnEye => false,
                }
        };
        // Drawn as the playouts draw, among the points that are not the mover's own eyes: a
        // rejected point is swapped behind the live ones, so each draw is uniform over those not
        // yet rejected (in a copy: the position is not changed). The list is copied only once a
        // draw is refused: most first draws are taken.
        let (start, mut live) = ch.drawable(us);
        let drawable = &ch.empty_points()[start..start + live];
        if live > 0 {
            let i = below(rng, live);
            if chosen(drawable[i] as usize) {
                return Some(placement(drawable[i] as usize));
            }
            scratch.clear();
            scratch.extend_from_slice(drawable);
            live -= 1;
            scratch.swap(i, live);
        }
        while live > 0 {
            let i = below(rng, live);
            let sq = scratch[i] as usize;
            if chosen(sq) {
                return Some(placement(sq));
            }
            live -= 1;
            scratch.swap(i, live);
        }
        // No placement but those filling an own eye: the pass, where it is always allowed.
        (t.pass && !t.pass_only_when_stuck).then_some(PASS)
    }
}

impl<B: Bits> Pos<B> {
    /// Draws as [`Pos::random_chain_move`] does and plays the move drawn forward, as
    /// [`Pos::make_forward`] would but without its general path (a simulated game's random player,
    /// every ply): only where a turn is a bare placement or the pass and nothing else (no counts,
    /// phases or effects to keep; a placement takes nothing from a hand). `NotDrawn` where it is
    /// more: nothing drawn or played.
    pub fn play_random_chain_move(&mut self, rng: &mut impl rand_chacha::rand_core::RngCore, scratch: &mut Vec<u16>) -> RandomPly {
        let t = &*self.t;
        // What `make` does for a placement beyond placing and finishing: counts, phases, effects.
        if !t.tallies.is_empty() || !t.phase_ends.is_empty() {
            return RandomPly::NotDrawn;
        }
        let [f] = &t.forms[self.stm.index()][..] else {
            return RandomPly::NotDrawn;
        };
        if f.effects {
            return RandomPly::NotDrawn;
        }
        let (kind, within) = (f.kind, f.within);
        if self.chains.is_none()
            || !self.only_placements()
            || !f.bare_place
            || !matches!(f.how, Gen::Place)
            || (t.gated && !self.clause_applies(f))
        {
            // What `random_chain_move` draws nothing for (the caller lists the moves).
            return RandomPly::NotDrawn;
        }
        let pass = t.pass && !t.pass_only_when_stuck;
        let anywhere = (t.board_mask & !within).is_empty();
        let Some(mut ch) = self.chains.take() else {
            return RandomPly::NotDrawn;
        };
        if scratch.len() <= ch.empty_points().len() {
            scratch.resize(ch.empty_points().len() + 1, 0);
        }
        // Spelled out each way: a shared helper, inlined or not, measured 7 % slower here.
        let played = if ch.track {
            let drawn = self.draw_chain_point::<true>(&mut ch, rng, (kind, within, anywhere), scratch);
            (drawn.is_some() || pass).then(|| self.play_drawn::<true>(&mut ch, kind, drawn).0)
        } else {
            let drawn = self.draw_chain_point::<false>(&mut ch, rng, (kind, within, anywhere), scratch);
            (drawn.is_some() || pass).then(|| self.play_drawn::<false>(&mut ch, kind, drawn).0)
        };
        self.chains = Some(ch);
        played.map_or(RandomPly::Exhausted, RandomPly::Played)
    }

    /// Plays a random player's ply with the chains held apart as `ch`: the placement of `kind`
    /// on the point drawn, or the pass where none was (what `make` does for such a ply). Returns
    /// the move and the pieces the placement captured. `TRACK` is [`Chains::track`], as for
    /// [`Pos::place_in`].
    #[inline(always)]
    pub(super) fn play_drawn<const TRACK: bool>(&mut self, ch: &mut Chains<B>, kind: KindId, drawn: Option<usize>) -> (Move, u32) {
        self.last_captured = 0;
        self.ep = B::EMPTY;
        self.ep_victim = NO_SQ;
        let Some(sq) = drawn else {
            self.finish_move(None, false);
            return (PASS, 0);
        };
        debug_assert_eq!(TRACK, ch.track);
        let captured = self.place_in::<TRACK>(ch, kind, sq);
        self.finish_move(Some(kind), captured > 0);
        (placement(sq), captured)
    }
}

impl<B: Bits> Pos<B> {
    /// The point [`Pos::random_chain_move`] draws for placing `kind` within `within` (the
    /// clause's; not asked where the clause places `anywhere` on the board), drawn the same way
    /// but in the list of empty points of `ch` (the position's chains, held apart) rather than in
    /// a copy: a refused point is swapped behind the live ones, and once a point is taken every
    /// swap is undone (written into `undo`, which has room for a swap per empty point), so the
    /// list is left as it was. `None` where every point is refused. `TRACK` is [`Chains::track`].
    #[inline(always)]
    pub(super) fn draw_chain_point<const TRACK: bool>(
        &mut self,
        ch: &mut Box<Chains<B>>,
        rng: &mut impl rand_chacha::rand_core::RngCore,
        (kind, within, anywhere): (KindId, B, bool),
        undo: &mut [u16],
    ) -> Option<usize> {
        let mut k = 0;
        let (start, mut live) = ch.drawable(self.stm.index());
        let mut found = None;
        while live > 0 {
            let i = below(rng, live);
            let sq = ch.empty_at_index(start + i);
            let taken = (anywhere || within.has(sq))
                && match if TRACK {
                    self.place_verdict_tracked(ch, kind, sq)
                } else {
                    self.drawn_verdict(ch, kind, sq)
                } {
                    Verdict::Legal => true,
                    Verdict::Illegal(_) | Verdict::OwnEye => false,
                };
            if taken {
                found = Some(sq);
                break;
            }
            live -= 1;
            ch.swap_drawn(start + i, start + live);
            undo[k] = i as u16;
            k += 1;
        }
        if k > 0 {
            let (start, live) = ch.drawable(self.stm.index());
            unswap(ch.empty_part(start, live), &undo[..k]);
        }
        found
    }
}

/// The placement on `sq` by a chain game's one placing clause, as a random player draws it.
fn placement(sq: usize) -> Move {
    Move {
        from: NO_SQ,
        to: sq as u16,
        kind: MoveKind::Place(0),
        promo: 0,
        route: 0,
    }
}

/// Undoes the swaps `undo` records, in the part of the list of empty points drawn from, where
/// the k-th refused draw swapped its slot with slot `len - 1 - k` (see [`Pos::draw_chain_point`]).
#[inline(always)]
pub(super) fn unswap(empty: &mut [u16], undo: &[u16]) {
    let n = empty.len();
    for (k, &i) in undo.iter().enumerate().rev() {
        empty.swap(i as usize, n - 1 - k);
    }
}

/// What [`Pos::play_random_chain_move`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomPly {
    /// Drew this move and played it.
    Played(Move),
    /// Drew every point and found no placement but own eyes, where the pass is not always
    /// allowed: the caller chooses from the listed candidates, with the same generator.
    Exhausted,
    /// Drew nothing and played nothing: the turn here is more than a bare placement.
    NotDrawn,
}

impl<B: Bits> Pos<B> {
    /// Area counts as [`area_owners`](super::outcome) rules them, by whole sets: each side's
    /// stones, and the empty points that only its stones border (the empty points its stones
    /// reach through empty points and the other side's do not); points both or neither border
    /// count half to each. `None` where the board has squares that are not points, walls, or no
    /// neighbour rays.
    pub(crate) fn area_points(&self) -> Option<[f64; 2]> {
        let t = &*self.t;
        let dirs = t.adjacent.as_deref()?;
        if self.walls.any() || t.board_mask.count() as usize != t.squares {
            return None;
        }
        let empty = !(self.side_bb[0] | self.side_bb[1]) & t.board_mask;
        let reach = |stones: B| {
            let mut r = beside(dirs, stones) & empty;
            loop {
                let next = (r | beside(dirs, r)) & empty;
                if next == r {
                    return r;
                }
                r = next;
            }
        };
        let (first, second) = (reach(self.side_bb[0]), reach(self.side_bb[1]));
        let shared = f64::from((empty & !(first ^ second)).count()) / 2.0;
        Some([
            f64::from(self.side_bb[0].count() + (first & !second).count()) + shared,
            f64::from(self.side_bb[1].count() + (second & !first).count()) + shared,
        ])
    }
}

/// The points beside any of `x`, by the four neighbour rays.
#[inline(always)]
fn beside<B: Bits>(dirs: &[crate::compile::RayShift<B>], x: B) -> B {
    let mut out = B::EMPTY;
    for d in dirs {
        out |= d.back(x);
    }
    out
}

/// Adds the stone on `sq`, a chain of its own, to the chain rooted at `r` (as [`merge`] does, that
/// chain kept as the root whatever its size: the one stone's root is all there is to change).
#[inline(always)]
fn join<B: Bits>(ch: &mut Chains<B>, r: usize, sq: usize) {
    ch.pts[sq].root = r as u16;
    absorb(ch, r, sq);
}

fn merge<B: Bits>(ch: &mut Chains<B>, a: usize, b: usize) {
    let (big, small) = if ch.pts[a].size >= ch.pts[b].size { (a, b) } else { (b, a) };
    let mut s = small;
    loop {
        ch.pts[s].root = big as u16;
        s = ch.pts[s].next as usize;
        if s == small {
            break;
        }
    }
    absorb(ch, big, small);
}

/// Links the chain rooted at `small`, its stones already rooted at `big`, into `big`'s circular
/// list, and adds its size, liberties and key to `big`'s.
#[inline(always)]
fn absorb<B: Bits>(ch: &mut Chains<B>, big: usize, small: usize) {
    let (nb, ns) = (ch.pts[big].next, ch.pts[small].next);
    ch.pts[big].next = ns;
    ch.pts[small].next = nb;
    let sm = ch.pts[small];
    let p = &mut ch.pts[big];
    p.size += sm.size;
    p.lib_cnt += sm.lib_cnt;
    // (Untracked, the sums are not kept: what they hold then may wrap.)
    p.lib_sum = p.lib_sum.wrapping_add(sm.lib_sum);
    p.lib_sq = p.lib_sq.wrapping_add(sm.lib_sq);
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
#[derive(Debug, Default)]
pub struct KeySet {
    /// A key and its count (a count as wide as the key: a table without padding is zeroed in one
    /// `memset`).
    slots: Vec<(u64, u64)>,
    len: usize,
    zero: u32,
}

impl Clone for KeySet {
    fn clone(&self) -> Self {
        KeySet {
            slots: self.slots.clone(),
            len: self.len,
            zero: self.zero,
        }
    }

    /// Into the table already held (a playout's copy of its start, again and again). A table
    /// that a longer game grew past the source's is kept and refilled with the source's keys:
    /// copied whole, the next game would grow it again, entry by entry.
    fn clone_from(&mut self, source: &Self) {
        self.zero = source.zero;
        if self.slots.len() <= source.slots.len() {
            self.slots.clone_from(&source.slots);
            self.len = source.len;
            return;
        }
        self.slots.fill((0, 0));
        self.len = 0;
        for &(k, n) in source.slots.iter().filter(|e| e.0 != 0) {
            self.insert_new(k, n);
        }
    }
}

impl KeySet {
    /// The bytes the table holds on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<(u64, u64)>()
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
                return n as u32;
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
        // The keys set aside, the table is refilled in place: room held from an earlier, larger
        // table (see `clone_from`) is reused.
        let old: Vec<(u64, u64)> = self.slots.iter().copied().filter(|e| e.0 != 0).collect();
        self.slots.clear();
        self.slots.resize(cap, (0, 0));
        self.len = 0;
        for (k, n) in old {
            self.insert_new(k, n);
        }
    }

    /// Puts a key not in the table (and not 0) into it, counted `n` times, where there is room.
    fn insert_new(&mut self, k: u64, n: u64) {
        let mask = self.slots.len() - 1;
        let mut i = k as usize & mask;
        while self.slots[i].0 != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = (k, n);
        self.len += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{Chains, KeySet};
    use crate::game::bits::PointTable;
    use crate::game::{Engine, MoveKind};
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use std::collections::HashMap;

    #[test]
    fn area_counted_by_whole_sets_is_the_count_region_by_region() {
        let mut regions_both = 0;
        for size in [5, 9, 13, 19] {
            let e = go(size, None);
            for seed in 0..40u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut pos = e.start();
                // Part-way and at the end: open boards, territories, regions both sides border.
                pos.random_playout(&mut rng, (seed as usize * 7) % (size * size) + 1);
                for _ in 0..2 {
                    let mut slow = [0.0f64; 2];
                    let owners = crate::game::outcome::area_owners(&pos, &[]);
                    regions_both += owners.iter().any(Option::is_none) as usize;
                    for owner in owners {
                        match owner {
                            Some(s) => slow[s.index()] += 1.0,
                            None => {
                                slow[0] += 0.5;
                                slow[1] += 0.5;
                            }
                        }
                    }
                    assert_eq!(pos.area_points(), Some(slow), "{size}x{size} seed {seed}: {}", pos.fen());
                    assert_eq!(slow[0] + slow[1], (size * size) as f64);
                    pos.random_playout(&mut rng, 10_000);
                }
            }
        }
        assert!(regions_both > 0, "some board had points both sides border");
    }

    /// A start copied into a position that has played on (`clone_from`: a chain game's points
    /// alone, into tables and lists that keep their room) is the start again, and plays on as a
    /// fresh copy does: the same plies, board, hash and chains, playout after playout. A position
    /// of another width is replaced whole.
    #[test]
    fn a_start_copied_into_a_played_position_plays_as_a_fresh_copy() {
        for size in [9, 19] {
            let start = go(size, None).start();
            let mut reused = start.clone();
            for seed in 0..6u64 {
                reused.clone_from(&start);
                assert_eq!(
                    (reused.fen(), reused.hash()),
                    (start.fen(), start.hash()),
                    "{size}x{size} seed {seed}"
                );
                assert_eq!(record(&reused), record(&start), "{size}x{size} seed {seed}: the record");
                assert!(reused.chains_match_rebuild(), "{size}x{size} seed {seed}: copied");
                let mut fresh = start.clone();
                let a = reused.random_playout(&mut ChaCha8Rng::seed_from_u64(seed), 3 * size * size);
                let b = fresh.random_playout(&mut ChaCha8Rng::seed_from_u64(seed), 3 * size * size);
                assert!(a > size, "{size}x{size} seed {seed}: a playout of {a} plies");
                assert_eq!(
                    (a, reused.fen(), reused.hash()),
                    (b, fresh.fen(), fresh.hash()),
                    "{size}x{size} seed {seed}"
                );
                assert!(reused.chains_match_rebuild(), "{size}x{size} seed {seed}: played on");
            }
        }
        // The keys so far, and how often the counted set holds each and how many it holds.
        fn record(p: &crate::game::Position) -> (Vec<u64>, Vec<u32>, usize) {
            let of = |history: &[u64], seen: &KeySet| (history.to_vec(), history.iter().map(|&k| seen.count(k)).collect(), seen.len);
            match &p.inner {
                crate::game::Inner::Small(q) => of(&q.history, &q.seen),
                crate::game::Inner::Medium(q) => of(&q.history, &q.seen),
                crate::game::Inner::Large(q) => of(&q.history, &q.seen),
                crate::game::Inner::Huge(q) => of(&q.history, &q.seen),
            }
        }
        let chess = crate::sim::tests::engine("chess").start();
        let mut p = chess.clone();
        let go19 = go(19, None).start();
        p.clone_from(&go19);
        assert_eq!(p.fen(), go19.fen());
        p.clone_from(&chess);
        assert_eq!((p.fen(), p.legal_moves().len()), (chess.fen(), 20));
    }

    /// A snapshot for unmake is copied into chain tables an earlier unmake gave back, as far as the
    /// board's points go: after every move two plies deep is made and unmade, the chains are
    /// still what a rebuild from the board finds, on every width of board.
    #[test]
    fn chains_made_and_unmade_in_reused_tables_are_what_a_rebuild_finds() {
        let mut captures = 0;
        for size in [5, 9, 13, 19] {
            let e = go(size, None);
            for seed in 0..6u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut pos = e.start();
                // Part-way, where captures have happened and more are on the board.
                let plies = pos.random_playout(&mut rng, (seed as usize * 37) % (size * size) + size);
                // (A playout passes only at its end: fewer stones than plies less two is a capture.)
                captures += usize::from((pos.piece_counts().iter().sum::<u32>() as usize) + 2 < plies);
                assert!(pos.chains_match_rebuild(), "{size}x{size} seed {seed}: after the playout");
                let before = (pos.fen(), pos.hash());
                assert!(pos.perft_in_place(2) > 0);
                assert_eq!((pos.fen(), pos.hash()), before, "{size}x{size} seed {seed}");
                assert!(pos.chains_match_rebuild(), "{size}x{size} seed {seed}: after make and unmake");
                assert!(pos.atari_sets_hold(), "{size}x{size} seed {seed}");
            }
        }
        assert!(captures > 0, "some playout captured");
    }

    /// Where suicide is allowed under a repetition rule, the ruling on every placement is what
    /// making it shows: the board it leaves (after a suicide, without the stones it lifts) is
    /// compared, as FEN, with the boards of the game so far, under each rule and on boards small
    /// enough for suicides and repeats to be common.
    #[test]
    fn a_placement_is_refused_exactly_where_the_board_it_leaves_repeats() {
        let board = |p: &crate::game::Position| {
            let fen = p.fen();
            let mut fields = fen.split(' ');
            (fields.next().unwrap_or("").to_string(), fields.next().unwrap_or("").to_string())
        };
        let (mut refused, mut suicides, mut suicides_refused) = (0, 0, 0);
        for rules in [
            "forbid repetition positional",
            "forbid repetition situational",
            "forbid repetition ko",
        ] {
            for size in [3, 4, 5] {
                let e = go(size, Some(rules));
                for game in 0..30u64 {
                    let mut rng = ChaCha8Rng::seed_from_u64(game);
                    let mut pos = e.start();
                    // Each position of the game so far: its board, and the side to move.
                    let mut seen = vec![board(&pos)];
                    for ply in 0..4 * size * size {
                        let kind = crate::model::KindId(0);
                        let mut untracked = pos.clone();
                        untracked.track_atari(false);
                        for sq in (0..size * size).filter(|&sq| pos.piece_at(sq).is_none()) {
                            let mut after = pos.clone();
                            after.play_unchecked(super::placement(sq));
                            let (b, side) = board(&after);
                            let repeats = match rules {
                                "forbid repetition positional" => seen.iter().any(|(s, _)| *s == b),
                                "forbid repetition situational" => seen.iter().any(|(s, t)| *s == b && *t == side),
                                _ => seen.len() >= 2 && seen[seen.len() - 2].0 == b,
                            };
                            let suicide = after.piece_at(sq).is_none();
                            let at = format!("{rules}, {size}x{size}, game {game}, ply {ply}, point {sq}");
                            for p in [&pos, &untracked] {
                                assert_eq!(p.place_problem(kind, sq), repeats.then_some("repetition"), "{at}");
                            }
                            refused += repeats as usize;
                            suicides += suicide as usize;
                            suicides_refused += (suicide && repeats) as usize;
                        }
                        // The counts and the list, tracked and not, refuse the same points.
                        let legal = pos.legal_moves();
                        for p in [&pos, &untracked] {
                            assert_eq!(
                                p.count_chain_moves(super::Repeats::Anywhere),
                                Some(legal.len()),
                                "{rules}, game {game}, ply {ply}"
                            );
                        }
                        if pos.passes() >= 2 {
                            break;
                        }
                        let m = legal[super::below(&mut rng, legal.len())];
                        pos.play_unchecked(m);
                        seen.push(board(&pos));
                    }
                }
            }
        }
        // A single stone's suicide leaves the board as it was: refused under the positional rule.
        assert!(
            suicides > 100 && suicides_refused > 50 && suicides_refused < suicides,
            "{suicides} suicides, {suicides_refused} refused"
        );
        assert!(refused > suicides_refused, "placements that keep their stone were refused too");
    }

    /// Every ply a random playout plays is a legal move there, and it stops at the game's
    /// second pass in a row: under every suicide and repetition rule, where a side places only
    /// within a zone, and where the pass is allowed only when nothing else is (played a ply at
    /// a time there, not in the one loop). Each ply is played alone (a playout of one ply) and
    /// matched against the legal moves, made in copies.
    #[test]
    fn a_playout_plays_only_legal_moves() {
        let zoned = |t: String| t.replace("place on empty ", "place on empty, within ranks 2..4 ");
        let stuck = |t: String| t.replace("allow pass ", "allow pass when no other move ");
        let mut engines: Vec<(String, Engine)> = Vec::new();
        for size in [4, 5] {
            for (v, rules) in VARIANTS.iter().enumerate() {
                engines.push((format!("variant {v}, {size}x{size}"), go(size, *rules)));
            }
            engines.push((format!("zoned, {size}x{size}"), go_edited(size, None, zoned)));
            engines.push((format!("stuck, {size}x{size}"), go_edited(size, None, stuck)));
        }
        let (mut plies, mut passes_at_end) = (0, 0);
        for (name, e) in &engines {
            for game in 0..6u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(game);
                let mut pos = e.start();
                for ply in 0..300 {
                    let legal = pos.legal_moves();
                    let before = pos.clone();
                    let played = pos.random_playout(&mut rng, 1);
                    let at = format!("{name}, game {game}, ply {ply}");
                    if played == 0 {
                        // Only at the game's end: two passes in a row, or no move at all.
                        assert!(before.passes() >= 2 || legal.is_empty(), "{at}: stopped early");
                        passes_at_end += 1;
                        break;
                    }
                    let matching = legal.iter().filter(|&&m| {
                        let mut after = before.clone();
                        after.play_unchecked(m);
                        after.fen() == pos.fen() && after.hash() == pos.hash()
                    });
                    // (Two suicides of a single stone leave the same position, where allowed.)
                    assert!(matching.count() >= 1, "{at}: the ply played is no legal move");
                    plies += 1;
                }
            }
        }
        assert!(plies > 5000 && passes_at_end > 50, "{plies} plies, {passes_at_end} games ended");
    }

    /// Go's suicide and repetition lines as each test variant has them (`None`: go's own).
    const VARIANTS: [Option<&str>; 6] = [
        None,
        Some("forbid suicide\nforbid repetition situational"),
        Some("forbid repetition positional"),
        Some("forbid suicide\nforbid repetition ko"),
        Some("forbid suicide"),
        Some(""),
    ];

    /// Go at `size` with its suicide and repetition lines replaced by `rules` (kept when `None`).
    fn go(size: usize, rules: Option<&str>) -> Engine {
        go_edited(size, rules, |t| t)
    }

    /// [`go`], its text edited by `edit` first.
    fn go_edited(size: usize, rules: Option<&str>, edit: impl Fn(String) -> String) -> Engine {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets/go.rules");
        let mut text = edit(std::fs::read_to_string(&path).expect("the bundled go ruleset"));
        if let Some(r) = rules {
            text = text
                .lines()
                .filter(|l| !l.starts_with("forbid suicide") && !l.starts_with("forbid repetition"))
                .collect::<Vec<_>>()
                .join("\n")
                .replace(
                    "after each move capture chains without liberties",
                    &format!("after each move capture chains without liberties\n{r}"),
                );
        }
        let params = [("size".to_string(), size.to_string())];
        let checked = crate::check::check_source("go-variant.rules", &text, None, &params);
        Engine::new(
            checked
                .rules
                .unwrap_or_else(|| panic!("the variant checks: {:?}", checked.diagnostics)),
        )
    }

    /// Random players' games played in runs of uncounted plies (`random_chain_plies`, the list
    /// of empty points drawn in place and put back) are the games played a ply at a time and
    /// judged at each, under every suicide and repetition rule: the same moves, captures and
    /// end; and the legal moves, counted where the run stopped, are those listed there.
    #[test]
    fn games_played_in_runs_are_the_games_played_a_ply_at_a_time() {
        use crate::sim::{PlayerSpec, play_game, player_seed};
        use std::sync::atomic::AtomicBool;
        let variants = VARIANTS;
        let stop = AtomicBool::new(false);
        let (mut captures, mut cut) = (0, 0);
        // Two more variants. In the first, a side passes only when it has no other move: no run
        // there, a ply at a time (and a random player fills its own eyes once nothing else is
        // left). In the second, each side places only within its own ranks 2 to 4 (mirrored for
        // the second player): the run asks where a drawn point lies.
        let stuck = |t: String| t.replace("allow pass ", "allow pass when no other move ");
        let zoned = |t: String| t.replace("place on empty ", "place on empty, within ranks 2..4 ");
        let (stuck_at, zoned_at) = (variants.len(), variants.len() + 1);
        for v in 0..variants.len() + 2 {
            for size in [5, 7] {
                let e = if v == stuck_at {
                    go_edited(size, None, stuck)
                } else if v == zoned_at {
                    go_edited(size, None, zoned)
                } else {
                    go(size, variants[v])
                };
                for game in 0..12u64 {
                    let build = |s: usize| PlayerSpec::Random.build(player_seed(v as u64, game, s));
                    // Cut short in some games: a run stops at the ply limit too.
                    let limit = if game % 4 == 3 { 20 } else { 4000 };
                    let (a, moves_a) = play_game(&e.start(), &mut [build(0), build(1)], limit, true, true, 0, &stop).expect("not stopped");
                    let (b, moves_b) = play_game(&e.start(), &mut [build(0), build(1)], limit, true, false, 0, &stop).expect("not stopped");
                    // Where no run can be made, the game is counted after all.
                    assert_eq!(b.counted, v == stuck_at, "variant {v}, {size}x{size}, game {game}");
                    let at = format!("variant {v}, {size}x{size}, game {game}");
                    assert_eq!(moves_a, moves_b, "{at}");
                    assert_eq!((&a.end, a.plies, a.captures), (&b.end, b.plies, b.captures), "{at}");
                    assert!(a.counted && (b.counted || b.branching.is_empty()), "{at}");
                    captures += a.captures;
                    cut += (a.end.is_none()) as usize;
                    // Where the run stopped, the count asked for is the list's.
                    let mut walk = crate::sim::Walk::uncounted(e.start());
                    let mut draws = [build(0), build(1)];
                    let [x, y] = &mut draws;
                    let (Some(x), Some(y)) = (x.random_draws(), y.random_draws()) else {
                        panic!("random players draw")
                    };
                    let ran = walk.play_random_chain_plies([x, y], limit, None, &stop).expect("not stopped");
                    assert_eq!(ran, v != stuck_at, "{at}");
                    // Where the pass is not always allowed, no run: the caller plays each ply.
                    assert_eq!(walk.plies(), if v != stuck_at { a.plies } else { 0 }, "{at}");
                    if v == zoned_at {
                        // Every stone stands in its side's zone.
                        let pos = walk.position();
                        let rank = |sq: usize| sq / size + 1;
                        for sq in (0..size * size).filter(|&sq| pos.piece_at(sq).is_some()) {
                            let r = rank(sq);
                            let own = match pos.piece_at(sq).map(|(_, side)| side.index()) {
                                Some(0) => (2..=4).contains(&r),
                                _ => (size - 3..=size - 1).contains(&r),
                            };
                            assert!(own, "{at}: a stone on rank {r}");
                        }
                    }
                    assert_eq!(walk.legal_count(), walk.position().legal_moves().len(), "{at}");
                }
            }
        }
        assert!(captures > 200, "only {captures} stones captured");
        assert!(cut > 0, "some games were cut at the limit");
    }

    /// Counted without listing, the legal moves number what the list holds, and a random
    /// player's draw is one of the moves it would choose among, at every ply of random games
    /// under every suicide and repetition rule (captures, superko refusals and suicides included).
    #[test]
    fn counted_moves_and_drawn_moves_agree_with_the_list() {
        let variants = VARIANTS;
        let (mut refused, mut repeated) = (0, 0);
        for (v, rules) in variants.iter().enumerate() {
            for size in [5, 7] {
                let e = go(size, *rules);
                for game in 0..12u64 {
                    let mut rng = ChaCha8Rng::seed_from_u64(game + 100 * v as u64);
                    let mut walk = crate::sim::Walk::new(e.start());
                    let mut scratch = Vec::new();
                    // Every fourth move is made as a search descends, unjudged (`advance`):
                    // the boards it passes must still count for the later ones.
                    let mut judged = true;
                    for ply in 0..4 * size * size {
                        if judged && walk.end().is_some() {
                            break;
                        }
                        let pos = walk.position();
                        let legal = pos.legal_moves();
                        let stones = pos.piece_counts().iter().sum::<u32>() as usize;
                        refused += size * size - stones + 1 - legal.len();
                        let kind = crate::model::KindId(0);
                        repeated += (0..size * size)
                            .filter(|&sq| pos.piece_at(sq).is_none() && pos.place_problem(kind, sq) == Some("repetition"))
                            .count();
                        assert!(
                            pos.atari_sets_hold(),
                            "variant {v}, {size}x{size}, game {game}, ply {ply}: what tracking keeps"
                        );
                        // Counted tracked (as the walk keeps its position) and untracked.
                        let mut untracked = pos.clone();
                        untracked.track_atari(false);
                        for p in [pos, &untracked] {
                            assert_eq!(
                                p.count_chain_moves(super::Repeats::Anywhere),
                                Some(legal.len()),
                                "variant {v}, {size}x{size}, game {game}, ply {ply}"
                            );
                        }
                        let mut candidates = Vec::new();
                        if judged {
                            assert_eq!(
                                walk.legal_count(),
                                legal.len(),
                                "variant {v}, {size}x{size}, game {game}, ply {ply}"
                            );
                            walk.candidates(&mut candidates);
                        } else {
                            candidates = legal.clone();
                        }
                        // The same draw played in one go (`play_random_chain_move`), from a copy.
                        let lean = judged.then(|| (walk.clone(), rng.clone()));
                        let drawn = pos.random_chain_move(&mut rng, &mut scratch);
                        // Drawn tracked and untracked (the two rule on points apart).
                        let other = untracked.random_chain_move(&mut rng, &mut scratch);
                        assert_eq!(drawn.is_some(), other.is_some(), "variant {v}, game {game}, ply {ply}");
                        if judged {
                            for m in [drawn, other].into_iter().flatten() {
                                assert!(
                                    candidates.contains(&m),
                                    "variant {v}, game {game}, ply {ply}: {m:?} is not a candidate"
                                );
                            }
                        }
                        let m = drawn.unwrap_or(candidates[0]);
                        assert!(m.kind == MoveKind::Pass || legal.contains(&m));
                        judged = ply % 4 != 3;
                        if judged {
                            walk.play(m);
                        } else {
                            walk.advance(m);
                        }
                        if let Some((mut lean, mut lean_rng)) = lean {
                            let at = format!("variant {v}, {size}x{size}, game {game}, ply {ply}");
                            let ply = lean.play_random_chain_move(&mut lean_rng, &mut Vec::new());
                            let Some(d) = drawn else {
                                assert_eq!(ply, super::RandomPly::Exhausted, "{at}");
                                continue;
                            };
                            assert_eq!(ply, super::RandomPly::Played(d), "{at}");
                            let (a, b) = (lean.position(), walk.position());
                            assert_eq!(
                                (a.fen(), a.hash(), a.repetition_key()),
                                (b.fen(), b.hash(), b.repetition_key()),
                                "{at}"
                            );
                            assert_eq!(a.recorded_positions(), b.recorded_positions(), "{at}");
                            assert!(a.atari_sets_hold(), "{at}");
                            if judged {
                                let counts = |w: &crate::sim::Walk| (w.legal_count(), w.captures(), w.plies(), w.end().cloned());
                                assert_eq!(counts(&lean), counts(&walk), "{at}");
                            }
                        }
                    }
                }
            }
        }
        // The games reached refusals (suicide, superko) for the count to get right.
        assert!(refused > 100, "only {refused} refused points");
        assert!(repeated > 20, "only {repeated} points refused as repetitions");
    }

    /// A playout run on a walk's position (as a search's rollout does) stops tracking its chains,
    /// and the counts made after it stay right.
    #[test]
    fn a_playout_on_a_tracked_position_leaves_its_counts_right() {
        let e = go(7, None);
        for seed in 0..20u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut walk = crate::sim::Walk::new(e.start());
            let mut scratch = Vec::new();
            for _ in 0..15 {
                let m = walk.position().random_chain_move(&mut rng, &mut scratch).expect("a move");
                walk.play(m);
            }
            let mut pos = walk.position().clone();
            assert!(pos.atari_sets_hold());
            pos.random_playout(&mut rng, 10 + seed as usize);
            assert!(pos.atari_sets_hold(), "seed {seed}: the sets after a playout");
            assert_eq!(
                pos.count_chain_moves(super::Repeats::Anywhere),
                Some(pos.legal_moves().len()),
                "seed {seed}"
            );
        }
    }

    /// The draws are uniform over the candidates: 30 random plies into a 7x7 game (some own
    /// eyes and refusals on the board), each candidate's share of 40,000 draws is within a fifth
    /// of the mean, and nothing else is drawn.
    #[test]
    fn drawn_moves_are_uniform_over_the_candidates() {
        let e = go(7, None);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut walk = crate::sim::Walk::new(e.start());
        let mut scratch = Vec::new();
        for _ in 0..30 {
            let m = walk
                .position()
                .random_chain_move(&mut rng, &mut scratch)
                .expect("a placement or the pass");
            walk.play(m);
        }
        let mut candidates = Vec::new();
        walk.candidates(&mut candidates);
        assert!(candidates.len() > 5 && candidates.len() < 49, "{} candidates", candidates.len());
        let mut seen: HashMap<u16, u32> = HashMap::new();
        let draws = 40_000;
        for _ in 0..draws {
            let m = walk.position().random_chain_move(&mut rng, &mut scratch).expect("a candidate");
            assert!(candidates.contains(&m));
            *seen.entry(m.to).or_default() += 1;
        }
        let mean = draws as f64 / candidates.len() as f64;
        assert_eq!(seen.len(), candidates.len(), "every candidate drawn");
        for (sq, n) in seen {
            assert!((n as f64 - mean).abs() < mean / 5.0, "point {sq}: {n} draws, mean {mean:.0}");
        }
    }

    /// Where the other side has eyes, one of them a capture (A5 takes three stones) and two not
    /// (A1, E1), the draws are uniform over the ten candidates, never take a refused eye, and
    /// draw the same points in a copy (`random_chain_move`), in place (`play_random_chain_move`)
    /// and in a playout's loop (`random_playout`, one ply).
    #[test]
    fn draws_among_the_other_side_s_eyes_are_uniform_and_alike_every_way() {
        let e = go(5, None);
        let start = e.from_fen("1xX2/xxX2/XXX2/x2xx/1x1x1 b - - 0 1").expect("a 5x5 position");
        let walk = crate::sim::Walk::new(start.clone());
        let mut candidates = Vec::new();
        walk.candidates(&mut candidates);
        let names = |ms: &[crate::game::Move]| {
            let mut v: Vec<String> = ms.iter().map(|&m| crate::notation::written(&start, m).to_uppercase()).collect();
            v.sort();
            v
        };
        assert_eq!(names(&candidates), ["A5", "B2", "C1", "C2", "D3", "D4", "D5", "E3", "E4", "E5"]);
        let (mut rng, mut scratch) = (ChaCha8Rng::seed_from_u64(11), Vec::new());
        let mut seen: HashMap<u16, u32> = HashMap::new();
        let draws = 30_000;
        for draw in 0..draws {
            let (before, mut in_place, mut played) = (rng.clone(), start.clone(), start.clone());
            let m = start.random_chain_move(&mut rng, &mut scratch).expect("a candidate");
            assert!(candidates.contains(&m), "draw {draw}: {m:?}");
            *seen.entry(m.to).or_default() += 1;
            if draw % 10 == 0 {
                let mut again = before.clone();
                let ply = in_place.play_random_chain_move(&mut again, &mut Vec::new());
                assert_eq!(ply, super::RandomPly::Played(m), "draw {draw}, in place");
                let mut again = before;
                assert_eq!(played.random_playout(&mut again, 1), 1);
                let mut expected = start.clone();
                expected.play_unchecked(m);
                assert_eq!(in_place.fen(), expected.fen(), "draw {draw}, in place");
                assert_eq!(played.fen(), expected.fen(), "draw {draw}, in a playout");
            }
        }
        let mean = draws as f64 / candidates.len() as f64;
        assert_eq!(seen.len(), candidates.len(), "every candidate drawn");
        for (sq, n) in seen {
            assert!((n as f64 - mean).abs() < mean / 10.0, "point {sq}: {n} draws, mean {mean:.0}");
        }
    }

    /// A chain in atari names its liberty exactly, however many of its stones touch it, on every
    /// point a board can have (and well past).
    #[test]
    fn the_liberty_of_a_chain_in_atari_is_found_without_dividing() {
        let mut ch = super::Chains::<u64>::new(64);
        for p in 0..4096u32 {
            for c in 1..=4u32 {
                let pt = &mut ch.pts[7];
                (pt.lib_cnt, pt.lib_sum, pt.lib_sq) = (c as u16, c * p, c * p * p);
                assert!(ch.in_atari(7), "point {p}, {c} pseudo-liberties");
                assert_eq!(ch.single_liberty(7), p as u16, "point {p}, {c} pseudo-liberties");
            }
        }
    }

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

    /// A copy into a table grown larger than its source's keeps its room and holds the source's
    /// counts alone (none of its own old keys), and goes on counting like the source.
    #[test]
    fn a_copy_into_a_larger_key_set_counts_as_its_source() {
        let mut source = KeySet::default();
        for key in [0, 5, 5 << 20, 7, 7] {
            source.add(key);
        }
        let mut big = KeySet::default();
        for key in 1..=500u64 {
            big.add(key << 8);
        }
        let room = big.slots.len();
        assert!(room > source.slots.len());
        big.clone_from(&source);
        assert_eq!(big.slots.len(), room, "the room is kept");
        for (key, n) in [(0, 1), (5, 1), (5 << 20, 1), (7, 2), (1 << 8, 0), (500 << 8, 0)] {
            assert_eq!(big.count(key), n, "key {key:#x}");
        }
        big.remove_one(7);
        source.remove_one(7);
        big.add(9);
        source.add(9);
        for key in [5, 7, 9, 5 << 20] {
            assert_eq!(big.count(key), source.count(key), "key {key:#x}");
        }
    }

    /// Chains copied between boards of one size but other neighbours take the other board's
    /// neighbours; between chains of one board, they keep theirs (the same).
    #[test]
    fn chains_copied_across_boards_take_the_neighbours() {
        let n = 4;
        // A line of four points and a ring of four: the same size, other neighbours.
        let line: Vec<[u16; 4]> = (0..n as u16)
            .map(|i| [if i > 0 { i - 1 } else { 4 }, if i < 3 { i + 1 } else { 4 }, 4, 4])
            .collect();
        let ring: Vec<[u16; 4]> = (0..n as u16).map(|i| [(i + 3) % 4, (i + 1) % 4, 4, 4]).collect();
        let built = |table: &[[u16; 4]]| {
            let mut ch = Chains::<u64>::new(n);
            ch.count_neighbours(table);
            ch
        };
        let (on_line, on_ring) = (built(&line), built(&ring));
        assert_ne!(on_line.nb_key, on_ring.nb_key);
        let mut copy = built(&line);
        copy.copy_from(&on_ring);
        assert_eq!(&copy.nb.as_slice()[..n], &ring[..]);
        copy.copy_from(&on_line);
        assert_eq!(&copy.nb.as_slice()[..n], &line[..]);
        let mut fresh = Chains::<u64>::new(n);
        fresh.copy_from(&on_ring);
        assert_eq!(&fresh.nb.as_slice()[..n], &ring[..]);
    }
}
