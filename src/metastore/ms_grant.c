/*
 * ms_grant.c - authorization rows as the texts the backends keep
 * (ms_int.h, MS_GRANT_CELLS): what every backend shares of them.
 */
#include "metastore/ms_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const object_names[] = {"ROLE", "DATABASE", "TABLE"};

static const char *or_empty(const char *s)
{
    return s ? s : "";
}

static const char *principal_type(bool is_role)
{
    return is_role ? "ROLE" : "USER";
}

int ms_grant_cells(const MsGrant *g, CombArena *a, char ***cells,
                   CombErr *err)
{
    char time[24];
    char **c = comb_arena_alloc(a, MS_GRANT_CELLS * sizeof *c);
    const char *v[MS_GRANT_CELLS];
    if (!c)
        return comb_err_nomem(err);
    snprintf(time, sizeof time, "%" PRId64, g->create_time);
    v[0] = object_names[g->object];
    v[1] = or_empty(g->db);
    v[2] = or_empty(g->table);
    v[3] = or_empty(g->role);
    v[4] = or_empty(g->principal);
    v[5] = g->principal ? principal_type(g->principal_is_role) : "";
    v[6] = or_empty(g->privilege);
    v[7] = g->grant_option ? "1" : "0";
    v[8] = or_empty(g->grantor);
    v[9] = g->grantor ? principal_type(g->grantor_is_role) : "";
    v[10] = time;
    for (int i = 0; i < MS_GRANT_CELLS; i++)
        if (!(c[i] = comb_arena_strdup(a, v[i])))
            return comb_err_nomem(err);
    *cells = c;
    return COMB_OK;
}

/* "" back to NULL, as MsGrant has absent fields. */
static char *cell(char *s)
{
    return s && *s ? s : NULL;
}

int ms_grant_from_cells(char *const *cells, int n, CombArena *a,
                        MsGrant **out, CombErr *err)
{
    MsGrant *g = n ? comb_arena_calloc(a, (size_t)n * sizeof *g) : NULL;
    if (n && !g)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        char *const *c = cells + (size_t)i * MS_GRANT_CELLS;
        int o = 0;
        while (o < 3 && strcmp(or_empty(c[0]), object_names[o]) != 0)
            o++;
        if (o == 3)
            return comb_err(err, COMB_ECORRUPT, "the metastore holds a grant "
                            "on an object of kind '%s'", or_empty(c[0]));
        g[i].object = (MsGrantObject)o;
        g[i].db = cell(c[1]);
        g[i].table = cell(c[2]);
        g[i].role = cell(c[3]);
        g[i].principal = cell(c[4]);
        g[i].principal_is_role = strcmp(or_empty(c[5]), "ROLE") == 0;
        g[i].privilege = cell(c[6]);
        g[i].grant_option = strcmp(or_empty(c[7]), "1") == 0;
        g[i].grantor = cell(c[8]);
        g[i].grantor_is_role = strcmp(or_empty(c[9]), "ROLE") == 0;
        g[i].create_time = strtoll(or_empty(c[10]), NULL, 10);
    }
    *out = g;
    return COMB_OK;
}
