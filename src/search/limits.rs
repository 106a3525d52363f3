//! What a `go` asks for: depth, nodes, time controls, pondering, root move restriction,
//! MultiPV.

use crate::shogi::Move;

/// Search limits. The default is an infinite search (until `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after completing this depth.
    pub depth: Option<u32>,
    /// Stop after this many nodes (never exceeded by more than a few nodes).
    pub nodes: Option<u64>,
    /// Think exactly this long (milliseconds), minus the network delay.
    pub movetime: Option<u64>,
    /// Search until `stop`, whatever the clock says.
    pub infinite: bool,
    /// Pondering: the clock limits start counting at `ponderhit`.
    pub ponder: bool,
    /// Remaining time of black and white in milliseconds.
    pub time: [Option<u64>; 2],
    /// Fischer increment of black and white in milliseconds.
    pub increment: [u64; 2],
    /// Byoyomi in milliseconds.
    pub byoyomi: u64,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to report (1-32); `None` uses the engine option.
    pub multipv: Option<u32>,
}

impl Limits {
    /// Infinite search.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Think for a fixed time.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// True when a clock (time, increment or byoyomi) governs the search.
    pub fn uses_clock(&self) -> bool {
        self.time.iter().any(Option::is_some)
            || self.byoyomi > 0
            || self.increment.iter().any(|&i| i > 0)
    }
}
