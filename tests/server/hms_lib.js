// What the tests of `comb metastore` share (hms.js and the others): a
// connection of the client generated from Hive's published interface into
// GEN (see hms.js), the check that a call fails with an exception, Hive's
// client-side transaction and write-id list strings, lock components and
// a txn of one's own.
const path = require('path');
const assert = require('assert');
const thrift = require('thrift');

module.exports = function hmsLib(gen, port) {
  const Svc = require(path.join(gen, 'ThriftHiveMetastore'));
  const T = require(path.join(gen, 'hive_metastore_types'));

  function connect(framed = false) {
    const conn = thrift.createConnection('127.0.0.1', Number(port), {
      transport: framed ? thrift.TFramedTransport : thrift.TBufferedTransport,
      protocol: thrift.TBinaryProtocol,
    });
    conn.on('error', (e) => { console.error('connection error', e); process.exit(1); });
    return { conn, client: thrift.createClient(Svc, conn) };
  }

  // the exception a call must fail with: its class and message
  async function fails(promise, cls, message) {
    try {
      await promise;
    } catch (e) {
      assert.ok(e instanceof cls, `expected ${cls.name}, got ${e && e.constructor.name}: ${e && e.message}`);
      if (message !== undefined)
        assert.strictEqual(e.message, message);
      return e;
    }
    throw new Error(`expected ${cls.name} "${message}", the call succeeded`);
  }

  // Hive's client-side ValidReadTxnList (TxnCommonUtils.createValidReadTxnList)
  function validTxnList(resp, current) {
    const bits = resp.abortedBits;
    const open = [], aborted = [];
    resp.open_txns.forEach((id, i) => {
      const n = Number(id);
      if (n === current) return;
      const isAborted = bits && (bits[i >> 3] >> (i & 7)) & 1;
      (isAborted ? aborted : open).push(n);
    });
    const min = open.length ? Math.min(...open) : '9223372036854775807';
    return `${resp.txn_high_water_mark}:${min}:${open.join(',')}:${aborted.join(',')}`;
  }

  // Hive's ValidReaderWriteIdList string of one TableValidWriteIds
  function writeIdList(t) {
    const open = [], aborted = [];
    t.invalidWriteIds.forEach((id, i) => {
      const isAborted = t.abortedBits && (t.abortedBits[i >> 3] >> (i & 7)) & 1;
      (isAborted ? aborted : open).push(Number(id));
    });
    const min = t.minOpenWriteId !== null && t.minOpenWriteId !== undefined
      ? String(t.minOpenWriteId) : '9223372036854775807';
    return `${t.fullTableName}:${t.writeIdHighWaterMark}:${min}:${open.join(',')}:${aborted.join(',')}`;
  }

  function component(type, table, op) {
    return new T.LockComponent({
      type, level: T.LockLevel.TABLE, dbname: 'default', tablename: table,
      operationType: op, isTransactional: true,
    });
  }

  async function openTxn(client) {
    const r = await client.open_txns(new T.OpenTxnRequest({ num_txns: 1, user: 'trino', hostname: 'worker1', agentInfo: 'hms.js' }));
    assert.strictEqual(r.txn_ids.length, 1);
    return Number(r.txn_ids[0]);
  }

  // A txn of its own holding a lock of type on t for op (acquired at once).
  async function lockedTxn(client, type, op) {
    const txn = await openTxn(client);
    const lock = await client.lock(new T.LockRequest({
      component: [component(type, 't', op)],
      txnid: txn, user: 'trino', hostname: 'worker1', agentInfo: 'hms.js',
    }));
    assert.strictEqual(lock.state, T.LockState.ACQUIRED);
    return { txn, lock };
  }

  return { Svc, T, thrift, connect, fails, validTxnList, writeIdList, component, openTxn, lockedTxn };
};
