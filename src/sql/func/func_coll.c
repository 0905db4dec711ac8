/*
 * func_coll.c - Hive's collection functions beyond complex.c's
 * constructors: array_contains (GenericUDFArrayContains: the value
 * converted to the element type), sort_array (GenericUDFSortArray:
 * ascending by default, NULLs first ascending and last descending),
 * map_keys and map_values (GenericUDFMapKeys/MapValues, in the map's
 * order).
 */
#include <stdlib.h>
#include <string.h>

#include "sql/func/func_int.h"
#include "sql/func/value.h"

/* GenericUDFArrayContains: FALSE (not NULL) for a NULL or empty array
 * or a NULL value. */
static int fn_array_contains(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *a = e->args[0]->out, *v = e->args[1]->out;
    CombVector *o = e->out;
    (void)err;
    o->has_nulls = false;
    FOR_LIVE(in, i, row) {
        bool found = false;
        for (uint32_t k = 0; !comb_vec_is_null(a, row) && !comb_vec_is_null(v, row) &&
                             k < a->len[row] && !found; k++) {
            int at = (int)(a->off[row] + k);
            found = !comb_vec_is_null(&a->children[0], at) &&
                    sql_value_cmp(&a->children[0], at, v, row, true) == 0;
        }
        o->i64[row] = found;
    }
    return COMB_OK;
}

static int bind_array_contains(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    const CombType *elem;
    if (b->args[0]->type != COMB_T_LIST)
        return sql_fn_error(err, 10016, f->call, 0,
                            "\"array\" expected at function ARRAY_CONTAINS, but "
                            "\"%s\" is found", sql_bx_type_text(f->c, b->args[0]));
    elem = b->args[0]->ctype->children[0];
    if (!sql_bx_has_type(b->args[1], elem) && b->args[1]->type != COMB_T_NULL &&
        !(comb_type_is_primitive(elem->kind) && comb_type_is_primitive(b->args[1]->type) &&
          sql_implicit_convertible(b->args[1]->type, elem->kind)))
        return sql_fn_error(err, 10016, f->call, 1,
                            "\"%s\" expected at function ARRAY_CONTAINS, but "
                            "\"%s\" is found", comb_type_string(f->c->arena, elem),
                            sql_bx_type_text(f->c, b->args[1]));
    b->type = COMB_T_BOOLEAN;
    return sql_fn_arg_to(f, 1, elem, err);
}

typedef struct SortCtx {
    const CombVector *v;
} SortCtx;

static int cmp_elems(const void *x, const void *y, void *ctx)
{
    const SortCtx sort_ctx = *(const SortCtx *)ctx;
    int a = *(const int *)x, b = *(const int *)y, c;
    bool na = comb_vec_is_null(sort_ctx.v, a), nb = comb_vec_is_null(sort_ctx.v, b);
    if (na || nb)
        c = na == nb ? 0 : na ? -1 : 1;
    else
        c = sql_value_cmp(sort_ctx.v, a, sort_ctx.v, b, true);
    return c ? c : a - b;
}

static int fn_sort_array(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *a = e->args[0]->out;
    SqlVecFill *f = e->fill, *kid = &f->kids[0];
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        uint32_t n;
        int *idx;
        if (comb_vec_is_null(a, row)) {
            sql_fill_null(f, row);
            continue;
        }
        n = a->len[row];
        if (!(idx = malloc(((size_t)n + 1) * sizeof *idx)) ||
            sql_fill_reserve(kid, f->used + (int)n)) {
            free(idx);
            return comb_err_nomem(err);
        }
        for (uint32_t k = 0; k < n; k++)
            idx[k] = (int)(a->off[row] + k);
        /* qsort_r: parallel copies of the expression sort at once */
        SortCtx sort_ctx = {&a->children[0]};
        qsort_r(idx, n, sizeof *idx, cmp_elems, &sort_ctx);
        for (uint32_t k = 0; k < n; k++)
            if (sql_fill_copy(kid, f->used + (int)k, &a->children[0], idx[k])) {
                free(idx);
                return comb_err_nomem(err);
            }
        free(idx);
        comb_vec_set_not_null(f->v, row);
        f->v->off[row] = (uint32_t)f->used;
        f->v->len[row] = n;
        f->used += (int)n;
    }
    return COMB_OK;
}

static int bind_sort_array(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    if (b->args[0]->type != COMB_T_LIST)
        return sql_fn_error(err, 10016, f->call, 0,
                            "Argument 1 of function SORT_ARRAY must be array<>, "
                            "but %s was found.", sql_bx_type_text(f->c, b->args[0]));
    if (!sql_type_orderable(b->args[0]->ctype->children[0]))
        return sql_fn_error(err, 10016, f->call, 0,
                            "Cannot support comparison of map<> type or complex "
                            "type containing map<>.");
    sql_bx_set_type(b, b->args[0]->ctype);
    return COMB_OK;
}

/* map_keys / map_values: part ival (0 keys, 1 values) of each map. */
static int fn_map_part(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *m = e->args[0]->out;
    SqlVecFill *f = e->fill, *kid = &f->kids[0];
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        uint32_t n;
        if (comb_vec_is_null(m, row)) {
            sql_fill_null(f, row);
            continue;
        }
        n = m->len[row];
        if (sql_fill_reserve(kid, f->used + (int)n))
            return comb_err_nomem(err);
        for (uint32_t k = 0; k < n; k++)
            if (sql_fill_copy(kid, f->used + (int)k, &m->children[e->ival],
                              (int)(m->off[row] + k)))
                return comb_err_nomem(err);
        comb_vec_set_not_null(f->v, row);
        f->v->off[row] = (uint32_t)f->used;
        f->v->len[row] = n;
        f->used += (int)n;
    }
    return COMB_OK;
}

static int bind_map_part(SqlFnBind *f, CombErr *err)
{
    BoundExpr *b = f->b;
    CombType *t = comb_type_new(f->c->arena, COMB_T_LIST);
    bool keys = strcmp(f->def->name, "map_keys") == 0;
    if (b->args[0]->type != COMB_T_MAP)
        return sql_fn_error(err, 10016, f->call, 0,
                            "\"map\" is expected at function %s, but \"%s\" is "
                            "found", keys ? "MAP_KEYS" : "MAP_VALUES",
                            sql_bx_type_text(f->c, b->args[0]));
    if (!t || comb_type_add_field(f->c->arena, t, NULL,
                                  b->args[0]->ctype->children[keys ? 0 : 1]))
        return comb_err_nomem(err);
    b->ival = keys ? 0 : 1;
    sql_bx_set_type(b, t);
    return COMB_OK;
}

const SqlFuncDef sql_funcs_coll[] = {
    {"array_contains", 2, 2, bind_array_contains, fn_array_contains, NULL},
    {"sort_array", 1, 1, bind_sort_array, fn_sort_array, NULL},
    {"map_keys", 1, 1, bind_map_part, fn_map_part, NULL},
    {"map_values", 1, 1, bind_map_part, fn_map_part, NULL},
    {NULL, 0, 0, NULL, NULL, NULL},
};
