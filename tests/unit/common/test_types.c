/*
 * test_types.c - type trees: Hive type strings parsed and printed back,
 * parameter limits and errors, ids, equality; vectors of every kind made
 * from types, and list children that grow.
 */
#include "unit.h"

#include "common/batch.h"
#include "common/types.h"

static CombArena ta;

static CombErr terr;

static const char *roundtrip(const char *in)
{
    CombType *t;
    comb_arena_init(&ta, 0);
    if (comb_type_parse(&ta, in, strlen(in), &t, &terr))
        return terr.msg;
    return comb_type_string(&ta, t);
}

TEST(types_parse_and_format)
{
    static const char *const same[] = {
        "boolean", "tinyint", "smallint", "int", "bigint", "float", "double",
        "string", "binary", "date", "timestamp", "decimal(38,38)",
        "decimal(1,0)", "char(255)", "varchar(65535)", "array<int>",
        "map<string,bigint>", "struct<a:int,b:string>",
        "uniontype<int,string>",
        "map<varchar(10),array<struct<x:decimal(5,2),y:map<int,date>>>>",
        "struct<a:struct<b:struct<c:array<array<timestamp>>>>>",
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        CHECK_STR(roundtrip(same[i]), same[i]);
        comb_arena_free(&ta);
    }
    CHECK_STR(roundtrip(" INTEGER "), "int");
    comb_arena_free(&ta);
    CHECK_STR(roundtrip("double precision"), "double");
    comb_arena_free(&ta);
    CHECK_STR(roundtrip("DECIMAL"), "decimal(10,0)");
    comb_arena_free(&ta);
    CHECK_STR(roundtrip("decimal(7)"), "decimal(7,0)");
    comb_arena_free(&ta);
    CHECK_STR(roundtrip("Struct < A : Int , bB:array< String > >"),
              "struct<a:int,bb:array<string>>");
    comb_arena_free(&ta);
}

/* Field names keep what Hive's type strings can hold (TypeInfoParser's
 * letters, digits, '_', '.', '$', spaces) and nothing that would split
 * the string when it is read back. */
TEST(types_struct_field_names)
{
    static const char *const ok[] = {"a", "weird name", "x.y$z", "_1", "\xc3\xbcn\xc3\xaf", "a  b"};
    static const char *const bad[] = {"", " a", "a ", "a:b", "a,b", "a<b", "a>b", "a`b", "a\tb", "(a)"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char in[64];
        CHECK(comb_type_field_name_ok(ok[i]));
        snprintf(in, sizeof in, "struct<%s:int,b:array<struct<%s:string>>>", ok[i], ok[i]);
        CHECK_STR(roundtrip(in), in);
        comb_arena_free(&ta);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!comb_type_field_name_ok(bad[i]));
    /* spaces around a name are not part of it */
    CHECK_STR(roundtrip("struct< a b :int>"), "struct<a b:int>");
    comb_arena_free(&ta);
}

TEST(types_parse_errors)
{
    static const struct {
        const char *in, *msg;
    } bad[] = {
        {"decimal(39,0)", "decimal precision must be between 1 and 38"},
        {"decimal(5,6)", "decimal scale must be between 0 and 5"},
        {"decimal(0)", "decimal precision must be between 1 and 38"},
        {"char(256)", "char length must be between 1 and 255"},
        {"varchar(0)", "varchar length must be between 1 and 65535"},
        {"varchar", "expected '('"},
        {"array<int,int>", "array takes one type"},
        {"map<int>", "map takes two types"},
        {"struct<int>", "expected ':'"},
        {"foo", "unknown type"},
        {"int x", "unexpected text after the type"},
        {"array<int", "expected '>'"},
        {"", "expected a type name"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *got = roundtrip(bad[i].in);
        if (!strstr(got, bad[i].msg))
            unit_fail(__FILE__, __LINE__, "'%s': got '%s', want '%s'",
                      bad[i].in, got, bad[i].msg);
        comb_arena_free(&ta);
        if (unit_failed_now())
            return;
    }
}

TEST(types_deep_nesting_is_refused)
{
    char deep[2000];
    size_t n = 0;
    for (int i = 0; i < 150; i++)
        n += (size_t)snprintf(deep + n, sizeof deep - n, "array<");
    n += (size_t)snprintf(deep + n, sizeof deep - n, "int");
    for (int i = 0; i < 150; i++)
        deep[n++] = '>';
    deep[n] = '\0';
    CHECK(strstr(roundtrip(deep), "nested too deeply") != NULL);
    comb_arena_free(&ta);
}

TEST(types_ids_equality_copy)
{
    CombType *t, *u, *c;
    CombErr err;
    const char *s = "struct<a:int,b:map<string,array<int>>,c:date>";
    comb_arena_init(&ta, 0);
    CHECK_OK(comb_type_parse(&ta, s, strlen(s), &t, &err), &err);
    CHECK_EQ(comb_type_assign_ids(t), 7);
    CHECK_EQ(comb_type_find(t, 4)->kind, COMB_T_LIST);
    CHECK_EQ(comb_type_find(t, 5)->kind, COMB_T_INT);
    CHECK_EQ(comb_type_find(t, 6)->kind, COMB_T_DATE);
    CHECK_EQ(comb_type_find(t, 7) == NULL, 1);
    CHECK_EQ(t->children[1]->max_id, 5);
    c = comb_type_copy(&ta, t);
    CHECK(c && comb_type_equal(t, c));
    s = "struct<a:int,b:map<string,array<int>>,d:date>";
    CHECK_OK(comb_type_parse(&ta, s, strlen(s), &u, &err), &err);
    CHECK(!comb_type_equal(t, u));
    comb_arena_free(&ta);
}

/* A vector per kind has the arrays batch.h promises; list children grow
 * and keep their values. */
TEST(types_vectors_of_every_kind)
{
    CombType *t;
    CombErr err;
    CombVector v;
    const char *s = "struct<b:boolean,i:int,d:double,s:string,x:decimal(20,3),"
                    "t:timestamp,dt:date,l:array<bigint>,m:map<string,int>,"
                    "u:uniontype<int,string>>";
    comb_arena_init(&ta, 0);
    CHECK_OK(comb_type_parse(&ta, s, strlen(s), &t, &err), &err);
    CHECK_EQ(comb_vec_init(&v, t, 4), COMB_OK);
    CHECK_EQ(v.n_children, 10);
    CHECK(v.children[0].i64 && v.children[1].i64 && v.children[2].f64);
    CHECK(v.children[3].str && v.children[4].dec && !v.children[4].i64);
    CHECK(v.children[5].i64 && v.children[5].nanos && v.children[6].i64);
    CHECK(v.children[7].off && v.children[7].len &&
          v.children[7].n_children == 1 && v.children[7].children[0].i64);
    CHECK(v.children[8].n_children == 2 && v.children[8].children[1].i64);
    CHECK(v.children[9].tag && v.children[9].n_children == 2);
    CHECK(v.children[4].type->scale == 3);
    {
        CombVector *el = &v.children[7].children[0];
        for (int r = 0; r < 4; r++)
            el->i64[r] = r + 100;
        CHECK_EQ(comb_vec_reserve(el, 5000), COMB_OK);
        CHECK(el->capacity >= 5000);
        CHECK_EQ(el->i64[3], 103);
        CHECK_EQ(el->i64[4999], 0);
        CHECK_EQ(el->nulls[4999], 0);
    }
    comb_vec_free(&v);
    comb_arena_free(&ta);
}
