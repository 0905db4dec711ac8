/*
 * base64.c - Base64 as Hive's text format uses it; see base64.h.
 */
#include "common/base64.h"

#include <stdint.h>

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t comb_base64_encoded_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void comb_base64_encode(const unsigned char *src, size_t n, char *dst)
{
    size_t i = 0, o = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 |
                     src[i + 2];
        dst[o++] = alphabet[v >> 18];
        dst[o++] = alphabet[(v >> 12) & 63];
        dst[o++] = alphabet[(v >> 6) & 63];
        dst[o++] = alphabet[v & 63];
    }
    if (i < n) {
        uint32_t v = (uint32_t)src[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)src[i + 1] << 8;
        dst[o++] = alphabet[v >> 18];
        dst[o++] = alphabet[(v >> 12) & 63];
        dst[o++] = i + 1 < n ? alphabet[(v >> 6) & 63] : '=';
        dst[o++] = '=';
    }
}

/* Value of one alphabet character, -1 for anything else. */
static int sextet(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool comb_base64_decode(const char *src, size_t n, unsigned char *dst,
                        size_t *out_len)
{
    uint32_t bits = 0;
    int in_unit = 0;   /* characters of the current 4-character unit */
    size_t i = 0, o = 0;
    for (; i < n; i++) {
        int v = sextet((unsigned char)src[i]);
        if (v < 0) {
            if (src[i] != '=')
                return false;
            /* "=" alone, "x=": too little data; "xx=" must be "xx==" */
            if (in_unit < 2 ||
                (in_unit == 2 && (++i == n || src[i] != '=')))
                return false;
            i++;
            break;
        }
        bits = bits << 6 | (uint32_t)v;
        if (++in_unit == 4) {
            dst[o++] = (unsigned char)(bits >> 16);
            dst[o++] = (unsigned char)(bits >> 8);
            dst[o++] = (unsigned char)bits;
            bits = 0;
            in_unit = 0;
        }
    }
    if (i < n || in_unit == 1)
        return false;
    if (in_unit == 2) {
        dst[o++] = (unsigned char)(bits >> 4);
    } else if (in_unit == 3) {
        dst[o++] = (unsigned char)(bits >> 10);
        dst[o++] = (unsigned char)(bits >> 2);
    }
    *out_len = o;
    return true;
}
