/*
 * test_parse_stmt.c - every statement kind and clause of the parser: the
 * AST fields each one fills, statement text and position, identifiers
 * (case, backquotes) and the raw-text SET forms.
 */
#include "test_parse_util.h"

#include "common/buf.h"

TEST(parse_create_database_full)
{
    AstStmt *s;
    PARSE_OK(s, "CREATE DATABASE IF NOT EXISTS Sales COMMENT 'the ''sales'' db'"
                " LOCATION '/w/sales' WITH DBPROPERTIES ('owner'='bob', 'k' = 'v')");
    CHECK_EQ(s->kind, AST_CREATE_DATABASE);
    CHECK(s->if_not_exists);
    CHECK_STR(s->name.name, "sales");
    CHECK(s->name.db == NULL);
    CHECK_EQ(s->name.pos.line, 1);
    CHECK_EQ(s->name.pos.col, 31);
    CHECK_STR(s->comment, "the sales db");   /* adjacent literals join */
    CHECK_STR(s->location, "/w/sales");
    CHECK_EQ(s->n_props, 2);
    CHECK_STR(s->props[0].key, "owner");
    CHECK_STR(s->props[0].value, "bob");
    CHECK_STR(s->props[1].key, "k");
    CHECK_STR(s->props[1].value, "v");
}

TEST(parse_create_schema_minimal)
{
    AstStmt *s;
    PARSE_OK(s, "create schema d1;");
    CHECK_EQ(s->kind, AST_CREATE_DATABASE);
    CHECK(!s->if_not_exists);
    CHECK_STR(s->name.name, "d1");
    CHECK(s->comment == NULL && s->location == NULL);
    CHECK_EQ(s->n_props, 0);
    CHECK_STR(s->text, "create schema d1");
}

TEST(parse_drop_database)
{
    AstStmt *s;
    PARSE_OK(s, "DROP DATABASE IF EXISTS d CASCADE");
    CHECK_EQ(s->kind, AST_DROP_DATABASE);
    CHECK(s->if_exists);
    CHECK(s->cascade);
    CHECK_STR(s->name.name, "d");
    PARSE_OK(s, "drop schema d restrict");
    CHECK_EQ(s->kind, AST_DROP_DATABASE);
    CHECK(!s->if_exists && !s->cascade);
    PARSE_OK(s, "drop database d");
    CHECK(!s->cascade);
}

TEST(parse_use)
{
    AstStmt *s;
    PARSE_OK(s, "USE Default;");
    CHECK_EQ(s->kind, AST_USE);
    CHECK_STR(s->name.name, "default");
}

TEST(parse_create_table_full)
{
    AstStmt *s;
    PARSE_OK(s,
             "CREATE TABLE IF NOT EXISTS db1.Orders (\n"
             "  id BIGINT COMMENT 'key',\n"
             "  qty INT, q2 INTEGER, t TINYINT, sm SMALLINT, ok BOOLEAN,\n"
             "  f FLOAT, d DOUBLE, dp DOUBLE PRECISION, s STRING,\n"
             "  v VARCHAR(20), c CHAR(3), dec DECIMAL, dec2 DECIMAL(12),\n"
             "  dec3 DECIMAL(10,2), dt DATE, ts TIMESTAMP, b BINARY)\n"
             "COMMENT 'orders'\n"
             "PARTITIONED BY (ds STRING COMMENT 'day', hr INT)\n"
             "CLUSTERED BY (id, qty) SORTED BY (id DESC, qty ASC, s) INTO 8 BUCKETS\n"
             "ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LINES TERMINATED BY '\\n'\n"
             "STORED AS ORC\n"
             "LOCATION '/w/orders'\n"
             "TBLPROPERTIES ('transactional'='true')");
    CHECK_EQ(s->kind, AST_CREATE_TABLE);
    CHECK(s->if_not_exists && !s->external && !s->temporary);
    CHECK_STR(s->name.db, "db1");
    CHECK_STR(s->name.name, "orders");
    CHECK_EQ(s->n_columns, 18);
    CHECK_STR(s->columns[0].name, "id");
    CHECK_EQ(s->columns[0].type.kind, COMB_T_BIGINT);
    CHECK_STR(s->columns[0].comment, "key");
    CHECK_EQ(s->columns[0].pos.line, 2);
    CHECK_EQ(s->columns[0].pos.col, 3);
    CHECK(s->columns[1].comment == NULL);
    static const CombTypeKind kinds[] = {
        COMB_T_BIGINT, COMB_T_INT, COMB_T_INT, COMB_T_TINYINT,
        COMB_T_SMALLINT, COMB_T_BOOLEAN, COMB_T_FLOAT, COMB_T_DOUBLE,
        COMB_T_DOUBLE, COMB_T_STRING, COMB_T_VARCHAR, COMB_T_CHAR,
        COMB_T_DECIMAL, COMB_T_DECIMAL, COMB_T_DECIMAL, COMB_T_DATE,
        COMB_T_TIMESTAMP, COMB_T_BINARY};
    for (int i = 0; i < 18; i++)
        CHECK_EQ(s->columns[i].type.kind, kinds[i]);
    CHECK_EQ(s->columns[0].type.p1, -1);
    CHECK_EQ(s->columns[10].type.p1, 20);
    CHECK_EQ(s->columns[11].type.p1, 3);
    CHECK_EQ(s->columns[12].type.p1, -1);
    CHECK_EQ(s->columns[12].type.p2, -1);
    CHECK_EQ(s->columns[13].type.p1, 12);
    CHECK_EQ(s->columns[13].type.p2, -1);
    CHECK_EQ(s->columns[14].type.p1, 10);
    CHECK_EQ(s->columns[14].type.p2, 2);
    CHECK_STR(s->comment, "orders");
    CHECK_EQ(s->n_partition_cols, 2);
    CHECK_STR(s->partition_cols[0].name, "ds");
    CHECK_EQ(s->partition_cols[0].type.kind, COMB_T_STRING);
    CHECK_STR(s->partition_cols[0].comment, "day");
    CHECK_STR(s->partition_cols[1].name, "hr");
    CHECK_EQ(s->n_cluster_cols, 2);
    CHECK_STR(s->cluster_cols[0], "id");
    CHECK_STR(s->cluster_cols[1], "qty");
    CHECK_EQ(s->cluster_pos.line, 9);
    CHECK_EQ(s->cluster_pos.col, 1);
    CHECK_EQ(s->n_sort_cols, 3);
    CHECK_STR(s->sort_cols[0], "id");
    CHECK(s->sort_desc[0]);
    CHECK(!s->sort_desc[1] && !s->sort_desc[2]);
    CHECK_EQ(s->n_buckets, 8);
    CHECK_STR(s->field_delim, ",");
    CHECK_STR(s->line_delim, "\n");
    CHECK_STR(s->stored_as, "orc");
    CHECK_STR(s->location, "/w/orders");
    CHECK_EQ(s->n_props, 1);
    CHECK_STR(s->props[0].key, "transactional");
    CHECK_STR(s->props[0].value, "true");
}

TEST(parse_create_table_minimal)
{
    AstStmt *s;
    PARSE_OK(s, "create temporary external table t (a int)");
    CHECK_EQ(s->kind, AST_CREATE_TABLE);
    CHECK(s->temporary && s->external);
    CHECK(s->name.db == NULL);
    CHECK_STR(s->name.name, "t");
    CHECK_EQ(s->n_columns, 1);
    CHECK_EQ(s->n_buckets, -1);
    CHECK_EQ(s->n_partition_cols, 0);
    CHECK_EQ(s->n_cluster_cols, 0);
    CHECK(s->stored_as == NULL && s->location == NULL);
    CHECK(s->field_delim == NULL && s->line_delim == NULL);
    /* non-reserved keywords name columns freely */
    PARSE_OK(s, "CREATE TABLE t (key string, comment string, location int,"
                " `date` date, first int)");
    CHECK_STR(s->columns[0].name, "key");
    CHECK_STR(s->columns[1].name, "comment");
    CHECK_STR(s->columns[3].name, "date");
    CHECK_STR(s->columns[4].name, "first");
    PARSE_OK(s, "CREATE TABLE t (a int) STORED AS TextFile");
    CHECK_STR(s->stored_as, "textfile");
}

TEST(parse_drop_table)
{
    AstStmt *s;
    PARSE_OK(s, "DROP TABLE IF EXISTS db.t PURGE");
    CHECK_EQ(s->kind, AST_DROP_TABLE);
    CHECK(s->if_exists && s->purge);
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->name.name, "t");
    PARSE_OK(s, "drop table t");
    CHECK(!s->if_exists && !s->purge);
}

TEST(parse_show)
{
    AstStmt *s;
    PARSE_OK(s, "SHOW DATABASES");
    CHECK_EQ(s->kind, AST_SHOW_DATABASES);
    CHECK(s->like_pattern == NULL);
    PARSE_OK(s, "show schemas like 'd*'");
    CHECK_EQ(s->kind, AST_SHOW_DATABASES);
    CHECK_STR(s->like_pattern, "d*");
    PARSE_OK(s, "SHOW TABLES");
    CHECK_EQ(s->kind, AST_SHOW_TABLES);
    CHECK(!s->show_in && s->like_pattern == NULL);
    PARSE_OK(s, "SHOW TABLES IN Db1 LIKE 'a*|b*'");
    CHECK(s->show_in);
    CHECK_STR(s->name.name, "db1");
    CHECK_STR(s->like_pattern, "a*|b*");
    PARSE_OK(s, "show tables from d 'x*'");
    CHECK(s->show_in);
    CHECK_STR(s->name.name, "d");
    CHECK_STR(s->like_pattern, "x*");
    PARSE_OK(s, "show tables 'x*'");
    CHECK(!s->show_in);
    CHECK_STR(s->like_pattern, "x*");
}

TEST(parse_describe)
{
    AstStmt *s;
    PARSE_OK(s, "DESCRIBE t");
    CHECK_EQ(s->kind, AST_DESCRIBE);
    CHECK(!s->describe_extended && !s->describe_formatted);
    CHECK_STR(s->name.name, "t");
    PARSE_OK(s, "desc extended db.t");
    CHECK(s->describe_extended);
    CHECK_STR(s->name.db, "db");
    PARSE_OK(s, "DESC FORMATTED t;");
    CHECK(s->describe_formatted && !s->describe_extended);
}

TEST(parse_insert_values)
{
    AstStmt *s;
    PARSE_OK(s, "INSERT INTO TABLE db.t VALUES (1, 'a', NULL), (2, 'b', 3.5)");
    CHECK_EQ(s->kind, AST_INSERT);
    CHECK(!s->overwrite);
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->name.name, "t");
    CHECK_EQ(s->n_insert_cols, 0);
    CHECK_EQ(s->n_rows, 2);
    CHECK_EQ(s->row_widths[0], 3);
    CHECK_EQ(s->row_widths[1], 3);
    CHECK_EQ(s->rows[0][0]->kind, AST_LIT_INT);
    CHECK_EQ(s->rows[0][0]->ival, 1);
    CHECK_STR(s->rows[0][1]->sval, "a");
    CHECK_EQ(s->rows[0][2]->kind, AST_LIT_NULL);
    CHECK_EQ(s->rows[1][2]->kind, AST_LIT_DOUBLE);
    CHECK(s->select == NULL);
}

TEST(parse_insert_columns_and_ragged_rows)
{
    AstStmt *s;
    PARSE_OK(s, "insert into t (B, `c`) values (1, -2), (3)");
    CHECK_EQ(s->n_insert_cols, 2);
    CHECK_STR(s->insert_cols[0], "b");
    CHECK_STR(s->insert_cols[1], "c");
    CHECK_EQ(s->insert_col_pos[0].line, 1);
    CHECK_EQ(s->insert_col_pos[0].col, 16);
    CHECK_EQ(s->insert_col_pos[1].col, 19);
    CHECK_EQ(s->n_rows, 2);
    CHECK_EQ(s->row_widths[1], 1);   /* the binder reports the mismatch */
    CHECK_EQ(s->rows[0][1]->ival, -2);
}

TEST(parse_insert_select_and_overwrite)
{
    AstStmt *s;
    PARSE_OK(s, "INSERT INTO t SELECT a, b FROM u WHERE a > 1");
    CHECK_EQ(s->kind, AST_INSERT);
    CHECK(s->select != NULL);
    CHECK_EQ(s->select->n_items, 2);
    CHECK_STR(s->select->from->table.name, "u");
    CHECK(s->select->where != NULL);
    CHECK_EQ(s->n_rows, 0);
    PARSE_OK(s, "INSERT OVERWRITE TABLE t (a) SELECT 1");
    CHECK(s->overwrite);
    CHECK_EQ(s->n_insert_cols, 1);
    CHECK(s->select != NULL && s->select->from == NULL);
}

TEST(parse_load_data)
{
    AstStmt *s;
    PARSE_OK(s, "LOAD DATA LOCAL INPATH '/in/f.csv' OVERWRITE INTO TABLE db.t "
                "PARTITION (ds='1', h) INPUTFORMAT 'i' SERDE 's'");
    CHECK_EQ(s->kind, AST_LOAD);
    CHECK(s->load_local);
    CHECK(s->overwrite);
    CHECK_STR(s->load_path, "/in/f.csv");
    CHECK_EQ(s->load_path_pos.col, 24);
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->name.name, "t");
    CHECK_EQ(s->part.n, 2);
    CHECK(s->part.items[0].value != NULL);
    CHECK(s->part.items[1].value == NULL);
    CHECK_STR(s->load_inputformat, "i");
    CHECK_STR(s->load_serde, "s");
    PARSE_OK(s, "load data inpath 'x' into table t");
    CHECK(!s->load_local && !s->overwrite && s->part.n == 0);
    CHECK(s->load_inputformat == NULL);
}

TEST(parse_select_full)
{
    AstStmt *s;
    PARSE_OK(s, "SELECT DISTINCT a, t.b AS bee, count(*) cnt, `Weird Name`, *,"
                " t.* FROM db.tbl AS t WHERE a > 1 GROUP BY a, t.b"
                " HAVING count(*) > 2 ORDER BY a DESC NULLS LAST, bee,"
                " 3 ASC NULLS FIRST LIMIT 10;");
    CHECK_EQ(s->kind, AST_SELECT);
    AstSelect *sel = s->select;
    CHECK(sel->distinct);
    CHECK_EQ(sel->n_items, 6);
    CHECK_EQ(sel->items[0].expr->kind, AST_COLREF);
    CHECK(sel->items[0].alias == NULL);
    CHECK_STR(sel->items[1].expr->qualifier, "t");
    CHECK_STR(sel->items[1].expr->name, "b");
    CHECK_STR(sel->items[1].alias, "bee");
    CHECK_EQ(sel->items[2].expr->kind, AST_FUNC);
    CHECK_STR(sel->items[2].alias, "cnt");
    CHECK_STR(sel->items[3].expr->name, "weird name");
    CHECK_EQ(sel->items[4].expr->kind, AST_STAR);
    CHECK(sel->items[4].expr->qualifier == NULL);
    CHECK_STR(sel->items[4].expr->text, "*");
    CHECK_EQ(sel->items[5].expr->kind, AST_STAR);
    CHECK_STR(sel->items[5].expr->qualifier, "t");
    CHECK_STR(sel->items[5].expr->text, "t.*");
    CHECK(sel->from != NULL);
    CHECK_STR(sel->from->table.db, "db");
    CHECK_STR(sel->from->table.name, "tbl");
    CHECK_STR(sel->from->alias, "t");
    CHECK_EQ(sel->where->kind, AST_BINARY);
    CHECK_EQ(sel->n_group_by, 2);
    CHECK_STR(sel->group_by[1]->text, "t.b");
    CHECK_EQ(sel->having->op, AST_OP_GT);
    CHECK_EQ(sel->n_order_by, 3);
    CHECK(sel->order_by[0].desc);
    CHECK_EQ(sel->order_by[0].nulls, 2);
    CHECK(!sel->order_by[1].desc);
    CHECK_EQ(sel->order_by[1].nulls, 0);
    CHECK_EQ(sel->order_by[2].nulls, 1);
    CHECK_EQ(sel->order_by[2].expr->kind, AST_LIT_INT);
    CHECK_EQ(sel->limit, 10);
}

TEST(parse_select_defaults_and_no_from)
{
    AstStmt *s;
    PARSE_OK(s, "select 1+1");
    AstSelect *sel = s->select;
    CHECK(!sel->distinct && sel->from == NULL);
    CHECK(sel->where == NULL && sel->having == NULL);
    CHECK_EQ(sel->n_group_by, 0);
    CHECK_EQ(sel->n_order_by, 0);
    CHECK_EQ(sel->limit, -1);
    CHECK_STR(sel->items[0].expr->text, "1+1");
    PARSE_OK(s, "select all a from t x limit 0");
    CHECK(!s->select->distinct);
    CHECK_STR(s->select->from->alias, "x");
    CHECK_EQ(s->select->limit, 0);
    /* a clause keyword after the table is not taken for an alias */
    PARSE_OK(s, "select a from t limit 5");
    CHECK(s->select->from->alias == NULL);
    CHECK_EQ(s->select->limit, 5);
}

TEST(parse_sort_distribute_cluster_by)
{
    AstStmt *s;
    AstSortBy *sb;
    PARSE_OK(s, "select a, b from t where a > 0 distribute by a, b + 1 "
                "sort by b desc nulls last, a limit 3");
    sb = s->select->sort_by;
    CHECK(sb != NULL && !sb->cluster);
    CHECK_EQ(s->select->n_order_by, 0);
    CHECK_EQ(sb->n_distribute, 2);
    CHECK_STR(sb->distribute[1]->text, "b + 1");
    CHECK_EQ(sb->n_sort, 2);
    CHECK(sb->sort[0].desc);
    CHECK_EQ(sb->sort[0].nulls, 2);
    CHECK(!sb->sort[1].desc);
    CHECK_EQ(sb->sort[1].nulls, 0);
    CHECK_EQ(s->select->limit, 3);
    /* the parenthesized forms */
    PARSE_OK(s, "select a from t distribute by (a, b) sort by (a asc, b)");
    sb = s->select->sort_by;
    CHECK_EQ(sb->n_distribute, 2);
    CHECK_EQ(sb->n_sort, 2);
    /* CLUSTER BY x is DISTRIBUTE BY x SORT BY x, ascending */
    PARSE_OK(s, "select a from t group by a having count(*) > 1 "
                "cluster by a, upper(a)");
    CHECK(s->select->having != NULL);
    sb = s->select->sort_by;
    CHECK(sb->cluster);
    CHECK_EQ(sb->n_distribute, 2);
    CHECK_EQ(sb->n_sort, 2);
    CHECK(sb->sort[1].expr == sb->distribute[1]);
    CHECK(!sb->sort[0].desc && sb->sort[0].nulls == 0);
    PARSE_OK(s, "select a from t sort by a");
    CHECK_EQ(s->select->sort_by->n_distribute, 0);
    CHECK_EQ(s->select->sort_by->n_sort, 1);
    PARSE_OK(s, "select a from t distribute by a");
    CHECK_EQ(s->select->sort_by->n_sort, 0);
    /* ORDER BY alone leaves sort_by NULL; sort and cluster stay plain
     * names where no BY follows */
    PARSE_OK(s, "select sort, cluster from t order by sort");
    CHECK(s->select->sort_by == NULL);
    CHECK_EQ(s->select->n_order_by, 1);
    CHECK_STR(s->select->items[1].expr->name, "cluster");
}

TEST(parse_from_first_select)
{
    AstStmt *s;
    PARSE_OK(s, "FROM db.t x SELECT x.a, b WHERE a > 1 GROUP BY x.a, b "
                "SORT BY b");
    CHECK_EQ(s->kind, AST_SELECT);
    CHECK(s->select->from != NULL);
    CHECK_STR(s->select->from->table.db, "db");
    CHECK_STR(s->select->from->table.name, "t");
    CHECK_STR(s->select->from->alias, "x");
    CHECK_EQ(s->select->n_items, 2);
    CHECK(s->select->where != NULL);
    CHECK_EQ(s->select->n_group_by, 2);
    CHECK_EQ(s->select->sort_by->n_sort, 1);
    CHECK(s->multi == NULL);
}

TEST(parse_multi_insert)
{
    AstStmt *s, *c;
    PARSE_OK(s, "from src a\n"
                "insert overwrite table t1 partition (p = 1, q) (x, y)\n"
                "  select a.a, a.b, a.c where a.c is not null\n"
                "insert into t2 select count(*) group by a.b having "
                "count(*) > 1 order by 1 limit 5\n"
                "insert into table db.t1 partition (p) select * sort by a;");
    CHECK_EQ(s->kind, AST_MULTI_INSERT);
    CHECK(s->select == NULL);
    CHECK_EQ(s->multi->n, 3);
    c = s->multi->inserts[0];
    CHECK_EQ(c->kind, AST_INSERT);
    CHECK(c->overwrite);
    CHECK_STR(c->name.name, "t1");
    CHECK_EQ(c->pos.line, 2);
    CHECK_EQ(c->pos.col, 1);
    CHECK_EQ(c->part.n, 2);
    CHECK(c->part.items[0].value != NULL && c->part.items[1].value == NULL);
    CHECK_EQ(c->n_insert_cols, 2);
    CHECK_STR(c->insert_cols[1], "y");
    CHECK_EQ(c->select->n_items, 3);
    CHECK(c->select->from != NULL);
    CHECK_STR(c->select->from->table.name, "src");
    CHECK_STR(c->select->from->alias, "a");
    CHECK(c->select->where != NULL);
    CHECK_STR(c->text, "insert overwrite table t1 partition (p = 1, q) (x, y)\n"
                       "  select a.a, a.b, a.c where a.c is not null");
    c = s->multi->inserts[1];
    CHECK(!c->overwrite);
    CHECK_STR(c->name.name, "t2");
    CHECK_EQ(c->part.n, 0);
    CHECK_EQ(c->select->n_group_by, 1);
    CHECK(c->select->having != NULL);
    CHECK_EQ(c->select->n_order_by, 1);
    CHECK_EQ(c->select->limit, 5);
    CHECK_EQ(c->pos.line, 4);
    c = s->multi->inserts[2];
    CHECK_STR(c->name.db, "db");
    CHECK_EQ(c->part.n, 1);
    CHECK_EQ(c->select->items[0].expr->kind, AST_STAR);
    CHECK_EQ(c->select->sort_by->n_sort, 1);
    CHECK(c->select->where == NULL);
    /* one clause is a multi-insert too; INTO without TABLE */
    PARSE_OK(s, "from src insert into t select 1");
    CHECK_EQ(s->kind, AST_MULTI_INSERT);
    CHECK_EQ(s->multi->n, 1);
    CHECK(s->multi->inserts[0]->select->from->alias == NULL);
    /* FROM (subquery) alias: every clause reads the subquery */
    PARSE_OK(s, "from (select a, b from t where a > 1) q "
                "insert into u select q.a insert into v select b");
    CHECK_EQ(s->kind, AST_MULTI_INSERT);
    CHECK_EQ(s->multi->n, 2);
    CHECK(s->multi->inserts[0]->select->from->query != NULL);
    CHECK(s->multi->inserts[1]->select->from->query ==
          s->multi->inserts[0]->select->from->query);
    CHECK_STR(s->multi->inserts[1]->select->from->alias, "q");
    CHECK(s->multi->inserts[1]->select->from->table.name == NULL);
}

TEST(parse_select_from_subquery)
{
    AstStmt *s;
    AstSelect *inner;
    PARSE_OK(s, "select sub.tid from (select row__id.writeid as tid from t "
                "order by tid limit 2) AS sub where tid = 3");
    CHECK(s->select->from != NULL);
    CHECK(s->select->from->table.name == NULL);
    CHECK_STR(s->select->from->alias, "sub");
    inner = s->select->from->query;
    CHECK(inner != NULL);
    CHECK_STR(inner->from->table.name, "t");
    CHECK_STR(inner->items[0].alias, "tid");
    CHECK_EQ(inner->n_order_by, 1);
    CHECK_EQ(inner->limit, 2);
    CHECK(s->select->where != NULL);
    /* nested, alias without AS */
    PARSE_OK(s, "select * from (select * from (select 1 a) x) y");
    CHECK_STR(s->select->from->alias, "y");
    CHECK_STR(s->select->from->query->from->alias, "x");
    CHECK(s->select->from->query->from->query->from == NULL);
}

TEST(parse_subquery_nesting_is_bounded)
{
    /* 2000 nested subqueries pass the parser's depth limit: refused, not a
     * stack overflow */
    CombBuf b = COMB_BUF_INIT;
    AstStmt *s;
    int rc;
    comb_buf_append_str(&b, "select * from ");
    for (int i = 0; i < 2000; i++)
        comb_buf_append_str(&b, "(select * from ");
    comb_buf_append_str(&b, "t");
    for (int i = 0; i < 2000; i++)
        comb_buf_append_str(&b, ") x");
    comb_buf_append_byte(&b, '\0');
    rc = tp_parse((const char *)b.data, &s);
    CHECK_EQ(rc, COMB_ESYNTAX);
    CHECK(strstr(tp_err.msg, "nested too deeply") != NULL);
    comb_buf_free(&b);
}

TEST(parse_create_view)
{
    AstStmt *s;
    PARSE_OK(s, "CREATE OR REPLACE VIEW IF NOT EXISTS db.V (a COMMENT 'first', b)"
                " COMMENT 'a view' TBLPROPERTIES ('k'='v') AS select x, y from t");
    CHECK_EQ(s->kind, AST_CREATE_VIEW);
    CHECK(s->qdef->or_replace);
    CHECK(s->if_not_exists);
    CHECK_STR(s->name.db, "db");
    CHECK_STR(s->name.name, "v");
    CHECK_EQ(s->qdef->n_view_cols, 2);
    CHECK_STR(s->qdef->view_cols[0].name, "a");
    CHECK_STR(s->qdef->view_cols[0].comment, "first");
    CHECK(s->qdef->view_cols[1].comment == NULL);
    CHECK_STR(s->comment, "a view");
    CHECK_EQ(s->n_props, 1);
    CHECK_STR(s->qdef->query_text, "select x, y from t");
    CHECK_EQ(s->qdef->query_pos.col, 110);
    CHECK_EQ(s->qdef->query->n_items, 2);
    PARSE_OK(s, "create view v as select 1");
    CHECK(!s->qdef->or_replace && !s->if_not_exists);
    CHECK_EQ(s->qdef->n_view_cols, 0);
    /* "replace" is no reserved word */
    PARSE_OK(s, "select replace from t");
}

TEST(parse_drop_and_alter_view)
{
    AstStmt *s;
    PARSE_OK(s, "drop view if exists d.v");
    CHECK_EQ(s->kind, AST_DROP_VIEW);
    CHECK(s->if_exists);
    CHECK_STR(s->name.db, "d");
    PARSE_OK(s, "alter view d.v as select a from t");
    CHECK_EQ(s->kind, AST_ALTER_VIEW);
    CHECK(s->alter == NULL);
    CHECK_STR(s->name.db, "d");
    CHECK_STR(s->name.name, "v");
    CHECK_STR(s->qdef->query_text, "select a from t");
    /* every other ALTER VIEW form is parse_alter.c's */
    PARSE_OK(s, "alter view v set tblproperties ('a'='1', 'b'='2')");
    CHECK_EQ(s->kind, AST_ALTER_TABLE);
    CHECK(s->alter->view);
    CHECK_EQ(s->alter->kind, AST_ALTER_SET_PROPS);
    CHECK_EQ(s->alter->n_props, 2);
    CHECK(s->qdef == NULL);
}

TEST(parse_create_table_as_select)
{
    AstStmt *s;
    PARSE_OK(s, "create external table if not exists t partitioned by (ds, hr)"
                " stored as textfile location '/x' tblproperties ('a'='b')"
                " as select a, ds, hr from u");
    CHECK_EQ(s->kind, AST_CREATE_TABLE);
    CHECK(s->external && s->if_not_exists);
    CHECK_EQ(s->n_columns, 0);
    CHECK_EQ(s->n_partition_cols, 0);
    CHECK_EQ(s->qdef->n_part_names, 2);
    CHECK_STR(s->qdef->part_names[1], "hr");
    CHECK_STR(s->stored_as, "textfile");
    CHECK_STR(s->location, "/x");
    CHECK_STR(s->qdef->query_text, "select a, ds, hr from u");
    /* a column list or typed partition keys parse: Hive refuses them later */
    PARSE_OK(s, "create table t (a int) partitioned by (p int) as select 1");
    CHECK_EQ(s->n_columns, 1);
    CHECK_EQ(s->n_partition_cols, 1);
    CHECK(s->qdef->query != NULL);
    PARSE_OK(s, "create table t as select 1");
    CHECK(s->qdef->query != NULL && !s->qdef->has_like);
}

TEST(parse_create_table_like)
{
    AstStmt *s;
    PARSE_OK(s, "create external table t like db.u row format delimited fields"
                " terminated by ',' stored as textfile location '/y'"
                " tblproperties ('k'='v')");
    CHECK_EQ(s->kind, AST_CREATE_TABLE);
    CHECK(s->qdef->has_like);
    CHECK(s->qdef->query == NULL);
    CHECK_STR(s->qdef->like.db, "db");
    CHECK_STR(s->qdef->like.name, "u");
    CHECK_STR(s->field_delim, ",");
    CHECK_STR(s->stored_as, "textfile");
    CHECK_STR(s->location, "/y");
    CHECK_EQ(s->n_props, 1);
    PARSE_OK(s, "create table if not exists t like u");
    CHECK(s->if_not_exists && s->qdef->has_like);
}

TEST(parse_explain)
{
    AstStmt *s;
    PARSE_OK(s, "explain select a from t");
    CHECK_EQ(s->kind, AST_EXPLAIN);
    CHECK_EQ(s->qdef->explained->kind, AST_SELECT);
    CHECK_STR(s->qdef->explained->select->from->table.name, "t");
    PARSE_OK(s, "EXPLAIN CBO update t set a = 1 where b = 2");
    CHECK_EQ(s->qdef->explained->kind, AST_UPDATE);
    CHECK_EQ(s->qdef->explained->n_assignments, 1);
    PARSE_OK(s, "explain extended delete from t");
    CHECK_EQ(s->qdef->explained->kind, AST_DELETE);
    PARSE_OK(s, "explain formatted insert into t partition (p) select 1, 2");
    CHECK_EQ(s->qdef->explained->kind, AST_INSERT);
    CHECK_EQ(s->qdef->explained->part.n, 1);
}

TEST(parse_update)
{
    AstStmt *s;
    PARSE_OK(s, "UPDATE db.t SET a = a + 1, B = 'x' WHERE id = 3");
    CHECK_EQ(s->kind, AST_UPDATE);
    CHECK_STR(s->name.db, "db");
    CHECK_EQ(s->n_assignments, 2);
    CHECK_STR(s->assignments[0].column, "a");
    CHECK_EQ(s->assignments[0].pos.col, 17);
    CHECK_EQ(s->assignments[0].value->op, AST_OP_ADD);
    CHECK_STR(s->assignments[1].column, "b");
    CHECK_STR(s->assignments[1].value->sval, "x");
    CHECK_EQ(s->where->op, AST_OP_EQ);
    PARSE_OK(s, "update t set a = null");
    CHECK(s->where == NULL);
}

TEST(parse_delete)
{
    AstStmt *s;
    PARSE_OK(s, "DELETE FROM t WHERE a IS NULL");
    CHECK_EQ(s->kind, AST_DELETE);
    CHECK_STR(s->name.name, "t");
    CHECK_EQ(s->where->kind, AST_IS_NULL);
    PARSE_OK(s, "delete from db.t");
    CHECK(s->where == NULL);
    CHECK_STR(s->name.db, "db");
}

TEST(parse_set_forms)
{
    AstStmt *s;
    PARSE_OK(s, "SET");
    CHECK_EQ(s->kind, AST_SET);
    CHECK(s->set_key == NULL && s->set_value == NULL && !s->set_verbose);
    PARSE_OK(s, "set -v;");
    CHECK(s->set_verbose);
    CHECK(s->set_key == NULL);
    PARSE_OK(s, "set hive.txn.manager");
    CHECK_STR(s->set_key, "hive.txn.manager");
    CHECK(s->set_value == NULL);
    PARSE_OK(s, "SET hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DbTxnManager;");
    CHECK_STR(s->set_key, "hive.txn.manager");
    CHECK_STR(s->set_value, "org.apache.hadoop.hive.ql.lockmgr.DbTxnManager");
    CHECK_STR(s->text,
              "SET hive.txn.manager=org.apache.hadoop.hive.ql.lockmgr.DbTxnManager");
    PARSE_OK(s, "set  hivevar:x  =  some value with = and 'quotes;' too  ;  ");
    CHECK_STR(s->set_key, "hivevar:x");
    CHECK_STR(s->set_value, "some value with = and 'quotes;' too");
    CHECK_STR(s->text, "set  hivevar:x  =  some value with = and 'quotes;' too");
    PARSE_OK(s, "set a.b=");
    CHECK_STR(s->set_key, "a.b");
    CHECK_STR(s->set_value, "");
    PARSE_OK(s, "set x=it's");   /* an unclosed quote is just text here */
    CHECK_STR(s->set_value, "it's");
}

TEST(parse_statement_text_and_pos)
{
    AstStmt *s;
    PARSE_OK(s, "  -- leading comment\n  select 1 ;  -- trailing\n");
    CHECK_STR(s->text, "select 1");
    CHECK_EQ(s->pos.line, 2);
    CHECK_EQ(s->pos.col, 3);
    PARSE_OK(s, "select 1;;");
    CHECK_STR(s->text, "select 1");
}

TEST(parse_case_insensitive_keywords_lowercase_names)
{
    AstStmt *s;
    PARSE_OK(s, "sElEcT MyCol FrOm MyDb.MyTable WhErE MyCol Is NoT nUlL");
    CHECK_STR(s->select->items[0].expr->name, "mycol");
    CHECK_STR(s->select->items[0].expr->text, "MyCol");
    CHECK_STR(s->select->from->table.db, "mydb");
    CHECK_STR(s->select->from->table.name, "mytable");
    CHECK_EQ(s->select->where->kind, AST_IS_NULL);
    CHECK(s->select->where->negated);
}

TEST(parse_backquoted_identifiers)
{
    AstStmt *s;
    PARSE_OK(s, "select `select`, `a``b`, `Spaced Out` as `From` from `my db`.`T`");
    CHECK_STR(s->select->items[0].expr->name, "select");
    CHECK_STR(s->select->items[1].expr->name, "a`b");
    CHECK_STR(s->select->items[2].expr->name, "spaced out");
    CHECK_STR(s->select->items[2].alias, "from");
    CHECK_STR(s->select->from->table.db, "my db");
    CHECK_STR(s->select->from->table.name, "t");
    PARSE_OK(s, "create table `table` (`int` int)");
    CHECK_STR(s->name.name, "table");
    CHECK_STR(s->columns[0].name, "int");
}

TEST(parse_alter_rename_and_view)
{
    AstStmt *s;
    PARSE_OK(s, "ALTER TABLE d.t RENAME TO d2.t2");
    CHECK_EQ(s->kind, AST_ALTER_TABLE);
    CHECK_EQ(s->alter->kind, AST_ALTER_RENAME);
    CHECK(!s->alter->view);
    CHECK_STR(s->name.db, "d");
    CHECK_STR(s->name.name, "t");
    CHECK_STR(s->alter->new_name.db, "d2");
    CHECK_STR(s->alter->new_name.name, "t2");
    CHECK_EQ(s->alter->op_pos.col, 17);
    PARSE_OK(s, "alter view v rename to w");
    CHECK(s->alter->view);
    CHECK_EQ(s->alter->kind, AST_ALTER_RENAME);
    CHECK(s->alter->new_name.db == NULL);
    PARSE_OK(s, "alter view v set tblproperties ('a'='b')");
    CHECK_EQ(s->alter->kind, AST_ALTER_SET_PROPS);
    CHECK_EQ(s->alter->n_props, 1);
}

TEST(parse_alter_columns)
{
    AstStmt *s;
    PARSE_OK(s, "alter table t add columns (a bigint comment 'x', b array<int>) cascade");
    CHECK_EQ(s->alter->kind, AST_ALTER_ADD_COLUMNS);
    CHECK_EQ(s->alter->n_columns, 2);
    CHECK_STR(s->alter->columns[0].name, "a");
    CHECK_EQ(s->alter->columns[0].type.kind, COMB_T_BIGINT);
    CHECK_STR(s->alter->columns[0].comment, "x");
    CHECK_EQ(s->alter->columns[1].type.kind, COMB_T_LIST);
    CHECK(s->alter->cascade);
    PARSE_OK(s, "alter table t replace columns (a int) restrict");
    CHECK_EQ(s->alter->kind, AST_ALTER_REPLACE_COLUMNS);
    CHECK(!s->alter->cascade);
    PARSE_OK(s, "alter table t change column A b decimal(10,2) comment 'c' after z");
    CHECK_EQ(s->alter->kind, AST_ALTER_CHANGE_COLUMN);
    CHECK_STR(s->alter->old_column, "a");
    CHECK_STR(s->alter->columns[0].name, "b");
    CHECK_EQ(s->alter->columns[0].type.p1, 10);
    CHECK_STR(s->alter->columns[0].comment, "c");
    CHECK_STR(s->alter->after, "z");
    CHECK(!s->alter->first);
    PARSE_OK(s, "alter table t change a a int first cascade");
    CHECK(s->alter->first && s->alter->after == NULL && s->alter->cascade);
    PARSE_OK(s, "alter table t partition (p='1') change a a int");
    CHECK_EQ(s->part.n, 1);
    CHECK_STR(s->part.items[0].key, "p");
}

TEST(parse_alter_properties_and_location)
{
    AstStmt *s;
    PARSE_OK(s, "alter table t set tblproperties ('a'=\"1\", -- a comment\n \"b\" = 'x y')");
    CHECK_EQ(s->alter->kind, AST_ALTER_SET_PROPS);
    CHECK_EQ(s->alter->n_props, 2);
    CHECK_STR(s->alter->props[0].key, "a");
    CHECK_STR(s->alter->props[0].value, "1");
    CHECK_STR(s->alter->props[1].key, "b");
    CHECK_STR(s->alter->props[1].value, "x y");
    PARSE_OK(s, "alter table t unset tblproperties if exists ('a', \"b\"='ignored')");
    CHECK_EQ(s->alter->kind, AST_ALTER_UNSET_PROPS);
    CHECK(s->alter->if_exists);
    CHECK_EQ(s->alter->n_props, 2);
    CHECK_STR(s->alter->props[1].key, "b");
    CHECK(s->alter->props[0].value == NULL);
    PARSE_OK(s, "alter table t set serdeproperties ('field.delim'=',')");
    CHECK_EQ(s->alter->kind, AST_ALTER_SET_SERDE_PROPS);
    PARSE_OK(s, "alter table t unset serdeproperties ('field.delim')");
    CHECK_EQ(s->alter->kind, AST_ALTER_UNSET_SERDE_PROPS);
    PARSE_OK(s, "alter table t partition (k = 1, j='x') set location '/data/x'");
    CHECK_EQ(s->alter->kind, AST_ALTER_SET_LOCATION);
    CHECK_STR(s->alter->location, "/data/x");
    CHECK_EQ(s->part.n, 2);
    PARSE_OK(s, "alter table t concatenate");
    CHECK_EQ(s->alter->kind, AST_ALTER_CONCATENATE);
    CHECK_EQ(s->part.n, 0);
}

TEST(parse_alter_partitions)
{
    AstStmt *s;
    PARSE_OK(s, "alter table t add if not exists partition (ds='a') location '/x' "
                "partition (ds='b')");
    CHECK_EQ(s->alter->kind, AST_ALTER_ADD_PARTITIONS);
    CHECK(s->alter->if_not_exists);
    CHECK_EQ(s->alter->n_parts, 2);
    CHECK_STR(s->alter->parts[0].location, "/x");
    CHECK(s->alter->parts[1].location == NULL);
    CHECK_STR(s->alter->parts[1].spec.items[0].value->sval, "b");
    PARSE_OK(s, "alter table t drop if exists partition (ds < '2024', h >= 3), "
                "partition (ds <> 'x') purge");
    CHECK_EQ(s->alter->kind, AST_ALTER_DROP_PARTITIONS);
    CHECK(s->alter->if_exists && s->alter->purge);
    CHECK_EQ(s->alter->n_parts, 2);
    CHECK_EQ(s->alter->parts[0].spec.n, 2);
    CHECK_EQ(s->alter->parts[0].ops[0], AST_OP_LT);
    CHECK_EQ(s->alter->parts[0].ops[1], AST_OP_GE);
    CHECK_EQ(s->alter->parts[1].ops[0], AST_OP_NE);
    PARSE_OK(s, "alter table t drop partition (ds='a')");
    CHECK(!s->alter->if_exists && !s->alter->purge);
    CHECK_EQ(s->alter->parts[0].ops[0], AST_OP_EQ);
}

TEST(parse_truncate)
{
    AstStmt *s;
    PARSE_OK(s, "truncate table d.t partition (ds='1') force");
    CHECK_EQ(s->kind, AST_TRUNCATE);
    CHECK_STR(s->name.db, "d");
    CHECK_EQ(s->part.n, 1);
    CHECK(s->force);
    PARSE_OK(s, "TRUNCATE t");
    CHECK_EQ(s->kind, AST_TRUNCATE);
    CHECK_STR(s->name.name, "t");
    CHECK(!s->force && s->part.n == 0);
}

TEST(parse_alter_words_stay_identifiers)
{
    AstStmt *s;
    PARSE_OK(s, "select add, after, change, column, columns, compact, concatenate, "
                "force, rename, replace, serdeproperties, to, unset from t");
    CHECK_EQ(s->select->n_items, 13);
    CHECK_STR(s->select->items[11].expr->name, "to");
}

TEST(parse_compaction_statements)
{
    AstStmt *s;
    PARSE_OK(s, "alter table d.t partition (p='x', q=1) compact 'MAJOR' and "
                "wait with overwrite tblproperties ('compactor.mapreduce.map."
                "memory.mb'='2048')");
    CHECK_EQ(s->kind, AST_ALTER_TABLE);
    CHECK_EQ(s->alter->kind, AST_ALTER_COMPACT);
    CHECK_STR(s->alter->compact_type, "MAJOR");
    CHECK(s->alter->compact_wait);
    CHECK_EQ(s->part.n, 2);
    CHECK_EQ(s->alter->n_props, 1);
    CHECK_STR(s->alter->props[0].value, "2048");
    PARSE_OK(s, "alter table t compact 'minor'");
    CHECK_EQ(s->alter->kind, AST_ALTER_COMPACT);
    CHECK(!s->alter->compact_wait);
    CHECK_EQ(s->alter->n_props, 0);
    CHECK_EQ(s->alter->compact_type_pos.col, 23);
    PARSE_OK(s, "SHOW COMPACTIONS;");
    CHECK_EQ(s->kind, AST_SHOW_COMPACTIONS);
    PARSE_OK(s, "abort compactions 3 14 15");
    CHECK_EQ(s->kind, AST_ABORT_COMPACTIONS);
    CHECK_EQ(s->n_ids, 3);
    CHECK_EQ(s->ids[0], 3);
    CHECK_EQ(s->ids[2], 15);
}

TEST(parse_explain_compact)
{
    AstStmt *s;
    PARSE_OK(s, "explain alter table t partition (ds='y') compact 'minor'");
    CHECK_EQ(s->kind, AST_EXPLAIN);
    CHECK_EQ(s->qdef->explained->kind, AST_ALTER_TABLE);
    CHECK_EQ(s->qdef->explained->alter->kind, AST_ALTER_COMPACT);
}
