/*
 * parse_txn.c - the statements of explicit transactions:
 *
 *   START TRANSACTION [mode [, mode]]   mode: READ ONLY | READ WRITE |
 *                                             ISOLATION LEVEL SNAPSHOT
 *   BEGIN [TRANSACTION | WORK]
 *   COMMIT [WORK]
 *   ROLLBACK [WORK]
 *
 * START TRANSACTION, its modes, COMMIT and ROLLBACK are Hive's grammar
 * (snapshot isolation is the only level, as in Hive); BEGIN is
 * PostgreSQL's spelling.  BEGIN, WORK, TRANSACTION and the mode words are
 * no reserved words: they are matched by spelling here and stay
 * identifiers everywhere else.
 */
#include "sql/parse/parse_int.h"

/* READ ONLY | READ WRITE | ISOLATION LEVEL SNAPSHOT */
static int txn_mode(SqlParser *p, AstStmt *s)
{
    if (sp_accept_word(p, "read")) {
        if (sp_accept_word(p, "only")) {
            s->txn_read_only = true;
            return COMB_OK;
        }
        if (sp_accept_word(p, "write")) {
            s->txn_read_only = false;
            return COMB_OK;
        }
        return sp_error(p, sp_peek(p, 0), "missing ONLY or WRITE");
    }
    if (sp_accept_word(p, "isolation")) {
        SP_TRY(sp_expect_word(p, "level"));
        if (sp_accept_word(p, "snapshot"))
            return COMB_OK;
        if (sp_is(p, SQL_TK_WORD))
            return sp_unsupported(p, sp_peek(p, 0),
                                  "isolation level other than SNAPSHOT");
        return sp_error(p, sp_peek(p, 0), "missing SNAPSHOT");
    }
    return sp_error(p, sp_peek(p, 0),
                    "missing READ ONLY, READ WRITE or ISOLATION LEVEL");
}

static int start_transaction(SqlParser *p, AstStmt *s)
{
    s->kind = AST_TXN_BEGIN;
    sp_next(p);
    SP_TRY(sp_expect_word(p, "transaction"));
    if (sp_is(p, SQL_TK_EOF) || sp_is(p, SQL_TK_SEMI))
        return COMB_OK;
    SP_TRY(txn_mode(p, s));
    while (sp_accept(p, SQL_TK_COMMA))
        SP_TRY(txn_mode(p, s));
    return COMB_OK;
}

int sp_txn(SqlParser *p, AstStmt *s)
{
    if (sp_is_kw(p, KW_START))
        return start_transaction(p, s);
    if (sp_accept_word(p, "begin")) {
        s->kind = AST_TXN_BEGIN;
        if (!sp_accept_word(p, "transaction"))
            sp_accept_word(p, "work");
        return COMB_OK;
    }
    s->kind = sp_is_kw(p, KW_COMMIT) ? AST_TXN_COMMIT : AST_TXN_ROLLBACK;
    sp_next(p);
    sp_accept_word(p, "work");
    return COMB_OK;
}

bool sp_at_txn(SqlParser *p)
{
    return sp_is_kw(p, KW_START) || sp_is_kw(p, KW_COMMIT) ||
           sp_is_kw(p, KW_ROLLBACK) || sp_is_word_at(p, 0, "begin");
}
