#!/usr/bin/env bash
# An outside engine's writes through `comb metastore` (issue 15, acceptance
# item 1's write half), with a client generated from Hive's own interface
# (../shared/testdata/hms/hive_metastore.thrift; tests/server/hms_write.js)
# and the delta files written by the test with comb's writers as Trino
# writes them (build/test/tests/delta_writer): open_txns, lock, write id,
# files in the table's (or partition's) directory, add_dynamic_partitions
# for a partitioned table, commit.  comb's SQL sees none of the rows while
# the txn is open with its files in place, all of them right after the
# commit; a write that aborts is never seen (nor after a comb INSERT and a
# major compaction).  Full ACID unpartitioned and partitioned, and
# insert-only; then the partition calls (names by partial values, objects
# by name, add, alter) and add_dynamic_partitions' refusals; last, four
# writers at once under the ThreadSanitizer build (make MODE=tsan
# build/tsan/comb, which make test builds).  COMB_TEST_METASTORE: a
# metastore other than the warehouse's SQLite file (pg_hms_write.sh).
# Skipped
# (exit 77) without the shared test data, the thrift compiler or node.
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
WRITER=${DELTA_WRITER:-$(dirname "$COMB")/tests/delta_writer}
[[ -x $WRITER ]] || fail writer "no $WRITER (make MODE=test $WRITER)"

hw() { server_js hms_write "$T/gen" "$PORT" "$@"; }
# `hw begin DB TABLE`: sets TXN, WID and LOC
begin() {
    local out
    out=$(hw begin "$@") || exit 1
    read -r _ TXN _ WID _ LOC <<< "$(grep '^txn ' <<< "$out")"
    [[ -n $LOC && -d $LOC ]] || fail begin "no table directory in: $out"
}
# the query's one-line answer must be WANT
sees() {  # WHAT SQL WANT
    local got
    got=$(server_cli "$2" | tail -n +2 | tr "\n" " " | sed "s/ $//")
    [[ $got == "$3" ]] || fail "$1" "$2: got '$got', want '$3'"
}

server_cli "CREATE TABLE w (id BIGINT, name STRING) STORED AS ORC
              TBLPROPERTIES ('transactional'='true');
            CREATE TABLE wp (id BIGINT, name STRING) PARTITIONED BY (day STRING)
              STORED AS ORC TBLPROPERTIES ('transactional'='true');
            CREATE TABLE wi (id BIGINT, name STRING) STORED AS ORC
              TBLPROPERTIES ('transactional'='true',
                             'transactional_properties'='insert_only');
            CREATE TABLE pc (id BIGINT, name STRING)
              PARTITIONED BY (day STRING, region STRING) CLUSTERED BY (id)
              INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='true');
            INSERT INTO pc PARTITION (day, region) VALUES
              (1, 'a', '2024-01-01', 'eu'), (2, 'b', '2024-01-01', 'us'),
              (3, 'c', '2024-01-02', 'eu')" > /dev/null ||
    fail setup "the tables were not made"

"$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service"

# full ACID, unpartitioned: invisible until the commit, then all of it
begin default w
"$WRITER" "$LOC" "$WID" 0 1 3 || fail w "the delta was not written"
[[ -f $LOC/delta_$(printf %07d "$WID")_$(printf %07d "$WID")_0000/bucket_00000 ]] ||
    fail w "no bucket file: $(ls -R "$LOC")"
sees "w open" "SELECT count(*) FROM w" 0
hw commit "$TXN"
sees "w committed" "SELECT id, name FROM w ORDER BY id" "1	r1 2	r2 3	r3"
committed=$TXN

# an aborted write stays invisible: now, after a comb INSERT, after a
# major compaction
begin default w
"$WRITER" "$LOC" "$WID" 0 100 5 || fail w2 "the delta was not written"
sees "w2 open" "SELECT count(*) FROM w" 3
hw abort "$TXN"
aborted=$TXN
sees "w2 aborted" "SELECT count(*) FROM w" 3
server_cli "INSERT INTO w VALUES (10, 'c')" > /dev/null || fail w2 "comb's INSERT"
sees "w2 insert" "SELECT count(*), sum(id) FROM w" "4	16"
server_cli "ALTER TABLE w COMPACT 'major' AND WAIT" > /dev/null || fail w2 "the compaction"
sees "w2 compacted" "SELECT count(*), sum(id), max(id) FROM w" "4	16	10"
ls "$LOC" | grep -q '^base_' || fail w2 "no base after the compaction: $(ls "$LOC")"

# partitioned: the files in each partition's directory, the partitions
# named by add_dynamic_partitions (made then, empty until the commit, as
# comb's own INSERT makes them)
begin default wp
"$WRITER" "$LOC/day=2024-01-01" "$WID" 0 1 2 || fail wp "the delta was not written"
"$WRITER" "$LOC/day=2024-01-02" "$WID" 0 3 2 || fail wp "the delta was not written"
sees "wp written" "SELECT count(*) FROM wp" 0
hw dynparts "$TXN" "$WID" default wp day=2024-01-01 day=2024-01-02
sees "wp partitions" "SHOW PARTITIONS wp" "day=2024-01-01 day=2024-01-02"
sees "wp open" "SELECT count(*) FROM wp" 0
hw commit "$TXN"
sees "wp committed" "SELECT day, count(*), sum(id) FROM wp GROUP BY day ORDER BY day" \
    "2024-01-01	2	3 2024-01-02	2	7"
hw made default wp day=2024-01-01 day=2024-01-02
server_cli "SHOW COMPACTIONS" > /dev/null || fail wp "SHOW COMPACTIONS"

begin default wp
"$WRITER" "$LOC/day=2024-01-03" "$WID" 0 50 2 || fail wp2 "the delta was not written"
"$WRITER" "$LOC/day=2024-01-01" "$WID" 0 60 1 || fail wp2 "the delta was not written"
hw dynparts "$TXN" "$WID" default wp day=2024-01-03 day=2024-01-01
hw abort "$TXN"
sees "wp2 partitions" "SHOW PARTITIONS wp" "day=2024-01-01 day=2024-01-02 day=2024-01-03"
sees "wp2 aborted" "SELECT count(*) FROM wp" 4
server_cli "INSERT INTO wp PARTITION (day='2024-01-03') VALUES (7, 'x');
            INSERT INTO wp PARTITION (day='2024-01-01') VALUES (8, 'y')" > /dev/null ||
    fail wp2 "comb's INSERTs"
sees "wp2 insert" "SELECT count(*), sum(id) FROM wp" "6	25"
server_cli "ALTER TABLE wp PARTITION (day='2024-01-01') COMPACT 'major' AND WAIT;
            ALTER TABLE wp PARTITION (day='2024-01-03') COMPACT 'major' AND WAIT" > /dev/null ||
    fail wp2 "the compactions"
sees "wp2 compacted" "SELECT count(*), sum(id), max(id) FROM wp" "6	25	8"
ls "$LOC/day=2024-01-01" | grep -q '^base_' ||
    fail wp2 "no base after the compaction: $(ls "$LOC/day=2024-01-01")"
hw made default wp day=2024-01-03

# insert-only: plain ORC files in the delta
begin default wi
"$WRITER" --insert-only "$LOC" "$WID" 0 1 3 || fail wi "the delta was not written"
sees "wi open" "SELECT count(*) FROM wi" 0
hw commit "$TXN"
sees "wi committed" "SELECT id, name FROM wi ORDER BY id" "1	r1 2	r2 3	r3"
begin default wi
"$WRITER" --insert-only "$LOC" "$WID" 0 100 2 || fail wi2 "the delta was not written"
hw abort "$TXN"
server_cli "INSERT INTO wi VALUES (10, 'c')" > /dev/null || fail wi2 "comb's INSERT"
server_cli "ALTER TABLE wi COMPACT 'major' AND WAIT" > /dev/null || fail wi2 "the compaction"
sees "wi2 compacted" "SELECT count(*), sum(id) FROM wi" "4	16"

hw dyn_errors default wp "$aborted" "$committed"
# the partitions comb's own INSERT made, bucketing and all
hw made default pc day=2024-01-01/region=eu day=2024-01-02/region=eu
hw partitions
sees "pc partitions" "SHOW PARTITIONS pc" \
    "day=2024-01-01/region=eu day=2024-01-01/region=us day=2024-01-02/region=eu day=2024-01-03/region=eu day=2024-01-04/region=eu day=2024-01-05/region=eu day=2024-01-06/region=us"
sees "pc rows" "SELECT count(*) FROM pc" 3
server_cli "INSERT INTO pc PARTITION (day='2024-01-03', region='eu') VALUES (4, 'd')" > /dev/null ||
    fail pc "comb's INSERT into an added partition"
sees "pc added" "SELECT id FROM pc WHERE day = '2024-01-03'" 4
server_none_open "after the writes"
server_stop metastore

# under ThreadSanitizer: four engines writing at once, each into a new
# partition of its own and all into one more (whose add they race for)
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
"$tsan" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service under ThreadSanitizer"
writers=()
for i in 1 2 3 4; do
    ( begin default wp
      "$WRITER" "$LOC/day=2024-02-00" "$WID" 0 $((100 + 10 * i)) 2 &&
          "$WRITER" "$LOC/day=2024-02-0$i" "$WID" 0 $((200 + 10 * i)) 1 || exit 1
      hw dynparts "$TXN" "$WID" default wp day=2024-02-00 "day=2024-02-0$i"
      hw commit "$TXN" ) > "$T/writer$i" 2>&1 &
    writers+=($!)
done
for i in 1 2 3 4; do
    wait "${writers[i - 1]}" || fail "tsan writer $i" "$(cat "$T/writer$i")"
done
sees "tsan writes" "SELECT count(*), count(DISTINCT day), sum(id) FROM wp
                    WHERE day >= '2024-02'" "12	5	1904"
server_none_open "after the writes under ThreadSanitizer"
server_stop "metastore under ThreadSanitizer"
echo "hms_write: ok"
