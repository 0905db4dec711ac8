/*
 * test_parse_window.c - OVER clauses (partitioning, ordering, frames with
 * one or two boundaries, Hive's DISTRIBUTE/SORT/CLUSTER BY spellings),
 * IGNORE / RESPECT NULLS, named windows, and that the new words stay
 * identifiers elsewhere.
 */
#include "unit.h"

#include "test_parse_util.h"

TEST(parse_over_partition_order_and_frame)
{
    AstStmt *s;
    const AstExpr *e;
    const AstWindowSpec *w;
    PARSE_OK(s, "select sum(x) over (partition by a, b order by c desc nulls last, d "
                "rows between 2 preceding and unbounded following) from t");
    e = s->select->items[0].expr;
    CHECK(e->kind == AST_FUNC && e->over != NULL);
    CHECK_STR(e->text, "sum(x) over (partition by a, b order by c desc nulls last, d "
                       "rows between 2 preceding and unbounded following)");
    w = e->over;
    CHECK(w->ref == NULL);
    CHECK_EQ(w->n_partition, 2);
    CHECK_STR(w->partition[1]->name, "b");
    CHECK_EQ(w->n_order, 2);
    CHECK(w->order[0].desc && w->order[0].nulls == 2);
    CHECK(!w->order[1].desc && w->order[1].nulls == 0);
    CHECK(w->unit == AST_FRAME_ROWS);
    CHECK(w->start.kind == AST_BOUND_PRECEDING && w->start.amount == 2);
    CHECK(w->end.kind == AST_BOUND_UNBOUNDED_FOLLOWING);
    CHECK_EQ(w->frame_pos.col, 69);
}

TEST(parse_frame_with_one_boundary_ends_at_the_current_row)
{
    AstStmt *s;
    const AstWindowSpec *w;
    PARSE_OK(s, "select count(*) over (order by a range 5 preceding), "
                "rank() over (), lag(a) over (rows current row) from t");
    w = s->select->items[0].expr->over;
    CHECK(w->unit == AST_FRAME_RANGE);
    CHECK(w->start.kind == AST_BOUND_PRECEDING && w->start.amount == 5);
    CHECK(w->end.kind == AST_BOUND_CURRENT_ROW);
    w = s->select->items[1].expr->over;
    CHECK(w->n_partition == 0 && w->n_order == 0 && w->unit == AST_FRAME_NONE);
    w = s->select->items[2].expr->over;
    CHECK(w->start.kind == AST_BOUND_CURRENT_ROW && w->end.kind == AST_BOUND_CURRENT_ROW);
}

TEST(parse_hive_partitioning_spellings)
{
    AstStmt *s;
    const AstWindowSpec *w;
    PARSE_OK(s, "select rank() over (distribute by a sort by b desc), "
                "rank() over (cluster by c), rank() over (partition by (a, b)) from t");
    w = s->select->items[0].expr->over;
    CHECK(w->n_partition == 1 && w->n_order == 1 && w->order[0].desc);
    w = s->select->items[1].expr->over;
    CHECK(w->n_partition == 1 && w->n_order == 1);
    CHECK_STR(w->order[0].expr->name, "c");
    w = s->select->items[2].expr->over;
    CHECK_EQ(w->n_partition, 2);
}

TEST(parse_null_treatment_and_named_windows)
{
    AstStmt *s;
    const AstSelect *q;
    PARSE_OK(s, "select first_value(x) ignore nulls over w, "
                "last_value(x) respect nulls over (w order by y), sum(x) over w2 "
                "from t where x > 0 group by x, y having count(*) > 1 "
                "window w as (partition by x), w2 as w order by 1");
    q = s->select;
    CHECK_EQ(q->items[0].expr->null_treatment, 1);
    CHECK_STR(q->items[0].expr->over->ref, "w");
    CHECK_EQ(q->items[1].expr->null_treatment, 2);
    CHECK_STR(q->items[1].expr->over->ref, "w");
    CHECK_EQ(q->items[1].expr->over->n_order, 1);
    CHECK_EQ(q->n_windows, 2);
    CHECK_STR(q->windows[0].name, "w");
    CHECK_EQ(q->windows[0].spec->n_partition, 1);
    CHECK_STR(q->windows[1].spec->ref, "w");
    CHECK_EQ(q->n_order_by, 1);
}

TEST(parse_window_words_stay_identifiers)
{
    AstStmt *s;
    PARSE_OK(s, "select preceding, following, unbounded, current, range, ignore, "
                "respect from t");
    CHECK_EQ(s->select->n_items, 7);
    CHECK_STR(s->select->items[4].expr->name, "range");
}

TEST(parse_window_syntax_errors)
{
    PARSE_ERR("select sum(a) over (order by a rows between 1 and 2) from t",
              COMB_ESYNTAX,
              "ParseException line 1:46 missing PRECEDING or FOLLOWING near 'and'");
    PARSE_ERR("select sum(a) ignore nulls from t", COMB_ESYNTAX,
              "ParseException line 1:27 missing OVER near 'from'");
    PARSE_ERR("select sum(a) over (rows between current and 1 following) from t",
              COMB_ESYNTAX, "ParseException line 1:41 missing ROW near 'and'");
    PARSE_ERR("select a from t window w (partition by a)", COMB_ESYNTAX,
              "ParseException line 1:25 missing AS near '('");
}
