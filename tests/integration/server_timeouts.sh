#!/usr/bin/env bash
# The statements' time-outs in `comb serve` (issue 13), from a HiveServer2
# client (tests/server/lifecycle.js): ExecuteStatement's queryTimeout and
# the session's hive.query.timeout.seconds (a long INSERT cancelled after
# 1 s: TIMEDOUT_STATE with Hive's text, nothing committed; the shorter
# time-out wins; a malformed one refused; a statement within its time-out
# commits), and a negative hive.server2.idle.operation.timeout (a running
# statement nobody asks after cancelled and closed).  Every server stops
# cleanly with no sanitizer report; the query time-outs also under
# ThreadSanitizer (the time-outs' thread cancelling a statement's).
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"

server_mode "$COMB" "query time-outs" timeout
server_mode "$COMB" "idle running statement" idle-running \
    --hiveconf hive.server2.idle.operation.timeout=-2s
server_mode "$tsan" "query time-outs under ThreadSanitizer" timeout
echo ok
