//! The engine facade: a safe Rust API that owns options, the position and its move
//! history, the transposition table and the search thread.
//!
//! * `go` never blocks: it starts a search thread and returns. Every `go` that returns `Ok`
//!   delivers exactly one best move to the best-move sink (a move, `resign` or `win`).
//! * `stop` never blocks and is a no-op when idle; `wait` blocks with an optional timeout.
//! * `set_position` and `set_option` during a search return [`EngineError::Busy`].
//! * No global state: each engine has its own table, unless one is shared on purpose
//!   ([`Engine::share_tt`]). The library never prints: output goes to the sinks, and
//!   diagnostics to the log sink.
//!
//! Sinks run on the engine's search thread (the log sink: on the thread whose call produced
//! the message). No lock of the engine is held while a sink runs, so a sink may call back
//! into the engine, and another thread's call never waits for a sink: a search is over for
//! commands once its answer is final, before that answer is handed to the sink (see
//! [`SearchState`]); only [`Engine::wait`] waits for the delivery.

mod state;

use state::RunState;
pub use state::SearchState;

use crate::book::Book;
use crate::eval::nnue::{self, LoadError, LoadErrorKind, Network};
use crate::eval::{EvalConfig, Evaluator};
use crate::options::non_empty;
use crate::search::choice::MoveChoice;
use crate::search::mate::{self, MateLimits, MateReport};
use crate::search::skill::Skill;
use crate::search::threads::{Job, ThreadPool};
use crate::search::time::TimeManager;
use crate::search::tt::{score_from_tt, TranspositionTable};
use crate::search::worker::{Control, SearchConfig, SearchResult};
use crate::search::{BestMove, Info, Limits, Progress, Report, Score, ScoreBound};
use crate::shogi::{Move, Position, PositionError};
use crate::util::memory::AllocError;
use crate::util::rng::Rng;
use parking_lot::{Condvar, Mutex, RwLock};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::{JoinHandle, ThreadId};
use std::time::Duration;

pub use crate::options::{EngineOptions, MAX_HASH_MIB};

/// What can go wrong when driving the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A search is running.
    Busy,
    /// The position text could not be used.
    Position(PositionError),
    /// No option of that name.
    UnknownOption(String),
    /// The option exists but the value is not acceptable.
    InvalidOptionValue {
        /// The option's name as given.
        name: String,
        /// The value as given.
        value: String,
        /// Why the value was refused (its range or choices).
        reason: String,
    },
    /// The limits are not acceptable (e.g. an illegal `searchmoves` entry).
    InvalidLimits(String),
    /// The search thread failed (it panicked, or could not be started).
    SearchFailed(String),
    /// The NNUE net of `EvalFile`/`EvalDir` could not be loaded (the engine keeps the
    /// evaluation it had).
    EvalLoad(LoadError),
    /// Memory the host asked for (a table size, search threads) cannot be had; the engine
    /// keeps what it had (the memory policy: DESIGN.md §11).
    NoMemory(AllocError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy => write!(f, "a search is running; send stop first"),
            EngineError::Position(e) => write!(f, "{e}"),
            EngineError::UnknownOption(n) => write!(f, "unknown option '{n}'"),
            EngineError::InvalidOptionValue {
                name,
                value,
                reason,
            } => {
                write!(f, "bad value '{value}' for option '{name}': {reason}")
            }
            EngineError::InvalidLimits(r) => write!(f, "bad search limits: {r}"),
            EngineError::SearchFailed(r) => write!(f, "search failed: {r}"),
            EngineError::EvalLoad(e) => write!(f, "{e}; the evaluation is unchanged"),
            EngineError::NoMemory(e) => write!(f, "{e}; the engine keeps what it had"),
        }
    }
}

impl std::error::Error for EngineError {}

type InfoFn = SinkFn<Info>;
type ProgressFn = SinkFn<Progress>;
type BestMoveFn = SinkFn<BestMove>;
type MateFn = SinkFn<MateReport>;
type LogFn = SinkFn<str>;
/// Receives info lines.
pub type InfoSink = Box<InfoFn>;
/// Receives the progress figures of long iterations (about once a second between info
/// lines).
pub type ProgressSink = Box<ProgressFn>;
/// Receives the best move at the end of each search.
pub type BestMoveSink = Box<BestMoveFn>;
/// Receives the answer of each mate search ([`Engine::go_mate`]).
pub type MateSink = Box<MateFn>;
/// Receives diagnostics.
pub type LogSink = Box<LogFn>;

/// The host's sinks. Each is called through a clone of its `Arc`, taken under the lock and
/// used after it is released: no lock is held while host code runs, and a sink replaced
/// meanwhile is freed when its last call returns.
#[derive(Default)]
struct Sinks {
    info: Option<Arc<InfoFn>>,
    progress: Option<Arc<ProgressFn>>,
    bestmove: Option<Arc<BestMoveFn>>,
    mate: Option<Arc<MateFn>>,
    log: Option<Arc<LogFn>>,
}

#[derive(Default)]
struct SinkSet(RwLock<Sinks>);

impl SinkSet {
    fn info(&self, info: &Info) {
        let sink = self.0.read().info.clone();
        call(sink, info);
    }

    fn progress(&self, progress: &Progress) {
        let sink = self.0.read().progress.clone();
        call(sink, progress);
    }

    fn bestmove(&self, best: &BestMove) {
        let sink = self.0.read().bestmove.clone();
        call(sink, best);
    }

    fn mate(&self, report: &MateReport) {
        let sink = self.0.read().mate.clone();
        call(sink, report);
    }

    fn log(&self, msg: &str) {
        let sink = self.0.read().log.clone();
        call(sink, msg);
    }
}

/// Set `def` (asked for as `name`) in `options` from its text; a value the registry refuses
/// is [`EngineError::InvalidOptionValue`].
fn apply_option(
    def: &crate::options::OptionDef,
    name: &str,
    options: &mut EngineOptions,
    value: &str,
) -> Result<(), EngineError> {
    def.apply(options, value)
        .map_err(|reason| EngineError::InvalidOptionValue {
            name: name.to_string(),
            value: value.to_string(),
            reason,
        })
}

/// Run a sink taken out of its lock (the caller binds it first, so the guard is gone).
type SinkFn<T> = dyn Fn(&T) + Send + Sync;

fn call<T: ?Sized>(sink: Option<Arc<SinkFn<T>>>, value: &T) {
    if let Some(f) = sink {
        f(value);
    }
}

std::thread_local! {
    /// The search whose output this thread is handing to a sink now (0: none).
    static REPORTING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The id ([`Engine::search_id`]) of the search whose output the calling thread is handing
/// to a sink right now: inside an info, progress, best-move or mate sink, the search that
/// produced the value; inside a log sink, the search that logged it, or 0 for a message
/// not tied to a search (from `ready`, `set_option`, ...). 0 outside any sink.
///
/// This tells a sink which search a value belongs to even when the host has started the
/// next search meanwhile (a best move is delivered after its search stopped running).
pub fn reporting_search_id() -> u64 {
    REPORTING.with(|r| r.get())
}

/// Marks the current thread as reporting for search `id` while alive (restores the
/// previous mark, also when a sink panics).
struct Reporting(u64);

impl Reporting {
    fn enter(id: u64) -> Reporting {
        Reporting(REPORTING.with(|r| r.replace(id)))
    }
}

impl Drop for Reporting {
    fn drop(&mut self) {
        REPORTING.with(|r| r.set(self.0));
    }
}

/// Info lines of the main search worker go to the info sink, marked with their search id.
struct SinkReport {
    sinks: Arc<SinkSet>,
    search_id: u64,
}

impl Report for SinkReport {
    fn info(&self, info: &Info) {
        let _r = Reporting::enter(self.search_id);
        self.sinks.info(info);
    }

    fn progress(&self, progress: &Progress) {
        let _r = Reporting::enter(self.search_id);
        self.sinks.progress(progress);
    }
}

/// Marks the current thread as delivering while alive (also if the sink panics).
struct Delivery<'a> {
    shared: &'a Shared,
    me: ThreadId,
}

impl Drop for Delivery<'_> {
    fn drop(&mut self) {
        self.shared.run.lock().delivered(self.me);
        self.shared.idle.notify_all();
    }
}

/// A transposition-table hit for the current position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtProbe {
    /// The stored move, checked legal in the position (None if absent or not legal, or
    /// when probing by key alone).
    pub best_move: Option<Move>,
    /// The stored move as found, unchecked.
    pub raw_move: Move,
    /// The stored score, from the side to move's point of view.
    pub score: Score,
    /// The depth the entry was stored with.
    pub depth: i32,
    /// Whether the score is exact, a lower or an upper bound.
    pub bound: ScoreBound,
    /// The search generation that wrote the entry.
    pub generation: u8,
}

struct Shared {
    position: Mutex<Position>,
    options: Mutex<EngineOptions>,
    tt: RwLock<Arc<TranspositionTable>>,
    sinks: Arc<SinkSet>,
    control: Mutex<Arc<Control>>,
    run: Mutex<RunState>,
    /// Notified when a search or a delivery ends.
    idle: Condvar,
    last_result: Mutex<Option<SearchResult>>,
    last_mate: Mutex<Option<MateReport>>,
    /// The threads of `go_mate` not known to be finished, joined at shutdown (so no thread
    /// of ours outlives the engine).
    mate_threads: Mutex<Vec<JoinHandle<()>>>,
    /// Set by `new_game`: the next search starts with empty move-ordering histories.
    new_game_pending: std::sync::atomic::AtomicBool,
    /// Source of book and skill choices (`RandomSeed`).
    rng: Mutex<Rng>,
    /// The loaded book and the file it came from.
    book: Mutex<(String, Option<Arc<Book>>)>,
    /// The loaded NNUE net.
    net: Mutex<NetSlot>,
}

/// A net file as found on disk: a changed size or time means a new net.
#[derive(Clone, Debug, PartialEq, Eq)]
struct NetSource {
    path: PathBuf,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

#[derive(Default)]
struct NetSlot {
    /// The net in use and where it came from.
    loaded: Option<(NetSource, Arc<Network>)>,
}

/// The net file the options name, if any.
fn net_path(opts: &EngineOptions) -> Option<PathBuf> {
    match (non_empty(&opts.eval_file), non_empty(&opts.eval_dir)) {
        (Some(file), _) => Some(PathBuf::from(file)),
        (None, Some(dir)) => Some(Path::new(dir).join("nn.bin")),
        (None, None) => None,
    }
}

impl Shared {
    /// A search's end, on the pool's main thread: the move choice has its last word, the
    /// result is kept, and the best move is delivered (`resign` when a thread panicked).
    fn finish_search(&self, choice: MoveChoice, result: Option<SearchResult>, search_id: u64) {
        let _r = Reporting::enter(search_id);
        let failed = result.is_none();
        let best = match result {
            Some(mut r) => {
                let report = SinkReport {
                    sinks: self.sinks.clone(),
                    search_id,
                };
                choice.finish(&mut r, &report, || self.tt.read().hashfull_permille());
                let best = r.best;
                *self.last_result.lock() = Some(r);
                best
            }
            None => {
                self.sinks
                    .log("a search thread panicked; answering resign; the engine is poisoned");
                BestMove::Resign
            }
        };
        self.deliver_and_finish(failed, || self.sinks.bestmove(&best));
    }

    /// End a search from its own thread: its answer is final, so the search stops running
    /// (commands from any thread go through again), then `deliver` hands the answer to the
    /// sink; `wait` returns once it has.
    /// `failed`: the search thread panicked, and the engine is poisoned from now on.
    fn deliver_and_finish(&self, failed: bool, deliver: impl FnOnce()) {
        let me = std::thread::current().id();
        self.run.lock().answer_final(me, failed);
        self.idle.notify_all();
        let _delivery = Delivery { shared: self, me };
        deliver();
    }
}

fn seeded_rng(seed: u64) -> Rng {
    if seed == 0 {
        Rng::from_entropy()
    } else {
        Rng::new(seed)
    }
}

/// A shogi engine.
///
/// ```
/// use hayanagi::{BestMove, Engine, Limits};
///
/// let engine = Engine::new();
/// engine.set_option("MultiPV", "2").unwrap();
/// assert_eq!(engine.get_option("multipv").unwrap(), "2"); // names ignore case
/// assert!(engine.set_option("MultiPV", "33").is_err()); // the registry's range: 1-32
/// engine.set_position("startpos moves 7g7f").unwrap();
/// engine.set_bestmove_sink(Some(Box::new(|b: &BestMove| println!("bestmove {}", b.to_usi()))));
/// engine.go(Limits { depth: Some(3), ..Limits::default() }).unwrap(); // returns at once
/// assert!(engine.wait(None)); // the best move has been delivered
/// ```
pub struct Engine {
    shared: Arc<Shared>,
    /// Search threads, created at the first `go` and whenever `Threads` changes.
    pool: Mutex<Option<ThreadPool>>,
    /// Pools replaced while their main thread was still delivering an answer: told to quit,
    /// dropped (joined) once finished, or when the engine is.
    retired_pools: Mutex<Vec<ThreadPool>>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    /// An engine with default options, the start position and its own 16 MiB table.
    ///
    /// # Panics
    /// When 16 MiB cannot be had; [`Engine::try_new`] answers an error instead.
    pub fn new() -> Engine {
        Engine::try_new().expect("16 MiB for the default hash table")
    }

    /// [`Engine::new`], or [`EngineError::NoMemory`] when its table cannot be allocated.
    pub fn try_new() -> Result<Engine, EngineError> {
        Engine::with_options(EngineOptions::default())
    }

    /// An engine whose table has `hash_mib` MiB from the start (the `USI_Hash` range),
    /// allocated once: creating the default 16 MiB table and then resizing it costs its
    /// pages and, with glibc, keeps 16 MiB of heap per engine after it is freed.
    pub fn try_with_hash(hash_mib: usize) -> Result<Engine, EngineError> {
        let mut options = EngineOptions::default();
        let def = crate::options::find("USI_Hash").expect("USI_Hash is registered");
        apply_option(def, "USI_Hash", &mut options, &hash_mib.to_string())?;
        Engine::with_options(options)
    }

    fn with_options(options: EngineOptions) -> Result<Engine, EngineError> {
        let tt =
            Arc::new(TranspositionTable::try_new(options.hash_mib).map_err(EngineError::NoMemory)?);
        Ok(Engine {
            shared: Arc::new(Shared {
                position: Mutex::new(Position::startpos()),
                options: Mutex::new(options),
                tt: RwLock::new(tt),
                sinks: Arc::new(SinkSet::default()),
                control: Mutex::new(Arc::new(Control::new())),
                run: Mutex::new(RunState::default()),
                idle: Condvar::new(),
                last_result: Mutex::new(None),
                last_mate: Mutex::new(None),
                mate_threads: Mutex::new(Vec::new()),
                new_game_pending: std::sync::atomic::AtomicBool::new(false),
                rng: Mutex::new(Rng::from_entropy()),
                book: Mutex::new((String::new(), None)),
                net: Mutex::new(NetSlot::default()),
            }),
            pool: Mutex::new(None),
            retired_pools: Mutex::new(Vec::new()),
        })
    }

    /// Set the sink for info lines (replaces the previous one; a call of the old one in
    /// progress on another thread finishes first).
    pub fn set_info_sink(&self, sink: Option<InfoSink>) {
        let old = std::mem::replace(&mut self.shared.sinks.0.write().info, sink.map(Arc::from));
        drop(old);
    }

    /// Set the sink for the progress figures of long iterations (replaces the previous
    /// one; none by default, so hosts that only want info lines see nothing new).
    pub fn set_progress_sink(&self, sink: Option<ProgressSink>) {
        let old = std::mem::replace(
            &mut self.shared.sinks.0.write().progress,
            sink.map(Arc::from),
        );
        drop(old);
    }

    /// Set the sink for best moves (replaces the previous one).
    pub fn set_bestmove_sink(&self, sink: Option<BestMoveSink>) {
        let old = std::mem::replace(
            &mut self.shared.sinks.0.write().bestmove,
            sink.map(Arc::from),
        );
        drop(old);
    }

    /// Set the sink for mate-search answers (replaces the previous one).
    pub fn set_mate_sink(&self, sink: Option<MateSink>) {
        let old = std::mem::replace(&mut self.shared.sinks.0.write().mate, sink.map(Arc::from));
        drop(old);
    }

    /// Set the sink for diagnostics (replaces the previous one).
    pub fn set_log_sink(&self, sink: Option<LogSink>) {
        let old = std::mem::replace(&mut self.shared.sinks.0.write().log, sink.map(Arc::from));
        drop(old);
    }

    /// True after a search thread failed (panicked): `go` then refuses to start.
    pub fn is_poisoned(&self) -> bool {
        self.state() == SearchState::Poisoned
    }

    /// The id of the current or last search: 0 before the first, then 1, 2, ... one more
    /// for each `go` or `go_mate` that started (a refused one takes no id). A sink learns
    /// which search its value belongs to from [`reporting_search_id`].
    pub fn search_id(&self) -> u64 {
        self.shared.run.lock().search_id()
    }

    /// Where the engine stands: idle, searching, delivering an answer, or poisoned.
    pub fn state(&self) -> SearchState {
        self.shared.run.lock().state()
    }

    /// The run state, when no search runs (`Busy` otherwise). Never waits for a search or
    /// a sink: a delivery in progress does not count.
    fn lock_idle(&self) -> Result<parking_lot::MutexGuard<'_, RunState>, EngineError> {
        let run = self.shared.run.lock();
        run.check_not_running()?;
        Ok(run)
    }

    /// True from `go` until the search's answer is final, before it is delivered: what a
    /// search uses cannot change meanwhile (those commands are [`EngineError::Busy`]).
    pub fn is_search_running(&self) -> bool {
        self.shared.run.lock().is_running()
    }

    /// True from `go` until the search's best move has been delivered (the sink returned).
    pub fn is_searching(&self) -> bool {
        let run = self.shared.run.lock();
        run.is_running() || run.is_delivering()
    }

    /// Set the position from a USI position argument (`startpos moves ...`, `sfen ...`).
    pub fn set_position(&self, usi: &str) -> Result<(), EngineError> {
        let pos = Position::from_usi_position(usi).map_err(EngineError::Position)?;
        self.set_position_value(pos)
    }

    /// Set the position from a `Position` value (with its move history).
    pub fn set_position_value(&self, pos: Position) -> Result<(), EngineError> {
        let _idle = self.lock_idle()?;
        *self.shared.position.lock() = pos;
        Ok(())
    }

    /// A copy of the current position.
    pub fn position(&self) -> Position {
        self.shared.position.lock().clone()
    }

    /// Current options.
    pub fn options(&self) -> EngineOptions {
        self.shared.options.lock().clone()
    }

    /// Set an option by its USI name (or an alias; case-insensitive), checked against the
    /// option registry ([`crate::options::OPTIONS`]). Options that take effect at `ready`
    /// (table size, files) are only checked here.
    pub fn set_option(&self, name: &str, value: &str) -> Result<(), EngineError> {
        let _idle = self.lock_idle()?;
        let def = crate::options::find(name)
            .ok_or_else(|| EngineError::UnknownOption(name.to_string()))?;
        let mut opts = self.shared.options.lock();
        apply_option(def, name, &mut opts, value)?;
        if def.side_effect == crate::options::SideEffect::Reseed {
            *self.shared.rng.lock() = seeded_rng(opts.random_seed);
        }
        Ok(())
    }

    /// The value of an option (by name or alias, case-insensitive) as text `set_option`
    /// takes back; for an option that takes effect at `ready`, the value that will be used
    /// then (a table size that could not be had reads back the size in use).
    pub fn get_option(&self, name: &str) -> Result<String, EngineError> {
        let def = crate::options::find(name)
            .ok_or_else(|| EngineError::UnknownOption(name.to_string()))?;
        Ok(def.read(&self.shared.options.lock()))
    }

    /// Apply deferred work: the table size, the book, the NNUE net (the USI `isready`
    /// step). Each is tried; the first failure is answered, and what failed keeps what it
    /// had (a table that cannot be allocated leaves the old one, and `USI_Hash` reads back
    /// its size).
    pub fn ready(&self) -> Result<(), EngineError> {
        drop(self.lock_idle()?);
        let table = self.resize_table();
        self.load_book();
        let net = self.load_net();
        table.and(net)
    }

    /// Load the net that `EvalFile`/`EvalDir` name if it is not the one in use (the USI
    /// `isready` step). On failure the engine keeps its previous evaluation.
    fn load_net(&self) -> Result<(), EngineError> {
        let wanted = net_path(&self.shared.options.lock());
        let mut notes = Vec::new();
        let result = self.load_net_with_notes(wanted, &mut notes);
        // Outside the slot lock: the log sink may call back into the engine.
        for n in notes {
            self.log(&n);
        }
        result
    }

    fn load_net_with_notes(
        &self,
        wanted: Option<PathBuf>,
        notes: &mut Vec<String>,
    ) -> Result<(), EngineError> {
        let mut slot = self.shared.net.lock();
        let Some(path) = wanted else {
            if slot.loaded.take().is_some() {
                notes.push("NNUE: no net; using the hand-crafted evaluation".into());
            }
            return Ok(());
        };
        let source = match std::fs::metadata(&path) {
            Ok(meta) => NetSource {
                path: path.clone(),
                len: meta.len(),
                modified: meta.modified().ok(),
            },
            Err(e) => {
                return Err(EngineError::EvalLoad(LoadError {
                    kind: LoadErrorKind::Io,
                    message: format!("cannot open NNUE file '{}': {e}", path.display()),
                }))
            }
        };
        if slot.loaded.as_ref().is_some_and(|(s, _)| *s == source) {
            return Ok(());
        }
        // The 64 MB read happens without the lock: evaluations and searches started from
        // other threads meanwhile use the net in place.
        drop(slot);
        let result = nnue::load_file(&path);
        let mut slot = self.shared.net.lock();
        match result {
            Ok(loaded) => {
                notes.extend(loaded.warnings.iter().map(|w| format!("NNUE: {w}")));
                notes.push(format!(
                    "NNUE: loaded '{}' ({} kernels)",
                    path.display(),
                    loaded.network.simd().name()
                ));
                slot.loaded = Some((source, Arc::new(loaded.network)));
                Ok(())
            }
            Err(e) => Err(EngineError::EvalLoad(e)),
        }
    }

    /// Say on the log sink when `EvalFile`/`EvalDir` name a net that `ready` has not
    /// loaded (the search then uses the evaluation in place).
    fn warn_unloaded_net(&self) {
        let Some(wanted) = net_path(&self.shared.options.lock()) else {
            return;
        };
        let loaded_here = match &self.shared.net.lock().loaded {
            Some((source, _)) => source.path == wanted,
            None => false,
        };
        if !loaded_here {
            self.log(&format!(
                "NNUE: '{}' is not loaded (call ready / isready after setting EvalFile or \
                 EvalDir); this search uses the evaluation in place",
                wanted.display()
            ));
        }
    }

    /// The evaluation searches use now: the loaded net (if any) and `FV_SCALE`.
    pub fn eval_config(&self) -> EvalConfig {
        EvalConfig {
            net: self
                .shared
                .net
                .lock()
                .loaded
                .as_ref()
                .map(|(_, n)| n.clone()),
            fv_scale: self.shared.options.lock().fv_scale as i32,
        }
    }

    /// The loaded net, if any.
    pub fn network(&self) -> Option<Arc<Network>> {
        self.eval_config().net
    }

    /// Static evaluation of the current position for the side to move: the net's when it
    /// is loaded and can evaluate the position, else the hand-crafted one.
    pub fn evaluate(&self) -> i32 {
        let pos = self.position();
        Evaluator::evaluate_from_scratch(&pos, &self.eval_config())
    }

    fn log(&self, msg: &str) {
        self.shared.sinks.log(msg);
    }

    /// Load `BookFile` if it changed (the USI `isready` step). A book that cannot be read
    /// leaves the engine without a book and says why on the log sink. The file is read and
    /// parsed without the book lock, and the messages go out once nothing is locked: the
    /// log sink may call back into the engine (even `ready` again).
    fn load_book(&self) {
        let (own, path) = {
            let o = self.shared.options.lock();
            (o.own_book, o.book_file.clone())
        };
        {
            let mut book = self.shared.book.lock();
            if !own || path.is_empty() || path == "<empty>" || book.0 == path {
                return;
            }
            // Claimed now: a `ready` from the log sink below does not load it twice.
            *book = (path.clone(), None);
        }
        let mut notes = Vec::new();
        match crate::book::read_file(Path::new(&path)) {
            Err(e) => notes.push(format!("{e}; playing without a book")),
            Ok(loaded) => {
                const SHOWN: usize = 20;
                notes.extend(loaded.warnings.iter().take(SHOWN).cloned());
                if loaded.skipped > SHOWN {
                    notes.push(format!(
                        "book: {} more bad lines skipped",
                        loaded.skipped - SHOWN
                    ));
                }
                notes.push(format!(
                    "book: {} positions loaded from '{path}'",
                    loaded.book.len()
                ));
                let mut book = self.shared.book.lock();
                // Unless another `ready` claimed a different file meanwhile.
                if book.0 == path {
                    book.1 = Some(Arc::new(loaded.book));
                }
            }
        }
        for n in notes {
            self.log(&n);
        }
    }

    /// Bring the table to `USI_Hash` MiB. The new table is allocated (outside every engine
    /// lock) before the old one is let go; when it cannot be had, the old one stays and
    /// `USI_Hash` reads back its size, so that the next `go` does not try again.
    fn resize_table(&self) -> Result<(), EngineError> {
        let wanted = self.shared.options.lock().hash_mib;
        let current = self.tt().size_mib();
        if wanted == current {
            return Ok(());
        }
        match TranspositionTable::try_new(wanted) {
            Ok(tt) => {
                // The old table is freed when its last sharer lets go of it.
                *self.shared.tt.write() = Arc::new(tt);
                Ok(())
            }
            Err(e) => {
                let mut opts = self.shared.options.lock();
                if opts.hash_mib == wanted {
                    opts.hash_mib = current;
                }
                Err(EngineError::NoMemory(e))
            }
        }
    }

    /// The search threads for `threads`, started when the count changed. The old pool is
    /// joined at once, unless an answer is still being delivered (`delivering`): then its
    /// main thread may be in a host's sink, and the pool is told to quit and never waited
    /// for.
    fn ensure_pool(
        &self,
        pool: &mut Option<ThreadPool>,
        threads: usize,
        delivering: bool,
    ) -> Result<(), EngineError> {
        if pool.as_ref().map(ThreadPool::size) == Some(threads) {
            return Ok(());
        }
        let fresh = ThreadPool::new(threads).map_err(|e| {
            EngineError::NoMemory(AllocError {
                what: "the search threads",
                bytes: 0,
                reason: format!("cannot start {threads} threads: {e}"),
            })
        })?;
        let mut retired = self.retired_pools.lock();
        // Dropping a finished pool joins its threads at once.
        retired.retain(|p| !p.is_finished());
        if let Some(old) = pool.replace(fresh) {
            if delivering {
                old.request_quit();
                retired.push(old);
            } else {
                // Its threads are parked or returning from a delivery that is over: no
                // host code left to wait for (and no job can reach it: the engine is idle
                // and we hold the pool).
                drop(old);
            }
        }
        Ok(())
    }

    /// Start a new game: forget the table's contents and the move-ordering histories.
    pub fn new_game(&self) -> Result<(), EngineError> {
        let ready = self.ready();
        if let Err(EngineError::Busy) = ready {
            return ready;
        }
        // Also when a net failed to load: the new game still starts clean, the table now (a
        // no-op when `prepare_new_game` cleared it and no search ran since) and the search
        // threads' histories at the next search.
        self.tt().clear_if_used();
        self.shared.new_game_pending.store(true, Ordering::Release);
        // A fixed seed repeats the same choices in every game.
        let seed = self.shared.options.lock().random_seed;
        *self.shared.rng.lock() = seeded_rng(seed);
        ready
    }

    /// Do the heavy part of [`Engine::new_game`] ahead of time (the USI `isready` step
    /// before a game): clear the table if a search has used it, on all cores, so that the
    /// `new_game` that follows costs nothing when the game's clock already runs. Refused
    /// as busy during a search.
    pub fn prepare_new_game(&self) -> Result<(), EngineError> {
        let _idle = self.lock_idle()?;
        self.tt().clear_if_used();
        Ok(())
    }

    /// The table this engine uses.
    pub fn tt(&self) -> Arc<TranspositionTable> {
        self.shared.tt.read().clone()
    }

    /// Use `tt` from now on (e.g. another engine's table, to share it on purpose). Engines
    /// that share a table should evaluate alike: it keeps static evals, so a search with
    /// another evaluation clears it first.
    pub fn share_tt(&self, tt: Arc<TranspositionTable>) -> Result<(), EngineError> {
        let _idle = self.lock_idle()?;
        self.shared.options.lock().hash_mib = tt.size_mib();
        *self.shared.tt.write() = tt;
        Ok(())
    }

    /// Forget the table's contents.
    pub fn clear_hash(&self) -> Result<(), EngineError> {
        let _idle = self.lock_idle()?;
        self.tt().clear();
        Ok(())
    }

    /// Permille of the table used by the current (or last) search.
    pub fn hashfull(&self) -> u32 {
        self.tt().hashfull_permille()
    }

    /// What the table holds for the current position.
    pub fn probe_tt(&self) -> Option<TtProbe> {
        let pos = self.shared.position.lock().clone();
        self.probe_tt_at(&pos)
    }

    /// What the table holds for `pos`.
    pub fn probe_tt_at(&self, pos: &Position) -> Option<TtProbe> {
        let mut p = self.probe_tt_key(pos.key())?;
        p.best_move = Some(p.raw_move).filter(|&m| m.is_some() && pos.is_legal(m));
        Some(p)
    }

    /// What the table holds for a Zobrist key (the move cannot be checked).
    pub fn probe_tt_key(&self, key: u64) -> Option<TtProbe> {
        let e = self.tt().probe(key)?;
        Some(TtProbe {
            best_move: None,
            raw_move: e.mv,
            score: Score::from_internal(score_from_tt(e.score, 0)),
            depth: e.depth,
            bound: e.bound,
            generation: e.generation,
        })
    }

    /// The legal moves of the current position, in the order every front end lists them
    /// (by USI text).
    pub fn legal_moves(&self) -> Vec<Move> {
        crate::shogi::legal_in_usi_order(&self.position())
    }

    /// Perft of the current position, with the depth limit of every front end
    /// ([`crate::request::MAX_PERFT_DEPTH`]).
    pub fn perft(&self, depth: u64) -> Result<u64, EngineError> {
        let depth = crate::request::perft_depth(depth)?;
        Ok(crate::shogi::perft::perft(&mut self.position(), depth))
    }

    /// The game state of the current position under the engine's rules: its
    /// `EnteringKingRule` and `MaxMovesToDraw`.
    pub fn game_state(&self) -> crate::shogi::GameState {
        let opts = self.options();
        let rules = crate::shogi::GameRules {
            declaration: opts.declaration,
            max_moves: (opts.max_moves_to_draw > 0).then_some(opts.max_moves_to_draw),
        };
        self.position().game_state(&rules)
    }

    /// Start searching the current position. Returns at once. The request is read as
    /// the request rules say (nothing set: until `stop`; depth 0: 1; see [`Limits`]).
    pub fn go(&self, limits: Limits) -> Result<(), EngineError> {
        if !self.is_search_running() {
            // Normally done at `ready`; a host that skipped it still gets its book and its
            // table size (or, when that table cannot be had, a message and the old one).
            self.load_book();
            if let Err(e) = self.resize_table() {
                self.log(&format!("{e}; searching with the table in use"));
            }
            // A net is only ever loaded at `ready` (64 MB: `go` must return at once).
            self.warn_unloaded_net();
        }
        let mut run = self.shared.run.lock();
        run.check_can_start()?;
        let pos = self.shared.position.lock().clone();
        // What the request means: one rule for every front end (src/request.rs).
        let opts = self.shared.options.lock().clone();
        let limits = crate::request::normalize(limits, &pos, &opts)?;
        // The threads first: when they cannot be had, the engine stays idle.
        let mut pool = self.pool.lock();
        self.ensure_pool(&mut pool, opts.threads, run.is_delivering())?;
        let control = Arc::new(Control::with_threads(opts.threads));
        control
            .waiting
            .store(limits.infinite || limits.ponder, Ordering::Release);
        *self.shared.control.lock() = control.clone();
        *self.shared.last_result.lock() = None;
        let search_id = run.start();
        drop(run);

        let tt = self.tt();
        tt.next_generation();
        let time = TimeManager::new(&limits, pos.side_to_move(), pos.move_number(), &opts.time);
        let (choice, config) = {
            let book = self.shared.book.lock().1.clone();
            // Book first, then skill: the order the random numbers are drawn in.
            let mut rng = self.shared.rng.lock();
            let choice = MoveChoice::prepare(&pos, &limits, &opts, book, &mut rng, &control);
            let skill = Skill::new(opts.skill_level, rng.next_u64());
            let config = self.search_config(&opts, &pos, &limits, skill, choice.book_move);
            (choice, config)
        };
        let shared = self.shared.clone();
        let job = Job {
            mode: opts.parallel_mode,
            split: None,
            pos,
            tt,
            control,
            limits,
            config,
            time,
            report: Arc::new(SinkReport {
                sinks: self.shared.sinks.clone(),
                search_id,
            }),
            done: Mutex::new(Some(Box::new(move |result| {
                shared.finish_search(choice, result, search_id)
            }))),
        };
        // The pool's main thread may still be in the previous search's best-move sink: the
        // job waits for it there, and `go` returns now.
        pool.as_ref().expect("ensure_pool made one").start(job);
        Ok(())
    }

    /// What the search of `pos` runs with: the options, the draw value seen from the side to
    /// move, and the move choice made before it.
    fn search_config(
        &self,
        opts: &EngineOptions,
        pos: &Position,
        limits: &Limits,
        skill: Option<Skill>,
        book_move: Option<(Move, Option<Move>)>,
    ) -> SearchConfig {
        let us = pos.side_to_move();
        let ours = opts.draw_value[us.index()];
        let mut draw_value = [0; 2];
        draw_value[us.index()] = ours;
        draw_value[(!us).index()] = -ours;
        SearchConfig {
            multipv: opts.multipv,
            declaration: opts.declaration,
            features: opts.features,
            draw_value,
            max_moves_to_draw: opts.max_moves_to_draw,
            resign_value: opts.resign_value,
            skill,
            book_move,
            eval: self.eval_config(),
            fresh_history: self.shared.new_game_pending.swap(false, Ordering::AcqRel),
            params: opts.search,
            // Analysis wants every iteration; so does an infinite search (a GUI's analysis
            // pane), as in YaneuraOu.
            info_interval_ms: if opts.consideration_mode || limits.infinite {
                0
            } else {
                opts.pv_interval_ms
            },
            report_bounds: !opts.consideration_mode,
        }
    }

    /// Ask the running search to finish now (no-op when idle). Does not block.
    pub fn stop(&self) {
        let control = self.shared.control.lock().clone();
        control.stop.store(true, Ordering::Release);
        control.waiting.store(false, Ordering::Release);
    }

    /// The predicted move was played: the ponder search becomes a normal timed search.
    pub fn ponderhit(&self) {
        let control = self.shared.control.lock().clone();
        control.ponderhit.store(true, Ordering::Release);
        control.waiting.store(false, Ordering::Release);
    }

    /// Block until the search has delivered its best move (its sink has returned; a
    /// delivery on the calling thread itself is not waited for); `None` waits forever.
    /// Returns false on timeout. Not from inside a sink after starting a search there:
    /// that search only starts once the sink returns.
    pub fn wait(&self, timeout: Option<Duration>) -> bool {
        let me = std::thread::current().id();
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        let mut run = self.shared.run.lock();
        while run.pending_for(me) {
            match deadline {
                None => self.shared.idle.wait(&mut run),
                Some(d) => {
                    if self.shared.idle.wait_until(&mut run, d).timed_out() {
                        return !run.pending_for(me);
                    }
                }
            }
        }
        true
    }

    /// The result of the last finished search.
    pub fn last_result(&self) -> Option<SearchResult> {
        self.shared.last_result.lock().clone()
    }

    /// Run a search to completion on the calling thread's behalf and return its result.
    pub fn search_blocking(&self, limits: Limits) -> Result<SearchResult, EngineError> {
        self.go(limits)?;
        self.wait(None);
        self.last_result()
            .ok_or_else(|| EngineError::SearchFailed("the search thread panicked".into()))
    }
}

/// Limits of [`Engine::go_mate`]; no limit at all means until `stop`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MateRequest {
    /// Give up after this many milliseconds (`None`: no time limit).
    pub movetime_ms: Option<u64>,
    /// Give up after this many nodes (`None`: no node limit).
    pub nodes: Option<u64>,
    /// Answer the first mate proven instead of settling the shortest (faster; the line is
    /// a mate but may be longer than necessary).
    pub any_length: bool,
}

impl Engine {
    /// Start a mate search (df-pn, `src/search/mate/`) for the side to move in the current
    /// position. Returns at once; the answer goes to the mate sink exactly once (and to
    /// [`Engine::last_mate`]), not to the best-move sink. It counts as a search: `stop`
    /// ends it (answer `Timeout` unless already solved), `wait` waits for it, and other
    /// commands are `Busy` meanwhile. [`Engine::last_mate`] keeps the previous answer
    /// until this one is final.
    pub fn go_mate(&self, request: MateRequest) -> Result<(), EngineError> {
        let mut run = self.shared.run.lock();
        run.check_can_start()?;
        let pos = self.shared.position.lock().clone();
        let table_mib = self.shared.options.lock().mate_hash_mib;
        let control = Arc::new(Control::new());
        *self.shared.control.lock() = control.clone();
        let shared = self.shared.clone();
        let deadline = request
            .movetime_ms
            .map(|ms| std::time::Instant::now() + Duration::from_millis(ms));
        // Made before `start` (the run lock is held throughout, so the id is this one).
        let search_id = run.next_search_id();
        let thread = mate::spawn_solver_thread("hayanagi-mate", move |big_stack| {
            let _r = Reporting::enter(search_id);
            let solved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let limits = MateLimits {
                    deadline,
                    max_nodes: request.nodes,
                    stop: &control.stop,
                    table_mib,
                    shortest: !request.any_length,
                    max_len: None,
                };
                if big_stack {
                    mate::solve_on_solver_stack(&pos, limits)
                } else {
                    mate::solve(&pos, limits)
                }
            }));
            let failed = solved.is_err();
            let report = solved.unwrap_or_else(|_| {
                shared
                    .sinks
                    .log("the mate search panicked; answering timeout; the engine is poisoned");
                MateReport::timeout()
            });
            *shared.last_mate.lock() = Some(report.clone());
            shared.deliver_and_finish(failed, || shared.sinks.mate(&report));
        });
        match thread {
            Ok(handle) => {
                // Still holding the run state: the thread cannot mark its answer final
                // before the search is marked as running.
                let started = run.start();
                debug_assert_eq!(started, search_id);
                drop(run);
                let mut threads = self.shared.mate_threads.lock();
                // An earlier mate thread may still be in its sink: only finished ones go.
                threads.retain(|t| !t.is_finished());
                threads.push(handle);
                Ok(())
            }
            Err(e) => Err(EngineError::SearchFailed(format!(
                "cannot start the mate thread: {e}"
            ))),
        }
    }

    /// The answer of the last finished mate search.
    pub fn last_mate(&self) -> Option<MateReport> {
        self.shared.last_mate.lock().clone()
    }

    /// Run a mate search to completion and return its answer.
    pub fn mate_blocking(&self, request: MateRequest) -> Result<MateReport, EngineError> {
        self.go_mate(request)?;
        self.wait(None);
        self.last_mate()
            .ok_or_else(|| EngineError::SearchFailed("the mate search failed".into()))
    }
}

impl Engine {
    /// Stop a running search and wait until its best move has been delivered.
    pub fn shutdown(&self) {
        self.stop();
        self.wait(None);
        let threads = std::mem::take(&mut *self.shared.mate_threads.lock());
        for t in threads {
            if t.thread().id() != std::thread::current().id() {
                let _ = t.join();
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown();
        // Joins the parked search threads, and those of pools replaced earlier.
        self.pool.lock().take();
        self.retired_pools.lock().clear();
    }
}
