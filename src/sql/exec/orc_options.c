/*
 * orc_options.c - the ORC writer settings a table asks for, read as Hive
 * reads them (ORC's OrcConf through OrcFile.writerOptions(tableProperties,
 * conf)): the table property, else the session setting of that name, else
 * Hive's older setting, else ORC's default.
 *
 *   orc.compress      hive.exec.orc.default.compress     ZLIB
 *   orc.stripe.size   hive.exec.orc.default.stripe.size  64 MiB
 *
 * Full-ACID deltas are written with 1/8 of the stripe size, as Hive's
 * OrcRecordUpdater divides it by orc.base.delta.ratio (8); bases and the
 * files of insert-only and plain tables with all of it.
 */
#include "sql/exec/exec.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ORC_DEFAULT_STRIPE_SIZE (64ull << 20)
#define ORC_BASE_DELTA_RATIO 8

/* The value of an OrcConf setting and the name it was found under. */
static const char *orc_conf(SqlStmtCtx *c, const SqlTable *t,
                            const char *key, const char *hive_key,
                            const char **where)
{
    const char *v = ms_table_prop(t->ms, key);
    *where = "table property";
    if (!v) {
        *where = "session setting";
        v = sql_session_get_conf(c->s, key);
    }
    if (!v && (v = sql_session_get_conf(c->s, hive_key)))
        *where = hive_key;
    return v;
}

static int parse_compression(const char *v, const char *where,
                             const SqlTable *t, OrcCompression *out,
                             CombErr *err)
{
    static const struct {
        const char *name;
        OrcCompression kind;
    } kinds[] = {{"NONE", ORC_COMP_NONE}, {"ZLIB", ORC_COMP_ZLIB},
                 {"SNAPPY", ORC_COMP_SNAPPY}, {"LZ4", ORC_COMP_LZ4},
                 {"ZSTD", ORC_COMP_ZSTD}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcasecmp(v, kinds[i].name) == 0) {
            *out = kinds[i].kind;
            return COMB_OK;
        }
    if (strcasecmp(v, "LZO") == 0)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "Cannot write table %s: orc.compress (%s) is LZO, "
                        "which comb does not write; use NONE, ZLIB, SNAPPY, "
                        "LZ4 or ZSTD", t->qualified, where);
    return comb_err(err, COMB_EINVALID,
                    "Cannot write table %s: orc.compress (%s) '%s' is not "
                    "a compression; use NONE, ZLIB, SNAPPY, LZ4 or ZSTD",
                    t->qualified, where, v);
}

static int parse_stripe_size(const char *v, const char *where,
                             const SqlTable *t, uint64_t *out, CombErr *err)
{
    char *end = (char *)v;
    unsigned long long n = 0;
    if (*v >= '0' && *v <= '9')
        n = strtoull(v, &end, 10);
    if (n == 0 || *end != '\0' || n > (1ull << 40))
        return comb_err(err, COMB_EINVALID,
                        "Cannot write table %s: orc.stripe.size (%s) '%s' "
                        "is not a number of bytes from 1 to 2^40",
                        t->qualified, where, v);
    *out = n;
    return COMB_OK;
}

int sql_table_orc_options(SqlStmtCtx *c, const SqlTable *t,
                          SqlOrcOptions *out, CombErr *err)
{
    const char *where, *v;
    int rc;
    out->compression = ORC_COMP_ZLIB;
    out->stripe_size = ORC_DEFAULT_STRIPE_SIZE;
    v = orc_conf(c, t, "orc.compress", "hive.exec.orc.default.compress",
                 &where);
    if (v && (rc = parse_compression(v, where, t, &out->compression, err)))
        return rc;
    v = orc_conf(c, t, "orc.stripe.size", "hive.exec.orc.default.stripe.size",
                 &where);
    if (v && (rc = parse_stripe_size(v, where, t, &out->stripe_size, err)))
        return rc;
    return COMB_OK;
}

uint64_t sql_orc_delta_stripe_size(const SqlOrcOptions *o)
{
    uint64_t n = o->stripe_size / ORC_BASE_DELTA_RATIO;
    return n ? n : 1;
}
