-- LEFT SEMI / ANTI joins (IN, EXISTS, NOT EXISTS, LEFT SEMI JOIN) built on
-- either side: the right (subquery) side is hashed and the left rows
-- stream, or the left side is hashed when it is estimated smaller, the
-- subquery's rows mark the left rows they match and the marked (SEMI) or
-- unmarked (ANTI) ones come at the end.  Every query runs both ways (the
-- small table on the left, then on the right of the same question) and the
-- answers must agree: NULL keys on either side, duplicate keys on both,
-- residual conditions (a match must pass them), empty sides, a spilled
-- build.  NOT IN's null-aware anti join always builds the subquery side.
CREATE TABLE big (k INT, v STRING, n INT) STORED AS ORC;
INSERT INTO big VALUES (1, 'b1', 1), (2, 'b2', 2), (2, 'b2bis', 3), (3, 'b3', 4), (NULL, 'bnull', 5),
  (5, 'b5', 6), (6, 'b6', 7), (7, 'b7', 8), (8, 'b8', 9), (9, 'b9', 10);
-- 3000 more rows that match nothing make big the larger side by its files
INSERT INTO big SELECT pos + 100, concat('f', pos), pos FROM (SELECT posexplode(split(space(2999), ' ')) AS (pos, x)) e;
CREATE TABLE small (k BIGINT, w STRING, n INT) STORED AS ORC;
INSERT INTO small VALUES (2, 's2', 2), (2, 's2dup', 20), (4, 's4', 30), (NULL, 'snull', 40), (1, 's1', 1), (1, 's1dup', 1);
CREATE TABLE nothing (k INT, v STRING, n INT) STORED AS ORC;

-- the left side is the smaller: it is built (EXPLAIN says so), the other
-- way round the right one is
EXPLAIN SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k);
EXPLAIN SELECT b.v FROM big b WHERE EXISTS (SELECT 1 FROM small s WHERE b.k = s.k);
EXPLAIN SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.n <> s.n);
-- NOT IN keeps the subquery side built whatever the sizes
EXPLAIN SELECT s.w FROM small s WHERE s.k NOT IN (SELECT b.k FROM big b);

-- EXISTS: duplicate keys on both sides give each left row once; a NULL key
-- never matches (snull and bnull stay out)
SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k) ORDER BY s.w;
SELECT b.v FROM big b WHERE EXISTS (SELECT 1 FROM small s WHERE b.k = s.k) ORDER BY b.v;
-- NOT EXISTS: the others, the NULL-keyed rows included
SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k) ORDER BY s.w;
SELECT b.v FROM big b WHERE NOT EXISTS (SELECT 1 FROM small s WHERE b.k = s.k) AND (b.k < 100 OR b.k IS NULL) ORDER BY b.v;
SELECT count(*) FROM big b WHERE NOT EXISTS (SELECT 1 FROM small s WHERE b.k = s.k);
-- IN and LEFT SEMI JOIN are SEMI joins too
SELECT s.w FROM small s WHERE s.k IN (SELECT b.k FROM big b) ORDER BY s.w;
SELECT b.v FROM big b WHERE b.k IN (SELECT s.k FROM small s) ORDER BY b.v;
SELECT s.w FROM small s LEFT SEMI JOIN big b ON b.k = s.k ORDER BY s.w;
SELECT b.v FROM big b LEFT SEMI JOIN small s ON b.k = s.k ORDER BY b.v;
-- a residual condition: a match counts only when it passes (Q21's
-- l2.l_suppkey <> l1.l_suppkey): s2dup (n 20) matches b2 (2) and b2bis
-- (3); s2 (n 2) only b2bis; s1 and s1dup (n 1) nothing, as b1 has n 1
SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.n <> s.n) ORDER BY s.w;
SELECT b.v FROM big b WHERE EXISTS (SELECT 1 FROM small s WHERE b.k = s.k AND b.n <> s.n) ORDER BY b.v;
SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.n <> s.n) ORDER BY s.w;
SELECT b.v FROM big b WHERE NOT EXISTS (SELECT 1 FROM small s WHERE b.k = s.k AND b.n <> s.n) AND (b.k < 100 OR b.k IS NULL) ORDER BY b.v;
-- a residual whose NULL is no match: n < NULL is NULL
SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.n < CAST(NULL AS INT)) ORDER BY s.w;
SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.n < CAST(NULL AS INT)) ORDER BY s.w;
-- NOT IN: a NULL on the subquery side gives no rows, a NULL left key is
-- never kept while the subquery has rows; without NULLs the unmatched
-- non-NULL keys
SELECT s.w FROM small s WHERE s.k NOT IN (SELECT b.k FROM big b) ORDER BY s.w;
SELECT s.w FROM small s WHERE s.k NOT IN (SELECT b.k FROM big b WHERE b.k IS NOT NULL) ORDER BY s.w;
SELECT b.v FROM big b WHERE b.k NOT IN (SELECT s.k FROM small s WHERE s.k IS NOT NULL) AND b.k < 100 ORDER BY b.v;
SELECT count(*) FROM big b WHERE b.k NOT IN (SELECT s.k FROM small s);
SELECT s.w FROM small s WHERE s.k NOT IN (SELECT b.k FROM big b WHERE b.n > 100000) ORDER BY s.w;
-- empty sides: an empty subquery keeps every row under NOT EXISTS and none
-- under EXISTS; an empty left gives nothing either way
SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM nothing x WHERE x.k = s.k) ORDER BY s.w;
SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM nothing x WHERE x.k = s.k) ORDER BY s.w;
SELECT x.v FROM nothing x WHERE EXISTS (SELECT 1 FROM big b WHERE b.k = x.k);
SELECT x.v FROM nothing x WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = x.k);
SELECT count(*) FROM big b WHERE NOT EXISTS (SELECT 1 FROM nothing x WHERE x.k = b.k);
-- a subquery filtered to nothing at run time (the estimate still says big)
SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k = s.k AND b.n > 100000) ORDER BY s.w;
-- a NULL-safe key: <=> matches NULL with NULL (snull with bnull)
EXPLAIN SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k <=> s.k AND b.n < 6);
SELECT s.w FROM small s WHERE EXISTS (SELECT 1 FROM big b WHERE b.k <=> s.k AND b.n < 6) ORDER BY s.w;
SELECT s.w FROM small s WHERE NOT EXISTS (SELECT 1 FROM big b WHERE b.k <=> s.k AND b.n < 6) ORDER BY s.w;
-- over the memory limit both sides go to partition files; each partition
-- pair's marked or unmarked build rows come out once
CREATE TABLE g AS SELECT pos AS n, concat('v', pos % 97) AS s FROM (SELECT posexplode(split(space(29999), ' ')) AS (pos, x)) e;
SET comb.exec.memory.limit=256k;
EXPLAIN SELECT count(*), sum(a.n) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.s <> a.s);
SELECT count(*), sum(a.n), count(DISTINCT a.s) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.n % 3 = 0);
SELECT count(*), sum(a.n), count(DISTINCT a.s) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE NOT EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.n % 3 = 0);
SELECT count(*), sum(a.n) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.s <> a.s);
SELECT count(*), sum(a.n) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE NOT EXISTS (SELECT 1 FROM g b WHERE b.n = a.n + 1 AND b.n % 5 <> a.n % 3);
SET comb.exec.memory.limit=0;
SELECT count(*), sum(a.n), count(DISTINCT a.s) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.n % 3 = 0);
SELECT count(*), sum(a.n), count(DISTINCT a.s) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE NOT EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.n % 3 = 0);
SELECT count(*), sum(a.n) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE EXISTS (SELECT 1 FROM g b WHERE b.n = a.n AND b.s <> a.s);
SELECT count(*), sum(a.n) FROM (SELECT n, s FROM g WHERE n < 12000) a WHERE NOT EXISTS (SELECT 1 FROM g b WHERE b.n = a.n + 1 AND b.n % 5 <> a.n % 3);
