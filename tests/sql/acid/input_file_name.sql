-- INPUT__FILE__NAME, Hive's virtual column of the file a row was read
-- from (a file: URI): in the select list, WHERE, GROUP BY, UPDATE SET,
-- DELETE's WHERE and MERGE, over full-ACID deltas and bases (before and
-- after compaction, after UPDATE moved a row into a new delta), plain ORC
-- and text tables, and partitions.  EXPLAIN shows the scan reads it only
-- when the statement does (columns: ..., INPUT__FILE__NAME).
CREATE TABLE a (id int, v string) CLUSTERED BY (id) INTO 2 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO a VALUES (1,'x'),(2,'y'),(3,'z');
INSERT INTO a VALUES (4,'w');
SELECT id, INPUT__FILE__NAME FROM a ORDER BY id;
-- the updated row now lives in the update's delta; the deleted one is gone
UPDATE a SET v = 'u' WHERE id = 2;
DELETE FROM a WHERE id = 3;
SELECT id, v, INPUT__FILE__NAME FROM a ORDER BY id;
SELECT INPUT__FILE__NAME, count(*) FROM a GROUP BY INPUT__FILE__NAME ORDER BY 1;
SELECT id FROM a WHERE INPUT__FILE__NAME LIKE '%/delta_0000002_0000002_0000/%';
SELECT id FROM a WHERE a.INPUT__FILE__NAME LIKE '%bucket_00000' ORDER BY id;
UPDATE a SET v = INPUT__FILE__NAME WHERE id = 4;
SELECT id, v FROM a WHERE id = 4;
-- the scan reads the column only when asked to
EXPLAIN SELECT id FROM a;
EXPLAIN SELECT id, INPUT__FILE__NAME FROM a;
EXPLAIN SELECT id FROM a WHERE INPUT__FILE__NAME LIKE '%x%';
EXPLAIN UPDATE a SET v = INPUT__FILE__NAME WHERE id = 4;
EXPLAIN UPDATE a SET v = 'q' WHERE id = 4;
EXPLAIN DELETE FROM a WHERE INPUT__FILE__NAME LIKE '%x';
EXPLAIN DELETE FROM a WHERE id = 4;
DELETE FROM a WHERE INPUT__FILE__NAME LIKE '%/delta_0000001_0000001_0000/%';
SELECT id FROM a ORDER BY id;
-- after a major compaction every row comes from the base
ALTER TABLE a COMPACT 'major' AND WAIT;
SELECT id, INPUT__FILE__NAME FROM a ORDER BY id;
-- MERGE: the target's (qualified: both sides have one)
CREATE TABLE s (id int, w string) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO s VALUES (2, 'n'), (4, 'm');
MERGE INTO a USING s ON a.id = s.id
WHEN MATCHED THEN UPDATE SET v = INPUT__FILE__NAME;
MERGE INTO a USING s ON a.id = s.id
WHEN MATCHED AND a.INPUT__FILE__NAME LIKE '%base_%' THEN UPDATE SET v = s.INPUT__FILE__NAME;
SELECT id, v FROM a ORDER BY id;
-- a plain ORC table, a text table, partitions, a join
SELECT id, INPUT__FILE__NAME FROM s ORDER BY id;
CREATE TABLE tx (id int, t string) ROW FORMAT DELIMITED FIELDS TERMINATED BY ','
  STORED AS TEXTFILE;
INSERT INTO tx VALUES (1, 'a');
INSERT INTO tx VALUES (2, 'b');
SELECT id, INPUT__FILE__NAME FROM tx ORDER BY id;
CREATE TABLE pt (id int) PARTITIONED BY (d string) STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO pt PARTITION (d) VALUES (1, 'x'), (2, 'y'), (3, 'y');
SELECT d, INPUT__FILE__NAME, count(*) FROM pt GROUP BY d, INPUT__FILE__NAME ORDER BY d;
SELECT tx.id, pt.INPUT__FILE__NAME FROM tx JOIN pt ON tx.id = pt.id ORDER BY tx.id;
-- a table's own column of that name wins over the virtual one
CREATE TABLE own (id int, input__file__name string);
INSERT INTO own VALUES (1, 'mine');
SELECT id, INPUT__FILE__NAME FROM own;
