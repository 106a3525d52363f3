//! The staged move picker of the main search (DESIGN.md §5.4): moves come out one at a
//! time, in stages, and each stage is generated and scored only when the ones before it
//! did not cut the node. Most nodes cut off after the table move or a good capture, so the
//! quiet moves (the bulk of a shogi position: every drop) are then never generated.

use super::ordering::{
    pick_next, piece_to, Heuristics, QuietContext, LOW_PLIES, PROMOTION_BONUS, TT_MOVE_BONUS,
};
use crate::shogi::attacks::tables;
use crate::shogi::movegen::MAX_MOVES;
use crate::shogi::see::see_value;
use crate::shogi::{
    generate_legal, Bitboard, GenType, Move, MoveList, PieceType, Position, Square,
};

/// Weight of the captured piece's value in a capture's score (most valuable victim first;
/// the capture history, bounded by `HISTORY_MAX`, then ranks captures of one kind).
const VICTIM_WEIGHT: i32 = 16;

/// Where the picker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The table move, when it is legal.
    TableMove,
    /// Generate and score the captures and promotions.
    GenerateCaptures,
    /// Captures and promotions that do not lose material by SEE, best first; the others are
    /// kept aside for `BadCaptures`.
    GoodCaptures,
    /// The killers and the counter move, when they are legal quiet moves here.
    Refutations,
    /// Generate and score the quiet moves.
    GenerateQuiets,
    /// The quiet moves, by their history, best first.
    Quiets,
    /// The captures and promotions that lose material.
    BadCaptures,
    /// The quiet moves whose history is below `-bad_quiet_threshold`, best first
    /// (`Tune_BadQuietThreshold`; only when it is on).
    BadQuiets,
    /// In check: generate and score the evasions.
    GenerateEvasions,
    /// The evasions, best first.
    Evasions,
    /// Nothing is left.
    Done,
}

/// A move source for one node. It lives in the node's frame and is restarted for every
/// visit with [`MovePicker::start`].
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    stage: Stage,
    /// The next index of `moves` to look at in the current stage.
    cur: usize,
    /// `moves[..bad_end]` are the captures set aside for `BadCaptures`.
    bad_end: usize,
    tt_move: Move,
    /// Killer 1, killer 2, counter move (`NONE` where there is none).
    refutations: [Move; 3],
    /// Added to the score of a quiet move that checks directly and does not lose the
    /// moved piece by SEE (`Tune_QuietCheckBonus`; 0: checks are ranked by history alone).
    quiet_check_bonus: i32,
    /// Per class of the moved piece, added for escaping a cheaper attacker and taken off
    /// for moving into one (`Tune_ThreatEscapeBonus`; 0: threats are not looked at).
    threat_escape_bonus: i32,
    /// The node's ply and the low-ply history's weight (`Tune_LowPlyHistory`; 0: off).
    ply: usize,
    low_ply_weight: i32,
    /// Quiet moves scored below minus this wait until after the bad captures
    /// (`Tune_BadQuietThreshold`; 0: off).
    bad_quiet_threshold: i32,
    /// Where the bad quiet moves start in `moves` (`None`: none were set aside).
    bad_quiets: Option<usize>,
    /// 1: pawn, bishop and rook moves that could promote and do not are left out
    /// (`Tune_SkipUnpromoted`; the quiescence search always leaves them out); 2: lance
    /// moves to their second rank that do not promote as well; 0: none.
    skip_unpromoted: i32,
    /// The search prunes every quiet move that gives no check from here on
    /// ([`MovePicker::skip_quiets`]): the quiet stage passes over them and counts them.
    skip_quiets: bool,
    /// Quiet moves passed over since [`MovePicker::take_skipped`] last asked.
    skipped: usize,
    /// `moves[cur..]` of the quiet stage is in pick order ([`MovePicker::sort_quiets`]),
    /// so a pick is the next entry rather than a scan.
    quiets_sorted: bool,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker::new()
    }
}

impl MovePicker {
    /// A picker with nothing to yield.
    pub fn new() -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            stage: Stage::Done,
            cur: 0,
            bad_end: 0,
            tt_move: Move::NONE,
            refutations: [Move::NONE; 3],
            quiet_check_bonus: 0,
            threat_escape_bonus: 0,
            ply: 0,
            low_ply_weight: 0,
            bad_quiet_threshold: 0,
            bad_quiets: None,
            skip_unpromoted: 0,
            skip_quiets: false,
            skipped: 0,
            quiets_sorted: false,
        }
    }

    /// The bonus of quiet direct checks in the quiet stage of the following visits.
    pub fn set_quiet_check_bonus(&mut self, bonus: i32) {
        self.quiet_check_bonus = bonus;
    }

    /// The threat bonus per piece class in the quiet stage of the following visits.
    pub fn set_threat_escape_bonus(&mut self, bonus: i32) {
        self.threat_escape_bonus = bonus;
    }

    /// The node's ply from the root and the weight of the low-ply history in the quiet
    /// stage of the following visits.
    pub fn set_low_ply(&mut self, ply: usize, weight: i32) {
        self.ply = ply;
        self.low_ply_weight = weight;
    }

    /// The history below which (negated) a quiet move waits until after the bad captures,
    /// in the following visits (0: off).
    pub fn set_bad_quiet_threshold(&mut self, threshold: i32) {
        self.bad_quiet_threshold = threshold;
    }

    /// Which non-promotions the following visits leave out (see `skip_unpromoted`).
    pub fn set_skip_unpromoted(&mut self, level: i32) {
        self.skip_unpromoted = level;
    }

    /// Start on a node of `pos`. `tt_move` must be legal here or `NONE`; the refutations
    /// (killers, counter move) may be anything: the ones that are not legal quiet moves
    /// here are skipped.
    pub fn start(&mut self, pos: &Position, tt_move: Move, refutations: [Move; 3]) {
        self.moves.clear();
        self.cur = 0;
        self.bad_end = 0;
        self.bad_quiets = None;
        self.skip_quiets = false;
        self.skipped = 0;
        self.quiets_sorted = false;
        self.tt_move = tt_move;
        self.refutations = refutations;
        let in_check = pos.in_check();
        self.stage = match (tt_move.is_some(), in_check) {
            (true, _) => Stage::TableMove,
            (false, true) => Stage::GenerateEvasions,
            (false, false) => Stage::GenerateCaptures,
        };
    }

    /// The next move, or `None` when every legal move has been yielded (each exactly once).
    /// `prevs` (the pairs of the moves 1, 2 and 4 plies back) key the continuation
    /// histories in `heur`.
    pub fn next(
        &mut self,
        pos: &Position,
        heur: &Heuristics,
        prevs: &QuietContext,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TableMove => {
                    self.stage = if pos.in_check() {
                        Stage::GenerateEvasions
                    } else {
                        Stage::GenerateCaptures
                    };
                    return Some(self.tt_move);
                }
                Stage::GenerateCaptures => {
                    generate_legal(pos, GenType::CapturesPromotions, &mut self.moves);
                    if self.skip_unpromoted > 0 {
                        let level = self.skip_unpromoted;
                        self.moves.retain(|m| !skipped(level, pos, m));
                    }
                    for i in 0..self.moves.len() {
                        let m = self.moves.as_slice()[i];
                        self.scores[i] = capture_score(pos, heur, m);
                    }
                    self.cur = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    while let Some(m) = self.pick_best() {
                        if m == self.tt_move {
                            continue;
                        }
                        if !pos.see_ge(m, 0) {
                            // Set aside: `cur` has passed `bad_end`, so the slot is free.
                            self.moves.as_mut_slice()[self.bad_end] = m;
                            self.bad_end += 1;
                            continue;
                        }
                        return Some(m);
                    }
                    self.cur = 0;
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    while self.cur < self.refutations.len() {
                        let m = self.refutations[self.cur];
                        self.cur += 1;
                        if m.is_some()
                            && m != self.tt_move
                            && !self.refutations[..self.cur - 1].contains(&m)
                            && !m.is_promotion()
                            && pos.is_legal(m)
                            && !pos.is_capture(m)
                            && !skipped(self.skip_unpromoted, pos, m)
                        {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::GenerateQuiets => {
                    // The quiet moves go after the captures (whose slots past `bad_end`
                    // are spent), so the bad captures stay where they are.
                    let start = self.moves.len();
                    generate_legal(pos, GenType::Quiets, &mut self.moves);
                    if self.skip_unpromoted > 0 {
                        let level = self.skip_unpromoted;
                        self.moves.retain_from(start, |m| !skipped(level, pos, m));
                    }
                    let us = pos.side_to_move();
                    for i in start..self.moves.len() {
                        let m = self.moves.as_slice()[i];
                        self.scores[i] = heur.quiet_stat(us, m, piece_to(pos, m), prevs);
                    }
                    // The parameters to test add to the scores in a second pass, taken
                    // only when one is on (a test inside the first pass cost 1.8% of the
                    // bench's instructions with both off).
                    let low_ply = (self.low_ply_weight > 0 && self.ply < LOW_PLIES)
                        .then_some(self.low_ply_weight);
                    if self.quiet_check_bonus > 0
                        || self.threat_escape_bonus > 0
                        || low_ply.is_some()
                    {
                        self.add_quiet_terms(pos, heur, start, low_ply);
                    }
                    self.cur = start;
                    self.stage = Stage::Quiets;
                    if self.skip_quiets {
                        self.sort_quiets();
                    }
                }
                Stage::Quiets => {
                    while let Some(m) = self.pick_quiet() {
                        if self.bad_quiet_threshold > 0
                            && self.scores[self.cur - 1] < -self.bad_quiet_threshold
                        {
                            // The rest score no better: they wait (the one picked too).
                            self.bad_quiets = Some(self.cur - 1);
                            break;
                        }
                        if m == self.tt_move || self.refutations.contains(&m) {
                            continue;
                        }
                        if self.skip_quiets && !pos.gives_check(m) {
                            self.skipped += 1;
                            continue;
                        }
                        return Some(m);
                    }
                    self.cur = 0;
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.cur < self.bad_end {
                        self.cur += 1;
                        return Some(self.moves.as_slice()[self.cur - 1]);
                    }
                    if let Some(start) = self.bad_quiets {
                        self.cur = start;
                        self.stage = Stage::BadQuiets;
                    } else {
                        self.stage = Stage::Done;
                    }
                }
                Stage::BadQuiets => {
                    while let Some(m) = self.pick_best() {
                        if m != self.tt_move && !self.refutations.contains(&m) {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    generate_legal(pos, GenType::Evasions, &mut self.moves);
                    if self.skip_unpromoted > 0 {
                        let level = self.skip_unpromoted;
                        self.moves.retain(|m| !skipped(level, pos, m));
                    }
                    let us = pos.side_to_move();
                    for i in 0..self.moves.len() {
                        let m = self.moves.as_slice()[i];
                        self.scores[i] = if pos.is_capture(m) {
                            // Every capture of the checker before any other evasion.
                            TT_MOVE_BONUS / 2 + capture_score(pos, heur, m)
                        } else {
                            heur.quiet_stat(us, m, piece_to(pos, m), prevs)
                        };
                    }
                    self.cur = 0;
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    while let Some(m) = self.pick_best() {
                        if m != self.tt_move {
                            return Some(m);
                        }
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// The quiet-stage terms of the parameters to test (quiet checks, threats, the
    /// low-ply history weighted `low_ply`), added to the scores of `moves[start..]`. Kept
    /// out of line: inlined, it made every call of `next` dearer.
    #[inline(never)]
    #[cold]
    fn add_quiet_terms(
        &mut self,
        pos: &Position,
        heur: &Heuristics,
        start: usize,
        low_ply: Option<i32>,
    ) {
        let enemy_king = pos
            .king_square(pos.side_to_move().flip())
            .filter(|_| self.quiet_check_bonus > 0);
        let threats = (self.threat_escape_bonus > 0).then(|| Threats::of(pos));
        for i in start..self.moves.len() {
            let m = self.moves.as_slice()[i];
            if let Some(ksq) = enemy_king {
                if checks_directly(pos, m, ksq) && pos.see_ge(m, 0) {
                    self.scores[i] += self.quiet_check_bonus;
                }
            }
            if let Some(t) = &threats {
                self.scores[i] += self.threat_escape_bonus * t.shift(pos, m);
            }
            if let Some(weight) = low_ply {
                self.scores[i] += weight * heur.low_ply(self.ply, m) / (1 + self.ply as i32);
            }
        }
    }

    /// From now on the quiet stage yields only the quiet moves that give check: the
    /// search has begun to prune quiet moves by count or futility at this node, and those
    /// conditions only tighten as its moves are tried (the move count grows, alpha and the
    /// best score only rise), so it would prune every other one. The moves passed over
    /// still count in the node's move count: [`MovePicker::take_skipped`]. The checks come
    /// in the order they would have come in. Not with the bad-quiet split
    /// (`Tune_BadQuietThreshold`, off), whose stages this does not replay; there the search
    /// prunes the moves one by one.
    pub fn skip_quiets(&mut self) {
        if self.skip_quiets || self.bad_quiet_threshold > 0 {
            return;
        }
        self.skip_quiets = true;
        if self.stage == Stage::Quiets {
            self.sort_quiets();
        }
    }

    /// How many moves the picker passed over since the last call (each would have been
    /// yielded and pruned: the caller counts them as tried).
    pub fn take_skipped(&mut self) -> usize {
        std::mem::take(&mut self.skipped)
    }

    /// Put what is left of the quiet stage in the order the selection sort would pick it,
    /// so that skipping through it costs one look per move instead of a scan per move
    /// (most of a node's quiet moves are pruned once pruning begins). Long lists are left
    /// to the scans.
    ///
    /// The selection sort takes the first of the highest scores and swaps it with the
    /// front, so equal scores come out in an order its earlier swaps decide. Replayed
    /// score by score: the moves of one score come out in the order of their places when
    /// the first of them is taken (each swap before then moves a lower-scored move into the
    /// place of the one taken, behind the rest of the group), and the swaps are replayed
    /// on an index of places, a look-up each.
    fn sort_quiets(&mut self) {
        const SORTED_MAX: usize = 256;
        let n = self.moves.len();
        let len = n - self.cur;
        if len > SORTED_MAX {
            return;
        }
        let tail_scores = &self.scores[self.cur..n];
        // Moves are named by their place in the tail now; `at[place]` is the move there and
        // `place_of[move]` its place, as the swaps leave them.
        let mut by_score = [0u8; SORTED_MAX];
        let mut at = [0u8; SORTED_MAX];
        let mut place_of = [0u8; SORTED_MAX];
        for k in 0..len {
            by_score[k] = k as u8;
            at[k] = k as u8;
            place_of[k] = k as u8;
        }
        by_score[..len].sort_unstable_by_key(|&k| std::cmp::Reverse(tail_scores[usize::from(k)]));
        let mut front = 0;
        while front < len {
            let score = tail_scores[usize::from(by_score[front])];
            let group_end = front
                + by_score[front..len]
                    .iter()
                    .take_while(|&&k| tail_scores[usize::from(k)] == score)
                    .count();
            by_score[front..group_end].sort_unstable_by_key(|&k| place_of[usize::from(k)]);
            for &taken in &by_score[front..group_end] {
                let from = usize::from(place_of[usize::from(taken)]);
                let displaced = at[front];
                at[from] = displaced;
                place_of[usize::from(displaced)] = from as u8;
                at[front] = taken;
                place_of[usize::from(taken)] = front as u8;
                front += 1;
            }
        }
        let mut moves = [Move::NONE; SORTED_MAX];
        let mut scores = [0i32; SORTED_MAX];
        let tail = &self.moves.as_slice()[self.cur..n];
        for (place, &k) in at[..len].iter().enumerate() {
            moves[place] = tail[usize::from(k)];
            scores[place] = tail_scores[usize::from(k)];
        }
        self.moves.as_mut_slice()[self.cur..n].copy_from_slice(&moves[..len]);
        self.scores[self.cur..n].copy_from_slice(&scores[..len]);
        self.quiets_sorted = true;
    }

    /// The next quiet move in pick order.
    #[inline]
    fn pick_quiet(&mut self) -> Option<Move> {
        if !self.quiets_sorted {
            return self.pick_best();
        }
        let m = *self.moves.as_slice().get(self.cur)?;
        self.cur += 1;
        Some(m)
    }

    /// Move the best-scored of `moves[cur..]` to `cur` and yield it (`pick_next`'s
    /// selection-sort step).
    #[inline]
    fn pick_best(&mut self) -> Option<Move> {
        let n = self.moves.len();
        if self.cur >= n {
            return None;
        }
        let moves = self.moves.as_mut_slice();
        pick_next(moves, &mut self.scores[..n], self.cur);
        self.cur += 1;
        Some(moves[self.cur - 1])
    }

    /// The moves generated so far at this node, for the search's own lists (the quiescence
    /// search fills and orders them itself).
    pub fn list_mut(&mut self) -> (&mut MoveList, &mut [i32; MAX_MOVES]) {
        (&mut self.moves, &mut self.scores)
    }
}

/// What the side not to move attacks with pieces cheaper than each class of ours
/// ([`piece_class`]): `cheaper[c]` is attacked by a piece of a class below `c`.
struct Threats {
    cheaper: [Bitboard; 4],
}

impl Threats {
    fn of(pos: &Position) -> Threats {
        let t = tables();
        let them = pos.side_to_move().flip();
        let occ = pos.occupied();
        let by_pawn = pos.pieces_of(them, PieceType::Pawn).shift_forward(them);
        let mut by_minor = by_pawn;
        let minors = pos.pieces(them)
            & (pos.pieces_of_type(PieceType::Lance)
                | pos.pieces_of_type(PieceType::Knight)
                | pos.pieces_of_type(PieceType::Silver)
                | pos.golds());
        for sq in minors {
            by_minor |= t.attacks(pos.piece_on(sq).piece_type(), them, sq, occ);
        }
        let mut by_major = by_minor;
        let majors = pos.pieces(them)
            & (pos.pieces_of_type(PieceType::Bishop) | pos.pieces_of_type(PieceType::Rook));
        for sq in majors {
            by_major |= t.attacks(pos.piece_on(sq).piece_type(), them, sq, occ);
        }
        Threats {
            cheaper: [Bitboard::EMPTY, by_pawn, by_minor, by_major],
        }
    }

    /// The move's threat shift in classes: +class for a piece leaving a threatened square
    /// for an unthreatened one, -class for a piece going to a threatened square.
    fn shift(&self, pos: &Position, m: Move) -> i32 {
        let pt = if m.is_drop() {
            m.dropped()
        } else {
            pos.piece_on(m.from()).piece_type()
        };
        let class = piece_class(pt);
        let threatened = self.cheaper[class];
        if threatened.has(m.to()) {
            -(class as i32)
        } else if !m.is_drop() && threatened.has(m.from()) {
            class as i32
        } else {
            0
        }
    }
}

/// The value class of a piece kind for [`Threats`]: 0 pawn, 1 lance to the gold-movers, 2
/// bishop and rook, 3 horse and dragon (kings: 0, they are never exchanged).
fn piece_class(pt: PieceType) -> usize {
    match pt {
        PieceType::Pawn | PieceType::King => 0,
        PieceType::Bishop | PieceType::Rook => 2,
        PieceType::Horse | PieceType::Dragon => 3,
        _ => 1,
    }
}

/// Does `m`, a quiet move of the side to move, attack the enemy king on `ksq` from its
/// destination? (A check by uncovering a line is left out: the ordering bonus only needs
/// the common case, cheaply.)
#[inline]
fn checks_directly(pos: &Position, m: Move, ksq: Square) -> bool {
    let us = pos.side_to_move();
    let pt = if m.is_drop() {
        m.dropped()
    } else {
        pos.moved_piece_after(m).piece_type()
    };
    // A piece of `us` on `to` attacks `ksq` exactly when the same piece of the other
    // colour on `ksq` attacks `to`.
    tables()
        .attacks(pt, us.flip(), ksq, pos.occupied())
        .has(m.to())
}

/// Score of a capture or promotion: the captured piece's value, then its capture history.
#[inline]
fn capture_score(pos: &Position, heur: &Heuristics, m: Move) -> i32 {
    let mut score = 0;
    if let Some(victim) = pos.piece_on(m.to()).kind() {
        score += see_value(victim) * VICTIM_WEIGHT
            + heur.capture_history(piece_to(pos, m), victim.index()) / 4;
    }
    if m.is_promotion() {
        score += PROMOTION_BONUS;
    }
    score
}

/// Whether the picker at `level` (see `MovePicker::skip_unpromoted`) leaves `m` out;
/// quiescence asks it at level 1 for its captures and checks.
#[inline]
pub(crate) fn skipped(level: i32, pos: &Position, m: Move) -> bool {
    level > 0
        && !m.is_drop()
        && !m.is_promotion()
        && (promotion_skipped(pos, m) || (level > 1 && lance_to_second_rank(pos, m)))
}

/// True for a board move of a lance to its second rank that does not promote (the
/// caller knows `m` is a board move and not a promotion): a lance there reaches only the
/// last rank, where it must promote, and a gold covers that square and more.
fn lance_to_second_rank(pos: &Position, m: Move) -> bool {
    pos.piece_on(m.from()).piece_type() == PieceType::Lance
        && m.to().relative_rank(pos.side_to_move()) == 1
}

/// True for a board move of a pawn, bishop or rook that could promote and does not (the
/// caller knows `m` is a board move and not a promotion): the promoted piece moves
/// everywhere the unpromoted one does and more, so the move is never better (the
/// exceptions, pawn-drop-mate subtleties, belong to composed problems, which the mate
/// solver searches in full).
fn promotion_skipped(pos: &Position, m: Move) -> bool {
    let pt = pos.piece_on(m.from()).piece_type();
    if !matches!(pt, PieceType::Pawn | PieceType::Bishop | PieceType::Rook) {
        return false;
    }
    let us = pos.side_to_move();
    crate::shogi::types::in_promotion_zone(us, m.from())
        || crate::shogi::types::in_promotion_zone(us, m.to())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MAX_PLY;
    use crate::shogi::legal;
    use crate::util::rng::Rng;

    /// A move of any bit pattern that is likely illegal here (a killer from elsewhere).
    fn noise(rng: &mut Rng, others: &[Move]) -> Move {
        match rng.next_u64() % 3 {
            0 => Move::NONE,
            1 if !others.is_empty() => others[rng.next_u64() as usize % others.len()],
            _ => Move::from_raw(rng.next_u64() as u16),
        }
    }

    /// Random bonuses and maluses for `updates` random moves of `all` (the legal moves of
    /// `pos`), so that some quiet moves score apart and most still tie.
    fn stir_history(
        rng: &mut Rng,
        heur: &mut Heuristics,
        pos: &Position,
        all: &[Move],
        updates: usize,
    ) {
        for _ in 0..updates {
            let m = all[rng.next_u64() as usize % all.len()];
            let bonus = (rng.next_u64() % 4000) as i32 - 2000;
            let context = QuietContext::default();
            heur.update_quiet(pos.side_to_move(), m, piece_to(pos, m), &context, bonus);
        }
    }

    /// `checks_directly` finds every check but those that uncover a line, and nothing
    /// else, over the quiet moves of random games.
    #[test]
    fn direct_checks_are_the_checks_that_uncover_no_line() {
        let mut rng = Rng::new(5);
        let (mut direct, mut uncovered) = (0, 0);
        for _game in 0..60 {
            let mut pos = Position::startpos();
            for _ply in 0..160 {
                let all: Vec<Move> = legal(&pos).iter().copied().collect();
                if all.is_empty() {
                    break;
                }
                let them = pos.side_to_move().flip();
                if let Some(ksq) = pos.king_square(them) {
                    for &m in all.iter().filter(|&&m| !pos.is_capture(m)) {
                        let gives = pos.gives_check(m);
                        if checks_directly(&pos, m, ksq) {
                            assert!(gives, "{pos} {m}");
                            direct += 1;
                        } else if gives {
                            // The moved piece stood between a slider of ours and the king.
                            assert!(!m.is_drop(), "{pos} {m}");
                            uncovered += 1;
                        }
                    }
                }
                pos.do_move(all[rng.next_u64() as usize % all.len()]);
            }
        }
        assert!(direct > 1000 && uncovered > 0, "{direct} {uncovered}");
    }

    /// Every legal move comes out exactly once, the table move first, over positions of
    /// random games (checks, drops, promotions) with random histories, table moves and
    /// refutations (legal, illegal, repeated).
    /// A black silver on 5e that a white pawn attacks gains its class for leaving to a
    /// square no pawn attacks (a white silver's attack does not count against a silver),
    /// a rook dropped where that silver attacks loses the rook's class, and pawn and king
    /// moves are not touched.
    #[test]
    fn threats_rank_escapes_up_and_cheaper_attackers_down() {
        let pos: Position = "4k4/9/6s2/4p4/4S4/9/4P4/9/4K4 b R 1".parse().unwrap();
        let t = Threats::of(&pos);
        let shift = |usi: &str| t.shift(&pos, pos.parse_usi_move(usi).unwrap());
        assert_eq!(shift("5e4f"), 1);
        assert_eq!(shift("5e4d"), 1);
        assert_eq!(shift("R*4d"), -2);
        assert_eq!(shift("R*4e"), 0);
        assert_eq!(shift("5g5f"), 0);
        assert_eq!(shift("5i4h"), 0);
        assert_eq!(shift("R*2d"), -2);
    }

    #[test]
    fn yields_each_legal_move_exactly_once() {
        let mut rng = Rng::new(17);
        let mut heur = Heuristics::new(MAX_PLY);
        let mut picker = MovePicker::new();
        let mut previous_moves: Vec<Move> = Vec::new();
        let (mut positions, mut in_check, mut with_tt) = (0, 0, 0);
        let mut bad_quiets_set_aside = 0;
        let mut left_out = [0; 3];
        let mut lances_left_out = 0;
        for _game in 0..120 {
            let mut pos = Position::startpos();
            for _ply in 0..160 {
                let all: Vec<Move> = legal(&pos).iter().copied().collect();
                if all.is_empty() {
                    break;
                }
                stir_history(&mut rng, &mut heur, &pos, &all, 4);
                let tt_move = if rng.next_u64().is_multiple_of(2) {
                    with_tt += 1;
                    all[rng.next_u64() as usize % all.len()]
                } else {
                    Move::NONE
                };
                let mut refutations = [Move::NONE; 3];
                for r in &mut refutations {
                    *r = if rng.next_u64().is_multiple_of(4) {
                        all[rng.next_u64() as usize % all.len()]
                    } else {
                        noise(&mut rng, &previous_moves)
                    };
                }
                if rng.next_u64().is_multiple_of(8) {
                    refutations[2] = refutations[0];
                }
                picker.set_quiet_check_bonus(if rng.next_u64().is_multiple_of(2) {
                    16_384
                } else {
                    0
                });
                picker.set_threat_escape_bonus(if rng.next_u64().is_multiple_of(2) {
                    8_000
                } else {
                    0
                });
                picker.set_low_ply((rng.next_u64() % 6) as usize, 2);
                // The threat term scores some quiet moves below zero: below 1, they wait.
                picker.set_bad_quiet_threshold((rng.next_u64() % 2) as i32);
                let skip_level = (rng.next_u64() % 3) as i32;
                picker.set_skip_unpromoted(skip_level);
                picker.start(&pos, tt_move, refutations);
                let mut seen = Vec::new();
                while let Some(m) = picker.next(&pos, &heur, &QuietContext::default()) {
                    seen.push(m);
                }
                bad_quiets_set_aside += picker.bad_quiets.is_some() as usize;
                if tt_move.is_some() {
                    assert_eq!(seen[0], tt_move, "{pos}");
                }
                // Every legal move but the non-promotions the level leaves out (the table
                // move comes first whatever it is).
                let mut want: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|&m| m == tt_move || !skipped(skip_level, &pos, m))
                    .collect();
                left_out[skip_level as usize] += all.len() - want.len();
                if skip_level == 2 {
                    lances_left_out += all
                        .iter()
                        .filter(|&&m| {
                            m != tt_move
                                && !m.is_drop()
                                && !m.is_promotion()
                                && lance_to_second_rank(&pos, m)
                        })
                        .count();
                }
                want.sort_by_key(|m| m.raw());
                seen.sort_by_key(|m| m.raw());
                assert_eq!(seen, want, "{pos}");
                positions += 1;
                in_check += pos.in_check() as usize;
                previous_moves = all.clone();
                pos.do_move(all[rng.next_u64() as usize % all.len()]);
            }
        }
        assert!(positions > 10_000 && in_check > 200 && with_tt > 5_000);
        assert!(bad_quiets_set_aside > 1_000, "{bad_quiets_set_aside}");
        // Level 0 leaves out nothing; levels 1 and 2 leave out pawn, bishop and rook
        // non-promotions, level 2 lance ones as well.
        assert_eq!(left_out[0], 0);
        assert!(left_out[1] > 1_000 && left_out[2] > 1_000, "{left_out:?}");
        assert!(lances_left_out > 0);
    }

    /// Once asked to skip the quiet moves, the picker yields what it would have yielded
    /// less the quiet moves of its quiet stage that give no check, in the same order, and
    /// counts each one it passes over exactly where it would have come (the search's move
    /// count, and so its reductions, stay what they were), wherever the request comes:
    /// before the quiet stage, inside it or after it.
    #[test]
    fn skipping_the_quiet_moves_keeps_the_checks_order_and_the_move_count() {
        let mut rng = Rng::new(23);
        let mut heur = Heuristics::new(MAX_PLY);
        let (mut compared, mut passed_over, mut checks_after_skip) = (0, 0, 0);
        for _game in 0..80 {
            let mut pos = Position::startpos();
            for _ply in 0..160 {
                let all: Vec<Move> = legal(&pos).iter().copied().collect();
                if all.is_empty() {
                    break;
                }
                stir_history(&mut rng, &mut heur, &pos, &all, 6);
                let tt_move = if rng.next_u64().is_multiple_of(2) {
                    all[rng.next_u64() as usize % all.len()]
                } else {
                    Move::NONE
                };
                let mut refutations = [Move::NONE; 3];
                for r in &mut refutations {
                    if rng.next_u64().is_multiple_of(2) {
                        *r = all[rng.next_u64() as usize % all.len()];
                    }
                }
                let prevs = QuietContext::default();
                let mut plain = MovePicker::new();
                plain.start(&pos, tt_move, refutations);
                let mut want = Vec::new();
                while let Some(m) = plain.next(&pos, &heur, &prevs) {
                    want.push(m);
                }
                // Skip after `at` moves have been yielded.
                let at = rng.next_u64() as usize % (want.len() + 1);
                let mut skipping = MovePicker::new();
                skipping.start(&pos, tt_move, refutations);
                let mut got = Vec::new();
                let mut counted = 0;
                loop {
                    if got.len() == at {
                        skipping.skip_quiets();
                    }
                    let next = skipping.next(&pos, &heur, &prevs);
                    counted += skipping.take_skipped();
                    let Some(m) = next else {
                        break;
                    };
                    // Where this move stood in the plain order.
                    counted += 1;
                    got.push((m, counted));
                }
                // What skipping must leave out: the quiet stage's non-checks after `at`.
                let in_quiet_stage = |m: Move| {
                    m != tt_move
                        && !refutations.contains(&m)
                        && !pos.is_capture(m)
                        && !m.is_promotion()
                        && !pos.in_check()
                };
                let expected: Vec<(Move, usize)> = want
                    .iter()
                    .enumerate()
                    .filter(|&(k, &m)| k < at || !in_quiet_stage(m) || pos.gives_check(m))
                    .map(|(k, &m)| (m, k + 1))
                    .collect();
                assert_eq!(got, expected, "{pos} at {at}");
                assert_eq!(counted, want.len(), "{pos} at {at}");
                passed_over += want.len() - got.len();
                checks_after_skip += got[at.min(got.len())..]
                    .iter()
                    .filter(|&&(m, _)| in_quiet_stage(m))
                    .count();
                compared += 1;
                pos.do_move(all[rng.next_u64() as usize % all.len()]);
            }
        }
        assert!(compared > 8_000, "{compared}");
        assert!(
            passed_over > 100_000 && checks_after_skip > 1_000,
            "{passed_over} {checks_after_skip}"
        );
    }

    /// Good captures come before the refutations, the quiet moves after them and the
    /// captures that lose material last.
    #[test]
    fn stages_come_in_order() {
        // Black's rook on 2e can take an undefended silver on 5e (good by SEE) or the pawn
        // on 2c that the gold on 3c defends (bad, promoting or not); 5i4h is a killer.
        let pos: Position = "4k4/9/6gp1/9/4s2R1/9/9/9/4K4 b - 1".parse().unwrap();
        let mv = |s: &str| pos.parse_usi_move(s).unwrap();
        assert!(pos.see(mv("2e2c")) < 0 && pos.see(mv("2e2c+")) < 0 && pos.see(mv("2e5e")) > 0);
        let heur = Heuristics::new(MAX_PLY);
        let mut picker = MovePicker::new();
        picker.start(&pos, Move::NONE, [mv("5i4h"), Move::NONE, Move::NONE]);
        let mut order = Vec::new();
        while let Some(m) = picker.next(&pos, &heur, &QuietContext::default()) {
            order.push(m);
        }
        let at = |s: &str| order.iter().position(|&m| m == mv(s)).unwrap();
        assert_eq!((at("2e5e"), at("5i4h")), (0, 1), "{order:?}");
        assert!(at("2e2f") > 1);
        // The losing captures last, the promoting one (scored higher) first of them.
        assert_eq!(at("2e2c+"), order.len() - 2, "{order:?}");
        assert_eq!(at("2e2c"), order.len() - 1, "{order:?}");
    }
}
