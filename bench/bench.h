/*
 * bench.h - what every benchmark measures with: wall clock, CPU time and
 * peak RSS of this process.  Header only: each bench is one program.
 */
#ifndef COMB_BENCH_H
#define COMB_BENCH_H

#include <sys/resource.h>
#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* User + system CPU seconds of this process so far: the machine may be
 * shared, and CPU time tells what wall time may not. */
static inline double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

#endif
