/*
 * alter_int.h - private to ALTER TABLE / ALTER VIEW and TRUNCATE TABLE:
 * ddl_alter.c (the table's definition: rename, columns, properties, SerDe
 * properties, location), ddl_alter_part.c (partition specs, ADD and DROP
 * PARTITION) and ddl_alter_files.c (statements that rewrite a table's
 * files: CONCATENATE, TRUNCATE, conversion to insert-only).
 *
 * Every statement checks everything it can before it touches a file, then
 * makes its new files and directories durable, then commits the catalog
 * (and the transaction, where one is needed), then removes what the old
 * state needed; a failure before the commit undoes what was done, so the
 * statement is all or nothing.
 */
#ifndef COMB_SQL_ALTER_INT_H
#define COMB_SQL_ALTER_INT_H

#include "sql/ddl/ddl_int.h"

/* The table an ALTER or TRUNCATE works on. */
typedef struct AlterTarget {
    MsTable *ms;             /* as stored (statement arena); ALTERs edit a
                                copy of it */
    SqlTable *t;             /* typed columns and kind */
    const char *db;
} AlterTarget;

/* The table named by the statement: Hive's 10001 "Table not found
 * db.t" (qualified_msg) or "Table not found t" as written. */
int sql_alter_target(SqlStmtCtx *c, const AstName *name, bool qualified_msg,
                     AlterTarget *out, CombErr *err);

/* One partition a statement names (PARTITION (k = v, ...)): every key of
 * the table given, the values converted to the keys' types as INSERT ...
 * PARTITION converts them, and the catalog partition. */
typedef struct AlterPart {
    char *name;              /* "k1=v1/k2=v2" */
    char **values;           /* per key; MS_DEFAULT_PARTITION_NAME for NULL */
    MsPartition *ms;         /* NULL when the catalog has none */
} AlterPart;

/* The partitions `spec` names.  full: every key must be given (Hive's
 * "doesn't contain all (n) partition columns" otherwise), the one
 * partition in out[0] (ms NULL if it does not exist); else a partial spec
 * gives the existing partitions matching it.  Errors as Hive's
 * getValidatedPartSpec: unpartitioned table, keys that are not partition
 * keys, values that do not convert (10248). */
int sql_alter_spec(SqlStmtCtx *c, const AlterTarget *tg, const AstPartSpec *spec,
                   bool full, AlterPart **out, int *n, CombErr *err);

/* Hive's 10006 "Partition not found {k=v, ...}" for spec. */
int sql_alter_no_partition(SqlStmtCtx *c, const AstPartSpec *spec,
                           CombErr *err);

/* Store t (a changed copy of the target's catalog record) as Hive's
 * alter_table does, with last_modified_by / last_modified_time. */
int sql_alter_store(SqlStmtCtx *c, MsTable *t, CombErr *err);

/* ALTER TABLE ... ADD / DROP PARTITION (ddl_alter_part.c). */
int sql_alter_add_partitions(SqlStmtCtx *c, AlterTarget *tg, CombErr *err);
int sql_alter_drop_partitions(SqlStmtCtx *c, AlterTarget *tg, CombErr *err);

/* ALTER TABLE ... [PARTITION (...)] CONCATENATE (ddl_alter_files.c). */
int sql_alter_concatenate(SqlStmtCtx *c, AlterTarget *tg, CombErr *err);

/* ALTER TABLE ... [PARTITION (...)] COMPACT (ddl_compact.c). */
int sql_alter_compact(SqlStmtCtx *c, AlterTarget *tg, CombErr *err);

/* A plain table's files become the first delta of the insert-only table
 * `to` (its definition, stored here once the files are in place), as
 * Hive's conversion moves them: each unit's visible files go into
 * delta_W_W_0000, W the statement's write id, committed before the
 * catalog changes (ddl_alter_files.c). */
int sql_alter_to_insert_only(SqlStmtCtx *c, AlterTarget *tg, MsTable *to,
                             CombErr *err);

#endif
