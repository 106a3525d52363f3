//! NNUE evaluation with YaneuraOu's HalfKP 256x2-32-32 nets (`nn.bin`; format in
//! `tests/data/nnue/FORMAT.md`, cited below as "FORMAT.md §n").
//!
//! * [`loader`]: the file format, with its checks.
//! * [`features`]: HalfKP feature numbering for both perspectives.
//! * [`network`]: parameters and the forward pass; [`simd`]: its vector kernels.
//! * [`NnueEvaluator`] (here): the accumulators of one search line. A move only records
//!   which features it changes; the accumulators are brought up to date when a position
//!   is evaluated, from the nearest computed ancestor, or from scratch for a perspective
//!   whose king moved.

pub mod features;
pub mod loader;
pub mod network;
pub mod simd;

pub use loader::{load_bytes, load_file, LoadError, LoadErrorKind, Loaded};
pub use network::Network;
pub use simd::SimdLevel;

use crate::shogi::{Color, Move, Position};
use features::Changes;
use network::Row;
use std::sync::Arc;

/// Default `FV_SCALE`: the network's output is divided by this.
pub const DEFAULT_FV_SCALE: i32 = 16;

/// One ply of the line: both perspectives' accumulators and how this ply was reached.
#[derive(Clone)]
struct Ply {
    /// Indexed by perspective colour.
    acc: [Row; 2],
    computed: [bool; 2],
    /// The move into this ply (empty for the root and null moves).
    changes: Changes,
}

/// Incrementally updated NNUE evaluation of one search line.
#[derive(Clone)]
pub struct NnueEvaluator {
    net: Arc<Network>,
    fv_scale: i32,
    plies: Vec<Ply>,
    /// Index of the current ply in `plies` (entries above it are reused scratch).
    top: usize,
    scratch: Vec<usize>,
}

impl NnueEvaluator {
    /// The evaluator of `pos`, or `None` when the net cannot evaluate it (a side without
    /// a king, or more pieces than a set holds).
    pub fn new(net: Arc<Network>, fv_scale: i32, pos: &Position) -> Option<NnueEvaluator> {
        if !features::can_evaluate(pos) {
            return None;
        }
        let root = Ply {
            acc: [Row::ZERO; 2],
            computed: [false; 2],
            changes: Changes::default(),
        };
        let mut e = NnueEvaluator {
            net,
            fv_scale: fv_scale.max(1),
            plies: vec![root; 64],
            top: 0,
            scratch: Vec::with_capacity(features::ACTIVE_FEATURES),
        };
        for c in Color::ALL {
            e.refresh(c, pos);
        }
        Some(e)
    }

    fn push(&mut self, changes: Changes) {
        self.top += 1;
        if self.top == self.plies.len() {
            let template = self.plies[0].clone();
            self.plies.push(template);
        }
        let ply = &mut self.plies[self.top];
        ply.computed = [false; 2];
        ply.changes = changes;
    }

    /// Account for `m`, about to be played in `pos` (call before `Position::do_move`).
    #[inline]
    pub fn do_move(&mut self, pos: &Position, m: Move) {
        self.push(Changes::of_move(pos, m));
    }

    /// A null move changes no feature.
    #[inline]
    pub fn do_null_move(&mut self) {
        self.push(Changes::default());
    }

    /// Take back the last `do_move` or `do_null_move`.
    #[inline]
    pub fn undo_move(&mut self) {
        debug_assert!(self.top > 0);
        self.top -= 1;
    }

    fn refresh(&mut self, c: Color, pos: &Position) {
        features::active_features(pos, c, &mut self.scratch);
        let ply = &mut self.plies[self.top];
        self.net.refresh(&self.scratch, &mut ply.acc[c.index()]);
        ply.computed[c.index()] = true;
    }

    /// Bring perspective `c` of the current ply up to date (nothing to do when it is).
    fn update(&mut self, c: Color, pos: &Position) {
        let ci = c.index();
        if self.plies[self.top].computed[ci] {
            return;
        }
        // The nearest computed ply, unless c's king moved on the way (the root is always
        // computed, and a ply whose move moved c's king never is until refreshed).
        let mut from = self.top;
        while !self.plies[from].computed[ci] {
            if self.plies[from].changes.king_moved[ci] {
                self.refresh(c, pos);
                return;
            }
            from -= 1;
        }
        // c's king has not moved since `from`: its block is the current one.
        let block = features::king_block(pos, c).expect("evaluated positions have kings");
        let feature = |b: features::BonaPair| block + b.0[ci] as usize;
        let level = self.net.simd();
        for i in from + 1..=self.top {
            let (done, rest) = self.plies.split_at_mut(i);
            let prev = &done[i - 1].acc[ci];
            let ply = &mut rest[0];
            let ch = ply.changes;
            let added: [&Row; 2] = [
                self.net.feature(feature(ch.added[0])),
                self.net.feature(feature(ch.added[1])),
            ];
            let removed: [&Row; 2] = [
                self.net.feature(feature(ch.removed[0])),
                self.net.feature(feature(ch.removed[1])),
            ];
            simd::update(
                level,
                &mut ply.acc[ci],
                prev,
                &added[..ch.n_added as usize],
                &removed[..ch.n_removed as usize],
            );
            ply.computed[ci] = true;
        }
    }

    /// The evaluation of `pos` (which must match the moves fed in) for the side to move.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        for c in Color::ALL {
            self.update(c, pos);
        }
        let ply = &self.plies[self.top];
        let us = pos.side_to_move();
        self.net.evaluate(
            &ply.acc[us.index()],
            &ply.acc[us.flip().index()],
            self.fv_scale,
        )
    }

    /// The accumulator of perspective `c` for the current ply, brought up to date
    /// (for tests: incremental accumulators must equal a refresh).
    pub fn accumulator(&mut self, c: Color, pos: &Position) -> [i16; 256] {
        self.update(c, pos);
        self.plies[self.top].acc[c.index()].0
    }

    /// `pos` evaluated from scratch, without incremental state.
    pub fn evaluate_from_scratch(net: &Arc<Network>, fv_scale: i32, pos: &Position) -> Option<i32> {
        NnueEvaluator::new(net.clone(), fv_scale, pos).map(|mut e| e.evaluate(pos))
    }
}
