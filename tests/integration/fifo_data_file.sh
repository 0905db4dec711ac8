#!/usr/bin/env bash
# A FIFO named like a data file (a bucket file in a delta or delete delta,
# an original file at the table root) makes SELECT, UPDATE, DELETE and
# orcfiledump fail with an error naming it, never hang.  Every command runs
# under `timeout`, so a regression fails the test instead of blocking it.
set -eu
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
c() { timeout 20 "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
c -e "CREATE TABLE t (id INT, v STRING) TBLPROPERTIES ('transactional'='true');
      INSERT INTO t VALUES (1, 'a'), (2, 'b');"

# expect_fifo_error FIFO CMD...: CMD fails (not by timeout) naming FIFO
expect_fifo_error() {
    local fifo=$1 out rc
    shift
    set +e
    out=$("$@" 2>&1)
    rc=$?
    set -e
    if ((rc == 124)); then echo "hung on $fifo: $*"; exit 1; fi
    if ((rc == 0)); then echo "succeeded despite $fifo: $*"; echo "$out"; exit 1; fi
    if [[ $out != *"cannot read '$fifo': it is a FIFO, not a regular file"* ]]; then
        echo "unexpected error for $*:"; echo "$out"; exit 1
    fi
}

for fifo in "$WH/t/delta_0000001_0000001_0000/bucket_00001" "$WH/t/000000_0"; do
    mkfifo "$fifo"
    expect_fifo_error "$fifo" c -e "SELECT * FROM t"
    expect_fifo_error "$fifo" c -e "UPDATE t SET v = 'x' WHERE id = 1"
    expect_fifo_error "$fifo" c -e "DELETE FROM t WHERE id = 2"
    expect_fifo_error "$fifo" timeout 20 "$COMB" orcfiledump "$fifo"
    rm "$fifo"
done

# a FIFO in place of the delete events a scan of bucket 0 loads
c -e "DELETE FROM t WHERE id = 2"
dd=$(ls -d "$WH"/t/delete_delta_*)
mv "$dd/bucket_00000" "$WH/saved"
mkfifo "$dd/bucket_00000"
expect_fifo_error "$dd/bucket_00000" c -e "SELECT * FROM t"
expect_fifo_error "$dd/bucket_00000" c -e "UPDATE t SET v = 'x'"
rm "$dd/bucket_00000"
mv "$WH/saved" "$dd/bucket_00000"

# the failed statements changed nothing
got=$(c -e "SELECT id, v FROM t ORDER BY id")
[[ $got == $'id\tv\n1\ta' ]] || { echo "after: $got"; exit 1; }
echo ok
