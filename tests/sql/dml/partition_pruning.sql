-- Partition pruning for UPDATE and DELETE (issue 10): only the partitions
-- whose keys can satisfy the WHERE are read (EXPLAIN lists them;
-- comb.trace.files lists the files the statement opens).
CREATE TABLE pp (id INT, v STRING) PARTITIONED BY (ds STRING, hr INT)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO pp PARTITION (ds, hr) VALUES (1, 'a', 'd1', 1), (2, 'b', 'd1', 2),
  (3, 'c', 'd2', 1), (4, 'd', 'd2', 3), (5, 'e', 'd3', 3);
EXPLAIN UPDATE pp SET v = 'u' WHERE ds = 'd1';
EXPLAIN DELETE FROM pp WHERE hr > 2 AND id > 4;
EXPLAIN DELETE FROM pp WHERE ds = 'd2' AND id IN (SELECT id FROM pp WHERE hr = 1);
SET comb.trace.files=true;
UPDATE pp SET v = 'u' WHERE ds = 'd1';
DELETE FROM pp WHERE hr > 2 AND id > 4;
DELETE FROM pp WHERE ds = 'd2' AND id IN (SELECT id FROM pp WHERE hr = 1);
SET comb.trace.files=false;
SELECT * FROM pp ORDER BY id;
-- a WHERE no partition can satisfy reads nothing and changes nothing
SET comb.trace.files=true;
UPDATE pp SET v = 'none' WHERE ds = 'd9';
SELECT count(*) FROM pp WHERE v = 'none';
