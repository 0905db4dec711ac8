/*
 * test_regex.c - the translation of java.util.regex patterns into PCRE2
 * patterns (func_regex.c): what differs is rewritten, what is the same is
 * left alone, what PCRE2 cannot express is refused with a reason.
 */
#include "unit.h"

#include <string.h>

#include "common/buf.h"
#include "sql/func/func_int.h"

/* The PCRE2 text of Java pattern j, or NULL (reason in why). */
static const char *translate(const char *j, char *out, size_t n, char *why)
{
    CombBuf b = COMB_BUF_INIT;
    int rc = sql_regex_translate(j, strlen(j), &b, why, 200);
    if (rc) {
        comb_buf_free(&b);
        return NULL;
    }
    snprintf(out, n, "%.*s", (int)b.len, b.data ? (const char *)b.data : "");
    comb_buf_free(&b);
    return out;
}

TEST(regex_java_syntax_kept_where_pcre2_agrees)
{
    char out[256], why[200];
    CHECK_STR(translate("a+b*(c|d)?\\d{2,3}$", out, sizeof out, why), "a+b*(c|d)?\\d{2,3}$");
    CHECK_STR(translate("(?<year>\\d{4})-(?i)x\\b", out, sizeof out, why), "(?<year>\\d{4})-(?i)x\\b");
    CHECK_STR(translate("\\p{L}\\P{Lu}\\pL", out, sizeof out, why), "\\p{L}\\P{Lu}\\pL");
    CHECK_STR(translate("", out, sizeof out, why), "");
}

TEST(regex_java_classes_and_escapes_rewritten)
{
    char out[256], why[200];
    CHECK_STR(translate("\\p{Alpha}", out, sizeof out, why), "[a-zA-Z]");
    CHECK_STR(translate("\\P{Digit}", out, sizeof out, why), "[^0-9]");
    CHECK_STR(translate("[\\p{Lower}_]", out, sizeof out, why), "[a-z_]");
    CHECK_STR(translate("\\p{javaLowerCase}", out, sizeof out, why), "[\\p{Ll}]");
    CHECK_STR(translate("\\p{IsLatin}\\p{IsL}", out, sizeof out, why), "\\p{Latin}\\p{L}");
    CHECK_STR(translate("\\u00e9", out, sizeof out, why), "\\x{00e9}");
    /* \Q...\E is copied untouched, escapes inside included */
    CHECK_STR(translate("\\Q\\p{Alpha}\\E\\p{Alpha}", out, sizeof out, why),
              "\\Q\\p{Alpha}\\E[a-zA-Z]");
    /* a ']' first in a class is a literal for Java */
    CHECK_STR(translate("[]a]", out, sizeof out, why), "[\\]a]");
    CHECK_STR(translate("[^]a]", out, sizeof out, why), "[^\\]a]");
}

TEST(regex_java_only_constructs_refused)
{
    char out[256], why[200];
    CHECK(translate("[a-z&&[^aeiou]]", out, sizeof out, why) == NULL);
    CHECK(strstr(why, "intersection") != NULL);
    CHECK(translate("\\p{InGreek}", out, sizeof out, why) == NULL);
    CHECK(strstr(why, "blocks") != NULL);
    CHECK(translate("\\p{Alpha", out, sizeof out, why) == NULL);
    /* && outside a class is two literal ampersands */
    CHECK_STR(translate("a&&b", out, sizeof out, why), "a&&b");
}
