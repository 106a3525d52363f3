//! The quiet position behind a training record (docs/DESIGN.md §14.3): a record is often
//! taken in the middle of an exchange, where a static evaluation says little about the
//! search score it is fitted to. A small quiescence search (captures and promotions that
//! do not lose material by static exchange, every evasion in check, a few plies at most)
//! with the evaluation being fitted finds the line both sides would play; trainers fit the
//! position at its end instead, as engines' learners fit the quiescence search's principal
//! variation.

use crate::shogi::{generate, GenType, Move, MoveList, Position};

/// Plies the search follows at most (in check, evasions count too).
pub const QUIET_LINE_MAX_PLIES: usize = 8;

/// The quiescence search's principal variation from `pos` (empty when `pos` is quiet),
/// with `eval` scoring a position for its side to move. Play it to reach the quiet leaf;
/// an odd length leaves the other side to move there.
pub fn quiet_line(pos: &Position, eval: &mut dyn FnMut(&Position) -> f64) -> Vec<Move> {
    let mut p = pos.clone();
    let mut pv = Vec::with_capacity(QUIET_LINE_MAX_PLIES);
    qsearch(&mut p, eval, f64::NEG_INFINITY, f64::INFINITY, 0, &mut pv);
    pv
}

/// The quiet leaf itself: `pos` after its [`quiet_line`], with the line's length (odd: the
/// other side is to move at the leaf).
pub fn quiet_leaf(pos: &Position, eval: &mut dyn FnMut(&Position) -> f64) -> (Position, usize) {
    let line = quiet_line(pos, eval);
    let mut leaf = pos.clone();
    for &m in &line {
        leaf.do_move(m);
    }
    (leaf, line.len())
}

fn qsearch(
    pos: &mut Position,
    eval: &mut dyn FnMut(&Position) -> f64,
    mut alpha: f64,
    beta: f64,
    ply: usize,
    pv: &mut Vec<Move>,
) -> f64 {
    pv.clear();
    let in_check = pos.in_check();
    if ply >= QUIET_LINE_MAX_PLIES {
        return eval(pos);
    }
    let mut best = if in_check {
        f64::NEG_INFINITY
    } else {
        eval(pos)
    };
    if best >= beta {
        return best;
    }
    alpha = alpha.max(best);
    let mut moves = MoveList::new();
    let gen = if in_check {
        GenType::Evasions
    } else {
        GenType::CapturesPromotions
    };
    generate(pos, gen, &mut moves);
    let mut child_pv = Vec::new();
    let mut any_legal = false;
    for &m in moves.iter() {
        if !pos.is_legal_if_pseudo_legal(m) {
            continue;
        }
        any_legal = true;
        if !in_check && !pos.see_ge(m, 0) {
            continue;
        }
        pos.do_move(m);
        let score = -qsearch(pos, eval, -beta, -alpha, ply + 1, &mut child_pv);
        pos.undo_move();
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                pv.clear();
                pv.push(m);
                pv.extend_from_slice(&child_pv);
            }
            if score >= beta {
                break;
            }
        }
    }
    if in_check && !any_legal {
        // Mated: the line ends here, and the evaluation is what a trainer can fit.
        pv.clear();
        return eval(pos);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::classic::{features, weighted_sum};
    use crate::eval::weights::weights;

    fn classic_eval(pos: &Position) -> f64 {
        let w = weights().to_flat();
        let mut f = Vec::new();
        features(pos, &mut f);
        weighted_sum(&f, &w)
    }

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let m = pos.parse_usi_move(m).unwrap();
            pos.do_move(m);
        }
        pos
    }

    fn line(pos: &Position) -> Vec<String> {
        quiet_line(pos, &mut classic_eval)
            .iter()
            .map(|m| m.usi())
            .collect()
    }

    #[test]
    fn a_quiet_position_is_its_own_leaf() {
        assert!(line(&after(&["7g7f", "3c3d"])).is_empty());
        assert!(line(&Position::startpos()).is_empty());
    }

    #[test]
    fn an_exchange_ends_after_the_recapture() {
        // Black's bishop has just taken on 2b and promoted: White takes the horse back,
        // with the silver or the rook, and nothing is left to take.
        let l = line(&after(&["7g7f", "3c3d", "8h2b+"]));
        assert!(l == ["3a2b"] || l == ["8b2b"], "{l:?}");
    }

    #[test]
    fn a_losing_capture_is_not_played_and_a_check_is_answered() {
        // The bishop could take the pawn on 3c, which the knight and the bishop defend.
        let pos = after(&["7g7f", "8c8d"]);
        assert!(pos.parse_usi_move("8h3c+").is_ok_and(|m| pos.is_legal(m)));
        assert!(line(&pos).is_empty());
        // In check the line goes on with an evasion where nothing is captured.
        let pos: Position = "4k4/9/9/9/4L4/9/9/9/4K4 w - 1".parse().unwrap();
        assert!(pos.in_check());
        let l = line(&pos);
        assert_eq!(l.len(), 1, "{l:?}");
        assert!(l[0].starts_with("5a"), "{l:?}");
    }
}
