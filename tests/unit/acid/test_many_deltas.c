/* Merge on read over many small deltas (the per-file shortcuts of
 * reader.c: one listing per directory telling files from directories and
 * side files, one ORC batch kept from file to file while the schema stays
 * the same, the metadata decoded only where a delete event may hit and
 * currentTransaction only where some write id is not valid): the rows and
 * ROW__IDs are exactly those a model of the table gives, over an empty
 * base file, 200 deltas in three buckets written under two schemas, and
 * two delete deltas deleting rows of many files (some rows twice); the
 * same after a major compaction, and with write ids aborted and open. */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "common/alloc.h"
#include "fs/fs.h"
#include "orc/orc.h"

#define MD_DELTAS 200
#define MD_BUCKETS 3
#define MD_MAX_ID (MD_DELTAS * 10 + 10)

static const char *const md_names[2] = {"id", "s"};
static const CombType *const md_types[2] = {&acid_t_bigint, &acid_t_string};
/* deltas up to write id 100 are written before `s` was added */
static const AcidSchema md_old = {1, md_names, md_types};
static const AcidSchema md_new = {2, md_names, md_types};

/* The model: each id's ROW__ID (writeId, bucket property, rowId) and
 * whether a delete names it. */
typedef struct MdRow {
    bool present;
    bool deleted;
    int64_t wid;
    int32_t prop;
    int64_t row_id;
} MdRow;

static MdRow md_rows[MD_MAX_ID];

/* Delta w holds ids w*10 .. w*10 + w%7 - 1 (none when w%7 == 0), bucket
 * id % 3: files of one, two or three rows, some buckets without one. */
static int write_delta(const char *dir, int64_t w, CombErr *err)
{
    const AcidSchema *schema = w <= 100 ? &md_old : &md_new;
    int n = (int)(w % 7), buckets[7], next[MD_BUCKETS] = {0}, rc;
    char text[7][16];
    AcidWriter *wr;
    CombBatch b;
    if (n == 0)
        return COMB_OK;
    if ((rc = acid_writer_open(dir, schema, w, 0, ORC_COMP_ZLIB, &wr, err)))
        return rc;
    if (comb_batch_init_types(&b, schema->n_cols, md_types, 8))
        return writer_finish(wr, COMB_ENOMEM, NULL, err);
    for (int i = 0; i < n; i++) {
        int64_t id = w * 10 + i;
        MdRow *m = &md_rows[id];
        b.cols[0].i64[i] = id;
        if (schema->n_cols == 2) {
            snprintf(text[i], sizeof text[i], "v%lld", (long long)id);
            b.cols[1].str[i] = (CombStr){text[i], strlen(text[i])};
        }
        buckets[i] = (int)(id % MD_BUCKETS);
        m->present = true;
        m->wid = w;
        m->row_id = next[buckets[i]]++;
        acid_bucket_encode(buckets[i], 0, &m->prop, err);
    }
    b.n_rows = n;
    rc = acid_writer_insert(wr, &b, buckets, err);
    comb_batch_free(&b);
    return writer_finish(wr, rc, NULL, err);
}

/* Write id w deletes every present id with id % mod == rem. */
static int delete_where(const char *dir, int64_t w, int mod, int rem,
                        CombErr *err)
{
    AcidWriter *wr;
    int rc = acid_writer_open(dir, &md_new, w, 0, ORC_COMP_ZLIB, &wr, err);
    if (rc)
        return rc;
    for (int id = 0; !rc && id < MD_MAX_ID; id++) {
        MdRow *m = &md_rows[id];
        if (!m->present || id % mod != rem)
            continue;
        rc = acid_writer_delete(wr, m->wid, m->prop, m->row_id, err);
        m->deleted = true;
    }
    return writer_finish(wr, rc, NULL, err);
}

/* An INSERT OVERWRITE of no rows: base_1 with Hive's empty bucket_00000. */
static int write_empty_base(const char *dir, CombErr *err)
{
    AcidWriterOptions o = {.base = true};
    AcidWriter *wr;
    int rc = acid_writer_open_opts(dir, &md_new, 1, -1, ORC_COMP_ZLIB, &o,
                                   &wr, err);
    return rc ? rc : writer_finish(wr, COMB_OK, NULL, err);
}

/* The same lines from the model: ids whose write id is valid and that no
 * delete names (skip: a write id whose rows are not visible, or 0). */
static char *model_lines(bool want_row_id, int64_t skip1, int64_t skip2,
                         CombArena *a)
{
    char **lines = comb_arena_alloc(a, MD_MAX_ID * sizeof *lines);
    int n = 0;
    for (int id = 0; id < MD_MAX_ID; id++) {
        const MdRow *m = &md_rows[id];
        char ids[64] = "-";
        if (!m->present || m->deleted || m->wid == skip1 || m->wid == skip2)
            continue;
        if (want_row_id)
            snprintf(ids, sizeof ids, "[%lld,%d,%lld]", (long long)m->wid,
                     (int)m->prop, (long long)m->row_id);
        if (m->wid <= 100)
            lines[n++] = comb_arena_printf(a, "[%d,null] %s", id, ids);
        else
            lines[n++] = comb_arena_printf(a, "[%d,\"v%d\"] %s", id, id, ids);
    }
    return sorted_lines_text(lines, n, a);
}

static void check_scans(const char *dir, const CombWriteIdList *wil,
                        int64_t skip1, int64_t skip2, CombArena *a)
{
    CombErr err;
    for (int ids = 0; ids < 2; ids++) {
        char *got = scan_sorted_lines(dir, &md_new, wil, ids, a, &err);
        CHECK_OK(got ? COMB_OK : err.code, &err);
        CHECK_STR(got, model_lines(ids, skip1, skip2, a));
    }
}

/* 200 deltas, deletes across files, an empty file; a directory named like
 * a data file; two schemas; then aborted and open write ids; then the
 * compacted base. */
TEST(many_deltas_merge_exactly)
{
    const char *dir = unit_tmpdir();
    CombWriteIdList wil;
    int64_t aborted = 100, open = 150;
    AcidCompactSpec major = {true, 202, 300, ORC_COMP_ZLIB};
    AcidCompactResult res;
    CombArena a;
    CombErr err;
    comb_arena_init(&a, 1 << 16);
    memset(md_rows, 0, sizeof md_rows);
    CHECK_OK(write_empty_base(dir, &err), &err);
    for (int64_t w = 2; w <= MD_DELTAS; w++)
        CHECK_OK(write_delta(dir, w, &err), &err);
    CHECK_OK(delete_where(dir, 201, 5, 0, &err), &err);
    CHECK_OK(delete_where(dir, 202, 4, 1, &err), &err); /* some twice */
    /* not a data file, though named like one */
    CHECK_OK(fs_mkdirs(comb_arena_printf(&a, "%s/delta_0000009_0000009_0000/"
                                             "bucket_00002", dir),
                       &err),
             &err);

    wil_make(&wil, 202, NULL, 0, NULL, 0);
    check_scans(dir, &wil, 0, 0, &a);
    wil_free(&wil);
    /* 100 aborted, 150 open: their directories are not all valid */
    wil_make(&wil, 202, &open, 1, &aborted, 1);
    check_scans(dir, &wil, 100, 150, &a);
    wil_free(&wil);

    wil_make(&wil, 202, NULL, 0, NULL, 0);
    CHECK_OK(acid_compact_dir(dir, &md_new, &wil, NULL, &major, &a, &res,
                              &err),
             &err);
    CHECK_STR(res.insert_dir, "base_0000202_v0000300");
    check_scans(dir, &wil, 0, 0, &a);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* A file of an all-valid delta with a _flush_length side file is read at
 * the committed length the listing's side file gives (the bytes after it
 * are a streaming writer's next stripe, not yet committed). */
TEST(many_deltas_listed_side_file_is_honoured)
{
    const char *dir = unit_tmpdir();
    const int64_t vals[3] = {7, 8, 9};
    char *file, *side;
    uint64_t len;
    CombWriteIdList wil;
    CombArena a;
    CombErr err;
    ScanRows s;
    FILE *f;
    comb_arena_init(&a, 4096);
    CHECK_OK(write_rows(dir, &md_old, md_types, 1, 0, ORC_COMP_ZLIB, vals, 3,
                        &err),
             &err);
    file = comb_arena_printf(&a, "%s/delta_0000001_0000001_0000/bucket_00000",
                             dir);
    side = acid_flush_length_path(&a, file);
    CHECK_OK(fs_file_size(file, &len, &err), &err);
    CHECK_OK(acid_flush_length_append(side, len, true, &err), &err);
    CHECK((f = fopen(file, "ab")) != NULL);
    fputs("bytes past the committed length", f);
    fclose(f);
    wil_make(&wil, 1, NULL, 0, NULL, 0);
    CHECK_OK(scan_table(dir, &md_old, &wil, false, &a, &s, &err), &err);
    CHECK_EQ(s.n, 3);
    scan_rows_free(&s);
    /* without the side file the whole file is read: the garbage tail */
    CHECK_OK(fs_unlink(side, &err), &err);
    CHECK(scan_table(dir, &md_old, &wil, false, &a, &s, &err) ==
          COMB_ECORRUPT);
    scan_rows_free(&s);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* A delete file whose events name another writer than its bucket_N is
 * refused (checked once per run of equal bucket properties). */
TEST(many_deltas_delete_file_of_another_writer)
{
    const char *dir = unit_tmpdir();
    const int64_t vals[2] = {1, 2};
    AcidWriter *wr;
    CombWriteIdList wil;
    CombArena a;
    CombErr err;
    ScanRows s;
    int32_t prop0;
    comb_arena_init(&a, 4096);
    memset(md_rows, 0, sizeof md_rows);
    CHECK_OK(acid_bucket_encode(0, 0, &prop0, &err), &err);
    CHECK_OK(write_rows(dir, &md_old, md_types, 1, 0, ORC_COMP_ZLIB, vals, 2,
                        &err),
             &err);
    CHECK_OK(acid_writer_open(dir, &md_old, 2, 0, ORC_COMP_ZLIB, &wr, &err),
             &err);
    CHECK_OK(writer_finish(wr, acid_writer_delete(wr, 1, prop0, 1, &err),
                           NULL, &err),
             &err);
    wil_make(&wil, 2, NULL, 0, NULL, 0);
    CHECK_OK(scan_table(dir, &md_old, &wil, false, &a, &s, &err), &err);
    CHECK_EQ(s.n, 1);
    scan_rows_free(&s);
    /* the same events under bucket_00001's name */
    CHECK_OK(fs_rename(comb_arena_printf(&a, "%s/delete_delta_0000002_0000002_"
                                             "0000/bucket_00000", dir),
                       comb_arena_printf(&a, "%s/delete_delta_0000002_0000002_"
                                             "0000/bucket_00001", dir),
                       &err),
             &err);
    /* data of bucket 1, so that bucket_00001's events are loaded */
    CHECK_OK(write_delta(dir, 3, &err), &err);
    wil_free(&wil);
    wil_make(&wil, 3, NULL, 0, NULL, 0);
    CHECK(scan_table(dir, &md_old, &wil, false, &a, &s, &err) ==
          COMB_ECORRUPT);
    scan_rows_free(&s);
    CHECK(strstr(err.msg, "(writer 0) in the file of bucket 1") != NULL);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* A delta of several write ids (a compacted or streaming one) with one of
 * them aborted is not all valid: currentTransaction is decoded there and
 * the aborted write id's row is dropped, next to an all-valid delta whose
 * rows need no such look. */
TEST(many_deltas_current_where_not_all_valid)
{
    static const CombType t_int = {.kind = COMB_T_INT};
    const CombType *types[5] = {&acid_t_bigint, &acid_t_string,
                                &acid_t_bigint, &t_int, &acid_t_bigint};
    const char *dir = unit_tmpdir();
    AcidWriterOptions o = {.keep_row_ids = true,
                           .insert_dir_name = "delta_0000300_0000302"};
    const int64_t vals[1] = {5};
    int64_t aborted = 301;
    AcidWriter *wr;
    CombWriteIdList wil;
    CombBatch b;
    CombArena a;
    CombErr err;
    ScanRows s;
    int32_t prop;
    comb_arena_init(&a, 4096);
    CHECK_OK(write_rows(dir, &md_old, md_types, 1, 0, ORC_COMP_ZLIB, vals, 1,
                        &err),
             &err);
    CHECK_OK(acid_bucket_encode(0, 0, &prop, &err), &err);
    CHECK_OK(acid_writer_open_opts(dir, &md_new, 302, -1, ORC_COMP_ZLIB, &o,
                                   &wr, &err),
             &err);
    CHECK_OK(comb_batch_init_types(&b, 5, types, 4), &err);
    for (int i = 0; i < 3; i++) {
        b.cols[0].i64[i] = 3000 + i;
        b.cols[1].str[i] = (CombStr){"x", 1};
        b.cols[2].i64[i] = 300 + i;
        b.cols[3].i64[i] = prop;
        b.cols[4].i64[i] = 0;
    }
    b.n_rows = 3;
    CHECK_OK(writer_finish(wr, acid_writer_insert(wr, &b, NULL, &err), NULL,
                           &err),
             &err);
    comb_batch_free(&b);
    wil_make(&wil, 302, NULL, 0, &aborted, 1);
    CHECK_OK(scan_table(dir, &md_new, &wil, false, &a, &s, &err), &err);
    CHECK_EQ(s.n, 3);
    for (int i = 0; i < s.n; i++)
        CHECK(strstr(s.rows[i], "3001") == NULL);
    scan_rows_free(&s);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* Rows and stripes read of a scan of dir at write id hwm (no ROW__IDs). */
static int scan_counting(const char *dir, int64_t hwm, int *rows,
                         OrcReadCounters *c, CombErr *err)
{
    CombWriteIdList wil;
    AcidReader *r;
    CombBatch b;
    int rc;
    *rows = 0;
    wil_make(&wil, hwm, NULL, 0, NULL, 0);
    rc = acid_reader_open(dir, &md_old, &wil, NULL, NULL, &r, err);
    wil_free(&wil);
    if (rc)
        return rc;
    if ((rc = acid_reader_batch_init(r, &b))) {
        acid_reader_close(r);
        return comb_err_nomem(err);
    }
    while (!(rc = acid_reader_next(r, &b, err)) && b.n_rows > 0)
        *rows += comb_batch_live(&b);
    acid_reader_counters(r, c);
    comb_batch_free(&b);
    acid_reader_close(r);
    return rc;
}

/* Write id w deletes rowIds [lo, hi] of write id 1's bucket 0. */
static int delete_row_ids(const char *dir, int64_t w, int64_t lo, int64_t hi,
                          CombErr *err)
{
    AcidWriter *wr;
    int32_t prop;
    int rc = acid_bucket_encode(0, 0, &prop, err);
    if (rc || (rc = acid_writer_open(dir, &md_old, w, 0, ORC_COMP_ZLIB, &wr,
                                     err)))
        return rc;
    for (int64_t id = lo; !rc && id <= hi; id++)
        rc = acid_writer_delete(wr, 1, prop, id, err);
    return writer_finish(wr, rc, NULL, err);
}

/* A file every row of which a delete names is not read at all; one row
 * left out of the deletes (at either end, or in the middle deleted by a
 * later statement only after the scan's snapshot) and it is read. */
TEST(many_deltas_wholly_deleted_file_is_not_read)
{
    const char *dir = unit_tmpdir();
    const int64_t five[5] = {1, 2, 3, 4, 5}, two[2] = {10, 11};
    OrcReadCounters c;
    CombErr err;
    int rows;
    CHECK_OK(write_rows(dir, &md_old, md_types, 1, 0, ORC_COMP_ZLIB, five, 5,
                        &err),
             &err);
    CHECK_OK(write_rows(dir, &md_old, md_types, 2, 0, ORC_COMP_ZLIB, two, 2,
                        &err),
             &err);
    CHECK_OK(delete_row_ids(dir, 3, 1, 4, &err), &err);
    CHECK_OK(scan_counting(dir, 3, &rows, &c, &err), &err);
    CHECK_EQ(rows, 3);            /* 1 of write id 1, both of 2 */
    CHECK_EQ(c.stripes_read, 2);
    CHECK_OK(delete_row_ids(dir, 4, 0, 0, &err), &err);
    CHECK_OK(scan_counting(dir, 3, &rows, &c, &err), &err);
    CHECK_EQ(rows, 3);            /* write id 4 is not in the snapshot */
    CHECK_EQ(c.stripes_read, 2);
    CHECK_OK(scan_counting(dir, 4, &rows, &c, &err), &err);
    CHECK_EQ(rows, 2);
    CHECK_EQ(c.stripes_read, 1);  /* write id 1's file left unread */
}
