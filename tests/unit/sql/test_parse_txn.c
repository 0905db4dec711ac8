/*
 * test_parse_txn.c - the statements of explicit transactions (parse_txn.c):
 * every spelling, the transaction modes, the errors with their positions,
 * and BEGIN / WORK / TRANSACTION staying identifiers.
 */
#include "test_parse_util.h"

TEST(parse_txn_begin_spellings)
{
    static const char *const begins[] = {
        "BEGIN", "begin;", "BEGIN TRANSACTION", "begin work",
        "START TRANSACTION", "start transaction;",
        "START TRANSACTION READ WRITE",
        "START TRANSACTION ISOLATION LEVEL SNAPSHOT",
        "START TRANSACTION READ WRITE, ISOLATION LEVEL SNAPSHOT",
    };
    AstStmt *s;
    for (size_t i = 0; i < sizeof begins / sizeof begins[0]; i++) {
        PARSE_OK(s, begins[i]);
        CHECK_EQ(s->kind, AST_TXN_BEGIN);
        CHECK(!s->txn_read_only);
    }
    PARSE_OK(s, "start transaction read only");
    CHECK_EQ(s->kind, AST_TXN_BEGIN);
    CHECK(s->txn_read_only);
    PARSE_OK(s, "START TRANSACTION ISOLATION LEVEL SNAPSHOT, READ ONLY");
    CHECK(s->txn_read_only);
    /* the last mode counts, as in a SET list */
    PARSE_OK(s, "START TRANSACTION READ ONLY, READ WRITE");
    CHECK(!s->txn_read_only);
}

TEST(parse_txn_commit_rollback)
{
    AstStmt *s;
    PARSE_OK(s, "COMMIT");
    CHECK_EQ(s->kind, AST_TXN_COMMIT);
    PARSE_OK(s, "commit work;");
    CHECK_EQ(s->kind, AST_TXN_COMMIT);
    CHECK_STR(s->text, "commit work");
    PARSE_OK(s, "ROLLBACK");
    CHECK_EQ(s->kind, AST_TXN_ROLLBACK);
    PARSE_OK(s, "Rollback Work");
    CHECK_EQ(s->kind, AST_TXN_ROLLBACK);
}

TEST(parse_txn_errors)
{
    PARSE_ERR("START", COMB_ESYNTAX,
              "ParseException line 1:5 missing transaction near '<EOF>'");
    PARSE_ERR("START TRANSACTION READ", COMB_ESYNTAX,
              "ParseException line 1:22 missing ONLY or WRITE near '<EOF>'");
    PARSE_ERR("START TRANSACTION ISOLATION SNAPSHOT", COMB_ESYNTAX,
              "ParseException line 1:28 missing level near 'SNAPSHOT'");
    PARSE_ERR("START TRANSACTION ISOLATION LEVEL SERIALIZABLE",
              COMB_EUNSUPPORTED,
              "line 1:34 isolation level other than SNAPSHOT is not supported");
    PARSE_ERR("START TRANSACTION READ ONLY,", COMB_ESYNTAX,
              "ParseException line 1:28 missing READ ONLY, READ WRITE or "
              "ISOLATION LEVEL near '<EOF>'");
    PARSE_ERR("START TRANSACTION DEFERRABLE", COMB_ESYNTAX,
              "ParseException line 1:18 missing READ ONLY, READ WRITE or "
              "ISOLATION LEVEL near 'DEFERRABLE'");
    PARSE_ERR("BEGIN TRANSACTION WORK", COMB_ESYNTAX,
              "ParseException line 1:18 cannot recognize input near 'WORK'");
    PARSE_ERR("COMMIT TRANSACTION", COMB_ESYNTAX,
              "ParseException line 1:7 cannot recognize input near "
              "'TRANSACTION'");
    PARSE_ERR("ROLLBACK TO SAVEPOINT a", COMB_ESYNTAX,
              "ParseException line 1:9 cannot recognize input near 'TO'");
    PARSE_ERR("\n  BEGIN\n  x", COMB_ESYNTAX,
              "ParseException line 3:2 cannot recognize input near 'x'");
}

TEST(parse_txn_words_stay_identifiers)
{
    AstStmt *s;
    PARSE_OK(s, "SELECT begin, work, transaction, snapshot FROM begin");
    CHECK_EQ(s->kind, AST_SELECT);
    PARSE_OK(s, "CREATE TABLE work (begin INT, isolation STRING)");
    CHECK_EQ(s->kind, AST_CREATE_TABLE);
    CHECK_STR(s->name.name, "work");
    PARSE_OK(s, "INSERT INTO transaction VALUES (1)");
    CHECK_EQ(s->kind, AST_INSERT);
}
