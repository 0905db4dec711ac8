/*
 * test_parse_errors.c - syntax errors (exact messages and positions, on
 * the first line and later ones) and the unsupported-but-valid HiveQL
 * constructs, each refused with COMB_EUNSUPPORTED at its position.
 */
#include "test_parse_util.h"

TEST(error_messages_line_one)
{
    PARSE_ERR("SELECT * FORM t", COMB_ESYNTAX,
              "ParseException line 1:9 cannot recognize input near 'FORM'");
    PARSE_ERR("SELECT a FROM", COMB_ESYNTAX,
              "ParseException line 1:13 expected identifier near '<EOF>'");
    PARSE_ERR("DELETE t", COMB_ESYNTAX,
              "ParseException line 1:7 missing FROM near 't'");
    PARSE_ERR("FOO bar", COMB_ESYNTAX,
              "ParseException line 1:0 cannot recognize input near 'FOO'");
    PARSE_ERR("select 1; select 2", COMB_ESYNTAX,
              "ParseException line 1:10 cannot recognize input near 'select'");
    PARSE_ERR("select a from t where a in ()", COMB_ESYNTAX,
              "ParseException line 1:28 expected expression near ')'");
    PARSE_ERR("select cast(a as foo)", COMB_ESYNTAX,
              "ParseException line 1:17 expected type name near 'foo'");
    PARSE_ERR("select case when a then b", COMB_ESYNTAX,
              "ParseException line 1:25 missing END near '<EOF>'");
    PARSE_ERR("select @", COMB_ESYNTAX,
              "ParseException line 1:7 expected expression near '@'");
    PARSE_ERR("insert into t", COMB_ESYNTAX,
              "ParseException line 1:13 missing VALUES or SELECT near '<EOF>'");
    PARSE_ERR("select a from t order by a nulls middle", COMB_ESYNTAX,
              "ParseException line 1:33 missing FIRST or LAST near 'middle'");
    PARSE_ERR("select a from t limit -1", COMB_ESYNTAX,
              "ParseException line 1:22 expected LIMIT row count near '-'");
    PARSE_ERR("select `` from t", COMB_ESYNTAX,
              "ParseException line 1:7 empty identifier near '``'");
    PARSE_ERR("set =x", COMB_ESYNTAX,
              "ParseException line 1:4 missing configuration name before '='"
              " near '='");
    PARSE_ERR("update t set a 1", COMB_ESYNTAX,
              "ParseException line 1:15 missing '=' near '1'");
}

TEST(error_messages_empty_and_reserved)
{
    PARSE_ERR("", COMB_ESYNTAX,
              "ParseException line 1:0 cannot recognize input (empty "
              "statement) near '<EOF>'");
    PARSE_ERR("  ;", COMB_ESYNTAX,
              "ParseException line 1:2 cannot recognize input (empty "
              "statement) near ';'");
    PARSE_ERR("CREATE TABLE select (a int)", COMB_ESYNTAX,
              "ParseException line 1:13 reserved keyword SELECT used as an "
              "identifier (quote it with backquotes) near 'select'");
    PARSE_ERR("select a from t where", COMB_ESYNTAX,
              "ParseException line 1:21 expected expression near '<EOF>'");
}

TEST(error_type_parameters)
{
    PARSE_ERR("create table t (a varchar(0))", COMB_ESYNTAX,
              "ParseException line 1:26 varchar length out of range "
              "[1, 65535] near '0'");
    PARSE_ERR("create table t (a char(256))", COMB_ESYNTAX,
              "ParseException line 1:23 char length out of range [1, 255] "
              "near '256'");
    PARSE_ERR("create table t (a decimal(5,6))", COMB_ESYNTAX,
              "ParseException line 1:28 decimal scale out of range [0, 5] "
              "near '6'");
    PARSE_ERR("create table t (a decimal(39))", COMB_ESYNTAX,
              "ParseException line 1:26 decimal precision out of range "
              "[1, 38] near '39'");
    PARSE_ERR("create table t (a varchar)", COMB_ESYNTAX,
              "ParseException line 1:25 missing '(' near ')'");
}

TEST(error_positions_on_later_lines)
{
    PARSE_ERR("SELECT a,\n       b\nFROM t\nWHERE", COMB_ESYNTAX,
              "ParseException line 4:5 expected expression near '<EOF>'");
    PARSE_ERR("SELECT a\nFROM t WHERE a = = 1", COMB_ESYNTAX,
              "ParseException line 2:17 expected expression near '='");
    PARSE_ERR("CREATE TABLE t (\n  a int,\n  b foo\n)", COMB_ESYNTAX,
              "ParseException line 3:4 expected type name near 'foo'");
    PARSE_ERR("select 1\n\nfrom", COMB_ESYNTAX,
              "ParseException line 3:4 expected identifier near '<EOF>'");
    PARSE_ERR("select a,\nb\nc d", COMB_ESYNTAX,
              "ParseException line 3:2 cannot recognize input near 'd'");
    PARSE_ERR("set\n  = x", COMB_ESYNTAX,
              "ParseException line 2:2 missing configuration name before '='"
              " near '='");
}

TEST(error_unterminated_tokens_at_their_start)
{
    PARSE_ERR("SELECT 'abc", COMB_ESYNTAX,
              "ParseException line 1:7 unterminated string literal near "
              "''abc'");
    PARSE_ERR("select a,\n  \"oops\nmore", COMB_ESYNTAX,
              "ParseException line 2:2 unterminated string literal near "
              "'\"oops'");
    PARSE_ERR("SELECT 1 /* x", COMB_ESYNTAX,
              "ParseException line 1:9 unterminated comment near '/* x'");
    PARSE_ERR("select `abc", COMB_ESYNTAX,
              "ParseException line 1:7 unterminated quoted identifier near "
              "'`abc'");
    PARSE_ERR("select 'a\\'", COMB_ESYNTAX,
              "ParseException line 1:7 unterminated string literal near "
              "''a\\''");
}

TEST(error_long_token_is_cut_in_message)
{
    PARSE_ERR("select a b aaaaaaaaaabbbbbbbbbbccccccccccddddddddddeeeeeeeeee",
              COMB_ESYNTAX,
              "ParseException line 1:11 cannot recognize input near "
              "'aaaaaaaaaabbbbbbbbbbccccccccccdddddddddd'");
}

/* Parsing sql must be refused as unsupported at line 1, column col. */
#define UNSUPPORTED(sql, col, what)                                      \
    do {                                                                 \
        char want_[256];                                                 \
        snprintf(want_, sizeof want_, "line 1:%d %s is not supported",   \
                 (col), (what));                                         \
        PARSE_ERR((sql), COMB_EUNSUPPORTED, want_);                      \
    } while (0)

TEST(unsupported_query_features)
{
    UNSUPPORTED("SELECT a FROM t JOIN u ON t.x = u.x", 16, "JOIN");
    UNSUPPORTED("select a from t x left outer join u on 1=1", 18, "JOIN");
    UNSUPPORTED("select a from t inner join u", 16, "JOIN");
    UNSUPPORTED("select a from t cross join u", 16, "JOIN");
    UNSUPPORTED("select a from t full join u", 16, "JOIN");
    UNSUPPORTED("select a from t right join u", 16, "JOIN");
    UNSUPPORTED("select * from t, u", 15, "JOIN");
    UNSUPPORTED("select * from (select 1) x", 14, "a subquery in FROM");
    UNSUPPORTED("select * from t where a in (select b from u)", 28,
                "IN (subquery)");
    UNSUPPORTED("select * from t where exists (select 1)", 22,
                "EXISTS (subquery)");
    UNSUPPORTED("select (select 1)", 8, "a subquery");
    UNSUPPORTED("select a from t union all select b from u", 16, "UNION");
    UNSUPPORTED("select a from t intersect select a from u", 16, "INTERSECT");
    UNSUPPORTED("select a from t minus select a from u", 16, "MINUS");
    UNSUPPORTED("select rank() over (order by a) from t", 14,
                "window function (OVER)");
    UNSUPPORTED("select a from t window w as (partition by a)", 16, "WINDOW");
    UNSUPPORTED("select a from t lateral view explode(b) e as c", 16,
                "LATERAL VIEW");
    UNSUPPORTED("select a from t tablesample(bucket 1 out of 2)", 16,
                "TABLESAMPLE");
    UNSUPPORTED("select a from t group by a with rollup", 27,
                "WITH ROLLUP/CUBE and GROUPING SETS");
    UNSUPPORTED("select a from t group by a grouping sets ((a))", 27,
                "WITH ROLLUP/CUBE and GROUPING SETS");
    UNSUPPORTED("select a from t group by rollup(a)", 25,
                "GROUP BY ROLLUP/CUBE");
    UNSUPPORTED("select a from t limit 1, 2", 23, "LIMIT with an offset");
    UNSUPPORTED("select a from t limit 1 offset 2", 24, "LIMIT with an offset");
    UNSUPPORTED("select a from t sort by a", 16, "SORT BY");
    UNSUPPORTED("select a from t distribute by a", 16, "DISTRIBUTE BY");
    UNSUPPORTED("select a from t order by a cluster by a", 27, "CLUSTER BY");
    UNSUPPORTED("select a as (x, y) from t", 12, "AS with a column list");
    UNSUPPORTED("with x as (select 1) select * from x", 0, "WITH statement");
    UNSUPPORTED("(select 1)", 0, "a parenthesized query");
}

TEST(unsupported_expressions)
{
    UNSUPPORTED("select interval 1 day", 7, "INTERVAL");
    UNSUPPORTED("select a[0] from t", 8, "subscript '[ ]'");
    UNSUPPORTED("select a & b", 9, "bitwise operator '&'");
    UNSUPPORTED("select a | b", 9, "bitwise operator '|'");
    UNSUPPORTED("select a ^ b", 9, "bitwise operator '^'");
    UNSUPPORTED("select ~a", 7, "bitwise operator '~'");
    UNSUPPORTED("select a is true from t", 12, "IS [NOT] TRUE/FALSE");
    UNSUPPORTED("select (1, 2)", 9, "a parenthesized list");
    UNSUPPORTED("select cast(a as array<int>)", 17, "complex type ARRAY");
}

TEST(unsupported_ddl)
{
    UNSUPPORTED("create table t (a array<int>)", 18, "complex type ARRAY");
    UNSUPPORTED("create table t (a map<string,int>)", 18, "complex type MAP");
    UNSUPPORTED("create table t (a struct<x:int>)", 18, "complex type STRUCT");
    UNSUPPORTED("create table t (a uniontype<int>)", 18,
                "complex type UNIONTYPE");
    UNSUPPORTED("create table t (a timestamp with local time zone)", 28,
                "TIMESTAMP WITH LOCAL TIME ZONE");
    UNSUPPORTED("create table t as select 1", 15, "CREATE TABLE AS SELECT");
    UNSUPPORTED("create table t (a int) as select 1", 23,
                "CREATE TABLE AS SELECT");
    UNSUPPORTED("create table t like u", 15, "CREATE TABLE LIKE");
    UNSUPPORTED("create table t (a int) stored by 'h'", 30,
                "STORED BY (storage handler)");
    UNSUPPORTED("create table t (a int) stored as inputformat 'a' "
                "outputformat 'b'", 33, "STORED AS INPUTFORMAT");
    UNSUPPORTED("create table t (a int) row format serde 'x'", 34,
                "ROW FORMAT SERDE");
    UNSUPPORTED("create table t (a int) row format delimited fields "
                "terminated by ',' escaped by '\\\\'", 69, "ESCAPED BY");
    UNSUPPORTED("create table t (a int) row format delimited collection "
                "items terminated by ','", 44,
                "COLLECTION ITEMS / MAP KEYS TERMINATED BY");
    UNSUPPORTED("create table t (a int) row format delimited null defined "
                "as 'x'", 44, "NULL DEFINED AS");
    UNSUPPORTED("create table t (a int) skewed by (a) on (1)", 23,
                "SKEWED BY");
    UNSUPPORTED("create table t (a int, primary key (a) disable novalidate)",
                23, "a table constraint");
    UNSUPPORTED("create table t (a int, constraint c unique (a))", 23,
                "a table constraint");
    UNSUPPORTED("create table t (a int not null)", 22, "a column constraint");
    UNSUPPORTED("create table t (a int default 1)", 22, "a column constraint");
    UNSUPPORTED("create database d managedlocation '/x'", 18,
                "MANAGEDLOCATION");
    UNSUPPORTED("create view v as select 1", 7, "CREATE view");
    UNSUPPORTED("create temporary function f as 'x'", 17, "CREATE function");
    UNSUPPORTED("drop view v", 5, "DROP view");
    UNSUPPORTED("show partitions t", 5, "SHOW partitions");
    UNSUPPORTED("show create table t", 5, "SHOW create");
    UNSUPPORTED("describe database d", 9, "DESCRIBE database");
    UNSUPPORTED("describe schema d", 9, "DESCRIBE schema");
    UNSUPPORTED("describe function f", 9, "DESCRIBE function");
    UNSUPPORTED("describe t c", 11, "DESCRIBE of a column");
    UNSUPPORTED("describe db.t.c", 13, "DESCRIBE of a column");
    UNSUPPORTED("describe t partition (p=1)", 11, "DESCRIBE of a partition");
}

TEST(unsupported_statements_and_dml)
{
    UNSUPPORTED("ALTER TABLE t ADD COLUMNS (b int)", 0, "ALTER statement");
    UNSUPPORTED("truncate table t", 0, "TRUNCATE statement");
    UNSUPPORTED("explain select 1", 0, "EXPLAIN statement");
    UNSUPPORTED("merge into t using u on t.a = u.a", 0, "MERGE statement");
    UNSUPPORTED("load data inpath '/x' into table t", 0, "LOAD statement");
    UNSUPPORTED("from t insert into u select a", 0, "FROM statement");
    UNSUPPORTED("insert into t partition (p=1) values (1)", 14,
                "INSERT with PARTITION");
    UNSUPPORTED("insert overwrite directory '/x' select 1", 17,
                "INSERT OVERWRITE DIRECTORY");
    UNSUPPORTED("insert overwrite local directory '/x' select 1", 17,
                "INSERT OVERWRITE DIRECTORY");
    UNSUPPORTED("insert into t (select 1)", 15, "a parenthesized query");
    UNSUPPORTED("insert into t with x as (select 1) select * from x", 14,
                "WITH");
}

TEST(unsupported_position_on_later_line)
{
    PARSE_ERR("select a\n  from t\n  join u on 1 = 1", COMB_EUNSUPPORTED,
              "line 3:2 JOIN is not supported");
}
