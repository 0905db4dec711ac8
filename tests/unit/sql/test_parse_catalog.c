/*
 * test_parse_catalog.c - the catalog statements (SHOW CREATE TABLE, SHOW
 * TBLPROPERTIES, SHOW [SORTED] COLUMNS, SHOW PARTITIONS, DESCRIBE forms,
 * DESCRIBE DATABASE, MSCK) and CREATE TABLE's ROW FORMAT SERDE and STORED
 * AS INPUTFORMAT clauses: the fields each fills, and their syntax errors.
 */
#include "test_parse_util.h"

TEST(parse_show_create_table)
{
    AstStmt *s;
    PARSE_OK(s, "SHOW CREATE TABLE db.t");
    CHECK_EQ(s->kind, AST_SHOW_CREATE_TABLE);
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->name.name, "t");
    PARSE_OK(s, "show create table t;");
    CHECK(s->name.db == NULL);
    PARSE_ERR("show create table", COMB_ESYNTAX,
              "ParseException line 1:17 expected identifier near '<EOF>'");
}

TEST(parse_show_tblproperties)
{
    AstStmt *s;
    PARSE_OK(s, "SHOW TBLPROPERTIES t");
    CHECK_EQ(s->kind, AST_SHOW_TBLPROPERTIES);
    CHECK(s->catalog && s->catalog->prop_key == NULL);
    PARSE_OK(s, "show tblproperties db.t(\"bar\")");
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->catalog->prop_key, "bar");
    PARSE_ERR("show tblproperties t('a'", COMB_ESYNTAX,
              "ParseException line 1:24 missing ')' near '<EOF>'");
    PARSE_ERR("show tblproperties t(a)", COMB_ESYNTAX,
              "ParseException line 1:21 expected string literal near 'a'");
}

TEST(parse_show_columns)
{
    AstStmt *s;
    PARSE_OK(s, "SHOW COLUMNS FROM t");
    CHECK_EQ(s->kind, AST_SHOW_COLUMNS);
    CHECK(!s->catalog->sorted && !s->catalog->db.name && !s->like_pattern);
    PARSE_OK(s, "show columns in t in db like 'c*'");
    CHECK_STR(s->catalog->db.name, "db");
    CHECK_STR(s->like_pattern, "c*");
    PARSE_OK(s, "show sorted columns from db.t \"col1|cola\"");
    CHECK(s->catalog->sorted);
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->like_pattern, "col1|cola");
    /* COLUMNS stays an ordinary name elsewhere */
    PARSE_OK(s, "select columns from columns");
    CHECK_EQ(s->kind, AST_SELECT);
    PARSE_ERR("show columns t", COMB_ESYNTAX,
              "ParseException line 1:13 missing FROM or IN near 't'");
}

TEST(parse_show_partitions)
{
    AstStmt *s;
    PARSE_OK(s, "SHOW PARTITIONS t");
    CHECK_EQ(s->kind, AST_SHOW_PARTITIONS);
    CHECK_EQ(s->part.n, 0);
    CHECK(s->catalog->where == NULL && s->catalog->n_order_by == 0);
    CHECK_EQ(s->catalog->limit, -1);
    PARSE_OK(s, "show partitions db.t partition (p = 'a') where q > 1 "
                "order by q desc, p limit 5");
    CHECK_EQ(s->part.n, 1);
    CHECK_STR(s->part.items[0].key, "p");
    CHECK(s->catalog->where && s->catalog->where->kind == AST_BINARY);
    CHECK_EQ(s->catalog->n_order_by, 2);
    CHECK(s->catalog->order_by[0].desc && !s->catalog->order_by[1].desc);
    CHECK_EQ(s->catalog->limit, 5);
    PARSE_ERR("show partitions t partition (p)", COMB_ESYNTAX,
              "ParseException line 1:29 missing value for partition key p");
    PARSE_ERR("show partitions t limit 40000", COMB_ESYNTAX,
              "ParseException line 1:24 LIMIT row count out of range "
              "[0, 32767] near '40000'");
}

TEST(parse_describe_forms)
{
    AstStmt *s;
    PARSE_OK(s, "DESCRIBE t");
    CHECK_EQ(s->kind, AST_DESCRIBE);
    CHECK(!s->describe_extended && !s->describe_formatted);
    CHECK(s->catalog == NULL && s->part.n == 0);
    PARSE_OK(s, "desc formatted db.t partition (a = 1, b = 'x')");
    CHECK(s->describe_formatted);
    CHECK_STR(s->name.db, "db");
    CHECK_EQ(s->part.n, 2);
    PARSE_OK(s, "describe t col");
    CHECK_STR(s->catalog->column, "col");
    CHECK_EQ(s->catalog->column_pos.col, 12);
    PARSE_OK(s, "describe extended t partition (a = 1) `key`");
    CHECK(s->describe_extended);
    CHECK_STR(s->catalog->column, "key");
    PARSE_OK(s, "DESCRIBE DATABASE d");
    CHECK_EQ(s->kind, AST_DESCRIBE_DATABASE);
    CHECK(!s->describe_extended);
    CHECK_STR(s->name.name, "d");
    PARSE_OK(s, "desc schema extended d");
    CHECK_EQ(s->kind, AST_DESCRIBE_DATABASE);
    CHECK(s->describe_extended);
    /* a table called schema */
    PARSE_OK(s, "describe schema");
    CHECK_EQ(s->kind, AST_DESCRIBE);
    CHECK_STR(s->name.name, "schema");
    PARSE_ERR("describe t partition (a)", COMB_ESYNTAX,
              "ParseException line 1:22 missing value for partition key a");
    PARSE_ERR("describe db.t.c", COMB_ESYNTAX,
              "ParseException line 1:13 cannot recognize input near '.'");
}

TEST(parse_msck)
{
    AstStmt *s;
    PARSE_OK(s, "MSCK TABLE t");
    CHECK_EQ(s->kind, AST_MSCK);
    CHECK(!s->catalog->repair);
    CHECK_EQ(s->catalog->msck_mode, AST_MSCK_ADD);
    PARSE_OK(s, "msck repair table db.t");
    CHECK(s->catalog->repair);
    CHECK_STR(s->name.db, "db");
    CHECK_EQ(s->catalog->msck_mode, AST_MSCK_ADD);
    PARSE_OK(s, "msck repair table t add partitions");
    CHECK_EQ(s->catalog->msck_mode, AST_MSCK_ADD);
    PARSE_OK(s, "MSCK REPAIR TABLE t DROP PARTITIONS");
    CHECK_EQ(s->catalog->msck_mode, AST_MSCK_DROP);
    PARSE_OK(s, "msck repair table t sync partitions;");
    CHECK_EQ(s->catalog->msck_mode, AST_MSCK_SYNC);
    PARSE_ERR("msck repair t", COMB_ESYNTAX,
              "ParseException line 1:12 missing TABLE near 't'");
    PARSE_ERR("msck table t sync", COMB_ESYNTAX,
              "ParseException line 1:13 cannot recognize input near 'sync'");
}

TEST(parse_create_table_storage_clauses)
{
    AstStmt *s;
    PARSE_OK(s, "CREATE TABLE t (a int) ROW FORMAT SERDE "
                "'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe' "
                "WITH SERDEPROPERTIES ('field.delim'=',', 'x'='\\u0001') "
                "STORED AS INPUTFORMAT 'org.apache.hadoop.mapred.TextInputFormat' "
                "OUTPUTFORMAT 'o' LOCATION '/x'");
    CHECK_EQ(s->kind, AST_CREATE_TABLE);
    CHECK_STR(s->catalog->serde,
              "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
    CHECK_EQ(s->catalog->n_serde_props, 2);
    CHECK_STR(s->catalog->serde_props[0].key, "field.delim");
    CHECK_STR(s->catalog->serde_props[1].value, "\001");
    CHECK_STR(s->catalog->input_format, "org.apache.hadoop.mapred.TextInputFormat");
    CHECK_STR(s->catalog->output_format, "o");
    CHECK_STR(s->location, "/x");
    PARSE_OK(s, "create table t (a int) row format serde 'x'");
    CHECK_STR(s->catalog->serde, "x");
    CHECK_EQ(s->catalog->n_serde_props, 0);
    PARSE_ERR("create table t (a int) stored as inputformat 'a'", COMB_ESYNTAX,
              "ParseException line 1:48 missing OUTPUTFORMAT near '<EOF>'");
    PARSE_ERR("create table t (a int) row format serde x", COMB_ESYNTAX,
              "ParseException line 1:40 expected string literal near 'x'");
}
