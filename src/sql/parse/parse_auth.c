/*
 * parse_auth.c - the statements of Hive's SQL-standard authorization:
 * CREATE/DROP ROLE, GRANT and REVOKE of privileges and of roles, SET ROLE,
 * SHOW ROLES, SHOW CURRENT ROLES, SHOW GRANT, SHOW ROLE GRANT and SHOW
 * PRINCIPALS (Hive's grammar; the privileges SQL-standard authorization
 * knows: SELECT, INSERT, UPDATE, DELETE and ALL).
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

static AstAuth *auth_of(SqlParser *p, AstStmt *s)
{
    if (!s->auth)
        s->auth = sp_alloc(p, sizeof *s->auth);
    return s->auth;
}

/* A role's name: an identifier, lower-cased as Hive keeps role names. */
static int role_item(SqlParser *p, SqlVec *names, SqlVec *pos)
{
    AstPos at = sp_pos(sp_peek(p, 0));
    char *name;
    SP_TRY(sp_ident(p, &name, NULL));
    for (char *c = name; *c; c++)
        if (*c >= 'A' && *c <= 'Z')
            *c = (char)(*c - 'A' + 'a');
    SP_TRY(sp_vec_push(p, names, &name, sizeof name));
    return sp_vec_push(p, pos, &at, sizeof at);
}

static int role_list(SqlParser *p, AstAuth *a)
{
    SqlVec names = {0}, pos = {0};
    do
        SP_TRY(role_item(p, &names, &pos));
    while (sp_accept(p, SQL_TK_COMMA));
    a->n_roles = names.n;
    a->roles = names.data;
    a->role_pos = pos.data;
    return COMB_OK;
}

/* USER name | ROLE name (GROUP is Hive's, for other authorizers). */
static int principal(SqlParser *p, AstPrincipal *out)
{
    const SqlToken *t = sp_peek(p, 0);
    out->pos = sp_pos(t);
    if (sp_accept_word(p, "role")) {
        SqlVec names = {0}, pos = {0};
        out->role = true;
        SP_TRY(role_item(p, &names, &pos));
        out->name = ((char **)names.data)[0];
        return COMB_OK;
    }
    if (sp_is_word_at(p, 0, "group"))
        return sp_unsupported(p, t, "GROUP principals (SQL-standard "
                              "authorization has users and roles)");
    if (!sp_accept_word(p, "user"))
        return sp_error(p, t, "expected USER or ROLE");
    return sp_ident(p, &out->name, NULL);
}

static int principal_list(SqlParser *p, AstAuth *a)
{
    SqlVec v = {0};
    do {
        AstPrincipal pr = {0};
        SP_TRY(principal(p, &pr));
        SP_TRY(sp_vec_push(p, &v, &pr, sizeof pr));
    } while (sp_accept(p, SQL_TK_COMMA));
    a->n_principals = v.n;
    a->principals = v.data;
    return COMB_OK;
}

/* One privilege's bits; 0 when the word names none. */
static unsigned privilege_bits(const SqlToken *t)
{
    switch (t->kind == SQL_TK_WORD ? t->kw : KW_NONE) {
    case KW_SELECT: return AST_PRIV_SELECT;
    case KW_INSERT: return AST_PRIV_INSERT;
    case KW_UPDATE: return AST_PRIV_UPDATE;
    case KW_DELETE: return AST_PRIV_DELETE;
    case KW_ALL: return AST_PRIV_ALL;
    default: return 0;
    }
}

/* Hive's privileges SQL-standard authorization does not have. */
static bool legacy_privilege(SqlParser *p)
{
    static const char *const words[] = {"create", "drop", "alter", "index",
                                        "lock"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (sp_is_word_at(p, 0, words[i]))
            return true;
    return false;
}

static bool at_privilege(SqlParser *p)
{
    return privilege_bits(sp_peek(p, 0)) != 0 || legacy_privilege(p);
}

static int privilege_list(SqlParser *p, AstAuth *a)
{
    do {
        const SqlToken *t = sp_peek(p, 0);
        unsigned bits = privilege_bits(t);
        if (!bits && legacy_privilege(p))
            return sp_unsupported(p, t, "Privilege: %.*s in sql standard "
                                  "authorization mode (SELECT, INSERT, "
                                  "UPDATE, DELETE and ALL are)",
                                  (int)t->len, p->src + t->off);
        if (!bits)
            return sp_error(p, t, "expected a privilege");
        sp_next(p);
        if (sp_is(p, SQL_TK_LPAREN))
            return sp_unsupported(p, sp_peek(p, 0), "column privileges");
        a->privs |= bits;
    } while (sp_accept(p, SQL_TK_COMMA));
    return COMB_OK;
}

/* ON [TABLE] name | ON DATABASE|SCHEMA name (after ON). */
static int privilege_object(SqlParser *p, AstStmt *s, AstAuth *a)
{
    if (sp_accept_kw(p, KW_DATABASE) || sp_accept_kw(p, KW_SCHEMA)) {
        a->on_database = true;
        return sp_ident(p, &s->name.name, &s->name.pos);
    }
    sp_accept_kw(p, KW_TABLE);
    a->on_table = true;
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        return sp_unsupported(p, sp_peek(p, 0), "partition privileges");
    return COMB_OK;
}

static int with_option(SqlParser *p, AstAuth *a, const char *word)
{
    if (!sp_accept_kw(p, KW_WITH))
        return COMB_OK;
    if (!sp_accept_word(p, word))
        return sp_error(p, sp_peek(p, 0), "expected %s OPTION",
                        word[0] == 'g' ? "GRANT" : "ADMIN");
    SP_TRY(sp_expect_word(p, "option"));
    a->with_option = true;
    return COMB_OK;
}

/* GRANT privileges ON object TO principals [WITH GRANT OPTION] | GRANT
 * [ROLE] r, ... TO principals [WITH ADMIN OPTION] */
int sp_grant(SqlParser *p, AstStmt *s)
{
    AstAuth *a = auth_of(p, s);
    if (!a)
        return COMB_ENOMEM;
    sp_next(p);
    if (!at_privilege(p) || sp_is_word_at(p, 0, "role")) {
        s->kind = AST_GRANT_ROLE;
        sp_accept_word(p, "role");
        SP_TRY(role_list(p, a));
        SP_TRY(sp_expect_kw(p, KW_TO));
        SP_TRY(principal_list(p, a));
        return with_option(p, a, "admin");
    }
    s->kind = AST_GRANT;
    SP_TRY(privilege_list(p, a));
    if (!sp_accept_kw(p, KW_ON))
        return sp_unsupported(p, sp_peek(p, 0), "privileges without ON "
                              "(on the server)");
    SP_TRY(privilege_object(p, s, a));
    SP_TRY(sp_expect_kw(p, KW_TO));
    SP_TRY(principal_list(p, a));
    return with_option(p, a, "grant");
}

/* REVOKE [GRANT OPTION FOR] privileges ON object FROM principals | REVOKE
 * [ADMIN OPTION FOR] [ROLE] r, ... FROM principals */
int sp_revoke(SqlParser *p, AstStmt *s)
{
    AstAuth *a = auth_of(p, s);
    bool admin = false;
    if (!a)
        return COMB_ENOMEM;
    sp_next(p);
    if ((sp_is_kw(p, KW_GRANT) || (admin = sp_is_word_at(p, 0, "admin"))) &&
        sp_is_word_at(p, 1, "option")) {
        sp_next(p);
        sp_next(p);
        SP_TRY(sp_expect_word(p, "for"));
        a->option_only = true;
    }
    if (admin || !at_privilege(p) || sp_is_word_at(p, 0, "role")) {
        s->kind = AST_REVOKE_ROLE;
        sp_accept_word(p, "role");
        SP_TRY(role_list(p, a));
    } else {
        s->kind = AST_REVOKE;
        SP_TRY(privilege_list(p, a));
        SP_TRY(sp_expect_kw(p, KW_ON));
        SP_TRY(privilege_object(p, s, a));
    }
    SP_TRY(sp_expect_kw(p, KW_FROM));
    return principal_list(p, a);
}

/* A statement's one role. */
static int one_role(SqlParser *p, AstAuth *a)
{
    SqlVec names = {0}, pos = {0};
    SP_TRY(role_item(p, &names, &pos));
    a->n_roles = 1;
    a->roles = names.data;
    a->role_pos = pos.data;
    return COMB_OK;
}

/* CREATE ROLE r / DROP ROLE r, at ROLE. */
int sp_role_ddl(SqlParser *p, AstStmt *s, bool create)
{
    AstAuth *a = auth_of(p, s);
    if (!a)
        return COMB_ENOMEM;
    s->kind = create ? AST_CREATE_ROLE : AST_DROP_ROLE;
    sp_next(p);
    return one_role(p, a);
}

bool sp_at_set_role(SqlParser *p)
{
    return sp_is_kw(p, KW_SET) && sp_is_word_at(p, 1, "role") &&
           (sp_is_ident_tok(sp_peek(p, 2)) || sp_is_kw_at(p, 2, KW_ALL));
}

/* SET ROLE r | ALL | NONE */
int sp_set_role(SqlParser *p, AstStmt *s)
{
    AstAuth *a = auth_of(p, s);
    if (!a)
        return COMB_ENOMEM;
    s->kind = AST_SET_ROLE;
    sp_next(p);
    sp_next(p);
    if (!sp_is_kw(p, KW_ALL))
        return one_role(p, a);
    a->n_roles = 1;
    a->roles = sp_alloc(p, sizeof *a->roles);
    a->role_pos = sp_alloc(p, sizeof *a->role_pos);
    if (!a->roles || !a->role_pos)
        return COMB_ENOMEM;
    a->roles[0] = "all";
    a->role_pos[0] = sp_pos(sp_peek(p, 0));
    sp_next(p);
    return COMB_OK;
}

/* SHOW GRANT [principal] [ON ALL | ON object], after GRANT. */
static int show_grant(SqlParser *p, AstStmt *s, AstAuth *a)
{
    s->kind = AST_SHOW_GRANT;
    if (sp_is_word_at(p, 0, "user") || sp_is_word_at(p, 0, "role")) {
        a->principals = sp_alloc(p, sizeof *a->principals);
        if (!a->principals)
            return COMB_ENOMEM;
        a->n_principals = 1;
        SP_TRY(principal(p, a->principals));
    }
    if (!sp_accept_kw(p, KW_ON))
        return COMB_OK;
    if (sp_accept_kw(p, KW_ALL)) {
        a->on_all = true;
        return COMB_OK;
    }
    return privilege_object(p, s, a);
}

int sp_show_auth(SqlParser *p, AstStmt *s, bool *handled)
{
    AstAuth *a;
    *handled = sp_is_word_at(p, 0, "roles") || sp_is_kw(p, KW_GRANT) ||
               (sp_is_word_at(p, 0, "current") &&
                sp_is_word_at(p, 1, "roles")) ||
               (sp_is_word_at(p, 0, "role") && sp_is_kw_at(p, 1, KW_GRANT)) ||
               sp_is_word_at(p, 0, "principals");
    if (!*handled)
        return COMB_OK;
    if (!(a = auth_of(p, s)))
        return COMB_ENOMEM;
    if (sp_accept_word(p, "roles")) {
        s->kind = AST_SHOW_ROLES;
        return COMB_OK;
    }
    if (sp_accept_word(p, "current")) {
        sp_next(p);
        s->kind = AST_SHOW_CURRENT_ROLES;
        return COMB_OK;
    }
    if (sp_accept_kw(p, KW_GRANT))
        return show_grant(p, s, a);
    if (sp_accept_word(p, "principals")) {
        s->kind = AST_SHOW_PRINCIPALS;
        return one_role(p, a);
    }
    sp_next(p);    /* ROLE GRANT */
    sp_next(p);
    s->kind = AST_SHOW_ROLE_GRANT;
    a->principals = sp_alloc(p, sizeof *a->principals);
    if (!a->principals)
        return COMB_ENOMEM;
    a->n_principals = 1;
    return principal(p, a->principals);
}
