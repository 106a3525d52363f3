//! Speed of the mate-in-one detector (`Position::mate_in_one`) against trying every legal
//! move, alternated round by round in one process over the same positions.
//!
//! cargo run --release --example mate1_bench [-- ROUNDS]
//!
//! Positions: tests/data/tsume/mate1.sfen and nomate1.sfen (half with a mate, half without).

use hayanagi::{legal, Position, Validation};
use std::hint::black_box;
use std::time::Instant;

fn load(path: &str) -> Vec<Position> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|s| Position::from_sfen_with(s, Validation::Composed).expect("sfen"))
        .collect()
}

/// The reference: every legal move played, then the opponent's legal moves counted.
fn brute_force(pos: &mut Position) -> bool {
    legal(pos).iter().any(|&m| {
        pos.do_move(m);
        let mated = pos.in_check() && legal(pos).is_empty();
        pos.undo_move();
        mated
    })
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("ROUNDS"))
        .unwrap_or(20);
    let mut positions = load("tests/data/tsume/mate1.sfen");
    let mates = positions.len();
    positions.extend(load("tests/data/tsume/nomate1.sfen"));
    let (mut detector_ns, mut brute_ns) = (0u128, 0u128);
    let mut found = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        found = 0;
        for pos in positions.iter_mut() {
            found += black_box(pos.mate_in_one()).is_some() as usize;
        }
        detector_ns += t.elapsed().as_nanos();
        let t = Instant::now();
        for pos in positions.iter_mut() {
            black_box(brute_force(pos));
        }
        brute_ns += t.elapsed().as_nanos();
    }
    assert_eq!(found, mates, "the detector must find exactly the mates");
    let calls = (rounds * positions.len()) as u128;
    println!(
        "positions {} ({mates} with a mate), rounds {rounds}",
        positions.len()
    );
    println!("mate_in_one     {:>8} ns/position", detector_ns / calls);
    println!("every legal move {:>7} ns/position", brute_ns / calls);
    println!(
        "speed-up        {:>8.1}x",
        brute_ns as f64 / detector_ns.max(1) as f64
    );
}
