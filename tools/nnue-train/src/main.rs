//! Trains a HalfKP 256x2-32-32 NNUE net from gensfen records (docs/DESIGN.md §14.4).
//!
//! ```text
//! hayanagi-nnue-train --data FILE [--data FILE ...] --out NN.BIN
//!     [--epochs N] [--batch N] [--lr X] [--lr-decay X] [--weight-decay X] [--lambda L] [--k K]
//!     [--loss mse|xent] [--buckets 1|9|45] [--threads N] [--validation-percent P]
//!     [--seed N] [--max-positions N] [--max-seconds S] [--validate-every N]
//!     [--checkpoint FILE] [--resume FILE] [--leaf root|quiet] [--neighbours N]
//! ```
//!
//! Each epoch (or every `--validate-every` training positions: with little data the net
//! can overfit within an epoch) reports the training loss, the validation loss and
//! positions/s on stderr; the net with the lowest validation loss is exported (and its
//! float weights written to `--checkpoint`). The last line on stdout gives the figures in
//! `name value` pairs. `--leaf quiet` trains each record at the last position of its
//! quiescence line under the library's hand-crafted evaluation (docs/DESIGN.md §14.3).
//! `--neighbours N` adds, per training record, N positions one or two random moves away,
//! at their quiescence leaves, labelled with the hand-crafted evaluation (distillation,
//! docs/DESIGN.md §14.4).

use hayanagi_nnue_train::export::Quantised;
use hayanagi_nnue_train::features::Buckets;
use hayanagi_nnue_train::model::{Gradient, Model};
use hayanagi_nnue_train::rng::Rng;
use hayanagi_nnue_train::train::{self, Adam, Loss, Objective};
use hayanagi_nnue_train::{checkpoint, data};
use std::path::PathBuf;
use std::time::Instant;

struct Args {
    data: Vec<String>,
    out: PathBuf,
    epochs: usize,
    batch: usize,
    lr: f32,
    lr_decay: f32,
    weight_decay: f32,
    lambda: f32,
    k: f32,
    loss: Loss,
    buckets: Buckets,
    threads: usize,
    validation_percent: usize,
    seed: u64,
    max_positions: usize,
    max_seconds: f64,
    validate_every: usize,
    checkpoint: Option<PathBuf>,
    resume: Option<PathBuf>,
    leaf: data::Leaf,
    neighbours: usize,
}

fn usage() -> ! {
    eprintln!(
        "usage: hayanagi-nnue-train --data FILE [--data FILE ...] --out NN.BIN [--epochs N] \
         [--batch N] [--lr X] [--lr-decay X] [--weight-decay X] [--lambda L] [--k K] [--loss mse|xent] \
         [--buckets 1|9|45] [--threads N] [--validation-percent P] [--seed N] \
         [--max-positions N] [--max-seconds S] [--validate-every N] [--checkpoint FILE] \
         [--resume FILE] [--leaf root|quiet] [--neighbours N]"
    );
    std::process::exit(2)
}

fn fail(msg: String) -> ! {
    eprintln!("hayanagi-nnue-train: {msg}");
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        data: Vec::new(),
        out: PathBuf::new(),
        epochs: 10,
        batch: 1024,
        lr: 3e-4,
        lr_decay: 1.0,
        weight_decay: 0.0,
        lambda: 0.5,
        // What hayanagi-tune fits on our self-play data (1,506 for tune1): the net then
        // keeps the engine's centipawn scale, a pawn about 100.
        k: 1500.0,
        loss: Loss::Mse,
        buckets: Buckets::Nine,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        validation_percent: 10,
        seed: 1,
        max_positions: usize::MAX,
        max_seconds: f64::INFINITY,
        validate_every: usize::MAX,
        checkpoint: None,
        resume: None,
        leaf: data::Leaf::Root,
        neighbours: 0,
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
            "--out" => a.out = PathBuf::from(v),
            "--epochs" => a.epochs = num(v) as usize,
            "--batch" => a.batch = (num(v) as usize).max(1),
            "--lr" => a.lr = num(v) as f32,
            "--lr-decay" => a.lr_decay = num(v) as f32,
            "--weight-decay" => a.weight_decay = num(v) as f32,
            "--lambda" => a.lambda = num(v) as f32,
            "--k" => a.k = num(v) as f32,
            "--loss" => {
                a.loss = match v.as_str() {
                    "mse" => Loss::Mse,
                    "xent" => Loss::CrossEntropy,
                    _ => fail(format!("--loss is mse or xent, got '{v}'")),
                }
            }
            "--buckets" => {
                a.buckets = Buckets::from_count(num(v) as usize)
                    .unwrap_or_else(|| fail(format!("--buckets is 1, 9 or 45, got '{v}'")))
            }
            "--threads" => a.threads = (num(v) as usize).max(1),
            "--validation-percent" => a.validation_percent = num(v) as usize,
            "--seed" => a.seed = num(v) as u64,
            "--max-positions" => a.max_positions = num(v) as usize,
            "--max-seconds" => a.max_seconds = num(v),
            "--validate-every" => a.validate_every = (num(v) as usize).max(1),
            "--checkpoint" => a.checkpoint = Some(PathBuf::from(v)),
            "--resume" => a.resume = Some(PathBuf::from(v)),
            "--neighbours" => a.neighbours = num(v) as usize,
            "--leaf" => {
                a.leaf = match v.as_str() {
                    "root" => data::Leaf::Root,
                    "quiet" => data::Leaf::Quiet,
                    _ => fail(format!("--leaf is root or quiet, got '{v}'")),
                }
            }
            _ => usage(),
        }
        i += 2;
    }
    if a.data.is_empty() || a.out.as_os_str().is_empty() {
        usage();
    }
    if !(0.0..=1.0).contains(&a.lambda)
        || !(1..=50).contains(&a.validation_percent)
        || a.k <= 0.0
        || a.lr <= 0.0
    {
        fail("--lambda must be 0-1, --validation-percent 1-50, --k and --lr positive".into());
    }
    a
}

fn main() {
    let args = parse_args();
    let started = Instant::now();
    let load = data::LoadConfig {
        max_positions: args.max_positions,
        validation_percent: args.validation_percent,
        leaf: args.leaf,
        neighbours: args.neighbours,
        seed: args.seed,
        threads: args.threads,
    };
    let set = data::load(&args.data, &load).unwrap_or_else(|e| fail(e));
    eprintln!(
        "loaded {} training and {} validation positions ({} unreadable records, {} positions \
         the net cannot evaluate, skipped) in {:.1} s",
        set.train.len(),
        set.valid.len(),
        set.unreadable,
        set.unevaluable,
        started.elapsed().as_secs_f64()
    );
    if set.train.is_empty() || set.valid.is_empty() {
        fail("need training and validation positions".into());
    }
    let mut model = match &args.resume {
        Some(path) => checkpoint::load(path).unwrap_or_else(|e| fail(e)),
        None => Model::new(args.buckets, args.seed),
    };
    let objective = Objective {
        loss: args.loss,
        k: args.k,
        lambda: args.lambda,
    };
    let threads = args.threads;
    let validate = |m: &Model| train::mean_loss(&set.valid, &objective, threads, |s| m.evaluate(s));
    let before = validate(&model);
    eprintln!(
        "{} factor rows ({} buckets), K {}, lambda {}, {:?} loss, batch {}, lr {}, {} threads; \
         validation loss {before:.6} at the start",
        model.factoriser.rows(),
        model.factoriser.buckets.count(),
        args.k,
        args.lambda,
        args.loss,
        args.batch,
        args.lr,
        threads
    );
    let mut adam = Adam::new(&mut model, args.lr, args.weight_decay);
    let mut grads: Vec<Gradient> = (0..threads).map(|_| Gradient::new(&model)).collect();
    let mut order: Vec<u32> = (0..set.train.len() as u32).collect();
    let mut rng = Rng::new(args.seed ^ 0x5EED);
    let mut best = (before, model.clone(), "start".to_string());
    let (mut trained, mut training_seconds) = (0usize, 0.0f64);
    let out_of_time = || started.elapsed().as_secs_f64() > args.max_seconds;
    let mut out_of_data = false;
    for epoch in 1..=args.epochs {
        rng.shuffle(&mut order);
        for (part, ids) in order.chunks(args.validate_every).enumerate() {
            let t0 = Instant::now();
            let (loss_sum, n) = train::steps(
                &mut model,
                &mut adam,
                &mut grads,
                &set.train,
                ids,
                args.batch,
                &objective,
                &out_of_time,
            );
            let seconds = t0.elapsed().as_secs_f64();
            trained += n;
            training_seconds += seconds;
            if n == 0 {
                out_of_data = true;
                break;
            }
            let valid_loss = validate(&model);
            let at = if ids.len() == set.train.len() {
                format!("epoch {epoch}")
            } else {
                format!("epoch {epoch}.{}", part + 1)
            };
            eprintln!(
                "{at}: train loss {:.6}, validation loss {valid_loss:.6}, {:.0} positions/s \
                 ({threads} threads), {:.0} s",
                loss_sum / n as f64,
                n as f64 / seconds,
                started.elapsed().as_secs_f64()
            );
            if valid_loss < best.0 {
                best = (valid_loss, model.clone(), at);
                if let Some(path) = &args.checkpoint {
                    checkpoint::save(&model, path)
                        .unwrap_or_else(|e| fail(format!("{}: {e}", path.display())));
                }
            }
            if n < ids.len() {
                out_of_data = true; // the time budget ran out within this part
                break;
            }
        }
        adam.lr *= args.lr_decay;
        if out_of_data {
            break;
        }
    }
    let (after, net, best_at) = best;
    let quantised = Quantised::new(&net);
    let quantised_loss = train::mean_loss(&set.valid, &objective, threads, |s| {
        quantised.evaluate(s) as f32
    });
    quantised
        .write_file(&args.out)
        .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
    eprintln!(
        "wrote {} ({best_at}): validation loss {before:.6} -> {after:.6}, \
         {quantised_loss:.6} quantised, {} values saturated",
        args.out.display(),
        quantised.saturated
    );
    println!(
        "validation_loss_before {before:.6} validation_loss_after {after:.6} \
         quantised_validation_loss {quantised_loss:.6} best {} positions {} \
         positions_per_second {:.0} threads {threads} saturated {} seconds {:.1}",
        best_at.replace(' ', "_"),
        set.train.len() + set.valid.len(),
        trained as f64 / training_seconds.max(1e-9),
        quantised.saturated,
        started.elapsed().as_secs_f64()
    );
}
