/*
 * ppd.c - predicate push-down in the reader: the search argument a caller
 * set (orc_reader_set_sarg), as the reader's group filter (orc.h):
 * against the file statistics once, each stripe's statistics before the
 * stripe is loaded (a stripe ruled out is passed over without reading a
 * byte of it), and the row index statistics and bloom filters of the
 * stripe's row groups (groups ruled out are never read or decompressed).
 *
 * Doubt never skips: a leaf without a column in this file, statistics the
 * file lacks or a metadata section that does not parse leave the group
 * to be read (the rows are filtered exactly above anyway).
 */
#include "orc/orc_int.h"

#include <string.h>

#include "common/alloc.h"

/* Statistics of a leaf's column in a group: row group g of the stripe
 * index x, else the file's (stripe < 0) or a stripe's; false when there
 * are none to use. */
static bool group_stats(OrcReader *r, const OrcStripeIndex *x, int stripe,
                        uint32_t g, int column, OrcColumnStats *st)
{
    if (column < 0 || column >= r->n_cols)
        return false;
    if (x)
        return orc_stripe_index_has(x, column) &&
               orc_stripe_index_stats(x, column, (int)g, st) == COMB_OK;
    if (stripe < 0)
        return orc_reader_column_stats(r, column, st) == COMB_OK;
    return orc_reader_stripe_stats(r, stripe, column, st, NULL) == COMB_OK;
}

/* ORC's bloom filter tests behind the evaluator's probe. */
static bool bloom_test(void *ctx, const OrcBloomProbe *p)
{
    const OrcBloom *b = ctx;
    switch (p->kind) {
    case ORC_BLOOM_LONG: return orc_bloom_might_contain_long(b, p->l);
    case ORC_BLOOM_DOUBLE: return orc_bloom_might_contain_double(b, p->d);
    case ORC_BLOOM_BYTES: return orc_bloom_might_contain_string(b, p->bytes, p->len);
    case ORC_BLOOM_DECIMAL: return orc_bloom_might_contain_decimal(b, p->dec, p->scale);
    }
    return true;
}

/* Whether some row of the group (the file, stripe `stripe`, or with a
 * stripe index x its row group g) of n_rows rows may make the argument
 * TRUE; row groups add their bloom filters. */
static bool group_may_match(OrcReader *r, const OrcStripeIndex *x, int stripe,
                            uint32_t g, uint64_t n_rows)
{
    const OrcSarg *s = r->sarg;
    uint32_t version = orc_reader_writer_version(r);
    for (int i = 0; i < s->n_leaves; i++) {
        int column = r->sarg_cols[i];
        OrcColumnStats st;
        OrcSargColumn col;
        const OrcBloom *bloom = NULL;
        if (!group_stats(r, x, stripe, g, column, &st)) {
            r->leaf_truth[i] = ORC_TV_YES_NO_NULL;
            continue;
        }
        memset(&col, 0, sizeof col);
        col.kind = r->by_id[column]->kind;
        col.stats = &st;
        col.n_rows = n_rows;
        col.writer_version = version;
        if (x && (bloom = orc_stripe_index_bloom(x, column, (int)g))) {
            col.bloom_test = bloom_test;
            col.bloom_ctx = (void *)bloom;
        }
        r->leaf_truth[i] = orc_sarg_eval_leaf(&s->leaves[i], &col);
    }
    return orc_truth_may_be_true(orc_sarg_eval(s, r->leaf_truth));
}

/* The row groups of a stripe the argument cannot rule out, from the
 * stripe's row index (read for the leaves' columns only). */
static int filter_row_groups(OrcReader *r, int stripe, uint64_t rows,
                             uint32_t n_groups, uint8_t *keep, CombErr *err)
{
    uint32_t stride = orc_reader_row_index_stride(r);
    const OrcStripeIndex *x;
    bool *cols = comb_calloc((size_t)r->n_cols, sizeof *cols);
    int rc;
    if (!cols)
        return comb_err_nomem(err);
    for (int i = 0; i < r->sarg->n_leaves; i++)
        if (r->sarg_cols[i] >= 0 && r->sarg_cols[i] < r->n_cols)
            cols[r->sarg_cols[i]] = true;
    rc = orc_reader_stripe_index(r, stripe, cols, true, &x, err);
    comb_free(cols);
    if (rc)
        return rc;
    if (orc_stripe_index_groups(x) != n_groups)
        return COMB_OK;
    for (uint32_t g = 0; g < n_groups; g++) {
        uint64_t first = (uint64_t)g * stride;
        uint64_t n = rows - first < stride ? rows - first : stride;
        keep[g] = group_may_match(r, x, stripe, g, n);
    }
    return COMB_OK;
}

/* The reader's group filter (orc.h): the file, then the stripe, then its
 * row groups. */
static int sarg_filter(void *ctx, OrcReader *r, int stripe, uint32_t n_groups,
                       uint8_t *keep, CombErr *err)
{
    uint64_t rows = r->footer->stripes[stripe]->numberofrows;
    (void)ctx;
    if (!r->sarg_checked_file) {
        r->sarg_checked_file = true;
        r->sarg_skip_file = !group_may_match(r, NULL, -1, 0, r->n_rows);
    }
    if (r->sarg_skip_file || !group_may_match(r, NULL, stripe, 0, rows)) {
        memset(keep, 0, n_groups);
        return COMB_OK;
    }
    if (orc_reader_row_index_stride(r) == 0)
        return COMB_OK;
    return filter_row_groups(r, stripe, rows, n_groups, keep, err);
}

void orc_read_counters_add(OrcReadCounters *sum, const OrcReadCounters *c)
{
    sum->stripes_read += c->stripes_read;
    sum->stripes_skipped += c->stripes_skipped;
    sum->groups_read += c->groups_read;
    sum->groups_skipped += c->groups_skipped;
    sum->bytes_read += c->bytes_read;
    sum->chunks_decompressed += c->chunks_decompressed;
}

int orc_reader_set_sarg(OrcReader *r, const OrcSarg *sarg, const int *columns,
                        CombErr *err)
{
    if (r->started)
        return comb_err(err, COMB_EINVALID,
                        "ORC file '%s': search argument set after reading "
                        "began", r->path);
    r->sarg = NULL;
    if (!sarg || !sarg->root || sarg->n_leaves == 0)
        return COMB_OK;
    r->leaf_truth = comb_arena_alloc(&r->arena, (size_t)sarg->n_leaves *
                                                    sizeof *r->leaf_truth);
    if (!r->leaf_truth)
        return comb_err_nomem(err);
    r->sarg = sarg;
    r->sarg_cols = columns;
    r->sarg_checked_file = false;
    r->sarg_skip_file = false;
    orc_reader_set_filter(r, sarg_filter, NULL);
    return COMB_OK;
}
