-- Subqueries in HAVING (IN, NOT IN, EXISTS, NOT EXISTS, scalar; plain and
-- correlated with a GROUP BY key) and scalar subqueries in the select list
-- of an aggregate query: they are asked about the groups, joined over the
-- aggregation.
CREATE TABLE s (g STRING, v INT);
INSERT INTO s VALUES ('a', 1), ('a', 2), ('b', 5), ('b', NULL), ('c', NULL), (NULL, 3);
CREATE TABLE r (k STRING, lim INT);
INSERT INTO r VALUES ('a', 2), ('b', 10), (NULL, 1), ('d', 0), ('e', 3);
-- groups: a sum 3, b sum 5, c sum NULL, NULL sum 3; lim: 2, 10, 1, 0, 3

-- IN: sums 3 (a and the NULL group) are among the limits
SELECT g, sum(v) FROM s GROUP BY g HAVING sum(v) IN (SELECT lim FROM r) ORDER BY g;
-- NOT IN: b alone (c's NULL sum is unknown)
SELECT g, sum(v) FROM s GROUP BY g HAVING sum(v) NOT IN (SELECT lim FROM r) ORDER BY g;
-- NOT IN over a NULL gives no row
INSERT INTO r VALUES ('f', NULL);
SELECT g, sum(v) FROM s GROUP BY g HAVING sum(v) NOT IN (SELECT lim FROM r) ORDER BY g;
-- correlated IN: a's limit is 2, not 3; the NULL group matches no key
SELECT g, count(*) FROM s GROUP BY g HAVING count(*) IN (SELECT lim FROM r WHERE r.k = s.g) ORDER BY g;
-- EXISTS / NOT EXISTS on the group key: a and b have a row in r
SELECT g, count(*) FROM s GROUP BY g HAVING EXISTS (SELECT 1 FROM r WHERE r.k = s.g) ORDER BY g;
SELECT g, count(*) FROM s GROUP BY g HAVING NOT EXISTS (SELECT 1 FROM r WHERE r.k = g) ORDER BY g;
-- uncorrelated scalar: sums above the smallest limit (0)
SELECT g, sum(v) FROM s GROUP BY g HAVING sum(v) > (SELECT min(lim) FROM r) ORDER BY g;
-- correlated scalar: b's 5 < 10; a's 3 is not < 2; no limit for c and NULL
SELECT g, sum(v) FROM s GROUP BY g HAVING sum(v) < (SELECT max(lim) FROM r WHERE r.k = s.g) ORDER BY g;
-- a correlated count is 0, not NULL, for a group without rows
SELECT g FROM s GROUP BY g HAVING (SELECT count(*) FROM r WHERE r.k = s.g) = 0 ORDER BY g;
-- with an aggregate and a conjunct beside it
SELECT g, max(v) FROM s GROUP BY g HAVING max(v) > 1 AND g IN (SELECT k FROM r) ORDER BY g;

-- scalar subqueries in the select list of an aggregate query
SELECT g, sum(v), (SELECT max(lim) FROM r) FROM s GROUP BY g ORDER BY g;
SELECT g, sum(v), (SELECT max(lim) FROM r WHERE r.k = s.g) AS m FROM s GROUP BY g ORDER BY g;
SELECT count(*), (SELECT count(*) FROM r), (SELECT count(lim) FROM r) FROM s;
SELECT g, sum(v) + (SELECT min(lim) FROM r WHERE r.k = s.g) FROM s GROUP BY g ORDER BY g;

-- a non-grouped column is not visible to the subquery
SELECT g, count(*) FROM s GROUP BY g HAVING EXISTS (SELECT 1 FROM r WHERE r.lim = s.v);

-- scalar subqueries in the items over a WHERE whose EXISTS became a semi
-- join: each item reads its own subquery's value (c2: rows of r with k = g)
SELECT g, v, (SELECT count(*) FROM r) AS n, (SELECT count(*) FROM r WHERE r.k = s.g) AS m
FROM s WHERE EXISTS (SELECT 1 FROM r WHERE r.lim = s.v) ORDER BY g, v;
