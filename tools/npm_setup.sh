#!/usr/bin/env bash
# The npm packages a test or bench directory pins (its package.json and
# package-lock.json), installed with `npm ci` into DIR of the build tree,
# with the directory's scripts copied beside them; nothing goes into the
# source tree.  Installs again only when the lock file changed.  Without
# node, npm or the registry it says so (the caller's tests skip, its
# benches leave the peer out) and still succeeds.
#   tools/npm_setup.sh SRC DIR MODULE 'WITHOUT' [FILE...]
# SRC: the directory holding the package files and FILEs; MODULE: one of
# the packages, present once installed; WITHOUT: what is left out without
# them, for the message.
set -u
src=$1 dir=$2 module=$3 without=$4
shift 4
name=${src#"$(cd "$src/../.." && pwd)"/}
mkdir -p "$dir" || exit 0
for f in package.json package-lock.json "$@"; do cp "$src/$f" "$dir/"; done
if [[ -d $dir/node_modules/$module ]] &&
   cmp -s "$src/package-lock.json" "$dir/node_modules/.package-lock.json.installed"; then
    exit 0
fi
if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
    echo "$name/setup.sh: no node/npm; $without"
    exit 0
fi
if (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error > /dev/null); then
    cp "$src/package-lock.json" "$dir/node_modules/.package-lock.json.installed"
else
    echo "$name/setup.sh: npm ci failed; $without"
fi
exit 0
