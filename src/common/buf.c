/*
 * buf.c - growable byte buffer; doubles its capacity as it fills.
 */
#include "common/buf.h"
#include "common/alloc.h"
#include "common/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int comb_buf_reserve(CombBuf *b, size_t extra)
{
    size_t need = b->len + extra, cap;
    unsigned char *p;
    if (need <= b->cap)
        return COMB_OK;
    cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    p = comb_realloc(b->data, cap);
    if (!p)
        return COMB_ENOMEM;
    b->data = p;
    b->cap = cap;
    return COMB_OK;
}

int comb_buf_append(CombBuf *b, const void *p, size_t n)
{
    if (n == 0)
        return COMB_OK;
    if (comb_buf_reserve(b, n))
        return COMB_ENOMEM;
    memcpy(b->data + b->len, p, n);
    b->len += n;
    return COMB_OK;
}

int comb_buf_append_byte(CombBuf *b, unsigned char c)
{
    if (b->len == b->cap && comb_buf_reserve(b, 1))
        return COMB_ENOMEM;
    b->data[b->len++] = c;
    return COMB_OK;
}

int comb_buf_append_str(CombBuf *b, const char *s)
{
    return comb_buf_append(b, s, strlen(s));
}

int comb_buf_printf(CombBuf *b, const char *fmt, ...)
{
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return COMB_EINVALID;
    if (comb_buf_reserve(b, (size_t)n + 1))
        return COMB_ENOMEM;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return COMB_OK;
}

void comb_buf_free(CombBuf *b)
{
    comb_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}
