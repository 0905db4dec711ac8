/*
 * colread.c - decoding rows: a stripe at a time, the streams of the
 * selected columns are located (only those are ever read), and each is
 * read a piece at a time and decompressed a chunk at a time as its
 * decoder gets to it (instream.c; a dictionary wholly: its strings live as
 * long as the stripe), so memory per stream is a read piece and a chunk
 * whatever the stripe's size.  Each batch walks the type tree with the
 * batch's vectors: a column first resolves its nulls (its PRESENT bits,
 * and its parent's nulls, as a child has no entries where its struct is
 * NULL or its union holds another member), decodes only its non-null
 * values densely, straight into the vector's arrays, and spreads them to
 * their rows.  List and map elements are the dense rows of the children,
 * counted from the LENGTH stream.
 *
 * Strings point into the stream's window (the current read piece, or the
 * current chunk of a compressed stream), into its spill buffer when a
 * batch's bytes span two windows, or into the dictionary; each stays put
 * until the stream's next take, i.e. the next orc_reader_next.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/datetime.h"
#include "fs/fs.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "ORC floats are little-endian; this code copies them as is");

/* Dictionaries larger than this are refused as implausible. */
#define ORC_MAX_DICT (1u << 28)

void orc_pool_take_buf(OrcReadPool *p, int role, CombBuf *b)
{
    if (p && b->cap == 0 && p->n[role] > 0) {
        *b = p->bufs[role][--p->n[role]];
        b->len = 0;
    }
}

void orc_pool_give_buf(OrcReadPool *p, int role, CombBuf *b)
{
    if (!b->data) {
        b->len = b->cap = 0;
        return; /* holds nothing: most slots of a small file's columns */
    }
    if (p && b->cap > 0 && p->n[role] < ORC_POOL_BUFS) {
        p->bufs[role][p->n[role]++] = *b;
        *b = (CombBuf)COMB_BUF_INIT;
        return;
    }
    comb_buf_free(b);
}

void orc_pool_take(OrcReadPool *p, OrcStreamBuf *sb)
{
    orc_pool_take_buf(p, ORC_POOL_RAW, &sb->raw);
    orc_pool_take_buf(p, ORC_POOL_DEC, &sb->dec);
    orc_pool_take_buf(p, ORC_POOL_SPILL, &sb->spill);
}

void orc_pool_give(OrcReadPool *p, OrcStreamBuf *sb)
{
    orc_pool_give_buf(p, ORC_POOL_RAW, &sb->raw);
    orc_pool_give_buf(p, ORC_POOL_DEC, &sb->dec);
    orc_pool_give_buf(p, ORC_POOL_SPILL, &sb->spill);
}

void orc_reader_cols_free(OrcReader *r)
{
    if (r->cols) {
        for (int i = 0; i < r->n_cols; i++) {
            OrcColRead *c = &r->cols[i];
            for (int s = 0; s < ORC_N_SLOTS; s++)
                orc_pool_give(r->pool, &c->s[s]);
            comb_free(c->dict);
            comb_free(c->mask);
        }
    }
    if (r->pool && r->cols && r->cols_cap > r->pool->cols_cap) {
        comb_free(r->pool->cols); /* the larger array is kept */
        r->pool->cols = r->cols;
        r->pool->cols_cap = r->cols_cap;
    } else {
        comb_free(r->cols);
    }
    comb_free(r->root_nulls);
    r->root_nulls = NULL;
    r->root_cap = 0;
    comb_free(r->scratch8);
    comb_free(r->scratch64);
    r->cols = NULL;
    r->scratch8 = NULL;
    r->scratch64 = NULL;
}

static int col_corrupt(const OrcReader *r, int stripe, int col,
                       const char *what, CombErr *err)
{
    return comb_err(err, COMB_ECORRUPT,
                    "corrupt file '%s': stripe %d, column %d: %s", r->path,
                    stripe, col, what);
}

/* ------------------------------------------------------- stripe loading */

/* Where each stream of the selected columns lies (checking every stream
 * lies inside the stripe), and the span [*from, *to) that holds them all
 * (empty when none); nothing is read yet. */
static int find_streams(OrcReader *r, int stripe,
                        const Orc__Proto__StripeFooter *sf, uint64_t *from,
                        uint64_t *to, CombErr *err)
{
    OrcStripeInfo si;
    *from = UINT64_MAX;
    *to = 0;
    orc_reader_stripe_info(r, stripe, &si);
    uint64_t off = si.offset, end = si.offset + si.index_length +
                                    si.data_length;
    for (size_t i = 0; i < sf->n_streams; i++) {
        const Orc__Proto__Stream *st = sf->streams[i];
        int kind = st->has_kind ? (int)st->kind : 0;
        uint32_t col = st->has_column ? st->column : 0;
        uint64_t len = st->has_length ? st->length : 0;
        if (len > end - off || col >= (uint32_t)r->n_cols) {
            char what[96];
            snprintf(what, sizeof what, "stream %zu (%s) lies outside the "
                     "stripe or names no column", i,
                     orc_stream_kind_name(kind));
            return col_corrupt(r, stripe, (int)col, what, err);
        }
        if (r->selected[col] && kind >= 0 && kind < ORC_N_SLOTS) {
            OrcStreamBuf *sb = &r->cols[col].s[kind];
            sb->off = off;
            sb->len = (size_t)len;
            sb->found = true;
        }
        if (r->selected[col] && len) {
            *from = off < *from ? off : *from;
            *to = off + len > *to ? off + len : *to;
        }
        off += len;
    }
    return COMB_OK;
}

/* A slot with a stream in this stripe takes buffers from the pool; one
 * without (most often PRESENT: no NULLs) gives back what it held, so that
 * idle slots do not hoard the pool's 256 KiB chunk buffers and the next
 * stripe footer's read need not allocate a fresh one. */
static void slot_buffers(OrcReader *r, OrcStreamBuf *sb)
{
    if (sb->found)
        orc_pool_take(r->pool, sb);
    else
        orc_pool_give(r->pool, sb);
}

/* The stream of a slot, read piece by piece (and chunk by chunk). */
static void slot_in(OrcReader *r, OrcColRead *c, int slot, OrcIn *in)
{
    OrcStreamBuf *sb = &c->s[slot];
    const char *name = orc_stream_kind_name(slot);
    slot_buffers(r, sb);
    comb_buf_clear(&sb->raw);
    sb->chunks = (OrcChunks){
        .file = r->file, .tail = &r->tail, .off = sb->off, .end = sb->found ? sb->off + sb->len : 0,
        .start = sb->found ? sb->off : 0, .counters = &r->counters,
        .raw = &sb->raw,
        .codec = r->comp == ORC_COMP_NONE ? NULL : r->codec,
        .block = r->block, .dec = &sb->dec, .spill = &sb->spill};
    orc_in_init_chunks(in, &sb->chunks, r->path, c->type->id, name);
}

/* The stream of a slot read and decompressed whole. */
static int slot_whole(OrcReader *r, OrcColRead *c, int slot, OrcIn *in,
                      CombErr *err)
{
    OrcStreamBuf *sb = &c->s[slot];
    char what[64];
    slot_buffers(r, sb);
    snprintf(what, sizeof what, "column %d %s stream", c->type->id,
             orc_stream_kind_name(slot));
    int rc = sb->found ? orc_reader_read_section(r, sb->off, sb->len, sb,
                                                 what, err)
                       : COMB_OK;
    orc_in_init(in, sb->found && !rc ? sb->p : NULL, sb->found ? sb->len : 0,
                r->path, c->type->id, orc_stream_kind_name(slot));
    return rc;
}

static int dict_reserve(OrcColRead *c, size_t n)
{
    if (n <= c->dict_cap)
        return COMB_OK;
    size_t cap = c->dict_cap ? c->dict_cap : 256;
    while (cap < n)
        cap *= 2;
    CombStr *d = comb_realloc(c->dict, cap * sizeof *d);
    if (!d)
        return COMB_ENOMEM;
    c->dict = d;
    c->dict_cap = cap;
    return COMB_OK;
}

/* A string of len bytes taken from data; len comes from an untrusted
 * LENGTH stream (lens), so it is checked before anything is taken. */
static int take_string(OrcIn *data, const OrcIn *lens, int64_t len,
                       const char *bad_len, CombStr *out, CombErr *err)
{
    const uint8_t *p = NULL;
    if (len < 0 || len > UINT32_MAX)
        return orc_in_corrupt(lens, bad_len, err);
    int rc = orc_in_take(data, (size_t)len, &p, err);
    out->ptr = (const char *)p;
    out->len = (uint32_t)len;
    return rc;
}

/* Entries are decoded in slices and the array grows only as far as the
 * LENGTH stream really holds values, so a lying dictionarySize cannot
 * make us allocate much. */
static int load_dictionary(OrcReader *r, OrcColRead *c, bool v2,
                           CombErr *err)
{
    OrcIn len_in, data;
    OrcIntDec *lens = &c->lens;
    int64_t slice[ORC_RLE2_MAX];
    slot_in(r, c, ORC__PROTO__STREAM__KIND__LENGTH, &len_in);
    int rc = slot_whole(r, c, ORC__PROTO__STREAM__KIND__DICTIONARY_DATA,
                        &data, err);
    if (rc)
        return rc;
    orc_int_dec_init(lens, &len_in, false, v2);
    if (c->dict_size > ORC_MAX_DICT)
        return orc_in_corrupt(&len_in, "implausible dictionary size", err);
    for (size_t i = 0; i < c->dict_size;) {
        size_t n = c->dict_size - i < ORC_RLE2_MAX ? c->dict_size - i
                                                   : ORC_RLE2_MAX;
        if ((rc = orc_int_dec_next(lens, slice, n, err)))
            return rc;
        if (dict_reserve(c, i + n))
            return comb_err_nomem(err);
        for (size_t j = 0; j < n; j++, i++)
            if ((rc = take_string(&data, &len_in, slice[j],
                                  "bad dictionary entry length", &c->dict[i],
                                  err)))
                return rc;
    }
    return COMB_OK;
}

static int setup_strings(OrcReader *r, OrcColRead *c, int stripe,
                         CombErr *err)
{
    OrcIn data, len;
    bool dict = c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
                c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
    bool v2 = c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2 ||
              c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
    slot_in(r, c, ORC__PROTO__STREAM__KIND__DATA, &data);
    if (!dict) {
        slot_in(r, c, ORC__PROTO__STREAM__KIND__LENGTH, &len);
        c->data = data;
        orc_int_dec_init(&c->lens, &len, false, v2);
        return COMB_OK;
    }
    if (c->type->kind == COMB_T_BINARY)
        return col_corrupt(r, stripe, c->type->id,
                           "binary column with dictionary encoding", err);
    orc_int_dec_init(&c->ints, &data, false, v2);
    return load_dictionary(r, c, v2, err);
}

static bool enc_is_v2(int enc)
{
    return enc == ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2 ||
           enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
}

static bool enc_is_dict(int enc)
{
    return enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
           enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
}

/* Only strings have dictionaries. */
static int need_direct(const OrcReader *r, const OrcColRead *c, int stripe,
                       CombErr *err)
{
    char what[64];
    if (!enc_is_dict(c->enc))
        return COMB_OK;
    snprintf(what, sizeof what, "%s column with dictionary encoding",
             comb_type_name(c->type->kind));
    return col_corrupt(r, stripe, c->type->id, what, err);
}

/* Decimals of precision <= 18 in files of version 1.9999 are RLE v2
 * longs at the column's scale (ORC's decimal64 encoding, DATA only). */
static bool is_decimal64(const OrcReader *r, const CombType *t)
{
    return r->decimal64 && t->precision <= 18;
}

static void setup_numbers(OrcReader *r, OrcColRead *c, const OrcIn *data)
{
    OrcIn in;
    bool v2 = enc_is_v2(c->enc);
    switch (c->type->kind) {
    case COMB_T_TIMESTAMP:
        orc_int_dec_init(&c->ints, data, true, v2);
        slot_in(r, c, ORC__PROTO__STREAM__KIND__SECONDARY, &in);
        orc_int_dec_init(&c->secondary, &in, false, v2);
        return;
    case COMB_T_DECIMAL:
        if (is_decimal64(r, c->type)) {
            orc_int_dec_init(&c->ints, data, true, true);
            return;
        }
        c->data = *data;
        slot_in(r, c, ORC__PROTO__STREAM__KIND__SECONDARY, &in);
        orc_int_dec_init(&c->secondary, &in, true, v2);
        return;
    case COMB_T_LIST:
    case COMB_T_MAP:
        slot_in(r, c, ORC__PROTO__STREAM__KIND__LENGTH, &in);
        orc_int_dec_init(&c->lens, &in, false, v2);
        return;
    default:
        orc_int_dec_init(&c->ints, data, true, v2);
        return;
    }
}

static int setup_column(OrcReader *r, OrcColRead *c, int stripe,
                        const Orc__Proto__ColumnEncoding *e, CombErr *err)
{
    OrcIn in;
    c->enc = e->has_kind ? (int)e->kind : 0;
    c->dict_size = e->has_dictionarysize ? e->dictionarysize : 0;
    if (c->enc < 0 || c->enc > 3)
        return col_corrupt(r, stripe, c->type->id, "unknown encoding", err);
    /* some writers list an empty PRESENT stream: it means "no nulls" */
    c->has_present = c->s[ORC__PROTO__STREAM__KIND__PRESENT].found &&
                     c->s[ORC__PROTO__STREAM__KIND__PRESENT].len > 0;
    slot_in(r, c, ORC__PROTO__STREAM__KIND__PRESENT, &in);
    orc_bool_dec_init(&c->present, &in);
    slot_in(r, c, ORC__PROTO__STREAM__KIND__DATA, &in);
    switch (c->type->kind) {
    case COMB_T_BOOLEAN:
        orc_bool_dec_init(&c->bools, &in);
        return COMB_OK;
    case COMB_T_TINYINT:
    case COMB_T_UNION:
        orc_byte_dec_init(&c->bytes, &in);
        return COMB_OK;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        c->data = in;
        return COMB_OK;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return setup_strings(r, c, stripe, err);
    case COMB_T_STRUCT:
        return COMB_OK;  /* nulls only */
    default: {
        int rc = need_direct(r, c, stripe, err);
        if (rc == COMB_OK)
            setup_numbers(r, c, &in);
        return rc;
    }
    }
}

/* On an object store, fetch the selected columns' streams of the stripe
 * in one request (the window), instead of one or more each; above
 * ORC_WINDOW_MAX they are read stream by stream as on local disk. */
#define ORC_WINDOW_MAX ((uint64_t)256 << 20)

static int fetch_window(OrcReader *r, uint64_t from, uint64_t to,
                        CombErr *err)
{
    comb_buf_clear(&r->window.buf);
    if (from >= to || to - from > ORC_WINDOW_MAX)
        return COMB_OK;
    if (comb_buf_reserve(&r->window.buf, (size_t)(to - from)))
        return comb_err_nomem(err);
    int rc = fs_pread_all(r->file, r->window.buf.data, (size_t)(to - from),
                          from, err);
    if (rc)
        return rc;
    r->window.buf.len = (size_t)(to - from);
    r->window.off = from;
    return COMB_OK;
}

static int load_stripe(OrcReader *r, int stripe, CombErr *err)
{
    Orc__Proto__StripeFooter *sf;
    uint64_t from, to;
    r->stripe = stripe;
    r->stripe_left = 0;
    int rc = orc_reader_stripe_footer_scratch(r, stripe, &sf, err);
    if (rc)
        return rc;
    for (int i = 0; i < r->n_cols; i++)
        for (int s = 0; s < ORC_N_SLOTS; s++)
            r->cols[i].s[s].found = false;
    rc = find_streams(r, stripe, sf, &from, &to, err);
    if (!rc && r->tail.window)
        rc = fetch_window(r, from, to, err);
    if (!rc && r->need_zone)
        rc = orc_reader_use_zone(r, sf->writertimezone, err);
    for (int i = 0; i < r->n_cols && !rc; i++)
        if (r->selected[i])
            rc = setup_column(r, &r->cols[i], stripe, sf->columns[i], err);
    if (rc == COMB_OK)
        r->stripe_left = r->footer->stripes[stripe]->numberofrows;
    return rc;
}

/* --------------------------------------------------------- batch decode */

/* Move k dense values to the rows whose nulls[] is 0 (n rows), zeroing
 * the NULL rows; one function per element type, so the moves are plain
 * assignments. */
#define SPREAD_FN(name, T)                                                  \
    static void name(T *a, const uint8_t *nulls, int n, int k)              \
    {                                                                       \
        static const T zero;                                                \
        for (int i = n - 1, j = k - 1; i > j; i--)                          \
            a[i] = nulls[i] ? zero : a[j--];                                \
    }
SPREAD_FN(spread_i64, int64_t)
SPREAD_FN(spread_i32, int32_t)
SPREAD_FN(spread_f64, double)
SPREAD_FN(spread_str, CombStr)
SPREAD_FN(spread_dec, comb_i128)
SPREAD_FN(spread_u8, uint8_t)

static int scratch_reserve(OrcReader *r, int n, CombErr *err)
{
    if (n <= r->scratch_cap)
        return COMB_OK;
    comb_free(r->scratch8);
    comb_free(r->scratch64);
    r->scratch8 = comb_malloc((size_t)n);
    r->scratch64 = comb_malloc((size_t)n * sizeof *r->scratch64);
    r->scratch_cap = r->scratch8 && r->scratch64 ? n : 0;
    return r->scratch_cap ? COMB_OK : comb_err_nomem(err);
}

/* v's nulls for n rows; *k = the rows with a value.  Without a PRESENT
 * stream or a parent with NULLs nothing is touched per row. */
static int read_nulls(OrcReader *r, OrcColRead *c, CombVector *v, int n,
                      const uint8_t *parent, int *k, CombErr *err)
{
    int live = 0;
    if (!c->has_present && !parent) {
        v->has_nulls = false;
        *k = n;
        return COMB_OK;
    }
    if (!parent) {
        /* present bits straight into the mask, then flipped to NULLs */
        int rc = orc_bool_dec_next(&c->present, v->nulls, (size_t)n, err);
        if (rc)
            return rc;
        for (int i = 0; i < n; i++) {
            live += v->nulls[i];
            v->nulls[i] ^= 1;
        }
        v->has_nulls = live < n;
        *k = live;
        return COMB_OK;
    }
    int m = 0;
    for (int i = 0; i < n; i++)
        m += !parent[i];
    uint8_t *bits = r->scratch8;
    if (c->has_present) {
        int rc = orc_bool_dec_next(&c->present, bits, (size_t)m, err);
        if (rc)
            return rc;
    } else {
        memset(bits, 1, (size_t)m);
    }
    for (int i = 0, j = 0; i < n; i++) {
        uint8_t here = parent[i] ? 0 : bits[j++];
        v->nulls[i] = !here;
        live += here;
    }
    v->has_nulls = live < n;
    *k = live;
    return COMB_OK;
}

/* Lengths, checked all at once, then the batch's bytes in one take: the
 * strings point into the stream's window (or its spill buffer). */
static int read_direct_strings(OrcReader *r, OrcColRead *c, CombVector *v,
                               int k, CombErr *err)
{
    int64_t *lens = r->scratch64;
    uint64_t total = 0, high = 0;
    const uint8_t *p = NULL;
    int rc = orc_int_dec_next(&c->lens, lens, (size_t)k, err);
    if (rc)
        return rc;
    /* a negative length or one beyond 32 bits sets high bits */
    for (int i = 0; i < k; i++) {
        high |= (uint64_t)lens[i] >> 32;
        total += (uint64_t)lens[i];
    }
    if (high)
        return orc_in_corrupt(&c->lens.in, "bad string length", err);
    if ((rc = orc_in_take(&c->data, (size_t)total, &p, err)))
        return rc;
    for (int i = 0; i < k; i++) {
        v->str[i].ptr = (const char *)p;
        v->str[i].len = (uint32_t)lens[i];
        p += lens[i];
    }
    return COMB_OK;
}

static int read_dict_strings(OrcReader *r, OrcColRead *c, CombVector *v,
                             int k, CombErr *err)
{
    int64_t *idx = r->scratch64;
    uint64_t max = 0;
    int rc = orc_int_dec_next(&c->ints, idx, (size_t)k, err);
    if (rc)
        return rc;
    for (int i = 0; i < k; i++)
        max = (uint64_t)idx[i] > max ? (uint64_t)idx[i] : max;
    if (k > 0 && max >= c->dict_size)
        return orc_in_corrupt(&c->ints.in, "dictionary index out of range",
                              err);
    for (int i = 0; i < k; i++)
        v->str[i] = c->dict[idx[i]];
    return COMB_OK;
}

static int read_floats(OrcColRead *c, CombVector *v, int k, size_t width,
                       CombErr *err)
{
    const uint8_t *p = NULL;
    if (width == 8)
        return orc_in_read(&c->data, v->f64, (size_t)k * 8, err);
    int rc = orc_in_take(&c->data, (size_t)k * width, &p, err);
    if (rc)
        return rc;
    for (int i = 0; i < k; i++) {
        float f;
        memcpy(&f, p + (size_t)i * 4, 4);
        v->f64[i] = f;
    }
    return COMB_OK;
}

static int read_small_ints(OrcReader *r, OrcColRead *c, CombVector *v, int k,
                           CombErr *err)
{
    uint8_t *tmp = r->scratch8;
    int rc;
    if (c->type->kind == COMB_T_BOOLEAN) {
        if ((rc = orc_bool_dec_next(&c->bools, tmp, (size_t)k, err)))
            return rc;
        for (int i = 0; i < k; i++)
            v->i64[i] = tmp[i];
        return COMB_OK;
    }
    if ((rc = orc_byte_dec_next(&c->bytes, tmp, (size_t)k, err)))
        return rc;
    for (int i = 0; i < k; i++)
        v->i64[i] = (int8_t)tmp[i];
    return COMB_OK;
}

static const int64_t pow10_i64[19] = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
    1000000000, 10000000000, 100000000000, 1000000000000, 10000000000000,
    100000000000000, 1000000000000000, 10000000000000000,
    100000000000000000, 1000000000000000000};

/* ORC stores nanos with their trailing zeros counted in the low 3 bits:
 * n << 3 | z means n * 10^(z+1) when z > 0.  Per z: the factor, and the
 * largest n that stays below a second. */
static const uint32_t nanos_factor[8] = {1, 100, 1000, 10000, 100000,
                                         1000000, 10000000, 100000000};
static const uint64_t nanos_limit[8] = {999999999, 9999999, 999999, 99999,
                                        9999, 999, 99, 9};

/* The k encoded nanos at enc as nanoseconds at out; false when one is
 * out of range.  No branch per value: the check is folded over the run. */
static bool decode_nanos(const int64_t *enc, int32_t *out, int k)
{
    bool bad = false;
    for (int i = 0; i < k; i++) {
        uint64_t e = (uint64_t)enc[i], ns = e >> 3;
        unsigned z = (unsigned)(e & 7);
        bad |= ns > nanos_limit[z];
        out[i] = (int32_t)(ns * nanos_factor[z]);
    }
    return !bad;
}

/* Seconds from the zone's 2015-01-01 plus nanos, to the writer's wall
 * clock: as ORC C++ (reader zone GMT) and Hive (useUTCTimestamp) read
 * them, including their rule that an instant before 1970 with nanos
 * beyond the millisecond lies one second earlier (ORC Java's writer
 * truncated the milliseconds toward zero).  A zone of one offset (UTC,
 * which Hive 3+ writes) needs no lookup per value. */
static int read_timestamps(OrcReader *r, OrcColRead *c, CombVector *v, int k,
                           CombErr *err)
{
    int64_t *nanos = r->scratch64;
    const OrcTz *tz = r->zones[r->stripe_zone];
    int64_t epoch = r->zone_epochs[r->stripe_zone];
    int32_t fixed = 0;
    bool is_fixed = orc_tz_fixed(tz, &fixed), bad = false;
    int rc = orc_int_dec_next(&c->ints, v->i64, (size_t)k, err);
    if (rc || (rc = orc_int_dec_next(&c->secondary, nanos, (size_t)k, err)))
        return rc;
    if (!decode_nanos(nanos, v->nanos, k))
        return orc_in_corrupt(&c->secondary.in, "nanoseconds out of range",
                              err);
    /* unsigned sums: a value out of range fails the read, after the loop */
    for (int i = 0; i < k; i++) {
        int64_t t = v->i64[i];
        bad |= t > INT64_MAX / 4 || t < -INT64_MAX / 4;
        t = (int64_t)((uint64_t)t + (uint64_t)epoch);
        t -= t < 0 && v->nanos[i] > 999999;
        v->i64[i] = (int64_t)((uint64_t)t + (uint64_t)(int64_t)fixed);
    }
    if (bad)
        return orc_in_corrupt(&c->ints.in, "seconds out of range", err);
    if (!is_fixed)  /* fixed is 0 then */
        for (int i = 0; i < k; i++)
            v->i64[i] += orc_tz_offset(tz, v->i64[i]);
    return COMB_OK;
}

/* An unbounded zigzag base-128 varint; *fits is false when it needs more
 * than 127 bits (Hive 0.11 files may hold such values). */
static int read_wide_varint(OrcIn *in, comb_i128 *out, bool *fits,
                            CombErr *err)
{
    unsigned __int128 u = 0;
    int shift = 0;
    *fits = true;
    for (;;) {
        if (in->pos == in->len) {
            if (orc_in_at_end(in))
                return orc_in_corrupt(in, "stream ends inside a decimal",
                                      err);
            int rc = orc_in_refill(in, err);
            if (rc)
                return rc;
        }
        uint8_t b = in->p[in->pos++];
        unsigned chunk = b & 0x7f;
        if (shift < 128) {
            if (shift > 121 && (chunk >> (128 - shift)))
                *fits = false;
            u |= (unsigned __int128)chunk << shift;
        } else if (chunk) {
            *fits = false;
        }
        shift += 7;
        if (!(b & 0x80))
            break;
    }
    *out = (comb_i128)(u >> 1) ^ -(comb_i128)(u & 1);
    return COMB_OK;
}

/* A value stored at scale `from` as one of column type t, or false when it
 * does not fit the column's precision (Hive reads it as NULL). */
static bool decimal_to_column(comb_i128 u, int from, const CombType *t,
                              comb_i128 *out)
{
    return comb_dec_fits(u, COMB_DEC_MAX_DIGITS) &&
           comb_dec_rescale(u, from, (int)t->scale, out) &&
           comb_dec_fits(*out, (int)t->precision);
}

/* What the fast run of read_decimals needs of the column, and what it
 * found: whether some value must read as NULL. */
typedef struct DecRun {
    int col_scale;
    bool check;              /* precision <= 18: values are bounded */
    int64_t limit;           /* then 10^precision, else INT64_MAX */
    uint8_t worst;           /* a bad[i] was set */
} DecRun;

/* bad[i] for values from..to-1 of dec, read by read_decimals_fast, once
 * it found one beyond the precision (Hive reads such a value as NULL). */
static void mark_beyond(const comb_i128 *dec, int from, int to,
                        int64_t limit, uint8_t *bad)
{
    for (int i = from; i < to; i++)
        bad[i] = dec[i] >= limit || dec[i] <= -limit;
}

/* Values i.. of the k while the window holds 10 bytes ahead and each is a
 * varint of at most 64 bits at a scale that reaches the column's within
 * 18 digits and 64 bits (nearly every value): scaled in 64 bits, with the
 * window's position in a local.  The values beyond the precision are
 * only counted; bad[] is written for the run when there is one (the
 * caller cleared it).  Returns the first value not taken. */
static int read_decimals_fast(OrcIn *in, const int64_t *scales, int i, int k,
                              DecRun *run, comb_i128 *dec, uint8_t *bad)
{
    const uint8_t *p = in->p;
    const uint64_t col_scale = (uint64_t)run->col_scale;
    /* the stored scales that reach the column's within 18 digits */
    const uint64_t low = col_scale > 18 ? col_scale - 18 : 0;
    const uint64_t span = col_scale - low;
    const uint64_t bound = (uint64_t)run->limit - 1;
    const int from = i;
    size_t pos = in->pos;
    bool beyond = false;
    if (in->len < 10)
        return i;
    for (const size_t last = in->len - 10; i < k && pos <= last; i++) {
        uint64_t u = p[pos];
        size_t n = 1;
        int64_t val;
        if ((uint64_t)scales[i] - low > span)  /* negative ones wrap too */
            break;
        if (u >= 0x80 && !(n = orc_varint_fast(p + pos, &u)))
            break;
        if (__builtin_mul_overflow(orc_zigzag_dec(u),
                                   pow10_i64[col_scale - (uint64_t)scales[i]],
                                   &val))
            break;
        pos += n;
        dec[i] = val;
        /* |val| >= limit, as one unsigned range test */
        beyond |= (uint64_t)val + bound > 2 * bound;
    }
    in->pos = pos;
    if (beyond && run->check) {
        mark_beyond(dec, from, i, run->limit, bad);
        run->worst = 1;
    }
    return i;
}

/* One value by the 128-bit path: any scale, any varint length. */
static int read_decimal_wide(OrcColRead *c, int64_t scale, comb_i128 *dec,
                             uint8_t *bad, CombErr *err)
{
    comb_i128 w = 0;
    bool fits;
    int rc;
    if ((uint64_t)scale > COMB_MAX_DECIMAL_PRECISION)
        return orc_in_corrupt(&c->secondary.in, "decimal scale out of range",
                              err);
    if ((rc = read_wide_varint(&c->data, &w, &fits, err)))
        return rc;
    *bad = !fits || !decimal_to_column(w, (int)scale, c->type, dec);
    return COMB_OK;
}

/* Decimals densely into v->dec; bad[i] = 1 where the i-th value must read
 * as NULL, *any_bad whether one must.  Runs of common values (see
 * read_decimals_fast) alternate with single values of the 128-bit path. */
static int read_decimals(OrcReader *r, OrcColRead *c, CombVector *v, int k,
                         uint8_t *bad, bool *any_bad, CombErr *err)
{
    int64_t *scales = r->scratch64;
    int rc;
    uint8_t worst = 0;
    if (is_decimal64(r, c->type)) {
        rc = orc_int_dec_next(&c->ints, scales, (size_t)k, err);
        for (int i = 0; i < k && !rc; i++) {
            v->dec[i] = scales[i];
            bad[i] = !comb_dec_fits(v->dec[i], (int)c->type->precision);
            worst |= bad[i];
        }
        *any_bad = worst;
        return rc;
    }
    if ((rc = orc_int_dec_next(&c->secondary, scales, (size_t)k, err)))
        return rc;
    DecRun run = {.col_scale = (int)c->type->scale,
                  .check = c->type->precision <= 18};
    run.limit = run.check ? pow10_i64[c->type->precision] : INT64_MAX;
    memset(bad, 0, (size_t)k);
    for (int i = 0; i < k; i++) {
        if ((i = read_decimals_fast(&c->data, scales, i, k, &run, v->dec,
                                    bad)) == k)
            break;
        if ((rc = read_decimal_wide(c, scales[i], &v->dec[i], &bad[i], err)))
            return rc;
        run.worst |= bad[i];
    }
    *any_bad = run.worst;
    return COMB_OK;
}

/* Decode k dense values of column c into v's payload array. */
static int read_values(OrcReader *r, OrcColRead *c, CombVector *v, int k,
                       CombErr *err)
{
    switch (c->type->kind) {
    case COMB_T_BOOLEAN:
    case COMB_T_TINYINT:
        return read_small_ints(r, c, v, k, err);
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        return orc_int_dec_next(&c->ints, v->i64, (size_t)k, err);
    case COMB_T_FLOAT:
        return read_floats(c, v, k, 4, err);
    case COMB_T_DOUBLE:
        return read_floats(c, v, k, 8, err);
    case COMB_T_TIMESTAMP:
        return read_timestamps(r, c, v, k, err);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return enc_is_dict(c->enc) ? read_dict_strings(r, c, v, k, err)
                                   : read_direct_strings(r, c, v, k, err);
    default:
        return COMB_OK;
    }
}

static void spread_values(CombVector *v, int n, int k)
{
    if (k == n)
        return;
    if (v->i64)
        spread_i64(v->i64, v->nulls, n, k);
    if (v->nanos)
        spread_i32(v->nanos, v->nulls, n, k);
    if (v->f64)
        spread_f64(v->f64, v->nulls, n, k);
    if (v->str)
        spread_str(v->str, v->nulls, n, k);
    if (v->dec)
        spread_dec(v->dec, v->nulls, n, k);
    if (v->tag)
        spread_u8(v->tag, v->nulls, n, k);
}

static int read_column(OrcReader *r, const CombType *t, CombVector *v, int n,
                       const uint8_t *parent, CombErr *err);

/* Decimal values, then NULL where they do not fit. */
static int read_decimal_column(OrcReader *r, OrcColRead *c, CombVector *v,
                               int n, int k, CombErr *err)
{
    uint8_t *bad = r->scratch8;  /* free again once the nulls are read */
    bool any_bad = false;
    int rc = read_decimals(r, c, v, k, bad, &any_bad, err);
    if (rc)
        return rc;
    spread_values(v, n, k);
    if (!any_bad)
        return COMB_OK;
    for (int i = 0, j = 0; i < n; i++) {
        if (comb_vec_is_null(v, i))
            continue;
        if (bad[j++]) {
            comb_vec_nulls_materialize(v, n);
            comb_vec_set_null(v, i);
        }
    }
    return COMB_OK;
}

/* List and map rows: off/len from the LENGTH stream (NULL rows hold no
 * elements), then the elements as dense child rows. */
static int read_collection(OrcReader *r, OrcColRead *c, const CombType *t,
                           CombVector *v, int n, int k, CombErr *err)
{
    int64_t *lens = r->scratch64;
    uint64_t total = 0;
    int rc = orc_int_dec_next(&c->lens, lens, (size_t)k, err);
    if (rc)
        return rc;
    for (int i = 0, j = 0; i < n; i++) {
        v->off[i] = (uint32_t)total;
        v->len[i] = 0;
        if (comb_vec_is_null(v, i))
            continue;
        if (lens[j] < 0)
            return orc_in_corrupt(&c->lens.in, "negative length", err);
        total += (uint64_t)lens[j];
        if (total > ORC_MAX_BATCH_ELEMENTS)
            return comb_err(err, COMB_EUNSUPPORTED,
                            "ORC file '%s', column %d: more than %d list or "
                            "map elements in one batch of rows", r->path,
                            t->id, ORC_MAX_BATCH_ELEMENTS);
        v->len[i] = (uint32_t)lens[j++];
    }
    for (int i = 0; i < t->n_children; i++) {
        if (!r->selected[t->children[i]->id])
            continue;
        if (comb_vec_reserve_rows(&v->children[i], (int)total))
            return comb_err_nomem(err);
        if ((rc = read_column(r, t->children[i], &v->children[i], (int)total,
                              NULL, err)))
            return rc;
    }
    return COMB_OK;
}

/* Union rows: a tag each; member m has values only in rows tagged m. */
static int read_union(OrcReader *r, OrcColRead *c, const CombType *t,
                      CombVector *v, int n, int k, CombErr *err)
{
    int rc = orc_byte_dec_next(&c->bytes, v->tag, (size_t)k, err);
    if (rc)
        return rc;
    for (int i = 0; i < k; i++)
        if (v->tag[i] >= t->n_children)
            return orc_in_corrupt(&c->bytes.in, "union tag out of range",
                                  err);
    spread_values(v, n, k);
    if (n > c->mask_cap) {
        uint8_t *m = comb_realloc(c->mask, (size_t)n);
        if (!m)
            return comb_err_nomem(err);
        c->mask = m;
        c->mask_cap = n;
    }
    for (int m = 0; m < t->n_children && !rc; m++) {
        if (!r->selected[t->children[m]->id])
            continue;
        for (int i = 0; i < n; i++)
            c->mask[i] = comb_vec_is_null(v, i) || v->tag[i] != m;
        rc = read_column(r, t->children[m], &v->children[m], n, c->mask, err);
    }
    return rc;
}

static int read_column(OrcReader *r, const CombType *t, CombVector *v, int n,
                       const uint8_t *parent, CombErr *err)
{
    OrcColRead *c = &r->cols[t->id];
    int k, rc = scratch_reserve(r, n, err);
    if (rc || (rc = read_nulls(r, c, v, n, parent, &k, err)))
        return rc;
    switch (t->kind) {
    case COMB_T_DECIMAL:
        return read_decimal_column(r, c, v, n, k, err);
    case COMB_T_LIST:
    case COMB_T_MAP:
        return read_collection(r, c, t, v, n, k, err);
    case COMB_T_UNION:
        return read_union(r, c, t, v, n, k, err);
    case COMB_T_STRUCT:
        for (int i = 0; i < t->n_children && !rc; i++)
            if (r->selected[t->children[i]->id])
                rc = read_column(r, t->children[i], &v->children[i], n,
                                 v->has_nulls ? v->nulls : NULL, err);
        return rc;
    default:
        if (k > 0 && (rc = read_values(r, c, v, k, err)))
            return rc;
        spread_values(v, n, k);
        return COMB_OK;
    }
}

/* The root struct's fields are the batch's columns; NULL root rows (no
 * writer makes them) read as NULL in every field. */
static int read_root(OrcReader *r, CombBatch *b, int n, CombErr *err)
{
    const CombType *root = r->schema;
    const uint8_t *parent = NULL;
    int rc = COMB_OK;
    if (root->kind != COMB_T_STRUCT)
        return read_column(r, root, &b->cols[0], n, NULL, err);
    if (r->cols[0].has_present) {
        CombVector nulls = {0};
        int k;
        if (n > r->root_cap) {
            uint8_t *m = comb_realloc(r->root_nulls, (size_t)n);
            if (!m)
                return comb_err_nomem(err);
            r->root_nulls = m;
            r->root_cap = n;
        }
        nulls.nulls = r->root_nulls;
        if ((rc = scratch_reserve(r, n, err)) ||
            (rc = read_nulls(r, &r->cols[0], &nulls, n, NULL, &k, err)))
            return rc;
        parent = nulls.has_nulls ? r->root_nulls : NULL;
    }
    for (int i = 0; i < root->n_children && !rc; i++)
        if (r->selected[root->children[i]->id])
            rc = read_column(r, root->children[i], &b->cols[i], n, parent,
                             err);
    return rc;
}

/* ------------------------------------------------- row group skipping */

/* The decoder whose window a stream of the position layout moves. */
static OrcIn *slot_window(OrcColRead *c, const OrcPosStream *ps)
{
    switch (ps->slot) {
    case ORC__PROTO__STREAM__KIND__PRESENT:
        return &c->present.bytes.in;
    case ORC__PROTO__STREAM__KIND__LENGTH:
        return &c->lens.in;
    case ORC__PROTO__STREAM__KIND__SECONDARY:
        return &c->secondary.in;
    default:
        break;
    }
    if (ps->form == ORC_POS_BYTES)
        return &c->data;
    if (ps->form == ORC_POS_BOOL)
        return &c->bools.bytes.in;
    CombTypeKind k = c->type->kind;
    return k == COMB_T_TINYINT || k == COMB_T_UNION ? &c->bytes.in
                                                    : &c->ints.in;
}

/* Restart the stream's decoder on its moved window and skip the values of
 * the run before the position (p: the numbers after the place). */
static int restart_decoder(OrcColRead *c, const OrcPosStream *ps,
                           const OrcIn *moved, const uint64_t *p,
                           CombErr *err)
{
    CombTypeKind k = c->type->kind;
    OrcIn copy = *moved;  /* the decoder's own window: init clears it */
    const OrcIn *in = &copy;
    if (ps->form == ORC_POS_BYTES)
        return COMB_OK;
    if (ps->form == ORC_POS_BOOL) {
        OrcBoolDec *d = ps->slot == ORC__PROTO__STREAM__KIND__PRESENT
                            ? &c->present : &c->bools;
        orc_bool_dec_init(d, in);
        int rc = orc_byte_dec_skip(&d->bytes, p[0], err);
        return rc ? rc : orc_bool_dec_skip(d, p[1], err);
    }
    if (ps->slot == ORC__PROTO__STREAM__KIND__DATA &&
        (k == COMB_T_TINYINT || k == COMB_T_UNION)) {
        orc_byte_dec_init(&c->bytes, in);
        return orc_byte_dec_skip(&c->bytes, p[0], err);
    }
    OrcIntDec *d = ps->slot == ORC__PROTO__STREAM__KIND__LENGTH ? &c->lens
                 : ps->slot == ORC__PROTO__STREAM__KIND__SECONDARY
                     ? &c->secondary : &c->ints;
    orc_int_dec_init(d, in, d->is_signed, d->v2);
    return orc_int_dec_skip(d, p[0], err);
}

/* Move every stream of a column to the start of row group g; reading
 * ahead stops where group `until` starts (none when past the stripe). */
static int seek_column(OrcReader *r, OrcColRead *c, uint32_t g,
                       uint32_t until, CombErr *err)
{
    OrcPosStream ps[ORC_POS_MAX_STREAMS];
    bool compressed = r->comp != ORC_COMP_NONE;
    int n = orc_pos_layout(c->type->kind, c->enc, c->has_present,
                           is_decimal64(r, c->type), ps);
    static const uint64_t start[4 * ORC_POS_MAX_STREAMS];
    size_t np, nq = 0;
    const uint64_t *p = g == 0 ? start
        : orc_stripe_index_positions(r->index, c->type->id, (int)g, &np);
    const uint64_t *q = until < r->n_groups
        ? orc_stripe_index_positions(r->index, c->type->id, (int)until, &nq)
        : NULL;
    for (int i = 0, at = 0; i < n; i++) {
        OrcIn *in = slot_window(c, &ps[i]);
        uint64_t soft = q ? q[at] : ORC_NO_SOFT_END;
        int rc = orc_in_seek(in, p[at], compressed ? p[at + 1] : 0, soft,
                             err);
        int place = compressed ? 2 : 1;
        if (rc || (rc = restart_decoder(c, &ps[i], in, p + at + place, err)))
            return rc;
        at += orc_pos_width(ps[i].form, compressed);
    }
    return COMB_OK;
}

static uint32_t group_rows(const OrcReader *r, uint32_t g)
{
    uint64_t stride = orc_reader_row_index_stride(r);
    uint64_t rows = r->footer->stripes[r->stripe]->numberofrows;
    uint64_t first = (uint64_t)g * stride;
    return (uint32_t)(rows - first < stride ? rows - first : stride);
}

/* Position the scan at the next run of kept groups of the stripe; false
 * when none is left. */
static int next_run(OrcReader *r, bool *found, CombErr *err)
{
    uint32_t g = r->next_group, end;
    while (g < r->n_groups && !r->keep[g])
        g++;
    r->counters.groups_skipped += g - r->next_group;
    *found = g < r->n_groups;
    if (!*found) {
        r->next_group = g;
        return COMB_OK;
    }
    uint64_t rows = 0;
    for (end = g; end < r->n_groups && r->keep[end]; end++)
        rows += group_rows(r, end);
    r->counters.groups_read += end - g;
    for (int i = 0; i < r->n_cols; i++)
        if (r->selected[i]) {
            int rc = seek_column(r, &r->cols[i], g, end, err);
            if (rc)
                return rc;
        }
    r->row = r->stripe_row0 + (uint64_t)g * orc_reader_row_index_stride(r);
    r->stripe_left = rows;
    r->next_group = end;
    return COMB_OK;
}

/* Whether every selected column of the stripe has a sound row index. */
static int index_usable(OrcReader *r, int stripe, bool *ok, CombErr *err)
{
    const OrcStripeIndex *x;
    int rc = orc_reader_stripe_index(r, stripe, r->selected, false, &x, err);
    *ok = rc == COMB_OK;
    for (int i = 0; i < r->n_cols && *ok; i++)
        *ok = !r->selected[i] || orc_stripe_index_has(x, i);
    return rc;
}

/* Ask the filter which groups of the stripe to keep: *kept of them. */
static int ask_filter(OrcReader *r, int stripe, uint32_t *kept,
                      CombErr *err)
{
    uint32_t n = orc_reader_stripe_groups(r, stripe);
    if (n > r->keep_cap) {
        uint8_t *k = comb_realloc(r->keep, n);
        if (!k)
            return comb_err_nomem(err);
        r->keep = k;
        r->keep_cap = n;
    }
    r->n_groups = n;
    memset(r->keep, 1, n);
    if (r->filter) {
        int rc = r->filter(r->filter_ctx, r, stripe, n, r->keep, err);
        if (rc)
            return rc;
    }
    *kept = 0;
    for (uint32_t g = 0; g < n; g++)
        *kept += r->keep[g] != 0;
    return COMB_OK;
}

/* Start stripe s: skipped whole, read whole, or read by kept runs. */
static int enter_stripe(OrcReader *r, int s, CombErr *err)
{
    uint32_t kept = 0;
    uint64_t rows = r->footer->stripes[s]->numberofrows;
    r->stripe_row0 = r->stripe < 0 ? 0 : r->stripe_row0 +
                     r->footer->stripes[r->stripe]->numberofrows;
    r->seeking = false;
    if (r->gate && !r->gate(r->gate_ctx)) {
        /* another reader's stripe: not read, and not counted as skipped */
        r->stripe = s;
        r->stripe_left = 0;
        r->row = r->stripe_row0 + rows;
        return COMB_OK;
    }
    int rc = ask_filter(r, s, &kept, err);
    if (rc)
        return rc;
    if (kept == 0) {
        r->stripe = s;
        r->stripe_left = 0;
        r->row = r->stripe_row0 + rows;
        r->counters.stripes_skipped++;
        r->counters.groups_skipped += r->n_groups;
        return COMB_OK;
    }
    if ((rc = load_stripe(r, s, err)))
        return rc;
    r->row = r->stripe_row0;
    r->counters.stripes_read++;
    bool ok = false;
    if (kept < r->n_groups && (rc = index_usable(r, s, &ok, err)))
        return rc;
    if (!ok) {
        r->counters.groups_read += r->n_groups;
        return COMB_OK;
    }
    r->seeking = true;
    r->next_group = 0;
    r->stripe_left = 0;
    bool found;
    return next_run(r, &found, err);
}

/* Make rows available: the next kept run, else the next stripe; none
 * left at the end of the file. */
static int advance(OrcReader *r, CombErr *err)
{
    while (r->stripe_left == 0) {
        bool found = false;
        int rc;
        if (r->seeking && (rc = next_run(r, &found, err)))
            return rc;
        if (found)
            continue;
        if (r->stripe + 1 >= (int)r->footer->n_stripes)
            return COMB_OK;
        if ((rc = enter_stripe(r, r->stripe + 1, err)))
            return rc;
    }
    return COMB_OK;
}

void orc_reader_set_filter(OrcReader *r, OrcGroupFilter f, void *ctx)
{
    r->filter = f;
    r->filter_ctx = ctx;
}

void orc_reader_set_gate(OrcReader *r, OrcStripeGate gate, void *ctx)
{
    r->gate = gate;
    r->gate_ctx = ctx;
}

uint64_t orc_reader_batch_row(const OrcReader *r) { return r->batch_row; }

uint64_t orc_reader_column_streak(const OrcReader *r, int column)
{
    if (!r->cols || column < 0 || column >= r->n_cols ||
        !r->selected[column])
        return 0;
    switch (r->by_id[column]->kind) {
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        return orc_int_dec_streak(&r->cols[column].ints);
    default:
        return 0;
    }
}

void orc_reader_counters(const OrcReader *r, OrcReadCounters *out)
{
    *out = r->counters;
}

/* ------------------------------------------------------------ entry */

static int check_batch(const OrcReader *r, const CombBatch *b, CombErr *err)
{
    int n = orc_batch_n_cols(r->schema);
    if (b->n_cols != n || b->capacity <= 0)
        return comb_err(err, COMB_EINVALID,
                        "batch has %d columns, ORC file '%s' has %d",
                        b->n_cols, r->path, n);
    for (int i = 0; i < n; i++) {
        const CombType *t = orc_batch_col_type(r->schema, i);
        if (r->selected[t->id] && !orc_vec_fits(&b->cols[i], t))
            return comb_err(err, COMB_EINVALID,
                            "batch column %d is no %s vector for ORC file "
                            "'%s'", i, comb_type_name(t->kind), r->path);
    }
    return COMB_OK;
}

/* The integer decoders' value buffers (4 KiB each, three per column)
 * are written before they are read: everything else starts zeroed. */
_Static_assert(offsetof(OrcColRead, lens) ==
                       offsetof(OrcColRead, ints) + sizeof(OrcIntDec) &&
                   offsetof(OrcColRead, secondary) ==
                       offsetof(OrcColRead, lens) + sizeof(OrcIntDec) &&
                   offsetof(OrcColRead, data) ==
                       offsetof(OrcColRead, secondary) + sizeof(OrcIntDec),
               "col_state_clear: the three decoders lie between bytes and "
               "data");

static void col_state_clear(OrcColRead *c)
{
    memset(c, 0, offsetof(OrcColRead, ints));
    memset(&c->ints, 0, offsetof(OrcIntDec, buf));
    memset(&c->lens, 0, offsetof(OrcIntDec, buf));
    memset(&c->secondary, 0, offsetof(OrcIntDec, buf));
    memset(&c->data, 0, sizeof *c - offsetof(OrcColRead, data));
}

/* The column states: a pooled array when it is large enough (one malloc
 * and no page faults per small file of a scan over many deltas). */
static int reader_start(OrcReader *r, CombErr *err)
{
    OrcReadPool *p = r->pool;
    if (p && p->cols && p->cols_cap >= r->n_cols) {
        r->cols = p->cols;
        r->cols_cap = p->cols_cap;
        p->cols = NULL;
        p->cols_cap = 0;
    } else if ((r->cols = comb_malloc((size_t)r->n_cols * sizeof *r->cols))) {
        r->cols_cap = r->n_cols;
    } else {
        return comb_err_nomem(err);
    }
    for (int i = 0; i < r->n_cols; i++) {
        col_state_clear(&r->cols[i]);
        r->cols[i].type = r->by_id[i];
        if (r->selected[i] && r->by_id[i]->kind == COMB_T_TIMESTAMP)
            r->need_zone = true;
    }
    r->started = true;
    return COMB_OK;
}

int orc_reader_next(OrcReader *r, CombBatch *b, CombErr *err)
{
    if (r->failed)
        return comb_err(err, r->failed,
                        "ORC file '%s': an earlier read failed", r->path);
    int rc = check_batch(r, b, err);
    if (rc || (!r->started && (rc = reader_start(r, err))))
        return rc;
    b->n_rows = 0;
    b->use_sel = false;
    b->n_sel = 0;
    if ((rc = advance(r, err)))
        return r->failed = rc;
    if (r->stripe_left == 0)
        return COMB_OK;
    int n = r->stripe_left < (uint64_t)b->capacity ? (int)r->stripe_left
                                                    : b->capacity;
    if ((rc = read_root(r, b, n, err)))
        return r->failed = rc;  /* the decoders are now out of step */
    b->n_rows = n;
    r->batch_row = r->row;
    r->stripe_left -= (uint64_t)n;
    r->row += (uint64_t)n;
    return COMB_OK;
}
