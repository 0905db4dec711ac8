#!/usr/bin/env bash
# A reader whose snapshot predates a major compaction keeps reading the
# right rows from the old files while the compaction commits and the
# cleaner runs; new readers use the new base; the cleaner deletes the old
# directories only after that reader has ended.  The reader is held open
# by the test build's sleep point comb.test.sleep.after.snapshot.ms.
# Also: rows of aborted txns (writers killed before their commit, aborted
# by the compactor's housekeeping once hive.txn.timeout passed) are never
# visible, and the major compaction drops their files.
set -eu
WH=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
open_txns() { sqlite3 "$WH/metastore.db" "SELECT count(*) FROM TXNS WHERE TXN_STATE = 'o'"; }
dirs() { (cd "$WH/t" && ls -d base_* delta_* delete_delta_* 2>/dev/null | tr '\n' ' '); }

c -e "CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1,'a'),(2,'b');
      INSERT INTO t VALUES (3,'c');
      UPDATE t SET v = 'B' WHERE id = 2;
      DELETE FROM t WHERE id = 3;"
killed before_commit "INSERT INTO t VALUES (66,'aborted')"
killed after_files "UPDATE t SET v = 'aborted'"
c -e "INSERT INTO t VALUES (4,'d')"
want=$(c -e "SELECT id, v FROM t ORDER BY id")
same "$want" "$(printf 'id\tv\n1\ta\n2\tB\n4\td')"

# the killed writers' txns time out: aborted, their files stay invisible
sleep 1.1
c --hiveconf hive.txn.timeout=1s compactor --once
same "$(open_txns)" 0
same "$(c -e "SELECT id, v FROM t ORDER BY id")" "$want"
before=$(dirs)

# a reader takes its snapshot, then sleeps 6 s before reading
c --hiveconf comb.test.sleep.after.snapshot.ms=6000 \
  -e "SELECT id, v FROM t ORDER BY id" > "$WH/reader.out" 2>&1 &
reader=$!
for _ in $(seq 100); do [[ $(open_txns) == 1 ]] && break; sleep 0.05; done
same "$(open_txns)" 1

c -e "ALTER TABLE t COMPACT 'major' AND WAIT" > /dev/null
# new readers use the new base and see the same rows
same "$(c -e "SELECT id, v FROM t ORDER BY id")" "$want"
# the cleaner must wait for the old reader
c compactor --once
base=$(cd "$WH/t" && ls -d base_0000007_v*)
same "$(dirs)" "$base $before"
same "$(c -e 'SHOW COMPACTIONS' | cut -f6 | tail -1)" "ready for cleaning"

wait $reader
same "$(cat "$WH/reader.out")" "$want"
c compactor --once
same "$(dirs)" "$base "
same "$(c -e 'SHOW COMPACTIONS' | cut -f6 | tail -1)" "succeeded"
same "$(c -e "SELECT id, v FROM t ORDER BY id")" "$want"
# the aborted rows are gone from the files, not only hidden
if "$COMB" orcfiledump -d "$WH"/t/base_*/bucket_* | grep -q aborted; then
    echo "aborted rows in the new base"; exit 1
fi
echo ok
