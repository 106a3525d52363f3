//! Training positions from `hayanagi gensfen` files (40-byte `PackedSfenValue` records,
//! docs/DESIGN.md §14.1), as the HalfKP features the engine would compute for them.
//!
//! Features come from the library (`hayanagi::nnue_active_features`), the code the engine
//! evaluates with, so the trainer's numbering cannot drift from the loader's.

use crate::rng::Rng;
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

/// The library's hand-crafted evaluation (the built-in weights), for the quiescence line
/// and the neighbours' labels; equal to the weighted sum of `classic_features` (a library
/// test checks it) and much faster.
fn classic_eval(pos: &Position) -> f64 {
    f64::from(hayanagi::ClassicEvaluator::evaluate_from_scratch(pos))
}

/// How a dataset is read: which records, at which position, and what is added to them.
#[derive(Clone, Copy, Debug)]
pub struct LoadConfig {
    /// At most this many records (the first ones).
    pub max_positions: usize,
    /// Every `100 / validation_percent`-th block of [`VALIDATION_BLOCK`] records is held
    /// out.
    pub validation_percent: usize,
    pub leaf: Leaf,
    /// Distillation (docs/DESIGN.md §14.4): per training record, this many positions one or
    /// two random legal moves away, each taken at its quiescence leaf and labelled with
    /// the hand-crafted evaluation there; the search visits such positions far more often
    /// than the games show them.
    pub neighbours: usize,
    /// Seeds the neighbours' random moves (with each record's number).
    pub seed: u64,
    /// Threads for decoding and the quiescence searches.
    pub threads: usize,
}

/// Read the records of `paths`, in order, as `config` says. The result does not depend on
/// the number of threads.
pub fn load(paths: &[String], config: &LoadConfig) -> Result<Dataset, String> {
    let records = read_records(paths, config.max_positions)?;
    let threads = config.threads.max(1);
    let chunk = records.len().div_ceil(threads).max(1);
    let parts: Vec<Part> = std::thread::scope(|scope| {
        let handles: Vec<_> = records
            .chunks(chunk)
            .enumerate()
            .map(|(k, recs)| scope.spawn(move || load_part(recs, k * chunk, config)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a loader thread panicked"))
            .collect()
    });
    let mut d = Dataset::default();
    for part in parts {
        d.unreadable += part.unreadable;
        d.unevaluable += part.unevaluable;
        d.train.extend(part.train);
        d.valid.extend(part.valid);
    }
    Ok(d)
}

/// The raw records of `paths`, at most `max` of them.
fn read_records(paths: &[String], max: usize) -> Result<Vec<[u8; RECORD_BYTES]>, String> {
    let mut out = Vec::new();
    let mut buf = [0u8; RECORD_BYTES];
    for path in paths {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        while out.len() < max {
            match r.read_exact(&mut buf) {
                Ok(()) => out.push(buf),
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => return Err(format!("{path}: {e}")),
            }
        }
    }
    Ok(out)
}

#[derive(Default)]
struct Part {
    train: Vec<Sample>,
    valid: Vec<Sample>,
    unreadable: usize,
    unevaluable: usize,
}

/// The samples of `records`, the first of which is record number `first`.
fn load_part(records: &[[u8; RECORD_BYTES]], first: usize, config: &LoadConfig) -> Part {
    let mut part = Part::default();
    let every = (100 / config.validation_percent.max(1)).max(1);
    for (n, bytes) in records.iter().enumerate() {
        let number = first + n;
        let rec = TrainingRecord::from_bytes(bytes);
        let Ok(mut pos) = rec.sfen.unpack(u32::from(rec.game_ply)) else {
            part.unreadable += 1;
            continue;
        };
        let held_out = (number / VALIDATION_BLOCK).is_multiple_of(every);
        if !held_out {
            let mut rng = Rng::new(config.seed ^ (number as u64).wrapping_mul(0x9E37_79B9));
            for _ in 0..config.neighbours {
                if let Some(s) = neighbour(&pos, rec.game_result, &mut rng) {
                    part.train.push(s);
                }
            }
        }
        let (mut score, mut result) = (rec.score, rec.game_result);
        if config.leaf == Leaf::Quiet {
            let plies;
            (pos, plies) = hayanagi::quiet_leaf(&pos, &mut classic_eval);
            if plies % 2 == 1 {
                (score, result) = (score.saturating_neg(), -result);
            }
        }
        let Some(sample) = Sample::new(&pos, score, result) else {
            part.unevaluable += 1;
            continue;
        };
        if held_out {
            part.valid.push(sample);
        } else {
            part.train.push(sample);
        }
    }
    part
}

/// A position one or two random legal moves from `pos`, at its quiescence leaf, labelled
/// with the hand-crafted evaluation there (`None` where a move runs out, or the leaf is in
/// check or cannot be evaluated by the net). `result` is the game's for `pos`'s side to
/// move.
fn neighbour(pos: &Position, result: i8, rng: &mut Rng) -> Option<Sample> {
    let (leaf, plies) = neighbour_leaf(pos, rng)?;
    let eval = classic_eval(&leaf);
    let score = eval.clamp(f64::from(i16::MIN + 1), f64::from(i16::MAX)) as i16;
    let result = if plies % 2 == 1 { -result } else { result };
    Sample::new(&leaf, score, result)
}

/// The quiescence leaf of a position one or two random legal moves from `pos`, with the
/// plies from `pos` to it; `None` where a move runs out or the leaf is in check.
fn neighbour_leaf(pos: &Position, rng: &mut Rng) -> Option<(Position, usize)> {
    let mut p = pos.clone();
    let random = 1 + rng.below(2);
    for _ in 0..random {
        let moves = hayanagi::legal(&p);
        if moves.is_empty() {
            return None;
        }
        p.do_move(moves.as_slice()[rng.below(moves.len())]);
    }
    let (leaf, plies) = hayanagi::quiet_leaf(&p, &mut classic_eval);
    (!leaf.in_check()).then_some((leaf, random + plies))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    fn same(a: &Sample, b: &Sample) -> bool {
        a.kings == b.kings && a.pieces == b.pieces && a.result == b.result && a.score == b.score
    }

    #[test]
    fn a_neighbour_is_labelled_with_the_classic_evaluation_of_its_quiet_leaf() {
        let pos = Position::startpos();
        let mut tried = 0;
        for seed in 0..200 {
            let (leaf, plies) = match neighbour_leaf(&pos, &mut Rng::new(seed)) {
                Some(x) => x,
                None => continue,
            };
            tried += 1;
            assert!(!leaf.in_check());
            assert!(plies >= 1);
            let s = neighbour(&pos, 1, &mut Rng::new(seed)).expect("the same leaf");
            let expected = hayanagi::ClassicEvaluator::evaluate_from_scratch(&leaf);
            assert_eq!(s.score, expected as f32, "seed {seed}");
            // The result turns with the side to move.
            let result = if plies % 2 == 1 { 0.0 } else { 1.0 };
            assert_eq!(s.result, result, "seed {seed}");
            assert!(same(
                &s,
                &Sample::new(&leaf, expected as i16, 1 - 2 * (plies % 2) as i8).unwrap()
            ));
        }
        assert!(tried > 150, "{tried}");
    }

    #[test]
    fn loading_does_not_depend_on_the_threads_and_adds_neighbours_to_training_only() {
        let dir = std::env::temp_dir().join(format!("hayanagi-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("data.psv");
        let _ = std::fs::remove_file(&file);
        let config = hayanagi::GensfenConfig {
            output: file.clone(),
            positions: 2500,
            threads: 1,
            nodes: 100,
            ..Default::default()
        };
        hayanagi::generate_training_data(
            &config,
            &AtomicBool::new(false),
            Duration::from_secs(60),
            &mut |_| {},
        )
        .unwrap();
        let paths = [file.to_str().unwrap().to_string()];
        let load_with = |threads, neighbours| {
            let config = LoadConfig {
                max_positions: usize::MAX,
                validation_percent: 20,
                leaf: Leaf::Root,
                neighbours,
                seed: 7,
                threads,
            };
            load(&paths, &config).unwrap()
        };
        let plain = load_with(1, 0);
        assert_eq!(plain.train.len() + plain.valid.len(), 2500);
        // Blocks 0, 5, 10, ... of 1,000 records are held out: records 0-999.
        assert_eq!(plain.valid.len(), 1000);
        let one = load_with(1, 2);
        let three = load_with(3, 2);
        assert_eq!(one.train.len(), three.train.len());
        assert!(one.train.iter().zip(&three.train).all(|(a, b)| same(a, b)));
        assert!(one.valid.iter().zip(&plain.valid).all(|(a, b)| same(a, b)));
        assert_eq!(one.valid.len(), plain.valid.len());
        // Up to two neighbours per training record (a few leaves end in check).
        let added = one.train.len() - plain.train.len();
        assert!(
            added <= 2 * plain.train.len() && added > 2 * plain.train.len() * 9 / 10,
            "{added}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
