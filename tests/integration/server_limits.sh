#!/usr/bin/env bash
# The limits of `comb serve` (issue 13), from a HiveServer2 client
# (tests/server/lifecycle.js): hive.server2.thrift.max.worker.threads=2
# (a third connection refused with the reason, a flood of silent ones
# closed, a place freed when a connection ends), the pool of asynchronous
# statements (hive.server2.async.exec.threads=1, a wait queue of 1: the
# second waits in PENDING_STATE, the third is refused, a waiting one
# cancelled never runs) and the idle time-outs (an
# operation left 1 s closed, a session left 3 s in a transaction closed
# and its transaction rolled back, an active one kept); settings a server
# cannot start with.  Every server stops cleanly with no sanitizer report;
# both also under ThreadSanitizer (the refusing threads, the time-outs'
# thread).  server_timeouts.sh has the statements' time-outs.
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"

workers=(--hiveconf hive.server2.thrift.max.worker.threads=2)
pool=(--hiveconf hive.server2.async.exec.threads=1 --hiveconf hive.server2.async.exec.wait.queue.size=1)
idle=(--hiveconf hive.server2.idle.session.timeout=3s --hiveconf hive.server2.idle.operation.timeout=1000)
server_mode "$COMB" workers workers "${workers[@]}"
server_mode "$COMB" "idle time-outs" idle "${idle[@]}"
# and from the CLI: the closed session's transaction is gone, its row too
server_none_open idle
[[ $(server_cli "SELECT count(*) FROM t" | tail -1) == 0 ]] || fail idle "the idle session's row is visible"
server_mode "$COMB" "the pool of asynchronous statements" pool "${pool[@]}"
server_mode "$tsan" "workers under ThreadSanitizer" workers "${workers[@]}"
server_mode "$tsan" "idle time-outs under ThreadSanitizer" idle "${idle[@]}"
server_mode "$tsan" "the pool under ThreadSanitizer" pool "${pool[@]}"

# settings a server cannot start with, refused with the reason
refused() {  # TEXT OPTION...
    local text=$1
    shift
    timeout 20 "$COMB" --warehouse "$T/wh" "$@" serve --port 0 > "$T/refusal" 2>&1 < /dev/null &&
        fail refusal "$* started"
    grep -q -- "$text" "$T/refusal" || fail refusal "$*: $(cat "$T/refusal")"
}
refused "hive.server2.thrift.max.worker.threads=0: expected a number from 1 to" \
    --hiveconf hive.server2.thrift.max.worker.threads=0
refused "hive.server2.idle.session.timeout=2 fortnights: expected a time such as" \
    --hiveconf "hive.server2.idle.session.timeout=2 fortnights"
refused "hive.server2.graceful.stop.timeout=soon: expected a time such as 30 (seconds)" \
    --hiveconf hive.server2.graceful.stop.timeout=soon
refused "hive.server2.idle.session.check.operation=yes: expected true or false" \
    --hiveconf hive.server2.idle.session.check.operation=yes
refused "hive.server2.async.exec.threads=0: expected a number from 1 to" \
    --hiveconf hive.server2.async.exec.threads=0
refused "hive.server2.async.exec.wait.queue.size=-1: expected a number from 0 to" \
    --hiveconf hive.server2.async.exec.wait.queue.size=-1
refused "comb.server.result.memory=lots: expected a size in bytes with an optional k, m, g or t" \
    --hiveconf comb.server.result.memory=lots
echo ok
