/*
 * The differential expression test (issue 5, item 8): generated
 * expressions over a table of edge values (difftest_data.c) run through
 * comb and through an independent model of Hive 4 (hive_ref.c); every
 * cell's printed text must agree.
 *
 *  - difftest_stored_values: the INSERTed table reads back as Hive stores it.
 *  - difftest_known_cases: the known answers of hive_ref_cases.c.
 *  - difftest_expressions: COMB_DIFFTEST_COUNT (default 2000) expressions
 *    from a seeded generator (COMB_DIFFTEST_SEED, default 5), deterministic.
 *    Each differing cell is charged to the smallest sub-expression whose
 *    own value differs ("class"); the summary gives counts per class and
 *    the first examples (COMB_DIFFTEST_EXAMPLES per class, default 2, for
 *    the COMB_DIFFTEST_DETAILED biggest classes, default 30).
 *  - difftest_order_by: ORDER BY over NaN, +-Infinity, -0.0 and NULL.
 *
 * comb runs in forked children, one session each, so that a crash or a
 * sanitizer report is a finding (class "comb crash") instead of the end of
 * the test; a child that stops is replaced and the next query goes on.
 * Cells whose Hive answer is not established are not compared (see
 * hive_ref.c for the list) and are counted in the summary.
 */
#include "unit.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/arena.h"
#include "common/buf.h"
#include "sql/func/value.h"
#include "sql/session.h"

#include "difftest_data.h"
#include "hive_ref_cases.h"

#define MAX_QUERY_COLS 256
#define BATCH_EXPRS 30

/* ------------------------------------------------------------- comb side */

/* The one call into comb's SQL entry point, so that a change of its
 * signature (an explicit text length) touches one line. */
static int comb_exec(SqlSession *s, const char *sql, const SqlSink *sink,
                     CombErr *err)
{
    return sql_session_execute(s, sql, strlen(sql), sink, err);
}

/* What a child collects for one statement: cells as CLI prints them. */
typedef struct Collect {
    CombBuf cells;     /* u32 length + bytes per cell, row by row */
    int n_cols;
    int n_rows;
    CombTypeKind kinds[MAX_QUERY_COLS];
} Collect;

static void put_u32(CombBuf *b, uint32_t v)
{
    (void)comb_buf_append(b, &v, sizeof v);
}

static void put_text(CombBuf *b, const char *s, size_t n)
{
    put_u32(b, (uint32_t)n);
    (void)comb_buf_append(b, s, n);
}

static int collect_begin(void *ctx, int n_cols, const char *const *names,
                         const CombTypeKind *kinds, CombErr *err)
{
    Collect *c = ctx;
    (void)names;
    if (n_cols > MAX_QUERY_COLS)
        return comb_err(err, COMB_EINVALID, "difftest: too many columns");
    c->n_cols = n_cols;
    memcpy(c->kinds, kinds, sizeof *kinds * (size_t)n_cols);
    return COMB_OK;
}

/* A value as comb's shell prints it (cli/print.c). */
static int collect_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    Collect *c = ctx;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        for (int j = 0; j < c->n_cols; j++) {
            const CombVector *v = &b->cols[j];
            char buf[64];
            size_t n;
            if (c->kinds[j] == COMB_T_NULL || comb_vec_is_null(v, row)) {
                put_text(&c->cells, "NULL", 4);
            } else if (comb_type_is_str(c->kinds[j])) {
                put_text(&c->cells, v->str[row].ptr, v->str[row].len);
            } else {
                n = sql_format_scalar(c->kinds[j], v, row, buf, sizeof buf);
                put_text(&c->cells, buf, n);
            }
        }
        c->n_rows++;
    }
    return COMB_OK;
}

static bool write_all(int fd, const void *p, size_t n)
{
    const char *s = p;
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w <= 0)
            return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* Child: run sql[start..n) and write one record per statement to fd:
 * u32 status (0 ok, 1 error), then the error text or u32 n_cols, u32
 * n_rows and the cells. */
static void child_run(const char *wh, const char *const *sql, int start, int n, int fd)
{
    SqlSessionOptions opt = {wh, "difftest"};
    SqlSession *s = NULL;
    CombErr err;
    CombBuf rec = COMB_BUF_INIT;
    if (sql_session_open(&opt, &s, &err) != COMB_OK) {
        fprintf(stderr, "session: %s\n", err.msg);
        exit(3);
    }
    for (int k = start; k < n; k++) {
        Collect c;
        SqlSink sink = {&c, collect_begin, collect_batch, NULL, NULL};
        memset(&c, 0, sizeof c);
        comb_buf_clear(&rec);
        if (comb_exec(s, sql[k], &sink, &err) != COMB_OK) {
            put_u32(&rec, 1);
            put_text(&rec, err.msg, strlen(err.msg));
        } else {
            put_u32(&rec, 0);
            put_u32(&rec, (uint32_t)c.n_cols);
            put_u32(&rec, (uint32_t)c.n_rows);
            (void)comb_buf_append(&rec, c.cells.data, c.cells.len);
        }
        comb_buf_free(&c.cells);
        if (!write_all(fd, &rec.len, sizeof rec.len) || !write_all(fd, rec.data, rec.len))
            exit(4);
    }
    comb_buf_free(&rec);
    sql_session_close(s);
    close(fd);
    exit(0);   /* not _exit: LeakSanitizer checks the child too */
}

typedef enum QStatus { Q_OK, Q_ERROR, Q_CRASH, Q_SKIP } QStatus;

/* Crashes one run may spend: each costs a process and a sanitizer report
 * (~0.15 s); past it, retries are skipped and reported as not run. */
#define CRASH_BUDGET 80

typedef struct QResult {
    QStatus status;
    const char *msg;     /* error message or what the crash printed */
    int n_cols, n_rows;
    const char **cells;  /* n_rows * n_cols */
} QResult;

typedef struct Runner {
    char wh[512];
    char errfile[600];
    CombArena arena;     /* results */
    int children;
    int crashes;
    int inferred;        /* expressions not run: they contain a crashing class */
    char exit_note[512]; /* a child that failed at exit (leak report) */
    const char *crash_class[64];  /* classes of sub-expressions that crashed */
    const char *crash_msg[64];
    int n_crash_classes;
} Runner;

static const char *child_stderr(Runner *rn)
{
    char buf[4096], *line, *save = NULL, out[700] = "";
    size_t k = 0;
    FILE *f = fopen(rn->errfile, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    for (line = strtok_r(buf, "\n", &save); line && k < sizeof out - 1;
         line = strtok_r(NULL, "\n", &save))
        if (strstr(line, "ERROR") || strstr(line, "SUMMARY") || strstr(line, "runtime error") ||
            strstr(line, " #0 ") || strstr(line, " #1 ") || strstr(line, " #2 "))
            k += (size_t)snprintf(out + k, sizeof out - k, "%s%s", k ? " | " : "", line);
    /* snprintf counts what did not fit: the report is cut, not overrun */
    return comb_arena_strdup(&rn->arena, k ? out : "(no sanitizer report)");
}

static bool parse_record(Runner *rn, const unsigned char *p, size_t n, QResult *q)
{
    size_t off = 0;
    uint32_t v, len;
#define TAKE(x) do { if (off + 4 > n) return false; memcpy(&(x), p + off, 4); off += 4; } while (0)
    TAKE(v);
    memset(q, 0, sizeof *q);
    if (v == 1) {
        TAKE(len);
        q->status = Q_ERROR;
        q->msg = comb_arena_strndup(&rn->arena, (const char *)p + off, len);
        return true;
    }
    TAKE(v);
    q->n_cols = (int)v;
    TAKE(v);
    q->n_rows = (int)v;
    q->cells = comb_arena_alloc(&rn->arena, sizeof *q->cells * (size_t)(q->n_cols * q->n_rows + 1));
    for (int k = 0; k < q->n_cols * q->n_rows; k++) {
        TAKE(len);
        if (off + len > n)
            return false;
        q->cells[k] = comb_arena_strndup(&rn->arena, (const char *)p + off, len);
        off += len;
    }
#undef TAKE
    return true;
}

/* Run the statements in order in child processes; a statement that kills
 * its child is Q_CRASH and the next one runs in a new child (or, with
 * stop_at_crash, the rest are Q_SKIP).  Returns the first crash or -1. */
static int run_queries_until(Runner *rn, const char *const *sql, int n, QResult *out,
                             bool stop_at_crash)
{
    int start = 0, first_crash = -1;
    while (start < n) {
        int fds[2], status = 0, done = start;
        CombBuf in = COMB_BUF_INIT;
        pid_t pid;
        size_t off = 0;
        if (pipe(fds) != 0) {
            unit_fail(__FILE__, __LINE__, "pipe failed");
            return first_crash;
        }
        fflush(stdout);
        fflush(stderr);
        pid = fork();
        if (pid == 0) {
            int efd = open(rn->errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (efd >= 0)
                dup2(efd, 2);
            close(fds[0]);
            child_run(rn->wh, sql, start, n, fds[1]);
        }
        rn->children++;
        close(fds[1]);
        for (;;) {
            unsigned char buf[65536];
            ssize_t r = read(fds[0], buf, sizeof buf);
            if (r <= 0)
                break;
            (void)comb_buf_append(&in, buf, (size_t)r);
        }
        close(fds[0]);
        waitpid(pid, &status, 0);
        while (off + sizeof(size_t) <= in.len) {
            size_t len;
            memcpy(&len, in.data + off, sizeof len);
            if (off + sizeof len + len > in.len ||
                !parse_record(rn, in.data + off + sizeof len, len, &out[done]))
                break;
            off += sizeof len + len;
            done++;
        }
        comb_buf_free(&in);
        if (done == n) {
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                snprintf(rn->exit_note, sizeof rn->exit_note,
                         "a comb child failed at exit (status %d): %s", status, child_stderr(rn));
            return first_crash;
        }
        memset(&out[done], 0, sizeof out[done]);
        out[done].status = Q_CRASH;
        out[done].msg = child_stderr(rn);
        rn->crashes++;
        if (first_crash < 0)
            first_crash = done;
        start = done + 1;
        for (int k = start; stop_at_crash && k < n; k++) {
            memset(&out[k], 0, sizeof out[k]);
            out[k].status = Q_SKIP;
            out[k].msg = "not run";
            start = n;
        }
    }
    return first_crash;
}

static void run_queries(Runner *rn, const char *const *sql, int n, QResult *out)
{
    (void)run_queries_until(rn, sql, n, out, false);
}

static void runner_init(Runner *rn, const char *dir)
{
    memset(rn, 0, sizeof *rn);
    snprintf(rn->wh, sizeof rn->wh, "%s/warehouse", dir);
    snprintf(rn->errfile, sizeof rn->errfile, "%s/child.stderr", dir);
    comb_arena_init(&rn->arena, 256 * 1024);
}

/* Create and fill the table; false (and a test failure) if comb can't. */
static bool setup_table(Runner *rn)
{
    CombBuf create = COMB_BUF_INIT, insert = COMB_BUF_INIT;
    const char *sql[2];
    QResult q[2];
    bool ok;
    comb_buf_printf(&create, "CREATE TABLE t (");
    for (int k = 0; k < DT_N_COLS; k++)
        comb_buf_printf(&create, "%s%s %s", k ? ", " : "", dt_col_names[k], dt_col_sql_types[k]);
    comb_buf_printf(&create, ") TBLPROPERTIES ('transactional'='true')");
    comb_buf_append_byte(&create, 0);
    comb_buf_printf(&insert, "INSERT INTO t VALUES ");
    for (int r = 0; r < dt_n_rows; r++) {
        comb_buf_printf(&insert, "%s(", r ? ", " : "");
        for (int k = 0; k < DT_N_COLS; k++)
            comb_buf_printf(&insert, "%s%s", k ? ", " : "", dt_rows[r][k]);
        comb_buf_printf(&insert, ")");
    }
    comb_buf_append_byte(&insert, 0);
    sql[0] = (const char *)create.data;
    sql[1] = (const char *)insert.data;
    run_queries(rn, sql, 2, q);
    ok = q[0].status == Q_OK && q[1].status == Q_OK;
    for (int k = 0; k < 2 && !ok; k++)
        if (q[k].status != Q_OK)
            unit_fail(__FILE__, __LINE__, "setup '%.60s...': %s", sql[k], q[k].msg);
    comb_buf_free(&create);
    comb_buf_free(&insert);
    return ok;
}

/* comb's value of one expression on every row (by reference row index). */
typedef struct ExprRun {
    QStatus status;
    const char *msg;
    const char *cell[HREF_MAX_ROWS];
} ExprRun;

static void collect_rows(HRef *r, const QResult *q, int col, ExprRun *out)
{
    out->status = Q_OK;
    for (int k = 0; k < r->n_rows; k++)
        out->cell[k] = "<row missing>";
    for (int i = 0; i < q->n_rows; i++) {
        int row = dt_row_of(r, atoi(q->cells[i * q->n_cols]));
        if (row >= 0)
            out->cell[row] = q->cells[i * q->n_cols + col];
    }
}

#define MAX_NODES 256

/* The class of a node of e that is known to crash comb, or NULL. */
static int known_crash(Runner *rn, HRef *r, HExpr *e)
{
    HExpr *nodes[MAX_NODES];
    int nn = href_subexprs(e, nodes, MAX_NODES);
    for (int i = 0; i < nn; i++) {
        const char *cls;
        if (href_is_literal(nodes[i]))
            continue;
        cls = href_class(r, nodes[i]);
        for (int c = 0; c < rn->n_crash_classes; c++)
            if (strcmp(cls, rn->crash_class[c]) == 0)
                return c;
    }
    return -1;
}

/* e crashed comb: run its parts, children first, until one crashes, and
 * remember that part's class so that later expressions with such a node
 * are not run (every crash costs a process and a sanitizer report). */
static void learn_crash(Runner *rn, HRef *r, HExpr *e, const char *msg)
{
    HExpr *nodes[MAX_NODES], *parts[MAX_NODES], *culprit = e;
    const char *sql[MAX_NODES];
    QResult q[MAX_NODES];
    int nn = href_subexprs(e, nodes, MAX_NODES), np = 0, first;
    if (rn->n_crash_classes == 64 || known_crash(rn, r, e) >= 0)
        return;
    for (int i = 0; i < nn; i++)
        if (!href_is_literal(nodes[i]) && nodes[i] != e) {
            parts[np] = nodes[i];
            sql[np++] = comb_arena_printf(&rn->arena, "SELECT id, %s FROM t", href_text(r, nodes[i]));
        }
    first = run_queries_until(rn, sql, np, q, true);
    if (first >= 0) {
        culprit = parts[first];
        msg = q[first].msg;
    }
    rn->crash_class[rn->n_crash_classes] = href_class(r, culprit);
    rn->crash_msg[rn->n_crash_classes++] = msg;
}

static void mark_inferred(Runner *rn, HRef *r, int c, ExprRun *e)
{
    (void)r;
    e->status = Q_CRASH;
    e->msg = comb_arena_printf(&rn->arena, "not run, it has a %s node, which crashed comb: %s",
                               rn->crash_class[c], rn->crash_msg[c]);
    rn->inferred++;
}

static int by_length(const void *a, const void *b, void *texts)
{
    const char *const *t = texts;
    size_t x = strlen(t[*(const int *)a]), y = strlen(t[*(const int *)b]);
    return x < y ? -1 : x > y;
}

/* Run expressions one per statement, shortest first, a chunk at a time;
 * after each chunk the crashes teach which classes crash, and expressions
 * with such a node are no longer run. */
static void run_singles(Runner *rn, HRef *r, const char *const *texts, HExpr *const *nodes,
                        int *idx, int n, ExprRun *out)
{
    enum { CHUNK = 25 };
    const char *sql[CHUNK];
    QResult q[CHUNK];
    qsort_r(idx, (size_t)n, sizeof *idx, by_length, (void *)texts);
    for (int start = 0; start < n; start += CHUNK) {
        int m = 0, run[CHUNK], c;
        for (int i = start; i < n && i < start + CHUNK; i++) {
            ExprRun *e = &out[idx[i]];
            if (nodes && (c = known_crash(rn, r, nodes[idx[i]])) >= 0) {
                mark_inferred(rn, r, c, e);
                continue;
            }
            if (rn->crashes >= CRASH_BUDGET) {
                e->status = Q_SKIP;
                e->msg = "not run: crash budget used up";
                continue;
            }
            run[m] = idx[i];
            sql[m++] = comb_arena_printf(&rn->arena, "SELECT id, %s FROM t", texts[idx[i]]);
        }
        run_queries(rn, sql, m, q);
        for (int i = 0; i < m; i++) {
            ExprRun *e = &out[run[i]];
            if (q[i].status == Q_OK) {
                collect_rows(r, &q[i], 1, e);
                continue;
            }
            e->status = q[i].status;
            e->msg = q[i].msg;
            if (q[i].status == Q_CRASH && nodes)
                learn_crash(rn, r, nodes[run[i]], q[i].msg);
        }
    }
}

/* Evaluate expressions in comb over the whole table, BATCH_EXPRS per
 * statement; a statement that fails is retried one expression at a time.
 * With their bound trees (`nodes`), expressions holding a node of a class
 * that crashed comb before are not run but marked as crashing. */
static void comb_eval(Runner *rn, HRef *r, const char *const *texts, HExpr *const *nodes,
                      int n, ExprRun *out)
{
    int *todo = comb_arena_alloc(&rn->arena, sizeof *todo * (size_t)(n + 1));
    int *single = comb_arena_alloc(&rn->arena, sizeof *single * (size_t)(n + 1));
    int n_todo = 0, n_single = 0, n_batches, c;
    const char **sql;
    QResult *q;
    for (int k = 0; k < n; k++) {
        if (nodes && (c = known_crash(rn, r, nodes[k])) >= 0)
            mark_inferred(rn, r, c, &out[k]);
        else
            todo[n_todo++] = k;
    }
    n_batches = (n_todo + BATCH_EXPRS - 1) / BATCH_EXPRS;
    sql = comb_arena_alloc(&rn->arena, sizeof *sql * (size_t)(n_batches + 1));
    q = comb_arena_alloc(&rn->arena, sizeof *q * (size_t)(n_batches + 1));
    for (int b = 0; b < n_batches; b++) {
        CombBuf s = COMB_BUF_INIT;
        comb_buf_printf(&s, "SELECT id");
        for (int k = b * BATCH_EXPRS; k < n_todo && k < (b + 1) * BATCH_EXPRS; k++)
            comb_buf_printf(&s, ", %s", texts[todo[k]]);
        comb_buf_printf(&s, " FROM t");
        comb_buf_append_byte(&s, 0);
        sql[b] = comb_arena_strdup(&rn->arena, (const char *)s.data);
        comb_buf_free(&s);
    }
    run_queries(rn, sql, n_batches, q);
    for (int b = 0; b < n_batches; b++)
        for (int k = b * BATCH_EXPRS; k < n_todo && k < (b + 1) * BATCH_EXPRS; k++) {
            if (q[b].status == Q_OK)
                collect_rows(r, &q[b], 1 + k - b * BATCH_EXPRS, &out[todo[k]]);
            else
                single[n_single++] = todo[k];
        }
    run_singles(rn, r, texts, nodes, single, n_single, out);
}

/* ------------------------------------------------------------ generator */

typedef struct Gen {
    uint64_t s;
    CombArena *arena;
    bool consts_only;   /* leaves are literals: comb folds the whole tree */
} Gen;

static uint64_t rnd(Gen *g)
{
    g->s ^= g->s >> 12;
    g->s ^= g->s << 25;
    g->s ^= g->s >> 27;
    return g->s * 2685821657736338717ull;
}

static int pick(Gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }
static bool chance(Gen *g, int percent) { return pick(g, 100) < percent; }

#define ONE_OF(g, arr) ((arr)[pick((g), (int)(sizeof(arr) / sizeof((arr)[0])))])

typedef enum Cat { CAT_NUM, CAT_STR, CAT_BOOL } Cat;

static const char *const num_cols[] = {"ti", "si", "i", "bi", "f", "d"};
static const char *const str_cols[] = {"s", "v", "c"};
static const char *const num_lits[] = {
    "0", "1", "-1", "2", "7", "-7", "100", "127", "128", "-128", "255", "32767",
    "65536", "2147483647", "2147483648", "-2147483648", "9223372036854775807",
    "3000000000", "5Y", "-5Y", "100Y", "1000S", "10L", "-1L", "0.0e0", "2.5e0",
    "0.1e0", "1e300", "1.5e0", "-0.0e0", "1e10", "3e9", "4.9E-324",
    "1.7976931348623157E308", "16777217", "0.5e0", "-2.5e0", "1e-5",
    /* DECIMAL literals */
    "1.5", "-2.25", "0.1", "100.0", "0.001", "2.5BD", "3.14159", "-0.5",
    "99999999999999999999.99", "12345678901234567890123456789012345678"};
static const char *const str_lits[] = {
    "'1'", "'-7'", "'1.5'", "' 12 '", "'abc'", "'ab'", "'ab  '", "''", "'héllo ß'",
    "'日本'", "'true'", "'off'", "'NaN'", "'Infinity'", "'1d'", "'2147483648'",
    "'9223372036854775806'", "'ß'", "'x'", "'0.1'", "'ÄÖÜ'", "'a b'", "'7.9'", "'1e3'"};
static const char *const like_pats[] = {
    "'%b'", "'a%'", "'%'", "'_'", "'__'", "'%é%'", "'h_llo%'", "'%ß'", "'ab'",
    "'%1%'", "'_b%'", "''", "'AB%'", "'%.%'", "'x\\_y'", "'% %'", "'日%'"};
static const char *const num_types[] = {"TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE",
                                        "DECIMAL(5,2)", "DECIMAL(38,10)", "DECIMAL(3,0)",
                                        "DECIMAL(20,18)", "DECIMAL"};
static const char *const str_types[] = {"STRING", "VARCHAR(3)", "VARCHAR(5)", "CHAR(3)", "CHAR(6)"};
static const char *const cmp_ops[] = {"=", "<>", "<", "<=", ">", ">=", "<=>", "!=", "=="};
static const char *const arith_ops[] = {"+", "-", "*", "/", "%", "DIV"};

static const char *gen(Gen *g, Cat cat, int depth);

static const char *gen_const(Gen *g, Cat cat);

static const char *leaf(Gen *g, Cat cat)
{
    if (chance(g, 3))
        return "NULL";
    if (g->consts_only)
        return gen_const(g, cat);
    switch (cat) {
    case CAT_NUM:
        return chance(g, 60) ? ONE_OF(g, num_cols) : ONE_OF(g, num_lits);
    case CAT_STR:
        return chance(g, 60) ? ONE_OF(g, str_cols) : ONE_OF(g, str_lits);
    default:
        return chance(g, 60) ? "b" : chance(g, 50) ? "TRUE" : "FALSE";
    }
}

static const char *gen_const(Gen *g, Cat cat)
{
    if (cat == CAT_NUM && chance(g, 15))
        return comb_arena_printf(g->arena, "CAST(%s AS %s)", ONE_OF(g, str_lits), ONE_OF(g, num_types));
    if (cat == CAT_NUM)
        return ONE_OF(g, num_lits);
    if (cat == CAT_STR)
        return ONE_OF(g, str_lits);
    return chance(g, 50) ? "TRUE" : "FALSE";
}

static Cat any_cat(Gen *g)
{
    int k = pick(g, 10);
    return k < 5 ? CAT_NUM : k < 8 ? CAT_STR : CAT_BOOL;
}

static const char *gen_num(Gen *g, int d)
{
    switch (pick(g, 9)) {
    case 0: case 1: case 2:
        return comb_arena_printf(g->arena, "(%s %s %s)", gen(g, chance(g, 12) ? CAT_STR : CAT_NUM, d),
                                 ONE_OF(g, arith_ops), gen(g, chance(g, 12) ? CAT_STR : CAT_NUM, d));
    case 3:
        return comb_arena_printf(g->arena, "-(%s)", gen(g, CAT_NUM, d));
    case 4:
        return comb_arena_printf(g->arena, "abs(%s)", gen(g, chance(g, 20) ? CAT_STR : CAT_NUM, d));
    case 5:
        return comb_arena_printf(g->arena, "length(%s)", gen(g, CAT_STR, d));
    case 6:
        return comb_arena_printf(g->arena, "CAST(%s AS %s)", gen(g, any_cat(g), d), ONE_OF(g, num_types));
    case 7:
        return comb_arena_printf(g->arena, "CASE WHEN %s THEN %s ELSE %s END", gen(g, CAT_BOOL, d),
                                 gen(g, CAT_NUM, d), gen(g, CAT_NUM, d));
    default:
        return comb_arena_printf(g->arena, "%s(%s, %s)", chance(g, 50) ? "COALESCE" : "NVL",
                                 gen(g, CAT_NUM, d), gen(g, CAT_NUM, d));
    }
}

static const char *gen_str(Gen *g, int d)
{
    static const char *const fns[] = {"upper", "lower", "trim", "ltrim", "rtrim"};
    switch (pick(g, 8)) {
    case 0: case 1:
        return comb_arena_printf(g->arena, "%s(%s)", ONE_OF(g, fns), gen(g, CAT_STR, d));
    case 2:
        return comb_arena_printf(g->arena, "concat(%s, %s)", gen(g, chance(g, 25) ? CAT_NUM : CAT_STR, d),
                                 gen(g, chance(g, 25) ? CAT_NUM : CAT_STR, d));
    case 3:
        return comb_arena_printf(g->arena, "(%s || %s)", gen(g, CAT_STR, d), gen(g, CAT_STR, d));
    case 4:
        return comb_arena_printf(g->arena, "CAST(%s AS %s)", gen(g, chance(g, 50) ? CAT_NUM : CAT_STR, d),
                                 ONE_OF(g, str_types));
    case 5:
        return comb_arena_printf(g->arena, "IF(%s, %s, %s)", gen(g, CAT_BOOL, d),
                                 gen(g, CAT_STR, d), gen(g, chance(g, 30) ? CAT_NUM : CAT_STR, d));
    case 6:
        return comb_arena_printf(g->arena, "CASE %s WHEN %s THEN %s ELSE %s END", gen(g, CAT_STR, d),
                                 gen_const(g, CAT_STR), gen(g, CAT_STR, d), gen(g, CAT_STR, d));
    default:
        return comb_arena_printf(g->arena, "COALESCE(%s, %s)", gen(g, CAT_STR, d), gen(g, CAT_STR, d));
    }
}

static const char *gen_in_list(Gen *g, Cat cat)
{
    int n = 1 + pick(g, 3);
    const char *s = gen_const(g, cat);
    for (int k = 1; k < n; k++)
        s = comb_arena_printf(g->arena, "%s, %s", s, gen_const(g, cat));
    return s;
}

static const char *gen_bool(Gen *g, int d)
{
    Cat a = chance(g, 55) ? CAT_NUM : CAT_STR, b = chance(g, 75) ? a : (a == CAT_NUM ? CAT_STR : CAT_NUM);
    const char *neg = chance(g, 30) ? "NOT " : "";
    switch (pick(g, 10)) {
    case 0: case 1: case 2:
        if (chance(g, 10))
            a = b = CAT_BOOL;
        return comb_arena_printf(g->arena, "(%s %s %s)", gen(g, a, d), ONE_OF(g, cmp_ops), gen(g, b, d));
    case 3:
        return comb_arena_printf(g->arena, "(%s IS %sNULL)", gen(g, any_cat(g), d), neg);
    case 4:
        return comb_arena_printf(g->arena, "(%s %sBETWEEN %s AND %s)", gen(g, a, d), neg,
                                 gen(g, a, d), gen(g, a, d));
    case 5:
        return comb_arena_printf(g->arena, "(%s %sIN (%s))", gen(g, a, d), neg, gen_in_list(g, a));
    case 6:
        return comb_arena_printf(g->arena, "(%s %sLIKE %s)", gen(g, CAT_STR, d), neg,
                                 chance(g, 80) ? ONE_OF(g, like_pats) : gen(g, CAT_STR, d));
    case 7:
        return comb_arena_printf(g->arena, "(%s %s %s)", gen(g, CAT_BOOL, d),
                                 chance(g, 50) ? "AND" : "OR", gen(g, CAT_BOOL, d));
    case 8:
        return comb_arena_printf(g->arena, "(NOT %s)", gen(g, CAT_BOOL, d));
    default:
        return comb_arena_printf(g->arena, "CAST(%s AS BOOLEAN)", gen(g, any_cat(g), d));
    }
}

static const char *gen(Gen *g, Cat cat, int depth)
{
    if (depth <= 0 || chance(g, 30))
        return leaf(g, cat);
    switch (cat) {
    case CAT_NUM: return gen_num(g, depth - 1);
    case CAT_STR: return gen_str(g, depth - 1);
    default: return gen_bool(g, depth - 1);
    }
}

/* One expression; now and then a constant one, so that comb's constant
 * folding (bind time) is compared as well as its vectorized evaluation. */
static const char *gen_top(Gen *g)
{
    const char *e;
    g->consts_only = chance(g, 15);
    e = gen(g, any_cat(g), 1 + pick(g, 3));
    g->consts_only = false;
    return e;
}

/* ------------------------------------------------------------- reports */

/* Differences charged to one kind of operation. */
typedef struct Class {
    const char *key;       /* "op(argtypes)->type", or comb error/crash */
    int cells, exprs, last_expr;
    int n_examples;
    const char *examples[8];
} Class;

typedef struct Report {
    Class *classes;
    int n_classes, cap;
    long cells, agree, differ, unknown, mode, skipped;
    int max_examples;
    CombArena *arena;
} Report;

static Class *class_of(Report *rep, const char *key)
{
    for (int k = 0; k < rep->n_classes; k++)
        if (strcmp(rep->classes[k].key, key) == 0)
            return &rep->classes[k];
    if (rep->n_classes == rep->cap) {
        Class *n = comb_arena_alloc(rep->arena, sizeof *n * (size_t)(rep->cap * 2 + 16));
        if (rep->n_classes)
            memcpy(n, rep->classes, sizeof *n * (size_t)rep->n_classes);
        rep->classes = n;
        rep->cap = rep->cap * 2 + 16;
    }
    memset(&rep->classes[rep->n_classes], 0, sizeof rep->classes[0]);
    rep->classes[rep->n_classes].key = key;
    rep->classes[rep->n_classes].last_expr = -1;
    return &rep->classes[rep->n_classes++];
}

static void charge(Report *rep, const char *key, int expr, const char *example)
{
    Class *c = class_of(rep, key);
    c->cells++;
    if (c->last_expr != expr) {
        c->exprs++;
        c->last_expr = expr;
        if (c->n_examples < rep->max_examples && c->n_examples < 8)
            c->examples[c->n_examples++] = example;
    }
}

static int class_cmp(const void *a, const void *b)
{
    const Class *x = a, *y = b;
    return y->cells != x->cells ? y->cells - x->cells : strcmp(x->key, y->key);
}

static bool is_text_col(int k)
{
    return k == DT_S || k == DT_V || k == DT_C;
}

/* "id 11, f=0.1, c='ab   '": the stored values an expression reads. */
static const char *row_values(HRef *r, CombArena *a, uint32_t cols, int row)
{
    CombBuf b = COMB_BUF_INIT;
    const char *out;
    comb_buf_printf(&b, "id %lld", (long long)r->rows[row][DT_ID].i);
    for (int k = 1; k < r->n_cols; k++) {
        char cell[256];
        if (!(cols & (1u << k)))
            continue;
        href_format_cell(r, row, k, cell, sizeof cell);
        comb_buf_printf(&b, is_text_col(k) ? ", %s='%s'" : ", %s=%s", dt_col_names[k], cell);
    }
    comb_buf_append_byte(&b, 0);
    out = comb_arena_strdup(a, (const char *)b.data);
    comb_buf_free(&b);
    return out;
}

/* Classes with their first examples, the smallest ones on one line. */
static int env_int(const char *name, int dflt);

static void print_report(Report *rep, const char *title)
{
    int col = 0, DETAILED = env_int("COMB_DIFFTEST_DETAILED", 30);
    qsort(rep->classes, (size_t)rep->n_classes, sizeof *rep->classes, class_cmp);
    printf("%s\n", title);
    for (int k = 0; k < rep->n_classes && k < DETAILED; k++) {
        Class *c = &rep->classes[k];
        printf("  [%d] %s: %d cells in %d expressions\n", k + 1, c->key, c->cells, c->exprs);
        for (int e = 0; e < c->n_examples; e++)
            printf("      %s\n", c->examples[e]);
    }
    for (int k = DETAILED; k < rep->n_classes; k++) {
        Class *c = &rep->classes[k];
        if (k == DETAILED)
            printf("  also:");
        col += printf(" %s (%d);", c->key, c->cells);
        if (col > 200 && k + 1 < rep->n_classes) {
            printf("\n       ");
            col = 0;
        }
    }
    if (rep->n_classes > DETAILED)
        printf("\n");
}

/* Why cells were not compared: reasons and counts. */
typedef struct Tally {
    const char *why[32];
    int count[32];
    int n;
    CombArena *arena;
} Tally;

static void tally(Tally *t, const char *why)
{
    int k = 0;
    while (k < t->n && strcmp(t->why[k], why) != 0)
        k++;
    if (k == t->n) {
        if (t->n == 32)
            return;
        t->why[t->n] = comb_arena_strdup(t->arena, why);
        t->count[t->n++] = 0;
    }
    t->count[k]++;
}

static void print_tally(const Tally *t)
{
    if (!t->n)
        return;
    printf("  not compared, Hive's answer not established:");
    for (int k = 0; k < t->n; k++)
        printf("%s %d x %s", k ? ";" : "", t->count[k], t->why[k]);
    printf("\n");
}

static int env_int(const char *name, int dflt)
{
    const char *v = getenv(name);
    return v && *v ? atoi(v) : dflt;
}

/* ---------------------------------------------------- culprit search */

/* Texts of sub-expressions, each once. */
typedef struct TextSet {
    const char **keys;
    int *vals;
    int cap, n;
    const char **list;   /* in insertion order */
} TextSet;

static uint64_t text_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int textset_find(const TextSet *t, const char *s)
{
    for (uint64_t i = text_hash(s) % (uint64_t)t->cap;; i = (i + 1) % (uint64_t)t->cap) {
        if (!t->keys[i])
            return -1;
        if (strcmp(t->keys[i], s) == 0)
            return t->vals[i];
    }
}

/* true if s was new and is now added */
static bool textset_add(TextSet *t, const char *s)
{
    uint64_t i = text_hash(s) % (uint64_t)t->cap;
    if (textset_find(t, s) >= 0 || t->n * 2 >= t->cap)
        return false;
    while (t->keys[i])
        i = (i + 1) % (uint64_t)t->cap;
    t->keys[i] = s;
    t->vals[i] = t->n;
    t->list[t->n++] = s;
    return true;
}

static void textset_init(TextSet *t, CombArena *a, int cap)
{
    t->cap = cap;
    t->n = 0;
    t->keys = comb_arena_calloc(a, sizeof *t->keys * (size_t)cap);
    t->vals = comb_arena_calloc(a, sizeof *t->vals * (size_t)cap);
    t->list = comb_arena_calloc(a, sizeof *t->list * (size_t)cap);
}

/* One differing cell, charged to the first sub-expression (children
 * first) whose own value differs, or that comb rejects or crashes on.
 * Literals are skipped: in context Hive may have narrowed their type. */
static void charge_cell(Report *rep, HRef *r, HExpr *root, const ExprRun *root_run,
                        const TextSet *subs, const ExprRun *sub_runs, int expr, int row)
{
    HExpr *nodes[MAX_NODES], *culprit = root;
    const ExprRun *crun = root_run;
    char want[512] = "?", cw[512];
    int nn = href_subexprs(root, nodes, MAX_NODES);
    const char *key, *ex, *got;
    bool unsure = false;
    for (int i = 0; i < nn; i++) {
        const ExprRun *run;
        int idx;
        if (href_is_literal(nodes[i]))
            continue;
        idx = nodes[i] == root ? -1 : textset_find(subs, href_text(r, nodes[i]));
        run = nodes[i] == root ? root_run : idx >= 0 ? &sub_runs[idx] : NULL;
        if (!run || run->status == Q_SKIP) {
            unsure = true;   /* a part comb did not run: no culprit */
            continue;
        }
        /* comb failing on a part is its fault even where Hive's value
         * of that part is not established (an untaken CASE branch) */
        if (href_eval(r, nodes[i], row, cw, sizeof cw) != HE_OK) {
            if (run->status == Q_OK)
                continue;
            snprintf(cw, sizeof cw, "(not established)");
        }
        if (run->status != Q_OK || strcmp(run->cell[row], cw) != 0) {
            culprit = nodes[i];
            crun = run;
            snprintf(want, sizeof want, "%s", cw);
            break;
        }
    }
    if (culprit == root && strcmp(want, "?") == 0)
        href_eval(r, root, row, want, sizeof want);
    key = href_class(r, culprit);
    if (unsure && culprit == root)
        key = "(not minimised: comb did not run every sub-expression)";
    else if (crun->status == Q_CRASH)
        key = comb_arena_printf(rep->arena, "comb crashes on %s", key);
    else if (crun->status == Q_ERROR)
        key = comb_arena_printf(rep->arena, "comb rejects %s", key);
    got = crun->status == Q_OK ? comb_arena_printf(rep->arena, "'%s'", crun->cell[row])
                               : comb_arena_printf(rep->arena, "%s: %.300s",
                                                   crun->status == Q_CRASH ? "crash" : "error",
                                                   crun->msg);
    ex = comb_arena_printf(rep->arena, "%s  [%s]: comb %s, Hive '%s'%s%s",
                           href_text(r, culprit), row_values(r, rep->arena, href_columns(culprit), row),
                           got, want, culprit == root ? "" : "  in: ",
                           culprit == root ? "" : href_text(r, root));
    charge(rep, key, expr, ex);
}

/* ------------------------------------------------------------------ tests */

typedef struct Fixture {
    Runner rn;
    HRef r;
    bool ok;
} Fixture;

static void fixture_open(Fixture *fx)
{
    runner_init(&fx->rn, unit_tmpdir());
    fx->ok = dt_load(&fx->r);
    if (!fx->ok)
        unit_fail(__FILE__, __LINE__, "reference table: %s", fx->r.why);
    else
        fx->ok = setup_table(&fx->rn);
}

static void fixture_close(Fixture *fx)
{
    if (fx->rn.exit_note[0])
        printf("note: %s\n", fx->rn.exit_note);
    href_free(&fx->r);
    comb_arena_free(&fx->rn.arena);
}

/* The table reads back as Hive stores it: padded CHAR, cut VARCHAR, the
 * float of each float, NaN, -0.0. */
TEST(difftest_stored_values)
{
    Fixture fx;
    const char *texts[DT_N_COLS - 1];
    ExprRun runs[DT_N_COLS - 1];
    int bad = 0;
    fixture_open(&fx);
    if (fx.ok) {
        for (int k = 1; k < DT_N_COLS; k++)
            texts[k - 1] = dt_col_names[k];
        comb_eval(&fx.rn, &fx.r, texts, NULL, DT_N_COLS - 1, runs);
        for (int k = 1; k < DT_N_COLS; k++)
            for (int row = 0; row < fx.r.n_rows; row++) {
                char want[256];
                href_format_cell(&fx.r, row, k, want, sizeof want);
                if (runs[k - 1].status == Q_OK && strcmp(runs[k - 1].cell[row], want) == 0)
                    continue;
                if (bad++ < 12)
                    printf("    column %s, id %lld: comb '%s', Hive '%s'\n", dt_col_names[k],
                           (long long)fx.r.rows[row][DT_ID].i,
                           runs[k - 1].status == Q_OK ? runs[k - 1].cell[row] : runs[k - 1].msg, want);
            }
        if (bad)
            unit_fail(__FILE__, __LINE__, "%d stored values differ from Hive's", bad);
    }
    fixture_close(&fx);
}

/* The known answers of hive_ref_cases.c, through comb. */
TEST(difftest_known_cases)
{
    Fixture fx;
    const char *texts[512];
    ExprRun runs[512];
    int n = 0, bad = 0, idx[512];
    fixture_open(&fx);
    for (int k = 0; fx.ok && k < href_n_cases && n < 512; k++)
        if (href_cases[k].want[0] != '<') {
            idx[n] = k;
            texts[n++] = href_cases[k].sql;
        }
    if (fx.ok)
        comb_eval(&fx.rn, &fx.r, texts, NULL, n, runs);
    for (int i = 0; fx.ok && i < n; i++) {
        const HrefCase *c = &href_cases[idx[i]];
        int row = dt_row_of(&fx.r, c->row_id ? c->row_id : 2);
        const char *got = runs[i].status == Q_OK ? runs[i].cell[row]
                        : runs[i].status == Q_CRASH ? "<crash>" : "<error>";
        if (strcmp(got, c->want) == 0)
            continue;
        bad++;
        printf("    %s [id %d]: comb '%s', Hive '%s' (%s)%s%.200s\n", c->sql,
               c->row_id ? c->row_id : 2, got, c->want, c->source,
               runs[i].status == Q_OK ? "" : ": ", runs[i].status == Q_OK ? "" : runs[i].msg);
    }
    if (fx.ok) {
        /* INSERT of 3.7 into an INT column stores 3 */
        const char *sql[3] = {
            "CREATE TABLE ins (i INT) TBLPROPERTIES ('transactional'='true')",
            "INSERT INTO ins VALUES (3.7)", "SELECT i FROM ins"};
        QResult q[3];
        run_queries(&fx.rn, sql, 3, q);
        if (q[2].status != Q_OK || q[2].n_rows != 1 || strcmp(q[2].cells[0], "3") != 0) {
            bad++;
            printf("    INSERT INTO ins (i INT) VALUES (3.7): comb %s, Hive stores 3 (%s)\n",
                   q[1].status != Q_OK ? q[1].msg : q[2].status == Q_OK && q[2].n_rows ? q[2].cells[0] : "nothing",
                   "issue 5");
        }
    }
    if (bad)
        unit_fail(__FILE__, __LINE__, "%d of %d known Hive answers differ", bad, n + 1);
    fixture_close(&fx);
}

TEST(difftest_expressions)
{
    int count = env_int("COMB_DIFFTEST_COUNT", 2000);
    Fixture fx;
    Gen g = {(uint64_t)env_int("COMB_DIFFTEST_SEED", 5) * 0x9E3779B97F4A7C15ull + 1, NULL, false};
    Report rep;
    Tally why;
    const char **texts;
    HExpr **exprs;
    ExprRun *runs, *sub_runs;
    HExpr **sub_nodes;
    TextSet subs;
    int n = 0, attempts = 0, rejected = 0, n_diff_exprs = 0;
    char title[512];
    memset(&rep, 0, sizeof rep);
    rep.max_examples = env_int("COMB_DIFFTEST_EXAMPLES", 2);
    fixture_open(&fx);
    if (!fx.ok) {
        fixture_close(&fx);
        return;
    }
    rep.arena = &fx.rn.arena;
    g.arena = &fx.rn.arena;
    memset(&why, 0, sizeof why);
    why.arena = &fx.rn.arena;
    texts = comb_arena_alloc(&fx.rn.arena, sizeof *texts * (size_t)(count + 1));
    exprs = comb_arena_alloc(&fx.rn.arena, sizeof *exprs * (size_t)(count + 1));
    runs = comb_arena_alloc(&fx.rn.arena, sizeof *runs * (size_t)(count + 1));
    while (n < count && attempts++ < count * 50) {
        const char *t = gen_top(&g);
        HExpr *e = href_parse(&fx.r, t);
        if (!e) {
            unit_fail(__FILE__, __LINE__, "generated text does not parse: %s: %s", t, fx.r.why);
            break;
        }
        if (href_bind(&fx.r, e) != HB_OK) {
            rejected++;
            continue;
        }
        texts[n] = t;
        exprs[n++] = e;
    }
    comb_eval(&fx.rn, &fx.r, texts, exprs, n, runs);

    /* compare every cell; collect sub-expressions of differing ones */
    textset_init(&subs, &fx.rn.arena, 1 << 16);
    sub_nodes = comb_arena_alloc(&fx.rn.arena, sizeof *sub_nodes * (size_t)(1 << 16));
    for (int k = 0; k < n; k++) {
        bool differs = false;
        for (int row = 0; row < fx.r.n_rows; row++) {
            char want[512];
            HEval v = href_eval(&fx.r, exprs[k], row, want, sizeof want);
            rep.cells++;
            if (v == HE_UNKNOWN) {
                rep.unknown++;
                tally(&why, fx.r.why);
            } else if (v == HE_MODE) {
                rep.mode++;
            } else if (runs[k].status == Q_SKIP) {
                rep.skipped++;
            } else if (runs[k].status == Q_OK && strcmp(runs[k].cell[row], want) == 0) {
                rep.agree++;
            } else {
                rep.differ++;
                differs = true;
            }
        }
        if (differs) {
            HExpr *nodes[MAX_NODES];
            int nn = href_subexprs(exprs[k], nodes, MAX_NODES);
            n_diff_exprs++;
            for (int i = 0; i < nn; i++)
                if (nodes[i] != exprs[k] && !href_is_literal(nodes[i]) &&
                    textset_add(&subs, href_text(&fx.r, nodes[i])))
                    sub_nodes[subs.n - 1] = nodes[i];
        }
    }
    sub_runs = comb_arena_alloc(&fx.rn.arena, sizeof *sub_runs * (size_t)(subs.n + 1));
    comb_eval(&fx.rn, &fx.r, subs.list, sub_nodes, subs.n, sub_runs);
    for (int k = 0; k < n; k++)
        for (int row = 0; row < fx.r.n_rows; row++) {
            char want[512];
            if (href_eval(&fx.r, exprs[k], row, want, sizeof want) != HE_OK || runs[k].status == Q_SKIP ||
                (runs[k].status == Q_OK && strcmp(runs[k].cell[row], want) == 0))
                continue;
            charge_cell(&rep, &fx.r, exprs[k], &runs[k], &subs, sub_runs, k, row);
        }
    snprintf(title, sizeof title,
             "difftest: seed %d, %d expressions (%d generated ones not modelled) x %d rows = %ld "
             "cells: %ld agree, %ld differ (in %d expressions, %d classes); not compared: %ld "
             "unknown to the reference, %ld mode-dependent in Hive, %ld not run; %d comb "
             "processes, %d crashes, %d expressions not run as they hold a crashing part",
             env_int("COMB_DIFFTEST_SEED", 5), n, rejected, fx.r.n_rows, rep.cells, rep.agree,
             rep.differ, n_diff_exprs, rep.n_classes, rep.unknown, rep.mode, rep.skipped,
             fx.rn.children, fx.rn.crashes, fx.rn.inferred);
    if (rep.differ)
        print_report(&rep, title);
    else
        printf("%s\n", title);
    print_tally(&why);
    if (rep.differ)
        unit_fail(__FILE__, __LINE__, "%ld cells differ from Hive 4 (classes above)", rep.differ);
    fixture_close(&fx);
}

/* ORDER BY over doubles, floats, strings, integers, booleans: NaN after
 * +Infinity, -0.0 before 0.0, ASC NULLS LAST, DESC NULLS FIRST. */
TEST(difftest_order_by)
{
    static const int cols[] = {DT_D, DT_F, DT_S, DT_BI, DT_TI, DT_B, DT_V};
    Fixture fx;
    const char *sql[2 * sizeof cols / sizeof cols[0]];
    QResult q[2 * sizeof cols / sizeof cols[0]];
    int nq = 0, bad = 0;
    fixture_open(&fx);
    for (size_t k = 0; fx.ok && k < sizeof cols / sizeof cols[0]; k++)
        for (int desc = 0; desc < 2; desc++)
            sql[nq++] = comb_arena_printf(&fx.rn.arena, "SELECT id, %s FROM t ORDER BY %s%s, id",
                                          dt_col_names[cols[k]], dt_col_names[cols[k]],
                                          desc ? " DESC" : "");
    if (fx.ok)
        run_queries(&fx.rn, sql, nq, q);
    for (int i = 0; fx.ok && i < nq; i++) {
        int order[HREF_MAX_ROWS], col = cols[i / 2];
        CombBuf want = COMB_BUF_INIT, got = COMB_BUF_INIT;
        href_order(&fx.r, col, i % 2, order);
        for (int k = 0; k < fx.r.n_rows; k++) {
            char cell[256];
            href_format_cell(&fx.r, order[k], col, cell, sizeof cell);
            comb_buf_printf(&want, "%s%lld:%s", k ? " " : "", (long long)fx.r.rows[order[k]][DT_ID].i, cell);
        }
        for (int k = 0; q[i].status == Q_OK && k < q[i].n_rows; k++)
            comb_buf_printf(&got, "%s%s:%s", k ? " " : "", q[i].cells[2 * k], q[i].cells[2 * k + 1]);
        comb_buf_append_byte(&want, 0);
        comb_buf_append_byte(&got, 0);
        if (q[i].status != Q_OK || strcmp((char *)want.data, (char *)got.data) != 0) {
            bad++;
            printf("    %s\n      comb: %s\n      Hive: %s\n", sql[i],
                   q[i].status == Q_OK ? (char *)got.data : q[i].msg, (char *)want.data);
        }
        comb_buf_free(&want);
        comb_buf_free(&got);
    }
    if (bad)
        unit_fail(__FILE__, __LINE__, "%d of %d ORDER BY results differ from Hive 4 (id:value)",
                  bad, nq);
    fixture_close(&fx);
}
