-- NULLs in every column type survive the write/read path, including a
-- column that is NULL in every row of a file, and delete files (whose row
-- struct is NULL) are read back without trouble.
CREATE TABLE n (id INT, b BOOLEAN, t TINYINT, s SMALLINT, l BIGINT, f FLOAT, d DOUBLE, v VARCHAR(5), c CHAR(3), str STRING)
CLUSTERED BY (id) INTO 2 BUCKETS TBLPROPERTIES ('transactional'='true');
INSERT INTO n (id) VALUES (1), (2), (3);
INSERT INTO n VALUES (4, true, 1Y, 2S, 3L, 1.5, 2.25, 'abc', 'xy', 'str'), (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
SELECT * FROM n ORDER BY id;
UPDATE n SET d = 1.0 WHERE id = 2;
DELETE FROM n WHERE id = 3;
SELECT id, d, d IS NULL, str FROM n ORDER BY id;
SELECT count(*), count(d), count(str), sum(l), min(f), max(v) FROM n;
