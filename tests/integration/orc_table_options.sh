#!/usr/bin/env bash
# orc.compress, orc.stripe.size, orc.compress.size, orc.row.index.stride,
# orc.create.index, orc.bloom.filter.columns and orc.bloom.filter.fpp, as
# Hive reads them: the table property,
# else the session setting, else hive.exec.orc.default.*; every codec comb
# writes, for full-ACID (deltas with 1/8 of the stripe size, bases with
# all of it, delete deltas too), insert-only and plain tables; values comb
# cannot write are errors that name the table and change nothing.
set -u
WH=$(mktemp -d)
trap 'rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv --silent "$@"; }
q() { c -e "$1" | tail -n +2; }   # a query's rows, without the header
fail() { echo "$*"; exit 1; }
dump() { "$COMB" orcfiledump "$1"; }
codec_of() { dump "$1" | sed -n 's/^Compression: //p'; }
stripes_of() { dump "$1" | grep -c '^  Stripe: offset'; }

# 3000 rows of 100-byte strings, about 100 KB buffered per batch of 1024
# rows: stripes of 600000 bytes take them all, delta stripes (75000)
# one batch each
c -e "CREATE TABLE src (id INT, s STRING) TBLPROPERTIES ('transactional'='false')" || fail setup
vals=$(for i in $(seq 0 2999); do printf "(%d,'%0100d')," "$i" "$i"; done)
echo "INSERT INTO src VALUES ${vals%,};" > "$WH/src.sql"
c -f "$WH/src.sql" || fail "src insert"

for codec in NONE zlib Snappy LZ4 ZSTD; do
    up=${codec^^}
    for kind in acid io plain; do
        case $kind in
        acid) props="'transactional'='true'" ;;
        io) props="'transactional'='true','transactional_properties'='insert_only'" ;;
        plain) props="'transactional'='false'" ;;
        esac
        t="t_${kind}_${up,,}"
        c -e "CREATE TABLE $t (id INT, s STRING) TBLPROPERTIES ($props,
              'orc.compress'='$codec', 'orc.stripe.size'='600000');
              INSERT INTO $t SELECT * FROM src" || fail "$t: insert"
        f=$(find "$WH/$t" -type f \( -name 'bucket_*' -o -name '0*' \) | head -1)
        [[ $(codec_of "$f") == "$up" ]] || fail "$t: $f is $(codec_of "$f"), want $up"
        n=$(stripes_of "$f")
        want=1
        [[ $kind == acid ]] && want=3
        ((n == want)) || fail "$t: $n stripes, want $want"
        [[ $(q "SELECT count(*), sum(id), max(s) FROM $t") == \
           "3000	4498500	$(printf '%0100d' 2999)" ]] || fail "$t: rows read back wrong"
    done
done

# full ACID: the base of INSERT OVERWRITE has whole stripes, the delete
# delta the table's codec
c -e "INSERT OVERWRITE TABLE t_acid_lz4 SELECT * FROM src; DELETE FROM t_acid_lz4 WHERE id < 10" \
    || fail "overwrite/delete"
base=$(find "$WH/t_acid_lz4" -path '*base_*' -name 'bucket_*' | head -1)
del=$(find "$WH/t_acid_lz4" -path '*delete_delta_*' -name 'bucket_*' | head -1)
n=$(stripes_of "$base")
((n == 1)) || fail "base: $n stripes"
[[ $(codec_of "$del") == LZ4 ]] || fail "delete delta: $(codec_of "$del")"
[[ $(q "SELECT count(*) FROM t_acid_lz4") == 2990 ]] || fail "after delete"

# smaller stripes for plain files
c -e "CREATE TABLE small (id INT, s STRING) TBLPROPERTIES ('transactional'='false',
      'orc.stripe.size'='100000'); INSERT INTO small SELECT * FROM src" || fail small
n=$(stripes_of "$WH/small/000000_0")
((n == 3)) || fail "small: $n stripes"

# the session settings, when the table says nothing; the table wins
c -e "CREATE TABLE s1 (id INT) TBLPROPERTIES ('transactional'='false');
      CREATE TABLE s2 (id INT) TBLPROPERTIES ('transactional'='false', 'orc.compress'='NONE')" \
    || fail "s1/s2"
c --hiveconf hive.exec.orc.default.compress=SNAPPY -e "INSERT INTO s1 VALUES (1); INSERT INTO s2 VALUES (1)"
[[ $(codec_of "$WH/s1/000000_0") == SNAPPY ]] || fail "hive.exec.orc.default.compress ignored"
[[ $(codec_of "$WH/s2/000000_0") == NONE ]] || fail "table property lost to the setting"
c --hiveconf hive.exec.orc.default.compress=SNAPPY --hiveconf orc.compress=ZSTD \
    -e "INSERT INTO s1 VALUES (2)"
[[ $(codec_of "$WH/s1/000000_0_copy_1") == ZSTD ]] || fail "orc.compress setting ignored"
[[ $(codec_of "$WH/s1/000000_0") == SNAPPY ]] || fail "old file changed"
c -e "INSERT INTO s1 VALUES (3)"
[[ $(codec_of "$WH/s1/000000_0_copy_2") == ZLIB ]] || fail "default is not ZLIB"

# row index and bloom filters: stride, chunk size, filters on the named
# columns (any case, spaces ignored) sized by ORC's formula (500 entries
# at fpp 0.01: 4800 bits, 7 hash functions); full ACID files have them on
# the row columns (ids 7 and 8 under the ACID struct)
index_of() { "$COMB" orcfiledump --rowindex="$2" "$1"; }
c -e "CREATE TABLE ix (id INT, s STRING) TBLPROPERTIES ('transactional'='false',
      'orc.row.index.stride'='500', 'orc.bloom.filter.columns'=' S ,id',
      'orc.bloom.filter.fpp'='0.01', 'orc.compress.size'='8192');
      INSERT INTO ix SELECT * FROM src" || fail ix
f=$WH/ix/000000_0
[[ $(dump "$f" | sed -n 's/^Compression size: //p') == 8192 ]] || fail "ix: orc.compress.size"
out=$(index_of "$f" 1,2)
n=$(grep -c '^      Entry [0-9]*: count: 500 hasNull: false min' <<<"$out")
((n == 12)) || fail "ix: $n row group entries, want 6 per column: $out"
grep -q '^    Bloom filters for column 2:' <<<"$out" || fail "ix: no bloom filter on s"
grep -q '^    Bloom filters for column 1:' <<<"$out" || fail "ix: no bloom filter on id"
grep -q 'Stripe level merge: numHashFunctions: 7 bitCount: 4800 ' <<<"$out" || fail "ix: filter size: $out"
[[ $(q "SELECT count(*), sum(id) FROM ix WHERE s = '$(printf '%0100d' 1234)'") == "1	1234" ]] \
    || fail "ix: rows read back wrong"
c -e "CREATE TABLE ixa (id INT, s STRING) TBLPROPERTIES ('transactional'='true',
      'orc.row.index.stride'='1000', 'orc.bloom.filter.columns'='s');
      INSERT INTO ixa SELECT * FROM src" || fail ixa
f=$(find "$WH/ixa" -name 'bucket_*' | head -1)
out=$(index_of "$f" 8)
grep -q '^    Bloom filters for column 8:' <<<"$out" || fail "ixa: no bloom filter on row.s: $out"
[[ $(grep -c '^      Entry [0-9]*: count: 1000 ' <<<"$out") == 3 ]] || fail "ixa: row groups: $out"
# orc.create.index=false (and stride 0): no index streams at all
for props in "'orc.create.index'='FALSE'" "'orc.row.index.stride'='0'"; do
    c -e "DROP TABLE IF EXISTS noix; CREATE TABLE noix (id INT, s STRING) TBLPROPERTIES
          ('transactional'='false', $props, 'orc.bloom.filter.columns'='id');
          INSERT INTO noix SELECT * FROM src" || fail "noix $props"
    ! dump "$WH/noix/000000_0" | grep -q 'ROW_INDEX\|BLOOM' || fail "noix ($props): index written"
done
# no property: the default stride, no filters
dump "$WH/small/000000_0" | grep -q 'section ROW_INDEX' || fail "small: no row index by default"
! dump "$WH/small/000000_0" | grep -q 'BLOOM_FILTER' || fail "small: bloom filter by default"

# errors: nothing written, the table named
check_error() {  # table properties, expected message part[, settings...]
    local props=$1 want=$2 out rc
    shift 2
    c -e "DROP TABLE IF EXISTS bad; CREATE TABLE bad (id INT) TBLPROPERTIES ($props)" || fail "create bad"
    out=$(c "$@" -e "INSERT INTO bad VALUES (1)" 2>&1); rc=$?
    ((rc == 1)) || fail "($props $*) exited $rc: $out"
    [[ $out == *"$want"* ]] || fail "($props $*) said: $out (want: $want)"
    [[ $out == *"default.bad"* ]] || fail "error does not name the table: $out"
    [[ $(q "SELECT count(*) FROM bad") == 0 ]] || fail "($props $*) wrote rows"
    [[ -z $(find "$WH/bad" -type f) ]] || fail "($props $*) left files: $(find "$WH/bad" -type f)"
}
check_error "'transactional'='true', 'orc.compress'='GZIP'" "orc.compress (table property) 'GZIP' is not a compression"
check_error "'transactional'='false', 'orc.compress'='lzo'" "is LZO, which comb does not write"
check_error "'transactional'='false', 'orc.compress'=' ZLIB'" "' ZLIB' is not a compression"
check_error "'transactional'='false'" "orc.compress (hive.exec.orc.default.compress) 'x'" \
    --hiveconf hive.exec.orc.default.compress=x
for bad in 0 -5 12a 1099511627777 ''; do
    check_error "'transactional'='true', 'orc.stripe.size'='$bad'" \
        "orc.stripe.size (table property) '$bad' is not a number of bytes"
done
check_error "'transactional'='false', 'orc.bloom.filter.columns'='id,nope'" \
    "orc.bloom.filter.columns (table property) names 'nope', which is not a column"
for bad in 0 1 1.5 -0.1 x; do
    check_error "'transactional'='true', 'orc.bloom.filter.fpp'='$bad'" \
        "orc.bloom.filter.fpp (table property) '$bad' is not a probability"
done
check_error "'transactional'='false', 'orc.row.index.stride'='-1'" \
    "orc.row.index.stride (table property) '-1' is not a number from 0 to"
for bad in 0 8388608 4k; do
    check_error "'transactional'='false', 'orc.compress.size'='$bad'" \
        "orc.compress.size (table property) '$bad' is not a number from 1 to 8388607"
done
echo ok
