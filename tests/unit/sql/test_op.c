/*
 * test_op.c - the operator contract (sql/exec/op.h) over a source of known
 * batches: every operator leaves the batches it reads exactly as they came
 * (header, selection, vectors), returns only batches with live rows, ends
 * with NULL for good, closes after a failed open and twice; the planning
 * passes push a predicate through a projection into a source that takes
 * it, stop at a limit, and tell the source which columns are read.
 */
#include "unit.h"

#include <string.h>

#include "sql/exec/op.h"

/* A source of n_batches batches of `rows` rows each over two BIGINT
 * columns: a = the row's number from 0, b = a * 10; batch 1 comes with a
 * selection of its even rows.  It records what the passes told it. */
typedef struct TestSrc {
    SqlOp op;
    int n_batches, rows, next;
    bool fail_open;
    CombBatch batch;
    uint16_t sel_copy[COMB_BATCH_SIZE];
    int64_t a_copy[COMB_BATCH_SIZE];
    bool used[2];
    bool need_called;
    BoundExpr *taken;        /* a predicate pushed to it */
    int closes;
} TestSrc;

static int src_open(SqlOp *op, CombErr *err)
{
    static const CombTypeKind kinds[2] = {COMB_T_BIGINT, COMB_T_BIGINT};
    TestSrc *s = (TestSrc *)op;
    if (s->fail_open)
        return comb_err(err, COMB_EIO, "cannot open the test source");
    return comb_batch_init(&s->batch, 2, kinds, COMB_BATCH_SIZE)
               ? comb_err_nomem(err) : COMB_OK;
}

/* The batch as it must still be when the consumer asks for the next. */
static void src_remember(TestSrc *s)
{
    memcpy(s->sel_copy, s->batch.sel, sizeof s->sel_copy);
    memcpy(s->a_copy, s->batch.cols[0].i64, sizeof s->a_copy);
}

static bool src_unchanged(const TestSrc *s)
{
    return memcmp(s->sel_copy, s->batch.sel, sizeof s->sel_copy) == 0 &&
           memcmp(s->a_copy, s->batch.cols[0].i64, sizeof s->a_copy) == 0 &&
           s->batch.n_sel == (s->next == 2 ? s->rows / 2 : 0) &&
           s->batch.use_sel == (s->next == 2);
}

static int src_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    TestSrc *s = (TestSrc *)op;
    (void)err;
    if (s->next > 0 && !src_unchanged(s))
        return comb_err(err, COMB_EINTERNAL, "a consumer wrote the source's batch");
    if (s->next == s->n_batches)
        return COMB_OK;
    comb_batch_reset(&s->batch);
    s->batch.n_rows = s->rows;
    for (int r = 0; r < s->rows; r++) {
        s->batch.cols[0].i64[r] = s->next * s->rows + r;
        s->batch.cols[1].i64[r] = (s->next * s->rows + r) * 10;
    }
    if (s->next == 1) {
        s->batch.use_sel = true;
        s->batch.n_sel = 0;
        for (int r = 0; r < s->rows; r += 2)
            s->batch.sel[s->batch.n_sel++] = (uint16_t)r;
    }
    s->next++;
    src_remember(s);
    *out = &s->batch;
    return COMB_OK;
}

static void src_close(SqlOp *op)
{
    TestSrc *s = (TestSrc *)op;
    if (s->batch.cols)
        comb_batch_free(&s->batch);
    memset(&s->batch, 0, sizeof s->batch);
    s->closes++;
}

static void src_need(SqlOp *op, const bool *used)
{
    TestSrc *s = (TestSrc *)op;
    s->need_called = true;
    s->used[0] = !used || used[0];
    s->used[1] = !used || used[1];
}

static bool src_push(SqlOp *op, BoundExpr *pred)
{
    ((TestSrc *)op)->taken = pred;
    return true;
}

static int src_explain(const SqlOp *op, SqlExplain *x, CombErr *err)
{
    (void)op;
    (void)x;
    (void)err;
    return COMB_OK;
}

static const SqlOpVt src_vt = {
    "TestSource", src_open, src_next, src_close, src_need, src_push,
    src_explain,
};

static const char *const src_names[2] = {"a", "b"};

typedef struct Env {
    CombArena arena;
    SqlStmtCtx c;
} Env;

static void env_init(Env *e)
{
    memset(e, 0, sizeof *e);
    comb_arena_init(&e->arena, 4096);
    e->c.arena = &e->arena;
}

static TestSrc *src_new(Env *e, int n_batches, int rows)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType *const types[2] = {&bigint, &bigint};
    TestSrc *s = sql_op_alloc(&e->c, sizeof *s, &src_vt, NULL);
    if (!s)
        return NULL;
    s->op.n_cols = 2;
    s->op.names = (const char **)src_names;
    s->op.types = (const CombType **)types;
    s->n_batches = n_batches;
    s->rows = rows;
    return s;
}

/* col(j) <op> k over BIGINT columns */
static BoundExpr *compare(Env *e, int col, AstOp op, int64_t k)
{
    BoundExpr *x = sql_bx_new(&e->c, BX_BINARY, COMB_T_BOOLEAN, (AstPos){1, 1});
    BoundExpr *a = sql_bx_new(&e->c, BX_COL, COMB_T_BIGINT, (AstPos){1, 1});
    BoundExpr *b = sql_bx_new(&e->c, BX_CONST, COMB_T_BIGINT, (AstPos){1, 1});
    if (!x || !a || !b)
        return NULL;
    a->col = col;
    b->ival = k;
    x->op = op;
    x->a = a;
    x->b = b;
    return x;
}

/* Drain op: rows and the sum of column 0 of the live rows. */
static int drain(SqlOp *op, long *rows, int64_t *sum, CombErr *err)
{
    int rc;
    *rows = 0;
    *sum = 0;
    for (;;) {
        const CombBatch *b;
        if ((rc = sql_op_next(op, &b, err)) || !b)
            break;
        if (comb_batch_live(b) == 0)
            return comb_err(err, COMB_EINTERNAL, "a batch without live rows");
        for (int i = 0; i < comb_batch_live(b); i++) {
            (*rows)++;
            *sum += b->cols[0].i64[comb_batch_row(b, i)];
        }
    }
    if (!rc) {
        /* the end stays the end */
        const CombBatch *b = NULL;
        if ((rc = sql_op_next(op, &b, err)) == COMB_OK && b)
            rc = comb_err(err, COMB_EINTERNAL, "a batch after the end");
    }
    return rc;
}

TEST(op_filter_and_limit_leave_their_input_alone)
{
    Env e;
    CombErr err;
    TestSrc *s;
    SqlOp *f, *l;
    long rows;
    int64_t sum;
    env_init(&e);
    /* 3 batches of 8: 0..7, then 8..15 with only even rows live, 16..23 */
    s = src_new(&e, 3, 8);
    CHECK(s != NULL);
    CHECK_OK(sql_op_filter(&e.c, &s->op, compare(&e, 0, AST_OP_GE, 6), &f, &err), &err);
    CHECK_OK(sql_op_limit(&e.c, f, 7, &l, &err), &err);
    sql_op_need(l, NULL);
    CHECK_OK(sql_op_open(l, &err), &err);
    CHECK_OK(drain(l, &rows, &sum, &err), &err);
    /* 6, 7, 8, 10, 12, 14, 16 */
    CHECK_EQ(rows, 7);
    CHECK_EQ(sum, 73);
    sql_op_close(l);
    sql_op_close(l);
    CHECK_EQ(s->closes, 2);
    CHECK(s->need_called && s->used[0] && s->used[1]);
    comb_arena_free(&e.arena);
}

TEST(op_filter_drops_empty_batches)
{
    Env e;
    CombErr err;
    TestSrc *s;
    SqlOp *f;
    long rows;
    int64_t sum;
    env_init(&e);
    s = src_new(&e, 3, 8);
    CHECK(s != NULL);
    /* only the last batch has rows >= 20 */
    CHECK_OK(sql_op_filter(&e.c, &s->op, compare(&e, 0, AST_OP_GE, 20), &f, &err), &err);
    sql_op_need(f, NULL);
    CHECK_OK(sql_op_open(f, &err), &err);
    CHECK_OK(drain(f, &rows, &sum, &err), &err);
    CHECK_EQ(rows, 4);
    CHECK_EQ(sum, 20 + 21 + 22 + 23);
    sql_op_close(f);
    comb_arena_free(&e.arena);
}

TEST(op_sort_and_aggregate_leave_their_input_alone)
{
    static SqlSortKey desc = {1, true, true};
    Env e;
    CombErr err;
    TestSrc *s;
    SqlOp *srt, *agg;
    const CombBatch *b;
    AstExpr call = {.kind = AST_FUNC, .name = "count", .star_arg = true,
                    .text = "count(*)"};
    SqlAgg *count;
    const char *names[1] = {"n"};
    long rows;
    int64_t sum;
    env_init(&e);
    s = src_new(&e, 3, 8);
    CHECK(s != NULL);
    /* sort by b descending, emit only a */
    CHECK_OK(sql_op_sort(&e.c, &s->op, &desc, 1, 1, &srt, &err), &err);
    CHECK_EQ(srt->n_cols, 1);
    sql_op_need(srt, NULL);
    CHECK_OK(sql_op_open(srt, &err), &err);
    CHECK_OK(sql_op_next(srt, &b, &err), &err);
    CHECK(b != NULL);
    CHECK_EQ(comb_batch_live(b), 20);
    CHECK_EQ(b->cols[0].i64[0], 23);
    CHECK_EQ(b->cols[0].i64[19], 0);
    sql_op_close(srt);

    s = src_new(&e, 3, 8);
    CHECK_OK(sql_agg_bind(&e.c, &call, NULL, 0, &count, &err), &err);
    CHECK_OK(sql_op_aggregate(&e.c, &s->op, 0, NULL, 1, &count, names, &agg, &err), &err);
    sql_op_need(agg, NULL);
    /* count(*) reads no column */
    CHECK(s->need_called && !s->used[0] && !s->used[1]);
    CHECK_OK(sql_op_open(agg, &err), &err);
    CHECK_OK(drain(agg, &rows, &sum, &err), &err);
    CHECK_EQ(rows, 1);
    CHECK_EQ(sum, 20);
    sql_op_close(agg);
    comb_arena_free(&e.arena);
}

TEST(op_push_filter_goes_through_a_projection_not_a_limit)
{
    Env e;
    CombErr err;
    TestSrc *s;
    SqlOp *p, *l;
    BoundExpr *exprs[1], *pred;
    const char *names[1] = {"x"};
    const CombType *types[1] = {sql_kind_type(COMB_T_BIGINT)};
    env_init(&e);
    s = src_new(&e, 1, 4);
    CHECK(s != NULL);
    /* x := b; a predicate on x reaches the source as one on b */
    exprs[0] = sql_bx_new(&e.c, BX_COL, COMB_T_BIGINT, (AstPos){1, 1});
    exprs[0]->col = 1;
    CHECK_OK(sql_op_project(&e.c, &s->op, 1, exprs, names, types, &p, &err), &err);
    pred = compare(&e, 0, AST_OP_GT, 5);
    CHECK(sql_op_push_filter(p, pred));
    CHECK(s->taken != NULL && s->taken != pred);
    CHECK_EQ(s->taken->a->kind, BX_COL);
    CHECK_EQ(s->taken->a->col, 1);
    /* the consumer reads x only: the source is asked for b only */
    sql_op_need(p, (const bool[]){true});
    CHECK(!s->used[0] && s->used[1]);
    s->taken = NULL;
    CHECK_OK(sql_op_limit(&e.c, p, 2, &l, &err), &err);
    CHECK(!sql_op_push_filter(l, pred));
    CHECK(s->taken == NULL);
    comb_arena_free(&e.arena);
}

TEST(op_close_after_failed_open)
{
    Env e;
    CombErr err;
    TestSrc *s;
    SqlOp *f, *p, *srt;
    BoundExpr *exprs[1];
    const char *names[1] = {"a"};
    const CombType *types[1] = {sql_kind_type(COMB_T_BIGINT)};
    static SqlSortKey key = {0, false, false};
    env_init(&e);
    s = src_new(&e, 2, 4);
    CHECK(s != NULL);
    s->fail_open = true;
    exprs[0] = sql_bx_new(&e.c, BX_COL, COMB_T_BIGINT, (AstPos){1, 1});
    exprs[0]->col = 0;
    CHECK_OK(sql_op_filter(&e.c, &s->op, compare(&e, 0, AST_OP_GT, 0), &f, &err), &err);
    CHECK_OK(sql_op_project(&e.c, f, 1, exprs, names, types, &p, &err), &err);
    CHECK_OK(sql_op_sort(&e.c, p, &key, 1, 1, &srt, &err), &err);
    sql_op_need(srt, NULL);
    CHECK_EQ(sql_op_open(srt, &err), COMB_EIO);
    CHECK_STR(err.msg, "cannot open the test source");
    sql_op_close(srt);
    sql_op_close(srt);
    CHECK_EQ(s->closes, 2);
    comb_arena_free(&e.arena);
}
