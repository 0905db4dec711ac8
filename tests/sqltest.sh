#!/usr/bin/env bash
# SQL golden test runner: tests/sqltest.sh FILE.sql [--update]
#
# Runs FILE.sql against a fresh warehouse and compares everything printed
# (stdout and stderr, in order) with FILE.out.  Statements are echoed (-v).
# A line "-- @sh COMMAND" runs COMMAND in bash between statements, with
# $WH the warehouse directory and $COMB the binary; its output is part of
# the result (use it for directory listings and file dumps).  Each SQL
# chunk between @sh lines runs in a new comb process, so a test also checks
# that processes see each other's committed work (settings do not carry
# over from one chunk to the next).  The temporary directory's path is
# printed as $WH; SQL can name it as ${env:WH}.  COMB_SQLTEST_SH_WRAP, if
# set, is a command every @sh line runs under (the object-store run keeps
# a local copy of the warehouse with it).
# With --update (or UPDATE=1) the .out file is (re)written instead.
set -u
file=$1
mode=${2:-}
[[ ${UPDATE:-0} == 1 ]] && mode=--update
COMB=${COMB:-$(cd "$(dirname "$0")/.." && pwd)/build/test/comb}
export COMB
# the session's user (owners, grantors) the same on every machine
export USER=comb
WH=$(mktemp -d "${TMPDIR:-/tmp}/comb-sqltest.XXXXXX")
export WH
trap 'rm -rf "$WH"' EXIT
expected=${file%.sql}.out
actual=$WH/actual.out
chunk=$WH/chunk.sql

run_chunk() {
    if [[ -s $chunk ]]; then
        "$COMB" --warehouse "$WH/warehouse" -v < "$chunk" >> "$actual" 2>&1
        local rc=$?
        # a sanitizer report or crash is never an expected outcome
        if ((rc > 1)); then echo "comb exited with status $rc" >> "$actual"; fi
    fi
    : > "$chunk"
}

: > "$actual"
: > "$chunk"
while IFS= read -r line || [[ -n $line ]]; do
    if [[ $line == "-- @sh "* ]]; then
        run_chunk
        echo "$line" >> "$actual"
        (cd "$WH" && WH="$WH/warehouse" ${COMB_SQLTEST_SH_WRAP:-} bash -c "${line#-- @sh }") >> "$actual" 2>&1
    else
        printf '%s\n' "$line" >> "$chunk"
    fi
done < "$file"
run_chunk

# the temporary directory's name differs per run: shown as $WH
sed -i "s|$WH|\$WH|g" "$actual"

if [[ $mode == --update ]]; then
    cp "$actual" "$expected"
    echo "updated $expected"
    exit 0
fi
if [[ ! -f $expected ]]; then
    echo "missing $expected (run with --update to create it)"; cat "$actual"; exit 1
fi
diff -u "$expected" "$actual"
