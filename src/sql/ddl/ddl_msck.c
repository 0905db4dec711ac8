/*
 * ddl_msck.c - MSCK [REPAIR] TABLE t [ADD|DROP|SYNC PARTITIONS], as Hive
 * 4's HiveMetaStoreChecker and Msck do it:
 *
 *  - the table directory is searched for partition directories, one level
 *    per partition key ("k=v", the key compared ignoring case); names that
 *    are not partitions are problems, handled as hive.msck.path.validation
 *    says: throw (the default: the statement fails with Hive's text), skip
 *    (a WARNING line, the directory left out) or ignore (left out quietly);
 *  - directories the metastore lacks are reported, and with REPAIR added
 *    (ADD, the default, or SYNC); partitions whose directory is gone are
 *    reported, and with REPAIR dropped (DROP or SYNC);
 *  - for a transactional table REPAIR seeds the table's write ids from the
 *    highest write id in the base_/delta_/delete_delta_ names it adopts
 *    (ms_writeid_seed) and the global txn ids from their _v suffixes
 *    (ms_txnid_seed), so the adopted data reads as committed.  An
 *    unpartitioned table is seeded from its own directory.
 *
 * One addition to Hive: files with the ACID schema among the original
 * files a unit's reader reads are read as ACID files (acid/README.md), so
 * their write ids (the footer's column statistics of originalTransaction
 * and currentTransaction) count towards the seed too; Hive, which reads
 * such files as originals, never looks at them.
 *
 * Output, as Hive's result file holds it: "Tables missing on filesystem:",
 * "Partitions not in metastore:" and "Partitions missing from filesystem:"
 * lines (entries tab-separated, as table:partition), then the sorted
 * "Repair: ..." lines.
 */
#include "sql/sql_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "fs/fs.h"
#include "sql/ddl/ddl_int.h"

typedef enum MsckValidation {
    MSCK_THROW,
    MSCK_SKIP,
    MSCK_IGNORE
} MsckValidation;

/* A partition directory found under the table. */
typedef struct MsckDir {
    char *path;              /* absolute */
    char *name;              /* partition name its values make */
    char **values;           /* unescaped, normalized */
    bool invalid_chars;      /* a value the metastore would escape */
} MsckDir;

typedef struct Msck {
    SqlStmtCtx *c;
    const SqlTable *t;
    MsckValidation validation;
    MsckDir *dirs;
    int n_dirs, cap_dirs;
    char **lines;            /* Repair: ... lines */
    int n_lines, cap_lines;
} Msck;

static bool hidden(const char *name)
{
    return name[0] == '_' || name[0] == '.';
}

static int info(SqlStmtCtx *c, const char *line, CombErr *err)
{
    if (!line)
        return comb_err_nomem(err);
    return c->sink->info ? c->sink->info(c->sink->ctx, line, err) : COMB_OK;
}

/* Room for one more element of size `size` in the arena array *data. */
static int grow(CombArena *a, void **data, int n, int *cap, size_t size,
                CombErr *err)
{
    void *bigger;
    if (n < *cap)
        return COMB_OK;
    if (!(bigger = comb_arena_alloc(a, (size_t)(*cap ? *cap * 2 : 16) * size)))
        return comb_err_nomem(err);
    if (n)
        memcpy(bigger, *data, (size_t)n * size);
    *data = bigger;
    *cap = *cap ? *cap * 2 : 16;
    return COMB_OK;
}

static int push_line(Msck *m, char *line, CombErr *err)
{
    int rc;
    if (!line)
        return comb_err_nomem(err);
    if ((rc = grow(m->c->arena, (void **)&m->lines, m->n_lines, &m->cap_lines,
                   sizeof *m->lines, err)))
        return rc;
    m->lines[m->n_lines++] = line;
    return COMB_OK;
}

/* A directory that is not a partition: fatal, a warning, or nothing. */
static int problem(Msck *m, CombErr *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int problem(Msck *m, CombErr *err, const char *fmt, ...)
{
    char msg[COMB_ERR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (m->validation == MSCK_THROW)
        return comb_err(err, COMB_EINVALID, "MSCK: %s (set "
                        "hive.msck.path.validation=skip to leave such "
                        "directories out)", msg);
    if (m->validation == MSCK_SKIP)
        return info(m->c, comb_arena_printf(m->c->arena, "WARNING: %s", msg),
                    err);
    return COMB_OK;
}

static int validation_mode(SqlStmtCtx *c, MsckValidation *out, CombErr *err)
{
    const char *v = sql_session_get_conf(c->s, "hive.msck.path.validation");
    *out = MSCK_THROW;
    if (!v || strcasecmp(v, "throw") == 0)
        return COMB_OK;
    if (strcasecmp(v, "skip") == 0)
        *out = MSCK_SKIP;
    else if (strcasecmp(v, "ignore") == 0)
        *out = MSCK_IGNORE;
    else
        return comb_err(err, COMB_EINVALID, "hive.msck.path.validation must be "
                        "throw, skip or ignore, not '%s'", v);
    return COMB_OK;
}

/* ------------------------------------------------------------ the walk */

static bool is_numeric(CombTypeKind k)
{
    return sql_is_number(k);
}

/* The values of a leaf directory (relative path rel), unescaped and, for
 * numeric keys, normalized as Hive's getNormalisedPartitionValue does. */
static int leaf_values(Msck *m, const char *path, const char *rel,
                       char ***out, bool *ok, CombErr *err)
{
    SqlStmtCtx *c = m->c;
    const SqlTable *t = m->t;
    CombErr why;
    char **values;
    *ok = false;
    if (ms_part_name_parse(t->ms, rel, c->arena, &values, &why))
        return why.code == COMB_ENOMEM ? comb_err_nomem(err)
                                       : problem(m, err, "%s", why.msg);
    for (int k = 0; k < t->n_part; k++) {
        char *norm;
        if (!is_numeric(t->kinds[t->n_data + k]) ||
            strcmp(values[k], MS_DEFAULT_PARTITION_NAME) == 0)
            continue;
        if (sql_part_normalize(c, t, k, values[k], (AstPos){1, 1}, &norm, &why))
            return why.code == COMB_ENOMEM
                       ? comb_err_nomem(err)
                       : problem(m, err, "Invalid partition value '%s' for "
                                 "partition column %s (%s) at %s", values[k],
                                 t->names[t->n_data + k],
                                 comb_type_name(t->kinds[t->n_data + k]),
                                 sql_location_uri(c->arena, path));
        values[k] = norm;
    }
    *out = values;
    *ok = true;
    return COMB_OK;
}

static int add_leaf(Msck *m, const char *path, const char *rel, CombErr *err)
{
    SqlStmtCtx *c = m->c;
    MsckDir d = {0};
    bool ok;
    int rc = leaf_values(m, path, rel, &d.values, &ok, err);
    if (rc || !ok)
        return rc;
    for (int k = 0; k < m->t->n_part; k++) {
        char *esc;
        if (ms_path_escape(d.values[k], c->arena, &esc, err))
            return err->code;
        d.invalid_chars |= strcmp(esc, d.values[k]) != 0 &&
                           strcmp(d.values[k], MS_DEFAULT_PARTITION_NAME) != 0;
    }
    if ((rc = ms_part_name_make(m->t->ms, d.values, c->arena, &d.name, err)))
        return rc;
    if (!(d.path = comb_arena_strdup(c->arena, path)))
        return comb_err_nomem(err);
    if ((rc = grow(c->arena, (void **)&m->dirs, m->n_dirs, &m->cap_dirs,
                   sizeof *m->dirs, err)))
        return rc;
    m->dirs[m->n_dirs++] = d;
    return COMB_OK;
}

/* Hive's checkPartitionDirs: directories one level per partition key,
 * leaves at the depth of the last key. */
static int walk(Msck *m, const char *dir, const char *rel, int depth,
                CombErr *err)
{
    SqlStmtCtx *c = m->c;
    const SqlTable *t = m->t;
    char **names;
    int n, visible = 0, rc;
    if (depth == t->n_part)
        return add_leaf(m, dir, rel, err);
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n && !rc; i++) {
        const char *path, *eq;
        if (hidden(names[i]))
            continue;
        visible++;
        if (!(path = fs_join(c->arena, dir, names[i])))
            return comb_err_nomem(err);
        eq = strchr(names[i], '=');
        if (!fs_is_dir(path))
            rc = problem(m, err, "MSCK finds a file rather than a directory "
                         "when it searches for %s",
                         sql_location_uri(c->arena, path));
        else if (!eq || eq == names[i] + strlen(names[i]) - 1 ||
                 strchr(eq + 1, '='))
            rc = problem(m, err, "Invalid partition name %s",
                         sql_location_uri(c->arena, path));
        else if (strncasecmp(names[i], t->names[t->n_data + depth],
                             (size_t)(eq - names[i])) != 0 ||
                 t->names[t->n_data + depth][eq - names[i]] != '\0')
            rc = problem(m, err, "Unexpected partition key %.*s found at %s",
                         (int)(eq - names[i]), names[i],
                         sql_location_uri(c->arena, path));
        else
            rc = walk(m, path,
                      rel ? comb_arena_printf(c->arena, "%s/%s", rel, names[i])
                          : names[i],
                      depth + 1, err);
    }
    if (!rc && visible == 0 && depth > 0)
        rc = problem(m, err, "MSCK is missing partition columns under %s",
                     sql_location_uri(c->arena, dir));
    return rc;
}

/* ------------------------------------------------------------- seeding */

/* The highest write id in an ACID-format ORC file (its column statistics
 * of originalTransaction and currentTransaction); 0 for other files. */
static int64_t acid_file_max_writeid(const char *path)
{
    OrcReader *r;
    OrcColumnStats st;
    CombErr ignored;
    int64_t max = 0;
    if (orc_reader_open(path, &r, &ignored))
        return 0;
    if (acid_schema_is_acid(orc_reader_schema(r)))
        for (int col = 2; col <= 5; col += 3)
            if (orc_reader_column_stats(r, col, &st) == COMB_OK && st.has_int &&
                st.int_max > max)
                max = st.int_max;
    orc_reader_close(r);
    return max;
}

/* Hive's setMaxTxnAndWriteIdFromPartition over dir: the highest write id
 * and visibility txn id in its ACID directory names; and (comb) the write
 * ids of ACID-format files among the original files a reader would read
 * there (acid_dir_state_get's originals, with every write id valid). */
static int max_ids(SqlStmtCtx *c, const char *dir, int64_t *wid, int64_t *txn,
                   CombErr *err)
{
    CombWriteIdList all = {0};
    AcidDirState st;
    char **names;
    int n, rc;
    if ((rc = fs_list_dir(dir, c->arena, &names, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        AcidParsedDir pd;
        if (hidden(names[i]) || !acid_dir_parse(names[i], &pd))
            continue;
        *wid = pd.max_wid > *wid ? pd.max_wid : *wid;
        *txn = pd.visibility_txn > *txn ? pd.visibility_txn : *txn;
    }
    if (comb_idlist_init(&all.ids, INT64_MAX - 1, NULL, 0, NULL, 0))
        return comb_err_nomem(err);
    rc = acid_dir_state_get(dir, &all, NULL, c->arena, &st, err);
    comb_writeidlist_free(&all);
    for (int i = 0; i < st.n_originals && !rc; i++) {
        const char *path = fs_join(c->arena, dir, st.originals[i]);
        int64_t w;
        if (!path)
            return comb_err_nomem(err);
        w = acid_file_max_writeid(path);
        *wid = w > *wid ? w : *wid;
    }
    return rc;
}

static int seed(Msck *m, int64_t wid, int64_t txn, CombErr *err)
{
    const MsTable *t = m->t->ms;
    int rc;
    if ((rc = ms_writeid_seed(m->c->s->ms, t->db, t->name, wid, err)))
        return rc;
    return txn > 0 ? ms_txnid_seed(m->c->s->ms, txn, err) : COMB_OK;
}

/* -------------------------------------------------------------- report */

/* "<title>\t<t>:<name>\t..." for the listed names, nothing when none. */
static int report(Msck *m, const char *title, char *const *names, int n,
                  CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    int rc;
    if (n == 0)
        return COMB_OK;
    comb_buf_append_str(&b, title);
    for (int i = 0; i < n; i++)
        comb_buf_printf(&b, "\t%s:%s", m->t->ms->name, names[i]);
    rc = info(m->c, comb_arena_strndup(m->c->arena, (char *)b.data, b.len), err);
    comb_buf_free(&b);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_dir(const void *a, const void *b)
{
    return strcmp(((const MsckDir *)a)->name, ((const MsckDir *)b)->name);
}

static bool path_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && path[n] == '/';
}

/* Hive's checkTable and findUnknownPartitions: which catalog partitions
 * have lost their directory (*gone) and which directories have no
 * partition (the dirs left in m, marked new). */
static int compare(Msck *m, bool *is_new, char ***gone, int *n_gone,
                   CombErr *err)
{
    SqlStmtCtx *c = m->c;
    const MsTable *t = m->t->ms;
    MsPartition *parts;
    bool *correct;
    int n, rc = ms_part_list(c->s->ms, t->db, t->name, NULL, 0, c->arena,
                             &parts, &n, err);
    if (rc)
        return rc;
    *gone = comb_arena_alloc(c->arena, (size_t)(n + 1) * sizeof **gone);
    correct = comb_arena_calloc(c->arena, (size_t)(n + 1) * sizeof *correct);
    if (!*gone || !correct)
        return comb_err_nomem(err);
    *n_gone = 0;
    for (int d = 0; d < m->n_dirs; d++)
        is_new[d] = true;
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < m->n_dirs && !correct[i]; d++)
            if (is_new[d] && strcmp(parts[i].location, m->dirs[d].path) == 0)
                correct[i] = !(is_new[d] = false);
        if (!correct[i] && !path_under(parts[i].location, t->location)) {
            /* a store that cannot say must not get a partition dropped */
            FsKind kind;
            if ((rc = fs_probe(parts[i].location, &kind, err)))
                return rc;
            correct[i] = kind == FS_DIR;
        }
        if (!correct[i])
            (*gone)[(*n_gone)++] = parts[i].name;
    }
    for (int d = 0; d < m->n_dirs; d++) {
        if (!is_new[d])
            continue;
        for (int i = 0; i < n; i++)
            if (correct[i] && strcmp(parts[i].name, m->dirs[d].name) == 0)
                return comb_err(err, COMB_EINVALID, "MSCK: The partition "
                                "'%s:%s' already exists for table%s", t->name,
                                m->dirs[d].name, t->name);
        for (int e = 0; e < d; e++)
            if (is_new[e] && strcmp(m->dirs[e].name, m->dirs[d].name) == 0)
                return comb_err(err, COMB_EINVALID, "MSCK: Found two paths for "
                                "same partition '%s:%s' for table %s", t->name,
                                m->dirs[d].name, t->name);
        /* a gone partition found again elsewhere is neither gone nor new
         * to the catalog (adding it again leaves it alone) */
        for (int g = 0; g < *n_gone; g++)
            if (strcmp((*gone)[g], m->dirs[d].name) == 0)
                (*gone)[g--] = (*gone)[--*n_gone];
    }
    return COMB_OK;
}

/* -------------------------------------------------------------- repair */

static int add_partitions(Msck *m, const bool *is_new, CombErr *err)
{
    SqlStmtCtx *c = m->c;
    const MsTable *t = m->t->ms;
    MsPartition *parts = comb_arena_calloc(c->arena, (size_t)(m->n_dirs + 1) * sizeof *parts);
    int64_t wid = 0, txn = 0;
    int n = 0, rc = COMB_OK;
    if (!parts)
        return comb_err_nomem(err);
    for (int d = 0; d < m->n_dirs && !rc; d++) {
        const MsckDir *dir = &m->dirs[d];
        char *cannot;
        if (!is_new[d])
            continue;
        if (dir->invalid_chars && m->validation != MSCK_IGNORE) {
            cannot = comb_arena_printf(c->arena, "Repair: Cannot add partition "
                                       "%s:%s due to invalid characters in "
                                       "the name", t->name, dir->name);
            if (m->validation == MSCK_THROW)
                return comb_err(err, COMB_EINVALID, "MSCK: %s", cannot ? cannot : "");
            rc = push_line(m, cannot, err);
            continue;
        }
        parts[n].n_values = m->t->n_part;
        parts[n].values = dir->values;
        parts[n++].location = dir->path;
        if (m->t->kind != SQL_TABLE_PLAIN)
            rc = max_ids(c, dir->path, &wid, &txn, err);
        if (!rc)
            rc = push_line(m, comb_arena_printf(c->arena, "Repair: Added "
                                                "partition to metastore %s:%s",
                                                t->name, dir->name), err);
    }
    if (rc || n == 0)
        return rc;
    /* the write ids first: a partition is never visible unseeded */
    if (m->t->kind != SQL_TABLE_PLAIN && (rc = seed(m, wid, txn, err)))
        return rc;
    return ms_part_add(c->s->ms, t->db, t->name, parts, n, true, NULL, err);
}

static int drop_partitions(Msck *m, char **gone, int n, CombErr *err)
{
    const MsTable *t = m->t->ms;
    int rc = COMB_OK;
    if (n == 0)
        return COMB_OK;
    for (int i = 0; i < n && !rc; i++)
        rc = push_line(m, comb_arena_printf(m->c->arena, "Repair: Dropped "
                                            "partition from metastore "
                                            "hive.%s.%s:%s", t->db, t->name,
                                            gone[i]), err);
    return rc ? rc : ms_part_drop(m->c->s->ms, t->db, t->name, gone, n, true, err);
}

static int repair_unpartitioned(Msck *m, CombErr *err)
{
    int64_t wid = 0, txn = 0;
    int rc;
    if (m->t->kind == SQL_TABLE_PLAIN)
        return COMB_OK;
    if ((rc = max_ids(m->c, m->t->ms->location, &wid, &txn, err)))
        return rc;
    return seed(m, wid, txn, err);
}

int sql_exec_msck(SqlStmtCtx *c, CombErr *err)
{
    const AstCatalog *cat = c->stmt->catalog;
    Msck m = {c, NULL, MSCK_THROW, NULL, 0, 0, NULL, 0, 0};
    char **gone = NULL, **new_names;
    bool *is_new;
    SqlTable *t;
    int n_gone = 0, n_new = 0, rc;
    if ((rc = sql_catalog_table(c, &c->stmt->name, true, &t, err)) ||
        (rc = validation_mode(c, &m.validation, err)))
        return rc;
    if (t->kind == SQL_TABLE_VIEW)
        return sql_err_at(err, COMB_ESEMANTIC, 0, c->stmt->name.pos,
                          "MSCK cannot check %s: it is a view", t->qualified);
    m.t = t;
    FsKind kind;
    if ((rc = fs_probe(t->ms->location, &kind, err)))
        return rc;
    if (kind != FS_DIR)
        return info(c, comb_arena_printf(c->arena, "Tables missing on "
                                         "filesystem:\t%s", t->ms->name), err);
    if (t->n_part == 0)
        return cat->repair ? repair_unpartitioned(&m, err) : COMB_OK;
    if ((rc = walk(&m, t->ms->location, NULL, 0, err)))
        return rc;
    if (m.n_dirs > 1)
        qsort(m.dirs, (size_t)m.n_dirs, sizeof *m.dirs, cmp_dir);
    is_new = comb_arena_calloc(c->arena, (size_t)(m.n_dirs + 1) * sizeof *is_new);
    new_names = comb_arena_alloc(c->arena, (size_t)(m.n_dirs + 1) * sizeof *new_names);
    if (!is_new || !new_names)
        return comb_err_nomem(err);
    if ((rc = compare(&m, is_new, &gone, &n_gone, err)))
        return rc;
    for (int d = 0; d < m.n_dirs; d++)
        if (is_new[d])
            new_names[n_new++] = m.dirs[d].name;
    if (n_gone > 1)
        qsort(gone, (size_t)n_gone, sizeof *gone, cmp_str);
    if ((rc = report(&m, "Partitions not in metastore:", new_names, n_new, err)) ||
        (rc = report(&m, "Partitions missing from filesystem:", gone, n_gone,
                     err)))
        return rc;
    if (cat->repair && cat->msck_mode != AST_MSCK_DROP)
        rc = add_partitions(&m, is_new, err);
    if (!rc && cat->repair && cat->msck_mode != AST_MSCK_ADD)
        rc = drop_partitions(&m, gone, n_gone, err);
    if (!rc && m.n_lines > 1)
        qsort(m.lines, (size_t)m.n_lines, sizeof *m.lines, cmp_str);
    for (int i = 0; i < m.n_lines && !rc; i++)
        rc = info(c, m.lines[i], err);
    return rc;
}

/* The table's highest write id allocated by now, whatever the statement's
 * snapshot says: a writer allocates its write id before it makes a
 * directory named by it, so a directory listed before this call that
 * another writer of this table made carries a write id at most this.
 * Under a snapshot that sees every txn, each write id is valid and the
 * high watermark is the last one allocated. */
static int writeid_allocated(SqlStmtCtx *c, const SqlTable *t, int64_t *hwm,
                             CombErr *err)
{
    const CombTxnList every = {INT64_MAX, COMB_NO_OPEN_ID, 0, NULL, NULL};
    CombWriteIdList wil;
    int rc = ms_writeid_list(c->s->ms, &every, t->ms->db, t->ms->name, &wil,
                             err);
    if (rc)
        return rc;
    *hwm = wil.ids.hwm;
    comb_writeidlist_free(&wil);
    return COMB_OK;
}

/* The highest write id the directories of t's units name (0: none). */
static int units_max_writeid(SqlStmtCtx *c, const SqlTable *t, int64_t *max,
                             const char **where, CombErr *err)
{
    SqlUnit *units;
    int n, rc;
    *max = 0;
    if ((rc = sql_table_units(c, t, NULL, &units, &n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        int64_t wid = 0, txn = 0;
        FsKind kind;
        if ((rc = fs_probe(units[i].dir, &kind, err)))
            return rc;
        if (kind != FS_DIR)
            continue;
        if ((rc = max_ids(c, units[i].dir, &wid, &txn, err)))
            return rc;
        if (wid > *max) {
            *max = wid;
            *where = units[i].dir;
        }
    }
    return COMB_OK;
}

int sql_check_adopted(SqlStmtCtx *c, const SqlTable *t, CombErr *err)
{
    CombWriteIdList wil;
    const char *where = NULL;
    int64_t found, allocated;
    bool known;
    int rc;
    if (t->kind == SQL_TABLE_PLAIN || t->kind == SQL_TABLE_VIEW)
        return COMB_OK;
    if ((rc = sql_table_writeids(c, t, &wil, err)))
        return rc;
    known = wil.ids.hwm != 0 || wil.ids.n_exceptions != 0;
    comb_writeidlist_free(&wil);
    sql_pause_point(c, "adopt_listing");
    if (known || (rc = units_max_writeid(c, t, &found, &where, err)))
        return rc;
    /* Another writer's first write may have begun after this statement's
     * snapshot: its directories are this table's own, not foreign. */
    if (found == 0 || (rc = writeid_allocated(c, t, &allocated, err)) ||
        found <= allocated)
        return rc;
    return comb_err(err, COMB_EINVALID, "table %s holds ACID data written "
                    "elsewhere (write ids up to %lld in '%s') that the "
                    "metastore does not know; run MSCK REPAIR TABLE %s "
                    "before writing to it", t->qualified, (long long)found,
                    where, t->qualified);
}
