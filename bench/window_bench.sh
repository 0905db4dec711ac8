#!/usr/bin/env bash
# bench/window_bench.sh [ROWS] [DIR] - window functions over ROWS rows
# (default 1,000,000: id, k with 1,000 keys, ts, v), each query timed on
# comb (an ORC full-ACID table) and on SQLite (the same rows in a table of
# a database file), side by side, with both results printed so they can
# be compared: the latest row per key (ROW_NUMBER ... WHERE rn = 1), RANK,
# a running SUM (the default RANGE frame), a sliding SUM (ROWS 10 PRECEDING
# AND 10 FOLLOWING), a sliding MAX over one 1,000,000-row partition, LAG,
# and a RANGE frame by value.  Per query and engine (one process each,
# startup included): wall seconds, CPU seconds (user + system; steadier
# than wall on a shared machine) and peak RSS.  COMB=path/to/comb
# overrides build/rel/comb.
set -eu
rows=${1:-1000000}
dir=${2:-$(mktemp -d "${TMPDIR:-/tmp}/comb-window-bench.XXXXXX")}
comb=${COMB:-$(cd "$(dirname "$0")/.." && pwd)/build/rel/comb}
mkdir -p "$dir/stage"
wh="$dir/warehouse"

awk -v n="$rows" 'BEGIN { srand(7); for (i = 0; i < n; i++)
    printf "%d,%d,%d,%d\n", i, i % 1000, int(rand() * 1000000000), int(rand() * 1000) }' \
    > "$dir/stage/data.csv"

"$comb" --warehouse "$wh" --silent -e "
CREATE EXTERNAL TABLE stage (id INT, k INT, ts BIGINT, v INT)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE LOCATION '$dir/stage';
CREATE TABLE t (id INT, k INT, ts BIGINT, v INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t SELECT * FROM stage;" > /dev/null
rm -f "$dir/sqlite.db"
sqlite3 "$dir/sqlite.db" "CREATE TABLE t (id INTEGER, k INTEGER, ts INTEGER, v INTEGER);" \
    ".mode csv" ".import $dir/stage/data.csv t"

queries=(
  "latest per key|SELECT count(*), sum(v) FROM (SELECT v, row_number() OVER (PARTITION BY k ORDER BY ts DESC) AS rn FROM t) s WHERE rn = 1"
  "rank|SELECT sum(r) FROM (SELECT rank() OVER (PARTITION BY k ORDER BY v) AS r FROM t) s"
  "running sum|SELECT sum(s) FROM (SELECT sum(v) OVER (PARTITION BY k ORDER BY ts) AS s FROM t) q"
  "sliding sum rows 10/10|SELECT sum(s) FROM (SELECT sum(v) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 10 PRECEDING AND 10 FOLLOWING) AS s FROM t) q"
  "sliding max, 1 partition|SELECT sum(m) FROM (SELECT max(v) OVER (ORDER BY id ROWS BETWEEN 100 PRECEDING AND CURRENT ROW) AS m FROM t) q"
  "lag|SELECT sum(d) FROM (SELECT v - lag(v, 1, 0) OVER (PARTITION BY k ORDER BY ts) AS d FROM t) q"
  "range by value|SELECT sum(c) FROM (SELECT count(*) OVER (PARTITION BY k ORDER BY v RANGE BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS c FROM t) q"
)

# run ENGINE-ARGS...: stdout's last line into $res, "wall cpu rss" into $fig
run() {
    res=$(/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$@" | tail -n 1)
    fig=$(awk '{ printf "%6.2f %6.2f %6.0f", $1, $2 + $3, $4 / 1024 }' "$dir/time")
}

printf '%d rows; wall s, CPU s, peak RSS MB\n%-26s %22s %22s  %s\n' "$rows" query \
    "comb" "sqlite" "results (comb | sqlite)"
for q in "${queries[@]}"; do
    name=${q%%|*}
    sql=${q#*|}
    run "$comb" --warehouse "$wh" --silent --outputformat tsv -e "$sql;"
    cr=$res cf=$fig
    run sqlite3 -separator $'\t' "$dir/sqlite.db" "$sql;"
    printf '%-26s %22s %22s  %s | %s\n' "$name" "$cf" "$fig" "$cr" "$res"
done
[[ -n ${2:-} ]] || rm -rf "$dir"
