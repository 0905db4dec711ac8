/*
 * acid_test_util.h - helpers shared by the acid/ unit tests: a small JSON
 * reader for the fixtures' expected.json, rows rendered as canonical JSON
 * text (so a read row and an expected row compare as strings), a whole-
 * table read, and write-id lists built from parts.
 */
#ifndef COMB_ACID_TEST_UTIL_H
#define COMB_ACID_TEST_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "acid/acid.h"
#include "common/arena.h"
#include "common/batch.h"

typedef enum JsonKind {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} JsonKind;

typedef struct JsonNode {
    JsonKind kind;
    bool is_int;              /* number written without fraction/exponent */
    int64_t i;
    double d;
    char *s;                  /* string (NUL-terminated, escapes decoded) */
    size_t s_len;
    int n;                    /* array items / object members */
    struct JsonNode **items;
    char **keys;              /* object only */
} JsonNode;

/* Parse a file into arena memory; NULL on a syntax or I/O error. */
JsonNode *json_parse_file(const char *path, CombArena *a);
/* Member of an object, or NULL. */
const JsonNode *json_get(const JsonNode *obj, const char *key);
/* Canonical text of a value: numbers as integers when integral, strings
 * quoted with \" \\ and \uXXXX for control bytes, arrays "[a,b]". */
char *json_text(const JsonNode *v, CombArena *a);

/* Primitive column types for the tests' schemas. */
extern const CombType acid_t_int, acid_t_bigint, acid_t_string,
    acid_t_double, acid_t_timestamp;
/* A type from its Hive text ("array<decimal(10,2)>"), in an arena that
 * lives as long as the test program; NULL when it does not parse. */
const CombType *acid_test_type(const char *text);

/* Canonical text of live row `row` of b, columns [first, first+n):
 * decimals at their scale, dates and timestamps quoted as Hive prints
 * them, arrays "[..]", maps "{k:v,..}", structs "{name:v,..}". */
char *batch_row_text(const CombBatch *b, int row, int first, int n,
                     CombArena *a);

/* Every live row of a scan: rows[i] = user columns as "[...]",
 * ids[i] = "[writeId,bucket,rowId]" (when want_row_id). */
typedef struct ScanRows {
    int n;
    char **rows;
    char **ids;
    int cap;
} ScanRows;

int scan_table(const char *dir, const AcidSchema *schema,
               const CombWriteIdList *wil, bool want_row_id, CombArena *a,
               ScanRows *out, CombErr *err);

void scan_rows_free(ScanRows *s);

/* A scan as sorted lines "rows ids" ("-" for ids without ROW__IDs), one
 * string (sorted_lines_text); NULL with *err when the scan fails. */
char *scan_sorted_lines(const char *dir, const AcidSchema *schema,
                        const CombWriteIdList *wil, bool want_row_id,
                        CombArena *a, CombErr *err);

/* scan_table, and acid_dir_state_get, under the list most tests read
 * with: write ids up to hwm committed, none open or aborted. */
int scan_at(const char *dir, const AcidSchema *schema, int64_t hwm,
            bool want_row_id, CombArena *a, ScanRows *out, CombErr *err);
int dir_state_at(const char *dir, int64_t hwm, CombArena *a,
                 AcidDirState *st, CombErr *err);

/* End a test's write: commit its files (stats may be NULL) when all went
 * well so far (rc 0), else abort it and return rc. */
int writer_finish(AcidWriter *w, int rc, AcidWriteStats *stats,
                  CombErr *err);

/* Commit write id wid, statement stmt, of n rows whose first column holds
 * vals[i]; the batch's column types may differ from the schema's (an
 * untyped NULL column: acid_t_null). */
int write_rows(const char *dir, const AcidSchema *schema,
               const CombType *const *types, int64_t wid, int stmt,
               int compression, const int64_t *vals, int n, CombErr *err);
extern const CombType acid_t_null;

/* A write-id list with hwm, open and aborted ids (table NULL). */
void wil_make(CombWriteIdList *l, int64_t hwm, const int64_t *open,
              int n_open, const int64_t *aborted, int n_aborted);
void wil_free(CombWriteIdList *l);

/* Copy a file (used to place fixture files into a tmp table layout). */
int copy_file(const char *from, const char *to, CombErr *err);
/* Create an empty file. */
int touch_file(const char *path, CombErr *err);
/* lines[0..n) sorted (in place) and joined, each ended by "\n", in
 * arena memory: two scans compare as one string whatever their order. */
char *sorted_lines_text(char **lines, int n, CombArena *a);
/* Position of `name` in v[0..n), or -1. */
int find_name(char *const *v, int n, const char *name);

#endif
