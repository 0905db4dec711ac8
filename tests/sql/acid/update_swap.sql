-- Every right-hand side of an UPDATE sees the row as it was before the
-- statement (Hive runs UPDATE as an insert of the old row's new image):
-- swaps, rotations, casts and arithmetic over columns being assigned.
CREATE TABLE sw (id INT, a INT, b INT, c INT, big BIGINT, s STRING)
STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO sw VALUES (1, 10, 20, 30, 40, 'x'), (2, NULL, 5, 6, 7, NULL);
UPDATE sw SET a = b, b = a;
SELECT id, a, b, c FROM sw ORDER BY id;
UPDATE sw SET a = b, b = c, c = a;
SELECT id, a, b, c FROM sw ORDER BY id;
UPDATE sw SET a = b + 0, b = a;
SELECT id, a, b, c FROM sw ORDER BY id;
-- a widening cast (int -> bigint) and a narrowing one (bigint -> int)
UPDATE sw SET big = a, a = big;
SELECT id, a, big FROM sw ORDER BY id;
-- a column assigned to a string of itself and another read through it
UPDATE sw SET s = concat(cast(a AS STRING), '/', cast(b AS STRING)), a = b * 2, b = a;
SELECT id, a, b, s FROM sw ORDER BY id;
-- self-assignment changes nothing but still makes a new row image
UPDATE sw SET a = a, b = b WHERE id = 1;
SELECT id, a, b, c, big, s FROM sw ORDER BY id;

-- bucketed: the same on a table whose rows move between files only by
-- their bucket (the clustering column itself cannot be updated)
CREATE TABLE bsw (k INT, x STRING, y STRING, z STRING)
CLUSTERED BY (k) INTO 4 BUCKETS STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO bsw VALUES (1, 'x1', 'y1', 'z1'), (2, 'x2', 'y2', 'z2'), (3, 'x3', NULL, 'z3'), (4, 'x4', 'y4', 'z4');
UPDATE bsw SET x = y, y = z, z = x WHERE k <> 2;
SELECT * FROM bsw ORDER BY k;
UPDATE bsw SET x = upper(z), z = lower(x);
SELECT * FROM bsw ORDER BY k;

-- many rows across batches (3,000 rows = three scan batches)
CREATE TABLE many (id INT, a INT, b INT, c INT) CLUSTERED BY (id) INTO 3 BUCKETS
STORED AS ORC TBLPROPERTIES ('transactional'='true');
-- @sh seq 1 3000 | awk 'BEGIN{printf "INSERT INTO many VALUES "} {printf "%s(%d,%d,%d,%d)", (NR>1?",":""), $1, $1, -$1, 2*$1} END{print ";"}' > ins.sql && "$COMB" --warehouse "$WH" -f ins.sql
UPDATE many SET a = b, b = c, c = a;
SELECT count(*), sum(a), sum(b), sum(c) FROM many;
SELECT count(*) FROM many WHERE a <> -id OR b <> 2 * id OR c <> id;
UPDATE many SET a = c, c = a WHERE id % 2 = 0;
SELECT count(*) FROM many WHERE (id % 2 = 0 AND (a <> id OR c <> -id)) OR (id % 2 = 1 AND (a <> -id OR c <> id));
