// The protocol side of bench/server.sh: hive-driver clients of one `comb
// serve` (tests/server/hs2.js's helpers, so each statement costs the
// calls a real client makes: ExecuteStatement, GetOperationStatus,
// GetResultSetMetadata, FetchResults until no more rows, CloseOperation),
// logged in with AUTH: `nosasl` (hive-driver's NoSaslAuthentication, which
// comb answers on an unframed transport) or `plain` (SASL PLAIN, framed:
// what JDBC, beeline and PyHive use by default).
// Point queries on `small` (SMALL_ROWS rows) for SECONDS seconds with 1
// client and with 16 at once (each its own connection and session), then
// `SELECT * FROM t` (ROWS rows) fetched PAGE rows at a time.  Prints one line per step in the fields
// server.sh tabulates (its `row`):
//   KIND CLIENTS ITEMS SECONDS MEDIAN_MS P99_MS COMB_CPU_S CLIENT_CPU_S PEAK_MB
// and lines "note ..." that it prints below the table.  Exits 1 on a
// failed call or a wrong row count.
//   node bench.js PORT SECONDS SMALL_ROWS ROWS SERVER_PID CLK_TCK AUTH
const fs = require('node:fs');
const hive = require('hive-driver');
const { utils, connect, open, run } = require('./hs2.js');

const [port, seconds, small, rows, pid, tck] = process.argv.slice(2, 8).map(Number);
const auth = process.argv[8];
const login = () => connect(port, auth === 'plain'
  ? new hive.auth.PlainTcpAuthentication({ username: 'bench', password: 'bench' })
  : new hive.auth.NoSaslAuthentication());
const PAGE = 10000;

const now = () => Number(process.hrtime.bigint()) / 1e6;

// the server's CPU seconds so far, all threads (utime + stime of
// /proc/PID/stat, the fields after the command's closing parenthesis)
function serverCpu() {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / tck;
}

// the server's peak RSS so far in MB (VmHWM)
function serverPeak() {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)[1]) / 1024;
}

function clientCpu() {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

// the nearest-rank percentile, as server.sh takes the CLI's
const percentile = (sorted, p) => sorted[Math.ceil(p * sorted.length) - 1];

function line(kind, clients, items, secs, median, p99, comb, client) {
  const f = x => (typeof x === 'number' ? x.toFixed(3) : x);
  console.log([kind, clients, items, f(secs), f(median), f(p99), f(comb), f(client),
               serverPeak().toFixed(0)].join(' '));
}

async function point(s) {
  const k = Math.floor(Math.random() * small);
  const { rows: got } = await run(s, `SELECT s FROM small WHERE id = ${k}`);
  if (got.length !== 1) throw new Error(`id ${k}: ${got.length} rows`);
}

async function points(clients) {
  const sessions = await Promise.all(Array.from({ length: clients }, async () => {
    const client = await login();
    const s = await open(client);
    await point(s);  // the first statement's one-off costs stay out of the figures
    return { client, s };
  }));
  const latencies = [];
  const cpu0 = serverCpu(), own0 = clientCpu(), t0 = now();
  const end = t0 + seconds * 1000;
  await Promise.all(sessions.map(async ({ s }) => {
    for (let t = t0; t < end;) {
      await point(s);
      const t1 = now();
      latencies.push(t1 - t);
      t = t1;
    }
  }));
  const wall = (now() - t0) / 1000;
  const cpu = serverCpu() - cpu0, own = clientCpu() - own0;
  latencies.sort((a, b) => a - b);
  line('point', clients, latencies.length, wall, percentile(latencies, 0.5),
       percentile(latencies, 0.99), cpu, own);
  for (const { client, s } of sessions) {
    await s.close();
    client.close();
  }
}

async function fetchAll() {
  const client = await login();
  const s = await open(client);
  const cpu0 = serverCpu(), own0 = clientCpu(), t0 = now();
  const op = await s.executeStatement('SELECT * FROM t');
  await utils.waitUntilReady(op, false, () => {});
  op.setMaxRows(PAGE);
  let n = 0, first = null;
  do {
    await op.fetch();
    // counted from the first column (id INT: i32Val) and dropped: the rows
    // arrive decoded by Thrift, but are not turned into row objects
    // (hive-driver's getResult), which would be the client's cost, not
    // the protocol's
    for (const page of op.getData()) n += page.columns[0].i32Val.values.length;
    op.flush();
    first ??= now();
  } while (op.hasMoreRows());
  await op.close();
  const wall = (now() - t0) / 1000;
  const cpu = serverCpu() - cpu0, own = clientCpu() - own0;
  if (n !== rows) throw new Error(`SELECT * FROM t: ${n} rows, not ${rows}`);
  line('fetch', 1, n, wall, '-', '-', cpu, own);
  console.log(`note the first ${PAGE} rows of SELECT * FROM t after ` +
              `${((first - t0) / 1000).toFixed(2)} s`);
  await s.close();
  client.close();
}

(async () => {
  await points(1);
  await points(16);
  await fetchAll();
})().catch(err => {
  console.error(`bench.js: ${err.stack || err}`);
  process.exit(1);
});
