/*
 * test_agg.c - the aggregate interface (func/agg.h) on its own: states
 * fed batch by batch, merged partial states equal to one state fed
 * everything (the contract a parallel execution and window frames rely
 * on), Hive's exact arithmetic of the variance family, and Java's Random
 * (percentile_approx breaks ties with it, rand(seed) returns it).
 */
#include "unit.h"

#include <math.h>
#include <string.h>

#include "sql/func/agg.h"
#include "sql/func/func_int.h"

typedef struct Env {
    CombArena arena;
    SqlStmtCtx c;
    CombBatch b;
} Env;

static void env_init(Env *e, CombTypeKind kind)
{
    CombTypeKind kinds[2] = {kind, kind};
    memset(e, 0, sizeof *e);
    comb_arena_init(&e->arena, 4096);
    e->c.arena = &e->arena;
    comb_batch_init(&e->b, 2, kinds, COMB_BATCH_SIZE);
}

static void env_free(Env *e)
{
    comb_batch_free(&e->b);
    if (e->c.one_row.cols)
        comb_batch_free(&e->c.one_row);
    comb_arena_free(&e->arena);
}

static BoundExpr *column(Env *e, int col, CombTypeKind kind)
{
    BoundExpr *x = sql_bx_new(&e->c, BX_COL, kind, (AstPos){1, 1});
    x->col = col;
    return x;
}

/* name([DISTINCT] column 0 [, column 1] [, extra]) bound. */
static SqlAgg *bind_call(Env *e, const char *name, bool distinct, int n_cols,
                         BoundExpr *extra, CombErr *err)
{
    static AstExpr args[3];
    static AstExpr *argp[3] = {&args[0], &args[1], &args[2]};
    AstExpr call = {.kind = AST_FUNC, .name = (char *)name, .args = argp,
                    .n_args = n_cols + (extra != NULL), .text = (char *)name,
                    .distinct = distinct};
    BoundExpr **bx = comb_arena_calloc(&e->arena, 4 * sizeof *bx);
    SqlAgg *a = NULL;
    for (int i = 0; i < n_cols; i++)
        bx[i] = column(e, i, e->b.cols[0].kind);
    if (extra)
        bx[n_cols] = extra;
    if (sql_agg_bind(&e->c, &call, bx, call.n_args, &a, err))
        return NULL;
    return a;
}

static SqlAgg *bind(Env *e, const char *name, int n_cols, BoundExpr *extra,
                    CombErr *err)
{
    return bind_call(e, name, false, n_cols, extra, err);
}

static BoundExpr *double_const(Env *e, double d)
{
    BoundExpr *k = sql_bx_new(&e->c, BX_CONST, COMB_T_DOUBLE, (AstPos){1, 1});
    k->dval = d;
    return k;
}

/* Fill the batch with x[from..to) in column 0 and y in column 1, add the
 * rows to st. */
static int feed(Env *e, const SqlAgg *a, void *st, const double *x,
                const double *y, int from, int to, CombErr *err)
{
    void *sts[COMB_BATCH_SIZE];
    const CombVector *argv[2] = {&e->b.cols[0], &e->b.cols[1]};
    comb_batch_reset(&e->b);
    for (int i = from; i < to; i++) {
        int r = e->b.n_rows++;
        if (e->b.cols[0].f64) {
            e->b.cols[0].f64[r] = x[i];
            e->b.cols[1].f64[r] = y ? y[i] : 0;
        } else {
            e->b.cols[0].i64[r] = (int64_t)x[i];
            e->b.cols[1].i64[r] = y ? (int64_t)y[i] : 0;
        }
        sts[r] = st;
    }
    return a->ops->add(a, sts, argv, &e->b, &e->arena, err);
}

/* final of all rows in one state, of the first cut rows merged with the
 * rest, and of the rest merged with the first rows (into an empty
 * state): out[0..2]. */
static int whole_and_merged(Env *e, const SqlAgg *a, const double *x,
                            const double *y, int n, int cut, SqlDatum out[3],
                            CombErr *err)
{
    void *one = comb_arena_calloc(&e->arena, a->state_size);
    void *p = comb_arena_calloc(&e->arena, a->state_size);
    void *q = comb_arena_calloc(&e->arena, a->state_size);
    void *q2 = comb_arena_calloc(&e->arena, a->state_size);
    void *r = comb_arena_calloc(&e->arena, a->state_size);
    int rc;
    a->ops->init(a, one);
    a->ops->init(a, p);
    a->ops->init(a, q);
    a->ops->init(a, q2);
    a->ops->init(a, r);
    memset(out, 0, 3 * sizeof *out);
    if ((rc = feed(e, a, one, x, y, 0, n, err)) ||
        (rc = a->ops->final(a, one, &out[0], &e->arena, err)) ||
        (rc = feed(e, a, p, x, y, 0, cut, err)) ||
        (rc = feed(e, a, q, x, y, cut, n, err)) ||
        (rc = feed(e, a, r, x, y, 0, cut, err)) ||
        (rc = a->ops->merge(a, q2, q, &e->arena, err)) ||
        (rc = a->ops->merge(a, q2, r, &e->arena, err)) ||
        (rc = a->ops->merge(a, p, q, &e->arena, err)) ||
        (rc = a->ops->final(a, p, &out[1], &e->arena, err)) ||
        (rc = a->ops->final(a, q2, &out[2], &e->arena, err)))
        return rc;
    return COMB_OK;
}

TEST(agg_java_random_is_javas_sequence)
{
    SqlJavaRandom r;
    /* new Random(42).nextDouble() twice, new Random(0).nextDouble() */
    sql_jrand_seed(&r, 42);
    CHECK(sql_jrand_double(&r) == 0.7275636800328681);
    CHECK(sql_jrand_double(&r) == 0.6832234717598454);
    sql_jrand_seed(&r, 0);
    CHECK(sql_jrand_double(&r) == 0.730967787376657);
    /* new Random(-1).nextInt() */
    sql_jrand_seed(&r, -1);
    CHECK_EQ(sql_jrand_next(&r, 32), 1155099827);
}

TEST(agg_variance_family_exact_and_merged)
{
    static const double x[] = {1, 2, 3, 4, 10, -3.5, 0.25};
    static const struct { const char *name; double want; } cases[] = {
        {"var_pop", 14.604591836734693}, {"variance", 14.604591836734693},
        {"var_samp", 17.038690476190474}, {"stddev", 3.8215954569701243},
        {"stddev_samp", 4.127794868472812},
    };
    Env e;
    CombErr err;
    env_init(&e, COMB_T_DOUBLE);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        SqlAgg *a = bind(&e, cases[i].name, 1, NULL, &err);
        SqlDatum d[3];
        CHECK(a != NULL);
        CHECK_OK(whole_and_merged(&e, a, x, NULL, 7, 3, d, &err), &err);
        CHECK(!d[0].null && fabs(d[0].d - cases[i].want) < 1e-12);
        CHECK(fabs(d[1].d - d[0].d) < 1e-12 && fabs(d[2].d - d[0].d) < 1e-12);
    }
    /* one row: var_pop 0, var_samp NULL (Hive 4) */
    {
        SqlAgg *pop = bind(&e, "var_pop", 1, NULL, &err);
        SqlAgg *samp = bind(&e, "var_samp", 1, NULL, &err);
        SqlDatum d[3], s[3];
        CHECK_OK(whole_and_merged(&e, pop, x, NULL, 1, 0, d, &err), &err);
        CHECK_OK(whole_and_merged(&e, samp, x, NULL, 1, 1, s, &err), &err);
        CHECK(!d[0].null && d[0].d == 0 && !d[1].null && d[1].d == 0);
        CHECK(s[0].null && s[1].null && s[2].null);
    }
    env_free(&e);
}

TEST(agg_covariance_and_correlation_merge)
{
    static const double x[] = {1, 2, 3, 4, 5, 6};
    static const double y[] = {2, 4.5, 5.5, 8, 11, 12};
    Env e;
    CombErr err;
    SqlDatum d[3];
    SqlAgg *a;
    env_init(&e, COMB_T_DOUBLE);
    CHECK((a = bind(&e, "covar_pop", 2, NULL, &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, y, 6, 2, d, &err), &err);
    CHECK(fabs(d[0].d - 6.0) < 1e-12 && fabs(d[1].d - 6.0) < 1e-12 &&
          fabs(d[2].d - 6.0) < 1e-12);
    CHECK((a = bind(&e, "covar_samp", 2, NULL, &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, y, 6, 4, d, &err), &err);
    CHECK(fabs(d[0].d - 7.2) < 1e-12 && fabs(d[1].d - 7.2) < 1e-12);
    CHECK((a = bind(&e, "corr", 2, NULL, &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, y, 6, 3, d, &err), &err);
    CHECK(d[0].d > 0.99 && d[0].d < 1 && fabs(d[1].d - d[0].d) < 1e-12);
    /* a constant column has no correlation: NULL */
    CHECK_OK(whole_and_merged(&e, a, x, x, 1, 1, d, &err), &err);
    CHECK(d[0].null && d[1].null);
    env_free(&e);
}

TEST(agg_percentile_interpolates_and_merges)
{
    static const double x[] = {10, 1, 7, 3, 3, 100};
    Env e;
    CombErr err;
    SqlDatum d[3];
    SqlAgg *a;
    env_init(&e, COMB_T_BIGINT);
    /* sorted 1 3 3 7 10 100: position 5 * 0.5 = 2.5 between 3 and 7 */
    CHECK((a = bind(&e, "percentile", 1, double_const(&e, 0.5), &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, NULL, 6, 2, d, &err), &err);
    CHECK(d[0].d == 5 && d[1].d == 5 && d[2].d == 5);
    CHECK((a = bind(&e, "percentile", 1, double_const(&e, 1), &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, NULL, 6, 5, d, &err), &err);
    CHECK(d[0].d == 100 && d[1].d == 100);
    /* outside 0..1 is refused */
    CHECK(bind(&e, "percentile", 1, double_const(&e, 1.5), &err) == NULL);
    CHECK(strstr(err.msg, "within the range of 0 to 1") != NULL);
    env_free(&e);
}

TEST(agg_percentile_approx_histogram)
{
    double x[300];
    Env e;
    CombErr err;
    SqlDatum d[3];
    SqlAgg *a;
    env_init(&e, COMB_T_DOUBLE);
    for (int i = 0; i < 300; i++)
        x[i] = (i * 7) % 300;   /* 0..299, each once */
    /* fewer values than bins: NumericHistogram is exact; q = 0.5 lands
     * between the 150th and 151st value: 149 + (150 - 150) * 1 / 1 */
    CHECK((a = bind(&e, "percentile_approx", 1, double_const(&e, 0.5), &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, NULL, 300, 100, d, &err), &err);
    CHECK(d[0].d == 149 && d[1].d == 149 && d[2].d == 149);
    /* 0 and 1 are outside (0, 1) */
    CHECK(bind(&e, "percentile_approx", 1, double_const(&e, 1), &err) == NULL);
    CHECK(strstr(err.msg, "strictly between 0 and 1") != NULL);
    env_free(&e);
}

TEST(agg_collect_set_keeps_first_order_and_merges)
{
    static const double x[] = {5, 1, 5, 2, 1, 9, 2};
    Env e;
    CombErr err;
    SqlDatum d[3];
    SqlAgg *a;
    env_init(&e, COMB_T_BIGINT);
    CHECK((a = bind(&e, "collect_set", 1, NULL, &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, NULL, 7, 3, d, &err), &err);
    CHECK_EQ(d[0].n, 4);
    CHECK(d[0].parts[0].i == 5 && d[0].parts[1].i == 1 && d[0].parts[2].i == 2 &&
          d[0].parts[3].i == 9);
    CHECK_EQ(d[1].n, 4);
    CHECK(d[1].parts[2].i == 2 && d[1].parts[3].i == 9);
    CHECK((a = bind(&e, "collect_list", 1, NULL, &err)) != NULL);
    CHECK_OK(whole_and_merged(&e, a, x, NULL, 7, 3, d, &err), &err);
    CHECK_EQ(d[0].n, 7);
    CHECK_EQ(d[1].n, 7);
    CHECK(d[1].parts[6].i == 2);
    env_free(&e);
}

TEST(agg_binding_refuses_as_hive)
{
    Env e;
    CombErr err;
    env_init(&e, COMB_T_BOOLEAN);
    CHECK(bind(&e, "sum", 1, NULL, &err) == NULL);
    CHECK_EQ(err.hive_code, 10016);
    CHECK(strstr(err.msg, "Only numeric or string type arguments are accepted "
                          "but boolean is passed.") != NULL);
    CHECK(bind(&e, "var_pop", 2, NULL, &err) == NULL);
    CHECK(strstr(err.msg, "Exactly one argument is expected.") != NULL);
    CHECK(bind(&e, "covar_pop", 1, NULL, &err) == NULL);
    CHECK(strstr(err.msg, "Exactly two arguments are expected.") != NULL);
    env_free(&e);
}

/* Which calls a parallel plan may aggregate apart (SqlAgg.merge_exact):
 * those whose merged partial states give the serial value to the last
 * bit, which for sum and avg depends on the argument's type. */
TEST(agg_merge_exact_follows_argument_type)
{
    static const char *const always[] = {"count", "min", "max"};
    static const char *const never[] = {"variance", "stddev_samp", "collect_list",
                                        "collect_set"};
    Env e;
    CombErr err;
    SqlAgg *a;
    BoundExpr *dec;
    env_init(&e, COMB_T_BIGINT);
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++) {
        CHECK((a = bind(&e, always[i], 1, NULL, &err)) != NULL);
        CHECK(a->merge_exact);
        CHECK((a = bind_call(&e, always[i], true, 1, NULL, &err)) != NULL);
        CHECK(!a->merge_exact); /* DISTINCT: the seen sets would have to merge */
    }
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++) {
        CHECK((a = bind(&e, never[i], 1, NULL, &err)) != NULL);
        CHECK(!a->merge_exact);
    }
    CHECK((a = bind(&e, "percentile", 1, double_const(&e, 0.5), &err)) != NULL);
    CHECK(!a->merge_exact);
    CHECK((a = bind(&e, "sum", 1, NULL, &err)) != NULL && a->merge_exact);
    CHECK((a = bind(&e, "avg", 1, NULL, &err)) != NULL && a->merge_exact);
    dec = sql_bx_new_type(&e.c, BX_COL, sql_decimal_type(&e.c, 10, 2), (AstPos){1, 1});
    CHECK((a = bind(&e, "sum", 0, dec, &err)) != NULL && a->merge_exact);
    CHECK((a = bind(&e, "avg", 0, dec, &err)) != NULL && a->merge_exact);
    env_free(&e);
    env_init(&e, COMB_T_DOUBLE);
    CHECK((a = bind(&e, "sum", 1, NULL, &err)) != NULL && !a->merge_exact);
    CHECK((a = bind(&e, "avg", 1, NULL, &err)) != NULL && !a->merge_exact);
    CHECK((a = bind(&e, "max", 1, NULL, &err)) != NULL && a->merge_exact);
    env_free(&e);
}
