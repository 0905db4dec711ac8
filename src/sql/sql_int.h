/*
 * sql_int.h - private to src/sql: the session record, the statement
 * context, resolved tables, bound (typed) expressions and the executor
 * entry points.  The parse tree (ast.h) is turned into these by bind.c;
 * expr.c evaluates bound expressions a batch at a time; exec_*.c run
 * statements.
 */
#ifndef COMB_SQL_INT_H
#define COMB_SQL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "acid/acid.h"
#include "common/arena.h"
#include "common/batch.h"
#include "common/err.h"
#include "common/txnlist.h"
#include "metastore/ms.h"
#include "sql/ast.h"
#include "sql/session.h"
#include "sql/value.h"
#include "text/text.h"

/* ------------------------------------------------------------------ session */

typedef struct SqlSetting {
    char *key;
    char *value;
} SqlSetting;

typedef struct SqlSettings {
    int n;
    int cap;
    SqlSetting *items;      /* owned, heap */
} SqlSettings;

struct SqlSession {
    Ms *ms;                 /* metastore connection, owned */
    char *metastore;        /* comb.metastore.url as SET shows it: the
                               file or URL, no password; owned */
    char *warehouse;        /* absolute warehouse directory, owned */
    char *db;               /* current database, owned */
    char *user;
    char *host;
    SqlSettings conf;       /* SET / --hiveconf */
    SqlSettings vars;       /* --hivevar / SET hivevar:x=y */
    CombArena stmt_arena;   /* reset after each statement */
};

/* What one statement runs with. */
typedef struct SqlStmtCtx {
    SqlSession *s;
    CombArena *arena;       /* statement lifetime */
    const SqlSink *sink;
    const AstStmt *stmt;
    int64_t txnid;          /* 0 until a transaction is opened */
    bool have_snapshot;
    CombTxnList snapshot;   /* valid only if have_snapshot */
    CombBatch one_row;      /* input of constant folding, made on first use */
    bool have_now;          /* current_date / current_timestamp: one value
                               per statement, taken on first use */
    int64_t now_secs;       /* local wall-clock time, as Hive's */
    int32_t now_nanos;
    struct SqlTable *load_source; /* LOAD DATA run as INSERT ... SELECT: the
                               files as a table (exec_load.c), else NULL */
    int insert_clause;      /* the INSERT clause of a multi-insert being
                               run (Hive's destination insclause-N) */
    const struct SqlViewFrame *views; /* views whose queries are being bound,
                               innermost first (exec_select.c) */
    int query_depth;        /* subqueries and views being bound */
} SqlStmtCtx;

/* A view whose query is being bound: the chain finds a view that reads
 * itself (Hive's "Recursive view" error). */
typedef struct SqlViewFrame {
    const struct SqlTable *view;
    const struct SqlViewFrame *outer;
} SqlViewFrame;

/* Open the statement's transaction and take its snapshot (idempotent). */
int sql_txn_begin(SqlStmtCtx *c, CombErr *err);

/* ------------------------------------------------------------------ tables */

/* How a table keeps its rows. */
typedef enum SqlTableKind {
    SQL_TABLE_ACID,         /* full ACID: ORC files with ACID columns in
                               base/delta/delete_delta directories */
    SQL_TABLE_INSERT_ONLY,  /* transactional_properties=insert_only: plain
                               files in base/delta directories */
    SQL_TABLE_PLAIN,        /* every visible file of the directory */
    SQL_TABLE_VIEW          /* no files: a query */
} SqlTableKind;

typedef enum SqlFormat {
    SQL_FORMAT_ORC,
    SQL_FORMAT_TEXT         /* LazySimpleSerDe text files */
} SqlFormat;

typedef struct SqlTable {
    MsTable *ms;            /* catalog record (statement arena) */
    char *qualified;        /* "db.table" */
    int n_cols;             /* data columns, then partition columns */
    int n_data;             /* columns 0..n_data-1 are in the files */
    int n_part;             /* columns n_data..n_cols-1 are partition keys */
    SqlTableKind kind;
    SqlFormat format;
    const char **names;     /* column names, table order */
    const CombType **types; /* column types (statement arena) */
    CombTypeKind *kinds;    /* types[i]->kind */
    uint32_t *lengths;      /* char(n)/varchar(n) length per column, else 0 */
    int n_buckets;          /* -1 when not bucketed */
    int n_cluster;
    int *cluster_idx;       /* CLUSTERED BY columns as column indexes */
    int bucketing_version;  /* ACID_BUCKETING_V1/V2; 0 if the property
                               holds another value (sql_table_bucketing) */
    bool transactional;     /* full ACID */
    char **files;           /* a LOAD DATA source (plain kind): these files
                               instead of its directory's; else NULL */
    int n_files;
} SqlTable;

typedef struct BoundExpr BoundExpr;

/* A directory a statement reads or writes: one partition of a table, or
 * an unpartitioned table's own directory (partition.c). */
typedef struct SqlUnit {
    const char *dir;        /* absolute directory */
    const char *name;       /* "k1=v1/k2=v2"; NULL when not partitioned */
    char **values;          /* n_part values as text; NULL = the default
                               partition (a NULL key) */
    BoundExpr **keys;       /* n_part typed constants of the values */
} SqlUnit;

/* The units of t a scan reads: every partition whose keys can satisfy
 * the conjuncts of `where` that read only partition columns (the others
 * are pruned; where may be NULL and is prepared here), in SHOW PARTITIONS
 * order; the table's directory when it has no partitions. */
int sql_table_units(SqlStmtCtx *c, const SqlTable *t, BoundExpr *where,
                    SqlUnit **out, int *n, CombErr *err);
/* Is pred (bound over t's columns, prepared, reading partition keys
 * only) TRUE for the keys of unit u? */
int sql_unit_satisfies(const SqlTable *t, const SqlUnit *u, BoundExpr *pred,
                       bool *keep, CombErr *err);
/* The unit of one catalog partition (values and typed keys). */
int sql_unit_from_partition(SqlStmtCtx *c, const SqlTable *t,
                            const MsPartition *p, SqlUnit *u, CombErr *err);
/* Rows from..to-1 of v set to constant k (NULL k or a NULL constant:
 * NULL); primitive kinds. */
void sql_part_store(CombVector *v, int from, int to, const BoundExpr *k);
/* A partition value as directory text: row `row` of v as Hive writes it
 * (CAST to string; CHAR without padding); *out NULL for NULL. */
int sql_part_value_text(SqlStmtCtx *c, const CombVector *v, int row,
                        char **out, CombErr *err);
/* The same text borrowed, without a copy: the string's bytes, or the
 * value formatted into buf (SQL_PART_TEXT_MAX bytes); false for NULL. */
#define SQL_PART_TEXT_MAX 80
bool sql_part_value_view(const CombVector *v, int row, char *buf,
                         size_t cap, CombStr *out);
/* A static partition value (PARTITION (k='01')) converted to key `key`'s
 * type and back to text ('1' for an int key), as Hive's type check on
 * insert does; a value that does not convert is an error.  text NULL
 * (the default partition) gives NULL; an error is reported at pos. */
int sql_part_normalize(SqlStmtCtx *c, const SqlTable *t, int key,
                       const char *text, AstPos pos, char **out, CombErr *err);
/* The value of PARTITION item `it` (a constant, else Hive's 10098) for
 * partition key `key` of t, normalized as sql_part_normalize does (NULL
 * for NULL). */
int sql_part_static_value(SqlStmtCtx *c, const SqlTable *t, int key,
                          const AstPartItem *it, char **out, CombErr *err);

/* The SqlTable of a catalog record (columns typed, kind, bucketing). */
int sql_table_from_ms(SqlStmtCtx *c, MsTable *ms, SqlTable **out, CombErr *err);
/* The LazySimpleSerDe settings of a TEXTFILE table: Hive's defaults, then
 * its SERDEPROPERTIES, then its TBLPROPERTIES (skip.header.line.count,
 * serialization.null.format, ... as Hive merges them). */
int sql_table_text_options(const SqlTable *t, TextOptions *o, CombErr *err);
/* The ORC writer settings of table t (orc_options.c): orc.compress and
 * orc.stripe.size from its properties or the session, as Hive reads them;
 * a value comb cannot write is an error naming the table. */
typedef struct SqlOrcOptions {
    OrcCompression compression;
    uint64_t stripe_size;   /* bases, insert-only and plain files */
} SqlOrcOptions;
int sql_table_orc_options(SqlStmtCtx *c, const SqlTable *t,
                          SqlOrcOptions *out, CombErr *err);
/* Full-ACID deltas: the stripe size / orc.base.delta.ratio (8), as Hive. */
uint64_t sql_orc_delta_stripe_size(const SqlOrcOptions *o);
/* Resolve [db.]name to a table (Hive error 10001 when missing); the
 * statement's LOAD DATA source table (load_source) by its name. */
int sql_table_resolve(SqlStmtCtx *c, const AstName *name, SqlTable **out,
                      CombErr *err);
/* Column index by name, -1 if none. */
int sql_table_column(const SqlTable *t, const char *name);
/* COMB_OK if rows of t can be placed in buckets: t is not bucketed, or it
 * is clustered by columns comb can hash under a supported
 * bucketing_version.  Else the error naming the table. */
int sql_table_bucketing(const SqlTable *t, CombErr *err);
/* Write-id list of a table under the statement snapshot. */
int sql_table_writeids(SqlStmtCtx *c, const SqlTable *t,
                       CombWriteIdList *out, CombErr *err);

/* Error with Hive's number and the statement position "Line L:C " (the
 * column printed 0-based, as Hive prints it). */
int sql_err_at(CombErr *err, int code, int hive_code, AstPos pos,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* -------------------------------------------------------- bound expressions */

typedef enum BxKind {
    BX_CONST,       /* literal, folded constant */
    BX_COL,         /* column `col` of the input batch */
    BX_ROWID,       /* ROW__ID as a struct rendered {"writeid":..} (string) */
    BX_UNARY,       /* op a */
    BX_BINARY,      /* a op b */
    BX_IS_NULL,     /* a IS [NOT] NULL */
    BX_BETWEEN,     /* a [NOT] BETWEEN b AND c */
    BX_IN,          /* a [NOT] IN (args) */
    BX_LIKE,        /* a [NOT] LIKE b (b constant) */
    BX_CAST,        /* CAST(a AS type) and implicit conversions */
    BX_FUNC,        /* scalar function args */
    BX_CASE         /* args = cond0, value0, cond1, value1, ...; c = ELSE */
} BxKind;

typedef int (*BxFuncImpl)(BoundExpr *e, const CombBatch *in, CombErr *err);

struct BoundExpr {
    BxKind kind;
    CombTypeKind type;      /* result type */
    uint32_t length;        /* char(n) / varchar(n): n; 0 unknown */
    const CombType *ctype;  /* the whole result type for decimal(p,s),
                               array, map, struct and uniontype results
                               (statement arena); NULL for the others */
    AstPos pos;
    AstOp op;
    bool negated;
    bool strict;            /* BX_CAST for assignment: bad values are
                               errors, not NULL (fname = the column) */
    bool implicit;          /* BX_CAST the binder added (not written) */
    bool row_mode;          /* comparison of constants, folded at bind
                               time: doubles compare as Hive's row mode
                               does (ObjectInspectorUtils.compare) */
    int col;                /* BX_COL / BX_ROWID: first input column */
    BoundExpr *a, *b, *c;
    int n_args;
    BoundExpr **args;
    /* BX_CONST */
    bool is_null;
    int64_t ival;           /* integers, boolean, date, timestamp seconds */
    int32_t nanos;          /* timestamp */
    double dval;
    CombStr sval;
    comb_i128 dec;          /* decimal: unscaled */
    /* BX_FUNC */
    const char *fname;
    BxFuncImpl fn;
    /* evaluation output: points at an input column for BX_COL */
    CombVector *out;
    CombVector own;         /* storage for out when computed here */
    CombArena *scratch;     /* strings produced per batch */
    SqlVecFill *fill;       /* array/map/struct/uniontype outputs: own is
                               heap-owned (comb_vec_init) and filled row
                               by row */
};

/* A new node in the statement arena (col = -1, the rest zero), or NULL. */
BoundExpr *sql_bx_new(SqlStmtCtx *c, BxKind kind, CombTypeKind type,
                      AstPos pos);
/* The same with a whole result type (kind, length and ctype from t). */
BoundExpr *sql_bx_new_type(SqlStmtCtx *c, BxKind kind, const CombType *t,
                           AstPos pos);
/* Give e the result type t (kind, length, ctype). */
void sql_bx_set_type(BoundExpr *e, const CombType *t);

/* ------------------------------------------------- type rules (typerules.c) */

/* The whole result type of e (built in the statement arena for char(n) and
 * varchar(n)); NULL out of memory. */
const CombType *sql_bx_type(SqlStmtCtx *c, const BoundExpr *e);
/* Hive's name of t ("decimal(5,2)", "array<int>", "void" for NULL) and of
 * e's type, for messages (statement arena). */
const char *sql_type_text(SqlStmtCtx *c, const CombType *t);
const char *sql_bx_type_text(SqlStmtCtx *c, const BoundExpr *e);
/* Width rank of the integer kinds: tinyint 1 < smallint 2 < int 3 <
 * bigint 4; 0 for the others. */
int sql_int_rank(CombTypeKind k);
/* True when e already has type t (decimals: same precision and scale;
 * complex types: equal trees). */
bool sql_bx_has_type(const BoundExpr *e, const CombType *t);
/* decimal(precision, scale) in the statement arena, NULL out of memory. */
CombType *sql_decimal_type(SqlStmtCtx *c, int precision, int scale);
/* Hive's adjustPrecScale (GenericUDFBaseNumeric): a precision beyond 38
 * becomes 38 and the scale gives way, keeping at least min(scale, 6). */
CombType *sql_decimal_adjusted(SqlStmtCtx *c, int precision, int scale);
/* The decimal precision and scale Hive gives a value of e's type
 * (HiveDecimalUtils.getPrecisionForType/getScaleForType: tinyint 3,
 * smallint 5, int 10, bigint 19, float 7.7, double 15.15, void 1, strings
 * and others 38.18).  With by_value, an integer constant counts its digits
 * (Hive's constant object inspectors), as arithmetic does. */
void sql_decimal_params(const BoundExpr *e, bool by_value, int *precision,
                        int *scale);
/* The decimal type of Hive's HiveDecimalUtils.
 * getDecimalTypeForPrimitiveCategories(a, b). */
CombType *sql_decimal_common(SqlStmtCtx *c, const BoundExpr *a,
                             const BoundExpr *b);
/* Hive's implicit conversions between primitive kinds
 * (FunctionRegistry/TypeInfoUtils.implicitConvertible). */
bool sql_implicit_convertible(CombTypeKind from, CombTypeKind to);
/* Numbers: tinyint .. double and decimal. */
bool sql_is_number(CombTypeKind k);
/* string, varchar, char. */
bool sql_is_string(CombTypeKind k);
/* The type comparisons of a and b are done in (Hive's
 * getCommonClassForComparison); *to = NULL when a and b compare as they
 * are (same kinds: decimals of any scale, equal complex types).  False
 * when they cannot be compared. */
bool sql_compare_type(SqlStmtCtx *c, const BoundExpr *a, const BoundExpr *b,
                      const CombType **to);
/* The type values of a and b are united in (CASE, IF, COALESCE, IN
 * lists; Hive's getCommonClass): NULL with anything, numbers the wider
 * (decimal with decimal: max integer digits and scale), strings and
 * numbers or dates STRING, structs field by field, equal complex types.
 * NULL *out when there is none; COMB_ENOMEM. */
int sql_common_class(SqlStmtCtx *c, const CombType *a, const CombType *b,
                     const CombType **out);

typedef struct SqlScope SqlScope;

/* A scope's own resolution of a subtree, tried before the usual rules:
 * *out set = resolved (e.g. a GROUP BY key or an aggregate call becomes a
 * column of the aggregated batch), *out NULL = bind e as usual. */
typedef int (*SqlResolveFn)(SqlStmtCtx *c, const SqlScope *sc,
                            const AstExpr *e, BoundExpr **out, CombErr *err);

/* Name resolution scope: one table (or none), its alias, and where its
 * columns and ROW__ID live in the input batch.  With `resolve` set (the
 * items of an aggregate query), column references that the hook does not
 * resolve are errors: they are not GROUP BY keys. */
struct SqlScope {
    const SqlTable *table;  /* NULL: no FROM */
    const char *alias;      /* table name or alias used as qualifier */
    int rowid_col;          /* batch index of ROW__ID.writeid, -1 none */
    SqlResolveFn resolve;   /* NULL: plain scope */
    void *resolve_ctx;      /* for resolve */
};

/* An operator as Hive names it in messages ("and", "<>", "div"). */
const char *sql_op_text(AstOp op);

/* Bind an expression: resolve names, check and infer types, fold
 * constants.  Allocates in c->arena. */
int sql_bind_expr(SqlStmtCtx *c, const SqlScope *scope, const AstExpr *e,
                  BoundExpr **out, CombErr *err);

/* Conversions the binder inserts (bind_cast.c). */

/* Evaluate a constant tree once, over the statement's one-row batch; the
 * value is row 0 of e->out until sql_expr_release(e). */
int sql_eval_constant(SqlStmtCtx *c, BoundExpr *e, CombErr *err);
/* Replace a constant tree by a BX_CONST node (complex values stay trees). */
int sql_fold_constant(SqlStmtCtx *c, BoundExpr **pe, CombErr *err);
/* A conversion node of a to type `to` (none when a has that type), written
 * or implicit.  Conversions Hive refuses are errors: binary from anything
 * but strings, dates from numbers, complex values to other types, and with
 * hive.strict.timestamp.conversion (the default) numbers to timestamps and
 * dates/timestamps to numbers. */
int sql_bind_cast(SqlStmtCtx *c, BoundExpr *a, const CombType *to,
                  bool implicit, BoundExpr **out, CombErr *err);
/* An implicit conversion, folded when a is constant. */
int sql_bind_convert(SqlStmtCtx *c, BoundExpr *a, const CombType *to,
                     BoundExpr **out, CombErr *err);
int sql_bind_convert_kind(SqlStmtCtx *c, BoundExpr *a, CombTypeKind to,
                          BoundExpr **out, CombErr *err);
/* Convert a and every list[i] to the type they are compared in
 * (sql_compare_type across the list); op names the operator in errors.
 * fold = false keeps the conversions as nodes even over constants, so
 * that <=> can still tell a NULL operand from one that did not convert. */
int sql_bind_unify(SqlStmtCtx *c, BoundExpr **a, BoundExpr **list, int n,
                   const char *op, bool fold, CombErr *err);
/* Hive's narrowing of a constant compared with a bare column (`column op
 * constant` or `constant op column`): the constant becomes a value of the
 * column's type when it converts exactly. */
void sql_narrow_compare(SqlStmtCtx *c, const SqlScope *sc, BoundExpr **a,
                        BoundExpr **b);
/* The same for `column [NOT] IN (constants)`: constants that are no value
 * of the column's type leave the list; *emptied when none is left. */
void sql_narrow_in_list(SqlStmtCtx *c, const SqlScope *sc, BoundExpr *in,
                        bool *emptied);

/* Convert e for assignment to column `col` of t (INSERT, UPDATE): Hive's
 * implicit conversions, bad values are errors naming the column, and
 * varchar(n) values are cut to n characters and char(n) values padded to n,
 * as Hive stores them. */
int sql_bind_assign(SqlStmtCtx *c, BoundExpr *e, const SqlTable *t, int col,
                    BoundExpr **out, CombErr *err);

/* rtrim(e): CHAR values compare without their padding, as in Hive. */
int sql_bind_rtrim(SqlStmtCtx *c, BoundExpr *e, BoundExpr **out,
                   CombErr *err);

/* Wrap a string expression so its values fit char(n) / varchar(n). */
int sql_bind_fit_length(SqlStmtCtx *c, BoundExpr *e, CombTypeKind kind,
                        uint32_t length, BoundExpr **out, CombErr *err);

/* Complex values (complex.c): base[index] (an array element, 0-based,
 * NULL when out of range; a map's value for a key) and a struct's field. */
int sql_bind_index(SqlStmtCtx *c, BoundExpr *base, BoundExpr *index,
                   AstPos pos, BoundExpr **out, CombErr *err);
int sql_bind_struct_field(SqlStmtCtx *c, BoundExpr *base, const char *name,
                          AstPos pos, BoundExpr **out, CombErr *err);

/* array(), map(), named_struct(), struct() and size() over b's bound
 * arguments (b->fname names the call): *found says whether b->fname is
 * one of them; then b is typed and given its implementation. */
int sql_bind_complex_function(SqlStmtCtx *c, BoundExpr *b, bool *found,
                              CombErr *err);

/* Scalar function call (func.c); args already bound. */
int sql_bind_function(SqlStmtCtx *c, const SqlScope *sc, const AstExpr *e,
                      BoundExpr **args, int n_args, BoundExpr **out,
                      CombErr *err);
/* The result type of concat / || (GenericUDFConcat): CHAR(sum of
 * lengths) when every argument is a CHAR, VARCHAR(sum) when all are CHAR
 * or VARCHAR, else STRING.  The values are the arguments' stripped
 * values joined. */
void sql_concat_type(BoundExpr *const *args, int n, CombTypeKind *type,
                     uint32_t *length);


/* The type values are united in (CASE, IF, COALESCE, NVL; NULL entries
 * skipped): sql_common_class across them, STRING when all are NULL;
 * Hive's error 10016 when two do not unite. */
int sql_common_value_type(SqlStmtCtx *c, BoundExpr *const *vals, int n,
                          const CombType **to, CombErr *err);

/* CHAR values of different lengths united (CASE, COALESCE): each is
 * padded to the longest length, the result's (Hive's common type of
 * char(m) and char(n) is char(max(m, n))).  NULL entries are skipped. */
int sql_bind_unite_chars(SqlStmtCtx *c, BoundExpr **vals, int n,
                         uint32_t *length, CombErr *err);

/* CASE WHEN conds[i] THEN vals[i] ... [ELSE other] END (also IF(c,a,b)):
 * the values are brought to one type. */
int sql_bind_case(SqlStmtCtx *c, BoundExpr **conds, BoundExpr **vals, int n,
                  BoundExpr *other, AstPos pos, BoundExpr **out, CombErr *err);

/* count, sum, min, max, avg. */
bool sql_is_aggregate(const char *name);

/* Set project[i] for every table column i (< n_cols) that e reads. */
void sql_expr_mark_columns(const BoundExpr *e, int n_cols, bool *project);

/* True if e references no column. */
bool sql_expr_is_const(const BoundExpr *e);

/* Allocate output vectors of e's tree (capacity rows). */
int sql_expr_prepare(BoundExpr *e, CombArena *a, int capacity, CombErr *err);

/* Evaluate e over the live rows of `in`; result in e->out at the same
 * physical row indexes.  scratch holds produced strings until reset. */
int sql_expr_eval(BoundExpr *e, const CombBatch *in, CombErr *err);

/* Set row `row` of an output vector NULL or not NULL during a pass over
 * batch `in`.  The first NULL of a pass clears the mask for all rows, which
 * were computed as "no nulls" so far. */
static inline void sql_vec_mark(CombVector *v, const CombBatch *in, int row,
                                bool null)
{
    if (null && !v->has_nulls) {
        for (int i = 0; i < in->n_rows; i++)
            v->nulls[i] = 0;
        v->has_nulls = true;
    }
    if (v->has_nulls)
        v->nulls[row] = null;
}

/* Evaluate a BX_CAST node (cast.c); its operand is already evaluated. */
int sql_eval_cast(BoundExpr *e, const CombBatch *in, CombErr *err);

/* a op b (+ - * / %) of DECIMALs (unscaled at scales sa, sb) as Hive's
 * HiveDecimal arithmetic gives it, then as a DECIMAL(p, s) value (HALF_UP);
 * false when the answer is NULL (x / 0, x % 0, too many digits).
 * decarith.c. */
bool sql_dec_arith(AstOp op, comb_i128 a, int sa, comb_i128 b, int sb,
                   int p, int s, comb_i128 *out);

/* Narrow b's selection to rows where pred is TRUE. */
int sql_filter_batch(BoundExpr *pred, CombBatch *b, CombErr *err);

/* Free the vectors sql_expr_prepare allocated. */
void sql_expr_release(BoundExpr *e);

/* ---------------------------------------------------------------- executor */

/* A scan of a table under the statement snapshot: its units (partitions
 * the filter can match, or the table directory) one after the other, each
 * read as its kind keeps rows (merge on read for full ACID tables, the
 * snapshot's base and deltas for insert-only ones, every visible file for
 * plain ones), with the partition columns filled in and the filter
 * applied.  A batch never spans two units. */
typedef struct SqlScan {
    SqlStmtCtx *c;
    const SqlTable *t;
    bool *project;          /* per table column (partition keys: false) */
    bool want_row_id;
    SqlUnit *units;
    int n_units;
    int unit;               /* unit of the current batch; -1 before */
    AcidReader *reader;     /* of units[unit]; NULL between units */
    TextReader *text;       /* TEXTFILE: of text_files[text_next - 1] */
    TextOptions text_opt;
    char **text_files;      /* TEXTFILE: the files of units[unit] */
    int n_text_files, text_next;
    bool unit_open;
    CombBatch batch;        /* table columns + the 3 ROW__ID columns */
    BoundExpr *filter;      /* may be NULL */
    CombWriteIdList wil;    /* transactional tables */
    bool have_wil;
} SqlScan;

/* Open a scan of t: project[i] for each column read (NULL = all), ROW__ID
 * wanted (full ACID tables only), where the filter (NULL none; prepared
 * and owned by the scan from now on). */
int sql_scan_open(SqlStmtCtx *c, const SqlTable *t, const bool *project,
                  bool want_row_id, BoundExpr *where, SqlScan *scan,
                  CombErr *err);
/* Next batch with the filter applied; *done at the end. */
int sql_scan_next(SqlScan *scan, bool *done, CombErr *err);
/* The unit the last batch came from. */
static inline const SqlUnit *sql_scan_unit(const SqlScan *scan)
{
    return scan->unit >= 0 ? &scan->units[scan->unit] : NULL;
}
void sql_scan_close(SqlScan *scan);

/* The data files of a unit that are not full ACID: an insert-only
 * table's base and deltas under the snapshot, or every visible regular
 * file of a plain table's directory (names not starting with '_' or '.'),
 * sorted.  Paths in the statement arena. */
int sql_unit_files(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                   const CombWriteIdList *wil, char ***paths, int *n,
                   CombErr *err);

/* Where a statement's rows go (write.c): one writer per unit of the
 * target table, opened as rows for it arrive. */
typedef struct SqlUnitWriter SqlUnitWriter;
typedef struct SqlWriter {
    SqlStmtCtx *c;
    SqlTable *t;
    MsOpType op;
    bool overwrite;          /* INSERT OVERWRITE */
    char *const *static_values; /* per partition key: a static value's
                                   text, or NULL (dynamic) */
    int64_t write_id;        /* transactional tables */
    OrcWriterGroup *group;   /* memory budget of all the statement's files */
    TextOptions text_opt;    /* TEXTFILE tables: the SerDe's settings */
    SqlOrcOptions orc;       /* ORC tables: codec and stripe size */
    int *buckets;            /* per physical row of the batch written */
    const CombType *row_type; /* struct of the data columns (plain files) */
    SqlUnitWriter *units;
    int n_units, cap_units;
    int *unit_slots;         /* routing: unit index + 1 by the hash of its
                                partition values (open addressing), 0 empty */
    int n_slots;
    int max_dynamic, max_dynamic_node;
    int64_t n_written;       /* rows written */
    bool finished;
    int stmt_id;             /* statement id of the delta_W_W_S directories
                                (and of the ROW__IDs written), 0 unless a
                                multi-insert sets it before the first row;
                                plain tables: tells apart the staging
                                directories of one statement's writers */
    struct SqlWriter *same_table; /* an earlier writer of the same table in
                                this statement (multi-insert), or NULL: a
                                unit both write is refused when either
                                overwrites it */
    bool new_table;          /* CREATE TABLE AS SELECT: t is not in the
                                catalog yet, so finish leaves the new
                                partitions in new_parts for the commit that
                                creates it (ms_txn_commit_create) */
    MsPartition *new_parts;
    int n_new_parts;
} SqlWriter;

/* LOAD DATA: a copy of file src becomes a file of unit `name` (values as
 * text) under the source's own name (Hive's _copy_N when taken), made
 * durable and put in place with the written files at finish. */
int sql_writer_add_file(SqlWriter *w, const char *name, char **values,
                        const char *src, CombErr *err);
/* The PARTITION clause of an INSERT or LOAD (c->stmt->part): per
 * partition key the text of its static value (MS_DEFAULT_PARTITION_NAME
 * for NULL), NULL for a dynamic key; all dynamic without a clause.
 * Hive's rules: every key is named, static keys come before dynamic ones,
 * dynamic partitions need hive.exec.dynamic.partition and, in strict mode
 * (unless nonstrict: LOAD runs so, as Hive's rewrite does), a static key. */
int sql_insert_partition_spec(SqlStmtCtx *c, const SqlTable *t, bool nonstrict,
                              char ***out, int *n_dynamic, CombErr *err);
/* A LOCATION or path as an absolute local path: a "file:" URI's path, a
 * relative path against the working directory; other schemes refused. */
int sql_absolute_location(SqlStmtCtx *c, const char *location, char **out,
                          CombErr *err);
/* Before the first write to a transactional table (no write id of it is
 * known): COMB_EINVALID if its directories hold ACID data another engine
 * wrote (a LOCATION adopted without MSCK REPAIR TABLE, ddl_msck.c), which
 * a new write id would claim as its own. */
int sql_check_adopted(SqlStmtCtx *c, const SqlTable *t, CombErr *err);
/* Open the writer of table t for statement kind op (allocates the write
 * id of a transactional table).  static_values: NULL, or per partition
 * key the text of a static PARTITION value (NULL = dynamic). */
int sql_writer_open(SqlStmtCtx *c, SqlTable *t, MsOpType op, bool overwrite,
                    char *const *static_values, SqlWriter **out, CombErr *err);
/* Write the live rows of b, whose columns are the table's (data columns,
 * then partition columns), each to its partition. */
int sql_writer_insert(SqlWriter *w, const CombBatch *b, CombErr *err);
/* Open the unit now even if no row comes (INSERT OVERWRITE of a
 * partition or table with no rows empties it). */
int sql_writer_touch(SqlWriter *w, const char *name, char **values,
                     CombErr *err);
/* A delete event for a row of unit u (full ACID). */
int sql_writer_delete(SqlWriter *w, const SqlUnit *u, int64_t owid,
                      int32_t bucket_prop, int64_t row_id, CombErr *err);
/* Make every file durable (and visible, for plain tables), record new
 * partitions and the transaction's components.  The session commits the
 * transaction after this.  The two steps of sql_writer_finish:
 * sql_writer_finish_files, then sql_writer_record. */
int sql_writer_finish(SqlWriter *w, CombErr *err);
int sql_writer_finish_files(SqlWriter *w, CombErr *err);
int sql_writer_record(SqlWriter *w, CombErr *err);
/* The statement failed after w finished: sql_writer_close undoes what
 * it made visible (a plain table's files) as for an unfinished writer. */
void sql_writer_fail(SqlWriter *w);
/* Release everything; an unfinished writer's files are removed or left
 * invisible.  NULL ok. */
void sql_writer_close(SqlWriter *w);

/* One INSERT (exec_dml.c) in steps, each run with c->stmt the INSERT, so
 * that a multi-insert (exec_multi.c) can plan every clause, and open its
 * reads, before the first write id exists, then write each, then finish
 * them all.  sql_exec_insert is the three steps for one statement. */
typedef struct SqlSelectPlan SqlSelectPlan;
typedef struct SqlInsert {
    SqlTable *t;
    char **static_values;   /* sql_insert_partition_spec */
    int *map, n_map;        /* value position -> table column */
    SqlSelectPlan *sel;     /* INSERT ... SELECT (open after planning) */
    SqlWriter *w;           /* after sql_insert_write */
    CombBatch nulls;        /* an all-NULL vector per table column */
    CombVector *view;       /* a select batch's columns in table order */
} SqlInsert;
/* Resolve the target, its PARTITION clause and columns; plan and open
 * the SELECT under the statement snapshot. */
int sql_insert_plan(SqlStmtCtx *c, SqlInsert *ins, CombErr *err);
/* Open the writer (statement id stmt_id, same_table as SqlWriter's) and
 * write every row. */
int sql_insert_write(SqlStmtCtx *c, SqlInsert *ins, int stmt_id,
                     SqlWriter *same_table, CombErr *err);
/* The partition a planned INSERT names with static values alone (*name
 * NULL when a key is dynamic or the table is not partitioned); *values
 * the keys' text, NULL for the default partition. */
int sql_insert_static_name(SqlStmtCtx *c, const SqlInsert *ins, char **name,
                           char ***values, CombErr *err);
/* Release the writer (see sql_writer_close) and the select. */
void sql_insert_close(SqlInsert *ins);

/* SELECT plans (exec_select.c), also used by INSERT ... SELECT. */
int sql_select_plan(SqlStmtCtx *c, const AstSelect *s, SqlSelectPlan **out,
                    CombErr *err);
void sql_select_output(const SqlSelectPlan *p, int *n_out,
                       const char *const **names, const CombTypeKind **kinds);
/* The whole type of each output column. */
const CombType *const *sql_select_types(const SqlSelectPlan *p);
/* Convert output j to the type of table column map[j] (for INSERT), for
 * every kind of plan: streaming, sorted and aggregated. */
int sql_select_coerce(SqlStmtCtx *c, SqlSelectPlan *p, const int *map,
                      const SqlTable *t, CombErr *err);
/* Build the operator tree (op.h), then open it: scans take their tables'
 * write-id lists. */
int sql_select_open(SqlStmtCtx *c, SqlSelectPlan *p, CombErr *err);
int sql_select_run(SqlStmtCtx *c, SqlSelectPlan *p, const SqlSink *sink,
                   CombErr *err);
void sql_select_close(SqlSelectPlan *p);  /* NULL ok */

/* Hive's refusals of a write target: a view (10090 for INSERT and LOAD,
 * 10402 for UPDATE and DELETE), and for UPDATE and DELETE a table that is
 * not full ACID (10414 insert-only, 10297 not transactional). */
int sql_table_writable(const SqlTable *t, AstPos pos, bool update_delete,
                       CombErr *err);
/* Stream the rows of an opened SELECT into writer w: output k goes to
 * table column map[k] (exec_dml.c; INSERT ... SELECT and CTAS). */
int sql_insert_select_rows(SqlStmtCtx *c, SqlWriter *w, SqlSelectPlan *sel,
                           const int *map, int n_map, CombErr *err);

/* Statement runners (exec_*.c). */
int sql_exec_ddl(SqlStmtCtx *c, CombErr *err);
int sql_exec_select(SqlStmtCtx *c, CombErr *err);
int sql_exec_insert(SqlStmtCtx *c, CombErr *err);
int sql_exec_multi_insert(SqlStmtCtx *c, CombErr *err);
int sql_exec_load(SqlStmtCtx *c, CombErr *err);
int sql_exec_update_delete(SqlStmtCtx *c, CombErr *err);
int sql_exec_set(SqlStmtCtx *c, CombErr *err);
int sql_exec_explain(SqlStmtCtx *c, CombErr *err);

/* Commit the statement's transaction (files must already be durable). */
int sql_txn_commit(SqlStmtCtx *c, CombErr *err);

/* Fault points for crash tests: when conf comb.test.crash.point equals
 * `name`, the process exits immediately (as if killed). */
void sql_crash_point(SqlStmtCtx *c, const char *name);

#endif
