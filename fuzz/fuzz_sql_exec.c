/*
 * fuzz_sql_exec.c - statements run end to end (bind, plan, execute, write
 * and read ACID files) on a small fresh warehouse: any input must end in a
 * result or an error, never a crash, a leak or a sanitizer report.  Slower
 * than the parser target (each input gets its own warehouse), so it finds
 * what the binder and executor do with odd but parseable statements.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "fs/fs.h"
#include "sql/parse/ast.h"
#include "sql/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const setup[] = {
    "CREATE TABLE t (a INT, b STRING, c DOUBLE, d BOOLEAN, e BIGINT) "
    "CLUSTERED BY (a) INTO 2 BUCKETS TBLPROPERTIES ('transactional'='true')",
    "INSERT INTO t VALUES (1, 'x', 1.5, true, 10), (2, NULL, -2.0, false, NULL), "
    "(3, 'zz', NULL, NULL, 30)",
    "DELETE FROM t WHERE a = 2",
    "CREATE TABLE u (k VARCHAR(4), v CHAR(2)) TBLPROPERTIES ('transactional'='true')",
    "CREATE TABLE w (f FLOAT, ty TINYINT, sm SMALLINT, ch CHAR(3), dd DOUBLE) "
    "TBLPROPERTIES ('transactional'='true')",
    "INSERT INTO w VALUES (0.1, -128, 32767, 'a', CAST('NaN' AS DOUBLE)), "
    "(NULL, 1, NULL, NULL, -0.0), (-3.5, NULL, -1, 'abc', NULL)",
};

static int discard(void *ctx, const CombBatch *b, CombErr *err)
{
    (void)ctx;
    (void)b;
    (void)err;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[96];
    SqlSessionOptions opt = {dir, "fuzz"};
    SqlSession *s;
    SqlSink sink = {NULL, NULL, discard, NULL, NULL};
    CombErr err;
    size_t pos = 0, end;
    int n_stmts = 0;

    if (size > 4096)
        return 0;
    /* memory-backed when the machine has /dev/shm: inputs come fast */
    snprintf(dir, sizeof dir, "%s/comb-fuzz-exec-%d",
             access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp", (int)getpid());
    fs_remove_tree(dir, &err);
    if (sql_session_open(&opt, &s, &err))
        return 0;
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++)
        sql_session_execute(s, setup[i], strlen(setup[i]), &sink, &err);
    /* raw bytes, NULs included: statements are bytes with a length */
    while (pos < size && n_stmts < 8 &&
           sql_next_statement((const char *)data + pos, size - pos, &end)) {
        /* an exact-size copy, so that reading past the end is caught */
        char *one = comb_malloc(end);
        if (one) {
            memcpy(one, data + pos, end);
            if (!sql_is_blank(one, end))
                sql_session_execute(s, one, end, &sink, &err);
        }
        comb_free(one);
        pos += end;
        n_stmts++;
    }
    sql_session_close(s);
    fs_remove_tree(dir, &err);
    return 0;
}
