#!/usr/bin/env bash
# tools/orc_crosscheck.sh - check comb's ORC files with Apache ORC C++.
#
#   ORC_TOOLS=/work/orc-cpp/build/tools/src tools/orc_crosscheck.sh [OPTIONS]
#
# Makes a warehouse of tables of every column type comb has, in full-ACID,
# insert-only and plain tables with every codec comb writes (orc.compress),
# small stripes (orc.stripe.size) and UPDATE / DELETE / INSERT OVERWRITE,
# and compares, value by value, what ORC C++'s orc-contents reads from each
# file with comb's orcfiledump -d and comb's SELECT; statistics of every
# column, stripe and file between orc-statistics, comb orcfiledump and the
# rows; codec, counts and the ACID key index with orc-metadata.  Then the
# other way round: files written by ORC C++'s csv-import (three writer
# zones) read by comb.  comb's tables have a row index (stride 1000, 8 KiB
# chunks) and bloom filters on their primitive columns: orc-metadata must
# list them and tools/orc_index_check.cc (built here against the ORC C++
# library of $ORC_TOOLS/../..) runs ORC C++'s seekToRow into every row
# group and search-argument scans through them.  Prints a summary; exit
# status 1 on a mismatch.
#
# OPTIONS (tools/orc_crosscheck.py --help): --rows N (5000), --seed N,
# --codecs NONE,ZLIB,SNAPPY,LZ4,ZSTD, --stripe-size BYTES (65536), --keep
# (keep the warehouse), --show N (mismatches listed per check).
# COMB=path picks the comb binary (default build/rel/comb).
#
# ORC_TOOLS is a directory with orc-contents, orc-metadata, orc-statistics
# and csv-import; tools/README.md says how /work/orc-cpp was built.
# tools/stream_crosscheck.sh runs through here with CROSSCHECK=stream_crosscheck
# (the same tools, comb and orc_index_check; its own Python script).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
name=${CROSSCHECK:-orc_crosscheck}
for t in orc-contents orc-metadata orc-statistics csv-import; do
    if [[ -z ${ORC_TOOLS:-} || ! -x ${ORC_TOOLS}/$t ]]; then
        echo "Apache ORC tools not found (set ORC_TOOLS)"
        echo "$name: skipped (no ${ORC_TOOLS:+$ORC_TOOLS/}$t)"
        exit 0
    fi
done
comb=${COMB:-$root/build/rel/comb}
if [[ ! -x $comb ]]; then
    echo "$name: no comb binary at $comb (run make, or set COMB)" >&2
    exit 1
fi
command -v python3 >/dev/null || { echo "$name: python3 is needed" >&2; exit 1; }
# tools/orc_index_check.cc against the ORC C++ library of that build (its
# CMake cache names the source tree): ORC C++'s own seeks and search
# arguments over comb's row indexes and bloom filters
build=$(cd "$ORC_TOOLS/../.." && pwd)
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt" 2>/dev/null)
check=()
if [[ -n $src && -f $build/c++/src/liborc.a ]] && command -v g++ >/dev/null; then
    bin=$(mktemp -d)/orc_index_check
    if g++ -std=c++17 -O1 -I"$src/c++/include" -I"$build/c++/include" \
            "$here/orc_index_check.cc" "$build/c++/src/liborc.a" \
            -lprotobuf -lsnappy -lzstd -llz4 -lz -lpthread -o "$bin"; then
        check=(--index-check "$bin")
    else
        echo "$name: orc_index_check did not build; ORC C++'s seeks not tried" >&2
    fi
fi
exec python3 "$here/$name.py" --comb "$comb" --tools "$ORC_TOOLS" "${check[@]}" "$@"
