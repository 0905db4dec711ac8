/*
 * colwrite.c - encoding rows of tree vectors into per-stripe stream
 * buffers, the way ORC Java (and so Hive) writes each kind: PRESENT bits
 * for every row the parent has (dropped at the stripe end when the stripe
 * had no NULL), then values: booleans and tinyints with byte RLE, other
 * integers and dates with RLE v2, floats and doubles as little-endian
 * IEEE, strings and binaries as bytes plus RLE v2 lengths (strings,
 * varchars and chars of a stripe with few distinct values as a sorted
 * dictionary instead: dictwrite.c), timestamps as
 * seconds from 2015-01-01 UTC (RLE v2) plus nanos with their trailing
 * zeros folded (RLE v2, SECONDARY), decimals as zigzag varints of the value
 * with its trailing fraction zeros trimmed plus that scale (RLE v2,
 * SECONDARY), lists and maps as RLE v2 lengths with their elements in the
 * children.  Columns visit rows through index lists, so a struct hands its
 * children the rows where it is present and a list the rows of its
 * elements.  Statistics are updated in the same pass.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"
#include "common/datetime.h"

#include <string.h>

/* ORC dictionary-encodes strings, varchars and chars, never binaries. */
static bool dict_kind(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR;
}

void orc_colwrite_init(OrcColWrite *c, const CombType *t,
                       double dict_threshold)
{
    memset(c, 0, sizeof *c);
    c->type = t;
    orc_dict_init(&c->dict, dict_kind(t->kind) ? dict_threshold : 0);
    orc_bool_enc_init(&c->present, &c->present_buf);
    orc_bool_enc_init(&c->bools, &c->data_buf);
    orc_byte_enc_init(&c->bytes, &c->data_buf);
    orc_int_enc_init(&c->ints, &c->data_buf, true);
    orc_int_enc_init(&c->lens, &c->length_buf, false);
    /* nanos are unsigned, decimal scales signed */
    orc_int_enc_init(&c->secondary, &c->secondary_buf,
                     t->kind == COMB_T_DECIMAL);
    orc_stats_init(&c->stripe_stats, t);
    orc_stats_init(&c->group_stats, t);
}

void orc_colwrite_free(OrcColWrite *c)
{
    comb_buf_free(&c->present_buf);
    comb_buf_free(&c->data_buf);
    comb_buf_free(&c->length_buf);
    comb_buf_free(&c->secondary_buf);
    comb_buf_free(&c->dict_buf);
    orc_dict_free(&c->dict);
    orc_int_enc_free(&c->ints);
    orc_int_enc_free(&c->lens);
    orc_int_enc_free(&c->secondary);
    orc_stats_free(&c->stripe_stats);
    orc_stats_free(&c->group_stats);
    comb_free(c->rows);
    comb_free(c->marks);
    comb_free(c->pb_end);
    comb_buf_free(&c->group_pb);
    comb_free(c->bloom);
    comb_buf_free(&c->bloom_pb);
}

int orc_colwrite_encoding(const OrcColWrite *c)
{
    switch (c->type->kind) {
    case COMB_T_BOOLEAN:
    case COMB_T_TINYINT:
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
    case COMB_T_STRUCT:
        return ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        return c->use_dict ? ORC__PROTO__COLUMN_ENCODING__KIND__DICTIONARY_V2
                           : ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2;
    default:
        return ORC__PROTO__COLUMN_ENCODING__KIND__DIRECT_V2;
    }
}

/* ------------------------------------------------------------- checking */

static int check_row(const CombType *t, const CombVector *v, int row,
                     const char *path, CombErr *err)
{
    if (t->kind == COMB_T_DECIMAL &&
        !comb_dec_fits(v->dec[row], (int)t->precision))
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': column %d: a value does not fit "
                        "decimal(%u,%u)", path, t->id, t->precision,
                        t->scale);
    if (t->kind == COMB_T_TIMESTAMP &&
        (v->nanos[row] < 0 || v->nanos[row] >= COMB_NANOS_PER_SECOND ||
         v->i64[row] > INT64_MAX / 1000 - 1 ||
         v->i64[row] < INT64_MIN / 1000 + 1))
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': column %d: timestamp seconds %lld "
                        "or nanoseconds %d out of range", path, t->id,
                        (long long)v->i64[row], (int)v->nanos[row]);
    if ((t->kind == COMB_T_LIST || t->kind == COMB_T_MAP) &&
        (uint64_t)v->off[row] + v->len[row] >
            (uint64_t)v->children[0].capacity)
        return comb_err(err, COMB_EINVALID,
                        "ORC writer '%s': column %d: elements beyond the "
                        "child vector", path, t->id);
    return COMB_OK;
}

/* Whether check_row can refuse a value somewhere in t's subtree: only
 * decimals, timestamps, lists and maps have values out of range. */
static bool subtree_checked(const CombType *t)
{
    if (t->kind == COMB_T_DECIMAL || t->kind == COMB_T_TIMESTAMP ||
        t->kind == COMB_T_LIST || t->kind == COMB_T_MAP)
        return true;
    for (int f = 0; f < t->n_children; f++)
        if (subtree_checked(t->children[f]))
            return true;
    return false;
}

int orc_colwrite_check(const CombType *t, const CombVector *v,
                       const uint32_t *rows, int n, const char *path,
                       CombErr *err)
{
    if (!subtree_checked(t))
        return COMB_OK; /* no row to visit (an ACID row of ints and strings) */
    for (int i = 0; i < n; i++) {
        int row = (int)rows[i], rc;
        if (comb_vec_is_null(v, row))
            continue;
        if ((rc = check_row(t, v, row, path, err)))
            return rc;
        if (t->kind == COMB_T_STRUCT) {
            for (int f = 0; f < t->n_children; f++)
                if ((rc = orc_colwrite_check(t->children[f], &v->children[f],
                                             rows + i, 1, path, err)))
                    return rc;
        } else if (t->kind == COMB_T_LIST || t->kind == COMB_T_MAP) {
            for (uint32_t e = 0; e < v->len[row]; e++) {
                uint32_t elem = v->off[row] + e;
                for (int f = 0; f < t->n_children; f++)
                    if ((rc = orc_colwrite_check(t->children[f],
                                                 &v->children[f], &elem, 1,
                                                 path, err)))
                        return rc;
            }
        }
    }
    return COMB_OK;
}

/* --------------------------------------------------------------- values */

/* ORC Java's formatNanos: trailing zeros beyond two are counted in the
 * low 3 bits (n << 3 | z stands for n * 10^(z+1)). */
static uint64_t format_nanos(int32_t nanos)
{
    uint64_t n = (uint64_t)nanos;
    int zeros = 1;
    if (n == 0)
        return 0;
    if (n % 100 != 0)
        return n << 3;
    n /= 100;
    while (n % 10 == 0 && zeros < 7) {
        n /= 10;
        zeros++;
    }
    return n << 3 | (uint64_t)zeros;
}

/* Wall-clock seconds and nanos as ORC Java writes them with writer zone
 * UTC: its seconds are milliseconds / 1000 truncated toward zero, which
 * for instants before 1970 with nanos beyond the millisecond is one more
 * than the floor (readers subtract it again). */
static int put_timestamp(OrcColWrite *c, int64_t secs, int32_t nanos)
{
    int64_t written = secs < 0 && nanos > 999999 ? secs + 1 : secs;
    int64_t millis = written * 1000 + nanos / 1000000;
    if (millis < 0 && nanos > 999999)
        millis -= 1000;
    orc_stats_add_timestamp(&c->group_stats, millis, nanos % 1000000);
    ORC_BLOOM_ADD(c, orc_long_hash(orc_timestamp_bloom_millis(secs, nanos)));
    if (orc_int_enc_add(&c->ints, written - ORC_TS_BASE_UTC) ||
        orc_int_enc_add(&c->secondary, (int64_t)format_nanos(nanos)))
        return COMB_ENOMEM;
    return COMB_OK;
}

/* The value with its trailing fraction zeros trimmed (Hive's normalized
 * HiveDecimal), as a zigzag base-128 varint, and that scale. */
static int put_decimal(OrcColWrite *c, comb_i128 v)
{
    int scale = (int)c->type->scale;
    uint8_t bytes[20];
    size_t n = 0;
    orc_stats_add_decimal(&c->group_stats, v);
    if (c->bloom) {
        char text[64];
        size_t len = orc_decimal_text(v, scale, text, sizeof text);
        ORC_BLOOM_ADD(c, orc_murmur3_64(text, len));
    }
    while (scale > 0 && v % 10 == 0) {
        v /= 10;
        scale--;
    }
    unsigned __int128 u = ((unsigned __int128)v << 1) ^
                          (unsigned __int128)(v >> 127);
    do {
        bytes[n] = (uint8_t)(u & 0x7f);
        u >>= 7;
        if (u)
            bytes[n] |= 0x80;
        n++;
    } while (u);
    if (comb_buf_append(&c->data_buf, bytes, n) ||
        orc_int_enc_add(&c->secondary, scale))
        return COMB_ENOMEM;
    return COMB_OK;
}

/* One non-null value of row i. */
static int put_value(OrcColWrite *c, const CombVector *v, int i)
{
    OrcStatsAcc *s = &c->group_stats;
    switch (c->type->kind) {
    case COMB_T_BOOLEAN: {
        bool b = v->i64[i] != 0;
        s->true_count += b;
        s->n_values++;
        ORC_BLOOM_ADD(c, orc_long_hash(b));
        return orc_bool_enc_add(&c->bools, b);
    }
    case COMB_T_TINYINT:
        orc_stats_add_int(s, (int8_t)v->i64[i]);
        ORC_BLOOM_ADD(c, orc_long_hash((int8_t)v->i64[i]));
        return orc_byte_enc_add(&c->bytes, (uint8_t)v->i64[i]);
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
    case COMB_T_DATE:
        orc_stats_add_int(s, v->i64[i]);
        ORC_BLOOM_ADD(c, orc_long_hash(v->i64[i]));
        return orc_int_enc_add(&c->ints, v->i64[i]);
    case COMB_T_FLOAT: {
        float f = (float)v->f64[i];
        orc_stats_add_double(s, f);
        ORC_BLOOM_ADD(c, orc_double_hash(f));
        return comb_buf_append(&c->data_buf, &f, sizeof f);
    }
    case COMB_T_DOUBLE:
        orc_stats_add_double(s, v->f64[i]);
        ORC_BLOOM_ADD(c, orc_double_hash(v->f64[i]));
        return comb_buf_append(&c->data_buf, &v->f64[i], sizeof(double));
    case COMB_T_TIMESTAMP:
        return put_timestamp(c, v->i64[i], v->nanos[i]);
    case COMB_T_DECIMAL:
        return put_decimal(c, v->dec[i]);
    case COMB_T_LIST:
    case COMB_T_MAP:
        orc_stats_add_children(s, v->len[i]);
        return orc_int_enc_add(&c->lens, v->len[i]);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY: {
        CombStr str = v->str[i];
        uint64_t at = c->data_buf.len;
        ORC_BLOOM_ADD(c, orc_murmur3_64(str.ptr, str.len));
        if (orc_stats_add_str(s, str.ptr, str.len) ||
            comb_buf_append(&c->data_buf, str.ptr, str.len) ||
            orc_dict_add(&c->dict, &c->data_buf, at, str.len))
            return COMB_ENOMEM;
        return orc_int_enc_add(&c->lens, str.len);
    }
    default:
        s->n_values++;  /* struct: only its presence is stored */
        return COMB_OK;
    }
}

/* -------------------------------------------------------------- columns */

static int rows_reserve(OrcColWrite *c, uint64_t n)
{
    if (n <= (uint64_t)c->rows_cap)
        return COMB_OK;
    if (n > INT32_MAX)
        return COMB_EINVALID;
    uint64_t cap = c->rows_cap ? (uint64_t)c->rows_cap : 64;
    while (cap < n)
        cap *= 2;
    uint32_t *r = comb_realloc(c->rows, (size_t)cap * sizeof *r);
    if (!r)
        return COMB_ENOMEM;
    c->rows = r;
    c->rows_cap = (int)(cap > INT32_MAX ? INT32_MAX : cap);
    return COMB_OK;
}

/* Presence and values of rows[0..n); the rows the children get go to
 * c->rows: a struct's present rows, a list's or map's element rows. */
static int write_own(OrcColWrite *c, const CombVector *v,
                     const uint32_t *rows, int n, int *n_child)
{
    CombTypeKind kind = c->type->kind;
    uint64_t total = 0;
    int rc;
    for (int i = 0; i < n; i++) {
        int row = (int)rows[i];
        bool null = comb_vec_is_null(v, row);
        if (orc_bool_enc_add(&c->present, !null))
            return COMB_ENOMEM;
        if (null) {
            c->group_stats.has_null = true;
            continue;
        }
        if ((rc = put_value(c, v, row)))
            return rc;
        if (kind == COMB_T_STRUCT) {
            if ((rc = rows_reserve(c, total + 1)))
                return rc;
            c->rows[total++] = (uint32_t)row;
        } else if (kind == COMB_T_LIST || kind == COMB_T_MAP) {
            if ((rc = rows_reserve(c, total + v->len[row])))
                return rc;
            for (uint32_t e = 0; e < v->len[row]; e++)
                c->rows[total++] = v->off[row] + e;
        }
    }
    *n_child = (int)total;
    return COMB_OK;
}

int orc_colwrite_rows(OrcColWrite *cols, const CombType *t,
                      const CombVector *v, const uint32_t *rows, int n,
                      CombErr *err)
{
    OrcColWrite *c = &cols[t->id];
    int n_child = 0, rc = write_own(c, v, rows, n, &n_child);
    if (rc == COMB_EINVALID)
        return comb_err(err, rc, "ORC writer: column %d: more than %d "
                        "child rows in one batch", t->id, INT32_MAX);
    if (rc)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_children && n_child > 0; i++)
        if ((rc = orc_colwrite_rows(cols, t->children[i], &v->children[i],
                                    c->rows, n_child, err)))
            return rc;
    return COMB_OK;
}

int orc_colwrite_flush(OrcColWrite *c)
{
    if (orc_bool_enc_flush(&c->present) || orc_bool_enc_flush(&c->bools) ||
        orc_byte_enc_flush(&c->bytes) || orc_int_enc_flush(&c->ints) ||
        orc_int_enc_flush(&c->lens) || orc_int_enc_flush(&c->secondary))
        return COMB_ENOMEM;
    c->use_dict = dict_kind(c->type->kind) && orc_dict_wanted(&c->dict);
    if (c->use_dict)
        return orc_dict_write(&c->dict, &c->data_buf, &c->length_buf,
                              &c->dict_buf, c->marks, c->n_marks);
    return COMB_OK;
}

size_t orc_colwrite_size(const OrcColWrite *c)
{
    /* values still waiting in the encoders count at full width */
    return c->present_buf.len + c->data_buf.len + c->length_buf.len +
           c->secondary_buf.len +
           (size_t)(c->ints.n + c->lens.n + c->secondary.n) * 8;
}

size_t orc_colwrite_mem(const OrcColWrite *c)
{
    return sizeof *c + c->present_buf.cap + c->data_buf.cap +
           c->length_buf.cap + c->secondary_buf.cap + c->dict_buf.cap +
           orc_dict_mem(&c->dict) +
           (size_t)(c->ints.cap + c->lens.cap + c->secondary.cap) * 8 +
           (size_t)c->rows_cap * sizeof *c->rows + c->stripe_stats.smin.cap +
           c->stripe_stats.smax.cap + c->group_stats.smin.cap +
           c->group_stats.smax.cap +
           c->cap_marks * (sizeof *c->marks + sizeof *c->pb_end) +
           c->group_pb.cap + c->bloom_pb.cap + c->bloom_bits / 8;
}

void orc_colwrite_reset(OrcColWrite *c)
{
    comb_buf_clear(&c->present_buf);
    comb_buf_clear(&c->data_buf);
    comb_buf_clear(&c->length_buf);
    comb_buf_clear(&c->secondary_buf);
    comb_buf_clear(&c->dict_buf);
    orc_dict_reset(&c->dict);
    c->use_dict = false;
    orc_stats_reset(&c->stripe_stats);
    orc_stats_reset(&c->group_stats);
    c->n_marks = 0;
    comb_buf_clear(&c->group_pb);
    comb_buf_clear(&c->bloom_pb);
    if (c->bloom)
        memset(c->bloom, 0, (size_t)(c->bloom_bits / 8));
}
