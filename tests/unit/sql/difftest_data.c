/*
 * difftest_data.c - the edge-value table of the differential expression
 * test (see difftest_data.h).  Row ids are referred to by test_hive_ref.c:
 * keep them stable when adding rows.
 */
#include "difftest_data.h"

const char *const dt_col_names[DT_N_COLS] = {
    "id", "b", "ti", "si", "i", "bi", "f", "d", "s", "v", "c"};

const char *const dt_col_sql_types[DT_N_COLS] = {
    "INT", "BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT",
    "DOUBLE", "STRING", "VARCHAR(5)", "CHAR(5)"};

const HTy dt_col_types[DT_N_COLS] = {
    {HT_INT, 0}, {HT_BOOLEAN, 0}, {HT_TINYINT, 0}, {HT_SMALLINT, 0},
    {HT_INT, 0}, {HT_BIGINT, 0}, {HT_FLOAT, 0}, {HT_DOUBLE, 0},
    {HT_STRING, 0}, {HT_VARCHAR, 5}, {HT_CHAR, 5}};

#define TI(x) "CAST('" x "' AS TINYINT)"
#define SI(x) "CAST('" x "' AS SMALLINT)"
#define IT(x) "CAST('" x "' AS INT)"
#define BI(x) "CAST('" x "' AS BIGINT)"
#define FL(x) "CAST('" x "' AS FLOAT)"
#define DB(x) "CAST('" x "' AS DOUBLE)"

const char *const dt_rows[][DT_N_COLS] = {
    {"1", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
    {"2", "FALSE", TI("0"), SI("0"), IT("0"), BI("0"), FL("0"), DB("0"), "'0'", "'0'", "'0'"},
    {"3", "TRUE", TI("1"), SI("1"), IT("1"), BI("1"), FL("1"), DB("1"), "'1'", "'1'", "'1'"},
    {"4", "FALSE", TI("-1"), SI("-1"), IT("-1"), BI("-1"), FL("-1"), DB("-1"), "'-1'", "'-1'", "'-1'"},
    {"5", "TRUE", TI("127"), SI("32767"), IT("2147483647"), BI("9223372036854775807"),
     FL("3.4028235E38"), DB("1.7976931348623157E308"), "'2147483648'", "'1.5'", "' 12 '"},
    {"6", "FALSE", TI("-128"), SI("-32768"), IT("-2147483648"), BI("-9223372036854775808"),
     FL("1.4E-45"), DB("4.9E-324"), "'-2147483649'", "'1d'", "'inf'"},
    {"7", "NULL", TI("5"), SI("300"), IT("65536"), BI("3000000000"), FL("NaN"), DB("NaN"),
     "'NaN'", "'true'", "'off'"},
    {"8", "TRUE", TI("100"), SI("-300"), IT("100000"), BI("-4294967296"), FL("Infinity"),
     DB("Infinity"), "'Infinity'", "'no'", "'FALSE'"},
    {"9", "FALSE", TI("-100"), SI("1000"), IT("-100000"), BI("4294967296"), FL("-Infinity"),
     DB("-Infinity"), "'-Infinity'", "''", "''"},
    {"10", "TRUE", TI("2"), SI("2"), IT("2"), BI("2"), FL("-0.0"), DB("-0.0"), "'-0.0'", "'-0'", "' '"},
    {"11", "FALSE", TI("3"), SI("7"), IT("-7"), BI("7"), FL("0.1"), DB("0.1"), "'0.1'", "'ab'", "'ab'"},
    {"12", "TRUE", TI("7"), SI("-7"), IT("7"), BI("-7"), FL("2.5"), DB("5.5"), "'5.5'", "'ab  '", "'a b'"},
    {"13", "NULL", "NULL", "NULL", IT("16777217"), BI("9007199254740993"), FL("16777217"),
     DB("1e300"), "'héllo ß'", "'héllo ß'", "'ß'"},
    {"14", "TRUE", TI("64"), SI("128"), IT("3"), BI("10"), FL("1e10"), DB("3e9"), "'日本'", "'日本'", "'日本'"},
    {"15", "FALSE", TI("10"), SI("10"), IT("10"), BI("10"), FL("0.5"), DB("2.5"), "'Straße'", "'ÄÖÜ'", "'äöü'"},
    {"16", "TRUE", TI("-5"), SI("-5"), IT("-5"), BI("-5"), FL("-2.5"), DB("-5.5"), "' 12 '", "' 7 '", "'-3'"},
    {"17", "FALSE", TI("1"), SI("1"), IT("1"), BI("1"), FL("1.5"), DB("1e-3"), "'1e3'", "'7.9'", "'1e5'"},
    {"18", "TRUE", TI("0"), SI("0"), IT("0"), BI("0"), FL("1e7"), DB("1e7"), "'1.5'", "''", "'x_y'"},
    {"19", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", DB("1e-5"), "'abc%'", "'TRUE'", "'Off'"},
    {"20", "TRUE", TI("99"), SI("999"), IT("999999"), BI("1000000000000000000"), FL("100"),
     DB("123456.789"), "''", "'ABC'", "'abc'"},
    {"21", "FALSE", "NULL", SI("0"), "NULL", BI("0"), FL("-0.0"), DB("0"), "'  '", "'NO'", "'no'"},
    {"22", "TRUE", TI("-7"), SI("3"), IT("5"), BI("-9223372036854775807"), FL("0.3"), DB("0.3"),
     "'7.'", "'.5'", "'+5'"},
};

const int dt_n_rows = (int)(sizeof dt_rows / sizeof dt_rows[0]);

bool dt_load(HRef *r)
{
    href_init(r, DT_N_COLS, dt_col_names, dt_col_types);
    for (int k = 0; k < dt_n_rows; k++)
        if (!href_add_row(r, dt_rows[k]))
            return false;
    return true;
}

int dt_row_of(const HRef *r, int id)
{
    for (int k = 0; k < r->n_rows; k++)
        if (r->rows[k][DT_ID].i == id && !r->rows[k][DT_ID].null)
            return k;
    return -1;
}
