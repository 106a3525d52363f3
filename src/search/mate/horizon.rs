//! Static mate tests for the last plies of a ply bound: "can the attacker mate within three
//! plies?" answered by move generation and the rules core's mate-in-one detector alone,
//! with no node and no table entry for the positions in between.
//!
//! The test ignores repetitions: the search counts a check that repeats the path as a
//! failure, so without that rule the attacker only gains moves. "No mate" from here is
//! therefore certain for the search too; "mate" may not be (a search decides it).

use crate::shogi::movegen::{generate_legal, legal_king_moves, legal_moves, GenType, MoveList};
use crate::shogi::Position;

/// Does the side to move mate at once? The rules core's detector; with `by_generation`
/// the variant that generates every check (same answer, for the A/B).
pub fn mates_in_one(pos: &mut Position, by_generation: bool) -> bool {
    if by_generation {
        pos.mate_in_one_by_generation().is_some()
    } else {
        pos.mate_in_one().is_some()
    }
}

/// Can the side to move mate within three plies (a check after which every legal reply
/// allows a mate in one, or none is left)? `false` is exact.
pub fn mates_within_three(pos: &mut Position, by_generation: bool) -> bool {
    let mut checks = MoveList::new();
    if pos.in_check() {
        legal_moves(pos, &mut checks);
        let p = &*pos;
        checks.retain(|m| p.gives_check(m));
    } else {
        generate_legal(pos, GenType::Checks, &mut checks);
    }
    let mut replies = MoveList::new();
    for &check in checks.iter() {
        pos.do_move(check);
        // The king's moves first: most checks are answered by one, and the other replies
        // are then never generated.
        replies.clear();
        legal_king_moves(pos, &mut replies);
        let mut escapes = escaping_reply(pos, &replies, by_generation);
        let mut any_reply = !replies.is_empty();
        if !escapes {
            replies.clear();
            legal_moves(pos, &mut replies);
            let king = pos.king_square(pos.side_to_move());
            replies.retain(|m| m.is_drop() || Some(m.from()) != king);
            escapes = escaping_reply(pos, &replies, by_generation);
            any_reply |= !replies.is_empty();
        }
        pos.undo_move();
        if !escapes || !any_reply {
            return true;
        }
    }
    false
}

/// Is one of `replies` (legal) followed by no mate in one?
fn escaping_reply(pos: &mut Position, replies: &MoveList, by_generation: bool) -> bool {
    replies.iter().any(|&reply| {
        pos.do_move(reply);
        let mated = mates_in_one(pos, by_generation);
        pos.undo_move();
        !mated
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::Validation;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen_with(sfen, Validation::Composed).expect(sfen)
    }

    /// Problems of the sample set (tests/data/tsume/tsume_sample100.tsv) with their exact
    /// shortest lengths: three plies mate within three, five do not.
    #[test]
    fn a_mate_within_three_plies_is_found_and_a_longer_one_is_not() {
        for sfen in [
            "1+P1gkg2l/2s3s+P1/3ppp2p/P1p2npp1/l2N1+b3/3KP1P2/N2P1PS1P/2+p1G2R1/L1+r3sNL w Pbgp 58",
            "lnsG5/4g4/prpp1p1pp/1p4p2/4+B3k/2P1P4/P+b1PSP1LP/4K2SL/2G2G1r1 b SP3nl3p 71",
        ] {
            assert!(mates_within_three(&mut pos(sfen), false), "{sfen}");
        }
        for sfen in [
            "l2gkg2l/2s3s2/p1nppp1pp/2p3p2/P4P1P1/4n3P/1PPPG1N2/1BKS2+s2/LN3+r3 w RBgl3p 72",
            "lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 58",
            "lnG4nl/5k3/p1p+R1g1p1/1p1p3sp/5N3/2P1p1p2/PP1GP3P/1SG2+p1+b1/LN1K4L w Srbs4p 60",
        ] {
            let mut p = pos(sfen);
            let before = p.to_sfen();
            assert!(!mates_within_three(&mut p, false), "{sfen}");
            assert_eq!(p.to_sfen(), before, "the position is left as it was");
        }
        // A mate in one is a mate within three.
        assert!(mates_within_three(
            &mut pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
            false
        ));
    }
}
