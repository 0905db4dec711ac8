/*
 * exec_merge.c - MERGE INTO target USING source ON cond WHEN ... clauses.
 *
 * As in Hive, the statement is one query: target RIGHT OUTER JOIN source
 * ON cond (an inner join when there is no WHEN NOT MATCHED clause).  Its
 * output row carries the target's ROW__ID and columns, each clause's
 * condition and the values of its SET or VALUES list, all bound in the
 * scope of both tables and converted to the target columns' types like
 * INSERT's values.  A row whose ROW__ID is NULL matched no target row.
 * Each row goes to the first clause of its kind whose condition holds;
 * as in Hive's rewrite (the second WHEN MATCHED clause gets AND NOT the
 * first one's condition), a NULL condition of the first clause keeps the
 * row from the second too.
 *
 * Each clause is one leg with a writer of its own, so, as in Hive 4, the
 * target gets one write id and each leg the next statement id in clause
 * order: UPDATE a delete_delta_W_W_s and a delta_W_W_s (split update),
 * DELETE a delete_delta_W_W_s, INSERT a delta_W_W_s.  The join is planned
 * and opened under the statement snapshot before the write id exists, so
 * MERGE INTO t USING t never reads its own rows.  Every writer finishes
 * its files, then records; the session commits.  Any error (the
 * cardinality check among them) aborts and nothing is visible.
 *
 * The cardinality check (hive.merge.cardinality.check, default true,
 * only with a WHEN MATCHED clause): two source rows matching one target
 * row fail the statement.  Hive groups the matched rows by ROW__ID and
 * partition; here a hash set of the (partition, ROW__ID) of every
 * matched row does it as the rows stream.
 */
#include "sql/exec/op.h"

#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "common/buf.h"

#define MERGE_ROWID_COLS 3      /* writeid, bucketid, rowid outputs */

/* One WHEN clause as a leg: where its outputs are, its writer. */
typedef struct MergeLeg {
    const AstMergeClause *cl;
    int cond;                /* output column of its condition, -1 none */
    int first;               /* first output of its SET / VALUES list */
    int n;                   /* outputs of that list */
    int *cols;               /* the table column each of them sets */
    AstExpr **values;        /* their expressions: the SET or VALUES list
                                with DEFAULT resolved, then (INSERT) the
                                DEFAULT of each column the list leaves out */
    SqlWriter *w;
    uint16_t rows[COMB_BATCH_SIZE]; /* this batch's rows of the leg */
    int n_rows;
} MergeLeg;

/* A target partition seen in matched rows. */
typedef struct MergeUnit {
    SqlUnit u;
    uint64_t hash;
} MergeUnit;

/* A matched target row: (partition, ROW__ID). */
typedef struct SeenRow {
    int64_t writeid, rowid;
    int32_t bucket;
    int32_t unit;            /* MergeUnit index + 1; 0 = empty slot */
} SeenRow;

typedef struct MergeRun {
    SqlStmtCtx *c;
    const AstStmt *st;       /* the MERGE statement */
    SqlTable *t;
    const AstMerge *m;
    MergeLeg legs[3];
    int n_legs;
    bool has_matched;
    bool check_cardinality;
    AstSelect *query;
    SqlSelectPlan *plan;
    int n_out;
    CombBatch nulls;         /* an all-NULL vector per table column */
    CombVector *view;        /* a leg's new row images, table order */
    MergeUnit *units;
    int n_units, cap_units;
    SeenRow *seen;           /* open addressing, at most half full */
    size_t n_seen, cap_seen;
} MergeRun;

/* ----------------------------------------------------------- the rules */

/* Hive's limits on WHEN MATCHED clauses (the grammar already keeps one
 * WHEN NOT MATCHED, last): one UPDATE, one DELETE, and with both the
 * first needs a condition. */
static int check_clauses(const AstStmt *st, CombErr *err)
{
    const AstMerge *m = st->merge;
    const char *text = st->text ? st->text : "";
    int n_update = 0, n_delete = 0;
    for (int i = 0; i < m->n_clauses; i++) {
        const AstMergeClause *cl = &m->clauses[i];
        n_update += cl->action == AST_MERGE_UPDATE;
        n_delete += cl->action == AST_MERGE_DELETE;
        if (n_delete > 1)
            return sql_err_at(err, COMB_ESEMANTIC, 10405, cl->pos,
                              "MERGE statement can have at most 1 WHEN "
                              "MATCHED ... DELETE clause: <%s>", text);
        if (n_update > 1)
            return sql_err_at(err, COMB_ESEMANTIC, 10406, cl->pos,
                              "MERGE statement can have at most 1 WHEN "
                              "MATCHED ... UPDATE clause: <%s>", text);
    }
    if (n_update + n_delete == 2 && !m->clauses[0].cond)
        return sql_err_at(err, COMB_ESEMANTIC, 10404, m->clauses[0].pos,
                          "MERGE statement with both UPDATE and DELETE "
                          "clauses requires \"AND <boolean>\" on the 1st WHEN "
                          "MATCHED clause of <%s>", text);
    return COMB_OK;
}

/* Does e name a column of the target: alias.col, or col alone when the
 * target has it? */
static bool reads_target(const AstExpr *e, const SqlTable *t, const char *alias)
{
    if (!e)
        return false;
    if (e->kind == AST_COLREF)
        return e->qualifier ? strcasecmp(e->qualifier, alias) == 0
                            : sql_table_column(t, e->name) >= 0;
    for (int i = 0; i < e->n_args; i++)
        if (reads_target(e->args[i], t, alias))
            return true;
    return reads_target(e->left, t, alias) || reads_target(e->right, t, alias) ||
           reads_target(e->third, t, alias);
}

/* Hive's 10149: an ON clause that never reads the target. */
static int check_on(const SqlTable *t, const AstMerge *m, CombErr *err)
{
    if (reads_target(m->on, t, m->alias))
        return COMB_OK;
    return sql_err_at(err, COMB_ESEMANTIC, 10149, m->on->pos,
                      "No columns from target table '%s' found in ON clause "
                      "'%s' of MERGE statement.", m->alias,
                      m->on->text ? m->on->text : "");
}

/* The table column of each SET, refusing Hive's forbidden targets. */
static int set_columns(SqlStmtCtx *c, const SqlTable *t, MergeLeg *leg,
                       CombErr *err)
{
    const AstMergeClause *cl = leg->cl;
    leg->n = cl->n_assignments;
    if (!(leg->cols = comb_arena_alloc(c->arena, (size_t)(leg->n + 1) * sizeof(int))))
        return comb_err_nomem(err);
    for (int i = 0; i < leg->n; i++) {
        const AstAssignment *a = &cl->assignments[i];
        int col, rc;
        if ((rc = sql_set_target_column(t, a, &col, err)))
            return rc;
        for (int j = 0; j < i; j++)
            if (leg->cols[j] == col)
                return sql_err_at(err, COMB_ESEMANTIC, 10408, a->pos,
                                  "column \"%s\" is set twice in the set "
                                  "clause", a->column);
        leg->cols[i] = col;
    }
    return COMB_OK;
}

/* The table column of each VALUES item: the listed columns, else every
 * column in table order (partition keys last: dynamic partitions). */
static int insert_columns(SqlStmtCtx *c, const SqlTable *t, MergeLeg *leg,
                          int clause, CombErr *err)
{
    const AstMergeClause *cl = leg->cl;
    int want = cl->n_insert_cols ? cl->n_insert_cols : t->n_cols;
    if (cl->n_values != want)
        return sql_err_at(err, COMB_ESEMANTIC, 10044, cl->values_pos,
                          "Cannot insert into target table because column "
                          "number/types are different '%s': Table "
                          "insclause-%d has %d columns, but query has %d "
                          "columns.", t->ms->name, clause, want, cl->n_values);
    leg->n = want;
    /* room for the unlisted columns with a DEFAULT (leg_values) */
    if (!(leg->cols = comb_arena_alloc(c->arena, (size_t)(t->n_cols + 1) * sizeof(int))))
        return comb_err_nomem(err);
    for (int i = 0; i < want; i++) {
        if (!cl->n_insert_cols) {
            leg->cols[i] = i;
            continue;
        }
        leg->cols[i] = sql_table_column(t, cl->insert_cols[i]);
        if (leg->cols[i] < 0)
            return sql_err_at(err, COMB_ESEMANTIC, 10044, cl->insert_col_pos[i],
                              "'%s' in insert schema specification is not "
                              "found among regular columns of %s",
                              cl->insert_cols[i], t->qualified);
        for (int j = 0; j < i; j++)
            if (leg->cols[j] == leg->cols[i])
                return sql_err_at(err, COMB_ESEMANTIC, 10044,
                                  cl->insert_col_pos[i],
                                  "column '%s' is listed twice in the insert "
                                  "schema", cl->insert_cols[i]);
    }
    return COMB_OK;
}

/* The leg's expressions: its list with the DEFAULT keyword replaced by
 * the column's default, and for INSERT the DEFAULT of every data column
 * its column list leaves out (the others stay NULL), as Hive's rewrite
 * fills them. */
static int leg_values(SqlStmtCtx *c, const SqlTable *t, MergeLeg *leg,
                      CombErr *err)
{
    const AstMergeClause *cl = leg->cl;
    bool insert = cl->action == AST_MERGE_INSERT;
    int n = leg->n, rc = COMB_OK;
    if (!(leg->values = comb_arena_alloc(c->arena, (size_t)(t->n_cols + n + 1) *
                                                       sizeof *leg->values)))
        return comb_err_nomem(err);
    for (int i = 0; i < n && !rc; i++)
        rc = sql_value_or_default(c, t, leg->cols[i],
                                  insert ? cl->values[i] : cl->assignments[i].value,
                                  &leg->values[i], err);
    for (int j = 0; insert && j < t->n_data && !rc; j++) {
        bool listed = false;
        for (int i = 0; i < n; i++)
            listed |= leg->cols[i] == j;
        if (listed || !sql_column_default_text(t, j))
            continue;
        leg->cols[leg->n] = j;
        rc = sql_column_default(c, t, j, cl->values_pos, &leg->values[leg->n++],
                                err);
    }
    return rc;
}

static int plan_legs(MergeRun *r, CombErr *err)
{
    const AstMerge *m = r->m;
    int out = MERGE_ROWID_COLS + r->t->n_cols, rc;
    for (int i = 0; i < m->n_clauses; i++) {
        MergeLeg *leg = &r->legs[i];
        leg->cl = &m->clauses[i];
        leg->cond = leg->cl->cond ? out++ : -1;
        leg->first = out;
        if (leg->cl->action == AST_MERGE_INSERT)
            rc = insert_columns(r->c, r->t, leg, i, err);
        else
            rc = leg->cl->action == AST_MERGE_UPDATE
                     ? set_columns(r->c, r->t, leg, err) : COMB_OK;
        if (!rc && leg->cl->action != AST_MERGE_DELETE)
            rc = leg_values(r->c, r->t, leg, err);
        if (rc)
            return rc;
        r->has_matched |= leg->cl->action != AST_MERGE_INSERT;
        out += leg->n;
    }
    r->n_legs = m->n_clauses;
    r->n_out = out;
    return COMB_OK;
}

/* ------------------------------------------------------------ the query */

static AstExpr *new_expr(SqlStmtCtx *c, AstExprKind kind, AstPos pos,
                         const char *qualifier, const char *name)
{
    AstExpr *e = comb_arena_calloc(c->arena, sizeof *e);
    if (!e)
        return NULL;
    e->kind = kind;
    e->pos = pos;
    e->qualifier = (char *)qualifier;
    e->name = (char *)name;
    e->height = 1;
    return e;
}

/* alias.ROW__ID.field */
static AstExpr *rowid_field(SqlStmtCtx *c, const AstMerge *m, AstPos pos,
                            const char *field)
{
    AstExpr *id = new_expr(c, AST_COLREF, pos, m->alias, "row__id");
    AstExpr *f = id ? new_expr(c, AST_FIELD, pos, NULL, field) : NULL;
    if (f) {
        f->left = id;
        f->height = 2;
    }
    return f;
}

/* The select list: ROW__ID's fields, the target's columns, then per leg
 * its condition and its SET or VALUES expressions. */
static int query_items(MergeRun *r, AstSelectItem *items, CombErr *err)
{
    static const char *const fields[MERGE_ROWID_COLS] = {"writeid", "bucketid",
                                                         "rowid"};
    SqlStmtCtx *c = r->c;
    AstPos pos = r->m->on_pos;
    int k = 0;
    for (int i = 0; i < MERGE_ROWID_COLS; i++)
        if (!(items[k++].expr = rowid_field(c, r->m, pos, fields[i])))
            return comb_err_nomem(err);
    for (int j = 0; j < r->t->n_cols; j++)
        if (!(items[k++].expr = new_expr(c, AST_COLREF, pos, r->m->alias,
                                         r->t->names[j])))
            return comb_err_nomem(err);
    for (int i = 0; i < r->n_legs; i++) {
        const AstMergeClause *cl = r->legs[i].cl;
        if (cl->cond)
            items[k++].expr = cl->cond;
        for (int v = 0; v < r->legs[i].n; v++)
            items[k++].expr = r->legs[i].values[v];
    }
    return COMB_OK;
}

static int build_query(MergeRun *r, CombErr *err)
{
    SqlStmtCtx *c = r->c;
    const AstMerge *m = r->m;
    AstSelect *q = comb_arena_calloc(c->arena, sizeof *q);
    AstFrom *join = comb_arena_calloc(c->arena, sizeof *join);
    AstFrom *target = comb_arena_calloc(c->arena, sizeof *target);
    bool inserts = r->legs[r->n_legs - 1].cl->action == AST_MERGE_INSERT;
    if (!q || !join || !target ||
        !(q->items = comb_arena_calloc(c->arena, (size_t)r->n_out * sizeof *q->items)))
        return comb_err_nomem(err);
    target->kind = AST_FROM_TABLE;
    target->pos = r->st->name.pos;
    target->table = r->st->name;
    target->alias = m->alias;
    join->kind = AST_FROM_JOIN;
    join->pos = m->on_pos;
    join->join = inserts ? AST_JOIN_RIGHT : AST_JOIN_INNER;
    join->left = target;
    join->right = m->source;
    join->on = m->on;
    q->pos = r->st->pos;
    q->limit = -1;
    q->from = join;
    q->n_items = r->n_out;
    r->query = q;
    return query_items(r, q->items, err);
}

/* The type each output is converted to: ROW__ID's fields, the target's
 * columns, BOOLEAN conditions, the set column's type. */
static int output_shape(MergeRun *r, SqlTable *shape, int **map, CombErr *err)
{
    SqlStmtCtx *c = r->c;
    const SqlTable *t = r->t;
    int n = r->n_out, k = 0;
    const CombType **types = comb_arena_alloc(c->arena, (size_t)n * sizeof *types);
    CombTypeKind *kinds = comb_arena_alloc(c->arena, (size_t)n * sizeof *kinds);
    const char **names = comb_arena_alloc(c->arena, (size_t)n * sizeof *names);
    int *m = comb_arena_alloc(c->arena, (size_t)n * sizeof *m);
    if (!types || !kinds || !names || !m)
        return comb_err_nomem(err);
    for (int i = 0; i < MERGE_ROWID_COLS; i++, k++) {
        types[k] = sql_kind_type(i == 1 ? COMB_T_INT : COMB_T_BIGINT);
        names[k] = "ROW__ID";
    }
    for (int j = 0; j < t->n_cols; j++, k++) {
        types[k] = t->types[j];
        names[k] = t->names[j];
    }
    for (int i = 0; i < r->n_legs; i++) {
        const MergeLeg *leg = &r->legs[i];
        if (leg->cond >= 0) {
            types[k] = sql_kind_type(COMB_T_BOOLEAN);
            names[k++] = "WHEN condition";
        }
        for (int v = 0; v < leg->n; v++, k++) {
            types[k] = t->types[leg->cols[v]];
            names[k] = t->names[leg->cols[v]];
        }
    }
    for (int j = 0; j < n; j++) {
        kinds[j] = types[j]->kind;
        m[j] = j;
    }
    memset(shape, 0, sizeof *shape);
    shape->ms = t->ms;
    shape->qualified = t->qualified;
    shape->n_cols = shape->n_data = n;
    shape->names = names;
    shape->types = types;
    shape->kinds = kinds;
    *map = m;
    return COMB_OK;
}

static int plan_query(MergeRun *r, CombErr *err)
{
    SqlTable shape;
    int *map = NULL, n_out, rc;
    const char *const *names;
    const CombTypeKind *kinds;
    if ((rc = build_query(r, err)) ||
        (rc = sql_select_plan(r->c, r->query, &r->plan, err)))
        return rc;
    sql_select_output(r->plan, &n_out, &names, &kinds);
    if (n_out != r->n_out)
        return COMB_INTERNAL(err, "MERGE's query has other columns");
    if ((rc = output_shape(r, &shape, &map, err)) ||
        (rc = sql_select_coerce(r->c, r->plan, map, &shape, err)))
        return rc;
    return sql_select_open(r->c, r->plan, err);
}

/* ------------------------------------------------- partitions of rows */

static uint64_t text_hash(uint64_t h, const CombStr *s)
{
    h = (h ^ (s->ptr ? 1u : 2u)) * 1099511628211ULL;
    for (uint32_t i = 0; s->ptr && i < s->len; i++)
        h = (h ^ (unsigned char)s->ptr[i]) * 1099511628211ULL;
    return h;
}

static bool unit_is(const MergeUnit *mu, const CombStr *keys, int n)
{
    for (int k = 0; k < n; k++) {
        const char *v = mu->u.values[k];
        if (!v || !keys[k].ptr) {
            if (v || keys[k].ptr)
                return false;
        } else if (strlen(v) != keys[k].len ||
                   memcmp(v, keys[k].ptr, keys[k].len) != 0) {
            return false;
        }
    }
    return true;
}

static int unit_add(MergeRun *r, const CombStr *keys, uint64_t h, CombErr *err)
{
    SqlStmtCtx *c = r->c;
    int n_part = r->t->n_part;
    char **v = comb_arena_calloc(c->arena, (size_t)(n_part + 1) * sizeof *v);
    MergeUnit *mu;
    if (!v)
        return comb_err_nomem(err);
    if (r->n_units == r->cap_units) {
        int cap = r->cap_units ? r->cap_units * 2 : 8;
        MergeUnit *g = comb_arena_alloc(c->arena, (size_t)cap * sizeof *g);
        if (!g)
            return comb_err_nomem(err);
        if (r->n_units)
            memcpy(g, r->units, (size_t)r->n_units * sizeof *g);
        r->units = g;
        r->cap_units = cap;
    }
    for (int k = 0; k < n_part; k++)
        if (keys[k].ptr &&
            !(v[k] = comb_arena_strndup(c->arena, keys[k].ptr, keys[k].len)))
            return comb_err_nomem(err);
    mu = &r->units[r->n_units];
    memset(mu, 0, sizeof *mu);
    mu->u.values = v;
    mu->hash = h;
    if (n_part > 0)
        return ms_part_name_make(r->t->ms, v, c->arena, (char **)&mu->u.name,
                                 err);
    return COMB_OK;
}

/* The index of the target partition of matched row `row`, from its
 * partition columns; the table's own directory when not partitioned.
 * Partitions are few: the last one found is tried first, then the
 * others in turn. */
static int row_unit(MergeRun *r, const CombBatch *b, int row, int *out,
                    CombErr *err)
{
    const SqlTable *t = r->t;
    CombStr keys[64];
    char bufs[64][SQL_PART_TEXT_MAX];
    uint64_t h = 14695981039346656037ULL;
    int rc;
    if (t->n_part > 64)
        return comb_err(err, COMB_EUNSUPPORTED,
                        "MERGE into a table of more than 64 partition keys");
    for (int k = 0; k < t->n_part; k++) {
        const CombVector *v = &b->cols[MERGE_ROWID_COLS + t->n_data + k];
        if (!sql_part_value_view(v, row, bufs[k], SQL_PART_TEXT_MAX, &keys[k]) ||
            keys[k].len == 0)
            keys[k].ptr = NULL;
        h = text_hash(h, &keys[k]);
    }
    for (int i = r->n_units - 1; i >= 0; i--)
        if (r->units[i].hash == h && unit_is(&r->units[i], keys, t->n_part)) {
            *out = i;
            return COMB_OK;
        }
    if ((rc = unit_add(r, keys, h, err)))
        return rc;
    *out = r->n_units++;
    return COMB_OK;
}

/* ------------------------------------------------- the cardinality check */

static size_t seen_slot(const MergeRun *r, const SeenRow *s)
{
    uint64_t h = (uint64_t)s->writeid * 0x9E3779B97F4A7C15ULL;
    h ^= (uint64_t)s->rowid * 0xC2B2AE3D27D4EB4FULL;
    h ^= (uint64_t)(uint32_t)s->bucket * 0x165667B19E3779F9ULL;
    h ^= (uint64_t)(uint32_t)s->unit * 0x27D4EB2F165667C5ULL;
    return (size_t)(h ^ (h >> 29)) & (r->cap_seen - 1);
}

static bool seen_same(const SeenRow *a, const SeenRow *b)
{
    return a->writeid == b->writeid && a->rowid == b->rowid &&
           a->bucket == b->bucket && a->unit == b->unit;
}

static int seen_grow(MergeRun *r, CombErr *err)
{
    SeenRow *old = r->seen;
    size_t n = r->cap_seen;
    r->cap_seen = n ? n * 2 : 1024;
    if (!(r->seen = comb_calloc(r->cap_seen, sizeof *r->seen))) {
        r->seen = old;
        r->cap_seen = n;
        return comb_err_nomem(err);
    }
    for (size_t i = 0; i < n; i++) {
        size_t s;
        if (!old[i].unit)
            continue;
        for (s = seen_slot(r, &old[i]); r->seen[s].unit; s = (s + 1) & (r->cap_seen - 1))
            ;
        r->seen[s] = old[i];
    }
    comb_free(old);
    return COMB_OK;
}

static int cardinality_violation(MergeRun *r, const SeenRow *s, CombErr *err)
{
    const SqlUnit *u = &r->units[s->unit - 1].u;
    CombBuf b = COMB_BUF_INIT;
    int rc;
    comb_buf_printf(&b, "{\"writeid\":%lld,\"bucketid\":%d,\"rowid\":%lld}",
                    (long long)s->writeid, (int)s->bucket, (long long)s->rowid);
    for (int k = 0; k < r->t->n_part; k++)
        comb_buf_printf(&b, ",%s", u->values[k] ? u->values[k] : "NULL");
    rc = sql_err_at(err, COMB_EINVALID, 0, r->m->on_pos,
                    "Cardinality Violation in Merge statement: %.*s",
                    (int)b.len, b.data ? (char *)b.data : "");
    comb_buf_free(&b);
    return rc;
}

/* A target row matched: fail if it matched before. */
static int check_once(MergeRun *r, const SeenRow *row, CombErr *err)
{
    size_t s;
    int rc;
    if ((r->n_seen + 1) * 2 > r->cap_seen && (rc = seen_grow(r, err)))
        return rc;
    for (s = seen_slot(r, row); r->seen[s].unit; s = (s + 1) & (r->cap_seen - 1))
        if (seen_same(&r->seen[s], row))
            return cardinality_violation(r, row, err);
    r->seen[s] = *row;
    r->n_seen++;
    return COMB_OK;
}

/* ------------------------------------------------------------- the rows */

static bool is_null(const CombVector *v, int row)
{
    return v->has_nulls && v->nulls[row];
}

/* The leg of a row, -1 for none. */
static int row_leg(const MergeRun *r, const CombBatch *b, int row)
{
    bool matched = !is_null(&b->cols[0], row);
    for (int i = 0; i < r->n_legs; i++) {
        const MergeLeg *leg = &r->legs[i];
        const CombVector *cv;
        if ((leg->cl->action == AST_MERGE_INSERT) == matched)
            continue;
        if (leg->cond < 0)
            return i;
        cv = &b->cols[leg->cond];
        if (is_null(cv, row))
            return -1;
        if (cv->i64[row])
            return i;
    }
    return -1;
}

/* The matched rows of a batch: the cardinality check, and each row to
 * its leg. */
static int route_batch(MergeRun *r, const CombBatch *b, CombErr *err)
{
    for (int i = 0; i < r->n_legs; i++)
        r->legs[i].n_rows = 0;
    for (int i = 0; i < comb_batch_live(b); i++) {
        int row = comb_batch_row(b, i), leg, unit, rc;
        bool matched = !is_null(&b->cols[0], row);
        if (matched && r->check_cardinality) {
            SeenRow s = {b->cols[0].i64[row], b->cols[2].i64[row],
                         (int32_t)b->cols[1].i64[row], 0};
            if ((rc = row_unit(r, b, row, &unit, err)))
                return rc;
            s.unit = unit + 1;
            if ((rc = check_once(r, &s, err)))
                return rc;
        }
        if ((leg = row_leg(r, b, row)) >= 0)
            r->legs[leg].rows[r->legs[leg].n_rows++] = (uint16_t)row;
    }
    return COMB_OK;
}

static int delete_rows(MergeRun *r, MergeLeg *leg, const CombBatch *b,
                       CombErr *err)
{
    for (int i = 0; i < leg->n_rows; i++) {
        int row = leg->rows[i], unit, rc;
        if ((rc = row_unit(r, b, row, &unit, err)) ||
            (rc = sql_writer_delete(leg->w, &r->units[unit].u,
                                    b->cols[0].i64[row],
                                    (int32_t)b->cols[1].i64[row],
                                    b->cols[2].i64[row], err)))
            return rc;
    }
    return COMB_OK;
}

/* The leg's new rows: the target's row (UPDATE) or NULLs (INSERT) with
 * the leg's outputs in their columns; vectors shared, not copied, so each
 * SET sees the row as it was (SET a = b, b = a swaps). */
static int insert_rows(MergeRun *r, MergeLeg *leg, const CombBatch *b,
                       CombErr *err)
{
    const SqlTable *t = r->t;
    CombBatch image = *b;
    for (int j = 0; j < t->n_cols; j++)
        r->view[j] = leg->cl->action == AST_MERGE_UPDATE
                         ? b->cols[MERGE_ROWID_COLS + j] : r->nulls.cols[j];
    for (int k = 0; k < leg->n; k++)
        r->view[leg->cols[k]] = b->cols[leg->first + k];
    image.cols = r->view;
    image.n_cols = t->n_cols;
    image.use_sel = true;
    image.n_sel = leg->n_rows;
    image.sel = leg->rows;
    return sql_writer_insert(leg->w, &image, err);
}

static int merge_batch(void *ctx, const CombBatch *b, CombErr *err)
{
    MergeRun *r = ctx;
    int rc;
    /* the legs' row lists and the NULL columns hold one batch's rows */
    if (b->n_rows > COMB_BATCH_SIZE)
        return COMB_INTERNAL(err, "a MERGE batch larger than a batch");
    rc = route_batch(r, b, err);
    for (int i = 0; i < r->n_legs && !rc; i++) {
        MergeLeg *leg = &r->legs[i];
        if (leg->n_rows == 0)
            continue;
        if (leg->cl->action != AST_MERGE_INSERT)
            rc = delete_rows(r, leg, b, err);
        if (!rc && leg->cl->action != AST_MERGE_DELETE)
            rc = insert_rows(r, leg, b, err);
    }
    return rc;
}

/* -------------------------------------------------------------- writers */

static MsOpType leg_op(const MergeLeg *leg)
{
    switch (leg->cl->action) {
    case AST_MERGE_UPDATE: return MS_OP_UPDATE;
    case AST_MERGE_DELETE: return MS_OP_DELETE;
    default: return MS_OP_INSERT;
    }
}

static int open_writers(MergeRun *r, CombErr *err)
{
    const SqlTable *t = r->t;
    int rc;
    if (!(r->view = comb_arena_alloc(r->c->arena, (size_t)(t->n_cols + 1) * sizeof *r->view)) ||
        comb_batch_init_types(&r->nulls, t->n_cols, t->types, COMB_BATCH_SIZE))
        return comb_err_nomem(err);
    for (int j = 0; j < t->n_cols; j++) {
        memset(r->nulls.cols[j].nulls, 1, COMB_BATCH_SIZE);
        r->nulls.cols[j].has_nulls = true;
    }
    for (int i = 0; i < r->n_legs; i++) {
        if ((rc = sql_writer_open(r->c, r->t, leg_op(&r->legs[i]), false,
                                  NULL, &r->legs[i].w, err)))
            return rc;
        r->legs[i].w->stmt_id = i;
    }
    return COMB_OK;
}

static int finish_writers(MergeRun *r, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; i < r->n_legs && !rc; i++)
        rc = sql_writer_finish_files(r->legs[i].w, err);
    for (int i = 0; i < r->n_legs && !rc; i++)
        rc = sql_writer_record(r->legs[i].w, err);
    return rc;
}

static void merge_close(MergeRun *r, int rc)
{
    for (int i = r->n_legs - 1; i >= 0; i--) {
        if (rc)
            sql_writer_fail(r->legs[i].w);
        sql_writer_close(r->legs[i].w);
    }
    sql_select_close(r->plan);
    if (r->nulls.cols)
        comb_batch_free(&r->nulls);
    comb_free(r->seen);
}

/* Resolve and check the target and the clauses; lay out the legs. */
static int merge_check(SqlStmtCtx *c, const AstStmt *st, MergeRun *r,
                       CombErr *err)
{
    int rc;
    r->c = c;
    r->st = st;
    r->m = st->merge;
    if ((rc = sql_table_resolve(c, &st->name, &r->t, err)) ||
        (rc = sql_table_writable(r->t, st->name.pos, true, err)) ||
        (rc = check_clauses(st, err)) ||
        (rc = check_on(r->t, r->m, err)))
        return rc;
    return plan_legs(r, err);
}

int sql_merge_query(SqlStmtCtx *c, const AstStmt *st, AstSelect **query,
                    CombErr *err)
{
    MergeRun r;
    int rc;
    memset(&r, 0, sizeof r);
    if ((rc = merge_check(c, st, &r, err)) || (rc = build_query(&r, err)))
        return rc;
    *query = r.query;
    return COMB_OK;
}

/* Check, then plan and open the query under the statement snapshot. */
static int merge_plan(SqlStmtCtx *c, MergeRun *r, CombErr *err)
{
    int rc = merge_check(c, c->stmt, r, err);
    if (rc)
        return rc;
    r->check_cardinality =
        r->has_matched &&
        sql_conf_bool(c->s, "hive.merge.cardinality.check", true);
    if (r->t->n_buckets > 0 && (rc = sql_table_bucketing(r->t, err)))
        return rc;
    if ((rc = sql_txn_begin(c, err)))
        return rc;
    return plan_query(r, err);
}

int sql_exec_merge(SqlStmtCtx *c, CombErr *err)
{
    MergeRun r;
    SqlSink sink = {&r, NULL, merge_batch, NULL, NULL};
    int rc;
    memset(&r, 0, sizeof r);
    rc = merge_plan(c, &r, err);
    if (!rc)
        rc = open_writers(&r, err);
    if (!rc)
        rc = sql_select_run(c, r.plan, &sink, err);
    if (!rc)
        rc = finish_writers(&r, err);
    merge_close(&r, rc);
    return rc;
}
