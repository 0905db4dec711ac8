#!/usr/bin/env bash
# 32 clients of `comb metastore` at once for a few seconds (issue 15,
# acceptance 3; tests/server/hms_soak.js): each loops opening txns,
# allocating write ids on one shared ACID table (some on a second),
# locking, heartbeating and committing (some abort).  No call may fail;
# afterwards no write id is lost or duplicated, no txn is left open, and
# comb's own view agrees: SHOW TRANSACTIONS shows no open txn and every
# aborted one as aborted, and comb's next INSERT gets the write id after
# the last one the service allocated and reads its row.
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (pg_hms_soak.sh runs this on PostgreSQL).  HMS_SOAK_SECONDS (default 5)
# and HMS_SOAK_CLIENTS (default 32).  Skipped (exit 77) without the
# shared test data, the thrift compiler or node.
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
c() { "$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }

c -e "CREATE TABLE s1 (a INT) TBLPROPERTIES ('transactional'='true');
      CREATE TABLE s2 (a INT) TBLPROPERTIES ('transactional'='true')" > /dev/null ||
    fail setup "the tables were not made"
"$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service"
server_js hms_soak "$T/gen" "$PORT" "${HMS_SOAK_CLIENTS:-32}" "${HMS_SOAK_SECONDS:-5}" "$T/soak"
server_stop metastore

txns=$(c -e "SHOW TRANSACTIONS")
[[ -z $(awk -F'\t' '$2 == "OPEN"' <<< "$txns") ]] || fail "comb's view" "open txns: $txns"
n=0
while read -r _ txn; do
    awk -F'\t' -v t="$txn" '$1 == t' <<< "$txns" | grep -q $'\tABORTED\t' ||
        fail "comb's view" "txn $txn is not aborted: $(awk -F'\t' -v t="$txn" '$1 == t' <<< "$txns")"
    n=$((n + 1))
done < <(grep '^aborted ' "$T/soak")
((n > 0)) || fail "comb's view" "no txn aborted"
for table in s1 s2; do
    last=$(awk -v t=$table '$1 == t { print $2 }' "$T/soak")
    [[ $(c -e "INSERT INTO $table VALUES (7); SELECT ROW__ID.writeid, a FROM $table" | tail -1) == \
        "$((last + 1))"$'\t'7 ]] ||
        fail "comb's view" "$table after $last write ids: $(c -e "SELECT ROW__ID.writeid, a FROM $table")"
done
echo "hms_soak: ok"
