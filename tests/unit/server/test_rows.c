/* server/hs2_rows.c: a result kept from batches, fetched in pages as
 * HiveServer2's column-oriented and row-oriented row sets, and described
 * with Hive's type ids. */
#include "unit.h"

#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

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
    CHECK_OK(hs2_result_fetch(&r, 25, true, rs, &err), &err);
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
    CHECK_OK(hs2_result_fetch(&r, 25, true, rs, &err), &err);
    CHECK_EQ(rs->startRowOffset, 25);
    s = g_ptr_array_index(rs->columns, 3);
    CHECK_EQ(s->stringVal->values->len, 15);
    CHECK_STR(g_ptr_array_index(s->stringVal->values, 0), "r25");
    g_object_unref(rs);
    CHECK_EQ(r.next, 40);
    CHECK(!hs2_result_more(&r));
    hs2_result_free(&r);
}

TEST(hs2_rows_fetched_row_by_row_for_old_clients)
{
    Hs2Result r = {0};
    CombErr err;
    CHECK_OK(make_result(&r, 4, &err), &err);
    Hs2TRowSet *rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
    CHECK_OK(hs2_result_fetch(&r, -1, false, rs, &err), &err);
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

/* ---------------------------------------------- results beyond memory */

static const char *const spill_names[] = {"b", "i", "d", "s", "n"};
static const CombTypeKind spill_kinds[] = {COMB_T_BOOLEAN, COMB_T_INT,
                                           COMB_T_DOUBLE, COMB_T_STRING,
                                           COMB_T_BIGINT};
enum { SPILL_BUDGET = 2048, LONG_TEXT = 3000 };

/* Row `row`'s text: NULL every 7th, "" after it, every 50th a string
 * longer than the budget, else "t<row>". */
static const char *spill_text(int row, char *buf)
{
    if (row % 7 == 0)
        return NULL;
    if (row % 7 == 1)
        return "";
    if (row % 50 == 2) {
        memset(buf, 'a' + row % 26, LONG_TEXT);
        buf[LONG_TEXT] = '\0';
        return buf;
    }
    sprintf(buf, "t%d", row);
    return buf;
}

/* n rows in batches of 7 into r, spilling beyond budget in dir (0: none):
 * b = row is odd, i = row (NULL every third), d = row / 4 (NULL every
 * fifth), s = spill_text, n = -row. */
static int spill_result(Hs2Result *r, int n, int64_t budget, const char *dir,
                        CombErr *err)
{
    CombBatch b;
    static char text[7][LONG_TEXT + 1];
    int rc = hs2_result_begin(r, 5, spill_names, spill_kinds, err);
    if (!rc)
        rc = hs2_result_budget(r, budget, dir, err);
    if (rc || comb_batch_init(&b, 5, spill_kinds, 7))
        return rc ? rc : COMB_ENOMEM;
    for (int c = 0; c < 5; c++)
        b.cols[c].has_nulls = true;
    for (int done = 0; !rc && done < n;) {
        int k = n - done < 7 ? n - done : 7;
        for (int j = 0; j < k; j++) {
            int row = done + j;
            const char *t = spill_text(row, text[j]);
            b.cols[0].i64[j] = row % 2;
            b.cols[1].i64[j] = row;
            b.cols[1].nulls[j] = row % 3 == 0;
            b.cols[2].f64[j] = row / 4.0;
            b.cols[2].nulls[j] = row % 5 == 0;
            b.cols[3].str[j] = (CombStr){t ? t : "", t ? (uint32_t)strlen(t) : 0};
            b.cols[3].nulls[j] = t == NULL;
            b.cols[4].i64[j] = -row;
        }
        b.n_rows = k;
        rc = hs2_result_add(r, &b, err);
        done += k;
    }
    comb_batch_free(&b);
    return rc ? rc : hs2_result_end(r, err);
}

static bool bit(const GByteArray *nulls, guint i)
{
    return i / 8 < nulls->len && (nulls->data[i / 8] >> (i % 8)) & 1;
}

/* Value i of a page's column as text ("\N" NULL). */
static void column_value(const Hs2TColumn *tc, guint i, GString *out)
{
    if (tc->__isset_boolVal)
        bit(tc->boolVal->nulls, i) ? g_string_append(out, "\\N")
            : g_string_append_printf(out, "%d", g_array_index(tc->boolVal->values, gboolean, i));
    else if (tc->__isset_i32Val)
        bit(tc->i32Val->nulls, i) ? g_string_append(out, "\\N")
            : g_string_append_printf(out, "%d", g_array_index(tc->i32Val->values, gint32, i));
    else if (tc->__isset_i64Val)
        bit(tc->i64Val->nulls, i) ? g_string_append(out, "\\N")
            : g_string_append_printf(out, "%lld", (long long)g_array_index(tc->i64Val->values, gint64, i));
    else if (tc->__isset_doubleVal)
        bit(tc->doubleVal->nulls, i) ? g_string_append(out, "\\N")
            : g_string_append_printf(out, "%g", g_array_index(tc->doubleVal->values, gdouble, i));
    else
        bit(tc->stringVal->nulls, i) ? g_string_append(out, "\\N")
            : g_string_append_printf(out, "'%s'", (const char *)g_ptr_array_index(tc->stringVal->values, i));
}

/* A value of a row of an old client's page as text. */
static void row_value(const Hs2TColumnValue *v, GString *out)
{
    if (v->__isset_i64Val)
        v->i64Val->__isset_value ? g_string_append_printf(out, "%lld", (long long)v->i64Val->value)
                                 : g_string_append(out, "\\N");
    else if (v->__isset_doubleVal)
        v->doubleVal->__isset_value ? g_string_append_printf(out, "%g", v->doubleVal->value)
                                    : g_string_append(out, "\\N");
    else
        v->stringVal->__isset_value ? g_string_append_printf(out, "'%s'", v->stringVal->value)
                                    : g_string_append(out, "\\N");
}

/* The rows of page rs appended to out, a line each; its row count. */
static guint page_text(const Hs2TRowSet *rs, GString *out)
{
    guint n = 0;
    if (!rs->__isset_columns) {
        for (guint r = 0; r < rs->rows->len; r++, n++) {
            const Hs2TRow *row = g_ptr_array_index(rs->rows, r);
            for (guint c = 0; c < row->colVals->len; c++) {
                row_value(g_ptr_array_index(row->colVals, c), out);
                g_string_append_c(out, c + 1 < row->colVals->len ? '|' : '\n');
            }
        }
        return n;
    }
    if (rs->columns->len) {
        const Hs2TColumn *first = g_ptr_array_index(rs->columns, 4);
        n = first->i64Val->values->len;
    }
    for (guint r = 0; r < n; r++)
        for (guint c = 0; c < rs->columns->len; c++) {
            column_value(g_ptr_array_index(rs->columns, c), r, out);
            g_string_append_c(out, c + 1 < rs->columns->len ? '|' : '\n');
        }
    return n;
}

/* Every row left in r fetched in pages of `page` rows, appended to out as
 * text; COMB_OK or the fetch's error.  *offsets_ok: each page began where
 * the one before ended. */
static int fetch_text(Hs2Result *r, int64_t page, bool by_column, GString *out,
                      bool *offsets_ok, CombErr *err)
{
    int64_t at = r->first + r->next;
    *offsets_ok = true;
    while (hs2_result_more(r)) {
        Hs2TRowSet *rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
        int rc = hs2_result_fetch(r, page, by_column, rs, err);
        *offsets_ok = *offsets_ok && rs->startRowOffset == at;
        at += rc ? 0 : page_text(rs, out);
        g_object_unref(rs);
        if (rc)
            return rc;
    }
    return COMB_OK;
}

static int files_in(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

TEST(hs2_rows_beyond_the_budget_spill_and_come_back_the_same)
{
    const char *dir = unit_tmpdir();
    Hs2Result mem = {0}, disk = {0};
    CombErr err;
    bool offsets_ok;
    GString *want = g_string_new(NULL), *got = g_string_new(NULL);
    CHECK_OK(spill_result(&mem, 1000, 0, dir, &err), &err);
    CHECK(mem.spill == NULL && mem.n_rows == 1000);
    CHECK_OK(spill_result(&disk, 1000, SPILL_BUDGET, dir, &err), &err);
    /* spilled: a chunk in memory, within a batch of the budget (a long
     * string alone is beyond it), the file already unlinked */
    CHECK(disk.spill != NULL);
    CHECK_EQ(disk.total, 1000);
    CHECK(disk.n_rows < 1000 && disk.held < SPILL_BUDGET + 7 * (LONG_TEXT + 100));
    CHECK_EQ(files_in(dir), 0);
    CHECK_OK(fetch_text(&mem, -1, true, want, &offsets_ok, &err), &err);
    guint lines = 0;
    for (const char *p = want->str; (p = strchr(p, '\n')); p++)
        lines++;
    CHECK_EQ(lines, 1000);
    CHECK(strstr(want->str, "1|1|0.25|'t1'|-1\n") == NULL);   /* row 1: "" */
    CHECK(strstr(want->str, "1|1|0.25|''|-1\n") != NULL);
    CHECK(strstr(want->str, "0|\\N|\\N|\\N|0\n") == want->str);
    /* pages of odd sizes, column by column and row by row, across chunks */
    CHECK_OK(fetch_text(&disk, 37, true, got, &offsets_ok, &err), &err);
    CHECK(offsets_ok);
    CHECK_EQ(got->len, want->len);
    CHECK(strcmp(got->str, want->str) == 0);
    /* again from the first row (FETCH_FIRST), part way then whole */
    g_string_truncate(got, 0);
    CHECK_OK(hs2_result_rewind(&disk, &err), &err);
    Hs2TRowSet *rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
    CHECK_OK(hs2_result_fetch(&disk, 5, true, rs, &err), &err);
    CHECK_EQ(rs->startRowOffset, 0);
    CHECK_EQ(page_text(rs, got), 5);
    g_object_unref(rs);
    CHECK_OK(hs2_result_rewind(&disk, &err), &err);
    g_string_truncate(got, 0);
    CHECK_OK(fetch_text(&disk, 1, true, got, &offsets_ok, &err), &err);
    CHECK(offsets_ok && strcmp(got->str, want->str) == 0);
    /* an old client's rows (integers as i64, doubles, strings) */
    GString *want_rows = g_string_new(NULL), *got_rows = g_string_new(NULL);
    CHECK_OK(hs2_result_rewind(&mem, &err), &err);
    CHECK_OK(fetch_text(&mem, 1000, false, want_rows, &offsets_ok, &err), &err);
    CHECK_OK(hs2_result_rewind(&disk, &err), &err);
    CHECK_OK(fetch_text(&disk, 13, false, got_rows, &offsets_ok, &err), &err);
    CHECK(offsets_ok && strcmp(got_rows->str, want_rows->str) == 0);
    /* everything in one fetch, and nothing after the end */
    CHECK_OK(hs2_result_rewind(&disk, &err), &err);
    g_string_truncate(got, 0);
    CHECK_OK(fetch_text(&disk, -1, true, got, &offsets_ok, &err), &err);
    CHECK(strcmp(got->str, want->str) == 0);
    rs = g_object_new(HS2_TYPE_T_ROW_SET, NULL);
    CHECK_OK(hs2_result_fetch(&disk, 10, true, rs, &err), &err);
    CHECK_EQ(page_text(rs, got), 0);
    CHECK_EQ(rs->columns->len, 5);
    g_object_unref(rs);
    g_string_free(want_rows, TRUE);
    g_string_free(got_rows, TRUE);
    g_string_free(want, TRUE);
    g_string_free(got, TRUE);
    hs2_result_free(&mem);
    hs2_result_free(&disk);
    CHECK_EQ(files_in(dir), 0);
}

TEST(hs2_rows_within_the_budget_make_no_file)
{
    const char *dir = unit_tmpdir();
    Hs2Result r = {0};
    CombErr err;
    CHECK_OK(spill_result(&r, 40, 1 << 20, dir, &err), &err);
    CHECK(r.spill == NULL);
    CHECK_EQ(r.n_rows, 40);
    hs2_result_free(&r);
}

TEST(hs2_rows_spill_write_failures_fail_the_result)
{
    Hs2Result r = {0};
    CombErr err;
    char missing[600];
    snprintf(missing, sizeof missing, "%s/no/such/dir", unit_tmpdir());
    CHECK_EQ(spill_result(&r, 1000, SPILL_BUDGET, missing, &err), COMB_EIO);
    CHECK(strstr(err.msg, missing) != NULL);
    CHECK(strstr(err.msg, "(create): No such file or directory") != NULL);
    hs2_result_free(&r);
    /* a file size limit stops the writes part way (the process is told
     * with SIGXFSZ, which would end it) */
    struct rlimit old, small;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
    small = old;
    small.rlim_cur = 64 * 1024;
    CHECK(setrlimit(RLIMIT_FSIZE, &small) == 0);
    int rc = spill_result(&r, 2000, SPILL_BUDGET, unit_tmpdir(), &err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, was);
    CHECK_EQ(rc, COMB_EIO);
    CHECK(strstr(err.msg, "(write): File too large") != NULL);
    hs2_result_free(&r);
}
