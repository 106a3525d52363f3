//! Time management: a soft limit (when to stop between iterations, scaled by how stable
//! the best move is) and a hard limit (checked inside the search), with a network-delay
//! safety margin so that the engine never loses on time.

use super::limits::Limits;
use crate::shogi::Color;
use std::time::Instant;

/// The margin kept back from a byoyomi is at most this fraction of it (1/10), so a short
/// byoyomi is not given away: the engine's own stop-to-bestmove latency is 1-2 ms on an
/// idle machine and up to 6 ms on a loaded one (`scripts/latency.py`, DESIGN §8.5), a
/// fifth of the 30 ms this leaves at 300 ms.
const BYOYOMI_MARGIN_DIVISOR: u64 = 10;

/// What is kept back from a byoyomi of `byo` ms: `NetworkDelay`, but at most a tenth of
/// the byoyomi.
fn byoyomi_margin(network_delay: u64, byo: u64) -> u64 {
    network_delay.min(byo / BYOYOMI_MARGIN_DIVISOR)
}

/// Options that shape the time manager (USI `NetworkDelay`-style).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    /// Kept back from every planned deadline for GUI and network latency (ms).
    pub network_delay: u64,
    /// Kept back from the whole time left (clock + byoyomi) for the hard limit while the
    /// main clock still runs (ms; YaneuraOu's `NetworkDelay2`). In pure byoyomi the
    /// `network_delay` margin applies.
    pub network_delay2: u64,
    /// Think at least this long when the clock allows (ms).
    pub minimum_thinking_time: u64,
    /// Percentage scaling of the planned time per move.
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            network_delay: 120,
            network_delay2: 1120,
            minimum_thinking_time: 100,
            slow_mover: 100,
        }
    }
}

/// Deadlines of one search.
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    /// Planned time; `None` when time does not limit the search.
    soft: Option<u64>,
    /// Never think longer than this.
    hard: Option<u64>,
    /// `movetime`: use the whole time, never stop between iterations early.
    fixed: bool,
}

impl TimeManager {
    /// Plan the search of `limits` for side `us` at move `move_number`.
    pub fn new(limits: &Limits, us: Color, move_number: u32, opts: &TimeOptions) -> TimeManager {
        let start = Instant::now();
        let delay = opts.network_delay;
        if limits.infinite {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        if let Some(mt) = limits.movetime {
            // `movetime` is exact by the USI/UCI convention: the host asked for this long.
            let t = mt.max(1);
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                fixed: true,
            };
        }
        if !limits.uses_clock() {
            return TimeManager {
                start,
                soft: None,
                hard: None,
                fixed: false,
            };
        }
        let remain = limits.time[us.index()].unwrap_or(0);
        let inc = limits.increment[us.index()];
        let byo = limits.byoyomi;
        let byo_margin = byoyomi_margin(delay, byo);
        if remain <= delay && byo > 0 {
            // Pure byoyomi: unused byoyomi is lost anyway, so use all of it.
            let t = (remain + byo).saturating_sub(byo_margin).max(1);
            return TimeManager {
                start,
                soft: Some(t),
                hard: Some(t),
                fixed: true,
            };
        }
        // Everything that may be spent on this move: the clock (plus byoyomi), less the
        // larger margin, but never less than the byoyomi itself allows.
        let cap = (remain + byo)
            .saturating_sub(delay.max(opts.network_delay2))
            .max(byo.saturating_sub(byo_margin))
            .max(1);
        // Shogi games run long; plan for fewer moves left as the game goes on.
        let moves_to_go = (50u64.saturating_sub(move_number as u64 / 4)).max(20);
        let base = remain / moves_to_go + inc * 3 / 4 + byo;
        let soft = (base * opts.slow_mover / 100)
            .max(opts.minimum_thinking_time)
            .min(cap);
        let hard = (soft * 4)
            .max(byo.saturating_sub(byo_margin))
            .min(cap)
            .min(remain / 3 + byo.saturating_sub(byo_margin))
            .max(soft.min(cap));
        TimeManager {
            start,
            soft: Some(soft),
            hard: Some(hard),
            fixed: false,
        }
    }

    /// Restart the clock (at `ponderhit`: the GUI's clock starts then).
    pub fn restart(&mut self) {
        self.start = Instant::now();
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Past the hard limit?
    #[inline]
    pub fn hard_exceeded(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// Should the next iteration not start? `instability` >= 0 grows when the best move
    /// keeps changing (more time) and stays 0 when it is stable (less time).
    pub fn should_stop_iterating(&self, instability: f64) -> bool {
        let Some(soft) = self.soft else {
            return false;
        };
        if self.fixed {
            return false;
        }
        let factor = (0.5 + instability).clamp(0.5, 2.0);
        let budget = soft as f64 * factor;
        // The next iteration usually costs more than all before it: do not start one that
        // cannot finish within the budget.
        self.elapsed_ms() as f64 >= budget * 0.6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tm(l: Limits) -> TimeManager {
        TimeManager::new(&l, Color::Black, 30, &TimeOptions::default())
    }

    #[test]
    fn plans_stay_inside_the_clock() {
        let m = tm(Limits::movetime(1000));
        assert_eq!((m.soft, m.hard), (Some(1000), Some(1000)));
        let mut l = Limits {
            byoyomi: 10_000,
            time: [Some(0), Some(0)],
            ..Limits::default()
        };
        let m = tm(l.clone());
        assert_eq!(m.hard, Some(9_880));
        l.time = [Some(60_000), Some(60_000)];
        let m = tm(l.clone());
        assert!(m.soft.unwrap() >= 10_000 && m.hard.unwrap() <= 69_880);
        // Sudden death with little left: never plan beyond what remains.
        let m = tm(Limits {
            time: [Some(300), Some(300)],
            ..Limits::default()
        });
        assert!(m.hard.unwrap() <= 180);
        // Fischer.
        let m = tm(Limits {
            time: [Some(10_000), Some(10_000)],
            increment: [2_000, 2_000],
            ..Limits::default()
        });
        assert!(m.soft.unwrap() >= 1_500 && m.hard.unwrap() <= 9_880);
        // Short byoyomi: the margin is at most a tenth of it (300 -> 270, 100 -> 90), not
        // the whole NetworkDelay of 120 (which left 180 ms of 300 and 1 ms of 100).
        for (byo, think) in [(300, 270), (100, 90), (1_000, 900), (2_000, 1_880)] {
            let m = tm(Limits {
                byoyomi: byo,
                time: [Some(0), Some(0)],
                ..Limits::default()
            });
            assert_eq!(
                (m.soft, m.hard),
                (Some(think), Some(think)),
                "byoyomi {byo}"
            );
        }
        // A small NetworkDelay is kept as it is.
        let opts = TimeOptions {
            network_delay: 5,
            ..TimeOptions::default()
        };
        let l = Limits {
            byoyomi: 300,
            time: [Some(0), Some(0)],
            ..Limits::default()
        };
        assert_eq!(
            TimeManager::new(&l, Color::Black, 30, &opts).hard,
            Some(295)
        );
        assert_eq!(tm(Limits::infinite()).hard, None);
        assert_eq!(tm(Limits::depth(5)).hard, None);
    }
}
