/*
 * ddl_funcdoc.c - what DESCRIBE FUNCTION says of each function SHOW
 * FUNCTIONS lists: its call form and one sentence (comb's own words on
 * Hive's semantics), in Hive's layout `name(args) - text`.  Names that are
 * synonyms share an entry.  tests/sql/functions/describe_function.sql checks
 * that every listed name has one.
 */
#include "sql/sql_int.h"

#include <strings.h>
#include <string.h>

#include "sql/ddl/ddl_int.h"

/* names: '|' between synonyms; usage: _FUNC_ stands for the name asked */
static const SqlFuncDoc docs[] = {
    /* operators and forms */
    {"!|not", "_FUNC_ a", "Logical not: TRUE for FALSE, FALSE for TRUE, NULL for NULL"},
    {"!=|<>", "a _FUNC_ b", "TRUE when a differs from b, NULL when either is NULL"},
    {"%", "a _FUNC_ b", "The remainder of a divided by b, with the sign of a"},
    {"*", "a _FUNC_ b", "a multiplied by b"},
    {"+", "a _FUNC_ b", "a plus b"},
    {"-", "a _FUNC_ b", "a minus b"},
    {"/", "a _FUNC_ b", "a divided by b as a double (or decimal); NULL when b is 0"},
    {"<", "a _FUNC_ b", "TRUE when a is less than b, NULL when either is NULL"},
    {"<=", "a _FUNC_ b", "TRUE when a is at most b, NULL when either is NULL"},
    {"<=>", "a _FUNC_ b", "Equality that treats two NULLs as equal and never yields NULL"},
    {"=|==", "a _FUNC_ b", "TRUE when a equals b, NULL when either is NULL"},
    {">", "a _FUNC_ b", "TRUE when a is greater than b, NULL when either is NULL"},
    {">=", "a _FUNC_ b", "TRUE when a is at least b, NULL when either is NULL"},
    {"and", "a _FUNC_ b", "Logical and in three-valued logic: FALSE wins over NULL"},
    {"or", "a _FUNC_ b", "Logical or in three-valued logic: TRUE wins over NULL"},
    {"div", "a _FUNC_ b", "The integer part of a divided by b"},
    {"between", "a [NOT] _FUNC_ lo AND hi", "TRUE when lo <= a <= hi"},
    {"in", "a [NOT] _FUNC_ (v1, v2, ...)", "TRUE when a equals one of the values; NULL when no value matches and one is NULL"},
    {"like", "str _FUNC_ pattern", "TRUE when str matches the SQL pattern: % any characters, _ one character"},
    {"rlike|regexp", "str _FUNC_ regex", "TRUE when a part of str matches the Java-style regular expression"},
    {"case", "CASE a WHEN b THEN c [WHEN d THEN e]* [ELSE f] END", "The result of the first WHEN that equals a (or is TRUE without a), else f or NULL"},
    {"when", "CASE WHEN a THEN b [WHEN c THEN d]* [ELSE e] END", "The result of the first condition that is TRUE, else e or NULL"},
    {"if", "_FUNC_(cond, a, b)", "a when cond is TRUE, else b"},
    {"index", "_FUNC_(a, n)", "Element n of array a (from 0) or the value of key n in map a"},
    {"array", "_FUNC_(v1, v2, ...)", "An array of the values"},
    {"map", "_FUNC_(k1, v1, k2, v2, ...)", "A map of the key / value pairs"},
    {"struct", "_FUNC_(v1, v2, ...)", "A struct with fields col1, col2, ... holding the values"},
    {"named_struct", "_FUNC_(name1, v1, name2, v2, ...)", "A struct with the given field names and values"},
    {"size", "_FUNC_(a)", "The number of elements of an array or map; -1 for NULL"},
    {"current_date", "_FUNC_()", "The date the statement started, in the session time zone"},
    {"current_timestamp", "_FUNC_()", "The time the statement started, in the session time zone"},
    {"current_user", "_FUNC_()", "The session's user name"},
    {"current_database", "_FUNC_()", "The session's current database"},
    /* math */
    {"abs", "_FUNC_(x)", "The absolute value of x"},
    {"acos", "_FUNC_(x)", "The arc cosine of x in radians; NULL outside [-1, 1]"},
    {"asin", "_FUNC_(x)", "The arc sine of x in radians; NULL outside [-1, 1]"},
    {"atan", "_FUNC_(x)", "The arc tangent of x in radians"},
    {"cos", "_FUNC_(x)", "The cosine of x (radians)"},
    {"sin", "_FUNC_(x)", "The sine of x (radians)"},
    {"tan", "_FUNC_(x)", "The tangent of x (radians)"},
    {"degrees", "_FUNC_(x)", "x radians in degrees"},
    {"radians", "_FUNC_(x)", "x degrees in radians"},
    {"bin", "_FUNC_(n)", "The binary digits of the integer n"},
    {"hex", "_FUNC_(x)", "x in hexadecimal: an integer's digits, or each byte of a string"},
    {"unhex", "_FUNC_(str)", "The bytes whose hexadecimal digits str holds"},
    {"conv", "_FUNC_(num, from_base, to_base)", "num, written in base from_base, written in base to_base"},
    {"bround", "_FUNC_(x[, d])", "x rounded to d decimal places, halves to the even neighbour"},
    {"round", "_FUNC_(x[, d])", "x rounded to d decimal places (default 0), halves away from zero"},
    {"cbrt", "_FUNC_(x)", "The cube root of x"},
    {"sqrt", "_FUNC_(x)", "The square root of x; NULL for a negative x"},
    {"ceil|ceiling", "_FUNC_(x)", "The smallest integer not less than x"},
    {"floor", "_FUNC_(x)", "The largest integer not greater than x"},
    {"e", "_FUNC_()", "Euler's number e"},
    {"pi", "_FUNC_()", "The number pi"},
    {"exp", "_FUNC_(x)", "e raised to the power x"},
    {"ln", "_FUNC_(x)", "The natural logarithm of x; NULL for x <= 0"},
    {"log", "_FUNC_(base, x)", "The logarithm of x to base; NULL for non-positive arguments"},
    {"log10", "_FUNC_(x)", "The base-10 logarithm of x"},
    {"log2", "_FUNC_(x)", "The base-2 logarithm of x"},
    {"pow|power", "_FUNC_(x, p)", "x raised to the power p"},
    {"factorial", "_FUNC_(n)", "n! for n in 0..20, else NULL"},
    {"pmod", "_FUNC_(a, b)", "The positive remainder of a divided by b"},
    {"negative", "_FUNC_(x)", "-x"},
    {"positive", "_FUNC_(x)", "x"},
    {"sign", "_FUNC_(x)", "-1, 0 or 1 as x is negative, zero or positive"},
    {"rand", "_FUNC_([seed])", "A random double in [0, 1), repeatable with a seed"},
    {"greatest", "_FUNC_(v1, v2, ...)", "The largest of the values; NULL if one is NULL"},
    {"least", "_FUNC_(v1, v2, ...)", "The smallest of the values; NULL if one is NULL"},
    {"width_bucket", "_FUNC_(x, lo, hi, n)", "Which of n equal buckets between lo and hi x falls in (0 below, n + 1 above)"},
    /* strings */
    {"ascii", "_FUNC_(str)", "The code of the first character of str"},
    {"chr", "_FUNC_(n)", "The character with code n"},
    {"base64", "_FUNC_(bin)", "bin encoded in base 64"},
    {"unbase64", "_FUNC_(str)", "The bytes that base-64 text str encodes"},
    {"char_length|character_length|length", "_FUNC_(str)", "The number of characters of str"},
    {"octet_length", "_FUNC_(str)", "The number of bytes of str"},
    {"concat", "_FUNC_(str1, str2, ...)", "The strings joined; NULL if one is NULL"},
    {"concat_ws", "_FUNC_(sep, str1, str2, ...)", "The non-NULL strings (or array elements) joined with sep between"},
    {"elt", "_FUNC_(n, str1, str2, ...)", "The n-th string (from 1); NULL out of range"},
    {"field", "_FUNC_(v, v1, v2, ...)", "The position of v among v1, v2, ... (from 1), 0 if absent"},
    {"find_in_set", "_FUNC_(str, list)", "The position of str in the comma-separated list (from 1), 0 if absent"},
    {"format_number", "_FUNC_(x, d)", "x with thousands separators and d decimal places"},
    {"initcap", "_FUNC_(str)", "str with the first letter of each word upper case and the others lower case"},
    {"instr", "_FUNC_(str, sub)", "The position of the first sub in str (from 1), 0 if absent"},
    {"locate", "_FUNC_(sub, str[, pos])", "The position of the first sub in str at or after pos (from 1), 0 if absent"},
    {"lower|lcase", "_FUNC_(str)", "str with all characters changed to lower case"},
    {"upper|ucase", "_FUNC_(str)", "str with all characters changed to upper case"},
    {"lpad", "_FUNC_(str, len, pad)", "str padded on the left with pad to len characters (or cut to len)"},
    {"rpad", "_FUNC_(str, len, pad)", "str padded on the right with pad to len characters (or cut to len)"},
    {"ltrim", "_FUNC_(str)", "str without its leading spaces"},
    {"rtrim", "_FUNC_(str)", "str without its trailing spaces"},
    {"trim", "_FUNC_(str)", "str without its leading and trailing spaces"},
    {"levenshtein", "_FUNC_(str1, str2)", "The edit distance between the two strings"},
    {"md5", "_FUNC_(str)", "The MD5 digest of str as 32 hexadecimal digits"},
    {"sha|sha1", "_FUNC_(str)", "The SHA-1 digest of str as 40 hexadecimal digits"},
    {"sha2", "_FUNC_(str, bits)", "The SHA-2 digest (bits 224, 256, 384 or 512) of str in hexadecimal"},
    {"crc32", "_FUNC_(str)", "The CRC-32 checksum of str as a bigint"},
    {"printf", "_FUNC_(format, v1, v2, ...)", "The values formatted by a printf-style format string"},
    {"regexp_extract", "_FUNC_(str, regex[, group])", "The text of group (default 1) of the first match of regex in str"},
    {"regexp_replace", "_FUNC_(str, regex, rep)", "str with every match of regex replaced by rep"},
    {"repeat", "_FUNC_(str, n)", "str repeated n times"},
    {"replace", "_FUNC_(str, search, rep)", "str with every occurrence of search replaced by rep"},
    {"reverse", "_FUNC_(str)", "str with its characters in reverse order"},
    {"soundex", "_FUNC_(str)", "The Soundex code of str"},
    {"space", "_FUNC_(n)", "A string of n spaces"},
    {"split", "_FUNC_(str, regex)", "The array of the parts of str between matches of regex"},
    {"str_to_map", "_FUNC_(text[, pair_sep, kv_sep])", "A map from text split into pairs (default ',') and keys and values (default ':')"},
    {"substr|substring", "_FUNC_(str, pos[, len])", "The part of str from pos (from 1; negative counts from the end), len characters long"},
    {"substring_index", "_FUNC_(str, delim, n)", "str up to the n-th delim (from the end for a negative n)"},
    {"translate", "_FUNC_(str, from, to)", "str with each character of from replaced by the one at its position in to, or removed"},
    /* dates and times */
    {"add_months", "_FUNC_(date, n)", "The date n months after date (the last day of the month stays the last day)"},
    {"date_add", "_FUNC_(date, n)", "The date n days after date"},
    {"date_sub", "_FUNC_(date, n)", "The date n days before date"},
    {"datediff", "_FUNC_(date1, date2)", "The number of days from date2 to date1"},
    {"date_format", "_FUNC_(ts, format)", "ts written with a Java-style date pattern"},
    {"day|dayofmonth", "_FUNC_(date)", "The day of the month of date"},
    {"dayofweek", "_FUNC_(date)", "The day of the week of date, 1 for Sunday to 7 for Saturday"},
    {"hour", "_FUNC_(ts)", "The hour of ts"},
    {"minute", "_FUNC_(ts)", "The minute of ts"},
    {"second", "_FUNC_(ts)", "The second of ts"},
    {"month", "_FUNC_(date)", "The month of date"},
    {"quarter", "_FUNC_(date)", "The quarter of the year of date, 1 to 4"},
    {"year", "_FUNC_(date)", "The year of date"},
    {"weekofyear", "_FUNC_(date)", "The ISO week of the year of date"},
    {"last_day", "_FUNC_(date)", "The last day of the month of date"},
    {"next_day", "_FUNC_(date, day_of_week)", "The first date after date that falls on the named day of the week"},
    {"months_between", "_FUNC_(date1, date2)", "The number of months from date2 to date1, with a fraction of 31-day months"},
    {"trunc", "_FUNC_(date, unit)", "date cut to the start of its year, quarter, month or week"},
    {"to_date", "_FUNC_(ts)", "The date part of ts"},
    {"from_unixtime", "_FUNC_(seconds[, format])", "The local time of seconds since 1970 UTC, as text"},
    {"unix_timestamp|to_unix_timestamp", "_FUNC_([ts[, format]])", "Seconds since 1970 UTC of ts read in the session time zone (now without arguments)"},
    {"from_utc_timestamp", "_FUNC_(ts, zone)", "ts read as UTC, shown as the time in zone"},
    {"to_utc_timestamp", "_FUNC_(ts, zone)", "ts read as a time in zone, shown as UTC"},
    /* conditional and misc */
    {"assert_true", "_FUNC_(cond)", "NULL when cond is TRUE, else the statement fails"},
    {"coalesce", "_FUNC_(v1, v2, ...)", "The first value that is not NULL"},
    {"nvl", "_FUNC_(v, default)", "default when v is NULL, else v"},
    {"nullif", "_FUNC_(a, b)", "NULL when a equals b, else a"},
    {"isnull", "_FUNC_(v)", "TRUE when v is NULL"},
    {"isnotnull", "_FUNC_(v)", "TRUE when v is not NULL"},
    {"hash", "_FUNC_(v1, v2, ...)", "Hive's hash code of the values"},
    {"murmur_hash", "_FUNC_(v1, v2, ...)", "The Murmur3 hash of the values"},
    /* collections */
    {"array_contains", "_FUNC_(arr, v)", "TRUE when the array holds v"},
    {"map_keys", "_FUNC_(m)", "The array of the keys of map m"},
    {"map_values", "_FUNC_(m)", "The array of the values of map m"},
    {"sort_array", "_FUNC_(arr[, ascending])", "The elements of arr in ascending (or descending) order"},
    /* table functions */
    {"explode", "_FUNC_(a)", "A row per element of array a, or per key / value of map a"},
    {"posexplode", "_FUNC_(arr)", "A row per element of arr with its position (from 0)"},
    {"inline", "_FUNC_(arr)", "A row per struct of arr, a column per field"},
    {"stack", "_FUNC_(n, v1, v2, ...)", "The values as n rows"},
    /* aggregates */
    {"avg", "_FUNC_(x)", "The mean of the non-NULL values of x"},
    {"count", "_FUNC_(*) | _FUNC_([DISTINCT] x, ...)", "The number of rows, or of rows whose arguments are all non-NULL"},
    {"sum", "_FUNC_(x)", "The sum of the non-NULL values of x"},
    {"min", "_FUNC_(x)", "The smallest value of x"},
    {"max", "_FUNC_(x)", "The largest value of x"},
    {"collect_list", "_FUNC_(x)", "The array of the non-NULL values of x, duplicates kept"},
    {"collect_set", "_FUNC_(x)", "The array of the distinct non-NULL values of x"},
    {"corr", "_FUNC_(y, x)", "The Pearson correlation coefficient of the pairs without NULLs"},
    {"covar_pop", "_FUNC_(y, x)", "The population covariance of the pairs without NULLs"},
    {"covar_samp", "_FUNC_(y, x)", "The sample covariance of the pairs without NULLs"},
    {"percentile", "_FUNC_(x, p)", "The exact p-th percentile (or array of them) of integer values x"},
    {"percentile_approx", "_FUNC_(x, p[, accuracy])", "An approximate p-th percentile (or array of them) of x"},
    {"std|stddev|stddev_pop", "_FUNC_(x)", "The population standard deviation of x"},
    {"stddev_samp", "_FUNC_(x)", "The sample standard deviation of x"},
    {"variance|var_pop", "_FUNC_(x)", "The population variance of x"},
    {"var_samp", "_FUNC_(x)", "The sample variance of x"},
    /* window functions */
    {"row_number", "_FUNC_() OVER (...)", "The number of the row in its partition, from 1"},
    {"rank", "_FUNC_() OVER (...)", "The rank of the row in its partition, with gaps after ties"},
    {"dense_rank", "_FUNC_() OVER (...)", "The rank of the row in its partition, without gaps after ties"},
    {"percent_rank", "_FUNC_() OVER (...)", "(rank - 1) / (rows of the partition - 1)"},
    {"cume_dist", "_FUNC_() OVER (...)", "The fraction of the partition's rows ordered at or before the row"},
    {"ntile", "_FUNC_(n) OVER (...)", "Which of n nearly equal groups of its partition the row is in"},
    {"lag", "_FUNC_(x[, n[, default]]) OVER (...)", "x of the row n (default 1) rows before, or default"},
    {"lead", "_FUNC_(x[, n[, default]]) OVER (...)", "x of the row n (default 1) rows after, or default"},
    {"first_value", "_FUNC_(x[, skip_nulls]) OVER (...)", "x of the first row of the frame"},
    {"last_value", "_FUNC_(x[, skip_nulls]) OVER (...)", "x of the last row of the frame"},
    {NULL, NULL, NULL},
};

/* Does the '|'-list names hold name (any case)? */
static bool names_hold(const char *names, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = names; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
        const char *end = strchr(p, '|');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncasecmp(p, name, n) == 0)
            return true;
    }
    return false;
}

const SqlFuncDoc *sql_func_doc(const char *name)
{
    for (int i = 0; docs[i].names; i++)
        if (names_hold(docs[i].names, name))
            return &docs[i];
    return NULL;
}
