/*
 * rle_dec.c - decoders for ORC's run-length encodings: varints, byte RLE,
 * boolean RLE (bits over byte RLE), integer RLE v1 and integer RLE v2 with
 * its four sub-encodings.  Every read is bounds-checked against the stream,
 * so bad bytes end in COMB_ECORRUPT naming the column and stream.
 */
#include "orc/orc_int.h"

#include <string.h>

void orc_in_init(OrcIn *in, const uint8_t *p, size_t len, const char *path,
                 int column, const char *stream)
{
    in->p = p;
    in->len = p ? len : 0;
    in->pos = 0;
    in->path = path;
    in->column = column;
    in->stream = stream;
}

int orc_in_corrupt(const OrcIn *in, const char *what, CombErr *err)
{
    return comb_err(err, COMB_ECORRUPT,
                    "corrupt file '%s': column %d, %s stream: %s", in->path,
                    in->column, in->stream, what);
}

int orc_in_varint(OrcIn *in, uint64_t *out, CombErr *err)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        if (in->pos >= in->len)
            return orc_in_corrupt(in, "stream ends inside a varint", err);
        uint8_t b = in->p[in->pos++];
        /* the tenth byte may only carry bit 63 */
        if (shift == 63 && (b & 0xfe))
            return orc_in_corrupt(in, "varint overflows 64 bits", err);
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            break;
        if (shift == 63)
            return orc_in_corrupt(in, "varint longer than 10 bytes", err);
    }
    *out = v;
    return COMB_OK;
}

int orc_in_take(OrcIn *in, size_t n, const uint8_t **p, CombErr *err)
{
    if (in->len - in->pos < n)
        return orc_in_corrupt(in, "stream ends before all values were read",
                              err);
    *p = in->p ? in->p + in->pos : (const uint8_t *)"";
    in->pos += n;
    return COMB_OK;
}

static int in_byte(OrcIn *in, uint8_t *b, CombErr *err)
{
    const uint8_t *p = NULL;
    int rc = orc_in_take(in, 1, &p, err);
    if (rc == COMB_OK)
        *b = *p;
    return rc;
}

/* ---------------------------------------------------------------- byte RLE */

void orc_byte_dec_init(OrcByteDec *d, const OrcIn *in)
{
    memset(d, 0, sizeof *d);
    d->in = *in;
}

static int byte_dec_header(OrcByteDec *d, CombErr *err)
{
    uint8_t h;
    int rc = in_byte(&d->in, &h, err);
    if (rc)
        return rc;
    if (h < 0x80) {
        d->repeat = true;
        d->left = (size_t)h + 3;
        return in_byte(&d->in, &d->value, err);
    }
    d->repeat = false;
    d->left = (size_t)(256 - h);
    return COMB_OK;
}

int orc_byte_dec_next(OrcByteDec *d, uint8_t *out, size_t n, CombErr *err)
{
    size_t i = 0;
    while (i < n) {
        if (d->left == 0) {
            int rc = byte_dec_header(d, err);
            if (rc)
                return rc;
        }
        size_t k = d->left < n - i ? d->left : n - i;
        if (d->repeat) {
            memset(out + i, d->value, k);
        } else {
            const uint8_t *p = NULL;
            int rc = orc_in_take(&d->in, k, &p, err);
            if (rc)
                return rc;
            memcpy(out + i, p, k);
        }
        i += k;
        d->left -= k;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- boolean RLE */

void orc_bool_dec_init(OrcBoolDec *d, const OrcIn *in)
{
    orc_byte_dec_init(&d->bytes, in);
    d->cur = 0;
    d->bits_left = 0;
}

int orc_bool_dec_next(OrcBoolDec *d, uint8_t *out, size_t n, CombErr *err)
{
    size_t i = 0;
    while (i < n) {
        if (d->bits_left == 0) {
            int rc = orc_byte_dec_next(&d->bytes, &d->cur, 1, err);
            if (rc)
                return rc;
            d->bits_left = 8;
        }
        /* bits are stored most significant first */
        while (d->bits_left > 0 && i < n) {
            out[i++] = (uint8_t)(d->cur >> 7);
            d->cur = (uint8_t)(d->cur << 1);
            d->bits_left--;
        }
    }
    return COMB_OK;
}

/* ---------------------------------------------------------- integer RLE v1 */

static int in_signed_varint(OrcIn *in, bool is_signed, int64_t *out,
                            CombErr *err)
{
    uint64_t u;
    int rc = orc_in_varint(in, &u, err);
    if (rc)
        return rc;
    *out = is_signed ? orc_zigzag_dec(u) : (int64_t)u;
    return COMB_OK;
}

static int rle1_read_run(OrcIntDec *d, CombErr *err)
{
    uint8_t h, db;
    int rc = in_byte(&d->in, &h, err);
    if (rc)
        return rc;
    d->pos = 0;
    if (h < 0x80) {
        int64_t base;
        d->n = (size_t)h + 3;
        if ((rc = in_byte(&d->in, &db, err)) ||
            (rc = in_signed_varint(&d->in, d->is_signed, &base, err)))
            return rc;
        /* wrap-around arithmetic: a run may legally walk past the ends */
        uint64_t v = (uint64_t)base, delta = (uint64_t)(int64_t)(int8_t)db;
        for (size_t i = 0; i < d->n; i++, v += delta)
            d->buf[i] = (int64_t)v;
        return COMB_OK;
    }
    d->n = (size_t)(256 - h);
    for (size_t i = 0; i < d->n; i++)
        if ((rc = in_signed_varint(&d->in, d->is_signed, &d->buf[i], err)))
            return rc;
    return COMB_OK;
}

/* ---------------------------------------------------------- integer RLE v2 */

static int rle2_width(int code)
{
    static const int wide[8] = {26, 28, 30, 32, 40, 48, 56, 64};
    return code < 24 ? code + 1 : wide[code - 24];
}

/* Read `count` big-endian bit-packed values of `w` bits (w <= 64). */
static int read_packed(OrcIn *in, int w, size_t count, uint64_t *out,
                       CombErr *err)
{
    size_t bytes = (count * (size_t)w + 7) / 8;
    const uint8_t *p = NULL;
    int rc = orc_in_take(in, bytes, &p, err);
    if (rc)
        return rc;
    if (w == 8 || w == 16 || w == 32 || w == 64) {
        int nb = w / 8;
        for (size_t i = 0; i < count; i++, p += nb) {
            uint64_t v = 0;
            for (int j = 0; j < nb; j++)
                v = (v << 8) | p[j];
            out[i] = v;
        }
        return COMB_OK;
    }
    int avail = 0;
    uint8_t cur = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t v = 0;
        int need = w;
        while (need > 0) {
            if (avail == 0) {
                cur = *p++;
                avail = 8;
            }
            int take = need < avail ? need : avail;
            v = (v << take) |
                ((uint64_t)(cur >> (avail - take)) & ((1u << take) - 1));
            avail -= take;
            need -= take;
        }
        out[i] = v;
    }
    return COMB_OK;
}

static int read_be(OrcIn *in, int nbytes, uint64_t *out, CombErr *err)
{
    const uint8_t *p = NULL;
    int rc = orc_in_take(in, (size_t)nbytes, &p, err);
    if (rc)
        return rc;
    uint64_t v = 0;
    for (int i = 0; i < nbytes; i++)
        v = (v << 8) | p[i];
    *out = v;
    return COMB_OK;
}

static int rle2_short_repeat(OrcIntDec *d, uint8_t h, CombErr *err)
{
    int w = ((h >> 3) & 7) + 1;
    uint64_t u;
    int rc = read_be(&d->in, w, &u, err);
    if (rc)
        return rc;
    int64_t v = d->is_signed ? orc_zigzag_dec(u) : (int64_t)u;
    d->n = (size_t)(h & 7) + 3;
    for (size_t i = 0; i < d->n; i++)
        d->buf[i] = v;
    return COMB_OK;
}

/* Header fields shared by DIRECT, PATCHED_BASE and DELTA. */
static int rle2_len(OrcIntDec *d, uint8_t h, CombErr *err)
{
    uint8_t lo;
    int rc = in_byte(&d->in, &lo, err);
    if (rc)
        return rc;
    d->n = ((size_t)(h & 1) << 8 | lo) + 1;
    return COMB_OK;
}

static int rle2_direct(OrcIntDec *d, uint8_t h, CombErr *err)
{
    int w = rle2_width((h >> 1) & 0x1f);
    int rc = rle2_len(d, h, err);
    if (rc)
        return rc;
    uint64_t *u = (uint64_t *)d->buf;
    if ((rc = read_packed(&d->in, w, d->n, u, err)))
        return rc;
    if (d->is_signed)
        for (size_t i = 0; i < d->n; i++)
            d->buf[i] = orc_zigzag_dec(u[i]);
    return COMB_OK;
}

/* Patch entries: gap to the previous patched index, then the high bits
 * that belong above the w-bit value at that index. */
static int rle2_apply_patches(OrcIntDec *d, int w, int pw, int pgw, int pll,
                              CombErr *err)
{
    uint64_t entries[32];
    int ew = pw + pgw, rc;
    if (ew > 64 || w + pw > 64)
        return orc_in_corrupt(&d->in, "patch width too large", err);
    /* widths not in the table round up, as writers pack them that way */
    int cw = ew;
    for (int code = 0; code < 32; code++)
        if (rle2_width(code) >= ew) {
            cw = rle2_width(code);
            break;
        }
    if ((rc = read_packed(&d->in, cw, (size_t)pll, entries, err)))
        return rc;
    uint64_t pmask = pw == 64 ? ~0ull : ((1ull << pw) - 1);
    size_t idx = 0;
    uint64_t *u = (uint64_t *)d->buf;
    for (int i = 0; i < pll; i++) {
        uint64_t gap = pw == 64 ? 0 : entries[i] >> pw;
        uint64_t patch = entries[i] & pmask;
        idx += gap;
        if (patch == 0)
            continue;  /* a pure gap-extension entry */
        if (idx >= d->n)
            return orc_in_corrupt(&d->in, "patch index out of range", err);
        u[idx] |= patch << w;
    }
    return COMB_OK;
}

static int rle2_patched_base(OrcIntDec *d, uint8_t h, CombErr *err)
{
    int w = rle2_width((h >> 1) & 0x1f);
    uint8_t b3, b4;
    uint64_t base_raw;
    int rc = rle2_len(d, h, err);
    if (rc || (rc = in_byte(&d->in, &b3, err)) ||
        (rc = in_byte(&d->in, &b4, err)))
        return rc;
    int bw = ((b3 >> 5) & 7) + 1, pw = rle2_width(b3 & 0x1f);
    int pgw = ((b4 >> 5) & 7) + 1, pll = b4 & 0x1f;
    if ((rc = read_be(&d->in, bw, &base_raw, err)))
        return rc;
    /* the base is sign-magnitude: the top bit of its bytes is the sign */
    uint64_t sign = 1ull << (bw * 8 - 1);
    int64_t base = (base_raw & sign) ? -(int64_t)(base_raw & ~sign)
                                     : (int64_t)base_raw;
    uint64_t *u = (uint64_t *)d->buf;
    if ((rc = read_packed(&d->in, w, d->n, u, err)) ||
        (rc = rle2_apply_patches(d, w, pw, pgw, pll, err)))
        return rc;
    for (size_t i = 0; i < d->n; i++)
        d->buf[i] = (int64_t)((uint64_t)base + u[i]);
    return COMB_OK;
}

static int rle2_delta(OrcIntDec *d, uint8_t h, CombErr *err)
{
    int code = (h >> 1) & 0x1f;
    int w = code ? rle2_width(code) : 0;
    uint64_t dz;
    int64_t base;
    int rc = rle2_len(d, h, err);
    if (rc || (rc = in_signed_varint(&d->in, d->is_signed, &base, err)) ||
        (rc = orc_in_varint(&d->in, &dz, err)))
        return rc;
    int64_t dbase = orc_zigzag_dec(dz);
    d->buf[0] = base;
    if (d->n == 1)
        return COMB_OK;
    d->buf[1] = (int64_t)((uint64_t)base + (uint64_t)dbase);
    if (w == 0) {
        for (size_t i = 2; i < d->n; i++)
            d->buf[i] = (int64_t)((uint64_t)d->buf[i - 1] + (uint64_t)dbase);
        return COMB_OK;
    }
    /* unpack the n-2 magnitudes behind the first two values, then sum */
    uint64_t *u = (uint64_t *)d->buf + 2;
    if ((rc = read_packed(&d->in, w, d->n - 2, u, err)))
        return rc;
    for (size_t i = 2; i < d->n; i++) {
        uint64_t prev = (uint64_t)d->buf[i - 1];
        d->buf[i] = (int64_t)(dbase < 0 ? prev - u[i - 2] : prev + u[i - 2]);
    }
    return COMB_OK;
}

static int rle2_read_run(OrcIntDec *d, CombErr *err)
{
    uint8_t h;
    int rc = in_byte(&d->in, &h, err);
    if (rc)
        return rc;
    d->pos = 0;
    switch (h >> 6) {
    case 0: return rle2_short_repeat(d, h, err);
    case 1: return rle2_direct(d, h, err);
    case 2: return rle2_patched_base(d, h, err);
    default: return rle2_delta(d, h, err);
    }
}

void orc_int_dec_init(OrcIntDec *d, const OrcIn *in, bool is_signed, bool v2)
{
    d->in = *in;
    d->is_signed = is_signed;
    d->v2 = v2;
    d->n = d->pos = 0;
}

int orc_int_dec_next(OrcIntDec *d, int64_t *out, size_t n, CombErr *err)
{
    while (n > 0) {
        if (d->pos == d->n) {
            int rc = d->v2 ? rle2_read_run(d, err) : rle1_read_run(d, err);
            if (rc)
                return rc;
        }
        size_t k = d->n - d->pos < n ? d->n - d->pos : n;
        memcpy(out, d->buf + d->pos, k * sizeof *out);
        d->pos += k;
        out += k;
        n -= k;
    }
    return COMB_OK;
}
