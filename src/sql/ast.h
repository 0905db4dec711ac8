/*
 * ast.h - the parse tree of HiveQL statements: what the parser produces and
 * the binder consumes.  The parse tree is unresolved (names are strings) and
 * is a different type from the bound tree (bind.h).
 *
 * Ownership: every node and string lives in the arena handed to the parser;
 * freeing the arena frees the tree.  Identifiers are lower-cased by the
 * parser (Hive is case-insensitive for names); string literal values are
 * unescaped.  Positions are 1-based line and column within the statement
 * text handed to sql_parse_statement.
 */
#ifndef COMB_SQL_AST_H
#define COMB_SQL_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"

/* Deepest expression tree the parser builds (AstExpr.height): recursive
 * walks over a parsed expression need no depth checks of their own. */
#define AST_MAX_DEPTH 1000

typedef struct AstPos {
    int line;
    int col;
} AstPos;

/* A type as written: INT, VARCHAR(10), DECIMAL(10,2), ARRAY<INT>, ... */
typedef struct AstTypeName {
    CombTypeKind kind;
    int p1;          /* varchar/char length, decimal precision; -1 unset */
    int p2;          /* decimal scale; -1 unset */
    AstPos pos;
    CombType *type;  /* the whole type (DECIMAL alone is decimal(10,0)) */
} AstTypeName;

typedef enum AstExprKind {
    AST_LIT_INT,      /* ival (fits int64; type INT if it fits int32) */
    AST_LIT_DOUBLE,   /* any other number: dval; sval its digits as written
                         (no sign, no suffix), negated when a '-' was
                         folded into it; the binder types it (DECIMAL or
                         DOUBLE, as Hive) */
    AST_LIT_STRING,   /* sval */
    AST_LIT_BOOL,     /* bval */
    AST_LIT_NULL,
    AST_COLREF,       /* [qualifier.]name; ROW__ID is a colref named row__id */
    AST_FIELD,        /* left.name: struct field access, e.g. row__id.writeid */
    AST_STAR,         /* * or qualifier.* (select list, count(*)) */
    AST_UNARY,        /* op (AST_OP_NEG, AST_OP_NOT, AST_OP_PLUS) left */
    AST_BINARY,       /* left op right */
    AST_IS_NULL,      /* left IS [NOT] NULL (negated) */
    AST_BETWEEN,      /* left [NOT] BETWEEN right AND third */
    AST_IN,           /* left [NOT] IN (args) */
    AST_LIKE,         /* left [NOT] LIKE|RLIKE|REGEXP right; op is
                         AST_OP_LIKE or AST_OP_RLIKE (REGEXP too) */
    AST_FUNC,         /* name(args) / name(DISTINCT args) / name(*) */
    AST_CAST,         /* CAST(left AS cast_type) */
    AST_CASE,         /* CASE [left] WHEN args[2i] THEN args[2i+1] ...
                         [ELSE right] END */
    AST_INDEX         /* left[right]: array element or map value */
} AstExprKind;

typedef enum AstOp {
    AST_OP_NONE = 0,
    AST_OP_OR, AST_OP_AND, AST_OP_NOT,
    AST_OP_EQ, AST_OP_NE, AST_OP_LT, AST_OP_LE, AST_OP_GT, AST_OP_GE,
    AST_OP_EQ_NS,            /* <=> null-safe equality */
    AST_OP_ADD, AST_OP_SUB, AST_OP_MUL, AST_OP_DIV, AST_OP_MOD,
    AST_OP_DIV_INT,          /* DIV */
    AST_OP_NEG, AST_OP_PLUS,
    AST_OP_CONCAT,           /* || */
    AST_OP_LIKE, AST_OP_RLIKE  /* the op of an AST_LIKE node */
} AstOp;

typedef struct AstExpr {
    AstExprKind kind;
    AstPos pos;              /* operator token for binary, IS, BETWEEN, IN,
                                LIKE; otherwise the node's first token */
    AstOp op;
    int64_t ival;
    double dval;
    bool bval;
    char *sval;              /* string literal value, NUL-terminated */
    size_t sval_len;         /* its bytes: \0 escapes may put NULs inside */
    char lit_suffix;         /* number suffix as written: 'L' 'S' 'Y' 'D',
                                'B' for BD; 0 none (10BD is AST_LIT_INT) */
    char *qualifier;         /* colref/star qualifier, NULL if none */
    char *name;              /* colref / field / function name */
    struct AstExpr *left;
    struct AstExpr *right;
    struct AstExpr *third;
    bool negated;            /* NOT BETWEEN / NOT IN / NOT LIKE / IS NOT;
                                a folded '-' on AST_LIT_DOUBLE */
    bool typed_literal;      /* AST_CAST written DATE '...' / TIMESTAMP
                                '...' (a bad value is an error, not NULL) */
    bool distinct;           /* func(DISTINCT ...) */
    bool star_arg;           /* func(*) */
    int n_args;
    struct AstExpr **args;
    AstTypeName cast_type;
    char *text;              /* the expression's source text (for headers) */
    int height;              /* 1 for a leaf; <= AST_MAX_DEPTH */
} AstExpr;

/* A possibly qualified object name: [db.]name. */
typedef struct AstName {
    char *db;                /* NULL when unqualified */
    char *name;
    AstPos pos;
} AstName;

typedef struct AstColumnDef {
    char *name;
    AstTypeName type;
    char *comment;           /* NULL if none */
    AstPos pos;
} AstColumnDef;

typedef struct AstProperty {
    char *key;
    char *value;
} AstProperty;

typedef struct AstSelectItem {
    AstExpr *expr;           /* AST_STAR for * and t.* */
    char *alias;             /* NULL if none */
} AstSelectItem;

typedef struct AstOrderItem {
    AstExpr *expr;
    bool desc;
    int nulls;               /* 0 default, 1 NULLS FIRST, 2 NULLS LAST */
} AstOrderItem;

typedef struct AstSelect {
    bool distinct;
    int n_items;
    AstSelectItem *items;
    bool has_from;
    AstName from;
    char *from_alias;        /* NULL if none */
    AstExpr *where;          /* NULL if none */
    int n_group_by;
    AstExpr **group_by;
    AstExpr *having;
    int n_order_by;
    AstOrderItem *order_by;
    int64_t limit;           /* -1 if none */
    struct AstSelect *from_query; /* FROM (query) from_alias: the subquery
                                     (from unset); NULL for a table */
} AstSelect;

/* PARTITION (k1 = 'v', k2 [= v], ...): a key with a constant is static,
 * a key alone dynamic (value NULL). */
typedef struct AstPartItem {
    char *key;
    AstExpr *value;
    AstPos pos;
} AstPartItem;

typedef struct AstPartSpec {
    int n;                   /* 0: no PARTITION clause */
    AstPartItem *items;
    AstPos pos;
} AstPartSpec;

typedef struct AstAssignment {
    char *column;
    AstPos pos;
    AstExpr *value;
} AstAssignment;

typedef enum AstStmtKind {
    AST_CREATE_DATABASE,
    AST_DROP_DATABASE,
    AST_USE,
    AST_CREATE_TABLE,
    AST_DROP_TABLE,
    AST_SHOW_DATABASES,
    AST_SHOW_TABLES,
    AST_DESCRIBE,
    AST_INSERT,
    AST_SELECT,
    AST_UPDATE,
    AST_DELETE,
    AST_SET,
    AST_LOAD,
    AST_CREATE_VIEW,         /* name, if_not_exists, comment, props, qdef */
    AST_DROP_VIEW,           /* name, if_exists */
    AST_ALTER_VIEW,          /* name, qdef (AS query) or props (SET
                                TBLPROPERTIES, qdef->set_props) */
    AST_EXPLAIN              /* qdef->explained */
} AstStmtKind;

/* Statements defined by a query or another object: CREATE/ALTER VIEW,
 * CREATE TABLE AS SELECT, CREATE TABLE LIKE, EXPLAIN. */
typedef struct AstQueryDef {
    bool or_replace;         /* CREATE OR REPLACE VIEW */
    bool set_props;          /* ALTER VIEW ... SET TBLPROPERTIES */
    int n_view_cols;         /* CREATE VIEW v (col [COMMENT '..'], ...) */
    AstColumnDef *view_cols; /* names, positions and comments only */
    AstSelect *query;        /* the view's or CTAS's query; NULL for LIKE */
    char *query_text;        /* the query as written */
    AstPos query_pos;
    bool has_like;           /* CREATE TABLE ... LIKE like */
    AstName like;
    int n_part_names;        /* CTAS: PARTITIONED BY (col, ...) */
    char **part_names;
    AstPos part_pos;
    struct AstStmt *explained; /* EXPLAIN: the statement */
} AstQueryDef;

typedef struct AstStmt {
    AstStmtKind kind;
    AstPos pos;
    const char *text;        /* the statement's source text (no ';') */

    /* CREATE/DROP DATABASE, USE, SHOW TABLES IN: name.name = database;
     * CREATE/DROP TABLE, DESCRIBE, INSERT, UPDATE, DELETE: the table */
    AstName name;
    bool if_not_exists;      /* CREATE ... IF NOT EXISTS */
    bool if_exists;          /* DROP ... IF EXISTS */
    bool cascade;            /* DROP DATABASE ... CASCADE */
    bool purge;              /* DROP TABLE ... PURGE */
    char *comment;           /* CREATE DATABASE/TABLE ... COMMENT */
    char *location;          /* ... LOCATION '...' */
    char *like_pattern;      /* SHOW DATABASES/TABLES LIKE '...' */
    bool show_in;            /* SHOW TABLES IN/FROM db was given */
    bool describe_extended;  /* DESCRIBE EXTENDED|FORMATTED */
    bool describe_formatted;

    /* CREATE TABLE */
    bool external;
    bool temporary;
    bool transactional;      /* CREATE TRANSACTIONAL TABLE (Hive 4) */
    int n_columns;
    AstColumnDef *columns;
    int n_partition_cols;    /* PARTITIONED BY (...) */
    AstColumnDef *partition_cols;
    int n_cluster_cols;      /* CLUSTERED BY (...) INTO n BUCKETS */
    char **cluster_cols;
    AstPos cluster_pos;
    int n_sort_cols;         /* SORTED BY (...) */
    char **sort_cols;
    bool *sort_desc;         /* per sort column: DESC given */
    int64_t n_buckets;       /* -1 if not bucketed */
    char *stored_as;         /* "orc", "textfile", ... lower case; NULL */
    char *field_delim;       /* ROW FORMAT DELIMITED FIELDS TERMINATED BY */
    char *escape_delim;      /* ... ESCAPED BY */
    char *collection_delim;  /* ... COLLECTION ITEMS TERMINATED BY */
    char *mapkey_delim;      /* ... MAP KEYS TERMINATED BY */
    char *line_delim;        /* ... LINES TERMINATED BY; NULL if not given */
    char *null_format;       /* ... NULL DEFINED AS */
    int n_props;             /* TBLPROPERTIES */
    AstProperty *props;

    /* INSERT: INTO/OVERWRITE [TABLE] name [PARTITION (...)] [(cols)]
     * VALUES rows | select */
    AstPartSpec part;        /* also ALTER/SHOW/DESCRIBE ... PARTITION */
    bool overwrite;
    int n_insert_cols;       /* 0 = all columns in table order */
    char **insert_cols;
    AstPos *insert_col_pos;
    int n_rows;              /* VALUES rows */
    int *row_widths;         /* values per row */
    AstExpr ***rows;         /* rows[i][j] */
    AstSelect *select;       /* INSERT ... SELECT and plain SELECT */

    /* UPDATE */
    int n_assignments;
    AstAssignment *assignments;
    AstExpr *where;          /* UPDATE / DELETE */

    /* SET: key NULL = "set" alone (list all); value NULL = "set key" */
    char *set_key;
    char *set_value;
    bool set_verbose;        /* SET -v */

    /* LOAD DATA [LOCAL] INPATH 'path' [OVERWRITE] INTO TABLE name
     * [PARTITION (...)] [INPUTFORMAT 'class' SERDE 'class'] (overwrite,
     * name and part above) */
    char *load_path;
    AstPos load_path_pos;
    bool load_local;
    char *load_inputformat;  /* NULL: the table's own format */
    char *load_serde;

    AstQueryDef *qdef;       /* views, CTAS, CREATE TABLE LIKE, EXPLAIN;
                                NULL otherwise */
} AstStmt;

/*
 * Statement splitting: find the end of the next complete statement in
 * text[0..len).  Skips -- and slash-star comments and quoted strings.
 * Returns true and sets *end to the index just past the terminating ';'
 * when a whole statement is present; false when more input is needed.
 */
bool sql_next_statement(const char *text, size_t len, size_t *end);

/* True when text holds nothing but white space, comments and ';'. */
bool sql_is_blank(const char *text, size_t len);

/*
 * Parse one statement (with or without its trailing ';'): text[0..len),
 * bytes with a length, so a NUL byte inside is a syntax error at its
 * position rather than the end of the statement.  On a syntax
 * error returns COMB_ESYNTAX with a message of the form
 *   "ParseException line L:C <what was expected> near '<token>'"
 * (the token is '<EOF>' at the end of input).  As in Hive's messages, L
 * counts from 1 and C from 0 (so C is AstPos.col - 1).  Unsupported but
 * valid HiveQL gives COMB_EUNSUPPORTED: "line L:C <what> is not supported".
 */
int sql_parse_statement(const char *text, size_t len, CombArena *arena,
                        AstStmt **out, CombErr *err);

#endif
