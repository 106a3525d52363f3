//! Fixed-node self-play matches between two search configurations, used to decide which
//! techniques beyond the seeds stay on.
//!
//! ```text
//! cargo run --release --example selfplay -- --a check_extension --b none \
//!     --games 400 --nodes 10000 [--openings FILE] [--threads 2]
//! ```
//!
//! Each opening (a `startpos moves ...` line) is played twice with colours swapped. Games
//! end by the rules core's `game_state` (mate, fourfold repetition, perpetual check, CSA
//! 27-point declaration) or as a draw after 320 plies. Prints wins/draws/losses of A and an
//! Elo estimate with a 95% interval.

use hayanagi::search::time::{TimeManager, TimeOptions};
use hayanagi::search::worker::{Control, Features, SearchConfig, Worker};
use hayanagi::search::{BestMove, Limits, Silent, TranspositionTable};
use hayanagi::shogi::rules::{DeclarationRule, GameRules, GameState};
use hayanagi::shogi::{Color, Position};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

const MAX_PLIES: u32 = 320;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win(Color),
    Draw,
}

fn play(opening: &str, features: [Features; 2], nodes: u64) -> Outcome {
    let mut pos = Position::from_usi_position(opening).expect("opening line");
    let tts = [
        Arc::new(TranspositionTable::new(4)),
        Arc::new(TranspositionTable::new(4)),
    ];
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
        let limits = Limits::nodes(nodes);
        let config = SearchConfig {
            features: features[us.index()],
            ..SearchConfig::default()
        };
        let time = TimeManager::new(&limits, us, pos.move_number(), &TimeOptions::default());
        let mut worker = Worker::new(
            pos.clone(),
            tts[us.index()].clone(),
            Arc::new(Control::new()),
            limits,
            config,
            time,
        );
        match worker.run(&Silent).best {
            BestMove::Move { best, .. } => pos.do_move(best),
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
    let a = Features::parse(&arg(&args, "--a").unwrap_or_default()).expect("--a");
    let b = Features::parse(&arg(&args, "--b").unwrap_or_default()).expect("--b");
    let games: usize = arg(&args, "--games").map_or(200, |v| v.parse().expect("--games"));
    let nodes: u64 = arg(&args, "--nodes").map_or(10_000, |v| v.parse().expect("--nodes"));
    let threads: usize = arg(&args, "--threads").map_or(2, |v| v.parse().expect("--threads"));
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
        for _ in 0..threads {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let opening = &openings[(g / 2) % openings.len()];
                // Even games: A is black; odd games: A is white.
                let a_color = if g % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let features = if a_color == Color::Black {
                    [a, b]
                } else {
                    [b, a]
                };
                let outcome = play(opening, features, nodes);
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
    println!("A = {a:?}");
    println!("B = {b:?}");
    println!(
        "games {} nodes/move {nodes}: A wins {w}, draws {d}, A losses {l}",
        w + d + l
    );
    println!(
        "score {:.3}  Elo {:+.1}  (95% interval {:+.1} .. {:+.1})",
        score,
        elo(score),
        elo(score - margin),
        elo(score + margin)
    );
}
