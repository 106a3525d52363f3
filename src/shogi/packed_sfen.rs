//! YaneuraOu's packed SFEN: a position in exactly 256 bits, the position half of the
//! 40-byte `PackedSfenValue` training record (docs/DESIGN.md §14.1).
//!
//! The bits are written least significant first, byte by byte:
//!
//! ```text
//! 1 bit    side to move (0 black, 1 white)
//! 7 + 7    the squares of the black and the white king
//! ...      the other 79 squares from 1a (square 0) to 9i: one Huffman code each
//! ...      pieces in hand, black's then white's, then the pieces of the "piece box"
//!          (in neither hand nor on the board: handicap games) until bit 256
//! ```
//!
//! A board piece is its kind's code, then a promotion bit (not for gold), then a colour bit;
//! an empty square is one 0 bit. A piece in hand drops the code's first bit (always 1 for a
//! piece), so capturing a piece keeps the total at 256: the square it leaves costs one bit
//! more, its code in hand one bit less. A piece in the box is written as a promoted piece in
//! black's hand, a gold (which has no promotion bit) as a promoted silver in white's hand;
//! this is the convention of cshogi's `to_psfen`/`set_psfen`, which reads files of
//! YaneuraOu's learner as well.

use super::hand::{Hand, MAX_IN_HAND};
use super::moves::Move;
use super::position::Position;
use super::types::{Color, Piece, PieceType, Square};
use std::fmt;

/// Bits in a packed position.
const BITS: usize = 256;

/// A position packed into 32 bytes (see the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct PackedSfen(pub [u8; 32]);

/// Why a position cannot be packed, or 32 bytes are not a packed position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PackedSfenError {
    /// A king is missing (a tsume problem): the format has no place for that.
    MissingKing,
    /// More pieces of a kind than a game set has (a composed position).
    TooManyPieces,
    /// The bits are no valid sequence of codes, or do not end exactly at bit 256.
    BadCode,
    /// A king square outside the board, or both kings on one square.
    BadKingSquare,
    /// The codes decode, but the position breaks the rules (two pawns on a file, a piece
    /// that can never move, the side not to move in check...).
    IllegalPosition,
}

impl fmt::Display for PackedSfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PackedSfenError::MissingKing => "a king is missing",
            PackedSfenError::TooManyPieces => "more pieces of a kind than a game set has",
            PackedSfenError::BadCode => "not a valid sequence of piece codes",
            PackedSfenError::BadKingSquare => "a king square is off the board or shared",
            PackedSfenError::IllegalPosition => "the decoded position breaks the rules",
        })
    }
}

impl std::error::Error for PackedSfenError {}

/// The Huffman code of a kind on the board, low bit first, and its length; the code in hand
/// is `code >> 1` in `bits - 1`. Hands are written in YaneuraOu's order, which is that of
/// [`PieceType::HAND`]: Pawn, Lance, Knight, Silver, Bishop, Rook, Gold.
const fn board_code(pt: PieceType) -> (u32, u32) {
    match pt {
        PieceType::Pawn => (0b1, 2),
        PieceType::Lance => (0b0011, 4),
        PieceType::Knight => (0b1011, 4),
        PieceType::Silver => (0b0111, 4),
        PieceType::Gold => (0b0_1111, 5),
        PieceType::Bishop => (0b01_1111, 6),
        _ => (0b11_1111, 6), // Rook; promoted kinds are passed as their base kind
    }
}

struct BitWriter {
    data: [u8; 32],
    cursor: usize,
}

impl BitWriter {
    fn bit(&mut self, b: bool) -> Result<(), PackedSfenError> {
        if self.cursor >= BITS {
            return Err(PackedSfenError::TooManyPieces);
        }
        self.data[self.cursor / 8] |= (b as u8) << (self.cursor % 8);
        self.cursor += 1;
        Ok(())
    }

    fn bits(&mut self, value: u32, n: u32) -> Result<(), PackedSfenError> {
        (0..n).try_for_each(|i| self.bit((value >> i) & 1 != 0))
    }

    fn hand_piece(
        &mut self,
        pt: PieceType,
        promoted: bool,
        c: Color,
    ) -> Result<(), PackedSfenError> {
        let (code, n) = board_code(pt);
        self.bits(code >> 1, n - 1)?;
        if pt != PieceType::Gold {
            self.bit(promoted)?;
        }
        self.bit(c == Color::White)
    }
}

struct BitReader<'a> {
    data: &'a [u8; 32],
    cursor: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<bool, PackedSfenError> {
        if self.cursor >= BITS {
            return Err(PackedSfenError::BadCode);
        }
        let b = (self.data[self.cursor / 8] >> (self.cursor % 8)) & 1 != 0;
        self.cursor += 1;
        Ok(b)
    }

    fn bits(&mut self, n: u32) -> Result<u32, PackedSfenError> {
        let mut v = 0;
        for i in 0..n {
            v |= (self.bit()? as u32) << i;
        }
        Ok(v)
    }

    /// The kind whose hand code comes next: the board code without its leading 1.
    /// Pawn 0, lance 100, knight 101, silver 110, gold 1110, bishop 11110, rook 11111
    /// (bits in reading order).
    fn hand_kind(&mut self) -> Result<PieceType, PackedSfenError> {
        if !self.bit()? {
            return Ok(PieceType::Pawn);
        }
        if !self.bit()? {
            return Ok(if self.bit()? {
                PieceType::Knight
            } else {
                PieceType::Lance
            });
        }
        if !self.bit()? {
            return Ok(PieceType::Silver);
        }
        if !self.bit()? {
            return Ok(PieceType::Gold);
        }
        Ok(if self.bit()? {
            PieceType::Rook
        } else {
            PieceType::Bishop
        })
    }
}

/// A decoded packed position before the rules have checked it: what a trainer reads
/// without building a [`Position`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnpackedSfen {
    /// The side to move.
    pub side_to_move: Color,
    /// The piece on every square, indexed by [`Square::index`].
    pub board: [Piece; 81],
    /// Black's and White's pieces in hand.
    pub hands: [Hand; 2],
}

impl PackedSfen {
    /// Pack a position. Fails for a position without both kings or with more pieces of a
    /// kind than a game set has; the pieces missing from a game set (handicaps) go to the
    /// piece box.
    pub fn pack(pos: &Position) -> Result<PackedSfen, PackedSfenError> {
        let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
        let (Some(bk), Some(wk)) = (kings[0], kings[1]) else {
            return Err(PackedSfenError::MissingKing);
        };
        // Pieces of each hand kind not yet placed, indexed by base kind.
        let mut in_box = MAX_IN_HAND;
        let mut w = BitWriter {
            data: [0; 32],
            cursor: 0,
        };
        w.bit(pos.side_to_move() == Color::White)?;
        w.bits(bk.index() as u32, 7)?;
        w.bits(wk.index() as u32, 7)?;
        for sq in Square::all() {
            let pc = pos.piece_on(sq);
            let Some(pt) = pc.kind() else {
                w.bit(false)?;
                continue;
            };
            if pt == PieceType::King {
                continue;
            }
            let base = pt.unpromoted();
            let (code, n) = board_code(base);
            w.bits(code, n)?;
            if base != PieceType::Gold {
                w.bit(pt.is_promoted())?;
            }
            w.bit(pc.color() == Color::White)?;
            take(&mut in_box, base)?;
        }
        for c in Color::ALL {
            for pt in PieceType::HAND {
                for _ in 0..pos.hand(c).count(pt) {
                    w.hand_piece(pt, false, c)?;
                    take(&mut in_box, pt)?;
                }
            }
        }
        for pt in PieceType::HAND {
            for _ in 0..in_box[pt as usize] {
                if pt == PieceType::Gold {
                    w.hand_piece(PieceType::Silver, true, Color::White)?;
                } else {
                    w.hand_piece(pt, true, Color::Black)?;
                }
            }
        }
        // A full set always fills exactly 256 bits (module documentation).
        debug_assert_eq!(w.cursor, BITS);
        Ok(PackedSfen(w.data))
    }

    /// Decode the codes without checking the rules.
    pub fn unpack_raw(&self) -> Result<UnpackedSfen, PackedSfenError> {
        let mut r = BitReader {
            data: &self.0,
            cursor: 0,
        };
        let side_to_move = if r.bit()? { Color::White } else { Color::Black };
        let bk = r.bits(7)? as usize;
        let wk = r.bits(7)? as usize;
        if bk >= 81 || wk >= 81 || bk == wk {
            return Err(PackedSfenError::BadKingSquare);
        }
        let mut board = [Piece::EMPTY; 81];
        board[bk] = Piece::new(Color::Black, PieceType::King);
        board[wk] = Piece::new(Color::White, PieceType::King);
        for (i, slot) in board.iter_mut().enumerate() {
            if i == bk || i == wk || !r.bit()? {
                continue;
            }
            // A board code is a 1 followed by the hand code of the kind.
            let base = r.hand_kind()?;
            let promoted = base != PieceType::Gold && r.bit()?;
            let color = if r.bit()? { Color::White } else { Color::Black };
            let pt = if promoted { base.promoted() } else { base };
            *slot = Piece::new(color, pt);
        }
        let mut hands = [Hand::EMPTY; 2];
        while r.cursor < BITS {
            let pt = r.hand_kind()?;
            let promoted = pt != PieceType::Gold && r.bit()?;
            let white = r.bit()?;
            match (promoted, white) {
                (false, _) => hands[white as usize].add(pt),
                // The piece box: nobody's piece.
                (true, false) => {}
                (true, true) if pt == PieceType::Silver => {} // a gold in the box
                (true, true) => return Err(PackedSfenError::BadCode),
            }
            if hands.iter().any(|h| h.count(pt) > MAX_IN_HAND[pt as usize]) {
                return Err(PackedSfenError::TooManyPieces);
            }
        }
        Ok(UnpackedSfen {
            side_to_move,
            board,
            hands,
        })
    }

    /// Decode into a position, checked as an SFEN would be; `move_number` is the move
    /// number it gets (the record's `gamePly`; 1 when unknown).
    pub fn unpack(&self, move_number: u32) -> Result<Position, PackedSfenError> {
        let raw = self.unpack_raw()?;
        Position::from_sfen(&raw.to_sfen(move_number.max(1)))
            .map_err(|_| PackedSfenError::IllegalPosition)
    }
}

fn take(left: &mut [u32; 8], pt: PieceType) -> Result<(), PackedSfenError> {
    let n = &mut left[pt as usize];
    *n = n.checked_sub(1).ok_or(PackedSfenError::TooManyPieces)?;
    Ok(())
}

impl UnpackedSfen {
    /// The SFEN of these pieces (hands R B G S N L P, as [`Position::to_sfen`] writes them).
    pub fn to_sfen(&self, move_number: u32) -> String {
        let mut s = String::with_capacity(96);
        // Writing to a String never fails.
        let _ = super::sfen::write_sfen(
            &mut s,
            &self.board,
            self.side_to_move,
            &self.hands,
            move_number,
        );
        s
    }
}

/// YaneuraOu's 16-bit move of a `PackedSfenValue`: destination in bits 0-6, origin in bits
/// 7-13 (for a drop, the dropped kind, Pawn = 1 ... Gold = 7), bit 14 set for a drop, bit 15
/// for a promotion. [`Move`] itself keeps drops as 81 + kind - 1 and promotion in bit 14.
pub fn move_to_psv(m: Move) -> u16 {
    if !m.is_some() {
        return 0;
    }
    let to = m.to().index() as u16;
    if m.is_drop() {
        to | ((m.dropped() as u16) << 7) | (1 << 14)
    } else {
        to | ((m.from().index() as u16) << 7) | ((m.is_promotion() as u16) << 15)
    }
}

/// The [`Move`] of a `PackedSfenValue` move, `None` if the bits are no well-formed move
/// (0 is "no move"). Legality is the position's business.
pub fn move_from_psv(v: u16) -> Option<Move> {
    let to = (v & 0x7f) as u8;
    let from = ((v >> 7) & 0x7f) as u8;
    if to >= 81 {
        return None;
    }
    let m = if v & (1 << 14) != 0 {
        if v & (1 << 15) != 0 || !(1..=7).contains(&from) {
            return None;
        }
        Move::drop(PieceType::ALL[from as usize - 1], Square::new(to))
    } else {
        if from >= 81 {
            return None;
        }
        Move::normal(Square::new(from), Square::new(to), v & (1 << 15) != 0)
    };
    m.is_well_formed().then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// cshogi 0.9's `Board().to_psfen()` of the start position.
    const STARTPOS_PACKED: [u8; 32] = [
        88, 164, 81, 34, 12, 235, 103, 34, 126, 150, 83, 34, 28, 175, 68, 120, 36, 194, 43, 17,
        158, 83, 34, 28, 235, 111, 34, 62, 150, 81, 34, 12,
    ];

    #[test]
    fn start_position_packs_as_cshogi_does() {
        let p = PackedSfen::pack(&Position::startpos()).unwrap();
        assert_eq!(p.0, STARTPOS_PACKED);
        assert_eq!(
            p.unpack(1).unwrap().to_sfen(),
            Position::startpos().to_sfen()
        );
    }

    #[test]
    fn a_missing_bishop_goes_to_the_piece_box() {
        // Black without its bishop, white to move, and cshogi's to_psfen of it.
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL w - 1";
        let cshogi: [u8; 32] = [
            89, 164, 81, 34, 12, 235, 103, 34, 126, 150, 83, 34, 28, 175, 68, 120, 36, 194, 43, 17,
            158, 83, 34, 28, 235, 111, 34, 44, 163, 68, 24, 94,
        ];
        let pos = Position::from_sfen(sfen).unwrap();
        let p = PackedSfen::pack(&pos).unwrap();
        assert_eq!(p.0, cshogi);
        assert_eq!(p.unpack(1).unwrap().to_sfen(), sfen);
        let raw = p.unpack_raw().unwrap();
        assert_eq!(raw.hands, [Hand::EMPTY; 2]);
    }

    #[test]
    fn moves_convert_both_ways() {
        // Values from cshogi's move16_to_psv.
        let cases = [
            ("3c3d", 2581u16),
            ("8h2b+", 0xa30a),
            ("G*5e", 0x43a8),
            ("L*5e", 0x4128),
        ];
        for (usi, psv) in cases {
            let m = Move::from_usi(usi).unwrap();
            assert_eq!(move_to_psv(m), psv, "{usi}");
            assert_eq!(move_from_psv(psv), Some(m), "{usi}");
        }
        assert_eq!(move_from_psv(0), None);
        assert_eq!(move_from_psv(0x4000 | (8 << 7) | 40), None); // drop of kind 8
        assert_eq!(move_from_psv(81), None); // destination off the board
    }

    #[test]
    fn composed_positions_are_refused() {
        let tsume = Position::from_sfen_with(
            "4k4/9/4P4/9/9/9/9/9/9 b G 1",
            crate::shogi::Validation::Composed,
        )
        .unwrap();
        assert_eq!(PackedSfen::pack(&tsume), Err(PackedSfenError::MissingKing));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        let mut rng = crate::util::rng::Rng::new(7);
        for _ in 0..20_000 {
            let mut bytes = [0u8; 32];
            for b in bytes.iter_mut() {
                *b = rng.next_u64() as u8;
            }
            let _ = PackedSfen(bytes).unpack(1);
        }
    }
}
