-- MERGE with every WHEN clause form into a bucketed table: UPDATE, DELETE
-- and INSERT legs, each with its own statement id under one write id.
CREATE TABLE t (id INT, name STRING, score INT)
CLUSTERED BY (id) INTO 2 BUCKETS STORED AS ORC
TBLPROPERTIES ('transactional'='true');
CREATE TABLE s (id INT, name STRING, score INT, op STRING);
INSERT INTO t VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cy', 30), (4, 'di', 40);
INSERT INTO s VALUES (1, 'ANN', 11, 'u'), (2, NULL, NULL, 'd'), (5, 'ed', 50, 'i'),
  (6, 'fay', 60, 'skip'), (3, 'cy', 31, 'keep');
MERGE INTO t AS tt USING s AS ss ON tt.id = ss.id
WHEN MATCHED AND ss.op = 'u' THEN UPDATE SET name = ss.name, score = ss.score + tt.score
WHEN MATCHED AND ss.op = 'd' THEN DELETE
WHEN NOT MATCHED AND ss.op <> 'skip' THEN INSERT VALUES (ss.id, ss.name, ss.score);
SELECT * FROM t ORDER BY id;
SELECT ROW__ID, id FROM t ORDER BY id;
-- write id 2: leg 0 (UPDATE) wrote delete_delta and delta _0000, leg 1
-- (DELETE) delete_delta _0001, leg 2 (INSERT) delta _0002
-- @sh cd "$WH/t" && find . -mindepth 1 | sort
-- the target without an alias is named by its table name; an INSERT
-- column list leaves the other columns NULL; DELETE as the only clause
MERGE INTO t USING s ON t.id = s.id
WHEN NOT MATCHED THEN INSERT (score, id) VALUES (s.score, s.id);
SELECT * FROM t ORDER BY id;
MERGE INTO t USING (SELECT id FROM s WHERE op = 'skip') x ON t.id = x.id
WHEN MATCHED THEN DELETE;
SELECT * FROM t ORDER BY id;
-- the second WHEN MATCHED clause: only where the first's condition is
-- false (NULL keeps the row from both, as Hive's AND NOT(cond) does)
CREATE TABLE u (id INT, flag BOOLEAN);
INSERT INTO u VALUES (1, true), (3, NULL), (5, false);
MERGE INTO t USING u ON t.id = u.id
WHEN MATCHED AND u.flag THEN UPDATE SET name = 'flagged'
WHEN MATCHED THEN DELETE;
SELECT * FROM t ORDER BY id;
-- EXPLAIN shows the legs and the join feeding them
EXPLAIN MERGE INTO t AS tt USING s AS ss ON tt.id = ss.id
WHEN MATCHED AND ss.op = 'u' THEN UPDATE SET name = ss.name
WHEN MATCHED AND ss.op = 'd' THEN DELETE
WHEN NOT MATCHED THEN INSERT VALUES (ss.id, ss.name, ss.score);
