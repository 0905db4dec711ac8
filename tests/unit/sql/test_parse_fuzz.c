/*
 * test_parse_fuzz.c - robustness: every prefix of valid statements, random
 * bytes, random token soup and mutated statements go through the splitter
 * and the parser, which must return OK or a clean error every time (ASan
 * and LeakSanitizer watch for the rest).  Inputs are copied into exact-size
 * heap buffers so that any read past the end is caught.
 */
#include "unit.h"
#include "sql/parse/ast.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const valid[] = {
    "CREATE DATABASE IF NOT EXISTS s COMMENT 'c' LOCATION '/w' WITH "
    "DBPROPERTIES ('a'='b')",
    "DROP SCHEMA IF EXISTS s CASCADE;",
    "use d",
    "CREATE TEMPORARY EXTERNAL TABLE IF NOT EXISTS d.t (a INT COMMENT 'x', "
    "b DECIMAL(10,2), c VARCHAR(3), d DOUBLE PRECISION) COMMENT 't' "
    "PARTITIONED BY (p STRING) CLUSTERED BY (a) SORTED BY (a DESC) INTO 4 "
    "BUCKETS ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' LINES TERMINATED "
    "BY '\\n' STORED AS ORC LOCATION '/x' TBLPROPERTIES ('k'='v')",
    "DROP TABLE IF EXISTS d.t PURGE",
    "SHOW DATABASES LIKE 'x*'",
    "SHOW TABLES IN d LIKE 'a*'",
    "DESCRIBE FORMATTED d.t",
    "INSERT INTO TABLE d.t (a, `b`) VALUES (1, 'x\\'y'), (-2, NULL)",
    "INSERT OVERWRITE TABLE t SELECT * FROM u",
    "SELECT DISTINCT a, t.*, count(DISTINCT b) AS c, `q` x FROM d.t AS t "
    "WHERE a = 1 OR b = 2 AND NOT c = 3 GROUP BY a HAVING count(*) > 1 "
    "ORDER BY a DESC NULLS LAST LIMIT 5",
    "select case when a between 1 and 2 then 'x' else 'y' end, "
    "cast(b as bigint), c not in (1, 2), d rlike 'z', e is not null, "
    "row__id.writeid, -9223372036854775808, 1.5e3, 10L, .5BD, "
    "DATE '2020-01-01', current_date, 'a' \"b\" -- c\n from t /* x */",
    "UPDATE d.t SET a = a + 1, b = 'q' WHERE c <=> NULL",
    "DELETE FROM t WHERE a IN (1, 2)",
    "SET hivevar:x = y z;",
    "set -v",
    "select a from t join u on 1 = 1",
    "select `a``b` from t where x || y > 1 div 2 % 3",
    "FROM d.src s INSERT OVERWRITE TABLE t PARTITION (p = 1, q) (a, b) "
    "SELECT s.a, s.b, s.c WHERE s.c IS NOT NULL SORT BY s.c DESC "
    "INSERT INTO u SELECT count(*) GROUP BY a HAVING count(*) > 1 "
    "ORDER BY 1 LIMIT 3",
    "from t x select x.a distribute by (a, b + 1) sort by (a asc, b) limit 2",
    "select a from t cluster by a, upper(b)",
    "select a from t order by a sort by b",
    "ALTER TABLE d.t RENAME TO d2.t2",
    "alter table t add columns (a int comment 'x', b map<string,int>) cascade",
    "alter table t change column a b decimal(5,2) comment 'c' after z restrict",
    "alter table t set tblproperties ('a'=\"b\", 'c'='d')",
    "alter table t unset tblproperties if exists ('a')",
    "alter table t partition (p='1', q=2) set location 'file:///x'",
    "alter table t add if not exists partition (p='a') location '/l' "
    "partition (p='b')",
    "alter table t drop if exists partition (p < 'x', q <> 1), partition "
    "(p >= 'y') purge",
    "alter table t partition (p='1') concatenate",
    "truncate table d.t partition (p = 1) force",
    "SHOW CREATE TABLE d.t",
    "SHOW TBLPROPERTIES d.t('k')",
    "SHOW SORTED COLUMNS FROM t IN d LIKE 'c*'",
    "SHOW PARTITIONS d.t PARTITION (p='a') WHERE q > 1 ORDER BY q DESC "
    "LIMIT 3",
    "DESCRIBE EXTENDED d.t PARTITION (p = 1) c",
    "DESC DATABASE EXTENDED d",
    "MSCK REPAIR TABLE d.t SYNC PARTITIONS",
    "CREATE TABLE t (a INT) ROW FORMAT SERDE 's' WITH SERDEPROPERTIES "
    "('k'='v') STORED AS INPUTFORMAT 'i' OUTPUTFORMAT 'o'",
    "select s.a, b from (select a, b from (select * from t) x "
    "order by a limit 3) AS s where s.a > 1",
    "CREATE OR REPLACE VIEW IF NOT EXISTS d.v (a COMMENT 'x', b) COMMENT 'c' "
    "TBLPROPERTIES ('k'='v') AS select a, b from t",
    "ALTER VIEW v SET TBLPROPERTIES ('a'='b')",
    "alter view v as select 1",
    "from (select a from t) s insert into u select a insert into v select 1",
    "explain from t select a sort by a",
    "DROP VIEW IF EXISTS d.v",
    "CREATE EXTERNAL TABLE IF NOT EXISTS t PARTITIONED BY (p, q) STORED AS "
    "TEXTFILE LOCATION '/x' TBLPROPERTIES ('a'='b') AS select a, p, q from u",
    "CREATE TABLE t LIKE d.u ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' "
    "STORED AS ORC LOCATION '/y' TBLPROPERTIES ('k'='v')",
    "EXPLAIN CBO UPDATE t SET a = 1 WHERE b = 2",
    "explain select a from (select a from t) s",
};

/* A NUL-terminated heap copy of s[0..n). */
static char *copy_n(const char *s, size_t n)
{
    char *c = malloc(n + 1);
    memcpy(c, s, n);
    c[n] = '\0';
    return c;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Parse text and check the outcome is clean; false on a broken contract. */
static bool parse_cleanly(CombArena *arena, const char *text)
{
    AstStmt *s = (AstStmt *)1;
    CombErr err;
    size_t len = strlen(text), end = 0;
    if (sql_next_statement(text, len, &end) && (end == 0 || end > len))
        return false;
    (void)sql_is_blank(text, len);
    int rc = sql_parse_statement(text, strlen(text), arena, &s, &err);
    comb_arena_reset(arena);
    if (rc == COMB_OK)
        return s != NULL && err.code == COMB_OK;
    /* the parser's semantic errors are Hive's phase-1 ones, numbered */
    return s == NULL && err.code == rc && err.msg[0] != '\0' &&
           (rc == COMB_ESYNTAX || rc == COMB_EUNSUPPORTED ||
            (rc == COMB_ESEMANTIC && err.hive_code != 0));
}

/* parse_cleanly on s[0..n) copied to a heap string of its own, so that
 * ASan sees any read past its end. */
static bool parse_copy_cleanly(CombArena *arena, const char *s, size_t n)
{
    char *text = copy_n(s, n);
    bool ok = parse_cleanly(arena, text);
    free(text);
    return ok;
}

TEST(fuzz_every_prefix_of_valid_statements)
{
    CombArena arena;
    comb_arena_init(&arena, 4096);
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        size_t len = strlen(valid[i]);
        for (size_t n = 0; n <= len; n++) {
            bool ok = parse_copy_cleanly(&arena, valid[i], n);
            if (!ok)
                unit_fail(__FILE__, __LINE__, "statement %zu prefix %zu", i,
                          n);
            CHECK(ok);
        }
    }
    comb_arena_free(&arena);
}

TEST(fuzz_random_bytes)
{
    CombArena arena;
    comb_arena_init(&arena, 4096);
    char buf[97];
    for (int round = 0; round < 20000; round++) {
        size_t n = rng() % (sizeof buf - 1);
        for (size_t i = 0; i < n; i++) {
            /* favour the bytes that drive the lexer */
            static const char hot[] = "'\"`\\;-/*.()0123456789eEbBdDlL \n";
            uint64_t r = rng();
            buf[i] = (r & 1) ? hot[(r >> 1) % (sizeof hot - 1)]
                             : (char)(1 + (r >> 8) % 255);
        }
        CHECK(parse_copy_cleanly(&arena, buf, n));
    }
    comb_arena_free(&arena);
}

TEST(fuzz_token_soup)
{
    static const char *const words[] = {
        "select", "from", "where", "group", "by", "having", "order", "limit",
        "insert", "into", "table", "values", "update", "set", "delete",
        "create", "drop", "database", "show", "tables", "describe", "use",
        "not", "and", "or", "is", "null", "between", "in", "like", "case",
        "when", "then", "else", "end", "cast", "as", "int", "decimal",
        "varchar", "array", "(", ")", ",", ".", "*", "+", "-", "/", "=",
        "<=>", "||", "<", ";", "a", "t", "row__id", "`q`", "'s'", "\"d\"",
        "1", "2.5", "10L", "1e3", "count", "distinct", "if", "exists",
        "partitioned", "clustered", "buckets", "stored", "location",
        "comment", "tblproperties", "'k'", "-- c\n", "/* c */", "nulls",
        "first", "desc", "asc", "join", "date", "current_date", "!", "~",
        "[", "]", "&", "over", "msck", "repair", "partitions", "columns",
        "tblproperties", "sync", "serde", "inputformat", "outputformat",
    };
    CombArena arena;
    comb_arena_init(&arena, 4096);
    char buf[512];
    for (int round = 0; round < 30000; round++) {
        size_t n = 0, count = 1 + rng() % 24;
        for (size_t k = 0; k < count; k++) {
            const char *w = words[rng() % (sizeof words / sizeof words[0])];
            size_t wl = strlen(w);
            if (n + wl + 2 > sizeof buf)
                break;
            memcpy(buf + n, w, wl);
            n += wl;
            buf[n++] = ' ';
        }
        CHECK(parse_copy_cleanly(&arena, buf, n));
    }
    comb_arena_free(&arena);
}

TEST(fuzz_mutated_statements)
{
    CombArena arena;
    comb_arena_init(&arena, 4096);
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        size_t len = strlen(valid[i]);
        for (int round = 0; round < 300; round++) {
            char *text = copy_n(valid[i], len + 1);
            size_t at = rng() % (len + 1);
            switch (rng() % 3) {
            case 0:   /* delete a byte */
                memmove(text + at, text + at + 1, len - at);
                break;
            case 1:   /* overwrite a byte */
                if (at < len)
                    text[at] = "'\"`;()-*/.,x1"[rng() % 13];
                break;
            default:  /* truncate */
                text[at] = '\0';
                break;
            }
            bool ok = parse_cleanly(&arena, text);
            free(text);
            CHECK(ok);
        }
    }
    comb_arena_free(&arena);
}
