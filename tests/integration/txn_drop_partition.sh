#!/usr/bin/env bash
# ALTER TABLE ... DROP PARTITION locks what Hive 4 locks: EXCLUSIVE on each
# partition it matches and nothing on the table, so statements holding
# locks on other partitions of the table neither block it nor are blocked;
# a holder of the dropped partition makes it wait (past the retries:
# Hive's 10307, nothing dropped).  Processes are held at the test build's
# pause point after their locks were granted.
set -u
WH=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
. "$(dirname "$0")/lib/pause.bash"
parts() { c -e "SHOW PARTITIONS t" | tail -n +1 | paste -sd' '; }

c -e "CREATE TABLE t (k INT, v INT) PARTITIONED BY (p STRING)
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t PARTITION (p='a') VALUES (1, 0);
      INSERT INTO t PARTITION (p='b') VALUES (2, 0);
      INSERT INTO t PARTITION (p='c') VALUES (3, 0);
      INSERT INTO t PARTITION (p='d') VALUES (4, 0)" > /dev/null || fail setup

# an UPDATE of p=a (EXCL_WRITE on p=a) and an INSERT into p=b (SHARED_READ
# on p=b) are held: dropping p=c neither waits (no retries allowed) nor
# disturbs them
held upd "UPDATE t SET v = 9 WHERE p = 'a' AND k > 0"
held ins "INSERT INTO t PARTITION (p='b') VALUES (5, 0)"
c --hiveconf hive.lock.numretries=0 -e "ALTER TABLE t DROP PARTITION (p='c')" \
    > "$WH/drop.log" 2>&1 || fail "DROP PARTITION (p='c') waited for other partitions: $(cat "$WH/drop.log")"
finish upd
finish ins
got=$(parts)
[[ $got == *"p=a p=b p=d"* && $got != *"p=c"* ]] || fail "partitions after the drop: $got"
got=$(c -e "SELECT p, k, v FROM t ORDER BY p, k" | tail -n +2 | paste -sd' ')
[[ $got == "a	1	9 b	2	0 b	5	0 d	4	0" ]] || fail "rows after the drop: $got"

# a holder of the partition to drop makes the DROP wait; past the retries
# it fails with Hive's lock error and drops nothing
held ins2 "INSERT INTO t PARTITION (p='d') VALUES (6, 0)"
if c --hiveconf hive.lock.numretries=1 --hiveconf hive.lock.sleep.between.retries=0.1s \
    -e "ALTER TABLE t DROP PARTITION (p='d')" > "$WH/drop2.log" 2>&1; then
    fail "DROP PARTITION (p='d') did not wait for the INSERT into p=d"
fi
grep -q "Error in acquiring locks" "$WH/drop2.log" || fail "no lock error: $(cat "$WH/drop2.log")"
grep -q "level:PARTITION, dbname:default, tablename:t, partitionname:p=d" "$WH/drop2.log" ||
    fail "the request is not for the partition: $(cat "$WH/drop2.log")"
finish ins2
[[ $(parts) == *"p=d"* ]] || fail "p=d was dropped"
echo ok
