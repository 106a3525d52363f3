//! Generator and validator agree on random-playout positions; do/undo and keys are exact;
//! the staged generators partition the moves.

mod common;

use common::random_positions;
use hayanagi::{generate, legal, GenType, Move, MoveList, PieceType, Position, Square};
use std::collections::HashSet;

const POSITIONS: usize = 4000;

/// Every bit pattern a move can take that names squares on the board: every from/to with
/// and without promotion, and every drop of every hand kind.
fn all_candidate_moves() -> Vec<Move> {
    let mut v = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                v.push(Move::normal(from, to, false));
                v.push(Move::normal(from, to, true));
            }
        }
    }
    for pt in PieceType::HAND {
        for to in Square::all() {
            v.push(Move::drop(pt, to));
        }
    }
    v
}

#[test]
fn is_legal_agrees_with_the_generator() {
    let candidates = all_candidate_moves();
    let mut checked = 0;
    random_positions(7, POSITIONS, |pos| {
        let gen: HashSet<Move> = legal(pos).iter().copied().collect();
        let mut accepted = 0;
        for &m in &candidates {
            let ok = pos.is_legal(m);
            assert_eq!(
                ok,
                gen.contains(&m),
                "{} move {m}: validator {ok}",
                pos.to_sfen()
            );
            accepted += ok as usize;
        }
        assert_eq!(accepted, gen.len());
        checked += 1;
    });
    assert_eq!(checked, POSITIONS);
}

#[test]
fn garbage_moves_are_rejected() {
    let pos = Position::startpos();
    for raw in [
        0u16,
        0xffff,
        Move::NULL.raw(),
        0x7f,
        (120 << 7) | 3,
        (87 << 7) | 90,
    ] {
        assert!(!pos.is_pseudo_legal(Move::from_raw(raw)), "{raw:#x}");
    }
}

#[test]
fn do_undo_restores_everything_and_keys_are_incremental() {
    random_positions(11, POSITIONS, |pos| {
        assert_eq!(pos.key(), pos.compute_key(), "{}", pos.to_sfen());
        let sfen = pos.to_sfen();
        let key = pos.key();
        let checkers = pos.checkers();
        let blockers = [
            pos.blockers_for_king(hayanagi::Color::Black),
            pos.blockers_for_king(hayanagi::Color::White),
        ];
        for &m in legal(pos).iter() {
            let gives_check = pos.gives_check(m);
            pos.do_move(m);
            assert_eq!(pos.key(), pos.compute_key(), "after {m} in {sfen}");
            assert_eq!(pos.in_check(), gives_check, "gives_check of {m} in {sfen}");
            // A fresh parse of the new position agrees with the incremental state.
            let fresh = Position::from_sfen(&pos.to_sfen()).unwrap();
            assert_eq!(fresh.key(), pos.key());
            assert_eq!(fresh.board_key(), pos.board_key(), "after {m} in {sfen}");
            assert_eq!(fresh.checkers(), pos.checkers());
            pos.undo_move();
            assert_eq!(pos.to_sfen(), sfen);
            assert_eq!(pos.key(), key);
            assert_eq!(pos.checkers(), checkers);
            assert_eq!(
                [
                    pos.blockers_for_king(hayanagi::Color::Black),
                    pos.blockers_for_king(hayanagi::Color::White)
                ],
                blockers
            );
        }
    });
}

fn set_of(pos: &Position, gen: GenType) -> Vec<Move> {
    let mut l = MoveList::new();
    generate(pos, gen, &mut l);
    l.as_slice().to_vec()
}

#[test]
fn staged_generators_partition_the_moves() {
    random_positions(13, POSITIONS, |pos| {
        let sfen = pos.to_sfen();
        if pos.in_check() {
            let ev = set_of(pos, GenType::Evasions);
            let uniq: HashSet<_> = ev.iter().collect();
            assert_eq!(uniq.len(), ev.len(), "duplicate evasions in {sfen}");
            return;
        }
        let caps = set_of(pos, GenType::CapturesPromotions);
        let quiets = set_of(pos, GenType::Quiets);
        let all = set_of(pos, GenType::NonEvasions);
        let all_set: HashSet<_> = all.iter().copied().collect();
        assert_eq!(all_set.len(), all.len(), "duplicates in {sfen}");
        let caps_set: HashSet<_> = caps.iter().copied().collect();
        let quiet_set: HashSet<_> = quiets.iter().copied().collect();
        assert_eq!(caps_set.len(), caps.len());
        assert_eq!(quiet_set.len(), quiets.len());
        assert!(caps_set.is_disjoint(&quiet_set), "{sfen}");
        let union: HashSet<_> = caps_set.union(&quiet_set).copied().collect();
        assert_eq!(union, all_set, "{sfen}");
        for m in &caps {
            assert!(
                pos.is_capture(*m) || m.is_promotion(),
                "{m} in captures stage of {sfen}"
            );
        }
        for m in &quiets {
            assert!(
                !pos.is_capture(*m) && !m.is_promotion(),
                "{m} in quiet stage of {sfen}"
            );
        }
        let checks: HashSet<_> = set_of(pos, GenType::Checks).into_iter().collect();
        let expected: HashSet<_> = all
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        assert_eq!(checks, expected, "{sfen}");
        for m in &all {
            assert!(
                pos.is_pseudo_legal(*m),
                "{m} generated but not pseudo-legal in {sfen}"
            );
        }
    });
}

#[test]
fn transpositions_have_equal_keys() {
    let pairs = [
        (
            "startpos moves 7g7f 3c3d 2g2f",
            "startpos moves 2g2f 3c3d 7g7f",
        ),
        // A bishop exchange and a drop, move orders swapped: same board and hands.
        (
            "startpos moves 7g7f 3c3d 8h2b+ 3a2b 2g2f 4a3b",
            "startpos moves 2g2f 3c3d 7g7f 4a3b 8h2b+ 3a2b",
        ),
    ];
    for (x, y) in pairs {
        let a = Position::from_usi_position(x).unwrap();
        let b = Position::from_usi_position(y).unwrap();
        assert_eq!(a.to_sfen(), b.to_sfen());
        assert_eq!(a.key(), b.key(), "{x} / {y}");
    }
    // Different hands, same board otherwise: keys differ.
    let x = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
    let y = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1").unwrap();
    let z = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
    assert_ne!(x.key(), y.key());
    assert_ne!(x.key(), z.key());
    // A capture and a drop back: the board returns, the hands and side do not.
    let mut p = Position::from_sfen("4k4/9/9/4p4/4R4/9/9/9/4K4 b - 1").unwrap();
    let k0 = p.key();
    p.play_usi_moves("5e5d 5a4a 5d9d 4a5a P*5d").unwrap();
    assert_eq!(p.key(), Position::from_sfen(&p.to_sfen()).unwrap().key());
    assert_ne!(k0, p.key());
}
