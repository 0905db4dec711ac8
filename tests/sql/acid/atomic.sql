-- A statement that fails half-way leaves nothing visible: its write id is
-- aborted and its files (if any were written) are ignored by readers.
CREATE TABLE t (a INT, b STRING, c INT) CLUSTERED BY (a) INTO 2 BUCKETS
TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, '10', 0), (2, '20', 0), (3, 'oops', 0), (4, '40', 0);
-- row 3 cannot be converted: the whole UPDATE fails, rows 1, 2 and 4 too
UPDATE t SET c = b;
-- bucketing columns cannot be updated (Hive's error 10302)
UPDATE t SET a = 5;
SELECT * FROM t ORDER BY a;
-- INSERT ... SELECT that fails on a later row inserts nothing either
CREATE TABLE u (a INT) TBLPROPERTIES ('transactional'='true');
INSERT INTO u SELECT b FROM t;
SELECT count(*) FROM u;
-- the table still works afterwards
UPDATE t SET b = 'three' WHERE a = 3;
DELETE FROM t WHERE a = 1;
SELECT ROW__ID, * FROM t ORDER BY a;
