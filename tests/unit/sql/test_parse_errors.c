/*
 * test_parse_errors.c - syntax errors (exact messages and positions, on
 * the first line and later ones) and the unsupported-but-valid HiveQL
 * constructs, each refused with COMB_EUNSUPPORTED at its position.
 */
#include "test_parse_util.h"

#define N(arr) (sizeof(arr) / sizeof((arr)[0]))

/* A statement refused with a syntax error of exactly this message; the
 * message names the failing case's sql. */
typedef struct SyntaxCase {
    const char *sql;
    const char *message;
} SyntaxCase;

static void check_syntax_errors(const SyntaxCase *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        PARSE_ERR(c[i].sql, COMB_ESYNTAX, c[i].message);
}

TEST(error_messages_line_one)
{
    static const SyntaxCase cases[] = {
        {"SELECT * FORM t",
         "ParseException line 1:9 cannot recognize input near 'FORM'"},
        {"SELECT a FROM",
         "ParseException line 1:13 expected identifier near '<EOF>'"},
        {"DELETE t", "ParseException line 1:7 missing FROM near 't'"},
        {"FOO bar",
         "ParseException line 1:0 cannot recognize input near 'FOO'"},
        {"select 1; select 2",
         "ParseException line 1:10 cannot recognize input near 'select'"},
        {"select a from t where a in ()",
         "ParseException line 1:28 expected expression near ')'"},
        {"select cast(a as foo)",
         "ParseException line 1:17 expected type name near 'foo'"},
        {"select case when a then b",
         "ParseException line 1:25 missing END near '<EOF>'"},
        {"select @", "ParseException line 1:7 expected expression near '@'"},
        {"insert into t",
         "ParseException line 1:13 missing VALUES or SELECT near '<EOF>'"},
        {"select a from t order by a nulls middle",
         "ParseException line 1:33 missing FIRST or LAST near 'middle'"},
        {"select a from t limit -1",
         "ParseException line 1:22 expected LIMIT row count near '-'"},
        {"select `` from t",
         "ParseException line 1:7 empty identifier near '``'"},
        {"set =x",
         "ParseException line 1:4 missing configuration name before '='"
         " near '='"},
        {"update t set a 1", "ParseException line 1:15 missing '=' near '1'"},
        {"select a is maybe from t",
         "ParseException line 1:12 missing NULL, TRUE, FALSE or DISTINCT FROM near 'maybe'"},
        {"select a is not", "ParseException line 1:15 missing NULL, TRUE, FALSE or "
         "DISTINCT FROM near '<EOF>'"},
        {"alter table t rename t2",
         "ParseException line 1:21 missing TO near 't2'"},
        {"alter table t drop partition (ds '1')",
         "ParseException line 1:33 missing comparison operator near ''1''"},
        {"alter table t add partition (ds)",
         "ParseException line 1:29 missing value for partition key ds"},
        {"alter table t change a int",
         "ParseException line 1:23 reserved keyword INT used as an "
         "identifier (quote it with backquotes) near 'int'"},
        {"alter table t change a b",
         "ParseException line 1:24 expected type name near '<EOF>'"},
        {"alter table t unset tblproperties (a)",
         "ParseException line 1:35 expected string literal near 'a'"},
        {"alter table t add columns ()",
         "ParseException line 1:27 expected identifier near ')'"},
        {"alter t rename to u",
         "ParseException line 1:6 cannot recognize input near 't'"},
    };
    check_syntax_errors(cases, N(cases));
}

/* Subqueries, views, CTAS, LIKE and EXPLAIN: what their rules refuse. */
TEST(error_messages_derived_and_views)
{
    static const SyntaxCase cases[] = {
        {"select * from (select 1)",
         "ParseException line 1:24 missing alias of the subquery in FROM "
         "near '<EOF>'"},
        {"select * from (select 1) as",
         "ParseException line 1:27 expected identifier near '<EOF>'"},
        {"select * from (t) x",
         "ParseException line 1:15 cannot recognize input in subquery "
         "source near 't'"},
        {"select * from (select 1 x",
         "ParseException line 1:25 missing ')' near '<EOF>'"},
        {"select * from (select 1) s (a)",
         "ParseException line 1:27 cannot recognize input near '('"},
        {"create table t",
         "ParseException line 1:14 missing '(' near '<EOF>'"},
        {"create table t stored as orc",
         "ParseException line 1:15 missing '(' near 'stored'"},
        {"create table t as",
         "ParseException line 1:17 missing SELECT near '<EOF>'"},
        {"create table t like",
         "ParseException line 1:19 expected identifier near '<EOF>'"},
        {"create table t like u as select 1",
         "ParseException line 1:22 cannot recognize input near 'as'"},
        {"create view v",
         "ParseException line 1:13 missing AS near '<EOF>'"},
        {"create or view v as select 1",
         "ParseException line 1:10 missing REPLACE near 'view'"},
        {"create view v (a int) as select 1",
         "ParseException line 1:17 missing ')' near 'int'"},
        {"drop view",
         "ParseException line 1:9 expected identifier near '<EOF>'"},
        {"alter view v",
         "ParseException line 1:12 cannot recognize input near '<EOF>'"},
        {"explain",
         "ParseException line 1:7 cannot recognize input near '<EOF>'"},
    };
    check_syntax_errors(cases, N(cases));
}

TEST(error_messages_empty_and_reserved)
{
    static const SyntaxCase cases[] = {
        {"",
         "ParseException line 1:0 cannot recognize input (empty "
         "statement) near '<EOF>'"},
        {"  ;",
         "ParseException line 1:2 cannot recognize input (empty "
         "statement) near ';'"},
        {"CREATE TABLE select (a int)",
         "ParseException line 1:13 reserved keyword SELECT used as an "
         "identifier (quote it with backquotes) near 'select'"},
        {"select a from t where",
         "ParseException line 1:21 expected expression near '<EOF>'"},
    };
    check_syntax_errors(cases, N(cases));
}

TEST(error_type_parameters)
{
    static const SyntaxCase cases[] = {
        {"create table t (a varchar(0))",
         "ParseException line 1:26 varchar length out of range "
         "[1, 65535] near '0'"},
        {"create table t (a char(256))",
         "ParseException line 1:23 char length out of range [1, 255] "
         "near '256'"},
        {"create table t (a decimal(5,6))",
         "ParseException line 1:28 decimal scale out of range [0, 5] "
         "near '6'"},
        {"create table t (a decimal(39))",
         "ParseException line 1:26 decimal precision out of range "
         "[1, 38] near '39'"},
        {"create table t (a varchar)",
         "ParseException line 1:25 missing '(' near ')'"},
        {"create table t (a map<array<int>,int>)",
         "ParseException line 1:18 map keys must be of a primitive type "
         "near 'map'"},
        {"create table t (a struct<x:int,x:string>)",
         "ParseException line 1:31 duplicate field 'x' near 'x'"},
        {"create table t (a array<int,int>)",
         "ParseException line 1:27 missing '>' near ','"},
        {"create table t (a map<int>)",
         "ParseException line 1:25 missing ',' near '>'"},
        {"select a[1 from t",
         "ParseException line 1:11 missing ']' near 'from'"},
    };
    check_syntax_errors(cases, N(cases));
}

/* Type trees nest at most COMB_MAX_TYPE_DEPTH deep: no stack to exhaust. */
TEST(error_type_nested_too_deeply)
{
    CombBuf b = COMB_BUF_INIT;
    CombArena a;
    AstStmt *st;
    CombErr err;
    comb_buf_append_str(&b, "create table t (a ");
    for (int i = 0; i < 150; i++)
        comb_buf_append_str(&b, "array<");
    comb_buf_append_str(&b, "int");
    for (int i = 0; i < 150; i++)
        comb_buf_append_byte(&b, '>');
    comb_buf_append_str(&b, ")");
    comb_arena_init(&a, 4096);
    CHECK_EQ(sql_parse_statement((const char *)b.data, b.len, &a, &st, &err),
             COMB_ESYNTAX);
    CHECK(strstr(err.msg, "type nested too deeply") != NULL);
    comb_arena_free(&a);
    comb_buf_free(&b);
}

TEST(error_positions_on_later_lines)
{
    static const SyntaxCase cases[] = {
        {"SELECT a,\n       b\nFROM t\nWHERE",
         "ParseException line 4:5 expected expression near '<EOF>'"},
        {"SELECT a\nFROM t WHERE a = = 1",
         "ParseException line 2:17 expected expression near '='"},
        {"CREATE TABLE t (\n  a int,\n  b foo\n)",
         "ParseException line 3:4 expected type name near 'foo'"},
        {"select 1\n\nfrom",
         "ParseException line 3:4 expected identifier near '<EOF>'"},
        {"select a,\nb\nc d",
         "ParseException line 3:2 cannot recognize input near 'd'"},
        {"set\n  = x",
         "ParseException line 2:2 missing configuration name before '='"
         " near '='"},
    };
    check_syntax_errors(cases, N(cases));
}

TEST(error_unterminated_tokens_at_their_start)
{
    static const SyntaxCase cases[] = {
        {"SELECT 'abc",
         "ParseException line 1:7 unterminated string literal near "
         "''abc'"},
        {"select a,\n  \"oops\nmore",
         "ParseException line 2:2 unterminated string literal near "
         "'\"oops'"},
        {"SELECT 1 /* x",
         "ParseException line 1:9 unterminated comment near '/* x'"},
        {"select `abc",
         "ParseException line 1:7 unterminated quoted identifier near "
         "'`abc'"},
        {"select 'a\\'",
         "ParseException line 1:7 unterminated string literal near "
         "''a\\''"},
    };
    check_syntax_errors(cases, N(cases));
}

TEST(error_long_token_is_cut_in_message)
{
    PARSE_ERR("select a b aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeee",
              COMB_ESYNTAX,
              "ParseException line 1:11 cannot recognize input near "
              "'aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd'");
}

/* A valid statement refused as unsupported at line 1, column col. */
typedef struct UnsupportedCase {
    const char *sql;
    int col;
    const char *what;
} UnsupportedCase;

static void check_unsupported(const UnsupportedCase *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char want[256];
        snprintf(want, sizeof want, "line 1:%d %s is not supported",
                 c[i].col, c[i].what);
        PARSE_ERR(c[i].sql, COMB_EUNSUPPORTED, want);
    }
}

TEST(unsupported_query_features)
{
    static const UnsupportedCase cases[] = {
        {"select a from t tablesample(bucket 1 out of 2)", 16, "TABLESAMPLE"},
        {"with x (a) as (select 1) select * from x", 7,
         "a column list of a WITH query"},
    };
    check_unsupported(cases, N(cases));
}

TEST(unsupported_expressions)
{
    static const UnsupportedCase cases[] = {
        {"select interval 1 day", 7, "INTERVAL"},
        {"select a & b", 9, "bitwise operator '&'"},
        {"select a | b", 9, "bitwise operator '|'"},
        {"select a ^ b", 9, "bitwise operator '^'"},
        {"select ~a", 7, "bitwise operator '~'"},
        {"select (1, 2)", 9, "a parenthesized list"},
    };
    check_unsupported(cases, N(cases));
}

TEST(unsupported_ddl)
{
    static const UnsupportedCase cases[] = {
        {"create table t (a timestamp with local time zone)", 28,
         "TIMESTAMP WITH LOCAL TIME ZONE"},
        {"create table t (a int) stored by 'h'", 30,
         "STORED BY (storage handler)"},
        {"create table t (a int) stored as inputformat 'a' "
         "outputformat 'b' inputdriver 'c' outputdriver 'd'", 66,
         "INPUTDRIVER"},
        {"create table t (a int) skewed by (a) on (1)", 23, "SKEWED BY"},
        {"create table t (a int, primary key (a) disable novalidate)", 23,
         "a table constraint"},
        {"create table t (a int, constraint c unique (a))", 23,
         "a table constraint"},
        {"create table t (a int not null)", 22, "a column constraint"},
        {"create table t (a int not null)", 22, "a column constraint"},
        {"create database d managedlocation '/x'", 18, "MANAGEDLOCATION"},
        {"create materialized view v as select 1", 7, "CREATE materialized"},
        {"create view v partitioned on (a) as select 1 a", 14,
         "PARTITIONED ON for a view"},
        {"create view v stored by iceberg as select 1", 14,
         "STORED BY for a view"},
        {"create temporary function f as 'x'", 17, "CREATE function"},
        {"drop materialized view v", 5, "DROP materialized"},
        {"show create database d", 12,
         "SHOW CREATE of anything but a table or view"},
        {"describe t c.f", 12, "DESCRIBE of a field inside a column"},
        {"msck repair table t partition (p > 1)", 20,
         "MSCK with a partition filter"},
    };
    check_unsupported(cases, N(cases));
}

TEST(unsupported_statements_and_dml)
{
    static const UnsupportedCase cases[] = {
        {"alter table t compact 'major' pool 'p'", 30, "COMPACT ... pool"},
        {"alter table t compact 'major' and wait order by a", 39,
         "COMPACT ... order"},
        {"show compactions t", 17, "SHOW COMPACTIONS t"},
        {"explain alter table t rename to u", 8,
         "EXPLAIN of ALTER other than COMPACT"},
        {"alter table t set fileformat orc", 18, "ALTER TABLE SET fileformat"},
        {"alter table t partition (p=1) into 2 buckets", 30,
         "ALTER TABLE into"},
        {"alter table t touch", 14, "ALTER TABLE touch"},
        {"alter table t partition (p=1) rename to partition (p=2)", 30,
         "ALTER TABLE rename"},
        {"alter table t add constraint pk primary key (a) disable", 18,
         "ALTER TABLE ADD constraint"},
        {"alter table t drop constraint pk", 19, "ALTER TABLE DROP constraint"},
        {"alter database d set dbproperties ('a'='b')", 6, "ALTER database"},
        {"alter view v add partition (p=1)", 13, "ALTER VIEW add"},
        {"truncate table t columns (a)", 17, "TRUNCATE of columns"},
        {"explain show tables", 8,
         "EXPLAIN of SHOW other than LOCKS, TRANSACTIONS or COMPACTIONS"},
        {"explain ast select 1", 8, "EXPLAIN ast"},
        {"from t select a insert into u select a", 16,
         "a FROM statement with a SELECT and further clauses"},
        {"from t select a select b", 16,
         "a FROM statement with a SELECT and further clauses"},
        {"from t insert into u select a select b", 30,
         "a SELECT among the INSERT clauses of a FROM statement"},
        {"from t insert overwrite directory '/x' select a", 24,
         "INSERT OVERWRITE DIRECTORY"},
        {"insert overwrite directory '/x' select 1", 17,
         "INSERT OVERWRITE DIRECTORY"},
        {"insert overwrite local directory '/x' select 1", 17,
         "INSERT OVERWRITE DIRECTORY"},
        {"insert into t (select 1)", 15, "a parenthesized query"},
    };
    check_unsupported(cases, N(cases));
}

/* Hive's phase-1 conflicts of the row-order clauses: semantic errors the
 * parser raises with Hive's text (generateErrorMessage, which Hive prints
 * without the number) at the later clause's first expression, near its
 * last leaf; hive_code still carries the number. */
TEST(sort_clause_conflicts)
{
    static const struct {
        const char *sql;
        int hive_code;
        const char *message;
    } cases[] = {
        {"select a from t order by a sort by b", 10049,
         "SemanticException 1:35 Cannot have both ORDER BY and SORT BY "
         "clauses. Error encountered near token 'b'"},
        {"select a from t order by a distribute by a + 1, upper(s)", 10047,
         "SemanticException 1:43 Cannot have both ORDER BY and DISTRIBUTE BY "
         "clauses. Error encountered near token 's'"},
        {"select a from t cluster by a distribute by b", 10046,
         "SemanticException 1:43 Cannot have both CLUSTER BY and DISTRIBUTE "
         "BY clauses. Error encountered near token 'b'"},
        {"select a from t cluster by (a) sort by b desc, c between 1 and 9",
         10048,
         "SemanticException 1:39 Cannot have both CLUSTER BY and SORT BY "
         "clauses. Error encountered near token '9'"},
        {"select a from t order by a cluster by x.a", 10050,
         "SemanticException 1:38 Cannot have both CLUSTER BY and ORDER BY "
         "clauses. Error encountered near token 'a'"},
        {"from t insert into u select a\n order by a sort by b",
         10049,
         "SemanticException 2:20 Cannot have both ORDER BY and SORT BY "
         "clauses. Error encountered near token 'b'"},
    };
    for (size_t i = 0; i < N(cases); i++) {
        PARSE_ERR(cases[i].sql, COMB_ESEMANTIC, cases[i].message);
        CHECK_EQ(tp_err.hive_code, cases[i].hive_code);
    }
}

TEST(from_statement_syntax_errors)
{
    static const SyntaxCase cases[] = {
        {"from t", "ParseException line 1:6 missing INSERT or SELECT near "
                   "'<EOF>'"},
        {"from t where a = 1",
         "ParseException line 1:7 missing INSERT or SELECT near 'where'"},
        {"from t insert into u values (1)",
         "ParseException line 1:21 missing SELECT near 'values'"},
        {"from t insert into u select a from v",
         "ParseException line 1:30 cannot recognize input near 'from'"},
        {"from t insert into u select a limit 1 sort by a",
         "ParseException line 1:38 cannot recognize input near 'sort'"},
        {"select a from t sort by (a) desc",
         "ParseException line 1:28 cannot recognize input near 'desc'"},
        {"select a from t sort by a distribute by a",
         "ParseException line 1:26 cannot recognize input near 'distribute'"},
        {"select a from t cluster by a desc",
         "ParseException line 1:29 cannot recognize input near 'desc'"},
    };
    check_syntax_errors(cases, N(cases));
}

TEST(unsupported_position_on_later_line)
{
    PARSE_ERR("select a\n  from t\n  tablesample(bucket 1 out of 2)", COMB_EUNSUPPORTED,
              "line 3:2 TABLESAMPLE is not supported");
}
