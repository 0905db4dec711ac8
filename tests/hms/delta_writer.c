/*
 * delta_writer - writes the delta an outside engine (Trino, Spark) writes
 * into a Hive transactional table's directory before it commits through
 * the metastore service (tests/integration/hms_write.sh), with comb's own
 * writers, so that comb's readers are not the judge of their own files'
 * names only:
 *
 *   delta_writer [--insert-only] DIR WRITEID BUCKET FIRST COUNT
 *
 * writes COUNT rows (id BIGINT, name STRING) = (FIRST + i, "r<FIRST + i>")
 * to DIR/delta_<W>_<W>_0000/bucket_<BUCKET> (full ACID: the row's ROW__ID
 * under write id W, bucket BUCKET) or, with --insert-only, as the plain
 * ORC file DIR/delta_<W>_<W>_0000/<BUCKET>_0 of an insert-only table.
 * Exits 0, or 1 with the error on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acid/acid.h"
#include "common/alloc.h"
#include "common/batch.h"
#include "common/types.h"
#include "fs/fs.h"
#include "orc/orc.h"

static const CombType id_type = {.kind = COMB_T_BIGINT};
static const CombType name_type = {.kind = COMB_T_STRING};
static const CombType *const col_types[2] = {&id_type, &name_type};
static const char *const col_names[2] = {"id", "name"};

/* The rows of the delta, their names kept in text (the batch borrows). */
static int fill_rows(CombBatch *b, int64_t first, int count, char (*text)[32],
                     CombErr *err)
{
    if (comb_batch_init_types(b, 2, col_types, count))
        return comb_err_nomem(err);
    for (int i = 0; i < count; i++) {
        int64_t id = first + i;
        snprintf(text[i], sizeof text[i], "r%lld", (long long)id);
        b->cols[0].i64[i] = id;
        b->cols[1].str[i] = (CombStr){text[i], (uint32_t)strlen(text[i])};
    }
    b->n_rows = count;
    return COMB_OK;
}

static int write_acid(const char *dir, int64_t w, int bucket,
                      const CombBatch *b, CombErr *err)
{
    const AcidSchema schema = {2, col_names, col_types};
    AcidWriteStats stats;
    AcidWriter *wr;
    int *buckets = comb_calloc((size_t)b->n_rows + 1, sizeof *buckets);
    int rc = buckets ? acid_writer_open(dir, &schema, w, 0, ORC_COMP_ZLIB, &wr,
                                        err)
                     : comb_err_nomem(err);
    for (int i = 0; !rc && i < b->n_rows; i++)
        buckets[i] = bucket;
    if (!rc && (rc = acid_writer_insert(wr, b, buckets, err)))
        acid_writer_abort(wr);
    else if (!rc)
        rc = acid_writer_commit_files(wr, &stats, err);
    comb_free(buckets);
    return rc;
}

/* An insert-only table's delta holds plain ORC files of the row type. */
static int write_insert_only(const char *dir, int64_t w, int bucket,
                             const CombBatch *b, CombErr *err)
{
    CombArena a;
    CombType *row;
    OrcWriterOptions opt;
    OrcWriter *o = NULL;
    int made;
    char name[64];
    comb_arena_init(&a, 0);
    snprintf(name, sizeof name, "delta_%07lld_%07lld_0000", (long long)w,
             (long long)w);
    const char *delta = fs_join(&a, dir, name);
    snprintf(name, sizeof name, "%06d_0", bucket);
    const char *path = delta ? fs_join(&a, delta, name) : NULL;
    int rc = path ? comb_type_parse(&a, "struct<id:bigint,name:string>", 29,
                                    &row, err)
                  : comb_err_nomem(err);
    orc_writer_options_default(&opt);
    if (!rc)
        rc = fs_mkdirs_n(delta, &made, err);
    if (!rc)
        rc = orc_writer_open(path, row, &opt, &o, err);
    if (!rc)
        rc = orc_writer_write(o, b, err);
    if (o && !rc)
        rc = orc_writer_close(o, err);
    else if (o)
        orc_writer_close(o, err);
    comb_arena_free(&a);
    return rc;
}

int main(int argc, char **argv)
{
    CombErr err;
    CombBatch b;
    bool insert_only = argc > 1 && strcmp(argv[1], "--insert-only") == 0;
    char **arg = argv + 1 + insert_only;
    if (argc - 1 - insert_only != 5) {
        fprintf(stderr, "usage: delta_writer [--insert-only] DIR WRITEID "
                        "BUCKET FIRST COUNT\n");
        return 2;
    }
    int64_t w = strtoll(arg[1], NULL, 10), first = strtoll(arg[3], NULL, 10);
    int bucket = atoi(arg[2]), count = atoi(arg[4]);
    char (*text)[32] = comb_calloc((size_t)count + 1, sizeof *text);
    int rc = text && w > 0 && count > 0 ? fill_rows(&b, first, count, text, &err)
                                        : comb_err(&err, COMB_EINVALID,
                                                   "bad write id or count");
    if (!rc) {
        rc = insert_only ? write_insert_only(arg[0], w, bucket, &b, &err)
                         : write_acid(arg[0], w, bucket, &b, &err);
        comb_batch_free(&b);
    }
    comb_free(text);
    if (rc)
        fprintf(stderr, "delta_writer: %s\n", err.msg);
    return rc ? 1 : 0;
}
