#!/usr/bin/env bash
# A result bigger than comb serve's memory for it (issue 13: "the server's
# memory stays bounded"), from a HiveServer2 client (tests/server/
# bigresult.js): a SELECT of 1,000,000 rows fetched in pages of 10,000,
# checked by count, sums, every name and the first and last row.
#
# Peak memory (VmHWM of /proc/PID/status) is measured both ways, on the
# same query: with comb.server.result.memory=1g the result stays in memory
# and the server's peak rises by more than MIN_KEPT_MB; with 4m it spills
# and rises by less than MAX_SPILLED_MB.  For the figures to mean the
# server's own memory, ASan keeps few freed blocks (its quarantine, 256 MB
# by default, would hide the difference) and unwinds the fast way (the
# slow one costs ten times the run), which lets LeakSanitizer not match
# the suppressions of libthrift's own leaks: those two runs do not look
# for leaks.  The spilling one is run again on 100,000 rows with a budget
# of 256k and every check (leaks too), and under ThreadSanitizer (the
# statement spills on a thread of its own, the fetches read on the
# connection's).  A spill file that cannot be made fails the statement
# with why.
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"
ROWS=1000000 MIN_KEPT_MB=60 MAX_SPILLED_MB=40

"$COMB" --warehouse "$T/wh" -e "
CREATE TABLE big (id BIGINT, name STRING, x DOUBLE) STORED AS ORC;
INSERT INTO big SELECT pos, concat('name-', pos), pos / 2.0
  FROM (SELECT posexplode(split(space($((ROWS - 1))), ' ')) AS (pos, v)) q" > /dev/null ||
    fail setup "the table was not made"

peak_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$PID/status"; }

# BIN BUDGET ROWS [OPTION...]: the checked SELECT on a server with the
# budget; $RISE_MB the rise of its peak memory meanwhile
big_select() {
    local bin=$1 budget=$2 rows=$3 before
    shift 3
    server_start "$bin" "$T/wh" --hiveconf comb.server.result.memory="$budget" "$@"
    before=$(peak_kb)
    server_js bigresult "$PORT" "$rows" fetch
    RISE_MB=$((($(peak_kb) - before) / 1024))
    server_stop "$rows rows, comb.server.result.memory=$budget"
}

measured() {  # BUDGET
    ASAN_OPTIONS=$ASAN_OPTIONS:quarantine_size_mb=8:fast_unwind_on_malloc=1:detect_leaks=0 \
        big_select "$COMB" "$1" $ROWS
}
measured 1g
kept=$RISE_MB
measured 4m
spilled=$RISE_MB
echo "# peak memory rose by $kept MB with the result kept, $spilled MB with it spilled"
((kept > MIN_KEPT_MB)) ||
    fail measure "kept in memory the peak rose by $kept MB only: the test cannot tell"
((spilled < MAX_SPILLED_MB)) ||
    fail spill "spilled the peak rose by $spilled MB (kept: $kept MB)"

big_select "$COMB" 256k 100000
big_select "$tsan" 256k 100000

server_start "$COMB" "$T/wh" --hiveconf comb.server.result.memory=256k \
    --hiveconf comb.exec.spill.dir="$T/no-such-dir"
server_js bigresult "$PORT" 100000 fail
server_stop "a spill directory that does not exist"
echo ok
