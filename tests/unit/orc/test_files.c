/*
 * test_files.c - reading the ORC conformance files of the shared test data
 * and comparing their JSON row dumps with the expected dumps.
 */
#include "orc_test.h"
#include "unit.h"
#include "fs/fs.h"

#include <string.h>
#include <unistd.h>

typedef struct DumpCase {
    const char *orc;
    const char *expected;
    const char *cut;   /* compare only the part of each line before this */
    long rows;
} DumpCase;

static const DumpCase dump_cases[] = {
    {"TestOrcFile.columnProjection.orc", "TestOrcFile.columnProjection", NULL, 21000},
    {"TestOrcFile.emptyFile.orc", "TestOrcFile.emptyFile", NULL, 0},
    {"TestOrcFile.testMemoryManagementV11.orc", "TestOrcFile.testMemoryManagementV11", NULL, 2500},
    {"TestOrcFile.testMemoryManagementV12.orc", "TestOrcFile.testMemoryManagementV12", NULL, 2500},
    {"TestOrcFile.testPredicatePushdown.orc", "TestOrcFile.testPredicatePushdown", NULL, 3500},
    {"TestOrcFile.testSnappy.orc", "TestOrcFile.testSnappy", NULL, 10000},
    {"TestOrcFile.testStringAndBinaryStatistics.orc", "TestOrcFile.testStringAndBinaryStatistics", NULL, 4},
    {"TestOrcFile.testStripeLevelStats.orc", "TestOrcFile.testStripeLevelStats", NULL, 11000},
    {"TestOrcFile.testWithoutIndex.orc", "TestOrcFile.testWithoutIndex", NULL, 50000},
    {"TestStringDictionary.testRowIndex.orc", "TestStringDictionary.testRowIndex", NULL, 32768},
    {"TestVectorOrcFile.testLz4.orc", "TestVectorOrcFile.testLz4", NULL, 10000},
    {"TestVectorOrcFile.testZstd.0.12.orc", "TestVectorOrcFile.testLz4", NULL, 10000},
    {"nulls-at-end-snappy.orc", "nulls-at-end-snappy", NULL, 70000},
    {"orc_index_int_string.orc", "orc_index_int_string", NULL, 6000},
    /* ALLTYPES files: the columns before the nested list/map ones */
    {"TestOrcFile.test1.orc", "TestOrcFile.test1", ", \"middle\": ", 2},
    {"TestOrcFile.testSeek.orc", "TestOrcFile.testSeek", ", \"middle\": ", 32768},
    {"TestOrcFile.metaData.orc", "TestOrcFile.metaData", ", \"middle\": ", 1},
    {"orc-file-11-format.orc", "orc-file-11-format", ", \"middle\": ", 7500},
    {"over1k_bloom.orc", "over1k_bloom", ", \"_col8\": ", 2098},
    {"orc_split_elim_cpp.orc", "orc_split_elim_cpp", ", \"decimal1\": ", 25000},
    {"orc_split_elim_new.orc", "orc_split_elim_new", ", \"decimal1\": ", 25000},
    {"orc_split_elim.orc", "orc_split_elim", ", \"decimal1\": ", 25000},
};

TEST(orc_files_match_expected_dumps)
{
    if (unit_skip_without_testdata())
        return;
    for (size_t i = 0; i < sizeof dump_cases / sizeof dump_cases[0]; i++) {
        const DumpCase *c = &dump_cases[i];
        char orc[256], exp[256];
        snprintf(orc, sizeof orc, "orc/%s", c->orc);
        snprintf(exp, sizeof exp, "orc/expected/%s.jsn.gz", c->expected);
        long n = orc_test_compare_dump(orc_test_path(0, orc),
                                       orc_test_path(1, exp), c->cut);
        if (n != c->rows)
            printf("    %s: compared %ld rows, want %ld\n", c->orc, n,
                   c->rows);
        CHECK_EQ(n, c->rows);
    }
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
        "version1999.orc", "TestVectorOrcFile.testLzo.orc"};
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
