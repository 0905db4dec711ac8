#!/usr/bin/env bash
# The limits of `comb serve` (issue 13), from a HiveServer2 client
# (tests/server/lifecycle.js): hive.server2.thrift.max.worker.threads=2
# (a third connection refused with the reason, a flood of silent ones
# closed, a place freed when a connection ends); a setting a server cannot
# start with.  The servers stop cleanly with no sanitizer report; also
# under ThreadSanitizer (the refusing threads).
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"

workers=(--hiveconf hive.server2.thrift.max.worker.threads=2)
server_mode "$COMB" workers workers "${workers[@]}"
server_mode "$tsan" "workers under ThreadSanitizer" workers "${workers[@]}"

# settings a server cannot start with, refused with the reason
refused() {  # TEXT OPTION...
    local text=$1
    shift
    "$COMB" --warehouse "$T/wh" "$@" serve --port 0 > "$T/refusal" 2>&1 < /dev/null &&
        fail refusal "$* started"
    grep -q -- "$text" "$T/refusal" || fail refusal "$*: $(cat "$T/refusal")"
}
refused "hive.server2.thrift.max.worker.threads=0: expected a number from 1 to" \
    --hiveconf hive.server2.thrift.max.worker.threads=0
echo ok
