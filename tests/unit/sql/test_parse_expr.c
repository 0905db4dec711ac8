/*
 * test_parse_expr.c - expression trees: Hive precedence, literals and
 * escapes, column references and fields, calls, CAST, CASE, and the text,
 * position and height recorded on each node.
 */
#include "test_parse_util.h"
#include "common/buf.h"

#include <stdlib.h>

static bool is_bin(const AstExpr *e, AstOp op)
{
    return e && e->kind == AST_BINARY && e->op == op;
}

static bool is_col(const AstExpr *e, const char *name)
{
    return e && e->kind == AST_COLREF && strcmp(e->name, name) == 0;
}

static bool is_int(const AstExpr *e, int64_t v)
{
    return e && e->kind == AST_LIT_INT && e->ival == v;
}

TEST(expr_or_and_not_shape)
{
    AstExpr *e;
    SELECT_EXPR(e, "select a = 1 OR b = 2 AND NOT c = 3");
    /* AND / OR keep their operands in args (a flat run of one operator) */
    CHECK(is_bin(e, AST_OP_OR));
    CHECK_EQ(e->n_args, 2);
    CHECK(is_bin(e->args[0], AST_OP_EQ));
    CHECK(is_col(e->args[0]->left, "a"));
    CHECK(is_int(e->args[0]->right, 1));
    const AstExpr *and = e->args[1];
    CHECK(is_bin(and, AST_OP_AND));
    CHECK(is_bin(and->args[0], AST_OP_EQ));
    CHECK(and->args[1]->kind == AST_UNARY && and->args[1]->op == AST_OP_NOT);
    CHECK(is_bin(and->args[1]->left, AST_OP_EQ));
    CHECK(is_col(and->args[1]->left->left, "c"));
    CHECK_STR(e->text, "a = 1 OR b = 2 AND NOT c = 3");
    CHECK_STR(and->text, "b = 2 AND NOT c = 3");
    CHECK_STR(and->args[1]->text, "NOT c = 3");
    CHECK_EQ(e->height, 5);
}

/* 5,000 ORed comparisons are one node of 5,000 operands, not a tree 5,000
 * levels deep; a run ends where the operator changes. */
TEST(expr_long_or_run_is_flat)
{
    AstExpr *e;
    CombBuf b = COMB_BUF_INIT;
    comb_buf_append_str(&b, "select x = 0");
    for (int i = 1; i < 5000; i++)
        comb_buf_printf(&b, " OR x = %d", i);
    comb_buf_append_byte(&b, '\0');
    SELECT_EXPR(e, (const char *)b.data);
    CHECK(is_bin(e, AST_OP_OR));
    CHECK_EQ(e->n_args, 5000);
    CHECK_EQ(e->height, 3);
    CHECK(is_int(e->args[4999]->right, 4999));
    comb_buf_free(&b);
    SELECT_EXPR(e, "select a AND b AND c OR d OR e AND f");
    CHECK(is_bin(e, AST_OP_OR));
    CHECK_EQ(e->n_args, 3);
    CHECK(is_bin(e->args[0], AST_OP_AND) && e->args[0]->n_args == 3);
    CHECK_STR(e->args[0]->text, "a AND b AND c");
    CHECK(is_col(e->args[1], "d"));
    CHECK(is_bin(e->args[2], AST_OP_AND) && e->args[2]->n_args == 2);
}

TEST(expr_not_binds_looser_than_comparison)
{
    AstExpr *e;
    SELECT_EXPR(e, "select NOT a IS NULL AND b");
    CHECK(is_bin(e, AST_OP_AND));
    CHECK(e->args[0]->kind == AST_UNARY && e->args[0]->op == AST_OP_NOT);
    CHECK_EQ(e->args[0]->left->kind, AST_IS_NULL);
    SELECT_EXPR(e, "select not not x");
    CHECK(e->op == AST_OP_NOT && e->left->op == AST_OP_NOT);
    /* '!' is a prefix operator binding tighter than comparison */
    SELECT_EXPR(e, "select !a = b");
    CHECK(is_bin(e, AST_OP_EQ));
    CHECK(e->left->kind == AST_UNARY && e->left->op == AST_OP_NOT);
}

TEST(expr_arithmetic_precedence)
{
    AstExpr *e;
    SELECT_EXPR(e, "select 1 + 2 * 3 - 4");
    CHECK(is_bin(e, AST_OP_SUB));
    CHECK(is_bin(e->left, AST_OP_ADD));
    CHECK(is_int(e->left->left, 1));
    CHECK(is_bin(e->left->right, AST_OP_MUL));
    CHECK(is_int(e->right, 4));
    SELECT_EXPR(e, "select a / b % c DIV d");
    CHECK(is_bin(e, AST_OP_DIV_INT));
    CHECK(is_bin(e->left, AST_OP_MOD));
    CHECK(is_bin(e->left->left, AST_OP_DIV));
    SELECT_EXPR(e, "select -a * b");
    CHECK(is_bin(e, AST_OP_MUL));
    CHECK(e->left->kind == AST_UNARY && e->left->op == AST_OP_NEG);
    SELECT_EXPR(e, "select +a");
    CHECK(e->kind == AST_UNARY && e->op == AST_OP_PLUS);
    SELECT_EXPR(e, "select (1 + 2) * 3");
    CHECK(is_bin(e, AST_OP_MUL));
    CHECK(is_bin(e->left, AST_OP_ADD));
    CHECK_STR(e->text, "(1 + 2) * 3");
    CHECK_STR(e->left->text, "1 + 2");
}

TEST(expr_concat_between_comparison_and_additive)
{
    AstExpr *e;
    SELECT_EXPR(e, "select a || b + c = d || e");
    CHECK(is_bin(e, AST_OP_EQ));
    CHECK(is_bin(e->left, AST_OP_CONCAT));
    CHECK(is_bin(e->left->right, AST_OP_ADD));
    CHECK(is_bin(e->right, AST_OP_CONCAT));
}

TEST(expr_comparison_operators)
{
    static const struct {
        const char *sql;
        AstOp op;
    } cases[] = {
        {"select a = b", AST_OP_EQ},   {"select a == b", AST_OP_EQ},
        {"select a != b", AST_OP_NE},  {"select a <> b", AST_OP_NE},
        {"select a < b", AST_OP_LT},   {"select a <= b", AST_OP_LE},
        {"select a > b", AST_OP_GT},   {"select a >= b", AST_OP_GE},
        {"select a <=> b", AST_OP_EQ_NS},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        AstExpr *e;
        SELECT_EXPR(e, cases[i].sql);
        CHECK(is_bin(e, cases[i].op));
        CHECK(is_col(e->left, "a") && is_col(e->right, "b"));
        CHECK_EQ(e->pos.col, 10);   /* the operator */
    }
}

TEST(expr_is_null_between_in_like)
{
    AstExpr *e;
    SELECT_EXPR(e, "select a IS NOT NULL");
    CHECK(e->kind == AST_IS_NULL && e->negated && is_col(e->left, "a"));
    SELECT_EXPR(e, "select a + 1 is null");
    CHECK(e->kind == AST_IS_NULL && !e->negated);
    CHECK(is_bin(e->left, AST_OP_ADD));
    SELECT_EXPR(e, "select x BETWEEN 1 AND 2 AND y");
    CHECK(is_bin(e, AST_OP_AND));
    CHECK_EQ(e->args[0]->kind, AST_BETWEEN);
    CHECK(!e->args[0]->negated);
    CHECK(is_int(e->args[0]->right, 1) && is_int(e->args[0]->third, 2));
    CHECK_STR(e->args[0]->text, "x BETWEEN 1 AND 2");
    SELECT_EXPR(e, "select x not between a + 1 and b");
    CHECK(e->kind == AST_BETWEEN && e->negated);
    CHECK(is_bin(e->right, AST_OP_ADD));
    SELECT_EXPR(e, "select x IN (1, 2, 'three')");
    CHECK(e->kind == AST_IN && !e->negated);
    CHECK_EQ(e->n_args, 3);
    CHECK(is_int(e->args[1], 2));
    CHECK_STR(e->args[2]->sval, "three");
    SELECT_EXPR(e, "select x NOT IN (y)");
    CHECK(e->kind == AST_IN && e->negated && e->n_args == 1);
    SELECT_EXPR(e, "select s LIKE 'a%'");
    CHECK(e->kind == AST_LIKE && e->op == AST_OP_LIKE && !e->negated);
    CHECK_STR(e->right->sval, "a%");
    SELECT_EXPR(e, "select s NOT LIKE 'a%'");
    CHECK(e->kind == AST_LIKE && e->negated);
    SELECT_EXPR(e, "select s RLIKE '^a.*'");
    CHECK(e->kind == AST_LIKE && e->op == AST_OP_RLIKE);
    SELECT_EXPR(e, "select s not regexp 'x'");
    CHECK(e->kind == AST_LIKE && e->op == AST_OP_RLIKE && e->negated);
    SELECT_EXPR(e, "select a = 1 IS NULL");
    CHECK(e->kind == AST_IS_NULL && is_bin(e->left, AST_OP_EQ));
}

/* a IS [NOT] TRUE|FALSE: CAST(a AS BOOLEAN) <=> TRUE|FALSE, NOT over it
 * for the NOT forms, each node at the IS token. */
TEST(expr_is_true_false)
{
    AstExpr *e;
    SELECT_EXPR(e, "select a IS TRUE");
    CHECK(is_bin(e, AST_OP_EQ_NS));
    CHECK(e->left->kind == AST_CAST && e->left->cast_type.kind == COMB_T_BOOLEAN);
    CHECK(is_col(e->left->left, "a"));
    CHECK(e->right->kind == AST_LIT_BOOL && e->right->bval);
    CHECK_EQ(e->pos.col, 10);
    CHECK_STR(e->text, "a IS TRUE");
    SELECT_EXPR(e, "select a + 1 is not false");
    CHECK(e->kind == AST_UNARY && e->op == AST_OP_NOT);
    CHECK(is_bin(e->left, AST_OP_EQ_NS));
    CHECK(is_bin(e->left->left->left, AST_OP_ADD));
    CHECK(e->left->right->kind == AST_LIT_BOOL && !e->left->right->bval);
    CHECK_STR(e->text, "a + 1 is not false");
    SELECT_EXPR(e, "select a IS FALSE AND b IS NOT TRUE");
    CHECK(is_bin(e, AST_OP_AND));
    CHECK(is_bin(e->args[0], AST_OP_EQ_NS) && !e->args[0]->right->bval);
    CHECK(e->args[1]->kind == AST_UNARY && e->args[1]->left->right->bval);
}

TEST(expr_integer_literals)
{
    AstExpr *e;
    SELECT_EXPR(e, "select 42");
    CHECK(is_int(e, 42));
    CHECK_EQ(e->lit_suffix, 0);
    CHECK_STR(e->text, "42");
    SELECT_EXPR(e, "select 3000000000");
    CHECK(is_int(e, 3000000000LL));
    SELECT_EXPR(e, "select 9223372036854775807");
    CHECK(is_int(e, INT64_MAX));
    SELECT_EXPR(e, "select 9223372036854775808");
    CHECK_EQ(e->kind, AST_LIT_DOUBLE);
    CHECK(e->dval == 9223372036854775808.0);
    CHECK_STR(e->text, "9223372036854775808");
    /* Hive's literal is 9223372036854775808 (a DECIMAL), then negated */
    SELECT_EXPR(e, "select -9223372036854775808");
    CHECK_EQ(e->kind, AST_LIT_DOUBLE);
    CHECK(e->negated);
    CHECK_STR(e->sval, "9223372036854775808");
    CHECK_STR(e->text, "-9223372036854775808");
    SELECT_EXPR(e, "select -5");
    CHECK(is_int(e, -5));
    CHECK_EQ(e->pos.col, 8);
    SELECT_EXPR(e, "select - -5");
    CHECK(is_int(e, 5));
    SELECT_EXPR(e, "select 10L");
    CHECK(is_int(e, 10));
    CHECK_EQ(e->lit_suffix, 'L');
    SELECT_EXPR(e, "select 10y");
    CHECK_EQ(e->lit_suffix, 'Y');
    SELECT_EXPR(e, "select -10S");
    CHECK(is_int(e, -10));
    CHECK_EQ(e->lit_suffix, 'S');
    SELECT_EXPR(e, "select 10BD");
    CHECK(is_int(e, 10));
    CHECK_EQ(e->lit_suffix, 'B');
    SELECT_EXPR(e, "select 10d");
    CHECK(is_int(e, 10));
    CHECK_EQ(e->lit_suffix, 'D');
    SELECT_EXPR(e, "select 1st from t");
    CHECK_EQ(e->kind, AST_COLREF);
}

TEST(expr_decimal_literals)
{
    AstExpr *e;
    SELECT_EXPR(e, "select 1.5");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == 1.5);
    CHECK_STR(e->text, "1.5");
    SELECT_EXPR(e, "select 2.5e3");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == 2500.0);
    SELECT_EXPR(e, "select 1E-2");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == 0.01);
    SELECT_EXPR(e, "select .5");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == 0.5);
    SELECT_EXPR(e, "select 7.");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == 7.0);
    SELECT_EXPR(e, "select -1.25BD");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == -1.25);
    CHECK_EQ(e->lit_suffix, 'B');
    CHECK_STR(e->text, "-1.25BD");
    /* the digits as written, without sign or suffix, for the binder */
    CHECK_STR(e->sval, "1.25");
    CHECK(e->negated);
    SELECT_EXPR(e, "select - - 1.50");
    CHECK_STR(e->sval, "1.50");
    CHECK(!e->negated);
    SELECT_EXPR(e, "select 2.5D");
    CHECK(e->kind == AST_LIT_DOUBLE && e->dval == 2.5);
    CHECK_EQ(e->lit_suffix, 'D');
}

TEST(expr_subscripts_and_fields)
{
    AstExpr *e;
    SELECT_EXPR(e, "select a[0] from t");
    CHECK_EQ(e->kind, AST_INDEX);
    CHECK_EQ(e->left->kind, AST_COLREF);
    CHECK(is_int(e->right, 0));
    CHECK_STR(e->text, "a[0]");
    SELECT_EXPR(e, "select m['k'].f[i + 1] from t");
    CHECK_EQ(e->kind, AST_INDEX);
    CHECK_EQ(e->left->kind, AST_FIELD);
    CHECK_STR(e->left->name, "f");
    CHECK_EQ(e->left->left->kind, AST_INDEX);
    CHECK_EQ(e->right->kind, AST_BINARY);
    SELECT_EXPR(e, "select -a[1] from t");
    CHECK_EQ(e->kind, AST_UNARY);
    CHECK_EQ(e->left->kind, AST_INDEX);
}

TEST(expr_typed_literals)
{
    AstExpr *e;
    SELECT_EXPR(e, "select date '2020-01-01'");
    CHECK_EQ(e->kind, AST_CAST);
    CHECK(e->typed_literal);
    CHECK_EQ(e->cast_type.type->kind, COMB_T_DATE);
    SELECT_EXPR(e, "select cast('x' as date)");
    CHECK(!e->typed_literal);
}

TEST(expr_complex_type_names)
{
    AstExpr *e;
    char buf[128];
    CombBuf b = COMB_BUF_INIT;
    SELECT_EXPR(e, "select cast(a as map<string, array<struct<x:int, `y z`:decimal(5,2)>>>) from t");
    CHECK_EQ(e->cast_type.kind, COMB_T_MAP);
    CHECK(comb_type_format(e->cast_type.type, &b) == 0);
    snprintf(buf, sizeof buf, "%.*s", (int)b.len, (char *)b.data);
    CHECK_STR(buf, "map<string,array<struct<x:int,y z:decimal(5,2)>>>");
    comb_buf_free(&b);
    SELECT_EXPR(e, "select cast(a as decimal) from t");
    CHECK_EQ(e->cast_type.type->precision, 10);
    CHECK_EQ(e->cast_type.type->scale, 0);
    SELECT_EXPR(e, "select cast(a as uniontype<int,string>) from t");
    CHECK_EQ(e->cast_type.type->n_children, 2);
}

TEST(expr_string_literals_and_escapes)
{
    AstExpr *e;
    SELECT_EXPR(e, "select 'it\\'s'");
    CHECK_STR(e->sval, "it's");
    CHECK_EQ(e->sval_len, 4);
    SELECT_EXPR(e, "select \"dq \\\"x\\\" 'y'\"");
    CHECK_STR(e->sval, "dq \"x\" 'y'");
    SELECT_EXPR(e, "select 'a\\nb\\tc\\\\d\\re\\bf\\Zg'");
    CHECK_STR(e->sval, "a\nb\tc\\d\re\bf\x1Ag");
    SELECT_EXPR(e, "select 'x\\0y'");
    CHECK_EQ(e->sval_len, 3);
    CHECK(memcmp(e->sval, "x\0y", 3) == 0);
    SELECT_EXPR(e, "select 'oct\\101\\u00e9!'");
    CHECK_STR(e->sval, "octA\xc3\xa9!");
    SELECT_EXPR(e, "select '50\\% \\_ \\q'");
    CHECK_STR(e->sval, "50\\% \\_ q");   /* LIKE escapes survive */
    SELECT_EXPR(e, "select 'ab' \"cd\"\n  'ef'");
    CHECK_STR(e->sval, "abcdef");
    CHECK_STR(e->text, "'ab' \"cd\"\n  'ef'");
    SELECT_EXPR(e, "select ''");
    CHECK_STR(e->sval, "");
    CHECK_EQ(e->sval_len, 0);
    SELECT_EXPR(e, "select ';--/*'");
    CHECK_STR(e->sval, ";--/*");
}

TEST(expr_keyword_literals)
{
    AstExpr *e;
    SELECT_EXPR(e, "select TRUE");
    CHECK(e->kind == AST_LIT_BOOL && e->bval);
    SELECT_EXPR(e, "select false");
    CHECK(e->kind == AST_LIT_BOOL && !e->bval);
    SELECT_EXPR(e, "select Null");
    CHECK_EQ(e->kind, AST_LIT_NULL);
    SELECT_EXPR(e, "select DATE '2024-02-29'");
    CHECK_EQ(e->kind, AST_CAST);
    CHECK_EQ(e->cast_type.kind, COMB_T_DATE);
    CHECK_STR(e->left->sval, "2024-02-29");
    CHECK_STR(e->text, "DATE '2024-02-29'");
    SELECT_EXPR(e, "select timestamp '2024-01-01 00:00:00'");
    CHECK_EQ(e->cast_type.kind, COMB_T_TIMESTAMP);
}

TEST(expr_column_refs_and_fields)
{
    AstExpr *e;
    SELECT_EXPR(e, "select c");
    CHECK(is_col(e, "c") && e->qualifier == NULL);
    SELECT_EXPR(e, "select T.C");
    CHECK(is_col(e, "c"));
    CHECK_STR(e->qualifier, "t");
    CHECK_STR(e->text, "T.C");
    SELECT_EXPR(e, "select ROW__ID");
    CHECK(is_col(e, "row__id") && e->qualifier == NULL);
    SELECT_EXPR(e, "select row__id.writeid");
    CHECK(e->kind == AST_FIELD);
    CHECK_STR(e->name, "writeid");
    CHECK(is_col(e->left, "row__id") && e->left->qualifier == NULL);
    CHECK_STR(e->text, "row__id.writeid");
    SELECT_EXPR(e, "select t.ROW__ID.bucketId");
    CHECK(e->kind == AST_FIELD);
    CHECK_STR(e->name, "bucketid");
    CHECK(is_col(e->left, "row__id"));
    CHECK_STR(e->left->qualifier, "t");
    SELECT_EXPR(e, "select a.b.c.d");
    CHECK(e->kind == AST_FIELD && e->left->kind == AST_FIELD);
    CHECK_STR(e->left->left->qualifier, "a");
    SELECT_EXPR(e, "select key, value");   /* plain keywords name columns */
    CHECK(is_col(e, "key"));
}

TEST(expr_function_calls)
{
    AstExpr *e;
    SELECT_EXPR(e, "select COUNT(*)");
    CHECK(e->kind == AST_FUNC && e->star_arg && e->n_args == 0);
    CHECK_STR(e->name, "count");
    CHECK_STR(e->text, "COUNT(*)");
    SELECT_EXPR(e, "select count(DISTINCT a, b)");
    CHECK(e->distinct && e->n_args == 2);
    SELECT_EXPR(e, "select sum(all a)");
    CHECK(!e->distinct && e->n_args == 1);
    SELECT_EXPR(e, "select now()");
    CHECK(e->kind == AST_FUNC && e->n_args == 0 && !e->star_arg);
    SELECT_EXPR(e, "select concat(a, 'x', 1 + 2)");
    CHECK_EQ(e->n_args, 3);
    CHECK(is_bin(e->args[2], AST_OP_ADD));
    SELECT_EXPR(e, "select if(a > 1, 'y', 'n')");
    CHECK_STR(e->name, "if");
    CHECK_EQ(e->n_args, 3);
    SELECT_EXPR(e, "select int(x) + date(y)");
    CHECK_STR(e->left->name, "int");
    CHECK_STR(e->right->name, "date");
    SELECT_EXPR(e, "select current_date");
    CHECK(e->kind == AST_FUNC && e->n_args == 0);
    CHECK_STR(e->name, "current_date");
    SELECT_EXPR(e, "select CURRENT_TIMESTAMP()");
    CHECK_STR(e->name, "current_timestamp");
    SELECT_EXPR(e, "select `my func`(1)");
    CHECK_STR(e->name, "my func");
}

TEST(expr_cast)
{
    AstExpr *e;
    SELECT_EXPR(e, "select CAST(a + 1 AS DECIMAL(10, 2))");
    CHECK_EQ(e->kind, AST_CAST);
    CHECK(is_bin(e->left, AST_OP_ADD));
    CHECK_EQ(e->cast_type.kind, COMB_T_DECIMAL);
    CHECK_EQ(e->cast_type.p1, 10);
    CHECK_EQ(e->cast_type.p2, 2);
    CHECK_EQ(e->cast_type.pos.col, 22);
    SELECT_EXPR(e, "select cast('1' as varchar(5))");
    CHECK_EQ(e->cast_type.kind, COMB_T_VARCHAR);
    CHECK_EQ(e->cast_type.p1, 5);
    SELECT_EXPR(e, "select cast(x as string)");
    CHECK_EQ(e->cast_type.kind, COMB_T_STRING);
    CHECK_EQ(e->cast_type.p1, -1);
}

TEST(expr_case)
{
    AstExpr *e;
    SELECT_EXPR(e, "select CASE WHEN a > 1 THEN 'big' WHEN a > 0 THEN 'small' "
                   "ELSE 'none' END");
    CHECK_EQ(e->kind, AST_CASE);
    CHECK(e->left == NULL);
    CHECK_EQ(e->n_args, 4);
    CHECK(is_bin(e->args[0], AST_OP_GT));
    CHECK_STR(e->args[1]->sval, "big");
    CHECK_STR(e->args[3]->sval, "small");
    CHECK_STR(e->right->sval, "none");
    SELECT_EXPR(e, "select case x when 1 then 'one' end");
    CHECK(is_col(e->left, "x"));
    CHECK_EQ(e->n_args, 2);
    CHECK(e->right == NULL);
}

TEST(expr_text_pos_and_alias)
{
    AstStmt *s;
    PARSE_OK(s, "select\n  a  +  b AS total,\n  upper( name )  nm from t");
    AstSelectItem *it = s->select->items;
    CHECK_STR(it[0].expr->text, "a  +  b");
    CHECK_EQ(it[0].expr->pos.line, 2);
    CHECK_EQ(it[0].expr->pos.col, 6);     /* the '+' */
    CHECK_EQ(it[0].expr->left->pos.col, 3);
    CHECK_STR(it[0].alias, "total");
    CHECK_STR(it[1].expr->text, "upper( name )");
    CHECK_EQ(it[1].expr->pos.line, 3);
    CHECK_EQ(it[1].expr->pos.col, 3);
    CHECK_STR(it[1].alias, "nm");
    CHECK_STR(it[1].expr->args[0]->text, "name");
}

TEST(expr_columns_count_characters_not_bytes)
{
    AstExpr *e;
    SELECT_EXPR(e, "select '\xc3\xa9\xc3\xa9' || x");
    CHECK_EQ(e->right->pos.col, 16);
}

/* A string of n copies of open, then core, then n copies of close. */
static char *nest(int n, const char *open, const char *core,
                  const char *close)
{
    size_t lo = strlen(open), lc = strlen(core), lcl = strlen(close);
    char *s = malloc(16 + n * (lo + lcl) + lc);   /* room to append */
    char *w = s;
    memcpy(w, "select ", 7);
    w += 7;
    for (int i = 0; i < n; i++, w += lo)
        memcpy(w, open, lo);
    memcpy(w, core, lc);
    w += lc;
    for (int i = 0; i < n; i++, w += lcl)
        memcpy(w, close, lcl);
    *w = '\0';
    return s;
}

TEST(expr_depth_limits)
{
    AstStmt *s;
    char *ok = nest(990, "(", "1", ")");
    int rc = tp_parse(ok, &s);
    free(ok);
    CHECK_OK(rc, &tp_err);
    static const struct {
        const char *open, *core, *close;
    } deep[] = {
        {"(", "1", ")"},      /* parentheses */
        {"- ", "x", ""},      /* unary chain ("--" would be a comment) */
        {"not ", "x", ""},    /* NOT chain */
        {"f(", "1", ")"},     /* nested calls */
        {"", "1", "+1"},      /* a long left-deep chain */
        {"", "a", ".b"},      /* a long field chain */
    };
    for (size_t i = 0; i < sizeof deep / sizeof deep[0]; i++) {
        char *sql = nest(5000, deep[i].open, deep[i].core, deep[i].close);
        rc = tp_parse(sql, &s);
        free(sql);
        if (rc != COMB_ESYNTAX ||
            !strstr(tp_err.msg, "expression nested too deeply"))
            unit_fail(__FILE__, __LINE__, "case %zu: rc=%d %s", i, rc,
                      tp_err.msg);
        CHECK_EQ(rc, COMB_ESYNTAX);
    }
    /* a long flat list is not deep */
    char *wide = nest(5000, "", "x in (1", ",1");
    strcat(wide, ")");
    rc = tp_parse(wide, &s);
    free(wide);
    CHECK_OK(rc, &tp_err);
    CHECK_EQ(s->select->items[0].expr->n_args, 5001);
    CHECK_EQ(s->select->items[0].expr->height, 2);
}
