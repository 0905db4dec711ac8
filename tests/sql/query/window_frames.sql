-- Window frames: ROWS and RANGE with every kind of boundary, Hive's
-- default frames, frames at the partition's edges and empty frames,
-- RANGE over NULL keys, over DECIMAL, DOUBLE, DATE and TIMESTAMP keys,
-- and an aggregate without removal (min/max, collect_list) on sliding
-- frames.
CREATE TABLE f (p STRING, k INT, v INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO f VALUES ('x', 1, 1), ('x', 2, 2), ('x', 2, 4), ('x', 4, 8),
  ('x', 7, 16), ('x', NULL, 32), ('x', NULL, 64), ('y', 10, 100),
  ('z', NULL, 1000);

-- ROWS: every boundary kind
SELECT p, k, v,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS upto,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS around,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS prev2,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) AS next3,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING) AS after2,
  count(*) OVER (PARTITION BY p ORDER BY k, v ROWS 2 PRECEDING) AS n3,
  sum(v) OVER (PARTITION BY p ORDER BY k, v ROWS CURRENT ROW) AS self
FROM f ORDER BY p, k, v;

-- RANGE: peers (k = 2 twice, the NULL keys) share a frame; offsets by the
-- key's value; NULL keys' frames are their NULL peers
SELECT p, k, v,
  sum(v) OVER (PARTITION BY p ORDER BY k) AS dflt,
  sum(v) OVER (PARTITION BY p ORDER BY k RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS upto,
  sum(v) OVER (PARTITION BY p ORDER BY k RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS rest,
  sum(v) OVER (PARTITION BY p ORDER BY k RANGE CURRENT ROW) AS peers,
  sum(v) OVER (PARTITION BY p ORDER BY k RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS near2,
  sum(v) OVER (PARTITION BY p ORDER BY k RANGE BETWEEN 3 PRECEDING AND 1 PRECEDING) AS below,
  sum(v) OVER (PARTITION BY p ORDER BY k RANGE BETWEEN 1 FOLLOWING AND 5 FOLLOWING) AS above,
  sum(v) OVER (PARTITION BY p ORDER BY k DESC RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS desc2,
  sum(v) OVER (PARTITION BY p ORDER BY k NULLS FIRST RANGE BETWEEN 3 PRECEDING AND UNBOUNDED FOLLOWING) AS nf
FROM f ORDER BY p, k, v;

-- no ORDER BY: the whole partition (also for first/last value)
SELECT p, k, v, sum(v) OVER (PARTITION BY p) AS whole, first_value(v) OVER (PARTITION BY p ORDER BY v
  ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS fv,
  last_value(v) OVER (PARTITION BY p ORDER BY v ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS lv
FROM f ORDER BY p, v;

-- frames that hold no row: count 0, sum/avg/first_value NULL
SELECT k, v, count(v) OVER (ORDER BY v ROWS BETWEEN 5 FOLLOWING AND 6 FOLLOWING) AS c,
  avg(v) OVER (ORDER BY v ROWS BETWEEN 10 PRECEDING AND 9 PRECEDING) AS a,
  first_value(v) OVER (ORDER BY v ROWS BETWEEN 7 FOLLOWING AND UNBOUNDED FOLLOWING) AS fv
FROM f ORDER BY v;

-- aggregates on sliding frames, including those without removal
SELECT v, min(v) OVER w AS mn, max(v) OVER w AS mx, avg(v) OVER w AS av,
  collect_list(v) OVER w AS vals, stddev_pop(v) OVER w AS sd
FROM f WINDOW w AS (ORDER BY v ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING) ORDER BY v;

-- RANGE over other key types: decimals, doubles, dates (days), timestamps
-- (seconds)
CREATE TABLE g (d DECIMAL(6,2), x DOUBLE, dt DATE, ts TIMESTAMP, v INT)
  STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO g VALUES (1.50, 0.5, '2024-01-01', '2024-01-01 00:00:00', 1),
  (2.50, 1.5, '2024-01-02', '2024-01-01 00:00:01', 2),
  (3.49, 2.25, '2024-01-04', '2024-01-01 00:00:01.5', 4),
  (4.51, 3.0, '2024-03-01', '2024-01-01 00:00:03', 8),
  (NULL, NULL, NULL, NULL, 16);
SELECT d, v, sum(v) OVER (ORDER BY d RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s FROM g ORDER BY v;
SELECT x, v, sum(v) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM g ORDER BY v;
SELECT dt, v, sum(v) OVER (ORDER BY dt RANGE BETWEEN 2 PRECEDING AND CURRENT ROW) AS s,
  count(*) OVER (ORDER BY dt DESC RANGE BETWEEN 30 PRECEDING AND 1 PRECEDING) AS later
FROM g ORDER BY v;
SELECT ts, v, sum(v) OVER (ORDER BY ts RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM g ORDER BY v;
-- a BIGINT key near its limits does not overflow the distance
CREATE TABLE h (k BIGINT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO h VALUES (9223372036854775807), (9223372036854775806), (-9223372036854775808), (0);
SELECT k, count(*) OVER (ORDER BY k RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM h ORDER BY k;

-- a partition of many rows: the running and the sliding paths agree with
-- a self-check over 3000 rows (every difference would be a row)
CREATE TABLE big (i INT) STORED AS ORC TBLPROPERTIES ('transactional'='true');
INSERT INTO big SELECT (a.pos * 100 + b.pos) FROM (SELECT 1) one
  LATERAL VIEW posexplode(split(space(29), ' ')) a AS pos, x
  LATERAL VIEW posexplode(split(space(99), ' ')) b AS pos, y;
SELECT count(*), min(i), max(i) FROM big;
SELECT count(*) FROM (SELECT i,
    sum(i) OVER (ORDER BY i ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) AS s,
    sum(i) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
      - coalesce(sum(i) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND 11 PRECEDING), 0) AS t,
    max(i) OVER (ORDER BY i ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING) AS m,
    row_number() OVER (ORDER BY i) AS rn
  FROM big) q
WHERE s <> t OR m <> least(i + 5, 2999) OR rn <> i + 1;
