/* Analyse a position through the C API: info lines stream, then the best move.
 *
 *   analyze [position] [movetime_ms]
 *
 * position is USI position syntax ("startpos moves 7g7f 3c3d", "sfen <SFEN>"); default
 * "startpos"; movetime defaults to 3000 ms. */
#include <stdio.h>
#include <stdlib.h>
#include "hayanagi.h"

static void on_info(void *user_data, const hayanagi_info *info, const char *usi_line) {
    (void)info;
    FILE *out = (FILE *)user_data;
    fprintf(out, "%s\n", usi_line);
    fflush(out);
}

static void on_bestmove(void *user_data, const char *best, const char *ponder) {
    FILE *out = (FILE *)user_data;
    if (ponder) {
        fprintf(out, "bestmove %s ponder %s\n", best, ponder);
    } else {
        fprintf(out, "bestmove %s\n", best);
    }
    fflush(out);
}

static int fail(hayanagi_engine *engine, hayanagi_status status) {
    char msg[512];
    size_t len = 0;
    if (engine) {
        hayanagi_engine_last_error(engine, msg, sizeof msg, &len);
    } else {
        hayanagi_last_error(msg, sizeof msg, &len);
    }
    fprintf(stderr, "analyze: %s: %s\n", hayanagi_status_str(status), msg);
    hayanagi_engine_free(engine);
    return 2;
}

int main(int argc, char **argv) {
    const char *position = argc > 1 ? argv[1] : "startpos";
    long movetime = argc > 2 ? strtol(argv[2], NULL, 10) : 3000;
    hayanagi_engine *engine = NULL;
    hayanagi_status st = hayanagi_engine_new(NULL, &engine);
    if (st != HAYANAGI_OK) return fail(NULL, st);
    if ((st = hayanagi_engine_set_position(engine, position)) != HAYANAGI_OK) return fail(engine, st);
    if ((st = hayanagi_engine_set_info_callback(engine, on_info, stdout, NULL)) != HAYANAGI_OK) return fail(engine, st);
    if ((st = hayanagi_engine_set_bestmove_callback(engine, on_bestmove, stdout, NULL)) != HAYANAGI_OK) return fail(engine, st);

    hayanagi_limits limits;
    hayanagi_limits_init(&limits);
    limits.movetime_ms = movetime > 0 ? movetime : 3000;
    if ((st = hayanagi_engine_go(engine, &limits)) != HAYANAGI_OK) return fail(engine, st);
    if ((st = hayanagi_engine_wait(engine, -1)) != HAYANAGI_OK) return fail(engine, st);
    hayanagi_engine_free(engine);
    return 0;
}
