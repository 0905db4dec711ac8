// The bank workload over `comb serve`: CLIENTS clients (each its own
// connection and session) for SECONDS seconds.  Two in three make random
// transfers between ACCOUNTS accounts in 10 branches, each one explicit
// transaction (debit, credit, a log row, COMMIT) retried when it loses a
// write conflict, is a deadlock's victim or times out waiting for a lock
// (half of the writers under Hive's EXCL_WRITE locks, half without);
// the rest read: the total of every balance must be the opening total at
// every read, and a branch's balances add up as a whole.  Afterwards the
// log holds exactly the transfers the clients saw commit and every
// balance is its opening one plus exactly those.
//   node bank.js PORT CLIENTS SECONDS
const assert = require('node:assert/strict');
const { connect, open, run, main } = require('./hs2.js');

const [port, clients, seconds] = process.argv.slice(2).map(Number);
const ACCOUNTS = 100, OPENING = 1000;
const retryable = /Error 10263|Error 10307|Error in acquiring locks|deadlock|aborted/i;

async function session(configuration) {
  const client = await connect(port);
  client.on('error', () => {});
  return { client, s: await open(client, configuration) };
}

// a lock wait gives up after 3 checks (~3 s) and the transfer is retried;
// half the writers without EXCL_WRITE locks (conflicts found at COMMIT,
// first committer wins)
const writerConf = k => ({
  'set:hiveconf:hive.lock.numretries': '3',
  ...(k % 2 ? { 'set:hiveconf:hive.txn.xlock.write': 'false' } : {}),
});

async function transfers(k, deadline, committed) {
  const { client, s } = await session(writerConf(k));
  let n = 0, retries = 0;
  while (Date.now() < deadline) {
    const a = Math.floor(Math.random() * ACCOUNTS), b = Math.floor(Math.random() * ACCOUNTS);
    if (a === b) continue;
    const x = 1 + Math.floor(Math.random() * 100), xid = `${k}-${++n}`;
    for (;;) {
      try {
        await run(s, 'BEGIN');
        await run(s, `UPDATE accounts SET bal = bal - ${x} WHERE branch = ${a % 10} AND id = ${a}`);
        await run(s, `UPDATE accounts SET bal = bal + ${x} WHERE branch = ${b % 10} AND id = ${b}`);
        await run(s, `INSERT INTO transfers VALUES ('${xid}', ${a}, ${b}, ${x})`);
        await run(s, 'COMMIT');
        committed.push({ xid, a, b, x });
        break;
      } catch (err) {
        if (!retryable.test(err.message)) throw new Error(`client ${k}: ${err.message}`);
        await run(s, 'ROLLBACK').catch(() => {});
        retries++;
        if (Date.now() >= deadline) break;
      }
    }
  }
  await s.close();
  client.close();
  return retries;
}

async function reader(k, deadline) {
  const { client, s } = await session();
  let reads = 0;
  while (Date.now() < deadline) {
    const { rows } = await run(s, 'SELECT sum(bal) AS total, count(*) AS n FROM accounts');
    assert.equal(Number(rows[0].total), ACCOUNTS * OPENING, `reader ${k}: the total`);
    assert.equal(Number(rows[0].n), ACCOUNTS, `reader ${k}: the accounts`);
    reads++;
  }
  await s.close();
  client.close();
  return reads;
}

main('bank', async () => {
  const setup = await session();
  const values = Array.from({ length: ACCOUNTS }, (_, i) => `(${i}, ${OPENING}, ${i % 10})`);
  await run(setup.s, `CREATE TABLE accounts (id INT, bal BIGINT) PARTITIONED BY (branch INT)
                      STORED AS ORC TBLPROPERTIES ('transactional'='true')`);
  await run(setup.s, `CREATE TABLE transfers (xid STRING, src INT, dst INT, amount INT)
                      STORED AS ORC TBLPROPERTIES ('transactional'='true')`);
  await run(setup.s, `INSERT INTO accounts PARTITION (branch) VALUES ${values.join(', ')}`);
  const deadline = Date.now() + seconds * 1000, committed = [];
  const work = Array.from({ length: clients }, (_, k) =>
    k % 3 === 2 ? reader(k, deadline) : transfers(k, deadline, committed));
  const counts = await Promise.all(work);
  const reads = counts.filter((_, k) => k % 3 === 2).reduce((p, c) => p + c, 0);
  assert.ok(committed.length > 0, 'some transfer committed');
  assert.ok(reads > 0, 'some read ran');

  const { rows: logged } = await run(setup.s, 'SELECT xid, src, dst, amount FROM transfers', 10000);
  const want = new Map(committed.map(t => [t.xid, t]));
  assert.equal(logged.length, committed.length, 'the log holds the committed transfers');
  for (const r of logged) {
    const t = want.get(r.xid);
    assert.ok(t, `transfer ${r.xid} was not seen to commit`);
    assert.deepEqual([r.src, r.dst, r.amount], [t.a, t.b, t.x], `transfer ${r.xid}`);
  }
  const expect = new Array(ACCOUNTS).fill(OPENING);
  for (const t of committed) { expect[t.a] -= t.x; expect[t.b] += t.x; }
  const { rows: balances } = await run(setup.s, 'SELECT id, bal FROM accounts', 1000);
  assert.equal(balances.length, ACCOUNTS);
  for (const r of balances) assert.equal(Number(r.bal), expect[r.id], `account ${r.id}`);
  await setup.s.close();
  setup.client.close();
  const retries = counts.filter((_, k) => k % 3 !== 2).reduce((p, c) => p + c, 0);
  console.log(`ok - ${clients} clients for ${seconds} s: ${committed.length} transfers ` +
              `(${retries} retries), ${reads} reads, every total and balance right`);
});
