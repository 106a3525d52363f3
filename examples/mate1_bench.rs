//! Speed of the mate-in-one detector (`Position::mate_in_one`) against the detector that
//! generates every check (`mate_in_one_by_generation`) and against trying every legal move,
//! alternated round by round in one process over the same positions.
//!
//! cargo run --release --example mate1_bench [-- ROUNDS [detector]]
//!
//! `detector` skips brute force (and the check of the answers against it), so that an
//! instruction count (valgrind --tool=callgrind) of the whole run is the detector's.
//!
//! Two sets: the tsume sets (tests/data/tsume/mate1.sfen and nomate1.sfen, half with a
//! mate, half without) and positions of seeded random playouts (captures, checks and
//! promotions preferred, as tests/mate1.rs does), which look more like the nodes a search
//! asks about: most have no mate. The detector's answers are checked against brute force.

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

/// Starts of the playouts: the initial position, a middle game and a bare board with full
/// hands (drops everywhere).
const PLAYOUT_STARTS: [&str; 3] = [
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
];

/// `count` positions of seeded random playouts (SplitMix64).
fn playout_positions(count: usize) -> Vec<Position> {
    let mut state = 0x6D61_7465_3162_656Eu64;
    let mut next = |n: usize| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    };
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::from_sfen(PLAYOUT_STARTS[next(PLAYOUT_STARTS.len())]).unwrap();
        for _ in 0..160 {
            if out.len() >= count {
                break;
            }
            out.push(pos.clone());
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            let ms = moves.as_slice();
            let mut m = ms[next(ms.len())];
            for _ in 0..2 {
                if pos.is_capture(m) || pos.gives_check(m) || m.is_promotion() {
                    break;
                }
                m = ms[next(ms.len())];
            }
            pos.do_move(m);
        }
    }
    out
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

/// Times the detector, the detector that generates every check
/// (`mate_in_one_by_generation`) and brute force on `positions`, alternating round by
/// round, and checks that all find the same number of mates.
fn measure(name: &str, positions: &mut [Position], rounds: usize, brute: bool) {
    let (mut fast_ns, mut generation_ns, mut brute_ns) = (0u128, 0u128, 0u128);
    let (mut found, mut by_generation, mut expected) = (0, 0, 0);
    for _ in 0..rounds {
        let t = Instant::now();
        found = 0;
        for pos in positions.iter_mut() {
            found += black_box(pos.mate_in_one()).is_some() as usize;
        }
        fast_ns += t.elapsed().as_nanos();
        if !brute {
            (by_generation, expected) = (found, found);
            continue;
        }
        let t = Instant::now();
        by_generation = 0;
        for pos in positions.iter_mut() {
            by_generation += black_box(pos.mate_in_one_by_generation()).is_some() as usize;
        }
        generation_ns += t.elapsed().as_nanos();
        let t = Instant::now();
        expected = 0;
        for pos in positions.iter_mut() {
            expected += black_box(brute_force(pos)) as usize;
        }
        brute_ns += t.elapsed().as_nanos();
    }
    assert_eq!(found, expected, "the detector must find exactly the mates");
    assert_eq!(by_generation, expected, "so must the generating detector");
    let calls = (rounds * positions.len()) as u128;
    println!(
        "{name}: positions {} ({found} with a mate), rounds {rounds}",
        positions.len()
    );
    println!(
        "  mate_in_one                {:>8} ns/position",
        fast_ns / calls
    );
    println!(
        "  mate_in_one_by_generation  {:>8} ns/position",
        generation_ns / calls
    );
    println!(
        "  every legal move           {:>8} ns/position",
        brute_ns / calls
    );
    println!(
        "  speed-up vs generation     {:>8.2}x, vs every legal move {:.1}x",
        generation_ns as f64 / fast_ns.max(1) as f64,
        brute_ns as f64 / fast_ns.max(1) as f64
    );
}

/// Positions a mate solver asks about: the generated tsume problems and the positions
/// reached from them by random checks and replies (up to eight plies, four walks each).
fn near_tsume_positions() -> Vec<Position> {
    let text = std::fs::read_to_string("tests/data/tsume/generated.tsv").expect("generated.tsv");
    let mut state = 0x7473_756D_6577_616Cu64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let sfen = line.split('\t').next().expect("sfen");
        for _walk in 0..4 {
            let mut pos = Position::from_sfen_with(sfen, Validation::Composed).expect("sfen");
            for ply in 0..8 {
                out.push(pos.clone());
                let mut moves: Vec<_> = legal(&pos).iter().copied().collect();
                if ply % 2 == 0 {
                    let checks: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|&m| pos.gives_check(m))
                        .collect();
                    if !checks.is_empty() {
                        moves = checks;
                    }
                }
                if moves.is_empty() {
                    break;
                }
                pos.do_move(moves[next(moves.len())]);
            }
        }
    }
    out
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("ROUNDS"))
        .unwrap_or(20);
    let brute = std::env::args().nth(2).as_deref() != Some("detector");
    let mut tsume = load("tests/data/tsume/mate1.sfen");
    tsume.extend(load("tests/data/tsume/nomate1.sfen"));
    measure("tsume sets", &mut tsume, rounds, brute);
    let mut playouts = playout_positions(20_000);
    measure("random playouts", &mut playouts, rounds.div_ceil(4), brute);
    let mut near = near_tsume_positions();
    measure("near tsume problems", &mut near, rounds.div_ceil(4), brute);
}
