/*
 * rle_enc.c - encoders for ORC's run-length encodings: varints, byte RLE,
 * boolean RLE and integer RLE v2.  The v2 encoder buffers up to 512 values
 * and then splits them greedily into runs (SHORT_REPEAT for short repeats,
 * fixed DELTA for longer constant-step runs such as row ids) and literal
 * groups, each written as whichever of DIRECT, DELTA or PATCHED_BASE is
 * smallest.  Output goes to a CombBuf; nothing allocates per value.
 */
#include "orc/orc_int.h"
#include "common/alloc.h"

#include <string.h>

int orc_varint_put(CombBuf *out, uint64_t v)
{
    uint8_t tmp[10];
    int n = 0;
    while (v >= 0x80) {
        tmp[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    tmp[n++] = (uint8_t)v;
    return comb_buf_append(out, tmp, (size_t)n);
}

static int varint_len(uint64_t v)
{
    int n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* ---------------------------------------------------------------- byte RLE */

void orc_byte_enc_init(OrcByteEnc *e, CombBuf *out)
{
    memset(e, 0, sizeof *e);
    e->out = out;
}

static int byte_emit_literals(OrcByteEnc *e)
{
    if (e->n_lit == 0)
        return COMB_OK;
    uint8_t h = (uint8_t)(256 - e->n_lit);
    if (comb_buf_append_byte(e->out, h) ||
        comb_buf_append(e->out, e->lit, (size_t)e->n_lit))
        return COMB_ENOMEM;
    e->n_lit = 0;
    return COMB_OK;
}

static int byte_emit_run(OrcByteEnc *e)
{
    uint8_t hdr[2] = {(uint8_t)(e->run_len - 3), e->run_val};
    e->run_len = 0;
    return comb_buf_append(e->out, hdr, 2);
}

int orc_byte_enc_add(OrcByteEnc *e, uint8_t v)
{
    if (e->run_len > 0) {
        if (v == e->run_val && e->run_len < 130) {
            e->run_len++;
            return COMB_OK;
        }
        if (byte_emit_run(e))
            return COMB_ENOMEM;
    }
    e->lit[e->n_lit++] = v;
    int n = e->n_lit;
    /* three equal bytes at the tail start a run */
    if (n >= 3 && e->lit[n - 2] == v && e->lit[n - 3] == v) {
        e->n_lit -= 3;
        if (byte_emit_literals(e))
            return COMB_ENOMEM;
        e->run_val = v;
        e->run_len = 3;
    } else if (n == 128) {
        return byte_emit_literals(e);
    }
    return COMB_OK;
}

int orc_byte_enc_flush(OrcByteEnc *e)
{
    return e->run_len > 0 ? byte_emit_run(e) : byte_emit_literals(e);
}

/* ------------------------------------------------------------- boolean RLE */

void orc_bool_enc_init(OrcBoolEnc *e, CombBuf *out)
{
    orc_byte_enc_init(&e->bytes, out);
    e->cur = 0;
    e->n_bits = 0;
}

int orc_bool_enc_add(OrcBoolEnc *e, bool v)
{
    e->cur = (uint8_t)(e->cur << 1 | (v ? 1 : 0));
    if (++e->n_bits < 8)
        return COMB_OK;
    e->n_bits = 0;
    return orc_byte_enc_add(&e->bytes, e->cur);
}

int orc_bool_enc_flush(OrcBoolEnc *e)
{
    if (e->n_bits > 0) {
        uint8_t last = (uint8_t)(e->cur << (8 - e->n_bits));
        e->n_bits = 0;
        if (orc_byte_enc_add(&e->bytes, last))
            return COMB_ENOMEM;
    }
    return orc_byte_enc_flush(&e->bytes);
}

/* ------------------------------------------------------- integer RLE v2 */

enum { RLE2_SHORT_REPEAT, RLE2_DIRECT, RLE2_PATCHED_BASE, RLE2_DELTA };

static int bits_of(uint64_t v)
{
    return v ? 64 - __builtin_clzll(v) : 1;
}

/* Round a bit count up to a width RLE v2 can express. */
static int closest_width(int bits)
{
    static const int wide[8] = {26, 28, 30, 32, 40, 48, 56, 64};
    if (bits <= 24)
        return bits < 1 ? 1 : bits;
    for (int i = 0; i < 8; i++)
        if (bits <= wide[i])
            return wide[i];
    return 64;
}

static int width_code(int w)
{
    static const int wide[8] = {26, 28, 30, 32, 40, 48, 56, 64};
    if (w <= 24)
        return w - 1;
    for (int i = 0; i < 8; i++)
        if (w == wide[i])
            return 24 + i;
    return 31;
}

static uint64_t rle2_unsigned(bool is_signed, int64_t v)
{
    return is_signed ? orc_zigzag_enc(v) : (uint64_t)v;
}

/* Append n values of w bits each, big-endian, padded to a byte. */
static int put_packed(CombBuf *out, const uint64_t *u, int n, int w)
{
    size_t bytes = ((size_t)n * (size_t)w + 7) / 8;
    if (comb_buf_reserve(out, bytes))
        return COMB_ENOMEM;
    uint8_t *p = out->data + out->len;
    memset(p, 0, bytes);
    size_t bit = 0;
    for (int i = 0; i < n; i++) {
        int left = w;
        while (left > 0) {
            int room = 8 - (int)(bit & 7);
            int take = left < room ? left : room;
            uint64_t chunk = (u[i] >> (left - take)) & ((1u << take) - 1);
            p[bit >> 3] |= (uint8_t)(chunk << (room - take));
            left -= take;
            bit += (size_t)take;
        }
    }
    out->len += bytes;
    return COMB_OK;
}

/* The two header bytes of DIRECT, PATCHED_BASE and DELTA. */
static int put_header(CombBuf *out, int form, int code, int n)
{
    uint8_t h[2] = {(uint8_t)(form << 6 | code << 1 | ((n - 1) >> 8)),
                    (uint8_t)((n - 1) & 0xff)};
    return comb_buf_append(out, h, 2);
}

static int write_short_repeat(CombBuf *out, bool s, int64_t v, int n)
{
    uint64_t u = rle2_unsigned(s, v);
    int nb = (bits_of(u) + 7) / 8;
    uint8_t b[9];
    b[0] = (uint8_t)((nb - 1) << 3 | (n - 3));
    for (int i = 0; i < nb; i++)
        b[1 + i] = (uint8_t)(u >> (8 * (nb - 1 - i)));
    return comb_buf_append(out, b, (size_t)nb + 1);
}

static int direct_width(bool s, const int64_t *v, int n)
{
    uint64_t all = 0;
    for (int i = 0; i < n; i++)
        all |= rle2_unsigned(s, v[i]);
    return closest_width(bits_of(all));
}

static int write_direct(CombBuf *out, bool s, const int64_t *v, int n)
{
    uint64_t u[ORC_RLE2_MAX];
    int w = direct_width(s, v, n);
    for (int i = 0; i < n; i++)
        u[i] = rle2_unsigned(s, v[i]);
    if (put_header(out, RLE2_DIRECT, width_code(w), n))
        return COMB_ENOMEM;
    return put_packed(out, u, n, w);
}

/* Plan for a DELTA group: first step, magnitudes of the others, width
 * (0 = every step equals the first).  False if the values are not
 * monotone or a step overflows. */
typedef struct DeltaPlan {
    int64_t first;
    int w;
    uint64_t mag[ORC_RLE2_MAX];
} DeltaPlan;

static bool delta_plan(const int64_t *v, int n, DeltaPlan *p)
{
    if (n < 2 || __builtin_sub_overflow(v[1], v[0], &p->first))
        return false;
    bool fixed = true;
    uint64_t all = 0;
    for (int i = 2; i < n; i++) {
        int64_t d;
        if (__builtin_sub_overflow(v[i], v[i - 1], &d))
            return false;
        if ((p->first < 0 && d > 0) || (p->first >= 0 && d < 0))
            return false;
        fixed = fixed && d == p->first;
        p->mag[i - 2] = d < 0 ? 0 - (uint64_t)d : (uint64_t)d;
        all |= p->mag[i - 2];
    }
    /* width 1 shares code 0 with "fixed", so one-bit steps use two */
    p->w = fixed ? 0 : closest_width(bits_of(all) < 2 ? 2 : bits_of(all));
    return true;
}

static size_t delta_cost(bool s, const int64_t *v, int n, const DeltaPlan *p)
{
    return 2 + (size_t)varint_len(rle2_unsigned(s, v[0])) +
           (size_t)varint_len(orc_zigzag_enc(p->first)) +
           ((size_t)(n - 2) * (size_t)p->w + 7) / 8;
}

static int write_delta(CombBuf *out, bool s, const int64_t *v, int n,
                       const DeltaPlan *p)
{
    if (put_header(out, RLE2_DELTA, p->w ? width_code(p->w) : 0, n) ||
        orc_varint_put(out, rle2_unsigned(s, v[0])) ||
        orc_varint_put(out, orc_zigzag_enc(p->first)))
        return COMB_ENOMEM;
    return p->w ? put_packed(out, p->mag, n - 2, p->w) : COMB_OK;
}

/* Plan for PATCHED_BASE: values minus their minimum in w bits, with the
 * few that need more bits patched from a list of (gap, high bits). */
typedef struct PatchPlan {
    int64_t base;
    int w, pw, pgw, cw, bw, pll;
    uint64_t entries[31];
} PatchPlan;

/* Marks a planned entry that only advances the index by 255. */
#define GAP_ONLY (1ull << 63)

/* Smallest width holding at least 90% of the reduced values. */
static int p90_width(const int64_t *v, int n, int64_t base)
{
    int hist[65] = {0};
    for (int i = 0; i < n; i++)
        hist[bits_of((uint64_t)v[i] - (uint64_t)base)]++;
    int need = (n * 9 + 9) / 10, seen = 0;
    for (int b = 1; b <= 64; b++)
        if ((seen += hist[b]) >= need)
            return closest_width(b);
    return 64;
}

static bool patch_entries(const int64_t *v, int n, PatchPlan *p)
{
    uint64_t maxhigh = 0;
    int last = 0, maxgap = 0, count = 0;
    for (int i = 0; i < n; i++) {
        uint64_t high = ((uint64_t)v[i] - (uint64_t)p->base) >> p->w;
        if (high == 0)
            continue;
        maxhigh |= high;
        int gap = i - last;
        while (gap > 255) {  /* gap-only entries bridge long distances */
            if (count == 31)
                return false;
            p->entries[count++] = GAP_ONLY;
            gap -= 255;
            maxgap = 255;
        }
        if (count == 31)
            return false;
        p->entries[count++] = (uint64_t)gap << 32 | (uint64_t)i;
        maxgap = gap > maxgap ? gap : maxgap;
        last = i;
    }
    if (count == 0)
        return false;
    p->pll = count;
    p->pw = closest_width(bits_of(maxhigh));
    p->pgw = bits_of((uint64_t)(maxgap > 255 ? 255 : maxgap));
    p->cw = closest_width(p->pw + p->pgw);
    return p->cw <= 64 && p->pw + p->pgw <= 64 && p->w + p->pw <= 64;
}

static bool patch_plan(const int64_t *v, int n, PatchPlan *p)
{
    int64_t base = v[0];
    for (int i = 1; i < n; i++)
        base = v[i] < base ? v[i] : base;
    if (base == INT64_MIN || n < 2)
        return false;
    p->base = base;
    p->w = p90_width(v, n, base);
    if (p->w >= 64 || !patch_entries(v, n, p))
        return false;
    uint64_t mag = base < 0 ? (uint64_t)-base : (uint64_t)base;
    p->bw = (bits_of(mag) + 1 + 7) / 8;  /* one more bit for the sign */
    return p->bw <= 8;
}

static size_t patch_cost(int n, const PatchPlan *p)
{
    return 4 + (size_t)p->bw + ((size_t)n * (size_t)p->w + 7) / 8 +
           ((size_t)p->pll * (size_t)p->cw + 7) / 8;
}

static int write_patched(CombBuf *out, const int64_t *v, int n,
                         const PatchPlan *p)
{
    uint64_t u[ORC_RLE2_MAX], ent[31];
    uint64_t wmask = (1ull << p->w) - 1;
    uint64_t mag = p->base < 0 ? (uint64_t)-p->base : (uint64_t)p->base;
    if (p->base < 0)
        mag |= 1ull << (p->bw * 8 - 1);
    for (int i = 0; i < n; i++)
        u[i] = ((uint64_t)v[i] - (uint64_t)p->base) & wmask;
    for (int i = 0; i < p->pll; i++) {
        uint64_t e = p->entries[i];
        if (e == GAP_ONLY) {
            ent[i] = 255ull << p->pw;
            continue;
        }
        uint64_t idx = e & 0xffffffffu, gap = e >> 32;
        uint64_t high = ((uint64_t)v[idx] - (uint64_t)p->base) >> p->w;
        ent[i] = gap << p->pw | high;
    }
    uint8_t h[4] = {0, 0, (uint8_t)((p->bw - 1) << 5 | width_code(p->pw)),
                    (uint8_t)((p->pgw - 1) << 5 | p->pll)};
    h[0] = (uint8_t)(RLE2_PATCHED_BASE << 6 | width_code(p->w) << 1 |
                     ((n - 1) >> 8));
    h[1] = (uint8_t)((n - 1) & 0xff);
    uint8_t b[8];
    for (int i = 0; i < p->bw; i++)
        b[i] = (uint8_t)(mag >> (8 * (p->bw - 1 - i)));
    if (comb_buf_append(out, h, 4) || comb_buf_append(out, b, (size_t)p->bw) ||
        put_packed(out, u, n, p->w))
        return COMB_ENOMEM;
    return put_packed(out, ent, p->pll, p->cw);
}

/* A literal group: the smallest of DIRECT, DELTA and PATCHED_BASE. */
static int write_literals(CombBuf *out, bool s, const int64_t *v, int n)
{
    DeltaPlan dp;
    PatchPlan pp;
    size_t direct = 2 + ((size_t)n * (size_t)direct_width(s, v, n) + 7) / 8;
    size_t delta = (size_t)-1, patched = (size_t)-1;
    if (n >= 3 && delta_plan(v, n, &dp))
        delta = delta_cost(s, v, n, &dp);
    if (n >= 16 && patch_plan(v, n, &pp))
        patched = patch_cost(n, &pp);
    if (delta < direct && delta <= patched)
        return write_delta(out, s, v, n, &dp);
    if (patched < direct)
        return write_patched(out, v, n, &pp);
    return write_direct(out, s, v, n);
}

/* Length of the constant-step run starting at v[0] and its step. */
static int step_run(const int64_t *v, int n, int64_t *step)
{
    if (n < 2 || __builtin_sub_overflow(v[1], v[0], step))
        return 1;
    int i = 2;
    int64_t d;
    while (i < n && !__builtin_sub_overflow(v[i], v[i - 1], &d) && d == *step)
        i++;
    return i;
}

static int write_run(CombBuf *out, bool s, const int64_t *v, int n,
                     int64_t step)
{
    if (step == 0 && n <= 10)
        return write_short_repeat(out, s, v[0], n);
    DeltaPlan p = {.first = step, .w = 0};
    return write_delta(out, s, v, n, &p);
}

static int rle2_encode_block(CombBuf *out, bool s, const int64_t *v, int n)
{
    int i = 0, lit = 0;
    while (i < n) {
        int64_t step;
        int run = step_run(v + i, n - i, &step);
        /* repeats pay off at 3 values; other steps need a longer run to
         * beat staying inside a literal group */
        if (run >= (step == 0 ? 3 : 8)) {
            if (lit < i && write_literals(out, s, v + lit, i - lit))
                return COMB_ENOMEM;
            if (write_run(out, s, v + i, run, step))
                return COMB_ENOMEM;
            i += run;
            lit = i;
        } else {
            i++;
        }
    }
    if (lit < n && write_literals(out, s, v + lit, n - lit))
        return COMB_ENOMEM;
    return COMB_OK;
}

int orc_rle2_write_as(CombBuf *out, bool is_signed, int form,
                      const int64_t *v, int n)
{
    DeltaPlan dp;
    PatchPlan pp;
    if (n < 1 || n > ORC_RLE2_MAX)
        return COMB_EINVALID;
    switch (form) {
    case RLE2_SHORT_REPEAT:
        for (int i = 1; i < n; i++)
            if (v[i] != v[0])
                return COMB_EINVALID;
        return n >= 3 && n <= 10 ? write_short_repeat(out, is_signed, v[0], n)
                                 : COMB_EINVALID;
    case RLE2_DIRECT:
        return write_direct(out, is_signed, v, n);
    case RLE2_PATCHED_BASE:
        return patch_plan(v, n, &pp) ? write_patched(out, v, n, &pp)
                                     : COMB_EINVALID;
    case RLE2_DELTA:
        return n >= 2 && delta_plan(v, n, &dp)
                   ? write_delta(out, is_signed, v, n, &dp)
                   : COMB_EINVALID;
    }
    return COMB_EINVALID;
}

void orc_int_enc_init(OrcIntEnc *e, CombBuf *out, bool is_signed)
{
    e->out = out;
    e->is_signed = is_signed;
    e->n = 0;
    e->cap = 0;
    e->vals = NULL;
}

void orc_int_enc_free(OrcIntEnc *e)
{
    comb_free(e->vals);
    e->vals = NULL;
    e->cap = e->n = 0;
}

/* Room for one more pending value: a writer with many small files keeps
 * only what its stripes need, a busy one grows to a full block. */
static int int_enc_grow(OrcIntEnc *e)
{
    int cap = e->cap ? e->cap * 4 : 16;
    int64_t *v;
    if (cap > ORC_RLE2_MAX)
        cap = ORC_RLE2_MAX;
    if (!(v = comb_realloc(e->vals, (size_t)cap * sizeof *v)))
        return COMB_ENOMEM;
    e->vals = v;
    e->cap = cap;
    return COMB_OK;
}

int orc_int_enc_add(OrcIntEnc *e, int64_t v)
{
    if (e->n == e->cap && int_enc_grow(e))
        return COMB_ENOMEM;
    e->vals[e->n++] = v;
    return e->n == ORC_RLE2_MAX ? orc_int_enc_flush(e) : COMB_OK;
}

int orc_int_enc_flush(OrcIntEnc *e)
{
    int n = e->n;
    e->n = 0;
    return n ? rle2_encode_block(e->out, e->is_signed, e->vals, n) : COMB_OK;
}
