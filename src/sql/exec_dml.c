/*
 * exec_dml.c - INSERT, UPDATE and DELETE on full-ACID tables.
 *
 * Every write follows the same order (ARCHITECTURE.md, "A statement's
 * life"): open the transaction and take the snapshot, compute the table's
 * write-id list (before our own write id exists, so the statement never
 * reads its own output), allocate the write id and record the
 * TXN_COMPONENTS row, stream rows into the acid/ record updater, make the
 * files durable, and only then let the session commit the transaction.
 * UPDATE is Hive's split update: a delete event for the old ROW__ID plus an
 * insert of the new row image.
 */
#include "sql/sql_int.h"

#include <string.h>

#include "common/buf.h"
#include "orc/orc.h"
#include "sql/rowstore.h"

/* Hive: UPDATE and DELETE need a full ACID table; INSERT works on every
 * kind of table but a view. */
int sql_table_writable(const SqlTable *t, AstPos pos, bool update_delete,
                       CombErr *err)
{
    if (t->kind == SQL_TABLE_VIEW && update_delete)
        return sql_err_at(err, COMB_ESEMANTIC, 10402, pos,
                          "You cannot update or delete records in a view");
    if (t->kind == SQL_TABLE_VIEW)
        return sql_err_at(err, COMB_ESEMANTIC, 10090, pos,
                          "A view cannot be used as target table for LOAD or "
                          "INSERT");
    if (!update_delete || t->kind == SQL_TABLE_ACID)
        return COMB_OK;
    if (t->kind == SQL_TABLE_INSERT_ONLY)
        return sql_err_at(err, COMB_ESEMANTIC, 10414, pos,
                          "Attempt to do update or delete on table %s that is "
                          "insert-only transactional", t->qualified);
    return sql_err_at(err, COMB_ESEMANTIC, 10297, pos,
                      "Attempt to do update or delete on table %s that is "
                      "not transactional", t->qualified);
}

static int arity_error(SqlStmtCtx *c, const SqlTable *t, AstPos pos, int want,
                       int got, CombErr *err);

/* ------------------------------------------------------------------ INSERT */

/* Hive's 10125, naming both lists of keys. */
static int partspec_differs(const SqlTable *t, const AstPartSpec *ps,
                            CombErr *err)
{
    CombBuf table = COMB_BUF_INIT, spec = COMB_BUF_INIT;
    int rc;
    for (int k = 0; k < t->n_part; k++)
        comb_buf_printf(&table, "%s%s", k ? ", " : "", t->names[t->n_data + k]);
    for (int i = 0; i < ps->n; i++)
        comb_buf_printf(&spec, "%s%s", i ? ", " : "", ps->items[i].key);
    rc = sql_err_at(err, COMB_ESEMANTIC, 10125, ps->pos,
                    "Partition columns in partition specification are not the "
                    "same as that defined in the table schema. The names and "
                    "orders have to be exactly the same. Partition columns in "
                    "the table schema are: (%.*s), while the partition columns "
                    "in the partition specification are: (%.*s)",
                    (int)table.len, table.data ? (char *)table.data : "",
                    (int)spec.len, spec.data ? (char *)spec.data : "");
    comb_buf_free(&table);
    comb_buf_free(&spec);
    return rc;
}

int sql_insert_partition_spec(SqlStmtCtx *c, const SqlTable *t, bool nonstrict,
                              char ***out, int *n_dynamic, CombErr *err)
{
    static const SqlScope no_table = {NULL, NULL, -1};
    const AstPartSpec *ps = &c->stmt->part;
    const char *dyn = sql_session_get_conf(c->s, "hive.exec.dynamic.partition");
    const char *mode = sql_session_get_conf(c->s, "hive.exec.dynamic.partition.mode");
    char **v = comb_arena_calloc(c->arena, (size_t)(t->n_part + 1) * sizeof *v);
    bool seen_dynamic = false;
    int rc;
    *out = v;
    *n_dynamic = t->n_part;
    if (!v)
        return comb_err_nomem(err);
    if (ps->n == 0 && t->n_part == 0)
        return COMB_OK;
    if (ps->n > 0 && t->n_part == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10035, ps->pos,
                          "Partition spec for non partitioned table %s.",
                          t->qualified);
    if (ps->n > 0 && ps->n != t->n_part)
        return partspec_differs(t, ps, err);
    for (int i = 0; i < ps->n; i++) {
        const AstPartItem *it = &ps->items[i];
        int col = sql_table_column(t, it->key);
        BoundExpr *e;
        char *text;
        if (col < t->n_data)
            return sql_err_at(err, COMB_ESEMANTIC, 10098, it->pos,
                              "Non-Partition column appears in the partition "
                              "specification: %s", it->key);
        if (col - t->n_data != i)
            return partspec_differs(t, ps, err);
        if (!it->value) {
            seen_dynamic = true;
            continue;
        }
        if (seen_dynamic)
            return sql_err_at(err, COMB_ESEMANTIC, 10094, it->pos,
                              "Dynamic partition cannot be the parent of a "
                              "static partition '%s'", it->key);
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
        if ((rc = sql_part_normalize(c, t, i, text, it->value->pos, &v[i],
                                     err)))
            return rc;
        /* a static value names the partition even when NULL: the default */
        if (!v[i])
            v[i] = (char *)MS_DEFAULT_PARTITION_NAME;
        (*n_dynamic)--;
    }
    if (*n_dynamic > 0 && dyn && strcasecmp(dyn, "false") == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10095, ps->n ? ps->pos : c->stmt->name.pos,
                          "Dynamic partition is disabled. Either enable it by "
                          "setting hive.exec.dynamic.partition=true or "
                          "specify partition column values");
    if (*n_dynamic == t->n_part && !nonstrict && mode &&
        strcasecmp(mode, "strict") == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 10096, ps->n ? ps->pos : c->stmt->name.pos,
                          "Dynamic partition strict mode requires at least "
                          "one static partition column. To turn this off set "
                          "hive.exec.dynamic.partition.mode=nonstrict");
    return COMB_OK;
}

/* Target column of each value position: the data columns (or those
 * listed) followed by the dynamic partition keys. */
static int insert_column_map(SqlStmtCtx *c, const SqlTable *t,
                             char *const *static_values, int **map,
                             int *n_map, CombErr *err)
{
    const AstStmt *st = c->stmt;
    int n_dyn = 0;
    int n, *m;
    for (int k = 0; k < t->n_part; k++)
        n_dyn += !static_values[k];
    n = (st->n_insert_cols ? st->n_insert_cols : t->n_data) + n_dyn;
    m = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof *m);
    if (!m)
        return comb_err_nomem(err);
    for (int i = 0, k = 0; i < t->n_part; i++)
        if (!static_values[i])
            m[n - n_dyn + k++] = t->n_data + i;
    for (int i = 0; i < n - n_dyn; i++) {
        if (!st->n_insert_cols) {
            m[i] = i;
            continue;
        }
        m[i] = sql_table_column(t, st->insert_cols[i]);
        if (m[i] < 0 || m[i] >= t->n_data)
            return sql_err_at(err, COMB_ESEMANTIC, 10044, st->insert_col_pos[i],
                              "'%s' in insert schema specification is not "
                              "found among regular columns of %s",
                              st->insert_cols[i], t->qualified);
        for (int j = 0; j < i; j++)
            if (m[j] == m[i])
                return sql_err_at(err, COMB_ESEMANTIC, 10044,
                                  st->insert_col_pos[i],
                                  "column '%s' is listed twice in the insert "
                                  "schema", st->insert_cols[i]);
    }
    *map = m;
    *n_map = n;
    return COMB_OK;
}

static int arity_error(SqlStmtCtx *c, const SqlTable *t, AstPos pos, int want,
                       int got, CombErr *err)
{
    (void)c;
    return sql_err_at(err, COMB_ESEMANTIC, 10044, pos,
                      "Cannot insert into target table because column "
                      "number/types are different '%s': Table insclause-0 has "
                      "%d columns, but query has %d columns.",
                      t->ms->name, want, got);
}

/* Put constant `k` into row `row` of the column being filled. */
static int store_const(SqlVecFill *f, int row, const BoundExpr *k)
{
    SqlDatum d;
    memset(&d, 0, sizeof d);
    d.null = k->is_null || k->type == COMB_T_NULL;
    d.i = k->ival;
    d.nanos = k->nanos;
    d.d = k->dval;
    d.s = k->sval;
    d.dec = k->dec;
    return sql_datum_fill(f, row, &d);
}

/* A constant expression that folding leaves a tree (arrays, maps,
 * structs): evaluated once and copied into the column. */
static int store_value(SqlStmtCtx *c, SqlVecFill *f, int row, BoundExpr *e,
                       CombErr *err)
{
    int rc = sql_eval_constant(c, e, err);
    if (!rc && sql_fill_copy(f, row, e->out, 0))
        rc = comb_err_nomem(err);
    sql_expr_release(e);
    return rc;
}

static int bind_value_row(SqlStmtCtx *c, const SqlTable *t, const int *map,
                          int n_map, AstExpr **row_exprs, SqlVecFill *fills,
                          int row, CombErr *err)
{
    static const SqlScope no_table = {NULL, NULL, -1};
    for (int j = 0; j < t->n_cols; j++)
        sql_fill_null(&fills[j], row);
    for (int k = 0; k < n_map; k++) {
        BoundExpr *e;
        int col = map[k], rc;
        if ((rc = sql_bind_expr(c, &no_table, row_exprs[k], &e, err)) ||
            (rc = sql_bind_assign(c, e, t, col, &e, err)))
            return rc;
        if (!sql_expr_is_const(e))
            return sql_err_at(err, COMB_ESEMANTIC, 0, row_exprs[k]->pos,
                              "VALUES rows may only hold constant expressions");
        rc = e->kind == BX_CONST ? (store_const(&fills[col], row, e)
                                        ? comb_err_nomem(err) : COMB_OK)
                                 : store_value(c, &fills[col], row, e, err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int insert_values(SqlStmtCtx *c, SqlTable *t, SqlWriter *d,
                         const int *map, int n_map, CombErr *err)
{
    const AstStmt *st = c->stmt;
    CombBatch b;
    SqlVecFill *fills;
    int rc = COMB_OK;
    if (comb_batch_init_types(&b, t->n_cols, t->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    fills = comb_arena_alloc(c->arena, (size_t)(t->n_cols + 1) * sizeof *fills);
    for (int j = 0; fills && j < t->n_cols && !rc; j++)
        if (sql_fill_init(&fills[j], &b.cols[j], c->arena))
            rc = comb_err_nomem(err);
    if (!fills)
        rc = comb_err_nomem(err);
    for (int r = 0; r < st->n_rows && !rc; r++) {
        if (st->row_widths[r] != n_map) {
            rc = arity_error(c, t, st->rows[r][0] ? st->rows[r][0]->pos : st->pos,
                             n_map, st->row_widths[r], err);
            break;
        }
        rc = bind_value_row(c, t, map, n_map, st->rows[r], fills, b.n_rows, err);
        if (!rc && ++b.n_rows == b.capacity) {
            rc = sql_writer_insert(d, &b, err);
            comb_batch_reset(&b);
            for (int j = 0; j < t->n_cols; j++)
                sql_fill_reset(&fills[j]);
        }
    }
    if (!rc && b.n_rows > 0)
        rc = sql_writer_insert(d, &b, err);
    comb_batch_free(&b);
    return rc;
}

/* INSERT ... SELECT: the select's output batches, rearranged into table
 * column order (unlisted columns NULL), go straight to the writer. */
typedef struct InsertSink {
    SqlWriter *d;
    const int *map;         /* select output -> table column */
    int n_map;
    CombBatch nulls;        /* an all-NULL vector per table column */
    CombVector *view;       /* the batch's columns in table order */
} InsertSink;

static int insert_sink_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    InsertSink *is = ctx;
    const SqlTable *t = is->d->t;
    CombBatch view = *b;
    for (int j = 0; j < t->n_cols; j++)
        is->view[j] = is->nulls.cols[j];
    for (int k = 0; k < is->n_map; k++)
        is->view[is->map[k]] = b->cols[k];
    view.cols = is->view;
    view.n_cols = t->n_cols;
    return sql_writer_insert(is->d, &view, err);
}

static int insert_sink_init(SqlStmtCtx *c, InsertSink *is, SqlWriter *d,
                            const int *map, int n_map, CombErr *err)
{
    const SqlTable *t = d->t;
    is->d = d;
    is->map = map;
    is->n_map = n_map;
    is->view = comb_arena_alloc(c->arena, (size_t)(t->n_cols + 1) * sizeof *is->view);
    if (!is->view ||
        comb_batch_init_types(&is->nulls, t->n_cols, t->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    for (int j = 0; j < t->n_cols; j++) {
        memset(is->nulls.cols[j].nulls, 1, COMB_BATCH_SIZE);
        is->nulls.cols[j].has_nulls = true;
    }
    return COMB_OK;
}

int sql_insert_select_rows(SqlStmtCtx *c, SqlWriter *w, SqlSelectPlan *sel,
                           const int *map, int n_map, CombErr *err)
{
    InsertSink sink_ctx = {0};
    SqlSink sink = {&sink_ctx, NULL, insert_sink_batch, NULL, NULL};
    int rc = insert_sink_init(c, &sink_ctx, w, map, n_map, err);
    if (!rc)
        rc = sql_select_run(c, sel, &sink, err);
    if (sink_ctx.nulls.cols)
        comb_batch_free(&sink_ctx.nulls);
    return rc;
}

static int plan_insert_select(SqlStmtCtx *c, SqlTable *t, const int *map,
                              int n_map, SqlSelectPlan **out, CombErr *err)
{
    const AstStmt *st = c->stmt;
    SqlSelectPlan *p;
    const char *const *names;
    const CombTypeKind *kinds;
    int n_out, rc;
    if ((rc = sql_select_plan(c, st->select, &p, err)))
        return rc;
    sql_select_output(p, &n_out, &names, &kinds);
    if (n_out != n_map)
        return arity_error(c, t, st->name.pos, n_map, n_out, err);
    if ((rc = sql_select_coerce(c, p, map, t, err)))
        return rc;
    *out = p;
    return sql_select_open(c, p, err);
}

/* INSERT OVERWRITE replaces a unit even when no row comes for it: the
 * table, or a partition named by static values alone. */
static int touch_overwritten(SqlStmtCtx *c, SqlTable *t, SqlWriter *w,
                             char **static_values, CombErr *err)
{
    char *name;
    int rc;
    if (!c->stmt->overwrite)
        return COMB_OK;
    if (t->n_part == 0)
        return sql_writer_touch(w, NULL, NULL, err);
    for (int k = 0; k < t->n_part; k++)
        if (!static_values[k])
            return COMB_OK;
    for (int k = 0; k < t->n_part; k++)
        if (strcmp(static_values[k], MS_DEFAULT_PARTITION_NAME) == 0)
            static_values[k] = NULL;
    if ((rc = ms_part_name_make(t->ms, static_values, c->arena, &name, err)))
        return rc;
    return sql_writer_touch(w, name, static_values, err);
}

int sql_exec_insert(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    SqlSelectPlan *sel = NULL;
    SqlTable *t;
    SqlWriter *d = NULL;
    char **static_values;
    int *map = NULL, n_map = 0, n_dynamic, rc;
    if ((rc = sql_table_resolve(c, &st->name, &t, err)) ||
        (rc = sql_table_writable(t, st->name.pos, false, err)) ||
        (rc = sql_insert_partition_spec(c, t, c->load_source != NULL,
                                        &static_values, &n_dynamic, err)) ||
        (rc = insert_column_map(c, t, static_values, &map, &n_map, err)))
        return rc;
    if (t->n_buckets > 0 && (rc = sql_table_bucketing(t, err)))
        return rc;
    /* the source is read under a write-id list taken before our own write
     * id exists, so INSERT INTO t SELECT FROM t never reads its output */
    if ((rc = sql_txn_begin(c, err)) ||
        (st->select && (rc = plan_insert_select(c, t, map, n_map, &sel, err))) ||
        (rc = sql_writer_open(c, t, MS_OP_INSERT, st->overwrite,
                              static_values, &d, err)) ||
        (rc = touch_overwritten(c, t, d, static_values, err)))
        goto done;
    rc = sel ? sql_insert_select_rows(c, d, sel, map, n_map, err)
             : insert_values(c, t, d, map, n_map, err);
    if (!rc)
        rc = sql_writer_finish(d, err);
done:
    sql_writer_close(d);
    sql_select_close(sel);
    return rc;
}

/* --------------------------------------------------------- UPDATE / DELETE */

typedef struct UpdatePlan {
    int n_set;
    int *set_col;           /* table column of each assignment */
    BoundExpr **set_expr;   /* coerced to the column type */
    CombVector *image;      /* the new row image's columns (table order) */
} UpdatePlan;

static int bind_assignments(SqlStmtCtx *c, const SqlTable *t,
                            const SqlScope *sc, UpdatePlan *p, CombErr *err)
{
    const AstStmt *st = c->stmt;
    p->n_set = st->n_assignments;
    p->set_col = comb_arena_alloc(c->arena, (size_t)(p->n_set + 1) * sizeof(int));
    p->set_expr = comb_arena_calloc(c->arena, (size_t)(p->n_set + 1) * sizeof(BoundExpr *));
    p->image = comb_arena_alloc(c->arena, (size_t)(t->n_cols + 1) * sizeof *p->image);
    if (!p->set_col || !p->set_expr || !p->image)
        return comb_err_nomem(err);
    for (int i = 0; i < p->n_set; i++) {
        const AstAssignment *a = &st->assignments[i];
        int col = sql_table_column(t, a->column), rc;
        if (col < 0)
            return sql_err_at(err, COMB_ESEMANTIC, 10408, a->pos,
                              "Target column \"%s\" of set clause is not found "
                              "in table \"%s\".", a->column, t->qualified);
        if (col >= t->n_data)
            return sql_err_at(err, COMB_ESEMANTIC, 10292, a->pos,
                              "Updating values of partition columns is not "
                              "supported");
        for (int k = 0; k < t->n_cluster; k++)
            if (t->cluster_idx[k] == col)
                return sql_err_at(err, COMB_ESEMANTIC, 10302, a->pos,
                                  "Updating values of bucketing columns is not "
                                  "supported.  Column %s.", a->column);
        p->set_col[i] = col;
        if ((rc = sql_bind_expr(c, sc, a->value, &p->set_expr[i], err)) ||
            (rc = sql_bind_assign(c, p->set_expr[i], t, col, &p->set_expr[i],
                                  err)) ||
            (rc = sql_expr_prepare(p->set_expr[i], c->arena, COMB_BATCH_SIZE, err)))
            return rc;
    }
    return COMB_OK;
}

static void release_assignments(UpdatePlan *p)
{
    for (int i = 0; i < p->n_set; i++)
        if (p->set_expr && p->set_expr[i])
            sql_expr_release(p->set_expr[i]);
}

static int delete_live_rows(SqlWriter *d, const SqlUnit *u,
                            const CombBatch *b, int n_user, CombErr *err)
{
    const CombVector *w = &b->cols[n_user + ACID_COL_WRITEID];
    const CombVector *bk = &b->cols[n_user + ACID_COL_BUCKET];
    const CombVector *r = &b->cols[n_user + ACID_COL_ROWID];
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i), rc;
        rc = sql_writer_delete(d, u, w->i64[row], (int32_t)bk->i64[row],
                               r->i64[row], err);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

/* New row images: a separate column array (vectors shared, not copied)
 * holding the scanned columns with the assigned ones replaced.  The scan
 * batch itself is never written, so every right-hand side sees the row as
 * it was before the statement, as in Hive (SET a = b, b = a swaps). */
static int insert_updated_rows(SqlWriter *d, UpdatePlan *p,
                               const CombBatch *b, CombErr *err)
{
    CombBatch image = *b;
    int rc = COMB_OK;
    for (int i = 0; i < p->n_set && !rc; i++)
        rc = sql_expr_eval(p->set_expr[i], b, err);
    if (rc)
        return rc;
    memcpy(p->image, b->cols, (size_t)d->t->n_cols * sizeof *p->image);
    for (int i = 0; i < p->n_set; i++)
        p->image[p->set_col[i]] = *p->set_expr[i]->out;
    image.cols = p->image;
    image.n_cols = d->t->n_cols;
    return sql_writer_insert(d, &image, err);
}

static int update_delete_scan(SqlStmtCtx *c, SqlTable *t, SqlScan *scan,
                              UpdatePlan *p, SqlWriter *d, CombErr *err)
{
    (void)c;
    bool done = false;
    int rc = COMB_OK;
    while (!rc) {
        rc = sql_scan_next(scan, &done, err);
        if (rc || done)
            break;
        rc = delete_live_rows(d, sql_scan_unit(scan), &scan->batch, t->n_cols,
                              err);
        if (!rc && p)
            rc = insert_updated_rows(d, p, &scan->batch, err);
    }
    return rc;
}

int sql_exec_update_delete(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *st = c->stmt;
    bool is_update = st->kind == AST_UPDATE;
    SqlTable *t;
    SqlScope sc;
    SqlScan scan;
    UpdatePlan plan = {0};
    SqlWriter *d = NULL;
    BoundExpr *where = NULL;
    bool *project = NULL;
    int rc;

    memset(&scan, 0, sizeof scan);
    if ((rc = sql_table_resolve(c, &st->name, &t, err)) ||
        (rc = sql_table_writable(t, st->name.pos, true, err)))
        return rc;
    sc = (SqlScope){t, t->ms->name, t->n_cols};
    if (st->where && (rc = sql_bind_expr(c, &sc, st->where, &where, err)))
        return rc;
    if (where && where->type != COMB_T_BOOLEAN && where->type != COMB_T_NULL)
        return sql_err_at(err, COMB_ESEMANTIC, 10014, where->pos,
                          "WHERE clause must be a boolean expression");
    if (is_update && (rc = bind_assignments(c, t, &sc, &plan, err)))
        goto done;
    /* DELETE decodes only what its WHERE reads; UPDATE needs whole rows */
    if (!is_update) {
        project = comb_arena_calloc(c->arena, (size_t)t->n_cols + 1);
        if (!project) {
            rc = comb_err_nomem(err);
            goto done;
        }
        sql_expr_mark_columns(where, t->n_cols, project);
    }
    if ((rc = sql_scan_open(c, t, project, true, where, &scan, err)))
        goto done;
    if (where && (rc = sql_expr_prepare(where, c->arena, COMB_BATCH_SIZE, err)))
        goto done;
    if ((is_update && t->n_buckets > 0 && (rc = sql_table_bucketing(t, err))) ||
        (rc = sql_writer_open(c, t, is_update ? MS_OP_UPDATE : MS_OP_DELETE,
                              false, NULL, &d, err)))
        goto done;
    rc = update_delete_scan(c, t, &scan, is_update ? &plan : NULL, d, err);
    if (!rc)
        rc = sql_writer_finish(d, err);
done:
    sql_writer_close(d);
    sql_scan_close(&scan);
    release_assignments(&plan);
    return rc;
}
