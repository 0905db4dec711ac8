#!/usr/bin/env bash
# How `comb serve` stops and starts again (issue 13), with a HiveServer2
# client (tests/server/lifecycle.js) in the background while the shell
# signals the server:
#  - SIGTERM with hive.server2.graceful.stop.timeout=1s while a long INSERT
#    runs: the server exits 0 within a few seconds, the INSERT cancelled
#    and rolled back (nothing committed, no transaction left open); also
#    under ThreadSanitizer; and with a minute's grace cut short by a second
#    SIGTERM;
#  - SIGTERM with a minute's grace while a 3-second INSERT runs: new
#    statements are refused meanwhile, the INSERT commits, the server exits
#    as soon as it has;
#  - SIGKILL with committed rows and an open transaction, then a new server
#    on the same port and warehouse: it serves every committed row, and its
#    own housekeeping aborts the killed server's transaction once
#    hive.txn.timeout (2 s here) has passed, with no client starting one.
set -u
. "$(dirname "$0")/lib/server.bash"
server_setup
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/comb
[[ -x $tsan ]] || fail tsan "no $tsan (make MODE=tsan $tsan)"

# SIGTERM; the server exits 0 in less than MAX seconds, nothing on stderr
stop_within() {  # MAX WHAT
    local started=$SECONDS
    server_stop "$2"
    ((SECONDS - started < $1)) || fail "$2" "the stop took $((SECONDS - started)) s"
}

# a long INSERT at SIGTERM (and with TWICE, a second one): cancelled
grace_ends() {  # BIN WHAT GRACE [TWICE]
    rm -rf "$T/wh"
    server_start "$1" "$T/wh" --hiveconf hive.server2.graceful.stop.timeout="$3"
    server_js_start lifecycle "# running" "$PORT" stop-long
    sleep 0.5
    if [[ -n ${4:-} ]]; then
        kill -TERM $PID
        sleep 0.5
    fi
    stop_within 10 "$2"
    server_js_end
    [[ $(server_cli "SELECT count(*) FROM t" | tail -1) == 0 ]] || fail "$2" "the long INSERT committed"
    server_none_open "$2"
    echo "ok - $2: the long statement cancelled, rolled back"
}
grace_ends "$COMB" "grace of 1 s" 1s
grace_ends "$tsan" "grace of 1 s under ThreadSanitizer" 1s
grace_ends "$COMB" "a second SIGTERM cutting a minute's grace short" 60 twice

rm -rf "$T/wh"
server_start "$COMB" "$T/wh" --hiveconf hive.server2.graceful.stop.timeout=60
server_js_start lifecycle "# running" "$PORT" stop-short
stop_within 20 "a minute's grace"
server_js_end
[[ $(server_cli "SELECT count(*) FROM t" | tail -1) == 1 ]] || fail grace "the short INSERT did not commit"
server_none_open grace
echo "ok - the statement running at SIGTERM finished and committed; the server did not wait the minute"

rm -rf "$T/wh"
server_start "$COMB" "$T/wh"
server_js_start lifecycle "# holding" "$PORT" hold
txn=$(server_cli "SHOW TRANSACTIONS" | awk -F'\t' '$2 == "OPEN" {print $1}')
[[ -n $txn ]] || fail kill "no open transaction: $(server_cli 'SHOW TRANSACTIONS')"
kill -9 $PID
wait $PID 2> /dev/null
PID=
server_js_end
SERVER_PORT=$PORT server_start "$COMB" "$T/wh" --hiveconf hive.txn.timeout=2s \
    --hiveconf metastore.acid.housekeeper.interval=1s
state=
for _ in $(seq 1 100); do
    state=$(server_cli "SHOW TRANSACTIONS" | awk -F'\t' -v t="$txn" '$1 == t {print $2}')
    [[ $state == ABORTED ]] && break
    sleep 0.2
done
[[ $state == ABORTED ]] || fail restart "the killed transaction $txn is '$state'"
server_js lifecycle "$PORT" count 3
server_stop "after SIGKILL"
echo "ok - restarted after SIGKILL on the same port: committed rows served, the open transaction aborted by its time-out"
