/*
 * parse_compact.c - the compaction statements (hive-acid-transactions.md
 * 4.4):
 *
 *   ALTER TABLE name [PARTITION (k = v, ...)] COMPACT 'major'|'minor'
 *       [AND WAIT] [WITH OVERWRITE TBLPROPERTIES ('k' = 'v', ...)]
 *   SHOW COMPACTIONS
 *   ABORT COMPACTIONS id [id ...]
 *   SHOW COMPACTION METRICS [db.]table [PARTITION (k = v, ...)]  (comb's)
 *
 * Only the grammar is checked here: the compaction type's value, the
 * table and its partitions are the executor's (ddl/ddl_compact.c), which
 * reports Hive's errors for them.  Hive 4's other clauses (POOL, CLUSTERED
 * INTO, ORDER BY, SHOW COMPACTIONS filters) are refused as unsupported.
 * Also the word helpers for words that are no keywords.
 */
#include "sql/parse/parse_int.h"

#include <string.h>
#include <strings.h>

/* A Hive 4 clause comb does not run, refused at its first word. */
static int refuse_clause(SqlParser *p)
{
    const SqlToken *t = sp_peek(p, 0);
    return sp_unsupported(p, t, "COMPACT ... %.*s", (int)t->len,
                          p->src + t->off);
}

int sp_alter_compact(SqlParser *p, AstAlter *a)
{
    a->kind = AST_ALTER_COMPACT;
    a->compact_type_pos = sp_pos(sp_peek(p, 0));
    SP_TRY(sp_string(p, &a->compact_type, NULL));
    if (sp_is_word_at(p, 0, "clustered") || sp_is_word_at(p, 0, "pool") ||
        sp_is_kw(p, KW_ORDER))
        return refuse_clause(p);
    if (sp_accept_kw(p, KW_AND)) {
        if (!sp_accept_word(p, "wait"))
            return sp_error(p, sp_peek(p, 0), "missing WAIT");
        a->compact_wait = true;
    }
    if (sp_is_word_at(p, 0, "pool") || sp_is_kw(p, KW_ORDER))
        return refuse_clause(p);
    if (sp_accept_kw(p, KW_WITH)) {
        SP_TRY(sp_expect_kw(p, KW_OVERWRITE));
        SP_TRY(sp_expect_kw(p, KW_TBLPROPERTIES));
        SP_TRY(sp_property_list(p, &a->n_props, &a->props));
    }
    return COMB_OK;
}

/* SHOW COMPACTION METRICS [db.]table [PARTITION (...)], a partial spec
 * allowed (the partitions it matches). */
static int show_metrics(SqlParser *p, AstStmt *s)
{
    s->kind = AST_SHOW_COMPACTION_METRICS;
    sp_next(p);
    sp_next(p);
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        SP_TRY(sp_partition_spec(p, true, &s->part));
    return COMB_OK;
}

int sp_show_compactions(SqlParser *p, AstStmt *s, bool *handled)
{
    if (sp_is_word_at(p, 0, "compaction") && sp_is_word_at(p, 1, "metrics")) {
        *handled = true;
        return show_metrics(p, s);
    }
    *handled = sp_accept_word(p, "compactions");
    if (!*handled)
        return COMB_OK;
    s->kind = AST_SHOW_COMPACTIONS;
    if (!sp_is(p, SQL_TK_SEMI) && !sp_is(p, SQL_TK_EOF)) {
        const SqlToken *t = sp_peek(p, 0);
        return sp_unsupported(p, t, "SHOW COMPACTIONS %.*s", (int)t->len,
                              p->src + t->off);
    }
    return COMB_OK;
}

int sp_abort_compactions(SqlParser *p, AstStmt *s)
{
    CombBuf ids = COMB_BUF_INIT;
    int rc = COMB_OK;
    s->kind = AST_ABORT_COMPACTIONS;
    sp_next(p);
    sp_next(p);
    do {
        int64_t id;
        if ((rc = sp_int(p, 1, INT64_MAX, "compaction id", &id)))
            break;
        if (comb_buf_append(&ids, &id, sizeof id))
            rc = comb_err_nomem(p->err);
    } while (!rc && sp_is(p, SQL_TK_INT));
    if (!rc) {
        s->n_ids = (int)(ids.len / sizeof(int64_t));
        s->ids = comb_arena_alloc(p->arena, ids.len);
        if (!s->ids)
            rc = comb_err_nomem(p->err);
        else
            memcpy(s->ids, ids.data, ids.len);
    }
    comb_buf_free(&ids);
    return rc;
}
