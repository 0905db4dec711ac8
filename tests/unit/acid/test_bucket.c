/* Bucket property codec (hive-acid-storage.md §2), bucketing versions 2
 * and 1 (§7.3 worked values) and the bucketing_version property. */
#include "unit.h"

#include <limits.h>

#include "acid/acid.h"
#include "common/batch.h"

#define V1 ACID_BUCKETING_V1
#define V2 ACID_BUCKETING_V2

TEST(bucket_codec_examples)
{
    CombErr err;
    int32_t prop;
    int bucket, stmt;
    CHECK_OK(acid_bucket_encode(1, 0, &prop, &err), &err);
    CHECK_EQ(prop, 536936448);
    CHECK_OK(acid_bucket_encode(0, 0, &prop, &err), &err);
    CHECK_EQ(prop, 536870912);
    CHECK_OK(acid_bucket_encode(2, 0, &prop, &err), &err);
    CHECK_EQ(prop, 537001984);
    CHECK_OK(acid_bucket_encode(3, 1, &prop, &err), &err);
    CHECK_EQ(prop, 537067521);
    CHECK_OK(acid_bucket_encode(5, -1, &prop, &err), &err); /* stmt < 0 -> 0 */
    CHECK_EQ(prop, 536870912 | 5 << 16);
    CHECK_OK(acid_bucket_encode(4095, 4095, &prop, &err), &err);
    CHECK_EQ(prop, 0x2FFF0FFF);

    CHECK_OK(acid_bucket_decode(536936448, &bucket, &stmt, &err), &err);
    CHECK_EQ(bucket, 1);
    CHECK_EQ(stmt, 0);
    CHECK_OK(acid_bucket_decode(537067521, &bucket, &stmt, &err), &err);
    CHECK_EQ(bucket, 3);
    CHECK_EQ(stmt, 1);
    CHECK_OK(acid_bucket_decode(0x2FFF0FFF, &bucket, &stmt, &err), &err);
    CHECK_EQ(bucket, 4095);
    CHECK_EQ(stmt, 4095);
    /* V0: the value is the bucket */
    CHECK_OK(acid_bucket_decode(7, &bucket, &stmt, &err), &err);
    CHECK_EQ(bucket, 7);
    CHECK_EQ(stmt, 0);
}

TEST(bucket_codec_errors)
{
    CombErr err;
    int32_t prop = 0;
    int bucket, stmt;
    CHECK_EQ(acid_bucket_encode(4096, 0, &prop, &err), COMB_EINVALID);
    CHECK_EQ(acid_bucket_encode(-1, 0, &prop, &err), COMB_EINVALID);
    CHECK_EQ(acid_bucket_encode(0, 4096, &prop, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "4096") != NULL);
    /* versions 2..7 are unknown */
    CHECK_EQ(acid_bucket_decode(0x40000000, &bucket, &stmt, &err),
             COMB_ECORRUPT);
    CHECK_EQ(acid_bucket_decode(-1, &bucket, &stmt, &err), COMB_ECORRUPT);
    CHECK_EQ(acid_bucket_decode(INT32_MIN, &bucket, &stmt, &err),
             COMB_ECORRUPT);
}

/* A one-row batch of the given kinds for bucketing checks. */
static int one_row(CombBatch *b, int n, const CombTypeKind *kinds)
{
    return comb_batch_init(b, n, kinds, 4);
}

/* (hash & 0x7FFFFFFF) % INT_MAX shows the masked hash itself. */
static int masked(int32_t h)
{
    return (int)((uint32_t)h & 0x7FFFFFFFu);
}

TEST(bucket_of_row_int_values)
{
    CombBatch b;
    CombTypeKind k[1] = {COMB_T_INT};
    int col = 0;
    static const int n_buckets[5] = {2, 4, 8, 16, 32};
    static const int want[5] = {1, 3, 3, 11, 27};
    CHECK(one_row(&b, 1, k) == COMB_OK);
    b.cols[0].i64[0] = 42;
    b.n_rows = 1;
    for (int i = 0; i < 5; i++)
        CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, n_buckets[i], V2), want[i]);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V2), masked(1960085659));
    b.cols[0].i64[0] = 1;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, 2, V2), 1);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, 32, V2), 29);
    b.cols[0].i64[0] = 0;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V2), masked(1362653161));
    b.cols[0].i64[0] = 300000;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V2), masked(-678663480));
    b.cols[0].i64[0] = INT32_MIN;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V2), masked(1194881028));
    /* NULL contributes 0 */
    comb_vec_set_null(&b.cols[0], 0);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, 7, V2), 0);
    comb_batch_free(&b);
}

TEST(bucket_of_row_two_columns)
{
    CombBatch b;
    CombTypeKind k[3] = {COMB_T_STRING, COMB_T_INT, COMB_T_INT};
    int cols[2] = {1, 2};
    CHECK(one_row(&b, 3, k) == COMB_OK);
    b.cols[1].i64[0] = 1;
    b.cols[2].i64[0] = 2;
    CHECK_EQ(acid_bucket_of_row(&b, 0, cols, 2, 4, V2), 3);
    CHECK_EQ(acid_bucket_of_row(&b, 0, cols, 2, INT_MAX, V2), masked(2051117767));
    comb_batch_free(&b);
}

TEST(bucket_of_row_other_kinds)
{
    CombBatch b;
    CombTypeKind k[9] = {COMB_T_STRING,   COMB_T_VARCHAR, COMB_T_CHAR,
                         COMB_T_SMALLINT, COMB_T_BIGINT,  COMB_T_FLOAT,
                         COMB_T_DOUBLE,   COMB_T_DATE,    COMB_T_STRING};
    int c;
    CHECK(one_row(&b, 9, k) == COMB_OK);
    b.cols[0].str[0] = (CombStr){"Trino rocks", 11};
    b.cols[1].str[0] = (CombStr){"Trino rocks", 11};
    b.cols[2].str[0] = (CombStr){"Trino rocks   ", 14}; /* char pad */
    b.cols[3].i64[0] = -32768;
    b.cols[4].i64[0] = 300000000000LL;
    b.cols[5].f64[0] = (double)12.34f;
    b.cols[6].f64[0] = 12.34;
    b.cols[7].i64[0] = 16758;
    b.cols[8].str[0] = (CombStr){"", 0};
    for (c = 0; c < 3; c++) {
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 4, V2), 1);
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2),
                 masked(-399107423));
    }
    c = 3;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2), masked(1342976838));
    c = 4;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2), masked(-888935297));
    c = 5;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2), masked(-381747602));
    c = 6;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2), masked(-2070733568));
    c = 7;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2), masked(8542395));
    c = 8;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2), masked(-965378730));
    comb_batch_free(&b);
}

TEST(bucket_of_row_boolean_tinyint)
{
    CombBatch b;
    CombTypeKind k[2] = {COMB_T_BOOLEAN, COMB_T_TINYINT};
    int c = 0;
    CHECK(one_row(&b, 2, k) == COMB_OK);
    b.cols[0].i64[0] = 1;
    b.cols[1].i64[0] = -5;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 8, V2), 1); /* true hashes to 1 */
    c = 1;
    /* tinyint is its own hash: (-5 & 0x7fffffff) % 10 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 10, V2), masked(-5) % 10);
    CHECK(acid_bucket_kind_supported(COMB_T_DATE));
    CHECK(acid_bucket_kind_supported(COMB_T_TIMESTAMP));
    CHECK(!acid_bucket_kind_supported(COMB_T_NULL));
    comb_batch_free(&b);
}

/* §7.3's version 1 column, each value alone in a row of its kind. */
TEST(bucket_of_row_v1_values)
{
    CombBatch b;
    CombTypeKind k[8] = {COMB_T_STRING, COMB_T_INT,    COMB_T_SMALLINT,
                         COMB_T_BIGINT, COMB_T_FLOAT,  COMB_T_DOUBLE,
                         COMB_T_DATE,   COMB_T_STRING};
    static const int32_t want[8] = {1132136730, 300000,    300,
                                    -647710651, 1095069860, 986311098,
                                    16758,      0};
    CHECK(one_row(&b, 8, k) == COMB_OK);
    b.cols[0].str[0] = (CombStr){"Trino rocks", 11};
    b.cols[1].i64[0] = 300000;
    b.cols[2].i64[0] = 300;
    b.cols[3].i64[0] = 300000000000LL;
    b.cols[4].f64[0] = (double)12.34f;
    b.cols[5].f64[0] = 12.34;
    b.cols[6].i64[0] = 16758;
    b.cols[7].str[0] = (CombStr){"", 0};
    for (int c = 0; c < 8; c++)
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1),
                 masked(want[c]));
    /* the example: bucket 2 of 4 under version 1, 1 under 2 */
    int c = 0;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 4, V1), 2);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 4, V2), 1);
    b.cols[1].i64[0] = INT32_MIN;
    b.cols[2].i64[0] = -32768;
    c = 1;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 1000, V1), 0); /* masked to 0 */
    c = 2;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), masked(-32768));
    comb_batch_free(&b);
}

/* Version 1 hashes string from 0 but varchar and char as Hadoop's Text
 * (from 1), char without its pad; bytes >= 0x80 count as negative. */
TEST(bucket_of_row_v1_strings)
{
    CombBatch b;
    CombTypeKind k[3] = {COMB_T_STRING, COMB_T_VARCHAR, COMB_T_CHAR};
    int c;
    CHECK(one_row(&b, 3, k) == COMB_OK);
    b.cols[0].str[0] = (CombStr){"ab", 2};
    b.cols[1].str[0] = (CombStr){"ab", 2};
    b.cols[2].str[0] = (CombStr){"ab  ", 4};
    c = 0; /* 97*31 + 98 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), 3105);
    c = 1; /* (31 + 97)*31 + 98 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), 4066);
    c = 2;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), 4066);
    b.cols[0].str[0] = (CombStr){"\xc3\xa9", 2}; /* é: -61, -87 */
    c = 0;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1),
             masked(-61 * 31 - 87));
    comb_batch_free(&b);
}

/* Java's Long.hashCode, floatToIntBits / doubleToLongBits with canonical
 * NaN, boolean, tinyint, NULL and two columns under version 1. */
TEST(bucket_of_row_v1_numbers)
{
    CombBatch b;
    CombTypeKind k[6] = {COMB_T_BIGINT,  COMB_T_FLOAT,   COMB_T_DOUBLE,
                         COMB_T_BOOLEAN, COMB_T_TINYINT, COMB_T_INT};
    int c, cols[2] = {4, 5};
    CHECK(one_row(&b, 6, k) == COMB_OK);
    b.cols[0].i64[0] = -1; /* 0xffffffff ^ 0xffffffff */
    b.cols[1].f64[0] = -0.0;
    uint64_t nan_bits = 0xfff0000000000123ull; /* a non-canonical NaN */
    memcpy(&b.cols[2].f64[0], &nan_bits, 8);
    b.cols[3].i64[0] = 1;
    b.cols[4].i64[0] = -5;
    b.cols[5].i64[0] = 7;
    c = 0;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), 0);
    c = 1; /* 0x80000000 masks to 0 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), 0);
    c = 2; /* 0x7ff80000 ^ 0 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1), 0x7ff80000);
    c = 3;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 8, V1), 1);
    /* 31 * -5 + 7 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, cols, 2, INT_MAX, V1), masked(-148));
    comb_vec_set_null(&b.cols[4], 0);
    CHECK_EQ(acid_bucket_of_row(&b, 0, cols, 2, INT_MAX, V1), 7);
    comb_batch_free(&b);
}

TEST(bucketing_version_property)
{
    CombErr err;
    int v = 0;
    CHECK_OK(acid_bucketing_version_parse(NULL, &v, &err), &err);
    CHECK_EQ(v, V1); /* absent: a table from before Hive 3 */
    CHECK_OK(acid_bucketing_version_parse("1", &v, &err), &err);
    CHECK_EQ(v, V1);
    CHECK_OK(acid_bucketing_version_parse("2", &v, &err), &err);
    CHECK_EQ(v, V2);
    static const char *const bad[] = {"3", "0", "", " 2", "2 ", "02", "+1",
                                      "two", "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(acid_bucketing_version_parse(bad[i], &v, &err),
                 COMB_EUNSUPPORTED);
        CHECK(strstr(err.msg, "Unsupported bucketing version") != NULL);
    }
    CHECK(strstr(err.msg, "'-1'") != NULL);
}
