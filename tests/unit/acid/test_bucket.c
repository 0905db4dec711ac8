/* Bucket property codec (hive-acid-storage.md §2) and bucketing version 2
 * (§7.3 worked values). */
#include "unit.h"

#include <limits.h>

#include "acid/acid.h"
#include "common/batch.h"

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
        CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, n_buckets[i]), want[i]);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX), masked(1960085659));
    b.cols[0].i64[0] = 1;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, 2), 1);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, 32), 29);
    b.cols[0].i64[0] = 0;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX), masked(1362653161));
    b.cols[0].i64[0] = 300000;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX), masked(-678663480));
    b.cols[0].i64[0] = INT32_MIN;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX), masked(1194881028));
    /* NULL contributes 0 */
    comb_vec_set_null(&b.cols[0], 0);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, 7), 0);
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
    CHECK_EQ(acid_bucket_of_row(&b, 0, cols, 2, 4), 3);
    CHECK_EQ(acid_bucket_of_row(&b, 0, cols, 2, INT_MAX), masked(2051117767));
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
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 4), 1);
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX),
                 masked(-399107423));
    }
    c = 3;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX), masked(1342976838));
    c = 4;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX), masked(-888935297));
    c = 5;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX), masked(-381747602));
    c = 6;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX), masked(-2070733568));
    c = 7;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX), masked(8542395));
    c = 8;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX), masked(-965378730));
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
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 8), 1); /* true hashes to 1 */
    c = 1;
    /* tinyint is its own hash: (-5 & 0x7fffffff) % 10 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, 10), masked(-5) % 10);
    CHECK(acid_bucket_kind_supported(COMB_T_DATE));
    CHECK(!acid_bucket_kind_supported(COMB_T_TIMESTAMP));
    comb_batch_free(&b);
}
