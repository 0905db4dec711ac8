/*
 * ddl_alter_files.c - the statements that rewrite a table's files:
 * ALTER TABLE ... [PARTITION] CONCATENATE, TRUNCATE TABLE and the
 * conversion of a plain table to insert-only.
 *
 * Plain (non-transactional) units have no snapshot, so a change of their
 * files must be atomic in the directory itself.  The new contents are
 * built in a hidden sibling directory and made durable, then the two
 * directories are exchanged in one rename(2) (fs_exchange): a reader
 * listing the unit sees the old files or the new ones, never both or
 * neither.  What the new contents do not replace (hidden files, anything a
 * concurrent writer put there meanwhile) is moved back, and the old
 * directory is removed.  A failure before the exchange changes nothing; a
 * statement over several partitions exchanges them back.  Where nothing
 * can exchange directories (an object store: directories are only
 * prefixes) the entries are moved one by one instead, as Hive does there:
 * a reader meanwhile may see a mix, and a store failing midway leaves
 * entries in the hidden directories, which the error names.
 *
 * Transactional tables are truncated as Hive 4 does it
 * (hive.acid.truncate.usebase): an empty base_W per unit, W the
 * statement's write id, so snapshots taken before still read the old
 * rows.
 */
#include "sql/ddl/alter_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fs/fs.h"

/* Hive's AcidMetaDataFile that marks a truncated base (its only file). */
#define ACID_METADATA_FILE "_metadata_acid"
#define ACID_METADATA_TRUNCATED "{\"thisFileVersion\":\"0\",\"dataFormat\":\"truncated\"}"

static bool hidden(const char *name)
{
    return name[0] == '_' || name[0] == '.';
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* Undo fs_mkdirs_n(path) that made `made` directories, contents and all. */
static void remove_made(SqlStmtCtx *c, const char *path, int made)
{
    CombErr ignored;
    if (!path || made <= 0)
        return;
    fs_remove_tree(path, &ignored);
    fs_rmdirs_empty(fs_dirname(c->arena, path), made - 1);
}

static int warn(SqlStmtCtx *c, const char *line, CombErr *err)
{
    if (!line)
        return comb_err_nomem(err);
    return c->sink->info ? c->sink->info(c->sink->ctx, line, err) : COMB_OK;
}

/* ------------------------------------------------- directory exchange */

/* A unit directory whose contents are replaced in one step. */
typedef struct DirSwap {
    char *dir;               /* the unit's directory */
    char *other;             /* hidden sibling: the new contents, and after
                                the exchange the old ones */
    char **replaced;         /* the old entries the new contents replace */
    int n_replaced;
    bool swapped;
} DirSwap;

/* An empty hidden sibling ".<name>.swap-N" of dir, durable. */
static int swap_open(SqlStmtCtx *c, const char *dir, DirSwap *s, CombErr *err)
{
    char *parent = fs_dirname(c->arena, dir);
    FsKind kind = FS_DIR;
    int rc;
    memset(s, 0, sizeof *s);
    s->dir = (char *)dir;
    if (!parent)
        return comb_err_nomem(err);
    for (int n = 1; kind != FS_ABSENT; n++)
        if (!(s->other = comb_arena_printf(c->arena, "%s/.%s.swap-%d", parent,
                                           base_name(dir), n)))
            return comb_err_nomem(err);
        else if ((rc = fs_probe(s->other, &kind, err)))
            return rc;
    if (fs_mkdirs(s->other, err) == COMB_OK)
        return COMB_OK;
    /* made but not durable: not ours to keep */
    fs_rmdirs_empty(s->other, 1);
    s->other = NULL;
    return err->code;
}

/* Every entry of directory from moved into directory to. */
static int move_entries(SqlStmtCtx *c, const char *from, const char *to,
                        CombErr *err)
{
    char **names;
    int n, rc = fs_list_dir(from, c->arena, &names, &n, err);
    for (int i = 0; !rc && i < n; i++) {
        char *a = fs_join(c->arena, from, names[i]);
        char *b = fs_join(c->arena, to, names[i]);
        rc = a && b ? fs_rename(a, b, err) : comb_err_nomem(err);
    }
    return rc;
}

/* The exchange of s->dir and s->other where fs_exchange cannot: other's
 * entries aside into a third hidden directory, dir's into other, the
 * aside ones into dir. */
static int exchange_by_moves(SqlStmtCtx *c, DirSwap *s, CombErr *err)
{
    char *aside = comb_arena_printf(c->arena, "%s.moving", s->other);
    CombErr ignored;
    int rc;
    if (!aside)
        return comb_err_nomem(err);
    if ((rc = fs_mkdirs(aside, err)) ||
        (rc = move_entries(c, s->other, aside, err)) ||
        (rc = move_entries(c, s->dir, s->other, err)) ||
        (rc = move_entries(c, aside, s->dir, err))) {
        comb_err_prefix(err, "the entries of '%s' are partly moved to '%s' "
                        "and '%s'", s->dir, s->other, aside);
        return rc;
    }
    fs_remove_tree(aside, &ignored);
    return COMB_OK;
}

static int swap_exchange(SqlStmtCtx *c, DirSwap *s, CombErr *err)
{
    char *parent = fs_dirname(c->arena, s->dir);
    int rc;
    if (!parent)
        return comb_err_nomem(err);
    if ((rc = fs_fsync_dir(s->other, err)))
        return rc;
    if ((rc = fs_exchange(s->dir, s->other, err)) == COMB_EUNSUPPORTED) {
        comb_err_clear(err);
        rc = exchange_by_moves(c, s, err);
    }
    if (rc)
        return rc;
    s->swapped = true;
    return fs_fsync_dir(parent, err);
}

/* The statement failed: the old contents are where they were and the
 * new ones gone.  False when the exchange back failed (err then says
 * where the old files are). */
static void swap_undo(SqlStmtCtx *c, DirSwap *s, CombErr *err)
{
    CombErr why;
    if (!s->other)
        return;
    if (s->swapped && swap_exchange(c, s, &why) == COMB_OK)
        s->swapped = false;
    if (s->swapped) {
        comb_err_prefix(err, "the old files of '%s' are left in '%s' (%s)",
                        s->dir, s->other, why.msg);
        return;
    }
    fs_remove_tree(s->other, &why);
}

static bool is_replaced(const DirSwap *s, const char *name)
{
    for (int i = 0; i < s->n_replaced; i++)
        if (strcmp(s->replaced[i], name) == 0)
            return true;
    return false;
}

/* After the exchange: what the new contents do not replace goes back into
 * the unit, then the old directory goes.  What cannot be moved or removed
 * stays in the hidden directory (no table reads it); a WARNING says so. */
static int swap_close(SqlStmtCtx *c, DirSwap *s, CombErr *err)
{
    char **names;
    bool all_back = true;
    CombErr why;
    FsKind kind;
    int n;
    if (fs_list_dir(s->other, c->arena, &names, &n, &why) == COMB_OK)
        for (int i = 0; i < n; i++) {
            char *from = fs_join(c->arena, s->other, names[i]);
            char *to = fs_join(c->arena, s->dir, names[i]);
            if (is_replaced(s, names[i]))
                continue;
            /* never over a new entry, nor where that cannot be told */
            if (!from || !to || fs_probe(to, &kind, &why) != COMB_OK ||
                kind != FS_ABSENT || fs_rename(from, to, &why) != COMB_OK)
                all_back = false;
        }
    fs_fsync_dir(s->dir, &why);
    if (all_back && fs_remove_tree(s->other, &why) == COMB_OK)
        return COMB_OK;
    return warn(c, comb_arena_printf(c->arena, "WARNING: '%s' was rewritten, "
                                     "but its old entries are left in '%s'",
                                     s->dir, s->other), err);
}

/* ------------------------------------------------------- CONCATENATE */

/* The one partition (or the table) CONCATENATE works on, Hive's checks in
 * Hive's order. */
static int concatenate_unit(SqlStmtCtx *c, const AlterTarget *tg,
                            SqlUnit *u, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *ext = sql_session_get_conf(c->s, "hive.concatenate.external.table");
    AlterPart *parts = NULL;
    int n = 0, rc;
    if (st->part.n > 0 &&
        (rc = sql_alter_spec(c, tg, &st->part, false, &parts, &n, err)))
        return rc;
    if (tg->t->kind != SQL_TABLE_PLAIN)
        return sql_err_at(err, COMB_EINVALID, 30035, st->alter->op_pos,
                          "Concatenate/Merge can not be performed on "
                          "transactional tables");
    if (!sql_table_is_managed(tg->ms) && !(ext && strcasecmp(ext, "true") == 0))
        return sql_err_at(err, COMB_EINVALID, 30034, st->alter->op_pos,
                          "Concatenate/Merge can only be performed on managed "
                          "tables");
    if (tg->t->n_part > 0 && st->part.n == 0)
        return sql_err_at(err, COMB_EINVALID, 0, st->alter->op_pos,
                          "source table hive.%s is partitioned but no "
                          "partition desc found.", tg->t->qualified);
    if (tg->t->n_part > 0 && (n != 1 || st->part.n < tg->t->n_part))
        return sql_err_at(err, COMB_ENOTFOUND, 0, st->part.pos,
                          "source table hive.%s is partitioned but partition "
                          "not found.", tg->t->qualified);
    if (tg->t->format != SQL_FORMAT_ORC)
        return sql_err_at(err, COMB_EINVALID, 30030, st->alter->op_pos,
                          "Concatenate/Merge only supported for RCFile and "
                          "ORCFile formats");
    if (tg->ms->n_bucket_cols > 0)
        return sql_err_at(err, COMB_EINVALID, 30031, st->alter->op_pos,
                          "Concatenate/Merge can not be performed on bucketed "
                          "tables");
    if (tg->t->n_part == 0) {
        memset(u, 0, sizeof *u);
        u->dir = tg->ms->location;
        return COMB_OK;
    }
    return sql_unit_from_partition(c, tg->t, parts[0].ms, u, err);
}

/* The struct of the table's data columns: the schema of its plain files. */
static int data_row_type(SqlStmtCtx *c, const SqlTable *t, CombType **out,
                         CombErr *err)
{
    CombType *row = comb_type_new(c->arena, COMB_T_STRUCT);
    if (!row)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_data; i++)
        if (comb_type_add_field(c->arena, row, t->names[i], (CombType *)t->types[i]))
            return comb_err_nomem(err);
    comb_type_assign_ids(row);
    *out = row;
    return COMB_OK;
}

/* Every row of files[0..n) (read with the table's columns, so files
 * written before an ALTER convert as any scan converts them) into one
 * ORC file at path, durable. */
static int merge_files(SqlStmtCtx *c, const SqlTable *t, char **files, int n,
                       const char *path, CombErr *err)
{
    AcidSchema schema = {t->n_data, t->names, t->types};
    AcidReaderOptions ropt = {NULL, false};
    OrcWriterOptions wopt;
    AcidReader *r = NULL;
    OrcWriter *w = NULL;
    CombType *row = NULL;
    CombBatch b = {0};
    uint32_t rows[COMB_BATCH_SIZE];
    int rc;
    orc_writer_options_default(&wopt);
    if ((rc = data_row_type(c, t, &row, err)) ||
        (rc = acid_reader_open_files((const char *const *)files, n, &schema,
                                     &ropt, &r, err)))
        return rc;
    if (acid_reader_batch_init(r, &b))
        rc = comb_err_nomem(err);
    if (!rc)
        rc = orc_writer_open(path, row, &wopt, &w, err);
    while (!rc && !(rc = acid_reader_next(r, &b, err)) && b.n_rows > 0) {
        CombBatch view = b;
        int live = comb_batch_live(&b);
        for (int i = 0; i < live; i++)
            rows[i] = (uint32_t)comb_batch_row(&b, i);
        view.n_cols = t->n_data;
        rc = orc_writer_write_rows(w, &view, rows, live, err);
    }
    if (!rc) {
        rc = orc_writer_close(w, err);
        w = NULL;
    }
    orc_writer_abort(w);
    if (b.cols)
        comb_batch_free(&b);
    acid_reader_close(r);
    return rc;
}

int sql_alter_concatenate(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    DirSwap swap;
    SqlUnit u;
    char **files, *merged;
    int n, rc;
    if ((rc = concatenate_unit(c, tg, &u, err)) ||
        (rc = sql_unit_files(c, tg->t, &u, NULL, &files, &n, err)) || n < 2)
        return rc;
    if ((rc = swap_open(c, u.dir, &swap, err)))
        return rc;
    swap.n_replaced = n;
    if (!(swap.replaced = comb_arena_alloc(c->arena, (size_t)n * sizeof *swap.replaced)) ||
        !(merged = fs_join(c->arena, swap.other, "000000_0")))
        rc = comb_err_nomem(err);
    for (int i = 0; !rc && i < n; i++)
        swap.replaced[i] = (char *)base_name(files[i]);
    /* the merged file is durable before the old ones go */
    if (!rc && !(rc = merge_files(c, tg->t, files, n, merged, err)))
        rc = swap_exchange(c, &swap, err);
    if (rc) {
        swap_undo(c, &swap, err);
        return rc;
    }
    return swap_close(c, &swap, err);
}

/* ---------------------------------------------------------- TRUNCATE */

/* Hive's TruncateTableAnalyzer.checkTruncateEligibility. */
static int check_truncate(SqlStmtCtx *c, const AlterTarget *tg, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *purge = ms_table_prop(tg->ms, "external.table.purge");
    const char *shown = st->name.db ? comb_arena_printf(c->arena, "%s.%s",
                                                        st->name.db,
                                                        st->name.name)
                                    : st->name.name;
    bool external = !sql_table_is_managed(tg->ms) && !st->force &&
                    (!purge || strcasecmp(purge, "false") == 0);
    if (!shown)
        return comb_err_nomem(err);
    /* a view has no files, FORCE or not */
    if (tg->t->kind == SQL_TABLE_VIEW || external)
        return sql_err_at(err, COMB_EINVALID, 10146, st->name.pos,
                          "Cannot truncate non-managed table %s.", shown);
    if (tg->t->n_part == 0 && st->part.n > 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10148, st->part.pos,
                          "Partition spec for non partitioned table %s.",
                          shown);
    return COMB_OK;
}

/* The units TRUNCATE empties: the named partition (Hive's 10006 when it
 * does not exist), those a partial spec matches, or all of them. */
static int truncate_units(SqlStmtCtx *c, const AlterTarget *tg,
                          SqlUnit **units, int *n, CombErr *err)
{
    const AstPartSpec *spec = &c->stmt->part;
    AlterPart *parts;
    int rc;
    if (spec->n == 0)
        return sql_table_units(c, tg->t, NULL, units, n, err);
    if ((rc = sql_alter_spec(c, tg, spec, false, &parts, n, err)))
        return rc;
    if (*n == 0 && spec->n >= tg->t->n_part)
        return sql_alter_no_partition(c, spec, err);
    if (!(*units = comb_arena_calloc(c->arena, (size_t)(*n + 1) * sizeof **units)))
        return comb_err_nomem(err);
    for (int i = 0; i < *n; i++)
        if ((rc = sql_unit_from_partition(c, tg->t, parts[i].ms, &(*units)[i], err)))
            return rc;
    return COMB_OK;
}

/* The statement's write id for the table, recorded for each unit. */
static int write_id(SqlStmtCtx *c, const AlterTarget *tg, const SqlUnit *units,
                    int n, int64_t *w, CombErr *err)
{
    char **names;
    int rc;
    if ((rc = sql_txn_begin(c, err)) ||
        (rc = ms_writeid_allocate(c->s->ms, c->txnid, tg->db, tg->ms->name, w,
                                  err)) ||
        (rc = ms_writeid_sync(c->s->ms, err)))  /* before base_W exists */
        return rc;
    if (tg->t->n_part == 0)
        return ms_txn_add_component(c->s->ms, c->txnid, tg->db, tg->ms->name,
                                    NULL, MS_OP_INSERT, *w, err);
    if (!(names = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *names)))
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++)
        names[i] = (char *)units[i].name;
    return ms_txn_add_partitions(c->s->ms, c->txnid, tg->db, tg->ms->name,
                                 names, n, MS_OP_INSERT, *w, err);
}

/* An empty base_W in dir, marked as Hive marks a truncated base. */
static int empty_base(SqlStmtCtx *c, const char *dir, int64_t w, char **out,
                      int *made, CombErr *err)
{
    char *name = acid_dir_name(c->arena, ACID_DIR_BASE, w, w, 0);
    char *mark;
    int rc;
    *out = name ? fs_join(c->arena, dir, name) : NULL;
    if (!*out || !(mark = fs_join(c->arena, *out, ACID_METADATA_FILE)))
        return comb_err_nomem(err);
    if ((rc = fs_mkdirs_n(*out, made, err)))
        return rc;
    if ((rc = fs_write_file(mark, ACID_METADATA_TRUNCATED,
                            strlen(ACID_METADATA_TRUNCATED), err)))
        return rc;
    return fs_fsync_dir(*out, err);
}

/* Full ACID and insert-only tables: a new empty base in each unit,
 * committed with the statement's write id; a failure removes them. */
static int truncate_transactional(SqlStmtCtx *c, const AlterTarget *tg,
                                  const SqlUnit *units, int n, CombErr *err)
{
    char **bases = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *bases);
    int *made = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *made);
    int64_t w = 0;
    int done = 0, rc;
    if (!bases || !made)
        return comb_err_nomem(err);
    rc = write_id(c, tg, units, n, &w, err);
    for (; !rc && done < n; done++)
        rc = empty_base(c, units[done].dir, w, &bases[done], &made[done], err);
    if (!rc)
        sql_crash_point(c, "after_files");
    if (!rc && !(rc = sql_txn_commit(c, err)))
        return COMB_OK;
    for (int i = 0; i < done; i++)
        remove_made(c, bases[i], made[i]);
    return rc;
}

/* One plain unit exchanged with an empty directory (its hidden entries
 * come back at swap_close); a missing directory has nothing to empty. */
static int truncate_unit(SqlStmtCtx *c, const SqlUnit *u, DirSwap *s,
                         CombErr *err)
{
    char **names;
    FsKind kind;
    int m, rc;
    if ((rc = fs_probe(u->dir, &kind, err)) || kind != FS_DIR)
        return rc;
    if ((rc = fs_list_dir(u->dir, c->arena, &names, &m, err)) ||
        (rc = swap_open(c, u->dir, s, err)))
        return rc;
    if (!(s->replaced = comb_arena_alloc(c->arena, (size_t)(m + 1) * sizeof *s->replaced)))
        return comb_err_nomem(err);
    for (int i = 0; i < m; i++)
        if (!hidden(names[i]))
            s->replaced[s->n_replaced++] = names[i];
    return swap_exchange(c, s, err);
}

/* Plain tables: every unit emptied, or (exchanged back) none. */
static int truncate_plain(SqlStmtCtx *c, const SqlUnit *units, int n,
                          CombErr *err)
{
    DirSwap *swaps = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *swaps);
    int done = 0, rc = COMB_OK;
    if (!swaps)
        return comb_err_nomem(err);
    while (!rc && done < n) {
        rc = truncate_unit(c, &units[done], &swaps[done], err);
        done++;
    }
    if (rc) {
        while (done-- > 0)
            swap_undo(c, &swaps[done], err);
        return rc;
    }
    for (int i = 0; i < n && !rc; i++)
        if (swaps[i].other)
            rc = swap_close(c, &swaps[i], err);
    return rc;
}

int sql_exec_truncate(SqlStmtCtx *c, CombErr *err)
{
    AlterTarget tg;
    SqlUnit *units;
    int n, rc = sql_alter_target(c, &c->stmt->name, false, &tg, err);
    if (rc || (rc = check_truncate(c, &tg, err)) ||
        (rc = truncate_units(c, &tg, &units, &n, err)) || n == 0)
        return rc;
    if (tg.t->kind == SQL_TABLE_PLAIN)
        return truncate_plain(c, units, n, err);
    return truncate_transactional(c, &tg, units, n, err);
}

/* ------------------------------------------- conversion to insert-only */

/* A second name for src in dir (a hard link, or a copy where the file
 * system has none): the original stays until the catalog changed. */
static int link_into(SqlStmtCtx *c, const char *src, const char *dir,
                     CombErr *err)
{
    char *to = fs_join(c->arena, dir, base_name(src));
    if (!to)
        return comb_err_nomem(err);
    if (fs_link(src, to, err) == COMB_OK)
        return COMB_OK;
    comb_err_clear(err);
    return fs_copy_file(src, to, err);
}

/* The unit's visible files linked into delta_W_W_0000 (durable). */
static int unit_to_delta(SqlStmtCtx *c, const AlterTarget *tg, const SqlUnit *u,
                         int64_t w, char **delta, int *made, char ***files,
                         int *n, CombErr *err)
{
    char *name = acid_dir_name(c->arena, ACID_DIR_DELTA, w, w, 0);
    const char *found;
    int entries, rc;
    *made = 0;
    /* a committed delta left in a plain table (a conversion killed after
     * its commit) would read as data once the table is insert-only */
    if ((rc = sql_first_acid_dir(c, u->dir, &found, &entries, err)))
        return rc;
    if (found)
        return sql_err_at(err, COMB_EINVALID, 0, c->stmt->alter->op_pos,
                          "cannot make %s insert-only: '%s' holds the ACID "
                          "directory '%s'; remove it first", tg->t->qualified,
                          u->dir, found);
    if (!name || !(*delta = fs_join(c->arena, u->dir, name)))
        return comb_err_nomem(err);
    if ((rc = sql_unit_files(c, tg->t, u, NULL, files, n, err)) ||
        (rc = fs_mkdirs_n(*delta, made, err)))
        return rc;
    for (int i = 0; i < *n && !rc; i++)
        rc = link_into(c, (*files)[i], *delta, err);
    return rc ? rc : fs_fsync_dir(*delta, err);
}

int sql_alter_to_insert_only(SqlStmtCtx *c, AlterTarget *tg, MsTable *to,
                             CombErr *err)
{
    SqlUnit *units;
    char **deltas, ***files;
    int *made, *n_files, n, done = 0, rc;
    int64_t w = 0;
    if ((rc = sql_table_units(c, tg->t, NULL, &units, &n, err)))
        return rc;
    deltas = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *deltas);
    files = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *files);
    made = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *made);
    n_files = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *n_files);
    if (!deltas || !files || !made || !n_files)
        return comb_err_nomem(err);
    rc = n > 0 ? write_id(c, tg, units, n, &w, err) : COMB_OK;
    for (; !rc && done < n; done++)
        rc = unit_to_delta(c, tg, &units[done], w, &deltas[done], &made[done],
                           &files[done], &n_files[done], err);
    /* the delta is committed while the table is still plain (which never
     * reads it), then the catalog makes the table insert-only */
    if (!rc && !(rc = sql_txn_commit(c, err)))
        rc = sql_alter_store(c, to, err);
    if (rc) {
        for (int i = 0; i < done; i++)
            remove_made(c, deltas[i], made[i]);
        return rc;
    }
    /* the originals are no data of an insert-only table any more */
    for (int i = 0; i < n && !rc; i++) {
        CombErr why;
        for (int k = 0; k < n_files[i]; k++)
            if (fs_unlink(files[i][k], &why))
                rc = warn(c, comb_arena_printf(c->arena, "WARNING: %s is "
                                               "insert-only, but its old file "
                                               "'%s' could not be removed (%s)",
                                               tg->t->qualified, files[i][k],
                                               why.msg), err);
        fs_fsync_dir(units[i].dir, &why);
    }
    return rc;
}
