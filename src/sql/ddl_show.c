/*
 * ddl_show.c - SHOW TABLES and DESCRIBE.
 */
#include "sql/sql_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "sql/ddl_int.h"
#include "sql/rowstore.h"
#include "sql/value.h"

int sql_exec_show_tables(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"tab_name"};
    const AstStmt *st = c->stmt;
    const char *db = st->show_in ? st->name.name : c->s->db;
    MsDatabase *d;
    TextResult tr;
    char **tables;
    int n, rc = ms_db_get(c->s->ms, db, c->arena, &d, err);
    if (rc == COMB_ENOTFOUND)
        return sql_err_at(err, rc, 10072, st->name.pos,
                          "Database does not exist: %s", db);
    if (rc || (rc = ms_table_list(c->s->ms, db, c->arena, &tables, &n, err)))
        return rc;
    if (sql_text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        if (sql_show_match(st->like_pattern, tables[i]))
            rc = sql_text_row(&tr, (const char *const *)&tables[i], err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, names, err);
}

/* DESCRIBE [FORMATTED]: col_name, data_type, comment (+ table details). */
static int describe_details(TextResult *tr, const MsTable *t, CombErr *err)
{
    char created[64], buckets[32];
    time_t ct = (time_t)t->create_time;
    struct tm tm;
    const char *rows[][3] = {
        {"", NULL, NULL},
        {"# Detailed Table Information", NULL, NULL},
        {"Database:", t->db, NULL},
        {"OwnerType:", "USER", NULL},
        {"Owner:", t->owner, NULL},
        {"CreateTime:", created, NULL},
        {"Location:", t->location, NULL},
        {"Table Type:", t->table_type, NULL},
        {"Table Parameters:", NULL, NULL},
    };
    int rc = COMB_OK;
    gmtime_r(&ct, &tm);
    strftime(created, sizeof created, "%a %b %d %H:%M:%S UTC %Y", &tm);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && !rc; i++)
        rc = sql_text_row(tr, rows[i], err);
    for (int i = 0; i < t->n_props && !rc; i++) {
        const char *r[3] = {"", t->props[i].key, t->props[i].value};
        rc = sql_text_row(tr, r, err);
    }
    snprintf(buckets, sizeof buckets, "%d", t->n_buckets);
    const char *storage[][3] = {
        {"", NULL, NULL},
        {"# Storage Information", NULL, NULL},
        {"SerDe Library:", t->serde, NULL},
        {"InputFormat:", t->input_format, NULL},
        {"OutputFormat:", t->output_format, NULL},
        {"Num Buckets:", buckets, NULL},
    };
    for (size_t i = 0; i < sizeof storage / sizeof storage[0] && !rc; i++)
        rc = sql_text_row(tr, storage[i], err);
    if (!rc && t->n_bucket_cols > 0) {
        CombBuf b = COMB_BUF_INIT;
        comb_buf_append_byte(&b, '[');
        for (int i = 0; i < t->n_bucket_cols; i++)
            comb_buf_printf(&b, "%s%s", i ? ", " : "", t->bucket_cols[i]);
        comb_buf_append_str(&b, "]");
        comb_buf_append_byte(&b, '\0');
        const char *r[3] = {"Bucket Columns:", b.data ? (char *)b.data : "[]", NULL};
        rc = sql_text_row(tr, r, err);
        comb_buf_free(&b);
    }
    return rc;
}

int sql_exec_describe(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"col_name", "data_type", "comment"};
    SqlTable *t;
    TextResult tr;
    int rc;
    if ((rc = sql_table_resolve(c, &c->stmt->name, &t, err)))
        return rc;
    if (sql_text_begin(&tr, 3))
        return comb_err_nomem(err);
    if (c->stmt->describe_formatted) {
        const char *hdr[3] = {"# col_name", "data_type", "comment"};
        rc = sql_text_row(&tr, hdr, err);
    }
    for (int i = 0; i < t->ms->n_cols && !rc; i++) {
        const MsColumn *col = &t->ms->cols[i];
        const char *r[3] = {col->name, col->type, col->comment ? col->comment : ""};
        rc = sql_text_row(&tr, r, err);
    }
    if (!rc && (c->stmt->describe_formatted || c->stmt->describe_extended))
        rc = describe_details(&tr, t->ms, err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, names, err);
}

