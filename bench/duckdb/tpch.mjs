// DuckDB's side of bench/tpch: load the TPC-H tables from the bench's
// pipe-delimited files into an in-memory database, then run each query of
// the list file (blocks headed "-- qNN") once, timed.  Prints "qNN seconds
// rows" or "qNN error message" per query, then "peak_kib N threads N" (the
// process's VmHWM, loads included).
//   node tpch.mjs DATA_DIR QUERY_LIST THREADS   (THREADS 0: DuckDB's default)
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const [data, list, threadsArg] = process.argv.slice(2);
const threads = Number(threadsArg);
const instance = await DuckDBInstance.create(':memory:', threads > 0 ? { threads: String(threads) } : {});
const con = await instance.connect();
const tables = {
  region: 'r_regionkey INTEGER, r_name VARCHAR, r_comment VARCHAR',
  nation: 'n_nationkey INTEGER, n_name VARCHAR, n_regionkey INTEGER, n_comment VARCHAR',
  supplier: 's_suppkey BIGINT, s_name VARCHAR, s_address VARCHAR, s_nationkey INTEGER, ' +
            's_phone VARCHAR, s_acctbal DECIMAL(15,2), s_comment VARCHAR',
  part: 'p_partkey BIGINT, p_name VARCHAR, p_mfgr VARCHAR, p_brand VARCHAR, p_type VARCHAR, ' +
        'p_size INTEGER, p_container VARCHAR, p_retailprice DECIMAL(15,2), p_comment VARCHAR',
  partsupp: 'ps_partkey BIGINT, ps_suppkey BIGINT, ps_availqty INTEGER, ' +
            'ps_supplycost DECIMAL(15,2), ps_comment VARCHAR',
  customer: 'c_custkey BIGINT, c_name VARCHAR, c_address VARCHAR, c_nationkey INTEGER, ' +
            'c_phone VARCHAR, c_acctbal DECIMAL(15,2), c_mktsegment VARCHAR, c_comment VARCHAR',
  orders: 'o_orderkey BIGINT, o_custkey BIGINT, o_orderstatus VARCHAR, ' +
          'o_totalprice DECIMAL(15,2), o_orderdate DATE, o_orderpriority VARCHAR, ' +
          'o_clerk VARCHAR, o_shippriority INTEGER, o_comment VARCHAR',
  lineitem: 'l_orderkey BIGINT, l_partkey BIGINT, l_suppkey BIGINT, l_linenumber INTEGER, ' +
            'l_quantity DECIMAL(15,2), l_extendedprice DECIMAL(15,2), l_discount DECIMAL(15,2), ' +
            'l_tax DECIMAL(15,2), l_returnflag VARCHAR, l_linestatus VARCHAR, l_shipdate DATE, ' +
            'l_commitdate DATE, l_receiptdate DATE, l_shipinstruct VARCHAR, ' +
            'l_shipmode VARCHAR, l_comment VARCHAR',
};
for (const [name, cols] of Object.entries(tables)) {
  await con.run(`CREATE TABLE ${name} (${cols})`);
  const file = `${data}/${name}/${name}.tbl`.replaceAll("'", "''");
  await con.run(`COPY ${name} FROM '${file}' (DELIMITER '|', HEADER false, QUOTE '')`);
}
const text = readFileSync(list, 'utf8');
for (const block of text.split(/^-- (q\d\d)\n/m).slice(1).reduce((acc, x, i, a) =>
         (i % 2 === 0 ? acc.concat([[x, a[i + 1]]]) : acc), [])) {
  const [q, sql] = block;
  try {
    const start = performance.now();
    const reader = await con.runAndReadAll(sql.trim().replace(/;$/, ''));
    const seconds = (performance.now() - start) / 1000;
    console.log(`${q} ${seconds} ${reader.getRows().length}`);
  } catch (e) {
    console.log(`${q} error ${String(e.message).split('\n')[0]}`);
  }
}
const hwm = /VmHWM:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
const thr = await con.runAndReadAll("SELECT current_setting('threads')");
console.log(`peak_kib ${hwm ? hwm[1] : 0} threads ${thr.getRows()[0][0]}`);
