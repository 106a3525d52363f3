//! The engine's search state machine: one value under one lock, changed only through the
//! transitions below (DESIGN.md §11.2).
//!
//! ```text
//!            start                      answer_final(ok)
//!   Idle ──────────────▶ Searching ───────────────────────▶ Delivering ──▶ Idle
//!    ▲                       │                                  │ delivered (last)
//!    └───────────────────────┼──────────────────────────────────┘
//!                            │ answer_final(failed)
//!                            ▼
//!                         Poisoned   (searches refused; everything else goes through)
//! ```
//!
//! A delivery runs on the thread that found the answer, and a host may start the next
//! search from another thread before that sink returns, so deliveries are counted beside
//! the phase: `Searching` with a delivery still in flight is possible, and `wait` waits for
//! both.

use super::EngineError;
use std::thread::ThreadId;

/// Where the engine stands ([`Engine::state`](crate::Engine::state)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchState {
    /// No search runs and no answer is being delivered.
    Idle,
    /// A search or a mate search runs: commands that change what it uses are
    /// [`EngineError::Busy`].
    Searching,
    /// No search runs; an answer is being handed to its sink. Every command goes through.
    Delivering,
    /// A search thread failed (it panicked): searches are refused, other commands go through.
    Poisoned,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
enum Phase {
    #[default]
    Idle,
    Searching,
    Poisoned,
}

/// The phase and the deliveries in flight.
#[derive(Default)]
pub(super) struct RunState {
    phase: Phase,
    /// The threads inside a delivery now (a best move and a mate answer may overlap).
    delivering: Vec<ThreadId>,
    /// Searches started so far: the id of the current or last search (0: none yet). Ids
    /// count both kinds of search (`go` and `go_mate`) from 1.
    searches: u64,
}

impl RunState {
    /// The state as a host sees it.
    pub fn state(&self) -> SearchState {
        match self.phase {
            Phase::Poisoned => SearchState::Poisoned,
            Phase::Searching => SearchState::Searching,
            Phase::Idle if self.delivering.is_empty() => SearchState::Idle,
            Phase::Idle => SearchState::Delivering,
        }
    }

    /// A search runs.
    pub fn is_running(&self) -> bool {
        self.phase == Phase::Searching
    }

    /// A delivery is in flight on some thread.
    pub fn is_delivering(&self) -> bool {
        !self.delivering.is_empty()
    }

    /// `Busy` while a search runs: what it uses cannot change. A delivery does not count.
    pub fn check_not_running(&self) -> Result<(), EngineError> {
        match self.phase {
            Phase::Searching => Err(EngineError::Busy),
            Phase::Idle | Phase::Poisoned => Ok(()),
        }
    }

    /// Can a search start now? `Busy` while one runs; refused for good once poisoned.
    pub fn check_can_start(&self) -> Result<(), EngineError> {
        self.check_not_running()?;
        match self.phase {
            Phase::Poisoned => Err(EngineError::SearchFailed(
                "an earlier search failed; create a new engine".into(),
            )),
            _ => Ok(()),
        }
    }

    /// Idle -> Searching. The caller has checked [`RunState::check_can_start`] under the
    /// same lock. Returns the new search's id ([`RunState::next_search_id`]).
    pub fn start(&mut self) -> u64 {
        debug_assert_eq!(self.phase, Phase::Idle);
        self.phase = Phase::Searching;
        self.searches += 1;
        self.searches
    }

    /// The id the next [`RunState::start`] gives (for a thread made before it).
    pub fn next_search_id(&self) -> u64 {
        self.searches + 1
    }

    /// The id of the current or last search (0 before the first).
    pub fn search_id(&self) -> u64 {
        self.searches
    }

    /// Searching -> Idle (or Poisoned when the search failed), with a delivery on `me`:
    /// the answer is final, so commands go through again.
    pub fn answer_final(&mut self, me: ThreadId, failed: bool) {
        self.phase = if failed || self.phase == Phase::Poisoned {
            Phase::Poisoned
        } else {
            Phase::Idle
        };
        self.delivering.push(me);
    }

    /// The delivery on `me` returned.
    pub fn delivered(&mut self, me: ThreadId) {
        if let Some(i) = self.delivering.iter().position(|&t| t == me) {
            self.delivering.swap_remove(i);
        }
    }

    /// Is there anything `wait` must wait for, seen from `me`? A delivery on `me` itself
    /// is not waited for (it cannot end while we wait).
    pub fn pending_for(&self, me: ThreadId) -> bool {
        self.is_running() || self.delivering.iter().any(|&t| t != me)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions() {
        let me = std::thread::current().id();
        let mut run = RunState::default();
        assert_eq!(run.state(), SearchState::Idle);
        run.check_can_start().unwrap();
        assert_eq!(run.search_id(), 0);
        assert_eq!(run.next_search_id(), 1);
        assert_eq!(run.start(), 1);
        assert_eq!(run.search_id(), 1);
        assert_eq!(run.state(), SearchState::Searching);
        assert_eq!(run.check_not_running(), Err(EngineError::Busy));
        assert!(run.pending_for(me));
        run.answer_final(me, false);
        assert_eq!(run.state(), SearchState::Delivering);
        run.check_can_start().unwrap();
        assert!(
            !run.pending_for(me),
            "a delivery on the waiting thread itself"
        );
        run.delivered(me);
        assert_eq!(run.state(), SearchState::Idle);
        assert_eq!(run.start(), 2);
        run.answer_final(me, true);
        run.delivered(me);
        assert_eq!(run.state(), SearchState::Poisoned);
        run.check_not_running().unwrap();
        assert!(matches!(
            run.check_can_start(),
            Err(EngineError::SearchFailed(_))
        ));
    }
}
