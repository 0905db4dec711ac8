/*
 * unit.h - a tiny unit-test harness.  A test is
 *     TEST(name) { CHECK(x == 1); CHECK_OK(rc, &err); ... }
 * Tests register themselves at load time; unit.c's main runs them all (or
 * those whose names contain argv[1]) and prints one line per test plus a
 * closing "N passed, N failed" line.  A failed CHECK ends its test.
 */
#ifndef COMB_UNIT_H
#define COMB_UNIT_H

#include <stdio.h>
#include <string.h>

#include "common/err.h"

typedef void (*UnitFn)(void);
void unit_register(const char *name, UnitFn fn);
void unit_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int unit_failed_now(void);
/* Directory of the shared test data (../shared/testdata or $COMB_TESTDATA). */
const char *unit_testdata(void);
/* True when the shared test data is absent: the test is then reported as
 * skipped ("skip - name") if it returns without failing
 * (a lone clone of the repository): tests needing it return at once and
 * pass. */
int unit_skip_without_testdata(void);
/* Report the running test skipped ("skip - name") if it returns without
 * failing, printing why first. */
void unit_skip(const char *why);
/* A fresh empty temporary directory for this test (removed at exit). */
const char *unit_tmpdir(void);
/* The integer the first row of a query gives on the SQLite database at
 * path (a metastore's rows no interface shows), -1 when it fails. */
long long unit_sqlite_int(const char *path, const char *sql);

#define TEST(name)                                                  \
    static void name(void);                                         \
    __attribute__((constructor)) static void unit_reg_##name(void)  \
    {                                                               \
        unit_register(#name, name);                                 \
    }                                                               \
    static void name(void)

#define CHECK(cond)                                                 \
    do {                                                            \
        if (!(cond)) {                                              \
            unit_fail(__FILE__, __LINE__, "CHECK(%s)", #cond);      \
            return;                                                 \
        }                                                           \
    } while (0)

#define CHECK_EQ(a, b)                                              \
    do {                                                            \
        long long unit_a = (long long)(a), unit_b = (long long)(b); \
        if (unit_a != unit_b) {                                     \
            unit_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", \
                      #a, #b, unit_a, unit_b);                      \
            return;                                                 \
        }                                                           \
    } while (0)

#define CHECK_STR(a, b)                                             \
    do {                                                            \
        const char *unit_a = (a), *unit_b = (b);                    \
        if (!unit_a || !unit_b || strcmp(unit_a, unit_b) != 0) {    \
            unit_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
                      #a, #b, unit_a ? unit_a : "(null)",           \
                      unit_b ? unit_b : "(null)");                  \
            return;                                                 \
        }                                                           \
    } while (0)

/* rc must be COMB_OK; on failure print the error message. */
#define CHECK_OK(rc_expr, errp)                                     \
    do {                                                            \
        int unit_rc = (rc_expr);                                    \
        if (unit_rc != COMB_OK) {                                   \
            unit_fail(__FILE__, __LINE__, "%s failed rc=%d: %s",    \
                      #rc_expr, unit_rc, (errp)->msg);              \
            return;                                                 \
        }                                                           \
    } while (0)

#endif
