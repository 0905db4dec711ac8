-- Hive's math functions: result types, NULLs, -0.0/NaN, extremes
CREATE TABLE n (id INT, i INT, b BIGINT, d DOUBLE, m DECIMAL(10,3)) STORED AS ORC;
INSERT INTO n VALUES (1, 7, 9223372036854775807, 2.5, 12.345), (2, -7, -9223372036854775808, -2.5, -12.345), (3, NULL, NULL, NULL, NULL), (4, 0, 0, -0.0, 0), (5, 3, 10, cast('NaN' AS DOUBLE), 0.5);
SELECT id, round(i, -1), round(d), round(m, 1), round(m), bround(d), bround(m, 2), floor(d), ceil(d), floor(m), ceil(m) FROM n ORDER BY id;
SELECT id, abs(i), abs(b), sign(d), sign(m), pmod(i, 3), pmod(d, 2), positive(m), negative(i), negative(b) FROM n ORDER BY id;
SELECT id, sqrt(d), exp(i), ln(d), log10(b), log2(i), log(2, i), pow(i, 2), cbrt(i) FROM n ORDER BY id;
-- round: integers keep their type, doubles round their Java digits HALF_UP, decimals stay decimal
SELECT round(2.675, 2), round(2.675e0, 2), round(-2.5e0), round(1234, -2), round(1250, -2), round(-1250, -2), round(1.5e308, -300), round(cast('Infinity' AS DOUBLE), 1), round(12345678, -9);
SELECT bround(2.5e0), bround(3.5e0), bround(-2.5e0), bround(2.45e0, 1), bround(1250, -2), bround(1350, -2), bround(2.345, 2), bround(2.355, 2);
SELECT floor(-1.5e0), ceil(-1.5e0), floor(1e30), ceil(cast('NaN' AS DOUBLE)), floor(-0.5), ceiling(1.01), floor('3.7'), ceil(5);
SELECT pow(2, 10), power(2, -1), pow(-8, 1/3), sqrt(-1), sqrt(4), exp(0), ln(0), ln(-1), ln(exp(2)), log(10, 1000), log(1, 10), log(-2, 8), log10(0.001), log2(1024);
SELECT pmod(-7, 3), pmod(7, -3), pmod(7, 0), pmod(-7.5, 2), pmod(cast(-7 AS DECIMAL(3,0)), 3), 5 % 0, pmod(-7Y, 3Y);
SELECT sign(-3.5e0), sign(0.0e0), sign(2), sign(-0.25), greatest(1, 2.5, 3), least('b', 'a', 'c'), greatest(1, NULL, 3), least(cast('NaN' AS DOUBLE), 1e0), greatest(-0.0e0, 0.0e0);
SELECT rand(42), rand(42) < 1, e(), pi(), sin(0), cos(0), tan(pi() / 4), asin(2), acos(1), atan(1), degrees(pi()), radians(180);
SELECT bin(13), bin(-1), bin(0), conv('100', 2, 10), conv(-10, 10, -16), conv('ff', 16, 2), conv('zz', 36, 10), conv('12', 37, 10), conv('', 10, 2), conv('18446744073709551616', 10, 10);
SELECT factorial(0), factorial(20), factorial(21), factorial(-1), width_bucket(5.3, 0.2, 10.6, 5), width_bucket(-1, 0, 10, 5), width_bucket(10, 0, 10, 5), width_bucket(3, 10, 0, 5);
SELECT id, rand(7) FROM n ORDER BY id;
-- errors
SELECT round(1.5, 'x');
SELECT round(1.5, id) FROM n;
SELECT floor(true);
SELECT greatest(array(1), 2);
SELECT factorial(1L);
SELECT width_bucket(1, 0, 10, 0);
