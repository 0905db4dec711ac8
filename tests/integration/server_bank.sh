#!/usr/bin/env bash
# Issue 13's concurrency acceptance: 16 HiveServer2 clients on one `comb
# serve` run the bank workload (tests/server/bank.js: transfers in explicit
# transactions retried on conflict, readers checking the total at every
# read) for SERVER_BANK_SECONDS (default 15); every result must be right,
# nothing may deadlock (the clients end by the deadline), the server stops
# cleanly, and its peak memory stays under 1 GiB (ASan's own included).
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
server_start "$COMB" "$T/wh"
timeout $((${SERVER_BANK_SECONDS:-15} + 240)) bash -c ". '$ROOT/tests/integration/lib/server.bash'; MODULES='$MODULES'; T='$T'; server_js bank $PORT 16 ${SERVER_BANK_SECONDS:-15}" ||
    fail bank "the clients failed or did not end"
peak=$(awk '/^VmHWM:/ {print $2}' /proc/$PID/status)
((peak < 1048576)) || fail bank "the server's peak memory is $((peak / 1024)) MiB"
server_stop bank
echo "ok (server peak $((peak / 1024)) MiB)"
