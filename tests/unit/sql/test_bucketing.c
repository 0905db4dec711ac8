/*
 * Bucketed tables end to end, under bucketing versions 1 and 2: every row
 * INSERTed through SQL must sit in the bucket_N file, and carry the ROW__ID
 * bucket id N, that Hive's hash of its CLUSTERED BY values gives.  The
 * expected bucket comes from a reference implementation written here from
 * hive-acid-storage.md §7 (and, for char/varchar under version 1, Hive's
 * HiveBaseCharWritable/HiveCharWritable.hashCode = Hadoop Text.hashCode); it
 * shares no code with common/hash.c or acid/bucket.c and is first checked
 * against every worked value of §7.3.  The values are read back from the
 * files, so the check holds whatever conversions INSERT applied.
 */
#include "unit.h"

#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>

#include "acid/acid.h"
#include "common/arena.h"
#include "fs/fs.h"
#include "orc/orc.h"
#include "sql/session.h"

/* ------------------------------------------------- reference implementation */

typedef enum RefKind {
    R_NULL, R_BOOL, R_TINYINT, R_SMALLINT, R_INT, R_DATE, R_BIGINT, R_FLOAT,
    R_DOUBLE, R_STRING, R_VARCHAR, R_CHAR, R_ARRAY, R_MAP
} RefKind;

typedef struct RefVal {
    RefKind kind;
    int64_t i;                   /* integer kinds, boolean, date days */
    double d;                    /* double; float values exactly as floats */
    const char *s;               /* string kinds */
    size_t len;
    int n;                       /* array elements / map entries */
    const struct RefVal *items;  /* array: n; map: key, value, key, ... */
} RefVal;

/* Java int arithmetic is uint32_t arithmetic read back as int32_t. */
static int32_t j_int(uint32_t u)
{
    return (int32_t)u;
}

/* Java's Murmur3.hash32(byte[], len, seed 104729), read as Java executes
 * it: little-endian blocks, then the tail bytes as *signed* Java bytes. */
static int32_t ref_murmur3(const unsigned char *p, int len)
{
    const uint32_t c1 = 0xcc9e2d51u, c2 = 0x1b873593u;
    uint32_t h = 104729u, k;
    int full = len - len % 4;
    for (int at = 0; at < full; at += 4) {
        k = p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 |
            (uint32_t)p[at + 3] << 24;
        k *= c1;
        k = k << 15 | k >> 17;
        k *= c2;
        h ^= k;
        h = h << 13 | h >> 19;
        h = h * 5u + 0xe6546b64u;
    }
    if (len > full) {
        k = 0;
        for (int at = len - 1; at >= full; at--)
            k ^= (uint32_t)(int32_t)(signed char)p[at] << (8 * (at - full));
        k *= c1;
        k = k << 15 | k >> 17;
        k *= c2;
        h ^= k;
    }
    h ^= (uint32_t)len;
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return j_int(h);
}

/* Murmur3 of the n low bytes of v in Java ByteBuffer (big-endian) order. */
static int32_t ref_murmur_be(uint64_t v, int n)
{
    unsigned char b[8];
    for (int i = 0; i < n; i++)
        b[i] = (unsigned char)(v >> (8 * (n - 1 - i)));
    return ref_murmur3(b, n);
}

/* Float.floatToIntBits and Double.doubleToLongBits: NaN is canonical. */
static uint32_t ref_float_to_int_bits(double d)
{
    union { float f; uint32_t u; } x = {.f = (float)d};
    return x.f == x.f ? x.u : 0x7fc00000u;
}

static uint64_t ref_double_to_long_bits(double d)
{
    union { double d; uint64_t u; } x = {.d = d};
    return d == d ? x.u : 0x7ff8000000000000ull;
}

/* r = 31*r + (Java byte) over the bytes, from r = start. */
static int32_t ref_java_bytes(uint32_t start, const char *s, size_t len)
{
    uint32_t r = start;
    for (size_t i = 0; i < len; i++)
        r = 31u * r + (uint32_t)(int32_t)(signed char)s[i];
    return j_int(r);
}

static size_t ref_strip_spaces(const char *s, size_t len)
{
    while (len && s[len - 1] == ' ')
        len--;
    return len;
}

static int32_t ref_hash(int version, const RefVal *v);

/* array: r = 31*r + h(elem); map: sum of h(key) ^ h_v1(value), the key in
 * the version's hash (§7.1 map row). */
static int32_t ref_hash_nested(int version, const RefVal *v)
{
    uint32_t r = 0;
    for (int i = 0; i < v->n; i++) {
        if (v->kind == R_ARRAY)
            r = 31u * r + (uint32_t)ref_hash(version, &v->items[i]);
        else
            r += (uint32_t)ref_hash(version, &v->items[2 * i]) ^
                 (uint32_t)ref_hash(1, &v->items[2 * i + 1]);
    }
    return j_int(r);
}

static int32_t ref_hash_v1(const RefVal *v)
{
    uint64_t bits;
    switch (v->kind) {
    case R_BOOL: return v->i ? 1 : 0;
    case R_TINYINT: case R_SMALLINT: case R_INT: case R_DATE:
        return (int32_t)v->i;
    case R_BIGINT:
        bits = (uint64_t)v->i;
        return j_int((uint32_t)(bits ^ bits >> 32));
    case R_FLOAT: return j_int(ref_float_to_int_bits(v->d));
    case R_DOUBLE:
        bits = ref_double_to_long_bits(v->d);
        return j_int((uint32_t)(bits ^ bits >> 32));
    case R_STRING: return ref_java_bytes(0, v->s, v->len);
    case R_VARCHAR: return ref_java_bytes(1, v->s, v->len);
    case R_CHAR: return ref_java_bytes(1, v->s, ref_strip_spaces(v->s, v->len));
    default: return 0;
    }
}

static int32_t ref_hash_v2(const RefVal *v)
{
    float widened_f;
    double widened_d;
    uint32_t u32;
    uint64_t u64;
    switch (v->kind) {
    case R_BOOL: return v->i ? 1 : 0;
    case R_TINYINT: return (int32_t)v->i;
    case R_SMALLINT: return ref_murmur_be((uint64_t)v->i, 2);
    case R_INT: case R_DATE: return ref_murmur_be((uint64_t)v->i, 4);
    case R_BIGINT: return ref_murmur_be((uint64_t)v->i, 8);
    case R_FLOAT:
        /* ByteBuffer.putFloat(floatToIntBits(f)): the int widens to float */
        widened_f = (float)(int32_t)ref_float_to_int_bits(v->d);
        memcpy(&u32, &widened_f, 4);
        return ref_murmur_be(u32, 4);
    case R_DOUBLE:
        widened_d = (double)(int64_t)ref_double_to_long_bits(v->d);
        memcpy(&u64, &widened_d, 8);
        return ref_murmur_be(u64, 8);
    case R_STRING: case R_VARCHAR:
        return ref_murmur3((const unsigned char *)v->s, (int)v->len);
    case R_CHAR:
        return ref_murmur3((const unsigned char *)v->s,
                           (int)ref_strip_spaces(v->s, v->len));
    default: return 0;
    }
}

static int32_t ref_hash(int version, const RefVal *v)
{
    if (v->kind == R_ARRAY || v->kind == R_MAP)
        return ref_hash_nested(version, v);
    return version == 2 ? ref_hash_v2(v) : ref_hash_v1(v);
}

static int32_t ref_row_hash(int version, const RefVal *cols, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; i++)
        r = 31u * r + (uint32_t)ref_hash(version, &cols[i]);
    return j_int(r);
}

static int ref_bucket(int32_t hash, int n_buckets)
{
    return (int)(((uint32_t)hash & 0x7fffffffu) % (uint32_t)n_buckets);
}

#define RI(k, v) ((RefVal){.kind = (k), .i = (v)})
#define RD(k, v) ((RefVal){.kind = (k), .d = (v)})
#define RS(k, str) ((RefVal){.kind = (k), .s = (str), .len = sizeof(str) - 1})

/* §7.3, both columns, and its additional version 2 values. */
TEST(bucketing_reference_worked_values)
{
    static const struct {
        RefVal v;
        int32_t v1, v2;
    } one[] = {
        {RS(R_STRING, "Trino rocks"), 1132136730, -399107423},
        {RS(R_STRING, ""), 0, -965378730},
        {RI(R_INT, 300000), 300000, -678663480},
        {RI(R_INT, INT32_MIN), INT32_MIN, 1194881028},
        {RI(R_SMALLINT, 300), 300, 2107031704},
        {RI(R_SMALLINT, -32768), -32768, 1342976838},
        {RI(R_BIGINT, 300000000000LL), -647710651, -888935297},
        {RD(R_FLOAT, (double)12.34f), 1095069860, -381747602},
        {RD(R_DOUBLE, 12.34), 986311098, -2070733568},
        {RI(R_DATE, 16758), 16758, 8542395},
    };
    for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
        CHECK_EQ(ref_hash(1, &one[i].v), one[i].v1);
        CHECK_EQ(ref_hash(2, &one[i].v), one[i].v2);
    }
    CHECK_EQ(ref_bucket(ref_hash(1, &one[0].v), 4), 2);
    CHECK_EQ(ref_bucket(ref_hash(2, &one[0].v), 4), 1);

    RefVal elems[3] = {RI(R_SMALLINT, 5), RI(R_SMALLINT, 8), RI(R_SMALLINT, 13)};
    RefVal arr = {.kind = R_ARRAY, .n = 3, .items = elems};
    CHECK_EQ(ref_hash(1, &arr), 5066);
    CHECK_EQ(ref_hash(2, &arr), -905011156);
    RefVal kv[6] = {RS(R_STRING, "key"),  RI(R_BIGINT, 123),
                    RS(R_STRING, "key2"), RI(R_BIGINT, 123456789),
                    RS(R_STRING, "key3"), RI(R_BIGINT, -123456)};
    RefVal map = {.kind = R_MAP, .n = 3, .items = kv};
    CHECK_EQ(ref_hash(1, &map), 127880789);
    CHECK_EQ(ref_hash(2, &map), -1910999650);
    RefVal map1 = {.kind = R_MAP, .n = 1, .items = kv};
    RefVal three[3] = {RD(R_FLOAT, (double)12.34f), arr, map1};
    CHECK_EQ(ref_row_hash(1, three, 3), 95411006);
    CHECK_EQ(ref_row_hash(2, three, 3), 932898434);

    RefVal ints[4] = {RI(R_INT, 0), RI(R_INT, 1), RI(R_INT, 42), RI(R_INT, 2)};
    CHECK_EQ(ref_hash(2, &ints[0]), 1362653161);
    CHECK_EQ(ref_hash(2, &ints[1]), 1321152925);
    CHECK_EQ(ref_bucket(ref_hash(2, &ints[1]), 32), 29);
    CHECK_EQ(ref_hash(2, &ints[2]), 1960085659);
    static const int n42[5] = {2, 4, 8, 16, 32}, b42[5] = {1, 3, 3, 11, 27};
    for (int i = 0; i < 5; i++)
        CHECK_EQ(ref_bucket(ref_hash(2, &ints[2]), n42[i]), b42[i]);
    RefVal one_two[2] = {ints[1], ints[3]};
    CHECK_EQ(ref_row_hash(2, one_two, 2), 2051117767);
    CHECK_EQ(ref_bucket(ref_row_hash(2, one_two, 2), 4), 3);
    RefVal nul = {.kind = R_NULL};
    CHECK_EQ(ref_hash(1, &nul), 0);
    CHECK_EQ(ref_hash(2, &nul), 0);
}

/* ------------------------------------------------------------ SQL and files */

typedef struct TypeCase {
    const char *sql_type;
    CombTypeKind kind;
    const char *const *values; /* SQL literals, NULL-terminated */
} TypeCase;

/* Negative numbers, extremes, NULLs; strings with bytes >= 0x80 (negative
 * Java bytes for version 1, and in Murmur3's sign-extended tail for 2),
 * every tail length, char pad and varchar cut. */
static const char *const v_bool[] = {"true", "false", "NULL", NULL};
static const char *const v_tinyint[] = {"0", "1", "-1", "127", "-128", "42",
                                        "NULL", NULL};
static const char *const v_smallint[] = {"0", "300", "-300", "32767",
                                         "-32768", "7", "NULL", NULL};
static const char *const v_int[] = {"0", "1", "42", "300000", "-300000",
                                    "2147483647", "-2147483648", "NULL", NULL};
static const char *const v_bigint[] = {
    "0", "300000000000", "-300000000000", "9223372036854775807",
    "-9223372036854775807", "4294967296", "-1", "NULL", NULL};
static const char *const v_float[] = {"12.34", "-12.34", "0.0", "-0.0", "1.5",
                                      "1e30", "-3.4e38", "NULL", NULL};
static const char *const v_double[] = {"12.34", "-12.34", "0.0", "-0.0",
                                       "1e300", "-1e-300", "2.5", "NULL", NULL};
static const char *const v_string[] = {
    "'Trino rocks'", "''", "'\xc3\xa9'", "'\xe2\x82\xacuro'", "'\xc3\xbf'",
    "'a'", "'ab'", "'abc'", "'abcd'", "'abcde'",
    "'\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e'", "'  padded  '", "NULL", NULL};
static const char *const v_varchar[] = {
    "'Trino rocks'", "''", "'\xc3\xa9\xe2\x82\xac'", "'\xc3\xbf" "a'", "'abc'",
    "'a'", "'trail  '", "NULL", NULL};
static const char *const v_char[] = {
    "'ab'", "'Trino'", "'\xc3\xa9'", "''", "'abcdefg'", "'\xc3\xbf\xc3\xbf'",
    "' x'", "NULL", NULL};

static const TypeCase type_cases[] = {
    {"BOOLEAN", COMB_T_BOOLEAN, v_bool},
    {"TINYINT", COMB_T_TINYINT, v_tinyint},
    {"SMALLINT", COMB_T_SMALLINT, v_smallint},
    {"INT", COMB_T_INT, v_int},
    {"BIGINT", COMB_T_BIGINT, v_bigint},
    {"FLOAT", COMB_T_FLOAT, v_float},
    {"DOUBLE", COMB_T_DOUBLE, v_double},
    {"STRING", COMB_T_STRING, v_string},
    {"VARCHAR(10)", COMB_T_VARCHAR, v_varchar},
    {"CHAR(5)", COMB_T_CHAR, v_char},
};
#define N_TYPES ((int)(sizeof type_cases / sizeof type_cases[0]))

static int n_values(const TypeCase *tc)
{
    int n = 0;
    while (tc->values[n])
        n++;
    return n;
}

/* A bucketed table under test: user column 0 is the INT row id. */
typedef struct Table {
    char name[32];
    int n_cols;
    CombTypeKind kinds[N_TYPES + 1];
    int n_key;
    int key[N_TYPES];          /* CLUSTERED BY columns, in their order */
    int n_buckets;
    int version;
    int n_rows;                /* ids 0..n_rows-1 */
    int file_bucket[64];       /* per id: N of the bucket_N file, -1 unseen */
} Table;

static RefVal ref_of_cell(CombTypeKind kind, const CombVector *v, int row)
{
    static const struct {
        CombTypeKind kind;
        RefKind ref;
    } map[] = {{COMB_T_BOOLEAN, R_BOOL},   {COMB_T_TINYINT, R_TINYINT},
               {COMB_T_SMALLINT, R_SMALLINT}, {COMB_T_INT, R_INT},
               {COMB_T_BIGINT, R_BIGINT},  {COMB_T_FLOAT, R_FLOAT},
               {COMB_T_DOUBLE, R_DOUBLE},  {COMB_T_STRING, R_STRING},
               {COMB_T_VARCHAR, R_VARCHAR}, {COMB_T_CHAR, R_CHAR},
               {COMB_T_DATE, R_DATE}};
    RefVal r = {.kind = R_NULL};
    if (comb_vec_is_null(v, row))
        return r;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].kind == kind)
            r.kind = map[i].ref;
    if (comb_type_is_int(kind))
        r.i = v->i64[row];
    else if (comb_type_is_float(kind))
        r.d = v->f64[row];
    else {
        r.s = v->str[row].ptr;
        r.len = v->str[row].len;
    }
    return r;
}

/* ACID file fields (orc.h batch layout): 2 = bucket property, 5 = the
 * row struct, whose child j is user column j. */
#define COL_BUCKET 2
#define COL_ROW 5

/* Check the rows of one bucket_N file; failures are reported, not fatal,
 * so that the reader is always closed. */
static int check_file(Table *t, const char *path, int n, CombErr *err)
{
    OrcReader *r;
    CombBatch b;
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    if ((rc = orc_reader_batch_init(r, &b, 256))) {
        orc_reader_close(r);
        return rc;
    }
    while (!(rc = orc_reader_next(r, &b, err)) && b.n_rows > 0) {
        for (int row = 0; row < b.n_rows; row++) {
            uint32_t prop = (uint32_t)b.cols[COL_BUCKET].i64[row];
            const CombVector *user = b.cols[COL_ROW].children;
            int64_t id = user[0].i64[row];
            RefVal key[N_TYPES];
            for (int j = 0; j < t->n_key; j++)
                key[j] = ref_of_cell(t->kinds[t->key[j]],
                                     &user[t->key[j]], row);
            int want = ref_bucket(ref_row_hash(t->version, key, t->n_key),
                                  t->n_buckets);
            if (id < 0 || id >= t->n_rows || t->file_bucket[id] != -1)
                unit_fail(__FILE__, __LINE__, "%s: row id %" PRId64
                          " unexpected or seen twice", t->name, id);
            else
                t->file_bucket[id] = n;
            if (prop >> 29 != 1 || (int)(prop >> 16 & 0xfff) != n)
                unit_fail(__FILE__, __LINE__, "%s id %" PRId64 ": bucket "
                          "property %u in bucket_%d", t->name, id, prop, n);
            if (want != n)
                unit_fail(__FILE__, __LINE__, "%s id %" PRId64 ": in "
                          "bucket_%d, the v%d hash says bucket %d", t->name,
                          id, n, t->version, want);
        }
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    return rc;
}

/* Every bucket file of every delta of the table. */
static int check_files(Table *t, const char *wh, CombErr *err)
{
    CombArena a;
    char **dirs, **files;
    int n_dirs, n_files, rc, n;
    comb_arena_init(&a, 4096);
    for (int i = 0; i < t->n_rows; i++)
        t->file_bucket[i] = -1;
    const char *tdir = fs_join(&a, wh, t->name);
    rc = fs_list_dir(tdir, &a, &dirs, &n_dirs, err);
    for (int d = 0; !rc && d < n_dirs; d++) {
        const char *ddir = fs_join(&a, tdir, dirs[d]);
        if (strncmp(dirs[d], "delta_", 6) != 0)
            continue;
        rc = fs_list_dir(ddir, &a, &files, &n_files, err);
        for (int f = 0; !rc && f < n_files; f++)
            if (acid_bucket_file_parse(files[f], &n))
                rc = check_file(t, fs_join(&a, ddir, files[f]), n, err);
    }
    comb_arena_free(&a);
    return rc;
}

/* SELECT id, ROW__ID.bucketid: bucket ids of the rows, by id. */
typedef struct RowIds {
    int n;
    int bucketid[64];
} RowIds;

static int rowids_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    RowIds *r = ctx;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        int64_t id = b->cols[0].i64[row];
        if (id >= 0 && id < 64)
            r->bucketid[id] = (int)b->cols[1].i64[row];
        r->n++;
    }
    return COMB_OK;
}

static int run_sql(SqlSession *s, CombErr *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int run_sql(SqlSession *s, CombErr *err, const char *fmt, ...)
{
    char sql[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(sql, sizeof sql, fmt, ap);
    va_end(ap);
    return sql_session_execute(s, sql, strlen(sql), NULL, err);
}

/* Create t, insert rows[0..n_rows) (each a ", "-joined list of user
 * columns 1.. as SQL literals), then check files and ROW__IDs. */
static void create_insert_check(SqlSession *s, const char *wh, Table *t,
                                const char *col_defs, const char *cluster,
                                const char *const *rows)
{
    CombErr err;
    char values[6000] = "", *p = values;
    for (int i = 0; i < t->n_rows; i++)
        p += snprintf(p, (size_t)(values + sizeof values - p), "%s(%d, %s)",
                      i ? ", " : "", i, rows[i]);
    CHECK((size_t)(p - values) < sizeof values - 1);
    CHECK_OK(run_sql(s, &err, "CREATE TABLE %s (id INT, %s) CLUSTERED BY (%s) "
                     "INTO %d BUCKETS TBLPROPERTIES ('transactional'='true', "
                     "'bucketing_version'='%d')", t->name, col_defs, cluster,
                     t->n_buckets, t->version), &err);
    CHECK_OK(run_sql(s, &err, "INSERT INTO %s VALUES %s", t->name, values),
             &err);
    CHECK_OK(check_files(t, wh, &err), &err);
    for (int i = 0; i < t->n_rows; i++)
        if (t->file_bucket[i] < 0)
            unit_fail(__FILE__, __LINE__, "%s: row %d in no file", t->name, i);
    RowIds ids = {0};
    SqlSink sink = {&ids, NULL, rowids_batch, NULL, NULL};
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT id, ROW__ID.bucketid FROM %s", t->name);
    CHECK_OK(sql_session_execute(s, sql, strlen(sql), &sink, &err), &err);
    CHECK_EQ(ids.n, t->n_rows);
    for (int i = 0; i < t->n_rows; i++)
        CHECK_EQ((ids.bucketid[i] >> 16) & 0xfff, t->file_bucket[i]);
}

static int open_wh(const char *wh, SqlSession **s, CombErr *err)
{
    SqlSessionOptions opt = {wh, "tester"};
    return sql_session_open(&opt, s, err);
}

/* One table per type and version, clustered by that type alone, into a
 * prime number of buckets so that a wrong hash almost surely shows. */
TEST(bucketing_each_type_v1_v2)
{
    const char *wh = unit_tmpdir();
    SqlSession *s;
    CombErr err;
    CHECK_OK(open_wh(wh, &s, &err), &err);
    for (int version = 1; version <= 2 && !unit_failed_now(); version++) {
        for (int ti = 0; ti < N_TYPES && !unit_failed_now(); ti++) {
            const TypeCase *tc = &type_cases[ti];
            Table t = {.n_cols = 2, .kinds = {COMB_T_INT, tc->kind},
                       .n_key = 1, .key = {1}, .n_buckets = 1021,
                       .version = version, .n_rows = n_values(tc)};
            char col[64];
            snprintf(t.name, sizeof t.name, "t%d_v%d", ti, version);
            snprintf(col, sizeof col, "k %s", tc->sql_type);
            create_insert_check(s, wh, &t, col, "k", tc->values);
        }
    }
    sql_session_close(s);
}

/* One table with every type as a column, clustered by all of them in an
 * order unlike the table's, rows mixing values and NULLs per column. */
TEST(bucketing_multi_column_v1_v2)
{
    static const char *const names[N_TYPES] = {"b",  "ti", "si", "i", "bi",
                                               "f",  "d",  "s",  "vc", "c"};
    static const int order[N_TYPES] = {8, 4, 10, 6, 1, 9, 2, 5, 3, 7};
    const char *wh = unit_tmpdir();
    SqlSession *s;
    CombErr err;
    char defs[512] = "", cluster[128] = "";
    const char *rows[40];
    char row_text[40][512];
    CHECK_OK(open_wh(wh, &s, &err), &err);
    for (int i = 0; i < N_TYPES; i++) {
        size_t d = strlen(defs), c = strlen(cluster);
        snprintf(defs + d, sizeof defs - d, "%s%s %s", i ? ", " : "", names[i],
                 type_cases[i].sql_type);
        snprintf(cluster + c, sizeof cluster - c, "%s%s", i ? ", " : "",
                 names[order[i] - 1]);
    }
    /* row r, column j: value (r + 3j) of the column's list, cycling, so each
     * column's NULL meets the others' values; the last row is all NULL */
    for (int r = 0; r < 40; r++) {
        char *p = row_text[r];
        for (int j = 0; j < N_TYPES; j++) {
            int n = n_values(&type_cases[j]);
            const char *v = r == 39 ? "NULL" : type_cases[j].values[(r + 3 * j) % n];
            p += sprintf(p, "%s%s", j ? ", " : "", v);
        }
        rows[r] = row_text[r];
    }
    for (int version = 1; version <= 2 && !unit_failed_now(); version++) {
        Table t = {.n_cols = N_TYPES + 1, .n_key = N_TYPES, .n_buckets = 13,
                   .version = version, .n_rows = 40};
        t.kinds[0] = COMB_T_INT;
        for (int i = 0; i < N_TYPES; i++) {
            t.kinds[i + 1] = type_cases[i].kind;
            t.key[i] = order[i];
        }
        snprintf(t.name, sizeof t.name, "m_v%d", version);
        create_insert_check(s, wh, &t, defs, cluster, rows);
    }
    sql_session_close(s);
}

/* --------------------------------------------- the bucketing_version property */

static int set_param(const char *wh, const char *sql)
{
    char path[1024];
    sqlite3 *db;
    snprintf(path, sizeof path, "%s/metastore.db", wh);
    int rc = sqlite3_open(path, &db);
    /* the session's heartbeat thread may hold the file for a moment */
    if (rc == SQLITE_OK)
        rc = sqlite3_busy_timeout(db, 10000);
    if (rc == SQLITE_OK)
        rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
    sqlite3_close(db);
    return rc;
}

static bool file_exists(const char *wh, const char *rel)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", wh, rel);
    return fs_exists(path);
}

/* CREATE TABLE refuses values other than '1' and '2'; a table another
 * engine left with such a value can be read and described but not written;
 * without the property a table is version 1, as in Hive and Trino. */
TEST(bucketing_version_property_sql)
{
    const char *wh = unit_tmpdir();
    SqlSession *s;
    CombErr err;
    CHECK_OK(open_wh(wh, &s, &err), &err);
    static const char *const bad[] = {"3", "0", "", "abc", " 1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(run_sql(s, &err, "CREATE TABLE x (a STRING) CLUSTERED BY (a) "
                         "INTO 4 BUCKETS TBLPROPERTIES ('bucketing_version'="
                         "'%s')", bad[i]), COMB_EUNSUPPORTED);
        CHECK(strstr(err.msg, "Unsupported bucketing version") != NULL);
        CHECK_EQ(run_sql(s, &err, "SELECT * FROM x"), COMB_ENOTFOUND);
    }
    CHECK_OK(run_sql(s, &err, "CREATE TABLE h (a STRING) CLUSTERED BY (a) "
                     "INTO 4 BUCKETS TBLPROPERTIES ('transactional'='true')"),
             &err);
    CHECK_EQ(set_param(wh, "UPDATE TABLE_PARAMS SET PARAM_VALUE='abc' WHERE "
                           "PARAM_KEY='bucketing_version'"), SQLITE_OK);
    CHECK_EQ(run_sql(s, &err, "INSERT INTO h VALUES ('Trino rocks')"),
             COMB_EUNSUPPORTED);
    CHECK(strstr(err.msg, "table default.h: Unsupported bucketing version: "
                          "'abc'") != NULL);
    CHECK_OK(run_sql(s, &err, "SELECT * FROM h"), &err);
    CHECK_OK(run_sql(s, &err, "DESCRIBE FORMATTED h"), &err);
    CHECK_OK(run_sql(s, &err, "DELETE FROM h"), &err);

    /* absent: version 1 puts 'Trino rocks' in bucket 2 of 4 */
    CHECK_EQ(set_param(wh, "DELETE FROM TABLE_PARAMS WHERE "
                           "PARAM_KEY='bucketing_version'"), SQLITE_OK);
    CHECK_OK(run_sql(s, &err, "INSERT INTO h VALUES ('Trino rocks')"), &err);
    CHECK(file_exists(wh, "h/delta_0000002_0000002_0000/bucket_00002"));
    CHECK_EQ(set_param(wh, "INSERT INTO TABLE_PARAMS (TBL_ID, PARAM_KEY, "
                           "PARAM_VALUE) SELECT TBL_ID, 'bucketing_version', "
                           "'2' FROM TBLS WHERE TBL_NAME = 'h'"), SQLITE_OK);
    CHECK_OK(run_sql(s, &err, "INSERT INTO h VALUES ('Trino rocks')"), &err);
    CHECK(file_exists(wh, "h/delta_0000003_0000003_0000/bucket_00001"));

    /* every column type has Hive's hash now: a table clustered by a
     * timestamp (from Hive) is not refused for its bucketing */
    CHECK_OK(run_sql(s, &err, "CREATE TABLE ts (a STRING) CLUSTERED BY (a) "
                     "INTO 4 BUCKETS TBLPROPERTIES ('transactional'='true')"),
             &err);
    CHECK_EQ(set_param(wh, "UPDATE COLUMNS_V2 SET TYPE_NAME='timestamp' "
                           "WHERE COLUMN_NAME='a' AND TBL_ID = (SELECT TBL_ID "
                           "FROM TBLS WHERE TBL_NAME = 'ts')"), SQLITE_OK);
    if (run_sql(s, &err, "INSERT INTO ts SELECT NULL") != COMB_OK)
        CHECK(strstr(err.msg, "clustered by") == NULL);
    sql_session_close(s);
}
