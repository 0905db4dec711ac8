// DuckDB's side of bench/load_bench: COPY the bench's text file into a
// table of a database file.  Prints "seconds rows peak_kib": the time of
// the COPY and the CHECKPOINT that makes it durable, the rows counted after,
// and the process's peak RSS (VmHWM: getrusage would also count the bench
// process this one was forked from).
//   node load.mjs FILE.csv DB_FILE
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [csv, dbFile] = process.argv.slice(2);
const instance = await DuckDBInstance.create(dbFile);
const con = await instance.connect();
await con.run(`CREATE TABLE t (id INTEGER, big BIGINT, name VARCHAR,
  price DECIMAL(12,2), d DATE, score DOUBLE, ds VARCHAR)`);
const quoted = csv.replaceAll("'", "''");
const start = performance.now();
await con.run(`COPY t FROM '${quoted}' (DELIMITER ',', HEADER false, NULLSTR '\\N')`);
await con.run('CHECKPOINT');
const seconds = (performance.now() - start) / 1000;
const counted = await con.runAndReadAll('SELECT count(*) FROM t');
const hwm = /VmHWM:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
console.log(`${seconds} ${counted.getRows()[0][0]} ${hwm ? hwm[1] : 0}`);
