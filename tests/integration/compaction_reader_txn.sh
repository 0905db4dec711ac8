#!/usr/bin/env bash
# A reader inside an explicit transaction (START TRANSACTION ... COMMIT,
# one session fed statement by statement) that took its snapshot before a
# major compaction keeps reading the same, correct rows while the
# compaction commits and the cleaner runs; new readers see the new base;
# the cleaner deletes the old directories only after that reader commits.
# And the compactor's lock: its SHARED_READ lock lets writers through but
# keeps TRUNCATE (EXCLUSIVE) waiting until the compaction has committed.
set -eu
WH=$(mktemp -d)
trap 'exec 3>&-; kill $(jobs -p) 2>/dev/null || true; [[ -n ${KEEP:-} ]] && cat "$WH/out"; rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
dirs() { (cd "$WH/t" && ls -d base_* delta_* delete_delta_* 2>/dev/null | tr '\n' ' '); }
state() { c -e 'SHOW COMPACTIONS' | awk -F'\t' -v id="$1" '$1 == id {print $6}'; }

# the session: statements go in through a FIFO, results come out in a
# file; `ask SQL` sends one statement and waits for its answer (a marker
# row printed after it)
mkfifo "$WH/in"
c < "$WH/in" > "$WH/out" 2>&1 &
exec 3> "$WH/in"
echo 0 > "$WH/n"
ask() {  # (runs in a subshell under $(...): the count lives in a file)
    local from n
    n=$(($(cat "$WH/n") + 1))
    echo "$n" > "$WH/n"
    from=$(($(wc -l < "$WH/out") + 1))
    printf '%s;\nSELECT "done %d";\n' "$1" "$n" >&3
    for _ in $(seq 600); do grep -q "^done $n\$" "$WH/out" && break; sleep 0.05; done
    grep -q "^done $n\$" "$WH/out" || { echo "no answer to: $1"; cat "$WH/out"; exit 1; }
    tail -n "+$from" "$WH/out" | sed '$d' | sed '$d'
}
ask "SELECT 1" > /dev/null

c -e "CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1,'a'),(2,'b');
      INSERT INTO t VALUES (3,'c');
      UPDATE t SET v = 'B' WHERE id = 2;
      DELETE FROM t WHERE id = 3;
      INSERT INTO t VALUES (4,'d')"
old=$(printf 'id\tv\n1\ta\n2\tB\n4\td')
ask "START TRANSACTION" > /dev/null
same "$(ask 'SELECT id, v FROM t ORDER BY id')" "$old"

# after the reader's snapshot: a new row, then the major compaction, which
# takes it in (the reader has no write id, so nothing holds the
# compactor's high watermark back)
c -e "INSERT INTO t VALUES (5,'e'); DELETE FROM t WHERE id = 1"
new=$(printf 'id\tv\n2\tB\n4\td\n5\te')
before=$(dirs)
c -e "ALTER TABLE t COMPACT 'major' AND WAIT" > /dev/null
base=$(cd "$WH/t" && ls -d base_0000007_v*)
same "$(c -e 'SELECT id, v FROM t ORDER BY id')" "$new"
same "$(ask 'SELECT id, v FROM t ORDER BY id')" "$old"
same "$(ask 'SELECT count(*), sum(id) FROM t')" "$(printf '_c0\t_c1\n3\t7')"

# the cleaner waits for the reader: nothing removed, entry still ready
c compactor --once
same "$(state 1)" "ready for cleaning"
same "$(dirs)" "$base $before"
same "$(ask 'SELECT id, v FROM t ORDER BY id')" "$old"

# the reader ends; now the old directories go, the rows stay
ask "COMMIT" > /dev/null
c compactor --once
same "$(state 1)" "succeeded"
same "$(dirs)" "$base "
same "$(c -e 'SELECT id, v FROM t ORDER BY id')" "$new"
same "$(ask 'SELECT id, v FROM t ORDER BY id')" "$new"
exec 3>&-

# the compactor's lock: SHARED_READ on the table while it works (pausing
# between its steps here); an INSERT and an UPDATE go through meanwhile,
# TRUNCATE waits for its commit
c -e "INSERT INTO t VALUES (6,'f'); INSERT INTO t VALUES (7,'g')"
c --hiveconf comb.test.compactor.sleep.ms=4000 \
  -e "ALTER TABLE t COMPACT 'minor' AND WAIT" > /dev/null &
for _ in $(seq 200); do
    c -e 'SHOW LOCKS' | grep -q $'\tSHARED_READ\t.*\tcompactor\t' && break
    sleep 0.05
done
c -e 'SHOW LOCKS' | grep -q $'^[0-9.]*\tdefault\tt\tNULL\tACQUIRED\t *\tSHARED_READ\t.*\tcompactor\t' ||
    { echo "no compactor lock:"; c -e 'SHOW LOCKS'; exit 1; }
c -e "INSERT INTO t VALUES (8,'h'); UPDATE t SET v = 'E' WHERE id = 5"
same "$(state 2)" "working"
c -e "TRUNCATE TABLE t"
same "$(state 2)" "ready for cleaning"
wait
same "$(c -e 'SELECT count(*) FROM t')" "$(printf '_c0\n0')"
echo ok
