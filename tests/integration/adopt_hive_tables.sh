#!/usr/bin/env bash
# Tables written by other engines (../shared/testdata/hive-acid-tables),
# adopted through SQL: each fixture is copied to a temporary directory,
# declared with CREATE TABLE ... LOCATION over the copy (columns from its
# expected.json), repaired with MSCK REPAIR TABLE (which seeds the table's
# write ids from what it finds), and read back: SELECT must return exactly
# the fixture's expected rows and ROW__IDs, in ROW__ID order, and the
# computed numRows must agree.  Before MSCK the adopted ACID data must stay
# invisible and writes must be refused.  Skipped (exit 77) without the
# shared test data.
set -eu
DATA=${COMB_TESTDATA:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/testdata}/hive-acid-tables
if [[ ! -d $DATA ]]; then
    echo "no shared test data at $DATA"
    exit 77
fi
BASE=$(mktemp -d)
trap 'rm -rf "$BASE"' EXIT
WH=$BASE/wh
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
rows() { c -e "$1" | tail -n +2; }
fail() { echo "$*"; exit 1; }

# items KEY INDENT FILE: the items of the last array "KEY": [ at that
# indentation, one per line as expected.json writes them
items() {
    awk -v first="$2\"$1\": [" -v last="$2]" '
        $0 == first { on = 1; n = 0; next }
        on && ($0 == last || $0 == last ",") { on = 0; next }
        on { sub(/^ +/, ""); sub(/,$/, ""); item[n++] = $0 }
        END { for (i = 0; i < n; i++) print item[i] }' "$3"
}

# A SELECT printing each row as expected.json writes it, "[v, "s", ...]",
# then its ROW__ID as "[writeid, bucket, rowid]", in ROW__ID order.
json_select() {  # table col:kind...
    local t=$1 expr="'['" sep=""
    shift
    for cs in "$@"; do
        local col=${cs%%:*} kind=${cs#*:}
        if [[ $kind == s ]]; then
            expr+=", '$sep\"', $col, '\"'"
        else
            expr+=", '$sep', $col"
        fi
        sep=", "
    done
    echo "SELECT concat($expr, ']'), concat('[', ROW__ID.writeid, ', ',
          ROW__ID.bucketid, ', ', ROW__ID.rowid, ']') FROM $t
          ORDER BY ROW__ID.writeid, ROW__ID.bucketid, ROW__ID.rowid"
}

# adopt NAME DIR COLUMNS: copy fixture DIR, declare table NAME over it
adopt() {
    cp -r "$DATA/$2" "$BASE/$1"
    c -e "CREATE TABLE $1 ($3) STORED AS ORC LOCATION '$BASE/$1'
          TBLPROPERTIES ('transactional'='true')" > /dev/null 2>&1
}

# check NAME JSON INDENT COLS...: rows and ids as expected.json says
check() {
    local t=$1 json=$2 indent=$3 got want
    shift 3
    got=$(rows "$(json_select "$t" "$@")")
    want=$(paste <(items rows "$indent" "$json") <(items row_ids "$indent" "$json"))
    [[ $got == "$want" ]] || {
        diff <(echo "$want") <(echo "$got") | head -20
        fail "$t: rows differ from $json"
    }
    local n
    n=$(rows "SHOW TBLPROPERTIES $t('numRows')" | cut -f2)
    [[ $n == $(printf '%s' "$want" | grep -c '') ]] || fail "$t: numRows $n"
}

NATION="n_nationkey INT, n_name STRING, n_regionkey INT, n_comment STRING"
NATION_COLS=(n_nationkey:i n_name:s n_regionkey:i n_comment:s)
DUMMY="id INT, data STRING, comment STRING"
DUMMY_COLS=(id:i data:s comment:s)

# 1. base data, two delete deltas: invisible until MSCK, no writes either
adopt nation25k trino_nation_25k_delete_deltas "$NATION"
[[ $(rows "SELECT count(*) FROM nation25k") == 0 ]] || fail "visible before MSCK"
out=$(c -e "INSERT INTO nation25k VALUES (1, 'x', 1, 'y')" 2>&1) && fail "insert before MSCK ran: $out"
[[ $out == *"holds ACID data written elsewhere (write ids up to 4 in '$BASE/nation25k')"* ]] \
    || fail "insert before MSCK: $out"
c -e "MSCK REPAIR TABLE nation25k"
check nation25k "$DATA/trino_nation_25k_delete_deltas/expected.json" "  " "${NATION_COLS[@]}"
# the seeded table goes on at write id 5
c -e "INSERT INTO nation25k VALUES (99, 'NEW', 0, 'c')"
[[ $(rows "SELECT ROW__ID.writeid FROM nation25k WHERE n_nationkey = 99") == 5 ]] \
    || fail "write after MSCK did not get write id 5"

# 2. an original file and a delete delta of write 10000001 on it
adopt nation_orig trino_nation_original_file_delete "$NATION"
[[ $(rows "SELECT count(*) FROM nation_orig") == 25 ]] || fail "originals before MSCK"
c -e "MSCK REPAIR TABLE nation_orig"
check nation_orig "$DATA/trino_nation_original_file_delete/expected.json" "  " "${NATION_COLS[@]}"

# 3. five originals across three buckets, one delete
adopt dummy trino_dummy_id_original_files_delete "$DUMMY"
c -e "MSCK REPAIR TABLE dummy"
check dummy "$DATA/trino_dummy_id_original_files_delete/expected.json" "  " "${DUMMY_COLS[@]}"

# 4. only delete deltas: nothing to read
adopt deletes_only trino_delete_deltas_only "col INT"
c -e "MSCK REPAIR TABLE deletes_only"
[[ -z $(rows "SELECT col FROM deletes_only") ]] || fail "deletes_only has rows"
[[ $(rows "SHOW TBLPROPERTIES deletes_only('numRows')" | cut -f2) == 0 ]] || fail "deletes_only numRows"

# 5. an ACID file where originals go: its write id comes from the file
adopt hive3 trino_acid_version_hive3_file "a BIGINT"
[[ -z $(rows "SELECT a FROM hive3") ]] || fail "hive3 visible before MSCK"
c -e "MSCK REPAIR TABLE hive3"
check hive3 "$DATA/trino_acid_version_hive3_file/expected.json" "  " a:i

# 6. a plain ORC file: an original with synthetic ROW__IDs
adopt plain trino_no_acid_version_in_metadata "$DUMMY"
c -e "MSCK REPAIR TABLE plain"
check plain "$DATA/trino_no_acid_version_in_metadata/expected.json" "    " "${DUMMY_COLS[@]}"

# 7. Impala's streaming delta: Hive reads only bucket files in a delta, so
#    as the fixture lays it out (streaming.orc) nothing is read; named as
#    Hive Streaming names it, both write ids of the one file read
adopt streaming impala_streaming_delta_1_2 "a STRING, b STRING"
c -e "MSCK REPAIR TABLE streaming"
[[ -z $(rows "SELECT a FROM streaming") ]] || fail "streaming.orc was read"
mv "$BASE/streaming/delta_1_2/streaming.orc" "$BASE/streaming/delta_1_2/bucket_00000"
check streaming "$DATA/impala_streaming_delta_1_2/expected.json" "      " a:s b:s

# 8. the full ACID schema without ACID metadata, at the table root
adopt noversion impala_full_acid_schema_no_version "i INT"
c -e "MSCK REPAIR TABLE noversion"
check noversion "$DATA/impala_full_acid_schema_no_version/expected.json" "  " i:i

# 9. ORC's acid5k.orc: read as the bucket file of delta 12, as its README
#    says (at the root its name is no data file's)
adopt acid5k orc_acid5k_single_file "i INT, j INT, k INT"
c -e "MSCK REPAIR TABLE acid5k"
[[ -z $(rows "SELECT i FROM acid5k") ]] || fail "acid5k.orc read at the root"
mkdir "$BASE/acid5k/delta_0000012_0000012_0000"
mv "$BASE/acid5k/acid5k.orc" "$BASE/acid5k/delta_0000012_0000012_0000/bucket_00000"
c -e "MSCK REPAIR TABLE acid5k"
got=$(rows "$(json_select acid5k i:i j:i k:i)")
want=$(paste <(items rows "  " "$DATA/orc_acid5k_single_file/expected.json") \
             <(seq 0 4999 | sed 's/.*/[12, 536870912, &]/'))
[[ $got == "$want" ]] || { diff <(echo "$want") <(echo "$got") | head; fail "acid5k rows"; }
[[ $(rows "SELECT sum(i), sum(j), sum(k) FROM acid5k") == $'2494802\t2461178\t2539635' ]] \
    || fail "acid5k sums"

# the shared data is untouched
[[ -e $DATA/impala_streaming_delta_1_2/delta_1_2/streaming.orc &&
   -e $DATA/orc_acid5k_single_file/acid5k.orc ]] || fail "shared data changed"
echo ok
