/*
 * hs2_conf.c - the server's own settings, from its --hiveconf pairs: the
 * look-up, whole numbers and booleans, each refused with a reason when
 * malformed; the limits of the server's lifecycle.
 */
#include "server/hs2_int.h"

#include <errno.h>
#include <stdlib.h>
#include <strings.h>

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

int hs2_limits_init(const Hs2Options *opt, Hs2Limits *lim, CombErr *err)
{
    long workers = 500;     /* Hive's default */
    int rc = hs2_conf_long(opt, "hive.server2.thrift.max.worker.threads", 1,
                           100000, &workers, err);
    lim->max_workers = (int)workers;
    return rc;
}
