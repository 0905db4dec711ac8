/*
 * parse_dml.c - SELECT, INSERT, UPDATE and DELETE.
 *
 * A SELECT reads one table or view, or a subquery in FROM (or nothing):
 * joins, subqueries in expressions, set operations, windows and the
 * Hive-only SORT/DISTRIBUTE/CLUSTER BY clauses are recognised only to be
 * refused with COMB_EUNSUPPORTED.
 */
#include "sql/parse_int.h"

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
    case KW_CLUSTER:
    case KW_DISTRIBUTE:
    case KW_SORT:
        if (sp_is_kw_at(p, 1, KW_BY))
            return sp_unsupported(p, t, "%s BY", sql_keyword_name(t->kw));
        return COMB_OK;
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

int sp_select(SqlParser *p, AstSelect **out)
{
    SqlVec items = {0};
    AstSelect *sel = sp_alloc(p, sizeof *sel);
    if (!sel)
        return COMB_ENOMEM;
    sel->limit = -1;
    *out = sel;
    SP_TRY(sp_expect_kw(p, KW_SELECT));
    if (!sp_accept_kw(p, KW_ALL))
        sel->distinct = sp_accept_kw(p, KW_DISTINCT);
    SP_TRY(sp_list(p, false, sel_item, &items));
    sel->n_items = items.n;
    sel->items = items.data;
    SP_TRY(sel_from(p, sel));
    if (sp_accept_kw(p, KW_WHERE))
        SP_TRY(sp_expr(p, &sel->where));
    SP_TRY(sel_group_by(p, sel));
    if (sp_accept_kw(p, KW_HAVING))
        SP_TRY(sp_expr(p, &sel->having));
    SP_TRY(sel_refuse_tail(p));
    SP_TRY(sel_order_by(p, sel));
    SP_TRY(sel_refuse_tail(p));
    SP_TRY(sel_limit(p, sel));
    return sel_refuse_tail(p);
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

int sp_insert(SqlParser *p, AstStmt *s)
{
    s->kind = AST_INSERT;
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
    return ins_source(p, s);
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
