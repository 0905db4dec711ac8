// Logins and transports of `comb serve` (tests/integration/server_auth.sh
// starts the server in each mode):
//   node auth.js PORT password    the password file's users only
//   node auth.js PORT changed     after `comb passwd` changed bob and
//                                 removed alice, with the server running
//   node auth.js PORT none        any SASL PLAIN login, and no SASL
//   node auth.js PORT nosasl      no SASL only
//   node auth.js PORT tls CERT    TLS (the certificate verified) and the
//                                 password file; plain TCP refused
//   node auth.js PORT limit       messages over 64 KiB refused
//   node auth.js PORT authz       SQL-standard authorization: alice (in
//                                 hive.users.in.admin.role) owns, bob may
//                                 only what he is granted
const assert = require('node:assert/strict');
const fs = require('node:fs');
const thrift = require('thrift');
const hive = require('hive-driver');
const { T, open, run, fails, main } = require('./hs2.js');
const { TCLIService } = hive.thrift;

const [port, mode, cert] = [Number(process.argv[2]), process.argv[3], process.argv[4]];

// no SASL, in 4-byte frames (hive-driver's own NoSasl is unframed)
const framedNoSasl = {
  authenticate(t) {
    t.connect();
    t.setOptions('transport', thrift.TFramedTransport);
    return Promise.resolve(t);
  },
};

function plain(username, password) {
  return new hive.auth.PlainTcpAuthentication({ username, password });
}

const tlsOptions = cert ? {
  ssl: true, ca: fs.readFileSync(cert), rejectUnauthorized: true, servername: 'localhost',
} : undefined;

// the first value of sql's first row, in a session over auth; throws as
// the login or the statement failed, or the server hung up (hive-driver
// would leave the call pending)
async function scalar(auth, sql, { username, tls = false } = {}) {
  const client = new hive.HiveClient(TCLIService, T);
  client.on('error', () => {});   // a refusal rejects the call as well
  const hungUp = new Promise((_, reject) =>
    client.on('close', () => reject(new Error('the server hung up'))));
  hungUp.catch(() => {});
  const call = p => Promise.race([p, hungUp]);
  try {
    await client.connect({ host: '127.0.0.1', port, ...(tls ? { options: tlsOptions } : {}) },
                         new hive.connections.TcpConnection(), auth);
    const s = await call(client.openSession({
      client_protocol: T.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10,
      ...(username ? { username } : {}),
    }));
    const { rows } = await call(run(s, sql));
    await call(s.close());
    return Object.values(rows[0])[0];
  } finally {
    client.close();
  }
}

// the session's user, or throws as the login failed
const login = (auth, { tls = false } = {}) => scalar(auth, 'SELECT current_user()', { tls });

async function refused(auth, what, { text, atLeastMs = 0, tls = false } = {}) {
  const t0 = Date.now();
  await assert.rejects(login(auth, { tls }), err => {
    if (text) assert.match(String(err.message), text, `${what}: ${err.message}`);
    return true;
  }, what);
  const took = Date.now() - t0;
  assert.ok(took >= atLeastMs, `${what}: refused after ${took} ms, want >= ${atLeastMs}`);
}

const checks = {
  async password() {
    assert.equal(await login(plain('alice', 'secret one')), 'alice');
    assert.equal(await login(plain('bob', 'b0b:pw')), 'bob');
    await refused(plain('alice', 'secret two'), 'a wrong password',
                  { text: /Error validating the login/, atLeastMs: 250 });
    await refused(plain('alice', ''), 'an empty password', { text: /Error validating the login/ });
    await refused(plain('mallory', 'secret one'), 'an unknown user',
                  { text: /Error validating the login/, atLeastMs: 250 });
    await refused(new hive.auth.NoSaslAuthentication(), 'no SASL');
    await refused(framedNoSasl, 'no SASL, framed');
    console.log('ok - password file: its users in, a wrong password, an unknown user and no SASL refused');
  },
  async changed() {
    await refused(plain('bob', 'b0b:pw'), "bob's old password", { text: /Error validating the login/ });
    assert.equal(await login(plain('bob', 'new one')), 'bob');
    await refused(plain('alice', 'secret one'), 'a removed user', { text: /Error validating the login/ });
    console.log('ok - comb passwd applies to a running server');
  },
  async none() {
    assert.equal(await login(plain('carol', 'anything')), 'carol');
    assert.equal(await login(plain('dave', '')), 'dave');
    // no SASL: the session is OpenSession's username's
    assert.equal(await scalar(new hive.auth.NoSaslAuthentication(), 'SELECT current_user()',
                              { username: 'erin' }), 'erin');
    assert.equal(await scalar(framedNoSasl, 'SELECT 1 + 1'), 2);
    console.log('ok - NONE: any PLAIN login; no SASL, unframed and framed');
  },
  async nosasl() {
    await refused(plain('carol', 'x'), 'SASL', { text: /takes no SASL/ });
    assert.equal(await scalar(new hive.auth.NoSaslAuthentication(), 'SELECT 2 * 3'), 6);
    console.log('ok - NOSASL: SASL refused with a reason, no SASL served');
  },
  async tls() {
    assert.equal(await login(plain('alice', 'secret one'), { tls: true }), 'alice');
    await refused(plain('alice', 'wrong'), 'a wrong password over TLS',
                  { text: /Error validating the login/, tls: true });
    await refused(plain('alice', 'secret one'), 'plain TCP to the TLS port');
    // large messages both ways over TLS: a statement of 100,000 bytes, a
    // result of 210,000
    assert.equal(await scalar(plain('bob', 'b0b:pw'),
                              `SELECT length('${'y'.repeat(100000)}')`, { tls: true }), 100000);
    const client = new hive.HiveClient(TCLIService, T);
    await client.connect({ host: '127.0.0.1', port, options: tlsOptions },
                         new hive.connections.TcpConnection(), plain('bob', 'b0b:pw'));
    const s = await open(client);
    const { rows } = await run(s, `SELECT concat(repeat('x', 70000), cast(x AS STRING)) AS v
                                   FROM (SELECT explode(array(1, 2, 3)) AS x) e`);
    assert.deepEqual(rows.map(r => r.v.length), [70001, 70001, 70001]);
    assert.deepEqual(rows.map(r => r.v.slice(69998)), ['xx1', 'xx2', 'xx3']);
    // the keystore's password stays the server's
    const set = (await run(s, 'SET hive.server2.keystore.password')).rows;
    assert.deepEqual(set, [{ set: 'hive.server2.keystore.password is undefined' }]);
    await s.close();
    client.close();
    console.log('ok - TLS: the certificate verifies, logins checked, plain TCP refused');
  },
  async authz() {
    const session = async (user, password, configuration) => {
      const client = new hive.HiveClient(TCLIService, T);
      await client.connect({ host: '127.0.0.1', port }, new hive.connections.TcpConnection(),
                           plain(user, password));
      // the username in OpenSession cannot override SASL's
      const s = await client.openSession({
        client_protocol: T.TProtocolVersion.HIVE_CLI_SERVICE_PROTOCOL_V10, username: 'alice',
        ...(configuration ? { configuration } : {}) }).catch(err => {
        client.close();
        throw err;
      });
      return { client, s };
    };
    const alice = await session('alice', 'secret one');
    const bob = await session('bob', 'b0b:pw');
    await run(alice.s, `CREATE TABLE accounts (id INT, balance DECIMAL(10,2))
                        TBLPROPERTIES ('transactional'='true')`);
    await run(alice.s, 'INSERT INTO accounts VALUES (1, 10.00), (2, 20.00)');
    assert.equal((await run(bob.s, 'SELECT current_user() AS u')).rows[0].u, 'bob');
    const denied = /HiveAccessControlException Permission denied: Principal \[name=bob, type=USER\] does not have following privileges for operation QUERY \[\[SELECT\] on Object \[type=TABLE_OR_VIEW, name=default\.accounts\]\]/;
    await fails(bob.s, 'SELECT sum(balance) FROM accounts', denied);
    await fails(bob.s, 'UPDATE accounts SET balance = 0', /\[\[UPDATE\] on Object/);
    await fails(bob.s, 'SET hive.security.authorization.enabled=false', /Cannot modify/);
    // the session's overlay cannot switch it off either
    const sneaky = await session('bob', 'b0b:pw', { 'set:hiveconf:hive.security.authorization.enabled': 'false' })
      .then(() => 'opened', err => err.message);
    assert.match(sneaky, /Cannot modify hive.security.authorization.enabled/);
    await run(alice.s, 'GRANT SELECT ON accounts TO USER bob');
    assert.equal(Number((await run(bob.s, 'SELECT sum(balance) AS b FROM accounts')).rows[0].b), 30);
    await fails(bob.s, 'UPDATE accounts SET balance = 0', /\[\[UPDATE\] on Object/);
    // roles: alice takes the admin role, bob gets his through one
    await fails(alice.s, 'CREATE ROLE tellers', /has to belong to ADMIN role/);
    await run(alice.s, 'SET ROLE ADMIN');
    await run(alice.s, 'CREATE ROLE tellers');
    await run(alice.s, 'GRANT UPDATE ON accounts TO ROLE tellers');
    await run(alice.s, 'GRANT ROLE tellers TO USER bob');
    await run(bob.s, 'UPDATE accounts SET balance = balance + 1 WHERE id = 1');
    const { rows } = await run(bob.s, 'SHOW CURRENT ROLES');
    assert.deepEqual(rows.map(r => r.role), ['public', 'tellers']);
    await run(alice.s, 'REVOKE SELECT ON accounts FROM USER bob');
    await fails(bob.s, 'SELECT * FROM accounts', denied);
    assert.equal(Number((await run(alice.s, 'SELECT sum(balance) AS b FROM accounts')).rows[0].b), 31);
    for (const c of [alice, bob]) { await c.s.close(); c.client.close(); }
    console.log("ok - authorization: Hive's refusal, then GRANT lets the same statement run; roles; REVOKE");
  },
  // hive.server2.thrift.max.message.size=65536: a larger message ends
  // its connection (framed or not), the server goes on
  async limit() {
    const big = `SELECT length('${'z'.repeat(100000)}')`;
    await assert.rejects(scalar(plain('fay', 'x'), big), 'a frame over the limit');
    await assert.rejects(scalar(new hive.auth.NoSaslAuthentication(), big),
                         'an unframed message over the limit');
    assert.equal(await scalar(plain('fay', 'x'), `SELECT length('${'z'.repeat(60000)}')`), 60000);
    console.log('ok - messages over hive.server2.thrift.max.message.size end their connection');
  },
};

main('auth', checks[mode]);
