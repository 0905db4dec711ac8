-- MERGE's row semantics: NULL keys never match, a self-merge reads the
-- table as it was, SET sees the old row (swaps), partitioned targets
-- keep updated rows in their partition and insert into dynamic ones.
CREATE TABLE t (a INT, b INT, k STRING) PARTITIONED BY (p STRING)
STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t PARTITION (p) VALUES (1, 10, 'x', 'one'), (2, 20, NULL, 'one'),
  (3, 30, 'z', 'two');
CREATE TABLE s (k STRING, a INT, p STRING);
INSERT INTO s VALUES (NULL, 100, 'three'), ('x', 200, 'three'), ('w', 300, NULL);
-- NULL = NULL is not a match: the NULL-keyed source row is inserted
MERGE INTO t USING s ON t.k = s.k
WHEN MATCHED THEN UPDATE SET a = s.a
WHEN NOT MATCHED THEN INSERT VALUES (s.a, 0, s.k, s.p);
SELECT * FROM t ORDER BY a;
-- @sh cd "$WH/t" && find . -mindepth 1 -type d | sort
-- swapped assignments
MERGE INTO t USING (SELECT 2 AS x) s ON t.a = s.x
WHEN MATCHED THEN UPDATE SET a = b, b = a;
SELECT * FROM t ORDER BY a;
-- self-merge: every row matches itself once, and the new rows it writes
-- are not read again
MERGE INTO t USING t AS src ON t.a = src.a AND t.p <=> src.p
WHEN MATCHED THEN UPDATE SET b = src.b + 1;
SELECT * FROM t ORDER BY a;
SELECT ROW__ID.writeid, a FROM t ORDER BY a;
