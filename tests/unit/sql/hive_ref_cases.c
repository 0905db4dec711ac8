/*
 * hive_ref_cases.c - the known-answer table (see hive_ref_cases.h).
 * Row data: difftest_data.c (e.g. row 7 holds NaN, row 11 c = 'ab',
 * f = 0.1f, row 13 i = 16777217, bi = 9007199254740993).
 */
#include "hive_ref_cases.h"

#define ISSUE "issue 5"

const HrefCase href_cases[] = {
    /* DIV converts both sides to BIGINT */
    {"5.5 DIV 2", 0, "2", ISSUE},
    {"d DIV 2", 12, "2", ISSUE " (DOUBLE column DIV)"},
    {"'7' DIV 2", 0, "3", ISSUE " (string DIV)"},
    {"v DIV 2", 17, "3", ISSUE " (string '7.9' DIV)"},
    {"-7 DIV 2", 0, "-3", "UDFOPLongDivide: Java long division"},
    {"7 DIV 0", 0, HREF_UNKNOWN, "UDFOPLongDivide throws ArithmeticException"},

    /* NaN and signed zero */
    {"d = 0", 7, "false", ISSUE},
    {"d BETWEEN -1 AND 1", 7, "false", ISSUE},
    {"d <> 0", 7, "true", ISSUE},
    {"d > 0", 7, HREF_MODE, "ObjectInspectorUtils.compare vs DoubleColGreaterDoubleScalar"},
    {"d = d", 7, HREF_MODE, "Double.compare vs IEEE =="},
    {"d NOT BETWEEN -1 AND 1", 7, HREF_MODE, "GenericUDFBetween vs vectorized NOT BETWEEN"},
    {"CAST('NaN' AS DOUBLE) = CAST('NaN' AS DOUBLE)", 0, "true",
     "constant folding: ObjectInspectorUtils.compare (Double.compare)"},
    {"CAST('NaN' AS DOUBLE) > CAST('Infinity' AS DOUBLE)", 0, "true",
     "constant folding: Double.compare puts NaN last"},
    {"d = 0", 10, "true", "ObjectInspectorUtils.compare: -0.0 = 0.0"},
    {"d < 0", 10, "false", "ObjectInspectorUtils.compare: -0.0 = 0.0"},
    {"d BETWEEN 0 AND 1", 10, "true", "ObjectInspectorUtils.compare: -0.0 = 0.0"},
    {"CAST(d AS BOOLEAN)", 7, "true", "UDFToBoolean(DoubleWritable): NaN != 0"},

    /* CHAR(n) padding */
    {"c", 11, "ab   ", "LazyUtils.writePrimitiveUTF8: getPaddedValue"},
    {"length(c)", 11, "2", ISSUE},
    {"concat(c, '|')", 11, "ab|", ISSUE},
    {"c || '|'", 11, "ab|", ISSUE},
    {"CAST(c AS STRING)", 11, "ab", ISSUE},
    {"upper(c)", 11, "AB", ISSUE},
    {"c LIKE '%b'", 11, "true", ISSUE},
    {"c = 'ab'", 11, "true", "HiveChar comparison ignores padding"},
    {"c = 'ab   '", 11, "true", "interpretConstantAsPrimitive: constant becomes CHAR(5)"},
    {"concat(c, c)", 11, "abab", "GenericUDFConcat: CHAR values without padding"},
    {"upper(c)", 13, "SS", "GenericUDFUpper: CHAR result keeps the unpadded text"},
    {"CAST('ab' AS CHAR(4))", 0, "ab  ", "GenericUDFToChar pads"},
    {"length(CAST('ab' AS CHAR(4)))", 0, "2", "GenericUDFLength: CHAR length without padding"},
    {"CAST('abcdef' AS VARCHAR(3))", 0, "abc", "GenericUDFToVarchar cuts"},
    {"CASE c WHEN 'ab' THEN 'yes' ELSE 'no' END", 11, "yes", "GenericUDFCase: CHAR as STRING"},

    /* casts from strings and doubles */
    {"CAST('1.5' AS INT)", 0, "1", ISSUE},
    {"CAST('2147483648' AS INT)", 0, "NULL", ISSUE},
    {"CAST('300' AS TINYINT)", 0, "NULL", ISSUE},
    {"CAST('  ' AS DOUBLE)", 0, "NULL", ISSUE},
    {"CAST('inf' AS DOUBLE)", 0, "NULL", ISSUE},
    {"CAST('1d' AS DOUBLE)", 0, "1.0", ISSUE},
    {"CAST(3e9 AS INT)", 0, "2147483647", ISSUE},
    {"CAST(1e300 AS BIGINT)", 0, "9223372036854775807", ISSUE},
    {"CAST(d AS INT)", 7, "0", ISSUE},
    {"CAST(d AS BIGINT)", 7, "0", ISSUE},
    {"CAST(-3e9 AS INT)", 0, "-2147483648", "UDFToInteger: Java (int) saturates"},
    {"CAST(300e0 AS TINYINT)", 0, "44", "UDFToByte: (byte) d is (byte)(int) d"},
    {"CAST(1e10 AS TINYINT)", 0, "-1", "UDFToByte: (byte)(int) 1e10 = (byte) 2147483647"},
    {"CAST(-1e10 AS SMALLINT)", 0, "0", "UDFToShort: (short)(int) -1e10"},
    {"CAST(70000e0 AS SMALLINT)", 0, "4464", "UDFToShort: (short) 70000"},
    {"CAST(300 AS TINYINT)", 0, "44", "UDFToByte(IntWritable): (byte)"},
    {"CAST(i AS SMALLINT)", 7, "0", "UDFToShort(IntWritable): (short) 65536"},
    {"CAST(' 12 ' AS INT)", 0, "12", "LazyInteger.parseInt(trim=true)"},
    {"CAST('7.' AS INT)", 0, "7", "LazyInteger: a fraction is dropped"},
    {"CAST('1e3' AS INT)", 0, "NULL", "LazyInteger: no exponent"},
    {"CAST('9223372036854775808' AS BIGINT)", 0, "NULL", "LazyLong: overflow"},
    {"CAST(' 12 ' AS DOUBLE)", 0, "12.0", "Double.valueOf trims"},
    {"CAST('NaN' AS DOUBLE)", 0, "NaN", "Double.valueOf"},
    {"CAST('false' AS BOOLEAN)", 0, "false", ISSUE},
    {"CAST('OFF' AS BOOLEAN)", 0, "false", ISSUE},
    {"CAST('No' AS BOOLEAN)", 0, "false", ISSUE},
    {"CAST('0' AS BOOLEAN)", 0, "false", ISSUE},
    {"CAST('' AS BOOLEAN)", 0, "false", ISSUE},
    {"CAST('yes' AS BOOLEAN)", 0, "true", ISSUE},
    {"CAST(c AS BOOLEAN)", 21, "false", ISSUE " (CHAR 'no' without padding)"},
    {"CAST(TRUE AS STRING)", 0, "TRUE", ISSUE},
    {"CAST(FALSE AS STRING)", 0, "FALSE", ISSUE},
    {"CAST(b AS STRING)", 3, "TRUE", ISSUE},

    /* FLOAT stays FLOAT */
    {"f * 2", 11, "0.2", ISSUE},
    {"abs(f)", 11, "0.10000000149011612", ISSUE " (abs(float) is DOUBLE)"},
    {"f + 1", 11, "1.1", "GenericUDFBaseNumeric: FLOAT op INT is FLOAT"},
    {"f * 2L", 11, "0.2", "GenericUDFBaseNumeric: FLOAT op BIGINT is FLOAT"},
    {"f * 2.0e0", 11, "0.20000000298023224", "GenericUDFBaseNumeric: FLOAT op DOUBLE"},
    {"f / 2", 11, "0.05000000074505806", "GenericUDFOPDivide: DOUBLE"},
    {"f + i", 13, "3.3554432E7", "FLOAT op INT in float"},
    {"i = f", 13, "true", "getCommonClassForComparison(int, float) = float"},
    {"f = 0.1e0", 11, "true", "interpretConstantAsPrimitive: Float.valueOf(\"0.1\")"},
    {"(f + 0) = 0.1e0", 11, "false", "FLOAT vs DOUBLE compares as DOUBLE"},
    {"CAST(f AS DOUBLE)", 11, "0.10000000149011612", "float widened"},
    {"CAST(d AS FLOAT)", 11, "0.1", "UDFToFloat"},

    /* text */
    {"upper('héllo ß')", 0, "HÉLLO SS", ISSUE},
    {"lower('ÄÖÜ')", 0, "äöü", "Java toLowerCase"},
    {"upper(s)", 15, "STRASSE", "Java toUpperCase"},
    {"upper(v)", 13, "HÉLLO", "GenericUDFUpper: VARCHAR(5)"},
    {"'日本' LIKE '__'", 0, "true", ISSUE},
    {"length('日本')", 0, "2", "GenericUDFLength counts characters"},
    {"s LIKE 'h_llo%'", 13, "true", "UDFLike: _ is one character"},
    {"s LIKE '_'", 20, "false", "UDFLike"},
    {"s LIKE '%'", 20, "true", "UDFLike"},
    {"concat(s, i)", 3, "11", "GenericUDFConcat: numbers as text"},
    {"concat(f, '|')", 11, "0.1|", "GenericUDFConcat: Float.toString"},
    {"trim(v)", 16, "7", "GenericUDFTrim"},

    /* literals and integer arithmetic */
    {"-2147483648 * 2", 0, "-4294967296", ISSUE},
    {"-2147483648", 0, "-2147483648", "negative(2147483648L)"},
    {"2147483647 + 1", 0, "-2147483648", ISSUE " (Java int wraps)"},
    {"127Y + 1Y", 0, "-128", "GenericUDFOPPlus: TINYINT wraps as a byte"},
    {"ti * ti", 5, "1", "TINYINT 127 * 127 wraps"},
    {"si + si", 5, "-2", "SMALLINT wraps"},
    {"i * 2", 5, "-2", "INT wraps"},
    {"bi + 1", 5, "-9223372036854775808", "BIGINT wraps"},
    {"128Y", 0, HREF_REJECT, "Byte.valueOf(\"128\") fails"},
    {"1.5", 0, HREF_EXCLUDE, "DECIMAL literal"},

    /* abs */
    {"abs('-3')", 0, "3.0", ISSUE},
    {"abs(ti)", 6, "128", "GenericUDFAbs: TINYINT -> INT"},
    {"abs(i)", 6, "-2147483648", "Math.abs(Integer.MIN_VALUE)"},
    {"abs(v)", 2, HREF_REJECT, "GenericUDFAbs: VARCHAR not accepted"},
    {"abs(s)", 13, HREF_UNKNOWN, "GenericUDFAbs: NULL from the converter"},

    /* printing */
    {"4.9E-324", 0, "4.9E-324", ISSUE},
    {"CAST('1.4E-45' AS FLOAT)", 0, "1.4E-45", ISSUE},
    {"1e7", 0, "1.0E7", "Double.toString"},
    {"0.001e0", 0, "0.001", "Double.toString"},
    {"0.1e0 + 0.2e0", 0, "0.30000000000000004", "Double.toString"},
    {"f", 13, "1.6777216E7", "Float.toString"},
    {"d", 5, "1.7976931348623157E308", "Double.toString"},
    {"TRUE", 0, "true", "LazySimpleSerDe"},

    /* division, remainder, comparisons of text with numbers */
    {"1 / 0", 0, "NULL", ISSUE},
    {"1 % 0", 0, "NULL", ISSUE},
    {"7 / 2", 0, "3.5", ISSUE},
    {"1.5e0 % 0", 0, "NULL", "GenericUDFOPMod"},
    {"-7 % 2", 0, "-1", "Java %"},
    {"d / 0", 3, "NULL", "GenericUDFOPDivide"},
    {"d / -0.0e0", 3, "NULL", "GenericUDFOPDivide: -0.0 == 0.0"},
    {"d % 2", 12, "1.5", "Java % on doubles"},
    {"'10' > 9", 0, "true", ISSUE},
    {"'abc' = 0", 0, "NULL", "DoubleConverter: NULL for text that is not a number"},
    {"'abc' <=> 0", 0, "NULL", "GenericUDFOPEqualNS defers to GenericUDFOPEqual: NULL"},
    {"-(127)", 0, "-127", "negative(127)"},
    {"(2147483648) * 2", 0, "4294967296", "BIGINT literal in parentheses"},
    {"s = 1000", 17, "true", ISSUE " (s = '1e3' compared as double)"},
    {"bi = '9007199254740992'", 13, "false", "interpretConstantAsPrimitive: exact BIGINT"},
    {"(bi + 0) = '9007199254740992'", 13, "true", "BIGINT vs string compares as DOUBLE"},

    /* IN */
    {"ti IN (1, 300)", 3, "true", "GenericUDFIn"},
    {"ti IN (300)", 1, "false", "TypeCheckProcFactory: no constant left is FALSE"},
    {"ti NOT IN (300)", 1, "true", "TypeCheckProcFactory: no constant left is FALSE"},
    {"(ti + 0) IN (300)", 1, "NULL", "GenericUDFIn: NULL in, NULL out"},
    {"c IN ('ab   ')", 11, "true", "HiveChar"},
    {"d IN (0)", 2, HREF_UNKNOWN, "HashSet of DoubleWritable vs compare"},

    /* CASE, IF, COALESCE */
    {"CASE WHEN b THEN 1 ELSE 2.5e0 END", 3, "1.0", "getCommonClass(int, double)"},
    {"COALESCE(ti, 'x')", 1, "x", "getCommonClass(tinyint, string) = string"},
    {"COALESCE(ti, 'x')", 3, "1", "getCommonClass(tinyint, string) = string"},
    {"IF(NOT b, f, d)", 11, "0.10000000149011612", "getCommonClass(float, double)"},
    {"NVL(s, 1)", 1, "1", "GenericUDFCoalesce"},
    {"1 BETWEEN NULL AND 0", 0, HREF_UNKNOWN, "GenericUDFBetween vs SQL NULL logic"},
};

const int href_n_cases = (int)(sizeof href_cases / sizeof href_cases[0]);
