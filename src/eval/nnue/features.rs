//! HalfKP(Friend) input features, numbered as YaneuraOu numbers them (`FORMAT.md` §4).
//!
//! A feature is (own king square, BonaPiece) seen from one perspective. A BonaPiece names
//! a piece on a square or the i-th piece of a kind in a hand, split into "friend" (the
//! perspective's pieces) and "enemy". From white's perspective every square is rotated
//! 180 degrees, so one set of weights serves both sides. Kings are not features: they
//! choose the 1,548-feature block.

use crate::shogi::{Color, Piece, PieceType, Position, Square};

/// BonaPieces per king square (`fe_end`).
pub const FE_END: usize = 1548;
/// Input features: 81 king squares times `FE_END`.
pub const N_FEATURES: usize = 81 * FE_END;
/// Features active per perspective: the 38 non-king pieces of a set, absent ones counting
/// as BonaPiece 0 (YaneuraOu's fixed piece list keeps a zero entry for each).
pub const ACTIVE_FEATURES: usize = 38;

/// Pieces of each hand kind in a set, indexed by piece type (pawn 18, ..., rook 2).
const SET_COUNT: [u32; PieceType::NB] = {
    let mut n = [0; PieceType::NB];
    n[PieceType::Pawn as usize] = 18;
    n[PieceType::Lance as usize] = 4;
    n[PieceType::Knight as usize] = 4;
    n[PieceType::Silver as usize] = 4;
    n[PieceType::Gold as usize] = 4;
    n[PieceType::Bishop as usize] = 2;
    n[PieceType::Rook as usize] = 2;
    n
};

/// First BonaPiece of a hand kind, `[friend, enemy]` (`FORMAT.md` §4: f_hand / e_hand).
const HAND_BASE: [[u16; PieceType::NB]; 2] = by_piece_type([
    (PieceType::Pawn, 1, 20),
    (PieceType::Lance, 39, 44),
    (PieceType::Knight, 49, 54),
    (PieceType::Silver, 59, 64),
    (PieceType::Gold, 69, 74),
    (PieceType::Bishop, 79, 82),
    (PieceType::Rook, 85, 88),
]);

/// First BonaPiece of a piece on the board, `[friend, enemy]`; promoted minors share the
/// gold's numbers. Kings have none (0, never used).
const BOARD_BASE: [[u16; PieceType::NB]; 2] = by_piece_type([
    (PieceType::Pawn, 90, 171),
    (PieceType::Lance, 252, 333),
    (PieceType::Knight, 414, 495),
    (PieceType::Silver, 576, 657),
    (PieceType::Gold, 738, 819),
    (PieceType::ProPawn, 738, 819),
    (PieceType::ProLance, 738, 819),
    (PieceType::ProKnight, 738, 819),
    (PieceType::ProSilver, 738, 819),
    (PieceType::Bishop, 900, 981),
    (PieceType::Horse, 1062, 1143),
    (PieceType::Rook, 1224, 1305),
    (PieceType::Dragon, 1386, 1467),
]);

/// `[friend, enemy]` tables indexed by piece type from `(kind, friend, enemy)` rows; kinds
/// without a row get 0.
const fn by_piece_type<const N: usize>(
    rows: [(PieceType, u16, u16); N],
) -> [[u16; PieceType::NB]; 2] {
    let mut b = [[0; PieceType::NB]; 2];
    let mut i = 0;
    while i < N {
        b[0][rows[i].0 as usize] = rows[i].1;
        b[1][rows[i].0 as usize] = rows[i].2;
        i += 1;
    }
    b
}

/// A BonaPiece as seen from each perspective, indexed by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BonaPair(pub [u16; 2]);

#[inline(always)]
fn relative(perspective: Color, sq: Square) -> usize {
    match perspective {
        Color::Black => sq.index(),
        Color::White => sq.flip().index(),
    }
}

/// `p` standing on `sq`.
#[inline(always)]
pub fn board_piece(p: Piece, sq: Square) -> BonaPair {
    let pt = p.piece_type().index();
    let one = |persp: Color| {
        let side = (p.color() != persp) as usize;
        BOARD_BASE[side][pt] + relative(persp, sq) as u16
    };
    BonaPair([one(Color::Black), one(Color::White)])
}

/// The `i`-th (0-based) piece of kind `pt` in `owner`'s hand.
#[inline(always)]
pub fn hand_piece(owner: Color, pt: PieceType, i: u32) -> BonaPair {
    let one = |persp: Color| HAND_BASE[(owner != persp) as usize][pt.index()] + i as u16;
    BonaPair([one(Color::Black), one(Color::White)])
}

/// The king block of `perspective`: its own king's square, rotated for white. `None` when
/// that side has no king.
#[inline(always)]
pub fn king_block(pos: &Position, perspective: Color) -> Option<usize> {
    pos.king_square(perspective)
        .map(|k| relative(perspective, k) * FE_END)
}

/// Can the net evaluate `pos`? Both kings must stand on the board, and no kind may have
/// more pieces than a set holds (composed problems may; YaneuraOu's piece list cannot).
/// Captures and drops keep both true, so the answer holds for a whole search tree.
pub fn can_evaluate(pos: &Position) -> bool {
    if pos.king_square(Color::Black).is_none() || pos.king_square(Color::White).is_none() {
        return false;
    }
    if pos.pieces_of_type(PieceType::King).count() != 2 {
        return false;
    }
    PieceType::HAND.iter().all(|&pt| {
        let mut n = pos.pieces_of_type(pt).count();
        if pt.can_promote() {
            n += pos.pieces_of_type(pt.promoted()).count();
        }
        n += pos.hand(Color::Black).count(pt) + pos.hand(Color::White).count(pt);
        n <= SET_COUNT[pt.index()]
    })
}

/// The active features of `pos` from `perspective`, from scratch: one per non-king piece
/// on the board or in hand, plus one BonaPiece-0 feature per piece of the set that is
/// absent (handicaps). `pos` must satisfy [`can_evaluate`].
pub fn active_features(pos: &Position, perspective: Color, out: &mut Vec<usize>) {
    out.clear();
    let Some(block) = king_block(pos, perspective) else {
        debug_assert!(false, "active_features needs both kings");
        return;
    };
    let p = perspective.index();
    for sq in pos.occupied() {
        let piece = pos.piece_on(sq);
        if piece.piece_type() != PieceType::King {
            out.push(block + board_piece(piece, sq).0[p] as usize);
        }
    }
    for owner in Color::ALL {
        let hand = pos.hand(owner);
        for pt in PieceType::HAND {
            for i in 0..hand.count(pt) {
                out.push(block + hand_piece(owner, pt, i).0[p] as usize);
            }
        }
    }
    debug_assert!(out.len() <= ACTIVE_FEATURES);
    while out.len() < ACTIVE_FEATURES {
        out.push(block);
    }
}

/// The features a move takes away and adds, for the perspectives whose king stays put;
/// a perspective whose king moves starts again from scratch.
#[derive(Clone, Copy, Debug, Default)]
pub struct Changes {
    pub removed: [BonaPair; 2],
    pub added: [BonaPair; 2],
    pub n_removed: u8,
    pub n_added: u8,
    /// Indexed by colour: that side's king moved, so its features all change.
    pub king_moved: [bool; 2],
}

impl Changes {
    fn remove(&mut self, b: BonaPair) {
        self.removed[self.n_removed as usize] = b;
        self.n_removed += 1;
    }

    fn add(&mut self, b: BonaPair) {
        self.added[self.n_added as usize] = b;
        self.n_added += 1;
    }

    /// What `m` (legal in `pos`, not yet played) changes.
    pub fn of_move(pos: &Position, m: crate::shogi::Move) -> Changes {
        let mut c = Changes::default();
        let us = pos.side_to_move();
        let to = m.to();
        if m.is_drop() {
            let pt = m.dropped();
            let held = pos.hand(us).count(pt);
            debug_assert!(held > 0);
            c.remove(hand_piece(us, pt, held - 1));
            c.add(board_piece(Piece::new(us, pt), to));
            return c;
        }
        let from = m.from();
        let moved = pos.piece_on(from);
        if moved.piece_type() == PieceType::King {
            c.king_moved[us.index()] = true;
        } else {
            c.remove(board_piece(moved, from));
            c.add(board_piece(pos.moved_piece_after(m), to));
        }
        let captured = pos.piece_on(to);
        if !captured.is_empty() {
            debug_assert!(captured.piece_type() != PieceType::King);
            let pt = captured.piece_type().unpromoted();
            c.remove(board_piece(captured, to));
            c.add(hand_piece(us, pt, pos.hand(us).count(pt)));
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_matches_the_format() {
        // FORMAT.md §4: f_pawn 90 / e_pawn 171, white's view rotated.
        let sq = Square::from_file_rank(6, 6); // 7g
        let b = board_piece(Piece::new(Color::Black, PieceType::Pawn), sq);
        assert_eq!(
            b.0,
            [90 + sq.index() as u16, 171 + (80 - sq.index()) as u16]
        );
        let h = hand_piece(Color::White, PieceType::Rook, 1);
        assert_eq!(h.0, [88 + 1, 85 + 1]);
        let g = board_piece(Piece::new(Color::White, PieceType::ProKnight), sq);
        assert_eq!(
            g.0,
            [819 + sq.index() as u16, 738 + (80 - sq.index()) as u16]
        );
    }

    #[test]
    fn startpos_has_38_features_without_zero_entries() {
        let pos = Position::startpos();
        assert!(can_evaluate(&pos));
        let mut f = Vec::new();
        for c in Color::ALL {
            active_features(&pos, c, &mut f);
            assert_eq!(f.len(), ACTIVE_FEATURES);
            let block = king_block(&pos, c).unwrap();
            assert!(f.iter().all(|&x| x > block && x < block + FE_END));
        }
    }
}
