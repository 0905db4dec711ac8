/*
 * schema.c - the ORC schema of ACID files (§1.1, §1.3 of
 * hive-acid-storage.md): recognising an ACID file, building the type a
 * writer uses, and mapping a file's row fields to the table's columns.
 */
#include "acid/acid_int.h"

#include <string.h>
#include <strings.h>

const char *const acid_root_field_names[6] = {
    "operation", "originalTransaction", "bucket",
    "rowId",     "currentTransaction",  "row"};

int acid_schema_copy(CombArena *a, const AcidSchema *src, AcidSchema *dst,
                     CombErr *err)
{
    int n = src->n_cols;
    const char **names = comb_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *names);
    CombTypeKind *kinds = comb_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *kinds);
    if (!names || !kinds)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        if (!(names[i] = comb_arena_strdup(a, src->names[i])))
            return comb_err_nomem(err);
        kinds[i] = src->kinds[i];
    }
    dst->n_cols = n;
    dst->names = names;
    dst->kinds = kinds;
    return COMB_OK;
}

bool acid_schema_is_acid(const CombType *root)
{
    if (!root || root->kind != COMB_T_STRUCT || root->n_children != 6)
        return false;
    for (int i = 0; i < 6; i++)
        if (strcasecmp(root->field_names[i], acid_root_field_names[i]) != 0)
            return false;
    return root->children[5]->kind == COMB_T_STRUCT;
}

/* §1.3: "_col" followed by digits only. */
static bool is_positional_name(const char *name)
{
    const char *p;
    if (strncmp(name, "_col", 4) != 0 || name[4] == '\0')
        return false;
    for (p = name + 4; *p; p++)
        if (*p < '0' || *p > '9')
            return false;
    return true;
}

static bool all_positional(const CombType *row)
{
    if (row->n_children == 0)
        return false;
    for (int i = 0; i < row->n_children; i++)
        if (!is_positional_name(row->field_names[i]))
            return false;
    return true;
}

/* Can a file column of kind `file` be read into a vector of kind `table`?
 * Batches keep all integers in int64, floats in double and strings as
 * (ptr, len), so kinds of one payload class read into each other. */
static bool kinds_compatible(CombTypeKind file, CombTypeKind table)
{
    if (comb_type_is_int(file) && comb_type_is_int(table))
        return true;
    if (comb_type_is_float(file) && comb_type_is_float(table))
        return true;
    if (comb_type_is_str(file) && comb_type_is_str(table))
        return true;
    return file == table;
}

static int field_by_name(const CombType *row, const char *name)
{
    for (int j = 0; j < row->n_children; j++)
        if (strcasecmp(row->field_names[j], name) == 0)
            return j;
    return -1;
}

int acid_map_columns(const CombType *row, const AcidSchema *schema,
                     const char *path, int *col_ids, CombErr *err)
{
    bool by_position;
    if (row->kind != COMB_T_STRUCT)
        return COMB_CORRUPT(err, path, "row type is not a struct");
    by_position = all_positional(row);
    for (int i = 0; i < schema->n_cols; i++) {
        int j = by_position ? (i < row->n_children ? i : -1)
                            : field_by_name(row, schema->names[i]);
        const CombType *field;
        col_ids[i] = -1;
        if (j < 0)
            continue; /* added after the file was written: NULL */
        field = row->children[j];
        if (!kinds_compatible(field->kind, schema->kinds[i]))
            return comb_err(err, COMB_EUNSUPPORTED,
                            "'%s': column '%s' is %s in the file but %s in "
                            "the table", path, schema->names[i],
                            comb_type_name(field->kind),
                            comb_type_name(schema->kinds[i]));
        col_ids[i] = field->id;
    }
    return COMB_OK;
}

/* The ORC type of one user column; char/varchar without a known length
 * are written as string, which every reader coerces (§1.3). */
static CombType *user_column_type(CombArena *a, CombTypeKind kind,
                                 uint32_t length)
{
    CombType *t;
    if ((kind == COMB_T_CHAR || kind == COMB_T_VARCHAR) && length == 0)
        kind = COMB_T_STRING;
    t = comb_type_new(a, kind);
    if (t)
        t->max_length = length;
    return t;
}

int acid_row_type(CombArena *a, const AcidSchema *schema,
                  const uint32_t *lengths, CombType **out, CombErr *err)
{
    CombType *row = comb_type_new(a, COMB_T_STRUCT);
    if (!row)
        return comb_err_nomem(err);
    for (int i = 0; i < schema->n_cols; i++) {
        CombType *col = user_column_type(a, schema->kinds[i],
                                        lengths ? lengths[i] : 0);
        if (!col || comb_type_add_field(a, row, schema->names[i], col))
            return comb_err_nomem(err);
    }
    *out = row;
    return COMB_OK;
}

int acid_file_type(CombArena *a, const AcidSchema *schema,
                   const uint32_t *lengths, CombType **out, CombErr *err)
{
    static const CombTypeKind meta_kinds[5] = {
        COMB_T_INT, COMB_T_BIGINT, COMB_T_INT, COMB_T_BIGINT, COMB_T_BIGINT};
    CombType *root = comb_type_new(a, COMB_T_STRUCT), *row;
    int rc;
    if (!root)
        return comb_err_nomem(err);
    for (int i = 0; i < 5; i++) {
        CombType *t = comb_type_new(a, meta_kinds[i]);
        if (!t || comb_type_add_field(a, root, acid_root_field_names[i], t))
            return comb_err_nomem(err);
    }
    rc = acid_row_type(a, schema, lengths, &row, err);
    if (rc)
        return rc;
    if (comb_type_add_field(a, root, acid_root_field_names[5], row))
        return comb_err_nomem(err);
    comb_type_assign_ids(root);
    *out = root;
    return COMB_OK;
}
