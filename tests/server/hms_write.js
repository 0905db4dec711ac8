// An outside engine's write through `comb metastore`, with the client
// generated from Hive's published interface (see hms.js), one connection
// per call as Trino makes them; tests/integration/hms_write.sh writes the
// files between the calls and asks comb's SQL what it sees:
//   node hms_write.js GEN PORT begin DB TABLE   open_txns, lock (SHARED_WRITE,
//                                        INSERT), allocate_table_write_ids:
//                                        says "txn T writeid W location L"
//   node hms_write.js GEN PORT dynparts TXN W DB TABLE NAME...
//                                        add_dynamic_partitions
//   node hms_write.js GEN PORT commit TXN | abort TXN
//   node hms_write.js GEN PORT made DB TABLE NAME...  get_partitions_by_names
//                                        gives each NAME as comb made it
//   node hms_write.js GEN PORT dyn_errors DB TABLE ABORTED COMMITTED
//                                        add_dynamic_partitions refused
//   node hms_write.js GEN PORT partitions  the partition calls on default.pc
// Every check that fails throws; the last line says all of them ran.
const fs = require('fs');
const path = require('path');
const assert = require('assert');
const [gen, port, mode, ...args] = process.argv.slice(2);
const { T, thrift, connect, fails, openTxn } = require('./hms_lib.js')(gen, port);

// one call on a connection of its own
async function call(f) {
  const { conn, client } = connect();
  try {
    return await f(client);
  } finally {
    conn.end();
  }
}

async function begin(db, table) {
  const txn = await call(openTxn);
  const lock = await call((c) => c.lock(new T.LockRequest({
    component: [new T.LockComponent({
      type: T.LockType.SHARED_WRITE, level: T.LockLevel.TABLE, dbname: db, tablename: table,
      operationType: T.DataOperationType.INSERT, isTransactional: true,
    })],
    txnid: txn, user: 'trino', hostname: 'worker1', agentInfo: 'hms_write.js',
  })));
  assert.strictEqual(lock.state, T.LockState.ACQUIRED);
  const ids = await call((c) => c.allocate_table_write_ids(
    new T.AllocateTableWriteIdsRequest({ dbName: db, tableName: table, txnIds: [txn] })));
  const t = await call((c) => c.get_table_req(new T.GetTableRequest({ dbName: db, tblName: table })));
  console.log(`txn ${txn} writeid ${ids.txnToWriteIds[0].writeId} location ${t.table.sd.location}`);
}

function dynamic(txnid, writeid, db, table, names, op = T.DataOperationType.INSERT) {
  return new T.AddDynamicPartitions({
    txnid: Number(txnid), writeid: Number(writeid), dbname: db, tablename: table,
    partitionnames: names, operationType: op,
  });
}

async function dynparts(txn, writeid, db, table, ...names) {
  await call((c) => c.add_dynamic_partitions(dynamic(txn, writeid, db, table, names)));
}

async function end(kind, txn) {
  if (kind === 'commit')
    await call((c) => c.commit_txn(new T.CommitTxnRequest({ txnid: Number(txn) })));
  else
    await call((c) => c.abort_txn(new T.AbortTxnRequest({ txnid: Number(txn) })));
}

// each name is a partition as comb made it: values, location below the
// table's, and the table's columns, formats, serde and bucketing
async function made(db, table, ...names) {
  const t = await call((c) => c.get_table(db, table));
  const parts = await call((c) => c.get_partitions_by_names(db, table, names));
  assert.deepStrictEqual(parts.map((p) => path.relative(t.sd.location, p.sd.location)), names);
  for (const p of parts) {
    assert.deepStrictEqual(p.values, p.sd.location.split('/').slice(-t.partitionKeys.length)
      .map((kv) => kv.split('=')[1]));
    assert.strictEqual(p.dbName, db);
    assert.strictEqual(p.tableName, table);
    assert.ok(p.createTime > 0, `createTime ${p.createTime}`);
    assert.ok(fs.statSync(p.sd.location).isDirectory(), p.sd.location);
    assert.deepStrictEqual(p.sd.cols, t.sd.cols);
    for (const k of ['inputFormat', 'outputFormat', 'numBuckets', 'bucketCols', 'serdeInfo'])
      assert.deepStrictEqual(p.sd[k], t.sd[k], k);
  }
}

async function dynErrors(db, table, aborted, committed) {
  const big = 999999;
  await call((c) => fails(c.add_dynamic_partitions(dynamic(big, 1, db, table, ['day=x'])),
                          T.NoSuchTxnException, `No such transaction txnid:${big}`));
  await call((c) => fails(c.add_dynamic_partitions(dynamic(aborted, 1, db, table, ['day=x'])),
                          T.TxnAbortedException, `Transaction txnid:${aborted} already aborted`));
  await call((c) => fails(c.add_dynamic_partitions(dynamic(committed, 1, db, table, ['day=x'])),
                          T.NoSuchTxnException, `Transaction txnid:${committed} is already committed.`));
  // a write id that is not the txn's, a name that is no partition of the
  // table: nothing is recorded, the txn stays open and aborts cleanly
  const txn = await call(openTxn);
  const ids = await call((c) => c.allocate_table_write_ids(
    new T.AllocateTableWriteIdsRequest({ dbName: db, tableName: table, txnIds: [txn] })));
  const w = Number(ids.txnToWriteIds[0].writeId);
  const x = await call((c) => fails(c.add_dynamic_partitions(dynamic(txn, w + 100, db, table, ['day=x'])),
                                    thrift.Thrift.TApplicationException));
  assert.ok(x.message.includes(`is not the write id of txnid:${txn}`), x.message);
  const y = await call((c) => fails(c.add_dynamic_partitions(dynamic(txn, w, db, table, ['month=x'])),
                                    thrift.Thrift.TApplicationException));
  assert.ok(y.message.includes('month'), y.message);
  assert.deepStrictEqual(await call((c) => c.get_partition_names_ps(db, table, ['x'], -1)), []);
  // an unpartitioned table has no partitions to name
  const plain = await call((c) => c.allocate_table_write_ids(
    new T.AllocateTableWriteIdsRequest({ dbName: db, tableName: 'w', txnIds: [txn] })));
  const z = await call((c) => fails(c.add_dynamic_partitions(
    dynamic(txn, Number(plain.txnToWriteIds[0].writeId), db, 'w', [])), thrift.Thrift.TApplicationException));
  assert.ok(z.message.includes('default.w is not partitioned'), z.message);
  await end('abort', txn);
}

function partition(values, location, parameters = {}) {
  return new T.Partition({
    values, dbName: 'default', tableName: 'pc', parameters,
    sd: new T.StorageDescriptor({ location, cols: [] }),
  });
}

// get_partition_names_ps, get_partitions_by_names, add_partitions(_req),
// alter_partitions_req on default.pc (day STRING, region STRING), which
// holds day=2024-01-01/region=eu, day=2024-01-01/region=us and
// day=2024-01-02/region=eu
async function partitions() {
  const { conn, client } = connect();
  const all = ['day=2024-01-01/region=eu', 'day=2024-01-01/region=us', 'day=2024-01-02/region=eu'];
  const ps = (vals, max = -1) => client.get_partition_names_ps('default', 'pc', vals, max);
  assert.deepStrictEqual(await ps([]), all);
  assert.deepStrictEqual(await ps(['2024-01-01']), all.slice(0, 2));
  assert.deepStrictEqual(await ps(['', 'eu']), [all[0], all[2]]);
  assert.deepStrictEqual(await ps(['2024-01-01', 'us']), [all[1]]);
  assert.deepStrictEqual(await ps([], 2), all.slice(0, 2));
  assert.deepStrictEqual(await ps(['1999-01-01']), []);
  await fails(ps(['a', 'b', 'c']), T.MetaException,
              'Incorrect number of partition values. numPartKeys=2, part_val=3');
  await fails(client.get_partition_names_ps('default', 'nosuch', [], -1), T.NoSuchObjectException,
              'hive.default.nosuch table not found');
  await fails(client.get_partitions_by_names('default', 'nosuch', all), T.NoSuchObjectException,
              'hive.default.nosuch table not found');
  const t = await client.get_table('default', 'pc');
  const got = await client.get_partitions_by_names('default', 'pc', [all[2], 'day=1999-01-01/region=eu', all[0]]);
  assert.deepStrictEqual(got.map((p) => p.values), [['2024-01-02', 'eu'], ['2024-01-01', 'eu']]);
  assert.strictEqual(got[0].sd.location, `${t.sd.location}/${all[2]}`);

  // add: the directory made, Hive's answers for what exists or is wrong
  const d3 = `${t.sd.location}/day=2024-01-03/region=eu`;
  const added = await client.add_partitions_req(new T.AddPartitionsRequest({
    dbName: 'default', tblName: 'pc', parts: [partition(['2024-01-03', 'eu'], '', { origin: 'trino' })],
    ifNotExists: false, needResult: true,
  }));
  assert.deepStrictEqual(added.partitions.map((p) => [p.values, p.sd.location, p.parameters.origin]),
                         [[['2024-01-03', 'eu'], d3, 'trino']]);
  assert.ok(fs.statSync(d3).isDirectory(), d3);
  await fails(client.add_partitions_req(new T.AddPartitionsRequest({
    dbName: 'default', tblName: 'pc', parts: [partition(['2024-01-03', 'eu'])], ifNotExists: false,
  })), T.AlreadyExistsException, 'Partition already exists: default.pc/day=2024-01-03/region=eu');
  const again = await client.add_partitions_req(new T.AddPartitionsRequest({
    dbName: 'default', tblName: 'pc', parts: [partition(['2024-01-03', 'eu']), partition(['2024-01-04', 'eu'])],
    ifNotExists: true, needResult: true,
  }));
  assert.deepStrictEqual(again.partitions.map((p) => p.values), [['2024-01-04', 'eu']]);
  const quiet = await client.add_partitions_req(new T.AddPartitionsRequest({
    dbName: 'default', tblName: 'pc', parts: [partition(['2024-01-05', 'eu'])], ifNotExists: true, needResult: false,
  }));
  assert.strictEqual(quiet.partitions, null);
  // the old call, with a location given as an engine gives it (a URI)
  const moved = path.join(path.dirname(t.sd.location), 'elsewhere');
  assert.strictEqual(await client.add_partitions([partition(['2024-01-06', 'us'], `file://${moved}`)]), 1);
  assert.ok(fs.statSync(moved).isDirectory(), moved);
  await fails(client.add_partitions([partition(['2024-01-06', 'us'])]), T.AlreadyExistsException,
              'Partition already exists: default.pc/day=2024-01-06/region=us');
  await fails(client.add_partitions_req(new T.AddPartitionsRequest({
    dbName: 'default', tblName: 'nosuch', parts: [partition(['a', 'b'])], ifNotExists: false,
  })), T.InvalidObjectException, 'Unable to add partitions because hive.default.nosuch does not exist');
  await fails(client.add_partitions([partition(['2024-01-07'])]), T.MetaException,
              'Invalid partition key & values; keys [day, region, ], values [2024-01-07, ]');
  // all or nothing: one bad partition of two adds none
  await fails(client.add_partitions([partition(['2024-01-08', 'eu']), partition(['2024-01-03', 'eu'])]),
              T.AlreadyExistsException);
  assert.deepStrictEqual(await ps(['2024-01-08']), []);
  assert.strictEqual(fs.existsSync(`${t.sd.location}/day=2024-01-08`), false);

  // alter: a new location; an unknown partition changes nothing
  const d4 = `${t.sd.location}/day=2024-01-04/region=eu`;
  const newer = path.join(path.dirname(t.sd.location), 'moved4');
  await client.alter_partitions_req(new T.AlterPartitionsRequest({
    dbName: 'default', tableName: 'pc', partitions: [partition(['2024-01-04', 'eu'], newer)],
  }));
  const [p4] = await client.get_partitions_by_names('default', 'pc', ['day=2024-01-04/region=eu']);
  assert.strictEqual(p4.sd.location, newer);
  // parameters: the client's whole map, with the time of the change
  await client.alter_partitions_req(new T.AlterPartitionsRequest({
    dbName: 'default', tableName: 'pc', partitions: [partition(['2024-01-03', 'eu'], '', { numRows: '7' })],
  }));
  const [p3] = await client.get_partitions_by_names('default', 'pc', ['day=2024-01-03/region=eu']);
  assert.strictEqual(p3.sd.location, d3);
  assert.deepStrictEqual(Object.keys(p3.parameters).sort(), ['numRows', 'transient_lastDdlTime']);
  assert.strictEqual(p3.parameters.numRows, '7');
  assert.ok(Math.abs(Number(p3.parameters.transient_lastDdlTime) - Date.now() / 1000) < 600,
            p3.parameters.transient_lastDdlTime);
  await fails(client.alter_partitions_req(new T.AlterPartitionsRequest({
    dbName: 'default', tableName: 'pc', partitions: [partition(['2024-01-04', 'eu'], d4), partition(['2030-01-01', 'eu'], d4)],
  })), T.InvalidOperationException,
  'Alter partition operation failed: NoSuchObjectException(message:partition values=[2030-01-01, eu])');
  const [still] = await client.get_partitions_by_names('default', 'pc', ['day=2024-01-04/region=eu']);
  assert.strictEqual(still.sd.location, newer);
  await fails(client.alter_partitions_req(new T.AlterPartitionsRequest({
    dbName: 'default', tableName: 'nosuch', partitions: [partition(['a', 'b'], d4)],
  })), T.InvalidOperationException);
  conn.end();
}

const modes = {
  begin, dynparts, made, partitions, commit: (txn) => end('commit', txn),
  abort: (txn) => end('abort', txn), dyn_errors: dynErrors,
};
modes[mode](...args).then(() => console.log('# hms_write: every check ran'),
                          (e) => { console.error(e); process.exit(1); });
