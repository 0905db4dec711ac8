#!/usr/bin/env bash
# Which locks each kind of statement takes (Hive 4's DbTxnManager with its
# defaults, and the settings that change them): each statement is held
# with its locks granted (comb.test.pause.point=after_snapshot) while
# another process lists them with SHOW LOCKS, as db/table/partition/type.
set -u
WH=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
n_case=0
# expect "LOCKS" SETTINGS... -e SQL: the locks (sorted lines, ';'-joined)
expect() {
    local want=$1 go got
    shift
    n_case=$((n_case + 1))
    go=$WH/go$n_case
    "$COMB" --warehouse "$WH/w" --hiveconf comb.test.pause.point=after_snapshot \
        --hiveconf comb.test.pause.file="$go" "$@" > "$WH/stmt.log" 2>&1 &
    pid=$!
    local n=0
    until [[ -e $go.at ]]; do
        sleep 0.05; n=$((n + 1))
        { ((n < 1200)) && kill -0 "$pid" 2>/dev/null; } ||
            fail "case $n_case ($*) did not get its locks: $(cat "$WH/stmt.log")"
    done
    got=$(c -e "SHOW LOCKS" | tail -n +2 | awk -F'\t' '{print $2 "/" $3 "/" $4 "/" $7}' | sort | paste -sd';')
    touch "$go"
    wait "$pid" || fail "case $n_case ($*) failed: $(cat "$WH/stmt.log")"
    pid=
    [[ $got == "$want" ]] || fail "case $n_case ($*): locks '$got', want '$want'"
}

c -e "CREATE TABLE t (k INT, v INT) PARTITIONED BY (p STRING)
      TBLPROPERTIES ('transactional'='true');
      CREATE TABLE u (k INT, v INT) TBLPROPERTIES ('transactional'='true');
      CREATE TABLE ti (k INT) PARTITIONED BY (d INT)
        TBLPROPERTIES ('transactional'='true');
      CREATE TABLE plain (k INT) TBLPROPERTIES ('transactional'='false');
      CREATE EXTERNAL TABLE ext (k INT) LOCATION '$WH/ext';
      CREATE VIEW vw AS SELECT k FROM u;
      INSERT INTO t PARTITION (p='a') VALUES (1, 0)" > /dev/null || fail setup

expect "default/t/NULL/SHARED_READ" -e "SELECT count(*) FROM t"
expect "default/plain/NULL/SHARED_READ" -e "SELECT * FROM (SELECT k FROM plain) s"
expect "default/u/NULL/SHARED_READ" -e "SELECT * FROM vw"
expect "" -e "SELECT * FROM ext"
expect "" --hiveconf hive.txn.read.locks=false -e "SELECT * FROM t"
expect "default/t/p=a/SHARED_READ" -e "INSERT INTO t PARTITION (p='a') VALUES (2, 0)"
expect "default/t/NULL/SHARED_READ;default/u/NULL/SHARED_READ" \
    -e "INSERT INTO t PARTITION (p) SELECT k, v, 'b' FROM u"
expect "default/t/p=a/SHARED_WRITE" --hiveconf hive.txn.xlock.write=false \
    -e "INSERT INTO t PARTITION (p='a') VALUES (3, 0)"
expect "default/u/NULL/EXCLUSIVE" -e "INSERT OVERWRITE TABLE u SELECT 1, 1"
expect "default/u/NULL/EXCL_WRITE" --hiveconf hive.txn.xlock.iow=false \
    -e "INSERT OVERWRITE TABLE u SELECT 1, 1"
expect "default/plain/NULL/EXCLUSIVE" -e "INSERT INTO plain VALUES (1)"
expect "default/plain/NULL/SHARED_READ" --hiveconf hive.txn.strict.locking.mode=false \
    -e "INSERT INTO plain VALUES (1)"
expect "default/t/p=a/EXCL_WRITE" -e "UPDATE t SET v = 1 WHERE p = 'a' AND k > 0"
expect "default/t/NULL/EXCL_WRITE" -e "UPDATE t SET v = 1 WHERE p = 'a' OR k > 0"
# across types Hive compares as doubles ('01' = 1): no one partition
expect "default/t/NULL/EXCL_WRITE" -e "UPDATE t SET v = 1 WHERE p = 1"
expect "default/ti/d=7/EXCL_WRITE" -e "DELETE FROM ti WHERE k > 0 AND d = 7"
expect "default/ti/NULL/EXCL_WRITE" -e "DELETE FROM ti WHERE d = '7'"
expect "default/u/NULL/SHARED_WRITE" --hiveconf hive.txn.xlock.write=false \
    -e "DELETE FROM u WHERE k = 5"
expect "default/NULL/NULL/SHARED_READ;default/c/NULL/EXCL_WRITE;default/u/NULL/SHARED_READ" \
    -e "CREATE TABLE c TBLPROPERTIES ('transactional'='true') AS SELECT * FROM u"
expect "default/NULL/NULL/SHARED_READ;default/c2/NULL/EXCLUSIVE;default/u/NULL/SHARED_READ" \
    -e "CREATE TABLE c2 TBLPROPERTIES ('transactional'='false') AS SELECT * FROM u"
expect "default/NULL/NULL/SHARED_READ" -e "CREATE TABLE n (k INT)"
expect "default/t/NULL/SHARED_READ" -e "ALTER TABLE t ADD PARTITION (p='z')"
expect "default/t/p=z/EXCLUSIVE" -e "ALTER TABLE t DROP PARTITION (p='z')"
expect "default/u/NULL/EXCLUSIVE" -e "ALTER TABLE u SET TBLPROPERTIES ('x'='y')"
expect "default/t/p=a/EXCLUSIVE" -e "TRUNCATE TABLE t PARTITION (p='a')"
expect "default/NULL/NULL/SHARED_READ;default/c/NULL/EXCLUSIVE" -e "DROP TABLE c"
# MERGE: its UPDATE / DELETE legs lock the target as UPDATE; with only an
# INSERT leg as INSERT (EXCL_WRITE with hive.txn.xlock.mergeinsert); the
# source is read
expect "default/t/NULL/EXCL_WRITE;default/u/NULL/SHARED_READ" \
    -e "MERGE INTO t USING u ON t.k = u.k WHEN MATCHED THEN DELETE"
expect "default/t/NULL/SHARED_READ;default/u/NULL/SHARED_READ" \
    -e "MERGE INTO t USING u ON t.k = u.k WHEN NOT MATCHED THEN INSERT VALUES (u.k, u.v, 'm')"
expect "default/t/NULL/EXCL_WRITE;default/u/NULL/SHARED_READ" --hiveconf hive.txn.xlock.mergeinsert=true \
    -e "MERGE INTO t USING u ON t.k = u.k WHEN NOT MATCHED THEN INSERT VALUES (u.k, u.v, 'm')"
expect "default/t/NULL/SHARED_WRITE;default/u/NULL/SHARED_READ" --hiveconf hive.txn.xlock.write=false \
    -e "MERGE INTO t USING (SELECT * FROM u) s ON t.k = s.k WHEN MATCHED THEN UPDATE SET v = s.v"
c -e "CREATE DATABASE d2" > /dev/null || fail "create d2"
expect "d2/NULL/NULL/EXCLUSIVE" -e "DROP DATABASE d2"
[[ $(c -e "SHOW LOCKS" | wc -l) == 1 ]] || fail "locks left: $(c -e 'SHOW LOCKS')"
echo ok
