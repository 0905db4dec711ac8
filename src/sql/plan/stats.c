/*
 * stats.c - estimated rows of plan nodes (logical.h): a table's from the
 * bytes of its files (a fixed guess of bytes per row; the same files give
 * the same estimate, so plans are deterministic), a filter keeps a
 * third, joins and aggregates from their inputs.  Only the order of
 * magnitude matters: the lowering builds an inner join's smaller side.
 */
#include "sql/plan/logical.h"

#include "fs/fs.h"

/* Rows per byte guessed for ORC and text files alike. */
#define BYTES_PER_ROW 32.0
/* Directory levels followed below a table (partitions, deltas, buckets). */
#define MAX_DEPTH 8

static double dir_bytes(SqlStmtCtx *c, const char *path, int depth)
{
    char **names;
    int n;
    double total = 0;
    CombErr err;
    if (depth > MAX_DEPTH || fs_list_dir(path, c->arena, &names, &n, &err))
        return 0;
    for (int i = 0; i < n; i++) {
        char *p = comb_arena_printf(c->arena, "%s/%s", path, names[i]);
        uint64_t size;
        if (!p || names[i][0] == '.' || names[i][0] == '_')
            continue;
        if (fs_is_dir(p))
            total += dir_bytes(c, p, depth + 1);
        else if (!fs_file_size(p, &size, &err))
            total += (double)size;
    }
    return total;
}

static double max2(double a, double b)
{
    return a > b ? a : b;
}

double sql_lp_estimate(SqlStmtCtx *c, LpNode *n)
{
    double l = n->input ? n->input->est_rows : -1;
    double r = n->right ? n->right->est_rows : -1;
    switch (n->kind) {
    case LP_GET:
        if (!n->table->ms || !n->table->ms->location)
            return -1;
        return dir_bytes(c, n->table->ms->location, 0) / BYTES_PER_ROW *
               (n->filter ? 1.0 / 3 : 1.0);
    case LP_VALUES:
        return n->n_rows;
    case LP_FILTER:
        return l < 0 ? -1 : l / 3;
    case LP_JOIN:
        if (l < 0 || r < 0)
            return -1;
        if (n->join == LP_JOIN_SEMI || n->join == LP_JOIN_ANTI ||
            n->join == LP_JOIN_MARK || n->join == LP_JOIN_SINGLE)
            return l;
        return n->cond ? max2(l, r) : l * r;
    case LP_AGGREGATE:
        return l < 0 ? -1 : (n->n_keys ? l / 2 : 1);
    case LP_LIMIT:
        return n->limit >= 0 && (l < 0 || n->limit < l) ? (double)n->limit : l;
    case LP_SETOP:
        return l < 0 || r < 0 ? -1 : l + r;
    default:
        return l;
    }
}
