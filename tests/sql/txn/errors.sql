-- The errors of explicit transactions (Hive's 20007 / 20008 where Hive
-- has them) and the PostgreSQL rule after a failure: the transaction is
-- aborted, later statements are refused, COMMIT rolls back and says so.
CREATE TABLE t (id INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
CREATE TABLE plain (id INT) STORED AS TEXTFILE;
COMMIT;
ROLLBACK;
COMMIT WORK;
-- nested BEGIN
BEGIN;
START TRANSACTION;
SELECT 1;
COMMIT;
-- DDL inside
BEGIN;
INSERT INTO t VALUES (1);
CREATE TABLE u (a INT);
ROLLBACK;
BEGIN;
DROP TABLE t;
ROLLBACK;
BEGIN;
TRUNCATE TABLE t;
ROLLBACK;
BEGIN;
ALTER TABLE t ADD COLUMNS (b INT);
ROLLBACK;
BEGIN;
CREATE TABLE c2 AS SELECT * FROM t;
ROLLBACK;
-- the failed statement's siblings are rolled back too
BEGIN;
INSERT INTO t VALUES (2);
SELECT nosuchcol FROM t;
INSERT INTO t VALUES (3);
SELECT * FROM t;
COMMIT;
SELECT count(*) FROM t;
-- a parse error inside: line and column, then the same rule
BEGIN;
INSERT INTO t VALUES (4);
INSERT INTO t VALUSE (5);
ROLLBACK;
SELECT count(*) FROM t;
-- writes of a non-transactional table cannot roll back: refused
BEGIN;
INSERT INTO plain VALUES (1);
ROLLBACK;
SELECT count(*) FROM plain;
-- READ ONLY
START TRANSACTION READ ONLY;
SELECT count(*) FROM t;
UPDATE t SET id = 0;
ROLLBACK;
START TRANSACTION READ WRITE, ISOLATION LEVEL SNAPSHOT;
INSERT INTO t VALUES (6);
COMMIT;
START TRANSACTION ISOLATION LEVEL SERIALIZABLE;
START TRANSACTION READ;
START TRANSACTION,;
BEGIN TRANSACTION WORK;
COMMIT TRANSACTION;
-- INSERT OVERWRITE, then another write of the same table: refused
BEGIN;
INSERT OVERWRITE TABLE t VALUES (7);
SELECT * FROM t;
INSERT INTO t VALUES (8);
ROLLBACK;
SELECT * FROM t ORDER BY id;
-- begin, work and transaction stay identifiers
CREATE TABLE begin (work INT, transaction INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO begin VALUES (1, 2);
SELECT work, transaction FROM begin;
