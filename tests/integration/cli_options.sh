#!/usr/bin/env bash
# Global options come before a subcommand (comb --warehouse W orcfiledump
# -d F), the subcommand's own options after it; a stray argument, or -e/-f
# mixed with a subcommand, is refused with exit status 2.
set -u
BASE=$(mktemp -d)
trap 'rm -rf "$BASE"' EXIT
WH=$BASE/wh
fail() { echo "$*"; exit 1; }
"$COMB" --warehouse "$WH" -e "CREATE TABLE t (a INT, s STRING) TBLPROPERTIES ('transactional'='true');
    INSERT INTO t VALUES (7, 'x')" || fail "setup failed"
f=$(find "$WH" -name 'bucket_*' | head -1)
[[ -n $f ]] || fail "no bucket file"
want='{"operation":0,"originalTransaction":1,"bucket":536870912,"rowId":0,"currentTransaction":1,"row":{"a":7,"s":"x"}}'
got=$("$COMB" --warehouse "$WH" --hiveconf a=b orcfiledump -d "$f") || fail "global options before orcfiledump: exit $?"
[[ $got == "$want" ]] || fail "with options: $got"
got=$("$COMB" orcfiledump -d "$f") || fail "orcfiledump alone: exit $?"
[[ $got == "$want" ]] || fail "alone: $got"
"$COMB" --warehouse "$WH" orcfiledump "$f" | grep -q '^Rows: 1$' || fail "metadata dump"
# refusals: exit 2 and a message naming the problem
out=$("$COMB" --warehouse "$WH" nosuch 2>&1); rc=$?
[[ $rc == 2 && $out == *"unexpected argument 'nosuch'"* ]] || fail "stray argument: $rc $out"
out=$("$COMB" -e "SELECT 1" orcfiledump "$f" 2>&1); rc=$?
[[ $rc == 2 && $out == *"cannot be used with orcfiledump"* ]] || fail "-e with subcommand: $rc $out"
out=$("$COMB" --warehouse "$WH" orcfiledump 2>&1); rc=$?
[[ $rc == 2 && $out == *"usage: comb orcfiledump"* ]] || fail "orcfiledump without a path: $rc $out"
# options after -e still parse; SQL runs against the given warehouse
got=$("$COMB" -e "SELECT a FROM t" --outputformat tsv --warehouse "$WH") || fail "options after -e"
[[ $got == $'a\n7' ]] || fail "select: $got"
echo ok
