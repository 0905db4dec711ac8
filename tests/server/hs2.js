// What the server tests share: a hive-driver client connected to `comb
// serve` on 127.0.0.1 (binary transport, no SASL unless told otherwise),
// a session on it, and a statement's rows fetched `pageSize` at a time.
const hive = require('hive-driver');
const { TCLIService, TCLIService_types: T } = hive.thrift;

const utils = new hive.HiveUtils(T);

async function connect(port, auth = new hive.auth.NoSaslAuthentication()) {
  const client = new hive.HiveClient(TCLIService, T);
  await client.connect({ host: '127.0.0.1', port },
                       new hive.connections.TcpConnection(), auth);
  return client;
}

async function open(client, configuration) {
  return client.openSession({
    client_protocol: T.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10,
    ...(configuration ? { configuration } : {}),
  });
}

// { rows, pages } of one statement
async function run(session, sql, pageSize = 100) {
  const op = await session.executeStatement(sql);
  await utils.waitUntilReady(op, false, () => {});
  op.setMaxRows(pageSize);
  await utils.fetchAll(op);
  const rows = utils.getResult(op).getValue();
  const pages = op.getData().length;
  await op.close();
  return { rows, pages };
}

// sql fails on session with a message matching pattern
async function fails(session, sql, pattern) {
  const assert = require('node:assert/strict');
  await assert.rejects(async () => {
    const op = await session.executeStatement(sql);
    await utils.waitUntilReady(op, false, () => {});
  }, err => pattern.test(err.message), `'${sql}' should fail with ${pattern}`);
}

// Runs a test's async body: "not ok" and exit 1 when it throws, or when
// a call of it never settles (node would otherwise end quietly, with 0);
// "# NAME: every check ran" at its end, which the shell side waits for
// (tests/integration/lib/server.bash, server_js).
function main(name, body) {
  let finished = false;
  process.on('beforeExit', () => {
    if (finished) return;
    console.log(`not ok - ${name}: a call never finished`);
    process.exit(1);
  });
  body().then(() => {
    finished = true;
    console.log(`# ${name}: every check ran`);
  }, err => {
    console.log(`not ok - ${name}: ${err.stack || err}`);
    process.exit(1);
  });
}

module.exports = { T, utils, connect, open, run, fails, main };
