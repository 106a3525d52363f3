//! Pieces in hand, packed into one `u32`.
//!
//! ```text
//!  bit  31  28 27  24 23  20 19  16 15  12 11   8 7     0
//!      |b GGG|b RRR|b BBB|b SSS|b NNN|b LLL|..bPPPPP|
//! ```
//! Each field is wide enough for every piece of that kind (18 pawns, 4 of L/N/S/G, 2 of B/R,
//! and more for composed positions: 31 pawns, 7 of the others)
//! and is followed by a spare "borrow" bit, so `a - b` leaves a borrow bit set exactly when
//! some count of `b` exceeds that of `a`. That makes "has at least these pieces" one
//! subtraction, which mate search uses for hand dominance.

use super::types::PieceType;

/// Counts of the seven kinds of piece that can be held in hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Hand(u32);

const SHIFT: [u32; 8] = [0, 0, 8, 12, 16, 20, 24, 28];
const MASK: [u32; 8] = [0, 0x1f, 0x7, 0x7, 0x7, 0x7, 0x7, 0x7];
/// The spare bit above each field: 5 (pawn), 11, 15, 19, 23, 27, 31.
const BORROW: u32 =
    (1 << 5) | (1 << 11) | (1 << 15) | (1 << 19) | (1 << 23) | (1 << 27) | (1 << 31);

/// Most pieces of each hand kind that exist in a game, indexed by piece type.
pub const MAX_IN_HAND: [u32; 8] = [0, 18, 4, 4, 4, 2, 2, 4];

/// Most pieces of each hand kind a hand can hold (the width of its field). Composed
/// positions may exceed [`MAX_IN_HAND`] up to this.
pub const HAND_CAPACITY: [u32; 8] = [0, 31, 7, 7, 7, 7, 7, 7];

impl Hand {
    /// No piece in hand.
    pub const EMPTY: Hand = Hand(0);

    /// Raw packed value (for hashing or storage).
    #[inline(always)]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// A hand from its packed value, as returned by [`Hand::raw`].
    #[inline(always)]
    pub const fn from_raw(raw: u32) -> Hand {
        Hand(raw)
    }

    /// Number of pieces of `pt` held. `pt` must be a hand kind (Pawn..=Gold).
    #[inline(always)]
    pub const fn count(self, pt: PieceType) -> u32 {
        let i = pt as usize;
        (self.0 >> SHIFT[i]) & MASK[i]
    }

    /// True when at least one piece of kind `pt` is in hand.
    #[inline(always)]
    pub const fn has(self, pt: PieceType) -> bool {
        self.count(pt) != 0
    }

    /// Add one piece of kind `pt`.
    #[inline(always)]
    pub fn add(&mut self, pt: PieceType) {
        debug_assert!(self.count(pt) < HAND_CAPACITY[pt as usize]);
        self.0 += 1 << SHIFT[pt as usize];
    }

    /// Take away one piece of kind `pt` (there must be one).
    #[inline(always)]
    pub fn remove(&mut self, pt: PieceType) {
        debug_assert!(self.count(pt) > 0);
        self.0 -= 1 << SHIFT[pt as usize];
    }

    /// Set the count of `pt`; `n` must not exceed 31 pawns or 7 of another kind.
    pub fn set(&mut self, pt: PieceType, n: u32) {
        let i = pt as usize;
        debug_assert!(n <= HAND_CAPACITY[i]);
        self.0 = (self.0 & !(MASK[i] << SHIFT[i])) | (n << SHIFT[i]);
    }

    /// True when no piece is in hand.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when this hand holds at least as many of every kind as `other`.
    #[inline(always)]
    pub const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW == 0
    }

    /// True when the hand holds anything other than pawns.
    #[inline(always)]
    pub const fn has_except_pawn(self) -> bool {
        self.0 & !MASK[1] != 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        PieceType::HAND.iter().map(|&pt| self.count(pt)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_independent_and_dominance_works() {
        let mut h = Hand::EMPTY;
        for pt in PieceType::HAND {
            for _ in 0..MAX_IN_HAND[pt as usize] {
                h.add(pt);
            }
        }
        for pt in PieceType::HAND {
            assert_eq!(h.count(pt), MAX_IN_HAND[pt as usize]);
        }
        let mut small = Hand::EMPTY;
        small.set(PieceType::Pawn, 3);
        small.set(PieceType::Rook, 1);
        assert!(h.dominates(small));
        assert!(!small.dominates(h));
        let mut other = Hand::EMPTY;
        other.set(PieceType::Gold, 1);
        assert!(!small.dominates(other));
        assert!(small.has_except_pawn());
        h.remove(PieceType::Bishop);
        assert_eq!(h.count(PieceType::Bishop), 1);
        assert_eq!(h.count(PieceType::Rook), 2);
    }

    /// `dominates` agrees with a field-by-field comparison for every count up to the
    /// capacity of each field, in pairs of kinds (all count combinations of two kinds, the
    /// other kinds at assorted counts), so no borrow leaks between neighbouring fields.
    #[test]
    fn dominance_matches_field_by_field_comparison() {
        let kinds = PieceType::HAND;
        let reference = |a: Hand, b: Hand| kinds.iter().all(|&pt| a.count(pt) >= b.count(pt));
        let fill = [0u32, 1, 3, 7];
        for (i, &x) in kinds.iter().enumerate() {
            for &y in &kinds[i..] {
                for (ax, ay, bx, by) in (0..=HAND_CAPACITY[x as usize]).flat_map(|ax| {
                    (0..=HAND_CAPACITY[y as usize]).flat_map(move |ay| {
                        (0..=HAND_CAPACITY[x as usize]).flat_map(move |bx| {
                            (0..=HAND_CAPACITY[y as usize]).map(move |by| (ax, ay, bx, by))
                        })
                    })
                }) {
                    for &f in &fill {
                        let (mut a, mut b) = (Hand::EMPTY, Hand::EMPTY);
                        for &pt in &kinds {
                            let n = f.min(HAND_CAPACITY[pt as usize]);
                            a.set(pt, n);
                            b.set(pt, n);
                        }
                        a.set(x, ax);
                        b.set(x, bx);
                        if y != x {
                            a.set(y, ay);
                            b.set(y, by);
                        }
                        assert_eq!(a.dominates(b), reference(a, b), "{a:?} vs {b:?}");
                    }
                }
            }
        }
    }
}
