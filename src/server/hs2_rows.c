/*
 * hs2_rows.c - a statement's result kept for FetchResults, and its
 * conversion into HiveServer2's row sets and column descriptions, typed
 * as Hive types them: booleans, the integer sizes and doubles as
 * themselves, FLOAT as a double, BINARY as bytes, and DECIMAL, DATE,
 * TIMESTAMP, strings and complex values as the strings Hive sends (complex
 * ones as JSON).  A result beyond its budget (comb.server.result.memory)
 * is kept in a temporary file a chunk at a time, and fetched from it a
 * chunk at a time, so that a big SELECT does not cost the server its size.
 */
#include "server/hs2_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/alloc.h"
#include "sql/func/value.h"

/* What a column is kept as. */
enum { KEEP_INT, KEEP_DOUBLE, KEEP_TEXT };

/* What malloc and comb_malloc add to each string they hand out, about:
 * the budget counts it, since a million short strings cost more in it
 * than in their bytes. */
enum { STRING_OVERHEAD = 32 };

static int keep_of(CombTypeKind k)
{
    switch (k) {
    case COMB_T_BOOLEAN: case COMB_T_TINYINT: case COMB_T_SMALLINT:
    case COMB_T_INT: case COMB_T_BIGINT:
        return KEEP_INT;
    case COMB_T_FLOAT: case COMB_T_DOUBLE:
        return KEEP_DOUBLE;
    default:
        return KEEP_TEXT;
    }
}

/* The spill file: chunks of rows, each the rows in memory when they took
 * more than the budget (the last one the rest, at the end), written in
 * the order they came and read back in it.  A chunk: its row count
 * (int64), then per column its NULL bytes, then its values: int64s or
 * doubles for every row, or for each row not NULL a uint32 length and
 * the bytes.  Host byte order: the file lives as long as the process. */
struct Hs2Spill {
    FILE *f;
    bool broken;          /* a read failed: so does every fetch after */
    CombErr why;          /* ... with this */
};

int hs2_result_begin(Hs2Result *r, int n_cols, const char *const *names,
                     const CombTypeKind *kinds, CombErr *err)
{
    hs2_result_free(r);
    if (!(r->cols = comb_calloc((size_t)(n_cols ? n_cols : 1), sizeof *r->cols)))
        return comb_err_nomem(err);
    r->n_cols = n_cols;
    for (int c = 0; c < n_cols; c++) {
        r->cols[c].kind = kinds[c];
        if (!(r->cols[c].name = comb_strdup(names[c])))
            return comb_err_nomem(err);
        r->row_bytes += 1 + (keep_of(kinds[c]) == KEEP_TEXT
                                 ? (int64_t)(sizeof(char *) + sizeof(uint32_t))
                                 : 8);
    }
    return COMB_OK;
}

int hs2_result_budget(Hs2Result *r, int64_t budget, const char *dir,
                      CombErr *err)
{
    r->budget = budget;
    if (budget > 0 && !(r->spill_dir = comb_strdup(dir)))
        return comb_err_nomem(err);
    return COMB_OK;
}

/* Room for `more` rows in every column. */
static int grow(Hs2Result *r, int64_t more)
{
    int64_t cap = r->cap ? r->cap : 1024;
    while (cap < r->n_rows + more)
        cap *= 2;
    if (cap == r->cap)
        return COMB_OK;
    for (int c = 0; c < r->n_cols; c++) {
        Hs2Col *col = &r->cols[c];
        int keep = keep_of(col->kind);
        uint8_t *null = comb_realloc(col->null, (size_t)cap);
        if (!null)
            return COMB_ENOMEM;
        col->null = null;
        if (keep == KEEP_INT) {
            int64_t *v = comb_realloc(col->i, (size_t)cap * sizeof *v);
            if (!v)
                return COMB_ENOMEM;
            col->i = v;
        } else if (keep == KEEP_DOUBLE) {
            double *v = comb_realloc(col->d, (size_t)cap * sizeof *v);
            if (!v)
                return COMB_ENOMEM;
            col->d = v;
        } else {
            char **v = comb_realloc(col->s, (size_t)cap * sizeof *v);
            uint32_t *len = v ? comb_realloc(col->slen, (size_t)cap * sizeof *len) : NULL;
            if (v)
                col->s = v;
            if (!len)
                return COMB_ENOMEM;
            col->slen = len;
        }
    }
    r->cap = cap;
    return COMB_OK;
}

/* n rows more in memory, their strings none yet (so that a failure
 * while they are filled frees what was kept of them). */
static int add_rows(Hs2Result *r, int64_t n)
{
    if (grow(r, n))
        return COMB_ENOMEM;
    for (int c = 0; c < r->n_cols; c++) {
        Hs2Col *col = &r->cols[c];
        if (keep_of(col->kind) == KEEP_TEXT && n > 0) {
            memset(col->s + r->n_rows, 0, (size_t)n * sizeof *col->s);
            memset(col->slen + r->n_rows, 0, (size_t)n * sizeof *col->slen);
        }
    }
    r->n_rows += n;
    r->held += n * r->row_bytes;
    return COMB_OK;
}

/* The len bytes of p as the text of row at of col. */
static int keep_text(Hs2Result *r, Hs2Col *col, int64_t at, const char *p,
                     size_t len)
{
    if (!(col->s[at] = comb_malloc(len + 1)))
        return COMB_ENOMEM;
    if (len)
        memcpy(col->s[at], p, len);
    col->s[at][len] = '\0';
    col->slen[at] = (uint32_t)len;
    r->held += (int64_t)len + 1 + STRING_OVERHEAD;
    return COMB_OK;
}

/* Row `row` of v kept in col at index at. */
static int keep_value(Hs2Result *r, Hs2Col *col, const CombVector *v, int row,
                      int64_t at)
{
    col->null[at] = v->has_nulls && v->nulls[row];
    switch (keep_of(col->kind)) {
    case KEEP_INT:
        col->i[at] = col->null[at] ? 0 : v->i64[row];
        return COMB_OK;
    case KEEP_DOUBLE:
        col->d[at] = col->null[at] ? 0 : v->f64[row];
        return COMB_OK;
    }
    if (col->null[at])
        return COMB_OK;
    if (comb_type_is_str(v->kind))
        return keep_text(r, col, at, v->str[row].ptr, v->str[row].len);
    comb_buf_clear(&r->text);
    if (sql_format_value(v, row, &r->text))
        return COMB_ENOMEM;
    return keep_text(r, col, at, (const char *)r->text.data, r->text.len);
}

/* ------------------------------------------------------ the spill file */

/* A failed use of the spill file (what: create, write, read, ...) as the
 * statement's or the fetch's error: a full disk says what to do. */
static int spill_error(const Hs2Result *r, const char *what, CombErr *err)
{
    int e = errno;
    if (e == ENOSPC || e == EDQUOT)
        return comb_err(err, COMB_EFULL,
                        "No space left on device for the result's spill file "
                        "in %s (%s): free space there, point "
                        "comb.exec.spill.dir elsewhere or raise "
                        "comb.server.result.memory", r->spill_dir, what);
    return comb_err(err, COMB_EIO, "the result's spill file in %s (%s): %s",
                    r->spill_dir, what,
                    e ? strerror(e) : "it ended before its rows");
}

/* The spill file made in r->spill_dir, unlinked at once: neither an
 * error nor a crash leaves it behind. */
static int spill_open(Hs2Result *r, CombErr *err)
{
    char path[4096];
    int fd;
    FILE *f;
    errno = ENAMETOOLONG;
    if (snprintf(path, sizeof path, "%s/comb-result-XXXXXX", r->spill_dir) >=
            (int)sizeof path ||
        (fd = mkstemp(path)) < 0)
        return spill_error(r, "create", err);
    unlink(path);
    if (!(f = fdopen(fd, "w+b"))) {
        int rc = spill_error(r, "open", err);
        close(fd);
        return rc;
    }
    if (!(r->spill = comb_calloc(1, sizeof *r->spill))) {
        fclose(f);
        return comb_err_nomem(err);
    }
    r->spill->f = f;
    return COMB_OK;
}

static bool put(FILE *f, const void *p, size_t n)
{
    return n == 0 || fwrite(p, 1, n, f) == n;
}

static bool get(FILE *f, void *p, size_t n)
{
    errno = 0;
    return n == 0 || fread(p, 1, n, f) == n;
}

static bool write_column(FILE *f, const Hs2Col *col, int64_t n)
{
    if (!put(f, col->null, (size_t)n))
        return false;
    switch (keep_of(col->kind)) {
    case KEEP_INT:
        return put(f, col->i, (size_t)n * sizeof *col->i);
    case KEEP_DOUBLE:
        return put(f, col->d, (size_t)n * sizeof *col->d);
    }
    for (int64_t i = 0; i < n; i++)
        if (!col->null[i] && !(put(f, &col->slen[i], sizeof col->slen[i]) &&
                               put(f, col->s[i], col->slen[i])))
            return false;
    return true;
}

/* The rows in memory gone (their strings freed); the next ones in memory
 * come after them in the result. */
static void drop_rows(Hs2Result *r)
{
    for (int c = 0; c < r->n_cols; c++)
        for (int64_t i = 0; r->cols[c].s && i < r->n_rows; i++)
            comb_free(r->cols[c].s[i]);
    r->first += r->n_rows;
    r->n_rows = r->next = r->held = 0;
}

/* The rows in memory written to the spill file as a chunk, and dropped. */
static int write_chunk(Hs2Result *r, CombErr *err)
{
    int rc;
    bool ok;
    if (!r->spill && (rc = spill_open(r, err)))
        return rc;
    ok = put(r->spill->f, &r->n_rows, sizeof r->n_rows);
    for (int c = 0; ok && c < r->n_cols; c++)
        ok = write_column(r->spill->f, &r->cols[c], r->n_rows);
    if (!ok)
        return spill_error(r, "write", err);
    drop_rows(r);
    return COMB_OK;
}

/* Beyond the budget, the rows in memory go to the spill file. */
static int keep_within(Hs2Result *r, CombErr *err)
{
    if (r->budget > 0 && r->held > r->budget)
        return write_chunk(r, err);
    return COMB_OK;
}

/* Column col of a chunk of n rows (in memory already, their strings
 * none) read: COMB_ENOMEM, COMB_EIO (errno set, or 0 when the file ended
 * early). */
static int read_column(Hs2Result *r, Hs2Col *col, int64_t n)
{
    FILE *f = r->spill->f;
    if (!get(f, col->null, (size_t)n))
        return COMB_EIO;
    switch (keep_of(col->kind)) {
    case KEEP_INT:
        return get(f, col->i, (size_t)n * sizeof *col->i) ? COMB_OK : COMB_EIO;
    case KEEP_DOUBLE:
        return get(f, col->d, (size_t)n * sizeof *col->d) ? COMB_OK : COMB_EIO;
    }
    for (int64_t i = 0; i < n; i++) {
        uint32_t len;
        if (col->null[i])
            continue;
        comb_buf_clear(&r->text);
        if (!get(f, &len, sizeof len))
            return COMB_EIO;
        if (comb_buf_reserve(&r->text, len))
            return COMB_ENOMEM;
        if (!get(f, r->text.data, len))
            return COMB_EIO;
        if (keep_text(r, col, i, (const char *)r->text.data, len))
            return COMB_ENOMEM;
    }
    return COMB_OK;
}

/* The next chunk of the spill file in memory, in place of the rows
 * there. */
static int read_chunk(Hs2Result *r, CombErr *err)
{
    int64_t n;
    int rc = COMB_OK;
    drop_rows(r);
    if (!get(r->spill->f, &n, sizeof n))
        return spill_error(r, "read", err);
    if (n < 1 || n > r->total - r->first)
        return comb_err(err, COMB_ECORRUPT, "the result's spill file in %s "
                        "(read): a chunk of %lld rows where %lld are left",
                        r->spill_dir, (long long)n,
                        (long long)(r->total - r->first));
    if (add_rows(r, n))
        return comb_err_nomem(err);
    for (int c = 0; !rc && c < r->n_cols; c++)
        rc = read_column(r, &r->cols[c], n);
    if (rc == COMB_ENOMEM)
        return comb_err_nomem(err);
    return rc ? spill_error(r, "read", err) : COMB_OK;
}

/* read_chunk, or the error of the read that failed before: a fetch never
 * skips the rows of a chunk it could not read. */
static int next_chunk(Hs2Result *r, CombErr *err)
{
    Hs2Spill *sp = r->spill;
    int rc;
    if (sp->broken) {
        *err = sp->why;
        return err->code;
    }
    if ((rc = read_chunk(r, err))) {
        drop_rows(r);
        sp->broken = true;
        sp->why = *err;
    }
    return rc;
}

/* ------------------------------------------------------------ the rows */

int hs2_result_add(Hs2Result *r, const CombBatch *b, CombErr *err)
{
    int live = b->use_sel ? b->n_sel : b->n_rows;
    int64_t at = r->n_rows;
    if (add_rows(r, live))
        return comb_err_nomem(err);
    r->total += live;
    for (int k = 0; k < live; k++, at++) {
        int row = b->use_sel ? b->sel[k] : k;
        for (int c = 0; c < r->n_cols; c++)
            if (keep_value(r, &r->cols[c], &b->cols[c], row, at))
                return comb_err_nomem(err);
    }
    return keep_within(r, err);
}

int hs2_result_append(Hs2Result *r, const Hs2Value *v, CombErr *err)
{
    int64_t at = r->n_rows;
    if (add_rows(r, 1))
        return comb_err_nomem(err);
    r->total++;
    for (int c = 0; c < r->n_cols; c++) {
        Hs2Col *col = &r->cols[c];
        col->null[at] = v[c].null;
        if (keep_of(col->kind) == KEEP_INT) {
            col->i[at] = v[c].null ? 0 : v[c].i;
        } else if (keep_of(col->kind) == KEEP_DOUBLE) {
            col->d[at] = v[c].null ? 0 : (double)v[c].i;
        } else {
            col->null[at] = v[c].null || !v[c].s;
            if (!col->null[at] &&
                keep_text(r, col, at, v[c].s, strlen(v[c].s)))
                return comb_err_nomem(err);
        }
    }
    return keep_within(r, err);
}

int hs2_result_end(Hs2Result *r, CombErr *err)
{
    int rc;
    if (!r->spill)
        return COMB_OK;
    if (r->n_rows && (rc = write_chunk(r, err)))
        return rc;
    /* a full disk may show only now, when the buffer goes out */
    if (fflush(r->spill->f))
        return spill_error(r, "write", err);
    return hs2_result_rewind(r, err);
}

void hs2_result_free(Hs2Result *r)
{
    drop_rows(r);
    for (int c = 0; c < r->n_cols; c++) {
        Hs2Col *col = &r->cols[c];
        comb_free(col->s);
        comb_free(col->slen);
        comb_free(col->i);
        comb_free(col->d);
        comb_free(col->null);
        comb_free(col->name);
    }
    comb_free(r->cols);
    if (r->spill)
        fclose(r->spill->f);
    comb_free(r->spill);
    comb_free(r->spill_dir);
    comb_buf_free(&r->text);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------- schema */

static Hs2TTypeId type_id(CombTypeKind k)
{
    switch (k) {
    case COMB_T_BOOLEAN: return HS2_T_TYPE_ID_BOOLEAN_TYPE;
    case COMB_T_TINYINT: return HS2_T_TYPE_ID_TINYINT_TYPE;
    case COMB_T_SMALLINT: return HS2_T_TYPE_ID_SMALLINT_TYPE;
    case COMB_T_INT: return HS2_T_TYPE_ID_INT_TYPE;
    case COMB_T_BIGINT: return HS2_T_TYPE_ID_BIGINT_TYPE;
    case COMB_T_FLOAT: return HS2_T_TYPE_ID_FLOAT_TYPE;
    case COMB_T_DOUBLE: return HS2_T_TYPE_ID_DOUBLE_TYPE;
    case COMB_T_BINARY: return HS2_T_TYPE_ID_BINARY_TYPE;
    case COMB_T_TIMESTAMP: return HS2_T_TYPE_ID_TIMESTAMP_TYPE;
    case COMB_T_LIST: return HS2_T_TYPE_ID_ARRAY_TYPE;
    case COMB_T_MAP: return HS2_T_TYPE_ID_MAP_TYPE;
    case COMB_T_STRUCT: return HS2_T_TYPE_ID_STRUCT_TYPE;
    case COMB_T_UNION: return HS2_T_TYPE_ID_UNION_TYPE;
    case COMB_T_DECIMAL: return HS2_T_TYPE_ID_DECIMAL_TYPE;
    case COMB_T_DATE: return HS2_T_TYPE_ID_DATE_TYPE;
    case COMB_T_VARCHAR: return HS2_T_TYPE_ID_VARCHAR_TYPE;
    case COMB_T_CHAR: return HS2_T_TYPE_ID_CHAR_TYPE;
    case COMB_T_NULL: return HS2_T_TYPE_ID_NULL_TYPE;
    default: return HS2_T_TYPE_ID_STRING_TYPE;
    }
}

void hs2_result_schema(const Hs2Result *r, Hs2TTableSchema *schema)
{
    for (int c = 0; c < r->n_cols; c++) {
        Hs2TColumnDesc *d = g_object_new(HS2_TYPE_T_COLUMN_DESC, NULL);
        Hs2TTypeEntry *e = g_object_new(HS2_TYPE_T_TYPE_ENTRY, NULL);
        d->columnName = g_strdup(r->cols[c].name);
        d->position = c + 1;
        e->primitiveEntry->type = type_id(r->cols[c].kind);
        e->__isset_primitiveEntry = TRUE;
        g_ptr_array_add(d->typeDesc->types, e);
        g_ptr_array_add(schema->columns, d);
    }
}

/* -------------------------------------------------------------- fetch */

/* Bits [at, at + n) of the NULL bitmap *bits (made when NULL) from rows
 * [from, from + n) of col: bit i of byte i / 8, row 0 of the page lowest. */
static void add_null_bits(GByteArray **bits, const Hs2Col *col, int64_t from,
                          int64_t n, int64_t at)
{
    guint len = (guint)((at + n + 7) / 8);
    if (!*bits)
        *bits = g_byte_array_new();
    if (len > (*bits)->len) {
        guint old = (*bits)->len;
        g_byte_array_set_size(*bits, len);
        memset((*bits)->data + old, 0, len - old);
    }
    for (int64_t i = 0; i < n; i++)
        if (col->null[from + i])
            (*bits)->data[(at + i) / 8] |= (guint8)(1u << ((at + i) % 8));
}

/* Rows [from, from + n) of col appended to tc, a TColumn of the page
 * holding `at` rows already. */
static void column_add(Hs2TColumn *tc, const Hs2Col *col, int64_t from,
                       int64_t n, int64_t at)
{
/* the values of an integer or double column, as member's type */
#define NUMBERS(member, type, src)                                     \
    do {                                                               \
        for (int64_t i = 0; i < n; i++) {                              \
            type v = (type)col->src[from + i];                         \
            g_array_append_val(tc->member->values, v);                 \
        }                                                              \
        add_null_bits(&tc->member->nulls, col, from, n, at);           \
        tc->__isset_##member = TRUE;                                   \
    } while (0)
    switch (col->kind) {
    case COMB_T_BOOLEAN:
        NUMBERS(boolVal, gboolean, i);
        return;
    case COMB_T_TINYINT:
        NUMBERS(byteVal, gint8, i);
        return;
    case COMB_T_SMALLINT:
        NUMBERS(i16Val, gint16, i);
        return;
    case COMB_T_INT:
        NUMBERS(i32Val, gint32, i);
        return;
    case COMB_T_BIGINT:
        NUMBERS(i64Val, gint64, i);
        return;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        NUMBERS(doubleVal, gdouble, d);
        return;
    case COMB_T_BINARY:
        for (int64_t i = 0; i < n; i++) {
            GByteArray *v = g_byte_array_new();
            if (col->s[from + i])
                g_byte_array_append(v, (const guint8 *)col->s[from + i],
                                    col->slen[from + i]);
            g_ptr_array_add(tc->binaryVal->values, v);
        }
        add_null_bits(&tc->binaryVal->nulls, col, from, n, at);
        tc->__isset_binaryVal = TRUE;
        return;
    default:
        for (int64_t i = 0; i < n; i++)
            g_ptr_array_add(tc->stringVal->values,
                            g_strndup(col->s[from + i] ? col->s[from + i] : "",
                                      col->slen[from + i]));
        add_null_bits(&tc->stringVal->nulls, col, from, n, at);
        tc->__isset_stringVal = TRUE;
        return;
    }
#undef NUMBERS
}

/* Row `row` of the result as one TRow (protocol versions before V6). */
static Hs2TRow *row_of(const Hs2Result *r, int64_t row)
{
    Hs2TRow *tr = g_object_new(HS2_TYPE_T_ROW, NULL);
    for (int c = 0; c < r->n_cols; c++) {
        const Hs2Col *col = &r->cols[c];
        Hs2TColumnValue *v = g_object_new(HS2_TYPE_T_COLUMN_VALUE, NULL);
        bool set = !col->null[row];
        switch (keep_of(col->kind)) {
        case KEEP_INT:
            v->i64Val->value = col->i[row];
            v->i64Val->__isset_value = set;
            v->__isset_i64Val = TRUE;
            break;
        case KEEP_DOUBLE:
            v->doubleVal->value = col->d[row];
            v->doubleVal->__isset_value = set;
            v->__isset_doubleVal = TRUE;
            break;
        default:
            if (set)
                v->stringVal->value = g_strndup(col->s[row], col->slen[row]);
            v->stringVal->__isset_value = set;
            v->__isset_stringVal = TRUE;
        }
        g_ptr_array_add(tr->colVals, v);
    }
    return tr;
}

/* The next n rows in memory into rs, which holds `at` rows already. */
static void page_add(Hs2Result *r, int64_t n, int64_t at, bool by_column,
                     Hs2TRowSet *rs)
{
    if (by_column)
        for (int c = 0; c < r->n_cols; c++)
            column_add(g_ptr_array_index(rs->columns, c), &r->cols[c],
                       r->next, n, at);
    else
        for (int64_t i = 0; i < n; i++)
            g_ptr_array_add(rs->rows, row_of(r, r->next + i));
    r->next += n;
}

int hs2_result_fetch(Hs2Result *r, int64_t max, bool by_column,
                     Hs2TRowSet *rs, CombErr *err)
{
    int64_t want = max < 0 ? INT64_MAX : max, at = 0;
    rs->startRowOffset = r->first + r->next;
    if (by_column) {
        for (int c = 0; c < r->n_cols; c++)
            g_ptr_array_add(rs->columns, g_object_new(HS2_TYPE_T_COLUMN, NULL));
        rs->__isset_columns = TRUE;
    }
    /* at least once: an empty page's columns have their types too */
    do {
        int64_t n = r->n_rows - r->next;
        int rc;
        if (n == 0 && hs2_result_more(r)) {
            if ((rc = next_chunk(r, err)))
                return rc;
            n = r->n_rows;
        }
        if (n > want)
            n = want;
        page_add(r, n, at, by_column, rs);
        at += n;
        want -= n;
    } while (want > 0 && hs2_result_more(r));
    return COMB_OK;
}

int hs2_result_rewind(Hs2Result *r, CombErr *err)
{
    /* the first chunk is in memory already (or everything is) */
    if (r->first == 0 && (r->n_rows > 0 || !r->spill)) {
        r->next = 0;
        return COMB_OK;
    }
    drop_rows(r);
    r->first = 0;
    errno = 0;
    if (fseeko(r->spill->f, 0, SEEK_SET))
        return spill_error(r, "seek", err);
    return next_chunk(r, err);
}

bool hs2_result_more(const Hs2Result *r)
{
    return r->first + r->next < r->total;
}
