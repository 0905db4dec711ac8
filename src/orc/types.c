/*
 * types.c - the ORC side of type trees (common/types.h): which kinds the
 * writer handles, the batch layout of a schema, and the conversion between
 * a tree and the flat type list of an ORC footer (validating what a file
 * claims: ids in pre-order, child counts, field names, nesting depth,
 * decimal parameters).
 */
#include "orc/orc_int.h"

#include <string.h>

/* Java's TypeDescription defaults, used for decimals of Hive 0.11 files
 * whose footer records no precision and scale. */
#define ORC_DEFAULT_DECIMAL_PRECISION 38
#define ORC_DEFAULT_DECIMAL_SCALE 10

bool orc_kind_writable(CombTypeKind k)
{
    return k != COMB_T_UNION && k != COMB_T_NULL;
}

static bool payload_fits(const CombVector *v, CombTypeKind k)
{
    switch (k) {
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        return v->f64 != NULL;
    case COMB_T_TIMESTAMP:
        return v->i64 && v->nanos;
    case COMB_T_DECIMAL:
        return v->dec != NULL;
    case COMB_T_LIST:
    case COMB_T_MAP:
        return v->off && v->len;
    case COMB_T_UNION:
        return v->tag != NULL;
    case COMB_T_STRUCT:
        return true;
    default:
        return comb_type_is_str(k) ? v->str != NULL : v->i64 != NULL;
    }
}

bool orc_vec_fits(const CombVector *v, const CombType *t)
{
    if (!v->nulls || !payload_fits(v, t->kind) ||
        v->n_children != t->n_children)
        return false;
    for (int i = 0; i < t->n_children; i++)
        if (!orc_vec_fits(&v->children[i], t->children[i]))
            return false;
    return true;
}

int orc_batch_n_cols(const CombType *root)
{
    return root->kind == COMB_T_STRUCT ? root->n_children : 1;
}

const CombType *orc_batch_col_type(const CombType *root, int i)
{
    return root->kind == COMB_T_STRUCT ? root->children[i] : root;
}

size_t orc_decimal_text(comb_i128 u, int scale, char *buf, size_t cap)
{
    while (scale > 0 && u % 10 == 0) {
        u /= 10;
        scale--;
    }
    return comb_dec_format(u, scale, buf, cap);
}

/* ------------------------------------------------------ footer conversion */

typedef struct TypeWalk {
    CombArena *a;
    Orc__Proto__Type **types;
    size_t n;
    uint32_t next;      /* id the next visited node must have */
    const char *path;
    CombErr *err;
} TypeWalk;

static int type_bad(TypeWalk *w, uint32_t id, const char *what)
{
    return comb_err(w->err, COMB_ECORRUPT,
                    "corrupt file '%s': footer type %u: %s", w->path, id,
                    what);
}

static int kind_from_proto(int k, CombTypeKind *out)
{
    if (k < 0 || k > ORC__PROTO__TYPE__KIND__TIMESTAMP_INSTANT)
        return COMB_ECORRUPT;
    /* an instant is read like a timestamp: neither is decoded here */
    *out = k == ORC__PROTO__TYPE__KIND__TIMESTAMP_INSTANT ? COMB_T_TIMESTAMP
                                                          : (CombTypeKind)k;
    return COMB_OK;
}

static int check_arity(TypeWalk *w, uint32_t id, const Orc__Proto__Type *pt,
                       CombTypeKind kind)
{
    size_t n = pt->n_subtypes;
    switch (kind) {
    case COMB_T_STRUCT:
        if (pt->n_fieldnames != n)
            return type_bad(w, id, "struct has fewer field names than fields");
        return COMB_OK;
    case COMB_T_LIST:
        return n == 1 ? COMB_OK : type_bad(w, id, "list needs one child");
    case COMB_T_MAP:
        return n == 2 ? COMB_OK : type_bad(w, id, "map needs two children");
    case COMB_T_UNION:
        return n >= 1 && n <= 256 ? COMB_OK
                                  : type_bad(w, id, "bad union arity");
    default:
        return n == 0 ? COMB_OK
                      : type_bad(w, id, "primitive type has children");
    }
}

static int type_build(TypeWalk *w, uint32_t id, int depth, CombType **out)
{
    CombTypeKind kind;
    if (depth > ORC_MAX_DEPTH)
        return type_bad(w, id, "types nested too deeply");
    if (id >= w->n || id != w->next)
        return type_bad(w, id, "type ids are not a pre-order tree");
    const Orc__Proto__Type *pt = w->types[id];
    if (kind_from_proto((int)pt->kind, &kind))
        return type_bad(w, id, "unknown type kind");
    int rc = check_arity(w, id, pt, kind);
    if (rc)
        return rc;
    uint32_t precision = pt->has_precision ? pt->precision : 0;
    uint32_t scale = pt->has_scale ? pt->scale : 0;
    if (kind == COMB_T_DECIMAL && precision == 0) {
        precision = ORC_DEFAULT_DECIMAL_PRECISION;
        scale = ORC_DEFAULT_DECIMAL_SCALE;
    }
    if (kind == COMB_T_DECIMAL &&
        (precision > COMB_MAX_DECIMAL_PRECISION || scale > precision))
        return type_bad(w, id, "decimal precision or scale out of range");
    CombType *t = comb_type_new(w->a, kind);
    CombType **kids = comb_arena_calloc(w->a, (pt->n_subtypes + 1) *
                                                 sizeof *kids);
    char **names = comb_arena_calloc(w->a, (pt->n_subtypes + 1) *
                                               sizeof *names);
    if (!t || !kids || !names)
        return comb_err_nomem(w->err);
    t->id = (int)id;
    t->max_length = pt->has_maximumlength ? pt->maximumlength : 0;
    t->precision = kind == COMB_T_DECIMAL ? precision : 0;
    t->scale = kind == COMB_T_DECIMAL ? scale : 0;
    t->children = kids;
    t->field_names = names;
    w->next++;
    for (size_t i = 0; i < pt->n_subtypes; i++) {
        if ((rc = type_build(w, pt->subtypes[i], depth + 1, &kids[i])))
            return rc;
        const char *name = kind == COMB_T_STRUCT ? pt->fieldnames[i] : "";
        if (!(names[i] = comb_arena_strdup(w->a, name ? name : "")))
            return comb_err_nomem(w->err);
        t->n_children++;
    }
    t->max_id = (int)w->next - 1;
    *out = t;
    return COMB_OK;
}

int orc_type_from_proto(CombArena *a, Orc__Proto__Type **types, size_t n,
                        CombType **out, const char *path, CombErr *err)
{
    TypeWalk w = {a, types, n, 0, path, err};
    if (n == 0)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': footer has no types", path);
    int rc = type_build(&w, 0, 0, out);
    if (rc)
        return rc;
    if (w.next != n)
        return comb_err(err, COMB_ECORRUPT,
                        "corrupt file '%s': footer lists %zu types but the "
                        "tree uses %u", path, n, w.next);
    return COMB_OK;
}

static int type_flatten(CombArena *a, const CombType *t,
                        Orc__Proto__Type **out, Orc__Proto__Type *slots)
{
    Orc__Proto__Type *pt = &slots[t->id];
    orc__proto__type__init(pt);
    pt->has_kind = 1;
    pt->kind = (Orc__Proto__Type__Kind)t->kind;
    pt->n_subtypes = (size_t)t->n_children;
    pt->subtypes = comb_arena_alloc(a, ((size_t)t->n_children + 1) *
                                           sizeof *pt->subtypes);
    if (!pt->subtypes)
        return COMB_ENOMEM;
    if (t->kind == COMB_T_STRUCT) {
        pt->n_fieldnames = (size_t)t->n_children;
        pt->fieldnames = t->field_names;
    }
    if (t->kind == COMB_T_VARCHAR || t->kind == COMB_T_CHAR) {
        pt->has_maximumlength = 1;
        pt->maximumlength = t->max_length;
    }
    if (t->kind == COMB_T_DECIMAL) {
        pt->has_precision = pt->has_scale = 1;
        pt->precision = t->precision;
        pt->scale = t->scale;
    }
    out[t->id] = pt;
    for (int i = 0; i < t->n_children; i++) {
        pt->subtypes[i] = (uint32_t)t->children[i]->id;
        int rc = type_flatten(a, t->children[i], out, slots);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

int orc_type_to_proto(CombArena *a, const CombType *root,
                      Orc__Proto__Type ***out, size_t *n)
{
    size_t count = (size_t)root->max_id + 1;
    Orc__Proto__Type **list = comb_arena_calloc(a, count * sizeof *list);
    Orc__Proto__Type *slots = comb_arena_calloc(a, count * sizeof *slots);
    if (!list || !slots || type_flatten(a, root, list, slots))
        return COMB_ENOMEM;
    *out = list;
    *n = count;
    return COMB_OK;
}
