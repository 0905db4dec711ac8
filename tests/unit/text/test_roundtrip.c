/* Random batches of every type and nesting, with NULLs everywhere, go
 * through the writer and come back equal from the reader (text.h).  Values
 * are kept to those text can tell apart, as in Hive: no array of exactly
 * one element (its text could be "" or the null marker), no struct of one
 * field, distinct non-NULL map keys, CHAR and VARCHAR within their length
 * and valid UTF-8, and (because strings hold any byte) an escape
 * character with escaped line ends. */
#include "common/datetime.h"
#include "common/decimal.h"
#include "fs/fs.h"
#include "text_test.h"
#include "unit.h"

typedef struct Rng {
    uint64_t s;
} Rng;

static uint64_t next(Rng *r)
{
    r->s ^= r->s << 13;
    r->s ^= r->s >> 7;
    r->s ^= r->s << 17;
    return r->s;
}

static int below(Rng *r, int n)
{
    return (int)(next(r) % (uint64_t)n);
}

/* Bytes of a random string: any byte, or (utf8) valid UTF-8 of at most
 * max_chars characters, control characters and separators included. */
static CombStr gen_str(Rng *r, CombArena *a, bool utf8, uint32_t max_chars)
{
    static const char *const pieces[] = {"a", "\x01", "\x02", "\\", "\n", "\r",
                                         "\xC3\xA9", "\xE2\x82\xAC",
                                         "\xF0\x9F\x98\x80", " ", "N", "\x7F"};
    char *p = comb_arena_alloc(a, 64);
    uint32_t n = 0, most = max_chars < 12 ? max_chars : 12;
    uint32_t chars = (uint32_t)below(r, (int)most + 1);
    for (uint32_t i = 0; i < chars; i++) {
        if (utf8) {
            const char *s = pieces[below(r, 12)];
            memcpy(p + n, s, strlen(s));
            n += (uint32_t)strlen(s);
        } else {
            p[n++] = (char)below(r, 256);
        }
    }
    return (CombStr){p, n};
}

static void gen(Rng *r, CombArena *a, const CombType *t, CombVector *v,
                int row);

static void gen_null(CombVector *v, int row)
{
    if (!v->has_nulls)
        comb_vec_nulls_materialize(v, row);
    v->nulls[row] = 1;
    if (v->kind == COMB_T_LIST || v->kind == COMB_T_MAP) {
        v->off[row] = row ? v->off[row - 1] + v->len[row - 1] : 0;
        v->len[row] = 0;
    } else if (v->kind == COMB_T_STRUCT || v->kind == COMB_T_UNION) {
        for (int i = 0; i < v->n_children; i++)
            gen_null(&v->children[i], row);
    }
}

/* Is key row `at` (string or integer keys) a repeat of rows from..at-1? */
static bool key_taken(const CombVector *k, uint32_t from, uint32_t at)
{
    for (uint32_t i = from; i < at; i++)
        if (k->str ? k->str[i].len == k->str[at].len &&
                         memcmp(k->str[i].ptr, k->str[at].ptr,
                                k->str[at].len) == 0
                   : k->i64[i] == k->i64[at])
            return true;
    return false;
}

static void gen_collection(Rng *r, CombArena *a, const CombType *t,
                           CombVector *v, int row)
{
    uint32_t first = row ? v->off[row - 1] + v->len[row - 1] : 0, n = 0;
    int want = below(r, 4);
    want = want == 1 ? 0 : want;   /* 0, 2 or 3 elements */
    for (int i = 0; i < want; i++) {
        for (int c = 0; c < v->n_children; c++)
            comb_vec_reserve_rows(&v->children[c], (int)(first + n) + 1);
        if (t->kind == COMB_T_MAP) {
            CombVector *k = &v->children[0];
            do
                gen(r, a, t->children[0], k, (int)(first + n));
            while (comb_vec_is_null(k, (int)(first + n)));
            if (key_taken(k, first, first + n))
                continue;
            gen(r, a, t->children[1], &v->children[1], (int)(first + n));
        } else {
            gen(r, a, t->children[0], &v->children[0], (int)(first + n));
        }
        n++;
    }
    if (t->kind == COMB_T_LIST && n == 1)   /* a key was a repeat: 1 left */
        n = 0;
    v->off[row] = first;
    v->len[row] = n;
}

static void gen(Rng *r, CombArena *a, const CombType *t, CombVector *v,
                int row)
{
    static const int64_t int_max[] = {0, 127, 32767, 2147483647,
                                      INT64_MAX};
    uint64_t bits;
    if (below(r, 8) == 0) {
        gen_null(v, row);
        return;
    }
    if (v->has_nulls)
        v->nulls[row] = 0;
    switch (t->kind) {
    case COMB_T_BOOLEAN:
        v->i64[row] = below(r, 2);
        break;
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT: {
        int64_t max = int_max[t->kind];
        int pick = below(r, 4);
        v->i64[row] = pick == 0 ? max : pick == 1 ? -max - 1
                      : (int64_t)(next(r) % (uint64_t)max) * (below(r, 2) ? 1 : -1);
        break;
    }
    case COMB_T_FLOAT: {
        uint32_t fb = (uint32_t)next(r);
        float f;
        memcpy(&f, &fb, sizeof f);
        v->f64[row] = f;
        break;
    }
    case COMB_T_DOUBLE:
        bits = next(r);
        memcpy(&v->f64[row], &bits, sizeof bits);
        break;
    case COMB_T_DECIMAL: {
        unsigned __int128 u = (unsigned __int128)next(r) << 64 | next(r);
        comb_i128 m = (comb_i128)(u % (unsigned __int128)comb_dec_pow10(
                                          (int)t->precision));
        v->dec[row] = below(r, 2) ? m : -m;
        break;
    }
    case COMB_T_DATE:
        v->i64[row] = -719162 + below(r, 2932896 + 719163);
        break;
    case COMB_T_TIMESTAMP:
        v->i64[row] = (-719162 + (int64_t)below(r, 2932896 + 719163)) * 86400 +
                      below(r, 86400);
        v->nanos[row] = below(r, 3) == 0 ? 0 : below(r, 1000000000);
        break;
    case COMB_T_STRING:
    case COMB_T_BINARY:
        v->str[row] = gen_str(r, a, false, 12);
        break;
    case COMB_T_VARCHAR:
        v->str[row] = gen_str(r, a, true, t->max_length);
        break;
    case COMB_T_CHAR: {
        CombStr s = gen_str(r, a, true, t->max_length);
        uint32_t chars = 0;
        char *p = comb_arena_alloc(a, s.len + t->max_length);
        for (uint32_t i = 0; i < s.len; i++)
            chars += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
        memcpy(p, s.ptr, s.len);
        memset(p + s.len, ' ', t->max_length - chars);
        v->str[row] = (CombStr){p, s.len + t->max_length - chars};
        break;
    }
    case COMB_T_LIST:
    case COMB_T_MAP:
        gen_collection(r, a, t, v, row);
        break;
    case COMB_T_STRUCT:
        for (int i = 0; i < t->n_children; i++)
            gen(r, a, t->children[i], &v->children[i], row);
        break;
    case COMB_T_UNION: {
        int tag = below(r, t->n_children);
        v->tag[row] = (uint8_t)tag;
        for (int i = 0; i < t->n_children; i++)
            if (i == tag)
                gen(r, a, t->children[i], &v->children[i], row);
            else
                gen_null(&v->children[i], row);
        break;
    }
    default:
        break;
    }
}

static const char schema[] =
    "struct<b:boolean,t:tinyint,sm:smallint,i:int,l:bigint,f:float,d:double,"
    "dec:decimal(38,10),dec2:decimal(5,5),dt:date,ts:timestamp,s:string,"
    "v:varchar(10),c:char(5),bin:binary,a:array<string>,"
    "m:map<string,array<int>>,st:struct<x:int,y:map<int,string>>,"
    "u:uniontype<int,string,array<double>>,"
    "aa:array<array<struct<p:string,q:decimal(4,1)>>>,"
    "mm:map<string,map<string,string>>>";

static void round_trip(const char *const *props, uint64_t seed)
{
    CombArena a, names;
    CombBatch b, back;
    CombBuf want = COMB_BUF_INIT, got = COMB_BUF_INIT;
    CombErr err;
    TextWriter *w = NULL;
    TextReader *r = NULL;
    TextOptions o = tt_opts(props);
    Rng rng = {seed};
    int n_cols, total = 0;
    comb_arena_init(&names, 4096);
    const CombType *const *types = tt_schema(&names, schema, &n_cols);
    const char *path = fs_join(&names, unit_tmpdir(), "rt.txt");
    CHECK(types != NULL);
    CHECK_OK(comb_batch_init_types(&b, n_cols, types, 300), &err);
    CHECK_OK(comb_batch_init_types(&back, n_cols, types, 77), &err);
    CHECK_OK(text_writer_open(path, &o, n_cols, types, &w, &err), &err);
    comb_arena_init(&a, 1 << 16);
    for (int batch = 0; batch < 10; batch++) {
        comb_batch_reset(&b);
        comb_arena_reset(&a);
        for (int row = 0; row < b.capacity; row++)
            for (int c = 0; c < n_cols; c++)
                gen(&rng, &a, types[c], &b.cols[c], row);
        b.n_rows = b.capacity;
        for (int row = 0; row < b.n_rows; row++, total++) {
            tt_render_row(&b, row, &want);
            comb_buf_append_byte(&want, '\n');
        }
        CHECK_OK(text_writer_write(w, &b, &err), &err);
    }
    CHECK_OK(text_writer_close(w, &err), &err);
    CHECK_OK(text_reader_open(path, &o, n_cols, types, &r, &err), &err);
    while (text_reader_next(r, &back, &err) == COMB_OK && back.n_rows > 0)
        for (int row = 0; row < back.n_rows; row++) {
            tt_render_row(&back, row, &got);
            comb_buf_append_byte(&got, '\n');
        }
    CHECK_EQ(text_reader_lines(r), total);
    text_reader_close(r);
    comb_buf_append_byte(&want, 0);
    comb_buf_append_byte(&got, 0);
    /* the first row that differs, not 3000 rows of noise */
    const char *x = (const char *)want.data, *y = (const char *)got.data;
    while (*x && *x == *y) {
        const char *ex = strchr(x, '\n'), *ey = strchr(y, '\n');
        if (!ex || !ey || ex - x != ey - y || memcmp(x, y, (size_t)(ex - x)))
            break;
        x = ex + 1;
        y = ey + 1;
    }
    if (*x || *y)
        unit_fail(__FILE__, __LINE__, "row differs:\n  wrote %.*s\n  read  %.*s",
                  (int)strcspn(x, "\n"), x, (int)strcspn(y, "\n"), y);
    comb_buf_free(&want);
    comb_buf_free(&got);
    comb_batch_free(&b);
    comb_batch_free(&back);
    comb_arena_free(&a);
    comb_arena_free(&names);
}

TEST(text_round_trip_random_backslash_escape)
{
    const char *props[] = {"escape.delim", "\\", "serialization.escape.crlf",
                           "true", NULL};
    round_trip(props, 0x9E3779B97F4A7C15ull);
}

/* 154 separator levels make every byte from 128 up a separator (escaped
 * in strings); another escape character and null marker. */
TEST(text_round_trip_random_all_levels_other_markers)
{
    const char *props[] = {"escape.delim", "#", "serialization.escape.crlf",
                           "true", "serialization.null.format", "<null>",
                           "hive.serialization.extend.additional.nesting.levels",
                           "true", "field.delim", "|", NULL};
    round_trip(props, 12345);
}
