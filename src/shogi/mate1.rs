//! The mate-in-one detector (DESIGN.md §2.6): the one owner of the question "does the side
//! to move mate at once?", for the search (at nodes and in quiescence) and the mate solver.
//!
//! Exact: a move mates when it is legal, gives check, and leaves the opponent no legal
//! move. Only checking moves are generated (the staged check generator), so the cost is a
//! handful of replies per checking move, the contact checks first: they mate far more
//! often than distant ones, and the first mate found ends the search.

use super::movegen::{generate_legal, has_legal_move, GenType, MoveList};
use super::moves::Move;
use super::position::Position;

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
        for &m in list.iter() {
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
