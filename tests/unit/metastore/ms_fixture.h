/*
 * ms_fixture.h - shared setup for the metastore unit tests: a fresh
 * metastore file and warehouse directory under the test's temporary
 * directory, and direct SQL access to the file for checking rows that the
 * ms.h interface does not expose.
 */
#ifndef COMB_MS_FIXTURE_H
#define COMB_MS_FIXTURE_H

#include <sqlite3.h>
#include <stdio.h>

#include "unit.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "fs/fs.h"
#include "metastore/ms.h"

/* Paths of one test's metastore. */
typedef struct Fx {
    char db[600];         /* the SQLite file */
    char warehouse[600];  /* the warehouse root */
} Fx;

/* Fresh paths in a new temporary directory (nothing is created yet). */
static inline void fx_paths(Fx *fx)
{
    const char *dir = unit_tmpdir();
    snprintf(fx->db, sizeof fx->db, "%s/metastore.db", dir);
    snprintf(fx->warehouse, sizeof fx->warehouse, "%s/warehouse", dir);
}

/* Fresh paths and a metastore opened on them. */
static inline int fx_open(Fx *fx, Ms **ms, CombErr *err)
{
    fx_paths(fx);
    return ms_open_sqlite(fx->db, fx->warehouse, ms, err);
}

/* default.t (a int): the table the transaction tests write to. */
static inline int fx_create_t(Ms *ms, CombErr *err)
{
    MsColumn col = {"a", "int", NULL};
    MsTable t = {0};
    t.db = "default";
    t.name = "t";
    t.n_cols = 1;
    t.cols = &col;
    return ms_table_create(ms, &t, false, err);
}

/* A list formatted as Hive's string (heap, NULL when out of memory) into
 * buf, then freed. */
static inline void fx_take_text(char *s, char *buf, size_t n)
{
    snprintf(buf, n, "%s", s ? s : "(oom)");
    comb_free(s);
}

/* One integer from a SQL query run directly on the file; -1 on error. */
static inline long long fx_sql_int(const Fx *fx, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_open_v2(fx->db, &db, SQLITE_OPEN_READWRITE, NULL) ==
            SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

static inline int fx_sql_exec_flags(const Fx *fx, const char *sql,
                                    int flags)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(fx->db, &db, flags, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

/* Run SQL directly on the file; SQLITE_OK or the error code. */
static inline int fx_sql_exec(const Fx *fx, const char *sql)
{
    return fx_sql_exec_flags(fx, sql, SQLITE_OPEN_READWRITE);
}

/* The same on a file that does not exist yet. */
static inline int fx_sql_exec_create(const Fx *fx, const char *sql)
{
    return fx_sql_exec_flags(fx, sql,
                             SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
}

/* The first column of the first row of a query, as text, into buf ("" when
 * NULL or no row, "(error)" on failure). */
static inline void fx_sql_text(const Fx *fx, const char *sql, char *buf,
                               size_t cap)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int step = SQLITE_ERROR;
    snprintf(buf, cap, "(error)");
    if (sqlite3_open_v2(fx->db, &db, SQLITE_OPEN_READWRITE, NULL) ==
            SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK)
        step = sqlite3_step(st);
    if (step == SQLITE_ROW)
        snprintf(buf, cap, "%s",
                 sqlite3_column_text(st, 0)
                     ? (const char *)sqlite3_column_text(st, 0)
                     : "");
    else if (step == SQLITE_DONE)
        buf[0] = '\0';
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Fresh paths and, at fx->db, the metastore an older comb wrote at schema
 * version 1 (data/metastore_v1.sql, a dump of a real one); SQLITE_OK or
 * the error. */
static inline int fx_load_v1(Fx *fx)
{
    const char *file = __FILE__, *slash = strrchr(file, '/');
    char path[700];
    CombArena a;
    CombErr err;
    unsigned char *sql = NULL;
    size_t len = 0;
    int rc;
    fx_paths(fx);
    snprintf(path, sizeof path, "%.*s/data/metastore_v1.sql",
             slash ? (int)(slash - file) : 1, slash ? file : ".");
    comb_arena_init(&a, 0);
    rc = fs_read_file(path, &a, &sql, &len, &err) == COMB_OK ? SQLITE_OK
                                                               : SQLITE_CANTOPEN;
    if (rc == SQLITE_OK) {
        char *text = comb_arena_strndup(&a, (const char *)sql, len);
        rc = text ? fx_sql_exec_create(fx, text) : SQLITE_NOMEM;
    }
    comb_arena_free(&a);
    return rc;
}

#endif
