#!/usr/bin/env bash
# A reader held open after its snapshot (the test build's sleep point
# comb.test.sleep.after.snapshot.ms) keeps its read-only txn open and its
# SHARED_READ lock while other processes run: their housekeeping (a short
# hive.txn.timeout: the reader's heartbeats keep it alive) never ends it,
# ALTER ... COMPACT (which takes no lock, as in Hive) neither waits for it
# nor ends it, and TRUNCATE (EXCLUSIVE) waits until it has read.  Also the
# cause of a misleading repro: a build without the hooks refuses comb.test.*
# instead of ignoring it (the reader then ended at once and seemed to be
# committed while still "sleeping").
set -eu
WH=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
state() { sqlite3 "$WH/metastore.db" "SELECT TXN_STATE FROM TXNS WHERE TXN_ID = $1"; }
reader_txn() { sqlite3 "$WH/metastore.db" "SELECT TXN_ID FROM TXNS WHERE TXN_STATE = 'o' AND TXN_TYPE = 2"; }

printf 'hive.txn.timeout=2s\nmetastore.acid.housekeeper.interval=1s\n' > "$WH/comb-site.conf"
c -e "CREATE TABLE t (k INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)" > /dev/null

c --hiveconf comb.test.sleep.after.snapshot.ms=7000 \
  -e "SELECT k FROM t ORDER BY k" > "$WH/reader.out" 2>&1 &
reader=$!
for _ in $(seq 200); do [[ -n $(reader_txn) ]] && break; sleep 0.05; done
txn=$(reader_txn)
[[ -n $txn ]] || { echo "the reader opened no read-only txn"; cat "$WH/reader.out"; exit 1; }
same "$(c -e "SHOW LOCKS t" | tail -n +2 | cut -f3,5,7)" "$(printf 't\tACQUIRED\tSHARED_READ')"

# a compaction request and other processes' housekeeping (past the
# time-out) leave the reader's txn open
c -e "ALTER TABLE t COMPACT 'major'" > /dev/null
sleep 2.5
c -e "SELECT count(*) FROM t" > /dev/null
kill -0 "$reader" 2>/dev/null || { echo "the reader ended early"; cat "$WH/reader.out"; exit 1; }
same "$(state "$txn")" o

# TRUNCATE waits for the reader's SHARED_READ: it ends after the reader
c -e "TRUNCATE TABLE t" > "$WH/truncate.out" 2>&1
if kill -0 "$reader" 2>/dev/null; then echo "TRUNCATE did not wait for the reader"; exit 1; fi
wait "$reader"
same "$(cat "$WH/reader.out")" "$(printf 'k\n1\n2')"
same "$(c -e "SELECT count(*) FROM t")" "$(printf '_c0\n0')"
echo ok
