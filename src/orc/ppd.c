/*
 * ppd.c - predicate push-down in the reader: the search argument a caller
 * set (orc_reader_set_sarg) evaluated against the file statistics once
 * and against each stripe's statistics before the stripe is loaded; a
 * stripe ruled out is passed over without reading a byte of it.  The
 * counters say what was read and skipped.
 *
 * Doubt never skips: a leaf without a column in this file, statistics the
 * file lacks or a metadata section that does not parse leave the group
 * to be read (the rows are filtered exactly above anyway).
 */
#include "orc/orc_int.h"

#include <string.h>

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
    return COMB_OK;
}

/* Statistics of a leaf's column in a group: the file's (stripe < 0) or a
 * stripe's; false when there are none to use. */
static bool group_stats(OrcReader *r, int stripe, int column,
                        OrcColumnStats *st)
{
    if (column < 0 || column >= r->n_cols)
        return false;
    if (stripe < 0)
        return orc_reader_column_stats(r, column, st) == COMB_OK;
    return orc_reader_stripe_stats(r, stripe, column, st, NULL) == COMB_OK;
}

/* Whether some row of the group (the file, or stripe `stripe`) may make
 * the argument TRUE. */
static bool group_may_match(OrcReader *r, int stripe, uint64_t n_rows)
{
    const OrcSarg *s = r->sarg;
    uint32_t version = orc_reader_writer_version(r);
    for (int i = 0; i < s->n_leaves; i++) {
        int column = r->sarg_cols[i];
        OrcColumnStats st;
        OrcSargColumn col;
        if (!group_stats(r, stripe, column, &st)) {
            r->leaf_truth[i] = ORC_TV_YES_NO_NULL;
            continue;
        }
        memset(&col, 0, sizeof col);
        col.kind = r->by_id[column]->kind;
        col.stats = &st;
        col.n_rows = n_rows;
        col.writer_version = version;
        r->leaf_truth[i] = orc_sarg_eval_leaf(&s->leaves[i], &col);
    }
    return orc_truth_may_be_true(orc_sarg_eval(s, r->leaf_truth));
}

bool orc_ppd_skip_stripe(OrcReader *r, int stripe)
{
    bool skip;
    if (!r->sarg) {
        r->counters.stripes_read++;
        return false;
    }
    if (!r->sarg_checked_file) {
        r->sarg_checked_file = true;
        r->sarg_skip_file = !group_may_match(r, -1, r->n_rows);
        r->counters.files_skipped = r->sarg_skip_file;
    }
    skip = r->sarg_skip_file ||
           !group_may_match(r, stripe, r->footer->stripes[stripe]->numberofrows);
    if (skip)
        r->counters.stripes_skipped++;
    else
        r->counters.stripes_read++;
    return skip;
}

void orc_reader_counters(const OrcReader *r, OrcReadCounters *out)
{
    *out = r->counters;
}

void orc_read_counters_add(OrcReadCounters *sum, const OrcReadCounters *c)
{
    sum->files_skipped += c->files_skipped;
    sum->stripes_read += c->stripes_read;
    sum->stripes_skipped += c->stripes_skipped;
    sum->row_groups_read += c->row_groups_read;
    sum->row_groups_skipped += c->row_groups_skipped;
    sum->bytes_read += c->bytes_read;
}
