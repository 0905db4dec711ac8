-- a IS [NOT] DISTINCT FROM b (Hive 3+): IS NOT DISTINCT FROM is <=>, IS
-- DISTINCT FROM is NOT (a <=> b), at the precedence of the comparisons;
-- the change test of a slowly changing dimension that also sees NULL ->
-- value and value -> NULL
CREATE TABLE old_v (id INT, city STRING);
CREATE TABLE new_v (id INT, city STRING);
INSERT INTO old_v VALUES (1, 'Oslo'), (2, NULL), (3, 'Rome'), (4, NULL), (5, 'Lima');
INSERT INTO new_v VALUES (1, 'Oslo'), (2, NULL), (3, NULL), (4, 'Pune'), (5, 'Cork');
SELECT o.id, o.city, n.city, o.city IS DISTINCT FROM n.city AS changed,
       o.city IS NOT DISTINCT FROM n.city AS same, o.city <> n.city AS ne
FROM old_v o JOIN new_v n ON o.id = n.id ORDER BY o.id;
SELECT o.id FROM old_v o JOIN new_v n ON o.id = n.id
WHERE o.city IS DISTINCT FROM n.city ORDER BY o.id;
-- a join key matching NULL with NULL
SELECT o.id, n.id FROM old_v o JOIN new_v n ON o.city IS NOT DISTINCT FROM n.city
ORDER BY o.id, n.id;
-- precedence: arithmetic binds tighter, AND / NOT looser
SELECT 1 + 1 IS NOT DISTINCT FROM 2, 1 IS DISTINCT FROM 1 AND true,
       NOT 1 IS DISTINCT FROM 2, NULL IS DISTINCT FROM NULL,
       1 IS DISTINCT FROM NULL;
-- bad: no right operand, DISTINCT without FROM
SELECT 1 IS DISTINCT FROM;
SELECT 1 IS NOT DISTINCT 2;
