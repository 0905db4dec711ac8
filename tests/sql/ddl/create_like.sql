-- CREATE TABLE ... LIKE a table of each kind, or a view: the columns,
-- partition keys, bucketing, format and SerDe settings are copied, the
-- rows, the comment and other properties are not (Hive 4 copies only
-- transactional, transactional_properties and bucketing_version);
-- STORED AS, ROW FORMAT, LOCATION and TBLPROPERTIES apply to the copy.
CREATE TABLE acid_src (id INT COMMENT 'the id', s STRING) COMMENT 'source table'
  PARTITIONED BY (ds STRING COMMENT 'day') CLUSTERED BY (id) INTO 2 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true', 'note'='not copied', 'bucketing_version'='1');
INSERT INTO acid_src PARTITION (ds='d1') VALUES (1, 'a');
CREATE TABLE mm_src (id INT) STORED AS ORC
  TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only');
CREATE TABLE plain_src (id INT, d DATE) STORED AS ORC TBLPROPERTIES ('transactional'='false');
CREATE TABLE text_src (a INT, b STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY '|' NULL DEFINED AS 'nil'
  STORED AS TEXTFILE;
CREATE EXTERNAL TABLE ext_src (id INT) STORED AS ORC LOCATION '${env:WH}/ext_src';
CREATE VIEW view_src AS SELECT id, upper(s) AS up, ds FROM acid_src;

-- a full ACID, partitioned, bucketed table
CREATE TABLE acid_copy LIKE acid_src;
DESCRIBE acid_copy;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED acid_copy" | grep -E 'Table Type|transactional|bucketing|note|Num Buckets|Bucket Columns|InputFormat'
SELECT count(*) FROM acid_copy;
INSERT INTO acid_copy PARTITION (ds='d9') VALUES (9, 'z');
SELECT ROW__ID.bucketid, * FROM acid_copy;
-- @sh cd warehouse/acid_copy && find . -type d | sort

-- insert-only, plain, and a TEXTFILE table with its SerDe settings
CREATE TABLE mm_copy LIKE mm_src;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED mm_copy" | grep -E 'Table Type|transactional'
CREATE TABLE plain_copy LIKE plain_src;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED plain_copy" | grep -E 'Table Type|transactional'
CREATE TABLE text_copy LIKE text_src;
INSERT INTO text_copy VALUES (1, NULL), (2, 'x');
-- @sh cat warehouse/text_copy/000000_0
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED text_copy" | grep -E 'Table Type|transactional|InputFormat'

-- an external table's copy is managed unless EXTERNAL is said; an EXTERNAL
-- copy of a transactional table is not transactional
CREATE TABLE ext_copy LIKE ext_src;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED ext_copy" | grep -E 'Location|Table Type|transactional'
CREATE EXTERNAL TABLE ext_of_acid LIKE acid_src LOCATION '${env:WH}/ext_of_acid';
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED ext_of_acid" | grep -E 'Location|Table Type|transactional|bucketing'
INSERT INTO ext_of_acid PARTITION (ds='x') VALUES (5, 'e');
SELECT * FROM ext_of_acid;

-- STORED AS, ROW FORMAT and TBLPROPERTIES replace what the source had
CREATE TABLE text_as_orc LIKE text_src STORED AS ORC;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED text_as_orc" | grep -E 'Table Type|transactional|InputFormat|field.delim'
CREATE TABLE text_comma LIKE text_src ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE
  TBLPROPERTIES ('mine'='yes');
INSERT INTO text_comma VALUES (3, 'c');
-- @sh cat warehouse/text_comma/000000_0
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED text_comma" | grep -E 'mine|transactional'
CREATE TABLE acid_as_text LIKE acid_src STORED AS TEXTFILE;

-- a view gives its columns, and the table is what CREATE TABLE makes
CREATE TABLE from_view LIKE view_src;
DESCRIBE from_view;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED from_view" | grep -E 'Table Type|transactional|InputFormat'
INSERT INTO from_view VALUES (1, 'A', 'd1');
SELECT * FROM from_view;

-- IF NOT EXISTS, and the errors
CREATE TABLE IF NOT EXISTS acid_copy LIKE nosuch;
CREATE TABLE acid_copy LIKE plain_src;
CREATE TABLE c LIKE nosuch;
CREATE TABLE nodb.c LIKE plain_src;
CREATE TABLE c LIKE other.nosuch;
SHOW TABLES;

-- sort columns are copied with the bucketing; ROW FORMAT SERDE and
-- STORED AS INPUTFORMAT given to LIKE replace the source's SerDe settings
CREATE TABLE sorted_src (a INT, b STRING) CLUSTERED BY (a) SORTED BY (b DESC, a) INTO 4 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='false');
CREATE TABLE sorted_copy LIKE sorted_src;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED sorted_copy" | grep -E 'Num Buckets|Bucket Columns|Sort Columns|transactional'
CREATE TABLE text_serde LIKE text_src ROW FORMAT SERDE 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe'
  WITH SERDEPROPERTIES ('field.delim' = ';')
  STORED AS INPUTFORMAT 'org.apache.hadoop.mapred.TextInputFormat'
  OUTPUTFORMAT 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat';
INSERT INTO text_serde VALUES (7, 'g');
-- @sh cat warehouse/text_serde/000000_0
