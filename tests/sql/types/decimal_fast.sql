-- The 64-bit paths of DECIMAL arithmetic, sums and column filters give
-- what the exact 128-bit path gives: values at the edges of 18 digits and
-- of int64 (whose products and rescaled sums leave 64 bits and take the
-- exact path), negative values, NULLs, constants on either side.
CREATE TABLE d (id INT, a DECIMAL(18,2), b DECIMAL(18,2), c DECIMAL(38,4), dt DATE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO d VALUES
  (1, 9999999999999999.99, 0.01, 922337203685477.5807, DATE '1994-01-01'),
  (2, -9999999999999999.99, -0.01, -922337203685477.5808, DATE '1993-12-31'),
  (3, NULL, 1.00, 9999999999999999999999999999999999.9999, NULL),
  (4, 4611686018427387.90, 2.00, 9999999999999999999999999999999999.9999, DATE '1995-01-01'),
  (5, 0.00, 0.00, 0.0001, DATE '1970-01-01'),
  (6, 1.23, -4.56, -1.5, DATE '1969-12-31'),
  (7, 1.50, 1.5, 92233720368547.75808, DATE '2000-02-29');
-- + - * within 64 bits, at its edges and beyond
SELECT id, a + b, a - b, b - a, a * b, a * a, b * b * b, a + c, c + c, c - 1, c * b FROM d ORDER BY id;
SELECT id, a + 1, 1 - a, a * 3, -a * -3, a * 0.5, (a + b) * (a - b) FROM d ORDER BY id;
-- filters of a column against a constant, either side, NULLs never kept
SELECT id FROM d WHERE a < 0 ORDER BY id;
SELECT id FROM d WHERE 0 > a ORDER BY id;
SELECT id FROM d WHERE a >= 1.23 ORDER BY id;
SELECT id FROM d WHERE 1.23 >= a ORDER BY id;
SELECT id FROM d WHERE a = 1.50 ORDER BY id;
SELECT id FROM d WHERE a <> 1.23 ORDER BY id;
SELECT id FROM d WHERE a > 1.5 ORDER BY id;
SELECT id FROM d WHERE a BETWEEN -1 AND 1.50 ORDER BY id;
SELECT id FROM d WHERE a NOT BETWEEN -1 AND 1.50 ORDER BY id;
SELECT id FROM d WHERE a > -1 AND 2 > a ORDER BY id;
SELECT id FROM d WHERE a >= 0 AND a <= 0 AND id >= 5 ORDER BY id;
SELECT id FROM d WHERE a < 1.555 AND a > 1.225 ORDER BY id;
SELECT id FROM d WHERE a < 99999999999999999999999999999999999999 AND a > -99999999999999999999999999999999999999 ORDER BY id;
SELECT id FROM d WHERE c <= 922337203685477.5807 AND c > -922337203685477.5808 ORDER BY id;
SELECT id FROM d WHERE id >= 4 AND 6 >= id ORDER BY id;
SELECT id FROM d WHERE id = 3 OR id = 5 ORDER BY id;
SELECT id FROM d WHERE id NOT BETWEEN 2 AND 6 ORDER BY id;
SELECT id FROM d WHERE dt < DATE '1994-01-01' ORDER BY id;
SELECT id FROM d WHERE dt >= DATE '1994-01-01' AND dt < DATE '1995-01-01' ORDER BY id;
SELECT id FROM d WHERE DATE '1970-01-01' <= dt ORDER BY id;
SELECT id FROM d WHERE id > 100;
SELECT count(*) FROM d WHERE id > 0 AND b >= -4.56;
-- sums: b has no NULL, a has one, c leaves 38 digits (NULL)
SELECT sum(a), sum(b), sum(c), avg(b), sum(a * b), sum(b * b) FROM d;
SELECT id % 2, sum(b), sum(a), sum(c), count(*) FROM d GROUP BY id % 2 ORDER BY 1;
SELECT sum(c) FROM d WHERE id <> 3;
SELECT sum(c) FROM d WHERE id IN (3, 4);
SELECT sum(c) FROM d WHERE id <> 3 AND id <> 4;
SELECT sum(c) FROM d WHERE id IN (2, 3, 6);
