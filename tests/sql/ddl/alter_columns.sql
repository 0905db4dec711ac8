-- ALTER TABLE ADD / REPLACE / CHANGE COLUMNS on each kind of table.  Files
-- written before a change still read: ORC columns by name, converted as
-- Hive's ORC schema evolution converts them, columns added later NULL;
-- text columns by position.  Hive's type rule
-- (hive.metastore.disallow.incompatible.col.type.changes, checked column
-- by column position): a number may only widen, anything may become a
-- string.
CREATE TABLE acid (id INT, amount INT, note STRING) CLUSTERED BY (id) INTO 2 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acid VALUES (1, 100, 'a'), (2, 2147483647, 'b'), (3, -5, NULL);
ALTER TABLE acid CHANGE amount amount BIGINT COMMENT 'widened';
ALTER TABLE acid ADD COLUMNS (extra STRING COMMENT 'added', score DECIMAL(5,2));
DESCRIBE acid;
-- old rows: NULL for the new columns
SELECT * FROM acid ORDER BY id;
INSERT INTO acid VALUES (4, 9223372036854775807, 'd', 'new', 1.5);
UPDATE acid SET amount = amount + 1, extra = 'upd' WHERE id = 2;
DELETE FROM acid WHERE id = 3;
SELECT * FROM acid ORDER BY id;
SELECT ROW__ID.writeid, id FROM acid ORDER BY id;
-- a renamed ORC column is another column to the old files (read by name)
ALTER TABLE acid CHANGE note remark STRING;
SELECT id, remark FROM acid ORDER BY id;
-- the bucketing column follows a rename
ALTER TABLE acid CHANGE id ident INT;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED acid" | grep -E '^(Bucket Columns|Num Buckets):'
INSERT INTO acid VALUES (5, 5, 'e', 'x', 0.5);
-- decimal widens to float (Hive's order: tinyint < smallint < int <
-- bigint < decimal < float < double)
ALTER TABLE acid CHANGE score score FLOAT;
SELECT ident, amount FROM acid ORDER BY ident, amount;

-- insert-only ORC
CREATE TABLE mm (a TINYINT, b FLOAT) STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
INSERT INTO mm VALUES (127, 0.1), (-128, NULL);
ALTER TABLE mm REPLACE COLUMNS (a DECIMAL(3,0), b DOUBLE, c ARRAY<INT>);
SELECT * FROM mm ORDER BY a;
INSERT INTO mm VALUES (1, 2.5, array(1, 2));
SELECT * FROM mm ORDER BY a;

-- plain ORC: every change Hive allows reads the old file
CREATE TABLE orc (i INT, d DOUBLE, m DECIMAL(6,2), dt DATE, ts TIMESTAMP, v VARCHAR(10))
  STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO orc VALUES (7, 1.0E10, 1234.50, DATE '2024-02-29', TIMESTAMP '2024-03-01 12:30:00.5', 'abcdefghij');
ALTER TABLE orc REPLACE COLUMNS (i BIGINT, d STRING, m DECIMAL(7,3), dt STRING, ts VARCHAR(13), v CHAR(3));
SELECT * FROM orc;
ALTER TABLE orc REPLACE COLUMNS (i DECIMAL(19,0), d VARCHAR(4), m DOUBLE, dt CHAR(4), ts STRING, v STRING);
SELECT * FROM orc;
ALTER TABLE orc REPLACE COLUMNS (i STRING, d STRING, m STRING, dt STRING, ts STRING, v STRING);
SELECT * FROM orc;
-- ORC tables keep their columns' order and number (Hive's 10311, 10313)
ALTER TABLE orc CHANGE v v STRING FIRST;
ALTER TABLE orc CHANGE v v STRING AFTER i;
ALTER TABLE orc REPLACE COLUMNS (i STRING);
DESCRIBE orc;

-- text: columns are positions, so reordering and dropping are allowed
-- (a reordered column must fit the type of the one whose place it takes)
CREATE TABLE txt (a STRING, b STRING, c STRING) STORED AS TEXTFILE;
INSERT INTO txt VALUES ('1', 'x', '1.5'), ('2', 'y', NULL);
ALTER TABLE txt CHANGE c c STRING AFTER a;
SELECT * FROM txt ORDER BY a;
ALTER TABLE txt CHANGE b b STRING FIRST;
SELECT * FROM txt ORDER BY b;
ALTER TABLE txt REPLACE COLUMNS (b STRING, a VARCHAR(1));
SELECT * FROM txt ORDER BY b;
CREATE TABLE txt2 (a INT, b STRING, c DOUBLE) STORED AS TEXTFILE;
ALTER TABLE txt2 CHANGE c c DOUBLE AFTER a;
ALTER TABLE txt2 CHANGE b b STRING FIRST;
ALTER TABLE txt2 CHANGE a a STRING FIRST;
DESCRIBE txt2;

-- partitioned tables: CASCADE is accepted (partitions read with the
-- table's columns anyway)
CREATE TABLE part (v INT) PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO part PARTITION (ds='a') VALUES (1);
ALTER TABLE part ADD COLUMNS (w STRING) CASCADE;
INSERT INTO part PARTITION (ds='b') VALUES (2, 'two');
SELECT * FROM part ORDER BY v;
ALTER TABLE part CHANGE COLUMN w w VARCHAR(2) RESTRICT;
SELECT * FROM part ORDER BY v;

-- errors: nothing changes
ALTER TABLE acid CHANGE amount amount INT;
ALTER TABLE acid CHANGE remark remark INT;
ALTER TABLE acid REPLACE COLUMNS (ident SMALLINT, amount STRING, remark STRING, extra STRING, score INT);
ALTER TABLE orc CHANGE d d BOOLEAN;
ALTER TABLE orc CHANGE i i DATE;
ALTER TABLE acid ADD COLUMNS (extra INT);
ALTER TABLE acid ADD COLUMNS (n1 INT, N1 STRING);
ALTER TABLE txt REPLACE COLUMNS (x INT, x STRING);
ALTER TABLE acid CHANGE nosuch x INT;
ALTER TABLE acid CHANGE ident amount INT;
ALTER TABLE txt CHANGE a a STRING AFTER nosuch;
ALTER TABLE acid ADD COLUMNS (u UNIONTYPE<INT,STRING>);
ALTER TABLE part CHANGE ds ds INT;
ALTER TABLE part ADD COLUMNS (ds STRING);
ALTER TABLE part CHANGE v ds INT;
ALTER TABLE part PARTITION (ds='a') ADD COLUMNS (z INT);
ALTER TABLE part PARTITION (ds='a') ADD COLUMNS (z INT) CASCADE;
ALTER TABLE part PARTITION (nokey='a') CHANGE v v BIGINT;
ALTER TABLE acid ADD COLUMNS (z INT) CASCADE;
ALTER TABLE nosuch ADD COLUMNS (z INT);
DESCRIBE acid;
DESCRIBE part;
SELECT * FROM acid ORDER BY ident, amount;
-- @sh true
-- with the type check switched off a string may become a number (text
-- parses it; a value that is no number reads NULL)
SET hive.metastore.disallow.incompatible.col.type.changes=false;
ALTER TABLE txt CHANGE a a INT;
ALTER TABLE txt CHANGE b b INT;
SELECT * FROM txt ORDER BY b;
