/*
 * The Hive reference of the differential test (hive_ref.c) checked on its
 * own: every case issue 5 lists, and the consequences of the Hive sources
 * the reference encodes, give Hive 4's answer.  If one of these fails the
 * reference is wrong, not comb.  test_difftest.c runs the same table
 * through comb.
 */
#include "unit.h"

#include <math.h>

#include "difftest_data.h"
#include "hive_ref_cases.h"

/* Check one case on the reference alone; a message on failure. */
static bool check_case(HRef *r, const HrefCase *k, char *msg, size_t n)
{
    char got[512];
    HExpr *e = href_parse(r, k->sql);
    int row = k->row_id ? dt_row_of(r, k->row_id) : 0;
    HBind b;
    HEval v;
    if (!e) {
        snprintf(msg, n, "%s: parse: %s", k->sql, r->why);
        return false;
    }
    b = href_bind(r, e);
    if (b != HB_OK) {
        snprintf(got, sizeof got, "%s", b == HB_REJECT ? HREF_REJECT : HREF_EXCLUDE);
    } else {
        v = href_eval(r, e, row, got, sizeof got);
        if (v == HE_UNKNOWN)
            snprintf(got, sizeof got, "%s", HREF_UNKNOWN);
        else if (v == HE_MODE)
            snprintf(got, sizeof got, "%s", HREF_MODE);
    }
    if (strcmp(got, k->want) == 0)
        return true;
    snprintf(msg, n, "%s (row %d): reference says '%s', Hive '%s' (%s)", k->sql,
             k->row_id, got, k->want, r->why);
    return false;
}

TEST(hive_ref_issue_cases)
{
    HRef r;
    int failed = 0;
    CHECK(dt_load(&r));
    for (int k = 0; k < href_n_cases; k++) {
        char msg[1024];
        if (!check_case(&r, &href_cases[k], msg, sizeof msg)) {
            unit_fail(__FILE__, __LINE__, "%s", msg);
            failed++;
        }
    }
    href_free(&r);
    CHECK_EQ(failed, 0);
}

/* The stored values of the table are what Hive's INSERT would store. */
TEST(hive_ref_table_values)
{
    static const struct { int id, col; const char *want; } cells[] = {
        {5, DT_F, "3.4028235E38"}, {6, DT_F, "1.4E-45"}, {6, DT_D, "4.9E-324"},
        {13, DT_F, "1.6777216E7"}, {13, DT_V, "héllo"}, {13, DT_C, "ß    "},
        {11, DT_C, "ab   "}, {12, DT_V, "ab  "}, {12, DT_C, "a b  "},
        {10, DT_D, "-0.0"}, {7, DT_D, "NaN"}, {9, DT_F, "-Infinity"},
        {17, DT_D, "0.001"}, {18, DT_F, "1.0E7"}, {19, DT_D, "1.0E-5"},
        {20, DT_D, "123456.789"}, {20, DT_F, "100.0"}, {1, DT_S, "NULL"},
        {8, DT_B, "true"}, {6, DT_BI, "-9223372036854775808"},
    };
    HRef r;
    char got[256];
    CHECK(dt_load(&r));
    for (size_t k = 0; k < sizeof cells / sizeof cells[0]; k++) {
        int row = dt_row_of(&r, cells[k].id);
        CHECK(row >= 0);
        href_format_cell(&r, row, cells[k].col, got, sizeof got);
        if (strcmp(got, cells[k].want) != 0)
            unit_fail(__FILE__, __LINE__, "row %d column %s: '%s', want '%s'",
                      cells[k].id, dt_col_names[cells[k].col], got, cells[k].want);
    }
    href_free(&r);
}

/* INSERT INTO t (i INT) VALUES (3.7) stores 3 (UDFToInteger of a DECIMAL). */
TEST(hive_ref_insert_truncates)
{
    static const char *const names[] = {"i"};
    static const HTy types[] = {{HT_INT, 0}};
    static const char *const row[] = {"3.7"};
    HRef r;
    char got[64];
    href_init(&r, 1, names, types);
    CHECK(href_add_row(&r, row));
    href_format_cell(&r, 0, 0, got, sizeof got);
    CHECK_STR(got, "3");
    href_free(&r);
}

/* ORDER BY d: -Infinity .. -0.0, 0.0 .. +Infinity, NaN, then NULLs;
 * DESC is the reverse with NULLs first; ties by id. */
TEST(hive_ref_order_by_double)
{
    HRef r;
    int order[HREF_MAX_ROWS];
    char text[2048], cell[64];
    size_t k = 0;
    CHECK(dt_load(&r));
    href_order(&r, DT_D, false, order);
    for (int i = 0; i < r.n_rows; i++) {
        href_format_cell(&r, order[i], DT_D, cell, sizeof cell);
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s", i ? " " : "", cell);
    }
    CHECK_STR(text, "-Infinity -5.5 -1.0 -0.0 0.0 0.0 4.9E-324 1.0E-5 0.001 0.1 0.3 "
                    "1.0 2.5 5.5 123456.789 1.0E7 3.0E9 1.0E300 1.7976931348623157E308 "
                    "Infinity NaN NULL");
    href_order(&r, DT_D, true, order);
    href_format_cell(&r, order[0], DT_D, cell, sizeof cell);
    CHECK_STR(cell, "NULL");
    href_format_cell(&r, order[1], DT_D, cell, sizeof cell);
    CHECK_STR(cell, "NaN");
    href_format_cell(&r, order[r.n_rows - 1], DT_D, cell, sizeof cell);
    CHECK_STR(cell, "-Infinity");
    /* -0.0 (id 10) sorts before 0.0 (ids 2, 21) although they compare equal */
    href_order(&r, DT_D, false, order);
    CHECK_EQ(r.rows[order[3]][DT_ID].i, 10);
    CHECK_EQ(r.rows[order[4]][DT_ID].i, 2);
    CHECK_EQ(r.rows[order[5]][DT_ID].i, 21);
    href_free(&r);
}

TEST(hive_ref_java_double_format)
{
    static const struct { double d; const char *want; } cases[] = {
        {1.0, "1.0"}, {0.1, "0.1"}, {100.0, "100.0"}, {1e7, "1.0E7"},
        {1234567.0, "1234567.0"}, {0.001, "0.001"}, {0.0001, "1.0E-4"},
        {4.9e-324, "4.9E-324"}, {1.7976931348623157e308, "1.7976931348623157E308"},
        {-0.0, "-0.0"}, {1e21, "1.0E21"}, {0.1 + 0.2, "0.30000000000000004"},
        {1e23, "1.0E23"}, {2.5e-5, "2.5E-5"}, {-123.456, "-123.456"},
    };
    char buf[64];
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        href_java_double(cases[k].d, buf, sizeof buf);
        if (strcmp(buf, cases[k].want) != 0)
            unit_fail(__FILE__, __LINE__, "Double.toString: '%s', want '%s'", buf,
                      cases[k].want);
    }
    href_java_float(1.4e-45f, buf, sizeof buf);
    CHECK_STR(buf, "1.4E-45");
    href_java_float(0.1f, buf, sizeof buf);
    CHECK_STR(buf, "0.1");
    href_java_float(0.2f, buf, sizeof buf);
    CHECK_STR(buf, "0.2");
    href_java_float(16777216.0f, buf, sizeof buf);
    CHECK_STR(buf, "1.6777216E7");
    href_java_float(3.4028235e38f, buf, sizeof buf);
    CHECK_STR(buf, "3.4028235E38");
}
