//! The hand-crafted evaluation: material on the board and in hand, piece-square terms, king-relative
//! terms (defenders near one's own king, attackers near the enemy king), the attack-map
//! terms of [`super::attack_terms`] (mobility, king danger, drop checks, hanging pieces)
//! and a tempo bonus. Weights live in
//! [`super::weights::Weights`]. It evaluates every position, kings or not, and is the
//! fallback when no net is loaded or the net cannot evaluate a position.
//!
//! The board-dependent part is kept incrementally: the search calls
//! [`ClassicEvaluator::do_move`] before `Position::do_move` and
//! [`ClassicEvaluator::undo_move`] after
//! `undo_move`; each move adjusts an accumulator instead of rescanning the board. Only a
//! king move rescans the king-relative terms, and only those relative to that king (every
//! piece's offset to it changes). The attack-map terms are computed at each evaluation,
//! or read from the search thread's cache ([`super::attack_cache`]).

use super::attack_cache::AttackCache;
use super::attack_terms;
use super::weights::{flat_weights, layout, weights, Weights, KING_WINDOW};
use crate::shogi::{Color, Move, Piece, PieceType, Position, Square};

/// Accumulated terms, from black's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Accumulator {
    /// Material (board and hand) plus piece-square terms.
    material: i32,
    /// King-relative terms, by the king they are relative to (black's, white's): every
    /// piece's own-king term lies in its owner's half and its enemy-king term in the
    /// other. `None` after that king moved, until the next evaluation, which recomputes
    /// only that half.
    king: [Option<i32>; 2],
}

/// Incrementally updated evaluation of one search line.
#[derive(Clone)]
pub struct ClassicEvaluator {
    stack: Vec<Accumulator>,
    /// The attack terms of positions evaluated before (empty for one-off evaluations).
    cache: AttackCache,
}

/// +1 for black, -1 for white: terms are summed from black's point of view.
#[inline(always)]
pub(super) fn sign(c: Color) -> i32 {
    if c == Color::Black {
        1
    } else {
        -1
    }
}

/// `sq` as seen by `c` (as if `c` were black).
#[inline(always)]
fn rel(c: Color, sq: Square) -> Square {
    if c == Color::Black {
        sq
    } else {
        sq.flip()
    }
}

/// The king-relative window offset of `sq` from a king on `king`, as `c` sees the board
/// (`c` = white: both squares turned round, which turns the window round).
#[inline(always)]
fn offset(c: Color, king: Square, sq: Square) -> usize {
    let black = WINDOW_CENTRE + i32::from(GRID[sq.index()]) - i32::from(GRID[king.index()]);
    (if c == Color::Black {
        black
    } else {
        WINDOW_LAST - black
    }) as usize
}

#[inline(always)]
fn material_term(w: &Weights, p: Piece, sq: Square) -> i32 {
    let (c, pt) = (p.color(), p.piece_type());
    sign(c) * (w.board_value[pt.index()] + w.psqt[pt.index()][rel(c, sq).index()])
}

fn full_material(w: &Weights, pos: &Position) -> i32 {
    let mut v = 0;
    for sq in pos.occupied() {
        v += material_term(w, pos.piece_on(sq), sq);
    }
    for c in Color::ALL {
        for pt in PieceType::HAND {
            v += sign(c) * w.hand_value[pt.index()][pos.hand(c).count(pt).min(18) as usize];
        }
    }
    v
}

/// `sq` numbered so that the king-relative window offset of `sq` from a king on `k`, for
/// black, is `WINDOW_CENTRE + grid(sq) - grid(k)` (file x 17 + rank).
const GRID: [i16; 81] = {
    let mut g = [0; 81];
    let mut i = 0;
    while i < 81 {
        g[i] = (i / 9 * 17 + i % 9) as i16;
        i += 1;
    }
    g
};
const WINDOW_CENTRE: i32 = 8 * 17 + 8;
/// The last offset of the window: a white piece's offset is this less black's.
const WINDOW_LAST: i32 = KING_WINDOW as i32 - 1;

/// The king-relative terms of every piece relative to `kc`'s king (0 without one): for
/// each piece kind of each side, one window row, and per piece one offset from the grid.
fn king_half(w: &Weights, pos: &Position, kc: Color) -> i32 {
    let Some(k) = pos.king_square(kc) else {
        return 0;
    };
    let base = WINDOW_CENTRE - i32::from(GRID[k.index()]);
    let mut sum = 0;
    for c in Color::ALL {
        let tables = if c == kc { &w.own_king } else { &w.enemy_king };
        let mut side = 0;
        for pt in PieceType::ALL {
            if pt == PieceType::King {
                continue;
            }
            let row = &tables[pt.index()];
            for sq in pos.pieces_of(c, pt) {
                // The offset for black; white's is the window turned round.
                let off = base + i32::from(GRID[sq.index()]);
                let off = if c == Color::Black {
                    off
                } else {
                    WINDOW_LAST - off
                };
                side += row[off as usize];
            }
        }
        sum += sign(c) * side;
    }
    sum
}

/// The term of piece `p` on `sq` relative to `kc`'s king (in `kc`'s half).
#[inline(always)]
fn king_half_term(w: &Weights, p: Piece, sq: Square, kc: Color, k: Square) -> i32 {
    let (c, pt) = (p.color(), p.piece_type());
    if pt == PieceType::King {
        return 0;
    }
    let tables = if c == kc { &w.own_king } else { &w.enemy_king };
    sign(c) * tables[pt.index()][offset(c, k, sq)]
}

impl ClassicEvaluator {
    /// An evaluator for `pos`, computed from scratch, without a cache of attack terms
    /// (for a few evaluations).
    pub fn new(pos: &Position) -> ClassicEvaluator {
        ClassicEvaluator::with_cache(pos, AttackCache::none())
    }

    /// An evaluator for `pos` that keeps the attack terms it computes in `cache` (which
    /// may hold values from earlier searches: they depend on the position alone).
    pub(crate) fn with_cache(pos: &Position, cache: AttackCache) -> ClassicEvaluator {
        let w = weights();
        let mut stack = Vec::with_capacity(256);
        stack.push(Accumulator {
            material: full_material(w, pos),
            king: Color::ALL.map(|kc| Some(king_half(w, pos, kc))),
        });
        ClassicEvaluator { stack, cache }
    }

    /// Account for `m`, which is about to be played in `pos` (call before `do_move`).
    pub fn do_move(&mut self, pos: &Position, m: Move) {
        let w = weights();
        let top = *self.stack.last().expect("evaluator stack");
        let us = pos.side_to_move();
        let to = m.to();
        let mut material = top.material;
        let mut king = top.king;
        if m.is_drop() {
            let pt = m.dropped();
            let p = Piece::new(us, pt);
            let n = pos.hand(us).count(pt).min(18) as usize;
            let hv = &w.hand_value[pt.index()];
            material += material_term(w, p, to) - sign(us) * (hv[n] - hv[n - 1]);
            for kc in Color::ALL {
                if let (Some(h), Some(k)) = (&mut king[kc.index()], pos.king_square(kc)) {
                    *h += king_half_term(w, p, to, kc, k);
                }
            }
        } else {
            let from = m.from();
            let p = pos.piece_on(from);
            let q = pos.moved_piece_after(m);
            let captured = pos.piece_on(to);
            material += material_term(w, q, to) - material_term(w, p, from);
            if !captured.is_empty() {
                material -= material_term(w, captured, to);
                let cpt = captured.piece_type().unpromoted();
                let n = pos.hand(us).count(cpt).min(17) as usize;
                let hv = &w.hand_value[cpt.index()];
                material += sign(us) * (hv[n + 1] - hv[n]);
            }
            for kc in Color::ALL {
                let half = &mut king[kc.index()];
                if captured.kind() == Some(PieceType::King) && captured.color() == kc {
                    // Not a legal move; a position without that king has no terms
                    // relative to it, as `king_half` counts them.
                    *half = Some(0);
                } else if p.piece_type() == PieceType::King && kc == us {
                    // Every offset from this king changes.
                    *half = None;
                } else if let (Some(h), Some(k)) = (half, pos.king_square(kc)) {
                    // A king moving changes nothing in the other king's half (a king has
                    // no terms of its own).
                    *h += king_half_term(w, q, to, kc, k) - king_half_term(w, p, from, kc, k);
                    if !captured.is_empty() {
                        *h -= king_half_term(w, captured, to, kc, k);
                    }
                }
            }
        }
        self.stack.push(Accumulator { material, king });
    }

    /// A null move changes nothing but the side to move.
    pub fn do_null_move(&mut self) {
        let top = *self.stack.last().expect("evaluator stack");
        self.stack.push(top);
    }

    /// Take back the last `do_move` or `do_null_move`.
    pub fn undo_move(&mut self) {
        self.stack.pop();
        debug_assert!(!self.stack.is_empty());
    }

    /// Evaluation of `pos` (which must match the moves fed in) for the side to move.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let w = weights();
        let top = self.stack.last_mut().expect("evaluator stack");
        let mut king = 0;
        for kc in Color::ALL {
            king += *top.king[kc.index()].get_or_insert_with(|| king_half(w, pos, kc));
        }
        let key = pos.key();
        let attack = match self.cache.probe(key) {
            Some(a) => a,
            None => {
                let a = attack_terms::evaluate(&flat_weights()[layout::MOBILITY..], pos);
                self.cache.store(key, a);
                a
            }
        };
        let black = top.material + king + attack;
        let v = if pos.side_to_move() == Color::Black {
            black
        } else {
            -black
        };
        v + w.tempo
    }

    /// The position of `key` will be evaluated soon: start loading its cache slot.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.cache.prefetch(key);
    }

    /// Give up the cache of attack terms (for the next search's evaluator).
    pub(crate) fn take_cache(&mut self) -> AttackCache {
        std::mem::take(&mut self.cache)
    }

    /// The evaluation computed from scratch (for tests and diagnostics).
    pub fn evaluate_from_scratch(pos: &Position) -> i32 {
        ClassicEvaluator::new(pos).evaluate(pos)
    }
}

/// The sum of coefficient x weight over `features` (the output of [`features`]) with the
/// flat weights `weights` (integer or, in a tuner, real): the evaluation those weights
/// give, in centipawns. The one dot product the trainers and the quiescence lines share.
pub fn weighted_sum<W: Copy + Into<f64>>(features: &[(u16, i16)], weights: &[W]) -> f64 {
    features
        .iter()
        .map(|&(i, c)| weights[i as usize].into() * f64::from(c))
        .sum()
}

/// The evaluation of `pos` for the side to move as a sum of weight x count: `out` gets
/// each (index into [`Weights::to_flat`], coefficient), every index once, sorted, so that
/// [`ClassicEvaluator::evaluate_from_scratch`] equals the sum of coefficient x weight (the
/// tuner's view of this file, docs/DESIGN.md §14.3).
pub fn features(pos: &Position, out: &mut Vec<(u16, i16)>) {
    out.clear();
    let stm = sign(pos.side_to_move());
    let mut add = |index: usize, coefficient: i32| out.push((index as u16, coefficient as i16));
    add(layout::TEMPO, 1);
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    for sq in pos.occupied() {
        let p = pos.piece_on(sq);
        let (c, pt) = (p.color(), p.piece_type());
        let s = stm * sign(c);
        add(layout::BOARD + pt.index(), s);
        add(layout::PSQT + pt.index() * 81 + rel(c, sq).index(), s);
        if pt == PieceType::King {
            continue;
        }
        let window = pt.index() * KING_WINDOW;
        if let Some(k) = kings[c.index()] {
            add(layout::OWN_KING + window + offset(c, k, sq), s);
        }
        if let Some(k) = kings[c.flip().index()] {
            add(layout::ENEMY_KING + window + offset(c, k, sq), s);
        }
    }
    for c in Color::ALL {
        for pt in PieceType::HAND {
            let n = pos.hand(c).count(pt).min(18) as usize;
            add(layout::HAND + pt.index() * 19 + n, stm * sign(c));
        }
    }
    super::attack_terms::for_each_term(pos, |i, c| add(layout::MOBILITY + i, stm * c));
    out.sort_unstable_by_key(|f| f.0);
    out.dedup_by(|next, kept| {
        let same = next.0 == kept.0;
        if same {
            kept.1 += next.1;
        }
        same
    });
    out.retain(|f| f.1 != 0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_and_symmetric() {
        let pos = Position::startpos();
        let w = weights();
        // Black to move: only the tempo bonus separates the sides.
        assert_eq!(ClassicEvaluator::evaluate_from_scratch(&pos), w.tempo);
        let white =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1")
                .unwrap();
        assert_eq!(ClassicEvaluator::evaluate_from_scratch(&white), w.tempo);
    }

    /// An evaluator with a cache of attack terms, carried from one line to the next as
    /// a search's evaluator is, gives the evaluation from scratch at every position of
    /// random games, the first time (stored) and the second (read back).
    #[test]
    fn the_cached_attack_terms_give_the_same_evaluation() {
        let mut rng = crate::util::rng::Rng::new(9);
        let mut cache = AttackCache::new();
        let mut hits = 0;
        for _ in 0..30 {
            let mut pos = Position::startpos();
            let mut ev = ClassicEvaluator::with_cache(&pos, cache);
            for _ in 0..(rng.next_u64() % 160) {
                let moves = crate::shogi::legal(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                ev.do_move(&pos, m);
                pos.do_move(m);
                let expected = ClassicEvaluator::evaluate_from_scratch(&pos);
                hits += usize::from(ev.cache.probe(pos.key()).is_some());
                assert_eq!(ev.evaluate(&pos), expected, "{pos}");
                assert!(ev.cache.probe(pos.key()).is_some());
                assert_eq!(ev.evaluate(&pos), expected, "{pos}");
            }
            cache = ev.take_cache();
        }
        // The games share their openings, so later ones find earlier positions.
        assert!(hits > 0);
    }

    /// The window offset from the grid equals the file and rank differences it stands
    /// for, for every king square, square and side.
    #[test]
    fn the_grid_offset_is_the_file_and_rank_difference() {
        for k in 0..81u8 {
            for sq in 0..81u8 {
                for c in Color::ALL {
                    let (k, sq) = (Square::new(k), Square::new(sq));
                    let (rk, rs) = (rel(c, k), rel(c, sq));
                    let df = rs.file() as i32 - rk.file() as i32;
                    let dr = rs.rank() as i32 - rk.rank() as i32;
                    assert_eq!(offset(c, k, sq), ((df + 8) * 17 + (dr + 8)) as usize);
                }
            }
        }
    }

    #[test]
    fn features_sum_to_the_evaluation() {
        let flat = weights().to_flat();
        let mut rng = crate::util::rng::Rng::new(3);
        let mut f = Vec::new();
        let mut checked = 0;
        for start in [
            crate::shogi::STARTPOS_SFEN,
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ] {
            for _ in 0..40 {
                let mut pos = Position::from_sfen(start).unwrap();
                for _ in 0..(rng.next_u64() % 150) {
                    let moves = crate::shogi::legal(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize];
                    pos.do_move(m);
                    features(&pos, &mut f);
                    // Exact: integers far below 2^53.
                    let sum = weighted_sum(&f, &flat) as i32;
                    assert_eq!(sum, ClassicEvaluator::evaluate_from_scratch(&pos), "{pos}");
                    assert!(f.windows(2).all(|p| p[0].0 < p[1].0));
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn material_counts() {
        let up_a_rook =
            Position::from_sfen("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1")
                .unwrap();
        let even = Position::startpos();
        assert!(
            ClassicEvaluator::evaluate_from_scratch(&up_a_rook)
                > ClassicEvaluator::evaluate_from_scratch(&even) + 900
        );
    }
}
