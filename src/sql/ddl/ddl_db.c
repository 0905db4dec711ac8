/*
 * ddl_db.c - CREATE/DROP DATABASE, USE, SHOW DATABASES.
 *
 * Files and catalog rows stay consistent across failures and crashes:
 * CREATE makes (and fsyncs) the directory before the catalog row naming
 * it commits; DROP renames the directory aside, commits the catalog, then
 * removes the renamed tree, and puts it back if the commit fails.
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

int sql_exec_create_database(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    MsDatabase db = {0}, *existing;
    bool done;
    int made = 0, rc;
    db.name = st->name.name;
    db.comment = st->comment;
    db.owner = c->s->user;
    rc = sql_create_check(ms_db_get(c->s->ms, st->name.name, c->arena, &existing,
                                err),
                      st->if_not_exists, &done);
    if (done)
        return COMB_OK;
    if (!rc && st->location)
        rc = sql_absolute_location(c, st->location, &db.location, err);
    else if (!rc && !(db.location = comb_arena_printf(
                          c->arena, "%s/%s.db", c->s->warehouse,
                          st->name.name)))
        rc = comb_err_nomem(err);
    /* the directory is durable before the catalog row naming it */
    if (!rc && !(rc = fs_mkdirs_n(db.location, &made, err)) &&
        (rc = ms_db_create(c->s->ms, &db, st->if_not_exists, err)))
        fs_rmdirs_empty(db.location, made);
    if (rc == COMB_EEXISTS)
        return sql_err_at(err, rc, 10242, st->name.pos,
                          "Database %s already exists", st->name.name);
    return rc;
}

/* CASCADE: managed tables whose directory lies outside the database's go
 * aside one by one; the database directory takes the others with it. */
static int move_tables_aside(SqlStmtCtx *c, const MsDatabase *db,
                             AsideDirs *l, CombErr *err)
{
    size_t n_loc = strlen(db->location);
    char **names;
    int n, rc;
    if ((rc = ms_table_list(c->s->ms, db->name, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        MsTable *t;
        if ((rc = ms_table_get(c->s->ms, db->name, names[i], c->arena, &t,
                               err)))
            return rc;
        if (!sql_table_is_managed(t) || (strncmp(t->location, db->location, n_loc) == 0 &&
                               t->location[n_loc] == '/'))
            continue;
        if ((rc = sql_aside_move(c, t->location, l, err)))
            return rc;
    }
    return COMB_OK;
}

int sql_exec_drop_database(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    AsideDirs aside = {0};
    MsDatabase *db;
    int rc = ms_db_get(c->s->ms, st->name.name, c->arena, &db, err);
    if (rc == COMB_ENOTFOUND)
        return st->if_exists ? COMB_OK : sql_db_missing(&st->name, err);
    if (rc)
        return rc;
    if (strcmp(db->name, "default") == 0)
        return sql_err_at(err, COMB_EINVALID, 0, st->name.pos,
                          "Can not drop default database");
    if ((st->cascade && (rc = move_tables_aside(c, db, &aside, err))) ||
        (rc = sql_aside_move(c, db->location, &aside, err))) {
        comb_err_prefix(err, "cannot drop database %s", db->name);
        return sql_aside_put_back(c, &aside, err);
    }
    /* one catalog transaction drops the database and all its tables */
    rc = ms_db_drop(c->s->ms, db->name, false, st->cascade, err);
    if (rc == COMB_EINVALID)
        rc = sql_err_at(err, rc, 10060, st->name.pos,
                        "Database %s is not empty. One or more tables exist.",
                        db->name);
    if (rc)
        return sql_aside_put_back(c, &aside, err);
    if (strcmp(c->s->db, db->name) == 0) {
        char *d = comb_strdup("default");
        if (!d)
            return comb_err_nomem(err);
        comb_free(c->s->db);
        c->s->db = d;
    }
    return sql_aside_remove(c, &aside, err);
}

int sql_exec_use(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    MsDatabase *db;
    char *name;
    int rc = ms_db_get(c->s->ms, st->name.name, c->arena, &db, err);
    if (rc == COMB_ENOTFOUND)
        return sql_db_missing(&st->name, err);
    if (rc)
        return rc;
    if (!(name = comb_strdup(db->name)))
        return comb_err_nomem(err);
    comb_free(c->s->db);
    c->s->db = name;
    return COMB_OK;
}

int sql_exec_show_databases(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"database_name"};
    TextResult tr;
    char **dbs;
    int n, rc;
    if ((rc = ms_db_list(c->s->ms, c->arena, &dbs, &n, err)))
        return rc;
    if (sql_text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        if (sql_show_match(c->stmt->like_pattern, dbs[i]))
            rc = sql_text_row(&tr, (const char *const *)&dbs[i], err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, names, err);
}

