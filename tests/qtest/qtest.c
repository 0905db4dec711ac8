/*
 * qtest.c - runs one of Hive's own .q test scripts through a comb session
 * and compares every statement's result rows with Hive's recorded .q.out
 * (../shared/testdata/hive-qtests, whose README gives the format rules).
 *
 *   qtest [-v] FILE.q [WAREHOUSE_DIR]
 *
 * Statements are taken from the .q file in order (set and dfs lines are
 * run/skipped as Hive's harness does) and matched one-to-one with the
 * "PREHOOK: query:" blocks of the .q.out.  Result lines are compared as
 * Hive prints them in tests: no header, TAB between columns, NULL as NULL.
 * Files marked SORT_QUERY_RESULTS, and queries without ORDER BY, are
 * compared as sorted line sets; DESCRIBE and SHOW output (which Hive never
 * sorts) in order.  Masked values (### ... ###) inside a line match
 * anything; a whole masked line ("#### A masked pattern was here ####",
 * which Hive's harness writes once for a run of masked lines) inside a
 * statement's output stands for one or more lines there, at the end of it
 * for any number.  EXPLAIN must run but its plan is not compared (Hive's
 * plans are Hive's).  The session runs as Hive's CLI does: DESCRIBE and
 * SHOW text padded (comb.ddl.padded), their NULL fields printed as " "
 * (the null format of Hive's DDL results).  Hive's CLI writes the titles
 * of SHOW LOCKS, SHOW TRANSACTIONS and SHOW COMPACTIONS as a first row of
 * text; comb makes them its result's column names, so the harness writes
 * them as that row (title_row).  A "--! qt:replace:/REGEX/TEXT/" line of
 * the .q file rewrites every result line as Hive's harness does (Java's
 * $1 group references; pcre2_substitute, every match).  Exit status 0
 * when every statement ran and matched.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "common/alloc.h"
#include "common/buf.h"
#include "fs/fs.h"
#include "sql/func/value.h"
#include "sql/parse/ast.h"
#include "sql/session.h"

typedef struct Lines {
    int n, cap;
    char **v;           /* heap strings */
} Lines;

static void lines_add(Lines *l, const char *s, size_t n)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        if (!l->v)
            exit(3);
    }
    l->v[l->n] = strndup(s, n);
    if (!l->v[l->n])
        exit(3);
    l->n++;
}

static void lines_free(Lines *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    CombBuf b = COMB_BUF_INIT;
    char chunk[65536];
    size_t n;
    if (!f)
        return NULL;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        comb_buf_append(&b, chunk, n);
    fclose(f);
    comb_buf_append_byte(&b, '\0');
    return (char *)b.data;
}

/* ------------------------------------------------------------ .q.out side */

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

#define MASK_LINE "#### A masked pattern was here ####"

static bool is_hook_line(const char *s)
{
    return starts(s, "PREHOOK: ") || starts(s, "POSTHOOK: ") ||
           starts(s, "#### A masked");
}

/* A whole-line mask "### ... ###" or a line the README says to drop. */
static bool is_dropped(const char *s)
{
    size_t n = strlen(s);
    if (!strcmp(s, "#### A masked pattern was here ####"))
        return true;
    if (starts(s, "Warning: "))
        return true;
    return n >= 6 && starts(s, "###") && !strcmp(s + n - 3, "###") &&
           !strchr(s, '\t');
}

/* Expected output of each statement block, in order. */
static int parse_qout(char *text, Lines **blocks, int *n_blocks)
{
    int cap = 0, n = -1, query_lines = 0;
    enum { IN_QUERY, IN_HOOKS, IN_POSTQUERY, IN_OUTPUT } st = IN_OUTPUT;
    int post_left = 0;
    char *line = text, *next;
    *blocks = NULL;
    for (; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (starts(line, "PREHOOK: query: ")) {
            if (++n == cap) {
                cap = cap ? cap * 2 : 32;
                *blocks = realloc(*blocks, (size_t)cap * sizeof **blocks);
                if (!*blocks)
                    exit(3);
            }
            memset(&(*blocks)[n], 0, sizeof **blocks);
            st = IN_QUERY;
            query_lines = 1;
            continue;
        }
        if (n < 0)
            continue;
        if (st == IN_QUERY && !is_hook_line(line)) {
            query_lines++;
            continue;
        }
        if (st == IN_POSTQUERY && post_left > 0) {
            post_left--;
            continue;
        }
        if (starts(line, "POSTHOOK: query: ")) {
            st = IN_POSTQUERY;
            post_left = query_lines - 1;
            continue;
        }
        /* a mask among the output lines stands for lines of it */
        if (!strcmp(line, MASK_LINE) && st == IN_OUTPUT && (*blocks)[n].n > 0) {
            lines_add(&(*blocks)[n], line, strlen(line));
            continue;
        }
        if (is_hook_line(line)) {
            st = IN_HOOKS;
            continue;
        }
        st = IN_OUTPUT;
        if (!is_dropped(line))
            lines_add(&(*blocks)[n], line, strlen(line));
    }
    *n_blocks = n + 1;
    return 0;
}

/* ---------------------------------------------------------------- running */

typedef struct Capture {
    bool ddl;           /* NULL prints as " ", as in Hive's DDL results */
    bool titles;        /* the column names are Hive's first row */
    int n_cols;
    CombTypeKind kinds[256];
    Lines rows;
    Lines info;
} Capture;

/* SHOW COMPACTIONS as the .q.out's Hive (December 2020) printed it: 13
 * columns under these titles.  comb prints Hive 4.0's layout, which
 * appended the initiator, pool, txn and write id columns after them and
 * renamed "Hostname" to "Worker host"; its column names are Hive 4.0's
 * schema names (compactionid, dbname, ...).  The harness compares the
 * columns that Hive had. */
static const char *const compactions_2020[] = {
    "CompactionId", "Database", "Table", "Partition", "Type", "State",
    "Hostname", "Worker", "Enqueue Time", "Start Time", "Duration(ms)",
    "HadoopJobId", "Error message"};
#define N_COMPACTIONS_2020 13

static int cap_begin(void *ctx, int n_cols, const char *const *names,
                     const CombTypeKind *kinds, CombErr *err)
{
    Capture *c = ctx;
    bool compactions = n_cols > 0 && !strcmp(names[0], "compactionid");
    CombBuf line = COMB_BUF_INIT;
    (void)err;
    c->n_cols = n_cols < 256 ? n_cols : 256;
    if (c->titles && compactions && c->n_cols > N_COMPACTIONS_2020)
        c->n_cols = N_COMPACTIONS_2020;
    memcpy(c->kinds, kinds, (size_t)c->n_cols * sizeof *kinds);
    if (!c->titles)
        return 0;
    for (int j = 0; j < c->n_cols; j++) {
        if (j)
            comb_buf_append_byte(&line, '\t');
        comb_buf_append_str(&line, compactions ? compactions_2020[j] : names[j]);
    }
    lines_add(&c->rows, line.data ? (char *)line.data : "", line.len);
    comb_buf_free(&line);
    return 0;
}

static int cap_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    Capture *c = ctx;
    CombBuf line = COMB_BUF_INIT;
    (void)err;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i);
        comb_buf_clear(&line);
        for (int j = 0; j < c->n_cols; j++) {
            const CombVector *v = &b->cols[j];
            char buf[64];
            if (j)
                comb_buf_append_byte(&line, '\t');
            if (comb_vec_is_null(v, row) || c->kinds[j] == COMB_T_NULL)
                comb_buf_append_str(&line, c->ddl ? " " : "NULL");
            else if (comb_type_is_str(c->kinds[j]))
                comb_buf_append(&line, v->str[row].ptr, v->str[row].len);
            else if (!comb_type_is_primitive(c->kinds[j]))
                sql_format_value(v, row, &line);   /* Hive's JSON text */
            else {
                sql_format_scalar(c->kinds[j], v, row, buf, sizeof buf);
                comb_buf_append_str(&line, buf);
            }
        }
        lines_add(&c->rows, line.data ? (char *)line.data : "", line.len);
    }
    comb_buf_free(&line);
    return 0;
}

static int cap_info(void *ctx, const char *text, CombErr *err)
{
    (void)err;
    lines_add(&((Capture *)ctx)->info, text, strlen(text));
    return 0;
}

/* A '### masked ###' part of an expected line matches any text, and so
 * does Hive's whole-line mask text inside a line (DESCRIBE FORMATTED's
 * "Constraint Name:    \t#### A masked pattern was here ####\t "). */
static bool line_matches(const char *want, const char *got)
{
    const char *m = strstr(want, MASK_LINE);
    const char *end;
    if (m) {
        end = m + strlen(MASK_LINE);
    } else {
        if (!(m = strstr(want, "### ")) || !(end = strstr(m + 4, " ###")))
            return strcmp(want, got) == 0;
        end += 4;
    }
    if (strncmp(want, got, (size_t)(m - want)) != 0)
        return false;
    got += m - want;
    /* the masked value runs up to the next character the line wants */
    for (const char *g = got; ; g++) {
        if (line_matches(end, g))
            return true;
        if (!*g)
            return false;
    }
}

/* want[wi..] against got[gi..] in order: a run of mask lines matches one
 * or more lines, any number at the end (dfs output, dropped here, lands
 * there). */
static bool match_from(const Lines *want, int wi, const Lines *got, int gi)
{
    if (wi == want->n)
        return gi == got->n;
    if (strcmp(want->v[wi], MASK_LINE) == 0) {
        while (wi + 1 < want->n && strcmp(want->v[wi + 1], MASK_LINE) == 0)
            wi++;
        if (wi + 1 == want->n)
            return true;
        for (int k = gi + 1; k <= got->n; k++)
            if (match_from(want, wi + 1, got, k))
                return true;
        return false;
    }
    return gi < got->n && line_matches(want->v[wi], got->v[gi]) &&
           match_from(want, wi + 1, got, gi + 1);
}

static bool compare(Lines *want, Lines *got, bool sorted)
{
    if (!sorted)
        return match_from(want, 0, got, 0);
    /* sorted sets: masked lines say nothing about their place */
    for (int i = 0; i < want->n; i++)
        if (strcmp(want->v[i], MASK_LINE) == 0) {
            free(want->v[i]);
            memmove(&want->v[i], &want->v[i + 1],
                    (size_t)(want->n - i - 1) * sizeof *want->v);
            want->n--;
            i--;
        }
    if (want->n != got->n)
        return false;
    if (want->n > 1) {
        qsort(want->v, (size_t)want->n, sizeof *want->v, cmp_str);
        qsort(got->v, (size_t)got->n, sizeof *got->v, cmp_str);
    }
    for (int i = 0; i < want->n; i++)
        if (!line_matches(want->v[i], got->v[i]))
            return false;
    return true;
}

static void show(const char *label, const Lines *l)
{
    fprintf(stderr, "  %s (%d lines):\n", label, l->n);
    for (int i = 0; i < l->n && i < 40; i++)
        fprintf(stderr, "    |%s|\n", l->v[i]);
}

/* Compare one statement's rows with its block; 1 on mismatch. */
static int check_block(Lines *want, Lines *got, bool sorted, const char *text,
                       bool verbose, int number)
{
    if (compare(want, got, sorted)) {
        if (verbose)
            fprintf(stderr, "ok   statement %d (%d rows)\n", number, got->n);
        return 0;
    }
    fprintf(stderr, "FAIL statement %d: %.200s\n", number, text);
    show("expected", want);
    show("got", got);
    return 1;
}

/* Remove the "key=value" echo of a bare "set key" from a block. */
static void drop_set_echo(Lines *block, const char *set_stmt)
{
    char key[256];
    size_t n;
    const char *k = set_stmt + 3;
    while (*k == ' ')
        k++;
    n = strcspn(k, " =;\n");
    if (k[n] == '=' || n == 0 || n >= sizeof key - 1)
        return;
    memcpy(key, k, n);
    key[n] = '=';
    key[n + 1] = '\0';
    for (int i = 0; i < block->n; i++)
        if (starts(block->v[i], key)) {
            free(block->v[i]);
            memmove(&block->v[i], &block->v[i + 1],
                    (size_t)(block->n - i - 1) * sizeof *block->v);
            block->n--;
            i--;
        }
}

/* Statements of the .q file that Hive's harness echoes (not set/dfs). */
static bool is_harness_only(const char *stmt)
{
    while (*stmt == ' ' || *stmt == '\n' || *stmt == '\t')
        stmt++;
    return strncasecmp(stmt, "dfs ", 4) == 0;
}

/* DESCRIBE and SHOW: their rows are DDL text (never sorted by Hive). */
static bool is_ddl_output(const char *stmt)
{
    return strncasecmp(stmt, "describe", 8) == 0 ||
           strncasecmp(stmt, "desc ", 5) == 0 ||
           strncasecmp(stmt, "show", 4) == 0;
}

/* Statements whose column titles Hive's CLI prints as a row. */
static bool is_titled(const char *stmt)
{
    static const char *const kinds[] = {"locks", "transactions",
                                        "compactions"};
    const char *p = stmt + 4;
    if (strncasecmp(stmt, "show", 4) != 0 || !strchr(" \t\n", *p))
        return false;
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i]);
        if (strncasecmp(p, kinds[i], n) == 0 &&
            (!p[n] || strchr(" \t\n;", p[n])))
            return true;
    }
    return false;
}

/* ------------------------------------------------------- qt:replace */

typedef struct Replace {
    pcre2_code *re;
    char *with;         /* the replacement, $N referring to groups */
} Replace;

typedef struct Replaces {
    int n;
    Replace v[16];
} Replaces;

/* Every "--! qt:replace:/REGEX/TEXT/" line of the .q file (the regex
 * holds no unescaped '/'; Hive's harness splits at them too). */
static int replaces_parse(const char *q, Replaces *out)
{
    static const char key[] = "--! qt:replace:/";
    const char *p = q;
    out->n = 0;
    while ((p = strstr(p, key))) {
        const char *re = p + sizeof key - 1, *mid = strchr(re, '/'), *end;
        int code;
        PCRE2_SIZE at;
        if (!mid || !(end = strchr(mid + 1, '/')) || out->n == 16) {
            fprintf(stderr, "qtest: bad qt:replace line\n");
            return -1;
        }
        out->v[out->n].re = pcre2_compile((PCRE2_SPTR)re, (size_t)(mid - re),
                                          0, &code, &at, NULL);
        if (!out->v[out->n].re) {
            fprintf(stderr, "qtest: qt:replace regex does not compile at %zu\n",
                    (size_t)at);
            return -1;
        }
        out->v[out->n++].with = strndup(mid + 1, (size_t)(end - mid - 1));
        p = end;
    }
    return 0;
}

static void replaces_free(Replaces *r)
{
    for (int i = 0; i < r->n; i++) {
        pcre2_code_free(r->v[i].re);
        free(r->v[i].with);
    }
    r->n = 0;
}

/* Apply every replacement to every line of l. */
static void replaces_apply(const Replaces *r, Lines *l)
{
    for (int i = 0; i < l->n; i++)
        for (int k = 0; k < r->n; k++) {
            char out[8192];
            PCRE2_SIZE n = sizeof out;
            int rc = pcre2_substitute(
                r->v[k].re, (PCRE2_SPTR)l->v[i], PCRE2_ZERO_TERMINATED, 0,
                PCRE2_SUBSTITUTE_GLOBAL, NULL, NULL, (PCRE2_SPTR)r->v[k].with,
                PCRE2_ZERO_TERMINATED, (PCRE2_UCHAR *)out, &n);
            if (rc > 0) {
                free(l->v[i]);
                if (!(l->v[i] = strndup(out, n)))
                    exit(3);
            }
        }
}

static bool is_set(const char *stmt)
{
    return strncasecmp(stmt, "set ", 4) == 0 || strncasecmp(stmt, "set\n", 4) == 0;
}

/* Statements whose text holds a file path: Hive's harness masks their
 * query line, so they have no "PREHOOK: query:" block of their own (their
 * hook lines land in the previous block). */
static bool is_masked_statement(const char *stmt)
{
    return strstr(stmt, "${system:test.tmp.dir}") != NULL ||
           strncasecmp(stmt, "load data local inpath", 22) == 0;
}

/* The statement as comb runs it: Hive's test directory is the warehouse's
 * "tmp" folder, Hadoop's test-only "pfile:" scheme the local file system
 * ("file:"), and Hive's data files, which its harness reaches from its
 * working directory itests/qtest as ../../data/files/, the data/files/
 * folder next to the .q files (hive-qtests/README.md). */
static char *harness_text(const char *stmt, const char *tmp_dir,
                          const char *data_dir)
{
    static const char *const from[] = {"${system:test.tmp.dir}", "pfile:",
                                       "'../../data/files/"};
    const char *to[] = {tmp_dir, "file:", data_dir};
    CombBuf b = COMB_BUF_INIT;
    const char *p = stmt;
    while (*p) {
        size_t i;
        for (i = 0; i < 3 && !starts(p, from[i]); i++)
            ;
        if (i < 3) {
            comb_buf_append_str(&b, to[i]);
            p += strlen(from[i]);
        } else {
            comb_buf_append_byte(&b, (uint8_t)*p++);
        }
    }
    comb_buf_append_byte(&b, '\0');
    return (char *)b.data;
}

/* Hive's plans cannot be compared with comb's: an EXPLAIN only has to
 * run. */
static bool is_explain(const char *stmt)
{
    return strncasecmp(stmt, "explain", 7) == 0 &&
           (stmt[7] == ' ' || stmt[7] == '\n' || stmt[7] == '\t');
}

static const char *skip_space_comments(const char *p)
{
    for (;;) {
        while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
            p++;
        if (p[0] == '-' && p[1] == '-') {
            while (*p && *p != '\n')
                p++;
            continue;
        }
        return p;
    }
}

int main(int argc, char **argv)
{
    bool verbose = argc > 1 && !strcmp(argv[1], "-v");
    const char *qfile = argv[verbose ? 2 : 1];
    char tmpl[] = "/tmp/comb-qtest.XXXXXX";
    const char *wh = argc > (verbose ? 3 : 2) ? argv[verbose ? 3 : 2] : mkdtemp(tmpl);
    char outpath[4096], tmp_dir[4096], data_dir[4096];
    const char *slash;
    char *q, *qout;
    Lines *blocks;
    int n_blocks, block = 0, failures = 0, compared = 0;
    SqlSessionOptions opt = {wh, "hive_test_user"};
    SqlSession *s;
    CombErr err;
    size_t pos = 0, len, end;
    bool sort_all, pending_sorted = false;
    Replaces replaces;
    int pending = -1;           /* block whose comparison waits for the next statement */
    Lines pending_rows = {0};
    char *pending_text = NULL;

    if (argc < 2 || !wh) {
        fprintf(stderr, "usage: qtest [-v] FILE.q [WAREHOUSE]\n");
        return 2;
    }
    snprintf(outpath, sizeof outpath, "%s.out", qfile);
    q = slurp(qfile);
    qout = slurp(outpath);
    if (!q || !qout) {
        fprintf(stderr, "qtest: cannot read %s or %s\n", qfile, outpath);
        return 2;
    }
    sort_all = strstr(q, "SORT_QUERY_RESULTS") != NULL;
    if (replaces_parse(q, &replaces))
        return 2;
    snprintf(tmp_dir, sizeof tmp_dir, "%s/tmp", wh);
    slash = strrchr(qfile, '/');
    snprintf(data_dir, sizeof data_dir, "'%.*s%sdata/files/",
             slash ? (int)(slash - qfile) : 0, qfile, slash ? "/" : "");
    parse_qout(qout, &blocks, &n_blocks);
    if (sql_session_open(&opt, &s, &err) ||
        sql_session_set_conf(s, "comb.ddl.padded", "true", &err)) {
        fprintf(stderr, "qtest: %s\n", err.msg);
        return 2;
    }
    len = strlen(q);
    while (pos < len && sql_next_statement(q + pos, len - pos, &end)) {
        char *stmt = strndup(q + pos, end);
        const char *text = skip_space_comments(stmt);
        Capture cap = {0};
        SqlSink sink = {&cap, cap_begin, cap_batch, NULL, cap_info};
        char *run;
        int rc;
        pos += end;
        if (!*text || sql_is_blank(text, strlen(text)) || is_harness_only(text)) {
            free(stmt);
            continue;
        }
        cap.ddl = is_ddl_output(text);
        cap.titles = is_titled(text);
        run = harness_text(text, tmp_dir, data_dir);
        rc = sql_session_execute(s, run, strlen(run), &sink, &err);
        comb_free(run);
        if (is_masked_statement(text) && !rc) {
            if (verbose)
                fprintf(stderr, "ok   masked statement: %.60s\n", text);
        } else if (is_masked_statement(text)) {
            fprintf(stderr, "FAIL masked statement: %.200s\n  error: %s\n", text,
                    err.msg);
            failures++;
        } else if (is_set(text)) {
            /* Hive prints a bare "set key;" after the previous statement's
             * rows; that line is the harness's, not the query's */
            if (pending >= 0)
                drop_set_echo(&blocks[pending], text);
        } else {
            if (pending >= 0)
                failures += check_block(&blocks[pending], &pending_rows,
                                        pending_sorted, pending_text, verbose,
                                        pending + 1);
            lines_free(&pending_rows);
            free(pending_text);
            pending = -1;
            pending_text = NULL;
            if (block >= n_blocks) {
                fprintf(stderr, "qtest: more statements than .q.out blocks\n");
                failures++;
            } else if (rc) {
                fprintf(stderr, "FAIL statement %d: %.200s\n  error: %s\n", block + 1,
                        text, err.msg);
                failures++;
            } else if (is_explain(text)) {
                if (verbose)
                    fprintf(stderr, "ok   statement %d (EXPLAIN, not compared)\n",
                            block + 1);
            } else {
                compared++;
                replaces_apply(&replaces, &cap.rows);
                pending = block;
                pending_rows = cap.rows;
                memset(&cap.rows, 0, sizeof cap.rows);
                pending_sorted = !cap.ddl &&
                                 (sort_all || !strcasestr(text, "order by"));
                pending_text = strdup(text);
            }
            block++;
        }
        lines_free(&cap.rows);
        lines_free(&cap.info);
        free(stmt);
    }
    if (pending >= 0)
        failures += check_block(&blocks[pending], &pending_rows, pending_sorted,
                                pending_text, verbose, pending + 1);
    lines_free(&pending_rows);
    free(pending_text);
    if (block != n_blocks) {
        fprintf(stderr, "qtest: %d statements but %d .q.out blocks\n", block, n_blocks);
        failures++;
    }
    printf("%s: %d statements, %d compared, %d failed\n", qfile, block, compared, failures);
    sql_session_close(s);
    replaces_free(&replaces);
    for (int i = 0; i < n_blocks; i++)
        lines_free(&blocks[i]);
    free(blocks);
    comb_free(q);
    comb_free(qout);
    if (argc <= (verbose ? 3 : 2))
        fs_remove_tree(wh, &err);
    return failures ? 1 : 0;
}
