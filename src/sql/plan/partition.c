/*
 * partition.c - the units a statement reads or writes: the directories of
 * a table's partitions (or the table's own directory), each with its
 * partition keys' values as text (the directory name) and as typed
 * constants (the partition columns of the rows read from it); which
 * partitions a WHERE clause can match (partition pruning); and the text of
 * a partition value as Hive writes it into a directory name.
 */
#include "sql/plan/plan.h"

#include <string.h>

#include "common/alloc.h"
#include "sql/func/rowstore.h"
#include "sql/func/value.h"

/* -------------------------------------------------------- values as text */

bool sql_part_value_view(const CombVector *v, int row, char *buf,
                         size_t cap, CombStr *out)
{
    if (comb_vec_is_null(v, row))
        return false;
    if (comb_type_is_str(v->kind)) {
        *out = v->str[row];
        if (!out->ptr)
            out->ptr = "";
        /* a CHAR value names its partition without its padding */
        if (v->kind == COMB_T_CHAR)
            while (out->len > 0 && out->ptr[out->len - 1] == ' ')
                out->len--;
    } else {
        out->len = (uint32_t)sql_format_scalar(v->kind, v, row, buf, cap);
        out->ptr = buf;
    }
    return true;
}

int sql_part_value_text(SqlStmtCtx *c, const CombVector *v, int row,
                        char **out, CombErr *err)
{
    char buf[SQL_PART_TEXT_MAX];
    CombStr s;
    *out = NULL;
    if (!sql_part_value_view(v, row, buf, sizeof buf, &s))
        return COMB_OK;
    *out = comb_arena_strndup(c->arena, s.ptr, s.len);
    return *out ? COMB_OK : comb_err_nomem(err);
}

/* A typed constant from a partition value's text: CAST(text AS key type),
 * NULL for the default partition or text that does not convert. */
static int key_constant(SqlStmtCtx *c, const CombType *type, const char *text,
                        BoundExpr **out, CombErr *err)
{
    BoundExpr *k = sql_bx_new(c, BX_CONST, COMB_T_STRING, (AstPos){0, 0});
    int rc;
    if (!k)
        return comb_err_nomem(err);
    if (!text || strcmp(text, MS_DEFAULT_PARTITION_NAME) == 0) {
        k->type = COMB_T_NULL;
        k->is_null = true;
    } else {
        k->sval = (CombStr){text, (uint32_t)strlen(text)};
    }
    if ((rc = sql_bind_convert(c, k, type, out, err)))
        return rc;
    if ((*out)->kind != BX_CONST)
        return COMB_INTERNAL(err, "partition value did not fold");
    return COMB_OK;
}

int sql_part_normalize(SqlStmtCtx *c, const SqlTable *t, int key,
                       const char *text, AstPos pos, char **out, CombErr *err)
{
    BoundExpr *k;
    CombBatch one;
    const CombType *type = t->types[t->n_data + key];
    int rc;
    if ((rc = key_constant(c, type, text, &k, err)))
        return rc;
    if (k->is_null) {
        *out = NULL;
        return text ? sql_err_at(err, COMB_EINVALID, 0, pos,
                                 "partition value '%s' is not a value of "
                                 "partition column '%s' (%s)", text,
                                 t->names[t->n_data + key],
                                 comb_type_name(type->kind))
                    : COMB_OK;
    }
    if (comb_batch_init_types(&one, 1, &type, 1))
        return comb_err_nomem(err);
    one.n_rows = 1;
    sql_part_store(&one.cols[0], 0, 1, k);
    rc = sql_part_value_text(c, &one.cols[0], 0, out, err);
    comb_batch_free(&one);
    return rc;
}

int sql_part_static_value(SqlStmtCtx *c, const SqlTable *t, int key,
                          const AstPartItem *it, char **out, CombErr *err)
{
    static const SqlScope no_table = {NULL, NULL, -1};
    BoundExpr *e;
    char *text;
    int rc;
    if ((rc = sql_bind_expr(c, &no_table, it->value, &e, err)) ||
        (rc = sql_bind_convert_kind(c, e, COMB_T_STRING, &e, err)))
        return rc;
    if (e->kind != BX_CONST)
        return sql_err_at(err, COMB_ESEMANTIC, 10098, it->pos,
                          "the value of partition key %s must be a "
                          "constant", it->key);
    text = e->is_null ? NULL : comb_arena_strndup(c->arena, e->sval.ptr, e->sval.len);
    if (!e->is_null && !text)
        return comb_err_nomem(err);
    return sql_part_normalize(c, t, key, text, it->value->pos, out, err);
}

void sql_part_store(CombVector *v, int from, int to, const BoundExpr *k)
{
    SqlDatum d;
    memset(&d, 0, sizeof d);
    d.null = !k || k->is_null;
    if (k) {
        d.i = k->ival;
        d.nanos = k->nanos;
        d.d = k->dval;
        d.s = k->sval;
        d.dec = k->dec;
    }
    for (int r = from; r < to; r++)
        sql_datum_store(v, r, &d);
}

/* ------------------------------------------------------------------ units */

static int unit_keys(SqlStmtCtx *c, const SqlTable *t, SqlUnit *u,
                     CombErr *err)
{
    u->keys = comb_arena_calloc(c->arena, (size_t)(t->n_part + 1) * sizeof *u->keys);
    if (!u->keys)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_part; i++) {
        int rc = key_constant(c, t->types[t->n_data + i], u->values[i],
                              &u->keys[i], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

int sql_unit_from_partition(SqlStmtCtx *c, const SqlTable *t,
                            const MsPartition *p, SqlUnit *u, CombErr *err)
{
    memset(u, 0, sizeof *u);
    u->dir = p->location;
    u->name = p->name;
    /* a copy: the partition keeps its values, the default name included */
    u->values = comb_arena_alloc(c->arena, (size_t)(p->n_values + 1) * sizeof *u->values);
    if (!u->values)
        return comb_err_nomem(err);
    for (int i = 0; i < p->n_values; i++)
        u->values[i] = strcmp(p->values[i], MS_DEFAULT_PARTITION_NAME) == 0
                           ? NULL : p->values[i];
    return unit_keys(c, t, u, err);
}

/* Does e read only partition columns (no data column, no ROW__ID)? */
static bool only_partition_columns(const BoundExpr *e, const SqlTable *t)
{
    if (!e)
        return true;
    if (e->kind == BX_ROWID ||
        (e->kind == BX_COL && (e->col < t->n_data || e->col >= t->n_cols)))
        return false;
    for (int i = 0; i < e->n_args; i++)
        if (!only_partition_columns(e->args[i], t))
            return false;
    return only_partition_columns(e->a, t) && only_partition_columns(e->b, t) &&
           only_partition_columns(e->c, t);
}

/* The conjuncts of a WHERE clause that only partition columns decide. */
static int prune_conjuncts(SqlStmtCtx *c, const SqlTable *t, BoundExpr *where,
                           BoundExpr ***out, int *n, CombErr *err)
{
    bool is_and = where->kind == BX_BINARY && where->op == AST_OP_AND;
    int total = is_and ? where->n_args : 1;
    BoundExpr **list = comb_arena_alloc(c->arena, (size_t)(total + 1) * sizeof *list);
    *n = 0;
    if (!list)
        return comb_err_nomem(err);
    for (int i = 0; i < total; i++) {
        BoundExpr *e = is_and ? where->args[i] : where;
        if (only_partition_columns(e, t) && !sql_expr_is_const(e))
            list[(*n)++] = e;
    }
    *out = list;
    return COMB_OK;
}

/* A one-row batch holding a partition's keys (data columns NULL). */
static int keys_batch(const SqlTable *t, const SqlUnit *u, CombBatch *b)
{
    static const CombType bigint = {.kind = COMB_T_BIGINT};
    static const CombType integer = {.kind = COMB_T_INT};
    const CombType **types = comb_malloc((size_t)(t->n_cols + 3) * sizeof *types);
    int rc;
    if (!types)
        return COMB_ENOMEM;
    memcpy(types, t->types, (size_t)t->n_cols * sizeof *types);
    types[t->n_cols] = &bigint;
    types[t->n_cols + 1] = &integer;
    types[t->n_cols + 2] = &bigint;
    rc = comb_batch_init_types(b, t->n_cols + 3, types, 1);
    comb_free(types);
    if (rc)
        return COMB_ENOMEM;
    b->n_rows = 1;
    for (int i = 0; i < t->n_data; i++)
        sql_part_store(&b->cols[i], 0, 1, NULL);
    for (int i = 0; i < t->n_part; i++)
        sql_part_store(&b->cols[t->n_data + i], 0, 1, u->keys[i]);
    return COMB_OK;
}

/* Can the partition hold rows for which every conjunct is TRUE? */
static int unit_matches(const SqlTable *t, const SqlUnit *u,
                        BoundExpr **conj, int n, bool *keep, CombErr *err)
{
    CombBatch b;
    int rc = COMB_OK;
    *keep = true;
    if (keys_batch(t, u, &b))
        return comb_err_nomem(err);
    for (int i = 0; i < n && *keep && !rc; i++) {
        const CombVector *v;
        if ((rc = sql_expr_eval(conj[i], &b, err)))
            break;
        v = conj[i]->out;
        *keep = !comb_vec_is_null(v, 0) && v->i64[0];
    }
    comb_batch_free(&b);
    return rc;
}

int sql_unit_satisfies(const SqlTable *t, const SqlUnit *u, BoundExpr *pred,
                       bool *keep, CombErr *err)
{
    return unit_matches(t, u, &pred, 1, keep, err);
}

int sql_table_units(SqlStmtCtx *c, const SqlTable *t, BoundExpr *where,
                    SqlUnit **out, int *n_out, CombErr *err)
{
    bool whole;
    return sql_table_units_pruned(c, t, where, out, n_out, &whole, err);
}

int sql_table_units_pruned(SqlStmtCtx *c, const SqlTable *t, BoundExpr *where,
                           SqlUnit **out, int *n_out, bool *whole,
                           CombErr *err)
{
    MsPartition *parts;
    BoundExpr **conj = NULL;
    SqlUnit *units;
    int n_parts, n_conj = 0, n = 0, rc;
    *whole = true;
    if (t->n_part == 0) {
        if (!(units = comb_arena_calloc(c->arena, sizeof *units)))
            return comb_err_nomem(err);
        units->dir = t->ms->location;
        *out = units;
        *n_out = 1;
        return COMB_OK;
    }
    if ((rc = ms_part_list(c->s->ms, t->ms->db, t->ms->name, NULL, 0,
                           c->arena, &parts, &n_parts, err)))
        return rc;
    if (where && ((rc = sql_expr_prepare(where, c->arena, COMB_BATCH_SIZE, err)) ||
                  (rc = prune_conjuncts(c, t, where, &conj, &n_conj, err))))
        return rc;
    if (!(units = comb_arena_calloc(c->arena, (size_t)(n_parts + 1) * sizeof *units)))
        return comb_err_nomem(err);
    for (int i = 0; i < n_parts; i++) {
        bool keep;
        if ((rc = sql_unit_from_partition(c, t, &parts[i], &units[n], err)) ||
            (rc = unit_matches(t, &units[n], conj, n_conj, &keep, err)))
            return rc;
        n += keep;
    }
    *out = units;
    *n_out = n;
    *whole = n_conj == 0;
    return COMB_OK;
}
