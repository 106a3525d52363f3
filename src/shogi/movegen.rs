//! Move generation.
//!
//! Generators produce pseudo-legal moves (every rule except: own king left in check, pins,
//! and pawn-drop mate); [`Position::is_legal`] finishes the job and is cheap for all but
//! king moves, pinned pieces and pawn drops in front of the enemy king.
//!
//! Every legal non-promotion is generated (pawn, lance, bishop and rook included), as all
//! published perft tables count them.
//!
//! Stages for search:
//! * [`GenType::CapturesPromotions`]: captures (promoting or not) and non-capturing promotions.
//! * [`GenType::Quiets`]: non-capturing non-promotions, and drops.
//! * [`GenType::Evasions`]: every pseudo-legal move when in check.
//! * [`GenType::NonEvasions`]: every pseudo-legal move when not in check (= the two above).
//! * [`GenType::Checks`]: pseudo-legal moves that give check (when not in check).

use super::attacks::tables;
use super::bitboard::Bitboard;
use super::moves::Move;
use super::position::Position;
use super::types::{Color, PieceType, Square};

/// Room for every pseudo-legal move of any position (the most legal moves known is 593).
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves, kept on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NONE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keep only the moves for which `f` is true.
    #[inline]
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            let m = self.moves[r];
            if f(m) {
                self.moves[w] = m;
                w += 1;
            }
        }
        self.len = w;
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    CapturesPromotions,
    Quiets,
    Evasions,
    NonEvasions,
    Checks,
}

/// Which promotion variants to emit for a set of destinations.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Promo {
    Both,
    Only,
    Never,
}

/// Ranks on which a piece of kind `pt` and colour `c` could never move again: a
/// non-promotion there is illegal (pawn/lance on the last rank, knight on the last two).
#[inline(always)]
fn dead_ranks(c: Color, pt: PieceType) -> Bitboard {
    let n = match pt {
        PieceType::Pawn | PieceType::Lance => 1,
        PieceType::Knight => 2,
        _ => return Bitboard::EMPTY,
    };
    match c {
        Color::Black => Bitboard::ranks(0, n - 1),
        Color::White => Bitboard::ranks(9 - n, 8),
    }
}

#[inline(always)]
fn emit(
    list: &mut MoveList,
    us: Color,
    pt: PieceType,
    from: Square,
    targets: Bitboard,
    promo: Promo,
) {
    if !pt.can_promote() {
        if promo != Promo::Only {
            for to in targets {
                list.push(Move::normal(from, to, false));
            }
        }
        return;
    }
    let zone = Bitboard::zone(us);
    let promotable = if zone.has(from) {
        targets
    } else {
        targets & zone
    };
    if promo != Promo::Never {
        for to in promotable {
            list.push(Move::normal(from, to, true));
        }
    }
    if promo != Promo::Only {
        for to in targets.and_not(dead_ranks(us, pt)) {
            list.push(Move::normal(from, to, false));
        }
    }
}

/// Board moves of every piece but the king to `targets`, with the given promotion variants.
fn board_moves(pos: &Position, list: &mut MoveList, targets: Bitboard, promo: Promo) {
    let t = tables();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    // Pawns in bulk: shift the whole set one rank forward.
    // Composed positions may hold pawns on their last rank; they have no moves and must
    // not be shifted into the neighbouring file.
    let pawns = pos
        .pieces_of(us, PieceType::Pawn)
        .and_not(dead_ranks(us, PieceType::Pawn));
    let (pawn_to, back) = match us {
        Color::Black => (pawns.shift_up() & targets, 1i32),
        Color::White => (pawns.shift_down() & targets, -1i32),
    };
    let zone = Bitboard::zone(us);
    let dead = dead_ranks(us, PieceType::Pawn);
    if promo != Promo::Never {
        for to in pawn_to & zone {
            let from = Square::new((to.index() as i32 + back) as u8);
            list.push(Move::normal(from, to, true));
        }
    }
    if promo != Promo::Only {
        for to in pawn_to.and_not(dead) {
            let from = Square::new((to.index() as i32 + back) as u8);
            list.push(Move::normal(from, to, false));
        }
    }
    let own = pos.pieces(us);
    let others =
        own.and_not(pos.pieces_of_type(PieceType::Pawn) | pos.pieces_of_type(PieceType::King));
    for from in others {
        let pt = pos.piece_on(from).piece_type();
        let att = t.attacks(pt, us, from, occ) & targets;
        emit(list, us, pt, from, att, promo);
    }
}

fn king_moves(pos: &Position, list: &mut MoveList, targets: Bitboard) {
    let us = pos.side_to_move();
    if let Some(k) = pos.king_square(us) {
        for to in tables().king(k) & targets {
            list.push(Move::normal(k, to, false));
        }
    }
}

/// Drops onto `targets` (which must be empty squares).
fn drops(pos: &Position, list: &mut MoveList, targets: Bitboard) {
    let us = pos.side_to_move();
    let hand = pos.hand(us);
    if hand.is_empty() || targets.is_empty() {
        return;
    }
    if hand.has(PieceType::Pawn) {
        let mut pawn_files = Bitboard::EMPTY;
        for s in pos.pieces_of(us, PieceType::Pawn) {
            pawn_files |= Bitboard::file(s.file());
        }
        for to in targets.and_not(pawn_files | dead_ranks(us, PieceType::Pawn)) {
            list.push(Move::drop(PieceType::Pawn, to));
        }
    }
    if hand.has(PieceType::Lance) {
        for to in targets.and_not(dead_ranks(us, PieceType::Lance)) {
            list.push(Move::drop(PieceType::Lance, to));
        }
    }
    if hand.has(PieceType::Knight) {
        for to in targets.and_not(dead_ranks(us, PieceType::Knight)) {
            list.push(Move::drop(PieceType::Knight, to));
        }
    }
    // Silver, gold, bishop, rook drop anywhere: emit them together per square.
    let mut kinds = [PieceType::Pawn; 4];
    let mut n = 0;
    for pt in [
        PieceType::Silver,
        PieceType::Gold,
        PieceType::Bishop,
        PieceType::Rook,
    ] {
        if hand.has(pt) {
            kinds[n] = pt;
            n += 1;
        }
    }
    if n > 0 {
        for to in targets {
            for &pt in &kinds[..n] {
                list.push(Move::drop(pt, to));
            }
        }
    }
}

/// Append pseudo-legal moves of kind `gen` to `list`. `Evasions` requires the side to move
/// to be in check; the others require it not to be.
pub fn generate(pos: &Position, gen: GenType, list: &mut MoveList) {
    let us = pos.side_to_move();
    let own = pos.pieces(us);
    let enemy = pos.pieces(us.flip());
    let empty = !pos.occupied();
    match gen {
        GenType::NonEvasions => {
            board_moves(pos, list, !own, Promo::Both);
            king_moves(pos, list, !own);
            drops(pos, list, empty);
        }
        GenType::CapturesPromotions => {
            board_moves(pos, list, enemy, Promo::Both);
            board_moves(pos, list, empty, Promo::Only);
            king_moves(pos, list, enemy);
        }
        GenType::Quiets => {
            board_moves(pos, list, empty, Promo::Never);
            king_moves(pos, list, empty);
            drops(pos, list, empty);
        }
        GenType::Evasions => {
            let checkers = pos.checkers();
            debug_assert!(checkers.any());
            king_moves(pos, list, !own);
            if checkers.more_than_one() {
                return;
            }
            let ksq = pos.king_square(us).expect("in check implies a king");
            let checker = checkers.lsb();
            let between = tables().between(ksq, checker);
            board_moves(pos, list, between | checkers, Promo::Both);
            drops(pos, list, between);
        }
        GenType::Checks => {
            let mut all = MoveList::new();
            generate(pos, GenType::NonEvasions, &mut all);
            for &m in all.iter() {
                if pos.gives_check(m) {
                    list.push(m);
                }
            }
        }
    }
}

/// All legal moves of the position.
pub fn legal_moves(pos: &Position, list: &mut MoveList) {
    let start = list.len();
    let gen = if pos.in_check() {
        GenType::Evasions
    } else {
        GenType::NonEvasions
    };
    generate(pos, gen, list);
    // Only king moves, pinned pieces and pawn drops can be illegal once pseudo-legal.
    let us = pos.side_to_move();
    let pinned = pos.pinned(us);
    let ksq = pos.king_square(us);
    let mut w = start;
    for r in start..list.len() {
        let m = list.as_slice()[r];
        let needs_check = if m.is_drop() {
            m.dropped() == PieceType::Pawn
        } else {
            let from = m.from();
            Some(from) == ksq || pinned.has(from)
        };
        if !needs_check || pos.is_legal(m) {
            list.moves[w] = m;
            w += 1;
        }
    }
    list.len = w;
}

/// Convenience: the legal moves as a fresh list.
pub fn legal(pos: &Position) -> MoveList {
    let mut l = MoveList::new();
    legal_moves(pos, &mut l);
    l
}

/// True when the side to move has at least one legal move.
pub fn has_legal_move(pos: &Position) -> bool {
    // Generating everything is simple and this is off the hot path (mate detection at
    // leaves); the generator is fast enough that early exit buys little.
    !legal(pos).is_empty()
}
