/*
 * test_window.c - the window operator (exec/op_window.c) against a
 * brute-force evaluation: random rows (partition key, order key with ties
 * and NULLs, values with NULLs) over several batches, every ROWS and RANGE
 * boundary combination, and for each frame sum, count, min (running and
 * segment-tree paths), first_value and last_value IGNORE NULLS.  The
 * reference finds each frame by scanning the sorted output, so it shares
 * nothing with the operator's binary searches, peer indexes and states.
 * Also: the operator contract (no empty batches, the end stays the end,
 * close twice) and that it passes on only the columns read.
 */
#include "unit.h"

#include <string.h>

#include "sql/exec/op.h"
#include "sql/plan/window.h"

#define N_ROWS 700
#define N_COLS 3             /* p, k, v */

typedef struct RandSrc {
    SqlOp op;
    int64_t vals[N_COLS][N_ROWS];
    bool nulls[N_COLS][N_ROWS];
    int next;
    CombBatch batch;
    bool used[N_COLS];
} RandSrc;

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int rs_open(SqlOp *op, CombErr *err)
{
    static const CombTypeKind kinds[N_COLS] = {COMB_T_BIGINT, COMB_T_BIGINT, COMB_T_BIGINT};
    RandSrc *s = (RandSrc *)op;
    s->next = 0;
    return comb_batch_init(&s->batch, N_COLS, kinds, COMB_BATCH_SIZE)
               ? comb_err_nomem(err) : COMB_OK;
}

/* Batches of 100 rows. */
static int rs_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    RandSrc *s = (RandSrc *)op;
    (void)err;
    if (s->next >= N_ROWS)
        return COMB_OK;
    comb_batch_reset(&s->batch);
    for (int r = 0; r < 100; r++, s->next++)
        for (int j = 0; j < N_COLS; j++) {
            CombVector *v = &s->batch.cols[j];
            if (s->nulls[j][s->next]) {
                comb_vec_nulls_materialize(v, r);
                v->nulls[r] = 1;
            } else {
                comb_vec_set_not_null(v, r);
                v->i64[r] = s->vals[j][s->next];
            }
        }
    s->batch.n_rows = 100;
    *out = &s->batch;
    return COMB_OK;
}

static void rs_close(SqlOp *op)
{
    RandSrc *s = (RandSrc *)op;
    if (s->batch.cols)
        comb_batch_free(&s->batch);
    memset(&s->batch, 0, sizeof s->batch);
}

static void rs_need(SqlOp *op, const bool *used)
{
    RandSrc *s = (RandSrc *)op;
    for (int j = 0; j < N_COLS; j++)
        s->used[j] = !used || used[j];
}

static const SqlOpVt rs_vt = {"RandSource", rs_open, rs_next, rs_close,
                              rs_need, NULL, NULL};

typedef struct Env {
    CombArena arena;
    SqlStmtCtx c;
} Env;

static RandSrc *rand_src(Env *e)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType *const types[N_COLS] = {&bigint, &bigint, &bigint};
    static const char *const names[N_COLS] = {"p", "k", "v"};
    RandSrc *s = sql_op_alloc(&e->c, sizeof *s, &rs_vt, NULL);
    if (!s)
        return NULL;
    s->op.n_cols = N_COLS;
    s->op.names = (const char **)names;
    s->op.types = (const CombType **)types;
    for (int r = 0; r < N_ROWS; r++) {
        s->vals[0][r] = (int64_t)(next_rand() % 4);      /* 3 is NULL */
        s->nulls[0][r] = s->vals[0][r] == 3;
        s->vals[1][r] = (int64_t)(next_rand() % 40);     /* ties; 0..2 NULL */
        s->nulls[1][r] = s->vals[1][r] < 3;
        s->vals[2][r] = (int64_t)(next_rand() % 1000) - 500;
        s->nulls[2][r] = next_rand() % 5 == 0;
    }
    return s;
}

static BoundExpr *col(Env *e, int j)
{
    BoundExpr *x = sql_bx_new(&e->c, BX_COL, COMB_T_BIGINT, (AstPos){1, 1});
    if (x)
        x->col = j;
    return x;
}

/* Frames under test: start, end, RANGE. */
typedef struct FrameCase {
    AstBoundKind sk;
    int64_t sn;
    AstBoundKind ek;
    int64_t en;
    bool range;
} FrameCase;

#define UP AST_BOUND_UNBOUNDED_PRECEDING
#define PR AST_BOUND_PRECEDING
#define CU AST_BOUND_CURRENT_ROW
#define FO AST_BOUND_FOLLOWING
#define UF AST_BOUND_UNBOUNDED_FOLLOWING

static const FrameCase FRAMES[] = {
    {UP, 0, CU, 0, false}, {PR, 2, FO, 1, false}, {FO, 1, FO, 3, false},
    {PR, 3, PR, 1, false}, {CU, 0, UF, 0, false}, {UP, 0, UF, 0, false},
    {PR, 0, CU, 0, false}, {FO, 2, UF, 0, false}, {UP, 0, PR, 2, false},
    {UP, 0, CU, 0, true}, {CU, 0, CU, 0, true}, {PR, 2, FO, 2, true},
    {PR, 3, PR, 1, true}, {FO, 1, UF, 0, true}, {CU, 0, UF, 0, true},
    {UP, 0, FO, 5, true}, {PR, 10, CU, 0, true},
};
#define N_FRAMES ((int)(sizeof FRAMES / sizeof FRAMES[0]))
#define CALLS_PER_FRAME 5

static int add_calls(Env *e, LpWindow *w, CombErr *err)
{
    static const char *const aggs[3] = {"sum", "count", "min"};
    int rc;
    w->n_calls = N_FRAMES * CALLS_PER_FRAME;
    w->calls = comb_arena_calloc(&e->arena, (size_t)w->n_calls * sizeof *w->calls);
    if (!w->calls)
        return comb_err_nomem(err);
    for (int f = 0; f < N_FRAMES; f++) {
        SqlWinFrame fr = {FRAMES[f].range, {FRAMES[f].sk, FRAMES[f].sn},
                          {FRAMES[f].ek, FRAMES[f].en}};
        for (int k = 0; k < CALLS_PER_FRAME; k++) {
            SqlWinCall *c = comb_arena_calloc(&e->arena, sizeof *c);
            if (!c)
                return comb_err_nomem(err);
            c->frame = fr;
            c->name = c->text = k < 3 ? aggs[k] : k == 3 ? "first_value" : "last_value";
            if (k < 3) {
                AstExpr call = {.kind = AST_FUNC, .name = (char *)aggs[k], .n_args = 1};
                BoundExpr **args = comb_arena_alloc(&e->arena, sizeof *args);
                if (!args || !(args[0] = col(e, 2)))
                    return comb_err_nomem(err);
                c->kind = SQL_WIN_AGG;
                if ((rc = sql_agg_bind(&e->c, &call, args, 1, &c->agg, err)))
                    return rc;
                c->type = c->agg->type;
            } else {
                c->kind = k == 3 ? SQL_WIN_FIRST_VALUE : SQL_WIN_LAST_VALUE;
                c->arg = col(e, 2);
                c->ignore_nulls = k == 4;
                c->type = sql_kind_type(COMB_T_BIGINT);
            }
            w->calls[f * CALLS_PER_FRAME + k] = c;
        }
    }
    return COMB_OK;
}

/* The output: rows in order, each column as (null, value). */
typedef struct Out {
    int n;
    int64_t v[N_ROWS][N_COLS + N_FRAMES * CALLS_PER_FRAME];
    bool null[N_ROWS][N_COLS + N_FRAMES * CALLS_PER_FRAME];
} Out;

static int drain(SqlOp *op, Out *o, CombErr *err)
{
    int rc;
    const CombBatch *b;
    o->n = 0;
    while (!(rc = sql_op_next(op, &b, err)) && b) {
        if (comb_batch_live(b) == 0)
            return comb_err(err, COMB_EINTERNAL, "a batch without live rows");
        for (int i = 0; i < comb_batch_live(b); i++, o->n++)
            for (int j = 0; j < op->n_cols; j++) {
                int r = comb_batch_row(b, i);
                o->null[o->n][j] = comb_vec_is_null(&b->cols[j], r);
                o->v[o->n][j] = o->null[o->n][j] ? 0 : b->cols[j].i64[r];
            }
    }
    if (!rc && !(rc = sql_op_next(op, &b, err)) && b)
        rc = comb_err(err, COMB_EINTERNAL, "a batch after the end");
    return rc;
}

/* Order key with NULL as the largest value (NULLS LAST ascending). */
static __int128 key(const Out *o, int r)
{
    return o->null[r][1] ? ((__int128)1 << 80) : o->v[r][1];
}

/* The reference frame [s, e) of row i in partition [a, b). */
static void ref_frame(const Out *o, const FrameCase *f, int a, int b, int i,
                      int *s, int *e)
{
    if (!f->range) {
        long lo = f->sk == UP ? a : f->sk == PR ? i - f->sn : f->sk == CU ? i : i + f->sn;
        long hi = f->ek == UF ? b - 1 : f->ek == PR ? i - f->en : f->ek == CU ? i : i + f->en;
        *s = (int)(lo < a ? a : lo > b ? b : lo);
        *e = (int)(hi + 1 < a ? a : hi + 1 > b ? b : hi + 1);
    } else {
        bool null_cur = o->null[i][1];
        __int128 ts = f->sk == CU || null_cur ? key(o, i)
                      : f->sk == PR ? key(o, i) - f->sn : key(o, i) + f->sn;
        __int128 te = f->ek == CU || null_cur ? key(o, i)
                      : f->ek == PR ? key(o, i) - f->en : key(o, i) + f->en;
        *s = a;
        if (f->sk != UP)
            while (*s < b && key(o, *s) < ts)
                (*s)++;
        *e = b;
        if (f->ek != UF)
            for (*e = a; *e < b && key(o, *e) <= te;)
                (*e)++;
    }
    if (*e < *s)
        *e = *s;
}

/* Row i's expected value of call k of frame f: *null, *v. */
static void ref_value(const Out *o, int k, int s, int e, bool *null, int64_t *v)
{
    int64_t sum = 0, n = 0, mn = 0;
    int last = -1;
    for (int r = s; r < e; r++)
        if (!o->null[r][2]) {
            if (!n || o->v[r][2] < mn)
                mn = o->v[r][2];
            sum += o->v[r][2];
            n++;
            last = r;
        }
    switch (k) {
    case 0: *null = n == 0; *v = sum; break;
    case 1: *null = false; *v = n; break;
    case 2: *null = n == 0; *v = mn; break;
    case 3:
        *null = s >= e || o->null[s][2];
        *v = *null ? 0 : o->v[s][2];
        break;
    default:
        *null = last < 0;
        *v = last < 0 ? 0 : o->v[last][2];
        break;
    }
}

static int check_out(const Out *o, char *why, size_t n)
{
    for (int a = 0; a < o->n;) {
        int b = a + 1;
        while (b < o->n && o->null[b][0] == o->null[a][0] && o->v[b][0] == o->v[a][0])
            b++;
        for (int i = a; i < b; i++)
            for (int f = 0; f < N_FRAMES; f++) {
                int s, e;
                ref_frame(o, &FRAMES[f], a, b, i, &s, &e);
                for (int k = 0; k < CALLS_PER_FRAME; k++) {
                    int j = N_COLS + f * CALLS_PER_FRAME + k;
                    bool null;
                    int64_t v;
                    ref_value(o, k, s, e, &null, &v);
                    if (null != o->null[i][j] || (!null && v != o->v[i][j])) {
                        snprintf(why, n, "row %d frame %d call %d: want %s%lld got %s%lld",
                                 i, f, k, null ? "NULL " : "", (long long)v,
                                 o->null[i][j] ? "NULL " : "", (long long)o->v[i][j]);
                        return -1;
                    }
                }
            }
        a = b;
    }
    return 0;
}

TEST(window_frames_match_a_brute_force_evaluation)
{
    static Out out;
    Env e;
    CombErr err;
    RandSrc *s;
    SqlOp *w;
    LpWindow lw = {0};
    LpWinOrder order;
    BoundExpr *part[1];
    const char **names;
    char why[256];
    memset(&e, 0, sizeof e);
    comb_arena_init(&e.arena, 4096);
    e.c.arena = &e.arena;
    for (int round = 0; round < 3; round++) {
        s = rand_src(&e);
        CHECK(s != NULL);
        part[0] = col(&e, 0);
        order = (LpWinOrder){col(&e, 1), false, false};
        lw = (LpWindow){1, part, 1, &order, 0, NULL};
        CHECK_OK(add_calls(&e, &lw, &err), &err);
        names = comb_arena_calloc(&e.arena, (size_t)lw.n_calls * sizeof *names);
        CHECK(names != NULL);
        for (int k = 0; k < lw.n_calls; k++)
            names[k] = lw.calls[k]->text;
        CHECK_OK(sql_op_window(&e.c, &s->op, &lw, names, &w, &err), &err);
        CHECK_EQ(w->n_cols, N_COLS + lw.n_calls);
        sql_op_need(w, NULL);
        CHECK_OK(sql_op_open(w, &err), &err);
        CHECK_OK(drain(w, &out, &err), &err);
        CHECK_EQ(out.n, N_ROWS);
        if (check_out(&out, why, sizeof why)) {
            unit_fail(__FILE__, __LINE__, "%s", why);
            return;
        }
        sql_op_close(w);
        sql_op_close(w);
    }
    comb_arena_free(&e.arena);
}

TEST(window_reads_only_the_columns_needed)
{
    Env e;
    CombErr err;
    RandSrc *s;
    SqlOp *w;
    SqlWinCall rn = {.kind = SQL_WIN_ROW_NUMBER, .name = "row_number",
                     .text = "row_number()"};
    SqlWinCall *calls[1] = {&rn};
    LpWinOrder order;
    LpWindow lw;
    const char *names[1] = {"rn"};
    memset(&e, 0, sizeof e);
    comb_arena_init(&e.arena, 4096);
    e.c.arena = &e.arena;
    rn.type = sql_kind_type(COMB_T_INT);
    s = rand_src(&e);
    CHECK(s != NULL);
    order = (LpWinOrder){col(&e, 1), true, true};
    lw = (LpWindow){0, NULL, 1, &order, 1, calls};
    CHECK_OK(sql_op_window(&e.c, &s->op, &lw, names, &w, &err), &err);
    /* the consumer reads the row number only: the source gives k */
    sql_op_need(w, (const bool[]){false, false, false, true});
    CHECK(!s->used[0] && s->used[1] && !s->used[2]);
    CHECK(!sql_op_push_filter(w, col(&e, 0)));
    comb_arena_free(&e.arena);
}
