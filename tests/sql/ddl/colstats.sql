-- Column statistics: gathered by INSERT (hive.stats.column.autogather) and
-- ANALYZE ... FOR COLUMNS, shown by DESCRIBE FORMATTED t col and named in
-- COLUMN_STATS_ACCURATE; they apply while the files they were computed
-- over are the unit's files, so UPDATE, DELETE, MERGE, TRUNCATE, LOAD, a
-- change of a column, or a file put in place behind comb's back leave
-- basic statistics only.  The values are Hive 4's for the same rows
-- (alter_table_update_status.q.out's datatype_stats).
-- @sh printf '%s\n' '"$COMB" --warehouse "$WH" --outputformat tsv -e "DESC FORMATTED $1 $2" | tail -n +2 | cut -f2 | sed "s/ *$//" | paste -sd"|"' > col.sh
-- @sh printf '%s\n' '"$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED $1" | grep COLUMN_STATS_ACCURATE | cut -f3' > acc.sh
CREATE TABLE dt (t TINYINT, s SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE, dem DECIMAL, ts TIMESTAMP, dte DATE, str STRING, v VARCHAR(12), c CHAR(5), bl BOOLEAN, bin BINARY, arr ARRAY<INT>) STORED AS ORC TBLPROPERTIES ('transactional'='true');
-- a new table: every column's statistics are known (there are no rows)
-- @sh sh acc.sh dt
INSERT INTO dt VALUES (2, 3, 45, 456, 45454.4, 454.6565, 2355, '2012-01-01 01:02:03', '2012-01-01', 'update_statistics', 'stats', 'hive', true, 'bin', array(1));
INSERT INTO dt VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
-- no statistics for complex types, as Hive
-- @sh sh acc.sh dt
-- @sh for c in t s i b f d dem ts dte str v c bl bin arr; do sh col.sh dt $c; done
-- the padded CLI layout of Hive's .q.out files
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv --hiveconf comb.ddl.padded=true -e "DESC FORMATTED dt d" | cat -A
-- a third insert merges: ranges widen, nulls add up, distinct values are the union's
INSERT INTO dt (t, i, d, str, bl, dem) VALUES (-7, 45, -1.5, 'a', false, 12.6), (100, 46, 1e10, 'update_statistics', false, -3);
-- @sh for c in t i d dem str bl; do sh col.sh dt $c; done
-- a change of rows (UPDATE, DELETE) leaves basic statistics only, and an
-- INSERT after it has nothing to merge with
UPDATE dt SET i = 0 WHERE t = 2;
-- @sh sh acc.sh dt
-- @sh sh col.sh dt i
INSERT INTO dt (t) VALUES (1);
-- @sh sh acc.sh dt
-- ANALYZE brings them back, for the named columns or for all
ANALYZE TABLE dt COMPUTE STATISTICS FOR COLUMNS i, str;
-- @sh sh acc.sh dt
-- @sh sh col.sh dt i
-- @sh sh col.sh dt str
ANALYZE TABLE dt COMPUTE STATISTICS FOR COLUMNS;
-- @sh sh acc.sh dt
DELETE FROM dt WHERE t = 1;
-- @sh sh acc.sh dt
ANALYZE TABLE dt COMPUTE STATISTICS;
ANALYZE TABLE dt COMPUTE STATISTICS NOSCAN;
-- @sh sh acc.sh dt

-- hive.stats.column.autogather=false: the INSERT gathers none
CREATE TABLE ng (a INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
SET hive.stats.column.autogather=false;
INSERT INTO ng VALUES (1);
-- @sh sh acc.sh ng
SET hive.stats.column.autogather=true;
INSERT INTO ng VALUES (2);
-- @sh sh acc.sh ng
ANALYZE TABLE ng COMPUTE STATISTICS FOR COLUMNS a;
INSERT INTO ng VALUES (3), (3);
-- @sh sh col.sh ng a
-- TRUNCATE and MERGE leave basic statistics only
CREATE TABLE src (a INT) STORED AS ORC;
INSERT INTO src VALUES (3), (9);
MERGE INTO ng USING src ON ng.a = src.a WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (src.a);
-- @sh sh acc.sh ng
ANALYZE TABLE ng COMPUTE STATISTICS FOR COLUMNS;
-- @sh sh col.sh ng a
TRUNCATE TABLE ng;
INSERT INTO ng VALUES (5);
-- @sh sh col.sh ng a
-- INSERT OVERWRITE describes only its own rows
INSERT OVERWRITE TABLE ng VALUES (8), (NULL);
-- @sh sh col.sh ng a
-- a change of a column's type or name: the statistics no longer apply
ALTER TABLE ng CHANGE a a BIGINT;
-- @sh sh acc.sh ng
-- @sh sh col.sh ng a

-- partitions keep their own; the table's DESCRIBE of a column sums up all
-- of them (when every partition has them)
CREATE TABLE pt (a INT, s STRING) PARTITIONED BY (ds STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO pt PARTITION (ds='d1') VALUES (1, 'x'), (2, 'yy'), (3, NULL);
INSERT INTO pt PARTITION (ds) VALUES (7, 'zzz', 'd2');
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "DESCRIBE FORMATTED pt PARTITION (ds='d1')" | grep COLUMN_STATS_ACCURATE | cut -f3
-- @sh sh col.sh "pt PARTITION (ds='d1')" a
-- @sh sh col.sh pt a
-- @sh sh col.sh pt s
-- a delete in d2 leaves d1's statistics as they were
DELETE FROM pt WHERE ds = 'd2';
-- @sh sh col.sh "pt PARTITION (ds='d1')" a
-- @sh sh col.sh pt a
ANALYZE TABLE pt PARTITION (ds='d2') COMPUTE STATISTICS FOR COLUMNS;
-- @sh sh col.sh "pt PARTITION (ds='d2')" a
-- @sh sh col.sh pt a
ANALYZE TABLE pt PARTITION (ds='nosuch') COMPUTE STATISTICS FOR COLUMNS;

-- plain tables, ORC and text: the files are what the statistics describe
CREATE TABLE plain (a INT, s STRING) STORED AS ORC;
INSERT INTO plain VALUES (1, 'p'), (2, 'q');
-- @sh sh acc.sh plain
-- @sh sh col.sh plain a
CREATE TABLE txt (a INT, s STRING) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS TEXTFILE;
INSERT INTO txt VALUES (4, 'four');
-- @sh sh col.sh txt s
-- a file put in place behind comb's back
-- @sh printf '9,nine\n' > "$WH/txt/extra.csv"
-- @sh sh acc.sh txt
-- @sh sh col.sh txt a
SELECT * FROM txt;
ANALYZE TABLE txt COMPUTE STATISTICS FOR COLUMNS;
-- @sh sh col.sh txt a
-- LOAD DATA adds a file: the statistics no longer apply
-- @sh mkdir in && printf '1,one\n' > in/load.csv
LOAD DATA LOCAL INPATH '${env:WH}/in/load.csv' INTO TABLE txt;
-- @sh sh acc.sh txt

-- CREATE TABLE AS SELECT and each clause of a multi-insert gather them too
CREATE TABLE ctas STORED AS ORC TBLPROPERTIES ('transactional'='true') AS SELECT a, s FROM plain;
-- @sh sh col.sh ctas s
FROM plain INSERT INTO TABLE pt PARTITION (ds='m1') SELECT a, s WHERE a = 1 INSERT INTO TABLE pt PARTITION (ds='m2') SELECT a, s;
-- @sh sh col.sh "pt PARTITION (ds='m1')" a
-- @sh sh col.sh "pt PARTITION (ds='m2')" a
-- inside an explicit transaction an INSERT gathers none
BEGIN;
INSERT INTO ctas VALUES (3, 'r');
COMMIT;
-- @sh sh acc.sh ctas

-- errors
CREATE VIEW vw AS SELECT a FROM plain;
ANALYZE TABLE vw COMPUTE STATISTICS FOR COLUMNS;
ANALYZE TABLE plain COMPUTE STATISTICS FOR COLUMNS nosuch;
ANALYZE TABLE plain PARTITION (ds='x') COMPUTE STATISTICS FOR COLUMNS;
ANALYZE TABLE nosuch COMPUTE STATISTICS;
ANALYZE TABLE plain COMPUTE;
