/*
 * writer.c - the record updater (§6.2 and §8 of hive-acid-storage.md):
 * inserted rows stream into delta_W_W_S/bucket_N (or base_W/bucket_N for
 * INSERT OVERWRITE), delete events are collected, sorted and written to
 * delete_delta_W_W_S/bucket_M at commit.
 *
 * Durability order: a delta directory is made durable with its parent
 * when it is created (fs_mkdirs fsyncs both, and any table directory it
 * had to create); at commit every ORC file is finished with its ACID
 * metadata (§1.4) and fsynced by orc_writer_close, then _orc_acid_version
 * (§1.5) is written and fsynced in every created directory, and each
 * created directory is fsynced for the files' entries.  Only then may the
 * caller commit the write id in the metastore.
 *
 * Rows are not copied: the staging batch handed to the ORC writers holds
 * the five metadata columns, indexed like the caller's rows, and a `row`
 * struct whose fields are views of the caller's column vectors; each
 * bucket's ORC writer gets the list of the caller's rows it takes.
 *
 * Many buckets: the ORC writers of one AcidWriter share one
 * OrcWriterGroup, so they keep no file open between stripes (any bucket
 * count within a small limit of open files) and hold at most the
 * memory budget in pending stripes together; beyond it the largest
 * pending stripe is written out early (smaller stripes, same rows).
 */
#include "acid/acid_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"

#define ACID_VERSION_FILE "_orc_acid_version"
#define ACID_VERSION "2"
#define KEY_INDEX_KEY "hive.acid.key.index"
#define STATS_KEY "hive.acid.stats"
#define VERSION_KEY "hive.acid.version"
#define DELTA_STRIPE_SIZE (8u << 20)
#define WRITER_MEMORY_BUDGET (128u << 20)

/* One insert file bucket_N: its rows are (0, W, prop, rowId, W, row) with
 * rowId = 0, 1, 2... (§6.2). */
typedef struct InsertFile {
    OrcWriter *orc;
    int64_t write_id;
    int32_t prop;            /* encode_v1(N, S) */
    int64_t next_row_id;     /* rowId of the next row */
    int64_t n_rows;          /* rows of every write id (hive.acid.stats) */
    char *side_path;         /* streaming: the _flush_length side file */
    int64_t stripe_first;    /* rowId of the first row of the open stripe */
    CombBuf key_index;       /* §1.4: "owid,bucket,rowId;" per stripe */
    bool keyed;              /* rows bring their ROW__ID (compaction) */
    bool has_last;
    AcidKey last;            /* keyed: the last row's key so far */
} InsertFile;

/* One delete file bucket_M while it is written. */
typedef struct DeleteFile {
    const AcidKey *events;   /* this file's events, sorted (§6.1) */
    size_t stripe_first;     /* index of the first event of the stripe */
    CombBuf key_index;
} DeleteFile;

/* What carries rows to the ORC writers: the six root fields of the ACID
 * schema (orc.h's batch layout). */
typedef struct Stage {
    CombVector cols[ACID_N_FIELDS]; /* metadata vectors (owned), then the
                                       row struct: own null mask, children
                                       = views */
    CombVector *views;        /* per user column: a header copy of the
                                 caller's vector, or of nulls[i] */
    CombVector *nulls;        /* per user column: an all-NULL vector of its
                                 type (owned): delete events, untyped
                                 NULL columns */
    int cap;                  /* rows every vector above holds */
} Stage;

/* A directory the writer made (removed again on abort).  A streaming
 * writer syncs it at every commit: only the first time, and after files
 * were added, is there anything to write or fsync. */
typedef struct MadeDir {
    char *path;
    bool made;
    bool versioned;           /* its _orc_acid_version is written, fsynced */
    bool synced;              /* entries fsynced since the last file added */
} MadeDir;

struct AcidWriter {
    CombArena arena;           /* paths, schema copy, ORC types */
    char *dir;                 /* table (or partition) directory */
    AcidSchema schema;         /* copy of the caller's */
    int64_t write_id;          /* streaming: the current txn's */
    int64_t min_write_id;      /* streaming: the batch's first and last */
    int64_t max_write_id;
    bool streaming;            /* a transaction batch (AcidWriterOptions) */
    bool flushed;              /* streaming: a length was committed */
    bool dirty;                /* streaming: rows since the last flush */
    int stmt;                  /* -1: directory names without statement */
    int compression;           /* OrcCompression */
    bool base;                 /* INSERT OVERWRITE into base_W */
    bool keep_row_ids;         /* compaction: rows keep their ROW__IDs */
    const char *insert_name;   /* compaction: directory names given */
    const char *delete_name;
    int *buckets;              /* keep_row_ids: writer id per row, heap */
    int buckets_cap;
    uint64_t stripe_size;
    bool set_dict_threshold;
    double dict_threshold;
    bool set_index;            /* AcidWriterOptions' index settings */
    uint32_t index_stride;
    uint64_t block_size;
    double bloom_fpp;
    int *bloom_rel;            /* bloom columns: ids within the row struct
                                  (its first field 1) */
    int n_bloom;
    OrcWriterGroup *group;     /* memory budget of all the ORC writers */
    OrcWriterGroup *own_group; /* group, when the writer made it */
    CombType *file_type;        /* §1.1 ACID schema */
    CombType *row_type;         /* the row struct alone (empty base file) */
    MadeDir insert_dir;        /* delta_W_W_S or base_W */
    MadeDir delete_dir;        /* delete_delta_W_W_S */
    InsertFile *files[ACID_MAX_BUCKET + 1]; /* by bucket, opened lazily */
    Stage stage;
    uint32_t *order;           /* scratch: (bucket << 16 | row), heap */
    uint32_t *run;             /* scratch: the rows of one bucket run */
    int order_cap;
    AcidDeleteSet deletes;     /* events, sorted at commit */
    int64_t n_inserted;
    int n_files;
};

/* ------------------------------------------------------------------ open */

static bool has_union(const CombType *t)
{
    if (t->kind == COMB_T_UNION)
        return true;
    for (int i = 0; i < t->n_children; i++)
        if (has_union(t->children[i]))
            return true;
    return false;
}

/* Every type but uniontype: ORC's writer has no union writer Hive uses. */
static int check_schema(const AcidSchema *schema, CombErr *err)
{
    for (int i = 0; i < schema->n_cols; i++)
        if (has_union(schema->types[i]))
            return comb_err(err, COMB_EUNSUPPORTED,
                            "cannot write column '%s': uniontype values "
                            "cannot be stored in ORC files by comb",
                            schema->names[i]);
    return COMB_OK;
}

static void null_fill(CombVector *v, int from, int to)
{
    if (to > from)
        memset(v->nulls + from, 1, (size_t)(to - from));
    v->has_nulls = true;
}

/* Room for `cap` rows in the staging vectors (the caller's row numbers
 * index them). */
static int stage_reserve(Stage *st, int n_cols, int cap, CombErr *err)
{
    if (cap <= st->cap)
        return COMB_OK;
    for (int f = 0; f < ACID_FIELD_ROW; f++)
        if (comb_vec_reserve(&st->cols[f], cap))
            return comb_err_nomem(err);
    uint8_t *m = comb_realloc(st->cols[ACID_FIELD_ROW].nulls, (size_t)cap);
    if (!m)
        return comb_err_nomem(err);
    st->cols[ACID_FIELD_ROW].nulls = m;
    st->cols[ACID_FIELD_ROW].capacity = cap;
    for (int i = 0; i < n_cols; i++) {
        int old = st->nulls[i].capacity;
        if (comb_vec_reserve(&st->nulls[i], cap))
            return comb_err_nomem(err);
        null_fill(&st->nulls[i], old, st->nulls[i].capacity);
    }
    st->cap = cap;
    return COMB_OK;
}

static int stage_init(AcidWriter *w, CombErr *err)
{
    Stage *st = &w->stage;
    int n = w->schema.n_cols;
    st->views = comb_calloc((size_t)(n ? n : 1), sizeof *st->views);
    st->nulls = comb_calloc((size_t)(n ? n : 1), sizeof *st->nulls);
    if (!st->views || !st->nulls)
        return comb_err_nomem(err);
    for (int f = 0; f < ACID_FIELD_ROW; f++)
        if (comb_vec_init(&st->cols[f], w->file_type->children[f], 1))
            return comb_err_nomem(err);
    CombVector *row = &st->cols[ACID_FIELD_ROW];
    row->kind = COMB_T_STRUCT;
    row->type = w->row_type;
    row->n_children = n;
    row->children = st->views;
    for (int i = 0; i < n; i++) {
        if (comb_vec_init(&st->nulls[i], w->schema.types[i], 1))
            return comb_err_nomem(err);
        null_fill(&st->nulls[i], 0, 1);
    }
    return stage_reserve(st, n, COMB_BATCH_SIZE, err);
}

static void stage_free(Stage *st, int n_cols)
{
    for (int f = 0; f < ACID_FIELD_ROW; f++)
        comb_vec_free(&st->cols[f]);
    comb_free(st->cols[ACID_FIELD_ROW].nulls);
    for (int i = 0; st->nulls && i < n_cols; i++)
        comb_vec_free(&st->nulls[i]);
    comb_free(st->nulls);
    comb_free(st->views);
    memset(st, 0, sizeof *st);
}

/* The staging vectors as an ORC batch. */
static CombBatch stage_batch(Stage *st, int n_rows)
{
    CombBatch b;
    memset(&b, 0, sizeof b);
    b.n_cols = ACID_N_FIELDS;
    b.cols = st->cols;
    b.n_rows = n_rows;
    b.capacity = st->cap;
    return b;
}

static int dir_paths(AcidWriter *w, CombErr *err)
{
    char *ins = w->insert_name ? (char *)w->insert_name
                : w->streaming
                    ? acid_dir_name(&w->arena, ACID_DIR_DELTA, w->min_write_id,
                                    w->max_write_id, -1)
                    : acid_dir_name(&w->arena,
                                    w->base ? ACID_DIR_BASE : ACID_DIR_DELTA,
                                    w->write_id, w->write_id, w->stmt);
    char *del = w->delete_name
                    ? (char *)w->delete_name
                    : acid_dir_name(&w->arena, ACID_DIR_DELETE_DELTA,
                                    w->write_id, w->write_id, w->stmt);
    if (!ins || !del)
        return comb_err_nomem(err);
    w->insert_dir.path = fs_join(&w->arena, w->dir, ins);
    w->delete_dir.path = fs_join(&w->arena, w->dir, del);
    if (!w->insert_dir.path || !w->delete_dir.path)
        return comb_err_nomem(err);
    return COMB_OK;
}

static int check_args(int64_t write_id, int stmt_id, int compression,
                      CombErr *err)
{
    if (write_id <= 0)
        return comb_err(err, COMB_EINVALID, "write id %" PRId64
                        " is not positive", write_id);
    if (stmt_id < -1 || stmt_id > ACID_MAX_STMT)
        return comb_err(err, COMB_EINVALID, "statement id %d outside -1..%d",
                        stmt_id, ACID_MAX_STMT);
    if (compression < ORC_COMP_NONE || compression > ORC_COMP_ZSTD)
        return comb_err(err, COMB_EINVALID, "unknown compression %d",
                        compression);
    return COMB_OK;
}

/* Nodes in a type tree: how far pre-order ids advance over it. */
static int type_nodes(const CombType *t)
{
    int n = 1;
    for (int i = 0; i < t->n_children; i++)
        n += type_nodes(t->children[i]);
    return n;
}

/* The row columns' bloom filters as ids relative to the row struct. */
static int index_setup(AcidWriter *w, const AcidSchema *schema,
                       const AcidWriterOptions *opt, CombErr *err)
{
    w->set_index = true;
    w->index_stride = opt->row_index_stride;
    w->block_size = opt->compression_block_size;
    w->bloom_fpp = opt->bloom_fpp;
    if (!opt->bloom_fields)
        return COMB_OK;
    w->bloom_rel = comb_arena_alloc(&w->arena, ((size_t)schema->n_cols + 1) *
                                                   sizeof *w->bloom_rel);
    if (!w->bloom_rel)
        return comb_err_nomem(err);
    for (int i = 0, id = 1; i < schema->n_cols; i++) {
        if (opt->bloom_fields[i])
            w->bloom_rel[w->n_bloom++] = id;
        id += type_nodes(schema->types[i]);
    }
    return COMB_OK;
}

int acid_writer_open_opts(const char *dir, const AcidSchema *schema,
                          int64_t write_id, int stmt_id, int compression,
                          const AcidWriterOptions *opt, AcidWriter **out,
                          CombErr *err)
{
    AcidWriter *w;
    int rc;
    *out = NULL;
    if ((rc = check_args(write_id, stmt_id, compression, err)) ||
        (rc = check_schema(schema, err)))
        return rc;
    if (!(w = comb_calloc(1, sizeof *w)))
        return comb_err_nomem(err);
    comb_arena_init(&w->arena, 16 * 1024);
    acid_delete_set_init(&w->deletes);
    w->write_id = w->min_write_id = write_id;
    w->streaming = opt && opt->streaming;
    w->max_write_id = w->streaming ? opt->max_write_id : write_id;
    if (w->streaming && (w->max_write_id < write_id || stmt_id != -1 ||
                            opt->base || opt->keep_row_ids)) {
        rc = comb_err(err, COMB_EINVALID,
                      "streaming writer: write ids %" PRId64 "..%" PRId64
                      " must be a range, with no statement id, into a "
                      "delta", write_id, w->max_write_id);
        acid_writer_abort(w);
        return rc;
    }
    w->stmt = stmt_id;
    w->compression = compression;
    w->base = opt && opt->base;
    w->keep_row_ids = opt && opt->keep_row_ids;
    w->stripe_size = opt && opt->stripe_size ? opt->stripe_size
                     : w->base ? 0 : DELTA_STRIPE_SIZE;
    w->set_dict_threshold = opt && opt->set_dictionary_key_threshold;
    w->dict_threshold = opt ? opt->dictionary_key_threshold : 0;
    if (opt && opt->set_index)
        rc = index_setup(w, schema, opt, err);
    if (!rc && !(w->dir = comb_arena_strdup(&w->arena, dir)))
        rc = comb_err_nomem(err);
    if (!rc && opt && opt->insert_dir_name &&
        !(w->insert_name = comb_arena_strdup(&w->arena, opt->insert_dir_name)))
        rc = comb_err_nomem(err);
    if (!rc && opt && opt->delete_dir_name &&
        !(w->delete_name = comb_arena_strdup(&w->arena, opt->delete_dir_name)))
        rc = comb_err_nomem(err);
    if (!rc && opt && opt->group)
        w->group = opt->group;
    else if (!rc && !(rc = orc_writer_group_new(opt && opt->memory_budget
                                                    ? opt->memory_budget
                                                    : WRITER_MEMORY_BUDGET,
                                                &w->own_group, err)))
        w->group = w->own_group;
    if (rc || (rc = acid_schema_copy(&w->arena, schema, &w->schema, err)) ||
        (rc = acid_file_type(&w->arena, &w->schema, &w->file_type, err)) ||
        (rc = acid_row_type(&w->arena, &w->schema, &w->row_type, err)) ||
        (rc = stage_init(w, err)) || (rc = dir_paths(w, err))) {
        acid_writer_abort(w);
        return rc;
    }
    *out = w;
    return COMB_OK;
}

int acid_writer_open(const char *dir, const AcidSchema *schema,
                     int64_t write_id, int stmt_id, int compression,
                     AcidWriter **out, CombErr *err)
{
    return acid_writer_open_opts(dir, schema, write_id, stmt_id, compression,
                                 NULL, out, err);
}

/* §8: one new directory per (write id, statement), made on first use so
 * no empty directory is ever left; an existing one belongs to another
 * writer.  The table (or a new partition) directory may not exist yet:
 * fs_mkdirs makes the whole new chain durable. */
static int make_dir(MadeDir *d, CombErr *err)
{
    int rc;
    if (d->made)
        return COMB_OK;
    if (fs_exists(d->path))
        return comb_err(err, COMB_EEXISTS,
                        "ACID directory '%s' exists already", d->path);
    if ((rc = fs_mkdirs(d->path, err)))
        return rc;
    d->made = true;
    return COMB_OK;
}

/* ---------------------------------------------------------- ORC writers */

static int append_key(CombBuf *index, int64_t owid, int32_t prop,
                      int64_t row_id, CombErr *err)
{
    if (comb_buf_printf(index, "%" PRId64 ",%d,%" PRId64 ";", owid,
                        (int)prop, row_id))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* §1.4: the key index entry of a stripe is the key of its last row. */
static int insert_on_stripe(void *ctx, uint64_t stripe_rows, CombErr *err)
{
    InsertFile *f = ctx;
    int64_t last = f->stripe_first + (int64_t)stripe_rows - 1;
    f->stripe_first += (int64_t)stripe_rows;
    if (f->keyed) /* the stripe ends with the last row written to f */
        return append_key(&f->key_index, f->last.owid, f->last.bucket,
                          f->last.row_id, err);
    return append_key(&f->key_index, f->write_id, f->prop, last, err);
}

static int delete_on_stripe(void *ctx, uint64_t stripe_rows, CombErr *err)
{
    DeleteFile *f = ctx;
    const AcidKey *last = &f->events[f->stripe_first + stripe_rows - 1];
    f->stripe_first += stripe_rows;
    return append_key(&f->key_index, last->owid, last->bucket, last->row_id,
                      err);
}

/* The index options of a bucket file of type `type` (the ACID schema,
 * whose last field is the row struct, or the row struct alone). */
static void index_options(const AcidWriter *w, const CombType *type,
                          OrcWriterOptions *o, int *ids)
{
    int row = 0;
    if (type == w->file_type)
        for (int i = 0; i + 1 < type->n_children; i++)
            row += type_nodes(type->children[i]);
    o->row_index_stride = w->index_stride;
    if (w->block_size)
        o->compression_block_size = w->block_size;
    o->bloom_fpp = w->bloom_fpp;
    for (int i = 0; i < w->n_bloom; i++)
        ids[i] = (type == w->file_type ? row + 1 : 0) + w->bloom_rel[i];
    o->bloom_columns = ids;
    o->n_bloom_columns = w->n_bloom;
}

static int open_orc(AcidWriter *w, MadeDir *dir, int bucket,
                    const CombType *type,
                    int (*on_stripe)(void *, uint64_t, CombErr *), void *ctx,
                    OrcWriter **out, CombErr *err)
{
    OrcWriterOptions o;
    char *name = acid_bucket_file_name(&w->arena, bucket);
    char *path = name ? fs_join(&w->arena, dir->path, name) : NULL;
    if (!path)
        return comb_err_nomem(err);
    dir->synced = false; /* a new entry (and the side file made before) */
    orc_writer_options_default(&o);
    o.compression = (OrcCompression)w->compression;
    if (w->stripe_size)
        o.stripe_size = w->stripe_size;
    if (w->set_dict_threshold)
        o.dictionary_key_threshold = w->dict_threshold;
    o.on_stripe = on_stripe;
    o.ctx = ctx;
    o.group = w->group;
    int *ids = w->n_bloom ? comb_arena_alloc(&w->arena, (size_t)w->n_bloom *
                                                            sizeof *ids)
                          : NULL;
    if (w->n_bloom && !ids)
        return comb_err_nomem(err);
    if (w->set_index)
        index_options(w, type, &o, ids);
    return orc_writer_open(path, type, &o, out, err);
}

/* §1.4 metadata of a file whose stripes are all written. */
static int set_acid_metadata(OrcWriter *orc, const CombBuf *key_index,
                             const char *stats, bool with_version,
                             CombErr *err)
{
    static const char empty[1] = "";
    int rc;
    if ((rc = orc_writer_set_metadata(orc, KEY_INDEX_KEY,
                                      key_index->len ? (const void *)key_index->data
                                                     : (const void *)empty,
                                      key_index->len, err)) ||
        (rc = orc_writer_set_metadata(orc, STATS_KEY, stats, strlen(stats),
                                      err)))
        return rc;
    if (with_version)
        rc = orc_writer_set_metadata(orc, VERSION_KEY, ACID_VERSION,
                                     strlen(ACID_VERSION), err);
    return rc;
}

/* §1.4 metadata, then footer and fsync (orc_writer_close). */
static int close_orc(OrcWriter *orc, const CombBuf *key_index, const char *stats,
                     bool with_version, CombErr *err)
{
    int rc;
    if ((rc = orc_writer_finish(orc, err)) ||
        (rc = set_acid_metadata(orc, key_index, stats, with_version, err))) {
        orc_writer_abort(orc);
        return rc;
    }
    return orc_writer_close(orc, err);
}

/* §1.7: the side file exists (holding 0, as Hive's writer starts it)
 * before its data file does, so a reader never finds a streaming file
 * without it. */
static int side_file_create(AcidWriter *w, InsertFile *f, int bucket,
                            CombErr *err)
{
    char *name = acid_bucket_file_name(&w->arena, bucket);
    char *path = name ? fs_join(&w->arena, w->insert_dir.path, name) : NULL;
    if (!path || !(f->side_path = acid_flush_length_path(&w->arena, path)))
        return comb_err_nomem(err);
    return acid_flush_length_append(f->side_path, 0, true, err);
}

static void free_insert_file(InsertFile *f)
{
    comb_buf_free(&f->key_index);
    comb_free(f);
}

static int insert_file_get(AcidWriter *w, int bucket, InsertFile **out,
                           CombErr *err)
{
    InsertFile *f = w->files[bucket];
    int rc;
    if (f) {
        *out = f;
        return COMB_OK;
    }
    if ((rc = make_dir(&w->insert_dir, err)))
        return rc;
    if (!(f = comb_calloc(1, sizeof *f)))
        return comb_err_nomem(err);
    f->write_id = w->write_id;
    f->keyed = w->keep_row_ids;
    if ((rc = acid_bucket_encode(bucket, w->stmt, &f->prop, err)) ||
        (w->streaming && (rc = side_file_create(w, f, bucket, err))) ||
        (rc = open_orc(w, &w->insert_dir, bucket, w->file_type,
                       insert_on_stripe, f, &f->orc, err))) {
        free_insert_file(f);
        return rc;
    }
    w->files[bucket] = f;
    *out = f;
    return COMB_OK;
}

/* ---------------------------------------------------------------- insert */

/* The row struct of the staging batch: views of the caller's vectors. */
static void stage_values(AcidWriter *w, const CombBatch *in)
{
    Stage *st = &w->stage;
    st->cols[ACID_FIELD_ROW].has_nulls = false;
    for (int i = 0; i < w->schema.n_cols; i++)
        st->views[i] = in->cols[i].kind == COMB_T_NULL ? st->nulls[i]
                                                       : in->cols[i];
}

/* Stage the caller's rows rows[0..n) for bucket file f: their metadata
 * (§6.2) at their own row numbers, their values as views. */
static void stage_insert(AcidWriter *w, InsertFile *f, const CombBatch *in,
                         const uint32_t *rows, int n)
{
    Stage *st = &w->stage;
    for (int j = 0; j < n; j++) {
        uint32_t row = rows[j];
        st->cols[ACID_FIELD_OPERATION].i64[row] = ACID_OP_INSERT;
        st->cols[ACID_FIELD_OWID].i64[row] = w->write_id;
        st->cols[ACID_FIELD_BUCKET].i64[row] = f->prop;
        st->cols[ACID_FIELD_ROWID].i64[row] = f->next_row_id++;
        st->cols[ACID_FIELD_CURRENT].i64[row] = w->write_id;
    }
    stage_values(w, in);
}

/* keep_row_ids: the rows' own ROW__IDs (the three columns after the user
 * columns, acid_reader_batch_init's layout), which must ascend within the
 * file (§6.1), as they do when read from sorted files bucket by bucket. */
static int stage_insert_keyed(AcidWriter *w, InsertFile *f,
                              const CombBatch *in, const uint32_t *rows,
                              int n, CombErr *err)
{
    Stage *st = &w->stage;
    const CombVector *ids = &in->cols[w->schema.n_cols];
    for (int j = 0; j < n; j++) {
        uint32_t row = rows[j];
        AcidKey k = {ids[ACID_COL_WRITEID].i64[row],
                     ids[ACID_COL_ROWID].i64[row],
                     (int32_t)ids[ACID_COL_BUCKET].i64[row], 0};
        if (f->has_last && acid_key_cmp(&f->last, &k) >= 0)
            return comb_err(err, COMB_ECORRUPT,
                            "rows out of ROW__ID order in '%s': (%lld,%d,"
                            "%lld) after (%lld,%d,%lld)", w->dir,
                            (long long)k.owid, (int)k.bucket,
                            (long long)k.row_id, (long long)f->last.owid,
                            (int)f->last.bucket, (long long)f->last.row_id);
        f->last = k;
        f->has_last = true;
        f->next_row_id++;
        st->cols[ACID_FIELD_OPERATION].i64[row] = ACID_OP_INSERT;
        st->cols[ACID_FIELD_OWID].i64[row] = k.owid;
        st->cols[ACID_FIELD_BUCKET].i64[row] = k.bucket;
        st->cols[ACID_FIELD_ROWID].i64[row] = k.row_id;
        st->cols[ACID_FIELD_CURRENT].i64[row] = k.owid;
    }
    stage_values(w, in);
    return COMB_OK;
}

/* The caller's columns must be vectors of the columns' types (or untyped
 * NULL columns, as SET c = NULL makes). */
static int check_rows(const AcidWriter *w, const CombBatch *rows,
                      CombErr *err)
{
    if (rows->n_cols < w->schema.n_cols)
        return comb_err(err, COMB_EINVALID, "batch has %d columns, table %d",
                        rows->n_cols, w->schema.n_cols);
    if (rows->n_rows > 0xFFFF + 1)
        return comb_err(err, COMB_EINVALID, "batch of %d rows is too large",
                        rows->n_rows);
    for (int i = 0; i < w->schema.n_cols; i++) {
        const CombVector *v = &rows->cols[i];
        const CombType *t = w->schema.types[i];
        if (v->kind != COMB_T_NULL && !orc_vec_fits(v, t))
            return comb_err(err, COMB_EINVALID,
                            "column '%s': batch vector of kind %s, table "
                            "type %s", w->schema.names[i],
                            comb_type_name(v->kind), comb_type_name(t->kind));
    }
    return COMB_OK;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort the live rows by (bucket, row): each bucket's rows stay in input
 * order, so rowIds follow the order rows arrive in.  A batch already in
 * that order (one bucket's rows, as compaction's reader hands them out)
 * is not sorted. */
static int order_rows(const CombBatch *rows, const int *buckets,
                      uint32_t *order, int n_live, CombErr *err)
{
    bool sorted = true;
    for (int i = 0; i < n_live; i++) {
        int row = comb_batch_row(rows, i);
        int bucket = buckets ? buckets[row] : 0;
        if (bucket < 0 || bucket > ACID_MAX_BUCKET)
            return comb_err(err, COMB_EINVALID, "bucket %d outside 0..%d",
                            bucket, ACID_MAX_BUCKET);
        order[i] = (uint32_t)bucket << 16 | (uint32_t)row;
        sorted &= i == 0 || order[i] > order[i - 1];
    }
    if (!sorted)
        qsort(order, (size_t)n_live, sizeof *order, cmp_u32);
    return COMB_OK;
}

/* Write order[0..n) (sorted by bucket) one bucket run at a time: each
 * run's rows go to its file as a list of the caller's row numbers. */
static int write_runs(AcidWriter *w, const CombBatch *rows,
                      const uint32_t *order, int n, CombErr *err)
{
    int start = 0;
    while (start < n) {
        int bucket = (int)(order[start] >> 16), end = start, rc;
        InsertFile *f = NULL;
        while (end < n && (int)(order[end] >> 16) == bucket) {
            w->run[end - start] = order[end] & 0xFFFF;
            end++;
        }
        if ((rc = insert_file_get(w, bucket, &f, err)))
            return rc;
        if (!w->keep_row_ids)
            stage_insert(w, f, rows, w->run, end - start);
        else if ((rc = stage_insert_keyed(w, f, rows, w->run, end - start,
                                          err)))
            return rc;
        CombBatch b = stage_batch(&w->stage, 0);
        if ((rc = orc_writer_write_rows(f->orc, &b, w->run, end - start,
                                        err)))
            return rc;
        f->n_rows += end - start;
        start = end;
    }
    return COMB_OK;
}

static int reserve_order(AcidWriter *w, int n, CombErr *err)
{
    uint32_t *v, *r;
    if (n <= w->order_cap)
        return COMB_OK;
    if (!(v = comb_realloc(w->order, (size_t)n * sizeof *v)))
        return comb_err_nomem(err);
    w->order = v;
    if (!(r = comb_realloc(w->run, (size_t)n * sizeof *r)))
        return comb_err_nomem(err);
    w->run = r;
    w->order_cap = n;
    return COMB_OK;
}

/* keep_row_ids: each row goes to the file of the writer id in its bucket
 * property (§2), into w->buckets (indexed by physical row). */
static int keyed_buckets(AcidWriter *w, const CombBatch *rows,
                         const int **buckets, CombErr *err)
{
    const CombVector *prop = &rows->cols[w->schema.n_cols + ACID_COL_BUCKET];
    int stmt, rc;
    if (rows->n_cols < w->schema.n_cols + 3)
        return comb_err(err, COMB_EINVALID,
                        "rows without their ROW__ID columns");
    if (rows->capacity > w->buckets_cap) {
        int *v = comb_realloc(w->buckets, (size_t)rows->capacity * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        w->buckets = v;
        w->buckets_cap = rows->capacity;
    }
    for (int i = 0; i < comb_batch_live(rows); i++) {
        int row = comb_batch_row(rows, i);
        if ((rc = acid_bucket_decode((int32_t)prop->i64[row],
                                     &w->buckets[row], &stmt, err)))
            return rc;
    }
    *buckets = w->buckets;
    return COMB_OK;
}

int acid_writer_insert(AcidWriter *w, const CombBatch *rows,
                       const int *buckets, CombErr *err)
{
    int n_live = comb_batch_live(rows), rc;
    if (n_live == 0)
        return COMB_OK;
    w->dirty = true;
    if (w->keep_row_ids && (rc = keyed_buckets(w, rows, &buckets, err)))
        return rc;
    if ((rc = check_rows(w, rows, err)) ||
        (rc = stage_reserve(&w->stage, w->schema.n_cols, rows->capacity,
                            err)) ||
        (rc = reserve_order(w, n_live, err)) ||
        (rc = order_rows(rows, buckets, w->order, n_live, err)) ||
        (rc = write_runs(w, rows, w->order, n_live, err)))
        return rc;
    w->n_inserted += n_live;
    return COMB_OK;
}

/* ---------------------------------------------------------------- delete */

int acid_writer_delete(AcidWriter *w, int64_t owid, int32_t bucket_prop,
                       int64_t row_id, CombErr *err)
{
    AcidKey k = {owid, row_id, bucket_prop, 0};
    int stmt, rc;
    if (w->base || w->streaming)
        return comb_err(err, COMB_EINVALID,
                        "delete events cannot go to %s",
                        w->base ? "an INSERT OVERWRITE base"
                                : "a streaming delta");
    if ((rc = acid_bucket_decode(bucket_prop, &k.writer, &stmt, err)))
        return rc;
    if (k.writer < 0 || k.writer > ACID_MAX_BUCKET)
        return comb_err(err, COMB_EINVALID, "bucket property %d names "
                        "bucket %d outside 0..%d", (int)bucket_prop, k.writer,
                        ACID_MAX_BUCKET);
    return acid_delete_set_add(&w->deletes, &k, err);
}

/* Stage events[0..n): (2, owid, prop, rowId, W, NULL) (§6.2). */
static CombBatch stage_delete_events(AcidWriter *w, const AcidKey *events,
                                     int n)
{
    Stage *st = &w->stage;
    for (int j = 0; j < n; j++) {
        st->cols[ACID_FIELD_OPERATION].i64[j] = ACID_OP_DELETE;
        st->cols[ACID_FIELD_OWID].i64[j] = events[j].owid;
        st->cols[ACID_FIELD_BUCKET].i64[j] = events[j].bucket;
        st->cols[ACID_FIELD_ROWID].i64[j] = events[j].row_id;
        st->cols[ACID_FIELD_CURRENT].i64[j] = w->write_id;
    }
    /* §1.3: `row` is a struct-level NULL, so are all its descendants */
    null_fill(&st->cols[ACID_FIELD_ROW], 0, n);
    for (int i = 0; i < w->schema.n_cols; i++)
        st->views[i] = st->nulls[i];
    return stage_batch(st, n);
}

/* delete_delta_W_W_S/bucket_M for the events[0..n) of writer M. */
static int write_delete_file(AcidWriter *w, const AcidKey *events, size_t n,
                             CombErr *err)
{
    DeleteFile f = {events, 0, COMB_BUF_INIT};
    OrcWriter *orc = NULL;
    char stats[64];
    int rc;
    if ((rc = open_orc(w, &w->delete_dir, events[0].writer, w->file_type,
                       delete_on_stripe, &f, &orc, err)))
        goto done;
    for (size_t done_n = 0; done_n < n;) {
        size_t chunk = n - done_n;
        if (chunk > (size_t)w->stage.cap)
            chunk = (size_t)w->stage.cap;
        CombBatch b = stage_delete_events(w, events + done_n, (int)chunk);
        if ((rc = orc_writer_write(orc, &b, err))) {
            orc_writer_abort(orc);
            goto done;
        }
        done_n += chunk;
    }
    snprintf(stats, sizeof stats, "0,0,%zu", n); /* §1.4: deletes */
    rc = close_orc(orc, &f.key_index, stats, true, err);
done:
    comb_buf_free(&f.key_index);
    return rc;
}

/* Sort all events (§6.1, grouped by writer id) and write one file per
 * writer id. */
static int write_deletes(AcidWriter *w, CombErr *err)
{
    AcidDeleteSet *d = &w->deletes;
    size_t start = 0;
    int rc;
    if (d->n == 0)
        return COMB_OK;
    acid_delete_set_sort_by_writer(d);
    if ((rc = make_dir(&w->delete_dir, err)))
        return rc;
    while (start < d->n) {
        size_t end = start;
        while (end < d->n && d->keys[end].writer == d->keys[start].writer)
            end++;
        if ((rc = write_delete_file(w, d->keys + start, end - start, err)))
            return rc;
        w->n_files++;
        start = end;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- streaming */

int acid_writer_set_write_id(AcidWriter *w, int64_t write_id, CombErr *err)
{
    if (!w->streaming || write_id < w->write_id ||
        write_id > w->max_write_id)
        return comb_err(err, COMB_EINVALID,
                        "write id %" PRId64 " is not next in the streaming "
                        "batch %" PRId64 "..%" PRId64 " of '%s'", write_id,
                        w->min_write_id, w->max_write_id, w->dir);
    if (w->dirty)
        return comb_err(err, COMB_EINVALID,
                        "rows of write id %" PRId64 " in '%s' not flushed",
                        w->write_id, w->dir);
    if (write_id == w->write_id)
        return COMB_OK;
    w->write_id = write_id;
    for (int b = 0; b <= ACID_MAX_BUCKET; b++) {
        InsertFile *f = w->files[b];
        if (!f)
            continue;
        /* rowIds count per write id: a new txn's rows start at 0 */
        f->write_id = write_id;
        f->next_row_id = f->stripe_first = 0;
    }
    return COMB_OK;
}

int64_t acid_writer_next_row_id(const AcidWriter *w, int bucket)
{
    if (bucket < 0 || bucket > ACID_MAX_BUCKET || !w->files[bucket])
        return 0;
    return w->files[bucket]->next_row_id;
}

/* One bucket file: its stripe, the metadata naming it, the footer after
 * it, then the new length in the side file. */
static int flush_insert_file(InsertFile *f, CombErr *err)
{
    char stats[64];
    uint64_t length;
    int rc;
    snprintf(stats, sizeof stats, "%" PRId64 ",0,0", f->n_rows);
    if ((rc = orc_writer_flush_stripe(f->orc, err)) ||
        (rc = set_acid_metadata(f->orc, &f->key_index, stats, true, err)) ||
        (rc = orc_writer_flush_footer(f->orc, &length, err)))
        return rc;
    return acid_flush_length_append(f->side_path, length, false, err);
}

static int sync_dirs(AcidWriter *w, CombErr *err);

int acid_writer_flush(AcidWriter *w, CombErr *err)
{
    int rc;
    if (!w->streaming)
        return comb_err(err, COMB_EINVALID,
                        "acid_writer_flush of a writer that is not streaming");
    for (int b = 0; b <= ACID_MAX_BUCKET; b++)
        if (w->files[b] && (rc = flush_insert_file(w->files[b], err)))
            return rc;
    /* the version file and the entries of files new since the last flush */
    if ((rc = sync_dirs(w, err)))
        return rc;
    w->dirty = false;
    w->flushed = true;
    return COMB_OK;
}

/* The batch's last commit: a last flush puts each file's final tail at
 * its end, so the file reads whole without its side file, which then
 * goes (a failure before that leaves what the side files committed). */
static int close_streaming(AcidWriter *w, CombErr *err)
{
    int rc = acid_writer_flush(w, err);
    for (int b = 0; !rc && b <= ACID_MAX_BUCKET; b++) {
        InsertFile *f = w->files[b];
        if (!f)
            continue;
        if ((rc = fs_unlink(f->side_path, err)))
            break;
        w->files[b] = NULL;
        orc_writer_detach(f->orc);
        free_insert_file(f);
        w->n_files++;
    }
    if (rc || !w->insert_dir.made)
        return rc;
    return fs_fsync_dir(w->insert_dir.path, err);
}

/* ---------------------------------------------------------------- commit */

static int close_inserts(AcidWriter *w, CombErr *err)
{
    int rc = COMB_OK;
    for (int b = 0; b <= ACID_MAX_BUCKET; b++) {
        InsertFile *f = w->files[b];
        char stats[64];
        if (!f)
            continue;
        w->files[b] = NULL;
        snprintf(stats, sizeof stats, "%" PRId64 ",0,0", f->n_rows);
        if (!rc) {
            rc = close_orc(f->orc, &f->key_index, stats, true, err);
            if (!rc)
                w->n_files++;
        } else {
            orc_writer_abort(f->orc);
        }
        free_insert_file(f);
    }
    return rc;
}

/* §1.4, §6.2: INSERT OVERWRITE with no rows still leaves an empty
 * bucket_00000 in the base (row schema, empty key index, no version). */
static int write_empty_base(AcidWriter *w, CombErr *err)
{
    CombBuf empty = COMB_BUF_INIT;
    OrcWriter *orc = NULL;
    int rc;
    if ((rc = make_dir(&w->insert_dir, err)) ||
        (rc = open_orc(w, &w->insert_dir, 0, w->row_type, NULL, NULL,
                       &orc, err)) ||
        (rc = close_orc(orc, &empty, "0,0,0", false, err)))
        return rc;
    w->n_files++;
    return COMB_OK;
}

/* §1.5 version file, then directory fsyncs (durability order above). */
static int sync_dirs(AcidWriter *w, CombErr *err)
{
    MadeDir *dirs[2] = {&w->insert_dir, &w->delete_dir};
    int rc;
    for (int i = 0; i < 2; i++) {
        MadeDir *d = dirs[i];
        char *path;
        if (!d->made || d->synced)
            continue;
        if (!d->versioned) {
            if (!(path = fs_join(&w->arena, d->path, ACID_VERSION_FILE)))
                return comb_err_nomem(err);
            if ((rc = fs_write_file(path, ACID_VERSION, strlen(ACID_VERSION),
                                    err)))
                return rc;
            d->versioned = true;
        }
        if ((rc = fs_fsync_dir(d->path, err)))
            return rc;
        d->synced = true;
    }
    return COMB_OK;
}

static void writer_free(AcidWriter *w)
{
    for (int b = 0; b <= ACID_MAX_BUCKET; b++)
        if (w->files[b]) {
            orc_writer_abort(w->files[b]->orc);
            free_insert_file(w->files[b]);
        }
    orc_writer_group_free(w->own_group);
    stage_free(&w->stage, w->schema.n_cols);
    comb_free(w->order);
    comb_free(w->run);
    comb_free(w->buckets);
    acid_delete_set_free(&w->deletes);
    comb_arena_free(&w->arena);
    comb_free(w);
}

int acid_writer_commit_files(AcidWriter *w, AcidWriteStats *stats,
                             CombErr *err)
{
    bool any_insert = w->n_inserted > 0;
    int rc;
    if (stats)
        memset(stats, 0, sizeof *stats);
    rc = w->streaming ? close_streaming(w, err) : close_inserts(w, err);
    if (!rc && w->base && !any_insert)
        rc = write_empty_base(w, err);
    if (!rc)
        rc = write_deletes(w, err);
    if (!rc)
        rc = sync_dirs(w, err);
    if (rc) {
        acid_writer_abort(w);
        return rc;
    }
    if (stats) {
        stats->n_inserted = w->n_inserted;
        stats->n_deleted = (int64_t)w->deletes.n;
        stats->n_files = w->n_files;
    }
    writer_free(w);
    return COMB_OK;
}

void acid_writer_abort(AcidWriter *w)
{
    CombErr ignored;
    if (!w)
        return;
    if (w->flushed) { /* committed txns of the batch may read these files */
        for (int b = 0; b <= ACID_MAX_BUCKET; b++)
            if (w->files[b]) {
                orc_writer_detach(w->files[b]->orc);
                free_insert_file(w->files[b]);
                w->files[b] = NULL;
            }
        writer_free(w);
        return;
    }
    for (int b = 0; b <= ACID_MAX_BUCKET; b++)
        if (w->files[b]) {
            orc_writer_abort(w->files[b]->orc);
            free_insert_file(w->files[b]);
            w->files[b] = NULL;
        }
    if (w->insert_dir.made)
        fs_remove_tree(w->insert_dir.path, &ignored);
    if (w->delete_dir.made)
        fs_remove_tree(w->delete_dir.path, &ignored);
    writer_free(w);
}
