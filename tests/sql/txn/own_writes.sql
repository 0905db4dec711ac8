-- Several writes of one table in one transaction: one write id, one
-- statement id per writing statement (delta_W_W_S, the statement id also in
-- the bucket property of ROW__ID.bucketid), later statements read and
-- update or delete rows earlier ones wrote, and no statement reads its own
-- output.
CREATE TABLE t (id INT, v STRING) CLUSTERED BY (id) INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, 'old');
BEGIN;
INSERT INTO t VALUES (2, 'a'), (3, 'b'), (4, 'c');
INSERT INTO t VALUES (5, 'd');
SELECT ROW__ID, id, v FROM t ORDER BY id;
-- delete of rows inserted by this transaction, and of a committed one
DELETE FROM t WHERE id IN (1, 3);
UPDATE t SET v = upper(v) WHERE id >= 4;
SELECT ROW__ID, id, v FROM t ORDER BY id;
-- reads its earlier rows, not its own output: doubles once
INSERT INTO t SELECT id + 10, v FROM t;
SELECT id, v FROM t ORDER BY id;
-- an update of rows the previous statement wrote
UPDATE t SET v = concat(v, '!') WHERE id > 10;
DELETE FROM t WHERE id = 12;
SELECT id, v FROM t ORDER BY id;
COMMIT;
-- @sh cd "$WH/t" && find . -mindepth 1 -type d | sort
SELECT ROW__ID, id, v FROM t ORDER BY id;
-- a partitioned table: statement ids per partition, own rows updated across partitions
CREATE TABLE p (id INT, v INT) PARTITIONED BY (k STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
BEGIN;
INSERT INTO p PARTITION (k) VALUES (1, 10, 'x'), (2, 20, 'y');
INSERT INTO p PARTITION (k = 'x') VALUES (3, 30);
UPDATE p SET v = v + 1;
INSERT INTO p PARTITION (k) SELECT id + 100, v, k FROM p;
SELECT id, v, k FROM p ORDER BY id;
COMMIT;
-- @sh cd "$WH/p" && find . -mindepth 1 -type d | sort
SELECT id, v, k FROM p ORDER BY id;
-- a multi-insert inside a transaction: its clauses number on from the
-- statements before
CREATE TABLE m (id INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE m2 (id INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
BEGIN;
INSERT INTO m VALUES (1);
FROM t INSERT INTO m SELECT id WHERE id < 5 INSERT INTO m2 SELECT id WHERE id > 10;
DELETE FROM m WHERE id = 1;
SELECT ROW__ID, id FROM m ORDER BY id;
COMMIT;
-- @sh cd "$WH" && find m m2 -mindepth 1 -type d | sort
SELECT ROW__ID, id FROM m ORDER BY id;
SELECT ROW__ID, id FROM m2 ORDER BY id;
