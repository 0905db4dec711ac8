#!/usr/bin/env bash
# Fail when a source file includes a header of a layer above its own:
# dependencies point down the layer diagram (ARCHITECTURE.md), never up.
set -euo pipefail
cd "$(dirname "$0")/.."
# allowed includes per layer
declare -A allow=(
  [common]="common"
  [fs]="common fs"
  [orc]="common fs orc"
  [text]="common fs text"
  [acid]="common fs orc acid"
  [metastore]="common fs metastore"
  [sql]="common fs orc text acid metastore sql"
  [compactor]="common fs orc acid metastore compactor"
  [stream]="common fs orc acid metastore stream"
  [server]="common fs orc text acid metastore sql server"
  [cli]="common fs orc text acid metastore sql cli"
)
bad=0
for f in src/*/*.[ch]; do
  layer=${f#src/}; layer=${layer%%/*}
  while read -r inc; do
    target=${inc%%/*}
    [[ " ${allow[$layer]:-} " == *" $target "* ]] && continue
    echo "layer violation: $f includes \"$inc\" (layer $layer may use: ${allow[$layer]:-nothing})"
    bad=1
  done < <(grep -oE '^#include "[a-z_]+/[^"]+"' "$f" | sed -E 's/#include "(.*)"/\1/')
done
exit $bad
