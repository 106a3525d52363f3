//! The C ABI: the only `extern "C"` code of the crate, a thin translation of
//! [`crate::engine::Engine`].
//!
//! Conventions (see `include/hayanagi.h`):
//! * every function returns a status code (`HAYANAGI_OK` = 0) and writes results to
//!   out-params only on success; `*_free(NULL)` is a no-op;
//! * strings in are NUL-terminated UTF-8; strings out go to caller buffers
//!   (`buf`, `cap`, `*out_len`: always NUL-terminated; `HAYANAGI_BUFFER_TOO_SMALL` reports
//!   the needed size in `*out_len`) or are borrowed for the duration of a callback;
//! * every body runs inside one panic boundary (`ffi_boundary`) that turns a panic into
//!   `HAYANAGI_PANIC`;
//! * callbacks run on the engine's search thread; inside a callback `stop` works, while
//!   `go`, `wait`, `free` and the callback setters on the same engine return
//!   `HAYANAGI_REENTRANT`.

#![allow(non_camel_case_types)]
// These functions are called from C, where `unsafe` means nothing: each one checks its
// pointers for NULL and documents in the header what it requires of the rest; every
// dereference sits in an `unsafe` block stating why it is sound.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

mod strings;
mod types;

pub use types::*;

use crate::engine::{Engine, EngineError, MateRequest};
use crate::eval::nnue::LoadErrorKind;
use crate::search::mate::MateReport;
use crate::search::{BestMove, Info, Limits, Score, ScoreBound, TranspositionTable};
use crate::shogi::rules::GameState;
use crate::shogi::{Color, Position, PositionError};
use crate::usi::UsiSession;
use parking_lot::{Mutex, RwLock};
use std::cell::Cell;
use std::collections::VecDeque;
use std::ffi::{c_char, c_void, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use strings::{copy_out, read_str};

thread_local! {
    /// Engine whose callback is running on this thread (null when none).
    static IN_CALLBACK: Cell<*const hayanagi_engine> = const { Cell::new(std::ptr::null()) };
    /// Message of the last failure on this thread (for calls without a handle).
    static LAST_ERROR: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

fn set_thread_error(msg: &str) {
    LAST_ERROR.with(|e| *e.borrow_mut() = msg.to_string());
}

/// Run `body`, turning a panic into `HAYANAGI_PANIC`.
fn ffi_boundary(body: impl FnOnce() -> hayanagi_status) -> hayanagi_status {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(status) => status,
        Err(_) => {
            set_thread_error("internal error (panic caught at the C boundary)");
            HAYANAGI_PANIC
        }
    }
}

/// A host-supplied callback with its user data. Calls go through a clone of the slot's
/// `Arc`, taken under the lock and used after it is released, so no lock is held while
/// host code runs; the user data is released when the last clone goes: at once when the
/// slot is replaced or the engine freed, or, if a call is in progress on another thread
/// then, when that call returns.
struct Slot<F: Copy> {
    f: F,
    user_data: *mut c_void,
    free: hayanagi_free_callback,
}

type SlotCell<F> = RwLock<Arc<Slot<F>>>;

// SAFETY: `user_data` is the host's pointer, which the header makes the host promise to be
// usable from the engine's threads; the function pointer and free function are plain code.
unsafe impl<F: Copy> Send for Slot<F> {}
// SAFETY: as above; a slot is never changed once made (replacing it makes a new one).
unsafe impl<F: Copy> Sync for Slot<F> {}

impl<T: Copy> Slot<Option<T>> {
    fn empty() -> Self {
        Slot {
            f: None,
            user_data: std::ptr::null_mut(),
            free: None,
        }
    }
}

impl<F: Copy> Drop for Slot<F> {
    fn drop(&mut self) {
        if let Some(free) = self.free.take() {
            // SAFETY: the host gave us `free` for exactly this `user_data`, and we call it
            // once, when the last reference to the slot goes.
            unsafe { free(self.user_data) };
        }
    }
}

/// Put `slot` in `cell`; the previous slot is released outside the lock.
fn replace_slot<F: Copy>(cell: &SlotCell<F>, slot: Slot<F>) {
    let old = std::mem::replace(&mut *cell.write(), Arc::new(slot));
    drop(old);
}

/// A queued event for hosts that poll instead of taking callbacks.
struct Event {
    kind: i32,
    /// The search it belongs to (`crate::engine::reporting_search_id` when it was made).
    search_id: u64,
    info: Option<Info>,
    text: String,
}

/// The poll queue (`hayanagi_engine_enable_events`): bounded, and holding one search's
/// events at a time.
///
/// * Capacity: at most `capacity` events. A new event that finds the queue full drops the
///   oldest info event (counted in `dropped_full` and for its search); best-move and mate
///   events are never dropped for room (there is at most one per search, and earlier
///   searches' events are gone, so the queue stays within `capacity` + 1).
/// * Staleness: `newest` is the latest search id seen (from an event, a `go` of the C API,
///   or a poll, which asks the engine). Events of earlier searches are dropped (counted in
///   `dropped_stale`) as soon as a later search is seen, and never come out of a poll:
///   after `go` returns, no poll gives an event of an earlier search.
struct EventQueue {
    events: VecDeque<Event>,
    capacity: usize,
    newest: u64,
    /// Info events of search `newest` dropped for room so far.
    dropped_newest: u64,
    dropped_full: u64,
    dropped_stale: u64,
    dropped_stale_final: u64,
}

impl EventQueue {
    fn new(capacity: usize) -> EventQueue {
        EventQueue {
            events: VecDeque::new(),
            capacity,
            newest: 0,
            dropped_newest: 0,
            dropped_full: 0,
            dropped_stale: 0,
            dropped_stale_final: 0,
        }
    }

    /// A search `id` has started (or been seen): drop the events of earlier ones.
    fn see_search(&mut self, id: u64) {
        if id <= self.newest {
            return;
        }
        self.newest = id;
        self.dropped_newest = 0;
        let before = self.events.len();
        let mut finals = 0;
        self.events.retain(|ev| {
            let keep = ev.search_id >= id;
            if !keep && ev.kind != HAYANAGI_EVENT_INFO {
                finals += 1;
            }
            keep
        });
        self.dropped_stale += (before - self.events.len()) as u64;
        self.dropped_stale_final += finals;
    }

    /// Drop the oldest info event for room; false when there is none.
    fn drop_oldest_info(&mut self) -> bool {
        let Some(i) = self
            .events
            .iter()
            .position(|ev| ev.kind == HAYANAGI_EVENT_INFO)
        else {
            return false;
        };
        let ev = self.events.remove(i).expect("index found above");
        self.dropped_full += 1;
        if ev.search_id == self.newest {
            self.dropped_newest += 1;
        }
        true
    }

    fn push(&mut self, ev: Event) {
        self.see_search(ev.search_id);
        if ev.search_id < self.newest {
            // A late event of a search that is over (a best move delivered after the next
            // `go` returned): stale at once.
            self.dropped_stale += 1;
            if ev.kind != HAYANAGI_EVENT_INFO {
                self.dropped_stale_final += 1;
            }
            return;
        }
        let is_info = ev.kind == HAYANAGI_EVENT_INFO;
        while self.events.len() >= self.capacity {
            if !self.drop_oldest_info() {
                break;
            }
        }
        if is_info && self.events.len() >= self.capacity {
            // Full of final events (cannot happen with capacity >= 2): drop this one.
            self.dropped_full += 1;
            self.dropped_newest += 1;
            return;
        }
        // The queue's memory grows with the host-chosen capacity: ask, never abort.
        if self.events.try_reserve(1).is_err() {
            if is_info {
                self.dropped_full += 1;
                self.dropped_newest += 1;
                return;
            }
            // A final event must get through: make room by dropping an info event.
            if !self.drop_oldest_info() {
                return;
            }
        }
        self.events.push_back(ev);
    }

    /// Info events of `search_id` dropped for room so far.
    fn dropped_for(&self, search_id: u64) -> u64 {
        if search_id == self.newest {
            self.dropped_newest
        } else {
            0
        }
    }

    /// Shrink (or grow) to `capacity`, dropping the oldest info events that no longer fit.
    fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
        while self.events.len() > capacity {
            if !self.drop_oldest_info() {
                break;
            }
        }
        self.events.shrink_to(capacity);
    }
}

struct Callbacks {
    owner: *const hayanagi_engine,
    info: SlotCell<hayanagi_info_callback>,
    bestmove: SlotCell<hayanagi_bestmove_callback>,
    mate: SlotCell<hayanagi_mate_callback>,
    log: SlotCell<hayanagi_log_callback>,
    usi: SlotCell<hayanagi_usi_output_callback>,
    events: Mutex<Option<EventQueue>>,
    /// The capacity the next `enable_events(true)` gives the queue.
    event_capacity: std::sync::atomic::AtomicUsize,
}

// SAFETY: the raw pointers are the host's `user_data` (the host promises, as documented in
// the header, that it may be used from the engine's thread) and the owner address, used
// only for comparison.
unsafe impl Send for Callbacks {}
// SAFETY: as above; all mutation goes through the locks.
unsafe impl Sync for Callbacks {}

/// Marks this thread as running a callback of `owner` while alive.
struct CallbackGuard(*const hayanagi_engine);

impl CallbackGuard {
    fn enter(owner: *const hayanagi_engine) -> CallbackGuard {
        let prev = IN_CALLBACK.with(|c| c.replace(owner));
        CallbackGuard(prev)
    }
}

impl Drop for CallbackGuard {
    fn drop(&mut self) {
        IN_CALLBACK.with(|c| c.set(self.0));
    }
}

impl Callbacks {
    fn on_info(&self, info: &Info) {
        let line = info.to_usi();
        self.on_usi_line(&line);
        self.queue_event(HAYANAGI_EVENT_INFO, Some(info), || line.clone());
        let slot = self.info.read().clone();
        if let Some(f) = slot.f {
            let pv: String = info
                .pv
                .iter()
                .map(|m| m.usi())
                .collect::<Vec<_>>()
                .join(" ");
            let pv_c = CString::new(pv).unwrap_or_default();
            let line_c = CString::new(line).unwrap_or_default();
            let c_info = types::info_to_c(info, pv_c.as_ptr());
            let _g = CallbackGuard::enter(self.owner);
            // A panic unwinding out of a host callback would be UB; the callback itself
            // is host code, which cannot panic in Rust terms.
            // SAFETY: `f` is the host's function; the pointers stay valid for the call.
            unsafe { f(slot.user_data, &c_info, line_c.as_ptr()) };
        }
    }

    fn on_bestmove(&self, b: &BestMove) {
        self.on_usi_line(&b.to_usi());
        let (best, ponder) = match b {
            BestMove::Move { best, ponder } => (best.usi(), ponder.map(|p| p.usi())),
            BestMove::Resign => ("resign".to_string(), None),
            BestMove::Win => ("win".to_string(), None),
        };
        self.queue_event(HAYANAGI_EVENT_BESTMOVE, None, || b.to_usi());
        let slot = self.bestmove.read().clone();
        if let Some(f) = slot.f {
            let best_c = CString::new(best).unwrap_or_default();
            let ponder_c = ponder.map(|p| CString::new(p).unwrap_or_default());
            let ponder_ptr = ponder_c.as_ref().map_or(std::ptr::null(), |p| p.as_ptr());
            let _g = CallbackGuard::enter(self.owner);
            // SAFETY: host function; the strings live until the call returns.
            unsafe { f(slot.user_data, best_c.as_ptr(), ponder_ptr) };
        }
    }

    fn on_mate(&self, r: &MateReport) {
        for line in crate::usi::mate_lines(r) {
            self.on_usi_line(&line);
        }
        self.queue_event(HAYANAGI_EVENT_MATE, None, || r.to_usi());
        let slot = self.mate.read().clone();
        if let Some(f) = slot.f {
            let result = types::mate_result_to_c(r);
            let moves = CString::new(r.moves_usi()).unwrap_or_default();
            let _g = CallbackGuard::enter(self.owner);
            // SAFETY: host function; the struct and the string live until the call returns.
            unsafe { f(slot.user_data, &result, moves.as_ptr()) };
        }
    }

    /// Queue an event of the search this thread reports for, when events are enabled.
    fn queue_event(&self, kind: i32, info: Option<&Info>, text: impl FnOnce() -> String) {
        let search_id = crate::engine::reporting_search_id();
        if let Some(q) = self.events.lock().as_mut() {
            q.push(Event {
                kind,
                search_id,
                info: info.cloned(),
                text: text(),
            });
        }
    }

    /// One line of the USI text channel.
    fn on_usi_line(&self, line: &str) {
        self.call_text(&self.usi, line);
    }

    fn on_log(&self, msg: &str) {
        for line in crate::usi::info_string_lines(msg) {
            self.on_usi_line(&line);
        }
        self.call_text(&self.log, msg);
    }

    /// Hand `text` to a log-shaped host callback (user data + one string), if set.
    fn call_text(&self, slot: &SlotCell<hayanagi_log_callback>, text: &str) {
        let slot = slot.read().clone();
        if let Some(f) = slot.f {
            let c = CString::new(text.replace('\0', " ")).unwrap_or_default();
            let _g = CallbackGuard::enter(self.owner);
            // SAFETY: host function; the string lives until the call returns.
            unsafe { f(slot.user_data, c.as_ptr()) };
        }
    }
}

/// An engine handle. Opaque to C.
pub struct hayanagi_engine {
    engine: Engine,
    callbacks: Arc<Callbacks>,
    /// The USI text channel (`hayanagi_engine_usi_command`), made at its first command.
    /// Its lock is only held to fetch it: commands run without it.
    usi: Mutex<Option<Arc<UsiSession>>>,
    last_error: Mutex<String>,
}

/// A transposition table that several engines may share. Opaque to C.
pub struct hayanagi_table {
    tt: Arc<TranspositionTable>,
}

impl hayanagi_engine {
    fn fail(&self, status: hayanagi_status, msg: impl Into<String>) -> hayanagi_status {
        let msg = msg.into();
        set_thread_error(&msg);
        *self.last_error.lock() = msg;
        status
    }

    /// `HAYANAGI_OK`, or the status and message of the error.
    fn status_of(&self, result: Result<(), EngineError>) -> hayanagi_status {
        match result {
            Ok(()) => HAYANAGI_OK,
            Err(err) => self.engine_error(err),
        }
    }

    fn engine_error(&self, e: EngineError) -> hayanagi_status {
        let status = match &e {
            EngineError::Busy => HAYANAGI_BUSY,
            EngineError::Position(PositionError::Sfen(_)) => HAYANAGI_PARSE,
            EngineError::Position(PositionError::Move { .. }) => HAYANAGI_ILLEGAL_MOVE,
            EngineError::UnknownOption(_)
            | EngineError::InvalidOptionValue { .. }
            | EngineError::InvalidLimits(_) => HAYANAGI_INVALID_ARG,
            EngineError::SearchFailed(_) => HAYANAGI_POISONED,
            EngineError::NoMemory(_) => HAYANAGI_NO_MEMORY,
            EngineError::EvalLoad(l) => match l.kind {
                LoadErrorKind::Format => HAYANAGI_FORMAT,
                LoadErrorKind::Io => HAYANAGI_IO,
                LoadErrorKind::OutOfMemory => HAYANAGI_NO_MEMORY,
            },
        };
        let msg = match e {
            EngineError::Position(p @ PositionError::Move { .. }) => {
                format!("{}; the previous position is kept", position_message(&p))
            }
            other => other.to_string(),
        };
        self.fail(status, msg)
    }

    /// Status of a copy into a caller buffer (failures recorded, see [`copy_failure`]).
    fn report_copy(&self, st: hayanagi_status, buf: *mut c_char, msg: &str) -> hayanagi_status {
        match copy_failure(st, buf, msg) {
            Some(m) => self.fail(st, m),
            None => st,
        }
    }

    /// The engine's current search id (read before the queue's lock is taken) tells the
    /// queue which events are stale. Called after a `go` and at every poll, so events of an
    /// earlier search never come out once a later `go` (of any front end) has returned.
    fn drop_stale_events(&self) {
        let current = self.engine.search_id();
        if let Some(q) = self.callbacks.events.lock().as_mut() {
            q.see_search(current);
        }
    }

    fn in_own_callback(&self) -> bool {
        IN_CALLBACK.with(|c| std::ptr::eq(c.get(), self))
    }
}

/// Borrow the engine behind a handle, or fail with NULL_ARG.
macro_rules! engine_ref {
    ($ptr:expr) => {{
        if $ptr.is_null() {
            set_thread_error("engine handle is NULL");
            return HAYANAGI_NULL_ARG;
        }
        // SAFETY: non-null handles come from `hayanagi_engine_new` and stay valid until
        // `hayanagi_engine_free`; the header makes using a freed handle the host's error.
        unsafe { &*$ptr }
    }};
}

/// Reject a NULL argument of a call without an engine handle (the message goes to the
/// calling thread's last error).
macro_rules! require_arg {
    ($ptr:expr, $name:expr) => {
        if $ptr.is_null() {
            set_thread_error(concat!($name, " is NULL"));
            return HAYANAGI_NULL_ARG;
        }
    };
}

/// Refuse a call made from inside one of this engine's own callbacks (REENTRANT).
macro_rules! not_in_own_callback {
    ($e:expr, $why:expr) => {
        if $e.in_own_callback() {
            return $e.fail(HAYANAGI_REENTRANT, $why);
        }
    };
}

/// Reject a NULL argument of an engine call.
macro_rules! require {
    ($e:expr, $ptr:expr, $name:expr) => {
        if $ptr.is_null() {
            return $e.fail(HAYANAGI_NULL_ARG, concat!($name, " is NULL"));
        }
    };
}

/// Borrow a NUL-terminated UTF-8 argument, or fail with its status (NULL_ARG, INVALID_ARG)
/// recorded on the engine.
macro_rules! str_arg {
    ($e:expr, $ptr:expr, $name:expr) => {
        match read_str($ptr, $name) {
            Ok(s) => s,
            Err((st, m)) => return $e.fail(st, m),
        }
    };
}

/// Read a host struct that begins with `struct_size` (see "ABI growth" in the header): a
/// size below `first_version` is refused (None); the fields a smaller, older struct lacks
/// keep their value in `defaults`, and bytes past ours (a newer host's fields) are ignored.
///
/// # Safety
/// `ptr` is non-null, `T` is a `repr(C)` struct of plain data whose first field is
/// `struct_size: usize`, and the host's struct really has `struct_size` readable bytes.
unsafe fn read_versioned<T: Copy>(ptr: *const T, first_version: usize, defaults: T) -> Option<T> {
    // SAFETY: the caller's promise: the first field is a usize.
    let size = unsafe { (ptr as *const usize).read() };
    if size < first_version {
        return None;
    }
    let mut value = defaults;
    let n = size.min(std::mem::size_of::<T>());
    // SAFETY: `n` bytes are readable at `ptr` (the host's size, at most ours) and writable
    // in `value`; the two do not overlap.
    unsafe {
        std::ptr::copy_nonoverlapping(ptr as *const u8, &mut value as *mut T as *mut u8, n);
    }
    Some(value)
}

// ----- library-wide ----------------------------------------------------------------------

/// The ABI version (`HAYANAGI_ABI_VERSION` of the header the library was built with).
#[no_mangle]
pub extern "C" fn hayanagi_abi_version() -> u32 {
    HAYANAGI_ABI_VERSION
}

/// The library version as a static string, e.g. "0.1.0".
#[no_mangle]
pub extern "C" fn hayanagi_version_string() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char
}

/// A static description of a status code.
#[no_mangle]
pub extern "C" fn hayanagi_status_str(status: hayanagi_status) -> *const c_char {
    let s: &'static str = match status {
        HAYANAGI_OK => "ok\0",
        HAYANAGI_NULL_ARG => "a required pointer argument is NULL\0",
        HAYANAGI_INVALID_ARG => "an argument is invalid\0",
        HAYANAGI_PARSE => "text could not be parsed\0",
        HAYANAGI_ILLEGAL_MOVE => "a move is illegal\0",
        HAYANAGI_BUSY => "a search is running\0",
        HAYANAGI_REENTRANT => "not allowed inside this engine's callback\0",
        HAYANAGI_BUFFER_TOO_SMALL => "the output buffer is too small\0",
        HAYANAGI_TIMEOUT => "timed out\0",
        HAYANAGI_IO => "a file is missing or unreadable\0",
        HAYANAGI_FORMAT => "a file has bad contents\0",
        HAYANAGI_PANIC => "internal error\0",
        HAYANAGI_POISONED => "the engine failed earlier and cannot continue\0",
        HAYANAGI_NO_MEMORY => "the memory asked for cannot be had\0",
        _ => "unknown status code\0",
    };
    s.as_ptr() as *const c_char
}

/// Copy the message of the last failure on the calling thread into `buf`.
#[no_mangle]
pub extern "C" fn hayanagi_last_error(
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let msg = LAST_ERROR.with(|e| e.borrow().clone());
        copy_out(&msg, buf, cap, out_len)
    })
}

/// Fill `limits` with defaults: every limit unset (times -1, counts 0, no flags; an
/// infinite search unless one is set).
#[no_mangle]
pub extern "C" fn hayanagi_limits_init(limits: *mut hayanagi_limits) -> hayanagi_status {
    ffi_boundary(|| {
        require_arg!(limits, "limits");
        // SAFETY: non-null, and the header requires it to point at a hayanagi_limits.
        unsafe { limits.write(types::default_limits()) };
        HAYANAGI_OK
    })
}

// ----- tables ------------------------------------------------------------------------------

/// A table of `size_mib` MiB (1 to 1048576) that engines can share.
/// `HAYANAGI_NO_MEMORY` when that much memory cannot be had (see the status code).
#[no_mangle]
pub extern "C" fn hayanagi_table_new(
    size_mib: u32,
    out: *mut *mut hayanagi_table,
) -> hayanagi_status {
    ffi_boundary(|| {
        require_arg!(out, "out");
        if size_mib == 0 || size_mib as usize > crate::engine::MAX_HASH_MIB {
            set_thread_error("size_mib must be between 1 and 1048576");
            return HAYANAGI_INVALID_ARG;
        }
        let tt = match TranspositionTable::try_new(size_mib as usize) {
            Ok(tt) => tt,
            Err(e) => {
                set_thread_error(&e.to_string());
                return HAYANAGI_NO_MEMORY;
            }
        };
        let t = Box::new(hayanagi_table { tt: Arc::new(tt) });
        // SAFETY: `out` is non-null and points at writable storage for a pointer.
        unsafe { out.write(Box::into_raw(t)) };
        HAYANAGI_OK
    })
}

/// Release a table handle (NULL is fine). Engines using the table keep it alive.
#[no_mangle]
pub extern "C" fn hayanagi_table_free(table: *mut hayanagi_table) -> hayanagi_status {
    ffi_boundary(|| {
        if !table.is_null() {
            // SAFETY: the handle came from `hayanagi_table_new` and is freed once.
            drop(unsafe { Box::from_raw(table) });
        }
        HAYANAGI_OK
    })
}

// ----- engine lifetime ---------------------------------------------------------------------

/// Create an engine. `config` may be NULL (defaults); when given, its `struct_size` must be
/// at least the size of the first version of the struct (a larger one, from a newer
/// header, is fine: the fields this library does not know are ignored). `HAYANAGI_NO_MEMORY` when the
/// table (`config->hash_mib`) cannot be had; nothing is created then.
#[no_mangle]
pub extern "C" fn hayanagi_engine_new(
    config: *const hayanagi_engine_config,
    out: *mut *mut hayanagi_engine,
) -> hayanagi_status {
    ffi_boundary(|| {
        require_arg!(out, "out");
        let mut c = types::default_config();
        if !config.is_null() {
            // SAFETY: non-null; the header requires `struct_size` to tell the size.
            let read = unsafe {
                read_versioned(
                    config,
                    types::ENGINE_CONFIG_V1_SIZE,
                    types::default_config(),
                )
            };
            let Some(read) = read else {
                set_thread_error(
                    "config.struct_size is smaller than the first hayanagi_engine_config",
                );
                return HAYANAGI_INVALID_ARG;
            };
            c = read;
        }
        // The table is allocated once, at its requested size.
        let created = if c.hash_mib != 0 {
            Engine::try_with_hash(c.hash_mib as usize)
        } else {
            Engine::try_new()
        };
        let engine = match created {
            Ok(engine) => engine,
            Err(e @ EngineError::InvalidOptionValue { .. }) => {
                set_thread_error(&e.to_string());
                return HAYANAGI_INVALID_ARG;
            }
            Err(e) => {
                set_thread_error(&e.to_string());
                return HAYANAGI_NO_MEMORY;
            }
        };
        if c.threads != 0 {
            if let Err(e) = engine.set_option("Threads", &c.threads.to_string()) {
                set_thread_error(&e.to_string());
                return HAYANAGI_INVALID_ARG;
            }
        }
        let mut handle = Box::new(hayanagi_engine {
            engine,
            callbacks: Arc::new(Callbacks {
                owner: std::ptr::null(),
                info: RwLock::new(Arc::new(Slot::empty())),
                bestmove: RwLock::new(Arc::new(Slot::empty())),
                mate: RwLock::new(Arc::new(Slot::empty())),
                log: RwLock::new(Arc::new(Slot::empty())),
                usi: RwLock::new(Arc::new(Slot::empty())),
                events: Mutex::new(None),
                event_capacity: std::sync::atomic::AtomicUsize::new(
                    types::EVENT_QUEUE_DEFAULT_CAPACITY,
                ),
            }),
            last_error: Mutex::new(String::new()),
            usi: Mutex::new(None),
        });
        let owner: *const hayanagi_engine = &*handle;
        Arc::get_mut(&mut handle.callbacks)
            .expect("sole owner")
            .owner = owner;
        let cb = handle.callbacks.clone();
        handle
            .engine
            .set_info_sink(Some(Box::new(move |i: &Info| cb.on_info(i))));
        let cb = handle.callbacks.clone();
        handle
            .engine
            .set_bestmove_sink(Some(Box::new(move |b: &BestMove| cb.on_bestmove(b))));
        let cb = handle.callbacks.clone();
        handle
            .engine
            .set_mate_sink(Some(Box::new(move |r: &MateReport| cb.on_mate(r))));
        let cb = handle.callbacks.clone();
        handle
            .engine
            .set_log_sink(Some(Box::new(move |m: &str| cb.on_log(m))));
        // SAFETY: `out` is non-null and points at writable storage for a pointer.
        unsafe { out.write(Box::into_raw(handle)) };
        HAYANAGI_OK
    })
}

/// Destroy an engine: stops and joins a running search (its best move is still delivered),
/// then releases the callbacks' user data. NULL is fine. May be called from any thread
/// except from inside this engine's own callbacks (`HAYANAGI_REENTRANT`; the engine is then
/// not freed: free it later from another thread). Like any free, it must not race with
/// another call on the same handle: a host whose threads share a handle (a `wait` on one,
/// a finalizer on another) must make sure no call is in flight when it frees.
#[no_mangle]
pub extern "C" fn hayanagi_engine_free(engine: *mut hayanagi_engine) -> hayanagi_status {
    ffi_boundary(|| {
        if engine.is_null() {
            return HAYANAGI_OK;
        }
        // SAFETY: non-null handle from `hayanagi_engine_new`.
        let e = unsafe { &*engine };
        not_in_own_callback!(
            e,
            "hayanagi_engine_free called from the engine's own callback"
        );
        // Join the search first, through a shared reference: its callbacks may still call
        // `stop` on this handle, which must not race with the exclusive ownership taken
        // below.
        e.engine.shutdown();
        let session = e.usi.lock().take();
        if let Some(session) = session {
            // A running `go mate` delivers its last line before the handle goes.
            session.finish(&e.engine);
        }
        // SAFETY: the handle is freed exactly once, here, and no search thread is left
        // that could use it.
        let boxed = unsafe { Box::from_raw(engine) };
        let callbacks = boxed.callbacks.clone();
        drop(boxed); // stops and joins the search thread
        replace_slot(&callbacks.info, Slot::empty());
        replace_slot(&callbacks.bestmove, Slot::empty());
        replace_slot(&callbacks.mate, Slot::empty());
        replace_slot(&callbacks.log, Slot::empty());
        replace_slot(&callbacks.usi, Slot::empty());
        HAYANAGI_OK
    })
}

/// Copy this engine's last error message into `buf`.
#[no_mangle]
pub extern "C" fn hayanagi_engine_last_error(
    engine: *const hayanagi_engine,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let msg = e.last_error.lock().clone();
        copy_out(&msg, buf, cap, out_len)
    })
}

// ----- options and position ----------------------------------------------------------------

/// Set an option by its USI name or an alias (case-insensitive): every option
/// `hayanagi_engine_option_count` / `_option_info` list, hidden ones included; the README
/// lists types and ranges. Values are validated now (`HAYANAGI_INVALID_ARG` with the reason
/// for a bad value or an unknown name); options flagged `HAYANAGI_OPTION_AT_READY` (table
/// size, book, NNUE net) take effect at `hayanagi_engine_ready`, the table and book also at
/// the next `go`, the net only at `ready` (a `go` before it says so on the log callback and
/// keeps the evaluation in place). `EvalFile`/`EvalDir` paths are made absolute against
/// the process's working directory when set.
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_option(
    engine: *mut hayanagi_engine,
    name: *const c_char,
    value: *const c_char,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let name = str_arg!(e, name, "name");
        let value = str_arg!(e, value, "value");
        e.status_of(e.engine.set_option(name, value))
    })
}

/// The value of an option (by name or alias, case-insensitive) into `buf`, as
/// `hayanagi_engine_set_option` takes it back (`true`/`false`, a number, a word, a path).
/// `HAYANAGI_INVALID_ARG` for an unknown name. For an option that takes effect at `ready`,
/// the value that will be used then (a table size that could not be had reads back the size
/// in use).
#[no_mangle]
pub extern "C" fn hayanagi_engine_get_option(
    engine: *const hayanagi_engine,
    name: *const c_char,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let name = str_arg!(e, name, "name");
        match e.engine.get_option(name) {
            Ok(value) => {
                let st = copy_out(&value, buf, cap, out_len);
                e.report_copy(st, buf, "buffer too small for the option value")
            }
            Err(err) => e.engine_error(err),
        }
    })
}

/// The options this engine lists: the number of them into `*out`. `flags` 0 counts those a
/// GUI is shown (as USI `usi` prints them); `HAYANAGI_OPTION_HIDDEN` counts the developer
/// and tuning options too. Indices `0..*out` go to `hayanagi_engine_option_info`, in the
/// order `usi` prints them.
#[no_mangle]
pub extern "C" fn hayanagi_engine_option_count(
    engine: *const hayanagi_engine,
    flags: u32,
    out: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        let Some(listed) = listed_options(e, flags) else {
            return HAYANAGI_INVALID_ARG;
        };
        // SAFETY: non-null out-param.
        unsafe { out.write(listed.count()) };
        HAYANAGI_OK
    })
}

/// Option `index` of the enumeration `flags` selects (see `hayanagi_engine_option_count`):
/// its kind, flags and range into `out`, its name into `buf` (as for the other text
/// getters). `HAYANAGI_INVALID_ARG` for an index out of range.
#[no_mangle]
pub extern "C" fn hayanagi_engine_option_info(
    engine: *const hayanagi_engine,
    index: usize,
    flags: u32,
    out: *mut hayanagi_option_info,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        let Some(mut listed) = listed_options(e, flags) else {
            return HAYANAGI_INVALID_ARG;
        };
        let Some(def) = listed.nth(index) else {
            return e.fail(HAYANAGI_INVALID_ARG, format!("no option at index {index}"));
        };
        let st = copy_out(def.name, buf, cap, out_len);
        if st != HAYANAGI_OK {
            return e.report_copy(st, buf, "buffer too small for the option name");
        }
        // SAFETY: non-null out-param.
        unsafe { out.write(types::option_info_to_c(def)) };
        HAYANAGI_OK
    })
}

/// A text of an option (by name or alias) into `buf`: `what` is
/// `HAYANAGI_OPTION_TEXT_DEFAULT`, `_CHOICES`, `_HELP` or `_USI`.
/// `HAYANAGI_INVALID_ARG` for an unknown name or `what`.
#[no_mangle]
pub extern "C" fn hayanagi_engine_option_text(
    engine: *const hayanagi_engine,
    name: *const c_char,
    what: i32,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let name = str_arg!(e, name, "name");
        let Some(def) = crate::options::find(name) else {
            return e.engine_error(EngineError::UnknownOption(name.to_string()));
        };
        let text = match what {
            HAYANAGI_OPTION_TEXT_DEFAULT => def.default_text(),
            HAYANAGI_OPTION_TEXT_CHOICES => match def.kind {
                crate::options::ValueKind::Combo(vars) => vars.join(" "),
                _ => String::new(),
            },
            HAYANAGI_OPTION_TEXT_HELP => def.help.to_string(),
            HAYANAGI_OPTION_TEXT_USI => def.usi_line(),
            other => return e.fail(HAYANAGI_INVALID_ARG, format!("unknown option text {other}")),
        };
        let st = copy_out(&text, buf, cap, out_len);
        e.report_copy(st, buf, "buffer too small for the option text")
    })
}

/// The options `flags` lists, or None (and the error recorded) for unknown flags.
fn listed_options(
    e: &hayanagi_engine,
    flags: u32,
) -> Option<impl Iterator<Item = &'static crate::options::OptionDef>> {
    if flags & !HAYANAGI_OPTION_HIDDEN != 0 {
        e.fail(
            HAYANAGI_INVALID_ARG,
            format!("unknown option flags {flags:#x}"),
        );
        return None;
    }
    let hidden_too = flags & HAYANAGI_OPTION_HIDDEN != 0;
    Some(
        crate::options::OPTIONS
            .iter()
            .filter(move |d| hidden_too || !d.hidden),
    )
}

/// Apply deferred work: table resize, book, NNUE net (`EvalFile`/`EvalDir`; a net is loaded
/// only here). The USI `isready` step. Each is tried, and the first failure is answered
/// with the reason in the last error. A table that cannot be had returns
/// `HAYANAGI_NO_MEMORY` and keeps the table in use (`USI_Hash` reads back its size). A net
/// that cannot be loaded returns `HAYANAGI_IO` (missing, not a regular file, unreadable),
/// `HAYANAGI_NO_MEMORY` (its 64 MB cannot be had) or `HAYANAGI_FORMAT` (not a HalfKP
/// 256x2-32-32 `nn.bin`: wrong version, wrong size, trailing bytes); the engine keeps the
/// evaluation it had. Hash mismatches are only warnings on the log callback.
#[no_mangle]
pub extern "C" fn hayanagi_engine_ready(engine: *mut hayanagi_engine) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        e.status_of(e.engine.ready())
    })
}

/// Start a new game: clears the table and, at the next search, the move-ordering history.
#[no_mangle]
pub extern "C" fn hayanagi_engine_new_game(engine: *mut hayanagi_engine) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        e.status_of(e.engine.new_game())
    })
}

/// Set the position from USI `position` syntax: `startpos` or `sfen <SFEN>` (a bare SFEN is
/// accepted too), optionally followed by `moves m1 m2 ...`. On failure the previous position
/// is kept: `HAYANAGI_PARSE` for a bad SFEN, `HAYANAGI_ILLEGAL_MOVE` for a bad move (the
/// message names the move and its 0-based index).
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_position(
    engine: *mut hayanagi_engine,
    position: *const c_char,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let text = str_arg!(e, position, "position");
        e.status_of(e.engine.set_position(text))
    })
}

// ----- searching ---------------------------------------------------------------------------

fn limits_from_c(
    e: &hayanagi_engine,
    l: &hayanagi_limits,
    pos: &Position,
) -> Result<Limits, hayanagi_status> {
    let opt = |v: i64| (v >= 0).then_some(v as u64);
    let mut limits = Limits {
        depth: (l.depth > 0).then_some(l.depth as u32),
        nodes: (l.nodes > 0).then_some(l.nodes as u64),
        movetime: opt(l.movetime_ms),
        infinite: l.infinite,
        ponder: l.ponder,
        time: [opt(l.btime_ms), opt(l.wtime_ms)],
        increment: [l.binc_ms.max(0) as u64, l.winc_ms.max(0) as u64],
        byoyomi: l.byoyomi_ms.max(0) as u64,
        searchmoves: Vec::new(),
        multipv: (l.multipv > 0).then_some(l.multipv),
    };
    if !l.searchmoves.is_null() {
        let text = read_str(l.searchmoves, "searchmoves").map_err(|(st, m)| e.fail(st, m))?;
        for (i, w) in text.split_whitespace().enumerate() {
            match pos.parse_usi_move(w) {
                Ok(m) => limits.searchmoves.push(m),
                Err(err) => {
                    return Err(e.fail(
                        HAYANAGI_ILLEGAL_MOVE,
                        format!("searchmoves {i} (0-based): {err}"),
                    ))
                }
            }
        }
    }
    Ok(limits)
}

/// Start a search; returns at once. `limits` may be NULL (infinite search). Exactly one
/// best move follows for every `HAYANAGI_OK`.
#[no_mangle]
pub extern "C" fn hayanagi_engine_go(
    engine: *mut hayanagi_engine,
    limits: *const hayanagi_limits,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        not_in_own_callback!(
            e,
            "hayanagi_engine_go called from the engine's own callback"
        );
        let l = if limits.is_null() {
            types::default_limits()
        } else {
            // SAFETY: non-null; the header requires a hayanagi_limits initialised by
            // hayanagi_limits_init, whose `struct_size` tells its size.
            let l =
                unsafe { read_versioned(limits, types::LIMITS_V1_SIZE, types::default_limits()) };
            match l {
                Some(l) => l,
                None => {
                    return e.fail(
                        HAYANAGI_INVALID_ARG,
                        "limits.struct_size is too small (call hayanagi_limits_init)",
                    )
                }
            }
        };
        let pos = e.engine.position();
        let limits = match limits_from_c(e, &l, &pos) {
            Ok(l) => l,
            Err(st) => return st,
        };
        // Nothing set means infinite: the engine's rule (src/request.rs), as for USI.
        let st = e.status_of(e.engine.go(limits));
        if st == HAYANAGI_OK {
            e.drop_stale_events();
        }
        st
    })
}

/// Start a mate search (df-pn) for the side to move in the current position; returns at
/// once. `movetime_ms < 0` and `nodes == 0` mean no such limit (with neither, it runs until
/// `hayanagi_engine_stop`). `flags`: 0 for the shortest mate, or
/// `HAYANAGI_MATE_ANY_LENGTH`. Exactly one answer follows for every `HAYANAGI_OK`: to the
/// mate callback, as a `HAYANAGI_EVENT_MATE` event, on the USI channel (`checkmate ...`)
/// and in `hayanagi_engine_last_mate`; never a best move. It counts as a search: `stop`
/// ends it (answer `HAYANAGI_MATE_TIMEOUT` unless solved), `wait` waits for it, and
/// `go`, `set_position` and `set_option` are `HAYANAGI_BUSY` meanwhile. The table size is
/// the `MateHash` option (MiB).
#[no_mangle]
pub extern "C" fn hayanagi_engine_go_mate(
    engine: *mut hayanagi_engine,
    movetime_ms: i64,
    nodes: u64,
    flags: u32,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        not_in_own_callback!(
            e,
            "hayanagi_engine_go_mate called from the engine's own callback"
        );
        if flags & !HAYANAGI_MATE_ANY_LENGTH != 0 {
            return e.fail(
                HAYANAGI_INVALID_ARG,
                format!("unknown mate flags {flags:#x}"),
            );
        }
        let request = MateRequest {
            movetime_ms: (movetime_ms >= 0).then_some(movetime_ms as u64),
            nodes: (nodes > 0).then_some(nodes),
            any_length: flags & HAYANAGI_MATE_ANY_LENGTH != 0,
        };
        let st = e.status_of(e.engine.go_mate(request));
        if st == HAYANAGI_OK {
            e.drop_stale_events();
        }
        st
    })
}

/// The answer of the last finished mate search: the result into `out`, its moves
/// (space-separated USI, empty unless found) into `buf` as for the other text getters.
/// `HAYANAGI_INVALID_ARG` when no mate search has finished on this engine. While a new
/// mate search runs, the previous answer is still the last finished one. On
/// `HAYANAGI_BUFFER_TOO_SMALL` only `*out_len` (and an empty string in `buf`) is written,
/// not `out`.
#[no_mangle]
pub extern "C" fn hayanagi_engine_last_mate(
    engine: *const hayanagi_engine,
    out: *mut hayanagi_mate_result,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        let Some(report) = e.engine.last_mate() else {
            return e.fail(HAYANAGI_INVALID_ARG, "no mate search has finished");
        };
        let st = copy_out(&report.moves_usi(), buf, cap, out_len);
        if st != HAYANAGI_OK {
            // Out-params only on success: `*out_len` alone tells the size needed.
            return e.report_copy(st, buf, "buffer too small for the mate moves");
        }
        // SAFETY: non-null out-param.
        unsafe { out.write(types::mate_result_to_c(&report)) };
        HAYANAGI_OK
    })
}

/// Ask the search to finish now. Never blocks; a no-op when idle; allowed in callbacks.
#[no_mangle]
pub extern "C" fn hayanagi_engine_stop(engine: *mut hayanagi_engine) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        e.engine.stop();
        HAYANAGI_OK
    })
}

/// The opponent played the predicted move: pondering becomes a timed search.
#[no_mangle]
pub extern "C" fn hayanagi_engine_ponderhit(engine: *mut hayanagi_engine) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        e.engine.ponderhit();
        HAYANAGI_OK
    })
}

/// Wait until the best move has been delivered. `timeout_ms < 0` waits forever;
/// `HAYANAGI_TIMEOUT` when the time ran out first.
#[no_mangle]
pub extern "C" fn hayanagi_engine_wait(
    engine: *mut hayanagi_engine,
    timeout_ms: i64,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        not_in_own_callback!(
            e,
            "hayanagi_engine_wait called from the engine's own callback"
        );
        let timeout = (timeout_ms >= 0).then(|| Duration::from_millis(timeout_ms as u64));
        if e.engine.wait(timeout) {
            HAYANAGI_OK
        } else {
            e.fail(HAYANAGI_TIMEOUT, "the search is still running")
        }
    })
}

/// Is a search running (until its best move has been delivered)?
#[no_mangle]
pub extern "C" fn hayanagi_engine_is_searching(
    engine: *const hayanagi_engine,
    out: *mut bool,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null out-param.
        unsafe { out.write(e.engine.is_searching()) };
        HAYANAGI_OK
    })
}

// ----- callbacks and events ----------------------------------------------------------------

/// Replace a callback slot (shared by the three setters).
fn set_slot<T: Copy>(
    engine: *mut hayanagi_engine,
    pick: impl Fn(&Callbacks) -> &SlotCell<Option<T>>,
    callback: Option<T>,
    user_data: *mut c_void,
    user_data_free: hayanagi_free_callback,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        not_in_own_callback!(e, "callbacks cannot be changed from inside a callback");
        if e.engine.is_search_running() {
            return e.fail(HAYANAGI_BUSY, "callbacks cannot be changed while searching");
        }
        replace_slot(
            pick(&e.callbacks),
            Slot {
                f: callback,
                user_data,
                free: user_data_free,
            },
        );
        HAYANAGI_OK
    })
}

/// Set (or clear, with NULL) the info callback. It runs on the search thread and receives a
/// struct and the same report as a USI `info` line, both valid only during the call. The
/// previous user_data is released with its free function. `HAYANAGI_BUSY` while searching;
/// on any failure the new `user_data` stays the caller's (its free function is not called).
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_info_callback(
    engine: *mut hayanagi_engine,
    callback: hayanagi_info_callback,
    user_data: *mut c_void,
    user_data_free: hayanagi_free_callback,
) -> hayanagi_status {
    set_slot(engine, |c| &c.info, callback, user_data, user_data_free)
}

/// Set (or clear) the best-move callback: `bestmove` is a USI move, `resign` or `win`;
/// `ponder` is NULL when there is none. Runs on the search thread, once per `go`.
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_bestmove_callback(
    engine: *mut hayanagi_engine,
    callback: hayanagi_bestmove_callback,
    user_data: *mut c_void,
    user_data_free: hayanagi_free_callback,
) -> hayanagi_status {
    set_slot(engine, |c| &c.bestmove, callback, user_data, user_data_free)
}

/// Set (or clear) the callback for warnings and diagnostics (the library never prints).
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_log_callback(
    engine: *mut hayanagi_engine,
    callback: hayanagi_log_callback,
    user_data: *mut c_void,
    user_data_free: hayanagi_free_callback,
) -> hayanagi_status {
    set_slot(engine, |c| &c.log, callback, user_data, user_data_free)
}

/// Set (or clear, with NULL) the mate callback: the answer of each mate search
/// (`hayanagi_engine_go_mate`), on the search thread. `HAYANAGI_BUSY` while searching.
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_mate_callback(
    engine: *mut hayanagi_engine,
    callback: hayanagi_mate_callback,
    user_data: *mut c_void,
    user_data_free: hayanagi_free_callback,
) -> hayanagi_status {
    set_slot(engine, |c| &c.mate, callback, user_data, user_data_free)
}

/// Set (or clear) the receiver of the USI text channel's output: every line the engine
/// would print as a USI engine (`usiok`, `readyok`, `info ...`, `bestmove ...`,
/// `checkmate ...`, `info string ...` for warnings and errors), one call per line. It runs
/// on the thread that produced the line: the caller of `hayanagi_engine_usi_command` for
/// direct answers, the search thread for search output.
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_usi_output_callback(
    engine: *mut hayanagi_engine,
    callback: hayanagi_usi_output_callback,
    user_data: *mut c_void,
    user_data_free: hayanagi_free_callback,
) -> hayanagi_status {
    set_slot(engine, |c| &c.usi, callback, user_data, user_data_free)
}

/// Send one USI command line (or several separated by newlines) to the engine, as a GUI
/// would write to a USI engine's stdin; the answers go to the USI output callback. The
/// same implementation serves the `hayanagi` binary, so every command, option and extra
/// (`d`, `perft`, `bench`, `eval`, `moves`) behaves the same. Malformed commands are
/// answered on the channel with `info string error: ...` and still return `HAYANAGI_OK`;
/// `quit` stops any search and waits for its last line. The channel and the structured
/// calls drive the same engine (position, options, table). Commands sent from several
/// threads at once run side by side (none waits for another's output callback): send one
/// conversation from one thread to keep its order.
/// `HAYANAGI_REENTRANT` from inside this engine's own callbacks.
#[no_mangle]
pub extern "C" fn hayanagi_engine_usi_command(
    engine: *mut hayanagi_engine,
    line: *const c_char,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, line, "line");
        not_in_own_callback!(
            e,
            "hayanagi_engine_usi_command called from the engine's own callback"
        );
        // SAFETY: non-null; the header requires a NUL-terminated string valid for the call.
        let bytes = unsafe { std::ffi::CStr::from_ptr(line) }.to_bytes();
        // Like a pipe, the channel takes any bytes: invalid UTF-8 becomes U+FFFD.
        let text = String::from_utf8_lossy(bytes);
        let session = e
            .usi
            .lock()
            .get_or_insert_with(|| {
                let cb = e.callbacks.clone();
                Arc::new(UsiSession::new(Arc::new(move |l: &str| cb.on_usi_line(l))))
            })
            .clone();
        // Without the channel's lock: the output callback may run during the command, and
        // another thread's command must not wait for it.
        for l in text.split(['\n', '\r']) {
            session.command(&e.engine, l);
        }
        HAYANAGI_OK
    })
}

/// Queue events for `hayanagi_engine_poll_event` / `hayanagi_engine_poll_event2` (for hosts
/// that must stay on their own thread), or stop queueing. Enabling (also when already
/// enabled) starts an empty queue with zeroed counters; disabling drops queued events.
///
/// The queue is bounded: it holds at most `hayanagi_engine_set_event_capacity` events
/// (default 4096), so a host that never polls keeps a
/// bounded amount of memory. When it is full, the oldest info event is dropped; best-move
/// and mate events are never dropped for room. The queue holds one search's events:
/// once a later search has started (a successful `go`/`go_mate`, or a search of the USI
/// channel), the events of earlier searches are dropped (also a best move delivered
/// after the next `go` returned) and no poll returns them. A host that wants every best
/// move polls it before the next `go` (or reads the callbacks). `hayanagi_engine_event_stats`
/// counts what was dropped; `hayanagi_event2.dropped_info` tells it per search.
#[no_mangle]
pub extern "C" fn hayanagi_engine_enable_events(
    engine: *mut hayanagi_engine,
    enabled: bool,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let capacity = e.callbacks.event_capacity.load(Ordering::Relaxed);
        let current = e.engine.search_id();
        let queue = enabled.then(|| {
            let mut q = EventQueue::new(capacity);
            // Events come from now on; a search already over is not waited for.
            q.newest = current;
            q
        });
        let old = std::mem::replace(&mut *e.callbacks.events.lock(), queue);
        drop(old);
        HAYANAGI_OK
    })
}

/// Set how many events the poll queue holds at most: 2 to 1048576 (default 4096;
/// `HAYANAGI_INVALID_ARG` otherwise). Applies to the
/// queue now (the oldest info events that no longer fit are dropped and counted) and to
/// the next `enable_events(true)`. The memory grows with the events actually queued; a
/// growth the system refuses drops the event instead of aborting.
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_event_capacity(
    engine: *mut hayanagi_engine,
    capacity: usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        if !(2..=types::EVENT_QUEUE_MAX_CAPACITY).contains(&capacity) {
            return e.fail(
                HAYANAGI_INVALID_ARG,
                format!(
                    "event capacity {capacity} is outside 2..={}",
                    types::EVENT_QUEUE_MAX_CAPACITY
                ),
            );
        }
        e.callbacks
            .event_capacity
            .store(capacity, Ordering::Relaxed);
        if let Some(q) = e.callbacks.events.lock().as_mut() {
            q.set_capacity(capacity);
        }
        HAYANAGI_OK
    })
}

/// The counters of the poll queue into `out` (set `out->struct_size` first: see
/// `hayanagi_event2`). `HAYANAGI_INVALID_ARG` when events are not enabled or
/// `struct_size` is too small.
#[no_mangle]
pub extern "C" fn hayanagi_engine_event_stats(
    engine: *mut hayanagi_engine,
    out: *mut hayanagi_event_stats,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null; the header requires `struct_size` to be set.
        let size = unsafe { std::ptr::addr_of!((*out).struct_size).read_unaligned() };
        if size < types::EVENT_STATS_V1_SIZE {
            return e.fail(
                HAYANAGI_INVALID_ARG,
                "out->struct_size is smaller than the first hayanagi_event_stats",
            );
        }
        e.drop_stale_events();
        let q = e.callbacks.events.lock();
        let Some(q) = q.as_ref() else {
            return e.fail(HAYANAGI_INVALID_ARG, EVENTS_OFF);
        };
        let stats = hayanagi_event_stats {
            struct_size: size.min(std::mem::size_of::<hayanagi_event_stats>()),
            queued: q.events.len() as u64,
            capacity: q.capacity as u64,
            dropped_full: q.dropped_full,
            dropped_stale: q.dropped_stale,
            dropped_stale_final: q.dropped_stale_final,
        };
        // SAFETY: the host's struct has `size` writable bytes; we write at most ours.
        unsafe { write_versioned(out, &stats, size) };
        HAYANAGI_OK
    })
}

const EVENTS_OFF: &str = "events are not enabled (hayanagi_engine_enable_events)";

/// Copy the first `size` bytes of `value` (at most all of it) to `out`.
///
/// # Safety
/// `out` has `size` writable bytes; `T` is a `repr(C)` struct of plain data.
unsafe fn write_versioned<T: Copy>(out: *mut T, value: &T, size: usize) {
    let n = size.min(std::mem::size_of::<T>());
    // SAFETY: `n` bytes are readable in `value` and writable at `out` (the caller's
    // promise); a host struct never overlaps our local.
    unsafe { std::ptr::copy_nonoverlapping(value as *const T as *const u8, out as *mut u8, n) };
}

/// Take the oldest event: its text into `buf` (as for the other text getters) and the
/// event to `write`, or `HAYANAGI_EVENT_NONE` with an empty text. Nothing is dequeued when
/// the text does not fit.
fn poll_with(
    e: &hayanagi_engine,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
    write: impl FnOnce(Option<(&Event, u64)>),
) -> hayanagi_status {
    e.drop_stale_events();
    let mut q = e.callbacks.events.lock();
    let Some(queue) = q.as_mut() else {
        return e.fail(HAYANAGI_INVALID_ARG, EVENTS_OFF);
    };
    let text = queue.events.front().map_or("", |ev| ev.text.as_str());
    let st = copy_out(text, buf, cap, out_len);
    if st != HAYANAGI_OK {
        return e.report_copy(st, buf, "buffer too small for the event text");
    }
    match queue.events.pop_front() {
        None => write(None),
        Some(ev) => {
            let dropped = queue.dropped_for(ev.search_id);
            write(Some((&ev, dropped)));
        }
    }
    HAYANAGI_OK
}

/// Take the oldest queued event. `out->kind` is `HAYANAGI_EVENT_NONE` when the queue is
/// empty. The USI text of the event (an `info ...` or `bestmove ...` line) goes to `buf`;
/// when it does not fit, nothing is dequeued and `HAYANAGI_BUFFER_TOO_SMALL` reports the
/// size needed. `out->info.pv` is NULL for polled events (the PV is in the text). Events of
/// an earlier search never come out once a later one has started (see
/// `hayanagi_engine_enable_events`); `hayanagi_engine_poll_event2` also gives the search id.
#[no_mangle]
pub extern "C" fn hayanagi_engine_poll_event(
    engine: *mut hayanagi_engine,
    out: *mut hayanagi_event,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        poll_with(e, buf, cap, out_len, |ev| {
            let mut c = types::empty_event();
            if let Some((ev, _)) = ev {
                c.kind = ev.kind;
                if let Some(info) = &ev.info {
                    c.info = types::info_to_c(info, std::ptr::null());
                }
            }
            // SAFETY: non-null out-param.
            unsafe { out.write(c) };
        })
    })
}

/// `hayanagi_engine_poll_event` with the event's search id and drop count
/// (`hayanagi_event2`; set `out->struct_size = sizeof(hayanagi_event2)` first,
/// `HAYANAGI_INVALID_ARG` when it is smaller than the first version).
#[no_mangle]
pub extern "C" fn hayanagi_engine_poll_event2(
    engine: *mut hayanagi_engine,
    out: *mut hayanagi_event2,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null; the header requires `struct_size` to be set.
        let size = unsafe { std::ptr::addr_of!((*out).struct_size).read_unaligned() };
        if size < types::EVENT2_V1_SIZE {
            return e.fail(
                HAYANAGI_INVALID_ARG,
                "out->struct_size is smaller than the first hayanagi_event2",
            );
        }
        poll_with(e, buf, cap, out_len, |ev| {
            let mut c = hayanagi_event2 {
                struct_size: size.min(std::mem::size_of::<hayanagi_event2>()),
                kind: HAYANAGI_EVENT_NONE,
                search_id: 0,
                dropped_info: 0,
                info: types::empty_event().info,
            };
            if let Some((ev, dropped)) = ev {
                c.kind = ev.kind;
                c.search_id = ev.search_id;
                c.dropped_info = dropped;
                if let Some(info) = &ev.info {
                    c.info = types::info_to_c(info, std::ptr::null());
                }
            }
            // SAFETY: the host's struct has `size` writable bytes; we write at most ours.
            unsafe { write_versioned(out, &c, size) };
        })
    })
}

/// The id of the current search, or of the last one when none runs, into `*out`: 0 before
/// the first, then one more for each `go` or `go_mate` that returned `HAYANAGI_OK` (and
/// each search the USI channel started). Read it right after `go` to know the id its
/// events will carry.
#[no_mangle]
pub extern "C" fn hayanagi_engine_search_id(
    engine: *const hayanagi_engine,
    out: *mut u64,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null out-param.
        unsafe { out.write(e.engine.search_id()) };
        HAYANAGI_OK
    })
}

/// Inside one of this engine's callbacks: the id of the search the callback reports on
/// into `*out` (an info report's or best move's own search, even when the host has
/// started the next search meanwhile), or 0 for a log message or USI line not tied to a
/// search. `HAYANAGI_INVALID_ARG` outside this engine's callbacks.
#[no_mangle]
pub extern "C" fn hayanagi_engine_callback_search_id(
    engine: *const hayanagi_engine,
    out: *mut u64,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        if !e.in_own_callback() {
            return e.fail(
                HAYANAGI_INVALID_ARG,
                "hayanagi_engine_callback_search_id called outside this engine's callbacks",
            );
        }
        // SAFETY: non-null out-param.
        unsafe { out.write(crate::engine::reporting_search_id()) };
        HAYANAGI_OK
    })
}

// ----- table -------------------------------------------------------------------------------

fn probe_to_c(p: Option<crate::engine::TtProbe>) -> hayanagi_tt_probe {
    let mut out = types::empty_probe();
    if let Some(p) = p {
        out.found = true;
        let m = p.best_move.unwrap_or(p.raw_move);
        strings::write_fixed(
            &if m.is_some() { m.usi() } else { String::new() },
            &mut out.move_usi,
        );
        out.move_legal = p.best_move.is_some();
        let (kind, value) = score_to_c(p.score);
        out.score_kind = kind;
        out.score_value = value;
        out.depth = p.depth;
        out.bound = bound_to_c(p.bound);
        out.generation = p.generation;
    }
    out
}

fn score_to_c(s: Score) -> (i32, i32) {
    match s {
        Score::Cp(v) => (HAYANAGI_SCORE_CP, v),
        Score::Mate(n) => (HAYANAGI_SCORE_MATE, n),
    }
}

pub(crate) fn bound_to_c(b: ScoreBound) -> i32 {
    match b {
        ScoreBound::Exact => HAYANAGI_BOUND_EXACT,
        ScoreBound::Lower => HAYANAGI_BOUND_LOWER,
        ScoreBound::Upper => HAYANAGI_BOUND_UPPER,
    }
}

/// Probe the table for the current position, or for `position` (USI position syntax) when
/// it is not NULL. `out->found` tells whether there was an entry.
#[no_mangle]
pub extern "C" fn hayanagi_engine_probe_tt(
    engine: *const hayanagi_engine,
    position: *const c_char,
    out: *mut hayanagi_tt_probe,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        let probe = if position.is_null() {
            e.engine.probe_tt()
        } else {
            let text = str_arg!(e, position, "position");
            match Position::from_usi_position(text) {
                Ok(p) => e.engine.probe_tt_at(&p),
                Err(err) => return e.engine_error(EngineError::Position(err)),
            }
        };
        // SAFETY: non-null out-param.
        unsafe { out.write(probe_to_c(probe)) };
        HAYANAGI_OK
    })
}

/// Probe the table by Zobrist key (the move is reported unchecked).
#[no_mangle]
pub extern "C" fn hayanagi_engine_probe_tt_key(
    engine: *const hayanagi_engine,
    key: u64,
    out: *mut hayanagi_tt_probe,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null out-param.
        unsafe { out.write(probe_to_c(e.engine.probe_tt_key(key))) };
        HAYANAGI_OK
    })
}

/// Permille of the table used by the current generation.
#[no_mangle]
pub extern "C" fn hayanagi_engine_hashfull(
    engine: *const hayanagi_engine,
    out: *mut u32,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null out-param.
        unsafe { out.write(e.engine.hashfull()) };
        HAYANAGI_OK
    })
}

/// Forget the table's contents.
#[no_mangle]
pub extern "C" fn hayanagi_engine_clear_hash(engine: *mut hayanagi_engine) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        e.status_of(e.engine.clear_hash())
    })
}

/// Use `table` from now on (shared with any other engine using it). Engines that share a
/// table should evaluate alike (the same net or none): the table keeps static evals, so a
/// search with another evaluation clears it first.
#[no_mangle]
pub extern "C" fn hayanagi_engine_set_table(
    engine: *mut hayanagi_engine,
    table: *const hayanagi_table,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, table, "table");
        // SAFETY: non-null table handle from `hayanagi_table_new`.
        let t = unsafe { &*table };
        e.status_of(e.engine.share_tt(t.tt.clone()))
    })
}

// ----- position helpers --------------------------------------------------------------------

/// The current position as SFEN.
#[no_mangle]
pub extern "C" fn hayanagi_engine_sfen(
    engine: *const hayanagi_engine,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let st = copy_out(&e.engine.position().to_sfen(), buf, cap, out_len);
        e.report_copy(st, buf, "buffer too small for the SFEN")
    })
}

/// The legal moves of the current position, space-separated USI, in ASCII order.
#[no_mangle]
pub extern "C" fn hayanagi_engine_legal_moves(
    engine: *const hayanagi_engine,
    buf: *mut c_char,
    cap: usize,
    out_len: *mut usize,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        let moves: Vec<String> = e.engine.legal_moves().iter().map(|m| m.usi()).collect();
        let st = copy_out(&moves.join(" "), buf, cap, out_len);
        e.report_copy(st, buf, "buffer too small for the move list")
    })
}

/// Is `usi_move` legal in the current position? Malformed text is simply not legal.
#[no_mangle]
pub extern "C" fn hayanagi_engine_is_legal(
    engine: *const hayanagi_engine,
    usi_move: *const c_char,
    out: *mut bool,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        let text = str_arg!(e, usi_move, "usi_move");
        let ok = e.engine.position().parse_usi_move(text).is_ok();
        // SAFETY: non-null out-param.
        unsafe { out.write(ok) };
        HAYANAGI_OK
    })
}

/// Perft of the current position (depth 0 to 10, as for USI `perft` and the CLI).
#[no_mangle]
pub extern "C" fn hayanagi_engine_perft(
    engine: *const hayanagi_engine,
    depth: u32,
    out: *mut u64,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        let n = match e.engine.perft(depth as u64) {
            Ok(n) => n,
            Err(err) => return e.engine_error(err),
        };
        // SAFETY: non-null out-param.
        unsafe { out.write(n) };
        HAYANAGI_OK
    })
}

/// Static evaluation of the current position for the side to move: the loaded NNUE net's
/// (output / `FV_SCALE`) when it can evaluate the position, else the hand-crafted one
/// (centipawns). The same value as the USI `eval` command.
#[no_mangle]
pub extern "C" fn hayanagi_engine_evaluate(
    engine: *const hayanagi_engine,
    out: *mut i32,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, out, "out");
        // SAFETY: non-null out-param.
        unsafe { out.write(e.engine.evaluate()) };
        HAYANAGI_OK
    })
}

/// The game state of the current position under the engine's rules (`EnteringKingRule`,
/// `MaxMovesToDraw`):
/// `*state` is a `HAYANAGI_GAME_*` value and `*winner` 0 (black), 1 (white) or -1.
#[no_mangle]
pub extern "C" fn hayanagi_engine_game_state(
    engine: *const hayanagi_engine,
    state: *mut i32,
    winner: *mut i32,
) -> hayanagi_status {
    ffi_boundary(|| {
        let e = engine_ref!(engine);
        require!(e, state, "state");
        require!(e, winner, "winner");
        let (s, w) = game_state_codes(e.engine.game_state());
        // SAFETY: both out-params are non-null.
        unsafe {
            state.write(s);
            winner.write(w);
        }
        HAYANAGI_OK
    })
}

/// What a failed copy into a caller buffer records as the last error, or `None` when there
/// is nothing to record: success, or a size query (`buf` NULL, `cap` 0), which is no failure
/// worth recording and leaves the last error alone.
fn copy_failure(st: hayanagi_status, buf: *mut c_char, too_small: &str) -> Option<&str> {
    match st {
        HAYANAGI_OK => None,
        HAYANAGI_BUFFER_TOO_SMALL if buf.is_null() => None,
        HAYANAGI_NULL_ARG => Some("buf is NULL while cap is not 0"),
        _ => Some(too_small),
    }
}

/// A position error as the C ABI words it: moves counted from 0.
fn position_message(e: &PositionError) -> String {
    match e {
        PositionError::Move { index, error, sfen } => {
            format!("move {} (0-based): {error} in position {sfen}", index - 1)
        }
        other => other.to_string(),
    }
}

/// A game state as the C ABI's (`HAYANAGI_GAME_*` code, winner 0 / 1 / -1).
fn game_state_codes(state: GameState) -> (i32, i32) {
    match state {
        GameState::Ongoing => (HAYANAGI_GAME_ONGOING, -1),
        GameState::Draw(_) => (HAYANAGI_GAME_DRAW, -1),
        GameState::Win { winner, reason } => {
            let code = match reason {
                crate::shogi::WinReason::Checkmate => HAYANAGI_GAME_CHECKMATE,
                crate::shogi::WinReason::PerpetualCheck => HAYANAGI_GAME_PERPETUAL_CHECK,
                crate::shogi::WinReason::Declaration | crate::shogi::WinReason::Try => {
                    HAYANAGI_GAME_DECLARATION
                }
            };
            (code, if winner == Color::Black { 0 } else { 1 })
        }
    }
}

// The light position handle (after the helpers above, which it uses).
mod position;
pub use position::*;
