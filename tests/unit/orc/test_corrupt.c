/*
 * test_corrupt.c - bad input: the corrupt conformance files, truncated and
 * bit-flipped copies of good files, files of future versions, empty files
 * and unsupported codecs.  Every case must end in an error code (or, for
 * random damage, at worst read garbage) without a crash or a sanitizer
 * report.
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "fs/fs.h"

#include <stdlib.h>
#include <string.h>

/* Open and read every row; returns the first error code (0 if none). */
static int read_everything(const char *path, CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    int rc = orc_test_reader_open(path, 1024, &r, &b, err);
    if (rc)
        return rc;
    int n = orc_reader_n_columns(r);
    while (!(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0)
        ;
    /* the stats and stripe footers must be safe to look at too */
    for (int s = 0; s < orc_reader_n_stripes(r); s++) {
        OrcColumnStats st;
        CombErr e2;
        orc_reader_stripe_stats(r, s, 0, &st, &e2);
        const char **kinds = calloc((size_t)n, sizeof *kinds);
        uint32_t *dict = calloc((size_t)n, sizeof *dict);
        orc_reader_stripe_encodings(r, s, kinds, dict, &e2);
        free(kinds);
        free(dict);
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    return rc;
}

TEST(orc_corrupt_files_fail)
{
    if (unit_skip_without_testdata())
        return;
    static const char *const must_fail[] = {
        "orc/corrupt/missing_blob_stream_in_string_dict.orc",
        "orc/corrupt/missing_length_stream_in_string_dict.orc",
        "orc/corrupt/negative_dict_entry_lengths.orc",
        "orc/corrupt/stripe_footer_bad_column_encodings.orc",
    };
    for (size_t i = 0; i < sizeof must_fail / sizeof must_fail[0]; i++) {
        CombErr err;
        int rc = read_everything(orc_test_path(0, must_fail[i]), &err);
        if (rc == 0)
            printf("    %s read without error\n", must_fail[i]);
        CHECK(rc != 0);
        CHECK(strstr(err.msg, "corrupt_") == NULL || strstr(err.msg, ".orc"));
    }
    CombErr err;
    CHECK_EQ(read_everything(orc_test_path(0, "orc/corrupt/"
                                              "negative_dict_entry_lengths.orc"),
                             &err), COMB_ECORRUPT);
    CHECK(strstr(err.msg, "negative_dict_entry_lengths.orc") != NULL);
}

TEST(orc_rejects_future_and_empty)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err;
    OrcReader *r = NULL;
    CHECK_EQ(orc_reader_open(orc_test_path(0, "orc/version1999.orc"), &r, &err),
             COMB_EUNSUPPORTED);
    CHECK(strstr(err.msg, "19.99") != NULL);
    CHECK_EQ(orc_reader_open(orc_test_path(0, "orc/zero.orc"), &r, &err),
             COMB_ECORRUPT);
    CHECK(strstr(err.msg, "zero.orc") != NULL);
    CHECK_EQ(orc_reader_open(orc_test_path(0, "orc/no_such_file.orc"), &r, &err),
             COMB_EIO);
    CHECK(r == NULL);
}

/* Unselected columns are left alone: orc_split_elim read with only its
 * bigint, string and double columns leaves the decimal and timestamp
 * vectors untouched. */
TEST(orc_selected_columns_only)
{
    CombErr err;
    OrcReader *r;
    CombBatch b;
    int rc;
    if (unit_skip_without_testdata())
        return;
    CHECK_OK(orc_reader_open(orc_test_path(0, "orc/orc_split_elim.orc"), &r,
                             &err), &err);
    bool inc[6] = {false, true, true, true, false, false};
    CHECK_OK(orc_reader_select(r, inc, &err), &err);
    CHECK_EQ(orc_reader_batch_init(r, &b, 1024), 0);
    b.cols[3].dec[0] = 77;
    b.cols[4].nanos[0] = 55;
    uint64_t rows = 0;
    while ((rc = orc_reader_next(r, &b, &err)) == 0 && b.n_rows > 0)
        rows += (uint64_t)b.n_rows;
    CHECK(b.cols[3].dec[0] == 77 && b.cols[4].nanos[0] == 55);
    comb_batch_free(&b);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK_EQ(rows, 25000);
    /* selecting after the first read is refused */
    CHECK_OK(orc_reader_open(orc_test_path(0, "orc/decimal.orc"), &r, &err),
             &err);
    CHECK_EQ(orc_reader_batch_init(r, &b, 10), 0);
    CHECK_OK(orc_reader_next(r, &b, &err), &err);
    CHECK_EQ(orc_reader_select(r, NULL, &err), COMB_EINVALID);
    comb_batch_free(&b);
    orc_reader_close(r);
}

TEST(orc_encrypted_files_open)
{
    if (unit_skip_without_testdata())
        return;
    static const char *const files[] = {"orc/encrypted/sample1.orc",
                                        "orc/encrypted/sample2.orc"};
    for (int i = 0; i < 2; i++) {
        CombErr err;
        OrcReader *r;
        CHECK_OK(orc_reader_open(orc_test_path(0, files[i]), &r, &err), &err);
        CHECK_EQ(orc_reader_n_rows(r), 1);
        orc_reader_close(r);
        read_everything(orc_test_path(0, files[i]), &err);  /* no crash */
    }
}

static const char *const good_files[] = {
    "orc/TestOrcFile.testSnappy.orc",
    "orc/TestOrcFile.test1.orc",
    "orc/TestVectorOrcFile.testLz4.orc",
    "orc/TestVectorOrcFile.testZstd.0.12.orc",
    "orc/TestOrcFile.testStringAndBinaryStatistics.orc",
    "orc/TestOrcFile.testMemoryManagementV11.orc",
    "orc/orc_index_int_string.orc",
    "orc/nulls-at-end-snappy.orc",
    "orc/TestOrcFile.testUnionAndTimestamp.orc",
    "orc/decimal64_v2.orc",
    "orc/complextypes_iceberg.orc",
    "orc/over1k_bloom.orc",
};

TEST(orc_truncated_files_are_corrupt)
{
    if (unit_skip_without_testdata())
        return;
    const char *dir = unit_tmpdir();
    char cut[512];
    snprintf(cut, sizeof cut, "%s/cut.orc", dir);
    for (size_t f = 0; f < sizeof good_files / sizeof good_files[0]; f++) {
        const char *src = orc_test_path(0, good_files[f]);
        long size = orc_test_file_size(src);
        CHECK(size > 0);
        long lens[] = {size - 1, size - 2, size - 10, size - 100, size / 2,
                       size / 3, 100, 10, 4, 3, 1};
        for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            if (lens[i] <= 0 || lens[i] >= size)
                continue;
            CombErr err;
            CHECK_EQ(orc_test_copy_prefix(src, cut, (size_t)lens[i]), 0);
            int rc = read_everything(cut, &err);
            if (rc != COMB_ECORRUPT)
                printf("    %s cut at %ld: rc %d %s\n", good_files[f],
                       lens[i], rc, err.msg);
            CHECK_EQ(rc, COMB_ECORRUPT);
            CHECK(strstr(err.msg, "cut.orc") != NULL);
        }
    }
}

static uint64_t seed = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return orc_test_rand(&seed); }

/* Random byte damage anywhere in small good files: any rc, no crash. */
TEST(orc_damaged_files_do_not_crash)
{
    if (unit_skip_without_testdata())
        return;
    const char *dir = unit_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/damaged.orc", dir);
    for (size_t f = 0; f < sizeof good_files / sizeof good_files[0]; f++) {
        CombArena a;
        unsigned char *data;
        size_t len;
        CombErr err;
        comb_arena_init(&a, 0);
        CHECK_OK(fs_read_file(orc_test_path(0, good_files[f]), &a, &data, &len,
                              &err), &err);
        unsigned char *copy = malloc(len);
        int trials = len > 100000 ? 30 : 300;
        for (int t = 0; t < trials; t++) {
            memcpy(copy, data, len);
            int flips = 1 + (int)(rnd() % 4);
            for (int k = 0; k < flips; k++) {
                /* the tail holds the metadata: damage it more often */
                size_t at = rnd() % 2 ? len - 1 - rnd() % (len < 600 ? len : 600)
                                      : rnd() % len;
                copy[at] = (unsigned char)rnd();
            }
            FILE *out = fopen(path, "wb");
            fwrite(copy, 1, len, out);
            fclose(out);
            read_everything(path, &err);
        }
        free(copy);
        comb_arena_free(&a);
    }
}
