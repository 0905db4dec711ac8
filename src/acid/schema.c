/*
 * schema.c - the ORC schema of ACID files (§1.1, §1.3 of
 * hive-acid-storage.md): recognising an ACID file and building the type a
 * writer uses.  Mapping a file's fields to the table's columns is
 * evolve.c.
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
    const CombType **types = comb_arena_alloc(a, (size_t)(n ? n : 1) *
                                                 sizeof *types);
    if (!names || !types)
        return comb_err_nomem(err);
    for (int i = 0; i < n; i++) {
        if (!(names[i] = comb_arena_strdup(a, src->names[i])) ||
            !(types[i] = comb_type_copy(a, src->types[i])))
            return comb_err_nomem(err);
    }
    dst->n_cols = n;
    dst->names = names;
    dst->types = types;
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

int acid_row_type(CombArena *a, const AcidSchema *schema, CombType **out,
                  CombErr *err)
{
    CombType *row = comb_type_new(a, COMB_T_STRUCT);
    if (!row)
        return comb_err_nomem(err);
    for (int i = 0; i < schema->n_cols; i++) {
        CombType *col = comb_type_copy(a, schema->types[i]);
        if (!col || comb_type_add_field(a, row, schema->names[i], col))
            return comb_err_nomem(err);
    }
    *out = row;
    return COMB_OK;
}

int acid_file_type(CombArena *a, const AcidSchema *schema, CombType **out,
                   CombErr *err)
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
    rc = acid_row_type(a, schema, &row, err);
    if (rc)
        return rc;
    if (comb_type_add_field(a, root, acid_root_field_names[5], row))
        return comb_err_nomem(err);
    comb_type_assign_ids(root);
    *out = root;
    return COMB_OK;
}
