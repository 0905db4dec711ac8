-- DEFAULT column constraints (Hive 3+, HIVE-18726; issue 10): what
-- CREATE TABLE and ALTER TABLE CHANGE COLUMN accept, Hive's error 10326
-- texts for what they refuse (ConstraintsUtils.getDefaultValue: the value
-- typed without a row, at most 255 characters, of the column's type
-- exactly, constants and functions of them only), and the DEFAULT keyword
-- in INSERT, UPDATE and MERGE.  Each refused statement leaves nothing.
-- the value's type must be the column's exactly
CREATE TABLE d1 (i int, j double DEFAULT 1);
CREATE TABLE d1 (i int, j bigint DEFAULT 1);
CREATE TABLE d1 (i decimal(5,2) DEFAULT 1.5);
CREATE TABLE d1 (i varchar(3) DEFAULT 'abcdef');
CREATE TABLE d1 (i int DEFAULT rand());
CREATE TABLE d1 (i date DEFAULT '2024-01-01');
-- a column is no value (Hive types the DEFAULT without a row)
CREATE TABLE d1 (i int, j double DEFAULT cast(i as double));
CREATE TABLE d1 (i int, j int DEFAULT i);
CREATE TABLE d1 (i int, j int DEFAULT abs(i) + 1);
-- subqueries, aggregates, windows and unknown functions
CREATE TABLE d1 (i int, j int DEFAULT (SELECT 1));
CREATE TABLE d1 (i int, j bigint DEFAULT count(*));
CREATE TABLE d1 (i int, j int DEFAULT row_number() OVER ());
CREATE TABLE d1 (i int, j int DEFAULT nosuch(1));
-- at most 255 characters (the text as written, quotes included)
CREATE TABLE d1 (i string DEFAULT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
CREATE TABLE d2 (i string DEFAULT 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
DROP TABLE d2;
-- constraint names: once per table, at most 255 characters
CREATE TABLE d1 (i int CONSTRAINT c1 DEFAULT 1, j int CONSTRAINT c1 DEFAULT 2);
CREATE TABLE d1 (i int CONSTRAINT cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc DEFAULT 1);
-- constraint options: ENABLE, NOVALIDATE, RELY, ENFORCED as Hive keeps
-- them; VALIDATE is Hive's 10326; DISABLE (a default nobody uses) comb
-- does not keep
CREATE TABLE d1 (i int DEFAULT 1 ENABLE VALIDATE);
CREATE TABLE d1 (i int DEFAULT 1 DISABLE);
CREATE TABLE d1 (i int DEFAULT 1 NOT ENFORCED);
-- the constraint comes before COMMENT, and there is one per column
CREATE TABLE d1 (i int COMMENT 'c' DEFAULT 1);
CREATE TABLE d1 (i int DEFAULT 1 NOT NULL);
-- not on EXTERNAL tables, not on partition columns
CREATE EXTERNAL TABLE d1 (i int DEFAULT 1);
CREATE TABLE d1 (i int) PARTITIONED BY (p string DEFAULT 'a');
SHOW TABLES LIKE 'd1';
-- what is accepted: constants, functions of constants, casts, NULL
CREATE TABLE ok1 (a int CONSTRAINT a_dflt DEFAULT 7 ENABLE NOVALIDATE RELY,
                  b string CONSTRAINT b_dflt DEFAULT repeat('s', 2) COMMENT 'rep',
                  c bigint CONSTRAINT c_dflt DEFAULT 3L ENFORCED,
                  d decimal(4,2) CONSTRAINT d_dflt DEFAULT CAST(1.25 AS decimal(4,2)),
                  e date CONSTRAINT e_dflt DEFAULT DATE'2024-02-29',
                  f double CONSTRAINT f_dflt DEFAULT cast(1 AS double),
                  g int DEFAULT NULL)
  CLUSTERED BY (a) INTO 2 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='true');
DESCRIBE ok1;
-- a column left out of INSERT's list, or given as DEFAULT, takes its
-- default; a column without one takes NULL
INSERT INTO ok1 (a) VALUES (1);
INSERT INTO ok1 VALUES (2, default, default, default, default, default, default);
INSERT INTO ok1 (b, a) VALUES ('x', default);
SELECT * FROM ok1 ORDER BY a, b;
-- DEFAULT is the keyword only alone: inside an expression, in a SELECT,
-- in WHERE it is a column name, and there is none
INSERT INTO ok1 (a) VALUES (default + 1);
INSERT INTO ok1 (a) SELECT default;
SELECT default FROM ok1;
UPDATE ok1 SET b = 'y' WHERE b = default;
-- UPDATE SET col = DEFAULT
UPDATE ok1 SET b = 'changed', c = 99 WHERE a = 1;
UPDATE ok1 SET b = default, g = default WHERE a = 1;
UPDATE ok1 SET b = default || 'x' WHERE a = 1;
SELECT a, b, c, g FROM ok1 ORDER BY a, b;
-- the bucketing column stays what it is, DEFAULT or not (10302)
UPDATE ok1 SET a = default WHERE a = 1;
-- MERGE: DEFAULT in UPDATE SET and in the INSERT values
CREATE TABLE src (a int, b string) STORED AS ORC TBLPROPERTIES ('transactional'='false');
INSERT INTO src VALUES (2, 'm'), (5, 'n');
MERGE INTO ok1 t USING src s ON t.a = s.a
WHEN MATCHED THEN UPDATE SET c = default, b = s.b
WHEN NOT MATCHED THEN INSERT (a, c) VALUES (s.a, default);
SELECT a, b, c, d FROM ok1 ORDER BY a, b;
MERGE INTO ok1 t USING src s ON t.a = s.a
WHEN NOT MATCHED THEN INSERT VALUES (s.a, default + 1, default, default, default, default, default);
-- ALTER TABLE ... CHANGE COLUMN takes a DEFAULT (Hive 4's
-- alterColumnConstraint), checked against the new type
ALTER TABLE ok1 CHANGE COLUMN g g int CONSTRAINT g_dflt DEFAULT 42;
ALTER TABLE ok1 CHANGE COLUMN c c bigint DEFAULT 5;
ALTER TABLE ok1 CHANGE COLUMN c c bigint CONSTRAINT a_dflt DEFAULT 5L;
ALTER TABLE ok1 CHANGE COLUMN c c bigint DEFAULT b;
-- a rename keeps the column's DEFAULT; a new DEFAULT replaces the old
ALTER TABLE ok1 CHANGE COLUMN b b2 string COMMENT 'renamed';
ALTER TABLE ok1 CHANGE COLUMN d d decimal(4,2) CONSTRAINT d_dflt2 DEFAULT 9.75;
ALTER TABLE ok1 CHANGE COLUMN d d decimal(4,2) CONSTRAINT d_dflt2 DEFAULT CAST(9.75 AS decimal(4,2));
INSERT INTO ok1 (a) VALUES (9);
SELECT * FROM ok1 WHERE a = 9;
-- the session's user and database, the functions Hive's own tests use
CREATE TABLE who (i int, u string DEFAULT current_user(),
                  db string DEFAULT current_database(),
                  day date DEFAULT current_date());
INSERT INTO who (i) VALUES (1);
SELECT i, u, db, day = current_date() FROM who;
-- ADD / REPLACE COLUMNS take no constraint (as in Hive's grammar)
ALTER TABLE ok1 ADD COLUMNS (z int DEFAULT 1);
-- not on an EXTERNAL table
CREATE EXTERNAL TABLE ext (i int) STORED AS ORC LOCATION '${env:WH}/ext';
ALTER TABLE ext CHANGE COLUMN i i int DEFAULT 1;
-- the constraints as the metastore keeps them
-- @sh $COMB --warehouse $WH -e "DESCRIBE FORMATTED ok1" | sed -n '/# Default Constraints/,$p' | grep -v 'dc_'
