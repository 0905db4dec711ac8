#!/usr/bin/env bash
# An explicit transaction becomes visible all at once: while a writer's
# BEGIN ... (INSERT, UPDATE, DELETE) is open, a reader in other processes
# keeps seeing the table as it was; after COMMIT it sees all of it; at no
# poll does it see part of it.  Then a transaction killed with SIGKILL
# while open leaves nothing visible, and later writers proceed.
set -u
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
writer=
trap '[[ -n $writer ]] && kill -9 "$writer" 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
state() { c -e "SELECT count(*), sum(v), sum(CASE WHEN v < 0 THEN 1 ELSE 0 END) FROM t" | tail -1 | tr '\t' ' '; }

c -e "CREATE TABLE t (i INT, v INT) CLUSTERED BY (i) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1,10),(2,20),(3,30),(4,40)" || fail "setup"
before=$(state)
[[ $before == "4 100 0" ]] || fail "setup state: $before"

# wait until the writer printed `line` (its statements before it ran)
wait_for() {
    for _ in $(seq 1 600); do
        grep -q "$1" "$WH/writer.out" 2>/dev/null && return 0
        kill -0 "$writer" 2>/dev/null || { cat "$WH/writer.out"; fail "writer died"; }
        sleep 0.1
    done
    fail "writer never printed $1"
}

# start a writer reading statements from a FIFO, open a transaction in it
start_writer() {
    rm -f "$WH/in"; mkfifo "$WH/in"
    c < "$WH/in" > "$WH/writer.out" 2>&1 &
    writer=$!
    exec 3> "$WH/in"
    echo "BEGIN;
          INSERT INTO t VALUES (5,50),(6,60);
          UPDATE t SET v = -v WHERE i <= 2;
          DELETE FROM t WHERE i = 3;
          INSERT INTO t SELECT i + 10, v FROM t WHERE i >= 5;
          SELECT 'inside', count(*) FROM t;" >&3
    wait_for inside
}

start_writer
grep -q "inside	7" "$WH/writer.out" || { cat "$WH/writer.out"; fail "the writer does not see its own writes"; }
for _ in $(seq 1 10); do
    s=$(state)
    [[ $s == "$before" ]] || fail "a reader saw an open transaction's writes: $s"
done
after="7 230 2"     # 1:-10 2:-20 4:40 5:50 6:60 15:50 16:60
echo "COMMIT; SELECT 'committed';" >&3
seen_after=0
for _ in $(seq 1 200); do
    s=$(state)
    if [[ $s == "$after" ]]; then seen_after=1; break; fi
    [[ $s == "$before" ]] || fail "a reader saw part of a transaction: $s"
done
exec 3>&-
wait "$writer"; rc=$?; writer=
((rc == 0)) || { cat "$WH/writer.out"; fail "writer exit status $rc"; }
((seen_after)) || fail "the committed transaction never became visible"
[[ $(state) == "$after" ]] || fail "after commit: $(state)"

# SIGKILL inside an open transaction: nothing of it is ever visible
start_writer
kill -9 "$writer"; wait "$writer" 2>/dev/null; writer=
exec 3>&-
[[ $(state) == "$after" ]] || fail "a killed transaction's writes are visible: $(state)"
c -e "UPDATE t SET v = v + 1" || fail "a writer after the killed transaction"
[[ $(state) == "7 237 2" ]] || fail "after the later UPDATE: $(state)"
echo ok
