/*
 * stream_cmd.c - `comb stream`: records from standard input (or a named
 * pipe) into a table through a streaming connection, committed in small
 * transactions.
 *
 *   comb [OPTIONS] stream --table [db.]t [--partition k=v,...]
 *        [--format csv|tsv|json|delimited] [--delimiter C] [--input PATH]
 *        [--batch-size N] [--commit-rows N] [--commit-interval S]
 *        [--upsert-key col,...] [--op-column NAME]
 *        [--on-error fail|skip] [--quiet]
 *
 * The loop: read what the input has (poll with a time-out, so that a
 * quiet pipe still commits on time), cut it into records
 * (stream_record_split), parse each into the next row of a batch, hand
 * full batches to the connection, and commit the txn when it holds
 * --commit-rows rows or is --commit-interval seconds old, whichever comes
 * first.  A txn begins with its first row, so an idle stream opens none.
 *
 * Change records (--op-column, upsert mode only): the op field says I
 * (insert), U (update) or D (delete), also C and R as Debezium writes
 * creates and snapshot reads; I, U, C and R are upserts
 * (comb_stream_write), D deletes by key (comb_stream_delete).  Rows go to
 * the connection in input order: a batch holds rows of one kind, and a
 * record of the other kind sends the batch first.  In delimited text the
 * op field comes first, before the table's columns; in JSON it is the
 * member of that name.
 *
 * Errors: a bad record under --on-error fail aborts the current txn
 * (nothing of it becomes visible) and ends with status 1 and the line's
 * message; under skip the record is left out, its message printed, and
 * the lines are listed at the end.  SIGTERM, SIGINT and the end of input
 * commit the records read in whole and end with status 0.
 */
#include "cli/stream_cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "common/alloc.h"
#include "metastore/ms.h"
#include "sql/session.h"
#include "stream/stream.h"
#include "stream/stream_record.h"

#define READ_CHUNK (1u << 20)
/* A record longer than this is refused (a missing line end, a runaway
 * CSV quote) rather than buffered without end. */
#define MAX_RECORD (64u << 20)
/* Skipped lines listed at the end; messages printed as they happen. */
#define SKIP_LIST 20
#define SKIP_MESSAGES 100

enum { OP_UPSERT, OP_DELETE };

typedef struct StreamArgs {
    const char *warehouse, *metastore;
    char *db, *table;
    const char *partition;        /* "k=v,..." or NULL */
    StreamRecordFormat format;
    bool format_given;
    char delimiter;               /* 0: the format's own */
    const char *input;            /* NULL: standard input */
    int batch_size;
    int64_t commit_rows;
    double commit_interval;       /* seconds; 0: rows only */
    const char *upsert_key;       /* "a,b" or NULL */
    const char *op_column;
    bool skip_errors;
    bool quiet;
} StreamArgs;

typedef struct Ingest {
    StreamArgs *a;
    CombStream *s;
    const CombStreamLayout *lay;
    StreamRecordParser *parser;
    CombBatch rows[2];            /* parser's fields; the current one and
                                     the one a carried row moves to */
    int cur;
    int op_field;                 /* field of the op, -1 without */
    int first_col;                /* field of the layout's first column */
    int batch_op;                 /* OP_* of the rows in the batch */
    bool txn_open;
    bool aborted;                 /* a txn was aborted for an error */
    int64_t txn_rows;
    double txn_start;
    uint64_t txn_first_line;
    int64_t records, skipped;
    uint64_t skipped_lines[SKIP_LIST];
    double start, last_live;
    bool live;                    /* a live line on a terminal's stderr */
    CombArena arena;              /* the op field's type (the batches
                                     borrow their types) */
    CombErr err;
} Ingest;

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(FILE *out)
{
    fputs("usage: comb [OPTIONS] stream --table [db.]t [--partition k=v,...]\n"
          "         [--format csv|tsv|json|delimited] [--delimiter C]\n"
          "         [--input PATH] [--batch-size N] [--commit-rows N]\n"
          "         [--commit-interval S] [--upsert-key col,...]\n"
          "         [--op-column NAME] [--on-error fail|skip] [--quiet]\n",
          out);
}

/* ------------------------------------------------------------ arguments */

static int bad_arg(const char *what, const char *value)
{
    fprintf(stderr, "comb stream: %s: '%s'\n", what, value);
    usage(stderr);
    return 2;
}

static bool parse_count(const char *s, int64_t min, int64_t *out)
{
    char *end;
    long long v;
    errno = 0;
    v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min)
        return false;
    *out = v;
    return true;
}

static int parse_table_name(StreamArgs *a, const char *name)
{
    const char *dot = strchr(name, '.');
    a->db = dot ? comb_strndup(name, (size_t)(dot - name))
                : comb_strdup("default");
    a->table = comb_strdup(dot ? dot + 1 : name);
    if (!a->db || !a->table)
        return 1;
    if (!*a->db || !*a->table || strchr(a->table, '.'))
        return bad_arg("not a table name", name);
    return 0;
}

enum {
    OPT_TABLE = 1000,
    OPT_PARTITION,
    OPT_FORMAT,
    OPT_DELIMITER,
    OPT_INPUT,
    OPT_BATCH_SIZE,
    OPT_COMMIT_ROWS,
    OPT_COMMIT_INTERVAL,
    OPT_UPSERT_KEY,
    OPT_OP_COLUMN,
    OPT_ON_ERROR,
    OPT_QUIET
};

static int parse_one(StreamArgs *a, int ch, const char *v)
{
    int64_t n;
    char *end;
    switch (ch) {
    case OPT_TABLE: return parse_table_name(a, v);
    case OPT_PARTITION: a->partition = v; return 0;
    case OPT_FORMAT:
        a->format_given = true;
        return stream_record_format_parse(v, &a->format)
                   ? 0 : bad_arg("unknown format", v);
    case OPT_DELIMITER:
        if (strlen(v) != 1 && strcmp(v, "\\t") != 0)
            return bad_arg("a delimiter is one character", v);
        a->delimiter = strcmp(v, "\\t") == 0 ? '\t' : v[0];
        return 0;
    case OPT_INPUT: a->input = v; return 0;
    case OPT_BATCH_SIZE:
        if (!parse_count(v, 1, &n) || n > 1000000)
            return bad_arg("--batch-size takes 1 to 1000000", v);
        a->batch_size = (int)n;
        return 0;
    case OPT_COMMIT_ROWS:
        return parse_count(v, 1, &a->commit_rows)
                   ? 0 : bad_arg("--commit-rows takes a count from 1", v);
    case OPT_COMMIT_INTERVAL:
        a->commit_interval = strtod(v, &end);
        if (end == v || *end || !(a->commit_interval >= 0) ||
            a->commit_interval > 86400)
            return bad_arg("--commit-interval takes seconds from 0 to 86400",
                           v);
        return 0;
    case OPT_UPSERT_KEY: a->upsert_key = v; return 0;
    case OPT_OP_COLUMN: a->op_column = v; return 0;
    case OPT_ON_ERROR:
        if (strcmp(v, "fail") && strcmp(v, "skip"))
            return bad_arg("--on-error takes fail or skip", v);
        a->skip_errors = strcmp(v, "skip") == 0;
        return 0;
    case OPT_QUIET: a->quiet = true; return 0;
    default: usage(stderr); return 2;
    }
}

static int parse_args(int argc, char **argv, StreamArgs *a)
{
    static const struct option longopts[] = {
        {"table", required_argument, NULL, OPT_TABLE},
        {"partition", required_argument, NULL, OPT_PARTITION},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"delimiter", required_argument, NULL, OPT_DELIMITER},
        {"input", required_argument, NULL, OPT_INPUT},
        {"batch-size", required_argument, NULL, OPT_BATCH_SIZE},
        {"commit-rows", required_argument, NULL, OPT_COMMIT_ROWS},
        {"commit-interval", required_argument, NULL, OPT_COMMIT_INTERVAL},
        {"upsert-key", required_argument, NULL, OPT_UPSERT_KEY},
        {"op-column", required_argument, NULL, OPT_OP_COLUMN},
        {"on-error", required_argument, NULL, OPT_ON_ERROR},
        {"quiet", no_argument, NULL, OPT_QUIET},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int ch, rc;
    optind = 1;
    while ((ch = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        if (ch == 'h') {
            usage(stdout);
            return -1;
        }
        if ((rc = parse_one(a, ch, optarg)))
            return rc;
    }
    if (optind < argc)
        return bad_arg("unexpected argument", argv[optind]);
    if (!a->table) {
        fputs("comb stream: --table is required\n", stderr);
        usage(stderr);
        return 2;
    }
    /* --delimiter alone or with tsv: delimited text; with csv: CSV with
     * that separator (";" as spreadsheets write it in many locales) */
    if (a->delimiter && (!a->format_given || a->format == STREAM_REC_TSV))
        a->format = STREAM_REC_DELIMITED;
    if (a->format == STREAM_REC_DELIMITED && !a->delimiter) {
        fputs("comb stream: --format delimited needs --delimiter\n", stderr);
        return 2;
    }
    if (a->op_column && !a->upsert_key) {
        fputs("comb stream: --op-column needs --upsert-key (deletes are by "
              "key)\n", stderr);
        return 2;
    }
    return 0;
}

/* "a,b,c" split in place into *out (a heap array of pointers into s). */
static int split_list(char *s, char ***out, int *n)
{
    int k = 1;
    for (char *c = s; *c; c++)
        k += *c == ',';
    if (!(*out = comb_calloc((size_t)k, sizeof **out)))
        return 1;
    *n = 0;
    for (char *tok = s, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        (*out)[(*n)++] = tok;
    }
    return 0;
}

/* --partition k=v,... as values in the table's key order: the connection
 * takes them so, and users write them by name (the metastore says the
 * order). */
static int partition_values(const StreamArgs *a, char *spec, char ***vals,
                            int *n_vals, CombErr *err)
{
    char target[4096];
    CombArena arena;
    MsTable *t;
    Ms *ms = NULL;
    char **pairs = NULL;
    int n_pairs = 0, rc;
    snprintf(target, sizeof target, "%s/metastore.db", a->warehouse);
    comb_arena_init(&arena, 4096);
    rc = ms_open(a->metastore ? a->metastore : target, a->warehouse, &ms, err);
    if (!rc)
        rc = ms_table_get(ms, a->db, a->table, &arena, &t, err);
    if (!rc && split_list(spec, &pairs, &n_pairs))
        rc = comb_err_nomem(err);
    if (!rc && !(*vals = comb_calloc((size_t)t->n_part_keys + 1,
                                     sizeof **vals)))
        rc = comb_err_nomem(err);
    for (int i = 0; !rc && i < n_pairs; i++) {
        char *eq = strchr(pairs[i], '=');
        int k = 0;
        if (eq)
            *eq = '\0';
        while (eq && k < t->n_part_keys &&
               strcasecmp(t->part_keys[k].name, pairs[i]) != 0)
            k++;
        if (!eq || k == t->n_part_keys)
            rc = comb_err(err, COMB_EINVALID, "--partition: '%s' is not a "
                          "partition key of %s.%s (k=v,...)", pairs[i],
                          a->db, a->table);
        else if ((*vals)[k])
            rc = comb_err(err, COMB_EINVALID, "--partition: key %s given "
                          "twice", pairs[i]);
        else
            (*vals)[k] = eq + 1;
    }
    for (int k = 0; !rc && k < t->n_part_keys; k++)
        if (!(*vals)[k])
            rc = comb_err(err, COMB_EINVALID, "--partition: no value for "
                          "key %s (dynamic partitioning: leave --partition "
                          "out)", t->part_keys[k].name);
    if (!rc)
        *n_vals = t->n_part_keys;
    comb_free(pairs);
    ms_close(ms);
    comb_arena_free(&arena);
    return rc;
}

/* -------------------------------------------------------------- records */

/* The parser's fields: the layout's columns, with the op field first in
 * delimited text and last in JSON (where order does not matter). */
static int ingest_parser(Ingest *ig)
{
    const CombStreamLayout *l = ig->lay;
    int n = l->n_cols + (ig->a->op_column ? 1 : 0), k = 0, rc;
    const char **names = comb_calloc((size_t)n, sizeof *names);
    const CombType **types = comb_calloc((size_t)n, sizeof *types);
    ig->op_field = -1;
    if (!names || !types) {
        rc = comb_err_nomem(&ig->err);
        goto out;
    }
    if (ig->a->op_column) {
        for (int i = 0; i < l->n_cols; i++)
            if (strcasecmp(l->names[i], ig->a->op_column) == 0) {
                rc = comb_err(&ig->err, COMB_EINVALID, "--op-column %s is a "
                              "column of the table; name a field of the "
                              "change records", ig->a->op_column);
                goto out;
            }
        ig->op_field = ig->a->format == STREAM_REC_JSON ? l->n_cols : 0;
    }
    ig->first_col = ig->op_field == 0 ? 1 : 0;
    for (int i = 0; i < n; i++) {
        if (i == ig->op_field) {
            names[i] = ig->a->op_column;
            if (!(types[i] = comb_type_new(&ig->arena, COMB_T_STRING))) {
                rc = comb_err_nomem(&ig->err);
                goto out;
            }
        } else {
            names[i] = l->names[k];
            types[i] = l->types[k++];
        }
    }
    rc = stream_record_parser_new(ig->a->format, ig->a->delimiter, n, names,
                                  types, &ig->parser, &ig->err);
    for (int b = 0; !rc && b < 2; b++)
        if (comb_batch_init_types(&ig->rows[b], n, types, COMB_BATCH_SIZE))
            rc = comb_err_nomem(&ig->err);
out:
    comb_free(names);
    comb_free(types);
    return rc;
}

/* The op of row `row`: OP_UPSERT or OP_DELETE, or -1 (err set). */
static int row_op(Ingest *ig, const CombBatch *b, int row, uint64_t line)
{
    const CombVector *v;
    char c;
    if (ig->op_field < 0)
        return OP_UPSERT;
    v = &b->cols[ig->op_field];
    if (!comb_vec_is_null(v, row) && v->str[row].len == 1) {
        c = (char)(v->str[row].ptr[0] | 32);
        if (c == 'i' || c == 'u' || c == 'c' || c == 'r')
            return OP_UPSERT;
        if (c == 'd')
            return OP_DELETE;
    }
    comb_err(&ig->err, COMB_EINVALID, "line %llu: column %s: '%.*s' is not "
             "an operation (I, U or D)", (unsigned long long)line,
             ig->a->op_column,
             comb_vec_is_null(v, row) ? 4 : (int)(v->str[row].len > 20
                                                      ? 20 : v->str[row].len),
             comb_vec_is_null(v, row) ? "NULL" : v->str[row].ptr);
    return -1;
}

/* Send rows [0, n) of the current batch to the connection. */
static int send_rows(Ingest *ig, int n)
{
    CombBatch *b = &ig->rows[ig->cur];
    CombBatch view = *b;
    int rc;
    if (n == 0)
        return COMB_OK;
    view.cols = b->cols + ig->first_col;
    view.n_cols = ig->lay->n_cols;
    view.n_rows = n;
    view.use_sel = false;
    rc = ig->batch_op == OP_DELETE ? comb_stream_delete(ig->s, &view, &ig->err)
                                   : comb_stream_write(ig->s, &view, &ig->err);
    if (rc)
        comb_err_prefix(&ig->err, "lines %llu and after: ",
                        (unsigned long long)ig->txn_first_line);
    return rc;
}

/* Row `from` of batch src into row 0 of dst, strings copied into dst's
 * arena (src is reset next). */
static int carry_row(CombBatch *dst, const CombBatch *src, int from)
{
    for (int i = 0; i < src->n_cols; i++) {
        const CombVector *s = &src->cols[i];
        CombVector *d = &dst->cols[i];
        if (comb_vec_is_null(s, from)) {
            comb_vec_set_null(d, 0);
            continue;
        }
        comb_vec_set_not_null(d, 0);
        if (s->i64)
            d->i64[0] = s->i64[from];
        if (s->f64)
            d->f64[0] = s->f64[from];
        if (s->dec)
            d->dec[0] = s->dec[from];
        if (s->nanos)
            d->nanos[0] = s->nanos[from];
        if (s->str) {
            char *p = s->str[from].len
                          ? comb_arena_alloc(&dst->arena, s->str[from].len)
                          : (char *)"";
            if (!p)
                return COMB_ENOMEM;
            memcpy(p, s->str[from].ptr, s->str[from].len);
            d->str[0] = (CombStr){p, s->str[from].len};
        }
    }
    dst->n_rows = 1;
    return COMB_OK;
}

/* Send the whole batch and empty it. */
static int flush_rows(Ingest *ig)
{
    CombBatch *b = &ig->rows[ig->cur];
    int rc = send_rows(ig, b->n_rows);
    comb_batch_reset(b);
    return rc;
}

static int begin_txn(Ingest *ig, uint64_t line)
{
    int rc = comb_stream_begin(ig->s, &ig->err);
    if (rc)
        return rc;
    ig->txn_open = true;
    ig->txn_rows = 0;
    ig->txn_start = now_s();
    ig->txn_first_line = line;
    return COMB_OK;
}

static int commit_txn(Ingest *ig)
{
    int rc;
    if (!ig->txn_open)
        return COMB_OK;
    rc = flush_rows(ig);
    ig->txn_open = false;
    if (rc) {
        CombErr e2;
        comb_stream_abort(ig->s, &e2);
        ig->aborted = true;
        return rc;
    }
    if ((rc = comb_stream_commit(ig->s, &ig->err)))
        ig->aborted = true;   /* a failed commit aborts the txn */
    return rc;
}

static void abort_txn(Ingest *ig)
{
    CombErr e2;
    comb_batch_reset(&ig->rows[ig->cur]);
    if (ig->txn_open && comb_stream_abort(ig->s, &e2))
        fprintf(stderr, "comb stream: %s\n", e2.msg);
    ig->aborted |= ig->txn_open;
    ig->txn_open = false;
}

/* A bad record: fatal, or skipped (row `row` of the batch left out). */
static int bad_record(Ingest *ig, uint64_t line)
{
    if (!ig->a->skip_errors)
        return COMB_EINVALID;
    if (ig->skipped < SKIP_LIST)
        ig->skipped_lines[ig->skipped] = line;
    if (ig->skipped < SKIP_MESSAGES)
        fprintf(stderr, "comb stream: skipped: %s\n", ig->err.msg);
    ig->skipped++;
    return COMB_OK;
}

/* One record, starting on line `line`, into the next row. */
static int ingest_record(Ingest *ig, const char *rec, size_t n, uint64_t line)
{
    CombBatch *b = &ig->rows[ig->cur];
    int row = b->n_rows, got, op, rc;
    got = stream_record_parse(ig->parser, rec, n, line, b, row, &ig->err);
    if (got == 0)
        return COMB_OK;
    if (got < 0)
        return -got == COMB_EINVALID ? bad_record(ig, line) : -got;
    if ((op = row_op(ig, b, row, line)) < 0)
        return bad_record(ig, line);
    if (!ig->txn_open && (rc = begin_txn(ig, line)))
        return rc;
    if (row > 0 && op != ig->batch_op) {
        /* rows of the other kind go first, in input order */
        CombBatch *other = &ig->rows[!ig->cur];
        if ((rc = send_rows(ig, row)))
            return rc;
        comb_batch_reset(other);
        if (carry_row(other, b, row))
            return comb_err_nomem(&ig->err);
        comb_batch_reset(b);
        ig->cur = !ig->cur;
        b = other;
    } else {
        b->n_rows++;
    }
    ig->batch_op = op;
    ig->records++;
    ig->txn_rows++;
    if (b->n_rows == b->capacity && (rc = flush_rows(ig)))
        return rc;
    if (ig->txn_rows >= ig->a->commit_rows)
        return commit_txn(ig);
    return COMB_OK;
}

/* ----------------------------------------------------------- the loop */

static void live_line(Ingest *ig, bool last)
{
    CombStreamStats st;
    double t = now_s(), el = t - ig->start;
    if (!ig->live || (!last && t - ig->last_live < 1.0))
        return;
    ig->last_live = t;
    comb_stream_stats(ig->s, &st);
    fprintf(stderr, "\r%lld rows, %.0f rows/s, %lld txns committed%s",
            (long long)ig->records, el > 0 ? (double)ig->records / el : 0.0,
            (long long)st.txns_committed, last ? "\n" : "");
}

/* Milliseconds poll may wait: until the txn's interval ends, or a
 * second. */
static int poll_timeout(const Ingest *ig)
{
    double wait = -1;
    if (ig->txn_open && ig->a->commit_interval > 0) {
        wait = ig->txn_start + ig->a->commit_interval - now_s();
        if (wait < 0)
            wait = 0;
    }
    /* at least once a second: the live line, and a signal that came
     * just before poll */
    if (wait < 0 || wait > 1.0)
        wait = 1.0;
    return (int)(wait * 1000) + 1;
}

typedef struct Input {
    int fd;
    char *buf;
    size_t len, cap;
    bool eof;
    bool bom_seen;   /* the start was looked at for a byte-order mark */
    uint64_t line;   /* line of the next record */
} Input;

/* A UTF-8 byte-order mark at the start of input (spreadsheets write one
 * before CSV) is no part of the first field.  False while too few bytes
 * have come to tell. */
static bool drop_bom(Input *in)
{
    static const char bom[] = "\xEF\xBB\xBF";
    if (in->bom_seen)
        return true;
    if (in->len < 3 && !in->eof &&
        memcmp(in->buf ? in->buf : "", bom, in->len) == 0)
        return false;
    if (in->len >= 3 && memcmp(in->buf, bom, 3) == 0) {
        memmove(in->buf, in->buf + 3, in->len - 3);
        in->len -= 3;
    }
    in->bom_seen = true;
    return true;
}

/* Cut and ingest every whole record in the buffer. */
static int drain(Ingest *ig, Input *in)
{
    size_t pos = 0, len, used;
    int lines, rc = COMB_OK;
    if (!drop_bom(in))
        return COMB_OK;
    while (!rc && stream_record_split(ig->parser, in->buf + pos,
                                      in->len - pos, in->eof, &len, &used,
                                      &lines)) {
        rc = ingest_record(ig, in->buf + pos, len, in->line);
        pos += used;
        in->line += (uint64_t)lines;
    }
    memmove(in->buf, in->buf + pos, in->len - pos);
    in->len -= pos;
    if (!rc && in->len > MAX_RECORD)
        rc = comb_err(&ig->err, COMB_EINVALID, "line %llu: a record longer "
                      "than %u MiB (a line end missing?)",
                      (unsigned long long)in->line, MAX_RECORD >> 20);
    return rc;
}

/* Read what the input has now, waiting at most the poll time-out. */
static int fill(Ingest *ig, Input *in)
{
    struct pollfd pfd = {in->fd, POLLIN, 0};
    ssize_t got;
    int ready = poll(&pfd, 1, poll_timeout(ig));
    if (ready < 0)
        return errno == EINTR ? COMB_OK
                              : comb_err(&ig->err, COMB_EIO, "poll: %s",
                                         strerror(errno));
    if (ready == 0)
        return COMB_OK;
    if (in->cap - in->len < READ_CHUNK) {
        char *nb = comb_realloc(in->buf, in->cap + READ_CHUNK);
        if (!nb)
            return comb_err_nomem(&ig->err);
        in->buf = nb;
        in->cap += READ_CHUNK;
    }
    got = read(in->fd, in->buf + in->len, in->cap - in->len);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN
                   ? COMB_OK
                   : comb_err(&ig->err, COMB_EIO, "reading %s: %s",
                              ig->a->input ? ig->a->input : "standard input",
                              strerror(errno));
    if (got == 0)
        in->eof = true;
    in->len += (size_t)got;
    return COMB_OK;
}

static int run_loop(Ingest *ig, Input *in)
{
    int rc = COMB_OK;
    while (!rc) {
        if ((rc = fill(ig, in)) || (rc = drain(ig, in)))
            break;
        if (ig->txn_open && ig->a->commit_interval > 0 &&
            now_s() - ig->txn_start >= ig->a->commit_interval)
            rc = commit_txn(ig);
        live_line(ig, false);
        if (in->eof || stop_signal)
            break;
    }
    if (!rc)
        rc = commit_txn(ig);
    return rc;
}

static void report(Ingest *ig, const Input *in, int rc)
{
    CombStreamStats st;
    live_line(ig, true);
    comb_stream_stats(ig->s, &st);
    if (rc)
        fprintf(stderr, "comb stream: %s\n", ig->err.msg);
    if (ig->skipped) {
        fprintf(stderr, "comb stream: %lld record%s skipped (line%s",
                (long long)ig->skipped, ig->skipped == 1 ? "" : "s",
                ig->skipped == 1 ? "" : "s");
        for (int64_t i = 0; i < ig->skipped && i < SKIP_LIST; i++)
            fprintf(stderr, "%s%llu", i ? ", " : " ",
                    (unsigned long long)ig->skipped_lines[i]);
        fprintf(stderr, "%s)\n", ig->skipped > SKIP_LIST ? ", ..." : "");
    }
    if (stop_signal && !ig->a->quiet)
        fprintf(stderr, "comb stream: stopped by signal %d\n",
                (int)stop_signal);
    if (!rc && in->len > 0)   /* a signal came in the middle of a record */
        fprintf(stderr, "comb stream: the incomplete record of line %llu "
                "(%zu bytes, no line end yet) was not written\n",
                (unsigned long long)in->line, in->len);
    if (!ig->a->quiet || rc)
        fprintf(stderr, "comb stream: %lld rows written, %lld deleted by "
                "key, in %lld txns committed to %s.%s%s\n",
                (long long)st.rows_written, (long long)st.rows_deleted,
                (long long)st.txns_committed, ig->a->db, ig->a->table,
                ig->aborted ? " (the last txn aborted)" : "");
}

static int open_input(const StreamArgs *a, Input *in)
{
    in->fd = STDIN_FILENO;
    in->line = 1;
    if (a->input && (in->fd = open(a->input, O_RDONLY | O_CLOEXEC)) < 0) {
        fprintf(stderr, "comb stream: cannot open '%s': %s\n", a->input,
                strerror(errno));
        return 1;
    }
    return 0;
}

static int ingest(StreamArgs *a, CombStreamOptions *so)
{
    Ingest ig = {.a = a};
    Input in = {0};
    struct sigaction sa;
    int rc;
    if (open_input(a, &in))
        return 1;
    comb_arena_init(&ig.arena, 256);
    if ((rc = comb_stream_open(so, &ig.s, &ig.err))) {
        fprintf(stderr, "comb stream: %s\n", ig.err.msg);
        comb_arena_free(&ig.arena);
        if (a->input)
            close(in.fd);
        return 1;
    }
    ig.lay = comb_stream_layout(ig.s);
    rc = ingest_parser(&ig);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;   /* no SA_RESTART: poll returns EINTR */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    ig.start = ig.last_live = now_s();
    ig.live = !a->quiet && isatty(STDERR_FILENO);
    if (!rc)
        rc = run_loop(&ig, &in);
    if (rc)
        abort_txn(&ig);
    report(&ig, &in, rc);
    for (int b = 0; b < 2; b++)
        if (ig.rows[b].cols)
            comb_batch_free(&ig.rows[b]);
    stream_record_parser_free(ig.parser);
    if (comb_stream_close(ig.s, &ig.err) && !rc) {
        fprintf(stderr, "comb stream: %s\n", ig.err.msg);
        rc = 1;
    }
    comb_free(in.buf);
    comb_arena_free(&ig.arena);
    if (a->input)
        close(in.fd);
    return rc ? 1 : 0;
}

/* hive.txn.timeout as a session of this warehouse would have it, so that
 * the housekeepers of other comb processes and this connection's
 * heartbeats agree; 0 (the connection's default) when no session opens. */
static int64_t txn_timeout_ms(const char *warehouse, const char *metastore,
                              char *const *confs, int n_confs)
{
    SqlSessionOptions so = {.warehouse = warehouse, .metastore = metastore};
    SqlSession *s;
    CombErr err;
    int64_t ms = 0;
    if (sql_session_open(&so, &s, &err))
        return 0;
    for (int i = 0; i < n_confs; i++) {
        const char *eq = confs[i] ? strchr(confs[i], '=') : NULL;
        char *key = eq ? comb_strndup(confs[i], (size_t)(eq - confs[i]))
                       : NULL;
        if (key)
            sql_session_set_conf(s, key, eq + 1, &err);
        comb_free(key);
    }
    ms = sql_session_txn_timeout_ms(s);
    sql_session_close(s);
    return ms;
}

int cli_stream(const char *warehouse, const char *metastore,
               char *const *confs, int n_confs, int argc, char **argv)
{
    StreamArgs a = {.warehouse = warehouse, .metastore = metastore,
                    .format = STREAM_REC_CSV,
                    .batch_size = 10, .commit_rows = 10000,
                    .commit_interval = 1.0};
    CombStreamOptions so = {0};
    char *keys_s = NULL, *part_s = NULL, **keys = NULL, **vals = NULL;
    int rc = parse_args(argc, argv, &a), n_keys = 0, n_vals = 0;
    CombErr err;
    if (rc)
        goto out;
    if (a.upsert_key && (!(keys_s = comb_strdup(a.upsert_key)) ||
                         split_list(keys_s, &keys, &n_keys))) {
        rc = 1;
        goto out;
    }
    if (a.partition) {
        if (!(part_s = comb_strdup(a.partition)) ||
            partition_values(&a, part_s, &vals, &n_vals, &err)) {
            fprintf(stderr, "comb stream: %s\n",
                    part_s ? err.msg : "out of memory");
            rc = 1;
            goto out;
        }
    }
    so.warehouse = warehouse;
    so.metastore = metastore;
    so.db = a.db;
    so.table = a.table;
    so.n_part_values = n_vals;
    so.part_values = (const char *const *)vals;
    so.batch_size = a.batch_size;
    so.n_upsert_keys = n_keys;
    so.upsert_keys = (const char *const *)keys;
    so.agent_info = "comb stream";
    so.txn_timeout_ms = txn_timeout_ms(warehouse, metastore, confs, n_confs);
    rc = ingest(&a, &so);
out:
    comb_free(keys);
    comb_free(keys_s);
    comb_free(vals);
    comb_free(part_s);
    comb_free(a.db);
    comb_free(a.table);
    return rc < 0 ? 0 : rc;
}
