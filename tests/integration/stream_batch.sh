#!/usr/bin/env bash
# Streaming ingest (issue 12, acceptance 1): one process streams a batch of
# 10 txns into a dynamically partitioned table while other processes read
# it.  One delta directory per partition; after each commit a reader sees
# exactly the committed rows; an aborted txn stays invisible; after the
# last commit no _flush_length remains; then the table compacts to the
# same rows.  The driver is build/<mode>/tests/stream_driver.
set -eu
DRIVER=$(dirname "$COMB")/tests/stream_driver
[[ -x $DRIVER ]] || { echo "no $DRIVER (make unit builds it)"; exit 1; }
WH=$(mktemp -d)
trap 'exec 3>&- 4<&- 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv --silent "$@"; }
c -e "CREATE TABLE t (id INT, v STRING) PARTITIONED BY (p STRING)
      STORED AS ORC TBLPROPERTIES ('transactional'='true')"

mkfifo "$WH/in" "$WH/out"
"$DRIVER" "$WH" t 10 <"$WH/in" >"$WH/out" &
exec 3>"$WH/in" 4<"$WH/out"
say() {  # send one command, expect "ok ..."
    local answer
    echo "$*" >&3
    read -r answer <&4
    [[ $answer == ok* ]] || { echo "driver: $* -> $answer"; exit 1; }
}
seen() { c -e "SELECT p, count(*), sum(id) FROM t GROUP BY p ORDER BY p" | tail -n +2 | tr '\t\n' ' ,'; }

want_x=0; sum_x=0; want_y=0; sum_y=0
expect() {
    local w="" got
    ((want_x > 0)) && w+="x $want_x $sum_x,"
    ((want_y > 0)) && w+="y $want_y $sum_y,"
    got=$(seen)
    [[ $got == "$w" ]] || { echo "after $1: want '$w', a reader saw '$got'"; exit 1; }
}

for t in 0 1 2 3 4 5 6 7 8 9; do
    lo=$((t * 100)); hi=$((lo + 9))
    say begin
    say rows $lo $hi x
    say rows $((lo + 50)) $((lo + 52)) y
    expect "rows of open txn $t"             # nothing of the open txn
    if ((t == 4)); then
        say abort
    else
        say commit
        want_x=$((want_x + 10)); sum_x=$((sum_x + (lo + hi) * 10 / 2))
        want_y=$((want_y + 3)); sum_y=$((sum_y + 3 * (lo + 51)))
    fi
    expect "txn $t"
    for p in x y; do
        n=$(ls "$WH/t/p=$p" | grep -c '^delta_' || true)
        [[ $n == 1 ]] || { echo "p=$p has $n delta directories"; ls "$WH/t/p=$p"; exit 1; }
        [[ -d $WH/t/p=$p/delta_0000001_0000010 ]] || { echo "no delta_0000001_0000010"; ls "$WH/t/p=$p"; exit 1; }
        if ((t < 9)); then
            [[ -f $WH/t/p=$p/delta_0000001_0000010/bucket_00000_flush_length ]] ||
                { echo "no side file in p=$p after txn $t"; exit 1; }
        fi
    done
done
n=$(find "$WH/t" -name '*_flush_length' | wc -l)
[[ $n == 0 ]] || { echo "$n _flush_length files left after the last commit"; exit 1; }
say close

# a second batch continues with write ids 11..; then a major compaction
# keeps exactly the committed rows (the aborted txn's are dropped)
"$DRIVER" "$WH" t 2 >"$WH/out2" <<'EOF'
begin
rows 5000 5004 x
commit
begin
rows 6000 6000 x
abort
EOF
grep -q '^ok closed' "$WH/out2" || { cat "$WH/out2"; exit 1; }
want_x=$((want_x + 5)); sum_x=$((sum_x + 25010))
expect "second batch"
[[ -d $WH/t/p=x/delta_0000011_0000012 ]] || { echo "no delta_0000011_0000012"; ls "$WH/t/p=x"; exit 1; }
c -e "ALTER TABLE t PARTITION (p='x') COMPACT 'major' AND WAIT" >/dev/null
expect "major compaction"
ls "$WH/t/p=x" | grep -q '^base_' || { echo "no base after compaction"; ls "$WH/t/p=x"; exit 1; }
echo ok
