/*
 * test_catalog_views.c - the catalog statements on a view record
 * (MS_VIRTUAL_VIEW, as CREATE VIEW stores one): SHOW CREATE TABLE prints
 * CREATE VIEW with the expanded text, DESCRIBE FORMATTED its "# View
 * Information" and no location or statistics, MSCK refuses it.  The view
 * is put into the metastore directly, so these tests need no CREATE VIEW.
 */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "metastore/ms.h"
#include "sql/session.h"

/* Every row as its fields joined by '|' (NULL as "NULL"), one per line. */
typedef struct Text {
    CombBuf b;
} Text;

static int text_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    Text *t = ctx;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        for (int j = 0; j < b->n_cols; j++) {
            const CombVector *v = &b->cols[j];
            if (j)
                comb_buf_append_byte(&t->b, '|');
            if (comb_vec_is_null(v, row))
                comb_buf_append_str(&t->b, "NULL");
            else
                comb_buf_append(&t->b, v->str[row].ptr, v->str[row].len);
        }
        comb_buf_append_byte(&t->b, '\n');
    }
    return COMB_OK;
}

static int run(SqlSession *s, const char *sql, Text *out, CombErr *err)
{
    SqlSink sink = {out, NULL, text_batch, NULL, NULL};
    comb_buf_clear(&out->b);
    int rc = sql_session_execute(s, sql, strlen(sql), &sink, err);
    comb_buf_append_byte(&out->b, '\0');
    out->b.len--;
    return rc;
}

/* A session on a fresh warehouse holding table t and view v over it. */
static SqlSession *with_view(char *dir, size_t len)
{
    SqlSessionOptions opt = {dir, "tester"};
    SqlSession *s = NULL;
    Ms *ms = NULL;
    CombErr err;
    char path[1100];
    MsColumn cols[] = {{"a", "int", "the a"}, {"b", "string", NULL}};
    MsProperty props[] = {{"transient_lastDdlTime", "1700000000"}};
    MsTable v = {
        .db = "default", .name = "v", .owner = "tester",
        .table_type = MS_VIRTUAL_VIEW, .create_time = 1700000000,
        .input_format = "org.apache.hadoop.mapred.SequenceFileInputFormat",
        .output_format = "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat",
        .n_cols = 2, .cols = cols, .n_buckets = -1, .n_props = 1, .props = props,
        .view_original_text = "select a, b from t",
        .view_expanded_text = "select `t`.`a`, `t`.`b` from `default`.`t`",
    };
    Text ignored = {COMB_BUF_INIT};
    snprintf(dir, len, "%s/wh", unit_tmpdir());
    snprintf(path, sizeof path, "%s/metastore.db", dir);
    if (sql_session_open(&opt, &s, &err) ||
        run(s, "CREATE TABLE t (a INT COMMENT 'the a', b STRING)", &ignored, &err) ||
        ms_open_sqlite(path, dir, &ms, &err) || ms_table_create(ms, &v, false, &err)) {
        fprintf(stdout, "    setup: %s\n", err.msg);
        sql_session_close(s);
        s = NULL;
    }
    ms_close(ms);
    comb_buf_free(&ignored.b);
    return s;
}

TEST(view_catalog_statements)
{
    char dir[1024];
    CombErr err;
    Text out = {COMB_BUF_INIT};
    SqlSession *s = with_view(dir, sizeof dir);
    CHECK(s != NULL);
    CHECK_OK(run(s, "SHOW CREATE TABLE default.v", &out, &err), &err);
    CHECK_STR((char *)out.b.data,
              "CREATE VIEW `default`.`v` AS select `t`.`a`, `t`.`b` from `default`.`t`\n");
    CHECK_OK(run(s, "SHOW CREATE TABLE v", &out, &err), &err);
    CHECK_STR((char *)out.b.data,
              "CREATE VIEW `v` AS select `t`.`a`, `t`.`b` from `default`.`t`\n");
    CHECK_OK(run(s, "DESCRIBE v", &out, &err), &err);
    CHECK_STR((char *)out.b.data, "a|int|the a\nb|string|\n");
    CHECK_OK(run(s, "DESCRIBE FORMATTED v", &out, &err), &err);
    const char *text = (char *)out.b.data;
    /* a view has no location and no statistics, but its queries */
    CHECK(strstr(text, "Location:") == NULL);
    CHECK(strstr(text, "numRows") == NULL);
    CHECK(strstr(text, "Table Type:         |VIRTUAL_VIEW        |NULL\n") != NULL);
    CHECK(strstr(text, "\t|transient_lastDdlTime|1700000000          \n") == NULL);
    CHECK(strstr(text, "|transient_lastDdlTime|1700000000          \n") != NULL);
    CHECK(strstr(text, "# View Information|NULL|NULL\n"
                       "Original Query:     |select a, b from t  |NULL\n"
                       "Expanded Query:     |select `t`.`a`, `t`.`b` from `default`.`t`|NULL\n") != NULL);
    CHECK(strstr(text, "SerDe Library:      |null                |NULL\n") != NULL);
    CHECK_OK(run(s, "SHOW TBLPROPERTIES v", &out, &err), &err);
    CHECK_STR((char *)out.b.data, "transient_lastDdlTime|1700000000\n");
    CHECK_OK(run(s, "SHOW COLUMNS FROM v", &out, &err), &err);
    CHECK_STR((char *)out.b.data, "a\nb\n");
    CHECK(run(s, "MSCK REPAIR TABLE v", &out, &err) == COMB_ESEMANTIC);
    CHECK(strstr(err.msg, "MSCK cannot check default.v: it is a view") != NULL);
    CHECK(run(s, "SHOW PARTITIONS v", &out, &err) == COMB_EINVALID);
    CHECK(strstr(err.msg, "Table v is not a partitioned table") != NULL);
    comb_buf_free(&out.b);
    sql_session_close(s);
}
