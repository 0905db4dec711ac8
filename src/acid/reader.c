/*
 * reader.c - merge on read (§6 of hive-acid-storage.md): stream the rows of
 * the chosen base, the kept insert deltas and the original files of a table
 * directory, dropping rows whose currentTransaction is not valid and rows
 * that a valid delete event of a kept delete delta names.
 *
 * Data files are read grouped by bucket (their file-name number).  Before
 * the first file of bucket N, the events of every kept delete delta's
 * bucket_N file are loaded into a sorted key array (§6.3 pairs data file
 * bucket_N with delete files bucket_N); rows probe it with a forward
 * cursor, as every ACID file is sorted by key (§6.1).  One ORC reader and
 * one batch are live at a time, so memory is bounded by the delete events
 * of one bucket, not by the table.
 *
 * Which files a directory holds: in base/delta directories the files named
 * bucket_N[_attempt] (attempt ids as Hive 4 writes them) and, for LOAD DATA
 * output, original names (NNN_N[_copy_K]); other names (e.g. Impala's
 * streaming.orc) are not read, as Hive only reads bucket files there.
 * Whether a file is ACID is decided by its schema (Hive 4, §1.1), so an
 * ACID file at the table root (some engines' test tables) reads as ACID.
 */
#include "acid/acid_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "orc/sarg.h"

/* A data file the scan reads. */
typedef struct ScanFile {
    const char *path;      /* full path, reader arena */
    int bucket;            /* number in the file name */
    int group;             /* directory: synthetic rowIds count per group */
    int seq;               /* position in read order before bucket grouping */
    int64_t synth_wid;     /* writeId of synthetic ROW__IDs (§3 originals) */
    int synth_stmt;        /* statement of synthetic bucket properties */
    bool must_be_acid;     /* delta_x_y with x != y is always ACID (4.3) */
    bool all_valid;        /* every write id of the directory is valid */
    bool side_listed;      /* a _flush_length side file may be there */
} ScanFile;

/* A delete file of a kept delete delta. */
typedef struct DeleteFile {
    const char *path;
    int bucket;
    int seq;
} DeleteFile;

/* Group number of the original files at the table root; base and deltas
 * follow. */
#define GROUP_ROOT 0
#define GROUP_BASE 1
#define GROUP_FIRST_DELTA 2

struct AcidReader {
    CombArena arena;           /* everything below that is not a handle */
    AcidSchema schema;         /* copy of the caller's */
    CombWriteIdList wil;       /* copy: ids heap-owned, table in arena */
    CombIdList txn_copy;       /* copy of the txn list, if given */
    bool *project;             /* per user column */
    bool want_row_id;
    const OrcSarg *sarg;       /* borrowed; NULL none */
    OrcReadCounters counters;  /* of the files closed so far */
    bool compactor;            /* AcidReaderOptions.compactor */
    bool inserts_only;         /* AcidReaderOptions.inserts_only */
    const bool *bucket_mask;   /* AcidReaderOptions.bucket_mask */
    int n_bucket_mask;
    void (*file_opened)(void *ctx, const char *path);
    void *file_opened_ctx;
    AcidMorselWalk *walk;      /* AcidReaderOptions.walk */
    int capacity;              /* rows per batch */
    uint16_t row_numbers[COMB_BATCH_SIZE]; /* 0, 1, 2, ...: selections */
    AcidDirState state;
    ScanFile *files;           /* read order: bucket, then seq */
    int n_files;
    int next_file;             /* index of the next file to open */
    DeleteFile *dfiles;        /* sorted by bucket, then seq */
    int n_dfiles;
    AcidDeleteSet deletes;     /* valid events of deletes_bucket */
    int deletes_bucket;        /* -1: nothing loaded */
    AcidDeleteCursor cursor;

    OrcReadPool *pool;         /* buffers passed from file to file */

    /* the open file */
    OrcReader *orc;            /* NULL between files */
    CombBatch obatch;          /* ORC layout of the open file, kept for the
                                  next file of the same schema */
    bool have_obatch;
    const CombType *obatch_schema; /* what obatch was made for: a copy in
                                      arena (the file's goes with it) */
    const ScanFile *cur;
    bool cur_acid;             /* ACID schema (else original format) */
    bool cur_meta;             /* ACID metadata columns decoded */
    bool const_key;            /* ...but originalTransaction and bucket
                                  not: one value each in the whole file */
    int64_t key_owid;          /* those values when const_key */
    int32_t key_bucket;
    CombArena file_arena;      /* what belongs to the open file */
    AcidConv *convs;           /* per user column: its field, conversion */
    int32_t synth_prop;        /* bucket property of synthetic ROW__IDs */
    int64_t synth_base;        /* synthetic rowId of the file's first row */
    int offset_group;          /* running rowId offset of (group, bucket) */
    int offset_bucket;
    int64_t next_offset;
    CombErr failure;           /* code != 0: the scan failed, for good */
};

/* ------------------------------------------------------------ file lists */

/* Bucket pruning left bucket b out. */
static bool bucket_pruned(const AcidReader *r, int bucket)
{
    return r->bucket_mask && bucket >= 0 && bucket < r->n_bucket_mask &&
           !r->bucket_mask[bucket];
}

static void trace_open(const AcidReader *r, const char *path)
{
    if (r->file_opened)
        r->file_opened(r->file_opened_ctx, path);
}

typedef struct FileLists {
    ScanFile *files;
    int n_files, cap_files;
    DeleteFile *dfiles;
    int n_dfiles, cap_dfiles;
} FileLists;

static int push_file(AcidReader *r, FileLists *l, const ScanFile *f,
                     CombErr *err)
{
    ScanFile *v = acid_arena_grow(&r->arena, l->files, l->n_files,
                                  &l->cap_files, sizeof *v);
    if (!v)
        return comb_err_nomem(err);
    l->files = v;
    v[l->n_files] = *f;
    v[l->n_files].seq = l->n_files;
    l->n_files++;
    return COMB_OK;
}

static int push_delete_file(AcidReader *r, FileLists *l, const char *path,
                            int bucket, CombErr *err)
{
    DeleteFile *v = acid_arena_grow(&r->arena, l->dfiles, l->n_dfiles,
                                    &l->cap_dfiles, sizeof *v);
    if (!v)
        return comb_err_nomem(err);
    l->dfiles = v;
    v[l->n_dfiles] = (DeleteFile){path, bucket, l->n_dfiles};
    l->n_dfiles++;
    return COMB_OK;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* §3: original files at the root read with writeId 0, statement 0. */
static int list_originals(AcidReader *r, const char *dir, FileLists *l,
                          CombErr *err)
{
    for (int i = 0; i < r->state.n_originals; i++) {
        ScanFile f = {0};
        f.path = fs_join(&r->arena, dir, r->state.originals[i]);
        if (!f.path)
            return comb_err_nomem(err);
        if (!acid_data_file_parse(base_name(f.path), &f.bucket))
            return COMB_INTERNAL(err, "original file name not parsable");
        if (bucket_pruned(r, f.bucket))
            continue;
        f.group = GROUP_ROOT;
        f.side_listed = true;
        int rc = push_file(r, l, &f, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

/* The entries of the directory dir/name, whose path goes to *path for
 * joining them to; *is_dir per entry when is_dir is not NULL. */
static int list_subdir(AcidReader *r, const char *dir, const char *name,
                       char **path, char ***names, bool **is_dir, int *n,
                       CombErr *err)
{
    *path = fs_join(&r->arena, dir, name);
    if (!*path)
        return comb_err_nomem(err);
    return fs_list_dir_typed(*path, &r->arena, names, is_dir, n, err);
}

static int cmp_name(const void *key, const void *entry)
{
    return strcmp(key, *(char *const *)entry);
}

/* Whether the sorted listing holds the side file of data file `name`. */
static bool side_file_listed(AcidReader *r, char **names, int n,
                             const char *name)
{
    const char *side = acid_flush_length_path(&r->arena, name);
    return !side || bsearch(side, names, (size_t)n, sizeof *names, cmp_name);
}

/* The data files of one base or insert delta directory; `proto` carries
 * what all of them share.  One listing tells the files from directories
 * and which have a _flush_length side file: a file of a directory whose
 * write ids are all valid in the snapshot and that had no side file when
 * listed (after the snapshot was taken) never gets one.  A streaming
 * writer makes a file's side file before the commit of its first txn,
 * before the snapshot then, and removes it only when it leaves the final
 * footer.  Where some write id is not valid, the side file is looked for
 * when the file is opened, as before. */
static int list_dir_files(AcidReader *r, const char *dir,
                          const AcidParsedDir *d, const ScanFile *proto,
                          FileLists *l, CombErr *err)
{
    char *path, **names;
    bool *is_dir;
    int n;
    int rc = list_subdir(r, dir, d->name, &path, &names, &is_dir, &n, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++) {
        ScanFile f = *proto;
        if (is_dir[i] || acid_name_is_hidden(names[i]) ||
            !acid_data_file_parse(names[i], &f.bucket) ||
            bucket_pruned(r, f.bucket))
            continue;
        f.path = fs_join(&r->arena, path, names[i]);
        if (!f.path)
            return comb_err_nomem(err);
        f.side_listed = !f.all_valid || side_file_listed(r, names, n,
                                                         names[i]);
        if ((rc = push_file(r, l, &f, err)))
            return rc;
    }
    return COMB_OK;
}

/* §3: files in base_W carry writeId W, in delta_min_max[_S] min/S. */
static int list_acid_dirs(AcidReader *r, const char *dir, FileLists *l,
                          CombErr *err)
{
    int rc;
    if (r->state.base && !r->inserts_only) {
        ScanFile proto = {0};
        proto.group = GROUP_BASE;
        proto.synth_wid = r->state.base->max_wid;
        proto.all_valid = true;
        if ((rc = list_dir_files(r, dir, r->state.base, &proto, l, err)))
            return rc;
    }
    for (int i = 0; i < r->state.n_deltas; i++) {
        const AcidParsedDir *d = &r->state.deltas[i];
        ScanFile proto = {0};
        proto.group = GROUP_FIRST_DELTA + i;
        proto.synth_wid = d->min_wid;
        proto.synth_stmt = d->stmt < 0 ? 0 : d->stmt;
        proto.must_be_acid = d->min_wid != d->max_wid;
        proto.all_valid = comb_idlist_range_valid(&r->wil.ids, d->min_wid,
                                                  d->max_wid) ==
                          COMB_RANGE_ALL;
        if ((rc = list_dir_files(r, dir, d, &proto, l, err)))
            return rc;
    }
    return COMB_OK;
}

static int list_delete_files(AcidReader *r, const char *dir, FileLists *l,
                             CombErr *err)
{
    for (int i = 0; i < r->state.n_delete_deltas; i++) {
        char *path, **names;
        int n;
        int rc = list_subdir(r, dir, r->state.delete_deltas[i].name, &path,
                             &names, NULL, &n, err);
        if (rc)
            return rc;
        for (int j = 0; j < n; j++) {
            int bucket;
            char *file;
            if (!acid_bucket_file_parse(names[j], &bucket) ||
                bucket_pruned(r, bucket))
                continue;
            if (!(file = fs_join(&r->arena, path, names[j])))
                return comb_err_nomem(err);
            if ((rc = push_delete_file(r, l, file, bucket, err)))
                return rc;
        }
    }
    return COMB_OK;
}

/* Files sort by bucket, then by their position in read order. */
static int cmp_bucket_seq(int bucket_a, int seq_a, int bucket_b, int seq_b)
{
    if (bucket_a != bucket_b)
        return bucket_a < bucket_b ? -1 : 1;
    return seq_a < seq_b ? -1 : seq_a > seq_b;
}

static int cmp_scan_file(const void *pa, const void *pb)
{
    const ScanFile *a = pa, *b = pb;
    return cmp_bucket_seq(a->bucket, a->seq, b->bucket, b->seq);
}

static int cmp_delete_file(const void *pa, const void *pb)
{
    const DeleteFile *a = pa, *b = pb;
    return cmp_bucket_seq(a->bucket, a->seq, b->bucket, b->seq);
}

/* All files of the scan, grouped by bucket, each group in read order:
 * originals (path order), base, deltas (4.2 order). */
static int build_file_lists(AcidReader *r, const char *dir, CombErr *err)
{
    FileLists l = {0};
    int rc;
    if ((!r->inserts_only && (rc = list_originals(r, dir, &l, err))) ||
        (rc = list_acid_dirs(r, dir, &l, err)) ||
        (!r->inserts_only && (rc = list_delete_files(r, dir, &l, err))))
        return rc;
    if (l.n_files > 1)
        qsort(l.files, (size_t)l.n_files, sizeof *l.files, cmp_scan_file);
    if (l.n_dfiles > 1)
        qsort(l.dfiles, (size_t)l.n_dfiles, sizeof *l.dfiles,
              cmp_delete_file);
    r->files = l.files;
    r->n_files = l.n_files;
    r->dfiles = l.dfiles;
    r->n_dfiles = l.n_dfiles;
    return COMB_OK;
}

/* ------------------------------------------------------------ open/close */

/* On an object store, the tails of every file the reader will open are
 * fetched together before the first (orc_prefetch_tails); a hint, so
 * nothing fails here. */
static void prefetch(AcidReader *r)
{
    int n = r->n_files + r->n_dfiles, k = 0;
    const char **paths;
    if (n < 2 || !fs_is_remote(r->n_files ? r->files[0].path : r->dfiles[0].path) ||
        !(paths = comb_arena_alloc(&r->arena, (size_t)n * sizeof *paths)))
        return;
    for (int i = 0; i < r->n_dfiles; i++)
        paths[k++] = r->dfiles[i].path;
    for (int i = 0; i < r->n_files; i++)
        paths[k++] = r->files[i].path;
    orc_prefetch_tails(paths, n);
}

/* The snapshot may be freed by the caller while the scan runs. */
static int copy_snapshot(AcidReader *r, const CombWriteIdList *wil,
                         const CombTxnList *txns, CombErr *err)
{
    if (wil->table &&
        !(r->wil.table = comb_arena_strdup(&r->arena, wil->table)))
        return comb_err_nomem(err);
    if (comb_idlist_copy(&r->wil.ids, &wil->ids))
        return comb_err_nomem(err);
    r->wil.own_writeid = wil->own_writeid;
    r->wil.own_stmt_limit = wil->own_stmt_limit;
    if (txns && comb_idlist_copy(&r->txn_copy, txns))
        return comb_err_nomem(err);
    return COMB_OK;
}

static int copy_options(AcidReader *r, const AcidReaderOptions *opt,
                        CombErr *err)
{
    int n = r->schema.n_cols;
    r->project = comb_arena_alloc(&r->arena, (size_t)(n ? n : 1));
    r->convs = comb_arena_alloc(&r->arena,
                                (size_t)(n ? n : 1) * sizeof *r->convs);
    if (!r->project || !r->convs)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++)
        r->project[i] = !opt || !opt->project || opt->project[i];
    r->want_row_id = opt && opt->want_row_id;
    r->sarg = opt ? opt->sarg : NULL;
    r->compactor = opt && opt->compactor;
    r->inserts_only = opt && opt->inserts_only;
    if (opt) {
        r->bucket_mask = opt->bucket_mask;
        r->n_bucket_mask = opt->n_bucket_mask;
        r->file_opened = opt->file_opened;
        r->file_opened_ctx = opt->file_opened_ctx;
    }
    r->walk = opt ? opt->walk : NULL;
    return COMB_OK;
}

/* A reader with nothing listed yet; NULL when out of memory. */
static AcidReader *reader_new(void)
{
    AcidReader *r = comb_calloc(1, sizeof *r);
    if (!r)
        return NULL;
    comb_arena_init(&r->arena, 16 * 1024);
    comb_arena_init(&r->file_arena, 4096);
    acid_delete_set_init(&r->deletes);
    r->deletes_bucket = -1;
    r->offset_group = -1;
    r->capacity = COMB_BATCH_SIZE;
    for (int i = 0; i < COMB_BATCH_SIZE; i++)
        r->row_numbers[i] = (uint16_t)i;
    return r;
}

int acid_reader_open(const char *dir, const AcidSchema *schema,
                     const CombWriteIdList *wil, const CombTxnList *txns,
                     const AcidReaderOptions *opt, AcidReader **out,
                     CombErr *err)
{
    AcidReader *r = reader_new();
    int rc;
    *out = NULL;
    if (!r)
        return comb_err_nomem(err);
    if ((rc = acid_schema_copy(&r->arena, schema, &r->schema, err)) ||
        (rc = copy_snapshot(r, wil, txns, err)) ||
        (rc = copy_options(r, opt, err)) ||
        (rc = acid_dir_state_get_opts(dir, &r->wil,
                                      txns ? &r->txn_copy : NULL,
                                      &(AcidDirStateOptions){r->compactor},
                                      &r->arena, &r->state, err)) ||
        (rc = build_file_lists(r, dir, err))) {
        acid_reader_close(r);
        return rc;
    }
    prefetch(r);
    *out = r;
    return COMB_OK;
}

/* The reader without a directory: these files, in this order, each a
 * table's whole data file (plain and insert-only tables). */
static int list_given_files(AcidReader *r, const char *const *paths, int n,
                            CombErr *err)
{
    FileLists l = {0};
    for (int i = 0; i < n; i++) {
        ScanFile f = {0};
        int rc;
        if (!(f.path = comb_arena_strdup(&r->arena, paths[i])))
            return comb_err_nomem(err);
        if (!acid_data_file_parse(base_name(f.path), &f.bucket))
            f.bucket = 0;  /* no number: never pruned */
        else if (bucket_pruned(r, f.bucket))
            continue;
        f.group = GROUP_FIRST_DELTA + i;
        f.all_valid = true;
        f.side_listed = true;
        if ((rc = push_file(r, &l, &f, err)))
            return rc;
    }
    r->files = l.files;
    r->n_files = l.n_files;
    return COMB_OK;
}

int acid_reader_open_files(const char *const *paths, int n,
                           const AcidSchema *schema,
                           const AcidReaderOptions *opt, AcidReader **out,
                           CombErr *err)
{
    static const CombWriteIdList everything = {0};
    AcidReader *r;
    int rc;
    *out = NULL;
    if (opt && opt->want_row_id)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "ROW__ID exists only in full ACID tables");
    if (!(r = reader_new()))
        return comb_err_nomem(err);
    if ((rc = acid_schema_copy(&r->arena, schema, &r->schema, err)) ||
        (rc = copy_snapshot(r, &everything, NULL, err)) ||
        (rc = copy_options(r, opt, err)) ||
        (rc = list_given_files(r, paths, n, err))) {
        acid_reader_close(r);
        return rc;
    }
    prefetch(r);
    *out = r;
    return COMB_OK;
}

static void close_file(AcidReader *r)
{
    if (r->orc) {
        OrcReadCounters c;
        orc_reader_counters(r->orc, &c);
        orc_read_counters_add(&r->counters, &c);
    }
    orc_reader_close(r->orc);
    r->orc = NULL;
    r->cur = NULL;
    comb_arena_reset(&r->file_arena);
}

void acid_reader_close(AcidReader *r)
{
    if (!r)
        return;
    close_file(r);
    if (r->have_obatch)
        comb_batch_free(&r->obatch);
    acid_delete_set_free(&r->deletes);
    orc_read_pool_free(r->pool);
    comb_idlist_free(&r->wil.ids);
    comb_idlist_free(&r->txn_copy);
    comb_arena_free(&r->file_arena);
    comb_arena_free(&r->arena);
    comb_free(r);
}

void acid_reader_counters(const AcidReader *r, OrcReadCounters *out)
{
    *out = r->counters;
    if (r->orc) {
        OrcReadCounters c;
        orc_reader_counters(r->orc, &c);
        orc_read_counters_add(out, &c);
    }
}

const AcidDirState *acid_reader_dir_state(const AcidReader *r)
{
    return &r->state;
}

int acid_reader_batch_init(const AcidReader *r, CombBatch *b)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType integer = {.kind = COMB_T_INT};
    int n = r->schema.n_cols;
    const CombType **types = comb_malloc((size_t)(n + 3) * sizeof *types);
    int rc;
    if (!types)
        return COMB_ENOMEM;
    memcpy(types, r->schema.types, (size_t)n * sizeof *types);
    types[n + ACID_COL_WRITEID] = &bigint;
    types[n + ACID_COL_BUCKET] = &integer;
    types[n + ACID_COL_ROWID] = &bigint;
    rc = comb_batch_init_types(b, n + 3, types, r->capacity);
    comb_free(types);
    return rc;
}

/* ------------------------------------------------------- per-bucket deletes */

/* §6.3: the delete files that apply to data files of bucket N are the
 * bucket_N files of the kept delete deltas. */
static int load_deletes(AcidReader *r, int bucket, CombErr *err)
{
    if (r->deletes_bucket == bucket)
        return COMB_OK;
    acid_delete_set_clear(&r->deletes);
    r->deletes_bucket = -1;
    for (int i = 0; i < r->n_dfiles; i++) {
        int rc;
        if (r->dfiles[i].bucket != bucket)
            continue;
        trace_open(r, r->dfiles[i].path);
        rc = acid_delete_set_load(&r->deletes, r->dfiles[i].path, &r->wil,
                                  bucket, err);
        if (rc)
            return rc;
    }
    acid_delete_set_sort(&r->deletes);
    r->deletes_bucket = bucket;
    return COMB_OK;
}

/* ---------------------------------------------------------- opening a file */

static void include_subtree(const CombType *root, int id, bool *include)
{
    const CombType *t = comb_type_find(root, id);
    if (!t)
        return;
    for (int c = t->id; c <= t->max_id; c++)
        include[c] = true;
}

/* The last metadata column decoded with the key: currentTransaction only
 * where some write id of the directory is not valid (as for skipping the
 * metadata altogether, an all-valid directory's rows are all valid). */
static int last_meta_column(const AcidReader *r)
{
    return r->cur->all_valid ? ACID_ORC_ROWID : ACID_ORC_CURRENT;
}

/* Decode the projected user columns and, when needed, the metadata. */
static int select_columns(AcidReader *r, const CombType *row, CombErr *err)
{
    const CombType *root = orc_reader_schema(r->orc);
    int n = orc_reader_n_columns(r->orc), rc;
    bool *include = comb_calloc((size_t)n, sizeof *include);
    if (!include)
        return comb_err_nomem(err);
    include[0] = true;
    for (int i = 0; i < r->schema.n_cols; i++)
        if (r->project[i] && r->convs[i].field >= 0)
            include_subtree(root, row->children[r->convs[i].field]->id,
                            include);
    if (r->cur_meta)
        for (int c = ACID_ORC_OWID; c <= last_meta_column(r); c++)
            include[c] = !r->const_key ||
                         (c != ACID_ORC_OWID && c != ACID_ORC_BUCKET);
    rc = orc_reader_select(r->orc, include, err);
    comb_free(include);
    return rc;
}

/* §3: synthetic ROW__IDs of an original file: rowIds run on across the
 * files of one bucket in one directory, in path order. */
static int start_synthetic_ids(AcidReader *r, CombErr *err)
{
    const ScanFile *f = r->cur;
    if (r->offset_group != f->group || r->offset_bucket != f->bucket) {
        r->offset_group = f->group;
        r->offset_bucket = f->bucket;
        r->next_offset = 0;
    }
    r->synth_base = r->next_offset;
    r->next_offset += (int64_t)orc_reader_n_rows(r->orc);
    if (acid_bucket_encode(f->bucket, f->synth_stmt, &r->synth_prop, err)) {
        if (r->want_row_id || r->deletes.n > 0)
            return comb_err_prefix(err, "original file '%s': ", f->path);
        r->synth_prop = 0; /* no row id is ever looked at */
    }
    return COMB_OK;
}

/* Decimal digits an integer kind needs; 0 for other kinds. */
static int int_digits(CombTypeKind k)
{
    switch (k) {
    case COMB_T_TINYINT: return 3;
    case COMB_T_SMALLINT: return 5;
    case COMB_T_INT: return 10;
    case COMB_T_BIGINT: return 19;
    default: return 0;
    }
}

/* Whether a search argument leaf over a table column may be tested on the
 * file column's statistics and bloom filters (orc/sarg.c compares file
 * integers as longs, doubles or decimals and file decimals at their own
 * scale): the values the scan sees are the file's values, none made NULL,
 * in the same order.  So: a copy, a CHAR(n) of a CHAR(n) file (re-padded
 * to the same length), integer widening, an integer read as a double
 * (rounding beyond 2^53 keeps the order, and the bounds convert alike)
 * or as a decimal that holds every value of its kind, and decimal
 * widening.  Not: narrowing (values out of range read as NULL), fewer
 * decimals (rounded values fall outside the file's bounds), integers read
 * as float (rounded to float, bounds to double), cut strings, text forms. */
static bool sarg_safe(const AcidConv *conv)
{
    const CombType *f = conv->from, *t = conv->to;
    switch (conv->kind) {
    case ACID_CONV_COPY:
        return true;
    case ACID_CONV_STR:
        return f->kind == COMB_T_CHAR && t->kind == COMB_T_CHAR &&
               f->max_length == t->max_length;
    case ACID_CONV_INT:
        return int_digits(t->kind) >= int_digits(f->kind);
    case ACID_CONV_INT_FLOAT:
        return t->kind == COMB_T_DOUBLE;
    case ACID_CONV_INT_DEC:
        return (int)t->precision - (int)t->scale >= int_digits(f->kind);
    case ACID_CONV_DEC:
        return t->scale >= f->scale &&
               t->precision - t->scale >= f->precision - f->scale;
    default:
        return false;
    }
}

/* The search argument's leaves mapped to this file's ORC column ids: a
 * column read as stored or through a conversion sarg_safe allows can be
 * tested on its statistics; a missing or otherwise converted one cannot. */
static int push_sarg(AcidReader *r, const CombType *row, CombErr *err)
{
    const OrcSarg *s = r->sarg;
    int *cols;
    if (!s || s->n_leaves == 0)
        return COMB_OK;
    if (!(cols = comb_arena_alloc(&r->file_arena,
                                  (size_t)s->n_leaves * sizeof *cols)))
        return comb_err_nomem(err);
    for (int i = 0; i < s->n_leaves; i++) {
        int c = s->leaves[i].column;
        const AcidConv *conv = c >= 0 && c < r->schema.n_cols ? &r->convs[c]
                                                               : NULL;
        cols[i] = conv && conv->field >= 0 && sarg_safe(conv)
                      ? row->children[conv->field]->id
                      : -1;
    }
    return orc_reader_set_sarg(r->orc, s, cols, err);
}

bool acid_morsel_take(AcidMorselWalk *w)
{
    /* a claim is taken only when the last one was used, so it is never
     * behind the walk: claims grow, and the walk is past every number
     * handed out before its last use */
    if (!w->claimed) {
        w->claim = atomic_fetch_add(&w->shared->next, 1);
        w->claimed = true;
    }
    if (w->seq++ != w->claim)
        return false;
    w->claimed = false;
    w->last = w->claim;
    return true;
}

static bool stripe_gate(void *walk)
{
    return acid_morsel_take(walk);
}

/* The integer range of a metadata column from the file's statistics;
 * false when they do not give one. */
static bool meta_range(const AcidReader *r, int column, int64_t *lo,
                       int64_t *hi)
{
    OrcColumnStats st;
    if (orc_reader_column_stats(r->orc, column, &st) || !st.has_int)
        return false;
    *lo = st.int_min;
    *hi = st.int_max;
    return true;
}

/* Whether a loaded delete event may name a row of the open ACID file.
 * As Hive's merger bounds the delete events it reads by the data file's
 * key interval: the file's keys lie in the box its statistics give for
 * originalTransaction, bucket and rowId (narrowed level by level while
 * the levels above are one value), so with no event inside the box the
 * deletes miss every row and the metadata columns need not be decoded
 * for them.  Without usable statistics they may hit. */
static bool deletes_may_hit(const AcidReader *r)
{
    int64_t o_lo, o_hi, b_lo, b_hi, w_lo, w_hi;
    AcidKey lo = {.bucket = INT32_MIN, .row_id = INT64_MIN};
    AcidKey hi = {.bucket = INT32_MAX, .row_id = INT64_MAX};
    if (r->deletes.n == 0)
        return false;
    if (!meta_range(r, ACID_ORC_OWID, &o_lo, &o_hi) ||
        !meta_range(r, ACID_ORC_BUCKET, &b_lo, &b_hi) ||
        !meta_range(r, ACID_ORC_ROWID, &w_lo, &w_hi) || b_lo < INT32_MIN ||
        b_hi > INT32_MAX)
        return true;
    lo.owid = o_lo;
    hi.owid = o_hi;
    if (o_lo == o_hi) {
        lo.bucket = (int32_t)b_lo;
        hi.bucket = (int32_t)b_hi;
        if (b_lo == b_hi) {
            lo.row_id = w_lo;
            hi.row_id = w_hi;
        }
    }
    return acid_delete_set_overlaps(&r->deletes, &lo, &hi);
}

/* v and its children borrow their types from t. */
static void bind_types(CombVector *v, const CombType *t)
{
    v->type = t;
    for (int i = 0; i < v->n_children; i++)
        bind_types(&v->children[i], t->children[i]);
}

/* The ORC batch for the open file, whose root is a struct: the last
 * file's when its schema is the same (the vectors of a delta's thousand
 * rows are not allocated and zeroed again for each of many deltas).  Its
 * vectors borrow the types of a copy that lives as long as the batch. */
static int file_batch(AcidReader *r, const CombType *root, CombErr *err)
{
    if (r->have_obatch && comb_type_equal(r->obatch_schema, root))
        return COMB_OK;
    if (r->have_obatch)
        comb_batch_free(&r->obatch);
    r->have_obatch = false;
    if (!(r->obatch_schema = comb_type_copy(&r->arena, root)) ||
        orc_reader_batch_init(r->orc, &r->obatch, r->capacity))
        return comb_err_nomem(err);
    r->have_obatch = true;
    for (int i = 0; i < r->obatch.n_cols; i++)
        bind_types(&r->obatch.cols[i], r->obatch_schema->children[i]);
    return COMB_OK;
}

/* Whether the open file's statistics say that every row has the same
 * originalTransaction and bucket property (a delta of one write id and
 * one statement: each file is one writer's), and which. */
static bool file_key_constants(const AcidReader *r, int64_t *owid,
                               int32_t *bucket)
{
    int64_t b;
    if (!acid_file_column_constant(r->orc, ACID_ORC_OWID, owid) ||
        !acid_file_column_constant(r->orc, ACID_ORC_BUCKET, &b) ||
        b < INT32_MIN || b > INT32_MAX)
        return false;
    *bucket = (int32_t)b;
    return true;
}


/* Whether the loaded delete events name every row of the open ACID file:
 * its statistics give one originalTransaction and bucket and, with a
 * rowId for every row, the range those rowIds lie in, and each key of
 * that range is deleted.  No row could survive, so the file is not read
 * (a delta that a DELETE or UPDATE emptied). */
static bool file_all_deleted(const AcidReader *r, bool key_constants)
{
    OrcColumnStats w;
    if (r->deletes.n == 0 || !key_constants ||
        orc_reader_column_stats(r->orc, ACID_ORC_ROWID, &w) || !w.has_int ||
        w.has_null || w.n_values != orc_reader_n_rows(r->orc))
        return false;
    return acid_delete_set_covers(&r->deletes, r->key_owid, r->key_bucket,
                                  w.int_min, w.int_max);
}

static int open_file(AcidReader *r, const ScanFile *f, CombErr *err)
{
    const CombType *root, *row;
    bool key_constants;
    int rc;
    if ((rc = load_deletes(r, f->bucket, err)))
        return rc;
    trace_open(r, f->path);
    if (!r->pool && !(r->pool = orc_read_pool_new()))
        return comb_err_nomem(err);
    if ((rc = acid_data_file_open_listed(f->path, f->side_listed, r->pool,
                                         &r->orc, err)) ||
        !r->orc)
        return rc; /* !r->orc: a streaming file with nothing committed */
    r->cur = f;
    root = orc_reader_schema(r->orc);
    r->cur_acid = acid_schema_is_acid(root);
    if (f->must_be_acid && !r->cur_acid)
        return COMB_CORRUPT(err, f->path, "file of a multi-write-id delta "
                                          "without the ACID schema");
    row = r->cur_acid ? root->children[ACID_FIELD_ROW] : root;
    if (!r->cur_acid && root->kind != COMB_T_STRUCT)
        return COMB_CORRUPT(err, f->path, "root type is not a struct");
    if ((rc = acid_map_columns(&r->file_arena, row, &r->schema, f->path,
                               r->convs, err)))
        return rc;
    key_constants = r->cur_acid &&
                    file_key_constants(r, &r->key_owid, &r->key_bucket);
    if (r->cur_acid && file_all_deleted(r, key_constants)) {
        close_file(r); /* next_rows goes on with the next file */
        return COMB_OK;
    }
    /* §6.4 step 4: the metadata may be skipped when nothing needs it */
    r->cur_meta = r->cur_acid &&
                  (r->want_row_id || !f->all_valid || deletes_may_hit(r));
    /* with constant keys only the rowIds are decoded to match delete
     * events, the two constants stand for the rest; not when ROW__IDs are
     * wanted (they are copied from the vectors) */
    r->const_key = r->cur_meta && !r->want_row_id && key_constants;
    if ((rc = select_columns(r, row, err)) || (rc = push_sarg(r, row, err)))
        return rc;
    if (r->walk)
        orc_reader_set_gate(r->orc, stripe_gate, r->walk);
    if ((rc = file_batch(r, root, err)))
        return rc;
    acid_delete_cursor_reset(&r->cursor);
    if (!r->cur_acid)
        return start_synthetic_ids(r, err);
    return COMB_OK;
}

/* ------------------------------------------------------------ batch fill */

static void set_all_null(CombVector *v, int n)
{
    memset(v->nulls, 1, (size_t)n);
    v->has_nulls = true;
}

/* The file's vectors of the row fields (the `row` struct's children, or
 * an original file's columns), converted into the table's. */
static int fill_user_columns(AcidReader *r, CombBatch *b, int n,
                             CombErr *err)
{
    const CombVector *fields = r->cur_acid
                                   ? r->obatch.cols[ACID_FIELD_ROW].children
                                   : r->obatch.cols;
    for (int i = 0; i < r->schema.n_cols; i++) {
        const AcidConv *c = &r->convs[i];
        int rc;
        if (!r->project[i] || c->field < 0) {
            set_all_null(&b->cols[i], n);
            continue;
        }
        if ((rc = acid_conv_apply(c, &fields[c->field], &b->cols[i], n,
                                  &b->arena, err)))
            return rc;
    }
    return COMB_OK;
}

/* The synthetic ROW__ID of row `row` of an original file (§3). */
static void synthetic_key(const AcidReader *r, int row, uint64_t first_row,
                          AcidKey *k)
{
    k->owid = r->cur->synth_wid;
    k->bucket = r->synth_prop;
    k->row_id = r->synth_base + (int64_t)first_row + row;
}

/* §6.3 for an original file: its rows' implied currentTransaction is
 * their synthetic writeId; live rows go to the selection vector. */
static int filter_original_rows(AcidReader *r, CombBatch *b, int n,
                                uint64_t first_row)
{
    int base = r->schema.n_cols, n_sel = 0;
    bool valid = comb_idlist_is_valid(&r->wil.ids, r->cur->synth_wid);
    CombVector *wid = &b->cols[base + ACID_COL_WRITEID];
    CombVector *bkt = &b->cols[base + ACID_COL_BUCKET];
    CombVector *rid = &b->cols[base + ACID_COL_ROWID];
    for (int row = 0; row < n; row++) {
        AcidKey k = {0};
        synthetic_key(r, row, first_row, &k);
        if (r->want_row_id) {
            wid->i64[row] = k.owid;
            bkt->i64[row] = k.bucket;
            rid->i64[row] = k.row_id;
        }
        if (!valid || acid_delete_set_contains(&r->deletes, &r->cursor, &k))
            continue;
        b->sel[n_sel++] = (uint16_t)row;
    }
    if (n_sel < n) {
        b->use_sel = true;
        b->n_sel = n_sel;
    }
    return COMB_OK;
}

/* The metadata columns are never NULL (§1.1); the decoded ones are
 * checked once per batch. */
static int check_meta_nulls(const AcidReader *r, int n, CombErr *err)
{
    int last = last_meta_column(r) - ACID_ORC_OWID + ACID_FIELD_OWID;
    for (int c = r->const_key ? ACID_FIELD_ROWID : ACID_FIELD_OWID; c <= last;
         c++) {
        const CombVector *v = &r->obatch.cols[c];
        if (v->has_nulls && memchr(v->nulls, 1, (size_t)n))
            return COMB_CORRUPT(err, r->cur->path,
                                "NULL in an ACID metadata column");
    }
    return COMB_OK;
}

/* drop[row] = 1 for the rows a delete event names.  The batch is cut into
 * runs of one (originalTransaction, bucket) with rising rowIds, each
 * merged with the sorted events (a sorted file is one run per write id
 * and bucket; any order stays correct, only with shorter runs). */
static void mark_deleted(AcidReader *r, int n, uint8_t *drop)
{
    const CombBatch *ob = &r->obatch;
    const int64_t *owid = ob->cols[ACID_FIELD_OWID].i64;
    const int64_t *bkt = ob->cols[ACID_FIELD_BUCKET].i64;
    const int64_t *rid = ob->cols[ACID_FIELD_ROWID].i64;
    if (r->const_key) {
        /* one (originalTransaction, bucket): runs end only where rowIds
         * stop rising */
        for (int i = 0, j; i < n; i = j) {
            for (j = i + 1; j < n && rid[j] > rid[j - 1]; j++)
                ;
            acid_delete_set_mark_run(&r->deletes, &r->cursor, r->key_owid,
                                     r->key_bucket, rid + i, j - i, drop + i);
        }
        return;
    }
    for (int i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && owid[j] == owid[i] &&
                        (int32_t)bkt[j] == (int32_t)bkt[i] &&
                        rid[j] > rid[j - 1];
             j++)
            ;
        acid_delete_set_mark_run(&r->deletes, &r->cursor, owid[i],
                                 (int32_t)bkt[i], rid + i, j - i, drop + i);
    }
}

/* Two rowIds at a time: SSE2 (x86-64's baseline) has the 64-bit xor,
 * or and add the check below needs. */
typedef uint64_t U64x2 __attribute__((vector_size(16)));

/* Whether rowIds rid[0..n) are rid[0], rid[0] + 1, ... (an insert
 * file's are): each xor-ed with its expected value, the results or-ed,
 * without a branch per row (under three instructions a row). */
static bool consecutive(const int64_t *rid, int n)
{
    U64x2 want0 = {(uint64_t)rid[0], (uint64_t)rid[0] + 1};
    U64x2 want1 = want0 + 2, acc = {0, 0};
    uint64_t bad;
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        U64x2 v0, v1;
        memcpy(&v0, rid + i, sizeof v0);
        memcpy(&v1, rid + i + 2, sizeof v1);
        acc |= (v0 ^ want0) | (v1 ^ want1);
        want0 += 4;
        want1 += 4;
    }
    bad = acc[0] | acc[1];
    for (; i < n; i++)
        bad |= (uint64_t)rid[i] ^ ((uint64_t)rid[0] + (uint64_t)i);
    return bad == 0;
}

/* Whether the batch's n rowIds rid[] are rid[0], rid[0] + 1, ...: known
 * from the runs the ORC decoder took them from (an insert file's rowIds
 * are fixed-step runs), else checked value by value. */
static bool rowids_consecutive(const AcidReader *r, const int64_t *rid, int n)
{
    return orc_reader_column_streak(r->orc, ACID_ORC_ROWID) >= (uint64_t)n ||
           consecutive(rid, n);
}

/* The rows of rowIds rid0 .. rid0 + n - 1 but those of the `k` sorted,
 * distinct keys in that range (`dead`) into the selection vector, each
 * stretch between two of them copied from the reader's 0, 1, 2, ... */
static void select_around(const AcidReader *r, CombBatch *b, int n,
                          int64_t rid0, const AcidKey *dead, size_t k)
{
    int n_sel = 0, row = 0;
    for (size_t i = 0; i <= k; i++) {
        int gone = i < k ? (int)(dead[i].row_id - rid0) : n;
        memcpy(b->sel + n_sel, r->row_numbers + row,
               (size_t)(gone - row) * sizeof *b->sel);
        n_sel += gone - row;
        row = gone + 1;
    }
    b->use_sel = true;
    b->n_sel = n_sel;
}

/* §6.3 for the common batch of an insert delta: every row valid (an
 * all-valid directory), one (originalTransaction, bucket) for the file,
 * consecutive rowIds.  The delete events in the batch's key range name
 * their rows directly: no per-row flags, and no selection at all when
 * there are none.  False (nothing done) for any other batch. */
static bool filter_insert_run(AcidReader *r, CombBatch *b, int n)
{
    const int64_t *rid = r->obatch.cols[ACID_FIELD_ROWID].i64;
    size_t first, k;
    /* rid[n - 1] < rid[0]: consecutive only by wrapping past INT64_MAX
     * (no writer makes that file; the merge row by row reads it) */
    if (!r->cur->all_valid || !r->const_key || r->want_row_id ||
        !rowids_consecutive(r, rid, n) || rid[n - 1] < rid[0])
        return false;
    k = acid_delete_set_span(&r->deletes, &r->cursor, r->key_owid,
                             r->key_bucket, rid[0], rid[n - 1], &first);
    if (k > 0)
        select_around(r, b, n, rid[0], r->deletes.keys + first, k);
    return true;
}

static bool one_value(const int64_t *v, int n)
{
    bool same = true;
    for (int i = 1; i < n; i++)
        same &= v[i] == v[0];
    return same;
}

/* §6.3 for an ACID file: keep a row iff its event is valid and no valid
 * delete names it; live rows go to the selection vector. */
static int filter_acid_rows(AcidReader *r, CombBatch *b, int n,
                            CombErr *err)
{
    const CombBatch *ob = &r->obatch;
    const int64_t *current = ob->cols[ACID_FIELD_CURRENT].i64;
    int base = r->schema.n_cols, n_sel = 0, rc;
    int64_t last_current = 0;
    bool last_valid = false;
    uint8_t drop[COMB_BATCH_SIZE];
    if (n > COMB_BATCH_SIZE)
        return COMB_INTERNAL(err, "ACID batch larger than COMB_BATCH_SIZE");
    if ((rc = check_meta_nulls(r, n, err)))
        return rc;
    if (filter_insert_run(r, b, n))
        return COMB_OK;
    if (r->cur->all_valid) {
        memset(drop, 0, (size_t)n); /* currentTransaction not decoded */
    } else if (one_value(current, n)) {
        /* the rows of a delta share their write id: look it up once */
        memset(drop, !comb_idlist_is_valid(&r->wil.ids, current[0]),
               (size_t)n);
    } else {
        for (int row = 0; row < n; row++) {
            if (row == 0 || current[row] != last_current) {
                last_current = current[row];
                last_valid = comb_idlist_is_valid(&r->wil.ids, last_current);
            }
            drop[row] = !last_valid;
        }
    }
    if (r->deletes.n > 0)
        mark_deleted(r, n, drop);
    if (r->want_row_id) {
        CombVector *bkt = &b->cols[base + ACID_COL_BUCKET];
        memcpy(b->cols[base + ACID_COL_WRITEID].i64,
               ob->cols[ACID_FIELD_OWID].i64, (size_t)n * sizeof(int64_t));
        memcpy(b->cols[base + ACID_COL_ROWID].i64,
               ob->cols[ACID_FIELD_ROWID].i64, (size_t)n * sizeof(int64_t));
        for (int row = 0; row < n; row++)
            bkt->i64[row] = (int32_t)ob->cols[ACID_FIELD_BUCKET].i64[row];
    }
    for (int row = 0; row < n; row++) {
        b->sel[n_sel] = (uint16_t)row; /* kept unless dropped */
        n_sel += !drop[row];
    }
    if (n_sel < n) {
        b->use_sel = true;
        b->n_sel = n_sel;
    }
    return COMB_OK;
}

static int fill_batch(AcidReader *r, CombBatch *b, uint64_t first_row,
                      CombErr *err)
{
    int n = r->obatch.n_rows, base = r->schema.n_cols, rc;
    b->n_rows = n;
    if ((rc = fill_user_columns(r, b, n, err)))
        return rc;
    for (int c = 0; c < 3; c++)
        if (!r->want_row_id)
            set_all_null(&b->cols[base + c], n);
    if (!r->cur_acid && !r->want_row_id && r->deletes.n == 0) {
        /* an original file with nothing deleted: its one write id decides
         * for every row, so no row is looked at */
        if (!comb_idlist_is_valid(&r->wil.ids, r->cur->synth_wid)) {
            b->use_sel = true;
            b->n_sel = 0;
        }
        return COMB_OK;
    }
    if (!r->cur_acid)
        return filter_original_rows(r, b, n, first_row);
    if (r->cur_meta)
        return filter_acid_rows(r, b, n, err);
    return COMB_OK; /* valid directory, no deletes, no ROW__ID wanted */
}

/* A failed scan keeps failing: skipping the bad file would return a
 * wrong answer that looks right. */
static int scan_failed(AcidReader *r, int rc, CombErr *err)
{
    close_file(r);
    if (err)
        r->failure = *err;
    r->failure.code = rc;
    return rc;
}

static int next_rows(AcidReader *r, CombBatch *b, CombErr *err)
{
    int rc;
    for (;;) {
        uint64_t first_row;
        if (!r->orc) {
            if (r->next_file == r->n_files)
                return COMB_OK; /* end: n_rows == 0 */
            if ((rc = open_file(r, &r->files[r->next_file++], err)))
                return rc;
            if (!r->orc)
                continue;
        }
        if ((rc = orc_reader_next(r->orc, &r->obatch, err)))
            return rc;
        /* after the read: groups skipped before it count as rows */
        first_row = orc_reader_batch_row(r->orc);
        if (r->obatch.n_rows > 0)
            return fill_batch(r, b, first_row, err);
        close_file(r);
    }
}

const char *acid_reader_batch_path(const AcidReader *r)
{
    return r->cur ? r->cur->path : NULL;
}

int acid_reader_next(AcidReader *r, CombBatch *b, CombErr *err)
{
    int rc;
    if (r->failure.code) {
        if (err)
            *err = r->failure;
        return r->failure.code;
    }
    if (b->n_cols != r->schema.n_cols + 3 || b->capacity < r->capacity)
        return comb_err(err, COMB_EINVALID,
                        "batch not made by acid_reader_batch_init");
    comb_batch_reset(b);
    rc = next_rows(r, b, err);
    return rc ? scan_failed(r, rc, err) : COMB_OK;
}
