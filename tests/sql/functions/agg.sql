-- Hive's aggregates: result types, NULLs, empty groups, exact arithmetic
CREATE TABLE a (g STRING, i INT, d DOUBLE, m DECIMAL(5,2), s STRING) STORED AS ORC;
INSERT INTO a VALUES ('x', 1, 1.5, 1.10, 'b'), ('x', 2, 2.5, 2.20, 'a'), ('x', 3, NULL, NULL, 'b'), ('y', NULL, 10, 5.55, NULL), ('y', 4, -0.0, -5.55, 'c'), ('z', NULL, NULL, NULL, NULL);
SELECT g, count(*), count(i), count(i, d), sum(i), sum(d), sum(m), avg(i), avg(m), min(s), max(s) FROM a GROUP BY g ORDER BY g;
SELECT g, variance(i), var_pop(d), var_samp(i), stddev(i), stddev_pop(d), stddev_samp(i), std(m) FROM a GROUP BY g ORDER BY g;
SELECT g, covar_pop(i, d), covar_samp(i, d), corr(i, d), corr(i, i) FROM a GROUP BY g ORDER BY g;
SELECT g, collect_list(s), collect_set(s), collect_list(i), size(collect_set(i)) FROM a GROUP BY g ORDER BY g;
SELECT g, percentile(i, 0.5), percentile(i, array(0, 0.25, 1)), percentile_approx(d, 0.5), percentile_approx(i, array(0.1, 0.9), 100) FROM a GROUP BY g ORDER BY g;
-- one group over all rows, and over no rows
SELECT count(*), sum(i), avg(d), variance(i), var_samp(i), corr(i, d), percentile(i, 0.5), collect_list(s), min(m) FROM a;
SELECT count(*), sum(i), avg(d), variance(i), collect_list(s), collect_set(i), percentile_approx(d, 0.5), max(s) FROM a WHERE i > 100;
-- sum of strings reads them as doubles; of decimals widens by 10 digits
SELECT sum(s), sum('1.5'), avg('x'), sum(cast(99999999999999999999999999.99 AS DECIMAL(28,2))) FROM a WHERE g = 'x';
-- percentile over many values; percentile_approx exact below its bin count
CREATE TABLE p (v INT) STORED AS ORC;
INSERT INTO p SELECT 1 FROM a;
INSERT INTO p VALUES (5), (7), (7), (100), (-3), (0), (42), (42), (42), (8);
SELECT percentile(v, 0.5), percentile(v, 0.9), percentile_approx(v, 0.5), percentile_approx(v, array(0.25, 0.75)), percentile_approx(cast(v AS DOUBLE), 0.5, 3), stddev_samp(v), var_pop(v) FROM p;
-- errors
SELECT sum(true) FROM a;
SELECT variance(i, d) FROM a;
SELECT covar_pop(i) FROM a;
SELECT corr(s, i) FROM a;
SELECT percentile(d, 0.5) FROM a;
SELECT percentile(i, 1.5) FROM a;
SELECT percentile_approx(d, 1) FROM a;
SELECT percentile_approx(d, 0.5, d) FROM a;
SELECT collect_set(map('a', 1)) FROM a;
SELECT sum(*) FROM a;
SELECT max(i) + sum(count(*)) FROM a;
