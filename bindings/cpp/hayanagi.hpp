// hayanagi.hpp: header-only C++17 RAII wrapper over the hayanagi C API (include/hayanagi.h).
//
//   #include "hayanagi.hpp"
//
//   hayanagi::Engine engine;                                   // hayanagi_engine_new
//   engine.set_position("startpos moves 7g7f 3c3d");
//   engine.on_info([](const hayanagi_info& info, std::string_view usi_line) { ... });
//   engine.on_bestmove([](std::string_view best, std::optional<std::string_view> ponder) { ... });
//   engine.go(hayanagi::Limits().movetime(std::chrono::milliseconds(1000)));
//   engine.wait();                                             // blocks until the best move
//
//   // Or the USI text channel, for a host that already speaks USI:
//   engine.on_usi_output([](std::string_view line) { ... });   // "usiok", "info ...", ...
//   engine.usi_command("position startpos moves 7g7f\ngo byoyomi 1000");
//
// Design
//   - Errors: every failing C call throws hayanagi::Error, which carries the status code
//     (Error::status()) and the library's message (Error::message(): the text that
//     hayanagi_engine_last_error reports for that failure, read from the calling thread's
//     copy, hayanagi_last_error, so a concurrent failure on another thread cannot replace it;
//     engine-less calls have only that copy). Destructors never throw.
//   - Ownership: Engine and Table are move-only and own their handle; the destructor calls
//     the matching *_free. A moved-from object is empty (explicit operator bool is false);
//     destroying it is a no-op and calling a method on it throws Error(HAYANAGI_NULL_ARG).
//   - Strings out are copied into std::string; when the library answers
//     HAYANAGI_BUFFER_TOO_SMALL the buffer is grown to the size it reports and the call is
//     retried.
//   - Thread safety is the C API's: every Engine method may be called from any thread, as
//     long as the Engine object itself is not moved, assigned or destroyed at the same time.
//
// Callbacks (on_info, on_bestmove, on_mate, on_log, on_usi_output)
//   - They run on the ENGINE'S SEARCH THREAD, never on the thread that called go() (except
//     on_usi_output's direct answers, and loading messages of on_log: see those). Whatever
//     they capture must be usable from that thread (protect shared state with a mutex or
//     atomics; engine.wait() returning is a happens-before edge for what the best-move
//     callback wrote). They should return quickly: the search waits for them.
//   - The std::function is moved into a heap object handed to the library as user_data,
//     together with a user_data_free that deletes it. The library calls that deleter exactly
//     once: when the callback is replaced or cleared, or when the engine is destroyed (after
//     the last callback has run). The deleter, and so the destructors of your captures, runs
//     on the thread that replaces the callback or destroys the engine; those destructors must
//     not call back into the same engine.
//   - Inside a callback, stop() (and the read-only queries) work; go(), wait(),
//     usi_command(), the on_* setters and destroying the engine throw / fail with
//     HAYANAGI_REENTRANT. Replacing a callback while a search runs throws HAYANAGI_BUSY (the
//     old callback stays installed and the new std::function is destroyed at once).
//   - Exceptions thrown by a callback must not unwind through the library: the trampoline
//     catches and drops them.
//   - Never destroy an Engine from inside its own callbacks (the C library refuses with
//     HAYANAGI_REENTRANT and the handle would leak).
#ifndef HAYANAGI_HPP
#define HAYANAGI_HPP

#include "hayanagi.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace hayanagi {

/// The callback types. See the file comment: they run on the engine's search thread.
using InfoCallback = std::function<void(const hayanagi_info& info, std::string_view usi_line)>;
using BestMoveCallback =
    std::function<void(std::string_view best, std::optional<std::string_view> ponder)>;
using LogCallback = std::function<void(std::string_view message)>;
/// One output line of the USI text channel (no newline), valid during the call only.
using UsiOutputCallback = std::function<void(std::string_view line)>;
/// The answer of a mate search (go_mate): the result and its moves (space-separated USI,
/// empty unless result.kind == HAYANAGI_MATE_FOUND), valid during the call only.
using MateCallback =
    std::function<void(const hayanagi_mate_result& result, std::string_view moves)>;

// ----- errors ------------------------------------------------------------------------------

/// A failed call: the status code and the library's message for it.
class Error : public std::runtime_error {
public:
    Error(hayanagi_status status, std::string message)
        : std::runtime_error(compose(status, message)),
          status_(status),
          message_(std::move(message)) {}

    /// The HAYANAGI_* status code (never HAYANAGI_OK).
    hayanagi_status status() const noexcept { return status_; }
    /// The library's message (engine last error or thread last error); may be empty.
    const std::string& message() const noexcept { return message_; }

private:
    static std::string compose(hayanagi_status status, const std::string& message) {
        std::string s = hayanagi_status_str(status);
        if (!message.empty()) {
            s += ": ";
            s += message;
        }
        return s;
    }

    hayanagi_status status_;
    std::string message_;
};

/// Library version string, e.g. "0.1.0".
inline std::string_view version() noexcept { return hayanagi_version_string(); }
/// ABI version of the loaded library.
inline std::uint32_t abi_version() noexcept { return hayanagi_abi_version(); }
/// True when the loaded library has the ABI this header was written for.
inline bool abi_compatible() noexcept { return hayanagi_abi_version() == HAYANAGI_ABI_VERSION; }
/// Static description of a status code.
inline std::string_view status_str(hayanagi_status status) noexcept {
    return hayanagi_status_str(status);
}

namespace detail {

/// Call `fill(buf, cap, &len)` until the text fits, growing the buffer to the size the
/// library reports on HAYANAGI_BUFFER_TOO_SMALL. Returns the status of the last call.
template <class Fill>
hayanagi_status copy_out(std::string& out, std::size_t initial, Fill fill) {
    out.assign(initial == 0 ? 1 : initial, '\0');
    for (int attempt = 0; attempt < 8; ++attempt) {
        std::size_t len = 0;
        hayanagi_status st = fill(out.data(), out.size(), &len);
        if (st == HAYANAGI_OK) {
            out.resize(len);
            return st;
        }
        if (st != HAYANAGI_BUFFER_TOO_SMALL) {
            out.clear();
            return st;
        }
        // The text may grow between calls (e.g. another thread's error): retry.
        out.assign(len + 1 > out.size() ? len + 1 : out.size() * 2, '\0');
    }
    out.clear();
    return HAYANAGI_BUFFER_TOO_SMALL;
}

/// The thread-local last error message (never throws).
inline std::string thread_last_error() noexcept {
    try {
        std::string s;
        copy_out(s, 256, [](char* b, std::size_t c, std::size_t* l) {
            return hayanagi_last_error(b, c, l);
        });
        return s;
    } catch (...) {
        return std::string();
    }
}

/// The engine's last error message, or the thread's when `engine` is NULL.
inline std::string engine_last_error(const hayanagi_engine* engine) noexcept {
    if (engine == nullptr) return thread_last_error();
    try {
        std::string s;
        copy_out(s, 256, [engine](char* b, std::size_t c, std::size_t* l) {
            return hayanagi_engine_last_error(engine, b, c, l);
        });
        return s;
    } catch (...) {
        return std::string();
    }
}

/// The message of a failure that just happened on this thread. The library records every
/// failure both per engine and per thread (same text); the thread's copy is read first
/// because another thread failing on the same engine cannot overwrite it in between.
inline std::string failure_message(const hayanagi_engine* engine) noexcept {
    std::string msg = thread_last_error();
    if (msg.empty() && engine != nullptr) msg = engine_last_error(engine);
    return msg;
}

[[noreturn]] inline void throw_error(hayanagi_status st, const hayanagi_engine* engine) {
    throw Error(st, failure_message(engine));
}

inline void check(hayanagi_status st, const hayanagi_engine* engine) {
    if (st != HAYANAGI_OK) throw_error(st, engine);
}

inline void check_global(hayanagi_status st) {
    if (st != HAYANAGI_OK) throw Error(st, failure_message(nullptr));
}

template <class T>
void delete_user_data(void* user_data) noexcept {
    delete static_cast<T*>(user_data);
}

// Trampolines: C-callable functions that recover the std::function from user_data. They
// run on the engine's search thread and must not let an exception escape into the library.
inline void info_trampoline(void* user_data, const hayanagi_info* info,
                            const char* usi_line) noexcept {
    try {
        auto& f = *static_cast<InfoCallback*>(user_data);
        if (f && info != nullptr) {
            f(*info, usi_line != nullptr ? std::string_view(usi_line) : std::string_view());
        }
    } catch (...) {
        // Dropped: unwinding into the library would be undefined behaviour.
    }
}

inline void bestmove_trampoline(void* user_data, const char* best, const char* ponder) noexcept {
    try {
        auto& f = *static_cast<BestMoveCallback*>(user_data);
        if (f) {
            std::optional<std::string_view> p;
            if (ponder != nullptr) p = std::string_view(ponder);
            f(best != nullptr ? std::string_view(best) : std::string_view(), p);
        }
    } catch (...) {
    }
}

inline void mate_trampoline(void* user_data, const hayanagi_mate_result* result,
                            const char* moves) noexcept {
    try {
        auto& f = *static_cast<MateCallback*>(user_data);
        if (f && result != nullptr) {
            f(*result, moves != nullptr ? std::string_view(moves) : std::string_view());
        }
    } catch (...) {
    }
}

inline void log_trampoline(void* user_data, const char* message) noexcept {
    try {
        auto& f = *static_cast<LogCallback*>(user_data);
        if (f) f(message != nullptr ? std::string_view(message) : std::string_view());
    } catch (...) {
    }
}

inline void usi_output_trampoline(void* user_data, const char* line) noexcept {
    try {
        auto& f = *static_cast<UsiOutputCallback*>(user_data);
        if (f) f(line != nullptr ? std::string_view(line) : std::string_view());
    } catch (...) {
    }
}

}  // namespace detail

// ----- limits ------------------------------------------------------------------------------

/// Search limits: a builder over hayanagi_limits (initialised by hayanagi_limits_init, so
/// every limit starts unset; with nothing set the search is infinite). Setters chain:
///
///   engine.go(Limits().byoyomi(std::chrono::seconds(10)).btime(60000).wtime(60000));
///
/// The searchmoves text is kept as a std::string member; the pointer in the C struct is
/// taken from it only when the struct is handed to the library (to_c()).
class Limits {
public:
    using ms = std::chrono::milliseconds;

    Limits() {
        detail::check_global(hayanagi_limits_init(&raw_));
        raw_.searchmoves = nullptr;
    }

    Limits& btime(ms t) { raw_.btime_ms = t.count(); return *this; }
    Limits& wtime(ms t) { raw_.wtime_ms = t.count(); return *this; }
    Limits& binc(ms t) { raw_.binc_ms = t.count(); return *this; }
    Limits& winc(ms t) { raw_.winc_ms = t.count(); return *this; }
    Limits& byoyomi(ms t) { raw_.byoyomi_ms = t.count(); return *this; }
    Limits& movetime(ms t) { raw_.movetime_ms = t.count(); return *this; }
    Limits& btime(std::int64_t t_ms) { return btime(ms(t_ms)); }
    Limits& wtime(std::int64_t t_ms) { return wtime(ms(t_ms)); }
    Limits& binc(std::int64_t t_ms) { return binc(ms(t_ms)); }
    Limits& winc(std::int64_t t_ms) { return winc(ms(t_ms)); }
    Limits& byoyomi(std::int64_t t_ms) { return byoyomi(ms(t_ms)); }
    Limits& movetime(std::int64_t t_ms) { return movetime(ms(t_ms)); }
    Limits& movestogo(std::int32_t n) { raw_.movestogo = n; return *this; }
    Limits& depth(std::int32_t plies) { raw_.depth = plies; return *this; }
    Limits& nodes(std::int64_t n) { raw_.nodes = n; return *this; }
    Limits& infinite(bool on = true) { raw_.infinite = on; return *this; }
    Limits& ponder(bool on = true) { raw_.ponder = on; return *this; }
    /// 1-32, or 0 for the MultiPV option.
    Limits& multipv(std::uint32_t n) { raw_.multipv = n; return *this; }
    /// Space-separated USI moves to restrict the root to.
    Limits& searchmoves(std::string moves) {
        searchmoves_ = std::move(moves);
        has_searchmoves_ = true;
        return *this;
    }
    Limits& searchmoves(const std::vector<std::string>& moves) {
        std::string s;
        for (const auto& m : moves) {
            if (!s.empty()) s += ' ';
            s += m;
        }
        return searchmoves(std::move(s));
    }
    Limits& clear_searchmoves() {
        searchmoves_.clear();
        has_searchmoves_ = false;
        return *this;
    }

    /// The C struct; its searchmoves pointer borrows from *this (valid while *this is alive
    /// and unmodified).
    hayanagi_limits to_c() const noexcept {
        hayanagi_limits l = raw_;
        l.searchmoves = has_searchmoves_ ? searchmoves_.c_str() : nullptr;
        return l;
    }

    const std::string& searchmoves() const noexcept { return searchmoves_; }

private:
    hayanagi_limits raw_{};
    std::string searchmoves_;
    bool has_searchmoves_ = false;
};

// ----- table -------------------------------------------------------------------------------

/// A transposition table that several engines can share (Engine::set_table). Move-only.
/// Engines using the table keep it alive, so a Table may be destroyed before them.
class Table {
public:
    /// A table of `size_mib` MiB (1 to 1048576).
    explicit Table(std::uint32_t size_mib) {
        detail::check_global(hayanagi_table_new(size_mib, &table_));
    }
    /// Adopt a handle from hayanagi_table_new (ownership passes to the Table).
    static Table adopt(hayanagi_table* handle) noexcept { return Table(AdoptTag{}, handle); }

    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;
    Table(Table&& other) noexcept : table_(std::exchange(other.table_, nullptr)) {}
    Table& operator=(Table&& other) noexcept {
        if (this != &other) {
            reset();
            table_ = std::exchange(other.table_, nullptr);
        }
        return *this;
    }
    ~Table() { reset(); }

    explicit operator bool() const noexcept { return table_ != nullptr; }
    hayanagi_table* get() const noexcept { return table_; }
    /// Give up ownership (the caller must hayanagi_table_free the handle).
    hayanagi_table* release() noexcept { return std::exchange(table_, nullptr); }
    void reset() noexcept {
        if (table_ != nullptr) {
            hayanagi_table_free(table_);
            table_ = nullptr;
        }
    }

private:
    struct AdoptTag {};
    Table(AdoptTag, hayanagi_table* handle) noexcept : table_(handle) {}
    hayanagi_table* table_ = nullptr;
};

// ----- engine ------------------------------------------------------------------------------

/// What hayanagi_engine_probe_tt found.
struct TtEntry {
    std::string move;         ///< stored move in USI ("" when none)
    bool move_legal = false;  ///< the move was checked legal in the probed position
    std::int32_t score_kind = HAYANAGI_SCORE_CP;  ///< HAYANAGI_SCORE_CP / _MATE
    std::int32_t score_value = 0;
    std::int32_t depth = 0;
    std::int32_t bound = HAYANAGI_BOUND_EXACT;  ///< HAYANAGI_BOUND_*
    std::uint8_t generation = 0;
};

/// A polled event (Engine::poll_event).
struct Event {
    std::int32_t kind = HAYANAGI_EVENT_NONE;  ///< HAYANAGI_EVENT_*
    hayanagi_info info{};                     ///< for HAYANAGI_EVENT_INFO (info.pv is NULL)
    std::string text;                         ///< the USI line ("info ..." / "bestmove ...")
};

/// Game state of the current position (Engine::game_state).
struct GameState {
    std::int32_t state = HAYANAGI_GAME_ONGOING;  ///< HAYANAGI_GAME_*
    std::int32_t winner = -1;                    ///< 0 black, 1 white, -1 none
};

/// One engine option as the engine's option registry describes it.
struct OptionInfo {
    std::string name;
    int kind = HAYANAGI_OPTION_SPIN;  ///< HAYANAGI_OPTION_SPIN, _CHECK, _COMBO, _STRING, _FILENAME
    std::string default_value;        ///< as set_option takes it ("true"/"false" for a check)
    long long min = 0, max = 0;       ///< the range of a spin option
    std::vector<std::string> choices; ///< the words of a combo option
    bool hidden = false;              ///< a developer option, not shown by USI "usi"
    bool at_ready = false;            ///< used at the next ready() (table size, files)
    std::string help;
};

/// Options for Engine construction (hayanagi_engine_config); anything else goes through
/// Engine::set_option. Ranges and defaults are the option registry's (README option table);
/// a value outside them throws HAYANAGI_INVALID_ARG.
struct Config {
    std::uint32_t hash_mib = 0;  ///< table size in MiB (USI_Hash's range); 0 = its default
    std::uint32_t threads = 0;   ///< search threads (Threads' range); 0 = its default
};

/// An engine. Move-only; owns its hayanagi_engine* and frees it in the destructor (which
/// stops and joins a running search, delivers its best move, then destroys the callbacks).
class Engine {
public:
    /// A new engine with default options.
    Engine() { detail::check_global(hayanagi_engine_new(nullptr, &engine_)); }
    /// A new engine with `config`.
    explicit Engine(const Config& config) {
        hayanagi_engine_config c{};
        c.struct_size = sizeof c;
        c.hash_mib = config.hash_mib;
        c.threads = config.threads;
        detail::check_global(hayanagi_engine_new(&c, &engine_));
    }
    /// Adopt a handle from hayanagi_engine_new (ownership passes to the Engine).
    static Engine adopt(hayanagi_engine* handle) noexcept { return Engine(AdoptTag{}, handle); }

    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;
    Engine(Engine&& other) noexcept : engine_(std::exchange(other.engine_, nullptr)) {}
    Engine& operator=(Engine&& other) noexcept {
        if (this != &other) {
            reset();
            engine_ = std::exchange(other.engine_, nullptr);
        }
        return *this;
    }
    ~Engine() { reset(); }

    /// False for a moved-from (or released) engine.
    explicit operator bool() const noexcept { return engine_ != nullptr; }
    hayanagi_engine* get() const noexcept { return engine_; }
    /// Give up ownership (the caller must hayanagi_engine_free the handle).
    hayanagi_engine* release() noexcept { return std::exchange(engine_, nullptr); }
    /// Free the engine now (stops and joins a search; destroys the callbacks). Must not be
    /// called from inside this engine's callbacks.
    void reset() noexcept {
        if (engine_ != nullptr) {
            hayanagi_engine_free(engine_);
            engine_ = nullptr;
        }
    }

    /// This engine's last error message.
    std::string last_error() const { return detail::engine_last_error(engine_); }

    // --- options and position ---

    /// Set an option by name or alias (any case). The options, their kinds, defaults and
    /// ranges are the engine's option registry: options() lists them at run time, and the
    /// README's option table ("USI engine" section, generated from src/options.rs) documents
    /// them; this header keeps no copy. Throws HAYANAGI_INVALID_ARG for an unknown name or a
    /// bad value, HAYANAGI_BUSY while searching.
    void set_option(std::string_view name, std::string_view value) {
        const std::string n(name), v(value);
        check(hayanagi_engine_set_option(engine_, n.c_str(), v.c_str()));
    }
    void set_option(std::string_view name, long long value) {
        set_option(name, std::string_view(std::to_string(value)));
    }
    template <class B, std::enable_if_t<std::is_same_v<B, bool>, int> = 0>
    void set_option(std::string_view name, B value) {
        set_option(name, std::string_view(value ? "true" : "false"));
    }

    /// The value the engine holds for an option, as set_option takes it back.
    std::string get_option(std::string_view name) const {
        const std::string n(name);
        std::string s;
        check(detail::copy_out(s, 64, [this, &n](char* b, std::size_t c, std::size_t* l) {
            return hayanagi_engine_get_option(engine_, n.c_str(), b, c, l);
        }));
        return s;
    }

    /// Every option in the order USI "usi" prints them (the hidden ones too with `hidden`).
    std::vector<OptionInfo> options(bool hidden = false) const {
        const uint32_t flags = hidden ? HAYANAGI_OPTION_HIDDEN : 0;
        std::size_t count = 0;
        check(hayanagi_engine_option_count(engine_, flags, &count));
        std::vector<OptionInfo> out;
        for (std::size_t i = 0; i < count; i++) {
            hayanagi_option_info raw{};
            OptionInfo o;
            check(detail::copy_out(o.name, 32, [this, i, flags, &raw](char* b, std::size_t c, std::size_t* l) {
                return hayanagi_engine_option_info(engine_, i, flags, &raw, b, c, l);
            }));
            auto text = [this, &o](int what) {
                std::string t;
                check(detail::copy_out(t, 128, [this, &o, what](char* b, std::size_t c, std::size_t* l) {
                    return hayanagi_engine_option_text(engine_, o.name.c_str(), what, b, c, l);
                }));
                return t;
            };
            o.kind = raw.kind;
            o.default_value = text(HAYANAGI_OPTION_TEXT_DEFAULT);
            o.min = raw.min;
            o.max = raw.max;
            const std::string choices = text(HAYANAGI_OPTION_TEXT_CHOICES);
            for (std::size_t start = 0; start < choices.size();) {
                std::size_t end = choices.find(' ', start);
                if (end == std::string::npos) end = choices.size();
                o.choices.push_back(choices.substr(start, end - start));
                start = end + 1;
            }
            o.hidden = (raw.flags & HAYANAGI_OPTION_HIDDEN) != 0;
            o.at_ready = (raw.flags & HAYANAGI_OPTION_AT_READY) != 0;
            o.help = text(HAYANAGI_OPTION_TEXT_HELP);
            out.push_back(std::move(o));
        }
        return out;
    }

    /// Apply deferred work (table resize): the USI isready step.
    void ready() { check(hayanagi_engine_ready(engine_)); }
    /// Start a new game: clears the table and, at the next search, the move-ordering history.
    void new_game() { check(hayanagi_engine_new_game(engine_)); }
    /// USI position syntax: "startpos", "sfen <SFEN>" or a bare SFEN, optionally followed
    /// by "moves m1 m2 ...". Throws HAYANAGI_PARSE (bad SFEN) or HAYANAGI_ILLEGAL_MOVE; the
    /// previous position is kept then.
    void set_position(std::string_view position) {
        const std::string p(position);
        check(hayanagi_engine_set_position(engine_, p.c_str()));
    }

    // --- searching ---

    /// Start a search; returns at once. Exactly one best move follows (on_bestmove, on the
    /// search thread). Throws HAYANAGI_BUSY while a search runs, and a search counts as
    /// running until its on_bestmove callback has returned: a host that reacts to the best
    /// move from another thread should call wait() before the next go().
    void go(const Limits& limits) {
        const hayanagi_limits l = limits.to_c();
        check(hayanagi_engine_go(engine_, &l));
    }
    /// An infinite search (until stop()).
    void go() { check(hayanagi_engine_go(engine_, nullptr)); }
    /// Start a mate search (df-pn) for the side to move; returns at once. No limit when
    /// `movetime` is negative and `nodes` is 0 (then until stop()). Exactly one answer
    /// follows, to on_mate() and last_mate(); never a best move. It counts as a search for
    /// stop(), wait() and HAYANAGI_BUSY. `any_length`: the first mate proven instead of the
    /// shortest.
    void go_mate(std::chrono::milliseconds movetime = std::chrono::milliseconds(-1),
                 std::uint64_t nodes = 0, bool any_length = false) {
        check(hayanagi_engine_go_mate(engine_, static_cast<std::int64_t>(movetime.count()),
                                      nodes, any_length ? HAYANAGI_MATE_ANY_LENGTH : 0u));
    }
    /// The last finished mate search's result and moves (throws HAYANAGI_INVALID_ARG when
    /// none has finished).
    std::pair<hayanagi_mate_result, std::string> last_mate() const {
        hayanagi_mate_result r{};
        std::string moves;
        check(detail::copy_out(moves, 64, [this, &r](char* b, std::size_t c, std::size_t* l) {
            return hayanagi_engine_last_mate(engine_, &r, b, c, l);
        }));
        return {r, moves};
    }
    /// Ask the search to finish now. Never blocks; a no-op when idle; allowed in callbacks.
    void stop() { check(hayanagi_engine_stop(engine_)); }
    /// The predicted move was played: the ponder search becomes a timed search.
    void ponderhit() { check(hayanagi_engine_ponderhit(engine_)); }
    /// Block until the best move has been delivered.
    void wait() { check(hayanagi_engine_wait(engine_, -1)); }
    /// Block at most `timeout`: true when the best move has been delivered, false on time
    /// out. Throws HAYANAGI_REENTRANT when called from this engine's callbacks.
    /// A negative timeout is 0; one beyond the int64 millisecond range waits forever.
    template <class Rep, class Period>
    bool wait(std::chrono::duration<Rep, Period> timeout) {
        std::int64_t ms = -1;  // forever
        const double requested = std::chrono::duration<double, std::milli>(timeout).count();
        if (requested <= 0) {
            ms = 0;
        } else if (requested < 9.0e18) {
            ms = static_cast<std::int64_t>(
                std::chrono::ceil<std::chrono::milliseconds>(
                    std::chrono::duration<double, std::milli>(requested))
                    .count());
        }
        const hayanagi_status st = hayanagi_engine_wait(engine_, ms);
        if (st == HAYANAGI_TIMEOUT) return false;
        check(st);
        return true;
    }
    /// True from go() until the best move has been delivered.
    bool is_searching() const {
        bool out = false;
        check(hayanagi_engine_is_searching(engine_, &out));
        return out;
    }

    // --- callbacks (run on the engine's search thread; see the file comment) ---

    /// Info reports: the struct and the USI "info ..." line, both valid during the call only
    /// (info.pv too). An empty function clears the callback.
    void on_info(InfoCallback f) {
        set_callback<InfoCallback>(std::move(f), &hayanagi_engine_set_info_callback,
                                   &detail::info_trampoline);
    }
    /// The best move (a USI move, "resign" or "win") and the ponder move, once per go().
    void on_bestmove(BestMoveCallback f) {
        set_callback<BestMoveCallback>(std::move(f), &hayanagi_engine_set_bestmove_callback,
                                       &detail::bestmove_trampoline);
    }
    /// The answer of each mate search (go_mate).
    void on_mate(MateCallback f) {
        set_callback<MateCallback>(std::move(f), &hayanagi_engine_set_mate_callback,
                                   &detail::mate_trampoline);
    }
    /// Warnings and diagnostics (the library never prints). Runs on the thread whose call
    /// produced the message: the search thread during a search, the caller of ready() or
    /// go() for loading messages.
    void on_log(LogCallback f) {
        set_callback<LogCallback>(std::move(f), &hayanagi_engine_set_log_callback,
                                  &detail::log_trampoline);
    }

    /// Receive the USI text channel's output (usi_command): every line the engine would
    /// print as a USI engine ("usiok", "readyok", "info ...", "bestmove ...",
    /// "checkmate ...", "info string ..." for warnings and errors), one call per line. It
    /// runs on the thread that produced the line: the caller of usi_command() for direct
    /// answers (so "readyok" has arrived when usi_command("isready") returns), the search
    /// thread for search output. An empty function clears it. Throws HAYANAGI_BUSY while a
    /// search runs.
    void on_usi_output(UsiOutputCallback f) {
        set_callback<UsiOutputCallback>(std::move(f), &hayanagi_engine_set_usi_output_callback,
                                        &detail::usi_output_trampoline);
    }

    // --- USI text channel ---

    /// Send one USI command line (or several separated by '\n') as a GUI writes to a USI
    /// engine's stdin; the answers go to on_usi_output(). Every command, option and extra
    /// of the `hayanagi` binary behaves the same (one implementation). A malformed command
    /// is answered on the channel with "info string error: ..." and does not throw; "quit"
    /// stops any search and returns after its last line. The channel and the structured
    /// methods drive the same engine (position, options, table). Commands sent from several
    /// threads at once run side by side: send one conversation from one thread to keep its
    /// order. Throws HAYANAGI_REENTRANT from inside this engine's callbacks. Text after a
    /// '\0' in `line` is not sent.
    void usi_command(std::string_view line) {
        const std::string l(line);
        check(hayanagi_engine_usi_command(engine_, l.c_str()));
    }

    /// Pull alternative to callbacks: queue events for poll_event().
    void enable_events(bool enabled = true) {
        check(hayanagi_engine_enable_events(engine_, enabled));
    }
    /// The oldest queued event, or std::nullopt when the queue is empty.
    std::optional<Event> poll_event() {
        Event ev;
        hayanagi_event raw{};
        const hayanagi_status st = detail::copy_out(
            ev.text, 256, [this, &raw](char* b, std::size_t c, std::size_t* l) {
                return hayanagi_engine_poll_event(engine_, &raw, b, c, l);
            });
        check(st);
        if (raw.kind == HAYANAGI_EVENT_NONE) return std::nullopt;
        ev.kind = raw.kind;
        ev.info = raw.info;
        return ev;
    }

    // --- table ---

    /// What the table holds for the current position, or std::nullopt.
    std::optional<TtEntry> probe_tt() const { return probe(nullptr); }
    /// What the table holds for `position` (USI position syntax), or std::nullopt.
    std::optional<TtEntry> probe_tt(std::string_view position) const {
        const std::string p(position);
        return probe(p.c_str());
    }
    /// Probe by Zobrist key (the move is not checked).
    std::optional<TtEntry> probe_tt_key(std::uint64_t key) const {
        hayanagi_tt_probe out{};
        check(hayanagi_engine_probe_tt_key(engine_, key, &out));
        return to_entry(out);
    }
    /// Permille of the table used by the current generation.
    std::uint32_t hashfull() const {
        std::uint32_t out = 0;
        check(hayanagi_engine_hashfull(engine_, &out));
        return out;
    }
    /// Forget the table's contents.
    void clear_hash() { check(hayanagi_engine_clear_hash(engine_)); }
    /// Use `table` from now on (shared with every engine using it).
    void set_table(const Table& table) { check(hayanagi_engine_set_table(engine_, table.get())); }

    // --- position helpers ---

    /// The current position as SFEN.
    std::string sfen() const {
        std::string s;
        check(detail::copy_out(s, 128, [this](char* b, std::size_t c, std::size_t* l) {
            return hayanagi_engine_sfen(engine_, b, c, l);
        }));
        return s;
    }
    /// The legal moves of the current position (USI, ASCII order).
    std::vector<std::string> legal_moves() const {
        std::string s;
        check(detail::copy_out(s, 512, [this](char* b, std::size_t c, std::size_t* l) {
            return hayanagi_engine_legal_moves(engine_, b, c, l);
        }));
        std::vector<std::string> moves;
        std::size_t start = 0;
        while (start < s.size()) {
            std::size_t end = s.find(' ', start);
            if (end == std::string::npos) end = s.size();
            if (end > start) moves.emplace_back(s, start, end - start);
            start = end + 1;
        }
        return moves;
    }
    /// Is `usi_move` legal in the current position? Malformed text is simply not legal.
    bool is_legal(std::string_view usi_move) const {
        const std::string m(usi_move);
        bool out = false;
        check(hayanagi_engine_is_legal(engine_, m.c_str(), &out));
        return out;
    }
    /// Perft of the current position (depth 0 to 10).
    std::uint64_t perft(std::uint32_t depth) const {
        std::uint64_t out = 0;
        check(hayanagi_engine_perft(engine_, depth, &out));
        return out;
    }
    /// Static evaluation for the side to move, in centipawns.
    std::int32_t evaluate() const {
        std::int32_t out = 0;
        check(hayanagi_engine_evaluate(engine_, &out));
        return out;
    }
    /// Game state of the current position under the engine's entering-king rule.
    GameState game_state() const {
        GameState g;
        check(hayanagi_engine_game_state(engine_, &g.state, &g.winner));
        return g;
    }

private:
    struct AdoptTag {};
    Engine(AdoptTag, hayanagi_engine* handle) noexcept : engine_(handle) {}

    void check(hayanagi_status st) const { detail::check(st, engine_); }

    template <class F, class Setter, class Trampoline>
    void set_callback(F f, Setter setter, Trampoline trampoline) {
        if (!f) {
            check(setter(engine_, nullptr, nullptr, nullptr));
            return;
        }
        // The library owns the heap object once the setter succeeds; on failure it does
        // not take it, and the unique_ptr destroys it here.
        auto holder = std::make_unique<F>(std::move(f));
        check(setter(engine_, trampoline, holder.get(), &detail::delete_user_data<F>));
        holder.release();
    }

    std::optional<TtEntry> probe(const char* position) const {
        hayanagi_tt_probe out{};
        check(hayanagi_engine_probe_tt(engine_, position, &out));
        return to_entry(out);
    }

    static std::optional<TtEntry> to_entry(const hayanagi_tt_probe& p) {
        if (!p.found) return std::nullopt;
        TtEntry e;
        std::size_t n = 0;
        while (n < sizeof p.move_usi && p.move_usi[n] != '\0') ++n;
        e.move.assign(p.move_usi, n);
        e.move_legal = p.move_legal;
        e.score_kind = p.score_kind;
        e.score_value = p.score_value;
        e.depth = p.depth;
        e.bound = p.bound;
        e.generation = p.generation;
        return e;
    }

    hayanagi_engine* engine_ = nullptr;
};

}  // namespace hayanagi

#endif  // HAYANAGI_HPP
