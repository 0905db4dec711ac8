-- ALTER TABLE SET / UNSET TBLPROPERTIES with Hive's rules
-- (TransactionalValidationListener, AcidUtils.isToInsertOnlyTable): a
-- transactional table stays transactional; a plain ORC table becomes full
-- ACID (its files read as originals with synthetic ROW__IDs, write ids
-- start after 10000000 as Hive seeds them) or insert-only (its files move
-- into the first delta); properties are stamped last_modified_by/time.
CREATE TABLE p (id INT, v STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO p VALUES (1, 'a'), (2, 'b');
INSERT INTO p VALUES (3, 'c');
ALTER TABLE p SET TBLPROPERTIES ("owner.team" = 'billing', -- a comment between entries
  'note'="two words", 'numRows'='3');
ALTER TABLE p UNSET TBLPROPERTIES ('numRows');
ALTER TABLE p UNSET TBLPROPERTIES IF EXISTS ('numRows', 'never.set');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED p" | grep -P '^\t' | sed -E 's/((last_modified_time|transient_lastDdlTime) *\t)[0-9]+/\1(time)/'
ALTER TABLE p SET TBLPROPERTIES ('transactional'='true');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED p" | grep -E 'transactional|Table Type'
SELECT ROW__ID, id, v FROM p ORDER BY id;
UPDATE p SET v = 'B' WHERE id = 2;
DELETE FROM p WHERE id = 3;
INSERT INTO p VALUES (4, 'd');
SELECT ROW__ID, id, v FROM p ORDER BY id;
-- @sh cd warehouse/p && ls

-- a partitioned plain table: each partition's files become originals
CREATE TABLE pp (v INT) PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO pp PARTITION (ds) VALUES (1, 'a'), (2, 'b');
ALTER TABLE pp SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='default');
DELETE FROM pp WHERE v = 1;
UPDATE pp SET v = 20 WHERE ds = 'b';
SELECT ROW__ID.writeid, v, ds FROM pp ORDER BY v;

-- plain to insert-only: the files go into delta_W_W_0000
CREATE TABLE t (a INT, b STRING) STORED AS TEXTFILE;
INSERT INTO t VALUES (1, 'x');
INSERT INTO t VALUES (2, 'y');
ALTER TABLE t SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
SELECT * FROM t ORDER BY a;
INSERT INTO t VALUES (3, 'z');
SELECT * FROM t ORDER BY a;
-- @sh cd warehouse/t && find . -type f | sort
-- insert-only ORC to full ACID: the insert-only deltas' files read as originals
CREATE TABLE m (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO m VALUES (1), (2);
ALTER TABLE m SET TBLPROPERTIES ('transactional_properties'='default');
UPDATE m SET a = a * 10 WHERE a = 2;
SELECT ROW__ID, a FROM m ORDER BY a;

-- EXTERNAL converts a plain table's type, both ways
CREATE TABLE e (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
ALTER TABLE e SET TBLPROPERTIES ('EXTERNAL'='TRUE');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED e" | grep -E 'Table Type|EXTERNAL'
ALTER TABLE e SET TBLPROPERTIES ('EXTERNAL'='FALSE');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED e" | grep -E 'Table Type|EXTERNAL'
ALTER TABLE e SET TBLPROPERTIES ('bucketing_version'='1');

-- errors: nothing changes
ALTER TABLE p SET TBLPROPERTIES ('transactional'='false');
ALTER TABLE p SET TBLPROPERTIES ('transactional'='false', 'transactional_properties'='default');
ALTER TABLE p UNSET TBLPROPERTIES ('transactional');
ALTER TABLE p SET TBLPROPERTIES ('transactional_properties'='insert_only');
ALTER TABLE p SET TBLPROPERTIES ('EXTERNAL'='TRUE');
ALTER TABLE p UNSET TBLPROPERTIES ('no.such.key');
ALTER TABLE t SET TBLPROPERTIES ('transactional_properties'='default');
ALTER TABLE t UNSET TBLPROPERTIES ('transactional_properties');
ALTER TABLE t SET TBLPROPERTIES ('transactional'='false');
CREATE TABLE txt (a INT) STORED AS TEXTFILE;
ALTER TABLE txt SET TBLPROPERTIES ('transactional'='true');
ALTER TABLE txt SET TBLPROPERTIES ('transactional_properties'='insert_only');
ALTER TABLE txt SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='bogus');
ALTER TABLE e SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='bogus');
ALTER TABLE txt SET TBLPROPERTIES ('transactional'='yes', 'transactional_properties'='default');
CREATE EXTERNAL TABLE ext (a INT) STORED AS ORC LOCATION '${env:WH}/ext';
ALTER TABLE ext SET TBLPROPERTIES ('transactional'='true');
CREATE TABLE sorted (a INT) CLUSTERED BY (a) SORTED BY (a) INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='false');
ALTER TABLE sorted SET TBLPROPERTIES ('transactional'='true');
ALTER TABLE e SET TBLPROPERTIES ('bucketing_version'='3');
ALTER TABLE e SET TBLPROPERTIES ('numRows'='many');
ALTER TABLE e PARTITION (x=1) SET TBLPROPERTIES ('a'='b');
ALTER TABLE nosuch SET TBLPROPERTIES ('a'='b');
-- original files must be named as Hive's writers name them
CREATE TABLE odd (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO odd VALUES (1);
-- @sh cd warehouse/odd && mv 000000_0 data.orc
SELECT * FROM odd;
ALTER TABLE odd SET TBLPROPERTIES ('transactional'='true');
-- a delta left in a plain table's directory would become its data
-- @sh mkdir warehouse/odd/delta_0000009_0000009_0000
ALTER TABLE odd SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
-- the sorted table may become insert-only
ALTER TABLE sorted SET TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED sorted; DESCRIBE FORMATTED txt; DESCRIBE FORMATTED odd; DESCRIBE FORMATTED e" | grep -E '^Table Type|^	(transactional|bucketing_version|EXTERNAL)'
SELECT * FROM odd;
