//! C-visible types and constants. Numeric values of status codes are fixed forever; a
//! retired code's number is never reused.

use crate::search::Info;
use std::ffi::{c_char, c_void};

/// Version of the C ABI. Incremented on any incompatible change.
pub const HAYANAGI_ABI_VERSION: u32 = 1;

/// Status code returned by every fallible function (0 = success).
pub type hayanagi_status = i32;

/// Success.
pub const HAYANAGI_OK: hayanagi_status = 0;
/// A required pointer argument was NULL.
pub const HAYANAGI_NULL_ARG: hayanagi_status = 1;
/// An argument is out of range or otherwise invalid (includes invalid UTF-8, unknown option
/// names and bad option values).
pub const HAYANAGI_INVALID_ARG: hayanagi_status = 2;
/// Text (an SFEN or position string) could not be parsed.
pub const HAYANAGI_PARSE: hayanagi_status = 3;
/// A move is malformed or illegal in its position.
pub const HAYANAGI_ILLEGAL_MOVE: hayanagi_status = 4;
/// A search is running.
pub const HAYANAGI_BUSY: hayanagi_status = 5;
/// Called from inside one of the same engine's callbacks, where it is not allowed.
pub const HAYANAGI_REENTRANT: hayanagi_status = 6;
/// An output buffer is too small; the needed length was written to `*out_len`.
pub const HAYANAGI_BUFFER_TOO_SMALL: hayanagi_status = 7;
/// A wait timed out.
pub const HAYANAGI_TIMEOUT: hayanagi_status = 8;
/// A file is missing or unreadable.
pub const HAYANAGI_IO: hayanagi_status = 9;
/// A file has bad contents.
pub const HAYANAGI_FORMAT: hayanagi_status = 10;
/// An internal error was caught at the boundary.
pub const HAYANAGI_PANIC: hayanagi_status = 11;
/// The engine failed earlier (its search thread died) and cannot continue.
pub const HAYANAGI_POISONED: hayanagi_status = 12;
/// Memory the call asked for (a table size, search threads) cannot be had: the request is
/// above 7/8 of the memory available to the process (system, cgroup and `RLIMIT_AS` limits
/// counted), or the system refused it. Nothing was changed: the engine keeps its table.
pub const HAYANAGI_NO_MEMORY: hayanagi_status = 13;

/// `hayanagi_option_info.kind`: an integer in `min..=max`.
pub const HAYANAGI_OPTION_SPIN: i32 = 0;
/// `hayanagi_option_info.kind`: `true` or `false`.
pub const HAYANAGI_OPTION_CHECK: i32 = 1;
/// `hayanagi_option_info.kind`: one of `choices` words (`HAYANAGI_OPTION_TEXT_CHOICES`).
pub const HAYANAGI_OPTION_COMBO: i32 = 2;
/// `hayanagi_option_info.kind`: any text.
pub const HAYANAGI_OPTION_STRING: i32 = 3;
/// `hayanagi_option_info.kind`: a file name (any text; a GUI offers a file dialog).
pub const HAYANAGI_OPTION_FILENAME: i32 = 4;
/// Option flag: a developer or tuning option, not printed by USI `usi`; the enumeration
/// lists it only when asked with this flag. Still settable by name.
pub const HAYANAGI_OPTION_HIDDEN: u32 = 1;
/// Option flag: checked when set, used at the next `hayanagi_engine_ready` (or `go`).
pub const HAYANAGI_OPTION_AT_READY: u32 = 2;
/// `hayanagi_engine_option_text`: the default value, as `hayanagi_engine_set_option`
/// takes it.
pub const HAYANAGI_OPTION_TEXT_DEFAULT: i32 = 0;
/// `hayanagi_engine_option_text`: the choices of a combo, space-separated (empty
/// otherwise).
pub const HAYANAGI_OPTION_TEXT_CHOICES: i32 = 1;
/// `hayanagi_engine_option_text`: one line saying what the option does.
pub const HAYANAGI_OPTION_TEXT_HELP: i32 = 2;
/// `hayanagi_engine_option_text`: the USI `option name ... type ...` line.
pub const HAYANAGI_OPTION_TEXT_USI: i32 = 3;

/// What `hayanagi_engine_option_info` tells of one option. Its layout never changes.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_option_info {
    /// `HAYANAGI_OPTION_SPIN`, `_CHECK`, `_COMBO`, `_STRING` or `_FILENAME`.
    pub kind: i32,
    /// `HAYANAGI_OPTION_HIDDEN` and `HAYANAGI_OPTION_AT_READY` bits.
    pub flags: u32,
    /// The range of a spin option (0 otherwise).
    pub min: i64,
    pub max: i64,
    /// How many choices a combo option has (0 otherwise).
    pub choices: u32,
}

/// `score_kind`: centipawns.
pub const HAYANAGI_SCORE_CP: i32 = 0;
/// `score_kind`: mate in `score_value` plies (negative: being mated).
pub const HAYANAGI_SCORE_MATE: i32 = 1;

/// Score bounds.
pub const HAYANAGI_BOUND_EXACT: i32 = 0;
pub const HAYANAGI_BOUND_LOWER: i32 = 1;
pub const HAYANAGI_BOUND_UPPER: i32 = 2;

/// Event kinds for `hayanagi_engine_poll_event`.
pub const HAYANAGI_EVENT_NONE: i32 = 0;
pub const HAYANAGI_EVENT_INFO: i32 = 1;
pub const HAYANAGI_EVENT_BESTMOVE: i32 = 2;
/// The answer of a mate search (`hayanagi_engine_go_mate`); the text is its `checkmate` line.
pub const HAYANAGI_EVENT_MATE: i32 = 3;

/// `hayanagi_mate_result.kind`: a forced mate was found (its moves are given).
pub const HAYANAGI_MATE_FOUND: i32 = 1;
/// `hayanagi_mate_result.kind`: proven that there is no forced mate.
pub const HAYANAGI_MATE_NONE: i32 = 2;
/// `hayanagi_mate_result.kind`: the time or node limit (or stop) came first.
pub const HAYANAGI_MATE_TIMEOUT: i32 = 3;
/// `hayanagi_engine_go_mate` flag: answer the first mate proven instead of settling the
/// shortest (faster; the line is a mate but may be longer than necessary).
pub const HAYANAGI_MATE_ANY_LENGTH: u32 = 1;

/// Game states for `hayanagi_engine_game_state`.
pub const HAYANAGI_GAME_ONGOING: i32 = 0;
pub const HAYANAGI_GAME_DRAW: i32 = 1;
pub const HAYANAGI_GAME_CHECKMATE: i32 = 2;
pub const HAYANAGI_GAME_PERPETUAL_CHECK: i32 = 3;
pub const HAYANAGI_GAME_DECLARATION: i32 = 4;

/// Options for `hayanagi_engine_new`. Set `struct_size = sizeof(hayanagi_engine_config)`
/// (any size from this first version's on is accepted: see "ABI growth" at the top).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_engine_config {
    pub struct_size: usize,
    /// Table size in MiB (0 = default 16).
    pub hash_mib: u32,
    /// Search threads, 1-256 (0 = default 1).
    pub threads: u32,
}

/// Limits of a search. Initialise with `hayanagi_limits_init` (every field "not set"),
/// then set what you need. Times are milliseconds: negative means "not set", 0 is a real
/// value (`movetime_ms = 0`: move at once; a clock of 0: a move at once). Counts (`depth`,
/// `nodes`, `multipv`): 0 means "not set". With nothing set the search runs until stop.
/// The engine's request rules apply the same to every front end (depth capped at the
/// deepest iteration, multipv 1-32).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_limits {
    pub struct_size: usize,
    pub btime_ms: i64,
    pub wtime_ms: i64,
    pub binc_ms: i64,
    pub winc_ms: i64,
    pub byoyomi_ms: i64,
    pub movetime_ms: i64,
    /// Moves to the next time control (accepted; the time manager plans its own horizon).
    pub movestogo: i32,
    pub depth: i32,
    pub nodes: i64,
    pub infinite: bool,
    pub ponder: bool,
    /// 1-32, or 0 for the MultiPV option.
    pub multipv: u32,
    /// Space-separated USI moves to restrict the root to, or NULL.
    pub searchmoves: *const c_char,
}

/// Size of the first version of `hayanagi_engine_config`: the smallest `struct_size`
/// accepted, forever (its fields up to `threads`).
pub(super) const ENGINE_CONFIG_V1_SIZE: usize =
    std::mem::offset_of!(hayanagi_engine_config, threads) + std::mem::size_of::<u32>();
/// Size of the first version of `hayanagi_limits` (its fields up to `searchmoves`).
pub(super) const LIMITS_V1_SIZE: usize =
    std::mem::offset_of!(hayanagi_limits, searchmoves) + std::mem::size_of::<*const c_char>();

pub(super) fn default_config() -> hayanagi_engine_config {
    hayanagi_engine_config {
        struct_size: std::mem::size_of::<hayanagi_engine_config>(),
        hash_mib: 0,
        threads: 0,
    }
}

pub(super) fn default_limits() -> hayanagi_limits {
    hayanagi_limits {
        struct_size: std::mem::size_of::<hayanagi_limits>(),
        btime_ms: -1,
        wtime_ms: -1,
        binc_ms: -1,
        winc_ms: -1,
        byoyomi_ms: -1,
        movetime_ms: -1,
        movestogo: 0,
        depth: 0,
        nodes: 0,
        infinite: false,
        ponder: false,
        multipv: 0,
        searchmoves: std::ptr::null(),
    }
}

/// One info report.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    /// `HAYANAGI_SCORE_CP` or `HAYANAGI_SCORE_MATE`.
    pub score_kind: i32,
    pub score_value: i32,
    /// `HAYANAGI_BOUND_*`.
    pub bound: i32,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// The principal variation as space-separated USI moves; valid during the callback
    /// only; NULL in polled events.
    pub pv: *const c_char,
}

pub(super) fn info_to_c(i: &Info, pv: *const c_char) -> hayanagi_info {
    let (score_kind, score_value) = match i.score {
        crate::search::Score::Cp(v) => (HAYANAGI_SCORE_CP, v),
        crate::search::Score::Mate(n) => (HAYANAGI_SCORE_MATE, n),
    };
    hayanagi_info {
        depth: i.depth,
        seldepth: i.seldepth,
        multipv: i.multipv,
        score_kind,
        score_value,
        bound: super::bound_to_c(i.bound),
        nodes: i.nodes,
        nps: i.nps,
        time_ms: i.time_ms,
        hashfull: i.hashfull,
        pv,
    }
}

/// A polled event.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_event {
    /// `HAYANAGI_EVENT_*`.
    pub kind: i32,
    /// Filled for `HAYANAGI_EVENT_INFO`.
    pub info: hayanagi_info,
}

/// Events the poll queue holds at most by default (`hayanagi_engine_set_event_capacity`;
/// stated as a number in the header's docs, not a define: the header's `HAYANAGI_EVENT_*`
/// defines are event kinds).
pub(super) const EVENT_QUEUE_DEFAULT_CAPACITY: usize = 4096;
/// The largest capacity `hayanagi_engine_set_event_capacity` accepts.
pub(super) const EVENT_QUEUE_MAX_CAPACITY: usize = 1_048_576;

/// A polled event with the id of the search it belongs to (`hayanagi_engine_poll_event2`).
/// Set `struct_size = sizeof(hayanagi_event2)` before the call: the library writes that
/// many bytes at most (a smaller struct from an older header gets the fields it has; the
/// first version's size is the smallest accepted), and this struct only ever grows at
/// its end.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_event2 {
    pub struct_size: usize,
    /// `HAYANAGI_EVENT_*` (`HAYANAGI_EVENT_NONE` when the queue is empty).
    pub kind: i32,
    /// The search the event belongs to: the id `hayanagi_engine_search_id` gave for it
    /// (1, 2, ... one per started `go`/`go_mate`, USI channel searches included).
    pub search_id: u64,
    /// Info events of this search dropped so far because the queue was full (the oldest
    /// info events go first; best moves and mate answers are never dropped for room).
    /// On the search's best-move or mate event it is the search's final count.
    pub dropped_info: u64,
    /// Filled for `HAYANAGI_EVENT_INFO` (`pv` is NULL: the PV is in the text).
    pub info: hayanagi_info,
}

/// Size of the first version of `hayanagi_event2`: the smallest `struct_size` accepted.
pub(super) const EVENT2_V1_SIZE: usize = std::mem::size_of::<hayanagi_event2>();

/// Counters of the poll queue (`hayanagi_engine_event_stats`). Set `struct_size` as for
/// `hayanagi_event2`. The counts run from the last `hayanagi_engine_enable_events(true)`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_event_stats {
    pub struct_size: usize,
    /// Events in the queue now.
    pub queued: u64,
    /// The queue's capacity (`hayanagi_engine_set_event_capacity`).
    pub capacity: u64,
    /// Info events dropped because the queue was full (oldest first).
    pub dropped_full: u64,
    /// Events dropped because a later search had started before they were polled (all
    /// kinds).
    pub dropped_stale: u64,
    /// Of `dropped_stale`, the best-move and mate events (one per search at most).
    pub dropped_stale_final: u64,
}

/// Size of the first version of `hayanagi_event_stats`.
pub(super) const EVENT_STATS_V1_SIZE: usize = std::mem::size_of::<hayanagi_event_stats>();

pub(super) fn empty_event() -> hayanagi_event {
    hayanagi_event {
        kind: HAYANAGI_EVENT_NONE,
        info: hayanagi_info {
            depth: 0,
            seldepth: 0,
            multipv: 0,
            score_kind: 0,
            score_value: 0,
            bound: 0,
            nodes: 0,
            nps: 0,
            time_ms: 0,
            hashfull: 0,
            pv: std::ptr::null(),
        },
    }
}

/// The answer of a mate search.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_mate_result {
    /// `HAYANAGI_MATE_FOUND`, `HAYANAGI_MATE_NONE` or `HAYANAGI_MATE_TIMEOUT`.
    pub kind: i32,
    /// Length of the mating line in plies (0 unless found).
    pub plies: u32,
    /// True when no shorter mate exists: always for a mate in 1; otherwise only when the
    /// shortest length was settled, which `HAYANAGI_MATE_ANY_LENGTH` searches do not try
    /// and a limit may cut short.
    pub shortest: bool,
    pub nodes: u64,
    pub time_ms: u64,
}

pub(super) fn mate_result_to_c(r: &crate::search::mate::MateReport) -> hayanagi_mate_result {
    use crate::search::mate::MateResult;
    let (kind, plies) = match &r.result {
        MateResult::Mate(line) => (HAYANAGI_MATE_FOUND, line.len() as u32),
        MateResult::NoMate => (HAYANAGI_MATE_NONE, 0),
        MateResult::Timeout => (HAYANAGI_MATE_TIMEOUT, 0),
    };
    hayanagi_mate_result {
        kind,
        plies,
        shortest: r.shortest,
        nodes: r.nodes,
        time_ms: r.time_ms,
    }
}

/// A transposition-table probe.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct hayanagi_tt_probe {
    pub found: bool,
    /// The stored move in USI (empty when none).
    pub move_usi: [c_char; 8],
    /// True when the move was checked legal in the probed position.
    pub move_legal: bool,
    pub score_kind: i32,
    pub score_value: i32,
    pub depth: i32,
    pub bound: i32,
    pub generation: u8,
}

pub(super) fn empty_probe() -> hayanagi_tt_probe {
    hayanagi_tt_probe {
        found: false,
        move_usi: [0; 8],
        move_legal: false,
        score_kind: 0,
        score_value: 0,
        depth: 0,
        bound: 0,
        generation: 0,
    }
}

/// Releases a callback's user data.
pub type hayanagi_free_callback = Option<unsafe extern "C" fn(user_data: *mut c_void)>;
/// Receives info reports (`info` and `usi_line` are valid during the call only). NULL
/// clears the callback.
pub type hayanagi_info_callback = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        info: *const hayanagi_info,
        usi_line: *const c_char,
    ),
>;
/// Receives the best move (`ponder` may be NULL). NULL clears the callback.
pub type hayanagi_bestmove_callback = Option<
    unsafe extern "C" fn(user_data: *mut c_void, bestmove: *const c_char, ponder: *const c_char),
>;
/// Receives the answer of a mate search: the result and its moves (space-separated USI,
/// empty unless found), both valid during the call only. NULL clears the callback.
pub type hayanagi_mate_callback = Option<
    unsafe extern "C" fn(
        user_data: *mut c_void,
        result: *const hayanagi_mate_result,
        moves: *const c_char,
    ),
>;
/// Receives diagnostics. NULL clears the callback.
pub type hayanagi_log_callback =
    Option<unsafe extern "C" fn(user_data: *mut c_void, message: *const c_char)>;
/// Receives one USI output line of the text channel (no newline). NULL clears the callback.
pub type hayanagi_usi_output_callback =
    Option<unsafe extern "C" fn(user_data: *mut c_void, line: *const c_char)>;

pub(super) fn option_info_to_c(def: &crate::options::OptionDef) -> hayanagi_option_info {
    use crate::options::ValueKind;
    let (kind, min, max, choices) = match def.kind {
        ValueKind::Spin { min, max } => (HAYANAGI_OPTION_SPIN, min, max, 0),
        ValueKind::Check => (HAYANAGI_OPTION_CHECK, 0, 0, 0),
        ValueKind::Combo(vars) => (HAYANAGI_OPTION_COMBO, 0, 0, vars.len() as u32),
        ValueKind::String => (HAYANAGI_OPTION_STRING, 0, 0, 0),
        ValueKind::Filename => (HAYANAGI_OPTION_FILENAME, 0, 0, 0),
    };
    let mut flags = 0;
    if def.hidden {
        flags |= HAYANAGI_OPTION_HIDDEN;
    }
    if def.at_ready {
        flags |= HAYANAGI_OPTION_AT_READY;
    }
    hayanagi_option_info {
        kind,
        flags,
        min,
        max,
        choices,
    }
}
