//! Static evaluation for the search: an NNUE net when one is loaded and can evaluate the
//! position ([`nnue`]), the hand-crafted evaluation otherwise ([`classic`]).
//!
//! The search calls [`Evaluator::do_move`] before `Position::do_move` and
//! [`Evaluator::undo_move`] after `undo_move`. Which evaluation serves is decided once, for
//! the root: legal moves never capture a king and keep every kind's piece count, so a net
//! that can evaluate the root can evaluate the whole tree.

pub mod attack_cache;
pub mod attack_terms;
pub mod classic;
pub mod nnue;
pub mod weights;

use attack_cache::AttackCache;
pub use classic::ClassicEvaluator;
pub use nnue::{Network, NnueEvaluator};

use crate::shogi::{Move, Position};
use std::sync::Arc;

/// What evaluates positions: an optional net and its `FV_SCALE`.
#[derive(Clone, Debug)]
pub struct EvalConfig {
    /// The NNUE net, if one is loaded (`None`: the classical evaluation).
    pub net: Option<Arc<Network>>,
    /// Output scale of the net (`FV_SCALE`): the net's output is divided by it.
    pub fv_scale: i32,
}

impl EvalConfig {
    /// Equal for two configurations exactly when they evaluate every position alike
    /// (the hand-crafted evaluation: 0; a net: its load and its scale).
    pub fn tag(&self) -> u64 {
        self.net
            .as_ref()
            .map_or(0, |n| (n.id() << 32) | self.fv_scale as u32 as u64)
    }
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            net: None,
            fv_scale: nnue::DEFAULT_FV_SCALE,
        }
    }
}

/// Which evaluation an [`Evaluator`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The hand-crafted evaluation.
    Classic,
    /// The loaded NNUE net.
    Nnue,
}

#[derive(Clone)]
enum Backend {
    Classic(ClassicEvaluator),
    Nnue(Box<NnueEvaluator>),
}

/// Incrementally updated evaluation of one search line.
#[derive(Clone)]
pub struct Evaluator {
    backend: Backend,
}

impl Evaluator {
    /// An evaluator for `pos`: the net of `config` if it can evaluate `pos`, else the
    /// hand-crafted evaluation.
    pub fn new(pos: &Position, config: &EvalConfig) -> Evaluator {
        Evaluator::build(pos, config, AttackCache::none)
    }

    /// [`Evaluator::new`] for a search thread: the hand-crafted evaluation keeps its
    /// attack terms in a cache of 256 KiB (DESIGN.md §9.2), which [`Evaluator::renew`]
    /// carries on.
    pub(crate) fn for_search(pos: &Position, config: &EvalConfig) -> Evaluator {
        Evaluator::build(pos, config, AttackCache::new)
    }

    /// An evaluator for a new search from `pos` in place of this one (made by
    /// [`Evaluator::for_search`]), keeping what stays true: the hand-crafted evaluation's
    /// cache of attack terms (allocated again if it could not be before).
    pub(crate) fn renew(&mut self, pos: &Position, config: &EvalConfig) {
        let mut kept = match &mut self.backend {
            Backend::Classic(e) => Some(e.take_cache()).filter(AttackCache::is_some),
            Backend::Nnue(_) => None,
        };
        *self = Evaluator::build(pos, config, || kept.take().unwrap_or_else(AttackCache::new));
    }

    /// The net of `config` if it can evaluate `pos`, else the hand-crafted evaluation with
    /// the cache `cache` gives (asked only then).
    fn build(
        pos: &Position,
        config: &EvalConfig,
        cache: impl FnOnce() -> AttackCache,
    ) -> Evaluator {
        let nnue = config
            .net
            .as_ref()
            .and_then(|net| NnueEvaluator::new(net.clone(), config.fv_scale, pos));
        let backend = match nnue {
            Some(e) => Backend::Nnue(Box::new(e)),
            None => Backend::Classic(ClassicEvaluator::with_cache(pos, cache())),
        };
        Evaluator { backend }
    }

    /// Which evaluation this is.
    pub fn kind(&self) -> EvalKind {
        match self.backend {
            Backend::Classic(_) => EvalKind::Classic,
            Backend::Nnue(_) => EvalKind::Nnue,
        }
    }

    /// Account for `m`, which is about to be played in `pos` (call before `do_move`).
    #[inline]
    pub fn do_move(&mut self, pos: &Position, m: Move) {
        match &mut self.backend {
            Backend::Classic(e) => e.do_move(pos, m),
            Backend::Nnue(e) => e.do_move(pos, m),
        }
    }

    /// The position of Zobrist key `key` will be evaluated soon (the next move's): start
    /// loading what its evaluation reads first.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Backend::Classic(e) = &self.backend {
            e.prefetch(key);
        }
    }

    /// A null move changes nothing but the side to move.
    #[inline]
    pub fn do_null_move(&mut self) {
        match &mut self.backend {
            Backend::Classic(e) => e.do_null_move(),
            Backend::Nnue(e) => e.do_null_move(),
        }
    }

    /// Take back the last `do_move` or `do_null_move`.
    #[inline]
    pub fn undo_move(&mut self) {
        match &mut self.backend {
            Backend::Classic(e) => e.undo_move(),
            Backend::Nnue(e) => e.undo_move(),
        }
    }

    /// Evaluation of `pos` (which must match the moves fed in) for the side to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match &mut self.backend {
            Backend::Classic(e) => e.evaluate(pos),
            Backend::Nnue(e) => e.evaluate(pos),
        }
    }

    /// `pos` evaluated from scratch with `config`.
    pub fn evaluate_from_scratch(pos: &Position, config: &EvalConfig) -> i32 {
        Evaluator::new(pos, config).evaluate(pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic(e: &mut Evaluator) -> &mut ClassicEvaluator {
        match &mut e.backend {
            Backend::Classic(c) => c,
            Backend::Nnue(_) => panic!("no net was given"),
        }
    }

    /// A search thread's evaluator keeps the attack terms of the positions it evaluated
    /// from one search to the next; `Evaluator::new` has no cache.
    #[test]
    fn a_search_threads_cache_outlives_its_search() {
        let config = EvalConfig::default();
        let pos = Position::startpos();
        let mut e = Evaluator::for_search(&pos, &config);
        let value = e.evaluate(&pos);
        let mut next = pos.clone();
        next.do_move(next.parse_usi_move("7g7f").unwrap());
        e.renew(&next, &config);
        let kept = classic(&mut e).take_cache();
        assert!(kept.probe(pos.key()).is_some());
        assert_eq!(Evaluator::new(&pos, &config).evaluate(&pos), value);
        let mut plain = Evaluator::new(&pos, &config);
        plain.evaluate(&pos);
        assert!(!classic(&mut plain).take_cache().is_some());
    }
}
