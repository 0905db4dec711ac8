-- An aggregation joined by one of its GROUP BY keys (a decorrelated scalar
-- subquery, TPC-H Q17; a grouped derived table) reads only the rows whose
-- key the other side's filtered scan can give: a LEFT SEMI join with a
-- second scan of that table under the aggregation (EXPLAIN shows it).  The
-- answers are the ones without it: NULL keys on both sides, duplicate
-- keys, keys of the aggregated table the other table lacks, an empty
-- filtered side, a count over no rows (0), HAVING; where unmatched groups
-- show (RIGHT join) or which groups are kept would change (LIMIT), or the
-- filter cannot be scanned twice (rand()), no semi join is added.
CREATE TABLE part (pk BIGINT, brand STRING, size INT) STORED AS ORC;
INSERT INTO part VALUES (1, 'A', 10), (2, 'A', 20), (3, 'B', 30), (4, 'A', 40),
  (NULL, 'A', 50), (5, 'B', 60), (2, 'A', 70);
CREATE TABLE item (pk INT, qty INT, price DOUBLE) STORED AS ORC;
INSERT INTO item VALUES (1, 1, 10.0), (1, 9, 90.0), (2, 2, 20.0), (2, 4, 40.0), (2, 30, 300.0),
  (3, 1, 1.0), (3, 5, 5.0), (NULL, 1, 1000.0), (NULL, 100, 2000.0), (6, 1, 7.0), (6, 2, 8.0);

-- Q17's shape: brand A keeps parts 1, 2 (twice), 4 and NULL; the
-- aggregation reads only items of those keys (part 4 has none, NULL none)
EXPLAIN SELECT sum(i.price) FROM item i, part p
WHERE p.pk = i.pk AND p.brand = 'A'
  AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.pk = p.pk);
-- part 1: avg 5, half 2.5: qty 1 (10.0); part 2 (two rows): avg 12, half
-- 6: qty 2 and 4 (20 + 40) for each of the two rows
SELECT sum(i.price) FROM item i, part p
WHERE p.pk = i.pk AND p.brand = 'A'
  AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.pk = p.pk);
SELECT p.size, i.qty FROM item i, part p
WHERE p.pk = i.pk AND p.brand = 'A'
  AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.pk = p.pk)
ORDER BY p.size, i.qty;
-- in the select list: count over no rows is 0 (part 4, the NULL part),
-- avg NULL
SELECT p.size, (SELECT count(*) FROM item i WHERE i.pk = p.pk) n,
  (SELECT avg(i.qty) FROM item i WHERE i.pk = p.pk) a
FROM part p WHERE p.brand = 'A' ORDER BY p.size;
EXPLAIN SELECT p.size, (SELECT count(*) FROM item i WHERE i.pk = p.pk) n FROM part p WHERE p.size > 30;
SELECT p.size, (SELECT count(*) FROM item i WHERE i.pk = p.pk) n FROM part p WHERE p.size > 30 ORDER BY p.size;
-- an empty filtered side: no rows, and nothing aggregated
SELECT p.size, (SELECT count(*) FROM item i WHERE i.pk = p.pk) n FROM part p WHERE p.brand = 'none';
SELECT sum(i.price) FROM item i, part p
WHERE p.pk = i.pk AND p.brand = 'none'
  AND i.qty < (SELECT 0.5 * avg(i2.qty) FROM item i2 WHERE i2.pk = p.pk);
-- a grouped derived table joined by its key, with HAVING; LEFT join keeps
-- the parts without a group
EXPLAIN SELECT p.size, g.total FROM part p
JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk HAVING sum(qty) > 3) g ON g.pk = p.pk
WHERE p.brand = 'B';
SELECT p.size, g.total FROM part p
JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk HAVING sum(qty) > 3) g ON g.pk = p.pk
WHERE p.brand = 'B' ORDER BY p.size;
SELECT p.size, g.total FROM part p
LEFT JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk) g ON g.pk = p.pk
WHERE p.brand = 'A' ORDER BY p.size;
-- the aggregation on the left of an inner join
SELECT p.size, g.total FROM (SELECT pk, sum(qty) total FROM item GROUP BY pk) g
JOIN part p ON p.pk = g.pk WHERE p.size < 25 ORDER BY p.size;
-- a RIGHT join shows every group: no restriction
EXPLAIN SELECT p.size, g.pk, g.total FROM (SELECT * FROM part WHERE brand = 'B') p
RIGHT JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk) g ON g.pk = p.pk;
SELECT p.size, g.pk, g.total FROM (SELECT * FROM part WHERE brand = 'B') p
RIGHT JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk) g ON g.pk = p.pk
ORDER BY g.pk;
-- a LIMIT over the groups picks among all of them: no restriction
EXPLAIN SELECT p.size, g.total FROM part p
JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk ORDER BY total DESC LIMIT 2) g ON g.pk = p.pk
WHERE p.brand = 'B';
SELECT p.size, g.total FROM part p
JOIN (SELECT pk, sum(qty) total FROM item GROUP BY pk ORDER BY total DESC LIMIT 2) g ON g.pk = p.pk
WHERE p.brand = 'B' ORDER BY p.size;
-- a volatile filter would draw other rows in a second scan: none
EXPLAIN SELECT p.size, (SELECT count(*) FROM item i WHERE i.pk = p.pk) n FROM part p WHERE rand() < 2.0;
-- DELETE whose target is the filtered scan: the second scan reads the
-- table under the same snapshot (pk 1 and 2 lose their rows above their
-- key's average: qty 9 and 30)
EXPLAIN DELETE FROM item WHERE pk < 3 AND qty > (SELECT avg(i2.qty) FROM item i2 WHERE i2.pk = item.pk);
DELETE FROM item WHERE pk < 3 AND qty > (SELECT avg(i2.qty) FROM item i2 WHERE i2.pk = item.pk);
SELECT pk, qty FROM item ORDER BY pk, qty;
