/*
 * colread.c - decoding rows: a stripe at a time, the streams of the
 * selected columns are read and decompressed (memory is one stripe's
 * worth of those streams), then each batch walks the type tree: a column
 * first resolves its nulls (its PRESENT bits, and its parent's nulls, as a
 * child has no entries where its struct is NULL), decodes only its
 * non-null values densely and spreads them to their rows.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <stdio.h>
#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "ORC floats are little-endian; this code copies them as is");

/* Dictionaries larger than this are refused as implausible. */
#define ORC_MAX_DICT (1u << 28)

void orc_reader_cols_free(OrcReader *r)
{
    if (r->cols) {
        for (int i = 0; i < r->n_cols; i++) {
            OrcColRead *c = &r->cols[i];
            for (int s = 0; s < ORC_N_SLOTS; s++) {
                comb_buf_free(&c->s[s].raw);
                comb_buf_free(&c->s[s].dec);
            }
            comb_free(c->dict);
        }
    }
    comb_free(r->cols);
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

static int read_streams(OrcReader *r, int stripe,
                        const Orc__Proto__StripeFooter *sf, CombErr *err)
{
    OrcStripeInfo si;
    orc_reader_stripe_info(r, stripe, &si);
    uint64_t off = si.offset, end = si.offset + si.index_length +
                                    si.data_length;
    for (size_t i = 0; i < sf->n_streams; i++) {
        const Orc__Proto__Stream *st = sf->streams[i];
        int kind = st->has_kind ? (int)st->kind : 0;
        uint32_t col = st->has_column ? st->column : 0;
        uint64_t len = st->has_length ? st->length : 0;
        char what[96];
        if (len > end - off || col >= (uint32_t)r->n_cols) {
            snprintf(what, sizeof what, "stream %zu (%s) lies outside the "
                     "stripe or names no column", i, orc_stream_kind_name(kind));
            return col_corrupt(r, stripe, (int)col, what, err);
        }
        if (r->selected[col] && kind >= 0 && kind < ORC_N_SLOTS) {
            OrcStreamBuf *sb = &r->cols[col].s[kind];
            snprintf(what, sizeof what, "stripe %d column %u %s stream",
                     stripe, col, orc_stream_kind_name(kind));
            int rc = orc_reader_read_section(r, off, len, sb, what, err);
            if (rc)
                return rc;
            sb->found = true;
        }
        off += len;
    }
    return COMB_OK;
}

static void slot_in(const OrcReader *r, const OrcColRead *c, int slot,
                    OrcIn *in)
{
    const OrcStreamBuf *sb = &c->s[slot];
    orc_in_init(in, sb->found ? sb->p : NULL, sb->found ? sb->len : 0,
                r->path, c->type->id, orc_stream_kind_name(slot));
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
    slot_in(r, c, ORC__PROTO__STREAM__KIND__DICTIONARY_DATA, &data);
    orc_int_dec_init(lens, &len_in, false, v2);
    if (c->dict_size > ORC_MAX_DICT)
        return orc_in_corrupt(&len_in, "implausible dictionary size", err);
    for (size_t i = 0; i < c->dict_size;) {
        size_t n = c->dict_size - i < ORC_RLE2_MAX ? c->dict_size - i
                                                   : ORC_RLE2_MAX;
        int rc = orc_int_dec_next(lens, slice, n, err);
        if (rc)
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
        orc_byte_dec_init(&c->bytes, &in);
        return COMB_OK;
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        if (c->enc != ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT &&
            c->enc != ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2)
            return col_corrupt(r, stripe, c->type->id,
                               "integer column with dictionary encoding",
                               err);
        orc_int_dec_init(&c->ints, &in, true,
                         c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2);
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
    default:
        return COMB_OK;  /* struct: nulls only */
    }
}

static int load_stripe(OrcReader *r, int stripe, CombErr *err)
{
    Orc__Proto__StripeFooter *sf;
    r->stripe = stripe;
    r->stripe_left = 0;
    int rc = orc_reader_stripe_footer(r, stripe, &sf, err);
    if (rc)
        return rc;
    for (int i = 0; i < r->n_cols; i++)
        for (int s = 0; s < ORC_N_SLOTS; s++)
            r->cols[i].s[s].found = false;
    rc = read_streams(r, stripe, sf, err);
    for (int i = 0; i < r->n_cols && !rc; i++)
        if (r->selected[i])
            rc = setup_column(r, &r->cols[i], stripe, sf->columns[i], err);
    orc_stripe_footer_free(sf);
    if (rc == COMB_OK)
        r->stripe_left = r->footer->stripes[stripe]->numberofrows;
    return rc;
}

/* --------------------------------------------------------- batch decode */

/* Move k dense values to the rows whose nulls[] is 0 (n rows). */
static void spread(void *arr, size_t elem, const uint8_t *nulls, int n, int k)
{
    uint8_t *a = arr;
    int j = k - 1;
    for (int i = n - 1; i > j; i--) {
        if (nulls[i]) {
            memset(a + (size_t)i * elem, 0, elem);
        } else {
            memcpy(a + (size_t)i * elem, a + (size_t)j * elem, elem);
            j--;
        }
    }
}

static int read_nulls(OrcReader *r, OrcColRead *c, CombVector *v, int n,
                      const uint8_t *parent, int *k, CombErr *err)
{
    if (!c->has_present && !parent) {
        v->has_nulls = false;
        *k = n;
        return COMB_OK;
    }
    int m = n;
    if (parent) {
        m = 0;
        for (int i = 0; i < n; i++)
            m += !parent[i];
    }
    uint8_t *bits = r->scratch8;
    if (c->has_present) {
        int rc = orc_bool_dec_next(&c->present, bits, (size_t)m, err);
        if (rc)
            return rc;
    } else {
        memset(bits, 1, (size_t)m);
    }
    int j = 0, live = 0;
    for (int i = 0; i < n; i++) {
        uint8_t here = (parent && parent[i]) ? 0 : bits[j++];
        v->nulls[i] = !here;
        live += here;
    }
    v->has_nulls = live < n;
    *k = live;
    return COMB_OK;
}

static int read_direct_strings(OrcReader *r, OrcColRead *c, CombVector *v,
                               int k, CombErr *err)
{
    int64_t *lens = r->scratch64;
    int rc = orc_int_dec_next(&c->lens, lens, (size_t)k, err);
    for (int i = 0; i < k && !rc; i++)
        rc = take_string(&c->data, &c->lens.in, lens[i], "bad string length",
                         &v->str[i], err);
    return rc;
}

static int read_dict_strings(OrcReader *r, OrcColRead *c, CombVector *v,
                             int k, CombErr *err)
{
    int64_t *idx = r->scratch64;
    int rc = orc_int_dec_next(&c->ints, idx, (size_t)k, err);
    for (int i = 0; i < k && !rc; i++) {
        if ((uint64_t)idx[i] >= c->dict_size)
            return orc_in_corrupt(&c->ints.in,
                                  "dictionary index out of range", err);
        v->str[i] = c->dict[idx[i]];
    }
    return rc;
}

static int read_floats(OrcColRead *c, CombVector *v, int k, size_t width,
                       CombErr *err)
{
    const uint8_t *p = NULL;
    int rc;
    if (k == 0)
        return COMB_OK; /* an all-NULL batch has no values to take */
    rc = orc_in_take(&c->data, (size_t)k * width, &p, err);
    if (rc)
        return rc;
    if (width == 8) {
        memcpy(v->f64, p, (size_t)k * 8);
        return COMB_OK;
    }
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
    int rc = c->type->kind == COMB_T_BOOLEAN
                 ? orc_bool_dec_next(&c->bools, tmp, (size_t)k, err)
                 : orc_byte_dec_next(&c->bytes, tmp, (size_t)k, err);
    if (rc)
        return rc;
    for (int i = 0; i < k; i++)
        v->i64[i] = c->type->kind == COMB_T_BOOLEAN ? tmp[i] : (int8_t)tmp[i];
    return COMB_OK;
}

/* Decode k dense values of column c into v's payload array. */
static int read_values(OrcReader *r, OrcColRead *c, CombVector *v, int k,
                       CombErr *err)
{
    bool dict = c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY ||
                c->enc == ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2;
    if (k == 0)
        return COMB_OK;
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
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        return dict && c->type->kind != COMB_T_BINARY
                   ? read_dict_strings(r, c, v, k, err)
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
        spread(v->i64, sizeof *v->i64, v->nulls, n, k);
    else if (v->f64)
        spread(v->f64, sizeof *v->f64, v->nulls, n, k);
    else if (v->str)
        spread(v->str, sizeof *v->str, v->nulls, n, k);
}

static int read_column(OrcReader *r, const CombType *t, CombBatch *b, int n,
                       const uint8_t *parent, CombErr *err)
{
    OrcColRead *c = &r->cols[t->id];
    CombVector *v = &b->cols[t->id];
    int k, rc = read_nulls(r, c, v, n, parent, &k, err);
    if (rc || (rc = read_values(r, c, v, k, err)))
        return rc;
    spread_values(v, n, k);
    for (int i = 0; i < t->n_children && !rc; i++)
        if (r->selected[t->children[i]->id])
            rc = read_column(r, t->children[i], b, n,
                             v->has_nulls ? v->nulls : NULL, err);
    return rc;
}

/* ------------------------------------------------------------ entry */

static int check_batch(const OrcReader *r, const CombBatch *b, CombErr *err)
{
    if (b->n_cols != r->n_cols || b->capacity <= 0)
        return comb_err(err, COMB_EINVALID,
                        "batch has %d columns, ORC file '%s' has %d",
                        b->n_cols, r->path, r->n_cols);
    for (int i = 0; i < r->n_cols; i++) {
        if (!r->selected[i])
            continue;
        const CombVector *v = &b->cols[i];
        CombTypeKind k = r->by_id[i]->kind;
        if (!v->nulls || !orc_vec_fits(v, k))
            return comb_err(err, COMB_EINVALID,
                            "batch column %d has no %s payload for ORC file "
                            "'%s'", i, comb_type_name(k), r->path);
    }
    return COMB_OK;
}

static int reader_start(OrcReader *r, CombErr *err)
{
    int rc = orc_reader_check_selection(r, err);
    if (rc)
        return rc;
    r->cols = comb_calloc((size_t)r->n_cols, sizeof *r->cols);
    if (!r->cols)
        return comb_err_nomem(err);
    for (int i = 0; i < r->n_cols; i++)
        r->cols[i].type = r->by_id[i];
    r->started = true;
    return COMB_OK;
}

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
    while (r->stripe_left == 0) {
        if (r->stripe + 1 >= (int)r->footer->n_stripes)
            return COMB_OK;
        if ((rc = load_stripe(r, r->stripe + 1, err)))
            return r->failed = rc;
    }
    int n = r->stripe_left < (uint64_t)b->capacity ? (int)r->stripe_left
                                                    : b->capacity;
    if ((rc = scratch_reserve(r, n, err)) ||
        (rc = read_column(r, r->schema, b, n, NULL, err)))
        return r->failed = rc;  /* the decoders are now out of step */
    b->n_rows = n;
    r->stripe_left -= (uint64_t)n;
    r->row += (uint64_t)n;
    return COMB_OK;
}
