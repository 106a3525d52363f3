//! One search thread: iterative deepening with aspiration windows over PVS alpha-beta and
//! a quiescence search, as DESIGN.md §4 describes (TT use §4.6, null move §4.7, LMR §4.8,
//! ordering §5.1, SEE pruning §4.9, killers §5.2, history §5.3, TT store §4.10).

use super::choice;
use super::correction::{CorrectionHistory, CorrectionKeys};
use super::limits::Limits;
use super::mate::{self, MateLimits, MateResult};
use super::ordering::{
    pawn_history_slot, pick_next, piece_to, stat_bonus, Heuristics, QuietContext,
    CONTINUATION_PLIES,
};
use super::params::SearchParams;
use super::picker::{skipped, MovePicker};
use super::skill::Skill;
use super::threads::RootSplit;
use super::time::TimeManager;
use super::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable, MATE_THRESHOLD};
use super::{
    mate_in, mated_in, BestMove, Info, Progress, Report, Score, ScoreBound, DRAW, INFINITE, MAX_PLY,
};
use crate::eval::{EvalConfig, Evaluator};
use crate::shogi::movegen::has_legal_move;
use crate::shogi::rules::{DeclarationRule, HandCycle, Repetition};
use crate::shogi::see::see_value;
use crate::shogi::{generate_legal, Color, GenType, Move, PieceType, Position, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// The longest path the root mate-threat check follows (`Tune_RootMateThreatNodes`): its
/// budgets are small, and the search thread's stack is the default one.
const ROOT_MATE_THREAT_MAX_PATH: usize = 128;

/// Depth stored for quiescence results (below any main-search depth).
const QS_DEPTH: i32 = -1;
/// Depth stored for quiescence results that tried quiet checks or every evasion, with
/// `Tune_QsCheckTtDepth` (still below any main-search depth, which starts at 1).
const QS_DEPTH_CHECKS: i32 = 0;
/// How far back `Tune_HandCycleScore` looks for the board coming back with other hands
/// (YaneuraOu's bound: such cycles are short, and a longer walk costs every node).
const HAND_CYCLE_PLIES: usize = 16;
/// How often (in nodes) the clock is read.
const CLOCK_INTERVAL: u64 = 1024;
/// Progress figures come when no line came for this long (ms): once a second, as GUIs
/// refresh their node and speed counters.
const PROGRESS_INTERVAL_MS: u64 = 1000;

/// A node counter on its own cache line, written only by its thread (DESIGN.md §7.5: the
/// base design shares one atomic counter; per-thread counters summed on read avoid making
/// every node an atomic read-modify-write on a shared line).
#[repr(align(64))]
#[derive(Default)]
pub struct NodeCounter(AtomicU64);

/// Shared control of a running search.
pub struct Control {
    /// Set by `stop` (or by the search itself when a limit is reached).
    pub stop: AtomicBool,
    /// True while pondering or in an infinite search: the search must not end by itself.
    pub waiting: AtomicBool,
    /// Set by `ponderhit`: restart the clock.
    pub ponderhit: AtomicBool,
    /// Nodes searched, one counter per thread.
    counters: Vec<NodeCounter>,
}

impl Control {
    /// Control of a single-threaded search.
    pub fn new() -> Control {
        Control::with_threads(1)
    }

    /// Control of a search with `threads` workers.
    pub fn with_threads(threads: usize) -> Control {
        Control {
            stop: AtomicBool::new(false),
            waiting: AtomicBool::new(false),
            ponderhit: AtomicBool::new(false),
            counters: (0..threads.max(1))
                .map(|_| NodeCounter::default())
                .collect(),
        }
    }

    /// Nodes searched by all workers so far.
    pub fn nodes(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum()
    }
}

impl Default for Control {
    fn default() -> Self {
        Control::new()
    }
}

/// A root move with its latest score and line.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: u32,
    pub bound: ScoreBound,
    /// The iteration that found `score` (0: none yet). After an interrupted iteration it
    /// tells a score of that iteration from one of the last completed iteration, so that a
    /// report pairs each score with its own depth.
    pub depth: u32,
    /// `Tune_RootMateThreatNodes`: `None` until checked, then the length in plies of the
    /// opponent's mate after this move that the solver found (0: none found).
    mate_threat: Option<u16>,
}

impl RootMove {
    /// A root move not searched yet, with `pv` as its line.
    fn unsearched(pv: Vec<Move>) -> RootMove {
        RootMove {
            mv: pv[0],
            score: -INFINITE,
            prev_score: -INFINITE,
            pv,
            seldepth: 0,
            bound: ScoreBound::Exact,
            depth: 0,
            mate_threat: None,
        }
    }
}

/// The ranking after an interrupted iteration of `depth`: it still ranks the moves it
/// finished, and its best move stays only if it was searched fully (it then sits first with
/// a real score); else the last completed iteration's order stands. A move the iteration
/// never reached still holds the previous iteration's score, which must not outrank this
/// iteration's (after a first move that failed low, say): it counts as unsearched.
fn rank_after_interruption(root_moves: &mut [RootMove], depth: u32) {
    for rm in root_moves.iter_mut() {
        if rm.depth < depth {
            rm.score = -INFINITE;
        }
    }
    root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.score));
    if root_moves[0].score == -INFINITE {
        root_moves.sort_by_key(|rm| std::cmp::Reverse(rm.prev_score));
    }
}

/// Per-ply scratch space.
struct Frame {
    /// The moves of this ply's node (the quiescence search uses its lists directly).
    picker: MovePicker,
    pv: Vec<Move>,
    /// The (piece, destination) pair of the move being searched from this ply (`None`
    /// for a null move): what continuation histories and counter moves are keyed by.
    piece_to: Option<usize>,
    /// The static evaluation of this ply's node (`-INFINITE` in check): two plies later it
    /// tells whether the side to move is improving.
    static_eval: i32,
    /// The move a singular-extension search leaves out of this node (`NONE` otherwise).
    excluded: Move,
    /// Beta cut-offs at this ply since the node two plies up started: many mean that the
    /// node one ply up is refuted move after move (`Tune_LmrCutoffCount`).
    cutoff_count: u32,
    /// The plies by which the move being searched from this ply is reduced (0 outside a
    /// reduced search): the child's depth in hindsight (`Tune_HindsightMargin`).
    reduction: i32,
    /// Whether this ply's node is or was once on a PV (`Tune_TtPvFailLow`).
    tt_pv: bool,
}

/// Settings that do not change during a search.
#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub multipv: u32,
    pub declaration: DeclarationRule,
    /// Minimum interval between reports of intermediate iterations (ms; `PvInterval`).
    pub info_interval_ms: u64,
    /// Report fail-high / fail-low bound lines of long searches (off in
    /// `ConsiderationMode`).
    pub report_bounds: bool,
    /// Techniques beyond the base design (DESIGN.md §6), each on only if a match showed it helps.
    pub features: Features,
    /// Score of a repetition draw for the side to move, indexed by colour (USI
    /// `DrawValueBlack` / `DrawValueWhite`, seen from the root side and negated for the other).
    pub draw_value: [i32; 2],
    /// A game reaching this move number is drawn (`MaxMovesToDraw`; 0 = no limit).
    pub max_moves_to_draw: u32,
    /// Resign when the final score is below minus this (`ResignValue`).
    pub resign_value: i32,
    /// Strength limit (`SkillLevel` below 20).
    pub skill: Option<Skill>,
    /// A book move to play without searching, with its expected reply.
    pub book_move: Option<(Move, Option<Move>)>,
    /// The evaluation: a loaded net and `FV_SCALE`, or the hand-crafted one.
    pub eval: EvalConfig,
    /// Forget the move-ordering history of earlier searches (the first search of a new
    /// game).
    pub fresh_history: bool,
    /// Margins, reductions and history constants (DESIGN.md §6.5).
    pub params: SearchParams,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            multipv: 1,
            declaration: DeclarationRule::Csa27,
            info_interval_ms: crate::options::DEFAULT_PV_INTERVAL_MS,
            report_bounds: true,
            features: Features::default(),
            draw_value: [DRAW; 2],
            max_moves_to_draw: 0,
            resign_value: NEVER_RESIGN,
            skill: None,
            book_move: None,
            eval: EvalConfig::default(),
            fresh_history: false,
            params: SearchParams::default(),
        }
    }
}

/// `ResignValue` that never resigns a position with a legal move.
pub const NEVER_RESIGN: i32 = 99_999;

/// The flag of one feature inside [`Features`].
type FeatureFlag = fn(&mut Features) -> &mut bool;

/// Search techniques beyond the base design (DESIGN.md §6). The defaults are the measured
/// winners (see the README's search section and DESIGN.md §6.1 for the self-play results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Reverse futility: at shallow depth, a static eval far above beta cuts.
    pub reverse_futility: bool,
    /// Futility: at shallow depth, skip quiet moves when the static eval is far below alpha.
    pub futility: bool,
    /// Late-move pruning: at shallow depth, skip quiet moves after the first few.
    pub late_move_pruning: bool,
    /// Deeper late-move reductions: at least the base 1-2 plies (DESIGN.md §4.8), growing with
    /// ln(depth) x ln(move index); less for moves with good history.
    pub log_lmr: bool,
    /// SEE pruning: at shallow depth, skip captures and quiet moves that lose material
    /// beyond a depth-scaled margin.
    pub see_pruning: bool,
    /// Razoring: at depth 1-2, drop into quiescence when far below alpha.
    pub razoring: bool,
    /// Quiescence evasion pruning: in check, once an evasion has saved the king, skip
    /// the non-capturing evasions after the first one (drops and king steps).
    /// Bounds the check / interpose / recapture chains that otherwise grow without limit
    /// when the evaluation does not follow material (a random NNUE net: 500M nodes at
    /// depth 4 in a bench position).
    pub qs_evasion_pruning: bool,
    /// Quiescence searches non-capturing promotions only when SEE does not lose the piece.
    pub qs_safe_promotions: bool,
    /// Correction history (DESIGN.md §4.13): the static evaluation moved by its recent
    /// errors in positions with the same pawns, piece placement of a side, hands, or last
    /// move.
    pub correction_history: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features::MEASURED
    }
}

impl Features {
    /// The default: what fixed-node self-play matches (400 games, 10,000 nodes per move,
    /// `examples/selfplay.rs`) showed to help. Each vs. the base search alone: futility
    /// +78 Elo (95%: +44..+113), razoring +69 (+35..+104), check extension +12 (-22..+46),
    /// reverse futility +20 (-14..+54), late-move pruning +16 (-18..+50). On top of
    /// futility + razoring: reverse futility +61 (+27..+96), late-move pruning +15
    /// (-19..+49), check extension +1 (-33..+35). Kept: the three that were significant.
    /// Later, at 20,000 nodes per move, 400 games each: log_lmr on top of those three
    /// +54 (+20..+89), see_pruning +36 (+2..+70); then on top of log_lmr: late-move
    /// pruning +61 (+27..+96), see_pruning +35 (+1..+69). Kept: all three. On top of
    /// those six: history malus +29 (-5..+63), internal iterative reduction -22
    /// (-56..+12), futility up to depth 6 +7 (-27..+41), LMR a quarter stronger -3
    /// (-37..+31): not significant, deleted (DESIGN.md §6.3). Then, at 20,000 nodes per move, 400 games, the two
    /// quiescence bounds together (qs_evasion_pruning, qs_safe_promotions) on top of the six:
    /// +125 (+90..+163), on. They also keep random-net NNUE searches finite (a bench
    /// position took 500M nodes at depth 4 without them). Correction history against
    /// the eight (pentanomial SPRT at 15,000 nodes, `s-corr1`): H1 after 757 games,
    /// +51.9 (+26.9..+77.3), on (its last-move table, `Tune_CorrLastMoveWeight`, +27.5
    /// more).
    pub const MEASURED: Features = Features {
        reverse_futility: true,
        futility: true,
        late_move_pruning: true,
        razoring: true,
        log_lmr: true,
        see_pruning: true,
        qs_evasion_pruning: true,
        qs_safe_promotions: true,
        correction_history: true,
    };

    /// All techniques off: the base design's search exactly (DESIGN.md §4, §5).
    pub const SEEDS_ONLY: Features = Features {
        reverse_futility: false,
        futility: false,
        late_move_pruning: false,
        razoring: false,
        log_lmr: false,
        see_pruning: false,
        qs_evasion_pruning: false,
        qs_safe_promotions: false,
        correction_history: false,
    };

    /// Every feature by name, with its flag (the one list that `parse` and `to_list`
    /// read).
    const NAMES: [(&'static str, FeatureFlag); 9] = [
        ("reverse_futility", |f| &mut f.reverse_futility),
        ("futility", |f| &mut f.futility),
        ("late_move_pruning", |f| &mut f.late_move_pruning),
        ("razoring", |f| &mut f.razoring),
        ("log_lmr", |f| &mut f.log_lmr),
        ("see_pruning", |f| &mut f.see_pruning),
        ("qs_evasion_pruning", |f| &mut f.qs_evasion_pruning),
        ("qs_safe_promotions", |f| &mut f.qs_safe_promotions),
        ("correction_history", |f| &mut f.correction_history),
    ];

    /// Parse a comma-separated list of feature names ("check_extension,futility"); "none"
    /// for none.
    pub fn parse(list: &str) -> Result<Features, String> {
        let mut f = Features::SEEDS_ONLY;
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            if name == "none" {
                continue;
            }
            let (_, flag) = Features::NAMES
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| format!("unknown search feature '{name}'"))?;
            *flag(&mut f) = true;
        }
        Ok(f)
    }

    /// The features that are on, as `parse` reads them ("none" for none).
    pub fn to_list(&self) -> String {
        let mut copy = *self;
        let on: Vec<&str> = Features::NAMES
            .iter()
            .filter(|(_, flag)| *flag(&mut copy))
            .map(|(name, _)| *name)
            .collect();
        if on.is_empty() {
            "none".into()
        } else {
            on.join(",")
        }
    }
}

/// Result of a completed search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The answer delivered to the best-move sink.
    pub best: BestMove,
    /// Score of the best move in centipawns (internal scale; `None` without a search).
    pub score: Option<i32>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Every root move with its last score, best first.
    pub root_moves: Vec<RootMove>,
}

/// A search thread's state. Worker 0 is the main worker: it manages time and reports;
/// others are Lazy SMP helpers that search the same root through the shared table.
pub struct Worker {
    id: usize,
    pos: Position,
    eval: Evaluator,
    tt: Arc<TranspositionTable>,
    control: Arc<Control>,
    heur: Heuristics,
    /// The static evaluation's recent errors (DESIGN.md §4.13).
    correction: CorrectionHistory,
    /// The log-scaled LMR table of `config.params`.
    lmr: LmrTable,
    frames: Vec<Frame>,
    limits: Limits,
    config: SearchConfig,
    time: TimeManager,
    nodes: u64,
    seldepth: usize,
    root_moves: Vec<RootMove>,
    /// The iteration's depth, which a root move searched in it records: the root itself
    /// may be searched shallower (internal iterative reduction, `Tune_AspirationFailHighCut`),
    /// and a move it searched must not count as unsearched when the iteration is
    /// interrupted (`rank_after_interruption`).
    root_depth: u32,
    /// The first root move of the MultiPV line being searched.
    root_pv_idx: usize,
    completed_depth: u32,
    last_info_ms: Option<u64>,
    /// Where the main worker sends progress figures during long iterations.
    progress: Option<Arc<dyn Report>>,
}

impl Worker {
    pub fn new(
        pos: Position,
        tt: Arc<TranspositionTable>,
        control: Arc<Control>,
        limits: Limits,
        config: SearchConfig,
        time: TimeManager,
    ) -> Worker {
        let eval = Evaluator::for_search(&pos, &config.eval);
        let frames = (0..MAX_PLY + 2)
            .map(|_| Frame {
                picker: MovePicker::new(),
                pv: Vec::new(),
                piece_to: None,
                static_eval: -INFINITE,
                excluded: Move::NONE,
                cutoff_count: 0,
                reduction: 0,
                tt_pv: false,
            })
            .collect();
        Worker {
            id: 0,
            pos,
            eval,
            tt,
            control,
            heur: Heuristics::new(MAX_PLY),
            correction: CorrectionHistory::new(),
            lmr: LmrTable::new(config.params.lmr_divisor()),
            frames,
            limits,
            config,
            time,
            nodes: 0,
            seldepth: 0,
            root_moves: Vec::new(),
            root_depth: 0,
            root_pv_idx: 0,
            completed_depth: 0,
            last_info_ms: None,
            progress: None,
        }
    }

    /// Reuse this worker (its frames and history) for a new search as worker `id`.
    #[allow(clippy::too_many_arguments)]
    pub fn reset(
        &mut self,
        id: usize,
        pos: Position,
        tt: Arc<TranspositionTable>,
        control: Arc<Control>,
        limits: Limits,
        config: SearchConfig,
        time: TimeManager,
    ) {
        self.id = id;
        self.eval.renew(&pos, &config.eval);
        self.pos = pos;
        self.tt = tt;
        self.control = control;
        self.limits = limits;
        self.config = config;
        if self.lmr.divisor != self.config.params.lmr_divisor() {
            self.lmr = LmrTable::new(self.config.params.lmr_divisor());
        }
        self.heur.counter_move_bonus = self.config.params.counter_move_bonus();
        self.time = time;
        self.nodes = 0;
        self.seldepth = 0;
        self.root_moves.clear();
        self.completed_depth = 0;
        self.last_info_ms = None;
        // Killers and the low-ply history belong to the last search's plies; history
        // carries over within a game. (The low-ply history is read and written only when
        // on, so it is cleared only then.)
        if self.config.params.low_ply_history() > 0 {
            self.heur.clear_low_ply();
        }
        if self.config.fresh_history {
            self.heur.clear();
            self.correction.clear();
        } else {
            for k in &mut self.heur.killers {
                *k = [Move::NONE; 2];
            }
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    #[inline]
    fn stopped(&self) -> bool {
        self.control.stop.load(Ordering::Relaxed)
    }

    /// Count a node and check the limits: nodes exactly, the clock every 1024 nodes.
    #[inline]
    fn tick(&mut self) {
        self.count_nodes(1, false);
        if self.is_main() && self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            if self.control.ponderhit.swap(false, Ordering::Relaxed) {
                self.time.restart();
            }
            if !self.control.waiting.load(Ordering::Relaxed) && self.time.hard_exceeded() {
                self.control.stop.store(true, Ordering::Relaxed);
            }
            self.maybe_report_progress();
        }
    }

    /// Send progress figures when no output came for [`PROGRESS_INTERVAL_MS`].
    #[cold]
    fn maybe_report_progress(&mut self) {
        let Some(report) = &self.progress else {
            return;
        };
        let now = self.time.elapsed_ms();
        if now < self.last_info_ms.unwrap_or(0) + PROGRESS_INTERVAL_MS {
            return;
        }
        let nodes = self.control.nodes();
        report.progress(&Progress {
            nodes,
            nps: nodes * 1000 / now.max(1),
            time_ms: now,
            hashfull: self.tt.hashfull_permille(),
        });
        self.last_info_ms = Some(now);
    }

    /// The main worker sends progress figures of long iterations to `report`.
    pub fn report_progress_to(&mut self, report: Arc<dyn Report>) {
        self.progress = Some(report);
    }

    /// Play `m` from the node at `ply`.
    fn do_move(&mut self, ply: usize, m: Move) {
        // The child's first probes (the table's cluster, then the evaluation's cache) are
        // on their way while the move is made.
        let key = self.pos.key_after(m);
        self.tt.prefetch(key);
        self.eval.prefetch(key);
        self.frames[ply].piece_to = Some(piece_to(&self.pos, m));
        self.eval.do_move(&self.pos, m);
        self.pos.do_move(m);
    }

    /// The pairs of the moves 1, 2 and 4 plies before the node at `ply` (inside this search).
    #[inline]
    fn quiet_context(&self, ply: usize) -> QuietContext {
        let mut pairs = CONTINUATION_PLIES
            .map(|back| ply.checked_sub(back).and_then(|p| self.frames[p].piece_to));
        if self.config.params.continuation_ply6() == 0 {
            pairs[3] = None;
        }
        let pawn_weight = self.config.params.pawn_history();
        QuietContext {
            pairs,
            pawn_slot: (pawn_weight > 0).then(|| pawn_history_slot(&self.pos)),
            pawn_weight,
        }
    }

    fn undo_move(&mut self) {
        self.pos.undo_move();
        self.eval.undo_move();
    }

    /// Run iterative deepening and return the result. `report` receives info lines.
    pub fn run(&mut self, report: &dyn Report) -> SearchResult {
        if let Some(end) = self.prepare_root() {
            return self.finish(end, None);
        }
        let mut multipv = self
            .limits
            .multipv
            .unwrap_or(self.config.multipv)
            .clamp(1, 32) as usize;
        let mut max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 10)
            .min(MAX_PLY as u32 - 10);
        if let Some(skill) = self.config.skill {
            multipv = multipv.max(skill.multipv());
            max_depth = max_depth.min(skill.max_depth());
        }
        let multipv = multipv.min(self.root_moves.len());
        let mut instability = 0.0f64;
        let mut last_best = Move::NONE;
        // Lazy SMP: helpers start one ply deeper every other thread, so that the threads
        // spread over neighbouring depths and fill the shared table for each other.
        let first_depth = 1 + (self.id % 2) as u32;
        for depth in first_depth..=max_depth {
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.config.params.aspiration_delta();
                let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_THRESHOLD {
                    ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                } else {
                    (-INFINITE, INFINITE)
                };
                // `Tune_AspirationFailHighCut` (off, to test): each fail high in a row
                // searches the window again this many plies shallower (Stockfish's).
                let mut fail_highs = 0;
                self.root_depth = depth;
                loop {
                    self.root_pv_idx = pv_idx;
                    let cut = fail_highs * self.config.params.aspiration_fail_high_cut();
                    let search_depth = (depth as i32 - cut).max(1);
                    let score = self.search(alpha, beta, search_depth, 0, true, false);
                    // Stable sort keeps the previous order among equal scores.
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped() {
                        break;
                    }
                    if score <= alpha {
                        fail_highs = 0;
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITE);
                        self.root_moves[pv_idx].bound = ScoreBound::Upper;
                        self.report_bound(report, depth, pv_idx);
                    } else if score >= beta {
                        fail_highs += 1;
                        beta = (score + delta).min(INFINITE);
                        self.root_moves[pv_idx].bound = ScoreBound::Lower;
                        self.report_bound(report, depth, pv_idx);
                    } else {
                        self.root_moves[pv_idx].bound = ScoreBound::Exact;
                        break;
                    }
                    delta += delta / 2;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                rank_after_interruption(&mut self.root_moves, depth);
                break;
            }
            self.complete_iteration(report, depth, multipv, &mut instability, &mut last_best);
            // A mate found and proven shorter than the depth: deeper search changes nothing.
            let top = self.root_moves[0].score;
            if top.abs() >= MATE_THRESHOLD
                && (super::MATE - top.abs()) < depth as i32
                && self.limits.depth.is_none()
                && multipv == 1
                && !self.control.waiting.load(Ordering::Relaxed)
            {
                break;
            }
            if self.time_to_stop(instability) {
                break;
            }
        }
        // Pondering and infinite searches wait for `stop` / `ponderhit` before answering.
        if self.is_main() {
            self.wait_while_required();
        }
        self.answer(report, multipv)
    }

    /// Score of a repetition or move-limit draw for the side to move.
    fn draw_score(&self) -> i32 {
        self.config.draw_value[self.pos.side_to_move().index()]
    }

    /// Bookkeeping after a finished iteration: the root result goes to the table (for
    /// probes, pondering and reuse), the iteration is reported, and the best move's
    /// instability is updated.
    fn complete_iteration(
        &mut self,
        report: &dyn Report,
        depth: u32,
        multipv: usize,
        instability: &mut f64,
        last_best: &mut Move,
    ) {
        self.completed_depth = depth;
        let (root_key, best) = (self.pos.key(), &self.root_moves[0]);
        self.store_tt(
            root_key,
            depth as i32,
            0,
            best.score,
            -INFINITE,
            INFINITE,
            best.mv,
            None,
            true,
        );
        self.report_iteration(report, depth, multipv, false);
        let best = self.root_moves[0].mv;
        *instability = *instability * 0.5
            + if best != *last_best && depth > 1 {
                1.0
            } else {
                0.0
            };
        *last_best = best;
    }

    /// Between iterations: restart the clock at a ponder hit, then ask the time manager.
    fn time_to_stop(&mut self, instability: f64) -> bool {
        if self.control.ponderhit.swap(false, Ordering::Relaxed) {
            self.time.restart();
        }
        !self.control.waiting.load(Ordering::Relaxed)
            && self.time.should_stop_iterating(instability)
    }

    /// Fill the root moves; `Some` when no search is needed (a declaration win, a book
    /// move, or no legal move: resign).
    fn prepare_root(&mut self) -> Option<BestMove> {
        let answer = choice::answer_without_search(
            &self.pos,
            self.config.declaration,
            self.config.book_move,
            &self.limits.searchmoves,
        );
        match answer {
            Ok(moves) => {
                self.root_moves = moves
                    .into_iter()
                    .map(|mv| RootMove::unsearched(vec![mv]))
                    .collect();
                None
            }
            Err(BestMove::Move { best, ponder }) => {
                self.root_moves = vec![RootMove::unsearched(
                    std::iter::once(best).chain(ponder).collect(),
                )];
                Some(BestMove::Move { best, ponder })
            }
            Err(end) => Some(end),
        }
    }

    /// DESIGN.md §7.3: one root move, full window, as a root-splitting worker.
    fn search_root_move(&mut self, m: Move, depth: i32) -> (i32, Vec<Move>) {
        self.do_move(0, m);
        let score = -self.search(-INFINITE, INFINITE, depth - 1, 1, true, false);
        self.undo_move();
        let mut pv = vec![m];
        pv.extend_from_slice(&self.frames[1].pv);
        (score, pv)
    }

    /// Pull root moves from `split` until none is left or the search stops.
    fn work_on_iteration(&mut self, split: &RootSplit, depth: i32, moves: &[Move]) {
        loop {
            let i = split.next.fetch_add(1, Ordering::Relaxed);
            let Some(&m) = moves.get(i) else {
                break;
            };
            let (score, pv) = self.search_root_move(m, depth);
            if self.stopped() {
                split.aborted.store(true, Ordering::Relaxed);
                break;
            }
            split.results.lock()[i] = (score, pv);
        }
    }

    /// Root-move splitting (DESIGN.md §7.3), main worker: per iteration the root moves
    /// are handed out through an atomic index to all workers, each searched with a full
    /// window; an aborted iteration is discarded and the previous one stands.
    pub fn run_rootsplit(&mut self, report: &dyn Report, split: &RootSplit) -> SearchResult {
        if let Some(end) = self.prepare_root() {
            split.finish();
            return self.finish(end, None);
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 10)
            .min(MAX_PLY as u32 - 10);
        let mut instability = 0.0f64;
        let mut last_best = Move::NONE;
        for depth in 1..=max_depth {
            let moves: Vec<Move> = self.root_moves.iter().map(|r| r.mv).collect();
            split.begin(moves.clone(), depth as i32);
            self.seldepth = 0;
            self.work_on_iteration(split, depth as i32, &moves);
            split.wait_for_helpers();
            if self.stopped() || split.aborted.load(Ordering::Relaxed) {
                break;
            }
            let results = std::mem::take(&mut *split.results.lock());
            for (rm, (score, pv)) in self.root_moves.iter_mut().zip(results) {
                rm.prev_score = rm.score;
                rm.score = score;
                rm.pv = pv;
                rm.seldepth = self.seldepth as u32;
                rm.bound = ScoreBound::Exact;
                rm.depth = depth;
            }
            self.root_moves
                .sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.complete_iteration(report, depth, 1, &mut instability, &mut last_best);
            if self.time_to_stop(instability) {
                break;
            }
        }
        split.finish();
        self.wait_while_required();
        if self.completed_depth == 0 {
            // Not even depth 1 finished: any legal move beats none.
            self.root_moves.truncate(1);
        }
        self.answer(report, 1)
    }

    /// Root-move splitting, helper: work on each iteration the main worker opens.
    pub fn help_rootsplit(&mut self, split: &RootSplit) -> SearchResult {
        let mut seen = 0;
        while let Some((epoch, depth, moves)) = split.wait_for_iteration(seen) {
            seen = epoch;
            self.work_on_iteration(split, depth, &moves);
            split.helper_done();
        }
        self.finish(BestMove::Resign, None)
    }

    /// The best root move with its ponder move and score, after a last report.
    fn answer(&mut self, report: &dyn Report, multipv: usize) -> SearchResult {
        self.report_iteration(report, self.completed_depth.max(1), multipv, true);
        let score_of = |rm: &RootMove| {
            Some(if rm.score > -INFINITE {
                rm.score
            } else {
                rm.prev_score
            })
            .filter(|&s| s > -INFINITE)
        };
        let mut chosen = 0;
        if let Some(skill) = self.is_main().then_some(self.config.skill).flatten() {
            let scores: Vec<i32> = self.root_moves[..multipv]
                .iter()
                .map_while(score_of)
                .collect();
            chosen = skill.pick(&scores);
        }
        let best = self.root_moves[chosen].mv;
        let ponder = match self.root_moves[chosen].pv.get(1) {
            Some(&p) => Some(p),
            None => self.ponder_from_tt(best),
        };
        let score = score_of(&self.root_moves[chosen]);
        if choice::resigns(score, self.config.resign_value) {
            return self.finish(BestMove::Resign, score);
        }
        self.finish(BestMove::Move { best, ponder }, score)
    }

    fn wait_while_required(&self) {
        while self.control.waiting.load(Ordering::Acquire) && !self.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
    }

    fn finish(&mut self, best: BestMove, score: Option<i32>) -> SearchResult {
        // Answers found without searching (win, resign, book) still wait for stop/ponderhit.
        if self.is_main() && (self.completed_depth == 0 || !matches!(best, BestMove::Move { .. })) {
            self.wait_while_required();
        }
        SearchResult {
            best,
            score,
            depth: self.completed_depth,
            nodes: self.control.nodes(),
            root_moves: self.root_moves.clone(),
        }
    }

    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.pos.do_move(best);
        let m = self
            .tt
            .probe(self.pos.key())
            .map(|e| e.mv)
            .filter(|&m| m.is_some() && self.pos.is_legal(m));
        self.pos.undo_move();
        m
    }

    fn info_for(&self, depth: u32, i: usize) -> Info {
        let rm = &self.root_moves[i];
        let elapsed = self.time.elapsed_ms();
        let nodes = self.control.nodes();
        let score = if rm.score == -INFINITE {
            rm.prev_score
        } else {
            rm.score
        };
        Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv: i as u32 + 1,
            score: Score::from_internal(score.clamp(-super::MATE, super::MATE)),
            bound: rm.bound,
            nodes,
            nps: nodes * 1000 / elapsed.max(1),
            time_ms: elapsed,
            hashfull: self.tt.hashfull_permille(),
            pv: rm.pv.clone(),
        }
    }

    fn report_iteration(&mut self, report: &dyn Report, depth: u32, multipv: usize, last: bool) {
        let now = self.time.elapsed_ms();
        if !last {
            if let Some(t) = self.last_info_ms {
                if now.saturating_sub(t) < self.config.info_interval_ms {
                    return;
                }
            }
        }
        // The final report always comes (with the nodes and time at the end, which GUIs
        // show), even when its lines repeat the last iteration's.
        for i in 0..multipv {
            let rm = &self.root_moves[i];
            if rm.score == -INFINITE && rm.prev_score == -INFINITE {
                continue;
            }
            // After an interrupted iteration, a line keeps the depth of the iteration its
            // score comes from: the unfinished one for a move it searched, else the last
            // completed one (whose score `info_for` falls back to).
            let line_depth = if last && rm.score != -INFINITE && rm.depth > 0 {
                rm.depth
            } else {
                depth
            };
            let mut info = self.info_for(line_depth, i);
            if last {
                info.bound = ScoreBound::Exact;
            }
            report.info(&info);
        }
        self.last_info_ms = Some(now);
    }

    fn report_bound(&mut self, report: &dyn Report, depth: u32, pv_idx: usize) {
        // Fail-high/low lines only in long searches, to keep shallow output short.
        if self.config.report_bounds && self.time.elapsed_ms() >= 1000 {
            report.info(&self.info_for(depth, pv_idx));
        }
    }

    /// Negamax alpha-beta with PVS (DESIGN.md §4). The root (`ply` 0) is searched here
    /// too (§4.4): its moves are the root moves from `root_pv_idx` on (earlier ones belong
    /// to earlier MultiPV lines), the line's best so far first and then in the picker's
    /// order, and each one's score and line is kept in `root_moves`. `cut_node`: a
    /// null-window node expected to fail high (the reduced search of a late move, and
    /// every other ply below it).
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, pv_node, 0);
        }
        self.frames[ply].pv.clear();
        self.tick();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let root = ply == 0;
        if !root {
            // Repetition: the first repeat inside the search already scores (draw or
            // perpetual-check result).
            match self.pos.repetition(2) {
                Repetition::None => {}
                Repetition::Draw => return self.draw_score(),
                Repetition::Win => return mate_in(ply),
                Repetition::Loss => return mated_in(ply),
            }
            let hand_cycle_score = self.config.params.hand_cycle_score();
            // Not in check: a side that escaped by drops the cycle took may now be mated.
            if hand_cycle_score > 0 && !self.pos.in_check() {
                match self.pos.hand_cycle(HAND_CYCLE_PLIES) {
                    HandCycle::None => {}
                    HandCycle::Superior => return hand_cycle_score,
                    HandCycle::Inferior => return -hand_cycle_score,
                }
            }
            if self.config.max_moves_to_draw > 0
                && self.pos.move_number() > self.config.max_moves_to_draw
            {
                // The game is over by the move limit unless this position is already mate.
                return if self.pos.in_check() && !has_legal_move(&self.pos) {
                    mated_in(ply)
                } else {
                    self.draw_score()
                };
            }
            if ply >= MAX_PLY {
                return self.eval.evaluate(&self.pos);
            }
            // Mate distance pruning.
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let alpha_original = alpha;
        self.frames[ply + 2].cutoff_count = 0;
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        // A singular-extension search of this node without its table move (DESIGN.md
        // §4.12): no table cut-off, no null move, nothing stored.
        let excluded = self.frames[ply].excluded;
        let exclusion = excluded.is_some();

        // DESIGN.md §4.6: transposition table.
        let mut tt_move = Move::NONE;
        let mut tt_hint = None;
        let mut tt_eval = None;
        // DESIGN.md §3.2: on a PV now, or when the table last saw this node.
        let mut tt_pv = pv_node;
        if let Some(e) = self.tt.probe(key).filter(|_| !exclusion) {
            if self.valid_tt_move(e.mv) {
                tt_move = e.mv;
            }
            tt_eval = e.eval;
            tt_pv |= e.pv;
            let s = score_from_tt(e.score, ply);
            tt_hint = Some((s, e.bound, e.depth));
            if !pv_node
                && e.depth >= depth
                && self.tt_cut_trusted(s, e.depth, depth, beta, cut_node)
            {
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower => alpha = alpha.max(s),
                    Bound::Upper => beta = beta.min(s),
                }
                if alpha >= beta {
                    return s;
                }
            }
        }

        // DESIGN.md §4.5: a mate in one ends the node (the rules core's detector, §2.6).
        let mate1_depth = self.config.params.mate1_depth();
        if mate1_depth > 0
            && depth >= mate1_depth
            && !root
            && !in_check
            && tt_move.is_none()
            && !exclusion
        {
            if let Some((m, score)) = self.mate_in_one_at(ply, pv_node) {
                self.store_tt(key, depth, ply, score, alpha_original, beta, m, None, tt_pv);
                return score;
            }
        }

        // The table keeps the static eval, which saves evaluating the node again (the
        // evaluation's own, before the correction, which changes as the search learns).
        let raw_eval = if in_check {
            -INFINITE
        } else if let Some(e) = tt_eval {
            e
        } else {
            self.eval.evaluate(&self.pos)
        };
        let (static_eval, correction_keys) = if in_check {
            (raw_eval, None)
        } else {
            self.corrected_eval(raw_eval, ply)
        };
        self.frames[ply].static_eval = static_eval;
        // DESIGN.md §4.5: improving when the static eval beats the one two plies back (four
        // when that node was in check; true when neither was evaluated).
        let mut improving = !in_check && {
            let back = |k: usize| ply.checked_sub(k).map(|p| self.frames[p].static_eval);
            match (back(2), back(4)) {
                (Some(e2), _) if e2 != -INFINITE => static_eval > e2,
                (_, Some(e4)) if e4 != -INFINITE => static_eval > e4,
                _ => true,
            }
        };
        // The table's score is a better estimate than the static eval when its bound
        // points the right way.
        let eval = match tt_hint {
            Some((s, bound, _))
                if !in_check
                    && s.abs() < MATE_THRESHOLD
                    && match bound {
                        Bound::Exact => true,
                        Bound::Lower => s > static_eval,
                        Bound::Upper => s < static_eval,
                    } =>
            {
                s
            }
            _ => static_eval,
        };

        let features = self.config.features;
        let p = self.config.params;
        self.frames[ply].tt_pv = tt_pv;
        // Eval-difference history (`Tune_EvalDiffHistory`, off, rejected: DESIGN.md §6.6): the
        // opponent's last quiet move is judged by how the static evaluation moved across it.
        let eval_diff_history = p.eval_diff_history();
        if eval_diff_history > 0 && !in_check && !exclusion && !root {
            let parent_eval = self.frames[ply - 1].static_eval;
            let last = self.pos.last_move();
            if parent_eval != -INFINITE
                && last.is_some()
                && last != Move::NULL
                && self.pos.last_captured().is_empty()
            {
                let d = (-(parent_eval + static_eval)).clamp(-90, 90) + 30;
                self.heur.update_butterfly(
                    self.pos.side_to_move().flip(),
                    last,
                    eval_diff_history * d,
                );
            }
        }
        // Depth in hindsight (`Tune_HindsightMargin`, off, rejected: DESIGN.md §6.6): the parent's
        // reduction is judged again now that both static evaluations are known.
        let hindsight_margin = p.hindsight_margin();
        if hindsight_margin > 0 && !in_check && !exclusion && !root {
            let parent = &self.frames[ply - 1];
            if parent.static_eval != -INFINITE {
                let opponent_worsening = static_eval > -parent.static_eval;
                if parent.reduction >= 3 && !opponent_worsening {
                    depth += 1;
                }
                if parent.reduction >= 2
                    && depth >= 2
                    && static_eval + parent.static_eval > hindsight_margin
                {
                    depth -= 1;
                }
            }
        }
        if !pv_node && !in_check && eval.abs() < MATE_THRESHOLD {
            // Beyond the base design (DESIGN.md §6.2): reverse futility.
            // `Tune_RfpGuard` (off: DESIGN.md §6.6): not at a node once on a PV (1), nor where
            // the table move is quiet (2).
            let rfp_guard = p.rfp_guard();
            let rfp_allowed = rfp_guard == 0
                || (!tt_pv && (rfp_guard < 2 || tt_move.is_none() || self.pos.is_capture(tt_move)));
            if features.reverse_futility
                && rfp_allowed
                && depth <= p.rfp_depth()
                && eval - p.rfp_margin() * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Beyond the base design (DESIGN.md §6.2): razoring.
            if features.razoring
                && depth <= p.razor_depth()
                && static_eval + p.razor_margin() * depth < alpha
            {
                let v = self.qsearch(alpha, beta, ply, false, 0);
                if v < alpha {
                    return v;
                }
            }
        }

        // Small ProbCut (`Tune_SmallProbcutMargin`, off, undecided: DESIGN.md §6.6): a table lower
        // bound far above beta from a search nearly as deep is trusted to hold at this depth too.
        let small_probcut_margin = p.small_probcut_margin();
        if small_probcut_margin > 0 && !pv_node && !exclusion && beta.abs() < MATE_THRESHOLD {
            if let Some((tt_score, Bound::Lower | Bound::Exact, tt_depth)) = tt_hint {
                let probcut_beta = beta + small_probcut_margin;
                if tt_depth >= depth - 4
                    && tt_score >= probcut_beta
                    && tt_score.abs() < MATE_THRESHOLD
                {
                    return probcut_beta;
                }
            }
        }

        // DESIGN.md §4.7: null move with its conditions. `Tune_NmpCutNodeOnly` (off, rejected:
        // DESIGN.md §6.6): only where a fail high is expected.
        let null_move_node = p.nmp_cut_node_only() == 0 || cut_node;
        // `Tune_NullMateNoPrune` (DESIGN.md §4.7): the null move showed a mate threat.
        let mut null_mate_threat = false;
        // `Tune_Mate1ThreatKeep`: whether the node has asked for a threat (a null move
        // searched has).
        let mut threat_asked = p.mate1_threat_keep() == 0;
        if !pv_node
            && !exclusion
            && null_move_node
            && self.can_try_null_move(depth, beta, eval, in_check)
        {
            threat_asked = true;
            let r = p.nmp_base()
                + depth / p.nmp_depth_divisor()
                + ((eval - beta) / p.nmp_eval_divisor()).min(3);
            self.frames[ply].piece_to = None;
            self.pos.do_null_move();
            self.eval.do_null_move();
            // `Tune_NullChildAllNode` (off, to test): the reply is expected to fail low.
            let child_cut = !cut_node && p.null_child_all_node() == 0;
            let score = -self.search(-beta, -beta + 1, depth - 1 - r, ply + 1, false, child_cut);
            self.eval.undo_move();
            self.pos.undo_null_move();
            if self.stopped() {
                return 0;
            }
            if score >= beta {
                return if score >= MATE_THRESHOLD { beta } else { score };
            }
            null_mate_threat = score <= -MATE_THRESHOLD && p.null_mate_no_prune() > 0;
            // `Tune_ImprovingAfterNull` (off, to test).
            if p.improving_after_null() > 0 && static_eval >= beta {
                improving = true;
            }
        }

        // Internal iterative reduction (DESIGN.md §4.12): a PV or cut node the table knows
        // no move for is searched a ply shallower; its next visit has the move.
        let iir_depth = p.iir_depth();
        // `Tune_SingularNoIir` (off: DESIGN.md §6.6): not in the singular search.
        let iir_skip = exclusion && p.singular_no_iir() > 0;
        if iir_depth > 0
            && depth >= iir_depth
            && tt_move.is_none()
            && (pv_node || cut_node)
            && !iir_skip
        {
            depth -= 1;
        }

        // DESIGN.md §4.12: singular extension. When the table move is the only one that
        // holds the table's bound (the others all fail below it), it is extended; when even
        // the others reach beta, the node cuts (multi-cut); when the table's score alone is
        // above beta, or the node is expected to fail high anyway, the table move is
        // searched one ply shallower instead.
        let mut tt_move_extension = 0;
        let singular_depth = p.singular_depth();
        if let Some((tt_score, bound, tt_depth)) = tt_hint {
            if singular_depth > 0
                && depth >= singular_depth
                && tt_move.is_some()
                && !root
                && !exclusion
                && ply < MAX_PLY / 2
                && tt_depth >= depth - 3
                && bound != Bound::Upper
                && tt_score.abs() < MATE_THRESHOLD
            {
                let singular_beta = tt_score - p.singular_margin() * depth;
                self.frames[ply].excluded = tt_move;
                let s = self.search(
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    false,
                    cut_node,
                );
                self.frames[ply].excluded = Move::NONE;
                if self.stopped() {
                    return 0;
                }
                if s < singular_beta {
                    tt_move_extension = 1;
                } else if p.multi_cut_value() > 0 && s >= beta && s.abs() < MATE_THRESHOLD {
                    // `Tune_MultiCutValue` (off, rejected: DESIGN.md §6.6): the others' own score
                    // cuts.
                    return s;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_score >= beta {
                    tt_move_extension = -p.singular_negative_extension();
                } else if cut_node && p.singular_cut_node_reduction() > 0 {
                    tt_move_extension = -1;
                }
            }
        }

        // The moves, stage by stage (DESIGN.md §5.4).
        let prevs = self.quiet_context(ply);
        let killers = self.heur.killers[ply];
        let refutations = [killers[0], killers[1], self.heur.counter_move(prevs[0])];
        // At the root the line's best move so far comes first, then the picker's order
        // (its statistics rank the other root moves better than their last scores, which
        // are all "below the best").
        let first = if root {
            self.root_moves[self.root_pv_idx].mv
        } else {
            tt_move
        };
        let picker = &mut self.frames[ply].picker;
        picker.set_quiet_check_bonus(self.config.params.quiet_check_bonus());
        picker.set_threat_escape_bonus(self.config.params.threat_escape_bonus());
        picker.set_low_ply(ply, self.config.params.low_ply_history());
        picker.set_bad_quiet_threshold(self.config.params.bad_quiet_threshold());
        picker.set_skip_unpromoted(if root {
            0
        } else {
            self.config.params.skip_unpromoted()
        });
        picker.start(&self.pos, first, refutations);

        // Again: a singular search of this node, at this ply, wrote its own.
        self.frames[ply].tt_pv = tt_pv;
        let us = self.pos.side_to_move();
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut quiets_tried = 0;
        // The quiet moves and captures searched so far, with their pairs (and the captured
        // kind): the ones before a cut-off lose history.
        let mut quiets_listed = 0;
        let mut quiets_searched = [(Move::NONE, 0usize); 32];
        let mut captures_tried = 0;
        let mut captures_searched = [(0usize, 0usize); 32];
        let mut move_count = 0;
        // DESIGN.md §6.2: late-move and capture SEE pruning at PV nodes too (`Tune_PvPrune`);
        // at 2 (off, to test) futility and the SEE pruning of quiet moves as well.
        let pv_prune = pv_node && !root && p.pv_prune() > 0;
        let pv_prune_all = pv_prune && p.pv_prune() > 1;
        let prune_lmr_depth = p.prune_lmr_depth() > 0;
        loop {
            let frame = &mut self.frames[ply];
            let next = frame.picker.next(&self.pos, &self.heur, &prevs);
            // The quiet moves the picker passed over once pruning began count as tried.
            move_count += frame.picker.take_skipped();
            let Some(m) = next else {
                break;
            };
            // At the root, the move's entry in `root_moves`.
            let root_slot = if root {
                match self.root_moves[self.root_pv_idx..]
                    .iter()
                    .position(|rm| rm.mv == m)
                {
                    Some(k) => Some(self.root_pv_idx + k),
                    // Not a move of this line: `searchmoves`, or an earlier MultiPV line's.
                    None => continue,
                }
            } else {
                None
            };
            let i = move_count;
            move_count += 1;
            if m == excluded {
                continue;
            }
            let gives_check = self.pos.gives_check(m);
            let capture = self.pos.is_capture(m);
            let cur = piece_to(&self.pos, m);
            // Quiet in the histories' sense (checks included), and for pruning and LMR.
            let history_quiet = !capture && !m.is_promotion();
            let quiet = history_quiet && !gives_check;
            // `Tune_PruneLmrDepth` (on, DESIGN.md §6.2): futility and the SEE pruning of a
            // quiet move judge it by the depth its reduced search would have (Stockfish's).
            let quiet_prune_depth = if prune_lmr_depth && quiet {
                (depth - 1 - self.lmr.reduction(depth, i)).max(0)
            } else {
                depth
            };
            if quiet
                && i > 0
                && (!pv_node || pv_prune)
                && !in_check
                && best > -MATE_THRESHOLD
                && !null_mate_threat
            {
                // Beyond the base design (DESIGN.md §6.2): late-move pruning and futility pruning.
                // `Tune_LmpCountAll` (off, to test): every move so far counts.
                let tried = if p.lmp_count_all() > 0 {
                    i + 1
                } else {
                    quiets_tried
                };
                let late = features.late_move_pruning
                    && depth <= p.lmp_depth()
                    && tried >= (p.lmp_base() + depth * depth) as usize / (2 - improving as usize);
                let futility_value =
                    static_eval + p.futility_base() + p.futility_margin() * quiet_prune_depth;
                let futile = (!pv_node || pv_prune_all)
                    && features.futility
                    && quiet_prune_depth <= p.futility_depth()
                    && futility_value <= alpha;
                let prune = late || futile;
                if prune && !threat_asked {
                    threat_asked = true;
                    null_mate_threat = p.null_mate_no_prune() > 0 && self.opponent_mates_in_one();
                }
                if prune && !null_mate_threat {
                    // Every later quiet move that gives no check would be pruned too.
                    self.frames[ply].picker.skip_quiets();
                    // `Tune_FutilityRaisesBest` (off, to test): the skipped move was worth
                    // at most the futility bound, so the node's bound need not go lower.
                    if futile
                        && p.futility_raises_best() > 0
                        && best < futility_value
                        && futility_value.abs() < MATE_THRESHOLD
                    {
                        best = futility_value;
                    }
                    continue;
                }
            }
            // Futility of captures (`Tune_CaptureFutilityMargin`, off: undecided): what this
            // one takes cannot lift the node to alpha.
            let capture_futility_margin = p.capture_futility_margin();
            if capture_futility_margin > 0
                && capture
                && i > 0
                && depth <= 6
                && !pv_node
                && !in_check
                && !gives_check
                && !m.is_promotion()
                && best > -MATE_THRESHOLD
            {
                let gain = capture_gain(&self.pos, m);
                if static_eval + gain + capture_futility_margin * (depth + 1) <= alpha {
                    continue;
                }
            }
            if features.see_pruning
                && i > 0
                && (!pv_node || (pv_prune && (capture || pv_prune_all)))
                && !in_check
                && !gives_check
                && depth <= 6
                && best > -MATE_THRESHOLD
                && !(quiet && null_mate_threat && p.null_mate_see_keep() > 0)
            {
                let margin = if capture {
                    -p.see_capture_margin() * depth
                } else {
                    -p.see_quiet_margin() * quiet_prune_depth * quiet_prune_depth
                };
                if !self.pos.see_ge(m, margin) {
                    continue;
                }
            }
            let quiet_stat = if history_quiet {
                if let Some(slot) = quiets_searched.get_mut(quiets_listed) {
                    *slot = (m, cur);
                }
                quiets_listed += 1;
                quiets_tried += quiet as usize;
                self.heur.quiet_stat(us, m, cur, &prevs)
            } else {
                if capture {
                    if let Some(slot) = captures_searched.get_mut(captures_tried) {
                        *slot = (cur, self.pos.piece_on(m.to()).piece_type().index());
                    }
                    captures_tried += 1;
                }
                0
            };
            // A quiet move that loses the moved piece by SEE (`Tune_LmrBadQuiet`).
            let bad_quiet = quiet && p.lmr_bad_quiet() > 0 && !self.pos.see_ge(m, 0);
            let mut new_depth = depth - 1 + if m == tt_move { tt_move_extension } else { 0 };
            // `Tune_PvTtMoveDepth` (off, to test): at a PV node the table move that was
            // searched deeper before does not drop into quiescence (YaneuraOu's rule).
            if pv_node && m == tt_move && p.pv_tt_move_depth() > 0 {
                if let Some((tt_score, _, tt_depth)) = tt_hint {
                    if tt_depth > 1 || (tt_depth > 0 && tt_score.abs() >= MATE_THRESHOLD) {
                        new_depth = new_depth.max(1);
                    }
                }
            }
            if root {
                // Each root move's own selective depth.
                self.seldepth = 1;
            }
            self.do_move(ply, m);
            let mut score;
            // A root move the solver showed to lose to a mate is not searched again.
            let known_mate_threat = root_slot
                .and_then(|k| self.root_moves[k].mate_threat)
                .filter(|&len| len > 0);
            if let Some(len) = known_mate_threat {
                score = mated_in(ply + 1 + len as usize);
                self.frames[ply + 1].pv.clear();
            } else if i == 0 {
                score = -self.search(
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    pv_node,
                    !pv_node && !cut_node,
                );
            } else {
                // DESIGN.md §4.8: LMR, then null-window re-search, then full re-search.
                let mut r = lmr_reduction(quiet, in_check, depth, i);
                if features.log_lmr
                    && quiet
                    && !in_check
                    && depth >= 3
                    && i >= p.lmr_min_move() as usize
                {
                    let mut extra = self.lmr.reduction(depth, i) + !improving as i32;
                    if pv_node {
                        extra -= 1;
                    } else if tt_pv {
                        extra -= p.lmr_tt_pv();
                    }
                    if cut_node {
                        extra += p.lmr_cut_node();
                    }
                    if bad_quiet {
                        extra += p.lmr_bad_quiet();
                    }
                    if tt_move.is_none() {
                        extra += p.lmr_no_tt_move();
                    }
                    let lmr_far_drop = p.lmr_far_drop();
                    if lmr_far_drop > 0 && m.is_drop() && self.far_from_both_kings(m.to()) {
                        extra += lmr_far_drop;
                    }
                    // `Tune_LmrCorrDivisor` (off, rejected: DESIGN.md §6.6): where the correction
                    // history moves the evaluation far, it is least sure: reduce less.
                    let lmr_corr_divisor = p.lmr_corr_divisor();
                    if lmr_corr_divisor > 0 {
                        extra -= (static_eval - raw_eval).abs() / lmr_corr_divisor;
                    }
                    if p.lmr_refutation() > 0 && refutations.contains(&m) {
                        extra -= p.lmr_refutation();
                    }
                    let cutoffs = p.lmr_cutoff_count();
                    if cutoffs > 0 && self.frames[ply + 1].cutoff_count >= cutoffs as u32 {
                        extra += 1;
                    }
                    // DESIGN.md §5.3: moves with good statistics are reduced less, bad
                    // ones more.
                    let limit = p.history_lmr_limit();
                    extra -= (quiet_stat / p.history_lmr_divisor()).clamp(-limit, limit);
                    // `Tune_LmrNoFloor` (off: DESIGN.md §6.6): no floor at the base design's
                    // reduction.
                    if p.lmr_no_floor() > 0 {
                        r = extra;
                    } else {
                        r = r.max(extra);
                    }
                    r = r.min(new_depth - 1).max(0);
                } else if features.log_lmr
                    && !quiet
                    && !in_check
                    && depth >= 3
                    && i >= p.lmr_noisy_index() as usize
                    && p.lmr_noisy_index() > 0
                {
                    // Captures, promotions and checks late in the list are reduced too, by
                    // less than quiet moves (DESIGN.md §4.8).
                    let extra = self.lmr.reduction(depth, i) - 1 - pv_node as i32;
                    r = extra.min(new_depth - 1).max(0);
                }
                self.frames[ply].reduction = r;
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                self.frames[ply].reduction = 0;
                if r > 0 && score > alpha {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                    // `Tune_PostLmrBonus` (off; no gain in its SPRT, §6.6): a reduced quiet
                    // move that still beats alpha at full depth gains continuation history.
                    let post_lmr_bonus = p.post_lmr_bonus();
                    if post_lmr_bonus > 0 && score > alpha && history_quiet {
                        self.heur.update_continuation(cur, &prevs, post_lmr_bonus);
                    }
                    // `Tune_PostLmrMalus` (off, rejected: DESIGN.md §6.6): one that the reduction
                    // flattered loses it.
                    let post_lmr_malus = p.post_lmr_malus();
                    if post_lmr_malus > 0 && score <= alpha && history_quiet {
                        self.heur.update_continuation(cur, &prevs, -post_lmr_malus);
                    }
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            // `Tune_RootMateThreatNodes` (off; no gain in its SPRTs, DESIGN.md §4.14): a root
            // move about to be ranked by its score is first checked for a mate by the opponent.
            if let Some(k) = root_slot {
                if (i == 0 || score > alpha) && score.abs() < MATE_THRESHOLD && !self.stopped() {
                    if let Some(len) = self.root_mate_threat(k, depth) {
                        score = mated_in(ply + 1 + len as usize);
                        // The searched line is not the mate's.
                        self.frames[ply + 1].pv.clear();
                    }
                }
            }
            self.undo_move();
            if self.stopped() {
                return 0;
            }
            if let Some(k) = root_slot {
                let rm = &mut self.root_moves[k];
                if i == 0 || score > alpha {
                    rm.score = score;
                    rm.depth = self.root_depth;
                    rm.seldepth = self.seldepth as u32;
                    rm.pv.clear();
                    rm.pv.push(m);
                    rm.pv.extend_from_slice(&self.frames[1].pv);
                } else {
                    // Not better than the current best: rank it below.
                    rm.score = -INFINITE;
                }
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    // `Tune_AlphaRaiseReduction` (off; no gain in its SPRT, §6.6): once a
                    // move has raised alpha, the rest are searched shallower.
                    let alpha_raise_reduction = p.alpha_raise_reduction();
                    if alpha_raise_reduction > 0
                        && alpha < beta
                        && !root
                        && depth > 2
                        && depth < 14
                        && score.abs() < MATE_THRESHOLD
                    {
                        depth = (depth - alpha_raise_reduction).max(1);
                    }
                    if alpha >= beta {
                        self.frames[ply].cutoff_count += 1;
                        self.update_statistics(
                            ply,
                            depth,
                            m,
                            cur,
                            &prevs,
                            &quiets_searched[..quiets_listed.min(32)],
                            &captures_searched[..captures_tried.min(32)],
                        );
                        break;
                    }
                }
            }
        }
        if move_count == 0 {
            // No legal move loses in shogi, in check or not.
            return mated_in(ply);
        }
        if exclusion {
            // Every other move was pruned: as good as failing low.
            return if best == -INFINITE { alpha } else { best };
        }
        // DESIGN.md §4.13: the result teaches the correction history when it says more
        // than the static evaluation did: not a capture's gain (the evaluation cannot
        // see one coming), and a bound only where it lies beyond the evaluation.
        if let Some(keys) = &correction_keys {
            // `Tune_CorrFailLowCapture` (off, to test): a node that failed low learns even
            // when its best-scoring move was a capture (none of its moves gained).
            let no_capture_gain = best_move.is_none()
                || !self.pos.is_capture(best_move)
                || (p.corr_fail_low_capture() > 0 && best <= alpha_original);
            let informative = best.abs() < MATE_THRESHOLD
                && no_capture_gain
                && !(best >= beta && best <= static_eval)
                && !(best <= alpha_original && best >= static_eval);
            if informative {
                let side = self.pos.side_to_move();
                self.correction
                    .update(side, keys, best - static_eval, depth);
            }
        }
        let eval = (!in_check).then_some(raw_eval);
        // `Tune_TtPvFailLow` (off, to test).
        let tt_pv = tt_pv
            || (p.tt_pv_fail_low() > 0
                && !root
                && best <= alpha_original
                && self.frames[ply - 1].tt_pv);
        self.store_tt(
            key,
            depth,
            ply,
            best,
            alpha_original,
            beta,
            best_move,
            eval,
            tt_pv,
        );
        best
    }

    /// The (piece, destination) pair of the move that led to `ply` (`None` at the root and
    /// after a null move).
    fn last_piece_to(&self, ply: usize) -> Option<usize> {
        ply.checked_sub(1).and_then(|p| self.frames[p].piece_to)
    }

    /// The static evaluation of the node at `ply` (not in check) from the evaluation's
    /// own `raw`: moved by the correction history and kept off mate scores when the
    /// history is on, with the keys its update needs (DESIGN.md §4.13); else `raw`.
    fn corrected_eval(&self, raw: i32, ply: usize) -> (i32, Option<CorrectionKeys>) {
        if !self.config.features.correction_history {
            return (raw, None);
        }
        let keys = CorrectionKeys::of(&self.pos, self.last_piece_to(ply));
        let side = self.pos.side_to_move();
        let c = self.correction.correction(side, &keys, &self.config.params);
        let eval = (raw + c).clamp(-MATE_THRESHOLD + 1, MATE_THRESHOLD - 1);
        (eval, Some(keys))
    }

    /// DESIGN.md §5.2, §5.3: a cut-off by `m` at `ply`. A quiet cut move becomes a killer
    /// and the counter move to the opponent's last move, and its statistics rise while
    /// those of the quiet moves searched before it fall; a capture that cuts raises its
    /// capture history, and the captures searched before it lose theirs.
    #[allow(clippy::too_many_arguments)]
    fn update_statistics(
        &mut self,
        ply: usize,
        depth: i32,
        m: Move,
        cur: usize,
        prevs: &QuietContext,
        quiets: &[(Move, usize)],
        captures: &[(usize, usize)],
    ) {
        let us = self.pos.side_to_move();
        let params = &self.config.params;
        let bonus = stat_bonus(params, depth);
        // `Tune_QuietMalusLinear` (off, rejected: DESIGN.md §6.6): the quiet moves that failed
        // before the cut lose more than the cut move gains.
        let malus = bonus.max((params.quiet_malus_linear() * depth).min(2 * params.bonus_max()));
        let mut cut_capture = None;
        if self.pos.is_capture(m) {
            let captured = self.pos.piece_on(m.to()).piece_type().index();
            self.heur.update_capture(cur, captured, bonus);
            cut_capture = Some((cur, captured));
        } else if !m.is_promotion() {
            self.heur.record_killer(ply, m);
            self.heur.record_counter_move(prevs[0], m);
            self.heur.update_quiet(us, m, cur, prevs, bonus);
            for &(q, q_cur) in quiets {
                if q != m {
                    self.heur.update_quiet(us, q, q_cur, prevs, -malus);
                }
            }
            if params.low_ply_history() > 0 {
                self.heur.update_low_ply(ply, m, bonus);
                for &(q, _) in quiets {
                    if q != m {
                        self.heur.update_low_ply(ply, q, -malus);
                    }
                }
            }
        }
        for &c in captures {
            if Some(c) != cut_capture {
                self.heur.update_capture(c.0, c.1, -bonus);
            }
        }
    }

    /// DESIGN.md §4.10: bound from the score against the original window.
    #[allow(clippy::too_many_arguments)]
    fn store_tt(
        &self,
        key: u64,
        depth: i32,
        ply: usize,
        score: i32,
        alpha: i32,
        beta: i32,
        best_move: Move,
        static_eval: Option<i32>,
        pv: bool,
    ) {
        let bound = if score <= alpha {
            Bound::Upper
        } else if score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let score = score_to_tt(score, ply);
        self.tt
            .store(key, best_move, score, static_eval, depth, bound, pv);
    }

    /// Whether a deep enough table score may cut this node. `Tune_TtCutStrict` (off:
    /// DESIGN.md §6.6): a fail high only from a deeper entry (1), and at shallow depths only
    /// where the node type agrees with the bound (2).
    fn tt_cut_trusted(&self, s: i32, tt_depth: i32, depth: i32, beta: i32, cut_node: bool) -> bool {
        let strict = self.config.params.tt_cut_strict();
        strict == 0
            || ((s <= beta || tt_depth > depth)
                && (strict < 2 || depth > 5 || cut_node == (s >= beta)))
    }

    /// A move from the table is used only if it is legal here (keys can collide).
    fn valid_tt_move(&self, m: Move) -> bool {
        m.is_some() && self.pos.is_legal(m)
    }

    /// DESIGN.md §4.7: the base design's five conditions, plus no two passes in a row.
    fn can_try_null_move(&self, depth: i32, beta: i32, static_eval: i32, in_check: bool) -> bool {
        if depth < self.config.params.nmp_min_depth() {
            return false;
        }
        if beta >= MATE_THRESHOLD || beta <= -MATE_THRESHOLD {
            return false;
        }
        if in_check {
            return false;
        }
        if !self.has_non_pawn_material() {
            return false;
        }
        // Never two passes in a row.
        if self.pos.last_move() == Move::NULL {
            return false;
        }
        static_eval >= beta
    }

    fn has_non_pawn_material(&self) -> bool {
        let us = self.pos.side_to_move();
        let pawns_and_king =
            self.pos.pieces_of(us, PieceType::Pawn) | self.pos.pieces_of(us, PieceType::King);
        self.pos.pieces(us).and_not(pawns_and_king).any() || self.pos.hand(us).has_except_pawn()
    }

    /// Quiescence: captures and promotions (evasions in check), stand pat otherwise; the
    /// `qs_*` features bound which evasions and quiet promotions are tried.
    /// `qs_ply`: plies of quiescence above this node. From `Tune_QsRecapturePly` on, only
    /// recaptures on the last move's square are searched (DESIGN.md §4.9), which bounds the
    /// capture / check / recapture chains.
    fn qsearch(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        qs_ply: i32,
    ) -> i32 {
        self.frames[ply].pv.clear();
        self.tick();
        if self.stopped() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let alpha_original = alpha;
        // What this node's result is worth to another quiescence node (`Tune_QsCheckTtDepth`):
        // one that tries quiet checks must not take a cut-off from one that did not.
        let qs_depth = if self.config.params.qs_check_tt_depth() > 0
            && (in_check || qs_ply < self.config.params.qs_check_plies())
        {
            QS_DEPTH_CHECKS
        } else {
            QS_DEPTH
        };
        let mut tt_move = Move::NONE;
        let mut tt_eval = None;
        let mut tt_bound = None;
        if let Some(e) = self.tt.probe(key) {
            if self.valid_tt_move(e.mv) {
                tt_move = e.mv;
            }
            tt_eval = e.eval;
            tt_bound = Some((score_from_tt(e.score, ply), e.bound));
            if !pv_node && e.depth >= qs_depth {
                let s = score_from_tt(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if usable {
                    return s;
                }
            }
        }
        let mut best;
        let mut stand_pat = None;
        // The corrected static evaluation (the futility bound's base).
        let mut static_value = -INFINITE;
        if in_check {
            best = -INFINITE;
        } else {
            let raw = match tt_eval {
                Some(e) => e,
                None => self.eval.evaluate(&self.pos),
            };
            stand_pat = Some(raw);
            static_value = self.corrected_eval(raw, ply).0;
            best = static_value;
            // `Tune_QsTtStandPat` (off, rejected: DESIGN.md §6.6): the table's score is the better
            // stand pat when its bound points the right way.
            if self.config.params.qs_tt_stand_pat() > 0 {
                if let Some((s, bound)) = tt_bound {
                    let better = match bound {
                        Bound::Exact => true,
                        Bound::Lower => s > best,
                        Bound::Upper => s < best,
                    };
                    if better && s.abs() < MATE_THRESHOLD {
                        best = s;
                    }
                }
            }
            // `Tune_QsMateThreat` (off; no gain in its SPRT, §6.6): a stand pat that counts
            // is worth less while the opponent threatens mate in one.
            let mate_threat_penalty = self.config.params.qs_mate_threat();
            if mate_threat_penalty > 0 && best > alpha && self.opponent_mates_in_one() {
                best -= mate_threat_penalty;
            }
            if best >= beta {
                // `Tune_QsFailHighBlend` (DESIGN.md §6.4): the mean of stand pat and beta.
                if self.config.params.qs_fail_high_blend() > 0 && beta.abs() < MATE_THRESHOLD {
                    return (best + beta) / 2;
                }
                return best;
            }
            // `Tune_QsMate1` (DESIGN.md §4.9): a mate in one by any move, quiet drops included.
            if self.config.params.qs_mate1() > 0 {
                if let Some((_, score)) = self.mate_in_one_at(ply, pv_node) {
                    return score;
                }
            }
            alpha = alpha.max(best);
        }
        let gen = if in_check {
            GenType::Evasions
        } else {
            GenType::CapturesPromotions
        };
        let pos = &self.pos;
        let (list, see_values) = self.frames[ply].picker.list_mut();
        list.clear();
        generate_legal(pos, gen, list);
        if in_check && list.is_empty() {
            return mated_in(ply);
        }
        if !in_check {
            let safe_promotions = self.config.features.qs_safe_promotions;
            let qsearch_see_margin = self.config.params.qsearch_see_margin();
            let recapture_only = (qs_ply >= self.config.params.qs_recapture_ply())
                .then(|| self.pos.last_move())
                .filter(|m| m.is_some());
            // The exchange value of each capture kept goes into its score slot for
            // `score_moves` (which would compute it again).
            let mut kept = 0;
            list.retain(|m| {
                if let Some(last) = recapture_only {
                    if m.to() != last.to() {
                        return false;
                    }
                }
                // A capture that could promote but does not is never better.
                if skipped(1, pos, m) {
                    return false;
                }
                // DESIGN.md §4.9: skip captures that lose material by SEE.
                let keep = if pos.is_capture(m) {
                    pos.see_at_least(m, qsearch_see_margin)
                        .map(|see| see_values[kept] = see)
                        .is_some()
                } else {
                    // A promotion that loses the piece is no quiet gain.
                    !safe_promotions || pos.see_ge(m, 0)
                };
                kept += usize::from(keep);
                keep
            });
            // Quiet checks near the top of the quiescence search (the captures and
            // promotions that check are in the list already).
            if qs_ply < self.config.params.qs_check_plies() && recapture_only.is_none() {
                let start = list.len();
                generate_legal(pos, GenType::Checks, list);
                list.retain_from(start, |m| {
                    !pos.is_capture(m)
                        && !m.is_promotion()
                        && !skipped(1, pos, m)
                        && pos.see_ge(m, 0)
                });
            }
        }
        self.score_moves(ply, tt_move, !in_check);
        let mut best_move = Move::NONE;
        let qs_futility_margin = self.config.params.qs_futility_margin();
        // The score below which a capture cannot lift the node: stand pat plus margin.
        let futility_base = (qs_futility_margin > 0 && !in_check && best > -MATE_THRESHOLD)
            .then_some(static_value + qs_futility_margin);
        let qs_move_count = self.config.params.qs_move_count_prune() as usize;
        let last_to = Some(self.pos.last_move())
            .filter(|m| qs_move_count > 0 && m.is_some() && *m != Move::NULL)
            .map(|m| m.to());
        for i in 0..self.frames[ply].picker.list_mut().0.len() {
            let m = self.next_move(ply, i);
            // `Tune_QsMoveCountPrune` (off, undecided: DESIGN.md §6.6): from this move on, only
            // checks, promotions and recaptures.
            if qs_move_count > 0
                && i >= qs_move_count
                && !in_check
                && best > -MATE_THRESHOLD
                && !m.is_promotion()
                && last_to != Some(m.to())
                && !self.pos.gives_check(m)
            {
                continue;
            }
            if let Some(base) = futility_base {
                if self.pos.is_capture(m) && !m.is_promotion() && !self.pos.gives_check(m) {
                    let bound = base + capture_gain(&self.pos, m);
                    if bound <= alpha {
                        best = best.max(bound);
                        continue;
                    }
                    // `Tune_QsSeeFutility` (off: DESIGN.md §6.6): nor can its exchange.
                    if self.config.params.qs_see_futility() > 0
                        && !self.pos.see_ge(m, alpha - base + 1)
                    {
                        best = best.max(alpha.min(base));
                        continue;
                    }
                }
            }
            if in_check
                && self.config.features.qs_evasion_pruning
                && i >= 1
                && best > -MATE_THRESHOLD
                && !self.pos.is_capture(m)
            {
                continue;
            }
            self.do_move(ply, m);
            let score = -self.qsearch(-beta, -alpha, ply + 1, pv_node, qs_ply + 1);
            self.undo_move();
            if self.stopped() {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.config.params.qs_fail_high_blend() > 0
            && best > beta
            && best.abs() < MATE_THRESHOLD
            && beta.abs() < MATE_THRESHOLD
        {
            best = (3 * best + beta) / 4;
        }
        self.store_tt(
            key,
            qs_depth,
            ply,
            best,
            alpha_original,
            beta,
            best_move,
            stand_pat,
            pv_node,
        );
        best
    }

    /// The rules core's mate-in-one detector (DESIGN.md §2.6) at `ply`: the mating move and
    /// its score, the PV of a PV node set to that one move.
    fn mate_in_one_at(&mut self, ply: usize, pv_node: bool) -> Option<(Move, i32)> {
        let m = self.pos.mate_in_one()?;
        if pv_node {
            self.frames[ply + 1].pv.clear();
            self.update_pv(ply, m);
        }
        Some((m, mate_in(ply + 1)))
    }

    /// After root move `k` (made on the board) in the iteration of `depth`, the length of a
    /// mate by the side to move that the solver finds within `Tune_RootMateThreatNodes`
    /// nodes, asked once per root move and search from the iteration of
    /// `Tune_RootMateThreatDepth` on; the solver's nodes count as this thread's.
    fn root_mate_threat(&mut self, k: usize, depth: i32) -> Option<u16> {
        let budget = self.config.params.root_mate_threat_nodes();
        if budget == 0 || depth < self.config.params.root_mate_threat_depth() {
            return None;
        }
        if let Some(len) = self.root_moves[k].mate_threat {
            return (len > 0).then_some(len);
        }
        let limits = MateLimits {
            deadline: None,
            max_nodes: Some(budget as u64),
            stop: &self.control.stop,
            table_mib: 1,
            shortest: false,
            max_len: None,
        };
        let report = mate::solve_on_this_thread(&self.pos, limits, ROOT_MATE_THREAT_MAX_PATH);
        self.add_solver_nodes(report.nodes);
        let len = match report.result {
            MateResult::Mate(line) => line.len().min(u16::MAX as usize) as u16,
            _ => 0,
        };
        // An interrupted search proves nothing and is asked again next time.
        if !self.stopped() || len > 0 {
            self.root_moves[k].mate_threat = Some(len);
        }
        (len > 0).then_some(len)
    }

    /// Count `n` nodes searched by the mate solver, for the node limit as well.
    fn add_solver_nodes(&mut self, n: u64) {
        self.count_nodes(n, true);
    }

    /// Add `n` nodes to this thread's count, publish it, and stop the search at the node
    /// limit. One thread compares its own count (exact); several compare the sum, which
    /// costs a read of every counter, so a node of the search (`sum_now` false) takes it
    /// only every 256 nodes (overshoot < 256 each).
    #[inline]
    fn count_nodes(&mut self, n: u64, sum_now: bool) {
        self.nodes += n;
        let counters = &self.control.counters;
        counters[self.id].0.store(self.nodes, Ordering::Relaxed);
        if let Some(max) = self.limits.nodes {
            let total = if counters.len() == 1 {
                self.nodes
            } else if sum_now || self.nodes.is_multiple_of(256) {
                self.control.nodes()
            } else {
                0
            };
            if total >= max {
                self.control.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether `sq` is at least three squares (king distance) from both kings.
    fn far_from_both_kings(&self, sq: Square) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.pos.king_square(c).is_none_or(|k| k.distance(sq) >= 3))
    }

    /// Whether the opponent, were it to move now, would have a mate in one (the side to
    /// move is not in check).
    fn opponent_mates_in_one(&mut self) -> bool {
        self.pos.do_null_move();
        let threat = self.pos.mate_in_one().is_some();
        self.pos.undo_null_move();
        threat
    }

    /// The PV at `ply` becomes `m` followed by the child's PV.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.frames.split_at_mut(ply + 1);
        let pv = &mut head[ply].pv;
        pv.clear();
        pv.push(m);
        pv.extend_from_slice(&tail[0].pv);
    }

    /// Ordering scores for the moves of `ply`'s frame. With `see_in_scores`, the score
    /// slot of each capture holds its exchange value already.
    fn score_moves(&mut self, ply: usize, tt_move: Move, see_in_scores: bool) {
        let prevs = self.quiet_context(ply);
        let (moves, scores) = self.frames[ply].picker.list_mut();
        for (i, &m) in moves.as_slice().iter().enumerate() {
            let known_see = see_in_scores.then_some(scores[i]);
            scores[i] = self
                .heur
                .score(&self.pos, m, ply, tt_move, &prevs, known_see);
        }
    }

    /// The `i`-th best move of `ply`'s frame (selection sort step).
    #[inline]
    fn next_move(&mut self, ply: usize, i: usize) -> Move {
        let (moves, scores) = self.frames[ply].picker.list_mut();
        let n = moves.len();
        pick_next(moves.as_mut_slice(), &mut scores[..n], i);
        moves.as_slice()[i]
    }
}

/// What the capture `m` gains by exchange values: the piece it takes on the board and the
/// same piece, unpromoted, in hand (the futility bounds of the search and quiescence).
fn capture_gain(pos: &Position, m: Move) -> i32 {
    let taken = pos.piece_on(m.to()).piece_type();
    see_value(taken) + see_value(taken.unpromoted())
}

/// Reductions round(ln(depth) x ln(index) / divisor), indexed by depth and move index.
fn log_lmr_table(divisor: f64) -> [[i32; 64]; 64] {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (d as f64).ln() * (i as f64).ln() / divisor) as i32;
        }
    }
    t
}

/// The `log_lmr` feature's reductions for the `Tune_LmrDivisor` they were made with.
struct LmrTable {
    divisor: i32,
    table: Box<[[i32; 64]; 64]>,
}

impl LmrTable {
    fn new(divisor: i32) -> LmrTable {
        LmrTable {
            divisor,
            table: Box::new(log_lmr_table(divisor as f64 / 100.0)),
        }
    }

    /// The reduction of the move at `index` of a node at `depth` (both capped at the table).
    fn reduction(&self, depth: i32, index: usize) -> i32 {
        self.table[depth.min(63) as usize][index.min(63)]
    }
}

/// DESIGN.md §4.8: quiet late moves (not in check, depth >= 4, index >= 4) are reduced by 1,
/// or by 2 when depth >= 6 and index >= 8.
fn lmr_reduction(quiet: bool, in_check: bool, depth: i32, index: usize) -> i32 {
    if quiet && !in_check && depth >= 4 && index >= 4 {
        if depth >= 6 && index >= 8 {
            2
        } else {
            1
        }
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn worker(sfen: &str) -> Worker {
        let pos: Position = sfen.parse().unwrap();
        let tt = Arc::new(TranspositionTable::try_new(1).unwrap());
        let limits = Limits::infinite();
        let time = TimeManager::new(
            &limits,
            pos.side_to_move(),
            1,
            &super::super::time::TimeOptions::default(),
        );
        Worker::new(
            pos,
            tt,
            Arc::new(Control::new()),
            limits,
            SearchConfig::default(),
            time,
        )
    }

    fn root_move(usi: &str, score: i32, prev_score: i32, depth: u32) -> RootMove {
        let pos = Position::startpos();
        RootMove {
            score,
            prev_score,
            depth,
            ..RootMove::unsearched(vec![pos.parse_usi_move(usi).unwrap()])
        }
    }

    /// The tenth iteration failed low on its first move and stopped inside the second,
    /// whose ninth-iteration score is higher than the fail-low score: the move the tenth
    /// iteration searched still comes first (before the fix, the second did, and was played
    /// and reported with a score of an iteration it did not belong to).
    #[test]
    fn an_unfinished_iteration_ranks_the_moves_it_searched_first() {
        let mut moves = vec![
            root_move("2g2f", -62, -22, 10),
            root_move("7g7f", -60, -60, 9),
            root_move("1g1f", -INFINITE, -80, 9),
        ];
        rank_after_interruption(&mut moves, 10);
        let order: Vec<String> = moves.iter().map(|rm| rm.mv.usi()).collect();
        assert_eq!(order, ["2g2f", "7g7f", "1g1f"]);
        assert_eq!((moves[0].score, moves[1].score), (-62, -INFINITE));
        // Stopped inside the first move: the completed iteration's order stands, its best
        // move with its score.
        let mut moves = vec![
            root_move("7g7f", -30, -30, 9),
            root_move("2g2f", -45, -45, 9),
            root_move("1g1f", -INFINITE, -INFINITE, 8),
        ];
        rank_after_interruption(&mut moves, 10);
        let order: Vec<String> = moves.iter().map(|rm| rm.mv.usi()).collect();
        assert_eq!(order, ["7g7f", "2g2f", "1g1f"]);
        assert_eq!(moves[0].prev_score, -30);
    }

    /// Nodes at the last plies of the stack (`MAX_PLY`): every frame, killer slot and
    /// continuation lookup stays in bounds, and the search answers a finite score.
    #[test]
    fn the_stack_holds_at_max_ply() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            // In check, with drops in hand: evasions and check chains in quiescence.
            "4k4/9/4P4/9/9/9/9/9/4K4 w GSrb 1",
            "3gkg3/9/4+P4/9/9/9/9/9/4K4 w RBGS2N 1",
        ] {
            for ply in [MAX_PLY - 3, MAX_PLY - 1, MAX_PLY] {
                for depth in [1, 4] {
                    let mut w = worker(sfen);
                    let s = w.search(-INFINITE, INFINITE, depth, ply, true, false);
                    assert!(s.abs() < INFINITE, "{sfen} ply {ply} depth {depth}: {s}");
                    let s = w.search(-1, 0, depth, ply, false, true);
                    assert!(s.abs() < INFINITE);
                    let s = w.qsearch(-INFINITE, INFINITE, ply, true, 0);
                    assert!(s.abs() < INFINITE);
                }
            }
        }
    }
}
