-- Explicit transactions: statements inside see the transaction's own
-- writes; ROLLBACK leaves nothing; COMMIT makes everything visible, checked
-- from other processes (each chunk between @sh lines is a new process).
CREATE TABLE acct (id INT, bal INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acct VALUES (1, 100), (2, 200);
BEGIN;
INSERT INTO acct VALUES (3, 300), (4, 400);
UPDATE acct SET bal = bal + 1 WHERE id IN (1, 3);
DELETE FROM acct WHERE id = 4;
-- own writes: 3 inserted, 1 and 3 updated, 4 inserted and deleted again
SELECT * FROM acct ORDER BY id;
SELECT count(*), sum(bal) FROM acct;
ROLLBACK;
SELECT * FROM acct ORDER BY id;
-- @sh echo "another process after ROLLBACK:"
SELECT * FROM acct ORDER BY id;
START TRANSACTION;
INSERT INTO acct VALUES (3, 300), (4, 400);
UPDATE acct SET bal = bal + 1 WHERE id IN (1, 3);
DELETE FROM acct WHERE id = 4;
SELECT * FROM acct ORDER BY id;
COMMIT WORK;
-- @sh echo "another process after COMMIT:"
SELECT * FROM acct ORDER BY id;
-- BEGIN WORK / ROLLBACK WORK, and a transaction that only reads
BEGIN WORK;
SELECT count(*) FROM acct;
ROLLBACK WORK;
BEGIN TRANSACTION;
COMMIT;
-- a transaction left open when the input ends is rolled back (with a notice)
BEGIN;
INSERT INTO acct VALUES (99, 9900);
SELECT count(*) FROM acct WHERE id = 99;
-- @sh echo "another process after an unfinished transaction:"
SELECT count(*) FROM acct WHERE id = 99;
SELECT * FROM acct ORDER BY id;
