/*
 * SQL-standard authorization (sql/authz.c, ddl/ddl_auth.c): sessions of
 * several users on one warehouse with checks on, as the server opens
 * them.  Each refusal carries Hive's text; the same statement works once
 * the privilege is granted, and stops working when it is revoked.
 */
#include "unit.h"

#include "sql/session.h"

static int run(SqlSession *s, const char *sql, CombErr *err)
{
    return sql_session_execute(s, sql, strlen(sql), NULL, err);
}

/* sql fails with COMB_EDENIED (or code) and a message containing want */
#define REFUSED(s, sql, code, want)                                     \
    do {                                                                \
        CombErr fe;                                                     \
        int frc = run((s), (sql), &fe);                                 \
        if (frc != (code) || !strstr(fe.msg, (want))) {                 \
            unit_fail(__FILE__, __LINE__, "%s: rc %d: %s", (sql), frc,  \
                      fe.msg);                                          \
            return;                                                     \
        }                                                               \
    } while (0)
#define DENIED(s, sql, want) REFUSED(s, sql, COMB_EDENIED, want)
#define WORKS(s, sql)                                                   \
    do {                                                                \
        CombErr we;                                                     \
        CHECK_OK(run((s), (sql), &we), &we);                            \
    } while (0)

static SqlSession *as(const char *dir, const char *user)
{
    SqlSessionOptions opt = {dir, user, NULL, true, "root, ann"};
    SqlSession *s = NULL;
    CombErr err;
    return sql_session_open(&opt, &s, &err) ? NULL : s;
}

TEST(authz_table_privileges_granted_and_revoked)
{
    const char *dir = unit_tmpdir();
    SqlSession *ann = as(dir, "ann"), *bob = as(dir, "bob");
    CHECK(ann && bob);
    WORKS(ann, "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true')");
    WORKS(ann, "INSERT INTO t VALUES (1), (2)");
    WORKS(ann, "SELECT count(*) FROM t");     /* the owner holds everything */
    DENIED(bob, "SELECT * FROM t",
           "HiveAccessControlException Permission denied: Principal "
           "[name=bob, type=USER] does not have following privileges for "
           "operation QUERY [[SELECT] on Object [type=TABLE_OR_VIEW, "
           "name=default.t]]");
    DENIED(bob, "SELECT 1 FROM (SELECT a FROM t) q WHERE a > 0", "[[SELECT]");
    DENIED(bob, "SELECT 1 WHERE 1 IN (SELECT a FROM t)", "[[SELECT]");
    DENIED(bob, "INSERT INTO t VALUES (3)", "[[INSERT] on Object");
    DENIED(bob, "INSERT OVERWRITE TABLE t SELECT 3", "[[INSERT, DELETE] on");
    DENIED(bob, "UPDATE t SET a = 5", "[[UPDATE] on Object");
    DENIED(bob, "DELETE FROM t WHERE a = 1", "[[DELETE] on Object");
    DENIED(bob, "DROP TABLE t",
           "operation DROPTABLE [[OBJECT OWNERSHIP] on Object "
           "[type=TABLE_OR_VIEW, name=default.t]]");
    DENIED(bob, "TRUNCATE TABLE t", "TRUNCATETABLE [[OBJECT OWNERSHIP]");
    DENIED(bob, "ALTER TABLE t SET TBLPROPERTIES ('x'='y')", "ALTERTABLE");
    /* bob cannot give himself what he lacks */
    DENIED(bob, "GRANT SELECT ON t TO USER bob",
           "operation GRANT_PRIVILEGE [[SELECT with grant] on Object");

    WORKS(ann, "GRANT SELECT ON TABLE t TO USER bob");
    WORKS(bob, "SELECT * FROM t");
    DENIED(bob, "INSERT INTO t SELECT a FROM t", "[[INSERT] on Object");
    /* held without the option: not his to pass on */
    DENIED(bob, "GRANT SELECT ON t TO USER cat", "[[SELECT with grant]");
    WORKS(ann, "GRANT INSERT, UPDATE ON t TO USER bob WITH GRANT OPTION");
    WORKS(bob, "INSERT INTO t SELECT a + 10 FROM t");
    WORKS(bob, "UPDATE t SET a = a + 1 WHERE a > 10");
    DENIED(bob, "DELETE FROM t", "[[DELETE]");
    DENIED(bob, "MERGE INTO t USING (SELECT 1 AS k) s ON t.a = s.k "
                "WHEN MATCHED THEN DELETE "
                "WHEN NOT MATCHED THEN INSERT VALUES (s.k)", "[[DELETE]");
    WORKS(bob, "MERGE INTO t USING (SELECT 99 AS k) s ON t.a = s.k "
               "WHEN MATCHED THEN UPDATE SET a = 0 "
               "WHEN NOT MATCHED THEN INSERT VALUES (s.k)");
    WORKS(bob, "GRANT INSERT ON t TO USER cat");
    WORKS(ann, "REVOKE SELECT ON t FROM USER bob");
    DENIED(bob, "SELECT * FROM t", "[[SELECT]");
    /* the owner's session is unaffected, and counts every row */
    WORKS(ann, "DELETE FROM t WHERE a = 99");
    sql_session_close(bob);
    sql_session_close(ann);
}

TEST(authz_roles_databases_views_and_admin)
{
    const char *dir = unit_tmpdir();
    SqlSession *ann = as(dir, "ann"), *bob = as(dir, "bob"),
               *cat = as(dir, "cat");
    CHECK(ann && bob && cat);
    WORKS(ann, "CREATE TABLE t (a INT)");
    WORKS(ann, "INSERT INTO t VALUES (1)");
    /* roles are the admin's: ann is in hive.users.in.admin.role, and
     * still needs SET ROLE ADMIN */
    DENIED(ann, "CREATE ROLE readers",
           "Current user : ann is not allowed to run CREATEROLE. User has "
           "to belong to ADMIN role and have it as current role, for this "
           "action.");
    REFUSED(bob, "SET ROLE ADMIN", COMB_EINVALID,
            "bob doesn't belong to role admin");
    WORKS(ann, "SET ROLE ADMIN");
    WORKS(ann, "CREATE ROLE readers");
    WORKS(ann, "CREATE ROLE staff");
    WORKS(ann, "GRANT ROLE readers TO ROLE staff");
    WORKS(ann, "GRANT staff TO USER bob");
    WORKS(ann, "GRANT SELECT ON t TO ROLE readers");
    /* bob reads through staff -> readers */
    WORKS(bob, "SELECT * FROM t");
    WORKS(bob, "SET ROLE NONE");
    DENIED(bob, "SELECT * FROM t", "[[SELECT]");
    WORKS(bob, "SET ROLE staff");
    WORKS(bob, "SELECT * FROM t");
    REFUSED(bob, "SET ROLE readers", COMB_OK, "");
    REFUSED(cat, "SET ROLE readers", COMB_EINVALID,
            "cat doesn't belong to role readers");
    WORKS(bob, "SET ROLE ALL");
    DENIED(bob, "GRANT ROLE staff TO USER cat", "GRANT_ROLE");
    DENIED(bob, "SHOW ROLES", "SHOW_ROLES");
    DENIED(bob, "SHOW GRANT USER cat ON ALL",
           "User : bob is not allowed check privileges of another "
           "principal : cat.");
    WORKS(bob, "SHOW GRANT USER bob ON ALL");
    WORKS(bob, "SHOW GRANT ROLE staff");
    /* privileges on a database cover its tables; ownership of one lets
     * its owner make tables in it */
    DENIED(bob, "CREATE DATABASE sales", "CREATEDATABASE");
    WORKS(ann, "CREATE DATABASE sales");
    WORKS(ann, "CREATE TABLE sales.orders (id INT)");
    DENIED(cat, "SELECT * FROM sales.orders", "name=sales.orders]]");
    DENIED(cat, "CREATE TABLE sales.mine (id INT)",
           "CREATETABLE [[OBJECT OWNERSHIP] on Object [type=DATABASE, "
           "name=sales]]");
    WORKS(cat, "CREATE TABLE mine (id INT)");    /* default: public's */
    WORKS(ann, "GRANT SELECT ON DATABASE sales TO USER cat");
    WORKS(cat, "SELECT * FROM sales.orders");
    DENIED(cat, "INSERT INTO sales.orders VALUES (1)", "[[INSERT]");
    DENIED(bob, "DROP DATABASE sales CASCADE", "DROPDATABASE");
    /* a view reads with its own rights: SELECT on it is enough, and
     * making one needs what it reads WITH GRANT */
    WORKS(ann, "CREATE VIEW v AS SELECT a FROM t");
    DENIED(cat, "SELECT * FROM v", "name=default.v]]");
    WORKS(ann, "GRANT SELECT ON v TO USER cat");
    WORKS(cat, "SELECT * FROM v");
    DENIED(cat, "SELECT * FROM t", "name=default.t]]");
    DENIED(cat, "CREATE VIEW w AS SELECT a FROM v", "[[SELECT with grant]");
    /* settings the checks rest on are not the session's to change */
    REFUSED(cat, "SET hive.security.authorization.enabled=false",
            COMB_EINVALID, "Cannot modify hive.security.authorization.enabled "
            "at runtime");
    /* dropping a role takes its grants with it */
    WORKS(ann, "DROP ROLE readers");
    DENIED(bob, "SELECT * FROM t", "[[SELECT]");
    sql_session_close(cat);
    sql_session_close(bob);
    sql_session_close(ann);
}
