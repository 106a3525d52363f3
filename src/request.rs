//! The request normaliser: the one owner of what a search request means, whichever front end
//! (USI, C, CLI, a binding) it came through. The front ends translate their syntax into
//! [`Limits`] (the C ABI: a negative time or a zero count is "not set"); `Engine::go` then
//! passes every request through [`normalize`].
//!
//! | field | rule |
//! | --- | --- |
//! | nothing set (no depth, nodes, movetime, clock, `infinite` or `ponder`) | an infinite search: it runs until `stop` |
//! | `depth` | 0 means 1; more than [`MAX_DEPTH`] means [`MAX_DEPTH`] |
//! | `nodes` | 0 means 1 |
//! | `movetime` | exact; 0 means "move now" (the shallowest search), never "no limit" |
//! | a clock of 0 | a move at once: a GUI that clamps a remaining time to 0 gets a move |
//! | `multipv` | 1 to [`MAX_MULTIPV`], else refused |
//! | `searchmoves` | every move legal, else refused |
//! | `DepthLimit`, `NodesLimit` options (not 0) | cap every request's depth / nodes (the smaller wins); a request without a limit of its own still runs until `stop` |
//! | perft depth | 0 to [`MAX_PERFT_DEPTH`], else refused |

use crate::engine::EngineError;
use crate::options::{EngineOptions, MAX_MULTIPV};
use crate::search::{Limits, MAX_PLY};
use crate::shogi::Position;

/// The deepest perft any front end runs (USI `perft`, `hayanagi_engine_perft`, the CLI):
/// depth 10 of an opening position is already beyond anyone's patience.
pub const MAX_PERFT_DEPTH: u32 = 10;

/// A perft depth as every front end takes it: 0 to [`MAX_PERFT_DEPTH`].
pub fn perft_depth(depth: u64) -> Result<u32, EngineError> {
    if depth > MAX_PERFT_DEPTH as u64 {
        return Err(EngineError::InvalidLimits(format!(
            "perft depth {depth} is not in 0..={MAX_PERFT_DEPTH}"
        )));
    }
    Ok(depth as u32)
}

/// The deepest iteration a search runs (the search stack keeps room for extensions and
/// quiescence beyond it).
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 10;

/// Does the request set any limit of its own?
fn has_limit(l: &Limits) -> bool {
    l.infinite
        || l.ponder
        || l.depth.is_some()
        || l.nodes.is_some()
        || l.movetime.is_some()
        || l.uses_clock()
}

/// The request as the search runs it, or why it is refused. `DepthLimit` and `NodesLimit`
/// of `options` cap every request (the smaller limit wins).
pub fn normalize(
    mut limits: Limits,
    pos: &Position,
    options: &EngineOptions,
) -> Result<Limits, EngineError> {
    for &m in &limits.searchmoves {
        if !pos.is_legal(m) {
            return Err(EngineError::InvalidLimits(format!(
                "searchmoves: {m} is not legal"
            )));
        }
    }
    if let Some(n) = limits.multipv {
        if !(1..=MAX_MULTIPV).contains(&n) {
            return Err(EngineError::InvalidLimits(format!(
                "multipv {n} is not in 1..={MAX_MULTIPV}"
            )));
        }
    }
    if !has_limit(&limits) {
        limits.infinite = true;
    }
    if options.depth_limit > 0 {
        let cap = options.depth_limit;
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
    }
    if options.nodes_limit > 0 {
        let cap = options.nodes_limit;
        limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
    }
    limits.depth = limits.depth.map(|d| d.clamp(1, MAX_DEPTH));
    limits.nodes = limits.nodes.map(|n| n.max(1));
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(l: Limits) -> Limits {
        normalize(l, &Position::startpos(), &EngineOptions::default()).unwrap()
    }

    #[test]
    fn a_bare_request_is_infinite_and_any_limit_is_kept() {
        assert!(norm(Limits::default()).infinite);
        for l in [
            Limits::depth(3),
            Limits::nodes(10),
            Limits {
                movetime: Some(0),
                ..Limits::default()
            },
            Limits {
                time: [Some(0), Some(0)],
                ..Limits::default()
            },
            Limits {
                byoyomi: 1000,
                ..Limits::default()
            },
            Limits {
                ponder: true,
                ..Limits::default()
            },
        ] {
            assert!(!norm(l.clone()).infinite, "{l:?}");
        }
    }

    #[test]
    fn counts_are_clamped_and_bad_requests_refused() {
        assert_eq!(norm(Limits::depth(0)).depth, Some(1));
        assert_eq!(norm(Limits::depth(100_000)).depth, Some(MAX_DEPTH));
        assert_eq!(norm(Limits::nodes(0)).nodes, Some(1));
        let bad = Limits {
            multipv: Some(MAX_MULTIPV + 1),
            ..Limits::default()
        };
        assert!(normalize(bad, &Position::startpos(), &EngineOptions::default()).is_err());
    }
}
