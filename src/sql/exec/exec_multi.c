/*
 * exec_multi.c - Hive's multi-insert: FROM src [alias] INSERT ... SELECT
 * ... [INSERT ... SELECT ...]..., all clauses one transaction.
 *
 * Each clause is an INSERT of its own (parse_dml.c) run in the steps of
 * exec_dml.c.  Every clause is planned, and its read opened, before any
 * write id of the statement exists: so every read takes its write-id list
 * from the statement's one snapshot, and a clause whose target is the
 * source (or another clause's target) never reads rows of this
 * statement.  Then each clause writes its rows, in clause order; then
 * every writer makes its files durable, then records its partitions; the
 * session commits.  Nothing is visible before that commit: any error
 * aborts the transaction and every writer removes or hides what it wrote
 * (a plain table's files put in place are taken out again).
 *
 * Each clause scans the source itself (so the source is read once per
 * clause), under the same snapshot and write-id list.
 *
 * As in Hive 4, a table gets one write id however many clauses write it,
 * and each clause writing a transactional table takes the next statement
 * id, in clause order (Hive's DriverTxnHandler numbers the file sinks of a
 * statement so): delta_W_W_0000, delta_W_W_0001, ... and ROW__IDs whose
 * bucket property carries that statement id.
 */
#include "sql/exec/exec.h"

#include <string.h>

typedef struct MultiClause {
    const AstStmt *st;       /* the clause's INSERT */
    SqlInsert ins;
} MultiClause;

static bool same_table(const SqlTable *a, const SqlTable *b)
{
    return strcmp(a->ms->db, b->ms->db) == 0 &&
           strcmp(a->ms->name, b->ms->name) == 0;
}

/* What a clause writes when its PARTITION clause says it all: "" for an
 * unpartitioned table, the partition name for a static one; NULL when
 * rows choose their partitions. */
static int static_output(SqlStmtCtx *c, const MultiClause *m, char **out,
                         CombErr *err)
{
    char **values;
    *out = "";
    if (m->ins.t->n_part == 0)
        return COMB_OK;
    return sql_insert_static_name(c, &m->ins, out, &values, err);
}

/* Hive's 10087: no two clauses write the same table or static partition
 * the same way (both INTO or both OVERWRITE; Hive tells WriteEntities
 * apart by name and write type).  Other overlaps are found as rows
 * arrive (write.c). */
static int check_outputs(SqlStmtCtx *c, MultiClause *m, int n, CombErr *err)
{
    char **names = comb_arena_calloc(c->arena, (size_t)n * sizeof *names);
    int rc;
    if (!names)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        if ((rc = static_output(c, &m[i], &names[i], err)))
            return rc;
        for (int j = 0; j < i && names[i]; j++) {
            if (!names[j] || !same_table(m[i].ins.t, m[j].ins.t) ||
                strcmp(names[i], names[j]) != 0 ||
                m[i].st->overwrite != m[j].st->overwrite)
                continue;
            return comb_err_hive(err, COMB_ESEMANTIC, 10087,
                                 "SemanticException [Error 10087]: The same "
                                 "output cannot be present multiple times:  "
                                 "%s%s%s", m[i].ins.t->ms->name,
                                 *names[i] ? "@" : "", names[i]);
        }
    }
    return COMB_OK;
}

/* The latest earlier clause writing the same table, for the writer's
 * check of units written twice. */
static SqlWriter *earlier_writer(const MultiClause *m, int i)
{
    for (int j = i - 1; j >= 0; j--)
        if (same_table(m[i].ins.t, m[j].ins.t))
            return m[j].ins.w;
    return NULL;
}

static int plan_all(SqlStmtCtx *c, MultiClause *m, int n, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; i < n && !rc; i++) {
        c->stmt = m[i].st;
        c->insert_clause = i;
        rc = sql_insert_plan(c, &m[i].ins, err);
    }
    return rc ? rc : check_outputs(c, m, n, err);
}

static int write_all(SqlStmtCtx *c, MultiClause *m, int n, CombErr *err)
{
    int next_stmt_id = 0, rc = COMB_OK;
    for (int i = 0; i < n && !rc; i++) {
        /* plain tables have no statement ids; theirs only keeps the
         * clauses' staging directories apart */
        int stmt_id = m[i].ins.t->kind == SQL_TABLE_PLAIN ? i : next_stmt_id++;
        c->stmt = m[i].st;
        c->insert_clause = i;
        rc = sql_insert_write(c, &m[i].ins, stmt_id, earlier_writer(m, i),
                              err);
    }
    return rc;
}

static int finish_all(MultiClause *m, int n, CombErr *err)
{
    int rc = COMB_OK;
    for (int i = 0; i < n && !rc; i++)
        rc = sql_writer_finish_files(m[i].ins.w, err);
    for (int i = 0; i < n && !rc; i++)
        rc = sql_writer_record(m[i].ins.w, err);
    return rc;
}

int sql_exec_multi_insert(SqlStmtCtx *c, CombErr *err)
{
    const AstStmt *stmt = c->stmt;
    const AstMultiInsert *mi = stmt->multi;
    MultiClause *m = comb_arena_calloc(c->arena, (size_t)mi->n * sizeof *m);
    int rc;
    if (!m)
        return comb_err_nomem(err);
    for (int i = 0; i < mi->n; i++)
        m[i].st = mi->inserts[i];
    rc = plan_all(c, m, mi->n, err);
    if (!rc)
        rc = write_all(c, m, mi->n, err);
    if (!rc)
        rc = finish_all(m, mi->n, err);
    /* later clauses first: an earlier writer may remove a new partition
     * directory that a later one wrote into */
    for (int i = mi->n - 1; i >= 0; i--) {
        if (rc)
            sql_writer_fail(m[i].ins.w);
        sql_insert_close(&m[i].ins);
    }
    c->stmt = stmt;
    return rc;
}
