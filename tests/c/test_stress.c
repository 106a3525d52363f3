/* go/stop races: many cycles of go (infinite, or a short limit) followed after a seeded
 * random delay of 0-3 ms by stop (from this thread or from a helper thread), then wait.
 * Every cycle must yield exactly one best move, delivered before wait returns, legal in the
 * searched position (hayanagi_engine_is_legal). Plus go/stop/free races.
 *
 *   HAYANAGI_TEST_CYCLES  number of cycles (default 1000; scripts/test-c.sh uses fewer under
 *                         valgrind)
 *   HAYANAGI_TEST_SEED    seed of the delays (default 20240611; printed on failure)
 *
 * Uses only the public header. Prints "N passed, M failed" and exits non-zero on failure. */
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

/* Keep the log short when something breaks in a loop. */
#define CHECK_LOG_LIMIT 20
#include "check.h"

static uint64_t g_rng;
static uint32_t rnd(void) { /* xorshift64* */
    g_rng ^= g_rng >> 12;
    g_rng ^= g_rng << 25;
    g_rng ^= g_rng >> 27;
    return (uint32_t)((g_rng * 0x2545F4914F6CDD1DULL) >> 32);
}

static void sleep_us(long us) {
    struct timespec ts = {us / 1000000L, (us % 1000000L) * 1000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

#define WAIT_MS 60000

static const char *const POSITIONS[] = {
    "startpos",
    "startpos moves 7g7f 3c3d 8h2b+ 3a2b",
    "sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "sfen 8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
    /* mated: the answer is "resign" */
    "sfen 1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116",
};
#define N_POSITIONS (sizeof POSITIONS / sizeof POSITIONS[0])
#define MATED_INDEX 4

typedef struct {
    atomic_int bestmoves;
    atomic_int bad_strings;
    char best[32];
} recorder;

static void on_best(void *ud, const char *best, const char *ponder) {
    recorder *r = (recorder *)ud;
    if (!best || strlen(best) >= sizeof r->best || (ponder && strlen(ponder) > 6)) {
        atomic_fetch_add(&r->bad_strings, 1);
    }
    snprintf(r->best, sizeof r->best, "%s", best ? best : "(null)");
    atomic_fetch_add(&r->bestmoves, 1);
}

static void on_info(void *ud, const hayanagi_info *info, const char *line) {
    recorder *r = (recorder *)ud;
    if (!info || !line || strncmp(line, "info ", 5) != 0) atomic_fetch_add(&r->bad_strings, 1);
}

/* A helper thread that stops the engine when asked (stop from another thread). */
typedef struct {
    hayanagi_engine *e;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int pending; /* delay in us of a stop to perform, -1 = none */
    int quit;
    int done;
} stopper;

static void *stopper_main(void *arg) {
    stopper *s = (stopper *)arg;
    pthread_mutex_lock(&s->mu);
    for (;;) {
        while (s->pending < 0 && !s->quit) pthread_cond_wait(&s->cv, &s->mu);
        if (s->quit) break;
        int delay = s->pending;
        s->pending = -1;
        pthread_mutex_unlock(&s->mu);
        if (delay > 0) sleep_us(delay);
        hayanagi_status st = hayanagi_engine_stop(s->e);
        check_impl(st == HAYANAGI_OK, __FILE__, __LINE__, "stop from a thread: %d", st);
        pthread_mutex_lock(&s->mu);
        s->done++;
        pthread_cond_broadcast(&s->cv);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static void test_go_stop_cycles(int cycles, uint64_t seed) {
    hayanagi_engine *e = NULL;
    hayanagi_engine_config c;
    recorder r;
    stopper s;
    pthread_t th;
    int resigns = 0, moves = 0, late = 0;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    c.hash_mib = 4;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_OK);
    if (!e) return;
    memset(&r, 0, sizeof r);
    atomic_init(&r.bestmoves, 0);
    atomic_init(&r.bad_strings, 0);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, on_best, &r, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_info_callback(e, on_info, &r, NULL), HAYANAGI_OK);

    memset(&s, 0, sizeof s);
    s.e = e;
    s.pending = -1;
    pthread_mutex_init(&s.mu, NULL);
    pthread_cond_init(&s.cv, NULL);
    CHECK(pthread_create(&th, NULL, stopper_main, &s) == 0);

    g_rng = seed ? seed : 1;
    for (int i = 0; i < cycles; i++) {
        uint32_t x = rnd();
        size_t pi = x % N_POSITIONS;
        int delay_us = (int)(rnd() % 3001); /* 0-3 ms */
        int mode = (int)((x >> 8) % 4);     /* 0,1: infinite; 2: short movetime; 3: depth */
        int stop_elsewhere = (x >> 12) & 1;
        hayanagi_limits l;
        hayanagi_limits_init(&l);
        if (mode == 2) l.movetime_ms = 1 + (x >> 16) % 3;
        if (mode == 3) l.depth = 1 + (int)((x >> 16) % 6);

        hayanagi_status st = hayanagi_engine_set_position(e, POSITIONS[pi]);
        check_impl(st == HAYANAGI_OK, __FILE__, __LINE__, "cycle %d: set_position = %d", i, st);
        int before = atomic_load(&r.bestmoves);
        st = hayanagi_engine_go(e, mode <= 1 ? NULL : &l);
        check_impl(st == HAYANAGI_OK, __FILE__, __LINE__, "cycle %d: go = %d", i, st);
        if (st != HAYANAGI_OK) continue;
        if (stop_elsewhere) {
            pthread_mutex_lock(&s.mu);
            int done = s.done;
            s.pending = delay_us;
            pthread_cond_broadcast(&s.cv);
            while (s.done == done) pthread_cond_wait(&s.cv, &s.mu);
            pthread_mutex_unlock(&s.mu);
        } else {
            if (delay_us > 0) sleep_us(delay_us);
            CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
        }
        st = hayanagi_engine_wait(e, WAIT_MS);
        check_impl(st == HAYANAGI_OK, __FILE__, __LINE__,
                   "cycle %d (seed %llu): wait = %d", i, (unsigned long long)seed, st);
        int after = atomic_load(&r.bestmoves);
        check_impl(after == before + 1, __FILE__, __LINE__,
                   "cycle %d (seed %llu, position %zu, mode %d, delay %d us): %d best moves",
                   i, (unsigned long long)seed, pi, mode, delay_us, after - before);
        if (pi == MATED_INDEX) {
            check_impl(strcmp(r.best, "resign") == 0, __FILE__, __LINE__,
                       "cycle %d: mated position answered %s", i, r.best);
            resigns++;
        } else {
            bool legal = false;
            st = hayanagi_engine_is_legal(e, r.best, &legal);
            check_impl(st == HAYANAGI_OK && legal, __FILE__, __LINE__,
                       "cycle %d (seed %llu, position %zu, mode %d, delay %d us): "
                       "best move \"%s\" is not legal",
                       i, (unsigned long long)seed, pi, mode, delay_us, r.best);
            moves++;
        }
        /* Nothing arrives after wait returned. */
        if (i % 50 == 0) {
            sleep_us(1000);
            if (atomic_load(&r.bestmoves) != after) late++;
        }
    }
    CHECK(late == 0);
    CHECK(atomic_load(&r.bad_strings) == 0);

    pthread_mutex_lock(&s.mu);
    s.quit = 1;
    pthread_cond_broadcast(&s.cv);
    pthread_mutex_unlock(&s.mu);
    pthread_join(th, NULL);
    pthread_mutex_destroy(&s.mu);
    pthread_cond_destroy(&s.cv);
    int total = atomic_load(&r.bestmoves);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&r.bestmoves) == total);
    check_impl(total == cycles, __FILE__, __LINE__, "%d best moves for %d cycles", total, cycles);
    fprintf(stderr, "go/stop: %d cycles (%d moves, %d resigns), seed %llu\n", cycles, moves,
            resigns, (unsigned long long)seed);
}

/* go, then free at once (sometimes after a short delay): one best move, user data freed. */
static atomic_int g_free_best, g_free_ud;
static void count_best(void *ud, const char *b, const char *p) {
    (void)ud; (void)b; (void)p;
    atomic_fetch_add(&g_free_best, 1);
}
static void count_free(void *ud) {
    (void)ud;
    atomic_fetch_add(&g_free_ud, 1);
}

static void test_go_free_cycles(int cycles) {
    atomic_init(&g_free_best, 0);
    atomic_init(&g_free_ud, 0);
    for (int i = 0; i < cycles; i++) {
        hayanagi_engine *e = NULL;
        hayanagi_engine_config c;
        memset(&c, 0, sizeof c);
        c.struct_size = sizeof c;
        c.hash_mib = 1;
        CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_OK);
        if (!e) return;
        CHECK_ST(hayanagi_engine_set_bestmove_callback(e, count_best, NULL, count_free), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_set_position(e, POSITIONS[rnd() % N_POSITIONS]), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_OK);
        int d = (int)(rnd() % 1001);
        if (d > 500) sleep_us(d);
        CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
        check_impl(atomic_load(&g_free_best) == i + 1, __FILE__, __LINE__,
                   "go/free cycle %d: %d best moves", i, atomic_load(&g_free_best));
        CHECK(atomic_load(&g_free_ud) == i + 1);
    }
}

int main(void) {
    const char *env_cycles = getenv("HAYANAGI_TEST_CYCLES");
    const char *env_seed = getenv("HAYANAGI_TEST_SEED");
    int cycles = env_cycles && *env_cycles ? atoi(env_cycles) : 1000;
    uint64_t seed = env_seed && *env_seed ? strtoull(env_seed, NULL, 10) : 20240611ULL;
    if (cycles < 1) cycles = 1;
    double t0 = now_ms();
    test_go_stop_cycles(cycles, seed);
    test_go_free_cycles(cycles / 10 > 0 ? cycles / 10 : 1);
    fprintf(stderr, "test_stress: %.0f ms\n", now_ms() - t0);
    return finish();
}
