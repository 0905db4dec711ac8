/*
 * memacct.c - the memory budget's counters (relaxed atomics: the sum only
 * has to be right once every holder has stated its share).
 */
#include "common/memacct.h"

#include <ctype.h>

bool comb_mem_hold(CombMemShare *s, int64_t bytes)
{
    int64_t used, peak;
    if (!s->acct)
        return false;
    used = __atomic_add_fetch(&s->acct->used, bytes - s->held, __ATOMIC_RELAXED);
    s->held = bytes;
    peak = __atomic_load_n(&s->acct->peak, __ATOMIC_RELAXED);
    while (used > peak &&
           !__atomic_compare_exchange_n(&s->acct->peak, &peak, used, 1,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    return s->acct->limit > 0 && used > s->acct->limit;
}

void comb_mem_release(CombMemShare *s)
{
    comb_mem_hold(s, 0);
}

bool comb_mem_over(const CombMemAcct *a, int64_t slack)
{
    return a && a->limit > 0 &&
           __atomic_load_n(&a->used, __ATOMIC_RELAXED) > a->limit + slack;
}

void comb_mem_spilled(CombMemAcct *a, int64_t bytes, int64_t files)
{
    __atomic_add_fetch(&a->spilled_bytes, bytes, __ATOMIC_RELAXED);
    __atomic_add_fetch(&a->spill_files, files, __ATOMIC_RELAXED);
}

bool comb_parse_size(const char *s, int64_t *out)
{
    int64_t v = 0, unit = 1;
    const char *p = s;
    if (!isdigit((unsigned char)*p))
        return false;
    for (; isdigit((unsigned char)*p); p++) {
        if (v > (INT64_MAX - (*p - '0')) / 10)
            return false;
        v = v * 10 + (*p - '0');
    }
    switch (tolower((unsigned char)*p)) {
    case 'k': unit = 1LL << 10; p++; break;
    case 'm': unit = 1LL << 20; p++; break;
    case 'g': unit = 1LL << 30; p++; break;
    case 't': unit = 1LL << 40; p++; break;
    default: break;
    }
    if (tolower((unsigned char)*p) == 'b')
        p++;
    if (*p || (v && v > INT64_MAX / unit))
        return false;
    *out = v * unit;
    return true;
}
