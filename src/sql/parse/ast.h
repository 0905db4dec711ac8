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
    AST_INDEX,        /* left[right]: array element or map value */
    AST_SUBQUERY,     /* (query): a scalar subquery */
    AST_EXISTS        /* EXISTS (query); NOT EXISTS is NOT over it */
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
    struct AstSelect *query; /* AST_SUBQUERY, AST_EXISTS, and AST_IN over a
                                subquery: left [NOT] IN (query), no args */
    struct AstWindowSpec *over; /* AST_FUNC ... OVER (...) or OVER w; NULL */
    int null_treatment;      /* AST_FUNC ... IGNORE NULLS (1) / RESPECT
                                NULLS (2) before OVER; 0 not written */
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
    /* [CONSTRAINT name] DEFAULT expr [ENABLE]: NULL when not given */
    struct AstExpr *default_value;
    char *default_name;      /* the CONSTRAINT name; NULL if not given */
    bool default_disabled;   /* DISABLE or NOT ENFORCED after the value */
    bool default_validate;   /* VALIDATE after the value */
} AstColumnDef;

typedef struct AstProperty {
    char *key;
    char *value;
} AstProperty;

typedef struct AstSelectItem {
    AstExpr *expr;           /* AST_STAR for * and t.* */
    char *alias;             /* NULL if none */
    int n_aliases;           /* AS (a, b, ...): a table function's columns */
    char **aliases;
} AstSelectItem;

typedef struct AstOrderItem {
    AstExpr *expr;
    bool desc;
    int nulls;               /* 0 default, 1 NULLS FIRST, 2 NULLS LAST */
} AstOrderItem;

/* A window frame's boundary: UNBOUNDED PRECEDING, n PRECEDING, CURRENT
 * ROW, n FOLLOWING or UNBOUNDED FOLLOWING. */
typedef enum AstBoundKind {
    AST_BOUND_UNBOUNDED_PRECEDING,
    AST_BOUND_PRECEDING,
    AST_BOUND_CURRENT_ROW,
    AST_BOUND_FOLLOWING,
    AST_BOUND_UNBOUNDED_FOLLOWING
} AstBoundKind;

typedef struct AstFrameBound {
    AstBoundKind kind;
    int64_t amount;          /* n of n PRECEDING / FOLLOWING (>= 0) */
    AstPos pos;
} AstFrameBound;

typedef enum AstFrameUnit {
    AST_FRAME_NONE,          /* no frame written: Hive's default */
    AST_FRAME_ROWS,
    AST_FRAME_RANGE
} AstFrameUnit;

/* OVER ( [w] [PARTITION BY ...] [ORDER BY ...] [ROWS|RANGE frame] ), or
 * OVER w (only ref set).  PARTITION BY may be written DISTRIBUTE BY or
 * CLUSTER BY, ORDER BY as SORT BY (Hive's partitioning spec); a frame
 * with one boundary (ROWS 2 PRECEDING) ends at CURRENT ROW. */
typedef struct AstWindowSpec {
    AstPos pos;              /* OVER, or the WINDOW clause's name */
    char *ref;               /* a named window this one starts from */
    AstPos ref_pos;
    int n_partition;
    AstExpr **partition;
    int n_order;
    AstOrderItem *order;
    AstFrameUnit unit;
    AstPos frame_pos;        /* ROWS / RANGE */
    AstFrameBound start, end;
} AstWindowSpec;

/* WINDOW name AS (spec), ... of a SELECT block. */
typedef struct AstNamedWindow {
    char *name;
    AstPos pos;
    AstWindowSpec *spec;
} AstNamedWindow;

/* Hive's SORT BY, DISTRIBUTE BY and CLUSTER BY of a SELECT.  comb runs
 * one "reducer", so SORT BY sorts all rows (as Hive with one reducer)
 * and DISTRIBUTE BY only has its expressions checked; CLUSTER BY x is
 * DISTRIBUTE BY x SORT BY x: both lists are filled.  A select has them
 * or ORDER BY, never both (Hive's 10046-10050, raised by the parser). */
typedef struct AstSortBy {
    int n_sort;
    AstOrderItem *sort;      /* SORT BY items (no position aliases) */
    int n_distribute;
    AstExpr **distribute;
    bool cluster;            /* written CLUSTER BY */
} AstSortBy;

/* A FROM item: a table, view or CTE by name, a subquery, a join of two
 * items, or an item with a LATERAL VIEW (qfunc). */
typedef enum AstFromKind {
    AST_FROM_TABLE,          /* table [alias] */
    AST_FROM_QUERY,          /* (query) alias */
    AST_FROM_JOIN,           /* left JOIN right [ON on | USING (cols)] */
    AST_FROM_LATERAL         /* left LATERAL VIEW ... (lateral) */
} AstFromKind;

typedef enum AstJoinKind {
    AST_JOIN_INNER,          /* [INNER] JOIN */
    AST_JOIN_LEFT,           /* LEFT [OUTER] JOIN */
    AST_JOIN_RIGHT,          /* RIGHT [OUTER] JOIN */
    AST_JOIN_FULL,           /* FULL [OUTER] JOIN */
    AST_JOIN_LEFT_SEMI,      /* LEFT SEMI JOIN */
    AST_JOIN_CROSS,          /* CROSS JOIN */
    AST_JOIN_COMMA           /* left, right */
} AstJoinKind;

/* LATERAL VIEW [OUTER] f(args) alias [AS c1, c2, ...]: the table
 * function's rows joined to each row of the item before it. */
typedef struct AstLateral {
    bool outer;              /* a row with NULLs when f gives none */
    AstExpr *call;           /* AST_FUNC */
    char *alias;
    AstPos alias_pos;
    int n_cols;              /* 0: the function's own column names */
    char **cols;
} AstLateral;

typedef struct AstFrom {
    AstFromKind kind;
    AstPos pos;              /* the item's first token (JOIN: the join
                                keyword) */
    AstName table;           /* TABLE */
    char *alias;             /* TABLE: NULL if none; QUERY: required */
    struct AstSelect *query; /* QUERY */
    AstJoinKind join;        /* JOIN */
    struct AstFrom *left;    /* JOIN, LATERAL */
    struct AstFrom *right;   /* JOIN */
    AstExpr *on;             /* JOIN ... ON; NULL if none */
    int n_using;             /* JOIN ... USING (a, b) */
    char **using_cols;
    AstPos *using_pos;
    struct AstLateral *lateral; /* LATERAL */
} AstFrom;

/* WITH name AS (query): a name the query and its subqueries can read. */
typedef struct AstCte {
    char *name;
    AstPos pos;
    struct AstSelect *query;
} AstCte;

typedef enum AstSetOpKind {
    AST_SETOP_NONE,
    AST_SETOP_UNION,
    AST_SETOP_INTERSECT,
    AST_SETOP_EXCEPT         /* EXCEPT and MINUS */
} AstSetOpKind;

/* GROUP BY keys [WITH ROLLUP | WITH CUBE | GROUPING SETS (...)], or
 * GROUP BY ROLLUP (keys) / CUBE (keys). */
typedef enum AstGroupingKind {
    AST_GROUPING_NONE,
    AST_GROUPING_SETS,
    AST_GROUPING_ROLLUP,
    AST_GROUPING_CUBE
} AstGroupingKind;

/* One set of GROUPING SETS: ( ) or (a, b) or a. */
typedef struct AstGroupingSet {
    int n;
    AstExpr **exprs;
    AstPos pos;
} AstGroupingSet;

/* A query: a SELECT block, or a set operation of two queries (setop; the
 * block's own fields unset).  ORDER BY, SORT BY and LIMIT apply to the
 * query's result either way; WITH names are visible in it and below. */
typedef struct AstSelect {
    AstPos pos;              /* SELECT (or the first query's) */
    int n_with;              /* WITH name AS (query), ... */
    AstCte *with;
    AstSetOpKind setop;      /* AST_SETOP_NONE: a SELECT block */
    bool setop_all;          /* UNION ALL, INTERSECT ALL, EXCEPT ALL */
    AstPos setop_pos;        /* the operator keyword */
    struct AstSelect *setop_left;
    struct AstSelect *setop_right;
    bool distinct;
    int n_items;
    AstSelectItem *items;
    AstFrom *from;           /* NULL: no FROM */
    AstExpr *where;          /* NULL if none */
    int n_group_by;
    AstExpr **group_by;
    AstGroupingKind grouping;
    int n_sets;              /* AST_GROUPING_SETS */
    AstGroupingSet *sets;
    AstPos grouping_pos;     /* ROLLUP, CUBE or GROUPING */
    AstExpr *having;
    int n_windows;           /* WINDOW w AS (...), ... */
    AstNamedWindow *windows;
    int n_order_by;
    AstOrderItem *order_by;
    int64_t limit;           /* -1 if none */
    int64_t offset;          /* LIMIT o, n / LIMIT n OFFSET o; 0 if none */
    AstSortBy *sort_by;      /* SORT/DISTRIBUTE/CLUSTER BY; NULL if none */
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
    AST_MULTI_INSERT,        /* FROM src INSERT ... SELECT ... INSERT ... */
    AST_ALTER_TABLE,         /* ALTER TABLE|VIEW name ...: alter */
    AST_TRUNCATE,            /* TRUNCATE [TABLE] name [PARTITION] [FORCE] */
    /* explicit transactions (parse_txn.c): START TRANSACTION [READ ONLY |
     * READ WRITE][, ISOLATION LEVEL SNAPSHOT] and BEGIN [TRANSACTION|WORK]
     * (txn_read_only); COMMIT [WORK]; ROLLBACK [WORK] */
    AST_TXN_BEGIN,
    AST_TXN_COMMIT,
    AST_TXN_ROLLBACK,
    /* catalog statements (fields in AstCatalog) */
    AST_SHOW_CREATE_TABLE,   /* SHOW CREATE TABLE name */
    AST_SHOW_TBLPROPERTIES,  /* SHOW TBLPROPERTIES name [('key')] */
    AST_SHOW_COLUMNS,        /* SHOW [SORTED] COLUMNS (FROM|IN) name ... */
    AST_SHOW_PARTITIONS,     /* SHOW PARTITIONS name [PARTITION (...)] ... */
    AST_DESCRIBE_DATABASE,   /* DESCRIBE DATABASE [EXTENDED] name.name */
    AST_ANALYZE,             /* ANALYZE TABLE name [PARTITION (...)]
                                COMPUTE STATISTICS [NOSCAN | FOR COLUMNS
                                [c, ...]] */
    AST_MSCK,                /* MSCK [REPAIR] TABLE name [ADD|DROP|SYNC
                                PARTITIONS] */
    AST_CREATE_VIEW,         /* name, if_not_exists, comment, props, qdef */
    AST_DROP_VIEW,           /* name, if_exists */
    AST_ALTER_VIEW,          /* ALTER VIEW name AS query: name, qdef (its
                                other forms are AST_ALTER_TABLE) */
    AST_EXPLAIN,             /* qdef->explained */
    AST_SHOW_FUNCTIONS,      /* SHOW FUNCTIONS [LIKE 'pat'|"pat"|`pat`]:
                                like_pattern */
    AST_DESCRIBE_FUNCTION,   /* DESCRIBE FUNCTION [EXTENDED] f:
                                func_name, describe_extended */
    /* the transaction manager (parse_locks.c; fields in AstLocks) */
    AST_SHOW_LOCKS,          /* SHOW LOCKS [[db.]t [PARTITION (...)] |
                                DATABASE|SCHEMA db] [EXTENDED]: name (NULL
                                name.name: all), part */
    AST_SHOW_TRANSACTIONS,   /* SHOW TRANSACTIONS */
    AST_ABORT_TRANSACTIONS,  /* ABORT TRANSACTIONS id [id ...] */
    AST_SHOW_COMPACTIONS,    /* SHOW COMPACTIONS */
    AST_ABORT_COMPACTIONS,   /* ABORT COMPACTIONS id ...: n_ids, ids */
    AST_SHOW_COMPACTION_METRICS, /* SHOW COMPACTION METRICS name [part] */
    AST_MERGE,               /* MERGE INTO name ... (fields in AstMerge) */
    /* authorization (parse_auth.c; fields in AstAuth, the object in name:
     * name.db NULL and name.name the database for ON DATABASE) */
    AST_CREATE_ROLE,         /* CREATE ROLE r: roles[0] */
    AST_DROP_ROLE,           /* DROP ROLE r: roles[0] */
    AST_GRANT,               /* GRANT privs ON [TABLE|DATABASE] name TO
                                principals [WITH GRANT OPTION] */
    AST_REVOKE,              /* REVOKE [GRANT OPTION FOR] privs ON ... FROM
                                principals */
    AST_GRANT_ROLE,          /* GRANT [ROLE] r, ... TO principals
                                [WITH ADMIN OPTION] */
    AST_REVOKE_ROLE,         /* REVOKE [ADMIN OPTION FOR] [ROLE] r, ... FROM
                                principals */
    AST_SET_ROLE,            /* SET ROLE r | ALL | NONE: roles[0], or the
                                word all / none */
    AST_SHOW_ROLES,          /* SHOW ROLES */
    AST_SHOW_CURRENT_ROLES,  /* SHOW CURRENT ROLES */
    AST_SHOW_GRANT,          /* SHOW GRANT [principal] [ON ALL | ON [TABLE]
                                name | ON DATABASE name] */
    AST_SHOW_ROLE_GRANT,     /* SHOW ROLE GRANT USER|ROLE name */
    AST_SHOW_PRINCIPALS      /* SHOW PRINCIPALS r: roles[0] */
} AstStmtKind;

/* SQL-standard privileges (AstAuth.privs bits). */
enum {
    AST_PRIV_SELECT = 1,
    AST_PRIV_INSERT = 2,
    AST_PRIV_UPDATE = 4,
    AST_PRIV_DELETE = 8,
    AST_PRIV_ALL = 15
};

typedef struct AstPrincipal {
    char *name;              /* a user's as written, a role's lower case */
    bool role;               /* ROLE name (else USER name) */
    AstPos pos;
} AstPrincipal;

/* The authorization statements' fields. */
typedef struct AstAuth {
    unsigned privs;          /* AST_PRIV_* */
    bool on_database;        /* ON DATABASE|SCHEMA: name.name */
    bool on_table;           /* ON [TABLE] t: name */
    bool on_all;             /* SHOW GRANT ... ON ALL */
    int n_principals;        /* TO / FROM; SHOW GRANT's and SHOW ROLE
                                GRANT's one */
    AstPrincipal *principals;
    int n_roles;             /* roles named, lower case */
    char **roles;
    AstPos *role_pos;
    bool with_option;        /* WITH GRANT OPTION / WITH ADMIN OPTION */
    bool option_only;        /* GRANT OPTION FOR / ADMIN OPTION FOR */
} AstAuth;

/* One WHEN clause of MERGE (parse_merge.c). */
typedef enum AstMergeAction {
    AST_MERGE_UPDATE,        /* WHEN MATCHED ... THEN UPDATE SET ... */
    AST_MERGE_DELETE,        /* WHEN MATCHED ... THEN DELETE */
    AST_MERGE_INSERT         /* WHEN NOT MATCHED ... THEN INSERT ... */
} AstMergeAction;

typedef struct AstMergeClause {
    AstMergeAction action;
    AstPos pos;              /* WHEN */
    AstExpr *cond;           /* AND cond; NULL if none */
    int n_assignments;       /* UPDATE SET */
    struct AstAssignment *assignments;
    int n_insert_cols;       /* INSERT (cols); 0 = all data columns */
    char **insert_cols;
    AstPos *insert_col_pos;
    int n_values;            /* INSERT VALUES (values) */
    AstExpr **values;
    AstPos values_pos;       /* VALUES */
} AstMergeClause;

/* MERGE INTO name [[AS] alias] USING source ON on clauses: the target
 * is AstStmt.name. */
typedef struct AstMerge {
    char *alias;             /* the target's alias, else its table name */
    struct AstFrom *source;  /* a table or (query) with its alias */
    AstExpr *on;
    AstPos on_pos;           /* ON */
    int n_clauses;
    AstMergeClause *clauses;
} AstMerge;

/* SHOW LOCKS and ABORT TRANSACTIONS. */
typedef struct AstLocks {
    bool database;           /* SHOW LOCKS DATABASE db: name.name is db */
    bool extended;           /* ... EXTENDED */
    int n_ids;               /* ABORT TRANSACTIONS ids */
    int64_t *ids;
    AstPos *id_pos;
} AstLocks;

/* FROM src [alias] INSERT ... SELECT ... [INSERT ... SELECT ...]...: each
 * clause is an AST_INSERT statement of its own (its SELECT reads the FROM
 * table), all of them one transaction (exec_multi.c). */
typedef struct AstMultiInsert {
    int n;
    struct AstStmt **inserts;
} AstMultiInsert;

/* What an ALTER TABLE (or ALTER VIEW) statement does. */
typedef enum AstAlterKind {
    AST_ALTER_RENAME,          /* RENAME TO new_name */
    AST_ALTER_ADD_COLUMNS,     /* ADD COLUMNS (columns) */
    AST_ALTER_REPLACE_COLUMNS, /* REPLACE COLUMNS (columns) */
    AST_ALTER_CHANGE_COLUMN,   /* CHANGE [COLUMN] old_column columns[0]
                                  [FIRST | AFTER after] */
    AST_ALTER_SET_PROPS,       /* SET TBLPROPERTIES (props) */
    AST_ALTER_UNSET_PROPS,     /* UNSET TBLPROPERTIES [IF EXISTS] (keys:
                                  props[i].value NULL) */
    AST_ALTER_SET_SERDE_PROPS, /* SET SERDEPROPERTIES (props) */
    AST_ALTER_UNSET_SERDE_PROPS, /* UNSET SERDEPROPERTIES (keys) */
    AST_ALTER_SET_LOCATION,    /* SET LOCATION 'location' */
    AST_ALTER_ADD_PARTITIONS,  /* ADD [IF NOT EXISTS] PARTITION (...)
                                  [LOCATION '...'] ... */
    AST_ALTER_DROP_PARTITIONS, /* DROP [IF EXISTS] PARTITION (k op v, ...),
                                  ... [PURGE] */
    AST_ALTER_CONCATENATE,     /* CONCATENATE */
    AST_ALTER_COMPACT,         /* COMPACT 'compact_type' [AND WAIT] [WITH
                                  OVERWRITE TBLPROPERTIES (props)] */
    AST_ALTER_BUCKETING        /* CLUSTERED BY (...) [SORTED BY (...)] INTO n
                                  BUCKETS (the statement's cluster_cols,
                                  sort_cols, n_buckets), INTO n BUCKETS
                                  (n_cluster_cols 0), NOT CLUSTERED
                                  (n_buckets -1) */
} AstAlterKind;

/* One PARTITION (...) of ADD PARTITION (items are key = constant) or DROP
 * PARTITION (key op constant: ops[i] is AST_OP_EQ, NE, LT, LE, GT, GE). */
typedef struct AstAlterPart {
    AstPartSpec spec;
    AstOp *ops;              /* DROP: one per spec item; NULL for ADD */
    char *location;          /* ADD ... LOCATION; NULL if none */
} AstAlterPart;

typedef struct AstAlter {
    AstAlterKind kind;
    bool view;               /* ALTER VIEW */
    AstPos op_pos;           /* the operation's first keyword */
    AstName new_name;        /* RENAME TO */
    int n_columns;           /* ADD / REPLACE COLUMNS; CHANGE: 1 */
    AstColumnDef *columns;
    char *old_column;        /* CHANGE */
    AstPos old_column_pos;
    bool first;              /* CHANGE ... FIRST */
    char *after;             /* CHANGE ... AFTER column; NULL if none */
    AstPos after_pos;
    bool cascade;            /* [CASCADE|RESTRICT]: CASCADE given */
    int n_props;             /* SET/UNSET TBLPROPERTIES, SERDEPROPERTIES */
    AstProperty *props;
    bool if_exists;          /* UNSET ... IF EXISTS, DROP IF EXISTS */
    bool if_not_exists;      /* ADD IF NOT EXISTS */
    char *location;          /* SET LOCATION */
    AstPos location_pos;
    int n_parts;             /* ADD / DROP PARTITION */
    AstAlterPart *parts;
    bool purge;              /* DROP PARTITION ... PURGE */
    char *compact_type;      /* COMPACT: the string as written */
    AstPos compact_type_pos;
    bool compact_wait;       /* COMPACT ... AND WAIT */
} AstAlter;

/* What MSCK does with partitions (Hive's MsckDesc). */
typedef enum AstMsckMode {
    AST_MSCK_ADD,            /* ADD PARTITIONS, the default */
    AST_MSCK_DROP,           /* DROP PARTITIONS */
    AST_MSCK_SYNC            /* SYNC PARTITIONS: both */
} AstMsckMode;

/* The fields of the catalog statements (SHOW CREATE TABLE / TBLPROPERTIES
 * / COLUMNS / PARTITIONS, DESCRIBE extensions, MSCK) and of CREATE
 * TABLE's storage clauses (ROW FORMAT SERDE, STORED AS INPUTFORMAT). */
typedef struct AstCatalog {
    char *prop_key;          /* SHOW TBLPROPERTIES t('key'); NULL: all */
    char *column;            /* DESCRIBE t col; NULL: the whole table */
    AstPos column_pos;
    bool sorted;             /* SHOW SORTED COLUMNS */
    AstName db;              /* SHOW COLUMNS ... (FROM|IN) db: db.name;
                                NULL name when not given */
    AstExpr *where;          /* SHOW PARTITIONS ... WHERE */
    int n_order_by;          /* SHOW PARTITIONS ... ORDER BY */
    AstOrderItem *order_by;
    int64_t limit;           /* SHOW PARTITIONS ... LIMIT n; -1 if none */
    bool repair;             /* MSCK REPAIR TABLE */
    AstMsckMode msck_mode;
    char *serde;             /* ROW FORMAT SERDE 'class' */
    int n_serde_props;       /* ... WITH SERDEPROPERTIES (...) */
    AstProperty *serde_props;
    char *input_format;      /* STORED AS INPUTFORMAT 'a' OUTPUTFORMAT 'b' */
    char *output_format;
    bool for_columns;        /* ANALYZE ... FOR COLUMNS */
    int n_columns;           /* ... c, ... (0: every column) */
    char **columns;
} AstCatalog;

/* Statements defined by a query or another object: CREATE/ALTER VIEW,
 * CREATE TABLE AS SELECT, CREATE TABLE LIKE, EXPLAIN. */
typedef struct AstQueryDef {
    bool or_replace;         /* CREATE OR REPLACE VIEW */
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
    bool txn_read_only;      /* START TRANSACTION READ ONLY */
    char *comment;           /* CREATE DATABASE/TABLE ... COMMENT */
    char *location;          /* ... LOCATION '...' */
    char *like_pattern;      /* SHOW DATABASES/TABLES LIKE '...' */
    char *func_name;         /* DESCRIBE FUNCTION: as written */
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

    AstMultiInsert *multi;   /* AST_MULTI_INSERT */
    /* ALTER TABLE|VIEW name [PARTITION (...)] ... (name and part above);
     * TRUNCATE uses name, part and force */
    AstAlter *alter;
    bool force;              /* TRUNCATE ... FORCE */
    /* catalog statements and CREATE TABLE storage clauses; NULL when none
     * of their fields was given */
    AstCatalog *catalog;
    AstQueryDef *qdef;       /* views, CTAS, CREATE TABLE LIKE, EXPLAIN;
                                NULL otherwise */
    AstLocks *locks;         /* SHOW LOCKS, ABORT TRANSACTIONS; else NULL */
    int n_ids;               /* ABORT COMPACTIONS */
    int64_t *ids;
    AstMerge *merge;         /* AST_MERGE; NULL otherwise */
    AstAuth *auth;           /* the authorization statements; else NULL */
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
 * The checks Hive makes before resolving any name (its phase 1: ORDER BY
 * with SORT BY, ...) give COMB_ESEMANTIC with Hive's number in hive_code.
 */
int sql_parse_statement(const char *text, size_t len, CombArena *arena,
                        AstStmt **out, CombErr *err);

/* Parse one expression, text[0..len) and nothing after it (a column's
 * DEFAULT as the metastore keeps it); errors as sql_parse_statement's. */
int sql_parse_expression(const char *text, size_t len, CombArena *arena,
                         AstExpr **out, CombErr *err);

#endif
