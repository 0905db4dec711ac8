/*
 * ddl_alter_part.c - the partitions ALTER and TRUNCATE name.
 *
 * PARTITION (k = v, ...) is checked as Hive's getValidatedPartSpec checks
 * it (a partitioned table, partition keys only, all of them where one
 * partition is meant) and its values are converted to the keys' types as
 * INSERT ... PARTITION converts them ('01' names k=1 for an INT key).
 * ADD PARTITION makes the directories durable before the catalog adds the
 * partitions (and removes the ones it made when that fails); DROP
 * PARTITION takes Hive's comparison specs (k < 'v', several ANDed in one
 * PARTITION, several PARTITIONs), moves managed partitions' directories
 * aside, drops them from the catalog in one call and only then removes
 * the directories, putting them back if the catalog refuses.
 */
#include "sql/ddl/alter_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/buf.h"
#include "fs/fs.h"

/* ------------------------------------------------------------- specs */

/* The value of a spec item as text, bound as INSERT binds it (*typed is
 * the constant before it became text). */
static int item_value(SqlStmtCtx *c, const AstPartItem *it, BoundExpr **typed,
                      char **text, CombErr *err)
{
    static const SqlScope no_table = {NULL, NULL, -1};
    BoundExpr *s;
    int rc;
    if ((rc = sql_bind_expr(c, &no_table, it->value, typed, err)) ||
        (rc = sql_bind_convert_kind(c, *typed, COMB_T_STRING, &s, err)))
        return rc;
    if (s->kind != BX_CONST)
        return sql_err_at(err, COMB_ESEMANTIC, 0, it->value->pos,
                          "the value of partition key %s must be a constant",
                          it->key);
    *text = s->is_null ? NULL : comb_arena_strndup(c->arena, s->sval.ptr, s->sval.len);
    return s->is_null || *text ? COMB_OK : comb_err_nomem(err);
}

/* Hive shows a spec as the map it parsed: {k=v, k2=v2}, values as
 * written. */
static const char *spec_text(SqlStmtCtx *c, const AstPartSpec *spec)
{
    CombBuf b = COMB_BUF_INIT;
    char *out;
    comb_buf_append_str(&b, "{");
    for (int i = 0; i < spec->n; i++) {
        const AstExpr *v = spec->items[i].value;
        comb_buf_printf(&b, "%s%s=%s", i ? ", " : "", spec->items[i].key,
                        v->kind == AST_LIT_STRING ? v->sval : v->text);
    }
    comb_buf_append_str(&b, "}");
    out = comb_arena_strndup(c->arena, (const char *)b.data, b.len);
    comb_buf_free(&b);
    return out ? out : "{}";
}

int sql_alter_no_partition(SqlStmtCtx *c, const AstPartSpec *spec,
                           CombErr *err)
{
    return sql_err_at(err, COMB_ENOTFOUND, 10006, spec->pos,
                      "Partition not found %s", spec_text(c, spec));
}

/* The index among the table's partition keys of `key`, -1 if none. */
static int key_index(const SqlTable *t, const char *key)
{
    int col = sql_table_column(t, key);
    return col >= t->n_data ? col - t->n_data : -1;
}

/* Hive's Table.validatePartColumnNames. */
static int check_spec_keys(SqlStmtCtx *c, const SqlTable *t,
                           const AstPartSpec *spec, bool full, CombErr *err)
{
    int given = 0;
    if (t->n_part == 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, spec->pos,
                          "%s table is not partitioned but partition spec "
                          "exists: %s", t->qualified, spec_text(c, spec));
    for (int i = 0; i < spec->n; i++) {
        bool again = false;
        if (key_index(t, spec->items[i].key) < 0)
            return sql_err_at(err, COMB_ESEMANTIC, 0, spec->pos,
                              "%s: Partition spec %s contains non-partition "
                              "columns", t->qualified, spec_text(c, spec));
        for (int j = 0; j < i; j++)
            again |= strcasecmp(spec->items[j].key, spec->items[i].key) == 0;
        given += !again;
    }
    if (full && given != t->n_part)
        return sql_err_at(err, COMB_ESEMANTIC, 0, spec->pos,
                          "%s: partition spec %s doesn't contain all (%d) "
                          "partition columns", t->qualified, spec_text(c, spec),
                          t->n_part);
    return COMB_OK;
}

/* The value of item `it` for key `key` as the partition names it: the
 * default partition's name for NULL or that name itself, else converted
 * to the key's type (Hive's 10248 when it does not convert). */
static int key_value(SqlStmtCtx *c, const SqlTable *t, int key,
                     const AstPartItem *it, char **out, CombErr *err)
{
    BoundExpr *typed;
    char *text;
    int rc = item_value(c, it, &typed, &text, err);
    if (rc)
        return rc;
    if (!text || strcmp(text, MS_DEFAULT_PARTITION_NAME) == 0) {
        *out = (char *)MS_DEFAULT_PARTITION_NAME;
        return COMB_OK;
    }
    rc = sql_part_normalize(c, t, key, text, it->value->pos, out, err);
    if (rc == COMB_EINVALID)
        return sql_err_at(err, rc, 10248, it->value->pos,
                          "Cannot add partition column %s of type %s as it "
                          "cannot be converted to type %s", it->key,
                          sql_bx_type_text(c, typed),
                          sql_type_text(c, t->types[t->n_data + key]));
    return rc;
}

int sql_alter_spec(SqlStmtCtx *c, const AlterTarget *tg, const AstPartSpec *spec,
                   bool full, AlterPart **out, int *n, CombErr *err)
{
    const SqlTable *t = tg->t;
    char **values;
    MsProperty *pairs;
    MsPartition *found;
    int n_found, rc = check_spec_keys(c, t, spec, full, err);
    *n = 0;
    if (rc)
        return rc;
    values = comb_arena_calloc(c->arena, (size_t)(t->n_part + 1) * sizeof *values);
    pairs = comb_arena_calloc(c->arena, (size_t)(spec->n + 1) * sizeof *pairs);
    if (!values || !pairs)
        return comb_err_nomem(err);
    for (int i = 0; i < spec->n; i++) {
        int k = key_index(t, spec->items[i].key);
        if ((rc = key_value(c, t, k, &spec->items[i], &values[k], err)))
            return rc;
        pairs[i] = (MsProperty){(char *)t->names[t->n_data + k], values[k]};
    }
    if ((rc = ms_part_list(c->s->ms, tg->db, tg->ms->name, pairs, spec->n,
                           c->arena, &found, &n_found, err)))
        return rc;
    if (!(*out = comb_arena_calloc(c->arena, (size_t)(n_found + 1) * sizeof **out)))
        return comb_err_nomem(err);
    for (int i = 0; i < n_found; i++)
        (*out)[i] = (AlterPart){found[i].name, found[i].values, &found[i]};
    *n = n_found;
    if (!full || n_found > 0)
        return COMB_OK;
    /* the one partition a full spec means, which the catalog lacks */
    (*out)[0].values = values;
    *n = 1;
    return ms_part_name_make(tg->ms, values, c->arena, &(*out)[0].name, err);
}

/* -------------------------------------------------------- ADD PARTITION */

/* Hive's PartitionUtils.validatePartitions: values may not contain the
 * names Hive reserves. */
static int check_reserved(const AstPartSpec *spec, char *const *values, int n,
                          CombErr *err)
{
    static const char *const reserved[] = {
        MS_DEFAULT_PARTITION_NAME, "__HIVE_DEFAULT_ZOOKEEPER_PARTITION__",
        "_INTERMEDIATE_ORIGINAL", "_INTERMEDIATE_ARCHIVED",
        "_INTERMEDIATE_EXTRACTED"};
    for (int i = 0; i < n; i++)
        for (size_t r = 0; r < sizeof reserved / sizeof reserved[0]; r++)
            if (strstr(values[i], reserved[r]))
                return sql_err_at(err, COMB_EINVALID, 10111, spec->pos,
                                  "Partition value contains a reserved "
                                  "substring (User value: %s Reserved "
                                  "substring: %s)", values[i], reserved[r]);
    return COMB_OK;
}

/* The partition `part` of ADD PARTITION in *out, or nothing (*skip) when
 * it exists and IF NOT EXISTS was given. */
static int new_partition(SqlStmtCtx *c, const AlterTarget *tg,
                         const AstAlterPart *part, MsPartition *out,
                         bool *skip, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    AlterPart *ap;
    int n, rc = sql_alter_spec(c, tg, &part->spec, true, &ap, &n, err);
    *skip = false;
    if (rc || (rc = check_reserved(&part->spec, ap->values, tg->t->n_part, err)))
        return rc;
    if (ap->ms && a->if_not_exists) {
        *skip = true;
        return COMB_OK;
    }
    if (ap->ms)
        return sql_err_at(err, COMB_EEXISTS, 0, part->spec.pos,
                          "Partition already exists: %s/%s", tg->t->qualified,
                          ap->name);
    memset(out, 0, sizeof *out);
    out->name = ap->name;
    out->n_values = tg->t->n_part;
    out->values = ap->values;
    if (!part->location)
        return (out->location = fs_join(c->arena, tg->ms->location, ap->name))
                   ? COMB_OK : comb_err_nomem(err);
    /* Hive moves such data into a delta of the table (LOAD DATA would) */
    if (tg->t->kind != SQL_TABLE_PLAIN)
        return sql_err_at(err, COMB_EUNSUPPORTED, 0, part->spec.pos,
                          "ADD PARTITION ... LOCATION on the transactional "
                          "table %s is not supported (add the partition "
                          "without LOCATION and LOAD DATA into it)",
                          tg->t->qualified);
    return sql_absolute_location(c, part->location, &out->location, err);
}

int sql_alter_add_partitions(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    MsPartition *parts = comb_arena_calloc(c->arena, (size_t)(a->n_parts + 1) * sizeof *parts);
    int *made = comb_arena_calloc(c->arena, (size_t)(a->n_parts + 1) * sizeof *made);
    int n = 0, n_dirs = 0, rc = COMB_OK;
    if (!parts || !made)
        return comb_err_nomem(err);
    for (int i = 0; i < a->n_parts; i++) {
        bool skip;
        if ((rc = new_partition(c, tg, &a->parts[i], &parts[n], &skip, err)))
            return rc;
        for (int j = 0; j < n && !skip; j++)
            if (strcmp(parts[j].name, parts[n].name) == 0)
                return sql_err_at(err, COMB_EINVALID, 0, a->parts[i].spec.pos,
                                  "Duplicate partitions in the list: %s",
                                  parts[n].name);
        n += !skip;
    }
    /* the directories are durable before the catalog names them */
    for (; n_dirs < n && !rc; n_dirs++)
        rc = fs_mkdirs_n(parts[n_dirs].location, &made[n_dirs], err);
    if (!rc && n > 0)
        rc = ms_part_add(c->s->ms, tg->db, tg->ms->name, parts, n,
                         a->if_not_exists, NULL, err);
    if (rc)
        while (n_dirs-- > 0)
            fs_rmdirs_empty(parts[n_dirs].location, made[n_dirs]);
    return rc;
}

/* ------------------------------------------------------- DROP PARTITION */

static const char *op_shown(AstOp op)
{
    switch (op) {
    case AST_OP_EQ: return "=";
    case AST_OP_NE: return "<>";
    case AST_OP_LT: return "<";
    case AST_OP_LE: return "<=";
    case AST_OP_GT: return ">";
    default: return ">=";
    }
}

/* A value as Hive's ExprNodeConstantDesc shows it for a key's type. */
static void value_shown(CombBuf *b, CombTypeKind k, const char *v)
{
    if (comb_type_is_str(k))
        comb_buf_printf(b, "'%s'", v);
    else if (k == COMB_T_DATE)
        comb_buf_printf(b, "DATE'%s'", v);
    else if (k == COMB_T_TIMESTAMP)
        comb_buf_printf(b, "TIMESTAMP'%s'", v);
    else
        comb_buf_printf(b, "%s%s", v, k == COMB_T_BIGINT ? "L"
                                      : k == COMB_T_SMALLINT ? "S"
                                      : k == COMB_T_TINYINT ? "Y"
                                      : k == COMB_T_DECIMAL ? "BD" : "");
}

/* One comparison of a DROP spec: the typed predicate on the partition
 * column, and its text as Hive's getExprString writes it. */
typedef struct DropTerm {
    AstExpr *ast;
    char *shown;
} DropTerm;

static AstExpr *ast_node(SqlStmtCtx *c, AstExprKind kind, AstPos pos)
{
    AstExpr *e = comb_arena_calloc(c->arena, sizeof *e);
    if (e) {
        e->kind = kind;
        e->pos = pos;
        e->text = "";
        e->height = 1;
    }
    return e;
}

/* key op constant; the default partition's name only with = or != (it
 * stands for NULL: IS [NOT] NULL). */
static int drop_term(SqlStmtCtx *c, const SqlTable *t, const AstPartItem *it,
                     AstOp op, DropTerm *out, CombErr *err)
{
    CombBuf b = COMB_BUF_INIT;
    AstExpr *col = ast_node(c, AST_COLREF, it->pos);
    BoundExpr *typed;
    char *text, *norm;
    int k = key_index(t, it->key), rc;
    if (k < 0)
        return sql_err_at(err, COMB_ESEMANTIC, 0, it->pos,
                          "Column %s is not a partition key", it->key);
    if (!col || (rc = item_value(c, it, &typed, &text, err)))
        return col ? rc : comb_err_nomem(err);
    col->name = (char *)t->names[t->n_data + k];
    col->text = col->name;
    if (!text || strcmp(text, MS_DEFAULT_PARTITION_NAME) == 0) {
        if (op != AST_OP_EQ && op != AST_OP_NE)
            return sql_err_at(err, COMB_ESEMANTIC, 0, it->pos,
                              "Cannot use %s in a default partition spec; "
                              "only '=' and '!=' are allowed.",
                              op == AST_OP_NE ? "!=" : op_shown(op));
        if (!(out->ast = ast_node(c, AST_IS_NULL, it->pos)))
            return comb_err_nomem(err);
        out->ast->left = col;
        out->ast->negated = op == AST_OP_NE;
        out->shown = comb_arena_printf(c->arena, "%s is %snull", col->name,
                                       op == AST_OP_NE ? "not " : "");
        return out->shown ? COMB_OK : comb_err_nomem(err);
    }
    if (!(out->ast = ast_node(c, AST_BINARY, it->pos)))
        return comb_err_nomem(err);
    out->ast->op = op;
    out->ast->left = col;
    out->ast->right = it->value;
    out->ast->height = it->value->height + 1;
    /* the constant shows as the key's type has it, when it converts */
    if (sql_part_normalize(c, t, k, text, it->pos, &norm, err) || !norm)
        norm = text;
    comb_err_clear(err);
    comb_buf_printf(&b, "(%s %s ", col->name, op_shown(op));
    value_shown(&b, t->kinds[t->n_data + k], norm);
    comb_buf_append_str(&b, ")");
    out->shown = comb_arena_strndup(c->arena, (const char *)b.data, b.len);
    comb_buf_free(&b);
    return out->shown ? COMB_OK : comb_err_nomem(err);
}

/* The existing partitions one DROP spec matches (the conjunction of its
 * comparisons over the partition columns, as partition pruning decides
 * it), and the spec as Hive shows it. */
static int drop_matches(SqlStmtCtx *c, const AlterTarget *tg,
                        const AstAlterPart *part, SqlUnit **units, int *n,
                        char **shown, CombErr *err)
{
    const AstPartSpec *spec = &part->spec;
    const SqlScope scope = {tg->t, tg->ms->name, -1};
    AstExpr *all = ast_node(c, AST_BINARY, spec->pos), **args;
    BoundExpr *where;
    CombBuf b = COMB_BUF_INIT;
    int rc = COMB_OK;
    args = comb_arena_calloc(c->arena, (size_t)(spec->n + 1) * sizeof *args);
    if (!all || !args)
        return comb_err_nomem(err);
    for (int i = 0; i < spec->n && !rc; i++) {
        DropTerm term = {NULL, NULL};
        if (!(rc = drop_term(c, tg->t, &spec->items[i], part->ops[i], &term,
                             err))) {
            args[i] = term.ast;
            /* Hive ANDs the terms pairwise: ((a) and (b)) and (c) */
            if (i == 0) {
                comb_buf_append_str(&b, term.shown);
            } else {
                char *prev = comb_arena_strndup(c->arena, (const char *)b.data, b.len);
                b.len = 0;
                comb_buf_printf(&b, "(%s and %s)", prev ? prev : "", term.shown);
            }
        }
    }
    *shown = rc ? NULL : comb_arena_strndup(c->arena, (const char *)b.data, b.len);
    comb_buf_free(&b);
    if (rc)
        return rc;
    all->op = AST_OP_AND;
    all->args = args;
    all->n_args = spec->n;
    if ((rc = sql_bind_expr(c, &scope, spec->n == 1 ? args[0] : all, &where, err)))
        return rc;
    rc = sql_table_units(c, tg->t, where, units, n, err);
    sql_expr_release(where);
    return rc;
}

/* A partition directory DROP may remove: not the table's own directory
 * nor one holding it (a LOCATION pointing there). */
static bool removable(const AlterTarget *tg, const char *dir)
{
    size_t n = strlen(dir);
    const char *tl = tg->ms->location;
    return !(strncmp(tl, dir, n) == 0 && (tl[n] == '\0' || tl[n] == '/'));
}

/* Partitions named by the DROP's specs, each once, in spec order. */
static int drop_collect(SqlStmtCtx *c, const AlterTarget *tg, SqlUnit **list,
                        int *n, CombErr *err)
{
    const AstAlter *a = c->stmt->alter;
    int cap = 0, rc;
    *n = 0;
    *list = NULL;
    for (int i = 0; i < a->n_parts; i++) {
        SqlUnit *units = NULL;
        char *shown = NULL;
        int m = 0;
        if ((rc = drop_matches(c, tg, &a->parts[i], &units, &m, &shown, err)))
            return rc;
        if (m == 0 && !a->if_exists)
            return sql_err_at(err, COMB_ENOTFOUND, 10006, a->parts[i].spec.pos,
                              "Partition not found %s", shown);
        for (int j = 0; j < m; j++) {
            bool seen = false;
            for (int k = 0; k < *n && !seen; k++)
                seen = strcmp((*list)[k].name, units[j].name) == 0;
            if (seen)
                continue;
            if (*n == cap) {
                SqlUnit *g;
                cap = cap ? cap * 2 : 8;
                if (!(g = comb_arena_alloc(c->arena, (size_t)cap * sizeof *g)))
                    return comb_err_nomem(err);
                if (*n)
                    memcpy(g, *list, (size_t)*n * sizeof *g);
                *list = g;
            }
            (*list)[(*n)++] = units[j];
        }
    }
    return COMB_OK;
}

int sql_alter_drop_partitions(SqlStmtCtx *c, AlterTarget *tg, CombErr *err)
{
    AsideDirs aside = {0};
    SqlUnit *units;
    char **names;
    int n, rc = drop_collect(c, tg, &units, &n, err);
    if (rc || n == 0)
        return rc;
    if (!(names = comb_arena_calloc(c->arena, (size_t)n * sizeof *names)))
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++)
        names[i] = (char *)units[i].name;
    if ((rc = sql_locks_note_dropped(c, tg->ms, names, n, err)))
        return rc;
    for (int i = 0; i < n; i++) {
        if (sql_table_is_managed(tg->ms) && removable(tg, units[i].dir) &&
            (rc = sql_aside_move(c, units[i].dir, &aside, err))) {
            comb_err_prefix(err, "cannot drop partition %s of %s",
                            units[i].name, tg->t->qualified);
            return sql_aside_put_back(c, &aside, err);
        }
    }
    if ((rc = ms_part_drop(c->s->ms, tg->db, tg->ms->name, names, n, false, err)))
        return sql_aside_put_back(c, &aside, err);
    rc = sql_aside_remove(c, &aside, err);
    /* k1=v1/ left empty by its last k2=... partition goes too, as in Hive */
    for (int i = 0; i < n && tg->t->n_part > 1; i++) {
        char *deflt = fs_join(c->arena, tg->ms->location, units[i].name);
        if (deflt && strcmp(deflt, units[i].dir) == 0)
            fs_rmdirs_empty(fs_dirname(c->arena, deflt), tg->t->n_part - 1);
    }
    return rc;
}
