#!/usr/bin/env bash
# After 100,000 autocommit statements (issue 9, acceptance 7) the
# metastore's transaction tables hold a bounded number of rows: the
# housekeeper (run by the session's heartbeat thread every
# metastore.acid.housekeeper.interval) removes committed TXNS rows and
# the TXN_TO_WRITE_ID, COMPLETED_TXN_COMPONENTS and WRITE_SET rows no open
# snapshot can need.  One comb process runs them all (a script of 99,900
# read-only SELECTs and 100 INSERTs and UPDATEs); the rows are counted with
# the sqlite3 shell.
set -u
command -v sqlite3 > /dev/null || { echo "no sqlite3 shell to count rows"; exit 77; }
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
{
    echo "SET metastore.acid.housekeeper.interval=1s;"
    echo "CREATE TABLE t (a INT, b INT) TBLPROPERTIES ('transactional'='true');"
    for ((i = 1; i < 100000; i++)); do
        if ((i % 2000 == 0)); then
            echo "INSERT INTO t VALUES ($i, 0);"
        elif ((i % 2000 == 1000)); then
            echo "UPDATE t SET b = b + 1;"
        else
            echo "SELECT 1;"
        fi
    done
} > "$WH/script.sql"
start=$(date +%s%N)
"$COMB" --warehouse "$WH/w" -f "$WH/script.sql" > "$WH/out.log" 2>&1 || fail "$(tail -5 "$WH/out.log")"
ms=$((($(date +%s%N) - start) / 1000000))
count() { sqlite3 "$WH/w/metastore.db" "SELECT count(*) FROM $1"; }
# What may stay is what the last interval or two (and the exit) left: the
# statements of 2.5 s at the rate this machine ran them, which is far
# below 100,000 unless housekeeping did not run.
bound=$((100000 * 2500 / (ms > 0 ? ms : 1) + 500))
((bound < 60000)) || { echo "100,000 statements ran in $ms ms: too fast to tell housekeeping from none at a 1 s interval"; exit 77; }
txns=$(count TXNS)
((txns < bound)) || fail "$txns TXNS rows after 100,000 statements in $ms ms (bound $bound)"
for tbl in TXN_TO_WRITE_ID COMPLETED_TXN_COMPONENTS WRITE_SET MIN_HISTORY_LEVEL TXN_COMPONENTS HIVE_LOCKS; do
    n=$(count $tbl)
    ((n <= 100)) || fail "$n $tbl rows after 100,000 statements"
done
[[ $("$COMB" --warehouse "$WH/w" --outputformat tsv -e "SELECT count(*), min(b) FROM t" | tail -1) == "49	1" ]] \
    || fail "the table lost rows: $("$COMB" --warehouse "$WH/w" -e "SELECT count(*), min(b) FROM t")"
echo ok
