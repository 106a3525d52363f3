//! The exported net is the trained one: the engine's loader accepts the file without a
//! warning, the engine's evaluation equals the trainer's integer forward pass exactly and
//! is close to the float model's; and the factorisation's promises hold (a position and
//! its mirror image evaluate alike, each HalfKP row is its P row plus its bucket row).

use hayanagi::{NnueEvaluator, Position, HANDICAP_STARTS, NNUE_FE_END};
use hayanagi_nnue_train::data::Sample;
use hayanagi_nnue_train::export::Quantised;
use hayanagi_nnue_train::features::{mirror_piece, mirror_square, Buckets};
use hayanagi_nnue_train::model::{Model, HALF};
use hayanagi_nnue_train::rng::Rng;
use std::sync::Arc;

/// A model whose outputs span thousands of centipawns and whose units clip on both sides
/// (a fresh model's all sit near the middle, which would test little).
fn random_model(buckets: Buckets, seed: u64) -> Model {
    let mut m = Model::new(buckets, seed);
    let mut rng = Rng::new(seed + 1);
    for v in m.ft.iter_mut() {
        *v = rng.symmetric(0.08);
    }
    for v in m.ft_bias.iter_mut() {
        *v = 0.5 + rng.symmetric(0.3);
    }
    for (w, a) in [(&mut m.l1_w, 0.1), (&mut m.l2_w, 0.4), (&mut m.out_w, 1.5)] {
        for v in w.iter_mut() {
            *v = rng.symmetric(a);
        }
    }
    for b in [&mut m.l1_b, &mut m.l2_b] {
        for v in b.iter_mut() {
            *v = rng.symmetric(0.5);
        }
    }
    m.out_b[0] = 0.3;
    m
}

/// Positions of random games from the start and from the handicap starts (absent pieces,
/// white to move), every ply kept.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let starts: Vec<Position> = std::iter::once(Position::startpos())
        .chain(HANDICAP_STARTS.iter().map(|s| s.parse().unwrap()))
        .collect();
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos = starts[rng.below(starts.len())].clone();
        for _ in 0..120 {
            let moves = hayanagi::legal(&pos);
            if moves.is_empty() || out.len() == n {
                break;
            }
            pos.do_move(moves.as_slice()[rng.below(moves.len())]);
            out.push(pos.to_string().parse().unwrap());
        }
    }
    out
}

/// The SFEN of `pos` seen in a mirror: each rank's squares in the opposite order.
fn mirrored(pos: &Position) -> Position {
    let sfen = pos.to_string();
    let (board, rest) = sfen.split_once(' ').unwrap();
    let ranks: Vec<String> = board
        .split('/')
        .map(|rank| {
            let mut squares: Vec<String> = Vec::new();
            let mut promoted = false;
            for c in rank.chars() {
                if c == '+' {
                    promoted = true;
                    continue;
                }
                squares.push(if promoted {
                    format!("+{c}")
                } else {
                    c.to_string()
                });
                promoted = false;
            }
            squares.reverse();
            squares.concat()
        })
        .collect();
    format!("{} {rest}", ranks.join("/")).parse().unwrap()
}

fn export(model: &Model, name: &str) -> (Quantised, Arc<hayanagi::Network>) {
    let q = Quantised::new(model);
    assert_eq!(q.saturated, 0);
    let path = std::env::temp_dir().join(format!("{name}-{}.bin", std::process::id()));
    q.write_file(&path).unwrap();
    let loaded = hayanagi::load_network(&path).unwrap();
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    std::fs::remove_file(&path).unwrap();
    (q, Arc::new(loaded.network))
}

#[test]
fn engine_evaluation_equals_the_trainers_integer_pass() {
    for buckets in [Buckets::Nine, Buckets::One] {
        let model = random_model(buckets, 7);
        let (q, net) = export(&model, "nnue-train-net");
        let (mut worst, mut spread, mut total, mut signed) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        let positions = positions(600, 3);
        for pos in &positions {
            let sample = Sample::new(pos, 0, 0).unwrap();
            let engine = NnueEvaluator::evaluate_from_scratch(&net, 16, pos).unwrap();
            assert_eq!(engine, q.evaluate(&sample), "{pos}");
            let float = model.evaluate(&sample);
            worst = worst.max((float - engine as f32).abs());
            total += (float - engine as f32).abs();
            signed += float - engine as f32;
            spread = spread.max(float.abs());
        }
        let (mean, bias) = (
            total / positions.len() as f32,
            signed / positions.len() as f32,
        );
        eprintln!(
            "{buckets:?}: outputs up to {spread} cp, |float - integer| {mean} cp on \
             average, {worst} at most, float - integer {bias} on average"
        );
        assert!(
            spread > 1000.0,
            "outputs up to {spread}: the net tests too little"
        );
        // Rounding every weight moves this deliberately sharp net's output by a few
        // percent of its range, without a bias (a trained net's validation loss barely
        // moves: see the pipeline test).
        assert!(mean < 0.05 * spread && worst < 0.15 * spread);
        assert!(bias.abs() < 0.01 * spread);
    }
}

#[test]
fn mirror_images_evaluate_alike() {
    let model = random_model(Buckets::Nine, 11);
    let (q, net) = export(&model, "nnue-train-mirror");
    let mut asymmetric = 0;
    for pos in positions(300, 5) {
        let image = mirrored(&pos);
        if image.to_string() != pos.to_string() {
            asymmetric += 1;
        }
        let (a, b) = (
            Sample::new(&pos, 0, 0).unwrap(),
            Sample::new(&image, 0, 0).unwrap(),
        );
        assert_eq!(q.raw_output(&a), q.raw_output(&b), "{pos}");
        let engine = |p: &Position| NnueEvaluator::evaluate_from_scratch(&net, 16, p).unwrap();
        assert_eq!(engine(&pos), engine(&image));
        // The same rows summed in another order: equal up to float rounding.
        assert!((model.evaluate(&a) - model.evaluate(&b)).abs() < 0.05);
    }
    assert!(asymmetric > 250);
}

/// The documented buckets of `Buckets::Nine`, written out again: files 1-2, 3-4, 5 of
/// the mirrored king times ranks 9, 8, 1-7.
fn nine_bucket(file: usize, rank: usize) -> usize {
    let f = [0, 0, 1, 1, 2][file];
    let r = match rank {
        8 => 0,
        7 => 1,
        _ => 2,
    };
    3 * r + f
}

#[test]
fn expanded_rows_are_the_p_row_plus_the_bucket_row() {
    let model = random_model(Buckets::Nine, 13);
    let q = Quantised::new(&model);
    let mut rng = Rng::new(17);
    for _ in 0..20_000 {
        let (k, p) = (rng.below(81), rng.below(NNUE_FE_END));
        let (file, rank) = (k / 9, k % 9);
        let (file, piece) = match file {
            0..=3 => (file, p),
            4 => (file, p.min(mirror_piece(p))),
            _ => (8 - file, mirror_piece(p)),
        };
        let p_row = p.min(mirror_piece(p)) * HALF;
        let bucket_row = (NNUE_FE_END * (1 + nine_bucket(file, rank)) + piece) * HALF;
        let expanded = q.feature_row(k, p);
        for (j, &value) in expanded.iter().enumerate() {
            let sum = model.ft[p_row + j] + model.ft[bucket_row + j];
            assert_eq!(value, (sum * 127.0).round() as i16, "k {k} p {p} j {j}");
        }
        assert_eq!(expanded, q.feature_row(mirror_square(k), mirror_piece(p)));
    }
}
