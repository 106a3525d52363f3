/* The asynchronous C API: go/stop/wait, BUSY while searching, callback reentrancy, free
 * while searching and from another thread, event polling, resign on a mated position,
 * ponder/ponderhit, searchmoves, MultiPV, two engines in two threads and a shared table.
 *
 * Uses only the public header. Prints "N passed, M failed" and exits non-zero on failure.
 * HAYANAGI_TEST_SLOW=1 (set by scripts/test-c.sh under valgrind) shortens the searches. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hayanagi.h"

#include "check.h"

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* Generous upper bound for one wait: a stopped search answers within milliseconds natively,
 * but valgrind is ~50x slower. */
#define WAIT_MS 60000

#define MATED_SFEN "1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116"

static int g_slow; /* under valgrind: shallower searches */

static hayanagi_engine *new_engine(void) {
    hayanagi_engine *e = NULL;
    hayanagi_engine_config c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    c.hash_mib = 4; /* small tables keep valgrind fast */
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_OK);
    if (!e) {
        fprintf(stderr, "cannot create an engine\n");
        exit(finish() | 1);
    }
    return e;
}

static hayanagi_limits depth_limits(int depth) {
    hayanagi_limits l;
    hayanagi_limits_init(&l);
    l.depth = depth;
    return l;
}

static bool is_legal(hayanagi_engine *e, const char *move) {
    bool b = false;
    CHECK_ST(hayanagi_engine_is_legal(e, move, &b), HAYANAGI_OK);
    return b;
}

/* ----- a recorder for callbacks --------------------------------------------------------- */

typedef struct {
    atomic_int bestmoves;
    atomic_int infos;
    atomic_int freed;
    atomic_int bestmoves_at_free; /* bestmoves counted when user data was released */
    atomic_int bad_info;
    atomic_int max_multipv;
    char best[32];
    char ponder[32];
    bool had_ponder;
} recorder;

static void rec_init(recorder *r) {
    memset(r, 0, sizeof *r);
    atomic_init(&r->bestmoves, 0);
    atomic_init(&r->infos, 0);
    atomic_init(&r->freed, 0);
    atomic_init(&r->bestmoves_at_free, -1);
    atomic_init(&r->bad_info, 0);
    atomic_init(&r->max_multipv, 0);
}

static void rec_info(void *ud, const hayanagi_info *info, const char *line) {
    recorder *r = (recorder *)ud;
    atomic_fetch_add(&r->infos, 1);
    if (!info || !line || strncmp(line, "info ", 5) != 0 || !info->pv ||
        (info->score_kind != HAYANAGI_SCORE_CP && info->score_kind != HAYANAGI_SCORE_MATE) ||
        info->bound < HAYANAGI_BOUND_EXACT || info->bound > HAYANAGI_BOUND_UPPER ||
        info->multipv < 1) {
        atomic_fetch_add(&r->bad_info, 1);
    }
    if (info && (int)info->multipv > atomic_load(&r->max_multipv)) {
        atomic_store(&r->max_multipv, (int)info->multipv);
    }
}

static void rec_best(void *ud, const char *best, const char *ponder) {
    recorder *r = (recorder *)ud;
    snprintf(r->best, sizeof r->best, "%s", best ? best : "(null)");
    r->had_ponder = ponder != NULL;
    snprintf(r->ponder, sizeof r->ponder, "%s", ponder ? ponder : "");
    atomic_fetch_add(&r->bestmoves, 1);
}

static void rec_free(void *ud) {
    recorder *r = (recorder *)ud;
    atomic_store(&r->bestmoves_at_free, atomic_load(&r->bestmoves));
    atomic_fetch_add(&r->freed, 1);
}

static void attach(hayanagi_engine *e, recorder *r, bool with_free) {
    CHECK_ST(hayanagi_engine_set_info_callback(e, rec_info, r, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, rec_best, r, with_free ? rec_free : NULL),
             HAYANAGI_OK);
}

/* ----- tests ---------------------------------------------------------------------------- */

static void test_depth_search(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    bool searching = true;
    hayanagi_tt_probe probe;
    uint32_t hf = 0;
    rec_init(&r);
    attach(e, &r, false);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f 3c3d"), HAYANAGI_OK);
    hayanagi_limits l = depth_limits(g_slow ? 3 : 5);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    /* wait returns after the best move was delivered */
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK_ST(hayanagi_engine_is_searching(e, &searching), HAYANAGI_OK);
    CHECK(!searching);
    CHECK(atomic_load(&r.infos) > 0);
    CHECK(atomic_load(&r.bad_info) == 0);
    CHECK(is_legal(e, r.best));
    if (r.had_ponder) CHECK(r.ponder[0] != '\0');
    /* The root is in the table now. */
    memset(&probe, 0, sizeof probe);
    CHECK_ST(hayanagi_engine_probe_tt(e, NULL, &probe), HAYANAGI_OK);
    CHECK(probe.found);
    CHECK(probe.depth > 0);
    CHECK(probe.move_legal);
    CHECK(probe.move_usi[0] != '\0' && is_legal(e, probe.move_usi));
    CHECK(probe.bound >= HAYANAGI_BOUND_EXACT && probe.bound <= HAYANAGI_BOUND_UPPER);
    CHECK(probe.score_kind == HAYANAGI_SCORE_CP || probe.score_kind == HAYANAGI_SCORE_MATE);
    CHECK_ST(hayanagi_engine_hashfull(e, &hf), HAYANAGI_OK);
    CHECK(hf <= 1000);
    /* A second go after the first finished is fine, and delivers one more move. */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 2);
    /* clear_hash forgets the root entry. */
    CHECK_ST(hayanagi_engine_clear_hash(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_probe_tt(e, NULL, &probe), HAYANAGI_OK);
    CHECK(!probe.found);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 2);
}

static int g_log_free;
static void count_log_free(void *ud) { (void)ud; g_log_free++; }
static void log_noop(void *ud, const char *m) { (void)ud; (void)m; }

/* While a search runs: go, set_position, set_option, callback setters, ready, new_game,
 * clear_hash and set_table are BUSY; wait with a timeout times out; stop ends it. */
static void test_busy(void) {
    hayanagi_engine *e = new_engine();
    recorder r, other;
    bool searching = false;
    hayanagi_table *t = NULL;
    char sfen_before[256], sfen_after[256];
    size_t len;
    rec_init(&r);
    rec_init(&other);
    attach(e, &r, true);
    CHECK_ST(hayanagi_table_new(1, &t), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_sfen(e, sfen_before, sizeof sfen_before, &len), HAYANAGI_OK);

    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK); /* infinite */
    CHECK_ST(hayanagi_engine_is_searching(e, &searching), HAYANAGI_OK);
    CHECK(searching);
    hayanagi_limits l = depth_limits(1);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f"), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "2"), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_info_callback(e, rec_info, &other, NULL), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, rec_best, &other, rec_free), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_log_callback(e, log_noop, NULL, NULL), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_new_game(e), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_clear_hash(e), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_table(e, t), HAYANAGI_BUSY);
    {
        char msg[256];
        size_t n = 0;
        CHECK_ST(hayanagi_engine_last_error(e, msg, sizeof msg, &n), HAYANAGI_OK);
        CHECK(n > 0);
    }
    /* Reading calls still work. */
    {
        uint64_t nodes = 0;
        int32_t v;
        bool b;
        CHECK_ST(hayanagi_engine_perft(e, 2, &nodes), HAYANAGI_OK);
        CHECK(nodes == 900);
        CHECK_ST(hayanagi_engine_evaluate(e, &v), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_is_legal(e, "7g7f", &b), HAYANAGI_OK);
        CHECK(b);
    }
    CHECK_ST(hayanagi_engine_wait(e, 20), HAYANAGI_TIMEOUT);
    CHECK_ST(hayanagi_engine_wait(e, 0), HAYANAGI_TIMEOUT);
    CHECK(atomic_load(&r.bestmoves) == 0); /* an infinite search waits for stop */
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK); /* twice is fine */
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK(is_legal(e, r.best));
    CHECK_ST(hayanagi_engine_sfen(e, sfen_after, sizeof sfen_after, &len), HAYANAGI_OK);
    CHECK_STR(sfen_after, sfen_before); /* the BUSY set_position changed nothing */
    CHECK(atomic_load(&r.freed) == 0);  /* the BUSY setter did not release anything */
    CHECK(atomic_load(&other.freed) == 0);

    /* Idle again: everything works. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "1"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_table(e, t), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_new_game(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_log_callback(e, log_noop, NULL, count_log_free), HAYANAGI_OK);
    CHECK_ST(hayanagi_table_free(t), HAYANAGI_OK); /* the engine keeps the table alive */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 2);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&r.freed) == 1);
    CHECK(g_log_free == 1);
}

/* ----- reentrancy ----------------------------------------------------------------------- */

typedef struct {
    hayanagi_engine *e;
    atomic_int calls;
    hayanagi_status go, go_null, wait, wait0, free_, set_info, set_best, set_log, stop,
        set_position, ponderhit, is_searching, poll, sfen;
    bool searching;
    hayanagi_event ev;
    atomic_int info_calls;
    hayanagi_status i_go, i_wait, i_free, i_set_info, i_set_best, i_set_log, i_stop;
} reent;

static void reent_probe_best(void *ud, const char *best, const char *ponder) {
    reent *x = (reent *)ud;
    (void)best;
    (void)ponder;
    if (atomic_fetch_add(&x->calls, 1) != 0) return;
    hayanagi_limits l = depth_limits(1);
    x->go = hayanagi_engine_go(x->e, &l);
    x->go_null = hayanagi_engine_go(x->e, NULL);
    x->wait = hayanagi_engine_wait(x->e, -1);
    x->wait0 = hayanagi_engine_wait(x->e, 0);
    x->free_ = hayanagi_engine_free(x->e);
    x->set_info = hayanagi_engine_set_info_callback(x->e, NULL, NULL, NULL);
    x->set_best = hayanagi_engine_set_bestmove_callback(x->e, NULL, NULL, NULL);
    x->set_log = hayanagi_engine_set_log_callback(x->e, NULL, NULL, NULL);
    x->stop = hayanagi_engine_stop(x->e);
    x->ponderhit = hayanagi_engine_ponderhit(x->e);
    x->set_position = hayanagi_engine_set_position(x->e, "startpos");
    x->is_searching = hayanagi_engine_is_searching(x->e, &x->searching);
    /* Reading calls and the event queue work from inside a callback (no self-deadlock). */
    {
        char buf[512];
        size_t len = 0;
        x->poll = hayanagi_engine_poll_event(x->e, &x->ev, buf, sizeof buf, &len);
        x->sfen = hayanagi_engine_sfen(x->e, buf, sizeof buf, &len);
    }
}

static void reent_probe_info(void *ud, const hayanagi_info *info, const char *line) {
    reent *x = (reent *)ud;
    (void)info;
    (void)line;
    if (atomic_fetch_add(&x->info_calls, 1) != 0) return;
    hayanagi_limits l = depth_limits(1);
    x->i_go = hayanagi_engine_go(x->e, &l);
    x->i_wait = hayanagi_engine_wait(x->e, 100);
    x->i_free = hayanagi_engine_free(x->e);
    x->i_set_info = hayanagi_engine_set_info_callback(x->e, NULL, NULL, NULL);
    x->i_set_best = hayanagi_engine_set_bestmove_callback(x->e, NULL, NULL, NULL);
    x->i_set_log = hayanagi_engine_set_log_callback(x->e, NULL, NULL, NULL);
    x->i_stop = hayanagi_engine_stop(x->e); /* ends the infinite search */
}

static void test_reentrancy(void) {
    reent x;
    memset(&x, 0, sizeof x);
    atomic_init(&x.calls, 0);
    atomic_init(&x.info_calls, 0);
    x.e = new_engine();
    CHECK_ST(hayanagi_engine_enable_events(x.e, true), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(x.e, reent_probe_best, &x, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_info_callback(x.e, reent_probe_info, &x, NULL), HAYANAGI_OK);
    /* Infinite: only the stop() inside the info callback can end it. */
    CHECK_ST(hayanagi_engine_go(x.e, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(x.e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&x.calls) == 1);
    CHECK(atomic_load(&x.info_calls) >= 1);
    /* inside the info callback */
    CHECK(x.i_go == HAYANAGI_REENTRANT);
    CHECK(x.i_wait == HAYANAGI_REENTRANT);
    CHECK(x.i_free == HAYANAGI_REENTRANT);
    CHECK(x.i_set_info == HAYANAGI_REENTRANT);
    CHECK(x.i_set_best == HAYANAGI_REENTRANT);
    CHECK(x.i_set_log == HAYANAGI_REENTRANT);
    CHECK(x.i_stop == HAYANAGI_OK);
    /* inside the best-move callback */
    check_impl(x.go == HAYANAGI_REENTRANT, __FILE__, __LINE__, "go in callback: %d", x.go);
    CHECK(x.go_null == HAYANAGI_REENTRANT);
    check_impl(x.wait == HAYANAGI_REENTRANT, __FILE__, __LINE__, "wait in callback: %d", x.wait);
    CHECK(x.wait0 == HAYANAGI_REENTRANT);
    check_impl(x.free_ == HAYANAGI_REENTRANT, __FILE__, __LINE__, "free in callback: %d", x.free_);
    CHECK(x.set_info == HAYANAGI_REENTRANT);
    CHECK(x.set_best == HAYANAGI_REENTRANT);
    CHECK(x.set_log == HAYANAGI_REENTRANT);
    CHECK(x.stop == HAYANAGI_OK);
    CHECK(x.ponderhit == HAYANAGI_OK);
    /* The search stops running once its answer is final: the best-move callback may set
     * the next position; is_searching() stays true until the callback has returned. */
    CHECK(x.set_position == HAYANAGI_OK);
    CHECK(x.is_searching == HAYANAGI_OK);
    CHECK(x.searching);
    CHECK(x.poll == HAYANAGI_OK);
    CHECK(x.ev.kind == HAYANAGI_EVENT_INFO); /* the oldest queued event */
    CHECK(x.sfen == HAYANAGI_OK);
    {
        char msg[256];
        size_t n;
        CHECK_ST(hayanagi_engine_last_error(x.e, msg, sizeof msg, &n), HAYANAGI_OK);
        CHECK(n > 0);
    }
    /* The engine is intact: the callbacks are still set and it can search again. */
    hayanagi_limits l = depth_limits(2);
    CHECK_ST(hayanagi_engine_go(x.e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(x.e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&x.calls) == 2);
    CHECK_ST(hayanagi_engine_free(x.e), HAYANAGI_OK);
}

/* A callback of engine A may drive engine B: reentrancy is per engine. */
typedef struct {
    hayanagi_engine *other;
    hayanagi_status set_pos, go, wait;
    atomic_int calls;
} cross;

static void cross_best(void *ud, const char *best, const char *ponder) {
    cross *c = (cross *)ud;
    (void)best;
    (void)ponder;
    if (atomic_fetch_add(&c->calls, 1) != 0) return;
    hayanagi_limits l = depth_limits(1);
    c->set_pos = hayanagi_engine_set_position(c->other, "startpos moves 2g2f");
    c->go = hayanagi_engine_go(c->other, &l);
    c->wait = hayanagi_engine_wait(c->other, WAIT_MS);
}

static void test_cross_engine_calls(void) {
    hayanagi_engine *a = new_engine(), *b = new_engine();
    cross c;
    recorder rb;
    memset(&c, 0, sizeof c);
    atomic_init(&c.calls, 0);
    c.other = b;
    rec_init(&rb);
    attach(b, &rb, false);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(a, cross_best, &c, NULL), HAYANAGI_OK);
    hayanagi_limits l = depth_limits(1);
    CHECK_ST(hayanagi_engine_go(a, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(a, WAIT_MS), HAYANAGI_OK);
    CHECK(c.set_pos == HAYANAGI_OK);
    CHECK(c.go == HAYANAGI_OK);
    CHECK(c.wait == HAYANAGI_OK);
    CHECK(atomic_load(&rb.bestmoves) == 1);
    CHECK(is_legal(b, rb.best));
    CHECK_ST(hayanagi_engine_free(a), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(b), HAYANAGI_OK);
}

/* ----- free while searching ------------------------------------------------------------- */

static void test_free_while_searching(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    rec_init(&r);
    attach(e, &r, true);
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK); /* infinite */
    sleep_ms(20);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK); /* stops and joins */
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK(atomic_load(&r.freed) == 1);
    CHECK(atomic_load(&r.bestmoves_at_free) == 1); /* released after the move was delivered */
    CHECK(strlen(r.best) >= 4);

    /* At once after go, before the thread did anything. */
    e = new_engine();
    rec_init(&r);
    attach(e, &r, true);
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK(atomic_load(&r.freed) == 1);
    CHECK(atomic_load(&r.bestmoves_at_free) == 1);

    /* While pondering (waits for ponderhit/stop after its search). */
    e = new_engine();
    rec_init(&r);
    attach(e, &r, true);
    hayanagi_limits l = depth_limits(1);
    l.ponder = true;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    sleep_ms(10);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK(atomic_load(&r.freed) == 1);
}

typedef struct {
    hayanagi_engine *e;
    hayanagi_status st;
} free_job;

static void *free_thread(void *arg) {
    free_job *j = (free_job *)arg;
    j->st = hayanagi_engine_free(j->e);
    return NULL;
}

static void test_free_from_other_thread(void) {
    for (int searching = 0; searching < 2; searching++) {
        hayanagi_engine *e = new_engine();
        recorder r;
        pthread_t th;
        free_job j = {e, -1};
        rec_init(&r);
        attach(e, &r, true);
        if (searching) {
            CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
            sleep_ms(5);
        } else {
            hayanagi_limits l = depth_limits(2);
            CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
            CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
        }
        CHECK(pthread_create(&th, NULL, free_thread, &j) == 0);
        CHECK(pthread_join(th, NULL) == 0);
        CHECK(j.st == HAYANAGI_OK);
        CHECK(atomic_load(&r.bestmoves) == 1);
        CHECK(atomic_load(&r.freed) == 1);
        CHECK(atomic_load(&r.bestmoves_at_free) == 1);
    }
}

typedef struct {
    hayanagi_engine *e;
    hayanagi_status st;
    int bestmoves_seen;
    recorder *r;
} wait_job;

static void *wait_thread(void *arg) {
    wait_job *j = (wait_job *)arg;
    j->st = hayanagi_engine_wait(j->e, WAIT_MS);
    j->bestmoves_seen = atomic_load(&j->r->bestmoves);
    return NULL;
}

/* Several threads wait on one engine; a third thread stops it. All wake up after the
 * best move was delivered. */
static void test_wait_from_threads(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    pthread_t th[3];
    wait_job j[3];
    rec_init(&r);
    attach(e, &r, false);
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
    for (int i = 0; i < 3; i++) {
        j[i].e = e;
        j[i].st = -1;
        j[i].bestmoves_seen = -1;
        j[i].r = &r;
        CHECK(pthread_create(&th[i], NULL, wait_thread, &j[i]) == 0);
    }
    sleep_ms(20);
    CHECK(atomic_load(&r.bestmoves) == 0);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    for (int i = 0; i < 3; i++) {
        pthread_join(th[i], NULL);
        CHECK(j[i].st == HAYANAGI_OK);
        CHECK(j[i].bestmoves_seen == 1);
    }
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 1);
}

/* ----- mated positions, ponder, searchmoves, MultiPV ------------------------------------ */

static void test_resign(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    rec_init(&r);
    attach(e, &r, false);
    CHECK_ST(hayanagi_engine_set_position(e, "sfen " MATED_SFEN), HAYANAGI_OK);
    hayanagi_limits l = depth_limits(3);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK_STR(r.best, "resign");
    CHECK(!r.had_ponder);
    /* An infinite search on a mated position: like USI `go infinite`, it may hold its
     * answer until stop; after stop it is "resign", once. */
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
    hayanagi_status st = hayanagi_engine_wait(e, 50);
    CHECK(st == HAYANAGI_OK || st == HAYANAGI_TIMEOUT);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 2);
    CHECK_STR(r.best, "resign");
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_ponder(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    bool searching = false;
    rec_init(&r);
    attach(e, &r, false);
    hayanagi_limits l;
    hayanagi_limits_init(&l);
    l.ponder = true;
    l.depth = 2;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    sleep_ms(g_slow ? 500 : 100);
    /* A ponder search keeps waiting after it finished its work. */
    CHECK_ST(hayanagi_engine_is_searching(e, &searching), HAYANAGI_OK);
    CHECK(searching);
    CHECK(atomic_load(&r.bestmoves) == 0);
    CHECK_ST(hayanagi_engine_ponderhit(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 1);
    CHECK(is_legal(e, r.best));
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_searchmoves_multipv(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    rec_init(&r);
    attach(e, &r, false);
    hayanagi_limits l = depth_limits(3);
    l.searchmoves = "1g1f";
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK_STR(r.best, "1g1f");

    l = depth_limits(3);
    l.multipv = 3;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.max_multipv) == 3);
    CHECK(atomic_load(&r.bestmoves) == 2);

    /* The MultiPV option applies when limits.multipv is 0. */
    rec_init(&r);
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "2"), HAYANAGI_OK);
    l = depth_limits(2);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.max_multipv) == 2);
    CHECK(atomic_load(&r.bad_info) == 0);

    /* Node and time limits end the search by themselves. */
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "1"), HAYANAGI_OK);
    hayanagi_limits_init(&l);
    l.nodes = 2000;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    hayanagi_limits_init(&l);
    l.movetime_ms = 50;
    double t0 = now_ms();
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    if (!g_slow) {
        double dt = now_ms() - t0;
        check_impl(dt < 1000, __FILE__, __LINE__, "movetime 50 took %.0f ms", dt);
    }
    hayanagi_limits_init(&l);
    l.btime_ms = 1000;
    l.wtime_ms = 1000;
    l.byoyomi_ms = 100;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == 4);
    CHECK(is_legal(e, r.best));
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* ----- event polling -------------------------------------------------------------------- */

static void test_poll_events(void) {
    hayanagi_engine *e = new_engine();
    recorder r;
    hayanagi_event ev;
    char buf[4096], tiny[4];
    size_t len = 0;
    int infos = 0, bests = 0, order_ok = 1, too_small_checked = 0;
    rec_init(&r);
    attach(e, &r, false); /* callbacks and events both receive everything */
    CHECK_ST(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
    hayanagi_limits l = depth_limits(g_slow ? 3 : 4);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);

    for (int guard = 0; guard < 10000; guard++) {
        if (!too_small_checked) {
            /* Too small: the size needed, and the event stays queued. */
            len = 0;
            memset(&ev, 0, sizeof ev);
            CHECK_ST(hayanagi_engine_poll_event(e, &ev, tiny, sizeof tiny, &len),
                     HAYANAGI_BUFFER_TOO_SMALL);
            CHECK(len > sizeof tiny);
            CHECK(tiny[0] == '\0');
            size_t need = len;
            len = 0;
            CHECK_ST(hayanagi_engine_poll_event(e, &ev, NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
            CHECK(len == need);
            CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, need, &len), HAYANAGI_BUFFER_TOO_SMALL);
            CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, need + 1, &len), HAYANAGI_OK);
            CHECK(len == need && strlen(buf) == need);
            too_small_checked = 1;
        } else {
            CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
        }
        if (ev.kind == HAYANAGI_EVENT_NONE) break;
        if (ev.kind == HAYANAGI_EVENT_INFO) {
            infos++;
            if (bests) order_ok = 0;
            CHECK(strncmp(buf, "info ", 5) == 0);
            CHECK(ev.info.pv == NULL);
            CHECK(ev.info.depth >= 1);
            CHECK(strlen(buf) == len);
        } else if (ev.kind == HAYANAGI_EVENT_BESTMOVE) {
            bests++;
            CHECK(strncmp(buf, "bestmove ", 9) == 0);
            char move[32] = "";
            sscanf(buf + 9, "%31s", move);
            CHECK_STR(move, r.best);
            CHECK(is_legal(e, move));
        } else {
            check_impl(0, __FILE__, __LINE__, "unknown event kind %d", ev.kind);
            break;
        }
    }
    CHECK(bests == 1);
    CHECK(infos >= 1);
    CHECK(infos == atomic_load(&r.infos));
    CHECK(order_ok);
    CHECK(ev.kind == HAYANAGI_EVENT_NONE);

    /* Disabling drops what is queued; re-enabling starts empty. */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_enable_events(e, false), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(ev.kind == HAYANAGI_EVENT_NONE);

    /* Poll-only host: no callbacks, events polled while the search runs. */
    CHECK_ST(hayanagi_engine_set_info_callback(e, NULL, NULL, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, NULL, NULL, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
    bests = 0;
    infos = 0;
    bool stopped = false;
    double t0 = now_ms();
    while (bests == 0 && now_ms() - t0 < WAIT_MS) {
        CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
        if (ev.kind == HAYANAGI_EVENT_INFO) infos++;
        if (ev.kind == HAYANAGI_EVENT_BESTMOVE) bests++;
        if (ev.kind == HAYANAGI_EVENT_NONE) {
            if (!stopped && (infos > 0 || now_ms() - t0 > 200)) {
                CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
                stopped = true;
            }
            sleep_ms(1);
        }
    }
    CHECK(bests == 1);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(ev.kind == HAYANAGI_EVENT_NONE);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* ----- two engines in two threads, shared table ----------------------------------------- */

typedef struct {
    const char *position;
    int depth;
    int ok;
    char best[32];
} job;

static void *engine_thread(void *arg) {
    job *j = (job *)arg;
    hayanagi_engine *e = new_engine();
    recorder r;
    rec_init(&r);
    attach(e, &r, true);
    CHECK_ST(hayanagi_engine_set_position(e, j->position), HAYANAGI_OK);
    for (int round = 0; round < 3; round++) {
        hayanagi_limits l = depth_limits(j->depth);
        CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
        CHECK(is_legal(e, r.best));
    }
    /* and an infinite one stopped from this thread */
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
    sleep_ms(10);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, WAIT_MS), HAYANAGI_OK);
    j->ok = atomic_load(&r.bestmoves) == 4 && is_legal(e, r.best);
    snprintf(j->best, sizeof j->best, "%s", r.best);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    j->ok = j->ok && atomic_load(&r.freed) == 1;
    return NULL;
}

static void test_two_engines_two_threads(void) {
    job a = {"startpos moves 7g7f 3c3d", g_slow ? 3 : 5, 0, ""};
    job b = {"sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
             g_slow ? 3 : 5, 0, ""};
    pthread_t ta, tb;
    CHECK(pthread_create(&ta, NULL, engine_thread, &a) == 0);
    CHECK(pthread_create(&tb, NULL, engine_thread, &b) == 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(a.ok);
    CHECK(b.ok);
}

static void test_shared_table(void) {
    hayanagi_table *t = NULL;
    hayanagi_engine *e1 = new_engine(), *e2 = new_engine(), *e3 = new_engine();
    hayanagi_tt_probe probe;
    recorder r;
    rec_init(&r);
    attach(e1, &r, false);
    CHECK_ST(hayanagi_table_new(2, &t), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_table(e1, t), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_table(e2, t), HAYANAGI_OK);
    CHECK_ST(hayanagi_table_free(t), HAYANAGI_OK); /* the engines keep it alive */

    const char *pos = "startpos moves 2g2f 8c8d";
    CHECK_ST(hayanagi_engine_set_position(e1, pos), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e2, pos), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e3, pos), HAYANAGI_OK);
    memset(&probe, 0x5a, sizeof probe);
    CHECK_ST(hayanagi_engine_probe_tt(e2, NULL, &probe), HAYANAGI_OK);
    CHECK(!probe.found);

    hayanagi_limits l = depth_limits(g_slow ? 3 : 5);
    CHECK_ST(hayanagi_engine_go(e1, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e1, WAIT_MS), HAYANAGI_OK);

    /* e2 sees e1's entry for the root; e3 (own table) does not. */
    memset(&probe, 0, sizeof probe);
    CHECK_ST(hayanagi_engine_probe_tt(e2, NULL, &probe), HAYANAGI_OK);
    CHECK(probe.found);
    CHECK(probe.depth >= 1);
    CHECK(probe.move_legal);
    CHECK(is_legal(e2, probe.move_usi));
    {
        hayanagi_tt_probe p1;
        memset(&p1, 0, sizeof p1);
        CHECK_ST(hayanagi_engine_probe_tt(e1, NULL, &p1), HAYANAGI_OK);
        CHECK(p1.found && p1.depth == probe.depth && strcmp(p1.move_usi, probe.move_usi) == 0);
    }
    /* probe by position text, from an engine at another position */
    CHECK_ST(hayanagi_engine_set_position(e2, "startpos"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_probe_tt(e2, pos, &probe), HAYANAGI_OK);
    CHECK(probe.found);
    CHECK_ST(hayanagi_engine_probe_tt(e3, NULL, &probe), HAYANAGI_OK);
    CHECK(!probe.found);
    {
        uint32_t hf1 = 0, hf2 = 0;
        CHECK_ST(hayanagi_engine_hashfull(e1, &hf1), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_hashfull(e2, &hf2), HAYANAGI_OK);
        CHECK(hf1 == hf2);
    }
    /* probe_tt_key: an arbitrary key is (almost surely) absent, and the call succeeds. */
    CHECK_ST(hayanagi_engine_probe_tt_key(e2, 0xfedcba9876543210ULL, &probe), HAYANAGI_OK);
    /* clear_hash on one engine clears the shared table. */
    CHECK_ST(hayanagi_engine_clear_hash(e2), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_probe_tt(e1, NULL, &probe), HAYANAGI_OK);
    CHECK(!probe.found);

    /* e3 joins the table of e1 by a new handle: set_table replaces its own. */
    CHECK_ST(hayanagi_engine_free(e1), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(e2), HAYANAGI_OK); /* last user: the table goes */
    CHECK_ST(hayanagi_engine_free(e3), HAYANAGI_OK);
}

int main(void) {
    const char *slow = getenv("HAYANAGI_TEST_SLOW");
    g_slow = slow && *slow && strcmp(slow, "0") != 0;
    double t0 = now_ms();
    test_depth_search();
    test_busy();
    test_reentrancy();
    test_cross_engine_calls();
    test_free_while_searching();
    test_free_from_other_thread();
    test_wait_from_threads();
    test_resign();
    test_ponder();
    test_searchmoves_multipv();
    test_poll_events();
    test_two_engines_two_threads();
    test_shared_table();
    fprintf(stderr, "test_search: %.0f ms\n", now_ms() - t0);
    return finish();
}
