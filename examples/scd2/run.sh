#!/usr/bin/env bash
# The zipper-table (SCD type 2) example, driven over five simulated days.
#   examples/scd2/run.sh [WAREHOUSE]
# Uses $COMB (default build/rel/comb) on WAREHOUSE (default: a temporary
# directory, removed after; the example's tables in a given one are
# dropped first).  SCD2_USERS (default 300) users on the first day,
# SCD2_SEED (default 1) seeds the generator.  Prints every quality check
# and exits non-zero if any fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
COMB=${COMB:-$here/../../build/rel/comb}
USERS=${SCD2_USERS:-300}
SEED=${SCD2_SEED:-1}
DAYS=(2024-03-01 2024-03-02 2024-03-03 2024-03-04 2024-03-05)
tmp=$(mktemp -d)
if (($# > 0)); then
    WH=$1
    trap 'rm -rf "$tmp"' EXIT
else
    WH=$tmp/warehouse
    trap 'rm -rf "$tmp"' EXIT
fi
failed=0
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
# result: a check's outcome, one line, counted when it is not "ok"
result() {  # NAME DETAIL OK(0|1)
    if (($3)); then
        printf '  %-36s ok    %s\n' "$1" "$2"
    else
        printf '  %-36s FAIL  %s\n' "$1" "$2"; failed=$((failed + 1))
    fi
}
# the SQL checks print "name<TAB>violations" rows
sql_checks() {  # SQL-FILE VAR=VALUE
    local name n
    while IFS=$'\t' read -r name n; do
        [[ $name == check_name ]] && continue
        result "$name" "$n violations" $((n == 0))
    done < <(c --hivevar "$2" -f "$here/$1")
}
rows() {  # PARTITION: its rows, sorted, as tab-separated text
    c -e "SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
          FROM dim_user_zip WHERE pt = '$1'" | tail -n +2 | LC_ALL=C sort
}
same_rows() {  # NAME FILE-A FILE-B
    if cmp -s "$2" "$3"; then
        result "$1" "$(wc -l < "$2") rows" 1
    else
        diff "$2" "$3" > "$tmp/diff" || true
        result "$1" "differ: $(grep -c '^[<>]' "$tmp/diff") lines" 0
        sed -n '1,10s/^/      /p' "$tmp/diff"
    fi
}

echo "== warehouse $WH, $USERS users, seed $SEED"
c -e "DROP TABLE IF EXISTS ods_user_inc; DROP TABLE IF EXISTS dim_user_zip;
      DROP TABLE IF EXISTS dim_user_zip_before; DROP TABLE IF EXISTS dim_user_acid"
c -f "$here/schema.sql"
awk -v days="${DAYS[*]}" -v users="$USERS" -v seed="$SEED" -v out="$tmp" \
    -f "$here/gen_increments.awk"

for i in "${!DAYS[@]}"; do
    d=${DAYS[$i]}
    c -f "$tmp/inc_$d.sql"
    if ((i == 0)); then
        c --hivevar today="$d" -f "$here/init.sql"
        step=init.sql
    else
        c --hivevar today="$d" -f "$here/daily_merge.sql"
        step=daily_merge.sql
    fi
    echo "== day $d ($step): $(c -e "SELECT COUNT(*) FROM ods_user_inc WHERE dt = '$d'" |
        tail -1) increments, $(c -e "SELECT COUNT(*), SUM(is_current) FROM dim_user_zip
        WHERE pt = '$d'" | tail -1 | awk '{print $1 " rows, " $2 " open"}')"
    sql_checks checks.sql today="$d"
    LC_ALL=C sort "$tmp/expected_$d.tsv" > "$tmp/want_$d"
    rows "$d" > "$tmp/got_$d"
    same_rows "rows_as_generator_expects" "$tmp/got_$d" "$tmp/want_$d"
done

echo "== day ${DAYS[2]} again, after day ${DAYS[4]}"
c -e "CREATE TABLE dim_user_zip_before AS
      SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
      FROM dim_user_zip WHERE pt = '${DAYS[2]}'"
c --hivevar today="${DAYS[2]}" -f "$here/daily_merge.sql"
rows "${DAYS[2]}" > "$tmp/rerun"
same_rows "rerun_sorted_rows_identical" "$tmp/rerun" "$tmp/got_${DAYS[2]}"
sql_checks rerun_check.sql day="${DAYS[2]}"
sql_checks checks.sql today="${DAYS[2]}"

echo "== the trap (trap.sql) on day ${DAYS[4]}"
c -e "SHOW PARTITIONS dim_user_zip" > "$tmp/parts_before"
if out=$(c --hivevar today="${DAYS[4]}" -f "$here/trap.sql" 2>&1); then
    result "trap_refused" "comb ran it" 0
else
    want="Schema of both sides of union should match"
    result "trap_refused" "$(echo "$out" | grep -m1 . )" $([[ $out == *"$want"* ]] && echo 1 || echo 0)
fi
c -e "SHOW PARTITIONS dim_user_zip" > "$tmp/parts_after"
if cmp -s "$tmp/parts_after" "$tmp/parts_before"; then
    result "trap_left_partitions_alone" "$(($(wc -l < "$tmp/parts_after") - 1)) partitions" 1
else
    result "trap_left_partitions_alone" "SHOW PARTITIONS changed" 0
fi
rows "${DAYS[4]}" > "$tmp/after_trap"
same_rows "trap_left_rows_alone" "$tmp/after_trap" "$tmp/got_${DAYS[4]}"

echo "== the MERGE variant (merge_variant.sql) on one ACID table"
c -f "$here/merge_schema.sql"
merge_ran=1
for i in "${!DAYS[@]}"; do
    d=${DAYS[$i]}
    if ((i == 0)); then
        c --hivevar today="$d" -f "$here/merge_init.sql"
    elif ! out=$(c --hivevar today="$d" -f "$here/merge_variant.sql" 2>&1); then
        merge_ran=0
        result "merge_variant_day_$d" "MERGE failed: $(echo "$out" | grep -m1 .)" 0
        break
    fi
done
if ((merge_ran)); then
    c -e "SELECT user_id, user_name, user_level, city, start_date, end_date, is_current
          FROM dim_user_acid" | tail -n +2 | LC_ALL=C sort > "$tmp/merge_all"
    grep -P '\t1$' "$tmp/merge_all" > "$tmp/merge_cur" || true
    grep -P '\t1$' "$tmp/got_${DAYS[4]}" > "$tmp/zip_cur" || true
    same_rows "merge_same_current_rows" "$tmp/merge_cur" "$tmp/zip_cur"
    same_rows "merge_same_history" "$tmp/merge_all" "$tmp/got_${DAYS[4]}"
    echo "  the MERGE variant's directories (one transaction a day):"
    (cd "$WH/dim_user_acid" && ls -d */ | tr -d / | sed 's/^/    /')
fi

echo
if ((failed)); then echo "$failed checks FAILED"; exit 1; fi
echo "all checks passed"
