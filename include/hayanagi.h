/*
 * hayanagi: an embeddable shogi engine. C API.
 *
 * Conventions
 *   - Every fallible function returns a hayanagi_status (HAYANAGI_OK == 0) and writes its
 *     results to out-parameters only on success. hayanagi_status_str() describes a code;
 *     hayanagi_engine_last_error() / hayanagi_last_error() give the message of a failure.
 *   - Strings passed in are NUL-terminated UTF-8 and need only live for the call. Strings
 *     coming out are copied into caller buffers (buf, cap, *out_len; always NUL-terminated;
 *     HAYANAGI_BUFFER_TOO_SMALL puts the needed length, without the NUL, in *out_len) or
 *     are borrowed for the duration of a callback. The caller never frees library memory
 *     except through the *_free functions; *_free(NULL) is a no-op.
 *
 * Thread safety
 *   - Different engines are independent and may be used from different threads at once.
 *   - One engine may be called from several threads: every call is internally
 *     synchronised. hayanagi_engine_stop() and hayanagi_engine_ponderhit() never block and
 *     may be called from any thread at any time; hayanagi_engine_go() returns at once (it
 *     never loads a net; it reads a book file and resizes the table only if ready() did
 *     not); hayanagi_engine_wait() blocks the caller only; hayanagi_engine_ready() does the
 *     heavy loading (table, book, NNUE net).
 *   - The info, best-move and mate callbacks run on the engine's own search thread, never
 *     on the thread that called go(). The log callback runs on the thread whose call
 *     produced the message: the search thread during a search, the caller of ready() or
 *     go() for loading messages. The USI output callback runs on the thread that produced
 *     the line (see hayanagi_engine_set_usi_output_callback). The user_data you pass must
 *     be usable from those threads.
 *   - No lock of the library is held while a callback runs, and no call waits for another
 *     thread's callback (only wait() and free() wait, for the search). Inside a callback of
 *     an engine, go(), go_mate(), wait(), free(), usi_command() and the callback setters of
 *     that engine return HAYANAGI_REENTRANT; every other function may be called there and
 *     answers as it would elsewhere (e.g. HAYANAGI_BUSY for set_position() while the
 *     search runs). Hosts that must stay on their own thread (game engines) can use
 *     hayanagi_engine_enable_events() and hayanagi_engine_poll_event2() (or the first
 *     hayanagi_engine_poll_event()) instead of callbacks: a bounded queue that holds one
 *     search's events, each with its search id.
 *   - Search ids: each go()/go_mate() that succeeds (and each search of the USI channel)
 *     starts search 1, 2, ...; hayanagi_engine_search_id() gives the current one and,
 *     inside a callback, hayanagi_engine_callback_search_id() the one the callback reports
 *     on (a best move may be delivered after the next go() returned).
 *   - hayanagi_engine_free() may run on any thread (e.g. a finalizer): it stops and joins a
 *     running search, whose best move is still delivered, then releases user data. Like
 *     any free, it must not race with another call on the same handle (e.g. a wait() in
 *     progress on another thread): the host makes sure no call is in flight.
 *   - A callback setter that fails (BUSY, REENTRANT) leaves the new user_data with the
 *     caller: its free function is not called. One that succeeds releases the previous
 *     user_data at once, or, when a call of the previous callback is running on another
 *     thread, as soon as that call returns (on that thread).
 *   - While a search runs, set_position, set_option, the callback setters, ready,
 *     new_game, clear_hash, set_table, go and go_mate return HAYANAGI_BUSY. A search stops
 *     running when its answer is final, just before its best-move (or mate) callback is
 *     called: from then on those calls go through at once from any thread, so a host may
 *     answer a best move with set_position() and go() while the callback has not returned
 *     (that search starts when the callback returns; after a change of Threads it may start
 *     at once, on new threads). wait() returns, and
 *     is_searching() turns false, only once the callback has returned.
 *   - Every successful go() yields exactly one best move ("resign" when mated, "win" for
 *     an entering-king declaration), also when stopped at once.
 *
 * ABI growth
 *   - HAYANAGI_ABI_VERSION changes only with an incompatible change. An existing struct's
 *     layout never changes: new fields come as new structs or functions, or at the end of
 *     a struct that begins with struct_size (hayanagi_limits, hayanagi_engine_config). Such
 *     a struct is accepted with any struct_size from its first version's size on: fields a
 *     smaller (older) struct lacks take their defaults, fields of a larger (newer) one that
 *     this library does not know are ignored. Status codes and constants keep their numbers
 *     forever; a retired one's number is never reused.
 *
 * Memory
 *   - Memory whose size the host chooses (USI_Hash / hash_mib, hayanagi_table_new, MateHash,
 *     a book file, an NNUE net) never aborts the process: a request above 7/8 of the memory
 *     available to the process (the system's available memory, a cgroup limit and
 *     RLIMIT_AS, whichever is least) is refused, the allocation itself may fail, and on
 *     Linux the table's pages are populated at once (MADV_POPULATE_WRITE), so that memory
 *     that is not there is found now and not by the OOM killer later. A refusal answers
 *     HAYANAGI_NO_MEMORY with a message and changes nothing: a table that cannot be resized
 *     stays as it was, and the USI_Hash option then reads back its size; a mate table that
 *     cannot grow keeps its size (the search still answers).
 */

#ifndef HAYANAGI_H
#define HAYANAGI_H

/* Generated by cbindgen from src/ffi/; do not edit. Regenerate with
   HAYANAGI_UPDATE_HEADER=1 cargo test --release --test header */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HAYANAGI_VERSION_MAJOR 0
#define HAYANAGI_VERSION_MINOR 1
#define HAYANAGI_VERSION_PATCH 0
#define HAYANAGI_VERSION_STRING "0.1.0"


/**
 * Version of the C ABI. Incremented on any incompatible change.
 */
#define HAYANAGI_ABI_VERSION 1

/**
 * `hayanagi_option_info.kind`: an integer in `min..=max`.
 */
#define HAYANAGI_OPTION_SPIN 0

/**
 * `hayanagi_option_info.kind`: `true` or `false`.
 */
#define HAYANAGI_OPTION_CHECK 1

/**
 * `hayanagi_option_info.kind`: one of `choices` words (`HAYANAGI_OPTION_TEXT_CHOICES`).
 */
#define HAYANAGI_OPTION_COMBO 2

/**
 * `hayanagi_option_info.kind`: any text.
 */
#define HAYANAGI_OPTION_STRING 3

/**
 * `hayanagi_option_info.kind`: a file name (any text; a GUI offers a file dialog).
 */
#define HAYANAGI_OPTION_FILENAME 4

/**
 * Option flag: a developer or tuning option, not printed by USI `usi`; the enumeration
 * lists it only when asked with this flag. Still settable by name.
 */
#define HAYANAGI_OPTION_HIDDEN 1

/**
 * Option flag: checked when set, used at the next `hayanagi_engine_ready` (or `go`).
 */
#define HAYANAGI_OPTION_AT_READY 2

/**
 * `hayanagi_engine_option_text`: the default value, as `hayanagi_engine_set_option`
 * takes it.
 */
#define HAYANAGI_OPTION_TEXT_DEFAULT 0

/**
 * `hayanagi_engine_option_text`: the choices of a combo, space-separated (empty
 * otherwise).
 */
#define HAYANAGI_OPTION_TEXT_CHOICES 1

/**
 * `hayanagi_engine_option_text`: one line saying what the option does.
 */
#define HAYANAGI_OPTION_TEXT_HELP 2

/**
 * `hayanagi_engine_option_text`: the USI `option name ... type ...` line.
 */
#define HAYANAGI_OPTION_TEXT_USI 3

/**
 * `score_kind`: centipawns.
 */
#define HAYANAGI_SCORE_CP 0

/**
 * `score_kind`: mate in `score_value` plies (negative: being mated).
 */
#define HAYANAGI_SCORE_MATE 1

/**
 * Score bounds.
 */
#define HAYANAGI_BOUND_EXACT 0

#define HAYANAGI_BOUND_LOWER 1

#define HAYANAGI_BOUND_UPPER 2

/**
 * Event kinds for `hayanagi_engine_poll_event`.
 */
#define HAYANAGI_EVENT_NONE 0

#define HAYANAGI_EVENT_INFO 1

#define HAYANAGI_EVENT_BESTMOVE 2

/**
 * The answer of a mate search (`hayanagi_engine_go_mate`); the text is its `checkmate` line.
 */
#define HAYANAGI_EVENT_MATE 3

/**
 * `hayanagi_mate_result.kind`: a forced mate was found (its moves are given).
 */
#define HAYANAGI_MATE_FOUND 1

/**
 * `hayanagi_mate_result.kind`: proven that there is no forced mate.
 */
#define HAYANAGI_MATE_NONE 2

/**
 * `hayanagi_mate_result.kind`: the time or node limit (or stop) came first.
 */
#define HAYANAGI_MATE_TIMEOUT 3

/**
 * `hayanagi_engine_go_mate` flag: answer the first mate proven instead of settling the
 * shortest (faster; the line is a mate but may be longer than necessary).
 */
#define HAYANAGI_MATE_ANY_LENGTH 1

/**
 * Game states for `hayanagi_engine_game_state`.
 */
#define HAYANAGI_GAME_ONGOING 0

#define HAYANAGI_GAME_DRAW 1

#define HAYANAGI_GAME_CHECKMATE 2

#define HAYANAGI_GAME_PERPETUAL_CHECK 3

#define HAYANAGI_GAME_DECLARATION 4

/**
 * An engine handle. Opaque to C.
 */
typedef struct hayanagi_engine hayanagi_engine;

/**
 * A position with the moves played on it. Opaque to C. Calls on one handle from several
 * threads are serialised by its lock.
 */
typedef struct hayanagi_position hayanagi_position;

/**
 * A transposition table that several engines may share. Opaque to C.
 */
typedef struct hayanagi_table hayanagi_table;

/**
 * Status code returned by every fallible function (0 = success).
 */
typedef int32_t hayanagi_status;

/**
 * Limits of a search. Initialise with `hayanagi_limits_init` (every field "not set"),
 * then set what you need. Times are milliseconds: negative means "not set", 0 is a real
 * value (`movetime_ms = 0`: move at once; a clock of 0: a move at once). Counts (`depth`,
 * `nodes`, `multipv`): 0 means "not set". With nothing set the search runs until stop.
 * The engine's request rules apply the same to every front end (depth capped at the
 * deepest iteration, multipv 1-32).
 */
typedef struct hayanagi_limits {
  size_t struct_size;
  int64_t btime_ms;
  int64_t wtime_ms;
  int64_t binc_ms;
  int64_t winc_ms;
  int64_t byoyomi_ms;
  int64_t movetime_ms;
  /**
   * Moves to the next time control (accepted; the time manager plans its own horizon).
   */
  int32_t movestogo;
  int32_t depth;
  int64_t nodes;
  bool infinite;
  bool ponder;
  /**
   * 1-32, or 0 for the MultiPV option.
   */
  uint32_t multipv;
  /**
   * Space-separated USI moves to restrict the root to, or NULL.
   */
  const char *searchmoves;
} hayanagi_limits;

/**
 * Options for `hayanagi_engine_new`. Set `struct_size = sizeof(hayanagi_engine_config)`
 * (any size from this first version's on is accepted: see "ABI growth" at the top).
 */
typedef struct hayanagi_engine_config {
  size_t struct_size;
  /**
   * Table size in MiB (0 = default 16).
   */
  uint32_t hash_mib;
  /**
   * Search threads, 1-256 (0 = default 1).
   */
  uint32_t threads;
} hayanagi_engine_config;

/**
 * What `hayanagi_engine_option_info` tells of one option. Its layout never changes.
 */
typedef struct hayanagi_option_info {
  /**
   * `HAYANAGI_OPTION_SPIN`, `_CHECK`, `_COMBO`, `_STRING` or `_FILENAME`.
   */
  int32_t kind;
  /**
   * `HAYANAGI_OPTION_HIDDEN` and `HAYANAGI_OPTION_AT_READY` bits.
   */
  uint32_t flags;
  /**
   * The range of a spin option (0 otherwise).
   */
  int64_t min;
  int64_t max;
  /**
   * How many choices a combo option has (0 otherwise).
   */
  uint32_t choices;
} hayanagi_option_info;

/**
 * The answer of a mate search.
 */
typedef struct hayanagi_mate_result {
  /**
   * `HAYANAGI_MATE_FOUND`, `HAYANAGI_MATE_NONE` or `HAYANAGI_MATE_TIMEOUT`.
   */
  int32_t kind;
  /**
   * Length of the mating line in plies (0 unless found).
   */
  uint32_t plies;
  /**
   * True when no shorter mate exists: always for a mate in 1; otherwise only when the
   * shortest length was settled, which `HAYANAGI_MATE_ANY_LENGTH` searches do not try
   * and a limit may cut short.
   */
  bool shortest;
  uint64_t nodes;
  uint64_t time_ms;
} hayanagi_mate_result;

/**
 * One info report.
 */
typedef struct hayanagi_info {
  uint32_t depth;
  uint32_t seldepth;
  uint32_t multipv;
  /**
   * `HAYANAGI_SCORE_CP` or `HAYANAGI_SCORE_MATE`.
   */
  int32_t score_kind;
  int32_t score_value;
  /**
   * `HAYANAGI_BOUND_*`.
   */
  int32_t bound;
  uint64_t nodes;
  uint64_t nps;
  uint64_t time_ms;
  uint32_t hashfull;
  /**
   * The principal variation as space-separated USI moves; valid during the callback
   * only; NULL in polled events.
   */
  const char *pv;
} hayanagi_info;

/**
 * Receives info reports (`info` and `usi_line` are valid during the call only). NULL
 * clears the callback.
 */
typedef void (*hayanagi_info_callback)(void *user_data,
                                       const struct hayanagi_info *info,
                                       const char *usi_line);

/**
 * Releases a callback's user data.
 */
typedef void (*hayanagi_free_callback)(void *user_data);

/**
 * Receives the best move (`ponder` may be NULL). NULL clears the callback.
 */
typedef void (*hayanagi_bestmove_callback)(void *user_data, const char *bestmove, const char *ponder);

/**
 * Receives diagnostics. NULL clears the callback.
 */
typedef void (*hayanagi_log_callback)(void *user_data, const char *message);

/**
 * Receives the answer of a mate search: the result and its moves (space-separated USI,
 * empty unless found), both valid during the call only. NULL clears the callback.
 */
typedef void (*hayanagi_mate_callback)(void *user_data,
                                       const struct hayanagi_mate_result *result,
                                       const char *moves);

/**
 * Receives one USI output line of the text channel (no newline). NULL clears the callback.
 */
typedef void (*hayanagi_usi_output_callback)(void *user_data, const char *line);

/**
 * Counters of the poll queue (`hayanagi_engine_event_stats`). Set `struct_size` as for
 * `hayanagi_event2`. The counts run from the last `hayanagi_engine_enable_events(true)`.
 */
typedef struct hayanagi_event_stats {
  size_t struct_size;
  /**
   * Events in the queue now.
   */
  uint64_t queued;
  /**
   * The queue's capacity (`hayanagi_engine_set_event_capacity`).
   */
  uint64_t capacity;
  /**
   * Info events dropped because the queue was full (oldest first).
   */
  uint64_t dropped_full;
  /**
   * Events dropped because a later search had started before they were polled (all
   * kinds).
   */
  uint64_t dropped_stale;
  /**
   * Of `dropped_stale`, the best-move and mate events (one per search at most).
   */
  uint64_t dropped_stale_final;
} hayanagi_event_stats;

/**
 * A polled event.
 */
typedef struct hayanagi_event {
  /**
   * `HAYANAGI_EVENT_*`.
   */
  int32_t kind;
  /**
   * Filled for `HAYANAGI_EVENT_INFO`.
   */
  struct hayanagi_info info;
} hayanagi_event;

/**
 * A polled event with the id of the search it belongs to (`hayanagi_engine_poll_event2`).
 * Set `struct_size = sizeof(hayanagi_event2)` before the call: the library writes that
 * many bytes at most (a smaller struct from an older header gets the fields it has; the
 * first version's size is the smallest accepted), and this struct only ever grows at
 * its end.
 */
typedef struct hayanagi_event2 {
  size_t struct_size;
  /**
   * `HAYANAGI_EVENT_*` (`HAYANAGI_EVENT_NONE` when the queue is empty).
   */
  int32_t kind;
  /**
   * The search the event belongs to: the id `hayanagi_engine_search_id` gave for it
   * (1, 2, ... one per started `go`/`go_mate`, USI channel searches included).
   */
  uint64_t search_id;
  /**
   * Info events of this search dropped so far because the queue was full (the oldest
   * info events go first; best moves and mate answers are never dropped for room).
   * On the search's best-move or mate event it is the search's final count.
   */
  uint64_t dropped_info;
  /**
   * Filled for `HAYANAGI_EVENT_INFO` (`pv` is NULL: the PV is in the text).
   */
  struct hayanagi_info info;
} hayanagi_event2;

/**
 * A transposition-table probe.
 */
typedef struct hayanagi_tt_probe {
  bool found;
  /**
   * The stored move in USI (empty when none).
   */
  char move_usi[8];
  /**
   * True when the move was checked legal in the probed position.
   */
  bool move_legal;
  int32_t score_kind;
  int32_t score_value;
  int32_t depth;
  int32_t bound;
  uint8_t generation;
} hayanagi_tt_probe;

/**
 * Success.
 */
#define HAYANAGI_OK 0

/**
 * A required pointer argument was NULL.
 */
#define HAYANAGI_NULL_ARG 1

/**
 * An argument is out of range or otherwise invalid (includes invalid UTF-8, unknown option
 * names and bad option values).
 */
#define HAYANAGI_INVALID_ARG 2

/**
 * Text (an SFEN or position string) could not be parsed.
 */
#define HAYANAGI_PARSE 3

/**
 * A move is malformed or illegal in its position.
 */
#define HAYANAGI_ILLEGAL_MOVE 4

/**
 * A search is running.
 */
#define HAYANAGI_BUSY 5

/**
 * Called from inside one of the same engine's callbacks, where it is not allowed.
 */
#define HAYANAGI_REENTRANT 6

/**
 * An output buffer is too small; the needed length was written to `*out_len`.
 */
#define HAYANAGI_BUFFER_TOO_SMALL 7

/**
 * A wait timed out.
 */
#define HAYANAGI_TIMEOUT 8

/**
 * A file is missing or unreadable.
 */
#define HAYANAGI_IO 9

/**
 * A file has bad contents.
 */
#define HAYANAGI_FORMAT 10

/**
 * An internal error was caught at the boundary.
 */
#define HAYANAGI_PANIC 11

/**
 * The engine failed earlier (its search thread died) and cannot continue.
 */
#define HAYANAGI_POISONED 12

/**
 * Memory the call asked for (a table size, search threads) cannot be had: the request is
 * above 7/8 of the memory available to the process (system, cgroup and `RLIMIT_AS` limits
 * counted), or the system refused it. Nothing was changed: the engine keeps its table.
 */
#define HAYANAGI_NO_MEMORY 13

#ifdef __cplusplus
extern "C" {
#endif // __cplusplus

/**
 * The ABI version (`HAYANAGI_ABI_VERSION` of the header the library was built with).
 */
uint32_t hayanagi_abi_version(void);

/**
 * The library version as a static string, e.g. "0.1.0".
 */
const char *hayanagi_version_string(void);

/**
 * A static description of a status code.
 */
const char *hayanagi_status_str(hayanagi_status status);

/**
 * Copy the message of the last failure on the calling thread into `buf`.
 */
hayanagi_status hayanagi_last_error(char *buf, size_t cap, size_t *out_len);

/**
 * Fill `limits` with defaults: every limit unset (times -1, counts 0, no flags; an
 * infinite search unless one is set).
 */
hayanagi_status hayanagi_limits_init(struct hayanagi_limits *limits);

/**
 * A table of `size_mib` MiB (1 to 1048576) that engines can share.
 * `HAYANAGI_NO_MEMORY` when that much memory cannot be had (see the status code).
 */
hayanagi_status hayanagi_table_new(uint32_t size_mib, struct hayanagi_table **out);

/**
 * Release a table handle (NULL is fine). Engines using the table keep it alive.
 */
hayanagi_status hayanagi_table_free(struct hayanagi_table *table);

/**
 * Create an engine. `config` may be NULL (defaults); when given, its `struct_size` must be
 * at least the size of the first version of the struct (a larger one, from a newer
 * header, is fine: the fields this library does not know are ignored). `HAYANAGI_NO_MEMORY` when the
 * table (`config->hash_mib`) cannot be had; nothing is created then.
 */
hayanagi_status hayanagi_engine_new(const struct hayanagi_engine_config *config,
                                    struct hayanagi_engine **out);

/**
 * Destroy an engine: stops and joins a running search (its best move is still delivered),
 * then releases the callbacks' user data. NULL is fine. May be called from any thread
 * except from inside this engine's own callbacks (`HAYANAGI_REENTRANT`; the engine is then
 * not freed: free it later from another thread). Like any free, it must not race with
 * another call on the same handle: a host whose threads share a handle (a `wait` on one,
 * a finalizer on another) must make sure no call is in flight when it frees.
 */
hayanagi_status hayanagi_engine_free(struct hayanagi_engine *engine);

/**
 * Copy this engine's last error message into `buf`.
 */
hayanagi_status hayanagi_engine_last_error(const struct hayanagi_engine *engine,
                                           char *buf,
                                           size_t cap,
                                           size_t *out_len);

/**
 * Set an option by its USI name or an alias (case-insensitive): every option
 * `hayanagi_engine_option_count` / `_option_info` list, hidden ones included; the README
 * lists types and ranges. Values are validated now (`HAYANAGI_INVALID_ARG` with the reason
 * for a bad value or an unknown name); options flagged `HAYANAGI_OPTION_AT_READY` (table
 * size, book, NNUE net) take effect at `hayanagi_engine_ready`, the table and book also at
 * the next `go`, the net only at `ready` (a `go` before it says so on the log callback and
 * keeps the evaluation in place). `EvalFile`/`EvalDir` paths are made absolute against
 * the process's working directory when set.
 */
hayanagi_status hayanagi_engine_set_option(struct hayanagi_engine *engine,
                                           const char *name,
                                           const char *value);

/**
 * The value of an option (by name or alias, case-insensitive) into `buf`, as
 * `hayanagi_engine_set_option` takes it back (`true`/`false`, a number, a word, a path).
 * `HAYANAGI_INVALID_ARG` for an unknown name. For an option that takes effect at `ready`,
 * the value that will be used then (a table size that could not be had reads back the size
 * in use).
 */
hayanagi_status hayanagi_engine_get_option(const struct hayanagi_engine *engine,
                                           const char *name,
                                           char *buf,
                                           size_t cap,
                                           size_t *out_len);

/**
 * The options this engine lists: the number of them into `*out`. `flags` 0 counts those a
 * GUI is shown (as USI `usi` prints them); `HAYANAGI_OPTION_HIDDEN` counts the developer
 * and tuning options too. Indices `0..*out` go to `hayanagi_engine_option_info`, in the
 * order `usi` prints them.
 */
hayanagi_status hayanagi_engine_option_count(const struct hayanagi_engine *engine,
                                             uint32_t flags,
                                             size_t *out);

/**
 * Option `index` of the enumeration `flags` selects (see `hayanagi_engine_option_count`):
 * its kind, flags and range into `out`, its name into `buf` (as for the other text
 * getters). `HAYANAGI_INVALID_ARG` for an index out of range.
 */
hayanagi_status hayanagi_engine_option_info(const struct hayanagi_engine *engine,
                                            size_t index,
                                            uint32_t flags,
                                            struct hayanagi_option_info *out,
                                            char *buf,
                                            size_t cap,
                                            size_t *out_len);

/**
 * A text of an option (by name or alias) into `buf`: `what` is
 * `HAYANAGI_OPTION_TEXT_DEFAULT`, `_CHOICES`, `_HELP` or `_USI`.
 * `HAYANAGI_INVALID_ARG` for an unknown name or `what`.
 */
hayanagi_status hayanagi_engine_option_text(const struct hayanagi_engine *engine,
                                            const char *name,
                                            int32_t what,
                                            char *buf,
                                            size_t cap,
                                            size_t *out_len);

/**
 * Apply deferred work: table resize, book, NNUE net (`EvalFile`/`EvalDir`; a net is loaded
 * only here). The USI `isready` step. Each is tried, and the first failure is answered
 * with the reason in the last error. A table that cannot be had returns
 * `HAYANAGI_NO_MEMORY` and keeps the table in use (`USI_Hash` reads back its size). A net
 * that cannot be loaded returns `HAYANAGI_IO` (missing, not a regular file, unreadable),
 * `HAYANAGI_NO_MEMORY` (its 64 MB cannot be had) or `HAYANAGI_FORMAT` (not a HalfKP
 * 256x2-32-32 `nn.bin`: wrong version, wrong size, trailing bytes); the engine keeps the
 * evaluation it had. Hash mismatches are only warnings on the log callback.
 */
hayanagi_status hayanagi_engine_ready(struct hayanagi_engine *engine);

/**
 * Start a new game: clears the table and, at the next search, the move-ordering history.
 */
hayanagi_status hayanagi_engine_new_game(struct hayanagi_engine *engine);

/**
 * Set the position from USI `position` syntax: `startpos` or `sfen <SFEN>` (a bare SFEN is
 * accepted too), optionally followed by `moves m1 m2 ...`. On failure the previous position
 * is kept: `HAYANAGI_PARSE` for a bad SFEN, `HAYANAGI_ILLEGAL_MOVE` for a bad move (the
 * message names the move and its 0-based index).
 */
hayanagi_status hayanagi_engine_set_position(struct hayanagi_engine *engine, const char *position);

/**
 * Start a search; returns at once. `limits` may be NULL (infinite search). Exactly one
 * best move follows for every `HAYANAGI_OK`.
 */
hayanagi_status hayanagi_engine_go(struct hayanagi_engine *engine,
                                   const struct hayanagi_limits *limits);

/**
 * Start a mate search (df-pn) for the side to move in the current position; returns at
 * once. `movetime_ms < 0` and `nodes == 0` mean no such limit (with neither, it runs until
 * `hayanagi_engine_stop`). `flags`: 0 for the shortest mate, or
 * `HAYANAGI_MATE_ANY_LENGTH`. Exactly one answer follows for every `HAYANAGI_OK`: to the
 * mate callback, as a `HAYANAGI_EVENT_MATE` event, on the USI channel (`checkmate ...`)
 * and in `hayanagi_engine_last_mate`; never a best move. It counts as a search: `stop`
 * ends it (answer `HAYANAGI_MATE_TIMEOUT` unless solved), `wait` waits for it, and
 * `go`, `set_position` and `set_option` are `HAYANAGI_BUSY` meanwhile. The table size is
 * the `MateHash` option (MiB).
 */
hayanagi_status hayanagi_engine_go_mate(struct hayanagi_engine *engine,
                                        int64_t movetime_ms,
                                        uint64_t nodes,
                                        uint32_t flags);

/**
 * The answer of the last finished mate search: the result into `out`, its moves
 * (space-separated USI, empty unless found) into `buf` as for the other text getters.
 * `HAYANAGI_INVALID_ARG` when no mate search has finished on this engine. While a new
 * mate search runs, the previous answer is still the last finished one. On
 * `HAYANAGI_BUFFER_TOO_SMALL` only `*out_len` (and an empty string in `buf`) is written,
 * not `out`.
 */
hayanagi_status hayanagi_engine_last_mate(const struct hayanagi_engine *engine,
                                          struct hayanagi_mate_result *out,
                                          char *buf,
                                          size_t cap,
                                          size_t *out_len);

/**
 * Ask the search to finish now. Never blocks; a no-op when idle; allowed in callbacks.
 */
hayanagi_status hayanagi_engine_stop(struct hayanagi_engine *engine);

/**
 * The opponent played the predicted move: pondering becomes a timed search.
 */
hayanagi_status hayanagi_engine_ponderhit(struct hayanagi_engine *engine);

/**
 * Wait until the best move has been delivered. `timeout_ms < 0` waits forever;
 * `HAYANAGI_TIMEOUT` when the time ran out first.
 */
hayanagi_status hayanagi_engine_wait(struct hayanagi_engine *engine, int64_t timeout_ms);

/**
 * Is a search running (until its best move has been delivered)?
 */
hayanagi_status hayanagi_engine_is_searching(const struct hayanagi_engine *engine, bool *out);

/**
 * Set (or clear, with NULL) the info callback. It runs on the search thread and receives a
 * struct and the same report as a USI `info` line, both valid only during the call. The
 * previous user_data is released with its free function. `HAYANAGI_BUSY` while searching;
 * on any failure the new `user_data` stays the caller's (its free function is not called).
 */
hayanagi_status hayanagi_engine_set_info_callback(struct hayanagi_engine *engine,
                                                  hayanagi_info_callback callback,
                                                  void *user_data,
                                                  hayanagi_free_callback user_data_free);

/**
 * Set (or clear) the best-move callback: `bestmove` is a USI move, `resign` or `win`;
 * `ponder` is NULL when there is none. Runs on the search thread, once per `go`.
 */
hayanagi_status hayanagi_engine_set_bestmove_callback(struct hayanagi_engine *engine,
                                                      hayanagi_bestmove_callback callback,
                                                      void *user_data,
                                                      hayanagi_free_callback user_data_free);

/**
 * Set (or clear) the callback for warnings and diagnostics (the library never prints).
 */
hayanagi_status hayanagi_engine_set_log_callback(struct hayanagi_engine *engine,
                                                 hayanagi_log_callback callback,
                                                 void *user_data,
                                                 hayanagi_free_callback user_data_free);

/**
 * Set (or clear, with NULL) the mate callback: the answer of each mate search
 * (`hayanagi_engine_go_mate`), on the search thread. `HAYANAGI_BUSY` while searching.
 */
hayanagi_status hayanagi_engine_set_mate_callback(struct hayanagi_engine *engine,
                                                  hayanagi_mate_callback callback,
                                                  void *user_data,
                                                  hayanagi_free_callback user_data_free);

/**
 * Set (or clear) the receiver of the USI text channel's output: every line the engine
 * would print as a USI engine (`usiok`, `readyok`, `info ...`, `bestmove ...`,
 * `checkmate ...`, `info string ...` for warnings and errors), one call per line. It runs
 * on the thread that produced the line: the caller of `hayanagi_engine_usi_command` for
 * direct answers, the search thread for search output.
 */
hayanagi_status hayanagi_engine_set_usi_output_callback(struct hayanagi_engine *engine,
                                                        hayanagi_usi_output_callback callback,
                                                        void *user_data,
                                                        hayanagi_free_callback user_data_free);

/**
 * Send one USI command line (or several separated by newlines) to the engine, as a GUI
 * would write to a USI engine's stdin; the answers go to the USI output callback. The
 * same implementation serves the `hayanagi` binary, so every command, option and extra
 * (`d`, `perft`, `bench`, `eval`, `moves`) behaves the same. Malformed commands are
 * answered on the channel with `info string error: ...` and still return `HAYANAGI_OK`;
 * `quit` stops any search and waits for its last line. The channel and the structured
 * calls drive the same engine (position, options, table). Commands sent from several
 * threads at once run side by side (none waits for another's output callback): send one
 * conversation from one thread to keep its order.
 * `HAYANAGI_REENTRANT` from inside this engine's own callbacks.
 */
hayanagi_status hayanagi_engine_usi_command(struct hayanagi_engine *engine, const char *line);

/**
 * Queue events for `hayanagi_engine_poll_event` / `hayanagi_engine_poll_event2` (for hosts
 * that must stay on their own thread), or stop queueing. Enabling (also when already
 * enabled) starts an empty queue with zeroed counters; disabling drops queued events.
 *
 * The queue is bounded: it holds at most `hayanagi_engine_set_event_capacity` events
 * (default 4096), so a host that never polls keeps a
 * bounded amount of memory. When it is full, the oldest info event is dropped; best-move
 * and mate events are never dropped for room. The queue holds one search's events:
 * once a later search has started (a successful `go`/`go_mate`, or a search of the USI
 * channel), the events of earlier searches are dropped (also a best move delivered
 * after the next `go` returned) and no poll returns them. A host that wants every best
 * move polls it before the next `go` (or reads the callbacks). `hayanagi_engine_event_stats`
 * counts what was dropped; `hayanagi_event2.dropped_info` tells it per search.
 */
hayanagi_status hayanagi_engine_enable_events(struct hayanagi_engine *engine, bool enabled);

/**
 * Set how many events the poll queue holds at most: 2 to 1048576 (default 4096;
 * `HAYANAGI_INVALID_ARG` otherwise). Applies to the
 * queue now (the oldest info events that no longer fit are dropped and counted) and to
 * the next `enable_events(true)`. The memory grows with the events actually queued; a
 * growth the system refuses drops the event instead of aborting.
 */
hayanagi_status hayanagi_engine_set_event_capacity(struct hayanagi_engine *engine, size_t capacity);

/**
 * The counters of the poll queue into `out` (set `out->struct_size` first: see
 * `hayanagi_event2`). `HAYANAGI_INVALID_ARG` when events are not enabled or
 * `struct_size` is too small.
 */
hayanagi_status hayanagi_engine_event_stats(struct hayanagi_engine *engine,
                                            struct hayanagi_event_stats *out);

/**
 * Take the oldest queued event. `out->kind` is `HAYANAGI_EVENT_NONE` when the queue is
 * empty. The USI text of the event (an `info ...` or `bestmove ...` line) goes to `buf`;
 * when it does not fit, nothing is dequeued and `HAYANAGI_BUFFER_TOO_SMALL` reports the
 * size needed. `out->info.pv` is NULL for polled events (the PV is in the text). Events of
 * an earlier search never come out once a later one has started (see
 * `hayanagi_engine_enable_events`); `hayanagi_engine_poll_event2` also gives the search id.
 */
hayanagi_status hayanagi_engine_poll_event(struct hayanagi_engine *engine,
                                           struct hayanagi_event *out,
                                           char *buf,
                                           size_t cap,
                                           size_t *out_len);

/**
 * `hayanagi_engine_poll_event` with the event's search id and drop count
 * (`hayanagi_event2`; set `out->struct_size = sizeof(hayanagi_event2)` first,
 * `HAYANAGI_INVALID_ARG` when it is smaller than the first version).
 */
hayanagi_status hayanagi_engine_poll_event2(struct hayanagi_engine *engine,
                                            struct hayanagi_event2 *out,
                                            char *buf,
                                            size_t cap,
                                            size_t *out_len);

/**
 * The id of the current search, or of the last one when none runs, into `*out`: 0 before
 * the first, then one more for each `go` or `go_mate` that returned `HAYANAGI_OK` (and
 * each search the USI channel started). Read it right after `go` to know the id its
 * events will carry.
 */
hayanagi_status hayanagi_engine_search_id(const struct hayanagi_engine *engine, uint64_t *out);

/**
 * Inside one of this engine's callbacks: the id of the search the callback reports on
 * into `*out` (an info report's or best move's own search, even when the host has
 * started the next search meanwhile), or 0 for a log message or USI line not tied to a
 * search. `HAYANAGI_INVALID_ARG` outside this engine's callbacks.
 */
hayanagi_status hayanagi_engine_callback_search_id(const struct hayanagi_engine *engine,
                                                   uint64_t *out);

/**
 * Probe the table for the current position, or for `position` (USI position syntax) when
 * it is not NULL. `out->found` tells whether there was an entry.
 */
hayanagi_status hayanagi_engine_probe_tt(const struct hayanagi_engine *engine,
                                         const char *position,
                                         struct hayanagi_tt_probe *out);

/**
 * Probe the table by Zobrist key (the move is reported unchecked).
 */
hayanagi_status hayanagi_engine_probe_tt_key(const struct hayanagi_engine *engine,
                                             uint64_t key,
                                             struct hayanagi_tt_probe *out);

/**
 * Permille of the table used by the current generation.
 */
hayanagi_status hayanagi_engine_hashfull(const struct hayanagi_engine *engine, uint32_t *out);

/**
 * Forget the table's contents.
 */
hayanagi_status hayanagi_engine_clear_hash(struct hayanagi_engine *engine);

/**
 * Use `table` from now on (shared with any other engine using it). Engines that share a
 * table should evaluate alike (the same net or none): the table keeps static evals, so a
 * search with another evaluation clears it first.
 */
hayanagi_status hayanagi_engine_set_table(struct hayanagi_engine *engine,
                                          const struct hayanagi_table *table);

/**
 * The current position as SFEN.
 */
hayanagi_status hayanagi_engine_sfen(const struct hayanagi_engine *engine,
                                     char *buf,
                                     size_t cap,
                                     size_t *out_len);

/**
 * The legal moves of the current position, space-separated USI, in ASCII order.
 */
hayanagi_status hayanagi_engine_legal_moves(const struct hayanagi_engine *engine,
                                            char *buf,
                                            size_t cap,
                                            size_t *out_len);

/**
 * Is `usi_move` legal in the current position? Malformed text is simply not legal.
 */
hayanagi_status hayanagi_engine_is_legal(const struct hayanagi_engine *engine,
                                         const char *usi_move,
                                         bool *out);

/**
 * Perft of the current position (depth 0 to 10, as for USI `perft` and the CLI).
 */
hayanagi_status hayanagi_engine_perft(const struct hayanagi_engine *engine,
                                      uint32_t depth,
                                      uint64_t *out);

/**
 * Static evaluation of the current position for the side to move: the loaded NNUE net's
 * (output / `FV_SCALE`) when it can evaluate the position, else the hand-crafted one
 * (centipawns). The same value as the USI `eval` command.
 */
hayanagi_status hayanagi_engine_evaluate(const struct hayanagi_engine *engine, int32_t *out);

/**
 * The game state of the current position under the engine's rules (`EnteringKingRule`,
 * `MaxMovesToDraw`):
 * `*state` is a `HAYANAGI_GAME_*` value and `*winner` 0 (black), 1 (white) or -1.
 */
hayanagi_status hayanagi_engine_game_state(const struct hayanagi_engine *engine,
                                           int32_t *state,
                                           int32_t *winner);

/**
 * Create a position from `position` (NULL: the start position) in the syntax of
 * `hayanagi_engine_set_position`. `HAYANAGI_PARSE` for a bad SFEN, `HAYANAGI_ILLEGAL_MOVE`
 * for an illegal move in the list; nothing is created then.
 */
hayanagi_status hayanagi_position_new(const char *position, struct hayanagi_position **out);

/**
 * Free a position (NULL is a no-op).
 */
hayanagi_status hayanagi_position_free(struct hayanagi_position *position);

/**
 * Replace the position (same syntax and statuses as `hayanagi_position_new`); on failure
 * the previous position is kept.
 */
hayanagi_status hayanagi_position_set(struct hayanagi_position *position, const char *text);

/**
 * Play `usi_move`; `HAYANAGI_ILLEGAL_MOVE` (position unchanged) when it is not legal.
 */
hayanagi_status hayanagi_position_play(struct hayanagi_position *position, const char *usi_move);

/**
 * Take back the last move played (by `hayanagi_position_play` or in the `moves` list);
 * `HAYANAGI_INVALID_ARG` when none is left.
 */
hayanagi_status hayanagi_position_undo(struct hayanagi_position *position);

/**
 * The number of moves played since the position was set (what `undo` can take back).
 */
hayanagi_status hayanagi_position_moves_played(const struct hayanagi_position *position,
                                               uint32_t *out);

/**
 * The current position as SFEN (buffer rules of `hayanagi_engine_sfen`).
 */
hayanagi_status hayanagi_position_sfen(const struct hayanagi_position *position,
                                       char *buf,
                                       size_t cap,
                                       size_t *out_len);

/**
 * The legal moves, space-separated USI in ASCII order (as `hayanagi_engine_legal_moves`).
 */
hayanagi_status hayanagi_position_legal_moves(const struct hayanagi_position *position,
                                              char *buf,
                                              size_t cap,
                                              size_t *out_len);

/**
 * Is `usi_move` legal here? Malformed text is simply not legal.
 */
hayanagi_status hayanagi_position_is_legal(const struct hayanagi_position *position,
                                           const char *usi_move,
                                           bool *out);

/**
 * Whether the side to move is in check; `*side` 0 (black) or 1 (white) to move. Either
 * out-param may be NULL.
 */
hayanagi_status hayanagi_position_side_to_move(const struct hayanagi_position *position,
                                               int32_t *side,
                                               bool *in_check);

/**
 * Perft (depth 0 to 10, as `hayanagi_engine_perft`).
 */
hayanagi_status hayanagi_position_perft(const struct hayanagi_position *position,
                                        uint32_t depth,
                                        uint64_t *out);

/**
 * The game state under the default rules (CSA rule 27 declarations, no move limit):
 * `*state` a `HAYANAGI_GAME_*` value, `*winner` 0 (black), 1 (white) or -1.
 */
hayanagi_status hayanagi_position_game_state(const struct hayanagi_position *position,
                                             int32_t *state,
                                             int32_t *winner);

/**
 * The hand-crafted static evaluation for the side to move (centipawns; an engine's
 * `hayanagi_engine_evaluate` uses its net when one is loaded).
 */
hayanagi_status hayanagi_position_evaluate(const struct hayanagi_position *position, int32_t *out);

#ifdef __cplusplus
}  // extern "C"
#endif  // __cplusplus

#endif  /* HAYANAGI_H */
