/*
 * colwrite.c - encoding a batch column by column into per-stripe stream
 * buffers: PRESENT bits for every row the parent struct has (dropped at
 * the stripe end when the stripe had no NULL), then values: booleans and
 * tinyints with byte RLE, other integers and dates with RLE v2, floats and
 * doubles as little-endian IEEE, strings as bytes plus RLE v2 lengths.
 * Statistics are updated in the same pass.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <string.h>

void orc_colwrite_init(OrcColWrite *c, const CombType *t)
{
    memset(c, 0, sizeof *c);
    c->type = t;
    orc_bool_enc_init(&c->present, &c->present_buf);
    orc_bool_enc_init(&c->bools, &c->data_buf);
    orc_byte_enc_init(&c->bytes, &c->data_buf);
    orc_int_enc_init(&c->ints, &c->data_buf, true);
    orc_int_enc_init(&c->lens, &c->length_buf, false);
    orc_stats_init(&c->stripe_stats, t->kind);
}

void orc_colwrite_free(OrcColWrite *c)
{
    comb_buf_free(&c->present_buf);
    comb_buf_free(&c->data_buf);
    comb_buf_free(&c->length_buf);
    orc_int_enc_free(&c->ints);
    orc_int_enc_free(&c->lens);
    orc_stats_free(&c->stripe_stats);
    comb_free(c->mask);
}

int orc_colwrite_encoding(const OrcColWrite *c)
{
    CombTypeKind k = c->type->kind;
    bool rle2 = (comb_type_is_int(k) && k != COMB_T_BOOLEAN &&
                 k != COMB_T_TINYINT) || comb_type_is_str(k);
    return rle2 ? ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2
                : ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT;
}

/* One non-null value of row i. */
static int put_value(OrcColWrite *c, const CombVector *v, int i)
{
    OrcStatsAcc *s = &c->stripe_stats;
    switch (c->type->kind) {
    case COMB_T_BOOLEAN: {
        bool b = v->i64[i] != 0;
        s->true_count += b;
        s->n_values++;
        return orc_bool_enc_add(&c->bools, b);
    }
    case COMB_T_TINYINT:
        orc_stats_add_int(s, (int8_t)v->i64[i]);
        return orc_byte_enc_add(&c->bytes, (uint8_t)v->i64[i]);
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        orc_stats_add_int(s, v->i64[i]);
        return orc_int_enc_add(&c->ints, v->i64[i]);
    case COMB_T_FLOAT: {
        float f = (float)v->f64[i];
        orc_stats_add_double(s, f);
        return comb_buf_append(&c->data_buf, &f, sizeof f);
    }
    case COMB_T_DOUBLE:
        orc_stats_add_double(s, v->f64[i]);
        return comb_buf_append(&c->data_buf, &v->f64[i], sizeof(double));
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY: {
        CombStr str = v->str[i];
        if (orc_stats_add_str(s, str.ptr, str.len) ||
            comb_buf_append(&c->data_buf, str.ptr, str.len))
            return COMB_ENOMEM;
        return orc_int_enc_add(&c->lens, str.len);
    }
    default:
        s->n_values++;  /* struct: only its presence is stored */
        return COMB_OK;
    }
}

static int mask_reserve(OrcColWrite *c, int n)
{
    if (n <= c->mask_cap)
        return COMB_OK;
    uint8_t *m = comb_realloc(c->mask, (size_t)n);
    if (!m)
        return COMB_ENOMEM;
    c->mask = m;
    c->mask_cap = n;
    return COMB_OK;
}

/* Encode this column's rows; for a struct, fill c->mask for the kids. */
static int write_own(OrcColWrite *c, const CombVector *v, int n,
                     const uint8_t *parent)
{
    bool is_struct = c->type->kind == COMB_T_STRUCT;
    if (is_struct && mask_reserve(c, n))
        return COMB_ENOMEM;
    for (int i = 0; i < n; i++) {
        if (parent && parent[i]) {
            if (is_struct)
                c->mask[i] = 1;
            continue;
        }
        bool null = v->has_nulls && v->nulls[i];
        if (is_struct)
            c->mask[i] = null;
        if (orc_bool_enc_add(&c->present, !null))
            return COMB_ENOMEM;
        if (null)
            c->stripe_stats.has_null = true;
        else if (put_value(c, v, i))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

int orc_colwrite_rows(OrcColWrite *cols, const CombType *t, const CombBatch *b,
                      int n, const uint8_t *parent, CombErr *err)
{
    OrcColWrite *c = &cols[t->id];
    if (write_own(c, &b->cols[t->id], n, parent))
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_children; i++) {
        int rc = orc_colwrite_rows(cols, t->children[i], b, n, c->mask, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

int orc_colwrite_flush(OrcColWrite *c)
{
    if (orc_bool_enc_flush(&c->present) || orc_bool_enc_flush(&c->bools) ||
        orc_byte_enc_flush(&c->bytes) || orc_int_enc_flush(&c->ints) ||
        orc_int_enc_flush(&c->lens))
        return COMB_ENOMEM;
    return COMB_OK;
}

size_t orc_colwrite_size(const OrcColWrite *c)
{
    /* values still waiting in the encoders count at full width */
    return c->present_buf.len + c->data_buf.len + c->length_buf.len +
           (size_t)(c->ints.n + c->lens.n) * 8;
}

size_t orc_colwrite_mem(const OrcColWrite *c)
{
    return sizeof *c + c->present_buf.cap + c->data_buf.cap +
           c->length_buf.cap + (size_t)(c->ints.cap + c->lens.cap) * 8 +
           (size_t)c->mask_cap + c->stripe_stats.smin.cap +
           c->stripe_stats.smax.cap;
}

void orc_colwrite_reset(OrcColWrite *c)
{
    comb_buf_clear(&c->present_buf);
    comb_buf_clear(&c->data_buf);
    comb_buf_clear(&c->length_buf);
    orc_stats_reset(&c->stripe_stats);
}
