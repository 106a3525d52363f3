//! The terms of the hand-crafted evaluation that read both sides' attack maps, recomputed
//! for every evaluation (docs/DESIGN.md §9.2): long-range mobility (linear and as a
//! saturating table), a king-danger table, safe drop checks, hanging pieces and pieces a
//! pawn attacks. Each term is one weight times a count, so the tuner fits them like the
//! rest (§14.3); [`for_each_term`] is the one place that defines them, for the evaluation
//! and for the tuner's feature lists alike.

use super::classic::sign;
use crate::shogi::attacks::tables;
use crate::shogi::{Bitboard, Color, PieceType, Position, Square};

/// King danger of one side: `[covered][hand][weak]`, where `weak` (0-8) counts the
/// squares next to the king that the enemy attacks and no other own piece defends,
/// `covered` (0-3, saturating) those the enemy attacks that another own piece defends,
/// `hand` (0-3, saturating) the enemy's pieces in hand other than pawns.
pub const KING_DANGER: usize = 0;
const KING_DANGER_LEN: usize = 4 * 4 * 9;
/// Safe drop checks against one side's king: `[kind][count]`, kind in [`DROP_CHECKERS`]
/// order (only kinds the enemy holds), count 0-4 saturating. A square is safe when no
/// other defending piece covers it and, next to the king, an enemy piece supports it.
pub const DROP_CHECK: usize = KING_DANGER + KING_DANGER_LEN;
const DROP_CHECK_LEN: usize = DROP_CHECKERS.len() * 5;
/// Hanging pieces (attacked, not defended, king included as a defender and attacker):
/// `[owner is to move? 0 : 1][piece type]`.
pub const HANGING: usize = DROP_CHECK + DROP_CHECK_LEN;
/// Pieces other than pawns that an enemy pawn attacks: `[owner is to move? 0 : 1][type]`.
pub const PAWN_THREAT: usize = HANGING + 2 * PieceType::NB;
/// Squares a long-range piece attacks (own pieces excluded), as a table:
/// `[kind in MOBILE order][count, 0-20 saturating]`.
pub const SLIDER_MOBILITY: usize = PAWN_THREAT + 2 * PieceType::NB;
/// Squares next to one side's king that the enemy attacks twice or more (0-8).
pub const KING_DOUBLE: usize = SLIDER_MOBILITY + MOBILE.len() * MOBILITY_BUCKETS;
/// Enemy pieces (king aside) whose attacks reach the 5 x 5 square around one side's king (0-10).
pub const KING_ATTACKERS: usize = KING_DOUBLE + 9;
/// The enemy's hand against one side's king: `[rooks + bishops, 0-2][golds + silvers, 0-3][weak, 0-8]`.
pub const KING_HAND: usize = KING_ATTACKERS + 11;
/// Bishops, rooks, horses and dragons an enemy knight, silver or gold-mover attacks:
/// `[owner is to move? 0 : 1][type]`.
pub const MINOR_THREAT: usize = KING_HAND + 3 * 4 * 9;
/// The number of weights these terms add after the linear mobility ones.
pub const PARAMS: usize = MINOR_THREAT + 2 * PieceType::NB;

const MOBILITY_BUCKETS: usize = 21;

/// The long-range pieces whose attacked squares count as mobility.
pub const MOBILE: [PieceType; 5] = [
    PieceType::Lance,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Horse,
    PieceType::Dragon,
];

/// Pieces in hand whose drops can give check, for [`DROP_CHECK`] (pawn drops are left out:
/// the two-pawn and pawn-drop-mate rules make most of them moot).
pub const DROP_CHECKERS: [PieceType; 6] = [
    PieceType::Lance,
    PieceType::Knight,
    PieceType::Silver,
    PieceType::Gold,
    PieceType::Bishop,
    PieceType::Rook,
];

/// Calls `emit(index, coefficient)` for every term of `pos`, `index` counted from the
/// first linear mobility weight (`layout::MOBILITY`): indices below `PieceType::NB` are
/// those linear weights, the rest these terms plus `PieceType::NB`. Coefficients are from
/// black's point of view. An index may come more than once.
#[inline(always)]
pub fn for_each_term(pos: &Position, mut emit: impl FnMut(usize, i32)) {
    const BASE: usize = PieceType::NB;
    let t = tables();
    let occ = pos.occupied();
    let stm = pos.side_to_move();
    let mut attacked = [Bitboard::EMPTY; 2];
    let mut king_zone = [Bitboard::EMPTY; 2];
    let mut pawn_attacks = [Bitboard::EMPTY; 2];
    let mut double = [Bitboard::EMPTY; 2];
    let mut minor_attacks = [Bitboard::EMPTY; 2];
    let mut attackers = [0usize; 2];
    let wide = |c: Color| pos.king_square(c).map_or(Bitboard::EMPTY, square_5x5);
    let wide_zone = [wide(Color::Black), wide(Color::White)];
    for c in Color::ALL {
        let own = pos.pieces(c);
        let s = sign(c);
        // Pawns never stand on their last rank, so a shift is their attack map.
        let pawn_att = pos.pieces_of(c, PieceType::Pawn).shift_forward(c);
        let mut att = pawn_att;
        let mut att2 = Bitboard::EMPTY;
        let zone = wide_zone[c.flip().index()];
        let mut n_att = (pawn_att & zone).count() as usize;
        let mut add = |a: Bitboard| {
            att2 |= att & a;
            att |= a;
            n_att += usize::from((a & zone).any());
        };
        let mut minor = Bitboard::EMPTY;
        for sq in pos.pieces_of(c, PieceType::Knight) {
            let a = t.knight(c, sq);
            minor |= a;
            add(a);
        }
        for sq in pos.pieces_of(c, PieceType::Silver) {
            let a = t.silver(c, sq);
            minor |= a;
            add(a);
        }
        for sq in pos.golds() & own {
            let a = t.gold(c, sq);
            minor |= a;
            add(a);
        }
        for (k, pt) in MOBILE.into_iter().enumerate() {
            for sq in pos.pieces_of(c, pt) {
                let a = t.attacks(pt, c, sq, occ);
                add(a);
                let n = a.and_not(own).count() as i32;
                emit(pt.index(), s * n);
                let bucket = (n as usize).min(MOBILITY_BUCKETS - 1);
                emit(BASE + SLIDER_MOBILITY + k * MOBILITY_BUCKETS + bucket, s);
            }
        }
        if let Some(ksq) = pos.king_square(c) {
            king_zone[c.index()] = t.king(ksq);
        }
        pawn_attacks[c.index()] = pawn_att;
        attacked[c.index()] = att;
        double[c.index()] = att2;
        minor_attacks[c.index()] = minor;
        attackers[c.index()] = n_att;
    }
    for c in Color::ALL {
        let (us, them) = (c.index(), c.flip().index());
        let s = sign(c);
        let side = usize::from(c != stm) * PieceType::NB;
        if let Some(ksq) = pos.king_square(c) {
            let near = king_zone[us];
            let hit = near & attacked[them];
            let weak = hit.and_not(attacked[us]).count() as usize;
            let covered = (hit & attacked[us]).count().min(3) as usize;
            let hand = pos.hand(c.flip());
            let held = DROP_CHECKERS
                .iter()
                .map(|&pt| hand.count(pt))
                .sum::<u32>()
                .min(3) as usize;
            emit(BASE + KING_DANGER + (covered * 4 + held) * 9 + weak, s);
            emit(
                BASE + KING_DOUBLE + (near & double[them]).count() as usize,
                s,
            );
            emit(BASE + KING_ATTACKERS + attackers[them].min(10), s);
            let major =
                (hand.count(PieceType::Rook) + hand.count(PieceType::Bishop)).min(2) as usize;
            let minor =
                (hand.count(PieceType::Gold) + hand.count(PieceType::Silver)).min(3) as usize;
            emit(BASE + KING_HAND + (major * 4 + minor) * 9 + weak, s);
            // Squares from which a dropped enemy piece would check, as the attacks of
            // the same kind of our own piece standing on the king's square.
            let unsafe_near = near.and_not(attacked[them]);
            for (k, &pt) in DROP_CHECKERS.iter().enumerate() {
                if hand.count(pt) == 0 {
                    continue;
                }
                let checks = t.attacks(pt, c, ksq, occ).and_not(occ);
                let safe = checks.and_not(attacked[us]).and_not(unsafe_near);
                let n = (safe.count() as usize).min(4);
                emit(BASE + DROP_CHECK + k * 5 + n, s);
            }
        }
        let defended = attacked[us] | king_zone[us];
        let threatened = attacked[them] | king_zone[them];
        let kings = pos.pieces_of_type(PieceType::King);
        for sq in (pos.pieces(c) & threatened).and_not(defended | kings) {
            let pt = pos.piece_on(sq).piece_type();
            emit(BASE + HANGING + side + pt.index(), s);
        }
        let majors = pos.bishops_horses() | pos.rooks_dragons();
        for sq in pos.pieces(c) & majors & minor_attacks[them] {
            let pt = pos.piece_on(sq).piece_type();
            emit(BASE + MINOR_THREAT + side + pt.index(), s);
        }
        let pawns = pos.pieces_of_type(PieceType::Pawn);
        for sq in (pos.pieces(c) & pawn_attacks[them]).and_not(pawns | kings) {
            let pt = pos.piece_on(sq).piece_type();
            emit(BASE + PAWN_THREAT + side + pt.index(), s);
        }
    }
}

/// The 5 x 5 square centred on `sq` (cut by the board's edges).
fn square_5x5(sq: Square) -> Bitboard {
    static ZONES: std::sync::LazyLock<[Bitboard; 81]> = std::sync::LazyLock::new(|| {
        let t = tables();
        std::array::from_fn(|i| {
            let near = t.king(Square::new(i as u8));
            near.fold(near, |z, s| z | t.king(s))
        })
    });
    ZONES[sq.index()]
}

/// The sum of these terms (and the linear mobility) for black, weights given from
/// `layout::MOBILITY` on.
#[inline]
pub fn evaluate(weights: &[i32], pos: &Position) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: `evaluate_popcnt` only needs the `popcnt` instruction, which the CPU
        // was just found to have.
        return unsafe { evaluate_popcnt(weights, pos) };
    }
    evaluate_portable(weights, pos)
}

/// [`evaluate`] compiled with the `popcnt` instruction: the terms count squares of
/// 128-bit boards some twenty times an evaluation, and the baseline x86-64 target has no
/// population count (its software form made the whole search about 8% slower, bench,
/// DESIGN.md §9.2).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn evaluate_popcnt(weights: &[i32], pos: &Position) -> i32 {
    evaluate_portable(weights, pos)
}

#[inline(always)]
fn evaluate_portable(weights: &[i32], pos: &Position) -> i32 {
    let mut v = 0;
    for_each_term(pos, |i, c| v += weights[i] * c);
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    const B: usize = PieceType::NB;

    fn terms(sfen: &str) -> BTreeMap<usize, i32> {
        let pos = Position::from_sfen(sfen).unwrap();
        let mut m = BTreeMap::new();
        for_each_term(&pos, |i, c| *m.entry(i).or_insert(0) += c);
        m.retain(|_, c| *c != 0);
        m
    }

    #[test]
    fn drop_checks_count_only_safe_squares() {
        // Black's gold in hand could check 5a from 4a, 6a, 4b, 5b and 6b; only 5b, which
        // the pawn on 5c supports, is out of the king's reach.
        let t = terms("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
        assert_eq!(t.get(&(B + DROP_CHECK + 3 * 5 + 1)), Some(&-1));
        // White's king: one weak neighbour (5b), nothing covered, one piece in hand
        // against it; black's king: nothing attacked, nothing in hand.
        assert_eq!(t.get(&(B + KING_DANGER + 9 + 1)), Some(&-1));
        assert_eq!(t.get(&(B + KING_DANGER)), Some(&1));
        // The pawn reaches the 5 x 5 square around white's king; nothing reaches black's.
        assert_eq!(t.get(&(B + KING_ATTACKERS + 1)), Some(&-1));
        assert_eq!(t.get(&(B + KING_ATTACKERS)), Some(&1));
        // White's king faces a gold in hand with one weak neighbour; black's nothing.
        assert_eq!(t.get(&(B + KING_HAND + 9 + 1)), Some(&-1));
        assert_eq!(t.get(&(B + KING_HAND)), Some(&1));
        // No square is attacked twice: both kings' zero counts cancel.
        assert_eq!(t.get(&(B + KING_DOUBLE)), None);
        assert_eq!(t.len(), 7, "{t:?}");
        // Without the pawn every check square lies in the king's reach.
        let t = terms("4k4/9/9/9/9/9/9/9/4K4 b G 1");
        assert_eq!(t.get(&(B + DROP_CHECK + 3 * 5)), Some(&-1));
    }

    #[test]
    fn hanging_pieces_and_pawn_threats() {
        // White's gold on 5c: attacked by the pawn on 5d, not defended; it attacks that
        // pawn, which nothing defends either. Black is to move.
        let t = terms("4k4/9/4g4/4P4/9/9/9/9/4K4 b - 1");
        let gold = PieceType::Gold.index();
        assert_eq!(t.get(&(B + HANGING + B + gold)), Some(&-1));
        assert_eq!(t.get(&(B + PAWN_THREAT + B + gold)), Some(&-1));
        assert_eq!(t.get(&(B + HANGING + PieceType::Pawn.index())), Some(&1));
        // The same with white to move: the owners' sides swap.
        let t = terms("4k4/9/4g4/4P4/9/9/9/9/4K4 w - 1");
        assert_eq!(t.get(&(B + HANGING + gold)), Some(&-1));
        assert_eq!(
            t.get(&(B + HANGING + B + PieceType::Pawn.index())),
            Some(&1)
        );
        // A defended piece does not hang: the king on 5a covers a gold on 5b.
        let t = terms("4k4/4g4/4P4/9/9/9/9/9/4K4 b - 1");
        assert_eq!(t.get(&(B + HANGING + B + gold)), None);
        assert_eq!(t.get(&(B + PAWN_THREAT + B + gold)), Some(&-1));
    }

    #[test]
    fn slider_mobility_counts_squares_not_own_pieces() {
        // The rook on 4e reaches eight squares of file 4 and eight of rank e; the one on
        // 5g is blocked by its own king on 5i and reaches 5a-5f, eight of rank g and 5h.
        let t = terms("4k4/9/9/9/5R3/9/4R4/9/4K4 w - 1");
        assert_eq!(t.get(&PieceType::Rook.index()), Some(&(16 + 15)));
        assert_eq!(t.get(&(B + SLIDER_MOBILITY + 2 * 21 + 16)), Some(&1));
        assert_eq!(t.get(&(B + SLIDER_MOBILITY + 2 * 21 + 15)), Some(&1));
        // Colours mirror: the same position turned round gives every term negated.
        let w = terms("4k4/9/4r4/9/3r5/9/9/9/4K4 b - 1");
        let negated: BTreeMap<usize, i32> = t.iter().map(|(&i, &c)| (i, -c)).collect();
        assert_eq!(w, negated);
    }

    #[test]
    fn double_attacks_and_minor_threats() {
        // Black's golds on 4c and 6c both attack 5b next to white's king on 5a; the one on
        // 6c also attacks white's rook on 7b.
        let t = terms("4k4/2r6/3G1G3/9/9/9/9/9/4K4 w - 1");
        assert_eq!(t.get(&(B + KING_DOUBLE + 1)), Some(&-1));
        assert_eq!(t.get(&(B + KING_DOUBLE)), Some(&1));
        // The rook on 7b is white's and white is to move: side 0.
        assert_eq!(
            t.get(&(B + MINOR_THREAT + PieceType::Rook.index())),
            Some(&-1)
        );
    }

    /// The copy chosen at run time (with `popcnt` where the CPU has it) and the portable
    /// one give the same sums, on the perft table's positions and 60 pseudo-random plies
    /// from each.
    #[test]
    fn the_dispatched_copy_matches_the_portable_one() {
        use crate::shogi::movegen::{legal_moves, MoveList};
        let weights: Vec<i32> = (0..PieceType::NB + PARAMS)
            .map(|i| (i as i32 * 7919) % 201 - 100)
            .collect();
        let table = include_str!("../../tests/data/perft.tsv");
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        for line in table.lines() {
            let Some(Ok(mut pos)) = line.split('\t').nth(1).map(Position::from_sfen) else {
                continue;
            };
            for _ in 0..60 {
                assert_eq!(evaluate(&weights, &pos), evaluate_portable(&weights, &pos));
                checked += 1;
                let mut list = MoveList::new();
                legal_moves(&pos, &mut list);
                if list.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let m = list.as_slice()[(seed >> 33) as usize % list.len()];
                pos.do_move(m);
            }
        }
        assert!(checked >= 300, "{checked}");
    }

    #[test]
    fn the_layout_matches_the_weight_tables() {
        assert_eq!(
            PARAMS,
            16 * 9 + 6 * 5 + 2 * 15 + 2 * 15 + 5 * 21 + 9 + 11 + 12 * 9 + 2 * 15
        );
        assert_eq!(KING_DANGER_LEN, 16 * 9);
    }
}
