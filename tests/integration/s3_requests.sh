#!/usr/bin/env bash
# What reading a table on a store costs, counted at the proxy: a full scan
# of N files issues a small fixed number of requests per file (the ORC tail
# in one ranged GET, a stripe's selected streams in another), and a WHERE
# that the files' statistics answer reads no stripe: one ranged GET per
# file, its tail.  The tails of a unit's files are fetched together, as
# many at once as fs.s3a.connection.maximum allows: with every answer
# slowed down, the proxy sees that many requests in flight.
set -u -o pipefail
. "$(dirname "$0")/lib/s3.bash"
s3_start_test req
mapfile -t S3 < <(s3_comb_args)
run() {
    "$COMB" --warehouse s3a://req/wh --metastore "$T/ms.db" "${S3[@]}" \
        --silent --outputformat tsv "${@:2}" -e "$1" | tail -n +2
}
fail() { echo "FAIL: $*"; s3_stats recent | tr ',' '\n' | tail -40; exit 1; }
N=4
run "CREATE TABLE t (id INT, s STRING) STORED AS ORC
     TBLPROPERTIES ('transactional'='true')" || fail create
# files of 550 KB, so that the stripes lie outside the 64 KiB tail
for i in $(seq 1 $N); do
    run "INSERT INTO t SELECT pos + $i * 100000, md5(CAST(pos AS STRING))
         FROM (SELECT posexplode(split(space(29999), ' ')) AS (pos, x)) g" ||
        fail insert
done
s3_reset_stats
[[ $(run "SELECT count(*), sum(length(s)) FROM t") == $'120000\t3840000' ]] ||
    fail "full scan result"
gets=$(s3_stats kinds.get_range) all=$(s3_stats requests)
echo "full scan of $N files: $gets ranged GETs, $all requests"
((gets <= 3 * N)) || fail "$gets ranged GETs for $N files"
((all <= 16 * N)) || fail "$all requests for $N files"
s3_reset_stats
[[ $(run "SELECT count(*) FROM t WHERE id > 9000000") == 0 ]] || fail "pruned result"
gets=$(s3_stats kinds.get_range)
echo "pruned scan of $N files: $gets ranged GETs"
((gets <= N)) || fail "a pruned scan read stripes: $gets ranged GETs"
s3_faults slow=1,seed=3
for max in 96 2; do
    s3_reset_stats
    [[ $(run "SELECT count(*) FROM t" --hiveconf comb.exec.threads=1 \
             --hiveconf fs.s3a.connection.maximum=$max) == 120000 ]] ||
        fail "slowed scan result"
    most=$(s3_stats max_in_flight) want=$((max < N ? max : N))
    echo "slowed scan of $N files, fs.s3a.connection.maximum=$max: $most requests in flight at most"
    ((most == want)) || fail "$most requests in flight at most, not $want"
done
s3_faults off
echo ok
