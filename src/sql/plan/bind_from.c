/*
 * bind_from.c - the FROM clause of a SELECT block (bind_int.h): tables
 * (GET), views (their stored query bound at each use, Hive's errors
 * naming the view), WITH names, subqueries, joins (ON, USING, comma and
 * CROSS joins, LEFT SEMI JOIN whose right side is not visible after its
 * ON), LATERAL VIEW, and a lone table function in the select list.  Each
 * item adds its relations (alias and column ids) to the block's scope in
 * the order written, which is the order of `*`.
 */
#include "sql/plan/bind_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "sql/func/udtf.h"

static int from_item(BqBlock *b, const AstFrom *f, LpNode **node, CombErr *err);

/* A derived table's relation: its columns with a star's qualifier
 * stripped ("t.a" is "a"), or named names[j] (a view's columns). */
static int derived_rel(BqBlock *b, const LpNode *n, const char *const *names,
                       const char *alias, CombErr *err)
{
    LpCol *cols = comb_arena_alloc(b->c->arena, (size_t)(n->n_cols + 1) * sizeof *cols);
    if (!cols)
        return comb_err_nomem(err);
    for (int j = 0; j < n->n_cols; j++) {
        const char *dot = strrchr(n->cols[j].name, '.');
        cols[j] = n->cols[j];
        cols[j].name = names ? names[j] : dot ? dot + 1 : n->cols[j].name;
    }
    return sql_bq_add_rel(b->c, &b->from, &(BqRel){alias, n->n_cols, cols, -1}, err);
}

/* FROM (subquery) alias, or a reference to a WITH query: then its own
 * binding of the query under an LP_CTE node of the query's share, which
 * cte.c either shares with the other references or replaces by the
 * binding. */
static int from_query(BqBlock *b, const AstSelect *q, const BqCte *ctes,
                      const char *alias, const char *label,
                      struct LpCte *share, LpNode **node, CombErr *err)
{
    int rc = sql_bq_query(b->c, q, ctes, NULL, NULL, node, err);
    if (rc)
        return rc;
    if (!((*node)->label = comb_arena_printf(b->c->arena, "%s %s", label, alias)))
        return comb_err_nomem(err);
    if (share && (rc = sql_lp_cte_ref(b->c, share, *node, node, err)))
        return rc;
    return derived_rel(b, *node, NULL, alias, err);
}

/* Hive's origin of an error inside a view (ErrorMsg.renderOrigin): the
 * view, its text, and where the outer query uses it. */
static int view_origin(CombErr *err, const SqlTable *v, const char *text,
                       const char *alias, AstPos used_at)
{
    size_t n = strlen(err->msg);
    snprintf(err->msg + n, sizeof err->msg - n,
             " in definition of VIEW %s [\n%s\n] used as %s at Line %d:%d",
             v->ms->name, text, alias, used_at.line,
             used_at.col > 0 ? used_at.col - 1 : 0);
    return err->code;
}

/* "v0 -> v1 -> ": the views being expanded, outermost first. */
static void view_chain(CombBuf *buf, const SqlViewFrame *f)
{
    if (!f)
        return;
    view_chain(buf, f->outer);
    comb_buf_printf(buf, "%s -> ", f->view->qualified);
}

/* A view that reads itself, directly or through others (possible after
 * CREATE OR REPLACE VIEW): Hive's error naming the views expanded. */
static int view_cycle(SqlStmtCtx *c, const SqlTable *v, AstPos pos,
                      CombErr *err)
{
    CombBuf buf = COMB_BUF_INIT;
    const SqlViewFrame *f = c->views;
    int rc;
    while (f && strcmp(f->view->qualified, v->qualified) != 0)
        f = f->outer;
    if (!f)
        return COMB_OK;
    view_chain(&buf, c->views);
    comb_buf_append_byte(&buf, '\0');
    rc = sql_err_at(err, COMB_ESEMANTIC, 0, pos,
                    "Recursive view %s detected (cycle: %s%s).", v->qualified,
                    buf.data ? (char *)buf.data : "", v->qualified);
    comb_buf_free(&buf);
    return rc;
}

/* FROM view [alias]: its stored query, bound now, as a derived table
 * named by the view's own column names. */
static int from_view(BqBlock *b, const AstFrom *f, SqlTable *v, LpNode **node,
                     CombErr *err)
{
    SqlStmtCtx *c = b->c;
    const MsTable *m = v->ms;
    const char *text = m->view_expanded_text ? m->view_expanded_text
                                             : m->view_original_text;
    const char *alias = f->alias ? f->alias : m->name;
    SqlViewFrame frame = {v, c->views};
    AstStmt *q;
    int rc;
    if ((rc = view_cycle(c, v, f->pos, err)))
        return rc;
    rc = sql_parse_statement(text, strlen(text), c->arena, &q, err);
    if (!rc && q->kind != AST_SELECT)
        rc = comb_err(err, COMB_ECORRUPT, "the text of view %s is not a query",
                      v->qualified);
    if (!rc) {
        c->views = &frame;
        /* a view sees no WITH names of the query using it */
        rc = sql_bq_query(c, q->select, NULL, NULL, NULL, node, err);
        c->views = frame.outer;
    }
    if (rc)
        return view_origin(err, v, text, alias, f->pos);
    if ((*node)->n_cols != v->n_cols)
        return sql_err_at(err, COMB_ESEMANTIC, 0, f->pos,
                          "view %s has %d columns but its query now gives %d "
                          "(the tables it reads changed; CREATE OR REPLACE "
                          "VIEW defines it again)",
                          v->qualified, v->n_cols, (*node)->n_cols);
    (*node)->label = f->alias
                         ? comb_arena_printf(c->arena, "View %s as %s", v->qualified, alias)
                         : comb_arena_printf(c->arena, "View %s", v->qualified);
    if (!(*node)->label)
        return comb_err_nomem(err);
    return derived_rel(b, *node, (const char *const *)v->names, alias, err);
}

static const BqCte *find_cte(const BqCte *ctes, const AstName *name)
{
    if (name->db)
        return NULL;
    for (const BqCte *w = ctes; w; w = w->next)
        if (strcmp(w->ast->name, name->name) == 0)
            return w;
    return NULL;
}

static int from_table(BqBlock *b, const AstFrom *f, LpNode **node, CombErr *err)
{
    const BqCte *w = find_cte(b->ctes, &f->table);
    SqlTable *t;
    BqRel rel;
    int rc;
    if (w)
        return from_query(b, w->ast->query, w->next,
                          f->alias ? f->alias : w->ast->name, "CTE", w->share,
                          node, err);
    if ((rc = sql_table_resolve(b->c, &f->table, &t, err)) ||
        (rc = sql_authorize_read(b->c, t->ms, err)))
        return rc;
    if (t->kind == SQL_TABLE_VIEW)
        return from_view(b, f, t, node, err);
    if ((rc = sql_lp_get(b->c, t, f->alias ? f->alias : t->ms->name, node, err)))
        return rc;
    rel = (BqRel){(*node)->alias, t->n_cols, (*node)->cols, (*node)->cols[t->n_cols].id,
                  &(*node)->cols[t->n_cols + 3]};
    return sql_bq_add_rel(b->c, &b->from, &rel, err);
}

/* ------------------------------------------------------------- joins */

static AstExpr *ast_colref(SqlStmtCtx *c, const char *qualifier,
                           const char *name, AstPos pos)
{
    AstExpr *e = comb_arena_calloc(c->arena, sizeof *e);
    if (e) {
        e->kind = AST_COLREF;
        e->pos = pos;
        e->qualifier = (char *)qualifier;
        e->name = (char *)name;
        e->height = 1;
    }
    return e;
}

/* The alias of the first relation of rels[from, to) with column name. */
static const char *rel_with(const BqScope *sc, int from, int to,
                            const char *name)
{
    for (int r = from; r < to; r++)
        for (int j = 0; j < sc->rels[r].n_cols; j++)
            if (strcasecmp(sc->rels[r].cols[j].name, name) == 0)
                return sc->rels[r].alias;
    return NULL;
}

/* USING (a, b): left.a = right.a AND left.b = right.b, as parse tree. */
static int using_cond(BqBlock *b, const AstFrom *f, int split, AstExpr **out,
                      CombErr *err)
{
    SqlStmtCtx *c = b->c;
    AstExpr *cond = NULL;
    for (int i = 0; i < f->n_using; i++) {
        const char *name = f->using_cols[i];
        const char *l = rel_with(&b->from, 0, split, name);
        const char *r = rel_with(&b->from, split, b->from.n_rels, name);
        AstExpr *eq = comb_arena_calloc(c->arena, sizeof *eq);
        if (!l || !r)
            return sql_err_at(err, COMB_ESEMANTIC, 10004, f->using_pos[i],
                              "Invalid column reference '%s' in USING: it must "
                              "be a column of both sides of the join", name);
        if (!eq || !(eq->left = ast_colref(c, l, name, f->using_pos[i])) ||
            !(eq->right = ast_colref(c, r, name, f->using_pos[i])))
            return comb_err_nomem(err);
        eq->kind = AST_BINARY;
        eq->op = AST_OP_EQ;
        eq->pos = f->using_pos[i];
        eq->height = 2;
        if (cond) {
            AstExpr *and = comb_arena_calloc(c->arena, sizeof *and);
            if (!and)
                return comb_err_nomem(err);
            and->kind = AST_BINARY;
            and->op = AST_OP_AND;
            and->pos = eq->pos;
            and->left = cond;
            and->right = eq;
            and->height = (cond->height > 2 ? cond->height : 2) + 1;
            eq = and;
        }
        cond = eq;
    }
    *out = cond;
    return COMB_OK;
}

static LpJoinKind join_kind(AstJoinKind k)
{
    switch (k) {
    case AST_JOIN_LEFT:
        return LP_JOIN_LEFT;
    case AST_JOIN_RIGHT:
        return LP_JOIN_RIGHT;
    case AST_JOIN_FULL:
        return LP_JOIN_FULL;
    case AST_JOIN_LEFT_SEMI:
        return LP_JOIN_SEMI;
    default:
        return LP_JOIN_INNER;
    }
}

static int from_join(BqBlock *b, const AstFrom *f, LpNode **node, CombErr *err)
{
    LpNode *l, *r;
    const AstExpr *on = f->on;
    AstExpr *using = NULL;
    BoundExpr *cond = NULL;
    int split, rc;
    if ((rc = from_item(b, f->left, &l, err)))
        return rc;
    split = b->from.n_rels;
    if ((rc = from_item(b, f->right, &r, err)))
        return rc;
    if (f->n_using && (rc = using_cond(b, f, split, &using, err)))
        return rc;
    if (using)
        on = using;
    if (on) {
        if ((rc = sql_bq_expr(b, on, &cond, err)))
            return rc;
        if (cond->type != COMB_T_BOOLEAN && cond->type != COMB_T_NULL)
            return sql_err_at(err, COMB_ESEMANTIC, 10014, cond->pos,
                              "ON clause must be a boolean expression");
    }
    /* LEFT SEMI JOIN: the right side's columns are not the query's */
    if (f->join == AST_JOIN_LEFT_SEMI)
        b->from.n_rels = split;
    return sql_lp_join(b->c, join_kind(f->join), l, r, cond, node, err);
}

/* ------------------------------------------------------- LATERAL VIEW */

static int udtf_names(const SqlUdtf *u, int n_aliases, char *const *aliases,
                      AstPos pos, const char ***out, CombErr *err)
{
    if (n_aliases && n_aliases != u->n_cols)
        return sql_err_at(err, COMB_ESEMANTIC, 10083, pos,
                          "The number of aliases supplied in the AS clause "
                          "does not match the number of columns output by the "
                          "UDTF expected %d aliases but got %d", u->n_cols,
                          n_aliases);
    *out = n_aliases ? (const char **)aliases : u->names;
    return COMB_OK;
}

/* A table function call bound over the block's scope. */
static int bind_udtf(BqBlock *b, const AstExpr *call, SqlUdtf **out,
                     CombErr *err)
{
    SqlStmtCtx *c = b->c;
    BoundExpr **args = comb_arena_calloc(c->arena, (size_t)(call->n_args + 1) * sizeof *args);
    int rc;
    if (!args)
        return comb_err_nomem(err);
    if (!sql_udtf_exists(call->name))
        return sql_err_at(err, COMB_ESEMANTIC, 10011, call->pos,
                          "Invalid function '%s' (not a table function)", call->name);
    for (int i = 0; i < call->n_args; i++) {
        if (sql_bq_has_aggregate(call->args[i]))
            return sql_err_at(err, COMB_ESEMANTIC, 10128, call->args[i]->pos,
                              "Not yet supported place for UDAF");
        if ((rc = sql_bq_expr(b, call->args[i], &args[i], err)))
            return rc;
    }
    return sql_udtf_bind(c, call, args, call->n_args, out, err);
}

/* A LATERAL node of u over *top: its new columns named names. */
static int lateral_node(BqBlock *b, SqlUdtf *u, bool outer,
                        const char *const *names, LpNode **top, CombErr *err)
{
    SqlStmtCtx *c = b->c;
    LpNode *in = *top, *n = sql_lp_node(c, LP_LATERAL, in->n_cols + u->n_cols);
    if (!n || !(n->lateral = comb_arena_calloc(c->arena, sizeof *n->lateral)))
        return comb_err_nomem(err);
    memcpy(n->cols, in->cols, (size_t)in->n_cols * sizeof *n->cols);
    for (int j = 0; j < u->n_cols; j++)
        n->cols[in->n_cols + j] = (LpCol){sql_lp_col_id(c), names[j], u->types[j]};
    n->input = in;
    n->lateral->u = u;
    n->lateral->outer = outer;
    n->lateral->names = names;
    *top = n;
    return COMB_OK;
}

static int from_lateral(BqBlock *b, const AstFrom *f, LpNode **node,
                        CombErr *err)
{
    const AstLateral *l = f->lateral;
    const char **names = NULL;
    SqlUdtf *u;
    int rc;
    if ((rc = from_item(b, f->left, node, err)) ||
        (rc = bind_udtf(b, l->call, &u, err)) ||
        (rc = udtf_names(u, l->n_cols, l->cols, l->alias_pos, &names, err)) ||
        (rc = lateral_node(b, u, l->outer, names, node, err)))
        return rc;
    return sql_bq_add_rel(b->c, &b->from,
                          &(BqRel){l->alias, u->n_cols,
                                   (*node)->cols + (*node)->n_cols - u->n_cols, -1},
                          err);
}

static bool is_udtf_item(const AstSelectItem *it)
{
    return it->expr->kind == AST_FUNC && sql_udtf_exists(it->expr->name);
}

static bool has_lateral(const AstFrom *f)
{
    if (!f)
        return false;
    return f->kind == AST_FROM_LATERAL || has_lateral(f->left) ||
           has_lateral(f->right);
}

int sql_bq_select_udtf(BqBlock *b, CombErr *err)
{
    const AstSelect *s = b->ast;
    const AstSelectItem *it = &s->items[0];
    const char **names = NULL;
    SqlUdtf *u;
    int rc;
    for (int i = 1; i < s->n_items; i++)
        if (is_udtf_item(&s->items[i]) || is_udtf_item(it))
            return sql_err_at(err, COMB_ESEMANTIC, 10075, s->items[i].expr->pos,
                              "Only a single expression in the SELECT clause is "
                              "supported with UDTF's");
    if (s->n_items != 1 || !is_udtf_item(it))
        return COMB_OK;
    if (has_lateral(s->from))
        return sql_err_at(err, COMB_ESEMANTIC, 10082, it->expr->pos,
                          "UDTF's cannot be in a select expression when there "
                          "is a lateral view");
    if (s->n_group_by)
        return sql_err_at(err, COMB_ESEMANTIC, 10077, it->expr->pos,
                          "GROUP BY is not supported with a UDTF in the SELECT "
                          "clause");
    if (s->sort_by)
        return sql_err_at(err, COMB_ESEMANTIC,
                          s->sort_by->cluster ? 10079 : s->sort_by->n_sort ? 10078 : 10080,
                          it->expr->pos, "%s is not supported with a UDTF in the "
                          "SELECT clause", s->sort_by->cluster ? "CLUSTER BY"
                          : s->sort_by->n_sort ? "SORT BY" : "DISTRUBTE BY");
    if ((rc = bind_udtf(b, it->expr, &u, err)) ||
        (rc = udtf_names(u, it->alias ? 1 : it->n_aliases,
                         it->alias ? (char *const *)&it->alias : it->aliases,
                         it->expr->pos, &names, err)) ||
        (rc = lateral_node(b, u, false, names, &b->top, err)))
        return rc;
    b->udtf_items = true;
    for (int j = 0; j < u->n_cols; j++) {
        const LpCol *col = &b->top->cols[b->top->n_cols - u->n_cols + j];
        BoundExpr *e = sql_lp_colref(b->c, col, it->expr->pos);
        if (!e)
            return comb_err_nomem(err);
        if ((rc = sql_bq_add_out(b, names[j], NULL, e, err)))
            return rc;
    }
    b->n_out = b->n_cols;
    return COMB_OK;
}

/* ---------------------------------------------------------------- FROM */

static int from_item(BqBlock *b, const AstFrom *f, LpNode **node, CombErr *err)
{
    switch (f->kind) {
    case AST_FROM_TABLE:
        return from_table(b, f, node, err);
    case AST_FROM_QUERY:
        return from_query(b, f->query, b->ctes, f->alias, "Subquery", NULL,
                          node, err);
    case AST_FROM_JOIN:
        return from_join(b, f, node, err);
    case AST_FROM_LATERAL:
        return from_lateral(b, f, node, err);
    }
    return COMB_INTERNAL(err, "FROM item of no kind");
}

int sql_bq_from(BqBlock *b, CombErr *err)
{
    if (!b->ast->from)
        return sql_lp_values(b->c, false, &b->top, err);
    return from_item(b, b->ast->from, &b->top, err);
}
