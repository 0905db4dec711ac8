-- BINARY: bytes from strings, compared bytewise, printed as they are
-- (invalid UTF-8 as U+FFFD, as Hive's Text decoding of the bytes gives).
SELECT CAST('abc' AS BINARY), CAST('' AS BINARY), CAST('é' AS BINARY), CAST(CAST('ab' AS CHAR(4)) AS BINARY) = CAST('ab  ' AS BINARY), CAST(CAST('x' AS BINARY) AS STRING), CAST(NULL AS BINARY);
SELECT CAST('a' AS BINARY) < CAST('b' AS BINARY), CAST('ab' AS BINARY) < CAST('b' AS BINARY), CAST('a' AS BINARY) < CAST('ab' AS BINARY), CAST('é' AS BINARY) > CAST('z' AS BINARY), CAST('x' AS BINARY) = CAST('x' AS BINARY);
SELECT length(CAST(CAST('\u00e9' AS BINARY) AS STRING)), CAST('\u00e9' AS BINARY) = CAST('é' AS BINARY);
-- only strings convert to BINARY; BINARY compares only with BINARY
SELECT CAST(1 AS BINARY);
SELECT CAST(DATE '2020-01-01' AS BINARY);
SELECT CAST('a' AS BINARY) = 'a';
SELECT CAST(CAST('a' AS BINARY) AS INT);
CREATE TABLE b (id INT, v BINARY) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO b VALUES (1, CAST('beta' AS BINARY)), (2, 'alpha'), (3, NULL), (4, ''), (5, 'alpha');
INSERT INTO b VALUES (6, 42);
SELECT * FROM b ORDER BY v, id;
SELECT v, count(*) FROM b GROUP BY v ORDER BY v DESC;
SELECT min(v), max(v) FROM b;
SELECT id FROM b WHERE v = CAST('alpha' AS BINARY) ORDER BY id;
UPDATE b SET v = 'gamma' WHERE id = 3;
SELECT id, v FROM b WHERE id = 3;
