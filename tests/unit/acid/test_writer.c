/* Writer -> reader round trips (hive-acid-storage.md §6.2, §8): insert
 * deltas over several buckets, a delete delta, reads under committed, open
 * and aborted write ids, and the files' ORC metadata (§1.4, §1.5). */
#include "unit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "orc/orc.h"

static const char *const t_names[4] = {"id", "name", "score", "code"};
static const CombType t_smallint = {.kind = COMB_T_SMALLINT};
static const CombType *const t_types[4] = {&acid_t_bigint, &acid_t_string,
                                           &acid_t_double, &t_smallint};
static const AcidSchema t_schema = {4, t_names, t_types};

#define N_ROWS 3000
#define N_BUCKETS 3

/* Row id: name NULL every 7th row, "n<id>" otherwise. */
static void fill_row(CombBatch *b, int row, int64_t id, char *names)
{
    char *name = names + row * 16;
    b->cols[0].i64[row] = id;
    if (id % 7 == 0) {
        comb_vec_set_null(&b->cols[1], row);
    } else {
        int len = snprintf(name, 16, "n%" PRId64, id);
        comb_vec_set_not_null(&b->cols[1], row);
        b->cols[1].str[row] = (CombStr){name, (uint32_t)len};
    }
    b->cols[2].f64[row] = (double)id * 0.5;
    b->cols[3].i64[row] = (int64_t)(id % 300) - 150;
}

static char *expected_row(int64_t id, CombArena *a)
{
    if (id % 7 == 0)
        return comb_arena_printf(a, "[%" PRId64 ",null,%.15g,%d]", id,
                                 (double)id * 0.5, (int)(id % 300) - 150);
    return comb_arena_printf(a, "[%" PRId64 ",\"n%" PRId64 "\",%.15g,%d]",
                             id, id, (double)id * 0.5, (int)(id % 300) - 150);
}

/* A writer of write id 1 with opt, a batch of 1024 rows and room for
 * their names (fill_row); the caller frees both. */
static int open_write_1(const char *dir, const AcidWriterOptions *opt,
                        AcidWriter **w, CombBatch *b, char **names,
                        CombErr *err)
{
    int rc;
    if (!(*names = comb_malloc(1024 * 16)))
        return COMB_ENOMEM;
    if ((rc = acid_writer_open_opts(dir, &t_schema, 1, 0, ORC_COMP_ZLIB, opt,
                                    w, err))) {
        comb_free(*names);
        return rc;
    }
    comb_batch_init_types(b, 4, t_types, 1024);
    return COMB_OK;
}

/* Write 1: ids 0..2999 into bucket id % 3, in three batches; the second
 * batch carries 24 junk rows hidden by its selection vector. */
static int write_initial(const char *dir, AcidWriteStats *stats, CombErr *err)
{
    AcidWriterOptions opt = {false, 4096, 0};
    AcidWriter *w;
    CombBatch b;
    int buckets[1024], rc;
    char *names;
    if ((rc = open_write_1(dir, &opt, &w, &b, &names, err)))
        return rc;
    for (int batch = 0; batch < 3 && !rc; batch++) {
        comb_batch_reset(&b);
        comb_vec_nulls_materialize(&b.cols[1], 1024); /* stale after reset */
        if (batch == 1) {
            /* junk rows at physical 0, 42, 84...: not selected */
            int next_id = 1000;
            b.use_sel = true;
            for (int row = 0; row < 1024; row++) {
                if (row % 42 == 0 && row / 42 < 24) {
                    fill_row(&b, row, 999999, names);
                    buckets[row] = 4095;
                    continue;
                }
                fill_row(&b, row, next_id, names);
                buckets[row] = next_id % N_BUCKETS;
                b.sel[b.n_sel++] = (uint16_t)row;
                next_id++;
            }
            b.n_rows = 1024;
        } else {
            for (int row = 0; row < 1000; row++) {
                int64_t id = batch * 1000 + row;
                fill_row(&b, row, id, names);
                buckets[row] = (int)(id % N_BUCKETS);
            }
            b.n_rows = 1000;
        }
        rc = acid_writer_insert(w, &b, buckets, err);
    }
    comb_batch_free(&b);
    comb_free(names);
    return writer_finish(w, rc, stats, err);
}

/* ROW__ID of id under write 1: bucket id % 3, rowId id / 3. */
static int32_t prop_of(int bucket, int stmt)
{
    CombErr err;
    int32_t prop = 0;
    acid_bucket_encode(bucket, stmt, &prop, &err);
    return prop;
}

/* Write 2: delete every id % 10 == 0 (events added in descending order),
 * insert ids 5000..5009 into bucket 1. */
static int write_update(const char *dir, AcidWriteStats *stats, CombErr *err)
{
    AcidWriter *w;
    CombBatch b;
    int buckets[10], rc = COMB_OK;
    char names[10 * 16];
    if ((rc = acid_writer_open(dir, &t_schema, 2, 0, ORC_COMP_ZLIB, &w, err)))
        return rc;
    for (int64_t id = N_ROWS - 10; id >= 0 && !rc; id -= 10)
        rc = acid_writer_delete(w, 1, prop_of((int)(id % N_BUCKETS), 0),
                                id / N_BUCKETS, err);
    comb_batch_init_types(&b, 4, t_types, 10);
    comb_vec_nulls_materialize(&b.cols[1], 10);
    for (int row = 0; row < 10; row++) {
        fill_row(&b, row, 5000 + row, names);
        buckets[row] = 1;
    }
    b.n_rows = 10;
    if (!rc)
        rc = acid_writer_insert(w, &b, buckets, err);
    comb_batch_free(&b);
    return writer_finish(w, rc, stats, err);
}

/* The table most tests read: write 1, then write 2 (stats: write 2's). */
static int write_table(const char *dir, AcidWriteStats *stats, CombErr *err)
{
    int rc = write_initial(dir, stats, err);
    return rc ? rc : write_update(dir, stats, err);
}

static bool file_is(const char *path, const char *content)
{
    CombArena a;
    CombErr err;
    unsigned char *bytes;
    size_t len;
    bool ok;
    comb_arena_init(&a, 0);
    ok = fs_read_file(path, &a, &bytes, &len, &err) == COMB_OK &&
         len == strlen(content) && memcmp(bytes, content, len) == 0;
    comb_arena_free(&a);
    return ok;
}

static bool metadata_is(const OrcReader *r, const char *key, const char *want)
{
    const void *val;
    size_t len;
    if (!orc_reader_metadata(r, key, &val, &len))
        return false;
    if (len != strlen(want) || memcmp(val, want, len) != 0) {
        printf("    %s = '%.*s', expected '%s'\n", key, (int)len,
               (const char *)val, want);
        return false;
    }
    return true;
}

/* The key index this file must carry: the last key of every stripe, where
 * key(i) gives the key of row i. */
static char *key_index_of(OrcReader *r, int64_t owid_or_neg,
                          const int64_t *keys3, CombArena *a)
{
    CombBuf b = COMB_BUF_INIT;
    uint64_t rows = 0;
    char *s;
    for (int i = 0; i < orc_reader_n_stripes(r); i++) {
        OrcStripeInfo si;
        const int64_t *k;
        orc_reader_stripe_info(r, i, &si);
        rows += si.n_rows;
        k = keys3 + 3 * (rows - 1);
        comb_buf_printf(&b, "%" PRId64 ",%d,%" PRId64 ";",
                        owid_or_neg >= 0 ? owid_or_neg : k[0], (int)k[1], k[2]);
    }
    s = comb_arena_strndup(a, b.data ? (char *)b.data : "", b.len);
    comb_buf_free(&b);
    return s;
}

/* Every column of an ORC file decoded, all batches concatenated into
 * keys[3 * row] (owid, bucket, rowId); checks per-row invariants. */
typedef struct FileCheck {
    int64_t n;
    int64_t *keys;
    bool ops_ok, current_ok, row_null_ok, sorted_ok;
} FileCheck;

static int check_file_rows(OrcReader *r, int op, int64_t current, bool row_null,
                           FileCheck *fc, CombErr *err)
{
    CombBatch b;
    int rc;
    memset(fc, 0, sizeof *fc);
    fc->keys = comb_malloc(3 * orc_reader_n_rows(r) * sizeof *fc->keys + 8);
    fc->ops_ok = fc->current_ok = fc->row_null_ok = fc->sorted_ok = true;
    if (row_null) {
        /* Delete files: decode the ACID columns and the `row` struct only
         * (orc.h guarantees descendants of a NULL struct are NULL). */
        bool include[7] = {true, true, true, true, true, true, true};
        bool *inc = comb_calloc((size_t)orc_reader_n_columns(r), 1);
        memcpy(inc, include, sizeof include);
        rc = orc_reader_select(r, inc, err);
        comb_free(inc);
        if (rc)
            return rc;
    }
    if ((rc = orc_reader_batch_init(r, &b, 1024)))
        return rc;
    for (;;) {
        if ((rc = orc_reader_next(r, &b, err)) || b.n_rows == 0)
            break;
        for (int i = 0; i < b.n_rows; i++) {
            int64_t *k = fc->keys + 3 * fc->n;
            k[0] = b.cols[1].i64[i];
            k[1] = b.cols[2].i64[i];
            k[2] = b.cols[3].i64[i];
            fc->ops_ok &= b.cols[0].i64[i] == op;
            fc->current_ok &= b.cols[4].i64[i] == current;
            fc->row_null_ok &= comb_vec_is_null(&b.cols[5], i) == row_null;
            if (fc->n > 0) {
                int64_t *p = k - 3;
                bool less = p[0] < k[0] ||
                            (p[0] == k[0] && (p[1] < k[1] ||
                                              (p[1] == k[1] && p[2] < k[2])));
                fc->sorted_ok &= less;
            }
            fc->n++;
        }
    }
    comb_batch_free(&b);
    return rc;
}

static const char acid_type[] =
    "struct<operation:int,originalTransaction:bigint,bucket:int,rowId:bigint,"
    "currentTransaction:bigint,row:struct<id:bigint,name:string,score:double,"
    "code:smallint>>";

static bool type_is(const OrcReader *r, const char *want)
{
    CombBuf b = COMB_BUF_INIT;
    bool ok;
    comb_type_format(orc_reader_schema(r), &b);
    ok = b.len == strlen(want) && memcmp(b.data, want, b.len) == 0;
    if (!ok)
        printf("    type %.*s\n", (int)b.len, (const char *)b.data);
    comb_buf_free(&b);
    return ok;
}

/* What every bucket file of write 1 or 2 holds: the ACID type, n_rows
 * rows, hive.acid.version "2" and hive.acid.stats `stats`, events of
 * operation op by currentTransaction current, `row` NULL exactly when
 * row_null, keys ascending, and the key index of those keys.  fc->keys
 * (comb_free) stay for the caller's per-key checks. */
static void check_bucket_file(OrcReader *r, int64_t n_rows, const char *stats,
                              int op, int64_t current, bool row_null,
                              FileCheck *fc, CombArena *a)
{
    CombErr err;
    CHECK(type_is(r, acid_type));
    CHECK_EQ(orc_reader_n_rows(r), n_rows);
    CHECK(metadata_is(r, "hive.acid.version", "2"));
    CHECK(metadata_is(r, "hive.acid.stats", stats));
    CHECK_OK(check_file_rows(r, op, current, row_null, fc, &err), &err);
    CHECK(fc->ops_ok && fc->current_ok && fc->row_null_ok && fc->sorted_ok);
    CHECK(metadata_is(r, "hive.acid.key.index",
                      key_index_of(r, -1, fc->keys, a)));
}

TEST(writer_insert_files_and_metadata)
{
    const char *dir = unit_tmpdir();
    AcidWriteStats stats;
    CombErr err;
    CombArena a;
    comb_arena_init(&a, 0);
    CHECK_OK(write_initial(dir, &stats, &err), &err);
    CHECK_EQ(stats.n_inserted, N_ROWS);
    CHECK_EQ(stats.n_deleted, 0);
    CHECK_EQ(stats.n_files, N_BUCKETS);
    CHECK(file_is(fs_join(&a, dir, "delta_0000001_0000001_0000/_orc_acid_version"),
                  "2"));
    CHECK(!fs_exists(fs_join(&a, dir, "delete_delta_0000001_0000001_0000")));
    for (int bucket = 0; bucket < N_BUCKETS; bucket++) {
        char *path = comb_arena_printf(
            &a, "%s/delta_0000001_0000001_0000/bucket_%05d", dir, bucket);
        OrcReader *r;
        FileCheck fc;
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        CHECK_EQ(orc_reader_compression(r), ORC_COMP_ZLIB);
        CHECK(orc_reader_n_stripes(r) > 1); /* small stripes were asked for */
        check_bucket_file(r, N_ROWS / N_BUCKETS, "1000,0,0", 0, 1, false, &fc,
                          &a);
        CHECK(!unit_failed_now());
        for (int64_t i = 0; i < fc.n; i++) {
            CHECK_EQ(fc.keys[3 * i], 1);
            CHECK_EQ(fc.keys[3 * i + 1], prop_of(bucket, 0));
            CHECK_EQ(fc.keys[3 * i + 2], i);
        }
        comb_free(fc.keys);
        orc_reader_close(r);
    }
    comb_arena_free(&a);
}

TEST(writer_delete_files_and_metadata)
{
    const char *dir = unit_tmpdir();
    AcidWriteStats stats;
    CombErr err;
    CombArena a;
    comb_arena_init(&a, 0);
    CHECK_OK(write_table(dir, &stats, &err), &err);
    CHECK_EQ(stats.n_inserted, 10);
    CHECK_EQ(stats.n_deleted, N_ROWS / 10);
    CHECK_EQ(stats.n_files, 1 + N_BUCKETS);
    CHECK(file_is(fs_join(&a, dir,
                          "delete_delta_0000002_0000002_0000/_orc_acid_version"),
                  "2"));
    for (int bucket = 0; bucket < N_BUCKETS; bucket++) {
        char *path = comb_arena_printf(
            &a, "%s/delete_delta_0000002_0000002_0000/bucket_%05d", dir,
            bucket);
        OrcReader *r;
        FileCheck fc;
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        check_bucket_file(r, 100, "0,0,100", 2, 2, true, &fc, &a);
        CHECK(!unit_failed_now());
        for (int64_t i = 0; i < fc.n; i++) {
            CHECK_EQ(fc.keys[3 * i], 1);
            CHECK_EQ(fc.keys[3 * i + 1], prop_of(bucket, 0));
            CHECK_EQ((fc.keys[3 * i + 2] * N_BUCKETS + bucket) % 10, 0);
        }
        comb_free(fc.keys);
        orc_reader_close(r);
    }
    comb_arena_free(&a);
}

/* Read the table and check every row against its id. */
static bool scan_matches(const char *dir, const CombWriteIdList *wil,
                         bool deletes_visible, bool write1, bool write2,
                         int *n_out, CombArena *a)
{
    ScanRows got;
    CombErr err;
    int k = 0;
    bool ok = true;
    if (scan_table(dir, &t_schema, wil, true, a, &got, &err)) {
        printf("    %s\n", err.msg);
        return false;
    }
    /* bucket order: for each bucket, write 1's rows then write 2's */
    for (int bucket = 0; bucket < N_BUCKETS && ok; bucket++) {
        for (int64_t id = bucket; write1 && id < N_ROWS && ok; id += 3) {
            char *want_id;
            if (deletes_visible && id % 10 == 0)
                continue;
            want_id = comb_arena_printf(a, "[1,%d,%" PRId64 "]",
                                        prop_of(bucket, 0), id / 3);
            ok = k < got.n && !strcmp(got.rows[k], expected_row(id, a)) &&
                 !strcmp(got.ids[k], want_id);
            if (!ok)
                printf("    row %d: %s %s, expected id %" PRId64 "\n", k,
                       k < got.n ? got.rows[k] : "-",
                       k < got.n ? got.ids[k] : "-", id);
            k++;
        }
        for (int i = 0; bucket == 1 && write2 && i < 10 && ok; i++) {
            char *want_id = comb_arena_printf(a, "[2,%d,%d]", prop_of(1, 0), i);
            ok = k < got.n && !strcmp(got.rows[k], expected_row(5000 + i, a)) &&
                 !strcmp(got.ids[k], want_id);
            k++;
        }
    }
    ok = ok && k == got.n;
    *n_out = got.n;
    scan_rows_free(&got);
    return ok;
}

TEST(writer_reader_round_trip)
{
    const char *dir = unit_tmpdir();
    AcidWriteStats stats;
    CombWriteIdList wil;
    CombErr err;
    CombArena a;
    int n = 0;
    int64_t two = 2, one = 1;
    comb_arena_init(&a, 1 << 16);
    CHECK_OK(write_table(dir, &stats, &err), &err);

    wil_make(&wil, 2, NULL, 0, NULL, 0); /* both committed */
    CHECK(scan_matches(dir, &wil, true, true, true, &n, &a));
    CHECK_EQ(n, N_ROWS - N_ROWS / 10 + 10);
    wil_free(&wil);

    wil_make(&wil, 2, &two, 1, NULL, 0); /* write 2 open */
    CHECK(scan_matches(dir, &wil, false, true, false, &n, &a));
    CHECK_EQ(n, N_ROWS);
    wil_free(&wil);

    wil_make(&wil, 2, NULL, 0, &two, 1); /* write 2 aborted */
    CHECK(scan_matches(dir, &wil, false, true, false, &n, &a));
    wil_free(&wil);

    wil_make(&wil, 1, NULL, 0, NULL, 0); /* before write 2 */
    CHECK(scan_matches(dir, &wil, false, true, false, &n, &a));
    wil_free(&wil);

    wil_make(&wil, 0, NULL, 0, NULL, 0); /* before everything */
    CHECK(scan_matches(dir, &wil, false, false, false, &n, &a));
    CHECK_EQ(n, 0);
    wil_free(&wil);

    wil_make(&wil, 2, &one, 1, NULL, 0); /* write 1 still open */
    CHECK(scan_matches(dir, &wil, true, false, true, &n, &a));
    CHECK_EQ(n, 10);
    wil_free(&wil);
    comb_arena_free(&a);
}

TEST(writer_aborted_dirs_in_state)
{
    const char *dir = unit_tmpdir();
    AcidWriteStats stats;
    CombWriteIdList wil;
    CombErr err;
    CombArena a;
    AcidDirState st;
    int64_t two = 2;
    comb_arena_init(&a, 0);
    CHECK_OK(write_table(dir, &stats, &err), &err);
    wil_make(&wil, 2, NULL, 0, &two, 1);
    CHECK_OK(acid_dir_state_get(dir, &wil, NULL, &a, &st, &err), &err);
    CHECK_EQ(st.n_aborted, 2);
    CHECK_EQ(st.n_deltas, 1);
    CHECK_EQ(st.n_delete_deltas, 0);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* Schema evolution on read: names match case-insensitively, a column the
 * files lack reads as NULL (§1.3). */
TEST(writer_read_with_added_column)
{
    static const char *const names[5] = {"ID", "extra", "Name", "score",
                                         "code"};
    static const CombType *const types[5] = {&acid_t_bigint, &acid_t_int,
                                             &acid_t_string, &acid_t_double,
                                             &t_smallint};
    AcidSchema wide = {5, names, types};
    const char *dir = unit_tmpdir();
    AcidWriteStats stats;
    ScanRows got;
    CombErr err;
    CombArena a;
    comb_arena_init(&a, 0);
    CHECK_OK(write_initial(dir, &stats, &err), &err);
    CHECK_OK(scan_at(dir, &wide, 1, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, N_ROWS);
    CHECK_STR(got.rows[1], "[3,null,\"n3\",1.5,-147]");
    scan_rows_free(&got);
    comb_arena_free(&a);
}

TEST(writer_abort_and_empty_commit)
{
    const char *dir = unit_tmpdir();
    AcidWriter *w;
    AcidWriteStats stats;
    CombBatch b;
    CombErr err;
    CombArena a;
    char **names;
    int n;
    comb_arena_init(&a, 0);
    /* nothing written: nothing created */
    CHECK_OK(acid_writer_open(dir, &t_schema, 1, 0, ORC_COMP_ZLIB, &w, &err),
             &err);
    CHECK_OK(acid_writer_commit_files(w, &stats, &err), &err);
    CHECK_EQ(stats.n_files, 0);
    CHECK_OK(fs_list_dir(dir, &a, &names, &n, &err), &err);
    CHECK_EQ(n, 0);
    /* an empty batch creates nothing either */
    CHECK_OK(acid_writer_open(dir, &t_schema, 1, 0, ORC_COMP_ZLIB, &w, &err),
             &err);
    comb_batch_init_types(&b, 4, t_types, 16);
    CHECK_OK(acid_writer_insert(w, &b, NULL, &err), &err);
    CHECK_OK(fs_list_dir(dir, &a, &names, &n, &err), &err);
    CHECK_EQ(n, 0);
    /* rows and deletes, then abort: everything removed */
    b.cols[0].i64[0] = 7;
    b.cols[1].str[0] = (CombStr){"x", 1};
    b.n_rows = 1;
    CHECK_OK(acid_writer_insert(w, &b, NULL, &err), &err);
    CHECK_OK(acid_writer_delete(w, 1, prop_of(3, 0), 5, &err), &err);
    CHECK(fs_is_dir(fs_join(&a, dir, "delta_0000001_0000001_0000")));
    acid_writer_abort(w);
    CHECK_OK(fs_list_dir(dir, &a, &names, &n, &err), &err);
    CHECK_EQ(n, 0);
    comb_batch_free(&b);
    acid_writer_abort(NULL);
    comb_arena_free(&a);
}

TEST(writer_bad_arguments)
{
    const char *dir = unit_tmpdir();
    AcidWriter *w, *w2;
    CombBatch b;
    CombErr err;
    int bucket = 4096;
    static const char *const tn[1] = {"t"};
    const CombType *tk[1] = {acid_test_type("struct<u:uniontype<int,string>>")};
    AcidSchema ts = {1, tn, tk};
    CHECK_EQ(acid_writer_open(dir, &t_schema, 0, 0, ORC_COMP_ZLIB, &w, &err),
             COMB_EINVALID);
    CHECK_EQ(acid_writer_open(dir, &t_schema, 1, 5000, ORC_COMP_ZLIB, &w,
                              &err), COMB_EINVALID);
    CHECK_EQ(acid_writer_open(dir, &ts, 1, 0, ORC_COMP_ZLIB, &w, &err),
             COMB_EUNSUPPORTED);
    CHECK_OK(acid_writer_open(dir, &t_schema, 1, 0, ORC_COMP_ZLIB, &w, &err),
             &err);
    comb_batch_init_types(&b, 4, t_types, 4);
    b.n_rows = 1;
    CHECK_EQ(acid_writer_insert(w, &b, &bucket, &err), COMB_EINVALID);
    CHECK_EQ(acid_writer_delete(w, 1, 0x40000000, 0, &err), COMB_ECORRUPT);
    bucket = 0;
    CHECK_OK(acid_writer_insert(w, &b, &bucket, &err), &err);
    /* a second writer for the same write id and statement */
    CHECK_OK(acid_writer_open(dir, &t_schema, 1, 0, ORC_COMP_ZLIB, &w2, &err),
             &err);
    CHECK_EQ(acid_writer_insert(w2, &b, &bucket, &err), COMB_EEXISTS);
    acid_writer_abort(w2);
    CHECK_OK(acid_writer_commit_files(w, NULL, &err), &err);
    comb_batch_free(&b);
}

/* A delete event keeps the inserting statement's bucket property and goes
 * to the file of its writer id (§2, §6.2). */
TEST(writer_delete_statement_and_bucket)
{
    const char *dir = unit_tmpdir();
    AcidWriter *w;
    CombErr err;
    CombArena a;
    OrcReader *r;
    FileCheck fc;
    comb_arena_init(&a, 0);
    CHECK_OK(acid_writer_open(dir, &t_schema, 9, 2, ORC_COMP_SNAPPY, &w, &err),
             &err);
    CHECK_OK(acid_writer_delete(w, 4, prop_of(7, 3), 11, &err), &err);
    CHECK_OK(acid_writer_delete(w, 4, prop_of(7, 1), 11, &err), &err);
    CHECK_OK(acid_writer_delete(w, 4, prop_of(7, 1), 11, &err), &err); /* dup */
    CHECK_OK(acid_writer_delete(w, 3, prop_of(7, 3), 50, &err), &err);
    CHECK_OK(acid_writer_commit_files(w, NULL, &err), &err);
    CHECK(!fs_exists(fs_join(&a, dir, "delta_0000009_0000009_0002")));
    CHECK_OK(orc_reader_open(fs_join(&a, dir,
                                     "delete_delta_0000009_0000009_0002/"
                                     "bucket_00007"), &r, &err), &err);
    CHECK_EQ(orc_reader_compression(r), ORC_COMP_SNAPPY);
    CHECK_OK(check_file_rows(r, 2, 9, true, &fc, &err), &err);
    CHECK_EQ(fc.n, 3);
    CHECK(fc.sorted_ok);
    CHECK_EQ(fc.keys[0], 3);
    CHECK_EQ(fc.keys[4], prop_of(7, 1));
    CHECK_EQ(fc.keys[7], prop_of(7, 3));
    CHECK(metadata_is(r, "hive.acid.key.index", "4,537329667,11;"));
    CHECK(metadata_is(r, "hive.acid.stats", "0,0,3"));
    comb_free(fc.keys);
    orc_reader_close(r);
    comb_arena_free(&a);
}

/* INSERT OVERWRITE: base_W hides what came before; with no rows an empty
 * bucket_00000 is still written (§1.4). */
TEST(writer_insert_overwrite_base)
{
    const char *dir = unit_tmpdir();
    AcidWriterOptions opt = {true, 0, 0};
    AcidWriteStats stats;
    AcidWriter *w;
    CombBatch b;
    ScanRows got;
    CombErr err;
    CombArena a;
    OrcReader *r;
    char names[5 * 16];
    comb_arena_init(&a, 0);
    CHECK_OK(write_initial(dir, &stats, &err), &err);
    CHECK_OK(acid_writer_open_opts(dir, &t_schema, 3, 0, ORC_COMP_ZLIB, &opt,
                                   &w, &err), &err);
    CHECK_EQ(acid_writer_delete(w, 1, prop_of(0, 0), 0, &err), COMB_EINVALID);
    comb_batch_init_types(&b, 4, t_types, 5);
    for (int row = 0; row < 5; row++)
        fill_row(&b, row, 100 + row, names);
    b.n_rows = 5;
    CHECK_OK(acid_writer_insert(w, &b, NULL, &err), &err);
    comb_batch_free(&b);
    CHECK_OK(acid_writer_commit_files(w, &stats, &err), &err);
    CHECK(file_is(fs_join(&a, dir, "base_0000003/_orc_acid_version"), "2"));
    CHECK_OK(scan_at(dir, &t_schema, 3, true, &a, &got, &err), &err);
    CHECK_EQ(got.n, 5);
    CHECK_STR(got.rows[4], "[104,\"n104\",52,-46]");
    CHECK_STR(got.ids[4], "[3,536870912,4]");
    scan_rows_free(&got);

    CHECK_OK(acid_writer_open_opts(dir, &t_schema, 4, 0, ORC_COMP_ZLIB, &opt,
                                   &w, &err), &err);
    CHECK_OK(acid_writer_commit_files(w, &stats, &err), &err);
    CHECK_EQ(stats.n_files, 1);
    CHECK_OK(orc_reader_open(fs_join(&a, dir, "base_0000004/bucket_00000"), &r,
                             &err), &err);
    CHECK(type_is(r, "struct<id:bigint,name:string,score:double,"
                     "code:smallint>"));
    CHECK_EQ(orc_reader_n_rows(r), 0);
    CHECK(metadata_is(r, "hive.acid.key.index", ""));
    CHECK(metadata_is(r, "hive.acid.stats", "0,0,0"));
    CHECK(!orc_reader_metadata(r, "hive.acid.version", NULL, NULL));
    orc_reader_close(r);
    CHECK_OK(scan_at(dir, &t_schema, 4, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, 0);
    scan_rows_free(&got);
    comb_arena_free(&a);
}

/* Memory does not grow with the table: many batches, few live bytes. */
TEST(writer_reader_streaming_memory)
{
    const char *dir = unit_tmpdir();
    AcidWriter *w;
    AcidReader *r;
    CombWriteIdList wil;
    CombBatch b;
    CombErr err;
    int64_t rows = 0, before, peak_read = 0;
    static const char *const n1[1] = {"v"};
    static const CombType *const k1[1] = {&acid_t_bigint};
    AcidSchema s1 = {1, n1, k1};
    CHECK_OK(acid_writer_open(dir, &s1, 1, 0, ORC_COMP_ZLIB, &w, &err), &err);
    comb_batch_init_types(&b, 1, k1, 1024);
    before = comb_alloc_live_bytes();
    for (int i = 0; i < 400; i++) {
        for (int j = 0; j < 1024; j++)
            b.cols[0].i64[j] = (int64_t)i * 1024 + j;
        b.n_rows = 1024;
        CHECK_OK(acid_writer_insert(w, &b, NULL, &err), &err);
    }
    /* 400K rows of 5 longs each would be ~20 MB if buffered whole */
    CHECK(comb_alloc_live_bytes() - before < 16 << 20);
    CHECK_OK(acid_writer_commit_files(w, NULL, &err), &err);
    comb_batch_free(&b);
    wil_make(&wil, 1, NULL, 0, NULL, 0);
    CHECK_OK(acid_reader_open(dir, &s1, &wil, NULL, NULL, &r, &err), &err);
    CHECK(acid_reader_batch_init(r, &b) == COMB_OK);
    before = comb_alloc_live_bytes();
    for (;;) {
        int64_t live;
        CHECK_OK(acid_reader_next(r, &b, &err), &err);
        if (b.n_rows == 0)
            break;
        rows += comb_batch_live(&b);
        live = comb_alloc_live_bytes() - before;
        if (live > peak_read)
            peak_read = live;
    }
    CHECK_EQ(rows, 400 * 1024);
    CHECK(peak_read < 8 << 20);
    comb_batch_free(&b);
    acid_reader_close(r);
    wil_free(&wil);
}

/* A partition directory that does not exist yet is created (and, with its
 * parents, fsynced) on the first row. */
TEST(writer_new_partition_dir)
{
    const char *tmp = unit_tmpdir();
    static const char *const n1[1] = {"v"};
    static const CombType *const k1[1] = {&acid_t_int};
    AcidSchema s1 = {1, n1, k1};
    ScanRows got;
    CombErr err;
    CombArena a;
    char *dir;
    comb_arena_init(&a, 0);
    dir = comb_arena_printf(&a, "%s/t/p=1", tmp);
    CHECK_OK(write_rows(dir, &s1, k1, 1, 0, ORC_COMP_NONE, (int64_t[]){5, 6},
                        2, &err), &err);
    CHECK_OK(scan_at(dir, &s1, 1, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, 2);
    CHECK_STR(got.rows[1], "[6]");
    scan_rows_free(&got);
    comb_arena_free(&a);
}

/* An untyped NULL column (kind NULL, as SET c = NULL may produce) writes
 * NULLs. */
TEST(writer_untyped_null_column)
{
    static const CombType *const kinds[2] = {&acid_t_int, &acid_t_null};
    static const char *const n2[2] = {"a", "b"};
    static const CombType *const k2[2] = {&acid_t_int, &acid_t_string};
    AcidSchema s2 = {2, n2, k2};
    const char *dir = unit_tmpdir();
    ScanRows got;
    CombErr err;
    CombArena a;
    comb_arena_init(&a, 0);
    CHECK_OK(write_rows(dir, &s2, kinds, 1, 0, ORC_COMP_ZLIB,
                        (int64_t[]){1, 2}, 2, &err), &err);
    CHECK_OK(scan_at(dir, &s2, 1, false, &a, &got, &err), &err);
    CHECK_EQ(got.n, 2);
    CHECK_STR(got.rows[1], "[2,null]");
    scan_rows_free(&got);
    comb_arena_free(&a);
}

/* ------------------------------------------------------- many buckets */

#define MB_BUCKETS 600
#define MB_ROWS 1200
#define MB_FD_LIMIT 32

/* Write 1: ids 0..1199 into bucket id % 600 (two rows per bucket, the
 * buckets interleaved in every batch), under a small memory budget. */
static int write_many_buckets(const char *dir, AcidWriteStats *stats,
                              CombErr *err)
{
    AcidWriterOptions opt = {.memory_budget = 64 << 10};
    AcidWriter *w;
    CombBatch b;
    int buckets[1024], rc;
    char *names;
    if ((rc = open_write_1(dir, &opt, &w, &b, &names, err)))
        return rc;
    for (int64_t first = 0; first < MB_ROWS && !rc; first += 1024) {
        int n = MB_ROWS - first < 1024 ? (int)(MB_ROWS - first) : 1024;
        comb_batch_reset(&b);
        comb_vec_nulls_materialize(&b.cols[1], 1024);
        for (int row = 0; row < n; row++) {
            fill_row(&b, row, first + row, names);
            buckets[row] = (int)((first + row) % MB_BUCKETS);
        }
        b.n_rows = n;
        rc = acid_writer_insert(w, &b, buckets, err);
    }
    comb_batch_free(&b);
    comb_free(names);
    return writer_finish(w, rc, stats, err);
}

/* Write 2: delete every id % 3 == 0, events in many delete files. */
static int delete_many_buckets(const char *dir, CombErr *err)
{
    AcidWriter *w;
    int rc = acid_writer_open(dir, &t_schema, 2, 0, ORC_COMP_ZLIB, &w, err);
    for (int64_t id = 0; id < MB_ROWS && !rc; id += 3)
        rc = acid_writer_delete(w, 1, prop_of((int)(id % MB_BUCKETS), 0),
                                id / MB_BUCKETS, err);
    return rc ? rc : writer_finish(w, rc, NULL, err);
}

/* Many more buckets than open files allowed (600 vs 32), written at once:
 * the writer keeps no file open between stripes, and its memory budget
 * writes stripes early, each with its key index entry (§1.4). */
TEST(writer_many_buckets_few_open_files)
{
    const char *dir = unit_tmpdir();
    struct rlimit saved, low;
    AcidWriteStats stats;
    ScanRows got;
    CombErr err;
    CombArena a;
    int rc, n_stripes = 0, n_checked = 0;
    comb_arena_init(&a, 0);
    CHECK_EQ(getrlimit(RLIMIT_NOFILE, &saved), 0);
    low = saved;
    low.rlim_cur = MB_FD_LIMIT;
    CHECK_EQ(setrlimit(RLIMIT_NOFILE, &low), 0);
    rc = write_many_buckets(dir, &stats, &err);
    if (!rc)
        rc = delete_many_buckets(dir, &err);
    if (!rc)
        rc = scan_at(dir, &t_schema, 2, true, &a, &got, &err);
    setrlimit(RLIMIT_NOFILE, &saved);
    CHECK_OK(rc, &err);
    CHECK_EQ(stats.n_files, MB_BUCKETS);
    CHECK_EQ(got.n, MB_ROWS - (MB_ROWS + 2) / 3);
    for (int i = 0; i < got.n; i++) {
        int64_t id = strtoll(got.rows[i] + 1, NULL, 10);
        char *want = comb_arena_printf(&a, "[1,%d,%" PRId64 "]",
                                       (int)prop_of((int)(id % MB_BUCKETS), 0),
                                       id / MB_BUCKETS);
        CHECK(id % 3 != 0);
        CHECK_STR(got.ids[i], want);
        CHECK_STR(got.rows[i], expected_row(id, &a));
    }
    scan_rows_free(&got);
    for (int bucket = 0; bucket < MB_BUCKETS; bucket += 37) {
        char *path = comb_arena_printf(
            &a, "%s/delta_0000001_0000001_0000/bucket_%05d", dir, bucket);
        OrcReader *r;
        FileCheck fc;
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        n_stripes += orc_reader_n_stripes(r);
        n_checked++;
        check_bucket_file(r, MB_ROWS / MB_BUCKETS, "2,0,0", 0, 1, false, &fc,
                          &a);
        comb_free(fc.keys);
        orc_reader_close(r);
        CHECK(!unit_failed_now());
    }
    /* the budget (64 KiB for 600 files) forced stripes out early */
    CHECK(n_stripes > n_checked);
    comb_arena_free(&a);
}
