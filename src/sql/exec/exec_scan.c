/*
 * exec_scan.c - the table scan operator: the units (partitions) of a table
 * one after the other, each read as its table kind keeps rows - an acid/
 * merge-on-read reader for full ACID tables, the snapshot's base and
 * delta files for insert-only tables, every visible file for plain ones,
 * ORC or text as the table's format - with the partition columns filled
 * from the unit's keys and the WHERE
 * filter applied to each batch through the selection vector.
 */
#include "sql/exec/exec.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fs/fs.h"

static bool hidden(const char *name)
{
    return name[0] == '_' || name[0] == '.';
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Visible regular files of dir/sub (sub may be NULL) appended to list. */
static int add_files(SqlStmtCtx *c, const char *dir, const char *sub,
                     char ***list, int *n, int *cap, CombErr *err)
{
    const char *path = sub ? fs_join(c->arena, dir, sub) : dir;
    char **names;
    FsKind kind;
    int m, rc;
    if (!path)
        return comb_err_nomem(err);
    if ((rc = fs_probe(path, &kind, err)) || kind != FS_DIR)
        return rc;
    if ((rc = fs_list_dir(path, c->arena, &names, &m, err)))
        return rc;
    for (int i = 0; i < m; i++) {
        char *f;
        if (hidden(names[i]))
            continue;
        if (!(f = fs_join(c->arena, path, names[i])))
            return comb_err_nomem(err);
        if ((rc = fs_probe(f, &kind, err)))
            return rc;
        if (kind == FS_DIR)
            continue;
        if (*n == *cap) {
            int nc = *cap ? *cap * 2 : 16;
            char **g = comb_arena_alloc(c->arena, (size_t)nc * sizeof *g);
            if (!g)
                return comb_err_nomem(err);
            if (*n)
                memcpy(g, *list, (size_t)*n * sizeof *g);
            *list = g;
            *cap = nc;
        }
        (*list)[(*n)++] = f;
    }
    return COMB_OK;
}

int sql_unit_files(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                   const CombWriteIdList *wil, char ***paths, int *n,
                   CombErr *err)
{
    AcidDirState st;
    int cap = 0, rc;
    *paths = t->files;
    *n = t->n_files;
    if (t->files)
        return COMB_OK;
    if (t->kind == SQL_TABLE_PLAIN) {
        if ((rc = add_files(c, u->dir, NULL, paths, n, &cap, err)))
            return rc;
        if (*n > 1)
            qsort(*paths, (size_t)*n, sizeof **paths, cmp_path);
        return COMB_OK;
    }
    if ((rc = acid_dir_state_get(u->dir, wil, &c->snapshot, c->arena, &st, err)))
        return rc;
    if (st.base && (rc = add_files(c, u->dir, st.base->name, paths, n, &cap, err)))
        return rc;
    for (int i = 0; i < st.n_deltas && !rc; i++)
        rc = add_files(c, u->dir, st.deltas[i].name, paths, n, &cap, err);
    return rc;
}

/* comb.trace.files=true: every file a scan opens, as an info line (tests
 * check which files pruning leaves out); best effort.  Parallel copies
 * open the same files as the lead copy, which alone reports them. */
static void trace_file(void *ctx, const char *path)
{
    SqlStmtCtx *c = ctx;
    CombErr ignored;
    char *line = comb_arena_printf(c->arena, "file read: %s", path);
    if (line)
        sql_stmt_info(c, line, &ignored);
}

static int open_unit(SqlScan *s, CombErr *err)
{
    const SqlTable *t = s->t;
    const SqlUnit *u = &s->units[s->unit];
    AcidSchema schema = {t->n_cols, t->names, t->types};
    AcidReaderOptions opt = {s->project, s->want_row_id, s->sarg};
    opt.walk = s->walk.shared ? &s->walk : NULL;
    char **paths;
    int n, rc;
    s->unit_open = true;
    opt.bucket_mask = s->buckets;
    opt.n_bucket_mask = s->buckets ? t->n_buckets : 0;
    if (s->c->sink->info && !s->c->par_copy &&
        sql_conf_bool(s->c->s, "comb.trace.files", false)) {
        opt.file_opened = trace_file;
        opt.file_opened_ctx = s->c;
    }
    if (t->kind == SQL_TABLE_ACID)
        return acid_reader_open(u->dir, &schema, &s->wil, &s->c->snapshot,
                                &opt, &s->reader, err);
    if ((rc = sql_unit_files(s->c, t, u, &s->wil, &paths, &n, err)))
        return rc;
    if (t->format == SQL_FORMAT_TEXT) {
        s->text_files = paths;
        s->n_text_files = n;
        s->text_next = 0;
        return COMB_OK;
    }
    return acid_reader_open_files((const char *const *)paths, n, &schema,
                                  &opt, &s->reader, err);
}

/* The readers fill the batch but for INPUT__FILE__NAME: they see it
 * without that column (the same vectors). */
static int read_batch(SqlScan *s, CombErr *err)
{
    CombBatch view = s->batch;
    int rc;
    view.n_cols -= SQL_SCAN_VCOLS - SQL_SCAN_FILE_NAME;
    rc = s->text ? text_reader_next(s->text, &view, err)
                 : acid_reader_next(s->reader, &view, err);
    view.n_cols = s->batch.n_cols;
    s->batch = view;
    return rc;
}

/* INPUT__FILE__NAME of every row of the batch: the file's path as a
 * file: URI, as Hive's local file system names it.  Only when the
 * statement reads it (want_file_name); else the column stays as
 * scan_batch_init left it, NULL. */
static int fill_file_name(SqlScan *s, const char *path, CombErr *err)
{
    CombVector *v = &s->batch.cols[s->t->n_cols + SQL_SCAN_FILE_NAME];
    if (!s->want_file_name)
        return COMB_OK;
    if (path && path != s->file_path) {
        s->file_path = path;
        if (!(s->file_name = comb_arena_printf(s->c->arena, "%s%s",
                                               path[0] == '/' ? "file:" : "",
                                               path)))
            return comb_err_nomem(err);
    }
    CombStr name = {s->file_name ? s->file_name : "",
                    s->file_name ? (uint32_t)strlen(s->file_name) : 0};
    v->has_nulls = !s->file_name;
    for (int i = 0; i < s->batch.n_rows; i++) {
        v->nulls[i] = !s->file_name;
        v->str[i] = name;
    }
    return COMB_OK;
}

/* The next batch of the current unit; no rows at its end.  A TEXTFILE
 * unit reads its files one after the other, by position (Hive's text
 * columns are positional). */
static int unit_next(SqlScan *s, CombErr *err)
{
    const SqlTable *t = s->t;
    int rc;
    if (t->format != SQL_FORMAT_TEXT)
        return (rc = read_batch(s, err))
                   ? rc : fill_file_name(s, acid_reader_batch_path(s->reader), err);
    for (;;) {
        if (s->text) {
            if ((rc = read_batch(s, err)))
                return rc;
            if (s->batch.n_rows > 0)
                return fill_file_name(s, s->text_files[s->text_next - 1], err);
            text_reader_close(s->text);
            s->text = NULL;
        }
        if (s->text_next >= s->n_text_files) {
            s->batch.n_rows = 0;
            return COMB_OK;
        }
        /* a parallel scan's morsels of a text table are whole files */
        if (s->walk.shared && !acid_morsel_take(&s->walk)) {
            s->text_next++;
            continue;
        }
        if ((rc = text_reader_open(s->text_files[s->text_next++], &s->text_opt,
                                   t->n_data, (const CombType *const *)t->types,
                                   &s->text, err)))
            return rc;
    }
}

static void unit_close(SqlScan *s)
{
    if (s->reader) {
        OrcReadCounters c;
        acid_reader_counters(s->reader, &c);
        orc_read_counters_add(&s->counters, &c);
        orc_read_counters_add(&s->c->scan_counters, &c);
    }
    acid_reader_close(s->reader);
    s->reader = NULL;
    text_reader_close(s->text);
    s->text = NULL;
    s->unit_open = false;
}

static int scan_batch_init(SqlScan *s, CombErr *err)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType integer = {.kind = COMB_T_INT};
    const SqlTable *t = s->t;
    static const CombType string = {.kind = COMB_T_STRING};
    const CombType **types = comb_arena_alloc(s->c->arena,
                                              (size_t)(t->n_cols + SQL_SCAN_VCOLS) * sizeof *types);
    if (!types)
        return comb_err_nomem(err);
    memcpy(types, t->types, (size_t)t->n_cols * sizeof *types);
    types[t->n_cols + ACID_COL_WRITEID] = &bigint;
    types[t->n_cols + ACID_COL_BUCKET] = &integer;
    types[t->n_cols + ACID_COL_ROWID] = &bigint;
    types[t->n_cols + SQL_SCAN_FILE_NAME] = &string;
    if (comb_batch_init_types(&s->batch, t->n_cols + SQL_SCAN_VCOLS, types,
                              COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    /* unread, INPUT__FILE__NAME is NULL once and for all (no reader
     * writes it: read_batch) */
    if (!s->want_file_name) {
        CombVector *v = &s->batch.cols[t->n_cols + SQL_SCAN_FILE_NAME];
        v->has_nulls = true;
        memset(v->nulls, 1, COMB_BATCH_SIZE);
    }
    return COMB_OK;
}

int sql_scan_open(SqlStmtCtx *c, const SqlTable *t, const bool *project,
                  bool want_row_id, bool want_file_name, BoundExpr *where,
                  SqlScan *scan, CombErr *err)
{
    int rc, n_buckets;
    memset(scan, 0, sizeof *scan);
    scan->c = c;
    scan->t = t;
    scan->unit = -1;
    scan->walk.last = -1;
    scan->filter = where;
    scan->want_row_id = want_row_id;
    scan->want_file_name = want_file_name;
    if (want_row_id && t->kind != SQL_TABLE_ACID)
        return sql_err_at(err, COMB_ESEMANTIC, 10004, c->stmt->pos,
                          "ROW__ID exists only in full ACID tables; %s is "
                          "not one", t->qualified);
    if (!(scan->project = comb_arena_alloc(c->arena, (size_t)t->n_cols + 1)))
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_cols; i++)
        scan->project[i] = i < t->n_data && (!project || project[i]);
    /* in a txn open already (explicit transactions) the read locks the
     * plan settled are requested now, before anything is read */
    if (c->txnid && (rc = sql_locks_settle(c, err)))
        return rc;
    if (t->kind != SQL_TABLE_PLAIN) {
        if ((rc = sql_table_writeids(c, t, &scan->wil, err)))
            return rc;
        scan->have_wil = true;
    } else if ((rc = sql_txn_begin(c, err))) {
        return rc;
    }
    if ((t->format == SQL_FORMAT_TEXT &&
         (rc = sql_table_text_options(t, &scan->text_opt, err))) ||
        (rc = sql_table_units(c, t, where, &scan->units, &scan->n_units, err)) ||
        (rc = sql_locks_cover(c, t, scan->units, scan->n_units, err)) ||
        (rc = sql_scan_sarg(c, t, where, &scan->sarg, err)) ||
        (rc = sql_scan_buckets(c, t, where, &scan->buckets, &n_buckets, err)) ||
        (rc = scan_batch_init(scan, err)))
        sql_scan_close(scan);
    return rc;
}

bool sql_scan_reads_file_name(const SqlTable *t, const BoundExpr *e)
{
    if (!e)
        return false;
    if (e->kind == BX_COL && e->col == t->n_cols + SQL_SCAN_FILE_NAME)
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (sql_scan_reads_file_name(t, e->args[i]))
            return true;
    return sql_scan_reads_file_name(t, e->a) ||
           sql_scan_reads_file_name(t, e->b) ||
           sql_scan_reads_file_name(t, e->c);
}

/* The partition columns of the batch hold the unit's keys. */
static void fill_keys(SqlScan *s)
{
    const SqlTable *t = s->t;
    const SqlUnit *u = &s->units[s->unit];
    for (int i = 0; i < t->n_part; i++) {
        CombVector *v = &s->batch.cols[t->n_data + i];
        v->has_nulls = false;
        sql_part_store(v, 0, s->batch.n_rows, u->keys[i]);
    }
}

int sql_scan_next(SqlScan *s, bool *done, CombErr *err)
{
    int rc;
    for (;;) {
        if (!s->unit_open) {
            if (s->unit + 1 >= s->n_units) {
                *done = true;
                return COMB_OK;
            }
            s->unit++;
            if ((rc = open_unit(s, err)))
                return rc;
        }
        if ((rc = unit_next(s, err)))
            return rc;
        if (s->batch.n_rows == 0) {
            unit_close(s);
            continue;
        }
        fill_keys(s);
        if (s->filter && (rc = sql_filter_batch(s->filter, &s->batch, err)))
            return rc;
        if (comb_batch_live(&s->batch) > 0) {
            *done = false;
            return COMB_OK;
        }
    }
}

void sql_scan_close(SqlScan *scan)
{
    unit_close(scan);
    if (scan->batch.cols)
        comb_batch_free(&scan->batch);
    if (scan->have_wil)
        comb_writeidlist_free(&scan->wil);
    scan->have_wil = false;
    if (scan->filter)
        sql_expr_release(scan->filter);
    scan->filter = NULL;
}
