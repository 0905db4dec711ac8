-- EXPLAIN: comb's plan as it would run (docs/sql.md gives the format):
-- operators top down, each input indented below; a table scan shows the
-- table, its kind and format, the columns it decodes, its filter and the
-- partitions left after pruning.  Nothing runs: EXPLAIN of a write writes
-- nothing.
CREATE TABLE events (id INT, kind STRING, amount DOUBLE)
  PARTITIONED BY (ds STRING, hr INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO events PARTITION (ds, hr) VALUES
  (1, 'click', 1.0, '2024-01-01', 1), (2, 'view', 2.0, '2024-01-01', 2),
  (3, 'click', 3.0, '2024-01-02', 1), (4, 'buy', 4.0, '2024-01-03', 5);
CREATE TABLE notes (line STRING) STORED AS TEXTFILE;

-- a scan with no condition reads every partition; with a condition on
-- partition keys only those that can match; other conditions filter rows
EXPLAIN SELECT * FROM events;
EXPLAIN SELECT id FROM events WHERE ds = '2024-01-01' AND hr > 1;
EXPLAIN SELECT id FROM events WHERE ds >= '2024-01-02' OR kind = 'buy';
EXPLAIN SELECT count(*) FROM events WHERE ds = '2099-01-01';
EXPLAIN SELECT line FROM notes WHERE line LIKE 'a%';
EXPLAIN SELECT ROW__ID, ROW__ID.rowid FROM events WHERE ROW__ID.writeid = 1;

-- every stage of a query
EXPLAIN SELECT kind, count(*) AS n, sum(amount) FROM events WHERE id > 0
  GROUP BY kind HAVING count(*) > 1 ORDER BY n DESC, kind LIMIT 3;
EXPLAIN SELECT DISTINCT kind FROM events ORDER BY kind;
EXPLAIN SELECT upper(kind), CASE WHEN amount > 2 THEN 'big' ELSE 'small' END, amount BETWEEN 1 AND 2,
  id IN (1, 2), kind IS NULL, CAST(id AS STRING), -amount, NOT (id = 1) FROM events;
EXPLAIN SELECT 1 + 1, 'x', DATE '2024-01-01', NULL;
EXPLAIN SELECT id FROM events ORDER BY amount;

-- subqueries and views: conditions go down to the scan when nothing in
-- between changes which rows there are
CREATE VIEW daily AS SELECT ds, kind, amount FROM events WHERE amount > 1;
EXPLAIN SELECT kind FROM daily WHERE ds = '2024-01-02';
EXPLAIN SELECT x.k FROM (SELECT kind AS k, ds FROM events ORDER BY k) x WHERE x.ds = '2024-01-03';

-- writes: the target, then the rows' plan; nothing is written
EXPLAIN INSERT INTO events PARTITION (ds = '2024-02-01', hr) SELECT id, kind, amount, hr FROM events WHERE ds = '2024-01-01';
EXPLAIN INSERT OVERWRITE TABLE notes SELECT kind FROM events;
EXPLAIN INSERT INTO notes VALUES ('a'), ('b');
EXPLAIN UPDATE events SET amount = amount * 2 WHERE ds = '2024-01-01' AND id = 1;
EXPLAIN DELETE FROM events WHERE hr = 5;
EXPLAIN DELETE FROM events;
SELECT count(*) FROM events;
SELECT count(*) FROM notes;

-- every form prints the same plan
EXPLAIN EXTENDED SELECT id FROM events WHERE hr = 5;
EXPLAIN FORMATTED SELECT id FROM events WHERE hr = 5;
EXPLAIN CBO SELECT id FROM events WHERE hr = 5;

-- errors are the statement's own
EXPLAIN SELECT nosuch FROM events;
EXPLAIN SELECT * FROM nosuch;
EXPLAIN UPDATE nosuch SET a = 1;
EXPLAIN UPDATE notes SET line = 'x';
EXPLAIN INSERT INTO daily SELECT * FROM daily;
EXPLAIN DELETE FROM daily;
EXPLAIN CREATE TABLE x (a INT);
EXPLAIN AST SELECT 1;
