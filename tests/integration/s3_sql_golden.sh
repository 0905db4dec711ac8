#!/usr/bin/env bash
# Every SQL golden test once more with the warehouse on an S3 server
# (tests/s3/server.mjs: s3rver behind a proxy that checks every request's
# signature), the metastore a local file where it would be (in the
# warehouse's local directory): the output must be the
# local-disk one.  Paths print as the store's locations there, so the
# wrapper maps each test's s3a:// warehouse back to its local name, and
# the expected output's "file:" URIs of the warehouse lose their scheme
# the same way.
# The "-- @sh" lines look at and change the warehouse's files with find,
# ls, cat, cp...: they run on a local copy of the store's objects
# (tests/s3/mirror.mjs, run by the harness), pulled before the line and
# pushed after it, and
# comb inside such a line pushes that copy before it runs and pulls after.
# Not here: the tests about local locations (they put tables at local
# paths in and beside the warehouse's directory, which here is the copy
# of the store; s3_mixed.sh covers a local warehouse with a table on the
# store, and SHOW CREATE TABLE of one).
# COMB_SQL_SHARD=k/n runs every n-th test from the k-th; COMB_SQL_ONLY=RE
# only the tests whose path matches RE.
set -u
shard=${COMB_SQL_SHARD:-0/1}
[[ $shard =~ ^([0-9]+)/([0-9]+)$ ]] && ((BASH_REMATCH[1] < BASH_REMATCH[2])) || {
    echo "COMB_SQL_SHARD=$shard: expected k/n with 0 <= k < n" >&2; exit 2; }
shard_k=${BASH_REMATCH[1]} shard_n=${BASH_REMATCH[2]}
. "$(dirname "$0")/lib/s3.bash"
s3_start_test golden
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BASE=$T
# mirror pull|push WAREHOUSE: the local copy of that warehouse's objects,
# made by the S3 harness itself (no node start per call)
cat > "$BASE/mirror" <<WRAP
#!/usr/bin/env bash
id=\$(printf '%s' "\$2" | md5sum | cut -c1-16)
out=\$(curl -sS -X POST -G "$COMB_TEST_S3_ENDPOINT/__harness/mirror" --data-urlencode "op=\$1" \\
    --data-urlencode bucket=golden --data-urlencode "prefix=\$id/warehouse" \\
    --data-urlencode "dir=\$2" -w '%{http_code}') || exit 1
[[ \$out == *200 ]] || { echo "mirror \$1: \${out%???}" >&2; exit 1; }
WRAP
# comb with the warehouse moved onto the store, under a prefix of its own
cat > "$BASE/comb" <<WRAP
#!/usr/bin/env bash
set -o pipefail
args=() wh=
while ((\$#)); do
    if [[ \$1 == --warehouse ]]; then wh=\$2; shift 2; continue; fi
    args+=("\$1"); shift
done
# without a warehouse (orcfiledump of a file of the local copy) as it is
[[ -n \$wh ]] || exec "$COMB" "\${args[@]}"
id=\$(printf '%s' "\$wh" | md5sum | cut -c1-16)
remote=s3a://golden/\$id/warehouse
mirrored=; [[ \$wh == "\${COMB_MIRRORED:-}" ]] && mirrored=1
[[ -n \$mirrored ]] && { "$BASE/mirror" push "\$wh" || exit 3; }
mkdir -p "\$wh"
"$COMB" --warehouse "\$remote" --metastore "\$wh/metastore.db" \\
    --hiveconf fs.s3a.endpoint="$COMB_TEST_S3_ENDPOINT" \\
    --hiveconf fs.s3a.path.style.access=true "\${args[@]}" 2>&1 |
    sed "s|\$remote|\$wh|g"
rc=\$?
[[ -n \$mirrored ]] && { "$BASE/mirror" pull "\$wh" || exit 3; }
exit \$rc
WRAP
# every @sh line: on the local copy of its warehouse (comb inside it may
# name another, local one), what it changed pushed back after it
cat > "$BASE/shwrap" <<WRAP
#!/usr/bin/env bash
"$BASE/mirror" pull "\$WH" || exit 3
COMB_MIRRORED=\$WH "\$@"
rc=\$?
"$BASE/mirror" push "\$WH" || exit 3
exit \$rc
WRAP
chmod +x "$BASE/comb" "$BASE/mirror" "$BASE/shwrap"
failed=() ran=0
i=-1
while IFS= read -r t; do
    [[ $t =~ ${COMB_SQL_ONLY:-.} ]] || continue
    [[ $t =~ /ddl/(alter_location|show_create)\.sql$ ]] && continue
    i=$((i + 1))
    ((i % shard_n == shard_k)) || continue
    copy=$BASE/tests/${t#"$ROOT"/tests/sql/}
    mkdir -p "$(dirname "$copy")"
    cp "$t" "$copy"
    sed -e 's|file:\$WH/warehouse|$WH/warehouse|g' -e 's|file:WH|WH|g' "${t%.sql}.out" > "${copy%.sql}.out"
    ran=$((ran + 1))
    if ! out=$(COMB=$BASE/comb COMB_SQLTEST_SH_WRAP=$BASE/shwrap bash "$ROOT/tests/sqltest.sh" "$copy" 2>&1); then
        failed+=("${t#"$ROOT"/}")
        echo "$out" | head -40
    fi
done < <(find "$ROOT/tests/sql" -name '*.sql' | sort)
((${#failed[@]} == 0)) || { printf 'failed: %s\n' "${failed[@]}"; exit 1; }
echo "ok ($ran tests on the store)"
