/* A host must never be aborted, blocked or deadlocked by the library. Regression tests for
 * the defects an independent C host found (issue "A host process must never be aborted or
 * blocked"), each group in a forked child with an alarm, so that a hang or a crash fails
 * its group instead of hanging or killing the suite:
 *
 *   big_sizes              host-sized tables beyond the machine answer HAYANAGI_NO_MEMORY
 *                          (table_new, engine_new, set_option + ready, go, USI isready) and
 *                          the engine keeps its table
 *   address_space_limit    the same under RLIMIT_AS (fault injection: the table, the mate
 *                          table's growth and the NNUE net cannot be had), engine usable
 *   log_callback_reentry   ready / new_game from inside the log callback while a book with
 *                          a bad line loads (self-deadlock before)
 *   every_callback_kind    every function from inside every callback kind: REENTRANT where
 *                          the header says so, an ordinary answer elsewhere, never a hang
 *   no_wait_on_delivery    while a best-move / mate callback is held, other threads' calls
 *                          answer at once (they blocked for the whole callback before)
 *   poll_empty_queue       an empty queue writes *out_len = 0 and an empty string
 *   last_mate_small_buffer BUFFER_TOO_SMALL writes *out_len alone, not the result struct
 *   last_mate_during_search the previous answer stays readable while a new one runs
 *   mate_shortest_flag     ANY_LENGTH: a mate in 1 is shortest, a longer line is not
 *
 * Under valgrind (HAYANAGI_TEST_SLOW set by scripts/test-c.sh) the alarms are longer and the
 * RLIMIT_AS group is skipped (valgrind needs the address space for itself). */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define MATE1_SFEN "sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1"
#define MATE3_SFEN \
    "sfen ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42"
/* Microcosmos, 1,525 plies: nothing settles it in the time of a test. */
#define LONG_SFEN                                                                             \
    "sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/" \
    "+B5G1g b - 1"
#define HUGE_MIB "1048576" /* 1 TiB: beyond any machine these tests run on */

static int slow(void) { return getenv("HAYANAGI_TEST_SLOW") != NULL; }

static int under_valgrind(void) {
    const char *p = getenv("LD_PRELOAD");
    return p && strstr(p, "vgpreload") != NULL;
}

/* ----- forked groups ------------------------------------------------------------------- */

/* Run `fn` in a child with an alarm of `secs` (x10 under valgrind). The child sends its pass
 * and fail counts through a pipe; a child killed by a signal (SIGALRM: it hung) or exiting
 * badly is one failure of the parent. */
static void run_group(const char *name, void (*fn)(void), unsigned secs) {
    int fds[2];
    if (pipe(fds) != 0) {
        CHECK(!"pipe");
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        CHECK(!"fork");
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        atomic_store(&g_pass, 0);
        atomic_store(&g_fail, 0);
        alarm(slow() ? secs * 10 : secs);
        fn();
        int counts[2] = {atomic_load(&g_pass), atomic_load(&g_fail)};
        if (write(fds[1], counts, sizeof counts) != (ssize_t)sizeof counts) _exit(3);
        close(fds[1]);
        fflush(stdout);
        fflush(stderr);
        _exit(0);
    }
    close(fds[1]);
    int counts[2] = {0, 0};
    ssize_t got = read(fds[0], counts, sizeof counts);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) {
        check_impl(0, __FILE__, __LINE__, "group %s killed by signal %d%s", name, WTERMSIG(status),
                   WTERMSIG(status) == SIGALRM ? " (it hung: a call never returned)" : "");
    } else if (got != (ssize_t)sizeof counts || WEXITSTATUS(status) != 0) {
        check_impl(0, __FILE__, __LINE__, "group %s exited with %d", name, WEXITSTATUS(status));
    }
    atomic_fetch_add(&g_pass, counts[0]);
    atomic_fetch_add(&g_fail, counts[1]);
    printf("%-26s %d passed, %d failed\n", name, counts[0], counts[1]);
}

/* ----- helpers ------------------------------------------------------------------------- */

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int bestmoves, mates, logs_with_text;
    const char *log_needle;
    char usi[8192];
} Record;

static void record_init(Record *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
}

static void record_destroy(Record *r) {
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->cond);
}

static void on_bestmove_count(void *ud, const char *best, const char *ponder) {
    (void)best;
    (void)ponder;
    Record *r = ud;
    pthread_mutex_lock(&r->lock);
    r->bestmoves++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
}

static void on_log_record(void *ud, const char *msg) {
    Record *r = ud;
    pthread_mutex_lock(&r->lock);
    if (r->log_needle && strstr(msg, r->log_needle)) r->logs_with_text++;
    pthread_mutex_unlock(&r->lock);
}

static void on_usi_record(void *ud, const char *line) {
    Record *r = ud;
    pthread_mutex_lock(&r->lock);
    size_t used = strlen(r->usi);
    snprintf(r->usi + used, sizeof r->usi - used, "%s\n", line);
    pthread_mutex_unlock(&r->lock);
}

static hayanagi_engine *new_engine(void) {
    hayanagi_engine *e = NULL;
    CHECK_ST(hayanagi_engine_new(NULL, &e), HAYANAGI_OK);
    return e;
}

static hayanagi_limits nodes_limit(int64_t nodes) {
    hayanagi_limits l;
    hayanagi_limits_init(&l);
    l.nodes = nodes;
    return l;
}

static void search_nodes(hayanagi_engine *e, int64_t nodes) {
    hayanagi_limits l = nodes_limit(nodes);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
}

static int last_error_contains(hayanagi_engine *e, const char *needle) {
    char buf[1024];
    size_t len = 0;
    if (e) {
        if (hayanagi_engine_last_error(e, buf, sizeof buf, &len) != HAYANAGI_OK) return 0;
    } else if (hayanagi_last_error(buf, sizeof buf, &len) != HAYANAGI_OK) {
        return 0;
    }
    if (!strstr(buf, needle)) {
        fprintf(stderr, "  last error \"%s\" lacks \"%s\"\n", buf, needle);
        return 0;
    }
    return 1;
}

/* The table still holds what a search of the current position stored there. */
static int table_has_current(hayanagi_engine *e) {
    hayanagi_tt_probe p;
    memset(&p, 0, sizeof p);
    return hayanagi_engine_probe_tt(e, NULL, &p) == HAYANAGI_OK && p.found;
}

/* A mate search of `sfen` run to its end (`nodes` 0: no limit), and its answer. */
static hayanagi_mate_result mate_of(hayanagi_engine *e, const char *sfen, uint64_t nodes,
                                    uint32_t flags) {
    hayanagi_mate_result m;
    memset(&m, 0, sizeof m);
    char moves[4096];
    CHECK_ST(hayanagi_engine_set_position(e, sfen), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, nodes, flags), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_last_mate(e, &m, moves, sizeof moves, NULL), HAYANAGI_OK);
    return m;
}

/* ----- big_sizes ----------------------------------------------------------------------- */

static void group_big_sizes(void) {
    hayanagi_table *t = (hayanagi_table *)(uintptr_t)0x1;
    CHECK_ST(hayanagi_table_new(1048576, &t), HAYANAGI_NO_MEMORY);
    CHECK(t == (hayanagi_table *)(uintptr_t)0x1); /* out-param untouched */
    CHECK(last_error_contains(NULL, "cannot allocate 1048576 MiB for the hash table"));

    hayanagi_engine_config cfg = {sizeof cfg, 1048576, 0};
    hayanagi_engine *none = (hayanagi_engine *)(uintptr_t)0x1;
    CHECK_ST(hayanagi_engine_new(&cfg, &none), HAYANAGI_NO_MEMORY);
    CHECK(none == (hayanagi_engine *)(uintptr_t)0x1);
    CHECK(last_error_contains(NULL, "hash table"));

    /* set_option + ready: NO_MEMORY, the table and its contents kept, option reverted. */
    hayanagi_engine *e = new_engine();
    Record rec;
    record_init(&rec);
    rec.log_needle = "cannot allocate";
    CHECK_ST(hayanagi_engine_set_log_callback(e, on_log_record, &rec, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, on_bestmove_count, &rec, NULL), HAYANAGI_OK);
    search_nodes(e, 3000);
    CHECK(table_has_current(e));
    CHECK_ST(hayanagi_engine_set_option(e, "USI_Hash", HUGE_MIB), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_NO_MEMORY);
    CHECK(last_error_contains(e, "cannot allocate 1048576 MiB for the hash table"));
    CHECK(table_has_current(e));
    /* USI_Hash reads back the size in use: nothing is pending any more. */
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
    CHECK(table_has_current(e));

    /* go without ready: the resize fails, the log says so, the search runs on the old table. */
    CHECK_ST(hayanagi_engine_set_option(e, "USI_Hash", HUGE_MIB), HAYANAGI_OK);
    search_nodes(e, 2000);
    CHECK(rec.bestmoves == 2);
    CHECK(rec.logs_with_text == 1);
    CHECK(table_has_current(e));

    /* The USI channel: an error line, readyok, and the session goes on. */
    CHECK_ST(hayanagi_engine_set_usi_output_callback(e, on_usi_record, &rec, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_usi_command(e, "setoption name USI_Hash value " HUGE_MIB), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_usi_command(e, "isready"), HAYANAGI_OK);
    CHECK_CONTAINS(rec.usi, "info string error: cannot allocate 1048576 MiB for the hash table");
    CHECK_CONTAINS(rec.usi, "readyok");
    CHECK_ST(hayanagi_engine_usi_command(e, "go nodes 1000"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK_CONTAINS(rec.usi, "bestmove ");

    /* A mate table of the largest size: it starts small, so a mate in 3 is answered. */
    CHECK_ST(hayanagi_engine_set_option(e, "MateHash", "65536"), HAYANAGI_OK);
    hayanagi_mate_result m = mate_of(e, MATE3_SFEN, 0, 0);
    CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies == 3);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    record_destroy(&rec);
}

/* ----- address_space_limit -------------------------------------------------------------- */

/* Address space in use now, in bytes (/proc/self/statm, first field). */
static uint64_t address_space_used(void) {
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long pages = 0;
    if (f) {
        if (fscanf(f, "%llu", &pages) != 1) pages = 0;
        fclose(f);
    }
    return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

static int limit_address_space(uint64_t headroom) {
    struct rlimit lim;
    lim.rlim_cur = lim.rlim_max = address_space_used() + headroom;
    return setrlimit(RLIMIT_AS, &lim) == 0;
}

/* A net file of the HalfKP 256x2-32-32 layout with zero weights (evaluates everything to
 * 0): version, two hashes (warnings only) and an empty architecture string, then the body. */
#define NET_BYTES 64216888LL
static int write_zero_net(char *path) {
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    uint32_t header[3] = {0x7AF32F16u, 0x3E5AA6EEu, 0};
    int ok = write(fd, header, sizeof header) == (ssize_t)sizeof header &&
             ftruncate(fd, NET_BYTES) == 0;
    close(fd);
    return ok;
}

static void group_address_space_limit(void) {
    hayanagi_engine *e = new_engine();
    CHECK_ST(hayanagi_engine_set_option(e, "RootMateSearch", "false"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f"), HAYANAGI_OK);
    int32_t classic = 0;
    CHECK_ST(hayanagi_engine_evaluate(e, &classic), HAYANAGI_OK);
    CHECK(classic != 0);
    /* Net A loads before the limit; net B (another file) cannot be had under it. */
    char net_a[] = "/tmp/hayanagi-net-a-XXXXXX", net_b[] = "/tmp/hayanagi-net-b-XXXXXX";
    CHECK(write_zero_net(net_a) && write_zero_net(net_b));
    CHECK_ST(hayanagi_engine_set_option(e, "EvalFile", net_a), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
    int32_t with_net = 1;
    CHECK_ST(hayanagi_engine_evaluate(e, &with_net), HAYANAGI_OK);
    CHECK(with_net == 0);
    search_nodes(e, 3000);
    CHECK(table_has_current(e));

    /* 48 MiB of address space left: not a 64 MB net, not a 2 GiB table. */
    CHECK(limit_address_space(48ull << 20));
    CHECK_ST(hayanagi_engine_set_option(e, "EvalFile", net_b), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_NO_MEMORY);
    CHECK(last_error_contains(e, "NNUE feature weights"));
    int32_t after = 1;
    CHECK_ST(hayanagi_engine_evaluate(e, &after), HAYANAGI_OK);
    CHECK(after == 0); /* net A still in use */
    CHECK_ST(hayanagi_engine_set_option(e, "EvalFile", net_a), HAYANAGI_OK);

    hayanagi_table *t = NULL;
    CHECK_ST(hayanagi_table_new(2048, &t), HAYANAGI_NO_MEMORY);
    CHECK(t == NULL);
    CHECK_ST(hayanagi_engine_set_option(e, "USI_Hash", "2048"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_NO_MEMORY);
    CHECK(last_error_contains(e, "cannot allocate 2048 MiB for the hash table"));
    CHECK(table_has_current(e));
    search_nodes(e, 2000);

    /* The mate table may grow to 1 GiB but cannot: it stays small and still answers. */
    CHECK_ST(hayanagi_engine_set_option(e, "MateHash", "1024"), HAYANAGI_OK);
    hayanagi_mate_result m = mate_of(e, LONG_SFEN, 400000, 0);
    CHECK(m.kind == HAYANAGI_MATE_TIMEOUT);
    CHECK(m.nodes >= 400000);
    m = mate_of(e, MATE3_SFEN, 0, 0);
    CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies == 3);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    unlink(net_a);
    unlink(net_b);
}

/* ----- log_callback_reentry --------------------------------------------------------------- */

typedef struct {
    hayanagi_engine *e;
    int depth, calls;
    hayanagi_status ready, new_game, set_option, set_position, clear;
} Reentry;

static void on_log_reenter(void *ud, const char *msg) {
    (void)msg;
    Reentry *r = ud;
    if (r->depth++ == 0) {
        r->calls++;
        r->ready = hayanagi_engine_ready(r->e);
        r->new_game = hayanagi_engine_new_game(r->e);
        r->set_option = hayanagi_engine_set_option(r->e, "MultiPV", "1");
        r->set_position = hayanagi_engine_set_position(r->e, "startpos");
        r->clear = hayanagi_engine_clear_hash(r->e);
    }
    r->depth--;
}

static void group_log_callback_reentry(void) {
    char book[] = "/tmp/hayanagi-book-XXXXXX";
    int fd = mkstemp(book);
    CHECK(fd >= 0);
    const char *text = "#YANEURAOU-DB2016 1.00\n"
                       "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
                       "7g7f 3c3d 0 32 60\n"
                       "this line is bad\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    for (int via_new_game = 0; via_new_game < 2; via_new_game++) {
        hayanagi_engine *e = new_engine();
        Reentry r = {e, 0, 0, -1, -1, -1, -1, -1};
        CHECK_ST(hayanagi_engine_set_log_callback(e, on_log_reenter, &r, NULL), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_set_option(e, "USI_OwnBook", "true"), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_set_option(e, "BookFile", book), HAYANAGI_OK);
        if (via_new_game) {
            CHECK_ST(hayanagi_engine_new_game(e), HAYANAGI_OK);
        } else {
            CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
        }
        CHECK(r.calls >= 1);
        CHECK_ST(r.ready, HAYANAGI_OK);
        CHECK_ST(r.new_game, HAYANAGI_OK);
        CHECK_ST(r.set_option, HAYANAGI_OK);
        CHECK_ST(r.set_position, HAYANAGI_OK);
        CHECK_ST(r.clear, HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    }
    unlink(book);
}

/* ----- every_callback_kind ---------------------------------------------------------------- */

/* Every function of the header, from inside a callback of `e` (`running`: a search of `e`
 * may be running). REENTRANT ones must say so; the others answer as anywhere else. */
static void call_everything(hayanagi_engine *e, const char *kind) {
    char buf[4096];
    size_t len;
    bool flag;
    uint32_t u32;
    uint64_t u64;
    int32_t i32, j32;
    hayanagi_tt_probe probe;
    hayanagi_mate_result mate;
    hayanagi_event ev;
    hayanagi_limits l = nodes_limit(100);
#define EXPECT(call, ...)                                                                     \
    do {                                                                                      \
        hayanagi_status st_ = (call);                                                         \
        hayanagi_status ok_[] = {__VA_ARGS__};                                                \
        int hit_ = 0;                                                                         \
        for (size_t i_ = 0; i_ < sizeof ok_ / sizeof ok_[0]; i_++) hit_ |= st_ == ok_[i_];    \
        check_impl(hit_, __FILE__, __LINE__, "in the %s callback: %s returned %d (%s)", kind, \
                   #call, st_, hayanagi_status_str(st_));                                     \
    } while (0)
    EXPECT(hayanagi_engine_go(e, &l), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_go_mate(e, 10, 0, 0), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_wait(e, 0), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_free(e), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_usi_command(e, "isready"), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_set_info_callback(e, NULL, NULL, NULL), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_set_bestmove_callback(e, NULL, NULL, NULL), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_set_mate_callback(e, NULL, NULL, NULL), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_set_log_callback(e, NULL, NULL, NULL), HAYANAGI_REENTRANT);
    EXPECT(hayanagi_engine_set_usi_output_callback(e, NULL, NULL, NULL), HAYANAGI_REENTRANT);

    EXPECT(hayanagi_engine_stop(e), HAYANAGI_OK);
    EXPECT(hayanagi_engine_ponderhit(e), HAYANAGI_OK);
    EXPECT(hayanagi_engine_is_searching(e, &flag), HAYANAGI_OK);
    EXPECT(hayanagi_engine_set_option(e, "MultiPV", "1"), HAYANAGI_OK, HAYANAGI_BUSY);
    EXPECT(hayanagi_engine_set_position(e, "startpos moves 7g7f"), HAYANAGI_OK, HAYANAGI_BUSY);
    EXPECT(hayanagi_engine_ready(e), HAYANAGI_OK, HAYANAGI_BUSY);
    EXPECT(hayanagi_engine_new_game(e), HAYANAGI_OK, HAYANAGI_BUSY);
    EXPECT(hayanagi_engine_clear_hash(e), HAYANAGI_OK, HAYANAGI_BUSY);
    hayanagi_table *t = NULL;
    EXPECT(hayanagi_table_new(1, &t), HAYANAGI_OK);
    EXPECT(hayanagi_engine_set_table(e, t), HAYANAGI_OK, HAYANAGI_BUSY);
    EXPECT(hayanagi_table_free(t), HAYANAGI_OK);
    EXPECT(hayanagi_engine_probe_tt(e, NULL, &probe), HAYANAGI_OK);
    EXPECT(hayanagi_engine_probe_tt(e, "startpos", &probe), HAYANAGI_OK);
    EXPECT(hayanagi_engine_probe_tt_key(e, 12345, &probe), HAYANAGI_OK);
    EXPECT(hayanagi_engine_hashfull(e, &u32), HAYANAGI_OK);
    EXPECT(hayanagi_engine_sfen(e, buf, sizeof buf, &len), HAYANAGI_OK);
    EXPECT(hayanagi_engine_legal_moves(e, buf, sizeof buf, &len), HAYANAGI_OK);
    EXPECT(hayanagi_engine_is_legal(e, "7g7f", &flag), HAYANAGI_OK);
    EXPECT(hayanagi_engine_perft(e, 1, &u64), HAYANAGI_OK);
    EXPECT(hayanagi_engine_evaluate(e, &i32), HAYANAGI_OK);
    EXPECT(hayanagi_engine_game_state(e, &i32, &j32), HAYANAGI_OK);
    EXPECT(hayanagi_engine_last_mate(e, &mate, buf, sizeof buf, &len), HAYANAGI_OK,
           HAYANAGI_INVALID_ARG);
    EXPECT(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK,
           HAYANAGI_INVALID_ARG);
    EXPECT(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
    EXPECT(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
    EXPECT(hayanagi_engine_enable_events(e, false), HAYANAGI_OK);
    EXPECT(hayanagi_engine_last_error(e, buf, sizeof buf, &len), HAYANAGI_OK);
    EXPECT(hayanagi_last_error(buf, sizeof buf, &len), HAYANAGI_OK);
    /* Another engine is not this engine: everything is allowed on it. */
    hayanagi_engine *other = NULL;
    EXPECT(hayanagi_engine_new(NULL, &other), HAYANAGI_OK);
    EXPECT(hayanagi_engine_go(other, &l), HAYANAGI_OK);
    EXPECT(hayanagi_engine_wait(other, -1), HAYANAGI_OK);
    EXPECT(hayanagi_engine_free(other), HAYANAGI_OK);
#undef EXPECT
}

typedef struct {
    hayanagi_engine *e;
    atomic_int info, bestmove, mate, log, usi;
} Everything;

/* Each kind is exercised once (the first call), so the group stays short. */
static void once(atomic_int *done, hayanagi_engine *e, const char *kind) {
    if (atomic_fetch_add(done, 1) == 0) call_everything(e, kind);
}

static void ev_info(void *ud, const hayanagi_info *info, const char *line) {
    (void)info;
    (void)line;
    Everything *x = ud;
    once(&x->info, x->e, "info");
}
static void ev_bestmove(void *ud, const char *best, const char *ponder) {
    (void)best;
    (void)ponder;
    Everything *x = ud;
    once(&x->bestmove, x->e, "best-move");
}
static void ev_mate(void *ud, const hayanagi_mate_result *r, const char *moves) {
    (void)r;
    (void)moves;
    Everything *x = ud;
    once(&x->mate, x->e, "mate");
}
static void ev_log(void *ud, const char *msg) {
    (void)msg;
    Everything *x = ud;
    once(&x->log, x->e, "log");
}
static void ev_usi(void *ud, const char *line) {
    (void)line;
    Everything *x = ud;
    once(&x->usi, x->e, "USI output");
}

static void group_every_callback_kind(void) {
    Everything x;
    memset(&x, 0, sizeof x);
    x.e = new_engine();
    hayanagi_engine *e = x.e;
    CHECK_ST(hayanagi_engine_set_info_callback(e, ev_info, &x, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, ev_bestmove, &x, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_mate_callback(e, ev_mate, &x, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_log_callback(e, ev_log, &x, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_usi_output_callback(e, ev_usi, &x, NULL), HAYANAGI_OK);
    /* Log: a book that cannot be read, reported on this thread by ready(). */
    CHECK_ST(hayanagi_engine_set_option(e, "USI_OwnBook", "true"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_option(e, "BookFile", "/nonexistent/book.db"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
    CHECK(atomic_load(&x.log) >= 1);
    CHECK(atomic_load(&x.usi) >= 1); /* the log line is an info string on the channel too */
    /* Info and best move: a search on the search thread. */
    CHECK_ST(hayanagi_engine_set_option(e, "USI_OwnBook", "false"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos"), HAYANAGI_OK);
    hayanagi_limits l = nodes_limit(20000);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(atomic_load(&x.info) >= 1);
    CHECK(atomic_load(&x.bestmove) == 1);
    /* Mate. */
    CHECK_ST(hayanagi_engine_set_position(e, MATE3_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 0, 0), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(atomic_load(&x.mate) == 1);
    /* The USI channel's callback on the search thread, during a search started there. */
    atomic_store(&x.usi, 0);
    CHECK_ST(hayanagi_engine_usi_command(e, "position startpos\ngo nodes 5000"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(atomic_load(&x.usi) >= 1);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* ----- no_wait_on_delivery ------------------------------------------------------------------ */

/* A callback that holds its delivery until the test releases it. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int entered, released, bestmoves, mates;
} Gate;

static void gate_hold(Gate *g, int is_mate) {
    pthread_mutex_lock(&g->lock);
    if (is_mate) g->mates++; else g->bestmoves++;
    g->entered++;
    pthread_cond_broadcast(&g->cond);
    while (g->released < g->entered) pthread_cond_wait(&g->cond, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static void gate_wait_entered(Gate *g, int n) {
    pthread_mutex_lock(&g->lock);
    while (g->entered < n) pthread_cond_wait(&g->cond, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static void gate_release(Gate *g) {
    pthread_mutex_lock(&g->lock);
    g->released++;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static void gate_bestmove(void *ud, const char *best, const char *ponder) {
    (void)best;
    (void)ponder;
    gate_hold(ud, 0);
}

static void gate_mate(void *ud, const hayanagi_mate_result *r, const char *moves) {
    (void)r;
    (void)moves;
    gate_hold(ud, 1);
}

static void group_no_wait_on_delivery(void) {
    Gate g;
    memset(&g, 0, sizeof g);
    pthread_mutex_init(&g.lock, NULL);
    pthread_cond_init(&g.cond, NULL);
    hayanagi_engine *e = new_engine();
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, gate_bestmove, &g, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_mate_callback(e, gate_mate, &g, NULL), HAYANAGI_OK);
    hayanagi_table *t = NULL;
    CHECK_ST(hayanagi_table_new(1, &t), HAYANAGI_OK);
    hayanagi_limits l = nodes_limit(1000);

    /* 1. A best move is being delivered: every call answers now, go included. */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    gate_wait_entered(&g, 1);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 2g2f"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "1"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_new_game(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_clear_hash(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_table(e, t), HAYANAGI_OK);
    /* The callback setters too; the held call keeps the slot it started with. */
    CHECK_ST(hayanagi_engine_set_info_callback(e, NULL, NULL, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, gate_bestmove, &g, NULL), HAYANAGI_OK);
    bool searching = false;
    CHECK_ST(hayanagi_engine_is_searching(e, &searching), HAYANAGI_OK);
    CHECK(searching); /* until the callback returns */
    CHECK_ST(hayanagi_engine_wait(e, 0), HAYANAGI_TIMEOUT);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK); /* starts once the callback returns */
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 1000, 0), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos"), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_info_callback(e, NULL, NULL, NULL), HAYANAGI_BUSY);
    gate_release(&g);
    gate_wait_entered(&g, 2);
    gate_release(&g);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(g.bestmoves == 2);

    /* 2. A mate search may start while a best move is being delivered, and the other way. */
    CHECK_ST(hayanagi_engine_set_position(e, MATE3_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    gate_wait_entered(&g, 3);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 0, 0), HAYANAGI_OK);
    gate_wait_entered(&g, 4); /* the mate answer, while the best move is still held */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    gate_release(&g);
    gate_release(&g);
    gate_wait_entered(&g, 5);
    gate_release(&g);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(g.bestmoves == 4);
    CHECK(g.mates == 1);
    CHECK_ST(hayanagi_engine_is_searching(e, &searching), HAYANAGI_OK);
    CHECK(!searching);

    /* 3. Threads change while a best move is held: the old pool is not waited for. */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    gate_wait_entered(&g, 6);
    CHECK_ST(hayanagi_engine_set_option(e, "Threads", "2"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    gate_wait_entered(&g, 7);
    gate_release(&g);
    gate_release(&g);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(g.bestmoves == 6);

    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_table_free(t), HAYANAGI_OK);
    pthread_mutex_destroy(&g.lock);
    pthread_cond_destroy(&g.cond);
}

/* ----- small conventions ---------------------------------------------------------------------- */

static void group_poll_empty_queue(void) {
    hayanagi_engine *e = new_engine();
    CHECK_ST(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
    hayanagi_event ev;
    memset(&ev, 0x7f, sizeof ev);
    char buf[64] = "stale text";
    size_t len = 12345;
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(ev.kind == HAYANAGI_EVENT_NONE);
    CHECK(len == 0);
    CHECK(buf[0] == '\0');
    /* A size query on an empty queue needs one byte, like any other text getter. */
    len = 12345;
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == 0);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void group_last_mate_small_buffer(void) {
    hayanagi_engine *e = new_engine();
    hayanagi_mate_result m = mate_of(e, MATE3_SFEN, 0, 0);
    m.kind = -7;
    m.plies = 77;
    char buf[2] = "x";
    size_t len = 0;
    CHECK_ST(hayanagi_engine_last_mate(e, &m, buf, sizeof buf, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(m.kind == -7 && m.plies == 77); /* out-params only on success */
    CHECK(len > 10);                      /* three USI moves */
    CHECK(buf[0] == '\0');
    char full[256];
    size_t full_len = 0;
    CHECK_ST(hayanagi_engine_last_mate(e, &m, full, sizeof full, &full_len), HAYANAGI_OK);
    CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies == 3);
    CHECK(full_len == len && strlen(full) == len);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void group_last_mate_during_search(void) {
    hayanagi_engine *e = new_engine();
    hayanagi_mate_result m = mate_of(e, MATE3_SFEN, 0, 0);
    char before[256], during[256];
    CHECK_ST(hayanagi_engine_last_mate(e, &m, before, sizeof before, NULL), HAYANAGI_OK);
    /* Far beyond a test's time and no limit: runs until stop. */
    CHECK_ST(hayanagi_engine_set_position(e, LONG_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 0, 0), HAYANAGI_OK);
    memset(&m, 0, sizeof m);
    CHECK_ST(hayanagi_engine_last_mate(e, &m, during, sizeof during, NULL), HAYANAGI_OK);
    CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies == 3);
    CHECK_STR(during, before);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_last_mate(e, &m, during, sizeof during, NULL), HAYANAGI_OK);
    CHECK(m.kind != HAYANAGI_MATE_FOUND);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void group_mate_shortest_flag(void) {
    hayanagi_engine *e = new_engine();
    hayanagi_mate_result m;
    for (int any = 0; any < 2; any++) {
        m = mate_of(e, MATE1_SFEN, 0, any ? HAYANAGI_MATE_ANY_LENGTH : 0);
        CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies == 1);
        CHECK(m.shortest); /* a mate in 1 is the shortest there is */
    }
    m = mate_of(e, MATE3_SFEN, 0, 0);
    CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies == 3 && m.shortest);
    m = mate_of(e, MATE3_SFEN, 0, HAYANAGI_MATE_ANY_LENGTH);
    CHECK(m.kind == HAYANAGI_MATE_FOUND && m.plies >= 3 && !m.shortest);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

int main(void) {
    /* No engine exists in this process before the forks: each child starts clean. */
    run_group("big_sizes", group_big_sizes, 60);
    if (under_valgrind()) {
        printf("%-26s skipped under valgrind (it needs the address space)\n",
               "address_space_limit");
    } else {
        run_group("address_space_limit", group_address_space_limit, 60);
    }
    run_group("log_callback_reentry", group_log_callback_reentry, 20);
    run_group("every_callback_kind", group_every_callback_kind, 60);
    run_group("no_wait_on_delivery", group_no_wait_on_delivery, 30);
    run_group("poll_empty_queue", group_poll_empty_queue, 10);
    run_group("last_mate_small_buffer", group_last_mate_small_buffer, 20);
    run_group("last_mate_during_search", group_last_mate_during_search, 20);
    run_group("mate_shortest_flag", group_mate_shortest_flag, 20);
    return finish();
}
