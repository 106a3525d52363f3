//! Self-play matches between two engine configurations, used to decide which search
//! techniques stay on and to measure parallel search.
//!
//! ```text
//! cargo run --release --example selfplay -- --a futility --b default \
//!     --games 400 --nodes 10000 [--movetime MS] [--threads-a N] [--threads-b N] \
//!     [--parallel 2] [--openings FILE]
//! ```
//!
//! `--a`/`--b` are `SearchFeatures` lists (DESIGN.md §6; `none` = the base search, `default`).
//! Each opening (a `startpos moves ...` line) is played twice with colours swapped. With
//! `--nodes`, games may run in parallel (`--parallel`, default 2); with `--movetime` they run
//! one at a time and the engines think in turn, so each has the machine. Games end by the
//! rules core's `game_state` (mate, fourfold repetition, perpetual check, CSA 27-point
//! declaration) or as a draw after 320 plies. Prints wins/draws/losses of A and an Elo
//! estimate with a 95% interval.

use hayanagi::Engine;
use hayanagi::{BestMove, Limits};
use hayanagi::{Color, Position};
use hayanagi::{DeclarationRule, GameRules, GameState};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const MAX_PLIES: u32 = 320;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win(Color),
    Draw,
}

struct Side {
    features: String,
    threads: usize,
}

fn engine(side: &Side) -> Engine {
    let e = Engine::new();
    e.set_option("Hash", "16").unwrap();
    e.set_option("Threads", &side.threads.to_string()).unwrap();
    e.set_option("SearchFeatures", &side.features).unwrap();
    e.set_option("NetworkDelay", "0").unwrap();
    e
}

fn play(opening: &str, sides: [&Side; 2], limits: &Limits) -> Outcome {
    let mut pos = Position::from_usi_position(opening).expect("opening line");
    let engines = [engine(sides[0]), engine(sides[1])];
    let rules = GameRules {
        declaration: DeclarationRule::Csa27,
        max_moves: None,
    };
    for _ in 0..MAX_PLIES {
        match pos.game_state(&rules) {
            GameState::Ongoing => {}
            GameState::Draw(_) => return Outcome::Draw,
            GameState::Win { winner, .. } => return Outcome::Win(winner),
        }
        let us = pos.side_to_move();
        let e = &engines[us.index()];
        e.set_position_value(pos.clone()).unwrap();
        match e.search_blocking(limits.clone()).unwrap().best {
            BestMove::Move { best, .. } => {
                assert!(pos.is_legal(best), "illegal move {best}");
                pos.do_move(best)
            }
            BestMove::Resign => return Outcome::Win(us.flip()),
            BestMove::Win => return Outcome::Win(us),
        }
    }
    Outcome::Draw
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num =
        |name: &str, default: u64| arg(&args, name).map_or(default, |v| v.parse().expect(name));
    let a = Side {
        features: arg(&args, "--a").unwrap_or_else(|| "default".into()),
        threads: num("--threads-a", 1) as usize,
    };
    let b = Side {
        features: arg(&args, "--b").unwrap_or_else(|| "default".into()),
        threads: num("--threads-b", 1) as usize,
    };
    let games = num("--games", 200) as usize;
    let (limits, parallel) = match arg(&args, "--movetime") {
        Some(ms) => (Limits::movetime(ms.parse().expect("--movetime")), 1),
        None => (
            Limits::nodes(num("--nodes", 10_000)),
            num("--parallel", 2) as usize,
        ),
    };
    let file =
        arg(&args, "--openings").unwrap_or_else(|| "../shared/data/openings-taya36.sfen".into());
    let openings: Vec<String> = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .lines()
        .filter(|l| l.starts_with("startpos"))
        .map(str::to_string)
        .collect();
    let next = AtomicUsize::new(0);
    // (A wins, draws, A losses)
    let tally = Mutex::new((0u32, 0u32, 0u32));
    std::thread::scope(|s| {
        for _ in 0..parallel {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let opening = &openings[(g / 2) % openings.len()];
                // Even games: A is black; odd games: A is white.
                let a_color = if g.is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                let sides = if a_color == Color::Black {
                    [&a, &b]
                } else {
                    [&b, &a]
                };
                let outcome = play(opening, sides, &limits);
                let mut t = tally.lock().unwrap();
                match outcome {
                    Outcome::Draw => t.1 += 1,
                    Outcome::Win(c) if c == a_color => t.0 += 1,
                    Outcome::Win(_) => t.2 += 1,
                }
            });
        }
    });
    let (w, d, l) = *tally.lock().unwrap();
    let n = (w + d + l) as f64;
    let score = (w as f64 + d as f64 / 2.0) / n;
    let elo = |s: f64| -400.0 * (1.0 / s.clamp(1e-6, 1.0 - 1e-6) - 1.0).log10();
    let var = ((w as f64) * (1.0 - score).powi(2)
        + (d as f64) * (0.5 - score).powi(2)
        + (l as f64) * score.powi(2))
        / n;
    let margin = 1.96 * (var / n).sqrt();
    println!("A = features {} threads {}", a.features, a.threads);
    println!("B = features {} threads {}", b.features, b.threads);
    println!(
        "games {} limits {:?}: A wins {w}, draws {d}, A losses {l}",
        w + d + l,
        limits
    );
    println!(
        "score {:.3}  Elo {:+.1}  (95% interval {:+.1} .. {:+.1})",
        score,
        elo(score),
        elo(score - margin),
        elo(score + margin)
    );
}
