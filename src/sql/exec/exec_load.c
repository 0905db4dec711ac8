/*
 * exec_load.c - LOAD DATA [LOCAL] INPATH 'path' [OVERWRITE] INTO TABLE t
 * [PARTITION (...)] [INPUTFORMAT 'c' SERDE 'c'], as Hive 4 runs it:
 *
 *   files     a plain or insert-only table, every partition key static,
 *             not bucketed, the files in the table's own format: copies of
 *             the files become the table's (plain: into the partition
 *             directory; insert-only: into delta_W_W_0000 or base_W),
 *             under their own names (_copy_N when a name is taken)
 *   rows      otherwise (full ACID tables, dynamic partition keys,
 *             bucketed tables, another INPUTFORMAT): the statement runs as
 *             Hive rewrites it, INSERT [OVERWRITE] TABLE t [PARTITION ...]
 *             SELECT * FROM <t>__temp_table_for_load_data__, a table of
 *             the files with t's data columns and its dynamic partition
 *             keys last
 *
 * Without LOCAL the source files are removed once the transaction has
 * committed (Hive moves them); with LOCAL they stay.  Either way nothing
 * of the source is lost when the statement fails.
 */
#include "sql/exec/exec.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "orc/orc.h"

#define LOAD_TEMP_SUFFIX "__temp_table_for_load_data__"

typedef struct LoadSources {
    char **files;            /* absolute paths, sorted */
    int n, cap;
} LoadSources;

static int sources_add(SqlStmtCtx *c, LoadSources *s, const char *path,
                       CombErr *err)
{
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        char **g = comb_arena_alloc(c->arena, (size_t)cap * sizeof *g);
        if (!g)
            return comb_err_nomem(err);
        if (s->n)
            memcpy(g, s->files, (size_t)s->n * sizeof *g);
        s->files = g;
        s->cap = cap;
    }
    if (!(s->files[s->n] = comb_arena_strdup(c->arena, path)))
        return comb_err_nomem(err);
    s->n++;
    return COMB_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool hidden_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return base[0] == '_' || base[0] == '.';
}

static int nested_dir_error(const AstStmt *st, const char *dir, CombErr *err)
{
    return sql_err_at(err, COMB_EUNSUPPORTED, 10027, st->load_path_pos,
                      "Invalid path '%s': '%s' is a directory; LOAD DATA "
                      "loads files, or the files of one directory",
                      st->load_path, dir);
}

/* The visible files of a directory (sorted), for a path naming one. */
static int add_dir_files(SqlStmtCtx *c, const char *dir, LoadSources *s,
                         CombErr *err)
{
    const AstStmt *st = c->stmt;
    char **names;
    int n, rc;
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        char *f;
        if (names[i][0] == '_' || names[i][0] == '.')
            continue;
        if (!(f = fs_join(c->arena, dir, names[i])))
            return comb_err_nomem(err);
        if (fs_is_dir(f))
            return nested_dir_error(st, f, err);
        if ((rc = sources_add(c, s, f, err)))
            return rc;
    }
    if (s->n > 1)
        qsort(s->files, (size_t)s->n, sizeof *s->files, cmp_str);
    return COMB_OK;
}

/* The files a LOAD path names: a file, a directory's files, or the
 * matches of a glob pattern; names starting with '_' or '.' are skipped,
 * as Hive does. */
static int load_sources(SqlStmtCtx *c, const char *path, LoadSources *s,
                        CombErr *err)
{
    const AstStmt *st = c->stmt;
    glob_t g;
    int grc = glob(path, 0, NULL, &g), rc = COMB_OK;
    int n_visible = 0;
    const char *only = NULL;
    memset(s, 0, sizeof *s);
    if (grc != 0 && grc != GLOB_NOMATCH) {
        globfree(&g);
        return comb_err(err, COMB_EIO, "cannot list LOAD DATA path '%s'", path);
    }
    for (size_t i = 0; grc == 0 && i < g.gl_pathc; i++)
        if (!hidden_name(g.gl_pathv[i])) {
            n_visible++;
            only = g.gl_pathv[i];
        }
    if (n_visible == 1 && fs_is_dir(only)) {
        rc = add_dir_files(c, only, s, err);
    } else {
        for (size_t i = 0; !rc && grc == 0 && i < g.gl_pathc; i++) {
            const char *f = g.gl_pathv[i];
            if (hidden_name(f))
                continue;
            rc = fs_is_dir(f) ? nested_dir_error(st, f, err)
                              : sources_add(c, s, f, err);
        }
    }
    globfree(&g);
    if (!rc && s->n == 0)
        return sql_err_at(err, COMB_ENOTFOUND, 10027, st->load_path_pos,
                          "Invalid path '%s': No files matching path file:%s",
                          st->load_path, path);
    return rc;
}

/* The format the files are read in: the table's, or INPUTFORMAT/SERDE. */
static int load_format(SqlStmtCtx *c, const SqlTable *t, SqlFormat *out,
                       CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *in = st->load_inputformat, *serde = st->load_serde;
    *out = t->format;
    if (!in)
        return COMB_OK;
    if (strcmp(in, MS_ORC_INPUT_FORMAT) == 0 && strcmp(serde, MS_ORC_SERDE) == 0)
        *out = SQL_FORMAT_ORC;
    else if (strcmp(in, MS_TEXT_INPUT_FORMAT) == 0 && strcmp(serde, MS_TEXT_SERDE) == 0)
        *out = SQL_FORMAT_TEXT;
    else
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, st->load_path_pos,
                          "LOAD DATA with INPUTFORMAT '%s' SERDE '%s' is not "
                          "supported: use %s with %s, or %s with %s", in, serde,
                          MS_ORC_INPUT_FORMAT, MS_ORC_SERDE,
                          MS_TEXT_INPUT_FORMAT, MS_TEXT_SERDE);
    return COMB_OK;
}

/* ORC sources must be ORC files a plain writer wrote: Hive's 30019 for
 * anything else, 10413 for a file of an ACID table. */
static int check_orc_sources(SqlStmtCtx *c, const LoadSources *s, CombErr *err)
{
    const AstStmt *st = c->stmt;
    for (int i = 0; i < s->n; i++) {
        OrcReader *r;
        CombErr why;
        bool acid;
        if (orc_reader_open(s->files[i], &r, &why))
            return sql_err_at(err, COMB_EINVALID, 30019, st->load_path_pos,
                              "The file that you are trying to load does not "
                              "match the file format of the destination "
                              "table. (%s)", why.msg);
        acid = acid_schema_is_acid(orc_reader_schema(r));
        orc_reader_close(r);
        if (acid)
            return sql_err_at(err, COMB_EINVALID, 10413, st->load_path_pos,
                              "\"%s\" was created by Acid write - it cannot be "
                              "loaded into anther Acid table", s->files[i]);
    }
    return COMB_OK;
}

/* ------------------------------------------------------- files as they are */

static int load_files(SqlStmtCtx *c, SqlTable *t, char **static_values,
                      const LoadSources *s, CombErr *err)
{
    SqlWriter *w = NULL;
    char *name = NULL;
    int rc;
    for (int k = 0; k < t->n_part; k++)
        if (strcmp(static_values[k], MS_DEFAULT_PARTITION_NAME) == 0)
            static_values[k] = NULL;
    if (t->n_part &&
        (rc = ms_part_name_make(t->ms, static_values, c->arena, &name, err)))
        return rc;
    rc = sql_writer_open(c, t, MS_OP_INSERT, c->stmt->overwrite, static_values,
                         &w, err);
    for (int i = 0; !rc && i < s->n; i++)
        rc = sql_writer_add_file(w, name, static_values, s->files[i], err);
    if (!rc)
        rc = sql_writer_finish(w, err);
    sql_writer_close(w);
    return rc;
}

/* ------------------------------------------------------- rows, as an INSERT */

/* The files as a plain table: t's data columns, then the partition keys
 * without a static value. */
static int source_table(SqlStmtCtx *c, const SqlTable *t, char **static_values,
                        SqlFormat format, const LoadSources *s, SqlTable **out,
                        CombErr *err)
{
    MsTable *m = comb_arena_alloc(c->arena, sizeof *m);
    int n = 0, rc;
    if (!m)
        return comb_err_nomem(err);
    *m = *t->ms;
    m->name = comb_arena_printf(c->arena, "%s" LOAD_TEMP_SUFFIX, t->ms->name);
    m->cols = comb_arena_alloc(c->arena, (size_t)(t->n_cols + 1) * sizeof *m->cols);
    if (!m->name || !m->cols)
        return comb_err_nomem(err);
    for (int i = 0; i < t->ms->n_cols; i++)
        m->cols[n++] = t->ms->cols[i];
    for (int k = 0; k < t->n_part; k++)
        if (!static_values[k])
            m->cols[n++] = t->ms->part_keys[k];
    m->n_cols = n;
    m->n_part_keys = 0;
    m->part_keys = NULL;
    m->n_props = 0;
    m->props = NULL;
    m->n_buckets = -1;
    m->n_bucket_cols = 0;
    m->n_sort_cols = 0;
    m->table_type = MS_EXTERNAL_TABLE;
    m->location = fs_dirname(c->arena, s->files[0]);
    m->input_format = format == SQL_FORMAT_TEXT ? MS_TEXT_INPUT_FORMAT
                                                : MS_ORC_INPUT_FORMAT;
    m->serde = format == SQL_FORMAT_TEXT ? MS_TEXT_SERDE : MS_ORC_SERDE;
    if (!m->location)
        return comb_err_nomem(err);
    if ((rc = sql_table_from_ms(c, m, out, err)))
        return rc;
    (*out)->files = s->files;
    (*out)->n_files = s->n;
    return COMB_OK;
}

static int load_rows(SqlStmtCtx *c, const SqlTable *t, char **static_values,
                     SqlFormat format, const LoadSources *s, CombErr *err)
{
    const AstStmt *load = c->stmt;
    AstStmt ins = *load;
    AstSelect sel;
    AstSelectItem star_item;
    AstExpr star;
    AstFrom from;
    SqlTable *src;
    int rc;
    if ((rc = source_table(c, t, static_values, format, s, &src, err)))
        return rc;
    memset(&star, 0, sizeof star);
    star.kind = AST_STAR;
    star.pos = load->load_path_pos;
    star.height = 1;
    star_item = (AstSelectItem){&star, NULL};
    memset(&sel, 0, sizeof sel);
    sel.n_items = 1;
    sel.items = &star_item;
    memset(&from, 0, sizeof from);
    from.kind = AST_FROM_TABLE;
    from.pos = load->load_path_pos;
    from.table = (AstName){NULL, src->ms->name, load->load_path_pos};
    sel.from = &from;
    sel.pos = load->load_path_pos;
    sel.limit = -1;
    ins.kind = AST_INSERT;
    ins.select = &sel;
    ins.n_insert_cols = 0;
    ins.n_rows = 0;
    c->stmt = &ins;
    c->load_source = src;
    rc = sql_exec_insert(c, err);
    c->stmt = load;
    c->load_source = NULL;
    return rc;
}

/* ------------------------------------------------------------------ LOAD */

/* After the commit: Hive moves non-LOCAL sources, so they go away; a file
 * that cannot be removed is reported, the load stands. */
static int remove_sources(SqlStmtCtx *c, const LoadSources *s, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; i < s->n && !rc; i++) {
        CombErr why;
        if (fs_unlink(s->files[i], &why) && c->sink->info)
            rc = c->sink->info(c->sink->ctx,
                               comb_arena_printf(c->arena, "WARNING: loaded "
                                                 "but not removed: %s",
                                                 why.msg), err);
    }
    return rc;
}

int sql_exec_load(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    SqlTable *t;
    LoadSources src;
    SqlFormat format;
    char *path, **static_values;
    int n_dynamic, rc;
    bool as_files;
    if ((rc = sql_table_resolve(c, &st->name, &t, err)))
        return rc;
    if (t->kind == SQL_TABLE_VIEW)
        return sql_err_at(err, COMB_ESEMANTIC, 10090, st->name.pos,
                          "A view cannot be used as target table for LOAD or "
                          "INSERT");
    if ((rc = sql_insert_partition_spec(c, t, true, &static_values, &n_dynamic,
                                        err)) ||
        (rc = load_format(c, t, &format, err)) ||
        (rc = sql_absolute_location(c, st->load_path, &path, err)) ||
        (rc = load_sources(c, path, &src, err)) ||
        (format == SQL_FORMAT_ORC && (rc = check_orc_sources(c, &src, err))))
        return rc;
    as_files = t->kind != SQL_TABLE_ACID && n_dynamic == 0 &&
               t->n_buckets <= 0 && format == t->format;
    rc = as_files ? load_files(c, t, static_values, &src, err)
                  : load_rows(c, t, static_values, format, &src, err);
    if (!rc)
        rc = sql_txn_commit(c, err);
    if (!rc && !st->load_local)
        rc = remove_sources(c, &src, err);
    return rc;
}
