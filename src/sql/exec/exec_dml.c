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
#include "sql/exec/op.h"

#include <string.h>

#include "common/buf.h"
#include "orc/orc.h"
#include "sql/func/rowstore.h"

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
        if ((rc = sql_part_static_value(c, t, i, it, &v[i], err)))
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
    return sql_err_at(err, COMB_ESEMANTIC, 10044, pos,
                      "Cannot insert into target table because column "
                      "number/types are different '%s': Table insclause-%d "
                      "has %d columns, but query has %d columns.",
                      t->ms->name, c->insert_clause, want, got);
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

/* One value of a VALUES row, converted to column col's type, into the
 * column's fill. */
static int store_row_value(SqlStmtCtx *c, const SqlTable *t, int col,
                           const AstExpr *value, SqlVecFill *fill, int row,
                           CombErr *err)
{
    static const SqlScope no_table = {NULL, NULL, -1};
    BoundExpr *e;
    int rc;
    if ((rc = sql_bind_expr(c, &no_table, value, &e, err)) ||
        (rc = sql_bind_assign(c, e, t, col, &e, err)))
        return rc;
    if (!sql_expr_is_const(e))
        return sql_err_at(err, COMB_ESEMANTIC, 0, value->pos,
                          "VALUES rows may only hold constant expressions");
    return e->kind == BX_CONST
               ? (store_const(fill, row, e) ? comb_err_nomem(err) : COMB_OK)
               : store_value(c, fill, row, e, err);
}

static bool column_listed(const int *map, int n_map, int col)
{
    for (int k = 0; k < n_map; k++)
        if (map[k] == col)
            return true;
    return false;
}

/* Columns the row gives no value get their DEFAULT (else NULL); the
 * DEFAULT keyword as a value does the same. */
static int bind_value_row(SqlStmtCtx *c, const SqlTable *t, const int *map,
                          int n_map, AstExpr **row_exprs, SqlVecFill *fills,
                          int row, CombErr *err)
{
    int rc = COMB_OK;
    for (int j = 0; j < t->n_cols && !rc; j++) {
        AstExpr *d;
        if (column_listed(map, n_map, j) || !sql_column_default_text(t, j)) {
            sql_fill_null(&fills[j], row);
            continue;
        }
        if (!(rc = sql_column_default(c, t, j, c->stmt->name.pos, &d, err)))
            rc = store_row_value(c, t, j, d, &fills[j], row, err);
    }
    for (int k = 0; k < n_map && !rc; k++) {
        AstExpr *v;
        if (!(rc = sql_value_or_default(c, t, map[k], row_exprs[k], &v, err)))
            rc = store_row_value(c, t, map[k], v, &fills[map[k]], row, err);
    }
    return rc;
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
static int insert_sink_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    SqlInsert *ins = ctx;
    const SqlTable *t = ins->t;
    CombBatch view = *b;
    for (int j = 0; j < t->n_cols; j++)
        ins->view[j] = ins->nulls.cols[j];
    for (int k = 0; k < ins->n_map; k++)
        ins->view[ins->map[k]] = b->cols[k];
    view.cols = ins->view;
    view.n_cols = t->n_cols;
    return sql_writer_insert(ins->w, &view, err);
}

/* Column j of the batch unlisted columns come from: its DEFAULT in every
 * row. */
static int fill_default_column(SqlStmtCtx *c, SqlInsert *ins, int j,
                               CombErr *err)
{
    SqlVecFill fill;
    AstExpr *d;
    int rc = sql_column_default(c, ins->t, j, c->stmt->name.pos, &d, err);
    if (rc)
        return rc;
    if (sql_fill_init(&fill, &ins->nulls.cols[j], c->arena))
        return comb_err_nomem(err);
    for (int r = 0; r < COMB_BATCH_SIZE && !rc; r++)
        rc = store_row_value(c, ins->t, j, d, &fill, r, err);
    return rc;
}

/* The columns the select does not give: NULL, or their DEFAULT. */
static int insert_sink_init(SqlStmtCtx *c, SqlInsert *ins, CombErr *err)
{
    const SqlTable *t = ins->t;
    int rc = COMB_OK;
    ins->view = comb_arena_alloc(c->arena, (size_t)(t->n_cols + 1) * sizeof *ins->view);
    if (!ins->view ||
        comb_batch_init_types(&ins->nulls, t->n_cols, t->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    for (int j = 0; j < t->n_cols && !rc; j++) {
        memset(ins->nulls.cols[j].nulls, 1, COMB_BATCH_SIZE);
        ins->nulls.cols[j].has_nulls = true;
        if (sql_column_default_text(t, j) && !column_listed(ins->map, ins->n_map, j))
            rc = fill_default_column(c, ins, j, err);
    }
    return rc;
}

/* Run the planned select into ins->w. */
static int insert_select_rows(SqlStmtCtx *c, SqlInsert *ins, CombErr *err)
{
    SqlSink sink = {ins, NULL, insert_sink_batch, NULL, NULL};
    int rc = insert_sink_init(c, ins, err);
    return rc ? rc : sql_select_run(c, ins->sel, &sink, err);
}

int sql_insert_select_rows(SqlStmtCtx *c, SqlWriter *w, SqlSelectPlan *sel,
                           const int *map, int n_map, CombErr *err)
{
    SqlInsert ins = {.t = w->t, .map = (int *)map, .n_map = n_map,
                     .sel = sel, .w = w};
    int rc = insert_select_rows(c, &ins, err);
    if (ins.nulls.cols)
        comb_batch_free(&ins.nulls);
    return rc;
}

static int plan_insert_select(SqlStmtCtx *c, SqlInsert *ins, CombErr *err)
{
    const AstStmt *st = c->stmt;
    const char *const *names;
    const CombTypeKind *kinds;
    int n_out, rc;
    if ((rc = sql_select_plan(c, st->select, &ins->sel, err)))
        return rc;
    sql_select_output(ins->sel, &n_out, &names, &kinds);
    if (n_out != ins->n_map)
        return arity_error(c, ins->t, st->name.pos, ins->n_map, n_out, err);
    if ((rc = sql_select_coerce(c, ins->sel, ins->map, ins->t, err)))
        return rc;
    return sql_select_open(c, ins->sel, err);
}

/* INSERT OVERWRITE replaces a unit even when no row comes for it: the
 * table, or a partition named by static values alone. */
static int touch_overwritten(SqlStmtCtx *c, SqlInsert *ins, CombErr *err)
{
    SqlTable *t = ins->t;
    char **values;
    char *name;
    int rc;
    if (!c->stmt->overwrite)
        return COMB_OK;
    if (t->n_part == 0)
        return sql_writer_touch(ins->w, NULL, NULL, err);
    if ((rc = sql_insert_static_name(c, ins, &name, &values, err)) || !name)
        return rc;
    return sql_writer_touch(ins->w, name, values, err);
}

int sql_insert_static_name(SqlStmtCtx *c, const SqlInsert *ins, char **name,
                           char ***values, CombErr *err)
{
    const SqlTable *t = ins->t;
    char **v = comb_arena_alloc(c->arena, (size_t)(t->n_part + 1) * sizeof *v);
    *name = NULL;
    *values = v;
    if (!v)
        return comb_err_nomem(err);
    for (int k = 0; k < t->n_part; k++) {
        if (!ins->static_values[k])
            return COMB_OK;
        v[k] = strcmp(ins->static_values[k], MS_DEFAULT_PARTITION_NAME) == 0
                   ? NULL : ins->static_values[k];
    }
    return t->n_part ? ms_part_name_make(t->ms, v, c->arena, name, err)
                     : COMB_OK;
}

int sql_insert_plan(SqlStmtCtx *c, SqlInsert *ins, CombErr *err)
{
    const AstStmt *st = c->stmt;
    int n_dynamic, rc;
    memset(ins, 0, sizeof *ins);
    if ((rc = sql_table_resolve(c, &st->name, &ins->t, err)) ||
        (rc = sql_table_writable(ins->t, st->name.pos, false, err)) ||
        (rc = sql_insert_partition_spec(c, ins->t, c->load_source != NULL,
                                        &ins->static_values, &n_dynamic, err)) ||
        (rc = insert_column_map(c, ins->t, ins->static_values, &ins->map,
                                &ins->n_map, err)))
        return rc;
    if (ins->t->n_buckets > 0 && (rc = sql_table_bucketing(ins->t, err)))
        return rc;
    /* the source is read under a write-id list taken before our own write
     * id exists, so INSERT INTO t SELECT FROM t never reads its output */
    if ((rc = sql_txn_begin(c, err)) ||
        (st->select && (rc = plan_insert_select(c, ins, err))))
        return rc;
    return COMB_OK;
}

int sql_insert_write(SqlStmtCtx *c, SqlInsert *ins, int stmt_id,
                     SqlWriter *same_table, CombErr *err)
{
    int rc;
    if ((rc = sql_writer_open(c, ins->t, MS_OP_INSERT, c->stmt->overwrite,
                              ins->static_values, &ins->w, err)))
        return rc;
    ins->w->stmt_id = stmt_id;
    ins->w->same_table = same_table;
    if ((rc = touch_overwritten(c, ins, err)))
        return rc;
    if (!ins->sel)
        return insert_values(c, ins->t, ins->w, ins->map, ins->n_map, err);
    return insert_select_rows(c, ins, err);
}

void sql_insert_close(SqlInsert *ins)
{
    sql_writer_close(ins->w);
    sql_select_close(ins->sel);
    if (ins->nulls.cols)
        comb_batch_free(&ins->nulls);
    ins->w = NULL;
    ins->sel = NULL;
}

int sql_exec_insert(SqlStmtCtx *c, CombErr *err)
{
    SqlInsert ins;
    int rc = sql_insert_plan(c, &ins, err);
    if (!rc)
        rc = sql_insert_write(c, &ins, 0, NULL, err);
    if (!rc)
        rc = sql_writer_finish(ins.w, err);
    sql_insert_close(&ins);
    return rc;
}

/* --------------------------------------------------------- UPDATE / DELETE */

typedef struct UpdatePlan {
    int n_set;
    int *set_col;           /* table column of each assignment */
    BoundExpr **set_expr;   /* coerced to the column type */
    CombVector *image;      /* the new row image's columns (table order) */
} UpdatePlan;

int sql_set_target_column(const SqlTable *t, const AstAssignment *a, int *out,
                          CombErr *err)
{
    int col = sql_table_column(t, a->column);
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
    *out = col;
    return COMB_OK;
}

/* Whether the WHERE or a SET value of an UPDATE / DELETE reads
 * INPUT__FILE__NAME (the scan fills it only then). */
static bool dml_reads_file_name(const SqlTable *t, const BoundExpr *where,
                                const UpdatePlan *p)
{
    if (sql_scan_reads_file_name(t, where))
        return true;
    for (int i = 0; i < p->n_set; i++)
        if (sql_scan_reads_file_name(t, p->set_expr[i]))
            return true;
    return false;
}

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
        AstExpr *value;
        int col, rc;
        if ((rc = sql_set_target_column(t, a, &col, err)) ||
            (rc = sql_value_or_default(c, t, col, a->value, &value, err)))
            return rc;
        p->set_col[i] = col;
        if ((rc = sql_bind_expr(c, sc, value, &p->set_expr[i], err)) ||
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

static int update_delete_scan(SqlScan *scan, UpdatePlan *p, SqlWriter *d,
                              CombErr *err)
{
    bool done = false;
    int rc = COMB_OK;
    while (!rc) {
        rc = sql_scan_next(scan, &done, err);
        if (rc || done)
            break;
        rc = sql_writer_delete_rows(d, sql_scan_unit(scan), &scan->batch, err);
        if (!rc && p)
            rc = insert_updated_rows(d, p, &scan->batch, err);
    }
    return rc;
}

bool sql_has_subquery(const AstExpr *e)
{
    if (!e)
        return false;
    if (e->kind == AST_SUBQUERY || e->kind == AST_EXISTS ||
        (e->kind == AST_IN && e->query))
        return true;
    for (int i = 0; i < e->n_args; i++)
        if (sql_has_subquery(e->args[i]))
            return true;
    return sql_has_subquery(e->left) || sql_has_subquery(e->right) ||
           sql_has_subquery(e->third);
}

int sql_dml_source(SqlStmtCtx *c, const SqlTable *t, const AstExpr *where,
                   bool is_update, SqlOp **root, CombErr *err)
{
    LpNode *lp;
    bool *used;
    int rc;
    if ((rc = sql_lp_bind_dml_source(c, t, where, &lp, err)) ||
        (rc = sql_lp_lower(c, lp, root, err)))
        return rc;
    if (!(used = comb_arena_calloc(c->arena, (size_t)(*root)->n_cols + 1)))
        return comb_err_nomem(err);
    /* UPDATE writes whole rows, DELETE ROW__ID's events into the
     * partitions the rows' partition columns name */
    memset(used, is_update, (size_t)t->n_data);
    memset(used + t->n_data, 1, (size_t)(t->n_cols - t->n_data) + 3);
    sql_op_need(*root, used);
    return COMB_OK;
}

/* UPDATE / DELETE whose WHERE has subqueries: the rows come from the
 * source plan's operators, in any order of the target's partitions (a
 * join that spills, or builds its left side, gives them late), so each
 * row's delete event goes to the partition its own partition columns
 * name. */
static int update_delete_joined(SqlOp *root, UpdatePlan *p, SqlWriter *d,
                                CombErr *err)
{
    int rc = COMB_OK;
    while (!rc) {
        const CombBatch *b;
        if ((rc = sql_op_next(root, &b, err)) || !b)
            break;
        rc = sql_writer_delete_rows(d, NULL, b, err);
        if (!rc && p)
            rc = insert_updated_rows(d, p, b, err);
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
    if (sql_has_subquery(st->where)) {
        SqlOp *root = NULL;
        if (!(rc = sql_dml_source(c, t, st->where, is_update, &root, err)) &&
            !(rc = sql_op_open(root, err)) &&
            !(is_update && (rc = bind_assignments(c, t, &sc, &plan, err))) &&
            !(is_update && t->n_buckets > 0 && (rc = sql_table_bucketing(t, err))) &&
            !(rc = sql_writer_open(c, t, is_update ? MS_OP_UPDATE : MS_OP_DELETE,
                                   false, NULL, &d, err)) &&
            !(rc = update_delete_joined(root, is_update ? &plan : NULL, d, err)))
            rc = sql_writer_finish(d, err);
        sql_writer_close(d);
        sql_op_close(root);
        release_assignments(&plan);
        return rc;
    }
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
    if ((rc = sql_scan_open(c, t, project, true,
                            dml_reads_file_name(t, where, &plan), where,
                            &scan, err)))
        goto done;
    if (where && (rc = sql_expr_prepare(where, c->arena, COMB_BATCH_SIZE, err)))
        goto done;
    if ((is_update && t->n_buckets > 0 && (rc = sql_table_bucketing(t, err))) ||
        (rc = sql_writer_open(c, t, is_update ? MS_OP_UPDATE : MS_OP_DELETE,
                              false, NULL, &d, err)))
        goto done;
    rc = update_delete_scan(&scan, is_update ? &plan : NULL, d, err);
    if (!rc)
        rc = sql_writer_finish(d, err);
done:
    sql_writer_close(d);
    sql_scan_close(&scan);
    release_assignments(&plan);
    return rc;
}
