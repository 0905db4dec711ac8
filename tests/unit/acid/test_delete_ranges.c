/* The delete merge of an insert delta's batch by key range (reader.c's
 * filter_insert_run: consecutive rowIds of one originalTransaction and
 * bucket, the delete events of the batch's range naming their rows
 * directly) drops exactly the rows a model names: events at the first and
 * last rowId of a file and of each 1024-row batch, a run across a batch
 * boundary, events past the file's last rowId, events of another write
 * id, statement or bucket with the same rowIds, delete deltas aborted,
 * open or above the snapshot, one event in two delete deltas; and a file
 * whose rowIds are not consecutive, which takes the row-by-row merge.
 * Each scan is checked with and without ROW__IDs (with them the
 * row-by-row merge runs), against the model. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "common/alloc.h"
#include "orc/orc.h"

static const char *const dr_names[1] = {"id"};
static const CombType *const dr_types[1] = {&acid_t_bigint};
static const AcidSchema dr_schema = {1, dr_names, dr_types};

#define DR_ROWS 3000  /* rows per file: batches 0-1023, 1024-2047, 2048- */
#define DR_FILES 4     /* files of data at most */
#define DR_MAX_ID (DR_FILES * DR_ROWS + 16)

/* The model: each id's ROW__ID and whether a visible delete names it. */
typedef struct DrRow {
    bool present, deleted;
    int64_t wid, row_id;
    int32_t prop;
} DrRow;

static DrRow dr_rows[DR_MAX_ID];

/* Write id w, statement stmt, puts DR_ROWS rows in each bucket below
 * n_buckets: ids first + b * DR_ROWS + i, rowIds i = 0, 1, 2, ... */
static int insert_files(const char *dir, int64_t w, int stmt, int n_buckets,
                        int64_t first, CombErr *err)
{
    int n = n_buckets * DR_ROWS, rc;
    int *buckets = comb_malloc((size_t)n * sizeof *buckets);
    AcidWriter *wr;
    CombBatch b;
    if (!buckets)
        return comb_err_nomem(err);
    if ((rc = acid_writer_open(dir, &dr_schema, w, stmt, ORC_COMP_ZLIB, &wr,
                               err))) {
        comb_free(buckets);
        return rc;
    }
    if (comb_batch_init_types(&b, 1, dr_types, n)) {
        comb_free(buckets);
        return writer_finish(wr, COMB_ENOMEM, NULL, err);
    }
    for (int i = 0; i < n; i++) {
        DrRow *m = &dr_rows[first + i];
        b.cols[0].i64[i] = first + i;
        buckets[i] = i / DR_ROWS;
        m->present = true;
        m->wid = w;
        m->row_id = i % DR_ROWS;
        acid_bucket_encode(buckets[i], stmt, &m->prop, err);
    }
    b.n_rows = n;
    rc = acid_writer_insert(wr, &b, buckets, err);
    comb_batch_free(&b);
    comb_free(buckets);
    return writer_finish(wr, rc, NULL, err);
}

/* A fresh model and four files: write id 1 buckets 0 (ids 0..) and 1
 * (ids 3000..), write id 2 bucket 0 (ids 6000.., the same rowIds as write
 * id 1's), write id w3 statement 1 bucket 0 (ids 9000..). */
static int insert_four_files(const char *dir, int64_t w3, CombErr *err)
{
    int rc;
    memset(dr_rows, 0, sizeof dr_rows);
    if ((rc = insert_files(dir, 1, 0, 2, 0, err)) ||
        (rc = insert_files(dir, 2, 0, 1, 2 * DR_ROWS, err)))
        return rc;
    return insert_files(dir, w3, 1, 1, 3 * DR_ROWS, err);
}

/* One delete event: (owid, bucket property of bucket/stmt, rowId). */
typedef struct DrEvent {
    int64_t owid;
    int bucket, stmt;
    int64_t row_id;
} DrEvent;

/* Write id w deletes the n events; `visible`: the scans' snapshot sees
 * w, so the model drops the rows named. */
static int delete_events(const char *dir, int64_t w, const DrEvent *ev,
                         int n, bool visible, CombErr *err)
{
    AcidWriter *wr;
    int rc = acid_writer_open(dir, &dr_schema, w, 0, ORC_COMP_ZLIB, &wr, err);
    for (int i = 0; !rc && i < n; i++) {
        int32_t prop;
        if ((rc = acid_bucket_encode(ev[i].bucket, ev[i].stmt, &prop, err)))
            break;
        rc = acid_writer_delete(wr, ev[i].owid, prop, ev[i].row_id, err);
        for (int id = 0; visible && id < DR_MAX_ID; id++) {
            DrRow *m = &dr_rows[id];
            if (m->present && m->wid == ev[i].owid && m->prop == prop &&
                m->row_id == ev[i].row_id)
                m->deleted = true;
        }
    }
    return writer_finish(wr, rc, NULL, err);
}

/* Sorted lines of the model's visible rows ("id [w,prop,rowId]" with
 * ROW__IDs, "id -" without). */
static char *model_lines(bool want_row_id, CombArena *a)
{
    char **lines = comb_arena_alloc(a, DR_MAX_ID * sizeof *lines);
    int n = 0;
    for (int id = 0; id < DR_MAX_ID; id++) {
        const DrRow *m = &dr_rows[id];
        if (!m->present || m->deleted)
            continue;
        if (want_row_id)
            lines[n++] = comb_arena_printf(a, "[%d] [%lld,%d,%lld]", id,
                                           (long long)m->wid, (int)m->prop,
                                           (long long)m->row_id);
        else
            lines[n++] = comb_arena_printf(a, "[%d] -", id);
    }
    return sorted_lines_text(lines, n, a);
}

static void check_against_model(const char *dir, const CombWriteIdList *wil,
                                CombArena *a)
{
    CombErr err;
    for (int ids = 0; ids < 2; ids++) {
        char *got = scan_sorted_lines(dir, &dr_schema, wil, ids, a, &err);
        CHECK_OK(got ? COMB_OK : err.code, &err);
        CHECK_STR(got, model_lines(ids, a));
    }
}

TEST(delete_ranges_exact_rows)
{
    const char *dir = unit_tmpdir();
    static const DrEvent committed[] = {
        {1, 0, 0, 0},    {1, 0, 0, 1},    {1, 0, 0, 1022}, {1, 0, 0, 1023},
        {1, 0, 0, 1024}, {1, 0, 0, 2047}, {1, 0, 0, 2048}, {1, 0, 0, 2999},
        {1, 0, 0, 3000}, {1, 0, 0, 3001}, {1, 0, 0, 99999},
        {2, 0, 0, 5},    {1, 0, 1, 7},    {1, 1, 0, 1023}, {9, 0, 0, 10}};
    static const DrEvent aborted_ev[] = {{1, 0, 0, 100}, {2, 0, 0, 100}};
    static const DrEvent open_ev[] = {{1, 0, 0, 200}};
    static const DrEvent above_ev[] = {{1, 0, 0, 300}, {2, 0, 0, 0}};
    DrEvent second[40];
    int64_t aborted = 4, open = 5;
    int n_second = 0;
    CombWriteIdList wil;
    CombArena a;
    CombErr err;
    comb_arena_init(&a, 1 << 16);
    CHECK_OK(insert_four_files(dir, 1, &err), &err);
    CHECK_OK(delete_events(dir, 3, committed,
                           (int)(sizeof committed / sizeof *committed), true,
                           &err),
             &err);
    CHECK_OK(delete_events(dir, 4, aborted_ev, 2, false, &err), &err);
    CHECK_OK(delete_events(dir, 5, open_ev, 1, false, &err), &err);
    /* write id 6: a run across the 1024 boundary of write id 2's file,
     * its last rows, and rowId 0 of write id 1 again */
    for (int64_t r = 1015; r <= 1030; r++)
        second[n_second++] = (DrEvent){2, 0, 0, r};
    for (int64_t r = 2990; r <= 2999; r++)
        second[n_second++] = (DrEvent){2, 0, 0, r};
    second[n_second++] = (DrEvent){1, 0, 0, 0};
    CHECK_OK(delete_events(dir, 6, second, n_second, true, &err), &err);
    CHECK_OK(delete_events(dir, 7, above_ev, 2, false, &err), &err);

    wil_make(&wil, 6, &open, 1, &aborted, 1);
    check_against_model(dir, &wil, &a);
    /* the rows the events name, one by one (the model could be wrong) */
    CHECK(dr_rows[0].deleted && dr_rows[1023].deleted &&
          dr_rows[1024].deleted && dr_rows[2999].deleted);
    CHECK(!dr_rows[2].deleted && !dr_rows[1021].deleted &&
          !dr_rows[2046].deleted && !dr_rows[100].deleted &&
          !dr_rows[200].deleted && !dr_rows[300].deleted);
    CHECK(dr_rows[DR_ROWS + 1023].deleted &&
          !dr_rows[DR_ROWS + 1022].deleted && !dr_rows[DR_ROWS].deleted);
    CHECK(dr_rows[2 * DR_ROWS + 5].deleted &&
          !dr_rows[2 * DR_ROWS].deleted &&
          dr_rows[2 * DR_ROWS + 1024].deleted &&
          !dr_rows[2 * DR_ROWS + 1031].deleted);
    CHECK(dr_rows[3 * DR_ROWS + 7].deleted && !dr_rows[3 * DR_ROWS].deleted);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* A delta whose rowIds are 0, 2, 4, ... (kept from elsewhere, as a
 * compaction's are): an event for rowId 2 drops the second row, one for
 * rowId 3 none (the range merge would take its rows' positions for
 * rowIds). */
TEST(delete_ranges_rowids_not_consecutive)
{
    static const CombType t_int = {.kind = COMB_T_INT};
    const CombType *types[4] = {&acid_t_bigint, &acid_t_bigint, &t_int,
                                &acid_t_bigint};
    static const DrEvent ev[] = {{8, 0, 0, 2}, {8, 0, 0, 3}, {8, 0, 0, 7}};
    const char *dir = unit_tmpdir();
    AcidWriterOptions o = {.keep_row_ids = true,
                           .insert_dir_name = "delta_0000008_0000008"};
    AcidWriter *wr;
    CombWriteIdList wil;
    CombBatch b;
    CombArena a;
    CombErr err;
    int32_t prop;
    comb_arena_init(&a, 1 << 16);
    memset(dr_rows, 0, sizeof dr_rows);
    CHECK_OK(acid_bucket_encode(0, 0, &prop, &err), &err);
    CHECK_OK(acid_writer_open_opts(dir, &dr_schema, 8, -1, ORC_COMP_ZLIB, &o,
                                   &wr, &err),
             &err);
    CHECK_OK(comb_batch_init_types(&b, 4, types, 8), &err);
    for (int i = 0; i < 8; i++) {
        DrRow *m = &dr_rows[i];
        b.cols[0].i64[i] = i;
        b.cols[1].i64[i] = 8;
        b.cols[2].i64[i] = prop;
        b.cols[3].i64[i] = 2 * i;
        *m = (DrRow){true, false, 8, 2 * i, prop};
    }
    b.n_rows = 8;
    CHECK_OK(writer_finish(wr, acid_writer_insert(wr, &b, NULL, &err), NULL,
                           &err),
             &err);
    comb_batch_free(&b);
    CHECK_OK(delete_events(dir, 9, ev, 3, true, &err), &err);
    CHECK(dr_rows[1].deleted && !dr_rows[2].deleted && !dr_rows[3].deleted);
    wil_make(&wil, 9, NULL, 0, NULL, 0);
    check_against_model(dir, &wil, &a);
    wil_free(&wil);
    comb_arena_free(&a);
}

/* Delete files of one write id and bucket property have constant
 * statistics (those columns are not decoded); a minor compaction's
 * delete file holds events of two write ids and two statements: both
 * read to the same rows. */
TEST(delete_ranges_compacted_delete_delta)
{
    static const DrEvent w3[] = {{1, 0, 0, 0}, {1, 0, 0, 1500}, {1, 1, 0, 9},
                                 {2, 0, 0, 2999}};
    static const DrEvent w4[] = {{1, 0, 0, 1500}, {1, 0, 0, 1501},
                                 {2, 0, 1, 4}, {1, 1, 0, 2999}};
    const char *dir = unit_tmpdir();
    AcidCompactSpec minor = {false, 4, 10, ORC_COMP_ZLIB};
    AcidCompactResult res;
    CombWriteIdList wil;
    CombArena a;
    CombErr err;
    comb_arena_init(&a, 1 << 16);
    CHECK_OK(insert_four_files(dir, 2, &err), &err);
    CHECK_OK(delete_events(dir, 3, w3, 4, true, &err), &err);
    CHECK_OK(delete_events(dir, 4, w4, 4, true, &err), &err);
    CHECK(dr_rows[1500].deleted && dr_rows[1501].deleted &&
          dr_rows[DR_ROWS + 9].deleted && dr_rows[3 * DR_ROWS + 4].deleted);
    wil_make(&wil, 4, NULL, 0, NULL, 0);
    check_against_model(dir, &wil, &a);
    CHECK_OK(acid_compact_dir(dir, &dr_schema, &wil, NULL, &minor, &a, &res,
                              &err),
             &err);
    CHECK_STR(res.delete_dir, "delete_delta_0000001_0000004_v0000010");
    check_against_model(dir, &wil, &a);
    wil_free(&wil);
    comb_arena_free(&a);
}
