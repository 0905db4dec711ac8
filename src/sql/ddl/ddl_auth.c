/*
 * ddl_auth.c - the authorization statements (authz.c checks the others):
 * CREATE/DROP ROLE, GRANT/REVOKE of privileges and of roles, SET ROLE and
 * the SHOW statements, with Hive's columns (SHOW GRANT: database, table,
 * partition, column, principal_name, principal_type, privilege,
 * grant_option, grant_time in milliseconds, grantor).  Who may run them,
 * when the session authorizes: the admin role for roles, SHOW ROLES and
 * SHOW PRINCIPALS; an object's owner (or whoever holds the privileges
 * WITH GRANT OPTION) for GRANT and REVOKE on it; the admin role or a
 * holder WITH ADMIN OPTION for GRANT and REVOKE of a role; anyone for SET
 * ROLE, SHOW CURRENT ROLES and their own grants.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "sql/ddl/ddl_int.h"
#include "sql/exec/exec.h"

/* ----------------------------------------------------------------- roles */

int sql_exec_create_role(SqlStmtCtx *c, CombErr *err)
{
    return ms_role_create(c->s->ms, c->stmt->auth->roles[0], c->s->user, err);
}

int sql_exec_drop_role(SqlStmtCtx *c, CombErr *err)
{
    return ms_role_drop(c->s->ms, c->stmt->auth->roles[0], err);
}

static int not_in_role(SqlStmtCtx *c, const char *role, CombErr *err)
{
    return comb_err(err, COMB_EINVALID, "%s doesn't belong to role %s",
                    c->s->user, role);
}

int sql_exec_set_role(SqlStmtCtx *c, CombErr *err)
{
    const char *role = c->stmt->auth->roles[0];
    SqlAuthz *z = &c->s->authz;
    char **granted, *copy = NULL;
    int n, rc;
    if (strcmp(role, "all") != 0 && strcmp(role, "none") != 0) {
        if ((rc = sql_authz_granted_roles(c, &granted, &n, err)))
            return rc;
        if (strcmp(role, "admin") == 0 ? !sql_authz_admin_user(c, granted, n)
                                       : !sql_authz_has_name(granted, n, role))
            return not_in_role(c, role, err);
    }
    if (strcmp(role, "all") != 0 && !(copy = comb_strdup(role)))
        return comb_err_nomem(err);
    comb_free(z->set_role);
    z->set_role = copy;
    return COMB_OK;
}

/* --------------------------------------------------------------- grants */

/* The object a GRANT or REVOKE names, and the right to pass on privs on
 * it: ownership, admin, or (tables) the privileges WITH GRANT OPTION. */
static int grant_object(SqlStmtCtx *c, unsigned privs, MsGrant *g,
                        CombErr *err)
{
    const AstStmt *st = c->stmt;
    MsTable *t;
    int rc;
    if (st->auth->on_database) {
        MsDatabase *d;
        g->object = MS_GRANT_DATABASE;
        g->db = st->name.name;
        if ((rc = ms_db_get(c->s->ms, g->db, c->arena, &d, err)))
            return rc;
        return sql_authz_db_owner(c, g->db, err);
    }
    g->object = MS_GRANT_TABLE;
    g->db = st->name.db ? st->name.db : c->s->db;
    g->table = st->name.name;
    if ((rc = ms_table_get(c->s->ms, g->db, g->table, c->arena, &t, err)))
        return rc;
    return sql_authz_table(c, t, privs, true, err);
}

/* Every privilege of privs to (or from) every principal. */
static int each_grant(SqlStmtCtx *c, MsGrant *g, unsigned privs, bool put,
                      CombErr *err)
{
    const AstAuth *a = c->stmt->auth;
    int rc = COMB_OK;
    for (int p = 0; p < a->n_principals && !rc; p++) {
        g->principal = a->principals[p].name;
        g->principal_is_role = a->principals[p].role;
        for (int i = 0; i < 4 && !rc; i++) {
            if (privs && !(privs & (1u << i)))
                continue;
            if (privs)
                g->privilege = (char *)sql_authz_priv_name(i);
            rc = put ? ms_grant_put(c->s->ms, g, err)
                     : ms_grant_drop(c->s->ms, g, a->option_only, err);
            if (!privs)
                break;
        }
    }
    return rc;
}

int sql_exec_grant(SqlStmtCtx *c, CombErr *err)
{
    const AstAuth *a = c->stmt->auth;
    MsGrant g = {.grantor = c->s->user, .grant_option = a->with_option};
    int rc = grant_object(c, a->privs, &g, err);
    return rc ? rc
              : each_grant(c, &g, a->privs, c->stmt->kind == AST_GRANT, err);
}

/* *pass: the session checks nothing, or admin is a current role; else
 * the current roles in roles[0..n). */
static int unchecked(SqlStmtCtx *c, char ***roles, int *n, bool *pass,
                     CombErr *err)
{
    *pass = !sql_authz_on(c);
    return *pass ? COMB_OK : sql_authz_current_roles(c, roles, n, pass, err);
}

/* The right to grant or revoke role: admin, or holding it WITH ADMIN
 * OPTION. */
static int role_admin(SqlStmtCtx *c, const char *role, CombErr *err)
{
    MsGrant filter = {.object = MS_GRANT_ROLE, .role = (char *)role,
                      .principal = c->s->user};
    char **roles;
    MsGrant *rows;
    bool pass;
    int n, rc;
    if ((rc = unchecked(c, &roles, &n, &pass, err)) || pass)
        return rc;
    if ((rc = ms_grant_list(c->s->ms, &filter, c->arena, &rows, &n, err)))
        return rc;
    if (n == 1 && rows[0].grant_option)
        return COMB_OK;
    return sql_authz_admin(c, err);
}

int sql_exec_grant_role(SqlStmtCtx *c, CombErr *err)
{
    const AstAuth *a = c->stmt->auth;
    int rc = COMB_OK;
    for (int r = 0; r < a->n_roles && !rc; r++) {
        MsGrant g = {.object = MS_GRANT_ROLE, .role = a->roles[r],
                     .grantor = c->s->user, .grant_option = a->with_option};
        if (!(rc = role_admin(c, a->roles[r], err)))
            rc = each_grant(c, &g, 0, c->stmt->kind == AST_GRANT_ROLE, err);
    }
    return rc;
}

/* ---------------------------------------------------------------- SHOW */

static const char *num(SqlStmtCtx *c, int64_t v)
{
    return comb_arena_printf(c->arena, "%lld", (long long)v);
}

static const char *yes_no(bool b)
{
    return b ? "true" : "false";
}

static const char *principal_type(bool role)
{
    return role ? "ROLE" : "USER";
}

static int emit_names(SqlStmtCtx *c, char **names, int n, CombErr *err)
{
    static const char *const header[] = {"role"};
    TextResult tr;
    int rc = COMB_OK;
    if (sql_text_begin(&tr, 1))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        rc = sql_text_row(&tr, (const char *const *)&names[i], err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int sql_exec_show_roles(SqlStmtCtx *c, CombErr *err)
{
    char **stored, **all;
    int n, rc = ms_role_list(c->s->ms, c->arena, &stored, &n, err);
    if (rc)
        return rc;
    if (!(all = comb_arena_alloc(c->arena, (size_t)(n + 2) * sizeof *all)))
        return comb_err_nomem(err);
    all[0] = "admin";
    all[1] = "public";
    if (n)
        memcpy(all + 2, stored, (size_t)n * sizeof *all);
    qsort(all, (size_t)n + 2, sizeof *all, cmp_names);
    return emit_names(c, all, n + 2, err);
}

int sql_exec_show_current_roles(SqlStmtCtx *c, CombErr *err)
{
    char **roles, **shown;
    bool admin;
    int n, rc = sql_authz_current_roles(c, &roles, &n, &admin, err);
    if (rc)
        return rc;
    if (!(shown = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *shown)))
        return comb_err_nomem(err);
    if (n)
        memcpy(shown, roles, (size_t)n * sizeof *shown);
    if (admin)
        shown[n++] = "admin";
    qsort(shown, (size_t)n, sizeof *shown, cmp_names);
    return emit_names(c, shown, n, err);
}

/* Another principal's grants (or everyone's) are the admin's to see. */
static int may_see(SqlStmtCtx *c, const AstPrincipal *who, CombErr *err)
{
    char **roles;
    bool pass;
    int n, rc;
    if ((rc = unchecked(c, &roles, &n, &pass, err)) || pass)
        return rc;
    if (who && !who->role && strcmp(who->name, c->s->user) == 0)
        return COMB_OK;
    if (who && who->role && sql_authz_has_name(roles, n, who->name))
        return COMB_OK;
    return comb_err_hive(err, COMB_EDENIED, 40000,
                         "HiveAccessControlException Permission denied: User "
                         ": %s is not allowed check privileges of %s%s. User "
                         "has to belong to ADMIN role and have it as current "
                         "role, for this action.",
                         c->s->user, who ? "another principal : " : "all "
                         "principals", who ? who->name : "");
}

static int grant_rows(SqlStmtCtx *c, TextResult *tr, const MsGrant *filter,
                      CombErr *err)
{
    MsGrant *rows;
    int n, rc = ms_grant_list(c->s->ms, filter, c->arena, &rows, &n, err);
    for (int i = 0; i < n && !rc; i++) {
        const MsGrant *g = &rows[i];
        const char *vals[10] = {g->db, g->table ? g->table : "", "", "",
                                g->principal,
                                principal_type(g->principal_is_role),
                                g->privilege, yes_no(g->grant_option),
                                num(c, g->create_time * 1000), g->grantor};
        rc = sql_text_row(tr, vals, err);
    }
    return rc;
}

int sql_exec_show_grant(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {
        "database", "table", "partition", "column", "principal_name",
        "principal_type", "privilege", "grant_option", "grant_time",
        "grantor"};
    const AstStmt *st = c->stmt;
    const AstAuth *a = st->auth;
    const AstPrincipal *who = a->n_principals ? &a->principals[0] : NULL;
    MsGrant f = {.principal = who ? who->name : NULL,
                 .principal_is_role = who && who->role};
    TextResult tr;
    int rc = may_see(c, who, err);
    if (rc)
        return rc;
    if (a->on_table) {
        f.db = st->name.db ? st->name.db : c->s->db;
        f.table = st->name.name;
    } else if (a->on_database) {
        f.db = st->name.name;
    }
    if (sql_text_begin(&tr, 10))
        return comb_err_nomem(err);
    /* ON ALL (or nothing): the databases' grants, then the tables' */
    f.object = MS_GRANT_DATABASE;
    if (!a->on_table)
        rc = grant_rows(c, &tr, &f, err);
    f.object = MS_GRANT_TABLE;
    if (!rc && !a->on_database)
        rc = grant_rows(c, &tr, &f, err);
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

int sql_exec_show_role_grant(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {"role", "grant_option", "grant_time",
                                         "grantor"};
    const AstPrincipal *who = &c->stmt->auth->principals[0];
    MsGrant f = {.object = MS_GRANT_ROLE, .principal = who->name,
                 .principal_is_role = who->role};
    MsGrant *rows;
    TextResult tr;
    int n, rc = may_see(c, who, err);
    if (!rc)
        rc = ms_grant_list(c->s->ms, &f, c->arena, &rows, &n, err);
    if (rc)
        return rc;
    if (sql_text_begin(&tr, 4))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        const char *vals[4] = {rows[i].role, yes_no(rows[i].grant_option),
                               num(c, rows[i].create_time * 1000),
                               rows[i].grantor};
        rc = sql_text_row(&tr, vals, err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}

int sql_exec_show_principals(SqlStmtCtx *c, CombErr *err)
{
    static const char *const header[] = {"principal_name", "principal_type",
                                         "grant_option", "grantor",
                                         "grantor_type", "grant_time"};
    MsGrant f = {.object = MS_GRANT_ROLE, .role = c->stmt->auth->roles[0]};
    MsGrant *rows;
    TextResult tr;
    int n, rc = ms_grant_list(c->s->ms, &f, c->arena, &rows, &n, err);
    if (rc)
        return rc;
    if (sql_text_begin(&tr, 6))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++) {
        const MsGrant *g = &rows[i];
        const char *vals[6] = {g->principal,
                               principal_type(g->principal_is_role),
                               yes_no(g->grant_option), g->grantor,
                               principal_type(g->grantor_is_role),
                               num(c, g->create_time * 1000)};
        rc = sql_text_row(&tr, vals, err);
    }
    if (rc) {
        sql_rows_free(&tr.rs);
        return rc;
    }
    return sql_text_emit(c, &tr, header, err);
}
