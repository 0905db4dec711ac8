/*
 * aggregate.c - typing of aggregate calls (aggregate.h): which function,
 * its arguments, and its result type as Hive's GenericUDAF resolvers give
 * it.
 */
#include "sql/func/aggregate.h"

#include <string.h>

/* "Cannot support comparison of map<> type ...": Hive's error for maps
 * (or values holding maps) where values are ordered. */
static int check_orderable(SqlStmtCtx *c, const BoundExpr *e, CombErr *err)
{
    const CombType *t = sql_bx_type(c, e);
    if (!t || sql_type_orderable(t))
        return t ? COMB_OK : comb_err_nomem(err);
    return sql_err_at(err, COMB_ESEMANTIC, 10016, e->pos,
                      "Argument type mismatch: Cannot support comparison of "
                      "map<> type or complex type containing map<>.");
}

/* sum and avg of decimal(p,s): sum decimal(min(38, p + 10), s); avg keeps
 * the integer digits and adds 4 to the scale, within 38 digits. */
static const CombType *decimal_result(SqlStmtCtx *c, SqlAggFn fn,
                                      const CombType *x)
{
    int p = (int)x->precision, sc = (int)x->scale, int_part = p - sc;
    if (fn == SQL_AGG_SUM)
        return sql_decimal_type(c, p + 10 < 38 ? p + 10 : 38, sc);
    sc = sc + 4 < 38 - int_part ? sc + 4 : 38 - int_part;
    return sql_decimal_type(c, int_part + sc, sc);
}

/* Result types (GenericUDAFCount/Sum/Average/Min/Max): count BIGINT; sum
 * of integers BIGINT, of floats, doubles and timestamps DOUBLE; avg
 * DOUBLE; decimals as decimal_result; min and max the argument's type. */
static int result_type(SqlStmtCtx *c, const AstExpr *e, SqlAggSpec *a,
                       CombErr *err)
{
    const BoundExpr *x = a->n_args ? a->args[0] : NULL;
    if (x && (a->fn == SQL_AGG_SUM || a->fn == SQL_AGG_AVG) &&
        !sql_is_number(x->type) && x->type != COMB_T_TIMESTAMP &&
        x->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, e->pos,
                          "Wrong arguments for '%s': expected a number",
                          e->name);
    switch (a->fn) {
    case SQL_AGG_COUNT:
        a->type = sql_kind_type(COMB_T_BIGINT);
        break;
    case SQL_AGG_SUM:
    case SQL_AGG_AVG:
        if (x->type == COMB_T_DECIMAL)
            a->type = decimal_result(c, a->fn, x->ctype);
        else
            a->type = sql_kind_type(a->fn == SQL_AGG_SUM &&
                                            (sql_is_number(x->type) ||
                                             x->type == COMB_T_NULL) &&
                                            !comb_type_is_float(x->type)
                                        ? COMB_T_BIGINT : COMB_T_DOUBLE);
        break;
    default:
        if (x->type == COMB_T_NULL) {
            a->type = sql_kind_type(COMB_T_STRING);
            break;
        }
        if (check_orderable(c, x, err))
            return COMB_ESEMANTIC;
        a->type = sql_bx_type(c, x);
        break;
    }
    return a->type ? COMB_OK : comb_err_nomem(err);
}

int sql_bind_aggregate(SqlStmtCtx *c, const AstExpr *e, BoundExpr **args,
                       int n_args, SqlAggSpec *out, CombErr *err)
{
    static const struct { const char *name; SqlAggFn fn; } fns[] = {
        {"count", SQL_AGG_COUNT}, {"sum", SQL_AGG_SUM}, {"min", SQL_AGG_MIN},
        {"max", SQL_AGG_MAX}, {"avg", SQL_AGG_AVG}};
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(fns[i].name, e->name) == 0)
            out->fn = fns[i].fn;
    out->text = e->text;
    out->distinct = e->distinct;
    out->n_args = n_args;
    out->args = args;
    if (e->star_arg && (out->fn != SQL_AGG_COUNT || e->distinct))
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "'*' is only allowed in count(*)");
    /* GenericUDAFCount: several arguments only with DISTINCT */
    if (out->fn == SQL_AGG_COUNT && n_args > 1 && !e->distinct)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "DISTINCT keyword must be specified");
    if (!e->star_arg && (n_args < 1 || (out->fn != SQL_AGG_COUNT && n_args != 1)))
        return sql_err_at(err, COMB_ESEMANTIC, 10015, e->pos,
                          "Arguments length mismatch for '%s'", e->name);
    for (int i = 0; out->distinct && i < n_args; i++)
        if (check_orderable(c, args[i], err))
            return COMB_ESEMANTIC;
    return result_type(c, e, out, err);
}
