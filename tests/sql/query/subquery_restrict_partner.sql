-- TPC-H Q20's shape: a correlated aggregation keyed by columns of a table
-- that is itself kept by a join with a filtered scan.  The IN beside the
-- scalar subquery in one WHERE becomes a SEMI join (its mark decides
-- below the scalar subquery's SINGLE join, which passes each row on
-- alone), and the aggregation reads only the keys the filtered scan's
-- column can give, through the SEMI (or INNER) join's equality of two
-- columns of one type.  NULL keys, duplicates, keys without partner; not
-- through an ANTI join (NOT IN), a LEFT join, an equality of two types,
-- or an IN under OR (its mark stays a MARK join).
CREATE TABLE ps (pk BIGINT, sk INT, avail INT) STORED AS ORC;
INSERT INTO ps VALUES (1, 10, 5), (1, 11, 100), (2, 10, 3), (3, 10, 50), (NULL, 10, 9),
  (4, 12, 1), (2, 11, 40);
CREATE TABLE pt (pk BIGINT, name STRING, ipk INT) STORED AS ORC;
INSERT INTO pt VALUES (1, 'forest green', 1), (2, 'forest red', 2), (3, 'lime', 3),
  (NULL, 'forest null', NULL), (2, 'forest again', 2);
CREATE TABLE li (pk BIGINT, sk INT, qty INT) STORED AS ORC;
INSERT INTO li VALUES (1, 10, 4), (1, 10, 4), (1, 11, 10), (2, 10, 2), (2, 11, 100),
  (3, 10, 1), (NULL, 10, 1), (4, 12, 1), (5, 10, 7);

EXPLAIN SELECT sk, pk FROM ps
WHERE pk IN (SELECT pk FROM pt WHERE name LIKE 'forest%')
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
-- (1,10): 5 > 4; (1,11): 100 > 5; (2,10): 3 > 1; (2,11): 40 > 50 no;
-- (3,10) is no forest part; NULL pk matches nothing
SELECT sk, pk FROM ps
WHERE pk IN (SELECT pk FROM pt WHERE name LIKE 'forest%')
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk)
ORDER BY pk, sk;
-- NOT IN: an ANTI join, which restricts nothing ((3,10): 50 > 0.5;
-- (4,12): 1 > 0.5); NOT IN over the NULL pk of pt keeps nothing
EXPLAIN SELECT sk, pk FROM ps
WHERE pk NOT IN (SELECT pk FROM pt WHERE name LIKE 'forest%' AND pk IS NOT NULL)
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
SELECT sk, pk FROM ps
WHERE pk NOT IN (SELECT pk FROM pt WHERE name LIKE 'forest%' AND pk IS NOT NULL)
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk)
ORDER BY pk, sk;
SELECT sk, pk FROM ps
WHERE pk NOT IN (SELECT pk FROM pt WHERE name LIKE 'forest%')
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
-- an inner join with the filtered table instead of IN (pt's pk 2 twice:
-- each ps row of pk 2 twice)
EXPLAIN SELECT ps.sk, ps.pk, pt.name FROM ps JOIN pt ON ps.pk = pt.pk
WHERE pt.name LIKE 'forest%'
  AND ps.avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
SELECT ps.sk, ps.pk, pt.name FROM ps JOIN pt ON ps.pk = pt.pk
WHERE pt.name LIKE 'forest%'
  AND ps.avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk)
ORDER BY ps.pk, ps.sk, pt.name;
-- the equality of a BIGINT and an INT column: no restriction through it
EXPLAIN SELECT ps.sk, ps.pk FROM ps JOIN pt ON ps.pk = pt.ipk
WHERE pt.name LIKE 'forest%'
  AND ps.avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
SELECT ps.sk, ps.pk FROM ps JOIN pt ON ps.pk = pt.ipk
WHERE pt.name LIKE 'forest%'
  AND ps.avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk)
ORDER BY ps.pk, ps.sk;
-- a LEFT join keeps ps rows without a partner: no restriction through it
EXPLAIN SELECT ps.sk, ps.pk FROM ps LEFT JOIN (SELECT pk FROM pt WHERE name = 'lime') l ON ps.pk = l.pk
WHERE ps.avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
SELECT ps.sk, ps.pk FROM ps LEFT JOIN (SELECT pk FROM pt WHERE name = 'lime') l ON ps.pk = l.pk
WHERE ps.avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk)
ORDER BY ps.pk, ps.sk;
-- IN under OR: a MARK join, read by the OR
EXPLAIN SELECT sk, pk FROM ps
WHERE (pk IN (SELECT pk FROM pt WHERE name LIKE 'forest%') OR sk = 12)
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk);
SELECT sk, pk FROM ps
WHERE (pk IN (SELECT pk FROM pt WHERE name LIKE 'forest%') OR sk = 12)
  AND avail > (SELECT 0.5 * sum(qty) FROM li WHERE li.pk = ps.pk AND li.sk = ps.sk)
ORDER BY pk, sk;
