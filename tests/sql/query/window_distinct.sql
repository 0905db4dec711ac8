-- SELECT DISTINCT with window functions: as in Hive, the windows are
-- computed over every row first and DISTINCT removes the duplicate result
-- rows after them.
CREATE TABLE w (g STRING, v INT);
INSERT INTO w VALUES ('a', 1), ('a', 1), ('a', 2), ('b', 5), ('b', NULL), (NULL, 3), (NULL, 3);

-- the window sees all 7 rows (a has 3), DISTINCT leaves one row per group
SELECT DISTINCT g, count(*) OVER (PARTITION BY g) AS n FROM w ORDER BY g;
EXPLAIN SELECT DISTINCT g, count(*) OVER (PARTITION BY g) AS n FROM w;
-- rank over the duplicates: a's two 1s are rank 1, its 2 is rank 3; b's
-- NULL sorts last (rank 2); the duplicate result rows go
SELECT DISTINCT g, v, rank() OVER (PARTITION BY g ORDER BY v) AS r FROM w ORDER BY g, v;
-- row_number makes every row unique: nothing to remove
SELECT DISTINCT g, row_number() OVER (PARTITION BY g ORDER BY v) AS rn FROM w ORDER BY g, rn;
-- a window over the whole input, with NULL values: sum(v) = 15 everywhere
SELECT DISTINCT sum(v) OVER () AS total, count(v) OVER () AS c FROM w;
-- DISTINCT of a window result alone
SELECT DISTINCT max(v) OVER (PARTITION BY g) AS m FROM w ORDER BY m;

-- windows over a WHERE whose EXISTS became a semi join (the mark column
-- the binder planned goes; the windows' columns follow their input)
CREATE TABLE one (x INT);
INSERT INTO one VALUES (1);
SELECT g, v, count(*) OVER (PARTITION BY g) AS n FROM w WHERE EXISTS (SELECT 1 FROM one) ORDER BY g, v;
SELECT DISTINCT g, count(*) OVER (PARTITION BY g) AS n FROM w WHERE NOT EXISTS (SELECT 1 FROM one WHERE x = v) ORDER BY g;
