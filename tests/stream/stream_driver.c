/*
 * stream_driver.c - a streaming ingest process driven line by line, for
 * the integration tests (tests/integration/stream_*.sh): other processes
 * check what readers see between its steps.
 *
 *   stream_driver WAREHOUSE TABLE BATCH_SIZE [UPSERT_KEY]
 *
 * Commands on stdin, one per line, each answered on stdout with
 * "ok TXNID WRITEID" or "error MESSAGE":
 *   begin | commit | abort | close
 *   rows FROM TO [P]   rows (id, 'r<id>') for id FROM..TO (the table is
 *                      (id int, v string), dynamically partitioned by one
 *                      string key P when given)
 *   delete ID [P]      delete by key (upsert mode)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/batch.h"
#include "stream/stream.h"

static void reply(CombStream *s, int rc, const CombErr *err)
{
    if (rc)
        printf("error %s\n", err->msg);
    else
        printf("ok %lld %lld\n", (long long)comb_stream_txn_id(s),
               (long long)comb_stream_write_id(s));
    fflush(stdout);
}

/* Rows from..to into b, in chunks of its capacity, written as they fill. */
static int rows_cmd(CombStream *s, CombBatch *b, long from, long to,
                    const char *p, bool del, CombErr *err)
{
    char (*texts)[24] = calloc((size_t)b->capacity, sizeof *texts);
    int rc = texts ? COMB_OK : comb_err_nomem(err);
    for (long id = from; !rc && id <= to;) {
        comb_batch_reset(b);
        while (id <= to && b->n_rows < b->capacity) {
            int r = b->n_rows++;
            snprintf(texts[r], sizeof texts[r], "r%ld", id);
            b->cols[0].i64[r] = id++;
            b->cols[1].str[r] = (CombStr){texts[r], (uint32_t)strlen(texts[r])};
            if (p)
                b->cols[2].str[r] = (CombStr){p, (uint32_t)strlen(p)};
        }
        rc = del ? comb_stream_delete(s, b, err) : comb_stream_write(s, b, err);
    }
    free(texts);
    return rc;
}

int main(int argc, char **argv)
{
    CombStreamOptions o = {0};
    CombStream *s = NULL;
    CombBatch b;
    CombErr err;
    char line[512];
    const char *keys[1];
    if (argc < 4) {
        fprintf(stderr, "usage: %s WAREHOUSE TABLE BATCH_SIZE [UPSERT_KEY]\n",
                argv[0]);
        return 2;
    }
    o.warehouse = argv[1];
    o.table = argv[2];
    o.batch_size = atoi(argv[3]);
    if (argc > 4) {
        keys[0] = argv[4];
        o.upsert_keys = keys;
        o.n_upsert_keys = 1;
    }
    if (comb_stream_open(&o, &s, &err)) {
        printf("error %s\n", err.msg);
        return 1;
    }
    if (comb_stream_batch_init(s, &b, 1024, &err)) {
        printf("error %s\n", err.msg);
        comb_stream_close(s, NULL);
        return 1;
    }
    while (fgets(line, sizeof line, stdin)) {
        char cmd[16] = "", p[128] = "";
        long from = 0, to = 0;
        int n = sscanf(line, "%15s %ld %ld %127s", cmd, &from, &to, p), rc;
        if (n <= 0)
            continue;
        if (strcmp(cmd, "begin") == 0) {
            rc = comb_stream_begin(s, &err);
        } else if (strcmp(cmd, "commit") == 0) {
            rc = comb_stream_commit(s, &err);
        } else if (strcmp(cmd, "abort") == 0) {
            rc = comb_stream_abort(s, &err);
        } else if (strcmp(cmd, "rows") == 0 && n >= 3) {
            rc = rows_cmd(s, &b, from, to, n == 4 ? p : NULL, false, &err);
        } else if (strcmp(cmd, "delete") == 0 && n >= 2) {
            n = sscanf(line, "%15s %ld %127s", cmd, &from, p);
            rc = rows_cmd(s, &b, from, from, n == 3 ? p : NULL, true, &err);
        } else if (strcmp(cmd, "close") == 0) {
            break;
        } else {
            rc = comb_err(&err, COMB_EINVALID, "unknown command: %s", cmd);
        }
        reply(s, rc, &err);
    }
    comb_batch_free(&b);
    if (comb_stream_close(s, &err)) {
        printf("error %s\n", err.msg);
        return 1;
    }
    printf("ok closed\n");
    return 0;
}
