/*
 * parse_alter.c - ALTER TABLE, ALTER VIEW and TRUNCATE TABLE.
 *
 *   ALTER TABLE name [PARTITION (k = v, ...)] operation
 *   ALTER VIEW name RENAME TO name | SET|UNSET TBLPROPERTIES ...
 *   (ALTER VIEW name AS query is parse_view.c's)
 *   TRUNCATE [TABLE] name [PARTITION (k = v, ...)] [FORCE]
 *
 * The operations comb runs fill an AstAlter (ast.h); valid Hive forms it
 * does not run (SET FILEFORMAT, CLUSTERED BY, TOUCH, ARCHIVE,
 * EXCHANGE, constraints, ...) are refused as unsupported at their first
 * word, never silently dropped.  Whether an operation fits the table (a
 * view, a partition spec on an unpartitioned table, ...) is the executor's
 * business: only the grammar is checked here.
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

/* "ALTER TABLE <word>" refused at the current token. */
static int refuse_here(SqlParser *p, const char *what)
{
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind != SQL_TK_WORD)
        return sp_error(p, t, "cannot recognize input");
    return sp_unsupported(p, t, "%s %.*s", what, (int)t->len, p->src + t->off);
}

/* [CASCADE | RESTRICT] */
static void cascade_clause(SqlParser *p, AstAlter *a)
{
    if (!sp_accept_kw(p, KW_RESTRICT))
        a->cascade = sp_accept_kw(p, KW_CASCADE);
}

/* A key alone, or 'key' = 'value' whose value UNSET ignores (Hive's
 * grammar takes both forms). */
static int unset_key(SqlParser *p, void *keys)
{
    AstProperty prop = {0};
    char *ignored;
    SP_TRY(sp_string(p, &prop.key, NULL));
    if (sp_accept(p, SQL_TK_EQ))
        SP_TRY(sp_string(p, &ignored, NULL));
    return sp_vec_push(p, keys, &prop, sizeof prop);
}

/* SET|UNSET TBLPROPERTIES and SERDEPROPERTIES, the SET or UNSET consumed. */
static int properties(SqlParser *p, AstAlter *a, bool unset)
{
    SqlVec keys = {0};
    bool serde = sp_accept_kw(p, KW_SERDEPROPERTIES);
    if (!serde)
        SP_TRY(sp_expect_kw(p, KW_TBLPROPERTIES));
    if (!unset) {
        a->kind = serde ? AST_ALTER_SET_SERDE_PROPS : AST_ALTER_SET_PROPS;
        return sp_property_list(p, &a->n_props, &a->props);
    }
    a->kind = serde ? AST_ALTER_UNSET_SERDE_PROPS : AST_ALTER_UNSET_PROPS;
    if (!serde)
        SP_TRY(sp_if_exists(p, false, &a->if_exists));
    SP_TRY(sp_list(p, true, unset_key, &keys));
    a->n_props = keys.n;
    a->props = keys.data;
    return COMB_OK;
}

/* SET TBLPROPERTIES | SERDEPROPERTIES | LOCATION, SET consumed. */
static int set_clause(SqlParser *p, AstAlter *a)
{
    if (!sp_is_kw(p, KW_LOCATION)) {
        if (!sp_is_kw(p, KW_TBLPROPERTIES) && !sp_is_kw(p, KW_SERDEPROPERTIES))
            return refuse_here(p, "ALTER TABLE SET");
        return properties(p, a, false);
    }
    sp_next(p);
    a->kind = AST_ALTER_SET_LOCATION;
    a->location_pos = sp_pos(sp_peek(p, 0));
    return sp_string(p, &a->location, NULL);
}

/* CHANGE [COLUMN] old new type [COMMENT 'x'] [FIRST | AFTER c]
 * [CASCADE | RESTRICT], CHANGE consumed. */
static int change_column(SqlParser *p, AstAlter *a)
{
    SqlVec col = {0};
    a->kind = AST_ALTER_CHANGE_COLUMN;
    sp_accept_kw(p, KW_COLUMN);
    SP_TRY(sp_ident(p, &a->old_column, &a->old_column_pos));
    SP_TRY(sp_column_item(p, &col));
    a->n_columns = 1;
    a->columns = col.data;
    if (sp_accept_kw(p, KW_FIRST)) {
        a->first = true;
    } else if (sp_accept_kw(p, KW_AFTER)) {
        SP_TRY(sp_ident(p, &a->after, &a->after_pos));
    }
    cascade_clause(p, a);
    return COMB_OK;
}

/* PARTITION (k = v, ...) [LOCATION '...'] of ADD PARTITION. */
static int add_partition(SqlParser *p, SqlVec *parts)
{
    AstAlterPart part = {0};
    SP_TRY(sp_partition_spec(p, true, &part.spec));
    if (sp_accept_kw(p, KW_LOCATION))
        SP_TRY(sp_string(p, &part.location, NULL));
    return sp_vec_push(p, parts, &part, sizeof part);
}

/* ADD COLUMNS (...) | ADD [IF NOT EXISTS] PARTITION ... [PARTITION ...],
 * ADD consumed. */
static int add_clause(SqlParser *p, AstAlter *a)
{
    SqlVec parts = {0};
    if (sp_accept_kw(p, KW_COLUMNS)) {
        a->kind = AST_ALTER_ADD_COLUMNS;
        SP_TRY(sp_column_list(p, &a->n_columns, &a->columns));
        cascade_clause(p, a);
        return COMB_OK;
    }
    if (!sp_is_kw(p, KW_IF) && !sp_is_kw(p, KW_PARTITION))
        return refuse_here(p, "ALTER TABLE ADD");
    a->kind = AST_ALTER_ADD_PARTITIONS;
    SP_TRY(sp_if_exists(p, true, &a->if_not_exists));
    do
        SP_TRY(add_partition(p, &parts));
    while (sp_is_kw(p, KW_PARTITION));
    a->n_parts = parts.n;
    a->parts = parts.data;
    return COMB_OK;
}

static AstOp comparison_op(SqlTokKind k)
{
    switch (k) {
    case SQL_TK_EQ: return AST_OP_EQ;
    case SQL_TK_NE: return AST_OP_NE;
    case SQL_TK_LT: return AST_OP_LT;
    case SQL_TK_LE: return AST_OP_LE;
    case SQL_TK_GT: return AST_OP_GT;
    case SQL_TK_GE: return AST_OP_GE;
    default: return AST_OP_NONE;
    }
}

typedef struct DropSpec {
    SqlVec items;            /* AstPartItem */
    SqlVec ops;              /* AstOp */
} DropSpec;

/* key (= | != | <> | < | <= | > | >=) constant */
static int drop_item(SqlParser *p, void *ctx)
{
    DropSpec *d = ctx;
    AstPartItem it = {0};
    AstOp op;
    SP_TRY(sp_ident(p, &it.key, &it.pos));
    op = comparison_op(sp_peek(p, 0)->kind);
    if (op == AST_OP_NONE)
        return sp_error(p, sp_peek(p, 0), "missing comparison operator");
    sp_next(p);
    SP_TRY(sp_list_expr(p, &it.value));
    SP_TRY(sp_vec_push(p, &d->items, &it, sizeof it));
    return sp_vec_push(p, &d->ops, &op, sizeof op);
}

/* DROP [IF EXISTS] PARTITION (...) [, PARTITION (...)] [PURGE], DROP
 * consumed. */
static int drop_clause(SqlParser *p, AstAlter *a)
{
    SqlVec parts = {0};
    if (!sp_is_kw(p, KW_IF) && !sp_is_kw(p, KW_PARTITION))
        return refuse_here(p, "ALTER TABLE DROP");
    a->kind = AST_ALTER_DROP_PARTITIONS;
    SP_TRY(sp_if_exists(p, false, &a->if_exists));
    do {
        AstAlterPart part = {0};
        DropSpec d = {{0}, {0}};
        part.spec.pos = sp_pos(sp_peek(p, 0));
        SP_TRY(sp_expect_kw(p, KW_PARTITION));
        SP_TRY(sp_list(p, true, drop_item, &d));
        part.spec.n = d.items.n;
        part.spec.items = d.items.data;
        part.ops = d.ops.data;
        SP_TRY(sp_vec_push(p, &parts, &part, sizeof part));
    } while (sp_accept(p, SQL_TK_COMMA));
    a->purge = sp_accept_kw(p, KW_PURGE);
    a->n_parts = parts.n;
    a->parts = parts.data;
    return COMB_OK;
}

/* The operations a PARTITION (...) prefix may stand before. */
static int partition_operation(SqlParser *p, AstAlter *a)
{
    if (sp_accept_kw(p, KW_SET))
        return set_clause(p, a);
    if (sp_accept_kw(p, KW_CONCATENATE)) {
        a->kind = AST_ALTER_CONCATENATE;
        return COMB_OK;
    }
    if (sp_accept_kw(p, KW_COMPACT))
        return sp_alter_compact(p, a);
    if (sp_accept_kw(p, KW_CHANGE))
        return change_column(p, a);
    if (sp_is_kw(p, KW_ADD) && sp_is_kw_at(p, 1, KW_COLUMNS)) {
        sp_next(p);
        return add_clause(p, a);
    }
    if (sp_accept_kw(p, KW_REPLACE)) {
        a->kind = AST_ALTER_REPLACE_COLUMNS;
        SP_TRY(sp_expect_kw(p, KW_COLUMNS));
        SP_TRY(sp_column_list(p, &a->n_columns, &a->columns));
        cascade_clause(p, a);
        return COMB_OK;
    }
    if (sp_is_kw(p, KW_UNSET) && sp_is_kw_at(p, 1, KW_SERDEPROPERTIES)) {
        sp_next(p);
        return properties(p, a, true);
    }
    return refuse_here(p, "ALTER TABLE");
}

/* CLUSTERED BY ... INTO n BUCKETS, INTO n BUCKETS, NOT CLUSTERED. */
static int bucketing_clause(SqlParser *p, AstStmt *s, AstAlter *a)
{
    a->kind = AST_ALTER_BUCKETING;
    if (sp_is_kw(p, KW_CLUSTERED))
        return sp_clustered_by(p, s);
    if (sp_accept_kw(p, KW_INTO)) {
        SP_TRY(sp_int(p, 1, INT32_MAX, "bucket count", &s->n_buckets));
        return sp_expect_kw(p, KW_BUCKETS);
    }
    sp_next(p);  /* NOT */
    s->n_buckets = -1;
    return sp_expect_kw(p, KW_CLUSTERED);
}

static int table_operation(SqlParser *p, AstStmt *s, AstAlter *a)
{
    a->op_pos = sp_pos(sp_peek(p, 0));
    if (sp_is_kw(p, KW_PARTITION)) {
        SP_TRY(sp_partition_spec(p, true, &s->part));
        a->op_pos = sp_pos(sp_peek(p, 0));
        return partition_operation(p, a);
    }
    if (sp_accept_kw(p, KW_RENAME)) {
        a->kind = AST_ALTER_RENAME;
        SP_TRY(sp_expect_kw(p, KW_TO));
        return sp_name(p, &a->new_name);
    }
    if (sp_accept_kw(p, KW_ADD))
        return add_clause(p, a);
    if (sp_accept_kw(p, KW_DROP))
        return drop_clause(p, a);
    if (sp_accept_kw(p, KW_UNSET))
        return properties(p, a, true);
    if (sp_is_kw(p, KW_CLUSTERED) || sp_is_kw(p, KW_INTO) ||
        (sp_is_kw(p, KW_NOT) && sp_is_kw_at(p, 1, KW_CLUSTERED)))
        return bucketing_clause(p, s, a);
    return partition_operation(p, a);
}

static int view_operation(SqlParser *p, AstAlter *a)
{
    a->op_pos = sp_pos(sp_peek(p, 0));
    if (sp_accept_kw(p, KW_RENAME)) {
        a->kind = AST_ALTER_RENAME;
        SP_TRY(sp_expect_kw(p, KW_TO));
        return sp_name(p, &a->new_name);
    }
    if (sp_is_kw(p, KW_SET) && sp_is_kw_at(p, 1, KW_TBLPROPERTIES)) {
        sp_next(p);
        return properties(p, a, false);
    }
    if (sp_is_kw(p, KW_UNSET) && sp_is_kw_at(p, 1, KW_TBLPROPERTIES)) {
        sp_next(p);
        return properties(p, a, true);
    }
    return refuse_here(p, "ALTER VIEW");
}

/* ALTER DATABASE, MATERIALIZED VIEW, ...: Hive's other ALTER forms. */
static int refuse_object(SqlParser *p)
{
    static const char *const objects[] = {
        "connector", "database", "dataconnector", "mapping", "materialized",
        "pool", "resource", "scheduled", "schema", "trigger"};
    const SqlToken *t = sp_peek(p, 0);
    for (size_t i = 0; t->kind == SQL_TK_WORD && i < sizeof objects / sizeof objects[0]; i++)
        if (t->len == strlen(objects[i]) &&
            strncasecmp(p->src + t->off, objects[i], t->len) == 0)
            return refuse_here(p, "ALTER");
    return sp_error(p, t, "cannot recognize input");
}

int sp_alter(SqlParser *p, AstStmt *s)
{
    AstAlter *a;
    bool view;
    sp_next(p);
    if (!sp_is_kw(p, KW_TABLE) && !sp_is_kw(p, KW_VIEW))
        return refuse_object(p);
    s->kind = AST_ALTER_TABLE;
    view = sp_next(p).kw == KW_VIEW;
    SP_TRY(sp_name(p, &s->name));
    if (view && sp_is_kw(p, KW_AS))
        return sp_alter_view_as(p, s);
    if (!(a = sp_alloc(p, sizeof *a)))
        return COMB_ENOMEM;
    s->alter = a;
    a->view = view;
    return view ? view_operation(p, a) : table_operation(p, s, a);
}

int sp_truncate(SqlParser *p, AstStmt *s)
{
    s->kind = AST_TRUNCATE;
    sp_next(p);
    sp_accept_kw(p, KW_TABLE);
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        SP_TRY(sp_partition_spec(p, true, &s->part));
    if (sp_is_kw(p, KW_COLUMNS))
        return sp_unsupported(p, sp_peek(p, 0), "TRUNCATE of columns");
    s->force = sp_accept_kw(p, KW_FORCE);
    return COMB_OK;
}
