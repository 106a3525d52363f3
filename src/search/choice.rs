//! Move choice: every rule that decides the answer of a `go` besides the search's own best
//! move, in one place (DESIGN.md §4.11).
//!
//! * Before searching: a declaration win answers `win`; a book move is played as it is;
//!   no legal root move answers `resign` ([`answer_without_search`]).
//! * Beside the search: the side mate solver runs where its answer is the one to play
//!   ([`MoveChoice::prepare`]).
//! * After the search: a proven mate replaces the search's move unless the search found one
//!   at least as short ([`MoveChoice::finish`]); a final score below `-ResignValue`
//!   resigns ([`resigns`]).

use super::mate::root::RootMate;
use super::skill::FULL_STRENGTH;
use super::worker::{Control, SearchResult};
use super::{mate_in, BestMove, Info, Limits, Report, Score, ScoreBound};
use crate::book::Book;
use crate::options::EngineOptions;
use crate::shogi::{legal, DeclarationRule, GameState, Move, Position};
use crate::util::rng::Rng;
use std::sync::Arc;
use std::time::Instant;

/// What the engine decides around one search.
pub struct MoveChoice {
    /// The book move to play, with its ponder move.
    pub book_move: Option<(Move, Option<Move>)>,
    /// The side solver, if it runs.
    side_mate: Option<RootMate>,
    started: Instant,
}

impl MoveChoice {
    /// Choose a book move (drawing from `rng` only when a book is loaded and enabled) and
    /// start the side mate solver where its answer is the one to play: one line, every root
    /// move allowed, full strength, no book move.
    pub fn prepare(
        pos: &Position,
        limits: &Limits,
        opts: &EngineOptions,
        book: Option<Arc<Book>>,
        rng: &mut Rng,
        control: &Arc<Control>,
    ) -> MoveChoice {
        let started = Instant::now();
        let book_move = if opts.own_book && !limits.infinite && limits.searchmoves.is_empty() {
            book.and_then(|b| b.choose(pos, rng.next_u64()))
                .map(|bm| (bm.mv, bm.ponder))
        } else {
            None
        };
        let side_mate = (opts.root_mate
            && opts.multipv == 1
            && limits.multipv.is_none_or(|n| n == 1)
            && limits.searchmoves.is_empty()
            && opts.skill_level == FULL_STRENGTH
            && book_move.is_none())
        .then(|| {
            // MaxMovesToDraw: the mate must be over before the game is drawn (a position
            // whose move number exceeds the limit is a draw).
            let max_len = (opts.max_moves_to_draw > 0).then(|| {
                opts.max_moves_to_draw
                    .saturating_sub(pos.move_number())
                    .min(60_000) as u16
            });
            RootMate::start(pos.clone(), control.clone(), opts.mate_hash_mib, max_len)
        })
        .flatten();
        MoveChoice {
            book_move,
            side_mate,
            started,
        }
    }

    /// The search is over: when the side solver proved a mate, play its first move and
    /// report its line, unless the search itself found a mate at least as short (or
    /// answered a declaration win or resign).
    pub fn finish(self, r: &mut SearchResult, report: &dyn Report, hashfull: impl FnOnce() -> u32) {
        let Some(line) = self.side_mate.and_then(RootMate::finish) else {
            return;
        };
        if !matches!(r.best, BestMove::Move { .. }) || line.is_empty() {
            return;
        }
        if r.score.is_some_and(|s| s >= mate_in(line.len())) {
            return;
        }
        r.best = BestMove::Move {
            best: line[0],
            ponder: line.get(1).copied(),
        };
        r.score = Some(mate_in(line.len()));
        let time_ms = self.started.elapsed().as_millis() as u64;
        report.info(&Info {
            depth: r.depth.max(1),
            seldepth: line.len() as u32,
            multipv: 1,
            score: Score::Mate(line.len() as i32),
            bound: ScoreBound::Exact,
            nodes: r.nodes,
            nps: r.nodes * 1000 / time_ms.max(1),
            time_ms,
            hashfull: hashfull(),
            pv: line,
        });
    }
}

/// The answer of a root needing no search (`Err`): a declaration win, the book move when it
/// is legal, `resign` when no root move is left. Otherwise (`Ok`) the root moves to search:
/// every legal move, or those of `searchmoves`.
pub fn answer_without_search(
    pos: &Position,
    declaration: DeclarationRule,
    book_move: Option<(Move, Option<Move>)>,
    searchmoves: &[Move],
) -> Result<Vec<Move>, BestMove> {
    if let Some(GameState::Win { .. }) = pos.declaration(declaration) {
        return Err(BestMove::Win);
    }
    if let Some((best, ponder)) = book_move {
        if pos.is_legal(best) {
            return Err(BestMove::Move { best, ponder });
        }
    }
    let mut moves: Vec<Move> = legal(pos).iter().copied().collect();
    if !searchmoves.is_empty() {
        moves.retain(|m| searchmoves.contains(m));
    }
    if moves.is_empty() {
        return Err(BestMove::Resign);
    }
    Ok(moves)
}

/// `ResignValue`: resign when the final score is below minus this.
pub fn resigns(score: Option<i32>, resign_value: i32) -> bool {
    score.is_some_and(|s| s < -resign_value)
}
