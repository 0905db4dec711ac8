/*
 * parse_view.c - statements defined by a query: CREATE [OR REPLACE] VIEW,
 * DROP VIEW, ALTER VIEW ... AS, EXPLAIN, and the query
 * part of CREATE TABLE ... AS SELECT (the rest of CREATE TABLE, LIKE
 * included, is parse_ddl.c's).  The query's text as written is kept: a
 * view stores it.
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

/* A word that is no keyword of the table ("replace", "cbo"): Hive's
 * non-reserved words, identifiers everywhere else. */
static bool at_word(SqlParser *p, int k, const char *word)
{
    const SqlToken *t = sp_peek(p, k);
    size_t n = strlen(word);
    return t->kind == SQL_TK_WORD && t->len == n &&
           strncasecmp(p->src + t->off, word, n) == 0;
}

AstQueryDef *sp_query_def(SqlParser *p, AstStmt *s)
{
    if (!s->qdef)
        s->qdef = sp_alloc(p, sizeof *s->qdef);
    return s->qdef;
}

int sp_query(SqlParser *p, AstQueryDef *q)
{
    const SqlToken *t = sp_peek(p, 0);
    size_t start = t->off;
    q->query_pos = sp_pos(t);
    if (!(t->kind == SQL_TK_WORD && (t->kw == KW_SELECT || t->kw == KW_WITH)) &&
        !(t->kind == SQL_TK_LPAREN))
        return sp_error(p, t, "missing SELECT");
    SP_TRY(sp_select(p, &q->query));
    q->query_text = sp_text(p, start);
    return q->query_text ? COMB_OK : COMB_ENOMEM;
}

/* name [COMMENT 'text'] */
static int view_column(SqlParser *p, void *columns)
{
    AstColumnDef col = {0};
    SP_TRY(sp_ident(p, &col.name, &col.pos));
    SP_TRY(ddl_string_clause(p, KW_COMMENT, &col.comment));
    return sp_vec_push(p, columns, &col, sizeof col);
}

/* CREATE [OR REPLACE] VIEW [IF NOT EXISTS] [db.]v [(col [COMMENT ''], ...)]
 * [COMMENT ''] [TBLPROPERTIES (...)] AS query */
int sp_create_view(SqlParser *p, AstStmt *s)
{
    AstQueryDef *q = sp_query_def(p, s);
    if (!q)
        return COMB_ENOMEM;
    s->kind = AST_CREATE_VIEW;
    if (sp_accept_kw(p, KW_OR)) {
        if (!at_word(p, 0, "replace"))
            return sp_error(p, sp_peek(p, 0), "missing REPLACE");
        sp_next(p);
        q->or_replace = true;
    }
    SP_TRY(sp_expect_kw(p, KW_VIEW));
    SP_TRY(sp_if_exists(p, true, &s->if_not_exists));
    SP_TRY(sp_name(p, &s->name));
    if (sp_is(p, SQL_TK_LPAREN)) {
        SqlVec cols = {0};
        SP_TRY(sp_list(p, true, view_column, &cols));
        q->n_view_cols = cols.n;
        q->view_cols = cols.data;
    }
    SP_TRY(ddl_string_clause(p, KW_COMMENT, &s->comment));
    if (sp_is_kw(p, KW_PARTITIONED))
        return sp_unsupported(p, sp_peek(p, 0), "PARTITIONED ON for a view");
    if (sp_accept_kw(p, KW_TBLPROPERTIES))
        SP_TRY(sp_property_list(p, &s->n_props, &s->props));
    if (sp_is_kw(p, KW_STORED))
        return sp_unsupported(p, sp_peek(p, 0), "STORED BY for a view");
    SP_TRY(sp_expect_kw(p, KW_AS));
    return sp_query(p, q);
}

/* DROP VIEW [IF EXISTS] [db.]v */
int sp_drop_view(SqlParser *p, AstStmt *s)
{
    s->kind = AST_DROP_VIEW;
    SP_TRY(sp_expect_kw(p, KW_VIEW));
    SP_TRY(sp_if_exists(p, false, &s->if_exists));
    return sp_name(p, &s->name);
}

/* ALTER VIEW [db.]v AS query, at AS (parse_alter.c's sp_alter has read
 * the name; it parses every other ALTER VIEW form) */
int sp_alter_view_as(SqlParser *p, AstStmt *s)
{
    AstQueryDef *q = sp_query_def(p, s);
    if (!q)
        return COMB_ENOMEM;
    s->kind = AST_ALTER_VIEW;
    SP_TRY(sp_expect_kw(p, KW_AS));
    return sp_query(p, q);
}

/* EXPLAIN [EXTENDED|FORMATTED|CBO] SELECT | INSERT | FROM | UPDATE |
 * DELETE | MERGE | ALTER ... COMPACT | SHOW LOCKS | SHOW TRANSACTIONS |
 * SHOW COMPACTIONS ...:
 * every form prints comb's own plan. */
int sp_explain(SqlParser *p, AstStmt *s)
{
    AstQueryDef *q = sp_query_def(p, s);
    AstStmt *inner = sp_alloc(p, sizeof *inner);
    const SqlToken *t;
    if (!q || !inner)
        return COMB_ENOMEM;
    s->kind = AST_EXPLAIN;
    q->explained = inner;
    inner->n_buckets = -1;
    sp_next(p);
    if (!sp_accept_kw(p, KW_EXTENDED) && !sp_accept_kw(p, KW_FORMATTED) &&
        at_word(p, 0, "cbo"))
        sp_next(p);
    t = sp_peek(p, 0);
    inner->pos = sp_pos(t);
    if (t->kind != SQL_TK_WORD)
        return sp_error(p, t, "cannot recognize input");
    if (t->kw == KW_ALTER) {
        SqlToken at = *t;
        SP_TRY(sp_alter(p, inner));
        if (inner->kind != AST_ALTER_TABLE ||
            inner->alter->kind != AST_ALTER_COMPACT)
            return sp_unsupported(p, &at, "EXPLAIN of ALTER other than "
                                          "COMPACT");
        return COMB_OK;
    }
    if (t->kw == KW_MERGE)
        return sp_merge(p, inner);
    if (t->kw == KW_SHOW) {
        SqlToken at = *t;
        SP_TRY(sp_show(p, inner));
        if (inner->kind != AST_SHOW_LOCKS &&
            inner->kind != AST_SHOW_TRANSACTIONS &&
            inner->kind != AST_SHOW_COMPACTIONS)
            return sp_unsupported(p, &at, "EXPLAIN of SHOW other than "
                                          "LOCKS, TRANSACTIONS or "
                                          "COMPACTIONS");
        return COMB_OK;
    }
    if (!sp_at_dml(t))
        return sp_unsupported(p, t, "EXPLAIN %.*s", (int)t->len, p->src + t->off);
    return sp_dml(p, inner);
}
