/* The USI text channel from C: a GUI-style session through hayanagi_engine_usi_command
 * with the output callback collecting lines; checked under valgrind by test-c.sh. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"

#define MAX_LINES 4096

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    char *lines[MAX_LINES];
    int count;
} transcript;

static void on_line(void *user_data, const char *line) {
    transcript *t = user_data;
    pthread_mutex_lock(&t->lock);
    if (t->count < MAX_LINES) t->lines[t->count++] = strdup(line);
    pthread_cond_broadcast(&t->changed);
    pthread_mutex_unlock(&t->lock);
}

/* Index of the first line at or after `from` starting with `prefix`, waiting up to 60 s. */
static int wait_for(transcript *t, int from, const char *prefix) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 60;
    pthread_mutex_lock(&t->lock);
    for (;;) {
        for (int i = from; i < t->count; i++) {
            if (strncmp(t->lines[i], prefix, strlen(prefix)) == 0) {
                pthread_mutex_unlock(&t->lock);
                return i;
            }
        }
        if (pthread_cond_timedwait(&t->changed, &t->lock, &deadline) != 0) break;
    }
    pthread_mutex_unlock(&t->lock);
    return -1;
}

static int count_now(transcript *t) {
    pthread_mutex_lock(&t->lock);
    int n = t->count;
    pthread_mutex_unlock(&t->lock);
    return n;
}

int main(void) {
    transcript t = {.count = 0};
    pthread_mutex_init(&t.lock, NULL);
    pthread_cond_init(&t.changed, NULL);

    hayanagi_engine *e = NULL;
    CHECK_ST(hayanagi_engine_new(NULL, &e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_usi_output_callback(e, on_line, &t, NULL), HAYANAGI_OK);

    CHECK_ST(hayanagi_engine_usi_command(e, "usi"), HAYANAGI_OK);
    int ok = wait_for(&t, 0, "usiok");
    CHECK(ok > 0);
    CHECK_CONTAINS(t.lines[0], "id name hayanagi");
    CHECK_ST(hayanagi_engine_usi_command(e, "setoption name USI_Hash value 8"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_usi_command(e, "isready"), HAYANAGI_OK);
    CHECK(wait_for(&t, ok, "readyok") == ok + 1);

    /* A malformed command is answered on the channel; the call still succeeds. */
    int n = count_now(&t);
    CHECK_ST(hayanagi_engine_usi_command(e, "position startpos moves 7g7f 7g7f"), HAYANAGI_OK);
    int err = wait_for(&t, n, "info string error: position");
    CHECK(err == n);

    /* A search: info lines, then one best move. */
    n = count_now(&t);
    CHECK_ST(hayanagi_engine_usi_command(e, "position startpos moves 7g7f 3c3d\ngo depth 4"),
             HAYANAGI_OK);
    int best = wait_for(&t, n, "bestmove ");
    CHECK(best > n);
    CHECK(wait_for(&t, n, "info depth 4 ") > n);

    /* go mate through the channel. */
    n = count_now(&t);
    CHECK_ST(hayanagi_engine_usi_command(e, "position sfen 4ks2R/2G6/4G4/9/9/9/9/9/4K4 b P 1"),
             HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_usi_command(e, "go mate 10000"), HAYANAGI_OK);
    int mate = wait_for(&t, n, "checkmate");
    CHECK(mate >= n);
    if (mate >= 0) CHECK_STR(t.lines[mate], "checkmate 7b6b");

    /* go infinite, then quit: the search stops and its best move arrives before return. */
    n = count_now(&t);
    CHECK_ST(hayanagi_engine_usi_command(e, "position startpos\ngo infinite"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_usi_command(e, "quit"), HAYANAGI_OK);
    int after_quit = count_now(&t);
    int b = wait_for(&t, n, "bestmove ");
    CHECK(b >= n && b < after_quit);

    /* NULL line and a freed-then-unused handle path. */
    CHECK_ST(hayanagi_engine_usi_command(e, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_usi_command(NULL, "usi"), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);

    for (int i = 0; i < t.count; i++) free(t.lines[i]);
    pthread_cond_destroy(&t.changed);
    pthread_mutex_destroy(&t.lock);
    return finish();
}
