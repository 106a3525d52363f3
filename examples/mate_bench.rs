//! In-process mate-solver benchmark: solve every problem of a TSV file (`sfen<TAB>plies`)
//! and print solved / exact-length counts, nodes and time.
//!
//! `cargo run --release --example mate_bench -- [FILE] [--any-length] [--cap-ms N]`
//! (default: tests/data/tsume/tsume_sample100.tsv, 10 s per problem, shortest mates).
//! `scripts/bench-mate.py` runs the same problems against cshogi side by side.

use hayanagi::{solve_mate as solve, MateLimits, MateResult};
use hayanagi::{Position, Validation};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = args
        .iter()
        .find(|a| !a.starts_with("--") && a.parse::<u64>().is_err())
        .cloned()
        .unwrap_or_else(|| "tests/data/tsume/tsume_sample100.tsv".into());
    let any_length = args.iter().any(|a| a == "--any-length");
    let cap_ms = args
        .iter()
        .position(|a| a == "--cap-ms")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000u64);
    let text = std::fs::read_to_string(&file).expect("problem file");
    let stop = AtomicBool::new(false);
    let (mut solved, mut exact, mut nodes, mut count) = (0, 0, 0u64, 0);
    let start = Instant::now();
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
        let report = solve(
            &pos,
            MateLimits {
                deadline: Some(Instant::now() + Duration::from_millis(cap_ms)),
                max_nodes: None,
                stop: &stop,
                table_mib: 64,
                shortest: !any_length,
                max_len: None,
            },
        );
        count += 1;
        nodes += report.nodes;
        if let MateResult::Mate(l) = &report.result {
            solved += 1;
            if l.len() == plies {
                exact += 1;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "problems {count} solved {solved} exact_length {exact} nodes {nodes} time_s {secs:.3} nps {:.0}",
        nodes as f64 / secs
    );
}
