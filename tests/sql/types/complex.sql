-- ARRAY, MAP, STRUCT: constructors, a[i], m[k], s.f, size(), printed as
-- Hive's command line prints them (SerDeUtils.getJSONString: strings,
-- dates and timestamps quoted, null inside, decimals without trailing
-- zeros, CHAR padded, BINARY as its text).
SELECT array(1, 2, 3), array(), array(1, NULL, 3), array('a', 'b"c', 'x\ny', 'tab\there', '\\'), array(array(1, 2), array(3)), array(1.5, 2), array(1, 'a'), array(NULL);
SELECT map('a', 1, 'b', 2), map(), map(1, 'x', 2, NULL), map('k', array(1)), map('a', 1, 'b', 2, 'a', 3), map(1.5, true), map(DATE '2020-01-01', TIMESTAMP '2020-01-01 10:00:00.5');
SELECT named_struct('a', 1, 'b', named_struct('c', DATE '2020-01-01', 'd', NULL)), struct(1, 'a', 2.50), named_struct('x', CAST(1.50 AS DECIMAL(5,2)), 'y', CAST('ab' AS BINARY), 'z', CAST('q' AS CHAR(3)), 'w', 1.5e0, 'v', CAST(0.1 AS FLOAT));
-- subscripts: 0-based; NULL out of range, for a NULL index and a missing key
SELECT array(1, 2, 3)[0], array(1, 2, 3)[2], array(1, 2, 3)[3], array(1, 2, 3)[-1], array(1, 2, 3)[NULL], array(1, 2, 3)[1Y], array(array(1, 2), array(3))[0][1];
SELECT map('a', 1)['a'], map('a', 1)['b'], map('a', 1)[NULL], map(1, 'x')[1], map(1.5, 'x')[1.50], map(1L, 'x')[1], map('a', 1, 'a', 2)['a'], map('a', array(7, 8))['a'][1];
SELECT named_struct('a', 1, 'b', 'x').b, named_struct('a', named_struct('b', 42)).a.b, struct(1, 2).col2, array(named_struct('f', 'v'))[0].f;
SELECT size(array()), size(array(1, NULL)), size(map('a', 1)), size(NULL), size(array(array(1))[5]);
-- equality of complex values of one type; CASE/COALESCE/IF over them
SELECT array(1, 2) = array(1, 2), array(1, 2) = array(1, 3), array(1, 2) <> array(1), named_struct('a', 1) = named_struct('a', 1), map(1, 2) = map(1, 2), array(1) <=> NULL, array(1) IS NULL;
SELECT CASE WHEN true THEN array(1) ELSE array(2, 3) END, coalesce(NULL, array('x')), if(false, named_struct('a', 1), named_struct('a', 2)), nvl(map('k', 1), map('j', 2));
SELECT nvl(map('k', 1), map());
-- what Hive refuses
SELECT array(1, 2) < array(1, 3);
SELECT array(1, 2)[1.5];
SELECT array(1, 2)[1L];
SELECT array(1, 2)['0'];
SELECT map('a', 1)[array(1)];
SELECT (1)[0];
SELECT named_struct('a', 1).b;
SELECT (1).a;
SELECT named_struct('a');
SELECT named_struct(1, 2);
SELECT named_struct('a', 1, 'A', 2);
SELECT map(1);
SELECT map(array(1), 2);
SELECT array(1, true);
SELECT size(1);
SELECT array(1) = array('1');
SELECT array(1) + 1;
SELECT CAST(array(1) AS STRING);
-- complex values cast only to their own type
SELECT CAST(array() AS ARRAY<INT>);
SELECT CAST(array(1) AS ARRAY<BIGINT>);
SELECT CAST(map('a', 1) AS MAP<STRING,TINYINT>);
SELECT CAST(named_struct('x', 1) AS STRUCT<x:STRING>);
SELECT CAST(array(1) AS ARRAY<INT>), CAST(NULL AS ARRAY<INT>), CAST(NULL AS MAP<STRING,INT>) IS NULL;
SELECT CASE WHEN true THEN array(1) ELSE array('a') END;
SELECT upper(array('a'));
-- over a table's rows: grouped, ordered (a NULL inside takes the key's
-- NULL place), min/max; maps cannot be grouped or ordered
CREATE TABLE t (id INT, s STRING) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL), (4, 'a'), (5, 'c');
SELECT array(id % 2, 7) AS a, count(*) FROM t GROUP BY array(id % 2, 7) ORDER BY a;
SELECT named_struct('k', s) AS k, count(*) FROM t GROUP BY named_struct('k', s) ORDER BY k DESC;
SELECT DISTINCT array(id % 2) FROM t ORDER BY 1;
SELECT array(s, 'z') AS a FROM t ORDER BY a, id;
SELECT array(s, 'z') AS a FROM t ORDER BY a DESC, id;
SELECT min(array(id, 1)), max(array(id, 1)), min(named_struct('a', s, 'b', id)), max(named_struct('a', s, 'b', id)) FROM t;
SELECT id, array(s)[0], named_struct('x', s).x, map(s, id)[s] FROM t WHERE array(s)[0] = 'a' ORDER BY id;
SELECT map(s, id) FROM t GROUP BY map(s, id);
SELECT map(s, id) FROM t ORDER BY map(s, id);
SELECT min(map(s, id)) FROM t;
SELECT DISTINCT map(s, id) FROM t;
