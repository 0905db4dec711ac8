/*
 * parse_locks.c - the statements of the transaction manager: SHOW LOCKS,
 * SHOW TRANSACTIONS and ABORT TRANSACTIONS (Hive's grammar).
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

static bool is_word(SqlParser *p, int k, const char *w)
{
    const SqlToken *t = sp_peek(p, k);
    size_t n = strlen(w);
    return t->kind == SQL_TK_WORD && t->len == n &&
           strncasecmp(p->src + t->off, w, n) == 0;
}

static AstLocks *locks_of(SqlParser *p, AstStmt *s)
{
    if (!s->locks)
        s->locks = sp_alloc(p, sizeof *s->locks);
    return s->locks;
}

/* SHOW LOCKS [[db.]table [PARTITION (k='v', ...)] | DATABASE|SCHEMA db]
 * [EXTENDED], after SHOW LOCKS. */
static int show_locks(SqlParser *p, AstStmt *s)
{
    AstLocks *l = locks_of(p, s);
    if (!l)
        return COMB_ENOMEM;
    s->kind = AST_SHOW_LOCKS;
    if (sp_accept_kw(p, KW_DATABASE) || sp_accept_kw(p, KW_SCHEMA)) {
        l->database = true;
        SP_TRY(sp_ident(p, &s->name.name, &s->name.pos));
    } else if (!sp_is_kw(p, KW_EXTENDED) && sp_is_ident_tok(sp_peek(p, 0))) {
        SP_TRY(sp_name(p, &s->name));
        if (sp_is_kw(p, KW_PARTITION))
            SP_TRY(sp_partition_spec(p, true, &s->part));
    }
    l->extended = sp_accept_kw(p, KW_EXTENDED);
    return COMB_OK;
}

int sp_show_locks(SqlParser *p, AstStmt *s, bool *handled)
{
    *handled = true;
    if (is_word(p, 0, "locks")) {
        sp_next(p);
        return show_locks(p, s);
    }
    if (is_word(p, 0, "transactions")) {
        sp_next(p);
        s->kind = AST_SHOW_TRANSACTIONS;
        return COMB_OK;
    }
    *handled = false;
    return COMB_OK;
}

/* ABORT TRANSACTIONS id [id ...] (space-separated, as Hive's grammar). */
int sp_abort(SqlParser *p, AstStmt *s)
{
    AstLocks *l = locks_of(p, s);
    SqlVec ids = {0}, pos = {0};
    if (!l)
        return COMB_ENOMEM;
    sp_next(p);
    if (!is_word(p, 0, "transactions"))
        return sp_unsupported(p, sp_peek(p, 0), "ABORT of anything but "
                              "TRANSACTIONS");
    sp_next(p);
    s->kind = AST_ABORT_TRANSACTIONS;
    do {
        AstPos at = sp_pos(sp_peek(p, 0));
        int64_t id;
        SP_TRY(sp_int(p, 1, INT64_MAX, "transaction id", &id));
        SP_TRY(sp_vec_push(p, &ids, &id, sizeof id));
        SP_TRY(sp_vec_push(p, &pos, &at, sizeof at));
    } while (sp_is(p, SQL_TK_INT));
    l->n_ids = ids.n;
    l->ids = ids.data;
    l->id_pos = pos.data;
    return COMB_OK;
}
