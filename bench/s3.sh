#!/usr/bin/env bash
# bench/s3.sh: insert and scan throughput of an ACID table with the
# warehouse on a local S3 server (s3rver behind the tests' signing-checking
# proxy, tests/s3/server.mjs) beside the same statements on local disk,
# with the requests and bytes the store saw.
#   bench/s3.sh [ROWS_PER_INSERT] [INSERTS]   (default 200000 x 4)
# Uses build/rel/comb (make MODE=rel); the npm packages are installed by
# tests/s3/setup.sh into build/rel/s3.  Without node it says so.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
export COMB=${COMB:-$ROOT/build/rel/comb}
ROWS=${1:-200000} N=${2:-4}
[[ -x $COMB ]] || { echo "build/rel/comb not found (make MODE=rel)"; exit 1; }
(
. "$ROOT/tests/integration/lib/s3.bash"
s3_start bench
T=$(mktemp -d)
trap 's3_stop; rm -rf "$T"' EXIT
mapfile -t S3 < <(s3_comb_args)
now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }
# run WHERE SQL: the statement's wall seconds on stdout
run() {
    local t0 t1
    if [[ $1 == s3 ]]; then
        t0=$(now); "$COMB" --warehouse s3a://bench/wh --metastore "$T/s3.db" "${S3[@]}" \
            --silent -e "$2" > /dev/null || exit 1; t1=$(now)
    else
        t0=$(now); "$COMB" --warehouse "$T/local" --silent -e "$2" > /dev/null || exit 1; t1=$(now)
    fi
    calc "$t1 - $t0"
}
gen="SELECT pos, md5(CAST(pos AS STRING)), pos * 0.5
     FROM (SELECT posexplode(split(space($((ROWS - 1))), ' ')) AS (pos, x)) g"
printf '%-8s %-28s %10s %14s %9s %12s\n' where statement seconds rows/s requests "MB moved"
for where in local s3; do
    run $where "CREATE TABLE t (id INT, s STRING, d DOUBLE) STORED AS ORC
                TBLPROPERTIES ('transactional'='true')" > /dev/null
    [[ $where == s3 ]] && s3_reset_stats
    total=0
    for i in $(seq 1 "$N"); do total=$(calc "$total + $(run $where "INSERT INTO t $gen")"); done
    req=- mb=-
    if [[ $where == s3 ]]; then
        req=$(s3_stats requests)
        mb=$(calc "($(s3_stats bytes_in) + $(s3_stats bytes_out)) / 1048576")
        s3_reset_stats
    fi
    printf '%-8s %-28s %10.2f %14.0f %9s %12.1f\n' $where "INSERT x$N ($ROWS rows each)" \
        "$total" "$(calc "$ROWS * $N / $total")" "$req" "${mb/-/0}"
    for q in "SELECT count(*), sum(length(s)), sum(d) FROM t" \
             "SELECT count(*) FROM t WHERE id < 0"; do
        secs=$(run $where "$q")
        req=- mb=-
        if [[ $where == s3 ]]; then
            req=$(s3_stats requests)
            mb=$(calc "$(s3_stats bytes_out) / 1048576")
            s3_reset_stats
        fi
        label=${q:0:28}
        printf '%-8s %-28s %10.2f %14.0f %9s %12.1f\n' $where "$label" "$secs" \
            "$(calc "$ROWS * $N / $secs")" "$req" "${mb/-/0}"
    done
done
)
