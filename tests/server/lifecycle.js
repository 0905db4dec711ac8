// The lifecycle and limits of `comb serve` (tests/integration/server_limits.sh,
// server_timeouts.sh and server_stop.sh start the server with the settings
// of each mode):
//   node lifecycle.js PORT workers     hive.server2.thrift.max.worker.threads=2
//   node lifecycle.js PORT pool        hive.server2.async.exec.threads=1,
//                                      its wait queue 1
//   node lifecycle.js PORT idle        idle session 3 s, idle operation 1 s
//   node lifecycle.js PORT idle-running  idle operation -2 s (running ones too)
//   node lifecycle.js PORT timeout     queryTimeout, hive.query.timeout.seconds
//   node lifecycle.js PORT stop-long   a long statement, until the server
//                                      hangs up (the shell sends SIGTERM)
//   node lifecycle.js PORT stop-short  a 3-second INSERT, then new statements
//                                      refused while the server stops
//   node lifecycle.js PORT hold        committed rows and an open transaction,
//                                      until the server goes (SIGKILL)
//   node lifecycle.js PORT count N     the table holds N rows, none of the
//                                      killed transaction's
// "# running" / "# holding" tell the shell when to signal the server.
const assert = require('node:assert/strict');
const net = require('node:net');
const hive = require('hive-driver');
const { T, utils, connect, open, run, main } = require('./hs2.js');

const [port, mode, arg] = [Number(process.argv[2]), process.argv[3], process.argv[4]];

const sleep = ms => new Promise(r => setTimeout(r, ms));
function ok(what) { console.log(`ok - ${what}`); }

// never settles until the server closes client's connection
function hangUp(client) {
  client.on('error', () => {});
  return new Promise(resolve => client.on('close', resolve));
}

// a statement whose join runs for hours: cancelled or timed out, it
// leaves nothing (and would insert a few rows if it ended)
const LONG_INSERT = `INSERT INTO t SELECT a.n FROM big a CROSS JOIN big b CROSS JOIN big c
                     WHERE a.n + b.n + c.n < 3`;

async function tables(s) {
  await run(s, `CREATE TABLE big STORED AS ORC AS
                SELECT pos AS n FROM (SELECT posexplode(split(space(2499), ' ')) AS (pos, x)) g`);
  await run(s, "CREATE TABLE t (n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true')");
}

async function count(s, where = '') {
  const { rows } = await run(s, `SELECT count(*) AS n FROM t ${where}`);
  return Number(rows[0].n);
}

async function noOpenTransaction(s) {
  const { rows } = await run(s, 'SHOW TRANSACTIONS');
  assert.ok(!rows.some(r => /OPEN/.test(JSON.stringify(r))),
            `no open transaction: ${JSON.stringify(rows)}`);
}

// p, or a failure once ms pass (a time-out that never fires would
// otherwise leave the test waiting for hours)
function within(ms, p) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const invalid = what => err => new RegExp(`Invalid ${what} handle`).test(err.message);

// ------------------------------------------------------------- workers

function connectPlain() {
  const client = new hive.HiveClient(hive.thrift.TCLIService, T);
  return client.connect({ host: '127.0.0.1', port }, new hive.connections.TcpConnection(),
                        new hive.auth.PlainTcpAuthentication({ username: 'u', password: 'p' }));
}

// n sockets that say nothing: each is closed by the server (at once, or
// after the short wait of the few it answers)
function flood(n) {
  return Promise.all(Array.from({ length: n }, () => new Promise(resolve => {
    const sock = net.connect(port, '127.0.0.1');
    sock.on('error', () => {});
    sock.on('close', resolve);
  })));
}

const atLimit = /comb serve is serving its limit of 2 connections \(hive\.server2\.thrift\.max\.worker\.threads\)/;

// a session on a new connection, retried while the server is at its limit
async function admitted() {
  for (let tries = 0; ; tries++) {
    const client = await connect(port);
    try {
      return { client, s: await open(client) };
    } catch (err) {
      client.close();
      if (!atLimit.test(err.message) || tries > 100) throw err;
      await sleep(100);
    }
  }
}

async function workers() {
  const a = await connect(port), b = await connect(port);
  const sa = await open(a), sb = await open(b);
  const c = await connect(port);
  await assert.rejects(open(c), atLimit);
  c.close();
  await assert.rejects(connectPlain(), err =>
    err.message.startsWith('Authentication error: ') && atLimit.test(err.message));
  ok('a third connection is refused with the reason, without SASL and with it');

  const started = Date.now();
  await flood(40);
  assert.ok(Date.now() - started < 20000, 'the flood was closed');
  await run(sa, 'SELECT 1');
  await run(sb, 'SELECT 1');
  ok('40 silent connections beyond the limit are closed; the two served go on');

  await sb.close();
  b.close();
  const d = await admitted();
  await run(d.s, 'SELECT 1');
  await assert.rejects(open(await connect(port)), atLimit);
  ok('a connection that ends frees its place');
  await d.s.close();
  d.client.close();
  await sa.close();
  a.close();
}

// ---------------------------------------------------------------- pool

const S = T.TOperationState;

async function stateOf(op) {
  return (await op.status()).operationState;
}

// op's state once it is no longer initialized (or still, after 5 s)
async function settled(op) {
  for (let tries = 0; tries < 50; tries++) {
    const st = await stateOf(op);
    if (st !== S.INITIALIZED_STATE) return st;
    await sleep(100);
  }
  return stateOf(op);
}

// op's final state (it must end within 20 s)
async function ended(op) {
  for (let tries = 0; tries < 200; tries++) {
    const st = await stateOf(op);
    if (st !== S.RUNNING_STATE && st !== S.PENDING_STATE && st !== S.INITIALIZED_STATE)
      return st;
    await sleep(100);
  }
  throw new Error('the statement did not end within 20 s');
}

const poolFull = /The background threadpool cannot accept new task for execution, please retry the operation/;

async function pool() {
  const [ca, cb, cc] = [await connect(port), await connect(port), await connect(port)];
  const [a, b, c] = [await open(ca), await open(cb), await open(cc)];
  await tables(a);
  const long = await a.executeStatement(LONG_INSERT, { runAsync: true });
  assert.equal(await settled(long), S.RUNNING_STATE);
  let waiting = await b.executeStatement('INSERT INTO t VALUES (5)', { runAsync: true });
  for (let i = 0; i < 5; i++) {
    assert.equal(await stateOf(waiting), S.PENDING_STATE, 'the second waits for the one thread');
    await sleep(100);
  }
  ok('with one thread, a second asynchronous statement waits in PENDING_STATE');
  await assert.rejects(c.executeStatement('SELECT 1', { runAsync: true }),
                       err => poolFull.test(err.message));
  const { rows } = await run(c, 'SELECT 2 AS two');
  assert.equal(Number(rows[0].two), 2);
  ok('a third is refused with Hive\'s text while the queue is full; a synchronous one runs');

  await waiting.cancel();
  assert.equal(await ended(waiting), S.CANCELED_STATE);
  await waiting.close();
  waiting = await b.executeStatement('INSERT INTO t VALUES (6)', { runAsync: true });
  assert.equal(await stateOf(waiting), S.PENDING_STATE);
  await long.cancel();
  assert.equal(await ended(long), S.CANCELED_STATE);
  assert.equal(await ended(waiting), S.FINISHED_STATE);
  await long.close();
  await waiting.close();
  assert.equal(await count(c), 1);
  assert.equal(await count(c, 'WHERE n = 6'), 1);
  ok('a waiting statement cancelled never runs; once the thread is free the next one does');

  const ops = [];
  for (let i = 0; i < 6; i++) {
    const s = [a, b][i % 2];
    const op = await s.executeStatement(`INSERT INTO t VALUES (${100 + i})`, { runAsync: true });
    assert.equal(await ended(op), S.FINISHED_STATE);
    ops.push(op.close());
  }
  await Promise.all(ops);
  assert.equal(await count(c), 7);
  await noOpenTransaction(c);
  ok('the pool\'s thread serves statement after statement');

  const long2 = await a.executeStatement(LONG_INSERT, { runAsync: true });
  assert.equal(await settled(long2), S.RUNNING_STATE);
  const cd = await connect(port);
  const d = await open(cd);
  const left = await d.executeStatement('INSERT INTO t VALUES (77)', { runAsync: true });
  assert.equal(await stateOf(left), S.PENDING_STATE);
  cd.close();
  await sleep(500);
  await long2.cancel();
  assert.equal(await ended(long2), S.CANCELED_STATE);
  await long2.close();
  const after = await c.executeStatement('INSERT INTO t VALUES (8)', { runAsync: true });
  assert.equal(await ended(after), S.FINISHED_STATE);
  await after.close();
  assert.equal(await count(c, 'WHERE n = 77'), 0);
  assert.equal(await count(c), 8);
  await noOpenTransaction(c);
  ok('a statement waiting when its client hangs up never runs; the pool goes on');

  const [e, f] = [await open(cc), await open(cc)];
  const long3 = await e.executeStatement(LONG_INSERT, { runAsync: true });
  assert.equal(await settled(long3), S.RUNNING_STATE);
  const queued = await f.executeStatement('INSERT INTO t VALUES (78)', { runAsync: true });
  assert.equal(await stateOf(queued), S.PENDING_STATE);
  await within(5000, f.close());
  await within(5000, e.close());
  assert.equal(await count(c, 'WHERE n = 78'), 0);
  assert.equal(await count(c), 8);
  await noOpenTransaction(c);
  ok('CloseSession at once cancels its running statement, or its waiting one, which never runs');
  for (const [s, cl] of [[a, ca], [b, cb], [c, cc]]) {
    await s.close();
    cl.close();
  }
}

// ---------------------------------------------------------------- idle

async function idle() {
  const client = await connect(port);
  const a = await open(client);
  await run(a, "CREATE TABLE t (n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true')");
  await run(a, 'START TRANSACTION');
  await run(a, 'INSERT INTO t VALUES (1)');
  const c = await open(client);
  const kept = await c.executeStatement('SELECT 1 AS one');
  const b = await open(client);
  const t0 = Date.now();
  const active = (async () => {
    while (Date.now() - t0 < 5000) {
      await run(b, 'SELECT 1');
      await sleep(300);
    }
  })();
  await sleep(3000 - (Date.now() - t0));
  await assert.rejects(kept.status(), invalid('operation'));
  await c.getInfo(T.TGetInfoType.CLI_DBMS_NAME);
  ok('an operation left idle 1 s is closed; its session (idle 2 s) is not');
  await active;
  await assert.rejects(a.executeStatement('SELECT 1'), invalid('session'));
  ok('a session left idle 3 s in a transaction is closed; one in use is not');
  assert.equal(await count(b), 0);
  await noOpenTransaction(b);
  ok("its transaction rolled back: nothing open, its row not visible");
  client.close();
}

async function idleRunning() {
  const client = await connect(port);
  const s = await open(client);
  await tables(s);
  const op = await s.executeStatement(LONG_INSERT, { runAsync: true });
  await sleep(4500);
  await assert.rejects(op.status(), invalid('operation'));
  assert.equal(await count(s), 0);
  await noOpenTransaction(s);
  ok('a running statement not asked after for 2 s is cancelled and closed');
  await s.close();
  client.close();
}

// ------------------------------------------------------------- timeout

const timedOut = err => err.response &&
  err.response.operationState === T.TOperationState.TIMEDOUT_STATE &&
  err.response.errorMessage === 'Query timed out after 1 seconds' &&
  err.response.sqlState === 'HYT00';

async function timeout() {
  const client = await connect(port);
  const s = await open(client);
  await tables(s);
  let started = Date.now();
  let op = await s.executeStatement(LONG_INSERT, { runAsync: true, queryTimeout: 1 });
  await assert.rejects(within(20000, utils.waitUntilReady(op, false, () => {})), timedOut);
  const took = Date.now() - started;
  assert.ok(took >= 1000, `timed out after ${took} ms`);
  await op.close();
  ok(`queryTimeout 1: TIMEDOUT_STATE, "Query timed out after 1 seconds" (after ${took} ms)`);

  await run(s, 'SET hive.query.timeout.seconds=1');
  await assert.rejects(within(20000, s.executeStatement(LONG_INSERT)),
                       err => err.message === 'Query timed out after 1 seconds');
  await run(s, 'SET hive.query.timeout.seconds=1min');
  op = await s.executeStatement(LONG_INSERT, { runAsync: true, queryTimeout: 1 });
  await assert.rejects(within(20000, utils.waitUntilReady(op, false, () => {})), timedOut);
  await op.close();
  ok('hive.query.timeout.seconds times a statement out; the shorter time-out wins');

  await run(s, 'SET hive.query.timeout.seconds=abc');
  await assert.rejects(s.executeStatement('SELECT 1'),
                       err => /hive\.query\.timeout\.seconds=abc: expected a time/.test(err.message));
  await run(s, 'SET hive.query.timeout.seconds=30s');
  await run(s, 'INSERT INTO t VALUES (7)');
  assert.equal(await count(s), 1);
  await noOpenTransaction(s);
  ok('the timed-out statements left nothing; one within its time-out commits');
  await s.close();
  client.close();
}

// ---------------------------------------------------------------- stop

async function stopLong() {
  const client = await connect(port);
  const gone = hangUp(client);
  const s = await open(client);
  await tables(s);
  await s.executeStatement(LONG_INSERT, { runAsync: true });
  console.log('# running');
  await gone;
  ok('the server stopped and hung up on the long statement');
}

async function stopShort() {
  const client = await connect(port);
  const gone = hangUp(client);
  const p = await open(client);
  await run(p, "CREATE TABLE t (n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true')");
  const s = await open(client, { 'set:hiveconf:comb.test.sleep.after.snapshot.ms': '3000' });
  await s.executeStatement('INSERT INTO t VALUES (1)', { runAsync: true });
  console.log('# running');
  let refused = null;
  while (!refused) {
    refused = await Promise.race([
      run(p, 'SELECT 1').then(() => null, err => err),
      gone.then(() => new Error('the server hung up before refusing a statement')),
    ]);
    await sleep(100);
  }
  assert.match(refused.message, /comb serve is stopping: it takes no new sessions or statements/);
  ok('while the server stops, a new statement is refused');
  await gone;
}

// -------------------------------------------------------------- SIGKILL

async function hold() {
  const client = await connect(port);
  const gone = hangUp(client);
  const s = await open(client);
  await run(s, "CREATE TABLE t (n INT) STORED AS ORC TBLPROPERTIES ('transactional'='true')");
  await run(s, 'INSERT INTO t VALUES (1), (2)');
  await run(s, 'INSERT INTO t VALUES (3)');
  const q = await open(client);
  await run(q, 'START TRANSACTION');
  await run(q, 'INSERT INTO t VALUES (99)');
  console.log('# holding');
  await gone;
  ok('3 rows committed and one transaction open when the server was killed');
}

async function countRows() {
  const client = await connect(port);
  const s = await open(client);
  assert.equal(await count(s), Number(arg));
  assert.equal(await count(s, 'WHERE n = 99'), 0);
  ok(`the restarted server serves the ${arg} committed rows, none of the killed transaction`);
  await s.close();
  client.close();
}

const modes = {
  workers, pool, idle, 'idle-running': idleRunning, timeout, 'stop-long': stopLong,
  'stop-short': stopShort, hold, count: countRows,
};
assert.ok(modes[mode], `unknown mode '${mode}'`);
main('lifecycle', modes[mode]);
