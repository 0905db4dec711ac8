/*
 * parse_dml.c - SELECT, INSERT, UPDATE, DELETE, and Hive's FROM-first
 * statements (FROM t SELECT ..., FROM t INSERT ... SELECT ... INSERT ...).
 *
 * A SELECT reads one table or view, or a subquery in FROM (or nothing):
 * joins, subqueries in expressions, set operations and windows are
 * recognised only to be refused with COMB_EUNSUPPORTED.  Its clauses come
 * in Hive's order: WHERE, GROUP BY, HAVING, ORDER BY, CLUSTER BY,
 * DISTRIBUTE BY, SORT BY, LIMIT.
 */
#include "sql/parse/parse_int.h"

/* ---------------------------------------------------------------- SELECT */

/* *, t.*, or expr [[AS] alias] */
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
        SP_TRY(sp_alias(p, &it.alias));
    }
    return sp_vec_push(p, items, &it, sizeof it);
}

static bool is_join_start(const SqlToken *t)
{
    static const SqlKeyword kws[] = {KW_JOIN, KW_LEFT, KW_RIGHT, KW_FULL,
                                     KW_INNER, KW_CROSS};
    if (t->kind == SQL_TK_COMMA)
        return true;
    for (size_t i = 0; t->kind == SQL_TK_WORD && i < sizeof kws / sizeof *kws;
         i++)
        if (t->kw == kws[i])
            return true;
    return false;
}

/* ( query ) [AS] alias: Hive requires the alias.  Nesting counts towards
 * the parser's depth limit, so any query it accepts can be bound and run
 * without exhausting the stack. */
static int sel_subquery(SqlParser *p, AstSelect *sel)
{
    const SqlToken *t;
    sp_next(p);
    SP_TRY(sp_enter(p));
    if (sp_is_kw(p, KW_WITH))
        return sp_unsupported(p, sp_peek(p, 0), "WITH");
    if (!sp_is_kw(p, KW_SELECT))
        return sp_error(p, sp_peek(p, 0), "cannot recognize input in subquery source");
    SP_TRY(sp_select(p, &sel->from_query));
    sp_leave(p);
    SP_TRY(sp_expect(p, SQL_TK_RPAREN, "')'"));
    t = sp_peek(p, 0);
    SP_TRY(sp_alias(p, &sel->from_alias));
    if (!sel->from_alias)
        return sp_error(p, t, "missing alias of the subquery in FROM");
    return COMB_OK;
}

/* [FROM [db.]t [[AS] alias] | FROM (query) [AS] alias] */
static int sel_from(SqlParser *p, AstSelect *sel)
{
    if (!sp_accept_kw(p, KW_FROM))
        return COMB_OK;
    sel->has_from = true;
    if (sp_is(p, SQL_TK_LPAREN))
        SP_TRY(sel_subquery(p, sel));
    else
        SP_TRY(sp_name(p, &sel->from));
    if (sp_is_kw(p, KW_TABLESAMPLE))
        return sp_unsupported(p, sp_peek(p, 0), "TABLESAMPLE");
    if (!sel->from_query)
        SP_TRY(sp_alias(p, &sel->from_alias));
    const SqlToken *t = sp_peek(p, 0);
    if (is_join_start(t))
        return sp_unsupported(p, t, "JOIN");
    if (t->kind == SQL_TK_WORD && t->kw == KW_LATERAL)
        return sp_unsupported(p, t, "LATERAL VIEW");
    return COMB_OK;
}

static int sel_group_by(SqlParser *p, AstSelect *sel)
{
    SqlVec keys = {0};
    if (!sp_accept_kw(p, KW_GROUP))
        return COMB_OK;
    SP_TRY(sp_expect_kw(p, KW_BY));
    if (sp_is_kw(p, KW_ROLLUP) || sp_is_kw(p, KW_CUBE))
        return sp_unsupported(p, sp_peek(p, 0), "GROUP BY ROLLUP/CUBE");
    SP_TRY(sp_list(p, false, sp_expr_item, &keys));
    sel->n_group_by = keys.n;
    sel->group_by = keys.data;
    if (sp_is_kw(p, KW_WITH) || sp_is_kw(p, KW_GROUPING))
        return sp_unsupported(p, sp_peek(p, 0),
                              "WITH ROLLUP/CUBE and GROUPING SETS");
    return COMB_OK;
}

/* expr [ASC|DESC] [NULLS FIRST|LAST] */
static int sel_order_item(SqlParser *p, void *items)
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
    SP_TRY(sp_list(p, false, sel_order_item, &items));
    sel->n_order_by = items.n;
    sel->order_by = items.data;
    return COMB_OK;
}

static int sel_limit(SqlParser *p, AstSelect *sel)
{
    if (!sp_accept_kw(p, KW_LIMIT))
        return COMB_OK;
    SP_TRY(sp_int(p, 0, INT64_MAX, "LIMIT row count", &sel->limit));
    if (sp_is(p, SQL_TK_COMMA) || sp_is_kw(p, KW_OFFSET))
        return sp_unsupported(p, sp_peek(p, 0), "LIMIT with an offset");
    return COMB_OK;
}

/* Clauses Hive accepts after the ones above, which comb refuses. */
static int sel_refuse_tail(SqlParser *p)
{
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind != SQL_TK_WORD)
        return COMB_OK;
    switch (t->kw) {
    case KW_UNION:
    case KW_INTERSECT:
    case KW_EXCEPT:
    case KW_MINUS:
        return sp_unsupported(p, t, "%s", sql_keyword_name(t->kw));
    case KW_WINDOW:
        return sp_unsupported(p, t, "WINDOW");
    default:
        return COMB_OK;
    }
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
    SP_TRY(sp_list(p, sp_is(p, SQL_TK_LPAREN), sel_order_item, &items));
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

/* After SELECT: the items, FROM (unless the statement gave it first) and
 * the other clauses. */
static int sel_body(SqlParser *p, AstSelect *sel, bool with_from)
{
    SqlVec items = {0};
    SP_TRY(sp_expect_kw(p, KW_SELECT));
    if (!sp_accept_kw(p, KW_ALL))
        sel->distinct = sp_accept_kw(p, KW_DISTINCT);
    SP_TRY(sp_list(p, false, sel_item, &items));
    sel->n_items = items.n;
    sel->items = items.data;
    if (with_from)
        SP_TRY(sel_from(p, sel));
    if (sp_accept_kw(p, KW_WHERE))
        SP_TRY(sp_expr(p, &sel->where));
    SP_TRY(sel_group_by(p, sel));
    if (sp_accept_kw(p, KW_HAVING))
        SP_TRY(sp_expr(p, &sel->having));
    SP_TRY(sel_refuse_tail(p));
    SP_TRY(sel_order_by(p, sel));
    SP_TRY(sel_refuse_tail(p));
    SP_TRY(sel_sort_clauses(p, sel));
    SP_TRY(sel_limit(p, sel));
    return sel_refuse_tail(p);
}

static AstSelect *sel_new(SqlParser *p)
{
    AstSelect *sel = sp_alloc(p, sizeof *sel);
    if (sel)
        sel->limit = -1;
    return sel;
}

int sp_select(SqlParser *p, AstSelect **out)
{
    if (!(*out = sel_new(p)))
        return COMB_ENOMEM;
    return sel_body(p, *out, true);
}

/* ---------------------------------------------------------------- INSERT */

typedef struct InsertCols {
    SqlVec names;
    SqlVec positions;
} InsertCols;

static int ins_column(SqlParser *p, void *ctx)
{
    InsertCols *cols = ctx;
    char *name;
    AstPos pos;
    SP_TRY(sp_ident(p, &name, &pos));
    SP_TRY(sp_vec_push(p, &cols->names, &name, sizeof name));
    return sp_vec_push(p, &cols->positions, &pos, sizeof pos);
}

typedef struct InsertRows {
    SqlVec rows;     /* AstExpr ** per row */
    SqlVec widths;   /* int per row */
} InsertRows;

/* ( expr, ... ) */
static int ins_row(SqlParser *p, void *ctx)
{
    InsertRows *rows = ctx;
    SqlVec values = {0};
    SP_TRY(sp_list(p, true, sp_expr_item, &values));
    SP_TRY(sp_vec_push(p, &rows->rows, &values.data, sizeof values.data));
    return sp_vec_push(p, &rows->widths, &values.n, sizeof values.n);
}

/* INTO [TABLE] | OVERWRITE TABLE */
static int ins_target(SqlParser *p, AstStmt *s)
{
    if (sp_accept_kw(p, KW_OVERWRITE)) {
        s->overwrite = true;
        if (sp_is_kw(p, KW_LOCAL) || sp_is_kw(p, KW_DIRECTORY))
            return sp_unsupported(p, sp_peek(p, 0),
                                  "INSERT OVERWRITE DIRECTORY");
        SP_TRY(sp_expect_kw(p, KW_TABLE));
    } else {
        SP_TRY(sp_expect_kw(p, KW_INTO));
        sp_accept_kw(p, KW_TABLE);
    }
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        return sp_partition_spec(p, false, &s->part);
    return COMB_OK;
}

/* VALUES rows | SELECT ... */
static int ins_source(SqlParser *p, AstStmt *s)
{
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind == SQL_TK_WORD && t->kw == KW_SELECT)
        return sp_select(p, &s->select);
    if (t->kind == SQL_TK_WORD && t->kw == KW_WITH)
        return sp_unsupported(p, t, "WITH");
    if (t->kind == SQL_TK_WORD && t->kw == KW_VALUES) {
        InsertRows rows = {{0}, {0}};
        sp_next(p);
        SP_TRY(sp_list(p, false, ins_row, &rows));
        s->n_rows = rows.rows.n;
        s->rows = rows.rows.data;
        s->row_widths = rows.widths.data;
        return COMB_OK;
    }
    return sp_error(p, t, "missing VALUES or SELECT");
}

/* INSERT target [(col, ...)] */
static int ins_head(SqlParser *p, AstStmt *s)
{
    s->kind = AST_INSERT;
    s->pos = sp_pos(sp_peek(p, 0));
    sp_next(p);
    SP_TRY(ins_target(p, s));
    if (sp_is(p, SQL_TK_LPAREN)) {
        InsertCols cols = {{0}, {0}};
        if (sp_is_kw_at(p, 1, KW_SELECT))
            return sp_unsupported(p, sp_peek(p, 1), "a parenthesized query");
        SP_TRY(sp_list(p, true, ins_column, &cols));
        s->n_insert_cols = cols.names.n;
        s->insert_cols = cols.names.data;
        s->insert_col_pos = cols.positions.data;
    }
    return COMB_OK;
}

int sp_insert(SqlParser *p, AstStmt *s)
{
    SP_TRY(ins_head(p, s));
    return ins_source(p, s);
}

/* ------------------------------------------------ FROM-first statements */

/* A SELECT body of a FROM statement: it reads the statement's table. */
static int from_body(SqlParser *p, const AstSelect *from, AstSelect **out)
{
    AstSelect *sel = sel_new(p);
    if (!sel)
        return COMB_ENOMEM;
    sel->has_from = true;
    sel->from = from->from;
    sel->from_query = from->from_query;
    sel->from_alias = from->from_alias;
    *out = sel;
    return sel_body(p, sel, false);
}

/* One INSERT clause: an INSERT statement of its own. */
static int from_insert(SqlParser *p, const AstSelect *from, void *inserts)
{
    AstStmt *ins = sp_alloc(p, sizeof *ins);
    size_t start = sp_peek(p, 0)->off;
    if (!ins)
        return COMB_ENOMEM;
    ins->n_buckets = -1;
    SP_TRY(ins_head(p, ins));
    if (!sp_is_kw(p, KW_SELECT))
        return sp_error(p, sp_peek(p, 0), "missing SELECT");
    SP_TRY(from_body(p, from, &ins->select));
    if (!(ins->text = sp_text(p, start)))
        return COMB_ENOMEM;
    return sp_vec_push(p, inserts, &ins, sizeof ins);
}

/* Hive's FROM t [alias] SELECT ... and FROM t [alias] INSERT ... SELECT ...
 * [INSERT ... SELECT ...]... (a multi-insert). */
int sp_from(SqlParser *p, AstStmt *s)
{
    AstSelect from = {0};
    SqlVec inserts = {0};
    SP_TRY(sel_from(p, &from));
    if (sp_is_kw(p, KW_SELECT)) {
        s->kind = AST_SELECT;
        SP_TRY(from_body(p, &from, &s->select));
        if (sp_is_kw(p, KW_SELECT) || sp_is_kw(p, KW_INSERT))
            return sp_unsupported(p, sp_peek(p, 0),
                                  "a FROM statement with a SELECT and "
                                  "further clauses");
        return COMB_OK;
    }
    if (!sp_is_kw(p, KW_INSERT))
        return sp_error(p, sp_peek(p, 0), "missing INSERT or SELECT");
    while (sp_is_kw(p, KW_INSERT))
        SP_TRY(from_insert(p, &from, &inserts));
    if (sp_is_kw(p, KW_SELECT))
        return sp_unsupported(p, sp_peek(p, 0),
                              "a SELECT among the INSERT clauses of a FROM "
                              "statement");
    s->kind = AST_MULTI_INSERT;
    if (!(s->multi = sp_alloc(p, sizeof *s->multi)))
        return COMB_ENOMEM;
    s->multi->n = inserts.n;
    s->multi->inserts = inserts.data;
    return COMB_OK;
}

/* ------------------------------------------------------- UPDATE, DELETE */

/* column = expr */
static int upd_assignment(SqlParser *p, void *assignments)
{
    AstAssignment a = {0};
    SP_TRY(sp_ident(p, &a.column, &a.pos));
    SP_TRY(sp_expect(p, SQL_TK_EQ, "'='"));
    SP_TRY(sp_expr(p, &a.value));
    return sp_vec_push(p, assignments, &a, sizeof a);
}

static int dml_where(SqlParser *p, AstStmt *s)
{
    if (!sp_accept_kw(p, KW_WHERE))
        return COMB_OK;
    return sp_expr(p, &s->where);
}

int sp_update(SqlParser *p, AstStmt *s)
{
    SqlVec assignments = {0};
    s->kind = AST_UPDATE;
    sp_next(p);
    SP_TRY(sp_name(p, &s->name));
    SP_TRY(sp_expect_kw(p, KW_SET));
    SP_TRY(sp_list(p, false, upd_assignment, &assignments));
    s->n_assignments = assignments.n;
    s->assignments = assignments.data;
    return dml_where(p, s);
}

int sp_delete(SqlParser *p, AstStmt *s)
{
    s->kind = AST_DELETE;
    sp_next(p);
    SP_TRY(sp_expect_kw(p, KW_FROM));
    SP_TRY(sp_name(p, &s->name));
    return dml_where(p, s);
}
