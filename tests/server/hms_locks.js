// Locks, time-outs and compaction through `comb metastore`, with the
// client generated from Hive's published interface (see hms.js), run by
// tests/integration/hms_locks.sh beside comb processes:
//   node hms_locks.js GEN PORT wait_comb FILE   comb holds t's EXCL_WRITE:
//        a SHARED_WRITE request WAITING (blocked by comb's lock in
//        show_locks), check_lock still WAITING; "waiting" said; once FILE
//        exists (comb committed) check_lock ACQUIRED, then commit (an
//        insert: an update would lose to comb's, a write conflict)
//   node hms_locks.js GEN PORT abandon FILE     a txn locks t, says
//        "locked <txnid>" and stops heartbeating; once FILE exists its
//        heartbeat and commit answer TxnAbortedException (timed out)
//   node hms_locks.js GEN PORT per_call MS      every call on a new
//        connection, as Trino makes them: the txn stays open across them,
//        and heartbeats from new connections keep it past the time-out MS
//   node hms_locks.js GEN PORT compact          compact2 and show_compact:
//        queued, a duplicate refused with the entry in the way, errors;
//        says "queued <id>"
//   node hms_locks.js GEN PORT compact4 GEN4    Hive 4's fields, with a
//        client of comb's own hms.thrift in GEN4 (Hive's published
//        interface is 3.1's): a duplicate's errormessage, show_compact's
//        filters and its Hive 4 fields, after compact
//   node hms_locks.js GEN PORT compacted ID     show_compact after comb's
//        compactor ran request ID
// Every check that fails throws; the last line says all of them ran.
const fs = require('fs');
const assert = require('assert');
const thrift = require('thrift');
const [gen, port, mode, arg] = process.argv.slice(2);
const { T, connect, fails, component, openTxn, lockedTxn } = require('./hms_lib.js')(gen, port);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitComb(file) {
  const { conn, client } = connect();
  const txn = await openTxn(client);
  const lock = await client.lock(new T.LockRequest({
    component: [component(T.LockType.SHARED_WRITE, 't', T.DataOperationType.INSERT)],
    txnid: txn, user: 'trino', hostname: 'worker1',
  }));
  assert.strictEqual(lock.state, T.LockState.WAITING);
  const shown = (await client.show_locks(new T.ShowLocksRequest({ dbname: 'default', tablename: 't' }))).locks;
  const comb = shown.find((l) => Number(l.txnid) !== txn && l.state === T.LockState.ACQUIRED);
  const mine = shown.find((l) => Number(l.txnid) === txn);
  // EXCL_WRITE (4) is Hive 4's, beyond the published 3.1 interface
  assert.ok(comb && comb.type === 4, JSON.stringify(shown));
  assert.strictEqual(mine.state, T.LockState.WAITING);
  assert.strictEqual(Number(mine.blockedByExtId), Number(comb.lockid));
  for (let i = 0; i < 3; i++) {
    await sleep(200);
    await client.heartbeat(new T.HeartbeatRequest({ txnid: txn }));
    const c = await client.check_lock(new T.CheckLockRequest({ lockid: lock.lockid, txnid: txn }));
    assert.strictEqual(c.state, T.LockState.WAITING);
  }
  console.log('waiting');
  while (!fs.existsSync(file)) {
    await client.heartbeat(new T.HeartbeatRequest({ txnid: txn }));
    await sleep(100);
  }
  const c = await client.check_lock(new T.CheckLockRequest({ lockid: lock.lockid }));
  assert.strictEqual(c.state, T.LockState.ACQUIRED);
  await client.commit_txn(new T.CommitTxnRequest({ txnid: txn }));
  conn.end();
}

async function abandon(file) {
  const { conn, client } = connect();
  const { txn } = await lockedTxn(client, T.LockType.SHARED_WRITE, T.DataOperationType.UPDATE);
  console.log(`locked ${txn}`);
  while (!fs.existsSync(file))
    await sleep(100);
  const text = `Transaction txnid:${txn} already aborted`;
  await fails(client.heartbeat(new T.HeartbeatRequest({ txnid: txn })), T.TxnAbortedException, text);
  await fails(client.commit_txn(new T.CommitTxnRequest({ txnid: txn })), T.TxnAbortedException, text);
  const hb = await client.heartbeat_txn_range(new T.HeartbeatTxnRangeRequest({ min: txn, max: txn }));
  assert.deepStrictEqual(hb.aborted.map(Number), [txn]);
  const left = (await client.show_locks(new T.ShowLocksRequest({}))).locks;
  assert.ok(!left.some((l) => Number(l.txnid) === txn), JSON.stringify(left));
  conn.end();
}

// one call on a connection of its own, closed before the next call
async function once(call) {
  const { conn, client } = connect();
  try {
    return await call(client);
  } finally {
    conn.end();
  }
}

async function perCall(timeoutMs) {
  const txn = await once(openTxn);
  const w = await once((c) => c.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({
    dbName: 'default', tableName: 't', txnIds: [txn] })));
  const lock = await once((c) => c.lock(new T.LockRequest({
    component: [component(T.LockType.SHARED_WRITE, 't', T.DataOperationType.INSERT)],
    txnid: txn, user: 'trino', hostname: 'worker1' })));
  assert.strictEqual(lock.state, T.LockState.ACQUIRED);
  // twice the time-out, kept alive only by heartbeats on new connections
  const until = Date.now() + 2 * Number(timeoutMs);
  while (Date.now() < until) {
    await once((c) => c.heartbeat(new T.HeartbeatRequest({ txnid: txn })));
    await sleep(300);
  }
  const open = await once((c) => c.get_open_txns());
  assert.ok(open.open_txns.map(Number).includes(txn), `txn ${txn} not open`);
  const checked = await once((c) => c.check_lock(new T.CheckLockRequest({ lockid: lock.lockid })));
  assert.strictEqual(checked.state, T.LockState.ACQUIRED);
  const again = await once((c) => c.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({
    dbName: 'default', tableName: 't', txnIds: [txn] })));
  assert.strictEqual(Number(again.txnToWriteIds[0].writeId), Number(w.txnToWriteIds[0].writeId));
  await once((c) => c.commit_txn(new T.CommitTxnRequest({ txnid: txn })));
  // (the housekeeper, every 500 ms here, may have removed the committed
  // txn's row by then: Hive's text for a txn it does not know)
  const e = await once((c) => fails(c.heartbeat(new T.HeartbeatRequest({ txnid: txn })),
                                    T.NoSuchTxnException));
  assert.ok([`No such txn: ${txn}`, `Transaction txnid:${txn} is already committed.`,
             `No such transaction txnid:${txn}`].includes(e.message), e.message);
}

function request(table, type, part) {
  return new T.CompactionRequest({ dbname: 'default', tablename: table, type,
                                   partitionname: part, runas: 'trino',
                                   properties: { 'compactor.mapreduce.map.memory.mb': '2048' } });
}

async function compact() {
  const { conn, client } = connect();
  const r = await client.compact2(request('t', T.CompactionType.MAJOR));
  assert.strictEqual(r.accepted, true);
  assert.strictEqual(r.state, 'initiated');
  const id = Number(r.id);
  assert.ok(id > 0, `id ${r.id}`);
  // a second request for the same table while the first is queued
  const dup = await client.compact2(request('t', T.CompactionType.MINOR));
  assert.deepStrictEqual([dup.accepted, Number(dup.id), dup.state], [false, -1, 'refused']);
  // the names as the metastore keeps them, whatever the client's case
  const upper = await client.compact2(new T.CompactionRequest({ dbname: 'DEFAULT', tablename: 'T',
                                                                type: T.CompactionType.MAJOR }));
  // (Hive 3.1's interface has no errormessage: compact4 checks it)
  assert.deepStrictEqual([upper.accepted, Number(upper.id), upper.state], [false, -1, 'refused']);
  const all = (await client.show_compact(new T.ShowCompactRequest({}))).compacts;
  const e = all.find((x) => Number(x.id) === id);
  assert.ok(e, JSON.stringify(all));
  assert.deepStrictEqual([e.dbname, e.tablename, e.partitionname, e.type, e.state],
                         ['default', 't', null, T.CompactionType.MAJOR, 'initiated']);
  assert.strictEqual(e.workerid, null);
  assert.strictEqual(e.start, null);
  const x = thrift.Thrift.TApplicationException;
  await fails(client.compact2(request('plain', T.CompactionType.MAJOR)), x,
              'Compaction is not allowed on non-ACID table default.plain');
  await fails(client.compact2(request('nosuch', T.CompactionType.MAJOR)), x,
              'hive.default.nosuch table not found');
  await fails(client.compact2(request('pt', T.CompactionType.MINOR)), x,
              'You must specify a partition to compact for partitioned tables');
  await fails(client.compact2(request('pt', T.CompactionType.MINOR, 'p=zz')), x,
              'Invalid partition spec specified: p=zz');
  const p = await client.compact2(request('pt', T.CompactionType.MINOR, 'p=a'));
  assert.strictEqual(p.accepted, true);
  const shown = (await client.show_compact(new T.ShowCompactRequest({}))).compacts;
  const pe = shown.find((s) => Number(s.id) === Number(p.id));
  assert.deepStrictEqual([pe.tablename, pe.partitionname, pe.type], ['pt', 'p=a', T.CompactionType.MINOR]);
  console.log(`queued ${id}`);
  conn.end();
}

async function compact4(gen4) {
  const path = require('path');
  const H = require(path.join(gen4, 'hms_types'));
  const conn = thrift.createConnection('127.0.0.1', Number(port), {
    transport: thrift.TBufferedTransport, protocol: thrift.TBinaryProtocol });
  conn.on('error', (e) => { console.error('connection error', e); process.exit(1); });
  const client = thrift.createClient(require(path.join(gen4, 'ThriftHiveMetastore')), conn);
  const dup = await client.compact2(new H.CompactionRequest({
    dbname: 'default', tablename: 't', type: H.CompactionType.MAJOR }));
  assert.strictEqual(dup.accepted, false);
  assert.ok(/^Compaction is already scheduled with state='initiated' and id=[0-9]+$/.test(dup.errormessage),
            dup.errormessage);
  assert.deepStrictEqual([Number(dup.id), dup.state], [-1, 'refused']);
  const show = async (filter) => (await client.show_compact(new H.ShowCompactRequest(filter))).compacts
    .map((e) => `${e.tablename}/${e.partitionname}/${e.state}`);
  const all = await show({});
  assert.deepStrictEqual(all, ['t/null/initiated', 'pt/p=a/initiated']);
  assert.deepStrictEqual(await show({ tbName: 'PT' }), ['pt/p=a/initiated']);
  assert.deepStrictEqual(await show({ dbName: 'default', partName: 'p=a' }), ['pt/p=a/initiated']);
  const tid = Number(dup.errormessage.replace(/.*id=/, ''));
  assert.deepStrictEqual(await show({ id: tid }), ['t/null/initiated']);
  assert.deepStrictEqual(await show({ type: H.CompactionType.MINOR }), ['pt/p=a/initiated']);
  assert.deepStrictEqual(await show({ state: 'Initiated', limit: 1 }), ['t/null/initiated']);
  assert.deepStrictEqual(await show({ state: 'working' }), []);
  assert.deepStrictEqual(await show({ dbName: 'sales' }), []);
  assert.deepStrictEqual(await show({ poolName: 'etl' }), []);
  const e = (await client.show_compact(new H.ShowCompactRequest({ tbName: 't' }))).compacts[0];
  assert.ok(Number(e.enqueueTime) > 0, JSON.stringify(e));
  assert.ok(/-manual$/.test(e.initiatorId), e.initiatorId);
  assert.strictEqual(e.poolName, 'default');
  assert.strictEqual(e.txnId, null);
  conn.end();
}

async function compacted(id) {
  const { conn, client } = connect();
  const all = (await client.show_compact(new T.ShowCompactRequest({}))).compacts;
  const e = all.find((x) => Number(x.id) === Number(id));
  assert.ok(e, JSON.stringify(all));
  assert.ok(['ready for cleaning', 'succeeded'].includes(e.state), e.state);
  assert.ok(Number(e.start) > 0 && Number(e.endTime) >= Number(e.start), JSON.stringify(e));
  assert.ok(Number(e.hightestTxnId) > 0, JSON.stringify(e));
  assert.ok(/^100% /.test(e.metaInfo), JSON.stringify(e));   // the worker's progress
  // nothing new since: the same request is refused with the entry in the way
  const again = await client.compact2(request('t', T.CompactionType.MAJOR));
  if (e.state === 'ready for cleaning')
    assert.deepStrictEqual([again.accepted, Number(again.id), again.state], [false, -1, 'refused']);
  conn.end();
}

const modes = {
  wait_comb: () => waitComb(arg), abandon: () => abandon(arg), per_call: () => perCall(arg),
  compact, compact4: () => compact4(arg), compacted: () => compacted(arg),
};
modes[mode]().then(() => console.log('# hms_locks: every check ran'),
                   (e) => { console.error(e); process.exit(1); });
