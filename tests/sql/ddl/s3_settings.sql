-- object-store settings: secrets are never shown, bad values are refused,
-- and a store that cannot be reached fails naming the object
SET fs.s3a.access.key=AKIDEXAMPLE;
SET fs.s3a.secret.key=wJalrXUtnFEMIEXAMPLEKEY;
SET fs.s3a.secret.key;
SET fs.s3a.access.key;
SET fs.s3a.attempts.maximum=many;
SET fs.s3a.path.style.access=maybe;
SET fs.s3a.multipart.size=-5;
SET fs.s3a.some.future.setting=1;
SET fs.s3a.some.future.setting;
SET fs.s3a.endpoint=http://127.0.0.1:1;
SET fs.s3a.path.style.access=true;
SET fs.s3a.attempts.maximum=2;
SET fs.s3a.connection.timeout=2000;
CREATE TABLE r (a INT) STORED AS ORC LOCATION 's3a://nobucket/r';
CREATE TABLE h (a INT) LOCATION 'hdfs://nn/h';
SHOW TABLES;
