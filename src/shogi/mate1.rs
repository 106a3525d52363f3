//! The mate-in-one detector (DESIGN.md §2.6): the one owner of the question "does the side
//! to move mate at once?", for the search (at nodes and in quiescence) and the mate solver.
//!
//! Exact: a move mates when it is legal, gives check, and leaves the opponent no legal
//! move. Most calls find no mate, so the detector is built to say "no" without generating
//! the checks. It first lists the king's free squares: its neighbours without a piece of
//! its own that nothing of ours attacks (the king off the board). A check mates only if,
//! after it, every free square is attacked; for a move that opens no line towards a free
//! square, only the moved piece can attack them, so its landing square must lie where its
//! kind (after the move) reaches the king and every free square.
//! Those squares come from the attack tables read backwards, per kind, and only the moves
//! to them are tried. The few pieces that may open a line (towards the king: a discovered
//! check; towards a free square) go through the general path: their checks generated, two
//! static tests that can only prove "not mate" (an empty square the king can still reach,
//! a checker it can take), then the move played and the replies counted. Every candidate
//! of the fast path ends the same way, so the answer stays exact. In check, every evasion
//! that checks is tried ([`Position::mate_in_one_by_generation`]).

use super::attacks::tables;
use super::bitboard::Bitboard;
use super::movegen::{
    board_moves_from, dead_ranks, free_king_squares, generate_legal, has_legal_move, king_moves,
    GenType, MoveList, Promo,
};
use super::moves::Move;
use super::position::Position;
use super::types::{Color, PieceType, Square};

/// Drops tried by the fast path, strongest reach first. A pawn drop never mates: pawn-drop
/// mate is illegal.
const DROPPED: [PieceType; 6] = [
    PieceType::Rook,
    PieceType::Bishop,
    PieceType::Gold,
    PieceType::Silver,
    PieceType::Knight,
    PieceType::Lance,
];

/// Up to this many landing squares, [`Position::mate_in_one`] asks each which kinds reach
/// the king and its free squares from it; with more, each kind's squares come from the
/// tables read backwards.
const FORWARD_MAX: u32 = 4;

/// Where a piece of any kind and colour could stand to attack `sq`: its empty-board lines
/// and knight squares.
fn could_attack(sq: Square) -> Bitboard {
    COULD_ATTACK[sq.index()]
}

/// [`could_attack`] of every square (index = 9 * file + rank, the bitboard layout), one
/// load where the attack tables would take four.
const COULD_ATTACK: [Bitboard; 81] = {
    let mut table = [Bitboard(0); 81];
    let mut i = 0usize;
    while i < 81 {
        let (f, r) = ((i / 9) as i32, (i % 9) as i32);
        let mut bits = 0u128;
        let mut j = 0usize;
        while j < 81 {
            let (df, dr) = ((j / 9) as i32 - f, (j % 9) as i32 - r);
            let line = df == 0 || dr == 0 || df == dr || df == -dr;
            let knight = (df == 1 || df == -1) && (dr == 2 || dr == -2);
            if j != i && (line || knight) {
                bits |= 1 << j;
            }
            j += 1;
        }
        table[i] = Bitboard(bits);
        i += 1;
    }
    table
};

/// The pieces of `own` that stand first on a line from `sq` with one of `sliders` right
/// behind them (`line(occupied)`: the squares seen from `sq` along the lines): moving one
/// of them opens the slider's line onto `sq`.
#[inline(always)]
fn pieces_before_sliders(
    sq: Square,
    occupied: Bitboard,
    own: Bitboard,
    sliders: Bitboard,
    line: impl Fn(Bitboard) -> Bitboard,
) -> Bitboard {
    let seen = line(occupied);
    let first = seen & own;
    let mut openers = Bitboard::EMPTY;
    if first.any() {
        let behind = line(occupied.and_not(first)) & sliders;
        for s in behind.and_not(seen) {
            openers |= tables().between(sq, s) & first;
        }
    }
    openers
}

/// The kind whose entry a kind shares in the mate-in-one's per-kind tables: the promoted
/// pawn, lance, knight and silver move like a gold.
const fn gold_slot(pt: PieceType) -> PieceType {
    if pt.moves_like_gold() {
        PieceType::Gold
    } else {
        pt
    }
}

/// For each kind on the board (not the king: its moves are generated), the kinds a move of
/// it leaves, by their `gold_slot`, as bits indexed by kind: the per-kind tables
/// [`Position::mate_in_one`] looks up.
const SLOTS: [u16; PieceType::NB] = {
    let mut slots = [0u16; PieceType::NB];
    let mut i = 0;
    while i < PieceType::ALL.len() {
        let pt = PieceType::ALL[i];
        if pt.index() != PieceType::King.index() {
            slots[pt.index()] = 1 << gold_slot(pt).index();
            if pt.can_promote() {
                slots[pt.index()] |= 1 << gold_slot(pt.promoted()).index();
            }
        }
        i += 1;
    }
    slots
};

impl Position {
    /// A move that checkmates at once, if there is one: legal, giving check, leaving the
    /// opponent without a legal move (a pawn drop never qualifies: pawn-drop mate is
    /// illegal, and legal generation leaves it out). In check, only evasions are tried.
    ///
    /// ```
    /// let mut pos: hayanagi::Position = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap();
    /// assert_eq!(pos.mate_in_one().map(|m| m.usi()), Some("G*5b".to_string()));
    /// ```
    pub fn mate_in_one(&mut self) -> Option<Move> {
        let us = self.side_to_move();
        let them = us.flip();
        let ksq = self.king_square(them)?;
        let t = tables();
        // Where a move of ours may land: in check, on the checker or between it and our
        // king (our king's own moves, generated below when they may check, are legal
        // evasions as generated); in double check only the king moves.
        let mut evading = Bitboard::ALL;
        if self.in_check() {
            let checkers = self.checkers();
            match self.king_square(us) {
                Some(k) if !checkers.more_than_one() => {
                    evading = t.between(k, checkers.lsb()) | checkers;
                }
                _ => return self.mate_in_one_by_generation(),
            }
        }
        let escape = EscapeTest::new(self, us, ksq);
        let free = escape.free;
        let own = self.pieces(us);
        let occ = self.occupied();
        let empty = !occ;

        // A bound for every kind first, from the empty-board lines and knight squares of
        // the king and of each free square (where any piece could attack it from): when it
        // is empty, as it mostly is with free squares on two sides of the king, no kind's
        // attack set is looked up.
        let mut bound = evading.and_not(own) & could_attack(ksq);
        for sq in free {
            bound &= could_attack(sq);
        }
        // Where a piece of each kind (after the move) must land: it checks from there and
        // reaches every free square (`reach_all`, indexed by kind; the golds' promoted kinds
        // share the gold's entry). Landing on a free square never mates unless the move
        // opens a line: nothing else defends the piece there, and the king takes it.
        // Only the kinds a move or drop can produce here are looked up.
        let hand = self.hand(us);
        let mut wanted = 0u16;
        let mut in_hand = 0u16;
        if bound.any() {
            for pt in DROPPED {
                if hand.has(pt) {
                    in_hand |= 1 << pt.index();
                }
            }
            wanted = in_hand;
            for pt in PieceType::ALL {
                if (self.by_type[pt.index()] & own).any() {
                    wanted |= SLOTS[pt.index()];
                }
            }
        }
        let wants = |pt: PieceType| wanted & (1 << pt.index()) != 0;
        let mut reach_all = [Bitboard::EMPTY; PieceType::NB];
        if bound.any() {
            // The free squares listed once; the pawn, silver and gold reach only squares
            // next to their own, so they land next to the king and to every free square.
            let mut squares = [ksq; 8];
            let mut n = 0;
            let mut contact = bound & t.king(ksq);
            for sq in free {
                squares[n] = sq;
                n += 1;
                contact &= t.king(sq);
            }
            let squares = &squares[..n];
            if bound.count() <= FORWARD_MAX {
                // Few landing squares: each asked once which kinds standing there reach
                // the king and every free square (a piece attacks a square exactly when
                // the same kind of the other colour there attacks it back, a slider
                // through the same squares between), with one rook and one bishop lookup
                // serving every slider kind.
                let targets = free | Bitboard::from_square(ksq);
                let covers = |a: Bitboard| targets.and_not(a).is_empty();
                for to in bound {
                    let one = Bitboard::from_square(to);
                    if contact.has(to) {
                        for pt in [PieceType::Pawn, PieceType::Silver, PieceType::Gold] {
                            if wants(pt) && covers(t.attacks(pt, us, to, occ)) {
                                reach_all[pt.index()] |= one;
                            }
                        }
                    }
                    if wants(PieceType::Knight) && covers(t.knight(us, to)) {
                        reach_all[PieceType::Knight.index()] |= one;
                    }
                    if wants(PieceType::Lance) || wants(PieceType::Rook) || wants(PieceType::Dragon)
                    {
                        let rook = t.rook(to, escape.occupied);
                        if wants(PieceType::Lance) && covers(rook & t.lance_empty(us, to)) {
                            reach_all[PieceType::Lance.index()] |= one;
                        }
                        if wants(PieceType::Rook) && covers(rook) {
                            reach_all[PieceType::Rook.index()] |= one;
                        }
                        if wants(PieceType::Dragon) && covers(rook | t.king(to)) {
                            reach_all[PieceType::Dragon.index()] |= one;
                        }
                    }
                    if wants(PieceType::Bishop) || wants(PieceType::Horse) {
                        let bishop = t.bishop(to, escape.occupied);
                        if wants(PieceType::Bishop) && covers(bishop) {
                            reach_all[PieceType::Bishop.index()] |= one;
                        }
                        if wants(PieceType::Horse) && covers(bishop | t.king(to)) {
                            reach_all[PieceType::Horse.index()] |= one;
                        }
                    }
                }
            } else {
                for pt in PieceType::ALL {
                    if !wants(pt) {
                        continue;
                    }
                    let within = match pt {
                        PieceType::Pawn | PieceType::Silver | PieceType::Gold => contact,
                        _ => bound,
                    };
                    if within.is_empty() {
                        continue;
                    }
                    let mut to = t.attacks(pt, them, ksq, occ) & within;
                    for &sq in squares {
                        if to.is_empty() {
                            break;
                        }
                        to &= t.attacks(pt, them, sq, escape.occupied);
                    }
                    reach_all[pt.index()] = to;
                }
            }
        }
        for pt in [
            PieceType::ProPawn,
            PieceType::ProLance,
            PieceType::ProKnight,
            PieceType::ProSilver,
        ] {
            reach_all[pt.index()] = reach_all[PieceType::Gold.index()];
        }

        // Drops: a drop opens no line and can only block our others, so the dropped piece
        // alone must reach every free square.
        for pt in DROPPED {
            if in_hand & (1 << pt.index()) == 0 {
                continue;
            }
            let targets = reach_all[pt.index()] & empty & evading & !dead_ranks(us, pt);
            for to in targets {
                let m = Move::drop(pt, to);
                if self.mates_after_static_test(&escape, m) {
                    return Some(m);
                }
            }
        }

        // Pieces whose move may open a line: towards the king (a discovered check) or
        // towards a free square: the first piece on a line from that square, with a slider
        // of ours right behind it. (The mover itself cannot reach a free square back
        // through the square it leaves: it would attack that square already.)
        let discoverers = self.blockers_for_king(them) & own;
        let diagonal_sliders = self.bishops_horses() & own;
        let straight_sliders = self.rooks_dragons() & own;
        let lances = self.pieces_of(us, PieceType::Lance);
        let mut openers = Bitboard::EMPTY;
        for sq in free {
            // Only where one of our sliders stands on the square's empty-board lines.
            if (t.bishop_empty(sq) & diagonal_sliders).any() {
                openers |= pieces_before_sliders(sq, escape.occupied, own, diagonal_sliders, |o| {
                    t.bishop(sq, o)
                });
            }
            // Our lances count where they point at the square.
            let straight_behind = straight_sliders | (lances & t.lance_empty(them, sq));
            if (t.rook_empty(sq) & straight_behind).any() {
                openers |= pieces_before_sliders(sq, escape.occupied, own, straight_behind, |o| {
                    t.rook(sq, o)
                });
            }
        }
        let own_king = self.king_square(us);
        let king_bb = own_king.map_or(Bitboard::EMPTY, Bitboard::from_square);
        let openers = openers.and_not(discoverers | king_bb);

        // The fast path: every other piece, moved only to a square of its kind's
        // `reach_all`. The squares between its landing square and a free one are as
        // before the move (the square it leaves is on no such line), so the table read
        // backwards is exact for it.
        let movers = own.and_not(discoverers | openers | king_bb);
        let mut destinations = Bitboard::EMPTY;
        if bound.any() {
            for r in reach_all {
                destinations |= r;
            }
            destinations &= evading;
        }
        let pinned = self.pinned(us);
        let zone = Bitboard::zone(us);
        for to in destinations {
            let sources = self.attackers_to(us, to, occ) & movers;
            for from in sources {
                let pt = self.piece_on(from).piece_type();
                if pinned.has(from) && own_king.is_some_and(|k| !t.aligned(from, to, k)) {
                    continue;
                }
                if pt.can_promote()
                    && (zone.has(from) || zone.has(to))
                    && reach_all[pt.promoted().index()].has(to)
                {
                    let m = Move::normal(from, to, true);
                    if self.mates_after_static_test(&escape, m) {
                        return Some(m);
                    }
                }
                if reach_all[pt.index()].has(to) && !dead_ranks(us, pt).has(to) {
                    let m = Move::normal(from, to, false);
                    if self.mates_after_static_test(&escape, m) {
                        return Some(m);
                    }
                }
            }
        }

        // The general path for the pieces that may open a line.
        if (discoverers | openers).is_empty() {
            return None;
        }
        let mut list = MoveList::new();
        board_moves_from::<true>(
            self,
            &mut list,
            (discoverers | openers).and_not(king_bb),
            evading.and_not(own),
            Promo::Both,
        );
        if own_king.is_some_and(|k| discoverers.has(k)) {
            king_moves::<true>(self, &mut list, !own);
        }
        list.into_iter()
            .copied()
            .find(|&m| self.gives_check(m) && self.mates_after_static_test(&escape, m))
    }

    /// [`Position::mate_in_one`] by generating every legal check (every checking evasion
    /// in check), contact checks first, each put to the static escape test and the
    /// survivors played: the same answer, slower when not in check; the reference the
    /// tests and `examples/mate1_bench` compare the fast path with.
    pub fn mate_in_one_by_generation(&mut self) -> Option<Move> {
        let ksq = self.king_square(self.side_to_move().flip())?;
        let mut list = MoveList::new();
        if self.in_check() {
            generate_legal(self, GenType::Evasions, &mut list);
            list.retain(|m| self.gives_check(m));
        } else {
            generate_legal(self, GenType::Checks, &mut list);
        }
        // Contact checks first.
        list.as_mut_slice()
            .sort_unstable_by_key(|m| m.to().distance(ksq));
        if list.is_empty() {
            return None;
        }
        let escape = EscapeTest::new(self, self.side_to_move(), ksq);
        list.into_iter()
            .copied()
            .find(|&m| self.mates_after_static_test(&escape, m))
    }

    /// Does the legal check `m` mate? The static escape test first, then the move played
    /// and the replies looked for on the board after it (no state pushed: most candidates
    /// are refuted).
    fn mates_after_static_test(&mut self, escape: &EscapeTest, m: Move) -> bool {
        if escape.king_gets_away(self, m) || escape.check_answered(self, m) {
            return false;
        }
        !self.with_move_on_board(m, |after| has_legal_move(after))
    }
}

/// The static part of [`Position::mate_in_one`]: what a checking move leaves the king,
/// judged without making the move. Each answer of `true` is certain (the king has a legal
/// reply); `false` only means the move must be played to know.
struct EscapeTest {
    /// The defending king's square.
    king: Square,
    /// The defending king's neighbours.
    around: Bitboard,
    /// The neighbours without a defending piece that some piece of ours attacks before the
    /// move, with the king taken off the board (a slider's ray does not stop at the king it
    /// checks). A move can only add to this by opening a line from the square it leaves,
    /// which the test checks before it trusts an unattacked square.
    covered: Bitboard,
    /// The other neighbours without a defending piece: where the king could go now.
    free: Bitboard,
    /// The occupancy without the defending king.
    occupied: Bitboard,
}

impl EscapeTest {
    fn new(pos: &Position, us: Color, king: Square) -> EscapeTest {
        let around = tables().king(king);
        let occupied = pos.occupied() ^ Bitboard::from_square(king);
        // One attack map of our pieces that can reach the king's neighbours, instead of
        // each neighbour asked in turn.
        let free = free_king_squares(pos, us.flip(), king);
        let covered = around.and_not(pos.pieces(us.flip()) | free);
        EscapeTest {
            king,
            around,
            covered,
            free,
            occupied,
        }
    }

    /// True when the king surely has a legal move after the legal check `m`: an empty
    /// neighbour that nothing of ours attacks after the move, or the checker itself, next to
    /// the king and attacked by nothing else of ours.
    fn king_gets_away(&self, pos: &Position, m: Move) -> bool {
        let (to, to_bb, from_bb) = move_squares(m);
        // The board after the move, the king off it.
        let occupied = (self.occupied & !from_bb) | to_bb;
        let us = pos.side_to_move();
        let checker = pos.moved_piece_after(m).piece_type();
        let reach = tables().attacks(checker, us, to, occupied);
        // The checker's old square still counts among our attackers in `attackers_to`
        // (the bitboards are the old board's): an over-estimate, never a wrong "gets away".
        let attacked_after =
            |sq: Square| reach.has(sq) || (pos.attackers_to(us, sq, occupied) & !from_bb).any();
        let mut open = (self.around & !occupied).and_not(self.covered | reach);
        if m.is_drop() {
            // A drop opens no line, so `covered` is exact for every square but its own,
            // and for that one too (a piece does not change the attacks on its own square).
            return open.any() || (self.around.has(to) && !self.covered.has(to));
        }
        if open.find(|&sq| !attacked_after(sq)).is_some() {
            return true;
        }
        // A checker next to the king that no other piece of ours defends is taken.
        self.around.has(to) && !(pos.attackers_to(us, to, occupied) & !from_bb).any()
    }

    /// True when the defender surely answers the legal check `m` with a piece other than
    /// the king: when `m` checks with the moved piece alone, by a drop between it and the
    /// king of a kind that may stand there (not a pawn: a pawn drop may be illegal as mate),
    /// or by a capture of it after which nothing of ours attacks the king. Most checks
    /// the escape test leaves are answered so, and this costs less than the move played.
    fn check_answered(&self, pos: &Position, m: Move) -> bool {
        let (to, to_bb, from_bb) = move_squares(m);
        let us = pos.side_to_move();
        let them = us.flip();
        // A piece that stood alone between one of our sliders and the king may uncover a
        // second check: left to the move played.
        if (pos.blockers_for_king(them) & from_bb).any() {
            return false;
        }
        let t = tables();
        let between = t.between(to, self.king);
        if between.any() {
            let hand = pos.hand(them);
            for pt in [
                PieceType::Gold,
                PieceType::Silver,
                PieceType::Rook,
                PieceType::Bishop,
                PieceType::Lance,
                PieceType::Knight,
            ] {
                if hand.has(pt) && between.and_not(dead_ranks(them, pt)).any() {
                    return true;
                }
            }
        }
        // The board after the move, the king on it.
        let occupied = (pos.occupied() & !from_bb) | to_bb;
        let king_bb = Bitboard::from_square(self.king);
        for d in pos.attackers_to(them, to, occupied).and_not(king_bb) {
            // Our moved piece is taken and was the only checker: the king is safe unless
            // the capturing piece uncovers a line of ours.
            if (pos.attackers_to(us, self.king, occupied ^ Bitboard::from_square(d)) & !from_bb)
                .is_empty()
            {
                return true;
            }
        }
        false
    }
}

/// The destination of `m` as a square and as a board, and its origin as a board (empty
/// for a drop): what the escape tests rebuild the board after the move from.
#[inline(always)]
fn move_squares(m: Move) -> (Square, Bitboard, Bitboard) {
    let to = m.to();
    let from_bb = if m.is_drop() {
        Bitboard::EMPTY
    } else {
        Bitboard::from_square(m.from())
    };
    (to, Bitboard::from_square(to), from_bb)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constant table is the attack tables' empty-board lines and knight squares.
    #[test]
    fn could_attack_is_lines_and_knight_squares() {
        let t = tables();
        for i in 0..81u8 {
            let sq = Square::new(i);
            let expected = t.rook_empty(sq)
                | t.bishop_empty(sq)
                | t.knight(Color::Black, sq)
                | t.knight(Color::White, sq);
            assert_eq!(could_attack(sq), expected, "{i}");
        }
    }
}
