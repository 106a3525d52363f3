//! Mate solver: df-pn over checks with its own proof-number table, then passes with a
//! shrinking ply bound until the shortest forced mate is certain.
//!
//! Length is the minimax distance in plies: the attacker takes the quickest mate, the
//! defender the longest resistance among all legal replies, interpositions included.
//! The main line follows exactly that: at each defender move a reply that holds out
//! longest. Every reported line is replayed before it is returned (each attacker move
//! checks, the last position is mate); a line that fails the replay is never reported.

mod counters;
mod dfpn;
mod evasion_cache;
mod horizon;
mod key_map;
mod path_cache;
mod pieces;
pub mod root;
pub mod table;

pub use counters::MateCounters;

use crate::shogi::movegen::has_legal_move;
use crate::shogi::{legal, Move, Position, Repetition};
use dfpn::Dfpn;
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use table::{Lookup, INFINITE, UNBOUNDED};

/// What a mate search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    /// A forced mate: the moves of the main line, attacker first, ending in mate.
    Mate(Vec<Move>),
    /// Proven: the side to move has no forced mate.
    NoMate,
    /// The time or node budget ran out (or `stop`) first.
    Timeout,
}

/// Default size of the proof-number table (option `MateHash`).
pub const DEFAULT_MATE_HASH_MIB: usize = 64;

/// Stack size for a thread that runs the solver: the search recurses once per ply (about
/// 340 bytes a ply in a release build, measured), and composed problems run to well over a
/// thousand plies. 32 MiB covers the deepest path followed (16,000 plies) at 2 KiB a ply.
/// (A larger stack costs little natively but much under valgrind, where every search
/// starts a solver thread beside it.)
pub const SOLVER_STACK_BYTES: usize = 32 << 20;

/// Limits of one mate search.
pub struct MateLimits<'a> {
    /// Give up at this instant (`None`: no time limit).
    pub deadline: Option<Instant>,
    /// Give up after this many nodes (`None`: no node limit).
    pub max_nodes: Option<u64>,
    /// Give up as soon as this becomes true (another thread's stop).
    pub stop: &'a AtomicBool,
    /// Size of the proof-number table in MiB.
    pub table_mib: usize,
    /// Settle the shortest length (true) or answer the first mate proven (false: faster,
    /// the line is a mate but maybe not the shortest).
    pub shortest: bool,
    /// Only mates of at most this many plies count (`None`: any length).
    pub max_len: Option<u16>,
}

/// A finished mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateReport {
    /// What the solver found.
    pub result: MateResult,
    /// Nodes the solver visited.
    pub nodes: u64,
    /// For a mate: true when no shorter mate exists (the bounded pass below it finished).
    /// False when the budget ran out before that was settled; the line is still a mate.
    pub shortest: bool,
    /// Garbage collections of the proof-number table.
    pub collections: u32,
    /// Wall time of the search in milliseconds.
    pub time_ms: u64,
    /// What the nodes were spent on.
    pub counters: MateCounters,
}

/// A choice among solver techniques, for A/B benchmarks (`examples/mate_bench --ab`): the
/// solver's answers are the same either way, only the work to reach them differs.
/// [`solve`] uses [`MateVariant::DEFAULT`].
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateVariant {
    /// Store results under their proof and disproof hands (else under the node's own).
    pub proof_pieces: bool,
    /// Delayed expansion of drops on one square and of moves without promotion.
    pub delayed_moves: bool,
    /// Shortest mode: a pass takes the proof and disproof numbers an earlier pass (another
    /// ply bound) left in the table as its first estimates.
    pub depth_reuse: bool,
    /// A disproof resting on a cycle inside the node's own subtree is stored once the
    /// search is back at the cycle's start (else never: path-dependent results stay so).
    pub repetition_start: bool,
    /// A position whose board repeats one of the path with the attacker holding at most
    /// what it held there counts as a repetition (else only the same position does).
    pub inferior_repetition: bool,
    /// A defender node with two plies left is disproven by a reply after which the attacker
    /// has no mate in one (the rules core's detector), without searching that reply.
    pub mate_in_one_horizon: bool,
    /// A defender node with four plies left is disproven by a reply after which the
    /// attacker has no mate within three plies (`horizon.rs`), without searching that reply.
    pub mate_in_three_horizon: bool,
    /// The horizon tests ask the rules core's static mate-in-one detector (else the one that
    /// generates every check, `Position::mate_in_one_by_generation`: same answers, for the
    /// A/B of the detector inside the solver).
    pub static_mate_in_one: bool,
    /// An attacker node keeps the evasion counts of its new checks for the solve
    /// (`evasion_cache.rs`), so a re-entry does not count them again.
    pub evasion_cache: bool,
    /// An attacker node tests its new checks with at most this many evasions for a mate in
    /// three (every evasion allows a mate in one: the node is proven at once), once per
    /// check position; 0: never (`default`). Kept for measurements (DESIGN.md §10.7): it
    /// cuts the nodes but costs more time than it saves with our mate-in-one detector.
    pub mate_in_three_at_checks: u32,
    /// Disproofs that rest on a repetition of the path are kept for the solve under a key
    /// of the whole path from the root (`path_cache.rs`), so that the search coming down the
    /// same path again finds them instead of searching the cycle again.
    pub path_cache: bool,
    /// Garbage collection counts a proven or disproven entry's nodes this many times
    /// (1: as they are), so that results outlive unresolved entries of as many nodes.
    pub gc_resolved_weight: u32,
    /// An attacker node counts the evasions of its new checks (the one-ply look-ahead of
    /// df-pn+) only until one has a single evasion, the least an unmated check can have, so
    /// that the node's proof number is known; the others keep 1, a lower bound, as their
    /// first proof number and are counted when the search chooses one. Only where at least
    /// this many checks are still new, and the node has no mate in one (asked once per
    /// node and position); 0: every new check counted at once (`eager-lookahead`).
    pub lazy_lookahead: u8,
}

/// How many times garbage collection counts the nodes below a proven or disproven entry
/// (DESIGN.md §10.3: on the 45 positions of three long problems' lines, 0.948x the nodes
/// with an 8 MiB table, 0.997x with 32 MiB, the same answers).
const RESOLVED_GC_WEIGHT: u32 = 4;

/// `MateVariant::lazy_lookahead`'s default (DESIGN.md §10.7, stop 60: with 4, the 1,050
/// generated problems 0.934x the nodes and about 0.92x the time of counting every check,
/// the sample 100 0.995x and the same time; with 3 or 6, 1.014x and 1.081x the nodes of 4).
const LAZY_LOOKAHEAD_LEAST: u8 = 4;

impl MateVariant {
    /// What [`solve`] uses.
    pub const DEFAULT: MateVariant = MateVariant {
        proof_pieces: true,
        delayed_moves: true,
        depth_reuse: true,
        repetition_start: true,
        inferior_repetition: true,
        mate_in_one_horizon: true,
        mate_in_three_horizon: true,
        static_mate_in_one: true,
        evasion_cache: true,
        mate_in_three_at_checks: 0,
        path_cache: false,
        gc_resolved_weight: RESOLVED_GC_WEIGHT,
        lazy_lookahead: LAZY_LOOKAHEAD_LEAST,
    };

    /// Names of the variants [`MateVariant::by_name`] knows.
    pub const NAMES: [&'static str; 15] = [
        "default",
        "no-proof-pieces",
        "no-delayed-moves",
        "no-depth-reuse",
        "no-repetition-start",
        "no-inferior-repetition",
        "no-mate-in-one-horizon",
        "no-mate-in-three-horizon",
        "mate-in-one-by-generation",
        "no-evasion-cache",
        "plain",
        "mate-in-three-at-checks",
        "path-cache",
        "gc-by-nodes",
        "eager-lookahead",
    ];

    /// A variant by name: `default`, `default` with one technique switched off
    /// (`no-proof-pieces`, `no-delayed-moves`, `no-depth-reuse`, `no-repetition-start`,
    /// `no-inferior-repetition`, `no-mate-in-one-horizon`, `no-mate-in-three-horizon`,
    /// `mate-in-one-by-generation`, `no-evasion-cache`, `gc-by-nodes`, `eager-lookahead`),
    /// `plain` (all of them off), `lazy-lookahead-N` (checks left uncounted only where at
    /// least N, 1 to 20, are new), `mate-in-three-at-checks` (`default` plus that test for
    /// checks with at most five evasions; `mate-in-three-at-checks-N` for at most N, 1 to
    /// 9) or `path-cache` (`default` plus the path cache).
    pub fn by_name(name: &str) -> Option<MateVariant> {
        let d = MateVariant::DEFAULT;
        if let Some(least) = name.strip_prefix("lazy-lookahead-") {
            return match least.parse() {
                Ok(least @ 1..=20) => Some(MateVariant {
                    lazy_lookahead: least,
                    ..d
                }),
                _ => None,
            };
        }
        if let Some(most) = name.strip_prefix("mate-in-three-at-checks-") {
            return match most.parse() {
                Ok(most @ 1..=9) => Some(MateVariant {
                    mate_in_three_at_checks: most,
                    ..d
                }),
                _ => None,
            };
        }
        match name {
            "default" => Some(d),
            "no-proof-pieces" => Some(MateVariant {
                proof_pieces: false,
                ..d
            }),
            "no-delayed-moves" => Some(MateVariant {
                delayed_moves: false,
                ..d
            }),
            "no-depth-reuse" => Some(MateVariant {
                depth_reuse: false,
                ..d
            }),
            "no-repetition-start" => Some(MateVariant {
                repetition_start: false,
                ..d
            }),
            "no-inferior-repetition" => Some(MateVariant {
                inferior_repetition: false,
                ..d
            }),
            "no-mate-in-one-horizon" => Some(MateVariant {
                mate_in_one_horizon: false,
                ..d
            }),
            "no-mate-in-three-horizon" => Some(MateVariant {
                mate_in_three_horizon: false,
                ..d
            }),
            "mate-in-one-by-generation" => Some(MateVariant {
                static_mate_in_one: false,
                ..d
            }),
            "no-evasion-cache" => Some(MateVariant {
                evasion_cache: false,
                ..d
            }),
            "plain" => Some(MateVariant {
                proof_pieces: false,
                delayed_moves: false,
                depth_reuse: false,
                repetition_start: false,
                inferior_repetition: false,
                mate_in_one_horizon: false,
                mate_in_three_horizon: false,
                static_mate_in_one: false,
                evasion_cache: false,
                mate_in_three_at_checks: 0,
                path_cache: false,
                gc_resolved_weight: 1,
                lazy_lookahead: 0,
            }),
            "mate-in-three-at-checks" => Some(MateVariant {
                mate_in_three_at_checks: 5,
                ..d
            }),
            "path-cache" => Some(MateVariant {
                path_cache: true,
                ..d
            }),
            "gc-by-nodes" => Some(MateVariant {
                gc_resolved_weight: 1,
                ..d
            }),
            "eager-lookahead" => Some(MateVariant {
                lazy_lookahead: 0,
                ..d
            }),
            _ => None,
        }
    }
}

impl MateReport {
    /// An answer with nothing found (used when a search could not run).
    pub fn timeout() -> MateReport {
        MateReport {
            result: MateResult::Timeout,
            nodes: 0,
            shortest: false,
            collections: 0,
            time_ms: 0,
            counters: MateCounters::default(),
        }
    }

    /// The moves of the mating line, space-separated USI (empty unless a mate was found).
    pub fn moves_usi(&self) -> String {
        match &self.result {
            MateResult::Mate(line) => line.iter().map(|m| m.usi()).collect::<Vec<_>>().join(" "),
            _ => String::new(),
        }
    }

    /// The USI answer line: `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`.
    pub fn to_usi(&self) -> String {
        match &self.result {
            MateResult::Mate(_) => format!("checkmate {}", self.moves_usi()),
            MateResult::NoMate => "checkmate nomate".into(),
            MateResult::Timeout => "checkmate timeout".into(),
        }
    }
}

/// Look for the shortest forced mate by the side to move in `pos`. Runs on a thread of its
/// own with 32 MiB of stack (the search recurses once per ply), so any
/// caller's thread will do. Where such a thread cannot be had (address-space limits), a
/// smaller stack and then the calling thread serve, with paths cut shorter to match.
///
/// ```
/// use hayanagi::{solve_mate, MateLimits, MateResult, Position};
/// use std::sync::atomic::AtomicBool;
///
/// // A gold drop on 5b mates at once.
/// let pos: Position = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1".parse().unwrap();
/// let stop = AtomicBool::new(false);
/// let limits = MateLimits {
///     deadline: None,
///     max_nodes: Some(100_000),
///     stop: &stop,
///     table_mib: 1,
///     shortest: true,
///     max_len: None,
/// };
/// let report = solve_mate(&pos, limits);
/// assert_eq!(report.result, MateResult::Mate(vec![pos.parse_usi_move("G*5b").unwrap()]));
/// ```
pub fn solve(pos: &Position, limits: MateLimits<'_>) -> MateReport {
    solve_variant(pos, limits, MateVariant::DEFAULT)
}

/// [`solve`] with a chosen [`MateVariant`] (for benchmarks).
#[doc(hidden)]
pub fn solve_variant(pos: &Position, limits: MateLimits<'_>, variant: MateVariant) -> MateReport {
    // (stack bytes, deepest path): the fallback allows 4 KiB of stack per ply, twice what
    // the main stack size does.
    const FALLBACK_STACK: usize = 8 << 20;
    let mut limits = Some(limits);
    for (stack, max_path) in [
        (SOLVER_STACK_BYTES, dfpn::MAX_PATH),
        (FALLBACK_STACK, FALLBACK_STACK / 4096),
    ] {
        // The limits go in through this slot, so that a spawn that fails leaves them here.
        let slot = std::sync::Mutex::new(limits.take());
        let outcome = std::thread::scope(|scope| {
            let spawned = std::thread::Builder::new()
                .name("hayanagi-mate".into())
                .stack_size(stack)
                .spawn_scoped(scope, || {
                    let l = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                    l.map(|l| solve_here(pos, l, max_path, variant))
                });
            spawned.ok().map(|handle| handle.join())
        });
        match outcome {
            Some(Ok(report)) => return report.unwrap_or_else(MateReport::timeout),
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => limits = slot.into_inner().unwrap_or_else(|e| e.into_inner()),
        }
    }
    // No thread to be had: this one has to do, with short paths.
    match limits {
        Some(l) => solve_here(pos, l, 400, variant),
        None => MateReport::timeout(),
    }
}

/// [`solve`] on the calling thread, which must have been started with
/// [`SOLVER_STACK_BYTES`] of stack (saves starting a thread per search).
pub fn solve_on_solver_stack(pos: &Position, limits: MateLimits<'_>) -> MateReport {
    solve_here(pos, limits, dfpn::MAX_PATH, MateVariant::DEFAULT)
}

/// Start a thread with [`SOLVER_STACK_BYTES`] of stack running `f`, given whether it got
/// that stack: if not, `f` runs on a thread with the default stack and must use [`solve`].
pub fn spawn_solver_thread<F>(name: &str, f: F) -> std::io::Result<std::thread::JoinHandle<()>>
where
    F: FnOnce(bool) + Send + 'static,
{
    // The closure travels through a slot so that a failed spawn hands it back.
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(f)));
    let inner = slot.clone();
    let big = std::thread::Builder::new()
        .name(name.into())
        .stack_size(SOLVER_STACK_BYTES)
        .spawn(move || {
            if let Some(f) = inner.lock().unwrap_or_else(|e| e.into_inner()).take() {
                f(true)
            }
        });
    match big {
        Ok(handle) => Ok(handle),
        Err(_) => {
            let f = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
            std::thread::Builder::new()
                .name(name.into())
                .spawn(move || {
                    if let Some(f) = f {
                        f(false)
                    }
                })
        }
    }
}

/// [`solve`] on the calling thread, paths cut at `max_path` plies (at most the solver's
/// own bound): for the small node-limited searches the main search asks for
/// (`Tune_RootMateThreatNodes`), where a thread per call would cost more than the search
/// and such a budget never follows a long path. Each ply of path takes about 340 bytes of
/// the caller's stack in a release build.
pub fn solve_on_this_thread(pos: &Position, limits: MateLimits<'_>, max_path: usize) -> MateReport {
    solve_here(
        pos,
        limits,
        max_path.min(dfpn::MAX_PATH),
        MateVariant::DEFAULT,
    )
}

fn solve_here(
    pos: &Position,
    limits: MateLimits<'_>,
    max_path: usize,
    variant: MateVariant,
) -> MateReport {
    let start = Instant::now();
    let bound = limits.max_len.map_or(UNBOUNDED, |n| n.min(UNBOUNDED - 1));
    let mut s = Dfpn::new(pos, limits, max_path, variant);
    let root = s.node_key();
    let first = s.mid(root, INFINITE, INFINITE, bound);
    let mut report = MateReport::timeout();
    if !s.aborted && first.is_disproven() {
        report.result = MateResult::NoMate;
    } else if !s.aborted && first.is_proven() {
        // Read a line at once, while the table holds the whole proof: the answer if the
        // budget runs out while looking for a shorter mate.
        let mut len = first.proof_len;
        let mut fallback = line_from_table(&mut s.grace(), len);
        // Shrink: is there a mate at least two plies shorter?
        let mut shortest = len == 1;
        while len >= 3 && s.wants_shortest() {
            let shorter = s.mid(root, INFINITE, INFINITE, len - 2);
            if s.aborted {
                break;
            }
            if shorter.is_proven() {
                len = shorter.proof_len;
                shortest = len == 1;
                if let Some(line) = line_from_table(&mut s.grace(), len) {
                    fallback = Some(line);
                }
            } else {
                shortest = true;
                break;
            }
        }
        let exact = if shortest {
            exact_line(&mut s.grace(), len)
        } else {
            None
        };
        let line = exact
            .filter(|l| is_mating_line(pos, l))
            .or_else(|| fallback.filter(|l| is_mating_line(pos, l)));
        if let Some(line) = line {
            // "Shortest" only for a line of the settled length.
            report.shortest = shortest && line.len() == len as usize;
            report.result = MateResult::Mate(line);
        }
    }
    report.nodes = s.nodes;
    report.collections = s.table.collections();
    report.counters = s.counters();
    report.time_ms = start.elapsed().as_millis() as u64;
    report
}

/// Resolve the current node within `depth` plies, whatever it costs (used for the main
/// line; `None` when the budget runs out).
fn resolve(s: &mut Dfpn<'_>, depth: u16) -> Option<Lookup> {
    let key = s.node_key();
    let v = s.table.lookup(&key, depth);
    if v.is_proven() || v.is_disproven() {
        return Some(v);
    }
    let v = s.mid(key, INFINITE, INFINITE, depth);
    (!s.aborted).then_some(v)
}

/// The main line of a mate known to take exactly `len` plies from the current node (the
/// attacker to move): any mating move of that length, then a defence that holds out longest.
fn exact_line(s: &mut Dfpn<'_>, len: u16) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut remaining = len;
    let found = loop {
        // Attacker: a check after which mate follows in `remaining - 1`. Checks the table
        // already proves come first; disproving the others may be costly.
        let checks = by_known_length(s, remaining - 1, false);
        let Some(m) = first_with(s, &checks, remaining - 1, Lookup::is_proven) else {
            break false;
        };
        line.push(m);
        s.push(m);
        if remaining == 1 {
            break true;
        }
        // Defender: a reply that is not mated within `remaining - 4` holds out the full
        // `remaining - 2`. Replies known to last longest are tried first.
        let replies = by_known_length(s, remaining - 2, true);
        let reply = if remaining >= 4 {
            first_with(s, &replies, remaining - 4, Lookup::is_disproven)
        } else {
            replies.first().copied()
        };
        let Some(r) = reply else { break false };
        line.push(r);
        s.push(r);
        remaining -= 2;
    };
    for _ in 0..line.len() {
        s.pop();
    }
    found.then_some(line)
}

/// Each move of the current node with what the table says of its child within `depth`.
fn child_lookups(s: &mut Dfpn<'_>, depth: u16) -> Vec<(Move, Lookup)> {
    s.moves()
        .into_iter()
        .map(|m| {
            s.push(m);
            let key = s.node_key();
            let v = s.table.lookup(&key, depth);
            s.pop();
            (m, v)
        })
        .collect()
}

/// The moves of the current node ordered by the mate length the table proves for their
/// children within `depth` (unknown last): shortest first, or longest with `longest`.
fn by_known_length(s: &mut Dfpn<'_>, depth: u16, longest: bool) -> Vec<Move> {
    let mut keyed: Vec<(u32, Move)> = child_lookups(s, depth)
        .into_iter()
        .map(|(m, v)| {
            let len = if v.is_proven() {
                v.proof_len as u32
            } else {
                u32::MAX
            };
            let rank = match (longest, v.is_proven()) {
                (false, _) => len,
                (true, true) => u32::MAX - 1 - len,
                (true, false) => u32::MAX,
            };
            (rank, m)
        })
        .collect();
    keyed.sort_by_key(|&(rank, _)| rank);
    keyed.into_iter().map(|(_, m)| m).collect()
}

/// The first of `moves` whose child, resolved within `depth`, satisfies `want`. `None`
/// when none does or the budget ran out.
fn first_with(
    s: &mut Dfpn<'_>,
    moves: &[Move],
    depth: u16,
    want: fn(&Lookup) -> bool,
) -> Option<Move> {
    for &m in moves {
        s.push(m);
        let v = resolve(s, depth);
        s.pop();
        match v {
            None => return None,
            Some(v) if want(&v) => return Some(m),
            Some(_) => {}
        }
    }
    None
}

/// A mating line of at most `len` plies (the root's proof length) read from the table: at
/// each attacker move a mate in one if there is one, else the check with the shortest
/// proven mate; at each defender move the reply with the longest. Each choice must be
/// proven within the length left, which shrinks every ply, so the line cannot run in
/// circles through proofs stored on different paths. Lengths are the table's upper bounds:
/// the line is a mate, but its defence is not necessarily the best.
///
/// Where the table has no such proof (an entry replaced or collected, or a node proven
/// only through hand dominance, whose children were never searched with these hands), the
/// node is searched again: first without a bound (cheap when the table holds most of the
/// proof), then within the length left. A proof stored from another path may pass through
/// a position the line has already been through: a repetition on the line's path, and so
/// no mate there for the solver, though a position met twice ends nothing by the rules.
/// Such a node is read as if it were the root ([`Dfpn::rooted_here`]). `None` when the
/// budget runs out first.
fn line_from_table(s: &mut Dfpn<'_>, len: u16) -> Option<Vec<Move>> {
    let mut line = Vec::new();
    let mut left = len;
    let found = loop {
        let attacker = line.len() % 2 == 0;
        if !attacker && !has_legal_move(&s.pos) {
            break true;
        }
        if attacker {
            let mate = s.moves().into_iter().find(|&m| {
                s.push(m);
                let mated = !has_legal_move(&s.pos);
                s.pop();
                mated
            });
            if let Some(m) = mate {
                line.push(m);
                s.push(m);
                break true;
            }
        }
        if left == 0 {
            break false;
        }
        let mut choice = line_choice(s, attacker, left);
        if choice.is_none() && !s.aborted {
            // Proven from another path, not on this one: the proof passes through a
            // position the line has been through, a repetition here. By the rules a
            // position met again ends nothing, so the node is read as if it were the root.
            choice = s.rooted_here(|s| line_choice(s, attacker, left)).flatten();
        }
        let Some((child_len, m)) = choice else {
            break false;
        };
        line.push(m);
        s.push(m);
        left = child_len;
    };
    for _ in 0..line.len() {
        s.pop();
    }
    found.then_some(line)
}

/// The line's move at the current node, `left` plies being left (see [`line_from_table`]):
/// from the table, else after searching the node (first without a bound, then within
/// `left`), else with each child resolved by a search of its own. `None` where the node is
/// not proven within `left` on this path, or the budget runs out.
fn line_choice(s: &mut Dfpn<'_>, attacker: bool, left: u16) -> Option<(u16, Move)> {
    let mut choice = known_choice(s, attacker, left - 1);
    for bound in [UNBOUNDED, left] {
        if choice.is_some() || s.aborted {
            break;
        }
        let key = s.node_key();
        if s.mid(key, INFINITE, INFINITE, bound).is_proven() && !s.aborted {
            choice = known_choice(s, attacker, left - 1);
        }
    }
    if choice.is_none() && !s.aborted {
        // Proven, yet the children's proofs are not all in the table: entries of boards
        // that share a cluster can keep replacing each other (cheap proofs go first), so
        // the children are resolved one by one and used at once.
        choice = resolved_choice(s, attacker, left - 1);
    }
    choice
}

/// Like [`known_choice`], with every child resolved within `depth` by a search where the
/// table does not know it (`None` also when the budget runs out).
fn resolved_choice(s: &mut Dfpn<'_>, attacker: bool, depth: u16) -> Option<(u16, Move)> {
    let mut children = Vec::new();
    for m in s.moves() {
        s.push(m);
        let v = resolve(s, depth);
        s.pop();
        let v = v?;
        if !attacker && !v.is_proven() {
            // A reply that holds out: no need to resolve the others.
            return None;
        }
        children.push((m, v));
    }
    best_choice(attacker, children)
}

/// From the table alone, among children proven within `depth`: the attacker's check with
/// the shortest mate, or the defender's reply with the longest (every reply must be
/// proven). Returns the child's proof length and the move.
fn known_choice(s: &mut Dfpn<'_>, attacker: bool, depth: u16) -> Option<(u16, Move)> {
    best_choice(attacker, child_lookups(s, depth))
}

/// Among `children` (moves with what is known of their children): the attacker's proven
/// check with the shortest mate, or the defender's reply with the longest when every reply
/// is proven.
fn best_choice(attacker: bool, children: Vec<(Move, Lookup)>) -> Option<(u16, Move)> {
    let mut best: Option<(u16, Move)> = None;
    for (m, v) in children {
        if !v.is_proven() {
            if attacker {
                continue;
            }
            return None;
        }
        let better = match best {
            None => true,
            Some((l, _)) if attacker => v.proof_len < l,
            Some((l, _)) => v.proof_len > l,
        };
        if better {
            best = Some((v.proof_len, m));
        }
    }
    best
}

/// Replay `line` from `pos`: legal moves, every attacker move gives check, no position for
/// the fourth time (counting the game before `pos`: sennichite ends the game first), odd
/// length, and the side to move at the end has no legal move.
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    if line.len().is_multiple_of(2) {
        return false;
    }
    for (i, &m) in line.iter().enumerate() {
        if !p.is_legal(m) {
            return false;
        }
        p.do_move(m);
        if i % 2 == 0 && !p.in_check() {
            return false;
        }
        if p.repetition(4) != Repetition::None {
            return false;
        }
    }
    legal(&p).is_empty()
}
