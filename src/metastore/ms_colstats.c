/*
 * ms_colstats.c - column statistics as the rows a backend stores: every
 * field a text cell (MS_COLSTATS_COLUMNS' order), so that the backends bind
 * and fetch texts only and both read back the same values.  A field with
 * no value (-1, NULL) is SQL NULL; and the sources that say which stored
 * rows still describe a unit's files.
 */
#include "metastore/ms_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/hll.h"
#include "fs/fs.h"

enum {
    CELL_COLUMN, CELL_TYPE, CELL_SOURCE, CELL_LOW, CELL_HIGH, CELL_NULLS,
    CELL_DISTINCTS, CELL_TRUES, CELL_FALSES, CELL_MAX_LEN, CELL_AVG_LEN,
    CELL_BIT_VECTOR, CELL_ANALYZED
};

static char *int_cell(CombArena *a, int64_t v, bool *nomem)
{
    char *s;
    if (v < 0)
        return NULL;
    if (!(s = comb_arena_printf(a, "%lld", (long long)v)))
        *nomem = true;
    return s;
}

int ms_colstats_cells(const MsColStats *stats, int n, CombArena *a,
                      char ***cells, CombErr *err)
{
    char **c = comb_arena_calloc(a, (size_t)n * MS_COLSTATS_CELLS * sizeof *c);
    bool nomem = !c;
    for (int i = 0; i < n && !nomem; i++) {
        const MsColStats *s = &stats[i];
        char **row = c + (size_t)i * MS_COLSTATS_CELLS;
        row[CELL_COLUMN] = s->column;
        row[CELL_TYPE] = s->type;
        row[CELL_SOURCE] = s->source;
        row[CELL_LOW] = s->low;
        row[CELL_HIGH] = s->high;
        row[CELL_NULLS] = int_cell(a, s->num_nulls < 0 ? 0 : s->num_nulls,
                                   &nomem);
        row[CELL_DISTINCTS] = int_cell(a, s->num_distincts, &nomem);
        row[CELL_TRUES] = int_cell(a, s->num_trues, &nomem);
        row[CELL_FALSES] = int_cell(a, s->num_falses, &nomem);
        row[CELL_MAX_LEN] = int_cell(a, s->max_col_len, &nomem);
        if (s->avg_col_len >= 0 &&
            !(row[CELL_AVG_LEN] = comb_arena_printf(a, "%.17g", s->avg_col_len)))
            nomem = true;
        row[CELL_BIT_VECTOR] = s->bit_vector;
        row[CELL_ANALYZED] = int_cell(a, s->last_analyzed, &nomem);
    }
    if (nomem)
        return comb_err_nomem(err);
    *cells = c;
    return COMB_OK;
}

/* A stored integer; -1 for NULL.  A backend returns what it was given, so
 * anything else means the row was changed behind comb's back. */
static int int_of(const char *cell, const char *column, int64_t *out,
                  CombErr *err)
{
    char *end;
    long long v;
    if (!cell) {
        *out = -1;
        return COMB_OK;
    }
    errno = 0;
    v = strtoll(cell, &end, 10);
    if (errno || end == cell || *end || v < 0)
        return comb_err(err, COMB_EMETASTORE,
                        "column statistics of '%s' hold '%s', not a count",
                        column, cell);
    *out = v;
    return COMB_OK;
}

static int row_of(char *const *row, MsColStats *s, CombErr *err)
{
    const char *col = row[CELL_COLUMN];
    int rc;
    if (!col || !row[CELL_TYPE] || !row[CELL_SOURCE])
        return comb_err(err, COMB_EMETASTORE,
                        "column statistics row without column, type or "
                        "source");
    s->column = row[CELL_COLUMN];
    s->type = row[CELL_TYPE];
    s->source = row[CELL_SOURCE];
    s->low = row[CELL_LOW];
    s->high = row[CELL_HIGH];
    s->bit_vector = row[CELL_BIT_VECTOR];
    s->avg_col_len = row[CELL_AVG_LEN] ? strtod(row[CELL_AVG_LEN], NULL) : -1;
    if ((rc = int_of(row[CELL_NULLS], col, &s->num_nulls, err)) ||
        (rc = int_of(row[CELL_DISTINCTS], col, &s->num_distincts, err)) ||
        (rc = int_of(row[CELL_TRUES], col, &s->num_trues, err)) ||
        (rc = int_of(row[CELL_FALSES], col, &s->num_falses, err)) ||
        (rc = int_of(row[CELL_MAX_LEN], col, &s->max_col_len, err)))
        return rc;
    return int_of(row[CELL_ANALYZED], col, &s->last_analyzed, err);
}

int ms_colstats_from_cells(char *const *cells, int n, CombArena *a,
                           MsColStats **out, CombErr *err)
{
    MsColStats *s;
    int rc = COMB_OK;
    *out = NULL;
    if (n == 0)
        return COMB_OK;
    if (!(s = comb_arena_calloc(a, (size_t)n * sizeof *s)))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        rc = row_of(cells + (size_t)i * MS_COLSTATS_CELLS, &s[i], err);
    if (!rc)
        *out = s;
    return rc;
}

int ms_colstats_schema(CombBuf *b, const MsTable *m)
{
    int rc = comb_buf_printf(b, "%s\n%s\n", m->input_format ? m->input_format : "",
                             m->serde ? m->serde : "");
    for (int i = 0; i < m->n_cols; i++)
        rc |= comb_buf_printf(b, "%s %s\n", m->cols[i].name, m->cols[i].type);
    for (int i = 0; i < m->n_serde_params; i++)
        rc |= comb_buf_printf(b, "%s=%s\n", m->serde_params[i].key,
                              m->serde_params[i].value);
    for (int i = 0; i < m->n_props; i++)
        if (strncmp(m->props[i].key, "skip.", 5) == 0 ||
            strncmp(m->props[i].key, "serialization.", 14) == 0)
            rc |= comb_buf_printf(b, "%s=%s\n", m->props[i].key,
                                  m->props[i].value);
    return rc;
}

/* Every file under dir as "path<TAB>size<TAB>mtime" lines into b, in
 * name order (fs_list_dir_typed sorts), hidden entries left out. */
static int list_files(CombArena *a, const char *dir, CombBuf *b, CombErr *err)
{
    char **names;
    bool *is_dir;
    int n, rc = fs_list_dir_typed(dir, a, &names, &is_dir, &n, err);
    for (int i = 0; i < n && !rc; i++) {
        const char *path = names[i][0] == '.' ? NULL : fs_join(a, dir, names[i]);
        uint64_t size;
        int64_t mtime;
        if (names[i][0] == '.')
            continue;
        if (!path)
            return comb_err_nomem(err);
        if (is_dir[i])
            rc = list_files(a, path, b, err);
        else if (!(rc = fs_file_version(path, &size, &mtime, err)) &&
                 comb_buf_printf(b, "%s\t%llu\t%lld\n", path,
                                 (unsigned long long)size, (long long)mtime))
            rc = comb_err_nomem(err);
    }
    return rc;
}

int ms_colstats_dir_source(const MsTable *t, const char *dir, CombArena *a,
                           char **out, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    uint64_t h1, h2;
    int rc = ms_colstats_schema(&b, t) ? comb_err_nomem(err) : COMB_OK;
    if (!rc && fs_is_dir(dir))
        rc = list_files(a, dir, &b, err);
    if (!rc) {
        h1 = comb_hll_hash64(b.data, b.len);
        h2 = comb_buf_append(&b, &h1, sizeof h1) ? 0
                                                  : comb_hll_hash64(b.data, b.len);
        *out = comb_arena_printf(a, "%s%016llx%016llx", MS_COLSTATS_OUTSIDE,
                                 (unsigned long long)h1, (unsigned long long)h2);
        rc = *out ? COMB_OK : comb_err_nomem(err);
    }
    comb_buf_free(&b);
    return rc;
}
