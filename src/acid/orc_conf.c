/*
 * orc_conf.c - the ORC writer settings of a table (orc_conf.h): each
 * setting through the caller's lookup, parsed as ORC's OrcConf parses it,
 * ORC's default where it is unset.
 */
#include "acid/orc_conf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ORC_DEFAULT_STRIPE_SIZE (64ull << 20)
#define ORC_BASE_DELTA_RATIO 8
#define ORC_DEFAULT_DICT_THRESHOLD 0.8
#define ORC_DEFAULT_BLOCK_SIZE (256u << 10)
#define ORC_DEFAULT_STRIDE 10000
#define ORC_DEFAULT_FPP 0.05

static int parse_compression(const char *v, const char *where,
                             const char *table, OrcCompression *out,
                             CombErr *err)
{
    if (orc_compression_parse(v, out))
        return COMB_OK;
    if (strcasecmp(v, "LZO") == 0)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "Cannot write table %s: orc.compress (%s) is LZO, "
                        "which comb does not write; use NONE, ZLIB, SNAPPY, "
                        "LZ4 or ZSTD", table, where);
    return comb_err(err, COMB_EINVALID,
                    "Cannot write table %s: orc.compress (%s) '%s' is not "
                    "a compression; use NONE, ZLIB, SNAPPY, LZ4 or ZSTD",
                    table, where, v);
}

static int parse_stripe_size(const char *v, const char *where,
                             const char *table, uint64_t *out, CombErr *err)
{
    char *end = (char *)v;
    unsigned long long n = 0;
    if (*v >= '0' && *v <= '9')
        n = strtoull(v, &end, 10);
    if (n == 0 || *end != '\0' || n > (1ull << 40))
        return comb_err(err, COMB_EINVALID,
                        "Cannot write table %s: orc.stripe.size (%s) '%s' "
                        "is not a number of bytes from 1 to 2^40",
                        table, where, v);
    *out = n;
    return COMB_OK;
}

/* A fraction of distinct keys from 0 to 1, as ORC's OrcConf reads it
 * (Java's Double.parseDouble: decimal text, no suffix). */
static int parse_threshold(const char *v, const char *where,
                           const char *table, double *out, CombErr *err)
{
    char *end = (char *)v;
    double d = -1;
    if ((*v >= '0' && *v <= '9') || *v == '.')
        d = strtod(v, &end);
    if (*end != '\0' || !(d >= 0 && d <= 1))
        return comb_err(err, COMB_EINVALID,
                        "Cannot write table %s: orc.dictionary.key.threshold "
                        "(%s) '%s' is not a number from 0 to 1",
                        table, where, v);
    *out = d;
    return COMB_OK;
}

/* A whole number in [lo, hi] as Java's Integer/Long.parseLong takes it
 * (digits only here: no sign, no suffix). */
static int parse_count(const char *key, const char *v, const char *where,
                       const char *table, uint64_t lo, uint64_t hi,
                       uint64_t *out, CombErr *err)
{
    char *end = (char *)v;
    unsigned long long n = 0;
    bool digits = *v >= '0' && *v <= '9';
    if (digits)
        n = strtoull(v, &end, 10);
    if (!digits || *end != '\0' || n < lo || n > hi)
        return comb_err(err, COMB_EINVALID,
                        "Cannot write table %s: %s (%s) '%s' is not a "
                        "number from %llu to %llu", table, key, where,
                        v, (unsigned long long)lo, (unsigned long long)hi);
    *out = n;
    return COMB_OK;
}

static int parse_fpp(const char *v, const char *where, const char *table,
                     double *out, CombErr *err)
{
    char *end = (char *)v;
    double d = -1;
    if ((*v >= '0' && *v <= '9') || *v == '.')
        d = strtod(v, &end);
    if (*end != '\0' || !(d > 0 && d < 1))
        return comb_err(err, COMB_EINVALID,
                        "Cannot write table %s: orc.bloom.filter.fpp (%s) "
                        "'%s' is not a probability between 0 and 1",
                        table, where, v);
    *out = d;
    return COMB_OK;
}

/* What acid_orc_conf reads from: the caller's lookup and the table. */
typedef struct Conf {
    AcidOrcLookup get;
    void *ctx;
    const char *table;
    int n_cols;
    const char *const *names;
} Conf;

/* The data column a trimmed name of the list names, or an error. */
static int bloom_column(const Conf *k, const char *name, size_t len,
                        const char *where, bool *bloom, CombErr *err)
{
    for (int i = 0; i < k->n_cols; i++)
        if (strlen(k->names[i]) == len &&
            strncasecmp(k->names[i], name, len) == 0) {
            bloom[i] = true;
            return COMB_OK;
        }
    return comb_err(err, COMB_EINVALID,
                    "Cannot write table %s: orc.bloom.filter.columns (%s) "
                    "names '%.*s', which is not a column of the table's "
                    "files", k->table, where, (int)len, name);
}

static int parse_bloom_columns(const Conf *k, CombArena *arena, const char *v,
                               const char *where, AcidOrcConf *out,
                               CombErr *err)
{
    bool *bloom = comb_arena_alloc(arena, (size_t)k->n_cols + 1);
    int rc = COMB_OK;
    if (!bloom)
        return comb_err_nomem(err);
    memset(bloom, 0, (size_t)k->n_cols + 1);
    for (const char *p = v; *p && !rc;) {
        size_t n = strcspn(p, ",");
        const char *name = p, *end = p + n;
        while (name < end && *name == ' ')
            name++;
        while (end > name && end[-1] == ' ')
            end--;
        if (end > name)
            rc = bloom_column(k, name, (size_t)(end - name), where, bloom,
                              err);
        p += n + (p[n] == ',');
    }
    out->bloom = bloom;
    return rc;
}

int acid_orc_bloom_ids(const AcidOrcConf *o, const int *field_ids, int n,
                       int *ids)
{
    int k = 0;
    for (int i = 0; o->bloom && i < n; i++)
        if (o->bloom[i])
            ids[k++] = field_ids[i];
    return k;
}

static const char *conf(const Conf *k, const char *key, const char *hive_key,
                        const char **where)
{
    return k->get(k->ctx, key, hive_key, where);
}

/* The row index and bloom filter settings. */
static int index_options(const Conf *k, CombArena *arena, AcidOrcConf *out,
                         CombErr *err)
{
    const char *where, *v;
    uint64_t n;
    int rc;
    v = conf(k, "orc.compress.size", "hive.exec.orc.default.buffer.size",
             &where);
    if (v && (rc = parse_count("orc.compress.size", v, where, k->table, 1,
                               (1u << 23) - 1, &out->block_size, err)))
        return rc;
    v = conf(k, "orc.row.index.stride",
             "hive.exec.orc.default.row.index.stride", &where);
    if (v && (rc = parse_count("orc.row.index.stride", v, where, k->table, 0,
                               INT32_MAX, &n, err)))
        return rc;
    if (v)
        out->row_index_stride = (uint32_t)n;
    v = conf(k, "orc.create.index", "hive.exec.orc.create.index", &where);
    if (v && strcasecmp(v, "true") != 0)
        out->row_index_stride = 0;
    v = conf(k, "orc.bloom.filter.fpp", "orc.default.bloom.fpp", &where);
    if (v && (rc = parse_fpp(v, where, k->table, &out->bloom_fpp, err)))
        return rc;
    v = conf(k, "orc.bloom.filter.columns", "orc.bloom.filter.columns",
             &where);
    if (v && (rc = parse_bloom_columns(k, arena, v, where, out, err)))
        return rc;
    return COMB_OK;
}

int acid_orc_conf(AcidOrcLookup get, void *ctx, const char *table,
                  int n_cols, const char *const *names, CombArena *arena,
                  AcidOrcConf *out, CombErr *err)
{
    Conf k = {get, ctx, table, n_cols, names};
    const char *where, *v;
    int rc;
    out->block_size = ORC_DEFAULT_BLOCK_SIZE;
    out->row_index_stride = ORC_DEFAULT_STRIDE;
    out->bloom_fpp = ORC_DEFAULT_FPP;
    out->bloom = NULL;
    out->compression = ORC_COMP_ZLIB;
    out->stripe_size = ORC_DEFAULT_STRIPE_SIZE;
    out->dictionary_key_threshold = ORC_DEFAULT_DICT_THRESHOLD;
    v = conf(&k, "orc.compress", "hive.exec.orc.default.compress", &where);
    if (v && (rc = parse_compression(v, where, table, &out->compression, err)))
        return rc;
    v = conf(&k, "orc.stripe.size", "hive.exec.orc.default.stripe.size",
             &where);
    if (v && (rc = parse_stripe_size(v, where, table, &out->stripe_size, err)))
        return rc;
    v = conf(&k, "orc.dictionary.key.threshold",
             "hive.exec.orc.dictionary.key.size.threshold", &where);
    if (v && (rc = parse_threshold(v, where, table,
                                   &out->dictionary_key_threshold, err)))
        return rc;
    return index_options(&k, arena, out, err);
}

uint64_t acid_orc_delta_stripe_size(const AcidOrcConf *o)
{
    uint64_t n = o->stripe_size / ORC_BASE_DELTA_RATIO;
    return n ? n : 1;
}
