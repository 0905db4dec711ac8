/*
 * alloc.h - the one allocator: counts live and peak bytes, and in test builds
 * can be told to fail the Nth allocation (an OOM countdown for fault tests).
 *
 * All comb code allocates through these; they return NULL on failure and
 * callers turn that into COMB_ENOMEM.  comb_free(NULL) is a no-op.
 */
#ifndef COMB_ALLOC_H
#define COMB_ALLOC_H

#include <stddef.h>
#include <stdint.h>

void *comb_malloc(size_t n);
void *comb_calloc(size_t count, size_t size);
void *comb_realloc(void *p, size_t n);
void comb_free(void *p);
char *comb_strdup(const char *s);
char *comb_strndup(const char *s, size_t n);

/* Bytes currently allocated, and the most ever allocated at once. */
int64_t comb_alloc_live_bytes(void);
int64_t comb_alloc_peak_bytes(void);
/* Restart the peak from the bytes live now, so that a test can measure
 * the peak of one operation. */
void comb_alloc_peak_reset(void);

/* Make the allocation after `countdown` more succeed fail (0 = off). */
void comb_alloc_fail_after(int64_t countdown);

#endif
