/* The mate-search C API: hayanagi_engine_go_mate with its callback, events, USI channel
 * line and hayanagi_engine_last_mate; found / none / timeout; stop; busy while running;
 * argument errors; no best move ever; user data released. Clean under valgrind.
 *
 * Uses only the public header. Prints "N passed, M failed" and exits non-zero on failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hayanagi.h"

#include "check.h"

/* rules.tsv R02: 7b6b mates (the pawn drop would too, but is illegal). */
#define MATE1_SFEN "sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1"
/* rules.tsv R01: only a pawn drop would mate: no mate. */
#define NOMATE_SFEN "sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1"
/* A mate in 3 from the sample set (both kings on the board). */
#define MATE3_SFEN "sfen ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42"
/* Microcosmos, 1,525 plies: nothing settles it in the time of a test. */
#define LONG_SFEN                                                                             \
    "sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/" \
    "+B5G1g b - 1"

typedef struct {
    atomic_int mates;
    atomic_int bestmoves;
    atomic_int freed;
    int kind;
    unsigned plies;
    char moves[4096];
} record;

static void on_mate(void *user_data, const hayanagi_mate_result *r, const char *moves) {
    record *rec = user_data;
    rec->kind = r->kind;
    rec->plies = r->plies;
    snprintf(rec->moves, sizeof rec->moves, "%s", moves);
    atomic_fetch_add(&rec->mates, 1);
}

static void on_bestmove(void *user_data, const char *best, const char *ponder) {
    (void)best;
    (void)ponder;
    atomic_fetch_add(&((record *)user_data)->bestmoves, 1);
}

static void on_free(void *user_data) { atomic_fetch_add(&((record *)user_data)->freed, 1); }

static char usi_lines[8][256];
static atomic_int usi_count;

static void on_usi(void *user_data, const char *line) {
    (void)user_data;
    int i = atomic_fetch_add(&usi_count, 1);
    if (i < 8) snprintf(usi_lines[i], sizeof usi_lines[i], "%s", line);
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}


/* Solve the engine's position and check the answer against the callback and last_mate. */
static void solve(hayanagi_engine *e, record *rec, int want_kind, const char *want_moves) {
    int before = atomic_load(&rec->mates);
    CHECK_ST(hayanagi_engine_go_mate(e, 60000, 0, 0), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(atomic_load(&rec->mates) == before + 1);
    CHECK(rec->kind == want_kind);
    if (want_moves) CHECK_STR(rec->moves, want_moves);
    hayanagi_mate_result r;
    char buf[4096];
    size_t len = 0;
    CHECK_ST(hayanagi_engine_last_mate(e, &r, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(r.kind == want_kind);
    CHECK_STR(buf, rec->moves);
    CHECK(len == strlen(buf));
    CHECK(r.plies == (unsigned)count_words(buf));
    if (want_kind == HAYANAGI_MATE_FOUND) CHECK(r.shortest);
}

int main(void) {
    static record rec;
    hayanagi_engine *e = NULL;
    CHECK_ST(hayanagi_engine_new(NULL, &e), HAYANAGI_OK);
    if (!e) return finish() | 1;

    /* Before any mate search: nothing to report. */
    hayanagi_mate_result r;
    char buf[64];
    CHECK_ST(hayanagi_engine_last_mate(e, &r, buf, sizeof buf, NULL), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_last_mate(e, NULL, buf, sizeof buf, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_go_mate(NULL, 100, 0, 0), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_go_mate(e, 100, 0, 0x80), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_option(e, "MateHash", "0"), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_option(e, "MateHash", "32"), HAYANAGI_OK);

    CHECK_ST(hayanagi_engine_set_mate_callback(e, on_mate, &rec, on_free), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, on_bestmove, &rec, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_usi_output_callback(e, on_usi, NULL, NULL), HAYANAGI_OK);

    CHECK_ST(hayanagi_engine_set_position(e, MATE1_SFEN), HAYANAGI_OK);
    solve(e, &rec, HAYANAGI_MATE_FOUND, "7b6b");
    /* The same answer on the USI channel: figures, then the checkmate line. */
    CHECK(atomic_load(&usi_count) == 2);
    CHECK(strncmp(usi_lines[0], "info nodes ", 11) == 0);
    CHECK_STR(usi_lines[1], "checkmate 7b6b");

    CHECK_ST(hayanagi_engine_set_position(e, NOMATE_SFEN), HAYANAGI_OK);
    solve(e, &rec, HAYANAGI_MATE_NONE, "");

    CHECK_ST(hayanagi_engine_set_position(e, MATE3_SFEN), HAYANAGI_OK);
    solve(e, &rec, HAYANAGI_MATE_FOUND, NULL);
    CHECK(rec.plies == 3);

    /* Events: the answer is queued as HAYANAGI_EVENT_MATE with its checkmate line. */
    CHECK_ST(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, MATE1_SFEN), HAYANAGI_OK);
    solve(e, &rec, HAYANAGI_MATE_FOUND, "7b6b");
    hayanagi_event ev;
    char text[256];
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, text, sizeof text, NULL), HAYANAGI_OK);
    CHECK(ev.kind == HAYANAGI_EVENT_MATE);
    CHECK_STR(text, "checkmate 7b6b");
    CHECK_ST(hayanagi_engine_enable_events(e, false), HAYANAGI_OK);

    /* A node limit, then stop: both answer timeout on a problem far beyond them. */
    CHECK_ST(hayanagi_engine_set_position(e, LONG_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 5000, 0), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(rec.kind == HAYANAGI_MATE_TIMEOUT);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 0, HAYANAGI_MATE_ANY_LENGTH), HAYANAGI_OK);
    /* While it runs: busy for other searches and for the position and options. */
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 0, 0), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_go(e, NULL), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos"), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_set_option(e, "MateHash", "16"), HAYANAGI_BUSY);
    CHECK_ST(hayanagi_engine_wait(e, 50), HAYANAGI_TIMEOUT);
    sleep_ms(50);
    int before = atomic_load(&rec.mates);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(atomic_load(&rec.mates) == before + 1);
    CHECK(rec.kind == HAYANAGI_MATE_TIMEOUT);

    /* A mate search never produces a best move; a normal search afterwards still does. */
    CHECK(atomic_load(&rec.bestmoves) == 0);
    hayanagi_limits limits;
    CHECK_ST(hayanagi_limits_init(&limits), HAYANAGI_OK);
    limits.depth = 3;
    CHECK_ST(hayanagi_engine_set_position(e, "startpos"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_go(e, &limits), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK(atomic_load(&rec.bestmoves) == 1);

    /* Freed while a mate search runs: it is stopped, its answer still delivered. */
    CHECK_ST(hayanagi_engine_set_position(e, LONG_SFEN), HAYANAGI_OK);
    before = atomic_load(&rec.mates);
    CHECK_ST(hayanagi_engine_go_mate(e, -1, 0, 0), HAYANAGI_OK);
    sleep_ms(20);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(atomic_load(&rec.mates) == before + 1);
    CHECK(atomic_load(&rec.freed) == 1);
    return finish();
}
