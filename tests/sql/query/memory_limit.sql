-- comb.exec.memory.limit: sizes as users write them, bad values refused
-- at SET (the setting keeps its value); small limits spill and give the
-- same rows; what cannot spill fails naming the setting.
SET comb.exec.memory.limit=1048576;
SET comb.exec.memory.limit;
SET comb.exec.memory.limit=512k;
SET comb.exec.memory.limit=64K;
SET comb.exec.memory.limit=1m;
SET comb.exec.memory.limit=1MB;
SET comb.exec.memory.limit=2g;
SET comb.exec.memory.limit=1tb;
SET comb.exec.memory.limit=0;
SET comb.exec.memory.limit;
SET comb.exec.memory.limit=abc;
SET comb.exec.memory.limit=-1;
SET comb.exec.memory.limit=1.5g;
SET comb.exec.memory.limit=10 m;
SET comb.exec.memory.limit=1x;
SET comb.exec.memory.limit=;
SET comb.exec.memory.limit=99999999999999999999;
SET comb.exec.memory.limit=9999999999t;
SET comb.exec.memory.limit;
SET comb.exec.spill.dir=;
CREATE TABLE g AS SELECT pos AS n, concat('v', pos % 97) AS s FROM (SELECT posexplode(split(space(19999), ' ')) AS (pos, x)) e;
-- 20000 rows hold about 3 MB: under 256k the sort, the GROUP BY, the joins
-- and the window spill (comb.exec.stats shows it; its figures vary)
SET comb.exec.memory.limit=256k;
SELECT n, s FROM g ORDER BY s DESC, n LIMIT 4;
SELECT count(*), sum(c), max(c), min(n) FROM (SELECT n % 7000 AS n, count(*) AS c FROM g GROUP BY n % 7000) x;
SELECT count(*), sum(a.n), count(b.n) FROM g a LEFT JOIN (SELECT n FROM g WHERE n % 3 = 0) b ON a.n = b.n;
SELECT count(*) FROM g a WHERE NOT EXISTS (SELECT 1 FROM g b WHERE b.n = a.n + 1);
SELECT max(rk), sum(rk) FROM (SELECT rank() OVER (PARTITION BY s ORDER BY n) AS rk FROM g) x;
SELECT count(*) FROM (SELECT s FROM g UNION SELECT concat(s, 'x') FROM g) x;
-- the null-aware NOT IN and one window partition over the limit cannot spill
SELECT count(*) FROM g WHERE n NOT IN (SELECT n + 1 FROM g);
SELECT max(rn) FROM (SELECT row_number() OVER (ORDER BY n) AS rn FROM g) x;
-- the session goes on; without a limit the same rows
SET comb.exec.memory.limit=0;
SELECT n, s FROM g ORDER BY s DESC, n LIMIT 4;
SELECT count(*) FROM g WHERE n NOT IN (SELECT n + 1 FROM g);
SELECT max(rn) FROM (SELECT row_number() OVER (ORDER BY n) AS rn FROM g) x;
