-- A filter whose conjuncts are all plain (comparisons, IN, BETWEEN, LIKE,
-- IS NULL, AND/OR/NOT) may run its column-against-constant conjuncts
-- first; one with a function that can fail keeps the written order, so
-- assert_true still sees the rows the conjuncts before it kept.
CREATE TABLE f (id INT, s STRING, dt DATE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO f VALUES (1, 'MAIL', DATE '1994-01-01'), (2, 'SHIP', DATE '1994-06-30'), (3, 'AIR', DATE '1994-12-31'),
  (4, NULL, DATE '1995-01-01'), (5, 'MAIL', NULL), (6, 'SHIP', DATE '1993-12-31'), (7, 'MAIL', DATE '1994-03-03'),
  (8, '', DATE '1994-02-02'), (9, 'MAI', DATE '1994-02-02'), (10, 'MAILS', DATE '1994-02-02');
SELECT id FROM f WHERE s IN ('MAIL', 'SHIP') AND dt >= DATE '1994-01-01' AND dt < DATE '1995-01-01' ORDER BY id;
SELECT id FROM f WHERE s LIKE '%AI%' AND NOT (id = 5) AND id BETWEEN 1 AND 7 AND dt IS NOT NULL ORDER BY id;
SELECT id FROM f WHERE (s = 'SHIP' OR id > 6) AND id <= 6 ORDER BY id;
-- strings against a constant: bytes, lengths, prefixes, the empty string
SELECT id FROM f WHERE s = 'MAIL' ORDER BY id;
SELECT id FROM f WHERE 'MAIL' <> s ORDER BY id;
SELECT id FROM f WHERE s = '' ORDER BY id;
SELECT id FROM f WHERE s < 'MAIL' ORDER BY id;
SELECT id FROM f WHERE s >= 'MAIL' AND s <= 'MAILS' ORDER BY id;
SELECT id FROM f WHERE s BETWEEN 'AIR' AND 'MAIL' ORDER BY id;
SELECT id FROM f WHERE s NOT BETWEEN 'AIR' AND 'MAIL' ORDER BY id;
SELECT id FROM f WHERE s IN ('MAILS', 'MAI', '') ORDER BY id;
SELECT id FROM f WHERE s NOT IN ('SHIP', 'AIR') ORDER BY id;
SELECT id FROM f WHERE s NOT IN ('SHIP', NULL) ORDER BY id;
SELECT id FROM f WHERE s IN ('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'MAI', 'SHIP') ORDER BY id;
SELECT id FROM f WHERE assert_true(id < 5) IS NULL AND id < 5 ORDER BY id;
SELECT id FROM f WHERE id < 5 AND assert_true(id < 5) IS NULL ORDER BY id;
