//! YaneuraOu's `PackedSfenValue`, the 40-byte training record that its learner, the
//! nnue-pytorch family and cshogi (`cshogi.PackedSfenValue`) read (docs/DESIGN.md §14.1):
//!
//! ```text
//! bytes  0..32  the position, packed (PackedSfen)
//!       32..34  score: i16, the search score for the side to move
//!       34..36  move: u16, the searched best move in YaneuraOu's 16 bits
//!       36..38  gamePly: u16, the position's move number (1 at the start)
//!           38  game_result: i8, 1 if the side to move went on to win, -1 lost, 0 draw
//!           39  padding, 0
//! ```
//! Multi-byte fields are little-endian, as every platform these tools run on writes them.

use crate::shogi::packed_sfen::{move_from_psv, move_to_psv, PackedSfen};
use crate::shogi::Move;

/// Bytes in one record.
pub const RECORD_BYTES: usize = 40;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainingRecord {
    /// The position.
    pub sfen: PackedSfen,
    /// The search score from the side to move's view (the engine's centipawn scale).
    pub score: i16,
    /// The best move found, as [`crate::shogi::packed_sfen::move_to_psv`] writes it.
    pub mv: u16,
    /// The position's move number.
    pub game_ply: u16,
    /// 1, 0 or -1: the game's result for the side to move.
    pub game_result: i8,
}

impl TrainingRecord {
    /// A record of `sfen` with the best move `m`.
    pub fn new(sfen: PackedSfen, score: i16, m: Move, game_ply: u16, game_result: i8) -> Self {
        TrainingRecord {
            sfen,
            score,
            mv: move_to_psv(m),
            game_ply,
            game_result,
        }
    }

    /// The 40 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..32].copy_from_slice(&self.sfen.0);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.mv.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result as u8;
        b
    }

    /// Read a record back (any 40 bytes are a record; the position is checked when it is
    /// unpacked).
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Self {
        let mut sfen = [0u8; 32];
        sfen.copy_from_slice(&b[..32]);
        TrainingRecord {
            sfen: PackedSfen(sfen),
            score: i16::from_le_bytes([b[32], b[33]]),
            mv: u16::from_le_bytes([b[34], b[35]]),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: b[38] as i8,
        }
    }

    /// The best move, `None` when the bits are no well-formed move.
    pub fn best_move(&self) -> Option<Move> {
        move_from_psv(self.mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Position;

    #[test]
    fn bytes_round_trip_with_the_documented_layout() {
        let pos = Position::startpos();
        let m = Move::from_usi("7g7f").unwrap();
        let r = TrainingRecord::new(PackedSfen::pack(&pos).unwrap(), -123, m, 1, -1);
        let b = r.to_bytes();
        assert_eq!(&b[32..34], &(-123i16).to_le_bytes());
        assert_eq!(u16::from_le_bytes([b[34], b[35]]), move_to_psv(m));
        assert_eq!((b[36], b[37], b[38], b[39]), (1, 0, 0xff, 0));
        let back = TrainingRecord::from_bytes(&b);
        assert_eq!(back, r);
        assert_eq!(back.best_move(), Some(m));
    }
}
