/* Two engines in one process sharing one transposition table.
 *
 *   two_engines [movetime_ms]
 *
 * Engine A searches position P, engine B searches position Q, at the same time (each on
 * its own search thread). Both use one table (hayanagi_table_new +
 * hayanagi_engine_set_table), so afterwards engine B finds A's entry for P with
 * hayanagi_engine_probe_tt, and A finds B's entry for Q. P and Q cannot transpose into one
 * another (different pawns have moved), so B's own search never stores P. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hayanagi.h"

static const char *const POS_P = "startpos moves 7g7f 3c3d";
static const char *const POS_Q = "startpos moves 2g2f 8c8d";

/* Per-engine state written by the callbacks on that engine's search thread and read by
 * main only after hayanagi_engine_wait() returned. */
typedef struct {
    const char *name;
    unsigned infos;
    char last_info[512];
    char best[16];
    char ponder[16];
    unsigned bestmoves;
} report;

static void on_info(void *user_data, const hayanagi_info *info, const char *usi_line) {
    report *r = (report *)user_data;
    (void)info;
    r->infos++;
    snprintf(r->last_info, sizeof r->last_info, "%s", usi_line);
}

static void on_bestmove(void *user_data, const char *best, const char *ponder) {
    report *r = (report *)user_data;
    r->bestmoves++;
    snprintf(r->best, sizeof r->best, "%s", best);
    snprintf(r->ponder, sizeof r->ponder, "%s", ponder ? ponder : "");
}

static int failed(const char *what, hayanagi_engine *engine, hayanagi_status st) {
    char msg[512] = "";
    size_t len = 0;
    if (engine) {
        hayanagi_engine_last_error(engine, msg, sizeof msg, &len);
    } else {
        hayanagi_last_error(msg, sizeof msg, &len);
    }
    fprintf(stderr, "two_engines: %s: %s: %s\n", what, hayanagi_status_str(st), msg);
    return 1;
}

#define CHECK(call, engine)                                      \
    do {                                                         \
        hayanagi_status st_ = (call);                            \
        if (st_ != HAYANAGI_OK) {                                \
            rc = failed(#call, (engine), st_);                   \
            goto done;                                           \
        }                                                        \
    } while (0)

static void print_probe(const char *who, const char *pos, const hayanagi_tt_probe *p) {
    if (!p->found) {
        printf("%s probe_tt(\"%s\"): not found\n", who, pos);
        return;
    }
    printf("%s probe_tt(\"%s\"): found move %s%s %s %d depth %d bound %d\n", who, pos,
           p->move_usi[0] ? p->move_usi : "(none)", p->move_legal ? " (legal)" : "",
           p->score_kind == HAYANAGI_SCORE_MATE ? "mate" : "cp", p->score_value, p->depth,
           p->bound);
}

int main(int argc, char **argv) {
    long movetime = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
    if (movetime <= 0) movetime = 1000;
    int rc = 0;
    hayanagi_table *table = NULL;
    hayanagi_engine *a = NULL, *b = NULL;
    report ra, rb;
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    ra.name = "A";
    rb.name = "B";
    hayanagi_tt_probe probe;
    hayanagi_limits limits;

    CHECK(hayanagi_table_new(32, &table), NULL);
    CHECK(hayanagi_engine_new(NULL, &a), NULL);
    CHECK(hayanagi_engine_new(NULL, &b), NULL);
    CHECK(hayanagi_engine_set_table(a, table), a);
    CHECK(hayanagi_engine_set_table(b, table), b);
    /* The engines keep the table alive; our handle is no longer needed. */
    hayanagi_table_free(table);
    table = NULL;

    CHECK(hayanagi_engine_set_info_callback(a, on_info, &ra, NULL), a);
    CHECK(hayanagi_engine_set_bestmove_callback(a, on_bestmove, &ra, NULL), a);
    CHECK(hayanagi_engine_set_info_callback(b, on_info, &rb, NULL), b);
    CHECK(hayanagi_engine_set_bestmove_callback(b, on_bestmove, &rb, NULL), b);
    CHECK(hayanagi_engine_set_position(a, POS_P), a);
    CHECK(hayanagi_engine_set_position(b, POS_Q), b);

    CHECK(hayanagi_engine_probe_tt(b, POS_P, &probe), b);
    print_probe("before: B", POS_P, &probe);

    CHECK(hayanagi_limits_init(&limits), NULL);
    limits.movetime_ms = movetime;
    printf("searching A: %s | B: %s (%ld ms each, concurrently)\n", POS_P, POS_Q, movetime);
    fflush(stdout);
    CHECK(hayanagi_engine_go(a, &limits), a);
    CHECK(hayanagi_engine_go(b, &limits), b);
    CHECK(hayanagi_engine_wait(a, -1), a);
    CHECK(hayanagi_engine_wait(b, -1), b);

    printf("A (%s): %u info lines, last: %s\n", POS_P, ra.infos, ra.last_info);
    printf("A bestmove %s%s%s\n", ra.best, ra.ponder[0] ? " ponder " : "", ra.ponder);
    printf("B (%s): %u info lines, last: %s\n", POS_Q, rb.infos, rb.last_info);
    printf("B bestmove %s%s%s\n", rb.best, rb.ponder[0] ? " ponder " : "", rb.ponder);

    /* B never searched P, yet finds A's entry for it in the shared table. */
    CHECK(hayanagi_engine_probe_tt(b, POS_P, &probe), b);
    print_probe("after:  B", POS_P, &probe);
    if (!probe.found) {
        fprintf(stderr, "two_engines: B did not find A's entry for P in the shared table\n");
        rc = 1;
    } else if (probe.move_legal && strcmp(probe.move_usi, ra.best) != 0) {
        printf("(the stored move differs from A's best move: the entry was overwritten)\n");
    }
    CHECK(hayanagi_engine_probe_tt(a, POS_Q, &probe), a);
    print_probe("after:  A", POS_Q, &probe);
    if (!probe.found) {
        fprintf(stderr, "two_engines: A did not find B's entry for Q in the shared table\n");
        rc = 1;
    }
    if (ra.bestmoves != 1 || rb.bestmoves != 1) {
        fprintf(stderr, "two_engines: expected one best move per engine, got %u and %u\n",
                ra.bestmoves, rb.bestmoves);
        rc = 1;
    }

done:
    hayanagi_engine_free(a);
    hayanagi_engine_free(b);
    hayanagi_table_free(table);
    return rc;
}
