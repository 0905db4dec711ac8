-- A conjunct every branch of an OR repeats is taken out of the OR
-- (`(a AND b) OR (a AND c)` is `a AND (b OR c)`, `a OR (a AND b)` is `a`,
-- in three-valued logic too), so an equality inside every branch becomes
-- a hash-join key (TPC-H Q19's shape) instead of a nested loop, and
-- one-sided conjuncts reach the scans.  What the remaining OR implies
-- about one column (the OR of each branch's conjuncts over it, when every
-- branch has some) is added next to it, so each scan filters by its own
-- column's part: pa by the three brands, li by the three quantity ranges.
CREATE TABLE li (l_partkey INT, l_qty INT, l_mode STRING) STORED AS ORC;
CREATE TABLE pa (p_partkey INT, p_brand STRING, p_size INT) STORED AS ORC;
INSERT INTO li VALUES (1, 5, 'AIR'), (1, 15, 'AIR'), (2, 12, 'AIR'), (2, 12, 'SHIP'),
  (3, 25, 'AIR'), (NULL, 5, 'AIR'), (4, NULL, 'AIR'), (5, 5, NULL);
INSERT INTO pa VALUES (1, 'B12', 3), (2, 'B23', 8), (3, 'B34', 12), (4, 'B12', 1),
  (NULL, 'B12', 2), (5, 'B12', 4), (6, NULL, 5);

-- the Q19 shape: comma join, the key in every branch
EXPLAIN SELECT l_partkey, l_qty, p_brand FROM li, pa
WHERE (p_partkey = l_partkey AND p_brand = 'B12' AND l_qty BETWEEN 1 AND 10 AND l_mode = 'AIR')
   OR (p_partkey = l_partkey AND p_brand = 'B23' AND l_qty BETWEEN 10 AND 20 AND l_mode = 'AIR')
   OR (p_partkey = l_partkey AND p_brand = 'B34' AND l_qty BETWEEN 20 AND 30 AND l_mode = 'AIR');
-- rows: (1,5,B12) and (2,12,B23) and (3,25,B34); (1,15) fails B12's range,
-- (2,12,SHIP) its mode; NULL keys, NULL quantity and NULL mode match nothing
SELECT l_partkey, l_qty, p_brand FROM li, pa
WHERE (p_partkey = l_partkey AND p_brand = 'B12' AND l_qty BETWEEN 1 AND 10 AND l_mode = 'AIR')
   OR (p_partkey = l_partkey AND p_brand = 'B23' AND l_qty BETWEEN 10 AND 20 AND l_mode = 'AIR')
   OR (p_partkey = l_partkey AND p_brand = 'B34' AND l_qty BETWEEN 20 AND 30 AND l_mode = 'AIR')
ORDER BY l_partkey, l_qty;

-- the same in ON; the conjuncts may come in any order
EXPLAIN SELECT l_partkey, l_qty FROM li JOIN pa
  ON (l_qty < 10 AND l_partkey = p_partkey) OR (l_partkey = p_partkey AND p_size > 10);
-- (1,5) and (5,5) by quantity, (3,25) by size 12; (4,NULL): NULL < 10 is
-- NULL and size 1 is not > 10, so no row
SELECT l_partkey, l_qty FROM li JOIN pa
  ON (l_qty < 10 AND l_partkey = p_partkey) OR (l_partkey = p_partkey AND p_size > 10)
ORDER BY l_partkey, l_qty;

-- a LEFT JOIN keeps the unmatched rows with NULLs
SELECT l_partkey, l_qty, p_size FROM li LEFT JOIN pa
  ON (l_qty < 10 AND l_partkey = p_partkey) OR (l_partkey = p_partkey AND p_size > 10)
ORDER BY l_partkey, l_qty, l_mode;

-- absorption: a OR (a AND b) is a; the key alone joins
EXPLAIN SELECT count(*) FROM li, pa WHERE l_partkey = p_partkey OR (l_partkey = p_partkey AND p_size > 3);
-- matches: keys 1 (x2), 2 (x2), 3, 4, 5 = 7
SELECT count(*) FROM li, pa WHERE l_partkey = p_partkey OR (l_partkey = p_partkey AND p_size > 3);

-- nothing in common: the OR stays whole, a nested loop
EXPLAIN SELECT count(*) FROM li, pa WHERE l_partkey = p_partkey OR l_qty = p_size;
-- 7 key matches; quantity = size: 12 = part 3's size (li's two (2,12)
-- rows), 5 = part 6's size (li's three rows of quantity 5): 7 + 2 + 3
SELECT count(*) FROM li, pa WHERE l_partkey = p_partkey OR l_qty = p_size;

-- a volatile call keeps the OR as written
EXPLAIN SELECT count(*) FROM li, pa WHERE (l_partkey = p_partkey AND rand(1) < 2) OR (l_partkey = p_partkey AND rand(1) < 2);
