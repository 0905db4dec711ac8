#!/usr/bin/env bash
# Concurrent UPDATE/DELETE of one table: first committer wins.  Writers
# whose snapshot missed a committed update/delete of the same table are
# aborted with Hive's error 10263 and leave nothing behind, so no row is
# ever duplicated or lost, whatever the interleaving.
set -u
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (tests/integration/pg_concurrent_*.sh run this on PostgreSQL)
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
c -e "CREATE TABLE t (i INT, v INT) CLUSTERED BY (i) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1,0),(2,0),(3,0),(4,0)" || fail "setup"
for round in 1 2 3; do
    pids=()
    for k in 1 2 3 4; do
        ( c -e "UPDATE t SET v = v + 1 WHERE i > 0" > "$WH/u$k.log" 2>&1; echo $? >> "$WH/u$k.log" ) &
        pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
    for k in 1 2 3 4; do
        status=$(tail -1 "$WH/u$k.log")
        if [[ $status != 0 ]] && ! grep -q "Error 10263" "$WH/u$k.log"; then
            cat "$WH/u$k.log"; fail "an UPDATE failed for another reason"
        fi
    done
done
rows=$(c -e "SELECT i, count(*) FROM t GROUP BY i ORDER BY i" | tail -n +2 | tr '\t\n' ':,')
[[ $rows == "1:1,2:1,3:1,4:1," ]] || fail "rows per key: $rows"
vals=$(c -e "SELECT count(*) FROM t GROUP BY v" | tail -n +2 | wc -l)
[[ $vals == 1 ]] || fail "rows disagree on v: every successful UPDATE touched all rows"
v=$(c -e "SELECT min(v) FROM t" | tail -1)
((v >= 3 && v <= 12)) || fail "v = $v after 3 rounds"
echo ok
