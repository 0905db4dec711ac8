/*
 * arena.c - blocks chained newest first; a request larger than the block
 * size gets a block of its own so big strings don't waste a whole block.
 */
#include "common/arena.h"
#include "common/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct CombArenaBlock {
    CombArenaBlock *next;
    size_t size;   /* usable bytes in data */
    size_t used;
    _Alignas(16) unsigned char data[];
};

void comb_arena_init(CombArena *a, size_t block_size)
{
    a->head = NULL;
    a->spare = NULL;
    a->block_size = block_size ? block_size : 64 * 1024;
    a->total = 0;
}

static CombArenaBlock *arena_new_block(CombArena *a, size_t need)
{
    size_t size = need > a->block_size ? need : a->block_size;
    CombArenaBlock *b;
    if (size == a->block_size && a->spare) {
        b = a->spare;
        a->spare = b->next;
        b->used = 0;
        b->next = a->head;
        a->head = b;
        return b;
    }
    b = comb_malloc(sizeof *b + size);
    if (!b)
        return NULL;
    b->size = size;
    b->used = 0;
    b->next = a->head;
    a->head = b;
    a->total += size;
    return b;
}

void *comb_arena_alloc(CombArena *a, size_t n)
{
    CombArenaBlock *b = a->head;
    size_t off;
    if (n == 0)
        n = 1;
    if (b) {
        off = (b->used + 15) & ~(size_t)15;
        if (off <= b->size && n <= b->size - off) {
            b->used = off + n;
            return b->data + off;
        }
    }
    b = arena_new_block(a, n);
    if (!b)
        return NULL;
    b->used = n;
    return b->data;
}

void *comb_arena_calloc(CombArena *a, size_t n)
{
    void *p = comb_arena_alloc(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

char *comb_arena_strndup(CombArena *a, const char *s, size_t n)
{
    char *d = comb_arena_alloc(a, n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *comb_arena_strdup(CombArena *a, const char *s)
{
    return comb_arena_strndup(a, s, strlen(s));
}

char *comb_arena_printf(CombArena *a, const char *fmt, ...)
{
    va_list ap;
    int n;
    char *d;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    d = comb_arena_alloc(a, (size_t)n + 1);
    if (!d)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

void comb_arena_reset(CombArena *a)
{
    CombArenaBlock *b = a->head, *next;
    size_t kept = 0;
    if (!b)     /* nothing to give back: callers reset per row */
        return;
    for (CombArenaBlock *sp = a->spare; sp; sp = sp->next)
        kept += sp->size;
    while (b) {
        next = b->next;
        if (b->size == a->block_size && kept + b->size <= COMB_ARENA_SPARE_MAX) {
            b->next = a->spare;
            a->spare = b;
            kept += b->size;
        } else {
            a->total -= b->size;
            comb_free(b);
        }
        b = next;
    }
    a->head = NULL;
}

static void free_chain(CombArenaBlock *b)
{
    while (b) {
        CombArenaBlock *next = b->next;
        comb_free(b);
        b = next;
    }
}

void comb_arena_free(CombArena *a)
{
    free_chain(a->head);
    free_chain(a->spare);
    a->head = NULL;
    a->spare = NULL;
    a->total = 0;
}
