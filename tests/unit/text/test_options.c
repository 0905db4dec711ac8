/* Table properties of text tables (text_options_set) as Hive reads them:
 * delimiters, escapes, nesting levels, header and footer counts. */
#include "text_test.h"
#include "unit.h"

static unsigned char sep_of(const char *key, const char *value, int level)
{
    TextOptions o = tt_opt(key, value);
    return text_separator(&o, level);
}

TEST(text_options_delimiters_like_get_byte)
{
    TextOptions o;
    CombErr err;
    text_options_default(&o);
    CHECK_EQ(text_separator(&o, 0), 1);
    CHECK_EQ(text_separator(&o, 1), 2);
    CHECK_EQ(text_separator(&o, 2), 3);
    CHECK_EQ(text_separator(&o, 3), 4);
    CHECK_EQ(text_separator(&o, 7), 8);
    CHECK_EQ(text_separator(&o, 8), 11);
    CHECK_EQ(text_separator(&o, 9), 14);
    CHECK_EQ(text_separator(&o, 21), 26);
    CHECK_EQ(text_separator(&o, 22), 28);
    CHECK_EQ(text_separator(&o, 25), 31);
    CHECK_EQ(text_separator(&o, 26), 128);
    CHECK_EQ(text_separator(&o, 153), 255);
    CHECK_EQ(text_separator(&o, 154), 0);
    /* a character, or a decimal byte value (Byte.parseByte) */
    CHECK_EQ(sep_of("field.delim", ",", 0), ',');
    CHECK_EQ(sep_of("field.delim", "44", 0), ',');
    CHECK_EQ(sep_of("field.delim", "9", 0), '\t');
    CHECK_EQ(sep_of("field.delim", "\t", 0), '\t');
    CHECK_EQ(sep_of("field.delim", "+9", 0), '\t');
    CHECK_EQ(sep_of("field.delim", "-1", 0), 0xFF);
    CHECK_EQ(sep_of("field.delim", "-128", 0), 0x80);
    CHECK_EQ(sep_of("field.delim", "127", 0), 127);
    CHECK_EQ(sep_of("field.delim", "128", 0), '1');
    CHECK_EQ(sep_of("field.delim", "-", 0), '-');
    CHECK_EQ(sep_of("field.delim", "||", 0), '|');
    CHECK_EQ(sep_of("field.delim", "\xC3\xA9", 0), 0xE9);
    CHECK_EQ(sep_of("field.delim", "", 0), 1);
    CHECK_EQ(sep_of("serialization.format", ";", 0), ';');
    CHECK_EQ(sep_of("colelction.delim", ";", 1), ';');
    CHECK_EQ(sep_of("collection.delim", "#", 1), '#');
    CHECK_EQ(sep_of("mapkey.delim", "=", 2), '=');
    /* field.delim beats serialization.format, collection.delim beats
     * colelction.delim, whatever the order */
    const char *a[] = {"serialization.format", ";", "field.delim", ",",
                       "colelction.delim", "x", "collection.delim", "y", NULL};
    const char *b[] = {"field.delim", ",", "serialization.format", ";",
                       "collection.delim", "y", "colelction.delim", "x", NULL};
    o = tt_opts(a);
    CHECK_EQ(text_separator(&o, 0), ',');
    CHECK_EQ(text_separator(&o, 1), 'y');
    o = tt_opts(b);
    CHECK_EQ(text_separator(&o, 0), ',');
    CHECK_EQ(text_separator(&o, 1), 'y');
    /* other keys are not ours */
    text_options_default(&o);
    CHECK_OK(text_options_set(&o, "transactional", "true", &err), &err);
    CHECK_OK(text_options_set(&o, "line.delim", "\n", &err), &err);
    CHECK_EQ(o.line_delim, '\n');
}

TEST(text_options_escape_null_counts)
{
    TextOptions o;
    CombErr err;
    o = tt_opt("escape.delim", "");
    CHECK(o.escaped && o.escape_char == '\\');
    o = tt_opt("escape.delim", "92");
    CHECK(o.escaped && o.escape_char == '\\');
    o = tt_opt("escape.delim", "#");
    CHECK(o.escaped && o.escape_char == '#');
    o = tt_opt("serialization.escape.crlf", "True");
    CHECK(o.escape_crlf);
    o = tt_opt("serialization.null.format", "NULL");
    CHECK(o.null_len == 4 && memcmp(o.null_format, "NULL", 4) == 0);
    o = tt_opt("hive.serialization.extend.nesting.levels", "true");
    CHECK_EQ(o.nesting_levels, TEXT_NESTING_EXTENDED);
    o = tt_opt("hive.serialization.extend.additional.nesting.levels", "true");
    CHECK_EQ(o.nesting_levels, TEXT_NESTING_MAX);
    o = tt_opt("hive.serialization.extend.nesting.levels", "yes");
    CHECK_EQ(o.nesting_levels, TEXT_NESTING_DEFAULT);
    o = tt_opt("skip.header.line.count", "2");
    CHECK_EQ(o.skip_header, 2);
    o = tt_opt("skip.header.line.count", "-3");
    CHECK_EQ(o.skip_header, 0);
    o = tt_opt("skip.footer.line.count", "100");
    CHECK_EQ(o.skip_footer, 100);
    text_options_default(&o);
    CHECK_EQ(text_options_set(&o, "skip.footer.line.count", "101", &err),
             COMB_EINVALID);
    CHECK_STR(err.msg, "footer number exceeds the limit defined in "
                       "hive.file.max.footer");
    CHECK_EQ(text_options_set(&o, "skip.header.line.count", "1x", &err),
             COMB_EINVALID);
    CHECK(strstr(err.msg, "'skip.header.line.count'") != NULL);
    CHECK_EQ(text_options_set(&o, "skip.header.line.count", "", &err),
             COMB_EINVALID);
    CHECK_EQ(text_options_set(&o, "skip.header.line.count", "99999999999",
                              &err), COMB_EINVALID);
}

static int check_schema(CombArena *a, const TextOptions *o,
                        const char *structure, CombErr *err)
{
    int n;
    const CombType *const *types = tt_schema(a, structure, &n);
    return types ? text_check_schema(o, n, types, err) : -1;
}

TEST(text_options_nesting_levels_like_lazy_factory)
{
    CombArena a;
    CombErr err;
    TextOptions o;
    comb_arena_init(&a, 4096);
    text_options_default(&o);
    /* seven arrays use levels 1..7 */
    CHECK_OK(check_schema(&a, &o, "struct<c:array<array<array<array<array<"
                          "array<array<int>>>>>>>>", &err), &err);
    CHECK_EQ(check_schema(&a, &o, "struct<c:array<array<array<array<array<"
                          "array<array<array<int>>>>>>>>>", &err),
             COMB_EINVALID);
    CHECK_STR(err.msg, "Number of levels of nesting supported for "
                       "LazySimpleSerde is 7 Unable to work with level 8. Use "
                       "hive.serialization.extend.nesting.levels serde "
                       "property for tables using LazySimpleSerde.");
    /* a map at level 7 needs level 8 for its keys */
    CHECK_EQ(check_schema(&a, &o, "struct<c:array<array<array<array<array<"
                          "array<map<int,int>>>>>>>>", &err), COMB_EINVALID);
    CHECK(strstr(err.msg, "Unable to work with level 8.") != NULL);
    o = tt_opt("hive.serialization.extend.nesting.levels", "true");
    CHECK_OK(check_schema(&a, &o, "struct<c:array<array<array<array<array<"
                          "array<array<array<int>>>>>>>>>", &err), &err);
    CHECK_EQ(check_schema(&a, &o, "struct<c:array<array<array<array<array<"
                          "array<array<array<array<array<array<array<array<"
                          "array<array<array<array<array<array<array<array<"
                          "array<array<array<int>>>>>>>>>>>>>>>>>>>>>>>>>",
                          &err), COMB_EINVALID);
    CHECK_STR(err.msg, "Number of levels of nesting supported for "
                       "LazySimpleSerde is 23 Unable to work with level 24. "
                       "Use hive.serialization.extend.additional.nesting."
                       "levels serde property for tables using "
                       "LazySimpleSerde.");
    /* map keys must be primitive */
    text_options_default(&o);
    CHECK_EQ(check_schema(&a, &o, "struct<m:map<array<int>,int>>", &err),
             COMB_EUNSUPPORTED);
    comb_arena_free(&a);
}

TEST(text_read_custom_delimiters)
{
    CombArena a;
    const char *kv[] = {"field.delim", ",", "collection.delim", ";",
                        "mapkey.delim", "=", NULL};
    TextOptions o = tt_opts(kv);
    comb_arena_init(&a, 4096);
    const char *p = tt_text_file(&a, "d.csv",
                                 "1,a;b,k=1;j=2,x:y\n"
                                 "2,,,\n");
    CHECK_STR(tt_read(&a, p, &o,
                      "struct<i:int,a:array<string>,m:map<string,int>,"
                      "s:struct<p:string,q:string>>", 0),
              "1|['a','b']|{'k':1,'j':2}|('x:y',N)\n"
              "2|[]|{}|('',N)\n");
    /* a tab as "9" */
    o = tt_opt("field.delim", "9");
    p = tt_text_file(&a, "t.tsv", "1\tx\n");
    CHECK_STR(tt_read(&a, p, &o, "struct<i:int,s:string>", 0), "1|'x'\n");
    comb_arena_free(&a);
}

TEST(text_read_escapes)
{
    CombArena a;
    const char *kv[] = {"field.delim", ",", "escape.delim", "\\", NULL};
    TextOptions o = tt_opts(kv);
    comb_arena_init(&a, 4096);
    const char *p = tt_text_file(&a, "e.txt",
                                 "x\\,y,z\\\\w,p\\\002q\002r\n"
                                 /* an escape ending the line is itself */
                                 "l1\\nl2\\rl3,ab\\,c\\\n"
                                 "1\\2,\\N,\\\\N\n");
    const char *schema = "struct<a:string,b:string,c:array<string>>";
    CHECK_STR(tt_read(&a, p, &o, schema, 0),
              "'x,y'|'z\\x5Cw'|['p\\x02q','r']\n"
              "'l1\\x0Al2\\x0Dl3'|'ab,c\\x5C'|N\n"
              "'12'|N|['\\x5CN']\n");
    /* escapes are not removed from numbers or binary values */
    p = tt_text_file(&a, "e2.txt", "1\\2,aGk\\=,v\\,w\n");
    CHECK_STR(tt_read(&a, p, &o, "struct<i:int,b:binary,v:varchar(2)>", 0),
              "N|'aGk\\x5C='|'v,'\n");
    /* without an escape character a backslash is a byte like any other */
    o = tt_opt("field.delim", ",");
    p = tt_text_file(&a, "e3.txt", "x\\,y\n");
    CHECK_STR(tt_read(&a, p, &o, "struct<a:string,b:string>", 0),
              "'x\\x5C'|'y'\n");
    comb_arena_free(&a);
}
