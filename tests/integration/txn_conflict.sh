#!/usr/bin/env bash
# Explicit transactions against other writers:
# 1. A's snapshot is taken by its first statement; B's UPDATE of the same
#    rows commits after it; A's own UPDATE then gets its lock but read the
#    old rows, so A's COMMIT fails with Hive's write-conflict error 10263,
#    nothing of A is visible, and B's update stays (first committer wins).
# 2. An explicit transaction left idle longer than hive.txn.timeout stays
#    open: its process heartbeats it, so the housekeeper of another
#    process does not abort it, and its COMMIT succeeds.
set -u
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
pa=
trap '[[ -n $pa ]] && kill -9 $pa 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
wait_for() {  # text: A printed it
    for _ in $(seq 1 600); do
        grep -q "$1" "$WH/a.out" 2>/dev/null && return 0
        sleep 0.1
    done
    cat "$WH/a.out"; fail "A never printed '$1'"
}
start_a() {
    rm -f "$WH/a.in"; mkfifo "$WH/a.in"
    c < "$WH/a.in" > "$WH/a.out" 2>&1 & pa=$!
    exec 3> "$WH/a.in"
}
end_a() {
    exec 3>&-
    wait "$pa"; pa=
}
c -e "CREATE TABLE t (k INT, v INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 0), (2, 0)" > /dev/null || fail "setup"

start_a
echo "BEGIN; SELECT 'a1', sum(v) FROM t;" >&3
wait_for "a1	0"
c -e "UPDATE t SET v = v + 10 WHERE k = 1" || fail "B's update"
echo "UPDATE t SET v = v + 1; SELECT 'a2', sum(v) FROM t;" >&3
wait_for "a2	2"           # A's snapshot: B's update is not in it
echo "COMMIT;" >&3
end_a
grep -q "Error 10263.*write conflict" "$WH/a.out" || { cat "$WH/a.out"; fail "A's COMMIT did not fail with the write conflict"; }
rows=$(c -e "SELECT k, v FROM t ORDER BY k" | tail -n +2 | tr '\t\n' ':,')
[[ $rows == "1:10,2:0," ]] || fail "after the conflict: $rows"
[[ -z $(c -e "SHOW TRANSACTIONS" | awk -F'\t' '$2 == "OPEN"') ]] || fail "a txn is left open: $(c -e 'SHOW TRANSACTIONS')"

printf 'hive.txn.timeout=2s\nmetastore.acid.housekeeper.interval=1s\n' > "$WH/w/comb-site.conf"
start_a
echo "BEGIN; UPDATE t SET v = v + 100 WHERE k = 2; SELECT 'a3';" >&3
wait_for a3
for _ in 1 2 3 4 5 6; do
    sleep 1
    c -e "SELECT count(*) FROM t" > /dev/null || fail "reader"   # housekeeps
done
echo "COMMIT; SELECT 'a4';" >&3
wait_for a4
end_a
grep -q "^Error" "$WH/a.out" && { cat "$WH/a.out"; fail "the idle transaction did not survive the time-out"; }
rows=$(c -e "SELECT k, v FROM t ORDER BY k" | tail -n +2 | tr '\t\n' ':,')
[[ $rows == "1:10,2:100," ]] || fail "after the idle transaction: $rows"
echo ok
