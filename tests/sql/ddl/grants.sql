-- Hive's SQL-standard authorization statements in the embedded CLI (which
-- checks nothing: it runs as the warehouse's owner; the server's checks
-- are tests/unit/sql/test_authz.c and tests/server/auth.js): roles,
-- grants of privileges and roles, SHOW GRANT / ROLES / ROLE GRANT /
-- PRINCIPALS / CURRENT ROLES, REVOKE, and the errors of each.
CREATE TABLE t (a INT) TBLPROPERTIES ('transactional'='true');
CREATE DATABASE sales;
CREATE TABLE sales.orders (id INT);
CREATE ROLE analysts;
CREATE ROLE ETL;
CREATE ROLE analysts;
CREATE ROLE admin;
CREATE ROLE `bad-name`;
SHOW ROLES;
GRANT SELECT, INSERT ON TABLE t TO USER bob;
GRANT ALL ON t TO ROLE analysts WITH GRANT OPTION;
GRANT SELECT ON DATABASE sales TO USER cat, ROLE etl;
GRANT SELECT ON t TO USER bob;
GRANT SELECT ON nosuch TO USER bob;
GRANT SELECT ON DATABASE nosuch TO USER bob;
GRANT SELECT ON t TO ROLE nosuch;
GRANT CREATE ON t TO USER bob;
GRANT SELECT (a) ON t TO USER bob;
GRANT SELECT ON t TO GROUP staff;
GRANT SELECT TO USER bob;
GRANT analysts TO USER bob WITH ADMIN OPTION;
GRANT ROLE etl TO ROLE analysts;
GRANT ROLE nosuch TO USER bob;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "SHOW GRANT USER bob ON TABLE t; SHOW GRANT ON ALL; SHOW GRANT ROLE etl ON DATABASE sales; SHOW GRANT USER nobody ON ALL; SHOW ROLE GRANT USER bob; SHOW ROLE GRANT ROLE analysts; SHOW PRINCIPALS analysts" | sed -E 's/[0-9]{13}/<time>/'
SHOW CURRENT ROLES;
SET ROLE analysts;
SET ROLE ALL;
SET ROLE NONE;
SHOW CURRENT ROLES;
SET ROLE ALL;
REVOKE GRANT OPTION FOR SELECT ON t FROM ROLE analysts;
REVOKE INSERT ON t FROM USER bob;
REVOKE INSERT ON t FROM USER bob;
REVOKE ADMIN OPTION FOR ROLE analysts FROM USER bob;
REVOKE ROLE etl FROM ROLE analysts;
REVOKE SELECT ON DATABASE sales FROM ROLE etl;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "SHOW GRANT ON TABLE t; SHOW GRANT ON DATABASE sales; SHOW ROLE GRANT USER bob" | sed -E 's/[0-9]{13}/<time>/'
-- grants follow a renamed table and go with a dropped one, a dropped
-- database and a dropped role
ALTER TABLE t RENAME TO t2;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "SHOW GRANT USER bob ON ALL" | sed -E 's/[0-9]{13}/<time>/'
DROP TABLE t2;
DROP DATABASE sales CASCADE;
DROP ROLE analysts;
DROP ROLE analysts;
DROP ROLE public;
-- @sh "$COMB" --warehouse "$WH" --outputformat tsv -e "SHOW GRANT ON ALL; SHOW ROLES"
