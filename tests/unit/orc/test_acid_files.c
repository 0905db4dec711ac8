/*
 * test_acid_files.c - real files from the shared test data that the rest
 * of comb relies on: Hive ACID insert and delete files (ZLIB with tiny
 * compression chunks, SNAPPY), the big demo files (1.9 million rows, RLE
 * v1 and v2) and the presence of PATCHED_BASE runs in real RLE v2 streams.
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define NATION "hive-acid-tables/trino_nation_25k_delete_deltas/"

static bool str_is(CombStr s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

TEST(orc_acid_nation_insert_file)
{
    CombErr err;
    OrcReader *r;
    CombBatch b;
    if (unit_skip_without_testdata())
        return;
    CHECK_OK(orc_reader_open(orc_test_path(0, NATION "delta_0000002_0000002_0000/"
                                              "bucket_00000"), &r, &err), &err);
    CHECK_EQ(orc_reader_n_rows(r), 25000);
    CHECK_EQ(orc_reader_n_stripes(r), 5);
    CHECK_EQ(orc_reader_compression(r), ORC_COMP_ZLIB);
    CHECK_EQ(orc_reader_compression_block_size(r), 250);
    CHECK_EQ(orc_reader_n_columns(r), 11);
    const void *val;
    size_t len;
    CHECK(orc_reader_metadata(r, "hive.acid.version", &val, &len));
    CHECK(orc_reader_metadata(r, "hive.acid.key.index", &val, &len));
    CHECK_EQ(orc_reader_batch_init(r, &b, 1024), 0);
    int64_t n = 0;
    int rc;
    bool ok = true, names = true;
    while (ok && (rc = orc_reader_next(r, &b, &err)) == 0 && b.n_rows > 0) {
        CHECK_EQ(orc_reader_row_number(r), n + b.n_rows);
        for (int i = 0; i < b.n_rows; i++, n++) {
            ok = b.cols[0].i64[i] == 0 && b.cols[1].i64[i] == 2 &&
                 b.cols[2].i64[i] == 536870912 && b.cols[3].i64[i] == n &&
                 b.cols[4].i64[i] == 2 && !comb_vec_is_null(&b.cols[5], i) &&
                 b.cols[5].children[0].i64[i] == n / 1000;
            if (!ok)
                break;
            if (n == 0)
                names = names && str_is(b.cols[5].children[1].str[i], "ALGERIA") &&
                        str_is(b.cols[5].children[3].str[i], " haggle. carefully final "
                                                  "deposits detect slyly agai");
            if (n / 1000 == 5)
                names = names && str_is(b.cols[5].children[1].str[i], "ETHIOPIA");
            if (n / 1000 == 19)
                names = names && str_is(b.cols[5].children[1].str[i], "ROMANIA");
            if (n == 24999)
                names = names && str_is(b.cols[5].children[1].str[i], "UNITED STATES") &&
                        b.cols[5].children[2].i64[i] == 1;
        }
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK(ok);
    CHECK(names);
    CHECK_EQ(n, 25000);
}

TEST(orc_acid_nation_delete_files)
{
    if (unit_skip_without_testdata())
        return;
    static const char *const files[] = {
        NATION "delete_delta_0000003_0000003_0000/bucket_00000",
        NATION "delete_delta_0000004_0000004_0000/bucket_00000"};
    static const int64_t first_row[] = {5000, 19000};
    for (int f = 0; f < 2; f++) {
        CombErr err;
        OrcReader *r;
        CombBatch b;
        CHECK_OK(orc_reader_open(orc_test_path(0, files[f]), &r, &err), &err);
        CHECK_EQ(orc_reader_batch_init(r, &b, 1024), 0);
        int64_t n = 0;
        int rc;
        bool ok = true;
        while (ok && (rc = orc_reader_next(r, &b, &err)) == 0 && b.n_rows > 0)
            for (int i = 0; i < b.n_rows && ok; i++, n++)
                ok = b.cols[0].i64[i] == 2 && b.cols[1].i64[i] == 2 &&
                     b.cols[3].i64[i] == first_row[f] + n &&
                     comb_vec_is_null(&b.cols[5], i) &&
                     comb_vec_is_null(&b.cols[5].children[1], i);
        comb_batch_free(&b);
        orc_reader_close(r);
        CHECK_OK(rc, &err);
        CHECK(ok);
        CHECK_EQ(n, 1000);
    }
}

TEST(orc_acid5k_snappy)
{
    if (unit_skip_without_testdata())
        return;
    CombErr err;
    OrcReader *r;
    CombBatch b;
    CHECK_OK(orc_reader_open(orc_test_path(0, "hive-acid-tables/orc_acid5k_single_file/"
                                              "acid5k.orc"), &r, &err), &err);
    CHECK_EQ(orc_reader_compression(r), ORC_COMP_SNAPPY);
    CHECK_EQ(orc_reader_n_rows(r), 5000);
    CHECK_EQ(orc_reader_batch_init(r, &b, 1024), 0);
    int64_t sum[3] = {0, 0, 0}, mn = INT64_MAX, mx = INT64_MIN, n = 0;
    int64_t first[3][3];
    bool ids = true;
    int rc;
    while ((rc = orc_reader_next(r, &b, &err)) == 0 && b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++, n++) {
            ids = ids && b.cols[1].i64[i] == 12 && b.cols[3].i64[i] == n &&
                  b.cols[2].i64[i] == 536870912;
            for (int c = 0; c < 3; c++) {
                int64_t v = b.cols[5].children[c].i64[i];
                sum[c] += v;
                mn = v < mn ? v : mn;
                mx = v > mx ? v : mx;
                if (n < 3)
                    first[n][c] = v;
            }
        }
    comb_batch_free(&b);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK(ids);
    CHECK_EQ(n, 5000);
    CHECK_EQ(sum[0], 2494802);
    CHECK_EQ(sum[1], 2461178);
    CHECK_EQ(sum[2], 2539635);
    CHECK_EQ(mn, 0);
    CHECK_EQ(mx, 999);
    CHECK_EQ(first[0][0], 276);
    CHECK_EQ(first[0][1], 605);
    CHECK_EQ(first[0][2], 48);
    CHECK_EQ(first[2][0], 762);
    CHECK_EQ(first[2][2], 968);
}

/* demo-1x-zlib.orc: 1,920,800 rows, _col0 = row + 1, known statistics. */
static void check_demo(const char *name, int want_stripes)
{
    CombErr err;
    OrcReader *r;
    CombBatch b;
    CHECK_OK(orc_reader_open(orc_test_path(0, name), &r, &err), &err);
    CHECK_EQ(orc_reader_n_rows(r), 1920800);
    CHECK_EQ(orc_reader_n_stripes(r), want_stripes);
    OrcColumnStats st;
    CHECK_OK(orc_reader_column_stats(r, 6, &st), &err);
    CHECK(st.has_string && str_is(st.str_min, "Good") &&
          str_is(st.str_max, "Unknown"));
    CHECK_OK(orc_reader_column_stats(r, 7, &st), &err);
    CHECK(st.has_int && st.int_min == 0 && st.int_max == 6);
    CHECK_EQ(st.int_sum, 5762400);
    if (want_stripes > 1) {
        CHECK_OK(orc_reader_stripe_stats(r, want_stripes - 1, 7, &st, &err),
                 &err);
        CHECK_EQ(st.int_sum, 4800);
    }
    CHECK_EQ(orc_reader_batch_init(r, &b, 1024), 0);
    int64_t n = 0, sum7 = 0;
    bool ok = true;
    int rc;
    while (ok && (rc = orc_reader_next(r, &b, &err)) == 0 && b.n_rows > 0)
        for (int i = 0; i < b.n_rows; i++, n++) {
            ok = ok && b.cols[0].i64[i] == n + 1 && !b.cols[0].has_nulls &&
                 b.cols[5].str[i].len > 0;
            sum7 += b.cols[6].i64[i];
        }
    comb_batch_free(&b);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    CHECK(ok);
    CHECK_EQ(n, 1920800);
    CHECK_EQ(sum7, 5762400);
}

TEST(orc_demo_files)
{
    if (unit_skip_without_testdata())
        return;
    check_demo("orc/demo-11-zlib.orc", 385);
    if (unit_failed_now())
        return;
    check_demo("orc/demo-12-zlib.orc", 1);
}

/* Count the RLE v2 sub-encodings of one decoded stream. */
static int count_stream_forms(const OrcStreamBuf *sb, const char *path,
                              int col, bool is_signed, long forms[4],
                              CombErr *err)
{
    OrcIntDec *d = malloc(sizeof *d);
    int64_t tmp[ORC_RLE2_MAX];
    OrcIn in;
    int rc = COMB_OK;
    orc_in_init(&in, sb->p, sb->len, path, col, "DATA");
    orc_int_dec_init(d, &in, is_signed, true);
    while (!rc && d->in.pos < d->in.len) {
        forms[d->in.p[d->in.pos] >> 6]++;
        rc = orc_int_dec_next(d, tmp, 1, err);
        if (!rc)
            rc = orc_int_dec_next(d, tmp, d->n - d->pos, err);
    }
    free(d);
    return rc;
}

/* Every RLE v2 integer DATA stream and string LENGTH stream of a file
 * decodes; forms[] counts the runs of each sub-encoding. */
static int count_forms(const char *path, long forms[4], CombErr *err)
{
    OrcReader *r;
    OrcStreamBuf sb;
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    memset(&sb, 0, sizeof sb);
    for (int s = 0; s < orc_reader_n_stripes(r) && !rc; s++) {
        Orc__Proto__StripeFooter *sf;
        OrcStripeInfo si;
        orc_reader_stripe_info(r, s, &si);
        if ((rc = orc_reader_stripe_footer(r, s, &sf, err)))
            break;
        uint64_t off = si.offset;
        for (size_t i = 0; i < sf->n_streams && !rc; i++) {
            const Orc__Proto__Stream *st = sf->streams[i];
            const CombType *t = comb_type_find(orc_reader_schema(r),
                                             (int)st->column);
            CombTypeKind k = t ? t->kind : COMB_T_NULL;
            bool ints = comb_type_is_int(k) && k != COMB_T_BOOLEAN &&
                        k != COMB_T_TINYINT &&
                        st->kind == ORC__PROTO__STREAM__KIND__DATA;
            bool lens = comb_type_is_str(k) &&
                        st->kind == ORC__PROTO__STREAM__KIND__LENGTH;
            bool v2 = sf->columns[st->column]->kind ==
                          ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2 ||
                      sf->columns[st->column]->kind ==
                          ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
            if ((ints || lens) && v2 &&
                !(rc = orc_reader_read_section(r, off, st->length, &sb,
                                               "stream", err)))
                rc = count_stream_forms(&sb, path, (int)st->column, ints,
                                        forms, err);
            off += st->length;
        }
        orc_stripe_footer_free(sf);
    }
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    orc_reader_close(r);
    return rc;
}

TEST(orc_real_files_rle2_streams_decode)
{
    if (unit_skip_without_testdata())
        return;
    static const char *const files[] = {
        "orc/TestOrcFile.columnProjection.orc", "orc/TestOrcFile.testSeek.orc",
        "orc/TestVectorOrcFile.testLz4.orc", "orc/orc_split_elim_new.orc",
        "orc/TestOrcFile.testStripeLevelStats.orc", "orc/over1k_bloom.orc",
        "orc/TestStringDictionary.testRowIndex.orc", "orc/demo-12-zlib.orc"};
    long forms[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        CombErr err;
        CHECK_OK(count_forms(orc_test_path(0, files[i]), forms, &err), &err);
    }
    CHECK(forms[0] > 0 && forms[1] > 0 && forms[3] > 0);
}

/* The one PATCHED_BASE run among the conformance files is in the nanosecond
 * (SECONDARY) stream of testUnionAndTimestamp's timestamp column: decode
 * the stream and compare with the fractions of the expected dump. */
static long nanos_of(uint64_t v)
{
    long n = (long)(v >> 3);
    for (int z = (int)(v & 7); z > 0; z--)
        n *= z == (int)(v & 7) ? 100 : 10;  /* z codes z+1 trailing zeros */
    return n;
}

static long expected_nanos(const char *line)
{
    const char *p = strstr(line, "\"time\": \"");
    if (!p)
        return -1;  /* null */
    p = strchr(p + 9, '.') + 1;
    long n = 0;
    int digits = 0;
    for (; *p >= '0' && *p <= '9'; p++, digits++)
        n = n * 10 + (*p - '0');
    for (; digits < 9; digits++)
        n *= 10;
    return n;
}

TEST(orc_real_patched_base_run)
{
    if (unit_skip_without_testdata())
        return;
    const char *path = orc_test_path(0, "orc/TestOrcFile.testUnionAndTimestamp.orc");
    CombErr err;
    OrcReader *r;
    Orc__Proto__StripeFooter *sf;
    OrcStripeInfo si;
    OrcStreamBuf sb;
    memset(&sb, 0, sizeof sb);
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    orc_reader_stripe_info(r, 0, &si);
    CHECK_OK(orc_reader_stripe_footer(r, 0, &sf, &err), &err);
    uint64_t off = si.offset;
    int rc = COMB_ENOTFOUND;
    for (size_t i = 0; i < sf->n_streams; i++) {
        if (sf->streams[i]->column == 1 &&
            sf->streams[i]->kind == ORC__PROTO__STREAM__KIND__SECONDARY)
            rc = orc_reader_read_section(r, off, sf->streams[i]->length, &sb,
                                         "nanos", &err);
        off += sf->streams[i]->length;
    }
    orc_stripe_footer_free(sf);
    orc_reader_close(r);
    CHECK_OK(rc, &err);
    long forms[4] = {0, 0, 0, 0};
    rc = count_stream_forms(&sb, path, 1, false, forms, &err);
    CHECK_OK(rc, &err);
    CHECK(forms[2] > 0);

    gzFile gz = gzopen(orc_test_path(1, "orc/expected/"
                                        "TestOrcFile.testUnionAndTimestamp.jsn.gz"),
                       "rb");
    OrcIntDec *d = malloc(sizeof *d);
    OrcIn in;
    char line[4096];
    long compared = 0;
    bool same = true;
    orc_in_init(&in, sb.p, sb.len, path, 1, "SECONDARY");
    orc_int_dec_init(d, &in, false, true);
    for (uint64_t row = 0; row < si.n_rows && gzgets(gz, line, sizeof line);
         row++) {
        long want = expected_nanos(line);
        int64_t v;
        if (want < 0)
            continue;
        if (orc_int_dec_next(d, &v, 1, &err)) {
            same = false;
            break;
        }
        if (nanos_of((uint64_t)v) != want) {
            printf("    row %llu: nanos %ld want %ld\n", (unsigned long long)row,
                   nanos_of((uint64_t)v), want);
            same = false;
            break;
        }
        compared++;
    }
    gzclose(gz);
    free(d);
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    CHECK(same);
    CHECK(compared > 50);  /* the stripe's 71 non-null timestamps */
}
