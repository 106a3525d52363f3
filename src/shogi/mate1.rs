//! The mate-in-one detector (DESIGN.md §2.6): the one owner of the question "does the side
//! to move mate at once?", for the search (at nodes and in quiescence) and the mate solver.
//!
//! Exact: a move mates when it is legal, gives check, and leaves the opponent no legal
//! move. Only checking moves are generated (the staged check generator), the contact checks
//! first: they mate far more often than distant ones, and the first mate found ends the
//! search. Before a check is played, two static tests that can only prove "not mate" throw
//! out most of them without making the move: an empty square next to the king that nothing
//! of ours attacks once the move is made, and a checker next to the king that the king can
//! take. Only the checks that pass both are played and their replies counted, so the
//! answer stays the exact one.

use super::attacks::tables;
use super::bitboard::Bitboard;
use super::movegen::{generate_legal, has_legal_move, GenType, MoveList};
use super::moves::Move;
use super::position::Position;
use super::types::{Color, Square};

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
        let ksq = self.king_square(self.side_to_move().flip())?;
        let mut list = MoveList::new();
        if self.in_check() {
            generate_legal(self, GenType::Evasions, &mut list);
            list.retain(|m| self.gives_check(m));
        } else {
            generate_legal(self, GenType::Checks, &mut list);
        }
        // Contact checks first.
        list.as_mut_slice().sort_unstable_by_key(|m| {
            let to = m.to();
            to.file()
                .abs_diff(ksq.file())
                .max(to.rank().abs_diff(ksq.rank()))
        });
        if list.is_empty() {
            return None;
        }
        let escape = EscapeTest::new(self, self.side_to_move(), ksq);
        for &m in list.iter() {
            if escape.king_gets_away(self, m) {
                continue;
            }
            self.do_move(m);
            let mated = !has_legal_move(self);
            self.undo_move();
            if mated {
                return Some(m);
            }
        }
        None
    }
}

/// The static part of [`Position::mate_in_one`]: what a checking move leaves the king,
/// judged without making the move. Each answer of `true` is certain (the king has a legal
/// reply); `false` only means the move must be played to know.
struct EscapeTest {
    /// The defending king's neighbours.
    around: Bitboard,
    /// The neighbours that some piece of ours attacks before the move, with the king taken
    /// off the board (a slider's ray does not stop at the king it checks). A move can only
    /// add to this by opening a line from the square it leaves, which the test checks
    /// before it trusts an unattacked square.
    covered: Bitboard,
    /// The occupancy without the defending king.
    occupied: Bitboard,
}

impl EscapeTest {
    fn new(pos: &Position, us: Color, king: Square) -> EscapeTest {
        let around = tables().king(king);
        let occupied = pos.occupied() ^ Bitboard::from_square(king);
        let mut covered = Bitboard::EMPTY;
        for sq in around {
            if pos.attacked_by(us, sq, occupied) {
                covered.set(sq);
            }
        }
        EscapeTest {
            around,
            covered,
            occupied,
        }
    }

    /// True when the king surely has a legal move after the legal check `m`: an empty
    /// neighbour that nothing of ours attacks after the move, or the checker itself, next to
    /// the king and attacked by nothing else of ours.
    fn king_gets_away(&self, pos: &Position, m: Move) -> bool {
        let to = m.to();
        let to_bb = Bitboard::from_square(to);
        let from_bb = if m.is_drop() {
            Bitboard::EMPTY
        } else {
            Bitboard::from_square(m.from())
        };
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
}
