#!/usr/bin/env bash
# Column statistics stay honest when two INSERTs overlap: A takes its
# snapshot, B inserts and commits (its statistics describe the table with
# B's rows), then A commits.  The table now holds rows neither INSERT's
# statistics describe, so COLUMN_STATS_ACCURATE names no column and
# DESCRIBE shows none; ANALYZE then gathers them for all the rows.  A
# process killed after its commit, before it stored its statistics, leaves
# its rows and no statistics that would claim them.
set -u
COMB=${COMB:-$(cd "$(dirname "$0")/../.." && pwd)/build/test/comb}
WH=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
fail() { echo "$*"; exit 1; }
source "$(dirname "$0")/lib/pause.bash"
accurate() { c -e "DESCRIBE FORMATTED t" | grep COLUMN_STATS_ACCURATE | cut -f3; }
# min|max|nulls|distinct of column a
stats() { c -e "DESC FORMATTED t a" | sed -n '4,7p' | cut -f2 | sed 's/ *$//' | paste -sd'|'; }
all='{\"BASIC_STATS\":\"true\",\"COLUMN_STATS\":{\"a\":\"true\"}}'
basic='{\"BASIC_STATS\":\"true\"}'

c -e "CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1)" || fail "setup"
[[ $(accurate) == "$all" && $(stats) == "1|1|0|1" ]] || fail "after the first insert: $(accurate) $(stats)"

# A holds before its commit, with its files written
( c --hiveconf comb.test.pause.point=before_commit \
    --hiveconf comb.test.pause.file="$WH/a" -e "INSERT INTO t VALUES (5), (NULL)" > "$WH/a.log" 2>&1
  echo $? > "$WH/a.rc" ) &
pids+=($!)
wait_for "$WH/a"
c -e "INSERT INTO t VALUES (9)" || fail "B"
[[ $(accurate) == "$all" && $(stats) == "1|9|0|2" ]] || fail "after B: $(accurate) $(stats)"
touch "$WH/a"
for _ in $(seq 1 600); do [[ -s $WH/a.rc ]] && break; sleep 0.05; done
[[ $(cat "$WH/a.rc") == 0 ]] || fail "A failed: $(cat "$WH/a.log")"
[[ $(c -e "SELECT count(*), count(a) FROM t" | tail -1) == $'4\t3' ]] || fail "rows"
[[ $(accurate) == "$basic" && $(stats) == "|||" ]] || fail "after A: $(accurate) $(stats)"
c -e "ANALYZE TABLE t COMPUTE STATISTICS FOR COLUMNS" || fail "analyze"
[[ $(accurate) == "$all" && $(stats) == "1|9|1|3" ]] || fail "after ANALYZE: $(accurate) $(stats)"

# killed between its commit and storing its statistics
( c --hiveconf comb.test.crash.point=after_commit -e "INSERT INTO t VALUES (12)" > /dev/null 2>&1 ) 
[[ $(c -e "SELECT max(a) FROM t" | tail -1) == 12 ]] || fail "the killed insert's row"
[[ $(accurate) == "$basic" ]] || fail "after the kill: $(accurate)"
echo ok
