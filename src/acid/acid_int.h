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

/* Deep copy of a schema into arena a (callers may free theirs). */
int acid_schema_copy(CombArena *a, const AcidSchema *src, AcidSchema *dst,
                     CombErr *err);

/* true if the root type has the six ACID fields (§1.1; names compared
 * case-insensitively per position, as newer ORC does) and `row` is a
 * struct. */
bool acid_schema_is_acid(const CombType *root);

/* For each user column of `schema`, the ORC column id in `row` (the
 * file's row struct: children[5] of an ACID root, the root of an original
 * file) holding it, or -1 when the file lacks it.  Fields are matched by
 * name case-insensitively; when every field is named _colN they are
 * matched by position (§1.3).  A field whose type cannot be read into the
 * column's kind gives COMB_EUNSUPPORTED. */
int acid_map_columns(const CombType *row, const AcidSchema *schema,
                     const char *path, int *col_ids, CombErr *err);

/* The row struct of `schema` (§1.3: real lower-case names in table
 * order).  lengths: per column, char/varchar length, NULL/0 = unknown
 * (then written as string). */
int acid_row_type(CombArena *a, const AcidSchema *schema,
                  const uint32_t *lengths, CombType **out, CombErr *err);

/* The ORC type of an ACID file for `schema` (§1.1), ids assigned. */
int acid_file_type(CombArena *a, const AcidSchema *schema,
                   const uint32_t *lengths, CombType **out, CombErr *err);

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
