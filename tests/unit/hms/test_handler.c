/* hms/: the metastore service's calls through its handler, without a
 * socket (the wire is tests/integration/hms_service.sh's): settings, the
 * warehouse made absolute, Table objects and Hive's name patterns, and a
 * transaction's life (write ids allocated once, commit, abort, the valid
 * write-id list, Hive's exception texts). */
#include "unit.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hms/hms_int.h"

/* A service's settings and one connection's handler on a warehouse of
 * the test's own. */
typedef struct Svc {
    HmsConf conf;
    HmsThriftHiveMetastoreIf *iface;
    Ms *ms;                 /* the test's own handle on the metastore */
} Svc;

static int svc_open(Svc *s, const char *const *keys, const char *const *values,
                    int n, CombErr *err)
{
    char wh[PATH_MAX];
    snprintf(wh, sizeof wh, "%s/wh", unit_tmpdir());
    HmsOptions opt = {wh, NULL, NULL, 0, keys, values, n, NULL};
    int rc = hms_conf_init(&opt, &s->conf, err);
    if (rc)
        return rc;
    hms_register_types();
    s->iface = HMS_THRIFT_HIVE_METASTORE_IF(hms_handler_new(&s->conf));
    return ms_open(s->conf.target, s->conf.warehouse, &s->ms, err);
}

static void svc_close(Svc *s)
{
    ms_close(s->ms);
    g_object_unref(s->iface);
    hms_conf_free(&s->conf);
}

/* default.<name>: ORC, bucketed by id into 2, transactional or not */
static int table_make(Svc *s, const char *name, bool acid, CombErr *err)
{
    char loc[PATH_MAX];
    MsColumn cols[] = {{.name = "id", .type = "int"},
                       {.name = "name", .type = "string"}};
    char *bucket_cols[] = {"id"};
    MsProperty props[] = {{"transactional", "true"}};
    snprintf(loc, sizeof loc, "%s/%s", s->conf.warehouse, name);
    MsTable t = {.db = "default", .name = (char *)name, .location = loc,
                 .owner = "tester",
                 .input_format = MS_ORC_INPUT_FORMAT,
                 .output_format = MS_ORC_OUTPUT_FORMAT, .serde = MS_ORC_SERDE,
                 .n_cols = 2, .cols = cols, .n_buckets = 2,
                 .n_bucket_cols = 1, .bucket_cols = bucket_cols,
                 .n_props = acid ? 1 : 0, .props = props};
    return ms_table_create(s->ms, &t, false, err);
}

TEST(hms_conf_defaults_and_refusals)
{
    static const char *const keys[] = {"hive.txn.timeout"};
    static const char *const bad[] = {"soon"};
    static const char *const fine[] = {"2s"};
    Svc s;
    CombErr err;
    CHECK(svc_open(&s, keys, bad, 1, &err) != COMB_OK);
    CHECK(strstr(err.msg, "hive.txn.timeout") != NULL);
    CHECK_OK(svc_open(&s, keys, fine, 1, &err), &err);
    CHECK_EQ(s.conf.txn_timeout_ms, 2000);
    CHECK_STR(hms_conf_value(&s.conf, "hive.txn.timeout"), "2s");
    CHECK_STR(hms_conf_value(&s.conf, "metastore.acid.housekeeper.interval"),
              "60s");
    CHECK(hms_conf_value(&s.conf, "no.such.setting") == NULL);
    CHECK_EQ(s.conf.max_threads, 1000);
    svc_close(&s);
}

TEST(hms_conf_relative_warehouse_made_absolute)
{
    char cwd[PATH_MAX], want[PATH_MAX];
    const char *dir = unit_tmpdir();
    struct stat st;
    CombErr err;
    HmsConf c;
    HmsOptions opt = {"fresh/./wh/", NULL, NULL, 0, NULL, NULL, 0, NULL};
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    CHECK(chdir(dir) == 0);
    int rc = hms_conf_init(&opt, &c, &err);
    CHECK(chdir(cwd) == 0);
    CHECK_OK(rc, &err);
    snprintf(want, sizeof want, "%s/fresh/wh", dir);
    CHECK_STR(c.warehouse, want);
    CHECK(stat(want, &st) == 0 && S_ISDIR(st.st_mode));
    CHECK_STR(hms_conf_value(&c, "hive.metastore.warehouse.dir"), want);
    hms_conf_free(&c);
}

/* The names get_tables_by_type answers, joined by ','. */
static char *tables_of(Svc *s, const char *pattern, const char *type)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    HmsMetaException *x = NULL;
    GError *error = NULL;
    GString *out = g_string_new("");
    if (!hms_thrift_hive_metastore_if_get_tables_by_type(
            s->iface, &names, "default", pattern, type, &x, &error))
        g_string_assign(out, x ? x->message : error->message);
    for (guint i = 0; i < names->len; i++)
        g_string_append_printf(out, "%s%s", i ? "," : "",
                               (char *)g_ptr_array_index(names, i));
    g_ptr_array_unref(names);
    g_clear_object(&x);
    g_clear_error(&error);
    return g_string_free(out, FALSE);
}

static bool tables_are(Svc *s, const char *pattern, const char *type,
                       const char *want)
{
    char *got = tables_of(s, pattern, type);
    bool same = !strcmp(got, want);
    if (!same)
        printf("# tables '%s' of type %s: %s, not %s\n", pattern,
               type ? type : "any", got, want);
    g_free(got);
    return same;
}

TEST(hms_table_names_by_hive_pattern)
{
    Svc s;
    CombErr err;
    CHECK_OK(svc_open(&s, NULL, NULL, 0, &err), &err);
    CHECK_OK(table_make(&s, "orders", true, &err), &err);
    CHECK_OK(table_make(&s, "order_lines", false, &err), &err);
    CHECK_OK(table_make(&s, "stock", false, &err), &err);
    CHECK(tables_are(&s, "*", NULL, "order_lines,orders,stock"));
    CHECK(tables_are(&s, ".*", "MANAGED_TABLE", "order_lines,orders,stock"));
    CHECK(tables_are(&s, "order*", NULL, "order_lines,orders"));
    CHECK(tables_are(&s, "sto*|orders", NULL, "orders,stock"));
    CHECK(tables_are(&s, "ORDERS", NULL, "orders"));
    CHECK(tables_are(&s, "order", NULL, ""));
    CHECK(tables_are(&s, "*", "VIRTUAL_VIEW", ""));
    /* a type Hive's TableType does not name: its MetaException */
    CHECK(tables_are(&s, "*", "managed_table", "java.lang.IllegalArgument"
                     "Exception: No enum constant org.apache.hadoop.hive."
                     "metastore.TableType.managed_table"));
    svc_close(&s);
}

TEST(hms_get_table_objects)
{
    Svc s;
    CombErr err;
    HmsTable *t = g_object_new(HMS_TYPE_TABLE, NULL);
    HmsMetaException *x1 = NULL;
    HmsNoSuchObjectException *x2 = NULL;
    GError *error = NULL;
    CHECK_OK(svc_open(&s, NULL, NULL, 0, &err), &err);
    CHECK_OK(table_make(&s, "t", true, &err), &err);
    CHECK(hms_thrift_hive_metastore_if_get_table(s.iface, &t, "default", "t",
                                                 &x1, &x2, &error));
    CHECK_STR(t->tableName, "t");
    CHECK_STR(t->dbName, "default");
    CHECK_STR(t->owner, "tester");
    CHECK_STR(t->tableType, "MANAGED_TABLE");
    CHECK_EQ(t->sd->cols->len, 2);
    CHECK_STR(((HmsFieldSchema *)g_ptr_array_index(t->sd->cols, 1))->type,
              "string");
    CHECK_EQ(t->sd->numBuckets, 2);
    CHECK_STR(t->sd->inputFormat, MS_ORC_INPUT_FORMAT);
    CHECK_STR(t->sd->serdeInfo->serializationLib, MS_ORC_SERDE);
    CHECK_STR(g_hash_table_lookup(t->parameters, "transactional"), "true");
    g_object_unref(t);

    t = g_object_new(HMS_TYPE_TABLE, NULL);
    CHECK(!hms_thrift_hive_metastore_if_get_table(s.iface, &t, "default",
                                                  "nosuch", &x1, &x2, &error));
    CHECK(x2 != NULL && x1 == NULL);
    CHECK_STR(x2->message, "hive.default.nosuch table not found");
    g_clear_object(&x2);
    g_object_unref(t);
    svc_close(&s);
}

static gint64 open_txns(Svc *s, int n)
{
    HmsOpenTxnRequest *rq = g_object_new(HMS_TYPE_OPEN_TXN_REQUEST, NULL);
    HmsOpenTxnsResponse *r = g_object_new(HMS_TYPE_OPEN_TXNS_RESPONSE, NULL);
    GError *error = NULL;
    gint64 first = -1;
    rq->num_txns = n;
    rq->user = g_strdup("trino");
    rq->hostname = g_strdup("worker1");
    if (hms_thrift_hive_metastore_if_open_txns(s->iface, &r, rq, &error) &&
        r->txn_ids->len == (guint)n)
        first = g_array_index(r->txn_ids, gint64, 0);
    for (int i = 1; first > 0 && i < n; i++)
        if (g_array_index(r->txn_ids, gint64, i) != first + i)
            first = -1;
    g_clear_error(&error);
    g_object_unref(rq);
    g_object_unref(r);
    return first;
}

/* The write id allocate_table_write_ids gives txn on default.t, -1 when
 * the call fails. */
static gint64 write_id_of(Svc *s, gint64 txn)
{
    HmsAllocateTableWriteIdsRequest *rq =
        g_object_new(HMS_TYPE_ALLOCATE_TABLE_WRITE_IDS_REQUEST, NULL);
    HmsAllocateTableWriteIdsResponse *r =
        g_object_new(HMS_TYPE_ALLOCATE_TABLE_WRITE_IDS_RESPONSE, NULL);
    HmsNoSuchTxnException *x1 = NULL;
    HmsTxnAbortedException *x2 = NULL;
    HmsMetaException *x3 = NULL;
    GError *error = NULL;
    gint64 id = -1;
    rq->dbName = g_strdup("default");
    rq->tableName = g_strdup("t");
    g_array_append_val(rq->txnIds, txn);
    rq->__isset_txnIds = TRUE;
    if (hms_thrift_hive_metastore_if_allocate_table_write_ids(
            s->iface, &r, rq, &x1, &x2, &x3, &error) &&
        r->txnToWriteIds->len == 1) {
        HmsTxnToWriteId *w = g_ptr_array_index(r->txnToWriteIds, 0);
        id = w->txnId == txn ? w->writeId : -1;
    }
    g_clear_object(&x1);
    g_clear_object(&x2);
    g_clear_object(&x3);
    g_clear_error(&error);
    g_object_unref(rq);
    g_object_unref(r);
    return id;
}

/* commit_txn's answer: "" or the exception's message */
static char *commit(Svc *s, gint64 txn)
{
    HmsCommitTxnRequest *rq = g_object_new(HMS_TYPE_COMMIT_TXN_REQUEST, NULL);
    HmsNoSuchTxnException *x1 = NULL;
    HmsTxnAbortedException *x2 = NULL;
    GError *error = NULL;
    char *said;
    rq->txnid = txn;
    if (hms_thrift_hive_metastore_if_commit_txn(s->iface, rq, &x1, &x2, &error))
        said = g_strdup("");
    else
        said = g_strdup(x1 ? x1->message : x2 ? x2->message : error->message);
    g_clear_object(&x1);
    g_clear_object(&x2);
    g_clear_error(&error);
    g_object_unref(rq);
    return said;
}

static bool commit_says(Svc *s, gint64 txn, const char *want)
{
    char *said = commit(s, txn);
    bool same = !strcmp(said, want);
    if (!same)
        printf("# commit of %lld: '%s', not '%s'\n", (long long)txn, said,
               want);
    g_free(said);
    return same;
}

static bool abort_txn(Svc *s, gint64 txn)
{
    HmsAbortTxnRequest *rq = g_object_new(HMS_TYPE_ABORT_TXN_REQUEST, NULL);
    HmsNoSuchTxnException *x = NULL;
    GError *error = NULL;
    rq->txnid = txn;
    bool ok = hms_thrift_hive_metastore_if_abort_txn(s->iface, rq, &x, &error);
    g_clear_object(&x);
    g_clear_error(&error);
    g_object_unref(rq);
    return ok;
}

/* default.t's write ids valid for txns (Hive's ValidTxnList string):
 * the high water mark, the invalid ids (each aborted or not) */
static HmsTableValidWriteIds *valid_write_ids(Svc *s, const char *txns,
                                              HmsGetValidWriteIdsResponse **r)
{
    HmsGetValidWriteIdsRequest *rq =
        g_object_new(HMS_TYPE_GET_VALID_WRITE_IDS_REQUEST, NULL);
    HmsNoSuchTxnException *x1 = NULL;
    HmsMetaException *x2 = NULL;
    GError *error = NULL;
    HmsTableValidWriteIds *t = NULL;
    *r = g_object_new(HMS_TYPE_GET_VALID_WRITE_IDS_RESPONSE, NULL);
    g_ptr_array_add(rq->fullTableNames, g_strdup("default.t"));
    rq->validTxnList = g_strdup(txns);
    if (hms_thrift_hive_metastore_if_get_valid_write_ids(s->iface, r, rq, &x1,
                                                         &x2, &error) &&
        (*r)->tblValidWriteIds->len == 1)
        t = g_ptr_array_index((*r)->tblValidWriteIds, 0);
    g_clear_object(&x1);
    g_clear_object(&x2);
    g_clear_error(&error);
    g_object_unref(rq);
    return t;
}

TEST(hms_txn_write_ids_commit_abort)
{
    Svc s;
    CombErr err;
    char txns[128], want[128];
    HmsGetValidWriteIdsResponse *r;
    CHECK_OK(svc_open(&s, NULL, NULL, 0, &err), &err);
    CHECK_OK(table_make(&s, "t", true, &err), &err);
    gint64 a = open_txns(&s, 2), b = a + 1;
    CHECK(a > 0);
    gint64 wa = write_id_of(&s, a), wb = write_id_of(&s, b);
    CHECK(wa > 0 && wb == wa + 1);
    CHECK_EQ(write_id_of(&s, a), wa);          /* asked again: the same */
    CHECK(commit_says(&s, a, ""));
    CHECK(commit_says(&s, a, ""));             /* a retry: no-op */
    CHECK(abort_txn(&s, b));
    snprintf(want, sizeof want, "Transaction txnid:%lld already aborted",
             (long long)b);
    CHECK(commit_says(&s, b, want));
    CHECK(write_id_of(&s, b) == -1);
    CHECK(commit_says(&s, 999999, "No such transaction txnid:999999"));

    gint64 c = open_txns(&s, 1);
    CHECK(c == b + 1);
    snprintf(txns, sizeof txns, "%lld:9223372036854775807::%lld",
             (long long)c, (long long)b);
    HmsTableValidWriteIds *t = valid_write_ids(&s, txns, &r);
    CHECK(t != NULL);
    CHECK_STR(t->fullTableName, "default.t");
    CHECK_EQ(t->writeIdHighWaterMark, wb);
    CHECK_EQ(t->invalidWriteIds->len, 1);
    CHECK_EQ(g_array_index(t->invalidWriteIds, gint64, 0), wb);
    CHECK(t->abortedBits->len >= 1 && (t->abortedBits->data[0] & 1));
    CHECK(!t->__isset_minOpenWriteId);
    g_object_unref(r);
    CHECK(commit_says(&s, c, ""));
    svc_close(&s);
}
