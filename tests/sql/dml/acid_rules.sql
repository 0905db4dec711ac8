-- Hive's ACID rules for row-level change (issue 10), each refused with
-- Hive's error number and text where Hive has them, at the line:column
-- of what is wrong, and the table unchanged after each.
CREATE TABLE acid_t (id INT, v STRING) PARTITIONED BY (p STRING)
  CLUSTERED BY (id) INTO 4 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO acid_t PARTITION (p) VALUES (1, 'x', 'a'), (2, 'y', 'a'), (3, 'z', 'b');
-- no update of partition columns (10292) nor of bucketing columns (10302)
UPDATE acid_t SET p = 'b' WHERE id = 1;
UPDATE acid_t SET v = 'w', id = 3 WHERE id = 1;
-- whatever the case of the name, the value (DEFAULT, the column itself)
-- or the statement (MERGE): Hive's checkValidSetClauseTarget, partition
-- columns first, then bucketing columns (every one of several)
UPDATE acid_t SET P = p WHERE id = 1;
UPDATE acid_t SET ID = default WHERE id = 1;
CREATE TABLE acid_2b (k1 INT, k2 STRING, v INT) PARTITIONED BY (d STRING)
  CLUSTERED BY (k1, k2) INTO 2 BUCKETS STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO acid_2b PARTITION (d = 'x') VALUES (1, 'a', 10);
UPDATE acid_2b SET v = 11, k2 = 'b' WHERE k1 = 1;
MERGE INTO acid_2b t USING (SELECT 1 AS k1) s ON t.k1 = s.k1
WHEN MATCHED THEN UPDATE SET d = 'y';
MERGE INTO acid_2b t USING (SELECT 1 AS k1) s ON t.k1 = s.k1
WHEN MATCHED AND t.v > 0 THEN UPDATE SET K2 = 'b'
WHEN MATCHED THEN DELETE;
SELECT * FROM acid_2b;
-- an unknown column in SET (10408) or in WHERE (10004)
UPDATE acid_t SET nosuch = 3 WHERE id = 1;
UPDATE acid_t SET v = 'w' WHERE nosuch = 2;
DELETE FROM acid_t WHERE nosuch = 2;
-- a scalar subquery that returns several rows, in UPDATE and DELETE
UPDATE acid_t SET v = 'w' WHERE id = (SELECT id FROM acid_t);
DELETE FROM acid_t
WHERE id = (SELECT id FROM acid_t WHERE p = 'a');
-- a WHERE that is no boolean
DELETE FROM acid_t WHERE 1;
SELECT * FROM acid_t ORDER BY id;

-- a full-ACID table must be ORC (insert-only tables need not be)
CREATE TABLE text_acid (id INT) STORED AS TEXTFILE TBLPROPERTIES ('transactional'='true');
CREATE TABLE text_io (id INT) STORED AS TEXTFILE
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
CREATE TABLE text_plain (id INT) STORED AS TEXTFILE TBLPROPERTIES ('transactional'='false');
ALTER TABLE text_plain SET TBLPROPERTIES ('transactional'='true');
-- a sorted table cannot be full ACID
CREATE TABLE sorted_acid (id INT) CLUSTERED BY (id) SORTED BY (id) INTO 2 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
-- an EXTERNAL table cannot be transactional, nor become one, nor a
-- transactional table external
CREATE EXTERNAL TABLE ext_acid (id INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE EXTERNAL TABLE ext_plain (id INT) STORED AS ORC;
ALTER TABLE ext_plain SET TBLPROPERTIES ('transactional'='true');
ALTER TABLE acid_t SET TBLPROPERTIES ('EXTERNAL'='TRUE');
-- a transactional table stays one
ALTER TABLE acid_t SET TBLPROPERTIES ('transactional'='false', 'transactional_properties'='default');
SHOW TBLPROPERTIES acid_t('transactional');

-- a transactional table's bucketing cannot change: its rows are in the
-- bucket files the bucketing chose
ALTER TABLE acid_t CLUSTERED BY (v) INTO 4 BUCKETS;
ALTER TABLE acid_t INTO 8 BUCKETS;
ALTER TABLE acid_t NOT CLUSTERED;
CREATE TABLE acid_nb (id INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
ALTER TABLE acid_nb CLUSTERED BY (id) INTO 2 BUCKETS;
ALTER TABLE acid_nb INTO 2 BUCKETS;
-- @sh echo "DESCRIBE FORMATTED acid_t;" | $COMB --warehouse $WH | grep "Bucket"

-- UPDATE / DELETE on an insert-only table: 10414; on a plain one: 10297
CREATE TABLE io_t (id INT) STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO io_t VALUES (1);
UPDATE io_t SET id = 2;
DELETE FROM io_t WHERE id = 1;
CREATE TABLE plain_t (id INT) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO plain_t VALUES (1);
UPDATE plain_t SET id = 2;
DELETE FROM plain_t;
SELECT * FROM io_t;
SELECT * FROM plain_t;

-- a view is never written: INSERT, INSERT OVERWRITE, UPDATE, DELETE,
-- TRUNCATE, LOAD
CREATE VIEW vw AS SELECT * FROM acid_t;
INSERT INTO vw VALUES (9, 'q', 'a');
INSERT OVERWRITE TABLE vw SELECT * FROM acid_t;
UPDATE vw SET v = 'a';
DELETE FROM vw WHERE id = 1;
TRUNCATE TABLE vw;
LOAD DATA LOCAL INPATH '/nonexistent' INTO TABLE vw;
SELECT * FROM acid_t ORDER BY id;
