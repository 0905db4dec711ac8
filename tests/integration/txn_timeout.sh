#!/usr/bin/env bash
# A client killed with SIGKILL in the middle of a transaction (issue 9,
# acceptance 4): its files are written and its EXCL_WRITE lock held when
# it dies; once hive.txn.timeout passes without a heartbeat, the
# housekeeper of another process aborts the txn ("heartbeat time-out"),
# its lock goes, its files never become visible, and the writer that was
# waiting for the lock proceeds.  The time-out (2 s) and the housekeeper's
# interval come from the warehouse's comb-site.conf.
# COMB_TEST_METASTORE: another metastore (pg_txn_timeout.sh: PostgreSQL).
set -u
WH=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

c -e "CREATE TABLE t (k INT, v INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 0)" > /dev/null || fail setup
"$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    --hiveconf comb.test.pause.point=before_commit --hiveconf comb.test.pause.file="$WH/go" \
    -e "UPDATE t SET v = 99" > "$WH/killed.log" 2>&1 &
pid=$!
n=0
until [[ -e $WH/go.at ]]; do
    sleep 0.05; n=$((n + 1))
    ((n < 1200)) || fail "the UPDATE did not reach its commit: $(cat "$WH/killed.log")"
done
kill -9 "$pid"
wait "$pid" 2>/dev/null
pid=
txn=$(c -e "SHOW TRANSACTIONS" | awk -F'\t' '$2 == "OPEN" {print $1}')
[[ -n $txn ]] || fail "the killed txn is not open: $(c -e 'SHOW TRANSACTIONS')"
c -e "SHOW LOCKS t" | awk -F'\t' -v t="$txn" '$8 == t && $5 == "ACQUIRED"' | grep -q EXCL_WRITE \
    || fail "the killed txn holds no lock: $(c -e 'SHOW LOCKS')"
printf '# seconds, for the test\nhive.txn.timeout = 2s\nmetastore.acid.housekeeper.interval=1s\n' > "$WH/w/comb-site.conf"
[[ $(c -e "SET hive.txn.timeout" | tail -1) == "hive.txn.timeout=2s" ]] \
    || fail "comb-site.conf not read: $(c -e 'SET hive.txn.timeout')"
timeout 120 "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
    -e "UPDATE t SET v = v + 1" > "$WH/later.log" 2>&1 \
    || fail "the later writer did not proceed: $(cat "$WH/later.log")"
state=$(c -e "SHOW TRANSACTIONS" | awk -F'\t' -v t="$txn" '$1 == t {print $2}')
[[ $state == ABORTED ]] || fail "killed txn $txn is '$state': $(c -e 'SHOW TRANSACTIONS')"
[[ $(c -e "SHOW LOCKS" | wc -l) == 1 ]] || fail "locks left: $(c -e 'SHOW LOCKS')"
[[ $(c -e "SELECT v FROM t" | tail -1) == 1 ]] || fail "v = $(c -e 'SELECT v FROM t' | tail -1): the killed txn's rows are visible"
# a txn aborted by the time-out cannot be committed any more, and ABORT
# TRANSACTIONS of it is a no-op
c -e "ABORT TRANSACTIONS $txn" || fail "ABORT of an aborted txn"
echo ok
