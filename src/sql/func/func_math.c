/*
 * func_math.c - Hive's math functions: round and bround (GenericUDFRound/
 * BRound: integers keep their type, doubles round their Double.toString
 * digits as BigDecimal.valueOf does, decimals keep a decimal type), floor
 * and ceil (GenericUDFFloor/Ceil: BIGINT, decimal(p - s + 1, 0)), pow,
 * sqrt, exp, ln, log, log2, log10 (NULL outside their domain, as Hive's
 * UDFs), pmod, sign, greatest/least (NULL if any argument is), rand
 * (java.util.Random), e, pi, the trigonometric functions, degrees,
 * radians, bin, conv (UDFConv through an unsigned 64-bit value),
 * factorial, cbrt, width_bucket, positive, negative.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/decimal.h"
#include "sql/func/convert.h"
#include "sql/func/func_int.h"
#include "sql/func/value.h"

/* ------------------------------------------------------------ round family */

/* d rounded to `scale` fraction digits (negative: tens, hundreds, ...) on
 * its Double.toString digits, HALF_UP or HALF_EVEN (BigDecimal.valueOf(d)
 * .setScale(scale, mode).doubleValue()). */
double sql_round_double(double d, int64_t scale, bool half_even)
{
    char buf[64], out[400];
    char digits[32];
    int nd = 0, point = -1, e10 = 0, keep, n;
    char *m;
    bool up;
    if (isnan(d) || isinf(d))
        return d;
    sql_format_double(fabs(d), buf, sizeof buf);
    if ((m = strchr(buf, 'E')))
        e10 = atoi(m + 1);
    for (char *c = buf; *c && *c != 'E'; c++)
        if (*c == '.')
            point = nd;
        else if (nd < 30)
            digits[nd++] = *c;
    if (point < 0)
        point = nd;
    point += e10;               /* value = 0.digits... with point digits before '.' */
    if (scale > 340)
        return d;
    keep = point + (int)(scale < -400 ? -400 : scale);
    if (keep >= nd)
        return d;
    if (keep < 0)
        return signbit(d) ? -0.0 : 0.0;
    /* decide on digit `keep` and what follows */
    {
        bool rest = false;
        for (int k = keep + 1; k < nd; k++)
            rest |= digits[k] != '0';
        if (!half_even)
            up = digits[keep] >= '5';
        else
            up = digits[keep] > '5' || (digits[keep] == '5' &&
                                        (rest || (keep > 0 && (digits[keep - 1] - '0') % 2)));
    }
    n = 0;
    out[n++] = '0';
    memcpy(out + n, digits, (size_t)keep);
    n += keep;
    if (up) {
        int k = n - 1;
        while (out[k] == '9')
            out[k--] = '0';
        out[k]++;
    }
    snprintf(out + n, sizeof out - (size_t)n, "e%d", point - keep);
    return (signbit(d) ? -1 : 1) * strtod(out, NULL);
}

/* An integer rounded to 10^-scale (scale < 0), HALF_UP or HALF_EVEN. */
static int64_t round_int(int64_t v, int64_t scale, bool half_even)
{
    comb_i128 p, q, r, x = v;
    if (scale >= 0)
        return v;
    if (scale < -19)
        return 0;
    p = comb_dec_pow10((int)-scale);
    q = x / p;
    r = x % p;
    if (r < 0)
        r = -r;
    if (2 * r > p || (2 * r == p && (!half_even || (q % 2 != 0))))
        q += v < 0 ? -1 : 1;
    return (int64_t)(q * p);
}

static int round_fn(BoundExpr *e, const CombBatch *in, bool half_even)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    int64_t scale = e->ival;
    sql_fn_copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        if (comb_vec_is_null(x, row))
            continue;
        if (e->type == COMB_T_DECIMAL) {
            int from = (int)x->type->scale, to = (int)e->ctype->scale;
            comb_i128 u = x->dec[row];
            if (scale < 0) {
                /* to tens, hundreds ... at scale 0 */
                comb_i128 p = comb_dec_pow10(from - (int)scale), q, r;
                if (from - scale > 38) {
                    o->dec[row] = 0;
                    continue;
                }
                q = u / p;
                r = u % p;
                if (r < 0)
                    r = -r;
                if (2 * r > p || (2 * r == p && (!half_even || q % 2 != 0)))
                    q += u < 0 ? -1 : 1;
                o->dec[row] = q * comb_dec_pow10((int)-scale);
                continue;
            }
            if (half_even && to < from) {
                comb_i128 p = comb_dec_pow10(from - to), q = u / p, r = u % p;
                if (r < 0)
                    r = -r;
                if (2 * r > p || (2 * r == p && q % 2 != 0))
                    q += u < 0 ? -1 : 1;
                o->dec[row] = q;
            } else if (!comb_dec_rescale(u, from, to, &o->dec[row])) {
                sql_vec_mark(o, in, row, true);
            }
        } else if (o->f64) {
            double r = sql_round_double(x->f64[row], scale, half_even);
            o->f64[row] = e->type == COMB_T_FLOAT ? (float)r : r;
        } else {
            o->i64[row] = sql_int_wrap(e->type, round_int(x->i64[row], scale, half_even));
        }
    }
    return COMB_OK;
}

static int fn_round(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return round_fn(e, in, false);
}

static int fn_bround(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return round_fn(e, in, true);
}

static int bind_round(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b, *x = b->args[0];
    int64_t scale = 0;
    if (b->n_args == 2) {
        BoundExpr *s = b->args[1];
        if (!sql_int_rank(s->type))
            return sql_fn_error(err, 10016, f->call, 1,
                                "%s second argument only takes integer constant",
                                f->def->name[0] == 'b' ? "BROUND" : "ROUND");
        if (s->kind != BX_CONST)
            return sql_fn_error(err, 10016, f->call, 1,
                                "%s second argument only takes constant",
                                f->def->name[0] == 'b' ? "BROUND" : "ROUND");
        scale = s->is_null ? 0 : s->ival;
    }
    b->ival = scale;
    switch (x->type) {
    case COMB_T_TINYINT: case COMB_T_SMALLINT: case COMB_T_INT: case COMB_T_BIGINT:
    case COMB_T_FLOAT: case COMB_T_DOUBLE:
        b->type = x->type;
        return COMB_OK;
    case COMB_T_DECIMAL: {
        int p = (int)x->ctype->precision, s = (int)x->ctype->scale, ns;
        ns = scale < 0 ? 0 : scale < s ? (int)scale : s;
        p = p - s + 1 + ns;
        sql_bx_set_type(b, sql_decimal_type(f->c, p > 38 ? 38 : p, ns));
        return b->ctype ? COMB_OK : comb_err_nomem(err);
    }
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR: case COMB_T_NULL:
        b->type = COMB_T_DOUBLE;
        return sql_fn_arg_kind(f, 0, COMB_T_DOUBLE, err);
    default:
        return sql_fn_error(err, 10016, f->call, 0,
                            "Only numeric or string group data types are "
                            "allowed for %s function. Got %s",
                            f->def->name[0] == 'b' ? "BROUND" : "ROUND",
                            sql_bx_type_text(f->c, x));
    }
}

/* floor / ceil: BIGINT (Java's (long) of Math.floor/ceil), decimals a
 * decimal of scale 0. */
static int floor_ceil(BoundExpr *e, const CombBatch *in, bool ceil_)
{
    const CombVector *x = e->args[0]->out;
    CombVector *o = e->out;
    sql_fn_copy_nulls(o, in, x);
    FOR_LIVE(in, i, row) {
        if (comb_vec_is_null(x, row))
            continue;
        if (x->dec) {
            int s = (int)x->type->scale;
            comb_i128 p = comb_dec_pow10(s), q = x->dec[row] / p, r = x->dec[row] % p;
            if (r != 0 && ((r > 0) == ceil_))
                q += ceil_ ? 1 : -1;
            o->dec[row] = q;
        } else if (x->f64) {
            double d = ceil_ ? ceil(x->f64[row]) : floor(x->f64[row]);
            o->i64[row] = isnan(d) ? 0 : d >= 9.2233720368547758e18 ? INT64_MAX
                          : d <= -9.2233720368547758e18 ? INT64_MIN : (int64_t)d;
        } else {
            o->i64[row] = x->i64[row];
        }
    }
    return COMB_OK;
}

static int fn_floor(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return floor_ceil(e, in, false);
}

static int fn_ceil(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    return floor_ceil(e, in, true);
}

static int bind_floor_ceil(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b, *x = b->args[0];
    if (x->type == COMB_T_DECIMAL) {
        int p = (int)x->ctype->precision, s = (int)x->ctype->scale;
        sql_bx_set_type(b, sql_decimal_type(f->c, p - s + (s ? 1 : 0), 0));
        return b->ctype ? COMB_OK : comb_err_nomem(err);
    }
    b->type = COMB_T_BIGINT;
    if (sql_int_rank(x->type))
        return sql_fn_arg_kind(f, 0, COMB_T_BIGINT, err);
    if (comb_type_is_float(x->type) || sql_is_string(x->type) || x->type == COMB_T_NULL)
        return sql_fn_arg_kind(f, 0, COMB_T_DOUBLE, err);
    return sql_fn_error(err, 10016, f->call, 0,
                        "Only numeric or string group data types are allowed "
                        "for %s function. Got %s",
                        strcmp(f->def->name, "floor") == 0 ? "FLOOR" : "CEIL",
                        sql_bx_type_text(f->c, x));
}

/* ------------------------------------------------------ double functions */

typedef double (*DoubleFn)(double);

static double deg(double x) { return x * 57.29577951308232; }
/* UDFLog2: Math.log(x) / Math.log(2), not a correctly rounded log2 */
static double log2_hive(double x) { return log(x) / log(2.0); }
static double rad(double x) { return x * 0.017453292519943295; }

static const struct {
    const char *name;
    DoubleFn fn;
    int domain;              /* 0 any, 1 x > 0, 2 x >= 0 (else NULL) */
} unary_doubles[] = {
    {"sqrt", sqrt, 2}, {"exp", exp, 0}, {"ln", log, 1}, {"log2", log2_hive, 1},
    {"log10", log10, 1}, {"sin", sin, 0}, {"cos", cos, 0}, {"tan", tan, 0},
    {"asin", asin, 0}, {"acos", acos, 0}, {"atan", atan, 0},
    {"degrees", deg, 0}, {"radians", rad, 0}, {"cbrt", cbrt, 0},
};

SQL_STRICT_FN(fn_unary_double)
{
    double x = ARG_D(0);
    int k = (int)e->ival;
    (void)err;
    if ((unary_doubles[k].domain == 1 && !(x > 0)) ||
        (unary_doubles[k].domain == 2 && x < 0)) {
        *null = true;
        return COMB_OK;
    }
    e->out->f64[row] = unary_doubles[k].fn(x);
    return COMB_OK;
}

static int bind_unary_double(SqlFnBind *f, CombErr *err)
{
    for (size_t k = 0; k < sizeof unary_doubles / sizeof unary_doubles[0]; k++)
        if (strcmp(unary_doubles[k].name, f->def->name) == 0)
            f->b->ival = (int64_t)k;
    return sql_fn_bind_sig(f, err);
}

SQL_STRICT_FN(fn_pow)
{
    (void)null;
    (void)err;
    e->out->f64[row] = pow(ARG_D(0), ARG_D(1));
    return COMB_OK;
}

/* log(x) is ln; log(base, x): NULL for base <= 1 or x <= 0 (UDFLog). */
SQL_STRICT_FN(fn_log)
{
    (void)err;
    if (e->n_args == 1) {
        if (!(ARG_D(0) > 0))
            *null = true;
        else
            e->out->f64[row] = log(ARG_D(0));
        return COMB_OK;
    }
    if (ARG_D(0) <= 1.0 || ARG_D(1) <= 0.0) {
        *null = true;
        return COMB_OK;
    }
    e->out->f64[row] = log(ARG_D(1)) / log(ARG_D(0));
    return COMB_OK;
}

/* pmod(a, b) = ((a % b) + b) % b, NULL for b = 0. */
SQL_STRICT_FN(fn_pmod)
{
    const CombVector *x = e->args[0]->out, *y = e->args[1]->out;
    (void)err;
    if (e->type == COMB_T_DECIMAL) {
        int s = (int)e->ctype->scale, sx = (int)x->type->scale, sy = (int)y->type->scale;
        comb_i128 m, m2;
        if (y->dec[row] == 0 || !comb_dec_mod(x->dec[row], sx, y->dec[row], sy, &m)) {
            *null = true;
            return COMB_OK;
        }
        /* m is at max(sx, sy) */
        {
            comb_i128 yb;
            int ms = sx > sy ? sx : sy;
            if (!comb_dec_rescale(y->dec[row], sy, ms, &yb) || !comb_dec_add(m, yb, &m2) ||
                !comb_dec_mod(m2, ms, yb, ms, &m) || !comb_dec_rescale(m, ms, s, &e->out->dec[row]))
                *null = true;
        }
        return COMB_OK;
    }
    if (e->out->f64) {
        double b = y->f64[row];
        if (b == 0) {
            *null = true;
            return COMB_OK;
        }
        e->out->f64[row] = fmod(fmod(x->f64[row], b) + b, b);
        if (e->type == COMB_T_FLOAT)
            e->out->f64[row] = (float)e->out->f64[row];
        return COMB_OK;
    }
    if (y->i64[row] == 0) {
        *null = true;
        return COMB_OK;
    }
    {
        int64_t a = x->i64[row], b = y->i64[row], m = b == -1 ? 0 : a % b;
        m = b == -1 ? 0 : (int64_t)((uint64_t)m + (uint64_t)b) % b;
        e->out->i64[row] = sql_int_wrap(e->type, m);
    }
    return COMB_OK;
}

/* The wider of two numeric types, as Hive's arithmetic. */
static int bind_pmod(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    CombTypeKind x = b->args[0]->type, y = b->args[1]->type;
    int rc;
    for (int i = 0; i < 2; i++) {
        CombTypeKind k = b->args[i]->type;
        if (!(sql_is_number(k) || sql_is_string(k) || k == COMB_T_NULL))
            return sql_fn_error(err, 10014, f->call, i,
                                "No matching method for pmod with (%s, %s)",
                                sql_bx_type_text(f->c, b->args[0]),
                                sql_bx_type_text(f->c, b->args[1]));
    }
    if (x == COMB_T_DECIMAL || y == COMB_T_DECIMAL) {
        if (sql_is_string(x) || sql_is_string(y) || comb_type_is_float(x) ||
            comb_type_is_float(y)) {
            b->type = COMB_T_DOUBLE;
        } else {
            CombType *t = sql_decimal_common(f->c, b->args[0], b->args[1]);
            if (!t)
                return comb_err_nomem(err);
            sql_bx_set_type(b, t);
            if ((rc = sql_fn_arg_to(f, 0, t, err)) || (rc = sql_fn_arg_to(f, 1, t, err)))
                return rc;
            return COMB_OK;
        }
    } else if (sql_is_string(x) || sql_is_string(y) || x == COMB_T_DOUBLE ||
               y == COMB_T_DOUBLE) {
        b->type = COMB_T_DOUBLE;
    } else if (x == COMB_T_FLOAT || y == COMB_T_FLOAT) {
        b->type = COMB_T_FLOAT;
    } else {
        b->type = sql_int_rank(x) >= sql_int_rank(y) ? x : y;
        if (b->type == COMB_T_NULL)
            b->type = COMB_T_INT;
    }
    if ((rc = sql_fn_arg_kind(f, 0, comb_type_is_float(b->type) ? COMB_T_DOUBLE : b->type, err)) ||
        (rc = sql_fn_arg_kind(f, 1, comb_type_is_float(b->type) ? COMB_T_DOUBLE : b->type, err)))
        return rc;
    return COMB_OK;
}

/* sign: -1.0, 0.0, 1.0 as DOUBLE; an INT for decimals (UDFSign). */
SQL_STRICT_FN(fn_sign)
{
    const CombVector *x = e->args[0]->out;
    (void)null;
    (void)err;
    if (x->dec)
        e->out->i64[row] = x->dec[row] > 0 ? 1 : x->dec[row] < 0 ? -1 : 0;
    else
        e->out->f64[row] = x->f64[row] > 0 ? 1.0 : x->f64[row] < 0 ? -1.0 : 0.0;
    return COMB_OK;
}

static int bind_sign(SqlFnBind *f, CombErr *err)
{
    if (f->b->args[0]->type == COMB_T_DECIMAL) {
        f->b->type = COMB_T_INT;
        return COMB_OK;
    }
    f->b->type = COMB_T_DOUBLE;
    return sql_fn_bind_sig(f, err);
}

/* positive(x): x; negative(x): -x, as the unary operators. */
SQL_STRICT_FN(fn_negative)
{
    const CombVector *x = e->args[0]->out;
    (void)null;
    (void)err;
    if (x->dec)
        e->out->dec[row] = -x->dec[row];
    else if (x->f64)
        e->out->f64[row] = -x->f64[row];
    else
        e->out->i64[row] = sql_int_wrap(e->type, (int64_t)(0 - (uint64_t)x->i64[row]));
    return COMB_OK;
}

SQL_STRICT_FN(fn_positive)
{
    const CombVector *x = e->args[0]->out;
    (void)null;
    (void)err;
    if (x->dec)
        e->out->dec[row] = x->dec[row];
    else if (x->f64)
        e->out->f64[row] = x->f64[row];
    else
        e->out->i64[row] = x->i64[row];
    return COMB_OK;
}

static int bind_same_number(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b, *x = b->args[0];
    if (sql_is_string(x->type) || x->type == COMB_T_NULL) {
        b->type = COMB_T_DOUBLE;
        return sql_fn_arg_kind(f, 0, COMB_T_DOUBLE, err);
    }
    if (!sql_is_number(x->type))
        return sql_fn_error(err, 10014, f->call, 0,
                            "%s only takes numeric types, got %s", f->def->name,
                            sql_bx_type_text(f->c, x));
    sql_bx_set_type(b, x->ctype ? x->ctype : sql_kind_type(x->type));
    return COMB_OK;
}

/* ------------------------------------------------------- greatest, least */

static int extreme(BoundExpr *e, const CombBatch *in, bool greatest)
{
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        int best = 0;
        bool null = false;
        for (int k = 0; k < e->n_args && !null; k++) {
            const CombVector *v = e->args[k]->out;
            null = comb_vec_is_null(v, row);
            if (!null && k > 0) {
                int c = sql_value_cmp(v, row, e->args[best]->out, row, true);
                if (greatest ? c > 0 : c < 0)
                    best = k;
            }
        }
        if (null)
            sql_fill_null(e->fill, row);
        else if (sql_fill_copy(e->fill, row, e->args[best]->out, row))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

static int fn_greatest(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    return extreme(e, in, true) ? comb_err_nomem(err) : COMB_OK;
}

static int fn_least(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    return extreme(e, in, false) ? comb_err_nomem(err) : COMB_OK;
}

/* GenericUDFBaseNwayCompare: primitive arguments of one common type. */
static int bind_extreme(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    const CombType *to;
    int rc;
    for (int i = 0; i < b->n_args; i++)
        if (!comb_type_is_primitive(b->args[i]->type))
            return sql_fn_error(err, 10016, f->call, i,
                                "Only primitive type arguments are accepted but "
                                "%s is passed.", sql_bx_type_text(f->c, b->args[i]));
    if ((rc = sql_common_value_type(f->c, b->args, b->n_args, &to, err)))
        return rc;
    sql_bx_set_type(b, to);
    for (int i = 0; i < b->n_args; i++)
        if ((rc = sql_fn_arg_to(f, i, to, err)))
            return rc;
    return COMB_OK;
}

/* ---------------------------------------------------------------- rand */

/* rand(seed): one java.util.Random(seed) for the whole statement's rows;
 * rand() one seeded from the clock. */
static int fn_rand(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    SqlJavaRandom *r = (SqlJavaRandom *)&e->dec;
    (void)err;
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row)
        e->out->f64[row] = sql_jrand_double(r);
    return COMB_OK;
}

static int bind_rand(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    int64_t seed;
    b->type = COMB_T_DOUBLE;
    if (b->n_args == 1) {
        BoundExpr *s = b->args[0];
        if (!sql_int_rank(s->type) && s->type != COMB_T_NULL)
            return sql_fn_error(err, 10014, f->call, 0,
                                "No matching method for class org.apache.hadoop."
                                "hive.ql.udf.UDFRand with (%s). Possible choices: "
                                "_FUNC_()  _FUNC_(bigint)  ", sql_bx_type_text(f->c, s));
        if (s->kind != BX_CONST)
            return sql_fn_error(err, 10014, f->call, 0,
                                "the seed of rand must be a constant");
        seed = s->is_null ? 0 : s->ival;
        b->n_args = 0;
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    }
    /* the generator's state lives in the node (dec is free in a function) */
    sql_jrand_seed((SqlJavaRandom *)&b->dec, seed);
    return COMB_OK;
}

/* e(), pi() */
static int fn_const_double(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    (void)err;
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row)
        e->out->f64[row] = e->dval;
    return COMB_OK;
}

static int bind_const_double(SqlFnBind *f, CombErr *err)
{
    BoundExpr *k = sql_bx_new(f->c, BX_CONST, COMB_T_DOUBLE, f->b->pos);
    if (!k)
        return comb_err_nomem(err);
    k->dval = strcmp(f->def->name, "pi") == 0 ? M_PI : M_E;
    *f->out = k;
    return COMB_OK;
}

/* ----------------------------------------------------- bin, conv, factorial */

SQL_STRICT_FN(fn_bin)
{
    uint64_t v = (uint64_t)ARG_I(0);
    char buf[65], *p;
    int n = 0;
    (void)null;
    do {
        buf[64 - ++n] = (char)('0' + (v & 1));
        v >>= 1;
    } while (v);
    if (!(p = sql_fn_alloc(e, (size_t)n, err)))
        return COMB_ENOMEM;
    memcpy(p, buf + 64 - n, (size_t)n);
    sql_fn_set_str(e, row, p, (size_t)n);
    return COMB_OK;
}

static int digit_value(char c, int radix)
{
    int d = c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'z'
            ? (c | 0x20) - 'a' + 10 : -1;
    return d < radix ? d : -1;
}

/* UDFConv: digits up to the first invalid one read as an unsigned 64-bit
 * value (overflow: all ones), a '-' negates, a negative target base
 * prints signed. */
SQL_STRICT_FN(fn_conv)
{
    CombStr s = ARG_S(0);
    int64_t from = ARG_I(1), to = ARG_I(2);
    uint64_t v = 0;
    bool neg;
    uint32_t at;
    char buf[70], *p;
    int n = 0, tb = (int)llabs(to);
    if (from < 2 || from > 36 || tb < 2 || tb > 36 || s.len == 0) {
        *null = true;
        return COMB_OK;
    }
    neg = s.ptr[0] == '-';
    for (at = neg ? 1 : 0; at < s.len; at++) {
        int d = digit_value(s.ptr[at], (int)from);
        if (d < 0)
            break;
        if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)from) {
            v = UINT64_MAX;
            break;
        }
        v = v * (uint64_t)from + (uint64_t)d;
    }
    if (neg && to > 0)
        v = (int64_t)v < 0 ? UINT64_MAX : (uint64_t)(-(int64_t)v);
    if (to < 0 && (int64_t)v < 0) {
        v = (uint64_t)(-(int64_t)v);
        neg = true;
    }
    do {
        int d = (int)(v % (uint64_t)tb);
        buf[69 - n++] = (char)(d < 10 ? '0' + d : 'A' + d - 10);
        v /= (uint64_t)tb;
    } while (v);
    if (neg && to < 0)
        buf[69 - n++] = '-';
    if (!(p = sql_fn_alloc(e, (size_t)n, err)))
        return COMB_ENOMEM;
    memcpy(p, buf + 70 - n, (size_t)n);
    sql_fn_set_str(e, row, p, (size_t)n);
    return COMB_OK;
}

SQL_STRICT_FN(fn_factorial)
{
    int64_t n = ARG_I(0), r = 1;
    (void)err;
    if (n < 0 || n > 20) {
        *null = true;
        return COMB_OK;
    }
    for (int64_t k = 2; k <= n; k++)
        r *= k;
    e->out->i64[row] = r;
    return COMB_OK;
}

/* width_bucket(x, min, max, n): 0 below the range, n + 1 above it, else
 * the bucket of equal width x falls in (a reversed range counts down). */
SQL_STRICT_FN(fn_width_bucket)
{
    double x = ARG_D(0), lo = ARG_D(1), hi = ARG_D(2);
    int64_t n = ARG_I(3);
    (void)null;
    if (n <= 0)
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "The num_buckets must be greater than 0, but got %lld",
                             (long long)n);
    if (lo == hi)
        return comb_err_hive(err, COMB_EINVALID, 40000,
                             "lower bound cannot be equal to upper bound");
    if (lo < hi)
        e->out->i64[row] = x < lo ? 0 : x >= hi ? n + 1
                           : (int64_t)((x - lo) / (hi - lo) * (double)n) + 1;
    else
        e->out->i64[row] = x > lo ? 0 : x <= hi ? n + 1
                           : (int64_t)((lo - x) / (lo - hi) * (double)n) + 1;
    return COMB_OK;
}

static int bind_conv(SqlFnBind *f, CombErr *err)
{
    return sql_fn_bind_sig(f, err);
}

const SqlFuncDef sql_funcs_math[] = {
    {"round", 1, 2, bind_round, fn_round, NULL},
    {"bround", 1, 2, bind_round, fn_bround, NULL},
    {"floor", 1, 1, bind_floor_ceil, fn_floor, NULL},
    {"ceil", 1, 1, bind_floor_ceil, fn_ceil, NULL},
    {"ceiling", 1, 1, bind_floor_ceil, fn_ceil, NULL},
    {"pow", 2, 2, sql_fn_bind_sig, fn_pow, "d:dd"},
    {"power", 2, 2, sql_fn_bind_sig, fn_pow, "d:dd"},
    {"sqrt", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"exp", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"ln", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"log2", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"log10", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"sin", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"cos", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"tan", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"asin", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"acos", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"atan", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"degrees", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"radians", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"cbrt", 1, 1, bind_unary_double, fn_unary_double, "d:d"},
    {"log", 1, 2, sql_fn_bind_sig, fn_log, "d:dd"},
    {"pmod", 2, 2, bind_pmod, fn_pmod, NULL},
    {"sign", 1, 1, bind_sign, fn_sign, "d:d"},
    {"positive", 1, 1, bind_same_number, fn_positive, NULL},
    {"negative", 1, 1, bind_same_number, fn_negative, NULL},
    {"greatest", 2, FN_ANY_ARGS, bind_extreme, fn_greatest, NULL},
    {"least", 2, FN_ANY_ARGS, bind_extreme, fn_least, NULL},
    {"rand", 0, 1, bind_rand, fn_rand, NULL},
    {"e", 0, 0, bind_const_double, fn_const_double, NULL},
    {"pi", 0, 0, bind_const_double, fn_const_double, NULL},
    {"bin", 1, 1, sql_fn_bind_sig, fn_bin, "s:l"},
    {"conv", 3, 3, bind_conv, fn_conv, "s:sII"},
    {"factorial", 1, 1, sql_fn_bind_sig, fn_factorial, "l:I"},
    {"width_bucket", 4, 4, sql_fn_bind_sig, fn_width_bucket, "i:dddi"},
    {NULL, 0, 0, NULL, NULL, NULL},
};
