#!/usr/bin/env bash
# A deadlock between two explicit transactions: A updates partition 1, B
# partition 2, then A wants 2 and B wants 1.  The cycle is found
# (ms_lock_deadlock) and one of them is aborted with a clear error instead
# of both waiting for the lock time-out; the other gets its lock, commits,
# and the table holds exactly its updates.
set -u
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
pa= pb=
trap 'kill -9 $pa $pb 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
c -e "CREATE TABLE p (id INT, v INT) PARTITIONED BY (k INT)
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO p PARTITION (k) VALUES (1, 0, 1), (2, 0, 2)" || fail "setup"

wait_for() {  # file text
    for _ in $(seq 1 600); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    cat "$WH"/*.out; fail "never saw '$2' in $1"
}
mkfifo "$WH/a.in" "$WH/b.in"
# long retries: without deadlock detection both would wait for minutes
c --hiveconf hive.lock.numretries=1000 < "$WH/a.in" > "$WH/a.out" 2>&1 & pa=$!
c --hiveconf hive.lock.numretries=1000 < "$WH/b.in" > "$WH/b.out" 2>&1 & pb=$!
exec 3> "$WH/a.in" 4> "$WH/b.in"
echo "BEGIN; UPDATE p SET v = v + 1 WHERE k = 1; SELECT 'a1';" >&3
wait_for "$WH/a.out" a1
echo "BEGIN; UPDATE p SET v = v + 10 WHERE k = 2; SELECT 'b1';" >&4
wait_for "$WH/b.out" b1
echo "UPDATE p SET v = v + 1 WHERE k = 2; SELECT 'a2';" >&3
sleep 0.5   # A is waiting for B's lock on k=2
echo "UPDATE p SET v = v + 10 WHERE k = 1; SELECT 'b2';" >&4
# the victim's error names the deadlock; the survivor's update goes on
for _ in $(seq 1 300); do
    grep -qi deadlock "$WH/a.out" "$WH/b.out" && break
    sleep 0.1
done
grep -qi deadlock "$WH/a.out" "$WH/b.out" || { cat "$WH/a.out" "$WH/b.out"; fail "no deadlock reported"; }
if grep -qi deadlock "$WH/a.out"; then victim=a survivor=b want="1:10,2:10,"; else victim=b survivor=a want="1:1,2:1,"; fi
grep -Eq "Transaction manager has aborted the transaction txnid:[0-9]+\.  Reason: Aborting \[txnid:[0-9]+\] to break a deadlock: txnid:[0-9]+ -> txnid:[0-9]+ -> txnid:[0-9]+" "$WH/$victim.out" ||
    { cat "$WH/$victim.out"; fail "the victim's error does not say it was aborted for the deadlock"; }
grep -q "Notice: the transaction is aborted" "$WH/$victim.out" || fail "no notice of the aborted transaction"
wait_for "$WH/$survivor.out" "${survivor}2"
echo "COMMIT; SELECT '${survivor}3';" >&$([[ $survivor == a ]] && echo 3 || echo 4)
wait_for "$WH/$survivor.out" "${survivor}3"
echo "ROLLBACK;" >&$([[ $victim == a ]] && echo 3 || echo 4)
exec 3>&- 4>&-
wait $pa; wait $pb; pa= pb=
grep -q "^Error" "$WH/$survivor.out" && { cat "$WH/$survivor.out"; fail "the survivor failed"; }
rows=$(c -e "SELECT k, v FROM p ORDER BY k" | tail -n +2 | tr '\t\n' ':,')
[[ $rows == "$want" ]] || fail "rows after the deadlock: $rows (want $want)"
echo "ok: $victim was the deadlock victim"
