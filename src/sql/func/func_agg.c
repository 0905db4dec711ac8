/*
 * func_agg.c - the aggregate functions (agg.h) with Hive's rules:
 * count (GenericUDAFCount), sum (GenericUDAFSum), avg (GenericUDAFAverage),
 * min/max (GenericUDAFMin/Max), the variance family (GenericUDAFVariance:
 * variance var_pop var_samp std stddev stddev_pop stddev_samp, Chan et
 * al.'s updates), covar_pop/covar_samp (GenericUDAFCovariance), corr
 * (GenericUDAFCorrelation), collect_list/collect_set (GenericUDAFMk-
 * CollectionEvaluator), percentile (UDAFPercentile: exact, over integers)
 * and percentile_approx (GenericUDAFPercentileApprox over Hive's
 * NumericHistogram, ties broken by Java's Random(31183) as in Hive).
 */
#include "sql/func/agg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/decimal.h"
#include "sql/func/func_int.h"

typedef enum AggKind {
    K_COUNT, K_SUM, K_AVG, K_MIN, K_MAX, K_VAR_POP, K_VAR_SAMP, K_STD_POP,
    K_STD_SAMP, K_COVAR_POP, K_COVAR_SAMP, K_CORR, K_COLLECT_LIST,
    K_COLLECT_SET, K_PERCENTILE, K_PERCENTILE_APPROX
} AggKind;

/* A value as a double, as PrimitiveObjectInspectorUtils.getDouble gives
 * it: integers, floats, decimals (doubleValue) and timestamps (seconds
 * with the fraction). */
static double value_double(const CombVector *v, int row)
{
    if (v->f64)
        return v->f64[row];
    if (v->dec)
        return comb_dec_to_double(v->dec[row], v->type ? (int)v->type->scale : 0);
    if (v->nanos)
        return (double)v->i64[row] + (double)v->nanos[row] / 1e9;
    return (double)v->i64[row];
}

static bool any_null(const CombVector *const *argv, int n, int row)
{
    for (int k = 0; k < n; k++)
        if (comb_vec_is_null(argv[k], row))
            return true;
    return false;
}

/* ------------------------------------------------------------------ count */

typedef struct CountState {
    int64_t n;
} CountState;

static void count_init(const SqlAgg *a, void *st)
{
    (void)a;
    ((CountState *)st)->n = 0;
}

/* count(*) counts rows, count(x, ...) the rows where no argument is NULL */
static int count_add(const SqlAgg *a, void *const *sts,
                     const CombVector *const *argv, const CombBatch *in,
                     CombArena *mem, CombErr *err)
{
    (void)mem;
    (void)err;
    FOR_LIVE(in, i, row)
        if (!any_null(argv, a->n_args, row))
            ((CountState *)sts[i])->n++;
    return COMB_OK;
}

static int count_merge(const SqlAgg *a, void *dst, const void *src,
                       CombArena *mem, CombErr *err)
{
    (void)a;
    (void)mem;
    (void)err;
    ((CountState *)dst)->n += ((const CountState *)src)->n;
    return COMB_OK;
}

static int count_final(const SqlAgg *a, void *st, SqlDatum *out,
                       CombArena *mem, CombErr *err)
{
    (void)a;
    (void)mem;
    (void)err;
    out->i = ((CountState *)st)->n;
    return COMB_OK;
}

static const SqlAggOps count_ops = {count_init, count_add, count_merge,
                                    count_final};

/* -------------------------------------------------------------- sum / avg */

typedef struct SumState {
    int64_t count;
    int64_t isum;            /* integers: wraps as Java's long */
    double dsum;             /* doubles, timestamps, and integers for avg */
    comb_i128 dec;           /* decimals at the argument's scale */
    bool overflow;           /* dec left 38 digits: the result is NULL */
} SumState;

static void sum_init(const SqlAgg *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(SumState));
}

static void sum_int(SumState *s, int64_t x)
{
    s->count++;
    s->isum = (int64_t)((uint64_t)s->isum + (uint64_t)x);
    s->dsum += (double)x;
}

/* 10^38 - 1, the largest unscaled decimal */
#define SUM_DEC_MAX \
    ((unsigned __int128)10000000000000000000ULL * 10000000000000000000ULL - 1)

/* comb_dec_add inline (its call per row was a tenth of TPC-H Q1), with
 * the sum taken modulo 2^128: both terms lie within 38 digits, so a sum
 * beyond 127 bits wraps to a value beyond 38 digits too, and one range
 * test finds either.  A sum that left 38 digits stays overflowed (its
 * dec is not read again). */
static inline void sum_dec(SumState *s, comb_i128 x)
{
    unsigned __int128 r = (unsigned __int128)s->dec + (unsigned __int128)x;
    s->count++;
    s->overflow |= r + SUM_DEC_MAX > 2 * SUM_DEC_MAX;
    s->dec = (comb_i128)r;
}

static void sum_one(SumState *s, const CombVector *v, int row)
{
    if (!v->dec && !v->f64 && !v->nanos) {
        sum_int(s, v->i64[row]);
        return;
    }
    if (v->dec) {
        sum_dec(s, v->dec[row]);
        return;
    }
    s->count++;
    s->dsum += value_double(v, row);
}

static int sum_add(const SqlAgg *a, void *const *sts,
                   const CombVector *const *argv, const CombBatch *in,
                   CombArena *mem, CombErr *err)
{
    const CombVector *v = argv[0];
    (void)a;
    (void)mem;
    (void)err;
    if (comb_type_is_int(v->kind) && !v->has_nulls) {
        /* the common case without sum_one's tests per row */
        FOR_LIVE(in, i, row)
            sum_int(sts[i], v->i64[row]);
        return COMB_OK;
    }
    if (v->dec && !v->has_nulls) {
        FOR_LIVE(in, i, row)
            sum_dec(sts[i], v->dec[row]);
        return COMB_OK;
    }
    FOR_LIVE(in, i, row)
        if (!comb_vec_is_null(v, row))
            sum_one(sts[i], v, row);
    return COMB_OK;
}

static int sum_merge(const SqlAgg *a, void *dst, const void *src,
                     CombArena *mem, CombErr *err)
{
    SumState *d = dst;
    const SumState *s = src;
    (void)a;
    (void)mem;
    (void)err;
    d->count += s->count;
    d->isum = (int64_t)((uint64_t)d->isum + (uint64_t)s->isum);
    d->dsum += s->dsum;
    d->overflow |= s->overflow;
    if (!d->overflow && !comb_dec_add(d->dec, s->dec, &d->dec))
        d->overflow = true;
    return COMB_OK;
}

/* The sum or average of decimals as a value of the result's type
 * (HiveDecimal.divide, then enforcePrecisionScale): NULL when the sum left
 * 38 digits or the result does not fit. */
static void decimal_final(const SqlAgg *a, const SumState *s, SqlDatum *out)
{
    int from = (int)a->args[0]->ctype->scale, to = (int)a->type->scale;
    bool ok = !s->overflow &&
              (a->kind == K_SUM
                   ? comb_dec_rescale(s->dec, from, to, &out->dec)
                   : sql_dec_arith(AST_OP_DIV, s->dec, from, s->count, 0,
                                   (int)a->type->precision, to, &out->dec));
    out->null = !ok || !comb_dec_fits(out->dec, (int)a->type->precision);
}

static int sum_final(const SqlAgg *a, void *st, SqlDatum *out,
                     CombArena *mem, CombErr *err)
{
    const SumState *s = st;
    (void)mem;
    (void)err;
    out->null = s->count == 0;
    if (out->null)
        return COMB_OK;
    if (a->type->kind == COMB_T_DECIMAL)
        decimal_final(a, s, out);
    else if (a->kind == K_AVG)
        out->d = s->dsum / (double)s->count;
    else if (a->type->kind == COMB_T_DOUBLE)
        out->d = s->dsum;
    else
        out->i = s->isum;
    return COMB_OK;
}

static const SqlAggOps sum_ops = {sum_init, sum_add, sum_merge, sum_final};

/* ---------------------------------------------------------------- min/max */

typedef struct BestState {
    SqlDatum best;           /* NULL until a value comes */
} BestState;

static void best_init(const SqlAgg *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(BestState));
    ((BestState *)st)->best.null = true;
}

static bool better(const SqlAgg *a, const SqlDatum *d, const SqlDatum *best)
{
    int cmp;
    if (d->null)
        return false;
    if (best->null)
        return true;
    cmp = sql_datum_cmp(a->type, d, best);
    return a->kind == K_MIN ? cmp < 0 : cmp > 0;
}

/* Strings compare in place and are copied only when kept; other values
 * are read into a scratch datum first (complex ones have parts). */
static int best_add(const SqlAgg *a, void *const *sts,
                    const CombVector *const *argv, const CombBatch *in,
                    CombArena *mem, CombErr *err)
{
    const CombVector *v = argv[0];
    CombArena scratch;
    int rc = COMB_OK;
    comb_arena_init(&scratch, 1024);
    FOR_LIVE(in, i, row) {
        BestState *s = sts[i];
        SqlDatum d;
        if (comb_vec_is_null(v, row))
            continue;
        memset(&d, 0, sizeof d);
        comb_arena_reset(&scratch);
        if (v->str)
            d.s = v->str[row];
        else if (sql_datum_read(&d, v, row, &scratch)) {
            rc = comb_err_nomem(err);
            break;
        }
        if (better(a, &d, &s->best) && sql_datum_read(&s->best, v, row, mem)) {
            rc = comb_err_nomem(err);
            break;
        }
    }
    comb_arena_free(&scratch);
    return rc;
}

static int best_merge(const SqlAgg *a, void *dst, const void *src,
                      CombArena *mem, CombErr *err)
{
    (void)mem;
    (void)err;
    /* the source's datum lives in an arena at least as long as dst's */
    if (better(a, &((const BestState *)src)->best, &((BestState *)dst)->best))
        ((BestState *)dst)->best = ((const BestState *)src)->best;
    return COMB_OK;
}

static int best_final(const SqlAgg *a, void *st, SqlDatum *out,
                      CombArena *mem, CombErr *err)
{
    (void)a;
    (void)mem;
    (void)err;
    *out = ((BestState *)st)->best;
    return COMB_OK;
}

static const SqlAggOps best_ops = {best_init, best_add, best_merge,
                                   best_final};

/* --------------------------------------------------------------- variance */

/* n times the variance, as GenericUDAFVariance keeps it. */
typedef struct VarState {
    int64_t count;
    double sum;
    double variance;
} VarState;

static void var_init(const SqlAgg *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(VarState));
}

static int var_add(const SqlAgg *a, void *const *sts,
                   const CombVector *const *argv, const CombBatch *in,
                   CombArena *mem, CombErr *err)
{
    (void)a;
    (void)mem;
    (void)err;
    FOR_LIVE(in, i, row) {
        VarState *s = sts[i];
        double v, t;
        if (comb_vec_is_null(argv[0], row))
            continue;
        v = value_double(argv[0], row);
        s->count++;
        s->sum += v;
        if (s->count > 1) {
            t = (double)s->count * v - s->sum;
            s->variance += (t * t) / ((double)s->count * (double)(s->count - 1));
        }
    }
    return COMB_OK;
}

/* GenericUDAFVariance.calculateMerge (Chan, Golub and LeVeque). */
static int var_merge(const SqlAgg *a, void *dst, const void *src,
                     CombArena *mem, CombErr *err)
{
    VarState *d = dst;
    const VarState *s = src;
    (void)a;
    (void)mem;
    (void)err;
    if (d->count == 0) {
        *d = *s;
        return COMB_OK;
    }
    if (s->count != 0) {
        double pc = (double)s->count, mc = (double)d->count;
        double t = (pc / mc) * d->sum - s->sum;
        d->variance += s->variance + ((mc / pc) / (mc + pc)) * t * t;
        d->count += s->count;
        d->sum += s->sum;
    }
    return COMB_OK;
}

static int var_final(const SqlAgg *a, void *st, SqlDatum *out,
                     CombArena *mem, CombErr *err)
{
    const VarState *s = st;
    bool sample = a->kind == K_VAR_SAMP || a->kind == K_STD_SAMP;
    (void)mem;
    (void)err;
    out->null = s->count == 0 || (sample && s->count <= 1);
    if (out->null)
        return COMB_OK;
    if (s->count == 1)
        out->d = 0;
    else
        out->d = s->variance / (double)(sample ? s->count - 1 : s->count);
    if (a->kind == K_STD_POP || a->kind == K_STD_SAMP)
        out->d = sqrt(out->d);
    return COMB_OK;
}

static const SqlAggOps var_ops = {var_init, var_add, var_merge, var_final};

/* ------------------------------------------------- covariance, correlation */

typedef struct CovState {
    int64_t count;
    double xavg, yavg;
    double xvar, yvar;       /* corr only */
    double covar;            /* n times the covariance */
} CovState;

static void cov_init(const SqlAgg *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(CovState));
}

/* GenericUDAFCovariance.iterate and GenericUDAFCorrelation.iterate (whose
 * x is its second argument). */
static void cov_one(const SqlAgg *a, CovState *s, double vx, double vy)
{
    if (a->kind == K_CORR) {
        double dx = vx - s->xavg, dy = vy - s->yavg;
        s->count++;
        s->xavg += dx / (double)s->count;
        s->yavg += dy / (double)s->count;
        if (s->count > 1) {
            s->covar += dx * (vy - s->yavg);
            s->xvar += dx * (vx - s->xavg);
            s->yvar += dy * (vy - s->yavg);
        }
        return;
    }
    s->count++;
    s->yavg = s->yavg + (vy - s->yavg) / (double)s->count;
    if (s->count > 1)
        s->covar += (vx - s->xavg) * (vy - s->yavg);
    s->xavg = s->xavg + (vx - s->xavg) / (double)s->count;
}

static int cov_add(const SqlAgg *a, void *const *sts,
                   const CombVector *const *argv, const CombBatch *in,
                   CombArena *mem, CombErr *err)
{
    int x = a->kind == K_CORR ? 1 : 0;
    (void)mem;
    (void)err;
    FOR_LIVE(in, i, row)
        if (!any_null(argv, 2, row))
            cov_one(a, sts[i], value_double(argv[x], row),
                    value_double(argv[1 - x], row));
    return COMB_OK;
}

static int cov_merge(const SqlAgg *a, void *dst, const void *src,
                     CombArena *mem, CombErr *err)
{
    CovState *d = dst;
    const CovState *s = src;
    int64_t na = d->count, nb = s->count;
    double xa = d->xavg, ya = d->yavg;
    (void)a;
    (void)mem;
    (void)err;
    if (na == 0) {
        *d = *s;
        return COMB_OK;
    }
    if (nb == 0)
        return COMB_OK;
    d->count += nb;
    d->xavg = (xa * (double)na + s->xavg * (double)nb) / (double)d->count;
    d->yavg = (ya * (double)na + s->yavg * (double)nb) / (double)d->count;
    d->xvar += s->xvar + (xa - s->xavg) * (xa - s->xavg) * (double)na *
                             (double)nb / (double)d->count;
    d->yvar += s->yvar + (ya - s->yavg) * (ya - s->yavg) * (double)na *
                             (double)nb / (double)d->count;
    d->covar += s->covar + (xa - s->xavg) * (ya - s->yavg) *
                               ((double)(na * nb) / (double)d->count);
    return COMB_OK;
}

static int cov_final(const SqlAgg *a, void *st, SqlDatum *out,
                     CombArena *mem, CombErr *err)
{
    const CovState *s = st;
    (void)mem;
    (void)err;
    if (a->kind == K_CORR) {
        out->null = s->count == 0 || s->xvar == 0.0 || s->yvar == 0.0;
        if (!out->null)
            out->d = s->covar / sqrt(s->yvar) / sqrt(s->xvar);
        return COMB_OK;
    }
    out->null = s->count == 0;
    if (out->null)
        return COMB_OK;
    if (a->kind == K_COVAR_POP)
        out->d = s->covar / (double)s->count;
    else
        out->d = s->count > 1 ? s->covar / (double)(s->count - 1) : 0;
    return COMB_OK;
}

static const SqlAggOps cov_ops = {cov_init, cov_add, cov_merge, cov_final};

/* ----------------------------------------------------- collect_list / set */

/* The values in arrival order (collect_set: the first of equal values,
 * as Java's LinkedHashSet keeps it), with a hash index for the set. */
typedef struct CollectState {
    SqlDatum *vals;
    uint32_t n, cap;
    uint32_t *slots;         /* collect_set: value index + 1, 0 empty */
    uint32_t n_slots;
} CollectState;

static void collect_init(const SqlAgg *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(CollectState));
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* A hash of a datum of type t: equal datums (sql_datum_cmp) hash alike. */
static uint64_t datum_hash(const CombType *t, const SqlDatum *d)
{
    uint64_t h = 1469598103934665603ULL;
    if (d->null)
        return 7;
    switch (t->kind) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE: {
        double x = isnan(d->d) ? NAN : d->d;
        uint64_t bits;
        memcpy(&bits, &x, sizeof bits);
        return mix(h, bits);
    }
    case COMB_T_DECIMAL:
        return mix(mix(h, (uint64_t)d->dec), (uint64_t)(d->dec >> 64));
    case COMB_T_STRING:
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
    case COMB_T_BINARY:
        for (uint32_t i = 0; i < d->s.len; i++)
            h = (h ^ (unsigned char)d->s.ptr[i]) * 1099511628211ULL;
        return h;
    case COMB_T_LIST:
    case COMB_T_MAP:
    case COMB_T_STRUCT:
    case COMB_T_UNION:
        h = mix(h, d->n);
        for (uint32_t i = 0; i < d->n; i++) {
            const CombType *pt =
                t->kind == COMB_T_LIST ? t->children[0]
                : t->kind == COMB_T_MAP ? t->children[i % 2]
                : t->kind == COMB_T_UNION ? t->children[d->tag]
                                          : t->children[i];
            h = mix(h, datum_hash(pt, &d->parts[i]));
        }
        return h;
    default:
        return mix(mix(h, (uint64_t)d->i), (uint64_t)d->nanos);
    }
}

static int collect_index(CollectState *s, const CombType *t, CombArena *mem)
{
    uint32_t n = s->n_slots ? s->n_slots * 2 : 16;
    uint32_t *slots = comb_arena_calloc(mem, (size_t)n * sizeof *slots);
    if (!slots)
        return COMB_ENOMEM;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t k = (uint32_t)datum_hash(t, &s->vals[i]) & (n - 1);
        while (slots[k])
            k = (k + 1) & (n - 1);
        slots[k] = i + 1;
    }
    s->slots = slots;
    s->n_slots = n;
    return COMB_OK;
}

/* The slot of d in the set's index: its equal's, or the empty one to
 * take. */
static uint32_t *set_slot(CollectState *s, const CombType *t, const SqlDatum *d)
{
    uint32_t k = (uint32_t)datum_hash(t, d) & (s->n_slots - 1);
    while (s->slots[k] && sql_datum_cmp(t, &s->vals[s->slots[k] - 1], d) != 0)
        k = (k + 1) & (s->n_slots - 1);
    return &s->slots[k];
}

static int collect_push(CollectState *s, const SqlDatum *d, CombArena *mem)
{
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 8;
        SqlDatum *vals = comb_arena_alloc(mem, (size_t)cap * sizeof *vals);
        if (!vals)
            return COMB_ENOMEM;
        if (s->n)
            memcpy(vals, s->vals, (size_t)s->n * sizeof *vals);
        s->vals = vals;
        s->cap = cap;
    }
    s->vals[s->n++] = *d;
    return COMB_OK;
}

/* Add value d (in scratch memory) to s: a set takes it only when new. */
static int collect_one(const SqlAgg *a, CollectState *s, const SqlDatum *d,
                       const CombVector *v, int row, CombArena *mem)
{
    const CombType *t = a->type->children[0];
    uint32_t *slot = NULL;
    SqlDatum kept;
    if (a->kind == K_COLLECT_SET) {
        if ((s->n + 1) * 2 > s->n_slots && collect_index(s, t, mem))
            return COMB_ENOMEM;
        if (*(slot = set_slot(s, t, d)))
            return COMB_OK;
    }
    if (v ? sql_datum_read(&kept, v, row, mem) : (kept = *d, 0))
        return COMB_ENOMEM;
    if (collect_push(s, &kept, mem))
        return COMB_ENOMEM;
    if (slot)
        *slot = s->n;
    return COMB_OK;
}

/* NULLs are left out, as Hive's collect_list/collect_set do. */
static int collect_add(const SqlAgg *a, void *const *sts,
                       const CombVector *const *argv, const CombBatch *in,
                       CombArena *mem, CombErr *err)
{
    CombArena scratch;
    int rc = COMB_OK;
    comb_arena_init(&scratch, 1024);
    FOR_LIVE(in, i, row) {
        SqlDatum d;
        if (comb_vec_is_null(argv[0], row))
            continue;
        comb_arena_reset(&scratch);
        if (sql_datum_read(&d, argv[0], row, &scratch) ||
            collect_one(a, sts[i], &d, argv[0], row, mem)) {
            rc = comb_err_nomem(err);
            break;
        }
    }
    comb_arena_free(&scratch);
    return rc;
}

static int collect_merge(const SqlAgg *a, void *dst, const void *src,
                         CombArena *mem, CombErr *err)
{
    const CollectState *s = src;
    for (uint32_t i = 0; i < s->n; i++)
        if (collect_one(a, dst, &s->vals[i], NULL, 0, mem))
            return comb_err_nomem(err);
    return COMB_OK;
}

/* An empty group gives an empty array (Hive's terminate of an empty
 * collection). */
static int collect_final(const SqlAgg *a, void *st, SqlDatum *out,
                         CombArena *mem, CombErr *err)
{
    const CollectState *s = st;
    (void)a;
    (void)mem;
    (void)err;
    out->n = s->n;
    out->parts = s->vals;
    return COMB_OK;
}

static const SqlAggOps collect_ops = {collect_init, collect_add, collect_merge,
                                      collect_final};

/* ---------------------------------------------------------------- percentile */

/* percentile: every value kept (UDAFPercentile counts them in a map;
 * sorting them at the end gives the same accumulated counts). */
typedef struct PctState {
    int64_t *vals;
    int64_t n, cap;
    bool sorted;
} PctState;

static void pct_init(const SqlAgg *a, void *st)
{
    (void)a;
    memset(st, 0, sizeof(PctState));
}

static int pct_push(PctState *s, int64_t v, CombArena *mem)
{
    if (s->n == s->cap) {
        int64_t cap = s->cap ? s->cap * 2 : 16;
        int64_t *vals = comb_arena_alloc(mem, (size_t)cap * sizeof *vals);
        if (!vals)
            return COMB_ENOMEM;
        if (s->n)
            memcpy(vals, s->vals, (size_t)s->n * sizeof *vals);
        s->vals = vals;
        s->cap = cap;
    }
    s->vals[s->n++] = v;
    s->sorted = false;
    return COMB_OK;
}

static int pct_add(const SqlAgg *a, void *const *sts,
                   const CombVector *const *argv, const CombBatch *in,
                   CombArena *mem, CombErr *err)
{
    (void)a;
    FOR_LIVE(in, i, row)
        if (!comb_vec_is_null(argv[0], row) &&
            pct_push(sts[i], argv[0]->i64[row], mem))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int pct_merge(const SqlAgg *a, void *dst, const void *src,
                     CombArena *mem, CombErr *err)
{
    const PctState *s = src;
    (void)a;
    for (int64_t i = 0; i < s->n; i++)
        if (pct_push(dst, s->vals[i], mem))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* UDAFPercentile.getPercentile over the sorted values: position
 * (n - 1) * p between the values at floor and ceil, interpolated as
 * (higher - position) * lower + (position - lower) * higher. */
static double pct_at(const PctState *s, double p)
{
    double pos = (double)(s->n - 1) * p;
    int64_t lo = (int64_t)floor(pos), hi = (int64_t)ceil(pos);
    int64_t lk = s->vals[lo], hk = s->vals[hi];
    if (hi == lo || hk == lk)
        return (double)lk;
    return ((double)hi - pos) * (double)lk + (pos - (double)lo) * (double)hk;
}

/* The result datum: one double, or an array of them. */
static int doubles_result(const SqlAgg *a, const double *vals, SqlDatum *out,
                          CombArena *mem, CombErr *err)
{
    if (!a->param_list) {
        out->d = vals[0];
        return COMB_OK;
    }
    out->parts = comb_arena_calloc(mem, (size_t)a->n_params * sizeof *out->parts + 1);
    if (!out->parts)
        return comb_err_nomem(err);
    out->n = (uint32_t)a->n_params;
    for (int k = 0; k < a->n_params; k++)
        out->parts[k].d = vals[k];
    return COMB_OK;
}

static int pct_final(const SqlAgg *a, void *st, SqlDatum *out,
                     CombArena *mem, CombErr *err)
{
    PctState *s = st;
    double *vals = comb_arena_alloc(mem, (size_t)a->n_params * sizeof *vals + 1);
    if (!vals)
        return comb_err_nomem(err);
    out->null = s->n == 0;
    if (out->null)
        return COMB_OK;
    if (!s->sorted) {
        qsort(s->vals, (size_t)s->n, sizeof *s->vals, cmp_i64);
        s->sorted = true;
    }
    for (int k = 0; k < a->n_params; k++)
        vals[k] = pct_at(s, a->params[k]);
    return doubles_result(a, vals, out, mem, err);
}

static const SqlAggOps pct_ops = {pct_init, pct_add, pct_merge, pct_final};

/* ------------------------------------------------------- percentile_approx */

typedef struct HistBin {
    double x, y;
} HistBin;

/* NumericHistogram: at most nbins bins sorted by x; prng breaks ties when
 * two pairs of bins are equally close. */
typedef struct HistState {
    HistBin *bins;
    int n, cap;
    SqlJavaRandom prng;
} HistState;

static void hist_init(const SqlAgg *a, void *st)
{
    HistState *h = st;
    (void)a;
    memset(h, 0, sizeof *h);
    sql_jrand_seed(&h->prng, 31183);
}

/* NumericHistogram.trim: merge the closest pair of bins until nbins are
 * left (a tie goes to a later pair with probability 1/ties seen). */
static void hist_trim(HistState *h, int nbins)
{
    while (h->n > nbins) {
        double smallest = h->bins[1].x - h->bins[0].x, d;
        int at = 0, ties = 1;
        for (int i = 1; i < h->n - 1; i++) {
            double diff = h->bins[i + 1].x - h->bins[i].x;
            if (diff < smallest) {
                smallest = diff;
                at = i;
                ties = 1;
            } else if (diff == smallest &&
                       sql_jrand_double(&h->prng) <= 1.0 / ++ties) {
                at = i;
            }
        }
        d = h->bins[at].y + h->bins[at + 1].y;
        h->bins[at].x *= h->bins[at].y / d;
        h->bins[at].x += h->bins[at + 1].x / d * h->bins[at + 1].y;
        h->bins[at].y = d;
        memmove(&h->bins[at + 1], &h->bins[at + 2],
                (size_t)(h->n - at - 2) * sizeof *h->bins);
        h->n--;
    }
}

static int hist_reserve(HistState *h, int n, CombArena *mem)
{
    HistBin *bins;
    int cap;
    if (n <= h->cap)
        return COMB_OK;
    cap = h->cap ? h->cap * 2 : 16;
    while (cap < n)
        cap *= 2;
    if (!(bins = comb_arena_alloc(mem, (size_t)cap * sizeof *bins)))
        return COMB_ENOMEM;
    if (h->n)
        memcpy(bins, h->bins, (size_t)h->n * sizeof *bins);
    h->bins = bins;
    h->cap = cap;
    return COMB_OK;
}

/* NumericHistogram.add: the value's bin counts one more, or a new bin is
 * placed (binary search as Hive's) and the histogram trimmed. */
static int hist_add_value(HistState *h, double v, int nbins, CombArena *mem)
{
    int bin = 0;
    for (int l = 0, r = h->n; l < r;) {
        bin = (l + r) / 2;
        if (h->bins[bin].x > v)
            r = bin;
        else if (h->bins[bin].x < v)
            l = ++bin;
        else
            break;
    }
    if (bin < h->n && h->bins[bin].x == v) {
        h->bins[bin].y++;
        return COMB_OK;
    }
    if (hist_reserve(h, h->n + 1, mem))
        return COMB_ENOMEM;
    memmove(&h->bins[bin + 1], &h->bins[bin], (size_t)(h->n - bin) * sizeof *h->bins);
    h->bins[bin] = (HistBin){v, 1};
    if (++h->n > nbins)
        hist_trim(h, nbins);
    return COMB_OK;
}

static int hist_add(const SqlAgg *a, void *const *sts,
                    const CombVector *const *argv, const CombBatch *in,
                    CombArena *mem, CombErr *err)
{
    FOR_LIVE(in, i, row)
        if (!comb_vec_is_null(argv[0], row) &&
            hist_add_value(sts[i], value_double(argv[0], row),
                           (int)a->accuracy, mem))
            return comb_err_nomem(err);
    return COMB_OK;
}

static int cmp_bins(const void *x, const void *y)
{
    return sql_double_cmp(((const HistBin *)x)->x, ((const HistBin *)y)->x);
}

/* NumericHistogram.merge: both sets of bins sorted together (Java's
 * stable sort) and trimmed. */
static int hist_merge(const SqlAgg *a, void *dst, const void *src,
                      CombArena *mem, CombErr *err)
{
    HistState *d = dst;
    const HistState *s = src;
    if (hist_reserve(d, d->n + s->n, mem))
        return comb_err_nomem(err);
    if (s->n)
        memcpy(&d->bins[d->n], s->bins, (size_t)s->n * sizeof *d->bins);
    if (d->n == 0) {
        d->n = s->n;
        return COMB_OK;
    }
    d->n += s->n;
    /* insertion sort keeps equal bins in order, as Collections.sort */
    for (int i = 1; i < d->n; i++) {
        HistBin b = d->bins[i];
        int j = i;
        while (j > 0 && cmp_bins(&d->bins[j - 1], &b) > 0) {
            d->bins[j] = d->bins[j - 1];
            j--;
        }
        d->bins[j] = b;
    }
    hist_trim(d, (int)a->accuracy);
    return COMB_OK;
}

/* NumericHistogram.quantile. */
static double hist_quantile(const HistState *h, double q)
{
    double sum = 0, csum = 0;
    for (int b = 0; b < h->n; b++)
        sum += h->bins[b].y;
    for (int b = 0; b < h->n; b++) {
        csum += h->bins[b].y;
        if (csum / sum >= q) {
            if (b == 0)
                return h->bins[b].x;
            csum -= h->bins[b].y;
            return h->bins[b - 1].x +
                   (q * sum - csum) * (h->bins[b].x - h->bins[b - 1].x) /
                       h->bins[b].y;
        }
    }
    return -1;
}

static int hist_final(const SqlAgg *a, void *st, SqlDatum *out,
                      CombArena *mem, CombErr *err)
{
    const HistState *h = st;
    double *vals = comb_arena_alloc(mem, (size_t)a->n_params * sizeof *vals + 1);
    if (!vals)
        return comb_err_nomem(err);
    out->null = h->n < 1;
    if (out->null)
        return COMB_OK;
    for (int k = 0; k < a->n_params; k++)
        vals[k] = hist_quantile(h, a->params[k]);
    return doubles_result(a, vals, out, mem, err);
}

static const SqlAggOps hist_ops = {hist_init, hist_add, hist_merge,
                                   hist_final};

/* ---------------------------------------------------------------- binding */

typedef struct AggBind {
    SqlStmtCtx *c;
    const AstExpr *call;
    SqlAgg *a;
} AggBind;

typedef int (*AggBinder)(AggBind *ab, CombErr *err);

static int type_error(AggBind *ab, int argi, const char *fmt, const char *tn,
                      CombErr *err)
{
    return sql_fn_error(err, 10016, ab->call, argi, fmt, tn);
}

static const char *arg_type(AggBind *ab, int i)
{
    return sql_bx_type_text(ab->c, ab->a->args[i]);
}

static int arity(AggBind *ab, int lo, int hi, const char *msg, CombErr *err)
{
    if (ab->a->n_args >= lo && ab->a->n_args <= hi)
        return COMB_OK;
    /* UDFArgumentTypeException(parameters.length - 1, ...) names the last
     * argument */
    return sql_fn_error(err, 10016, ab->call,
                        ab->a->n_args > 0 ? ab->a->n_args - 1 : -1, "%s", msg);
}

static bool numeric_or_string(CombTypeKind k)
{
    return sql_is_number(k) || sql_is_string(k) || k == COMB_T_TIMESTAMP ||
           k == COMB_T_NULL;
}

/* Strings are read as doubles (getDouble; text that is no number is
 * skipped, as Hive's NumberFormatException is). */
static int strings_to_double(AggBind *ab, int i, CombErr *err)
{
    BoundExpr **x = &ab->a->args[i];
    if (!sql_is_string((*x)->type) && (*x)->type != COMB_T_NULL)
        return COMB_OK;
    return sql_bind_convert_kind(ab->c, *x, COMB_T_DOUBLE, x, err);
}

static int bind_count(AggBind *ab, CombErr *err)
{
    ab->a->type = sql_kind_type(COMB_T_BIGINT);
    ab->a->ops = &count_ops;
    ab->a->state_size = sizeof(CountState);
    ab->a->merge_exact = true;
    (void)err;
    return COMB_OK;
}

/* sum: integers BIGINT, floats, doubles, strings and timestamps DOUBLE,
 * decimal(p,s) decimal(min(38, p + 10), s); avg: DOUBLE, decimal(p,s)
 * decimal(p - s + s', s') with s' = min(s + 4, 38 - (p - s)). */
static int bind_sum(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    const BoundExpr *x;
    int rc;
    if ((rc = arity(ab, 1, 1, "Exactly one argument is expected.", err)))
        return rc;
    if (!comb_type_is_primitive(a->args[0]->type))
        return type_error(ab, 0, "Only primitive type arguments are accepted "
                          "but %s is passed.", arg_type(ab, 0), err);
    if (!numeric_or_string(a->args[0]->type))
        return type_error(ab, 0, "Only numeric or string type arguments are "
                          "accepted but %s is passed.", arg_type(ab, 0), err);
    if ((rc = strings_to_double(ab, 0, err)))
        return rc;
    x = a->args[0];
    a->ops = &sum_ops;
    a->state_size = sizeof(SumState);
    /* integers add up in 64 bits and decimals exactly, in any order;
     * doubles round differently when the rows are cut otherwise */
    a->merge_exact = x->type == COMB_T_DECIMAL || sql_int_rank(x->type);
    if (x->type == COMB_T_DECIMAL) {
        int p = (int)x->ctype->precision, s = (int)x->ctype->scale, ip = p - s;
        if (a->kind == K_SUM)
            a->type = sql_decimal_type(ab->c, p + 10 < 38 ? p + 10 : 38, s);
        else {
            s = s + 4 < 38 - ip ? s + 4 : 38 - ip;
            a->type = sql_decimal_type(ab->c, ip + s, s);
        }
    } else {
        a->type = sql_kind_type(a->kind == K_SUM && sql_int_rank(x->type)
                                    ? COMB_T_BIGINT : COMB_T_DOUBLE);
    }
    return a->type ? COMB_OK : comb_err_nomem(err);
}

/* min / max: any orderable type; NULL alone gives STRING. */
static int bind_best(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    int rc;
    if ((rc = arity(ab, 1, 1, "Exactly one argument is expected.", err)))
        return rc;
    a->ops = &best_ops;
    a->state_size = sizeof(BestState);
    a->merge_exact = true; /* the best of bests is the best */
    if (a->args[0]->type == COMB_T_NULL) {
        a->type = sql_kind_type(COMB_T_STRING);
        return sql_bind_convert_kind(ab->c, a->args[0], COMB_T_STRING,
                                     &a->args[0], err);
    }
    if (!(a->type = sql_bx_type(ab->c, a->args[0])))
        return comb_err_nomem(err);
    if (!sql_type_orderable(a->type))
        return type_error(ab, 0, "Cannot support comparison of map<> type or "
                          "complex type containing map<>.%s", "", err);
    return COMB_OK;
}

static int bind_variance(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    int rc;
    if ((rc = arity(ab, 1, 1, "Exactly one argument is expected.", err)))
        return rc;
    if (!comb_type_is_primitive(a->args[0]->type))
        return type_error(ab, 0, "Only primitive type arguments are accepted "
                          "but %s is passed.", arg_type(ab, 0), err);
    if (!numeric_or_string(a->args[0]->type))
        return type_error(ab, 0, "Only numeric or string type arguments are "
                          "accepted but %s is passed.", arg_type(ab, 0), err);
    a->ops = &var_ops;
    a->state_size = sizeof(VarState);
    a->type = sql_kind_type(COMB_T_DOUBLE);
    return strings_to_double(ab, 0, err);
}

/* covar_pop, covar_samp, corr: two numbers (no strings, no booleans). */
static int bind_covariance(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    int rc;
    if ((rc = arity(ab, 2, 2, "Exactly two arguments are expected.", err)))
        return rc;
    for (int i = 0; i < 2; i++) {
        CombTypeKind k = a->args[i]->type;
        if (!comb_type_is_primitive(k))
            return type_error(ab, i, "Only primitive type arguments are "
                              "accepted but %s is passed.", arg_type(ab, i), err);
        if (!sql_is_number(k) && k != COMB_T_TIMESTAMP && k != COMB_T_NULL)
            return type_error(ab, i, "Only numeric or string type arguments "
                              "are accepted but %s is passed.", arg_type(ab, i),
                              err);
    }
    a->ops = &cov_ops;
    a->state_size = sizeof(CovState);
    a->type = sql_kind_type(COMB_T_DOUBLE);
    return COMB_OK;
}

static int bind_collect(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    CombType *t = comb_type_new(ab->c->arena, COMB_T_LIST);
    const CombType *elem;
    int rc;
    if ((rc = arity(ab, 1, 1, "Exactly one argument is expected.", err)))
        return rc;
    if (!t || !(elem = sql_bx_type(ab->c, a->args[0])))
        return comb_err_nomem(err);
    if (a->kind == K_COLLECT_SET && !sql_type_orderable(elem))
        return type_error(ab, 0, "Cannot support comparison of map<> type or "
                          "complex type containing map<>.%s", "", err);
    if (comb_type_add_field(ab->c->arena, t, NULL, (CombType *)elem))
        return comb_err_nomem(err);
    a->ops = &collect_ops;
    a->state_size = sizeof(CollectState);
    a->type = t;
    return COMB_OK;
}

/* The constant percentile(s) of argument 1: one number or an array of
 * them, evaluated now. */
static int percent_params(AggBind *ab, bool open_range, CombErr *err)
{
    SqlAgg *a = ab->a;
    BoundExpr *p = a->args[1];
    const CombVector *v;
    int rc;
    if (!sql_expr_is_const(p))
        return type_error(ab, 1, "The second argument must be a constant, but "
                          "%s was passed instead.", arg_type(ab, 1), err);
    a->param_list = p->type == COMB_T_LIST;
    if ((rc = sql_eval_constant(ab->c, p, err)))
        return rc;
    v = p->out;
    if (a->param_list) {
        v = &p->out->children[0];
        a->n_params = comb_vec_is_null(p->out, 0) ? 0 : (int)p->out->len[0];
    } else {
        a->n_params = 1;
    }
    a->params = comb_arena_alloc(ab->c->arena, (size_t)a->n_params * sizeof *a->params + 1);
    if (!a->params)
        return comb_err_nomem(err);
    for (int k = 0; k < a->n_params; k++) {
        int row = a->param_list ? (int)p->out->off[0] + k : 0;
        double d = comb_vec_is_null(v, row) ? NAN : value_double(v, row);
        bool bad = open_range ? !(d > 0 && d < 1) : !(d >= 0 && d <= 1);
        if (bad && open_range)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "GenericUDAFPercentileApproxEvaluator requires "
                                 "percentile values to lie strictly between 0 "
                                 "and 1, but you supplied %g", d);
        if (bad)
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "Percentile value must be within the range of "
                                 "0 to 1.");
        a->params[k] = d;
    }
    sql_expr_release(p);
    return COMB_OK;
}

static int double_result_type(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    CombType *t;
    if (!a->param_list) {
        a->type = sql_kind_type(COMB_T_DOUBLE);
        return COMB_OK;
    }
    if (!(t = comb_type_new(ab->c->arena, COMB_T_LIST)) ||
        comb_type_add_field(ab->c->arena, t, NULL,
                            (CombType *)sql_kind_type(COMB_T_DOUBLE)))
        return comb_err_nomem(err);
    a->type = t;
    return COMB_OK;
}

/* percentile(integer, p | array(p, ...)): UDAFPercentile's evaluate
 * methods take a LongWritable and a double or a list of doubles. */
static int bind_percentile(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    int rc;
    if (a->n_args != 2 ||
        (!sql_int_rank(a->args[0]->type) && a->args[0]->type != COMB_T_NULL))
        return sql_fn_error(err, 10014, ab->call, -1,
                            "No matching method for class org.apache.hadoop."
                            "hive.ql.udf.UDAFPercentile with (%s%s%s). Possible "
                            "choices: _FUNC_(bigint, array<double>)  "
                            "_FUNC_(bigint, double)  ",
                            a->n_args ? arg_type(ab, 0) : "",
                            a->n_args > 1 ? ", " : "",
                            a->n_args > 1 ? arg_type(ab, 1) : "");
    if ((rc = sql_bind_convert_kind(ab->c, a->args[0], COMB_T_BIGINT,
                                    &a->args[0], err)) ||
        (rc = percent_params(ab, false, err)))
        return rc;
    a->ops = &pct_ops;
    a->state_size = sizeof(PctState);
    a->n_args = 1;
    return double_result_type(ab, err);
}

static bool fraction_type(CombTypeKind k)
{
    return comb_type_is_float(k) || k == COMB_T_DECIMAL;
}

/* percentile_approx(number, p | array(p, ...) [, B]) */
static int bind_percentile_approx(AggBind *ab, CombErr *err)
{
    SqlAgg *a = ab->a;
    const BoundExpr *p;
    int rc;
    if ((rc = arity(ab, 2, 3, "Please specify either two or three arguments.", err)))
        return rc;
    if (!comb_type_is_primitive(a->args[0]->type))
        return type_error(ab, 0, "Only primitive type arguments are accepted "
                          "but %s was passed as parameter 1.", arg_type(ab, 0), err);
    if (!sql_is_number(a->args[0]->type) && a->args[0]->type != COMB_T_TIMESTAMP)
        return type_error(ab, 0, "Only numeric type arguments are accepted but "
                          "%s was passed as parameter 1.", arg_type(ab, 0), err);
    p = a->args[1];
    if (!(fraction_type(p->type) ||
          (p->type == COMB_T_LIST && fraction_type(p->ctype->children[0]->kind))))
        return type_error(ab, 1, "Only a floating point or decimal, or floating "
                          "point or decimal array argument is accepted as "
                          "parameter 2, but %s was passed instead.",
                          arg_type(ab, 1), err);
    a->accuracy = 10000;
    if (a->n_args == 3) {
        BoundExpr *b = a->args[2];
        if (!sql_int_rank(b->type))
            return type_error(ab, 2, "Only an integer argument is accepted as "
                              "parameter 3, but %s was passed instead.",
                              arg_type(ab, 2), err);
        if (b->kind != BX_CONST || b->is_null)
            return type_error(ab, 2, "The third argument must be a constant, "
                              "but %s was passed instead.", arg_type(ab, 2), err);
        a->accuracy = (int32_t)b->ival;
        if (a->accuracy < 2)
            return sql_fn_error(err, 10014, ab->call, 2,
                                "the number of histogram bins must be at least 2");
    }
    if ((rc = percent_params(ab, true, err)))
        return rc;
    a->ops = &hist_ops;
    a->state_size = sizeof(HistState);
    a->n_args = 1;
    return double_result_type(ab, err);
}

static const struct {
    const char *name;
    AggKind kind;
    AggBinder bind;
} aggregates[] = {
    {"count", K_COUNT, bind_count},
    {"sum", K_SUM, bind_sum},
    {"avg", K_AVG, bind_sum},
    {"min", K_MIN, bind_best},
    {"max", K_MAX, bind_best},
    {"variance", K_VAR_POP, bind_variance},
    {"var_pop", K_VAR_POP, bind_variance},
    {"var_samp", K_VAR_SAMP, bind_variance},
    {"std", K_STD_POP, bind_variance},
    {"stddev", K_STD_POP, bind_variance},
    {"stddev_pop", K_STD_POP, bind_variance},
    {"stddev_samp", K_STD_SAMP, bind_variance},
    {"covar_pop", K_COVAR_POP, bind_covariance},
    {"covar_samp", K_COVAR_SAMP, bind_covariance},
    {"corr", K_CORR, bind_covariance},
    {"collect_list", K_COLLECT_LIST, bind_collect},
    {"collect_set", K_COLLECT_SET, bind_collect},
    {"percentile", K_PERCENTILE, bind_percentile},
    {"percentile_approx", K_PERCENTILE_APPROX, bind_percentile_approx},
};

#define N_AGGS (sizeof aggregates / sizeof aggregates[0])

bool sql_agg_exists(const char *name)
{
    for (size_t i = 0; i < N_AGGS; i++)
        if (strcmp(aggregates[i].name, name) == 0)
            return true;
    return false;
}

const char *const *sql_agg_names(void)
{
    static const char *names[N_AGGS + 1];
    for (size_t i = 0; i < N_AGGS; i++)
        names[i] = aggregates[i].name;
    return names;
}

int sql_agg_bind(SqlStmtCtx *c, const AstExpr *call, BoundExpr **args,
                 int n_args, SqlAgg **out, CombErr *err)
{
    SqlAgg *a = comb_arena_calloc(c->arena, sizeof *a);
    AggBind ab = {c, call, a};
    size_t i = 0;
    int rc;
    if (!a)
        return comb_err_nomem(err);
    while (i < N_AGGS && strcmp(aggregates[i].name, call->name) != 0)
        i++;
    if (i == N_AGGS)
        return sql_err_at(err, COMB_ESEMANTIC, 10011, call->pos,
                          "Invalid function '%s'", call->name);
    a->name = aggregates[i].name;
    a->kind = aggregates[i].kind;
    a->args = args;
    a->n_args = n_args;
    a->star = call->star_arg;
    a->distinct = call->distinct;
    a->text = call->text;
    if (call->star_arg && a->kind != K_COUNT)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, call->pos,
                          "Arguments length mismatch '%s': The specified "
                          "syntax for UDAF invocation is invalid.", call->name);
    if (!call->star_arg && a->kind == K_COUNT && n_args == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, call->pos,
                          "Arguments length mismatch '%s': The specified "
                          "syntax for UDAF invocation is invalid.", call->name);
    if ((rc = aggregates[i].bind(&ab, err)))
        return rc;
    if (a->distinct)
        a->merge_exact = false; /* the caller's seen sets would have to merge */
    *out = a;
    return COMB_OK;
}
