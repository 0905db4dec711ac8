/*
 * stats.c - column statistics: the accumulators the writer updates per
 * value (one per column per stripe, merged into file totals at each stripe
 * end) and the conversions to and from the footer's ColumnStatistics, in
 * the forms ORC Java writes: string min/max compare as unsigned bytes;
 * decimals as Hive's text (trailing zeros trimmed), the sum dropped once
 * it needs more than 38 digits; timestamps as UTC milliseconds plus the
 * nanoseconds within the millisecond, stored + 1 and only when not the
 * default (0 for the minimum, 999999 for the maximum); lists and maps as
 * the min, max and total of their children per non-null row.
 */
#include "orc/orc_int.h"

#include <string.h>

/* Defaults of TimestampStatistics' nanosecond fields: not written. */
#define TS_MIN_NANOS_DEFAULT 0
#define TS_MAX_NANOS_DEFAULT 999999

void orc_stats_init(OrcStatsAcc *s, const CombType *t)
{
    memset(s, 0, sizeof *s);
    s->kind = t->kind;
    s->scale = (int)t->scale;
    s->sum_ok = true;
}

void orc_stats_reset(OrcStatsAcc *s)
{
    CombBuf smin = s->smin, smax = s->smax;
    CombTypeKind kind = s->kind;
    int scale = s->scale;
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->scale = scale;
    s->sum_ok = true;
    comb_buf_clear(&smin);
    comb_buf_clear(&smax);
    s->smin = smin;
    s->smax = smax;
}

void orc_stats_free(OrcStatsAcc *s)
{
    comb_buf_free(&s->smin);
    comb_buf_free(&s->smax);
}

static int bytes_cmp(const void *a, size_t alen, const void *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c;
    return alen < blen ? -1 : alen > blen ? 1 : 0;
}

static int buf_set(CombBuf *b, const void *p, size_t len)
{
    comb_buf_clear(b);
    return comb_buf_append(b, p, len);
}

/* Fold one string into min/max without counting it. */
static int str_minmax(OrcStatsAcc *s, bool first, const void *p, size_t len)
{
    if (first || bytes_cmp(p, len, s->smin.data, s->smin.len) < 0)
        if (buf_set(&s->smin, p, len))
            return COMB_ENOMEM;
    if (first || bytes_cmp(p, len, s->smax.data, s->smax.len) > 0)
        if (buf_set(&s->smax, p, len))
            return COMB_ENOMEM;
    return COMB_OK;
}

int orc_stats_add_str(OrcStatsAcc *s, const char *p, uint32_t len)
{
    s->len_sum += len;
    if (s->kind != COMB_T_BINARY && str_minmax(s, s->n_values == 0, p, len))
        return COMB_ENOMEM;
    s->n_values++;
    return COMB_OK;
}

/* |sum| below 10^38: Hive's decimal sum keeps 38 digits. */
static bool decimal_sum(comb_i128 a, comb_i128 b, comb_i128 *out)
{
    return !__builtin_add_overflow(a, b, out) &&
           comb_dec_fits(*out, COMB_DEC_MAX_DIGITS);
}

void orc_stats_add_decimal(OrcStatsAcc *s, comb_i128 v)
{
    if (s->n_values == 0) {
        s->cmin = s->cmax = v;
    } else {
        if (v < s->cmin)
            s->cmin = v;
        if (v > s->cmax)
            s->cmax = v;
    }
    if (s->sum_ok)
        s->sum_ok = decimal_sum(s->csum, v, &s->csum);
    s->n_values++;
}

/* Java's TimestampStatisticsImpl.updateTimestamp: the nanos of the
 * minimum are the smallest among values of the minimal millisecond, and
 * likewise for the maximum. */
static void ts_fold(OrcStatsAcc *s, bool first, int64_t lo, int32_t lo_n,
                    int64_t hi, int32_t hi_n)
{
    if (first || lo < s->tmin || (lo == s->tmin && lo_n < s->tmin_nanos)) {
        s->tmin = lo;
        s->tmin_nanos = lo_n;
    }
    if (first || hi > s->tmax || (hi == s->tmax && hi_n > s->tmax_nanos)) {
        s->tmax = hi;
        s->tmax_nanos = hi_n;
    }
}

void orc_stats_add_timestamp(OrcStatsAcc *s, int64_t millis, int32_t nanos)
{
    ts_fold(s, s->n_values == 0, millis, nanos, millis, nanos);
    s->n_values++;
}

void orc_stats_add_children(OrcStatsAcc *s, uint64_t n)
{
    if (s->n_values == 0 || n < s->kmin)
        s->kmin = n;
    if (s->n_values == 0 || n > s->kmax)
        s->kmax = n;
    s->ksum += n;
    s->n_values++;
}

static void merge_numbers(OrcStatsAcc *d, const OrcStatsAcc *s, bool first)
{
    if (first || s->imin < d->imin)
        d->imin = s->imin;
    if (first || s->imax > d->imax)
        d->imax = s->imax;
    if (first || s->dmin < d->dmin)
        d->dmin = s->dmin;
    if (first || s->dmax > d->dmax)
        d->dmax = s->dmax;
    if (first || s->cmin < d->cmin)
        d->cmin = s->cmin;
    if (first || s->cmax > d->cmax)
        d->cmax = s->cmax;
    if (first || s->kmin < d->kmin)
        d->kmin = s->kmin;
    if (first || s->kmax > d->kmax)
        d->kmax = s->kmax;
    ts_fold(d, first, s->tmin, s->tmin_nanos, s->tmax, s->tmax_nanos);
}

int orc_stats_merge(OrcStatsAcc *d, const OrcStatsAcc *s)
{
    bool first = d->n_values == 0;
    d->has_null = d->has_null || s->has_null;
    if (d->kind == COMB_T_DECIMAL)
        d->sum_ok = d->sum_ok && s->sum_ok &&
                    decimal_sum(d->csum, s->csum, &d->csum);
    else
        d->sum_ok = d->sum_ok && s->sum_ok &&
                    !__builtin_add_overflow(d->isum, s->isum, &d->isum);
    d->dsum += s->dsum;
    d->len_sum += s->len_sum;
    d->true_count += s->true_count;
    d->ksum += s->ksum;
    if (s->n_values == 0)
        return COMB_OK;
    merge_numbers(d, s, first);
    if (comb_type_is_str(d->kind) && d->kind != COMB_T_BINARY) {
        if (str_minmax(d, first, s->smin.data, s->smin.len) ||
            str_minmax(d, false, s->smax.data, s->smax.len))
            return COMB_ENOMEM;
    }
    d->n_values += s->n_values;
    return COMB_OK;
}

static int int_stats_to_proto(const OrcStatsAcc *s,
                              Orc__Proto__ColumnStatistics *pb, CombArena *a)
{
    Orc__Proto__IntegerStatistics *is =
        orc_pb_new(a, &orc__proto__integer_statistics__descriptor);
    if (!is)
        return COMB_ENOMEM;
    if (s->n_values) {
        is->has_minimum = is->has_maximum = 1;
        is->minimum = s->imin;
        is->maximum = s->imax;
    }
    if (s->sum_ok) {
        is->has_sum = 1;
        is->sum = s->isum;
    }
    pb->intstatistics = is;
    return COMB_OK;
}

static int date_stats_to_proto(const OrcStatsAcc *s,
                               Orc__Proto__ColumnStatistics *pb, CombArena *a)
{
    Orc__Proto__DateStatistics *ds =
        orc_pb_new(a, &orc__proto__date_statistics__descriptor);
    if (!ds)
        return COMB_ENOMEM;
    /* DateStatistics holds sint32 days; a value beyond them (a file of
     * another writer copied, say) leaves the bounds out, which readers
     * take as unknown, where cut ones would skip its rows */
    if (s->n_values && s->imin >= INT32_MIN && s->imax <= INT32_MAX) {
        ds->has_minimum = ds->has_maximum = 1;
        ds->minimum = (int32_t)s->imin;
        ds->maximum = (int32_t)s->imax;
    }
    pb->datestatistics = ds;
    return COMB_OK;
}

static int double_stats_to_proto(const OrcStatsAcc *s,
                                 Orc__Proto__ColumnStatistics *pb,
                                 CombArena *a)
{
    Orc__Proto__DoubleStatistics *ds =
        orc_pb_new(a, &orc__proto__double_statistics__descriptor);
    if (!ds)
        return COMB_ENOMEM;
    if (s->n_values) {
        ds->has_minimum = ds->has_maximum = 1;
        ds->minimum = s->dmin;
        ds->maximum = s->dmax;
    }
    ds->has_sum = 1;
    ds->sum = s->dsum;
    pb->doublestatistics = ds;
    return COMB_OK;
}

static int string_stats_to_proto(const OrcStatsAcc *s,
                                 Orc__Proto__ColumnStatistics *pb,
                                 CombArena *a)
{
    Orc__Proto__StringStatistics *ss =
        orc_pb_new(a, &orc__proto__string_statistics__descriptor);
    if (!ss)
        return COMB_ENOMEM;
    if (s->n_values) {
        ss->has_minimum = ss->has_maximum = 1;
        ss->minimum.data = s->smin.data;
        ss->minimum.len = s->smin.len;
        ss->maximum.data = s->smax.data;
        ss->maximum.len = s->smax.len;
        /* ORC Java writes the total length only with values */
        ss->has_sum = 1;
        ss->sum = s->len_sum;
    }
    pb->stringstatistics = ss;
    return COMB_OK;
}

/* Hive's text of an unscaled value, in arena memory. */
static int decimal_field(CombArena *a, comb_i128 v, int scale, char **out)
{
    char buf[64];
    orc_decimal_text(v, scale, buf, sizeof buf);
    *out = comb_arena_strdup(a, buf);
    return *out ? COMB_OK : COMB_ENOMEM;
}

static int decimal_stats_to_proto(const OrcStatsAcc *s,
                                  Orc__Proto__ColumnStatistics *pb,
                                  CombArena *a)
{
    Orc__Proto__DecimalStatistics *ds =
        orc_pb_new(a, &orc__proto__decimal_statistics__descriptor);
    if (!ds)
        return COMB_ENOMEM;
    if (s->n_values && (decimal_field(a, s->cmin, s->scale, &ds->minimum) ||
                        decimal_field(a, s->cmax, s->scale, &ds->maximum)))
        return COMB_ENOMEM;
    if (s->sum_ok && decimal_field(a, s->csum, s->scale, &ds->sum))
        return COMB_ENOMEM;
    pb->decimalstatistics = ds;
    return COMB_OK;
}

static int timestamp_stats_to_proto(const OrcStatsAcc *s,
                                    Orc__Proto__ColumnStatistics *pb,
                                    CombArena *a)
{
    Orc__Proto__TimestampStatistics *ts =
        orc_pb_new(a, &orc__proto__timestamp_statistics__descriptor);
    if (!ts)
        return COMB_ENOMEM;
    if (s->n_values) {
        ts->has_minimumutc = ts->has_maximumutc = 1;
        ts->minimumutc = s->tmin;
        ts->maximumutc = s->tmax;
        ts->has_minimumnanos = s->tmin_nanos != TS_MIN_NANOS_DEFAULT;
        ts->minimumnanos = s->tmin_nanos + 1;
        ts->has_maximumnanos = s->tmax_nanos != TS_MAX_NANOS_DEFAULT;
        ts->maximumnanos = s->tmax_nanos + 1;
    }
    pb->timestampstatistics = ts;
    return COMB_OK;
}

static int collection_stats_to_proto(const OrcStatsAcc *s,
                                     Orc__Proto__ColumnStatistics *pb,
                                     CombArena *a)
{
    Orc__Proto__CollectionStatistics *cs =
        orc_pb_new(a, &orc__proto__collection_statistics__descriptor);
    if (!cs)
        return COMB_ENOMEM;
    if (s->n_values) {
        cs->has_minchildren = cs->has_maxchildren = 1;
        cs->minchildren = s->kmin;
        cs->maxchildren = s->kmax;
    }
    cs->has_totalchildren = s->ksum != 0;
    cs->totalchildren = s->ksum;
    pb->collectionstatistics = cs;
    return COMB_OK;
}

static int other_stats_to_proto(const OrcStatsAcc *s,
                                Orc__Proto__ColumnStatistics *pb,
                                CombArena *a)
{
    if (s->kind == COMB_T_DECIMAL)
        return decimal_stats_to_proto(s, pb, a);
    if (s->kind == COMB_T_TIMESTAMP)
        return timestamp_stats_to_proto(s, pb, a);
    if (s->kind == COMB_T_LIST || s->kind == COMB_T_MAP)
        return collection_stats_to_proto(s, pb, a);
    if (s->kind == COMB_T_BINARY) {
        Orc__Proto__BinaryStatistics *bs =
            orc_pb_new(a, &orc__proto__binary_statistics__descriptor);
        if (!bs)
            return COMB_ENOMEM;
        bs->has_sum = 1;
        bs->sum = s->len_sum;
        pb->binarystatistics = bs;
    } else if (s->kind == COMB_T_BOOLEAN) {
        Orc__Proto__BucketStatistics *bs =
            orc_pb_new(a, &orc__proto__bucket_statistics__descriptor);
        uint64_t *count = comb_arena_alloc(a, sizeof *count);
        if (!bs || !count)
            return COMB_ENOMEM;
        *count = s->true_count;
        bs->n_count = 1;
        bs->count = count;
        pb->bucketstatistics = bs;
    }
    return COMB_OK;
}

int orc_stats_to_proto(const OrcStatsAcc *s, Orc__Proto__ColumnStatistics *pb,
                       CombArena *a)
{
    orc__proto__column_statistics__init(pb);
    pb->has_numberofvalues = 1;
    pb->numberofvalues = s->n_values;
    pb->has_hasnull = 1;
    pb->hasnull = s->has_null;
    switch (s->kind) {
    case COMB_T_TINYINT:
    case COMB_T_SMALLINT:
    case COMB_T_INT:
    case COMB_T_BIGINT:
        return int_stats_to_proto(s, pb, a);
    case COMB_T_DATE:
        return date_stats_to_proto(s, pb, a);
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return double_stats_to_proto(s, pb, a);
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        return string_stats_to_proto(s, pb, a);
    default:
        return other_stats_to_proto(s, pb, a);
    }
}

static void string_stats_from_proto(const Orc__Proto__StringStatistics *ss,
                                    OrcColumnStats *out)
{
    if (ss->has_minimum && ss->has_maximum) {
        out->has_string = true;
        out->str_min.ptr = (const char *)ss->minimum.data;
        out->str_min.len = (uint32_t)ss->minimum.len;
        out->str_max.ptr = (const char *)ss->maximum.data;
        out->str_max.len = (uint32_t)ss->maximum.len;
    }
    if (ss->has_sum)
        out->str_sum_len = ss->sum;
}

static CombStr text_of(const char *s)
{
    return (CombStr){s, (uint32_t)strlen(s)};
}

/* Decimal, timestamp and collection statistics. */
static void other_stats_from_proto(const Orc__Proto__ColumnStatistics *pb,
                                   OrcColumnStats *out)
{
    const Orc__Proto__DecimalStatistics *ds = pb->decimalstatistics;
    const Orc__Proto__TimestampStatistics *ts = pb->timestampstatistics;
    const Orc__Proto__CollectionStatistics *cs = pb->collectionstatistics;
    if (ds && ds->minimum && ds->maximum) {
        out->has_decimal = true;
        out->dec_min = text_of(ds->minimum);
        out->dec_max = text_of(ds->maximum);
    }
    if (ds && ds->sum) {
        out->has_dec_sum = true;
        out->dec_sum = text_of(ds->sum);
    }
    if (ts && ((ts->has_minimumutc && ts->has_maximumutc) ||
               (ts->has_minimum && ts->has_maximum))) {
        out->has_timestamp = true;
        out->ts_min_ms = ts->has_minimumutc ? ts->minimumutc : ts->minimum;
        out->ts_max_ms = ts->has_maximumutc ? ts->maximumutc : ts->maximum;
        out->ts_local = !(ts->has_minimumutc && ts->has_maximumutc);
        out->ts_min_nanos = ts->has_minimumnanos ? ts->minimumnanos - 1
                                                 : TS_MIN_NANOS_DEFAULT;
        out->ts_max_nanos = ts->has_maximumnanos ? ts->maximumnanos - 1
                                                 : TS_MAX_NANOS_DEFAULT;
    }
    if (cs && cs->has_minchildren && cs->has_maxchildren) {
        out->has_collection = true;
        out->min_children = cs->minchildren;
        out->max_children = cs->maxchildren;
        out->total_children = cs->has_totalchildren ? cs->totalchildren : 0;
    }
}

void orc_stats_from_proto(const Orc__Proto__ColumnStatistics *pb,
                          OrcColumnStats *out)
{
    memset(out, 0, sizeof *out);
    out->n_values = pb->has_numberofvalues ? pb->numberofvalues : 0;
    out->bytes_on_disk = pb->has_bytesondisk ? pb->bytesondisk : 0;
    /* files that predate hasNull say nothing, which must mean "maybe" */
    out->has_null = pb->has_hasnull ? pb->hasnull : true;
    const Orc__Proto__IntegerStatistics *is = pb->intstatistics;
    if (is && is->has_minimum && is->has_maximum) {
        out->has_int = true;
        out->int_min = is->minimum;
        out->int_max = is->maximum;
    }
    if (is && is->has_sum) {
        out->has_sum = true;
        out->int_sum = is->sum;
    }
    const Orc__Proto__DateStatistics *ds = pb->datestatistics;
    if (ds && ds->has_minimum && ds->has_maximum) {
        out->has_int = true;
        out->int_min = ds->minimum;
        out->int_max = ds->maximum;
    }
    const Orc__Proto__DoubleStatistics *fs = pb->doublestatistics;
    if (fs && fs->has_minimum && fs->has_maximum) {
        out->has_double = true;
        out->dbl_min = fs->minimum;
        out->dbl_max = fs->maximum;
    }
    if (fs && fs->has_sum) {
        out->has_dbl_sum = true;
        out->dbl_sum = fs->sum;
    }
    if (pb->stringstatistics)
        string_stats_from_proto(pb->stringstatistics, out);
    if (pb->binarystatistics && pb->binarystatistics->has_sum)
        out->str_sum_len = pb->binarystatistics->sum;
    if (pb->bucketstatistics && pb->bucketstatistics->n_count > 0) {
        out->has_bucket = true;
        out->true_count = pb->bucketstatistics->count[0];
    }
    other_stats_from_proto(pb, out);
}
