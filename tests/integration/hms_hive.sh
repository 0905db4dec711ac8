#!/usr/bin/env bash
# `comb metastore` (issue 15) answering as Hive 4's metastore does, with
# the client generated from Hive's own interface (tests/server/hms_hive.js):
# the lock and txn calls' exceptions and texts where they differ from the
# first guesses (unlock, check_lock, heartbeat of a lock, a write
# conflict, open_txns beyond a batch), and the table calls' (an unknown
# database, partition keys changed, a dropped table's partition located
# outside its directory removed with it), and add_partitions_req's
# (Hive's validatePartition texts).  Skipped (exit 77) without the
# shared test data, the thrift compiler or node.
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
hms() { server_js hms_hive "$T/gen" "$PORT" "$@"; }

server_cli "CREATE TABLE t (id INT, name STRING) CLUSTERED BY (id) INTO 2 BUCKETS
              STORED AS ORC TBLPROPERTIES ('transactional'='true');
            INSERT INTO t VALUES (1, 'a');
            CREATE EXTERNAL TABLE pt (a INT) PARTITIONED BY (p STRING) STORED AS ORC
              LOCATION '$T/pt' TBLPROPERTIES ('external.table.purge'='true');
            INSERT INTO pt PARTITION (p='in') VALUES (1);
            ALTER TABLE pt ADD PARTITION (p='out') LOCATION '$T/outside';
            INSERT INTO pt PARTITION (p='out') VALUES (2);
            CREATE EXTERNAL TABLE pp (a INT) PARTITIONED BY (p STRING) STORED AS ORC
              LOCATION '$T/pp'" > /dev/null || fail setup "the tables were not made"
ls "$T/outside" | grep -q . || fail setup "no files in $T/outside"

"$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service"
hms txn
hms ddl
[[ ! -e $T/outside ]] || fail ddl "pt's partition outside it was kept: $(ls "$T/outside")"
[[ ! -e $T/pt ]] || fail ddl "pt's files were kept"
hms part
server_none_open "at the end"
server_stop metastore
echo "hms_hive: ok"
