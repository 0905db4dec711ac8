/*
 * bucket.c - the bucket property codec (BucketCodec V1, §2 of
 * hive-acid-storage.md) and the bucket a row of a bucketed table goes to
 * (bucketing versions 1 and 2, §7).
 */
#include "acid/acid_int.h"

#include <string.h>

#include "common/hash.h"

/* §2: bits 31..29 hold the codec version. */
#define CODEC_VERSION_SHIFT 29
#define CODEC_V1 1
#define V1_BUCKET_MASK 0x0FFF0000u
#define V1_BUCKET_SHIFT 16
#define V1_STMT_MASK 0x00000FFFu

int acid_bucket_encode(int bucket, int stmt, int32_t *prop, CombErr *err)
{
    if (stmt < 0)
        stmt = 0; /* §2: a delta without statement id encodes 0 */
    if (bucket < 0 || bucket > ACID_MAX_BUCKET)
        return comb_err(err, COMB_EINVALID,
                        "bucket id %d outside 0..%d", bucket, ACID_MAX_BUCKET);
    if (stmt > ACID_MAX_STMT)
        return comb_err(err, COMB_EINVALID,
                        "statement id %d outside 0..%d", stmt, ACID_MAX_STMT);
    *prop = (int32_t)((uint32_t)CODEC_V1 << CODEC_VERSION_SHIFT |
                      (uint32_t)bucket << V1_BUCKET_SHIFT | (uint32_t)stmt);
    return COMB_OK;
}

int acid_bucket_decode(int32_t prop, int *bucket, int *stmt, CombErr *err)
{
    uint32_t u = (uint32_t)prop;
    uint32_t version = (u >> CODEC_VERSION_SHIFT) & 7u;
    if (version == 0) {
        /* V0 (pre-3.0 data): the whole value is the bucket id */
        *bucket = prop;
        *stmt = 0;
        return COMB_OK;
    }
    if (version != CODEC_V1)
        return comb_err(err, COMB_ECORRUPT,
                        "bucket property %d has unknown codec version %u",
                        (int)prop, (unsigned)version);
    *bucket = (int)((u & V1_BUCKET_MASK) >> V1_BUCKET_SHIFT);
    *stmt = (int)(u & V1_STMT_MASK);
    return COMB_OK;
}

bool acid_bucket_kind_supported(CombTypeKind kind)
{
    return kind != COMB_T_NULL;
}

/* §7.1: CHAR values hash without their trailing pad spaces. */
static uint32_t char_unpadded_len(const CombStr *s)
{
    uint32_t len = s->len;
    while (len > 0 && s->ptr[len - 1] == ' ')
        len--;
    return len;
}

static int decimal_scale(const CombVector *v)
{
    return v->type ? (int)v->type->scale : 0;
}

/* h(value) of one non-NULL primitive cell under bucketing version 2
 * (§7.1; ObjectInspectorUtils.hashCodeMurmur). */
static int32_t hash_cell_v2(const CombVector *v, int row)
{
    switch (v->kind) {
    case COMB_T_BOOLEAN:
        return comb_hive_hash_boolean(v->i64[row] != 0);
    case COMB_T_TINYINT:
        return (int32_t)(int8_t)v->i64[row]; /* the value itself */
    case COMB_T_SMALLINT:
        return comb_hive_hash_smallint((int16_t)v->i64[row]);
    case COMB_T_INT:
    case COMB_T_DATE: /* days since epoch as a 4-byte int */
        return comb_hive_hash_int((int32_t)v->i64[row]);
    case COMB_T_BIGINT:
        return comb_hive_hash_bigint(v->i64[row]);
    case COMB_T_FLOAT:
        return comb_hive_hash_float((float)v->f64[row]);
    case COMB_T_DOUBLE:
        return comb_hive_hash_double(v->f64[row]);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_BINARY: /* Hive hashes the BytesWritable's bytes */
        return comb_hive_hash_string(v->str[row].ptr, v->str[row].len);
    case COMB_T_CHAR:
        return comb_hive_hash_string(v->str[row].ptr,
                                     char_unpadded_len(&v->str[row]));
    case COMB_T_DECIMAL:
        return comb_hive_hash_decimal(v->dec[row], decimal_scale(v));
    case COMB_T_TIMESTAMP:
        return comb_hive_hash_timestamp(v->i64[row], v->nanos[row]);
    default:
        return 0;
    }
}

/* h(value) of one non-NULL primitive cell under bucketing version 1
 * (§7.2): Hive's ObjectInspectorUtils.hashCode, the writables' hashCode
 * for char, varchar, binary (Text / BytesWritable), date (the days),
 * timestamp and decimal. */
static int32_t hash_cell_v1(const CombVector *v, int row)
{
    switch (v->kind) {
    case COMB_T_BOOLEAN:
        return comb_hive_hash_boolean(v->i64[row] != 0);
    case COMB_T_TINYINT:
        return (int32_t)(int8_t)v->i64[row];
    case COMB_T_SMALLINT:
        return (int32_t)(int16_t)v->i64[row];
    case COMB_T_INT:
    case COMB_T_DATE:
        return (int32_t)v->i64[row];
    case COMB_T_BIGINT:
        return comb_hive_hash_v1_bigint(v->i64[row]);
    case COMB_T_FLOAT:
        return comb_hive_hash_v1_float((float)v->f64[row]);
    case COMB_T_DOUBLE:
        return comb_hive_hash_v1_double(v->f64[row]);
    case COMB_T_STRING:
        return comb_hive_hash_v1_string(v->str[row].ptr, v->str[row].len);
    case COMB_T_VARCHAR:
    case COMB_T_BINARY:
        return comb_hive_hash_v1_text(v->str[row].ptr, v->str[row].len);
    case COMB_T_CHAR:
        return comb_hive_hash_v1_text(v->str[row].ptr,
                                      char_unpadded_len(&v->str[row]));
    case COMB_T_DECIMAL:
        return comb_hive_hash_v1_decimal(v->dec[row], decimal_scale(v));
    case COMB_T_TIMESTAMP:
        return comb_hive_hash_v1_timestamp(v->i64[row], v->nanos[row]);
    default:
        return 0;
    }
}

/* h of row `row` of v: NULL is 0; arrays 31*r + h(element) in order;
 * structs 31*r + h(field); maps the sum of h(key) ^ h(value), where even
 * under version 2 the value is hashed with version 1 (Hive's quirk,
 * §7.1); a union its member's h. */
static int32_t hash_value(const CombVector *v, int row, int version)
{
    int32_t r = 0;
    if (comb_vec_is_null(v, row))
        return 0;
    switch (v->kind) {
    case COMB_T_LIST:
        for (uint32_t e = 0; e < v->len[row]; e++)
            r = comb_hive_hash_combine(
                r, hash_value(&v->children[0], (int)(v->off[row] + e),
                              version));
        return r;
    case COMB_T_MAP:
        for (uint32_t e = 0; e < v->len[row]; e++) {
            int elem = (int)(v->off[row] + e);
            uint32_t h = (uint32_t)hash_value(&v->children[0], elem, version) ^
                         (uint32_t)hash_value(&v->children[1], elem,
                                              ACID_BUCKETING_V1);
            r = (int32_t)((uint32_t)r + h);
        }
        return r;
    case COMB_T_STRUCT:
        for (int f = 0; f < v->n_children; f++)
            r = comb_hive_hash_combine(r, hash_value(&v->children[f], row,
                                                     version));
        return r;
    case COMB_T_UNION:
        return hash_value(&v->children[v->tag[row]], row, version);
    default:
        return version == ACID_BUCKETING_V2 ? hash_cell_v2(v, row)
                                            : hash_cell_v1(v, row);
    }
}

int32_t acid_hash_of_value(const CombVector *v, int row, int version)
{
    return hash_value(v, row, version);
}

int acid_bucketing_version_parse(const char *value, int *version,
                                 CombErr *err)
{
    if (!value || strcmp(value, "1") == 0) {
        *version = ACID_BUCKETING_V1;
        return COMB_OK;
    }
    if (strcmp(value, "2") == 0) {
        *version = ACID_BUCKETING_V2;
        return COMB_OK;
    }
    return comb_err(err, COMB_EUNSUPPORTED,
                    "Unsupported bucketing version: '%s' (table property "
                    "'%s' must be '1' or '2')", value,
                    ACID_PROP_BUCKETING_VERSION);
}

int acid_bucket_of_row(const CombBatch *b, int row, const int *cluster_cols,
                       int n_cluster_cols, int n_buckets, int version)
{
    int32_t hash = 0;
    for (int i = 0; i < n_cluster_cols; i++)
        hash = comb_hive_hash_combine(
            hash, hash_value(&b->cols[cluster_cols[i]], row, version));
    return n_buckets > 0 ? comb_hive_bucket(hash, n_buckets) : 0;
}
