/*
 * test_tz.c - the writer time zones of ORC timestamps: UTC without any
 * file, zoneinfo files with their transitions and the POSIX rule that
 * goes on after the last one, a rule given as $TZ, and names that are
 * refused.
 */
#include "orc_test.h"
#include "unit.h"
#include "orc/orc_int.h"
#include "common/datetime.h"
#include "fs/fs.h"

#include <stdlib.h>

static int64_t at(int64_t y, int m, int d, int hh, int mm)
{
    return comb_days_to_seconds(comb_days_from_civil(y, m, d)) + hh * 3600 +
           mm * 60;
}

/* Restore $TZ / $TZDIR after a test changed them. */
typedef struct EnvSave {
    const char *name;
    char *value;
} EnvSave;

static EnvSave env_set(const char *name, const char *value)
{
    const char *old = getenv(name);
    EnvSave s = {name, old ? strdup(old) : NULL};
    if (value)
        setenv(name, value, 1);
    else
        unsetenv(name);
    return s;
}

static void env_restore(EnvSave *s)
{
    if (s->value)
        setenv(s->name, s->value, 1);
    else
        unsetenv(s->name);
    free(s->value);
}

TEST(tz_utc_needs_no_database)
{
    CombErr err;
    OrcTz *tz;
    EnvSave dir = env_set("TZDIR", "/nonexistent");
    CHECK_OK(orc_tz_load("UTC", &tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, 0), 0);
    CHECK_EQ(orc_tz_from_local(tz, ORC_TS_BASE_UTC), ORC_TS_BASE_UTC);
    orc_tz_free(tz);
    CHECK_OK(orc_tz_load("Etc/GMT", &tz, &err), &err);
    orc_tz_free(tz);
    /* other names need the database */
    CHECK_EQ(orc_tz_load("Europe/Paris", &tz, &err), COMB_EUNSUPPORTED);
    CHECK(strstr(err.msg, "Europe/Paris") && strstr(err.msg, "/nonexistent"));
    env_restore(&dir);
}

TEST(tz_names_must_stay_inside_the_database)
{
    CombErr err;
    OrcTz *tz;
    static const char *const bad[] = {"../../etc/passwd", "/etc/localtime",
                                      "America/../../x", "", "a b", ".hidden"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(orc_tz_load(bad[i], &tz, &err), COMB_EUNSUPPORTED);
        CHECK(tz == NULL);
    }
}

/* Los Angeles from the system's zoneinfo: transitions up to 2037, then
 * the file's rule "PST8PDT,M3.2.0,M11.1.0". */
TEST(tz_zoneinfo_transitions_and_rule)
{
    CombErr err;
    OrcTz *tz;
    if (!fs_exists("/usr/share/zoneinfo/America/Los_Angeles")) {
        printf("    skip: no zoneinfo for America/Los_Angeles\n");
        return;
    }
    EnvSave dir = env_set("TZDIR", NULL);
    CHECK_OK(orc_tz_load("America/Los_Angeles", &tz, &err), &err);
    env_restore(&dir);
    CHECK_EQ(orc_tz_offset(tz, at(2015, 1, 1, 0, 0)), -8 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2015, 7, 1, 0, 0)), -7 * 3600);
    /* 2015-03-08 10:00 UTC is 02:00 PST: the change to PDT */
    CHECK_EQ(orc_tz_offset(tz, at(2015, 3, 8, 9, 59)), -8 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2015, 3, 8, 10, 0)), -7 * 3600);
    /* beyond the listed transitions: the rule (2040-03-11, 2040-11-04) */
    CHECK_EQ(orc_tz_offset(tz, at(2040, 3, 11, 9, 59)), -8 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2040, 3, 11, 10, 0)), -7 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2040, 11, 4, 8, 59)), -7 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2040, 11, 4, 9, 0)), -8 * 3600);
    /* 1900 is PST, before any DST */
    CHECK_EQ(orc_tz_offset(tz, at(1900, 7, 1, 0, 0)), -8 * 3600);
    /* ORC's base in the zone: 2015-01-01 00:00 PST */
    CHECK_EQ(orc_tz_from_local(tz, ORC_TS_BASE_UTC), ORC_TS_BASE_UTC + 8 * 3600);
    orc_tz_free(tz);
}

/* Before 1900 a zone has its standard offset of today, as in
 * java.util.TimeZone (ORC Java's and Hive's readers; ORC C++ agrees where
 * the zone's first standard time is today's): not the local mean time
 * zoneinfo gives before its first transition (Los Angeles -7:52:58 until
 * 1883-11-18 20:00 UTC, Kolkata +5:53:28 until 1854).  From 1900 on,
 * zoneinfo's offsets, Kolkata's Madras time (+5:21:10) included. */
TEST(tz_before_1900_standard_offset_of_today)
{
    CombErr err;
    OrcTz *tz;
    if (!fs_exists("/usr/share/zoneinfo/America/Los_Angeles") ||
        !fs_exists("/usr/share/zoneinfo/Asia/Kolkata")) {
        printf("    skip: no zoneinfo for America/Los_Angeles, Asia/Kolkata\n");
        return;
    }
    EnvSave dir = env_set("TZDIR", NULL);
    CHECK_OK(orc_tz_load("America/Los_Angeles", &tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(1850, 6, 1, 0, 0)), -8 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(1, 1, 1, 0, 0)), -8 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(1883, 11, 18, 19, 59)), -8 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(1899, 12, 31, 23, 59)), -8 * 3600);
    /* ORC reads the stored seconds back as the writer's wall clock */
    CHECK_EQ(orc_tz_from_local(tz, at(1850, 6, 1, 0, 0)),
             at(1850, 6, 1, 8, 0));
    orc_tz_free(tz);
    CHECK_OK(orc_tz_load("Asia/Kolkata", &tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(1800, 1, 1, 0, 0)), 5 * 3600 + 1800);
    CHECK_EQ(orc_tz_offset(tz, at(1899, 12, 31, 23, 59)), 5 * 3600 + 1800);
    CHECK_EQ(orc_tz_offset(tz, at(1900, 1, 1, 0, 0)), 5 * 3600 + 21 * 60 + 10);
    CHECK_EQ(orc_tz_offset(tz, at(2000, 1, 1, 0, 0)), 5 * 3600 + 1800);
    orc_tz_free(tz);
    env_restore(&dir);
}

/* $TZ may hold a POSIX rule; southern rules wrap the year; J and plain
 * day numbers; a rule without dates takes the US dates. */
TEST(tz_posix_rules_as_local_zone)
{
    CombErr err;
    OrcTz *tz;
    EnvSave dir = env_set("TZDIR", "/nonexistent");
    EnvSave tzv = env_set("TZ", "EST5EDT,M3.2.0,M11.1.0");
    CHECK_OK(orc_tz_local(&tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 1, 15, 0, 0)), -5 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 7, 15, 0, 0)), -4 * 3600);
    orc_tz_free(tz);
    env_restore(&tzv);
    /* Sydney: DST from the first Sunday of October to the first of April */
    tzv = env_set("TZ", "<+10>-10<+11>,M10.1.0,M4.1.0/3");
    CHECK_OK(orc_tz_local(&tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 1, 15, 0, 0)), 11 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 6, 15, 0, 0)), 10 * 3600);
    orc_tz_free(tz);
    env_restore(&tzv);
    tzv = env_set("TZ", "XST3XDT,J60/0,300");
    CHECK_OK(orc_tz_local(&tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 2, 28, 12, 0)), -3 * 3600);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 3, 2, 12, 0)), -2 * 3600);
    orc_tz_free(tz);
    env_restore(&tzv);
    tzv = env_set("TZ", "CET-1CEST");
    CHECK_OK(orc_tz_local(&tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 7, 1, 0, 0)), 2 * 3600);
    orc_tz_free(tz);
    env_restore(&tzv);
    tzv = env_set("TZ", "not a zone!");
    CHECK_EQ(orc_tz_local(&tz, &err), COMB_EUNSUPPORTED);
    env_restore(&tzv);
    tzv = env_set("TZ", "");
    CHECK_OK(orc_tz_local(&tz, &err), &err);
    CHECK_EQ(orc_tz_offset(tz, at(2021, 7, 1, 0, 0)), 0);
    orc_tz_free(tz);
    env_restore(&tzv);
    env_restore(&dir);
}

/* A damaged zoneinfo file is an error, never a crash. */
TEST(tz_damaged_file)
{
    CombErr err;
    OrcTz *tz;
    const char *dir = unit_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/Bad", dir);
    static const char junk[] = "TZif2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\xff\xff";
    CHECK_OK(fs_write_file(path, junk, sizeof junk, &err), &err);
    EnvSave d = env_set("TZDIR", dir);
    CHECK_EQ(orc_tz_load("Bad", &tz, &err), COMB_ECORRUPT);
    env_restore(&d);
}
