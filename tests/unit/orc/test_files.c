/*
 * test_files.c - reading the ORC conformance files of the shared test data
 * and comparing their JSON row dumps with the expected dumps.
 */
#include "orc_test.h"
#include "unit.h"

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
