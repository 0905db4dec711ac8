/* Catalog operations: databases and tables, their round trip through the
 * metastore and the errors for duplicate and unknown names. */
#include "ms_fixture.h"
#include "common/arena.h"

static MsColumn t_cols[] = {
    {"id", "int", "the key"},
    {"Name", "VARCHAR(10)", NULL},
    {"amount", "decimal(10,2)", NULL},
};
static char *t_bucket_cols[] = {"ID"};
static MsProperty t_props[] = {
    {"bucketing_version", "2"},
    {"transactional", "TRUE"},
    {"transactional_properties", "default"},
};

/* A bucketed transactional ORC table like CREATE TABLE ... CLUSTERED BY
 * (id) INTO 4 BUCKETS STORED AS ORC TBLPROPERTIES (...). */
static MsTable sample_table(const char *db, const char *name)
{
    MsTable t = {0};
    t.db = (char *)db;
    t.name = (char *)name;
    t.location = "/wh/t";
    t.owner = "alice";
    t.table_type = "MANAGED_TABLE";
    t.comment = "sample table";
    t.create_time = 1700000000;
    t.input_format = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
    t.output_format = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";
    t.serde = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
    t.n_cols = 3;
    t.cols = t_cols;
    t.n_buckets = 4;
    t.n_bucket_cols = 1;
    t.bucket_cols = t_bucket_cols;
    t.n_props = 3;
    t.props = t_props;
    return t;
}

MS_TEST(ms_db_create_get_list_drop)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsDatabase in = {"Sales", "/data/sales", "sales data", "bob"}, *out;
    MsDatabase plain = {"hr", NULL, NULL, NULL};
    char **names;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_db_create(ms, &in, false, &err), &err);
    CHECK_OK(ms_db_get(ms, "SALES", &a, &out, &err), &err);
    CHECK_STR(out->name, "sales");
    CHECK_STR(out->location, "/data/sales");
    CHECK_STR(out->comment, "sales data");
    CHECK_STR(out->owner, "bob");

    CHECK_EQ(ms_db_create(ms, &in, false, &err), COMB_EEXISTS);
    CHECK_STR(err.msg, "Database sales already exists");
    CHECK_OK(ms_db_create(ms, &in, true, &err), &err);

    /* no location: <warehouse>/<name>.db, as Hive */
    CHECK_OK(ms_db_create(ms, &plain, false, &err), &err);
    CHECK_OK(ms_db_get(ms, "hr", &a, &out, &err), &err);
    CHECK(strstr(out->location, "/warehouse/hr.db") != NULL);
    CHECK(out->comment == NULL);
    CHECK(out->owner == NULL);

    CHECK_OK(ms_db_list(ms, &a, &names, &n, &err), &err);
    CHECK_EQ(n, 3);
    CHECK_STR(names[0], "default");
    CHECK_STR(names[1], "hr");
    CHECK_STR(names[2], "sales");

    CHECK_OK(ms_db_drop(ms, "Sales", false, false, &err), &err);
    CHECK_EQ(ms_db_get(ms, "sales", &a, &out, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Database does not exist: sales");
    CHECK_EQ(ms_db_drop(ms, "sales", false, false, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Database does not exist: sales");
    CHECK_OK(ms_db_drop(ms, "sales", true, false, &err), &err);
    CHECK_EQ(ms_db_drop(ms, "default", true, true, &err), COMB_EINVALID);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_db_drop_needs_cascade_when_not_empty)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsDatabase d = {"shop", "/data/shop", NULL, NULL};
    MsTable t1 = sample_table("shop", "orders");
    MsTable t2 = sample_table("shop", "items");
    MsTable keep = sample_table("default", "orders");
    MsTable *got;
    char **names;
    int n;
    int64_t txn, w;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_db_create(ms, &d, false, &err), &err);
    CHECK_OK(ms_table_create(ms, &t1, false, &err), &err);
    CHECK_OK(ms_table_create(ms, &t2, false, &err), &err);
    CHECK_OK(ms_table_create(ms, &keep, false, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "shop", "orders", &w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "orders", &w, &err),
             &err);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);

    CHECK_EQ(ms_db_drop(ms, "shop", false, false, &err), COMB_EINVALID);
    CHECK_STR(err.msg,
              "Database shop is not empty. One or more tables exist.");
    CHECK_OK(ms_table_list(ms, "shop", &a, &names, &n, &err), &err);
    CHECK_EQ(n, 2);

    CHECK_OK(ms_db_drop(ms, "shop", false, true, &err), &err);
    CHECK_EQ(ms_table_list(ms, "shop", &a, &names, &n, &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_table_get(ms, "shop", "orders", &a, &got, &err),
             COMB_ENOTFOUND);
    /* the same table name in another database is untouched */
    CHECK_OK(ms_table_get(ms, "default", "orders", &a, &got, &err), &err);
    CHECK_EQ(got->n_cols, 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COLUMNS_V2"), 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM NEXT_WRITE_ID "
                             "WHERE NWI_DATABASE = 'shop'"), 0);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_table_round_trip)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable in = sample_table("Default", "Orders"), *t;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &in, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "DEFAULT", "ORDERS", &a, &t, &err), &err);
    CHECK_STR(t->db, "default");
    CHECK_STR(t->name, "orders");
    CHECK_STR(t->location, "/wh/t");
    CHECK_STR(t->owner, "alice");
    CHECK_STR(t->table_type, "MANAGED_TABLE");
    CHECK_STR(t->comment, "sample table");
    CHECK_EQ(t->create_time, 1700000000);
    CHECK_STR(t->input_format, in.input_format);
    CHECK_STR(t->output_format, in.output_format);
    CHECK_STR(t->serde, in.serde);
    CHECK_EQ(t->n_cols, 3);
    CHECK_STR(t->cols[0].name, "id");
    CHECK_STR(t->cols[0].type, "int");
    CHECK_STR(t->cols[0].comment, "the key");
    CHECK_STR(t->cols[1].name, "name");
    CHECK_STR(t->cols[1].type, "varchar(10)");
    CHECK(t->cols[1].comment == NULL);
    CHECK_STR(t->cols[2].name, "amount");
    CHECK_STR(t->cols[2].type, "decimal(10,2)");
    CHECK_EQ(t->n_buckets, 4);
    CHECK_EQ(t->n_bucket_cols, 1);
    CHECK_STR(t->bucket_cols[0], "id");
    CHECK_EQ(t->n_props, 3);
    for (int i = 0; i < 3; i++) {
        CHECK_STR(t->props[i].key, t_props[i].key);
        CHECK_STR(t->props[i].value, t_props[i].value);
    }
    CHECK_STR(ms_table_prop(t, "transactional"), "TRUE");
    CHECK(ms_table_prop(t, "nope") == NULL);
    CHECK(ms_table_is_transactional(t));
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_table_defaults)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsColumn col = {"x", "string", NULL};
    MsProperty prop = {"comment", "from tblproperties"};
    MsDatabase d = {"lake", "/data/lake", NULL, NULL};
    MsTable in = {0}, *t;
    char expect[700];
    fx_paths(&fx);
    comb_arena_init(&a, 0);
    in.db = "default";
    in.name = "plain";
    in.n_cols = 1;
    in.cols = &col;
    in.n_props = 1;
    in.props = &prop;
    CHECK_OK(fx_reopen(&fx, NULL, &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &in, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "plain", &a, &t, &err), &err);
    snprintf(expect, sizeof expect, "%s/plain", fx.warehouse);
    CHECK_STR(t->location, expect);
    CHECK_STR(t->table_type, "MANAGED_TABLE");
    CHECK(t->create_time > 1600000000);
    CHECK_EQ(t->n_buckets, -1);
    CHECK_EQ(t->n_bucket_cols, 0);
    CHECK(t->owner == NULL && t->serde == NULL);
    /* Hive keeps the table comment as the 'comment' property */
    CHECK_STR(t->comment, "from tblproperties");
    CHECK_EQ(t->n_props, 0);
    CHECK(!ms_table_is_transactional(t));

    CHECK_OK(ms_db_create(ms, &d, false, &err), &err);
    in.db = "lake";
    in.n_props = 0;
    CHECK_OK(ms_table_create(ms, &in, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "lake", "plain", &a, &t, &err), &err);
    CHECK_STR(t->location, "/data/lake/plain");
    CHECK(t->comment == NULL);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_table_duplicate_and_if_not_exists)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable in = sample_table("default", "t"), other, *t;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_table_create(ms, &in, false, &err), &err);
    CHECK_EQ(ms_table_create(ms, &in, false, &err), COMB_EEXISTS);
    CHECK_STR(err.msg, "Table already exists: default.t");
    /* if_not_exists leaves the existing table as it was */
    other = sample_table("default", "T");
    other.n_cols = 1;
    other.n_bucket_cols = 0;
    other.location = "/elsewhere";
    CHECK_OK(ms_table_create(ms, &other, true, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "t", &a, &t, &err), &err);
    CHECK_EQ(t->n_cols, 3);
    CHECK_STR(t->location, "/wh/t");
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COLUMNS_V2"), 3);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_table_list_and_drop)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable t1 = sample_table("default", "zeta");
    MsTable t2 = sample_table("default", "alpha");
    MsTable t3 = sample_table("default", "Mid");
    MsTable *t;
    char **names;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_table_list(ms, "default", &a, &names, &n, &err), &err);
    CHECK_EQ(n, 0);
    CHECK_OK(ms_table_create(ms, &t1, false, &err), &err);
    CHECK_OK(ms_table_create(ms, &t2, false, &err), &err);
    CHECK_OK(ms_table_create(ms, &t3, false, &err), &err);
    CHECK_OK(ms_table_list(ms, "Default", &a, &names, &n, &err), &err);
    CHECK_EQ(n, 3);
    CHECK_STR(names[0], "alpha");
    CHECK_STR(names[1], "mid");
    CHECK_STR(names[2], "zeta");

    CHECK_OK(ms_table_drop(ms, "default", "MID", false, &err), &err);
    CHECK_EQ(ms_table_get(ms, "default", "mid", &a, &t, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.mid'");
    CHECK_EQ(ms_table_drop(ms, "default", "mid", false, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.mid'");
    CHECK_OK(ms_table_drop(ms, "default", "mid", true, &err), &err);
    CHECK_OK(ms_table_list(ms, "default", &a, &names, &n, &err), &err);
    CHECK_EQ(n, 2);
    /* no orphans left behind */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COLUMNS_V2"), 6);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TABLE_PARAMS"), 8);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM BUCKETING_COLS"), 2);
    /* re-create under the dropped name */
    CHECK_OK(ms_table_create(ms, &t3, false, &err), &err);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_catalog_unknown_names)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsTable in = sample_table("nodb", "t"), *t;
    MsDatabase *d;
    char **names;
    int n;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_EQ(ms_table_create(ms, &in, false, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Database does not exist: nodb");
    CHECK_EQ(ms_table_create(ms, &in, true, &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_table_get(ms, "nodb", "t", &a, &t, &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_table_get(ms, "default", "t", &a, &t, &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_table_list(ms, "nodb", &a, &names, &n, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Database does not exist: nodb");
    CHECK_EQ(ms_db_get(ms, "nodb", &a, &d, &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_table_drop(ms, "nodb", "t", false, &err), COMB_ENOTFOUND);
    /* odd but harmless lookups are just "not found" */
    CHECK_EQ(ms_db_get(ms, "x'; DROP TABLE DBS; --", &a, &d, &err),
             COMB_ENOTFOUND);
    CHECK_EQ(ms_table_get(ms, "default", "a.b/c", &a, &t, &err),
             COMB_ENOTFOUND);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM DBS"), 1);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_catalog_bad_input)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsColumn dup[] = {{"a", "int", NULL}, {"A", "string", NULL}};
    MsColumn untyped[] = {{"a", NULL, NULL}};
    MsColumn unreadable[] = {{"a", "struct<a:b:int>", NULL}};
    MsColumn unknown[] = {{"a", "mytype", NULL}};
    char *missing[] = {"nope"};
    MsProperty nokey[] = {{NULL, "v"}};
    MsDatabase bad_db = {"no-dash", NULL, NULL, NULL};
    MsDatabase *d;
    MsTable t = sample_table("default", "t"), *got;
    char longname[300];
    fx_paths(&fx);
    comb_arena_init(&a, 0);
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_OK(fx_reopen(&fx, NULL, &ms, &err), &err);

    /* Hive 4's special characters are table names; a backslash, control
     * characters and non-ASCII letters are not */
    t.name = "bad\\name";
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "bad\\name is not a valid object name");
    t.name = "tab\tname";
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t.name = "caf\xc3\xa9";
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t.name = "a/b.c d?*";
    CHECK_OK(ms_table_create(ms, &t, false, &err), &err);
    CHECK_OK(ms_table_get(ms, "default", "A/B.C D?*", &a, &got, &err), &err);
    CHECK_STR(got->name, "a/b.c d?*");
    CHECK_STR(ms_table_dir_name("a/b.c d?*", &a), "a-47-b-46-c-32-d-63--42-");
    CHECK_STR(ms_table_dir_name("plain_1", &a), "plain_1");
    t.name = "";
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t.name = NULL;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t.name = longname;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t = sample_table("default", "t");
    t.n_cols = 2;
    t.cols = dup;
    t.n_bucket_cols = 0;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "Duplicate column name: a");
    t.n_cols = 1;
    t.cols = untyped;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    /* a type no reader could parse back is never stored */
    t.cols = unreadable;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "column a: bad type 'struct<a:b:int>': unknown type "
                       "at position 10");
    t.cols = unknown;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t = sample_table("default", "t");
    t.bucket_cols = missing;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t = sample_table("default", "t");
    t.n_buckets = 0;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t = sample_table("default", "t");
    t.props = nokey;
    t.n_props = 1;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t = sample_table("default", "t");
    t.n_cols = -1;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    t.n_cols = 2;
    t.cols = NULL;
    CHECK_EQ(ms_table_create(ms, &t, false, &err), COMB_EINVALID);
    CHECK_EQ(ms_table_create(ms, NULL, false, &err), COMB_EINVALID);
    CHECK_EQ(ms_table_create(NULL, &t, false, &err), COMB_EINVALID);
    CHECK_EQ(ms_table_get(ms, "default", "t", &a, &got, &err), COMB_ENOTFOUND);
    /* only the table with special characters */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TBLS"), 1);

    CHECK_EQ(ms_db_create(ms, &bad_db, false, &err), COMB_EINVALID);
    CHECK_STR(err.msg, "no-dash is not a valid database name");
    CHECK_EQ(ms_db_create(ms, NULL, false, &err), COMB_EINVALID);
    CHECK_EQ(ms_db_get(ms, NULL, &a, &d, &err), COMB_EINVALID);
    CHECK_EQ(ms_db_get(ms, longname, &a, &d, &err), COMB_EINVALID);
    CHECK_EQ(ms_db_get(ms, "default", NULL, &d, &err), COMB_EINVALID);
    CHECK_EQ(ms_db_list(ms, &a, NULL, NULL, &err), COMB_EINVALID);
    CHECK_EQ(ms_table_list(ms, NULL, &a, NULL, NULL, &err), COMB_EINVALID);
    ms_close(ms);
    comb_arena_free(&a);
}
