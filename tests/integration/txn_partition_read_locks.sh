#!/usr/bin/env bash
# A SELECT locks what Hive 4 locks for a read (AcidUtils.makeLockComponents
# over the partitions left after pruning): SHARED_READ on each partition
# it reads, so a reader of p=a neither blocks nor waits for a DROP
# PARTITION of p=b; a read of the whole table (no partition pruned) locks
# the table, which a DROP of any partition then waits for.  SHOW LOCKS from
# a third process names the partitions.  Readers are held at the test
# build's pause point after their locks were granted.
set -u
WH=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
. "$(dirname "$0")/lib/pause.bash"
# locks NAME: "partition type state" of t's locks, one per line, sorted
locks() { c -e "SHOW LOCKS t" | awk -F'\t' 'NR > 1 {print $4, $7, $5}' | sort; }
drop() { # drop PART RETRIES
    c --hiveconf hive.lock.numretries="$2" --hiveconf hive.lock.sleep.between.retries=0.1s \
      -e "ALTER TABLE t DROP PARTITION (p='$1')" > "$WH/drop.log" 2>&1
}

c -e "CREATE TABLE t (k INT, v INT) PARTITIONED BY (p STRING)
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t PARTITION (p='a') VALUES (1, 0);
      INSERT INTO t PARTITION (p='b') VALUES (2, 0);
      INSERT INTO t PARTITION (p='c') VALUES (3, 0);
      INSERT INTO t PARTITION (p='d') VALUES (4, 0);
      INSERT INTO t PARTITION (p='e') VALUES (5, 0)" > /dev/null || fail setup

# 1. a reader of p=a (and, through a join, of p=c) locks those two
held r1 "SELECT x.k, y.k FROM t x JOIN t y ON x.v = y.v WHERE x.p = 'a' AND y.p = 'c'"
got=$(locks | paste -sd,)
[[ $got == "p=a SHARED_READ ACQUIRED,p=c SHARED_READ ACQUIRED" ]] ||
    fail "the reader's locks: $got"
drop b 0 || fail "DROP PARTITION (p='b') waited for a reader of p=a and p=c: $(cat "$WH/drop.log")"
# the reader's partitions stay locked: a drop of p=a waits, then fails
drop a 1 && fail "DROP PARTITION (p='a') did not wait for its reader"
grep -q "Error in acquiring locks" "$WH/drop.log" || fail "no lock error: $(cat "$WH/drop.log")"
finish r1
[[ $(cat "$WH/r1.log") == *"1	3"* ]] || fail "the reader's rows: $(cat "$WH/r1.log")"

# 2. a read of every partition (no partition key in WHERE) locks the table
held r2 "SELECT count(*) FROM t WHERE k > 0"
got=$(locks | paste -sd,)
[[ $got == "NULL SHARED_READ ACQUIRED" ]] || fail "the whole-table reader's locks: $got"
drop d 1 && fail "DROP PARTITION (p='d') did not wait for a reader of the whole table"
finish r2

# 3. an IN list prunes to its partitions; a drop of another goes through
held r3 "SELECT k FROM t WHERE p IN ('c', 'e')"
got=$(locks | paste -sd,)
[[ $got == "p=c SHARED_READ ACQUIRED,p=e SHARED_READ ACQUIRED" ]] ||
    fail "the IN-list reader's locks: $got"
drop d 0 || fail "DROP PARTITION (p='d') waited for a reader of p=c and p=e: $(cat "$WH/drop.log")"
finish r3
got=$(c -e "SHOW PARTITIONS t" | paste -sd' ')
[[ $got == *"p=a p=c p=e"* && $got != *"p=b"* && $got != *"p=d"* ]] ||
    fail "partitions after the drops: $got"
echo ok
