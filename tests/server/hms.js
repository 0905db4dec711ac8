// A Hive Metastore client generated at test time from Hive's published
// interface (../shared/testdata/hms/hive_metastore.thrift, `thrift --gen
// js:node` into GEN by tests/integration/hms_service.sh), not from comb's
// own hms.thrift, replaying what a distributed engine calls against
// `comb metastore`:
//   node hms.js GEN PORT catalog         listing, Table objects, settings,
//                                        unknown names and methods, framed
//   node hms.js GEN PORT read EXPECTED   an ACID read: open_txns, lock,
//                                        get_open_txns, get_valid_write_ids
//                                        (its list must be EXPECTED),
//                                        heartbeat_txn_range, commit
//   node hms.js GEN PORT abort_write     a write id allocated, then aborted
//   node hms.js GEN PORT hold FILE       a SHARED_WRITE lock on default.t,
//                                        "locked" said, held (heartbeating)
//                                        until FILE exists, then committed
//   node hms.js GEN PORT location DIR    the default database lies in DIR
//   node hms.js GEN PORT errors          unknown txns and locks, commit of
//                                        an aborted txn, unlock refused
// Every check that fails throws; the last line says all of them ran.
const fs = require('fs');
const assert = require('assert');
const thrift = require('thrift');
const [gen, port, mode, arg] = process.argv.slice(2);
const { T, connect, fails, validTxnList, writeIdList, component, openTxn, lockedTxn } =
  require('./hms_lib.js')(gen, port);

async function catalog() {
  const { conn, client } = connect();
  const dbs = await client.get_all_databases();
  assert.ok(dbs.includes('default') && dbs.includes('sales'), `databases ${dbs}`);
  const db = await client.get_database('sales');
  assert.strictEqual(db.name, 'sales');
  assert.ok(db.locationUri.endsWith('/sales.db'), db.locationUri);
  await fails(client.get_database('nosuchdb'), T.NoSuchObjectException,
              'database hive.nosuchdb');
  assert.deepStrictEqual((await client.get_all_tables('default')).sort(), ['ext', 't', 'v']);
  assert.deepStrictEqual(await client.get_all_tables('nosuchdb'), []);
  assert.deepStrictEqual(await client.get_tables_by_type('default', '.*', 'VIRTUAL_VIEW'), ['v']);
  assert.deepStrictEqual((await client.get_tables_by_type('default', 't*|e*', 'MANAGED_TABLE')), ['t']);
  assert.deepStrictEqual((await client.get_tables_by_type('default', '*', 'EXTERNAL_TABLE')), ['ext']);

  const t = await client.get_table('default', 't');
  assert.strictEqual(t.tableName, 't');
  assert.strictEqual(t.dbName, 'default');
  assert.strictEqual(t.tableType, 'MANAGED_TABLE');
  assert.ok(t.owner.length > 0);
  assert.deepStrictEqual(t.sd.cols.map((c) => [c.name, c.type]), [['id', 'int'], ['name', 'string']]);
  assert.strictEqual(t.sd.inputFormat, 'org.apache.hadoop.hive.ql.io.orc.OrcInputFormat');
  assert.strictEqual(t.sd.outputFormat, 'org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat');
  assert.strictEqual(t.sd.serdeInfo.serializationLib, 'org.apache.hadoop.hive.ql.io.orc.OrcSerde');
  assert.strictEqual(t.sd.numBuckets, 2);
  assert.deepStrictEqual(t.sd.bucketCols, ['id']);
  assert.ok(t.sd.location.endsWith('/t'), t.sd.location);
  assert.strictEqual(t.parameters.transactional, 'true');
  assert.deepStrictEqual(t.partitionKeys, []);
  assert.strictEqual(t.viewOriginalText, null);

  const p = (await client.get_table_req(new T.GetTableRequest({ dbName: 'sales', tblName: 'orders' }))).table;
  assert.deepStrictEqual(p.partitionKeys.map((c) => [c.name, c.type]), [['day', 'string']]);
  assert.strictEqual(p.parameters.transactional_properties, 'insert_only');
  const v = await client.get_table('default', 'v');
  assert.strictEqual(v.tableType, 'VIRTUAL_VIEW');
  assert.ok(/select/i.test(v.viewOriginalText), v.viewOriginalText);
  const e = await client.get_table('default', 'ext');
  assert.strictEqual(e.tableType, 'EXTERNAL_TABLE');

  await fails(client.get_table('default', 'nosuch'), T.NoSuchObjectException,
              'hive.default.nosuch table not found');
  await fails(client.get_table_req(new T.GetTableRequest({ dbName: 'nosuchdb', tblName: 'x' })),
              T.NoSuchObjectException, 'hive.nosuchdb.x table not found');

  assert.strictEqual(await client.get_config_value('hive.txn.timeout', 'x'), '300s');
  assert.strictEqual(await client.get_config_value('hive.no.such.setting', 'dflt'), 'dflt');
  await fails(client.get_config_value('javax.jdo.option.ConnectionPassword', ''),
              T.ConfigValSecurityException,
              'For security reasons, the config key javax.jdo.option.ConnectionPassword cannot be accessed');
  assert.ok((await client.getMetaConf('hive.metastore.warehouse.dir')).length > 0);
  await fails(client.getMetaConf('no.such.key'), T.MetaException, 'Invalid configuration key no.such.key');

  // a method comb does not serve: Thrift's answer, and the connection goes on
  const x = await fails(client.get_databases('*'), thrift.Thrift.TApplicationException,
                        "Invalid method name: 'get_databases'");
  assert.strictEqual(x.type, thrift.Thrift.TApplicationExceptionType.UNKNOWN_METHOD);
  assert.ok((await client.get_all_databases()).includes('default'));
  conn.end();

  const framed = connect(true);
  assert.ok((await framed.client.get_all_databases()).includes('sales'));
  assert.strictEqual((await framed.client.get_table('default', 't')).tableName, 't');
  framed.conn.end();
}

async function read(expected) {
  const { conn, client } = connect();
  const { txn, lock } = await lockedTxn(client, T.LockType.SHARED_READ, T.DataOperationType.SELECT);
  const checked = await client.check_lock(new T.CheckLockRequest({ lockid: lock.lockid }));
  assert.strictEqual(checked.state, T.LockState.ACQUIRED);
  const shown = (await client.show_locks(new T.ShowLocksRequest({ dbname: 'default', tablename: 't' }))).locks;
  assert.ok(shown.some((l) => Number(l.txnid) === txn && l.type === T.LockType.SHARED_READ &&
                              l.user === 'trino' && l.hostname === 'worker1'), JSON.stringify(shown));
  const open = await client.get_open_txns();
  assert.ok(open.open_txns.map(Number).includes(txn));
  const txns = validTxnList(open, txn);
  const ids = await client.get_valid_write_ids(new T.GetValidWriteIdsRequest({ fullTableNames: ['default.t'], validTxnList: txns }));
  assert.strictEqual(writeIdList(ids.tblValidWriteIds[0]), expected);
  // (other readers' txns may follow this one: the range is its alone)
  const hb = await client.heartbeat_txn_range(new T.HeartbeatTxnRangeRequest({ min: txn, max: txn }));
  assert.deepStrictEqual([hb.aborted, hb.nosuch], [[], []]);
  const far = await client.heartbeat_txn_range(new T.HeartbeatTxnRangeRequest({ min: 999998, max: 999999 }));
  assert.deepStrictEqual(far.nosuch.map(Number).sort(), [999998, 999999]);
  await client.heartbeat(new T.HeartbeatRequest({ txnid: txn }));
  await client.commit_txn(new T.CommitTxnRequest({ txnid: txn }));
  await client.commit_txn(new T.CommitTxnRequest({ txnid: txn }));   // a retry: no-op
  conn.end();
}

async function abortWrite() {
  const { conn, client } = connect();
  const txn = await openTxn(client);
  const w = await client.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({ dbName: 'default', tableName: 't', txnIds: [txn] }));
  assert.strictEqual(Number(w.txnToWriteIds[0].txnId), txn);
  const again = await client.allocate_table_write_ids(new T.AllocateTableWriteIdsRequest({ dbName: 'default', tableName: 't', txnIds: [txn] }));
  assert.strictEqual(Number(again.txnToWriteIds[0].writeId), Number(w.txnToWriteIds[0].writeId));
  console.log(`# writeid ${w.txnToWriteIds[0].writeId}`);
  await client.abort_txn(new T.AbortTxnRequest({ txnid: txn }));
  await client.abort_txn(new T.AbortTxnRequest({ txnid: txn }));       // again: no-op
  conn.end();
}

async function hold(file) {
  const { conn, client } = connect();
  const { txn, lock } = await lockedTxn(client, T.LockType.SHARED_WRITE, T.DataOperationType.UPDATE);
  // a waiting request can be given up, the acquired one only by commit
  await fails(client.unlock(new T.UnlockRequest({ lockid: lock.lockid })), T.TxnOpenException);
  console.log('locked');
  while (!fs.existsSync(file)) {
    await client.heartbeat_txn_range(new T.HeartbeatTxnRangeRequest({ min: txn, max: txn }));
    await new Promise((r) => setTimeout(r, 100));
  }
  await client.commit_txn(new T.CommitTxnRequest({ txnid: txn }));
  conn.end();
}

async function errors() {
  const { conn, client } = connect();
  const big = 999999;
  await fails(client.commit_txn(new T.CommitTxnRequest({ txnid: big })), T.NoSuchTxnException,
              `No such transaction txnid:${big}`);
  await fails(client.abort_txn(new T.AbortTxnRequest({ txnid: big })), T.NoSuchTxnException,
              `No such transaction txnid:${big}`);
  await fails(client.heartbeat(new T.HeartbeatRequest({ txnid: big })), T.NoSuchTxnException,
              `No such transaction txnid:${big}`);
  await fails(client.check_lock(new T.CheckLockRequest({ lockid: big })), T.NoSuchLockException,
              `No such lock lockid:${big}`);
  await client.unlock(new T.UnlockRequest({ lockid: big }));   // Hive: already unlocked
  const txn = await openTxn(client);
  await client.abort_txn(new T.AbortTxnRequest({ txnid: txn }));
  await fails(client.commit_txn(new T.CommitTxnRequest({ txnid: txn })), T.TxnAbortedException,
              `Transaction txnid:${txn} already aborted`);
  await fails(client.heartbeat(new T.HeartbeatRequest({ txnid: txn })), T.TxnAbortedException,
              `Transaction txnid:${txn} already aborted`);
  await fails(client.lock(new T.LockRequest({
    component: [component(T.LockType.SHARED_READ, 't', T.DataOperationType.SELECT)],
    txnid: txn, user: 'u', hostname: 'h',
  })), T.TxnAbortedException, `Transaction txnid:${txn} already aborted`);
  const hb = await client.heartbeat_txn_range(new T.HeartbeatTxnRangeRequest({ min: txn, max: txn }));
  assert.deepStrictEqual(hb.aborted.map(Number), [txn]);
  const done = await openTxn(client);
  await client.commit_txn(new T.CommitTxnRequest({ txnid: done }));
  // (Hive 4 keeps a committed txn's row, which its check lets pass)
  await fails(client.heartbeat(new T.HeartbeatRequest({ txnid: done })), T.NoSuchTxnException,
              `No such txn: ${done}`);
  await fails(client.get_valid_write_ids(new T.GetValidWriteIdsRequest({ fullTableNames: ['nodot'], validTxnList: '5:9223372036854775807::' })),
              T.MetaException);
  conn.end();
}

async function location(dir) {
  const { conn, client } = connect();
  const db = await client.get_database('default');
  assert.ok([dir, `file:${dir}`].includes(db.locationUri), `${db.locationUri} is not ${dir}`);
  conn.end();
}

const modes = { catalog, location: () => location(arg), read: () => read(arg), abort_write: abortWrite, hold: () => hold(arg), errors };
modes[mode]().then(() => console.log('# hms: every check ran'),
                   (e) => { console.error(e); process.exit(1); });
