#!/usr/bin/env bash
# Installs the object-store tests' npm packages (s3rver, aws4: the versions
# pinned in package-lock.json) into DIR, a directory of the build tree
# (default build/test/s3), with server.mjs next to them.  Nothing is
# installed into the source tree.  Without node, npm or the registry the
# S3 tests report themselves skipped.
#   tests/s3/setup.sh [DIR]
set -u
src=$(cd "$(dirname "$0")" && pwd)
dir=${1:-build/test/s3}
mkdir -p "$dir" || exit 0
cp "$src/package.json" "$src/package-lock.json" "$src/server.mjs" "$dir/"
if [[ -d $dir/node_modules/s3rver && -d $dir/node_modules/aws4 ]] &&
   cmp -s "$src/package-lock.json" "$dir/node_modules/.package-lock.json.installed"; then
    exit 0
fi
if ! command -v npm > /dev/null || ! command -v node > /dev/null; then
    echo "tests/s3/setup.sh: no node/npm; the object-store tests will be skipped"
    exit 0
fi
if (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error > /dev/null); then
    cp "$src/package-lock.json" "$dir/node_modules/.package-lock.json.installed"
else
    echo "tests/s3/setup.sh: npm ci failed; the object-store tests will be skipped"
fi
exit 0
