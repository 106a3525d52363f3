//! The incrementally updated evaluation equals a from-scratch evaluation everywhere.

mod common;

use hayanagi::ClassicEvaluator as Evaluator;
use hayanagi::{legal, Position};

#[test]
fn incremental_equals_from_scratch() {
    let mut checked = 0;
    common::random_positions(5, 1500, |pos| {
        let mut ev = Evaluator::new(pos);
        let base = ev.evaluate(pos);
        assert_eq!(base, Evaluator::evaluate_from_scratch(pos));
        for &m in legal(pos).iter() {
            ev.do_move(pos, m);
            pos.do_move(m);
            assert_eq!(
                ev.evaluate(pos),
                Evaluator::evaluate_from_scratch(pos),
                "after {m} in {}",
                pos.to_sfen()
            );
            pos.undo_move();
            ev.undo_move();
            checked += 1;
        }
        assert_eq!(ev.evaluate(pos), base);
    });
    assert!(checked > 50_000);
}

/// Long lines evaluated only now and then, as the search does (a parent the table
/// answers is never evaluated): king moves leave their half of the king-relative terms to
/// be recomputed at a later evaluation, several moves on, and null moves pass it along.
/// From the bench's starts, the one-king tsume of the perft table's kind, and a position
/// without kings.
#[test]
fn sparse_evaluation_along_long_lines_equals_from_scratch() {
    let starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1",
        "3g1k3/9/2+P1p1n2/9/4N4/9/9/9/4K4 b RGr2b2g4s2n4l16p 1",
        "4k4/9/4P4/9/9/9/9/9/9 b 2G2S 1",
        "9/9/3g5/9/4p4/9/5G3/9/9 b R 1",
    ];
    let mut rng = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut checked = 0;
    for start in starts {
        for _ in 0..40 {
            let mut pos = Position::from_sfen(start).unwrap();
            let mut ev = Evaluator::new(&pos);
            let mut plies = 0;
            for _ in 0..80 {
                let moves = legal(&pos);
                if moves.is_empty() {
                    break;
                }
                if !pos.in_check() && next(8) == 0 {
                    ev.do_null_move();
                    pos.do_null_move();
                } else {
                    let m = moves.as_slice()[next(moves.len())];
                    ev.do_move(&pos, m);
                    pos.do_move(m);
                }
                plies += 1;
                if next(4) == 0 {
                    assert_eq!(
                        ev.evaluate(&pos),
                        Evaluator::evaluate_from_scratch(&pos),
                        "{}",
                        pos.to_sfen()
                    );
                    checked += 1;
                }
            }
            // Back to the start through the same moves: every level still matches.
            for _ in 0..plies {
                if pos.last_move() == hayanagi::Move::NULL {
                    pos.undo_null_move();
                } else {
                    pos.undo_move();
                }
                ev.undo_move();
            }
            assert_eq!(ev.evaluate(&pos), Evaluator::evaluate_from_scratch(&pos));
        }
    }
    assert!(checked > 1_000, "{checked}");
}

#[test]
fn evaluation_is_colour_symmetric() {
    // The same position with colours swapped (board rotated, hands swapped, other side to
    // move) evaluates the same for the side to move.
    common::random_positions(9, 300, |pos| {
        let mirrored = Position::from_sfen(&rotate(&pos.to_sfen())).unwrap();
        assert_eq!(
            Evaluator::evaluate_from_scratch(pos),
            Evaluator::evaluate_from_scratch(&mirrored),
            "{}",
            pos.to_sfen()
        );
    });
}

/// Rotate an SFEN by 180 degrees and swap colours.
fn rotate(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split(' ').collect();
    let board: String = f[0].chars().rev().collect::<String>();
    // Reversing moved each '+' after its piece letter: put it back in front.
    let mut fixed = String::new();
    let chars: Vec<char> = board.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if i + 1 < chars.len() && chars[i + 1] == '+' {
            fixed.push('+');
            fixed.push(swap_case(chars[i]));
            i += 2;
        } else {
            fixed.push(swap_case(chars[i]));
            i += 1;
        }
    }
    let side = if f[1] == "b" { "w" } else { "b" };
    let hand: String = if f[2] == "-" {
        "-".into()
    } else {
        f[2].chars().map(swap_case).collect()
    };
    format!("{fixed} {side} {hand} 1")
}

fn swap_case(c: char) -> char {
    if c.is_ascii_uppercase() {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

#[test]
fn legal_positions_rotate_to_legal_positions() {
    let p = Position::startpos();
    assert_eq!(
        rotate(&p.to_sfen()),
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    let q = Position::from_sfen("4k4/9/9/9/9/9/9/3+R5/4K4 b Pp 1").unwrap();
    assert_eq!(rotate(&q.to_sfen()), "4k4/5+r3/9/9/9/9/9/9/4K4 w pP 1");
}

/// Mirror an SFEN left to right (file 1 <-> file 9): a legal symmetry of shogi.
fn mirror(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split(' ').collect();
    let ranks: Vec<String> = f[0]
        .split('/')
        .map(|rank| {
            // Split into squares ("+p", "p", or a run of empties), then reverse them.
            let mut cells: Vec<String> = Vec::new();
            let mut plus = false;
            for c in rank.chars() {
                if c == '+' {
                    plus = true;
                } else if c.is_ascii_digit() {
                    cells.push(c.to_string());
                } else {
                    cells.push(if plus { format!("+{c}") } else { c.to_string() });
                    plus = false;
                }
            }
            cells.reverse();
            cells.concat()
        })
        .collect();
    format!("{} {} {} 1", ranks.join("/"), f[1], f[2])
}

#[test]
fn evaluation_is_left_right_symmetric() {
    assert_eq!(
        mirror("4k4/9/9/9/9/9/9/3+R5/4K3L b Pp 1"),
        "4k4/9/9/9/9/9/9/5+R3/L3K4 b Pp 1"
    );
    common::random_positions(13, 300, |pos| {
        let mirrored = Position::from_sfen(&mirror(&pos.to_sfen())).unwrap();
        assert_eq!(
            Evaluator::evaluate_from_scratch(pos),
            Evaluator::evaluate_from_scratch(&mirrored),
            "{}",
            pos.to_sfen()
        );
    });
}
