/*
 * test_filedump.c - `comb orcfiledump`'s metadata listing against golden
 * files in Hive's layout (ORC Java 1.8's FileDump and JsonFileDump, which
 * `hive --orcfiledump` runs) for ORC's example files: text with row
 * group indexes and bloom filter summaries, user metadata, time zones,
 * JSON compact and pretty, one file and several; then what comb adds
 * (ACID bucket properties and key index decoded), directories, and bad
 * arguments.  COMB_UPDATE_GOLDEN=1 rewrites the golden files (read every
 * line of a rewritten one before committing it).
 */
#include "orc_test.h"
#include "unit.h"
#include "common/alloc.h"
#include "fs/fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* tests/unit/orc/golden/<name>, beside this file. */
static const char *golden_path(const char *name)
{
    static char buf[1024];
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash ? (int)(slash - __FILE__) : 1;
    snprintf(buf, sizeof buf, "%.*s/golden/%s", dir, slash ? __FILE__ : ".",
             name);
    return buf;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t n = 0;
    FILE *m = f ? open_memstream(&text, &n) : NULL;
    int c;
    if (!m) {
        if (f)
            fclose(f);
        return NULL;
    }
    while ((c = fgetc(f)) != EOF)
        fputc(c, m);
    fclose(f);
    fclose(m);
    *len = n;
    return text;
}

/* text with every copy of the test data directory as "TESTDATA" */
static char *mask_testdata(const char *text, size_t len, size_t *out_len)
{
    const char *dir = unit_testdata();
    size_t dl = strlen(dir);
    char *res = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&res, &n);
    for (size_t i = 0; i < len;) {
        if (len - i >= dl && memcmp(text + i, dir, dl) == 0) {
            fputs("TESTDATA", m);
            i += dl;
        } else {
            fputc(text[i++], m);
        }
    }
    fclose(m);
    *out_len = n;
    return res;
}

/* Compare (masked) output with the golden file, printing the first line
 * that differs. */
static bool same_as_golden(const char *name, const char *out, size_t len)
{
    size_t mlen, glen = 0;
    char *masked = mask_testdata(out, len, &mlen);
    if (getenv("COMB_UPDATE_GOLDEN")) {
        FILE *f = fopen(golden_path(name), "wb");
        if (f) {
            fwrite(masked, 1, mlen, f);
            fclose(f);
        }
    }
    char *want = read_all(golden_path(name), &glen);
    bool same = want && glen == mlen && memcmp(want, masked, mlen) == 0;
    if (!same) {
        size_t i = 0, line = 1, start = 0;
        while (want && i < glen && i < mlen && want[i] == masked[i]) {
            if (want[i] == '\n') {
                line++;
                start = i + 1;
            }
            i++;
        }
        printf("    %s: differs at line %zu\n    got:  %.120s\n"
               "    want: %.120s\n", name, line, masked + (start < mlen ? start : mlen),
               want ? want + (start < glen ? start : glen) : "(no file)");
    }
    free(masked);
    free(want);
    return same;
}

typedef struct Capture {
    char *text;
    size_t len;
    FILE *f;
} Capture;

static void capture_start(Capture *c)
{
    c->text = NULL;
    c->len = 0;
    c->f = open_memstream(&c->text, &c->len);
}

static void capture_end(Capture *c)
{
    fclose(c->f);
}

static bool text_golden(const char *orc, const OrcDumpOptions *opt,
                        const char *golden)
{
    Capture c;
    CombErr err;
    capture_start(&c);
    int rc = orc_dump_metadata(orc_test_path(0, orc), opt, c.f, &err);
    capture_end(&c);
    if (rc)
        printf("    %s: %s\n", orc, err.msg);
    bool same = rc == COMB_OK && same_as_golden(golden, c.text, c.len);
    free(c.text);
    return same;
}

static bool json_golden(const char *const *orcs, int n,
                        const OrcDumpOptions *opt, const char *golden)
{
    Capture c;
    CombErr err;
    const char *paths[4];
    static char bufs[4][1024];
    for (int i = 0; i < n; i++) {
        snprintf(bufs[i], sizeof bufs[i], "%s", orc_test_path(0, orcs[i]));
        paths[i] = bufs[i];
    }
    capture_start(&c);
    int rc = orc_dump_json(paths, n, opt, c.f, &err);
    capture_end(&c);
    if (rc)
        printf("    %s: %s\n", orcs[0], err.msg);
    bool same = rc == COMB_OK && same_as_golden(golden, c.text, c.len);
    free(c.text);
    return same;
}

/* Three stripes of a dictionary column, with two columns' row indexes. */
TEST(orc_filedump_text_row_index)
{
    if (unit_skip_without_testdata())
        return;
    static const int cols[] = {1, 2};
    OrcDumpOptions opt = {.rowindex = cols, .n_rowindex = 2};
    CHECK(text_golden("orc/TestOrcFile.testStripeLevelStats.orc", &opt,
                      "stripe_level_stats.txt"));
}

/* Every primitive kind's statistics (timestamps, decimals, binaries,
 * booleans, floats), two stripes, Hive 1.2's pre-release bloom filters
 * (which show as none) with the row indexes of every column. */
TEST(orc_filedump_text_kinds_and_old_blooms)
{
    if (unit_skip_without_testdata())
        return;
    OrcDumpOptions opt = {.rowindex_all = true};
    CHECK(text_golden("orc/over1k_bloom.orc", &opt, "over1k_bloom.txt"));
}

/* ORC C++'s UTF-8 bloom filters: entry and stripe-level summaries. */
TEST(orc_filedump_text_bloom_filters)
{
    if (unit_skip_without_testdata())
        return;
    OrcDumpOptions opt = {.rowindex_all = true};
    CHECK(text_golden("orc/bad_bloom_filter_1.6.11.orc", &opt,
                      "bad_bloom_filter_1.6.11.txt"));
}

/* User metadata of any bytes (decoded as Java decodes UTF-8), a struct
 * of every kind, and -t's writer time zones. */
TEST(orc_filedump_text_user_metadata_and_zones)
{
    if (unit_skip_without_testdata())
        return;
    OrcDumpOptions opt = {.timezone = true};
    CHECK(text_golden("orc/TestOrcFile.metaData.orc", &opt, "metadata.txt"));
    CHECK(text_golden("orc/TestOrcFile.testDate1900.orc", &opt,
                      "date1900.txt"));
}

/* A 0.11 file: RLE v1, a union, decimals without precision, Hive 0.11's
 * writer version. */
TEST(orc_filedump_text_version_0_11)
{
    if (unit_skip_without_testdata())
        return;
    OrcDumpOptions opt = {0};
    CHECK(text_golden("orc/orc-file-11-format.orc", &opt,
                      "orc-file-11-format.txt"));
}

TEST(orc_filedump_json)
{
    if (unit_skip_without_testdata())
        return;
    static const char *const one[] = {
        "orc/TestOrcFile.testStripeLevelStats.orc"};
    static const char *const bloom[] = {"orc/bad_bloom_filter_1.6.11.orc"};
    static const char *const two[] = {"orc/TestOrcFile.testStripeLevelStats.orc",
                                      "orc/decimal.orc"};
    static const int cols[] = {1};
    OrcDumpOptions compact = {.json = true};
    OrcDumpOptions pretty = {.json = true, .pretty = true,
                             .rowindex_all = true, .timezone = true};
    OrcDumpOptions pretty_col = {.json = true, .pretty = true,
                                 .rowindex = cols, .n_rowindex = 1};
    CHECK(json_golden(one, 1, &compact, "stripe_level_stats.json"));
    CHECK(json_golden(bloom, 1, &pretty, "bad_bloom_filter_1.6.11.json"));
    CHECK(json_golden(two, 2, &pretty_col, "two_files.json"));
}

/* comb's addition for ACID files: the bucket column's bucket property
 * and each stripe's last key decoded (BucketCodec V1: bucket in bits
 * 16..27, statement in 0..11). */
TEST(orc_filedump_acid_decode)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    CombType *root;
    static const char schema[] =
        "struct<operation:int,originalTransaction:bigint,bucket:int,"
        "rowId:bigint,currentTransaction:bigint,row:struct<x:int>>";
    comb_arena_init(&a, 4096);
    CHECK_OK(comb_type_parse(&a, schema, strlen(schema), &root, &err), &err);
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("bucket_00001", root, &opt, 2, path, &w, &b,
                                  &err), &err);
    for (int i = 0; i < 2; i++) {
        b.cols[0].i64[i] = 0;
        b.cols[1].i64[i] = 7;
        b.cols[2].i64[i] = 536936448 + i * 3;  /* bucket 1, statements 0, 3 */
        b.cols[3].i64[i] = i;
        b.cols[4].i64[i] = 7;
        b.cols[5].children[0].i64[i] = i;
    }
    b.n_rows = 2;
    int rc = orc_writer_write(w, &b, &err);
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_set_metadata(w, "hive.acid.key.index",
                                     "7,536936451,1;", 14, &err), &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    char *text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text != NULL);
    static const char *const lines[] = {
        "  hive.acid.key.index=7,536936451,1;\n",
        "\nACID:\n  bucket: 536936448 (codec V1, bucket 1, statement 0) .. "
        "536936451 (codec V1, bucket 1, statement 3)\n",
        "  hive.acid.key.index: stripe 1: last key: writeId 7, bucket "
        "536936451 (codec V1, bucket 1, statement 3), rowId 1\n"};
    bool all = orc_test_text_has(text, lines, sizeof lines / sizeof lines[0]);
    free(text);
    CHECK(all);
}

/* A directory: every file below it in name order, hidden files and side
 * files left out; a missing path is an error naming it; --rowindex of a
 * column the file lacks is refused. */
TEST(orc_filedump_directories_and_errors)
{
    CombErr err;
    CombArena a;
    char dir[ORC_TEST_PATH_LEN], sub[ORC_TEST_PATH_LEN + 8];
    char **files;
    int n;
    snprintf(dir, sizeof dir, "%s/tree", unit_tmpdir());
    snprintf(sub, sizeof sub, "%s/b", dir);
    CHECK_OK(fs_mkdirs(sub, &err), &err);
    static const char *const names[] = {"b/2", "a", "_hidden", ".crc",
                                        "c_flush_length", "b/1"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char p[ORC_TEST_PATH_LEN + 32];
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        FILE *f = fopen(p, "w");
        CHECK(f != NULL);
        fclose(f);
    }
    comb_arena_init(&a, 1024);
    const char *arg[] = {dir};
    CHECK_OK(orc_dump_expand_paths(arg, 1, &a, &files, &n, &err), &err);
    CHECK_EQ(n, 3);
    CHECK(strstr(files[0], "/tree/a") != NULL);
    CHECK(strstr(files[1], "/tree/b/1") != NULL);
    CHECK(strstr(files[2], "/tree/b/2") != NULL);
    comb_free(files);
    const char *missing[] = {"/nonexistent/x.orc"};
    CHECK_EQ(orc_dump_expand_paths(missing, 1, &a, &files, &n, &err),
             COMB_ENOTFOUND);
    CHECK(strstr(err.msg, "/nonexistent/x.orc") != NULL);
    comb_arena_free(&a);
    if (unit_skip_without_testdata())
        return;
    static const int bad[] = {3};
    OrcDumpOptions opt = {.rowindex = bad, .n_rowindex = 1};
    Capture c;
    capture_start(&c);
    int rc = orc_dump_metadata(
        orc_test_path(0, "orc/TestOrcFile.testStripeLevelStats.orc"), &opt,
        c.f, &err);
    capture_end(&c);
    free(c.text);
    CHECK_EQ(rc, COMB_EINVALID);
    CHECK(strstr(err.msg, "no column 3") != NULL);
}

/* A file comb writes with a row index (stride 1000, 4 KiB chunks: the
 * positions land inside chunks) and bloom filters on id and s, three
 * groups a stripe: the row group entries with their statistics and
 * positions and the bloom filter summaries, in text and JSON.  The dump
 * runs in the file's directory, so that its name is the same each run. */
static int write_indexed(char *path, CombErr *err)
{
    static const int blooms[] = {1, 2};
    CombArena a;
    OrcWriterOptions opt;
    OrcWriter *w;
    CombBatch b;
    char text[500][16];
    comb_arena_init(&a, 1024);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "id", comb_type_new(&a, COMB_T_BIGINT));
    comb_type_add_field(&a, root, "s", comb_type_new(&a, COMB_T_STRING));
    comb_type_add_field(&a, root, "d", comb_type_new(&a, COMB_T_DOUBLE));
    orc_writer_options_default(&opt);
    opt.compression_block_size = 4096;
    opt.row_index_stride = 1000;
    opt.bloom_columns = blooms;
    opt.n_bloom_columns = 2;
    int rc = orc_test_writer_open("indexed.orc", root, &opt, 500, path, &w,
                                  &b, err);
    for (int r0 = 0; r0 < 2500 && !rc; r0 += 500) {
        for (int i = 0; i < 500; i++) {
            int r = r0 + i, n = snprintf(text[i], 16, "s%d", r % 37);
            b.cols[0].i64[i] = r * 7;
            b.cols[1].str[i] = (CombStr){text[i], (uint32_t)n};
            b.cols[2].f64[i] = r / 4.0;
            if (r % 10 == 3)
                comb_vec_set_null(&b.cols[2], i);
            else
                comb_vec_set_not_null(&b.cols[2], i);
        }
        b.n_rows = 500;
        rc = orc_writer_write(w, &b, err);
    }
    rc = rc ? (orc_writer_abort(w), rc) : orc_writer_close(w, err);
    comb_batch_free(&b);
    comb_arena_free(&a);
    return rc;
}

TEST(orc_filedump_comb_row_index_and_blooms)
{
    static const int cols[] = {1, 2, 3};
    OrcDumpOptions opt = {.rowindex = cols, .n_rowindex = 3};
    const char *name = "indexed.orc";
    char cwd[1024], path[ORC_TEST_PATH_LEN];
    CombErr err;
    Capture c, j;
    CHECK(getcwd(cwd, sizeof cwd));
    CHECK_OK(write_indexed(path, &err), &err);
    *strrchr(path, '/') = '\0';
    CHECK_EQ(chdir(path), 0);
    capture_start(&c);
    capture_start(&j);
    int rc1 = orc_dump_metadata(name, &opt, c.f, &err);
    int rc2 = orc_dump_json(&name, 1, &opt, j.f, &err);
    capture_end(&c);
    capture_end(&j);
    int back = chdir(cwd);
    if (rc1 || rc2)
        printf("    %s\n", err.msg);
    bool same = rc1 == COMB_OK && rc2 == COMB_OK &&
                same_as_golden("comb_indexed.txt", c.text, c.len) &&
                same_as_golden("comb_indexed.json", j.text, j.len);
    free(c.text);
    free(j.text);
    CHECK_EQ(back, 0);
    CHECK(same);
}
