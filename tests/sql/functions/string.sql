-- Hive's string functions: NULLs, empty strings, non-ASCII text, extremes
CREATE TABLE s (id INT, v STRING, c CHAR(5), vc VARCHAR(4)) STORED AS ORC;
INSERT INTO s VALUES (1, 'Hello World', 'ab', 'xy'), (2, '', '', ''), (3, NULL, NULL, NULL), (4, 'héllo wörld', 'é', 'ü'), (6, 'Ashcraft', 'c', 'z'), (5, '  pad  ', 'x', 'y');
SELECT id, concat_ws('|', v, 'z'), length(v), character_length(v), octet_length(v), reverse(v), upper(v) FROM s ORDER BY id;
SELECT id, substr(v, 2), substr(v, -3, 2), substr(v, 0, 3), substr(v, 100), substr(v, 2, 0), substring(v, 2, 3) FROM s ORDER BY id;
SELECT id, instr(v, 'l'), locate('l', v), locate('l', v, 5), lpad(v, 8, '*'), rpad(v, 3, '-'), initcap(v) FROM s ORDER BY id;
SELECT id, translate(v, 'lo', 'L'), replace(v, 'l', 'LL'), repeat(v, 2), ascii(v), soundex(v), levenshtein(v, 'Hello') FROM s WHERE id <> 4 ORDER BY id;
SELECT id, md5(v), sha1(v), crc32(v), base64(cast(v AS BINARY)), hex(v) FROM s ORDER BY id;
SELECT id, concat_ws(',', c, vc), length(c), find_in_set(vc, 'xy,ü,y'), elt(2, c, vc), field(vc, 'y', 'xy') FROM s ORDER BY id;
-- concat_ws skips NULLs and joins arrays; a NULL separator is NULL
SELECT concat_ws('-', 'a', NULL, 'b'), concat_ws(NULL, 'a', 'b'), concat_ws(', ', array('x', NULL, 'y'), 'z'), concat_ws('', '');
-- substr counts Java characters; positions past the end give ''
SELECT substr('Facebook', 5), substr('Facebook', -4, 2), substr('Facebook', 5, 100), substr('abc', -5), substr('abc', 1, -1), substr(cast('abcdef' AS BINARY), 2, 3);
-- instr and locate give Hive's byte offsets (1-based)
SELECT instr('foobarbar', 'bar'), instr('héllo', 'l'), locate('bar', 'foobarbar', 5), locate('bar', 'foobarbar', 100), instr('abc', 'x'), instr(12345, 34);
SELECT lpad('hi', 5, '??'), lpad('hi', 1, '??'), lpad('hi', -1, '?'), lpad('hi', 5, ''), rpad('hi', 5, 'xy'), lpad('ü', 3, 'é');
SELECT repeat('ab', 3), repeat('ab', 0), repeat('ab', -1), space(3), space(-2), length(space(5));
SELECT translate('abcdef', 'adc', '19'), translate('aaa', 'aa', 'xy'), translate('héllo', 'é', 'e'), initcap('hELLO wORLD  tWO'), initcap('élan vital');
SELECT ascii('A'), ascii(''), ascii('é'), chr(65), chr(321), chr(-1), chr(233), chr(0) = '';
SELECT replace('abc', '', '-'), replace('aaa', 'aa', 'b'), replace('abc', 'b', ''), elt(1, 'a', 'b'), elt(3, 'a', 'b'), elt(0, 'a'), field('b', 'a', 'b', 'b'), field(NULL, 'a');
SELECT find_in_set('ab', 'abc,b,ab,c,def'), find_in_set('a,b', 'a,b'), find_in_set('', 'a,,b'), levenshtein('kitten', 'sitting'), levenshtein('', 'abc'), soundex('Miller'), soundex('Ashcraft'), soundex(''), soundex('123');
SELECT substring_index('www.apache.org', '.', 2), substring_index('www.apache.org', '.', -2), substring_index('www.apache.org', '.', 0), substring_index('abc', 'x', 1);
SELECT md5('ABC'), sha1('ABC'), sha('ABC'), sha2('ABC', 224), sha2('ABC', 0), sha2('ABC', 1), crc32('ABC'), crc32('');
SELECT base64(cast('ABC' AS BINARY)), unbase64('QUJD'), unbase64('QU JD!'), hex(17), hex(0), hex(-1), hex('ABC'), hex(''), unhex('4142'), unhex('414'), unhex('zz');
-- format_number: DecimalFormat with grouping, HALF_EVEN
SELECT format_number(12332.123456, 4), format_number(12332.123456, 0), format_number(1.005, 2), format_number(0.125, 2), format_number(-0.0001, 2), format_number(1234567, 2), format_number(-1234.5, 0), format_number(2.5, 0);
SELECT format_number(cast('NaN' AS DOUBLE), 2), format_number(1e20, 1), format_number(cast(-9.995 AS DECIMAL(5,3)), 2), format_number(NULL, 2);
-- printf: java.util.Formatter
SELECT printf('%s=%d', 'x', 42), printf('%5.2f|%-6s|%06d', 3.14159, 'ab', 42), printf('%x %X %o', 255, 255, 8), printf('%,d', 1234567), printf('%e', 12345.678), printf('%.2f', 1.005), printf('%s %s', NULL, true), printf('100%%');
SELECT printf(NULL, 1), printf('%S', 'straße'), printf('%c', 65), printf('%10.3s|', 'abcdef'), printf('%+d % d', 5, 5);
-- errors
SELECT concat_ws('-', 1, 2);
SELECT substr('abc', 1L);
SELECT printf('%d', 1.5);
SELECT printf('%d');
SELECT instr('abc', '');
SELECT format_number(1, -1);
SELECT lpad('a', 'b', 'c');
SELECT soundex('é');
SELECT nosuchfunction(1);
SELECT lpad('a', 2);
