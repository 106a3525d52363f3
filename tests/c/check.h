/* The minimal test harness shared by the C tests: thread-safe pass/fail counters, CHECK
 * macros that print the failing expression, and finish() printing "N passed, M failed".
 * Define CHECK_LOG_LIMIT before including to print only the first failures. */
#ifndef HAYANAGI_TEST_CHECK_H
#define HAYANAGI_TEST_CHECK_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "hayanagi.h"

#ifndef CHECK_LOG_LIMIT
#define CHECK_LOG_LIMIT 0x7fffffff
#endif

static atomic_int g_pass, g_fail;

static void check_impl(int ok, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        atomic_fetch_add(&g_pass, 1);
        return;
    }
    if (atomic_fetch_add(&g_fail, 1) < CHECK_LOG_LIMIT) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s:%d: FAILED: ", file, line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

#define CHECK(cond) check_impl(!!(cond), __FILE__, __LINE__, "%s", #cond)
#define CHECK_ST(expr, want)                                                                  \
    do {                                                                                      \
        hayanagi_status st_ = (expr);                                                         \
        check_impl(st_ == (want), __FILE__, __LINE__, "%s returned %d (%s), expected %s (%d)", \
                   #expr, st_, hayanagi_status_str(st_), #want, (want));                      \
    } while (0)
#define CHECK_STR(a, b)                                                                       \
    do {                                                                                      \
        const char *a_ = (a), *b_ = (b);                                                      \
        check_impl(a_ && b_ && strcmp(a_, b_) == 0, __FILE__, __LINE__,                       \
                   "%s == %s: \"%s\" vs \"%s\"", #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
    } while (0)
#define CHECK_CONTAINS(hay, needle)                                                           \
    do {                                                                                      \
        const char *h_ = (hay), *n_ = (needle);                                               \
        check_impl(h_ && strstr(h_, n_) != NULL, __FILE__, __LINE__,                          \
                   "\"%s\" should contain \"%s\"", h_ ? h_ : "(null)", n_);                   \
    } while (0)

/* Number of space-separated words in `s` (move lists). */
static inline int count_words(const char *s) {
    int n = 0, in = 0;
    for (; *s; s++) {
        if (*s == ' ') {
            in = 0;
        } else if (!in) {
            in = 1;
            n++;
        }
    }
    return n;
}

static int finish(void) {
    printf("%d passed, %d failed\n", atomic_load(&g_pass), atomic_load(&g_fail));
    return atomic_load(&g_fail) ? 1 : 0;
}

#endif
