/*
 * part.c - where a streamed row goes: the table, its static partition, or
 * (dynamic partitioning) the partition its key columns name, added to the
 * metastore the first time a batch meets it, as Hive's streaming
 * connection does (the partition exists, empty to every reader, before
 * the txn that wrote it commits).
 */
#include "stream/stream_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/datetime.h"
#include "common/decimal.h"
#include "fs/fs.h"

static StreamPart *find_part(const CombStream *s, const char *name)
{
    for (int i = 0; i < s->n_parts; i++) {
        const char *n = s->parts[i]->name;
        if ((!n && !name) || (n && name && strcmp(n, name) == 0))
            return s->parts[i];
    }
    return NULL;
}

/* The directory of partition `name`: the metastore's location when it
 * exists, else it is added (if another process added it first, its
 * location is used). */
static int part_dir(CombStream *s, const char *name, char *const *values,
                    char **dir, CombErr *err)
{
    MsPartition *got = NULL;
    int rc = ms_part_get(s->ms, s->db, s->name, name, &s->batch_arena, &got,
                         err);
    if (rc == COMB_ENOTFOUND) {
        MsPartition add = {0};
        bool added = false;
        add.n_values = s->n_part_keys;
        add.values = (char **)values;
        comb_err_clear(err);
        if ((rc = ms_part_add(s->ms, s->db, s->name, &add, 1, true, &added,
                              err)))
            return rc;
        if (added)
            s->stats.partitions_added++;
        rc = ms_part_get(s->ms, s->db, s->name, name, &s->batch_arena, &got,
                         err);
    }
    if (rc)
        return rc;
    *dir = got->location;
    return COMB_OK;
}

static int new_part(CombStream *s, const char *name, char *const *values,
                    StreamPart **out, CombErr *err)
{
    StreamPart *p = comb_arena_calloc(&s->batch_arena, sizeof *p);
    int rc;
    if (!p)
        return comb_err_nomem(err);
    if (name) {
        if (!(p->name = comb_arena_strdup(&s->batch_arena, name)))
            return comb_err_nomem(err);
        if ((rc = part_dir(s, name, values, &p->dir, err)))
            return rc;
    } else {
        p->dir = s->table->location;
    }
    /* readers follow a streaming transaction's file while it grows (its
     * flush length); an object store shows a file only once it is whole */
    if (fs_is_remote(p->dir))
        return comb_err(err, COMB_EUNSUPPORTED, "cannot stream into %s.%s: "
                        "'%s' is on an object store, where a file being "
                        "written cannot be read; use INSERT", s->db, s->name,
                        p->dir);
    if (s->n_parts == s->cap_parts) {
        int cap = s->cap_parts ? s->cap_parts * 2 : 8;
        StreamPart **v = comb_arena_alloc(&s->batch_arena,
                                          (size_t)cap * sizeof *v);
        if (!v)
            return comb_err_nomem(err);
        if (s->n_parts)
            memcpy(v, s->parts, (size_t)s->n_parts * sizeof *v);
        s->parts = v;
        s->cap_parts = cap;
    }
    s->parts[s->n_parts++] = p;
    *out = p;
    return COMB_OK;
}

int stream_part_fixed(CombStream *s, StreamPart **out, CombErr *err)
{
    StreamPart *p = find_part(s, s->static_part);
    if (p) {
        *out = p;
        return COMB_OK;
    }
    if (!s->static_part)
        return new_part(s, NULL, NULL, out, err);
    /* static values: ms_part_name_make's inverse gives them back */
    char **values = NULL;
    int rc = ms_part_name_parse(s->table, s->static_part, &s->batch_arena,
                                &values, err);
    return rc ? rc : new_part(s, s->static_part, values, out, err);
}

/* A partition value as Hive writes it into the partition name (NULL:
 * the default partition). */
static int value_text(CombStream *s, const CombVector *v, int row,
                      char **out, CombErr *err)
{
    char buf[128];
    const CombType *t = v->type;
    if (comb_vec_is_null(v, row)) {
        *out = NULL;
        return COMB_OK;
    }
    switch (v->kind) {
    case COMB_T_BOOLEAN:
        snprintf(buf, sizeof buf, "%s", v->i64[row] ? "true" : "false");
        break;
    case COMB_T_TINYINT: case COMB_T_SMALLINT: case COMB_T_INT:
    case COMB_T_BIGINT:
        snprintf(buf, sizeof buf, "%" PRId64, v->i64[row]);
        break;
    case COMB_T_DATE:
        comb_date_format(v->i64[row], buf, sizeof buf);
        break;
    case COMB_T_DECIMAL:
        comb_dec_format(v->dec[row], t ? (int)t->scale : 0, buf, sizeof buf);
        break;
    case COMB_T_STRING: case COMB_T_VARCHAR: case COMB_T_CHAR: {
        CombStr str = v->str[row];
        char *p = comb_arena_alloc(&s->scratch, (size_t)str.len + 1);
        if (!p)
            return comb_err_nomem(err);
        memcpy(p, str.ptr, str.len);
        p[str.len] = '\0';
        *out = p;
        return COMB_OK;
    }
    default:
        return comb_err(err, COMB_EUNSUPPORTED,
                        "partition column of type %s in a streamed row",
                        comb_type_name(v->kind));
    }
    *out = comb_arena_strdup(&s->scratch, buf);
    return *out ? COMB_OK : comb_err_nomem(err);
}

/* The partition of one row of a dynamically partitioned stream (its
 * values and name in s->scratch: one write call). */
static int row_part(CombStream *s, const CombBatch *rows, int row,
                    StreamPart **out, CombErr *err)
{
    char **values = comb_arena_alloc(&s->scratch,
                                     (size_t)s->n_part_keys * sizeof *values);
    char *name;
    int rc;
    if (!values)
        return comb_err_nomem(err);
    for (int k = 0; k < s->n_part_keys; k++)
        if ((rc = value_text(s, &rows->cols[s->layout.n_data_cols + k], row,
                             &values[k], err)))
            return rc;
    if ((rc = ms_part_name_make(s->table, values, &s->scratch, &name,
                                err)))
        return rc;
    if ((*out = find_part(s, name)))
        return COMB_OK;
    return new_part(s, name, values, out, err);
}

int stream_route_rows(CombStream *s, const CombBatch *rows,
                      StreamPart **parts_of, CombErr *err)
{
    int n = comb_batch_live(rows), rc;
    StreamPart *last = NULL;
    if (!s->dynamic) {
        if ((rc = stream_part_fixed(s, &last, err)))
            return rc;
        for (int i = 0; i < n; i++)
            parts_of[i] = last;
        return COMB_OK;
    }
    for (int i = 0; i < n; i++) {
        if ((rc = row_part(s, rows, comb_batch_row(rows, i), &parts_of[i],
                           err)))
            return rc;
    }
    return COMB_OK;
}

int stream_part_writer(CombStream *s, StreamPart *p, CombErr *err)
{
    const AcidOrcConf *o = &s->orc;
    AcidWriterOptions opt = {.stripe_size = acid_orc_delta_stripe_size(o),
                             .set_dictionary_key_threshold = true,
                             .dictionary_key_threshold =
                                 o->dictionary_key_threshold,
                             .set_index = true,
                             .row_index_stride = o->row_index_stride,
                             .compression_block_size = o->block_size,
                             .bloom_fields = o->bloom,
                             .bloom_fpp = o->bloom_fpp};
    int rc;
    if (p->w)
        return COMB_OK;
    /* upserts: delta_w_w_0000 and delete_delta_w_w_0000 of the txn alone
     * (see upsert.c) */
    if (s->n_key_cols)
        return acid_writer_open_opts(p->dir, &s->schema, s->writeids[s->cur],
                                     0, (int)o->compression, &opt, &p->w,
                                     err);
    opt.max_write_id = s->writeids[s->n_batch - 1];
    opt.streaming = true;
    rc = acid_writer_open_opts(p->dir, &s->schema, s->writeids[0], -1,
                               (int)o->compression, &opt, &p->w, err);
    if (!rc)
        rc = acid_writer_set_write_id(p->w, s->writeids[s->cur], err);
    return rc;
}
