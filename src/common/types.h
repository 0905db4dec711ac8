/*
 * types.h - the type of a column: a kind with its parameters and, for
 * array / map / struct / uniontype, the types of its parts.  Every layer
 * describes columns with it: the ORC reader and writer (whose column ids
 * are the pre-order numbering of the tree), the ACID schema, the text
 * format, the metastore's type strings and the SQL binder.
 *
 * Ownership: a tree lives in the arena it was built in; nodes are never
 * freed one by one.  Trees are immutable once built and may be shared.
 */
#ifndef COMB_TYPES_H
#define COMB_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/buf.h"
#include "common/err.h"

/* Same numbering as ORC's Type.Kind so the two convert trivially. */
typedef enum CombTypeKind {
    COMB_T_BOOLEAN = 0,
    COMB_T_TINYINT = 1,
    COMB_T_SMALLINT = 2,
    COMB_T_INT = 3,
    COMB_T_BIGINT = 4,
    COMB_T_FLOAT = 5,
    COMB_T_DOUBLE = 6,
    COMB_T_STRING = 7,
    COMB_T_BINARY = 8,
    COMB_T_TIMESTAMP = 9,
    COMB_T_LIST = 10,
    COMB_T_MAP = 11,
    COMB_T_STRUCT = 12,
    COMB_T_UNION = 13,
    COMB_T_DECIMAL = 14,
    COMB_T_DATE = 15,
    COMB_T_VARCHAR = 16,
    COMB_T_CHAR = 17,
    COMB_T_NULL = 100   /* type of the literal NULL before coercion */
} CombTypeKind;

/* Hive's name of a type kind, lower case ("int", "bigint", "string"...). */
const char *comb_type_name(CombTypeKind kind);

/* Which payload array of a CombVector (batch.h) a kind uses. */
static inline bool comb_type_is_int(CombTypeKind k)
{
    return k == COMB_T_BOOLEAN || k == COMB_T_TINYINT || k == COMB_T_SMALLINT ||
           k == COMB_T_INT || k == COMB_T_BIGINT || k == COMB_T_DATE;
}
static inline bool comb_type_is_float(CombTypeKind k)
{
    return k == COMB_T_FLOAT || k == COMB_T_DOUBLE;
}
static inline bool comb_type_is_str(CombTypeKind k)
{
    return k == COMB_T_STRING || k == COMB_T_VARCHAR || k == COMB_T_CHAR ||
           k == COMB_T_BINARY;
}

/* Hive's limits on type parameters. */
#define COMB_MAX_VARCHAR 65535
#define COMB_MAX_CHAR 255
#define COMB_MAX_DECIMAL_PRECISION 38
#define COMB_DEFAULT_DECIMAL_PRECISION 10   /* DECIMAL alone = decimal(10,0) */
#define COMB_MAX_TYPE_DEPTH 100             /* nesting of array/map/struct */

typedef struct CombType {
    CombTypeKind kind;
    int id;                     /* pre-order column id (comb_type_assign_ids) */
    int max_id;                 /* largest column id in this subtree */
    int n_children;             /* list 1, map 2 (key, value), struct and
                                   union one per member */
    struct CombType **children;
    char **field_names;         /* struct: one per child; others: "" */
    uint32_t max_length;        /* varchar(n) / char(n) */
    uint32_t precision, scale;  /* decimal(p,s) */
} CombType;

/* A node of kind `kind` in arena a (no children), NULL out of memory. */
CombType *comb_type_new(CombArena *a, CombTypeKind kind);
/* A decimal(p,s), char(n) or varchar(n) node. */
CombType *comb_type_decimal(CombArena *a, uint32_t precision, uint32_t scale);
CombType *comb_type_sized(CombArena *a, CombTypeKind kind, uint32_t length);
/* Append a child (a named field for structs; name may be NULL for the
 * others).  0 or COMB_ENOMEM. */
int comb_type_add_field(CombArena *a, CombType *t, const char *name,
                        CombType *child);
/* True when a struct field name survives Hive's type strings (Hive's
 * TypeInfoParser reads a name as a run of letters, digits, '_', '.', '$'
 * and spaces): those characters only (any byte of a non-ASCII UTF-8
 * character counts as a letter), not empty, no space first or last. */
bool comb_type_field_name_ok(const char *name);
/* Deep copy into arena a (NULL out of memory). */
CombType *comb_type_copy(CombArena *a, const CombType *t);
/* Same kind, parameters and parts (field names compared too). */
bool comb_type_equal(const CombType *a, const CombType *b);

/* Number the tree in pre-order from root (id 0); returns the number of
 * columns. */
int comb_type_assign_ids(CombType *root);
/* The node with column id `id` below root, or NULL. */
const CombType *comb_type_find(const CombType *root, int id);
/* The child of t whose subtree holds column id `id`, or NULL. */
const CombType *comb_type_child_toward(const CombType *t, int id);
/* Column kinds indexed by column id (kinds holds root->max_id + 1). */
void comb_type_kinds(const CombType *root, CombTypeKind *kinds);

/* Hive's (and ORC's) string form: "int", "decimal(10,2)", "varchar(20)",
 * "array<int>", "map<string,bigint>", "struct<a:int,b:string>",
 * "uniontype<int,string>". */
int comb_type_format(const CombType *t, CombBuf *out);
/* The same into arena memory (NULL out of memory). */
char *comb_type_string(CombArena *a, const CombType *t);

/*
 * Parse a type string as the metastore keeps it (case-insensitive, spaces
 * allowed): the primitive names (boolean tinyint smallint int integer
 * bigint float double "double precision" string binary date timestamp,
 * decimal[(p[,s])], char(n), varchar(n)) and array<T>, map<K,V>,
 * struct<name:T,...>, uniontype<T,...>.  Parameters are checked as Hive
 * checks them (varchar 1..65535, char 1..255, decimal precision 1..38 and
 * scale 0..precision); DECIMAL alone is decimal(10,0).  A bad string is
 * COMB_EINVALID with a message naming the position.
 */
int comb_type_parse(CombArena *a, const char *s, size_t len, CombType **out,
                    CombErr *err);

/* True for the kinds that hold no other values (not list/map/struct/union). */
static inline bool comb_type_is_primitive(CombTypeKind k)
{
    return k != COMB_T_LIST && k != COMB_T_MAP && k != COMB_T_STRUCT &&
           k != COMB_T_UNION;
}

#endif
