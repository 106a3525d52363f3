//! The features of a record's quiet leaf (`--leaf quiet`): the last position of the
//! library's quiescence line (`hayanagi::quiet_line`, docs/DESIGN.md §14.3) searched with
//! the starting weights, seen from the record's side to move.

use hayanagi::{classic_features, Position};

/// Features of the quiet leaf of `pos` seen from `pos`'s side to move, into `out`;
/// `scratch` is working space. Returns the number of plies to the leaf.
pub fn leaf_features(
    pos: &Position,
    w: &[f64],
    out: &mut Vec<(u16, i16)>,
    scratch: &mut Vec<(u16, i16)>,
) -> usize {
    let mut eval = |p: &Position| {
        classic_features(p, scratch);
        scratch
            .iter()
            .map(|&(i, c)| w[i as usize] * f64::from(c))
            .sum()
    };
    let line = hayanagi::quiet_line(pos, &mut eval);
    let mut leaf = pos.clone();
    for &m in &line {
        leaf.do_move(m);
    }
    classic_features(&leaf, out);
    if line.len() % 2 == 1 {
        for f in out.iter_mut() {
            f.1 = -f.1;
        }
    }
    line.len()
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
