-- Bad input gives clear errors and changes nothing.
CREATE TABLE t (a INT, b STRING) TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, 'one');
-- syntax errors name line:column and the token
SELEC * FROM t;
SELECT * FORM t;
SELECT a,
  b FROM t WHERE a = = 1;
-- unknown names
SELECT * FROM nosuch;
SELECT * FROM nosuchdb.t;
SELECT nosuch FROM t;
SELECT x.a FROM t;
USE nosuchdb;
UPDATE t SET nosuch = 1;
DELETE FROM nosuch;
-- wrong value types and bad values
INSERT INTO t VALUES ('abc', 'x');
INSERT INTO t VALUES (1);
INSERT INTO t (a, nosuch) VALUES (1, 'x');
INSERT INTO t VALUES (true, 'x');
INSERT INTO t VALUES (3000000000, 'x');
INSERT INTO t VALUES (1.5, 'x');
SELECT * FROM t WHERE b;
SELECT a + true FROM t;
SELECT count(*) FROM t WHERE count(*) > 1;
-- the table is unchanged
SELECT * FROM t;
-- an unterminated string at the end of input is reported, not dropped
INSERT INTO t VALUES (1, 'unterminated);
