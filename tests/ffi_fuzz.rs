//! Property/fuzz harness for the C ABI (`hayanagi::ffi`), called directly from Rust with
//! raw NUL-terminated byte buffers, the way a C host would call it.
//!
//! Every string-taking entry point gets random and mutated input (`set_position`,
//! `set_option`, `is_legal`, `probe_tt`, `go`'s `searchmoves`), every buffer function
//! random capacities (`sfen`, `legal_moves`, `last_error`, `hayanagi_last_error`,
//! `poll_event`), and every call is checked against the conventions of
//! `include/hayanagi.h`:
//!
//! * the status is one the function documents, never `HAYANAGI_PANIC`;
//! * after any non-OK status, the engine's and the thread's last error are non-empty UTF-8;
//! * out-parameters are written only on success;
//! * a failing `set_position` keeps the previous position; a successful one reports an
//!   SFEN that parses back through `set_position("sfen " + sfen)` to the same SFEN;
//! * buffer functions either succeed (NUL-terminated, length reported, nothing written past
//!   `cap`) or return `HAYANAGI_BUFFER_TOO_SMALL` with the needed length;
//! * every successful `go` yields exactly one best move, legal in the searched position
//!   (and among `searchmoves` when given), and no search thread panics.
//!
//! Statuses are also compared with what the header leads one to expect: `set_position` and
//! `probe_tt` with the Rust parser (`Position::from_usi_position`) on the same text,
//! `is_legal` with `legal_moves`, `set_option` with the option ranges, `go` with the
//! legality of its `searchmoves`; polled events with the callbacks. Calls made while a
//! search runs may also answer `HAYANAGI_BUSY`, and then change nothing.
//!
//! Two workers (own engine, own seed; the second also polls events) run until
//! `HAYANAGI_FUZZ_INPUTS` fuzzed calls (default 1,000,000) or `HAYANAGI_FUZZ_SECS` seconds
//! (default 55) have passed, whichever comes first; `HAYANAGI_FUZZ_SEED` changes the seed.
//! A seeded xorshift drives all input, so a run is reproducible (up to thread timing). A
//! watchdog aborts with the input at hand if a call does not return for 30 s. Violations
//! are collected (a few of each kind, with the input bytes) and reported at the end.
//!
//! Targeted cases: NULL for every pointer argument, invalid UTF-8 in the middle of every
//! string argument, 100 KB strings, and a move number near `u32::MAX`.
//!
//! `two_threads_share_one_engine`: two threads call one engine at random for
//! `HAYANAGI_FUZZ_SHARED_SECS` seconds (default 20): `go`, `go_mate`, the USI channel (its
//! own searches too), `stop`, `wait`, `poll_event`, `last_mate`, position, options, ready.
//! Every status must be allowed, no call may hang, and every search that started must have
//! delivered exactly one answer: to its callback, as a USI line and as a polled event
//! (or, not polled before the next search started, dropped as stale and counted so).

use hayanagi::ffi::*;
use hayanagi::{legal, Position, PositionError};
use std::ffi::{c_char, c_void, CStr};
use std::panic::catch_unwind;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

// ----- deterministic randomness ------------------------------------------------------------

/// xorshift64* generator.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        for _ in 0..4 {
            r.next();
        }
        r
    }

    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % ((hi - lo) as u64 + 1)) as i64
    }

    /// True with probability `num / den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.next() % den < num
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

// ----- inputs ------------------------------------------------------------------------------

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Positions to start from: real games, perft and rules test positions, positions without
/// kings, a mate, an entering-king declaration and extreme move numbers.
const BASE_SFENS: &[&str] = &[
    STARTPOS,
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1",
    "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
    "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
    "7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1",
    "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
    "4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1",
    "3rkr3/9/8p/4N4/1B7/9/1SG6/2S6/9 b LPp 1",
    "4k4/9/9/9/9/9/9/9/4K4 b PLN 1",
    "4k4/9/9/9/9/9/9/9/4K4 w pln 1",
    "4k4/P8/9/9/9/9/9/9/4K4 b - 1",
    "4k4/9/9/9/9/9/2b1r4/9/4K4 b G 1",
    "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1",
    "9/9/9/9/9/9/9/9/9 b - 1",
    "9/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
    "9/9/9/9/9/9/9/9/9 w 2r2b4g4s4n4l18p 1",
    "4k4/9/9/9/9/9/9/9/9 b 2R 1",
    "4K4/9/9/9/9/9/9/9/9 w 2r 1",
    "1+R+BGK1G+B+R/1PPPPPPP1/9/9/9/9/9/9/4k4 b 2G4S4N4L10P 1",
    "4k4/9/9/9/9/9/9/9/4K4 b - 4294967295",
    "4k4/9/9/9/9/9/9/9/4K4 w - 4294967294",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2",
];

const OPTION_NAMES: &[&str] = &[
    "Hash",
    "USI_Hash",
    "Threads",
    "MultiPV",
    "NetworkDelay",
    "MinimumThinkingTime",
    "SlowMover",
    "EnteringKingRule",
    "USI_Ponder",
    "NetworkDelay2",
    "MaxMovesToDraw",
    "ResignValue",
    "DrawValueBlack",
    "DrawValueWhite",
    "SkillLevel",
    "RandomSeed",
    "USI_OwnBook",
];

const ENTERING_KING_VALUES: &[&str] = &["CSARule27", "CSARule24", "TryRule", "NoEnteringKing"];

/// Tokens that mean something to the parsers.
const TOKENS: &[&str] = &[
    "moves",
    "sfen",
    "startpos",
    "position",
    "b",
    "w",
    "-",
    "/",
    "9",
    "1",
    "0",
    "+",
    "*",
    "P*5e",
    "p*5e",
    "K*5e",
    "7g7f",
    "3c3d",
    "2h3h",
    "8h2b+",
    "7g7f+",
    "none",
    "0000",
    "resign",
    "win",
    "18P",
    "19p",
    "99P",
    "100P",
    "0P",
    "2K",
    "+P",
    "+K",
    "++P",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "-1",
    "+1",
    "9/9/9/9/9/9/9/9/9",
    "lnsgkgsnl",
    "PPPPPPPPP",
];

/// Valid UTF-8 that is not ASCII (full-width digits and letters, ideographic space, ...).
const UNICODE: &[&str] = &[
    "\u{3000}",
    "\u{00a0}",
    "\u{2028}",
    "\u{85}",
    "\u{ff17}",
    "\u{ff47}",
    "\u{ff30}",
    "\u{ff0a}",
    "\u{ff0b}",
    "é",
    "歩",
    "王",
    "\u{1f600}",
    "\u{200b}",
    "\u{feff}",
    "\u{0663}",
    "\u{ff11}",
];

/// Byte sequences that are not UTF-8: stray continuation bytes, truncated sequences,
/// overlong forms, surrogates, code points past U+10FFFF.
const INVALID_UTF8: &[&[u8]] = &[
    b"\xff",
    b"\xfe",
    b"\x80",
    b"\xbf",
    b"\xc3",
    b"\xc0\x80",
    b"\xc1\xbf",
    b"\xe0\x80\x80",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xf4\x90\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xe6\xad",
    b"\xf0\x9f\x98",
];

const WHITESPACE: &[&[u8]] = &[b" ", b"  ", b"\t", b"\n", b"\r\n", b"\x0b"];
const PIECE_LETTERS: &[u8] = b"KRBGSNLPkrbgsnlp";
const SQUARE_FILES: &[u8] = b"123456789";
const SQUARE_RANKS: &[u8] = b"abcdefghi";
const MOVE_ALPHABET: &[u8] = b"123456789abcdefghi*+PLNSGBRKplnsgbrk -0jz";
const SFEN_ALPHABET: &[u8] = b"123456789/+ KRBGSNLPkrbgsnlpbw-*0abcdefghimovesfntrp\t";

/// Escape bytes for a failure report (ASCII escapes, so invalid UTF-8 stays visible).
fn show(bytes: &[u8]) -> String {
    const MAX: usize = 300;
    let head = &bytes[..bytes.len().min(MAX)];
    let mut s = format!("b\"{}\"", head.escape_ascii());
    if bytes.len() > MAX {
        s.push_str(&format!("... ({} bytes in all)", bytes.len()));
    }
    s
}

/// A NUL-terminated copy of `bytes` with any interior NUL removed.
fn c_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = bytes.iter().copied().filter(|&b| b != 0).collect();
    v.push(0);
    v
}

fn c_ptr(v: &[u8]) -> *const c_char {
    v.as_ptr().cast()
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

// ----- callbacks -----------------------------------------------------------------------------

/// What the engine's callbacks delivered.
#[derive(Default)]
struct Recorder {
    bestmoves: Mutex<Vec<(String, Option<String>)>>,
    logs: Mutex<Vec<String>>,
    infos: AtomicU64,
    bad: Mutex<Vec<String>>,
}

/// Owned copy of a borrowed C string (NULL becomes `None`).
///
/// # Safety
/// `p` is NULL or a valid NUL-terminated string.
unsafe fn owned(p: *const c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: the caller's promise.
    let c = unsafe { CStr::from_ptr(p) };
    Some(match c.to_str() {
        Ok(s) => s.to_string(),
        Err(_) => format!("<not UTF-8: {}>", show(c.to_bytes())),
    })
}

unsafe extern "C" fn on_info(ud: *mut c_void, info: *const hayanagi_info, line: *const c_char) {
    // SAFETY: `ud` is the `Arc<Recorder>` given with the callback; it outlives the engine.
    let rec = unsafe { &*(ud as *const Recorder) };
    rec.infos.fetch_add(1, Ordering::Relaxed);
    // SAFETY: the library passes valid strings for the duration of the call.
    let line = unsafe { owned(line) };
    let ok = !info.is_null()
        // SAFETY: non-null and valid during the call.
        && !unsafe { (*info).pv }.is_null()
        && line.as_deref().is_some_and(|l| l.starts_with("info "));
    if !ok {
        lock(&rec.bad).push(format!("bad info callback: line {line:?}"));
    }
}

unsafe extern "C" fn on_bestmove(ud: *mut c_void, best: *const c_char, ponder: *const c_char) {
    // SAFETY: as in `on_info`.
    let rec = unsafe { &*(ud as *const Recorder) };
    // SAFETY: the library passes valid strings (or NULL for `ponder`).
    let (best, ponder) = unsafe { (owned(best), owned(ponder)) };
    lock(&rec.bestmoves).push((best.unwrap_or_else(|| "<NULL>".into()), ponder));
}

unsafe extern "C" fn on_log(ud: *mut c_void, msg: *const c_char) {
    // SAFETY: as in `on_info`.
    let rec = unsafe { &*(ud as *const Recorder) };
    // SAFETY: valid during the call.
    let msg = unsafe { owned(msg) }.unwrap_or_else(|| "<NULL>".into());
    lock(&rec.logs).push(msg);
}

unsafe extern "C" fn release_recorder(ud: *mut c_void) {
    // SAFETY: `ud` came from `Arc::into_raw` and each callback's copy is released once.
    drop(unsafe { Arc::from_raw(ud as *const Recorder) });
}

/// An engine handle, freed on drop.
struct Engine(*mut hayanagi_engine);

impl Engine {
    fn new() -> Engine {
        let mut e: *mut hayanagi_engine = std::ptr::null_mut();
        assert_eq!(hayanagi_engine_new(std::ptr::null(), &mut e), HAYANAGI_OK);
        assert!(!e.is_null());
        Engine(e)
    }

    /// Install the three callbacks, each holding its own reference to `rec`.
    fn attach(&self, rec: &Arc<Recorder>) {
        let ud = || Arc::into_raw(rec.clone()) as *mut c_void;
        let free: hayanagi_free_callback = Some(release_recorder);
        assert_eq!(
            hayanagi_engine_set_info_callback(self.0, Some(on_info), ud(), free),
            HAYANAGI_OK
        );
        assert_eq!(
            hayanagi_engine_set_bestmove_callback(self.0, Some(on_bestmove), ud(), free),
            HAYANAGI_OK
        );
        assert_eq!(
            hayanagi_engine_set_log_callback(self.0, Some(on_log), ud(), free),
            HAYANAGI_OK
        );
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        assert_eq!(hayanagi_engine_free(self.0), HAYANAGI_OK);
    }
}

/// Read a whole output string through a buffer function, growing the buffer as told.
fn read_full(f: impl Fn(*mut c_char, usize, *mut usize) -> i32) -> Result<String, String> {
    let mut buf = vec![0u8; 512];
    for _ in 0..4 {
        let mut n = usize::MAX;
        let st = f(buf.as_mut_ptr().cast(), buf.len(), &mut n);
        match st {
            HAYANAGI_OK => {
                if n >= buf.len() || buf[n] != 0 || buf[..n].contains(&0) {
                    return Err(format!("OK but length {n} / NUL wrong (cap {})", buf.len()));
                }
                return String::from_utf8(buf[..n].to_vec())
                    .map_err(|_| format!("not UTF-8: {}", show(&buf[..n])));
            }
            HAYANAGI_BUFFER_TOO_SMALL => {
                if n == usize::MAX || n < buf.len() {
                    return Err(format!(
                        "BUFFER_TOO_SMALL with cap {} but needed length {n}",
                        buf.len()
                    ));
                }
                buf = vec![0u8; n + 1];
            }
            other => return Err(format!("status {other}")),
        }
    }
    Err("the needed length kept growing".into())
}

fn sfen_of(e: *const hayanagi_engine) -> Result<String, String> {
    read_full(|b, c, n| hayanagi_engine_sfen(e, b, c, n))
}

fn engine_error_of(e: *const hayanagi_engine) -> Result<String, String> {
    read_full(|b, c, n| hayanagi_engine_last_error(e, b, c, n))
}

fn thread_error() -> Result<String, String> {
    read_full(|b, c, n| hayanagi_last_error(b, c, n))
}

fn legal_of(e: *const hayanagi_engine) -> Result<Vec<String>, String> {
    let s = read_full(|b, c, n| hayanagi_engine_legal_moves(e, b, c, n))?;
    Ok(s.split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect())
}

/// Legal moves of `pos` in USI, sorted (the order `hayanagi_engine_legal_moves` promises).
fn legal_usi(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal(pos).iter().map(|m| m.usi()).collect();
    v.sort();
    v
}

// ----- bookkeeping ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    SetPosition,
    SetOption,
    Ready,
    IsLegal,
    ProbeTt,
    Go,
    Sfen,
    LegalMoves,
    EngineLastError,
    ThreadLastError,
    PollEvent,
    Busy,
    Queries,
}

const OPS: [Op; 13] = [
    Op::SetPosition,
    Op::SetOption,
    Op::Ready,
    Op::IsLegal,
    Op::ProbeTt,
    Op::Go,
    Op::Sfen,
    Op::LegalMoves,
    Op::EngineLastError,
    Op::ThreadLastError,
    Op::PollEvent,
    Op::Busy,
    Op::Queries,
];

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::SetPosition => "set_position",
            Op::SetOption => "set_option",
            Op::Ready => "ready/new_game/clear_hash",
            Op::IsLegal => "is_legal",
            Op::ProbeTt => "probe_tt",
            Op::Go => "go (searchmoves)",
            Op::Sfen => "sfen (random cap)",
            Op::LegalMoves => "legal_moves (random cap)",
            Op::EngineLastError => "engine_last_error (random cap)",
            Op::ThreadLastError => "hayanagi_last_error (random cap)",
            Op::PollEvent => "poll_event (random cap)",
            Op::Busy => "calls during a search",
            Op::Queries => "evaluate/game_state/perft",
        }
    }
}

#[derive(Clone, Default)]
struct Stats {
    count: [u64; 13],
    max_time: [Duration; 13],
    checks: u64,
    /// Statuses per operation.
    statuses: [[u64; 13]; 13],
    bestmoves: u64,
    resigns_with_moves: u64,
    infos: u64,
    tt_hits: u64,
    step_time: [Duration; 6],
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        for (a, b) in self.count.iter_mut().zip(o.count.iter()) {
            *a += b;
        }
        for (a, b) in self.max_time.iter_mut().zip(o.max_time.iter()) {
            *a = (*a).max(*b);
        }
        for (a, b) in self.statuses.iter_mut().zip(o.statuses.iter()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                *x += y;
            }
        }
        for (a, b) in self.step_time.iter_mut().zip(o.step_time.iter()) {
            *a += *b;
        }
        self.checks += o.checks;
        self.bestmoves += o.bestmoves;
        self.resigns_with_moves += o.resigns_with_moves;
        self.infos += o.infos;
        self.tt_hits += o.tt_hits;
    }

    fn inputs(&self) -> u64 {
        self.count.iter().sum()
    }
}

/// Failures, at most a few of each kind, with the total.
#[derive(Default)]
struct Failures {
    list: Vec<(String, String)>,
    total: usize,
}

impl Failures {
    fn add(&mut self, kind: &str, detail: String) {
        self.total += 1;
        let same = self.list.iter().filter(|(k, _)| k == kind).count();
        if same < 3 && self.list.len() < 60 {
            self.list.push((kind.to_string(), detail));
        }
    }

    fn merge(&mut self, o: Failures) {
        self.total += o.total - o.list.len();
        for (k, d) in o.list {
            self.add(&k, d);
        }
    }
}

/// The last input of each worker, for the hang watchdog.
struct Progress {
    ticks: AtomicU64,
    last: Mutex<(&'static str, Vec<u8>)>,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            ticks: AtomicU64::new(0),
            last: Mutex::new(("", Vec::new())),
        }
    }
}

/// Keep library panics (bugs the fuzzer reports anyway) from flooding the output: print
/// the first few of them. Panics in this file (failed assertions) always print.
fn quiet_panics() {
    static ONCE: Once = Once::new();
    static SEEN: AtomicU64 = AtomicU64::new(0);
    ONCE.call_once(|| {
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_library = info
                .location()
                .is_some_and(|l| !l.file().contains("ffi_fuzz"));
            if !in_library || SEEN.fetch_add(1, Ordering::Relaxed) < 8 {
                prev(info);
            }
        }));
    });
}

fn status_name(st: i32) -> String {
    // SAFETY: the library returns a static NUL-terminated string for every code.
    let s = unsafe { CStr::from_ptr(hayanagi_status_str(st)) };
    format!("{st} ({})", s.to_string_lossy())
}

// ----- the fuzzer ----------------------------------------------------------------------------

struct Fuzzer {
    rng: Rng,
    eng: Engine,
    rec: Arc<Recorder>,
    events: bool,
    stats: Stats,
    fails: Failures,
    /// Inputs that set a position successfully (mutation sources).
    corpus: Vec<Vec<u8>>,
    /// Positions that were searched (so TT probes hit).
    searched: Vec<String>,
    /// The engine's SFEN as last read.
    cur_sfen: String,
    /// Legal moves of the current position, sorted (None: to be read).
    cur_legal: Option<Vec<String>>,
    progress: Arc<Progress>,
    /// Best moves dropped from the poll queue as stale, as last counted.
    stale_finals: u64,
}

impl Fuzzer {
    fn new(seed: u64, events: bool, progress: Arc<Progress>) -> Fuzzer {
        let eng = Engine::new();
        let rec = Arc::new(Recorder::default());
        eng.attach(&rec);
        if events {
            assert_eq!(hayanagi_engine_enable_events(eng.0, true), HAYANAGI_OK);
        }
        // A small table: clearing or replacing it stays cheap.
        let (name, value) = (c_bytes(b"USI_Hash"), c_bytes(b"1"));
        assert_eq!(
            hayanagi_engine_set_option(eng.0, c_ptr(&name), c_ptr(&value)),
            HAYANAGI_OK
        );
        assert_eq!(hayanagi_engine_ready(eng.0), HAYANAGI_OK);
        let cur_sfen = sfen_of(eng.0).expect("sfen of a new engine");
        assert_eq!(cur_sfen, STARTPOS);
        Fuzzer {
            rng: Rng::new(seed),
            eng,
            rec,
            events,
            stats: Stats::default(),
            fails: Failures::default(),
            corpus: Vec::new(),
            searched: Vec::new(),
            cur_sfen,
            cur_legal: None,
            progress,
            stale_finals: 0,
        }
    }

    fn e(&self) -> *mut hayanagi_engine {
        self.eng.0
    }

    fn fail(&mut self, kind: &str, detail: String) {
        self.fails.add(kind, detail);
    }

    /// Note a fuzzed call: count it and tell the watchdog what is being tried.
    fn note(&mut self, op: Op, input: &[u8]) {
        self.stats.count[op as usize] += 1;
        let mut last = lock(&self.progress.last);
        last.0 = op.name();
        last.1.clear();
        last.1.extend_from_slice(&input[..input.len().min(4096)]);
        drop(last);
        self.progress.ticks.fetch_add(1, Ordering::Relaxed);
    }

    fn timed<T>(&mut self, op: Op, f: impl FnOnce() -> T) -> T {
        let t = Instant::now();
        let r = f();
        let dt = t.elapsed();
        let m = &mut self.stats.max_time[op as usize];
        *m = (*m).max(dt);
        if dt > Duration::from_secs(5) {
            self.fail("slow call", format!("{} took {dt:?}", op.name()));
        }
        r
    }

    /// Check a status against the documented set, and the error message after a failure.
    fn check_status(&mut self, op: Op, st: i32, allowed: &[i32], input: &[u8]) -> bool {
        self.stats.checks += 1;
        if let Some(s) = self.stats.statuses[op as usize].get_mut(st as usize) {
            *s += 1;
        }
        let mut ok = true;
        if st == HAYANAGI_PANIC {
            let msg = thread_error().unwrap_or_default();
            self.fail(
                "HAYANAGI_PANIC",
                format!(
                    "{} returned PANIC ({msg}) for input {}",
                    op.name(),
                    show(input)
                ),
            );
            ok = false;
        } else if !allowed.contains(&st) {
            self.fail(
                "undocumented status",
                format!(
                    "{} returned {} (allowed {allowed:?}) for input {}",
                    op.name(),
                    status_name(st),
                    show(input)
                ),
            );
            ok = false;
        }
        if st != HAYANAGI_OK {
            self.check_error_message(op, st, input);
        }
        ok
    }

    /// After a failure both the engine's and the thread's last error are non-empty UTF-8.
    fn check_error_message(&mut self, op: Op, st: i32, input: &[u8]) {
        match engine_error_of(self.e()) {
            Ok(m) if !m.trim().is_empty() => {}
            other => self.fail(
                "no error message",
                format!(
                    "{} returned {} but hayanagi_engine_last_error gave {other:?}; input {}",
                    op.name(),
                    status_name(st),
                    show(input)
                ),
            ),
        }
        match thread_error() {
            Ok(m) if !m.trim().is_empty() => {}
            other => self.fail(
                "no thread error message",
                format!(
                    "{} returned {} but hayanagi_last_error gave {other:?}; input {}",
                    op.name(),
                    status_name(st),
                    show(input)
                ),
            ),
        }
    }

    fn legal(&mut self) -> Vec<String> {
        if self.cur_legal.is_none() {
            match legal_of(self.e()) {
                Ok(v) => {
                    if v.windows(2).any(|w| w[0] >= w[1]) {
                        self.fail(
                            "legal_moves order",
                            format!("not in ASCII order or repeated: {v:?} in {}", self.cur_sfen),
                        );
                    }
                    self.cur_legal = Some(v);
                }
                Err(m) => {
                    self.fail("legal_moves read", m);
                    self.cur_legal = Some(Vec::new());
                }
            }
        }
        self.cur_legal.clone().unwrap_or_default()
    }

    /// Re-read the SFEN and compare it with what we expect it to be.
    fn expect_sfen(&mut self, kind: &str, expected: &str, context: impl FnOnce() -> String) {
        match sfen_of(self.e()) {
            Ok(s) if s == expected => {}
            other => {
                let ctx = context();
                self.fail(
                    kind,
                    format!("{ctx}: sfen is {other:?}, expected {expected:?}"),
                );
            }
        }
    }

    // ----- input generators ------------------------------------------------------------

    fn random_bytes(&mut self, max_len: usize, alphabet: Option<&[u8]>) -> Vec<u8> {
        let n = self.rng.below(max_len + 1);
        (0..n)
            .map(|_| match alphabet {
                Some(a) => *self.rng.pick(a),
                None => self.rng.next() as u8,
            })
            .collect()
    }

    fn random_square(&mut self) -> [u8; 2] {
        [*self.rng.pick(SQUARE_FILES), *self.rng.pick(SQUARE_RANKS)]
    }

    /// A random SFEN board, mostly sparse, that often but not always passes validation.
    fn random_sfen(&mut self) -> String {
        let density = self.rng.range(0, 40) as u64;
        let mut cells: Vec<Option<String>> = (0..81)
            .map(|_| {
                if self.rng.chance(density, 100) {
                    let letter = *self.rng.pick(b"RBGSNLP");
                    let promote = b"RBSNLP".contains(&letter) && self.rng.chance(1, 4);
                    let mut s = String::new();
                    if promote {
                        s.push('+');
                    }
                    let c = letter as char;
                    s.push(if self.rng.chance(1, 2) {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    });
                    Some(s)
                } else {
                    None
                }
            })
            .collect();
        for king in ["K", "k"] {
            if self.rng.chance(9, 10) {
                let i = self.rng.below(81);
                cells[i] = Some(king.to_string());
            }
        }
        let mut s = String::new();
        for rank in 0..9 {
            if rank > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for cell in &cells[rank * 9..rank * 9 + 9] {
                match cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push_str(p);
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push_str(if self.rng.chance(1, 2) { " b " } else { " w " });
        let mut hand = String::new();
        for &l in b"RBGSNLPrbgsnlp" {
            if self.rng.chance(1, 5) {
                let n = if self.rng.chance(1, 2) {
                    1
                } else {
                    self.rng.range(2, 20)
                };
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                hand.push(l as char);
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        s.push(' ');
        s.push_str(&self.move_number());
        s
    }

    fn move_number(&mut self) -> String {
        match self.rng.below(8) {
            0 => "0".into(),
            1 => u32::MAX.to_string(),
            2 => (u32::MAX - self.rng.below(3) as u32).to_string(),
            3 => "4294967296".into(),
            4 => self.rng.range(1, 100_000).to_string(),
            _ => self.rng.range(1, 300).to_string(),
        }
    }

    /// A position to play from: a base SFEN, a random board or a corpus entry's setup.
    fn random_setup(&mut self) -> (String, Option<Position>) {
        let sfen = match self.rng.below(10) {
            0..=5 => self.rng.pick(BASE_SFENS).to_string(),
            6..=7 => self.random_sfen(),
            _ => self.cur_sfen.clone(),
        };
        let pos = Position::from_sfen(&sfen).ok();
        (sfen, pos)
    }

    /// `plies` random legal moves from `pos` (fewer when the game ends).
    fn random_game(&mut self, pos: &mut Position, plies: usize) -> Vec<String> {
        let mut out = Vec::new();
        for _ in 0..plies {
            let l = legal(pos);
            if l.is_empty() {
                break;
            }
            let m = l
                .iter()
                .nth(self.rng.below(l.len()))
                .copied()
                .expect("in range");
            out.push(m.usi());
            pos.do_move(m);
        }
        out
    }

    /// A random USI move string: legal, near-legal, well-formed, malformed or not UTF-8.
    fn gen_move(&mut self, legal: &[String]) -> Vec<u8> {
        match self.rng.below(20) {
            0..=5 if !legal.is_empty() => self.rng.pick(legal).clone().into_bytes(),
            6..=8 if !legal.is_empty() => {
                let mut m = self.rng.pick(legal).clone().into_bytes();
                match self.rng.below(6) {
                    0 => {
                        let i = self.rng.below(m.len());
                        m[i] = *self.rng.pick(MOVE_ALPHABET);
                    }
                    1 => {
                        if m.last() == Some(&b'+') {
                            m.pop();
                        } else {
                            m.push(b'+');
                        }
                    }
                    2 => m.make_ascii_lowercase(),
                    3 => m.insert(0, b' '),
                    4 => m.push(*self.rng.pick(b" \t\n+*")),
                    _ => {
                        let bad = *self.rng.pick(INVALID_UTF8);
                        let i = self.rng.below(m.len() + 1);
                        m.splice(i..i, bad.iter().copied());
                    }
                }
                m
            }
            9..=11 => {
                let mut m = Vec::new();
                if self.rng.chance(1, 3) {
                    m.push(*self.rng.pick(PIECE_LETTERS));
                    m.push(b'*');
                } else {
                    m.extend_from_slice(&self.random_square());
                }
                m.extend_from_slice(&self.random_square());
                if self.rng.chance(1, 3) {
                    m.push(b'+');
                }
                m
            }
            12..=13 => self.random_bytes(8, Some(MOVE_ALPHABET)),
            14 => self.random_bytes(12, None),
            15 => {
                let mut m = b"7g7f".to_vec();
                let u = self.rng.pick(UNICODE).as_bytes();
                let i = self.rng.below(m.len() + 1);
                m.splice(i..i, u.iter().copied());
                m
            }
            16 => self.rng.pick(TOKENS).as_bytes().to_vec(),
            17 if self.rng.chance(1, 20) => {
                let n = self.rng.range(1000, 20_000) as usize;
                self.random_bytes(n, Some(MOVE_ALPHABET))
            }
            _ => {
                let mut m = Vec::new();
                m.extend_from_slice(&self.random_square());
                m.extend_from_slice(&self.random_square());
                m
            }
        }
    }

    /// Apply 1-4 random mutations.
    fn mutate(&mut self, s: &mut Vec<u8>) {
        for _ in 0..1 + self.rng.below(4) {
            let len = s.len();
            let at = self.rng.below(len + 1);
            match self.rng.below(17) {
                0 if len > 0 => {
                    let i = self.rng.below(len);
                    s[i] = *self.rng.pick(SFEN_ALPHABET);
                }
                1 if len > 0 => {
                    let i = self.rng.below(len);
                    s[i] ^= 1 << self.rng.below(8);
                }
                2 => s.truncate(at),
                3 => s.insert(at, b'0' + self.rng.below(10) as u8),
                4 => s.insert(at, b'+'),
                5 => s.insert(at, b'*'),
                6 => {
                    let ws = *self.rng.pick(WHITESPACE);
                    s.splice(at..at, ws.iter().copied());
                }
                7 if len > 0 => {
                    let a = self.rng.below(len);
                    let b = (a + 1 + self.rng.below(8)).min(len);
                    s.drain(a..b);
                }
                8 if len > 0 => {
                    let a = self.rng.below(len);
                    let b = (a + 1 + self.rng.below(16)).min(len);
                    let piece = s[a..b].to_vec();
                    s.splice(b..b, piece);
                }
                9 => {
                    let t = format!(" {} ", self.rng.pick(TOKENS));
                    s.splice(at..at, t.bytes());
                }
                10 => {
                    let u = self.rng.pick(UNICODE).as_bytes();
                    s.splice(at..at, u.iter().copied());
                }
                11 => {
                    let bad = *self.rng.pick(INVALID_UTF8);
                    s.splice(at..at, bad.iter().copied());
                }
                12 => {
                    // Swap two words.
                    let text = String::from_utf8_lossy(s).into_owned();
                    let mut words: Vec<&str> = text.split(' ').collect();
                    if words.len() > 1 {
                        let i = self.rng.below(words.len());
                        let j = self.rng.below(words.len());
                        words.swap(i, j);
                        *s = words.join(" ").into_bytes();
                    }
                }
                13 => {
                    // Replace a number (a move number, a hand count, an empty run).
                    let text = String::from_utf8_lossy(s).into_owned();
                    let starts: Vec<usize> = text
                        .char_indices()
                        .filter(|&(i, c)| {
                            c.is_ascii_digit()
                                && (i == 0 || !text.as_bytes()[i - 1].is_ascii_digit())
                        })
                        .map(|(i, _)| i)
                        .collect();
                    if !starts.is_empty() {
                        let a = *self.rng.pick(&starts);
                        let b = a + text[a..].bytes().take_while(u8::is_ascii_digit).count();
                        let n = self.move_number();
                        let mut t = text.clone();
                        t.replace_range(a..b, &n);
                        *s = t.into_bytes();
                    }
                }
                14 => {
                    let m = self.gen_move(&[]);
                    s.push(b' ');
                    s.extend_from_slice(&m);
                }
                15 if len > 0 => {
                    // Flip the case of a letter (piece colour, side to move, keywords).
                    let i = self.rng.below(len);
                    if s[i].is_ascii_alphabetic() {
                        s[i] ^= 0x20;
                    }
                }
                _ => {
                    let b = *self.rng.pick(SFEN_ALPHABET);
                    s.insert(at, b);
                }
            }
        }
    }

    /// A USI position argument to try.
    fn gen_position(&mut self) -> Vec<u8> {
        let roll = self.rng.below(100);
        if self.rng.chance(1, 1500) {
            return self.gen_long_position();
        }
        match roll {
            0..=4 => self.random_bytes(64, None),
            5..=11 => self.random_bytes(120, Some(SFEN_ALPHABET)),
            12..=39 => self.gen_valid_position(),
            40..=49 => {
                let s = self.random_sfen();
                let mut v = if self.rng.chance(1, 2) {
                    format!("sfen {s}").into_bytes()
                } else {
                    s.into_bytes()
                };
                if self.rng.chance(1, 3) {
                    self.mutate(&mut v);
                }
                v
            }
            50..=69 if !self.corpus.is_empty() => {
                let mut v = self.rng.pick(&self.corpus).clone();
                self.mutate(&mut v);
                v
            }
            _ => {
                let mut v = self.gen_valid_position();
                self.mutate(&mut v);
                v
            }
        }
    }

    /// A well-formed position argument, with legal moves and sometimes one bad last move.
    fn gen_valid_position(&mut self) -> Vec<u8> {
        let (sfen, pos) = self.random_setup();
        let mut s = if sfen == STARTPOS && self.rng.chance(1, 2) {
            "startpos".to_string()
        } else if self.rng.chance(4, 5) {
            format!("sfen {sfen}")
        } else {
            sfen
        };
        let mut moves = Vec::new();
        if let Some(mut p) = pos {
            if self.rng.chance(2, 3) {
                let most = if self.rng.chance(1, 10) { 200 } else { 16 };
                let plies = self.rng.below(most);
                moves = self.random_game(&mut p, plies);
            }
            if self.rng.chance(1, 4) {
                let l = legal_usi(&p);
                moves.push(String::from_utf8_lossy(&self.gen_move(&l)).into_owned());
            }
        }
        if !moves.is_empty() || self.rng.chance(1, 10) {
            s.push_str(" moves");
            for m in moves {
                s.push(' ');
                s.push_str(&m);
            }
        }
        s.into_bytes()
    }

    /// A 5-100 KB position argument.
    fn gen_long_position(&mut self) -> Vec<u8> {
        let target = self.rng.range(5_000, 100_000) as usize;
        match self.rng.below(4) {
            0 => {
                // A long random game (sennichite is not illegal: shuffle when it ends).
                let mut s = String::from("startpos moves");
                let mut p = Position::startpos();
                let game = self.random_game(&mut p, 600);
                for m in game {
                    s.push(' ');
                    s.push_str(&m);
                }
                s.into_bytes()
            }
            1 => {
                let mut s = String::from("startpos moves");
                while s.len() < target {
                    s.push_str(" 2h3h 8b7b 3h2h 7b8b");
                }
                let mut v = s.into_bytes();
                if self.rng.chance(1, 2) {
                    self.mutate(&mut v);
                }
                v
            }
            2 => self.random_bytes(target, Some(SFEN_ALPHABET)),
            _ => {
                let mut v = b"sfen ".to_vec();
                v.extend(std::iter::repeat_n(*self.rng.pick(b"1+/ P9"), target));
                v
            }
        }
    }

    // ----- operations ------------------------------------------------------------------

    /// `set_position` with every property checked. `during_search`: BUSY is allowed.
    fn set_position_checked(&mut self, input: &[u8], during_search: bool) -> i32 {
        let op = if during_search {
            Op::Busy
        } else {
            Op::SetPosition
        };
        self.note(op, input);
        let c = c_bytes(input);
        let e = self.e();
        let st = self.timed(op, || hayanagi_engine_set_position(e, c_ptr(&c)));
        let text = &c[..c.len() - 1];
        let mut allowed = vec![
            HAYANAGI_OK,
            HAYANAGI_INVALID_ARG,
            HAYANAGI_PARSE,
            HAYANAGI_ILLEGAL_MOVE,
        ];
        if during_search {
            allowed.push(HAYANAGI_BUSY);
        }
        self.check_status(op, st, &allowed, text);
        if st == HAYANAGI_PANIC {
            return st;
        }

        // What the Rust parser says about the same text.
        let oracle = std::str::from_utf8(text)
            .ok()
            .map(|s| catch_unwind(|| Position::from_usi_position(s)));
        let expected = match &oracle {
            None => HAYANAGI_INVALID_ARG,
            Some(Err(_)) => {
                self.fail(
                    "Position::from_usi_position panicked",
                    format!("input {}", show(text)),
                );
                return st;
            }
            Some(Ok(Ok(_))) => HAYANAGI_OK,
            Some(Ok(Err(PositionError::Sfen(_)))) => HAYANAGI_PARSE,
            Some(Ok(Err(PositionError::Move { .. }))) => HAYANAGI_ILLEGAL_MOVE,
        };
        if st == HAYANAGI_BUSY && during_search {
            let before = self.cur_sfen.clone();
            self.expect_sfen("position changed by a BUSY set_position", &before, || {
                format!("input {}", show(text))
            });
            return st;
        }
        if st != expected {
            self.fail(
                "set_position status",
                format!(
                    "input {}: status {}, expected {}",
                    show(text),
                    status_name(st),
                    status_name(expected)
                ),
            );
        }
        if st != HAYANAGI_OK {
            if let Some(Ok(Err(PositionError::Move { index, .. }))) = &oracle {
                let want = format!("move {} (0-based)", index - 1);
                let msg = engine_error_of(e).unwrap_or_default();
                if !msg.starts_with(&want) {
                    self.fail(
                        "ILLEGAL_MOVE message",
                        format!(
                            "input {}: message {msg:?}, expected {want:?}...",
                            show(text)
                        ),
                    );
                }
            }
            let before = self.cur_sfen.clone();
            self.expect_sfen(
                "position changed after a failed set_position",
                &before,
                || format!("input {} (status {})", show(text), status_name(st)),
            );
            return st;
        }

        // Success: the SFEN is what the parser says, and it parses back to itself.
        self.cur_legal = None;
        let after = match sfen_of(e) {
            Ok(s) => s,
            Err(m) => {
                self.fail("sfen read", m);
                return st;
            }
        };
        self.cur_sfen = after.clone();
        if let Some(Ok(Ok(p))) = &oracle {
            if p.to_sfen() != after {
                self.fail(
                    "set_position result",
                    format!(
                        "input {}: engine sfen {after:?}, parser sfen {:?}",
                        show(text),
                        p.to_sfen()
                    ),
                );
            }
        }
        let back = format!("sfen {after}");
        let cb = c_bytes(back.as_bytes());
        let st2 = hayanagi_engine_set_position(e, c_ptr(&cb));
        if st2 != HAYANAGI_OK {
            let msg = engine_error_of(e).unwrap_or_default();
            self.fail(
                "SFEN round trip",
                format!(
                    "input {} was accepted and reports {after:?}, but set_position({back:?}) \
                     returns {}: {msg}",
                    show(text),
                    status_name(st2)
                ),
            );
        } else {
            self.expect_sfen("SFEN round trip", &after, || {
                format!("after set_position({back:?}) for input {}", show(text))
            });
            // Usually put the original back, with its move history (repetitions).
            if self.rng.chance(3, 4) {
                let st3 = hayanagi_engine_set_position(e, c_ptr(&c));
                if st3 != HAYANAGI_OK {
                    self.fail(
                        "set_position not repeatable",
                        format!("input {}: first OK, then {}", show(text), status_name(st3)),
                    );
                }
                self.expect_sfen("set_position not repeatable", &after, || {
                    format!("input {}", show(text))
                });
            }
        }
        if !during_search && self.rng.chance(1, 8) {
            self.op_queries();
        }
        if self.corpus.len() < 512 {
            self.corpus.push(text.to_vec());
        } else {
            let i = self.rng.below(512);
            self.corpus[i] = text.to_vec();
        }
        st
    }

    /// The non-string position queries on whatever position fuzzing produced.
    fn op_queries(&mut self) {
        let e = self.e();
        let sfen = self.cur_sfen.clone();
        let legal = self.legal();
        self.note(Op::Queries, sfen.as_bytes());
        let mut value = 0i32;
        let st = self.timed(Op::Queries, || hayanagi_engine_evaluate(e, &mut value));
        self.check_status(Op::Queries, st, &[HAYANAGI_OK], sfen.as_bytes());
        let depth = if self.rng.chance(1, 8) { 2 } else { 1 };
        let mut nodes = u64::MAX;
        let st = self.timed(Op::Queries, || hayanagi_engine_perft(e, depth, &mut nodes));
        self.check_status(Op::Queries, st, &[HAYANAGI_OK], sfen.as_bytes());
        if depth == 1 && nodes != legal.len() as u64 {
            self.fail(
                "perft(1) differs from legal_moves",
                format!("{sfen}: perft {nodes}, {} legal moves", legal.len()),
            );
        }
        let (mut state, mut winner) = (-7i32, -7i32);
        let st = self.timed(Op::Queries, || {
            hayanagi_engine_game_state(e, &mut state, &mut winner)
        });
        self.check_status(Op::Queries, st, &[HAYANAGI_OK], sfen.as_bytes());
        let decided = [
            HAYANAGI_GAME_CHECKMATE,
            HAYANAGI_GAME_PERPETUAL_CHECK,
            HAYANAGI_GAME_DECLARATION,
        ]
        .contains(&state);
        let ok = (HAYANAGI_GAME_ONGOING..=HAYANAGI_GAME_DECLARATION).contains(&state)
            && (if decided {
                winner == 0 || winner == 1
            } else {
                winner == -1
            })
            && (state != HAYANAGI_GAME_CHECKMATE || legal.is_empty())
            && (!legal.is_empty()
                || state == HAYANAGI_GAME_CHECKMATE
                || state == HAYANAGI_GAME_DRAW
                || state == HAYANAGI_GAME_PERPETUAL_CHECK);
        if st == HAYANAGI_OK && !ok {
            self.fail(
                "game_state",
                format!(
                    "{sfen}: state {state}, winner {winner}, {} legal moves",
                    legal.len()
                ),
            );
        }
    }

    fn op_set_position(&mut self) {
        let input = self.gen_position();
        self.set_position_checked(&input, false);
    }

    fn gen_option_name(&mut self) -> Vec<u8> {
        match self.rng.below(20) {
            0..=11 => self.rng.pick(OPTION_NAMES).as_bytes().to_vec(),
            12..=13 => {
                let mut n = self.rng.pick(OPTION_NAMES).as_bytes().to_vec();
                for b in n.iter_mut() {
                    if self.rng.chance(1, 2) {
                        *b = b.to_ascii_uppercase();
                    } else {
                        *b = b.to_ascii_lowercase();
                    }
                }
                n
            }
            14..=15 => {
                let mut n = self.rng.pick(OPTION_NAMES).as_bytes().to_vec();
                self.mutate(&mut n);
                n
            }
            16 => Vec::new(),
            17 => b"USI Hash".to_vec(),
            18 => self.random_bytes(24, None),
            _ => self.random_bytes(24, Some(b"abcdefghijklmnopqrstuvwxyzHTMPSU_ ")),
        }
    }

    fn gen_option_value(&mut self, name: &[u8]) -> Vec<u8> {
        let lname = String::from_utf8_lossy(name).to_ascii_lowercase();
        match self.rng.below(24) {
            0..=5 if lname == "enteringkingrule" => {
                self.rng.pick(ENTERING_KING_VALUES).as_bytes().to_vec()
            }
            6 if lname == "enteringkingrule" => {
                let mut v = self.rng.pick(ENTERING_KING_VALUES).as_bytes().to_vec();
                self.mutate(&mut v);
                v
            }
            // Small numbers: valid for most options (Hash only up to 64, mostly tiny, so
            // no large table is ever allocated or cleared).
            0..=7 => {
                if self.rng.chance(1, 256) {
                    self.rng.range(0, 64)
                } else {
                    self.rng.range(0, 4)
                }
            }
            .to_string()
            .into_bytes(),
            8..=9 => self.rng.range(0, 70_000).to_string().into_bytes(),
            10 => (*self.rng.pick(&[
                "0",
                "1",
                "32",
                "33",
                "1000",
                "1001",
                "10000",
                "10001",
                "60000",
                "60001",
                "1048576",
                "1048577",
                "4294967296",
                "18446744073709551615",
                "18446744073709551616",
                "99999999999999999999999",
                "-1",
                "-0",
                "+5",
                " 7 ",
                "\t3\n",
                "5x",
                "0x10",
                "1e3",
                "2.5",
                "",
                " ",
                "true",
                "\u{ff15}",
                "\u{0663}",
                "1\u{3000}",
            ]))
            .as_bytes()
            .to_vec(),
            11 => self.random_bytes(12, None),
            12 => self.random_bytes(12, Some(b"0123456789 +-.exEX")),
            13 => {
                let mut v = self.rng.range(0, 64).to_string().into_bytes();
                let bad = *self.rng.pick(INVALID_UTF8);
                let i = self.rng.below(v.len() + 1);
                v.splice(i..i, bad.iter().copied());
                v
            }
            14 => self.rng.pick(ENTERING_KING_VALUES).as_bytes().to_vec(),
            15 if self.rng.chance(1, 20) => {
                let n = self.rng.range(1000, 50_000) as usize;
                self.random_bytes(n, Some(b"0123456789"))
            }
            _ => self.rng.range(0, 40).to_string().into_bytes(),
        }
    }

    /// Would `set_option(name, value)` succeed? (Ranges from `Engine::set_option`.)
    fn option_model(name: &str, value: &str) -> bool {
        let num = |lo: u64, hi: u64| {
            value
                .trim()
                .parse::<u64>()
                .is_ok_and(|v| (lo..=hi).contains(&v))
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => num(1, 1 << 20),
            "threads" => num(1, 256),
            "multipv" => num(1, 32),
            "networkdelay" => num(0, 10_000),
            "minimumthinkingtime" => num(0, 60_000),
            "slowmover" => num(1, 1000),
            "usi_ponder" | "usi_ownbook" => ["true", "false"].contains(&value.trim()),
            "networkdelay2" => num(0, 10_000),
            "maxmovestodraw" => num(0, 100_000),
            "resignvalue" => num(0, 99_999),
            "drawvalueblack" | "drawvaluewhite" => value
                .trim()
                .parse::<i64>()
                .is_ok_and(|v| (-30_000..=30_000).contains(&v)),
            "skilllevel" => num(0, 20),
            "randomseed" => num(0, i64::MAX as u64),
            // Any text: the file is read (and complained about) at ready.
            "bookfile" => true,
            "enteringkingrule" => ENTERING_KING_VALUES.contains(&value.trim()),
            "parallelmode" => ["lazy", "rootsplit"].contains(&value.trim()),
            "searchfeatures" => {
                value.trim() == "default"
                    || value.split(',').map(str::trim).all(|f| {
                        [
                            "",
                            "none",
                            "reverse_futility",
                            "futility",
                            "late_move_pruning",
                            "razoring",
                            "log_lmr",
                            "see_pruning",
                            "qs_evasion_pruning",
                            "qs_safe_promotions",
                            "correction_history",
                        ]
                        .contains(&f)
                    })
            }
            _ => false,
        }
    }

    fn set_option_checked(&mut self, during_search: bool) {
        let op = if during_search {
            Op::Busy
        } else {
            Op::SetOption
        };
        let null_name = self.rng.chance(1, 200);
        let null_value = self.rng.chance(1, 200);
        let name = c_bytes(&self.gen_option_name());
        let mut value = c_bytes(&{
            let n = name.clone();
            self.gen_option_value(&n[..n.len() - 1])
        });
        let name_s = std::str::from_utf8(&name[..name.len() - 1]).ok();
        let mut value_s = std::str::from_utf8(&value[..value.len() - 1]).ok();
        // No huge table: a valid Hash value above 64 MiB becomes a small one.
        if let (Some(n), Some(v)) = (name_s, value_s) {
            let ln = n.to_ascii_lowercase();
            let valid = Self::option_model(n, v);
            let number: u64 = v.trim().parse().unwrap_or(1);
            let mut replace: Option<&'static str> = None;
            if (ln == "hash" || ln == "usi_hash") && valid {
                // Mostly 1 MiB (no reallocation at all): each resize costs about 1 ms/MiB.
                if number > 64 || (number > 1 && self.rng.chance(7, 8)) {
                    replace = Some("1");
                }
            }
            // No huge thread pool either: valid Threads values above 4 become 2.
            if ln == "threads" && valid && number > 4 {
                replace = Some("2");
            }
            if let Some(r) = replace {
                value = c_bytes(r.as_bytes());
                value_s = Some(r);
            }
        }
        let mut shown = name[..name.len() - 1].to_vec();
        shown.extend_from_slice(b" = ");
        shown.extend_from_slice(&value[..value.len() - 1]);
        self.note(op, &shown);
        let e = self.e();
        let np = if null_name {
            std::ptr::null()
        } else {
            c_ptr(&name)
        };
        let vp = if null_value {
            std::ptr::null()
        } else {
            c_ptr(&value)
        };
        let st = self.timed(op, || hayanagi_engine_set_option(e, np, vp));
        // NULL_ARG for a NULL string, INVALID_ARG for a bad one; with one of each, the
        // header does not say which wins.
        let bad_name = name_s.is_none();
        let bad_value = value_s.is_none();
        let expected: Vec<i32> = if null_name || null_value {
            let mut v = vec![HAYANAGI_NULL_ARG];
            if (!null_name && bad_name) || (!null_value && bad_value) {
                v.push(HAYANAGI_INVALID_ARG);
            }
            v
        } else {
            match (name_s, value_s) {
                (Some(n), Some(v)) if Self::option_model(n, v) => vec![HAYANAGI_OK],
                _ => vec![HAYANAGI_INVALID_ARG],
            }
        };
        let mut allowed = vec![HAYANAGI_OK, HAYANAGI_NULL_ARG, HAYANAGI_INVALID_ARG];
        if during_search {
            allowed.push(HAYANAGI_BUSY);
        }
        self.check_status(op, st, &allowed, &shown);
        let busy = during_search && st == HAYANAGI_BUSY;
        if !(expected.contains(&st) || busy || st == HAYANAGI_PANIC) {
            self.fail(
                "set_option status",
                format!(
                    "{} (null name {null_name}, null value {null_value}): status {}, \
                     expected one of {expected:?}",
                    show(&shown),
                    status_name(st),
                ),
            );
        }
        if !during_search && self.rng.chance(1, 8) {
            self.op_ready();
        }
    }

    fn op_ready(&mut self) {
        self.note(Op::Ready, b"");
        let e = self.e();
        let which = self.rng.below(4);
        let st = self.timed(Op::Ready, || match which {
            0 => hayanagi_engine_new_game(e),
            1 => hayanagi_engine_clear_hash(e),
            _ => hayanagi_engine_ready(e),
        });
        self.check_status(Op::Ready, st, &[HAYANAGI_OK], b"");
    }

    fn op_is_legal(&mut self, during_search: bool) {
        let legal = self.legal();
        let input = self.gen_move(&legal);
        let op = if during_search { Op::Busy } else { Op::IsLegal };
        self.note(op, &input);
        let c = c_bytes(&input);
        let text = &c[..c.len() - 1];
        let mut out: u8 = 0x5A;
        let e = self.e();
        let st = self.timed(op, || {
            hayanagi_engine_is_legal(e, c_ptr(&c), (&mut out as *mut u8).cast())
        });
        self.check_status(op, st, &[HAYANAGI_OK, HAYANAGI_INVALID_ARG], text);
        match std::str::from_utf8(text) {
            Err(_) => {
                if st != HAYANAGI_INVALID_ARG || out != 0x5A {
                    self.fail(
                        "is_legal on invalid UTF-8",
                        format!("{}: status {}, out {out:#x}", show(text), status_name(st)),
                    );
                }
            }
            Ok(s) => {
                let want = legal.binary_search_by(|m| m.as_str().cmp(s)).is_ok();
                if st != HAYANAGI_OK || out > 1 || (out == 1) != want {
                    self.fail(
                        "is_legal",
                        format!(
                            "{} in {}: status {}, out {out:#x}, legal_moves says {want}",
                            show(text),
                            self.cur_sfen,
                            status_name(st)
                        ),
                    );
                }
            }
        }
    }

    fn op_probe_tt(&mut self, given: Option<Vec<u8>>) {
        let input = if let Some(g) = given {
            g
        } else if !self.searched.is_empty() && self.rng.chance(1, 2) {
            let mut v = self.rng.pick(&self.searched).clone().into_bytes();
            if self.rng.chance(1, 3) {
                self.mutate(&mut v);
            }
            v
        } else {
            self.gen_position()
        };
        self.note(Op::ProbeTt, &input);
        let c = c_bytes(&input);
        let text = &c[..c.len() - 1];
        const N: usize = std::mem::size_of::<hayanagi_tt_probe>();
        let mut raw = std::mem::MaybeUninit::<hayanagi_tt_probe>::uninit();
        // SAFETY: writing bytes to our own storage.
        unsafe { std::ptr::write_bytes(raw.as_mut_ptr().cast::<u8>(), 0x5A, N) };
        let e = self.e();
        let out = raw.as_mut_ptr();
        let st = self.timed(Op::ProbeTt, || hayanagi_engine_probe_tt(e, c_ptr(&c), out));
        self.check_status(
            Op::ProbeTt,
            st,
            &[
                HAYANAGI_OK,
                HAYANAGI_INVALID_ARG,
                HAYANAGI_PARSE,
                HAYANAGI_ILLEGAL_MOVE,
            ],
            text,
        );
        let oracle = std::str::from_utf8(text)
            .ok()
            .map(|s| catch_unwind(|| Position::from_usi_position(s)));
        let (expected, pos) = match oracle {
            None => (HAYANAGI_INVALID_ARG, None),
            Some(Err(_)) => {
                self.fail(
                    "Position::from_usi_position panicked",
                    format!("input {}", show(text)),
                );
                return;
            }
            Some(Ok(Ok(p))) => (HAYANAGI_OK, Some(p)),
            Some(Ok(Err(PositionError::Sfen(_)))) => (HAYANAGI_PARSE, None),
            Some(Ok(Err(PositionError::Move { .. }))) => (HAYANAGI_ILLEGAL_MOVE, None),
        };
        if st != expected && st != HAYANAGI_PANIC {
            self.fail(
                "probe_tt status",
                format!(
                    "input {}: status {}, expected {}",
                    show(text),
                    status_name(st),
                    status_name(expected)
                ),
            );
        }
        if st != HAYANAGI_OK {
            // SAFETY: reading our own initialised bytes (the library must not have written).
            let bytes = unsafe { std::slice::from_raw_parts(raw.as_ptr().cast::<u8>(), N) };
            if bytes.iter().any(|&b| b != 0x5A) {
                self.fail(
                    "out written on failure",
                    format!("probe_tt wrote its out-param on {}", status_name(st)),
                );
            }
        } else {
            // SAFETY: on success the library wrote a whole struct.
            let p = unsafe { raw.assume_init() };
            let mv: Vec<u8> = p.move_usi.iter().map(|&c| c as u8).collect();
            let mv = match mv.iter().position(|&b| b == 0) {
                Some(n) => String::from_utf8_lossy(&mv[..n]).into_owned(),
                None => {
                    self.fail("probe_tt move_usi", format!("not NUL-terminated: {mv:?}"));
                    String::new()
                }
            };
            if p.found {
                self.stats.tt_hits += 1;
                let bad_kind =
                    p.score_kind != HAYANAGI_SCORE_CP && p.score_kind != HAYANAGI_SCORE_MATE;
                let bad_bound = !(HAYANAGI_BOUND_EXACT..=HAYANAGI_BOUND_UPPER).contains(&p.bound);
                let illegal = p.move_legal
                    && pos
                        .as_ref()
                        .is_some_and(|pos| !legal_usi(pos).contains(&mv));
                if bad_kind || bad_bound || illegal || (p.move_legal && mv.is_empty()) {
                    self.fail(
                        "probe_tt result",
                        format!("input {}: {p:?} (move {mv:?})", show(text)),
                    );
                }
            }
        }
        if self.rng.chance(1, 4) {
            let cur = self.cur_sfen.clone();
            self.expect_sfen("probe_tt changed the position", &cur, || {
                format!("input {}", show(text))
            });
        }
    }

    /// Call a buffer function with a random capacity and check the result against `full`.
    fn check_buffer(
        &mut self,
        op: Op,
        full: &str,
        f: &dyn Fn(*mut c_char, usize, *mut usize) -> i32,
    ) -> i32 {
        let need = full.len();
        let cap = match self.rng.below(10) {
            0 => 0,
            1 => 1,
            2 => need,
            3 => need + 1,
            4 => need.saturating_sub(1),
            5 => need + 2 + self.rng.below(64),
            _ => self.rng.below(need + 8),
        };
        let null_buf = cap == 0 && self.rng.chance(1, 2);
        const GUARD: usize = 16;
        let mut buf = vec![0xA5u8; cap + GUARD];
        let mut n = usize::MAX;
        self.note(op, format!("cap {cap}").as_bytes());
        let p = if null_buf {
            std::ptr::null_mut()
        } else {
            buf.as_mut_ptr().cast()
        };
        let st = self.timed(op, || f(p, cap, &mut n));
        if let Some(s) = self.stats.statuses[op as usize].get_mut(st as usize) {
            *s += 1;
        }
        let what = || {
            format!(
                "{} with cap {cap} (null buf {null_buf}), need {need}",
                op.name()
            )
        };
        if buf[cap..].iter().any(|&b| b != 0xA5) {
            self.fail("buffer overrun", format!("{}: wrote past cap", what()));
        }
        match st {
            HAYANAGI_OK => {
                if cap < need + 1 || n != need || buf[..need] != *full.as_bytes() || buf[need] != 0
                {
                    self.fail(
                        "buffer OK result",
                        format!(
                            "{}: out_len {n}, got {}",
                            what(),
                            show(&buf[..cap.min(need + 1)])
                        ),
                    );
                }
            }
            HAYANAGI_BUFFER_TOO_SMALL => {
                if cap > need || n != need || (cap > 0 && buf[0] != 0) {
                    self.fail(
                        "buffer TOO_SMALL result",
                        format!("{}: out_len {n}, first byte {:#x}", what(), buf[0]),
                    );
                }
            }
            other => self.fail(
                "buffer status",
                format!("{}: status {}", what(), status_name(other)),
            ),
        }
        st
    }

    fn op_buffers(&mut self) {
        let e = self.e();
        match self.rng.below(4) {
            0 => {
                let full = self.cur_sfen.clone();
                let st =
                    self.check_buffer(Op::Sfen, &full, &|b, c, n| hayanagi_engine_sfen(e, b, c, n));
                if st != HAYANAGI_OK {
                    self.check_error_message(Op::Sfen, st, b"");
                }
            }
            1 => {
                let full = self.legal().join(" ");
                let st = self.check_buffer(Op::LegalMoves, &full, &|b, c, n| {
                    hayanagi_engine_legal_moves(e, b, c, n)
                });
                if st != HAYANAGI_OK {
                    self.check_error_message(Op::LegalMoves, st, b"");
                }
            }
            2 => {
                let full = engine_error_of(e).unwrap_or_default();
                self.check_buffer(Op::EngineLastError, &full, &|b, c, n| {
                    hayanagi_engine_last_error(e, b, c, n)
                });
                // Reading the message must not change it.
                if engine_error_of(e).unwrap_or_default() != full {
                    self.fail("last_error changed by reading", format!("was {full:?}"));
                }
            }
            _ => {
                let full = thread_error().unwrap_or_default();
                self.check_buffer(Op::ThreadLastError, &full, &|b, c, n| {
                    hayanagi_last_error(b, c, n)
                });
            }
        }
    }

    /// A `searchmoves` string: legal moves, near-misses, garbage or not UTF-8.
    fn gen_searchmoves(&mut self, legal: &[String]) -> Vec<u8> {
        match self.rng.below(10) {
            0..=3 if !legal.is_empty() => {
                let k = 1 + self.rng.below(4);
                let words: Vec<&str> = (0..k).map(|_| self.rng.pick(legal).as_str()).collect();
                let sep = *self.rng.pick(&[" ", "  ", "\t", " \u{3000}"]);
                words.join(sep).into_bytes()
            }
            4..=5 => {
                let k = self.rng.below(4);
                let mut v = Vec::new();
                for _ in 0..k {
                    let m = self.gen_move(legal);
                    v.extend_from_slice(&m);
                    v.push(b' ');
                }
                v
            }
            6 => Vec::new(),
            7 if !legal.is_empty() => {
                let mut v = self.rng.pick(legal).clone().into_bytes();
                self.mutate(&mut v);
                v
            }
            8 if !legal.is_empty() && self.rng.chance(1, 10) => {
                // A long list: every legal move, several times.
                let mut s = String::new();
                while s.len() < 20_000 {
                    s.push_str(&legal.join(" "));
                    s.push(' ');
                }
                s.into_bytes()
            }
            _ => self.random_bytes(40, Some(MOVE_ALPHABET)),
        }
    }

    fn op_go(&mut self) {
        // Sometimes search a fresh valid position (with moves), not what fuzzing left.
        if self.rng.chance(1, 2) {
            let input = self.gen_valid_position();
            self.set_position_checked(&input, false);
        }
        let legal = self.legal();
        let sfen_at_go = self.cur_sfen.clone();
        let mut limits = std::mem::MaybeUninit::<hayanagi_limits>::uninit();
        assert_eq!(hayanagi_limits_init(limits.as_mut_ptr()), HAYANAGI_OK);
        // SAFETY: initialised by hayanagi_limits_init.
        let mut limits = unsafe { limits.assume_init() };
        limits.nodes = self.rng.range(1, 200);
        if self.rng.chance(1, 5) {
            limits.depth = self.rng.range(1, 4) as i32;
        }
        if self.rng.chance(1, 10) {
            limits.movetime_ms = self.rng.range(1, 20);
        }
        if self.rng.chance(1, 10) {
            limits.btime_ms = self.rng.range(0, 1000);
            limits.wtime_ms = self.rng.range(0, 1000);
            limits.byoyomi_ms = self.rng.range(0, 100);
        }
        limits.multipv = match self.rng.below(20) {
            0 => self.rng.range(33, 1000) as u32,
            1..=3 => self.rng.range(1, 32) as u32,
            _ => 0,
        };
        let infinite = self.rng.chance(1, 25);
        let ponder = !infinite && self.rng.chance(1, 25);
        limits.infinite = infinite;
        limits.ponder = ponder;
        let small_struct = self.rng.chance(1, 100);
        if small_struct {
            limits.struct_size = self.rng.below(std::mem::size_of::<hayanagi_limits>());
        }
        let sm = if self.rng.chance(1, 4) {
            None
        } else {
            Some(c_bytes(&self.gen_searchmoves(&legal)))
        };
        limits.searchmoves = sm.as_ref().map_or(std::ptr::null(), |v| c_ptr(v));
        let sm_text = sm.as_ref().map(|v| &v[..v.len() - 1]);

        // The status the header leads us to expect.
        let sm_words: Option<Vec<String>> = sm_text.and_then(|t| {
            std::str::from_utf8(t)
                .ok()
                .map(|s| s.split_whitespace().map(str::to_string).collect())
        });
        let sm_bad_utf8 = sm_text.is_some() && sm_words.is_none();
        let sm_illegal = sm_words
            .as_ref()
            .is_some_and(|w| w.iter().any(|m| legal.binary_search(m).is_err()));
        let mut acceptable = Vec::new();
        if small_struct || limits.multipv > 32 || sm_bad_utf8 {
            acceptable.push(HAYANAGI_INVALID_ARG);
        }
        if sm_illegal && !small_struct && !sm_bad_utf8 {
            acceptable.push(HAYANAGI_ILLEGAL_MOVE);
        }
        if acceptable.is_empty() {
            acceptable.push(HAYANAGI_OK);
        }

        lock(&self.rec.bestmoves).clear();
        lock(&self.rec.logs).clear();
        let shown = sm_text.map_or(b"<NULL>".to_vec(), <[u8]>::to_vec);
        self.note(Op::Go, &shown);
        let e = self.e();
        let lp: *const hayanagi_limits = &limits;
        let st = self.timed(Op::Go, || hayanagi_engine_go(e, lp));
        let describe = |st: i32| {
            format!(
                "go in {sfen_at_go} with nodes {} depth {} multipv {} infinite {infinite} \
                 ponder {ponder} struct_size {} searchmoves {}: status {}",
                limits.nodes,
                limits.depth,
                limits.multipv,
                limits.struct_size,
                show(&shown),
                status_name(st)
            )
        };
        self.check_status(
            Op::Go,
            st,
            &[HAYANAGI_OK, HAYANAGI_INVALID_ARG, HAYANAGI_ILLEGAL_MOVE],
            &shown,
        );
        if !acceptable.contains(&st) && st != HAYANAGI_PANIC {
            self.fail(
                "go status",
                format!("{}, expected one of {acceptable:?}", describe(st)),
            );
        }
        let mut started = u64::from(st == HAYANAGI_OK);

        // While it runs: calls that must answer BUSY (or succeed once it is over).
        if st == HAYANAGI_OK && self.rng.chance(1, 5) {
            match self.rng.below(5) {
                0 => {
                    let input = self.gen_position();
                    self.set_position_checked(&input, true);
                }
                1 => self.set_option_checked(true),
                2 => self.op_is_legal(true),
                3 => {
                    self.note(Op::Busy, b"go");
                    let st2 = hayanagi_engine_go(e, lp);
                    self.check_status(Op::Busy, st2, &[HAYANAGI_OK, HAYANAGI_BUSY], b"go");
                    if st2 == HAYANAGI_OK {
                        started += 1;
                    }
                }
                _ => {
                    self.note(Op::Busy, b"ready/clear_hash");
                    let st2 = if self.rng.chance(1, 2) {
                        hayanagi_engine_ready(e)
                    } else {
                        hayanagi_engine_clear_hash(e)
                    };
                    self.check_status(Op::Busy, st2, &[HAYANAGI_OK, HAYANAGI_BUSY], b"");
                }
            }
        }
        if infinite || ponder {
            if ponder && self.rng.chance(1, 2) {
                assert_eq!(hayanagi_engine_ponderhit(e), HAYANAGI_OK);
            } else {
                assert_eq!(hayanagi_engine_stop(e), HAYANAGI_OK);
            }
        } else if self.rng.chance(1, 10) {
            assert_eq!(hayanagi_engine_stop(e), HAYANAGI_OK);
        }
        let mut w = hayanagi_engine_wait(e, 10_000);
        if w == HAYANAGI_TIMEOUT {
            self.fail(
                "search hang",
                format!("{}: no best move after 10 s", describe(st)),
            );
            assert_eq!(hayanagi_engine_stop(e), HAYANAGI_OK);
            w = hayanagi_engine_wait(e, -1);
        }
        if w != HAYANAGI_OK {
            self.fail(
                "wait status",
                format!("{}: wait gave {}", describe(st), status_name(w)),
            );
        }
        let mut searching = true;
        assert_eq!(hayanagi_engine_is_searching(e, &mut searching), HAYANAGI_OK);
        if searching {
            self.fail("searching after wait", describe(st));
        }

        // Exactly one best move per successful go, legal in the searched position.
        let bests = lock(&self.rec.bestmoves).clone();
        let logs = lock(&self.rec.logs).clone();
        let bad = std::mem::take(&mut *lock(&self.rec.bad));
        self.stats.bestmoves += bests.len() as u64;
        if bests.len() as u64 != started {
            self.fail(
                "best move count",
                format!("{}: {} go OK, best moves {bests:?}", describe(st), started),
            );
        }
        for l in logs.iter().filter(|l| l.contains("panic")) {
            self.fail(
                "search thread panicked",
                format!("{}: log {l:?}", describe(st)),
            );
        }
        for b in bad {
            self.fail("info callback", format!("{}: {b}", describe(st)));
        }
        let allowed_moves: Vec<String> = match &sm_words {
            Some(w) if !w.is_empty() => w.clone(),
            _ => legal.clone(),
        };
        for (best, ponder_mv) in &bests {
            if best == "resign" {
                if !legal.is_empty() {
                    self.stats.resigns_with_moves += 1;
                }
                continue;
            }
            if best == "win" {
                continue;
            }
            if !allowed_moves.contains(best) {
                self.fail(
                    "illegal best move",
                    format!(
                        "{}: best move {best:?} not in {allowed_moves:?}",
                        describe(st)
                    ),
                );
                continue;
            }
            if let Some(p) = ponder_mv {
                // (An SFEN that does not parse back is reported as a round-trip failure.)
                let ok = Position::from_sfen(&sfen_at_go).map_or(true, |mut pos| {
                    pos.parse_usi_move(best).is_ok_and(|m| {
                        pos.do_move(m);
                        legal_usi(&pos).contains(p)
                    })
                });
                if !ok {
                    self.fail(
                        "illegal ponder move",
                        format!("{}: best {best:?} ponder {p:?}", describe(st)),
                    );
                }
            }
        }
        if st == HAYANAGI_OK {
            let searched = format!("sfen {sfen_at_go}");
            if self.searched.len() < 256 {
                self.searched.push(searched.clone());
            } else {
                let i = self.rng.below(256);
                self.searched[i] = searched.clone();
            }
            // The root was just stored: probe it (with the current position too).
            if self.rng.chance(1, 2) {
                self.op_probe_tt(Some(searched.into_bytes()));
            }
        }
        if self.events {
            self.drain_events(&bests);
        }
    }

    /// Poll every queued event with random capacities; the best moves must match.
    fn drain_events(&mut self, bests: &[(String, Option<String>)]) {
        let e = self.e();
        let mut texts = Vec::new();
        for _ in 0..100_000 {
            let mut ev = std::mem::MaybeUninit::<hayanagi_event>::uninit();
            // SAFETY: our own storage.
            unsafe {
                ev.as_mut_ptr()
                    .cast::<u8>()
                    .write_bytes(0x5A, std::mem::size_of::<hayanagi_event>())
            };
            let cap = if self.rng.chance(1, 3) {
                self.rng.below(64)
            } else {
                512
            };
            let mut buf = vec![0xA5u8; cap + 8];
            let mut n = usize::MAX;
            self.note(Op::PollEvent, format!("cap {cap}").as_bytes());
            let (evp, bp) = (ev.as_mut_ptr(), buf.as_mut_ptr().cast());
            let st = self.timed(Op::PollEvent, || {
                hayanagi_engine_poll_event(e, evp, bp, cap, &mut n)
            });
            self.check_status(
                Op::PollEvent,
                st,
                &[HAYANAGI_OK, HAYANAGI_BUFFER_TOO_SMALL],
                b"",
            );
            if buf[cap..].iter().any(|&b| b != 0xA5) {
                self.fail("buffer overrun", format!("poll_event wrote past cap {cap}"));
            }
            if st == HAYANAGI_BUFFER_TOO_SMALL {
                // SAFETY: reading our own initialised bytes.
                let kind = unsafe { std::ptr::addr_of!((*ev.as_ptr()).kind).read_unaligned() };
                if n == usize::MAX || n < cap || kind != 0x5A5A_5A5A {
                    self.fail(
                        "poll_event TOO_SMALL",
                        format!("cap {cap}: out_len {n}, out.kind {kind:#x}"),
                    );
                    break;
                }
                // Nothing was dequeued: the same event fits in exactly n + 1 bytes.
                let mut buf2 = vec![0u8; n + 1];
                let mut n2 = usize::MAX;
                let st2 = hayanagi_engine_poll_event(
                    e,
                    ev.as_mut_ptr(),
                    buf2.as_mut_ptr().cast(),
                    n + 1,
                    &mut n2,
                );
                if st2 != HAYANAGI_OK || n2 != n {
                    self.fail(
                        "poll_event retry",
                        format!("needed {n}, retry gave {} / {n2}", status_name(st2)),
                    );
                    break;
                }
                buf = buf2;
            } else if st != HAYANAGI_OK {
                break;
            }
            // SAFETY: written by the library on success.
            let ev = unsafe { ev.assume_init() };
            if ev.kind == HAYANAGI_EVENT_NONE {
                break;
            }
            let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            let text = String::from_utf8_lossy(&buf[..len]).into_owned();
            let ok = match ev.kind {
                HAYANAGI_EVENT_INFO => text.starts_with("info ") && ev.info.pv.is_null(),
                HAYANAGI_EVENT_BESTMOVE => text.starts_with("bestmove "),
                _ => false,
            };
            if !ok {
                self.fail("poll_event", format!("kind {} text {text:?}", ev.kind));
            }
            if ev.kind == HAYANAGI_EVENT_BESTMOVE {
                texts.push(text);
            }
        }
        let want: Vec<String> = bests
            .iter()
            .map(|(b, p)| match p {
                Some(p) => format!("bestmove {b} ponder {p}"),
                None => format!("bestmove {b}"),
            })
            .collect();
        // A search not polled before the next `go` has its best move dropped as stale:
        // the polled ones are the last of the callbacks', and the rest were counted.
        let mut stats = hayanagi_event_stats {
            struct_size: std::mem::size_of::<hayanagi_event_stats>(),
            queued: 0,
            capacity: 0,
            dropped_full: 0,
            dropped_stale: 0,
            dropped_stale_final: 0,
        };
        assert_eq!(hayanagi_engine_event_stats(e, &mut stats), HAYANAGI_OK);
        let stale = stats.dropped_stale_final
            - std::mem::replace(&mut self.stale_finals, stats.dropped_stale_final);
        let suffix = texts.len() <= want.len() && texts[..] == want[want.len() - texts.len()..];
        if !suffix || texts.len() as u64 + stale != want.len() as u64 {
            self.fail(
                "poll_event best moves",
                format!("events {texts:?} (+{stale} stale), callbacks {want:?}"),
            );
        }
    }

    fn step(&mut self) {
        let t = Instant::now();
        let k = match self.rng.below(1000) {
            0..=419 => {
                self.op_set_position();
                0
            }
            420..=619 => {
                self.op_is_legal(false);
                1
            }
            620..=719 => {
                self.set_option_checked(false);
                2
            }
            720..=789 => {
                self.op_probe_tt(None);
                3
            }
            790..=987 => {
                self.op_buffers();
                4
            }
            _ => {
                self.op_go();
                5
            }
        };
        self.stats.step_time[k] += t.elapsed();
    }
}

fn env_num(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

#[test]
fn fuzz_c_api() {
    quiet_panics();
    let seed = env_num("HAYANAGI_FUZZ_SEED", 0x4841_5941_4E41_4749);
    let budget = env_num("HAYANAGI_FUZZ_INPUTS", 1_000_000);
    let secs = env_num("HAYANAGI_FUZZ_SECS", 55);
    let start = Instant::now();
    let deadline = start + Duration::from_secs(secs);
    const WORKERS: u64 = 2;
    let done = Arc::new(AtomicBool::new(false));
    let progress: Vec<Arc<Progress>> = (0..WORKERS).map(|_| Arc::new(Progress::new())).collect();

    // Watchdog: a call that never returns is reported with its input, then we abort.
    let watchdog = {
        let done = done.clone();
        let progress = progress.clone();
        std::thread::spawn(move || {
            let mut last: Vec<u64> = vec![0; progress.len()];
            let mut stuck_since = vec![Instant::now(); progress.len()];
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                for (i, p) in progress.iter().enumerate() {
                    let t = p.ticks.load(Ordering::Relaxed);
                    if t != last[i] {
                        last[i] = t;
                        stuck_since[i] = Instant::now();
                    } else if stuck_since[i].elapsed() > Duration::from_secs(30) {
                        let l = lock(&p.last);
                        eprintln!(
                            "HANG: worker {i} stuck for 30 s in {} with input {}",
                            l.0,
                            show(&l.1)
                        );
                        std::process::abort();
                    }
                }
            }
        })
    };

    let handles: Vec<_> = (0..WORKERS)
        .map(|i| {
            let p = progress[i as usize].clone();
            std::thread::spawn(move || {
                let mut f = Fuzzer::new(seed.wrapping_add(i), i == 1, p);
                let share = budget / WORKERS;
                while f.stats.inputs() < share && Instant::now() < deadline {
                    f.step();
                }
                f.stats.infos = f.rec.infos.load(Ordering::Relaxed);
                let Fuzzer {
                    stats,
                    mut fails,
                    eng,
                    rec,
                    ..
                } = f;
                drop(eng);
                if Arc::strong_count(&rec) != 1 {
                    fails.add(
                        "user data not released",
                        format!("{} references left after free", Arc::strong_count(&rec) - 1),
                    );
                }
                (stats, fails)
            })
        })
        .collect();
    let mut stats = Stats::default();
    let mut fails = Failures::default();
    for h in handles {
        let (s, f) = h.join().expect("worker panicked");
        stats.add(&s);
        fails.merge(f);
    }
    done.store(true, Ordering::Relaxed);
    watchdog.join().expect("watchdog");
    let elapsed = start.elapsed();

    println!(
        "ffi_fuzz: seed {seed:#x}, {} fuzzed inputs ({} checks) in {:.1} s",
        stats.inputs(),
        stats.checks,
        elapsed.as_secs_f64()
    );
    for op in OPS {
        println!(
            "  {:<34} {:>9} inputs, slowest {:?}",
            op.name(),
            stats.count[op as usize],
            stats.max_time[op as usize]
        );
    }
    for op in OPS {
        let seen: Vec<String> = stats.statuses[op as usize]
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(s, n)| format!("{s}:{n}"))
            .collect();
        println!("  statuses of {:<34} {}", op.name(), seen.join(" "));
    }
    let kinds = [
        "set_position",
        "is_legal",
        "set_option",
        "probe_tt",
        "buffers",
        "go",
    ];
    let times: Vec<String> = kinds
        .iter()
        .zip(stats.step_time.iter())
        .map(|(k, t)| format!("{k} {:.1} s", t.as_secs_f64()))
        .collect();
    println!(
        "  time per kind of step (both workers): {}",
        times.join(", ")
    );
    println!(
        "  best moves {}, info reports {}, TT hits {}, resign with legal moves {}",
        stats.bestmoves, stats.infos, stats.tt_hits, stats.resigns_with_moves
    );
    if fails.total > 0 {
        let mut msg = format!("{} property violations; first of each kind:\n", fails.total);
        for (k, d) in &fails.list {
            msg.push_str(&format!("[{k}] {d}\n"));
        }
        panic!("{msg}");
    }
    assert!(
        stats.inputs() >= budget || elapsed >= Duration::from_secs(secs),
        "ran out of inputs early"
    );
}

// ----- targeted cases ----------------------------------------------------------------------

fn sfen(e: &Engine) -> String {
    sfen_of(e.0).expect("sfen")
}

fn err_msg(e: &Engine) -> String {
    engine_error_of(e.0).expect("last error")
}

/// A non-OK status with a non-empty message on the engine and the thread.
fn assert_failed(e: &Engine, st: i32, want: i32, what: &str) {
    assert_eq!(st, want, "{what}: status {}", status_name(st));
    assert!(!err_msg(e).is_empty(), "{what}: empty engine message");
    assert!(
        !thread_error().unwrap().is_empty(),
        "{what}: empty thread message"
    );
}

#[test]
fn null_pointers() {
    let null_e: *mut hayanagi_engine = std::ptr::null_mut();
    let np: *const c_char = std::ptr::null();
    let s = c_bytes(b"startpos");
    let mut b = false;
    let mut buf = [0 as c_char; 64];
    let mut n = 0usize;
    let mut probe = std::mem::MaybeUninit::<hayanagi_tt_probe>::uninit();
    let mut limits = std::mem::MaybeUninit::<hayanagi_limits>::uninit();
    assert_eq!(hayanagi_limits_init(limits.as_mut_ptr()), HAYANAGI_OK);
    // SAFETY: initialised just above.
    let limits = unsafe { limits.assume_init() };

    // A NULL engine handle: NULL_ARG everywhere, with a thread-level message.
    let calls: Vec<(&str, i32)> = vec![
        (
            "set_position",
            hayanagi_engine_set_position(null_e, c_ptr(&s)),
        ),
        (
            "set_option",
            hayanagi_engine_set_option(null_e, c_ptr(&s), c_ptr(&s)),
        ),
        ("ready", hayanagi_engine_ready(null_e)),
        ("new_game", hayanagi_engine_new_game(null_e)),
        (
            "is_legal",
            hayanagi_engine_is_legal(null_e, c_ptr(&s), &mut b),
        ),
        (
            "probe_tt",
            hayanagi_engine_probe_tt(null_e, c_ptr(&s), probe.as_mut_ptr()),
        ),
        ("go", hayanagi_engine_go(null_e, &limits)),
        ("wait", hayanagi_engine_wait(null_e, 0)),
        ("stop", hayanagi_engine_stop(null_e)),
        (
            "sfen",
            hayanagi_engine_sfen(null_e, buf.as_mut_ptr(), buf.len(), &mut n),
        ),
        (
            "legal_moves",
            hayanagi_engine_legal_moves(null_e, buf.as_mut_ptr(), buf.len(), &mut n),
        ),
        (
            "last_error",
            hayanagi_engine_last_error(null_e, buf.as_mut_ptr(), buf.len(), &mut n),
        ),
    ];
    for (what, st) in calls {
        assert_eq!(st, HAYANAGI_NULL_ARG, "{what} with a NULL engine");
    }
    assert!(!thread_error().unwrap().is_empty());
    assert_eq!(hayanagi_engine_free(null_e), HAYANAGI_OK);
    assert_eq!(
        hayanagi_limits_init(std::ptr::null_mut()),
        HAYANAGI_NULL_ARG
    );
    assert_eq!(
        hayanagi_engine_new(std::ptr::null(), std::ptr::null_mut()),
        HAYANAGI_NULL_ARG
    );

    let e = Engine::new();
    let start = sfen(&e);
    let other = c_bytes(b"startpos moves 7g7f");
    assert_eq!(
        hayanagi_engine_set_position(e.0, c_ptr(&other)),
        HAYANAGI_OK
    );
    let before = sfen(&e);
    assert_ne!(before, start);

    // NULL string arguments.
    let st = hayanagi_engine_set_position(e.0, np);
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "set_position(NULL)");
    assert_eq!(sfen(&e), before, "NULL position changed the position");
    let v = c_bytes(b"8");
    let st = hayanagi_engine_set_option(e.0, np, c_ptr(&v));
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "set_option(NULL name)");
    let name = c_bytes(b"Hash");
    let st = hayanagi_engine_set_option(e.0, c_ptr(&name), np);
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "set_option(NULL value)");
    let st = hayanagi_engine_set_option(e.0, np, np);
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "set_option(NULL, NULL)");
    let mut out: u8 = 0x5A;
    let st = hayanagi_engine_is_legal(e.0, np, (&mut out as *mut u8).cast());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "is_legal(NULL move)");
    assert_eq!(out, 0x5A, "is_legal wrote its out-param on failure");

    // NULL out-parameters.
    let mv = c_bytes(b"3c3d");
    let st = hayanagi_engine_is_legal(e.0, c_ptr(&mv), std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "is_legal(NULL out)");
    let st = hayanagi_engine_probe_tt(e.0, c_ptr(&s), std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "probe_tt(NULL out)");
    let st = hayanagi_engine_probe_tt(e.0, np, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "probe_tt(NULL, NULL out)");
    let st = hayanagi_engine_is_searching(e.0, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "is_searching(NULL out)");
    let st = hayanagi_engine_set_table(e.0, std::ptr::null());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "set_table(NULL)");
    let st = hayanagi_engine_probe_tt_key(e.0, 0, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "probe_tt_key(NULL out)");
    let st = hayanagi_engine_hashfull(e.0, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "hashfull(NULL out)");
    let st = hayanagi_engine_evaluate(e.0, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "evaluate(NULL out)");
    let st = hayanagi_engine_perft(e.0, 1, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "perft(NULL out)");
    let mut state = 0i32;
    let st = hayanagi_engine_game_state(e.0, std::ptr::null_mut(), &mut state);
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "game_state(NULL state)");
    let st = hayanagi_engine_game_state(e.0, &mut state, std::ptr::null_mut());
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "game_state(NULL winner)");
    assert_eq!(hayanagi_engine_enable_events(e.0, true), HAYANAGI_OK);
    let mut small = [0 as c_char; 8];
    let mut n = 0usize;
    let st = hayanagi_engine_poll_event(e.0, std::ptr::null_mut(), small.as_mut_ptr(), 8, &mut n);
    assert_failed(&e, st, HAYANAGI_NULL_ARG, "poll_event(NULL out)");
    assert_eq!(hayanagi_engine_enable_events(e.0, false), HAYANAGI_OK);
    assert_eq!(
        hayanagi_table_new(1, std::ptr::null_mut()),
        HAYANAGI_NULL_ARG,
        "table_new(NULL out)"
    );
    assert_eq!(hayanagi_table_free(std::ptr::null_mut()), HAYANAGI_OK);

    // probe_tt with a NULL position probes the current one.
    assert_eq!(
        hayanagi_engine_probe_tt(e.0, np, probe.as_mut_ptr()),
        HAYANAGI_OK
    );

    // NULL buffers: with cap 0 a size query, with cap > 0 an error; NULL out_len is fine.
    type BufFn<'a> = Box<dyn Fn(*mut c_char, usize, *mut usize) -> i32 + 'a>;
    let ep = e.0;
    let fns: Vec<(&str, BufFn)> = vec![
        (
            "sfen",
            Box::new(move |b: *mut c_char, c: usize, n: *mut usize| {
                hayanagi_engine_sfen(ep, b, c, n)
            }),
        ),
        (
            "legal_moves",
            Box::new(move |b: *mut c_char, c: usize, n: *mut usize| {
                hayanagi_engine_legal_moves(ep, b, c, n)
            }),
        ),
        (
            "last_error",
            Box::new(move |b: *mut c_char, c: usize, n: *mut usize| {
                hayanagi_engine_last_error(ep, b, c, n)
            }),
        ),
        (
            "hayanagi_last_error",
            Box::new(|b: *mut c_char, c: usize, n: *mut usize| hayanagi_last_error(b, c, n)),
        ),
    ];
    for (what, f) in &fns {
        let full = read_full(f).unwrap();
        let mut n = usize::MAX;
        assert_eq!(
            f(std::ptr::null_mut(), 0, &mut n),
            HAYANAGI_BUFFER_TOO_SMALL,
            "{what}: NULL buffer, cap 0"
        );
        assert_eq!(n, full.len(), "{what}: size query");
        let mut n = usize::MAX;
        let st = f(std::ptr::null_mut(), 16, &mut n);
        assert_eq!(st, HAYANAGI_NULL_ARG, "{what}: NULL buffer, cap 16");
        let mut big = vec![0xA5u8; full.len() + 1];
        let st = f(big.as_mut_ptr().cast(), big.len(), std::ptr::null_mut());
        assert!(
            st == HAYANAGI_OK || st == HAYANAGI_NULL_ARG,
            "{what}: NULL out_len gave {}",
            status_name(st)
        );
        if st == HAYANAGI_OK {
            assert_eq!(&big[..full.len()], full.as_bytes());
            assert_eq!(big[full.len()], 0);
        }
        let st = f(std::ptr::null_mut(), 0, std::ptr::null_mut());
        assert_eq!(st, HAYANAGI_BUFFER_TOO_SMALL, "{what}: all NULL");
    }

    // go with NULL limits is an infinite search; stop ends it with one best move.
    let rec = Arc::new(Recorder::default());
    e.attach(&rec);
    assert_eq!(hayanagi_engine_go(e.0, std::ptr::null()), HAYANAGI_OK);
    let mut searching = false;
    assert_eq!(
        hayanagi_engine_is_searching(e.0, &mut searching),
        HAYANAGI_OK
    );
    assert_eq!(hayanagi_engine_stop(e.0), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_wait(e.0, 10_000), HAYANAGI_OK);
    assert_eq!(lock(&rec.bestmoves).len(), 1);
    // searchmoves NULL inside limits is "all moves".
    let mut l = limits;
    l.nodes = 50;
    l.searchmoves = std::ptr::null();
    assert_eq!(hayanagi_engine_go(e.0, &l), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_wait(e.0, 10_000), HAYANAGI_OK);
    assert_eq!(lock(&rec.bestmoves).len(), 2);
    assert_eq!(sfen(&e), before);
    drop(e);
    assert_eq!(Arc::strong_count(&rec), 1, "user data not released by free");
}

#[test]
fn invalid_utf8_in_the_middle() {
    let e = Engine::new();
    let start = c_bytes(b"startpos moves 7g7f 3c3d");
    assert_eq!(
        hayanagi_engine_set_position(e.0, c_ptr(&start)),
        HAYANAGI_OK
    );
    let before = sfen(&e);
    for bad in INVALID_UTF8 {
        let mut pos = b"startpos moves 2g2f ".to_vec();
        pos.extend_from_slice(bad);
        pos.extend_from_slice(b" 8c8d");
        let c = c_bytes(&pos);
        let st = hayanagi_engine_set_position(e.0, c_ptr(&c));
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, &show(&pos));
        assert!(err_msg(&e).contains("UTF-8"), "{}", err_msg(&e));
        assert_eq!(sfen(&e), before, "{} changed the position", show(&pos));

        // Inside an SFEN.
        let mut s = b"sfen lnsgkgsnl/1r5b1/ppppp".to_vec();
        s.extend_from_slice(bad);
        s.extend_from_slice(b"pppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let c = c_bytes(&s);
        let st = hayanagi_engine_set_position(e.0, c_ptr(&c));
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, &show(&s));
        assert_eq!(sfen(&e), before);

        let mut probe = std::mem::MaybeUninit::<hayanagi_tt_probe>::uninit();
        let st = hayanagi_engine_probe_tt(e.0, c_ptr(&c), probe.as_mut_ptr());
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, "probe_tt");

        let mut mv = b"2g".to_vec();
        mv.extend_from_slice(bad);
        mv.extend_from_slice(b"2f");
        let c = c_bytes(&mv);
        let mut out = 0x5Au8;
        let st = hayanagi_engine_is_legal(e.0, c_ptr(&c), (&mut out as *mut u8).cast());
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, "is_legal");
        assert_eq!(out, 0x5A);

        let mut name = b"US".to_vec();
        name.extend_from_slice(bad);
        name.extend_from_slice(b"I_Hash");
        let cn = c_bytes(&name);
        let cv = c_bytes(b"8");
        let st = hayanagi_engine_set_option(e.0, c_ptr(&cn), c_ptr(&cv));
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, "set_option name");
        let mut value = b"1".to_vec();
        value.extend_from_slice(bad);
        value.extend_from_slice(b"6");
        let cn = c_bytes(b"Hash");
        let cv = c_bytes(&value);
        let st = hayanagi_engine_set_option(e.0, c_ptr(&cn), c_ptr(&cv));
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, "set_option value");

        let mut sm = b"2g2f ".to_vec();
        sm.extend_from_slice(bad);
        sm.extend_from_slice(b" 7g7f");
        let csm = c_bytes(&sm);
        let mut l = std::mem::MaybeUninit::<hayanagi_limits>::uninit();
        assert_eq!(hayanagi_limits_init(l.as_mut_ptr()), HAYANAGI_OK);
        // SAFETY: initialised just above.
        let mut l = unsafe { l.assume_init() };
        l.nodes = 10;
        l.searchmoves = c_ptr(&csm);
        let st = hayanagi_engine_go(e.0, &l);
        assert_failed(&e, st, HAYANAGI_INVALID_ARG, "go searchmoves");
        let mut searching = true;
        assert_eq!(
            hayanagi_engine_is_searching(e.0, &mut searching),
            HAYANAGI_OK
        );
        assert!(!searching);
    }

    // An interior NUL ends the C string: what follows is never seen.
    let c = b"startpos moves 7g7f\0 garbage \xff\0";
    assert_eq!(hayanagi_engine_set_position(e.0, c_ptr(c)), HAYANAGI_OK);
    let c2 = c_bytes(b"startpos moves 7g7f");
    let want = Engine::new();
    assert_eq!(
        hayanagi_engine_set_position(want.0, c_ptr(&c2)),
        HAYANAGI_OK
    );
    assert_eq!(sfen(&e), sfen(&want));
}

#[test]
fn strings_of_100_kb() {
    let e = Engine::new();
    let timed = |what: &str, f: &mut dyn FnMut() -> i32| {
        let t = Instant::now();
        let st = f();
        let dt = t.elapsed();
        println!("100 KB {what}: {} in {dt:?}", status_name(st));
        assert!(dt < Duration::from_secs(10), "{what} took {dt:?}");
        assert_ne!(st, HAYANAGI_PANIC, "{what} panicked");
        st
    };

    // 20,000 legal moves (sennichite is not illegal): accepted, round-trips.
    let mut s = String::from("startpos moves");
    while s.len() < 100_000 {
        s.push_str(" 2h3h 8b7b 3h2h 7b8b");
    }
    let moves = (s.len() - "startpos moves".len()) / 5;
    let c = c_bytes(s.as_bytes());
    let st = timed("legal shuffle", &mut || {
        hayanagi_engine_set_position(e.0, c_ptr(&c))
    });
    assert_eq!(st, HAYANAGI_OK);
    let after = sfen(&e);
    assert!(after.starts_with("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - "));
    assert!(after.ends_with(&format!(" {}", moves + 1)), "{after}");
    let back = c_bytes(format!("sfen {after}").as_bytes());
    assert_eq!(hayanagi_engine_set_position(e.0, c_ptr(&back)), HAYANAGI_OK);
    assert_eq!(sfen(&e), after);
    assert_eq!(hayanagi_engine_set_position(e.0, c_ptr(&c)), HAYANAGI_OK);

    // A short search on that long history.
    let mut l = std::mem::MaybeUninit::<hayanagi_limits>::uninit();
    assert_eq!(hayanagi_limits_init(l.as_mut_ptr()), HAYANAGI_OK);
    // SAFETY: initialised just above.
    let mut l = unsafe { l.assume_init() };
    l.nodes = 200;
    assert_eq!(hayanagi_engine_go(e.0, &l), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_wait(e.0, 10_000), HAYANAGI_OK);

    // The same with a bad last move: ILLEGAL_MOVE naming index 20000, position kept.
    let kept = sfen(&e);
    let bad = c_bytes(format!("{s} 5a5b").as_bytes());
    let st = timed("bad last move", &mut || {
        hayanagi_engine_set_position(e.0, c_ptr(&bad))
    });
    assert_failed(&e, st, HAYANAGI_ILLEGAL_MOVE, "bad last move");
    assert!(
        err_msg(&e).starts_with(&format!("move {moves} (0-based)")),
        "{}",
        err_msg(&e)
    );
    assert_eq!(sfen(&e), kept);

    // Garbage of every kind.
    let mut rng = Rng::new(7);
    let inputs: Vec<Vec<u8>> = vec![
        vec![b' '; 100_000],
        vec![b'9'; 100_000],
        vec![b'+'; 100_000],
        [b"sfen ".as_slice(), &vec![b'/'; 100_000]].concat(),
        [b"sfen ".as_slice(), &vec![b'1'; 100_000], b" b - 1"].concat(),
        [STARTPOS.as_bytes(), b" ", &vec![b'1'; 100_000]].concat(),
        [
            b"sfen 4k4/9/9/9/9/9/9/9/4K4 b ".as_slice(),
            &vec![b'P'; 100_000],
        ]
        .concat(),
        [b"startpos moves ".as_slice(), &vec![b'x'; 100_000]].concat(),
        (0..100_000)
            .map(|_| SFEN_ALPHABET[rng.below(SFEN_ALPHABET.len())])
            .collect(),
        (0..100_000).map(|_| (rng.next() as u8).max(1)).collect(),
        "歩".repeat(34_000).into_bytes(),
        [b"startpos ".as_slice(), &b"moves ".repeat(20_000)].concat(),
    ];
    for input in &inputs {
        let c = c_bytes(input);
        let st = timed(&show(&input[..20]), &mut || {
            hayanagi_engine_set_position(e.0, c_ptr(&c))
        });
        assert!(
            [HAYANAGI_INVALID_ARG, HAYANAGI_PARSE, HAYANAGI_ILLEGAL_MOVE].contains(&st),
            "{}: {}",
            show(&input[..40]),
            status_name(st)
        );
        assert!(!err_msg(&e).is_empty());
        assert_eq!(
            sfen(&e),
            kept,
            "{} changed the position",
            show(&input[..40])
        );

        let mut out = 0x5Au8;
        let st = timed("is_legal", &mut || {
            hayanagi_engine_is_legal(e.0, c_ptr(&c), (&mut out as *mut u8).cast())
        });
        assert!((st == HAYANAGI_OK && out == 0) || (st == HAYANAGI_INVALID_ARG && out == 0x5A));

        let mut probe = std::mem::MaybeUninit::<hayanagi_tt_probe>::uninit();
        let st = timed("probe_tt", &mut || {
            hayanagi_engine_probe_tt(e.0, c_ptr(&c), probe.as_mut_ptr())
        });
        assert!([HAYANAGI_INVALID_ARG, HAYANAGI_PARSE, HAYANAGI_ILLEGAL_MOVE].contains(&st));

        let name = c_bytes(b"MultiPV");
        let st = timed("set_option value", &mut || {
            hayanagi_engine_set_option(e.0, c_ptr(&name), c_ptr(&c))
        });
        assert_eq!(st, HAYANAGI_INVALID_ARG);
        let v = c_bytes(b"1");
        let st = timed("set_option name", &mut || {
            hayanagi_engine_set_option(e.0, c_ptr(&c), c_ptr(&v))
        });
        assert_eq!(st, HAYANAGI_INVALID_ARG);
    }

    // searchmoves of 100 KB: every legal move, many times over (all legal: OK).
    let legal = read_full(|b, c, n| hayanagi_engine_legal_moves(e.0, b, c, n)).unwrap();
    let mut sm = String::new();
    while sm.len() < 100_000 {
        sm.push_str(&legal);
        sm.push(' ');
    }
    let csm = c_bytes(sm.as_bytes());
    l.searchmoves = c_ptr(&csm);
    let st = timed("searchmoves", &mut || hayanagi_engine_go(e.0, &l));
    assert_eq!(st, HAYANAGI_OK);
    assert_eq!(hayanagi_engine_wait(e.0, 10_000), HAYANAGI_OK);
    let csm = c_bytes(format!("{sm} 5a5b").as_bytes());
    l.searchmoves = c_ptr(&csm);
    let st = timed("bad searchmoves", &mut || hayanagi_engine_go(e.0, &l));
    assert_failed(&e, st, HAYANAGI_ILLEGAL_MOVE, "bad searchmoves");

    // A long error message still comes out whole through a small buffer first.
    let huge = c_bytes(&vec![b'Z'; 100_000]);
    let v = c_bytes(b"1");
    assert_eq!(
        hayanagi_engine_set_option(e.0, c_ptr(&huge), c_ptr(&v)),
        HAYANAGI_INVALID_ARG
    );
    let mut small = [0 as c_char; 8];
    let mut n = 0usize;
    assert_eq!(
        hayanagi_engine_last_error(e.0, small.as_mut_ptr(), small.len(), &mut n),
        HAYANAGI_BUFFER_TOO_SMALL
    );
    let msg = err_msg(&e);
    assert_eq!(n, msg.len());
    assert!(msg.len() > 100_000);
}

/// Found by `fuzz_c_api`: a move number near `u32::MAX` plus moves. The position must either
/// be rejected or report an SFEN that parses back (not a wrapped-around move number 0), and
/// nothing may panic (with overflow checks, as in debug builds, `Position::move_number`
/// overflows).
#[test]
fn move_number_near_u32_max_round_trips() {
    let e = Engine::new();
    for input in [
        "sfen 4k4/9/9/9/9/9/9/9/4K4 b - 4294967295 moves 5i5h",
        "sfen 4k4/9/9/9/9/9/9/9/4K4 w - 4294967294 moves 5a4b 5i4h",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 4294967295 moves 7g7f",
    ] {
        // A bad move (from an empty square) after the overflow: ILLEGAL_MOVE (its message
        // shows the SFEN).
        let bad = c_bytes(format!("{input} 5e5d").as_bytes());
        let st = hayanagi_engine_set_position(e.0, c_ptr(&bad));
        assert_eq!(
            st,
            HAYANAGI_ILLEGAL_MOVE,
            "{input} 5e5d: {}",
            thread_error().unwrap()
        );

        let c = c_bytes(input.as_bytes());
        let st = hayanagi_engine_set_position(e.0, c_ptr(&c));
        assert_ne!(st, HAYANAGI_PANIC, "{input}: {}", thread_error().unwrap());
        if st != HAYANAGI_OK {
            continue;
        }
        let reported = match sfen_of(e.0) {
            Ok(s) => s,
            Err(m) => panic!(
                "{input:?} was accepted, then hayanagi_engine_sfen failed: {m}: {}",
                thread_error().unwrap()
            ),
        };
        let back = c_bytes(format!("sfen {reported}").as_bytes());
        let st = hayanagi_engine_set_position(e.0, c_ptr(&back));
        assert_eq!(
            st,
            HAYANAGI_OK,
            "{input:?} was accepted and reports {reported:?}, which does not parse back: {}",
            err_msg(&e)
        );
        assert_eq!(sfen(&e), reported);
    }
}

// ----- two threads on one engine ---------------------------------------------------------

/// What the callbacks of the shared engine saw.
#[derive(Default)]
struct SharedRecord {
    infos: AtomicU64,
    bestmoves: AtomicU64,
    mates: AtomicU64,
    usi_bestmoves: AtomicU64,
    usi_checkmates: AtomicU64,
    /// `info string error: go: ...` and `... go mate: ...` lines: USI searches not started.
    usi_go_refused: AtomicU64,
    usi_mate_refused: AtomicU64,
    bad: Mutex<Vec<String>>,
}

unsafe extern "C" fn shared_info(ud: *mut c_void, info: *const hayanagi_info, line: *const c_char) {
    // SAFETY: `ud` is the test's `SharedRecord`, alive until the engine is freed.
    let rec = unsafe { &*(ud as *const SharedRecord) };
    rec.infos.fetch_add(1, Ordering::Relaxed);
    // SAFETY: valid for the duration of the call.
    let line = unsafe { owned(line) };
    // SAFETY: non-null checked first; valid during the call.
    let pv_ok = !info.is_null() && !unsafe { (*info).pv }.is_null();
    if !pv_ok || !line.as_deref().is_some_and(|l| l.starts_with("info ")) {
        lock(&rec.bad).push(format!("bad info callback: {line:?}"));
    }
}

unsafe extern "C" fn shared_bestmove(ud: *mut c_void, best: *const c_char, _p: *const c_char) {
    // SAFETY: as in `shared_info`.
    let rec = unsafe { &*(ud as *const SharedRecord) };
    rec.bestmoves.fetch_add(1, Ordering::Relaxed);
    if best.is_null() {
        lock(&rec.bad).push("best-move callback without a move".into());
    }
}

unsafe extern "C" fn shared_mate(
    ud: *mut c_void,
    r: *const hayanagi_mate_result,
    _m: *const c_char,
) {
    // SAFETY: as in `shared_info`.
    let rec = unsafe { &*(ud as *const SharedRecord) };
    rec.mates.fetch_add(1, Ordering::Relaxed);
    // SAFETY: non-null checked first; valid during the call.
    let kind = if r.is_null() {
        -1
    } else {
        unsafe { (*r).kind }
    };
    if ![
        HAYANAGI_MATE_FOUND,
        HAYANAGI_MATE_NONE,
        HAYANAGI_MATE_TIMEOUT,
    ]
    .contains(&kind)
    {
        lock(&rec.bad).push(format!("mate callback with kind {kind}"));
    }
}

unsafe extern "C" fn shared_usi(ud: *mut c_void, line: *const c_char) {
    // SAFETY: as in `shared_info`.
    let rec = unsafe { &*(ud as *const SharedRecord) };
    // SAFETY: valid for the duration of the call.
    let line = unsafe { owned(line) }.unwrap_or_default();
    if line.starts_with("bestmove ") {
        rec.usi_bestmoves.fetch_add(1, Ordering::Relaxed);
    } else if line.starts_with("checkmate ") {
        rec.usi_checkmates.fetch_add(1, Ordering::Relaxed);
    } else if line.starts_with("info string error: go mate: ") {
        rec.usi_mate_refused.fetch_add(1, Ordering::Relaxed);
    } else if line.starts_with("info string error: go: ") {
        rec.usi_go_refused.fetch_add(1, Ordering::Relaxed);
    }
}

/// What one thread did to the shared engine.
#[derive(Default)]
struct SharedTally {
    calls: u64,
    gos: u64,
    go_mates: u64,
    usi_gos: u64,
    usi_go_mates: u64,
    polled_bestmoves: u64,
    polled_mates: u64,
    problems: Vec<String>,
}

struct SharedEngine(*mut hayanagi_engine);
// SAFETY: the C API makes every call on one handle safe from any thread.
unsafe impl Send for SharedEngine {}
// SAFETY: as above.
unsafe impl Sync for SharedEngine {}

const SHARED_POSITIONS: [&[u8]; 5] = [
    b"startpos\0",
    b"startpos moves 7g7f 3c3d 8h2b+\0",
    b"sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1\0",
    b"sfen ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42\0",
    b"sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1\0",
];

/// One thread's random walk over the calls that interleave: searches and mate searches
/// (C and USI), stop, wait, the event queue, the USI channel, position, options, ready,
/// new game, last_mate. Every status must be one the header allows at that moment.
fn shared_worker(e: &SharedEngine, seed: u64, deadline: Instant, ticks: &AtomicU64) -> SharedTally {
    let e = e.0;
    let mut rng = Rng::new(seed);
    let mut t = SharedTally::default();
    let check = |t: &mut SharedTally, what: &str, st: i32, allowed: &[i32]| {
        if !allowed.contains(&st) {
            t.problems
                .push(format!("{what} returned {}", status_name(st)));
        }
    };
    let mut buf = vec![0u8; 512];
    while Instant::now() < deadline {
        t.calls += 1;
        ticks.fetch_add(1, Ordering::Relaxed);
        match rng.below(14) {
            0 | 1 => {
                let mut l = std::mem::MaybeUninit::<hayanagi_limits>::uninit();
                assert_eq!(hayanagi_limits_init(l.as_mut_ptr()), HAYANAGI_OK);
                // SAFETY: initialised by hayanagi_limits_init.
                let mut l = unsafe { l.assume_init() };
                l.nodes = rng.range(1, 3000);
                let st = hayanagi_engine_go(e, &l);
                check(&mut t, "go", st, &[HAYANAGI_OK, HAYANAGI_BUSY]);
                t.gos += (st == HAYANAGI_OK) as u64;
            }
            2 => {
                let flags = if rng.chance(1, 10) {
                    2
                } else {
                    rng.below(2) as u32
                };
                let st =
                    hayanagi_engine_go_mate(e, rng.range(-1, 30), rng.below(20_000) as u64, flags);
                let allowed: &[i32] = if flags > 1 {
                    &[HAYANAGI_INVALID_ARG, HAYANAGI_BUSY]
                } else {
                    &[HAYANAGI_OK, HAYANAGI_BUSY]
                };
                check(&mut t, "go_mate", st, allowed);
                t.go_mates += (st == HAYANAGI_OK) as u64;
            }
            3 => check(&mut t, "stop", hayanagi_engine_stop(e), &[HAYANAGI_OK]),
            4 => {
                let st = hayanagi_engine_wait(e, rng.range(0, 20));
                check(&mut t, "wait", st, &[HAYANAGI_OK, HAYANAGI_TIMEOUT]);
            }
            5 | 6 => {
                let mut ev = std::mem::MaybeUninit::<hayanagi_event>::uninit();
                let cap = if rng.chance(1, 8) {
                    rng.below(8)
                } else {
                    buf.len()
                };
                let mut len = usize::MAX;
                let st = hayanagi_engine_poll_event(
                    e,
                    ev.as_mut_ptr(),
                    buf.as_mut_ptr().cast(),
                    cap,
                    &mut len,
                );
                check(
                    &mut t,
                    "poll_event",
                    st,
                    &[HAYANAGI_OK, HAYANAGI_BUFFER_TOO_SMALL],
                );
                if len == usize::MAX {
                    t.problems.push("poll_event left *out_len unwritten".into());
                }
                if st == HAYANAGI_OK {
                    // SAFETY: written on success.
                    match unsafe { ev.assume_init() }.kind {
                        HAYANAGI_EVENT_BESTMOVE => t.polled_bestmoves += 1,
                        HAYANAGI_EVENT_MATE => t.polled_mates += 1,
                        _ => {}
                    }
                }
            }
            7 => {
                let line: &[u8] = match rng.below(9) {
                    0 => b"go nodes 1500\0",
                    1 => b"go mate 20\0",
                    2 => b"stop\0",
                    3 => b"isready\0",
                    4 => b"position startpos moves 7g7f\0",
                    5 => b"d\0",
                    6 => b"moves\0",
                    7 => b"setoption name MultiPV value 2\0",
                    _ => b"nonsense \xff\xfe line\0",
                };
                t.usi_gos += (line.starts_with(b"go nodes")) as u64;
                t.usi_go_mates += (line.starts_with(b"go mate")) as u64;
                let st = hayanagi_engine_usi_command(e, line.as_ptr().cast());
                check(&mut t, "usi_command", st, &[HAYANAGI_OK]);
            }
            8 => {
                let p = SHARED_POSITIONS[rng.below(SHARED_POSITIONS.len())];
                let st = hayanagi_engine_set_position(e, p.as_ptr().cast());
                check(&mut t, "set_position", st, &[HAYANAGI_OK, HAYANAGI_BUSY]);
            }
            9 => {
                let (name, value): (&[u8], &[u8]) = match rng.below(4) {
                    0 => (b"MultiPV\0", b"1\0"),
                    1 => (b"Threads\0", if rng.chance(1, 2) { b"1\0" } else { b"2\0" }),
                    2 => (
                        b"USI_Hash\0",
                        if rng.chance(1, 2) { b"1\0" } else { b"2\0" },
                    ),
                    _ => (b"MateHash\0", b"4\0"),
                };
                let st = hayanagi_engine_set_option(e, name.as_ptr().cast(), value.as_ptr().cast());
                check(&mut t, "set_option", st, &[HAYANAGI_OK, HAYANAGI_BUSY]);
            }
            10 => {
                let st = match rng.below(3) {
                    0 => hayanagi_engine_ready(e),
                    1 => hayanagi_engine_new_game(e),
                    _ => hayanagi_engine_clear_hash(e),
                };
                check(
                    &mut t,
                    "ready/new_game/clear_hash",
                    st,
                    &[HAYANAGI_OK, HAYANAGI_BUSY],
                );
            }
            11 => {
                let mut m = std::mem::MaybeUninit::<hayanagi_mate_result>::uninit();
                let cap = if rng.chance(1, 4) {
                    rng.below(4)
                } else {
                    buf.len()
                };
                let st = hayanagi_engine_last_mate(
                    e,
                    m.as_mut_ptr(),
                    buf.as_mut_ptr().cast(),
                    cap,
                    std::ptr::null_mut(),
                );
                check(
                    &mut t,
                    "last_mate",
                    st,
                    &[HAYANAGI_OK, HAYANAGI_INVALID_ARG, HAYANAGI_BUFFER_TOO_SMALL],
                );
                if st == HAYANAGI_OK {
                    // SAFETY: written on success.
                    let kind = unsafe { m.assume_init() }.kind;
                    if ![
                        HAYANAGI_MATE_FOUND,
                        HAYANAGI_MATE_NONE,
                        HAYANAGI_MATE_TIMEOUT,
                    ]
                    .contains(&kind)
                    {
                        t.problems.push(format!("last_mate kind {kind}"));
                    }
                }
            }
            _ => {
                let mut searching = false;
                check(
                    &mut t,
                    "is_searching",
                    hayanagi_engine_is_searching(e, &mut searching),
                    &[HAYANAGI_OK],
                );
            }
        }
    }
    t
}

/// Two threads drive one engine at random: C searches and mate searches, the USI channel,
/// the event queue, stop / wait and the commands that are BUSY during a search. Nothing
/// hangs (a watchdog aborts after 30 s without progress), every status is allowed, and in
/// the end every search that started delivered exactly one answer: on its callback, on
/// the USI channel and as a polled event.
#[test]
fn two_threads_share_one_engine() {
    quiet_panics();
    let secs = env_num("HAYANAGI_FUZZ_SHARED_SECS", 20);
    let seed = env_num("HAYANAGI_FUZZ_SEED", 0x4841_5941_4E41_4749);
    let rec = Box::new(SharedRecord::default());
    let ud = &*rec as *const SharedRecord as *mut c_void;
    let mut raw: *mut hayanagi_engine = std::ptr::null_mut();
    assert_eq!(hayanagi_engine_new(std::ptr::null(), &mut raw), HAYANAGI_OK);
    let e = SharedEngine(raw);
    assert_eq!(
        hayanagi_engine_set_info_callback(e.0, Some(shared_info), ud, None),
        HAYANAGI_OK
    );
    assert_eq!(
        hayanagi_engine_set_bestmove_callback(e.0, Some(shared_bestmove), ud, None),
        HAYANAGI_OK
    );
    assert_eq!(
        hayanagi_engine_set_mate_callback(e.0, Some(shared_mate), ud, None),
        HAYANAGI_OK
    );
    assert_eq!(
        hayanagi_engine_set_usi_output_callback(e.0, Some(shared_usi), ud, None),
        HAYANAGI_OK
    );
    assert_eq!(hayanagi_engine_enable_events(e.0, true), HAYANAGI_OK);
    let hash = (c_bytes(b"USI_Hash"), c_bytes(b"1"));
    assert_eq!(
        hayanagi_engine_set_option(e.0, c_ptr(&hash.0), c_ptr(&hash.1)),
        HAYANAGI_OK
    );

    let deadline = Instant::now() + Duration::from_secs(secs);
    let ticks = [AtomicU64::new(0), AtomicU64::new(0)];
    let done = AtomicBool::new(false);
    let tallies = std::thread::scope(|s| {
        s.spawn(|| {
            let mut last = [0u64; 2];
            let mut since = [Instant::now(); 2];
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                for i in 0..2 {
                    let now = ticks[i].load(Ordering::Relaxed);
                    if now != last[i] {
                        (last[i], since[i]) = (now, Instant::now());
                    } else if since[i].elapsed() > Duration::from_secs(30) {
                        eprintln!("HANG: thread {i} of the shared engine made no call for 30 s");
                        std::process::abort();
                    }
                }
            }
        });
        let workers: Vec<_> = (0..2u64)
            .map(|i| {
                let (e, ticks) = (&e, &ticks[i as usize]);
                s.spawn(move || shared_worker(e, seed.wrapping_add(i), deadline, ticks))
            })
            .collect();
        let tallies: Vec<SharedTally> = workers
            .into_iter()
            .map(|w| w.join().expect("worker"))
            .collect();
        done.store(true, Ordering::Relaxed);
        tallies
    });

    // Settle: stop whatever runs, wait for its answer, drain the queue.
    assert_eq!(hayanagi_engine_stop(e.0), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_wait(e.0, -1), HAYANAGI_OK);
    let mut polled = (0u64, 0u64);
    let mut buf = vec![0u8; 4096];
    loop {
        let mut ev = std::mem::MaybeUninit::<hayanagi_event>::uninit();
        let st = hayanagi_engine_poll_event(
            e.0,
            ev.as_mut_ptr(),
            buf.as_mut_ptr().cast(),
            buf.len(),
            std::ptr::null_mut(),
        );
        assert_eq!(st, HAYANAGI_OK);
        // SAFETY: written on success.
        match unsafe { ev.assume_init() }.kind {
            HAYANAGI_EVENT_NONE => break,
            HAYANAGI_EVENT_BESTMOVE => polled.0 += 1,
            HAYANAGI_EVENT_MATE => polled.1 += 1,
            _ => {}
        }
    }
    // Answers of a search not polled before the next one started are dropped as stale
    // (never polled during a later search): counted here.
    let mut stats = hayanagi_event_stats {
        struct_size: std::mem::size_of::<hayanagi_event_stats>(),
        queued: 0,
        capacity: 0,
        dropped_full: 0,
        dropped_stale: 0,
        dropped_stale_final: 0,
    };
    assert_eq!(hayanagi_engine_event_stats(e.0, &mut stats), HAYANAGI_OK);
    assert_eq!(hayanagi_engine_free(e.0), HAYANAGI_OK);

    let sum = |f: fn(&SharedTally) -> u64| tallies.iter().map(f).sum::<u64>();
    let mut problems: Vec<String> = tallies
        .iter()
        .flat_map(|t| t.problems.iter().cloned())
        .collect();
    problems.extend(lock(&rec.bad).iter().cloned());
    let usi_searches = sum(|t| t.usi_gos) - rec.usi_go_refused.load(Ordering::Relaxed);
    let usi_mates = sum(|t| t.usi_go_mates) - rec.usi_mate_refused.load(Ordering::Relaxed);
    let bestmoves = rec.bestmoves.load(Ordering::Relaxed);
    let mates = rec.mates.load(Ordering::Relaxed);
    println!(
        "shared engine: {} calls in {secs} s; C go {} + USI go {usi_searches} -> {bestmoves} best \
         moves; C go_mate {} + USI go mate {usi_mates} -> {mates} mate answers; {} info reports",
        sum(|t| t.calls),
        sum(|t| t.gos),
        sum(|t| t.go_mates),
        rec.infos.load(Ordering::Relaxed)
    );
    let expect = |problems: &mut Vec<String>, what: &str, got: u64, want: u64| {
        if got != want {
            problems.push(format!("{what}: {got}, expected {want}"));
        }
    };
    expect(
        &mut problems,
        "best-move callbacks",
        bestmoves,
        sum(|t| t.gos) + usi_searches,
    );
    expect(
        &mut problems,
        "mate callbacks",
        mates,
        sum(|t| t.go_mates) + usi_mates,
    );
    expect(
        &mut problems,
        "USI bestmove lines",
        rec.usi_bestmoves.load(Ordering::Relaxed),
        bestmoves,
    );
    expect(
        &mut problems,
        "USI checkmate lines",
        rec.usi_checkmates.load(Ordering::Relaxed),
        mates,
    );
    expect(
        &mut problems,
        "polled answers (best moves and mate answers) + stale ones dropped",
        sum(|t| t.polled_bestmoves)
            + polled.0
            + sum(|t| t.polled_mates)
            + polled.1
            + stats.dropped_stale_final,
        bestmoves + mates,
    );
    if sum(|t| t.polled_bestmoves) + polled.0 > bestmoves
        || sum(|t| t.polled_mates) + polled.1 > mates
    {
        problems.push("more answers polled than delivered".into());
    }
    assert!(
        sum(|t| t.gos) > 10 && sum(|t| t.go_mates) > 10,
        "too few searches to mean anything"
    );
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
    drop(rec);
}
