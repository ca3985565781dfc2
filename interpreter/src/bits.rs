//! Bitboards of any width. The engine is generic over [`Bits`]: `u64` for boards of up to 64
//! squares (chess), `u128` up to 128 (xiangqi's 90 points), [`Broad`] up to 384 (go on 19 × 19)
//! and [`Wide`] up to 704 (go up to 26 × 26): a set operation costs a word per 64 squares, so a
//! board takes the narrowest that holds it.
//! The width is chosen once, when a ruleset is compiled; the move loop is then monomorphic.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Index, IndexMut, Not};

pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares fit.
    const CAPACITY: usize;
    /// A table with an entry per point of the widest board this width holds, and one more (the
    /// border point of a chain game): see [`Points`].
    type Points<T: Copy + Debug + Send + Sync + 'static>: PointTable<T>;
    /// The set folds into two words for a multiplicative index ([`Bits::fold`]): the widths up to
    /// 128 squares, where whole lines are looked up in tables (`compile::lines`).
    const FOLDS: bool;
    const EMPTY: Self;
    fn bit(sq: usize) -> Self;
    fn has(self, sq: usize) -> bool;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// Index of the lowest set bit; the set must not be empty.
    fn lsb(self) -> usize;
    /// Index of the highest set bit; the set must not be empty.
    fn msb(self) -> usize;
    /// Adds square `sq`.
    #[inline(always)]
    fn set(&mut self, sq: usize) {
        *self |= Self::bit(sq);
    }
    /// Adds square `sq` if absent, removes it if present.
    #[inline(always)]
    fn toggle(&mut self, sq: usize) {
        *self ^= Self::bit(sq);
    }
    /// Removes square `sq`.
    #[inline(always)]
    fn clear(&mut self, sq: usize) {
        *self &= !Self::bit(sq);
    }
    /// Adds square `sq` when `on`, else removes it (without a branch).
    #[inline(always)]
    fn assign(&mut self, sq: usize, on: bool) {
        let b = Self::bit(sq);
        *self = (*self & !b) | (b & if on { !Self::EMPTY } else { Self::EMPTY });
    }
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Removes and returns the lowest set bit.
    #[inline]
    fn pop(&mut self) -> Option<usize> {
        if self.is_empty() {
            None
        } else {
            let s = self.lsb();
            *self ^= Self::bit(s);
            Some(s)
        }
    }
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
    /// The set as two words, low squares first, where [`Bits::FOLDS`] (else nothing: two zeros).
    fn fold(self) -> [u64; 2];
    /// Every square moved `by` indices on (back, when negative); squares pushed past either end
    /// are lost. `|by|` must be below [`Bits::CAPACITY`].
    fn shift(self, by: i32) -> Self;
    /// `acc |= self.shift(by) & mask` (wide types do it a word at a time, without a shifted copy).
    #[inline(always)]
    fn shift_and_or(self, by: i32, mask: Self, acc: &mut Self) {
        *acc |= self.shift(by) & mask;
    }
}

pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        self.0.pop()
    }
}

macro_rules! prim_bits {
    ($t:ty, $n:expr) => {
        impl Bits for $t {
            const CAPACITY: usize = $n;
            type Points<T: Copy + Debug + Send + Sync + 'static> = Points<T, { 2 * $n }>;
            const FOLDS: bool = true;
            #[inline(always)]
            #[allow(clippy::cast_possible_truncation)]
            fn fold(self) -> [u64; 2] {
                [self as u64, (self as u128 >> 64) as u64]
            }
            const EMPTY: Self = 0;
            #[inline(always)]
            fn bit(sq: usize) -> Self {
                1 << sq
            }
            #[inline(always)]
            fn has(self, sq: usize) -> bool {
                self >> sq & 1 == 1
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn msb(self) -> usize {
                ($n - 1) - self.leading_zeros() as usize
            }
            #[inline(always)]
            fn shift(self, by: i32) -> Self {
                debug_assert!(by.unsigned_abs() < $n);
                if by >= 0 { self << by } else { self >> -by }
            }
            #[inline(always)]
            fn pop(&mut self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    let s = self.trailing_zeros() as usize;
                    *self &= *self - 1;
                    Some(s)
                }
            }
        }
    };
}
prim_bits!(u64, 64);
prim_bits!(u128, 128);

/// Words in a [`Wide`] bitboard.
pub const WIDE_WORDS: usize = 11;

// Each width's [`Points`] table has room for its squares and the border point.
const _: () = assert!(64 * 6 < 512 && 64 * WIDE_WORDS < 1024);

/// A table with an entry per point, of a power-of-two length `N` past every point a width's
/// boards have (and the border point a chain game adds): an index is masked to the length, so
/// the hot loops of chain games (`game::chains`) pay no bounds check. An index past the board's
/// points is a bug of the caller's (checked in debug builds), never out of the table.
#[derive(Clone, Debug)]
pub struct Points<T, const N: usize>(pub [T; N]);

impl<T, const N: usize> Index<usize> for Points<T, N> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < N);
        &self.0[i & (N - 1)]
    }
}

impl<T, const N: usize> IndexMut<usize> for Points<T, N> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < N);
        &mut self.0[i & (N - 1)]
    }
}

/// What the chain tables need of a [`Points`] table, whatever its length.
pub trait PointTable<T>: Index<usize, Output = T> + IndexMut<usize> + Clone + Debug + Send + Sync {
    /// The table with `v` in every entry.
    fn filled(v: T) -> Self;
    /// Every entry, in order.
    fn as_slice(&self) -> &[T];
    fn as_mut_slice(&mut self) -> &mut [T];
}

impl<T: Copy + Debug + Send + Sync + 'static, const N: usize> PointTable<T> for Points<T, N> {
    fn filled(v: T) -> Self {
        const { assert!(N.is_power_of_two()) };
        Points([v; N])
    }
    fn as_slice(&self) -> &[T] {
        &self.0
    }
    fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.0
    }
}

/// A bitboard of `N` words, for boards past 128 squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Words<const N: usize>(pub [u64; N]);

/// 6 words: 384 squares, boards past 128 up to go's 19 × 19.
pub type Broad = Words<6>;
/// 11 words: 704 squares, the widest.
pub type Wide = Words<WIDE_WORDS>;

impl<const N: usize> Default for Words<N> {
    fn default() -> Self {
        Words([0; N])
    }
}

macro_rules! wide_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl<const N: usize> $tr for Words<N> {
            type Output = Words<N>;
            #[inline]
            fn $f(self, o: Words<N>) -> Words<N> {
                let mut r = self.0;
                for i in 0..N {
                    r[i] = r[i] $op o.0[i];
                }
                Words(r)
            }
        }
        impl<const N: usize> $tra for Words<N> {
            #[inline]
            fn $fa(&mut self, o: Words<N>) {
                for i in 0..N {
                    self.0[i] = self.0[i] $op o.0[i];
                }
            }
        }
    };
}
wide_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const N: usize> Not for Words<N> {
    type Output = Words<N>;
    #[inline]
    fn not(self) -> Words<N> {
        Words(self.0.map(|w| !w))
    }
}

/// The [`Points`] table of a width of words: the least power of two past its squares.
pub trait WordsPoints {
    type Points<T: Copy + Debug + Send + Sync + 'static>: PointTable<T>;
}

impl WordsPoints for Broad {
    type Points<T: Copy + Debug + Send + Sync + 'static> = Points<T, 512>;
}

impl WordsPoints for Wide {
    type Points<T: Copy + Debug + Send + Sync + 'static> = Points<T, 1024>;
}

impl<const N: usize> Bits for Words<N>
where
    Words<N>: WordsPoints,
{
    const CAPACITY: usize = 64 * N;
    type Points<T: Copy + Debug + Send + Sync + 'static> = <Words<N> as WordsPoints>::Points<T>;
    const FOLDS: bool = false;
    fn fold(self) -> [u64; 2] {
        [0, 0]
    }
    const EMPTY: Self = Words([0; N]);
    #[inline(always)]
    fn bit(sq: usize) -> Self {
        let mut w = [0; N];
        w[sq / 64] = 1 << (sq % 64);
        Words(w)
    }
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        self.0[sq / 64] >> (sq % 64) & 1 == 1
    }
    #[inline(always)]
    fn set(&mut self, sq: usize) {
        self.0[sq / 64] |= 1 << (sq % 64);
    }
    #[inline(always)]
    fn toggle(&mut self, sq: usize) {
        self.0[sq / 64] ^= 1 << (sq % 64);
    }
    #[inline(always)]
    fn clear(&mut self, sq: usize) {
        self.0[sq / 64] &= !(1 << (sq % 64));
    }
    #[inline(always)]
    fn assign(&mut self, sq: usize, on: bool) {
        let w = &mut self.0[sq / 64];
        let b = 1u64 << (sq % 64);
        *w = (*w & !b) | (b & (on as u64).wrapping_neg());
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// One pass over the words to the first set bit, which is cleared there (the default's
    /// emptiness test, lowest-bit search and XOR with a whole one-bit set pass over them thrice).
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        for (i, w) in self.0.iter_mut().enumerate() {
            if *w != 0 {
                let s = i * 64 + w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(s);
            }
        }
        None
    }
    #[inline(always)]
    fn lsb(self) -> usize {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i * 64 + w.trailing_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
    /// Shifts of under a word (a neighbour's, a row's on boards up to 63 wide) are the common
    /// case: one funnel shift a word, without branches; longer ones take the general loop.
    #[inline(always)]
    fn shift(self, by: i32) -> Self {
        let b = by.unsigned_abs();
        if b == 0 || b >= 64 {
            return if b == 0 { self } else { self.shift_far(by) };
        }
        let w = self.0;
        // Each word with its neighbour's spilled bits, as whole-array operations (vectorised).
        if by > 0 {
            let prev: [u64; N] = std::array::from_fn(|i| if i == 0 { 0 } else { w[i - 1] });
            Words(std::array::from_fn(|i| w[i] << b | prev[i] >> (64 - b)))
        } else {
            let next: [u64; N] = std::array::from_fn(|i| if i + 1 == N { 0 } else { w[i + 1] });
            Words(std::array::from_fn(|i| w[i] >> b | next[i] << (64 - b)))
        }
    }
    #[inline(always)]
    fn shift_and_or(self, by: i32, mask: Self, acc: &mut Self) {
        let b = by.unsigned_abs();
        if b == 0 || b >= 64 {
            *acc |= self.shift(by) & mask;
            return;
        }
        let w = &self.0;
        for i in 0..N {
            let moved = if by > 0 {
                w[i] << b | if i == 0 { 0 } else { w[i - 1] >> (64 - b) }
            } else {
                w[i] >> b | if i + 1 == N { 0 } else { w[i + 1] << (64 - b) }
            };
            acc.0[i] |= moved & mask.0[i];
        }
    }
    #[inline]
    fn msb(self) -> usize {
        for i in (0..N).rev() {
            if self.0[i] != 0 {
                return i * 64 + 63 - self.0[i].leading_zeros() as usize;
            }
        }
        Self::CAPACITY
    }
}

impl<const N: usize> Words<N> {
    /// [`Bits::shift`] by a word or more.
    #[inline(never)]
    fn shift_far(self, by: i32) -> Self {
        let (words, bits) = ((by.unsigned_abs() / 64) as usize, by.unsigned_abs() % 64);
        let mut r = [0u64; N];
        for (i, w) in self.0.iter().enumerate() {
            // Word i moves to i ± words, its high (or low) bits spilling into the next word.
            let (j, spill) = if by >= 0 {
                (i + words, i + words + 1)
            } else {
                (i.wrapping_sub(words), i.wrapping_sub(words + 1))
            };
            let (here, over) = if by >= 0 {
                (w << bits, if bits == 0 { 0 } else { w >> (64 - bits) })
            } else {
                (w >> bits, if bits == 0 { 0 } else { w << (64 - bits) })
            };
            if j < N {
                r[j] |= here;
            }
            if spill < N {
                r[spill] |= over;
            }
        }
        Words(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laws<B: Bits>() {
        let a = B::bit(3) | B::bit(B::CAPACITY - 1);
        assert_eq!(a.count(), 2);
        assert_eq!(a.lsb(), 3);
        assert_eq!(a.msb(), B::CAPACITY - 1);
        assert!(a.has(3) && !a.has(4));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, B::CAPACITY - 1]);
        // Every square of a set spread over every word, once each, lowest first; none left after.
        let spread = (0..B::CAPACITY).step_by(7).fold(B::EMPTY, |s, sq| s | B::bit(sq));
        assert_eq!(spread.iter().collect::<Vec<_>>(), (0..B::CAPACITY).step_by(7).collect::<Vec<_>>());
        let mut left = spread;
        while left.pop().is_some() {}
        assert!(left.is_empty() && left.pop().is_none());
        assert!((a & !a).is_empty());
        let hi = 70.min(B::CAPACITY - 2);
        let b = B::bit(10) | B::bit(hi);
        assert_eq!(b.shift(1), B::bit(11) | B::bit(hi + 1));
        assert_eq!(b.shift(-3), B::bit(7) | B::bit(hi - 3));
        assert_eq!(b.shift(-11), B::bit(hi - 11));
        assert!(B::bit(B::CAPACITY - 1).shift(1).is_empty());
        // One square set, cleared, toggled or assigned: the others untouched.
        for sq in [0, 63.min(B::CAPACITY - 1), 64.min(B::CAPACITY - 1), B::CAPACITY - 1] {
            let mut c = a;
            c.set(sq);
            assert_eq!(c, a | B::bit(sq));
            c.clear(sq);
            assert_eq!(c, a & !B::bit(sq));
            c.toggle(sq);
            assert_eq!(c, (a & !B::bit(sq)) | B::bit(sq));
            for on in [true, false, true] {
                c.assign(sq, on);
                assert_eq!(c.has(sq), on);
                assert_eq!(c & !B::bit(sq), a & !B::bit(sq));
            }
        }
    }

    #[test]
    fn every_width_obeys_the_same_laws() {
        laws::<u64>();
        laws::<u128>();
        laws::<Broad>();
        laws::<Wide>();
        assert_eq!((Wide::bit(70) | Wide::bit(700)).msb(), 700);
        // Across several words, both ways.
        let w = Wide::bit(5) | Wide::bit(130) | Wide::bit(640);
        assert_eq!(w.shift(150), Wide::bit(155) | Wide::bit(280));
        assert_eq!(w.shift(-129), Wide::bit(1) | Wide::bit(511));
        assert_eq!(w.shift(64), Wide::bit(69) | Wide::bit(194));
        // The short shifts' branch-free path against the general loop, over every word's edge.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let pattern: Wide = Words([0; WIDE_WORDS].map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        }));
        for by in -63..=63 {
            assert_eq!(pattern.shift(by), if by == 0 { pattern } else { pattern.shift_far(by) }, "by {by}");
        }
        // Shifted, masked and added word by word: as the three operations one after another.
        let mask = !pattern.shift_far(7);
        for by in (-200..=200).filter(|b: &i32| b.unsigned_abs() < 704) {
            let mut acc = Wide::bit(3) | Wide::bit(700);
            pattern.shift_and_or(by, mask, &mut acc);
            assert_eq!(acc, Wide::bit(3) | Wide::bit(700) | pattern.shift(by) & mask, "by {by}");
        }
    }
}
