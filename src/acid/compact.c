/*
 * compact.c - the file half of compaction (hive-acid-transactions.md 4.2):
 * a major compaction merges the base and deltas a compactor's snapshot
 * chooses into one base_<hwm>_v<txn>, a minor one the deltas after the
 * base into delta_<min>_<hwm>_v<txn> and delete_delta_<min>_<hwm>_v<txn>.
 * The metastore half (queue, the compactor's txn, the cleaner) is
 * compactor/'s; this file only reads and writes directories.
 *
 * Rows stream from the merge-on-read reader into a writer that keeps
 * their ROW__IDs (AcidWriterOptions.keep_row_ids): the reader emits each
 * bucket's rows in key order (base, then deltas in order, every file
 * sorted, §6.1), which is the order the output files need.  Delete events
 * of a minor compaction are loaded file by file, filtered by the
 * compactor's list (aborted events dropped) and written sorted at commit.
 */
#include "acid/acid_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "fs/fs.h"

/* Hive's Worker.isEnoughToCompact. */
static bool enough_to_compact(const AcidDirState *st, bool major)
{
    int n_deltas = st->n_deltas + st->n_delete_deltas;
    if (major)
        return st->n_originals > 0 ||
               n_deltas + (st->base ? 1 : 0) > 1;
    if (n_deltas < 2)
        return false;
    /* one delta and the delete delta of the same write (an UPDATE) */
    return !(n_deltas == 2 && st->n_deltas == 1 &&
             st->deltas[0].min_wid == st->delete_deltas[0].min_wid &&
             st->deltas[0].max_wid == st->delete_deltas[0].max_wid);
}

/* The lowest write id the deltas after the base cover. */
static int64_t deltas_min_wid(const AcidDirState *st)
{
    int64_t min = INT64_MAX;
    for (int i = 0; i < st->n_deltas; i++)
        if (st->deltas[i].min_wid < min)
            min = st->deltas[i].min_wid;
    for (int i = 0; i < st->n_delete_deltas; i++)
        if (st->delete_deltas[i].min_wid < min)
            min = st->delete_deltas[i].min_wid;
    return min;
}

/* Stream the reader's rows, ROW__IDs and all, into the writer. */
static int copy_rows(AcidReader *r, AcidWriter *w, const AcidCompactSpec *spec,
                     int64_t *n_rows, CombErr *err)
{
    CombBatch b;
    int rc;
    if (acid_reader_batch_init(r, &b))
        return comb_err_nomem(err);
    for (;;) {
        if ((rc = acid_reader_next(r, &b, err)) || b.n_rows == 0)
            break;
        if ((rc = acid_writer_insert(w, &b, NULL, err)))
            break;
        *n_rows += comb_batch_live(&b);
        if (spec->progress) {
            OrcReadCounters rd;
            acid_reader_counters(r, &rd);
            if ((rc = spec->progress(spec->progress_ctx, *n_rows,
                                     (int64_t)rd.bytes_read, err)))
                break;
        }
    }
    comb_batch_free(&b);
    return rc;
}

/* Minor: every valid event of the kept delete deltas into the writer. */
static int copy_delete_events(const char *dir, const AcidDirState *st,
                              const CombWriteIdList *cwil, AcidWriter *w,
                              CombArena *a, int64_t *n_events, CombErr *err)
{
    AcidDeleteSet set;
    int rc = COMB_OK;
    acid_delete_set_init(&set);
    for (int i = 0; !rc && i < st->n_delete_deltas; i++) {
        char *path = fs_join(a, dir, st->delete_deltas[i].name), **names;
        int n = 0;
        if (!path) {
            rc = comb_err_nomem(err);
            break;
        }
        rc = fs_list_dir(path, a, &names, &n, err);
        for (int j = 0; !rc && j < n; j++) {
            int bucket;
            char *file;
            if (!acid_bucket_file_parse(names[j], &bucket))
                continue;
            if (!(file = fs_join(a, path, names[j]))) {
                rc = comb_err_nomem(err);
                break;
            }
            acid_delete_set_clear(&set);
            rc = acid_delete_set_load(&set, file, cwil, bucket, err);
            for (size_t k = 0; !rc && k < set.n; k++)
                rc = acid_writer_delete(w, set.keys[k].owid,
                                        set.keys[k].bucket,
                                        set.keys[k].row_id, err);
            *n_events += (int64_t)set.n;
        }
    }
    acid_delete_set_free(&set);
    return rc;
}

static int open_output(const char *dir, const AcidSchema *schema,
                       const AcidCompactSpec *spec, int64_t min_wid,
                       CombArena *a, AcidWriter **w, AcidCompactResult *out,
                       CombErr *err)
{
    AcidWriterOptions o;
    memset(&o, 0, sizeof o);
    o.keep_row_ids = true;
    o.base = spec->major;
    if (spec->major) {
        out->insert_dir = acid_dir_name_vis(a, ACID_DIR_BASE, spec->hwm,
                                            spec->hwm, -1,
                                            spec->visibility_txn);
    } else {
        out->insert_dir = acid_dir_name_vis(a, ACID_DIR_DELTA, min_wid,
                                            spec->hwm, -1,
                                            spec->visibility_txn);
        out->delete_dir = acid_dir_name_vis(a, ACID_DIR_DELETE_DELTA,
                                            min_wid, spec->hwm, -1,
                                            spec->visibility_txn);
        if (!out->delete_dir)
            return comb_err_nomem(err);
    }
    if (!out->insert_dir)
        return comb_err_nomem(err);
    o.insert_dir_name = out->insert_dir;
    o.delete_dir_name = out->delete_dir;
    return acid_writer_open_opts(dir, schema, spec->hwm, -1, spec->compression,
                                 &o, w, err);
}

static int note_written(CombArena *a, AcidCompactResult *out,
                        char *name, CombErr *err)
{
    char **v;
    if (!name)
        return COMB_OK;
    v = comb_arena_alloc(a, (size_t)(out->n_written + 1) * sizeof *v);
    if (!v)
        return comb_err_nomem(err);
    if (out->n_written)
        memcpy(v, out->written, (size_t)out->n_written * sizeof *v);
    v[out->n_written++] = name;
    out->written = v;
    return COMB_OK;
}

/* One compaction as the spec says, no passes. */
static int compact_pass(const char *dir, const AcidSchema *schema,
                        const CombWriteIdList *cwil, const CombTxnList *txns,
                        const AcidCompactSpec *spec, CombArena *a,
                        AcidCompactResult *out, CombErr *err)
{
    AcidReaderOptions ro = {.want_row_id = true, .compactor = true,
                            .inserts_only = !spec->major};
    AcidReader *r = NULL;
    AcidWriter *w = NULL;
    const AcidDirState *st;
    AcidWriteStats stats;
    int rc;
    if ((rc = acid_reader_open(dir, schema, cwil, txns, &ro, &r, err)))
        return rc;
    st = acid_reader_dir_state(r);
    out->enough = enough_to_compact(st, spec->major);
    out->cleanable = st->n_obsolete > 0 || st->n_aborted > 0;
    if (!out->enough) {
        acid_reader_close(r);
        return COMB_OK;
    }
    out->n_dirs_read = st->n_deltas + st->n_delete_deltas + (st->base ? 1 : 0);
    rc = open_output(dir, schema, spec, deltas_min_wid(st), a, &w, out, err);
    if (!rc)
        rc = copy_rows(r, w, spec, &out->n_rows, err);
    if (!rc && !spec->major)
        rc = copy_delete_events(dir, st, cwil, w, a, &out->n_deletes, err);
    acid_reader_close(r);
    if (rc) {
        acid_writer_abort(w);
        return rc;
    }
    if ((rc = acid_writer_commit_files(w, &stats, err)))
        return rc;
    /* a side that got nothing was never created */
    if (!spec->major && stats.n_inserted == 0)
        out->insert_dir = NULL;
    if (!spec->major && stats.n_deleted == 0)
        out->delete_dir = NULL;
    if ((rc = note_written(a, out, out->insert_dir, err)))
        return rc;
    return note_written(a, out, out->delete_dir, err);
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t x = *(const int64_t *)pa, y = *(const int64_t *)pb;
    return x < y ? -1 : x > y;
}

/* The write id that caps the oldest `max` deltas of st (insert and delete
 * deltas by their highest write id), or 0 when there are no more than
 * max. */
static int64_t pass_cap(const AcidDirState *st, int max, CombArena *a)
{
    int n = st->n_deltas + st->n_delete_deltas, k = 0;
    int64_t *ids;
    if (n <= max || !(ids = comb_arena_alloc(a, (size_t)n * sizeof *ids)))
        return 0;
    for (int i = 0; i < st->n_deltas; i++)
        ids[k++] = st->deltas[i].max_wid;
    for (int i = 0; i < st->n_delete_deltas; i++)
        ids[k++] = st->delete_deltas[i].max_wid;
    qsort(ids, (size_t)n, sizeof *ids, cmp_i64);
    return ids[max - 1];
}

/* cwil with its high watermark lowered to cap. */
static int capped_list(const CombWriteIdList *cwil, int64_t cap,
                       CombWriteIdList *out, CombErr *err)
{
    memset(out, 0, sizeof *out);
    if (comb_idlist_aborted_upto(&cwil->ids, cap, &out->ids))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* hive.compactor.max.num.delta: minor passes over the oldest deltas while
 * more than spec->max_deltas are left. */
static int backlog_passes(const char *dir, const AcidSchema *schema,
                          const CombWriteIdList *cwil,
                          const CombTxnList *txns,
                          const AcidCompactSpec *spec, CombArena *a,
                          AcidCompactResult *out, CombErr *err)
{
    AcidDirStateOptions o = {true};
    for (;;) {
        AcidDirState st;
        CombWriteIdList capped;
        AcidCompactSpec pass = *spec;
        AcidCompactResult res;
        int64_t cap;
        int rc = acid_dir_state_get_opts(dir, cwil, txns, &o, a, &st, err);
        if (rc)
            return rc;
        cap = pass_cap(&st, spec->max_deltas, a);
        if (cap <= 0 || cap >= spec->hwm)
            return COMB_OK;
        if ((rc = capped_list(cwil, cap, &capped, err)))
            return rc;
        pass.major = false;
        pass.hwm = cap;
        memset(&res, 0, sizeof res);
        rc = compact_pass(dir, schema, &capped, txns, &pass, a, &res, err);
        comb_idlist_free(&capped.ids);
        for (int i = 0; !rc && i < res.n_written; i++)
            rc = note_written(a, out, res.written[i], err);
        if (rc || !res.enough)
            return rc;
        out->n_passes++;
    }
}

/* Remove what an unfinished compaction wrote. */
static void remove_written(const char *dir, const AcidCompactResult *out,
                           CombArena *a)
{
    CombErr ignored;
    for (int i = 0; i < out->n_written; i++) {
        char *path = fs_join(a, dir, out->written[i]);
        if (path)
            fs_remove_tree(path, &ignored);
    }
}

int acid_compact_dir(const char *dir, const AcidSchema *schema,
                     const CombWriteIdList *cwil, const CombTxnList *txns,
                     const AcidCompactSpec *spec, CombArena *a,
                     AcidCompactResult *out, CombErr *err)
{
    int rc;
    memset(out, 0, sizeof *out);
    if (spec->hwm <= 0 || spec->visibility_txn <= 0)
        return comb_err(err, COMB_EINVALID,
                        "compaction needs a high watermark and a txn");
    rc = spec->max_deltas > 1
             ? backlog_passes(dir, schema, cwil, txns, spec, a, out, err)
             : COMB_OK;
    if (!rc) {
        AcidCompactResult last;
        memset(&last, 0, sizeof last);
        rc = compact_pass(dir, schema, cwil, txns, spec, a, &last, err);
        for (int i = 0; !rc && i < last.n_written; i++)
            rc = note_written(a, out, last.written[i], err);
        out->enough = last.enough || out->n_passes > 0;
        out->cleanable = last.cleanable;
        out->n_dirs_read = last.n_dirs_read;
        out->n_rows = last.n_rows;
        out->n_deletes = last.n_deletes;
        out->insert_dir = last.insert_dir;
        out->delete_dir = last.delete_dir;
    }
    if (rc)
        remove_written(dir, out, a);
    return rc;
}

/* ------------------------------------------------------- insert-only */

/* The data files of one directory of an insert-only table (every visible
 * regular file, as the SQL layer reads them), appended to files/buckets. */
static int list_data_files(const char *dir, const char *name, CombArena *a,
                           char ***files, int **buckets, int *n, int *cap,
                           CombErr *err)
{
    char *path = fs_join(a, dir, name), **names;
    int m = 0, rc;
    if (!path)
        return comb_err_nomem(err);
    if ((rc = fs_list_dir(path, a, &names, &m, err)))
        return rc;
    for (int i = 0; i < m; i++) {
        char *f;
        int bucket = 0;
        if (acid_name_is_hidden(names[i]))
            continue;
        if (!(f = fs_join(a, path, names[i])))
            return comb_err_nomem(err);
        if (fs_is_dir(f))
            continue;
        if (!acid_data_file_parse(names[i], &bucket) || bucket < 0 ||
            bucket > ACID_MAX_BUCKET)
            bucket = 0;
        if (*n == *cap) {
            int nc = *cap ? *cap * 2 : 16;
            char **fv = comb_arena_alloc(a, (size_t)nc * sizeof *fv);
            int *bv = comb_arena_alloc(a, (size_t)nc * sizeof *bv);
            if (!fv || !bv)
                return comb_err_nomem(err);
            if (*n) {
                memcpy(fv, *files, (size_t)*n * sizeof *fv);
                memcpy(bv, *buckets, (size_t)*n * sizeof *bv);
            }
            *files = fv;
            *buckets = bv;
            *cap = nc;
        }
        (*files)[*n] = f;
        (*buckets)[(*n)++] = bucket;
    }
    return COMB_OK;
}

/* Rows of the files of one bucket, in read order, into out_path. */
static int merge_bucket(const char *const *paths, int n,
                        const AcidSchema *schema, const CombType *row_type,
                        const AcidCompactSpec *spec, const char *out_path,
                        int64_t *n_rows, int64_t *n_bytes, CombErr *err)
{
    OrcReadCounters rd = {0};
    AcidReader *r = NULL;
    OrcWriter *w = NULL;
    OrcWriterOptions o;
    CombBatch b;
    uint32_t *live = NULL;
    bool have_batch = false;
    int rc = acid_reader_open_files(paths, n, schema, NULL, &r, err);
    orc_writer_options_default(&o);
    o.compression = (OrcCompression)spec->compression;
    if (!rc)
        rc = orc_writer_open(out_path, row_type, &o, &w, err);
    if (!rc && acid_reader_batch_init(r, &b))
        rc = comb_err_nomem(err);
    else if (!rc)
        have_batch = true;
    if (!rc && !(live = comb_malloc((size_t)b.capacity * sizeof *live)))
        rc = comb_err_nomem(err);
    while (!rc && !(rc = acid_reader_next(r, &b, err)) && b.n_rows > 0) {
        CombBatch view = b;
        int k = comb_batch_live(&b);
        view.n_cols = schema->n_cols;
        for (int i = 0; i < k; i++)
            live[i] = (uint32_t)comb_batch_row(&b, i);
        rc = orc_writer_write_rows(w, &view, live, k, err);
        *n_rows += k;
        acid_reader_counters(r, &rd);
        if (!rc && spec->progress)
            rc = spec->progress(spec->progress_ctx, *n_rows,
                                *n_bytes + (int64_t)rd.bytes_read, err);
    }
    *n_bytes += (int64_t)rd.bytes_read;
    comb_free(live);
    if (have_batch)
        comb_batch_free(&b);
    acid_reader_close(r);
    if (!rc && w)
        return orc_writer_close(w, err);
    orc_writer_abort(w);
    return rc;
}

/* ------------------------------------------------- insert-only TEXTFILE */

/* How the files of a bucket are merged, by the codec their names say
 * (text/lines.c's suffixes). */
typedef enum TextJoin {
    TEXT_JOIN_PLAIN,   /* concatenated into NNNNNN_0 */
    TEXT_JOIN_GZIP,    /* gzip members concatenated into NNNNNN_0.gz */
    TEXT_JOIN_COPY     /* streams that do not concatenate: copied */
} TextJoin;

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static TextJoin text_join(const char *path, const char **suffix)
{
    static const char *const copied[] = {".deflate", ".bz2", ".snappy",
                                         ".lz4", ".zst", ".lzo", ".br"};
    *suffix = "";
    if (has_suffix(path, ".gz"))
        return TEXT_JOIN_GZIP;
    for (size_t i = 0; i < sizeof copied / sizeof *copied; i++)
        if (has_suffix(path, copied[i])) {
            *suffix = has_suffix(path, ".lzo_deflate") ? ".lzo_deflate"
                                                       : copied[i];
            return TEXT_JOIN_COPY;
        }
    return TEXT_JOIN_PLAIN;
}

/* Append the bytes of `from` to out.  Plain text: a UTF-8 byte order mark
 * is dropped (the reader drops it only where a file starts) and a last
 * line without its end gets "\n" (the next file's first row must start a
 * line).  Gzip members are appended as they are: the reader reads any
 * number of them. */
static int append_text_file(FsFile *out, const char *from,
                            bool plain, unsigned char *buf, size_t cap,
                            int64_t *bytes, CombErr *err)
{
    unsigned char last = '\n';
    bool start = true;
    FsFile *in = fs_open_read(from, err);
    int rc = COMB_OK;
    if (!in)
        return err->code;
    for (;;) {
        size_t got, skip = 0;
        if ((rc = fs_read_some(in, buf, cap, &got, err)) || got == 0)
            break;
        if (plain && start && got >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
            skip = 3;
        start = false;
        if (got > skip) {
            last = buf[got - 1];
            if ((rc = fs_write_all(out, buf + skip, got - skip, err)))
                break;
            *bytes += (int64_t)(got - skip);
        }
    }
    if (!rc && plain && last != '\n' && last != '\r') {
        rc = fs_write_all(out, "\n", 1, err);
        *bytes += 1;
    }
    if (rc) {
        fs_discard(in);
        return rc;
    }
    return fs_close(in, err);
}

/* The text files of one bucket into out_dir: plain ones concatenated into
 * NNNNNN_0, gzip ones into NNNNNN_0.gz; files of codecs whose streams do
 * not concatenate (.deflate) are copied one by one as NNNNNN_0_copy_K. */
static int merge_text_bucket(const char *const *paths, int n, int bucket,
                             const char *out_dir, const AcidCompactSpec *spec,
                             CombArena *a, int64_t *bytes, CombErr *err)
{
    static const char *const joined[] = {"", ".gz"};
    size_t cap = 1 << 20;
    unsigned char *buf = comb_malloc(cap);
    int rc = buf ? COMB_OK : comb_err_nomem(err), copies = 0;
    for (int k = 0; !rc && k < 2; k++) {
        char name[48], *file;
        FsFile *fd = NULL;
        for (int i = 0; !rc && i < n; i++) {
            const char *sfx;
            if (text_join(paths[i], &sfx) != (TextJoin)k)
                continue;
            if (!fd) {
                snprintf(name, sizeof name, "%06d_0%s", bucket, joined[k]);
                if (!(file = fs_join(a, out_dir, name)))
                    rc = comb_err_nomem(err);
                else if (!(fd = fs_create(file, err)))
                    rc = err->code;
            }
            if (!rc)
                rc = append_text_file(fd, paths[i], k == 0, buf, cap,
                                      bytes, err);
            if (!rc && spec->progress)
                rc = spec->progress(spec->progress_ctx, -1, *bytes, err);
        }
        if (fd && rc)
            fs_discard(fd);
        else if (fd)
            rc = fs_sync_close(fd, err);
    }
    for (int i = 0; !rc && i < n; i++) {
        const char *sfx;
        char name[64], *file;
        uint64_t size = 0;
        if (text_join(paths[i], &sfx) != TEXT_JOIN_COPY)
            continue;
        snprintf(name, sizeof name, "%06d_0_copy_%d%.16s", bucket, ++copies,
                 sfx);
        if (!(file = fs_join(a, out_dir, name)))
            rc = comb_err_nomem(err);
        else if (!(rc = fs_copy_file(paths[i], file, err)) &&
                 !(rc = fs_file_size(file, &size, err)))
            *bytes += (int64_t)size;
    }
    comb_free(buf);
    return rc;
}

static int write_insert_only(const char *dir, const char *out_dir,
                             const AcidSchema *schema,
                             const AcidCompactSpec *spec, char **files,
                             const int *buckets, int n, CombArena *a,
                             AcidCompactResult *out, CombErr *err)
{
    CombType *row_type;
    char *path = fs_join(a, dir, out_dir);
    int rc;
    if (!path)
        return comb_err_nomem(err);
    if (fs_exists(path))
        return comb_err(err, COMB_EEXISTS, "ACID directory '%s' exists "
                        "already", path);
    if ((rc = acid_row_type(a, schema, &row_type, err)) ||
        (rc = fs_mkdirs(path, err)) ||
        (rc = note_written(a, out, (char *)out_dir, err)))
        return rc;
    for (int bucket = 0; !rc && bucket <= ACID_MAX_BUCKET; bucket++) {
        const char **group = comb_arena_alloc(a, (size_t)(n + 1) *
                                                 sizeof *group);
        char name[32], *file;
        int k = 0;
        if (!group)
            return comb_err_nomem(err);
        for (int i = 0; i < n; i++)
            if (buckets[i] == bucket)
                group[k++] = files[i];
        if (k == 0)
            continue;
        snprintf(name, sizeof name, "%06d_0", bucket);
        if (!(file = fs_join(a, path, name)))
            return comb_err_nomem(err);
        rc = spec->text
                 ? merge_text_bucket(group, k, bucket, path, spec, a,
                                     &out->n_bytes, err)
                 : merge_bucket(group, k, schema, row_type, spec, file,
                                &out->n_rows, &out->n_bytes, err);
    }
    return rc ? rc : fs_fsync_dir(path, err);
}

int acid_compact_insert_only_dir(const char *dir, const AcidSchema *schema,
                                 const CombWriteIdList *cwil,
                                 const CombTxnList *txns,
                                 const AcidCompactSpec *spec, CombArena *a,
                                 AcidCompactResult *out, CombErr *err)
{
    AcidDirStateOptions o = {true};
    AcidDirState st;
    char **files = NULL, *name;
    int *buckets = NULL, n = 0, cap = 0, rc;
    memset(out, 0, sizeof *out);
    if (spec->hwm <= 0 || spec->visibility_txn <= 0)
        return comb_err(err, COMB_EINVALID,
                        "compaction needs a high watermark and a txn");
    if ((rc = acid_dir_state_get_opts(dir, cwil, txns, &o, a, &st, err)))
        return rc;
    out->cleanable = st.n_obsolete > 0 || st.n_aborted > 0;
    out->enough = enough_to_compact(&st, spec->major);
    if (!out->enough)
        return COMB_OK;
    out->n_dirs_read = st.n_deltas + (spec->major && st.base ? 1 : 0);
    if (spec->major && st.base)
        rc = list_data_files(dir, st.base->name, a, &files, &buckets, &n,
                             &cap, err);
    for (int i = 0; !rc && i < st.n_deltas; i++)
        rc = list_data_files(dir, st.deltas[i].name, a, &files, &buckets, &n,
                             &cap, err);
    if (rc)
        return rc;
    name = spec->major
               ? acid_dir_name_vis(a, ACID_DIR_BASE, spec->hwm, spec->hwm, -1,
                                   spec->visibility_txn)
               : acid_dir_name_vis(a, ACID_DIR_DELTA, deltas_min_wid(&st),
                                   spec->hwm, -1, spec->visibility_txn);
    if (!name)
        return comb_err_nomem(err);
    out->insert_dir = name;
    rc = write_insert_only(dir, name, schema, spec, files, buckets, n, a, out,
                           err);
    if (rc)
        remove_written(dir, out, a);
    return rc;
}

/* ------------------------------------------------------------- metrics */

/* One data file into m. */
static int count_file(const char *path, bool base, int64_t small_bytes,
                      AcidDirMetrics *m, CombErr *err)
{
    uint64_t size;
    int rc = fs_file_size(path, &size, err);
    if (rc)
        return rc;
    m->n_files++;
    m->n_small_files += (int64_t)size < small_bytes;
    m->bytes += (int64_t)size;
    if (base)
        m->base_bytes += (int64_t)size;
    return COMB_OK;
}

/* The data files (visible regular files) of `name` in dir into m: those
 * of a directory, or the file itself (an original). */
static int count_files(const char *dir, const char *name, bool base,
                       int64_t small_bytes, CombArena *a, AcidDirMetrics *m,
                       CombErr *err)
{
    char *path = fs_join(a, dir, name), **names;
    int n = 0, rc;
    if (!path)
        return comb_err_nomem(err);
    if (!fs_is_dir(path))
        return count_file(path, base, small_bytes, m, err);
    if ((rc = fs_list_dir(path, a, &names, &n, err)))
        return rc;
    for (int i = 0; !rc && i < n; i++) {
        char *f = fs_join(a, path, names[i]);
        if (!f)
            return comb_err_nomem(err);
        if (!acid_name_is_hidden(names[i]) && !fs_is_dir(f))
            rc = count_file(f, base, small_bytes, m, err);
    }
    return rc;
}

int acid_dir_metrics(const char *dir, const CombWriteIdList *wil,
                     const CombTxnList *txns, const AcidDirStateOptions *opt,
                     int64_t small_bytes, CombArena *a, AcidDirMetrics *out,
                     CombErr *err)
{
    AcidDirState st;
    int rc = acid_dir_state_get_opts(dir, wil, txns, opt, a, &st, err);
    memset(out, 0, sizeof *out);
    if (rc)
        return rc;
    out->has_base = st.base != NULL;
    out->n_deltas = st.n_deltas;
    out->n_delete_deltas = st.n_delete_deltas;
    out->n_aborted = st.n_aborted;
    for (int i = 0; i < st.n_obsolete; i++) {
        char *path = fs_join(a, dir, st.obsolete[i]);
        if (!path)
            return comb_err_nomem(err);
        out->n_obsolete += fs_is_dir(path); /* originals are files */
    }
    if (st.base)
        rc = count_files(dir, st.base->name, true, small_bytes, a, out, err);
    for (int i = 0; !rc && i < st.n_deltas; i++)
        rc = count_files(dir, st.deltas[i].name, false, small_bytes, a, out,
                         err);
    for (int i = 0; !rc && i < st.n_delete_deltas; i++)
        rc = count_files(dir, st.delete_deltas[i].name, false, small_bytes, a,
                         out, err);
    for (int i = 0; !rc && !st.base && i < st.n_originals; i++)
        rc = count_files(dir, st.originals[i], true, small_bytes, a, out,
                         err);
    return rc;
}
