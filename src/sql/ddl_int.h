/*
 * ddl_int.h - private to the catalog statements (ddl_*.c, exec_ddl.c) and
 * EXPLAIN (explain.c, for its text result): their entry points and the
 * helpers they share (ddl_util.c).
 */
#ifndef COMB_SQL_DDL_INT_H
#define COMB_SQL_DDL_INT_H

#include "sql/rowstore.h"
#include "sql/sql_int.h"

/* A result of text columns, collected and then emitted to the sink. */
typedef struct TextResult {
    SqlRowStore rs;
    int n_cols;
} TextResult;

int sql_text_begin(TextResult *tr, int n_cols);
/* Append one row of n_cols strings (NULL pointer = SQL NULL). */
int sql_text_row(TextResult *tr, const char *const *vals, CombErr *err);
/* Send the rows with these column names to the statement's sink; frees
 * the rows either way. */
int sql_text_emit(SqlStmtCtx *c, TextResult *tr, const char *const *names,
                  CombErr *err);

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

/* Directories a DROP renamed aside: removed after the catalog commit, put
 * back if it fails. */
typedef struct AsideDirs {
    char **from;             /* where each was */
    char **to;               /* its hidden name now */
    int n, cap;
} AsideDirs;

int sql_aside_move(SqlStmtCtx *c, const char *dir, AsideDirs *l, CombErr *err);
int sql_aside_put_back(SqlStmtCtx *c, AsideDirs *l, CombErr *err);
int sql_aside_remove(SqlStmtCtx *c, const AsideDirs *l, CombErr *err);

/* CREATE TABLE in steps (ddl_table.c), shared with CREATE TABLE AS SELECT
 * and LIKE (ddl_ctas.c), which run them over a statement of their own
 * making set as c->stmt: the catalog record of the table c->stmt
 * describes (columns, kind and properties by Hive's rules, its location);
 * its directory (sql_table_choose_dir: a managed table's leftovers are
 * never read); and both created, unless it exists under IF NOT EXISTS.
 * sql_table_create_error gives Hive's texts for a create's EEXISTS and
 * ENOTFOUND. */
int sql_table_define(SqlStmtCtx *c, MsTable *t, CombErr *err);
int sql_table_choose_dir(SqlStmtCtx *c, MsTable *t, CombErr *err);
int sql_table_create(SqlStmtCtx *c, MsTable *t, CombErr *err);
int sql_table_create_error(SqlStmtCtx *c, const MsTable *t, int rc,
                           CombErr *err);

/* The columns a bound query gives, named as CREATE VIEW and CREATE TABLE
 * AS SELECT name them (a star's "t.a" is "a"), Hive's 10036 for a name
 * given twice. */
int sql_query_columns(SqlStmtCtx *c, const SqlSelectPlan *p,
                      const char ***names, const CombType *const **types,
                      int *n, CombErr *err);

/* Statements. */
int sql_exec_create_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_use(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_databases(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_tables(SqlStmtCtx *c, CombErr *err);
int sql_exec_describe(SqlStmtCtx *c, CombErr *err);
int sql_exec_ctas(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_like(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_view(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_view(SqlStmtCtx *c, CombErr *err);
int sql_exec_alter_view(SqlStmtCtx *c, CombErr *err);

#endif
