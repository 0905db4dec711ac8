#!/usr/bin/env bash
# The first writes of a new transactional table, by several processes at
# once: each one's snapshot may predate another's write id, yet the other's
# directories are the table's own and no writer may take them for data
# written elsewhere (the MSCK REPAIR refusal).  Every round makes new tables
# (full ACID, insert-only, partitioned) and races the first INSERTs into
# them; every statement must commit and every row be there once.  The
# narrow case made sure: B has read the table's write ids (none yet) and
# holds (comb.test.pause.point=adopt_listing) while A's first INSERT
# commits, then B lists A's directories and must go on.  A directory with a
# write id the metastore never handed out is still refused.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
# COMB_TEST_METASTORE: a metastore other than the warehouse's SQLite file
c() { "$COMB" --warehouse "$WH" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} --outputformat tsv "$@"; }
writers=4
rounds=6
kinds=("TBLPROPERTIES ('transactional'='true')"
       "TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only')"
       "PARTITIONED BY (p INT) TBLPROPERTIES ('transactional'='true')")
ddl="" tables=()
for ((r = 0; r < rounds; r++)); do
    k=$((r % ${#kinds[@]}))
    ddl+="CREATE TABLE t$r (w INT, v STRING) ${kinds[$k]}; "
    tables+=("t$r")
done
c -e "$ddl" > /dev/null
insert() {  # table, writer
    local part=""
    [[ $1 != t2 && $1 != t5 ]] || part="PARTITION (p = 1) "
    c -e "INSERT INTO $1 ${part}VALUES ($2, 'a'), ($2, 'b')" > /dev/null 2> "$WH/err.$1.$2"
}
fail=0
for t in "${tables[@]}"; do
    pids=()
    for ((w = 0; w < writers; w++)); do insert "$t" "$w" & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p" || fail=1; done
    for ((w = 0; w < writers; w++)); do
        if [[ -s $WH/err.$t.$w ]]; then echo "$t writer $w:"; cat "$WH/err.$t.$w"; fail=1; fi
    done
    got=$(c -e "SELECT count(*), count(DISTINCT w) FROM $t" | tail -1)
    [[ $got == "$((2 * writers))	$writers" ]] || { echo "$t: count, writers = $got"; fail=1; }
done
((fail == 0)) || exit 1
c -e "CREATE TABLE held (w INT) TBLPROPERTIES ('transactional'='true')" > /dev/null
( c --hiveconf comb.test.pause.point=adopt_listing --hiveconf comb.test.pause.file="$WH/go" \
    -e "INSERT INTO held VALUES (2)" > "$WH/b.log" 2>&1; echo $? > "$WH/b.rc" ) &
for _ in $(seq 1 600); do [[ -e $WH/go.at ]] && break; sleep 0.05; done
[[ -e $WH/go.at ]] || { echo "B never reached its listing"; cat "$WH/b.log"; exit 1; }
c -e "INSERT INTO held VALUES (1)" > /dev/null
touch "$WH/go"
wait
[[ $(cat "$WH/b.rc") == 0 ]] || { echo "B refused A's directories:"; cat "$WH/b.log"; exit 1; }
[[ $(c -e "SELECT sum(w), count(DISTINCT row__id.writeid) FROM held" | tail -1) == $'3\t2' ]] ||
    { echo "held: $(c -e "SELECT * FROM held")"; exit 1; }
# A delta no write id of the table names stays refused.
c -e "CREATE TABLE alien (w INT) TBLPROPERTIES ('transactional'='true')" > /dev/null
loc=$(c -e "DESCRIBE FORMATTED alien" | awk -F'\t' '$1 ~ /^Location:/ {gsub(/ /, "", $2); print $2}')
loc=${loc#file:}
mkdir -p "$loc/delta_0000007_0000007_0000"
cp "$(find "$WH" -path '*t0/delta_*' -name 'bucket_*' | head -1)" "$loc/delta_0000007_0000007_0000/"
if c -e "INSERT INTO alien VALUES (1)" > /dev/null 2> "$WH/alien.err"; then
    echo "a foreign delta was taken for the table's own"; exit 1
fi
grep -q "written elsewhere (write ids up to 7" "$WH/alien.err" || { cat "$WH/alien.err"; exit 1; }
echo ok
