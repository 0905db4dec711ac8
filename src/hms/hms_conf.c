/*
 * hms_conf.c - the service's settings (hms_int.h): the metastore it
 * serves, its limits and the transaction time-outs its housekeeper uses,
 * from the --hiveconf pairs with Hive's defaults.
 */
#include "hms/hms_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/duration.h"
#include "fs/fs.h"

#define METASTORE_URL_KEY "comb.metastore.url"

/* Hive's defaults of the settings the service uses or reports. */
static const struct {
    const char *key, *value;
} defaults[] = {
    {"hive.metastore.server.max.threads", "1000"},
    {"hive.metastore.server.max.message.size", "104857600"},
    {"hive.txn.timeout", "300s"},
    {"metastore.acid.housekeeper.interval", "60s"},
};

const char *hms_conf_value(const HmsConf *c, const char *key)
{
    const char *v = NULL;
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->keys[i], key))
            v = c->values[i];          /* the last one given counts */
    if (v)
        return v;
    if (!strcmp(key, "hive.metastore.warehouse.dir"))
        return c->warehouse;
    for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
        if (!strcmp(defaults[i].key, key))
            return defaults[i].value;
    return NULL;
}

/* A whole number of at least min. */
static int conf_long(const HmsConf *c, const char *key, int64_t min,
                     int64_t *out, CombErr *err)
{
    const char *s = hms_conf_value(c, key);
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (!*s || *end || errno || v < min)
        return comb_err(err, COMB_EINVALID,
                        "%s: '%s' is not a whole number of at least %lld",
                        key, s, (long long)min);
    *out = v;
    return COMB_OK;
}

/* A time of Hive's form (common/duration.h), not negative: a number in
 * seconds (these settings' unit), or with a unit ("30s", "5 min", "1h"). */
static int conf_duration_ms(const HmsConf *c, const char *key, int64_t *out,
                            CombErr *err)
{
    const char *s = hms_conf_value(c, key);
    int64_t ms;
    if (comb_duration_ms(s, 1000, &ms) && ms >= 0) {
        *out = ms;
        return COMB_OK;
    }
    return comb_err(err, COMB_EINVALID,
                    "%s: '%s' is not a time (a number of seconds, or with "
                    "a unit ms, s, min, h or d)", key, s);
}

/* The warehouse as an absolute path (table locations are made from it,
 * and a relative one would name another place for a client), made when a
 * local one is not there yet, as comb's other commands make it. */
static int warehouse_init(HmsConf *c, const char *path, CombErr *err)
{
    CombArena a;
    comb_arena_init(&a, 0);
    const char *abs = fs_absolute(&a, path);
    c->warehouse = abs ? comb_strdup(abs) : NULL;
    comb_arena_free(&a);
    if (!c->warehouse)
        return comb_err_nomem(err);
    return fs_is_remote(c->warehouse) ? COMB_OK : fs_mkdirs(c->warehouse, err);
}

int hms_conf_init(const HmsOptions *opt, HmsConf *c, CombErr *err)
{
    const char *url;
    int64_t threads;
    int rc;
    memset(c, 0, sizeof *c);
    c->keys = opt->conf_keys;
    c->values = opt->conf_values;
    c->n = opt->n_conf;
    url = opt->metastore ? opt->metastore : hms_conf_value(c, METASTORE_URL_KEY);
    if ((rc = warehouse_init(c, opt->warehouse, err))) {
        hms_conf_free(c);
        return rc;
    }
    if (url) {
        c->target = comb_strdup(url);
    } else {
        size_t n = strlen(c->warehouse) + sizeof "/metastore.db";
        if ((c->target = comb_malloc(n)))
            snprintf(c->target, n, "%s/metastore.db", c->warehouse);
    }
    if (!c->target) {
        hms_conf_free(c);
        return comb_err_nomem(err);
    }
    if ((rc = conf_long(c, "hive.metastore.server.max.threads", 1, &threads,
                        err)) ||
        (rc = conf_long(c, "hive.metastore.server.max.message.size", 1024,
                        &c->max_message, err)) ||
        (rc = conf_duration_ms(c, "hive.txn.timeout", &c->txn_timeout_ms,
                               err)) ||
        (rc = conf_duration_ms(c, "metastore.acid.housekeeper.interval",
                               &c->housekeeping_ms, err))) {
        hms_conf_free(c);
        return rc;
    }
    c->max_threads = threads > 100000 ? 100000 : (int)threads;
    if (c->max_message > INT32_MAX)
        c->max_message = INT32_MAX;
    return COMB_OK;
}

void hms_conf_free(HmsConf *c)
{
    comb_free(c->target);
    comb_free(c->warehouse);
    c->target = NULL;
    c->warehouse = NULL;
}
