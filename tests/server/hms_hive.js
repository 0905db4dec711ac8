// The answers of `comb metastore` checked against what Hive 4's own
// metastore answers (its TxnHandler, DefaultTxnLockManager, HMSHandler),
// with the client generated from Hive's published interface (see
// hms.js), run by tests/integration/hms_hive.sh:
//   node hms_hive.js GEN PORT txn   unlock of a txn's acquired lock (the
//        lock named as Hive's LockInfo prints it) and of an unknown one
//        (done already), check_lock's and heartbeat's texts for an
//        unknown lock (and check_lock's for the lock of an ended txn),
//        a heartbeat of a txn's lock, an empty heartbeat_txn_range, a
//        batch of open_txns beyond hive.txn.max.open.batch, a write
//        conflict's text, allocate_table_write_ids for an ended txn
//   node hms_hive.js GEN PORT ddl   an unknown database in drop_table
//        (looked up first) and alter_table (the table's text; a rename's
//        the database's), partition keys changed by alter
//        (ms_table_alter's check, Hive's text),
//        drop_table with deleteData of pt (external, purged), whose partition p=out lies
//        outside its directory (its files go too, as in Hive)
//   node hms_hive.js GEN PORT part  add_partitions_req's refusals with
//        Hive's validatePartition texts (names unset, another table's,
//        no values), an unknown table's text, a request of none
// Every check that fails throws; the last line says all of them ran.
const assert = require('assert');
const [gen, port, mode] = process.argv.slice(2);
const { T, thrift, connect, fails, component, openTxn, lockedTxn } = require('./hms_lib.js')(gen, port);

async function locks(client) {
  const { txn, lock } = await lockedTxn(client, T.LockType.SHARED_WRITE, T.DataOperationType.UPDATE);
  const mine = (await client.show_locks(new T.ShowLocksRequest({}))).locks
    .find((l) => Number(l.lockid) === Number(lock.lockid));
  await fails(client.unlock(new T.UnlockRequest({ lockid: lock.lockid })), T.TxnOpenException,
              'Unlocking locks associated with transaction not permitted.  ' +
              `lockid:${lock.lockid} intLockId:${mine.lockIdInternal} txnid:${txn} ` +
              'db:default table:t partition:null state:ACQUIRED type:SHARED_WRITE');
  const big = 999999;
  await client.unlock(new T.UnlockRequest({ lockid: big }));
  await fails(client.check_lock(new T.CheckLockRequest({ lockid: big })), T.NoSuchLockException,
              `No such lock lockid:${big}`);
  // the txn's lock may be heartbeated by its id (Hive 4 updates its row)
  await client.heartbeat(new T.HeartbeatRequest({ lockid: lock.lockid }));
  await client.heartbeat(new T.HeartbeatRequest({ txnid: txn, lockid: lock.lockid }));
  await fails(client.heartbeat(new T.HeartbeatRequest({ txnid: txn, lockid: big })),
              T.NoSuchLockException, `No such lock: lockid:${big}`);
  await client.heartbeat(new T.HeartbeatRequest({ txnid: 0, lockid: 0 }));   // neither: nothing
  const none = await client.heartbeat_txn_range(new T.HeartbeatTxnRangeRequest({ min: txn, max: txn - 1 }));
  assert.deepStrictEqual([none.aborted, none.nosuch], [[], []]);
  await client.abort_txn(new T.AbortTxnRequest({ txnid: txn }));
  // the lock went with its txn, whatever txn the client names
  await fails(client.check_lock(new T.CheckLockRequest({ lockid: lock.lockid, txnid: txn })),
              T.NoSuchLockException, `No such lock lockid:${lock.lockid}`);
  // Hive 4 allocates for open txns only, refusing with an undeclared
  // exception (IllegalStateException: a TApplicationException)
  await fails(client.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({
    dbName: 'Default', tableName: 'T', txnIds: [txn] })), thrift.Thrift.TApplicationException,
              'Write ID allocation failed on default.t as not all input txns in open state or read-only');
  // the txn first: its exception, not the lock's
  await fails(client.heartbeat(new T.HeartbeatRequest({ txnid: txn, lockid: big })),
              T.TxnAbortedException, `Transaction txnid:${txn} already aborted`);
}

// more than hive.txn.max.open.batch (1000) asked: a batch opened
async function batch(client) {
  const r = await client.open_txns(new T.OpenTxnRequest({ num_txns: 1001, user: 'u', hostname: 'h' }));
  assert.strictEqual(r.txn_ids.length, 1000);
  for (const t of r.txn_ids)
    await client.abort_txn(new T.AbortTxnRequest({ txnid: t }));
}

// two txns update t; the second to commit is aborted with Hive's text
async function conflict(client) {
  const lockUpdate = async (txn) => {
    await client.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({ dbName: 'default', tableName: 't', txnIds: [txn] }));
    const l = await client.lock(new T.LockRequest({
      component: [component(T.LockType.SHARED_WRITE, 't', T.DataOperationType.UPDATE)],
      txnid: txn, user: 'u', hostname: 'h' }));
    assert.strictEqual(l.state, T.LockState.ACQUIRED);
  };
  const a = await openTxn(client), b = await openTxn(client);
  await lockUpdate(a);
  await lockUpdate(b);
  await client.commit_txn(new T.CommitTxnRequest({ txnid: a }));
  const e = await fails(client.commit_txn(new T.CommitTxnRequest({ txnid: b })), T.TxnAbortedException);
  const want = new RegExp(`^Aborting \\[txnid:${b},[0-9]+\\] due to a write conflict on default/t ` +
                          `committed by \\[txnid:${a},[0-9]+\\] `);
  assert.ok(want.test(e.message), e.message);
}

async function txn() {
  const { conn, client } = connect();
  await locks(client);
  await batch(client);
  await conflict(client);
  conn.end();
}

async function ddl() {
  const { conn, client } = connect();
  await fails(client.drop_table('nodb', 'x', true), T.NoSuchObjectException, 'database hive.nodb');
  const pt = await client.get_table('default', 'pt');
  // (alter gets the table first, passing over an unknown database)
  await fails(client.alter_table_with_environment_context('nodb', 'pt', pt, new T.EnvironmentContext({ properties: {} })),
              T.InvalidOperationException, 'hive.nodb.pt table not found');
  // a rename into an unknown database: its lookup's text, converted
  const moved = await client.get_table('default', 'pt');
  moved.dbName = 'nodb';
  await fails(client.alter_table_with_environment_context('default', 'pt', moved, new T.EnvironmentContext({ properties: {} })),
              T.InvalidOperationException, 'database hive.nodb');
  pt.partitionKeys[0].type = 'int';
  await fails(client.alter_table_with_environment_context('default', 'pt', pt, new T.EnvironmentContext({ properties: {} })),
              T.InvalidOperationException, 'partition keys can not be changed.');
  await client.drop_table('default', 'pt', true);
  conn.end();
}

function part(values, db = 'default', table = 'pp') {
  return new T.Partition({ dbName: db, tableName: table, values });
}

async function parts() {
  const { conn, client } = connect();
  const add = (ps, table = 'pp') => client.add_partitions_req(new T.AddPartitionsRequest({
    dbName: 'default', tblName: table, parts: ps, ifNotExists: false, needResult: true }));
  await fails(add([new T.Partition({ values: ['a'] })]), T.MetaException,
              'The database and table name must be set in the partition.');
  await fails(add([part(['a'], 'default', 't')]), T.MetaException,
              'Partition does not belong to target table hive.default.pp. It belongs to the table default.t');
  await fails(add([part([])]), T.MetaException, 'The partition values cannot be null or empty.');
  await fails(add([part(['a']), part(['a'])]), T.MetaException, 'Duplicate partitions in the list: p=a');
  await fails(add([part(['a'], 'default', 'nosuch')], 'nosuch'), T.InvalidObjectException,
              'Unable to add partitions because hive.default.nosuch does not exist');
  const none = await add([], 'nosuch');
  assert.deepStrictEqual(none.partitions || [], []);
  assert.deepStrictEqual(await client.get_partition_names_ps('default', 'pp', [], -1), []);
  conn.end();
}

const modes = { txn, ddl, part: parts };
modes[mode]().then(() => console.log('# hms_hive: every check ran'),
                   (e) => { console.error(e); process.exit(1); });
