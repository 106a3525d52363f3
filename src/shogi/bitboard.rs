//! 81-square bitboards.
//!
//! Bit `i` of the `u128` is square `i` (file-major, see `types`), so each file occupies 9
//! contiguous bits: file `f` is bits `9f..9f+9`. Bits 81..128 are always zero.

use super::types::{Color, Square};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` is square index `i` (0..81).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const ALL_BITS: u128 = (1u128 << 81) - 1;

/// Bits of rank 0 on every file (`1a`, `2a`, ..., `9a`).
const RANK0: u128 = {
    let mut b = 0u128;
    let mut f = 0;
    while f < 9 {
        b |= 1u128 << (f * 9);
        f += 1;
    }
    b
};

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the board.
    pub const ALL: Bitboard = Bitboard(ALL_BITS);

    /// The set holding `sq` alone.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// All squares of 0-based rank `r` (0 = rank a).
    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(RANK0 << r)
    }

    /// All squares of 0-based file `f` (0 = file 1).
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(0x1ffu128 << (9 * f))
    }

    /// Ranks `lo..=hi` (0-based) on every file.
    pub const fn ranks(lo: u8, hi: u8) -> Bitboard {
        let mut b = 0u128;
        let mut r = lo;
        while r <= hi {
            b |= RANK0 << r;
            r += 1;
        }
        Bitboard(b)
    }

    /// The promotion zone of `c` (its three far ranks).
    #[inline(always)]
    pub const fn zone(c: Color) -> Bitboard {
        match c {
            Color::Black => Bitboard::ranks(0, 2),
            Color::White => Bitboard::ranks(6, 8),
        }
    }

    /// True when no square is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when some square is in the set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq.index()) & 1 != 0
    }

    /// Add `sq`.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    /// Remove `sq`.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// Add `sq` if absent, remove it if present.
    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one bit set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Lowest square; the board must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        // Split by halves: a u128 trailing_zeros is two tzcnts and a select anyway, and most
        // boards we scan have a bit in the low word.
        let lo = self.0 as u64;
        let idx = if lo != 0 {
            lo.trailing_zeros()
        } else {
            64 + ((self.0 >> 64) as u64).trailing_zeros()
        };
        Square::new(idx as u8)
    }

    /// Remove and return the lowest square; the board must not be empty.
    #[inline(always)]
    pub fn pop(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        sq
    }

    /// Squares shifted one rank towards rank a (black's forward direction). Only valid for
    /// boards with nothing on rank a.
    #[inline(always)]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 >> 1)
    }

    /// Squares shifted one rank towards rank i (white's forward direction). Only valid for
    /// boards with nothing on rank i.
    #[inline(always)]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 << 1)
    }

    /// Squares shifted one rank forward for `c` (up for black, down for white): a pawn set's
    /// attack map or push targets. Only valid for boards with nothing on `c`'s last rank.
    #[inline(always)]
    pub const fn shift_forward(self, c: Color) -> Bitboard {
        match c {
            Color::Black => self.shift_up(),
            Color::White => self.shift_down(),
        }
    }

    /// Fold the 81 bits into 64 for magic hashing: files 8 and 9 (bits 63..81) land on
    /// files 1 and 2. Masks used for magics never contain file 1 or file 9 squares, so the
    /// masked bits never collide.
    #[inline(always)]
    pub const fn merge(self) -> u64 {
        (self.0 as u64) | ((self.0 >> 63) as u64)
    }

    /// The squares of `self` that are not in `other`.
    #[inline(always)]
    pub const fn and_not(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.pop())
        }
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitand(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 & o.0)
    }
}
impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 | o.0)
    }
}
impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn bitxor(self, o: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ o.0)
    }
}
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & ALL_BITS)
    }
}
impl BitAndAssign for Bitboard {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bitboard) {
        self.0 &= o.0;
    }
}
impl BitOrAssign for Bitboard {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bitboard) {
        self.0 |= o.0;
    }
}
impl BitXorAssign for Bitboard {
    #[inline(always)]
    fn bitxor_assign(&mut self, o: Bitboard) {
        self.0 ^= o.0;
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        for r in 0..9u8 {
            for file in (0..9u8).rev() {
                let sq = Square::from_file_rank(file, r);
                write!(f, "{}", if self.has(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
