#!/usr/bin/env bash
# Installs the HiveServer2 client of bench/server.sh (hive-driver, the
# version pinned in package-lock.json, as the server tests pin it) into DIR
# of the build tree (default build/rel/bench/server), with bench.js and the
# tests' client helpers (tests/server/hs2.js) next to it
# (tools/npm_setup.sh).  Without node, npm or the registry the bench says
# "hive-driver: not found" and still prints the embedded CLI's figures.
#   bench/server/setup.sh [DIR]
src=$(cd "$(dirname "$0")" && pwd)
exec "$src/../../tools/npm_setup.sh" "$src" "${1:-build/rel/bench/server}" hive-driver \
    "bench/server.sh gives the embedded CLI's figures only" bench.js ../../tests/server/hs2.js
