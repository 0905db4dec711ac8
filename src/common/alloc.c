/*
 * alloc.c - accounting wrappers over malloc.
 *
 * Each block carries a 16-byte header with its size so that frees can be
 * counted; 16 keeps the payload aligned for any scalar type.
 */
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

#define HDR 16

/* Counted by every thread (a session's heartbeater allocates too), so
 * updated atomically; the failure countdown belongs to the thread that
 * armed it, so a background thread never takes a test's failure. */
static struct {
    int64_t live;
    int64_t peak;
} alloc_state;
static _Thread_local int64_t fail_countdown;

static int alloc_should_fail(void)
{
    if (fail_countdown <= 0)
        return 0;
    return --fail_countdown == 0;
}

static void alloc_count(int64_t delta)
{
    int64_t live = __atomic_add_fetch(&alloc_state.live, delta, __ATOMIC_RELAXED);
    int64_t peak = __atomic_load_n(&alloc_state.peak, __ATOMIC_RELAXED);
    while (live > peak &&
           !__atomic_compare_exchange_n(&alloc_state.peak, &peak, live, 1,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

void *comb_malloc(size_t n)
{
    unsigned char *p;
    if (alloc_should_fail())
        return NULL;
    p = malloc(n + HDR);
    if (!p)
        return NULL;
    memcpy(p, &n, sizeof n);
    alloc_count((int64_t)n);
    return p + HDR;
}

void *comb_calloc(size_t count, size_t size)
{
    void *p;
    if (size && count > SIZE_MAX / size)
        return NULL;
    p = comb_malloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *comb_realloc(void *old, size_t n)
{
    unsigned char *base;
    size_t old_n;
    if (!old)
        return comb_malloc(n);
    if (alloc_should_fail())
        return NULL;
    base = (unsigned char *)old - HDR;
    memcpy(&old_n, base, sizeof old_n);
    base = realloc(base, n + HDR);
    if (!base)
        return NULL;
    memcpy(base, &n, sizeof n);
    alloc_count((int64_t)n - (int64_t)old_n);
    return base + HDR;
}

void comb_free(void *p)
{
    unsigned char *base;
    size_t n;
    if (!p)
        return;
    base = (unsigned char *)p - HDR;
    memcpy(&n, base, sizeof n);
    alloc_count(-(int64_t)n);
    free(base);
}

char *comb_strndup(const char *s, size_t n)
{
    char *d = comb_malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *comb_strdup(const char *s)
{
    return comb_strndup(s, strlen(s));
}

int64_t comb_alloc_live_bytes(void) { return __atomic_load_n(&alloc_state.live, __ATOMIC_RELAXED); }
int64_t comb_alloc_peak_bytes(void) { return __atomic_load_n(&alloc_state.peak, __ATOMIC_RELAXED); }

void comb_alloc_peak_reset(void)
{
    __atomic_store_n(&alloc_state.peak, comb_alloc_live_bytes(), __ATOMIC_RELAXED);
}
void comb_alloc_fail_after(int64_t countdown) { fail_countdown = countdown; }
