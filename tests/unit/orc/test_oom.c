/*
 * test_oom.c - allocation failures: the reader and writer are run with the
 * allocator told to fail the Nth allocation, for every N until a run
 * succeeds.  Each run must end in an error code (no crash), and the
 * LeakSanitizer at exit checks that the error paths free everything.
 */
#include "orc_test.h"
#include "unit.h"
#include "common/alloc.h"

#include <string.h>

static int read_file(const char *path, CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    int rc = orc_test_reader_open(path, 256, &r, &b, err);
    if (rc)
        return rc;
    while (!(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0)
        ;
    OrcColumnStats st;
    if (!rc)
        rc = orc_reader_stripe_stats(r, 0, 1, &st, err);
    comb_batch_free(&b);
    orc_reader_close(r);
    return rc;
}

TEST(orc_reader_survives_allocation_failures)
{
    if (unit_skip_without_testdata())
        return;
    const char *path = orc_test_path(0, "orc/TestOrcFile.testStripeLevelStats.orc");
    CombErr err;
    int runs = 0;
    for (int64_t n = 1; n < 100000; n++, runs++) {
        comb_alloc_fail_after(n);
        int rc = read_file(path, &err);
        comb_alloc_fail_after(0);
        if (rc == COMB_OK)
            break;
        CHECK(rc == COMB_ENOMEM || rc == COMB_ECORRUPT);
    }
    CHECK(runs > 10);
    CHECK_OK(read_file(path, &err), &err);
}

static int write_file(const char *path, CombErr *err)
{
    CombArena a;
    CombBatch b;
    OrcWriter *w = NULL;
    OrcWriterOptions opt;
    comb_arena_init(&a, 1024);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    CombType *i = comb_type_new(&a, COMB_T_INT);
    CombType *s = comb_type_new(&a, COMB_T_STRING);
    CombType *d = comb_type_new(&a, COMB_T_DOUBLE);
    int rc = COMB_ENOMEM;
    if (!root || !i || !s || !d || comb_type_add_field(&a, root, "i", i) ||
        comb_type_add_field(&a, root, "s", s) ||
        comb_type_add_field(&a, root, "d", d)) {
        comb_arena_free(&a);
        return rc;
    }
    comb_type_assign_ids(root);
    orc_writer_options_default(&opt);
    opt.stripe_size = 2000;
    if (orc_test_batch_init(root, &b, 500)) {
        comb_arena_free(&a);
        return rc;
    }
    rc = orc_writer_open(path, root, &opt, &w, err);
    for (int k = 0; k < 4 && !rc; k++) {
        for (int r = 0; r < 500; r++) {
            b.cols[0].i64[r] = k * 500 + r;
            b.cols[1].str[r] = (CombStr){"xyz", (uint32_t)(r % 4)};
            b.cols[2].f64[r] = r * 0.5;
        }
        b.n_rows = 500;
        rc = orc_writer_write(w, &b, err);
    }
    if (!rc)
        rc = orc_writer_set_metadata(w, "k", "v", 1, err);
    if (!rc)
        rc = orc_writer_close(w, err);
    else if (w)
        orc_writer_abort(w);
    comb_batch_free(&b);
    comb_arena_free(&a);
    return rc;
}

TEST(orc_writer_survives_allocation_failures)
{
    const char *dir = unit_tmpdir();
    char path[512];
    CombErr err;
    int runs = 0;
    snprintf(path, sizeof path, "%s/oom.orc", dir);
    for (int64_t n = 1; n < 100000; n++, runs++) {
        comb_alloc_fail_after(n);
        int rc = write_file(path, &err);
        comb_alloc_fail_after(0);
        if (rc == COMB_OK)
            break;
        CHECK_EQ(rc, COMB_ENOMEM);
        CHECK(orc_test_file_size(path) < 0);  /* failed files are removed */
    }
    CHECK(runs > 10);
    CHECK_EQ(read_file(path, &err), COMB_OK);
}
