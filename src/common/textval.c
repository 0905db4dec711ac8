/*
 * textval.c - primitive values from text (textval.h).  The number, date
 * and time grammars live in numparse.c, decimal.c and datetime.c; this
 * file picks one per kind and holds the UTF-8 decoding of the sized
 * string kinds.
 */
#include "common/textval.h"

#include <string.h>

#include "common/datetime.h"
#include "common/numparse.h"

bool comb_textval_word(const unsigned char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    if (n != k)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char u = s[i] >= 'A' && s[i] <= 'Z' ? s[i] + 32 : s[i];
        if (u != (unsigned char)w[i])
            return false;
    }
    return true;
}

bool comb_textval_read(const CombType *t, const char *s, size_t n, bool trim,
                       CombVector *v, int row)
{
    const unsigned char *u = (const unsigned char *)s;
    switch (t->kind) {
    case COMB_T_BOOLEAN:
        if (comb_textval_word(u, n, "true") ||
            comb_textval_word(u, n, "false")) {
            v->i64[row] = n == 4;
            return true;
        }
        return false;
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
        return comb_parse_int(s, n, t->kind, trim, &v->i64[row]);
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return comb_parse_double(s, n, t->kind == COMB_T_FLOAT, &v->f64[row]);
    case COMB_T_DECIMAL:
        return comb_dec_parse(s, n, (int)t->scale, &v->dec[row]) &&
               comb_dec_fits(v->dec[row], (int)t->precision);
    case COMB_T_DATE:
        return n >= 8 && comb_date_parse(s, n, &v->i64[row]);
    case COMB_T_TIMESTAMP:
        return n >= 8 && comb_timestamp_parse(s, n, &v->i64[row],
                                              &v->nanos[row]);
    default:
        return false;
    }
}

/* Bytes of the well-formed UTF-8 character at p[0..n), or 0 when p starts
 * a malformed sequence, which is then *bad bytes long: the bytes Java's
 * UTF-8 decoder replaces by one U+FFFD (Hadoop's Text.decode replaces
 * rather than fails).  That is the longest start of a valid sequence, up
 * to the first byte that cannot continue it, except that an encoded
 * surrogate (ED A0..BF xx) goes as a whole: Java checks the second byte of
 * ED like any continuation and refuses the surrogate afterwards. */
static size_t utf8_char(const unsigned char *p, size_t n, size_t *bad)
{
    unsigned char c = p[0], lo = 0x80, hi = 0xBF;
    size_t need;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        lo = c == 0xE0 ? 0xA0 : 0x80;   /* no overlong forms */
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;   /* nothing beyond U+10FFFF */
    } else {
        *bad = 1;
        return 0;
    }
    for (size_t i = 1; i <= need; i++) {
        unsigned char b = i < n ? p[i] : 0;
        if (i >= n || b < (i == 1 ? lo : 0x80) || b > (i == 1 ? hi : 0xBF)) {
            *bad = i;
            return 0;
        }
    }
    if (c == 0xED && p[1] >= 0xA0) {    /* U+D800..U+DFFF */
        *bad = 3;
        return 0;
    }
    return need + 1;
}

/* Walk s[0..n) as decoded text, at most max characters: returns the bytes
 * the result takes (malformed sequences as U+FFFD), written to dst unless
 * it is NULL; *chars = characters taken, *replaced = any U+FFFD. */
static size_t decode_cut(const unsigned char *s, size_t n, uint32_t max,
                         unsigned char *dst, uint32_t *chars, bool *replaced)
{
    size_t i = 0, out = 0;
    *chars = 0;
    *replaced = false;
    while (i < n && *chars < max) {
        size_t bad = 0, k = utf8_char(s + i, n - i, &bad);
        if (k) {
            if (dst)
                memcpy(dst + out, s + i, k);
            out += k;
            i += k;
        } else {
            if (dst)
                memcpy(dst + out, "\xEF\xBF\xBD", 3);
            out += 3;
            i += bad;
            *replaced = true;
        }
        (*chars)++;
    }
    return out;
}

int comb_textval_sized(const CombType *t, const unsigned char *s, size_t n,
                       CombArena *a, CombStr *out)
{
    uint32_t max = t->max_length ? t->max_length : UINT32_MAX, chars, pad = 0;
    unsigned char *d;
    bool replaced;
    size_t len = decode_cut(s, n, max, NULL, &chars, &replaced);
    if (t->kind == COMB_T_CHAR && chars < max)
        pad = max - chars;
    if (!replaced && pad == 0) {
        *out = (CombStr){(const char *)s, (uint32_t)len};
        return COMB_OK;
    }
    if (!(d = comb_arena_alloc(a, len + pad)))
        return COMB_ENOMEM;
    decode_cut(s, n, max, d, &chars, &replaced);
    memset(d + len, ' ', pad);
    *out = (CombStr){(const char *)d, (uint32_t)(len + pad)};
    return COMB_OK;
}
