// The lifecycle and limits of `comb serve` (tests/integration/server_limits.sh
// starts the server with the settings of each mode):
//   node lifecycle.js PORT workers     hive.server2.thrift.max.worker.threads=2
const assert = require('node:assert/strict');
const net = require('node:net');
const hive = require('hive-driver');
const { T, connect, open, run, main } = require('./hs2.js');

const [port, mode] = [Number(process.argv[2]), process.argv[3]];

const sleep = ms => new Promise(r => setTimeout(r, ms));
function ok(what) { console.log(`ok - ${what}`); }

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

const modes = { workers };
assert.ok(modes[mode], `unknown mode '${mode}'`);
main('lifecycle', modes[mode]);
