/*
 * lp.c - logical plan nodes and the expression helpers of the binder and
 * the rules (logical.h): column ids, node constructors, the columns an
 * expression reads, substitution and structural equality, and the plan
 * as text.
 */
#include "sql/plan/logical.h"

#include <string.h>

#include "common/buf.h"

int sql_lp_col_id(SqlStmtCtx *c)
{
    return ++c->next_col_id;
}

LpNode *sql_lp_node(SqlStmtCtx *c, LpKind kind, int n_cols)
{
    LpNode *n = comb_arena_calloc(c->arena, sizeof *n);
    if (!n || !(n->cols = comb_arena_calloc(c->arena, (size_t)(n_cols + 1) * sizeof *n->cols)))
        return NULL;
    n->kind = kind;
    n->n_cols = n_cols;
    n->limit = -1;
    n->est_rows = -1;
    return n;
}

BoundExpr *sql_lp_colref(SqlStmtCtx *c, const LpCol *col, AstPos pos)
{
    BoundExpr *e = sql_bx_new_type(c, BX_COL, col->type, pos);
    if (e)
        e->col = col->id;
    return e;
}

const LpCol *sql_lp_find_col(const LpNode *n, int id)
{
    for (int j = 0; j < n->n_cols; j++)
        if (n->cols[j].id == id)
            return &n->cols[j];
    return NULL;
}

/* A node whose columns are a copy of input's (same ids). */
static LpNode *same_cols(SqlStmtCtx *c, LpKind kind, LpNode *input)
{
    LpNode *n = sql_lp_node(c, kind, input->n_cols);
    if (!n)
        return NULL;
    memcpy(n->cols, input->cols, (size_t)input->n_cols * sizeof *n->cols);
    n->input = input;
    return n;
}

int sql_lp_filter(SqlStmtCtx *c, LpNode *input, BoundExpr *pred,
                  LpNode **out, CombErr *err)
{
    if (!(*out = same_cols(c, LP_FILTER, input)))
        return comb_err_nomem(err);
    (*out)->pred = pred;
    return COMB_OK;
}

int sql_lp_limit(SqlStmtCtx *c, LpNode *input, int64_t offset, int64_t limit,
                 LpNode **out, CombErr *err)
{
    if (!(*out = same_cols(c, LP_LIMIT, input)))
        return comb_err_nomem(err);
    (*out)->offset = offset;
    (*out)->limit = limit;
    return COMB_OK;
}

int sql_lp_sort(SqlStmtCtx *c, LpNode *input, const LpSortKey *keys, int n,
                LpNode **out, CombErr *err)
{
    if (!(*out = same_cols(c, LP_SORT, input)) ||
        !((*out)->sort = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *keys)))
        return comb_err_nomem(err);
    memcpy((*out)->sort, keys, (size_t)n * sizeof *keys);
    (*out)->n_sort = n;
    return COMB_OK;
}

int sql_lp_project(SqlStmtCtx *c, LpNode *input, int n, BoundExpr **exprs,
                   const char *const *names, LpNode **out, CombErr *err)
{
    LpNode *p = sql_lp_node(c, LP_PROJECT, n);
    if (!p || !(p->exprs = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->exprs)))
        return comb_err_nomem(err);
    p->input = input;
    for (int j = 0; j < n; j++) {
        p->exprs[j] = exprs[j];
        p->cols[j].id = sql_lp_col_id(c);
        p->cols[j].name = names[j];
        if (!(p->cols[j].type = sql_bx_type(c, exprs[j])))
            return comb_err_nomem(err);
    }
    *out = p;
    return COMB_OK;
}

int sql_lp_keep(SqlStmtCtx *c, LpNode *input, const int *ids, int n,
                LpNode **out, CombErr *err)
{
    LpNode *p = sql_lp_node(c, LP_PROJECT, n);
    if (!p || !(p->exprs = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *p->exprs)))
        return comb_err_nomem(err);
    p->input = input;
    for (int j = 0; j < n; j++) {
        const LpCol *col = sql_lp_find_col(input, ids[j]);
        if (!col)
            return COMB_INTERNAL(err, "kept column is not an input column");
        p->cols[j] = *col;
        if (!(p->exprs[j] = sql_lp_colref(c, col, (AstPos){0, 0})))
            return comb_err_nomem(err);
    }
    *out = p;
    return COMB_OK;
}

int sql_lp_get(SqlStmtCtx *c, const SqlTable *t, const char *alias,
               LpNode **out, CombErr *err)
{
    static const char *const vcol_names[4] = {
        "ROW__ID.writeid", "ROW__ID.bucketid", "ROW__ID.rowid",
        "INPUT__FILE__NAME",
    };
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType integer = {.kind = COMB_T_INT};
    static const CombType string = {.kind = COMB_T_STRING};
    LpNode *g = sql_lp_node(c, LP_GET, t->n_cols + 4);
    if (!g)
        return comb_err_nomem(err);
    g->table = t;
    g->alias = alias;
    for (int j = 0; j < t->n_cols; j++) {
        g->cols[j].id = sql_lp_col_id(c);
        g->cols[j].name = t->names[j];
        g->cols[j].type = t->types[j];
    }
    for (int k = 0; k < 4; k++) {
        LpCol *col = &g->cols[t->n_cols + k];
        col->id = sql_lp_col_id(c);
        col->name = vcol_names[k];
        col->type = k == 3 ? &string : k == 1 ? &integer : &bigint;
    }
    *out = g;
    return COMB_OK;
}

int sql_lp_values(SqlStmtCtx *c, bool empty, LpNode **out, CombErr *err)
{
    LpNode *v = sql_lp_node(c, LP_VALUES, 0);
    if (!v)
        return comb_err_nomem(err);
    v->n_rows = empty ? 0 : 1;
    *out = v;
    return COMB_OK;
}

int sql_lp_join(SqlStmtCtx *c, LpJoinKind kind, LpNode *left, LpNode *right,
                BoundExpr *cond, LpNode **out, CombErr *err)
{
    static const CombType boolean = {.kind = COMB_T_BOOLEAN};
    bool left_only = kind == LP_JOIN_SEMI || kind == LP_JOIN_ANTI;
    int n = left->n_cols + (left_only ? 0 : kind == LP_JOIN_MARK ? 1 : right->n_cols);
    LpNode *j = sql_lp_node(c, LP_JOIN, n);
    if (!j)
        return comb_err_nomem(err);
    memcpy(j->cols, left->cols, (size_t)left->n_cols * sizeof *j->cols);
    if (kind == LP_JOIN_MARK) {
        j->mark_col = sql_lp_col_id(c);
        j->cols[left->n_cols] = (LpCol){j->mark_col, "mark", &boolean};
    } else if (!left_only) {
        memcpy(j->cols + left->n_cols, right->cols,
               (size_t)right->n_cols * sizeof *j->cols);
    }
    j->join = kind;
    j->input = left;
    j->right = right;
    j->cond = cond;
    *out = j;
    return COMB_OK;
}

/* --------------------------------------------------------- expressions */

int sql_lp_exprs_add(SqlStmtCtx *c, LpExprs *l, BoundExpr *e, CombErr *err)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 8;
        BoundExpr **g = comb_arena_alloc(c->arena, (size_t)cap * sizeof *g);
        if (!g)
            return comb_err_nomem(err);
        if (l->n)
            memcpy(g, l->e, (size_t)l->n * sizeof *g);
        l->e = g;
        l->cap = cap;
    }
    l->e[l->n++] = e;
    return COMB_OK;
}

void sql_lp_expr_cols(const BoundExpr *e, void (*fn)(void *ctx, int id),
                      void *ctx)
{
    if (!e)
        return;
    if (e->kind == BX_COL)
        fn(ctx, e->col);
    if (e->kind == BX_ROWID)
        for (int k = 0; k < 3; k++)
            fn(ctx, e->col + k);
    for (int i = 0; i < e->n_args; i++)
        sql_lp_expr_cols(e->args[i], fn, ctx);
    sql_lp_expr_cols(e->a, fn, ctx);
    sql_lp_expr_cols(e->b, fn, ctx);
    sql_lp_expr_cols(e->c, fn, ctx);
}

typedef struct WithinCtx {
    const LpNode *n;
    int inside, outside;
} WithinCtx;

static void count_within(void *ctx, int id)
{
    WithinCtx *w = ctx;
    if (sql_lp_find_col(w->n, id))
        w->inside++;
    else
        w->outside++;
}

bool sql_lp_expr_within(const BoundExpr *e, const LpNode *n)
{
    WithinCtx w = {n, 0, 0};
    sql_lp_expr_cols(e, count_within, &w);
    return w.outside == 0;
}

bool sql_lp_expr_touches(const BoundExpr *e, const LpNode *n)
{
    WithinCtx w = {n, 0, 0};
    sql_lp_expr_cols(e, count_within, &w);
    return w.inside > 0;
}

BoundExpr *sql_lp_without_conjunct(SqlStmtCtx *c, BoundExpr *pred, int i)
{
    BoundExpr *rest = NULL;
    for (int k = 0; k < sql_bx_conjuncts(pred); k++)
        if (k != i)
            rest = sql_bx_and(c, rest, sql_bx_conjunct(pred, k));
    return rest;
}

typedef struct ReadsCtx {
    int id;
    bool found;
} ReadsCtx;

static void note_read(void *ctx, int id)
{
    ReadsCtx *r = ctx;
    r->found |= id == r->id;
}

bool sql_lp_expr_reads(const BoundExpr *e, int id)
{
    ReadsCtx r = {id, false};
    sql_lp_expr_cols(e, note_read, &r);
    return r.found;
}

typedef struct Within2Ctx {
    const LpNode *a, *b;
    bool outside;
} Within2Ctx;

static void note_within2(void *ctx, int id)
{
    Within2Ctx *w = ctx;
    if (!sql_lp_find_col(w->a, id) && !sql_lp_find_col(w->b, id))
        w->outside = true;
}

bool sql_lp_expr_within2(const BoundExpr *e, const LpNode *a, const LpNode *b)
{
    Within2Ctx w = {a, b, false};
    sql_lp_expr_cols(e, note_within2, &w);
    return !w.outside;
}

static int subst_index(const int *ids, int n, int id)
{
    for (int k = 0; k < n; k++)
        if (ids[k] == id)
            return k;
    return -1;
}

/* A fresh copy of e's node alone (no evaluation state). */
static BoundExpr *copy_node(SqlStmtCtx *c, const BoundExpr *e)
{
    BoundExpr *n = comb_arena_alloc(c->arena, sizeof *n);
    if (!n)
        return NULL;
    *n = *e;
    n->out = NULL;
    memset(&n->own, 0, sizeof n->own);
    n->scratch = NULL;
    n->fill = NULL;
    return n;
}

BoundExpr *sql_lp_expr_subst(SqlStmtCtx *c, const BoundExpr *e,
                             const int *ids, BoundExpr *const *with, int n)
{
    BoundExpr *r;
    int k;
    if (!e)
        return NULL;
    if (e->kind == BX_COL && (k = subst_index(ids, n, e->col)) >= 0)
        return sql_lp_expr_subst(c, with[k], NULL, NULL, 0);
    if (e->kind == BX_ROWID) {
        for (int j = 0; j < 3; j++)
            if ((k = subst_index(ids, n, e->col + j)) >= 0) {
                /* ROW__ID passed on unchanged keeps its ids */
                if (with[k]->kind != BX_COL || with[k]->col != e->col + j)
                    return NULL;
            }
    }
    if (!(r = copy_node(c, e)))
        return NULL;
    if ((e->a && !(r->a = sql_lp_expr_subst(c, e->a, ids, with, n))) ||
        (e->b && !(r->b = sql_lp_expr_subst(c, e->b, ids, with, n))) ||
        (e->c && !(r->c = sql_lp_expr_subst(c, e->c, ids, with, n))))
        return NULL;
    if (e->n_args) {
        if (!(r->args = comb_arena_alloc(c->arena, (size_t)e->n_args * sizeof *r->args)))
            return NULL;
        for (int i = 0; i < e->n_args; i++)
            if (!(r->args[i] = sql_lp_expr_subst(c, e->args[i], ids, with, n)))
                return NULL;
    }
    return r;
}

typedef struct OneCol {
    int id;
    bool several;
} OneCol;

static void note_col(void *ctx, int id)
{
    OneCol *o = ctx;
    if (o->id >= 0 && o->id != id)
        o->several = true;
    o->id = id;
}

int sql_lp_expr_single_col(const BoundExpr *e)
{
    OneCol o = {-1, false};
    sql_lp_expr_cols(e, note_col, &o);
    return o.several ? -1 : o.id;
}

bool sql_lp_expr_volatile(const BoundExpr *e)
{
    if (!e)
        return false;
    if (e->kind == BX_FUNC && e->fname && sql_function_volatile(e->fname))
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (sql_lp_expr_volatile(e->args[i]))
            return true;
    return sql_lp_expr_volatile(e->a) || sql_lp_expr_volatile(e->b) ||
           sql_lp_expr_volatile(e->c);
}

static bool const_equal(const BoundExpr *a, const BoundExpr *b)
{
    if (a->is_null || b->is_null)
        return a->is_null == b->is_null;
    return a->ival == b->ival && a->nanos == b->nanos &&
           (a->dval == b->dval || (a->dval != a->dval && b->dval != b->dval)) &&
           a->dec == b->dec && a->sval.len == b->sval.len &&
           (a->sval.len == 0 || memcmp(a->sval.ptr, b->sval.ptr, a->sval.len) == 0);
}

bool sql_lp_expr_equal(const BoundExpr *a, const BoundExpr *b)
{
    if (!a || !b)
        return a == b;
    if (a->kind != b->kind || a->type != b->type || a->op != b->op ||
        a->negated != b->negated || a->col != b->col || a->n_args != b->n_args ||
        a->length != b->length || a->fn != b->fn)
        return false;
    if (a->fname != b->fname &&
        (!a->fname || !b->fname || strcmp(a->fname, b->fname) != 0))
        return false;
    if (a->kind == BX_CONST && !const_equal(a, b))
        return false;
    if (a->ctype && b->ctype && !comb_type_equal(a->ctype, b->ctype))
        return false;
    for (int i = 0; i < a->n_args; i++)
        if (!sql_lp_expr_equal(a->args[i], b->args[i]))
            return false;
    return sql_lp_expr_equal(a->a, b->a) && sql_lp_expr_equal(a->b, b->b) &&
           sql_lp_expr_equal(a->c, b->c);
}

/* ------------------------------------------------------------- format */

static const char *kind_name(const LpNode *n)
{
    static const char *const kinds[] = {
        "Get", "Values", "Filter", "Project", "Join", "Aggregate", "Window",
        "Lateral", "Sort", "Limit", "SetOp", "Cte",
    };
    static const char *const joins[] = {
        "InnerJoin", "LeftJoin", "RightJoin", "FullJoin", "SemiJoin",
        "AntiJoin", "MarkJoin", "SingleJoin",
    };
    return n->kind == LP_JOIN ? joins[n->join] : kinds[n->kind];
}

static void format_node(CombBuf *b, const LpNode *n, int depth)
{
    comb_buf_printf(b, "%*s%s", 2 * depth, "", kind_name(n));
    if (n->kind == LP_GET)
        comb_buf_printf(b, " %s", n->table->qualified);
    if (n->kind == LP_CTE)
        comb_buf_printf(b, " %s%s", n->cte->name, n->input ? "" : " (shared)");
    comb_buf_printf(b, " [");
    for (int j = 0; j < n->n_cols; j++)
        comb_buf_printf(b, "%s%s#%d", j ? ", " : "", n->cols[j].name,
                        n->cols[j].id);
    comb_buf_printf(b, "]\n");
    if (n->input)
        format_node(b, n->input, depth + 1);
    if (n->right)
        format_node(b, n->right, depth + 1);
}

int sql_lp_format(SqlStmtCtx *c, const LpNode *root, char **out, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    format_node(&b, root, 0);
    if (comb_buf_append_byte(&b, '\0') ||
        !(*out = comb_arena_strdup(c->arena, (const char *)b.data))) {
        comb_buf_free(&b);
        return comb_err_nomem(err);
    }
    comb_buf_free(&b);
    return COMB_OK;
}
