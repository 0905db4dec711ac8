#!/usr/bin/env bash
# Installs DuckDB (@duckdb/node-api, the version pinned in package-lock.json)
# for bench/load_bench and bench/tpch into DIR (a directory of the build tree, default
# build/rel/bench/duckdb), with load.mjs and tpch.mjs next to it.  Nothing is installed
# into the source tree.  Without npm or the registry, load_bench says
# "DuckDB: not found" and still prints comb's figures.
#   bench/duckdb/setup.sh [DIR]
set -u
src=$(cd "$(dirname "$0")" && pwd)
dir=${1:-build/rel/bench/duckdb}
mkdir -p "$dir" || exit 0
cp "$src/package.json" "$src/package-lock.json" "$src/load.mjs" "$src/tpch.mjs" "$dir/"
if [[ -d $dir/node_modules/@duckdb/node-api ]] &&
   cmp -s "$src/package-lock.json" "$dir/node_modules/.package-lock.json.installed"; then
    exit 0
fi
if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
    echo "bench/duckdb/setup.sh: no node/npm; DuckDB is left out of load_bench"
    exit 0
fi
if (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null); then
    cp "$src/package-lock.json" "$dir/node_modules/.package-lock.json.installed"
else
    echo "bench/duckdb/setup.sh: npm ci failed; DuckDB is left out of load_bench"
fi
exit 0
