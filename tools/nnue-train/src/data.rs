//! Training positions from `hayanagi gensfen` files (40-byte `PackedSfenValue` records,
//! docs/DESIGN.md §14.1), as the HalfKP features the engine would compute for them.
//!
//! Features come from the library (`hayanagi::nnue_active_features`), the code the engine
//! evaluates with, so the trainer's numbering cannot drift from the loader's.

use hayanagi::{Color, Position, TrainingRecord, NNUE_ACTIVE_FEATURES, NNUE_FE_END, RECORD_BYTES};
use std::io::Read;

/// Consecutive records that go to the same side of the split: about a dozen whole games,
/// so that positions of one game never sit in both sets (they share a result).
pub const VALIDATION_BLOCK: usize = 1000;

/// One position, side to move first.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Own king square per perspective (`[side to move, opponent]`), rotated for white.
    pub kings: [u8; 2],
    /// The BonaPieces per perspective, absent pieces as 0 (the engine's 38 features).
    pub pieces: [[u16; NNUE_ACTIVE_FEATURES]; 2],
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The search score for the side to move, in centipawns.
    pub score: f32,
}

impl Sample {
    /// `pos` with its score and result (-1, 0, 1 for the side to move); `None` when the
    /// net cannot evaluate it (the engine would use the hand-crafted evaluation there).
    pub fn new(pos: &Position, score: i16, result: i8) -> Option<Sample> {
        if !hayanagi::nnue_can_evaluate(pos) {
            return None;
        }
        let us = pos.side_to_move();
        let mut s = Sample {
            kings: [0; 2],
            pieces: [[0; NNUE_ACTIVE_FEATURES]; 2],
            result: (f32::from(result.clamp(-1, 1)) + 1.0) / 2.0,
            score: f32::from(score),
        };
        let mut features = Vec::with_capacity(NNUE_ACTIVE_FEATURES);
        for (i, c) in [us, us.flip()].into_iter().enumerate() {
            perspective(pos, c, &mut features);
            s.kings[i] = (features[0] / NNUE_FE_END) as u8;
            for (slot, &f) in s.pieces[i].iter_mut().zip(&features) {
                *slot = (f % NNUE_FE_END) as u16;
            }
        }
        Some(s)
    }
}

fn perspective(pos: &Position, c: Color, out: &mut Vec<usize>) {
    hayanagi::nnue_active_features(pos, c, out);
    debug_assert_eq!(out.len(), NNUE_ACTIVE_FEATURES);
}

/// Training and validation positions, and what was left out.
#[derive(Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    /// Records whose position does not decode (a torn or foreign file).
    pub unreadable: usize,
    /// Positions the net cannot evaluate (no king, more pieces than a set).
    pub unevaluable: usize,
}

/// Which position of a record is trained on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The record's own position.
    Root,
    /// The last position of its quiescence line (`hayanagi::quiet_line`, docs/DESIGN.md
    /// §14.3) under the library's hand-crafted evaluation, with the score and result
    /// turned to the side to move there.
    Quiet,
}

/// The library's hand-crafted evaluation, for the quiescence line.
fn classic_eval(weights: &[i32], scratch: &mut Vec<(u16, i16)>, pos: &Position) -> f64 {
    hayanagi::classic_features(pos, scratch);
    hayanagi::classic_weighted_sum(scratch, weights)
}

/// Read up to `max_positions` usable positions from `paths`, in order, at `leaf`. Every
/// `100 / validation_percent`-th block of [`VALIDATION_BLOCK`] positions is held out.
pub fn load(
    paths: &[String],
    max_positions: usize,
    validation_percent: usize,
    leaf: Leaf,
) -> Result<Dataset, String> {
    let weights = hayanagi::classic_weights().to_flat();
    let mut scratch = Vec::with_capacity(128);
    let mut d = Dataset::default();
    let every = (100 / validation_percent.max(1)).max(1);
    let mut seen = 0usize;
    let mut buf = [0u8; RECORD_BYTES];
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        while seen < max_positions {
            match r.read_exact(&mut buf) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(format!("{path}: {e}")),
            }
            let rec = TrainingRecord::from_bytes(&buf);
            let Ok(mut pos) = rec.sfen.unpack(u32::from(rec.game_ply)) else {
                d.unreadable += 1;
                continue;
            };
            let (mut score, mut result) = (rec.score, rec.game_result);
            if leaf == Leaf::Quiet {
                let line =
                    hayanagi::quiet_line(&pos, &mut |p| classic_eval(&weights, &mut scratch, p));
                for &m in &line {
                    pos.do_move(m);
                }
                if line.len() % 2 == 1 {
                    (score, result) = (score.saturating_neg(), -result);
                }
            }
            let Some(sample) = Sample::new(&pos, score, result) else {
                d.unevaluable += 1;
                continue;
            };
            if (seen / VALIDATION_BLOCK).is_multiple_of(every) {
                d.valid.push(sample);
            } else {
                d.train.push(sample);
            }
            seen += 1;
        }
    }
    Ok(d)
}
