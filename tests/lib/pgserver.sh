#!/usr/bin/env bash
# A throw-away PostgreSQL server for the tests and benches of the
# PostgreSQL metastore (tests/unit/metastore/ms_fixture.c,
# tests/integration/lib/pg.bash, bench/txn_bench.c):
#   pgserver.sh start DIR [durable]  initdb into DIR/data and start a server
#                                    listening only on a Unix socket in DIR
#                                    (no TCP port); superuser "comb", trust
#                                    authentication.  Without "durable" the
#                                    server does not fsync (fast, and the
#                                    tests never crash the server itself)
#   pgserver.sh stop DIR             stop it at once and remove DIR
#   pgserver.sh pause DIR            stop it, keeping its data
#   pgserver.sh resume DIR           start a paused one again
#   pgserver.sh url DIR [DB]         print the URL of database DB (default
#                                    "postgres") on it
#   pgserver.sh createdb DIR DB      create database DB on it
# DIR is an empty directory the caller made; its path must be short enough
# for a socket name (under 90 bytes).  Exit status 77, with a line saying
# why, when PostgreSQL's server binaries (initdb, pg_ctl) are not in
# COMB_PG_BINDIR when that is set, else not in PATH nor in
# /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql).
# PostgreSQL refuses to run as root: run by root, the server runs as the
# unprivileged user "nobody" (COMB_PG_USER names another), which then owns
# DIR; DIR's parent must let that user in (/tmp does).
set -euo pipefail

die() { echo "pgserver: $*" >&2; exit 1; }

bindir() {
    local d
    if [[ -n ${COMB_PG_BINDIR:-} ]]; then
        if [[ -x $COMB_PG_BINDIR/initdb && -x $COMB_PG_BINDIR/pg_ctl ]]; then
            echo "$COMB_PG_BINDIR"
            return
        fi
        echo "no PostgreSQL server binaries (initdb, pg_ctl) in" \
             "COMB_PG_BINDIR=$COMB_PG_BINDIR" >&2
        exit 77
    fi
    if command -v initdb > /dev/null && command -v pg_ctl > /dev/null; then
        dirname "$(readlink -f "$(command -v pg_ctl)")"
        return
    fi
    for d in $(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V -r); do
        if [[ -x $d/initdb && -x $d/pg_ctl ]]; then echo "$d"; return; fi
    done
    echo "no PostgreSQL server binaries (initdb, pg_ctl) in PATH or" \
         "/usr/lib/postgresql/*/bin; apt-get install postgresql" >&2
    exit 77
}

# Run a command as the server's user: root hands it to an unprivileged one.
as_server() {
    if [[ $(id -u) -ne 0 ]]; then "$@"; return; fi
    local user=${COMB_PG_USER:-nobody}
    if command -v runuser > /dev/null; then
        runuser -u "$user" -- "$@"
    else
        setpriv --reuid "$user" --regid "$(id -g "$user")" --init-groups -- "$@"
    fi
}

start() {
    local dir=$1 durable=${2:-} bin opts
    bin=$(bindir)
    [[ -d $dir ]] || die "no directory $dir"
    ((${#dir} < 90)) || die "$dir is too long for a socket path"
    if [[ $(id -u) -eq 0 ]]; then chown "${COMB_PG_USER:-nobody}" "$dir"; fi
    as_server "$bin/initdb" -D "$dir/data" -U comb --auth=trust -E UTF8 \
        --locale=C --no-sync > "$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; die "initdb failed"; }
    opts="-c listen_addresses='' -k $dir -c max_connections=60"
    opts+=" -c shared_buffers=16MB"
    if [[ $durable != durable ]]; then
        opts+=" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    fi
    echo "$opts" > "$dir/server.opts"
    launch "$dir"
}

launch() {
    as_server "$(bindir)/pg_ctl" -D "$1/data" -l "$1/server.log" -w -t 60 \
        -o "$(cat "$1/server.opts")" start > /dev/null ||
        { cat "$1/server.log" >&2; die "the server did not start"; }
}

pause() {
    as_server "$(bindir)/pg_ctl" -D "$1/data" -m fast -w stop > /dev/null
}

stop() {
    local dir=$1 bin
    if [[ -f $dir/data/postmaster.pid ]] && bin=$(bindir 2> /dev/null); then
        as_server "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop \
            > /dev/null 2>&1 || true
    fi
    rm -rf "$dir"
}

case ${1:-} in
    start) start "$2" "${3:-}" ;;
    stop) stop "$2" ;;
    pause) pause "$2" ;;
    resume) launch "$2" ;;
    url) echo "postgresql://comb@/${3:-postgres}?host=$2" ;;
    createdb) "$(bindir)/createdb" -h "$2" -U comb "$3" ;;
    *) die "usage: pgserver.sh start|stop|pause|resume|url|createdb DIR ..." ;;
esac
