/*
 * parse_load.c - LOAD DATA [LOCAL] INPATH 'path' [OVERWRITE] INTO TABLE
 * [db.]t [PARTITION (k = v, ...)] [INPUTFORMAT 'class' SERDE 'class'].
 */
#include "sql/parse/parse_int.h"

int sp_load(SqlParser *p, AstStmt *s)
{
    s->kind = AST_LOAD;
    sp_next(p);
    SP_TRY(sp_expect_kw(p, KW_DATA));
    s->load_local = sp_accept_kw(p, KW_LOCAL);
    SP_TRY(sp_expect_kw(p, KW_INPATH));
    s->load_path_pos = sp_pos(sp_peek(p, 0));
    SP_TRY(sp_string(p, &s->load_path, NULL));
    s->overwrite = sp_accept_kw(p, KW_OVERWRITE);
    SP_TRY(sp_expect_kw(p, KW_INTO));
    SP_TRY(sp_expect_kw(p, KW_TABLE));
    SP_TRY(sp_name(p, &s->name));
    if (sp_is_kw(p, KW_PARTITION))
        SP_TRY(sp_partition_spec(p, false, &s->part));
    if (sp_accept_kw(p, KW_INPUTFORMAT)) {
        SP_TRY(sp_string(p, &s->load_inputformat, NULL));
        SP_TRY(sp_expect_kw(p, KW_SERDE));
        SP_TRY(sp_string(p, &s->load_serde, NULL));
    }
    return COMB_OK;
}
