/*
 * parse_ddl.c - CREATE/DROP DATABASE and TABLE, SHOW, USE, SET (DESCRIBE and
 * the other catalog statements are in parse_catalog.c).
 *
 * CREATE TABLE clauses must come in Hive's order (COMMENT, PARTITIONED BY,
 * CLUSTERED BY, ROW FORMAT, STORED AS, LOCATION, TBLPROPERTIES, AS query);
 * each is a small rule tried in turn.  CREATE TABLE ... LIKE takes ROW
 * FORMAT, STORED AS, LOCATION and TBLPROPERTIES.  Valid Hive clauses comb
 * cannot honour (SKEWED BY, SERDEs, constraints, ...) are refused as
 * unsupported rather than silently dropped.
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

/* --------------------------------------------------------------- shared */

int sp_if_exists(SqlParser *p, bool not_too, bool *flag)
{
    if (!sp_accept_kw(p, KW_IF))
        return COMB_OK;
    if (not_too)
        SP_TRY(sp_expect_kw(p, KW_NOT));
    SP_TRY(sp_expect_kw(p, KW_EXISTS));
    *flag = true;
    return COMB_OK;
}

/* KEYWORD 'string', when the keyword is there. */
int ddl_string_clause(SqlParser *p, SqlKeyword kw, char **out)
{
    if (!sp_accept_kw(p, kw))
        return COMB_OK;
    return sp_string(p, out, NULL);
}

/* item for sp_list: 'key' = 'value' appended to the AstProperty SqlVec. */
static int sp_property_item(SqlParser *p, void *props)
{
    AstProperty prop;
    SP_TRY(sp_string(p, &prop.key, NULL));
    SP_TRY(sp_expect(p, SQL_TK_EQ, "'='"));
    SP_TRY(sp_string(p, &prop.value, NULL));
    return sp_vec_push(p, props, &prop, sizeof prop);
}

int sp_property_list(SqlParser *p, int *n, AstProperty **props)
{
    SqlVec v = {0};
    SP_TRY(sp_list(p, true, sp_property_item, &v));
    *n = v.n;
    *props = v.data;
    return COMB_OK;
}

static int ddl_properties(SqlParser *p, AstStmt *s)
{
    return sp_property_list(p, &s->n_props, &s->props);
}

/* A word naming a statement form comb does not run: "CREATE VIEW". */
static int ddl_refuse_form(SqlParser *p, const char *verb)
{
    const SqlToken *t = sp_peek(p, 0);
    if (t->kind != SQL_TK_WORD)
        return sp_error(p, t, "cannot recognize input");
    return sp_unsupported(p, t, "%s %.*s", verb, (int)t->len,
                          p->src + t->off);
}

/* ------------------------------------------------------------- DATABASE */

static bool at_database_kw(SqlParser *p)
{
    return sp_is_kw(p, KW_DATABASE) || sp_is_kw(p, KW_SCHEMA);
}

static int create_database(SqlParser *p, AstStmt *s)
{
    s->kind = AST_CREATE_DATABASE;
    sp_next(p);
    SP_TRY(sp_if_exists(p, true, &s->if_not_exists));
    SP_TRY(sp_ident(p, &s->name.name, &s->name.pos));
    SP_TRY(ddl_string_clause(p, KW_COMMENT, &s->comment));
    SP_TRY(ddl_string_clause(p, KW_LOCATION, &s->location));
    if (sp_is_kw(p, KW_MANAGEDLOCATION))
        return sp_unsupported(p, sp_peek(p, 0), "MANAGEDLOCATION");
    if (!sp_accept_kw(p, KW_WITH))
        return COMB_OK;
    SP_TRY(sp_expect_kw(p, KW_DBPROPERTIES));
    return ddl_properties(p, s);
}

static int drop_database(SqlParser *p, AstStmt *s)
{
    s->kind = AST_DROP_DATABASE;
    sp_next(p);
    SP_TRY(sp_if_exists(p, false, &s->if_exists));
    SP_TRY(sp_ident(p, &s->name.name, &s->name.pos));
    if (!sp_accept_kw(p, KW_RESTRICT))
        s->cascade = sp_accept_kw(p, KW_CASCADE);
    return COMB_OK;
}

/* --------------------------------------------------------- CREATE TABLE */

static bool starts_table_constraint(SqlParser *p)
{
    return ((sp_is_kw(p, KW_PRIMARY) || sp_is_kw(p, KW_FOREIGN)) &&
            sp_is_kw_at(p, 1, KW_KEY)) ||
           (sp_is_kw(p, KW_CONSTRAINT) && sp_is_ident_tok(sp_peek(p, 1)));
}

static bool starts_column_constraint(SqlParser *p)
{
    static const SqlKeyword kws[] = {KW_NOT, KW_PRIMARY, KW_CONSTRAINT,
                                     KW_DEFAULT, KW_UNIQUE, KW_CHECK};
    for (size_t i = 0; i < sizeof kws / sizeof kws[0]; i++)
        if (sp_is_kw(p, kws[i]))
            return true;
    return false;
}

/* Hive's constraintOptsCreate after a DEFAULT value:
 * (ENABLE | DISABLE) [VALIDATE | NOVALIDATE] | [NOT] ENFORCED, then
 * [RELY | NORELY]; what they say is kept for the binder's checks. */
static void default_options(SqlParser *p, AstColumnDef *col)
{
    if (sp_accept_word(p, "disable")) {
        col->default_disabled = true;
    } else if (sp_is_kw(p, KW_NOT) && sp_is_word_at(p, 1, "enforced")) {
        sp_next(p);
        sp_next(p);
        col->default_disabled = true;
    } else if (!sp_accept_word(p, "enable")) {
        sp_accept_word(p, "enforced");
    }
    if (sp_accept_word(p, "validate"))
        col->default_validate = true;
    else
        sp_accept_word(p, "novalidate");
    if (!sp_accept_word(p, "rely"))
        sp_accept_word(p, "norely");
}

/* [CONSTRAINT name] DEFAULT expr [options]: the one column constraint
 * comb keeps (Hive's others are refused by the caller).  The value is any
 * expression here; the binder checks it is one Hive allows. */
static int column_default(SqlParser *p, AstColumnDef *col)
{
    if (sp_is_kw(p, KW_CONSTRAINT) && sp_is_ident_tok(sp_peek(p, 1)) &&
        sp_is_kw_at(p, 2, KW_DEFAULT)) {
        sp_next(p);
        SP_TRY(sp_ident(p, &col->default_name, NULL));
    }
    if (!sp_accept_kw(p, KW_DEFAULT))
        return COMB_OK;
    SP_TRY(sp_expr(p, &col->default_value));
    default_options(p, col);
    return COMB_OK;
}

int sp_column_item(SqlParser *p, void *columns)
{
    AstColumnDef col = {0};
    if (starts_table_constraint(p))
        return sp_unsupported(p, sp_peek(p, 0), "a table constraint");
    SP_TRY(sp_ident(p, &col.name, &col.pos));
    SP_TRY(sp_type(p, &col.type));
    SP_TRY(column_default(p, &col));
    if (starts_column_constraint(p))
        return sp_unsupported(p, sp_peek(p, 0), "a column constraint");
    SP_TRY(ddl_string_clause(p, KW_COMMENT, &col.comment));
    return sp_vec_push(p, columns, &col, sizeof col);
}

int sp_column_list(SqlParser *p, int *n, AstColumnDef **cols)
{
    SqlVec v = {0};
    SP_TRY(sp_list(p, true, sp_column_item, &v));
    *n = v.n;
    *cols = v.data;
    return COMB_OK;
}

/* PARTITIONED BY (name type, ...), or in CREATE TABLE AS SELECT the names
 * of query columns alone (Hive 4): (name, ...) */
static int tbl_partitioned_by(SqlParser *p, AstStmt *s)
{
    AstQueryDef *q;
    SqlVec names = {0};
    if (!sp_accept_kw(p, KW_PARTITIONED))
        return COMB_OK;
    SP_TRY(sp_expect_kw(p, KW_BY));
    if (!sp_is(p, SQL_TK_LPAREN) || !sp_is_ident_tok(sp_peek(p, 1)) ||
        (sp_peek(p, 2)->kind != SQL_TK_COMMA &&
         sp_peek(p, 2)->kind != SQL_TK_RPAREN))
        return sp_column_list(p, &s->n_partition_cols, &s->partition_cols);
    if (!(q = sp_query_def(p, s)))
        return COMB_ENOMEM;
    q->part_pos = sp_pos(sp_peek(p, 1));
    SP_TRY(sp_list(p, true, sp_ident_item, &names));
    q->n_part_names = names.n;
    q->part_names = names.data;
    return COMB_OK;
}

typedef struct SortCols {
    SqlVec names;
    SqlVec desc;
} SortCols;

/* name [ASC|DESC] */
static int tbl_sort_col(SqlParser *p, void *ctx)
{
    SortCols *sc = ctx;
    bool desc = false;
    SP_TRY(sp_ident_item(p, &sc->names));
    if (!sp_accept_kw(p, KW_ASC))
        desc = sp_accept_kw(p, KW_DESC);
    return sp_vec_push(p, &sc->desc, &desc, sizeof desc);
}

/* CLUSTERED BY (c, ...) [SORTED BY (c [ASC|DESC], ...)] INTO n BUCKETS */
int sp_clustered_by(SqlParser *p, AstStmt *s)
{
    SqlVec cluster = {0};
    SortCols sorted = {{0}, {0}};
    if (!sp_is_kw(p, KW_CLUSTERED))
        return COMB_OK;
    s->cluster_pos = sp_pos(sp_peek(p, 0));
    sp_next(p);
    SP_TRY(sp_expect_kw(p, KW_BY));
    SP_TRY(sp_list(p, true, sp_ident_item, &cluster));
    s->n_cluster_cols = cluster.n;
    s->cluster_cols = cluster.data;
    if (sp_accept_kw(p, KW_SORTED)) {
        SP_TRY(sp_expect_kw(p, KW_BY));
        SP_TRY(sp_list(p, true, tbl_sort_col, &sorted));
        s->n_sort_cols = sorted.names.n;
        s->sort_cols = sorted.names.data;
        s->sort_desc = sorted.desc.data;
    }
    SP_TRY(sp_expect_kw(p, KW_INTO));
    SP_TRY(sp_int(p, 1, INT32_MAX, "bucket count", &s->n_buckets));
    return sp_expect_kw(p, KW_BUCKETS);
}

/* TERMINATED BY 'c' */
static int tbl_terminated_by(SqlParser *p, char **out)
{
    SP_TRY(sp_expect_kw(p, KW_TERMINATED));
    SP_TRY(sp_expect_kw(p, KW_BY));
    return sp_string(p, out, NULL);
}

/* ROW FORMAT DELIMITED [FIELDS TERMINATED BY 'c' [ESCAPED BY 'c']]
 * [COLLECTION ITEMS TERMINATED BY 'c'] [MAP KEYS TERMINATED BY 'c']
 * [LINES TERMINATED BY 'c'] [NULL DEFINED AS 's'], in Hive's order. */
static int tbl_row_format(SqlParser *p, AstStmt *s)
{
    if (!sp_accept_kw(p, KW_ROW))
        return COMB_OK;
    SP_TRY(sp_expect_kw(p, KW_FORMAT));
    if (sp_is_kw(p, KW_SERDE))
        return sp_row_format_serde(p, s);
    SP_TRY(sp_expect_kw(p, KW_DELIMITED));
    if (sp_accept_kw(p, KW_FIELDS)) {
        SP_TRY(tbl_terminated_by(p, &s->field_delim));
        if (sp_accept_kw(p, KW_ESCAPED)) {
            SP_TRY(sp_expect_kw(p, KW_BY));
            SP_TRY(sp_string(p, &s->escape_delim, NULL));
        }
    }
    if (sp_accept_kw(p, KW_COLLECTION)) {
        SP_TRY(sp_expect_kw(p, KW_ITEMS));
        SP_TRY(tbl_terminated_by(p, &s->collection_delim));
    }
    if (sp_accept_kw(p, KW_MAP)) {
        SP_TRY(sp_expect_kw(p, KW_KEYS));
        SP_TRY(tbl_terminated_by(p, &s->mapkey_delim));
    }
    if (sp_accept_kw(p, KW_LINES))
        SP_TRY(tbl_terminated_by(p, &s->line_delim));
    if (sp_accept_kw(p, KW_NULL)) {
        SP_TRY(sp_expect_kw(p, KW_DEFINED));
        SP_TRY(sp_expect_kw(p, KW_AS));
        SP_TRY(sp_string(p, &s->null_format, NULL));
    }
    return COMB_OK;
}

/* STORED AS format */
static int tbl_stored_as(SqlParser *p, AstStmt *s)
{
    if (!sp_accept_kw(p, KW_STORED))
        return COMB_OK;
    if (sp_is_kw(p, KW_BY))
        return sp_unsupported(p, sp_peek(p, 0), "STORED BY (storage handler)");
    SP_TRY(sp_expect_kw(p, KW_AS));
    if (sp_is_kw(p, KW_INPUTFORMAT))
        return sp_stored_as_formats(p, s);
    return sp_ident(p, &s->stored_as, NULL);
}

/* LIKE [db.]other [ROW FORMAT ...] [STORED AS ...] [LOCATION '...']
 * [TBLPROPERTIES (...)] */
static int create_like(SqlParser *p, AstStmt *s)
{
    AstQueryDef *q = sp_query_def(p, s);
    if (!q)
        return COMB_ENOMEM;
    sp_next(p);
    q->has_like = true;
    SP_TRY(sp_name(p, &q->like));
    SP_TRY(tbl_row_format(p, s));
    SP_TRY(tbl_stored_as(p, s));
    SP_TRY(ddl_string_clause(p, KW_LOCATION, &s->location));
    if (sp_accept_kw(p, KW_TBLPROPERTIES))
        SP_TRY(ddl_properties(p, s));
    return COMB_OK;
}

static int create_table(SqlParser *p, AstStmt *s)
{
    SqlToken after_name;
    bool has_columns = false;
    s->kind = AST_CREATE_TABLE;
    sp_next(p);
    SP_TRY(sp_if_exists(p, true, &s->if_not_exists));
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_LIKE))
        return create_like(p, s);
    after_name = *sp_peek(p, 0);
    /* a column list is optional only before AS SELECT */
    if (sp_is(p, SQL_TK_LPAREN)) {
        SP_TRY(sp_column_list(p, &s->n_columns, &s->columns));
        has_columns = true;
    }
    SP_TRY(ddl_string_clause(p, KW_COMMENT, &s->comment));
    SP_TRY(tbl_partitioned_by(p, s));
    SP_TRY(sp_clustered_by(p, s));
    if (sp_is_kw(p, KW_SKEWED))
        return sp_unsupported(p, sp_peek(p, 0), "SKEWED BY");
    SP_TRY(tbl_row_format(p, s));
    SP_TRY(tbl_stored_as(p, s));
    SP_TRY(ddl_string_clause(p, KW_LOCATION, &s->location));
    if (sp_accept_kw(p, KW_TBLPROPERTIES))
        SP_TRY(ddl_properties(p, s));
    if (sp_accept_kw(p, KW_AS)) {
        AstQueryDef *q = sp_query_def(p, s);
        return q ? sp_query(p, q) : COMB_ENOMEM;
    }
    if (!has_columns)
        return sp_error(p, &after_name, "missing '('");
    return COMB_OK;
}

/* ----------------------------------------------------------- statements */

int sp_create(SqlParser *p, AstStmt *s)
{
    sp_next(p);
    if (sp_is_kw(p, KW_VIEW) || sp_is_kw(p, KW_OR))
        return sp_create_view(p, s);
    if (sp_is_word_at(p, 0, "role"))
        return sp_role_ddl(p, s, true);
    s->temporary = sp_accept_kw(p, KW_TEMPORARY);
    s->external = sp_accept_kw(p, KW_EXTERNAL);
    s->transactional = sp_accept_kw(p, KW_TRANSACTIONAL);
    if (!s->temporary && !s->external && !s->transactional && at_database_kw(p))
        return create_database(p, s);
    if (sp_is_kw(p, KW_TABLE))
        return create_table(p, s);
    return ddl_refuse_form(p, "CREATE");
}

int sp_drop(SqlParser *p, AstStmt *s)
{
    sp_next(p);
    if (at_database_kw(p))
        return drop_database(p, s);
    if (sp_is_word_at(p, 0, "role"))
        return sp_role_ddl(p, s, false);
    if (sp_is_kw(p, KW_VIEW))
        return sp_drop_view(p, s);
    if (!sp_accept_kw(p, KW_TABLE))
        return ddl_refuse_form(p, "DROP");
    s->kind = AST_DROP_TABLE;
    SP_TRY(sp_if_exists(p, false, &s->if_exists));
    SP_TRY(sp_name(p, &s->name));
    s->purge = sp_accept_kw(p, KW_PURGE);
    return COMB_OK;
}

/* SHOW DATABASES [LIKE 'pat'] | SHOW TABLES [IN db] [[LIKE] 'pat'] |
 * SHOW FUNCTIONS [LIKE 'pat'] */
int sp_show(SqlParser *p, AstStmt *s)
{
    sp_next(p);
    if (sp_accept_kw(p, KW_DATABASES) || sp_accept_kw(p, KW_SCHEMAS)) {
        s->kind = AST_SHOW_DATABASES;
        return ddl_string_clause(p, KW_LIKE, &s->like_pattern);
    }
    if (sp_peek(p, 0)->kind == SQL_TK_WORD && sp_peek(p, 0)->len == 9 &&
        strncasecmp(p->src + sp_peek(p, 0)->off, "functions", 9) == 0) {
        s->kind = AST_SHOW_FUNCTIONS;
        sp_next(p);
        if (!sp_accept_kw(p, KW_LIKE))
            return COMB_OK;
        /* Hive takes the pattern as a string or a quoted identifier */
        if (sp_is(p, SQL_TK_QUOTED_ID))
            return sp_ident(p, &s->like_pattern, NULL);
        return sp_string(p, &s->like_pattern, NULL);
    }
    if (!sp_accept_kw(p, KW_TABLES)) {
        bool handled;
        int rc = sp_show_catalog(p, s, &handled);
        if (!handled)
            rc = sp_show_locks(p, s, &handled);
        if (!handled)
            rc = sp_show_compactions(p, s, &handled);
        if (!handled)
            rc = sp_show_auth(p, s, &handled);
        return handled ? rc : ddl_refuse_form(p, "SHOW");
    }
    s->kind = AST_SHOW_TABLES;
    if (sp_accept_kw(p, KW_IN) || sp_accept_kw(p, KW_FROM)) {
        s->show_in = true;
        SP_TRY(sp_ident(p, &s->name.name, &s->name.pos));
    }
    if (sp_accept_kw(p, KW_LIKE) || sp_is(p, SQL_TK_STRING))
        return sp_string(p, &s->like_pattern, NULL);
    return COMB_OK;
}

int sp_use(SqlParser *p, AstStmt *s)
{
    s->kind = AST_USE;
    sp_next(p);
    return sp_ident(p, &s->name.name, &s->name.pos);
}

/* Copy src[from, to) with white space trimmed from both ends. */
static char *trimmed_copy(SqlParser *p, size_t from, size_t to)
{
    while (from < to && sql_lex_is_space((unsigned char)p->src[from]))
        from++;
    while (to > from && sql_lex_is_space((unsigned char)p->src[to - 1]))
        to--;
    char *s = comb_arena_strndup(p->arena, p->src + from, to - from);
    if (!s)
        comb_err_nomem(p->err);
    return s;
}

/*
 * SET | SET -v | SET key | SET key = value.  The rest of the statement is
 * raw text, not tokens: keys hold dots and colons (hivevar:x) and values
 * anything at all.
 */
int sp_set(SqlParser *p, AstStmt *s)
{
    s->kind = AST_SET;
    sp_next(p);
    size_t from = p->prev_end;
    size_t end = sp_raw_rest(p);
    p->prev_end = end;
    char *raw = trimmed_copy(p, from, end);
    if (!raw)
        return COMB_ENOMEM;
    if (raw[0] == '\0')
        return COMB_OK;
    if (strcmp(raw, "-v") == 0) {
        s->set_verbose = true;
        return COMB_OK;
    }
    const char *eq = memchr(p->src + from, '=', end - from);
    if (!eq) {
        s->set_key = raw;
        return COMB_OK;
    }
    size_t eq_off = (size_t)(eq - p->src);
    s->set_key = trimmed_copy(p, from, eq_off);
    s->set_value = trimmed_copy(p, eq_off + 1, end);
    if (!s->set_key || !s->set_value)
        return COMB_ENOMEM;
    if (s->set_key[0] == '\0') {
        SqlToken at = sp_token_at(p, eq_off);
        return sp_error(p, &at, "missing configuration name before '='");
    }
    return COMB_OK;
}
