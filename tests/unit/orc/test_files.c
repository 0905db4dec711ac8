/*
 * test_files.c - reading the ORC conformance files of the shared test data
 * and comparing their JSON row dumps with the expected dumps.
 */
#include "orc_test.h"
#include "unit.h"
#include "fs/fs.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct DumpCase {
    const char *orc;
    const char *expected;
    const char *cut;   /* compare only the part of each line before this */
    long rows;
    const char *trim;  /* Hive 0.11 decimal column: compared as printed
                          at orc-contents's forced scale 6 */
} DumpCase;

/* Every conformance file with an expected dump, all columns: lists, maps,
 * structs, unions, decimals, dates and timestamps of writers in other
 * zones included.  The 0.11 files name no writer zone; the upstream dumps
 * were made in America/Los_Angeles, so the reader's local zone is set to
 * it.  Hive 0.11 decimals carry no precision and read at scale 10 (Java's
 * default); orc-contents printed them cut to scale 6. */
static const DumpCase dump_cases[] = {
    {"TestOrcFile.columnProjection.orc", "TestOrcFile.columnProjection", NULL, 21000, NULL},
    {"TestOrcFile.emptyFile.orc", "TestOrcFile.emptyFile", NULL, 0, NULL},
    {"TestOrcFile.testMemoryManagementV11.orc", "TestOrcFile.testMemoryManagementV11", NULL, 2500, NULL},
    {"TestOrcFile.testMemoryManagementV12.orc", "TestOrcFile.testMemoryManagementV12", NULL, 2500, NULL},
    {"TestOrcFile.testPredicatePushdown.orc", "TestOrcFile.testPredicatePushdown", NULL, 3500, NULL},
    {"TestOrcFile.testSnappy.orc", "TestOrcFile.testSnappy", NULL, 10000, NULL},
    {"TestOrcFile.testStringAndBinaryStatistics.orc", "TestOrcFile.testStringAndBinaryStatistics", NULL, 4, NULL},
    {"TestOrcFile.testStripeLevelStats.orc", "TestOrcFile.testStripeLevelStats", NULL, 11000, NULL},
    {"TestOrcFile.testWithoutIndex.orc", "TestOrcFile.testWithoutIndex", NULL, 50000, NULL},
    {"TestStringDictionary.testRowIndex.orc", "TestStringDictionary.testRowIndex", NULL, 32768, NULL},
    {"TestVectorOrcFile.testLz4.orc", "TestVectorOrcFile.testLz4", NULL, 10000, NULL},
    {"TestVectorOrcFile.testZstd.0.12.orc", "TestVectorOrcFile.testLz4", NULL, 10000, NULL},
    /* LZO through Debian's liblzo2 */
    {"TestVectorOrcFile.testLzo.orc", "TestVectorOrcFile.testLzo", NULL, 10000, NULL},
    {"nulls-at-end-snappy.orc", "nulls-at-end-snappy", NULL, 70000, NULL},
    {"orc_index_int_string.orc", "orc_index_int_string", NULL, 6000, NULL},
    {"TestOrcFile.test1.orc", "TestOrcFile.test1", NULL, 2, NULL},
    {"TestOrcFile.testSeek.orc", "TestOrcFile.testSeek", NULL, 32768, NULL},
    {"TestOrcFile.metaData.orc", "TestOrcFile.metaData", NULL, 1, NULL},
    {"TestOrcFile.testUnionAndTimestamp.orc", "TestOrcFile.testUnionAndTimestamp", NULL, 5077, NULL},
    {"TestOrcFile.testDate1900.orc", "TestOrcFile.testDate1900", NULL, 70000, NULL},
    {"TestOrcFile.testDate2038.orc", "TestOrcFile.testDate2038", NULL, 212000, NULL},
    {"TestOrcFile.testTimestamp.orc", "TestOrcFile.testTimestamp", NULL, 12, NULL},
    {"decimal.orc", "decimal", NULL, 6000, NULL},
    {"over1k_bloom.orc", "over1k_bloom", NULL, 2098, NULL},
    {"orc_split_elim_cpp.orc", "orc_split_elim_cpp", NULL, 25000, NULL},
    {"orc_split_elim_new.orc", "orc_split_elim_new", NULL, 25000, NULL},
    {"orc_split_elim.orc", "orc_split_elim", NULL, 25000, "decimal1"},
    {"orc-file-11-format.orc", "orc-file-11-format", NULL, 7500, "decimal1"},
};

TEST(orc_files_match_expected_dumps)
{
    if (unit_skip_without_testdata())
        return;
    const char *tz = getenv("TZ");
    char *saved = tz ? strdup(tz) : NULL;
    setenv("TZ", "America/Los_Angeles", 1);
    for (size_t i = 0; i < sizeof dump_cases / sizeof dump_cases[0]; i++) {
        const DumpCase *c = &dump_cases[i];
        char orc[256], exp[256];
        snprintf(orc, sizeof orc, "orc/%s", c->orc);
        snprintf(exp, sizeof exp, "orc/expected/%s.jsn.gz", c->expected);
        long n = orc_test_compare_dump(orc_test_path(0, orc),
                                       orc_test_path(1, exp), c->cut, c->trim);
        if (n != c->rows)
            printf("    %s: compared %ld rows, want %ld\n", c->orc, n,
                   c->rows);
        if (n != c->rows)
            unit_fail(__FILE__, __LINE__, "%s differs", c->orc);
    }
    if (saved)
        setenv("TZ", saved, 1);
    else
        unsetenv("TZ");
    free(saved);
}

/* The decimal64 files (format 1.9999, RLE v2 longs) against the values
 * the ORC project's tests assert. */
TEST(orc_decimal64_files)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err;
    char *text = orc_test_dump_text(orc_test_path(0, "orc/decimal64_v2.orc"),
                                    ORC_DUMP_ROWS, NULL, &err);
    CHECK(text != NULL);
    bool first = strstr(text, "{\"a\":17292380420,\"b\":\"24\",\"c\":"
                              "\"36164.16\",\"d\":\"0.03\",\"e\":\"0.01\"}\n");
    bool last = strstr(text, "{\"a\":17292380422,\"b\":\"38\",\"c\":"
                             "\"47240.84\",\"d\":\"0.1\",\"e\":\"0\"}\n");
    free(text);
    CHECK(first && last);
    text = orc_test_dump_text(orc_test_path(0, "orc/decimal64_v2_cplusplus.orc"),
                              ORC_DUMP_CONTENTS, NULL, &err);
    CHECK(text != NULL);
    /* b starts at 164.16 and doubles, e = c + d */
    bool ok = strstr(text, "\"b\": 164.16, \"c\": 0.03, \"d\": 0.01, "
                           "\"e\": 0.04}") &&
              strstr(text, "\"b\": 84049.92, \"c\": 0.12, \"d\": 0.34, "
                           "\"e\": 0.46}");
    free(text);
    CHECK(ok);
}

/* complextypes_iceberg: the one row the ORC project's test prints
 * (id, nested_struct.a, nested_struct.b) and the rest of it. */
TEST(orc_complex_types_file)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err;
    OrcReader *r;
    CombBatch b;
    const char *p = orc_test_path(0, "orc/complextypes_iceberg.orc");
    char *text = orc_test_dump_text(p, ORC_DUMP_ROWS, NULL, &err);
    CHECK(text != NULL);
    bool same = strcmp(text,
        "{\"id\":8,\"int_array\":[-1],\"int_array_array\":[[-1,-2],[]],"
        "\"int_map\":[{\"_key\":\"k1\",\"_value\":-1}],\"int_map_array\":"
        "[[],[{\"_key\":\"k1\",\"_value\":1}],[],[]],\"nested_struct\":"
        "{\"a\":-1,\"b\":[-1],\"c\":{\"d\":[[{\"e\":-1,\"f\":"
        "\"nonnullable\"}]]},\"g\":[]}}\n") == 0;
    if (!same)
        printf("    got %s", text);
    free(text);
    CHECK(same);
    /* projection: id and nested_struct.a, .b only */
    CHECK_OK(orc_reader_open(p, &r, &err), &err);
    const CombType *root = orc_reader_schema(r);
    const CombType *ns = root->children[5];
    bool *inc = calloc((size_t)orc_reader_n_columns(r), 1);
    inc[root->children[0]->id] = true;
    inc[ns->children[0]->id] = true;
    inc[ns->children[1]->children[0]->id] = true;
    CHECK_OK(orc_reader_select(r, inc, &err), &err);
    free(inc);
    CHECK_EQ(orc_reader_batch_init(r, &b, 8), 0);
    CHECK_OK(orc_reader_next(r, &b, &err), &err);
    CHECK_EQ(b.n_rows, 1);
    CHECK_EQ(b.cols[0].i64[0], 8);
    CHECK_EQ(b.cols[5].children[0].i64[0], -1);
    CHECK_EQ(b.cols[5].children[1].len[0], 1);
    CHECK_EQ(b.cols[5].children[1].children[0].i64[0], -1);
    comb_batch_free(&b);
    orc_reader_close(r);
}

/* Both dump modes over every ORC file of the test data: the valid ones
 * must dump, the known-bad ones must fail with an error. */
static int dump_both(const char *path, CombErr *err)
{
    FILE *null = fopen("/dev/null", "w");
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(null), 2);
    int rc = orc_dump(path, false, null, err);
    if (rc == COMB_OK)
        rc = orc_dump(path, true, null, err);
    dup2(saved, 2);
    close(saved);
    fclose(null);
    return rc;
}

static bool known_bad(const char *name)
{
    static const char *const bad[] = {
        "missing_blob_stream_in_string_dict.orc",
        "missing_length_stream_in_string_dict.orc",
        "negative_dict_entry_lengths.orc",
        "stripe_footer_bad_column_encodings.orc", "zero.orc",
        "version1999.orc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (strcmp(name, bad[i]) == 0)
            return true;
    return false;
}

TEST(orc_dump_every_test_file)
{
    if (unit_skip_without_testdata())
        return;
    static const char *const dirs[] = {"orc", "orc/corrupt", "orc/encrypted"};
    int dumped = 0;
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        CombArena a;
        CombErr err;
        char **names;
        int n;
        comb_arena_init(&a, 0);
        CHECK_OK(fs_list_dir(orc_test_path(0, dirs[d]), &a, &names, &n, &err),
                 &err);
        for (int i = 0; i < n; i++) {
            if (!strstr(names[i], ".orc"))
                continue;
            char rel[512];
            snprintf(rel, sizeof rel, "%s/%s", dirs[d], names[i]);
            int rc = dump_both(orc_test_path(1, rel), &err);
            if ((rc != COMB_OK) != known_bad(names[i]))
                printf("    %s: rc %d %s\n", rel, rc, rc ? err.msg : "");
            CHECK_EQ(rc != COMB_OK, known_bad(names[i]));
            dumped++;
        }
        comb_arena_free(&a);
    }
    CHECK(dumped >= 45);
}

/* Timestamp statistics of a writer before ORC-135 (only the older
 * minimum/maximum fields: milliseconds of the instant) show the wall
 * clock of the stripe's writer zone, as the rows read: testDate1900 was
 * written in America/Los_Angeles and starts at 1900-05-05 12:34:56.1. */
TEST(orc_old_timestamp_statistics_in_the_writer_zone)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err;
    char *text = orc_test_dump_text(
        orc_test_path(0, "orc/TestOrcFile.testDate1900.orc"), ORC_DUMP_META,
        NULL, &err);
    CHECK(text != NULL);
    static const char *const lines[] = {
        "  Stripe 1:\n    Column 0: count: 15000 hasNull: false\n"
        "    Column 1: count: 15000 hasNull: false min: 1900-05-05 "
        "12:34:56.1 max: 1914-05-05 12:34:56.199999999\n",
        "  Column 1: count: 70000 hasNull: false min: 1900-05-05 12:34:56.1 "
        "max: 1969-05-05 12:34:56.199999999\n"};
    bool all = orc_test_text_has(text, lines, sizeof lines / sizeof lines[0]);
    free(text);
    CHECK(all);
    text = orc_test_dump_text(orc_test_path(0, "orc/TestOrcFile.testDate1900.orc"),
                              ORC_DUMP_ROWS, NULL, &err);
    CHECK(text != NULL);
    bool first = strncmp(text, "{\"time\":\"1900-05-05 12:34:56.1\",", 32) == 0;
    free(text);
    CHECK(first);
}
