//! In-process mate-solver benchmark: solve every problem of a TSV file (`sfen<TAB>plies`)
//! and print solved / exact-length counts, nodes, time and the solver's work counters.
//!
//! `cargo run --release --example mate_bench -- [FILE] [--any-length] [--cap-ms N]
//!  [--nodes N] [--mate-hash MIB] [--ab A,B] [--verbose]`
//! (default: tests/data/tsume/tsume_sample100.tsv, 10 s per problem, shortest mates, a
//! 64 MiB table; `--nodes` adds a node cap per problem, which gives the same answers on a
//! busy machine, and `--mate-hash 4096` is the long problems' table).
//!
//! `--ab A,B` runs two solver variants (`default`, `no-proof-pieces`, `no-delayed-moves`,
//! `no-depth-reuse`, `no-repetition-start`, `no-inferior-repetition`,
//! `no-mate-in-one-horizon`, `no-mate-in-three-horizon`, `mate-in-one-by-generation`,
//! `no-evasion-cache`, `plain`, `mate-in-three-at-checks` (or `-N` for checks with at most N evasions), `path-cache`, `gc-by-nodes`, `eager-lookahead`, `lazy-lookahead-N`) on each problem in turn, alternating which goes first, and
//! prints a line per problem (nodes, ms and length of each) and the totals of each;
//! answers that differ are flagged (`DIFF`). The first variant is the reference.
//! `scripts/bench-mate.py` runs the same problems against cshogi side by side.

use hayanagi::{solve_mate_variant as solve, MateLimits, MateReport, MateResult, MateVariant};
use hayanagi::{MateCounters, Position, Validation};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Sums over the problems for one variant.
#[derive(Default)]
struct Totals {
    solved: u32,
    exact: u32,
    nodes: u64,
    micros: u64,
    collections: u64,
    counters: MateCounters,
}

impl Totals {
    fn add(&mut self, r: &MateReport, plies: usize, micros: u64) {
        self.nodes += r.nodes;
        self.micros += micros;
        self.collections += r.collections as u64;
        if let MateResult::Mate(l) = &r.result {
            self.solved += 1;
            self.exact += (l.len() == plies) as u32;
        }
        self.counters += r.counters;
    }

    fn print(&self, name: &str, count: usize) {
        let secs = self.micros as f64 / 1e6;
        let mut line = format!(
            "{name}: problems {count} solved {} exact_length {} nodes {} time_s {secs:.3} nps {:.0} collections {}",
            self.solved,
            self.exact,
            self.nodes,
            self.nodes as f64 / secs.max(1e-9),
            self.collections,
        );
        for (k, v) in self.counters.fields() {
            line += &format!(" {k} {v}");
        }
        println!("{line}");
    }
}

fn outcome(r: &MateReport) -> String {
    match &r.result {
        MateResult::Mate(l) => l.len().to_string(),
        MateResult::NoMate => "nomate".into(),
        MateResult::Timeout => "timeout".into(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value_of = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let file = args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            !a.starts_with("--")
                && (*i == 0
                    || !matches!(
                        args[i - 1].as_str(),
                        "--cap-ms" | "--ab" | "--nodes" | "--mate-hash"
                    ))
        })
        .map(|(_, a)| a.clone())
        .unwrap_or_else(|| "tests/data/tsume/tsume_sample100.tsv".into());
    let any_length = args.iter().any(|a| a == "--any-length");
    let verbose = args.iter().any(|a| a == "--verbose");
    let cap_ms: u64 = value_of("--cap-ms")
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let max_nodes: Option<u64> = value_of("--nodes").and_then(|v| v.parse().ok());
    let table_mib: usize = value_of("--mate-hash")
        .and_then(|v| v.parse().ok())
        .unwrap_or(64);
    let names: Vec<String> = match value_of("--ab") {
        Some(list) => list.split(',').map(str::to_string).collect(),
        None => vec!["default".into()],
    };
    let variants: Vec<MateVariant> = names
        .iter()
        .map(|n| {
            MateVariant::by_name(n).unwrap_or_else(|| {
                eprintln!("unknown variant {n} ({})", MateVariant::NAMES.join(", "));
                std::process::exit(2)
            })
        })
        .collect();
    let ab = variants.len() > 1;
    let text = std::fs::read_to_string(&file).expect("problem file");
    let stop = AtomicBool::new(false);
    let mut totals: Vec<Totals> = variants.iter().map(|_| Totals::default()).collect();
    let mut count = 0;
    let mut differing = 0;
    if ab || verbose {
        let cols: Vec<String> = names.iter().map(|n| format!("{n}: nodes ms len")).collect();
        println!("# problem plies | {}", cols.join(" | "));
    }
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut fields = line.split('\t');
        let sfen = fields.next().unwrap();
        let plies: usize = fields
            .next()
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or(0);
        let pos = Position::from_sfen_with(sfen, Validation::Composed).expect("sfen");
        let mut reports: Vec<Option<(MateReport, u64)>> = variants.iter().map(|_| None).collect();
        // Alternate which variant goes first, so that neither always finds warm caches.
        let order: Vec<usize> = if count % 2 == 0 {
            (0..variants.len()).collect()
        } else {
            (0..variants.len()).rev().collect()
        };
        for i in order {
            let start = Instant::now();
            let report = solve(
                &pos,
                MateLimits {
                    deadline: Some(Instant::now() + Duration::from_millis(cap_ms)),
                    max_nodes,
                    stop: &stop,
                    table_mib,
                    shortest: !any_length,
                    max_len: None,
                },
                variants[i],
            );
            let micros = start.elapsed().as_micros() as u64;
            totals[i].add(&report, plies, micros);
            reports[i] = Some((report, micros));
        }
        count += 1;
        if ab || verbose {
            let done: Vec<&(MateReport, u64)> = reports.iter().flatten().collect();
            // Lengths may differ in first-proof mode; mate against no mate may not.
            let kind = |r: &MateReport| match (&r.result, any_length) {
                (MateResult::Mate(_), true) => "mate".to_string(),
                _ => outcome(r),
            };
            let differs = done.iter().any(|(r, _)| {
                kind(r) != kind(&done[0].0) && !matches!(r.result, MateResult::Timeout)
            }) && !matches!(done[0].0.result, MateResult::Timeout);
            differing += differs as u32;
            let cols: Vec<String> = done
                .iter()
                .map(|(r, us)| format!("{} {:.1} {}", r.nodes, *us as f64 / 1000.0, outcome(r)))
                .collect();
            println!(
                "{count} {plies} | {}{}",
                cols.join(" | "),
                if differs { " DIFF" } else { "" }
            );
        }
    }
    for (name, t) in names.iter().zip(&totals) {
        t.print(name, count);
    }
    if ab {
        let (a, b) = (&totals[0], &totals[1]);
        println!(
            "{} / {}: nodes {:.3} time {:.3} differing_answers {differing}",
            names[1],
            names[0],
            b.nodes as f64 / a.nodes.max(1) as f64,
            b.micros as f64 / a.micros.max(1) as f64,
        );
    }
}
