/*
 * authz.c - Hive's SQL-standard authorization: who the session's user is
 * (its current roles: every role granted to it, directly or through other
 * roles, unless SET ROLE narrowed them; public always; admin only after SET
 * ROLE ADMIN, for a user of hive.users.in.admin.role or granted admin),
 * and the checks every statement passes before it runs when the session
 * authorizes (the server's hive.security.authorization.enabled; the
 * embedded CLI runs as the warehouse's owner and checks nothing):
 *
 *   SELECT, and every table or view a statement reads   SELECT on it (a
 *                               view's own tables are not checked)
 *   INSERT INTO, LOAD           INSERT on the target (OVERWRITE: and DELETE)
 *   UPDATE / DELETE             UPDATE / DELETE on the target
 *   MERGE                       INSERT, UPDATE, DELETE as its clauses do
 *   CREATE TABLE, CREATE VIEW   ownership of the database (default's owner
 *                               is the public role: everyone); a view also
 *                               SELECT WITH GRANT on what it reads
 *   DROP / ALTER / TRUNCATE / MSCK  ownership of the table or view
 *   ANALYZE                     SELECT and INSERT
 *   CREATE DATABASE, roles, ABORT TRANSACTIONS   the admin role
 *   DROP DATABASE               ownership of the database
 *   GRANT / REVOKE              ownership, or the privileges WITH GRANT
 * An object's owner holds every privilege on it, with grant; privileges
 * on a database count for its tables.  A refusal is Hive's
 * HiveAccessControlException text.
 */
#include "sql/sql_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "common/buf.h"

/* ---------------------------------------------------------- principals */

/* The session's principals for this statement (its arena). */
typedef struct SqlPrincipals {
    const char *user;
    char **roles;           /* current roles, public included */
    int n_roles;
    bool admin;             /* admin is a current role */
} SqlPrincipals;

bool sql_authz_has_name(char *const *names, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static int add_name(SqlStmtCtx *c, char ***names, int *n, int *cap,
                    const char *name, CombErr *err)
{
    if (sql_authz_has_name(*names, *n, name))
        return COMB_OK;
    if (*n == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        char **v = comb_arena_alloc(c->arena, (size_t)ncap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        if (*n)
            memcpy(v, *names, (size_t)*n * sizeof *v);
        *names = v;
        *cap = ncap;
    }
    (*names)[(*n)++] = (char *)name;
    return COMB_OK;
}

/* The roles granted to principal (a user, or a role), appended. */
static int roles_of(SqlStmtCtx *c, const char *principal, bool is_role,
                    char ***names, int *n, int *cap, CombErr *err)
{
    MsGrant filter = {.object = MS_GRANT_ROLE, .principal = (char *)principal,
                      .principal_is_role = is_role};
    MsGrant *rows;
    int n_rows, rc = ms_grant_list(c->s->ms, &filter, c->arena, &rows,
                                   &n_rows, err);
    for (int i = 0; i < n_rows && !rc; i++)
        rc = add_name(c, names, n, cap, rows[i].role, err);
    return rc;
}

/* Every role reachable from roles[from..n): the ones granted to them. */
static int close_over(SqlStmtCtx *c, char ***names, int *n, int *cap,
                      CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; i < *n && !rc; i++)   /* *n grows as roles are found */
        rc = roles_of(c, (*names)[i], true, names, n, cap, err);
    return rc;
}

int sql_authz_granted_roles(SqlStmtCtx *c, char ***names, int *n,
                            CombErr *err)
{
    int cap = 0, rc;
    *names = NULL;
    *n = 0;
    if ((rc = roles_of(c, c->s->user, false, names, n, &cap, err)))
        return rc;
    return close_over(c, names, n, &cap, err);
}

bool sql_authz_admin_user(SqlStmtCtx *c, char *const *granted, int n)
{
    const char *list = c->s->authz.admin_users;
    size_t len = strlen(c->s->user);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t n_item = end ? (size_t)(end - p) : strlen(p);
        while (n_item && *p == ' ') {
            p++;
            n_item--;
        }
        while (n_item && p[n_item - 1] == ' ')
            n_item--;
        if (n_item == len && strncmp(p, c->s->user, len) == 0)
            return true;
        p = end ? end + 1 : p + n_item;
    }
    return sql_authz_has_name(granted, n, "admin");
}

static int principals(SqlStmtCtx *c, SqlPrincipals **out, CombErr *err)
{
    const char *set = c->s->authz.set_role;
    SqlPrincipals *p;
    char **granted;
    int n_granted, cap = 0, rc;
    if (c->principals) {
        *out = c->principals;
        return COMB_OK;
    }
    if (!(p = comb_arena_calloc(c->arena, sizeof *p)))
        return comb_err_nomem(err);
    p->user = c->s->user;
    if ((rc = sql_authz_granted_roles(c, &granted, &n_granted, err)))
        return rc;
    p->admin = set && strcmp(set, "admin") == 0 &&
               sql_authz_admin_user(c, granted, n_granted);
    if (!set) {                       /* ALL: every granted role but admin */
        for (int i = 0; i < n_granted && !rc; i++)
            if (strcmp(granted[i], "admin") != 0)
                rc = add_name(c, &p->roles, &p->n_roles, &cap, granted[i],
                              err);
    } else if (strcmp(set, "none") != 0 && strcmp(set, "admin") != 0) {
        if (!(rc = add_name(c, &p->roles, &p->n_roles, &cap, set, err)))
            rc = close_over(c, &p->roles, &p->n_roles, &cap, err);
    }
    if (!rc)
        rc = add_name(c, &p->roles, &p->n_roles, &cap, "public", err);
    if (rc)
        return rc;
    c->principals = p;
    *out = p;
    return COMB_OK;
}

int sql_authz_current_roles(SqlStmtCtx *c, char ***roles, int *n,
                            bool *admin, CombErr *err)
{
    SqlPrincipals *p;
    int rc = principals(c, &p, err);
    if (rc)
        return rc;
    *roles = p->roles;
    *n = p->n_roles;
    *admin = p->admin;
    return COMB_OK;
}

static bool holds(const SqlPrincipals *p, const MsGrant *g)
{
    return g->principal_is_role
               ? sql_authz_has_name(p->roles, p->n_roles, g->principal)
               : strcmp(g->principal, p->user) == 0;
}

/* ----------------------------------------------------------- refusals */

static const char *const priv_names[] = {"SELECT", "INSERT", "UPDATE",
                                         "DELETE"};

unsigned sql_authz_priv_bit(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcasecmp(name, priv_names[i]) == 0)
            return 1u << i;
    return 0;
}

const char *sql_authz_priv_name(int i)
{
    return priv_names[i];
}

const char *sql_stmt_operation(const AstStmt *st)
{
    switch (st->kind) {
    case AST_LOAD: return "LOAD";
    case AST_CREATE_TABLE:
        return st->qdef && st->qdef->query ? "CREATETABLE_AS_SELECT"
                                             : "CREATETABLE";
    case AST_DROP_TABLE: return "DROPTABLE";
    case AST_ALTER_TABLE: return "ALTERTABLE";
    case AST_TRUNCATE: return "TRUNCATETABLE";
    case AST_MSCK: return "MSCK";
    case AST_ANALYZE: return "ANALYZE_TABLE";
    case AST_CREATE_VIEW: return "CREATEVIEW";
    case AST_DROP_VIEW: return "DROPVIEW";
    case AST_ALTER_VIEW: return "ALTERVIEW_AS";
    case AST_CREATE_DATABASE: return "CREATEDATABASE";
    case AST_DROP_DATABASE: return "DROPDATABASE";
    case AST_GRANT: return "GRANT_PRIVILEGE";
    case AST_REVOKE: return "REVOKE_PRIVILEGE";
    case AST_CREATE_ROLE: return "CREATEROLE";
    case AST_DROP_ROLE: return "DROPROLE";
    case AST_GRANT_ROLE: return "GRANT_ROLE";
    case AST_REVOKE_ROLE: return "REVOKE_ROLE";
    case AST_SHOW_ROLES: return "SHOW_ROLES";
    case AST_SHOW_PRINCIPALS: return "SHOW_ROLE_PRINCIPALS";
    case AST_ABORT_TRANSACTIONS: return "ABORT_TRANSACTIONS";
    default: return "QUERY";
    }
}

/* "Permission denied: Principal [name=u, type=USER] does not have following
 * privileges for operation OP [[WHAT] on Object [type=T, name=N]]" */
static int denied(SqlStmtCtx *c, const char *what, const char *type,
                  const char *name, CombErr *err)
{
    return comb_err_hive(err, COMB_EDENIED, 40000,
                         "HiveAccessControlException Permission denied: "
                         "Principal [name=%s, type=USER] does not have "
                         "following privileges for operation %s [[%s] on "
                         "Object [type=%s, name=%s]]",
                         c->s->user, sql_stmt_operation(c->stmt), what, type,
                         name);
}

static int denied_privs(SqlStmtCtx *c, unsigned missing, bool with_grant,
                        const MsTable *t, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc = COMB_OK;
    for (int i = 0; i < 4; i++)
        if (missing & (1u << i))
            rc |= comb_buf_printf(&b, "%s%s%s", b.len ? ", " : "",
                                  priv_names[i], with_grant ? " with grant" : "");
    rc = rc || comb_buf_append_byte(&b, '\0')
             ? comb_err_nomem(err)
             : denied(c, (char *)b.data, "TABLE_OR_VIEW",
                      comb_arena_printf(c->arena, "%s.%s", t->db, t->name),
                      err);
    comb_buf_free(&b);
    return rc;
}

/* ------------------------------------------------------------- checks */

bool sql_authz_on(const SqlStmtCtx *c)
{
    return c->s->authz.on;
}

/* The privilege bits p holds on t (with grant: into *grantable). */
static int held_privs(SqlStmtCtx *c, const SqlPrincipals *p, const MsTable *t,
                      unsigned *held, unsigned *grantable, CombErr *err)
{
    MsGrant on_table = {.object = MS_GRANT_TABLE, .db = t->db,
                        .table = t->name};
    MsGrant on_db = {.object = MS_GRANT_DATABASE, .db = t->db};
    const MsGrant *filters[2] = {&on_table, &on_db};
    *held = *grantable = 0;
    for (int f = 0; f < 2; f++) {
        MsGrant *rows;
        int n, rc = ms_grant_list(c->s->ms, filters[f], c->arena, &rows, &n,
                                  err);
        if (rc)
            return rc;
        for (int i = 0; i < n; i++)
            if (holds(p, &rows[i])) {
                unsigned bit = sql_authz_priv_bit(rows[i].privilege);
                *held |= bit;
                if (rows[i].grant_option)
                    *grantable |= bit;
            }
    }
    return COMB_OK;
}

static bool owns_table(const SqlPrincipals *p, const MsTable *t)
{
    return t->owner && strcmp(t->owner, p->user) == 0;
}

int sql_authz_table(SqlStmtCtx *c, const MsTable *t, unsigned privs,
                    bool with_grant, CombErr *err)
{
    SqlPrincipals *p;
    unsigned held, grantable;
    int rc;
    if (!sql_authz_on(c) || privs == 0)
        return COMB_OK;
    if ((rc = principals(c, &p, err)) || p->admin || owns_table(p, t))
        return rc;
    if ((rc = held_privs(c, p, t, &held, &grantable, err)))
        return rc;
    if (with_grant)
        held = grantable;
    return (privs & ~held) ? denied_privs(c, privs & ~held, with_grant, t, err)
                           : COMB_OK;
}

int sql_authz_table_owner(SqlStmtCtx *c, const MsTable *t, CombErr *err)
{
    SqlPrincipals *p;
    int rc;
    if (!sql_authz_on(c))
        return COMB_OK;
    if ((rc = principals(c, &p, err)) || p->admin || owns_table(p, t))
        return rc;
    return denied(c, "OBJECT OWNERSHIP", "TABLE_OR_VIEW",
                  comb_arena_printf(c->arena, "%s.%s", t->db, t->name), err);
}

int sql_authz_db_owner(SqlStmtCtx *c, const char *db, CombErr *err)
{
    SqlPrincipals *p;
    MsDatabase *d;
    int rc;
    if (!sql_authz_on(c))
        return COMB_OK;
    if ((rc = principals(c, &p, err)) || p->admin)
        return rc;
    /* a missing database is the statement's own error to give */
    if ((rc = ms_db_get(c->s->ms, db, c->arena, &d, err)) == COMB_ENOTFOUND) {
        comb_err_clear(err);
        return COMB_OK;
    }
    if (rc)
        return rc;
    /* the owner is a user, or (default's) the public role: everyone */
    if (d->owner && (strcmp(d->owner, p->user) == 0 ||
                     sql_authz_has_name(p->roles, p->n_roles, d->owner)))
        return COMB_OK;
    return denied(c, "OBJECT OWNERSHIP", "DATABASE", d->name, err);
}

int sql_authz_admin(SqlStmtCtx *c, CombErr *err)
{
    SqlPrincipals *p;
    int rc;
    if (!sql_authz_on(c))
        return COMB_OK;
    if ((rc = principals(c, &p, err)) || p->admin)
        return rc;
    return comb_err_hive(err, COMB_EDENIED, 40000,
                         "HiveAccessControlException Permission denied: "
                         "Current user : %s is not allowed to run %s. User "
                         "has to belong to ADMIN role and have it as current "
                         "role, for this action.",
                         c->s->user, sql_stmt_operation(c->stmt));
}

/* ------------------------------------------------- statement-level checks */

/* The table a statement names ([db.]name; the current database). */
static int named_table(SqlStmtCtx *c, const AstName *n, MsTable **t,
                       bool *found, CombErr *err)
{
    int rc = ms_table_get(c->s->ms, n->db ? n->db : c->s->db, n->name,
                          c->arena, t, err);
    *found = rc == COMB_OK;
    if (rc == COMB_ENOTFOUND) {   /* the statement's own error follows */
        comb_err_clear(err);
        return COMB_OK;
    }
    return rc;
}

static int check_write(SqlStmtCtx *c, const AstName *n, unsigned privs,
                       CombErr *err)
{
    MsTable *t;
    bool found;
    int rc = named_table(c, n, &t, &found, err);
    return rc || !found ? rc : sql_authz_table(c, t, privs, false, err);
}

static int check_owner(SqlStmtCtx *c, const AstName *n, CombErr *err)
{
    MsTable *t;
    bool found;
    int rc = named_table(c, n, &t, &found, err);
    return rc || !found ? rc : sql_authz_table_owner(c, t, err);
}

static unsigned insert_privs(const AstStmt *st)
{
    return AST_PRIV_INSERT | (st->overwrite ? AST_PRIV_DELETE : 0);
}

static unsigned merge_privs(const AstMerge *m)
{
    unsigned privs = 0;
    for (int i = 0; i < m->n_clauses; i++)
        privs |= m->clauses[i].action == AST_MERGE_UPDATE ? AST_PRIV_UPDATE
                 : m->clauses[i].action == AST_MERGE_DELETE ? AST_PRIV_DELETE
                                                            : AST_PRIV_INSERT;
    return privs;
}

static const char *db_of(const SqlStmtCtx *c, const AstName *n)
{
    return n->db ? n->db : c->s->db;
}

int sql_authorize(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    int rc = COMB_OK;
    if (!sql_authz_on(c))
        return COMB_OK;
    switch (st->kind) {
    case AST_INSERT:
    case AST_LOAD:
        return check_write(c, &st->name, insert_privs(st), err);
    case AST_MULTI_INSERT:
        for (int i = 0; i < st->multi->n && !rc; i++)
            rc = check_write(c, &st->multi->inserts[i]->name,
                             insert_privs(st->multi->inserts[i]), err);
        return rc;
    case AST_UPDATE:
        return check_write(c, &st->name, AST_PRIV_UPDATE, err);
    case AST_DELETE:
        return check_write(c, &st->name, AST_PRIV_DELETE, err);
    case AST_MERGE:
        return check_write(c, &st->name, merge_privs(st->merge), err);
    case AST_ANALYZE:
        return check_write(c, &st->name, AST_PRIV_SELECT | AST_PRIV_INSERT,
                           err);
    case AST_CREATE_TABLE:
    case AST_CREATE_VIEW:
        return sql_authz_db_owner(c, db_of(c, &st->name), err);
    case AST_DROP_TABLE:
    case AST_DROP_VIEW:
    case AST_ALTER_TABLE:
    case AST_ALTER_VIEW:
    case AST_TRUNCATE:
    case AST_MSCK:
        return check_owner(c, &st->name, err);
    case AST_DROP_DATABASE:
        return sql_authz_db_owner(c, st->name.name, err);
    case AST_CREATE_DATABASE:
    case AST_CREATE_ROLE:
    case AST_DROP_ROLE:
    case AST_SHOW_ROLES:
    case AST_SHOW_PRINCIPALS:
    case AST_ABORT_TRANSACTIONS:
        return sql_authz_admin(c, err);
    default:
        /* reads are checked as their tables are bound; GRANT, REVOKE and
         * the role statements check what they grant as they run */
        return COMB_OK;
    }
}

int sql_authorize_read(SqlStmtCtx *c, const MsTable *t, CombErr *err)
{
    /* a view's query reads with the view's rights, not the user's; a view
     * being defined needs what it reads WITH GRANT (Hive's rule, so that
     * its owner may pass it on) */
    if (c->views)
        return COMB_OK;
    return sql_authz_table(c, t, AST_PRIV_SELECT,
                           c->stmt->kind == AST_CREATE_VIEW ||
                               c->stmt->kind == AST_ALTER_VIEW,
                           err);
}
