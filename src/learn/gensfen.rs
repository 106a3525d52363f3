//! Training data by self-play (`hayanagi gensfen`, docs/DESIGN.md §14.2): games from
//! opening lines or handicap starts, every move searched at fixed nodes or depth, a few
//! early moves chosen at random among the best few, and every searched position written as
//! a [`TrainingRecord`] once the game's result is known.
//!
//! The output file only grows, one whole game at a time, so a run can be killed at any
//! moment: the next run with the same file drops a torn last record and appends until the
//! file holds the positions asked for. Each game's random choices come from the seed, the
//! number of records the file held when the run started and the game's number, so a
//! resumed run plays new games instead of repeating the first ones.

use super::record::{TrainingRecord, RECORD_BYTES};
use crate::engine::{Engine, EngineError};
use crate::search::{BestMove, Limits, MATE_IN_MAX_PLY};
use crate::shogi::packed_sfen::PackedSfen;
use crate::shogi::{legal, Color, DeclarationRule, GameRules, GameState, Move, Position};
use crate::util::rng::Rng;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The standard handicap starts (駒落ち), the handicapped side (white) to move.
pub const HANDICAP_STARTS: [&str; 6] = [
    "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1", // lance
    "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",   // bishop
    "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",   // rook
    "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",     // two pieces
    "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",     // four pieces
    "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",       // six pieces
];

/// What to generate. [`GensfenConfig::default`] gives the documented defaults of the
/// `hayanagi gensfen` command.
#[derive(Clone, Debug)]
pub struct GensfenConfig {
    /// The file to append to (created when missing).
    pub output: PathBuf,
    /// Stop when the file holds this many records.
    pub positions: u64,
    /// Games played at once, one engine each with one search thread.
    pub threads: usize,
    /// Nodes per move (used when `depth` is `None`).
    pub nodes: u64,
    /// Depth per move instead of nodes.
    pub depth: Option<u32>,
    /// Starts: USI position arguments (`startpos moves ...`, `sfen ... moves ...`); empty
    /// means the start position.
    pub openings: Vec<String>,
    /// Percentage of games that start from one of [`HANDICAP_STARTS`] instead.
    pub handicap_percent: u32,
    /// Random moves per game, at distinct plies of `random_plies` (counted from the
    /// first move after the start).
    pub random_moves: u32,
    /// The range of plies (1-based, inclusive) where random moves are played.
    pub random_plies: (u32, u32),
    /// A random move is drawn from the moves of a MultiPV search of this width that score
    /// within `random_multipv_diff` of the best; 0 draws uniformly from all legal moves.
    pub random_multipv: u32,
    /// See `random_multipv` (centipawns).
    pub random_multipv_diff: i32,
    /// A game is adjudicated once a search scores at least this (centipawns), for the side
    /// it favours.
    pub eval_limit: i32,
    /// A game still going after this many plies from its start is a draw.
    pub max_plies: u32,
    /// Base of every random choice.
    pub seed: u64,
    /// Transposition table per engine (MiB).
    pub hash_mib: u32,
    /// Further engine options (e.g. `EvalFile`), applied to every engine.
    pub engine_options: Vec<(String, String)>,
}

impl Default for GensfenConfig {
    fn default() -> Self {
        GensfenConfig {
            output: PathBuf::new(),
            positions: 100_000,
            threads: 1,
            nodes: 5_000,
            depth: None,
            openings: Vec::new(),
            handicap_percent: 0,
            random_moves: 3,
            random_plies: (1, 24),
            random_multipv: 4,
            random_multipv_diff: 100,
            eval_limit: 3_000,
            max_plies: 320,
            seed: 1,
            hash_mib: 16,
            engine_options: Vec::new(),
        }
    }
}

/// Why a run could not go on.
#[derive(Debug)]
pub enum GensfenError {
    /// The output file cannot be opened, read or written.
    Io(std::io::Error),
    /// An opening line is no valid position.
    BadOpening(String),
    /// An engine option was refused, or an engine failed.
    Engine(EngineError),
    /// The configuration makes no sense (a zero count, an empty range).
    BadConfig(String),
}

impl fmt::Display for GensfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GensfenError::Io(e) => write!(f, "{e}"),
            GensfenError::BadOpening(s) => write!(f, "bad opening: {s}"),
            GensfenError::Engine(e) => write!(f, "{e}"),
            GensfenError::BadConfig(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for GensfenError {}

impl From<std::io::Error> for GensfenError {
    fn from(e: std::io::Error) -> Self {
        GensfenError::Io(e)
    }
}

impl From<EngineError> for GensfenError {
    fn from(e: EngineError) -> Self {
        GensfenError::Engine(e)
    }
}

/// Where a run stands; handed to the progress callback.
#[derive(Clone, Copy, Debug)]
pub struct GensfenProgress {
    /// Records in the file now.
    pub positions: u64,
    /// Records this run wrote.
    pub written: u64,
    /// The target.
    pub target: u64,
    /// Games this run finished.
    pub games: u64,
    /// Time since the run started.
    pub elapsed: Duration,
}

impl GensfenProgress {
    /// Records written per second by this run.
    pub fn per_second(&self) -> f64 {
        self.written as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Time still needed at the rate so far (`None` before the first record).
    pub fn eta(&self) -> Option<Duration> {
        let rate = self.per_second();
        (self.written > 0).then(|| {
            Duration::from_secs_f64(self.target.saturating_sub(self.positions) as f64 / rate)
        })
    }
}

/// Shared state of the game threads.
struct Run<'a> {
    config: &'a GensfenConfig,
    starts: Vec<Position>,
    out: Mutex<File>,
    positions: AtomicU64,
    written: AtomicU64,
    games: AtomicU64,
    next_game: AtomicU64,
    run_seed: u64,
    /// Set when a thread failed: the others stop after their current game.
    abort: AtomicBool,
    failed: Mutex<Option<GensfenError>>,
}

/// Generate until the file holds `config.positions` records or `stop` is set. `progress`
/// is called about every `interval` and once at the end.
pub fn generate(
    config: &GensfenConfig,
    stop: &AtomicBool,
    interval: Duration,
    progress: &mut dyn FnMut(&GensfenProgress),
) -> Result<GensfenProgress, GensfenError> {
    check_config(config)?;
    let starts = parse_starts(&config.openings)?;
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(&config.output)?;
    // A run killed inside a write leaves a torn record at the end: drop it.
    let len = file.metadata()?.len();
    let whole = len - len % RECORD_BYTES as u64;
    if whole != len {
        file.set_len(whole)?;
    }
    file.seek(SeekFrom::End(0))?;
    let existing = whole / RECORD_BYTES as u64;
    let run = Run {
        config,
        starts,
        out: Mutex::new(file),
        positions: AtomicU64::new(existing),
        written: AtomicU64::new(0),
        games: AtomicU64::new(0),
        next_game: AtomicU64::new(0),
        run_seed: mix(config.seed ^ mix(existing)),
        abort: AtomicBool::new(false),
        failed: Mutex::new(None),
    };
    let started = Instant::now();
    let snapshot = |run: &Run| GensfenProgress {
        positions: run.positions.load(Ordering::Relaxed),
        written: run.written.load(Ordering::Relaxed),
        target: config.positions,
        games: run.games.load(Ordering::Relaxed),
        elapsed: started.elapsed(),
    };
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..config.threads)
            .map(|_| s.spawn(|| play_games(&run, stop)))
            .collect();
        let mut last = Instant::now();
        while !workers.iter().all(|w| w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= interval {
                last = Instant::now();
                progress(&snapshot(&run));
            }
        }
        for w in workers {
            if w.join().is_err() {
                fail(
                    &run,
                    GensfenError::Engine(EngineError::SearchFailed(
                        "a game thread panicked".into(),
                    )),
                );
            }
        }
    });
    let end = snapshot(&run);
    progress(&end);
    match run.failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(end),
    }
}

fn check_config(c: &GensfenConfig) -> Result<(), GensfenError> {
    let bad = |s: &str| Err(GensfenError::BadConfig(s.into()));
    if c.threads == 0 {
        return bad("threads must be at least 1");
    }
    if c.depth.is_none() && c.nodes == 0 {
        return bad("nodes must be at least 1");
    }
    if c.depth == Some(0) {
        return bad("depth must be at least 1");
    }
    if c.handicap_percent > 100 {
        return bad("the handicap percentage must be 0-100");
    }
    let (lo, hi) = c.random_plies;
    if c.random_moves > 0 && (lo == 0 || hi < lo || c.random_moves > hi - lo + 1) {
        return bad(
            "random plies must be a range lo-hi with 1 <= lo <= hi that holds every random move",
        );
    }
    if c.random_multipv > crate::options::MAX_MULTIPV {
        return bad("random MultiPV is above the engine's MultiPV limit");
    }
    if c.max_plies == 0 || c.eval_limit <= 0 {
        return bad("max plies and the eval limit must be positive");
    }
    Ok(())
}

fn parse_starts(lines: &[String]) -> Result<Vec<Position>, GensfenError> {
    if lines.is_empty() {
        return Ok(vec![Position::startpos()]);
    }
    lines
        .iter()
        .map(|l| {
            Position::from_usi_position(l)
                .map_err(|e| GensfenError::BadOpening(format!("{l}: {e}")))
        })
        .collect()
}

/// SplitMix64's finaliser: spreads a counter over all 64 bits.
fn mix(x: u64) -> u64 {
    Rng::new(x).next_u64()
}

fn play_games(run: &Run, stop: &AtomicBool) {
    let engine = match new_engine(run.config) {
        Ok(e) => e,
        Err(e) => return fail(run, e),
    };
    while !stop.load(Ordering::Relaxed)
        && !run.abort.load(Ordering::Relaxed)
        && run.positions.load(Ordering::Relaxed) < run.config.positions
    {
        let game = run.next_game.fetch_add(1, Ordering::Relaxed);
        let mut rng = Rng::new(mix(run.run_seed ^ mix(game)));
        let records = match play_game(run, &engine, &mut rng, stop) {
            Ok(r) => r,
            Err(e) => return fail(run, e),
        };
        if let Err(e) = append(run, &records) {
            return fail(run, e.into());
        }
        run.games.fetch_add(1, Ordering::Relaxed);
    }
}

/// Keep the first failure and make the other threads stop after their current game.
fn fail(run: &Run, e: GensfenError) {
    run.failed
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert(e);
    run.abort.store(true, Ordering::Relaxed);
}

fn new_engine(c: &GensfenConfig) -> Result<Engine, GensfenError> {
    let e = Engine::new();
    for (k, v) in [
        ("Threads", "1".to_string()),
        ("USI_Hash", c.hash_mib.to_string()),
        ("RootMateSearch", "false".into()),
        ("USI_OwnBook", "false".into()),
        ("SkillLevel", "20".into()),
        (
            "ResignValue",
            crate::search::worker::NEVER_RESIGN.to_string(),
        ),
    ] {
        e.set_option(k, &v)?;
    }
    for (k, v) in &c.engine_options {
        e.set_option(k, v)?;
    }
    e.ready()?;
    Ok(e)
}

/// Append a game's records, no more than the target needs, in one write.
fn append(run: &Run, records: &[TrainingRecord]) -> std::io::Result<()> {
    let mut out = run.out.lock().unwrap_or_else(|p| p.into_inner());
    let have = run.positions.load(Ordering::Relaxed);
    let room = run.config.positions.saturating_sub(have) as usize;
    let take = records.len().min(room);
    if take == 0 {
        return Ok(());
    }
    let mut bytes = Vec::with_capacity(take * RECORD_BYTES);
    for r in &records[..take] {
        bytes.extend_from_slice(&r.to_bytes());
    }
    out.write_all(&bytes)?;
    out.flush()?;
    run.positions.fetch_add(take as u64, Ordering::Relaxed);
    run.written.fetch_add(take as u64, Ordering::Relaxed);
    Ok(())
}

/// A searched position waiting for the game's result.
struct Pending {
    sfen: PackedSfen,
    score: i16,
    best: Move,
    ply: u16,
    side: Color,
}

fn play_game(
    run: &Run,
    engine: &Engine,
    rng: &mut Rng,
    stop: &AtomicBool,
) -> Result<Vec<TrainingRecord>, GensfenError> {
    let c = run.config;
    let mut pos = if rng.next_u64() % 100 < u64::from(c.handicap_percent) {
        let i = (rng.next_u64() % HANDICAP_STARTS.len() as u64) as usize;
        Position::from_sfen(HANDICAP_STARTS[i]).expect("built-in handicap start")
    } else {
        run.starts[(rng.next_u64() % run.starts.len() as u64) as usize].clone()
    };
    let random_at = random_plies(c, rng);
    let rules = GameRules {
        declaration: DeclarationRule::Csa27,
        max_moves: None,
    };
    engine.new_game()?;
    let mut pending: Vec<Pending> = Vec::new();
    let mut winner: Option<Color> = None;
    for ply in 1..=c.max_plies {
        if stop.load(Ordering::Relaxed) || run.abort.load(Ordering::Relaxed) {
            // An unfinished game has no result: nothing of it is written.
            return Ok(Vec::new());
        }
        match pos.game_state(&rules) {
            GameState::Ongoing => {}
            GameState::Draw(_) => break,
            GameState::Win { winner: w, .. } => {
                winner = Some(w);
                break;
            }
        }
        let random = random_at.contains(&ply);
        let width = if random { c.random_multipv.max(1) } else { 1 };
        let mut limits = match c.depth {
            Some(d) => Limits::depth(d),
            None => Limits::nodes(c.nodes),
        };
        limits.multipv = Some(width);
        engine.set_position_value(pos.clone())?;
        let result = engine.search_blocking(limits)?;
        let us = pos.side_to_move();
        let best = match result.best {
            BestMove::Move { best, .. } => best,
            BestMove::Resign => {
                winner = Some(us.flip());
                break;
            }
            BestMove::Win => {
                winner = Some(us);
                break;
            }
        };
        let score = result.score.unwrap_or(0);
        if score.abs() >= MATE_IN_MAX_PLY || score.abs() >= c.eval_limit {
            // Mate scores are no training targets, and the game is decided.
            winner = Some(if score > 0 { us } else { us.flip() });
            break;
        }
        if !pos.in_check() {
            if let Ok(sfen) = PackedSfen::pack(&pos) {
                pending.push(Pending {
                    sfen,
                    score: score as i16,
                    best,
                    ply: pos.move_number().min(u16::MAX as u32) as u16,
                    side: us,
                });
            }
        }
        let play = if random {
            choose_random(c, &pos, &result.root_moves, rng).unwrap_or(best)
        } else {
            best
        };
        pos.do_move(play);
    }
    Ok(pending
        .iter()
        .map(|p| {
            let result = match winner {
                None => 0,
                Some(w) if w == p.side => 1,
                Some(_) => -1,
            };
            TrainingRecord::new(p.sfen, p.score, p.best, p.ply, result)
        })
        .collect())
}

/// The plies of this game that get a random move.
fn random_plies(c: &GensfenConfig, rng: &mut Rng) -> Vec<u32> {
    let (lo, hi) = c.random_plies;
    let mut plies: Vec<u32> = Vec::new();
    while (plies.len() as u32) < c.random_moves {
        let p = lo + (rng.next_u64() % u64::from(hi - lo + 1)) as u32;
        if !plies.contains(&p) {
            plies.push(p);
        }
    }
    plies
}

fn choose_random(
    c: &GensfenConfig,
    pos: &Position,
    root_moves: &[crate::search::worker::RootMove],
    rng: &mut Rng,
) -> Option<Move> {
    if c.random_multipv == 0 {
        let moves = legal(pos);
        return (!moves.is_empty())
            .then(|| moves.as_slice()[(rng.next_u64() % moves.len() as u64) as usize]);
    }
    let best = root_moves.first()?.score;
    let close: Vec<Move> = root_moves
        .iter()
        .take(c.random_multipv as usize)
        .filter(|rm| rm.score > -MATE_IN_MAX_PLY && best - rm.score <= c.random_multipv_diff)
        .map(|rm| rm.mv)
        .collect();
    (!close.is_empty()).then(|| close[(rng.next_u64() % close.len() as u64) as usize])
}
