/*
 * spill.c - the statement's memory budget and the spill machinery (spill.h).
 *
 * A spill file is a temporary file made with mkstemp in comb.exec.spill.dir
 * (default $TMPDIR, else /tmp) and unlinked at once, so that neither an
 * error nor a crash leaves it behind.  Rows are written datum by datum: a
 * NULL byte, then the value as its type keeps it (8-byte integers and
 * doubles, 16-byte decimals, seconds and nanos, length and bytes of a
 * string; a complex value's tag, part count and parts).
 */
#include "sql/exec/spill.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "sql/exec/exec.h"

#define MEM_LIMIT_KEY "comb.exec.memory.limit"
#define SPILL_DIR_KEY "comb.exec.spill.dir"

/* ---------------------------------------------------------- settings */

/* Half the machine's memory: a statement neither starves the machine nor
 * gets killed by it. */
static int64_t default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (int64_t)pages * size / 2 : 0;
}

int64_t sql_exec_mem_limit(const SqlSession *s)
{
    const char *v = sql_session_get_conf(s, MEM_LIMIT_KEY);
    int64_t n;
    if (v && comb_parse_size(v, &n))
        return n;
    return default_limit();
}

int sql_exec_conf_check(const char *key, const char *value, CombErr *err)
{
    int64_t n;
    if (strcmp(key, MEM_LIMIT_KEY) == 0 && !comb_parse_size(value, &n))
        return comb_err(err, COMB_EINVALID,
                        "'SET %s=%s' FAILED in validation : Invalid size "
                        "'%s': expected bytes with an optional k, m or g "
                        "suffix (0: unlimited)",
                        key, value, value);
    if (strcmp(key, SPILL_DIR_KEY) == 0 && !*value)
        return comb_err(err, COMB_EINVALID,
                        "'SET %s=' FAILED in validation : an empty directory",
                        key);
    return COMB_OK;
}

const char *sql_session_spill_dir(const SqlSession *s)
{
    const char *v = sql_session_get_conf(s, SPILL_DIR_KEY);
    if (v && *v)
        return v;
    v = getenv("TMPDIR");
    return v && *v ? v : "/tmp";
}

int sql_exec_mem_stats(SqlStmtCtx *c, int64_t heap_peak, CombErr *err)
{
    const CombMemAcct *m = c->mem;
    char line[256];
    if (!sql_conf_bool(c->s, "comb.exec.stats", false) || !c->stmt ||
        c->stmt->kind == AST_SET)
        return COMB_OK;
    snprintf(line, sizeof line,
             "Memory: limit %lld, peak tracked %lld, peak heap %lld, "
             "spilled %lld bytes in %lld files",
             (long long)m->limit, (long long)m->peak, (long long)heap_peak,
             (long long)m->spilled_bytes, (long long)m->spill_files);
    return sql_stmt_info(c, line, err);
}

/* A holder that counts: a quarter of the limit or more. */
bool sql_spill_worth(const SqlStmtCtx *c, int64_t own)
{
    return own >= c->mem->limit / 4;
}

bool sql_mem_exceeded(const SqlStmtCtx *c, int64_t own)
{
    return comb_mem_over(c->mem, c->mem->limit / 2) && sql_spill_worth(c, own);
}

int sql_mem_error(SqlStmtCtx *c, const char *what, CombErr *err)
{
    return comb_err(err, COMB_ENOMEM,
                    "Memory limit exceeded: the %s needs more than %s=%lld "
                    "bytes and cannot spill it to disk; raise the limit",
                    what, MEM_LIMIT_KEY, (long long)c->mem->limit);
}

int sql_spill_part(uint64_t h, int level)
{
    /* other bits at every level, none of the low ones hash tables use */
    return (int)((h >> (60 - 4 * level)) & (SQL_SPILL_FANOUT - 1));
}

/* ------------------------------------------------------ spill files */

struct SqlSpill {
    SqlStmtCtx *c;
    FILE *f;
    int n_cols;
    const CombType *const *types;
    int64_t rows;
    int64_t bytes;
};

static int spill_io_error(SqlSpill *sp, const char *what, CombErr *err)
{
    int e = errno;
    const char *dir = sql_session_spill_dir(sp->c->s);
    if (e == ENOSPC || e == EDQUOT)
        return comb_err(err, COMB_EFULL,
                        "No space left on device for spill files in %s (%s): "
                        "free space there or point %s elsewhere",
                        dir, what, SPILL_DIR_KEY);
    return comb_err(err, COMB_EIO, "spill file in %s (%s): %s", dir, what,
                    strerror(e));
}

int sql_spill_create(SqlStmtCtx *c, int n_cols, const CombType *const *types,
                     SqlSpill **out, CombErr *err)
{
    const char *dir = sql_session_spill_dir(c->s);
    char path[4096];
    SqlSpill *sp = comb_calloc(1, sizeof *sp);
    int fd;
    if (!sp)
        return comb_err_nomem(err);
    sp->c = c;
    sp->n_cols = n_cols;
    sp->types = types;
    errno = ENAMETOOLONG;
    if (snprintf(path, sizeof path, "%s/comb-spill-XXXXXX", dir) >= (int)sizeof path ||
        (fd = mkstemp(path)) < 0) {
        int rc = spill_io_error(sp, "create", err);
        comb_free(sp);
        return rc;
    }
    unlink(path);
    if (!(sp->f = fdopen(fd, "w+b"))) {
        int rc = spill_io_error(sp, "open", err);
        close(fd);
        comb_free(sp);
        return rc;
    }
    comb_mem_spilled(c->mem, 0, 1);
    *out = sp;
    return COMB_OK;
}

void sql_spill_free(SqlSpill *sp)
{
    if (!sp)
        return;
    if (sp->f)
        fclose(sp->f);
    comb_free(sp);
}

int64_t sql_spill_rows(const SqlSpill *sp)
{
    return sp->rows;
}

static bool put(SqlSpill *sp, const void *p, size_t n)
{
    sp->bytes += (int64_t)n;
    return fwrite(p, 1, n, sp->f) == n;
}

static bool put_datum(SqlSpill *sp, const CombType *t, const SqlDatum *d)
{
    uint8_t null = d->null || t->kind == COMB_T_NULL;
    if (!put(sp, &null, 1))
        return false;
    if (null)
        return true;
    if (!comb_type_is_primitive(t->kind)) {
        if (!put(sp, &d->tag, 1) || !put(sp, &d->n, sizeof d->n))
            return false;
        for (uint32_t k = 0; k < d->n; k++)
            if (!put_datum(sp, sql_datum_part_type(t, d, k), &d->parts[k]))
                return false;
        return true;
    }
    if (comb_type_is_float(t->kind))
        return put(sp, &d->d, sizeof d->d);
    if (comb_type_is_str(t->kind))
        return put(sp, &d->s.len, sizeof d->s.len) && put(sp, d->s.ptr, d->s.len);
    if (t->kind == COMB_T_DECIMAL)
        return put(sp, &d->dec, sizeof d->dec);
    if (!put(sp, &d->i, sizeof d->i))
        return false;
    return t->kind != COMB_T_TIMESTAMP || put(sp, &d->nanos, sizeof d->nanos);
}

int sql_spill_put(SqlSpill *sp, const SqlDatum *row, CombErr *err)
{
    int64_t before = sp->bytes;
    for (int j = 0; j < sp->n_cols; j++)
        if (!put_datum(sp, sp->types[j], &row[j]))
            return spill_io_error(sp, "write", err);
    sp->rows++;
    comb_mem_spilled(sp->c->mem, sp->bytes - before, 0);
    return COMB_OK;
}

int sql_spill_put_rows(SqlSpill *sp, const SqlRowStore *rs, CombErr *err)
{
    for (int64_t r = 0; r < rs->n_rows; r++) {
        int rc = sql_spill_put(sp, rs->rows[r], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

int sql_spill_rewind(SqlSpill *sp, CombErr *err)
{
    if (fflush(sp->f) != 0 || fseek(sp->f, 0, SEEK_SET) != 0)
        return spill_io_error(sp, "flush", err);
    return COMB_OK;
}

static bool get(SqlSpill *sp, void *p, size_t n)
{
    return fread(p, 1, n, sp->f) == n;
}

/* false: a short read (the file is ours, so an I/O error) or no memory */
static bool get_datum(SqlSpill *sp, const CombType *t, SqlDatum *d,
                      CombArena *a)
{
    uint8_t null;
    memset(d, 0, sizeof *d);
    if (!get(sp, &null, 1))
        return false;
    if ((d->null = null))
        return true;
    if (!comb_type_is_primitive(t->kind)) {
        if (!get(sp, &d->tag, 1) || !get(sp, &d->n, sizeof d->n))
            return false;
        if (d->n && !(d->parts = comb_arena_alloc(a, (size_t)d->n * sizeof *d->parts)))
            return false;
        for (uint32_t k = 0; k < d->n; k++)
            if (!get_datum(sp, sql_datum_part_type(t, d, k), &d->parts[k], a))
                return false;
        return true;
    }
    if (comb_type_is_float(t->kind))
        return get(sp, &d->d, sizeof d->d);
    if (comb_type_is_str(t->kind)) {
        char *p;
        if (!get(sp, &d->s.len, sizeof d->s.len) ||
            !(p = comb_arena_alloc(a, (size_t)d->s.len + 1)) || !get(sp, p, d->s.len))
            return false;
        p[d->s.len] = '\0';
        d->s.ptr = p;
        return true;
    }
    if (t->kind == COMB_T_DECIMAL)
        return get(sp, &d->dec, sizeof d->dec);
    if (!get(sp, &d->i, sizeof d->i))
        return false;
    return t->kind != COMB_T_TIMESTAMP || get(sp, &d->nanos, sizeof d->nanos);
}

int sql_spill_get(SqlSpill *sp, SqlDatum *row, CombArena *a, bool *got,
                  CombErr *err)
{
    int ch = fgetc(sp->f);
    *got = false;
    if (ch == EOF)
        return ferror(sp->f) ? spill_io_error(sp, "read", err) : COMB_OK;
    ungetc(ch, sp->f);
    for (int j = 0; j < sp->n_cols; j++)
        if (!get_datum(sp, sp->types[j], &row[j], a))
            return ferror(sp->f) || feof(sp->f) ? spill_io_error(sp, "read", err)
                                                : comb_err_nomem(err);
    *got = true;
    return COMB_OK;
}

int sql_spill_parts_create(SqlStmtCtx *c, int n_cols,
                           const CombType *const *types, int level,
                           SqlSpillParts *out, CombErr *err)
{
    memset(out, 0, sizeof *out);
    out->level = level;
    for (int i = 0; i < SQL_SPILL_FANOUT; i++) {
        int rc = sql_spill_create(c, n_cols, types, &out->part[i], err);
        if (rc) {
            sql_spill_parts_free(out);
            return rc;
        }
    }
    return COMB_OK;
}

void sql_spill_parts_free(SqlSpillParts *p)
{
    for (int i = 0; i < SQL_SPILL_FANOUT; i++)
        sql_spill_free(p->part[i]);
    memset(p->part, 0, sizeof p->part);
}

/* ------------------------------------------------- the spill scan */

#define SCAN_BLOCK (16 * 1024)

typedef struct SpillScanOp {
    SqlOp op;
    SqlSpill *sp;
    SqlRowStore rows;        /* the rows of the current batch */
    SqlRowStore shape;       /* the batch's types and fill states */
    CombBatch batch;
    SqlVecFill *fills;
} SpillScanOp;

static int scan_open(SqlOp *op, CombErr *err)
{
    SpillScanOp *s = (SpillScanOp *)op;
    int rc = sql_spill_rewind(s->sp, err);
    if (rc)
        return rc;
    if (sql_rows_init_types(&s->rows, op->n_cols, op->types) ||
        sql_rows_init_types(&s->shape, op->n_cols, op->types))
        return comb_err_nomem(err);
    /* one batch at a time: small blocks, not those of a store that grows */
    comb_arena_init(&s->rows.arena, SCAN_BLOCK);
    comb_arena_init(&s->shape.arena, SCAN_BLOCK);
    if (sql_rows_batch_init(&s->shape, op->n_cols, &s->batch, &s->fills))
        return comb_err_nomem(err);
    return COMB_OK;
}

int sql_spill_read(SqlSpill *sp, SqlRowStore *rs, int64_t n, CombErr *err)
{
    sql_rows_clear(rs);
    while (rs->n_rows < n) {
        SqlDatum *row;
        bool got;
        int rc = sql_rows_add(rs, &row, err);
        if (!rc)
            rc = sql_spill_get(sp, row, &rs->arena, &got, err);
        if (rc)
            return rc;
        if (!got) {
            rs->n_rows--;
            break;
        }
    }
    return COMB_OK;
}

static int scan_next(SqlOp *op, const CombBatch **out, CombErr *err)
{
    SpillScanOp *s = (SpillScanOp *)op;
    int rc = sql_spill_read(s->sp, &s->rows, COMB_BATCH_SIZE, err);
    if (rc)
        return rc;
    if (s->rows.n_rows == 0)
        return COMB_OK;
    if (sql_rows_fill(&s->rows, 0, op->n_cols, &s->batch, s->fills))
        return comb_err_nomem(err);
    *out = &s->batch;
    return COMB_OK;
}

static void scan_close(SqlOp *op)
{
    SpillScanOp *s = (SpillScanOp *)op;
    if (s->batch.cols)
        comb_batch_free(&s->batch);
    memset(&s->batch, 0, sizeof s->batch);
    sql_rows_free(&s->rows);
    sql_rows_free(&s->shape);
    sql_spill_free(s->sp);
    s->sp = NULL;
}

static void scan_need(SqlOp *op, const bool *used)
{
    (void)op;
    (void)used;
}

static const SqlOpVt spill_scan_vt = {
    "SpillScan", scan_open, scan_next, scan_close, scan_need, NULL, NULL,
};

void sql_spill_scan_set(SqlOp *scan, SqlSpill *sp)
{
    sql_op_close(scan);
    ((SpillScanOp *)scan)->sp = sp;
}

int sql_op_spill_scan(SqlStmtCtx *c, int n_cols, const char **names,
                      const CombType **types, SqlOp **out, CombErr *err)
{
    SpillScanOp *s = sql_op_alloc(c, sizeof *s, &spill_scan_vt, NULL);
    if (!s)
        return comb_err_nomem(err);
    s->op.n_cols = n_cols;
    s->op.names = names;
    s->op.types = types;
    *out = &s->op;
    return COMB_OK;
}

/* ------------------------------------------------- external merge */

/* Runs merged at once: each open run costs a file buffer and a row. */
#define MERGE_FANIN 32

typedef struct RunReader {
    SqlSpill *sp;
    SqlDatum *row;
    CombArena arena;         /* the current row's strings and parts */
    bool live;
} RunReader;

struct SqlRuns {
    SqlStmtCtx *c;
    const SqlRowStore *shape;
    const SqlSortKey *keys;
    int n_keys;
    SqlSpill **runs;
    int n_runs, cap;
    RunReader *rd;           /* the final merge's readers, one per run */
    int n_rd;
    int cur;                 /* runs_cur's reader; -2 not known */
};

int sql_runs_create(SqlStmtCtx *c, const SqlRowStore *rs,
                    const SqlSortKey *keys, int n_keys, SqlRuns **out,
                    CombErr *err)
{
    SqlRuns *r = comb_calloc(1, sizeof *r);
    if (!r)
        return comb_err_nomem(err);
    r->c = c;
    r->shape = rs;
    r->keys = keys;
    r->n_keys = n_keys;
    r->cur = -2;
    *out = r;
    return COMB_OK;
}

int64_t sql_runs_count(const SqlRuns *r)
{
    return r->n_runs;
}

static int runs_push(SqlRuns *r, SqlSpill *sp, CombErr *err)
{
    if (r->n_runs == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        SqlSpill **p = comb_realloc(r->runs, (size_t)cap * sizeof *p);
        if (!p) {
            sql_spill_free(sp);
            return comb_err_nomem(err);
        }
        r->runs = p;
        r->cap = cap;
    }
    r->runs[r->n_runs++] = sp;
    return COMB_OK;
}

int sql_runs_add(SqlRuns *r, SqlRowStore *rs, CombErr *err)
{
    SqlSpill *sp;
    int rc = sql_spill_create(r->c, rs->n_cols, rs->types, &sp, err);
    if (rc)
        return rc;
    sql_rows_sort(rs, r->keys, r->n_keys);
    if ((rc = sql_spill_put_rows(sp, rs, err))) {
        sql_spill_free(sp);
        return rc;
    }
    if ((rc = runs_push(r, sp, err)))
        return rc;
    sql_rows_clear(rs);
    return COMB_OK;
}

static int reader_advance(RunReader *rd, CombErr *err)
{
    comb_arena_reset(&rd->arena);
    return sql_spill_get(rd->sp, rd->row, &rd->arena, &rd->live, err);
}

static void readers_free(RunReader *rd, int n)
{
    for (int i = 0; i < n; i++) {
        comb_free(rd[i].row);
        comb_arena_free(&rd[i].arena);
        sql_spill_free(rd[i].sp);
    }
    comb_free(rd);
}

/* Readers at the first row of each of the n runs (which they take). */
static int readers_open(SqlRuns *r, SqlSpill **runs, int n, RunReader **out,
                        CombErr *err)
{
    RunReader *rd = comb_calloc((size_t)n, sizeof *rd);
    int rc = rd ? COMB_OK : comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        if (rd) {
            rd[i].sp = runs[i];
            comb_arena_init(&rd[i].arena, 4096);
            if (!rc && !(rd[i].row = comb_calloc((size_t)r->shape->n_cols + 1, sizeof *rd[i].row)))
                rc = comb_err_nomem(err);
            if (!rc && !(rc = sql_spill_rewind(runs[i], err)))
                rc = reader_advance(&rd[i], err);
        } else {
            sql_spill_free(runs[i]);
        }
    }
    if (rc) {
        if (rd)
            readers_free(rd, n);
        return rc;
    }
    *out = rd;
    return COMB_OK;
}

/* The reader whose row comes first, or -1 when all are at their end. */
static int readers_min(const SqlRuns *r, const RunReader *rd, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (rd[i].live &&
            (best < 0 || sql_rows_cmp(r->shape, r->keys, r->n_keys, rd[i].row,
                                      rd[best].row) < 0))
            best = i;
    return best;
}

/* Merge the first n runs into one new run at the end. */
static int merge_pass(SqlRuns *r, int n, CombErr *err)
{
    RunReader *rd;
    SqlSpill *sp;
    int rc = sql_spill_create(r->c, r->shape->n_cols, r->shape->types, &sp, err);
    if (rc)
        return rc;
    if ((rc = readers_open(r, r->runs, n, &rd, err))) {
        sql_spill_free(sp);
        memmove(r->runs, r->runs + n, (size_t)(r->n_runs - n) * sizeof *r->runs);
        r->n_runs -= n;
        return rc;
    }
    memmove(r->runs, r->runs + n, (size_t)(r->n_runs - n) * sizeof *r->runs);
    r->n_runs -= n;
    for (int i; !rc && (i = readers_min(r, rd, n)) >= 0;)
        if (!(rc = sql_spill_put(sp, rd[i].row, err)))
            rc = reader_advance(&rd[i], err);
    readers_free(rd, n);
    if (rc) {
        sql_spill_free(sp);
        return rc;
    }
    return runs_push(r, sp, err);
}

int sql_runs_finish(SqlRuns *r, CombErr *err)
{
    int rc;
    while (r->n_runs > MERGE_FANIN)
        if ((rc = merge_pass(r, MERGE_FANIN, err)))
            return rc;
    rc = readers_open(r, r->runs, r->n_runs, &r->rd, err);
    r->n_rd = rc ? 0 : r->n_runs;
    r->n_runs = 0;
    return rc;
}

/* The reader whose row comes next (cached until a pop), -1 at the end. */
static int runs_cur(SqlRuns *r)
{
    if (r->cur == -2)
        r->cur = readers_min(r, r->rd, r->n_rd);
    return r->cur;
}

const SqlDatum *sql_runs_peek(SqlRuns *r)
{
    int i = runs_cur(r);
    return i < 0 ? NULL : r->rd[i].row;
}

int sql_runs_pop(SqlRuns *r, SqlRowStore *out, CombErr *err)
{
    int i = runs_cur(r), rc;
    SqlDatum *row;
    if (i < 0)
        return COMB_OK;
    if ((rc = sql_rows_add(out, &row, err)))
        return rc;
    for (int j = 0; j < out->n_cols; j++)
        if (sql_datum_copy(&row[j], &r->rd[i].row[j], &out->arena))
            return comb_err_nomem(err);
    r->cur = -2;
    return reader_advance(&r->rd[i], err);
}

int sql_runs_next(SqlRuns *r, SqlRowStore *out, CombErr *err)
{
    sql_rows_clear(out);
    while (out->n_rows < COMB_BATCH_SIZE && sql_runs_peek(r)) {
        int rc = sql_runs_pop(r, out, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

void sql_runs_free(SqlRuns *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_runs; i++)
        sql_spill_free(r->runs[i]);
    comb_free(r->runs);
    if (r->rd)
        readers_free(r->rd, r->n_rd);
    comb_free(r);
}
