#!/usr/bin/env bash
# Writing a table of 4,096 buckets (the most CREATE TABLE allows) within 256
# open files: an INSERT of 100,000 rows, then an UPDATE and a DELETE that
# touch every bucket (new rows in all insert files, events in delete
# files).  Every row must land in the right bucket file: ROW__ID.bucketid
# of all rows and the bucket field of sampled files are checked against an
# independent Murmur3 (hive-acid-storage.md 7.1, in Perl below).  Peak RSS
# of the INSERT is printed, not asserted.
set -eu
# tmpfs makes the 16,000 fsyncs free; the files take ~64 MB of it
SHM=/dev/shm
if ! [[ -d $SHM && -w $SHM ]] ||
   (( $(df -Pk "$SHM" | awk 'NR == 2 {print $4}') < 262144 )); then
    SHM=${TMPDIR:-/tmp}
fi
WH=$(mktemp -d "$SHM/comb-buckets.XXXXXX")
trap 'rm -rf "$WH"' EXIT
c() { "$COMB" --warehouse "$WH" --outputformat tsv "$@"; }
limited() { (ulimit -n 256 && "$@"); }

# bucket of an int id among n buckets, bucketing version 2; checked
# against the worked value of the storage doc first
BUCKET_PL='
use strict;
sub m32 { my ($a, $b) = @_;
  return (($a * ($b & 0xffff)) + ((($a * ($b >> 16)) & 0xffff) << 16)) & 0xffffffff; }
sub rotl { my ($x, $r) = @_; return (($x << $r) | ($x >> (32 - $r))) & 0xffffffff; }
sub hash_int { my ($v) = @_; $v &= 0xffffffff;
  my $k = (($v >> 24) & 255) | ((($v >> 16) & 255) << 8) | ((($v >> 8) & 255) << 16) | (($v & 255) << 24);
  $k = m32(rotl(m32($k, 0xcc9e2d51), 15), 0x1b873593);
  my $h = rotl(104729 ^ $k, 13);
  $h = (m32($h, 5) + 0xe6546b64) & 0xffffffff;
  $h ^= 4; $h ^= $h >> 16; $h = m32($h, 0x85ebca6b); $h ^= $h >> 13;
  $h = m32($h, 0xc2b2ae35); $h ^= $h >> 16; return $h; }
sub bucket { my ($id, $n) = @_; return (hash_int($id) & 0x7fffffff) % $n; }
hash_int(300000) == (-678663480 & 0xffffffff) or die "murmur3 self-check failed\n";
'

c -e "CREATE TABLE s (id INT, v STRING) TBLPROPERTIES ('transactional'='true')"
values=$(seq 0 3124 | awk '{printf "%s(%d,\047v%d\047)", (NR > 1 ? "," : ""), $1, $1}')
c -e "INSERT INTO s VALUES $values"
for k in 3125 6250 12500 25000 50000; do c -e "INSERT INTO s SELECT id + $k, v FROM s"; done
c -e "CREATE TABLE big (id INT, v STRING) CLUSTERED BY (id) INTO 4096 BUCKETS
      TBLPROPERTIES ('transactional'='true')"

if [[ -x /usr/bin/time ]]; then
    limited /usr/bin/time -f "%M" -o "$WH/rss" "$COMB" --warehouse "$WH" -e "INSERT INTO big SELECT * FROM s"
    echo "peak RSS of the 100,000-row INSERT into 4,096 buckets: $(cat "$WH/rss") KiB"
else
    limited c -e "INSERT INTO big SELECT * FROM s"
fi
# every row: the bucket in its ROW__ID is the one its id hashes to; the
# rows are counted on the way (all, and those with v = 'u')
check_rows() {  # check_rows ROWS U_ROWS
    c -e "SELECT id, ROW__ID.bucketid, v FROM big" | perl -e "$BUCKET_PL"'
        my ($n, $u, $bad) = (0, 0, 0);
        while (<STDIN>) { next if $. == 1; chomp; my ($id, $prop, $v) = split /\t/;
          my $want = bucket($id, 4096);
          if (($prop >> 29) != 1 || (($prop >> 16) & 0xfff) != $want) {
            print "id $id: bucketid $prop, expected bucket $want\n" if $bad++ < 5; }
          $n++; $u++ if $v eq "u"; }
        print "$bad rows in the wrong bucket\n" if $bad;
        print "$n rows ($u with v = u), expected '"$1"' ('"$2"')\n" if $n != '"$1"' || $u != '"$2"';
        exit($bad || $n != '"$1"' || $u != '"$2"' ? 1 : 0);'
}
check_rows 100000 0
delta=$WH/big/delta_0000001_0000001_0000
expected_files=$(seq 0 99999 | perl -e "$BUCKET_PL"'my %b; while (<STDIN>) { chomp; $b{bucket($_, 4096)} = 1 } print scalar(keys %b), "\n";')
[[ $(ls "$delta" | grep -c '^bucket_') == "$expected_files" ]] || { echo "bucket files: $(ls "$delta" | grep -c '^bucket_') of $expected_files"; exit 1; }
# sampled files: each holds only rows of its own bucket, in rowId order
for b in 0 1 7 1000 2048 4095; do
    f=$(printf '%s/bucket_%05d' "$delta" "$b")
    [[ -f $f ]] || continue
    "$COMB" orcfiledump -d "$f" | perl -e "$BUCKET_PL"'
        my ($want, $row) = ('"$b"', 0);
        while (<STDIN>) { /"bucket":(\d+),"rowId":(\d+).*"id":(\d+)/ or die "bad line: $_";
          (($1 >> 16) & 0xfff) == $want or die "bucket_$want holds bucket property $1\n";
          $2 == $row++ or die "bucket_$want: rowId $2 out of order\n";
          bucket($3, 4096) == $want or die "bucket_$want holds id $3\n"; }
        $row > 0 or die "bucket_$want is empty\n";'
done

# UPDATE and DELETE across every bucket, within the same limit
limited c -e "UPDATE big SET v = 'u' WHERE id % 10 = 0"
limited c -e "DELETE FROM big WHERE id % 7 = 0"
[[ $(ls "$WH"/big/delete_delta_0000003_0000003_0000 | grep -c '^bucket_') -gt 256 ]] || { echo "few delete files"; exit 1; }
check_rows 85714 8571
echo ok
