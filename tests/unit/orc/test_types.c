/*
 * test_types.c - decimals, timestamps, dates, binaries, lists, maps and
 * structs at any depth through the writer and back: values with NULLs at
 * every level, every codec, many stripes, compared as text against an
 * independent rendering of the generator (orc-contents form); the
 * statistics of each kind; the stream encodings ORC Java writes (trimmed
 * decimal scales, nanos with their trailing zeros folded, writer zone
 * UTC); the pre-1970 timestamp rule; and what the writer refuses.
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/datetime.h"

#include <stdlib.h>
#include <string.h>

#define SCHEMA                                                              \
    "struct<dec:decimal(10,2),big:decimal(38,18),ts:timestamp,dt:date,"      \
    "bin:binary,li:array<int>,mp:map<string,decimal(5,1)>,"                 \
    "st:struct<a:array<struct<x:int,y:string>>,b:map<int,array<string>>>,"  \
    "ll:array<array<bigint>>>"

enum { F_DEC, F_BIG, F_TS, F_DT, F_BIN, F_LI, F_MP, F_ST, F_LL, N_FIELDS };

static CombType *parse_type(CombArena *a, const char *text)
{
    CombType *t;
    CombErr err;
    if (comb_type_parse(a, text, strlen(text), &t, &err))
        return NULL;
    comb_type_assign_ids(t);
    return t;
}

/* ------------------------------------------------------------ generator */

static bool null_at(int64_t g, int k)
{
    return (g * 7 + k * 3) % 11 == 0;
}

static comb_i128 dec_val(int64_t g)
{
    if (g % 97 == 3)
        return g % 2 ? 9999999999 : -9999999999;
    return (comb_i128)((g * 12345) % 2000000 - 1000000);
}

static comb_i128 big_val(int64_t g)
{
    comb_i128 max = comb_dec_pow10(38) - 1;
    if (g % 89 == 5)
        return g % 2 ? max : -max;
    return (comb_i128)g * comb_dec_pow10(17) + g % 1000;
}

/* Seconds around 1970 and nanos of every shape; never the one second
 * before 1970 (see orc_types_pre_1970_rule). */
static void ts_val(int64_t g, int64_t *secs, int32_t *nanos)
{
    static const int32_t ns[9] = {0, 1, 100, 1000000, 999999999, 123456789,
                                  500000000, 120000000, 10};
    *secs = (g - 5000) * 86399 + g % 60;
    if (*secs == -1)
        *secs = -2;
    *nanos = ns[g % 9];
}

static int64_t dt_val(int64_t g) { return g * 37 - 700000; }

static uint32_t bin_val(int64_t g, char *buf)
{
    for (int i = 0; i < g % 5; i++)
        buf[i] = (char)(g * 7 + i * 100);
    return (uint32_t)(g % 5);
}

/* ----------------------------------------------------- expected rendering */

static void put_str(CombBuf *t, const char *s, size_t n)
{
    comb_buf_append_byte(t, '"');
    comb_buf_append(t, s, n);
    comb_buf_append_byte(t, '"');
}

static void put_dec(CombBuf *t, comb_i128 v, int scale)
{
    char buf[64];
    comb_dec_format(v, scale, buf, sizeof buf);
    comb_buf_append_str(t, buf);
}

static void expect_ts(CombBuf *t, int64_t secs, int32_t nanos)
{
    char date[48], frac[16];
    int64_t days = comb_seconds_to_days(secs);
    int64_t tod = secs - comb_days_to_seconds(days);
    int n = snprintf(frac, sizeof frac, "%09d", (int)nanos);
    while (n > 1 && frac[n - 1] == '0')
        frac[--n] = '\0';
    comb_date_format(days, date, sizeof date);
    comb_buf_printf(t, "\"%s %02d:%02d:%02d.%s\"", date, (int)(tod / 3600),
                    (int)(tod / 60 % 60), (int)(tod % 60), frac);
}

static void expect_st(CombBuf *t, int64_t g)
{
    comb_buf_append_str(t, "{\"a\": ");
    if (null_at(g, 20)) {
        comb_buf_append_str(t, "null");
    } else {
        comb_buf_append_byte(t, '[');
        for (int e = 0; e < g % 3; e++) {
            comb_buf_append_str(t, e ? ", " : "");
            if (null_at(g + e, 21)) {
                comb_buf_append_str(t, "null");
                continue;
            }
            comb_buf_printf(t, "{\"x\": %lld, \"y\": ", (long long)(g + e));
            if (null_at(g + e, 22))
                comb_buf_append_str(t, "null");
            else
                comb_buf_printf(t, "\"y%lld\"", (long long)(g * e));
            comb_buf_append_byte(t, '}');
        }
        comb_buf_append_byte(t, ']');
    }
    comb_buf_append_str(t, ", \"b\": [");
    for (int e = 0; e < g % 2 + 1; e++) {
        comb_buf_printf(t, "%s{\"key\": %d, \"value\": [", e ? ", " : "",
                        (int)(g + e));
        for (int k = 0; k < (g + e) % 3; k++)
            comb_buf_printf(t, "%s\"v%d\"", k ? ", " : "", k);
        comb_buf_append_str(t, "]}");
    }
    comb_buf_append_str(t, "]}");
}

static void expect_field(CombBuf *t, int64_t g, int f)
{
    char bin[8];
    int64_t secs;
    int32_t nanos;
    if (null_at(g, f)) {
        comb_buf_append_str(t, "null");
        return;
    }
    switch (f) {
    case F_DEC: put_dec(t, dec_val(g), 2); return;
    case F_BIG: put_dec(t, big_val(g), 18); return;
    case F_TS:
        ts_val(g, &secs, &nanos);
        expect_ts(t, secs, nanos);
        return;
    case F_DT: {
        char d[48];
        comb_date_format(dt_val(g), d, sizeof d);
        put_str(t, d, strlen(d));
        return;
    }
    case F_BIN: {
        uint32_t n = bin_val(g, bin);
        comb_buf_append_byte(t, '[');
        for (uint32_t i = 0; i < n; i++)
            comb_buf_printf(t, "%s%u", i ? ", " : "", (uint8_t)bin[i]);
        comb_buf_append_byte(t, ']');
        return;
    }
    case F_LI:
        comb_buf_append_byte(t, '[');
        for (int e = 0; e < g % 6; e++) {
            comb_buf_append_str(t, e ? ", " : "");
            if (null_at(g + e, 10))
                comb_buf_append_str(t, "null");
            else
                comb_buf_printf(t, "%lld", (long long)(g * e));
        }
        comb_buf_append_byte(t, ']');
        return;
    case F_MP:
        comb_buf_append_byte(t, '[');
        for (int e = 0; e < g % 4; e++) {
            comb_buf_printf(t, "%s{\"key\": \"k%d\", \"value\": ",
                            e ? ", " : "", e);
            if (null_at(g + e, 11))
                comb_buf_append_str(t, "null");
            else
                put_dec(t, (g * 10 + e) % 20000 - 10000, 1);
            comb_buf_append_byte(t, '}');
        }
        comb_buf_append_byte(t, ']');
        return;
    case F_ST:
        expect_st(t, g);
        return;
    default: /* F_LL */
        comb_buf_append_byte(t, '[');
        for (int e = 0; e < g % 3; e++) {
            comb_buf_append_str(t, e ? ", [" : "[");
            for (int k = 0; k < (g + e) % 4; k++)
                comb_buf_printf(t, "%s%lld", k ? ", " : "",
                                (long long)(g * 1000 + k));
            comb_buf_append_byte(t, ']');
        }
        comb_buf_append_byte(t, ']');
        return;
    }
}

static const char *const field_names[N_FIELDS] = {
    "dec", "big", "ts", "dt", "bin", "li", "mp", "st", "ll"};

static void expect_row(CombBuf *t, int64_t g)
{
    comb_buf_append_byte(t, '{');
    for (int f = 0; f < N_FIELDS; f++) {
        comb_buf_printf(t, "%s\"%s\": ", f ? ", " : "", field_names[f]);
        expect_field(t, g, f);
    }
    comb_buf_append_str(t, "}\n");
}

/* -------------------------------------------------------------- filling */

static void set_null(CombVector *v, int row, bool null)
{
    if (null) {
        comb_vec_nulls_materialize(v, v->capacity);
        comb_vec_set_null(v, row);
    } else {
        comb_vec_set_not_null(v, row);
    }
}

/* Append an element row to a list/map vector's child; returns its row. */
static uint32_t push(CombVector *v, int row, uint32_t *used, int child_rows)
{
    uint32_t e = used[0]++;
    if (v->len[row] == 0)
        v->off[row] = e;
    v->len[row]++;
    for (int i = 0; i < v->n_children; i++)
        if ((int)used[0] > v->children[i].capacity)
            comb_vec_reserve_rows(&v->children[i], child_rows);
    return e;
}

/* "<prefix><x>" in the batch's arena. */
static CombStr text_copy(CombBatch *b, char prefix, long long x)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%c%lld", prefix, x);
    char *p = comb_arena_alloc(&b->arena, (size_t)n);
    memcpy(p, tmp, (size_t)n);
    return (CombStr){p, (uint32_t)n};
}

static void fill_st(CombBatch *b, int row, int64_t g, uint32_t *used)
{
    CombVector *st = &b->cols[F_ST], *a = &st->children[0];
    CombVector *m = &st->children[1], *elem = &a->children[0];
    set_null(a, row, null_at(g, 20));
    a->len[row] = 0;
    for (int e = 0; !null_at(g, 20) && e < g % 3; e++) {
        uint32_t k = push(a, row, &used[0], (int)used[0] * 2 + 8);
        set_null(elem, (int)k, null_at(g + e, 21));
        elem->children[0].i64[k] = g + e;
        set_null(&elem->children[0], (int)k, false);
        set_null(&elem->children[1], (int)k, null_at(g + e, 22));
        elem->children[1].str[k] = text_copy(b, 'y', g * e);
    }
    m->len[row] = 0;
    set_null(m, row, false);
    for (int e = 0; e < g % 2 + 1; e++) {
        uint32_t k = push(m, row, &used[1], (int)used[1] * 2 + 8);
        CombVector *arr = &m->children[1];
        m->children[0].i64[k] = g + e;
        set_null(arr, (int)k, false);
        arr->len[k] = 0;
        for (int j = 0; j < (g + e) % 3; j++) {
            uint32_t s = push(arr, (int)k, &used[2], (int)used[2] * 2 + 8);
            arr->children[0].str[s] = text_copy(b, 'v', j);
            set_null(&arr->children[0], (int)s, false);
        }
    }
}

static void fill_row(CombBatch *b, int row, int64_t g, uint32_t *used)
{
    for (int f = 0; f < N_FIELDS; f++) {
        CombVector *v = &b->cols[f];
        set_null(v, row, null_at(g, f));
        if (v->off)
            v->len[row] = 0;
    }
    b->cols[F_DEC].dec[row] = dec_val(g);
    b->cols[F_BIG].dec[row] = big_val(g);
    ts_val(g, &b->cols[F_TS].i64[row], &b->cols[F_TS].nanos[row]);
    b->cols[F_DT].i64[row] = dt_val(g);
    char *bin = comb_arena_alloc(&b->arena, 8);
    b->cols[F_BIN].str[row] = (CombStr){bin, bin_val(g, bin)};
    CombVector *li = &b->cols[F_LI];
    for (int e = 0; !null_at(g, F_LI) && e < g % 6; e++) {
        uint32_t k = push(li, row, &used[3], (int)used[3] * 2 + 8);
        li->children[0].i64[k] = g * e;
        set_null(&li->children[0], (int)k, null_at(g + e, 10));
    }
    CombVector *mp = &b->cols[F_MP];
    for (int e = 0; !null_at(g, F_MP) && e < g % 4; e++) {
        uint32_t k = push(mp, row, &used[4], (int)used[4] * 2 + 8);
        mp->children[0].str[k] = text_copy(b, 'k', e);
        set_null(&mp->children[0], (int)k, false);
        mp->children[1].dec[k] = (g * 10 + e) % 20000 - 10000;
        set_null(&mp->children[1], (int)k, null_at(g + e, 11));
    }
    if (!null_at(g, F_ST))
        fill_st(b, row, g, used + 5);
    CombVector *ll = &b->cols[F_LL];
    for (int e = 0; !null_at(g, F_LL) && e < g % 3; e++) {
        uint32_t k = push(ll, row, &used[8], (int)used[8] * 2 + 8);
        CombVector *in = &ll->children[0];
        set_null(in, (int)k, false);
        in->len[k] = 0;
        for (int j = 0; j < (g + e) % 4; j++) {
            uint32_t s = push(in, (int)k, &used[9], (int)used[9] * 2 + 8);
            in->children[0].i64[s] = g * 1000 + j;
            set_null(&in->children[0], (int)s, false);
        }
    }
}

static int write_file(const char *path, const CombType *schema,
                      OrcCompression comp, uint64_t stripe, int64_t rows,
                      CombErr *err)
{
    CombBatch b;
    OrcWriter *w = NULL;
    OrcWriterOptions opt;
    orc_writer_options_default(&opt);
    opt.compression = comp;
    opt.stripe_size = stripe;
    opt.compression_block_size = 1000;
    int rc = orc_test_batch_init(schema, &b, 500);
    if (rc == COMB_OK)
        rc = orc_writer_open(path, schema, &opt, &w, err);
    for (int64_t g = 0; g < rows && !rc; g += 500) {
        uint32_t used[10] = {0};
        comb_batch_reset(&b);
        int n = rows - g < 500 ? (int)(rows - g) : 500;
        for (int i = 0; i < n; i++)
            fill_row(&b, i, g + i, used);
        b.n_rows = n;
        rc = orc_writer_write(w, &b, err);
    }
    comb_batch_free(&b);
    if (rc) {
        orc_writer_abort(w);
        return rc;
    }
    return orc_writer_close(w, err);
}

/* The dump of path is the expected rendering of rows 0..rows-1. */
static bool dump_matches(const char *path, int64_t rows)
{
    CombErr err;
    CombBuf want = COMB_BUF_INIT;
    size_t len;
    char *got = orc_test_dump_text(path, ORC_DUMP_CONTENTS, &len, &err);
    if (!got) {
        printf("    dump failed: %s\n", err.msg);
        return false;
    }
    for (int64_t g = 0; g < rows; g++)
        expect_row(&want, g);
    comb_buf_append_byte(&want, '\0');
    bool same = strcmp(got, (char *)want.data) == 0;
    for (size_t i = 0; !same && got[i]; i++)
        if (got[i] != want.data[i]) {
            size_t from = i > 80 ? i - 80 : 0;
            printf("    at %zu:\n      got  %.160s\n      want %.160s\n", i,
                   got + from, (char *)want.data + from);
            break;
        }
    free(got);
    comb_buf_free(&want);
    return same;
}

TEST(orc_types_roundtrip_every_codec)
{
    static const OrcCompression codecs[] = {ORC_COMP_NONE, ORC_COMP_ZLIB,
                                            ORC_COMP_SNAPPY, ORC_COMP_ZSTD,
                                            ORC_COMP_LZ4};
    CombArena a;
    comb_arena_init(&a, 4096);
    const CombType *schema = parse_type(&a, SCHEMA);
    CHECK(schema != NULL);
    const char *dir = unit_tmpdir();
    for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++) {
        char path[512];
        CombErr err;
        OrcReader *r;
        snprintf(path, sizeof path, "%s/types_%s.orc", dir,
                 orc_compression_name(codecs[i]));
        CHECK_OK(write_file(path, schema, codecs[i], 20000, 6000, &err), &err);
        CHECK(dump_matches(path, 6000));
        CHECK_OK(orc_reader_open(path, &r, &err), &err);
        int stripes = orc_reader_n_stripes(r);
        CombBuf t = COMB_BUF_INIT;
        comb_type_format(orc_reader_schema(r), &t);
        comb_buf_append_byte(&t, 0);
        bool same_type = strcmp((char *)t.data, SCHEMA) == 0;
        comb_buf_free(&t);
        orc_reader_close(r);
        CHECK(stripes > 3);
        CHECK(same_type);
    }
    comb_arena_free(&a);
}

/* A batch of one row at most 1 element long read into a batch of 7 rows:
 * list children grow as the elements demand. */
TEST(orc_types_small_batches_grow_children)
{
    CombArena a;
    CombErr err;
    OrcReader *r;
    CombBatch b;
    char path[512];
    comb_arena_init(&a, 4096);
    const CombType *schema = parse_type(&a, SCHEMA);
    snprintf(path, sizeof path, "%s/grow.orc", unit_tmpdir());
    CHECK_OK(write_file(path, schema, ORC_COMP_ZLIB, 1 << 20, 1000, &err),
             &err);
    CHECK_OK(orc_test_reader_open(path, 7, &r, &b, &err), &err);
    int64_t rows = 0, elems = 0;
    while (!orc_reader_next(r, &b, &err) && b.n_rows > 0) {
        rows += b.n_rows;
        for (int i = 0; i < b.n_rows; i++)
            if (!comb_vec_is_null(&b.cols[F_LL], i))
                for (uint32_t e = 0; e < b.cols[F_LL].len[i]; e++)
                    elems += b.cols[F_LL].children[0].len[b.cols[F_LL].off[i] + e];
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    comb_arena_free(&a);
    int64_t want = 0;
    for (int64_t g = 0; g < 1000; g++)
        for (int e = 0; !null_at(g, F_LL) && e < g % 3; e++)
            want += (g + e) % 4;
    CHECK_EQ(rows, 1000);
    CHECK_EQ(elems, want);
}

/* ------------------------------------------------------------ statistics */

/* Statistics text of a decimal is Hive's (trailing zeros trimmed). */
static bool is_decimal_text(CombStr got, comb_i128 v, int scale)
{
    char want[64];
    orc_decimal_text(v, scale, want, sizeof want);
    return got.len == strlen(want) && memcmp(got.ptr, want, got.len) == 0;
}

TEST(orc_types_statistics)
{
    CombArena a;
    CombErr err;
    OrcReader *r;
    OrcColumnStats st;
    char path[512];
    const int64_t rows = 6000;
    comb_arena_init(&a, 4096);
    const CombType *schema = parse_type(&a, SCHEMA);
    snprintf(path, sizeof path, "%s/stats.orc", unit_tmpdir());
    CHECK_OK(write_file(path, schema, ORC_COMP_ZLIB, 20000, rows, &err), &err);
    /* independent totals of the generator */
    comb_i128 dmin = 0, dmax = 0, dsum = 0, bmin = 0, bmax = 0;
    int64_t tmin_ms = 0, tmax_ms = 0, lmin = 0, lmax = 0, ltot = 0, n = 0;
    int32_t tmin_ns = 0, tmax_ns = 0;
    int64_t dtmin = 0, dtmax = 0, binsum = 0;
    for (int64_t g = 0; g < rows; g++) {
        comb_i128 d = dec_val(g);
        if (null_at(g, F_DEC))
            continue;
        dmin = !n || d < dmin ? d : dmin;
        dmax = !n || d > dmax ? d : dmax;
        dsum += d;
        n++;
    }
    for (int64_t g = 0, m = 0; g < rows; g++) {
        if (null_at(g, F_BIG))
            continue;
        comb_i128 v = big_val(g);
        bmin = !m || v < bmin ? v : bmin;
        bmax = !m || v > bmax ? v : bmax;
        m++;
    }
    for (int64_t g = 0, m = 0; g < rows; g++) {
        int64_t s;
        int32_t ns;
        if (null_at(g, F_TS))
            continue;
        ts_val(g, &s, &ns);
        /* Java's millis from its truncated seconds: for instants before
         * 1970 with nanos beyond the millisecond, s + 1 then - 1000 */
        int64_t ms = s * 1000 + ns / 1000000;
        int32_t sub = ns % 1000000;
        if (!m || ms < tmin_ms || (ms == tmin_ms && sub < tmin_ns)) {
            tmin_ms = ms;
            tmin_ns = sub;
        }
        if (!m || ms > tmax_ms || (ms == tmax_ms && sub > tmax_ns)) {
            tmax_ms = ms;
            tmax_ns = sub;
        }
        m++;
    }
    for (int64_t g = 0, m = 0; g < rows; g++) {
        char bin[8];
        if (!null_at(g, F_DT)) {
            dtmin = !m || dt_val(g) < dtmin ? dt_val(g) : dtmin;
            dtmax = !m || dt_val(g) > dtmax ? dt_val(g) : dtmax;
            m++;
        }
        if (!null_at(g, F_BIN))
            binsum += bin_val(g, bin);
    }
    for (int64_t g = 0, m = 0; g < rows; g++) {
        if (null_at(g, F_LI))
            continue;
        lmin = !m || g % 6 < lmin ? g % 6 : lmin;
        lmax = !m || g % 6 > lmax ? g % 6 : lmax;
        ltot += g % 6;
        m++;
    }
    CHECK_OK(orc_reader_open(path, &r, &err), &err);
    CHECK_OK(orc_reader_column_stats(r, schema->children[F_DEC]->id, &st),
             &err);
    CHECK_EQ(st.n_values, n);
    CHECK(st.has_decimal && st.has_dec_sum && st.has_null);
    CHECK(is_decimal_text(st.dec_min, dmin, 2));
    CHECK(is_decimal_text(st.dec_max, dmax, 2));
    CHECK(is_decimal_text(st.dec_sum, dsum, 2));
    /* 38-digit extremes: min and max exact, the sum overflows 38 digits */
    CHECK_OK(orc_reader_column_stats(r, schema->children[F_BIG]->id, &st),
             &err);
    CHECK(st.has_decimal && is_decimal_text(st.dec_max, bmax, 18) &&
          is_decimal_text(st.dec_min, bmin, 18));
    CHECK(!st.has_dec_sum);
    CHECK_OK(orc_reader_column_stats(r, schema->children[F_TS]->id, &st),
             &err);
    CHECK(st.has_timestamp);
    CHECK_EQ(st.ts_min_ms, tmin_ms);
    CHECK_EQ(st.ts_max_ms, tmax_ms);
    CHECK_EQ(st.ts_min_nanos, tmin_ns);
    CHECK_EQ(st.ts_max_nanos, tmax_ns);
    CHECK_OK(orc_reader_column_stats(r, schema->children[F_DT]->id, &st),
             &err);
    CHECK(st.has_int && st.int_min == dtmin && st.int_max == dtmax);
    CHECK_OK(orc_reader_column_stats(r, schema->children[F_BIN]->id, &st),
             &err);
    CHECK_EQ(st.str_sum_len, binsum);
    CHECK(!st.has_string);
    CHECK_OK(orc_reader_column_stats(r, schema->children[F_LI]->id, &st),
             &err);
    CHECK(st.has_collection);
    CHECK_EQ(st.min_children, lmin);
    CHECK_EQ(st.max_children, lmax);
    CHECK_EQ(st.total_children, ltot);
    /* stripe statistics of a list add up to the file's */
    uint64_t total = 0;
    for (int s = 0; s < orc_reader_n_stripes(r); s++) {
        CHECK_OK(orc_reader_stripe_stats(r, s, schema->children[F_LI]->id,
                                         &st, &err), &err);
        total += st.total_children;
    }
    CHECK_EQ(total, ltot);
    orc_reader_close(r);
    /* the listing shows each kind as ORC Java prints it */
    char *text = orc_test_dump_text(path, ORC_DUMP_META, NULL, &err);
    CHECK(text != NULL);
    bool shown = strstr(text, "Type: " SCHEMA "\n") &&
                 strstr(text, " max: 99999999999999999999.999999999999999999\n") &&
                 strstr(text, " minChildren: 0 maxChildren: 5 totalChildren: ") &&
                 strstr(text, "Encoding column 1: DIRECT_V2\n");
    if (!shown)
        printf("%s", text);
    free(text);
    CHECK(shown);
    comb_arena_free(&a);
}

/* ------------------------------------------------ encodings as Java's */

/* The raw stream `kind` of column `id` in stripe 0; *utc: the stripe
 * names writer zone "UTC". */
static int read_stream(const char *path, int id, int kind, OrcStreamBuf *sb,
                       bool *utc, CombErr *err)
{
    OrcReader *r;
    Orc__Proto__StripeFooter *sf;
    OrcStripeInfo si;
    int rc = orc_reader_open(path, &r, err);
    if (rc)
        return rc;
    orc_reader_stripe_info(r, 0, &si);
    if ((rc = orc_reader_stripe_footer(r, 0, &sf, err))) {
        orc_reader_close(r);
        return rc;
    }
    uint64_t off = si.offset;
    rc = COMB_ENOTFOUND;
    for (size_t i = 0; i < sf->n_streams; i++) {
        if ((int)sf->streams[i]->column == id && (int)sf->streams[i]->kind == kind)
            rc = orc_reader_read_section(r, off, sf->streams[i]->length, sb,
                                         "stream", err);
        off += sf->streams[i]->length;
    }
    *utc = sf->writertimezone && strcmp(sf->writertimezone, "UTC") == 0;
    orc_stripe_footer_free(sf);
    orc_reader_close(r);
    return rc;
}

/* The first 4 integers of that stream, RLE v2. */
static int stream_ints(const char *path, int id, int kind, bool is_signed,
                       int64_t out[4], bool *utc, CombErr *err)
{
    OrcStreamBuf sb;
    OrcIn in;
    OrcIntDec *d = malloc(sizeof *d);
    memset(&sb, 0, sizeof sb);
    int rc = read_stream(path, id, kind, &sb, utc, err);
    if (rc == COMB_OK) {
        orc_in_init(&in, sb.p, sb.len, path, id, "stream");
        orc_int_dec_init(d, &in, is_signed, true);
        rc = orc_int_dec_next(d, out, 4, err);
    }
    free(d);
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    return rc;
}

TEST(orc_types_encoded_as_java_writes)
{
    CombArena a;
    CombErr err;
    OrcWriter *w;
    CombBatch b;
    OrcWriterOptions opt;
    char path[ORC_TEST_PATH_LEN];
    comb_arena_init(&a, 1024);
    CombType *root = parse_type(&a, "struct<t:timestamp,d:decimal(10,4)>");
    orc_writer_options_default(&opt);
    opt.compression = ORC_COMP_NONE;
    CHECK_OK(orc_test_writer_open("enc.orc", root, &opt, 8, path, &w, &b,
                                  &err), &err);
    /* nanos 0, 1000 (1 << 3 | 2: 1 followed by 2 + 1 zeros), 120000000
     * (12 << 3 | 6), 500000000 (5 << 3 | 7, the most zeros Java folds) */
    static const int32_t ns[4] = {0, 1000, 120000000, 500000000};
    static const int64_t want_ns[4] = {0, 1 << 3 | 2, 12 << 3 | 6,
                                       5 << 3 | 7};
    /* 1.5000 is stored as 15 at scale 1, 0 at scale 0, -0.0012 as -12 */
    static const int64_t dec[4] = {15000, 0, -12, 123456789};
    static const int64_t want_scale[4] = {1, 0, 4, 4};
    for (int i = 0; i < 4; i++) {
        b.cols[0].i64[i] = ORC_TS_BASE_UTC + i;
        b.cols[0].nanos[i] = ns[i];
        b.cols[1].dec[i] = dec[i];
    }
    b.n_rows = 4;
    CHECK_OK(orc_writer_write(w, &b, &err), &err);
    comb_batch_free(&b);
    CHECK_OK(orc_writer_close(w, &err), &err);
    int64_t got[4];
    bool utc = false;
    CHECK_OK(stream_ints(path, 1, ORC__PROTO__STREAM__KIND__SECONDARY, false,
                         got, &utc, &err), &err);
    CHECK(utc);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(got[i], want_ns[i]);
    /* seconds count from 2015-01-01 UTC */
    CHECK_OK(stream_ints(path, 1, ORC__PROTO__STREAM__KIND__DATA, true, got,
                         &utc, &err), &err);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(got[i], i);
    CHECK_OK(stream_ints(path, 2, ORC__PROTO__STREAM__KIND__SECONDARY, true,
                         got, &utc, &err), &err);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(got[i], want_scale[i]);
    /* the values: zigzag varints 15 -> 30, 0, -12 -> 23, ... */
    OrcStreamBuf sb;
    memset(&sb, 0, sizeof sb);
    CHECK_OK(read_stream(path, 2, ORC__PROTO__STREAM__KIND__DATA, &sb, &utc,
                         &err), &err);
    CHECK(sb.len >= 3 && sb.p[0] == 30 && sb.p[1] == 0 && sb.p[2] == 23);
    comb_buf_free(&sb.raw);
    comb_buf_free(&sb.dec);
    comb_arena_free(&a);
}

/* ORC Java writes an instant before 1970 with nanos beyond the
 * millisecond one second late and every reader takes it back; only the
 * second just before 1970 cannot be told from the one after (all ORC
 * readers show 1969-12-31 23:59:59.5 as 1970-01-01 00:00:00.5). */
TEST(orc_types_pre_1970_rule)
{
    CombArena a;
    CombErr err;
    OrcWriter *w;
    OrcReader *r;
    CombBatch b;
    OrcWriterOptions opt;
    char path[ORC_TEST_PATH_LEN];
    static const int64_t secs[5] = {-2, -2, -86400 * 365, -1, -1};
    static const int32_t ns[5] = {500000000, 999999, 1000000, 999999,
                                  500000000};
    static const int64_t back[5] = {-2, -2, -86400 * 365, -1, 0};
    comb_arena_init(&a, 1024);
    CombType *root = parse_type(&a, "struct<t:timestamp>");
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("pre.orc", root, &opt, 8, path, &w, &b,
                                  &err), &err);
    for (int i = 0; i < 5; i++) {
        b.cols[0].i64[i] = secs[i];
        b.cols[0].nanos[i] = ns[i];
    }
    b.n_rows = 5;
    CHECK_OK(orc_writer_write(w, &b, &err), &err);
    comb_batch_free(&b);
    CHECK_OK(orc_writer_close(w, &err), &err);
    CHECK_OK(orc_test_reader_open(path, 8, &r, &b, &err), &err);
    CHECK_OK(orc_reader_next(r, &b, &err), &err);
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(b.cols[0].i64[i], back[i]);
        CHECK_EQ(b.cols[0].nanos[i], ns[i]);
    }
    comb_batch_free(&b);
    orc_reader_close(r);
    comb_arena_free(&a);
}

TEST(orc_types_writer_refuses_bad_values)
{
    CombArena a;
    CombErr err;
    OrcWriter *w;
    CombBatch b;
    OrcWriterOptions opt;
    char path[ORC_TEST_PATH_LEN];
    comb_arena_init(&a, 1024);
    CombType *root = parse_type(&a, "struct<d:decimal(4,1),t:timestamp,"
                                    "l:array<decimal(2,0)>>");
    orc_writer_options_default(&opt);
    CHECK_OK(orc_test_writer_open("bad.orc", root, &opt, 8, path, &w, &b,
                                  &err), &err);
    b.n_rows = 2;
    b.cols[0].dec[1] = 10000;  /* 1000.0 needs 5 digits */
    CHECK_EQ(orc_writer_write(w, &b, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "decimal(4,1)") != NULL);
    b.cols[0].dec[1] = 9999;
    b.cols[1].nanos[0] = 1000000000;
    CHECK_EQ(orc_writer_write(w, &b, &err), COMB_EINVALID);
    b.cols[1].nanos[0] = -1;
    CHECK_EQ(orc_writer_write(w, &b, &err), COMB_EINVALID);
    b.cols[1].nanos[0] = 0;
    /* a bad element deep down, and elements beyond the child vector */
    b.cols[2].len[0] = 1;
    b.cols[2].children[0].dec[0] = 100;
    CHECK_EQ(orc_writer_write(w, &b, &err), COMB_EINVALID);
    b.cols[2].children[0].dec[0] = 99;
    b.cols[2].off[1] = 5;
    b.cols[2].len[1] = 100;
    CHECK_EQ(orc_writer_write(w, &b, &err), COMB_EINVALID);
    b.cols[2].len[1] = 0;
    /* nothing of the refused batches was written */
    CHECK_OK(orc_writer_write(w, &b, &err), &err);
    comb_batch_free(&b);
    CHECK_OK(orc_writer_close(w, &err), &err);
    char *text = orc_test_dump_text(path, ORC_DUMP_CONTENTS, NULL, &err);
    CHECK(text != NULL);
    bool same = strcmp(text,
                       "{\"d\": 0.0, \"t\": \"1970-01-01 00:00:00.0\", \"l\": [99]}\n"
                       "{\"d\": 999.9, \"t\": \"1970-01-01 00:00:00.0\", \"l\": []}\n") == 0;
    if (!same)
        printf("    %s", text);
    free(text);
    CHECK(same);
    comb_arena_free(&a);
}

/* ---------------------------------------------------- allocation failures */

/* Write 300 generated rows with the Nth allocation of the writer failing
 * (the batch is filled before), then read them back the same way: only
 * success or COMB_ENOMEM, no leak (LSan at exit). */
TEST(orc_types_survive_allocation_failures)
{
    CombArena a;
    CombErr err;
    CombBatch b;
    char path[512];
    uint32_t used[10] = {0};
    comb_arena_init(&a, 4096);
    const CombType *schema = parse_type(&a, SCHEMA);
    snprintf(path, sizeof path, "%s/oom.orc", unit_tmpdir());
    CHECK_EQ(orc_test_batch_init(schema, &b, 300), 0);
    for (int i = 0; i < 300; i++)
        fill_row(&b, i, i, used);
    b.n_rows = 300;
    int runs = 0, rc = COMB_ENOMEM;
    for (int64_t n = 1; rc != COMB_OK && n < 20000; n++, runs++) {
        OrcWriter *w = NULL;
        OrcWriterOptions opt;
        orc_writer_options_default(&opt);
        comb_alloc_fail_after(n);
        rc = orc_writer_open(path, schema, &opt, &w, &err);
        if (!rc && (rc = orc_writer_write(w, &b, &err)))
            orc_writer_abort(w);
        else if (!rc)
            rc = orc_writer_close(w, &err);
        comb_alloc_fail_after(0);
        CHECK(rc == COMB_OK || rc == COMB_ENOMEM);
    }
    comb_batch_free(&b);
    CHECK_OK(rc, &err);
    CHECK(runs > 20);
    CHECK(dump_matches(path, 300));
    rc = COMB_ENOMEM;
    for (int64_t n = 1; rc != COMB_OK && n < 20000; n++) {
        OrcReader *r;
        CombBatch rb;
        comb_alloc_fail_after(n);
        rc = orc_test_reader_open(path, 64, &r, &rb, &err);
        if (!rc) {
            while (!(rc = orc_reader_next(r, &rb, &err)) && rb.n_rows > 0)
                ;
            comb_batch_free(&rb);
            orc_reader_close(r);
        }
        comb_alloc_fail_after(0);
        CHECK(rc == COMB_OK || rc == COMB_ENOMEM);
    }
    comb_arena_free(&a);
}
