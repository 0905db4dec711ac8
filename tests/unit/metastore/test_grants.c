/* Roles and grants (ms.h's authorization): made, listed, refused when they
 * exist or do not, the grant option added and taken away, and gone with
 * the role, table or database they name (a table's follow its renames). */
#include "ms_fixture.h"

static MsGrant table_grant(const char *table, const char *who, bool role,
                           const char *priv)
{
    return (MsGrant){.object = MS_GRANT_TABLE, .db = "default",
                     .table = (char *)table, .principal = (char *)who,
                     .principal_is_role = role, .privilege = (char *)priv,
                     .grantor = "ann"};
}

static int count_grants(Ms *ms, const MsGrant *filter, CombArena *a)
{
    MsGrant *rows;
    CombErr err;
    int n;
    return ms_grant_list(ms, filter, a, &rows, &n, &err) ? -1 : n;
}

MS_TEST(ms_roles_made_listed_dropped)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    char **names;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_role_create(ms, "Analysts", "ann", &err), &err);
    CHECK_OK(ms_role_create(ms, "etl", "ann", &err), &err);
    CHECK_EQ(ms_role_create(ms, "ANALYSTS", "bob", &err), COMB_EEXISTS);
    CHECK_STR(err.msg, "Role analysts already exists.");
    CHECK_EQ(ms_role_create(ms, "admin", "bob", &err), COMB_EEXISTS);
    CHECK_EQ(ms_role_create(ms, "Public", "bob", &err), COMB_EEXISTS);
    CHECK_EQ(ms_role_create(ms, "no-dash", "bob", &err), COMB_EINVALID);
    CHECK_OK(ms_role_list(ms, &a, &names, &n, &err), &err);
    CHECK_EQ(n, 2);
    CHECK_STR(names[0], "analysts");
    CHECK_STR(names[1], "etl");
    CHECK_EQ(ms_role_drop(ms, "admin", &err), COMB_EINVALID);
    CHECK_EQ(ms_role_drop(ms, "nobody", &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Role nobody does not exist");

    /* a dropped role's memberships and privileges go with it */
    CHECK_OK(fx_create_t(ms, &err), &err);
    MsGrant member = {.object = MS_GRANT_ROLE, .role = "etl",
                      .principal = "bob", .grantor = "ann"};
    MsGrant nested = {.object = MS_GRANT_ROLE, .role = "analysts",
                      .principal = "etl", .principal_is_role = true,
                      .grantor = "ann"};
    MsGrant priv = table_grant("t", "ETL", true, "SELECT");
    CHECK_OK(ms_grant_put(ms, &member, &err), &err);
    CHECK_OK(ms_grant_put(ms, &nested, &err), &err);
    CHECK_OK(ms_grant_put(ms, &priv, &err), &err);
    MsGrant any_role = {.object = MS_GRANT_ROLE};
    CHECK_EQ(count_grants(ms, &any_role, &a), 2);
    CHECK_OK(ms_role_drop(ms, "ETL", &err), &err);
    CHECK_EQ(count_grants(ms, &any_role, &a), 0);
    MsGrant any_table = {.object = MS_GRANT_TABLE};
    CHECK_EQ(count_grants(ms, &any_table, &a), 0);
    CHECK_OK(ms_role_list(ms, &a, &names, &n, &err), &err);
    CHECK_EQ(n, 1);
    /* granting a role that does not exist, or to one */
    CHECK_EQ(ms_grant_put(ms, &member, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Role etl does not exist");
    CHECK_EQ(ms_grant_put(ms, &priv, &err), COMB_ENOTFOUND);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_grants_put_listed_revoked)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsGrant *rows;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    MsGrant sel = table_grant("T", "bob", false, "SELECT");
    MsGrant ins = table_grant("t", "bob", false, "INSERT");
    MsGrant other = table_grant("t", "Bob", false, "SELECT");
    CHECK_OK(ms_grant_put(ms, &sel, &err), &err);
    CHECK_OK(ms_grant_put(ms, &ins, &err), &err);
    CHECK_OK(ms_grant_put(ms, &other, &err), &err);   /* users keep case */
    CHECK_EQ(ms_grant_put(ms, &sel, &err), COMB_EEXISTS);
    CHECK_STR(err.msg, "SELECT on default.t to USER bob is already granted");
    MsGrant missing = table_grant("nope", "bob", false, "SELECT");
    CHECK_EQ(ms_grant_put(ms, &missing, &err), COMB_ENOTFOUND);

    MsGrant of_bob = {.object = MS_GRANT_TABLE, .db = "default",
                      .table = "t", .principal = "bob"};
    CHECK_OK(ms_grant_list(ms, &of_bob, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 2);
    CHECK_STR(rows[0].privilege, "INSERT");
    CHECK_STR(rows[1].privilege, "SELECT");
    CHECK_STR(rows[1].db, "default");
    CHECK_STR(rows[1].table, "t");
    CHECK_STR(rows[1].grantor, "ann");
    CHECK(!rows[1].principal_is_role && !rows[1].grantor_is_role);
    CHECK(!rows[1].grant_option);
    CHECK(rows[1].create_time > 1700000000);
    CHECK(rows[1].role == NULL);

    /* granting again with the option adds it; revoking the option only
     * keeps the privilege */
    sel.grant_option = true;
    CHECK_OK(ms_grant_put(ms, &sel, &err), &err);
    CHECK_OK(ms_grant_put(ms, &sel, &err), &err);
    CHECK_OK(ms_grant_list(ms, &of_bob, &a, &rows, &n, &err), &err);
    CHECK(rows[1].grant_option && !rows[0].grant_option);
    CHECK_OK(ms_grant_drop(ms, &sel, true, &err), &err);
    CHECK_EQ(ms_grant_drop(ms, &sel, true, &err), COMB_ENOTFOUND);
    CHECK_OK(ms_grant_list(ms, &of_bob, &a, &rows, &n, &err), &err);
    CHECK(n == 2 && !rows[1].grant_option);
    CHECK_OK(ms_grant_drop(ms, &sel, false, &err), &err);
    CHECK_EQ(ms_grant_drop(ms, &sel, false, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "SELECT on default.t to USER bob was not granted");
    CHECK_OK(ms_grant_list(ms, &of_bob, &a, &rows, &n, &err), &err);
    CHECK(n == 1 && strcmp(rows[0].privilege, "INSERT") == 0);

    /* database grants are apart from table grants */
    MsGrant on_db = {.object = MS_GRANT_DATABASE, .db = "DEFAULT",
                     .principal = "cat", .privilege = "SELECT",
                     .grantor = "ann"};
    CHECK_OK(ms_grant_put(ms, &on_db, &err), &err);
    MsGrant db_filter = {.object = MS_GRANT_DATABASE, .db = "default"};
    CHECK_OK(ms_grant_list(ms, &db_filter, &a, &rows, &n, &err), &err);
    CHECK(n == 1 && rows[0].table == NULL &&
          strcmp(rows[0].principal, "cat") == 0);
    MsGrant bad = {.object = MS_GRANT_TABLE, .db = "default",
                   .principal = "x", .privilege = "SELECT"};
    CHECK_EQ(ms_grant_put(ms, &bad, &err), COMB_EINVALID);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_grants_follow_renames_and_drops)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsGrant *rows;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    MsGrant g = table_grant("t", "bob", false, "UPDATE");
    CHECK_OK(ms_grant_put(ms, &g, &err), &err);
    CHECK_OK(ms_table_rename(ms, "default", "t", "default", "t2", NULL, &err),
             &err);
    MsGrant any = {.object = MS_GRANT_TABLE};
    CHECK_OK(ms_grant_list(ms, &any, &a, &rows, &n, &err), &err);
    CHECK(n == 1 && strcmp(rows[0].table, "t2") == 0);
    /* a new table under the old name holds nothing */
    CHECK_OK(fx_create_t(ms, &err), &err);
    MsGrant old = {.object = MS_GRANT_TABLE, .db = "default", .table = "t"};
    CHECK_OK(ms_grant_list(ms, &old, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 0);
    CHECK_OK(ms_table_drop(ms, "default", "t2", false, &err), &err);
    CHECK_OK(ms_grant_list(ms, &any, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 0);

    /* a dropped database takes its grants and its tables' */
    MsDatabase d = {.name = "sales"};
    CHECK_OK(ms_db_create(ms, &d, false, &err), &err);
    MsGrant on_db = {.object = MS_GRANT_DATABASE, .db = "sales",
                     .principal = "bob", .privilege = "SELECT",
                     .grantor = "ann"};
    CHECK_OK(ms_grant_put(ms, &on_db, &err), &err);
    CHECK_OK(ms_db_drop(ms, "sales", false, true, &err), &err);
    MsGrant any_db = {.object = MS_GRANT_DATABASE};
    CHECK_OK(ms_grant_list(ms, &any_db, &a, &rows, &n, &err), &err);
    CHECK_EQ(n, 0);
    ms_close(ms);
    comb_arena_free(&a);
}
