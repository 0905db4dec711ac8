/* Partition names: Hive's path escaping both ways, names made from values
 * and values read back from names (MSCK's rules), the limits. */
#include "ms_fixture.h"
#include "common/arena.h"

#include <stdlib.h>

static MsColumn two_keys[] = {{"ds", "string", NULL}, {"Hr", "int", NULL}};

static MsTable keyed_table(void)
{
    MsTable t = {0};
    t.db = "default";
    t.name = "events";
    t.location = "/wh/events";
    t.n_part_keys = 2;
    t.part_keys = two_keys;
    return t;
}

/* escape(in) must be want. */
static void check_escape(CombArena *a, const char *in, const char *want)
{
    CombErr err;
    char *out = NULL;
    if (ms_path_escape(in, a, &out, &err) != COMB_OK || !out ||
        strcmp(out, want) != 0)
        unit_fail(__FILE__, __LINE__, "escape '%s': got '%s', want '%s'",
                  in ? in : "(null)", out ? out : "(error)", want);
}

TEST(ms_path_escape_hive_set)
{
    CombArena a;
    comb_arena_init(&a, 0);
    /* every character of Hive's list, and its neighbours that stay */
    check_escape(&a, "\"#%'*/:=?\\{[]^", "%22%23%25%27%2A%2F%3A%3D%3F%5C%7B%5B%5D%5E");
    check_escape(&a, "}-_.~ !$&()+,;<>@`|", "}-_.~ !$&()+,;<>@`|");
    check_escape(&a, "\x01\t\n\r\x1f\x7f", "%01%09%0A%0D%1F%7F");
    check_escape(&a, "Az09", "Az09");
    /* UTF-8 passes through, as Java leaves chars above 0x7F */
    check_escape(&a, "caf\xc3\xa9", "caf\xc3\xa9");
    check_escape(&a, NULL, MS_DEFAULT_PARTITION_NAME);
    check_escape(&a, "", MS_DEFAULT_PARTITION_NAME);
    /* nothing can climb out of the table directory */
    check_escape(&a, "../../etc", "..%2F..%2Fetc");
    check_escape(&a, "..", "..");
    comb_arena_free(&a);
}

static void check_unescape(CombArena *a, const char *in, const char *want)
{
    CombErr err;
    char *out = NULL;
    if (ms_path_unescape(in, a, &out, &err) != COMB_OK || !out ||
        strcmp(out, want) != 0)
        unit_fail(__FILE__, __LINE__, "unescape '%s': got '%s', want '%s'",
                  in, out ? out : err.msg, want);
}

TEST(ms_path_unescape_hive_rules)
{
    CombArena a;
    CombErr err;
    char *out;
    comb_arena_init(&a, 0);
    check_unescape(&a, "a%2Fb%3dc", "a/b=c");   /* either hex case */
    check_unescape(&a, "100%", "100%");          /* too short: kept */
    check_unescape(&a, "%4", "%4");
    check_unescape(&a, "x%41", "xA");            /* at the very end */
    check_unescape(&a, "%G1%1G", "%G1%1G");      /* not hex: kept */
    check_unescape(&a, "%%41", "%A");
    /* U+00XX as Java builds it: two UTF-8 bytes from 0x80 up */
    check_unescape(&a, "%E9", "\xc3\xa9");
    check_unescape(&a, "%C3%A9", "\xc3\x83\xc2\xa9");
    check_unescape(&a, MS_DEFAULT_PARTITION_NAME, MS_DEFAULT_PARTITION_NAME);
    CHECK_EQ(ms_path_unescape("a%00b", &a, &out, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "%00") != NULL);
    CHECK_EQ(ms_path_unescape(NULL, &a, &out, &err), COMB_EINVALID);
    comb_arena_free(&a);
}

TEST(ms_path_escape_round_trips_every_byte)
{
    CombArena a;
    CombErr err;
    char all[256], *esc, *back;
    comb_arena_init(&a, 0);
    for (int i = 1; i < 256; i++)
        all[i - 1] = (char)i;
    all[255] = '\0';
    CHECK_OK(ms_path_escape(all, &a, &esc, &err), &err);
    CHECK(strchr(esc, '/') == NULL);
    for (const char *p = esc; *p; p++)
        CHECK((unsigned char)*p >= 0x20 && *p != 0x7f);
    CHECK_OK(ms_path_unescape(esc, &a, &back, &err), &err);
    CHECK_STR(back, all);
    /* what looks escaped already is escaped again, and comes back */
    CHECK_OK(ms_path_escape("%41", &a, &esc, &err), &err);
    CHECK_STR(esc, "%2541");
    CHECK_OK(ms_path_unescape(esc, &a, &back, &err), &err);
    CHECK_STR(back, "%41");
    comb_arena_free(&a);
}

TEST(ms_part_name_make_cases)
{
    MsTable t = keyed_table(), plain = {0};
    CombArena a;
    CombErr err;
    char *name, *v[2];
    char long_value[300];
    comb_arena_init(&a, 0);
    v[0] = "2024-01-01";
    v[1] = "10";
    CHECK_OK(ms_part_name_make(&t, v, &a, &name, &err), &err);
    CHECK_STR(name, "ds=2024-01-01/hr=10"); /* keys lower-cased */
    v[0] = NULL;
    v[1] = "";
    CHECK_OK(ms_part_name_make(&t, v, &a, &name, &err), &err);
    CHECK_STR(name, "ds=__HIVE_DEFAULT_PARTITION__/hr=__HIVE_DEFAULT_"
                    "PARTITION__");
    v[0] = "a/b=c";
    v[1] = "..";
    CHECK_OK(ms_part_name_make(&t, v, &a, &name, &err), &err);
    CHECK_STR(name, "ds=a%2Fb%3Dc/hr=..");
    /* "ds=" plus 252 bytes is the longest directory name there is */
    memset(long_value, 'x', sizeof long_value);
    long_value[252] = '\0';
    v[0] = long_value;
    v[1] = "1";
    CHECK_OK(ms_part_name_make(&t, v, &a, &name, &err), &err);
    CHECK_EQ(strlen(name), 255 + strlen("/hr=1"));
    long_value[252] = 'x';
    long_value[253] = '\0';
    CHECK_EQ(ms_part_name_make(&t, v, &a, &name, &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "longer than 255 bytes") != NULL);
    /* escaping counts: 85 '/' become 255 bytes */
    memset(long_value, '/', 84);
    long_value[84] = '\0';
    CHECK_OK(ms_part_name_make(&t, v, &a, &name, &err), &err);
    long_value[84] = '/';
    long_value[85] = '\0';
    CHECK_EQ(ms_part_name_make(&t, v, &a, &name, &err), COMB_EINVALID);
    plain.db = "default";
    plain.name = "flat";
    CHECK_EQ(ms_part_name_make(&plain, v, &a, &name, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "Partition spec for non partitioned table default.flat.");
    CHECK_EQ(ms_part_name_make(&t, NULL, &a, &name, &err), COMB_EINVALID);
    comb_arena_free(&a);
}

/* parse(name) must fail with want_code and a message containing want. */
static void check_parse_fails(const MsTable *t, CombArena *a,
                              const char *name, const char *want)
{
    CombErr err;
    char **vals;
    if (ms_part_name_parse(t, name, a, &vals, &err) != COMB_EINVALID ||
        strstr(err.msg, want) == NULL)
        unit_fail(__FILE__, __LINE__, "parse '%s': want error '%s', got '%s'",
                  name, want, err.msg);
}

TEST(ms_part_name_parse_cases)
{
    MsTable t = keyed_table();
    CombArena a;
    CombErr err;
    char **vals, *name, *in[2] = {"a/b=c%d", NULL};
    comb_arena_init(&a, 0);
    CHECK_OK(ms_part_name_parse(&t, "ds=2024-01-01/hr=10", &a, &vals, &err),
             &err);
    CHECK_STR(vals[0], "2024-01-01");
    CHECK_STR(vals[1], "10");
    /* keys compare case-insensitively, as MSCK's equalsIgnoreCase */
    CHECK_OK(ms_part_name_parse(&t, "DS=x/hR=%3F", &a, &vals, &err), &err);
    CHECK_STR(vals[0], "x");
    CHECK_STR(vals[1], "?");
    /* what make makes, parse reads back */
    CHECK_OK(ms_part_name_make(&t, in, &a, &name, &err), &err);
    CHECK_OK(ms_part_name_parse(&t, name, &a, &vals, &err), &err);
    CHECK_STR(vals[0], "a/b=c%d");
    CHECK_STR(vals[1], MS_DEFAULT_PARTITION_NAME);

    check_parse_fails(&t, &a, "ds=1", "Invalid partition name ds=1");
    check_parse_fails(&t, &a, "ds=1/hr=2/x=3", "Invalid partition name");
    check_parse_fails(&t, &a, "ds=1/hr=2/", "Invalid partition name");
    check_parse_fails(&t, &a, "ds=1//hr=2", "Invalid partition name");
    check_parse_fails(&t, &a, "/ds=1/hr=2", "Invalid partition name");
    check_parse_fails(&t, &a, "ds=/hr=2", "Invalid partition name");
    check_parse_fails(&t, &a, "ds/hr=2", "Invalid partition name");
    check_parse_fails(&t, &a, "ds=a=b/hr=2", "Invalid partition name");
    check_parse_fails(&t, &a, "=1/hr=2", "Invalid partition name");
    check_parse_fails(&t, &a, "", "Invalid partition name");
    check_parse_fails(&t, &a, "ds=1/hour=2",
                      "Unexpected partition key hour found at ds=1/hour=2");
    check_parse_fails(&t, &a, "hr=1/ds=2", "Unexpected partition key hr");
    check_parse_fails(&t, &a, "ds=%00/hr=1", "%00");
    comb_arena_free(&a);
}
