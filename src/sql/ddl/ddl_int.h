/*
 * ddl_int.h - private to the catalog statements (ddl/: ddl_*.c,
 * exec_ddl.c) and the session's dispatch (sql_exec_ddl, sql_exec_set):
 * their entry points and the helpers they share (ddl_util.c).
 */
#ifndef COMB_SQL_DDL_INT_H
#define COMB_SQL_DDL_INT_H

#include "common/buf.h"
#include "sql/exec/exec.h"
#include "sql/func/rowstore.h"
#include "sql/sql_int.h"

/* Hive's SHOW ... LIKE pattern: '*' any run, '|' alternatives, no case. */
bool sql_show_match(const char *pat, const char *name);
/* Hive error 10072 for database n. */
int sql_db_missing(const AstName *n, CombErr *err);
/* What CREATE does after looking its object up (lookup_rc): go on
 * (COMB_OK, *done false), stop quietly under IF NOT EXISTS (*done), or
 * fail: COMB_EEXISTS, or the lookup's own error. */
int sql_create_check(int lookup_rc, bool if_not_exists, bool *done);
/* Owns its files: neither EXTERNAL nor a view (which has none). */
bool sql_table_is_managed(const MsTable *t);
/* The first entry of dir that looks like an ACID directory, or NULL (also
 * for a missing dir).  *n_entries gets the number of entries. */
int sql_first_acid_dir(SqlStmtCtx *c, const char *dir, const char **found,
                       int *n_entries, CombErr *err);

/* Directories a DROP renamed aside: removed after the catalog commit, put
 * back if it fails.  On an object store, where a rename copies every
 * object, a directory stays where it is (to == from) and is removed after
 * the commit all the same. */
typedef struct AsideDirs {
    char **from;             /* where each was */
    char **to;               /* its hidden name now (or from) */
    int n, cap;
} AsideDirs;

int sql_aside_move(SqlStmtCtx *c, const char *dir, AsideDirs *l, CombErr *err);
int sql_aside_put_back(SqlStmtCtx *c, AsideDirs *l, CombErr *err);
int sql_aside_remove(SqlStmtCtx *c, const AsideDirs *l, CombErr *err);

/* ------------------------------------------ Hive's text (ddl_hivetext.c) */

/* Text as Hive's DDL operations lay it out (ShowUtils), cut into result
 * rows as Hive's fetch reads its result file: one row per line, fields at
 * tabs, missing fields NULL, extra ones dropped.  padded: the CLI's layout
 * (fields padded to 20 characters); else HiveServer2's. */
typedef struct HiveText {
    CombBuf b;
    bool padded;
    int oom;
} HiveText;

/* How HiveStringUtils / StringEscapeUtils escape a value: escapeJava
 * (" \ and \b \t \n \f \r), StringEscapeUtils.escapeJava (the same and
 * \uXXXX outside ASCII 32..127), escapeHiveCommand (' ; \ and the control
 * escapes) and escapeUnicode(escapeHiveCommand(...)). */
typedef enum HiveEscape {
    HIVE_ESCAPE_JAVA,
    HIVE_ESCAPE_JAVA_UNICODE,
    HIVE_ESCAPE_COMMAND,
    HIVE_ESCAPE_COMMAND_UNICODE
} HiveEscape;

void hive_text_init(HiveText *h, bool padded);
void hive_text_free(HiveText *h);
/* s, without or with a line break after it. */
void hive_text_put(HiveText *h, const char *s);
void hive_text_line(HiveText *h, const char *s);
/* A row of TextMetaDataTable (formatOutput(fields, padded, padded)):
 * padded, every field but the last padded to 20 and the last's lines
 * indented under it; else the fields escaped and joined by tabs. */
int hive_text_row(HiveText *h, CombArena *a, const char *const *fields,
                  int n);
/* formatOutput(name, value): both padded, value's lines indented, NULL
 * printed "null". */
void hive_text_pair(HiveText *h, const char *name, const char *value);
/* displayAllParameters: sorted by key, each "\t" + pair, the value
 * escaped (escape_unicode: StringEscapeUtils'), with padded_values its \n
 * escapes turned back into line breaks. */
int hive_text_params(HiveText *h, CombArena *a, const MsProperty *params,
                     int n, bool escape_unicode, bool padded_values);
/* Send the text as rows of n_cols string columns; frees nothing. */
int hive_text_emit(SqlStmtCtx *c, HiveText *h, int n_cols,
                   const char *const *names, CombErr *err);
/* s escaped as `how` says, in arena memory; NULL for NULL (or no memory
 * when s is not NULL). */
char *hive_escape(CombArena *a, const char *s, HiveEscape how);
/* Sort by key (Java's String order for ASCII keys: byte order). */
void sql_props_sort(MsProperty *props, int n);
/* Setting comb.ddl.padded: the CLI's padded layout. */
bool sql_ddl_padded(const SqlStmtCtx *c);

/* ------------------------------------------- basic stats (ddl_stats.c) */

typedef struct SqlBasicStats {
    int64_t num_files;
    int64_t num_rows;
    int64_t raw_data_size;
    int64_t total_size;
} SqlBasicStats;

/* The statistics of one unit (partition or unpartitioned table) under
 * the statement's snapshot; zero for a view. */
int sql_unit_stats(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *u,
                   SqlBasicStats *s, CombErr *err);
/* Summed over every partition; *n_parts partitions (0 unpartitioned). */
int sql_table_stats(SqlStmtCtx *c, const SqlTable *t, SqlBasicStats *s,
                    int *n_parts, CombErr *err);
/* The parameters Hive shows for a table (DESCRIBE, SHOW TBLPROPERTIES):
 * the stored ones, COLUMN_STATS_ACCURATE {"BASIC_STATS":"true"} and the
 * computed numFiles, numFilesErasureCoded, numRows, rawDataSize,
 * totalSize, numPartitions (partitioned tables), and
 * transient_lastDdlTime when none is stored.  Views: the stored ones. */
int sql_table_params(SqlStmtCtx *c, const SqlTable *t, MsProperty **out,
                     int *n, CombErr *err);
/* The same for one partition (no numPartitions). */
int sql_partition_params(SqlStmtCtx *c, const SqlTable *t,
                         const MsPartition *p, MsProperty **out, int *n,
                         CombErr *err);

/* ------------------------------------- catalog lookups (ddl_describe.c) */

/* The table or view named for a catalog statement: Hive's 10072 for a
 * named database that does not exist, 10001 "Table not found <db>.<t>"
 * (qualify, or the name has a db) or "... <t>" without a position, as
 * Hive's DDL analyzers report them. */
int sql_catalog_table(SqlStmtCtx *c, const AstName *name, bool qualify,
                      SqlTable **out, CombErr *err);
/* The partition a full PARTITION (k='v', ...) spec names; Hive's 10006
 * "Partition not found {k=v, ...}" when there is none (also for a partial
 * spec or a key that is no partition key). */
int sql_spec_partition(SqlStmtCtx *c, const SqlTable *t, const AstPartSpec *ps,
                       MsPartition **out, CombErr *err);
/* A location as the URI Hive prints: "file:/dir". */
char *sql_location_uri(CombArena *a, const char *path);

/* ------------------------------------------------ CREATE TABLE in steps */

/* CREATE TABLE in steps (ddl_table.c), shared with CREATE TABLE AS SELECT
 * and LIKE (ddl_ctas.c), which run them over a statement of their own
 * making set as c->stmt: the catalog record of the table c->stmt
 * describes (columns, kind and properties by Hive's rules, its location);
 * its directory (sql_table_choose_dir: a managed table's leftovers are
 * never read; *adopted names the ACID directory of a LOCATION whose data
 * the table adopts, else NULL); and both created, unless it exists under IF NOT EXISTS.
 * sql_table_create_error gives Hive's texts for a create's EEXISTS and
 * ENOTFOUND. */
int sql_table_define(SqlStmtCtx *c, MsTable *t, CombErr *err);
int sql_table_choose_dir(SqlStmtCtx *c, MsTable *t, const char **adopted,
                         CombErr *err);
int sql_table_create(SqlStmtCtx *c, MsTable *t, CombErr *err);
int sql_table_create_error(SqlStmtCtx *c, const MsTable *t, int rc,
                           CombErr *err);

/* The columns a bound query gives, named as CREATE VIEW and CREATE TABLE
 * AS SELECT name them (a star's "t.a" is "a"), Hive's 10036 for a name
 * given twice. */
int sql_query_columns(SqlStmtCtx *c, const SqlSelectPlan *p,
                      const char ***names, const CombType *const **types,
                      int *n, CombErr *err);

/* Statements.  sql_exec_ddl (exec_ddl.c) runs any of them for the session,
 * and SET. */
int sql_exec_ddl(SqlStmtCtx *c, CombErr *err);
int sql_exec_set(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_use(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_databases(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_tables(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_functions(SqlStmtCtx *c, CombErr *err);
/* DESCRIBE FUNCTION [EXTENDED] f (ddl_functions.c, texts in
 * ddl_funcdoc.c) */
int sql_exec_describe_function(SqlStmtCtx *c, CombErr *err);
typedef struct SqlFuncDoc {
    const char *names;       /* synonyms, '|' between */
    const char *usage;       /* the call, _FUNC_ for the name */
    const char *text;
} SqlFuncDoc;
/* The entry naming name (any case); NULL none. */
const SqlFuncDoc *sql_func_doc(const char *name);
/* SHOW COMPACTIONS, ABORT COMPACTIONS (ddl_compact.c). */
int sql_exec_show_compactions(SqlStmtCtx *c, CombErr *err);
int sql_exec_abort_compactions(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_compaction_metrics(SqlStmtCtx *c, CombErr *err);
int sql_exec_describe(SqlStmtCtx *c, CombErr *err);
int sql_exec_alter(SqlStmtCtx *c, CombErr *err);     /* ddl_alter.c */
int sql_exec_truncate(SqlStmtCtx *c, CombErr *err);  /* ddl_alter_files.c */
int sql_exec_describe_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_create_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_tblproperties(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_columns(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_partitions(SqlStmtCtx *c, CombErr *err);
int sql_exec_msck(SqlStmtCtx *c, CombErr *err);
int sql_exec_analyze(SqlStmtCtx *c, CombErr *err);  /* ddl_analyze.c */
int sql_exec_ctas(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_like(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_view(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_view(SqlStmtCtx *c, CombErr *err);
int sql_exec_alter_view(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_locks(SqlStmtCtx *c, CombErr *err);        /* ddl_locks.c */
int sql_exec_show_transactions(SqlStmtCtx *c, CombErr *err);
/* authorization (ddl_auth.c); sql_exec_grant runs REVOKE too,
 * sql_exec_grant_role REVOKE ROLE */
int sql_exec_create_role(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_role(SqlStmtCtx *c, CombErr *err);
int sql_exec_set_role(SqlStmtCtx *c, CombErr *err);
int sql_exec_grant(SqlStmtCtx *c, CombErr *err);
int sql_exec_grant_role(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_roles(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_current_roles(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_grant(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_role_grant(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_principals(SqlStmtCtx *c, CombErr *err);
int sql_exec_abort_transactions(SqlStmtCtx *c, CombErr *err);

#endif
