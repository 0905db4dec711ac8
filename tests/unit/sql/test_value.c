/* Value formatting (Java numbers, Hive's DECIMAL/DATE/TIMESTAMP/BINARY
 * text, JSON of complex values), comparison, copying and datums
 * (sql/func/value.h, sql/func/rowstore.h), LIKE matching. */
#include "unit.h"
#include "common/types.h"
#include "sql/func/rowstore.h"
#include "sql/func/value.h"

static const char *fmt_d(double d)
{
    static char buf[64];
    sql_format_double(d, buf, sizeof buf);
    return buf;
}

TEST(value_double_like_java)
{
    CHECK_STR(fmt_d(1.0), "1.0");
    CHECK_STR(fmt_d(-0.5), "-0.5");
    CHECK_STR(fmt_d(0.001), "0.001");
    CHECK_STR(fmt_d(1e-4), "1.0E-4");
    CHECK_STR(fmt_d(1234567.0), "1234567.0");
    CHECK_STR(fmt_d(1e7), "1.0E7");
    CHECK_STR(fmt_d(123456789.5), "1.234567895E8");
    CHECK_STR(fmt_d(0.1 + 0.2), "0.30000000000000004");
    CHECK_STR(fmt_d(0.0), "0.0");
    CHECK_STR(fmt_d(-0.0), "-0.0");
    CHECK_STR(fmt_d(1.0 / 0.0), "Infinity");
    CHECK_STR(fmt_d(-1.0 / 0.0), "-Infinity");
    CHECK_STR(fmt_d(0.0 / 0.0), "NaN");
    CHECK_STR(fmt_d(100.0), "100.0");
}

TEST(value_float_like_java)
{
    char buf[64];
    sql_format_float(0.1f, buf, sizeof buf);
    CHECK_STR(buf, "0.1");
    sql_format_float(12.34f, buf, sizeof buf);
    CHECK_STR(buf, "12.34");
}

static bool like(const char *s, const char *p)
{
    CombStr a = {s, (uint32_t)strlen(s)}, b = {p, (uint32_t)strlen(p)};
    return sql_like_match(a, b);
}

TEST(value_like)
{
    CHECK(like("apple", "a%"));
    CHECK(like("apple", "%ple"));
    CHECK(like("apple", "%p%"));
    CHECK(like("apple", "a_ple"));
    CHECK(!like("apple", "a_le"));
    CHECK(like("", "%"));
    CHECK(!like("", "_"));
    CHECK(like("50%", "50\\%"));
    CHECK(!like("500", "50\\%"));
    CHECK(like("abcabc", "%bc%bc"));
    CHECK(!like("abc", "abcd"));
}

TEST(value_str_cmp)
{
    CombStr a = {"ab", 2}, b = {"abc", 3}, c = {"b", 1};
    CHECK(sql_str_cmp(a, b) < 0);
    CHECK(sql_str_cmp(b, a) > 0);
    CHECK(sql_str_cmp(a, c) < 0);
    CHECK(sql_str_cmp(a, a) == 0);
}

/* ---------------------------------------------- values of the new types */

/* A type from its Hive string, in arena a. */
static const CombType *type_of(CombArena *a, const char *s)
{
    CombType *t = NULL;
    CombErr err;
    if (comb_type_parse(a, s, strlen(s), &t, &err))
        return NULL;
    return t;
}

/* Row `row` of v as the command line prints it. */
static const char *shown(const CombVector *v, int row)
{
    static char out[256];
    CombBuf b = COMB_BUF_INIT;
    if (sql_format_value(v, row, &b)) {
        snprintf(out, sizeof out, "(error)");
    } else {
        snprintf(out, sizeof out, "%.*s", (int)b.len, b.data ? (char *)b.data : "");
    }
    comb_buf_free(&b);
    return out;
}

TEST(value_scalars_as_hive_prints_them)
{
    CombArena a;
    CombVector dec, date, ts, bin;
    comb_arena_init(&a, 4096);
    CHECK(comb_vec_init(&dec, type_of(&a, "decimal(5,2)"), 4) == 0);
    CHECK(comb_vec_init(&date, type_of(&a, "date"), 4) == 0);
    CHECK(comb_vec_init(&ts, type_of(&a, "timestamp"), 4) == 0);
    CHECK(comb_vec_init(&bin, type_of(&a, "binary"), 4) == 0);
    dec.dec[0] = 150;       /* 1.50: the column's scale is kept */
    dec.dec[1] = -5;        /* -0.05 */
    dec.dec[2] = 0;
    comb_vec_set_null(&dec, 3);
    CHECK_STR(shown(&dec, 0), "1.50");
    CHECK_STR(shown(&dec, 1), "-0.05");
    CHECK_STR(shown(&dec, 2), "0.00");
    CHECK_STR(shown(&dec, 3), "NULL");
    date.i64[0] = -719162;  /* 0001-01-01 */
    date.i64[1] = -1;
    date.i64[2] = 2932896;  /* 9999-12-31 */
    CHECK_STR(shown(&date, 0), "0001-01-01");
    CHECK_STR(shown(&date, 1), "1969-12-31");
    CHECK_STR(shown(&date, 2), "9999-12-31");
    ts.i64[0] = -1;
    ts.nanos[0] = 999999999;
    ts.i64[1] = 0;
    ts.nanos[1] = 100000000; /* trailing fraction zeros dropped */
    ts.i64[2] = 86400;
    ts.nanos[2] = 0;         /* no fraction at all */
    CHECK_STR(shown(&ts, 0), "1969-12-31 23:59:59.999999999");
    CHECK_STR(shown(&ts, 1), "1970-01-01 00:00:00.1");
    CHECK_STR(shown(&ts, 2), "1970-01-02 00:00:00");
    /* BINARY: its bytes; invalid UTF-8 bytes as U+FFFD each */
    bin.str[0] = (CombStr){"ab\xC3\xA9", 4};
    bin.str[1] = (CombStr){"\xFF" "a\xC3", 3};
    bin.str[2] = (CombStr){"\xED\xA0\x80", 3};   /* a UTF-16 surrogate */
    CHECK_STR(shown(&bin, 0), "ab\xC3\xA9");
    CHECK_STR(shown(&bin, 1), "\xEF\xBF\xBD" "a\xEF\xBF\xBD");
    CHECK_STR(shown(&bin, 2), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    comb_vec_free(&dec);
    comb_vec_free(&date);
    comb_vec_free(&ts);
    comb_vec_free(&bin);
    comb_arena_free(&a);
}

/* array<struct<s:string,d:decimal(4,2)>> and map<int,array<char(3)>>:
 * JSON with escapes, nested NULLs as null, decimals without trailing
 * zeros, CHAR padded. */
TEST(value_complex_as_json)
{
    CombArena a;
    CombVector arr, map, un;
    CombVector *st, *s, *d, *keys, *vals, *chars;
    comb_arena_init(&a, 4096);
    CHECK(comb_vec_init(&arr, type_of(&a, "array<struct<s:string,d:decimal(4,2)>>"), 4) == 0);
    CHECK(comb_vec_init(&map, type_of(&a, "map<int,array<char(3)>>"), 4) == 0);
    CHECK(comb_vec_init(&un, type_of(&a, "uniontype<int,string>"), 2) == 0);
    st = &arr.children[0];
    s = &st->children[0];
    d = &st->children[1];
    arr.off[0] = 0;
    arr.len[0] = 3;
    s->str[0] = (CombStr){"q\"\\\n\x01", 5};
    d->dec[0] = 150;
    comb_vec_set_null(s, 1);
    comb_vec_set_null(d, 1);
    comb_vec_set_null(st, 2);
    arr.off[1] = 3;
    arr.len[1] = 0;
    CHECK_STR(shown(&arr, 0), "[{\"s\":\"q\\\"\\\\\\n\\u0001\",\"d\":1.5},{\"s\":null,\"d\":null},null]");
    CHECK_STR(shown(&arr, 1), "[]");
    keys = &map.children[0];
    vals = &map.children[1];
    chars = &vals->children[0];
    map.off[0] = 0;
    map.len[0] = 2;
    keys->i64[0] = 7;
    vals->off[0] = 0;
    vals->len[0] = 1;
    chars->str[0] = (CombStr){"ab ", 3};
    keys->i64[1] = -1;
    comb_vec_set_null(vals, 1);
    comb_vec_set_null(&map, 1);
    CHECK_STR(shown(&map, 0), "{7:[\"ab \"],-1:null}");
    CHECK_STR(shown(&map, 1), "NULL");
    un.tag[0] = 1;
    un.children[1].str[0] = (CombStr){"x", 1};
    un.tag[1] = 0;
    un.children[0].i64[1] = 42;
    CHECK_STR(shown(&un, 0), "{1:\"x\"}");
    CHECK_STR(shown(&un, 1), "{0:42}");
    comb_vec_free(&arr);
    comb_vec_free(&map);
    comb_vec_free(&un);
    comb_arena_free(&a);
}

/* Decimals compare exactly across scales; timestamps by nanos too;
 * arrays element by element, a prefix first; nested NULLs where asked. */
TEST(value_compare_across_types)
{
    CombArena a;
    CombVector x, y, ta, tb, la;
    comb_arena_init(&a, 4096);
    CHECK(comb_vec_init(&x, type_of(&a, "decimal(5,2)"), 1) == 0);
    CHECK(comb_vec_init(&y, type_of(&a, "decimal(10,5)"), 1) == 0);
    x.dec[0] = 150;
    y.dec[0] = 150000;
    CHECK_EQ(sql_value_cmp(&x, 0, &y, 0, true), 0);
    y.dec[0] = 150001;
    CHECK_EQ(sql_value_cmp(&x, 0, &y, 0, true), -1);
    CHECK(comb_vec_init(&ta, type_of(&a, "timestamp"), 1) == 0);
    CHECK(comb_vec_init(&tb, type_of(&a, "timestamp"), 1) == 0);
    ta.i64[0] = tb.i64[0] = 5;
    ta.nanos[0] = 1;
    tb.nanos[0] = 0;
    CHECK_EQ(sql_value_cmp(&ta, 0, &tb, 0, true), 1);
    CHECK(comb_vec_init(&la, type_of(&a, "array<int>"), 4) == 0);
    CHECK(comb_vec_reserve(&la.children[0], 8) == 0);
    la.off[0] = 0; la.len[0] = 2;           /* [1, 2] */
    la.off[1] = 2; la.len[1] = 1;           /* [1] */
    la.off[2] = 3; la.len[2] = 2;           /* [1, NULL] */
    la.children[0].i64[0] = 1;
    la.children[0].i64[1] = 2;
    la.children[0].i64[2] = 1;
    la.children[0].i64[3] = 1;
    comb_vec_set_null(&la.children[0], 4);
    CHECK_EQ(sql_value_cmp(&la, 1, &la, 0, true), -1);
    CHECK_EQ(sql_value_cmp(&la, 2, &la, 0, true), -1);
    CHECK_EQ(sql_value_cmp(&la, 2, &la, 0, false), 1);
    CHECK(sql_type_orderable(type_of(&a, "struct<a:array<int>>")));
    CHECK(!sql_type_orderable(type_of(&a, "array<map<int,int>>")));
    comb_vec_free(&x);
    comb_vec_free(&y);
    comb_vec_free(&ta);
    comb_vec_free(&tb);
    comb_vec_free(&la);
    comb_arena_free(&a);
}

/* A map<string,array<int>> value copied row by row through a fill state,
 * then through a datum (rowstore), prints the same. */
TEST(value_fill_and_datum_round_trip)
{
    CombArena a;
    CombVector src, dst, back;
    SqlVecFill f, g;
    SqlDatum d;
    CombVector *keys, *vals, *ints;
    comb_arena_init(&a, 4096);
    const CombType *t = type_of(&a, "map<string,array<int>>");
    CHECK(t && comb_vec_init(&src, t, 4) == 0);
    CHECK(comb_vec_init(&dst, t, 2) == 0);
    CHECK(comb_vec_init(&back, t, 2) == 0);
    keys = &src.children[0];
    vals = &src.children[1];
    ints = &vals->children[0];
    src.off[0] = 0;
    src.len[0] = 2;
    keys->str[0] = (CombStr){"a", 1};
    keys->str[1] = (CombStr){"b", 1};
    vals->off[0] = 0; vals->len[0] = 2;
    vals->off[1] = 2; vals->len[1] = 0;
    ints->i64[0] = 3;
    comb_vec_set_null(ints, 1);
    comb_vec_set_null(&src, 1);
    CHECK(sql_fill_init(&f, &dst, &a) == 0);
    sql_fill_reset(&f);
    /* the NULL row first: later rows still append after it */
    CHECK(sql_fill_copy(&f, 1, &src, 1) == 0);
    CHECK(sql_fill_copy(&f, 0, &src, 0) == 0);
    CHECK_STR(shown(&dst, 0), "{\"a\":[3,null],\"b\":[]}");
    CHECK_STR(shown(&dst, 1), "NULL");
    CHECK(sql_datum_read(&d, &dst, 0, &a) == 0);
    CHECK_EQ(d.n, 4);
    CHECK(sql_fill_init(&g, &back, &a) == 0);
    CHECK(sql_datum_fill(&g, 0, &d) == 0);
    CHECK_STR(shown(&back, 0), "{\"a\":[3,null],\"b\":[]}");
    comb_vec_free(&src);
    comb_vec_free(&dst);
    comb_vec_free(&back);
    comb_arena_free(&a);
}
