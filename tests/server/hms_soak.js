// Many clients at once against `comb metastore` (issue 15, acceptance 3),
// with the client generated from Hive's published interface (see hms.js):
//   node hms_soak.js GEN PORT CLIENTS SECONDS OUT
// CLIENTS connections (half framed, half buffered) loop for SECONDS:
// open_txns (one txn, or two in one call), allocate_table_write_ids on
// default.s1 (every third round on default.s2 too), lock (SHARED_WRITE,
// insert), heartbeat, then commit (one in five aborts).  At the end, for
// each table: every write id distinct, the high water mark the number
// allocated (the tables start without writes), get_valid_write_ids
// naming exactly the aborted ones invalid (aborted bits set), no txn of
// the run still open.  OUT gets lines "<table> <allocated>" and
// "aborted <txnid>" for the shell to hold against comb's own view.
const fs = require('fs');
const assert = require('assert');
const [gen, port, clients, seconds, out] = process.argv.slice(2);
const { T, connect, component, validTxnList, writeIdList } = require('./hms_lib.js')(gen, port);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const writes = [];       // {table, txn, writeid}
const outcome = new Map(); // txn -> 'committed' | 'aborted'

async function lockAndEnd(client, k, round, txn, tables) {
  const user = `soak${k}`;
  const lock = await client.lock(new T.LockRequest({
    component: tables.map((tb) => component(T.LockType.SHARED_WRITE, tb, T.DataOperationType.INSERT)),
    txnid: txn, user, hostname: 'soakhost', agentInfo: 'hms_soak.js',
  }));
  let state = lock.state;
  while (state === T.LockState.WAITING) {
    await sleep(5);
    state = (await client.check_lock(new T.CheckLockRequest({ lockid: lock.lockid, txnid: txn }))).state;
  }
  assert.strictEqual(state, T.LockState.ACQUIRED, `txn ${txn}'s lock`);
  await client.heartbeat(new T.HeartbeatRequest({ txnid: txn }));
  if ((k * 7 + round + txn) % 5 === 0) {
    await client.abort_txn(new T.AbortTxnRequest({ txnid: txn }));
    outcome.set(txn, 'aborted');
  } else {
    await client.commit_txn(new T.CommitTxnRequest({ txnid: txn }));
    outcome.set(txn, 'committed');
  }
}

async function worker(k, until) {
  const { conn, client } = connect(k % 2 === 1);
  for (let round = 0; Date.now() < until; round++) {
    const n = round % 4 === 3 ? 2 : 1;
    const r = await client.open_txns(new T.OpenTxnRequest({
      num_txns: n, user: `soak${k}`, hostname: 'soakhost', agentInfo: 'hms_soak.js' }));
    const txns = r.txn_ids.map(Number);
    assert.strictEqual(txns.length, n);
    const tables = (k + round) % 3 === 0 ? ['s1', 's2'] : ['s1'];
    for (const tb of tables) {
      const w = await client.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({
        dbName: 'default', tableName: tb, txnIds: txns }));
      assert.deepStrictEqual(w.txnToWriteIds.map((m) => Number(m.txnId)), txns);
      for (const m of w.txnToWriteIds)
        writes.push({ table: tb, txn: Number(m.txnId), writeid: Number(m.writeId) });
    }
    for (const txn of txns)
      await lockAndEnd(client, k, round, txn, tables);
  }
  conn.end();
}

function checkTable(table, list) {
  const mine = writes.filter((w) => w.table === table);
  const ids = mine.map((w) => w.writeid).sort((a, b) => a - b);
  assert.ok(ids.length > 0, `no write id on ${table}`);
  assert.strictEqual(new Set(ids).size, ids.length, `a write id of ${table} given twice`);
  assert.deepStrictEqual(ids, ids.map((_, i) => i + 1), `${table}'s write ids have gaps`);
  const aborted = mine.filter((w) => outcome.get(w.txn) === 'aborted').map((w) => w.writeid)
    .sort((a, b) => a - b);
  assert.strictEqual(Number(list.writeIdHighWaterMark), ids.length);
  // nothing open: the list names the aborted write ids, all as aborted
  assert.strictEqual(writeIdList(list),
                     `default.${table}:${ids.length}:9223372036854775807::${aborted.join(',')}`);
  return ids.length;
}

async function main() {
  const until = Date.now() + Number(seconds) * 1000;
  const all = [];
  for (let k = 0; k < Number(clients); k++)
    all.push(worker(k, until));
  await Promise.all(all);
  assert.strictEqual(outcome.size, new Set(writes.map((w) => w.txn)).size);
  const { conn, client } = connect();
  const open = await client.get_open_txns();
  const left = open.open_txns.map(Number).filter((t, i) =>
    outcome.has(t) && !((open.abortedBits[i >> 3] >> (i & 7)) & 1));
  assert.deepStrictEqual(left, [], 'txns of the run still open');
  const ids = await client.get_valid_write_ids(new T.GetValidWriteIdsRequest({
    fullTableNames: ['default.s1', 'default.s2'], validTxnList: validTxnList(open) }));
  const lines = [];
  ids.tblValidWriteIds.forEach((l, i) => {
    const table = ['s1', 's2'][i];
    lines.push(`${table} ${checkTable(table, l)}`);
  });
  for (const [txn, how] of outcome)
    if (how === 'aborted')
      lines.push(`aborted ${txn}`);
  fs.writeFileSync(out, lines.join('\n') + '\n');
  const n = [...outcome.values()];
  console.log(`soak: ${n.length} txns (${n.filter((x) => x === 'aborted').length} aborted), ` +
              `${writes.length} write ids by ${clients} clients in ${seconds} s`);
  conn.end();
}

main().then(() => console.log('# hms_soak: every check ran'),
            (e) => { console.error(e); process.exit(1); });
