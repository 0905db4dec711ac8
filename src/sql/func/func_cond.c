/*
 * func_cond.c - Hive's conditional functions that are not syntax: nullif
 * (GenericUDFNullif: NULL when the arguments are equal in their common
 * type), isnull, isnotnull, nvl2-free Hive 4 set, and assert_true
 * (GenericUDFAssertTrue: fails the statement on a FALSE or NULL value).
 * IF, CASE, COALESCE and NVL are bound in func.c and bind.c.
 */
#include <string.h>

#include "sql/func/func_int.h"
#include "sql/func/value.h"

/* nullif(a, b): a, or NULL when a = b (a NULL a stays NULL). */
static int fn_nullif(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *a = e->args[0]->out, *b = e->args[1]->out;
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        bool equal = !comb_vec_is_null(a, row) && !comb_vec_is_null(b, row) &&
                     sql_value_cmp(a, row, b, row, true) == 0;
        if (equal || comb_vec_is_null(a, row))
            sql_fill_null(e->fill, row);
        else if (sql_fill_copy(e->fill, row, a, row))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int bind_nullif(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    const CombType *to;
    int rc;
    if ((rc = sql_common_value_type(f->c, b->args, 2, &to, err)))
        return sql_fn_error(err, 10016, f->call, 1,
                            "The expressions after NULLIF should all have the "
                            "same type: \"%s\" expected but \"%s\" is found",
                            sql_bx_type_text(f->c, b->args[0]),
                            sql_bx_type_text(f->c, b->args[1]));
    sql_bx_set_type(b, to);
    if ((rc = sql_fn_arg_to(f, 0, to, err)) || (rc = sql_fn_arg_to(f, 1, to, err)))
        return rc;
    return COMB_OK;
}

/* isnull(x) / isnotnull(x): as x IS [NOT] NULL. */
static int bind_isnull(SqlFnBind *f, CombErr *err)
{
    BoundExpr *n = sql_bx_new(f->c, BX_IS_NULL, COMB_T_BOOLEAN, f->b->pos);
    if (!n)
        return comb_err_nomem(err);
    n->a = f->b->args[0];
    n->negated = strcmp(f->def->name, "isnotnull") == 0;
    *f->out = n;
    return COMB_OK;
}

/* assert_true(cond): NULL, or the statement fails when cond is FALSE or
 * NULL ("ASSERT_TRUE(): assertion failed."). */
static int fn_assert_true(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->args[0]->out;
    FOR_LIVE(in, i, row)
        if (comb_vec_is_null(x, row) || !x->i64[row])
            return comb_err_hive(err, COMB_EINVALID, 40000,
                                 "ASSERT_TRUE(): assertion failed.");
    memset(e->out->nulls, 1, (size_t)in->n_rows);
    e->out->has_nulls = true;
    return COMB_OK;
}

static int bind_assert_true(SqlFnBind *f, CombErr *err)
{
    CombTypeKind k = f->b->args[0]->type;
    if (k != COMB_T_BOOLEAN && k != COMB_T_NULL)
        return sql_fn_error(err, 10014, f->call, 0,
                            "ASSERT_TRUE() only takes BOOLEAN, got %s",
                            sql_bx_type_text(f->c, f->b->args[0]));
    f->b->type = COMB_T_NULL;
    return COMB_OK;
}

const SqlFuncDef sql_funcs_cond[] = {
    {"nullif", 2, 2, bind_nullif, fn_nullif, NULL},
    {"isnull", 1, 1, bind_isnull, NULL, NULL},
    {"isnotnull", 1, 1, bind_isnull, NULL, NULL},
    {"assert_true", 1, 1, bind_assert_true, fn_assert_true, NULL},
    {NULL, 0, 0, NULL, NULL, NULL},
};
