-- Comparisons of text with numbers and dates, as Hive 4 types them
-- (TypeCheckProcFactory, FunctionRegistry.getCommonClassForComparison):
-- a constant compared with a bare column is first converted to the
-- column's type (interpretConstantAsPrimitive: '5' is the INT 5, '1.50'
-- the DECIMAL 1.5); a constant that is no value of that type is kept and
-- the comparison falls back to the common type, DOUBLE for text and
-- numbers ('5.5' never equals an INT, 'x' is NULL), while an IN list
-- drops it (a list left empty is FALSE).  Text compared with a DATE or
-- TIMESTAMP converts to it.  The same rules hold in the WHERE of SELECT,
-- UPDATE and DELETE and in MERGE's ON.
CREATE TABLE c (i int, b bigint, d decimal(5,2), dt date, s string)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO c VALUES (5, 1, 1.50, DATE'2024-01-01', '5'),
                     (6, 2, 2.25, DATE'2024-01-02', '5.5'),
                     (NULL, NULL, NULL, NULL, 'x');
SELECT i FROM c WHERE i = '5';
SELECT i FROM c WHERE i = '5.0';
SELECT i FROM c WHERE i = '5.5';
SELECT i FROM c WHERE i < '5.5';
SELECT i FROM c WHERE i = 'x';
SELECT b FROM c WHERE b IN ('1', 'x');
SELECT b FROM c WHERE b NOT IN ('1', 'x');
-- no constant of the list is an INT: the IN is FALSE, its NOT TRUE (for
-- the NULL row too, as in Hive)
SELECT i FROM c WHERE i IN ('5.5');
SELECT i FROM c WHERE i NOT IN ('5.5') ORDER BY i;
SELECT d FROM c WHERE d = '1.50';
SELECT d FROM c WHERE d = '1.5';
SELECT d FROM c WHERE d = '1.555';
-- text and dates compare as dates
SELECT dt FROM c WHERE dt = '2024-01-01';
SELECT dt FROM c WHERE dt = '2024-1-1';
SELECT dt FROM c WHERE dt > '2024-01-01';
SELECT dt FROM c WHERE dt = '2024-01-02 23:59:59';
SELECT dt FROM c WHERE dt = 'not a date';
SELECT DATE'2024-01-01' < TIMESTAMP'2024-01-01 00:00:01',
       TIMESTAMP'2024-01-01 00:00:00' = '2024-01-01';
-- column against column: text and INT compare as DOUBLE
SELECT i FROM c WHERE s = i;
SELECT i FROM c WHERE s = 5.5;
-- UPDATE and DELETE
UPDATE c SET s = 'never' WHERE i = '5.5';
UPDATE c SET s = 'six' WHERE i = '6';
SELECT i, s FROM c ORDER BY i;
DELETE FROM c WHERE d = '2.250';
DELETE FROM c WHERE dt = '2024-1-1';
SELECT * FROM c ORDER BY i;
-- MERGE ON a text column: '7' matches 7, '8.5' and 'x' match nothing
INSERT INTO c VALUES (7, 3, 3.00, DATE'2024-01-03', 's');
CREATE TABLE src (k string) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO src VALUES ('7'), ('8.5'), ('x');
MERGE INTO c USING src ON c.i = src.k
WHEN MATCHED THEN UPDATE SET s = 'matched'
WHEN NOT MATCHED THEN INSERT VALUES (NULL, NULL, NULL, NULL, src.k);
SELECT * FROM c ORDER BY i, s;
