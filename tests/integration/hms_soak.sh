#!/usr/bin/env bash
# 32 clients of `comb metastore` at once for a few seconds (issue 15,
# acceptance 3; tests/server/hms_soak.js): each loops opening txns,
# allocating write ids on one shared ACID table (some on a second),
# locking, heartbeating and committing (some abort).  No call may fail;
# afterwards no write id is lost or duplicated, no txn is left open, and
# comb's own view agrees: SHOW TRANSACTIONS shows no open txn and every
# aborted one as aborted, and comb's next INSERT gets the write id after
# the last one the service allocated and reads its row.  Then again with
# the service built with ThreadSanitizer.
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (pg_hms_soak.sh runs this on PostgreSQL).  HMS_SOAK_SECONDS (default 5)
# and HMS_SOAK_CLIENTS (default 32).  Skipped (exit 77) without the
# shared test data, the thrift compiler or node.
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
c() { "$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }

# soak BIN WHAT: the run with BIN serving a new warehouse $T/wh, then
# comb's own view of it
soak() {
    local bin=$1 what=$2 txns n last
    rm -rf "$T/wh"
    c -e "CREATE TABLE s1 (a INT) TBLPROPERTIES ('transactional'='true');
          CREATE TABLE s2 (a INT) TBLPROPERTIES ('transactional'='true')" > /dev/null ||
        fail "$what" "the tables were not made"
    "$bin" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
        metastore --port 0 > "$T/out" 2> "$T/err" &
    PID=$!
    wait_listening "$what" "the service"
    server_js hms_soak "$T/gen" "$PORT" "${HMS_SOAK_CLIENTS:-32}" "${HMS_SOAK_SECONDS:-5}" "$T/soak"
    server_stop "$what"

    txns=$(c -e "SHOW TRANSACTIONS")
    [[ -z $(awk -F'\t' '$2 == "OPEN"' <<< "$txns") ]] || fail "$what" "open txns: $txns"
    n=0
    while read -r _ txn; do
        awk -F'\t' -v t="$txn" '$1 == t' <<< "$txns" | grep -q $'\tABORTED\t' ||
            fail "$what" "txn $txn is not aborted: $(awk -F'\t' -v t="$txn" '$1 == t' <<< "$txns")"
        n=$((n + 1))
    done < <(grep '^aborted ' "$T/soak")
    ((n > 0)) || fail "$what" "no txn aborted"
    for table in s1 s2; do
        last=$(awk -v t=$table '$1 == t { print $2 }' "$T/soak")
        [[ $(c -e "INSERT INTO $table VALUES (7); SELECT ROW__ID.writeid, a FROM $table" | tail -1) == \
            "$((last + 1))"$'\t'7 ]] ||
            fail "$what" "$table after $last write ids: $(c -e "SELECT ROW__ID.writeid, a FROM $table")"
    done
}

soak "$COMB" "the soak"
# the service's threads under ThreadSanitizer (make MODE=tsan build/tsan/comb,
# which make test builds); on SQLite only, the PostgreSQL run is the same code
if [[ -z ${COMB_TEST_METASTORE:-} ]]; then
    tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
    [[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
    soak "$tsan" "the soak under ThreadSanitizer"
fi
echo "hms_soak: ok"
