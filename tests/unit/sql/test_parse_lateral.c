/*
 * test_parse_lateral.c - LATERAL VIEW items and a table function's
 * column list in the select list.
 */
#include "unit.h"

#include "test_parse_util.h"

TEST(parse_lateral_views_chain_innermost_first)
{
    AstStmt *s;
    const AstFrom *f;
    PARSE_OK(s, "select c, k from t x lateral view explode(a) e as c "
                "lateral view outer explode(m) m2 as k, v");
    f = s->select->from;
    CHECK(f->kind == AST_FROM_LATERAL);
    CHECK(f->lateral->outer);
    CHECK_STR(f->lateral->alias, "m2");
    CHECK_EQ(f->lateral->n_cols, 2);
    CHECK_STR(f->lateral->cols[1], "v");
    CHECK(f->left->kind == AST_FROM_LATERAL);
    CHECK(!f->left->lateral->outer);
    CHECK_STR(f->left->lateral->call->name, "explode");
    CHECK_EQ(f->left->lateral->n_cols, 1);
    CHECK(f->left->left->kind == AST_FROM_TABLE);
    CHECK_STR(f->left->left->alias, "x");
}

TEST(parse_lateral_view_without_column_names)
{
    AstStmt *s;
    PARSE_OK(s, "select * from (select 1 a) q lateral view posexplode(array(1)) p");
    CHECK(s->select->from->kind == AST_FROM_LATERAL);
    CHECK_EQ(s->select->from->lateral->n_cols, 0);
    CHECK(s->select->from->left->kind == AST_FROM_QUERY);
}

TEST(parse_select_item_column_list)
{
    AstStmt *s;
    PARSE_OK(s, "select explode(m) as (k, v) from t");
    CHECK_EQ(s->select->items[0].n_aliases, 2);
    CHECK_STR(s->select->items[0].aliases[0], "k");
    CHECK(s->select->items[0].alias == NULL);
}

TEST(parse_lateral_view_errors)
{
    PARSE_ERR("select a from t lateral explode(a) e", COMB_ESYNTAX,
              "ParseException line 1:24 missing VIEW after LATERAL near 'explode'");
    PARSE_ERR("select a from t lateral view a + 1 e", COMB_ESYNTAX,
              "ParseException line 1:29 expected a table function call in "
              "LATERAL VIEW near 'a'");
    PARSE_ERR("select a from t lateral view explode(a) as c", COMB_ESYNTAX,
              "ParseException line 1:40 missing table alias of the LATERAL VIEW "
              "near 'as'");
}
