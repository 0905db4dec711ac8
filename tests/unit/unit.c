/*
 * unit.c - runner for the tests registered with TEST().
 */
#include "unit.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "fs/fs.h"

#define MAX_TESTS 2048

static struct {
    const char *name[MAX_TESTS];
    UnitFn fn[MAX_TESTS];
    int n;
    int failed_now;
    char tmp_root[256];
    char tmp_cur[512];
    int tmp_seq;
} unit;

void unit_register(const char *name, UnitFn fn)
{
    if (unit.n == MAX_TESTS) {
        fprintf(stderr, "too many tests\n");
        exit(2);
    }
    unit.name[unit.n] = name;
    unit.fn[unit.n] = fn;
    unit.n++;
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stdout, "    %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    unit.failed_now = 1;
}

int unit_failed_now(void) { return unit.failed_now; }

static int skipped_now;

const char *unit_testdata(void)
{
    const char *d = getenv("COMB_TESTDATA");
    return d ? d : "../shared/testdata";
}

void unit_skip(const char *why)
{
    printf("    %s\n", why);
    skipped_now = 1;
}

int unit_skip_without_testdata(void)
{
    char why[600];
    if (fs_is_dir(unit_testdata()))
        return 0;
    snprintf(why, sizeof why, "no shared test data at %s", unit_testdata());
    unit_skip(why);
    return 1;
}

long long unit_sqlite_int(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    long long v = -1;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) ==
            SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return v;
}

const char *unit_tmpdir(void)
{
    CombErr err;
    snprintf(unit.tmp_cur, sizeof unit.tmp_cur, "%s/t%d", unit.tmp_root,
             ++unit.tmp_seq);
    fs_remove_tree(unit.tmp_cur, &err);
    if (fs_mkdirs(unit.tmp_cur, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    return unit.tmp_cur;
}

/* COMB_UNIT_SHARD=k/n runs the tests whose name hashes to k modulo n
 * (0 <= k < n), so that tests/run.sh can spread one binary over several
 * cores.  By name, not position: tests come in families (a SQLite and a
 * PostgreSQL variant next to each other) that every n-th would split by
 * kind. */
static unsigned name_hash(const char *s)
{
    unsigned h = 2166136261u;   /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void shard_of_env(int *k, int *n)
{
    const char *s = getenv("COMB_UNIT_SHARD");
    *k = 0;
    *n = 1;
    if (s && (sscanf(s, "%d/%d", k, n) != 2 || *n < 1 || *k < 0 || *k >= *n)) {
        fprintf(stderr, "COMB_UNIT_SHARD=%s: expected k/n with 0 <= k < n\n",
                s);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, skipped = 0;
    int shard, shards;
    CombErr err;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(unit.tmp_root, sizeof unit.tmp_root, "%s/comb-unit-%d", base,
             (int)getpid());
    shard_of_env(&shard, &shards);
    for (int i = 0; i < unit.n; i++) {
        if (name_hash(unit.name[i]) % (unsigned)shards != (unsigned)shard)
            continue;
        if (argc > 1 && !strstr(unit.name[i], argv[1]))
            continue;
        unit.failed_now = 0;
        skipped_now = 0;
        unit.fn[i]();
        if (unit.failed_now) {
            printf("not ok - %s\n", unit.name[i]);
            failed++;
        } else if (skipped_now) {
            printf("skip - %s\n", unit.name[i]);
            skipped++;
        } else {
            printf("ok - %s\n", unit.name[i]);
            passed++;
        }
        fflush(stdout);
    }
    fs_remove_tree(unit.tmp_root, &err);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
