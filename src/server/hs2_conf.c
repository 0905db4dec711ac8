/*
 * hs2_conf.c - the server's own settings, from its --hiveconf pairs: the
 * look-up, whole numbers, booleans, sizes and Hive's time values, each
 * refused with a reason when malformed; the limits of the server's
 * lifecycle (connections, idle time-outs, the stop's grace, a result's
 * memory); and the clock the time-outs are measured by.
 */
#include "server/hs2_int.h"

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

int hs2_conf_duration(const Hs2Options *opt, const char *key, int64_t unit_ms,
                      int64_t *out, CombErr *err)
{
    const char *v = hs2_conf_value(opt, key);
    if (v && !comb_duration_ms(v, unit_ms, out))
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
