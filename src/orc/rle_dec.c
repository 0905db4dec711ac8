/*
 * rle_dec.c - decoders for ORC's run-length encodings: varints, byte RLE,
 * boolean RLE (bits over byte RLE), integer RLE v1 and integer RLE v2 with
 * its four sub-encodings, over streams read a window at a time (OrcIn,
 * instream.c).
 * Every read is bounds-checked against the stream, so bad bytes end in
 * COMB_ECORRUPT naming the column and stream.
 *
 * Speed: runs that a caller wants whole are decoded straight into its
 * array (no copy through the decoder's buffer); DIRECT and PATCHED_BASE
 * values are unpacked eight at a time by loops specialised per bit width
 * (unaligned big-endian 64-bit loads, constant shifts); booleans expand a
 * byte at a time through a table; SHORT_REPEAT and fixed-step DELTA runs
 * are plain fills the compiler vectorises.
 */
#include "orc/orc_int.h"

#include <string.h>

static inline int in_byte(OrcIn *in, uint8_t *b, CombErr *err)
{
    if (in->pos == in->len) {
        int rc = orc_in_refill(in, err);
        if (rc)
            return rc;
    }
    *b = in->p[in->pos++];
    return COMB_OK;
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
        int rc;
        if (d->left == 0 && (rc = byte_dec_header(d, err)))
            return rc;
        size_t k = d->left < n - i ? d->left : n - i;
        if (d->repeat)
            memset(out + i, d->value, k);
        else if ((rc = orc_in_read(&d->in, out + i, k, err)))
            return rc;
        i += k;
        d->left -= k;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- boolean RLE */

/* Entry b: the eight bits of b, most significant first, as eight bytes of
 * 0 or 1 in memory order (little-endian). */
#define BIT_BYTES(b)                                                        \
    ((uint64_t)(((b) >> 7) & 1) | (uint64_t)(((b) >> 6) & 1) << 8 |         \
     (uint64_t)(((b) >> 5) & 1) << 16 | (uint64_t)(((b) >> 4) & 1) << 24 |  \
     (uint64_t)(((b) >> 3) & 1) << 32 | (uint64_t)(((b) >> 2) & 1) << 40 |  \
     (uint64_t)(((b) >> 1) & 1) << 48 | (uint64_t)((b) & 1) << 56)
#define BB4(b)                                                              \
    BIT_BYTES(b), BIT_BYTES(b + 1), BIT_BYTES(b + 2), BIT_BYTES(b + 3)
#define BB16(b) BB4(b), BB4(b + 4), BB4(b + 8), BB4(b + 12)
#define BB64(b) BB16(b), BB16(b + 16), BB16(b + 32), BB16(b + 48)
static const uint64_t bit_bytes[256] = {BB64(0), BB64(64), BB64(128),
                                        BB64(192)};
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "bit_bytes is laid out for little-endian stores");

void orc_bool_dec_init(OrcBoolDec *d, const OrcIn *in)
{
    orc_byte_dec_init(&d->bytes, in);
    d->cur = 0;
    d->bits_left = 0;
}

/* Whole bytes of bits: `groups` groups of 8 values at out. */
static int bool_dec_bytes(OrcByteDec *b, uint8_t *out, size_t groups,
                          CombErr *err)
{
    while (groups > 0) {
        int rc;
        if (b->left == 0 && (rc = byte_dec_header(b, err)))
            return rc;
        size_t k = b->left < groups ? b->left : groups;
        if (b->repeat) {
            uint64_t w = bit_bytes[b->value];
            for (size_t j = 0; j < k; j++)
                memcpy(out + 8 * j, &w, 8);
        } else {
            if (b->in.pos == b->in.len && (rc = orc_in_refill(&b->in, err)))
                return rc;
            if (b->in.len - b->in.pos < k)
                k = b->in.len - b->in.pos;
            const uint8_t *p = b->in.p + b->in.pos;
            for (size_t j = 0; j < k; j++)
                memcpy(out + 8 * j, &bit_bytes[p[j]], 8);
            b->in.pos += k;
        }
        b->left -= k;
        groups -= k;
        out += 8 * k;
    }
    return COMB_OK;
}

int orc_bool_dec_next(OrcBoolDec *d, uint8_t *out, size_t n, CombErr *err)
{
    size_t i = 0;
    int rc;
    while (i < n && d->bits_left > 0) {
        out[i++] = (uint8_t)(d->cur >> 7);
        d->cur = (uint8_t)(d->cur << 1);
        d->bits_left--;
    }
    if (n - i >= 8) {
        size_t groups = (n - i) / 8;
        if ((rc = bool_dec_bytes(&d->bytes, out + i, groups, err)))
            return rc;
        i += 8 * groups;
    }
    if (i < n) {
        if ((rc = orc_byte_dec_next(&d->bytes, &d->cur, 1, err)))
            return rc;
        d->bits_left = 8;
        /* bits are stored most significant first */
        while (i < n) {
            out[i++] = (uint8_t)(d->cur >> 7);
            d->cur = (uint8_t)(d->cur << 1);
            d->bits_left--;
        }
    }
    return COMB_OK;
}

/* ------------------------------------------------------- bit unpacking */

static inline uint64_t load_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}

/* Up to 8 bytes at p (avail of them readable), big-endian, zero-padded. */
static inline uint64_t load_be_upto(const uint8_t *p, size_t avail)
{
    uint64_t v = 0;
    size_t n = avail < 8 ? avail : 8;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (56 - 8 * i);
    return v;
}

/* Eight values of W bits (W <= 56) take W bytes; value J starts at bit
 * J*W, so its byte and shift are constants. */
#define UNPACK_ONE(W, J)                                                    \
    o[J] = (load_be64(p + ((J) * (W)) / 8) << (((J) * (W)) % 8)) >>        \
           (64 - (W));
#define UNPACK_GROUPS(W)                                                    \
    static void unpack_##W(const uint8_t *p, size_t groups, uint64_t *o)    \
    {                                                                       \
        for (size_t g = 0; g < groups; g++, p += (W), o += 8) {             \
            UNPACK_ONE(W, 0) UNPACK_ONE(W, 1) UNPACK_ONE(W, 2)              \
            UNPACK_ONE(W, 3) UNPACK_ONE(W, 4) UNPACK_ONE(W, 5)              \
            UNPACK_ONE(W, 6) UNPACK_ONE(W, 7)                               \
        }                                                                   \
    }
#define UNPACK_8W(a, b, c, d, e, f, g, h)                                   \
    UNPACK_GROUPS(a) UNPACK_GROUPS(b) UNPACK_GROUPS(c) UNPACK_GROUPS(d)     \
    UNPACK_GROUPS(e) UNPACK_GROUPS(f) UNPACK_GROUPS(g) UNPACK_GROUPS(h)
UNPACK_8W(1, 2, 3, 4, 5, 6, 7, 8)
UNPACK_8W(9, 10, 11, 12, 13, 14, 15, 16)
UNPACK_8W(17, 18, 19, 20, 21, 22, 23, 24)
UNPACK_8W(25, 26, 27, 28, 29, 30, 31, 32)
UNPACK_8W(33, 34, 35, 36, 37, 38, 39, 40)
UNPACK_8W(41, 42, 43, 44, 45, 46, 47, 48)
UNPACK_8W(49, 50, 51, 52, 53, 54, 55, 56)

typedef void (*Unpacker)(const uint8_t *p, size_t groups, uint64_t *o);
static const Unpacker unpackers[57] = {
    NULL,       unpack_1,  unpack_2,  unpack_3,  unpack_4,  unpack_5,
    unpack_6,   unpack_7,  unpack_8,  unpack_9,  unpack_10, unpack_11,
    unpack_12,  unpack_13, unpack_14, unpack_15, unpack_16, unpack_17,
    unpack_18,  unpack_19, unpack_20, unpack_21, unpack_22, unpack_23,
    unpack_24,  unpack_25, unpack_26, unpack_27, unpack_28, unpack_29,
    unpack_30,  unpack_31, unpack_32, unpack_33, unpack_34, unpack_35,
    unpack_36,  unpack_37, unpack_38, unpack_39, unpack_40, unpack_41,
    unpack_42,  unpack_43, unpack_44, unpack_45, unpack_46, unpack_47,
    unpack_48,  unpack_49, unpack_50, unpack_51, unpack_52, unpack_53,
    unpack_54,  unpack_55, unpack_56};

/* Widths 57..63: bit by bit (only values near 2^63 need them). */
static void unpack_bits(const uint8_t *p, int w, size_t from, size_t count,
                        uint64_t *out)
{
    size_t bit = from * (size_t)w;
    for (size_t i = from; i < count; i++) {
        uint64_t v = 0;
        for (int k = 0; k < w; k++, bit++)
            v = v << 1 | ((p[bit >> 3] >> (7 - (bit & 7))) & 1);
        out[i] = v;
    }
}

/* `count` big-endian bit-packed values of w bits (1..64) at p, of which
 * `readable` bytes may be read (at least the packed bytes). */
static void unpack(const uint8_t *p, size_t readable, int w, size_t count,
                   uint64_t *out)
{
    size_t i = 0;
    if (w == 64) {
        for (; i < count; i++)
            out[i] = load_be64(p + 8 * i);
        return;
    }
    if (w > 56) {
        unpack_bits(p, w, 0, count, out);
        return;
    }
    size_t groups = count / 8, uw = (size_t)w;
    /* group g reads bytes up to g*w + 7w/8 + 8 */
    size_t slack = 7 * uw / 8 + 8;
    size_t safe = readable >= slack ? (readable - slack) / uw + 1 : 0;
    if (groups > safe)
        groups = safe;
    if (groups)
        unpackers[w](p, groups, out);
    for (i = groups * 8; i < count; i++) {
        size_t bit = i * uw, at = bit >> 3;
        uint64_t v = readable - at >= 8 ? load_be64(p + at)
                                        : load_be_upto(p + at, readable - at);
        out[i] = (v << (bit & 7)) >> (64 - w);
    }
}

/* Take the packed bytes of `count` values of w bits and unpack them. */
static inline int read_packed(OrcIn *in, int w, size_t count, uint64_t *out,
                              CombErr *err)
{
    size_t bytes = (count * (size_t)w + 7) / 8, readable;
    const uint8_t *p = NULL;
    int rc = orc_in_take_ex(in, bytes, &p, &readable, err);
    if (rc == COMB_OK && count > 0)
        unpack(p, readable, w, count, out);
    return rc;
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

static void zigzag_all(int64_t *v, size_t n)
{
    uint64_t *u = (uint64_t *)v;
    for (size_t i = 0; i < n; i++)
        v[i] = (int64_t)(u[i] >> 1) ^ -(int64_t)(u[i] & 1);
}

/* ---------------------------------------------------- where runs go */

/* A run of len values goes straight to the caller's array when all of
 * it is wanted there (room values), else to the decoder's buffer. */
static int64_t *run_dest(OrcIntDec *d, int64_t *out, size_t room, size_t len,
                         size_t *direct)
{
    d->pos = 0;
    if (len <= room) {
        d->n = 0;
        *direct = len;
        return out;
    }
    d->n = len;
    *direct = 0;
    return d->buf;
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

static int rle1_read_run(OrcIntDec *d, int64_t *out, size_t room,
                         size_t *direct, CombErr *err)
{
    uint8_t h, db;
    int rc = in_byte(&d->in, &h, err);
    if (rc)
        return rc;
    if (h < 0x80) {
        int64_t base;
        size_t n = (size_t)h + 3;
        if ((rc = in_byte(&d->in, &db, err)) ||
            (rc = in_signed_varint(&d->in, d->is_signed, &base, err)))
            return rc;
        int64_t *dst = run_dest(d, out, room, n, direct);
        /* wrap-around arithmetic: a run may legally walk past the ends */
        uint64_t delta = (uint64_t)(int64_t)(int8_t)db;
        for (size_t i = 0; i < n; i++)
            dst[i] = (int64_t)((uint64_t)base + delta * i);
        return COMB_OK;
    }
    size_t n = (size_t)(256 - h);
    int64_t *dst = run_dest(d, out, room, n, direct);
    for (size_t i = 0; i < n; i++)
        if ((rc = in_signed_varint(&d->in, d->is_signed, &dst[i], err)))
            return rc;
    return COMB_OK;
}

/* ---------------------------------------------------------- integer RLE v2 */

static int rle2_width(int code)
{
    static const int wide[8] = {26, 28, 30, 32, 40, 48, 56, 64};
    return code < 24 ? code + 1 : wide[code - 24];
}

static int rle2_short_repeat(OrcIntDec *d, uint8_t h, int64_t *out,
                             size_t room, size_t *direct, CombErr *err)
{
    int w = ((h >> 3) & 7) + 1;
    uint64_t u;
    int rc = read_be(&d->in, w, &u, err);
    if (rc)
        return rc;
    int64_t v = d->is_signed ? orc_zigzag_dec(u) : (int64_t)u;
    size_t n = (size_t)(h & 7) + 3;
    int64_t *dst = run_dest(d, out, room, n, direct);
    for (size_t i = 0; i < n; i++)
        dst[i] = v;
    return COMB_OK;
}

/* The run length of DIRECT, PATCHED_BASE and DELTA headers. */
static int rle2_len(OrcIntDec *d, uint8_t h, size_t *n, CombErr *err)
{
    uint8_t lo;
    int rc = in_byte(&d->in, &lo, err);
    if (rc)
        return rc;
    *n = ((size_t)(h & 1) << 8 | lo) + 1;
    return COMB_OK;
}

static int rle2_direct(OrcIntDec *d, uint8_t h, int64_t *out, size_t room,
                       size_t *direct, CombErr *err)
{
    int w = rle2_width((h >> 1) & 0x1f);
    size_t n;
    int rc = rle2_len(d, h, &n, err);
    if (rc)
        return rc;
    int64_t *dst = run_dest(d, out, room, n, direct);
    if ((rc = read_packed(&d->in, w, n, (uint64_t *)dst, err)))
        return rc;
    if (d->is_signed)
        zigzag_all(dst, n);
    return COMB_OK;
}

/* Patch entries: gap to the previous patched index, then the high bits
 * that belong above the w-bit value at that index. */
static int rle2_apply_patches(OrcIntDec *d, uint64_t *u, size_t n, int w,
                              int pw, int pgw, int pll, CombErr *err)
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
    for (int i = 0; i < pll; i++) {
        uint64_t gap = pw == 64 ? 0 : entries[i] >> pw;
        uint64_t patch = entries[i] & pmask;
        idx += gap;
        if (patch == 0)
            continue;  /* a pure gap-extension entry */
        if (idx >= n)
            return orc_in_corrupt(&d->in, "patch index out of range", err);
        u[idx] |= patch << w;
    }
    return COMB_OK;
}

static int rle2_patched_base(OrcIntDec *d, uint8_t h, int64_t *out,
                             size_t room, size_t *direct, CombErr *err)
{
    int w = rle2_width((h >> 1) & 0x1f);
    uint8_t b3, b4;
    uint64_t base_raw;
    size_t n;
    int rc = rle2_len(d, h, &n, err);
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
    int64_t *dst = run_dest(d, out, room, n, direct);
    uint64_t *u = (uint64_t *)dst;
    if ((rc = read_packed(&d->in, w, n, u, err)) ||
        (rc = rle2_apply_patches(d, u, n, w, pw, pgw, pll, err)))
        return rc;
    for (size_t i = 0; i < n; i++)
        dst[i] = (int64_t)((uint64_t)base + u[i]);
    return COMB_OK;
}

/* Two 64-bit lanes: SSE2, x86-64's baseline, adds them in one step. */
typedef uint64_t OrcU64x2 __attribute__((vector_size(16)));

/* dst[i] = base + step * i for i in [0, n) (wrapping, as the run's sums
 * do): a fixed-step DELTA run, rowIds 0, 1, 2, ... or one string length
 * repeated.  Two lanes per store; the scalar loop cost four to six
 * instructions a value (one value, one multiply, one store). */
static void fill_steps(int64_t *dst, size_t n, int64_t base, int64_t step)
{
    OrcU64x2 v = {(uint64_t)base, (uint64_t)base + (uint64_t)step};
    OrcU64x2 v2 = v + 2 * (uint64_t)step;
    const OrcU64x2 step4 = {4 * (uint64_t)step, 4 * (uint64_t)step};
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        memcpy(dst + i, &v, sizeof v);
        memcpy(dst + i + 2, &v2, sizeof v2);
        v += step4;
        v2 += step4;
    }
    for (; i < n; i++)
        dst[i] = (int64_t)((uint64_t)base + (uint64_t)step * i);
}

static int rle2_delta(OrcIntDec *d, uint8_t h, int64_t *out, size_t room,
                      size_t *direct, CombErr *err)
{
    int code = (h >> 1) & 0x1f;
    int w = code ? rle2_width(code) : 0;
    uint64_t dz;
    int64_t base;
    size_t n;
    int rc = rle2_len(d, h, &n, err);
    if (rc || (rc = in_signed_varint(&d->in, d->is_signed, &base, err)) ||
        (rc = orc_in_varint(&d->in, &dz, err)))
        return rc;
    int64_t dbase = orc_zigzag_dec(dz);
    int64_t *dst = run_dest(d, out, room, n, direct);
    if (w == 0) {
        fill_steps(dst, n, base, dbase);
        d->run_steps_1 = dbase == 1;
        return COMB_OK;
    }
    dst[0] = base;
    if (n == 1)
        return COMB_OK;
    dst[1] = (int64_t)((uint64_t)base + (uint64_t)dbase);
    /* unpack the n-2 magnitudes behind the first two values, then sum */
    uint64_t *u = (uint64_t *)dst + 2;
    if ((rc = read_packed(&d->in, w, n - 2, u, err)))
        return rc;
    uint64_t prev = (uint64_t)dst[1];
    if (dbase < 0) {
        for (size_t i = 2; i < n; i++)
            dst[i] = (int64_t)(prev -= u[i - 2]);
    } else {
        for (size_t i = 2; i < n; i++)
            dst[i] = (int64_t)(prev += u[i - 2]);
    }
    return COMB_OK;
}

static int rle2_read_run(OrcIntDec *d, int64_t *out, size_t room,
                         size_t *direct, CombErr *err)
{
    uint8_t h;
    int rc = in_byte(&d->in, &h, err);
    if (rc)
        return rc;
    switch (h >> 6) {
    case 0: return rle2_short_repeat(d, h, out, room, direct, err);
    case 1: return rle2_direct(d, h, out, room, direct, err);
    case 2: return rle2_patched_base(d, h, out, room, direct, err);
    default: return rle2_delta(d, h, out, room, direct, err);
    }
}

void orc_int_dec_init(OrcIntDec *d, const OrcIn *in, bool is_signed, bool v2)
{
    d->in = *in;
    d->is_signed = is_signed;
    d->v2 = v2;
    d->n = d->pos = 0;
    d->streak = 0;
    d->buf_steps_1 = false;
}

/* k values from `first` handed out, rising by 1 each when steps_1: the
 * streak goes on when they continue it, else starts again (or ends). */
static void streak_add(OrcIntDec *d, int64_t first, size_t k, bool steps_1)
{
    if (!steps_1) {
        d->streak = 0;
        return;
    }
    d->streak = d->streak > 0 && (uint64_t)first == d->streak_next
                    ? d->streak + k
                    : k;
    d->streak_next = (uint64_t)first + k;
}

int orc_int_dec_next(OrcIntDec *d, int64_t *out, size_t n, CombErr *err)
{
    while (n > 0) {
        if (d->pos < d->n) {
            size_t k = d->n - d->pos < n ? d->n - d->pos : n;
            memcpy(out, d->buf + d->pos, k * sizeof *out);
            streak_add(d, out[0], k, d->buf_steps_1);
            d->pos += k;
            out += k;
            n -= k;
            continue;
        }
        size_t direct = 0;
        d->run_steps_1 = false;
        int rc = d->v2 ? rle2_read_run(d, out, n, &direct, err)
                       : rle1_read_run(d, out, n, &direct, err);
        if (rc)
            return rc;
        if (direct > 0)
            streak_add(d, out[0], direct, d->run_steps_1);
        else
            d->buf_steps_1 = d->run_steps_1;
        out += direct;
        n -= direct;
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- skipping */

/* Decode n values into a sink, a slice at a time; one per decoder. */
#define SKIP_FN(name, Dec, T, next)                                         \
    int name(Dec *d, uint64_t n, CombErr *err)                              \
    {                                                                       \
        T sink[ORC_RLE2_MAX];                                               \
        while (n > 0) {                                                     \
            size_t k = n < ORC_RLE2_MAX ? (size_t)n : ORC_RLE2_MAX;         \
            int rc = next(d, sink, k, err);                                 \
            if (rc)                                                         \
                return rc;                                                  \
            n -= k;                                                         \
        }                                                                   \
        return COMB_OK;                                                     \
    }
SKIP_FN(orc_byte_dec_skip, OrcByteDec, uint8_t, orc_byte_dec_next)
SKIP_FN(orc_bool_dec_skip, OrcBoolDec, uint8_t, orc_bool_dec_next)
SKIP_FN(orc_int_dec_skip, OrcIntDec, int64_t, orc_int_dec_next)
