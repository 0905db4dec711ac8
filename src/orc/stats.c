/*
 * stats.c - column statistics: the accumulators the writer updates per
 * value (one per column per stripe, merged into file totals at each stripe
 * end) and the conversions to and from the footer's ColumnStatistics.
 * String min/max compare as unsigned bytes, as ORC's readers expect.
 */
#include "orc/orc_int.h"

#include <string.h>

void orc_stats_init(OrcStatsAcc *s, CombTypeKind kind)
{
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->sum_ok = true;
}

void orc_stats_reset(OrcStatsAcc *s)
{
    CombBuf smin = s->smin, smax = s->smax;
    orc_stats_init(s, s->kind);
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
}

int orc_stats_merge(OrcStatsAcc *d, const OrcStatsAcc *s)
{
    bool first = d->n_values == 0;
    d->has_null = d->has_null || s->has_null;
    d->sum_ok = d->sum_ok && s->sum_ok &&
                !__builtin_add_overflow(d->isum, s->isum, &d->isum);
    d->dsum += s->dsum;
    d->len_sum += s->len_sum;
    d->true_count += s->true_count;
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
    if (s->n_values) {
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
    }
    ss->has_sum = 1;
    ss->sum = s->len_sum;
    pb->stringstatistics = ss;
    return COMB_OK;
}

static int other_stats_to_proto(const OrcStatsAcc *s,
                                Orc__Proto__ColumnStatistics *pb,
                                CombArena *a)
{
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

void orc_stats_from_proto(const Orc__Proto__ColumnStatistics *pb,
                          OrcColumnStats *out)
{
    memset(out, 0, sizeof *out);
    out->n_values = pb->has_numberofvalues ? pb->numberofvalues : 0;
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
        out->dbl_sum = fs->has_sum ? fs->sum : 0;
    }
    if (pb->stringstatistics)
        string_stats_from_proto(pb->stringstatistics, out);
    if (pb->binarystatistics && pb->binarystatistics->has_sum)
        out->str_sum_len = pb->binarystatistics->sum;
    if (pb->bucketstatistics && pb->bucketstatistics->n_count > 0) {
        out->has_bucket = true;
        out->true_count = pb->bucketstatistics->count[0];
    }
}
