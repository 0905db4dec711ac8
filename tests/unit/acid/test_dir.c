/* Directory and file names (hive-acid-storage.md §3) and the directory
 * state of a snapshot (§4), including every worked example of §4.4. */
#include "unit.h"

#include "acid/acid.h"
#include "acid_test_util.h"
#include "fs/fs.h"

TEST(dir_parse_names)
{
    AcidParsedDir d;
    CHECK(acid_dir_parse("delta_1_1", &d));
    CHECK_EQ(d.kind, ACID_DIR_DELTA);
    CHECK_EQ(d.min_wid, 1);
    CHECK_EQ(d.max_wid, 1);
    CHECK_EQ(d.stmt, -1);
    CHECK_EQ(d.visibility_txn, 0);
    CHECK_STR(d.name, "delta_1_1");
    CHECK(acid_dir_parse("delta_0000005_0000010_0003", &d));
    CHECK_EQ(d.min_wid, 5);
    CHECK_EQ(d.max_wid, 10);
    CHECK_EQ(d.stmt, 3);
    CHECK(acid_dir_parse("delete_delta_0000100_0000200_0007", &d));
    CHECK_EQ(d.kind, ACID_DIR_DELETE_DELTA);
    CHECK_EQ(d.min_wid, 100);
    CHECK_EQ(d.max_wid, 200);
    CHECK_EQ(d.stmt, 7);
    CHECK(acid_dir_parse("delta_0000001_0000010_v0000123", &d));
    CHECK_EQ(d.max_wid, 10);
    CHECK_EQ(d.stmt, -1);
    CHECK_EQ(d.visibility_txn, 123);
    CHECK(acid_dir_parse("delete_delta_0000001_0000010_0002_v0000123", &d));
    CHECK_EQ(d.stmt, 2);
    CHECK_EQ(d.visibility_txn, 123);
    CHECK(acid_dir_parse("delta_025_030", &d));
    CHECK_EQ(d.min_wid, 25);
    CHECK_EQ(d.max_wid, 30);
    CHECK(acid_dir_parse("base_0000004_v0000020", &d));
    CHECK_EQ(d.kind, ACID_DIR_BASE);
    CHECK_EQ(d.min_wid, 4);
    CHECK_EQ(d.max_wid, 4);
    CHECK_EQ(d.visibility_txn, 20);
    CHECK(acid_dir_parse("base_1234567890", &d));
    CHECK_EQ(d.max_wid, 1234567890);
    CHECK(acid_dir_parse("base_5_v0", &d)); /* _v0 = no suffix */
    CHECK_EQ(d.visibility_txn, 0);

    CHECK(!acid_dir_parse("delta_1", &d));
    CHECK(!acid_dir_parse("delta_x_y", &d));
    CHECK(!acid_dir_parse("delta_1_2_3_4", &d));
    CHECK(!acid_dir_parse("delta_1_2_v", &d));
    CHECK(!acid_dir_parse("delta_1__2", &d));
    CHECK(!acid_dir_parse("base_", &d));
    CHECK(!acid_dir_parse("base_5x", &d));
    CHECK(!acid_dir_parse("base_99999999999999999999", &d));
    CHECK(!acid_dir_parse("000000_0", &d));
    CHECK(!acid_dir_parse("HIVE_UNION_SUBDIR_1", &d));
}

TEST(dir_format_names)
{
    CombArena a;
    comb_arena_init(&a, 0);
    CHECK_STR(acid_dir_name(&a, ACID_DIR_DELTA, 5, 5, 0),
              "delta_0000005_0000005_0000");
    CHECK_STR(acid_dir_name(&a, ACID_DIR_DELETE_DELTA, 100, 200, 7),
              "delete_delta_0000100_0000200_0007");
    CHECK_STR(acid_dir_name(&a, ACID_DIR_DELTA, 1, 2, -1),
              "delta_0000001_0000002");
    CHECK_STR(acid_dir_name(&a, ACID_DIR_BASE, 5, 5, -1), "base_0000005");
    CHECK_STR(acid_dir_name(&a, ACID_DIR_BASE, 12345678901LL, 12345678901LL,
                            -1),
              "base_12345678901");
    CHECK_STR(acid_dir_name(&a, ACID_DIR_DELTA, 1, 1, 12345),
              "delta_0000001_0000001_12345");
    CHECK_STR(acid_dir_name_vis(&a, ACID_DIR_BASE, 4, 4, -1, 20),
              "base_0000004_v0000020");
    CHECK_STR(acid_dir_name_vis(&a, ACID_DIR_DELTA, 1, 10, -1, 123),
              "delta_0000001_0000010_v0000123");
    CHECK_STR(acid_bucket_file_name(&a, 3), "bucket_00003");
    CHECK_STR(acid_bucket_file_name(&a, 123456), "bucket_123456");
    comb_arena_free(&a);
}

TEST(bucket_file_names)
{
    int bucket = -1;
    CHECK(acid_bucket_file_parse("bucket_00000", &bucket));
    CHECK_EQ(bucket, 0);
    CHECK(acid_bucket_file_parse("bucket_00023", &bucket));
    CHECK_EQ(bucket, 23);
    CHECK(acid_bucket_file_parse("bucket_00000_1", &bucket));
    CHECK_EQ(bucket, 0);
    CHECK(acid_bucket_file_parse("bucket_7", &bucket));
    CHECK_EQ(bucket, 7);
    CHECK(!acid_bucket_file_parse("bucket_00000_flush_length", &bucket));
    CHECK(!acid_bucket_file_parse("bucket_", &bucket));
    CHECK(!acid_bucket_file_parse("bucket_12a", &bucket));
    CHECK(!acid_bucket_file_parse("bucket_1_", &bucket));
    CHECK(!acid_bucket_file_parse("000000_0", &bucket));
    CHECK(!acid_bucket_file_parse("xbucket_00000", &bucket));
}

/* ---------------------------------------------------------------- layouts */

/* Make the named children of dir: names ending in '/' are directories. */
static int make_layout(const char *dir, const char *const *names, int n)
{
    CombArena a;
    CombErr err;
    int rc = COMB_OK;
    comb_arena_init(&a, 0);
    for (int i = 0; i < n && !rc; i++) {
        char *path = fs_join(&a, dir, names[i]);
        size_t len = strlen(path);
        if (path[len - 1] == '/') {
            path[len - 1] = '\0';
            rc = fs_mkdirs(path, &err);
        } else {
            char *slash = strrchr(path, '/');
            *slash = '\0';
            rc = fs_mkdirs(path, &err);
            *slash = '/';
            if (!rc)
                rc = touch_file(path, &err);
        }
    }
    comb_arena_free(&a);
    return rc;
}

/* Kept deltas (insert or delete) equal want[] in order. */
static bool names_are(const AcidParsedDir *v, int n, const char *const *want,
                      int n_want)
{
    if (n != n_want)
        return false;
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, want[i]) != 0)
            return false;
    return true;
}

/* The list holds exactly the names of want[] (any order). */
static bool set_is(char *const *v, int n, const char *const *want, int n_want)
{
    if (n != n_want)
        return false;
    for (int i = 0; i < n_want; i++)
        if (find_name(v, n, want[i]) < 0)
            return false;
    return true;
}

#define N(arr) ((int)(sizeof(arr) / sizeof((arr)[0])))

/* A directory-state test: a layout in a fresh table directory and the
 * arena its state is read into. */
typedef struct DirFx {
    const char *dir;
    CombArena a;
    AcidDirState st;
    CombErr err;
} DirFx;

static int fx_begin(DirFx *fx, const char *const *layout, int n)
{
    fx->dir = unit_tmpdir();
    comb_arena_init(&fx->a, 0);
    return make_layout(fx->dir, layout, n);
}

/* The state under write ids up to hwm, none open or aborted. */
static int fx_state_at(DirFx *fx, int64_t hwm)
{
    return dir_state_at(fx->dir, hwm, &fx->a, &fx->st, &fx->err);
}

/* The state under wil and, when not NULL, the txn list txns. */
static int fx_state(DirFx *fx, const CombWriteIdList *wil,
                    const CombTxnList *txns)
{
    return acid_dir_state_get(fx->dir, wil, txns, &fx->a, &fx->st, &fx->err);
}

TEST(dir_state_example_deltas_and_originals)
{
    static const char *const layout[] = {
        "delta_025_025/", "delta_029_029/", "delta_025_030/",
        "delta_050_100/", "delta_101_101/", "000000_0", "000000_0_copy_1",
        "000001_1",       "expected.json",  "subdir/000002_0",
        "subdir/notes.txt", "_tmp.x/000003_0", ".hive-staging/000004_0"};
    static const char *const deltas[] = {"delta_025_030", "delta_050_100"};
    static const char *const obsolete[] = {"delta_025_025", "delta_029_029"};
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    CHECK_OK(fx_state_at(&fx, 100), &fx.err);
    CHECK(st->base == NULL);
    CHECK(names_are(st->deltas, st->n_deltas, deltas, N(deltas)));
    CHECK_EQ(st->n_delete_deltas, 0);
    CHECK(set_is(st->obsolete, st->n_obsolete, obsolete, N(obsolete)));
    CHECK_EQ(st->n_aborted, 0);
    CHECK_EQ(st->n_originals, 4);
    CHECK_STR(st->originals[0], "000000_0");
    CHECK_STR(st->originals[1], "000000_0_copy_1");
    CHECK_STR(st->originals[2], "000001_1");
    CHECK_STR(st->originals[3], "subdir/000002_0");
    comb_arena_free(&fx.a);
}

TEST(dir_state_example_best_base)
{
    static const char *const layout[] = {
        "base_5/", "base_10/", "base_49/", "delta_025_025/", "delta_029_029/",
        "delta_025_030/", "delta_050_105/", "delta_90_120/", "000000_0"};
    static const char *const deltas[] = {"delta_050_105"};
    static const char *const obsolete[] = {
        "base_5", "base_10", "delta_025_025", "delta_029_029",
        "delta_025_030", "000000_0"};
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    CHECK_OK(fx_state_at(&fx, 100), &fx.err);
    CHECK(st->base != NULL);
    CHECK_STR(st->base->name, "base_49");
    CHECK_EQ(st->base->max_wid, 49);
    CHECK(names_are(st->deltas, st->n_deltas, deltas, N(deltas)));
    /* originals are obsolete once a base exists (4.3) */
    CHECK(set_is(st->obsolete, st->n_obsolete, obsolete, N(obsolete)));
    CHECK_EQ(st->n_originals, 0);
    comb_arena_free(&fx.a);
}

/* §4.4's examples that keep base_50 and the deltas[] above it, leaving
 * obsolete[]: a layout read under write ids up to 100. */
typedef struct Base50Case {
    const char *const *layout;
    int n_layout;
    const char *const *deltas;
    int n_deltas;
    const char *const *obsolete;
    int n_obsolete;
} Base50Case;

static void check_base50(const Base50Case *c)
{
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, c->layout, c->n_layout) == COMB_OK);
    CHECK_OK(fx_state_at(&fx, 100), &fx.err);
    CHECK_STR(st->base->name, "base_50");
    CHECK(names_are(st->deltas, st->n_deltas, c->deltas, c->n_deltas));
    CHECK(set_is(st->obsolete, st->n_obsolete, c->obsolete, c->n_obsolete));
    comb_arena_free(&fx.a);
}

TEST(dir_state_example_overlapping_deltas)
{
    static const char *const layout[] = {
        "base_50/", "delta_40_60/", "delta_0060_60/", "delta_052_55/",
        "delta_00061_61/", "delta_000062_62/", "delta_0000063_63/"};
    static const char *const deltas[] = {"delta_40_60", "delta_00061_61",
                                         "delta_000062_62",
                                         "delta_0000063_63"};
    static const char *const obsolete[] = {"delta_052_55", "delta_0060_60"};
    check_base50(&(Base50Case){layout, N(layout), deltas, N(deltas),
                               obsolete, N(obsolete)});
}

TEST(dir_state_example_statements)
{
    static const char *const layout[] = {
        "base_50/",          "delta_40_60/",       "delta_0060_60_1/",
        "delta_0060_60_4/",  "delta_0060_60_7/",   "delta_052_55/",
        "delta_00061_61/",   "delta_000062_62_0/", "delta_000062_62_3/",
        "delta_0000063_63/"};
    static const char *const deltas[] = {
        "delta_40_60", "delta_00061_61", "delta_000062_62_0",
        "delta_000062_62_3", "delta_0000063_63"};
    static const char *const obsolete[] = {
        "delta_052_55", "delta_0060_60_1", "delta_0060_60_4",
        "delta_0060_60_7"};
    check_base50(&(Base50Case){layout, N(layout), deltas, N(deltas),
                               obsolete, N(obsolete)});
}

TEST(dir_state_example_open_write_id)
{
    static const char *const layout[] = {"delta_1_1/", "delta_2_5/"};
    static const char *const both[] = {"delta_1_1", "delta_2_5"};
    static const char *const first[] = {"delta_1_1"};
    int64_t open4 = 4;
    CombWriteIdList wil;
    AcidDirStateOptions compactor = {true};
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    /* tbl:100:4:4 - write id 4 open: 2..5 is SOME valid, still read */
    wil_make(&wil, 100, &open4, 1, NULL, 0);
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK(names_are(st->deltas, st->n_deltas, both, N(both)));
    CHECK_EQ(st->n_obsolete, 0);
    wil_free(&wil);
    /* compactor list tbl:4:MAX: a range past the watermark is not valid */
    wil_make(&wil, 4, NULL, 0, NULL, 0);
    CHECK_OK(acid_dir_state_get_opts(fx.dir, &wil, NULL, &compactor, &fx.a,
                                     &fx.st, &fx.err), &fx.err);
    CHECK(names_are(st->deltas, st->n_deltas, first, N(first)));
    CHECK_EQ(st->n_obsolete, 0);
    /* the same list read as a reader list keeps both (SOME) */
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK(names_are(st->deltas, st->n_deltas, both, N(both)));
    wil_free(&wil);
    comb_arena_free(&fx.a);
}

TEST(dir_state_example_delete_deltas_order)
{
    static const char *const layout[] = {
        "base_50/", "delete_delta_40_60/", "delta_40_60/", "delta_00061_61/",
        "delta_000062_62/", "delta_0000063_63/", "delete_delta_00064_64/"};
    static const char *const deltas[] = {"delta_40_60", "delta_00061_61",
                                         "delta_000062_62",
                                         "delta_0000063_63"};
    static const char *const deletes[] = {"delete_delta_40_60",
                                          "delete_delta_00064_64"};
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    CHECK_OK(fx_state_at(&fx, 100), &fx.err);
    CHECK_STR(st->base->name, "base_50");
    CHECK(names_are(st->deltas, st->n_deltas, deltas, N(deltas)));
    CHECK(names_are(st->delete_deltas, st->n_delete_deltas, deletes,
                    N(deletes)));
    CHECK_EQ(st->n_obsolete, 0);
    comb_arena_free(&fx.a);
}

TEST(dir_state_compacted_delete_delta_hides_statement)
{
    static const char *const layout[] = {
        "delete_delta_2_5/", "delete_delta_3_3/", "delta_1_1_0000/",
        "delete_delta_0000004_0000004/", "delete_delta_0000004_0000004_0000/"};
    static const char *const deletes[] = {"delete_delta_2_5"};
    static const char *const obsolete[] = {
        "delete_delta_3_3", "delete_delta_0000004_0000004",
        "delete_delta_0000004_0000004_0000"};
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    CHECK_OK(fx_state_at(&fx, 10), &fx.err);
    CHECK(names_are(st->delete_deltas, st->n_delete_deltas, deletes,
                    N(deletes)));
    CHECK(set_is(st->obsolete, st->n_obsolete, obsolete, N(obsolete)));
    CHECK_EQ(st->n_deltas, 1);
    comb_arena_free(&fx.a);
}

TEST(dir_state_aborted_and_open)
{
    static const char *const layout[] = {
        "delta_0000001_0000001_0000/", "delta_0000002_0000002_0000/",
        "delete_delta_0000002_0000002_0000/", "delta_0000003_0000003_0000/",
        "base_0000002/"};
    static const char *const aborted[] = {
        "delta_0000002_0000002_0000", "delete_delta_0000002_0000002_0000",
        "base_0000002"};
    static const char *const deltas[] = {"delta_0000001_0000001_0000"};
    int64_t ab = 2, op = 3;
    CombWriteIdList wil;
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    wil_make(&wil, 3, &op, 1, &ab, 1);
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK(st->base == NULL); /* aborted INSERT OVERWRITE */
    CHECK(set_is(st->aborted, st->n_aborted, aborted, N(aborted)));
    CHECK(names_are(st->deltas, st->n_deltas, deltas, N(deltas)));
    CHECK_EQ(st->n_delete_deltas, 0);
    comb_arena_free(&fx.a);
    wil_free(&wil);
}

TEST(dir_state_visibility_suffix)
{
    static const char *const layout[] = {
        "base_0000005/", "base_0000005_v0000020/",
        "delta_0000006_0000006_0000/", "delta_0000007_0000007_0000/",
        "delta_0000006_0000007_v0000030/"};
    static const char *const two[] = {"delta_0000006_0000006_0000",
                                      "delta_0000007_0000007_0000"};
    static const char *const minor[] = {"delta_0000006_0000007_v0000030"};
    int64_t open20 = 20, ab30 = 30;
    CombWriteIdList wil;
    CombTxnList txns;
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    wil_make(&wil, 7, NULL, 0, NULL, 0);
    /* txn 20 committed, 30 aborted: the compacted base replaces the IOW
     * base, the aborted minor compaction is ignored */
    CHECK_OK(comb_idlist_init(&txns, 40, NULL, 0, &ab30, 1), &fx.err);
    CHECK_OK(fx_state(&fx, &wil, &txns), &fx.err);
    CHECK_STR(st->base->name, "base_0000005_v0000020");
    CHECK(find_name(st->obsolete, st->n_obsolete, "base_0000005") >= 0);
    CHECK(names_are(st->deltas, st->n_deltas, two, N(two)));
    CHECK(find_name(st->aborted, st->n_aborted,
                    "delta_0000006_0000007_v0000030") >= 0);
    comb_idlist_free(&txns);
    /* txn 20 open, 30 committed: the base compaction does not exist yet,
     * the minor compaction hides the deltas it covers */
    CHECK_OK(comb_idlist_init(&txns, 40, &open20, 1, NULL, 0), &fx.err);
    CHECK_OK(fx_state(&fx, &wil, &txns), &fx.err);
    CHECK_STR(st->base->name, "base_0000005");
    CHECK(names_are(st->deltas, st->n_deltas, minor, N(minor)));
    CHECK(set_is(st->obsolete, st->n_obsolete, two, N(two)));
    CHECK_EQ(st->n_aborted, 0);
    comb_idlist_free(&txns);
    /* a snapshot taken before txn 30 began: above its high watermark,
     * the minor compaction does not exist for it */
    CHECK_OK(comb_idlist_init(&txns, 25, NULL, 0, NULL, 0), &fx.err);
    CHECK_OK(fx_state(&fx, &wil, &txns), &fx.err);
    CHECK_STR(st->base->name, "base_0000005_v0000020");
    CHECK(names_are(st->deltas, st->n_deltas, two, N(two)));
    CHECK_EQ(st->n_aborted, 0);
    comb_idlist_free(&txns);
    /* no txn list: visibility is not checked (Trino's behaviour) */
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK_STR(st->base->name, "base_0000005_v0000020");
    CHECK(names_are(st->deltas, st->n_deltas, minor, N(minor)));
    comb_arena_free(&fx.a);
    wil_free(&wil);
}

TEST(dir_state_not_enough_history)
{
    static const char *const layout[] = {"base_0000010_v0000020/",
                                         "delta_0000011_0000011_0000/"};
    int64_t open5 = 5;
    CombWriteIdList wil;
    DirFx fx;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    wil_make(&wil, 11, &open5, 1, NULL, 0);
    CHECK_EQ(fx_state(&fx, &wil, NULL), COMB_ETXN);
    CHECK(strstr(fx.err.msg, "not enough history") != NULL);
    CHECK(strstr(fx.err.msg, "base_0000010_v0000020") != NULL);
    wil_free(&wil);
    comb_arena_free(&fx.a);
}

TEST(dir_state_metadata_acid_compacted)
{
    static const char *const layout[] = {"base_0000010/"};
    static const char json[] =
        "{\"thisFileVersion\":\"0\",\"dataFormat\":\"compacted\"}";
    int64_t open5 = 5;
    CombWriteIdList wil;
    DirFx fx;
    char *path;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    path = fs_join(&fx.a, fx.dir, "base_0000010/_metadata_acid");
    CHECK_OK(fs_write_file(path, json, strlen(json), &fx.err), &fx.err);
    wil_make(&wil, 11, &open5, 1, NULL, 0);
    CHECK_EQ(fx_state(&fx, &wil, NULL), COMB_ETXN);
    wil_free(&wil);
    CHECK_OK(fx_state_at(&fx, 11), &fx.err);
    CHECK_STR(fx.st.base->name, "base_0000010");
    comb_arena_free(&fx.a);
}

TEST(dir_state_missing_and_hidden)
{
    static const char *const layout[] = {
        "_tmp.delta_0000001_0000001_0000/", ".hive-staging_1/",
        "delta_0000001_0000001_0000/", "_orc_acid_version",
        "bucket_00000", "bucket_00000_flush_length"};
    const char *dir = unit_tmpdir();
    CombArena a;
    AcidDirState st;
    CombErr err;
    char *missing;
    comb_arena_init(&a, 0);
    missing = fs_join(&a, dir, "no_such_table");
    CHECK_OK(dir_state_at(missing, 5, &a, &st, &err), &err);
    CHECK(st.base == NULL);
    CHECK_EQ(st.n_deltas + st.n_delete_deltas + st.n_originals, 0);
    CHECK(make_layout(dir, layout, N(layout)) == COMB_OK);
    CHECK_OK(dir_state_at(dir, 5, &a, &st, &err), &err);
    CHECK_EQ(st.n_deltas, 1);
    CHECK_EQ(st.n_originals, 1); /* a bucket file at the root */
    CHECK_STR(st.originals[0], "bucket_00000");
    comb_arena_free(&a);
}

/* An INSERT OVERWRITE or TRUNCATE base of the lowest open write id (its
 * writer still running, or dead before its commit) is not read: the
 * deltas below it are.  Once the write id commits it is the base. */
TEST(dir_state_base_of_open_write_id_invisible)
{
    static const char *const layout[] = {"delta_0000001_0000001_0000/",
                                         "base_0000002/"};
    static const char *const first[] = {"delta_0000001_0000001_0000"};
    int64_t open2 = 2;
    CombWriteIdList wil;
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    wil_make(&wil, 2, &open2, 1, NULL, 0);
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK(st->base == NULL);
    CHECK(names_are(st->deltas, st->n_deltas, first, N(first)));
    wil_free(&wil);
    CHECK_OK(fx_state_at(&fx, 2), &fx.err);
    CHECK(st->base != NULL);
    CHECK_STR(st->base->name, "base_0000002");
    CHECK_EQ(st->n_deltas, 0);
    comb_arena_free(&fx.a);
}

/* An explicit transaction reading a table it wrote under write id 7
 * (statements 0..2 before this one, 3 the reading statement's own): its
 * own earlier statements are read, its own output is not, nor obsolete;
 * other write ids are untouched by the limit. */
TEST(dir_state_own_statements_hidden)
{
    static const char *const layout[] = {
        "delta_0000005_0000005_0000/", "delta_0000007_0000007_0000/",
        "delta_0000007_0000007_0002/", "delete_delta_0000007_0000007_0002/",
        "delta_0000007_0000007_0003/", "delete_delta_0000007_0000007_0003/",
        "delta_0000007_0000007_0005/", "delta_0000008_0000008_0003/"};
    static const char *const own[] = {
        "delta_0000005_0000005_0000", "delta_0000007_0000007_0000",
        "delta_0000007_0000007_0002", "delta_0000008_0000008_0003"};
    static const char *const own_deletes[] = {
        "delete_delta_0000007_0000007_0002"};
    static const char *const all[] = {
        "delta_0000005_0000005_0000", "delta_0000007_0000007_0000",
        "delta_0000007_0000007_0002", "delta_0000007_0000007_0003",
        "delta_0000007_0000007_0005", "delta_0000008_0000008_0003"};
    CombWriteIdList wil;
    DirFx fx;
    const AcidDirState *st = &fx.st;
    CHECK(fx_begin(&fx, layout, N(layout)) == COMB_OK);
    wil_make(&wil, 8, NULL, 0, NULL, 0);
    wil.own_writeid = 7;
    wil.own_stmt_limit = 3;
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK(names_are(st->deltas, st->n_deltas, own, N(own)));
    CHECK(names_are(st->delete_deltas, st->n_delete_deltas, own_deletes,
                    N(own_deletes)));
    CHECK_EQ(st->n_obsolete, 0);
    /* limit 0: every statement of write id 7 is the reader's own */
    wil.own_stmt_limit = 0;
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK_EQ(st->n_deltas, 2);
    CHECK_EQ(st->n_delete_deltas, 0);
    /* no own write id: everything of write id 7 is read */
    wil.own_writeid = 0;
    CHECK_OK(fx_state(&fx, &wil, NULL), &fx.err);
    CHECK(names_are(st->deltas, st->n_deltas, all, N(all)));
    CHECK_EQ(st->n_delete_deltas, 2);
    wil_free(&wil);
    comb_arena_free(&fx.a);
}
