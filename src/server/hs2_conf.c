/*
 * hs2_conf.c - the server's own settings, from its --hiveconf pairs: the
 * look-up, whole numbers, booleans, sizes and Hive's time values, each
 * refused with a reason when malformed; the limits of the server's
 * lifecycle (connections, idle time-outs, the stop's grace, a result's
 * memory); and the clock the time-outs are measured by.
 */
#include "server/hs2_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "common/memacct.h"

const char *hs2_conf_value(const Hs2Options *opt, const char *key)
{
    const char *v = NULL;
    for (int i = 0; i < opt->n_conf; i++)
        if (!strcasecmp(opt->conf_keys[i], key))
            v = opt->conf_values[i];
    return v;
}

int hs2_conf_long(const Hs2Options *opt, const char *key, long lo, long hi,
                  long *out, CombErr *err)
{
    const char *v = hs2_conf_value(opt, key);
    char *end;
    long n;
    if (!v)
        return COMB_OK;
    errno = 0;
    n = strtol(v, &end, 10);
    if (!*v || *end || errno || n < lo || n > hi)
        return comb_err(err, COMB_EINVALID, "%s=%s: expected a number from "
                        "%ld to %ld", key, v, lo, hi);
    *out = n;
    return COMB_OK;
}

int hs2_conf_bool(const Hs2Options *opt, const char *key, bool *out,
                  CombErr *err)
{
    const char *v = hs2_conf_value(opt, key);
    if (!v)
        return COMB_OK;
    if (strcasecmp(v, "true") && strcasecmp(v, "false"))
        return comb_err(err, COMB_EINVALID, "%s=%s: expected true or false",
                        key, v);
    *out = !strcasecmp(v, "true");
    return COMB_OK;
}

/* Hive's time units (HiveConf's TimeValidator), in milliseconds; the
 * sub-millisecond ones as fractions of one, which the sum truncates. */
static const struct {
    const char *name;
    int64_t ms, per;
} units[] = {
    {"ns", 1, 1000000}, {"nsec", 1, 1000000}, {"nanosecond", 1, 1000000},
    {"nanoseconds", 1, 1000000}, {"us", 1, 1000}, {"usec", 1, 1000},
    {"microsecond", 1, 1000}, {"microseconds", 1, 1000}, {"ms", 1, 1},
    {"msec", 1, 1}, {"millisecond", 1, 1}, {"milliseconds", 1, 1},
    {"s", 1000, 1}, {"sec", 1000, 1}, {"second", 1000, 1},
    {"seconds", 1000, 1}, {"m", 60000, 1}, {"min", 60000, 1},
    {"minute", 60000, 1}, {"minutes", 60000, 1}, {"h", 3600000, 1},
    {"hour", 3600000, 1}, {"hours", 3600000, 1}, {"d", 86400000, 1},
    {"day", 86400000, 1}, {"days", 86400000, 1},
};

bool hs2_duration_ms(const char *text, int64_t unit_ms, int64_t *out)
{
    char *end;
    long long n;
    int64_t ms = unit_ms, per = 1;
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!isdigit((unsigned char)(*p == '-' || *p == '+' ? p[1] : *p)))
        return false;
    errno = 0;
    n = strtoll(p, &end, 10);
    while (isspace((unsigned char)*end))
        end++;
    if (errno)
        return false;
    if (*end) {
        size_t i = 0, len = strlen(end);
        while (len > 0 && isspace((unsigned char)end[len - 1]))
            len--;
        for (; i < sizeof units / sizeof *units; i++)
            if (strlen(units[i].name) == len &&
                !strncasecmp(end, units[i].name, len))
                break;
        if (i == sizeof units / sizeof *units)
            return false;
        ms = units[i].ms;
        per = units[i].per;
    }
    /* beyond this a number of days would not fit in milliseconds */
    if (n > INT64_MAX / 86400000 || n < -(INT64_MAX / 86400000))
        return false;
    *out = n * ms / per;
    return true;
}

int hs2_conf_duration(const Hs2Options *opt, const char *key, int64_t unit_ms,
                      int64_t *out, CombErr *err)
{
    const char *v = hs2_conf_value(opt, key);
    if (v && !hs2_duration_ms(v, unit_ms, out))
        return comb_err(err, COMB_EINVALID, "%s=%s: expected a time such as "
                        "%s, 30s, 5m, 1h or 7d", key, v,
                        unit_ms == 1000 ? "30 (seconds)"
                                        : "30000 (milliseconds)");
    return COMB_OK;
}

int hs2_conf_size(const Hs2Options *opt, const char *key, int64_t *out,
                  CombErr *err)
{
    const char *v = hs2_conf_value(opt, key);
    if (v && !comb_parse_size(v, out))
        return comb_err(err, COMB_EINVALID, "%s=%s: expected a size in bytes "
                        "with an optional k, m, g or t, such as 64m", key, v);
    return COMB_OK;
}

int hs2_limits_init(const Hs2Options *opt, Hs2Limits *lim, CombErr *err)
{
    long workers = 500, async_threads = 100, async_queue = 100;
    int rc;
    /* Hive's defaults */
    lim->session_idle_ms = 4 * 3600000LL;
    lim->op_idle_ms = 2 * 3600000LL;
    lim->idle_check_ops = true;
    lim->grace_ms = 1800 * 1000LL;
    /* comb's own: a result's rows beyond it go to a file, as Hive's do */
    lim->result_memory = 64LL << 20;
    if ((rc = hs2_conf_long(opt, "hive.server2.thrift.max.worker.threads", 1,
                            100000, &workers, err)) ||
        (rc = hs2_conf_duration(opt, "hive.server2.idle.session.timeout", 1,
                                &lim->session_idle_ms, err)) ||
        (rc = hs2_conf_duration(opt, "hive.server2.idle.operation.timeout", 1,
                                &lim->op_idle_ms, err)) ||
        (rc = hs2_conf_bool(opt, "hive.server2.idle.session.check.operation",
                            &lim->idle_check_ops, err)) ||
        (rc = hs2_conf_duration(opt, "hive.server2.graceful.stop.timeout",
                                1000, &lim->grace_ms, err)) ||
        (rc = hs2_conf_long(opt, "hive.server2.async.exec.threads", 1, 100000,
                            &async_threads, err)) ||
        (rc = hs2_conf_long(opt, "hive.server2.async.exec.wait.queue.size", 0,
                            1000000, &async_queue, err)) ||
        (rc = hs2_conf_size(opt, "comb.server.result.memory",
                            &lim->result_memory, err)))
        return rc;
    lim->max_workers = (int)workers;
    lim->async_threads = (int)async_threads;
    lim->async_queue = (int)async_queue;
    if (lim->grace_ms < 0)
        lim->grace_ms = 0;
    return COMB_OK;
}

int64_t hs2_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
