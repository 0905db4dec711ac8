-- Push-down over columns whose older files hold another type (ALTER
-- TABLE CHANGE COLUMN): where the conversion keeps every value and its
-- order and makes no NULL (integer widening, an integer read as double
-- or as a decimal holding it, decimal widening) the old file's
-- statistics still skip it; where it does not (narrowing to NULL,
-- rounding to fewer decimals, integers read as float, cut varchars) the
-- old file is read, since its statistics would skip rows that match.
-- Each INSERT is its own delta file; the first holds id 1, the second
-- (written after the changes) id 2.
CREATE TABLE ev (id INT, a INT, b INT, c INT, m DECIMAL(6,2), f INT,
  n BIGINT, r DECIMAL(6,2), v STRING) STORED AS ORC
  TBLPROPERTIES ('transactional'='true');
INSERT INTO ev VALUES (1, 1, 1, 1, 1.25, 16777217, 5000000000, 1.25, 'abcdef');
ALTER TABLE ev CHANGE a a BIGINT;
ALTER TABLE ev CHANGE b b DOUBLE;
ALTER TABLE ev CHANGE c c DECIMAL(12,2);
ALTER TABLE ev CHANGE m m DECIMAL(10,4);
ALTER TABLE ev CHANGE f f FLOAT;
SET hive.metastore.disallow.incompatible.col.type.changes=false;
ALTER TABLE ev CHANGE n n INT;
ALTER TABLE ev CHANGE r r DECIMAL(6,1);
ALTER TABLE ev CHANGE v v VARCHAR(3);
INSERT INTO ev VALUES (2, 100, 100, 100, 100.5, 5, 7, 2.0, 'xyz');
SELECT * FROM ev ORDER BY id;
SET comb.scan.stats=true;
-- widened: the old file is skipped by its statistics
SELECT id FROM ev WHERE a = 100;
SELECT id FROM ev WHERE a = 1;
SELECT id FROM ev WHERE b > 50.5;
SELECT id FROM ev WHERE c = 100;
SELECT id FROM ev WHERE m = 100.5;
SELECT id FROM ev WHERE m < 1.2500;
-- not safe: the old file is read (the new one is skipped by its own
-- statistics), and its row comes back
SELECT id FROM ev WHERE f = 16777216;
SELECT id FROM ev WHERE n IS NULL;
SELECT id FROM ev WHERE r = 1.3;
SELECT id FROM ev WHERE v = 'abc';
