/*
 * parse_catalog.c - the catalog statements: SHOW CREATE TABLE, SHOW
 * TBLPROPERTIES, SHOW [SORTED] COLUMNS, SHOW PARTITIONS, DESCRIBE (tables,
 * partitions, columns, databases), MSCK, and CREATE TABLE's storage
 * clauses ROW FORMAT SERDE and STORED AS INPUTFORMAT ... OUTPUTFORMAT.
 *
 * The words these statements add (COLUMNS, PARTITIONS, REPAIR, SYNC, ADD,
 * SERDEPROPERTIES, OUTPUTFORMAT) are none of Hive's reserved words, so
 * they are matched by spelling where the grammar expects them and stay
 * identifiers everywhere else.
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------- helpers */

/* The statement's AstCatalog, made on first use. */
static AstCatalog *catalog_of(SqlParser *p, AstStmt *s)
{
    if (!s->catalog && (s->catalog = sp_alloc(p, sizeof *s->catalog)))
        s->catalog->limit = -1;
    return s->catalog;
}

/* ------------------------------------------------ CREATE TABLE storage */

/* SERDE 'class' [WITH SERDEPROPERTIES ('k'='v', ...)], after ROW FORMAT. */
int sp_row_format_serde(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    if (!c)
        return COMB_ENOMEM;
    SP_TRY(sp_expect_kw(p, KW_SERDE));
    SP_TRY(sp_string(p, &c->serde, NULL));
    if (!sp_is_kw(p, KW_WITH) || !sp_is_word_at(p, 1, "serdeproperties"))
        return COMB_OK;
    sp_next(p);
    sp_next(p);
    return sp_property_list(p, &c->n_serde_props, &c->serde_props);
}

/* INPUTFORMAT 'class' OUTPUTFORMAT 'class', after STORED AS. */
int sp_stored_as_formats(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    if (!c)
        return COMB_ENOMEM;
    SP_TRY(sp_expect_kw(p, KW_INPUTFORMAT));
    SP_TRY(sp_string(p, &c->input_format, NULL));
    SP_TRY(sp_expect_word(p, "OUTPUTFORMAT"));
    SP_TRY(sp_string(p, &c->output_format, NULL));
    if (sp_is_word_at(p, 0, "inputdriver"))
        return sp_unsupported(p, sp_peek(p, 0), "INPUTDRIVER");
    return COMB_OK;
}

/* ---------------------------------------------------------------- SHOW */

/* SHOW CREATE TABLE name */
static int show_create(SqlParser *p, AstStmt *s)
{
    s->kind = AST_SHOW_CREATE_TABLE;
    sp_next(p);
    if (!sp_is_kw(p, KW_TABLE))
        return sp_unsupported(p, sp_peek(p, 0), "SHOW CREATE of anything "
                              "but a table or view");
    sp_next(p);
    return sp_name(p, &s->name);
}

/* SHOW TBLPROPERTIES name [('key')] */
static int show_tblproperties(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    if (!c)
        return COMB_ENOMEM;
    s->kind = AST_SHOW_TBLPROPERTIES;
    sp_next(p);
    SP_TRY(sp_name(p, &s->name));
    if (!sp_accept(p, SQL_TK_LPAREN))
        return COMB_OK;
    SP_TRY(sp_string(p, &c->prop_key, NULL));
    return sp_expect(p, SQL_TK_RPAREN, "')'");
}

static bool accept_from_or_in(SqlParser *p)
{
    return sp_accept_kw(p, KW_FROM) || sp_accept_kw(p, KW_IN);
}

/* SHOW [SORTED] COLUMNS (FROM|IN) name [(FROM|IN) db] [[LIKE] 'pattern'] */
static int show_columns(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    if (!c)
        return COMB_ENOMEM;
    s->kind = AST_SHOW_COLUMNS;
    c->sorted = sp_accept_kw(p, KW_SORTED);
    SP_TRY(sp_expect_word(p, "COLUMNS"));
    if (!accept_from_or_in(p))
        return sp_error(p, sp_peek(p, 0), "missing FROM or IN");
    SP_TRY(sp_name(p, &s->name));
    if (accept_from_or_in(p))
        SP_TRY(sp_ident(p, &c->db.name, &c->db.pos));
    if (sp_accept_kw(p, KW_LIKE) || sp_is(p, SQL_TK_STRING))
        return sp_string(p, &s->like_pattern, NULL);
    return COMB_OK;
}

/* A partition key to sort by: name [ASC|DESC]. */
static int order_key(SqlParser *p, void *items)
{
    AstOrderItem it = {0};
    SP_TRY(sp_expr(p, &it.expr));
    if (!sp_accept_kw(p, KW_ASC))
        it.desc = sp_accept_kw(p, KW_DESC);
    return sp_vec_push(p, items, &it, sizeof it);
}

/* SHOW PARTITIONS name [PARTITION (k='v', ...)] [WHERE cond]
 * [ORDER BY key [ASC|DESC], ...] [LIMIT n] */
static int show_partitions(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    SqlVec order = {0};
    if (!c)
        return COMB_ENOMEM;
    s->kind = AST_SHOW_PARTITIONS;
    sp_next(p);
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        SP_TRY(sp_partition_spec(p, true, &s->part));
    if (sp_accept_kw(p, KW_WHERE))
        SP_TRY(sp_expr(p, &c->where));
    if (sp_accept_kw(p, KW_ORDER)) {
        SP_TRY(sp_expect_kw(p, KW_BY));
        SP_TRY(sp_list(p, false, order_key, &order));
        c->n_order_by = order.n;
        c->order_by = order.data;
    }
    /* Hive keeps the limit in a short */
    if (sp_accept_kw(p, KW_LIMIT))
        SP_TRY(sp_int(p, 0, 32767, "LIMIT row count", &c->limit));
    return COMB_OK;
}

int sp_show_catalog(SqlParser *p, AstStmt *s, bool *handled)
{
    *handled = true;
    if (sp_is_kw(p, KW_CREATE))
        return show_create(p, s);
    if (sp_is_kw(p, KW_TBLPROPERTIES))
        return show_tblproperties(p, s);
    if (sp_is_word_at(p, 0, "columns") ||
        (sp_is_kw(p, KW_SORTED) && sp_is_word_at(p, 1, "columns")))
        return show_columns(p, s);
    if (sp_is_word_at(p, 0, "partitions"))
        return show_partitions(p, s);
    *handled = false;
    return COMB_OK;
}

/* ------------------------------------------------------------ DESCRIBE */

/* DESCRIBE DATABASE|SCHEMA [EXTENDED] name */
static int describe_database(SqlParser *p, AstStmt *s)
{
    s->kind = AST_DESCRIBE_DATABASE;
    sp_next(p);
    s->describe_extended = sp_accept_kw(p, KW_EXTENDED);
    return sp_ident(p, &s->name.name, &s->name.pos);
}

/* DESCRIBE FUNCTION [EXTENDED] f: f a name, a string, or an operator or
 * keyword that Hive's registry lists as a function (`+`, `and`, `case`). */
static int describe_function(SqlParser *p, AstStmt *s)
{
    const SqlToken *t;
    s->kind = AST_DESCRIBE_FUNCTION;
    sp_next(p);
    if (sp_accept_kw(p, KW_EXTENDED))
        s->describe_extended = true;
    t = sp_peek(p, 0);
    if (t->kind == SQL_TK_STRING)
        return sp_string(p, &s->func_name, NULL);
    if (t->kind == SQL_TK_QUOTED_ID)
        return sp_ident(p, &s->func_name, NULL);
    if (t->kind == SQL_TK_EOF || t->kind == SQL_TK_SEMI || t->kind == SQL_TK_ERROR ||
        t->kind == SQL_TK_LPAREN || t->kind == SQL_TK_RPAREN || t->kind == SQL_TK_COMMA)
        return sp_error(p, t, "cannot recognize input");
    if (!(s->func_name = sp_alloc(p, t->len + 1)))
        return COMB_ENOMEM;
    memcpy(s->func_name, p->src + t->off, t->len);
    sp_next(p);
    return COMB_OK;
}

/* DESCRIBE|DESC [EXTENDED|FORMATTED] [db.]t [PARTITION (k='v', ...)]
 * [column]  |  DESCRIBE DATABASE|SCHEMA [EXTENDED] db  |  DESCRIBE
 * FUNCTION [EXTENDED] f */
int sp_describe(SqlParser *p, AstStmt *s)
{
    const SqlToken *t;
    s->kind = AST_DESCRIBE;
    sp_next(p);
    if (sp_is_kw(p, KW_DATABASE) ||
        (sp_is_kw(p, KW_SCHEMA) &&
         (sp_is_ident_tok(sp_peek(p, 1)) || sp_is_kw_at(p, 1, KW_EXTENDED))))
        return describe_database(p, s);
    if (sp_is_kw(p, KW_FUNCTION))
        return describe_function(p, s);
    if (sp_accept_kw(p, KW_EXTENDED))
        s->describe_extended = true;
    else if (sp_accept_kw(p, KW_FORMATTED))
        s->describe_formatted = true;
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        SP_TRY(sp_partition_spec(p, true, &s->part));
    t = sp_peek(p, 0);
    if (sp_is_ident_tok(t)) {
        AstCatalog *c = catalog_of(p, s);
        if (!c)
            return COMB_ENOMEM;
        SP_TRY(sp_ident(p, &c->column, &c->column_pos));
        if (sp_is(p, SQL_TK_DOT))
            return sp_unsupported(p, sp_peek(p, 0),
                                  "DESCRIBE of a field inside a column");
    }
    return COMB_OK;
}

/* ------------------------------------------------------------- ANALYZE */

/* ANALYZE TABLE name [PARTITION (k[='v'], ...)] COMPUTE STATISTICS
 * [NOSCAN | FOR COLUMNS [c, ...]] */
int sp_analyze(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    SqlVec cols = {0};
    if (!c)
        return COMB_ENOMEM;
    s->kind = AST_ANALYZE;
    sp_next(p);
    SP_TRY(sp_expect_kw(p, KW_TABLE));
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        SP_TRY(sp_partition_spec(p, false, &s->part));
    SP_TRY(sp_expect_word(p, "compute"));
    SP_TRY(sp_expect_word(p, "statistics"));
    if (sp_accept_word(p, "noscan"))
        return COMB_OK;
    if (!sp_accept_word(p, "for"))
        return COMB_OK;
    SP_TRY(sp_expect_word(p, "columns"));
    c->for_columns = true;
    if (sp_is_ident_tok(sp_peek(p, 0)))
        SP_TRY(sp_list(p, false, sp_ident_item, &cols));
    c->columns = cols.data;
    c->n_columns = cols.n;
    return COMB_OK;
}

/* ---------------------------------------------------------------- MSCK */

/* MSCK [REPAIR] TABLE name [ADD|DROP|SYNC PARTITIONS] */
int sp_msck(SqlParser *p, AstStmt *s)
{
    AstCatalog *c = catalog_of(p, s);
    if (!c)
        return COMB_ENOMEM;
    s->kind = AST_MSCK;
    sp_next(p);
    c->repair = sp_accept_word(p, "repair");
    SP_TRY(sp_expect_kw(p, KW_TABLE));
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_word_at(p, 1, "partitions") &&
        (sp_is_kw(p, KW_DROP) || sp_is_word_at(p, 0, "sync") ||
         sp_is_word_at(p, 0, "add"))) {
        c->msck_mode = sp_is_kw(p, KW_DROP)        ? AST_MSCK_DROP
                       : sp_is_word_at(p, 0, "sync") ? AST_MSCK_SYNC
                                                  : AST_MSCK_ADD;
        sp_next(p);
        sp_next(p);
    }
    if (sp_is_kw(p, KW_PARTITION))
        return sp_unsupported(p, sp_peek(p, 0),
                              "MSCK with a partition filter");
    return COMB_OK;
}
