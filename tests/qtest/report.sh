#!/usr/bin/env bash
# How far comb gets through each of Hive's ACID .q tests: statements run and
# matched per file.  Usage: tests/qtest/report.sh [BUILD_DIR]
cd "$(dirname "$0")/../.."
BUILD=${1:-build/test}
DATA=${COMB_TESTDATA:-$PWD/../shared/testdata}
for q in "$DATA"/hive-qtests/*.q; do
    "$BUILD/tests/qtest" "$q" 2>/dev/null | tail -1 | sed "s|$DATA/hive-qtests/||"
done
