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

/* Run SQL directly on the file; SQLITE_OK or the error code. */
static inline int fx_sql_exec(const Fx *fx, const char *sql)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(fx->db, &db, SQLITE_OPEN_READWRITE, NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

#endif
