/*
 * memacct.h - a memory budget: what the holders of one statement (sort
 * buffers, hash tables) hold at once, against a limit.  Each holder keeps
 * a share and states what it holds now; the account sums the shares and
 * keeps their peak.  Holders decide themselves what to do when the sum is
 * over the limit (spill, or fail naming it).  Updated atomically: the
 * holders of one statement may run on several threads.
 */
#ifndef COMB_MEMACCT_H
#define COMB_MEMACCT_H

#include <stdbool.h>
#include <stdint.h>

typedef struct CombMemAcct {
    int64_t limit;          /* bytes; 0 = unlimited */
    int64_t used;           /* sum of the shares now */
    int64_t peak;           /* most of used ever */
    int64_t spilled_bytes;  /* written to spill files */
    int64_t spill_files;
} CombMemAcct;

typedef struct CombMemShare {
    CombMemAcct *acct;      /* NULL: not counted */
    int64_t held;
} CombMemShare;

/* The share now holds `bytes` (the account moves by the difference).
 * True when the account is over its limit afterwards. */
bool comb_mem_hold(CombMemShare *s, int64_t bytes);
/* The share holds nothing any more. */
void comb_mem_release(CombMemShare *s);
/* Is the account over its limit (by more than `slack` bytes)? */
bool comb_mem_over(const CombMemAcct *a, int64_t slack);
/* Count `bytes` more written to spill files (files: new files). */
void comb_mem_spilled(CombMemAcct *a, int64_t bytes, int64_t files);

/* A size as users write it: digits with an optional k, m, g or t suffix
 * (powers of 1024, any case, an optional trailing b: "512k", "1MB", "2g").
 * False when s is not one, or does not fit 63 bits. */
bool comb_parse_size(const char *s, int64_t *out);

#endif
