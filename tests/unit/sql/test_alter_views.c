/*
 * ALTER and TRUNCATE meeting a view, and a view meeting ALTER VIEW.  The
 * view is recorded straight in the metastore, as another engine would
 * leave it (tests/sql/ddl/views.sql does the same with CREATE VIEW's).
 */
#include "unit.h"

#include "metastore/ms.h"
#include "sql/session.h"

static int run(SqlSession *s, const char *sql, CombErr *err)
{
    return sql_session_execute(s, sql, strlen(sql), NULL, err);
}

/* Expect sql to fail with a message containing want. */
#define FAILS(s, sql, want)                                             \
    do {                                                                \
        CombErr fe;                                                     \
        CHECK(run((s), (sql), &fe) != COMB_OK);                         \
        if (!strstr(fe.msg, (want))) {                                  \
            unit_fail(__FILE__, __LINE__, "%s: %s", (sql), fe.msg);     \
            return;                                                     \
        }                                                               \
    } while (0)

static int add_view(const char *dir, CombErr *err)
{
    char path[4096];
    MsColumn col = {"a", "int", NULL};
    MsTable v = {0};
    Ms *ms;
    int rc;
    snprintf(path, sizeof path, "%s/metastore.db", dir);
    if ((rc = ms_open_sqlite(path, dir, &ms, err)))
        return rc;
    v.db = "default";
    v.name = "v";
    v.table_type = MS_VIRTUAL_VIEW;
    v.n_cols = 1;
    v.cols = &col;
    v.n_buckets = -1;
    v.view_original_text = "select a from t";
    v.view_expanded_text = "select `t`.`a` from `default`.`t`";
    rc = ms_table_create(ms, &v, false, err);
    ms_close(ms);
    return rc;
}

static int table_type(const char *dir, const char *name, char *out,
                      size_t cap, CombErr *err)
{
    char path[4096];
    CombArena a;
    MsTable *t;
    Ms *ms;
    int rc;
    snprintf(path, sizeof path, "%s/metastore.db", dir);
    if ((rc = ms_open_sqlite(path, dir, &ms, err)))
        return rc;
    comb_arena_init(&a, 4096);
    rc = ms_table_get(ms, "default", name, &a, &t, err);
    if (!rc)
        snprintf(out, cap, "%s %s", t->table_type,
                 ms_table_prop(t, "comment.x") ? ms_table_prop(t, "comment.x") : "-");
    comb_arena_free(&a);
    ms_close(ms);
    return rc;
}

TEST(alter_and_truncate_refuse_views)
{
    const char *dir = unit_tmpdir();
    SqlSessionOptions opt = {dir, "tester"};
    SqlSession *s = NULL;
    CombErr err;
    char type[128];
    CHECK_OK(sql_session_open(&opt, &s, &err), &err);
    CHECK_OK(run(s, "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true')", &err), &err);
    CHECK_OK(add_view(dir, &err), &err);
    FAILS(s, "ALTER TABLE v RENAME TO w", "[Error 10131]: Line 1:12 To alter a view you need to use the ALTER VIEW command.");
    FAILS(s, "ALTER TABLE v ADD COLUMNS (b INT)", "Error 10131");
    FAILS(s, "ALTER TABLE v SET TBLPROPERTIES ('a'='b')", "Error 10131");
    FAILS(s, "ALTER TABLE v SET LOCATION '/tmp/x'", "Error 10131");
    FAILS(s, "ALTER TABLE v CONCATENATE", "Error 10131");
    FAILS(s, "ALTER TABLE v DROP PARTITION (a = 1)", "Error 10131");
    FAILS(s, "ALTER VIEW t RENAME TO t2", "[Error 10132]: Line 1:11 To alter a base table you need to use the ALTER TABLE command.");
    FAILS(s, "ALTER VIEW t SET TBLPROPERTIES ('a'='b')", "Error 10132");
    FAILS(s, "TRUNCATE TABLE v", "[Error 10146]: Line 1:15 Cannot truncate non-managed table v.");
    FAILS(s, "TRUNCATE TABLE v FORCE", "Error 10146");
    FAILS(s, "ALTER VIEW v RENAME TO t", "new table default.t already exists");
    /* ALTER VIEW renames the view (no directory) and sets its properties */
    CHECK_OK(run(s, "ALTER VIEW v RENAME TO w", &err), &err);
    CHECK_OK(run(s, "ALTER VIEW w SET TBLPROPERTIES ('comment.x'='y', 'EXTERNAL'='TRUE')", &err), &err);
    CHECK_OK(table_type(dir, "w", type, sizeof type, &err), &err);
    CHECK_STR(type, "VIRTUAL_VIEW y");
    CHECK(table_type(dir, "v", type, sizeof type, &err) == COMB_ENOTFOUND);
    CHECK_OK(run(s, "ALTER VIEW w UNSET TBLPROPERTIES ('comment.x')", &err), &err);
    CHECK_OK(table_type(dir, "w", type, sizeof type, &err), &err);
    CHECK_STR(type, "VIRTUAL_VIEW -");
    sql_session_close(s);
}
