-- DESCRIBE in all its forms, as Hive 4's TextDescTableFormatter lays it out:
-- HiveServer2's values (the CLI's table rendering), and with
-- comb.ddl.padded Hive CLI's padded text.  Table Parameters carry the basic
-- statistics computed from the files the statement's snapshot reads.
-- @sh printf '%s\n' 's/^\(CreateTime: *\t\).*\t/\1(time)\t/' 's/\(transient_lastDdlTime *\t\)[0-9]*/\1(time)/' 's/createTime:[0-9]*/createTime:(time)/' 's/transient_lastDdlTime=[0-9]*/transient_lastDdlTime=(time)/g' > mask.sed
CREATE DATABASE shop COMMENT 'the "shop" db';
CREATE TABLE shop.orders (id BIGINT COMMENT 'order id', item STRING COMMENT 'what\tis "sold"', qty INT, price DECIMAL(10,2), tags ARRAY<STRING>, attrs MAP<STRING,INT>, addr STRUCT<city:STRING,zip:INT>)
  COMMENT 'all orders'
  PARTITIONED BY (ds DATE COMMENT 'order day', region STRING)
  CLUSTERED BY (id) SORTED BY (id DESC) INTO 4 BUCKETS
  STORED AS ORC TBLPROPERTIES ('transactional'='true', 'transactional_properties'='insert_only', 'owner.team'='billing');
DESCRIBE shop.orders;
DESC shop.orders qty;
DESCRIBE shop.orders tags;
DESCRIBE shop.orders ds;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED shop.orders" | sed -f mask.sed
-- the CLI's padded layout, as Hive's .q.out files hold it
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv --hiveconf comb.ddl.padded=true -e "DESCRIBE FORMATTED shop.orders; DESCRIBE shop.orders; DESCRIBE shop.orders id" | sed -f mask.sed | cat -A
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE EXTENDED shop.orders" | sed -f mask.sed | sed "s|$WH|WH|g"

-- statistics follow every write: inserts, deletes, updates, overwrites
CREATE TABLE acid (id INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO acid VALUES (1, 'a'), (2, 'b'), (3, 'c');
INSERT INTO acid VALUES (4, 'd');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED acid" | grep -E 'num|Size|STATS'
DELETE FROM acid WHERE id = 2;
UPDATE acid SET s = 'z' WHERE id = 3;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED acid" | grep -E 'num|Size|STATS'
INSERT OVERWRITE TABLE acid SELECT id, s FROM acid WHERE id > 3;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED acid" | grep -E 'num|Size'
SELECT * FROM acid;

-- plain ORC files: ORC's own raw size estimate (Java's 64-bit data model)
CREATE TABLE plain_orc (b BOOLEAN, i INT, l BIGINT, d DOUBLE, s STRING, dec DECIMAL(5,1), dt DATE, ts TIMESTAMP, bin BINARY) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO plain_orc VALUES (true, 1, 2, 3.5, 'four', 5.5, DATE '2024-01-01', TIMESTAMP '2024-01-01 00:00:00', 'xy'), (NULL, NULL, NULL, NULL, 'sixteen chars!!!', NULL, NULL, NULL, NULL);
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED plain_orc" | grep -E 'num|Size|Storage Desc|serialization'
-- text files: rows and their bytes as the reader reads them (a header skipped)
CREATE TABLE txt (a INT, b STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
INSERT INTO txt VALUES (1, 'one'), (22, 'twenty-two'), (NULL, NULL);
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED txt" | grep -E 'num|Size|Storage Desc|delim|serialization|transactional'
-- @sh cat warehouse/txt/*
CREATE TABLE hdr (a INT) STORED AS TEXTFILE TBLPROPERTIES ('skip.header.line.count'='1');
-- @sh printf 'a\n1\n2\n' > warehouse/hdr/000000_0
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED hdr" | grep -E 'num|Size'
SELECT * FROM hdr;

-- partitions: the table's figures add up its partitions'
CREATE TABLE parts (v INT) PARTITIONED BY (p STRING, n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO parts PARTITION (p, n) VALUES (1, 'a', 1), (2, 'a', 1), (3, 'b', 2), (4, NULL, NULL);
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED parts" | grep -E 'num|Size'
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED parts PARTITION (p='a', n=1)" | sed -f mask.sed | sed "s|$WH|WH|g"
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED parts PARTITION (p=NULL, n=NULL)" | grep -E 'Partition Value|num'
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE EXTENDED parts PARTITION (n='01', p='a')" | sed -f mask.sed | sed "s|$WH|WH|g"

-- databases
DESCRIBE DATABASE shop;
DESCRIBE SCHEMA EXTENDED shop;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE DATABASE default" | sed "s|$WH|WH|g"

-- errors, with Hive's texts
DESCRIBE nosuch;
DESCRIBE nosuchdb.orders;
DESCRIBE FORMATTED parts PARTITION (p='zz', n=1);
DESCRIBE parts PARTITION (p='a');
DESCRIBE parts PARTITION (v=1, n=1);
DESCRIBE parts PARTITION (p='a', n='x');
DESCRIBE shop.orders nosuchcol;
DESCRIBE FORMATTED shop.orders qty;
DESCRIBE shop.orders addr.city;
DESCRIBE DATABASE nosuch;
