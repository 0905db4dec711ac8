/*
 * hms_stats.c - column statistics through the metastore service:
 * get_table_statistics_req, get_partitions_statistics_req,
 * update_table_column_statistics and update_partition_column_statistics,
 * on the rows comb's ANALYZE ... FOR COLUMNS and INSERT write
 * (ms_colstats_*).
 *
 * comb keeps low and high values as text in the SQL form of the column's
 * type; Hive's ColumnStatisticsData carries them typed, one kind per type
 * family: longs (tinyint .. bigint), doubles (float, double), decimals (the
 * unscaled value as big-endian two's complement bytes with a scale), dates
 * (days since the epoch), timestamps (seconds), strings (varchar, char)
 * and binaries (lengths only), booleans (trues and falses).  comb's
 * distinct-value sketches are its own format, not Hive's, so bitVectors
 * are neither sent nor taken.
 *
 * Rows written here carry the source ms_colstats_dir_source gives the
 * unit's directory: comb's DESCRIBE FORMATTED shows them until a write
 * changes the files.  Rows are read back whatever their source, as
 * Hive's metastore returns what it stores; only a row whose type is no
 * longer the column's is left out.
 */
#include "hms/hms_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/datetime.h"
#include "common/decimal.h"
#include "common/numfmt.h"
#include "common/types.h"


typedef enum StatKind {
    K_NONE,      /* complex types: no statistics */
    K_LONG,
    K_DOUBLE,
    K_DECIMAL,
    K_DATE,
    K_TIMESTAMP,
    K_STRING,
    K_BINARY,
    K_BOOLEAN
} StatKind;

static const char *const kind_names[] = {
    [K_NONE] = "none", [K_LONG] = "longStats", [K_DOUBLE] = "doubleStats",
    [K_DECIMAL] = "decimalStats", [K_DATE] = "dateStats",
    [K_TIMESTAMP] = "timestampStats", [K_STRING] = "stringStats",
    [K_BINARY] = "binaryStats", [K_BOOLEAN] = "booleanStats",
};

static StatKind kind_of(CombArena *a, const char *type)
{
    CombType *t;
    CombErr ignored;
    if (comb_type_parse(a, type, strlen(type), &t, &ignored))
        return K_NONE;
    switch (t->kind) {
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT: return K_LONG;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE: return K_DOUBLE;
    case COMB_T_DECIMAL: return K_DECIMAL;
    case COMB_T_DATE: return K_DATE;
    case COMB_T_TIMESTAMP: return K_TIMESTAMP;
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR: return K_STRING;
    case COMB_T_BINARY: return K_BINARY;
    case COMB_T_BOOLEAN: return K_BOOLEAN;
    default: return K_NONE;
    }
}

static const MsColumn *find_column(const MsTable *t, const char *name)
{
    for (int i = 0; i < t->n_cols; i++)
        if (strcmp(t->cols[i].name, name) == 0)
            return &t->cols[i];
    return NULL;
}

/* ------------------------------------------- decimals as Hive's bytes */

static GByteArray *decimal_bytes(comb_i128 u)
{
    unsigned char be[16];
    int from = 0;
    for (int i = 15; i >= 0; i--, u >>= 8)
        be[i] = (unsigned char)(u & 0xff);
    /* BigInteger.toByteArray: the fewest bytes that keep the sign */
    while (from < 15 && ((be[from] == 0 && !(be[from + 1] & 0x80)) ||
                         (be[from] == 0xff && (be[from + 1] & 0x80))))
        from++;
    return g_byte_array_append(g_byte_array_new(), be + from,
                               (guint)(16 - from));
}

static bool decimal_of_bytes(const GByteArray *b, comb_i128 *out)
{
    comb_i128 u;
    if (!b || b->len == 0 || b->len > 16)
        return false;
    u = (b->data[0] & 0x80) ? -1 : 0;
    for (guint i = 0; i < b->len; i++)
        u = (comb_i128)((unsigned __int128)u << 8) | b->data[i];
    *out = u;
    return true;
}

/* The text comb keeps for a decimal: HiveDecimal's normalized form, no
 * trailing fraction zeros. */
static char *decimal_text(CombArena *a, const HmsDecimal *d)
{
    char buf[80];
    comb_i128 u;
    if (!decimal_of_bytes(d->unscaled, &u) || !comb_dec_fits(u, 38) ||
        d->scale < 0 || d->scale > 38)
        return NULL;
    comb_dec_format_normalized(u, d->scale, buf, sizeof buf);
    return comb_arena_strdup(a, buf);
}

/* --------------------------------------------------- rows -> Hive's */

static int64_t count(int64_t v)
{
    return v < 0 ? 0 : v;
}

static bool parse_long(const char *s, int64_t *v)
{
    char *end;
    if (!s)
        return false;
    *v = strtoll(s, &end, 10);
    return end != s && !*end;
}

static bool parse_double(const char *s, double *v)
{
    char *end;
    if (!s)
        return false;
    *v = strtod(s, &end);
    return end != s && !*end;
}

static bool parse_date(const char *s, int64_t *v)
{
    return s && comb_date_parse(s, strlen(s), v);
}

static bool parse_timestamp(const char *s, int64_t *v)
{
    int32_t nanos;
    return s && comb_timestamp_parse(s, strlen(s), v, &nanos);
}

static bool parse_decimal(const char *s, HmsDecimal *d)
{
    comb_i128 u;
    int precision, scale;
    if (!s || !comb_dec_parse_exact(s, strlen(s), &u, &precision, &scale))
        return false;
    if (d->unscaled)
        g_byte_array_unref(d->unscaled);
    d->unscaled = decimal_bytes(u);
    d->scale = (gint16)scale;
    return true;
}

static void fill_ranged(HmsColumnStatisticsData *d, StatKind k,
                        const MsColStats *r)
{
    switch (k) {
    case K_LONG:
        d->longStats->__isset_lowValue = parse_long(r->low, &d->longStats->lowValue);
        d->longStats->__isset_highValue = parse_long(r->high, &d->longStats->highValue);
        d->longStats->numNulls = count(r->num_nulls);
        d->longStats->numDVs = count(r->num_distincts);
        d->__isset_longStats = TRUE;
        break;
    case K_DOUBLE:
        d->doubleStats->__isset_lowValue = parse_double(r->low, &d->doubleStats->lowValue);
        d->doubleStats->__isset_highValue = parse_double(r->high, &d->doubleStats->highValue);
        d->doubleStats->numNulls = count(r->num_nulls);
        d->doubleStats->numDVs = count(r->num_distincts);
        d->__isset_doubleStats = TRUE;
        break;
    case K_DECIMAL:
        d->decimalStats->__isset_lowValue = parse_decimal(r->low, d->decimalStats->lowValue);
        d->decimalStats->__isset_highValue = parse_decimal(r->high, d->decimalStats->highValue);
        d->decimalStats->numNulls = count(r->num_nulls);
        d->decimalStats->numDVs = count(r->num_distincts);
        d->__isset_decimalStats = TRUE;
        break;
    case K_DATE:
        d->dateStats->__isset_lowValue =
            parse_date(r->low, &d->dateStats->lowValue->daysSinceEpoch);
        d->dateStats->__isset_highValue =
            parse_date(r->high, &d->dateStats->highValue->daysSinceEpoch);
        d->dateStats->numNulls = count(r->num_nulls);
        d->dateStats->numDVs = count(r->num_distincts);
        d->__isset_dateStats = TRUE;
        break;
    default:
        d->timestampStats->__isset_lowValue = parse_timestamp(
            r->low, &d->timestampStats->lowValue->secondsSinceEpoch);
        d->timestampStats->__isset_highValue = parse_timestamp(
            r->high, &d->timestampStats->highValue->secondsSinceEpoch);
        d->timestampStats->numNulls = count(r->num_nulls);
        d->timestampStats->numDVs = count(r->num_distincts);
        d->__isset_timestampStats = TRUE;
        break;
    }
}

static void fill_data(HmsColumnStatisticsData *d, StatKind k,
                      const MsColStats *r)
{
    switch (k) {
    case K_STRING:
        d->stringStats->maxColLen = count(r->max_col_len);
        d->stringStats->avgColLen = r->avg_col_len < 0 ? 0 : r->avg_col_len;
        d->stringStats->numNulls = count(r->num_nulls);
        d->stringStats->numDVs = count(r->num_distincts);
        d->__isset_stringStats = TRUE;
        break;
    case K_BINARY:
        d->binaryStats->maxColLen = count(r->max_col_len);
        d->binaryStats->avgColLen = r->avg_col_len < 0 ? 0 : r->avg_col_len;
        d->binaryStats->numNulls = count(r->num_nulls);
        d->__isset_binaryStats = TRUE;
        break;
    case K_BOOLEAN:
        d->booleanStats->numTrues = count(r->num_trues);
        d->booleanStats->numFalses = count(r->num_falses);
        d->booleanStats->numNulls = count(r->num_nulls);
        d->__isset_booleanStats = TRUE;
        break;
    default:
        fill_ranged(d, k, r);
        break;
    }
}

/* The rows of t among rows[0..n) for the columns `names` asked for, as
 * ColumnStatisticsObj into out. */
static void objects_of(CombArena *a, const MsTable *t, const MsColStats *rows,
                       int n, const GPtrArray *names, GPtrArray *out)
{
    for (guint i = 0; i < names->len; i++) {
        const char *name = hms_lower_dup(a, g_ptr_array_index(names, i));
        const MsColumn *col = name ? find_column(t, name) : NULL;
        StatKind k = col ? kind_of(a, col->type) : K_NONE;
        for (int j = 0; j < n && k != K_NONE; j++) {
            HmsColumnStatisticsObj *o;
            if (strcmp(rows[j].column, name) != 0 ||
                strcmp(rows[j].type, col->type) != 0)
                continue;
            o = g_object_new(HMS_TYPE_COLUMN_STATISTICS_OBJ, NULL);
            o->colName = g_strdup(col->name);
            o->colType = g_strdup(col->type);
            fill_data(o->statsData, k, &rows[j]);
            g_ptr_array_add(out, o);
            break;
        }
    }
}

/* ----------------------------------------------------- reading calls */

/* Hive's text for an unknown table of the statistics calls, read or
 * written (ObjectStore.ensureGetMTable, on the lower-cased names). */
static int no_table(CombErr *err, const char *db, const char *name)
{
    return comb_err(err, COMB_ENOTFOUND, "Specified catalog.database.table "
                    "does not exist : %s.%s.%s", HMS_CATALOG, db, name);
}

static int table_of(Ms *ms, CombArena *a, const char *db, const char *name,
                    MsTable **t, CombErr *err)
{
    const char *d = hms_lower_dup(a, db), *n = hms_lower_dup(a, name);
    int rc = d && n ? ms_table_get(ms, d, n, a, t, err) : comb_err_nomem(err);
    return rc == COMB_ENOTFOUND ? no_table(err, d, n) : rc;
}

static gboolean read_answer(int rc, const CombErr *err,
                            HmsNoSuchObjectException **o1,
                            HmsMetaException **o2)
{
    if (rc == COMB_ENOTFOUND)
        *o1 = hms_exception(HMS_TYPE_NO_SUCH_OBJECT_EXCEPTION, "%s", err->msg);
    else if (rc)
        *o2 = hms_meta_exception(err);
    return rc == COMB_OK;
}

static gboolean get_table_statistics_req(HmsThriftHiveMetastoreIf *iface,
                                         HmsTableStatsResult **ret,
                                         const HmsTableStatsRequest *req,
                                         HmsNoSuchObjectException **o1,
                                         HmsMetaException **o2, GError **error)
{
    CombErr err;
    CombArena a;
    MsTable *t;
    MsColStats *rows;
    int n = 0, rc = COMB_EMETASTORE;
    Ms *ms = hms_handler_ms(iface, &err);
    (void)error;
    comb_arena_init(&a, 0);
    if (ms && !(rc = table_of(ms, &a, req->dbName, req->tblName, &t, &err)) &&
        !(rc = ms_colstats_get(ms, t->db, t->name, NULL, &a, &rows, &n, &err)))
        objects_of(&a, t, rows, n, req->colNames, (*ret)->tableStats);
    comb_arena_free(&a);
    return read_answer(rc, &err, o1, o2);
}

/* Hive leaves out the partitions that have no statistics (and the names
 * that are no partition). */
static int partitions_stats(Ms *ms, CombArena *a, const MsTable *t,
                            const HmsPartitionsStatsRequest *req,
                            GHashTable *out, CombErr *err)
{
    for (guint i = 0; i < req->partNames->len; i++) {
        const char *part = g_ptr_array_index(req->partNames, i);
        MsColStats *rows;
        GPtrArray *objs;
        int n = 0;
        int rc = ms_colstats_get(ms, t->db, t->name, part, a, &rows, &n, err);
        if (rc == COMB_ENOTFOUND)
            continue;
        if (rc)
            return rc;
        objs = g_ptr_array_new_with_free_func(g_object_unref);
        objects_of(a, t, rows, n, req->colNames, objs);
        if (objs->len)
            g_hash_table_insert(out, g_strdup(part), objs);
        else
            g_ptr_array_unref(objs);
    }
    return COMB_OK;
}

static gboolean get_partitions_statistics_req(
    HmsThriftHiveMetastoreIf *iface, HmsPartitionsStatsResult **ret,
    const HmsPartitionsStatsRequest *req, HmsNoSuchObjectException **o1,
    HmsMetaException **o2, GError **error)
{
    CombErr err;
    CombArena a;
    MsTable *t;
    int rc = COMB_EMETASTORE;
    Ms *ms = hms_handler_ms(iface, &err);
    (void)error;
    comb_arena_init(&a, 0);
    if (ms && !(rc = table_of(ms, &a, req->dbName, req->tblName, &t, &err)))
        rc = partitions_stats(ms, &a, t, req, (*ret)->partStats, &err);
    comb_arena_free(&a);
    return read_answer(rc, &err, o1, o2);
}

/* --------------------------------------------------- Hive's -> rows */

/* The kind the client sent; K_NONE when it set none. */
static StatKind sent_kind(const HmsColumnStatisticsData *d)
{
    return d->__isset_longStats        ? K_LONG
           : d->__isset_doubleStats    ? K_DOUBLE
           : d->__isset_decimalStats   ? K_DECIMAL
           : d->__isset_dateStats      ? K_DATE
           : d->__isset_timestampStats ? K_TIMESTAMP
           : d->__isset_stringStats    ? K_STRING
           : d->__isset_binaryStats    ? K_BINARY
           : d->__isset_booleanStats   ? K_BOOLEAN
                                       : K_NONE;
}

static char *long_text(CombArena *a, gboolean isset, int64_t v)
{
    return isset ? comb_arena_printf(a, "%lld", (long long)v) : NULL;
}

/* As comb writes its own (Java's Double.toString: "1.0E10"). */
static char *double_text(CombArena *a, gboolean isset, double v)
{
    char buf[40];
    if (!isset)
        return NULL;
    comb_format_double(v, buf, sizeof buf);
    return comb_arena_strdup(a, buf);
}

static char *date_text(CombArena *a, gboolean isset, const HmsDate *d)
{
    char buf[40];
    if (!isset)
        return NULL;
    comb_date_format(d->daysSinceEpoch, buf, sizeof buf);
    return comb_arena_strdup(a, buf);
}

static char *timestamp_text(CombArena *a, gboolean isset, const HmsTimestamp *t)
{
    char buf[64];
    if (!isset)
        return NULL;
    comb_timestamp_format(t->secondsSinceEpoch, 0, buf, sizeof buf);
    return comb_arena_strdup(a, buf);
}

static int64_t counted(int64_t v)
{
    return v < 0 ? -1 : v;
}

/* The range kinds' low, high, nulls and distinct values into r. */
static int take_ranged(CombArena *a, const HmsColumnStatisticsData *d,
                       StatKind k, MsColStats *r, CombErr *err)
{
    bool bad = false;
    switch (k) {
    case K_LONG: {
        const HmsLongColumnStatsData *s = d->longStats;
        r->low = long_text(a, s->__isset_lowValue, s->lowValue);
        r->high = long_text(a, s->__isset_highValue, s->highValue);
        r->num_nulls = s->numNulls;
        r->num_distincts = counted(s->numDVs);
        break;
    }
    case K_DOUBLE: {
        const HmsDoubleColumnStatsData *s = d->doubleStats;
        r->low = double_text(a, s->__isset_lowValue, s->lowValue);
        r->high = double_text(a, s->__isset_highValue, s->highValue);
        r->num_nulls = s->numNulls;
        r->num_distincts = counted(s->numDVs);
        break;
    }
    case K_DECIMAL: {
        const HmsDecimalColumnStatsData *s = d->decimalStats;
        r->low = s->__isset_lowValue ? decimal_text(a, s->lowValue) : NULL;
        r->high = s->__isset_highValue ? decimal_text(a, s->highValue) : NULL;
        bad = (s->__isset_lowValue && !r->low) ||
              (s->__isset_highValue && !r->high);
        r->num_nulls = s->numNulls;
        r->num_distincts = counted(s->numDVs);
        break;
    }
    case K_DATE: {
        const HmsDateColumnStatsData *s = d->dateStats;
        r->low = date_text(a, s->__isset_lowValue, s->lowValue);
        r->high = date_text(a, s->__isset_highValue, s->highValue);
        r->num_nulls = s->numNulls;
        r->num_distincts = counted(s->numDVs);
        break;
    }
    default: {
        const HmsTimestampColumnStatsData *s = d->timestampStats;
        r->low = timestamp_text(a, s->__isset_lowValue, s->lowValue);
        r->high = timestamp_text(a, s->__isset_highValue, s->highValue);
        r->num_nulls = s->numNulls;
        r->num_distincts = counted(s->numDVs);
        break;
    }
    }
    if (bad)
        return comb_err(err, COMB_EINVALID, "column %s: a decimal of more "
                        "than 38 digits or a bad scale", r->column);
    return COMB_OK;
}

static int take_data(CombArena *a, const HmsColumnStatisticsData *d,
                     StatKind k, MsColStats *r, CombErr *err)
{
    switch (k) {
    case K_STRING:
        r->max_col_len = counted(d->stringStats->maxColLen);
        r->avg_col_len = d->stringStats->avgColLen;
        r->num_nulls = d->stringStats->numNulls;
        r->num_distincts = counted(d->stringStats->numDVs);
        return COMB_OK;
    case K_BINARY:
        r->max_col_len = counted(d->binaryStats->maxColLen);
        r->avg_col_len = d->binaryStats->avgColLen;
        r->num_nulls = d->binaryStats->numNulls;
        return COMB_OK;
    case K_BOOLEAN:
        r->num_trues = counted(d->booleanStats->numTrues);
        r->num_falses = counted(d->booleanStats->numFalses);
        r->num_nulls = d->booleanStats->numNulls;
        return COMB_OK;
    default:
        return take_ranged(a, d, k, r, err);
    }
}

/* One ColumnStatisticsObj as the row comb keeps for a column of t. */
static int row_of(CombArena *a, const MsTable *t, const HmsColumnStatisticsObj *o,
                  const char *source, int64_t analyzed, MsColStats *r,
                  CombErr *err)
{
    const char *name = hms_lower_dup(a, o->colName);
    const MsColumn *col = name ? find_column(t, name) : NULL;
    StatKind want, sent;
    /* Hive's ObjectStore.validateTableCols (a MetaException); Hive
     * stores a partition's anyway, comb keeps nothing for a column it
     * does not have */
    if (!col)
        return comb_err(err, COMB_EMETASTORE, "Column %s doesn't exist in "
                        "table %s in database %s", name ? name : "", t->name,
                        t->db);
    want = kind_of(a, col->type);
    sent = sent_kind(o->statsData);
    if (want == K_NONE || sent != want)
        return comb_err(err, COMB_EINVALID, "column %s of type %s takes %s, "
                        "not %s", col->name, col->type, kind_names[want],
                        sent == K_NONE ? "no statistics" : kind_names[sent]);
    *r = (MsColStats){.column = col->name, .type = col->type,
                      .source = (char *)source, .num_distincts = -1,
                      .num_trues = -1, .num_falses = -1, .max_col_len = -1,
                      .avg_col_len = -1, .last_analyzed = analyzed};
    if (take_data(a, o->statsData, want, r, err))
        return COMB_EINVALID;
    if (r->num_nulls < 0)
        return comb_err(err, COMB_EINVALID, "column %s: numNulls %lld is "
                        "negative", col->name, (long long)r->num_nulls);
    return COMB_OK;
}

/* The directory the statistics describe: the table's, or its
 * partition's (Hive's text when there is none). */
static int unit_dir(Ms *ms, CombArena *a, const MsTable *t, const char *part,
                    const char **dir, CombErr *err)
{
    MsPartition *p;
    int rc;
    *dir = NULL;
    if (!part) {
        *dir = t->location;
        return COMB_OK;
    }
    rc = ms_part_get(ms, t->db, t->name, part, a, &p, err);
    if (rc == COMB_ENOTFOUND)
        return comb_err(err, rc, "Partition for which stats is gathered "
                        "doesn't exist.");
    if (!rc && !(*dir = p->location))
        rc = comb_err(err, COMB_EINVALID, "partition %s has no location", part);
    return rc;
}

static const char *given_part(const HmsColumnStatisticsDesc *d)
{
    return d->__isset_partName && d->partName && *d->partName ? d->partName
                                                              : NULL;
}

static int update(Ms *ms, CombArena *a, const HmsColumnStatistics *cs,
                  bool partition, CombErr *err)
{
    const HmsColumnStatisticsDesc *d = cs->statsDesc;
    const char *part = partition ? given_part(d) : NULL;
    MsTable *t;
    MsColStats *rows;
    const char *dir;
    char *source;
    int64_t analyzed = d->__isset_lastAnalyzed ? d->lastAnalyzed : time(NULL);
    int rc = table_of(ms, a, d->dbName, d->tableName, &t, err);
    if (rc)
        return rc;
    if (partition && !part)
        return comb_err(err, COMB_EUNSUPPORTED, "partition statistics of "
                        "%s.%s without a partition name", t->db, t->name);
    if ((rc = unit_dir(ms, a, t, part, &dir, err)) ||
        (rc = ms_colstats_dir_source(t, dir, a, &source, err)))
        return rc;
    if (!(rows = comb_arena_calloc(a, (cs->statsObj->len + 1) * sizeof *rows)))
        return comb_err_nomem(err);
    for (guint i = 0; i < cs->statsObj->len; i++)
        if ((rc = row_of(a, t, g_ptr_array_index(cs->statsObj, i), source,
                         analyzed, &rows[i], err)))
            return rc;
    return ms_colstats_put(ms, t->db, t->name, part, rows,
                           (int)cs->statsObj->len, err);
}

/* Both update calls: NoSuchObjectException for a table or partition
 * that is not there, MetaException for a column (as Hive's
 * ObjectStore), InvalidObjectException for statistics that do not fit
 * the column, InvalidInputException for a request without
 * what it needs. */
static gboolean update_answer(HmsThriftHiveMetastoreIf *iface,
                              const HmsColumnStatistics *cs, bool partition,
                              gboolean *ret, HmsNoSuchObjectException **o1,
                              HmsInvalidObjectException **o2,
                              HmsMetaException **o3,
                              HmsInvalidInputException **o4)
{
    CombErr err;
    CombArena a;
    int rc = COMB_EMETASTORE;
    Ms *ms = hms_handler_ms(iface, &err);
    comb_arena_init(&a, 0);
    if (ms)
        rc = update(ms, &a, cs, partition, &err);
    comb_arena_free(&a);
    if (rc == COMB_ENOTFOUND)
        *o1 = hms_exception(HMS_TYPE_NO_SUCH_OBJECT_EXCEPTION, "%s", err.msg);
    else if (rc == COMB_EINVALID)
        *o2 = hms_exception(HMS_TYPE_INVALID_OBJECT_EXCEPTION, "%s", err.msg);
    else if (rc == COMB_EUNSUPPORTED)
        *o4 = hms_exception(HMS_TYPE_INVALID_INPUT_EXCEPTION, "%s", err.msg);
    else if (rc)
        *o3 = hms_meta_exception(&err);
    *ret = rc == COMB_OK;
    return rc == COMB_OK;
}

static gboolean update_table_column_statistics(
    HmsThriftHiveMetastoreIf *iface, gboolean *ret,
    const HmsColumnStatistics *stats_obj, HmsNoSuchObjectException **o1,
    HmsInvalidObjectException **o2, HmsMetaException **o3,
    HmsInvalidInputException **o4, GError **error)
{
    (void)error;
    return update_answer(iface, stats_obj, false, ret, o1, o2, o3, o4);
}

static gboolean update_partition_column_statistics(
    HmsThriftHiveMetastoreIf *iface, gboolean *ret,
    const HmsColumnStatistics *stats_obj, HmsNoSuchObjectException **o1,
    HmsInvalidObjectException **o2, HmsMetaException **o3,
    HmsInvalidInputException **o4, GError **error)
{
    (void)error;
    return update_answer(iface, stats_obj, true, ret, o1, o2, o3, o4);
}

void hms_stats_install(HmsThriftHiveMetastoreHandlerClass *c)
{
    c->get_table_statistics_req = get_table_statistics_req;
    c->get_partitions_statistics_req = get_partitions_statistics_req;
    c->update_table_column_statistics = update_table_column_statistics;
    c->update_partition_column_statistics = update_partition_column_statistics;
}
