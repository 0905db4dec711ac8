/* The reader on ACID tables written by other engines
 * (../shared/testdata/hive-acid-tables, see its README.md): every row and
 * ROW__ID compared with the fixtures' expected.json. */
#include "unit.h"

#include <stdio.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "fs/fs.h"
#include "orc/orc.h"

/* Schema of a fixture: from expected.json's "schema" array. */
typedef struct Fixture {
    CombArena arena;
    JsonNode *json;
    AcidSchema schema;
    char dir[1024];
} Fixture;

static bool fixture_open(Fixture *f, const char *name)
{
    const JsonNode *cols;
    char path[1200];
    const char **names;
    const CombType **types;
    comb_arena_init(&f->arena, 1 << 20);
    snprintf(f->dir, sizeof f->dir, "%s/hive-acid-tables/%s", unit_testdata(),
             name);
    snprintf(path, sizeof path, "%s/expected.json", f->dir);
    f->json = json_parse_file(path, &f->arena);
    if (!f->json || !(cols = json_get(f->json, "schema")))
        return false;
    names = comb_arena_alloc(&f->arena, (size_t)cols->n * sizeof *names);
    types = comb_arena_alloc(&f->arena, (size_t)cols->n * sizeof *types);
    for (int i = 0; i < cols->n; i++) {
        names[i] = json_get(cols->items[i], "name")->s;
        types[i] = acid_test_type(json_get(cols->items[i], "type")->s);
        if (!types[i])
            return false;
    }
    f->schema.n_cols = cols->n;
    f->schema.names = names;
    f->schema.types = types;
    return true;
}

static void fixture_close(Fixture *f)
{
    comb_arena_free(&f->arena);
}

/* Scanned rows equal the JSON arrays rows[] and (if given) row_ids[]. */
static bool rows_match(const ScanRows *got, const JsonNode *rows,
                       const JsonNode *ids, CombArena *a)
{
    if (!rows || rows->kind != JSON_ARRAY || got->n != rows->n) {
        printf("    row count %d, expected %d\n", got->n, rows ? rows->n : -1);
        return false;
    }
    for (int i = 0; i < got->n; i++) {
        char *want = json_text(rows->items[i], a);
        if (strcmp(got->rows[i], want) != 0) {
            printf("    row %d: %s != %s\n", i, got->rows[i], want);
            return false;
        }
        if (ids && ids->kind == JSON_ARRAY) {
            want = json_text(ids->items[i], a);
            if (strcmp(got->ids[i], want) != 0) {
                printf("    row id %d: %s != %s\n", i, got->ids[i], want);
                return false;
            }
        }
    }
    return true;
}

/* Scanned rows equal the "rows" and "row_ids" of a JSON object (the
 * fixture's expected.json or one of its snapshots). */
static bool rows_match_json(const ScanRows *got, const JsonNode *expected,
                            CombArena *a)
{
    return rows_match(got, json_get(expected, "rows"),
                      json_get(expected, "row_ids"), a);
}

/* scan_at of a table of the fixture's schema (its own directory or a
 * layout built from it), rows in the fixture's arena. */
static int fixture_scan(Fixture *f, const char *dir, int64_t hwm,
                        bool want_row_id, ScanRows *got, CombErr *err)
{
    return scan_at(dir, &f->schema, hwm, want_row_id, &f->arena, got, err);
}

/* A fixture file placed as dir/delta/bucket_00000: Hive reads only bucket
 * files in a delta (see reader.c). */
static int place_bucket(const char *from, const char *dir, const char *delta,
                        CombErr *err)
{
    char to[1200];
    int rc;
    snprintf(to, sizeof to, "%s/%s", dir, delta);
    if ((rc = fs_mkdirs(to, err)))
        return rc;
    snprintf(to, sizeof to, "%s/%s/bucket_00000", dir, delta);
    return copy_file(from, to, err);
}

/* -------------------------------------------- trino_nation_25k_delete_deltas */

/* Count the rows of a scan whose first column (n_nationkey) is `key`. */
static int count_key(const ScanRows *s, int key)
{
    char prefix[32];
    int n = 0;
    snprintf(prefix, sizeof prefix, "[%d,", key);
    for (int i = 0; i < s->n; i++)
        n += strncmp(s->rows[i], prefix, strlen(prefix)) == 0;
    return n;
}

TEST(acceptance_nation_25k_delete_deltas)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombWriteIdList wil;
    CombErr err;
    CHECK(fixture_open(&f, "trino_nation_25k_delete_deltas"));
    CHECK_EQ(json_get(f.json, "row_count")->i, 23000);

    /* hwm 4, nothing open: every row and ROW__ID as expected, in order */
    CHECK_OK(fixture_scan(&f, f.dir, 4, true, &got, &err), &err);
    CHECK_EQ(got.n, 23000);
    CHECK(rows_match_json(&got, f.json, &f.arena));
    CHECK_EQ(count_key(&got, 5), 0);
    CHECK_EQ(count_key(&got, 19), 0);
    CHECK_EQ(count_key(&got, 0), 1000);
    scan_rows_free(&got);

    /* hwm 3: the delete of write 4 is not visible yet */
    CHECK_OK(fixture_scan(&f, f.dir, 3, true, &got, &err), &err);
    CHECK_EQ(got.n, 24000);
    CHECK_EQ(count_key(&got, 5), 0);
    CHECK_EQ(count_key(&got, 19), 1000);
    for (int k = 0; k < 25; k++)
        if (k != 5)
            CHECK_EQ(count_key(&got, k), 1000);
    scan_rows_free(&got);

    /* hwm 2: both deletes invisible */
    CHECK_OK(fixture_scan(&f, f.dir, 2, true, &got, &err), &err);
    CHECK_EQ(got.n, 25000);
    for (int i = 0; i < got.n; i++) {
        char want[64];
        snprintf(want, sizeof want, "[2,536870912,%d]", i);
        CHECK_STR(got.ids[i], want);
    }
    scan_rows_free(&got);

    /* hwm 4 with write 3 aborted: only nation 19 is gone */
    {
        int64_t ab = 3;
        wil_make(&wil, 4, NULL, 0, &ab, 1);
    }
    CHECK_OK(scan_table(f.dir, &f.schema, &wil, false, &f.arena, &got, &err),
             &err);
    wil_free(&wil);
    CHECK_EQ(got.n, 24000);
    CHECK_EQ(count_key(&got, 5), 1000);
    CHECK_EQ(count_key(&got, 19), 0);
    scan_rows_free(&got);
    fixture_close(&f);
}

/* The same table with a projection: unprojected columns read as NULL. */
TEST(fixture_nation_projection)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    AcidReader *r;
    CombBatch b;
    CombWriteIdList wil;
    CombErr err;
    bool project[4] = {true, false, false, false};
    AcidReaderOptions opt = {project, false};
    int64_t live = 0, sum = 0;
    CHECK(fixture_open(&f, "trino_nation_25k_delete_deltas"));
    wil_make(&wil, 4, NULL, 0, NULL, 0);
    CHECK_OK(acid_reader_open(f.dir, &f.schema, &wil, NULL, &opt, &r, &err),
             &err);
    wil_free(&wil); /* the reader keeps its own copy */
    CHECK(acid_reader_batch_init(r, &b) == COMB_OK);
    for (;;) {
        CHECK_OK(acid_reader_next(r, &b, &err), &err);
        if (b.n_rows == 0)
            break;
        for (int i = 0; i < comb_batch_live(&b); i++) {
            int row = comb_batch_row(&b, i);
            CHECK(!comb_vec_is_null(&b.cols[0], row));
            CHECK(comb_vec_is_null(&b.cols[1], row));
            CHECK(comb_vec_is_null(&b.cols[4], row)); /* no ROW__ID asked */
            sum += b.cols[0].i64[row];
            live++;
        }
    }
    CHECK_EQ(live, 23000);
    CHECK_EQ(sum, (int64_t)1000 * (300 - 5 - 19));
    CHECK_EQ(acid_reader_dir_state(r)->n_delete_deltas, 2);
    comb_batch_free(&b);
    acid_reader_close(r);
    fixture_close(&f);
}

/* Count-only scans: no user column decoded; with no deletes applying and
 * no ROW__ID asked, no ACID column either (§6.4 step 4). */
static int64_t count_rows(const Fixture *f, int64_t hwm, CombErr *err,
                          int *rc_out)
{
    bool project[4] = {false, false, false, false};
    AcidReaderOptions opt = {project, false};
    CombWriteIdList wil;
    AcidReader *r;
    CombBatch b;
    int64_t n = 0;
    int rc;
    wil_make(&wil, hwm, NULL, 0, NULL, 0);
    rc = acid_reader_open(f->dir, &f->schema, &wil, NULL, &opt, &r, err);
    wil_free(&wil);
    if (!rc && acid_reader_batch_init(r, &b)) {
        acid_reader_close(r);
        rc = COMB_ENOMEM;
    }
    *rc_out = rc;
    if (rc)
        return 0;
    while (!(rc = acid_reader_next(r, &b, err)) && b.n_rows > 0) {
        n += comb_batch_live(&b);
        for (int c = 0; c < b.n_cols; c++) /* every column is NULL */
            if (!comb_vec_is_null(&b.cols[c], 0))
                rc = comb_err(err, COMB_EINTERNAL, "column %d not NULL", c);
        if (rc)
            break;
    }
    comb_batch_free(&b);
    acid_reader_close(r);
    *rc_out = rc;
    return n;
}

TEST(fixture_nation_count_only)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    CombErr err;
    int rc;
    CHECK(fixture_open(&f, "trino_nation_25k_delete_deltas"));
    CHECK_EQ(count_rows(&f, 4, &err, &rc), 23000);
    CHECK_OK(rc, &err);
    CHECK_EQ(count_rows(&f, 2, &err, &rc), 25000);
    CHECK_OK(rc, &err);
    CHECK_EQ(count_rows(&f, 1, &err, &rc), 0);
    CHECK_OK(rc, &err);
    fixture_close(&f);
}

/* ------------------------------------------------ impala_streaming_delta_1_2 */

/* The fixture's streaming.orc placed as delta_0000001_0000002's bucket
 * file, the only kind of file Hive reads in a delta. */
static bool streaming_table(const Fixture *f, char *dir, size_t len)
{
    CombErr err;
    char from[1200];
    snprintf(dir, len, "%s", unit_tmpdir());
    snprintf(from, sizeof from, "%s/delta_1_2/streaming.orc", f->dir);
    return place_bucket(from, dir, "delta_0000001_0000002", &err) == COMB_OK;
}

TEST(fixture_impala_streaming_delta)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombWriteIdList wil;
    CombErr err;
    char dir[1024];
    const JsonNode *snaps;
    int64_t open12[2] = {1, 2}, open2 = 2;
    CHECK(fixture_open(&f, "impala_streaming_delta_1_2"));
    CHECK(streaming_table(&f, dir, sizeof dir));
    snaps = json_get(f.json, "snapshots");
    CHECK(snaps && snaps->n == 3);
    for (int s = 0; s < 3; s++) {
        const JsonNode *snap = snaps->items[s];
        int64_t hwm = json_get(json_get(snap, "valid_write_ids"),
                               "high_watermark")->i;
        CHECK_OK(fixture_scan(&f, dir, hwm, true, &got, &err), &err);
        CHECK_EQ(got.n, json_get(snap, "row_count")->i);
        CHECK(rows_match_json(&got, snap, &f.arena));
        scan_rows_free(&got);
    }
    /* hwm 2 with 1 and 2 open: nothing; with 2 open: write 1's rows */
    wil_make(&wil, 2, open12, 2, NULL, 0);
    CHECK_OK(scan_table(dir, &f.schema, &wil, false, &f.arena, &got, &err),
             &err);
    wil_free(&wil);
    CHECK_EQ(got.n, 0);
    scan_rows_free(&got);
    wil_make(&wil, 2, &open2, 1, NULL, 0);
    CHECK_OK(scan_table(dir, &f.schema, &wil, true, &f.arena, &got, &err),
             &err);
    wil_free(&wil);
    CHECK_EQ(got.n, 2);
    CHECK_STR(got.rows[1], "[\"a3\",\"b4\"]");
    CHECK_STR(got.ids[1], "[1,536870912,1]");
    scan_rows_free(&got);
    /* the fixture's own layout: streaming.orc is not a bucket file */
    CHECK_OK(fixture_scan(&f, f.dir, 2, false, &got, &err), &err);
    CHECK_EQ(got.n, 0);
    scan_rows_free(&got);
    fixture_close(&f);
}

/* ---------------------------------------- originals with synthetic ROW__IDs */

TEST(fixture_nation_original_file_delete)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombErr err;
    CHECK(fixture_open(&f, "trino_nation_original_file_delete"));
    CHECK_OK(fixture_scan(&f, f.dir, 10000001, true, &got, &err), &err);
    CHECK_EQ(got.n, 24);
    CHECK(rows_match_json(&got, f.json, &f.arena));
    scan_rows_free(&got);
    /* the delete invisible: all 25 with (0, bucket 0, 0..24) */
    CHECK_OK(fixture_scan(&f, f.dir, 10000000, true, &got, &err), &err);
    CHECK_EQ(got.n, 25);
    CHECK_STR(got.ids[24], "[0,536870912,24]");
    CHECK(strncmp(got.rows[24], "[24,\"UNITED STATES\"", 19) == 0);
    scan_rows_free(&got);
    fixture_close(&f);
}

TEST(fixture_dummy_id_original_files_delete)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombErr err;
    CHECK(fixture_open(&f, "trino_dummy_id_original_files_delete"));
    CHECK_OK(fixture_scan(&f, f.dir, 10000001, true, &got, &err), &err);
    CHECK_EQ(got.n, 19);
    CHECK(rows_match_json(&got, f.json, &f.arena));
    /* bucket 2's rowIds run across 000002_0, _copy_1, _copy_2 */
    CHECK_STR(got.ids[18], "[0,537001984,11]");
    CHECK(strncmp(got.rows[18], "[20,", 4) == 0);
    scan_rows_free(&got);
    fixture_close(&f);
}

TEST(fixture_no_acid_version_read_as_original)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombErr err;
    const JsonNode *exp;
    CHECK(fixture_open(&f, "trino_no_acid_version_in_metadata"));
    exp = json_get(f.json, "expected_when_read_as_original_file");
    CHECK_OK(fixture_scan(&f, f.dir, 0, true, &got, &err), &err);
    CHECK_EQ(got.n, 4);
    CHECK(rows_match_json(&got, exp, &f.arena));
    scan_rows_free(&got);
    fixture_close(&f);
}

/* ACID files at the table root are recognised by their schema (§1.1). */
TEST(fixture_acid_files_at_root)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombErr err;
    CHECK(fixture_open(&f, "trino_acid_version_hive3_file"));
    CHECK_OK(fixture_scan(&f, f.dir, 1, true, &got, &err), &err);
    CHECK(rows_match_json(&got, f.json, &f.arena));
    scan_rows_free(&got);
    fixture_close(&f);

    CHECK(fixture_open(&f, "impala_full_acid_schema_no_version"));
    CHECK_OK(fixture_scan(&f, f.dir, 3, true, &got, &err), &err);
    CHECK(rows_match_json(&got, f.json, &f.arena));
    scan_rows_free(&got);
    /* write 3 not committed: its row is filtered by currentTransaction */
    CHECK_OK(fixture_scan(&f, f.dir, 2, false, &got, &err), &err);
    CHECK_EQ(got.n, 2);
    scan_rows_free(&got);
    fixture_close(&f);
}

/* -------------------------------------------------- orc_acid5k_single_file */

TEST(fixture_orc_acid5k)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombErr err;
    char dir[1024], from[1200];
    const JsonNode *rows;
    CHECK(fixture_open(&f, "orc_acid5k_single_file"));
    snprintf(dir, sizeof dir, "%s", unit_tmpdir());
    snprintf(from, sizeof from, "%s/acid5k.orc", f.dir);
    CHECK_OK(place_bucket(from, dir, "delta_0000012_0000012_0000", &err),
             &err);
    CHECK_OK(fixture_scan(&f, dir, 12, true, &got, &err), &err);
    CHECK_EQ(got.n, 5000);
    rows = json_get(f.json, "rows");
    CHECK(rows && rows->n == 5000);
    CHECK(rows_match(&got, rows, NULL, &f.arena));
    {
        int64_t sum[3] = {0, 0, 0};
        const JsonNode *checks = json_get(f.json, "checks");
        for (int i = 0; i < got.n; i++) {
            long long a, b, c;
            char want[64];
            CHECK(sscanf(got.rows[i], "[%lld,%lld,%lld]", &a, &b, &c) == 3);
            sum[0] += a;
            sum[1] += b;
            sum[2] += c;
            snprintf(want, sizeof want, "[12,536870912,%d]", i);
            CHECK_STR(got.ids[i], want);
        }
        CHECK_EQ(sum[0], json_get(checks, "sum_i")->i);
        CHECK_EQ(sum[1], json_get(checks, "sum_j")->i);
        CHECK_EQ(sum[2], json_get(checks, "sum_k")->i);
    }
    scan_rows_free(&got);
    fixture_close(&f);
}

/* ------------------------------------------------- trino_delete_deltas_only */

TEST(fixture_delete_deltas_only_dir_state)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    CombArena a;
    AcidDirState st;
    CombErr err;
    CHECK(fixture_open(&f, "trino_delete_deltas_only"));
    comb_arena_init(&a, 0);
    CHECK_OK(dir_state_at(f.dir, 7, &a, &st, &err), &err);
    CHECK_EQ(st.n_delete_deltas, 2);
    CHECK_STR(st.delete_deltas[0].name, "delete_delta_0000004_0000004");
    CHECK_STR(st.delete_deltas[1].name, "delete_delta_0000007_0000007_0000");
    CHECK_EQ(st.n_obsolete, 1);
    CHECK_STR(st.obsolete[0], "delete_delta_0000004_0000004_0000");
    CHECK_EQ(st.n_deltas, 0);
    comb_arena_free(&a);
    fixture_close(&f);
}

/* Write one row with ROW__ID (t, bucket 0, 0) for write id t into dir. */
static int write_probe_row(const char *dir, const AcidSchema *schema,
                           int64_t t, int stmt, CombErr *err)
{
    static const CombType *const type = &acid_t_int;
    return write_rows(dir, schema, &type, t, stmt, ORC_COMP_ZLIB, &t, 1, err);
}

/* Copy the fixture's delete delta `name` into the table dir. */
static int copy_delete_delta(const Fixture *f, const char *dir,
                             const char *name, CombErr *err)
{
    char from[1200];
    snprintf(from, sizeof from, "%s/%s/bucket_00000", f->dir, name);
    return place_bucket(from, dir, name, err);
}

/* Survivors among the probe rows t = 1..9 (row text "[t]"). */
static bool survivors_are(const ScanRows *got, const JsonNode *want)
{
    int k = 0;
    for (int i = 0; i < want->n; i++) {
        char text[32];
        if (want->items[i]->i == 0)
            continue; /* no write id 0 probe: originals only */
        snprintf(text, sizeof text, "[%d]", (int)want->items[i]->i);
        if (k >= got->n || strcmp(got->rows[k], text) != 0) {
            printf("    survivor %d: %s != %s\n", k,
                   k < got->n ? got->rows[k] : "(none)", text);
            return false;
        }
        k++;
    }
    return k == got->n;
}

TEST(fixture_delete_deltas_only_probes)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    ScanRows got;
    CombErr err;
    const JsonNode *scen;
    char dir[1024];
    CHECK(fixture_open(&f, "trino_delete_deltas_only"));
    scen = json_get(f.json, "scenarios");
    CHECK(scen && scen->n == 3);

    /* scenario 1: statement-0 delete deltas of writes 4 and 7 */
    snprintf(dir, sizeof dir, "%s", unit_tmpdir());
    for (int t = 1; t <= 9; t++)
        CHECK_OK(write_probe_row(dir, &f.schema, t, 0, &err), &err);
    CHECK_OK(copy_delete_delta(&f, dir, "delete_delta_0000004_0000004_0000",
                               &err), &err);
    CHECK_OK(copy_delete_delta(&f, dir, "delete_delta_0000007_0000007_0000",
                               &err), &err);
    CHECK_OK(fixture_scan(&f, dir, 9, false, &got, &err), &err);
    CHECK(survivors_are(&got, json_get(scen->items[0], "surviving_t")));
    scan_rows_free(&got);

    /* scenario 2: only the minor-compacted delete_delta_4_4; write 4's
     * insert is compacted the same way (delta_4_4 without statement) */
    snprintf(dir, sizeof dir, "%s", unit_tmpdir());
    for (int t = 1; t <= 9; t++)
        CHECK_OK(write_probe_row(dir, &f.schema, t, t == 4 ? -1 : 0, &err),
                 &err);
    CHECK_OK(copy_delete_delta(&f, dir, "delete_delta_0000004_0000004", &err),
             &err);
    CHECK_OK(fixture_scan(&f, dir, 9, false, &got, &err), &err);
    CHECK(survivors_are(&got, json_get(scen->items[1], "surviving_t")));
    scan_rows_free(&got);
    fixture_close(&f);
}

/* ---------------------------------------------------------------- corrupt */

TEST(fixture_truncated_bucket_file)
{
    if (unit_skip_without_testdata())
        return;
    Fixture f;
    CombWriteIdList wil;
    CombErr err;
    CombArena a;
    AcidReader *r = NULL;
    CombBatch b;
    unsigned char *bytes;
    size_t len;
    char dir[1024], from[1200], to[1200];
    int rc = COMB_OK;
    CHECK(fixture_open(&f, "trino_nation_25k_delete_deltas"));
    comb_arena_init(&a, 0);
    snprintf(dir, sizeof dir, "%s", unit_tmpdir());
    snprintf(to, sizeof to, "%s/delta_0000002_0000002_0000", dir);
    CHECK_OK(fs_mkdirs(to, &err), &err);
    snprintf(from, sizeof from, "%s/delta_0000002_0000002_0000/bucket_00000",
             f.dir);
    CHECK_OK(fs_read_file(from, &a, &bytes, &len, &err), &err);
    snprintf(to, sizeof to, "%s/delta_0000002_0000002_0000/bucket_00000", dir);
    for (int cut = 0; cut < 3; cut++) {
        /* tail gone, postscript gone, half the file gone */
        size_t keep = cut == 0 ? len - 1 : cut == 1 ? len - 200 : len / 2;
        CHECK_OK(fs_write_file(to, bytes, keep, &err), &err);
        wil_make(&wil, 2, NULL, 0, NULL, 0);
        CHECK_OK(acid_reader_open(dir, &f.schema, &wil, NULL, NULL, &r, &err),
                 &err);
        wil_free(&wil);
        CHECK(acid_reader_batch_init(r, &b) == COMB_OK);
        do {
            rc = acid_reader_next(r, &b, &err);
        } while (rc == COMB_OK && b.n_rows > 0);
        CHECK_EQ(rc, COMB_ECORRUPT);
        CHECK(strstr(err.msg, "bucket_00000") != NULL);
        /* the failure sticks */
        CHECK_EQ(acid_reader_next(r, &b, &err), COMB_ECORRUPT);
        comb_batch_free(&b);
        acid_reader_close(r);
    }
    comb_arena_free(&a);
    fixture_close(&f);
}
