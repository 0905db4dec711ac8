/*
 * ddl_show.c - SHOW TABLES.
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
#include "sql/ddl/ddl_int.h"
#include "sql/func/rowstore.h"
#include "sql/func/value.h"

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
