/* The synchronous C API: every function's success path and error paths with exact status
 * codes (NULL handle, NULL out-parameters, invalid UTF-8, malformed SFEN, illegal moves,
 * bad options and limits, small buffers), plus versions, status strings, perft, legal
 * moves, evaluation, game state, TT probes and user-data release.
 *
 * Uses only the public header. Prints "N passed, M failed" and exits non-zero on failure. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* mkstemp (stdlib.h), write, close, unlink */

#include "hayanagi.h"

#include "check.h"

/* ----- fixtures ------------------------------------------------------------------------- */

#define STARTPOS_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#define AFTER_7G7F_SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
#define MATED_SFEN "1p2kg1n1/s+N1+P1s2l/5l2b/pB3pPP1/lP3N3/2NpSg1RL/+pS1P2+p2/3G5/4KG3 w R4P3p 116"
static const char INVALID_UTF8[] = {'s', 't', 'a', 'r', (char)0xff, (char)0xfe, 0};

static hayanagi_engine *new_engine(void) {
    hayanagi_engine *e = NULL;
    CHECK_ST(hayanagi_engine_new(NULL, &e), HAYANAGI_OK);
    CHECK(e != NULL);
    if (!e) {
        printf("cannot create an engine\n");
        exit(finish() | 1);
    }
    return e;
}

static void engine_error(hayanagi_engine *e, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    CHECK_ST(hayanagi_engine_last_error(e, buf, cap, &len), HAYANAGI_OK);
    CHECK(len == strlen(buf));
}

static void current_sfen(hayanagi_engine *e, char *buf, size_t cap) {
    size_t len = 0;
    buf[0] = '\0';
    CHECK_ST(hayanagi_engine_sfen(e, buf, cap, &len), HAYANAGI_OK);
    CHECK(len == strlen(buf));
}


/* ----- library-wide --------------------------------------------------------------------- */

static void test_versions(void) {
    char expect[64];
    CHECK(hayanagi_abi_version() == HAYANAGI_ABI_VERSION);
    CHECK(HAYANAGI_ABI_VERSION >= 1);
    CHECK_STR(hayanagi_version_string(), HAYANAGI_VERSION_STRING);
    snprintf(expect, sizeof expect, "%d.%d.%d", HAYANAGI_VERSION_MAJOR, HAYANAGI_VERSION_MINOR,
             HAYANAGI_VERSION_PATCH);
    CHECK_STR(hayanagi_version_string(), expect);
    /* Static: the same pointer every time. */
    CHECK(hayanagi_version_string() == hayanagi_version_string());
}

static void test_status_str(void) {
    static const hayanagi_status codes[] = {
        HAYANAGI_OK,    HAYANAGI_NULL_ARG,  HAYANAGI_INVALID_ARG,      HAYANAGI_PARSE,
        HAYANAGI_ILLEGAL_MOVE, HAYANAGI_BUSY, HAYANAGI_REENTRANT, HAYANAGI_BUFFER_TOO_SMALL,
        HAYANAGI_TIMEOUT, HAYANAGI_IO,      HAYANAGI_FORMAT,           HAYANAGI_PANIC,
        HAYANAGI_POISONED, HAYANAGI_NO_MEMORY,
    };
    const size_t n = sizeof codes / sizeof codes[0];
    const char *unknown = hayanagi_status_str(9999);
    CHECK(unknown != NULL && unknown[0] != '\0');
    CHECK(hayanagi_status_str(-1) != NULL);
    CHECK_STR(hayanagi_status_str(-1), unknown);
    CHECK_STR(hayanagi_status_str(HAYANAGI_NO_MEMORY + 1), unknown);
    /* Codes are fixed forever. */
    CHECK(HAYANAGI_OK == 0 && HAYANAGI_NULL_ARG == 1 && HAYANAGI_INVALID_ARG == 2 &&
          HAYANAGI_PARSE == 3 && HAYANAGI_ILLEGAL_MOVE == 4 && HAYANAGI_BUSY == 5 &&
          HAYANAGI_REENTRANT == 6 && HAYANAGI_BUFFER_TOO_SMALL == 7 && HAYANAGI_TIMEOUT == 8 &&
          HAYANAGI_IO == 9 && HAYANAGI_FORMAT == 10 && HAYANAGI_PANIC == 11 &&
          HAYANAGI_POISONED == 12 && HAYANAGI_NO_MEMORY == 13);
    for (size_t i = 0; i < n; i++) {
        const char *s = hayanagi_status_str(codes[i]);
        check_impl(s != NULL && s[0] != '\0', __FILE__, __LINE__, "status_str(%d) is empty",
                   codes[i]);
        if (!s) continue;
        check_impl(strcmp(s, unknown) != 0, __FILE__, __LINE__,
                   "status_str(%d) is the unknown-code text", codes[i]);
        CHECK(s == hayanagi_status_str(codes[i])); /* static */
        for (size_t j = 0; j < i; j++) {
            const char *t = hayanagi_status_str(codes[j]);
            check_impl(t && strcmp(s, t) != 0, __FILE__, __LINE__,
                       "status_str(%d) == status_str(%d)", codes[i], codes[j]);
        }
    }
    CHECK_STR(hayanagi_status_str(HAYANAGI_OK), "ok");
}

static void test_last_error(void) {
    char buf[256];
    size_t len = 12345;
    hayanagi_table *none = NULL;
    /* A failure without a handle sets the thread's last error. */
    CHECK_ST(hayanagi_engine_new(NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_last_error(buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(len == strlen(buf) && len > 0);
    CHECK_CONTAINS(buf, "NULL");
    const size_t full = len;
    /* Buffer too small: the needed length (without the NUL) and an empty string. */
    len = 0;
    memset(buf, 'x', sizeof buf);
    CHECK_ST(hayanagi_last_error(buf, 3, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == full);
    CHECK(buf[0] == '\0');
    CHECK(buf[3] == 'x'); /* nothing written past cap */
    len = 0;
    CHECK_ST(hayanagi_last_error(buf, full, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == full);
    len = 0;
    CHECK_ST(hayanagi_last_error(buf, full + 1, &len), HAYANAGI_OK);
    CHECK(len == full && strlen(buf) == full);
    /* Size query: buf NULL with cap 0. */
    len = 0;
    CHECK_ST(hayanagi_last_error(NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == full);
    /* buf NULL with a capacity is a NULL argument. */
    CHECK_ST(hayanagi_last_error(NULL, 10, &len), HAYANAGI_NULL_ARG);
    /* out_len is optional. */
    CHECK_ST(hayanagi_last_error(buf, sizeof buf, NULL), HAYANAGI_OK);
    /* Different failures give different messages. */
    CHECK_ST(hayanagi_table_new(0, &none), HAYANAGI_INVALID_ARG);
    CHECK(none == NULL);
    CHECK_ST(hayanagi_last_error(buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK_CONTAINS(buf, "size_mib");
}

/* The request rules through C: movetime 0 moves at once (it searched until stop when
 * limits_init wrote 0 for "not set"), a clock of 0 too, nothing set is infinite. */
static void test_request_rules(void) {
    hayanagi_engine *e = NULL;
    CHECK_ST(hayanagi_engine_new(NULL, &e), HAYANAGI_OK);
    hayanagi_limits l;
    hayanagi_limits_init(&l);
    l.movetime_ms = 0;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, 20000), HAYANAGI_OK);
    hayanagi_limits_init(&l);
    l.btime_ms = 0;
    l.wtime_ms = 0;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, 20000), HAYANAGI_OK);
    hayanagi_limits_init(&l);
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, 300), HAYANAGI_TIMEOUT); /* until stop */
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    hayanagi_limits_init(&l);
    l.depth = 100000; /* capped at the deepest iteration, not refused */
    l.nodes = 2000;
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, 20000), HAYANAGI_OK);
    hayanagi_limits_init(&l);
    l.depth = 1;
    l.multipv = 33; /* refused, as USI and the MultiPV option refuse it */
    CHECK_ST(hayanagi_engine_go(e, &l), HAYANAGI_INVALID_ARG);
    char why[256];
    size_t why_len = 0;
    CHECK_ST(hayanagi_last_error(why, sizeof why, &why_len), HAYANAGI_OK);
    CHECK(strstr(why, "multipv 33 is not in 1..=32") != NULL);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_limits_init(void) {
    hayanagi_limits l;
    memset(&l, 0x5a, sizeof l);
    CHECK_ST(hayanagi_limits_init(NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_limits_init(&l), HAYANAGI_OK);
    CHECK(l.struct_size == sizeof(hayanagi_limits));
    CHECK(l.btime_ms < 0 && l.wtime_ms < 0);
    /* Every time "not set" (negative), as the header says: 0 would be a real value. */
    CHECK(l.movetime_ms < 0 && l.byoyomi_ms < 0 && l.binc_ms < 0 && l.winc_ms < 0);
    CHECK(l.depth == 0 && l.nodes == 0 && l.movestogo == 0 && l.multipv == 0);
    CHECK(!l.infinite && !l.ponder);
    CHECK(l.searchmoves == NULL);
}

/* ----- tables and engine lifetime ------------------------------------------------------- */

/* The light position handle: rules answers without an engine, freed without leaks. */
static void test_position_handle(void) {
    hayanagi_position *p = NULL;
    char buf[256];
    size_t len = 0;
    uint64_t n = 0;
    uint32_t played = 9;
    bool legal = false;
    CHECK_ST(hayanagi_position_new("sfen nonsense", &p), HAYANAGI_PARSE);
    CHECK(p == NULL);
    CHECK_ST(hayanagi_position_new("startpos moves 7g7f", &p), HAYANAGI_OK);
    CHECK_ST(hayanagi_position_sfen(p, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(strcmp(buf, "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2") == 0);
    CHECK_ST(hayanagi_position_play(p, "7g7f"), HAYANAGI_ILLEGAL_MOVE);
    CHECK_ST(hayanagi_position_play(p, "3c3d"), HAYANAGI_OK);
    CHECK_ST(hayanagi_position_is_legal(p, "8h2b+", &legal), HAYANAGI_OK);
    CHECK(legal);
    CHECK_ST(hayanagi_position_moves_played(p, &played), HAYANAGI_OK);
    CHECK(played == 2);
    CHECK_ST(hayanagi_position_undo(p), HAYANAGI_OK);
    CHECK_ST(hayanagi_position_undo(p), HAYANAGI_OK);
    CHECK_ST(hayanagi_position_undo(p), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_position_perft(p, 3, &n), HAYANAGI_OK);
    CHECK(n == 25470);
    CHECK_ST(hayanagi_position_legal_moves(p, NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == 30 * 5 - 1); /* 30 four-character moves and 29 spaces */
    CHECK_ST(hayanagi_position_free(p), HAYANAGI_OK);
    CHECK_ST(hayanagi_position_free(NULL), HAYANAGI_OK);
}

static void test_table_lifetime(void) {
    hayanagi_table *t = NULL;
    CHECK_ST(hayanagi_table_new(1, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_table_new(0, &t), HAYANAGI_INVALID_ARG);
    CHECK(t == NULL); /* no partial success */
    CHECK_ST(hayanagi_table_new(1048577u, &t), HAYANAGI_INVALID_ARG);
    CHECK(t == NULL);
    CHECK_ST(hayanagi_table_new(1, &t), HAYANAGI_OK);
    CHECK(t != NULL);
    CHECK_ST(hayanagi_table_free(t), HAYANAGI_OK);
    CHECK_ST(hayanagi_table_free(NULL), HAYANAGI_OK);
}

static void test_engine_lifetime(void) {
    hayanagi_engine *e = NULL;
    hayanagi_engine_config c;
    CHECK_ST(hayanagi_engine_new(NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_free(NULL), HAYANAGI_OK);

    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c - 1;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_INVALID_ARG);
    CHECK(e == NULL);
    c.struct_size = 0;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_INVALID_ARG);
    CHECK(e == NULL);
    /* A host built against a newer header passes a larger struct: accepted, the fields this
     * library does not know ignored. */
    {
        struct {
            hayanagi_engine_config c;
            uint64_t from_the_future;
        } newer;
        memset(&newer, 0, sizeof newer);
        newer.c.struct_size = sizeof newer;
        newer.c.threads = 2;
        newer.from_the_future = UINT64_MAX;
        CHECK_ST(hayanagi_engine_new(&newer.c, &e), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
        e = NULL;
        struct {
            hayanagi_limits l;
            uint64_t from_the_future;
        } newer_limits;
        hayanagi_limits_init(&newer_limits.l);
        newer_limits.l.struct_size = sizeof newer_limits;
        newer_limits.l.depth = 1;
        newer_limits.from_the_future = UINT64_MAX;
        hayanagi_engine *g = NULL;
        CHECK_ST(hayanagi_engine_new(NULL, &g), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_go(g, &newer_limits.l), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_wait(g, -1), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_free(g), HAYANAGI_OK);
    }

    c.struct_size = sizeof c;
    c.threads = 257; /* Threads is 1-256 */
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_INVALID_ARG);
    CHECK(e == NULL);
    c.threads = 2;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    e = NULL;
    c.threads = 1;
    c.hash_mib = 2000000u;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_INVALID_ARG);
    CHECK(e == NULL);

    c.hash_mib = 2;
    c.threads = 0;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_OK);
    CHECK(e != NULL);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    e = NULL;

    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    CHECK_ST(hayanagi_engine_new(&c, &e), HAYANAGI_OK); /* zeros mean defaults */
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* Every function that takes an engine handle rejects NULL with HAYANAGI_NULL_ARG. */
static void test_null_handle(void) {
    char buf[64];
    size_t len = 0;
    bool b = false;
    uint32_t u = 0;
    uint64_t n = 0;
    int32_t i = 0, w = 0;
    hayanagi_event ev;
    hayanagi_tt_probe probe;
    hayanagi_limits limits;
    hayanagi_table *t = NULL;
    hayanagi_limits_init(&limits);
    CHECK_ST(hayanagi_table_new(1, &t), HAYANAGI_OK);

    CHECK_ST(hayanagi_engine_last_error(NULL, buf, sizeof buf, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_option(NULL, "Hash", "8"), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_ready(NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_new_game(NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_position(NULL, "startpos"), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_go(NULL, &limits), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_go(NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_stop(NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_ponderhit(NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_wait(NULL, 0), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_wait(NULL, -1), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_is_searching(NULL, &b), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_info_callback(NULL, NULL, NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(NULL, NULL, NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_log_callback(NULL, NULL, NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_enable_events(NULL, true), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_poll_event(NULL, &ev, buf, sizeof buf, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_probe_tt(NULL, NULL, &probe), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_probe_tt_key(NULL, 1, &probe), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_hashfull(NULL, &u), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_clear_hash(NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_table(NULL, t), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_sfen(NULL, buf, sizeof buf, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_legal_moves(NULL, buf, sizeof buf, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_is_legal(NULL, "7g7f", &b), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_perft(NULL, 1, &n), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_evaluate(NULL, &i), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_game_state(NULL, &i, &w), HAYANAGI_NULL_ARG);
    /* The thread's last error names the handle. */
    CHECK_ST(hayanagi_last_error(buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK_CONTAINS(buf, "NULL");
    CHECK_ST(hayanagi_table_free(t), HAYANAGI_OK);
}

/* NULL out-parameters and NULL input strings: HAYANAGI_NULL_ARG, nothing else changes. */
static void test_null_out_params(void) {
    hayanagi_engine *e = new_engine();
    char buf[128], msg[256];
    size_t len = 0;
    bool b = false;
    int32_t i = 0;
    hayanagi_event ev;

    CHECK_ST(hayanagi_engine_is_searching(e, NULL), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "out");
    CHECK_ST(hayanagi_engine_set_option(e, NULL, "8"), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "name");
    CHECK_ST(hayanagi_engine_set_option(e, "Hash", NULL), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "value");
    CHECK_ST(hayanagi_engine_set_position(e, NULL), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "position");
    CHECK_ST(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_poll_event(e, NULL, buf, sizeof buf, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, NULL), HAYANAGI_OK);
    CHECK(ev.kind == HAYANAGI_EVENT_NONE);
    CHECK_ST(hayanagi_engine_probe_tt(e, NULL, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_probe_tt(e, "startpos", NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_probe_tt_key(e, 1, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_hashfull(e, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_set_table(e, NULL), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "table");
    CHECK_ST(hayanagi_engine_sfen(e, NULL, 10, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_legal_moves(e, NULL, 10, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_last_error(e, NULL, 10, &len), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_is_legal(e, "7g7f", NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_is_legal(e, NULL, &b), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "usi_move");
    CHECK_ST(hayanagi_engine_perft(e, 1, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_evaluate(e, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_game_state(e, NULL, &i), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "state");
    CHECK_ST(hayanagi_engine_game_state(e, &i, NULL), HAYANAGI_NULL_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "winner");
    /* out_len is optional for the copy-out functions. */
    CHECK_ST(hayanagi_engine_sfen(e, buf, sizeof buf, NULL), HAYANAGI_OK);
    CHECK_STR(buf, STARTPOS_SFEN);
    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, STARTPOS_SFEN); /* position untouched by the failures */
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_invalid_utf8(void) {
    hayanagi_engine *e = new_engine();
    char buf[128], msg[256];
    bool b = true;
    hayanagi_tt_probe probe;
    hayanagi_limits limits;

    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, INVALID_UTF8), HAYANAGI_INVALID_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "UTF-8");
    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, AFTER_7G7F_SFEN);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 3c3d \xc3\x28"), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_option(e, INVALID_UTF8, "1"), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", INVALID_UTF8), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_is_legal(e, "\xff", &b), HAYANAGI_INVALID_ARG);
    CHECK(b == true); /* not written on failure */
    CHECK_ST(hayanagi_engine_probe_tt(e, INVALID_UTF8, &probe), HAYANAGI_INVALID_ARG);
    hayanagi_limits_init(&limits);
    limits.depth = 1;
    limits.searchmoves = INVALID_UTF8;
    CHECK_ST(hayanagi_engine_go(e, &limits), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_is_searching(e, &b), HAYANAGI_OK);
    CHECK(!b);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* ----- options -------------------------------------------------------------------------- */

static void test_options(void) {
    hayanagi_engine *e = new_engine();
    char msg[256];
    static const char *good[][2] = {
        {"USI_Hash", "8"},          {"Hash", "4"},          {"hash", "2"},
        {"Threads", "1"},           {"MultiPV", "3"},       {"multipv", "1"},
        {"NetworkDelay", "0"},      {"NetworkDelay", "120"}, {"MinimumThinkingTime", "0"},
        {"SlowMover", "100"},       {"EnteringKingRule", "CSARule24"},
        {"EnteringKingRule", "TryRule"}, {"EnteringKingRule", "NoEnteringKing"},
        {"EnteringKingRule", "CSARule27"},
    };
    static const char *bad_value[][2] = {
        {"Hash", "0"},         {"Hash", "abc"},      {"Hash", "1048577"}, {"Hash", ""},
        {"Threads", "257"},    {"Threads", "0"},     {"MultiPV", "0"},    {"MultiPV", "33"},
        {"MultiPV", "-1"},     {"SlowMover", "0"},   {"NetworkDelay", "10001"},
        {"EnteringKingRule", "Bogus"},
    };
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++) {
        hayanagi_status st = hayanagi_engine_set_option(e, good[k][0], good[k][1]);
        check_impl(st == HAYANAGI_OK, __FILE__, __LINE__, "set_option(%s, %s) = %d", good[k][0],
                   good[k][1], st);
    }
    for (size_t k = 0; k < sizeof bad_value / sizeof bad_value[0]; k++) {
        hayanagi_status st = hayanagi_engine_set_option(e, bad_value[k][0], bad_value[k][1]);
        check_impl(st == HAYANAGI_INVALID_ARG, __FILE__, __LINE__,
                   "set_option(%s, \"%s\") = %d, expected INVALID_ARG", bad_value[k][0],
                   bad_value[k][1], st);
    }
    CHECK_ST(hayanagi_engine_set_option(e, "NoSuchOption", "1"), HAYANAGI_INVALID_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "NoSuchOption");
    CHECK_ST(hayanagi_engine_set_option(e, "", "1"), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "99"), HAYANAGI_INVALID_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "99");
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK); /* applies the 2 MiB resize */
    CHECK_ST(hayanagi_engine_new_game(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_clear_hash(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* The option registry through C: the enumeration without hidden options is what USI
 * "usi" prints, in order, line for line; hidden ones are listed on request; values read
 * back; bad indices, names, flags and small buffers answer as documented. */
typedef struct {
    char lines[64][256];
    int n;
} UsiLines;

static void collect_usi(void *ud, const char *line) {
    UsiLines *u = ud;
    if (strncmp(line, "option name ", 12) == 0 && u->n < 64) {
        snprintf(u->lines[u->n++], sizeof u->lines[0], "%s", line);
    }
}

static void test_option_registry(void) {
    hayanagi_engine *e = new_engine();
    size_t shown = 0, all = 0;
    CHECK_ST(hayanagi_engine_option_count(e, 0, &shown), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_option_count(e, HAYANAGI_OPTION_HIDDEN, &all), HAYANAGI_OK);
    /* Hidden: ParallelMode, SearchFeatures and the Tune_* search parameters. */
    CHECK(shown >= 20 && all > shown + 2);
    CHECK_ST(hayanagi_engine_option_count(e, 4, &all), HAYANAGI_INVALID_ARG);

    UsiLines u;
    memset(&u, 0, sizeof u);
    CHECK_ST(hayanagi_engine_set_usi_output_callback(e, collect_usi, &u, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_usi_command(e, "usi"), HAYANAGI_OK);
    CHECK(u.n == (int)shown);
    for (size_t i = 0; i < shown && (int)i < u.n; i++) {
        hayanagi_option_info info;
        char name[64], usi[256];
        size_t len = 0;
        CHECK_ST(hayanagi_engine_option_info(e, i, 0, &info, name, sizeof name, &len), HAYANAGI_OK);
        CHECK(len == strlen(name) && !(info.flags & HAYANAGI_OPTION_HIDDEN));
        CHECK_ST(hayanagi_engine_option_text(e, name, HAYANAGI_OPTION_TEXT_USI, usi, sizeof usi, NULL),
                 HAYANAGI_OK);
        CHECK_STR(usi, u.lines[i]);
        char want[80];
        snprintf(want, sizeof want, "option name %s type ", name);
        CHECK(strncmp(u.lines[i], want, strlen(want)) == 0);
        if (info.kind == HAYANAGI_OPTION_SPIN) {
            char range[64];
            snprintf(range, sizeof range, " min %lld max %lld", (long long)info.min,
                     (long long)info.max);
            CHECK_CONTAINS(usi, range);
        }
        /* The current value of a fresh engine is the default. */
        char value[256], def[256];
        CHECK_ST(hayanagi_engine_get_option(e, name, value, sizeof value, NULL), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_option_text(e, name, HAYANAGI_OPTION_TEXT_DEFAULT, def, sizeof def,
                                             NULL),
                 HAYANAGI_OK);
        CHECK_STR(value, def);
    }
    /* Hidden options: listed with the flag, settable, not printed. */
    for (size_t i = shown; i < all; i++) {
        hayanagi_option_info info;
        char name[64];
        CHECK_ST(hayanagi_engine_option_info(e, i, HAYANAGI_OPTION_HIDDEN, &info, name, sizeof name,
                                             NULL),
                 HAYANAGI_OK);
        (void)info;
    }
    hayanagi_option_info info;
    char name[64];
    int hidden = 0;
    for (size_t i = 0; i < all; i++) {
        CHECK_ST(hayanagi_engine_option_info(e, i, HAYANAGI_OPTION_HIDDEN, &info, name, sizeof name,
                                             NULL),
                 HAYANAGI_OK);
        if (info.flags & HAYANAGI_OPTION_HIDDEN) {
            hidden++;
            CHECK(hidden > 2 ? strncmp(name, "Tune_", 5) == 0 && info.kind == HAYANAGI_OPTION_SPIN
                             : 1);
        }
    }
    CHECK(hidden == (int)(all - shown));
    CHECK_ST(hayanagi_engine_option_info(e, shown, 0, &info, name, sizeof name, NULL),
             HAYANAGI_INVALID_ARG);
    /* A name that does not fit: *out_len only, not the struct. */
    info.kind = -5;
    size_t need = 0;
    char tiny[2];
    CHECK_ST(hayanagi_engine_option_info(e, 0, 0, &info, tiny, sizeof tiny, &need),
             HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(info.kind == -5 && need == strlen("USI_Hash"));

    char value[256];
    CHECK_ST(hayanagi_engine_set_option(e, "MultiPV", "3"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_get_option(e, "multipv", value, sizeof value, NULL), HAYANAGI_OK);
    CHECK_STR(value, "3");
    CHECK_ST(hayanagi_engine_get_option(e, "Hash", value, sizeof value, NULL), HAYANAGI_OK);
    CHECK_STR(value, "16");
    CHECK_ST(hayanagi_engine_set_option(e, "ParallelMode", "rootsplit"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_get_option(e, "ParallelMode", value, sizeof value, NULL), HAYANAGI_OK);
    CHECK_STR(value, "rootsplit");
    CHECK_ST(hayanagi_engine_option_text(e, "EnteringKingRule", HAYANAGI_OPTION_TEXT_CHOICES, value,
                                         sizeof value, NULL),
             HAYANAGI_OK);
    CHECK_STR(value, "NoEnteringKing CSARule24 CSARule27 TryRule");
    CHECK_ST(hayanagi_engine_option_text(e, "USI_Hash", HAYANAGI_OPTION_TEXT_HELP, value,
                                         sizeof value, NULL),
             HAYANAGI_OK);
    CHECK(strlen(value) > 10);
    CHECK_ST(hayanagi_engine_get_option(e, "NoSuchOption", value, sizeof value, NULL),
             HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_option_text(e, "MultiPV", 99, value, sizeof value, NULL),
             HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_get_option(e, NULL, value, sizeof value, NULL), HAYANAGI_NULL_ARG);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* ----- positions ------------------------------------------------------------------------ */

static void test_set_position(void) {
    hayanagi_engine *e = new_engine();
    char buf[256], msg[512];

    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, STARTPOS_SFEN); /* a new engine is at the start position */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, "sfen " STARTPOS_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, STARTPOS_SFEN), HAYANAGI_OK); /* bare SFEN */
    CHECK_ST(hayanagi_engine_set_position(e, "sfen " STARTPOS_SFEN " moves 7g7f"), HAYANAGI_OK);
    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, AFTER_7G7F_SFEN);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f 3c3d"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f"), HAYANAGI_OK);

    /* Malformed SFEN: HAYANAGI_PARSE, the previous position kept. */
    static const char *bad_sfen[] = {
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9 b - 1",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNZ b - 1",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2 1",
        "sfen",
        "",
        "nonsense",
    };
    for (size_t k = 0; k < sizeof bad_sfen / sizeof bad_sfen[0]; k++) {
        hayanagi_status st = hayanagi_engine_set_position(e, bad_sfen[k]);
        check_impl(st == HAYANAGI_PARSE, __FILE__, __LINE__,
                   "set_position(\"%s\") = %d, expected PARSE", bad_sfen[k], st);
        current_sfen(e, buf, sizeof buf);
        check_impl(strcmp(buf, AFTER_7G7F_SFEN) == 0, __FILE__, __LINE__,
                   "position changed by a failed set_position(\"%s\"): %s", bad_sfen[k], buf);
    }
    engine_error(e, msg, sizeof msg);
    CHECK(msg[0] != '\0');

    /* Illegal move: HAYANAGI_ILLEGAL_MOVE naming the move and its 0-based index. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f 3c3d 5e5d"),
             HAYANAGI_ILLEGAL_MOVE);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "5e5d");
    CHECK_CONTAINS(msg, "move 2 ");
    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, AFTER_7G7F_SFEN);

    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 2b3c"), HAYANAGI_ILLEGAL_MOVE);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "2b3c");
    CHECK_CONTAINS(msg, "move 0 ");
    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, AFTER_7G7F_SFEN);

    /* Malformed move text is an illegal move too. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f zz9"), HAYANAGI_ILLEGAL_MOVE);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "zz9");
    CHECK_CONTAINS(msg, "move 1 ");
    /* A drop of a piece not in hand, and a pawn moving backwards. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves P*5e"), HAYANAGI_ILLEGAL_MOVE);
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f 3c3d 8h2b+ 4a3b 7f7g"),
             HAYANAGI_ILLEGAL_MOVE);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "move 4 ");
    current_sfen(e, buf, sizeof buf);
    CHECK_STR(buf, AFTER_7G7F_SFEN);

    /* The thread-local error follows the handle's. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 1a1b"), HAYANAGI_ILLEGAL_MOVE);
    {
        char tl[512];
        size_t len = 0;
        CHECK_ST(hayanagi_last_error(tl, sizeof tl, &len), HAYANAGI_OK);
        engine_error(e, msg, sizeof msg);
        CHECK_STR(tl, msg);
        CHECK_CONTAINS(msg, "1a1b");
    }
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_buffers(void) {
    hayanagi_engine *e = new_engine();
    char buf[1024], small[8];
    size_t len = 0, full;

    /* sfen */
    memset(small, 'x', sizeof small);
    CHECK_ST(hayanagi_engine_sfen(e, small, sizeof small, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == strlen(STARTPOS_SFEN));
    CHECK(small[0] == '\0');
    len = 0;
    CHECK_ST(hayanagi_engine_sfen(e, NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == strlen(STARTPOS_SFEN));
    full = len;
    CHECK_ST(hayanagi_engine_sfen(e, buf, full, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK_ST(hayanagi_engine_sfen(e, buf, full + 1, &len), HAYANAGI_OK);
    CHECK(len == full);
    CHECK_STR(buf, STARTPOS_SFEN);
    CHECK_ST(hayanagi_engine_sfen(e, buf, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    {
        char msg[256];
        engine_error(e, msg, sizeof msg);
        CHECK_CONTAINS(msg, "buffer");
    }

    /* legal_moves */
    len = 0;
    CHECK_ST(hayanagi_engine_legal_moves(e, small, sizeof small, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(small[0] == '\0');
    full = len;
    CHECK(full == 30 * 4 + 29); /* 30 four-character moves, 29 spaces */
    len = 0;
    CHECK_ST(hayanagi_engine_legal_moves(e, NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == full);
    CHECK_ST(hayanagi_engine_legal_moves(e, buf, full, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK_ST(hayanagi_engine_legal_moves(e, buf, full + 1, &len), HAYANAGI_OK);
    CHECK(len == full && strlen(buf) == full);

    /* last_error */
    CHECK_ST(hayanagi_engine_set_position(e, "nonsense"), HAYANAGI_PARSE);
    len = 0;
    CHECK_ST(hayanagi_engine_last_error(e, NULL, 0, &len), HAYANAGI_BUFFER_TOO_SMALL);
    full = len;
    CHECK(full > 0);
    len = 0;
    memset(small, 'x', sizeof small);
    CHECK_ST(hayanagi_engine_last_error(e, small, 1, &len), HAYANAGI_BUFFER_TOO_SMALL);
    CHECK(len == full && small[0] == '\0' && small[1] == 'x');
    CHECK_ST(hayanagi_engine_last_error(e, buf, full + 1, &len), HAYANAGI_OK);
    CHECK(len == full && strlen(buf) == full);

    /* poll_event is covered with a real event queue in test_search.c. */
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_legal_moves(void) {
    hayanagi_engine *e = new_engine();
    char buf[4096];
    size_t len = 0;
    bool b = false;

    CHECK_ST(hayanagi_engine_legal_moves(e, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(count_words(buf) == 30);
    CHECK_CONTAINS(buf, "7g7f");
    CHECK_CONTAINS(buf, "2h1h");
    /* ASCII order */
    {
        char copy[4096], *prev = NULL, *save = NULL;
        int sorted = 1;
        snprintf(copy, sizeof copy, "%s", buf);
        for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            if (prev && strcmp(prev, tok) >= 0) sorted = 0;
            prev = tok;
        }
        CHECK(sorted);
        /* Every listed move is legal by is_legal. */
        snprintf(copy, sizeof copy, "%s", buf);
        int all = 1;
        for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
            b = false;
            if (hayanagi_engine_is_legal(e, tok, &b) != HAYANAGI_OK || !b) all = 0;
        }
        CHECK(all);
    }
    /* is_legal */
    CHECK_ST(hayanagi_engine_is_legal(e, "7g7f", &b), HAYANAGI_OK);
    CHECK(b);
    CHECK_ST(hayanagi_engine_is_legal(e, "7g7e", &b), HAYANAGI_OK);
    CHECK(!b);
    b = true;
    CHECK_ST(hayanagi_engine_is_legal(e, "3c3d", &b), HAYANAGI_OK); /* not black's move */
    CHECK(!b);
    b = true;
    CHECK_ST(hayanagi_engine_is_legal(e, "garbage", &b), HAYANAGI_OK);
    CHECK(!b);
    b = true;
    CHECK_ST(hayanagi_engine_is_legal(e, "", &b), HAYANAGI_OK);
    CHECK(!b);
    b = true;
    CHECK_ST(hayanagi_engine_is_legal(e, "P*5e", &b), HAYANAGI_OK); /* nothing in hand */
    CHECK(!b);

    /* After 7g7f 3c3d 8h2b+: white must recapture or move; a drop is legal later. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f 3c3d 8h2b+ 3a2b"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_is_legal(e, "B*5e", &b), HAYANAGI_OK);
    CHECK(b);
    CHECK_ST(hayanagi_engine_legal_moves(e, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK_CONTAINS(buf, "B*5e");

    /* The mated position has no legal moves: an empty string. */
    CHECK_ST(hayanagi_engine_set_position(e, "sfen " MATED_SFEN), HAYANAGI_OK);
    len = 99;
    CHECK_ST(hayanagi_engine_legal_moves(e, buf, sizeof buf, &len), HAYANAGI_OK);
    CHECK(len == 0 && buf[0] == '\0');
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_perft(void) {
    hayanagi_engine *e = new_engine();
    uint64_t n = 0;
    CHECK_ST(hayanagi_engine_perft(e, 0, &n), HAYANAGI_OK);
    CHECK(n == 1);
    CHECK_ST(hayanagi_engine_perft(e, 1, &n), HAYANAGI_OK);
    CHECK(n == 30);
    CHECK_ST(hayanagi_engine_perft(e, 2, &n), HAYANAGI_OK);
    CHECK(n == 900);
    CHECK_ST(hayanagi_engine_perft(e, 3, &n), HAYANAGI_OK);
    check_impl(n == 25470, __FILE__, __LINE__, "perft(startpos, 3) = %llu, expected 25470",
               (unsigned long long)n);
    n = 42;
    CHECK_ST(hayanagi_engine_perft(e, 11, &n), HAYANAGI_INVALID_ARG);
    CHECK(n == 42);
    CHECK_ST(hayanagi_engine_perft(e, 0xffffffffu, &n), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_position(e, "sfen " MATED_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_perft(e, 1, &n), HAYANAGI_OK);
    CHECK(n == 0);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_evaluate(void) {
    hayanagi_engine *e = new_engine();
    int32_t v = 0, v2 = 0;
    CHECK_ST(hayanagi_engine_evaluate(e, &v), HAYANAGI_OK);
    check_impl(v > -200 && v < 200, __FILE__, __LINE__, "startpos eval %d", v);
    CHECK_ST(hayanagi_engine_evaluate(e, &v2), HAYANAGI_OK);
    CHECK(v == v2); /* deterministic */
    /* White to move after losing its bishop for nothing: clearly negative for white. */
    CHECK_ST(hayanagi_engine_set_position(e, "startpos moves 7g7f 3c3d 8h2b+"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_evaluate(e, &v), HAYANAGI_OK);
    check_impl(v < -300, __FILE__, __LINE__, "eval after 8h2b+ (white to move) = %d", v);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* The part of an absolute path that an error message names as given. Paths are made
 * absolute when set (std::path::absolute): on Windows that makes "/tmp/x" "C:\tmp\x" (under
 * Wine "Z:\tmp\x", scripts/test-windows.sh), so only the file name is compared there. */
static const char *path_in_message(const char *path) {
#ifdef _WIN32
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
#else
    return path;
#endif
}

/* NNUE nets are loaded at ready(): a file that is not an nn.bin is FORMAT, a missing one IO,
 * and either way the evaluation stays what it was. */
static void test_eval_file_errors(void) {
    hayanagi_engine *e = new_engine();
    char msg[512];
    int32_t before = 0, after = 0;
    CHECK_ST(hayanagi_engine_evaluate(e, &before), HAYANAGI_OK);
    char path[] = "/tmp/hayanagi-c-nnXXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd >= 0) {
        /* The right version, then 60 bytes: far too short for 256x2-32-32. */
        unsigned char bytes[64] = {0x16, 0x2F, 0xF3, 0x7A};
        CHECK(write(fd, bytes, sizeof bytes) == (ssize_t)sizeof bytes);
        close(fd);
        CHECK_ST(hayanagi_engine_set_option(e, "EvalFile", path), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_FORMAT);
        engine_error(e, msg, sizeof msg);
        CHECK_CONTAINS(msg, path_in_message(path));
        /* The version is right: the file is rejected for its size. */
        CHECK_CONTAINS(msg, "truncated: 64 bytes");
        bytes[0] ^= 1;
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (f) {
            fwrite(bytes, 1, sizeof bytes, f);
            fclose(f);
        }
        CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_FORMAT);
        engine_error(e, msg, sizeof msg);
        CHECK_CONTAINS(msg, "wrong version");
        unlink(path);
    }
    CHECK_ST(hayanagi_engine_set_option(e, "EvalFile", "/nonexistent/hayanagi/nn.bin"),
             HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_IO);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, path_in_message("/nonexistent/hayanagi/nn.bin"));
    CHECK_ST(hayanagi_engine_set_option(e, "EvalDir", "/nonexistent/dir"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_option(e, "FV_SCALE", "0"), HAYANAGI_INVALID_ARG);
    CHECK_ST(hayanagi_engine_set_option(e, "FV_SCALE", "24"), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_evaluate(e, &after), HAYANAGI_OK);
    CHECK(after == before);
    CHECK_ST(hayanagi_engine_set_option(e, "EvalFile", ""), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_option(e, "EvalDir", ""), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_ready(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_game_state(void) {
    hayanagi_engine *e = new_engine();
    int32_t state = -5, winner = -5;
    CHECK_ST(hayanagi_engine_game_state(e, &state, &winner), HAYANAGI_OK);
    CHECK(state == HAYANAGI_GAME_ONGOING);
    CHECK(winner == -1);
    CHECK_ST(hayanagi_engine_set_position(e, "sfen " MATED_SFEN), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_game_state(e, &state, &winner), HAYANAGI_OK);
    check_impl(state == HAYANAGI_GAME_CHECKMATE, __FILE__, __LINE__, "state %d", state);
    check_impl(winner == 0, __FILE__, __LINE__, "winner %d", winner);
    /* Fourfold repetition: both sides shuffle a rook... via the gold, 4 times. */
    CHECK_ST(hayanagi_engine_set_position(
                 e, "startpos moves 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a"),
             HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_game_state(e, &state, &winner), HAYANAGI_OK);
    check_impl(state == HAYANAGI_GAME_DRAW, __FILE__, __LINE__, "repetition state %d", state);
    CHECK(winner == -1);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

static void test_idle_search_calls(void) {
    hayanagi_engine *e = new_engine();
    bool b = true;
    uint32_t hf = 99;
    hayanagi_tt_probe probe;
    hayanagi_limits limits;
    char msg[256];

    CHECK_ST(hayanagi_engine_is_searching(e, &b), HAYANAGI_OK);
    CHECK(!b);
    CHECK_ST(hayanagi_engine_stop(e), HAYANAGI_OK); /* no-op when idle */
    CHECK_ST(hayanagi_engine_ponderhit(e), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, 0), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_wait(e, -1), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_hashfull(e, &hf), HAYANAGI_OK);
    CHECK(hf == 0);
    memset(&probe, 0x5a, sizeof probe);
    CHECK_ST(hayanagi_engine_probe_tt(e, NULL, &probe), HAYANAGI_OK);
    CHECK(!probe.found);
    CHECK_ST(hayanagi_engine_probe_tt(e, "startpos moves 7g7f", &probe), HAYANAGI_OK);
    CHECK(!probe.found);
    CHECK_ST(hayanagi_engine_probe_tt(e, "nonsense", &probe), HAYANAGI_PARSE);
    CHECK_ST(hayanagi_engine_probe_tt(e, "startpos moves 5e5d", &probe), HAYANAGI_ILLEGAL_MOVE);
    CHECK_ST(hayanagi_engine_probe_tt_key(e, 0x0123456789abcdefULL, &probe), HAYANAGI_OK);
    CHECK(!probe.found);

    /* Events not enabled: poll is an invalid call. */
    {
        hayanagi_event ev;
        char buf[64];
        size_t len;
        CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_INVALID_ARG);
        engine_error(e, msg, sizeof msg);
        CHECK_CONTAINS(msg, "enable_events");
        CHECK_ST(hayanagi_engine_enable_events(e, true), HAYANAGI_OK);
        ev.kind = 77;
        CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_OK);
        CHECK(ev.kind == HAYANAGI_EVENT_NONE);
        CHECK_ST(hayanagi_engine_enable_events(e, false), HAYANAGI_OK);
        CHECK_ST(hayanagi_engine_poll_event(e, &ev, buf, sizeof buf, &len), HAYANAGI_INVALID_ARG);
    }

    /* Bad limits: nothing starts. */
    hayanagi_limits_init(&limits);
    limits.struct_size = sizeof limits - 1;
    limits.depth = 1;
    CHECK_ST(hayanagi_engine_go(e, &limits), HAYANAGI_INVALID_ARG);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "struct_size");
    hayanagi_limits_init(&limits);
    limits.depth = 1;
    limits.multipv = 33;
    CHECK_ST(hayanagi_engine_go(e, &limits), HAYANAGI_INVALID_ARG);
    hayanagi_limits_init(&limits);
    limits.depth = 1;
    limits.searchmoves = "7g7f 5e5d";
    CHECK_ST(hayanagi_engine_go(e, &limits), HAYANAGI_ILLEGAL_MOVE);
    engine_error(e, msg, sizeof msg);
    CHECK_CONTAINS(msg, "5e5d");
    limits.searchmoves = "xyz";
    CHECK_ST(hayanagi_engine_go(e, &limits), HAYANAGI_ILLEGAL_MOVE);
    CHECK_ST(hayanagi_engine_is_searching(e, &b), HAYANAGI_OK);
    CHECK(!b);
    CHECK_ST(hayanagi_engine_wait(e, 0), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
}

/* ----- user data release ---------------------------------------------------------------- */

static int g_freed[8];

static void free_ud(void *ud) { g_freed[(intptr_t)ud]++; }
static void info_cb(void *ud, const hayanagi_info *i, const char *line) { (void)ud; (void)i; (void)line; }
static void best_cb(void *ud, const char *b, const char *p) { (void)ud; (void)b; (void)p; }
static void log_cb(void *ud, const char *m) { (void)ud; (void)m; }

static void test_user_data_release(void) {
    hayanagi_engine *e = new_engine();
    memset(g_freed, 0, sizeof g_freed);
    CHECK_ST(hayanagi_engine_set_info_callback(e, info_cb, (void *)1, free_ud), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, best_cb, (void *)2, free_ud), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_log_callback(e, log_cb, (void *)3, free_ud), HAYANAGI_OK);
    CHECK(g_freed[1] == 0 && g_freed[2] == 0 && g_freed[3] == 0);
    /* Replacing releases the previous user data, once. */
    CHECK_ST(hayanagi_engine_set_info_callback(e, info_cb, (void *)4, free_ud), HAYANAGI_OK);
    CHECK(g_freed[1] == 1 && g_freed[4] == 0);
    /* Clearing with NULL releases it too; a NULL free function is never called. */
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, NULL, NULL, NULL), HAYANAGI_OK);
    CHECK(g_freed[2] == 1);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, best_cb, (void *)5, NULL), HAYANAGI_OK);
    CHECK_ST(hayanagi_engine_set_bestmove_callback(e, best_cb, (void *)6, free_ud), HAYANAGI_OK);
    CHECK(g_freed[5] == 0);
    /* free releases what is left, once each. */
    CHECK_ST(hayanagi_engine_free(e), HAYANAGI_OK);
    CHECK(g_freed[1] == 1 && g_freed[2] == 1 && g_freed[3] == 1 && g_freed[4] == 1 &&
          g_freed[5] == 0 && g_freed[6] == 1);
}

int main(void) {
    test_versions();
    test_status_str();
    test_last_error();
    test_limits_init();
    test_request_rules();
    test_position_handle();
    test_table_lifetime();
    test_engine_lifetime();
    test_null_handle();
    test_null_out_params();
    test_invalid_utf8();
    test_options();
    test_option_registry();
    test_set_position();
    test_buffers();
    test_legal_moves();
    test_perft();
    test_evaluate();
    test_eval_file_errors();
    test_game_state();
    test_idle_search_calls();
    test_user_data_release();
    return finish();
}
