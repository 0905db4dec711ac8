#!/usr/bin/env bash
# tools/stream_crosscheck.sh - check the files `comb stream` writes with
# Apache ORC C++'s tools, while the batches are open and after close.
#
#   ORC_TOOLS=/work/orc-cpp/build/tools/src tools/stream_crosscheck.sh [OPTIONS]
#
# Streams CSV records of every column type the stream takes through `comb
# stream` into a table with dynamic partitions, a bucketed one and an
# upsert one (delete deltas), for every orc.compress codec, a few txns per
# batch.  While a batch is open, each streaming file cut at every committed
# length of its _flush_length side file must read, in orc-contents and
# orc-metadata, as exactly the rows committed by then (and as comb
# orcfiledump reads it); after close every file and table goes through
# orc_crosscheck's checks, and the layout is compared with Hive's own
# streaming file (../shared/testdata/hive-acid-tables).  Exit status 1 on
# a mismatch; without ORC_TOOLS it skips (exit 0).
#
# OPTIONS (tools/stream_crosscheck.py --help): --rows N (1200 per table),
# --commit-rows N (150), --batch-size N (3), --codecs LIST, --shapes
# part,bucket,upsert, --seed N, --keep, --show N.  COMB=path picks comb.
CROSSCHECK=stream_crosscheck exec "$(dirname "$0")/orc_crosscheck.sh" "$@"
