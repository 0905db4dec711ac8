/*
 * ddl_util.c - what the catalog statements share: results made of text
 * rows, SHOW ... LIKE patterns, absolute locations, CREATE's existence
 * check, and DROP's directories moved aside until the catalog commits.
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

/* ------------------------------------------------------------- output */

int sql_text_begin(TextResult *tr, int n_cols)
{
    CombTypeKind kinds[32];
    if (n_cols > 32)
        return COMB_EINVALID;
    for (int i = 0; i < n_cols; i++)
        kinds[i] = COMB_T_STRING;
    tr->n_cols = n_cols;
    return sql_rows_init(&tr->rs, n_cols, kinds);
}

/* Append one row of n_cols strings (NULL pointer = SQL NULL). */
int sql_text_row(TextResult *tr, const char *const *vals, CombErr *err)
{
    SqlDatum *row;
    int rc = sql_rows_add(&tr->rs, &row, err);
    if (rc)
        return rc;
    for (int i = 0; i < tr->n_cols; i++) {
        char *p;
        if (!vals[i])
            continue;
        p = comb_arena_strdup(&tr->rs.arena, vals[i]);
        if (!p)
            return comb_err_nomem(err);
        row[i].null = false;
        row[i].s = (CombStr){p, (uint32_t)strlen(p)};
    }
    return COMB_OK;
}

int sql_text_emit(SqlStmtCtx *c, TextResult *tr, const char *const *names,
                     CombErr *err)
{
    const SqlSink *sink = c->sink;
    int rc = COMB_OK;
    if (sink->begin)
        rc = sink->begin(sink->ctx, tr->n_cols, names, tr->rs.kinds, err);
    if (!rc)
        rc = sql_rows_emit(&tr->rs, tr->n_cols, -1, sink, err);
    if (!rc && sink->end)
        rc = sink->end(sink->ctx, err);
    sql_rows_free(&tr->rs);
    return rc;
}

/* Hive's SHOW ... LIKE pattern: '*' any run, '|' alternatives, no case. */
bool sql_show_match(const char *pat, const char *name)
{
    char alt[256];
    const char *p = pat;
    if (!pat)
        return true;
    while (*p) {
        size_t n = strcspn(p, "|");
        CombStr s = {name, (uint32_t)strlen(name)};
        CombStr like;
        size_t k = 0;
        for (size_t i = 0; i < n && k + 2 < sizeof alt; i++)
            alt[k++] = (char)(p[i] == '*' ? '%' : tolower((unsigned char)p[i]));
        alt[k] = '\0';
        like = (CombStr){alt, (uint32_t)k};
        char lower[256];
        size_t m = strlen(name) < sizeof lower - 1 ? strlen(name) : sizeof lower - 1;
        for (size_t i = 0; i < m; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        s = (CombStr){lower, (uint32_t)m};
        if (sql_like_match(s, like))
            return true;
        p += n;
        if (*p == '|')
            p++;
    }
    return false;
}

int sql_db_missing(const AstName *n, CombErr *err)
{
    return sql_err_at(err, COMB_ENOTFOUND, 10072, n->pos,
                      "Database does not exist: %s", n->name);
}

/* A LOCATION as the user wrote it, made absolute against this process's
 * working directory (Hive qualifies locations the same way), so every
 * process finds the same directory. */
/* The path of a location URI: "file:///p" and "file:/p" are /p, an
 * object-store location ("s3a://bucket/p") stays as it is; any other
 * scheme ("hdfs://") is refused, a plain path returned as is. */
static int location_path(const char *location, const char **path,
                         CombErr *err)
{
    size_t scheme = strspn(location, "abcdefghijklmnopqrstuvwxyz"
                                     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-");
    *path = location;
    if (scheme == 0 || location[scheme] != ':' || location[0] == '/' ||
        fs_is_remote(location))
        return COMB_OK;
    if (scheme == 4 && strncasecmp(location, "file", 4) == 0) {
        const char *p = location + 5;
        if (strncmp(p, "//", 2) == 0)
            p += 2;
        if (*p != '/')
            return comb_err(err, COMB_EINVALID, "location '%s': a file: URI "
                            "needs an absolute path (file:///dir)", location);
        *path = p;
        return COMB_OK;
    }
    return comb_err(err, COMB_EUNSUPPORTED, "location '%s': the file system "
                    "scheme '%.*s' is not supported (use a local path, a "
                    "file: URI or an s3a:// location)", location,
                    (int)scheme, location);
}

int sql_absolute_location(SqlStmtCtx *c, const char *location, char **out,
                          CombErr *err)
{
    int rc = location_path(location, &location, err);
    if (rc)
        return rc;
    *out = fs_absolute(c->arena, location);
    if (!*out)
        return comb_err(err, COMB_EIO,
                        "cannot make location '%s' absolute: the working "
                        "directory is unknown or too long", location);
    return COMB_OK;
}

/* What CREATE does after looking its object up (lookup_rc): go on
 * (COMB_OK, *done false), stop quietly under IF NOT EXISTS (*done), or
 * fail: COMB_EEXISTS, or the lookup's own error. */
int sql_create_check(int lookup_rc, bool if_not_exists, bool *done)
{
    *done = lookup_rc == COMB_OK && if_not_exists;
    if (lookup_rc == COMB_OK)
        return *done ? COMB_OK : COMB_EEXISTS;
    return lookup_rc == COMB_ENOTFOUND ? COMB_OK : lookup_rc;
}

/* Never move or remove the warehouse or a directory holding it (a
 * database or table given the warehouse as LOCATION). */
static bool holds_warehouse(const SqlStmtCtx *c, const char *dir)
{
    size_t n = strlen(dir);
    const char *wh = c->s->warehouse;
    return strncmp(wh, dir, n) == 0 && (wh[n] == '\0' || wh[n] == '/' ||
                                        strcmp(dir, "/") == 0);
}

int sql_aside_move(SqlStmtCtx *c, const char *dir, AsideDirs *l,
                      CombErr *err)
{
    char *to;
    int rc;
    if (!fs_exists(dir) || holds_warehouse(c, dir))
        return COMB_OK;
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 8;
        char **from = comb_arena_alloc(c->arena, (size_t)cap * sizeof *from);
        char **tos = comb_arena_alloc(c->arena, (size_t)cap * sizeof *tos);
        if (!from || !tos)
            return comb_err_nomem(err);
        if (l->n) {
            memcpy(from, l->from, (size_t)l->n * sizeof *from);
            memcpy(tos, l->to, (size_t)l->n * sizeof *tos);
        }
        l->from = from;
        l->to = tos;
        l->cap = cap;
    }
    if (fs_is_remote(dir))
        to = (char *)dir;
    else if ((rc = fs_rename_aside(dir, "dropped", c->arena, &to, err)))
        return rc;
    l->from[l->n] = (char *)dir;
    l->to[l->n++] = to;
    return COMB_OK;
}

/* The DROP failed (err says why): everything goes back where it was.
 * What cannot go back is named in err, so the user can move it. */
int sql_aside_put_back(SqlStmtCtx *c, AsideDirs *l, CombErr *err)
{
    int rc = err->code;
    for (int i = l->n - 1; i >= 0; i--) {
        char *parent = fs_dirname(c->arena, l->from[i]);
        CombErr why;
        if (l->to[i] == l->from[i])
            continue;
        if (fs_rename(l->to[i], l->from[i], &why) == COMB_OK && parent)
            fs_fsync_dir(parent, &why);
        else
            comb_err_prefix(err, "the files of '%s' are left in '%s' (%s)",
                            l->from[i], l->to[i], why.msg);
    }
    return rc;
}

/* After the catalog commit: the DROP has happened.  Files that cannot be
 * removed stay under their hidden names, which no table reads; the user
 * is told where. */
int sql_aside_remove(SqlStmtCtx *c, const AsideDirs *l, CombErr *err)
{
    for (int i = 0; i < l->n; i++) {
        CombErr why;
        char *line;
        if (fs_remove_tree(l->to[i], &why) == COMB_OK || !c->sink->info)
            continue;
        line = comb_arena_printf(c->arena,
                                 "WARNING: dropped, but could not remove its "
                                 "files (%s); they are left in '%s'",
                                 why.msg, l->to[i]);
        if (!line)
            return comb_err_nomem(err);
        int rc = c->sink->info(c->sink->ctx, line, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

bool sql_table_is_managed(const MsTable *t)
{
    return strcmp(t->table_type, MS_EXTERNAL_TABLE) != 0 &&
           strcmp(t->table_type, MS_VIRTUAL_VIEW) != 0;
}

