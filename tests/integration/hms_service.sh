#!/usr/bin/env bash
# `comb metastore` (issue 15) against a client generated from Hive's own
# interface (../shared/testdata/hms/hive_metastore.thrift, with Debian's
# thrift compiler, js:node), not from comb's hms.thrift: listing and Table
# objects; an ACID read whose valid write-id list is the one comb's
# history gives (three committed inserts, then a write id the service
# allocated and aborted); a lock taken through the service blocking a
# comb UPDATE until the service's txn commits, its txn in comb's SHOW
# TRANSACTIONS and SHOW LOCKS (user, host, the lock's agent info); errors with Hive's exception types and
# texts; then the ThreadSanitizer build (make MODE=tsan build/tsan/comb,
# which make test builds) serves the listing, the errors and four reads
# at once.  COMB_TEST_METASTORE: a metastore other than the warehouse's
# SQLite file (pg_hms_service.sh).  Skipped (exit 77) without the shared test data, the thrift
# compiler or node.
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
BIN=$COMB

hms_start() {
    "$BIN" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
        "$@" metastore --port 0 > "$T/out" 2> "$T/err" &
    PID=$!
    wait_listening metastore "the service"
}
hms() { server_js hms "$T/gen" "$PORT" "$@"; }

hms_catalog_setup

hms_start
hms catalog
hms read "default.t:3:9223372036854775807::"
hms abort_write
hms read "default.t:4:9223372036854775807::4"
hms errors
[[ $(server_cli "SELECT count(*) FROM t" | tail -1) == 3 ]] || fail read "comb sees $(server_cli 'SELECT count(*) FROM t')"

# the service's lock holds a comb UPDATE off until its txn commits
server_js_start hms locked "$T/gen" "$PORT" hold "$T/release"
server_cli "SHOW TRANSACTIONS" | grep -q $'\tOPEN\t.*trino\tworker1' ||
    fail hold "SHOW TRANSACTIONS: $(server_cli 'SHOW TRANSACTIONS')"
server_cli "SHOW LOCKS" | grep -q $'\tdefault\tt\t.*ACQUIRED.*SHARED_WRITE.*trino\tworker1\thms.js$' ||
    fail hold "SHOW LOCKS: $(server_cli 'SHOW LOCKS')"
out=$("$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
      --hiveconf hive.lock.numretries=2 \
      -e "UPDATE t SET name = 'x' WHERE id = 1" 2>&1) &&
    fail hold "the UPDATE ran under the service's lock: $out"
grep -q "Error in acquiring locks" <<< "$out" || fail hold "the UPDATE said: $out"
touch "$T/release"
server_js_end
server_cli "UPDATE t SET name = 'x' WHERE id = 1" > /dev/null || fail hold "the UPDATE failed after the commit"
[[ $(server_cli "SELECT name FROM t WHERE id = 1" | tail -1) == x ]] || fail hold "the UPDATE's row"
server_none_open "after the replay"
server_stop metastore

# a warehouse not there yet is made, its relative path made absolute
(cd "$T" && exec "$COMB" --warehouse fresh/wh metastore --port 0 > "$T/out" 2> "$T/err") &
PID=$!
wait_listening fresh "the service on a new warehouse"
[[ -f $T/fresh/wh/metastore.db ]] || fail fresh "no $T/fresh/wh/metastore.db"
hms location "$T/fresh/wh"
server_stop "metastore on a new warehouse"

# threads under ThreadSanitizer: four connections at once (write id 5 was
# the held txn's, which its UPDATE lock allocated; 6 the UPDATE's)
BIN=$tsan
hms_start
hms catalog
hms errors
readers=()
for i in 1 2 3 4; do
    node "$MODULES/hms.js" "$T/gen" "$PORT" read "default.t:6:9223372036854775807::4" \
        > "$T/read$i" 2>&1 &
    readers+=($!)
done
wait "${readers[@]}"
for i in 1 2 3 4; do
    [[ $(tail -1 "$T/read$i") == "# hms: every check ran" ]] ||
        fail "tsan read $i" "$(cat "$T/read$i")"
done
server_none_open "after the reads under ThreadSanitizer"
server_stop "metastore under ThreadSanitizer"
echo "hms_service: ok"
