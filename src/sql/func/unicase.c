/*
 * unicase.c - Java's String case conversion over UTF-8 (unicase.h).  The
 * mappings are tables generated from the Unicode Character Database
 * (tools/gen_unicase.py), so the answer does not depend on the C library's
 * locale data.
 */
#include "sql/func/unicase.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/err.h"

typedef struct UniPair {
    uint32_t from, to;
} UniPair;

typedef struct UniSpecial {
    uint32_t from;
    int n;
    uint32_t to[3];
} UniSpecial;

#include "sql/func/unicase_tab.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define REPLACEMENT 0xFFFDu
#define CAPITAL_SIGMA 0x03A3u
#define FINAL_SIGMA 0x03C2u

/* Both table row types start with the code point they map. */
static int by_code_point(const void *key, const void *row)
{
    uint32_t a = *(const uint32_t *)key, b = *(const uint32_t *)row;
    return a < b ? -1 : a > b;
}

static const UniPair *find_pair(const UniPair *t, size_t n, uint32_t cp)
{
    return bsearch(&cp, t, n, sizeof *t, by_code_point);
}

static const UniSpecial *find_special(const UniSpecial *t, size_t n,
                                      uint32_t cp)
{
    return bsearch(&cp, t, n, sizeof *t, by_code_point);
}

/* Decode the character at s[*i] and advance; malformed or truncated
 * sequences, overlong forms and surrogates give U+FFFD for one byte. */
static uint32_t utf8_next(CombStr s, uint32_t *i)
{
    const unsigned char *p = (const unsigned char *)s.ptr + *i;
    uint32_t left = s.len - *i, cp, n;
    if (p[0] < 0x80) {
        (*i)++;
        return p[0];
    }
    if (p[0] >= 0xC2 && p[0] <= 0xDF) {
        n = 2;
        cp = p[0] & 0x1F;
    } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        n = 3;
        cp = p[0] & 0x0F;
    } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
        n = 4;
        cp = p[0] & 0x07;
    } else {
        (*i)++;
        return REPLACEMENT;
    }
    if (left < n) {
        (*i)++;
        return REPLACEMENT;
    }
    for (uint32_t k = 1; k < n; k++) {
        if ((p[k] & 0xC0) != 0x80) {
            (*i)++;
            return REPLACEMENT;
        }
        cp = cp << 6 | (p[k] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
        (*i)++;
        return REPLACEMENT;
    }
    *i += n;
    return cp;
}

static size_t utf8_put(char *out, uint32_t cp)
{
    unsigned char *o = (unsigned char *)out;
    if (cp < 0x80) {
        o[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (unsigned char)(0xC0 | cp >> 6);
        o[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | cp >> 12);
        o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18);
    o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A letter with case: it has an upper or a lower case form. */
static bool is_cased(uint32_t cp)
{
    return find_pair(uni_upper, N_OF(uni_upper), cp) ||
           find_pair(uni_lower, N_OF(uni_lower), cp);
}

/* Combining marks between letters do not end a word. */
static bool case_ignorable(uint32_t cp)
{
    return (cp >= 0x0300 && cp <= 0x036F) || cp == '\'' || cp == 0x2019;
}

/* Final_Sigma (Unicode 3.13): a cased letter before the sigma (the
 * caller tracks it) and none after it, case-ignorable characters skipped. */
static bool sigma_is_final(CombStr s, uint32_t end, bool cased_before)
{
    uint32_t i = end;
    while (cased_before && i < s.len) {
        uint32_t cp = utf8_next(s, &i);
        if (!case_ignorable(cp))
            return !is_cased(cp);
    }
    return cased_before;
}

static size_t map_char(CombStr s, uint32_t end, uint32_t cp, bool upper,
                       bool cased_before, char *out)
{
    const UniSpecial *sp;
    const UniPair *pair;
    size_t w = 0;
    if (!upper && cp == CAPITAL_SIGMA && sigma_is_final(s, end, cased_before))
        return utf8_put(out, FINAL_SIGMA);
    sp = upper ? find_special(uni_upper_full, N_OF(uni_upper_full), cp)
               : find_special(uni_lower_full, N_OF(uni_lower_full), cp);
    if (sp) {
        for (int k = 0; k < sp->n; k++)
            w += utf8_put(out + w, sp->to[k]);
        return w;
    }
    pair = upper ? find_pair(uni_upper, N_OF(uni_upper), cp)
                 : find_pair(uni_lower, N_OF(uni_lower), cp);
    return utf8_put(out, pair ? pair->to : cp);
}

int sql_utf8_case(CombStr in, bool upper, CombArena *a, CombStr *out)
{
    /* a character grows at most 6 times (one invalid byte -> U+FFFD is 3,
     * a 2-byte letter -> 3 characters of 3 bytes is 9/2 ... 12/2) */
    char *p = comb_arena_alloc(a, (size_t)in.len * 6 + 1);
    size_t w = 0;
    uint32_t i = 0;
    bool cased_before = false;
    if (!p)
        return COMB_ENOMEM;
    while (i < in.len) {
        uint32_t cp = utf8_next(in, &i);
        if (cp < 0x80) {
            char c = (char)cp;
            cased_before = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                           (cased_before && c == '\'');
            if (upper && c >= 'a' && c <= 'z')
                c = (char)(c - 'a' + 'A');
            else if (!upper && c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            p[w++] = c;
            continue;
        }
        w += map_char(in, i, cp, upper, cased_before, p + w);
        if (!case_ignorable(cp))
            cased_before = is_cased(cp);
    }
    *out = (CombStr){p, (uint32_t)w};
    return COMB_OK;
}
