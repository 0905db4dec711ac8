#!/usr/bin/env bash
# Fail when a source file includes a header of a layer above its own:
# dependencies point down the layer diagram (ARCHITECTURE.md), never up.
# Inside sql/ the same holds between its parts (src/sql/README.md):
# parse < func < plan < exec < ddl and the top (session.c).
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
  [rpc]="common rpc"
  [sql]="common fs orc text acid metastore compactor sql"
  [compactor]="common fs orc acid metastore compactor"
  [stream]="common fs orc acid metastore stream"
  [server]="common fs orc text acid metastore rpc compactor sql server"
  [hms]="common fs metastore rpc hms"
  [cli]="common fs orc text acid metastore hms compactor stream sql server cli"
)
# The parts of sql/ (its sub-folders), lowest first.  A part may include
# the headers of the parts up to itself and the core (sql/sql_int.h and
# sql/session.h: the layer's shared record and its API); parse/ only its
# own.  ddl/ and the files at the top of sql/ may include all of sql/.
sql_parts="parse func plan exec ddl"
declare -A sql_allow=()
acc="core"
for p in $sql_parts; do acc+=" $p"; sql_allow[$p]=$acc; done
sql_allow[top]=$acc
sql_allow[parse]="parse"
# parse/ is the one part that uses nothing of the layers below but common/
# (and of sql/ nothing but parse/, by sql_allow).
declare -A sql_layers=([parse]="common sql")

bad=0
fail() { echo "$1"; bad=1; }

# The part of sql/ an included sql/... header belongs to ("core" for the
# files at the top of sql/), or "?" for a folder that is no part.
sql_part_of() {
  local rest=${1#sql/}
  if [[ $rest != */* ]]; then echo core; return; fi
  local part=${rest%%/*}
  [[ " $sql_parts " == *" $part "* ]] && echo "$part" || echo "?"
}

# "core parse" -> "sql/sql_int.h sql/session.h sql/parse/", for messages.
sql_paths() {
  local p out=""
  for p in $1; do
    [[ $p == core ]] && out+=" sql/sql_int.h sql/session.h" || out+=" sql/$p/"
  done
  echo "${out# }"
}

while read -r f; do
  layer=${f#src/}; layer=${layer%%/*}
  part=""
  if [[ $layer == sql ]]; then
    part=$(sql_part_of "${f#src/}")
    [[ $part == core ]] && part=top
    if [[ $part == "?" ]]; then
      fail "sql part violation: $f is in a folder that is no part of sql (parts: $sql_parts; add it to tools/check_layers.sh and src/sql/README.md)"
      continue
    fi
  fi
  layers=${allow[$layer]:-}
  what="layer $layer"
  if [[ -n $part && -n ${sql_layers[$part]:-} ]]; then
    layers=${sql_layers[$part]}; what="sql part $part"
  fi
  while read -r inc; do
    if [[ ! $inc =~ ^[a-z_]+/ || $inc == *..* ]]; then
      fail "include violation: $f includes \"$inc\" (write includes as paths from src/, e.g. \"sql/func/expr.h\")"
      continue
    fi
    target=${inc%%/*}
    if [[ " $layers " != *" $target "* ]]; then
      fail "layer violation: $f includes \"$inc\" ($what may use: ${layers:-nothing})"
      continue
    fi
    [[ -z $part || $target != sql ]] && continue
    tpart=$(sql_part_of "$inc")
    if [[ " ${sql_allow[$part]} " != *" $tpart "* ]]; then
      fail "sql part violation: $f includes \"$inc\" (sql part $part may use: $(sql_paths "${sql_allow[$part]}"))"
    fi
  done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
           sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1/')
done < <(find src -name '*.[ch]' | sort)
exit $bad
