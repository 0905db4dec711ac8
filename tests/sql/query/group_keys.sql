-- GROUP BY keys compared in place: strings equal only byte for byte
-- (prefixes, trailing spaces, the empty string and NULL are groups of
-- their own), CHAR and VARCHAR keys, decimal and integer keys beside them.
CREATE TABLE g (s STRING, c CHAR(3), v VARCHAR(4), d DECIMAL(5,2), n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO g VALUES
  ('a', 'a', 'a', 1.50, 1), ('ab', 'ab', 'ab', 1.5, 2), ('', '', '', 0, 3),
  (NULL, NULL, NULL, NULL, 4), ('a ', 'a ', 'a ', -1.50, 5), ('b', 'b', 'b', 1.50, 6),
  ('a', 'a', 'a', 2.00, 7), ('ab', 'abc', 'abcd', 2, 8), ('', '', '', NULL, 9),
  ('ba', 'ba', 'ba', -1.5, 10), ('a', 'a', 'a', 1.50, 11);
SELECT s, count(*), sum(n) FROM g GROUP BY s ORDER BY s;
SELECT c, count(*), sum(n) FROM g GROUP BY c ORDER BY c;
SELECT v, count(*), sum(n) FROM g GROUP BY v ORDER BY v;
SELECT s, d, count(*), sum(n) FROM g GROUP BY s, d ORDER BY s, d;
SELECT length(s), s, count(*) FROM g GROUP BY s ORDER BY s;
