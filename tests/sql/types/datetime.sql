-- DATE and TIMESTAMP: proleptic Gregorian days and wall-clock timestamps
-- with nanoseconds, no time zone; Hive's text forms and conversions.
SELECT DATE '2020-02-29', DATE '0001-01-01', DATE '9999-12-31', DATE '1969-12-31', TIMESTAMP '2020-01-01 10:11:12.123456789', TIMESTAMP '2020-01-01 00:00:00.5', TIMESTAMP '2020-01-01', TIMESTAMP '1969-12-31 23:59:59.999999999';
-- a typed literal that is no date or timestamp is an error
SELECT DATE '2021-02-29';
SELECT TIMESTAMP '2020-01-01 24:00:00';
SELECT DATE 'today';
SELECT TIMESTAMP '2021-01-05 10:20';
-- literals are read as Date.valueOf / Timestamp.valueOf read them
SELECT DATE '2021-1-5', DATE '2021-01-05 10:20', DATE '2021-01-05x', TIMESTAMP '2021-1-5 1:2:3', TIMESTAMP '2021-01-05T10:20', TIMESTAMP '2021-01-05T10:20:30.';
-- CAST from strings: NULL when they are no date or timestamp
SELECT CAST('2020-02-29' AS DATE), CAST('  2020-02-29  ' AS DATE), CAST('2020-02-29 10:00:00' AS DATE), CAST('2021-02-29' AS DATE), CAST('2020-13-01' AS DATE), CAST('20200101' AS DATE), CAST('' AS DATE);
SELECT CAST('2020-01-01 10:11:12' AS TIMESTAMP), CAST('2020-01-01T10:11:12.5' AS TIMESTAMP), CAST('2020-01-01' AS TIMESTAMP), CAST('2020-01-01 10:11:12.000000001' AS TIMESTAMP), CAST('2020-01-01 10:60:00' AS TIMESTAMP), CAST('x' AS TIMESTAMP);
-- CAST reads text shaped like a timestamp (19 characters before any '.')
-- as one, with at most 9 fraction digits, and any other text as a date
SELECT CAST('2021-01-05 10:20' AS TIMESTAMP), CAST('2021-1-5 1:2:3' AS TIMESTAMP), CAST(' 2020-01-01 10:11:12.1234567899 ' AS TIMESTAMP), CAST('2021-01-05 25:00:00' AS DATE), CAST('2021-01-05x' AS DATE), CAST('2021-01-05 23:59:59.999' AS DATE);
-- dates and timestamps into each other and into strings
SELECT CAST(DATE '1969-12-31' AS TIMESTAMP), CAST(TIMESTAMP '1969-12-31 23:59:59.5' AS DATE), CAST(TIMESTAMP '0001-01-01 00:00:00' AS DATE), CAST(DATE '2020-01-01' AS STRING), CAST(TIMESTAMP '2020-01-01 00:00:00.100' AS STRING), CAST(TIMESTAMP '2020-01-01 00:00:00' AS VARCHAR(13)), CAST(DATE '2020-01-01' AS BOOLEAN), CAST(TIMESTAMP '1970-01-01 00:00:00' AS BOOLEAN);
-- comparisons: same types by value; a string with a date or timestamp
-- converts to it, a date with a timestamp compares as timestamps
-- (getCommonClassForComparison: the date group outranks strings)
SELECT DATE '2020-01-01' < DATE '2020-01-02', DATE '2020-01-01' = '2020-01-01', DATE '2020-01-01' = '2020-1-1', TIMESTAMP '2020-01-01 00:00:00' = '2020-01-01 00:00:00', DATE '2020-01-01' = TIMESTAMP '2020-01-01 00:00:00', DATE '2020-01-01' < TIMESTAMP '2020-01-01 00:00:00', TIMESTAMP '2020-01-01 00:00:00.000000001' > TIMESTAMP '2020-01-01 00:00:00';
SELECT DATE '2020-01-01' IN (DATE '2020-01-01', DATE '2021-01-01'), DATE '2020-01-01' BETWEEN '2019-12-31' AND '2020-01-02', coalesce(NULL, DATE '2020-01-01'), CASE WHEN true THEN DATE '2020-01-01' ELSE '2020' END;
-- numbers and timestamps do not mix (hive.strict.timestamp.conversion)
SELECT TIMESTAMP '2020-01-01 00:00:00' > 5;
SELECT CAST(TIMESTAMP '2020-01-01 00:00:00' AS BIGINT);
SELECT CAST(DATE '2020-01-01' AS INT);
SELECT CAST(5 AS TIMESTAMP);
SELECT CAST(5 AS DATE);
-- unless it is set false: timestamps are seconds, integers milliseconds
-- (seconds with hive.int.timestamp.conversion.in.seconds), fractions kept
SET hive.strict.timestamp.conversion=false;
SELECT CAST(TIMESTAMP '1970-01-01 00:00:01.5' AS DOUBLE), CAST(TIMESTAMP '1969-12-31 23:59:59.5' AS BIGINT), CAST(TIMESTAMP '1970-01-01 00:00:01.5' AS DECIMAL(10,3)), CAST(1500 AS TIMESTAMP), CAST(-1.5e0 AS TIMESTAMP), CAST(1.25 AS TIMESTAMP), CAST(true AS TIMESTAMP), CAST(DATE '2020-01-01' AS INT);
SET hive.int.timestamp.conversion.in.seconds=true;
SELECT CAST(1500 AS TIMESTAMP), TIMESTAMP '1970-01-01 00:00:01' = 1, TIMESTAMP '1970-01-01 00:00:01.5' > 1;
-- one clock per statement
SELECT current_timestamp = current_timestamp, current_date = CAST(current_timestamp AS DATE), current_date() = current_date;
-- a DATE column: stored as days, sorted, grouped, compared
CREATE TABLE d (id INT, dt DATE) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO d VALUES (1, DATE '2020-02-29'), (2, '1969-12-31'), (3, NULL), (4, '0001-01-01'), (5, '9999-12-31'), (6, CAST('2020-02-29 23:59:59' AS TIMESTAMP));
INSERT INTO d VALUES (7, 'not a date');
INSERT INTO d VALUES (7, 20200101);
SELECT * FROM d ORDER BY dt, id;
SELECT * FROM d ORDER BY dt DESC, id;
SELECT dt, count(*) FROM d GROUP BY dt ORDER BY dt;
SELECT min(dt), max(dt), count(dt) FROM d;
SELECT id FROM d WHERE dt = '2020-02-29' ORDER BY id;
SELECT id FROM d WHERE dt < DATE '1970-01-01' ORDER BY id;
SELECT id, CAST(dt AS TIMESTAMP), CAST(dt AS STRING) || '!' FROM d WHERE dt IS NOT NULL ORDER BY id;
UPDATE d SET dt = '2000-01-01' WHERE id = 3;
UPDATE d SET dt = CAST(dt AS TIMESTAMP) WHERE id = 1;
SELECT id, dt FROM d WHERE id IN (1, 3) ORDER BY id;
