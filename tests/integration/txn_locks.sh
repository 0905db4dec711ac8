#!/usr/bin/env bash
# The lock manager across comb processes (issue 9, acceptance 1-3):
#  1. a long SELECT runs while an UPDATE of the same table commits: the
#     UPDATE never waits for it, the SELECT sees its old snapshot;
#  2. two UPDATEs of one partition: under the default
#     (hive.txn.xlock.write=true) the second waits for the first and then
#     runs on its result; with xlock.write=false both run and the second
#     to commit fails with the write-conflict error 10263;
#  3. a lock wait past hive.lock.numretries fails with Hive's text and
#     holds nothing, and SHOW LOCKS from a third process shows the holder
#     (ACQUIRED) and the waiter (WAITING, blocked by the holder);
# and metastore.max.open.txns refuses a txn past the limit (Hive's text).
# Processes are held at named points (comb.test.pause.point) until the test
# makes a file, so no step depends on timing.
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (pg_txn_locks.sh runs this on PostgreSQL).
set -u
WH=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
. "$(dirname "$0")/lib/pause.bash"
# paused NAME POINT SQL...: run SQL in the background, held at POINT until
# $WH/NAME exists; its output in $WH/NAME.log, its status in $WH/NAME.rc
paused() {
    local name=$1 point=$2
    shift 2
    ( c --hiveconf comb.test.pause.point="$point" \
        --hiveconf comb.test.pause.file="$WH/$name" "$@" > "$WH/$name.log" 2>&1
      echo $? > "$WH/$name.rc" ) &
    pids+=($!)
}
finished() {   # NAME: wait for the background statement NAME
    local n=0
    until [[ -e $WH/$1.rc ]]; do
        sleep 0.05; n=$((n + 1))
        ((n < 2400)) || fail "$1 did not finish: $(cat "$WH/$1.log")"
    done
}
value() { c -e "SELECT v FROM t WHERE k = 1" | tail -1; }

c -e "CREATE TABLE t (k INT, v INT) PARTITIONED BY (p STRING)
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t PARTITION (p='a') VALUES (1, 0);
      INSERT INTO t PARTITION (p='b') VALUES (2, 0)" > /dev/null || fail setup

# 1. reader against writer
paused sel after_snapshot -e "SELECT v FROM t WHERE k = 1"
wait_for "$WH/sel"
timeout 120 "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    -e "UPDATE t SET v = 1 WHERE p = 'a'" > "$WH/upd.log" 2>&1 \
    || fail "the UPDATE waited for or failed beside the SELECT: $(cat "$WH/upd.log")"
[[ ! -e $WH/sel.rc ]] || fail "the SELECT ended before the UPDATE committed"
touch "$WH/sel"
finished sel
[[ $(cat "$WH/sel.rc") == 0 ]] || fail "SELECT: $(cat "$WH/sel.log")"
[[ $(tail -1 "$WH/sel.log") == 0 ]] || fail "the SELECT saw $(tail -1 "$WH/sel.log"), not its snapshot's 0"
[[ $(value) == 1 ]] || fail "the UPDATE's value is not there"

# 2a. two UPDATEs of one partition serialize (default locks)
paused u1 before_commit -e "UPDATE t SET v = v + 10 WHERE p = 'a'"
wait_for "$WH/u1"
paused u2 none -e "UPDATE t SET v = v + 100 WHERE p = 'a'"
n=0
until c -e "SHOW LOCKS t" | grep -q WAITING; do
    sleep 0.05; n=$((n + 1))
    ((n < 1200)) || fail "the second UPDATE does not wait: $(c -e 'SHOW LOCKS')"
done
[[ ! -e $WH/u2.rc ]] || fail "the second UPDATE ran beside the first: $(cat "$WH/u2.log")"
# an UPDATE of another partition does not wait for either
timeout 120 "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    -e "UPDATE t SET v = 5 WHERE p = 'b'" > "$WH/ub.log" 2>&1 \
    || fail "an UPDATE of partition b waited: $(cat "$WH/ub.log")"
touch "$WH/u1"
finished u1; finished u2
[[ $(cat "$WH/u1.rc") == 0 && $(cat "$WH/u2.rc") == 0 ]] \
    || fail "serialized UPDATEs: $(cat "$WH/u1.log" "$WH/u2.log")"
[[ $(value) == 111 ]] || fail "after two serialized UPDATEs v = $(value), not 111"

# 2b. hive.txn.xlock.write=false: both run, the second committer loses
paused x1 before_commit --hiveconf hive.txn.xlock.write=false \
    -e "UPDATE t SET v = v + 1000 WHERE p = 'a'"
wait_for "$WH/x1"
timeout 120 "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    --hiveconf hive.txn.xlock.write=false -e "UPDATE t SET v = v + 2000 WHERE p = 'a'" \
    > "$WH/x2.log" 2>&1 || fail "the concurrent UPDATE failed or waited: $(cat "$WH/x2.log")"
touch "$WH/x1"
finished x1
[[ $(cat "$WH/x1.rc") != 0 ]] || fail "both conflicting UPDATEs committed"
grep -q "Error 10263" "$WH/x1.log" || fail "no write-conflict error: $(cat "$WH/x1.log")"
grep -q "due to a write conflict on default/t/p=a" "$WH/x1.log" || fail "conflict text: $(cat "$WH/x1.log")"
[[ $(value) == 2111 ]] || fail "v = $(value) after the conflict, not 2111"

# 3. a wait past the retry budget; SHOW LOCKS from a third process
paused h1 before_commit -e "UPDATE t SET v = 0 WHERE p = 'a'"
wait_for "$WH/h1"
( c --hiveconf hive.lock.numretries=6 -e "UPDATE t SET v = 7 WHERE p = 'a'" > "$WH/w1.log" 2>&1
  echo $? > "$WH/w1.rc" ) &
pids+=($!)
n=0
until c -e "SHOW LOCKS t PARTITION (p='a')" > "$WH/locks.txt" && grep -q WAITING "$WH/locks.txt"; do
    sleep 0.05; n=$((n + 1))
    ((n < 1200)) || fail "no waiting lock: $(cat "$WH/locks.txt")"
done
head -1 "$WH/locks.txt" | grep -q "^Lock ID	Database	Table	Partition	State	Blocked By	Type	Transaction ID	Last Heartbeat	Acquired At	User	Hostname	Agent Info$" \
    || fail "SHOW LOCKS header: $(head -1 "$WH/locks.txt")"
holder=$(awk -F'\t' '$5 == "ACQUIRED" && $4 == "p=a" && $7 == "EXCL_WRITE"' "$WH/locks.txt")
waiter=$(awk -F'\t' '$5 == "WAITING" && $4 == "p=a" && $7 == "EXCL_WRITE"' "$WH/locks.txt")
[[ -n $holder && -n $waiter ]] || fail "holder and waiter: $(cat "$WH/locks.txt")"
[[ $(echo "$waiter" | cut -f6) == $(echo "$holder" | cut -f1) ]] \
    || fail "the waiter is not blocked by the holder: $(cat "$WH/locks.txt")"
[[ $(echo "$waiter" | cut -f10) == NULL && $(echo "$holder" | cut -f10) =~ ^[0-9]+$ ]] \
    || fail "Acquired At: $(cat "$WH/locks.txt")"
finished w1
[[ $(cat "$WH/w1.rc") != 0 ]] || fail "the waiter ran past the holder"
grep -q "Error in acquiring locks: Lock acquisition for LockRequest(component:\[LockComponent(type:EXCL_WRITE, level:PARTITION, dbname:default, tablename:t, partitionname:p=a)" "$WH/w1.log" \
    || fail "lock time-out text: $(cat "$WH/w1.log")"
grep -q "timed out after [0-9]*ms.  LockResponse(lockid:[0-9]*, state:WAITING)" "$WH/w1.log" \
    || fail "lock time-out text: $(cat "$WH/w1.log")"
c -e "SHOW LOCKS" | grep -q WAITING && fail "the timed-out request is still queued"
touch "$WH/h1"
finished h1
[[ $(cat "$WH/h1.rc") == 0 ]] || fail "holder: $(cat "$WH/h1.log")"
[[ $(value) == 0 ]] || fail "v = $(value): the timed-out UPDATE changed something"
[[ $(c -e "SHOW LOCKS" | wc -l) == 1 ]] || fail "locks left: $(c -e 'SHOW LOCKS')"

# metastore.max.open.txns: with one txn held open, a limit of 1 refuses
paused m1 after_snapshot -e "SELECT count(*) FROM t"
wait_for "$WH/m1"
c --hiveconf metastore.max.open.txns=1 -e "SELECT 1" > "$WH/max.log" 2>&1 \
    && fail "a txn opened past metastore.max.open.txns"
grep -q "Maximum allowed number of open transactions has been reached. See hive.max.open.txns." "$WH/max.log" \
    || fail "max open txns text: $(cat "$WH/max.log")"
c --hiveconf metastore.max.open.txns=2 -e "SELECT 1" > /dev/null || fail "a limit of 2 refused"
touch "$WH/m1"
finished m1
echo ok
