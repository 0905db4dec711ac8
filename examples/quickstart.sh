#!/usr/bin/env bash
# Run examples/quickstart.sql step by step on an embedded warehouse
# (./demo-warehouse), printing the rows and the table's directories on disk
# after each step.  Usage: examples/quickstart.sh [COMB_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
COMB=${1:-build/rel/comb}
WH=${DEMO_WAREHOUSE:-demo-warehouse}
rm -rf "$WH"
step() {
    local title=$1 sql=$2
    echo
    echo "=== $title"
    "$COMB" --warehouse "$WH" -v -e "USE demo; $sql" 2>&1 | grep -v '^USE demo;$'
    echo "--- files under $WH/demo.db/customers:"
    if [[ -d $WH/demo.db/customers ]]; then
        (cd "$WH/demo.db/customers" && find . -mindepth 1 | sort | sed 's|^\./|    |')
    fi
}
title="create the database and the table"
sql=""
"$COMB" --warehouse "$WH" -e "CREATE DATABASE IF NOT EXISTS demo"
while IFS= read -r line; do
    if [[ $line == "-- @step "* ]]; then
        [[ -n $sql ]] && step "$title" "$sql"
        title=${line#-- @step }
        sql=""
    elif [[ $line != "--"* ]]; then
        sql+="$line"$'\n'
    fi
done < examples/quickstart.sql
step "$title" "$sql"
echo
echo "=== inside one delta file (comb orcfiledump -d)"
f=$(cd "$WH/demo.db/customers" && find . -path './delta_0000001_*' -name 'bucket_*' | sort | head -1)
"$COMB" orcfiledump -d "$WH/demo.db/customers/${f#./}"
echo
echo "The warehouse is in ./$WH (metastore: $WH/metastore.db)."
