#!/usr/bin/env bash
# A read-only or full metastore: SELECT, SHOW and DESCRIBE still answer,
# from the snapshot as it stands (an open transaction's rows stay
# invisible); every statement that writes fails with the cause in plain
# words, never the SQL text comb ran, and leaves nothing behind.  The test
# build's COMB_MS_FAULT opens the metastore read-only (readonly) or answers
# its writes with SQLite's SQLITE_FULL (full); root ignores chmod.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
c -e "CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS
      TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c');"
# a writer killed before its commit leaves an open txn with its files
set +e
c --hiveconf comb.test.crash.point=before_commit -e "INSERT INTO t VALUES (4, 'open')" > /dev/null 2>&1
rc=$?
set -e
((rc == 137)) || { echo "expected SIGKILL, got $rc"; exit 1; }
layout() { find "$WH" -not -name 'metastore.db*' | sort; }
before=$(layout)

for fault in readonly full; do
    m() { COMB_MS_FAULT=$fault c "$@"; }
    got=$(m -e "SELECT id, v FROM t ORDER BY id; SELECT count(*) FROM t WHERE v = 'open'")
    [[ $got == $'id\tv\n1\ta\n2\tb\n3\tc\n_c0\n0' ]] || { echo "$fault SELECT: $got"; exit 1; }
    got=$(m -e "SHOW TABLES; SHOW DATABASES; DESCRIBE t")
    [[ $got == $'tab_name\nt\ndatabase_name\ndefault\ncol_name\tdata_type\tcomment\nid\tint\t\nv\tstring\t' ]] \
        || { echo "$fault SHOW/DESCRIBE: $got"; exit 1; }
    # statistics are read under the snapshot as it stands: the open txn's
    # row is not counted
    got=$(m -e "SHOW TBLPROPERTIES t('numRows'); DESCRIBE FORMATTED t" | grep numRows)
    [[ $got == $'numRows	3
	numRows             	3                   ' ]] \
        || { echo "$fault statistics: $got"; exit 1; }
    if [[ $fault == full ]]; then want="the disk is full"; else want="it is read-only"; fi
    for sql in "INSERT INTO t VALUES (5, 'e')" "UPDATE t SET v = 'x'" \
               "DELETE FROM t WHERE id = 1" "INSERT INTO t SELECT * FROM t" \
               "CREATE TABLE u (id INT)" "CREATE DATABASE d" "DROP TABLE t"; do
        set +e
        out=$(m -e "$sql" 2>&1)
        rc=$?
        set -e
        ((rc != 0)) || { echo "$fault: '$sql' succeeded"; exit 1; }
        [[ $out == "Error: cannot write to the metastore '$WH/metastore.db': $want"* ]] \
            || { echo "$fault: '$sql' said: $out"; exit 1; }
        if grep -qE 'INSERT INTO|UPDATE [A-Z_]+ SET|BEGIN|SELECT |TXNS|NEXT_|WHERE' <<< "$out"; then
            echo "$fault: raw SQL in the message: $out"; exit 1
        fi
    done
    # nothing was left behind: no new directory, no file, no moved table
    [[ $(layout) == "$before" ]] || { echo "$fault left:"; diff <(echo "$before") <(layout); exit 1; }
done
# a full disk under the data files (COMB_FS_FAULT): the write fails with
# the file system's reason, and leaves no file behind
set +e
out=$(COMB_FS_FAULT="write:/delta_:ENOSPC" c -e "INSERT INTO t VALUES (9, 'z')" 2>&1)
rc=$?
set -e
((rc != 0)) && [[ $out == *"cannot write '$WH/t/delta_"*"': No space left on device"* ]] \
    || { echo "full data disk: $out"; exit 1; }
[[ $(layout) == "$before" ]] || { echo "full data disk left:"; diff <(echo "$before") <(layout); exit 1; }

# a warehouse this user really cannot write (root: run as nobody, since
# chmod does not stop root); skipped where that cannot be arranged
RO=$(mktemp -d)
trap 'rm -rf "$WH"; chmod -R u+w "$RO"; rm -rf "$RO"' EXIT
"$COMB" --warehouse "$RO" -e "CREATE TABLE r (id INT) TBLPROPERTIES ('transactional'='true');
                               INSERT INTO r VALUES (1), (2);"
chmod -R a-w,a+rX "$RO"
reader=()
if (( $(id -u) == 0 )); then
    command -v runuser > /dev/null && reader=(runuser -u nobody --)
fi
if (( $(id -u) != 0 )) || ((${#reader[@]})); then
    r() { "${reader[@]}" "$COMB" --warehouse "$RO" --outputformat tsv "$@"; }
    if r -e "SELECT 1" > /dev/null 2>&1; then
        got=$(r -e "SELECT count(*) FROM r; SHOW TABLES")
        [[ $got == $'_c0\n2\ntab_name\nr' ]] || { echo "read-only warehouse: $got"; exit 1; }
        set +e
        out=$(r -e "INSERT INTO r VALUES (3)" 2>&1)
        set -e
        [[ $out == "Error: cannot write to the metastore '$RO/metastore.db': it is read-only"* ]] \
            || { echo "read-only warehouse INSERT: $out"; exit 1; }
    fi
fi

# writable again: everything works and the open txn's rows stay invisible
c -e "INSERT INTO t VALUES (5, 'e')"
got=$(c -e "SELECT count(*) FROM t")
[[ $got == $'_c0\n4' ]] || { echo "after: $got"; exit 1; }
echo ok
