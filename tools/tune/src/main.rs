//! Texel-style tuning of the hand-crafted evaluation (docs/DESIGN.md §14.3).
//!
//! ```text
//! hayanagi-tune --data FILE [--data FILE ...] --out WEIGHTS [--start WEIGHTS]
//!               [--positions N] [--epochs N] [--rate CP] [--lambda L] [--l2 X] [--k K]
//!               [--threads N] [--validation-percent P] [--report-every N]
//!               [--leaf root|quiet]
//! ```
//!
//! Reads `hayanagi gensfen` records, turns each position into the evaluation's features
//! (`hayanagi::classic_features`: the evaluation is a sum of weight x count), and fits the
//! weights by full-batch gradient descent (Adam) so that `sigmoid(eval / K)` predicts the
//! target `lambda * result + (1 - lambda) * sigmoid(score / K)`, where `result` is the
//! game's result (1, 0.5, 0) and `score` the search score. K is fitted first, on results
//! only, with the starting weights (the classic Texel step), so the evaluation keeps its
//! scale. `--l2 X` adds `X * (w - w_start)^2 / 2` per weight to the loss: with few games
//! the king-relative tables (4,335 weights each) otherwise fit the noise. Blocks of 1,000 consecutive records (about a dozen games) are held out for
//! validation; the weights of the epoch with the lowest validation loss are written.
//! `--leaf quiet` fits each record by the quiet position its quiescence search with the
//! starting weights ends in (`leaf.rs`) instead of the record's own position.

mod leaf;

use hayanagi::{classic_features, classic_layout, classic_weights, TrainingRecord, Weights};
use std::io::Read;
use std::time::Instant;

struct Args {
    data: Vec<String>,
    out: String,
    start: Option<String>,
    positions: usize,
    epochs: usize,
    rate: f64,
    lambda: f64,
    l2: f64,
    k: Option<f64>,
    threads: usize,
    validation_percent: usize,
    report_every: usize,
    /// Fit the quiescence search's last position instead of the record's (`--leaf quiet`).
    quiet_leaf: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: hayanagi-tune --data FILE [--data FILE ...] --out WEIGHTS [--start WEIGHTS] \
         [--positions N] [--epochs N] [--rate CP] [--lambda L] [--l2 X] [--k K] [--threads N] \
         [--validation-percent P] [--report-every N] [--leaf root|quiet]"
    );
    std::process::exit(2)
}

fn fail(msg: String) -> ! {
    eprintln!("hayanagi-tune: {msg}");
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        data: Vec::new(),
        out: String::new(),
        start: None,
        positions: usize::MAX,
        epochs: 300,
        rate: 1.0,
        lambda: 0.5,
        l2: 0.0,
        k: None,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        validation_percent: 10,
        report_every: 25,
        quiet_leaf: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let Some(v) = args.get(i + 1) else { usage() };
        let num = |v: &str| -> f64 {
            v.parse()
                .unwrap_or_else(|_| fail(format!("{} needs a number, got '{v}'", args[i])))
        };
        match args[i].as_str() {
            "--data" => a.data.push(v.clone()),
            "--out" => a.out = v.clone(),
            "--start" => a.start = Some(v.clone()),
            "--positions" => a.positions = num(v) as usize,
            "--epochs" => a.epochs = num(v) as usize,
            "--rate" => a.rate = num(v),
            "--lambda" => a.lambda = num(v),
            "--l2" => a.l2 = num(v),
            "--k" => a.k = Some(num(v)),
            "--threads" => a.threads = (num(v) as usize).max(1),
            "--validation-percent" => a.validation_percent = num(v) as usize,
            "--report-every" => a.report_every = (num(v) as usize).max(1),
            "--leaf" => {
                a.quiet_leaf = match v.as_str() {
                    "root" => false,
                    "quiet" => true,
                    _ => fail(format!("--leaf is root or quiet, got '{v}'")),
                }
            }
            _ => usage(),
        }
        i += 2;
    }
    if a.data.is_empty() || a.out.is_empty() {
        usage();
    }
    if !(0.0..=1.0).contains(&a.lambda) || !(1..=50).contains(&a.validation_percent) {
        fail("--lambda must be 0-1 and --validation-percent 1-50".into());
    }
    a
}

/// Positions as sparse feature rows (CSR), with their targets.
#[derive(Default)]
struct Set {
    start: Vec<u32>,
    index: Vec<u16>,
    coefficient: Vec<i16>,
    /// Game result for the side to move: 1, 0.5 or 0.
    result: Vec<f32>,
    /// Search score for the side to move (centipawns).
    score: Vec<f32>,
}

impl Set {
    fn len(&self) -> usize {
        self.result.len()
    }

    fn push(&mut self, features: &[(u16, i16)], result: f32, score: f32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        for &(i, c) in features {
            self.index.push(i);
            self.coefficient.push(c);
        }
        self.start.push(self.index.len() as u32);
        self.result.push(result);
        self.score.push(score);
    }

    fn eval(&self, p: usize, w: &[f64]) -> f64 {
        let (a, b) = (self.start[p] as usize, self.start[p + 1] as usize);
        self.index[a..b]
            .iter()
            .zip(&self.coefficient[a..b])
            .map(|(&i, &c)| w[i as usize] * f64::from(c))
            .sum()
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The training and validation sets, the unreadable records skipped, and the records whose
/// quiet leaf (with `--leaf quiet`) lies away from their own position.
fn load(args: &Args, start: &[f64]) -> (Set, Set, usize, usize) {
    let (mut train, mut valid) = (Set::default(), Set::default());
    let mut features = Vec::with_capacity(128);
    let mut scratch = Vec::with_capacity(128);
    let mut moved = 0;
    let mut skipped = 0;
    let mut seen = 0usize;
    let every = 100 / args.validation_percent;
    for path in &args.data {
        let file = std::fs::File::open(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
        let mut r = std::io::BufReader::with_capacity(1 << 20, file);
        let mut buf = [0u8; hayanagi::RECORD_BYTES];
        while seen < args.positions {
            match r.read_exact(&mut buf) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => break,
                Err(e) => fail(format!("{path}: {e}")),
            }
            let rec = TrainingRecord::from_bytes(&buf);
            let Ok(pos) = rec.sfen.unpack(u32::from(rec.game_ply)) else {
                skipped += 1;
                continue;
            };
            if args.quiet_leaf {
                let plies = leaf::leaf_features(&pos, start, &mut features, &mut scratch);
                moved += usize::from(plies > 0);
            } else {
                classic_features(&pos, &mut features);
            }
            let result = (f32::from(rec.game_result.clamp(-1, 1)) + 1.0) / 2.0;
            let set = if (seen / 1000).is_multiple_of(every) {
                &mut valid
            } else {
                &mut train
            };
            set.push(&features, result, f32::from(rec.score));
            seen += 1;
        }
    }
    (train, valid, skipped, moved)
}

/// Mean squared error of `sigmoid(eval / k)` against the blended target, over `set`,
/// using `threads` threads; with `grad`, also its gradient by weight.
fn loss(
    set: &Set,
    w: &[f64],
    k: f64,
    lambda: f64,
    threads: usize,
    grad: Option<&mut [f64]>,
) -> f64 {
    let n = set.len();
    if n == 0 {
        return 0.0;
    }
    let want_grad = grad.is_some();
    let chunk = n.div_ceil(threads);
    let parts: Vec<(f64, Vec<f64>)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut g = if want_grad {
                        vec![0.0; w.len()]
                    } else {
                        Vec::new()
                    };
                    let mut sum = 0.0;
                    for p in (t * chunk)..((t + 1) * chunk).min(n) {
                        let predicted = sigmoid(set.eval(p, w) / k);
                        let target = lambda * f64::from(set.result[p])
                            + (1.0 - lambda) * sigmoid(f64::from(set.score[p]) / k);
                        let err = predicted - target;
                        sum += err * err;
                        if want_grad {
                            let d = 2.0 * err * predicted * (1.0 - predicted) / k;
                            let (a, b) = (set.start[p] as usize, set.start[p + 1] as usize);
                            for (&i, &c) in set.index[a..b].iter().zip(&set.coefficient[a..b]) {
                                g[i as usize] += d * f64::from(c);
                            }
                        }
                    }
                    (sum, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("loss thread"))
            .collect()
    });
    let mut total = 0.0;
    if let Some(grad) = grad {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for (sum, g) in &parts {
            total += sum;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b / n as f64;
            }
        }
    } else {
        total = parts.iter().map(|p| p.0).sum();
    }
    total / n as f64
}

/// K minimising the results-only loss of the starting weights (golden-section search).
fn fit_k(set: &Set, w: &[f64], threads: usize) -> f64 {
    let f = |k: f64| loss(set, w, k, 1.0, threads, None);
    let (mut lo, mut hi) = (30.0f64, 3000.0f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn main() {
    let args = parse_args();
    let started = Instant::now();
    let start_weights = match &args.start {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).unwrap_or_else(|e| fail(format!("{path}: {e}")));
            Weights::from_text(&text).unwrap_or_else(|e| fail(format!("{path}: {e}")))
        }
        None => Box::new(clone_weights(classic_weights())),
    };

    let w0: Vec<f64> = start_weights
        .to_flat()
        .iter()
        .map(|&v| f64::from(v))
        .collect();
    let (train, valid, skipped, moved) = load(&args, &w0);
    eprintln!(
        "loaded {} training and {} validation positions ({} unreadable records skipped, {} fitted at a quiet leaf away from them) in {:.1} s, {:.1} features a position",
        train.len(),
        valid.len(),
        skipped,
        moved,
        started.elapsed().as_secs_f64(),
        train.index.len() as f64 / train.len().max(1) as f64
    );
    if train.len() == 0 {
        fail("no training positions".into());
    }
    if (0..w0.len()).any(|i| w0[i] != w0[classic_layout::mirror(i)]) {
        fail("the starting weights are not left-right symmetric".into());
    }
    let k = args.k.unwrap_or_else(|| fit_k(&train, &w0, args.threads));
    let report = |w: &[f64]| {
        (
            loss(&train, w, k, args.lambda, args.threads, None),
            loss(&valid, w, k, args.lambda, args.threads, None),
            loss(&valid, w, k, 1.0, args.threads, None),
        )
    };
    let before = report(&w0);
    eprintln!(
        "K {k:.1}; start: train loss {:.6}, validation loss {:.6} (results only {:.6})",
        before.0, before.1, before.2
    );
    // Adam (Kingma & Ba 2015) with its usual betas; `rate` is the step in centipawns.
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-12);
    let mut w = w0.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let mut grad = vec![0.0; w.len()];
    let mut best = (before.1, w.clone(), 0usize);
    // The kings' board value cancels in every position: it stays as it is.
    let frozen = classic_layout::BOARD + 8;
    for epoch in 1..=args.epochs {
        loss(&train, &w, k, args.lambda, args.threads, Some(&mut grad));
        if args.l2 > 0.0 {
            for i in 0..grad.len() {
                grad[i] += args.l2 * (w[i] - w0[i]);
            }
        }
        // Mirrored weights share their gradient, so the evaluation stays left-right
        // symmetric (the starting weights are).
        for i in 0..grad.len() {
            let j = classic_layout::mirror(i);
            if j > i {
                let g = (grad[i] + grad[j]) / 2.0;
                grad[i] = g;
                grad[j] = g;
            }
        }
        let (c1, c2) = (
            1.0 - beta1.powi(epoch as i32),
            1.0 - beta2.powi(epoch as i32),
        );
        for i in 0..w.len() {
            if i == frozen || grad[i] == 0.0 {
                continue;
            }
            m[i] = beta1 * m[i] + (1.0 - beta1) * grad[i];
            v[i] = beta2 * v[i] + (1.0 - beta2) * grad[i] * grad[i];
            w[i] -= args.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if epoch % args.report_every == 0 || epoch == args.epochs {
            let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
            let r = report(&rounded);
            eprintln!(
                "epoch {epoch}: train loss {:.6}, validation loss {:.6} (results only {:.6}), {:.0} s",
                r.0,
                r.1,
                r.2,
                started.elapsed().as_secs_f64()
            );
            if r.1 < best.0 {
                best = (r.1, rounded, epoch);
            }
        }
    }
    let flat: Vec<i32> = best.1.iter().map(|&x| x as i32).collect();
    let after = report(&best.1);
    let tuned = Weights::from_flat(&flat).expect("same length");
    let comment = format!(
        "Fitted by hayanagi-tune (tools/tune, docs/DESIGN.md §14.3) on {} positions, {} held out;\n\
         K {k:.1}, lambda {}, l2 {}, epochs {} (best {}), rate {}.\n\
         Validation loss {:.6} -> {:.6}; results only {:.6} -> {:.6}.\n\
         Data: {}",
        train.len(),
        valid.len(),
        args.lambda,
        args.l2,
        args.epochs,
        best.2,
        args.rate,
        before.1,
        after.1,
        before.2,
        after.2,
        args.data.join(" ")
    );
    std::fs::write(&args.out, tuned.to_text(&comment))
        .unwrap_or_else(|e| fail(format!("{}: {e}", args.out)));
    println!(
        "k {k:.1} validation_loss_before {:.6} validation_loss_after {:.6} results_only_before {:.6} results_only_after {:.6} best_epoch {} positions {} seconds {:.1}",
        before.1,
        after.1,
        before.2,
        after.2,
        best.2,
        train.len() + valid.len(),
        started.elapsed().as_secs_f64()
    );
}

fn clone_weights(w: &Weights) -> Weights {
    *Weights::from_flat(&w.to_flat()).expect("same length")
}
