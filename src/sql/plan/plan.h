/*
 * plan.h - the inputs of planning: tables resolved through the metastore
 * into SqlTables (catalog.c: columns, kind, bucketing, SerDe settings,
 * write-id lists) and the units (partitions) a statement reads or writes,
 * with partition pruning and partition values as text (partition.c).
 */
#ifndef COMB_SQL_PLAN_H
#define COMB_SQL_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "common/err.h"
#include "common/txnlist.h"
#include "metastore/ms.h"
#include "sql/func/expr.h"
#include "sql/sql_int.h"
#include "text/text.h"

/* ------------------------------------------------------ tables (catalog.c) */

/* The SqlTable of a catalog record (columns typed, kind, bucketing). */
int sql_table_from_ms(SqlStmtCtx *c, MsTable *ms, SqlTable **out, CombErr *err);
/* The LazySimpleSerDe settings of a TEXTFILE table: Hive's defaults, then
 * its SERDEPROPERTIES, then its TBLPROPERTIES (skip.header.line.count,
 * serialization.null.format, ... as Hive merges them). */
int sql_table_text_options(const SqlTable *t, TextOptions *o, CombErr *err);
/* Resolve [db.]name to a table (Hive error 10001 when missing); the
 * statement's LOAD DATA source table (load_source) by its name. */
int sql_table_resolve(SqlStmtCtx *c, const AstName *name, SqlTable **out,
                      CombErr *err);
/* COMB_OK if rows of t can be placed in buckets: t is not bucketed, or it
 * is clustered by columns comb can hash under a supported
 * bucketing_version.  Else the error naming the table. */
int sql_table_bucketing(const SqlTable *t, CombErr *err);
/* Write-id list of a table under the statement snapshot. */
int sql_table_writeids(SqlStmtCtx *c, const SqlTable *t,
                       CombWriteIdList *out, CombErr *err);

/* ------------------------------------ DEFAULT constraints (defaults.c) */

/* The DEFAULT keyword as a value: a lone, unqualified `default`. */
bool sql_is_default_keyword(const AstExpr *e);
/* The DEFAULT text of column col of t as the metastore keeps it; NULL if
 * it has none (partition keys never have one). */
const char *sql_column_default_text(const SqlTable *t, int col);
/* The value column col of t gets when a statement gives none (or DEFAULT):
 * its DEFAULT parsed, else a NULL literal at pos. */
int sql_column_default(SqlStmtCtx *c, const SqlTable *t, int col, AstPos pos,
                       AstExpr **out, CombErr *err);
/* e, or the column's default when e is the DEFAULT keyword. */
int sql_value_or_default(SqlStmtCtx *c, const SqlTable *t, int col,
                         AstExpr *e, AstExpr **out, CombErr *err);
/* CREATE TABLE's checks of a DEFAULT (Hive's error 10326 texts): at most
 * 255 characters, constants and functions of them only, and of the
 * column's type exactly (DEFAULT NULL suits any). */
int sql_default_check(SqlStmtCtx *c, const AstExpr *value,
                      const CombType *col_type, CombErr *err);
/* The [CONSTRAINT name] DEFAULT of column definition cd (none: nothing
 * done) checked as Hive's ConstraintsUtils does (DISABLE refused: comb
 * keeps enabled defaults only; VALIDATE, EXTERNAL tables, names over 255
 * characters, then sql_default_check) and set on col: the text and the
 * name (a generated one, as Hive's metastore's, when none is given) for
 * table db.table.  Names unique within the table are the caller's
 * check. */
int sql_default_build(SqlStmtCtx *c, const AstColumnDef *cd, const char *db,
                      const char *table, bool external, MsColumn *col,
                      CombErr *err);

/* ----------------------------------------------------- units (partition.c) */

/* The units of t a scan reads: every partition whose keys can satisfy
 * the conjuncts of `where` that read only partition columns (the others
 * are pruned; where may be NULL and is prepared here), in SHOW PARTITIONS
 * order; the table's directory when it has no partitions. */
int sql_table_units(SqlStmtCtx *c, const SqlTable *t, BoundExpr *where,
                    SqlUnit **out, int *n, CombErr *err);
/* The same, and *whole: no conjunct prunes partitions (every partition
 * is read, whatever the partitions are). */
int sql_table_units_pruned(SqlStmtCtx *c, const SqlTable *t, BoundExpr *where,
                           SqlUnit **out, int *n, bool *whole, CombErr *err);
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

#endif
