/*
 * hs2_meta.c - the result sets of HiveServer2's metadata calls
 * (GetCatalogs, GetSchemas, GetTables, GetTableTypes, GetColumns,
 * GetTypeInfo, GetFunctions, GetPrimaryKeys, GetCrossReference), with
 * the columns JDBC's DatabaseMetaData defines, filled as Hive fills them:
 * databases are schemas, there is no catalog, tables map to TABLE, VIEW or
 * MATERIALIZED_VIEW (Hive's CLASSIC table type mapping), column types
 * carry java.sql.Types codes.  Read from the session's metastore
 * connection; functions from SHOW FUNCTIONS.
 */
#include "server/hs2_int.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "common/arena.h"
#include "metastore/ms.h"
#include "sql/session.h"

#define S COMB_T_STRING
#define I COMB_T_INT

/* java.sql.Types */
enum {
    J_BOOLEAN = 16, J_TINYINT = -6, J_SMALLINT = 5, J_INTEGER = 4,
    J_BIGINT = -5, J_FLOAT = 6, J_DOUBLE = 8, J_VARCHAR = 12, J_CHAR = 1,
    J_DATE = 91, J_TIMESTAMP = 93, J_DECIMAL = 3, J_BINARY = -2,
    J_ARRAY = 2003, J_JAVA_OBJECT = 2000, J_STRUCT = 2002, J_OTHER = 1111
};

static const Hs2Value NUL = {NULL, 0, true};

static Hs2Value text(const char *s)
{
    return (Hs2Value){s, 0, s == NULL};
}

static Hs2Value num(int64_t i)
{
    return (Hs2Value){NULL, i, false};
}

/* --------------------------------------------------------- patterns */

static bool like_at(const char *p, const char *s)
{
    for (; *p; p++, s++) {
        if (*p == '%') {
            while (p[1] == '%')
                p++;
            if (!p[1])
                return true;
            for (; *s; s++)
                if (like_at(p + 1, s))
                    return true;
            return false;
        }
        if (*p == '\\' && p[1])
            p++;
        else if (*p == '_') {
            if (!*s)
                return false;
            continue;
        }
        if (!*s || tolower((unsigned char)*p) != tolower((unsigned char)*s))
            return false;
    }
    return !*s;
}

/* JDBC's pattern match; no pattern (NULL, "", "*") matches anything. */
static bool matches(const char *pattern, const char *name)
{
    if (!pattern || !*pattern || !strcmp(pattern, "*"))
        return true;
    return like_at(pattern, name);
}

/* --------------------------------------------------------- catalogs */

int hs2_meta_catalogs(Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {"TABLE_CAT"};
    static const CombTypeKind kinds[] = {S};
    return hs2_result_begin(r, 1, names, kinds, err);
}

int hs2_meta_schemas(SqlSession *s, const char *schema, Hs2Result *r,
                     CombErr *err)
{
    static const char *const names[] = {"TABLE_SCHEM", "TABLE_CATALOG"};
    static const CombTypeKind kinds[] = {S, S};
    CombArena a;
    char **dbs;
    int n, rc;
    comb_arena_init(&a, 0);
    if (!(rc = hs2_result_begin(r, 2, names, kinds, err)) &&
        !(rc = ms_db_list(sql_session_metastore(s), &a, &dbs, &n, err)))
        for (int i = 0; !rc && i < n; i++)
            if (matches(schema, dbs[i]))
                rc = hs2_result_append(r, (Hs2Value[]){text(dbs[i]), text("")},
                                       err);
    comb_arena_free(&a);
    return rc;
}

/* ------------------------------------------------------------ tables */

/* Hive's CLASSIC mapping of a metastore table type. */
static const char *jdbc_table_type(const char *ms_type)
{
    if (ms_type && !strcmp(ms_type, "VIRTUAL_VIEW"))
        return "VIEW";
    if (ms_type && !strcmp(ms_type, "MATERIALIZED_VIEW"))
        return "MATERIALIZED_VIEW";
    return "TABLE";
}

static bool type_wanted(GPtrArray *types, const char *type)
{
    if (!types || types->len == 0)
        return true;
    for (guint i = 0; i < types->len; i++)
        if (!strcasecmp(g_ptr_array_index(types, i), type))
            return true;
    return false;
}

/* For each table of the schemas and tables the patterns match: each(t). */
typedef int (*TableFn)(void *ctx, const MsTable *t, CombErr *err);

static int each_table(SqlSession *s, const char *schema, const char *table,
                      TableFn each, void *ctx, CombErr *err)
{
    Ms *ms = sql_session_metastore(s);
    CombArena a;
    char **dbs, **tabs;
    int n_db, n_tab, rc;
    comb_arena_init(&a, 0);
    rc = ms_db_list(ms, &a, &dbs, &n_db, err);
    for (int d = 0; !rc && d < n_db; d++) {
        if (!matches(schema, dbs[d]) ||
            (rc = ms_table_list(ms, dbs[d], &a, &tabs, &n_tab, err)))
            continue;
        for (int k = 0; !rc && k < n_tab; k++) {
            MsTable *t;
            if (!matches(table, tabs[k]))
                continue;
            rc = ms_table_get(ms, dbs[d], tabs[k], &a, &t, err);
            if (rc == COMB_ENOTFOUND) {   /* dropped meanwhile */
                comb_err_clear(err);
                rc = COMB_OK;
                continue;
            }
            if (!rc)
                rc = each(ctx, t, err);
        }
    }
    comb_arena_free(&a);
    return rc;
}

typedef struct TablesCtx {
    Hs2Result *r;
    GPtrArray *types;
} TablesCtx;

static int add_table(void *ctx, const MsTable *t, CombErr *err)
{
    TablesCtx *c = ctx;
    const char *type = jdbc_table_type(t->table_type);
    if (!type_wanted(c->types, type))
        return COMB_OK;
    return hs2_result_append(c->r, (Hs2Value[]){
        text(""), text(t->db), text(t->name), text(type), text(t->comment ? t->comment : ""),
        NUL, NUL, NUL, NUL, NUL}, err);
}

int hs2_meta_tables(SqlSession *s, const char *schema, const char *table,
                    GPtrArray *types, Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS",
        "TYPE_CAT", "TYPE_SCHEM", "TYPE_NAME", "SELF_REFERENCING_COL_NAME",
        "REF_GENERATION"};
    static const CombTypeKind kinds[] = {S, S, S, S, S, S, S, S, S, S};
    TablesCtx c = {r, types};
    int rc = hs2_result_begin(r, 10, names, kinds, err);
    return rc ? rc : each_table(s, schema, table, add_table, &c, err);
}

int hs2_meta_table_types(Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {"TABLE_TYPE"};
    static const CombTypeKind kinds[] = {S};
    static const char *const types[] = {"TABLE", "VIEW", "MATERIALIZED_VIEW"};
    int rc = hs2_result_begin(r, 1, names, kinds, err);
    for (size_t i = 0; !rc && i < sizeof types / sizeof *types; i++)
        rc = hs2_result_append(r, (Hs2Value[]){text(types[i])}, err);
    return rc;
}

/* ----------------------------------------------------------- columns */

/* What JDBC says of a Hive type: its java.sql.Types code, column size,
 * decimal digits and radix (-1: NULL). */
typedef struct JdbcType {
    int code;
    int64_t size, digits, radix;
} JdbcType;

static bool starts(const char *type, const char *name)
{
    size_t n = strlen(name);
    return !strncasecmp(type, name, n) &&
           (!type[n] || type[n] == '(' || type[n] == '<');
}

/* The two numbers of "name(a,b)" (b -1 when absent). */
static void params(const char *type, int64_t *a, int64_t *b)
{
    const char *p = strchr(type, '(');
    long x = -1, y = -1;
    if (p)
        sscanf(p, "(%ld , %ld", &x, &y);
    *a = x;
    *b = y;
}

static JdbcType jdbc_type(const char *type)
{
    int64_t a, b;
    if (starts(type, "boolean")) return (JdbcType){J_BOOLEAN, -1, -1, -1};
    if (starts(type, "tinyint")) return (JdbcType){J_TINYINT, 3, 0, 10};
    if (starts(type, "smallint")) return (JdbcType){J_SMALLINT, 5, 0, 10};
    if (starts(type, "int") || starts(type, "integer"))
        return (JdbcType){J_INTEGER, 10, 0, 10};
    if (starts(type, "bigint")) return (JdbcType){J_BIGINT, 19, 0, 10};
    if (starts(type, "float")) return (JdbcType){J_FLOAT, 7, 7, 10};
    if (starts(type, "double")) return (JdbcType){J_DOUBLE, 15, 15, 10};
    if (starts(type, "string")) return (JdbcType){J_VARCHAR, 2147483647, -1, -1};
    if (starts(type, "varchar")) {
        params(type, &a, &b);
        return (JdbcType){J_VARCHAR, a, -1, -1};
    }
    if (starts(type, "char")) {
        params(type, &a, &b);
        return (JdbcType){J_CHAR, a, -1, -1};
    }
    if (starts(type, "decimal")) {
        params(type, &a, &b);
        return (JdbcType){J_DECIMAL, a < 0 ? 10 : a, b < 0 ? 0 : b, 10};
    }
    if (starts(type, "date")) return (JdbcType){J_DATE, 10, -1, -1};
    if (starts(type, "timestamp")) return (JdbcType){J_TIMESTAMP, 29, 9, -1};
    if (starts(type, "binary")) return (JdbcType){J_BINARY, -1, -1, -1};
    if (starts(type, "array")) return (JdbcType){J_ARRAY, -1, -1, -1};
    if (starts(type, "map")) return (JdbcType){J_JAVA_OBJECT, -1, -1, -1};
    if (starts(type, "struct")) return (JdbcType){J_STRUCT, -1, -1, -1};
    return (JdbcType){J_OTHER, -1, -1, -1};
}

static Hs2Value opt(int64_t v)
{
    return v < 0 ? NUL : num(v);
}

/* Hive's TYPE_NAME: a primitive's name upper case with its parameters,
 * complex types as written. */
static char *type_name(CombArena *a, const char *type)
{
    char *t = comb_arena_strdup(a, type);
    if (t && !strchr(t, '<'))
        for (char *p = t; *p && *p != '('; p++)
            *p = (char)toupper((unsigned char)*p);
    return t;
}

typedef struct ColumnsCtx {
    Hs2Result *r;
    const char *column;
    CombArena a;
} ColumnsCtx;

static int add_column(ColumnsCtx *c, const MsTable *t, const MsColumn *col,
                      int position, CombErr *err)
{
    JdbcType j = jdbc_type(col->type);
    char *name = type_name(&c->a, col->type);
    if (!matches(c->column, col->name))
        return COMB_OK;
    if (!name)
        return comb_err_nomem(err);
    return hs2_result_append(c->r, (Hs2Value[]){
        NUL, text(t->db), text(t->name), text(col->name), num(j.code),
        text(name), opt(j.size), NUL, opt(j.digits), opt(j.radix), num(1),
        text(col->comment), NUL, NUL, NUL, NUL, num(position), text("YES"),
        NUL, NUL, NUL, NUL, text("NO")}, err);
}

static int add_columns(void *ctx, const MsTable *t, CombErr *err)
{
    ColumnsCtx *c = ctx;
    int rc = COMB_OK, pos = 1;
    for (int i = 0; !rc && i < t->n_cols; i++)
        rc = add_column(c, t, &t->cols[i], pos++, err);
    for (int i = 0; !rc && i < t->n_part_keys; i++)
        rc = add_column(c, t, &t->part_keys[i], pos++, err);
    return rc;
}

int hs2_meta_columns(SqlSession *s, const char *schema, const char *table,
                     const char *column, Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE",
        "TYPE_NAME", "COLUMN_SIZE", "BUFFER_LENGTH", "DECIMAL_DIGITS",
        "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF",
        "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH",
        "ORDINAL_POSITION", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA",
        "SCOPE_TABLE", "SOURCE_DATA_TYPE", "IS_AUTO_INCREMENT"};
    static const CombTypeKind kinds[] = {S, S, S, S, I, S, I, COMB_T_TINYINT,
                                         I, I, I, S, S, I, I, I, I, S, S, S,
                                         S, COMB_T_SMALLINT, S};
    ColumnsCtx c = {r, column, {0}};
    int rc = hs2_result_begin(r, 23, names, kinds, err);
    comb_arena_init(&c.a, 0);
    if (!rc)
        rc = each_table(s, schema, table, add_columns, &c, err);
    comb_arena_free(&c.a);
    return rc;
}

/* --------------------------------------------------------- type info */

int hs2_meta_type_info(Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {
        "TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX",
        "LITERAL_SUFFIX", "CREATE_PARAMS", "NULLABLE", "CASE_SENSITIVE",
        "SEARCHABLE", "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE",
        "AUTO_INCREMENT", "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE",
        "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "NUM_PREC_RADIX"};
    static const CombTypeKind kinds[] = {
        S, I, I, S, S, S, COMB_T_SMALLINT, COMB_T_BOOLEAN, COMB_T_SMALLINT,
        COMB_T_BOOLEAN, COMB_T_BOOLEAN, COMB_T_BOOLEAN, S, COMB_T_SMALLINT,
        COMB_T_SMALLINT, I, I, I};
    static const char *const types[] = {
        "VOID", "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT",
        "DOUBLE", "STRING", "CHAR", "VARCHAR", "DATE", "TIMESTAMP", "BINARY",
        "DECIMAL", "ARRAY", "MAP", "STRUCT", "UNIONTYPE"};
    int rc = hs2_result_begin(r, 18, names, kinds, err);
    for (size_t i = 0; !rc && i < sizeof types / sizeof *types; i++) {
        JdbcType j = i == 0 ? (JdbcType){0, -1, -1, -1} : jdbc_type(types[i]);
        bool string = j.code == J_VARCHAR || j.code == J_CHAR;
        /* searchable: 3 (typePredBasic + char) for strings, 2 for the rest
         * of the primitives, 0 for complex types */
        int64_t searchable = string ? 3 : j.code >= J_JAVA_OBJECT ? 0 : 2;
        rc = hs2_result_append(r, (Hs2Value[]){
            text(types[i]), num(j.code), opt(j.size),
            string ? text("'") : NUL, string ? text("'") : NUL, NUL, num(1),
            num(string), num(searchable), num(j.radix < 0), num(0), num(0),
            NUL, num(0), num(j.code == J_DECIMAL ? 38 : 0), NUL, NUL,
            opt(j.radix)}, err);
    }
    return rc;
}

/* --------------------------------------------------------- functions */

typedef struct FunctionsCtx {
    Hs2Result *r;
    const char *pattern;
} FunctionsCtx;

static int function_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    FunctionsCtx *c = ctx;
    int live = b->use_sel ? b->n_sel : b->n_rows, rc = COMB_OK;
    char name[256];
    for (int k = 0; !rc && k < live; k++) {
        const CombStr *v = &b->cols[0].str[b->use_sel ? b->sel[k] : k];
        snprintf(name, sizeof name, "%.*s", (int)v->len, v->ptr);
        if (matches(c->pattern, name))
            rc = hs2_result_append(c->r, (Hs2Value[]){
                NUL, NUL, text(name), text(""), num(1), text(name)}, err);
    }
    return rc;
}

int hs2_meta_functions(SqlSession *s, const char *function, Hs2Result *r,
                       CombErr *err)
{
    static const char *const names[] = {"FUNCTION_CAT", "FUNCTION_SCHEM",
                                        "FUNCTION_NAME", "REMARKS",
                                        "FUNCTION_TYPE", "SPECIFIC_NAME"};
    static const CombTypeKind kinds[] = {S, S, S, S, I, S};
    FunctionsCtx c = {r, function};
    SqlSink sink = {&c, NULL, function_batch, NULL, NULL};
    static const char show[] = "SHOW FUNCTIONS";
    int rc = hs2_result_begin(r, 6, names, kinds, err);
    /* a late cancel of the session's last statement is not for this */
    sql_session_cancel_reset(s);
    return rc ? rc : sql_session_execute(s, show, sizeof show - 1, &sink, err);
}

/* ------------------------------------------------------------- keys */

/* comb's tables have no primary or foreign keys: empty, with JDBC's
 * columns. */
int hs2_meta_primary_keys(Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {"TABLE_CAT", "TABLE_SCHEM",
                                        "TABLE_NAME", "COLUMN_NAME",
                                        "KEQ_SEQ", "PK_NAME"};
    static const CombTypeKind kinds[] = {S, S, S, S, I, S};
    return hs2_result_begin(r, 6, names, kinds, err);
}

int hs2_meta_cross_reference(Hs2Result *r, CombErr *err)
{
    static const char *const names[] = {
        "PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME", "PKCOLUMN_NAME",
        "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME",
        "KEY_SEQ", "UPDATE_RULE", "DELETE_RULE", "FK_NAME", "PK_NAME",
        "DEFERRABILITY"};
    static const CombTypeKind kinds[] = {S, S, S, S, S, S, S, S, I, I, I, S,
                                         S, I};
    return hs2_result_begin(r, 14, names, kinds, err);
}
