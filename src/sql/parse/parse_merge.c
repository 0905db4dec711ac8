/*
 * parse_merge.c - MERGE INTO target [[AS] alias] USING source ON cond
 * WHEN ... clauses (Hive's grammar: any number of WHEN MATCHED clauses,
 * then at most one WHEN NOT MATCHED, always last).  The limits on the
 * number and kinds of WHEN MATCHED clauses are semantic errors in Hive
 * (they carry the statement text), checked by exec_merge.c.
 */
#include "sql/parse/parse_int.h"

/* THEN UPDATE SET col = expr, ... | THEN DELETE */
static int matched_action(SqlParser *p, AstMergeClause *cl)
{
    SqlVec assignments = {0};
    if (sp_accept_kw(p, KW_DELETE)) {
        cl->action = AST_MERGE_DELETE;
        return COMB_OK;
    }
    if (!sp_accept_kw(p, KW_UPDATE))
        return sp_error(p, sp_peek(p, 0), "missing UPDATE or DELETE");
    SP_TRY(sp_expect_kw(p, KW_SET));
    SP_TRY(sp_list(p, false, sp_assignment, &assignments));
    cl->action = AST_MERGE_UPDATE;
    cl->n_assignments = assignments.n;
    cl->assignments = assignments.data;
    return COMB_OK;
}

/* THEN INSERT [(col, ...)] VALUES (expr, ...) */
static int not_matched_action(SqlParser *p, AstMergeClause *cl)
{
    SqlVec values = {0};
    SP_TRY(sp_expect_kw(p, KW_INSERT));
    if (sp_is(p, SQL_TK_LPAREN)) {
        SpInsertCols cols = {{0}, {0}};
        SP_TRY(sp_list(p, true, sp_insert_column, &cols));
        cl->n_insert_cols = cols.names.n;
        cl->insert_cols = cols.names.data;
        cl->insert_col_pos = cols.positions.data;
    }
    cl->values_pos = sp_pos(sp_peek(p, 0));
    SP_TRY(sp_expect_kw(p, KW_VALUES));
    SP_TRY(sp_list(p, true, sp_expr_item, &values));
    cl->action = AST_MERGE_INSERT;
    cl->n_values = values.n;
    cl->values = values.data;
    return COMB_OK;
}

/* WHEN [NOT] MATCHED [AND cond] THEN action */
static int when_clause(SqlParser *p, AstMergeClause *cl, bool *not_matched)
{
    cl->pos = sp_pos(sp_peek(p, 0));
    SP_TRY(sp_expect_kw(p, KW_WHEN));
    *not_matched = sp_accept_kw(p, KW_NOT);
    SP_TRY(sp_expect_word(p, "matched"));
    if (sp_accept_kw(p, KW_AND))
        SP_TRY(sp_expr(p, &cl->cond));
    SP_TRY(sp_expect_kw(p, KW_THEN));
    return *not_matched ? not_matched_action(p, cl) : matched_action(p, cl);
}

static int when_clauses(SqlParser *p, AstMerge *m)
{
    SqlVec clauses = {0};
    bool seen_not_matched = false;
    if (!sp_is_kw(p, KW_WHEN))
        return sp_error(p, sp_peek(p, 0), "missing WHEN");
    while (sp_is_kw(p, KW_WHEN)) {
        AstMergeClause cl = {0};
        bool not_matched;
        if (seen_not_matched)
            return sp_error(p, sp_peek(p, 0),
                            "missing EOF: WHEN NOT MATCHED must be the last "
                            "WHEN clause");
        SP_TRY(when_clause(p, &cl, &not_matched));
        seen_not_matched = not_matched;
        SP_TRY(sp_vec_push(p, &clauses, &cl, sizeof cl));
    }
    m->n_clauses = clauses.n;
    m->clauses = clauses.data;
    return COMB_OK;
}

int sp_merge(SqlParser *p, AstStmt *s)
{
    AstMerge *m = sp_alloc(p, sizeof *m);
    if (!m)
        return COMB_ENOMEM;
    s->kind = AST_MERGE;
    s->merge = m;
    sp_next(p);
    SP_TRY(sp_expect_kw(p, KW_INTO));
    SP_TRY(sp_name(p, &s->name));
    SP_TRY(sp_alias(p, &m->alias));
    if (!m->alias)
        m->alias = s->name.name;
    SP_TRY(sp_expect_kw(p, KW_USING));
    SP_TRY(sp_from_item(p, &m->source));
    m->on_pos = sp_pos(sp_peek(p, 0));
    SP_TRY(sp_expect_kw(p, KW_ON));
    SP_TRY(sp_expr(p, &m->on));
    return when_clauses(p, m);
}
