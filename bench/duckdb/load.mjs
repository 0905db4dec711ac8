// DuckDB's side of bench/load_bench: COPY the bench's text file into a
// table of a database file.  Prints "seconds cpu_seconds rows peak_kib
// threads": the wall and CPU time of the COPY and the CHECKPOINT that makes
// it durable, the rows counted after, the process's peak RSS (VmHWM:
// getrusage would also count the bench process this one was forked from)
// and DuckDB's thread count.
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
const cpuStart = process.cpuUsage();
await con.run(`COPY t FROM '${quoted}' (DELIMITER ',', HEADER false, NULLSTR '\\N')`);
await con.run('CHECKPOINT');
const seconds = (performance.now() - start) / 1000;
const cpu = process.cpuUsage(cpuStart);
const threads = await con.runAndReadAll("SELECT current_setting('threads')");
const counted = await con.runAndReadAll('SELECT count(*) FROM t');
const hwm = /VmHWM:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
console.log(`${seconds} ${(cpu.user + cpu.system) / 1e6} ${counted.getRows()[0][0]} ` +
            `${hwm ? hwm[1] : 0} ${threads.getRows()[0][0]}`);
