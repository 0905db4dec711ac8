/*
 * write.c - where a statement's rows go: one writer per unit (partition or
 * table directory) of the target table, opened as rows for it arrive,
 * each writing as the table's kind keeps rows:
 *
 *   full ACID     the acid/ record updater: delta_W_W_0000 (base_W for
 *                 INSERT OVERWRITE) and delete_delta_W_W_0000
 *   insert-only   plain files (ORC or text) in delta_W_W_0000/ or base_W/
 *   plain         plain files (ORC or text) written into a hidden staging directory
 *                 and moved into the unit's directory when the statement's
 *                 files are complete (INSERT OVERWRITE first moves the old
 *                 files aside, and removes them after)
 *
 * Rows of a partitioned table carry their partition keys in the table's
 * partition columns (static PARTITION values are filled in by the caller);
 * the writer names the partition from them (Hive's escaped "k=v" names,
 * __HIVE_DEFAULT_PARTITION__ for NULL), enforces Hive's dynamic partition
 * settings and, when the files are durable, records new partitions and the
 * transaction's partition components in the metastore.  All ORC writers of
 * the statement share one memory budget.
 */
#include "sql/exec/exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "sql/exec/colstats.h"
#include "text/text.h"

#define STATEMENT_MEMORY_BUDGET (256u << 20)
/* What the column statistics of one statement's units may take (their
 * sketches); units beyond it get none (their statistics are unknown). */
#define COLSTATS_MEMORY_BUDGET (64u << 20)
#define PLAIN_STAGING ".comb-staging"

/* One plain file being written (insert-only and plain tables): ORC or
 * text as the table's format; neither for a file LOAD DATA copied. */
typedef struct PlainFile {
    OrcWriter *orc;
    TextWriter *text;
    char *path;              /* where it is written */
    char *placed;            /* plain tables: where finish moved it */
    int bucket;
} PlainFile;

struct SqlUnitWriter {
    const char *name;        /* partition name, NULL unpartitioned */
    char **values;           /* partition values as text (NULL = default) */
    char *dir;               /* the unit's directory */
    bool is_new;             /* partition not in the catalog before */
    bool made_dir;           /* we created dir */
    AcidWriter *acid;        /* full ACID */
    char *stage;             /* insert-only: delta/base dir; plain: the
                                hidden staging directory */
    char *stage_old;         /* plain INSERT OVERWRITE: the old files */
    PlainFile *files;        /* by bucket index of first appearance */
    int n_files;
    uint32_t *rows;          /* scratch: rows of the batch for this unit */
    uint64_t hash;           /* of its values, once in w->unit_slots */
    bool hashed;
    int stmt;                /* statement id of its directories */
    SqlColStats *stats;      /* of the rows written, NULL: not gathered */
};

/* ------------------------------------------------------------ helpers */

static int conf_int(SqlStmtCtx *c, const char *key, int dflt)
{
    const char *v = sql_session_get_conf(c->s, key);
    return v && *v ? atoi(v) : dflt;
}

static const CombType *data_row_type(SqlWriter *w, CombErr *err)
{
    const SqlTable *t = w->t;
    CombType *row;
    if (w->row_type)
        return w->row_type;
    if (!(row = comb_type_new(w->c->arena, COMB_T_STRUCT)))
        return comb_err_nomem(err), NULL;
    for (int i = 0; i < t->n_data; i++)
        if (comb_type_add_field(w->c->arena, row, t->names[i],
                                (CombType *)t->types[i]))
            return comb_err_nomem(err), NULL;
    comb_type_assign_ids(row);
    w->row_type = row;
    return row;
}

/* ------------------------------------------------------------ opening */

/* Hive gathers column statistics for the rows of INSERT and CREATE TABLE
 * AS SELECT (hive.stats.column.autogather), not for the rewrites of
 * UPDATE, DELETE and MERGE.  Inside an explicit transaction the
 * statement's units hold earlier statements' deltas of the same write id,
 * which its statistics would not describe: none are gathered there. */
static bool gathers_column_stats(SqlStmtCtx *c, MsOpType op)
{
    const char *v = sql_session_get_conf(c->s, "hive.stats.column.autogather");
    AstStmtKind k = c->stmt->kind;
    return op == MS_OP_INSERT && !c->explicit_txn &&
           (k == AST_INSERT || k == AST_MULTI_INSERT ||
            k == AST_CREATE_TABLE) &&
           !(v && strcasecmp(v, "false") == 0);
}

int sql_writer_open(SqlStmtCtx *c, SqlTable *t, MsOpType op, bool overwrite,
                    char *const *static_values, SqlWriter **out, CombErr *err)
{
    SqlWriter *w = comb_arena_calloc(c->arena, sizeof *w);
    int rc;
    *out = NULL;
    if (!w)
        return comb_err_nomem(err);
    w->c = c;
    w->t = t;
    w->op = op;
    w->overwrite = overwrite;
    w->static_values = static_values;
    if ((rc = sql_txn_check_write(c, t, err)))
        return rc;
    w->max_dynamic = conf_int(c, "hive.exec.max.dynamic.partitions", 1000);
    w->max_dynamic_node = conf_int(c, "hive.exec.max.dynamic.partitions.pernode", 100);
    if (t->format == SQL_FORMAT_TEXT &&
        (rc = sql_table_text_options(t, &w->text_opt, err)))
        return rc;
    if (t->format == SQL_FORMAT_ORC &&
        (rc = sql_table_orc_options(c, t, &w->orc, err)))
        return rc;
    if (!(w->buckets = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof(int))))
        return comb_err_nomem(err);
    if (gathers_column_stats(c, op))
        w->colstats_size = sql_colstats_size(t) + 1;
    /* CREATE TABLE AS SELECT writes a table not in the catalog yet, into
     * an empty directory of its own: there is nothing it could adopt */
    if ((rc = sql_txn_begin(c, err)) ||
        (c->stmt->kind != AST_CREATE_TABLE && (rc = sql_check_adopted(c, t, err))) ||
        (rc = orc_writer_group_new(STATEMENT_MEMORY_BUDGET, &w->group, err)))
        return rc;
    *out = w;
    if (t->kind != SQL_TABLE_PLAIN &&
        ((rc = ms_writeid_allocate(c->s->ms, c->txnid, t->ms->db, t->ms->name,
                                   &w->write_id, err)) ||
         (rc = sql_txn_note_write(c, t, w->write_id, overwrite, err)) ||
         (t->n_part == 0 &&
          (rc = ms_txn_add_component(c->s->ms, c->txnid, t->ms->db,
                                     t->ms->name, NULL, op, w->write_id, err)))))
        return rc;
    return COMB_OK;
}

/* ------------------------------------------------------ unit writers */

static int open_acid(SqlWriter *w, SqlUnitWriter *u, int stmt, CombErr *err)
{
    const SqlTable *t = w->t;
    AcidSchema schema = {t->n_data, t->names, t->types};
    AcidWriterOptions opt = {.base = w->overwrite, .group = w->group,
                             .set_dictionary_key_threshold = true,
                             .dictionary_key_threshold =
                                 w->orc.dictionary_key_threshold,
                             .set_index = true,
                             .row_index_stride = w->orc.row_index_stride,
                             .compression_block_size = w->orc.block_size,
                             .bloom_fields = w->orc.bloom,
                             .bloom_fpp = w->orc.bloom_fpp};
    opt.stripe_size = w->overwrite ? w->orc.stripe_size
                                   : acid_orc_delta_stripe_size(&w->orc);
    return acid_writer_open_opts(u->dir, &schema, w->write_id, stmt,
                                 w->orc.compression, &opt, &u->acid, err);
}

/* Where an insert-only or plain unit's new files go. */
static int open_stage(SqlWriter *w, SqlUnitWriter *u, int stmt, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    char *name;
    int made;
    if (w->t->kind == SQL_TABLE_INSERT_ONLY)
        name = acid_dir_name(c->arena, w->overwrite ? ACID_DIR_BASE : ACID_DIR_DELTA,
                             w->write_id, w->write_id, stmt);
    else
        name = comb_arena_printf(c->arena, "%s-%lld-%d", PLAIN_STAGING,
                                 (long long)c->txnid, stmt);
    if (!name || !(u->stage = fs_join(c->arena, u->dir, name)))
        return comb_err_nomem(err);
    if (fs_exists(u->stage))
        return comb_err(err, COMB_EEXISTS, "'%s' exists already", u->stage);
    return fs_mkdirs_n(u->stage, &made, err);
}

/* Open a unit's directory and files.  Its statement id is the writer's
 * number in the statement offset by the statement ids earlier statements
 * of an explicit transaction used (sql_txn_stmt_id). */
static int unit_open(SqlWriter *w, SqlUnitWriter *u, CombErr *err)
{
    int made = 0, stmt, rc;
    if ((rc = sql_txn_stmt_id(w->c, w->stmt_id, &stmt, err)))
        return rc;
    u->stmt = stmt;
    /* nothing may name the write id before its allocation is durable */
    if (w->t->kind != SQL_TABLE_PLAIN &&
        (rc = ms_writeid_sync(w->c->s->ms, err)))
        return rc;
    if (!fs_is_dir(u->dir)) {
        if ((rc = fs_mkdirs_n(u->dir, &made, err)))
            return rc;
        u->made_dir = made > 0;
    }
    if (w->t->kind == SQL_TABLE_ACID)
        return open_acid(w, u, stmt, err);
    return open_stage(w, u, stmt, err);
}

static bool unit_named(const SqlUnitWriter *u, const char *name)
{
    return (!name && !u->name) || (name && u->name && strcmp(name, u->name) == 0);
}

/* Two clauses of a multi-insert may write one unit only when neither
 * overwrites it: a new base_W would hide the other clause's delta of the
 * same write id (Hive's readers drop it), and two bases cannot both be
 * the unit's content. */
static int check_shared_unit(const SqlWriter *w, const char *name, CombErr *err)
{
    static const char why[] = "is written by two INSERT clauses of this "
                              "statement and one of them is INSERT OVERWRITE; "
                              "write them in separate statements";
    for (const SqlWriter *o = w->same_table; o; o = o->same_table) {
        if (!w->overwrite && !o->overwrite)
            continue;
        for (int i = 0; i < o->n_units; i++) {
            if (!unit_named(&o->units[i], name))
                continue;
            if (!name)
                return comb_err(err, COMB_ESEMANTIC,
                                "SemanticException: table %s %s",
                                w->t->qualified, why);
            return comb_err(err, COMB_ESEMANTIC,
                            "SemanticException: partition %s of %s %s", name,
                            w->t->qualified, why);
        }
    }
    return COMB_OK;
}

/* The writer of partition `name` (values as text), opened on first use. */
static int unit_get(SqlWriter *w, const char *name, char **values,
                    SqlUnitWriter **out, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    const SqlTable *t = w->t;
    SqlUnitWriter *u;
    MsPartition *p;
    int rc;
    for (int i = 0; i < w->n_units; i++)
        if (unit_named(&w->units[i], name)) {
            *out = &w->units[i];
            return COMB_OK;
        }
    if ((rc = check_shared_unit(w, name, err)))
        return rc;
    if (w->n_units == w->cap_units) {
        int cap = w->cap_units ? w->cap_units * 2 : 8;
        SqlUnitWriter *g = comb_arena_calloc(c->arena, (size_t)cap * sizeof *g);
        if (!g)
            return comb_err_nomem(err);
        if (w->n_units)
            memcpy(g, w->units, (size_t)w->n_units * sizeof *g);
        w->units = g;
        w->cap_units = cap;
    }
    u = &w->units[w->n_units];
    memset(u, 0, sizeof *u);
    u->name = name;
    u->values = values;
    if (!(u->rows = comb_arena_alloc(c->arena, COMB_BATCH_SIZE * sizeof *u->rows)))
        return comb_err_nomem(err);
    if (!name) {
        u->dir = t->ms->location;
    } else {
        rc = ms_part_get(c->s->ms, t->ms->db, t->ms->name, name, c->arena, &p, err);
        if (rc == COMB_OK) {
            u->dir = p->location;
        } else if (rc == COMB_ENOTFOUND) {
            u->is_new = true;
            if (!(u->dir = fs_join(c->arena, t->ms->location, name)))
                return comb_err_nomem(err);
        } else {
            return rc;
        }
    }
    w->n_units++;
    if ((rc = unit_open(w, u, err)))
        return rc;
    if (w->colstats_size > 0 &&
        (size_t)w->n_units * w->colstats_size <= COLSTATS_MEMORY_BUDGET &&
        (rc = sql_colstats_new(c, t, &u->stats, err)))
        return rc;
    *out = u;
    return COMB_OK;
}

/* A free name for file `base` in dir: base itself, then as Hive names
 * copies: 000000_0_copy_1, data_copy_1.csv (before the extension).  A
 * name whose existence the file system cannot tell is no free name: the
 * statement fails rather than overwrite a file. */
static int free_name(SqlStmtCtx *c, const char *dir, const char *base,
                     char **out, CombErr *err)
{
    const char *dot = strrchr(base, '.');
    int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    char *p = fs_join(c->arena, dir, base);
    FsKind kind = FS_FILE;
    int rc = COMB_OK;
    for (int k = 1; p && !(rc = fs_probe(p, &kind, err)) && kind != FS_ABSENT;
         k++) {
        char *n = comb_arena_printf(c->arena, "%.*s_copy_%d%s", stem, base, k,
                                    base + stem);
        p = n ? fs_join(c->arena, dir, n) : NULL;
    }
    *out = p;
    return rc ? rc : p ? COMB_OK : comb_err_nomem(err);
}

/* The row index and bloom filter settings of a plain file of type row
 * (its fields the data columns). */
static int plain_index_options(SqlWriter *w, const CombType *row,
                               OrcWriterOptions *opt, CombErr *err)
{
    int n = row->n_children;
    int *fields = comb_arena_alloc(w->c->arena, (size_t)(n + 1) * sizeof(int));
    int *ids = comb_arena_alloc(w->c->arena, (size_t)(n + 1) * sizeof(int));
    if (!fields || !ids)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++)
        fields[i] = row->children[i]->id;
    opt->row_index_stride = w->orc.row_index_stride;
    opt->compression_block_size = w->orc.block_size;
    opt->bloom_fpp = w->orc.bloom_fpp;
    opt->bloom_columns = ids;
    opt->n_bloom_columns = acid_orc_bloom_ids(&w->orc, fields, n, ids);
    return COMB_OK;
}

/* The plain ORC file of a bucket in an insert-only or plain unit. */
static int plain_file(SqlWriter *w, SqlUnitWriter *u, int bucket,
                      PlainFile **out, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    OrcWriterOptions opt;
    const CombType *row = data_row_type(w, err);
    PlainFile *f;
    char name[32];
    int rc;
    if (!row)
        return err->code;
    for (int i = 0; i < u->n_files; i++)
        if (u->files[i].bucket == bucket) {
            *out = &u->files[i];
            return COMB_OK;
        }
    f = comb_arena_alloc(c->arena, (size_t)(u->n_files + 1) * sizeof *f);
    if (!f)
        return comb_err_nomem(err);
    if (u->n_files)
        memcpy(f, u->files, (size_t)u->n_files * sizeof *f);
    u->files = f;
    f = &u->files[u->n_files];
    memset(f, 0, sizeof *f);
    f->bucket = bucket;
    snprintf(name, sizeof name, "%06d_0", bucket);
    if (!(f->path = fs_join(c->arena, u->stage, name)))
        return comb_err_nomem(err);
    if (w->t->format == SQL_FORMAT_TEXT) {
        rc = text_writer_open(f->path, &w->text_opt, w->t->n_data,
                              (const CombType *const *)w->t->types, &f->text,
                              err);
    } else {
        orc_writer_options_default(&opt);
        opt.compression = w->orc.compression;
        opt.stripe_size = w->orc.stripe_size;
        opt.dictionary_key_threshold = w->orc.dictionary_key_threshold;
        opt.group = w->group;
        if ((rc = plain_index_options(w, row, &opt, err)))
            return rc;
        rc = orc_writer_open(f->path, row, &opt, &f->orc, err);
    }
    if (rc)
        return rc;
    u->n_files++;
    *out = f;
    return COMB_OK;
}

int sql_writer_add_file(SqlWriter *w, const char *name, char **values,
                        const char *src, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    SqlUnitWriter *u;
    PlainFile *f;
    const char *slash = strrchr(src, '/');
    int rc = unit_get(w, name, values, &u, err);
    if (rc)
        return rc;
    f = comb_arena_alloc(c->arena, (size_t)(u->n_files + 1) * sizeof *f);
    if (!f)
        return comb_err_nomem(err);
    if (u->n_files)
        memcpy(f, u->files, (size_t)u->n_files * sizeof *f);
    u->files = f;
    f = &u->files[u->n_files];
    memset(f, 0, sizeof *f);
    f->bucket = -1;
    if ((rc = free_name(c, u->stage, slash ? slash + 1 : src, &f->path, err)) ||
        (rc = fs_copy_file(src, f->path, err)))
        return rc;
    u->n_files++;
    return COMB_OK;
}

/* ------------------------------------------------------------ routing */

/* Rows find their unit by the text of their partition keys, borrowed
 * from the batch (no copy per row), through a hash table of the units;
 * only a new unit copies its values and makes its escaped name. */

static bool is_default_value(const char *v)
{
    return !v || strcmp(v, MS_DEFAULT_PARTITION_NAME) == 0;
}

/* The keys of row `row`: static values, else the row's text; ptr NULL
 * for the default partition (NULL, an empty string, or its very name). */
static void row_keys(const SqlWriter *w, const CombBatch *b, int row,
                     char *bufs, CombStr *keys)
{
    const SqlTable *t = w->t;
    for (int k = 0; k < t->n_part; k++) {
        CombStr *key = &keys[k];
        const char *sv = w->static_values ? w->static_values[k] : NULL;
        if (sv) {
            *key = (CombStr){sv, (uint32_t)strlen(sv)};
        } else if (!sql_part_value_view(&b->cols[t->n_data + k], row,
                                        bufs + (size_t)k * SQL_PART_TEXT_MAX,
                                        SQL_PART_TEXT_MAX, key)) {
            key->ptr = NULL;
        }
        if (key->ptr && (key->len == 0 ||
                         (key->len == sizeof MS_DEFAULT_PARTITION_NAME - 1 &&
                          memcmp(key->ptr, MS_DEFAULT_PARTITION_NAME,
                                 key->len) == 0)))
            key->ptr = NULL;
    }
}

static uint64_t keys_hash(const CombStr *keys, int n)
{
    uint64_t h = 14695981039346656037ULL;
    for (int k = 0; k < n; k++) {
        h = (h ^ (keys[k].ptr ? 1u : 2u)) * 1099511628211ULL;
        for (uint32_t i = 0; keys[k].ptr && i < keys[k].len; i++)
            h = (h ^ (unsigned char)keys[k].ptr[i]) * 1099511628211ULL;
    }
    return h;
}

static bool keys_equal(char *const *values, const CombStr *keys, int n)
{
    for (int k = 0; k < n; k++) {
        if (is_default_value(values[k]) || !keys[k].ptr) {
            if (!is_default_value(values[k]) || keys[k].ptr)
                return false;
        } else if (strlen(values[k]) != keys[k].len ||
                   memcmp(values[k], keys[k].ptr, keys[k].len) != 0) {
            return false;
        }
    }
    return true;
}

static int slot_find(const SqlWriter *w, uint64_t h, const CombStr *keys)
{
    for (int s = (int)(h & (uint64_t)(w->n_slots - 1)); w->n_slots && w->unit_slots[s];
         s = (s + 1) & (w->n_slots - 1)) {
        const SqlUnitWriter *u = &w->units[w->unit_slots[s] - 1];
        if (u->hash == h && keys_equal(u->values, keys, w->t->n_part))
            return w->unit_slots[s] - 1;
    }
    return -1;
}

static void slot_put(int *slots, int n_slots, uint64_t h, int ui)
{
    int s = (int)(h & (uint64_t)(n_slots - 1));
    while (slots[s])
        s = (s + 1) & (n_slots - 1);
    slots[s] = ui + 1;
}

/* Unit ui enters the table (kept at most half full). */
static int slot_add(SqlWriter *w, int ui, CombErr *err)
{
    int hashed = 0;
    for (int i = 0; i < w->n_units; i++)
        hashed += w->units[i].hashed;
    if ((hashed + 1) * 2 > w->n_slots) {
        int n = w->n_slots ? w->n_slots * 2 : 64;
        int *slots = comb_arena_calloc(w->c->arena, (size_t)n * sizeof *slots);
        if (!slots)
            return comb_err_nomem(err);
        for (int i = 0; i < w->n_units; i++)
            if (w->units[i].hashed)
                slot_put(slots, n, w->units[i].hash, i);
        w->unit_slots = slots;
        w->n_slots = n;
    }
    slot_put(w->unit_slots, w->n_slots, w->units[ui].hash, ui);
    w->units[ui].hashed = true;
    return COMB_OK;
}

static int dynamic_limits(SqlWriter *w, CombErr *err)
{
    int n = w->n_units;
    if (n > w->max_dynamic)
        return comb_err_hive(err, COMB_EINVALID, 20004,
                             "Fatal error occurred when node tried to create "
                             "too many dynamic partitions. The maximum number "
                             "of dynamic partitions is controlled by "
                             "hive.exec.max.dynamic.partitions and "
                             "hive.exec.max.dynamic.partitions.pernode. Maximum "
                             "was set to %d partitions per node, number of "
                             "dynamic partitions on this node: %d",
                             w->max_dynamic, n);
    if (n > w->max_dynamic_node)
        return comb_err_hive(err, COMB_EINVALID, 20004,
                             "Fatal error occurred when node tried to create "
                             "too many dynamic partitions. The maximum number "
                             "of dynamic partitions is controlled by "
                             "hive.exec.max.dynamic.partitions and "
                             "hive.exec.max.dynamic.partitions.pernode. Maximum "
                             "was set to %d partitions per node, number of "
                             "dynamic partitions on this node: %d",
                             w->max_dynamic_node, n);
    return COMB_OK;
}

/* The unit of keys not in the table: found by name (opened by a
 * touch, say) or opened now. */
static int unit_for_keys(SqlWriter *w, const CombStr *keys, uint64_t h,
                         int *ui, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    const SqlTable *t = w->t;
    char **v = comb_arena_calloc(c->arena, (size_t)(t->n_part + 1) * sizeof *v);
    char *name;
    SqlUnitWriter *u;
    int before = w->n_units, rc;
    if (!v)
        return comb_err_nomem(err);
    for (int k = 0; k < t->n_part; k++)
        if (keys[k].ptr && !(v[k] = comb_arena_strndup(c->arena, keys[k].ptr,
                                                        keys[k].len)))
            return comb_err_nomem(err);
    if ((rc = ms_part_name_make(t->ms, v, c->arena, &name, err)) ||
        (rc = unit_get(w, name, v, &u, err)) ||
        (w->n_units > before && (rc = dynamic_limits(w, err))))
        return rc;
    *ui = (int)(u - w->units);
    if (u->hashed)
        return COMB_OK;
    u->hash = h;
    return slot_add(w, *ui, err);
}

/* Group the live rows of b by unit: units[i].rows[0..n_rows[i]), n_rows
 * zeroed by the caller and large enough for every unit this batch can
 * open. */
static int route_rows(SqlWriter *w, const CombBatch *b, int *n_rows,
                      CombErr *err)
{
    int n_part = w->t->n_part, last = -1, rc = COMB_OK;
    int live = comb_batch_live(b);
    CombStr *keys;
    char *bufs;
    SqlUnitWriter *u;
    if (n_part == 0) {
        if (live > 0 && (rc = unit_get(w, NULL, NULL, &u, err)))
            return rc;
        for (int i = 0; i < live; i++)
            u->rows[n_rows[u - w->units]++] = (uint32_t)comb_batch_row(b, i);
        return COMB_OK;
    }
    keys = comb_calloc((size_t)n_part, sizeof *keys);
    bufs = comb_malloc((size_t)n_part * SQL_PART_TEXT_MAX);
    if (!keys || !bufs)
        rc = comb_err_nomem(err);
    for (int i = 0; i < live && !rc; i++) {
        int row = comb_batch_row(b, i), ui = last;
        uint64_t h;
        row_keys(w, b, row, bufs, keys);
        h = keys_hash(keys, n_part);
        if (ui < 0 || w->units[ui].hash != h ||
            !keys_equal(w->units[ui].values, keys, n_part)) {
            ui = slot_find(w, h, keys);
            if (ui < 0 && (rc = unit_for_keys(w, keys, h, &ui, err)))
                break;
        }
        last = ui;
        w->units[ui].rows[n_rows[ui]++] = (uint32_t)row;
    }
    comb_free(keys);
    comb_free(bufs);
    return rc;
}

static int write_acid_rows(SqlWriter *w, SqlUnitWriter *u, const CombBatch *b,
                           const uint32_t *rows, int n, CombErr *err)
{
    CombBatch view = *b;
    uint16_t sel[COMB_BATCH_SIZE];
    for (int i = 0; i < n; i++)
        sel[i] = (uint16_t)rows[i];
    view.n_cols = w->t->n_data;
    view.use_sel = true;
    view.n_sel = n;
    view.sel = sel;
    return acid_writer_insert(u->acid, &view,
                              w->t->n_buckets > 0 ? w->buckets : NULL, err);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Rows go to one plain file per bucket: sorted by (bucket, row), each run
 * of one bucket written in row order. */
static int write_plain_rows(SqlWriter *w, SqlUnitWriter *u, const CombBatch *b,
                            uint32_t *rows, int n, CombErr *err)
{
    CombBatch view = *b;
    bool bucketed = w->t->n_buckets > 0;
    view.n_cols = w->t->n_data;
    if (bucketed) {
        for (int i = 0; i < n; i++)
            rows[i] |= (uint32_t)w->buckets[rows[i]] << 16;
        qsort(rows, (size_t)n, sizeof *rows, cmp_u32);
    }
    for (int i = 0; i < n;) {
        int bucket = (int)(rows[i] >> 16), j = i, rc;
        PlainFile *f = NULL;
        while (j < n && (int)(rows[j] >> 16) == bucket)
            rows[j++] &= 0xFFFFu;
        if ((rc = plain_file(w, u, bucket, &f, err)))
            return rc;
        rc = f->text ? text_writer_write_rows(f->text, &view, rows + i, j - i, err)
                     : orc_writer_write_rows(f->orc, &view, rows + i, j - i, err);
        if (rc)
            return rc;
        i = j;
    }
    return COMB_OK;
}

int sql_writer_insert(SqlWriter *w, const CombBatch *b, CombErr *err)
{
    const SqlTable *t = w->t;
    int *n_rows, rc;
    if (t->n_buckets > 0)
        for (int i = 0; i < comb_batch_live(b); i++) {
            int row = comb_batch_row(b, i);
            w->buckets[row] = acid_bucket_of_row(b, row, t->cluster_idx,
                                                 t->n_cluster, t->n_buckets,
                                                 t->bucketing_version);
        }
    n_rows = comb_calloc((size_t)(w->n_units + comb_batch_live(b) + 1), sizeof *n_rows);
    if (!n_rows)
        return comb_err_nomem(err);
    rc = route_rows(w, b, n_rows, err);
    for (int i = 0; i < w->n_units && !rc; i++) {
        SqlUnitWriter *u = &w->units[i];
        if (n_rows[i] == 0)
            continue;
        if (u->stats)
            sql_colstats_add(u->stats, b, u->rows, n_rows[i]);
        rc = t->kind == SQL_TABLE_ACID
                 ? write_acid_rows(w, u, b, u->rows, n_rows[i], err)
                 : write_plain_rows(w, u, b, u->rows, n_rows[i], err);
        w->n_written += n_rows[i];
    }
    comb_free(n_rows);
    return rc;
}

int sql_writer_touch(SqlWriter *w, const char *name, char **values,
                     CombErr *err)
{
    SqlUnitWriter *u;
    return unit_get(w, name, values, &u, err);
}

int sql_writer_delete(SqlWriter *w, const SqlUnit *unit, int64_t owid,
                      int32_t bucket_prop, int64_t row_id, CombErr *err)
{
    SqlUnitWriter *u;
    int rc = unit_get(w, unit->name, unit->values, &u, err);
    if (rc)
        return rc;
    return acid_writer_delete(u->acid, owid, bucket_prop, row_id, err);
}

/* Delete events for rows[0..n) of b (ROW__ID's three columns after the
 * table's) into unit u. */
static int delete_events(SqlWriter *w, SqlUnitWriter *u, const CombBatch *b,
                         const uint32_t *rows, int n, CombErr *err)
{
    const CombVector *wid = &b->cols[w->t->n_cols + ACID_COL_WRITEID];
    const CombVector *bk = &b->cols[w->t->n_cols + ACID_COL_BUCKET];
    const CombVector *rid = &b->cols[w->t->n_cols + ACID_COL_ROWID];
    int rc = COMB_OK;
    for (int j = 0; j < n && !rc; j++)
        rc = acid_writer_delete(u->acid, wid->i64[rows[j]], (int32_t)bk->i64[rows[j]],
                                rid->i64[rows[j]], err);
    return rc;
}

int sql_writer_delete_rows(SqlWriter *w, const SqlUnit *unit, const CombBatch *b,
                           CombErr *err)
{
    SqlUnitWriter *u;
    int *n_rows, rc;
    if (unit) {
        if ((rc = unit_get(w, unit->name, unit->values, &u, err)))
            return rc;
        for (int i = 0; i < comb_batch_live(b); i++)
            u->rows[i] = (uint32_t)comb_batch_row(b, i);
        return delete_events(w, u, b, u->rows, comb_batch_live(b), err);
    }
    if (!(n_rows = comb_calloc((size_t)(w->n_units + comb_batch_live(b) + 1), sizeof *n_rows)))
        return comb_err_nomem(err);
    rc = route_rows(w, b, n_rows, err);
    for (int i = 0; i < w->n_units && !rc; i++)
        rc = delete_events(w, &w->units[i], b, w->units[i].rows, n_rows[i], err);
    comb_free(n_rows);
    return rc;
}

/* ------------------------------------------------------------ finishing */

/* INSERT OVERWRITE of a plain unit: its visible files go aside (into a
 * hidden directory, removed after the statement). */
static int plain_old_aside(SqlWriter *w, SqlUnitWriter *u, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    char **names, *trash;
    int n, rc;
    if ((rc = fs_list_dir(u->dir, c->arena, &names, &n, err)))
        return rc;
    if (!(trash = comb_arena_printf(c->arena, "%s/.comb-old-%lld", u->dir,
                                    (long long)c->txnid)))
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        char *from, *to;
        if (names[i][0] == '_' || names[i][0] == '.')
            continue;
        if (!(from = fs_join(c->arena, u->dir, names[i])) ||
            !(to = fs_join(c->arena, trash, names[i])))
            return comb_err_nomem(err);
        if (!fs_is_dir(trash) && (rc = fs_mkdirs(trash, err)))
            return rc;
        if ((rc = fs_rename(from, to, err)))
            return rc;
    }
    u->stage_old = fs_is_dir(trash) ? trash : NULL;
    return COMB_OK;
}

static int finish_plain(SqlWriter *w, SqlUnitWriter *u, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    int rc;
    for (int i = 0; i < u->n_files; i++) {
        OrcWriter *o = u->files[i].orc;
        TextWriter *tw = u->files[i].text;
        u->files[i].orc = NULL;
        u->files[i].text = NULL;
        if ((o && (rc = orc_writer_close(o, err))) ||
            (tw && (rc = text_writer_close(tw, err))))
            return rc;
    }
    if (w->t->kind == SQL_TABLE_INSERT_ONLY)
        return fs_fsync_dir(u->stage, err) ? err->code : fs_fsync_dir(u->dir, err);
    if ((rc = fs_fsync_dir(u->stage, err)) ||
        (w->overwrite && (rc = plain_old_aside(w, u, err))))
        return rc;
    for (int i = 0; i < u->n_files; i++) {
        const char *base = strrchr(u->files[i].path, '/') + 1;
        char *to;
        if ((rc = free_name(c, u->dir, base, &to, err)) ||
            (rc = fs_rename(u->files[i].path, to, err)))
            return rc;
        u->files[i].placed = to;
    }
    /* both directories of every rename are durable before the commit */
    return fs_fsync_dir(u->stage, err) ? err->code : fs_fsync_dir(u->dir, err);
}

/* A plain unit of a statement that failed: the files it placed go, the
 * files INSERT OVERWRITE moved aside come back.  False when an old file
 * could not be put back (its hidden directory then stays, nothing lost). */
static bool plain_undo(SqlWriter *w, SqlUnitWriter *u)
{
    SqlStmtCtx *c = w->c;
    CombErr ignored;
    char **names;
    int n;
    bool ok = true;
    for (int i = 0; i < u->n_files; i++)
        if (u->files[i].placed)
            fs_unlink(u->files[i].placed, &ignored);
    if (!u->stage_old)
        return true;
    if (fs_list_dir(u->stage_old, c->arena, &names, &n, &ignored))
        return false;
    for (int i = 0; i < n; i++) {
        char *from = fs_join(c->arena, u->stage_old, names[i]);
        char *to = fs_join(c->arena, u->dir, names[i]);
        ok = ok && from && to && fs_rename(from, to, &ignored) == COMB_OK;
    }
    fs_fsync_dir(u->dir, &ignored);
    return ok;
}

static int finish_unit(SqlWriter *w, SqlUnitWriter *u, CombErr *err)
{
    AcidWriteStats stats;
    if (w->t->kind == SQL_TABLE_ACID) {
        AcidWriter *a = u->acid;
        u->acid = NULL;
        return acid_writer_commit_files(a, &stats, err);
    }
    return finish_plain(w, u, err);
}

/* New partitions enter the catalog (or wait in new_parts for the commit
 * that creates a new table); the transaction records each partition it
 * wrote (Hive's addDynamicPartitions). */
static int record_partitions(SqlWriter *w, CombErr *err)
{
    SqlStmtCtx *c = w->c;
    const SqlTable *t = w->t;
    MsPartition *parts;
    char **names;
    bool *added;
    int n_new = 0, rc;
    if (t->n_part == 0 || w->n_units == 0)
        return COMB_OK;
    parts = comb_arena_calloc(c->arena, (size_t)w->n_units * sizeof *parts);
    names = comb_arena_calloc(c->arena, (size_t)w->n_units * sizeof *names);
    added = comb_arena_calloc(c->arena, (size_t)w->n_units * sizeof *added);
    if (!parts || !names || !added)
        return comb_err_nomem(err);
    for (int i = 0; i < w->n_units; i++) {
        SqlUnitWriter *u = &w->units[i];
        names[i] = (char *)u->name;
        if (!u->is_new)
            continue;
        parts[n_new].n_values = t->n_part;
        parts[n_new].values = comb_arena_calloc(c->arena, (size_t)t->n_part * sizeof(char *));
        if (!parts[n_new].values)
            return comb_err_nomem(err);
        for (int k = 0; k < t->n_part; k++)
            parts[n_new].values[k] = u->values[k] ? u->values[k]
                                                  : MS_DEFAULT_PARTITION_NAME;
        parts[n_new].location = u->dir;
        n_new++;
    }
    if (w->new_table) {
        w->new_parts = parts;
        w->n_new_parts = n_new;
    } else {
        if (n_new && (rc = ms_part_add(c->s->ms, t->ms->db, t->ms->name,
                                       parts, n_new, true, added, err)))
            return rc;
        /* their directories now belong to catalog partitions: kept even if
         * the statement fails from here on */
        for (int i = 0; i < w->n_units; i++)
            w->units[i].made_dir = false;
    }
    if (t->kind == SQL_TABLE_PLAIN)
        return COMB_OK;
    return ms_txn_add_partitions(c->s->ms, c->txnid, t->ms->db, t->ms->name,
                                 names, w->n_units, w->op, w->write_id, err);
}

/* What unit u held before the statement (without the files of its write
 * id): its files, and the stored statistics that describe them merged into
 * u's.  INSERT OVERWRITE replaces it all. */
static int stats_before(SqlWriter *w, SqlUnitWriter *u, SqlSource *before,
                        CombErr *err)
{
    SqlStmtCtx *c = w->c;
    SqlUnit unit = {u->dir, u->name, u->values, NULL};
    MsColStats *rows;
    char *digest;
    int n, rc;
    if (w->overwrite || w->new_table)
        return COMB_OK;
    if ((rc = sql_source_unit(c, w->t, &unit, w->write_id, before, err)) ||
        before->n == 0)
        return rc;
    if (!(digest = sql_source_digest(c, w->t, before)))
        return comb_err_nomem(err);
    if ((rc = sql_colstats_stored(c, w->t, u->name, digest, &rows, &n, err)))
        return rc;
    return sql_colstats_merge(u->stats, rows, n, err);
}

/* The files the statement added to unit u: its directories (write id and
 * statement id) of a transactional table, the files it placed in a plain
 * one. */
static int own_files(SqlWriter *w, SqlUnitWriter *u, SqlSource *s,
                     CombErr *err)
{
    SqlStmtCtx *c = w->c;
    char **names;
    int n, rc;
    if (w->t->kind == SQL_TABLE_PLAIN) {
        rc = COMB_OK;
        for (int i = 0; i < u->n_files && !rc; i++)
            rc = sql_source_add_file(c, s, u->files[i].placed, err);
        return rc;
    }
    if ((rc = fs_list_dir(u->dir, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n && !rc; i++) {
        AcidParsedDir d;
        const char *path;
        if (!acid_dir_parse(names[i], &d) || d.min_wid != w->write_id ||
            d.max_wid != w->write_id || (d.stmt >= 0 && d.stmt != u->stmt))
            continue;
        if (!(path = fs_join(c->arena, u->dir, names[i])))
            return comb_err_nomem(err);
        rc = sql_source_add_dir(c, s, path, err);
    }
    return rc;
}

/* u's statistics, for what it held and what the statement wrote, queued
 * for the statement's commit. */
static int stats_after(SqlWriter *w, SqlUnitWriter *u, SqlSource *files,
                       CombErr *err)
{
    SqlStmtCtx *c = w->c;
    MsColStats *rows;
    char *digest;
    int n, rc = own_files(w, u, files, err);
    if (rc)
        return rc;
    if (!(digest = sql_source_digest(c, w->t, files)))
        return comb_err_nomem(err);
    if ((rc = sql_colstats_rows(c, u->stats, digest, &rows, &n, err)))
        return rc;
    return sql_colstats_defer(c, w->t, u->name, rows, n, err);
}

int sql_writer_finish_files(SqlWriter *w, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; i < w->n_units && !rc; i++) {
        SqlUnitWriter *u = &w->units[i];
        SqlSource files = {0};
        if (u->stats)
            rc = stats_before(w, u, &files, err);
        if (!rc)
            rc = finish_unit(w, u, err);
        if (!rc && u->stats)
            rc = stats_after(w, u, &files, err);
    }
    if (!rc)
        sql_crash_point(w->c, "after_files");
    return rc;
}

int sql_writer_record(SqlWriter *w, CombErr *err)
{
    int rc = record_partitions(w, err);
    w->finished = !rc;
    return rc;
}

int sql_writer_finish(SqlWriter *w, CombErr *err)
{
    int rc = sql_writer_finish_files(w, err);
    return rc ? rc : sql_writer_record(w, err);
}

void sql_writer_fail(SqlWriter *w)
{
    if (w)
        w->finished = false;
}

void sql_writer_close(SqlWriter *w)
{
    CombErr ignored;
    if (!w)
        return;
    for (int i = 0; i < w->n_units; i++) {
        SqlUnitWriter *u = &w->units[i];
        acid_writer_abort(u->acid);
        u->acid = NULL;
        for (int k = 0; k < u->n_files; k++) {
            orc_writer_abort(u->files[k].orc);
            text_writer_abort(u->files[k].text);
        }
        /* the staging directory of a plain table never holds visible
         * data: always removed (insert-only deltas stay, invisible, for a
         * later compaction, as the ACID writer leaves them) */
        if (w->t->kind == SQL_TABLE_PLAIN && u->stage)
            fs_remove_tree(u->stage, &ignored);
        if (!w->finished && w->t->kind == SQL_TABLE_PLAIN && !plain_undo(w, u))
            continue;
        u->n_files = 0;
        if (u->stage_old)
            fs_remove_tree(u->stage_old, &ignored);
        if (!w->finished && u->is_new && u->made_dir)
            fs_remove_tree(u->dir, &ignored);
    }
    orc_writer_group_free(w->group);
    w->group = NULL;
}
