/*
 * func_udtf.c - the table-generating functions of udtf.h with Hive's
 * checks: GenericUDTFExplode, GenericUDTFPosExplode, GenericUDTFInline,
 * GenericUDTFStack.
 */
#include "sql/func/udtf.h"

#include <stdio.h>
#include <string.h>

#include "sql/func/func_int.h"

enum { U_EXPLODE_ARRAY, U_EXPLODE_MAP, U_POSEXPLODE, U_INLINE, U_STACK };

static const char *const udtf_names[] = {"explode", "posexplode", "inline",
                                         "stack", NULL};

bool sql_udtf_exists(const char *name)
{
    for (int i = 0; udtf_names[i]; i++)
        if (strcmp(udtf_names[i], name) == 0)
            return true;
    return false;
}

const char *const *sql_udtf_names(void)
{
    return udtf_names;
}

static int columns(SqlStmtCtx *c, SqlUdtf *u, int n, CombErr *err)
{
    u->n_cols = n;
    u->names = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *u->names);
    u->types = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *u->types);
    return u->names && u->types ? COMB_OK : comb_err_nomem(err);
}

static int bind_explode(SqlStmtCtx *c, const AstExpr *call, SqlUdtf *u,
                        bool pos, CombErr *err)
{
    const BoundExpr *x;
    int rc;
    if (u->n_args != 1)
        return sql_fn_error(err, 10014, call, -1, "%s() takes only one argument",
                            u->name);
    x = u->args[0];
    if (x->type == COMB_T_LIST) {
        if ((rc = columns(c, u, pos ? 2 : 1, err)))
            return rc;
        u->kind = pos ? U_POSEXPLODE : U_EXPLODE_ARRAY;
        if (pos) {
            u->names[0] = "pos";
            u->types[0] = sql_kind_type(COMB_T_INT);
        }
        u->names[pos] = pos ? "val" : "col";
        u->types[pos] = x->ctype->children[0];
        return COMB_OK;
    }
    if (x->type == COMB_T_MAP && !pos) {
        if ((rc = columns(c, u, 2, err)))
            return rc;
        u->kind = U_EXPLODE_MAP;
        u->names[0] = "key";
        u->names[1] = "value";
        u->types[0] = x->ctype->children[0];
        u->types[1] = x->ctype->children[1];
        return COMB_OK;
    }
    return sql_fn_error(err, 10014, call, 0,
                        pos ? "posexplode() takes an array as a parameter"
                            : "explode() takes an array or a map as a parameter");
}

static int bind_inline(SqlStmtCtx *c, const AstExpr *call, SqlUdtf *u,
                       CombErr *err)
{
    const CombType *elem;
    int rc;
    if (u->n_args != 1)
        return sql_fn_error(err, 10014, call, -1, "UDFArgumentException: inline() "
                            "takes only one argument");
    if (u->args[0]->type != COMB_T_LIST)
        return sql_fn_error(err, 10014, call, 0, "Top level object must be an "
                            "array but was %s", sql_bx_type_text(c, u->args[0]));
    elem = u->args[0]->ctype->children[0];
    if (elem->kind != COMB_T_STRUCT)
        return sql_fn_error(err, 10014, call, 0, "Inner object must be a struct "
                            "but was %s", comb_type_string(c->arena, elem));
    if ((rc = columns(c, u, elem->n_children, err)))
        return rc;
    u->kind = U_INLINE;
    for (int j = 0; j < elem->n_children; j++) {
        u->names[j] = elem->field_names[j];
        u->types[j] = elem->children[j];
    }
    return COMB_OK;
}

/* stack(n, v1, ..., vk): a constant n > 0; column j unites v_j, v_j+m,
 * ... (m = ceil(k / n)) in one type. */
static int bind_stack(SqlStmtCtx *c, const AstExpr *call, SqlUdtf *u,
                      CombErr *err)
{
    BoundExpr *n = u->n_args ? u->args[0] : NULL;
    int rows, m, rc;
    if (u->n_args < 2)
        return sql_fn_error(err, 10014, call, -1,
                            "STACK() expects at least two arguments.");
    if (n->kind != BX_CONST || n->type != COMB_T_INT || n->is_null)
        return sql_fn_error(err, 10014, call, 0,
                            "The first argument to STACK() must be a constant "
                            "integer (got %s instead).", sql_bx_type_text(c, n));
    rows = (int)n->ival;
    if (rows < 1)
        return sql_fn_error(err, 10014, call, 0,
                            "STACK() expects its first argument to be >= 1.");
    m = (u->n_args - 1 + rows - 1) / rows;
    if ((rc = columns(c, u, m, err)))
        return rc;
    u->kind = U_STACK;
    u->rows = rows;
    for (int j = 0; j < m; j++) {
        BoundExpr **vals = comb_arena_calloc(c->arena, (size_t)(rows + 1) * sizeof *vals);
        const CombType *to;
        char name[32];
        if (!vals)
            return comb_err_nomem(err);
        for (int r = 0; r < rows; r++) {
            int at = 1 + r * m + j;
            vals[r] = at < u->n_args ? u->args[at] : NULL;
        }
        if ((rc = sql_common_value_type(c, vals, rows, &to, err)))
            return rc;
        for (int r = 0; r < rows; r++) {
            int at = 1 + r * m + j;
            if (at < u->n_args &&
                (rc = sql_bind_convert(c, u->args[at], to, &u->args[at], err)))
                return rc;
        }
        snprintf(name, sizeof name, "col%d", j);
        if (!(u->names[j] = comb_arena_strdup(c->arena, name)))
            return comb_err_nomem(err);
        u->types[j] = to;
    }
    return COMB_OK;
}

int sql_udtf_bind(SqlStmtCtx *c, const AstExpr *call, BoundExpr **args,
                  int n_args, SqlUdtf **out, CombErr *err)
{
    SqlUdtf *u = comb_arena_calloc(c->arena, sizeof *u);
    if (!u)
        return comb_err_nomem(err);
    u->name = call->name;
    u->args = args;
    u->n_args = n_args;
    u->text = call->text;
    *out = u;
    if (strcmp(call->name, "explode") == 0)
        return bind_explode(c, call, u, false, err);
    if (strcmp(call->name, "posexplode") == 0)
        return bind_explode(c, call, u, true, err);
    if (strcmp(call->name, "inline") == 0)
        return bind_inline(c, call, u, err);
    return bind_stack(c, call, u, err);
}

int64_t sql_udtf_rows(const SqlUdtf *u, const CombVector *const *argv, int row)
{
    if (u->kind == U_STACK)
        return u->rows;
    return comb_vec_is_null(argv[0], row) ? 0 : argv[0]->len[row];
}

int sql_udtf_value(const SqlUdtf *u, const CombVector *const *argv, int row,
                   int64_t k, int j, SqlVecFill *f, int out_row)
{
    const CombVector *x = argv[0];
    int at = u->kind == U_STACK ? 0 : (int)(x->off[row] + k);
    switch (u->kind) {
    case U_EXPLODE_ARRAY:
        return sql_fill_copy(f, out_row, &x->children[0], at);
    case U_EXPLODE_MAP:
        return sql_fill_copy(f, out_row, &x->children[j], at);
    case U_POSEXPLODE:
        if (j == 0) {
            comb_vec_set_not_null(f->v, out_row);
            f->v->i64[out_row] = k;
            return COMB_OK;
        }
        return sql_fill_copy(f, out_row, &x->children[0], at);
    case U_INLINE: {
        const CombVector *s = &x->children[0];
        if (comb_vec_is_null(s, at)) {
            sql_fill_null(f, out_row);
            return COMB_OK;
        }
        return sql_fill_copy(f, out_row, &s->children[j], at);
    }
    default: {
        int m = u->n_cols, arg = 1 + (int)k * m + j;
        if (arg >= u->n_args) {
            sql_fill_null(f, out_row);
            return COMB_OK;
        }
        return sql_fill_copy(f, out_row, argv[arg], row);
    }
    }
}
