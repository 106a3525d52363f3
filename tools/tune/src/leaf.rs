//! The features of a record's quiet leaf (`--leaf quiet`): the last position of the
//! library's quiescence line (`hayanagi::quiet_line`, docs/DESIGN.md §14.3) searched with
//! the starting weights, seen from the record's side to move.

use hayanagi::{classic_features, classic_weighted_sum, Position};

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
        classic_weighted_sum(scratch, w)
    };
    let (leaf, plies) = hayanagi::quiet_leaf(pos, &mut eval);
    classic_features(&leaf, out);
    if plies % 2 == 1 {
        for f in out.iter_mut() {
            f.1 = -f.1;
        }
    }
    plies
}

#[cfg(test)]
mod tests {
    use super::*;
    use hayanagi::classic_weights;

    /// The leaf's features are seen from the record's side to move: negated one ply on.
    #[test]
    fn a_recapture_is_fitted_from_the_records_side() {
        let w: Vec<f64> = classic_weights()
            .to_flat()
            .iter()
            .map(|&v| f64::from(v))
            .collect();
        // Black's bishop has just taken on 2b and promoted; White takes the horse back
        // with the silver or the rook.
        let pos: Position = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
            .parse()
            .unwrap();
        let (mut features, mut scratch) = (Vec::new(), Vec::new());
        assert_eq!(leaf_features(&pos, &w, &mut features, &mut scratch), 1);
        let recaptures: Vec<Vec<(u16, i16)>> = [
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
            "lnsgkgsnl/7r1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
        ]
        .iter()
        .map(|sfen| {
            let mut own = Vec::new();
            classic_features(&sfen.parse().unwrap(), &mut own);
            own.iter().map(|&(i, c)| (i, -c)).collect()
        })
        .collect();
        assert!(recaptures.contains(&features), "{features:?}");
        // A quiet position is its own leaf, seen as it is.
        let quiet = Position::startpos();
        assert_eq!(leaf_features(&quiet, &w, &mut features, &mut scratch), 0);
        let mut own = Vec::new();
        classic_features(&quiet, &mut own);
        assert_eq!(features, own);
    }
}
