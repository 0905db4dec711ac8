#!/usr/bin/env bash
# `comb stream` from the command line (issue 12): CSV, TSV and JSON records
# into a table, static and dynamic partitions, the commit policy (rows,
# interval on a quiet pipe, end of input, SIGTERM), bad records (wrong
# field count, a bad value: the line and column named, the current txn
# aborted and nothing of it visible, what was committed before stays),
# --on-error skip, and the argument errors, each compared with the exact
# message.
set -u
WH=$(mktemp -d)
pid=
trap '[[ -n $pid ]] && kill -9 "$pid" 2>/dev/null; rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH/w" --outputformat tsv "$@"; }
s() { "$COMB" --warehouse "$WH/w" stream "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
# want NAME GOT WANT
want() { [[ $2 == "$3" ]] || fail "$1: got
$2
want
$3"; }

c -e "CREATE TABLE t (id INT, name STRING, amount DECIMAL(10,2), ts TIMESTAMP)
        CLUSTERED BY (id) INTO 2 BUCKETS TBLPROPERTIES ('transactional'='true');
      CREATE TABLE p (id INT, v STRING) PARTITIONED BY (day STRING, h INT)
        TBLPROPERTIES ('transactional'='true')" > /dev/null || fail setup

# --- CSV with quotes, NULLs; the summary line
printf '1,ann,1.50,2021-01-05 10:00:00\n2,"b,""o""b",,\n3,,-7,2021-01-06 00:00:00' |
    s --table t > "$WH/out" 2> "$WH/err" || fail "csv ingest: $(cat "$WH/err")"
want "csv summary" "$(cat "$WH/err")" \
    "comb stream: 3 rows written, 0 deleted by key, in 1 txns committed to default.t"
want "csv rows" "$(c -e "SELECT * FROM t ORDER BY id")" "t.id	t.name	t.amount	t.ts
1	ann	1.50	2021-01-05 10:00:00
2	b,\"o\"b	NULL	NULL
3	NULL	-7.00	2021-01-06 00:00:00"

# --- JSON, names in any case, missing members NULL; --commit-rows 2 makes
# two txns of three rows
printf '{"ID":10,"Name":"x"}\n\n{"id":11,"amount":"2.5","extra":[1]}\n{"id":12}\n' |
    s --table default.t --format json --commit-rows 2 2> "$WH/err" || fail "json: $(cat "$WH/err")"
want "json summary" "$(cat "$WH/err")" \
    "comb stream: 3 rows written, 0 deleted by key, in 2 txns committed to default.t"
want "json rows" "$(c -e "SELECT id, name, amount FROM t WHERE id >= 10 ORDER BY id")" "id	name	amount
10	x	NULL
11	NULL	2.50
12	NULL	NULL"

# --- a bad value: the txn with it aborts; earlier committed txns stay
seq 100 105 | awk '{print $1 ",n" $1 ",1,"}' > "$WH/bad.csv"
echo '106,n106,x1,' >> "$WH/bad.csv"
echo '107,n107,1,' >> "$WH/bad.csv"
s --table t --commit-rows 4 --quiet < "$WH/bad.csv" 2> "$WH/err"; rc=$?
want "bad value status" "$rc" 1
want "bad value message" "$(cat "$WH/err")" \
"comb stream: line 7: column amount: 'x1' is not a DECIMAL(10,2)
comb stream: 4 rows written, 0 deleted by key, in 1 txns committed to default.t (the last txn aborted)"
want "bad value rows" "$(c -e "SELECT count(*), min(id), max(id) FROM t WHERE id >= 100" | tail -1)" "4	100	103"

# --- wrong field count
printf '200,a,1,\n201,b\n' | s --table t --quiet 2> "$WH/err"; rc=$?
want "field count status" "$rc" 1
want "field count message" "$(head -1 "$WH/err")" \
    "comb stream: line 2: 2 fields, expected 4 (id, name, amount, ts)"
want "field count rows" "$(c -e "SELECT count(*) FROM t WHERE id >= 200" | tail -1)" 0

# --- --on-error skip: bad records left out and listed
printf '300,a,1,\n301,b\n302,c,zz,\n303,"d,1,\n' |
    s --table t --on-error skip 2> "$WH/err" || fail "skip: $(cat "$WH/err")"
want "skip messages" "$(cat "$WH/err")" \
"comb stream: skipped: line 2: 2 fields, expected 4 (id, name, amount, ts)
comb stream: skipped: line 3: column amount: 'zz' is not a DECIMAL(10,2)
comb stream: skipped: line 4: field 2: a quoted field does not end (a '\"' is missing)
comb stream: 3 records skipped (lines 2, 3, 4)
comb stream: 1 rows written, 0 deleted by key, in 1 txns committed to default.t"
want "skip rows" "$(c -e "SELECT id FROM t WHERE id >= 300" | tail -n +2)" 300

# --- TSV, a custom delimiter, CSV with ';'
printf '400\tt\\tab\t\\N\t\\N\n' | s --table t --format tsv --quiet || fail tsv
printf '401|p\\|ipe|3|\n' | s --table t --delimiter '|' --quiet || fail delimited
printf '402;"x;1";2,5;\n' | s --table t --format csv --delimiter ';' --quiet 2> "$WH/err"; rc=$?
want "csv ; value" "$rc:$(head -1 "$WH/err")" "1:comb stream: line 1: column amount: '2,5' is not a DECIMAL(10,2)"
printf '402;"x;1";2.5;\n' | s --table t --format csv --delimiter ';' --quiet || fail "csv with ;"
s --table t --format delimited < /dev/null 2> "$WH/err"; rc=$?
want "delimited without delimiter" "$rc:$(head -1 "$WH/err")" "2:comb stream: --format delimited needs --delimiter"
want "tsv rows" "$(c -e "SELECT id, name, amount FROM t WHERE id >= 400 ORDER BY id" | tail -n +2)" "400	t	ab	NULL
401	p|ipe	3.00
402	x;1	2.50"

# --- a UTF-8 byte-order mark before the first record is dropped
printf '\xef\xbb\xbf600,bom,1,\n' | s --table t --quiet || fail "a BOM"
want "bom row" "$(c -e "SELECT name FROM t WHERE id = 600" | tail -1)" bom

# --- static and dynamic partitions
printf '1,a\n2,b\n' | s --table p --partition h=3,day=d1 --quiet || fail static
printf '3,c,d2,4\n4,d,d1,3\n' | s --table p --quiet || fail dynamic
want "partitions" "$(c -e "SELECT id, v, day, h FROM p ORDER BY id" | tail -n +2)" "1	a	d1	3
2	b	d1	3
3	c	d2	4
4	d	d1	3"
printf '5,e\n' | s --table p --partition day=d1 2> "$WH/err"; rc=$?
want "partition missing key" "$rc:$(cat "$WH/err")" \
    "1:comb stream: --partition: no value for key h (dynamic partitioning: leave --partition out)"

# --- the interval commits a quiet pipe's rows before its end; SIGTERM
# commits the rest and exits 0 (a record without its line end yet is
# not written, and said so)
mkfifo "$WH/fifo"
"$COMB" --warehouse "$WH/w" stream --table t --input "$WH/fifo" --commit-interval 0.3 --quiet 2> "$WH/err" &
pid=$!
exec 3> "$WH/fifo"
echo '500,live,1,' >&3
n=0
until [[ $(c -e "SELECT count(*) FROM t WHERE id = 500" | tail -1) == 1 ]]; do
    sleep 0.2; n=$((n + 1))
    ((n < 100)) || fail "the interval did not commit: $(cat "$WH/err")"
done
echo '501,late,1,' >&3
printf '502,par' >&3
sleep 0.3
kill -TERM "$pid"
wait "$pid"; rc=$?
pid=
exec 3>&-
want "sigterm status" "$rc" 0
want "sigterm rows" "$(c -e "SELECT id FROM t WHERE id BETWEEN 500 AND 599 ORDER BY id" | tail -n +2)" "500
501"
want "sigterm message" "$(cat "$WH/err")" \
    "comb stream: the incomplete record of line 3 (7 bytes, no line end yet) was not written"

# --- argument errors
s --format xml --table t 2> "$WH/err" < /dev/null; rc=$?
want "bad format" "$rc:$(head -1 "$WH/err")" "2:comb stream: unknown format: 'xml'"
s < /dev/null 2> "$WH/err"; rc=$?
want "no table" "$rc:$(head -1 "$WH/err")" "2:comb stream: --table is required"
s --table t --op-column op < /dev/null 2> "$WH/err"; rc=$?
want "op without key" "$rc:$(head -1 "$WH/err")" \
    "2:comb stream: --op-column needs --upsert-key (deletes are by key)"
s --table nosuch < /dev/null 2> "$WH/err"; rc=$?
want "no such table" "$rc" 1
s --table t --commit-rows 0 < /dev/null 2> "$WH/err"; rc=$?
want "commit rows 0" "$rc:$(head -1 "$WH/err")" "2:comb stream: --commit-rows takes a count from 1: '0'"
echo ok
