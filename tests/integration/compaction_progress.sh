#!/usr/bin/env bash
# Progress of a running compaction: SHOW COMPACTIONS shows, in its last
# column, the rows and bytes the worker got through (and keeps the final
# figures in the history); AND WAIT draws a progress bar on stderr when
# that is a terminal, and nothing at all otherwise (scripts and golden
# tests see the plain messages only).
set -eu
WH=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
state_progress() { c -e 'SHOW COMPACTIONS' | awk -F'\t' -v id="$1" '$1 == id {print $6 "|" $21}'; }

c -e "CREATE TABLE t (id INT, v STRING) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t SELECT id, 'a' FROM (SELECT explode(array(1,2,3,4,5)) AS id) s;
      INSERT INTO t VALUES (6,'b'),(7,'c');
      DELETE FROM t WHERE id = 2"
# a worker that pauses between its files and its commit: the entry is
# working and shows what it did
c --hiveconf comb.test.compactor.sleep.ms=1500 \
  -e "ALTER TABLE t COMPACT 'major' AND WAIT" > "$WH/wait.out" 2> "$WH/wait.err" &
waiter=$!
seen=""
for _ in $(seq 200); do
    seen=$(state_progress 1)
    [[ $seen == working\|100%* ]] && break
    sleep 0.05
done
[[ $seen =~ ^working\|100%\ \(6\ rows,\ [0-9]+\ of\ [0-9]+\ B\)$ ]] ||
    { echo "no progress while working: '$seen'"; exit 1; }
wait $waiter
# not a terminal: no bar, the messages only
same "$(cat "$WH/wait.out" "$WH/wait.err")" "Compaction enqueued with id 1
Compaction with id 1 finished with status: ready for cleaning"
[[ $(state_progress 1) =~ ^ready\ for\ cleaning\|100%\ \(6\ rows, ]] ||
    { echo "progress gone after the commit: $(state_progress 1)"; exit 1; }

# on a terminal the bar goes to stderr, ending at 100%
c -e "INSERT INTO t VALUES (8,'d'); INSERT INTO t VALUES (9,'e')"
script -qec "$COMB --warehouse $WH -e \"ALTER TABLE t COMPACT 'minor' AND WAIT\" 2>&1 >/dev/null" /dev/null \
    > "$WH/tty.out" < /dev/null
grep -q 'Compacting \[=*\] 100% (' "$WH/tty.out" ||
    { echo "no progress bar on the terminal:"; cat -v "$WH/tty.out"; exit 1; }
same "$(c -e 'SELECT id, v FROM t ORDER BY id' | tr '\n' ' ')" \
    "id	v 1	a 3	a 4	a 5	a 6	b 7	c 8	d 9	e "
echo ok
