/*
 * test_parse_query.c - the query grammar: joins (every kind, ON, USING,
 * comma joins, left-deep), set operations (one precedence, left
 * associative, the result clauses on the whole), WITH in front of
 * queries and statements, GROUP BY with ROLLUP / CUBE / GROUPING SETS,
 * LIMIT with offsets and subqueries in expressions.
 */
#include "test_parse_util.h"

TEST(parse_joins_left_deep)
{
    AstStmt *s;
    AstFrom *f;
    PARSE_OK(s, "select * from a join b on a.x = b.x left outer join c using (y, z) "
                "left semi join d on d.k = a.k, e cross join f full join g right join h");
    f = s->select->from;
    CHECK_EQ(f->kind, AST_FROM_JOIN);
    CHECK_EQ(f->join, AST_JOIN_RIGHT);
    CHECK_STR(f->right->table.name, "h");
    CHECK(f->on == NULL);
    f = f->left;
    CHECK_EQ(f->join, AST_JOIN_FULL);
    f = f->left;
    CHECK_EQ(f->join, AST_JOIN_CROSS);
    CHECK_STR(f->right->table.name, "f");
    f = f->left;
    CHECK_EQ(f->join, AST_JOIN_COMMA);
    CHECK_STR(f->right->table.name, "e");
    f = f->left;
    CHECK_EQ(f->join, AST_JOIN_LEFT_SEMI);
    CHECK(f->on != NULL);
    f = f->left;
    CHECK_EQ(f->join, AST_JOIN_LEFT);
    CHECK_EQ(f->n_using, 2);
    CHECK_STR(f->using_cols[1], "z");
    f = f->left;
    CHECK_EQ(f->join, AST_JOIN_INNER);
    CHECK_STR(f->left->table.name, "a");
    CHECK_STR(f->on->text, "a.x = b.x");
    /* a subquery on either side, aliases with and without AS */
    PARSE_OK(s, "select 1 from (select 1 x) q inner join t AS u on q.x = u.x");
    f = s->select->from;
    CHECK_EQ(f->left->kind, AST_FROM_QUERY);
    CHECK_STR(f->left->alias, "q");
    CHECK_STR(f->right->alias, "u");
    /* the alias is never a join word */
    PARSE_OK(s, "select 1 from t left join u");
    CHECK(s->select->from->left->alias == NULL);
    PARSE_ERR("select 1 from t left outer u", COMB_ESYNTAX,
              "ParseException line 1:27 missing JOIN near 'u'");
}

TEST(parse_set_operations)
{
    AstStmt *s;
    AstSelect *q;
    PARSE_OK(s, "select a from t union select b from u intersect all "
                "select c from v except distinct select d from w minus "
                "select e from x order by 1 limit 2, 3");
    q = s->select;
    CHECK_EQ(q->setop, AST_SETOP_EXCEPT);      /* MINUS */
    CHECK(!q->setop_all);
    CHECK_EQ(q->n_order_by, 1);
    CHECK_EQ(q->limit, 3);
    CHECK_EQ(q->offset, 2);
    CHECK_STR(q->setop_right->from->table.name, "x");
    q = q->setop_left;
    CHECK_EQ(q->setop, AST_SETOP_EXCEPT);
    q = q->setop_left;
    CHECK_EQ(q->setop, AST_SETOP_INTERSECT);
    CHECK(q->setop_all);
    q = q->setop_left;
    CHECK_EQ(q->setop, AST_SETOP_UNION);
    CHECK(!q->setop_all);
    CHECK_EQ(q->setop_left->n_items, 1);
    CHECK_EQ(q->setop_left->limit, -1);
    /* a block's own ORDER BY / LIMIT in parentheses */
    PARSE_OK(s, "(select a from t order by a limit 1) union all (select a from u)");
    CHECK_EQ(s->select->setop, AST_SETOP_UNION);
    CHECK(s->select->setop_all);
    CHECK_EQ(s->select->setop_left->limit, 1);
    CHECK_EQ(s->select->limit, -1);
    PARSE_ERR("select a from t limit 1 union select 1", COMB_ESYNTAX,
              "ParseException line 1:24 cannot recognize input near 'union'");
    /* LIMIT n OFFSET m */
    PARSE_OK(s, "select a from t limit 5 offset 7");
    CHECK_EQ(s->select->limit, 5);
    CHECK_EQ(s->select->offset, 7);
}

TEST(parse_with)
{
    AstStmt *s;
    PARSE_OK(s, "with x as (select 1 a), y as (select a from x) select * from y");
    CHECK_EQ(s->kind, AST_SELECT);
    CHECK_EQ(s->select->n_with, 2);
    CHECK_STR(s->select->with[1].name, "y");
    CHECK_STR(s->select->with[1].query->from->table.name, "x");
    PARSE_OK(s, "with x as (select 1 a) insert into t select * from x");
    CHECK_EQ(s->kind, AST_INSERT);
    CHECK_EQ(s->select->n_with, 1);
    PARSE_OK(s, "with x as (select 1 a) from x insert into t select a "
                "insert into u select a");
    CHECK_EQ(s->kind, AST_MULTI_INSERT);
    CHECK_EQ(s->multi->inserts[1]->select->n_with, 1);
    /* in subqueries, in CTAS and EXPLAIN */
    PARSE_OK(s, "select * from (with x as (select 1 a) select a from x) q");
    CHECK_EQ(s->select->from->query->n_with, 1);
    PARSE_OK(s, "create table t as with x as (select 1 a) select * from x");
    CHECK_EQ(s->qdef->query->n_with, 1);
    PARSE_OK(s, "explain with x as (select 1 a) select * from x");
    CHECK_EQ(s->qdef->explained->kind, AST_SELECT);
    PARSE_ERR("with x as (select 1) update t set a = 1", COMB_ESYNTAX,
              "ParseException line 1:21 missing SELECT, INSERT or FROM near 'update'");
}

TEST(parse_grouping_sets)
{
    AstStmt *s;
    AstSelect *q;
    PARSE_OK(s, "select a, b from t group by a, b grouping sets ((a, b), a, ())");
    q = s->select;
    CHECK_EQ(q->grouping, AST_GROUPING_SETS);
    CHECK_EQ(q->n_group_by, 2);
    CHECK_EQ(q->n_sets, 3);
    CHECK_EQ(q->sets[0].n, 2);
    CHECK_EQ(q->sets[1].n, 1);
    CHECK_EQ(q->sets[2].n, 0);
    PARSE_OK(s, "select a from t group by a, b with rollup");
    CHECK_EQ(s->select->grouping, AST_GROUPING_ROLLUP);
    PARSE_OK(s, "select a from t group by a with cube having count(*) > 1");
    CHECK_EQ(s->select->grouping, AST_GROUPING_CUBE);
    CHECK(s->select->having != NULL);
    PARSE_OK(s, "select a from t group by rollup (a, b)");
    CHECK_EQ(s->select->grouping, AST_GROUPING_ROLLUP);
    CHECK_EQ(s->select->n_group_by, 2);
    PARSE_OK(s, "select a from t group by cube(a)");
    CHECK_EQ(s->select->grouping, AST_GROUPING_CUBE);
    /* rollup and cube stay function names elsewhere only as `quoted` */
    PARSE_OK(s, "select `rollup` from t group by `rollup`");
    CHECK_EQ(s->select->grouping, AST_GROUPING_NONE);
}

TEST(parse_subquery_expressions)
{
    AstStmt *s;
    const AstExpr *w;
    PARSE_OK(s, "select (select max(b) from u) from t where a in (select b from u) "
                "and not exists (select 1 from v where v.a = t.a) and c not in "
                "(with q as (select 1 c) select c from q)");
    CHECK_EQ(s->select->items[0].expr->kind, AST_SUBQUERY);
    CHECK_STR(s->select->items[0].expr->text, "(select max(b) from u)");
    w = s->select->where;
    CHECK_EQ(w->kind, AST_BINARY);
    CHECK_EQ(w->n_args, 3);
    CHECK_EQ(w->args[0]->kind, AST_IN);
    CHECK(w->args[0]->query != NULL && w->args[0]->n_args == 0);
    CHECK_EQ(w->args[1]->kind, AST_UNARY);
    CHECK_EQ(w->args[1]->left->kind, AST_EXISTS);
    CHECK_EQ(w->args[2]->kind, AST_IN);
    CHECK(w->args[2]->negated);
    CHECK_EQ(w->args[2]->query->n_with, 1);
    /* a plain list stays a list */
    PARSE_OK(s, "select 1 from t where a in (1, 2)");
    CHECK(s->select->where->query == NULL);
    CHECK_EQ(s->select->where->n_args, 2);
    PARSE_ERR("select exists from t", COMB_ESYNTAX,
              "ParseException line 1:7 expected expression near 'exists'");
}
