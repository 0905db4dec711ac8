-- TEXTFILE tables read and written as Hive's LazySimpleSerDe: delimiters,
-- escapes, NULL markers, malformed fields read as NULL, short rows padded
-- with NULL and long rows cut, header lines skipped, every table kind.
-- @sh mkdir in && printf '1,abc,2024-01-02,1.5,true\n2,,bad-date,x,maybe\n3\n4,d,2024-02-29,2.255,FALSE,extra,fields\n\\N,e,1999-12-31,,\n  5,f,0001-01-01,99999.99,true\n' > in/rows.csv
CREATE TABLE csv (id INT, s STRING, d DATE, m DECIMAL(7,2), b BOOLEAN)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
LOAD DATA LOCAL INPATH '${env:WH}/in/rows.csv' INTO TABLE csv;
SELECT * FROM csv;
SELECT count(*), count(id), count(d), sum(m) FROM csv;
INSERT INTO csv VALUES (6, 'new', DATE '2000-02-29', 0.5, false), (NULL, NULL, NULL, NULL, NULL);
SELECT * FROM csv WHERE id > 3 OR id IS NULL ORDER BY id;
-- @sh cd warehouse/csv && ls && cat 000000_0
INSERT OVERWRITE TABLE csv SELECT id * 10, upper(s), d, m, b FROM csv WHERE id < 3;
SELECT * FROM csv ORDER BY id;
-- @sh cd warehouse/csv && ls && cat 000000_0

-- the default delimiters (\001, \002, \003), complex columns, escapes
CREATE TABLE nested (a INT, tags ARRAY<STRING>, attrs MAP<STRING,INT>, pt STRUCT<x:DOUBLE,y:DOUBLE>)
  STORED AS TEXTFILE;
INSERT INTO nested VALUES (1, array('a', 'b'), map('k', 1, 'l', 2), named_struct('x', 1.5D, 'y', -2.0D)),
  (2, array(), NULL, NULL);
SELECT * FROM nested ORDER BY a;
SELECT a, tags[1], attrs['l'], pt.y FROM nested ORDER BY a;
-- @sh od -An -c warehouse/nested/000000_0
CREATE TABLE esc (a STRING, b STRING)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' ESCAPED BY '\\' NULL DEFINED AS 'nil'
  STORED AS TEXTFILE;
INSERT INTO esc VALUES ('x|y', 'back\\slash'), (NULL, 'nil'), ('line\nbreak', '');
SELECT a, b, length(a) FROM esc ORDER BY b;
-- @sh cat warehouse/esc/000000_0

-- header lines skipped (per file, as Hive), table properties as SerDe settings
-- @sh mkdir -p ext && printf 'id|name\n1|one\n2|-\n' > ext/part-1 && printf 'id|name\n3|three\n' > ext/part-2 && printf 'ignored\n' > ext/_SUCCESS && printf '9|hidden\n' > ext/.hidden
CREATE EXTERNAL TABLE hdr (id INT, name STRING)
  ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' STORED AS TEXTFILE
  LOCATION '${env:WH}/ext'
  TBLPROPERTIES ('skip.header.line.count'='1', 'serialization.null.format'='-');
SELECT * FROM hdr ORDER BY id;

-- insert-only and partitioned text tables
CREATE TABLE io (a INT, b STRING) STORED AS TEXTFILE
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO io VALUES (1, 'one');
INSERT INTO io VALUES (2, 'two');
INSERT OVERWRITE TABLE io SELECT a + 10, b FROM io;
SELECT * FROM io ORDER BY a;
CREATE TABLE parts (a INT) PARTITIONED BY (p STRING) STORED AS TEXTFILE;
INSERT INTO parts PARTITION (p) VALUES (1, 'x'), (2, 'y'), (3, NULL);
SELECT * FROM parts ORDER BY a;
-- @sh cd warehouse && find io parts -type f | sort
-- full ACID needs ORC
CREATE TABLE acid_text (a INT) STORED AS TEXTFILE TBLPROPERTIES ('transactional'='true');
