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

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Hive's DEFAULT_MAX_LEN: the longest default text the metastore keeps;
 * CONSTRAINT_MAX_LENGTH: the longest constraint name. */
#define DEFAULT_MAX_LEN 255
#define CONSTRAINT_MAX_LENGTH 255

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

/* The first part of e of one of the n_kinds kinds; subqueries and
 * windows count as AST_SUBQUERY. */
static const AstExpr *find_part(const AstExpr *e, const AstExprKind *kinds,
                                int n_kinds)
{
    const AstExpr *bad;
    if (!e)
        return NULL;
    for (int k = 0; k < n_kinds; k++)
        if (e->kind == kinds[k] ||
            (kinds[k] == AST_SUBQUERY && (e->query || e->over)))
            return e;
    if ((bad = find_part(e->left, kinds, n_kinds)) ||
        (bad = find_part(e->right, kinds, n_kinds)) ||
        (bad = find_part(e->third, kinds, n_kinds)))
        return bad;
    for (int i = 0; i < e->n_args; i++)
        if ((bad = find_part(e->args[i], kinds, n_kinds)))
            return bad;
    return NULL;
}

/* A column reference: Hive types the DEFAULT without a row, so a column
 * is no value at all ("Invalid Default value!"). */
static const AstExpr *column_part(const AstExpr *e)
{
    static const AstExprKind kinds[] = {AST_COLREF, AST_FIELD, AST_STAR};
    return find_part(e, kinds, 3);
}

/* Hive's isDefaultValueAllowed: constants and functions of them (casts
 * included); no subquery or window. */
static const AstExpr *disallowed_part(const AstExpr *e)
{
    static const AstExprKind kinds[] = {AST_SUBQUERY, AST_EXISTS};
    return find_part(e, kinds, 2);
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
    if (column_part(value))
        return sql_err_at(err, COMB_ESEMANTIC, 10326, column_part(value)->pos,
                          "Invalid Constraint syntax Invalid Default value!");
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

/* The name of a DEFAULT constraint written without one, formed as Hive's
 * metastore forms it (generateConstraintName: a hash of the table and
 * column, the time in milliseconds, a counter). */
static char *generated_name(SqlStmtCtx *c, const char *db, const char *table,
                            const char *column)
{
    char buf[128];
    struct timespec ts;
    uint32_t h = 0;
    const char *parts[] = {db, table, column};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        for (const char *p = parts[i]; *p; p++)
            h = h * 31 + (uint8_t)*p;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(buf, sizeof buf, "dc_%u_%lld_0", h & 0xfffffffu,
             (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
    return comb_arena_strdup(c->arena, buf);
}

int sql_default_build(SqlStmtCtx *c, const AstColumnDef *cd, const char *db,
                      const char *table, bool external, MsColumn *col,
                      CombErr *err)
{
    int rc;
    if (!cd->default_value)
        return COMB_OK;
    if (cd->default_disabled)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, cd->default_value->pos,
                          "a DISABLE'd DEFAULT constraint is not supported: "
                          "drop DISABLE (comb keeps enabled DEFAULTs only)");
    if (cd->default_validate)
        return sql_err_at(err, COMB_ESEMANTIC, 10326, cd->default_value->pos,
                          "Invalid Constraint syntax VALIDATE feature not "
                          "supported yet. Please use NOVALIDATE instead.");
    if (external)
        return sql_err_at(err, COMB_ESEMANTIC, 10326, cd->default_value->pos,
                          "Invalid Constraint syntax Constraints are "
                          "disallowed with External tables. Only RELY is "
                          "allowed.");
    if (cd->default_name && strlen(cd->default_name) > CONSTRAINT_MAX_LENGTH)
        return sql_err_at(err, COMB_ESEMANTIC, 10326, cd->pos,
                          "Invalid Constraint syntax Constraint name: %s "
                          "exceeded maximum allowed length: %d",
                          cd->default_name, CONSTRAINT_MAX_LENGTH);
    if ((rc = sql_default_check(c, cd->default_value, cd->type.type, err)))
        return rc;
    col->default_value = cd->default_value->text;
    col->default_name = cd->default_name
                            ? cd->default_name
                            : generated_name(c, db, table, cd->name);
    return col->default_name ? COMB_OK : comb_err_nomem(err);
}
