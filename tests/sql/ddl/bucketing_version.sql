-- The table property bucketing_version picks the hash that places rows in
-- bucket_N: '1' is Hive's legacy Java hashCode, '2' (what new tables get)
-- Murmur3.  'Trino rocks' goes to bucket 2 of 4 under version 1 and to
-- bucket 1 under version 2 (hive-acid-storage.md 7.3); NULL hashes to 0.
-- ROW__ID.bucketid is the encoded property 1<<29 | bucket<<16.
CREATE TABLE v1 (s STRING, n INT) CLUSTERED BY (s) INTO 4 BUCKETS TBLPROPERTIES ('transactional'='true', 'bucketing_version'='1');
CREATE TABLE v2 (s STRING, n INT) CLUSTERED BY (s) INTO 4 BUCKETS TBLPROPERTIES ('transactional'='true', 'bucketing_version'='2');
CREATE TABLE vd (s STRING, n INT) CLUSTERED BY (s) INTO 4 BUCKETS TBLPROPERTIES ('transactional'='true');
INSERT INTO v1 VALUES ('Trino rocks', 1), ('', 2), (NULL, 3);
INSERT INTO v2 VALUES ('Trino rocks', 1), ('', 2), (NULL, 3);
INSERT INTO vd VALUES ('Trino rocks', 1);
SELECT s, n, ROW__ID.bucketid FROM v1 ORDER BY n;
SELECT s, n, ROW__ID.bucketid FROM v2 ORDER BY n;
SELECT s, n, ROW__ID.bucketid FROM vd;
-- @sh cd "$WH" && find v1 v2 vd -name 'bucket_*' | sort
-- @sh for t in v1 v2 vd; do "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED $t" | grep bucketing_version; done
-- UPDATE keeps a row in its bucket (its clustering value cannot change).
UPDATE v1 SET n = 10 WHERE s = 'Trino rocks';
SELECT s, n, ROW__ID.bucketid FROM v1 ORDER BY n;
-- @sh cd "$WH" && find v1 -name 'bucket_*' | sort
-- Values other than '1' and '2' are refused.  The key is matched exactly
-- (as Hive and Trino read it): another spelling is an unrelated property.
CREATE TABLE bad1 (s STRING) CLUSTERED BY (s) INTO 4 BUCKETS TBLPROPERTIES ('bucketing_version'='3');
CREATE TABLE bad2 (s STRING) TBLPROPERTIES ('bucketing_version'='');
CREATE TABLE bad3 (s STRING) TBLPROPERTIES ('bucketing_version'='02');
CREATE TABLE other (s STRING) TBLPROPERTIES ('BUCKETING_VERSION'='3');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED other" | grep -i bucketing_version
SHOW TABLES;
