/*
 * acid_int.h - private to src/acid/: names shared by bucket.c, dir.c,
 * delete_events.c, reader.c and writer.c.  Callers outside acid/ use acid.h.
 *
 * Rule numbers ("§6.1") refer to ../shared/docs/hive-acid-storage.md.
 */
#ifndef COMB_ACID_INT_H
#define COMB_ACID_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acid/acid.h"
#include "orc/orc.h"

/* Largest bucket (writer) id and statement id the V1 codec holds (§2). */
#define ACID_MAX_BUCKET 4095
#define ACID_MAX_STMT 4095

/* ORC column ids of an ACID file (§1.1): 0 is the root struct. */
enum {
    ACID_ORC_OPERATION = 1,
    ACID_ORC_OWID = 2,
    ACID_ORC_BUCKET = 3,
    ACID_ORC_ROWID = 4,
    ACID_ORC_CURRENT = 5,
    ACID_ORC_ROW = 6,
    ACID_ORC_FIRST_USER = 7
};

/* The same columns as fields of the root, i.e. columns of an ORC batch
 * (orc.h): field f is column id f + 1. */
enum {
    ACID_FIELD_OPERATION = 0,
    ACID_FIELD_OWID = 1,
    ACID_FIELD_BUCKET = 2,
    ACID_FIELD_ROWID = 3,
    ACID_FIELD_CURRENT = 4,
    ACID_FIELD_ROW = 5,
    ACID_N_FIELDS = 6
};

/* Event operation codes (§1.2). */
enum { ACID_OP_INSERT = 0, ACID_OP_UPDATE = 1, ACID_OP_DELETE = 2 };

/* Root field names of an ACID file, in order (§1.1). */
extern const char *const acid_root_field_names[6];

/* ------------------------------------------------------------------ names */

/* Original (pre-ACID) file name: NNN_N or NNN_N_copy_K (§3); *bucket gets
 * the number before the first '_'. */
bool acid_original_file_parse(const char *name, int *bucket);

/* A data file as Hive names them: a bucket file or an original file;
 * *bucket gets its bucket id. */
bool acid_data_file_parse(const char *name, int *bucket);

/* Hidden names (leading '_' or '.') are never data (§3). */
static inline bool acid_name_is_hidden(const char *name)
{
    return name[0] == '_' || name[0] == '.';
}

/* ---------------------------------------------------------- arena arrays */

/* Room for one more entry in v, an arena array of n entries of elem bytes
 * with room for *cap: v itself while there is room, else a copy twice as
 * large (16 entries at first) from arena a, the old block staying until
 * the arena goes.  NULL when out of memory, *cap then unchanged. */
void *acid_arena_grow(CombArena *a, void *v, int n, int *cap, size_t elem);

/* ------------------------------------------------------------ ORC schema */

/* Deep copy of a schema, names and type trees, into arena a (callers may
 * free theirs). */
int acid_schema_copy(CombArena *a, const AcidSchema *src, AcidSchema *dst,
                     CombErr *err);

/* How a table column (or a part of one) is read from a file's column: the
 * conversions of Hive's ORC schema evolution (ConvertTreeReaderFactory)
 * for the type changes ALTER TABLE CHANGE COLUMN allows. */
typedef enum AcidConvKind {
    ACID_CONV_NONE,       /* the file lacks it: NULL */
    ACID_CONV_COPY,       /* same payload and meaning: copied */
    ACID_CONV_INT,        /* integer to integer: NULL when out of range */
    ACID_CONV_INT_FLOAT,  /* integer to float or double */
    ACID_CONV_INT_DEC,    /* integer to decimal: NULL beyond its precision */
    ACID_CONV_INT_STR,    /* integer to string, varchar, char */
    ACID_CONV_DEC,        /* decimal to decimal: HALF_UP, NULL on overflow */
    ACID_CONV_STR,        /* string, varchar, char among each other:
                             varchar cut, char cut and padded to length */
    ACID_CONV_DATE_TS,    /* date to timestamp: midnight */
    ACID_CONV_DEC_FLOAT,  /* decimal to float or double: nearest */
    ACID_CONV_FLOAT_STR,  /* float, double to text: Java's toString, NaN
                             NULL (ORC's StringGroupFromDoubleTreeReader) */
    ACID_CONV_DEC_STR,    /* decimal to text without trailing zeros */
    ACID_CONV_DATE_STR,   /* date to text: yyyy-MM-dd */
    ACID_CONV_TS_STR,     /* timestamp to text: yyyy-MM-dd HH:mm:ss[.f] */
    ACID_CONV_STRUCT,     /* fields by name; new ones read as NULL */
    ACID_CONV_LIST,       /* elements converted */
    ACID_CONV_MAP         /* keys and values converted */
} AcidConvKind;

typedef struct AcidConv {
    AcidConvKind kind;
    int field;                  /* index in the file's struct of this
                                   column or field; -1 when missing */
    const CombType *from;       /* the file's type (NULL when missing) */
    const CombType *to;         /* the table's type */
    int n_children;             /* struct: per table field; list 1; map 2 */
    struct AcidConv *children;
} AcidConv;

/* For each user column of `schema`, how to read it from `row` (the
 * file's row struct: children[5] of an ACID root, the root of an original
 * file): convs[i].field is the index of the field holding it, -1 when the
 * file lacks it.  Fields are matched by name case-insensitively; when
 * every field is named _colN they are matched by position (§1.3); fields
 * of nested structs always by name.  A type that cannot be read as the
 * column's gives COMB_EUNSUPPORTED naming both.  Plans live in arena a. */
int acid_map_columns(CombArena *a, const CombType *row,
                     const AcidSchema *schema, const char *path,
                     AcidConv *convs, CombErr *err);

/* Fill rows [0, n) of dst (the table type's vector) from src (the file's,
 * or NULL for a missing column) as conv says.  New string bytes go to
 * arena `strings` (the batch's). */
int acid_conv_apply(const AcidConv *conv, const CombVector *src,
                    CombVector *dst, int n, CombArena *strings,
                    CombErr *err);

/* The row struct of `schema` (§1.3: real lower-case names in table
 * order, the columns' types). */
int acid_row_type(CombArena *a, const AcidSchema *schema, CombType **out,
                  CombErr *err);

/* The ORC type of an ACID file for `schema` (§1.1), ids assigned. */
int acid_file_type(CombArena *a, const AcidSchema *schema, CombType **out,
                   CombErr *err);

/* Whether the statistics of integer column `column` of the open file
 * give one value (*v) for every row: no NULL, a value per row, minimum =
 * maximum. */
bool acid_file_column_constant(const OrcReader *r, int column, int64_t *v);

/* ----------------------------------------------------------- delete keys */

/* A row identity / delete key (§6.1) plus the writer id decoded from
 * `bucket`, which only the writer uses to pick the delete file.  24 bytes. */
typedef struct AcidKey {
    int64_t owid;     /* originalTransaction */
    int64_t row_id;
    int32_t bucket;   /* encoded bucket property, compared signed */
    int32_t writer;   /* writer id of `bucket` */
} AcidKey;

/* (owid, bucket signed, rowId) lexicographic: -1, 0, 1. */
static inline int acid_key_cmp(const AcidKey *a, const AcidKey *b)
{
    if (a->owid != b->owid)
        return a->owid < b->owid ? -1 : 1;
    if (a->bucket != b->bucket)
        return a->bucket < b->bucket ? -1 : 1;
    if (a->row_id != b->row_id)
        return a->row_id < b->row_id ? -1 : 1;
    return 0;
}

/* A growable array of delete keys (heap memory, owned). */
typedef struct AcidDeleteSet {
    AcidKey *keys;
    size_t n;
    size_t cap;
} AcidDeleteSet;

/* Where a sequence of probes with ascending keys stands in the set. */
typedef struct AcidDeleteCursor {
    size_t pos;       /* first key not below the last probe */
    AcidKey last;     /* the last probe */
    bool started;
} AcidDeleteCursor;

void acid_delete_set_init(AcidDeleteSet *s);
void acid_delete_set_free(AcidDeleteSet *s);
/* Forget the keys, keep the memory. */
static inline void acid_delete_set_clear(AcidDeleteSet *s) { s->n = 0; }
int acid_delete_set_add(AcidDeleteSet *s, const AcidKey *k, CombErr *err);
/* Sort by key (§6.1) and drop duplicates. */
void acid_delete_set_sort(AcidDeleteSet *s);
/* Sort by (writer, key) and drop duplicates: the writer's file order. */
void acid_delete_set_sort_by_writer(AcidDeleteSet *s);

/* Membership of k in a sorted set.  Probes with ascending keys walk the
 * cursor forward (data files are sorted by key, §6.1); a key below the
 * previous probe falls back to binary search, so any order is correct. */
bool acid_delete_set_contains(const AcidDeleteSet *s, AcidDeleteCursor *c,
                              const AcidKey *k);

/* The same for a run of n data keys sharing owid and bucket with strictly
 * ascending row ids (a piece of a sorted file, §6.1): deleted[i] = 1 for
 * every row i the set names (others untouched).  One merge of the run
 * with the set's keys instead of a probe per row; the cursor ends at the
 * run's last key, so runs in key order walk it forward. */
void acid_delete_set_mark_run(const AcidDeleteSet *s, AcidDeleteCursor *c,
                              int64_t owid, int32_t bucket,
                              const int64_t *row_ids, int n,
                              uint8_t *deleted);

/* The keys (owid, bucket, r) of the set with r in [row_lo, row_hi]:
 * their number, *first the index of the first (keys[*first ...] in
 * order, distinct after acid_delete_set_sort).  The cursor ends at the
 * range's last key, as after acid_delete_set_mark_run. */
size_t acid_delete_set_span(const AcidDeleteSet *s, AcidDeleteCursor *c,
                            int64_t owid, int32_t bucket, int64_t row_lo,
                            int64_t row_hi, size_t *first);

/* Whether a key of the (sorted) set lies in [lo, hi]. */
bool acid_delete_set_overlaps(const AcidDeleteSet *s, const AcidKey *lo,
                              const AcidKey *hi);

/* Whether the (sorted, duplicate-free) set names every key (owid, bucket,
 * r) for r in [row_lo, row_hi]: as many of its keys lie in that range as
 * the range has row ids. */
bool acid_delete_set_covers(const AcidDeleteSet *s, int64_t owid,
                            int32_t bucket, int64_t row_lo, int64_t row_hi);

static inline void acid_delete_cursor_reset(AcidDeleteCursor *c)
{
    c->pos = 0;
    c->started = false;
}

/* Append the delete events of the delete file `path` whose
 * currentTransaction is valid under `wil` (§6.3) to s (unsorted).  Every
 * event must decode to writer id `writer` (§2: the file is bucket_N). */
int acid_delete_set_load(AcidDeleteSet *s, const char *path,
                         const CombWriteIdList *wil, int writer,
                         CombErr *err);

#endif
