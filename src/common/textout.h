/*
 * textout.h - append text to a caller's fixed buffer as snprintf does:
 * what fits is kept and NUL-terminated, and the full length is counted so
 * a formatter can return the size it needed.  Used by the value
 * formatters of common/ (decimal.c, datetime.c).
 */
#ifndef COMB_TEXTOUT_H
#define COMB_TEXTOUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *buf;  /* borrowed; may be NULL when cap is 0 */
    size_t cap; /* bytes of buf, the NUL included */
    size_t len; /* characters appended so far, kept or not */
} CombTextOut;

static inline CombTextOut comb_textout(char *buf, size_t cap)
{
    CombTextOut o = {buf, cap, 0};
    return o;
}

static inline void comb_textout_char(CombTextOut *o, char c)
{
    if (o->len + 1 < o->cap)
        o->buf[o->len] = c;
    o->len++;
}

/* v in decimal, zero-padded to at least `width` digits. */
static inline void comb_textout_uint(CombTextOut *o, uint64_t v, int width)
{
    char rev[20];
    int n = 0;
    do {
        rev[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    for (; width > n; width--)
        comb_textout_char(o, '0');
    while (n > 0)
        comb_textout_char(o, rev[--n]);
}

/* NUL-terminate what was kept; returns the full length. */
static inline size_t comb_textout_finish(CombTextOut *o)
{
    if (o->cap > 0)
        o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
    return o->len;
}

#endif
