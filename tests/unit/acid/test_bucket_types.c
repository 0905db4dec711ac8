/* Bucketing of every column type through tree vectors (hive-acid-storage.md
 * §7): the worked values of §7.3 for arrays, maps and a three-column row,
 * then decimals, timestamps, dates, binaries, structs, unions and nested
 * parts against a reference written here from Hive's sources
 * (ObjectInspectorUtils.hashCode/hashCodeMurmur, TimestampWritable's
 * serialization, HiveDecimalWritable.getInternalStorage, BigDecimal and
 * BigInteger.hashCode); the reference shares no code with common/hash.c or
 * acid/bucket.c. */
#include "unit.h"

#include <limits.h>
#include <stdlib.h>

#include "acid/acid.h"
#include "acid_test_util.h"
#include "common/batch.h"

#define V1 ACID_BUCKETING_V1
#define V2 ACID_BUCKETING_V2

/* ------------------------------------------------------------ reference */

/* Murmur3 x86_32 as Hive's Java runs it, one byte at a time: blocks of 4
 * little-endian bytes, the 1-3 byte tail as signed Java bytes. */
static int32_t ref_murmur(const unsigned char *p, int len)
{
    uint32_t h = 104729u, k = 0;
    int i;
    for (i = 0; i + 4 <= len; i += 4) {
        k = 0;
        for (int j = 3; j >= 0; j--)
            k = k << 8 | p[i + j];
        k *= 0xcc9e2d51u;
        k = (k << 15) | (k >> 17);
        k *= 0x1b873593u;
        h ^= k;
        h = ((h << 13) | (h >> 19)) * 5u + 0xe6546b64u;
    }
    if (i < len) {
        k = 0;
        for (int j = len - 1; j >= i; j--)
            k ^= (uint32_t)(int)(signed char)p[j] << (8 * (j - i));
        k *= 0xcc9e2d51u;
        k = (k << 15) | (k >> 17);
        k *= 0x1b873593u;
        h ^= k;
    }
    h ^= (uint32_t)len;
    h = (h ^ (h >> 16)) * 0x85ebca6bu;
    h = (h ^ (h >> 13)) * 0xc2b2ae35u;
    return (int32_t)(h ^ (h >> 16));
}

/* HiveDecimal normalizes: no trailing fraction zeros. */
static comb_i128 ref_trim(comb_i128 u, int *scale)
{
    for (; *scale > 0 && u % 10 == 0; (*scale)--)
        u /= 10;
    return u;
}

/* BigInteger.toByteArray: the fewest big-endian two's-complement bytes
 * whose top bit is the sign. */
static int ref_bigint_bytes(comb_i128 v, unsigned char out[17])
{
    unsigned char le[17];
    int n = 0;
    do {
        le[n++] = (unsigned char)(v & 0xff);
        v = v < 0 ? ~(~v >> 8) : v >> 8;
    } while (!((v == 0 && !(le[n - 1] & 0x80)) ||
               (v == -1 && (le[n - 1] & 0x80))));
    for (int i = 0; i < n; i++)
        out[i] = le[n - 1 - i];
    return n;
}

static int32_t ref_decimal_v2(comb_i128 u, int scale)
{
    unsigned char b[17];
    int n = ref_bigint_bytes(ref_trim(u, &scale), b);
    return ref_murmur(b, n);
}

/* BigDecimal.hashCode = 31 * BigInteger.hashCode + scale; BigInteger's is
 * 31*h + word over the magnitude's int words, times the sign. */
static int32_t ref_decimal_v1(comb_i128 u, int scale)
{
    u = ref_trim(u, &scale);
    int sign = u < 0 ? -1 : u > 0;
    unsigned __int128 mag = u < 0 ? (unsigned __int128)(-(u + 1)) + 1
                                  : (unsigned __int128)u;
    uint32_t words[4];
    int n = 0;
    for (; mag; mag >>= 32)
        words[n++] = (uint32_t)mag;
    uint32_t h = 0;
    while (n > 0)
        h = 31u * h + words[--n];
    return (int32_t)(31u * (uint32_t)(sign * (int32_t)h) + (uint32_t)scale);
}

/* Hadoop WritableUtils.writeVLong. */
static int ref_vlong(unsigned char *out, int64_t i)
{
    if (i >= -112 && i <= 127) {
        out[0] = (unsigned char)i;
        return 1;
    }
    int len = -112;
    if (i < 0) {
        i ^= -1LL;
        len = -120;
    }
    for (int64_t tmp = i; tmp != 0; tmp >>= 8)
        len--;
    out[0] = (unsigned char)len;
    len = len < -120 ? -(len + 120) : -(len + 112);
    for (int idx = len; idx != 0; idx--)
        out[1 + len - idx] = (unsigned char)(i >> ((idx - 1) * 8));
    return 1 + len;
}

/* TimestampWritable.convertTimestampToBytes. */
static int32_t ref_timestamp_v2(int64_t seconds, int32_t nanos)
{
    unsigned char b[32];
    int n = 4, decimal = 0;
    bool second = seconds < 0 || seconds > INT_MAX;
    if (nanos != 0)
        for (int counter = 0, v = nanos; counter < 9; counter++, v /= 10)
            decimal = decimal * 10 + v % 10;
    if (second || decimal != 0)
        n += ref_vlong(b + 4, second ? -decimal - 1 : decimal);
    uint32_t first = (uint32_t)seconds;
    first = decimal != 0 || second ? first | 0x80000000u : first & 0x7fffffffu;
    for (int i = 0; i < 4; i++)
        b[i] = (unsigned char)(first >> (24 - 8 * i));
    if (second)
        n += ref_vlong(b + n, seconds >> 31);
    return ref_murmur(b, n);
}

static int32_t ref_timestamp_v1(int64_t seconds, int32_t nanos)
{
    int64_t s = (int64_t)((uint64_t)seconds << 30) | nanos;
    return (int32_t)(((uint64_t)s >> 32) ^ (uint64_t)s);
}

static int32_t ref_int_v2(int32_t v)
{
    unsigned char b[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 8), (unsigned char)v};
    return ref_murmur(b, 4);
}

static int32_t ref_bytes_v1(const char *p, int n)
{
    uint32_t h = 1;
    for (int i = 0; i < n; i++)
        h = 31u * h + (uint32_t)(int)(signed char)p[i];
    return (int32_t)h;
}

static int32_t combine(int32_t r, int32_t h)
{
    return (int32_t)(31u * (uint32_t)r + (uint32_t)h);
}

static int bucket_of(int32_t h, int n)
{
    return (int)((uint32_t)h & 0x7fffffffu) % n;
}

/* --------------------------------------------------------------- tests */

static const CombType *type_of(const char *text)
{
    const CombType *t = acid_test_type(text);
    if (!t)
        printf("    bad type %s\n", text);
    return t;
}

/* §7.3: array<smallint> [5,8,13] and map<string,bigint>, alone and in the
 * three-column row (float 12.34, [5,8,13], {key:123}). */
TEST(bucket_types_worked_values)
{
    const CombType *types[3] = {type_of("float"), type_of("array<smallint>"),
                                type_of("map<string,bigint>")};
    CombBatch b;
    int col = 1, all[3] = {0, 1, 2};
    CHECK(types[0] && types[1] && types[2]);
    CHECK_EQ(comb_batch_init_types(&b, 3, types, 4), 0);
    b.cols[0].f64[0] = (double)12.34f;
    CombVector *arr = &b.cols[1], *map = &b.cols[2];
    arr->off[0] = 0;
    arr->len[0] = 3;
    arr->children[0].i64[0] = 5;
    arr->children[0].i64[1] = 8;
    arr->children[0].i64[2] = 13;
    static const char *const keys[3] = {"key", "key2", "key3"};
    static const int64_t vals[3] = {123, 123456789, -123456};
    map->off[0] = 0;
    map->len[0] = 3;
    for (int i = 0; i < 3; i++) {
        map->children[0].str[i] = (CombStr){keys[i], (uint32_t)strlen(keys[i])};
        map->children[1].i64[i] = vals[i];
    }
    b.n_rows = 1;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V1), 5066);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V2),
             bucket_of(-905011156, INT_MAX));
    col = 2;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V1), 127880789);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &col, 1, INT_MAX, V2),
             bucket_of(-1910999650, INT_MAX));
    map->len[0] = 1;  /* {key:123} */
    CHECK_EQ(acid_bucket_of_row(&b, 0, all, 3, INT_MAX, V1), 95411006);
    CHECK_EQ(acid_bucket_of_row(&b, 0, all, 3, INT_MAX, V2), 932898434);
    comb_batch_free(&b);
}

/* Decimals: trailing zeros do not count (1.50 at scale 2 is 1.5), the
 * bytes are BigInteger's; checked at hand-made points and many values. */
TEST(bucket_types_decimal)
{
    const CombType *t2 = type_of("decimal(38,2)"), *t10 = type_of("decimal(38,10)");
    const CombType *types[2] = {t2, t10};
    CombBatch b;
    int c0 = 0, c1 = 1;
    CHECK_EQ(comb_batch_init_types(&b, 2, types, 4), 0);
    b.n_rows = 1;
    /* 1.50 -> 15 at scale 1 -> bytes {0x0f}; 1.5000000000 the same */
    b.cols[0].dec[0] = 150;
    b.cols[1].dec[0] = 15000000000;
    static const unsigned char fifteen[1] = {0x0f};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V2),
             bucket_of(ref_murmur(fifteen, 1), INT_MAX));
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c1, 1, INT_MAX, V2),
             acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V2));
    /* BigDecimal("1.5").hashCode() = 31 * 15 + 1 */
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V1), 466);
    /* 0 is BigInteger.ZERO: one byte 0, hashCode 0 */
    b.cols[0].dec[0] = 0;
    static const unsigned char zero[1] = {0};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V2),
             bucket_of(ref_murmur(zero, 1), INT_MAX));
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V1), 0);
    /* -1.28 -> -128 at scale 2 -> {0x80}; 1.28 -> {0x00, 0x80} */
    b.cols[0].dec[0] = -128;
    static const unsigned char m128[1] = {0x80}, p128[2] = {0x00, 0x80};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V2),
             bucket_of(ref_murmur(m128, 1), INT_MAX));
    b.cols[0].dec[0] = 128;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V2),
             bucket_of(ref_murmur(p128, 2), INT_MAX));
    uint64_t seed = 12345;
    for (int i = 0; i < 3000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        comb_i128 v = (comb_i128)(int64_t)seed;
        if (i % 3 == 0)
            v *= (comb_i128)(int64_t)(seed >> 20) * 1000003;
        if (i % 5 == 0)
            v = v / 1000 * 1000;  /* trailing zeros to trim */
        if (i % 7 == 0)
            v = -v;
        b.cols[0].dec[0] = v;
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V2),
                 bucket_of(ref_decimal_v2(v, 2), INT_MAX));
        CHECK_EQ(acid_bucket_of_row(&b, 0, &c0, 1, INT_MAX, V1),
                 bucket_of(ref_decimal_v1(v, 2), INT_MAX));
    }
    comb_batch_free(&b);
}

/* Timestamps: TimestampWritable's bytes (a flag for nanos or wide
 * seconds, reversed nanos digits, the seconds' high part). */
TEST(bucket_types_timestamp)
{
    const CombType *types[1] = {type_of("timestamp")};
    CombBatch b;
    int c = 0;
    CHECK_EQ(comb_batch_init_types(&b, 1, types, 4), 0);
    b.n_rows = 1;
    /* 1 s and 0.1 s: bytes 80 00 00 01 then VLong 1 (nanos "100000000"
     * reversed over 9 digits) */
    b.cols[0].i64[0] = 1;
    b.cols[0].nanos[0] = 100000000;
    static const unsigned char one_tenth[5] = {0x80, 0, 0, 1, 1};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2),
             bucket_of(ref_murmur(one_tenth, 5), INT_MAX));
    /* before 1970: a second VLong; -1 s exactly: -0-1 = -1, then -1 >> 31 */
    b.cols[0].i64[0] = -1;
    b.cols[0].nanos[0] = 0;
    static const unsigned char minus_one[6] = {0xff, 0xff, 0xff, 0xff, 0xff,
                                               0xff};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2),
             bucket_of(ref_murmur(minus_one, 6), INT_MAX));
    int64_t secs[] = {0, 1, 86399, -86400, INT32_MAX, (int64_t)INT32_MAX + 1,
                      253402300799, -62135596800, 1420070400};
    int32_t ns[] = {0, 1, 10, 123456789, 999999999, 500000000};
    for (size_t i = 0; i < sizeof secs / sizeof secs[0]; i++)
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
            b.cols[0].i64[0] = secs[i];
            b.cols[0].nanos[0] = ns[j];
            CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V2),
                     bucket_of(ref_timestamp_v2(secs[i], ns[j]), INT_MAX));
            CHECK_EQ(acid_bucket_of_row(&b, 0, &c, 1, INT_MAX, V1),
                     bucket_of(ref_timestamp_v1(secs[i], ns[j]), INT_MAX));
        }
    comb_batch_free(&b);
}

/* Dates (§7.3: 2015-11-19 is 8542395 under version 2), binaries, and
 * structs, unions and nested arrays through their parts. */
TEST(bucket_types_compound)
{
    const CombType *types[5] = {
        type_of("date"), type_of("binary"),
        type_of("struct<a:int,b:binary,c:array<date>>"),
        type_of("uniontype<int,binary>"),
        type_of("array<map<int,binary>>")};
    CombBatch b;
    int c[5] = {0, 1, 2, 3, 4};
    CHECK_EQ(comb_batch_init_types(&b, 5, types, 4), 0);
    b.n_rows = 1;
    b.cols[0].i64[0] = 16758;
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[0], 1, INT_MAX, V2), 8542395);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[0], 1, INT_MAX, V1), 16758);
    static const char bytes[3] = {'\x01', '\x80', 'z'};
    b.cols[1].str[0] = (CombStr){bytes, 3};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[1], 1, INT_MAX, V2),
             bucket_of(ref_murmur((const unsigned char *)bytes, 3), INT_MAX));
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[1], 1, INT_MAX, V1),
             bucket_of(ref_bytes_v1(bytes, 3), INT_MAX));
    /* struct {a: 7, b: NULL, c: [16758, 0]} */
    CombVector *st = &b.cols[2];
    st->children[0].i64[0] = 7;
    comb_vec_nulls_materialize(&st->children[1], 4);
    comb_vec_set_null(&st->children[1], 0);
    st->children[2].off[0] = 0;
    st->children[2].len[0] = 2;
    st->children[2].children[0].i64[0] = 16758;
    st->children[2].children[0].i64[1] = 0;
    int32_t arr = combine(combine(0, ref_int_v2(16758)), ref_int_v2(0));
    int32_t want = combine(combine(combine(0, ref_int_v2(7)), 0), arr);
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[2], 1, INT_MAX, V2),
             bucket_of(want, INT_MAX));
    int32_t want1 = combine(combine(combine(0, 7), 0), combine(16758, 0));
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[2], 1, INT_MAX, V1),
             bucket_of(want1, INT_MAX));
    /* a union hashes its member */
    b.cols[3].tag[0] = 1;
    b.cols[3].children[1].str[0] = (CombStr){bytes, 3};
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[3], 1, INT_MAX, V2),
             acid_bucket_of_row(&b, 0, &c[1], 1, INT_MAX, V2));
    /* array<map<int,binary>> [{1: "\x01\x80z"}]: map values hash with
     * version 1 even under version 2 */
    CombVector *outer = &b.cols[4], *map = &outer->children[0];
    outer->off[0] = 0;
    outer->len[0] = 1;
    map->off[0] = 0;
    map->len[0] = 1;
    map->children[0].i64[0] = 1;
    map->children[1].str[0] = (CombStr){bytes, 3};
    int32_t entry = (int32_t)((uint32_t)ref_int_v2(1) ^
                              (uint32_t)ref_bytes_v1(bytes, 3));
    CHECK_EQ(acid_bucket_of_row(&b, 0, &c[4], 1, INT_MAX, V2),
             bucket_of(combine(0, entry), INT_MAX));
    /* columns combine as 31*h + h(col) */
    int32_t two = combine(combine(0, 8542395),
                          ref_murmur((const unsigned char *)bytes, 3));
    CHECK_EQ(acid_bucket_of_row(&b, 0, c, 2, INT_MAX, V2),
             bucket_of(two, INT_MAX));
    comb_batch_free(&b);
}
