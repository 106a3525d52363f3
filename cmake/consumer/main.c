/* Downstream consumer used by the install tests (find_package, pkg-config): checks that the
 * installed header and library agree and that a search yields a best move. */
#include <stdio.h>
#include <string.h>
#include "hayanagi.h"

static char best[32];

static void on_best(void *ud, const char *move, const char *ponder) {
    (void)ud; (void)ponder;
    snprintf(best, sizeof best, "%s", move);
}

int main(void) {
    hayanagi_engine *e = NULL;
    hayanagi_limits limits;
    if (hayanagi_abi_version() != HAYANAGI_ABI_VERSION) { puts("ABI mismatch"); return 1; }
    if (strcmp(hayanagi_version_string(), HAYANAGI_VERSION_STRING) != 0) { puts("version mismatch"); return 1; }
    if (hayanagi_engine_new(NULL, &e) != HAYANAGI_OK) { puts("engine_new failed"); return 1; }
    if (hayanagi_engine_set_bestmove_callback(e, on_best, NULL, NULL) != HAYANAGI_OK) return 1;
    hayanagi_limits_init(&limits);
    limits.depth = 3;
    if (hayanagi_engine_go(e, &limits) != HAYANAGI_OK) { puts("go failed"); return 1; }
    if (hayanagi_engine_wait(e, -1) != HAYANAGI_OK) { puts("wait failed"); return 1; }
    hayanagi_engine_free(e);
    if (best[0] == '\0') { puts("no best move"); return 1; }
    printf("consumer OK: hayanagi %s abi %u bestmove %s\n", hayanagi_version_string(),
           (unsigned)hayanagi_abi_version(), best);
    return 0;
}
