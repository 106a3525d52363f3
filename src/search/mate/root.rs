//! The mate solver beside a normal search: it runs on its own thread from `go` to the best
//! move. When it proves a mate first, the search stops (once it may: not while pondering
//! or in an infinite search) and the mating line is played and reported.

use super::{solve, solve_on_solver_stack, MateLimits, MateResult};
use crate::search::worker::Control;
use crate::shogi::{Move, Position};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A running side solver.
pub struct RootMate {
    stop: Arc<AtomicBool>,
    line: Arc<Mutex<Option<Vec<Move>>>>,
    handle: Option<JoinHandle<()>>,
}

impl RootMate {
    /// Start solving `pos` beside the search that `control` drives. `None` when no thread
    /// could be started (the search then runs alone).
    /// `max_len`: only mates of at most this many plies count (a game that ends in a draw
    /// at a move limit first is no mate).
    pub fn start(
        pos: Position,
        control: Arc<Control>,
        table_mib: usize,
        max_len: Option<u16>,
    ) -> Option<RootMate> {
        let stop = Arc::new(AtomicBool::new(false));
        let line = Arc::new(Mutex::new(None));
        let (flag, found) = (stop.clone(), line.clone());
        let handle = super::spawn_solver_thread("hayanagi-root-mate", move |big_stack| {
            // The shortest mate, so that the score it reports is exact and never longer
            // than a mate the search would find by itself; if the search ends first,
            // the mate found so far is still played.
            let limits = MateLimits {
                deadline: None,
                max_nodes: None,
                stop: &flag,
                table_mib,
                shortest: true,
                max_len,
            };
            let report = if big_stack {
                solve_on_solver_stack(&pos, limits)
            } else {
                solve(&pos, limits)
            };
            let MateResult::Mate(moves) = report.result else {
                return;
            };
            *found.lock() = Some(moves);
            // End the search as soon as it may end.
            while !flag.load(Ordering::Acquire) {
                if !control.waiting.load(Ordering::Acquire) {
                    control.stop.store(true, Ordering::Release);
                    return;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        })
        .ok()?;
        Some(RootMate {
            stop,
            line,
            handle: Some(handle),
        })
    }

    /// Stop the solver and return its mating line, if it found one.
    pub fn finish(mut self) -> Option<Vec<Move>> {
        self.stop_and_join();
        self.line.lock().take()
    }

    fn stop_and_join(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(h) = self.handle.take() {
            // The solver catches nothing; a panic there only loses its answer.
            let _ = h.join();
        }
    }
}

impl Drop for RootMate {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}
