-- join order (plan/rules.c, plan/stats.c): inner joins of three or more
-- inputs are ordered greedily along key equalities by estimated rows (ORC
-- footers' row counts and integer value ranges: c_nation has 6 values
-- among 600 rows); a key edge through a many-to-many column (c_nation =
-- s_nation) or a condition without keys never joins before the inputs'
-- own keys do.  A TPC-H Q5 shape and a Q7 shape, small.
CREATE TABLE g (pos INT) STORED AS ORC;
INSERT INTO g SELECT p FROM (SELECT posexplode(split(space(2999), ' ')) AS (p, x)) t;
CREATE TABLE r (r_key INT, r_name STRING) STORED AS ORC;
INSERT INTO r VALUES (0, 'a'), (1, 'b'), (2, 'c');
CREATE TABLE n (n_key INT, n_region INT, n_name STRING) STORED AS ORC;
INSERT INTO n SELECT pos, pos % 3, concat('n', pos) FROM g WHERE pos < 6;
CREATE TABLE c (c_key INT, c_nation INT) STORED AS ORC;
INSERT INTO c SELECT pos, pos % 6 FROM g WHERE pos < 600;
CREATE TABLE s (s_key INT, s_nation INT) STORED AS ORC;
INSERT INTO s SELECT pos, pos % 6 FROM g WHERE pos < 60;
CREATE TABLE o (o_key INT, o_cust INT, o_day INT) STORED AS ORC;
INSERT INTO o SELECT pos, pos % 600, pos % 10 FROM g WHERE pos < 1000;
CREATE TABLE i (i_ord INT, i_supp INT, price INT) STORED AS ORC;
INSERT INTO i SELECT (pos * 13) % 1000, (pos * 7) % 60, pos FROM g;
-- Q5's shape: item, order and customer by their keys, supplier by its key,
-- the nation equality then only a residual or a key among joined inputs
SELECT n_name, count(*), sum(price) FROM c, o, i, s, n, r
WHERE c_key = o_cust AND i_ord = o_key AND i_supp = s_key
  AND c_nation = s_nation AND s_nation = n_key AND n_region = r_key
  AND r_name = 'a' AND o_day < 5
GROUP BY n_name ORDER BY n_name;
EXPLAIN SELECT n_name, count(*), sum(price) FROM c, o, i, s, n, r
WHERE c_key = o_cust AND i_ord = o_key AND i_supp = s_key
  AND c_nation = s_nation AND s_nation = n_key AND n_region = r_key
  AND r_name = 'a' AND o_day < 5
GROUP BY n_name;
-- Q7's shape: the OR over both nations' names connects no keys
SELECT n1.n_name, n2.n_name, count(*) FROM s, i, o, c, n n1, n n2
WHERE s_key = i_supp AND o_key = i_ord AND c_key = o_cust
  AND s_nation = n1.n_key AND c_nation = n2.n_key
  AND ((n1.n_name = 'n1' AND n2.n_name = 'n3') OR (n1.n_name = 'n3' AND n2.n_name = 'n1'))
GROUP BY n1.n_name, n2.n_name ORDER BY 1, 2;
EXPLAIN SELECT n1.n_name, n2.n_name, count(*) FROM s, i, o, c, n n1, n n2
WHERE s_key = i_supp AND o_key = i_ord AND c_key = o_cust
  AND s_nation = n1.n_key AND c_nation = n2.n_key
  AND ((n1.n_name = 'n1' AND n2.n_name = 'n3') OR (n1.n_name = 'n3' AND n2.n_name = 'n1'))
GROUP BY n1.n_name, n2.n_name;
-- an input no key reaches is joined last, as a cross product
SELECT count(*) FROM i, o, r WHERE i_ord = o_key AND r_name <> 'b';
-- a semi join reading one input of an inner run joins that input first
-- when it has fewer rows than the run (Q18's shape: the large orders
-- among o, not after the join with i) ...
SELECT c_key, o_key, sum(price) FROM c, o, i
WHERE o_key IN (SELECT i_ord FROM i GROUP BY i_ord HAVING sum(price) > 5950)
  AND c_key = o_cust AND o_key = i_ord
GROUP BY c_key, o_key ORDER BY o_key;
EXPLAIN SELECT c_key, o_key, sum(price) FROM c, o, i
WHERE o_key IN (SELECT i_ord FROM i GROUP BY i_ord HAVING sum(price) > 5950)
  AND c_key = o_cust AND o_key = i_ord
GROUP BY c_key, o_key;
-- ... and stays over the run when the run is smaller (Q21's shape), as
-- does NOT EXISTS
SELECT count(*) FROM s, i, n
WHERE s_key = i_supp AND s_nation = n_key AND n_name = 'n1'
  AND EXISTS (SELECT * FROM i i2 WHERE i2.i_ord = i.i_ord AND i2.i_supp <> i.i_supp)
  AND NOT EXISTS (SELECT * FROM i i3 WHERE i3.i_ord = i.i_ord AND i3.price > i.price + 1500);
EXPLAIN SELECT count(*) FROM s, i, n
WHERE s_key = i_supp AND s_nation = n_key AND n_name = 'n1'
  AND EXISTS (SELECT * FROM i i2 WHERE i2.i_ord = i.i_ord AND i2.i_supp <> i.i_supp)
  AND NOT EXISTS (SELECT * FROM i i3 WHERE i3.i_ord = i.i_ord AND i3.price > i.price + 1500);
