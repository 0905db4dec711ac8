#!/usr/bin/env bash
# bench/server.sh: `comb serve` over HiveServer2's protocol beside the same
# statements in the embedded CLI, on one warehouse: point queries (SELECT s
# FROM small WHERE id = K, K random) for SECONDS seconds with 1 and with 16
# clients at once: queries/s, latency median and 99th percentile; and
# SELECT * FROM t, ROWS rows, fetched whole: rows/s.  CPU seconds of comb
# (the server's, all threads; the CLI processes') and of the clients, and
# comb's peak RSS (a server's: its high-water mark by the end of the step).
#   bench/server.sh [ROWS] [SECONDS] [SMALL]   (default 1000000 10 1000)
# small has SMALL rows: 1,000 by default, so that a point query is mostly
# the statement's fixed cost (planning, snapshot, one file opened, and the
# protocol's calls); at 10,000 rows it is mostly inflating the one stripe.
# The protocol's client is hive-driver in Node (bench/server/bench.js,
# installed by bench/server/setup.sh into build/rel/bench/server): each
# client its own connection and session, all in one Node process; logged
# in without SASL (`serve nosasl`, an unframed transport) and with SASL
# PLAIN (`serve plain`, framed), each on a server of its own.  A CLI
# client is one `comb --silent --outputformat tsv` process reading its
# statements on standard input, driven by a bash loop here that sends one,
# reads its row back and times it; 16 clients are 16 such pairs.  The
# CLI's SELECT * is `comb -e` with its output to /dev/null.  Without node
# or the package it says "hive-driver: not found" and gives the CLI's
# figures.  Uses build/rel/comb (make MODE=rel), or $COMB.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
COMB=${COMB:-$ROOT/build/rel/comb}
ROWS=${1:-1000000} DUR=${2:-10} SMALL=${3:-1000}
MODULES=$ROOT/build/rel/bench/server
[[ -x $COMB ]] || { echo "$COMB not found (make MODE=rel)"; exit 1; }
# the server started and stopped as the tests do it (server_start,
# server_stop, fail; $PID is the server's)
. "$ROOT/tests/integration/lib/server.bash"
TCK=$(getconf CLK_TCK)
T=$(mktemp -d)
WH=$T/wh
trap '[[ -n $PID ]] && kill -9 $PID 2> /dev/null; kill $(jobs -p) 2> /dev/null; rm -rf "$T"' EXIT

die() { echo "bench/server.sh: $*"; exit 1; }

# the CPU time so far of process PID in clock ticks (utime + stime, the
# fields after the command's closing parenthesis)
ticks() {
    local stat f
    stat=$(< "/proc/$1/stat")
    read -ra f <<< "${stat##*) }"
    echo $((f[11] + f[12]))
}

# ROWS' rows (id, md5 of id as text, id / 2), as bench/s3.sh makes them
gen() {
    echo "SELECT pos, md5(CAST(pos AS STRING)), pos * 0.5
          FROM (SELECT posexplode(split(space($(($1 - 1))), ' ')) AS (pos, x)) g"
}

"$COMB" --warehouse "$WH" --silent -e "
    CREATE TABLE t (id INT, s STRING, d DOUBLE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
    INSERT INTO t $(gen "$ROWS");
    CREATE TABLE small (id INT, s STRING, d DOUBLE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
    INSERT INTO small $(gen $SMALL);" > /dev/null || die "loading the tables failed"

# row ENGINE KIND CLIENTS ITEMS SECONDS MEDIAN_MS P99_MS COMB_CPU CLIENT_CPU PEAK_MB:
# one line of the table (bench.js prints the same fields)
row() {
    local engine=$1
    shift
    echo "$@" | awk -v engine="$engine" '
        function f(x) { return x == "-" ? x : sprintf("%.2f", x) }
        { printf "%-12s %-20s %7s %12s %8.2f %10.0f %9s %8s %9s %10s %7.0f\n", engine,
              $1 == "fetch" ? "SELECT * FROM t" : "point query (1 row)", $2, $3, $4,
              $3 / $4, f($5), f($6), f($7), f($8), $9 }'
}

# cli_client OUT: one CLI client: a comb process reading statements on
# standard input, sent one point query at a time once $T/go appears, until
# DUR seconds have passed; each latency (microseconds) to OUT.lat, then
# "QUERIES START END COMB_TICKS DRIVER_TICKS PEAK_MB" (START and END in
# microseconds) to OUT.sum.  The timed loop forks nothing, so the driver's
# ticks are its own.
cli_client() {
    local out=$1 me=$BASHPID n=0 t0 t1 start end val cpu0 own0 lat
    coproc CLI { exec "$COMB" --warehouse "$WH" --silent --outputformat tsv; }
    local pid=$CLI_PID to=${CLI[1]} from=${CLI[0]}
    query() {
        echo "SELECT s FROM small WHERE id = $((SRANDOM % SMALL));" >&"$to"
        # a header and the row; a failed statement prints neither (its
        # error goes to stderr), hence the time limit
        read -r -t 60 _ <&"$from" && read -r -t 60 val <&"$from" && [[ -n $val ]] ||
            die "the CLI's point query failed"
    }
    query  # the first statement's one-off costs stay out of the figures
    exec {lat}> "$out.lat"
    : > "$out.ready"
    while [[ ! -e $T/go ]]; do sleep 0.01; done
    cpu0=$(ticks "$pid") own0=$(ticks "$me")
    start=${EPOCHREALTIME/./} t0=$start end=$((start + DUR * 1000000))
    while ((t0 < end)); do
        query
        t1=${EPOCHREALTIME/./}
        echo $((t1 - t0)) >&"$lat"
        t0=$t1 n=$((n + 1))
    done
    echo "$n $start $t0 $(($(ticks "$pid") - cpu0)) $(($(ticks "$me") - own0))" \
        "$(awk '/^VmHWM:/ { print $2 / 1024 }' "/proc/$pid/status")" > "$out.sum"
    exec {to}>&- {lat}>&-
    wait "$pid"
}

# cli_points CLIENTS: that many CLI clients at once, warmed up before any
# is timed; their row of the table (latencies: nearest rank, as bench.js)
cli_points() {
    local i pids=() ready=0 sums lats q secs cpu own peak
    rm -f "$T"/cli.* "$T/go"
    for ((i = 0; i < $1; i++)); do
        cli_client "$T/cli.$i" &
        pids+=($!)
    done
    for _ in $(seq 1 600); do
        ready=$(ls "$T"/cli.*.ready 2> /dev/null | wc -l)
        ((ready == $1)) && break
        kill -0 "${pids[@]}" 2> /dev/null || break
        sleep 0.1
    done
    ((ready == $1)) || die "the CLI clients did not start"
    : > "$T/go"
    for i in "${pids[@]}"; do wait "$i" || exit 1; done
    sums=$(awk -v tck="$TCK" '{ q += $1; cpu += $4; own += $5; if (NR == 1 || $2 < s) s = $2
                                if ($3 > e) e = $3; if ($6 > p) p = $6 }
        END { printf "%d %.3f %.3f %.3f %.0f", q, (e - s) / 1e6, cpu / tck, own / tck, p }' \
        "$T"/cli.*.sum)
    lats=$(sort -n "$T"/cli.*.lat | awk '
        function rank(p,  i) { i = int(p * NR); if (i < p * NR) i++; return l[i] / 1000 }
        { l[NR] = $1 }
        END { printf "%.3f %.3f", rank(0.5), rank(0.99) }')
    read -r q secs cpu own peak <<< "$sums"
    row cli point "$1" "$q" "$secs" $lats "$cpu" "$own" "$peak"
}

printf '%-12s %-20s %7s %12s %8s %10s %9s %8s %9s %10s %7s\n' engine statement clients \
    "queries|rows" seconds "per second" "median ms" "p99 ms" "comb CPU" "client CPU" "peak MB"
cli_points 1
cli_points 16
/usr/bin/time -f '%e %U %S %M' -o "$T/time" \
    "$COMB" --warehouse "$WH" --silent --outputformat tsv -e "SELECT * FROM t" > /dev/null ||
    die "the CLI's SELECT * FROM t failed"
row cli $(awk -v n="$ROWS" '{ print "fetch 1", n, $1, "- -", $2 + $3, "-", $4 / 1024 }' "$T/time")

bash "$ROOT/bench/server/setup.sh" "$MODULES" >&2
if ! command -v node > /dev/null || [[ ! -d $MODULES/node_modules/hive-driver ]]; then
    echo "hive-driver: not found (bench/server/setup.sh); the server's figures are left out"
    exit 0
fi
NOTES=
# serve AUTH: a server of its own for the clients logged in with AUTH
# (bench.js); its rows of the table, its notes kept for the end
serve() {
    local kind rest engine="serve $1"
    server_start "$COMB" "$WH"
    node "$MODULES/bench.js" "$PORT" "$DUR" "$SMALL" "$ROWS" "$PID" "$TCK" "$1" > "$T/js" ||
        die "bench.js $1 failed"
    [[ $(grep -c -v '^note ' "$T/js") == 3 ]] || die "bench.js $1 did not finish: $(cat "$T/js")"
    while read -r kind rest; do
        if [[ $kind == note ]]; then
            NOTES+="$engine: $rest"$'\n'
        else
            row "$engine" "$kind" $rest
        fi
    done < "$T/js"
    server_stop "$engine"
}
serve nosasl
serve plain
printf %s "$NOTES"
