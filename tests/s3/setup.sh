#!/usr/bin/env bash
# Installs the object-store tests' npm packages (s3rver, aws4: the versions
# pinned in package-lock.json) into DIR, a directory of the build tree
# (default build/test/s3), with server.mjs and mirror.mjs next to them
# (tools/npm_setup.sh).  Without node, npm or the registry the S3 tests
# report themselves skipped.
#   tests/s3/setup.sh [DIR]
src=$(cd "$(dirname "$0")" && pwd)
exec "$src/../../tools/npm_setup.sh" "$src" "${1:-build/test/s3}" s3rver \
    "the object-store tests will be skipped" server.mjs mirror.mjs
