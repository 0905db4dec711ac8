#!/usr/bin/env bash
# Ctrl-C cancels the running statement and keeps the session: a shell
# process runs an INSERT ... SELECT that would go on for hours; SIGINT
# makes it fail with "Query was cancelled", its transaction aborts (no row
# of it is visible, to this session or another process), and the same
# process then runs the next statements.  A SIGINT while no statement runs
# still ends the shell (status 130).
set -u
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
shell=
trap '[[ -n $shell ]] && kill -9 "$shell" 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
fail() { echo "$*"; cat "$WH/out" 2>/dev/null; exit 1; }

c -e "CREATE TABLE g AS SELECT pos AS n FROM (SELECT posexplode(split(space(999), ' ')) AS (pos, x)) e;
      CREATE TABLE t (n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true')" >/dev/null ||
    fail "setup"

# wait until the shell printed `text`
wait_for() {
    for _ in $(seq 1 600); do
        grep -q "$1" "$WH/out" 2>/dev/null && return 0
        kill -0 "$shell" 2>/dev/null || fail "the shell died"
        sleep 0.1
    done
    fail "the shell never printed $1"
}

mkfifo "$WH/in"
# comb itself in the background (not a function's subshell): the signals
# go to it
"$COMB" --warehouse "$WH" --outputformat tsv < "$WH/in" > "$WH/out" 2>&1 &
shell=$!
exec 3> "$WH/in"
# 10^9 rows: it runs until cancelled
echo "SELECT 'started';
      INSERT INTO t SELECT a.n FROM g a, g b, g c;" >&3
wait_for started
sleep 1
kill -INT "$shell"
wait_for "Query was cancelled"
echo "SELECT 'after', count(*) FROM t;" >&3
wait_for after
grep -q "^after	0$" "$WH/out" || fail "rows of the cancelled INSERT are visible"
[[ $(c -e "SELECT count(*) FROM t" | tail -1) == 0 ]] ||
    fail "another process sees rows of the cancelled INSERT"
echo "INSERT INTO t VALUES (1); SELECT 'again', count(*) FROM t;" >&3
wait_for again
grep -q "^again	1$" "$WH/out" || fail "the session did not go on"

# a parallel aggregation (2 threads over a table of many stripes) stops
# too: its copies see the request at their next batch, all are joined
echo "SET comb.exec.threads=2;
      CREATE TABLE h STORED AS ORC TBLPROPERTIES ('orc.stripe.size'='16384') AS
          SELECT a.n FROM g a, g b WHERE b.n < 50;
      SELECT 'parallel';
      SELECT count(*), sum(a.n + b.n + c.n) FROM h a, g b, g c;" >&3
wait_for parallel
sleep 1
kill -INT "$shell"
for _ in $(seq 1 600); do
    (( $(grep -c "Query was cancelled" "$WH/out") >= 2 )) && break
    sleep 0.1
done
(( $(grep -c "Query was cancelled" "$WH/out") >= 2 )) || fail "the parallel query was not cancelled"
echo "SELECT 'still', count(*) FROM h;" >&3
wait_for still
grep -q "^still	50000$" "$WH/out" || fail "the session did not go on after the parallel query"

# between statements SIGINT ends the shell, as before
kill -INT "$shell"
exec 3>&-
wait "$shell"
rc=$?
shell=
[[ $rc == 130 ]] || fail "SIGINT between statements: exit $rc, not 130"
echo "cancel: ok"
