#!/usr/bin/env bash
# SIGKILL of a compactor at random points (the test build's
# comb.test.compactor.sleep.ms widens the window of each step), many times, never loses or
# duplicates a row: a killed worker's output stays invisible (its txn
# never commits), a killed cleaner only ever removed what no reader
# needs, and the request is claimed again after hive.compactor.worker
# .timeout and succeeds.
set -eu
WH=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$WH"' EXIT
. "$(dirname "$0")/lib/faults.bash"
ROUNDS=${ROUNDS:-15}
# the daemon itself, so that $! is its pid (not a subshell's)
daemon() {
    exec "$COMB" --warehouse "$WH" --hiveconf hive.compactor.worker.threads=1 \
      --hiveconf hive.compactor.worker.timeout=1s \
      --hiveconf hive.compactor.cleaner.run.interval=20ms \
      --hiveconf comb.test.compactor.sleep.ms=150 compactor
}

c -e "CREATE TABLE t (id INT, v STRING) PARTITIONED BY (p INT)
      CLUSTERED BY (id) INTO 2 BUCKETS TBLPROPERTIES ('transactional'='true');
      INSERT INTO t PARTITION (p=1) VALUES (1,'a'),(2,'b'),(3,'c');"
RANDOM=7
for round in $(seq "$ROUNDS"); do
    c -e "INSERT INTO t PARTITION (p=1) VALUES ($((round * 10)),'n$round'),
                                                ($((round * 10 + 1)),'m$round');
          UPDATE t SET v = concat(v, '+') WHERE id = $((round * 10 - 10 + 1));
          DELETE FROM t WHERE id = $((round * 10 - 10))" > /dev/null
    want=$(c -e "SELECT id, v FROM t ORDER BY id")
    type=$([[ $((round % 2)) == 0 ]] && echo major || echo minor)
    c -e "ALTER TABLE t PARTITION (p=1) COMPACT '$type'" > /dev/null
    daemon > /dev/null 2>&1 &
    pid=$!
    sleep "0.$((RANDOM % 600))"
    kill -9 "$pid"
    wait "$pid" 2>/dev/null || true
    same "$(c -e "SELECT id, v FROM t ORDER BY id")" "$want"
done

# every request left behind is claimed again once its worker timed out
sleep 1.1
c --hiveconf hive.compactor.worker.timeout=1s --hiveconf hive.txn.timeout=1s \
  compactor --once > /dev/null
same "$(c -e "SELECT id, v FROM t ORDER BY id")" "$want"
states=$(c -e "SHOW COMPACTIONS" | tail -n +2 | cut -f6 | sort -u)
if grep -qE 'initiated|working' <<< "$states"; then
    echo "left in the queue:"; c -e "SHOW COMPACTIONS"; exit 1
fi
grep -q succeeded <<< "$states" || { echo "no compaction succeeded: $states"; exit 1; }
# and a last major compaction leaves one base with the same rows
c -e "INSERT INTO t PARTITION (p=1) VALUES (999, 'last')" > /dev/null
want=$(c -e "SELECT id, v FROM t ORDER BY id")
c -e "ALTER TABLE t PARTITION (p=1) COMPACT 'major' AND WAIT" > /dev/null
c compactor --once > /dev/null
same "$(cd "$WH/t/p=1" && ls -d base_* delta_* delete_delta_* 2>/dev/null | wc -l)" 1
same "$(c -e "SELECT id, v FROM t ORDER BY id")" "$want"

# SIGTERM stops the daemon cleanly (exit status 0, a request it was
# working on finished first)
c -e "INSERT INTO t PARTITION (p=1) VALUES (1000, 'term');
      INSERT INTO t PARTITION (p=1) VALUES (1001, 'term');
      ALTER TABLE t PARTITION (p=1) COMPACT 'minor'" > /dev/null
daemon > "$WH/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 100); do
    [[ $(c -e "SHOW COMPACTIONS" | cut -f6 | tail -1) != initiated ]] && break
    sleep 0.05
done
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
same "$rc" 0
same "$(c -e "SHOW COMPACTIONS" | cut -f6 | tail -1 | grep -cE 'ready for cleaning|succeeded')" 1
echo ok
