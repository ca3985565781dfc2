//! Whole lines looked up in one step. A slider's reach along a line (a direction and, where the
//! piece slides both ways, its opposite) depends only on the pieces standing on that line's inner
//! squares; those few squares index a table of ready attack sets through one multiplication (the
//! multiplier is searched for when the ruleset is compiled: any number under which the occupancies
//! that give different reaches land on different entries will do). A rook's moves are two lookups
//! instead of four ray walks with a branch each.
//!
//! Boards of up to 128 squares have them (the widths that fold into two words, [`Bits::FOLDS`]);
//! a line with too many inner squares, or whose search fails, is left to the rays.

use crate::bits::Bits;

/// The most inner squares a line may have: its table per square holds `2^MAX_BITS` sets (up to
/// four times that where no multiplier fits so few).
pub const MAX_BITS: u32 = 10;

/// The most attack sets all lines together may hold (a ruleset with many slide directions on a
/// large board leaves the rest to the rays): 16 MiB of `u64` sets, 32 MiB of `u128`.
const MAX_SETS: usize = 1 << 21;

/// The most occupancies tried against multipliers, all lines together, before the search gives
/// up (a few tens of milliseconds): what compiling a ruleset may spend on it.
const MAX_WORK: u64 = 50_000_000;

/// One line through one square.
#[derive(Clone, Copy, Debug)]
struct Entry<B> {
    /// The inner squares: those whose pieces can stop the slide (the last square of each ray
    /// cannot: it is reached whether empty or not).
    mask: B,
    magic: [u64; 2],
    shift: u32,
    /// Where this square's sets start in [`Lines::attacks`].
    start: u32,
}

/// The line tables of a ruleset (see the module's text).
#[derive(Clone, Debug, Default)]
pub struct Lines<B> {
    squares: usize,
    /// The directions of each line (indices into the ray tables), the second the opposite's.
    pub dirs: Vec<(u8, Option<u8>)>,
    /// At `line * squares + sq`.
    entries: Vec<Entry<B>>,
    attacks: Vec<B>,
    /// Each line's reach on an empty board, at `line * squares + sq`: the first of its sets in
    /// [`Lines::attacks`], kept apart so that asking for it is one load, not two in a row (the
    /// tests of check and pins ask for it at every node).
    spans: Vec<B>,
    /// Occupancies tried so far (see [`MAX_WORK`]).
    work: u64,
}

impl<B: Bits> Lines<B> {
    pub fn new(squares: usize) -> Lines<B> {
        Lines {
            squares,
            dirs: Vec::new(),
            entries: Vec::new(),
            attacks: Vec::new(),
            spans: Vec::new(),
            work: 0,
        }
    }

    /// The squares a slider on `sq` reaches along `line`, up to and including the first piece
    /// each way.
    #[inline(always)]
    pub fn attacks(&self, line: u16, sq: usize, occ: B) -> B {
        let e = &self.entries[line as usize * self.squares + sq];
        let [lo, hi] = (occ & e.mask).fold();
        let i = (lo.wrapping_mul(e.magic[0]) ^ hi.wrapping_mul(e.magic[1])) >> e.shift;
        self.attacks[e.start as usize + i as usize]
    }

    /// The squares a slider on `sq` reaches along every line of `lines`.
    #[inline(always)]
    pub fn reach(&self, lines: &[u16], sq: usize, occ: B) -> B {
        let mut b = B::EMPTY;
        for &l in lines {
            b |= self.attacks(l, sq, occ);
        }
        b
    }

    /// The whole line through `sq` (its reach on an empty board).
    #[inline(always)]
    pub fn span(&self, line: u16, sq: usize) -> B {
        self.spans[line as usize * self.squares + sq]
    }

    /// The line of direction `a` and, if given, its opposite `b`: built the first time it is
    /// asked for (`reach(d, sq, occ)` gives the reference reach along one direction). `None` where
    /// the width does not fold or a square's line has more than [`MAX_BITS`] inner squares.
    pub fn find_or_build(&mut self, a: u8, b: Option<u8>, rays: &dyn Fn(u8, usize) -> B, reach: &dyn Fn(u8, usize, B) -> B) -> Option<u16> {
        if !B::FOLDS {
            return None;
        }
        if let Some(i) = self.dirs.iter().position(|&d| d == (a, b) || Some(d) == b.map(|b| (b, Some(a)))) {
            return Some(i as u16);
        }
        // Deterministic: the same ruleset compiles to the same tables.
        let mut rng = Rng(0x11AE_5EED_0000_0001 ^ (u64::from(a) << 8) ^ u64::from(b.unwrap_or(0xFF)));
        let base = self.attacks.len();
        let mut entries = Vec::with_capacity(self.squares);
        let mut attacks = Vec::new();
        let both = |sq: usize, occ: B| reach(a, sq, occ) | b.map_or(B::EMPTY, |b| reach(b, sq, occ));
        for sq in 0..self.squares {
            let mut mask = B::EMPTY;
            for d in std::iter::once(a).chain(b) {
                let ray = rays(d, sq);
                // The far end stops the slide whatever stands there: not an inner square.
                if let Some(end) = ray.iter().find(|&s| rays(d, s).is_empty()) {
                    mask |= ray & !B::bit(end);
                }
            }
            let bits = mask.count();
            if bits > MAX_BITS {
                return None;
            }
            let inner: Vec<usize> = mask.iter().collect();
            let subsets: Vec<(B, B)> = (0..1usize << bits)
                .map(|n| {
                    let mut occ = B::EMPTY;
                    for (i, &s) in inner.iter().enumerate() {
                        if n >> i & 1 == 1 {
                            occ |= B::bit(s);
                        }
                    }
                    (occ, both(sq, occ))
                })
                .collect();
            let (magic, shift, table) = search(&subsets, bits, &mut rng, &mut self.work)?;
            if self.attacks.len() + attacks.len() + table.len() > MAX_SETS {
                return None;
            }
            entries.push(Entry {
                mask,
                magic,
                shift,
                start: u32::try_from(base + attacks.len()).ok()?,
            });
            attacks.extend(table);
        }
        self.spans.extend(entries.iter().map(|e| attacks[e.start as usize - base]));
        self.entries.extend(entries);
        self.attacks.extend(attacks);
        self.dirs.push((a, b));
        u16::try_from(self.dirs.len() - 1).ok()
    }
}

/// A multiplier (two words, the second for the high half) and shift under which every occupancy
/// in `subsets` lands on an entry holding its reach, and the table so filled. A table of
/// `2^bits` entries is tried first; where no multiplier turns up quickly, one twice as large
/// (more multipliers fit it), and so on.
fn search<B: Bits>(subsets: &[(B, B)], bits: u32, rng: &mut Rng, work: &mut u64) -> Option<([u64; 2], u32, Vec<B>)> {
    if bits == 0 {
        // One occupancy: every multiplier gives entry 0.
        return Some(([0, 0], 63, vec![subsets[0].1]));
    }
    let placed = placing(subsets, bits);
    for (index_bits, tries) in [(bits, 256), (bits + 1, 1024), (bits + 2, 4096)] {
        let shift = 64 - index_bits;
        let size = 1usize << index_bits;
        let mut table = vec![B::EMPTY; size];
        // Which try last wrote each entry: a table is not cleared between tries.
        let mut tried = vec![u32::MAX; size];
        for n in 0..tries {
            if *work > MAX_WORK {
                return None;
            }
            // First the multipliers that place each inner square's bit (see `placing`); then
            // sparse ones, which spread few bits to the top and succeed most often.
            let magic = match placed.get(n as usize) {
                Some(&m) if index_bits == bits => m,
                _ => [rng.sparse(), if B::CAPACITY > 64 { rng.sparse() } else { 0 }],
            };
            let fits = subsets.iter().all(|&(occ, reach)| {
                *work += 1;
                let [lo, hi] = occ.fold();
                let i = ((lo.wrapping_mul(magic[0]) ^ hi.wrapping_mul(magic[1])) >> shift) as usize;
                if tried[i] != n {
                    tried[i] = n;
                    table[i] = reach;
                    true
                } else {
                    table[i] == reach
                }
            });
            if fits {
                // Entries no occupancy reaches are never read; they keep what an earlier try left.
                return Some((magic, shift, table));
            }
        }
    }
    None
}

/// Multipliers that would carry the `k`-th inner square's bit to the `k`-th of the top `bits`
/// bits: the sum over the inner squares of one bit each, placed so (the high word's squares by
/// the second multiplier). Along a line whose inner squares lie at least `bits` bit positions
/// apart (files, diagonals), the products of the other terms fall below those bits without a
/// carry or past the word's top, and the index is exact; the search verifies it like any other.
/// Along a rank, where they lie side by side, the run below the slider and the run above it are
/// each carried by one bit (the run's first square's), in either order.
fn placing<B: Bits>(subsets: &[(B, B)], bits: u32) -> Vec<[u64; 2]> {
    let mask = subsets.iter().fold(B::EMPTY, |m, &(occ, _)| m | occ);
    let squares: Vec<usize> = mask.iter().collect();
    let term = |k: usize, p: usize| -> Option<(usize, u64)> {
        let (word, at) = (p / 64, (p % 64) as i64);
        let e = 64 - i64::from(bits) + k as i64 - at;
        (word < 2 && (0..64).contains(&e)).then(|| (word, 1u64 << e))
    };
    let mut out = Vec::new();
    // Each square's bit placed: in the squares' order, and (where a line crosses into the high
    // word, whose squares sit low in it and cannot be carried to the lowest index bits) in the
    // order of their places in their words.
    let mut by_place = squares.clone();
    by_place.sort_by_key(|&p| (p % 64, p));
    for order in [&squares, &by_place] {
        let mut m = [0u64; 2];
        if order.iter().enumerate().all(|(k, &p)| term(k, p).map(|(w, b)| m[w] |= b).is_some()) && !out.contains(&m) {
            out.push(m);
        }
    }
    // Each run of adjacent squares carried by its first square's term, the runs in order and in
    // reverse (where the upper run's squares, times the lower run's term, would land in the index).
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &p in &squares {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|&q| q + 1 == p && q / 64 == p / 64) => run.push(p),
            _ => runs.push(vec![p]),
        }
    }
    for reverse in [false, true] {
        let mut m = [0u64; 2];
        let mut k = 0;
        let mut ok = true;
        let order: Vec<&Vec<usize>> = if reverse {
            runs.iter().rev().collect()
        } else {
            runs.iter().collect()
        };
        for run in order {
            match term(k, run[0]) {
                Some((w, b)) => m[w] |= b,
                None => ok = false,
            }
            k += run.len();
        }
        if ok && !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

/// Candidate multipliers: xorshift64*, seeded per line (the same ruleset compiles to the same
/// tables).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Tables, compile};

    fn tables<B: Bits>(ruleset: &str) -> Tables<B> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../rulesets").join(ruleset);
        let checked = crate::check::check_file(&path, &[]);
        compile::<B>(&checked.rules.expect("bundled rules are valid"))
    }

    /// Every line of `t`, from every square, over many occupancies: one lookup reaches what the
    /// rays reach, a ray at a time.
    fn lookups_agree_with_rays<B: Bits>(t: &Tables<B>) -> usize {
        let mut rng = Rng(7);
        let mut checked = 0;
        for (l, &(a, b)) in t.lines.dirs.iter().enumerate() {
            for sq in 0..t.squares {
                for i in 0..200 {
                    // Sparse and dense boards alike.
                    let mut occ = B::EMPTY;
                    for s in 0..t.squares {
                        if rng.next() % 8 < 1 + i % 7 {
                            occ |= B::bit(s);
                        }
                    }
                    occ &= t.board_mask;
                    let rays = t.ray_attacks(a as usize, sq, occ) | b.map_or(B::EMPTY, |b| t.ray_attacks(b as usize, sq, occ));
                    assert_eq!(t.lines.attacks(l as u16, sq, occ), rays, "line {l} ({a}, {b:?}) from {sq}");
                    checked += 1;
                }
                let span = t.ray(a as usize, sq) | b.map_or(B::EMPTY, |b| t.ray(b as usize, sq));
                assert_eq!(t.lines.span(l as u16, sq), span);
            }
        }
        checked
    }

    #[test]
    fn a_line_looked_up_whole_reaches_what_its_rays_reach() {
        // Chess: ranks, files and both diagonals on one word.
        let chess = tables::<u64>("chess.rules");
        assert_eq!(chess.lines.dirs.len(), 4);
        assert!(lookups_agree_with_rays(&chess) > 0);
        // Xiangqi's chariot on 90 points: two words folded into one index.
        let xiangqi = tables::<u128>("xiangqi.rules");
        assert!(!xiangqi.lines.dirs.is_empty());
        assert!(lookups_agree_with_rays(&xiangqi) > 0);
        // The same ruleset compiled twice gives the same tables.
        let again = tables::<u64>("chess.rules");
        assert_eq!(format!("{:?}", again.lines), format!("{:?}", chess.lines));
    }

    /// A single rank of `n` squares (up to 64): its two rays (0 towards higher squares, 1 towards
    /// lower) and the reach along each, a ray at a time.
    fn rank(n: u32) -> (impl Fn(u8, usize) -> u64, impl Fn(u8, usize, u64) -> u64) {
        let rays = move |d: u8, sq: usize| -> u64 {
            let rank = if n == 64 { !0u64 } else { (1u64 << n) - 1 };
            match d {
                0 if sq < 63 => rank & (!0u64 << (sq + 1)),
                1 => rank & ((1u64 << sq) - 1),
                _ => 0,
            }
        };
        let reach = move |d: u8, sq: usize, occ: u64| -> u64 {
            let ray = rays(d, sq);
            match (d, ray & occ) {
                (_, 0) => ray,
                (0, b) => ray & !(!0u64 << (b.trailing_zeros() + 1)),
                (_, b) => ray & (!0u64 << (63 - b.leading_zeros())),
            }
        };
        (rays, reach)
    }

    #[test]
    fn lines_take_tables_of_their_exact_size() {
        // On one word every line of chess takes a multiplier that places each inner square's bit
        // (files and diagonals, whose squares lie 7 to 9 bits apart, one bit each; ranks, whose
        // squares lie side by side, a bit per run): 2^n sets for n inner squares, none larger.
        let exact = |t: &Tables<u64>| t.lines.entries.iter().map(|e| 1usize << e.mask.count()).sum::<usize>();
        let chess = tables::<u64>("chess.rules");
        assert_eq!(chess.lines.attacks.len(), exact(&chess));
        // On two words (xiangqi's 90 points, lines crossing from one into the other) all but a
        // few lines.
        let xiangqi = tables::<u128>("xiangqi.rules");
        let exact: usize = xiangqi.lines.entries.iter().map(|e| 1usize << e.mask.count()).sum();
        assert!(
            xiangqi.lines.attacks.len() * 20 <= exact * 21,
            "{} sets for {exact}",
            xiangqi.lines.attacks.len()
        );
    }

    #[test]
    fn lines_too_long_or_too_wide_are_left_to_the_rays() {
        // A single rank of 64 squares: 62 inner squares on most lines, far past the bound.
        let (rays, reach) = rank(64);
        let mut lines = Lines::<u64>::new(64);
        assert_eq!(lines.find_or_build(0, Some(1), &rays, &reach), None);
        assert!(lines.dirs.is_empty());
        // Past 128 squares nothing folds: the rays do every slide.
        let mut wide = Lines::<crate::bits::Broad>::new(4);
        let none = |_: u8, _: usize| crate::bits::Broad::EMPTY;
        let nothing = |_: u8, _: usize, _: crate::bits::Broad| crate::bits::Broad::EMPTY;
        assert_eq!(wide.find_or_build(0, None, &none, &nothing), None);
    }

    #[test]
    fn a_short_line_takes_the_smallest_table() {
        // A rank of 8: from the corner six inner squares, 64 sets (or a larger table if no
        // multiplier fits 64).
        let (rays, reach) = rank(8);
        // Past the search's work or the tables' size, a line is left to the rays.
        let mut spent = Lines::<u64>::new(8);
        spent.work = MAX_WORK + 1;
        assert_eq!(spent.find_or_build(0, Some(1), &rays, &reach), None);
        let mut full = Lines::<u64>::new(8);
        full.attacks = vec![0; MAX_SETS];
        assert_eq!(full.find_or_build(0, Some(1), &rays, &reach), None);
        assert!(full.dirs.is_empty() && full.entries.is_empty());
        let mut lines = Lines::<u64>::new(8);
        let l = lines.find_or_build(0, Some(1), &rays, &reach).expect("a rank of 8 folds");
        // Asked again, either way round, the same line.
        assert_eq!(lines.find_or_build(1, Some(0), &rays, &reach), Some(l));
        for sq in 0..8 {
            for occ in 0..256u64 {
                assert_eq!(lines.attacks(l, sq, occ), reach(0, sq, occ) | reach(1, sq, occ));
            }
        }
        assert!(lines.attacks.len() <= 8 * 256);
    }
}
