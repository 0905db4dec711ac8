/*
 * parse_dml.c - INSERT, UPDATE, DELETE, Hive's FROM-first statements
 * (FROM t SELECT ..., FROM t INSERT ... SELECT ... INSERT ...) and WITH
 * in front of them.  Queries themselves are parse_query.c's.
 */
#include "sql/parse/parse_int.h"

/* ---------------------------------------------------------------- INSERT */

int sp_insert_column(SqlParser *p, void *ctx)
{
    SpInsertCols *cols = ctx;
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
    if (t->kind == SQL_TK_WORD && (t->kw == KW_SELECT || t->kw == KW_WITH))
        return sp_select(p, &s->select);
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
        SpInsertCols cols = {{0}, {0}};
        if (sp_is_kw_at(p, 1, KW_SELECT))
            return sp_unsupported(p, sp_peek(p, 1), "a parenthesized query");
        SP_TRY(sp_list(p, true, sp_insert_column, &cols));
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

/* A SELECT body of a FROM statement: it reads the statement's FROM
 * items. */
static int from_body(SqlParser *p, AstFrom *from, AstSelect **out)
{
    AstSelect *sel = sp_alloc(p, sizeof *sel);
    if (!sel)
        return COMB_ENOMEM;
    sel->limit = -1;
    sel->pos = sp_pos(sp_peek(p, 0));
    sel->from = from;
    *out = sel;
    SP_TRY(sp_select_block(p, sel, false));
    return sp_select_tail(p, sel);
}

/* One INSERT clause: an INSERT statement of its own. */
static int from_insert(SqlParser *p, AstFrom *from, void *inserts)
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

/* Hive's FROM items SELECT ... and FROM items INSERT ... SELECT ...
 * [INSERT ... SELECT ...]... (a multi-insert). */
int sp_from(SqlParser *p, AstStmt *s)
{
    AstFrom *from;
    SqlVec inserts = {0};
    SP_TRY(sp_from_clause(p, &from));
    if (sp_is_kw(p, KW_SELECT)) {
        s->kind = AST_SELECT;
        SP_TRY(from_body(p, from, &s->select));
        if (sp_is_kw(p, KW_SELECT) || sp_is_kw(p, KW_INSERT))
            return sp_unsupported(p, sp_peek(p, 0),
                                  "a FROM statement with a SELECT and "
                                  "further clauses");
        return COMB_OK;
    }
    if (!sp_is_kw(p, KW_INSERT))
        return sp_error(p, sp_peek(p, 0), "missing INSERT or SELECT");
    while (sp_is_kw(p, KW_INSERT))
        SP_TRY(from_insert(p, from, &inserts));
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

/* WITH name AS (query), ... then SELECT, INSERT or a FROM statement: the
 * names are visible in every query of the statement. */
int sp_with_statement(SqlParser *p, AstStmt *s)
{
    AstCte *ctes;
    int n;
    SP_TRY(sp_with(p, &n, &ctes));
    if (sp_is_kw(p, KW_SELECT) || sp_is(p, SQL_TK_LPAREN)) {
        s->kind = AST_SELECT;
        SP_TRY(sp_select(p, &s->select));
        return sp_attach_with(p, s->select, n, ctes);
    }
    if (sp_is_kw(p, KW_INSERT))
        SP_TRY(sp_insert(p, s));
    else if (sp_is_kw(p, KW_FROM))
        SP_TRY(sp_from(p, s));
    else
        return sp_error(p, sp_peek(p, 0), "missing SELECT, INSERT or FROM");
    if (s->kind == AST_MULTI_INSERT) {
        for (int i = 0; i < s->multi->n; i++)
            SP_TRY(sp_attach_with(p, s->multi->inserts[i]->select, n, ctes));
        return COMB_OK;
    }
    if (s->kind == AST_SELECT || s->select)
        return sp_attach_with(p, s->select, n, ctes);
    return sp_error(p, sp_peek(p, 0), "WITH needs a query");
}

/* ------------------------------------------------------- UPDATE, DELETE */

/* column = expr */
int sp_assignment(SqlParser *p, void *assignments)
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
    SP_TRY(sp_list(p, false, sp_assignment, &assignments));
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
