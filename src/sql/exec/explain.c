/*
 * explain.c - EXPLAIN: comb's own plan text, one row per line in a column
 * named "Explain" (docs/sql.md gives the format).  A query is bound and
 * its operator tree built exactly as it would run, including predicate
 * and projection push-down, then printed top down: each operator on a
 * line of its own, its input indented two more spaces below it, property
 * lines ("key: value") just under the operator they belong to.  A table
 * scan shows the table, its kind and format, the columns it decodes, its
 * filter and the partitions left after pruning.  Nothing is read or
 * written.
 */
#include "sql/exec/op.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/buf.h"
#include "orc/sarg.h"
#include "sql/func/value.h"

struct SqlExplain {
    SqlStmtCtx *c;
    TextResult out;
    int depth;               /* indentation of the current operator */
    CombBuf line;            /* the current operator's line, not yet out */
    bool pending;
    bool detailed;           /* the line has details after the name */
};

static int emit_text(SqlExplain *x, int depth, const char *text, CombErr *err)
{
    char *row = comb_arena_printf(x->c->arena, "%*s%s", 2 * depth, "", text);
    const char *vals[1] = {row};
    return row ? sql_text_row(&x->out, vals, err) : comb_err_nomem(err);
}

static int flush_line(SqlExplain *x, CombErr *err)
{
    int rc;
    if (!x->pending)
        return COMB_OK;
    x->pending = false;
    if (comb_buf_append_byte(&x->line, '\0'))
        return comb_err_nomem(err);
    rc = emit_text(x, x->depth, (const char *)x->line.data, err);
    comb_buf_clear(&x->line);
    return rc;
}

static int start_line(SqlExplain *x, int depth, const char *text, CombErr *err)
{
    int rc = flush_line(x, err);
    if (rc)
        return rc;
    x->depth = depth;
    x->pending = true;
    x->detailed = false;
    return comb_buf_append_str(&x->line, text) ? comb_err_nomem(err) : COMB_OK;
}

static int vappend(CombBuf *b, const char *fmt, va_list ap)
{
    va_list copy;
    int n;
    va_copy(copy, ap);
    n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0 || comb_buf_reserve(b, (size_t)n + 1))
        return COMB_ENOMEM;
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return COMB_OK;
}

int sql_explain_detail(SqlExplain *x, const char *fmt, ...)
{
    va_list ap;
    int rc;
    /* the first detail is set off from the operator's name */
    if (!x->detailed && comb_buf_append_byte(&x->line, ' '))
        return COMB_ENOMEM;
    x->detailed = true;
    va_start(ap, fmt);
    rc = vappend(&x->line, fmt, ap);
    va_end(ap);
    return rc;
}

int sql_explain_prop(SqlExplain *x, const char *fmt, ...)
{
    CombBuf b = COMB_BUF_INIT;
    CombErr err;
    va_list ap;
    int depth = x->depth + 1, rc = flush_line(x, &err);
    if (rc)
        return rc;
    va_start(ap, fmt);
    rc = vappend(&b, fmt, ap);
    va_end(ap);
    if (!rc && comb_buf_append_byte(&b, '\0'))
        rc = COMB_ENOMEM;
    if (!rc)
        rc = emit_text(x, depth, (const char *)b.data, &err);
    comb_buf_free(&b);
    return rc;
}

/* ---------------------------------------------------------- expressions */

static void put_expr(SqlStmtCtx *c, CombBuf *b, const BoundExpr *e,
                     const char *const *names);

static void put_list(SqlStmtCtx *c, CombBuf *b, BoundExpr *const *args,
                     int n, const char *const *names)
{
    for (int i = 0; i < n; i++) {
        if (i)
            comb_buf_append_str(b, ", ");
        put_expr(c, b, args[i], names);
    }
}

static void put_string(CombBuf *b, CombStr s)
{
    comb_buf_append_byte(b, '\'');
    for (uint32_t i = 0; i < s.len; i++) {
        if (s.ptr[i] == '\'' || s.ptr[i] == '\\')
            comb_buf_append_byte(b, '\\');
        comb_buf_append_byte(b, (unsigned char)s.ptr[i]);
    }
    comb_buf_append_byte(b, '\'');
}

static void put_const(CombBuf *b, const BoundExpr *e)
{
    char buf[80];
    BoundExpr k = *e;
    CombVector v = {.kind = e->type, .i64 = &k.ival, .f64 = &k.dval,
                    .dec = &k.dec, .nanos = &k.nanos, .type = e->ctype};
    if (e->is_null || e->type == COMB_T_NULL) {
        comb_buf_append_str(b, "NULL");
        return;
    }
    if (comb_type_is_str(e->type)) {
        put_string(b, e->sval);
        return;
    }
    if (e->type == COMB_T_DATE)
        comb_buf_append_str(b, "DATE ");
    if (e->type == COMB_T_TIMESTAMP)
        comb_buf_append_str(b, "TIMESTAMP ");
    sql_format_scalar(e->type, &v, 0, buf, sizeof buf);
    if (e->type == COMB_T_DATE || e->type == COMB_T_TIMESTAMP)
        comb_buf_printf(b, "'%s'", buf);
    else
        comb_buf_append_str(b, buf);
}

static void put_expr(SqlStmtCtx *c, CombBuf *b, const BoundExpr *e,
                     const char *const *names)
{
    switch (e->kind) {
    case BX_CONST:
        put_const(b, e);
        return;
    case BX_COL:
        comb_buf_append_str(b, names && names[e->col] && names[e->col][0]
                                   ? names[e->col] : "?");
        return;
    case BX_ROWID:
        comb_buf_append_str(b, "ROW__ID");
        return;
    case BX_UNARY:
        comb_buf_printf(b, "%s", e->op == AST_OP_NOT ? "NOT " : sql_op_text(e->op));
        put_expr(c, b, e->a, names);
        return;
    case BX_BINARY:
        comb_buf_append_byte(b, '(');
        if (e->n_args) {
            for (int i = 0; i < e->n_args; i++) {
                if (i)
                    comb_buf_printf(b, " %s ", e->op == AST_OP_AND ? "AND" : "OR");
                put_expr(c, b, e->args[i], names);
            }
        } else {
            put_expr(c, b, e->a, names);
            comb_buf_printf(b, " %s ", sql_op_text(e->op));
            put_expr(c, b, e->b, names);
        }
        comb_buf_append_byte(b, ')');
        return;
    case BX_IS_NULL:
        put_expr(c, b, e->a, names);
        comb_buf_append_str(b, e->negated ? " IS NOT NULL" : " IS NULL");
        return;
    case BX_BETWEEN:
        put_expr(c, b, e->a, names);
        comb_buf_append_str(b, e->negated ? " NOT BETWEEN " : " BETWEEN ");
        put_expr(c, b, e->b, names);
        comb_buf_append_str(b, " AND ");
        put_expr(c, b, e->c, names);
        return;
    case BX_IN:
        put_expr(c, b, e->a, names);
        comb_buf_append_str(b, e->negated ? " NOT IN (" : " IN (");
        put_list(c, b, e->args, e->n_args, names);
        comb_buf_append_byte(b, ')');
        return;
    case BX_LIKE:
        put_expr(c, b, e->a, names);
        comb_buf_printf(b, "%s%s ", e->negated ? " NOT" : "",
                        e->op == AST_OP_RLIKE ? " RLIKE" : " LIKE");
        put_expr(c, b, e->b, names);
        return;
    case BX_CAST:
        comb_buf_append_str(b, "CAST(");
        put_expr(c, b, e->a, names);
        comb_buf_printf(b, " AS %s)", sql_bx_type_text(c, e));
        return;
    case BX_FUNC:
        comb_buf_printf(b, "%s(", e->fname ? e->fname : "?");
        put_list(c, b, e->args, e->n_args, names);
        comb_buf_append_byte(b, ')');
        return;
    case BX_CASE:
        comb_buf_append_str(b, "CASE");
        for (int i = 0; i + 1 < e->n_args; i += 2) {
            comb_buf_append_str(b, " WHEN ");
            put_expr(c, b, e->args[i], names);
            comb_buf_append_str(b, " THEN ");
            put_expr(c, b, e->args[i + 1], names);
        }
        if (e->c) {
            comb_buf_append_str(b, " ELSE ");
            put_expr(c, b, e->c, names);
        }
        comb_buf_append_str(b, " END");
        return;
    }
}

const char *sql_explain_expr(SqlStmtCtx *c, const BoundExpr *e,
                             const char *const *names)
{
    CombBuf b = COMB_BUF_INIT;
    char *s;
    if (!e)
        return "TRUE";
    put_expr(c, &b, e, names);
    s = comb_buf_append_byte(&b, '\0') ? NULL
                                       : comb_arena_strdup(c->arena, (const char *)b.data);
    comb_buf_free(&b);
    return s;
}

/* ---------------------------------------------------------------- scans */

static const char *kind_text(const SqlTable *t)
{
    switch (t->kind) {
    case SQL_TABLE_ACID: return "full ACID";
    case SQL_TABLE_INSERT_ONLY: return "insert-only";
    case SQL_TABLE_PLAIN: return "plain";
    default: return "view";
    }
}

static int explain_columns(SqlExplain *x, const SqlTable *t,
                           const bool *project, bool row_id, bool file_name)
{
    CombBuf b = COMB_BUF_INIT;
    int rc;
    for (int i = 0; i < t->n_cols; i++)
        if (!project || project[i])
            comb_buf_printf(&b, "%s%s", b.len ? ", " : "", t->names[i]);
    if (row_id)
        comb_buf_printf(&b, "%sROW__ID", b.len ? ", " : "");
    if (file_name)
        comb_buf_printf(&b, "%sINPUT__FILE__NAME", b.len ? ", " : "");
    if (!b.len)
        comb_buf_append_str(&b, "none");
    if (comb_buf_append_byte(&b, '\0'))
        rc = COMB_ENOMEM;
    else
        rc = sql_explain_prop(x, "columns: %s", (const char *)b.data);
    comb_buf_free(&b);
    return rc;
}

static int explain_units(SqlExplain *x, const SqlTable *t, BoundExpr *filter,
                         CombErr *err)
{
    MsPartition *parts;
    SqlUnit *units;
    int n_parts, n_units, rc;
    if (t->n_part == 0)
        return sql_explain_prop(x, "partitions: not partitioned");
    if ((rc = ms_part_list(x->c->s->ms, t->ms->db, t->ms->name, NULL, 0,
                           x->c->arena, &parts, &n_parts, err)) ||
        (rc = sql_table_units(x->c, t, filter, &units, &n_units, err)))
        return rc;
    rc = sql_explain_prop(x, "partitions: %d of %d", n_units, n_parts);
    for (int i = 0; i < n_units && !rc; i++) {
        char *line = comb_arena_printf(x->c->arena, "  %s", units[i].name);
        rc = line ? sql_explain_prop(x, "%s", line) : COMB_ENOMEM;
    }
    return rc;
}

/* The bucket files bucket pruning leaves to read, for bucketed tables. */
static int explain_buckets(SqlExplain *x, const SqlTable *t,
                           const BoundExpr *filter, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    bool *mask;
    int n_read, rc;
    if (t->n_buckets <= 0)
        return COMB_OK;
    if ((rc = sql_scan_buckets(x->c, t, filter, &mask, &n_read, err)))
        return rc;
    if (!mask)
        return sql_explain_prop(x, "buckets: all %d", t->n_buckets);
    for (int i = 0; i < t->n_buckets; i++)
        if (mask[i])
            comb_buf_printf(&b, "%s%d", b.len ? ", " : "", i);
    if (comb_buf_append_byte(&b, '\0'))
        rc = COMB_ENOMEM;
    else
        rc = sql_explain_prop(x, "buckets: %d of %d%s%s", n_read, t->n_buckets,
                              n_read ? ": " : "", (const char *)b.data);
    comb_buf_free(&b);
    return rc;
}

/* A scan batch's column names: the table's, then ROW__ID's fields. */
static const char **scan_names(SqlStmtCtx *c, const SqlTable *t)
{
    static const char *const vcols[SQL_SCAN_VCOLS] = {
        "ROW__ID.writeid", "ROW__ID.bucketid", "ROW__ID.rowid",
        "INPUT__FILE__NAME",
    };
    const char **names = comb_arena_alloc(c->arena, (size_t)(t->n_cols + SQL_SCAN_VCOLS) * sizeof *names);
    if (names) {
        memcpy(names, t->names, (size_t)t->n_cols * sizeof *names);
        memcpy(names + t->n_cols, vcols, sizeof vcols);
    }
    return names;
}

/* The part of the filter pushed to the ORC readers, as ORC prints a
 * search argument. */
static int explain_sarg(SqlExplain *x, const SqlTable *t,
                        const BoundExpr *filter, CombErr *err)
{
    OrcSarg *sarg;
    CombBuf text = COMB_BUF_INIT;
    int rc = sql_scan_sarg(x->c, t, filter, &sarg, err);
    if (rc || !sarg)
        return rc;
    rc = orc_sarg_print(sarg, &text) ||
                 comb_buf_append_byte(&text, 0)
             ? COMB_ENOMEM
             : sql_explain_prop(x, "pushed predicate: %s", (char *)text.data);
    comb_buf_free(&text);
    return rc;
}

int sql_explain_scan(SqlExplain *x, const SqlTable *t, const bool *project,
                     bool row_id, bool file_name, BoundExpr *filter,
                     CombErr *err)
{
    /* what the scan decodes: what is read above it and what it filters on */
    bool *read = comb_arena_alloc(x->c->arena, (size_t)t->n_cols + 4);
    const char **names = scan_names(x->c, t);
    int rc;
    if (!read || !names)
        return comb_err_nomem(err);
    for (int i = 0; i < t->n_cols; i++)
        read[i] = !project || project[i];
    memset(read + t->n_cols, row_id, 3);
    read[t->n_cols + SQL_SCAN_FILE_NAME] = file_name;
    sql_bx_mark_used(filter, t->n_cols + SQL_SCAN_VCOLS, read);
    rc = sql_explain_detail(x, "%s (%s, %s)", t->qualified, kind_text(t),
                            t->format == SQL_FORMAT_TEXT ? "TEXTFILE" : "ORC");
    if (!rc)
        rc = explain_columns(x, t, read,
                             read[t->n_cols] || read[t->n_cols + 1] ||
                                 read[t->n_cols + 2],
                             read[t->n_cols + SQL_SCAN_FILE_NAME]);
    if (!rc && filter) {
        const char *text = sql_explain_expr(x->c, filter, names);
        rc = text ? sql_explain_prop(x, "filter: %s", text) : COMB_ENOMEM;
    }
    if (!rc)
        rc = explain_sarg(x, t, filter, err);
    if (!rc)
        rc = explain_units(x, t, filter, err);
    if (!rc)
        rc = explain_buckets(x, t, filter, err);
    sql_expr_release(filter);
    return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
}

/* ---------------------------------------------------------------- trees */

static int explain_op(SqlExplain *x, const SqlOp *op, int depth, CombErr *err)
{
    int rc;
    if (op->label) {
        if ((rc = start_line(x, depth, op->label, err)))
            return rc;
        depth++;
    }
    if ((rc = start_line(x, depth, op->vt->name, err)) ||
        (rc = op->vt->explain(op, x, err)))
        return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
    if (op->input && (rc = explain_op(x, op->input, depth + 1, err)))
        return rc;
    if (op->right && (rc = explain_op(x, op->right, depth + 1, err)))
        return rc;
    for (int i = 0; i < op->n_more && !rc; i++)
        rc = explain_op(x, op->more[i], depth + 1, err);
    return rc;
}

static int explain_select(SqlExplain *x, const AstSelect *s, int depth,
                          CombErr *err)
{
    SqlSelectPlan *p;
    SqlOp *root;
    int rc;
    if ((rc = sql_select_plan(x->c, s, &p, err)) ||
        (rc = sql_select_build(x->c, p, &root, err)))
        return rc;
    sql_op_need(root, NULL);
    return explain_op(x, root, depth, err);
}

static int target_line(SqlExplain *x, const char *verb, const AstName *name,
                       bool update_delete, SqlTable **t, CombErr *err)
{
    int rc = sql_table_resolve(x->c, name, t, err);
    char *line;
    if (rc || (rc = sql_table_writable(*t, name->pos, update_delete, err)))
        return rc;
    line = comb_arena_printf(x->c->arena, "%s %s (%s, %s)", verb, (*t)->qualified,
                             kind_text(*t),
                             (*t)->format == SQL_FORMAT_TEXT ? "TEXTFILE" : "ORC");
    return line ? start_line(x, 0, line, err) : comb_err_nomem(err);
}

static int explain_insert(SqlExplain *x, const AstStmt *st, CombErr *err)
{
    SqlTable *t;
    int rc = target_line(x, st->overwrite ? "InsertOverwrite" : "Insert",
                         &st->name, false, &t, err);
    for (int i = 0; i < st->part.n && !rc; i++)
        rc = sql_explain_prop(x, "partition: %s%s", st->part.items[i].key,
                              st->part.items[i].value ? " (static)" : " (dynamic)");
    if (rc)
        return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
    if (st->select)
        return explain_select(x, st->select, 1, err);
    return start_line(x, 1, comb_arena_printf(x->c->arena, "Values %d rows",
                                              st->n_rows), err);
}

/* The value of a partition spec item as its EXPLAIN line shows it. */
static int part_item_prop(SqlExplain *x, const AstPartItem *it)
{
    const AstExpr *v = it->value;
    return v && v->kind == AST_LIT_INT
               ? sql_explain_prop(x, "partition spec: %s %lld", it->key,
                                  (long long)v->ival)
               : sql_explain_prop(x, "partition spec: %s %s", it->key,
                                  v && v->sval ? v->sval : "");
}

/* ALTER TABLE ... COMPACT: what would be queued (Hive's Compact stage). */
static int explain_compact(SqlExplain *x, const AstStmt *st, CombErr *err)
{
    SqlTable *t;
    int rc = target_line(x, "Compact", &st->name, false, &t, err);
    if (!rc)
        rc = sql_explain_prop(x, "compaction type: %s",
                              st->alter->compact_type);
    for (int i = 0; i < st->part.n && !rc; i++)
        rc = part_item_prop(x, &st->part.items[i]);
    if (!rc && st->alter->compact_wait)
        rc = sql_explain_prop(x, "blocking: true");
    return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
}

/* SHOW LOCKS / TRANSACTIONS / COMPACTIONS: a metastore listing (Hive's
 * Show Locks stage with its filter: database, table, partition). */
static int explain_show(SqlExplain *x, const AstStmt *st, CombErr *err)
{
    const char *what = st->kind == AST_SHOW_LOCKS ? "ShowLocks"
                       : st->kind == AST_SHOW_TRANSACTIONS
                           ? "ShowTransactions"
                           : "ShowCompactions";
    int rc = start_line(x, 0, what, err);
    if (rc || st->kind != AST_SHOW_LOCKS)
        return rc;
    if (st->locks->database)
        rc = sql_explain_prop(x, "database: %s", st->name.name);
    else if (st->name.name)
        rc = sql_explain_prop(x, "table: %s.%s",
                              st->name.db ? st->name.db : x->c->s->db,
                              st->name.name);
    for (int i = 0; i < st->part.n && !rc; i++)
        rc = part_item_prop(x, &st->part.items[i]);
    if (!rc && st->locks->extended)
        rc = sql_explain_prop(x, "extended: true");
    return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
}

static int explain_update_delete(SqlExplain *x, const AstStmt *st,
                                 CombErr *err)
{
    SqlTable *t;
    SqlScope sc;
    BoundExpr *where = NULL;
    bool *project = NULL;
    bool file_name = false;   /* a SET value reads INPUT__FILE__NAME */
    const char **names;
    int rc = target_line(x, st->kind == AST_UPDATE ? "Update" : "Delete",
                         &st->name, true, &t, err);
    if (rc)
        return rc;
    if (!(names = scan_names(x->c, t)))
        return comb_err_nomem(err);
    sc = (SqlScope){t, t->ms->name, t->n_cols};
    for (int i = 0; i < st->n_assignments && !rc; i++) {
        BoundExpr *e;
        AstExpr *value;
        const char *text;
        int col;
        if ((rc = sql_set_target_column(t, &st->assignments[i], &col, err)) ||
            (rc = sql_value_or_default(x->c, t, col, st->assignments[i].value,
                                       &value, err)) ||
            (rc = sql_bind_expr(x->c, &sc, value, &e, err)))
            return rc;
        file_name = file_name || sql_scan_reads_file_name(t, e);
        text = sql_explain_expr(x->c, e, names);
        rc = text ? sql_explain_prop(x, "set: %s = %s", st->assignments[i].column, text)
                  : COMB_ENOMEM;
    }
    if (!rc && sql_has_subquery(st->where)) {
        SqlOp *root;
        if ((rc = sql_dml_source(x->c, t, st->where, st->kind == AST_UPDATE, &root, err)))
            return rc;
        return explain_op(x, root, 1, err);
    }
    if (!rc && st->where && (rc = sql_bind_expr(x->c, &sc, st->where, &where, err)))
        return rc;
    if (!rc)
        rc = start_line(x, 1, "TableScan", err);
    /* UPDATE writes whole rows; DELETE reads only what its WHERE reads */
    if (!rc && st->kind == AST_DELETE &&
        !(project = comb_arena_calloc(x->c->arena, (size_t)t->n_cols + 1)))
        rc = COMB_ENOMEM;
    if (!rc)
        rc = sql_explain_scan(x, t, project, true, file_name, where, err);
    return rc == COMB_ENOMEM ? comb_err_nomem(err) : rc;
}

/* MERGE: the target, each WHEN clause's leg with its statement id, then
 * the join that feeds them. */
static int explain_merge(SqlExplain *x, const AstStmt *st, CombErr *err)
{
    static const char *const action[] = {"UPDATE (delete_delta + delta)",
                                         "DELETE (delete_delta)",
                                         "INSERT (delta)"};
    const AstMerge *m = st->merge;
    AstSelect *query;
    SqlTable *t;
    int rc = target_line(x, "Merge", &st->name, true, &t, err);
    if (!rc)
        rc = sql_merge_query(x->c, st, &query, err);
    for (int i = 0; i < m->n_clauses && !rc; i++) {
        const AstMergeClause *cl = &m->clauses[i];
        rc = sql_explain_prop(x, "statement id %d: WHEN %sMATCHED%s: %s", i,
                              cl->action == AST_MERGE_INSERT ? "NOT " : "",
                              cl->cond ? " AND condition" : "",
                              action[cl->action]);
        if (rc == COMB_ENOMEM)
            return comb_err_nomem(err);
    }
    return rc ? rc : explain_select(x, query, 1, err);
}

int sql_exec_explain(SqlStmtCtx *c, CombErr *err)
{
    static const char *const names[] = {"Explain"};
    const AstStmt *st = c->stmt->qdef->explained;
    SqlExplain x = {c, {{0}}, 0, COMB_BUF_INIT, false, false};
    int rc;
    if (sql_text_begin(&x.out, 1))
        return comb_err_nomem(err);
    switch (st->kind) {
    case AST_SELECT:
        rc = explain_select(&x, st->select, 0, err);
        break;
    case AST_INSERT:
        rc = explain_insert(&x, st, err);
        break;
    case AST_ALTER_TABLE:
        rc = explain_compact(&x, st, err);
        break;
    case AST_MERGE:
        rc = explain_merge(&x, st, err);
        break;
    case AST_SHOW_LOCKS:
    case AST_SHOW_TRANSACTIONS:
    case AST_SHOW_COMPACTIONS:
        rc = explain_show(&x, st, err);
        break;
    case AST_MULTI_INSERT:   /* its clauses' plans, in clause order */
        rc = COMB_OK;
        for (int i = 0; i < st->multi->n && !rc; i++)
            rc = explain_insert(&x, st->multi->inserts[i], err);
        break;
    default:
        rc = explain_update_delete(&x, st, err);
        break;
    }
    if (!rc)
        rc = flush_line(&x, err);
    comb_buf_free(&x.line);
    if (rc) {
        sql_rows_free(&x.out.rs);
        return rc;
    }
    return sql_text_emit(c, &x.out, names, err);
}
