/*
 * parse_query.c - queries: SELECT blocks (items, FROM with joins and
 * subqueries, WHERE, GROUP BY with ROLLUP / CUBE / GROUPING SETS,
 * HAVING), set operations, WITH, and the clauses that apply to a query's
 * result (ORDER BY, CLUSTER / DISTRIBUTE / SORT BY, LIMIT [offset,] n).
 *
 * As in Hive's grammar, UNION, INTERSECT, EXCEPT and MINUS have one
 * precedence and associate to the left; a SELECT block's own ORDER BY or
 * LIMIT needs parentheses around the block; the clauses after the last
 * block apply to the whole set operation.  A block's clauses come in
 * Hive's order: WHERE, GROUP BY, HAVING; then ORDER BY, CLUSTER BY,
 * DISTRIBUTE BY, SORT BY, LIMIT.
 */
#include "sql/parse/parse_int.h"

#include <string.h>

static AstSelect *sel_new(SqlParser *p, AstPos pos)
{
    AstSelect *sel = sp_alloc(p, sizeof *sel);
    if (sel) {
        sel->limit = -1;
        sel->pos = pos;
    }
    return sel;
}

/* ----------------------------------------------------------- select list */

/* AS (a, b, ...): the column names of a table function in the select
 * list (SELECT explode(m) AS (k, v)). */
static int alias_list(SqlParser *p, AstSelectItem *it)
{
    SqlVec names = {0};
    sp_next(p);
    sp_next(p);
    do {
        char *name;
        SP_TRY(sp_ident(p, &name, NULL));
        SP_TRY(sp_vec_push(p, &names, &name, sizeof name));
    } while (sp_accept(p, SQL_TK_COMMA));
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    it->n_aliases = names.n;
    it->aliases = names.data;
    return COMB_OK;
}

/* *, t.*, or expr [[AS] alias | AS (alias, ...)] */
static int sel_item(SqlParser *p, void *items)
{
    AstSelectItem it = {0};
    const SqlToken *t = sp_peek(p, 0);
    size_t start = t->off;
    AstPos pos = sp_pos(t);
    if (t->kind == SQL_TK_STAR) {
        sp_next(p);
        SP_TRY(sp_star(p, NULL, pos, start, &it.expr));
    } else if (sp_is_ident_tok(t) && sp_peek(p, 1)->kind == SQL_TK_DOT &&
               sp_peek(p, 2)->kind == SQL_TK_STAR) {
        char *qualifier;
        SP_TRY(sp_ident(p, &qualifier, NULL));
        sp_next(p);
        sp_next(p);
        SP_TRY(sp_star(p, qualifier, pos, start, &it.expr));
    } else {
        SP_TRY(sp_expr(p, &it.expr));
        if (sp_is_kw(p, KW_AS) && sp_peek(p, 1)->kind == SQL_TK_LPAREN)
            SP_TRY(alias_list(p, &it));
        else
            SP_TRY(sp_alias(p, &it.alias));
    }
    return sp_vec_push(p, items, &it, sizeof it);
}

/* ------------------------------------------------------------------ FROM */

static AstFrom *from_new(SqlParser *p, AstFromKind kind, AstPos pos)
{
    AstFrom *f = sp_alloc(p, sizeof *f);
    if (f) {
        f->kind = kind;
        f->pos = pos;
    }
    return f;
}

/* ( query ) [AS] alias: Hive requires the alias.  Nesting counts towards
 * the parser's depth limit, so any query it accepts can be bound and run
 * without exhausting the stack. */
static int from_subquery(SqlParser *p, AstFrom **out)
{
    const SqlToken *t = sp_peek(p, 0);
    AstFrom *f = from_new(p, AST_FROM_QUERY, sp_pos(t));
    int rc;
    if (!f)
        return COMB_ENOMEM;
    sp_next(p);
    if (!sp_is_kw(p, KW_SELECT) && !sp_is_kw(p, KW_WITH) &&
        !sp_is(p, SQL_TK_LPAREN))
        return sp_error(p, sp_peek(p, 0), "cannot recognize input in subquery source");
    SP_TRY(sp_enter(p));
    rc = sp_select(p, &f->query);
    sp_leave(p);
    if (rc)
        return rc;
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    t = sp_peek(p, 0);
    SP_TRY(sp_alias(p, &f->alias));
    if (!f->alias)
        return sp_error(p, t, "missing alias of the subquery in FROM");
    *out = f;
    return COMB_OK;
}

/* LATERAL VIEW [OUTER] f(args) alias [AS col, ...] over *item. */
static int lateral_view(SqlParser *p, AstFrom **item)
{
    const SqlToken *t = sp_peek(p, 0);
    AstFrom *f = from_new(p, AST_FROM_LATERAL, sp_pos(t));
    AstLateral *lv = sp_alloc(p, sizeof *lv);
    SqlVec cols = {0};
    if (!f || !lv)
        return COMB_ENOMEM;
    sp_next(p);
    if (!sp_accept_kw(p, KW_VIEW))
        return sp_error(p, sp_peek(p, 0), "missing VIEW after LATERAL");
    lv->outer = sp_accept_kw(p, KW_OUTER);
    t = sp_peek(p, 0);
    SP_TRY(sp_expr(p, &lv->call));
    if (lv->call->kind != AST_FUNC)
        return sp_error(p, t, "expected a table function call in LATERAL VIEW");
    t = sp_peek(p, 0);
    lv->alias_pos = sp_pos(t);
    if (sp_is_kw(p, KW_AS))
        return sp_error(p, t, "missing table alias of the LATERAL VIEW");
    SP_TRY(sp_ident(p, &lv->alias, NULL));
    if (sp_accept_kw(p, KW_AS)) {
        do {
            char *name;
            SP_TRY(sp_ident(p, &name, NULL));
            SP_TRY(sp_vec_push(p, &cols, &name, sizeof name));
        } while (sp_accept(p, SQL_TK_COMMA));
    }
    lv->n_cols = cols.n;
    lv->cols = cols.data;
    f->left = *item;
    f->lateral = lv;
    *item = f;
    return COMB_OK;
}

/* [db.]name [[AS] alias] | ( query ) alias, then LATERAL VIEWs */
static int from_primary(SqlParser *p, AstFrom **out)
{
    const SqlToken *t = sp_peek(p, 0);
    AstFrom *f;
    if (t->kind == SQL_TK_LPAREN)
        SP_TRY(from_subquery(p, out));
    else {
        if (!(f = from_new(p, AST_FROM_TABLE, sp_pos(t))))
            return COMB_ENOMEM;
        SP_TRY(sp_name(p, &f->table));
        if (sp_is_kw(p, KW_TABLESAMPLE))
            return sp_unsupported(p, sp_peek(p, 0), "TABLESAMPLE");
        SP_TRY(sp_alias(p, &f->alias));
        *out = f;
    }
    while (sp_is_kw(p, KW_LATERAL))
        SP_TRY(lateral_view(p, out));
    return COMB_OK;
}

int sp_from_item(SqlParser *p, AstFrom **out)
{
    return from_primary(p, out);
}

/* The join operator at the current token: its kind, or false when none
 * is there.  Consumes nothing. */
static bool join_op(SqlParser *p, AstJoinKind *kind, int *len)
{
    const SqlToken *t = sp_peek(p, 0);
    int k = 1;
    if (t->kind == SQL_TK_COMMA) {
        *kind = AST_JOIN_COMMA;
        *len = 1;
        return true;
    }
    if (t->kind != SQL_TK_WORD)
        return false;
    switch (t->kw) {
    case KW_JOIN: *kind = AST_JOIN_INNER; *len = 1; return true;
    case KW_INNER: *kind = AST_JOIN_INNER; break;
    case KW_CROSS: *kind = AST_JOIN_CROSS; break;
    case KW_LEFT:
        *kind = AST_JOIN_LEFT;
        if (sp_is_kw_at(p, 1, KW_SEMI)) {
            *kind = AST_JOIN_LEFT_SEMI;
            k = 2;
        }
        break;
    case KW_RIGHT: *kind = AST_JOIN_RIGHT; break;
    case KW_FULL: *kind = AST_JOIN_FULL; break;
    default: return false;
    }
    if ((*kind == AST_JOIN_LEFT || *kind == AST_JOIN_RIGHT ||
         *kind == AST_JOIN_FULL) && sp_is_kw_at(p, k, KW_OUTER))
        k++;
    *len = k + 1;
    return true;
}

/* USING (col, ...) */
static int join_using(SqlParser *p, AstFrom *j)
{
    SqlVec names = {0}, positions = {0};
    SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    do {
        char *name;
        AstPos pos;
        SP_TRY(sp_ident(p, &name, &pos));
        SP_TRY(sp_vec_push(p, &names, &name, sizeof name));
        SP_TRY(sp_vec_push(p, &positions, &pos, sizeof pos));
    } while (sp_accept(p, SQL_TK_COMMA));
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    j->n_using = names.n;
    j->using_cols = names.data;
    j->using_pos = positions.data;
    return COMB_OK;
}

/* item (join_op item [ON expr | USING (cols)])*: left-deep. */
static int from_items(SqlParser *p, AstFrom **out)
{
    AstJoinKind kind;
    int len;
    SP_TRY(from_primary(p, out));
    while (join_op(p, &kind, &len)) {
        AstFrom *j = from_new(p, AST_FROM_JOIN, sp_pos(sp_peek(p, 0)));
        if (!j)
            return COMB_ENOMEM;
        for (int i = 0; i < len; i++) {
            if (i == len - 1 && kind != AST_JOIN_COMMA &&
                !sp_is_kw(p, KW_JOIN))
                return sp_error(p, sp_peek(p, 0), "missing JOIN");
            sp_next(p);
        }
        j->join = kind;
        j->left = *out;
        SP_TRY(from_primary(p, &j->right));
        if (kind != AST_JOIN_COMMA && kind != AST_JOIN_CROSS &&
            sp_accept_kw(p, KW_ON))
            SP_TRY(sp_expr(p, &j->on));
        else if (kind != AST_JOIN_COMMA && kind != AST_JOIN_CROSS &&
                 sp_accept_kw(p, KW_USING))
            SP_TRY(join_using(p, j));
        *out = j;
    }
    return COMB_OK;
}

int sp_from_clause(SqlParser *p, AstFrom **out)
{
    SP_TRY(sp_expect_kw(p, KW_FROM));
    return from_items(p, out);
}

/* -------------------------------------------------------------- GROUP BY */

/* One set of GROUPING SETS: (expr, ...), ( ), or a lone expression (as
 * in Hive's grammar, a parenthesis opens a list). */
static int grouping_set(SqlParser *p, void *sets)
{
    AstGroupingSet set = {0};
    SqlVec exprs = {0};
    set.pos = sp_pos(sp_peek(p, 0));
    if (sp_is(p, SQL_TK_LPAREN) && sp_peek(p, 1)->kind == SQL_TK_RPAREN) {
        sp_next(p);
        sp_next(p);
    } else if (sp_is(p, SQL_TK_LPAREN)) {
        SP_TRY(sp_list(p, true, sp_expr_item, &exprs));
    } else {
        SP_TRY(sp_expr_item(p, &exprs));
    }
    set.n = exprs.n;
    set.exprs = exprs.data;
    return sp_vec_push(p, sets, &set, sizeof set);
}

/* GROUP BY keys [WITH ROLLUP | WITH CUBE | GROUPING SETS (set, ...)]
 * | GROUP BY ROLLUP (keys) | GROUP BY CUBE (keys) */
static int sel_group_by(SqlParser *p, AstSelect *sel)
{
    SqlVec keys = {0}, sets = {0};
    if (!sp_accept_kw(p, KW_GROUP))
        return COMB_OK;
    SP_TRY(sp_expect_kw(p, KW_BY));
    if ((sp_is_kw(p, KW_ROLLUP) || sp_is_kw(p, KW_CUBE)) &&
        sp_peek(p, 1)->kind == SQL_TK_LPAREN) {
        SqlToken t = sp_next(p);
        sel->grouping_pos = sp_pos(&t);
        sel->grouping = t.kw == KW_ROLLUP ? AST_GROUPING_ROLLUP : AST_GROUPING_CUBE;
        SP_TRY(sp_list(p, true, sp_expr_item, &keys));
    } else {
        SP_TRY(sp_list(p, false, sp_expr_item, &keys));
    }
    sel->n_group_by = keys.n;
    sel->group_by = keys.data;
    if (sel->grouping)
        return COMB_OK;
    if (sp_is_kw(p, KW_WITH) &&
        (sp_is_kw_at(p, 1, KW_ROLLUP) || sp_is_kw_at(p, 1, KW_CUBE))) {
        sp_next(p);
        SqlToken t = sp_next(p);
        sel->grouping_pos = sp_pos(&t);
        sel->grouping = t.kw == KW_ROLLUP ? AST_GROUPING_ROLLUP : AST_GROUPING_CUBE;
    } else if (sp_is_kw(p, KW_GROUPING) && sp_is_kw_at(p, 1, KW_SETS)) {
        sel->grouping_pos = sp_pos(sp_peek(p, 0));
        sp_next(p);
        sp_next(p);
        SP_TRY(sp_list(p, true, grouping_set, &sets));
        sel->grouping = AST_GROUPING_SETS;
        sel->n_sets = sets.n;
        sel->sets = sets.data;
    }
    return COMB_OK;
}

/* expr [ASC|DESC] [NULLS FIRST|LAST] */
int sp_order_item(SqlParser *p, void *items)
{
    AstOrderItem it = {0};
    SP_TRY(sp_expr(p, &it.expr));
    if (!sp_accept_kw(p, KW_ASC))
        it.desc = sp_accept_kw(p, KW_DESC);
    if (sp_accept_kw(p, KW_NULLS)) {
        if (sp_accept_kw(p, KW_FIRST))
            it.nulls = 1;
        else if (sp_accept_kw(p, KW_LAST))
            it.nulls = 2;
        else
            return sp_error(p, sp_peek(p, 0), "missing FIRST or LAST");
    }
    return sp_vec_push(p, items, &it, sizeof it);
}

static int sel_order_by(SqlParser *p, AstSelect *sel)
{
    SqlVec items = {0};
    if (!sp_accept_kw(p, KW_ORDER))
        return COMB_OK;
    SP_TRY(sp_expect_kw(p, KW_BY));
    SP_TRY(sp_list(p, false, sp_order_item, &items));
    sel->n_order_by = items.n;
    sel->order_by = items.data;
    return COMB_OK;
}

/* The token Hive's ErrorMsg.getText names for a tree: its last leaf,
 * reached through the last child of each node. */
static const char *last_leaf(const AstExpr *e)
{
    for (;;) {
        const AstExpr *next = NULL;
        if (e->n_args)
            next = e->kind == AST_CASE && e->right ? e->right
                                                   : e->args[e->n_args - 1];
        else if (e->kind == AST_BETWEEN)
            next = e->third;
        else if (e->right)
            next = e->right;
        else if (e->kind != AST_FUNC)
            next = e->left;
        if (!next)
            return e->kind == AST_FUNC || e->kind == AST_COLREF ||
                           e->kind == AST_FIELD
                       ? e->name : e->text;
        e = next;
    }
}

/* Hive's checks of the row-order clauses in SemanticAnalyzer.doPhase1,
 * made before any name is resolved: the message of generateErrorMessage
 * (which Hive prints without its error number) at the later clause's
 * first expression, near its last token. */
static int sort_conflict(SqlParser *p, AstExpr *const *first_last,
                         int hive_code, const char *what)
{
    const AstExpr *at = first_last[0];
    return comb_err_hive(p->err, COMB_ESEMANTIC, hive_code,
                         "SemanticException %d:%d Cannot have both %s "
                         "clauses. Error encountered near token '%s'",
                         at->pos.line, at->pos.col - 1, what,
                         last_leaf(first_last[1]));
}

static int expr_conflict(SqlParser *p, const SqlVec *exprs, int hive_code,
                         const char *what)
{
    AstExpr **e = exprs->data;
    AstExpr *first_last[2] = {e[0], e[exprs->n - 1]};
    return sort_conflict(p, first_last, hive_code, what);
}

/* CLUSTER BY's keys also sort, ascending. */
static int cluster_sort_keys(SqlParser *p, AstSortBy *sb)
{
    sb->n_sort = sb->n_distribute;
    sb->sort = sp_alloc(p, (size_t)sb->n_sort * sizeof *sb->sort);
    if (!sb->sort)
        return COMB_ENOMEM;
    for (int i = 0; i < sb->n_sort; i++)
        sb->sort[i].expr = sb->distribute[i];
    return COMB_OK;
}

/* CLUSTER BY or DISTRIBUTE BY (kw): BY expr, ... | BY (expr, ...). */
static int sel_by_exprs(SqlParser *p, SqlKeyword kw, AstSelect *sel,
                        AstSortBy *sb)
{
    SqlVec keys = {0};
    bool cluster = kw == KW_CLUSTER;
    if (!sp_is_kw(p, kw) || !sp_is_kw_at(p, 1, KW_BY))
        return COMB_OK;
    sp_next(p);
    sp_next(p);
    SP_TRY(sp_list(p, sp_is(p, SQL_TK_LPAREN), sp_expr_item, &keys));
    if (sb->cluster)
        return expr_conflict(p, &keys, 10046, "CLUSTER BY and DISTRIBUTE BY");
    if (sel->n_order_by)
        return cluster ? expr_conflict(p, &keys, 10050, "CLUSTER BY and ORDER BY")
                       : expr_conflict(p, &keys, 10047,
                                       "ORDER BY and DISTRIBUTE BY");
    sb->cluster = cluster;
    sb->n_distribute = keys.n;
    sb->distribute = keys.data;
    return cluster ? cluster_sort_keys(p, sb) : COMB_OK;
}

/* SORT BY item, ... | SORT BY (item, ...), items as ORDER BY's. */
static int sel_sort_by(SqlParser *p, AstSelect *sel, AstSortBy *sb)
{
    SqlVec items = {0};
    AstOrderItem *it;
    AstExpr *first_last[2];
    if (!sp_is_kw(p, KW_SORT) || !sp_is_kw_at(p, 1, KW_BY))
        return COMB_OK;
    sp_next(p);
    sp_next(p);
    SP_TRY(sp_list(p, sp_is(p, SQL_TK_LPAREN), sp_order_item, &items));
    it = items.data;
    first_last[0] = it[0].expr;
    first_last[1] = it[items.n - 1].expr;
    if (sb->cluster)
        return sort_conflict(p, first_last, 10048, "CLUSTER BY and SORT BY");
    if (sel->n_order_by)
        return sort_conflict(p, first_last, 10049, "ORDER BY and SORT BY");
    sb->n_sort = items.n;
    sb->sort = items.data;
    return COMB_OK;
}

/* [CLUSTER BY ...] [DISTRIBUTE BY ...] [SORT BY ...] */
static int sel_sort_clauses(SqlParser *p, AstSelect *sel)
{
    AstSortBy *sb = sp_alloc(p, sizeof *sb);
    if (!sb)
        return COMB_ENOMEM;
    SP_TRY(sel_by_exprs(p, KW_CLUSTER, sel, sb));
    SP_TRY(sel_by_exprs(p, KW_DISTRIBUTE, sel, sb));
    SP_TRY(sel_sort_by(p, sel, sb));
    if (sb->n_sort || sb->n_distribute)
        sel->sort_by = sb;
    return COMB_OK;
}

/* LIMIT n | LIMIT offset, n | LIMIT n OFFSET offset */
static int sel_limit(SqlParser *p, AstSelect *sel)
{
    if (!sp_accept_kw(p, KW_LIMIT))
        return COMB_OK;
    SP_TRY(sp_int(p, 0, INT64_MAX, "LIMIT row count", &sel->limit));
    if (sp_accept(p, SQL_TK_COMMA)) {
        sel->offset = sel->limit;
        return sp_int(p, 0, INT64_MAX, "LIMIT row count", &sel->limit);
    }
    if (sp_accept_kw(p, KW_OFFSET))
        return sp_int(p, 0, INT64_MAX, "LIMIT offset", &sel->offset);
    return COMB_OK;
}

/* The clauses that apply to a query's result. */
static int sel_tail(SqlParser *p, AstSelect *sel)
{
    SP_TRY(sel_order_by(p, sel));
    SP_TRY(sel_sort_clauses(p, sel));
    return sel_limit(p, sel);
}

static bool at_tail(SqlParser *p)
{
    return sp_is_kw(p, KW_ORDER) || sp_is_kw(p, KW_LIMIT) ||
           ((sp_is_kw(p, KW_SORT) || sp_is_kw(p, KW_CLUSTER) ||
             sp_is_kw(p, KW_DISTRIBUTE)) && sp_is_kw_at(p, 1, KW_BY));
}

static bool has_tail(const AstSelect *s)
{
    return s->n_order_by || s->sort_by || s->limit >= 0;
}

/* ---------------------------------------------------------------- blocks */

/* After SELECT: the items, FROM (unless the statement gave it first) and
 * the block's other clauses. */
int sp_select_block(SqlParser *p, AstSelect *sel, bool with_from)
{
    SqlVec items = {0};
    SP_TRY(sp_expect_kw(p, KW_SELECT));
    if (!sp_accept_kw(p, KW_ALL))
        sel->distinct = sp_accept_kw(p, KW_DISTINCT);
    SP_TRY(sp_list(p, false, sel_item, &items));
    sel->n_items = items.n;
    sel->items = items.data;
    if (with_from && sp_is_kw(p, KW_FROM))
        SP_TRY(sp_from_clause(p, &sel->from));
    if (sp_accept_kw(p, KW_WHERE))
        SP_TRY(sp_expr(p, &sel->where));
    SP_TRY(sel_group_by(p, sel));
    if (sp_accept_kw(p, KW_HAVING))
        SP_TRY(sp_expr(p, &sel->having));
    return sp_window_clause(p, sel);
}

int sp_select_tail(SqlParser *p, AstSelect *sel)
{
    return sel_tail(p, sel);
}

/* A SELECT block, or a parenthesized query (*parens set). */
static int query_term(SqlParser *p, AstSelect **out, bool *parens)
{
    const SqlToken *t = sp_peek(p, 0);
    int rc;
    *parens = t->kind == SQL_TK_LPAREN;
    if (!*parens) {
        if (!(*out = sel_new(p, sp_pos(t))))
            return COMB_ENOMEM;
        return sp_select_block(p, *out, true);
    }
    sp_next(p);
    SP_TRY(sp_enter(p));
    rc = sp_select(p, out);
    sp_leave(p);
    return rc ? rc : sp_expect(p, SQL_TK_RPAREN, "')'");
}

static bool setop_at(SqlParser *p, AstSetOpKind *kind)
{
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind != SQL_TK_WORD)
        return false;
    switch (t->kw) {
    case KW_UNION: *kind = AST_SETOP_UNION; return true;
    case KW_INTERSECT: *kind = AST_SETOP_INTERSECT; return true;
    case KW_EXCEPT:
    case KW_MINUS: *kind = AST_SETOP_EXCEPT; return true;
    default: return false;
    }
}

/* term (setop [ALL | DISTINCT] term)* [ORDER BY ...] [SORT BY ...]
 * [LIMIT ...]: left-deep, one precedence, as Hive. */
static int query_expr(SqlParser *p, AstSelect **out)
{
    AstSetOpKind kind;
    bool parens, right_parens;
    SP_TRY(query_term(p, out, &parens));
    while (setop_at(p, &kind)) {
        SqlToken t = sp_next(p);
        AstSelect *node = sel_new(p, (*out)->pos);
        if (!node)
            return COMB_ENOMEM;
        node->setop = kind;
        node->setop_pos = sp_pos(&t);
        if (!sp_accept_kw(p, KW_ALL))
            sp_accept_kw(p, KW_DISTINCT);
        else
            node->setop_all = true;
        node->setop_left = *out;
        SP_TRY(query_term(p, &node->setop_right, &right_parens));
        *out = node;
        parens = false;
    }
    if (!at_tail(p))
        return COMB_OK;
    if (parens && has_tail(*out))
        return sp_unsupported(p, sp_peek(p, 0),
                              "ORDER BY, SORT BY or LIMIT after a "
                              "parenthesized query with its own");
    return sel_tail(p, *out);
}

/* ------------------------------------------------------------------ WITH */

/* name AS ( query ) */
static int cte_item(SqlParser *p, void *ctes)
{
    AstCte cte = {0};
    int rc;
    SP_TRY(sp_ident(p, &cte.name, &cte.pos));
    if (sp_is(p, SQL_TK_LPAREN))
        return sp_unsupported(p, sp_peek(p, 0), "a column list of a WITH query");
    SP_TRY(sp_expect_kw(p, KW_AS));
    SP_TRY(sp_expect(p, SQL_TK_LPAREN, "'('"));
    SP_TRY(sp_enter(p));
    rc = sp_select(p, &cte.query);
    sp_leave(p);
    if (rc)
        return rc;
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    return sp_vec_push(p, ctes, &cte, sizeof cte);
}

int sp_with(SqlParser *p, int *n, AstCte **ctes)
{
    SqlVec v = {0};
    SP_TRY(sp_expect_kw(p, KW_WITH));
    SP_TRY(sp_list(p, false, cte_item, &v));
    *n = v.n;
    *ctes = v.data;
    return COMB_OK;
}

/* Names of an outer WITH before the query's own (a later name hides an
 * earlier one of the same spelling). */
int sp_attach_with(SqlParser *p, AstSelect *q, int n, AstCte *ctes)
{
    AstCte *all;
    if (!n)
        return COMB_OK;
    if (!(all = sp_alloc(p, (size_t)(n + q->n_with) * sizeof *all)))
        return COMB_ENOMEM;
    memcpy(all, ctes, (size_t)n * sizeof *all);
    if (q->n_with)
        memcpy(all + n, q->with, (size_t)q->n_with * sizeof *all);
    q->with = all;
    q->n_with += n;
    return COMB_OK;
}

int sp_select(SqlParser *p, AstSelect **out)
{
    AstCte *ctes = NULL;
    int n = 0;
    if (sp_is_kw(p, KW_WITH))
        SP_TRY(sp_with(p, &n, &ctes));
    if (!sp_is_kw(p, KW_SELECT) && !sp_is(p, SQL_TK_LPAREN))
        return sp_error(p, sp_peek(p, 0), "missing SELECT");
    SP_TRY(query_expr(p, out));
    return sp_attach_with(p, *out, n, ctes);
}
