//! Static exchange evaluation (DESIGN.md §2.5): the material balance of the capture sequence
//! on one square when both sides always recapture with their cheapest piece and may stop
//! whenever going on would lose material. Sliders hidden behind a capturer join in as it
//! leaves (x-rays). Drops are ignored as recaptures, and pins are not considered.

use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::PieceType;

/// Exchange value of each piece type, in centipawn-like units (index = piece type).
/// The king is priced so that losing it outweighs any exchange.
pub const SEE_VALUE: [i32; PieceType::NB] = [
    0,     // none
    100,   // pawn
    300,   // lance
    400,   // knight
    500,   // silver
    800,   // bishop
    950,   // rook
    550,   // gold
    20000, // king
    550,   // tokin
    550,   // promoted lance
    550,   // promoted knight
    550,   // promoted silver
    1050,  // horse
    1200,  // dragon
];

/// The value of a piece of kind `pt` in the exchanges [`Position::see`] counts (a pawn is 100).
#[inline(always)]
pub fn see_value(pt: PieceType) -> i32 {
    SEE_VALUE[pt.index()]
}

/// Attack order: cheapest first.
const ORDER: [PieceType; 14] = [
    PieceType::Pawn,
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::ProPawn,
    PieceType::ProLance,
    PieceType::ProKnight,
    PieceType::ProSilver,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Dragon,
    PieceType::King,
];

impl Position {
    /// Static exchange value of `m` for the side to move (DESIGN.md §2.5), counting the
    /// promotion gain of `m` itself. A pseudo-legal move is expected.
    pub fn see(&self, m: Move) -> i32 {
        let (first_gain, on_square) = self.see_first_capture(m);
        self.see_exchange(m, first_gain, on_square)
    }

    /// `self.see(m) >= threshold`. The exchange is played out only when its first capture
    /// does not settle the answer: the side to move keeps at most what `m` gains (the other
    /// side may recapture), and at least that less the piece `m` leaves on the square (the
    /// other side's best is to take it; recapturing again only helps).
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (first_gain, on_square) = self.see_first_capture(m);
        if first_gain < threshold {
            return false;
        }
        if first_gain - on_square >= threshold {
            return true;
        }
        self.see_exchange(m, first_gain, on_square) >= threshold
    }

    /// `Some(self.see(m))` when it is at least `threshold`, else `None`: for a caller that
    /// keeps the value of the moves it keeps (the exchange is not played out when the
    /// first capture already falls short).
    pub fn see_at_least(&self, m: Move, threshold: i32) -> Option<i32> {
        let (first_gain, on_square) = self.see_first_capture(m);
        if first_gain < threshold {
            return None;
        }
        let value = self.see_exchange(m, first_gain, on_square);
        (value >= threshold).then_some(value)
    }

    /// What `m` itself gains (the captured piece and its own promotion) and the value of
    /// the piece it leaves on its destination.
    #[inline(always)]
    fn see_first_capture(&self, m: Move) -> (i32, i32) {
        if m.is_drop() {
            return (0, see_value(m.dropped()));
        }
        let moved = self.piece_on(m.from()).piece_type();
        let captured = self.piece_on(m.to());
        let mut gain = if captured.is_empty() {
            0
        } else {
            see_value(captured.piece_type())
        };
        let mut on_square = see_value(moved);
        if m.is_promotion() {
            let promoted = see_value(moved.promoted());
            gain += promoted - on_square;
            on_square = promoted;
        }
        (gain, on_square)
    }

    /// The exchange on `m`'s destination after `m`, given [`Self::see_first_capture`].
    fn see_exchange(&self, m: Move, first_gain: i32, mut on_square: i32) -> i32 {
        let us = self.side_to_move();
        let to = m.to();
        let mut occ = self.occupied();
        if !m.is_drop() {
            occ.clear(m.from());
        }
        let mut gain = [0i32; 40];
        gain[0] = first_gain;
        let mut side = us.flip();
        let mut depth = 0;
        let mut attackers = self.all_attackers(to, occ);
        loop {
            let mine = attackers & self.pieces(side);
            if mine.is_empty() {
                break;
            }
            // Cheapest attacker of `side`.
            let (pt, sq) = ORDER
                .iter()
                .find_map(|&pt| {
                    let b = mine & self.pieces_of_type(pt);
                    b.any().then(|| (pt, b.lsb()))
                })
                .expect("an attacker has a type");
            if pt == PieceType::King && (attackers & self.pieces(side.flip())).any() {
                // The king may not capture into a defended square.
                break;
            }
            depth += 1;
            gain[depth] = on_square - gain[depth - 1];
            on_square = see_value(pt);
            occ.clear(sq);
            // Step attackers do not depend on the occupancy: only sliders behind the piece
            // that left can join.
            attackers = (attackers | self.slider_attackers_to_both(to, occ)) & occ;
            side = side.flip();
            if depth + 1 >= gain.len() {
                break;
            }
        }
        while depth > 0 {
            gain[depth - 1] = -std::cmp::max(-gain[depth - 1], gain[depth]);
            depth -= 1;
        }
        gain[0]
    }

    /// Pieces of both colours attacking `sq` with occupancy `occ`, restricted to `occ`.
    fn all_attackers(&self, sq: super::types::Square, occ: Bitboard) -> Bitboard {
        self.attackers_to_both(sq, occ) & occ
    }
}
