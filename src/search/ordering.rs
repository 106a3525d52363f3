//! Move ordering (DESIGN.md §5.1) and the statistics behind it: killers (§5.2), the
//! butterfly history, continuation histories, counter moves and capture history (§5.3).

use super::params::SearchParams;
use crate::shogi::see::see_value;
use crate::shogi::{Color, Move, Piece, PieceType, Position};
use crate::util::memory::ZeroedBuf;

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

/// Every history entry stays within +-this: an update moves an entry towards the bound by
/// the bonus, scaled down by how close it already is ("gravity", DESIGN.md §5.3).
pub const HISTORY_MAX: i32 = 16_384;

/// Slots for "from": 81 squares, then one per drop kind.
const FROM_BUCKETS: usize = 81 + 8;

/// A (moving piece, destination) pair: the key of continuation histories and counter
/// moves. The piece is the one standing on the destination after the move (promoted by a
/// promotion), so a drop and a board move of the same piece to the same square share it.
pub const PIECE_TO_NB: usize = Piece::NB * 81;

/// The pair of `m` played in `pos` (before the move is made).
#[inline]
pub fn piece_to(pos: &Position, m: Move) -> usize {
    let piece = if m.is_drop() {
        Piece::new(pos.side_to_move(), m.dropped())
    } else {
        let p = pos.piece_on(m.from());
        if m.is_promotion() {
            Piece::new(p.color(), p.piece_type().promoted())
        } else {
            p
        }
    };
    piece.index() * 81 + m.to().index()
}

/// Bonus of a cut-off at `depth`: grows with depth, capped so that one deep cut cannot
/// swamp the table.
#[inline]
pub fn stat_bonus(p: &SearchParams, depth: i32) -> i32 {
    (depth * depth * p.bonus_quadratic() + p.bonus_linear() * depth).min(p.bonus_max())
}

#[inline]
fn gravity(entry: &mut i16, bonus: i32) {
    let e = *entry as i32;
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry = (e + bonus - e * bonus.abs() / HISTORY_MAX) as i16;
}

#[inline]
fn gravity32(entry: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// The plies back whose move keys a continuation history (1: the opponent's last move,
/// 2: our own previous move, 4: ours two moves ago, 6: ours three moves ago, only with
/// `Tune_ContinuationPly6`).
pub const CONTINUATION_PLIES: [usize; 4] = [1, 2, 4, 6];

/// What keys a node's quiet statistics besides the move: the (piece, destination) pairs of
/// the moves `CONTINUATION_PLIES` back (`None`: before the root, a null move, or a ply left
/// out), and the slot of the board's pawns in the pawn history (`None`: not kept,
/// `Tune_PawnHistory` 0).
#[derive(Clone, Copy, Debug, Default)]
pub struct QuietContext {
    pub pairs: [Option<usize>; CONTINUATION_PLIES.len()],
    pub pawn_slot: Option<usize>,
    /// How many times the pawn history counts in [`Heuristics::quiet_stat`].
    pub pawn_weight: i32,
}

impl QuietContext {
    /// The pairs of the continuation histories.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Option<usize>> {
        self.pairs.iter()
    }
}

impl std::ops::Index<usize> for QuietContext {
    type Output = Option<usize>;
    #[inline]
    fn index(&self, i: usize) -> &Option<usize> {
        &self.pairs[i]
    }
}

/// Slots of the pawn history (`Tune_PawnHistory`), each a (piece, destination) table.
pub const PAWN_HISTORY_SLOTS: usize = 512;

/// The pawn-history slot of the board's pawns (both sides').
#[inline]
pub fn pawn_history_slot(pos: &Position) -> usize {
    let black = pos.pieces_of(Color::Black, PieceType::Pawn).0;
    let white = pos.pieces_of(Color::White, PieceType::Pawn).0;
    let h = (black as u64 ^ (black >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (white as u64 ^ (white >> 64) as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 55) as usize % PAWN_HISTORY_SLOTS
}

/// Killer moves (two per ply) and the history tables of one search thread.
pub struct Heuristics {
    pub killers: Vec<[Move; 2]>,
    history: Vec<[[i32; 81]; FROM_BUCKETS]>,
    /// `continuation[prev * PIECE_TO_NB + cur]`: how often the move `cur` cut after `prev`
    /// was played some plies before. `None` when the memory cannot be had (the search then
    /// orders without it).
    continuation: Option<ZeroedBuf<i16>>,
    /// The reply that cut after each (piece, destination) of the opponent.
    counter_moves: Vec<Move>,
    /// `pawn[slot * PIECE_TO_NB + cur]`: how often the move `cur` cut with the board's
    /// pawns hashed to `slot` (`Tune_PawnHistory`; Stockfish's pawn history). `None` when
    /// the memory cannot be had.
    pawn: Option<ZeroedBuf<i16>>,
    /// `capture[piece_to * 16 + captured kind]`.
    capture: Vec<i16>,
    /// Ordering score of the counter move (`Tune_CounterMoveBonus`).
    pub counter_move_bonus: i32,
    /// `low_ply[ply][from][to]` for the first [`LOW_PLIES`] plies of this search: the
    /// butterfly history of the moves near the root alone (`Tune_LowPlyHistory`).
    low_ply: Vec<[[i16; 81]; FROM_BUCKETS]>,
}

/// The plies from the root that keep a low-ply history (Stockfish's four).
pub const LOW_PLIES: usize = 4;

impl Heuristics {
    pub fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            killers: vec![[Move::NONE; 2]; max_ply + 2],
            history: vec![[[0; 81]; FROM_BUCKETS]; 2],
            continuation: ZeroedBuf::new(PIECE_TO_NB * PIECE_TO_NB, "continuation history").ok(),
            counter_moves: vec![Move::NONE; PIECE_TO_NB],
            pawn: ZeroedBuf::new(PAWN_HISTORY_SLOTS * PIECE_TO_NB, "pawn history").ok(),
            capture: vec![0; PIECE_TO_NB * 16],
            counter_move_bonus: SearchParams::default().counter_move_bonus(),
            low_ply: vec![[[0; 81]; FROM_BUCKETS]; LOW_PLIES],
        }
    }

    /// Forget the low-ply history (a new search: its plies count from a new root).
    pub fn clear_low_ply(&mut self) {
        for h in &mut self.low_ply {
            *h = [[0; 81]; FROM_BUCKETS];
        }
    }

    /// The low-ply history of `m` at `ply` (0 from ply [`LOW_PLIES`] on).
    #[inline]
    pub fn low_ply(&self, ply: usize, m: Move) -> i32 {
        self.low_ply
            .get(ply)
            .map_or(0, |h| h[Self::from_bucket(m)][m.to().index()] as i32)
    }

    /// Move the low-ply history of `m` at `ply` by `bonus` (nothing from ply
    /// [`LOW_PLIES`] on).
    pub fn update_low_ply(&mut self, ply: usize, m: Move, bonus: i32) {
        if let Some(h) = self.low_ply.get_mut(ply) {
            gravity(&mut h[Self::from_bucket(m)][m.to().index()], bonus);
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
        if let Some(c) = &mut self.continuation {
            c.fill(0);
        }
        if let Some(p) = &mut self.pawn {
            p.fill(0);
        }
        self.counter_moves.fill(Move::NONE);
        self.capture.fill(0);
        self.clear_low_ply();
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

    /// The butterfly (colour, from, to) history of `m`.
    #[inline]
    pub fn history(&self, c: Color, m: Move) -> i32 {
        self.history[c.index()][Self::from_bucket(m)][m.to().index()]
    }

    /// The continuation history of the pair `cur` after `prev` (0 without one).
    #[inline]
    pub fn continuation(&self, prev: Option<usize>, cur: usize) -> i32 {
        match (&self.continuation, prev) {
            (Some(c), Some(p)) => c[p * PIECE_TO_NB + cur] as i32,
            _ => 0,
        }
    }

    /// The counter move to the opponent's last move `prev`.
    #[inline]
    pub fn counter_move(&self, prev: Option<usize>) -> Move {
        prev.map_or(Move::NONE, |p| self.counter_moves[p])
    }

    /// The capture history of `m` (a capture of a `captured` piece).
    #[inline]
    pub fn capture_history(&self, pt: usize, captured: usize) -> i32 {
        self.capture[pt * 16 + captured] as i32
    }

    /// The quiet statistics of a move: butterfly plus continuation histories.
    #[inline]
    pub fn quiet_stat(&self, c: Color, m: Move, cur: usize, prevs: &QuietContext) -> i32 {
        self.history(c, m)
            + prevs
                .iter()
                .map(|&p| self.continuation(p, cur))
                .sum::<i32>()
            + self.pawn_stat(cur, prevs)
    }

    /// The pawn history's part of [`Heuristics::quiet_stat`].
    #[inline]
    fn pawn_stat(&self, cur: usize, prevs: &QuietContext) -> i32 {
        match (prevs.pawn_slot, &self.pawn) {
            (Some(slot), Some(table)) => prevs.pawn_weight * table[slot * PIECE_TO_NB + cur] as i32,
            _ => 0,
        }
    }

    /// Move the quiet statistics of `m` (pair `cur`) by `bonus` (negative: a malus).
    pub fn update_quiet(
        &mut self,
        c: Color,
        m: Move,
        cur: usize,
        prevs: &QuietContext,
        bonus: i32,
    ) {
        gravity32(
            &mut self.history[c.index()][Self::from_bucket(m)][m.to().index()],
            bonus,
        );
        if let Some(table) = &mut self.continuation {
            for p in prevs.iter().flatten() {
                gravity(&mut table[p * PIECE_TO_NB + cur], bonus);
            }
        }
        if let (Some(slot), Some(table)) = (prevs.pawn_slot, &mut self.pawn) {
            gravity(&mut table[slot * PIECE_TO_NB + cur], bonus);
        }
    }

    /// Move the continuation histories of the pair `cur` alone by `bonus`.
    pub fn update_continuation(&mut self, cur: usize, prevs: &QuietContext, bonus: i32) {
        if let Some(table) = &mut self.continuation {
            for p in prevs.iter().flatten() {
                gravity(&mut table[p * PIECE_TO_NB + cur], bonus);
            }
        }
    }

    /// Move the butterfly history of `m` (played by `c`) alone by `bonus`.
    pub fn update_butterfly(&mut self, c: Color, m: Move, bonus: i32) {
        gravity32(
            &mut self.history[c.index()][Self::from_bucket(m)][m.to().index()],
            bonus,
        );
    }

    /// `m` refuted the opponent's move `prev`.
    pub fn record_counter_move(&mut self, prev: Option<usize>, m: Move) {
        if let Some(p) = prev {
            self.counter_moves[p] = m;
        }
    }

    /// Move the capture history of pair `cur` taking a `captured` piece by `bonus`.
    pub fn update_capture(&mut self, cur: usize, captured: usize, bonus: i32) {
        gravity(&mut self.capture[cur * 16 + captured], bonus);
    }

    /// Ordering score of `m` (DESIGN.md §5.1). `prevs`: the pairs of the moves 1, 2 and 4
    /// plies back; `known_see`: the capture's static exchange value when the caller has it
    /// already (computed here otherwise).
    pub fn score(
        &self,
        pos: &Position,
        m: Move,
        ply: usize,
        tt_move: Move,
        prevs: &QuietContext,
        known_see: Option<i32>,
    ) -> i32 {
        let mut score = 0;
        if m == tt_move {
            score += TT_MOVE_BONUS;
        }
        let captured = if m.is_drop() {
            None
        } else {
            pos.piece_on(m.to()).kind()
        };
        let cur = piece_to(pos, m);
        if let Some(cpt) = captured {
            debug_assert!(
                known_see.is_none_or(|s| s == pos.see(m)),
                "{m}: {known_see:?}"
            );
            let see = known_see.unwrap_or_else(|| pos.see(m));
            score +=
                CAPTURE_BASE + see_value(cpt) * CAPTURE_VALUE_WEIGHT + see * CAPTURE_SEE_WEIGHT;
            if see < 0 {
                score += see * NEGATIVE_SEE_WEIGHT;
            }
            score += self.capture_history(cur, cpt.index()) / 4;
        }
        if m.is_promotion() {
            score += PROMOTION_BONUS;
        }
        if m.is_drop() {
            score += DROP_BASE + see_value(m.dropped()) / 8;
        }
        if captured.is_none() && !m.is_promotion() {
            if let Some(k) = self.killers.get(ply) {
                if m == k[0] {
                    score += KILLER_1;
                } else if m == k[1] {
                    score += KILLER_2;
                } else if m == self.counter_move(prevs[0]) {
                    score += self.counter_move_bonus;
                }
            }
            score += self.quiet_stat(pos.side_to_move(), m, cur, prevs);
        }
        score
    }
}

/// Move `best` of `moves[i..]` by `scores` to position `i` (one step of a selection sort:
/// most nodes cut off after a few moves, so sorting everything would waste time). The
/// first of equally scored moves is taken, so the order is that of the plain scan.
#[inline]
pub fn pick_next(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let tail = &scores[i..moves.len()];
    let best = i + best_index(tail);
    moves.swap(i, best);
    scores.swap(i, best);
}

/// The index of the first highest of `scores` (0 when it is empty).
#[inline]
fn best_index(scores: &[i32]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `best_index_avx2` only needs AVX2, which the CPU was just found to have.
        return unsafe { best_index_avx2(scores) };
    }
    best_index_portable(scores)
}

/// [`best_index`] compiled for AVX2: eight scores a comparison instead of four, with a
/// true signed maximum (the baseline x86-64 target has none and emulates it).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn best_index_avx2(scores: &[i32]) -> usize {
    best_index_portable(scores)
}

#[inline(always)]
fn best_index_portable(scores: &[i32]) -> usize {
    first_index_of(scores, max_score(scores))
}

/// The highest of `scores`. Two passes (the maximum, then where it first stands) cost far
/// fewer instructions than one scan tracking both: a maximum without an index compiles to
/// SIMD, and the quiet stage scans some seventy scores a pick (the bench's 56 M scanned
/// scores took 516 M instructions the old way).
#[inline(always)]
fn max_score(scores: &[i32]) -> i32 {
    scores.iter().copied().fold(i32::MIN, i32::max)
}

/// The index of the first of `scores` equal to `top` (0 when none is).
#[inline(always)]
fn first_index_of(scores: &[i32], top: i32) -> usize {
    // Eight at a time without an early exit inside a block, so each block is one SIMD
    // comparison; the block that holds it is then scanned.
    const BLOCK: usize = 8;
    let mut start = 0;
    for block in scores.chunks_exact(BLOCK) {
        if block.iter().fold(false, |seen, &s| seen | (s == top)) {
            break;
        }
        start += BLOCK;
    }
    start + scores[start..].iter().position(|&s| s == top).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_within_the_bound() {
        let mut e = 0i16;
        for _ in 0..1000 {
            gravity(&mut e, 1_500);
        }
        assert!(e as i32 <= HISTORY_MAX && e > 15_000, "{e}");
        for _ in 0..1000 {
            gravity(&mut e, -1_500);
        }
        assert!(e as i32 >= -HISTORY_MAX && e < -15_000, "{e}");
    }

    #[test]
    fn the_low_ply_history_keeps_the_first_plies_alone_until_cleared() {
        let pos: Position = "4k4/9/9/9/9/9/9/4G4/4K4 b G 1".parse().unwrap();
        let drop = pos.parse_usi_move("G*5e").unwrap();
        let step = pos.parse_usi_move("5h5g").unwrap();
        let mut h = Heuristics::new(8);
        h.update_low_ply(1, drop, 1_000);
        h.update_low_ply(LOW_PLIES, drop, 1_000);
        assert!(h.low_ply(1, drop) > 0);
        assert_eq!(h.low_ply(0, drop), 0);
        assert_eq!(h.low_ply(1, step), 0);
        assert_eq!(h.low_ply(LOW_PLIES, drop), 0);
        h.clear_low_ply();
        assert_eq!(h.low_ply(1, drop), 0);
    }

    #[test]
    fn a_drop_and_a_board_move_to_one_square_share_their_pair() {
        let pos: Position = "4k4/9/9/9/9/9/9/4G4/4K4 b G 1".parse().unwrap();
        let drop = pos.parse_usi_move("G*5e").unwrap();
        let step = pos.parse_usi_move("5h5g").unwrap();
        let drop_to_5g = pos.parse_usi_move("G*5g").unwrap();
        assert_ne!(piece_to(&pos, drop), piece_to(&pos, step));
        assert_eq!(piece_to(&pos, drop_to_5g), piece_to(&pos, step));
        assert!(piece_to(&pos, drop) < PIECE_TO_NB);
    }

    /// The two-pass pick (and its AVX2 copy, where the CPU has it) takes the first of the
    /// highest scores, as the plain scan does, on lists of every length up to 300 with
    /// many ties and scores at the ends of the range.
    #[test]
    fn best_index_is_the_first_highest_score() {
        let mut rng = crate::util::rng::Rng::new(11);
        for len in 1..300 {
            for spread in [1u64, 3, 1000] {
                let scores: Vec<i32> = (0..len)
                    .map(|_| match rng.next_u64() % 16 {
                        0 => i32::MIN,
                        1 => i32::MAX,
                        _ => (rng.next_u64() % spread) as i32 - 500,
                    })
                    .collect();
                let mut plain = 0;
                for (j, &s) in scores.iter().enumerate() {
                    if s > scores[plain] {
                        plain = j;
                    }
                }
                assert_eq!(best_index(&scores), plain, "{scores:?}");
                assert_eq!(best_index_portable(&scores), plain, "{scores:?}");
            }
        }
    }
}
