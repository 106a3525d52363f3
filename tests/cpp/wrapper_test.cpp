// Tests of the C++ wrapper (bindings/cpp/hayanagi.hpp) against the built library.
//
//   wrapper_test [filter]   runs every test (or those whose name contains filter), prints
//                           "N passed, M failed", exits 1 on failure
//
// Each TEST body counts as one pass when all its CHECKs hold. The searches are short
// (depth or node limits) so the whole run takes a few seconds, also under valgrind.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "hayanagi.hpp"

using namespace std::chrono_literals;
using hayanagi::Engine;
using hayanagi::Error;
using hayanagi::Limits;

namespace {

// ----- a tiny harness ----------------------------------------------------------------------

int g_checks_failed_in_test = 0;

#define CHECK(cond)                                                                 \
    do {                                                                            \
        if (!(cond)) {                                                              \
            std::printf("    CHECK failed at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
            ++g_checks_failed_in_test;                                              \
        }                                                                           \
    } while (0)

// Runs `body` and checks that it throws hayanagi::Error with `expected` status.
#define CHECK_THROWS_STATUS(expected, body)                                               \
    do {                                                                                  \
        bool threw_ = false;                                                              \
        try {                                                                             \
            body;                                                                         \
        } catch (const hayanagi::Error& e_) {                                             \
            threw_ = true;                                                                \
            if (e_.status() != (expected)) {                                              \
                std::printf("    at %s:%d: %s threw status %d (%s), expected %d\n",       \
                            __FILE__, __LINE__, #body, e_.status(), e_.what(), (expected)); \
                ++g_checks_failed_in_test;                                                \
            }                                                                             \
        }                                                                                 \
        if (!threw_) {                                                                    \
            std::printf("    at %s:%d: %s did not throw\n", __FILE__, __LINE__, #body);   \
            ++g_checks_failed_in_test;                                                    \
        }                                                                                 \
    } while (0)

struct TestCase {
    const char* name;
    void (*fn)();
};

std::vector<TestCase>& registry() {
    static std::vector<TestCase> tests;
    return tests;
}

struct Register {
    Register(const char* name, void (*fn)()) { registry().push_back({name, fn}); }
};

#define TEST(name)                                 \
    void test_##name();                            \
    const Register register_##name(#name, test_##name); \
    void test_##name()

// Counts the live copies of a callable's capture: constructions minus destructions. After
// a callback is replaced or its engine destroyed, it must be back to its value before.
std::atomic<int> g_live{0};
std::atomic<int> g_destroyed{0};

struct Tracked {
    Tracked() { ++g_live; }
    Tracked(const Tracked&) { ++g_live; }
    Tracked(Tracked&&) noexcept { ++g_live; }
    Tracked& operator=(const Tracked&) = default;
    ~Tracked() {
        --g_live;
        ++g_destroyed;
    }
};

// Records best moves delivered on the search thread.
struct BestMoves {
    std::mutex m;
    std::vector<std::string> moves;
    std::vector<std::optional<std::string>> ponders;
    std::thread::id thread;

    void install(Engine& e) {
        e.on_bestmove([this](std::string_view best, std::optional<std::string_view> ponder) {
            std::lock_guard<std::mutex> lock(m);
            moves.emplace_back(best);
            ponders.push_back(ponder ? std::optional<std::string>(std::string(*ponder))
                                     : std::nullopt);
            thread = std::this_thread::get_id();
        });
    }
    std::size_t count() {
        std::lock_guard<std::mutex> lock(m);
        return moves.size();
    }
};

// ----- types and construction --------------------------------------------------------------

static_assert(!std::is_copy_constructible_v<Engine>, "Engine is move-only");
static_assert(!std::is_copy_assignable_v<Engine>, "Engine is move-only");
static_assert(std::is_nothrow_move_constructible_v<Engine>, "Engine moves without throwing");
static_assert(std::is_nothrow_move_assignable_v<Engine>, "Engine moves without throwing");
static_assert(!std::is_copy_constructible_v<hayanagi::Table>, "Table is move-only");
static_assert(std::is_nothrow_move_constructible_v<hayanagi::Table>, "Table moves");
static_assert(std::is_base_of_v<std::runtime_error, Error>, "Error is a runtime_error");

TEST(version_and_abi) {
    CHECK(hayanagi::abi_compatible());
    CHECK(hayanagi::version() == HAYANAGI_VERSION_STRING);
    CHECK(hayanagi::status_str(HAYANAGI_OK) == "ok");
}

TEST(construct_and_move) {
    Engine a;
    CHECK(static_cast<bool>(a));
    CHECK(a.get() != nullptr);
    a.set_position("startpos moves 7g7f");
    hayanagi_engine* raw = a.get();

    Engine b(std::move(a));
    CHECK(!a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
    CHECK(a.get() == nullptr);
    CHECK(b.get() == raw);
    CHECK(b.sfen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");

    // Using a moved-from engine throws NULL_ARG instead of crashing.
    CHECK_THROWS_STATUS(HAYANAGI_NULL_ARG, a.sfen());
    CHECK_THROWS_STATUS(HAYANAGI_NULL_ARG, a.set_position("startpos"));
    CHECK_THROWS_STATUS(HAYANAGI_NULL_ARG, a.go(Limits().depth(1)));
    CHECK_THROWS_STATUS(HAYANAGI_NULL_ARG, a.on_bestmove([](auto, auto) {}));
    a.reset();  // no-op

    // Move assignment frees the target's engine (and with it its callbacks).
    const int live_before = g_live.load();
    Engine c;
    {
        Tracked t;
        c.on_log([t](std::string_view) {});
    }
    CHECK(g_live.load() == live_before + 1);
    c = std::move(b);
    CHECK(g_live.load() == live_before);
    CHECK(!b);
    CHECK(c.get() == raw);
    c = std::move(c);  // self-move keeps the engine  NOLINT
    CHECK(c.get() == raw);
    CHECK(c.legal_moves().size() == 30);

    // A moved-from engine is safe to destroy (and to move again).
    Engine d(std::move(b));
    CHECK(!d);
}

TEST(config_and_adopt) {
    hayanagi::Config cfg;
    cfg.hash_mib = 4;
    cfg.threads = 1;
    Engine e(cfg);
    CHECK(e.legal_moves().size() == 30);

    hayanagi::Config bad;
    bad.threads = 257;  // Threads is 1-256
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, Engine{bad});
    try {
        Engine x{bad};
    } catch (const Error& err) {
        CHECK(!err.message().empty());  // comes from the thread-local last error
    }

    hayanagi_engine* raw = nullptr;
    CHECK(hayanagi_engine_new(nullptr, &raw) == HAYANAGI_OK);
    Engine adopted = Engine::adopt(raw);
    CHECK(adopted.get() == raw);
    hayanagi_engine* released = adopted.release();
    CHECK(!adopted);
    CHECK(hayanagi_engine_free(released) == HAYANAGI_OK);
}

// ----- errors ------------------------------------------------------------------------------

TEST(error_bad_sfen) {
    Engine e;
    e.set_position("startpos moves 2g2f");
    const std::string before = e.sfen();
    bool threw = false;
    try {
        e.set_position("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN b - 1");
    } catch (const Error& err) {
        threw = true;
        CHECK(err.status() == HAYANAGI_PARSE);
        CHECK(!err.message().empty());
        CHECK(err.message() == e.last_error());
        CHECK(std::string(err.what()).find(err.message()) != std::string::npos);
    }
    CHECK(threw);
    CHECK(e.sfen() == before);  // previous position kept
    CHECK_THROWS_STATUS(HAYANAGI_PARSE, e.set_position("sfen garbage"));
    CHECK_THROWS_STATUS(HAYANAGI_PARSE, e.set_position(""));
}

TEST(error_illegal_move) {
    Engine e;
    bool threw = false;
    try {
        e.set_position("startpos moves 7g7f 3c3d 7f7e 9i9h");
    } catch (const Error& err) {
        threw = true;
        CHECK(err.status() == HAYANAGI_ILLEGAL_MOVE);
        // The message names the move and its 0-based index.
        CHECK(err.message().find("9i9h") != std::string::npos);
        CHECK(err.message().find("move 3") != std::string::npos);
    }
    CHECK(threw);
    CHECK(e.sfen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    CHECK_THROWS_STATUS(HAYANAGI_ILLEGAL_MOVE, e.set_position("startpos moves 7g7e"));
    CHECK_THROWS_STATUS(HAYANAGI_ILLEGAL_MOVE, e.set_position("startpos moves zzzz"));
    // Illegal searchmoves are rejected by go().
    CHECK_THROWS_STATUS(HAYANAGI_ILLEGAL_MOVE, e.go(Limits().depth(2).searchmoves("7g7e")));
    CHECK(!e.is_searching());
}

TEST(error_bad_option) {
    Engine e;
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.set_option("NoSuchOption", "1"));
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.set_option("Hash", "lots"));
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.set_option("Hash", 0));
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.set_option("MultiPV", 99));
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.set_option("EnteringKingRule", "Sometimes"));
    try {
        e.set_option("NoSuchOption", "1");
    } catch (const Error& err) {
        CHECK(err.message().find("NoSuchOption") != std::string::npos);
    }
    // The registry: typed descriptions, values read back from the engine.
    const auto shown = e.options();
    const auto all = e.options(true);
    // Hidden: ParallelMode, SearchFeatures and the Tune_* search parameters.
    size_t developer = 0, tuning = 0;
    for (const auto& o : all) {
        if (o.hidden) {
            (o.name.rfind("Tune_", 0) == 0 ? tuning : developer)++;
        }
    }
    CHECK(developer == 2 && tuning > 0 && all.size() == shown.size() + developer + tuning);
    CHECK(!shown.empty() && shown[0].name == "USI_Hash" && shown[0].kind == HAYANAGI_OPTION_SPIN &&
          shown[0].min == 1 && shown[0].max == 1048576 && shown[0].default_value == "16" &&
          shown[0].at_ready);
    bool combo_seen = false;
    for (const auto& o : shown) {
        CHECK(!o.hidden);
        if (o.name == "EnteringKingRule") {
            combo_seen = o.kind == HAYANAGI_OPTION_COMBO && o.choices.size() == 4;
        }
    }
    CHECK(combo_seen);
    CHECK(e.get_option("hash") == "16");
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.get_option("NoSuchOption"));
    // Good values pass, in every overload.
    e.set_option("Hash", "8");
    e.set_option("USI_Hash", 8);
    e.set_option(std::string("MultiPV"), std::string("1"));
    e.set_option("EnteringKingRule", "CSARule27");
    e.ready();
    e.new_game();
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.go(Limits().depth(1).multipv(33)));
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.perft(11));
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, hayanagi::Table(0));
}

TEST(mate_search) {
    std::atomic<int> answers{0};
    std::string last_moves;
    int last_kind = 0;
    Engine e;
    e.on_mate([&](const hayanagi_mate_result& r, std::string_view moves) {
        last_kind = r.kind;
        last_moves = std::string(moves);
        ++answers;
    });
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.last_mate());
    e.set_position("sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1");  // rules.tsv R02
    e.go_mate(std::chrono::milliseconds(60000));
    e.wait();
    CHECK(answers.load() == 1);
    CHECK(last_kind == HAYANAGI_MATE_FOUND);
    CHECK(last_moves == "7b6b");
    auto [r, moves] = e.last_mate();
    CHECK(r.kind == HAYANAGI_MATE_FOUND && r.plies == 1 && r.shortest && moves == "7b6b");
    e.set_position("sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1");  // R01: pawn-drop mate only
    e.go_mate();
    e.wait();
    CHECK(last_kind == HAYANAGI_MATE_NONE && last_moves.empty());
    // Stopped before it can finish: timeout, busy meanwhile.
    e.set_position(
        "sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/"
        "4+P1P1L/+B5G1g b - 1");
    e.go_mate();
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.go_mate());
    e.stop();
    e.wait();
    CHECK(answers.load() == 3);
    CHECK(last_kind == HAYANAGI_MATE_TIMEOUT);
}

TEST(error_go_while_searching) {
    BestMoves bm;  // declared before the engine, which may call into it until destroyed
    Engine e;
    bm.install(e);
    e.go();  // infinite
    CHECK(e.is_searching());
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.go(Limits().depth(1)));
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.go());
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.set_position("startpos"));
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.set_option("Hash", "8"));
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.ready());
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.new_game());
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.clear_hash());
    hayanagi::Table t(1);
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.set_table(t));
    // Read-only queries still work during a search.
    CHECK(e.legal_moves().size() == 30);
    CHECK(!e.wait(20ms));  // infinite search: time out
    CHECK(!e.wait(-5ms));  // negative: just a look
    e.stop();
    CHECK(e.wait(std::chrono::hours::max()));  // beyond the ms range: waits forever
    CHECK(!e.is_searching());
    CHECK(bm.count() == 1);  // the failed go()s produced no best move
}

// ----- callbacks ---------------------------------------------------------------------------

TEST(callbacks_fire_once_per_go) {
    BestMoves bm;  // declared before the engine, which may call into it until destroyed
    std::atomic<int> infos{0};
    std::atomic<bool> info_on_other_thread{true};
    std::atomic<bool> pv_ok{true};
    const auto main_thread = std::this_thread::get_id();
    Engine e;
    bm.install(e);
    e.on_info([&](const hayanagi_info& info, std::string_view line) {
        ++infos;
        if (std::this_thread::get_id() == main_thread) info_on_other_thread = false;
        if (line.substr(0, 5) != "info " || info.pv == nullptr || info.depth == 0) pv_ok = false;
    });

    e.go(Limits().depth(4));
    e.wait();
    CHECK(bm.count() == 1);
    CHECK(infos.load() >= 1);
    CHECK(info_on_other_thread.load());
    CHECK(pv_ok.load());
    CHECK(bm.thread != main_thread);  // callbacks run on the search thread
    CHECK(e.is_legal(bm.moves.at(0)));

    // Several searches of various kinds: one best move each.
    e.go(Limits().nodes(2000));
    e.wait();
    e.go();
    e.stop();  // immediately
    e.wait();
    e.go(Limits().movetime(30ms));
    e.wait();
    e.go(Limits().depth(50));
    std::this_thread::sleep_for(20ms);
    e.stop();
    e.wait();
    CHECK(bm.count() == 5);
    CHECK(e.wait(0ms));  // idle: wait succeeds at once
    std::this_thread::sleep_for(30ms);
    CHECK(bm.count() == 5);  // and no stray extra best move later
}

TEST(bestmove_resign_and_searchmoves) {
    BestMoves bm;  // declared before the engine, which may call into it until destroyed
    Engine e;
    bm.install(e);
    // Searchmoves restrict the root; the Limits object owns the text.
    std::optional<Limits> l;
    l.emplace();
    l->depth(3).searchmoves(std::vector<std::string>{"1g1f"});
    const Limits copy = *l;  // the copy owns its own searchmoves string
    l.reset();
    e.go(copy);
    e.wait();
    CHECK(bm.count() == 1 && bm.moves[0] == "1g1f");

    // Black is checkmated (head-of-king gold mate): "resign", no ponder.
    e.set_position("sfen 8k/9/9/9/9/9/9/7gg/8K b - 1");
    CHECK(e.legal_moves().empty());
    e.go(Limits().depth(3));
    e.wait();
    CHECK(bm.count() == 2);
    CHECK(bm.moves.size() == 2 && bm.moves[1] == "resign");
    CHECK(bm.ponders.size() == 2 && !bm.ponders[1].has_value());
}

TEST(callbacks_replace_frees_old) {
    std::atomic<int> first_calls{0}, second_calls{0};
    Engine e;
    const int live0 = g_live.load();
    const int destroyed0 = g_destroyed.load();
    {
        Tracked t;
        e.on_bestmove([t, &first_calls](std::string_view, std::optional<std::string_view>) {
            ++first_calls;
        });
    }
    // Only the copy held by the library is alive.
    CHECK(g_live.load() == live0 + 1);
    e.go(Limits().depth(1));
    e.wait();
    CHECK(first_calls.load() == 1);

    {
        Tracked t;
        e.on_bestmove([t, &second_calls](std::string_view, std::optional<std::string_view>) {
            ++second_calls;
        });
    }
    CHECK(g_live.load() == live0 + 1);  // old one freed, new one held
    e.go(Limits().depth(1));
    e.wait();
    CHECK(first_calls.load() == 1);
    CHECK(second_calls.load() == 1);

    // Clearing with an empty function frees the held one.
    e.on_bestmove(nullptr);
    CHECK(g_live.load() == live0);
    e.go(Limits().depth(1));
    e.wait();
    CHECK(second_calls.load() == 1);

    // Same for info and log callbacks, and for destroying the engine.
    {
        Tracked t1, t2;
        e.on_info([t1](const hayanagi_info&, std::string_view) {});
        e.on_log([t2](std::string_view) {});
    }
    CHECK(g_live.load() == live0 + 2);
    e.on_info({});
    CHECK(g_live.load() == live0 + 1);
    e.reset();
    CHECK(g_live.load() == live0);
    CHECK(g_destroyed.load() > destroyed0);
}

TEST(callbacks_destroyed_exactly_once_per_holder) {
    // Count destructions of the heap copy held by the library directly: a capture that
    // counts only its own destruction.
    struct Once {
        std::shared_ptr<std::atomic<int>> count;
        bool owner = true;
        explicit Once(std::shared_ptr<std::atomic<int>> c) : count(std::move(c)) {}
        Once(const Once& o) : count(o.count), owner(false) {}
        Once(Once&& o) noexcept : count(o.count), owner(o.owner) { o.owner = false; }
        ~Once() {
            if (owner) ++*count;
        }
    };
    auto count = std::make_shared<std::atomic<int>>(0);
    {
        Engine e;
        e.on_bestmove([o = Once(count)](std::string_view, std::optional<std::string_view>) {});
        CHECK(count->load() == 0);  // the owning copy moved into the library's holder
        e.go(Limits().depth(1));
        e.wait();
        e.on_bestmove([](std::string_view, std::optional<std::string_view>) {});
        CHECK(count->load() == 1);  // freed when replaced
        e.on_bestmove([o = Once(count)](std::string_view, std::optional<std::string_view>) {});
        CHECK(count->load() == 1);
        e.go();  // destroyed while searching: best move delivered, then freed
    }
    CHECK(count->load() == 2);
}

TEST(callback_replace_while_searching_is_busy_and_leak_free) {
    BestMoves bm;
    Engine e;
    const int live0 = g_live.load();
    bm.install(e);
    e.go();
    {
        Tracked t;
        CHECK_THROWS_STATUS(HAYANAGI_BUSY,
                            e.on_bestmove([t](std::string_view, std::optional<std::string_view>) {}));
        CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.on_info([t](const hayanagi_info&, std::string_view) {}));
    }
    CHECK(g_live.load() == live0);  // the rejected functions were destroyed by the wrapper
    e.stop();
    e.wait();
    CHECK(bm.count() == 1);  // the old callback stayed installed
}

TEST(callback_reentrancy_and_exceptions) {
    // State the callbacks use outlives the engine (declared first, destroyed last).
    std::mutex m;
    std::vector<hayanagi_status> statuses;
    std::atomic<int> bestmoves{0};
    std::atomic<int> infos{0};
    Engine e;
    e.on_bestmove([&](std::string_view, std::optional<std::string_view>) {
        ++bestmoves;
        std::lock_guard<std::mutex> lock(m);
        try {
            e.wait(0ms);
        } catch (const Error& err) {
            statuses.push_back(err.status());
        }
        try {
            e.go(Limits().depth(1));
        } catch (const Error& err) {
            statuses.push_back(err.status());
        }
        try {
            e.on_log([](std::string_view) {});
        } catch (const Error& err) {
            statuses.push_back(err.status());
        }
        e.stop();  // allowed
        throw std::runtime_error("thrown from a callback: must not reach the library");
    });
    // The info callback stops the search from inside (allowed) and throws too.
    e.on_info([&](const hayanagi_info&, std::string_view) {
        ++infos;
        e.stop();
        throw 42;
    });
    e.go();
    CHECK(e.wait(10s));
    CHECK(bestmoves.load() == 1);
    CHECK(infos.load() >= 1);
    {
        std::lock_guard<std::mutex> lock(m);
        CHECK(statuses.size() == 3);
        for (hayanagi_status s : statuses) CHECK(s == HAYANAGI_REENTRANT);
    }
    // The engine still works after the callbacks threw.
    e.on_info(nullptr);
    e.go(Limits().depth(2));
    CHECK(e.wait(10s));
    CHECK(bestmoves.load() == 2);
}

TEST(poll_events) {
    Engine e;
    e.enable_events();
    CHECK(!e.poll_event().has_value());
    e.go(Limits().depth(3));
    e.wait();
    int infos = 0, bestmoves = 0;
    while (auto ev = e.poll_event()) {
        if (ev->kind == HAYANAGI_EVENT_INFO) {
            ++infos;
            CHECK(ev->text.rfind("info ", 0) == 0);
            CHECK(ev->info.pv == nullptr);
        } else if (ev->kind == HAYANAGI_EVENT_BESTMOVE) {
            ++bestmoves;
            CHECK(ev->text.rfind("bestmove ", 0) == 0);
        }
    }
    CHECK(infos >= 1);
    CHECK(bestmoves == 1);
    e.enable_events(false);
    CHECK_THROWS_STATUS(HAYANAGI_INVALID_ARG, e.poll_event());
}

// ----- USI text channel --------------------------------------------------------------------

// Collects the lines of the USI output callback, with the thread each came on.
struct UsiTranscript {
    std::mutex m;
    std::condition_variable changed;
    std::vector<std::string> lines;
    std::vector<std::thread::id> threads;

    void install(Engine& e) {
        e.on_usi_output([this](std::string_view line) {
            {
                std::lock_guard<std::mutex> lock(m);
                lines.emplace_back(line);
                threads.push_back(std::this_thread::get_id());
            }
            changed.notify_all();
        });
    }
    std::size_t count() {
        std::lock_guard<std::mutex> lock(m);
        return lines.size();
    }
    // Index of the first line at or after `from` starting with `prefix`, waiting up to
    // `timeout`; -1 when none came.
    long find(std::size_t from, std::string_view prefix,
              std::chrono::milliseconds timeout = 0ms) {
        std::unique_lock<std::mutex> lock(m);
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            for (std::size_t i = from; i < lines.size(); ++i) {
                if (std::string_view(lines[i]).substr(0, prefix.size()) == prefix) {
                    return static_cast<long>(i);
                }
            }
            if (changed.wait_until(lock, deadline) == std::cv_status::timeout) return -1;
        }
    }
    std::thread::id thread_of(long i) {
        std::lock_guard<std::mutex> lock(m);
        return threads.at(static_cast<std::size_t>(i));
    }
    std::string line(long i) {
        std::lock_guard<std::mutex> lock(m);
        return lines.at(static_cast<std::size_t>(i));
    }
};

TEST(usi_channel_session) {
    UsiTranscript t;  // outlives the engine, which may call into it until destroyed
    Engine e;
    t.install(e);
    const auto me = std::this_thread::get_id();

    // Direct answers arrive on the calling thread, before usi_command returns.
    e.usi_command("usi");
    const long ok = t.find(0, "usiok");
    CHECK(ok > 0);
    CHECK(t.find(0, "id name hayanagi") == 0);
    if (ok > 0) CHECK(t.thread_of(ok) == me);
    e.usi_command("setoption name USI_Hash value 8");
    e.usi_command("isready");
    CHECK(t.find(static_cast<std::size_t>(ok), "readyok") == ok + 1);
    // The option set through the channel is the structured API's option too.
    CHECK(e.get_option("USI_Hash") == "8");

    // A malformed command is answered on the channel, not thrown.
    std::size_t n = t.count();
    e.usi_command("position startpos moves 7g7f 7g7f");
    CHECK(t.find(n, "info string error: position") == static_cast<long>(n));

    // Position through the channel, seen by the structured API (one engine).
    e.usi_command("position startpos moves 7g7f");
    CHECK(e.sfen() == "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");

    // A search: info lines, then exactly one best move, from the search thread.
    n = t.count();
    e.usi_command("position startpos moves 7g7f 3c3d\ngo depth 4");
    const long best = t.find(n, "bestmove ", 30s);
    CHECK(best > static_cast<long>(n));
    CHECK(t.find(n, "info depth 4 ") > static_cast<long>(n));
    if (best >= 0) {
        CHECK(t.thread_of(best) != me);
        CHECK(t.find(static_cast<std::size_t>(best) + 1, "bestmove ") == -1);
    }
    CHECK(e.wait(10s));

    // go infinite, then quit: the best move has come when quit returns.
    n = t.count();
    e.usi_command("position startpos\ngo infinite");
    e.usi_command("quit");
    CHECK(t.find(n, "bestmove ") >= static_cast<long>(n));
}

TEST(usi_channel_callback_rules) {
    std::mutex m;
    std::vector<hayanagi_status> statuses;
    UsiTranscript t;
    Engine e;
    // Inside the channel's own callback usi_command is refused (REENTRANT); exceptions
    // thrown there stay in the trampoline.
    e.on_usi_output([&](std::string_view line) {
        if (line == "readyok") {
            try {
                e.usi_command("isready");
            } catch (const Error& err) {
                std::lock_guard<std::mutex> lock(m);
                statuses.push_back(err.status());
            }
            throw std::runtime_error("thrown from the USI output callback");
        }
    });
    e.usi_command("isready");
    {
        std::lock_guard<std::mutex> lock(m);
        CHECK(statuses.size() == 1);
        if (!statuses.empty()) CHECK(statuses[0] == HAYANAGI_REENTRANT);
    }

    // Replacing the callback frees the old one's captures; while a search runs it is BUSY
    // and the old callback stays.
    const int live_before = g_live.load();
    {
        Tracked tracked;
        e.on_usi_output([tracked](std::string_view) {});
    }
    CHECK(g_live.load() == live_before + 1);
    t.install(e);
    CHECK(g_live.load() == live_before);
    e.usi_command("go infinite");
    CHECK_THROWS_STATUS(HAYANAGI_BUSY, e.on_usi_output([](std::string_view) {}));
    e.usi_command("stop");
    CHECK(e.wait(10s));
    CHECK(t.find(0, "bestmove ", 10s) >= 0);
    e.on_usi_output(nullptr);  // cleared: no more lines
    const std::size_t n = t.count();
    e.usi_command("isready");
    CHECK(t.count() == n);

    // A moved-from engine throws NULL_ARG.
    Engine moved(std::move(e));
    CHECK_THROWS_STATUS(HAYANAGI_NULL_ARG, e.usi_command("usi"));  // NOLINT(bugprone-use-after-move)
    CHECK_THROWS_STATUS(HAYANAGI_NULL_ARG, e.on_usi_output(nullptr));
}

// ----- position helpers --------------------------------------------------------------------

TEST(legal_moves_perft_sfen) {
    Engine e;
    const auto moves = e.legal_moves();
    CHECK(moves.size() == 30);
    CHECK(std::is_sorted(moves.begin(), moves.end()));
    CHECK(e.perft(0) == 1);
    CHECK(e.perft(1) == 30);
    CHECK(e.perft(2) == 900);
    CHECK(e.perft(3) == 25470);
    CHECK(e.is_legal("7g7f"));
    CHECK(!e.is_legal("7g7e"));
    CHECK(!e.is_legal("not a move"));

    const std::string start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    CHECK(e.sfen() == start);

    // Round trip: sfen() of a position set from sfen() gives it back.
    e.set_position("startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e");
    const std::string s = e.sfen();
    Engine f;
    f.set_position("sfen " + s);
    CHECK(f.sfen() == s);
    f.set_position(s);  // a bare SFEN too
    CHECK(f.sfen() == s);
    CHECK(f.legal_moves() == e.legal_moves());
    CHECK(f.evaluate() == e.evaluate());

    const auto gs = e.game_state();
    CHECK(gs.state == HAYANAGI_GAME_ONGOING && gs.winner == -1);
}

TEST(strings_grow_past_initial_buffer) {
    // Many drops: a move list far longer than the wrapper's first buffer (512 bytes).
    Engine e;
    e.set_position("sfen 4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1");
    const auto moves = e.legal_moves();
    CHECK(moves.size() > 200);
    std::size_t total = 0;
    for (const auto& m : moves) total += m.size() + 1;
    CHECK(total > 512);
    CHECK(moves.size() == e.perft(1));
    // And a long last-error text is read completely.
    std::string long_option(600, 'x');
    try {
        e.set_option(long_option, "1");
        CHECK(false);
    } catch (const Error& err) {
        CHECK(err.message().find(long_option) != std::string::npos);
    }
}

TEST(evaluate_hash_probe) {
    Engine e;
    CHECK(e.evaluate() > -1000 && e.evaluate() < 1000);
    e.new_game();
    CHECK(e.hashfull() == 0);
    CHECK(!e.probe_tt().has_value());
    e.go(Limits().depth(6));
    e.wait();
    const auto p = e.probe_tt();
    CHECK(p.has_value());
    if (p) {
        CHECK(p->move_legal);
        CHECK(e.is_legal(p->move));
        CHECK(p->depth >= 1);
    }
    CHECK(e.probe_tt("startpos").has_value());
    CHECK(!e.probe_tt("startpos moves 1g1f 1c1d 9g9f 9c9d 2g2f").has_value());
    CHECK_THROWS_STATUS(HAYANAGI_PARSE, e.probe_tt("sfen nonsense"));
    e.clear_hash();
    CHECK(!e.probe_tt().has_value());
}

TEST(shared_table) {
    hayanagi::Table table(8);
    CHECK(static_cast<bool>(table));
    Engine a, b;
    a.set_table(table);
    b.set_table(table);
    {
        hayanagi::Table moved(std::move(table));
        CHECK(!table);
        // The engines keep the table alive after the handle is gone.
    }
    const std::string p = "startpos moves 2g2f 8c8d";
    CHECK(!b.probe_tt(p).has_value());
    a.set_position(p);
    a.go(Limits().depth(5));
    a.wait();
    const auto entry = b.probe_tt(p);
    CHECK(entry.has_value());
    if (entry) CHECK(entry->move_legal);
}

TEST(limits_builder) {
    const hayanagi_limits l0 = Limits().to_c();
    CHECK(l0.struct_size == sizeof(hayanagi_limits));
    CHECK(l0.searchmoves == nullptr);
    CHECK(l0.depth == 0 && l0.nodes == 0 && !l0.infinite);

    Limits l;
    l.btime(1000).wtime(2000ms).binc(std::chrono::seconds(1)).winc(5).byoyomi(3000).movestogo(4);
    l.searchmoves("7g7f 2g2f").multipv(2).ponder();
    const hayanagi_limits c = l.to_c();
    CHECK(c.btime_ms == 1000 && c.wtime_ms == 2000 && c.binc_ms == 1000 && c.winc_ms == 5);
    CHECK(c.byoyomi_ms == 3000 && c.movestogo == 4 && c.multipv == 2 && c.ponder);
    CHECK(c.searchmoves != nullptr && std::string(c.searchmoves) == "7g7f 2g2f");
    Limits moved(std::move(l));
    CHECK(std::string(moved.to_c().searchmoves) == "7g7f 2g2f");
    CHECK(moved.clear_searchmoves().to_c().searchmoves == nullptr);
}

TEST(ponder_and_ponderhit) {
    BestMoves bm;  // declared before the engine, which may call into it until destroyed
    Engine e;
    bm.install(e);
    e.go(Limits().ponder().movetime(50));
    CHECK(!e.wait(100ms));  // pondering waits for ponderhit/stop
    CHECK(bm.count() == 0);
    e.ponderhit();
    CHECK(e.wait(10s));
    CHECK(bm.count() == 1);
    e.stop();  // no-op when idle
    e.ponderhit();
}

TEST(engines_on_other_threads) {
    // Two engines searched from two host threads at once; each engine gets its best move.
    std::vector<std::string> best(2);
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; ++i) {
        threads.emplace_back([i, &best] {
            std::string mine;
            Engine e;
            e.set_position(i == 0 ? "startpos" : "startpos moves 7g7f");
            e.on_bestmove([&mine](std::string_view b, std::optional<std::string_view>) {
                mine = std::string(b);
            });
            e.go(Limits().depth(4));
            e.wait();
            best[i] = mine;
        });
    }
    for (auto& t : threads) t.join();
    CHECK(!best[0].empty() && !best[1].empty());
}

}  // namespace

int main(int argc, char** argv) {
    // An optional argument runs only the tests whose name contains it.
    const std::string_view filter = argc > 1 ? argv[1] : "";
    int passed = 0, failed = 0;
    for (const auto& t : registry()) {
        if (!filter.empty() && std::string_view(t.name).find(filter) == std::string_view::npos) {
            continue;
        }
        g_checks_failed_in_test = 0;
        bool threw = false;
        try {
            t.fn();
        } catch (const std::exception& e) {
            std::printf("    unexpected exception: %s\n", e.what());
            threw = true;
        } catch (...) {
            std::printf("    unexpected non-standard exception\n");
            threw = true;
        }
        if (threw || g_checks_failed_in_test > 0) {
            ++failed;
            std::printf("FAIL %s\n", t.name);
        } else {
            ++passed;
            std::printf("ok   %s\n", t.name);
        }
        std::fflush(stdout);
    }
    std::printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
