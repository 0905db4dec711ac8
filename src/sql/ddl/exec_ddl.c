/*
 * exec_ddl.c - dispatch of the catalog statements (ddl_db.c, ddl_table.c,
 * ddl_view.c, ddl_ctas.c through CREATE TABLE, ddl_show.c) and SET.
 */
#include "sql/sql_int.h"

#include <string.h>

#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"
#include "sql/exec/par.h"

int sql_exec_ddl(SqlStmtCtx *c, CombErr *err)
{
    switch (c->stmt->kind) {
    case AST_CREATE_DATABASE: return sql_exec_create_database(c, err);
    case AST_DROP_DATABASE: return sql_exec_drop_database(c, err);
    case AST_USE: return sql_exec_use(c, err);
    case AST_CREATE_TABLE: return sql_exec_create_table(c, err);
    case AST_DROP_TABLE: return sql_exec_drop_table(c, err);
    case AST_SHOW_DATABASES: return sql_exec_show_databases(c, err);
    case AST_SHOW_TABLES: return sql_exec_show_tables(c, err);
    case AST_SHOW_FUNCTIONS: return sql_exec_show_functions(c, err);
    case AST_DESCRIBE_FUNCTION: return sql_exec_describe_function(c, err);
    case AST_DESCRIBE: return sql_exec_describe(c, err);
    case AST_ALTER_TABLE: return sql_exec_alter(c, err);
    case AST_TRUNCATE: return sql_exec_truncate(c, err);
    case AST_DESCRIBE_DATABASE: return sql_exec_describe_database(c, err);
    case AST_SHOW_CREATE_TABLE: return sql_exec_show_create_table(c, err);
    case AST_SHOW_TBLPROPERTIES: return sql_exec_show_tblproperties(c, err);
    case AST_SHOW_COLUMNS: return sql_exec_show_columns(c, err);
    case AST_SHOW_PARTITIONS: return sql_exec_show_partitions(c, err);
    case AST_MSCK: return sql_exec_msck(c, err);
    case AST_ANALYZE: return sql_exec_analyze(c, err);
    case AST_CREATE_VIEW: return sql_exec_create_view(c, err);
    case AST_DROP_VIEW: return sql_exec_drop_view(c, err);
    case AST_ALTER_VIEW: return sql_exec_alter_view(c, err);
    case AST_SHOW_LOCKS: return sql_exec_show_locks(c, err);
    case AST_SHOW_TRANSACTIONS: return sql_exec_show_transactions(c, err);
    case AST_ABORT_TRANSACTIONS: return sql_exec_abort_transactions(c, err);
    case AST_SHOW_COMPACTIONS: return sql_exec_show_compactions(c, err);
    case AST_ABORT_COMPACTIONS: return sql_exec_abort_compactions(c, err);
    case AST_SHOW_COMPACTION_METRICS:
        return sql_exec_show_compaction_metrics(c, err);
    case AST_CREATE_ROLE: return sql_exec_create_role(c, err);
    case AST_DROP_ROLE: return sql_exec_drop_role(c, err);
    case AST_SET_ROLE: return sql_exec_set_role(c, err);
    case AST_GRANT:
    case AST_REVOKE: return sql_exec_grant(c, err);
    case AST_GRANT_ROLE:
    case AST_REVOKE_ROLE: return sql_exec_grant_role(c, err);
    case AST_SHOW_ROLES: return sql_exec_show_roles(c, err);
    case AST_SHOW_CURRENT_ROLES: return sql_exec_show_current_roles(c, err);
    case AST_SHOW_GRANT: return sql_exec_show_grant(c, err);
    case AST_SHOW_ROLE_GRANT: return sql_exec_show_role_grant(c, err);
    case AST_SHOW_PRINCIPALS: return sql_exec_show_principals(c, err);
    default: return COMB_INTERNAL(err, "statement kind not handled");
    }
}

/* ------------------------------------------------------------------ SET */

static int set_info(SqlStmtCtx *c, const char *line, CombErr *err)
{
    return c->sink->info ? c->sink->info(c->sink->ctx, line, err) : COMB_OK;
}

int sql_exec_set(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    SqlSession *s = c->s;
    const char *key = st->set_key;
    int rc = COMB_OK;
    if (!key) {
        for (int i = 0; i < s->vars.n && !rc; i++)
            rc = set_info(c, comb_arena_printf(c->arena, "hivevar:%s=%s",
                                               s->vars.items[i].key,
                                               s->vars.items[i].value), err);
        for (int i = 0; i < s->conf.n && !rc; i++)
            rc = set_info(c, comb_arena_printf(c->arena, "%s=%s",
                                               s->conf.items[i].key,
                                               s->conf.items[i].value), err);
        return rc;
    }
    if (!st->set_value && fs_setting_is_secret(key))
        return set_info(c, comb_arena_printf(c->arena, "%s is a hidden config",
                                             key), err);
    if (!st->set_value) {
        const char *v = strncmp(key, "hivevar:", 8) == 0 ? NULL : sql_session_get_conf(s, key);
        if (!v && strcmp(key, SQL_CONF_THREADS) == 0)
            v = comb_arena_printf(c->arena, "%d", sql_threads_default());
        for (int i = 0; strncmp(key, "hivevar:", 8) == 0 && i < s->vars.n; i++)
            if (strcmp(s->vars.items[i].key, key + 8) == 0)
                v = s->vars.items[i].value;
        return set_info(c, v ? comb_arena_printf(c->arena, "%s=%s", key, v)
                             : comb_arena_printf(c->arena, "%s is undefined", key),
                        err);
    }
    if (strncmp(key, "hivevar:", 8) == 0)
        return sql_session_set_var(s, key + 8, st->set_value, err);
    if (strncmp(key, "hiveconf:", 9) == 0)
        key += 9;
    return sql_session_set_conf(s, key, st->set_value, err);
}
