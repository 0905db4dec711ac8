#!/usr/bin/env bash
# Installs the server tests' HiveServer2 client (hive-driver, the version
# pinned in package-lock.json) into DIR, a directory of the build tree
# (default build/test/server), with the test scripts (hs2.js, client.js,
# concurrent.js, auth.js, bank.js, lifecycle.js, bigresult.js, the hms*.js
# ones) next to it (tools/npm_setup.sh).
# Without node, npm or the registry the server tests report themselves
# skipped.
#   tests/server/setup.sh [DIR]
src=$(cd "$(dirname "$0")" && pwd)
exec "$src/../../tools/npm_setup.sh" "$src" "${1:-build/test/server}" hive-driver \
    "the server tests will be skipped" hs2.js client.js concurrent.js auth.js bank.js \
    lifecycle.js hms.js hms_lib.js hms_tables.js hms_write.js bigresult.js \
    hms_locks.js hms_soak.js hms_hive.js
