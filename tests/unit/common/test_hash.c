/* Hive bucketing hash values from hive-acid-storage.md 7.3. */
#include "unit.h"
#include "common/hash.h"

TEST(hash_string_v2)
{
    CHECK_EQ(comb_hive_hash_string("Trino rocks", 11), -399107423);
    CHECK_EQ(comb_hive_bucket(comb_hive_hash_string("Trino rocks", 11), 4), 1);
    CHECK_EQ(comb_hive_hash_string("", 0), -965378730);
}

TEST(hash_ints_v2)
{
    CHECK_EQ(comb_hive_hash_int(300000), -678663480);
    CHECK_EQ(comb_hive_hash_int(INT32_MIN), 1194881028);
    CHECK_EQ(comb_hive_hash_smallint(300), 2107031704);
    CHECK_EQ(comb_hive_hash_smallint(-32768), 1342976838);
    CHECK_EQ(comb_hive_hash_bigint(300000000000LL), -888935297);
    CHECK_EQ(comb_hive_hash_int(0), 1362653161);
    CHECK_EQ(comb_hive_hash_int(1), 1321152925);
    CHECK_EQ(comb_hive_bucket(comb_hive_hash_int(42), 32), 27);
}

TEST(hash_floats_v2)
{
    CHECK_EQ(comb_hive_hash_float(12.34f), -381747602);
    CHECK_EQ(comb_hive_hash_double(12.34), -2070733568);
}

TEST(hash_two_columns)
{
    int32_t h = 0;
    h = comb_hive_hash_combine(h, comb_hive_hash_int(1));
    h = comb_hive_hash_combine(h, comb_hive_hash_int(2));
    CHECK_EQ(h, 2051117767);
    CHECK_EQ(comb_hive_bucket(h, 4), 3);
}

/* Version 1 (Java hashCode) values of hive-acid-storage.md 7.3; int,
 * smallint and date hash to the value itself and have no function. */
TEST(hash_v1_worked_values)
{
    CHECK_EQ(comb_hive_hash_v1_string("Trino rocks", 11), 1132136730);
    CHECK_EQ(comb_hive_bucket(comb_hive_hash_v1_string("Trino rocks", 11), 4), 2);
    CHECK_EQ(comb_hive_hash_v1_string("", 0), 0);
    CHECK_EQ(comb_hive_hash_v1_bigint(300000000000LL), -647710651);
    CHECK_EQ(comb_hive_hash_v1_float(12.34f), 1095069860);
    CHECK_EQ(comb_hive_hash_v1_double(12.34), 986311098);
}

TEST(hash_v1_java_semantics)
{
    /* Long.hashCode folds the halves: -1 -> 0, 2^32 -> 1 */
    CHECK_EQ(comb_hive_hash_v1_bigint(-1), 0);
    CHECK_EQ(comb_hive_hash_v1_bigint(1LL << 32), 1);
    CHECK_EQ(comb_hive_hash_v1_bigint(INT64_MIN), INT32_MIN);
    /* floatToIntBits / doubleToLongBits: -0 keeps its sign bit, every NaN
     * is the canonical one */
    CHECK_EQ(comb_hive_hash_v1_float(-0.0f), INT32_MIN);
    CHECK_EQ(comb_hive_hash_v1_float(-__builtin_nanf("5")), 0x7fc00000);
    CHECK_EQ(comb_hive_hash_v1_double(-__builtin_nan("7")), 0x7ff80000);
    CHECK_EQ(comb_hive_hash_v1_double(1.0), 0x3ff00000);
    /* bytes >= 0x80 are negative Java bytes: "é" = c3 a9 = -61, -87 */
    CHECK_EQ(comb_hive_hash_v1_string("\xc3\xa9", 2), -61 * 31 - 87);
    /* Text.hashCode starts from 1 */
    CHECK_EQ(comb_hive_hash_v1_text("", 0), 1);
    CHECK_EQ(comb_hive_hash_v1_text("\xc3\xa9", 2), (31 - 61) * 31 - 87);
    /* int32 wraparound: 31^7 * 'a' overflows */
    CHECK_EQ(comb_hive_hash_v1_string("aaaaaaaaaa", 10), -799347552);
}

/* Decimals hash their normalized value: 1.50 is 1.5, i.e. BigInteger 15
 * (one byte 0x0f) at scale 1; BigDecimal("1.5").hashCode() = 31*15 + 1. */
TEST(hash_decimal)
{
    static const unsigned char fifteen[1] = {0x0f}, minus_one[1] = {0xff};
    CHECK_EQ(comb_hive_hash_decimal(150, 2), comb_hive_murmur3(fifteen, 1));
    CHECK_EQ(comb_hive_hash_decimal(15, 1), comb_hive_murmur3(fifteen, 1));
    CHECK_EQ(comb_hive_hash_decimal(-1000, 3), comb_hive_murmur3(minus_one, 1));
    CHECK_EQ(comb_hive_hash_v1_decimal(150, 2), 466);
    CHECK_EQ(comb_hive_hash_v1_decimal(-15, 1), -464);
    CHECK_EQ(comb_hive_hash_v1_decimal(0, 5), 0);
    /* 2^32 = BigInteger words {1, 0}: 31 * 1 + 0, scale 0 */
    CHECK_EQ(comb_hive_hash_v1_decimal((comb_i128)1 << 32, 0), 31 * 31);
}

/* TimestampWritable bytes: 1.1 s = 80 00 00 01, VLong 1 (reversed
 * nanos); 5 s exactly = 00 00 00 05; hashCode (s << 30 | nanos) folded. */
TEST(hash_timestamp)
{
    static const unsigned char a[5] = {0x80, 0, 0, 1, 1}, b[4] = {0, 0, 0, 5};
    CHECK_EQ(comb_hive_hash_timestamp(1, 100000000), comb_hive_murmur3(a, 5));
    CHECK_EQ(comb_hive_hash_timestamp(5, 0), comb_hive_murmur3(b, 4));
    CHECK_EQ(comb_hive_hash_v1_timestamp(5, 0), 0x40000001);
    CHECK_EQ(comb_hive_hash_v1_timestamp(4, 7), 1 ^ 7);
}
