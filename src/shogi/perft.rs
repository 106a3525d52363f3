//! Perft: count the leaves of the legal move tree, the standard proof of a move generator.
//!
//! The last ply is bulk-counted (the length of the legal move list), as every published
//! perft speed figure does. [`perft_stats`] classifies leaves instead, for the capture /
//! promotion / check / mate breakdowns of the published tables.

use super::movegen::{has_legal_move, legal, legal_moves, MoveList};
use super::moves::Move;
use super::position::Position;

/// Number of leaf nodes at `depth` (bulk-counted last ply).
///
/// ```
/// let mut pos = hayanagi::Position::startpos();
/// assert_eq!(hayanagi::perft(&mut pos, 3), 25_470);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    // One move list per ply, allocated once: a fresh list per node would clear 2 KiB each time.
    let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &mut Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().expect("a list per ply");
    list.clear();
    legal_moves(pos, list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.iter() {
        pos.do_move(m);
        n += perft_with(pos, depth - 1, rest);
        pos.undo_move();
    }
    n
}

/// Per-root-move counts (`perft --divide`), in the generator's order.
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let list = legal(pos);
    list.iter()
        .map(|&m| {
            pos.do_move(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.undo_move();
            (m, n)
        })
        .collect()
}

/// Leaf counts with their breakdown.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct PerftStats {
    /// Leaf positions.
    pub nodes: u64,
    /// Leaves reached by a capture.
    pub captures: u64,
    /// Leaves reached by a promotion.
    pub promotions: u64,
    /// Leaves in which the side to move is in check.
    pub checks: u64,
    /// Leaves in which the side to move is checkmated.
    pub mates: u64,
}

/// Perft with every leaf move classified (slower than [`perft`]).
pub fn perft_stats(pos: &mut Position, depth: u32) -> PerftStats {
    let mut s = PerftStats::default();
    if depth == 0 {
        s.nodes = 1;
        return s;
    }
    let list = legal(pos);
    for &m in list.iter() {
        if depth == 1 {
            s.nodes += 1;
            s.captures += pos.is_capture(m) as u64;
            s.promotions += m.is_promotion() as u64;
            if pos.gives_check(m) {
                s.checks += 1;
                pos.do_move(m);
                s.mates += !has_legal_move(pos) as u64;
                pos.undo_move();
            }
        } else {
            pos.do_move(m);
            let sub = perft_stats(pos, depth - 1);
            pos.undo_move();
            s.nodes += sub.nodes;
            s.captures += sub.captures;
            s.promotions += sub.promotions;
            s.checks += sub.checks;
            s.mates += sub.mates;
        }
    }
    s
}
