# Sourced by the server tests (and bench/server.sh): `comb serve` started
# on a warehouse of its own and stopped with SIGTERM, with the HiveServer2
# client (npm hive-driver, tests/server/setup.sh) beside it.
#   server_tmp            $T, an EXIT trap that kills a server or client
#                         left running, and the settings comb's processes
#                         (servers, -u clients) run with under ASan
#   server_setup          server_tmp, and installs the client (exit 77,
#                         skipped, without node or the package): $MODULES
#   server_start BIN WH [OPTION...]  `BIN --warehouse WH OPTION... serve`
#                         on any free port (on $SERVER_PORT when set), with
#                         no status page unless an OPTION asks for one:
#                         sets $PORT and $PID
#   wait_listening WHAT WHO  until $PID (started with its stdout in $T/out)
#                         says where it listens: sets $PORT
#   server_stop WHAT      SIGTERM; fails the test unless it exits 0 with
#                         nothing on stderr (no sanitizer report)
#   server_js NAME ARG... node tests/server/NAME.js ARG...: fails unless it
#                         exits 0 having said that every check ran
#   free_port             a loopback TCP port no socket uses now, below the
#                         range the kernel gives outgoing connections
#   server_js_start NAME MARKER ARG...  the same in the background, until
#                         it prints the line MARKER; server_js_end waits for
#                         it to end as server_js would
#   server_mode BIN WHAT MODE [OPTION...]  a server on a new warehouse $T/wh
#                         with the options, `lifecycle.js PORT MODE`, the stop
#   server_cli SQL        the CLI on $T/wh, tab-separated (on the metastore
#                         $COMB_TEST_METASTORE when set, as other tests do)
#   server_none_open WHAT fails when $T/wh has an open transaction
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
PID=
JS=

server_setup() {
    MODULES=${COMB_SERVER_MODULES:-$(dirname "$COMB")/server}
    command -v node > /dev/null || { echo "node is not installed"; exit 77; }
    bash "$ROOT/tests/server/setup.sh" "$MODULES" >&2
    [[ -d $MODULES/node_modules/hive-driver ]] ||
        { echo "hive-driver is not installed (tests/server/setup.sh)"; exit 77; }
    server_tmp
}

# full stacks through GLib (built without frame pointers), so that the
# suppressions of libthrift's and libsoup's own leaks (tests/server/
# lsan.supp) can match; GLib's slice allocator hands blocks between
# threads in ways ThreadSanitizer cannot see, plain malloc does not
server_tmp() {
    T=$(mktemp -d)
    trap '[[ -n $PID ]] && kill -9 $PID 2> /dev/null
          [[ -n $JS ]] && kill $JS 2> /dev/null; rm -rf "$T"' EXIT
    export G_SLICE=always-malloc
    export LSAN_OPTIONS=suppressions=$ROOT/tests/server/lsan.supp:print_suppressions=0
    export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0
}

fail() { echo "FAIL ($1): ${*:2}"; [[ -f $T/err ]] && cat "$T/err"; exit 1; }

server_start() {
    local bin=$1 wh=$2
    shift 2
    PORT=
    rm -f "$T/out" "$T/err"
    "$bin" --warehouse "$wh" --hiveconf hive.server2.webui.port=0 "$@" \
        serve --port "${SERVER_PORT:-0}" > "$T/out" 2> "$T/err" &
    PID=$!
    wait_listening "$bin" "the server"
}

# Wait (up to 20 s) for process $PID to say "listening on 127.0.0.1:PORT"
# in $T/out: sets $PORT, else fails the test (WHO did not start).
wait_listening() {  # WHAT WHO
    PORT=
    for _ in $(seq 1 200); do
        # (the file may not be made yet: the child opens it)
        PORT=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$T/out" 2> /dev/null)
        [[ -n $PORT ]] && break
        kill -0 $PID 2> /dev/null || break
        sleep 0.1
    done
    [[ -n $PORT ]] || fail "$1" "$2 did not start"
}

# the checks of NAME.js: its output OUT and exit status RC
js_verdict() {  # NAME OUT RC WHAT
    printf '%s\n' "$2" | grep -v '^# '
    (($3 == 0)) || fail "$4" "exit status $3"
    [[ $(printf '%s\n' "$2" | tail -1) == "# $1: every check ran" ]] ||
        fail "$4" "its checks did not all run"
}

server_js() {
    local name=$1 out rc
    shift
    out=$(node "$MODULES/$name.js" "$@" 2>&1)
    rc=$?
    js_verdict "$name" "$out" $rc "$name.js $*"
}

server_js_start() {
    local marker=$2
    JS_NAME=$1
    shift 2
    node "$MODULES/$JS_NAME.js" "$@" > "$T/js" 2>&1 &
    JS=$!
    for _ in $(seq 1 600); do
        grep -qsx -- "$marker" "$T/js" && return 0
        kill -0 $JS 2> /dev/null || break
        sleep 0.1
    done
    fail "$JS_NAME.js $*" "it did not say '$marker': $(cat "$T/js")"
}

server_js_end() {
    local rc
    wait $JS
    rc=$?
    JS=
    js_verdict "$JS_NAME" "$(cat "$T/js")" $rc "$JS_NAME.js"
}

free_port() {
    local used p lo
    # below the kernel's range for outgoing connections, so that a client
    # of another test cannot take it between this choice and its bind
    read -r lo _ < /proc/sys/net/ipv4/ip_local_port_range 2> /dev/null || lo=32768
    ((lo > 12000)) || lo=32768
    # the local ports of every socket, from the kernel's tables (hex)
    used=$(awk 'NR > 1 { split($2, a, ":"); print strtonum("0x" a[2]) }' \
               /proc/net/tcp /proc/net/tcp6 2> /dev/null)
    for _ in $(seq 1 100); do
        p=$((10000 + RANDOM % (lo - 10000)))
        grep -qx "$p" <<< "$used" || { echo "$p"; return 0; }
    done
    return 1
}

server_stop() {
    local rc
    kill -TERM $PID
    wait $PID
    rc=$?
    PID=
    ((rc == 0)) || fail "$1" "the server exited with $rc after SIGTERM"
    [[ -s $T/err ]] && fail "$1" "the server wrote to stderr"
    return 0
}

server_mode() {
    local bin=$1 what=$2 mode=$3
    shift 3
    rm -rf "$T/wh"
    server_start "$bin" "$T/wh" "$@"
    server_js lifecycle "$PORT" "$mode"
    server_stop "$what"
}

server_cli() {
    "$COMB" --warehouse "$T/wh" ${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"} \
        --outputformat tsv -e "$1"
}

server_none_open() {
    [[ -z $(server_cli "SHOW TRANSACTIONS" | awk -F'\t' '$2 == "OPEN"') ]] ||
        fail "$1" "a transaction is open: $(server_cli 'SHOW TRANSACTIONS')"
}
