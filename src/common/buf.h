/*
 * buf.h - growable byte buffer (owned heap memory).
 */
#ifndef COMB_BUF_H
#define COMB_BUF_H

#include <stddef.h>
#include <stdint.h>

typedef struct CombBuf {
    unsigned char *data;  /* owned; NULL while empty */
    size_t len;
    size_t cap;
} CombBuf;

#define COMB_BUF_INIT {NULL, 0, 0}

/* Ensure room for `extra` more bytes; 0 or COMB_ENOMEM. */
int comb_buf_reserve(CombBuf *b, size_t extra);
int comb_buf_append(CombBuf *b, const void *p, size_t n);
int comb_buf_append_byte(CombBuf *b, unsigned char c);
int comb_buf_append_str(CombBuf *b, const char *s);
int comb_buf_printf(CombBuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Keep the memory, forget the contents. */
static inline void comb_buf_clear(CombBuf *b) { b->len = 0; }
void comb_buf_free(CombBuf *b);

#endif
