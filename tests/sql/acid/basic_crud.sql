-- A transactional bucketed table through INSERT, UPDATE and DELETE: the rows,
-- the ROW__IDs and the directories on disk, as Hive lays them out.
CREATE TABLE t (id INT, name STRING, score DOUBLE, active BOOLEAN)
CLUSTERED BY (id) INTO 2 BUCKETS
STORED AS ORC
TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES
  (1, 'ann', 1.5, true),
  (2, 'bob', 2.0, false),
  (3, 'cy', 3.25, true),
  (4, 'di', NULL, true),
  (5, 'ed', 5.0, false);
UPDATE t SET score = score * 2, name = upper(name) WHERE id = 2 OR id = 3;
DELETE FROM t WHERE id = 4;
SELECT * FROM t ORDER BY id;
-- write id 1 inserted everything; write id 2 re-inserted ids 2 and 3 after
-- deleting their old images; write id 3 deleted id 4
SELECT ROW__ID, id FROM t ORDER BY id;
SELECT row__id.writeid, row__id.bucketid, row__id.rowid, id FROM t WHERE row__id.writeid = 2 ORDER BY id;
-- @sh cd "$WH/t" && find . -mindepth 1 | sort
-- @sh for f in $(find "$WH/t" -name _orc_acid_version | sort); do printf '%s: %s\n' "${f#$WH/}" "$(cat "$f")"; done
