/* Partitions in the metastore: add (one, many, IF NOT EXISTS), get, list
 * in SHOW PARTITIONS order and by partial spec, drop, set location, the
 * errors of each, and what transactions record per partition. */
#include "ms_fixture.h"
#include "common/arena.h"

static MsColumn ev_cols[] = {{"id", "bigint", NULL}, {"msg", "string", NULL}};
static MsColumn ev_keys[] = {{"ds", "string", "day"}, {"hr", "int", NULL}};
static MsProperty acid_props[] = {{"transactional", "true"}};

/* default.events (id, msg) PARTITIONED BY (ds string, hr int), ACID ORC. */
static int create_events(Ms *ms, const char *db, CombErr *err)
{
    MsTable t = {0};
    t.db = (char *)db;
    t.name = "events";
    t.n_cols = 2;
    t.cols = ev_cols;
    t.n_part_keys = 2;
    t.part_keys = ev_keys;
    t.input_format = MS_ORC_INPUT_FORMAT;
    t.output_format = MS_ORC_OUTPUT_FORMAT;
    t.serde = MS_ORC_SERDE;
    t.n_props = 1;
    t.props = acid_props;
    return ms_table_create(ms, &t, false, err);
}

/* A partition (ds, hr) with nothing else set. */
static MsPartition part_of(char **vals)
{
    MsPartition p = {0};
    p.n_values = 2;
    p.values = vals;
    return p;
}

static int add_one(Ms *ms, const char *ds, const char *hr, CombErr *err)
{
    char *vals[2] = {(char *)ds, (char *)hr};
    MsPartition p = part_of(vals);
    return ms_part_add(ms, "default", "events", &p, 1, false, NULL, err);
}

/* Names of db.events' partitions joined by spaces, in list order. */
static void list_names(Ms *ms, const MsProperty *spec, int n_spec,
                       char *buf, size_t cap)
{
    CombArena a;
    CombErr err;
    MsPartition *parts;
    int n;
    size_t len = 0;
    comb_arena_init(&a, 0);
    buf[0] = '\0';
    if (ms_part_list(ms, "default", "events", spec, n_spec, &a, &parts, &n,
                     &err) != COMB_OK)
        snprintf(buf, cap, "error: %s", err.msg);
    for (int i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? " " : "",
                                parts[i].name);
    comb_arena_free(&a);
}

MS_TEST(ms_part_add_get_list_drop)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    char *v1[2] = {"2024-01-02", "9"}, *v2[2] = {"2024-01-02", "10"};
    char *v3[2] = {NULL, "1"}, *name, buf[512], expect[700];
    MsProperty params[] = {{"numFiles", "3"}, {"EXTERNAL", "x"}};
    MsPartition in[3], *p;
    bool added[3];
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    in[0] = part_of(v1);
    in[1] = part_of(v2);
    in[1].location = "/data/elsewhere/h10";
    in[1].create_time = 1600000000;
    in[1].n_params = 2;
    in[1].params = params;
    in[1].serde = "custom.Serde";
    in[2] = part_of(v3);
    CHECK_OK(ms_part_add(ms, "DEFAULT", "Events", in, 3, false, added, &err),
             &err);
    CHECK(added[0] && added[1] && added[2]);

    CHECK_OK(ms_part_get(ms, "default", "events", "ds=2024-01-02/hr=9", &a,
                         &p, &err), &err);
    CHECK_STR(p->name, "ds=2024-01-02/hr=9");
    CHECK_EQ(p->n_values, 2);
    CHECK_STR(p->values[0], "2024-01-02");
    CHECK_STR(p->values[1], "9");
    snprintf(expect, sizeof expect, "%s/events/ds=2024-01-02/hr=9",
             fx.warehouse);
    CHECK_STR(p->location, expect);
    CHECK(p->create_time > 1600000000);
    CHECK_STR(p->input_format, MS_ORC_INPUT_FORMAT);
    CHECK_STR(p->output_format, MS_ORC_OUTPUT_FORMAT);
    CHECK_STR(p->serde, MS_ORC_SERDE);
    CHECK_EQ(p->n_params, 0);

    CHECK_OK(ms_part_get(ms, "default", "events", "ds=2024-01-02/hr=10", &a,
                         &p, &err), &err);
    CHECK_STR(p->location, "/data/elsewhere/h10");
    CHECK_EQ(p->create_time, 1600000000);
    CHECK_STR(p->serde, "custom.Serde");
    CHECK_EQ(p->n_params, 2);
    CHECK_STR(p->params[0].key, "EXTERNAL"); /* by key */
    CHECK_STR(p->params[1].key, "numFiles");
    CHECK_STR(p->params[1].value, "3");

    /* NULL is the default partition, in the name and among the values */
    CHECK_OK(ms_part_name_make(&(MsTable){.db = "default", .name = "events",
                                          .n_part_keys = 2,
                                          .part_keys = ev_keys},
                               v3, &a, &name, &err), &err);
    CHECK_OK(ms_part_get(ms, "default", "events", name, &a, &p, &err), &err);
    CHECK_STR(p->values[0], MS_DEFAULT_PARTITION_NAME);

    /* SHOW PARTITIONS order: the names' bytes, so hr=10 before hr=9 */
    list_names(ms, NULL, 0, buf, sizeof buf);
    CHECK_STR(buf, "ds=2024-01-02/hr=10 ds=2024-01-02/hr=9 "
                   "ds=__HIVE_DEFAULT_PARTITION__/hr=1");

    CHECK_OK(ms_part_drop(ms, "default", "events", &name, 1, false, &err),
             &err);
    CHECK_EQ(ms_part_get(ms, "default", "events", name, &a, &p, &err),
             COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Partition not found 'default.events/ds=__HIVE_"
                       "DEFAULT_PARTITION__/hr=1'");
    CHECK_EQ(ms_part_drop(ms, "default", "events", &name, 1, false, &err),
             COMB_ENOTFOUND);
    CHECK_OK(ms_part_drop(ms, "default", "events", &name, 1, true, &err),
             &err);
    list_names(ms, NULL, 0, buf, sizeof buf);
    CHECK_STR(buf, "ds=2024-01-02/hr=10 ds=2024-01-02/hr=9");
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 4);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_PARAMS"), 2);
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_part_add_errors_change_nothing)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char *ok[2] = {"d1", "1"}, *dup[2] = {"d1", "1"}, *other[2] = {"d2", "2"};
    char *short_vals[1] = {"1"}, long_value[300];
    MsProperty nokey[] = {{"", "v"}};
    MsPartition in[2];
    bool added[2] = {true, true};
    memset(long_value, 'x', sizeof long_value - 1);
    long_value[sizeof long_value - 1] = '\0';
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(add_one(ms, "d1", "1", &err), &err);

    CHECK_EQ(add_one(ms, "d1", "1", &err), COMB_EEXISTS);
    CHECK_STR(err.msg, "Partition already exists: default.events/ds=d1/hr=1");
    /* one existing partition fails the whole list */
    in[0] = part_of(other);
    in[1] = part_of(ok);
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 2, false, added, &err),
             COMB_EEXISTS);
    CHECK(!added[0] && !added[1]);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 1);
    /* unless IF NOT EXISTS: the new one is added, the old one kept */
    CHECK_OK(ms_part_add(ms, "default", "events", in, 2, true, added, &err),
             &err);
    CHECK(added[0] && !added[1]);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 4);

    /* Hive refuses a list naming one partition twice, even IF NOT EXISTS */
    in[0] = part_of(ok);
    in[1] = part_of(dup);
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 2, true, NULL, &err),
             COMB_EINVALID);
    CHECK_STR(err.msg, "Duplicate partitions in the list: ds=d1/hr=1");

    in[0] = part_of(short_vals);
    in[0].n_values = 1;
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 1, false, NULL, &err),
             COMB_EINVALID);
    CHECK_STR(err.msg, "Invalid partition key & values; keys [ds, hr, ], "
                       "values [1, ]");
    CHECK_EQ(ms_part_add(ms, "default", "t", in, 1, false, NULL, &err),
             COMB_EINVALID);
    CHECK_STR(err.msg, "Partition spec for non partitioned table default.t.");
    CHECK_EQ(ms_part_add(ms, "default", "nope", in, 1, false, NULL, &err),
             COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.nope'");

    in[0] = part_of(other);
    in[1] = part_of(ok);
    in[1].values = (char *[]){long_value, "3"};
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 2, true, NULL, &err),
             COMB_EINVALID);
    CHECK(strstr(err.msg, "longer than 255 bytes") != NULL);
    in[1] = part_of(ok);
    in[1].location = "relative/dir";
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 2, true, NULL, &err),
             COMB_EINVALID);
    CHECK(strstr(err.msg, "not an absolute path") != NULL);
    in[1].location = NULL;
    in[1].n_params = 1;
    in[1].params = nokey;
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 2, true, NULL, &err),
             COMB_EINVALID);
    in[1].n_values = -1;
    CHECK_EQ(ms_part_add(ms, "default", "events", in, 2, true, NULL, &err),
             COMB_EINVALID);
    CHECK_EQ(ms_part_add(ms, "default", "events", NULL, 2, true, NULL, &err),
             COMB_EINVALID);
    CHECK_EQ(ms_part_add(NULL, "default", "events", in, 1, true, NULL, &err),
             COMB_EINVALID);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 4);
    /* an empty list changes nothing and is no error */
    CHECK_OK(ms_part_add(ms, "default", "events", NULL, 0, false, NULL, &err),
             &err);
    ms_close(ms);
}

MS_TEST(ms_part_list_partial_spec)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsPartition *parts;
    int n;
    char buf[512];
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(fx_create_t(ms, &err), &err);
    CHECK_OK(add_one(ms, "d2", "1", &err), &err);
    CHECK_OK(add_one(ms, "d1", "2", &err), &err);
    CHECK_OK(add_one(ms, "d1", "1", &err), &err);
    CHECK_OK(add_one(ms, "d1", NULL, &err), &err);

    list_names(ms, (MsProperty[]){{"ds", "d1"}}, 1, buf, sizeof buf);
    CHECK_STR(buf, "ds=d1/hr=1 ds=d1/hr=2 ds=d1/hr=__HIVE_DEFAULT_PARTITION__");
    list_names(ms, (MsProperty[]){{"HR", "1"}}, 1, buf, sizeof buf);
    CHECK_STR(buf, "ds=d1/hr=1 ds=d2/hr=1");
    list_names(ms, (MsProperty[]){{"hr", "1"}, {"ds", "d2"}}, 2, buf,
               sizeof buf);
    CHECK_STR(buf, "ds=d2/hr=1");
    list_names(ms, (MsProperty[]){{"hr", NULL}}, 1, buf, sizeof buf);
    CHECK_STR(buf, "ds=d1/hr=__HIVE_DEFAULT_PARTITION__");
    list_names(ms, (MsProperty[]){{"ds", "d3"}}, 1, buf, sizeof buf);
    CHECK_STR(buf, "");
    list_names(ms, (MsProperty[]){{"id", "1"}}, 1, buf, sizeof buf);
    CHECK_STR(buf, "error: Non-Partition column appears in the partition "
                   "specification: id");

    CHECK_OK(ms_part_list(ms, "default", "t", NULL, 0, &a, &parts, &n, &err),
             &err);
    CHECK_EQ(n, 0);
    CHECK_EQ(ms_part_list(ms, "default", "nope", NULL, 0, &a, &parts, &n,
                          &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_part_list(ms, "default", "events", NULL, 1, &a, &parts, &n,
                          &err), COMB_EINVALID);
    CHECK_EQ(ms_part_list(ms, "default", "events", NULL, 0, &a, &parts, NULL,
                          &err), COMB_EINVALID);
    CHECK_EQ(ms_part_get(ms, "default", "events", "", &a, &parts, &err),
             COMB_EINVALID);
    CHECK_EQ(ms_part_get(ms, "default", "nope", "ds=d1/hr=1", &a, &parts,
                         &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Table not found 'default.nope'");
    ms_close(ms);
    comb_arena_free(&a);
}

MS_TEST(ms_part_drop_many_all_or_nothing)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    char buf[512];
    char *names[] = {"ds=a/hr=1", "ds=missing/hr=1", "ds=b/hr=1"};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(add_one(ms, "a", "1", &err), &err);
    CHECK_OK(add_one(ms, "b", "1", &err), &err);
    CHECK_OK(add_one(ms, "c", "1", &err), &err);
    CHECK_EQ(ms_part_drop(ms, "default", "events", names, 3, false, &err),
             COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Partition not found 'default.events/ds=missing/hr=1'");
    list_names(ms, NULL, 0, buf, sizeof buf);
    CHECK_STR(buf, "ds=a/hr=1 ds=b/hr=1 ds=c/hr=1");
    CHECK_OK(ms_part_drop(ms, "default", "events", names, 3, true, &err),
             &err);
    list_names(ms, NULL, 0, buf, sizeof buf);
    CHECK_STR(buf, "ds=c/hr=1");
    CHECK_EQ(ms_part_drop(ms, "default", "nope", names, 1, true, &err),
             COMB_ENOTFOUND);
    CHECK_EQ(ms_part_drop(ms, "default", "events", (char *[]){""}, 1, true,
                          &err), COMB_EINVALID);
    CHECK_EQ(ms_part_drop(ms, "default", "events", NULL, 1, true, &err),
             COMB_EINVALID);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 2);
    ms_close(ms);
}

MS_TEST(ms_part_set_location_moves_one)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsPartition *p;
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(add_one(ms, "a", "1", &err), &err);
    CHECK_OK(ms_part_set_location(ms, "default", "events", "ds=a/hr=1",
                                  "/data/moved", &err), &err);
    CHECK_OK(ms_part_get(ms, "default", "events", "ds=a/hr=1", &a, &p, &err),
             &err);
    CHECK_STR(p->location, "/data/moved");
    CHECK_EQ(ms_part_set_location(ms, "default", "events", "ds=b/hr=1",
                                  "/data/x", &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Partition not found 'default.events/ds=b/hr=1'");
    CHECK_EQ(ms_part_set_location(ms, "default", "nope", "ds=a/hr=1",
                                  "/data/x", &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_part_set_location(ms, "default", "events", "ds=a/hr=1",
                                  "data/x", &err), COMB_EINVALID);
    CHECK_EQ(ms_part_set_location(ms, "default", "events", "ds=a/hr=1", NULL,
                                  &err), COMB_EINVALID);
    CHECK_OK(ms_part_get(ms, "default", "events", "ds=a/hr=1", &a, &p, &err),
             &err);
    CHECK_STR(p->location, "/data/moved");
    ms_close(ms);
    comb_arena_free(&a);
}

/* The whole map is replaced (what the metastore service's
 * alter_partitions_req stores), a repeated key keeping its last value. */
MS_TEST(ms_part_set_params_replaces_them)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    CombArena a;
    MsPartition *p;
    MsProperty params[] = {{"numRows", "3"}, {"origin", "trino"},
                           {"numRows", "4"}, {"", "x"}};
    comb_arena_init(&a, 0);
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(add_one(ms, "a", "1", &err), &err);
    CHECK_OK(ms_part_set_params(ms, "default", "events", "ds=a/hr=1", params,
                                3, &err), &err);
    CHECK_OK(ms_part_get(ms, "default", "events", "ds=a/hr=1", &a, &p, &err),
             &err);
    CHECK_EQ(p->n_params, 2);
    CHECK_STR(p->params[0].key, "numRows");
    CHECK_STR(p->params[0].value, "4");
    CHECK_STR(p->params[1].key, "origin");
    CHECK_STR(p->params[1].value, "trino");
    CHECK_OK(ms_part_set_params(ms, "default", "events", "ds=a/hr=1",
                                &params[1], 1, &err), &err);
    CHECK_OK(ms_part_get(ms, "default", "events", "ds=a/hr=1", &a, &p, &err),
             &err);
    CHECK_EQ(p->n_params, 1);
    CHECK_STR(p->params[0].key, "origin");
    CHECK_EQ(ms_part_set_params(ms, "default", "events", "ds=b/hr=1", params,
                                1, &err), COMB_ENOTFOUND);
    CHECK_STR(err.msg, "Partition not found 'default.events/ds=b/hr=1'");
    CHECK_EQ(ms_part_set_params(ms, "default", "nope", "ds=a/hr=1", params, 1,
                                &err), COMB_ENOTFOUND);
    CHECK_EQ(ms_part_set_params(ms, "default", "events", "ds=a/hr=1", params,
                                4, &err), COMB_EINVALID);
    CHECK_OK(ms_part_set_params(ms, "default", "events", "ds=a/hr=1", NULL, 0,
                                &err), &err);
    CHECK_OK(ms_part_get(ms, "default", "events", "ds=a/hr=1", &a, &p, &err),
             &err);
    CHECK_EQ(p->n_params, 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_PARAMS"), 0);
    ms_close(ms);
    comb_arena_free(&a);
}

/* One txn writing several partitions: one write id for the table, one
 * component per partition, carried to COMPLETED_TXN_COMPONENTS. */
MS_TEST(ms_txn_partitions_share_one_writeid)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    int64_t txn, w, w2;
    char *parts[] = {"ds=a/hr=1", "ds=b/hr=1", "ds=c/hr=2"};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "events", &w, &err),
             &err);
    /* a dynamic-partition write first recorded at table level */
    CHECK_OK(ms_txn_add_component(ms, txn, "default", "events", NULL,
                                  MS_OP_INSERT, w, &err), &err);
    CHECK_OK(ms_txn_add_partitions(ms, txn, "default", "events", parts, 2,
                                   MS_OP_INSERT, w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "events", &w2, &err),
             &err);
    CHECK_EQ(w2, w);
    CHECK_OK(ms_txn_add_component(ms, txn, "default", "events", parts[2],
                                  MS_OP_INSERT, w, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS "
                             "WHERE TC_PARTITION IS NULL"), 0);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_WRITEID = 1 AND CTC_PARTITION IN "
                             "('ds=a/hr=1', 'ds=b/hr=1', 'ds=c/hr=2')"), 3);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 1);

    CHECK_EQ(ms_txn_add_partitions(ms, txn, "default", "events", parts, 1,
                                   MS_OP_INSERT, w, &err), COMB_ETXN);
    CHECK_STR(err.msg, "Transaction txnid:1 is already committed.");
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_EQ(ms_txn_add_component(ms, txn, "default", "events", "",
                                  MS_OP_INSERT, 2, &err), COMB_EINVALID);
    CHECK_EQ(ms_txn_add_partitions(ms, txn, "default", "events",
                                   (char *[]){"ds=x/hr=1", NULL}, 2,
                                   MS_OP_INSERT, 2, &err), COMB_EINVALID);
    CHECK_EQ(ms_txn_add_partitions(ms, txn, "default", "events", parts, 1,
                                   (MsOpType)'x', 2, &err), COMB_EINVALID);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS"), 0);
    ms_close(ms);
}

/* Update conflicts are per partition: disjoint partitions both commit,
 * the same partition loses the second committer (Hive's 10263). */
MS_TEST(ms_txn_write_conflict_per_partition)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    int64_t t1, t2, t3, w;
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t1, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t2, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &t3, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t1, "default", "events", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t1, "default", "events", "ds=a/hr=1",
                                  MS_OP_UPDATE, w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t2, "default", "events", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t2, "default", "events", "ds=b/hr=1",
                                  MS_OP_UPDATE, w, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, t3, "default", "events", &w, &err), &err);
    CHECK_OK(ms_txn_add_component(ms, t3, "default", "events", "ds=a/hr=1",
                                  MS_OP_DELETE, w, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t1, &err), &err);
    CHECK_OK(ms_txn_commit(ms, t2, &err), &err);
    CHECK_EQ(ms_txn_commit(ms, t3, &err), COMB_ETXN);
    CHECK_EQ(err.hive_code, 10263);
    CHECK(strstr(err.msg, "write conflict on default/events/ds=a/hr=1 "
                          "committed by [txnid:1,3] d/u") != NULL);
    ms_close(ms);
}

/* Dropping a partition takes its transaction rows with it (Hive's
 * cleanupRecords); those of the other partitions stay. */
MS_TEST(ms_part_drop_cleans_txn_rows)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    int64_t txn, w;
    char *parts[] = {"ds=a/hr=1", "ds=b/hr=1"};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(add_one(ms, "a", "1", &err), &err);
    CHECK_OK(add_one(ms, "b", "1", &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "events", &w, &err), &err);
    CHECK_OK(ms_txn_add_partitions(ms, txn, "default", "events", parts, 2,
                                   MS_OP_INSERT, w, &err), &err);
    CHECK_OK(ms_txn_commit(ms, txn, &err), &err);
    CHECK_OK(ms_txn_open(ms, "u", "h", &txn, &err), &err);
    CHECK_OK(ms_writeid_allocate(ms, txn, "default", "events", &w, &err), &err);
    CHECK_OK(ms_txn_add_partitions(ms, txn, "default", "events", parts, 2,
                                   MS_OP_INSERT, w, &err), &err);
    CHECK_EQ(fx_sql_exec(&fx, "INSERT INTO COMPACTION_QUEUE (CQ_ID, "
                              "CQ_DATABASE, CQ_TABLE, CQ_PARTITION, CQ_STATE, "
                              "CQ_TYPE) VALUES (1, 'default', 'events', "
                              "'ds=a/hr=1', 'i', 'a')"), SQLITE_OK);
    CHECK_OK(ms_part_drop(ms, "default", "events", parts, 1, false, &err),
             &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_PARTITION = 'ds=a/hr=1'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS "
                             "WHERE TC_PARTITION = 'ds=a/hr=1'"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPACTION_QUEUE"), 0);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM COMPLETED_TXN_COMPONENTS "
                             "WHERE CTC_PARTITION = 'ds=b/hr=1'"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_COMPONENTS "
                             "WHERE TC_PARTITION = 'ds=b/hr=1'"), 1);
    /* the table's write ids are untouched: they are per table */
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM TXN_TO_WRITE_ID"), 2);
    ms_close(ms);
}

MS_TEST(ms_table_drop_takes_partitions)
{
    Fx fx;
    Ms *ms = NULL;
    CombErr err;
    MsDatabase d = {"other", NULL, NULL, NULL};
    char *vals[2] = {"a", "1"};
    MsPartition p = part_of(vals);
    p.n_params = 1;
    p.params = (MsProperty[]){{"k", "v"}};
    CHECK_OK(fx_open(&fx, &ms, &err), &err);
    CHECK_OK(ms_db_create(ms, &d, false, &err), &err);
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(create_events(ms, "other", &err), &err);
    CHECK_OK(ms_part_add(ms, "default", "events", &p, 1, false, NULL, &err),
             &err);
    CHECK_OK(ms_part_add(ms, "other", "events", &p, 1, false, NULL, &err),
             &err);
    CHECK_OK(ms_table_drop(ms, "default", "events", false, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_PARAMS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEYS"), 2);
    /* re-created under the same name, the table has no partitions */
    CHECK_OK(create_events(ms, "default", &err), &err);
    CHECK_OK(ms_part_add(ms, "default", "events", &p, 1, false, NULL, &err),
             &err);
    CHECK_OK(ms_db_drop(ms, "other", false, true, &err), &err);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITIONS"), 1);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_KEY_VALS"), 2);
    CHECK_EQ(fx_sql_int(&fx, "SELECT count(*) FROM PARTITION_PARAMS"), 1);
    ms_close(ms);
}
