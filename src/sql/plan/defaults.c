/*
 * defaults.c - DEFAULT constraints of table columns (Hive 3+): the checks
 * CREATE TABLE makes of a column's DEFAULT (Hive's ConstraintsUtils), the
 * value a column gets when an INSERT column list leaves it out, and the
 * DEFAULT keyword as a value in INSERT ... VALUES, UPDATE SET and MERGE.
 *
 * The metastore keeps the expression as written (Hive's DEFAULT_VALUE);
 * each use parses it again, so it binds as it did at CREATE TABLE time.
 */
#include "sql/plan/plan.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Hive's DEFAULT_MAX_LEN: the longest default text the metastore keeps. */
#define DEFAULT_MAX_LEN 255

bool sql_is_default_keyword(const AstExpr *e)
{
    /* Hive recognises the keyword as a lone column reference of that name
     * (its rewrite of TOK_TABLE_OR_COL "default"), never inside an
     * expression */
    return e && e->kind == AST_COLREF && !e->qualifier && e->name &&
           strcasecmp(e->name, "default") == 0;
}

static AstExpr *null_literal(SqlStmtCtx *c, AstPos pos)
{
    AstExpr *e = comb_arena_calloc(c->arena, sizeof *e);
    if (e) {
        e->kind = AST_LIT_NULL;
        e->pos = pos;
        e->text = "NULL";
        e->height = 1;
    }
    return e;
}

const char *sql_column_default_text(const SqlTable *t, int col)
{
    return col >= 0 && col < t->n_data && t->ms && col < t->ms->n_cols
               ? t->ms->cols[col].default_value : NULL;
}

int sql_column_default(SqlStmtCtx *c, const SqlTable *t, int col, AstPos pos,
                       AstExpr **out, CombErr *err)
{
    const char *text = sql_column_default_text(t, col);
    int rc;
    if (!text)
        return (*out = null_literal(c, pos)) ? COMB_OK : comb_err_nomem(err);
    rc = sql_parse_expression(text, strlen(text), c->arena, out, err);
    if (rc)
        comb_err_prefix(err, "DEFAULT of column %s.%s", t->qualified,
                        t->names[col]);
    return rc;
}

int sql_value_or_default(SqlStmtCtx *c, const SqlTable *t, int col,
                         AstExpr *e, AstExpr **out, CombErr *err)
{
    if (!sql_is_default_keyword(e)) {
        *out = e;
        return COMB_OK;
    }
    return sql_column_default(c, t, col, e->pos, out, err);
}

/* Hive's isDefaultValueAllowed: constants and functions of them (casts
 * included); no column, subquery or window. */
static const AstExpr *disallowed_part(const AstExpr *e)
{
    const AstExpr *bad;
    if (!e)
        return NULL;
    switch (e->kind) {
    case AST_COLREF: case AST_FIELD: case AST_STAR: case AST_SUBQUERY:
    case AST_EXISTS:
        return e;
    default:
        break;
    }
    if (e->query || e->over)
        return e;
    if ((bad = disallowed_part(e->left)) || (bad = disallowed_part(e->right)) ||
        (bad = disallowed_part(e->third)))
        return bad;
    for (int i = 0; i < e->n_args; i++)
        if ((bad = disallowed_part(e->args[i])))
            return bad;
    return NULL;
}

static int invalid_constraint(CombErr *err, AstPos pos, const char *fmt,
                              const char *a, const char *b, const char *d)
{
    char why[1024];
    snprintf(why, sizeof why, fmt, a, b, d);
    return sql_err_at(err, COMB_ESEMANTIC, 10326, pos,
                      "Invalid Constraint syntax %s", why);
}

int sql_default_check(SqlStmtCtx *c, const AstExpr *value,
                      const CombType *col_type, CombErr *err)
{
    static const SqlScope no_table = {NULL, NULL, -1};
    const char *text = value->text;
    const char *want, *got;
    BoundExpr *e;
    int rc;
    if (strlen(text) > DEFAULT_MAX_LEN)
        return invalid_constraint(err, value->pos,
                                  "Invalid Default value:  %s .Maximum "
                                  "character length allowed is %s .", text,
                                  "255", NULL);
    if (disallowed_part(value))
        return invalid_constraint(err, value->pos,
                                  "Invalid Default value: %s. DEFAULT only "
                                  "allows constant or function expressions",
                                  text, NULL, NULL);
    if ((rc = sql_bind_expr(c, &no_table, value, &e, err)))
        return rc;
    /* Hive wants the value's type to be the column's exactly; DEFAULT
     * NULL suits every column */
    if (e->type == COMB_T_NULL)
        return COMB_OK;
    got = sql_bx_type_text(c, e);
    want = sql_type_text(c, col_type);
    if (!got || !want)
        return comb_err_nomem(err);
    if (strcmp(got, want) != 0)
        return invalid_constraint(err, value->pos,
                                  "Invalid type: %s for default value: %s. "
                                  "Please make sure that the type is "
                                  "compatible with column type: %s",
                                  got, text, want);
    return COMB_OK;
}
