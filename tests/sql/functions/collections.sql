-- collection functions, conditional functions, hash and murmur_hash
CREATE TABLE c (id INT, a ARRAY<INT>, m MAP<STRING,INT>, s STRING) STORED AS ORC;
INSERT INTO c SELECT 1, array(3, 1, 2), map('b', 2, 'a', 1), 'x';
INSERT INTO c SELECT 2, array(5, NULL, -1), map('z', cast(NULL AS INT)), 'y';
INSERT INTO c SELECT 3, collect_list(id), map('q', 0), NULL FROM c WHERE id < 0;
INSERT INTO c SELECT 4, NULL, NULL, '';
SELECT id, size(a), array_contains(a, 2), array_contains(a, NULL), sort_array(a), map_keys(m), map_values(m), size(m) FROM c ORDER BY id;
SELECT array_contains(array('a', 'b'), 'b'), array_contains(array(1.5, 2), 2), sort_array(array('b', 'A', 'a')), sort_array(array(array(2), array(1, 5), array(1))), map_keys(map(1, 'x', 1, 'y'));
-- nullif, isnull, isnotnull, assert_true, if, nvl, coalesce
SELECT id, nullif(s, 'x'), isnull(s), isnotnull(a), if(s = 'x', 'yes', 'no'), nvl(s, 'none'), coalesce(NULL, s, 'z') FROM c ORDER BY id;
SELECT nullif(1, 1.0), nullif('a', 'b'), nullif(NULL, 1), assert_true(1 < 2), assert_true(id > 0) FROM c WHERE id = 1;
-- Hive's hash (Java hashCode) and murmur_hash (bucketing version 2's Murmur3)
SELECT hash(1), hash('a'), hash(1, 'a'), hash(NULL), hash(1.5e0), hash(true), hash(array(1, 2)), murmur_hash('a'), murmur_hash(1), murmur_hash(1, 'a');
-- errors
SELECT array_contains(1, 1);
SELECT array_contains(array(1), 'x');
SELECT sort_array(map('a', 1));
SELECT sort_array(array(1), false);
SELECT map_keys(array(1));
SELECT assert_true(id > 1) FROM c;
SELECT assert_true(1);
