//! NNUE evaluation speed, single thread, every kernel set the CPU runs, side by side with
//! the hand-crafted evaluation on the same positions.
//!
//! `cargo run --release --example nnue_bench -- [NN.BIN] [--positions N]`
//! Without a file, the random net of the tests (seed 12) is written to
//! `target/nnue-random-seed12.bin` and used. `scripts/bench-nnue.sh` also compares search
//! speed with and without the net.
//!
//! * refresh: both accumulators from scratch plus the forward pass, per position;
//! * incremental: every legal move of each position played, evaluated and taken back, as a
//!   search's children are (one accumulator update per perspective plus the forward pass);
//! * forward: the forward pass alone on up-to-date accumulators.

// The tests' generator of random nets (a port of `make_random_nn.py`).
#[allow(dead_code)]
#[path = "../tests/common/nnue_ref.rs"]
mod nnue_ref;

use hayanagi::{legal, Position};
use hayanagi::{load_network, NnueEvaluator, SimdLevel};
use hayanagi::{ClassicEvaluator, EvalConfig, Evaluator};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// xorshift64: a fixed sequence of random playouts for every run.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions of random games from the start (middle games with pieces in hand).
fn positions(count: usize) -> Vec<Position> {
    let mut rng = Rng::new(2026);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::startpos();
        for _ in 0..120 {
            let moves = legal(&pos);
            if moves.is_empty() || out.len() >= count {
                break;
            }
            let ms = moves.as_slice();
            let mut m = ms[(rng.next_u64() % ms.len() as u64) as usize];
            // Prefer captures so that hands fill.
            for _ in 0..2 {
                if pos.is_capture(m) {
                    break;
                }
                m = ms[(rng.next_u64() % ms.len() as u64) as usize];
            }
            pos.do_move(m);
            out.push(pos.clone());
        }
    }
    out
}

/// Seconds to play, evaluate and take back every legal move of every position, as a
/// search visits children, through the evaluator the search uses.
fn children_time(positions: &[Position], cfg: &EvalConfig, checksum: &mut i64) -> f64 {
    let mut total = 0.0;
    for p in positions {
        let mut pos = p.clone();
        let mut ev = Evaluator::new(&pos, cfg);
        let moves = legal(&pos);
        let t = Instant::now();
        for &m in moves.iter() {
            ev.do_move(&pos, m);
            pos.do_move(m);
            *checksum += ev.evaluate(&pos) as i64;
            pos.undo_move();
            ev.undo_move();
        }
        total += t.elapsed().as_secs_f64();
    }
    total
}

fn rate(n: u64, secs: f64) -> String {
    format!("{:>12.0}/s", n as f64 / secs)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count_arg = args.iter().position(|a| a == "--positions").map(|i| i + 1);
    let path = match args
        .iter()
        .enumerate()
        .find(|(i, a)| !a.starts_with("--") && Some(*i) != count_arg)
    {
        Some((_, p)) => std::path::PathBuf::from(p),
        None => {
            let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("target")
                .join("nnue-random-seed12.bin");
            if std::fs::metadata(&p).map(|m| m.len()).ok() != Some(nnue_ref::FILE_SIZE_CLASSIC) {
                nnue_ref::write_random_net(&p, 12);
            }
            eprintln!("random net (seed 12): {}", p.display());
            p
        }
    };
    let count = args
        .iter()
        .position(|a| a == "--positions")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000usize);
    let positions = positions(count);
    let children: u64 = positions.iter().map(|p| legal(p).len() as u64).sum();
    println!("{count} positions, {children} children (moves), single thread, best of 3 rounds");
    println!(
        "{:<10} {:>14} {:>14} {:>14}",
        "kernels", "refresh", "incremental", "forward"
    );
    for level in SimdLevel::supported() {
        let mut net = load_network(&path).expect("load the net").network;
        net.set_simd(level);
        let net = Arc::new(net);
        let (mut refresh, mut incremental, mut forward) = (f64::MAX, f64::MAX, f64::MAX);
        let mut checksum = 0i64;
        for _round in 0..3 {
            let t = Instant::now();
            for p in &positions {
                checksum += NnueEvaluator::evaluate_from_scratch(&net, 16, p).unwrap() as i64;
            }
            refresh = refresh.min(t.elapsed().as_secs_f64());

            let cfg = EvalConfig {
                net: Some(net.clone()),
                fv_scale: 16,
            };
            incremental = incremental.min(children_time(&positions, &cfg, &mut checksum));
            let mut fwd = 0.0;
            for p in &positions {
                let mut ev = NnueEvaluator::new(net.clone(), 16, p).unwrap();
                let n = legal(p).len();
                let t = Instant::now();
                for _ in 0..n {
                    checksum += black_box(&mut ev).evaluate(p) as i64;
                }
                fwd += t.elapsed().as_secs_f64();
            }
            forward = forward.min(fwd);
        }
        black_box(checksum);
        println!(
            "{:<10} {} {} {}",
            level.name(),
            rate(count as u64, refresh),
            rate(children, incremental),
            rate(children, forward)
        );
    }
    // The hand-crafted evaluation on the same work, for scale.
    let (mut refresh, mut incremental) = (f64::MAX, f64::MAX);
    let mut checksum = 0i64;
    for _round in 0..3 {
        let t = Instant::now();
        for p in &positions {
            checksum += ClassicEvaluator::evaluate_from_scratch(p) as i64;
        }
        refresh = refresh.min(t.elapsed().as_secs_f64());
        incremental = incremental.min(children_time(
            &positions,
            &EvalConfig::default(),
            &mut checksum,
        ));
    }
    black_box(checksum);
    println!(
        "{:<10} {} {} {:>14}",
        "classic",
        rate(count as u64, refresh),
        rate(children, incremental),
        "-"
    );
    println!("(incremental includes Position::do_move/undo_move for every kind)");
}
