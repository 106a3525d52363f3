//! Basic value types of the rules core: colours, piece types, pieces and squares.
//!
//! Squares are numbered file-major, as USI names them: `sq = file * 9 + rank`, where file 0 is
//! the USI file `1` and rank 0 is the USI rank `a`. So `1a` = 0, `1i` = 8, `2a` = 9 and
//! `9i` = 80. A file is therefore 9 contiguous bits of a bitboard, which makes lance and the
//! rook's vertical attacks simple table look-ups.

use std::fmt;

/// The side of a piece or of the player to move. Black (sente) moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// Sente, the first player.
    Black = 0,
    /// Gote, the second player.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// 0 for Black, 1 for White (for indexing tables).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other colour.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The colour of index `i` (0 or 1).
    #[inline(always)]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A kind of piece, without colour. Promoted kinds are the unpromoted ones plus 8
/// (`Pawn` 1 -> `ProPawn` 9, ..., `Rook` 6 -> `Dragon` 14); `Gold` and `King` never promote.
/// The first seven values are the kinds that can be held in hand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn (fu).
    Pawn = 1,
    /// Lance (kyo).
    Lance = 2,
    /// Knight (kei).
    Knight = 3,
    /// Silver general (gin).
    Silver = 4,
    /// Bishop (kaku).
    Bishop = 5,
    /// Rook (hisha).
    Rook = 6,
    /// Gold general (kin).
    Gold = 7,
    /// King (gyoku).
    King = 8,
    /// Promoted pawn (tokin).
    ProPawn = 9,
    /// Promoted lance.
    ProLance = 10,
    /// Promoted knight.
    ProKnight = 11,
    /// Promoted silver.
    ProSilver = 12,
    /// Horse: promoted bishop (uma).
    Horse = 13,
    /// Dragon: promoted rook (ryu).
    Dragon = 14,
}

impl PieceType {
    /// Every piece type, in numeric order.
    pub const ALL: [PieceType; 14] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
        PieceType::King,
        PieceType::ProPawn,
        PieceType::ProLance,
        PieceType::ProKnight,
        PieceType::ProSilver,
        PieceType::Horse,
        PieceType::Dragon,
    ];
    /// The piece types that can be held in hand, in numeric order.
    pub const HAND: [PieceType; 7] = [
        PieceType::Pawn,
        PieceType::Lance,
        PieceType::Knight,
        PieceType::Silver,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Gold,
    ];
    /// Number of slots needed for arrays indexed by piece type (index 0 unused).
    pub const NB: usize = 15;

    /// The kind's number (1..=14), for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Piece type from its numeric value (1..=14).
    #[inline]
    pub const fn from_u8(v: u8) -> Option<PieceType> {
        if v >= 1 && v <= 14 {
            Some(Self::ALL[(v - 1) as usize])
        } else {
            None
        }
    }

    /// True for the six kinds that can promote.
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    /// True for the six promoted kinds.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// The promoted form. Only meaningful when `can_promote()`.
    #[inline(always)]
    pub const fn promoted(self) -> PieceType {
        Self::ALL[(self as u8 + 8 - 1) as usize]
    }

    /// The unpromoted form (what the piece becomes when captured). Kings stay kings.
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceType {
        if self.is_promoted() {
            Self::ALL[(self as u8 - 8 - 1) as usize]
        } else {
            self
        }
    }

    /// Pieces that move like a gold general.
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceType::Gold
                | PieceType::ProPawn
                | PieceType::ProLance
                | PieceType::ProKnight
                | PieceType::ProSilver
        )
    }

    /// Upper-case SFEN letter of the unpromoted kind.
    pub const fn sfen_letter(self) -> char {
        match self.unpromoted() {
            PieceType::Pawn => 'P',
            PieceType::Lance => 'L',
            PieceType::Knight => 'N',
            PieceType::Silver => 'S',
            PieceType::Bishop => 'B',
            PieceType::Rook => 'R',
            PieceType::Gold => 'G',
            _ => 'K',
        }
    }

    /// Unpromoted piece type from an upper-case SFEN letter.
    pub const fn from_sfen_letter(c: char) -> Option<PieceType> {
        match c {
            'P' => Some(PieceType::Pawn),
            'L' => Some(PieceType::Lance),
            'N' => Some(PieceType::Knight),
            'S' => Some(PieceType::Silver),
            'B' => Some(PieceType::Bishop),
            'R' => Some(PieceType::Rook),
            'G' => Some(PieceType::Gold),
            'K' => Some(PieceType::King),
            _ => None,
        }
    }
}

/// A coloured piece, or no piece. Encoded as `piece_type + 16 * color`; 0 is empty.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// An empty square.
    pub const EMPTY: Piece = Piece(0);
    /// Number of slots needed for arrays indexed by piece.
    pub const NB: usize = 32;

    /// The piece of kind `pt` owned by `color`.
    #[inline(always)]
    pub const fn new(color: Color, pt: PieceType) -> Piece {
        Piece(pt as u8 + 16 * color as u8)
    }

    /// True for [`Piece::EMPTY`].
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The piece's number, for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Colour of a non-empty piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >= 16 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Type of a non-empty piece.
    #[inline(always)]
    pub const fn piece_type(self) -> PieceType {
        PieceType::ALL[((self.0 & 15) - 1) as usize]
    }

    /// Type of the piece, or `None` when empty.
    #[inline(always)]
    pub const fn kind(self) -> Option<PieceType> {
        PieceType::from_u8(self.0 & 15)
    }
}

/// The SFEN letters: `P`, `+r`, ...; `.` for an empty square (Debug shows the same).
impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            None => write!(f, "."),
            Some(pt) => {
                let plus = if pt.is_promoted() { "+" } else { "" };
                let c = pt.sfen_letter();
                let c = if self.color() == Color::White {
                    c.to_ascii_lowercase()
                } else {
                    c
                };
                write!(f, "{plus}{c}")
            }
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// One of the 81 squares, numbered file-major (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NB: usize = 81;

    /// Square from its index 0..81.
    #[inline(always)]
    pub const fn new(index: u8) -> Square {
        debug_assert!(index < 81);
        Square(index)
    }

    /// Square from 0-based file (0 = USI file 1) and 0-based rank (0 = USI rank a).
    #[inline(always)]
    pub const fn from_file_rank(file: u8, rank: u8) -> Square {
        Square(file * 9 + rank)
    }

    /// The square's index (0..81), for indexing tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The square's raw byte (its index).
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self.0
    }

    /// 0-based file: 0 is USI file `1`.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 / 9
    }

    /// 0-based rank: 0 is USI rank `a`.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 % 9
    }

    /// King distance (the larger of the file and rank differences): how many king steps
    /// lead from one square to the other.
    #[inline(always)]
    pub const fn distance(self, other: Square) -> u8 {
        let files = self.file().abs_diff(other.file());
        let ranks = self.rank().abs_diff(other.rank());
        if files > ranks {
            files
        } else {
            ranks
        }
    }

    /// Rank as seen by `c`: 0 is the far rank (where `c`'s pawns promote last).
    #[inline(always)]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Black => self.rank(),
            Color::White => 8 - self.rank(),
        }
    }

    /// The same square seen from the other side (rotated 180 degrees).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// Iterate over all squares.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Parse a USI square name such as `7g`.
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].wrapping_sub(b'1');
        let r = b[1].wrapping_sub(b'a');
        if f < 9 && r < 9 {
            Some(Square::from_file_rank(f, r))
        } else {
            None
        }
    }

    /// USI name such as `7g`.
    pub fn usi(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'1' + self.file()) as char);
        s.push((b'a' + self.rank()) as char);
        s
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.usi())
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.usi())
    }
}

/// True when `sq` lies in the promotion zone of `c` (the three far ranks).
#[inline(always)]
pub const fn in_promotion_zone(c: Color, sq: Square) -> bool {
    sq.relative_rank(c) <= 2
}

/// The dead-rank rule, the one place it is written: how many far ranks a piece of kind
/// `pt` could never move from (pawn and lance 1, knight 2, any other kind 0). A drop or a
/// non-promoting move there is illegal, and a standard position holds no such piece.
#[inline(always)]
pub const fn dead_rank_count(pt: PieceType) -> u8 {
    match pt {
        PieceType::Pawn | PieceType::Lance => 1,
        PieceType::Knight => 2,
        _ => 0,
    }
}

/// True when a `c` piece of kind `pt` on `sq` could never move again ([`dead_rank_count`]).
#[inline(always)]
pub const fn is_dead_square(c: Color, pt: PieceType, sq: Square) -> bool {
    sq.relative_rank(c) < dead_rank_count(pt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.usi()), Some(sq));
        }
        assert_eq!(Square::from_usi("1a").unwrap().index(), 0);
        assert_eq!(Square::from_usi("9i").unwrap().index(), 80);
        assert_eq!(Square::from_usi("7g").unwrap().file(), 6);
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
    }

    #[test]
    fn piece_types_promote_and_demote() {
        for pt in PieceType::ALL {
            if pt.can_promote() {
                assert_eq!(pt.promoted().unpromoted(), pt);
                assert!(pt.promoted().is_promoted());
            }
            let p = Piece::new(Color::White, pt);
            assert_eq!(p.piece_type(), pt);
            assert_eq!(p.color(), Color::White);
        }
    }
}
