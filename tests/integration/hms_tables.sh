#!/usr/bin/env bash
# Tables and column statistics through `comb metastore` (issue 15), with
# the client generated from Hive's own interface as in hms_service.sh:
# tables created by the service (plain text, partitioned ACID, bucketed
# ACID, insert-only, external, every statistics type) are comb tables that
# comb's SQL describes, inserts into, updates, compacts and reads; create_table's
# refusals; alter (a column added, a rename moving the directory, a new
# location) and what comb cannot alter; statistics comb's ANALYZE wrote,
# read through the service, and statistics the service wrote, shown by
# comb's DESCRIBE FORMATTED until a write changes the files; drop with
# and without deleteData.  Skipped (exit 77) without the shared test data,
# the thrift compiler or node.  COMB_TEST_METASTORE: a metastore other than
# the warehouse's SQLite file (pg_hms_tables.sh).
set -u
. "$(dirname "$0")/lib/server.bash"
. "$(dirname "$0")/lib/hms.bash"
hms_client_setup
WH=$T/wh
MS=(${COMB_TEST_METASTORE:+--metastore "$COMB_TEST_METASTORE"})
mkdir -p "$WH"
# comb's SQL on the warehouse and the service's metastore, tab-separated
sql() { "$COMB" --warehouse "$WH" "${MS[@]}" --outputformat tsv -e "$1"; }
sql "SHOW DATABASES" > /dev/null || fail setup "no warehouse in $WH"

"$COMB" --warehouse "$WH" "${MS[@]}" metastore --port 0 > "$T/out" 2> "$T/err" &
PID=$!
wait_listening metastore "the service"
# rows without the header line
rows() { sql "$1" | tail -n +2; }
tables() { server_js hms_tables "$T/gen" "$PORT" "$@"; }
# the value of field $2 in DESCRIBE FORMATTED $1
described() {
    sql "DESCRIBE FORMATTED $1" | awk -F'\t' -v k="$2" '{ gsub(/ +$/, "", $1); gsub(/ +$/, "", $2) }
                                                             $1 == k { print $2 }'
}

tables create "$T/ext"
tables errors "$T/flagged"
[[ -d $T/flagged ]] || fail errors "an external table's directory went with it"
[[ -d $WH/acid && -d $WH/parts && -d $WH/plain && -d $T/ext ]] ||
    fail create "the directories: $(ls "$WH") $(ls -d "$T/ext")"

# comb's SQL on what the service made
sql "INSERT INTO acid VALUES (1, 'a'), (2, 'bb'), (3, NULL);
            UPDATE acid SET name = 'bb' WHERE id = 2;
            INSERT INTO parts PARTITION (day = 'd1') VALUES (10, 'x'), (20, 'y');
            INSERT INTO parts PARTITION (day = 'd2') VALUES (30, 'z');
            INSERT INTO plain VALUES (1, 'p');
            INSERT INTO mm VALUES (7);
            INSERT INTO ext VALUES (8)" > /dev/null || fail sql "comb's writes failed"
[[ $(rows "SELECT id, name FROM acid ORDER BY id" | tr '\n\t' ' :') == "1:a 2:bb 3:NULL " ]] ||
    fail sql "acid holds $(sql 'SELECT * FROM acid')"
[[ $(rows "SELECT sum(id) FROM parts WHERE day = 'd1'") == 30 ]] || fail sql "parts' d1"
[[ $(rows "SELECT a FROM mm") == 7 && $(rows "SELECT a FROM ext") == 8 ]] || fail sql "mm and ext"
ls "$WH/acid" | grep -q '^delete_delta_' || fail sql "acid's directory: $(ls "$WH/acid")"
ls "$WH/parts/day=d1" | grep -q '^delta_' || fail sql "parts' directory: $(ls "$WH/parts/day=d1")"
ls "$T/ext" | grep -q . || fail sql "ext wrote nothing into $T/ext"
sql "DESCRIBE acid" | grep -q $'^name *\tvarchar(10)' || fail sql "DESCRIBE acid: $(sql 'DESCRIBE acid')"
# comb's compactor compacts it like one of its own
sql "ALTER TABLE acid COMPACT 'major' AND WAIT" > /dev/null 2>&1 || fail sql "the compaction of acid"
ls "$WH/acid" | grep -q '^base_' || fail sql "no base after the compaction: $(ls "$WH/acid")"
[[ $(rows "SELECT id, name FROM acid ORDER BY id" | tr '\n\t' ' :') == "1:a 2:bb 3:NULL " ]] ||
    fail sql "acid after the compaction holds $(sql 'SELECT * FROM acid')"

tables alter "$T/ext2"
[[ ! -e $WH/plain && -d $WH/plain2 ]] || fail alter "the renamed directory: $(ls "$WH")"
[[ $(rows "SELECT id, name, extra FROM plain2" | tr '\t' ':') == "1:p:NULL" ]] ||
    fail alter "plain2 holds $(sql 'SELECT * FROM plain2')"
sql "INSERT INTO ext VALUES (9)" > /dev/null && ls "$T/ext2" | grep -q . ||
    fail alter "ext does not write into its new location"

sql "ANALYZE TABLE acid COMPUTE STATISTICS FOR COLUMNS" > /dev/null || fail stats "ANALYZE"
tables stats_read
tables stats_write
[[ $(described "typed l" min) == -5 && $(described "typed l" max) == 123456789012 ]] ||
    fail stats "DESCRIBE FORMATTED typed l: $(sql 'DESCRIBE FORMATTED typed l')"
[[ $(described "typed d" min) == -12.5 && $(described "typed d" max) == 999.99 &&
   $(described "typed d" num_nulls) == 1 && $(described "typed d" distinct_count) == 7 ]] ||
    fail stats "DESCRIBE FORMATTED typed d: $(sql 'DESCRIBE FORMATTED typed d')"
[[ $(described "typed dbl" max) == 1.0E10 && $(described "typed dt" max) == 2022-01-08 && $(described "typed b" num_trues) == 4 &&
   $(described "typed s" avg_col_len) == 6.25 && $(described "typed ts" min) == "1970-01-02 00:00:00" ]] ||
    fail stats "DESCRIBE FORMATTED typed: $(sql 'DESCRIBE FORMATTED typed dt; DESCRIBE FORMATTED typed ts')"
[[ $(described "parts PARTITION (day = 'd1') id" max) == 20 ]] ||
    fail stats "DESCRIBE FORMATTED parts d1: $(sql "DESCRIBE FORMATTED parts PARTITION (day = 'd1') id")"
# a write changes the files the statistics described: comb stops trusting them
sql "INSERT INTO typed (l) VALUES (1000)" > /dev/null || fail stats "the INSERT into typed"
[[ $(described "typed l" max) != 123456789012 ]] || fail stats "stale statistics after a write"

tables drop
[[ ! -e $WH/mm ]] || fail drop "mm's files were kept: $(ls "$WH/mm")"
ls "$WH/acid" | grep -q '^base_' || fail drop "acid's files went without deleteData"
ls "$T/ext2" | grep -q . || fail drop "the external table's files went"
[[ -z $(ls -A "$WH" | grep '^\.mm') ]] || fail drop "mm's files were left aside: $(ls -A "$WH")"
server_stop metastore
echo "hms_tables: ok"
