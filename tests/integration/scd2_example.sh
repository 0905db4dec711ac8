#!/usr/bin/env bash
# examples/scd2/run.sh (the zipper table over five days, on fewer users)
# passes every quality check, re-running day 3 gives the same rows, the
# trap template is refused with Hive's error and changes nothing, and the
# MERGE variant ends with the same rows as the partitioned variant.
set -u
cd "$(dirname "$0")/../.."
export COMB=${COMB:-$PWD/build/test/comb}
out=$(SCD2_USERS=${SCD2_USERS:-60} SCD2_SEED=${SCD2_SEED:-5} examples/scd2/run.sh 2>&1)
rc=$?
echo "$out"
((rc == 0)) || { echo "run.sh exited $rc"; exit 1; }
! grep -q ' FAIL ' <<< "$out" || { echo "a check failed"; exit 1; }
need=(no_overlapping_intervals one_open_row_per_live_key is_current_iff_open
      change_closes_and_opens_same_day history_carried rows_as_generator_expects
      rerun_sorted_rows_identical rerun_gives_identical_rows trap_refused
      trap_left_partitions_alone trap_left_rows_alone
      merge_same_current_rows merge_same_history)
for check in "${need[@]}"; do
    grep -qE "^  $check +ok " <<< "$out" || { echo "check $check did not pass"; exit 1; }
done
# 6 days of checks (5 + the re-run of day 3)
n=$(grep -cE '^  no_overlapping_intervals +ok ' <<< "$out")
((n == 6)) || { echo "no_overlapping_intervals passed $n times, want 6"; exit 1; }
grep -qE '^  trap_refused +ok .*Schema of both sides of union should match' <<< "$out" ||
    { echo "the trap was not refused with Hive's text"; exit 1; }
echo ok
