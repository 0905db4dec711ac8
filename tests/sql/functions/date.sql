-- Hive's date and time functions: DATE results, leap days, month ends,
-- ISO weeks, the session time zone (hive.local.time.zone)
CREATE TABLE t (id INT, d DATE, ts TIMESTAMP, s STRING) STORED AS ORC;
INSERT INTO t VALUES (1, DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:59.999', '2024-02-29 12:00:00'), (2, DATE '2023-12-31', TIMESTAMP '1969-12-31 23:59:59', '2023-01-01'), (3, NULL, NULL, NULL), (4, DATE '0001-01-01', TIMESTAMP '9999-12-31 00:00:00', 'not a date');
SELECT id, date_add(d, 1), date_sub(d, 366), datediff(d, '2024-01-01'), add_months(d, 1), add_months(ts, -12), last_day(s), to_date(ts) FROM t ORDER BY id;
SELECT id, year(d), quarter(d), month(ts), day(s), dayofmonth(d), hour(ts), minute(ts), second(ts), weekofyear(d), dayofweek(d) FROM t ORDER BY id;
SELECT id, date_format(ts, 'yyyy/MM/dd HH:mm:ss.SSS'), date_format(d, 'EEEE d MMMM yy'), trunc(d, 'MM'), trunc(s, 'YEAR'), next_day(d, 'mon') FROM t ORDER BY id;
SELECT date_add('2024-02-28', 1), date_add('2024-02-28 10:00:00', 2), date_sub('2024-03-01', 1), date_add(DATE '2024-01-01', -1Y), date_add('x', 1), datediff('2024-03-01', '2023-03-01'), datediff(TIMESTAMP '2024-01-02 00:00:01', '2024-01-01 23:59:59');
SELECT add_months('2024-01-31', 1), add_months('2023-01-31', 1), add_months('2024-02-29', 12), add_months('2023-02-28', 12), add_months('2024-04-30', 1), add_months('2024-03-15', -15);
SELECT months_between('1997-02-28 10:30:00', '1996-10-30'), months_between('2024-03-31', '2024-02-29'), months_between('2024-01-15', '2024-02-15'), months_between('2024-01-01', '2024-01-02', false), months_between('2024-01-01', '2024-01-02');
SELECT last_day('2023-02-10'), last_day('2024-02-10'), next_day('2015-01-14', 'TU'), next_day('2015-01-14', 'wednesday'), next_day('2015-01-14', 'xx'), trunc('2015-03-17', 'Q'), trunc('2015-03-17', 'DD');
SELECT weekofyear('2008-02-20'), weekofyear('2021-01-03'), weekofyear('2021-01-04'), weekofyear('2020-12-31'), dayofweek('2024-01-07'), dayofweek('2024-01-13'), quarter('2024-12-31');
SELECT date_format('2015-04-08 13:05:09.123456', 'yyyy-MM-dd hh:mm:ss.SSS a E D'), date_format('2015-04-08', "MMM dd, yyyy 'at' HH"), date_format('2015-04-08', 'yyyy-MM-dd t'), date_format('2015-04-08', 'Q');
SET hive.local.time.zone=UTC;
SELECT unix_timestamp('2009-03-20 11:30:01'), unix_timestamp('2009-03-20', 'yyyy-MM-dd'), unix_timestamp('20/03/2009 11:30', 'dd/MM/yyyy HH:mm'), unix_timestamp('bad'), unix_timestamp(DATE '1970-01-02'), from_unixtime(0), from_unixtime(1237573801, 'yyyy-MM-dd'), from_unixtime(-1);
SET hive.local.time.zone=America/Los_Angeles;
SELECT unix_timestamp('2009-03-20 11:30:01'), from_unixtime(0), from_unixtime(1710064800), from_unixtime(1710061199);
SELECT to_utc_timestamp('2024-07-01 12:00:00', 'America/Los_Angeles'), to_utc_timestamp('2024-01-01 12:00:00', 'America/Los_Angeles'), from_utc_timestamp('2024-01-01 12:00:00.5', 'Asia/Kolkata'), to_utc_timestamp('2024-01-01 00:00:00', 'GMT+8'), from_utc_timestamp('2024-01-01 00:00:00', 'UTC-05:30'), from_utc_timestamp('2024-01-01 00:00:00', 'Nowhere/Zone');
-- errors
SELECT date_add('2024-01-01', 1L);
SELECT date_add(1, 1);
SELECT year(5);
