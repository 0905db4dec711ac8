-- Regular expressions: Java's java.util.regex semantics through PCRE2
CREATE TABLE r (id INT, s STRING) STORED AS ORC;
INSERT INTO r VALUES (1, 'foo123bar'), (2, ''), (3, NULL), (4, 'Ünïcödé 42'), (5, 'a.b.c'), (6, 'line1\nline2');
SELECT id, s RLIKE '\\d+', s REGEXP '^foo', s NOT RLIKE 'o', regexp_replace(s, '[0-9]', '#'), regexp_extract(s, '([a-z]+)(\\d+)', 2), split(s, '\\.'), size(split(s, '')) FROM r ORDER BY id;
-- Java escapes and classes: \\p{Alpha} (ASCII), \\p{L}, \\p{IsLatin}, \\uXXXX, \\Q..\\E, (?i)
SELECT 'Ab1' RLIKE '^\\p{Alpha}\\p{Lower}\\p{Digit}$', 'é' RLIKE '\\p{Alpha}', 'é' RLIKE '\\p{L}', 'é' RLIKE '\\p{IsLatin}', 'é' RLIKE '\\u00e9', 'a.b' RLIKE '\\Qa.b\\E', 'a+b' RLIKE '\\Qa.b\\E', 'ABC' RLIKE '(?i)abc', '' RLIKE '', 'x' RLIKE '[\\p{Punct}x]';
-- '.' stops at a line end; $ matches before a final line end
SELECT 'a\nb' RLIKE 'a.b', 'a\nb' RLIKE '(?s)a.b', 'ab\n' RLIKE 'b$', 'a\rb' RLIKE 'a.b';
-- replacement strings: $n, ${name}, \\$ literal; empty pattern
SELECT regexp_replace('2024-01-15', '(\\d+)-(\\d+)-(\\d+)', '$3/$2/$1'), regexp_replace('john smith', '(?<first>\\w+) (?<last>\\w+)', '${last}, ${first}'), regexp_replace('a.b', '\\.', '\\$'), regexp_replace('abc', '', '-'), regexp_replace('aaa', 'a*', 'X'), regexp_replace('héllo', 'l', 'L');
SELECT regexp_extract('foothebar', 'foo(.*?)(bar)', 2), regexp_extract('foothebar', 'foo(.*?)(bar)', 0), regexp_extract('foothebar', 'foo(.*?)(bar)'), regexp_extract('abc', 'x(y)'), regexp_extract('abc', 'a(x)?b', 1), regexp_extract('100-200', '(\\d+)-(\\d+)', 1);
-- split keeps trailing empty strings (limit -1), no leading one for a zero-width match
SELECT split('a,b,,c,,', ','), split('abc', ''), split('', ','), split('a1b22c', '\\d+'), split(',a', ','), split('x', 'x'), split('a b  c', ' +'), split(NULL, ',');
-- str_to_map: regex delimiters, NULL for a missing value, the last value of a repeated key
SELECT str_to_map('a:1,b:2,c'), str_to_map('a=1;b=2;a=3', ';', '='), str_to_map(''), str_to_map('k1:v1,,k2:v2,'), map_keys(str_to_map('x.1|y.2', '\\|', '\\.'));
-- errors: bad patterns, a Java class intersection, a missing group
SELECT regexp_extract('abc', '(a', 1);
SELECT 'a' RLIKE '[a-z&&[^b]]';
SELECT regexp_extract('abc', '(a)', 2);
SELECT regexp_replace('abc', 'b', '$2');
SELECT 'a' RLIKE '\\p{InGreek}';
SELECT rlike(1, 2), regexp('x', 'x');
-- long subjects: every match of a 1,000,000-character string (each match
-- must not re-read the rest of the string: that made this quadratic)
SELECT size(split(space(1000000), ' ')), length(regexp_replace(repeat('ab', 500000), 'b', 'cc'));
-- invalid UTF-8 in the subject never matches a pattern item, and the rest
-- of the string still does
SELECT hex(regexp_replace(CAST(unhex('61FF62C3') AS STRING), 'b', 'x')), size(split(CAST(unhex('61FF2C62FE2C') AS STRING), ',')), CAST(unhex('FF61') AS STRING) RLIKE 'a$', CAST(unhex('FF') AS STRING) RLIKE '^.$';
