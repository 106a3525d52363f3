//! The thread pool: `Threads` workers created once and parked between searches.
//!
//! Lazy SMP (the default): every worker runs iterative deepening on the same root, sharing
//! the lock-free transposition table; helpers start at staggered depths, so they fill the
//! table ahead of each other. Worker 0 is the main worker: it alone manages time and
//! reports. When it finishes it stops the helpers, waits for them, and the best result is
//! chosen by completed depth and score.

use super::time::TimeManager;
use super::worker::{Control, SearchConfig, SearchResult, Worker};
use super::{BestMove, Limits, Report, Silent, TranspositionTable};
use crate::shogi::{Move, Position};
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// How the workers share a search (`ParallelMode` option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ParallelMode {
    /// Lazy SMP: every worker searches the whole root through the shared table.
    #[default]
    Lazy,
    /// DESIGN.md §7.3: root moves handed out by an atomic index, full-window searches.
    RootSplit,
}

/// Iteration state shared by root-splitting workers.
pub struct RootSplit {
    /// Next root move to hand out.
    pub next: AtomicUsize,
    /// (score, pv) per root move of the current iteration.
    pub results: Mutex<Vec<(i32, Vec<Move>)>>,
    /// A worker was stopped inside the iteration: discard it (DESIGN.md §7.3).
    pub aborted: AtomicBool,
    sync: Mutex<SplitSync>,
    cv: Condvar,
    helpers: usize,
}

struct SplitSync {
    epoch: u64,
    depth: i32,
    moves: Vec<Move>,
    helpers_done: usize,
    finished: bool,
}

impl RootSplit {
    fn new(helpers: usize) -> RootSplit {
        RootSplit {
            next: AtomicUsize::new(0),
            results: Mutex::new(Vec::new()),
            aborted: AtomicBool::new(false),
            sync: Mutex::new(SplitSync {
                epoch: 0,
                depth: 0,
                moves: Vec::new(),
                helpers_done: 0,
                finished: false,
            }),
            cv: Condvar::new(),
            helpers,
        }
    }

    /// Open an iteration (main worker) over `moves`, in the main worker's order.
    pub fn begin(&self, moves: Vec<Move>, depth: i32) {
        *self.results.lock() = vec![(-super::INFINITE, Vec::new()); moves.len()];
        self.next.store(0, Ordering::Relaxed);
        let mut s = self.sync.lock();
        s.epoch += 1;
        s.depth = depth;
        s.moves = moves;
        s.helpers_done = 0;
        self.cv.notify_all();
    }

    /// Wait for the next iteration after `seen` (helpers): its epoch, depth and moves;
    /// None when the search is over.
    pub fn wait_for_iteration(&self, seen: u64) -> Option<(u64, i32, Vec<Move>)> {
        let mut s = self.sync.lock();
        while s.epoch == seen && !s.finished {
            self.cv.wait(&mut s);
        }
        (!s.finished).then(|| (s.epoch, s.depth, s.moves.clone()))
    }

    pub fn helper_done(&self) {
        let mut s = self.sync.lock();
        s.helpers_done += 1;
        self.cv.notify_all();
    }

    /// Main worker: wait until every helper finished the iteration.
    pub fn wait_for_helpers(&self) {
        let mut s = self.sync.lock();
        while s.helpers_done < self.helpers {
            self.cv.wait(&mut s);
        }
    }

    /// End of search: release the helpers.
    pub fn finish(&self) {
        self.sync.lock().finished = true;
        self.cv.notify_all();
    }
}

/// The end of a job: the chosen result goes to it once.
pub type Done = Box<dyn FnOnce(Option<SearchResult>) + Send>;

/// Everything one search needs.
pub struct Job {
    pub mode: ParallelMode,
    pub pos: Position,
    pub tt: Arc<TranspositionTable>,
    pub control: Arc<Control>,
    pub limits: Limits,
    pub config: SearchConfig,
    pub time: TimeManager,
    /// Receives the main worker's info lines.
    pub report: Arc<dyn Report>,
    /// Called once, on the main pool thread, with the chosen result (None if a worker
    /// panicked): taken out of its slot by the one call.
    pub done: Mutex<Option<Done>>,
    /// Root-splitting state (set by the pool for `ParallelMode::RootSplit`).
    pub split: Option<RootSplit>,
}

struct State {
    /// Incremented for each new job.
    epoch: u64,
    job: Option<Arc<Job>>,
    /// Helpers still working on the current job.
    helpers_running: usize,
    /// Results of the helpers of the current job.
    helper_results: Vec<Option<SearchResult>>,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    helpers_done: Condvar,
}

/// A fixed set of search threads.
pub struct ThreadPool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
}

impl ThreadPool {
    /// Start `threads` parked search threads, or say why they cannot be had (the ones
    /// already started are stopped again).
    pub fn new(threads: usize) -> std::io::Result<ThreadPool> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                epoch: 0,
                job: None,
                helpers_running: 0,
                helper_results: Vec::new(),
                quit: false,
            }),
            wake: Condvar::new(),
            helpers_done: Condvar::new(),
        });
        let mut pool = ThreadPool {
            shared,
            handles: Vec::with_capacity(threads),
        };
        for id in 0..threads {
            let shared = pool.shared.clone();
            // On failure `pool` is dropped: the threads started so far quit and are joined.
            let handle = std::thread::Builder::new()
                .name(format!("hayanagi-search-{id}"))
                .spawn(move || thread_main(id, threads, shared))?;
            pool.handles.push(handle);
        }
        Ok(pool)
    }

    /// Tell the threads to quit once their current job is done, without waiting.
    pub fn request_quit(&self) {
        self.shared.state.lock().quit = true;
        self.shared.wake.notify_all();
    }

    /// Have all threads ended (after [`ThreadPool::request_quit`])?
    pub fn is_finished(&self) -> bool {
        self.handles.iter().all(JoinHandle::is_finished)
    }

    /// Number of threads.
    pub fn size(&self) -> usize {
        self.handles.len()
    }

    /// Hand a job to every thread. The caller makes sure the previous job is finished
    /// (its `done` has run).
    pub fn start(&self, mut job: Job) {
        if job.mode == ParallelMode::RootSplit {
            job.split = Some(RootSplit::new(self.handles.len() - 1));
        }
        // The table's static evals must come from this search's evaluation.
        job.tt.use_evaluation(job.config.eval.tag());
        let mut st = self.shared.state.lock();
        st.epoch += 1;
        st.job = Some(Arc::new(job));
        st.helpers_running = self.handles.len() - 1;
        st.helper_results = vec![None; self.handles.len() - 1];
        self.shared.wake.notify_all();
    }
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        self.request_quit();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn thread_main(id: usize, threads: usize, shared: Arc<Shared>) {
    let mut seen = 0u64;
    let mut worker: Option<Worker> = None;
    loop {
        let job = {
            let mut st = shared.state.lock();
            while st.epoch == seen && !st.quit {
                shared.wake.wait(&mut st);
            }
            if st.quit {
                return;
            }
            seen = st.epoch;
            st.job.clone().expect("a job comes with its epoch")
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let w = worker.get_or_insert_with(|| {
                Worker::new(
                    job.pos.clone(),
                    job.tt.clone(),
                    job.control.clone(),
                    job.limits.clone(),
                    job.config.clone(),
                    job.time.clone(),
                )
            });
            w.reset(
                id,
                job.pos.clone(),
                job.tt.clone(),
                job.control.clone(),
                job.limits.clone(),
                job.config.clone(),
                job.time.clone(),
            );
            if id == 0 {
                w.report_progress_to(job.report.clone());
            }
            match (&job.split, id) {
                (Some(split), 0) => w.run_rootsplit(&*job.report, split),
                (Some(split), _) => w.help_rootsplit(split),
                (None, 0) => w.run(&*job.report),
                (None, _) => w.run(&Silent),
            }
        }));
        let result = match result {
            Ok(r) => Some(r),
            Err(_) => {
                // A panicked worker's state may be inconsistent: start afresh next time.
                worker = None;
                None
            }
        };
        if id == 0 {
            // The main worker is done: stop the helpers, wait for them, choose.
            job.control.stop.store(true, Ordering::Release);
            let helper_results = {
                let mut st = shared.state.lock();
                while st.helpers_running > 0 {
                    shared.helpers_done.wait(&mut st);
                }
                std::mem::take(&mut st.helper_results)
            };
            let chosen = if threads > 1 && helper_results.iter().any(Option::is_none) {
                None
            } else if job.split.is_some() {
                // Root splitting: the main worker already combined every worker's moves.
                result
            } else {
                result.map(|main| choose(main, helper_results.into_iter().flatten()))
            };
            if let Some(done) = job.done.lock().take() {
                done(chosen);
            }
        } else {
            let mut st = shared.state.lock();
            st.helper_results[id - 1] = result;
            st.helpers_running -= 1;
            if st.helpers_running == 0 {
                shared.helpers_done.notify_all();
            }
        }
    }
}

/// The main worker's result, unless a helper completed a deeper iteration with a score at
/// least as good (Lazy SMP best-thread selection).
fn choose(main: SearchResult, helpers: impl Iterator<Item = SearchResult>) -> SearchResult {
    let BestMove::Move { .. } = main.best else {
        return main;
    };
    let mut best = main;
    let nodes = best.nodes;
    for h in helpers {
        if let (BestMove::Move { .. }, Some(hs), Some(bs)) = (h.best, h.score, best.score) {
            if h.depth > best.depth && hs >= bs {
                best = h;
            }
        }
    }
    best.nodes = nodes.max(best.nodes);
    best
}
