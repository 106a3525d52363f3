//! Correction history (DESIGN.md §4.13): how far the static evaluation was off in recent
//! positions that share a feature with this one, added back to it.
//!
//! The hand-crafted evaluation misjudges whole families of positions the same way (a
//! castle it scores too well, pieces in hand worth more in an attack than its hand values
//! say). After a search of a node, the difference between its result and its corrected
//! static evaluation is folded into one entry per feature: the pawns on the board, where
//! each side's other pieces stand, both hands, and the move that led to the position (its
//! piece and destination). The next static evaluation of a position with the same
//! features is moved by the weighted sum of their entries (`Tune_Corr*Weight`, §6.5). The
//! entries learn what is left after the correction, so the sum settles where the
//! corrected evaluation is right on average.

use super::params::SearchParams;
use crate::shogi::{Color, PieceType, Position};

/// Entries per table and side to move.
const SIZE: usize = 1 << 14;
/// Features: board pawns, black's other pieces, white's other pieces, hands, last move.
const FEATURES: usize = 5;
/// Entries hold sixteenths of a centipawn.
const GRAIN: i32 = 16;
/// A search result further than this from the static evaluation (centipawns) counts as
/// this far: one tactical line must not swamp an entry.
const MAX_ERROR: i32 = 400;
/// The largest correction applied (centipawns).
const MAX_CORRECTION: i32 = 300;
/// An update moves an entry this many 256ths of the way to the new error at most.
const MAX_WEIGHT: i32 = 64;

/// The table index of each feature of one position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CorrectionKeys([u16; FEATURES]);

impl CorrectionKeys {
    /// The keys of `pos`, reached by a move whose (piece, destination) pair
    /// (`ordering::piece_to`) is `last_move` (`None`: a null move, or the root).
    pub fn of(pos: &Position, last_move: Option<usize>) -> CorrectionKeys {
        let pawns = [
            pos.pieces_of(Color::Black, PieceType::Pawn),
            pos.pieces_of(Color::White, PieceType::Pawn),
        ];
        let others = |c: Color| pos.pieces(c).and_not(pawns[c.index()]);
        let hands =
            pos.hand(Color::Black).raw() as u64 | (pos.hand(Color::White).raw() as u64) << 32;
        CorrectionKeys([
            index(mix(pawns[0].0, 0x9E37_79B9_7F4A_7C15) ^ mix(pawns[1].0, 0xC2B2_AE3D_27D4_EB4F)),
            index(mix(others(Color::Black).0, 0x1656_67B1_9E37_79F9)),
            index(mix(others(Color::White).0, 0x27D4_EB2F_1656_67C5)),
            index(hands.wrapping_mul(0xFF51_AFD7_ED55_8CCD) ^ (hands >> 29)),
            // Pairs are below `PIECE_TO_NB` (2,592), inside the table; 0 (the empty
            // piece's) stands for no move.
            last_move.map_or(0, |pair| pair as u16),
        ])
    }
}

/// A 64-bit hash of a board set, different per `salt`.
#[inline]
fn mix(set: u128, salt: u64) -> u64 {
    let lo = (set as u64).wrapping_mul(salt);
    let hi = ((set >> 64) as u64).wrapping_mul(salt.rotate_left(17) | 1);
    let h = lo ^ hi.rotate_left(31);
    h ^ (h >> 29)
}

#[inline]
fn index(h: u64) -> u16 {
    (h.wrapping_mul(0x9FB2_1C65_1E98_DF25) >> (64 - 14)) as u16
}

/// One search thread's correction tables.
pub struct CorrectionHistory {
    /// `entries[(feature * 2 + side) * SIZE + key]`.
    entries: Vec<i16>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory {
            entries: vec![0; FEATURES * 2 * SIZE],
        }
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    #[inline]
    fn slot(side: Color, feature: usize, key: u16) -> usize {
        (feature * 2 + side.index()) * SIZE + key as usize
    }

    /// The correction (centipawns) for a position with `keys`, `side` to move: the
    /// feature entries weighted by `params` (256ths).
    pub fn correction(&self, side: Color, keys: &CorrectionKeys, params: &SearchParams) -> i32 {
        let weights = [
            params.corr_pawn_weight(),
            params.corr_pieces_weight(),
            params.corr_pieces_weight(),
            params.corr_hands_weight(),
            params.corr_last_move_weight(),
        ];
        let sum: i64 = (0..FEATURES)
            .map(|f| self.entries[Self::slot(side, f, keys.0[f])] as i64 * weights[f] as i64)
            .sum();
        ((sum / (256 * GRAIN as i64)) as i32).clamp(-MAX_CORRECTION, MAX_CORRECTION)
    }

    /// A search of `depth` found `error` centipawns (its result less the corrected static
    /// evaluation): every feature entry moves towards it, deeper searches further.
    pub fn update(&mut self, side: Color, keys: &CorrectionKeys, error: i32, depth: i32) {
        let target = error.clamp(-MAX_ERROR, MAX_ERROR) * GRAIN;
        let weight = (depth * 4).clamp(1, MAX_WEIGHT);
        for f in 0..FEATURES {
            let e = &mut self.entries[Self::slot(side, f, keys.0[f])];
            let v = *e as i32;
            *e = (v + (target - v) * weight / 256) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::params::index;

    fn pos(sfen: &str) -> Position {
        sfen.parse().unwrap()
    }

    #[test]
    fn a_repeated_error_is_learnt_and_stays_bounded() {
        let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let keys = CorrectionKeys::of(&p, None);
        let params = SearchParams::default();
        let mut h = CorrectionHistory::new();
        assert_eq!(h.correction(Color::Black, &keys, &params), 0);
        for _ in 0..200 {
            h.update(Color::Black, &keys, 100, 20);
        }
        // Every feature's entry a little short of the error (an update moves a quarter of
        // the way, in whole sixteenths), weighted by the defaults: half of each of the five.
        assert_eq!(h.correction(Color::Black, &keys, &params), 249);
        let mut last_move_only = SearchParams::default();
        last_move_only.values[index::CORR_PAWN_WEIGHT] = 0;
        last_move_only.values[index::CORR_PIECES_WEIGHT] = 0;
        last_move_only.values[index::CORR_HANDS_WEIGHT] = 0;
        last_move_only.values[index::CORR_LAST_MOVE_WEIGHT] = 256;
        assert_eq!(h.correction(Color::Black, &keys, &last_move_only), 99);
        // The other side to move has its own tables.
        assert_eq!(h.correction(Color::White, &keys, &params), 0);
        for _ in 0..200 {
            h.update(Color::Black, &keys, -5_000, 20);
        }
        assert_eq!(h.correction(Color::Black, &keys, &params), -MAX_CORRECTION);
        h.clear();
        assert_eq!(h.correction(Color::Black, &keys, &params), 0);
    }

    #[test]
    fn keys_follow_the_features() {
        let start = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let pawn_moved = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
        let a = CorrectionKeys::of(&start, None);
        let b = CorrectionKeys::of(&pawn_moved, None);
        assert_ne!(a.0[0], b.0[0], "the pawns differ");
        assert_eq!(a.0[1..], b.0[1..], "nothing else does");
        let c = CorrectionKeys::of(&pawn_moved, Some(1234));
        assert_eq!(c.0[..4], b.0[..4]);
        assert_eq!(c.0[4], 1234);
    }
}
