/* hms/hms_conf.c: the service's settings from --hiveconf pairs, with
 * Hive's defaults, each refused with its reason when malformed. */
#include "unit.h"

#include "hms/hms_int.h"

/* A warehouse of the test's own (hms_conf_init makes it). */
static const char *warehouse(void)
{
    static char wh[4200];
    snprintf(wh, sizeof wh, "%s/wh", unit_tmpdir());
    return wh;
}

/* The settings of the pairs keys[i]=values[i] (n of them). */
static int conf_of(const char *const *keys, const char *const *values, int n,
                   HmsConf *c, CombErr *err)
{
    HmsOptions opt = {.warehouse = warehouse(), .conf_keys = keys,
                      .conf_values = values, .n_conf = n};
    return hms_conf_init(&opt, c, err);
}

TEST(hms_conf_defaults_are_hives)
{
    HmsConf c;
    CombErr err;
    char target[4300];
    CHECK_OK(conf_of(NULL, NULL, 0, &c, &err), &err);
    snprintf(target, sizeof target, "%s/metastore.db", c.warehouse);
    CHECK(strlen(c.warehouse) > 3 &&
          strcmp(c.warehouse + strlen(c.warehouse) - 3, "/wh") == 0);
    CHECK_STR(c.target, target);
    CHECK_EQ(c.max_threads, 1000);
    CHECK_EQ(c.txn_timeout_ms, 300000);
    CHECK_EQ(c.housekeeping_ms, 60000);
    CHECK_EQ(c.max_message, 104857600);
    CHECK_STR(hms_conf_value(&c, "hive.txn.timeout"), "300s");
    CHECK_STR(hms_conf_value(&c, "hive.metastore.warehouse.dir"), c.warehouse);
    CHECK(hms_conf_value(&c, "hive.no.such.setting") == NULL);
    hms_conf_free(&c);
}

TEST(hms_conf_pairs_override_and_the_last_counts)
{
    static const char *const keys[] = {"hive.txn.timeout", "hive.txn.timeout",
                                       "metastore.acid.housekeeper.interval",
                                       "hive.metastore.server.max.threads",
                                       "comb.metastore.url", "x.y"};
    static const char *const values[] = {"10s", "2 min", "500ms", "4",
                                         "/elsewhere/ms.db", "z"};
    HmsConf c;
    CombErr err;
    CHECK_OK(conf_of(keys, values, 6, &c, &err), &err);
    CHECK_EQ(c.txn_timeout_ms, 120000);
    CHECK_EQ(c.housekeeping_ms, 500);
    CHECK_EQ(c.max_threads, 4);
    CHECK_STR(c.target, "/elsewhere/ms.db");
    CHECK_STR(hms_conf_value(&c, "hive.txn.timeout"), "2 min");
    CHECK_STR(hms_conf_value(&c, "x.y"), "z");
    hms_conf_free(&c);
}

TEST(hms_conf_metastore_option_wins_over_the_setting)
{
    static const char *const keys[] = {"comb.metastore.url"};
    static const char *const values[] = {"/from/setting.db"};
    HmsOptions opt = {.warehouse = warehouse(), .metastore = "/from/option.db",
                      .conf_keys = keys, .conf_values = values, .n_conf = 1};
    HmsConf c;
    CombErr err;
    CHECK_OK(hms_conf_init(&opt, &c, &err), &err);
    CHECK_STR(c.target, "/from/option.db");
    hms_conf_free(&c);
}

/* key=value is refused, with a message that names the key and the
 * value. */
static void check_refused(const char *key, const char *value)
{
    const char *keys[] = {key}, *values[] = {value};
    HmsConf c;
    CombErr err;
    int rc = conf_of(keys, values, 1, &c, &err);
    if (rc != COMB_EINVALID) {
        unit_fail(__FILE__, __LINE__, "%s=%s: rc %d", key, value, rc);
        if (!rc)
            hms_conf_free(&c);
        return;
    }
    if (!strstr(err.msg, key) || !strstr(err.msg, value))
        unit_fail(__FILE__, __LINE__, "%s=%s: \"%s\"", key, value, err.msg);
}

TEST(hms_conf_malformed_settings_refused)
{
    check_refused("hive.metastore.server.max.threads", "0");
    check_refused("hive.metastore.server.max.threads", "many");
    check_refused("hive.metastore.server.max.threads", "");
    check_refused("hive.metastore.server.max.message.size", "1023");
    check_refused("hive.metastore.server.max.message.size", "99999999999999999999");
    check_refused("hive.txn.timeout", "-5");
    check_refused("hive.txn.timeout", "soon");
    check_refused("metastore.acid.housekeeper.interval", "1 fortnight");
}

TEST(hms_conf_limits_clamped)
{
    static const char *const keys[] = {"hive.metastore.server.max.threads",
                                       "hive.metastore.server.max.message.size"};
    static const char *const values[] = {"5000000", "9000000000"};
    HmsConf c;
    CombErr err;
    CHECK_OK(conf_of(keys, values, 2, &c, &err), &err);
    CHECK_EQ(c.max_threads, 100000);
    CHECK_EQ(c.max_message, INT32_MAX);
    hms_conf_free(&c);
}
