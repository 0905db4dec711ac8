/*
 * test_dump.c - orc_dump on files written here: the JSON row format
 * (dates, escapes, binary, floats, NULL structs, non-struct roots) and the
 * metadata listing (stripes, streams, encodings, statistics, metadata).
 */
#include "orc_test.h"
#include "unit.h"
#include "common/version.h"
#include "orc/orc_int.h"

#include <stdlib.h>
#include <string.h>

TEST(orc_dump_json_rows)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    comb_arena_init(&a, 4096);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    CombType *st = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "d", comb_type_new(&a, COMB_T_DATE));
    comb_type_add_field(&a, root, "s", comb_type_new(&a, COMB_T_STRING));
    comb_type_add_field(&a, root, "bin", comb_type_new(&a, COMB_T_BINARY));
    comb_type_add_field(&a, root, "f", comb_type_new(&a, COMB_T_FLOAT));
    comb_type_add_field(&a, root, "st", st);
    comb_type_add_field(&a, st, "ok", comb_type_new(&a, COMB_T_BOOLEAN));
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("json.orc", root, &opt, 8, path, &w, &b,
                                  &err), &err);
    CHECK_EQ(b.n_cols, 5);
    static const int64_t days[] = {0, -1, 11016, -719162};
    for (int i = 0; i < 4; i++)
        b.cols[0].i64[i] = days[i];
    b.cols[1].str[0] = (CombStr){"a\"b\\c\n\t/é", 10};
    b.cols[1].str[1] = (CombStr){"", 0};
    b.cols[1].str[2] = (CombStr){"\b\f\r", 3};
    comb_vec_set_null(&b.cols[1], 3);
    b.cols[2].str[0] = (CombStr){"\x00\x01\xff", 3};
    b.cols[2].str[1] = (CombStr){"", 0};
    comb_vec_nulls_materialize(&b.cols[2], 8);
    comb_vec_set_null(&b.cols[2], 2);
    comb_vec_set_null(&b.cols[2], 3);
    b.cols[3].f64[0] = 0.1;
    b.cols[3].f64[1] = -15;
    b.cols[3].f64[2] = 3.1415;
    b.cols[3].f64[3] = 1e20;
    comb_vec_nulls_materialize(&b.cols[4], 8);
    comb_vec_set_null(&b.cols[4], 1);
    b.cols[4].children[0].i64[0] = 1;
    b.cols[4].children[0].i64[2] = 0;
    comb_vec_nulls_materialize(&b.cols[4].children[0], 8);
    comb_vec_set_null(&b.cols[4].children[0], 3);
    b.n_rows = 4;
    int rc = orc_writer_write(w, &b, &err);
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    char *text = orc_test_dump_text(path, ORC_DUMP_CONTENTS, NULL, &err);
    CHECK(text != NULL);
    const char *want =
        "{\"d\": \"1970-01-01\", \"s\": \"a\\\"b\\\\c\\n\\t/é\", "
        "\"bin\": [0, 1, 255], \"f\": 0.1, \"st\": {\"ok\": true}}\n"
        "{\"d\": \"1969-12-31\", \"s\": \"\", \"bin\": [], \"f\": -15, "
        "\"st\": null}\n"
        "{\"d\": \"2000-02-29\", \"s\": \"\\b\\f\\r\", \"bin\": null, "
        "\"f\": 3.1415, \"st\": {\"ok\": false}}\n"
        "{\"d\": \"0001-01-01\", \"s\": null, \"bin\": null, "
        "\"f\": 1e+20, \"st\": {\"ok\": null}}\n";
    int same = strcmp(text, want) == 0;
    if (!same)
        printf("    got:\n%s    want:\n%s", text, want);
    free(text);
    CHECK(same);
    /* Hive's orcfiledump -d: compact, Java's text of the float widened to
     * a double, "/" unescaped except in "</" */
    text = orc_test_dump_text(path, ORC_DUMP_ROWS, NULL, &err);
    CHECK(text != NULL);
    const char *hive =
        "{\"d\":\"1970-01-01\",\"s\":\"a\\\"b\\\\c\\n\\t/é\","
        "\"bin\":[0,1,255],\"f\":0.10000000149011612,\"st\":{\"ok\":true}}\n"
        "{\"d\":\"1969-12-31\",\"s\":\"\",\"bin\":[],\"f\":-15,"
        "\"st\":null}\n"
        "{\"d\":\"2000-02-29\",\"s\":\"\\b\\f\\r\",\"bin\":null,"
        "\"f\":3.1414999961853027,\"st\":{\"ok\":false}}\n"
        "{\"d\":\"0001-01-01\",\"s\":null,\"bin\":null,"
        "\"f\":1.0000000200408773E20,\"st\":{\"ok\":null}}\n";
    same = strcmp(text, hive) == 0;
    if (!same)
        printf("    got:\n%s    want:\n%s", text, hive);
    free(text);
    CHECK(same);
}

TEST(orc_dump_metadata_listing)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    comb_arena_init(&a, 4096);
    CombType *root = comb_type_new(&a, COMB_T_STRUCT);
    comb_type_add_field(&a, root, "id", comb_type_new(&a, COMB_T_BIGINT));
    comb_type_add_field(&a, root, "name", comb_type_new(&a, COMB_T_VARCHAR));
    orc_writer_options_default(&opt);
    opt.stripe_size = 1000;
    opt.row_index_stride = 0;  /* the listing of a file without index */
    CHECK_OK(orc_test_writer_open("meta.orc", root, &opt, 1000, path, &w, &b,
                                  &err), &err);
    int rc = COMB_OK;
    for (int s = 0; s < 3 && !rc; s++) {
        for (int i = 0; i < 1000; i++) {
            b.cols[0].i64[i] = s * 1000 + i;
            b.cols[1].str[i] = (CombStr){"bob", 3};
        }
        b.n_rows = 1000;
        rc = orc_writer_write(w, &b, &err);
    }
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_set_metadata(w, "hive.acid.stats", "3000,0,0", 8, &err),
             &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    char *text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text != NULL);
    static const char *const lines[] = {
        "File Version: 0.12 with ORC_CPP_ORIGINAL by ORC C++ comb " COMB_VERSION "\n",
        "Rows: 3000\n", "Compression: ZLIB\n", "Compression size: 262144\n",
        "Type: struct<id:bigint,name:varchar(0)>\n",
        "  Stripe: offset: 3 data: ", "  Stripe 3:\n",
        "    Stream: column 1 section DATA start: 3 length ",
        "    Encoding column 0: DIRECT\n", "    Encoding column 1: DIRECT_V2\n",
        /* one distinct value: a dictionary, as ORC Java writes it */
        "    Encoding column 2: DICTIONARY_V2[1]\n",
        "  Column 1: count: 3000 hasNull: false min: 0 max: 2999 sum: 4498500\n",
        "  Column 2: count: 3000 hasNull: false min: bob max: bob sum: 9000\n",
        "  hive.acid.stats=3000,0,0\n"};
    bool all = orc_test_text_has(text, lines, sizeof lines / sizeof lines[0]);
    free(text);
    CHECK(all);
}

TEST(orc_dump_non_struct_root_and_errors)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err;
    char *text = orc_test_dump_text(
        orc_test_path(0, "orc/TestOrcFile.testWithoutCompressionBlockSize.orc"),
        ORC_DUMP_ROWS, NULL, &err);
    CHECK(text != NULL);
    CHECK(strncmp(text, "1\n2\n3\n", 6) == 0);
    CHECK(strstr(text, "\n100\n") != NULL);
    free(text);
    CHECK(orc_test_dump_text(orc_test_path(0, "orc/zero.orc"), ORC_DUMP_META, NULL,
                             &err) == NULL);
    CHECK_EQ(err.code, COMB_ECORRUPT);
}

/* The new kinds in both row forms and in the statistics listing. */
TEST(orc_dump_types)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcWriterOptions opt;
    CombType *root;
    static const char schema[] =
        "struct<d:decimal(6,2),t:timestamp,m:map<string,array<int>>,"
        "s:struct<x:date>,e:array<string>>";
    comb_arena_init(&a, 4096);
    CHECK_OK(comb_type_parse(&a, schema, strlen(schema), &root, &err), &err);
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("types.orc", root, &opt, 4, path, &w, &b,
                                  &err), &err);
    b.cols[0].dec[0] = 150;           /* 1.50 */
    b.cols[0].dec[1] = -5;            /* -0.05 */
    b.cols[1].i64[0] = 0;
    b.cols[1].nanos[0] = 0;
    b.cols[1].i64[1] = -86400 * 365 + 3661;
    b.cols[1].nanos[1] = 120000000;
    CombVector *m = &b.cols[2];
    m->off[0] = 0;
    m->len[0] = 2;
    m->children[0].str[0] = (CombStr){"a</b", 4};
    m->children[0].str[1] = (CombStr){"k", 1};
    m->children[1].off[0] = 0;
    m->children[1].len[0] = 2;
    m->children[1].children[0].i64[0] = 1;
    m->children[1].children[0].i64[1] = -2;
    comb_vec_nulls_materialize(&m->children[1], 4);
    comb_vec_set_null(&m->children[1], 1);
    m->len[1] = 0;
    b.cols[3].children[0].i64[0] = 16758;
    comb_vec_nulls_materialize(&b.cols[3], 4);
    comb_vec_set_null(&b.cols[3], 1);
    comb_vec_nulls_materialize(&b.cols[4], 4);
    comb_vec_set_null(&b.cols[4], 0);
    b.cols[4].len[1] = 0;
    b.n_rows = 2;
    int rc = orc_writer_write(w, &b, &err);
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_close(w, &err), &err);
    char *text = orc_test_dump_text(path, ORC_DUMP_ROWS, NULL, &err);
    CHECK(text != NULL);
    const char *hive =
        "{\"d\":\"1.5\",\"t\":\"1970-01-01 00:00:00.0\",\"m\":[{\"_key\":"
        "\"a<\\/b\",\"_value\":[1,-2]},{\"_key\":\"k\",\"_value\":null}],"
        "\"s\":{\"x\":\"2015-11-19\"},\"e\":null}\n"
        "{\"d\":\"-0.05\",\"t\":\"1969-01-01 01:01:01.12\",\"m\":[],"
        "\"s\":null,\"e\":[]}\n";
    bool same = strcmp(text, hive) == 0;
    if (!same)
        printf("    got:\n%s    want:\n%s", text, hive);
    free(text);
    CHECK(same);
    text = orc_test_dump_text(path, ORC_DUMP_CONTENTS, NULL, &err);
    CHECK(text != NULL);
    const char *contents =
        "{\"d\": 1.50, \"t\": \"1970-01-01 00:00:00.0\", \"m\": [{\"key\": "
        "\"a</b\", \"value\": [1, -2]}, {\"key\": \"k\", \"value\": null}], "
        "\"s\": {\"x\": \"2015-11-19\"}, \"e\": null}\n"
        "{\"d\": -0.05, \"t\": \"1969-01-01 01:01:01.12\", \"m\": [], "
        "\"s\": null, \"e\": []}\n";
    same = strcmp(text, contents) == 0;
    if (!same)
        printf("    got:\n%s    want:\n%s", text, contents);
    free(text);
    CHECK(same);
    text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text != NULL);
    static const char *const lines[] = {
        "  Column 1: count: 2 hasNull: false min: -0.05 max: 1.5 sum: 1.45\n",
        "  Column 2: count: 2 hasNull: false min: 1969-01-01 01:01:01.12 "
        "max: 1970-01-01 00:00:00.0\n",
        "  Column 3: count: 2 hasNull: false minChildren: 0 maxChildren: 2 "
        "totalChildren: 2\n",
        "  Column 9: count: 1 hasNull: true minChildren: 0 maxChildren: 0\n",
        /* a NULL struct row gives its field no entry, hence no NULL */
        "  Column 7: count: 1 hasNull: true\n",
        "  Column 8: count: 1 hasNull: false min: 2015-11-19 max: 2015-11-19\n",
        "    Encoding column 1: DIRECT_V2\n"};
    bool all = orc_test_text_has(text, lines, sizeof lines / sizeof lines[0]);
    free(text);
    CHECK(all);
}

/* Columns without values (all NULL, as the row columns of a delete
 * delta): statistics as ORC Java writes and prints them.  A string's
 * total length is written only with values (so ORC C++ says "Total
 * length is not defined", as for Java's files); a double's sum always,
 * and Hive's orcfiledump prints it ("sum: 0.0") but no string or binary
 * sum. */
TEST(orc_stats_of_columns_without_values)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    CombArena a;
    CombBatch b;
    OrcWriter *w;
    OrcReader *r;
    OrcWriterOptions opt;
    CombType *root;
    static const char schema[] =
        "struct<s:string,b:binary,d:double,x:decimal(5,2),c:char(3)>";
    comb_arena_init(&a, 4096);
    CHECK_OK(comb_type_parse(&a, schema, strlen(schema), &root, &err), &err);
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("empty_stats.orc", root, &opt, 4, path, &w,
                                  &b, &err), &err);
    for (int c = 0; c < 5; c++) {
        comb_vec_nulls_materialize(&b.cols[c], 4);
        for (int i = 0; i < 3; i++)
            comb_vec_set_null(&b.cols[c], i);
    }
    b.n_rows = 3;
    int rc = orc_writer_write(w, &b, &err);
    comb_batch_free(&b);
    comb_arena_free(&a);
    CHECK_OK(rc, &err);
    CHECK_OK(orc_writer_close(w, &err), &err);

    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    const Orc__Proto__ColumnStatistics *st[6];
    CHECK_EQ((long)r->footer->n_statistics, 6);
    for (int c = 0; c < 6; c++)
        CHECK_OK(orc_reader_column_stats_pb(r, c, &st[c]), &err);
    CHECK(st[1]->stringstatistics != NULL);
    CHECK(!st[1]->stringstatistics->has_sum);
    CHECK(!st[1]->stringstatistics->has_minimum);
    CHECK(!st[5]->stringstatistics->has_sum);
    CHECK(st[2]->binarystatistics && st[2]->binarystatistics->has_sum);
    CHECK(st[3]->doublestatistics && st[3]->doublestatistics->has_sum);
    CHECK(!st[3]->doublestatistics->has_minimum);
    CHECK(st[4]->decimalstatistics && st[4]->decimalstatistics->sum &&
          strcmp(st[4]->decimalstatistics->sum, "0") == 0);
    orc_reader_close(r);

    char *text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text != NULL);
    static const char *const lines[] = {
        "  Column 1: count: 0 hasNull: true\n",
        "  Column 2: count: 0 hasNull: true\n",
        "  Column 3: count: 0 hasNull: true sum: 0.0\n",
        "  Column 4: count: 0 hasNull: true\n",
        "  Column 5: count: 0 hasNull: true\n"};
    bool all = orc_test_text_has(text, lines, sizeof lines / sizeof lines[0]);
    free(text);
    CHECK(all);
}

static void fill_three(void *ctx, const CombType *root, CombBatch *b)
{
    (void)ctx;
    (void)root;
    for (int i = 0; i < b->n_rows; i++)
        b->cols[0].i64[i] = 10 + i;
}

/* The file at path with its footer's statistics of column 1 replaced by
 * bytes that do not parse as a ColumnStatistics (a varint cut short);
 * the footer itself still parses (uncompressed file). */
static void damage_column_stats(const char *path)
{
    long size = orc_test_file_size(path);
    uint8_t *f = malloc((size_t)size), *foot = NULL;
    FILE *io = fopen(path, "rb");
    CHECK(f && io && fread(f, 1, (size_t)size, io) == (size_t)size);
    fclose(io);
    size_t ps_len = f[size - 1];
    Orc__Proto__PostScript *ps = orc__proto__post_script__unpack(
        NULL, ps_len, f + size - 1 - ps_len);
    CHECK(ps != NULL);
    size_t foot_off = (size_t)size - 1 - ps_len - ps->footerlength;
    Orc__Proto__ReaderFooter *rf = orc__proto__reader_footer__unpack(
        NULL, ps->footerlength, f + foot_off);
    CHECK(rf != NULL && rf->n_statistics == 2);
    static uint8_t cut_varint[] = {0x08, 0x80};
    ProtobufCBinaryData keep = rf->statistics[1];
    rf->statistics[1].data = cut_varint;
    rf->statistics[1].len = sizeof cut_varint;
    size_t foot_len = orc__proto__reader_footer__get_packed_size(rf);
    foot = malloc(foot_len);
    orc__proto__reader_footer__pack(rf, foot);
    rf->statistics[1] = keep; /* freed by its owner */
    ps->footerlength = foot_len;
    uint8_t ps_buf[256];
    size_t ps_new = orc__proto__post_script__pack(ps, ps_buf);
    CHECK(ps_new < 256);
    io = fopen(path, "wb");
    CHECK(io != NULL);
    fwrite(f, 1, foot_off, io);
    fwrite(foot, 1, foot_len, io);
    fwrite(ps_buf, 1, ps_new, io);
    fputc((int)ps_new, io);
    fclose(io);
    orc__proto__reader_footer__free_unpacked(rf, NULL);
    orc__proto__post_script__free_unpacked(ps, NULL);
    free(foot);
    free(f);
}

/* The reader unpacks a column's file statistics only when asked: a file
 * whose statistics of one column do not parse still opens and reads, the
 * other columns' statistics are there, that column's are COMB_ECORRUPT,
 * and the metadata dump, which shows them all, fails naming the file. */
TEST(orc_column_stats_unpacked_when_asked)
{
    char path[ORC_TEST_PATH_LEN];
    CombErr err;
    OrcWriterOptions opt;
    OrcReader *r;
    CombBatch b;
    OrcColumnStats st;
    long rows = 0;
    orc_writer_options_default(&opt);
    opt.compression = ORC_COMP_NONE;
    CHECK_OK(orc_test_write_column("stats.orc", "x", COMB_T_BIGINT, &opt, 3,
                                   fill_three, NULL, path, &err),
             &err);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    CHECK_OK(orc_reader_column_stats(r, 1, &st), &err);
    CHECK(st.has_int && st.int_min == 10 && st.int_max == 12);
    orc_reader_close(r);

    damage_column_stats(path);
    CHECK_OK(orc_test_reader_open(path, 16, &r, &b, &err), &err);
    while (orc_reader_next(r, &b, &err) == COMB_OK && b.n_rows > 0)
        rows += b.n_rows;
    CHECK_EQ(rows, 3);
    CHECK_OK(orc_reader_column_stats(r, 0, &st), &err);
    CHECK_EQ((long)st.n_values, 3);
    CHECK_EQ(orc_reader_column_stats(r, 1, &st), COMB_ECORRUPT);
    CHECK_EQ(orc_reader_column_stats(r, 2, &st), COMB_ENOTFOUND);
    comb_batch_free(&b);
    orc_reader_close(r);

    char *text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text == NULL);
    free(text);
    CHECK_EQ(err.code, COMB_ECORRUPT);
    CHECK(strstr(err.msg, "statistics of column 1") != NULL);
    CHECK(strstr(err.msg, "stats.orc") != NULL);
}
