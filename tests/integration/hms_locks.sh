#!/usr/bin/env bash
# `comb metastore` (issue 15, acceptance 2 and the faults) with the client
# generated from Hive's own interface (tests/server/hms_locks.js):
#  (a) a comb UPDATE held before its commit holds t's EXCL_WRITE: the
#      service's conflicting lock answers WAITING, check_lock stays WAITING
#      while comb holds it and turns ACQUIRED once comb committed;
#  (b) a service txn whose client stops heartbeating holds a lock that a
#      comb UPDATE waits for; after hive.txn.timeout the service's
#      housekeeper aborts it, the UPDATE goes through, and the client's
#      heartbeat answers TxnAbortedException;
#  (c) a client making every call on a new connection keeps its txn (and
#      keeps it alive past the time-out with such heartbeats);
# and compaction: compact2 queues a request that `comb compactor --once`
# runs, show_compact shows it, with Hive's state strings (and Hive 4's
# fields and filters, through a client of comb's hms.thrift).  The service runs
# with hive.txn.timeout 4s and a housekeeper every 500 ms; comb's own
# processes heartbeat every second (their hive.txn.timeout 2s).  Skipped
# (exit 77) without the shared test data, the thrift compiler or node.
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
WH=$T
pids=()
trap '[[ -n $PID ]] && kill -9 $PID 2> /dev/null
      [[ -n $JS ]] && kill $JS 2> /dev/null
      for p in "${pids[@]}"; do kill -9 "$p" 2> /dev/null; done; rm -rf "$T"' EXIT
. "$(dirname "$0")/lib/pause.bash"
TIMEOUT_MS=4000
c() { "$COMB" --warehouse "$T/wh" --hiveconf hive.txn.timeout=2s --outputformat tsv "$@"; }
# paused NAME POINT SQL: SQL in the background, held at POINT until $T/NAME
# exists; its output in $T/NAME.log, its status in $T/NAME.rc
paused() {
    ( c --hiveconf comb.test.pause.point="$2" --hiveconf comb.test.pause.file="$T/$1" \
        -e "$3" > "$T/$1.log" 2>&1
      echo $? > "$T/$1.rc" ) &
    pids+=($!)
}
ended() {   # NAME: wait (60 s at most) for the background statement NAME
    for _ in $(seq 1 1200); do [[ -s $T/$1.rc ]] && return 0; sleep 0.05; done
    fail "$1" "did not end: $(cat "$T/$1.log")"
}
hms() { server_js hms_locks "$T/gen" "$PORT" "$@"; }

c -e "CREATE TABLE t (id INT, name STRING) CLUSTERED BY (id) INTO 2 BUCKETS
        STORED AS ORC TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 'a'); INSERT INTO t VALUES (2, 'b');
      CREATE EXTERNAL TABLE plain (a INT) STORED AS ORC LOCATION '$T/plain';
      CREATE TABLE pt (a INT) PARTITIONED BY (p STRING)
        TBLPROPERTIES ('transactional'='true');
      INSERT INTO pt PARTITION (p='a') VALUES (1)" > /dev/null || fail setup "the tables were not made"

"$COMB" --warehouse "$T/wh" --hiveconf hive.txn.timeout=$((TIMEOUT_MS / 1000))s \
    --hiveconf metastore.acid.housekeeper.interval=500ms metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service"

# (a) comb's lock holds the service's request off until comb commits
paused upd before_commit "UPDATE t SET name = 'comb' WHERE id = 1"
wait_for "$T/upd"
server_js_start hms_locks waiting "$T/gen" "$PORT" wait_comb "$T/comb_done"
[[ ! -e $T/upd.rc ]] || fail "comb holds" "the UPDATE ended early: $(cat "$T/upd.log")"
touch "$T/upd"
ended upd
[[ $(cat "$T/upd.rc") == 0 ]] || fail "comb holds" "the UPDATE failed: $(cat "$T/upd.log")"
touch "$T/comb_done"
server_js_end
[[ $(c -e "SELECT name FROM t WHERE id = 1" | tail -1) == comb ]] || fail "comb holds" "the UPDATE's row"

# (b) a client that stops heartbeating: its txn times out, comb goes on
server_js_start hms_locks "locked [0-9]*" "$T/gen" "$PORT" abandon "$T/aborted"
txn=$(sed -n 's/^locked //p' "$T/js")
t0=$(date +%s%N)
c --hiveconf hive.lock.numretries=200 --hiveconf hive.lock.sleep.between.retries=100ms \
    -e "UPDATE t SET name = 'after' WHERE id = 2" > "$T/late.log" 2>&1 ||
    fail abandon "the UPDATE did not go through: $(cat "$T/late.log")"
waited=$((($(date +%s%N) - t0) / 1000000))
((waited >= TIMEOUT_MS - 1000)) || fail abandon "the UPDATE waited $waited ms only"
c -e "SHOW TRANSACTIONS" | awk -F'\t' -v t="$txn" '$1 == t' | grep -q ABORTED ||
    fail abandon "txn $txn is not aborted: $(c -e 'SHOW TRANSACTIONS')"
touch "$T/aborted"
server_js_end
[[ $(c -e "SELECT name FROM t WHERE id = 2" | tail -1) == after ]] || fail abandon "the UPDATE's row"

# (c) a connection per call keeps the txn
hms per_call "$TIMEOUT_MS"

# compaction requested through the service, run by comb's compactor
out=$(node "$MODULES/hms_locks.js" "$T/gen" "$PORT" compact 2>&1) || fail compact "$out"
js_verdict hms_locks "$out" 0 compact
id=$(sed -n 's/^queued //p' <<< "$out")
c -e "SHOW COMPACTIONS" | awk -F'\t' -v id="$id" '$1 == id' |
    grep -q $'\tdefault\tt\t --- \tMAJOR\tinitiated\t' ||
    fail compact "SHOW COMPACTIONS: $(c -e 'SHOW COMPACTIONS')"
# Hive 4's fields through a client of comb's own interface
mkdir -p "$T/gen4"
thrift --gen js:node -out "$T/gen4" "$ROOT/src/hms/hms.thrift" || fail compact "no client of hms.thrift"
hms compact4 "$T/gen4"
c compactor --once > "$T/compactor.log" 2>&1 || fail compact "the compactor: $(cat "$T/compactor.log")"
hms compacted "$id"
ls "$T/wh/t" | grep -q '^base_[0-9]*_v' || fail compact "t's directories: $(ls "$T/wh/t")"
[[ $(c -e "SELECT count(*) FROM t" | tail -1) == 2 ]] || fail compact "t's rows after compaction"

server_none_open "at the end"
server_stop metastore
echo "hms_locks: ok"
