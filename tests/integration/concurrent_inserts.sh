#!/usr/bin/env bash
# Several comb processes insert into one table at the same time while others
# read it: every reader sees whole statements only (snapshot isolation: the
# count is always a multiple of the statement size and never goes down), and
# at the end every committed row is there exactly once.  Inserts never
# conflict in Hive's model, so no locks are needed for this.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
# (tests/integration/pg_concurrent_*.sh run this on PostgreSQL)
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
c -e "CREATE TABLE t (w INT, i INT, v STRING) CLUSTERED BY (i) INTO 4 BUCKETS
      TBLPROPERTIES ('transactional'='true')"
rows=50
writers=4
stmts=8
values() {  # writer, statement
    local out="" k
    for ((k = 0; k < rows; k++)); do
        out+="${out:+,}($1, $(($2 * rows + k)), 'w$1-s$2-r$k')"
    done
    echo "$out"
}
writer() {
    for ((s = 0; s < stmts; s++)); do
        c -e "INSERT INTO t VALUES $(values "$1" "$s")" > /dev/null || return 1
    done
}
reader() {
    local last=0 n
    for ((r = 0; r < 25; r++)); do
        n=$(c -e "SELECT count(*) FROM t" | tail -1) || return 1
        if ((n % rows != 0)); then echo "reader saw $n rows: a partial statement"; return 1; fi
        if ((n < last)); then echo "reader saw $n rows after $last"; return 1; fi
        last=$n
    done
}
pids=()
for ((w = 0; w < writers; w++)); do writer "$w" & pids+=($!); done
reader & pids+=($!)
reader & pids+=($!)
fail=0
for p in "${pids[@]}"; do wait "$p" || fail=1; done
((fail == 0)) || { echo "a writer or reader failed"; exit 1; }
total=$(c -e "SELECT count(*) FROM t" | tail -1)
want=$((writers * stmts * rows))
[[ $total == "$want" ]] || { echo "total $total, want $want"; exit 1; }
dups=$(c -e "SELECT w, i, count(*) FROM t GROUP BY w, i" | awk -F'\t' 'NR > 1 && $3 != 1' | wc -l)
[[ $dups == 0 ]] || { echo "$dups duplicated rows"; exit 1; }
# write ids: one per statement, all distinct and committed
ids=$(c -e "SELECT row__id.writeid, count(*) FROM t GROUP BY row__id.writeid" | tail -n +2 | wc -l)
[[ $ids == $((writers * stmts)) ]] || { echo "$ids write ids, want $((writers * stmts))"; exit 1; }
echo ok
