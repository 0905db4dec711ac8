#!/usr/bin/env bash
# fs/'s object-store side (tests/unit/fs/test_s3.c) against an S3 server
# started here (tests/s3/server.mjs, every request's signature checked),
# in the ASan build and in the ThreadSanitizer one.
set -u
. "$(dirname "$0")/lib/s3.bash"
s3_start unit
trap 'rc=$?; s3_stop || rc=1; exit $rc' EXIT
out=$(COMB_TEST_S3_BUCKET=unit "$(dirname "$COMB")/tests/unit_fs" s3_ 2>&1)
rc=$?
echo "$out"
grep -q '^skip' <<< "$out" && { echo "FAIL: a test skipped with a server running"; exit 1; }
((rc == 0)) || exit $rc
# and under ThreadSanitizer (the prefetch threads and the cache); make
# test builds it (MODE=tsan)
tsan=${TSAN_BUILD:-$(dirname "$COMB")/../tsan}/tests/fs_s3_threads
[[ -x $tsan ]] || { echo "FAIL: no $tsan (make MODE=tsan $tsan)"; exit 1; }
out=$(COMB_TEST_S3_BUCKET=unit "$tsan" s3_ 2>&1)
rc=$?
echo "$out" | tail -3
((rc == 0)) || { echo "$out"; exit $rc; }
# the big file went up in parts, and 1003 keys were removed in two batches
parts=$(s3_stats kinds.put_part) completes=$(s3_stats kinds.mpu_complete)
batches=$(s3_stats kinds.delete_many)
echo "parts $parts, completed uploads $completes, DeleteObjects $batches"
((parts >= 3 && completes >= 1 && batches >= 2)) || { echo "FAIL: counts"; exit 1; }
