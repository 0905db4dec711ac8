/*
 * txn_locks.c - the session's half of Hive's DbTxnManager: which locks a
 * statement takes (AcidUtils.makeLockComponents, as Hive 4 chooses them),
 * opening its transaction with them (read-only when it writes nothing),
 * waiting for them as DbLockManager does, committing, and the background
 * heartbeater that keeps the open transaction (and so its locks) alive
 * and runs the housekeeper.  The metastore calls are ms_txn_begin,
 * ms_lock, ms_lock_wait, ms_txn_commit[_excl] and ms_heartbeater_*.
 *
 * Locks belong to the transaction: they are released when it commits or
 * aborts (by the metastore, in the same metastore transaction), never at
 * the end of a statement, so a transaction spanning statements keeps them.
 * No metastore lock or transaction is held while files are read or
 * written: a lock is a HIVE_LOCKS row, waiting is polling.
 *
 * Which locks (Hive 4, hive.txn.xlock.write true by default):
 *   SELECT and every table read      SHARED_READ on the table (none with
 *                                    hive.txn.read.locks=false; ACID
 *                                    tables none with hive.acid.lockless.
 *                                    reads.enabled, others none with
 *                                    hive.txn.nonacid.read.locks=false)
 *   INSERT INTO / LOAD, ACID         SHARED_READ (xlock.write=false:
 *                                    SHARED_WRITE)
 *   INSERT INTO / LOAD, not ACID     EXCLUSIVE (hive.txn.strict.locking.
 *                                    mode=false: SHARED_READ)
 *   INSERT OVERWRITE, ACID           EXCLUSIVE (hive.txn.xlock.iow=false
 *                                    or xlock.write=false: EXCL_WRITE)
 *   INSERT OVERWRITE, not ACID       EXCLUSIVE
 *   UPDATE / DELETE                  EXCL_WRITE (xlock.write=false:
 *                                    SHARED_WRITE)
 *   CTAS                             EXCL_WRITE on the new table (not
 *                                    ACID: EXCLUSIVE), SHARED_READ on its db
 *   CREATE TABLE                     SHARED_READ on the database
 *   DROP TABLE, ALTER TABLE,         EXCLUSIVE on the table (or the named
 *   TRUNCATE, MSCK REPAIR            partition); ADD PARTITION SHARED_READ,
 *                                    DROP PARTITION each partition it
 *                                    matches (none on the table), ALTER
 *                                    ... COMPACT none
 *   DROP DATABASE                    EXCLUSIVE on the database
 * A write names a partition when every partition key has a constant
 * (static partitions; UPDATE/DELETE: an equality with a constant for each
 * key among the top-level conjuncts of WHERE), else the table (dynamic
 * partitions).  Views, external and temporary tables are not locked (Hive's
 * isLockableTable).
 */
#include "sql/sql_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/alloc.h"
#include "common/duration.h"
#include "fs/fs.h"
#include "sql/plan/plan.h"

/* ----------------------------------------------------------- settings */

bool sql_conf_bool(const SqlSession *s, const char *key, bool dflt)
{
    const char *v = sql_session_get_conf(s, key);
    if (!v || !*v)
        return dflt;
    if (strcasecmp(v, "true") == 0)
        return true;
    if (strcasecmp(v, "false") == 0)
        return false;
    return dflt;
}

int64_t sql_conf_int(const SqlSession *s, const char *key, int64_t dflt)
{
    const char *v = sql_session_get_conf(s, key);
    char *end;
    long long n;
    if (!v || !*v)
        return dflt;
    n = strtoll(v, &end, 10);
    return *end == '\0' && n >= 0 ? (int64_t)n : dflt;
}

int64_t sql_conf_duration_ms(const SqlSession *s, const char *key,
                             int64_t dflt_ms, int64_t unit_ms)
{
    const char *v = sql_session_get_conf(s, key);
    int64_t ms;
    if (!v || !comb_duration_ms(v, unit_ms, &ms) || ms < 0)
        return dflt_ms;
    return ms;
}

/* Hive's defaults. */
#define TXN_TIMEOUT_MS 300000
#define HOUSEKEEPER_INTERVAL_MS 60000
#define LOCK_RETRIES 100
#define LOCK_SLEEP_MS 60000
#define MAX_OPEN_TXNS 100000

int64_t sql_session_txn_timeout_ms(const SqlSession *s)
{
    return sql_conf_duration_ms(s, "hive.txn.timeout", TXN_TIMEOUT_MS, 1000);
}

void sql_txn_settings_changed(SqlSession *s)
{
    if (!s->hb)
        return;
    ms_heartbeater_configure(
        s->hb, sql_session_txn_timeout_ms(s),
        sql_conf_duration_ms(s, "metastore.acid.housekeeper.interval",
                             HOUSEKEEPER_INTERVAL_MS, 1000));
}

#define SITE_CONF "comb-site.conf"

int sql_site_conf_load(SqlSession *s, CombErr *err)
{
    char path[4096], line[4096];
    FILE *f;
    int rc = COMB_OK, lineno = 0;
    snprintf(path, sizeof path, "%s/%s", s->warehouse, SITE_CONF);
    if (!(f = fopen(path, "r")))
        return COMB_OK;
    while (!rc && fgets(line, sizeof line, f)) {
        char *p = line, *eq, *end;
        lineno++;
        while (isspace((unsigned char)*p))
            p++;
        end = p + strlen(p);
        while (end > p && isspace((unsigned char)end[-1]))
            *--end = '\0';
        if (!*p || *p == '#')
            continue;
        if (!(eq = strchr(p, '='))) {
            rc = comb_err(err, COMB_EINVALID,
                          "%s:%d: expected key=value, found '%s'", path,
                          lineno, p);
            break;
        }
        for (char *k = eq; k > p && isspace((unsigned char)k[-1]); k--)
            k[-1] = '\0';
        *eq++ = '\0';
        while (isspace((unsigned char)*eq))
            eq++;
        rc = sql_session_set_conf(s, p, eq, err);
    }
    fclose(f);
    return rc;
}

/* ------------------------------------------------- the txn manager */

#define DB_TXN_MANAGER "org.apache.hadoop.hive.ql.lockmgr.DbTxnManager"

/* Hive's check of the transaction manager for a statement on ACID table
 * t: DbTxnManager needs hive.support.concurrency (10264); another
 * manager cannot run UPDATE/DELETE (10294) nor anything on an ACID table
 * (10265). */
static int check_manager(SqlStmtCtx *c, const MsTable *t, CombErr *err)
{
    const char *mgr = sql_session_get_conf(c->s, "hive.txn.manager");
    bool db_mgr = !mgr || !*mgr || strcmp(mgr, DB_TXN_MANAGER) == 0 ||
                  strcmp(mgr, "DbTxnManager") == 0;
    AstStmtKind k = c->stmt->kind;
    if (!ms_table_is_transactional(t))
        return COMB_OK;
    if (db_mgr && !sql_conf_bool(c->s, "hive.support.concurrency", true))
        return comb_err_hive(err, COMB_ETXN, 10264,
                             "[Error 10264]: To use DbTxnManager you must set "
                             "hive.support.concurrency=true");
    if (db_mgr)
        return COMB_OK;
    if (k == AST_UPDATE || k == AST_DELETE || k == AST_MERGE)
        return sql_err_at(err, COMB_ETXN, 10294, c->stmt->pos,
                          "Attempt to do update or delete using transaction "
                          "manager that does not support these operations.");
    return sql_err_at(err, COMB_ETXN, 10265, c->stmt->pos,
                      "This command is not allowed on an ACID table %s.%s "
                      "with a non-ACID transaction manager",
                      t->db, t->name);
}

/* No locks at all (Hive's DummyTxnManager, or concurrency off). */
static bool locking_on(const SqlSession *s)
{
    const char *mgr = sql_session_get_conf(s, "hive.txn.manager");
    if (mgr && *mgr && strcmp(mgr, DB_TXN_MANAGER) != 0 &&
        strcmp(mgr, "DbTxnManager") != 0)
        return false;
    return sql_conf_bool(s, "hive.support.concurrency", true);
}

/* ---------------------------------------------------------- the plan */

int sql_lock_type_rank(MsLockType t)
{
    switch (t) {
    case MS_LOCK_SHARED_READ: return 0;
    case MS_LOCK_SHARED_WRITE: return 1;
    case MS_LOCK_EXCL_WRITE: return 2;
    case MS_LOCK_EXCLUSIVE: return 3;
    }
    return 3;
}

static bool same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Add a component (names copied into the statement arena); the same
 * object again keeps the stronger type, as Hive merges its entities. */
static int plan_add(SqlStmtCtx *c, const char *db, const char *table,
                    const char *part, MsLockType type, CombErr *err)
{
    SqlLockPlan *p = &c->locks;
    MsLockComponent *it;
    for (int i = p->n_requested; i < p->n; i++) {
        it = &p->items[i];
        if (same(it->db, db) && same(it->table, table) &&
            same(it->partition, part)) {
            if (sql_lock_type_rank(type) > sql_lock_type_rank(it->type))
                it->type = type;
            return COMB_OK;
        }
    }
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 8;
        MsLockComponent *n = comb_arena_alloc(c->arena, (size_t)cap * sizeof *n);
        if (!n)
            return comb_err_nomem(err);
        if (p->n)
            memcpy(n, p->items, (size_t)p->n * sizeof *n);
        p->items = n;
        p->cap = cap;
    }
    it = &p->items[p->n];
    /* whole, so that op is MS_OP_NONE: a statement's locks record no
     * writes (its writes are recorded as it makes them) */
    *it = (MsLockComponent){comb_arena_strdup(c->arena, db),
                            table ? comb_arena_strdup(c->arena, table) : NULL,
                            part ? comb_arena_strdup(c->arena, part) : NULL,
                            type};
    if (!it->db || (table && !it->table) || (part && !it->partition))
        return comb_err_nomem(err);
    p->n++;
    return COMB_OK;
}

/* Hive's isLockableTable: managed tables only (no views, no external or
 * temporary tables). */
static bool lockable(const MsTable *t)
{
    return t->table_type && strcmp(t->table_type, MS_MANAGED_TABLE) == 0;
}

/* Does the plan lock table db.table or one of its partitions already
 * (a table the statement writes is not also locked for its reads)? */
static bool plan_has_table(const SqlLockPlan *p, const char *db,
                           const char *table)
{
    for (int i = 0; i < p->n; i++)
        if (same(p->items[i].db, db) && same(p->items[i].table, table))
            return true;
    return false;
}

/* A partitioned table read: its lock waits for the plan's scans
 * (sql_locks_settle); the same table again is the same read. */
static int note_partitioned_read(SqlStmtCtx *c, const MsTable *t,
                                 CombErr *err)
{
    SqlLockRead *r;
    for (r = c->locks.reads; r; r = r->next)
        if (same(r->db, t->db) && same(r->table, t->name))
            return COMB_OK;
    if (!(r = comb_arena_calloc(c->arena, sizeof *r)) ||
        !(r->db = comb_arena_strdup(c->arena, t->db)) ||
        !(r->table = comb_arena_strdup(c->arena, t->name)))
        return comb_err_nomem(err);
    r->next = c->locks.reads;
    c->locks.reads = r;
    return COMB_OK;
}

int sql_locks_note_read(SqlStmtCtx *c, const MsTable *t, CombErr *err)
{
    int rc;
    if ((rc = check_manager(c, t, err)))
        return rc;
    if (!locking_on(c->s) || !lockable(t) ||
        plan_has_table(&c->locks, t->db, t->name) ||
        !sql_conf_bool(c->s, "hive.txn.read.locks", true) ||
        (ms_table_is_transactional(t)
             ? sql_conf_bool(c->s, "hive.acid.lockless.reads.enabled", false)
             : !sql_conf_bool(c->s, "hive.txn.nonacid.read.locks", true)))
        return COMB_OK;
    if (t->n_part_keys > 0)
        return note_partitioned_read(c, t, err);
    if ((rc = plan_add(c, t->db, t->name, NULL, MS_LOCK_SHARED_READ, err)))
        return rc;
    return c->txnid ? sql_locks_acquire(c, err) : COMB_OK;
}

int sql_locks_note_scan(SqlStmtCtx *c, const SqlTable *t,
                        BoundExpr *const *filter, CombErr *err)
{
    SqlLockScan *sc;
    /* a parallel copy's scans are the statement's, noted already */
    if (t->n_part == 0 || c->par_copy)
        return COMB_OK;
    if (!(sc = comb_arena_alloc(c->arena, sizeof *sc)))
        return comb_err_nomem(err);
    *sc = (SqlLockScan){t, filter, c->locks.scans};
    c->locks.scans = sc;
    return COMB_OK;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* names[0..*n) sorted, each once. */
static void sort_unique(char **names, int *n)
{
    int kept = 0;
    if (*n > 1)
        qsort(names, (size_t)*n, sizeof *names, cmp_name);
    for (int i = 0; i < *n; i++)
        if (kept == 0 || strcmp(names[kept - 1], names[i]) != 0)
            names[kept++] = names[i];
    *n = kept;
}

/* Append the names of units[0..n) to *names (cap *cap, count *len). */
static int add_unit_names(SqlStmtCtx *c, const SqlUnit *units, int n,
                          char ***names, int *len, int *cap, CombErr *err)
{
    if (*len + n > *cap) {
        int want = (*len + n) * 2;
        char **grown = comb_arena_alloc(c->arena, (size_t)want * sizeof *grown);
        if (!grown)
            return comb_err_nomem(err);
        if (*len)
            memcpy(grown, *names, (size_t)*len * sizeof *grown);
        *names = grown;
        *cap = want;
    }
    for (int i = 0; i < n; i++)
        (*names)[(*len)++] = (char *)units[i].name;
    return COMB_OK;
}

/* The components of one partitioned table read (sql_locks_settle). */
static int settle_read(SqlStmtCtx *c, SqlLockRead *r, CombErr *err)
{
    SqlLockPlan *p = &c->locks;
    int64_t threshold = sql_conf_int(c->s, "hive.lock.partition.threshold", 0);
    char **names = NULL;
    int n = 0, cap = 0, n_scans = 0, rc;
    bool whole = false;
    r->settled = true;
    if (plan_has_table(p, r->db, r->table))
        return COMB_OK;     /* written too: the write's lock covers it */
    for (SqlLockScan *sc = p->scans; sc && !whole; sc = sc->next) {
        SqlUnit *units;
        int n_units;
        if (!same(sc->t->ms->db, r->db) || !same(sc->t->ms->name, r->table))
            continue;
        n_scans++;
        if ((rc = sql_table_units_pruned(c, sc->t, *sc->filter, &units,
                                         &n_units, &whole, err)) ||
            (rc = add_unit_names(c, units, n_units, &names, &n, &cap, err)))
            return rc;
    }
    sort_unique(names, &n);
    if (n_scans == 0 || whole || n == 0 || (threshold > 0 && n >= threshold))
        return plan_add(c, r->db, r->table, NULL, MS_LOCK_SHARED_READ, err);
    r->parts = names;
    r->n_parts = n;
    for (int i = 0; i < n; i++)
        if ((rc = plan_add(c, r->db, r->table, names[i], MS_LOCK_SHARED_READ,
                           err)))
            return rc;
    return COMB_OK;
}

int sql_locks_settle(SqlStmtCtx *c, CombErr *err)
{
    int rc;
    for (SqlLockRead *r = c->locks.reads; r; r = r->next)
        if (!r->settled && (rc = settle_read(c, r, err)))
            return rc;
    return c->txnid ? sql_locks_acquire(c, err) : COMB_OK;
}

int sql_locks_cover(SqlStmtCtx *c, const SqlTable *t, const SqlUnit *units,
                    int n, CombErr *err)
{
    SqlLockRead *r = c->locks.reads;
    int added = 0, cap, rc;
    while (r && !(same(r->db, t->ms->db) && same(r->table, t->ms->name)))
        r = r->next;
    if (!r || !r->parts)
        return COMB_OK;     /* the table's lock, or none, covers them */
    cap = r->n_parts;
    for (int i = 0; i < n; i++) {
        char *name = (char *)units[i].name;
        if (bsearch(&name, r->parts, (size_t)r->n_parts, sizeof name,
                    cmp_name))
            continue;
        if ((rc = plan_add(c, r->db, r->table, name, MS_LOCK_SHARED_READ,
                           err)) ||
            (rc = add_unit_names(c, &units[i], 1, &r->parts, &r->n_parts,
                                 &cap, err)))
            return rc;
        added++;
    }
    if (!added)
        return COMB_OK;
    sort_unique(r->parts, &r->n_parts);
    return c->txnid ? sql_locks_acquire(c, err) : COMB_OK;
}

int sql_locks_note_dropped(SqlStmtCtx *c, const MsTable *t, char **names,
                           int n, CombErr *err)
{
    int rc = COMB_OK;
    if (!c->locks.acid_manager || !lockable(t))
        return COMB_OK;
    for (int i = 0; i < n && !rc; i++)
        rc = plan_add(c, t->db, t->name, names[i], MS_LOCK_EXCLUSIVE, err);
    if (rc)
        return rc;
    return c->txnid ? sql_locks_acquire(c, err) : sql_txn_begin(c, err);
}

/* The catalog record of [db.]name into *out, NULL when there is none
 * (the statement reports that itself); errors other than "not found"
 * (out of memory, the metastore) are the statement's. */
static int table_of(SqlStmtCtx *c, const AstName *name, MsTable **out,
                    CombErr *err)
{
    const char *db = name->db ? name->db : c->s->db;
    int rc;
    *out = NULL;
    if (!name->name)
        return COMB_OK;
    rc = ms_table_get(c->s->ms, db, name->name, c->arena, out, err);
    if (rc == COMB_ENOTFOUND) {
        comb_err_clear(err);
        *out = NULL;
        return COMB_OK;
    }
    return rc;
}

/* The partition name of t named by items (key = constant for every
 * partition key) into *out, or NULL: dynamic, incomplete, or a value
 * that does not convert (the statement reports that itself).  Only
 * running out of memory is an error. */
static int static_partition(SqlStmtCtx *c, MsTable *mt,
                            const AstPartItem *items, int n_items, char **out,
                            CombErr *err)
{
    SqlTable *t;
    char **values;
    int rc;
    *out = NULL;
    if (mt->n_part_keys == 0)
        return COMB_OK;
    if ((rc = sql_table_from_ms(c, mt, &t, err)))
        goto done;
    if (!(values = comb_arena_calloc(c->arena,
                                     (size_t)mt->n_part_keys * sizeof *values)))
        return comb_err_nomem(err);
    for (int k = 0; k < mt->n_part_keys; k++) {
        const AstPartItem *it = NULL;
        for (int i = 0; i < n_items && !it; i++)
            if (items[i].value && strcasecmp(items[i].key, mt->part_keys[k].name) == 0)
                it = &items[i];
        if (!it)
            return COMB_OK;
        if ((rc = sql_part_static_value(c, t, k, it, &values[k], err)))
            goto done;
    }
    rc = ms_part_name_make(mt, values, c->arena, out, err);
done:
    if (rc && rc != COMB_ENOMEM) {
        comb_err_clear(err);
        *out = NULL;
        return COMB_OK;
    }
    return rc;
}

/* key = constant conjuncts of an UPDATE/DELETE's WHERE as partition
 * items (top-level ANDs only). */
static void where_items(const AstExpr *e, AstPartItem *items, int cap,
                        int *n)
{
    const AstExpr *col, *val;
    if (!e || *n >= cap)
        return;
    if (e->kind == AST_BINARY && e->op == AST_OP_AND) {
        /* a run of ANDs is one node with its operands in args */
        for (int i = 0; i < e->n_args; i++)
            where_items(e->args[i], items, cap, n);
        if (e->n_args == 0) {
            where_items(e->left, items, cap, n);
            where_items(e->right, items, cap, n);
        }
        return;
    }
    if (e->kind != AST_BINARY || e->op != AST_OP_EQ)
        return;
    col = e->left->kind == AST_COLREF ? e->left : e->right;
    val = col == e->left ? e->right : e->left;
    if (col->kind != AST_COLREF || col->qualifier ||
        (val->kind != AST_LIT_STRING && val->kind != AST_LIT_INT))
        return;
    items[*n] = (AstPartItem){col->name, (AstExpr *)val, val->pos};
    (*n)++;
}

/* Does `key = val` select exactly the partition named by val's text?
 * Only when the comparison is one of like types: a string literal
 * against a string or varchar key, an integer literal against an
 * integer key.  Across types Hive compares as doubles ('01' = 1), which
 * would match partitions of other names. */
static bool literal_fits_key(const MsTable *mt, const char *name,
                             const AstExpr *val)
{
    for (int k = 0; k < mt->n_part_keys; k++) {
        const char *type = mt->part_keys[k].type;
        if (strcmp(mt->part_keys[k].name, name) != 0)
            continue;
        if (val->kind == AST_LIT_STRING)
            return strcmp(type, "string") == 0 ||
                   strncmp(type, "varchar", 7) == 0;
        return val->kind == AST_LIT_INT &&
               (strcmp(type, "tinyint") == 0 || strcmp(type, "smallint") == 0 ||
                strcmp(type, "int") == 0 || strcmp(type, "bigint") == 0);
    }
    return false;
}

/* One written object: the static partition of mt named by items, else
 * the table. */
static int plan_write(SqlStmtCtx *c, MsTable *mt, const AstPartItem *items,
                      int n_items, MsLockType type, CombErr *err)
{
    char *part;
    int rc = static_partition(c, mt, items, n_items, &part, err);
    return rc ? rc : plan_add(c, mt->db, mt->name, part, type, err);
}

/* INSERT INTO/OVERWRITE or LOAD DATA [OVERWRITE] into st->name. */
static int plan_insert(SqlStmtCtx *c, const AstStmt *st, CombErr *err)
{
    MsTable *mt;
    bool acid, xlock = sql_conf_bool(c->s, "hive.txn.xlock.write", true);
    MsLockType type;
    int rc;
    if ((rc = table_of(c, &st->name, &mt, err)) || !mt)
        return rc;
    if ((rc = check_manager(c, mt, err)))
        return rc;
    if (!lockable(mt))
        return COMB_OK;
    acid = ms_table_is_transactional(mt);
    if (st->overwrite)
        type = acid && (!xlock || !sql_conf_bool(c->s, "hive.txn.xlock.iow", true))
                   ? MS_LOCK_EXCL_WRITE
                   : MS_LOCK_EXCLUSIVE;
    else if (acid)
        type = xlock ? MS_LOCK_SHARED_READ : MS_LOCK_SHARED_WRITE;
    else
        type = sql_conf_bool(c->s, "hive.txn.strict.locking.mode", true)
                   ? MS_LOCK_EXCLUSIVE
                   : MS_LOCK_SHARED_READ;
    return plan_write(c, mt, st->part.items, st->part.n, type, err);
}

static int plan_update(SqlStmtCtx *c, const AstStmt *st, CombErr *err)
{
    enum { MAX_ITEMS = 64 };
    AstPartItem items[MAX_ITEMS];
    MsTable *mt;
    int n = 0, rc;
    if ((rc = table_of(c, &st->name, &mt, err)) || !mt)
        return rc;
    if ((rc = check_manager(c, mt, err)))
        return rc;
    if (!lockable(mt))
        return COMB_OK;
    where_items(st->where, items, MAX_ITEMS, &n);
    for (int i = 0; i < n; i++)
        if (!literal_fits_key(mt, items[i].key, items[i].value))
            items[i].value = NULL;    /* not a key, or no exact match */
    return plan_write(c, mt, items, n,
                      sql_conf_bool(c->s, "hive.txn.xlock.write", true)
                          ? MS_LOCK_EXCL_WRITE
                          : MS_LOCK_SHARED_WRITE,
                      err);
}

static int plan_from_reads(SqlStmtCtx *c, const AstFrom *f,
                           const AstSelect *scope, int depth, CombErr *err);

/* MERGE: its UPDATE / DELETE legs lock the target as UPDATE does; with
 * only an INSERT leg, as INSERT does, or EXCL_WRITE when
 * hive.txn.xlock.mergeinsert is set.  The source is read. */
static int plan_merge(SqlStmtCtx *c, const AstStmt *st, CombErr *err)
{
    bool xlock = sql_conf_bool(c->s, "hive.txn.xlock.write", true);
    bool changes = false;
    MsTable *mt;
    MsLockType type;
    int rc;
    for (int i = 0; i < st->merge->n_clauses; i++)
        changes |= st->merge->clauses[i].action != AST_MERGE_INSERT;
    if ((rc = table_of(c, &st->name, &mt, err)) || !mt ||
        (rc = check_manager(c, mt, err)))
        return rc;
    if (!xlock)
        type = MS_LOCK_SHARED_WRITE;
    else if (changes ||
             sql_conf_bool(c->s, "hive.txn.xlock.mergeinsert", false))
        type = MS_LOCK_EXCL_WRITE;
    else
        type = MS_LOCK_SHARED_READ;
    if (lockable(mt) && (rc = plan_write(c, mt, NULL, 0, type, err)))
        return rc;
    return plan_from_reads(c, st->merge->source, NULL, 0, err);
}

/* DDL on an existing table: EXCLUSIVE (ADD PARTITION: SHARED_READ) on
 * the table or the partition the statement names. */
static int plan_table_ddl(SqlStmtCtx *c, const AstStmt *st, MsLockType type,
                          CombErr *err)
{
    MsTable *mt;
    int rc;
    if ((rc = table_of(c, &st->name, &mt, err)) || !mt || !lockable(mt))
        return rc;
    return plan_write(c, mt, st->part.items, st->part.n, type, err);
}

static const char *stmt_db(const SqlStmtCtx *c, const AstName *n)
{
    return n->db ? n->db : c->s->db;
}

/* The tables a query names in FROM (through joins, subqueries, set
 * operations and WITH), planned as reads before the txn opens, so that
 * their locks come in the statement's one request; names of WITH queries
 * are not tables.  Views are locked through their tables when bound. */
static int plan_query_reads(SqlStmtCtx *c, const AstSelect *q,
                            const AstSelect *scope, int depth, CombErr *err);

static bool is_cte(const AstSelect *scope, const char *name)
{
    for (int i = 0; scope && i < scope->n_with; i++)
        if (strcmp(scope->with[i].name, name) == 0)
            return true;
    return false;
}

static int plan_from_reads(SqlStmtCtx *c, const AstFrom *f,
                           const AstSelect *scope, int depth, CombErr *err)
{
    int rc;
    if (!f || depth > 64)
        return COMB_OK;
    switch (f->kind) {
    case AST_FROM_TABLE: {
        MsTable *mt;
        if (!f->table.db && is_cte(scope, f->table.name))
            return COMB_OK;
        if ((rc = table_of(c, &f->table, &mt, err)) || !mt)
            return rc;
        return sql_locks_note_read(c, mt, err);
    }
    case AST_FROM_QUERY:
        return plan_query_reads(c, f->query, scope, depth + 1, err);
    case AST_FROM_JOIN:
        if ((rc = plan_from_reads(c, f->left, scope, depth + 1, err)))
            return rc;
        return plan_from_reads(c, f->right, scope, depth + 1, err);
    case AST_FROM_LATERAL:
        return plan_from_reads(c, f->left, scope, depth + 1, err);
    }
    return COMB_OK;
}

static int plan_query_reads(SqlStmtCtx *c, const AstSelect *q,
                            const AstSelect *scope, int depth, CombErr *err)
{
    int rc;
    if (!q || depth > 64)
        return COMB_OK;
    if (q->n_with)
        scope = q;
    for (int i = 0; i < q->n_with; i++)
        if ((rc = plan_query_reads(c, q->with[i].query, scope, depth + 1, err)))
            return rc;
    if (q->setop != AST_SETOP_NONE) {
        if ((rc = plan_query_reads(c, q->setop_left, scope, depth + 1, err)))
            return rc;
        return plan_query_reads(c, q->setop_right, scope, depth + 1, err);
    }
    return plan_from_reads(c, q->from, scope, depth + 1, err);
}

/* Statements that never write: a READ_ONLY txn (no write id, no
 * components).  Everything else (CTAS and INSERT included) opens a
 * DEFAULT one. */
static bool read_only_kind(AstStmtKind k)
{
    switch (k) {
    case AST_SELECT:
    case AST_EXPLAIN:
    case AST_DESCRIBE:
    case AST_DESCRIBE_DATABASE:
    case AST_SHOW_DATABASES:
    case AST_SHOW_TABLES:
    case AST_SHOW_CREATE_TABLE:
    case AST_SHOW_TBLPROPERTIES:
    case AST_SHOW_COLUMNS:
    case AST_SHOW_PARTITIONS:
    case AST_ANALYZE:
    case AST_SHOW_FUNCTIONS:
    case AST_DESCRIBE_FUNCTION:
    case AST_SHOW_LOCKS:
    case AST_SHOW_TRANSACTIONS:
    case AST_SHOW_COMPACTIONS:
    case AST_SHOW_COMPACTION_METRICS:
    case AST_USE:
    case AST_SET:
    case AST_SET_ROLE:
    case AST_SHOW_ROLES:
    case AST_SHOW_CURRENT_ROLES:
    case AST_SHOW_GRANT:
    case AST_SHOW_ROLE_GRANT:
    case AST_SHOW_PRINCIPALS:
        return true;
    default:
        return false;
    }
}

/* The write targets of a statement (and, for the DDL that opens no txn
 * of its own otherwise, whether to open one now to hold them). */
static int plan_writes(SqlStmtCtx *c, const AstStmt *st, bool *open_now,
                       CombErr *err)
{
    int rc = COMB_OK;
    *open_now = false;
    switch (st->kind) {
    case AST_INSERT:
    case AST_LOAD:
        if ((rc = plan_insert(c, st, err)))
            return rc;
        return plan_query_reads(c, st->select, NULL, 0, err);
    case AST_MULTI_INSERT:
        for (int i = 0; i < st->multi->n && !rc; i++)
            if (!(rc = plan_insert(c, st->multi->inserts[i], err)))
                rc = plan_query_reads(c, st->multi->inserts[i]->select, NULL,
                                      0, err);
        return rc;
    case AST_UPDATE:
    case AST_DELETE:
        return plan_update(c, st, err);
    case AST_MERGE:
        return plan_merge(c, st, err);
    case AST_SELECT:
        return plan_query_reads(c, st->select, NULL, 0, err);
    case AST_CREATE_TABLE:
        if (st->qdef && st->qdef->query) {
            bool acid = st->transactional;
            for (int i = 0; i < st->n_props; i++)
                if (strcasecmp(st->props[i].key, "transactional") == 0)
                    acid = strcasecmp(st->props[i].value, "true") == 0;
            if ((rc = plan_add(c, stmt_db(c, &st->name), st->name.name, NULL,
                               acid ? MS_LOCK_EXCL_WRITE : MS_LOCK_EXCLUSIVE,
                               err)) ||
                (rc = plan_add(c, stmt_db(c, &st->name), NULL, NULL,
                               MS_LOCK_SHARED_READ, err)))
                return rc;
            return plan_query_reads(c, st->qdef->query, NULL, 0, err);
        }
        *open_now = true;
        return plan_add(c, stmt_db(c, &st->name), NULL, NULL,
                        MS_LOCK_SHARED_READ, err);
    case AST_DROP_TABLE:
        *open_now = true;
        if ((rc = plan_table_ddl(c, st, MS_LOCK_EXCLUSIVE, err)))
            return rc;
        return plan_add(c, stmt_db(c, &st->name), NULL, NULL,
                        MS_LOCK_SHARED_READ, err);
    case AST_DROP_DATABASE:
        *open_now = true;
        return plan_add(c, st->name.name, NULL, NULL, MS_LOCK_EXCLUSIVE, err);
    case AST_ALTER_TABLE:
        /* a compaction request only queues work: Hive takes no lock for
         * it, and the compactor's own txn never blocks readers; DROP
         * PARTITION locks the partitions it matches once it has found
         * them (sql_locks_note_dropped) */
        if (st->alter->view || st->alter->kind == AST_ALTER_COMPACT ||
            st->alter->kind == AST_ALTER_DROP_PARTITIONS)
            return COMB_OK;
        *open_now = true;
        return plan_table_ddl(c, st,
                              st->alter->kind == AST_ALTER_ADD_PARTITIONS
                                  ? MS_LOCK_SHARED_READ
                                  : MS_LOCK_EXCLUSIVE,
                              err);
    case AST_TRUNCATE:
        *open_now = true;
        return plan_table_ddl(c, st, MS_LOCK_EXCLUSIVE, err);
    case AST_ANALYZE:
        *open_now = true;
        return plan_table_ddl(c, st, MS_LOCK_SHARED_READ, err);
    case AST_MSCK:
        if (!st->catalog || !st->catalog->repair)
            return COMB_OK;
        *open_now = true;
        return plan_table_ddl(c, st, MS_LOCK_EXCLUSIVE, err);
    default:
        return COMB_OK;
    }
}

int sql_locks_plan(SqlStmtCtx *c, CombErr *err)
{
    bool open_now = false;
    int rc;
    c->locks.writes = !read_only_kind(c->stmt->kind);
    c->locks.acid_manager = locking_on(c->s);
    /* without locks no writer excludes another: commits check conflicts */
    c->locks.excl_write = c->locks.acid_manager &&
                          sql_conf_bool(c->s, "hive.txn.xlock.write", true);
    if ((rc = plan_writes(c, c->stmt, &open_now, err)))
        return rc;
    if (!c->locks.acid_manager)
        c->locks.n = 0;
    /* a txn already open (explicit transactions) takes the statement's
     * locks now, before the statement reads anything */
    if (c->txnid)
        return sql_locks_acquire(c, err);
    return open_now && c->locks.n > 0 ? sql_txn_begin(c, err) : COMB_OK;
}

/* --------------------------------------------------------- waiting */

static const char *type_name(MsLockType t)
{
    switch (t) {
    case MS_LOCK_SHARED_READ: return "SHARED_READ";
    case MS_LOCK_SHARED_WRITE: return "SHARED_WRITE";
    case MS_LOCK_EXCL_WRITE: return "EXCL_WRITE";
    case MS_LOCK_EXCLUSIVE: return "EXCLUSIVE";
    }
    return "?";
}

/* Hive's 10307 as its Driver prints it: "Error in acquiring locks: Lock
 * acquisition for LockRequest(...) timed out after <n>ms.
 * LockResponse(...)", the request in thrift's toString form. */
static int lock_timeout(SqlStmtCtx *c, const MsLockComponent *items, int n,
                        const MsLockStatus *st, int64_t waited_ms,
                        CombErr *err)
{
    char rq[COMB_ERR_MSG_MAX / 2];
    size_t len = 0;
    len += (size_t)snprintf(rq + len, sizeof rq - len, "LockRequest(component:[");
    for (int i = 0; i < n && len < sizeof rq; i++) {
        const MsLockComponent *it = &items[i];
        len += (size_t)snprintf(
            rq + len, sizeof rq - len,
            "%sLockComponent(type:%s, level:%s, dbname:%s%s%s%s%s)",
            i ? ", " : "", type_name(it->type),
            it->partition ? "PARTITION" : it->table ? "TABLE" : "DB", it->db,
            it->table ? ", tablename:" : "", it->table ? it->table : "",
            it->partition ? ", partitionname:" : "",
            it->partition ? it->partition : "");
    }
    if (len < sizeof rq)
        snprintf(rq + len, sizeof rq - len, "], txnid:%lld, user:%s, hostname:%s)",
                 (long long)c->txnid, c->s->user, c->s->host);
    return comb_err_hive(err, COMB_ETXN, 10307,
                         "Error in acquiring locks: Lock acquisition for %s "
                         "timed out after %lldms.  LockResponse(lockid:%lld, "
                         "state:WAITING)",
                         rq, (long long)waited_ms, (long long)st->extid);
}

/* A request that is WAITING: DbLockManager's loop; past the retries the
 * request is gone (ms_lock_wait removed it) and the statement fails. */
static int wait_for(SqlStmtCtx *c, const MsLockComponent *items, int n,
                    MsLockStatus *st, CombErr *err)
{
    SqlSession *s = c->s;
    int64_t sleep_ms = sql_conf_duration_ms(s, "hive.lock.sleep.between.retries",
                                            LOCK_SLEEP_MS, 1000);
    MsLockWait w = {(int)sql_conf_int(s, "hive.lock.numretries", LOCK_RETRIES),
                    sleep_ms > 15000 ? sleep_ms : 15000, false, NULL, NULL};
    int64_t waited = 0;
    int rc = ms_lock_wait(s->ms, c->txnid, &w, st, &waited, err);
    if (rc)
        return rc;
    if (st->state == MS_LOCK_WAITING)
        return lock_timeout(c, items, n, st, waited, err);
    return COMB_OK;
}

int sql_locks_acquire(SqlStmtCtx *c, CombErr *err)
{
    SqlLockPlan *p = &c->locks;
    MsLockRequest rq = {c->txnid, c->s->user, c->s->host, "comb", NULL, 0,
                        false};
    MsLockStatus st;
    int rc = COMB_OK;
    if (!c->txnid || (rc = sql_txn_locks_filter(c, err)))
        return rc;
    rq.components = p->items + p->n_requested;
    rq.n = p->n - p->n_requested;
    if (rq.n == 0)
        return COMB_OK;
    p->n_requested = p->n;
    if ((rc = ms_lock(c->s->ms, &rq, &st, err)))
        return rc;
    return st.state == MS_LOCK_WAITING
               ? wait_for(c, rq.components, rq.n, &st, err)
               : COMB_OK;
}

/* ------------------------------------------------ open and commit */

/* The heartbeater, started with the session's first txn on a handle of
 * its own (ms_open: SQLite or PostgreSQL alike). */
static int heartbeater_start(SqlSession *s, CombErr *err)
{
    Ms *own = NULL;
    int rc;
    if (s->hb)
        return COMB_OK;
    if ((rc = ms_open(s->ms_target, s->warehouse, &own, err)) ||
        (rc = ms_heartbeater_start(own, &s->hb, err)))
        return rc;
    sql_txn_settings_changed(s);
    return COMB_OK;
}

int sql_session_housekeep(SqlSession *s, CombErr *err)
{
    return heartbeater_start(s, err);
}

int sql_txn_open_locked(SqlStmtCtx *c, CombErr *err)
{
    SqlSession *s = c->s;
    SqlLockPlan *p = &c->locks;
    MsLockRequest rq = {0, s->user, s->host, "comb", NULL, 0, false};
    MsTxnBegin b = {s->user, s->host,
                    p->writes ? MS_TXN_TYPE_DEFAULT : MS_TXN_TYPE_READ_ONLY,
                    sql_conf_int(s, "metastore.max.open.txns",
                             sql_conf_int(s, "hive.max.open.txns", MAX_OPEN_TXNS)),
                    NULL};
    MsLockStatus st = {0};
    bool have = false;
    int rc;
    if ((rc = sql_locks_settle(c, err)) || (rc = heartbeater_start(s, err)))
        return rc;
    rq.components = p->items;
    rq.n = p->n;
    b.locks = p->n ? &rq : NULL;
    if ((rc = ms_txn_begin(s->ms, &b, &c->txnid, &st, &c->snapshot, &have, err)))
        return rc;
    p->n_requested = p->n;
    if ((rc = ms_heartbeater_add(s->hb, c->txnid, err)))
        return rc;
    if (p->n && st.state == MS_LOCK_WAITING &&
        (rc = wait_for(c, p->items, p->n, &st, err)))
        return rc;
    /* the snapshot is taken once the locks are granted: it sees every
     * writer the locks waited for */
    if (!have && (rc = ms_txn_snapshot(s->ms, c->txnid, &c->snapshot, err)))
        return rc;
    c->have_snapshot = true;
    fs_remember(true); /* nothing a store listed before counts */
    sql_pause_point(c, "after_snapshot");
    sql_sleep_point(c, "comb.test.sleep.after.snapshot.ms");
    return COMB_OK;
}

int sql_txn_commit_locked(SqlStmtCtx *c, CombErr *err)
{
    int rc = c->locks.excl_write ? ms_txn_commit_excl(c->s->ms, c->txnid, err)
                                 : ms_txn_commit(c->s->ms, c->txnid, err);
    if (rc == COMB_OK)
        sql_txn_forget(c->s, c->txnid);
    return rc;
}

void sql_txn_forget(SqlSession *s, int64_t txnid)
{
    if (s->hb && txnid)
        ms_heartbeater_remove(s->hb, txnid);
}
