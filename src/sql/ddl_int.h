/*
 * ddl_int.h - private to the catalog statements (ddl_*.c, exec_ddl.c):
 * their entry points and the helpers they share (ddl_util.c).
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
/* Not EXTERNAL (managed tables own their files). */
bool sql_table_is_managed(const MsTable *t);
/* The first entry of dir that looks like an ACID directory, or NULL (also
 * for a missing dir).  *n_entries gets the number of entries. */
int sql_first_acid_dir(SqlStmtCtx *c, const char *dir, const char **found,
                       int *n_entries, CombErr *err);

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

/* Statements. */
int sql_exec_create_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_database(SqlStmtCtx *c, CombErr *err);
int sql_exec_use(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_databases(SqlStmtCtx *c, CombErr *err);
int sql_exec_create_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_drop_table(SqlStmtCtx *c, CombErr *err);
int sql_exec_show_tables(SqlStmtCtx *c, CombErr *err);
int sql_exec_describe(SqlStmtCtx *c, CombErr *err);
int sql_exec_alter(SqlStmtCtx *c, CombErr *err);     /* ddl_alter.c */
int sql_exec_truncate(SqlStmtCtx *c, CombErr *err);  /* ddl_alter_files.c */

#endif
