/*
 * test_parse_util.h - helpers shared by the parser tests: parse into an
 * arena that lives until the test binary exits, and check the outcome.
 */
#ifndef COMB_TEST_PARSE_UTIL_H
#define COMB_TEST_PARSE_UTIL_H

#include "unit.h"
#include "sql/parse/ast.h"

#include <stdbool.h>
#include <string.h>

/* One arena per test file: trees from several parses stay valid together
 * within a test, and a failed CHECK cannot leak them. */
static CombArena tp_arena;
static bool tp_arena_ready;
static CombErr tp_err;

__attribute__((destructor)) static void tp_arena_release(void)
{
    if (tp_arena_ready)
        comb_arena_free(&tp_arena);
}

static inline int tp_parse(const char *sql, AstStmt **out)
{
    if (!tp_arena_ready) {
        comb_arena_init(&tp_arena, 0);
        tp_arena_ready = true;
    }
    comb_err_clear(&tp_err);
    return sql_parse_statement(sql, strlen(sql), &tp_arena, out, &tp_err);
}

/* Parse sql into stmt or fail the test with the parser's message. */
#define PARSE_OK(stmt, sql)                                              \
    do {                                                                 \
        int tp_rc = tp_parse((sql), &(stmt));                            \
        if (tp_rc != COMB_OK || !(stmt)) {                               \
            unit_fail(__FILE__, __LINE__, "parse of \"%s\": rc=%d %s",   \
                      (sql), tp_rc, tp_err.msg);                         \
            return;                                                      \
        }                                                                \
    } while (0)

/* Parsing sql must fail with code and exactly this message. */
#define PARSE_ERR(sql, code, message)                                    \
    do {                                                                 \
        AstStmt *tp_s = NULL;                                            \
        int tp_rc = tp_parse((sql), &tp_s);                              \
        if (tp_rc != (code) || strcmp(tp_err.msg, (message)) != 0) {     \
            unit_fail(__FILE__, __LINE__,                                \
                      "parse of \"%s\": rc=%d \"%s\", want rc=%d \"%s\"",\
                      (sql), tp_rc, tp_err.msg, (int)(code), (message)); \
            return;                                                      \
        }                                                                \
        CHECK(tp_s == NULL);                                             \
    } while (0)

/* The first select item's expression of a SELECT statement. */
#define SELECT_EXPR(e, sql)                                              \
    do {                                                                 \
        AstStmt *tp_s;                                                   \
        PARSE_OK(tp_s, (sql));                                           \
        CHECK_EQ(tp_s->kind, AST_SELECT);                                \
        CHECK(tp_s->select->n_items >= 1);                               \
        (e) = tp_s->select->items[0].expr;                               \
    } while (0)

#endif
