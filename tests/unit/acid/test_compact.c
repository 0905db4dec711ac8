/* acid_compact_dir (hive-acid-transactions.md 4.2): minor and major
 * compactions keep every visible row with its ROW__ID, drop rows of
 * aborted write ids and (major) deleted rows, write Hive's directory names,
 * refuse when there is not enough to compact, and the keyed writer refuses
 * rows out of key order. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "common/alloc.h"
#include "fs/fs.h"
#include "orc/orc.h"

static const char *const c_names[1] = {"id"};
static const CombType *const c_types[1] = {&acid_t_bigint};
static const AcidSchema c_schema = {1, c_names, c_types};

/* Write id w: ids lo..hi-1, bucket id % 2. */
static int write_ids(const char *dir, int64_t w, int64_t lo, int64_t hi,
                     CombErr *err)
{
    AcidWriter *wr;
    CombBatch b;
    int buckets[1024], n = 0, rc;
    if ((rc = acid_writer_open(dir, &c_schema, w, 0, ORC_COMP_ZLIB, &wr, err)))
        return rc;
    comb_batch_init_types(&b, 1, c_types, 1024);
    for (int64_t id = lo; id < hi; id++, n++) {
        b.cols[0].i64[n] = id;
        buckets[n] = (int)(id % 2);
    }
    b.n_rows = n;
    rc = acid_writer_insert(wr, &b, buckets, err);
    comb_batch_free(&b);
    if (rc) {
        acid_writer_abort(wr);
        return rc;
    }
    return acid_writer_commit_files(wr, NULL, err);
}

/* Write id 4 deletes ids 0 and 2 (bucket 0, rowIds 0 and 1) and id 1
 * (bucket 1, rowId 0) of write id 1. */
static int delete_some(const char *dir, CombErr *err)
{
    AcidWriter *wr;
    int32_t b0 = 536870912, b1 = 536936448;
    int rc = acid_writer_open(dir, &c_schema, 4, 0, ORC_COMP_ZLIB, &wr, err);
    if (rc)
        return rc;
    if ((rc = acid_writer_delete(wr, 1, b0, 0, err)) ||
        (rc = acid_writer_delete(wr, 1, b0, 1, err)) ||
        (rc = acid_writer_delete(wr, 1, b1, 0, err))) {
        acid_writer_abort(wr);
        return rc;
    }
    return acid_writer_commit_files(wr, NULL, err);
}

/* "rows|ids" of a scan, sorted, for comparing two scans. */
static char *scan_text(const char *dir, const CombWriteIdList *wil,
                       CombArena *a, int *n, CombErr *err)
{
    ScanRows s;
    char **lines;
    char *text;
    if (scan_table(dir, &c_schema, wil, true, a, &s, err))
        return NULL;
    lines = comb_arena_alloc(a, (size_t)(s.n + 1) * sizeof *lines);
    for (int i = 0; i < s.n; i++)
        lines[i] = comb_arena_printf(a, "%s %s", s.rows[i], s.ids[i]);
    text = sorted_lines_text(lines, s.n, a);
    *n = s.n;
    scan_rows_free(&s);
    return text;
}

TEST(compact_minor_then_major_keeps_rows_and_ids)
{
    const char *dir = unit_tmpdir();
    int64_t aborted = 2;
    CombWriteIdList wil = {0};
    CombErr err;
    CombArena a;
    AcidCompactResult res;
    AcidCompactSpec minor = {false, 4, 10, ORC_COMP_ZLIB};
    AcidCompactSpec major = {true, 4, 11, ORC_COMP_ZLIB};
    char *before, *after;
    int n_before, n_after;
    comb_arena_init(&a, 1 << 16);
    CHECK_OK(write_ids(dir, 1, 0, 100, &err), &err);
    CHECK_OK(write_ids(dir, 2, 1000, 1050, &err), &err); /* aborted */
    CHECK_OK(write_ids(dir, 3, 200, 210, &err), &err);
    CHECK_OK(delete_some(dir, &err), &err);
    /* the compactor's list: hwm 4, write id 2 aborted */
    CHECK_OK(comb_idlist_init(&wil.ids, 4, NULL, 0, &aborted, 1), &err);
    before = scan_text(dir, &wil, &a, &n_before, &err);
    CHECK(before != NULL);
    CHECK_EQ(n_before, 107);

    CHECK_OK(acid_compact_dir(dir, &c_schema, &wil, NULL, &minor, &a, &res,
                              &err),
             &err);
    CHECK(res.enough);
    CHECK_EQ(res.n_dirs_read, 3);           /* write id 2 is aborted */
    CHECK_EQ(res.n_rows, 110);              /* deletes not applied */
    CHECK_EQ(res.n_deletes, 3);
    CHECK_STR(res.insert_dir, "delta_0000001_0000004_v0000010");
    CHECK_STR(res.delete_dir, "delete_delta_0000001_0000004_v0000010");
    after = scan_text(dir, &wil, &a, &n_after, &err);
    CHECK(after != NULL);
    CHECK_EQ(n_after, n_before);
    CHECK_STR(after, before);

    CHECK_OK(acid_compact_dir(dir, &c_schema, &wil, NULL, &major, &a, &res,
                              &err),
             &err);
    CHECK(res.enough);
    CHECK_EQ(res.n_rows, 107);              /* deletes applied */
    CHECK_STR(res.insert_dir, "base_0000004_v0000011");
    CHECK(res.delete_dir == NULL);
    after = scan_text(dir, &wil, &a, &n_after, &err);
    CHECK(after != NULL);
    CHECK_STR(after, before);
    {
        AcidReader *r;
        AcidReaderOptions o = {NULL, false};
        CHECK_OK(acid_reader_open(dir, &c_schema, &wil, NULL, &o, &r, &err),
                 &err);
        CHECK_STR(acid_reader_dir_state(r)->base->name,
                  "base_0000004_v0000011");
        CHECK_EQ(acid_reader_dir_state(r)->n_deltas, 0);
        acid_reader_close(r);
    }
    /* a base alone: nothing to compact, obsolete directories wait */
    major.visibility_txn = 12;
    CHECK_OK(acid_compact_dir(dir, &c_schema, &wil, NULL, &major, &a, &res,
                              &err),
             &err);
    CHECK(!res.enough);
    CHECK(res.cleanable);
    CHECK(!fs_exists(comb_arena_printf(&a, "%s/base_0000004_v0000012", dir)));
    comb_idlist_free(&wil.ids);
    comb_arena_free(&a);
}

TEST(compact_minor_needs_two_deltas)
{
    const char *dir = unit_tmpdir();
    CombWriteIdList wil = {0};
    CombErr err;
    CombArena a;
    AcidCompactResult res;
    AcidCompactSpec minor = {false, 1, 5, ORC_COMP_NONE};
    comb_arena_init(&a, 4096);
    CHECK_OK(write_ids(dir, 1, 0, 10, &err), &err);
    CHECK_OK(comb_idlist_init(&wil.ids, 1, NULL, 0, NULL, 0), &err);
    CHECK_OK(acid_compact_dir(dir, &c_schema, &wil, NULL, &minor, &a, &res,
                              &err),
             &err);
    CHECK(!res.enough);
    CHECK(!res.cleanable);
    minor.hwm = 0;
    CHECK_EQ(acid_compact_dir(dir, &c_schema, &wil, NULL, &minor, &a, &res,
                              &err),
             COMB_EINVALID);
    comb_idlist_free(&wil.ids);
    comb_arena_free(&a);
}

TEST(compact_writer_refuses_rows_out_of_key_order)
{
    const char *dir = unit_tmpdir();
    static const CombType integer = {.kind = COMB_T_INT};
    const CombType *types[4] = {&acid_t_bigint, &acid_t_bigint, &integer,
                                &acid_t_bigint};
    AcidWriterOptions o;
    AcidWriter *w;
    CombBatch b;
    CombErr err;
    memset(&o, 0, sizeof o);
    o.keep_row_ids = true;
    o.base = true;
    o.insert_dir_name = "base_0000002_v0000009";
    CHECK_OK(acid_writer_open_opts(dir, &c_schema, 2, -1, ORC_COMP_NONE, &o,
                                   &w, &err),
             &err);
    comb_batch_init_types(&b, 4, types, 8);
    for (int i = 0; i < 2; i++) {
        b.cols[0].i64[i] = i;
        b.cols[1].i64[i] = 1;           /* write id */
        b.cols[2].i64[i] = 536870912;   /* bucket 0 */
        b.cols[3].i64[i] = 5 - i;       /* rowIds 5, 4: descending */
    }
    b.n_rows = 2;
    CHECK_EQ(acid_writer_insert(w, &b, NULL, &err), COMB_ECORRUPT);
    CHECK(strstr(err.msg, "out of ROW__ID order") != NULL);
    acid_writer_abort(w);
    comb_batch_free(&b);
}

TEST(compact_backlog_in_passes)
{
    const char *dir = unit_tmpdir();
    CombWriteIdList wil = {0};
    CombErr err;
    CombArena a;
    AcidCompactResult res;
    AcidCompactSpec major = {true, 7, 20, ORC_COMP_NONE, 3};
    char *before, *after;
    int n_before, n_after;
    comb_arena_init(&a, 1 << 16);
    for (int w = 1; w <= 7; w++)
        CHECK_OK(write_ids(dir, w, w * 100, w * 100 + 5, &err), &err);
    CHECK_OK(comb_idlist_init(&wil.ids, 7, NULL, 0, NULL, 0), &err);
    before = scan_text(dir, &wil, &a, &n_before, &err);
    CHECK(before != NULL);
    CHECK_EQ(n_before, 35);
    /* 7 deltas, 3 per pass: 1-3 into one, then (1-3),4,5 into 1-5, then
     * the major over 1-5, 6, 7 */
    CHECK_OK(acid_compact_dir(dir, &c_schema, &wil, NULL, &major, &a, &res,
                              &err),
             &err);
    CHECK(res.enough);
    CHECK_EQ(res.n_passes, 2);
    CHECK_EQ(res.n_dirs_read, 3);
    CHECK_EQ(res.n_rows, 35);
    CHECK_STR(res.insert_dir, "base_0000007_v0000020");
    CHECK_EQ(res.n_written, 3);
    CHECK_STR(res.written[0], "delta_0000001_0000003_v0000020");
    CHECK_STR(res.written[1], "delta_0000001_0000005_v0000020");
    after = scan_text(dir, &wil, &a, &n_after, &err);
    CHECK(after != NULL);
    CHECK_STR(after, before);
    comb_idlist_free(&wil.ids);
    comb_arena_free(&a);
}

typedef struct Progress {
    int calls;
    int64_t last;
    int64_t last_bytes;
    int stop_after;          /* fail on this call (0: never) */
} Progress;

static int on_progress(void *ctx, int64_t rows, int64_t bytes, CombErr *err)
{
    Progress *p = ctx;
    p->calls++;
    if (rows < p->last || bytes < p->last_bytes)
        return comb_err(err, COMB_EINTERNAL, "rows or bytes went down");
    p->last = rows;
    p->last_bytes = bytes;
    if (p->stop_after && p->calls == p->stop_after)
        return comb_err(err, COMB_ETXN, "txn gone");
    return COMB_OK;
}

TEST(compact_progress_and_stop)
{
    const char *dir = unit_tmpdir();
    CombWriteIdList wil = {0};
    CombErr err;
    CombArena a;
    AcidCompactResult res;
    Progress p = {0, 0, 0, 0};
    AcidCompactSpec major = {true, 2, 9, ORC_COMP_NONE, 0, on_progress, &p};
    comb_arena_init(&a, 1 << 16);
    CHECK_OK(write_ids(dir, 1, 0, 1000, &err), &err);
    CHECK_OK(write_ids(dir, 2, 1000, 2000, &err), &err);
    CHECK_OK(comb_idlist_init(&wil.ids, 2, NULL, 0, NULL, 0), &err);
    /* the callback stops it: nothing is left behind */
    p.stop_after = 1;
    CHECK_EQ(acid_compact_dir(dir, &c_schema, &wil, NULL, &major, &a, &res,
                              &err),
             COMB_ETXN);
    CHECK(!fs_exists(comb_arena_printf(&a, "%s/base_0000002_v0000009", dir)));
    p = (Progress){0, 0, 0, 0};
    CHECK_OK(acid_compact_dir(dir, &c_schema, &wil, NULL, &major, &a, &res,
                              &err),
             &err);
    CHECK(p.calls >= 2);
    CHECK_EQ(p.last, 2000);
    CHECK(p.last_bytes > 0); /* the input's stripes were read */
    CHECK_EQ(res.n_rows, 2000);
    comb_idlist_free(&wil.ids);
    comb_arena_free(&a);
}
