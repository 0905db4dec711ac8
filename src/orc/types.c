/*
 * types.c - the OrcType tree: building it, numbering its columns in
 * pre-order, printing it the way Hive does, and converting between the
 * tree and the flat type list of an ORC footer (validating what a file
 * claims: ids in pre-order, child counts, field names, nesting depth).
 */
#include "orc/orc_int.h"

#include <string.h>

OrcType *orc_type_new(CombArena *a, CombTypeKind kind)
{
    OrcType *t = comb_arena_calloc(a, sizeof *t);
    if (t)
        t->kind = kind;
    return t;
}

/* Arrays in an arena cannot grow in place: copy into one slot larger. */
static int type_append_child(CombArena *a, OrcType *t, OrcType *child,
                             char *name)
{
    size_t n = (size_t)t->n_children;
    OrcType **kids = comb_arena_alloc(a, (n + 1) * sizeof *kids);
    char **names = comb_arena_alloc(a, (n + 1) * sizeof *names);
    if (!kids || !names)
        return COMB_ENOMEM;
    if (n) {
        memcpy(kids, t->children, n * sizeof *kids);
        memcpy(names, t->field_names, n * sizeof *names);
    }
    kids[n] = child;
    names[n] = name;
    t->children = kids;
    t->field_names = names;
    t->n_children++;
    return COMB_OK;
}

int orc_type_add_field(CombArena *a, OrcType *st, const char *name,
                       OrcType *child)
{
    char *copy = comb_arena_strdup(a, name ? name : "");
    if (!copy)
        return COMB_ENOMEM;
    return type_append_child(a, st, child, copy);
}

static int assign_from(OrcType *t, int next)
{
    t->id = next++;
    for (int i = 0; i < t->n_children; i++)
        next = assign_from(t->children[i], next);
    t->max_id = next - 1;
    return next;
}

int orc_type_assign_ids(OrcType *root)
{
    return assign_from(root, 0);
}

static int type_print(const OrcType *t, CombBuf *out)
{
    int rc = COMB_OK;
    switch (t->kind) {
    case COMB_T_VARCHAR:
    case COMB_T_CHAR:
        return comb_buf_printf(out, "%s(%u)", comb_type_name(t->kind),
                               t->max_length);
    case COMB_T_DECIMAL:
        return comb_buf_printf(out, "decimal(%u,%u)", t->precision, t->scale);
    case COMB_T_STRUCT:
    case COMB_T_LIST:
    case COMB_T_MAP:
    case COMB_T_UNION:
        break;
    default:
        return comb_buf_append_str(out, comb_type_name(t->kind));
    }
    rc = comb_buf_printf(out, "%s<", comb_type_name(t->kind));
    for (int i = 0; i < t->n_children && !rc; i++) {
        if (i)
            rc = comb_buf_append_byte(out, ',');
        if (!rc && t->kind == COMB_T_STRUCT)
            rc = comb_buf_printf(out, "%s:", t->field_names[i]);
        if (!rc)
            rc = type_print(t->children[i], out);
    }
    return rc ? rc : comb_buf_append_byte(out, '>');
}

int orc_type_to_string(const OrcType *t, CombBuf *out)
{
    return type_print(t, out);
}

const OrcType *orc_type_find(const OrcType *root, int id)
{
    const OrcType *t = root;
    while (t && t->id != id) {
        if (id < t->id || id > t->max_id)
            return NULL;
        t = orc_type_child_toward(t, id);
    }
    return t;
}

const OrcType *orc_type_child_toward(const OrcType *t, int id)
{
    /* pre-order ids: a subtree holds the contiguous range id..max_id */
    for (int i = 0; i < t->n_children; i++)
        if (id >= t->children[i]->id && id <= t->children[i]->max_id)
            return t->children[i];
    return NULL;
}

void orc_type_kinds(const OrcType *root, CombTypeKind *kinds)
{
    kinds[root->id] = root->kind;
    for (int i = 0; i < root->n_children; i++)
        orc_type_kinds(root->children[i], kinds);
}

OrcType *orc_type_copy(CombArena *a, const OrcType *t)
{
    OrcType *c = orc_type_new(a, t->kind);
    if (!c)
        return NULL;
    c->id = t->id;
    c->max_id = t->max_id;
    c->max_length = t->max_length;
    c->precision = t->precision;
    c->scale = t->scale;
    for (int i = 0; i < t->n_children; i++) {
        OrcType *kid = orc_type_copy(a, t->children[i]);
        const char *name = t->field_names ? t->field_names[i] : NULL;
        if (!kid || orc_type_add_field(a, c, name, kid))
            return NULL;
    }
    return c;
}

bool orc_kind_readable(CombTypeKind k)
{
    return comb_type_is_int(k) || comb_type_is_float(k) ||
           comb_type_is_str(k) || k == COMB_T_STRUCT;
}

bool orc_kind_writable(CombTypeKind k)
{
    return orc_kind_readable(k);
}

bool orc_vec_fits(const CombVector *v, CombTypeKind k)
{
    if (comb_type_is_int(k))
        return v->i64 != NULL;
    if (comb_type_is_float(k))
        return v->f64 != NULL;
    if (comb_type_is_str(k))
        return v->str != NULL;
    return true;
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

static int type_build(TypeWalk *w, uint32_t id, int depth, OrcType **out)
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
    OrcType *t = orc_type_new(w->a, kind);
    OrcType **kids = comb_arena_calloc(w->a, (pt->n_subtypes + 1) *
                                                 sizeof *kids);
    char **names = comb_arena_calloc(w->a, (pt->n_subtypes + 1) *
                                               sizeof *names);
    if (!t || !kids || !names)
        return comb_err_nomem(w->err);
    t->id = (int)id;
    t->max_length = pt->has_maximumlength ? pt->maximumlength : 0;
    t->precision = pt->has_precision ? pt->precision : 0;
    t->scale = pt->has_scale ? pt->scale : 0;
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
                        OrcType **out, const char *path, CombErr *err)
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

static int type_flatten(CombArena *a, const OrcType *t,
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

int orc_type_to_proto(CombArena *a, const OrcType *root,
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
