/*
 * arena.h - bump allocator for memory whose lifetime is a statement, a batch
 * or a file: allocate freely, release everything at once with reset/free.
 *
 * Ownership: the arena owns every block it hands out.  Pointers stay valid
 * until comb_arena_reset() or comb_arena_free().  Not thread-safe.
 */
#ifndef COMB_ARENA_H
#define COMB_ARENA_H

#include <stddef.h>

typedef struct CombArenaBlock CombArenaBlock;

typedef struct CombArena {
    CombArenaBlock *head;     /* newest block, allocations come from here */
    CombArenaBlock *spare;    /* regular blocks kept by reset for reuse */
    size_t block_size;        /* default size of a new block */
    size_t total;             /* bytes held in all blocks, spare included */
} CombArena;

/* Most bytes of spare blocks an arena keeps across resets: a statement
 * that needed many blocks gets them back next time without page faults,
 * while a one-off huge statement does not pin its memory for ever. */
#define COMB_ARENA_SPARE_MAX (16u * 1024 * 1024)

/* Initialise an empty arena (no allocation happens until first use). */
void comb_arena_init(CombArena *a, size_t block_size);

/* 16-byte aligned memory (128-bit decimals may live in it), or NULL when
 * out of memory. */
void *comb_arena_alloc(CombArena *a, size_t n);
void *comb_arena_calloc(CombArena *a, size_t n);
char *comb_arena_strdup(CombArena *a, const char *s);
char *comb_arena_strndup(CombArena *a, const char *s, size_t n);
char *comb_arena_printf(CombArena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Drop everything; regular-sized blocks (up to COMB_ARENA_SPARE_MAX
 * bytes) are kept for reuse. */
void comb_arena_reset(CombArena *a);

/* Release all memory; the arena may be re-initialised. */
void comb_arena_free(CombArena *a);

#endif
