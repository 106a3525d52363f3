//! Proof and disproof pieces: the attacker's hand a result really depends on.
//!
//! A mate found with some pieces in hand usually needs only a few of them: the proof holds
//! for every attacker hand that has at least those pieces (its *proof hand*). A failure
//! likewise holds for every hand that has at most some larger set (its *disproof hand*).
//! Storing results under these hands instead of the hand the node happened to have lets
//! one entry answer for many positions that differ only in what the attacker holds
//! (Seo's proof pieces; KomoringHeights documents the same rules).
//!
//! All positions of one solve hold the same pieces in the two hands together for a given
//! board (what is not on the board is in a hand), so the defender's hand follows from the
//! attacker's: fewer attacking pieces in hand means more defending ones. That is where the
//! pitfalls are: with a smaller attacker hand the defender may have a piece to drop between
//! a distant checker and its king, and with a larger one the attacker may have a new drop
//! check. Each rule below says which of them it guards against.

use crate::shogi::attacks::tables;
use crate::shogi::hand::HAND_CAPACITY;
use crate::shogi::{Color, Hand, Move, PieceType, Position};

/// For each hand kind, the larger of the two counts.
pub fn join(a: Hand, b: Hand) -> Hand {
    per_kind(a, b, u32::max)
}

/// For each hand kind, the smaller of the two counts.
pub fn meet(a: Hand, b: Hand) -> Hand {
    per_kind(a, b, u32::min)
}

/// Both hands together, per kind (the fixed total of a board in one solve).
pub fn total(hands: [Hand; 2]) -> Hand {
    per_kind(hands[0], hands[1], |x, y| x + y)
}

/// `whole` minus `part`, per kind, never below zero.
pub fn minus(whole: Hand, part: Hand) -> Hand {
    per_kind(whole, part, u32::saturating_sub)
}

fn per_kind(a: Hand, b: Hand, f: impl Fn(u32, u32) -> u32) -> Hand {
    let mut h = Hand::EMPTY;
    for pt in PieceType::HAND {
        let n = f(a.count(pt), b.count(pt)).min(HAND_CAPACITY[pt as usize]);
        h.set(pt, n);
    }
    h
}

/// Could the defender, to move in `pos` and in check, block the check by a drop if it had
/// the piece? Only against a single check by a distant slider (the squares between are then
/// empty).
fn check_is_blockable(pos: &Position) -> bool {
    let checkers = pos.checkers();
    if checkers.is_empty() || checkers.more_than_one() {
        return false;
    }
    pos.king_square(pos.side_to_move())
        .is_some_and(|k| tables().between(k, checkers.lsb()).any())
}

/// The proof hand of a defender node (the defender to move in `pos`, in check) whose every
/// reply is mated with the attacker holding at most `replies` (the join of the replies'
/// proof hands; empty for a node with no reply at all).
///
/// Pitfall guarded: a kind the defender lacks. Where a drop could block the check, a
/// smaller attacker hand would leave the defender a piece of that kind to drop, a reply this
/// node never saw; so the attacker must keep every piece of each such kind it holds.
/// (Pawn drops that nifu or the last rank would forbid are counted as possible: the rule
/// errs on the safe side.) Kinds the defender does hold were tried as drops already, and
/// holding more of them adds no new reply here.
pub fn defender_proof_hand(pos: &Position, attacker: Color, replies: Hand) -> Hand {
    if !check_is_blockable(pos) {
        return replies;
    }
    let mine = pos.hand(attacker);
    let theirs = pos.hand(attacker.flip());
    let mut p = replies;
    for pt in PieceType::HAND {
        if !theirs.has(pt) {
            p.set(pt, p.count(pt).max(mine.count(pt)));
        }
    }
    p
}

/// A proof or disproof hand taken back over the attacker's move `m` (in `pos`, not yet
/// played), given the one after it: one more of a dropped piece (a proof needed it, a
/// disproof held with it in hand), one fewer of a captured one (it was not in hand yet).
pub fn hand_before(pos: &Position, m: Move, after: Hand) -> Hand {
    let mut p = after;
    if m.is_drop() {
        let pt = m.dropped();
        p.set(pt, (p.count(pt) + 1).min(HAND_CAPACITY[pt as usize]));
    } else if let Some(pt) = captured_kind(pos, m) {
        p.set(pt, p.count(pt).saturating_sub(1));
    }
    p
}

/// The disproof hand of an attacker node (the attacker to move in `pos`) whose every check
/// fails for attacker hands up to `checks` (the meet of the checks' disproof hands, each
/// taken back over its move; the node's hand total when it has no check at all).
///
/// Pitfall guarded: a kind the attacker lacks. One piece of it would give new drop checks,
/// so the disproof holds only while the attacker has none. More of a kind it already holds
/// adds no check here: the same drops are already children (a second pawn does not lift
/// nifu, nor a pawn-drop mate's ban).
pub fn attacker_disproof_hand(pos: &Position, attacker: Color, checks: Hand) -> Hand {
    let mine = pos.hand(attacker);
    let mut d = meet(
        checks,
        total([pos.hand(Color::Black), pos.hand(Color::White)]),
    );
    for pt in PieceType::HAND {
        if !mine.has(pt) {
            d.set(pt, 0);
        }
    }
    d
}

fn captured_kind(pos: &Position, m: Move) -> Option<PieceType> {
    let captured = pos.piece_on(m.to());
    (!captured.is_empty() && captured.piece_type() != PieceType::King)
        .then(|| captured.piece_type().unpromoted())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Validation;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen_with(sfen, Validation::Composed).unwrap()
    }

    fn hand(s: &str) -> Hand {
        let mut h = Hand::EMPTY;
        for c in s.chars() {
            let pt = PieceType::from_sfen_letter(c).unwrap();
            h.add(pt);
        }
        h
    }

    #[test]
    fn hand_arithmetic_works_per_kind() {
        assert_eq!(join(hand("GGS"), hand("GPP")), hand("GGSPP"));
        assert_eq!(meet(hand("GGS"), hand("GPP")), hand("G"));
        assert_eq!(minus(hand("GGS"), hand("GPP")), hand("GS"));
        assert_eq!(total([hand("GR"), hand("GB")]), hand("GGRB"));
    }

    #[test]
    fn a_contact_mate_needs_no_piece_in_hand() {
        // Gold on 5b supported by the pawn on 5c, king on 5a: mated, and no drop blocks a
        // contact check, so the proof holds whatever the attacker holds.
        let p = pos("4k4/4G4/4P4/9/9/9/9/9/4K4 w RBGSNLP 1");
        assert!(p.in_check());
        assert_eq!(
            defender_proof_hand(&p, Color::Black, Hand::EMPTY),
            Hand::EMPTY
        );
    }

    #[test]
    fn a_distant_check_keeps_the_kinds_the_defender_lacks() {
        // Lance check from 5i up the file; the defender (white) holds a silver. A smaller
        // attacker hand would give white the other kinds to drop between: the attacker keeps
        // its gold and pawns, not its silver (white holds silvers already).
        let p = pos("4k4/9/9/9/9/9/9/9/4L3K w GS2Ps 1");
        assert!(p.in_check());
        let proof = defender_proof_hand(&p, Color::Black, Hand::EMPTY);
        assert_eq!(proof, hand("GPP"));
        // What the replies needed stays.
        assert_eq!(
            defender_proof_hand(&p, Color::Black, hand("S")),
            hand("GSPP")
        );
    }

    #[test]
    fn a_defender_without_a_kind_because_the_attacker_holds_every_copy_stays_without() {
        // Black holds all four golds; white has none to drop between the lance and its king.
        // With one gold fewer, white would hold one and could block: all four stay.
        let p = pos("4k4/9/9/9/9/9/9/9/4L3K w 4GN 1");
        assert_eq!(
            defender_proof_hand(&p, Color::Black, Hand::EMPTY),
            hand("GGGGN")
        );
    }

    #[test]
    fn pawns_are_kept_even_where_nifu_would_forbid_the_block() {
        // The rook on 4a checks the king on 2a across 3a; white has a pawn on the 3rd file
        // already, so a pawn dropped on 3a would be nifu. The rule keeps black's pawns all
        // the same (on the safe side: only the move generator could tell).
        let p = pos("5R1k1/9/6p2/9/9/9/9/9/8K w 2P 1");
        assert!(p.in_check());
        assert_eq!(
            defender_proof_hand(&p, Color::Black, Hand::EMPTY),
            hand("PP")
        );
    }

    #[test]
    fn a_double_check_cannot_be_blocked() {
        // The knight on 6c and the lance on 5i both give check to the king on 5a.
        let p = pos("4k4/9/3N5/9/9/9/9/9/4L3K w G 1");
        assert!(p.checkers().more_than_one());
        assert_eq!(
            defender_proof_hand(&p, Color::Black, Hand::EMPTY),
            Hand::EMPTY
        );
    }

    #[test]
    fn moves_convert_hands_across_drops_and_captures() {
        let p = pos("4k4/9/4p4/9/9/9/9/4R4/4K4 b G 1");
        let drop = p.parse_usi_move("G*5b").unwrap();
        assert_eq!(hand_before(&p, drop, Hand::EMPTY), hand("G"));
        assert_eq!(hand_before(&p, drop, hand("P")), hand("GP"));
        let capture = p.parse_usi_move("5h5c").unwrap();
        assert_eq!(hand_before(&p, capture, hand("PG")), hand("G"));
        assert_eq!(hand_before(&p, capture, hand("G")), hand("G"));
    }

    #[test]
    fn a_failure_holds_only_while_the_attacker_lacks_the_kinds_it_lacks() {
        // Black holds a gold and a pawn; every check failed for up to two golds, a silver
        // and three pawns. The silver must go (black has none: one would give new drops),
        // and the total in hand bounds the rest.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b GPg2p 1");
        let d = attacker_disproof_hand(&p, Color::Black, hand("GGSPPP"));
        assert_eq!(d, hand("GGPPP"));
    }
}
