#!/usr/bin/env bash
# Installs DuckDB (@duckdb/node-api, the version pinned in package-lock.json)
# for bench/load_bench and bench/tpch into DIR (a directory of the build
# tree, default build/rel/bench/duckdb), with load.mjs and tpch.mjs next to
# it (tools/npm_setup.sh).  Without npm or the registry, the benches say
# "DuckDB: not found" and still print comb's figures.
#   bench/duckdb/setup.sh [DIR]
src=$(cd "$(dirname "$0")" && pwd)
exec "$src/../../tools/npm_setup.sh" "$src" "${1:-build/rel/bench/duckdb}" \
    @duckdb/node-api "DuckDB is left out of load_bench" load.mjs tpch.mjs
