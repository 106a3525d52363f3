//! The quiet position behind a record's position (`--leaf`): a record is mostly taken in
//! the middle of an exchange, where the static evaluation says little about the search
//! score it is fitted to. A small quiescence search with the starting weights (captures
//! and promotions that do not lose material by static exchange, every evasion in check)
//! finds the line both sides would play, and the features of its last position stand for
//! the record (negated when the other side is to move there), as engines' learners do
//! with the quiescence search's principal variation.

use hayanagi::{classic_features, generate, GenType, MoveList, Position};

/// Plies of captures the search follows at most (in check, evasions count too).
const MAX_PLIES: usize = 8;

/// Features of the quiet leaf of `pos` seen from `pos`'s side to move, into `out`;
/// `scratch` is working space. Returns the number of plies to the leaf.
pub fn leaf_features(
    pos: &Position,
    w: &[f64],
    out: &mut Vec<(u16, i16)>,
    scratch: &mut Vec<(u16, i16)>,
) -> usize {
    let mut p = pos.clone();
    let mut pv = Vec::with_capacity(MAX_PLIES);
    let mut search = Search { w, scratch };
    search.qsearch(&mut p, f64::NEG_INFINITY, f64::INFINITY, 0, &mut pv);
    for &m in &pv {
        p.do_move(m);
    }
    classic_features(&p, out);
    if pv.len() % 2 == 1 {
        for f in out.iter_mut() {
            f.1 = -f.1;
        }
    }
    pv.len()
}

struct Search<'a> {
    w: &'a [f64],
    scratch: &'a mut Vec<(u16, i16)>,
}

impl Search<'_> {
    /// The evaluation (side to move's view) by the weights being fitted.
    fn eval(&mut self, pos: &Position) -> f64 {
        classic_features(pos, self.scratch);
        self.scratch
            .iter()
            .map(|&(i, c)| self.w[i as usize] * f64::from(c))
            .sum()
    }

    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: f64,
        beta: f64,
        ply: usize,
        pv: &mut Vec<hayanagi::Move>,
    ) -> f64 {
        pv.clear();
        let in_check = pos.in_check();
        let mut best = if in_check {
            f64::NEG_INFINITY
        } else {
            self.eval(pos)
        };
        if ply >= MAX_PLIES || best >= beta {
            // Out of plies in check: the evaluation is all there is.
            return if best == f64::NEG_INFINITY {
                self.eval(pos)
            } else {
                best
            };
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
            if !in_check && pos.see(m) < 0 {
                continue;
            }
            pos.do_move(m);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, &mut child_pv);
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
            // Mated: a leaf in itself (its evaluation is what the features can say).
            pv.clear();
            return self.eval(pos);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayanagi::classic_weights;

    fn weights() -> Vec<f64> {
        classic_weights()
            .to_flat()
            .iter()
            .map(|&v| f64::from(v))
            .collect()
    }

    fn after(moves: &[&str]) -> Position {
        let mut pos = Position::startpos();
        for m in moves {
            let m = pos.parse_usi_move(m).unwrap();
            pos.do_move(m);
        }
        pos
    }

    fn leaf(pos: &Position) -> (usize, Vec<(u16, i16)>) {
        let (mut out, mut scratch) = (Vec::new(), Vec::new());
        let plies = leaf_features(pos, &weights(), &mut out, &mut scratch);
        (plies, out)
    }

    #[test]
    fn a_quiet_position_is_its_own_leaf() {
        let pos = after(&["7g7f", "3c3d"]);
        let (plies, features) = leaf(&pos);
        let mut own = Vec::new();
        classic_features(&pos, &mut own);
        assert_eq!((plies, features), (0, own));
    }

    #[test]
    fn a_piece_taken_in_an_exchange_is_fitted_after_the_recapture() {
        // Black's bishop has just taken on 2b and promoted: White takes the horse back
        // (with the silver or the rook), and the leaf, one ply on, is seen from White's side.
        let pos = after(&["7g7f", "3c3d", "8h2b+"]);
        let (plies, features) = leaf(&pos);
        assert_eq!(plies, 1);
        let recaptures: Vec<Vec<(u16, i16)>> = ["3a2b", "8b2b"]
            .iter()
            .map(|m| {
                let mut own = Vec::new();
                classic_features(&after(&["7g7f", "3c3d", "8h2b+", m]), &mut own);
                own.iter().map(|&(i, c)| (i, -c)).collect()
            })
            .collect();
        assert!(recaptures.contains(&features), "{features:?}");
    }
}
