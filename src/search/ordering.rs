//! Move ordering (DESIGN.md §5.1) and the killer/history tables behind it (§5.2, §5.3).

use crate::shogi::see::see_value;
use crate::shogi::{Color, Move, Position};

/// DESIGN.md §5.1: weights of the ordering score.
pub const TT_MOVE_BONUS: i32 = 4_000_000;
pub const CAPTURE_BASE: i32 = 120_000;
pub const CAPTURE_VALUE_WEIGHT: i32 = 12;
pub const CAPTURE_SEE_WEIGHT: i32 = 24;
/// Extra weight on a negative SEE (DESIGN.md §5.1: a losing capture is penalised again).
pub const NEGATIVE_SEE_WEIGHT: i32 = 48;
pub const PROMOTION_BONUS: i32 = 1_200;
pub const DROP_BASE: i32 = 200;
pub const KILLER_1: i32 = 90_000;
pub const KILLER_2: i32 = 80_000;

/// Slots for "from": 81 squares, then one per drop kind.
const FROM_BUCKETS: usize = 81 + 8;

/// Killer moves (two per ply) and the history table of one search thread.
pub struct Heuristics {
    pub killers: Vec<[Move; 2]>,
    history: Vec<[[i32; 81]; FROM_BUCKETS]>,
}

impl Heuristics {
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[Move::NONE; 2]; max_ply + 2],
            history: vec![[[0; 81]; FROM_BUCKETS]; 2],
        }
    }

    /// Forget everything (new game).
    pub fn clear(&mut self) {
        for k in &mut self.killers {
            *k = [Move::NONE; 2];
        }
        for h in &mut self.history {
            *h = [[0; 81]; FROM_BUCKETS];
        }
    }

    #[inline]
    fn from_bucket(m: Move) -> usize {
        if m.is_drop() {
            81 + m.dropped().index()
        } else {
            m.from().index()
        }
    }

    /// DESIGN.md §5.2: a new killer pushes the first to the second slot.
    pub fn record_killer(&mut self, ply: usize, m: Move) {
        let Some(k) = self.killers.get_mut(ply) else {
            return;
        };
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }

    /// DESIGN.md §5.3: depth^2 * 8, decayed by 1/16.
    pub fn record_history(&mut self, c: Color, m: Move, depth: i32) {
        let h = &mut self.history[c.index()][Self::from_bucket(m)][m.to().index()];
        *h += depth * depth * 8;
        *h -= *h / 16;
    }

    /// A quiet move searched before the one that cut: the same amount taken away, so that
    /// moves that keep failing sink (beyond the base design, DESIGN.md §5.4: `history_malus`).
    pub fn penalise_history(&mut self, c: Color, m: Move, depth: i32) {
        let h = &mut self.history[c.index()][Self::from_bucket(m)][m.to().index()];
        *h -= depth * depth * 8;
        *h -= *h / 16;
    }

    #[inline]
    pub fn history(&self, c: Color, m: Move) -> i32 {
        self.history[c.index()][Self::from_bucket(m)][m.to().index()]
    }

    /// Ordering score of `m` (DESIGN.md §5.1).
    pub fn score(&self, pos: &Position, m: Move, ply: usize, tt_move: Move) -> i32 {
        let mut score = 0;
        if m == tt_move {
            score += TT_MOVE_BONUS;
        }
        let captured = if m.is_drop() {
            None
        } else {
            pos.piece_on(m.to()).kind()
        };
        if let Some(cpt) = captured {
            let see = pos.see(m);
            score +=
                CAPTURE_BASE + see_value(cpt) * CAPTURE_VALUE_WEIGHT + see * CAPTURE_SEE_WEIGHT;
            if see < 0 {
                score += see * NEGATIVE_SEE_WEIGHT;
            }
        }
        if m.is_promotion() {
            score += PROMOTION_BONUS;
        }
        if m.is_drop() {
            score += DROP_BASE + see_value(m.dropped()) / 8;
        }
        if let Some(k) = self.killers.get(ply) {
            if m == k[0] {
                score += KILLER_1;
            } else if m == k[1] {
                score += KILLER_2;
            }
        }
        if captured.is_none() && !m.is_promotion() {
            score += self.history(pos.side_to_move(), m);
        }
        score
    }
}

/// Move `best` of `moves[i..]` by `scores` to position `i` (one step of a selection sort:
/// most nodes cut off after a few moves, so sorting everything would waste time).
#[inline]
pub fn pick_next(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}
