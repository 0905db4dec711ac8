/*
 * hs2_rows.c - a statement's result kept for FetchResults, and its
 * conversion into HiveServer2's row sets and column descriptions, typed
 * as Hive types them: booleans, the integer sizes and doubles as
 * themselves, FLOAT as a double, BINARY as bytes, and DECIMAL, DATE,
 * TIMESTAMP, strings and complex values as the strings Hive sends (complex
 * ones as JSON).
 */
#include "server/hs2_int.h"

#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "sql/func/value.h"

/* What a column is kept as. */
enum { KEEP_INT, KEEP_DOUBLE, KEEP_TEXT };

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
    }
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
    col->s[at] = NULL;
    col->slen[at] = 0;
    if (col->null[at])
        return COMB_OK;
    comb_buf_clear(&r->text);
    if (comb_type_is_str(v->kind)) {
        if (comb_buf_append(&r->text, v->str[row].ptr, v->str[row].len))
            return COMB_ENOMEM;
    } else if (sql_format_value(v, row, &r->text)) {
        return COMB_ENOMEM;
    }
    if (!(col->s[at] = comb_malloc(r->text.len + 1)))
        return COMB_ENOMEM;
    if (r->text.len)
        memcpy(col->s[at], r->text.data, r->text.len);
    col->s[at][r->text.len] = '\0';
    col->slen[at] = (uint32_t)r->text.len;
    return COMB_OK;
}

int hs2_result_add(Hs2Result *r, const CombBatch *b, CombErr *err)
{
    int live = b->use_sel ? b->n_sel : b->n_rows;
    if (grow(r, live))
        return comb_err_nomem(err);
    for (int k = 0; k < live; k++) {
        int row = b->use_sel ? b->sel[k] : k;
        for (int c = 0; c < r->n_cols; c++)
            if (keep_value(r, &r->cols[c], &b->cols[c], row, r->n_rows))
                return comb_err_nomem(err);
        r->n_rows++;
    }
    return COMB_OK;
}

int hs2_result_append(Hs2Result *r, const Hs2Value *v, CombErr *err)
{
    if (grow(r, 1))
        return comb_err_nomem(err);
    for (int c = 0; c < r->n_cols; c++) {
        Hs2Col *col = &r->cols[c];
        int64_t at = r->n_rows;
        col->null[at] = v[c].null;
        if (keep_of(col->kind) == KEEP_INT) {
            col->i[at] = v[c].null ? 0 : v[c].i;
        } else if (keep_of(col->kind) == KEEP_DOUBLE) {
            col->d[at] = v[c].null ? 0 : (double)v[c].i;
        } else {
            const char *t = v[c].null || !v[c].s ? "" : v[c].s;
            col->null[at] = v[c].null || !v[c].s;
            col->slen[at] = (uint32_t)strlen(t);
            if (!(col->s[at] = comb_strdup(t))) {
                for (int k = 0; k < c; k++)
                    if (keep_of(r->cols[k].kind) == KEEP_TEXT)
                        comb_free(r->cols[k].s[at]);
                return comb_err_nomem(err);
            }
        }
    }
    r->n_rows++;
    return COMB_OK;
}

void hs2_result_free(Hs2Result *r)
{
    for (int c = 0; c < r->n_cols; c++) {
        Hs2Col *col = &r->cols[c];
        for (int64_t i = 0; col->s && i < r->n_rows; i++)
            comb_free(col->s[i]);
        comb_free(col->s);
        comb_free(col->slen);
        comb_free(col->i);
        comb_free(col->d);
        comb_free(col->null);
        comb_free(col->name);
    }
    comb_free(r->cols);
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

/* The NULL bitmap of rows [from, from + n) of col: bit i of byte i / 8. */
static GByteArray *null_bits(const Hs2Col *col, int64_t from, int64_t n)
{
    GByteArray *bits = g_byte_array_sized_new((guint)((n + 7) / 8));
    g_byte_array_set_size(bits, (guint)((n + 7) / 8));
    if (bits->len)
        memset(bits->data, 0, bits->len);
    for (int64_t i = 0; i < n; i++)
        if (col->null[from + i])
            bits->data[i / 8] |= (guint8)(1u << (i % 8));
    return bits;
}

/* Rows [from, from + n) of col as one TColumn. */
static Hs2TColumn *column_of(const Hs2Col *col, int64_t from, int64_t n)
{
    Hs2TColumn *tc = g_object_new(HS2_TYPE_T_COLUMN, NULL);
    GByteArray *nulls = null_bits(col, from, n);
/* the values of an integer or double column, as member's type */
#define NUMBERS(member, type, src)                                     \
    do {                                                               \
        for (int64_t i = 0; i < n; i++) {                              \
            type v = (type)col->src[from + i];                         \
            g_array_append_val(tc->member->values, v);                 \
        }                                                              \
        tc->member->nulls = nulls;                                     \
        tc->__isset_##member = TRUE;                                   \
    } while (0)
    switch (col->kind) {
    case COMB_T_BOOLEAN:
        NUMBERS(boolVal, gboolean, i);
        return tc;
    case COMB_T_TINYINT:
        NUMBERS(byteVal, gint8, i);
        return tc;
    case COMB_T_SMALLINT:
        NUMBERS(i16Val, gint16, i);
        return tc;
    case COMB_T_INT:
        NUMBERS(i32Val, gint32, i);
        return tc;
    case COMB_T_BIGINT:
        NUMBERS(i64Val, gint64, i);
        return tc;
    case COMB_T_FLOAT:
    case COMB_T_DOUBLE:
        NUMBERS(doubleVal, gdouble, d);
        return tc;
    case COMB_T_BINARY:
        for (int64_t i = 0; i < n; i++) {
            GByteArray *v = g_byte_array_new();
            if (col->s[from + i])
                g_byte_array_append(v, (const guint8 *)col->s[from + i],
                                    col->slen[from + i]);
            g_ptr_array_add(tc->binaryVal->values, v);
        }
        tc->binaryVal->nulls = nulls;
        tc->__isset_binaryVal = TRUE;
        return tc;
    default:
        for (int64_t i = 0; i < n; i++)
            g_ptr_array_add(tc->stringVal->values,
                            g_strndup(col->s[from + i] ? col->s[from + i] : "",
                                      col->slen[from + i]));
        tc->stringVal->nulls = nulls;
        tc->__isset_stringVal = TRUE;
        return tc;
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

void hs2_result_fetch(Hs2Result *r, int64_t max, bool by_column,
                      Hs2TRowSet *rs)
{
    int64_t n = r->n_rows - r->next;
    if (max >= 0 && n > max)
        n = max;
    rs->startRowOffset = r->next;
    if (by_column) {
        for (int c = 0; c < r->n_cols; c++)
            g_ptr_array_add(rs->columns, column_of(&r->cols[c], r->next, n));
        rs->__isset_columns = TRUE;
    } else {
        for (int64_t i = 0; i < n; i++)
            g_ptr_array_add(rs->rows, row_of(r, r->next + i));
    }
    r->next += n;
}
