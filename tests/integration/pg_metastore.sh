#!/usr/bin/env bash
# A PostgreSQL metastore shared by comb processes: chosen by --metastore or
# --hiveconf comb.metastore.url (--metastore wins; a running session cannot
# switch), nothing of it in the warehouse, passwords never printed; several
# processes at once creating partitions dynamically and adding the same
# ones; a server that stops fails statements with a message naming it and
# serves them again once back.
set -u
. "$(dirname "$0")/lib/pg.bash"
pg_start
WH=$(mktemp -d)
pg_cleanup() { rm -rf "$WH"; }
fail() { echo "$*"; exit 1; }
URL=$(pg_newdb shared)
# the same server with a password in the URL: trust authentication ignores
# it, so it must only never show
SECRET_URL=${URL/comb@/comb:s3cret@}
c() { "$COMB" --warehouse "$WH" --metastore "$URL" --outputformat tsv "$@"; }
c -e "CREATE TABLE t (id INT, v STRING) PARTITIONED BY (d STRING)
      TBLPROPERTIES ('transactional'='true')" || fail "setup"
[[ ! -e $WH/metastore.db ]] || fail "a SQLite metastore appeared in the warehouse"
# --hiveconf comb.metastore.url reaches the same metastore
got=$("$COMB" --warehouse "$WH" --hiveconf "comb.metastore.url=$SECRET_URL" \
      --outputformat tsv -e "SHOW TABLES; SET comb.metastore.url") || fail "hiveconf"
[[ $got == *$'\nt\n'* && $got != *s3cret* ]] || fail "through --hiveconf: $got"
[[ $got == *"comb.metastore.url=postgresql://comb@/shared?host=$PG_DIR"* ]] ||
    fail "SET shows: $got"
# --metastore wins; the SQLite default is untouched by all this
got=$("$COMB" --warehouse "$WH" --hiveconf comb.metastore.url=/nonexistent/x.db \
      --metastore "$URL" --outputformat tsv -e "SHOW TABLES") || fail "both given"
[[ $got == *t* ]] || fail "--metastore did not win: $got"
out=$(c -e "SET comb.metastore.url=$SECRET_URL" 2>&1) && fail "switch accepted"
[[ $out == *"Cannot modify comb.metastore.url at runtime"* ]] || fail "switch: $out"
[[ $out != *s3cret* ]] || fail "switch refusal shows the password: $out"
# a server that is not there: exit 1, the URL without its password
out=$("$COMB" --warehouse "$WH" --metastore "postgresql://comb:s3cret@/x?host=$WH/none" \
      -e "SELECT 1" 2>&1) && fail "no server accepted"
[[ $out == *"cannot connect to the metastore 'postgresql://comb@/x?host=$WH/none'"* &&
   $out != *s3cret* ]] || fail "no server: $out"

# four processes at once: dynamic partitions overlapping each other's,
# ADD PARTITION IF NOT EXISTS of the same ones, readers
writer() {
    for ((s = 0; s < 5; s++)); do
        c -e "INSERT INTO t PARTITION (d) VALUES ($1, 'w$1', 'd$(((s + $1) % 4))'),
              ($1, 'w$1', 'd$(((s + $1 + 1) % 4))')" > /dev/null || return 1
        c -e "ALTER TABLE t ADD IF NOT EXISTS PARTITION (d='e$s')" > /dev/null || return 1
    done
}
pids=()
for w in 1 2 3 4; do writer "$w" & pids+=($!); done
for p in "${pids[@]}"; do wait "$p" || fail "a writer failed"; done
got=$(c -e "SELECT count(*) FROM t" | tail -1)
[[ $got == 40 ]] || fail "rows: $got, want 40"
got=$(c -e "SHOW PARTITIONS t" | tail -n +2 | tr '\n' ' ')
[[ $got == "d=d0 d=d1 d=d2 d=d3 d=e0 d=e1 d=e2 d=e3 d=e4 " ]] || fail "partitions: $got"
got=$(c -e "SELECT d, count(*) FROM t GROUP BY d ORDER BY d" | tail -n +2 | tr '\t\n' ': ')
[[ $got == "d0:10 d1:10 d2:10 d3:10 " ]] || fail "per partition: $got"

# the server stops: a clear error; it starts again: statements work
bash "$PG_SERVER" pause "$PG_DIR" || fail "pause"
out=$(c -e "SELECT count(*) FROM t" 2>&1) && fail "no server, yet it ran"
[[ $out == *"cannot connect to the metastore 'postgresql://comb@/shared?host=$PG_DIR'"* ]] ||
    fail "server stopped: $out"
bash "$PG_SERVER" resume "$PG_DIR" || fail "resume"
got=$(c -e "SELECT count(*) FROM t" | tail -1)
[[ $got == 40 ]] || fail "after the restart: $got"
echo ok
