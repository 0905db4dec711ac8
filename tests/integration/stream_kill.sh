#!/usr/bin/env bash
# Issue 12, acceptance 2: `comb stream` processes killed with SIGKILL at
# random points (reading, writing, flushing a footer, committing), many
# times.  Each round streams rows numbered round*10^6 + 0, 1, 2, ... with
# a commit every 500 rows and no interval, so what a round committed is
# always its first k*500 rows: afterwards every round shows exactly such
# a prefix, each row once, nothing else; the killed processes' open txns
# are aborted by the time-out, and after a major compaction the table
# holds the same rows.
# COMB_STREAM_KILL_ROUNDS: rounds (default 12).
set -u
WH=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$WH"' EXIT
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (pg_stream_kill.sh: PostgreSQL)
MS=(${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"})
c() { "$COMB" --warehouse "$WH/w" "${MS[@]}" --outputformat tsv "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
rounds=${COMB_STREAM_KILL_ROUNDS:-12}
rows=20000
per_txn=500

c -e "CREATE TABLE k (seq BIGINT, round INT, v STRING, amount DECIMAL(12,2))
      CLUSTERED BY (seq) INTO 2 BUCKETS TBLPROPERTIES ('transactional'='true')" \
    > /dev/null || fail setup
printf 'hive.txn.timeout = 2s\nmetastore.acid.housekeeper.interval = 1s\n' > "$WH/w/comb-site.conf"

# what every round must show: a prefix of its rows of whole txns
check() {
    c -e "SELECT round, count(*), count(DISTINCT seq), min(seq), max(seq)
          FROM k GROUP BY round ORDER BY round" | tail -n +2 > "$WH/got"
    awk -F'\t' -v per="$per_txn" -v rows="$rows" '
        { r = $1; n = $2; base = r * 1000000
          if ($3 != n || n % per != 0 || n > rows || $4 != base || $5 != base + n - 1) {
              print "round " r ": " n " rows, " $3 " distinct, " $4 ".." $5; bad = 1 } }
        END { exit bad }' "$WH/got" || fail "$1: not whole txns exactly once"
}

RANDOM=12
for ((r = 1; r <= rounds; r++)); do
    awk -v r="$r" -v n="$rows" 'BEGIN { for (i = 0; i < n; i++)
        printf "%d,%d,v%d,%d.%02d\n", r * 1000000 + i, r, i, i, i % 100 }' > "$WH/in.csv"
    "$COMB" --warehouse "$WH/w" "${MS[@]}" stream --table k --commit-rows $per_txn \
        --commit-interval 0 --batch-size $((r % 3 * 4 + 1)) --quiet \
        < "$WH/in.csv" 2> "$WH/err.$r" &
    pid=$!
    sleep "0.$((RANDOM % 9))$((RANDOM % 10))"
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    pid=
    check "after kill $r"
done
# a round that runs to its end commits everything
awk -v n="$rows" 'BEGIN { for (i = 0; i < n; i++)
    printf "%d,0,v%d,1\n", i, i }' > "$WH/in.csv"
"$COMB" --warehouse "$WH/w" "${MS[@]}" stream --table k --commit-rows $per_txn --quiet \
    < "$WH/in.csv" || fail "the last round"
check "after the whole round"
[[ $(awk -F'\t' '$1 == 0 {print $2}' "$WH/got") == "$rows" ]] || fail "round 0 is not whole: $(cat "$WH/got")"
cp "$WH/got" "$WH/before"
killed=$(awk -F'\t' '$1 > 0 && $2 < '"$rows"'' "$WH/got" | wc -l)
echo "rounds cut short by the kill: $killed of $rounds"

# the killed processes' txns end aborted by the time-out (2 s), seen by
# the housekeeper of a later process: a statement's txn starts its
# heartbeater, which housekeeps when due
n=0
while c -e "SELECT count(*) FROM k; SHOW TRANSACTIONS" | awk -F'\t' '$2 == "OPEN"' | grep -q .; do
    sleep 1; n=$((n + 1))
    ((n < 60)) || fail "txns still open: $(c -e 'SHOW TRANSACTIONS')"
done
echo "open txns of killed processes aborted by the time-out after ${n} s of waiting"
# no side file is left behind by a finished process' batch: only killed
# ones may have left theirs, and readers honour them
c -e "ALTER TABLE k COMPACT 'major' AND WAIT" > /dev/null 2>&1 || fail "compaction: $(c -e 'SHOW COMPACTIONS')"
check "after major compaction"
cmp -s "$WH/before" "$WH/got" || fail "compaction changed the rows: $(diff "$WH/before" "$WH/got")"
ls "$WH/w/k" | grep -q '^base_' || fail "no base after major compaction: $(ls "$WH/w/k")"
echo ok
