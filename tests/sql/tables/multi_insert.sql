-- Hive's multi-insert: FROM src INSERT ... SELECT ... INSERT ... SELECT ...,
-- every clause with its own select list, WHERE, GROUP BY, SORT BY, all in
-- one transaction read from one snapshot.  One write id per table, one
-- statement id per clause writing a transactional table (delta_W_W_0000,
-- delta_W_W_0001, ...), Hive's 10087 for an output written twice the same
-- way, and nothing visible when any clause fails.
CREATE EXTERNAL TABLE src (id INT, grp STRING, amount DECIMAL(6,2), note STRING)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
INSERT INTO src VALUES (1, 'a', 1.50, '10'), (2, 'b', 2.25, '20'), (3, 'a', 3.00, '30'),
  (4, NULL, 4.75, '40'), (5, 'b', NULL, 'x');
CREATE TABLE acid1 (id INT, amount DECIMAL(6,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE acid2 (id INT, amount DECIMAL(6,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE totals (grp STRING, n BIGINT, total DECIMAL(16,2))
  STORED AS ORC TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
CREATE TABLE parts (id INT, amount DECIMAL(6,2)) PARTITIONED BY (g STRING)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE plain (id INT, note STRING) STORED AS TEXTFILE;

-- several tables and kinds at once; each clause filters, groups, sorts
FROM src s
INSERT INTO TABLE acid1 SELECT s.id, s.amount WHERE s.amount > 2
INSERT INTO acid2 SELECT id, amount WHERE id <= 2 SORT BY id DESC
INSERT OVERWRITE TABLE totals SELECT grp, count(*), sum(amount) GROUP BY grp
INSERT INTO plain (note, id) SELECT concat('n', note), id * 100 WHERE grp = 'a';
SELECT * FROM acid1 ORDER BY id;
SELECT * FROM acid2 ORDER BY id;
SELECT * FROM totals ORDER BY grp;
SELECT * FROM plain ORDER BY id;
-- one write id per table; statement ids in clause order among the
-- transactional clauses: acid1 0, acid2 1, totals 2 (the plain table has none)
SELECT ROW__ID, id FROM acid1 ORDER BY id;
SELECT ROW__ID, id FROM acid2 ORDER BY id;
-- @sh cd warehouse && find acid1 acid2 totals plain -mindepth 1 -maxdepth 1 | sort

-- one table from several clauses: static partitions, a dynamic one, and
-- INSERT INTO twice into the same dynamic partition (two deltas of the
-- same write id, statement ids 0 and 1 and 2)
FROM src
INSERT INTO parts PARTITION (g='low') SELECT id, amount WHERE amount < 2
INSERT INTO parts PARTITION (g='high') SELECT id, amount WHERE amount >= 2
INSERT INTO parts PARTITION (g) SELECT id, amount, grp WHERE id > 3;
SELECT g, id, amount FROM parts ORDER BY g, id;
SELECT ROW__ID, g, id FROM parts ORDER BY g, id;
-- @sh cd warehouse/parts && find . -mindepth 1 -type d | sort
FROM src
INSERT INTO parts PARTITION (g) SELECT id, amount, 'dup' WHERE id = 1
INSERT INTO parts PARTITION (g) SELECT id + 10, amount, 'dup' WHERE id = 2;
SELECT ROW__ID, g, id FROM parts WHERE g = 'dup' ORDER BY id;
-- @sh cd warehouse/parts/g=dup && ls

-- INSERT OVERWRITE and INSERT INTO mixed on different targets; the
-- overwritten partition's old rows go, the others stay
FROM src
INSERT OVERWRITE TABLE parts PARTITION (g='high') SELECT id, amount WHERE id = 3
INSERT INTO parts PARTITION (g='low') SELECT 99, amount WHERE id = 1
INSERT OVERWRITE TABLE acid2 SELECT id, amount WHERE id = 5;
SELECT g, id, amount FROM parts ORDER BY g, id;
SELECT * FROM acid2;
-- @sh cd warehouse/parts && find g=high g=low -mindepth 1 -maxdepth 1 | sort

-- the target is the source: every clause reads the rows as they were
-- before the statement, never what an earlier clause wrote
CREATE TABLE self (v INT) PARTITIONED BY (p STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO self PARTITION (p='a') VALUES (1), (2);
FROM self
INSERT INTO self PARTITION (p='b') SELECT v + 10
INSERT INTO self PARTITION (p='c') SELECT v + 20
INSERT INTO acid1 SELECT v * 1000, NULL;
SELECT * FROM self ORDER BY v, p;
SELECT id FROM acid1 WHERE id >= 1000 ORDER BY id;
FROM self
INSERT OVERWRITE TABLE self PARTITION (p='a') SELECT v WHERE v > 20
INSERT INTO acid2 SELECT count(*), sum(v);
SELECT * FROM self ORDER BY v, p;
SELECT * FROM acid2 ORDER BY id;

-- a failing clause leaves every clause's rows invisible: here the second
-- clause cannot convert 'x' to an INT after the first has written rows, a
-- new partition and plain files
FROM src
INSERT INTO acid1 SELECT id, amount
INSERT INTO parts PARTITION (g) SELECT id, amount, 'fresh'
INSERT INTO plain SELECT id, note
INSERT INTO acid2 SELECT note, amount;
SELECT count(*) FROM acid1;
SELECT DISTINCT g FROM parts ORDER BY g;
SELECT count(*) FROM plain;
SELECT count(*) FROM acid2;
-- @sh cd warehouse && ls parts plain
-- an error found while planning a later clause writes nothing either
FROM src
INSERT INTO acid1 SELECT id, amount
INSERT INTO acid2 SELECT nosuch, amount;
FROM src INSERT INTO acid1 SELECT id, amount INSERT INTO acid2 SELECT id;
SELECT count(*) FROM acid1;

-- the same output twice the same way is Hive's error 10087.  A unit that
-- one clause overwrites and another writes too is refused: Hive accepts
-- INTO and OVERWRITE of one output (different write types), but its
-- readers then drop the inserted delta behind the new base of the same
-- write id
FROM src INSERT INTO acid1 SELECT id, amount INSERT INTO acid1 SELECT id, amount;
FROM src INSERT OVERWRITE TABLE acid1 SELECT id, amount INSERT OVERWRITE TABLE acid1 SELECT id, amount;
FROM src
INSERT INTO parts PARTITION (g='low') SELECT id, amount
INSERT INTO parts PARTITION (g='high') SELECT id, amount
INSERT INTO parts PARTITION (g='low') SELECT id, amount;
FROM src
INSERT INTO acid1 SELECT id, amount
INSERT OVERWRITE TABLE acid1 SELECT id, amount;
FROM src
INSERT OVERWRITE TABLE parts PARTITION (g) SELECT id, amount, 'a' WHERE id = 1
INSERT INTO parts PARTITION (g) SELECT id, amount, grp WHERE id = 3;
SELECT g, id FROM parts WHERE g = 'a';
-- disjoint dynamic partitions: an overwrite next to an insert is fine
FROM src
INSERT INTO parts PARTITION (g) SELECT id, amount, grp WHERE id = 3
INSERT OVERWRITE TABLE parts PARTITION (g) SELECT id, amount, 'zz' WHERE id = 1;
SELECT g, id FROM parts WHERE g IN ('a', 'zz') ORDER BY g, id;

-- Hive's FROM-first SELECT
FROM src SELECT grp, count(*) WHERE id > 1 GROUP BY grp ORDER BY grp;
FROM src x SELECT x.id SORT BY x.id DESC LIMIT 2;

-- the FROM may be a view or a subquery; each clause reads it, and every
-- read is opened before the statement's write ids exist (a view over a
-- target reads the rows as they were)
CREATE TABLE m1 (id INT, amount DECIMAL(6,2)) STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE m2 (id INT, amount DECIMAL(6,2)) PARTITIONED BY (g STRING)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE VIEW src_a AS SELECT id, grp, amount FROM src WHERE grp = 'a';
FROM src_a v
INSERT INTO m1 SELECT v.id, v.amount SORT BY v.id DESC
INSERT INTO m2 PARTITION (g) SELECT id, amount, grp;
SELECT ROW__ID.rowid, id, amount FROM m1 ORDER BY id;
SELECT g, id FROM m2 ORDER BY id;
FROM (SELECT id * 10 AS id, amount FROM src WHERE amount IS NOT NULL) q
INSERT OVERWRITE TABLE m1 SELECT q.id, q.amount WHERE q.id > 20
INSERT INTO m2 PARTITION (g = 'q') SELECT id, amount CLUSTER BY id;
SELECT * FROM m1 ORDER BY id;
SELECT g, id FROM m2 WHERE g = 'q' ORDER BY id;
CREATE VIEW m1_view AS SELECT id, amount FROM m1;
FROM m1_view
INSERT INTO m1 SELECT id + 1, amount
INSERT INTO m2 PARTITION (g = 'v') SELECT count(*), NULL;
SELECT id FROM m1 ORDER BY id;
SELECT g, id FROM m2 WHERE g = 'v';
FROM src INSERT INTO src_a SELECT id, grp, amount;
FROM (SELECT id FROM src) INSERT INTO m1 SELECT id, NULL;
-- EXPLAIN of a multi-insert: each clause's plan in clause order; nothing
-- is written
EXPLAIN FROM src_a v
INSERT INTO m1 SELECT v.id, v.amount SORT BY v.id
INSERT INTO m2 PARTITION (g) SELECT id, amount, grp DISTRIBUTE BY grp;
EXPLAIN FROM src INSERT INTO src_a SELECT id, grp, amount;
SELECT count(*) FROM m1;
