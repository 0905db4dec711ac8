/*
 * ms_fixture.h - shared setup for the metastore unit tests: a fresh
 * metastore and warehouse directory for each test, on either backend, and
 * direct SQL access to the metastore's database for checking rows that the
 * ms.h interface does not expose (the same SQL text reads both backends).
 *
 * MS_TEST(name) registers a test twice: "name" on the SQLite backend and
 * "name[postgresql]" on a PostgreSQL server the test binary starts for
 * itself on first use (ms_fixture.c: initdb into a temporary directory, a
 * Unix socket only, removed at exit even when the binary crashes); the
 * PostgreSQL runs report themselves skipped where PostgreSQL's server
 * binaries are not installed.  TEST(name) tests run on SQLite only.
 */
#ifndef COMB_MS_FIXTURE_H
#define COMB_MS_FIXTURE_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>

#include "unit.h"
#include "common/alloc.h"
#include "common/arena.h"
#include "fs/fs.h"
#include "metastore/ms.h"

typedef enum FxBackend { FX_SQLITE, FX_PG } FxBackend;

/* The backend of the test running now (set by MS_TEST's runners). */
extern FxBackend fx_backend;

/* One test's metastore. */
typedef struct Fx {
    FxBackend backend;
    char db[700];         /* the SQLite file, or the PostgreSQL URL */
    char where[700];      /* how errors name it: the file, or the URL
                             without its parameters */
    char warehouse[600];  /* the warehouse root */
} Fx;

/* Fresh names on the current backend: a file in a new temporary directory
 * (nothing created yet), or a new empty schema on the server. */
void fx_paths(Fx *fx);
/* Fresh names and a metastore opened on them. */
int fx_open(Fx *fx, Ms **ms, CombErr *err);
/* Another handle on fx's metastore, with warehouse (NULL: fx's). */
int fx_reopen(const Fx *fx, const char *warehouse, Ms **ms, CombErr *err);

/* One integer from a SQL query run directly on the database; -1 on
 * error. */
long long fx_sql_int(const Fx *fx, const char *sql);
/* Run SQL directly on the database: 0 (SQLITE_OK), or non-zero. */
int fx_sql_exec(const Fx *fx, const char *sql);
/* The first column of the first row of a query, as text, into buf ("" when
 * NULL or no row, "(error)" on failure). */
void fx_sql_text(const Fx *fx, const char *sql, char *buf, size_t cap);
/* Whether the metastore has a table of that (Hive, upper-case) name. */
bool fx_table_exists(const Fx *fx, const char *table);

/* SQLite only: fresh paths and, at fx->db, the metastore an older comb
 * wrote at schema version 1 (data/metastore_v1.sql, a dump of a real
 * one); SQLITE_OK or the error. */
int fx_load_v1(Fx *fx);
/* PostgreSQL only: fresh names and, in the new schema, the metastore this
 * backend wrote at schema version 2 (data/metastore_pg_v2.sql, a pg_dump
 * of one, described in its header); 0 or non-zero. */
int fx_load_pg_v2(Fx *fx);

/* PostgreSQL runs: the server, started on first use; false, with the test
 * reported skipped (no server binaries) or failed, when there is none. */
bool fx_pg_ready(void);
/* Stop the server keeping its data, and start it again (0 when done). */
int fx_pg_pause(void);
int fx_pg_resume(void);

/* The runner of a test on PostgreSQL. */
#define FX_PG_RUNNER(name)                                              \
    static void name##_on_pg(void)                                      \
    {                                                                   \
        fx_backend = FX_PG;                                             \
        if (fx_pg_ready())                                              \
            name();                                                     \
        fx_backend = FX_SQLITE;                                         \
    }

#define MS_TEST(name)                                                   \
    static void name(void);                                             \
    static void name##_on_sqlite(void)                                  \
    {                                                                   \
        fx_backend = FX_SQLITE;                                         \
        name();                                                         \
    }                                                                   \
    FX_PG_RUNNER(name)                                                  \
    __attribute__((constructor)) static void unit_reg_##name(void)      \
    {                                                                   \
        unit_register(#name, name##_on_sqlite);                         \
        unit_register(#name "[postgresql]", name##_on_pg);              \
    }                                                                   \
    static void name(void)

/* A test of the PostgreSQL backend alone. */
#define PG_TEST(name)                                                   \
    static void name(void);                                             \
    FX_PG_RUNNER(name)                                                  \
    __attribute__((constructor)) static void unit_reg_##name(void)      \
    {                                                                   \
        unit_register(#name "[postgresql]", name##_on_pg);              \
    }                                                                   \
    static void name(void)

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

#endif
