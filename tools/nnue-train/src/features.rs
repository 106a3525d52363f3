//! The factorised first layer and its expansion into HalfKP.
//!
//! HalfKP gives every (king square, BonaPiece) pair its own row: 125,388 rows, most of
//! which a few hundred thousand positions never touch, or touch too rarely to learn. The
//! trainer learns fewer, shared rows instead; the effective row of a HalfKP feature is
//!
//! ```text
//! row(k, p) = P[sym(p)] + B[bucket(k'), p']
//! ```
//!
//! * Mirroring (files 1-9 swapped, a legal symmetry of shogi): a king on files 6-9 is
//!   mirrored onto files 4-1 together with every board piece (`k'`, `p'`); hand pieces
//!   have no square and stay. With the king on file 5 its mirror is itself, so a piece and
//!   its mirror image must share a row there: `p'` is the smaller of the two numbers.
//! * `P`, one row per BonaPiece, ignores the king altogether. To keep the whole net
//!   left-right symmetric it is indexed by `sym(p)`, the smaller of a piece and its mirror
//!   image: on its own it knows what stands where but not on which side.
//! * `B`, one row per (king bucket, piece), carries what depends on where the own king
//!   stands relative to the piece. Buckets are regions of the mirrored king square (files
//!   1-5, ranks 1-9): see [`Buckets`].
//!
//! So `row(k, p) == row(mirror k, mirror p)` for every pair, the accumulators of a position
//! and of its mirror image are equal, and so are their evaluations. Export (`export.rs`)
//! expands these rows into the 81 x 1,548 table of `nn.bin`.

use hayanagi::NNUE_FE_END as FE_END;

/// King squares per perspective.
pub const KING_SQUARES: usize = 81;
/// First BonaPiece of a piece on the board: below are hand pieces (and 0, absent pieces).
const FIRST_BOARD_PIECE: usize = 90;

/// How the mirrored king squares (files 1-5) are grouped into buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buckets {
    /// One bucket: rows depend on the piece only (plus the mirroring by king half).
    One,
    /// Nine regions (the default): files 1-2, 3-4 and 5 times ranks 9, 8 and 1-7. Kings
    /// live in their own camp, so its two back ranks are split finely and the rest of the
    /// board is one region; a castle on either wing maps to files 1-4.
    Nine,
    /// One bucket per mirrored square (45): HalfKP with mirroring, the finest choice.
    PerSquare,
}

impl Buckets {
    pub fn from_count(n: usize) -> Option<Buckets> {
        match n {
            1 => Some(Buckets::One),
            9 => Some(Buckets::Nine),
            45 => Some(Buckets::PerSquare),
            _ => None,
        }
    }

    pub fn count(self) -> usize {
        match self {
            Buckets::One => 1,
            Buckets::Nine => 9,
            Buckets::PerSquare => 45,
        }
    }

    /// The bucket of a king on `file` 0..=4 (file 1 is 0) and `rank` 0..=8 (rank 1 is 0).
    fn of(self, file: usize, rank: usize) -> usize {
        match self {
            Buckets::One => 0,
            Buckets::Nine => {
                let f = [0, 0, 1, 1, 2][file];
                let r = match rank {
                    8 => 0,
                    7 => 1,
                    _ => 2,
                };
                3 * r + f
            }
            Buckets::PerSquare => 9 * file + rank,
        }
    }
}

/// `sq` (file-major: `file * 9 + rank`, file 1 = 0) seen in a mirror.
pub const fn mirror_square(sq: usize) -> usize {
    (8 - sq / 9) * 9 + sq % 9
}

/// BonaPiece `p` seen in a mirror: the square part of a board piece mirrored.
pub const fn mirror_piece(p: usize) -> usize {
    if p < FIRST_BOARD_PIECE {
        return p;
    }
    let base = p - (p - FIRST_BOARD_PIECE) % 81;
    base + mirror_square(p - base)
}

/// The factor rows of each HalfKP feature, precomputed. Rows are numbered in one table:
/// `0..FE_END` are `P`, then `FE_END` rows per bucket.
#[derive(Clone, Debug)]
pub struct Factoriser {
    pub buckets: Buckets,
    /// Per king square: the first bucket row, and whether the board is mirrored.
    king: [(u32, u8); KING_SQUARES],
    /// `sym(p)` per piece.
    symmetric: Vec<u16>,
    /// Per piece: `p'` for a king on files 1-4, 6-9 (mirrored), and 5.
    oriented: Vec<[u16; 3]>,
}

impl Factoriser {
    pub fn new(buckets: Buckets) -> Factoriser {
        let mut king = [(0u32, 0u8); KING_SQUARES];
        for (sq, k) in king.iter_mut().enumerate() {
            let (file, rank) = (sq / 9, sq % 9);
            let (side, file) = match file {
                0..=3 => (0, file),
                4 => (2, file),
                _ => (1, 8 - file),
            };
            let first_row = FE_END * (1 + buckets.of(file, rank));
            *k = (first_row as u32, side);
        }
        let symmetric = (0..FE_END).map(|p| p.min(mirror_piece(p)) as u16).collect();
        let oriented = (0..FE_END)
            .map(|p| {
                let m = mirror_piece(p);
                [p as u16, m as u16, p.min(m) as u16]
            })
            .collect();
        Factoriser {
            buckets,
            king,
            symmetric,
            oriented,
        }
    }

    /// Rows in the factor table.
    pub fn rows(&self) -> usize {
        FE_END * (1 + self.buckets.count())
    }

    /// The two factor rows (`P`, then the bucket row) whose sum is the row of HalfKP
    /// feature (`king`, `piece`), `king` being the perspective's own king square as the
    /// engine numbers it (rotated for white).
    #[inline(always)]
    pub fn rows_of(&self, king: usize, piece: usize) -> [u32; 2] {
        let (first_row, side) = self.king[king];
        [
            u32::from(self.symmetric[piece]),
            first_row + u32::from(self.oriented[piece][side as usize]),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirroring_is_an_involution_that_keeps_kinds_and_hands() {
        for p in 0..FE_END {
            let m = mirror_piece(p);
            assert_eq!(mirror_piece(m), p);
            assert_eq!((m < FIRST_BOARD_PIECE), (p < FIRST_BOARD_PIECE));
            if p >= FIRST_BOARD_PIECE {
                assert_eq!((m - FIRST_BOARD_PIECE) / 81, (p - FIRST_BOARD_PIECE) / 81);
            } else {
                assert_eq!(m, p);
            }
        }
        assert_eq!(mirror_square(0), 72); // 1a <-> 9a
        assert_eq!(mirror_square(40), 40); // 5e
    }

    #[test]
    fn every_feature_and_its_mirror_share_rows() {
        for b in [Buckets::One, Buckets::Nine, Buckets::PerSquare] {
            let f = Factoriser::new(b);
            for k in 0..KING_SQUARES {
                for p in 0..FE_END {
                    let rows = f.rows_of(k, p);
                    assert_eq!(rows, f.rows_of(mirror_square(k), mirror_piece(p)));
                    assert!((rows[1] as usize) < f.rows());
                }
            }
        }
    }
}
