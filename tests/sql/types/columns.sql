-- Columns of every type written, read back, sorted, grouped and updated.
-- Complex values go into a column only with the column's exact type (Hive:
-- "Cannot convert column ... from map<string,decimal(2,1)> ...").
CREATE TABLE v (id INT, d DECIMAL(10,2), dz DECIMAL(38,37), big DECIMAL(38,0),
  ts TIMESTAMP, dt DATE, b BINARY, a ARRAY<INT>, m MAP<STRING,DECIMAL(5,1)>,
  s STRUCT<x:INT, y:ARRAY<STRING>, z:TIMESTAMP>)
STORED AS ORC TBLPROPERTIES ('transactional'='true');
-- values convert to the column types: 1.005 rounds HALF_UP to 1.01,
-- strings become timestamps, constructors build the complex values
INSERT INTO v VALUES
  (1, 1.005, 0.1, 99999999999999999999999999999999999999,
   TIMESTAMP '2020-01-01 10:11:12.123456789', DATE '2020-02-29', CAST('ab' AS BINARY),
   array(1, 2, NULL), map('k', CAST(1.5 AS DECIMAL(5,1)), 'l', NULL), named_struct('x', 1, 'y', array('p', 'q'), 'z', TIMESTAMP '1969-12-31 23:59:58.999999999')),
  (2, -2.5, -9.9999999999999999999999999999999999999, -99999999999999999999999999999999999999,
   '0001-01-01 00:00:00', '9999-12-31', 'xyz', array(CAST(NULL AS INT)), NULL, named_struct('x', CAST(NULL AS INT), 'y', array(CAST(NULL AS STRING)), 'z', CAST(NULL AS TIMESTAMP))),
  (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (4, 12345678.99, 0, 0, '1970-01-01 00:00:00', '1970-01-01', '', array(4), map('a', CAST(0.05 AS DECIMAL(5,1))), named_struct('x', 4, 'y', array(CAST(NULL AS STRING)), 'z', TIMESTAMP '2020-06-15 12:00:00.5'));
SELECT * FROM v ORDER BY id;
SELECT id, d, d * 2, d / 3, d + dz, big + 1, ts, CAST(ts AS DATE), a[0], a[2], m['k'], m['zz'], s.x, s.y[1], s.z, size(a), size(m) FROM v ORDER BY id;
-- values that do not fit the column are errors naming it; nothing is written
INSERT INTO v (id, d) VALUES (5, 123456789.5);
INSERT INTO v (id, dz) VALUES (5, 10);
INSERT INTO v (id, ts) VALUES (5, 'not a timestamp');
INSERT INTO v (id, a) VALUES (5, array(1L));
INSERT INTO v (id, a) VALUES (5, array('x'));
INSERT INTO v (id, s) VALUES (5, struct(1, array('a'), NULL));
INSERT INTO v (id, m) VALUES (5, map('k', 1.25));
SELECT count(*) FROM v;
-- INSERT ... SELECT copies every type
CREATE TABLE w (id INT, d DECIMAL(10,2), dz DECIMAL(38,37), big DECIMAL(38,0),
  ts TIMESTAMP, dt DATE, b BINARY, a ARRAY<INT>, m MAP<STRING,DECIMAL(5,1)>,
  s STRUCT<x:INT, y:ARRAY<STRING>, z:TIMESTAMP>)
STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO w SELECT * FROM v;
INSERT INTO w (id, a, s) SELECT id + 10, array(id, id), named_struct('x', id, 'y', array(CAST(id AS STRING)), 'z', ts) FROM v WHERE id < 3;
SELECT id, d, ts, a, m, s FROM w ORDER BY id;
-- UPDATE SET of decimal, timestamp and complex columns
UPDATE v SET d = d + 0.005, ts = CAST(dt AS TIMESTAMP), a = array(id, id * 2), m = map('u', CAST(d AS DECIMAL(5,1))), s = named_struct('x', id, 'y', array('u'), 'z', CAST(NULL AS TIMESTAMP)) WHERE id IN (1, 4);
SELECT id, d, ts, a, m, s FROM v ORDER BY id;
-- sorted, grouped, aggregated by column
SELECT id, ts FROM v ORDER BY ts DESC, id;
SELECT a, count(*) FROM v GROUP BY a ORDER BY a;
SELECT s, count(*) FROM v GROUP BY s ORDER BY s;
SELECT min(d), max(d), sum(d), avg(d), sum(big), min(ts), max(ts), min(a), max(s) FROM v;
SELECT id FROM v WHERE d > 1 AND ts < '2020-06-01' ORDER BY id;
SELECT id FROM v WHERE s.y[0] = 'p' OR a[0] = 4 ORDER BY id;
SELECT m, count(*) FROM v GROUP BY m;

-- struct field names: what Hive's type strings hold (spaces, '.', '$',
-- non-ASCII letters) is kept and read back in a later process; what would
-- break the stored type (':', ',', '<', a space at either end) is refused
CREATE TABLE odd_fields (s STRUCT<p1:STRING, `weird name`:INT, `x.y$z`:INT, `ünï`:INT>) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO odd_fields VALUES (named_struct('p1', 'a', 'weird name', 1, 'x.y$z', 2, 'ünï', 3));
-- @sh true
DESCRIBE odd_fields;
SELECT s, s.`weird name`, s.`x.y$z` FROM odd_fields;
CREATE TABLE bad_fields (s STRUCT<`a:b`:INT>);
CREATE TABLE bad_fields (s STRUCT<`a,b`:INT>);
CREATE TABLE bad_fields (a ARRAY<STRUCT<` lead`:INT>>);
SHOW TABLES LIKE 'bad*';
