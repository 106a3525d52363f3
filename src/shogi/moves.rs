//! Compact moves and their USI notation.
//!
//! ```text
//!  bit 15   14      13..7            6..0
//!      0  promote  from (0..81)       to
//!                  or 81 + pt - 1 for a drop of hand kind pt (Pawn..=Gold)
//! ```
//! A move never has `from == to`, so 0 is free for [`Move::NONE`] and `1a1a`-style
//! values for [`Move::NULL`].

use super::types::{PieceType, Square};
use std::fmt;

/// A move in 16 bits: destination, origin square or dropped kind, promotion flag.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(u16);

const DROP_BASE: u16 = 81;

impl Move {
    /// No move.
    pub const NONE: Move = Move(0);
    /// The null move (pass), used by search only.
    pub const NULL: Move = Move((1 << 7) | 1);

    /// A board move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.raw() as u16 | ((from.raw() as u16) << 7) | ((promote as u16) << 14))
    }

    /// A drop of hand kind `pt` onto `to`.
    #[inline(always)]
    pub const fn drop(pt: PieceType, to: Square) -> Move {
        Move(to.raw() as u16 | ((DROP_BASE + pt as u16 - 1) << 7))
    }

    /// Rebuild from [`Move::raw`]. The value is not validated: use
    /// `Position::is_pseudo_legal` before playing it.
    #[inline(always)]
    pub const fn from_raw(v: u16) -> Move {
        Move(v)
    }

    /// The 16 raw bits (what [`Move::from_raw`] takes back).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// True for [`Move::NONE`], the absence of a move.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// A real move (neither NONE nor NULL).
    #[inline(always)]
    pub const fn is_some(self) -> bool {
        self.0 != 0 && self.0 != Self::NULL.0
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 & 0x7f) as u8)
    }

    /// Raw from field (0..81 for board moves, 81.. for drops).
    #[inline(always)]
    pub const fn from_raw_field(self) -> u16 {
        (self.0 >> 7) & 0x7f
    }

    /// True for a drop from the hand.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.from_raw_field() >= DROP_BASE
    }

    /// Origin square of a board move.
    #[inline(always)]
    pub const fn from(self) -> Square {
        debug_assert!(!self.is_drop());
        Square::new(self.from_raw_field() as u8)
    }

    /// Hand kind of a drop.
    #[inline(always)]
    pub const fn dropped(self) -> PieceType {
        debug_assert!(self.is_drop());
        PieceType::ALL[(self.from_raw_field() - DROP_BASE) as usize]
    }

    /// True when the moving piece promotes.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (1 << 14) != 0
    }

    /// True when the raw bits describe a well-formed move (squares in range, drops of a hand
    /// kind without promotion, from != to). Says nothing about a position.
    pub const fn is_well_formed(self) -> bool {
        let to = self.0 & 0x7f;
        let from = self.from_raw_field();
        if self.0 >> 15 != 0 || to >= 81 {
            return false;
        }
        if from >= DROP_BASE {
            from < DROP_BASE + 7 && !self.is_promotion()
        } else {
            from != to
        }
    }

    /// Parse USI notation (`7g7f`, `8h2b+`, `P*5e`). Syntax only; legality is the
    /// position's business. `resign`, `win` and `0000` are not moves and give `None`.
    pub fn from_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let pt = PieceType::from_sfen_letter(b[0] as char)?;
            if pt == PieceType::King {
                return None;
            }
            let to = Square::from_usi(&s[2..4])?;
            return Some(Move::drop(pt, to));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        let from = Square::from_usi(s.get(0..2)?)?;
        let to = Square::from_usi(s.get(2..4)?)?;
        if from == to {
            return None;
        }
        Some(Move::normal(from, to, promote))
    }

    /// USI notation. NONE prints as `none`, NULL as `0000`.
    pub fn usi(self) -> String {
        if self.is_none() {
            return "none".into();
        }
        if self == Move::NULL {
            return "0000".into();
        }
        if self.is_drop() {
            format!("{}*{}", self.dropped().sfen_letter(), self.to())
        } else {
            let plus = if self.is_promotion() { "+" } else { "" };
            format!("{}{}{}", self.from(), self.to(), plus)
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.usi())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.usi())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usi_round_trip() {
        for s in ["7g7f", "8h2b+", "P*5e", "G*1a", "R*9i", "1a9i"] {
            let m = Move::from_usi(s).unwrap();
            assert!(m.is_well_formed());
            assert_eq!(m.usi(), s);
        }
        for s in [
            "", "7g7g", "K*5e", "7g7f=", "P*5", "0a1a", "7g7f++", "resign", "win",
        ] {
            assert_eq!(Move::from_usi(s), None, "{s}");
        }
        let m = Move::from_usi("P*5e").unwrap();
        assert!(m.is_drop());
        assert_eq!(m.dropped(), PieceType::Pawn);
        assert!(!Move::NULL.is_drop());
        assert!(!Move::from_raw(0xffff).is_well_formed());
    }
}
