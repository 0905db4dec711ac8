/* Reading text files field by field as Hive's lazy objects do (text.h):
 * every primitive type with its malformed inputs, short and long rows,
 * empty lines, NULL formats, complex values and their separators. */
#include "text_test.h"
#include "unit.h"

#define F "\001" /* default separators of levels 0..4 */
#define C "\002"
#define K "\003"
#define L4 "\004"

/* The single field `field` read as a column of `type`. */
static const char *one(CombArena *a, const char *type, const char *field)
{
    TextOptions o;
    char schema[256];
    const char *path = tt_text_file(
        a, "one.txt", comb_arena_printf(a, "%s\n", field)), *got;
    size_t n;
    text_options_default(&o);
    snprintf(schema, sizeof schema, "struct<c:%s>", type);
    got = tt_read(a, path, &o, schema, 0);
    n = strlen(got);
    /* one line in, one row out: drop the row's '\n' */
    return n > 0 && got[n - 1] == '\n' ? comb_arena_strndup(a, got, n - 1)
                                       : got;
}

typedef struct Case {
    const char *type, *field, *want;
} Case;

static void check_cases(const Case *cases, size_t n)
{
    CombArena a;
    comb_arena_init(&a, 4096);
    for (size_t i = 0; i < n; i++) {
        const char *got = one(&a, cases[i].type, cases[i].field);
        if (strcmp(got, cases[i].want) != 0) {
            unit_fail(__FILE__, __LINE__, "%s field \"%s\": got %s, want %s",
                      cases[i].type, cases[i].field, got, cases[i].want);
            break;
        }
    }
    comb_arena_free(&a);
}

TEST(text_read_integers_like_lazy_integer)
{
    static const Case cases[] = {
        {"int", "42", "42"},           {"int", "+5", "5"},
        {"int", "-0", "0"},            {"int", "4.7", "4"},
        {"int", "-4.7", "-4"},         {"int", ".5", "0"},
        {"int", "5.", "5"},            {"int", "1.2.3", "N"},
        {"int", " 42", "N"},           {"int", "42 ", "N"},
        {"int", "1e3", "N"},           {"int", "0x1", "N"},
        {"int", "", "N"},              {"int", "-", "N"},
        {"int", "\\N", "N"},           {"int", "NULL", "N"},
        {"int", "2147483647", "2147483647"},
        {"int", "2147483648", "N"},
        {"int", "-2147483648", "-2147483648"},
        {"tinyint", "127", "127"},     {"tinyint", "128", "N"},
        {"tinyint", "-128", "-128"},   {"tinyint", "-129", "N"},
        {"smallint", "32767", "32767"}, {"smallint", "32768", "N"},
        {"smallint", "-32768.9", "-32768"},
        {"bigint", "9223372036854775807", "9223372036854775807"},
        {"bigint", "-9223372036854775808", "-9223372036854775808"},
        {"bigint", "9223372036854775808", "N"},
        {"bigint", "123456789012345678901234", "N"},
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

TEST(text_read_boolean_float_double)
{
    static const Case cases[] = {
        {"boolean", "true", "true"},    {"boolean", "TRUE", "true"},
        {"boolean", "FaLsE", "false"},  {"boolean", "1", "N"},
        {"boolean", "t", "N"},          {"boolean", "yes", "N"},
        {"boolean", " true", "N"},      {"boolean", "", "N"},
        {"double", "1.5", "1.5"},       {"double", " 1.5 ", "1.5"},
        {"double", "1e10", "1.0E10"},   {"double", "-2.5E-3", "-0.0025"},
        {"double", "NaN", "NaN"},       {"double", "-Infinity", "-Infinity"},
        {"double", "1d", "1.0"},        {"double", "0x10p0", "16.0"},
        {"double", "1,5", "N"},         {"double", "abc", "N"},
        {"double", "inf", "N"},         {"double", "", "N"},
        {"double", " ", "N"},           {"double", "-0", "-0.0"},
        {"float", "0.1", "0.1"},        {"float", "3.4028235E38", "3.4028235E38"},
        {"float", "1e39", "Infinity"},  {"float", "1.00000005", "1.0"},
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

TEST(text_read_decimal_enforces_precision_and_scale)
{
    static const Case cases[] = {
        {"decimal(5,2)", "123.456", "123.46"},
        {"decimal(5,2)", "-1.005", "-1.01"},
        {"decimal(5,2)", "1.5", "1.50"},
        {"decimal(5,2)", " 1.5 ", "1.50"},
        {"decimal(5,2)", "1e2", "100.00"},
        {"decimal(5,2)", "999.99", "999.99"},
        {"decimal(5,2)", "999.995", "N"},
        {"decimal(5,2)", "1000", "N"},
        {"decimal(5,2)", "abc", "N"},
        {"decimal(5,2)", "", "N"},
        {"decimal(5,2)", "1.2.3", "N"},
        {"decimal(38,0)", "99999999999999999999999999999999999999",
         "99999999999999999999999999999999999999"},
        {"decimal(38,0)", "999999999999999999999999999999999999999", "N"},
        {"decimal(10,0)", "2.5", "3"},
        {"decimal(3,3)", "0.0005", "0.001"},
        {"decimal(3,3)", "1", "N"},
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

TEST(text_read_date_and_timestamp)
{
    static const Case cases[] = {
        {"date", "2021-02-28", "2021-02-28"},
        {"date", "2021-02-30", "N"},
        {"date", "2021-1-5", "2021-01-05"},
        {"date", "0001-01-01", "0001-01-01"},
        {"date", "9999-12-31", "9999-12-31"},
        {"date", "2021-01-05 10:20", "2021-01-05"},
        {"date", " 2021-01-05", "2021-01-05"},
        {"date", "21-1-5", "N"},
        {"date", "20210105", "N"},
        {"date", "", "N"},
        {"timestamp", "2021-01-05 10:20:30", "2021-01-05 10:20:30"},
        {"timestamp", "2021-01-05 10:20:30.123456789",
         "2021-01-05 10:20:30.123456789"},
        {"timestamp", "2021-01-05 10:20:30.100", "2021-01-05 10:20:30.1"},
        {"timestamp", "2021-01-05", "2021-01-05 00:00:00"},
        {"timestamp", "2021-01-05T10:20", "2021-01-05 10:20:00"},
        {"timestamp", "1969-12-31 23:59:59.999999999",
         "1969-12-31 23:59:59.999999999"},
        {"timestamp", "2021-01-05 25:00:00", "N"},
        {"timestamp", "2021-01-05 10:20", "N"},
        {"timestamp", "NULL", "N"},
        {"timestamp", "1234567", "N"},
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

TEST(text_read_strings_char_varchar_binary)
{
    static const Case cases[] = {
        {"string", "", "''"},
        {"string", "a\\b", "'a\\x5Cb'"},
        {"string", "caf\xC3\xA9", "'caf\\xC3\\xA9'"},
        {"string", "\xFF\xFE", "'\\xFF\\xFE'"},
        {"string", "\\N", "N"},
        {"varchar(3)", "abcd", "'abc'"},
        {"varchar(3)", "ab", "'ab'"},
        {"varchar(3)", "\xC3\xA9\xE2\x82\xACxy", "'\\xC3\\xA9\\xE2\\x82\\xACx'"},
        /* malformed UTF-8: U+FFFD as Java's decoder puts them */
        {"varchar(5)", "a\xFF" "b", "'a\\xEF\\xBF\\xBDb'"},
        {"varchar(5)", "\xE2\x82" "b", "'\\xEF\\xBF\\xBDb'"},
        {"varchar(5)", "b\xE2\x82", "'b\\xEF\\xBF\\xBD'"},
        {"varchar(5)", "\xC0\xAF", "'\\xEF\\xBF\\xBD\\xEF\\xBF\\xBD'"},
        {"varchar(5)", "\xE0\x9F\xBF", "'\\xEF\\xBF\\xBD\\xEF\\xBF\\xBD"
                                    "\\xEF\\xBF\\xBD'"},
        {"varchar(5)", "\xF0\x9F\x98" "b", "'\\xEF\\xBF\\xBDb'"},
        {"varchar(5)", "\xF5\x80", "'\\xEF\\xBF\\xBD\\xEF\\xBF\\xBD'"},
        {"varchar(2)", "\xED\xA0\x80xy", "'\\xEF\\xBF\\xBDx'"},
        {"varchar(3)", "\xED\xA0" "xy", "'\\xEF\\xBF\\xBDxy'"},
        {"varchar(3)", "\xED\x9F\xBF", "'\\xED\\x9F\\xBF'"},
        {"char(3)", "a", "'a  '"},
        {"char(3)", "abcd", "'abc'"},
        {"char(3)", "", "'   '"},
        {"char(2)", "\xC3\xA9", "'\\xC3\\xA9 '"},
        {"binary", "aGk=", "'hi'"},
        {"binary", "aGk", "'hi'"},
        {"binary", "hello", "'hello'"},
        {"binary", "abcd", "'i\\xB7\\x1D'"},
        {"binary", "aGk=\\", "'aGk=\\x5C'"},
        {"binary", "", "''"},
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

TEST(text_read_short_and_long_rows_and_empty_lines)
{
    CombArena a;
    TextOptions o;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    const char *p = tt_text_file(&a, "rows.txt",
                                 "x" F "1" F "y" F "extra" F "more\n"
                                 "only\n"
                                 "\n"
                                 "p" F "\n"
                                 F F "\n"
                                 "last" F "2");
    CHECK_STR(tt_read(&a, p, &o, "struct<a:string,b:int,c:string>", 0),
              "'x'|1|'y'\n"
              "'only'|N|N\n"
              "''|N|N\n"
              "'p'|N|N\n"
              "''|N|''\n"
              "'last'|2|N\n");
    /* the last column takes the rest, separators included */
    o = tt_opt("serialization.last.column.takes.rest", "TRUE");
    CHECK_STR(tt_read(&a, p, &o, "struct<a:string,b:int,c:string>", 0),
              "'x'|1|'y\\x01extra\\x01more'\n"
              "'only'|N|N\n"
              "''|N|N\n"
              "'p'|N|N\n"
              "''|N|''\n"
              "'last'|2|N\n");
    comb_arena_free(&a);
}

TEST(text_read_null_formats)
{
    CombArena a;
    TextOptions o;
    comb_arena_init(&a, 4096);
    const char *p = tt_text_file(&a, "nulls.txt",
                                 "\\N" F "\\N" F "a" C "\\N" C "b\n"
                                 "NULL" F "" F "\\N\n"
                                 F "7" F "\n");
    const char *schema = "struct<s:string,i:int,l:array<string>>";
    text_options_default(&o);
    CHECK_STR(tt_read(&a, p, &o, schema, 0),
              "N|N|['a',N,'b']\n"
              "'NULL'|N|N\n"
              "''|7|[]\n");
    o = tt_opt("serialization.null.format", "NULL");
    CHECK_STR(tt_read(&a, p, &o, schema, 0),
              "'\\x5CN'|N|['a','\\x5CN','b']\n"
              "N|N|['\\x5CN']\n"
              "''|7|[]\n");
    /* an empty marker: every empty field is NULL, strings too */
    o = tt_opt("serialization.null.format", "");
    CHECK_STR(tt_read(&a, p, &o, schema, 0),
              "'\\x5CN'|N|['a','\\x5CN','b']\n"
              "'NULL'|N|['\\x5CN']\n"
              "N|7|N\n");
    comb_arena_free(&a);
}

TEST(text_read_arrays_maps_structs_unions)
{
    static const Case cases[] = {
        {"array<int>", "1" C "2" C "x" C, "[1,2,N,N]"},
        {"array<int>", "", "[]"},
        {"array<string>", C, "['','']"},
        {"array<string>", "\\N", "N"},
        /* repeated keys keep the first value; NULL keys and keys that do
         * not read are dropped; no key separator: a NULL value */
        {"map<string,int>",
         "a" K "1" C "b" K "2" C "a" K "9" C "\\N" K "5" C "c",
         "{'a':1,'b':2,'c':N}"},
        {"map<int,string>", "x" K "y" C "1" K "z" C "1" K "w", "{1:'z'}"},
        {"map<string,string>", "k" K "v" K "w", "{'k':'v\\x03w'}"},
        {"map<string,int>", "", "{}"},
        {"map<double,int>", "1.0" K "1" C "1" K "2" C "NaN" K "3" C "NaN" K "4",
         "{1.0:1,NaN:3,NaN:4}"},
        {"struct<a:int,b:array<string>>", "5" C "p" K "q", "(5,['p','q'])"},
        {"struct<a:int,b:array<string>>", "5", "(5,N)"},
        {"struct<a:int,b:array<string>>", "", "(N,N)"},
        {"struct<a:int,b:int>", "1" C "2" C "3", "(1,2)"},
        {"uniontype<int,string>", "1" C "hello", "<1:'hello'>"},
        {"uniontype<int,string>", "0" C "42", "<0:42>"},
        {"uniontype<int,string>", "1" C "a" C "b", "<1:'a\\x02b'>"},
        {"uniontype<int,string>", "0" C "\\N", "<0:N>"},
        {"uniontype<int,string>", "2" C "x", "N"},
        {"uniontype<int,string>", "-1" C "x", "N"},
        {"uniontype<int,string>", "abc", "N"},
        {"uniontype<int,string>", "x" C "1", "N"},
        {"array<map<string,int>>", "a" L4 "1" K "b" L4 "2" C "c" L4 "3",
         "[{'a':1,'b':2},{'c':3}]"},
        {"map<string,array<int>>", "k" K "1" L4 "2" C "j" K, "{'k':[1,2],'j':[]}"},
        {"array<array<int>>", "1" K "2" C C "3", "[[1,2],[],[3]]"},
        {"array<struct<a:int,b:string>>", "1" K "x" C "\\N" C "2",
         "[(1,'x'),N,(2,N)]"},
        {"struct<a:struct<b:int,c:int>,d:int>", "1" K "2" C "3", "((1,2),3)"},
        {"array<uniontype<int,array<int>>>", "1" K "5" L4 "6" C "0" K "7",
         "[<1:[5,6]>,<0:7>]"},
    };
    check_cases(cases, sizeof cases / sizeof cases[0]);
}

/* Maps big enough for the hash table that finds repeated keys. */
TEST(text_read_big_map_repeats)
{
    CombArena a;
    CombBuf line = COMB_BUF_INIT, want = COMB_BUF_INIT;
    comb_arena_init(&a, 4096);
    /* keys 0..199 twice (the second value must lose), then key 7 again */
    for (int round = 0; round < 2; round++)
        for (int k = 0; k < 200; k++)
            comb_buf_printf(&line, "%s%d" K "%d", line.len ? C : "", k,
                            round * 1000 + k);
    comb_buf_printf(&line, C "7" K "-1");
    comb_buf_append_byte(&line, 0);
    comb_buf_append_byte(&want, '{');
    for (int k = 0; k < 200; k++)
        comb_buf_printf(&want, "%s%d:%d", k ? "," : "", k, k);
    comb_buf_append_str(&want, "}");
    comb_buf_append_byte(&want, 0);
    CHECK_STR(one(&a, "map<bigint,int>", (const char *)line.data),
              (const char *)want.data);
    comb_buf_free(&line);
    comb_buf_free(&want);
    comb_arena_free(&a);
}
