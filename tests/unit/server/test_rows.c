/* server/hs2_rows.c: a result kept from batches, fetched in pages as
 * HiveServer2's column-oriented and row-oriented row sets, and described
 * with Hive's type ids. */
#include "unit.h"

#include <string.h>

#include "server/hs2_int.h"

static const char *const names[] = {"b", "i", "d", "s"};
static const CombTypeKind kinds[] = {COMB_T_BOOLEAN, COMB_T_INT, COMB_T_DOUBLE,
                                     COMB_T_STRING};

/* A result of n rows: b = row is odd, i = row (NULL every third row),
 * d = row / 2, s = "r<row>". */
static int make_result(Hs2Result *r, int n, CombErr *err)
{
    CombBatch b;
    char text[16][8];
    int rc = hs2_result_begin(r, 4, names, kinds, err);
    if (rc || comb_batch_init(&b, 4, kinds, 16))
        return rc ? rc : COMB_ENOMEM;
    for (int done = 0; !rc && done < n;) {
        int k = n - done < 16 ? n - done : 16;
        for (int j = 0; j < k; j++) {
            int row = done + j;
            b.cols[0].i64[j] = row % 2;
            b.cols[1].i64[j] = row;
            b.cols[1].nulls[j] = row % 3 == 0;
            b.cols[2].f64[j] = row / 2.0;
            snprintf(text[j], sizeof text[j], "r%d", row);
            b.cols[3].str[j] = (CombStr){text[j], (uint32_t)strlen(text[j])};
        }
        b.cols[1].has_nulls = true;
        b.n_rows = k;
        rc = hs2_result_add(r, &b, err);
        done += k;
    }
    comb_batch_free(&b);
    return rc;
}

TEST(hs2_rows_fetched_by_column_in_pages)
{
    Hs2Result r = {0};
    CombErr err;
    CHECK_OK(make_result(&r, 40, &err), &err);
    Hs2TRowSet *rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
    hs2_result_fetch(&r, 25, true, rs);
    CHECK_EQ(rs->startRowOffset, 0);
    CHECK_EQ(rs->columns->len, 4);
    Hs2TColumn *b = g_ptr_array_index(rs->columns, 0);
    Hs2TColumn *i = g_ptr_array_index(rs->columns, 1);
    Hs2TColumn *d = g_ptr_array_index(rs->columns, 2);
    Hs2TColumn *s = g_ptr_array_index(rs->columns, 3);
    CHECK(b->__isset_boolVal && !b->__isset_i32Val);
    CHECK_EQ(b->boolVal->values->len, 25);
    CHECK(g_array_index(b->boolVal->values, gboolean, 3));
    CHECK(i->__isset_i32Val);
    CHECK_EQ(g_array_index(i->i32Val->values, gint32, 7), 7);
    /* NULLs of rows 0, 3, 6, ... as bits of the bitmap, row 0 lowest */
    CHECK_EQ(i->i32Val->nulls->len, 4);
    CHECK_EQ(i->i32Val->nulls->data[0], 0x49);   /* rows 0, 3, 6 */
    CHECK_EQ(i->i32Val->nulls->data[1], 0x92);   /* rows 9, 12, 15 */
    CHECK_EQ(b->boolVal->nulls->data[0], 0);
    CHECK(d->__isset_doubleVal);
    CHECK(g_array_index(d->doubleVal->values, gdouble, 5) == 2.5);
    CHECK(s->__isset_stringVal);
    CHECK_STR(g_ptr_array_index(s->stringVal->values, 24), "r24");
    g_object_unref(rs);
    /* the rest, from where the first page ended */
    rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
    hs2_result_fetch(&r, 25, true, rs);
    CHECK_EQ(rs->startRowOffset, 25);
    s = g_ptr_array_index(rs->columns, 3);
    CHECK_EQ(s->stringVal->values->len, 15);
    CHECK_STR(g_ptr_array_index(s->stringVal->values, 0), "r25");
    g_object_unref(rs);
    CHECK_EQ(r.next, 40);
    hs2_result_free(&r);
}

TEST(hs2_rows_fetched_row_by_row_for_old_clients)
{
    Hs2Result r = {0};
    CombErr err;
    CHECK_OK(make_result(&r, 4, &err), &err);
    Hs2TRowSet *rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
    hs2_result_fetch(&r, -1, false, rs);
    CHECK(!rs->__isset_columns);
    CHECK_EQ(rs->rows->len, 4);
    Hs2TRow *row3 = g_ptr_array_index(rs->rows, 3);
    Hs2TColumnValue *i = g_ptr_array_index(row3->colVals, 1);
    Hs2TColumnValue *s = g_ptr_array_index(row3->colVals, 3);
    CHECK(i->__isset_i64Val && !i->i64Val->__isset_value); /* row 3: NULL */
    CHECK(s->__isset_stringVal && s->stringVal->__isset_value);
    CHECK_STR(s->stringVal->value, "r3");
    g_object_unref(rs);
    hs2_result_free(&r);
}

TEST(hs2_rows_schema_types_as_hive)
{
    Hs2Result r = {0};
    CombErr err;
    CHECK_OK(make_result(&r, 0, &err), &err);
    Hs2TTableSchema *schema = g_object_new(HS2_TYPE_T_TABLE_SCHEMA, NULL);
    hs2_result_schema(&r, schema);
    CHECK_EQ(schema->columns->len, 4);
    Hs2TColumnDesc *c = g_ptr_array_index(schema->columns, 3);
    CHECK_STR(c->columnName, "s");
    CHECK_EQ(c->position, 4);
    Hs2TTypeEntry *e = g_ptr_array_index(c->typeDesc->types, 0);
    CHECK(e->__isset_primitiveEntry);
    CHECK_EQ(e->primitiveEntry->type, HS2_T_TYPE_ID_STRING_TYPE);
    c = g_ptr_array_index(schema->columns, 0);
    e = g_ptr_array_index(c->typeDesc->types, 0);
    CHECK_EQ(e->primitiveEntry->type, HS2_T_TYPE_ID_BOOLEAN_TYPE);
    g_object_unref(schema);
    hs2_result_free(&r);
}
