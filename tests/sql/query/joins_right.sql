-- RIGHT OUTER joins, built on either side: the right (preserved) side is
-- hashed and its rows without a match come last with NULLs on the left,
-- or the left side is hashed when it is estimated smaller and the right
-- rows stream.  NULL keys, duplicate keys on the built side, residual ON
-- conditions, empty sides, the nested loop and a spilled build.
CREATE TABLE big (k INT, v STRING) STORED AS ORC;
INSERT INTO big VALUES (1, 'b1'), (2, 'b2'), (2, 'b2bis'), (3, 'b3'), (NULL, 'bnull'),
  (5, 'b5'), (6, 'b6'), (7, 'b7'), (8, 'b8'), (9, 'b9');
-- 3000 more rows that match nothing make big the larger side by its files
INSERT INTO big SELECT pos + 100, concat('f', pos) FROM (SELECT posexplode(split(space(2999), ' ')) AS (pos, x)) e;
CREATE TABLE small (k BIGINT, w STRING, n INT) STORED AS ORC;
INSERT INTO small VALUES (2, 's2', 10), (2, 's2dup', 20), (4, 's4', 30), (NULL, 'snull', 40), (1, 's1', 0);
CREATE TABLE nothing (k INT, v STRING) STORED AS ORC;

-- the right side is the smaller: it is built (EXPLAIN says so); duplicate
-- build keys pair with every match, NULL keys never match and both NULL
-- rows come out: the left one dropped (not preserved), the right one kept
EXPLAIN SELECT b.v, s.w FROM big b RIGHT JOIN small s ON b.k = s.k;
SELECT b.v, s.w FROM big b RIGHT JOIN small s ON b.k = s.k ORDER BY s.w, b.v;
-- the same join the other way round builds the left side
EXPLAIN SELECT b.v, s.w FROM small s RIGHT JOIN big b ON b.k = s.k;
SELECT b.v, s.w FROM small s RIGHT JOIN big b ON b.k = s.k WHERE b.k < 100 OR b.k IS NULL ORDER BY b.v, s.w;
SELECT count(*), count(s.k), count(b.k) FROM small s RIGHT JOIN big b ON b.k = s.k;
-- <=> matches NULL with NULL on either build side
SELECT b.v, s.w FROM big b RIGHT JOIN small s ON b.k <=> s.k ORDER BY s.w, b.v;
SELECT b.v, s.w FROM small s RIGHT JOIN big b ON b.k <=> s.k WHERE b.k < 100 OR b.k IS NULL ORDER BY b.v, s.w;
-- a residual condition in ON: a build row whose only candidates fail it is
-- unmatched (s2dup: n = 20 fails n < 15 for both b2 rows)
SELECT b.v, s.w FROM big b RIGHT JOIN small s ON b.k = s.k AND s.n < 15 ORDER BY s.w, b.v;
SELECT b.v, s.w FROM big b RIGHT JOIN small s ON b.k = s.k AND b.v <> 'b2' ORDER BY s.w, b.v;
SELECT b.v, s.w FROM small s RIGHT JOIN big b ON b.k = s.k AND s.n < 15 WHERE b.k < 100 OR b.k IS NULL ORDER BY b.v, s.w;
-- a WHERE on the NULL-extended side keeps only the unmatched right rows
SELECT s.w FROM big b RIGHT JOIN small s ON b.k = s.k WHERE b.k IS NULL ORDER BY s.w;
-- empty sides: an empty left keeps every right row, an empty right nothing
SELECT x.v, s.w FROM nothing x RIGHT JOIN small s ON x.k = s.k ORDER BY s.w;
SELECT b.v, x.v FROM big b RIGHT JOIN nothing x ON b.k = x.k;
SELECT count(*) FROM nothing x RIGHT JOIN nothing y ON x.k = y.k;
-- no equality: a nested loop over the built right side, unmatched rows last
SELECT b.v, s.w FROM big b RIGHT JOIN small s ON b.k > s.n AND b.k < 100 ORDER BY s.w, b.v;
-- counted: every right row once at least, matches as often as they pair
SELECT count(*), count(b.k), count(s.k), sum(s.n) FROM big b RIGHT JOIN small s ON b.k = s.k;
SELECT s.w, count(b.v) FROM big b RIGHT JOIN small s ON b.k = s.k GROUP BY s.w ORDER BY s.w;
-- over the memory limit both sides go to partition files; the unmatched
-- build rows of every partition pair still come out once
CREATE TABLE g AS SELECT pos AS n, concat('v', pos % 97) AS s FROM (SELECT posexplode(split(space(19999), ' ')) AS (pos, x)) e;
SET comb.exec.memory.limit=256k;
SELECT count(*), count(a.n), sum(b.n), count(DISTINCT b.s) FROM (SELECT n FROM g WHERE n % 3 = 0) a RIGHT JOIN (SELECT n, s FROM g WHERE n < 15000) b ON a.n = b.n;
SELECT count(*), count(a.n), sum(b.n) FROM (SELECT n FROM g WHERE n % 3 = 0) a RIGHT JOIN (SELECT n FROM g WHERE n < 15000) b ON a.n = b.n AND b.n % 2 = 0;
SET comb.exec.memory.limit=0;
SELECT count(*), count(a.n), sum(b.n), count(DISTINCT b.s) FROM (SELECT n FROM g WHERE n % 3 = 0) a RIGHT JOIN (SELECT n, s FROM g WHERE n < 15000) b ON a.n = b.n;
SELECT count(*), count(a.n), sum(b.n) FROM (SELECT n FROM g WHERE n % 3 = 0) a RIGHT JOIN (SELECT n FROM g WHERE n < 15000) b ON a.n = b.n AND b.n % 2 = 0;
