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
