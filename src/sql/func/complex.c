/*
 * complex.c - arrays, maps and structs in expressions: a[i], m[k], s.f
 * (GenericUDFIndex, ExprNodeFieldDesc), the constructors array(), map(),
 * named_struct() and struct() (GenericUDFArray/Map/NamedStruct/Struct) and
 * size() (GenericUDFSize).  Values are copied into each node's output
 * vector through its fill state (value.h), parts appended row by row.
 */
#include "sql/func/expr.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define FOR_LIVE(in, i, row) \
    for (int i = 0, row; i < comb_batch_live(in) && ((row = comb_batch_row(in, i)), 1); i++)

/* A function node over args with result type t. */
static BoundExpr *func_node(SqlStmtCtx *c, const char *name, BxFuncImpl fn,
                            const CombType *t, BoundExpr **args, int n,
                            AstPos pos)
{
    BoundExpr *b = sql_bx_new_type(c, BX_FUNC, t, pos);
    if (b) {
        b->fname = name;
        b->fn = fn;
        b->args = args;
        b->n_args = n;
    }
    return b;
}

static BoundExpr **two_args(SqlStmtCtx *c, BoundExpr *a, BoundExpr *b)
{
    BoundExpr **args = comb_arena_alloc(c->arena, 2 * sizeof *args);
    if (args) {
        args[0] = a;
        args[1] = b;
    }
    return args;
}

/* ------------------------------------------------------------ subscripts */

/* a[i]: element i (0-based) of each array; NULL when i is NULL, negative
 * or past the end. */
static int eval_array_index(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *a = e->args[0]->out, *ix = e->args[1]->out;
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        int64_t k;
        if (comb_vec_is_null(a, row) || comb_vec_is_null(ix, row) ||
            (k = ix->i64[row]) < 0 || k >= (int64_t)a->len[row]) {
            sql_fill_null(e->fill, row);
            continue;
        }
        if (sql_fill_copy(e->fill, row, &a->children[0], (int)(a->off[row] + k)))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* m[k]: the value of the entry whose key equals k (the last such entry,
 * as a Java map keeps the last put); NULL when there is none. */
static int eval_map_index(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *m = e->args[0]->out, *key = e->args[1]->out;
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        int found = -1;
        if (!comb_vec_is_null(m, row) && !comb_vec_is_null(key, row))
            for (uint32_t k = 0; k < m->len[row]; k++) {
                int at = (int)(m->off[row] + k);
                if (!comb_vec_is_null(&m->children[0], at) &&
                    sql_value_cmp(&m->children[0], at, key, row, true) == 0)
                    found = at;
            }
        if (found < 0)
            sql_fill_null(e->fill, row);
        else if (sql_fill_copy(e->fill, row, &m->children[1], found))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

int sql_bind_index(SqlStmtCtx *c, BoundExpr *base, BoundExpr *index,
                   AstPos pos, BoundExpr **out, CombErr *err)
{
    const CombType *t = base->ctype;
    BoundExpr **args;
    int rc;
    if (base->type == COMB_T_LIST) {
        /* TypeCheckProcFactory: the index must convert implicitly to int */
        if (!sql_implicit_convertible(index->type, COMB_T_INT))
            return sql_err_at(err, COMB_ESEMANTIC, 10030, index->pos,
                              "Not proper type for index of ARRAY. Currently, "
                              "only integer type is supported");
        if ((rc = sql_bind_convert_kind(c, index, COMB_T_INT, &index, err)))
            return rc;
    } else if (base->type == COMB_T_MAP) {
        if (!sql_implicit_convertible(index->type, t->children[0]->kind))
            return sql_err_at(err, COMB_ESEMANTIC, 10032, index->pos,
                              "MAP key type does not match index expression "
                              "type: %s key, %s index", comb_type_name(t->children[0]->kind),
                              sql_bx_type_text(c, index));
        if ((rc = sql_bind_convert(c, index, t->children[0], &index, err)))
            return rc;
    } else {
        return sql_err_at(err, COMB_ESEMANTIC, 10033, pos,
                          "[] not valid on non-collection types: %s",
                          sql_bx_type_text(c, base));
    }
    if (!(args = two_args(c, base, index)))
        return comb_err_nomem(err);
    *out = func_node(c, "index", base->type == COMB_T_LIST ? eval_array_index
                                                            : eval_map_index,
                     t->children[base->type == COMB_T_LIST ? 0 : 1], args, 2, pos);
    return *out ? COMB_OK : comb_err_nomem(err);
}

/* ---------------------------------------------------------------- fields */

/* s.f: field e->ival of each struct; NULL when the struct is NULL. */
static int eval_field(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *s = e->args[0]->out;
    const CombVector *f = &s->children[e->ival];
    sql_fill_reset(e->fill);
    FOR_LIVE(in, i, row) {
        if (comb_vec_is_null(s, row))
            sql_fill_null(e->fill, row);
        else if (sql_fill_copy(e->fill, row, f, row))
            return comb_err_nomem(err);
    }
    return COMB_OK;
}

static int field_error(SqlStmtCtx *c, const BoundExpr *base, const char *name,
                       AstPos pos, CombErr *err)
{
    CombBuf names = COMB_BUF_INIT;
    int rc;
    for (int i = 0; base->ctype && i < base->ctype->n_children; i++)
        comb_buf_printf(&names, "%s%s", i ? ", " : "", base->ctype->field_names[i]);
    comb_buf_append_byte(&names, '\0');
    rc = sql_err_at(err, COMB_ESEMANTIC, 10042, pos,
                    "Invalid . on %s: no field '%s' (possible fields are: %s)",
                    sql_bx_type_text(c, base), name,
                    names.data ? (char *)names.data : "");
    comb_buf_free(&names);
    return rc;
}

int sql_bind_struct_field(SqlStmtCtx *c, BoundExpr *base, const char *name,
                          AstPos pos, BoundExpr **out, CombErr *err)
{
    BoundExpr **args;
    const CombType *t = base->ctype;
    if (base->type != COMB_T_STRUCT)
        return sql_err_at(err, COMB_ESEMANTIC, 10042, pos,
                          ". Operator is only supported on struct or list of "
                          "struct types, not %s", sql_bx_type_text(c, base));
    for (int i = 0; i < t->n_children; i++) {
        if (strcasecmp(t->field_names[i], name) != 0)
            continue;
        if (!(args = comb_arena_alloc(c->arena, sizeof *args)))
            return comb_err_nomem(err);
        args[0] = base;
        *out = func_node(c, "field", eval_field, t->children[i], args, 1, pos);
        if (!*out)
            return comb_err_nomem(err);
        (*out)->ival = i;
        return COMB_OK;
    }
    return field_error(c, base, name, pos, err);
}

/* ---------------------------------------------------------- constructors */

/* array(a, b, ...) */
static int eval_array(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    SqlVecFill *f = e->fill, *kid = &f->kids[0];
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        if (sql_fill_reserve(kid, f->used + e->n_args))
            return comb_err_nomem(err);
        for (int k = 0; k < e->n_args; k++)
            if (sql_fill_copy(kid, f->used + k, e->args[k]->out, row))
                return comb_err_nomem(err);
        comb_vec_set_not_null(f->v, row);
        f->v->off[row] = (uint32_t)f->used;
        f->v->len[row] = (uint32_t)e->n_args;
        f->used += e->n_args;
    }
    return COMB_OK;
}

/* The row among keys[from, from + n) holding a key equal to row `row` of
 * key, or -1. */
static int kept_key(const CombVector *keys, int from, int n,
                    const CombVector *key, int row)
{
    for (int at = from; at < from + n; at++) {
        bool na = comb_vec_is_null(keys, at), nk = comb_vec_is_null(key, row);
        if (na || nk ? na == nk : sql_value_cmp(keys, at, key, row, true) == 0)
            return at;
    }
    return -1;
}

/* map(k1, v1, k2, v2, ...): a key given twice keeps its first place and
 * its last value, as Java's LinkedHashMap in GenericUDFMap. */
static int eval_map(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    SqlVecFill *f = e->fill;
    int pairs = e->n_args / 2;
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        int n = 0;
        if (sql_fill_reserve(&f->kids[0], f->used + pairs) ||
            sql_fill_reserve(&f->kids[1], f->used + pairs))
            return comb_err_nomem(err);
        for (int k = 0; k < pairs; k++) {
            const CombVector *key = e->args[2 * k]->out;
            int at = kept_key(f->kids[0].v, f->used, n, key, row);
            if (at < 0) {
                at = f->used + n++;
                if (sql_fill_copy(&f->kids[0], at, key, row))
                    return comb_err_nomem(err);
            }
            if (sql_fill_copy(&f->kids[1], at, e->args[2 * k + 1]->out, row))
                return comb_err_nomem(err);
        }
        comb_vec_set_not_null(f->v, row);
        f->v->off[row] = (uint32_t)f->used;
        f->v->len[row] = (uint32_t)n;
        f->used += n;
    }
    return COMB_OK;
}

/* named_struct(...) and struct(...): field k is value argument k. */
static int eval_struct(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    SqlVecFill *f = e->fill;
    int step = e->ival, first = step - 1;
    sql_fill_reset(f);
    FOR_LIVE(in, i, row) {
        comb_vec_set_not_null(f->v, row);
        for (int k = 0; k < f->v->n_children; k++)
            if (sql_fill_copy(&f->kids[k], row, e->args[first + k * step]->out, row))
                return comb_err_nomem(err);
    }
    return COMB_OK;
}

/* Every argument converted to one type (Hive's ReturnObjectInspector-
 * Resolver over them); *to is that type. */
static int unite_args(SqlStmtCtx *c, BoundExpr **args, int n, int step,
                      const CombType **to, CombErr *err)
{
    BoundExpr **vals = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *vals);
    int m = 0, rc;
    if (!vals)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i += step)
        vals[m++] = args[i];
    if ((rc = sql_common_value_type(c, vals, m, to, err)))
        return rc;
    for (int i = 0; i < n; i += step)
        if ((rc = sql_bind_convert(c, args[i], *to, &args[i], err)))
            return rc;
    return COMB_OK;
}

static int bind_array(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    const CombType *elem;
    CombType *t = comb_type_new(c->arena, COMB_T_LIST);
    int rc;
    if (!t)
        return comb_err_nomem(err);
    if ((rc = unite_args(c, b->args, b->n_args, 1, &elem, err)))
        return rc;
    if (comb_type_add_field(c->arena, t, NULL, (CombType *)elem))
        return comb_err_nomem(err);
    b->fn = eval_array;
    sql_bx_set_type(b, t);
    return COMB_OK;
}

static int bind_map(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    const CombType *key, *value;
    CombType *t = comb_type_new(c->arena, COMB_T_MAP);
    int rc;
    if (!t)
        return comb_err_nomem(err);
    if (b->n_args % 2)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, b->pos,
                          "Arguments length mismatch: MAP requires an even "
                          "number of arguments (key/value pairs)");
    if ((rc = unite_args(c, b->args, b->n_args, 2, &key, err)) ||
        (rc = unite_args(c, b->args + 1, b->n_args - 1, 2, &value, err)))
        return rc;
    if (!comb_type_is_primitive(key->kind))
        return sql_err_at(err, COMB_ESEMANTIC, 10016, b->pos,
                          "Argument type mismatch: MAP keys must be of a "
                          "primitive type, not %s", comb_type_name(key->kind));
    if (comb_type_add_field(c->arena, t, NULL, (CombType *)key) ||
        comb_type_add_field(c->arena, t, NULL, (CombType *)value))
        return comb_err_nomem(err);
    b->fn = eval_map;
    sql_bx_set_type(b, t);
    return COMB_OK;
}

/* named_struct('name', value, ...): the names are constant strings. */
static int bind_named_struct(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    CombType *t = comb_type_new(c->arena, COMB_T_STRUCT);
    if (!t)
        return comb_err_nomem(err);
    if (b->n_args % 2)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, b->pos,
                          "Arguments length mismatch: NAMED_STRUCT expects an "
                          "even number of arguments.");
    for (int i = 0; i < b->n_args; i += 2) {
        BoundExpr *name = b->args[i];
        char *s;
        const CombType *ft;
        if (name->kind != BX_CONST || name->is_null || name->type != COMB_T_STRING)
            return sql_err_at(err, COMB_ESEMANTIC, 10016, name->pos,
                              "Argument type mismatch: Even arguments to "
                              "NAMED_STRUCT must be a constant STRING.");
        s = comb_arena_strndup(c->arena, name->sval.ptr, name->sval.len);
        ft = sql_bx_type(c, b->args[i + 1]);
        if (!s || !ft)
            return comb_err_nomem(err);
        for (int k = 0; k < t->n_children; k++)
            if (strcasecmp(t->field_names[k], s) == 0)
                return sql_err_at(err, COMB_ESEMANTIC, 10016, name->pos,
                                  "Argument type mismatch: duplicate field "
                                  "name '%s' in NAMED_STRUCT", s);
        if (comb_type_add_field(c->arena, t, s, (CombType *)ft))
            return comb_err_nomem(err);
    }
    b->fn = eval_struct;
    b->ival = 2;
    sql_bx_set_type(b, t);
    return COMB_OK;
}

/* struct(a, b, ...): fields col1, col2, ... */
static int bind_struct(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    CombType *t = comb_type_new(c->arena, COMB_T_STRUCT);
    if (!t)
        return comb_err_nomem(err);
    for (int i = 0; i < b->n_args; i++) {
        char name[32];
        const CombType *ft = sql_bx_type(c, b->args[i]);
        snprintf(name, sizeof name, "col%d", i + 1);
        if (!ft || comb_type_add_field(c->arena, t, name, (CombType *)ft))
            return comb_err_nomem(err);
    }
    b->fn = eval_struct;
    b->ival = 1;
    sql_bx_set_type(b, t);
    return COMB_OK;
}

/* size(array or map): its entries; -1 for NULL (GenericUDFSize). */
static int eval_size(BoundExpr *e, const CombBatch *in, CombErr *err)
{
    const CombVector *x = e->args[0]->out;
    (void)err;
    e->out->has_nulls = false;
    FOR_LIVE(in, i, row)
        e->out->i64[row] = comb_vec_is_null(x, row) || x->kind == COMB_T_NULL
                               ? -1 : (int64_t)x->len[row];
    return COMB_OK;
}

static int bind_size(SqlStmtCtx *c, BoundExpr *b, CombErr *err)
{
    CombTypeKind k = b->args[0]->type;
    if (b->n_args != 1)
        return sql_err_at(err, COMB_ESEMANTIC, 10015, b->pos,
                          "Arguments length mismatch: The function SIZE only "
                          "accepts 1 argument.");
    if (k != COMB_T_LIST && k != COMB_T_MAP && k != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10016, b->args[0]->pos,
                          "Argument type mismatch: \"array\" or \"map\" is "
                          "expected at function SIZE, but \"%s\" is found",
                          sql_bx_type_text(c, b->args[0]));
    b->fn = eval_size;
    b->type = COMB_T_INT;
    return COMB_OK;
}

int sql_bind_complex_function(SqlStmtCtx *c, BoundExpr *b, bool *found,
                              CombErr *err)
{
    static const struct {
        const char *name;
        int (*bind)(SqlStmtCtx *c, BoundExpr *b, CombErr *err);
    } fns[] = {{"array", bind_array}, {"map", bind_map},
               {"named_struct", bind_named_struct}, {"struct", bind_struct},
               {"size", bind_size}};
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(b->fname, fns[i].name) == 0) {
            *found = true;
            b->fname = fns[i].name;
            return fns[i].bind(c, b, err);
        }
    *found = false;
    return COMB_OK;
}
