/* Overhead of the C API: a fixed-depth search driven through the C API (nodes and time
 * from its last info report), and info callbacks delivered per second with MultiPV 32.
 * Compare the first figure with `hayanagi analyze --sfen startpos --depth N` (the Rust
 * facade) run right before or after.
 *
 *   bench_ffi [depth]      (default 10) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hayanagi.h"

typedef struct {
    unsigned long long nodes, time_ms, callbacks;
} stats;

static void on_info(void *user_data, const hayanagi_info *info, const char *line) {
    (void)line;
    stats *s = (stats *)user_data;
    s->nodes = info->nodes;
    s->time_ms = info->time_ms;
    s->callbacks++;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 10;
    hayanagi_engine *e = NULL;
    if (hayanagi_engine_new(NULL, &e) != HAYANAGI_OK) return 1;
    stats s = {0, 0, 0};
    hayanagi_engine_set_info_callback(e, on_info, &s, NULL);
    hayanagi_limits l;
    for (int run = 0; run < 3; run++) {
        hayanagi_engine_new_game(e);
        hayanagi_engine_set_position(e, "startpos");
        hayanagi_limits_init(&l);
        l.depth = depth;
        double t0 = now_s();
        hayanagi_engine_go(e, &l);
        hayanagi_engine_wait(e, -1);
        double wall = now_s() - t0;
        printf("c-api depth %d: nodes %llu search_ms %llu wall_ms %.0f nps %.0f\n", depth, s.nodes, s.time_ms,
               wall * 1000.0, s.nodes / wall);
    }
    /* Info callbacks per second: MultiPV 32 on the start position for 3 s. */
    hayanagi_engine_set_option(e, "MultiPV", "32");
    s.callbacks = 0;
    hayanagi_limits_init(&l);
    l.movetime_ms = 3120; /* 3000 ms after the default 120 ms network delay */
    double t0 = now_s();
    hayanagi_engine_go(e, &l);
    hayanagi_engine_wait(e, -1);
    double wall = now_s() - t0;
    printf("info callbacks: %llu in %.2f s = %.1f per second (MultiPV 32)\n", s.callbacks, wall, s.callbacks / wall);
    hayanagi_engine_free(e);
    return 0;
}
