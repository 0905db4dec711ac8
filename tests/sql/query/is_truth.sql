-- a IS [NOT] TRUE | FALSE (Hive 3+): never NULL, so NULL IS TRUE and NULL
-- IS FALSE are false and their NOT forms true; a is read as a boolean
-- (CAST: 0 is false, and the strings '', 'false', 'off', 'no', '0'), at
-- the precedence of the comparisons
CREATE TABLE flags (id INT, b BOOLEAN, n INT, s STRING);
INSERT INTO flags VALUES (1, true, 1, 'yes'), (2, false, 0, ''), (3, NULL, NULL, NULL),
    (4, true, 7, 'false');
SELECT id, b, b IS TRUE AS t, b IS NOT TRUE AS nt, b IS FALSE AS f,
       b IS NOT FALSE AS nf FROM flags ORDER BY id;
-- in WHERE: NOT TRUE keeps the NULL row, <> true does not
SELECT id FROM flags WHERE b IS NOT TRUE ORDER BY id;
SELECT id FROM flags WHERE b <> true ORDER BY id;
SELECT count(*) FROM flags WHERE b IS FALSE OR b IS TRUE;
-- other types read as booleans; a condition as the operand
SELECT id, n IS TRUE, s IS FALSE, n > 0 IS NOT FALSE FROM flags ORDER BY id;
-- constants, and precedence: arithmetic tighter, AND / NOT looser
SELECT NULL IS TRUE, NULL IS NOT TRUE, NULL IS FALSE, NULL IS NOT FALSE,
       true IS TRUE, false IS NOT FALSE, 1 + 1 = 2 IS TRUE,
       NOT false IS TRUE, false IS FALSE AND true;
EXPLAIN SELECT id FROM flags WHERE b IS NOT TRUE;
-- bad: IS followed by junk, IS NOT at the end, a type with no boolean
SELECT b IS maybe FROM flags;
SELECT id FROM flags WHERE b IS NOT;
SELECT array(1) IS TRUE;
-- a filter's conjuncts narrow the rows in turn (Hive's vectorized AND):
-- a later one never sees a row an earlier one dropped as FALSE or NULL
CREATE TABLE narrow (x INT);
INSERT INTO narrow VALUES (1), (NULL), (3), (0);
SELECT x FROM narrow WHERE x IS NOT NULL AND assert_true(x IS NOT NULL) IS NULL ORDER BY x;
SELECT x FROM narrow WHERE x > 0 AND assert_true(x > 0) IS NULL AND 6 / x > 2 ORDER BY x;
