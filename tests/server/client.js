// A HiveServer2 client (hive-driver, over the binary transport without
// SASL) against `comb serve`: DDL, INSERT, UPDATE, MERGE and SELECTs of
// every primitive type, a result fetched in pages, the metadata calls,
// errors with Hive's text, session overlays, handles the server never
// gave or took back (and a request without one), and a client that hangs
// up inside a transaction.  Prints one line per check; exits 1 at the
// first failure.
//   node client.js PORT
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const net = require('node:net');
const { T, utils, connect: connectTo, open, run, fails, main } = require('./hs2.js');

const port = Number(process.argv[2]);
const connect = () => connectTo(port);

// ExecuteStatement in the unframed binary protocol, its request holding
// the statement but not the required session handle
function handlessCall() {
  const i32 = n => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b; };
  const field = (type, id) => Buffer.from([type, 0, id]);
  const str = text => Buffer.concat([i32(Buffer.byteLength(text)), Buffer.from(text)]);
  return Buffer.concat([
    i32(0x80010001), str('ExecuteStatement'), i32(1),   // version 1, CALL, seqid 1
    field(12, 1), field(11, 2), str('SELECT 1'), Buffer.from([0]), Buffer.from([0]),
  ]);
}

function ok(what) { console.log(`ok - ${what}`); }

// the rows of a metadata call's operation
async function rowsOf(opPromise) {
  const op = await opPromise;
  await utils.waitUntilReady(op, false, () => {});
  await utils.fetchAll(op);
  const rows = utils.getResult(op).getValue();
  await op.close();
  return rows;
}

main('client', async () => {
  const client = await connect();
  const s = await open(client, { 'use:database': 'default', 'set:hivevar:lim': '2' });
  const info = await s.getInfo(T.TGetInfoType.CLI_DBMS_NAME);
  assert.equal(info.getValue(), 'Apache Hive');
  ok('GetInfo names the server as Hive tools expect');

  await run(s, `CREATE TABLE t (id INT, ti TINYINT, si SMALLINT, bi BIGINT,
                 b BOOLEAN, f FLOAT, d DOUBLE, dec DECIMAL(10,2), s STRING,
                 vc VARCHAR(5), c CHAR(3), dt DATE, ts TIMESTAMP, bin BINARY,
                 arr ARRAY<INT>, m MAP<STRING,INT>)
                STORED AS ORC TBLPROPERTIES ('transactional'='true')`);
  await run(s, `INSERT INTO t SELECT 1, -128, 32767, 9007199254740991, true,
                 1.5, -2.25, 12345678.91, 'a\\'b', 'vc', 'ch',
                 DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.123',
                 CAST('xyz' AS BINARY), array(1, 2), map('k', 7)`);
  await run(s, `INSERT INTO t (id) VALUES (2)`);
  let { rows } = await run(s, 'SELECT * FROM t ORDER BY id');
  assert.equal(rows.length, 2);
  const [r1, r2] = rows;
  assert.equal(r1.id, 1);
  assert.equal(r1.ti, -128);
  assert.equal(r1.si, 32767);
  assert.equal(Number(r1.bi), 9007199254740991);
  assert.equal(r1.b, true);
  assert.equal(r1.f, 1.5);
  assert.equal(r1.d, -2.25);
  assert.equal(String(r1.dec), '12345678.91');
  assert.equal(r1.s, "a'b");
  assert.equal(r1.vc, 'vc');
  assert.equal(r1.c, 'ch ');
  assert.equal(String(r1.dt), '2024-02-29');
  assert.equal(String(r1.ts), '2024-01-02 03:04:05.123');
  assert.equal(Buffer.from(r1.bin).toString(), 'xyz');
  assert.equal(JSON.stringify(r1.arr), '[1,2]');
  assert.equal(JSON.stringify(r1.m), '{"k":7}');
  for (const k of Object.keys(r2))
    if (k !== 'id') assert.equal(r2[k], null, `column ${k} of row 2 is NULL`);
  ok('SELECT of every primitive type (and NULLs) comes back typed as Hive types it');

  await run(s, "UPDATE t SET s = 'upd' WHERE id = 2");
  await run(s, `MERGE INTO t USING (SELECT 2 AS id UNION ALL SELECT 3) src ON t.id = src.id
                WHEN MATCHED THEN UPDATE SET s = 'merged'
                WHEN NOT MATCHED THEN INSERT (id, s) VALUES (src.id, 'new')`);
  ({ rows } = await run(s, 'SELECT id, s FROM t ORDER BY id'));
  assert.deepEqual(rows.map(r => [r.id, r.s]), [[1, "a'b"], [2, 'merged'], [3, 'new']]);
  ok('UPDATE and MERGE');

  await run(s, `CREATE TABLE big STORED AS ORC AS
                SELECT pos AS n, concat('row', pos) AS label
                FROM (SELECT posexplode(split(space(2499), ' ')) AS (pos, x)) g`);
  const paged = await run(s, 'SELECT n, label FROM big ORDER BY n', 1000);
  assert.equal(paged.rows.length, 2500);
  assert.ok(paged.pages >= 3, `${paged.pages} fetches for 2500 rows of 1000`);
  assert.deepEqual(paged.rows[2499], { n: 2499, label: 'row2499' });
  ok(`2,500 rows fetched in ${paged.pages} pages`);

  // the metadata calls JDBC tools make
  await run(s, 'CREATE DATABASE sales');
  await run(s, "CREATE TABLE sales.orders (id BIGINT COMMENT 'key', amount DECIMAL(12,2), note VARCHAR(20)) PARTITIONED BY (ds STRING)");
  await run(s, 'CREATE VIEW sales.big_orders AS SELECT id FROM sales.orders WHERE amount > 100');
  let meta = await rowsOf(s.getSchemas({ schemaName: '%' }));
  assert.deepEqual(meta.map(r => r.TABLE_SCHEM), ['default', 'sales']);
  meta = await rowsOf(s.getTables({ schemaName: 'sales', tableName: '%' }));
  assert.deepEqual(meta.map(r => [r.TABLE_NAME, r.TABLE_TYPE]),
                   [['big_orders', 'VIEW'], ['orders', 'TABLE']]);
  meta = await rowsOf(s.getTables({ schemaName: 'sal%', tableName: 'o_ders', tableTypes: ['TABLE'] }));
  assert.deepEqual(meta.map(r => r.TABLE_NAME), ['orders']);
  meta = await rowsOf(s.getTables({ schemaName: 'sales', tableTypes: ['VIEW'] }));
  assert.deepEqual(meta.map(r => r.TABLE_NAME), ['big_orders']);
  meta = await rowsOf(s.getColumns({ schemaName: 'sales', tableName: 'orders' }));
  assert.deepEqual(meta.map(r => [r.COLUMN_NAME, r.TYPE_NAME, r.DATA_TYPE, r.ORDINAL_POSITION]),
                   [['id', 'BIGINT', -5, 1], ['amount', 'DECIMAL(12,2)', 3, 2],
                    ['note', 'VARCHAR(20)', 12, 3], ['ds', 'STRING', 12, 4]]);
  assert.equal(meta[0].REMARKS, 'key');
  assert.equal(meta[1].COLUMN_SIZE, 12);
  assert.equal(meta[1].DECIMAL_DIGITS, 2);
  assert.equal(meta[2].COLUMN_SIZE, 20);
  meta = await rowsOf(s.getColumns({ schemaName: 'sales', tableName: 'orders', columnName: 'a%' }));
  assert.deepEqual(meta.map(r => r.COLUMN_NAME), ['amount']);
  meta = await rowsOf(s.getTableTypes());
  assert.deepEqual(meta.map(r => r.TABLE_TYPE), ['TABLE', 'VIEW', 'MATERIALIZED_VIEW']);
  meta = await rowsOf(s.getCatalogs());
  assert.equal(meta.length, 0);
  meta = await rowsOf(s.getTypeInfo());
  const types = Object.fromEntries(meta.map(r => [r.TYPE_NAME, r.DATA_TYPE]));
  assert.equal(types.INT, 4);
  assert.equal(types.STRING, 12);
  assert.equal(types.TIMESTAMP, 93);
  meta = await rowsOf(s.getFunctions({ functionName: 'date\\_%' }));  // \_: a plain _
  assert.ok(meta.some(r => r.FUNCTION_NAME === 'date_add'), 'date_add is a function');
  assert.ok(meta.every(r => r.FUNCTION_NAME.startsWith('date_')));
  meta = await rowsOf(s.getPrimaryKeys({ schemaName: 'sales', tableName: 'orders' }));
  assert.equal(meta.length, 0);
  ok('GetSchemas, GetTables, GetColumns, GetTableTypes, GetCatalogs, GetTypeInfo, GetFunctions, GetPrimaryKeys');

  ({ rows } = await run(s, 'SELECT id FROM t ORDER BY id LIMIT ${hivevar:lim}'));
  assert.deepEqual(rows.map(r => r.id), [1, 2]);
  ok('the session overlay set:hivevar applies');

  // SET answers with a result set, column "set", as HiveServer2's does
  await run(s, 'SET hive.exec.dynamic.partition.mode=nonstrict');
  ({ rows } = await run(s, '  set hive.exec.dynamic.partition.mode'));
  assert.deepEqual(rows, [{ set: 'hive.exec.dynamic.partition.mode=nonstrict' }]);
  ({ rows } = await run(s, 'SET no.such.key'));
  assert.deepEqual(rows, [{ set: 'no.such.key is undefined' }]);
  ok('SET gives its lines as a result set');

  // a statement run asynchronously, polled, and a long one cancelled
  let op = await s.executeStatement('SELECT count(*) AS n FROM big', { runAsync: true });
  await utils.waitUntilReady(op, false, () => {});
  await utils.fetchAll(op);
  assert.equal(Number(utils.getResult(op).getValue()[0].n), 2500);
  await op.close();
  const started = Date.now();
  op = await s.executeStatement(
    'SELECT count(*) FROM big a CROSS JOIN big b CROSS JOIN big c WHERE a.n + b.n + c.n = -1',
    { runAsync: true });
  await new Promise(r => setTimeout(r, 300));
  await op.cancel();
  await assert.rejects(utils.waitUntilReady(op, false, () => {}),
                       err => /canceled/.test(err.message));
  await op.close();
  assert.ok(Date.now() - started < 20000, 'the cancel took effect');
  ({ rows } = await run(s, 'SELECT count(*) AS n FROM big'));
  assert.equal(Number(rows[0].n), 2500);
  ok('asynchronous statements: polled, and a long one cancelled (the session goes on)');

  await fails(s, 'SELECT * FROM nope', /SemanticException \[Error 10001\].*Table not found 'nope'/);
  await fails(s, 'SELEC 1', /ParseException line 1:0/);
  ok("errors carry Hive's text");

  // hostile calls, straight through the Thrift client (hive-driver checks
  // nothing): each answer's own status says INVALID_HANDLE_STATUS
  const call = (c, name, req) => new Promise((resolve, reject) =>
    c.getClient()[name](req, (err, res) => (err ? reject(err) : resolve(res))));
  const forged = (guid = crypto.randomBytes(16)) =>
    new T.THandleIdentifier({ guid, secret: crypto.randomBytes(16) });
  async function refused(name, req, what) {
    const r = await call(client, name, req);
    assert.equal(r.status.statusCode, T.TStatusCode.INVALID_HANDLE_STATUS, `${name} of a ${what}`);
    assert.match(r.status.errorMessage, new RegExp(`Invalid ${what} handle`));
  }
  async function sessionRefused(sessionHandle) {
    await refused('ExecuteStatement', new T.TExecuteStatementReq({ sessionHandle, statement: 'SELECT 1' }), 'session');
    await refused('GetInfo', new T.TGetInfoReq({ sessionHandle, infoType: T.TGetInfoType.CLI_DBMS_NAME }), 'session');
    await refused('GetTables', new T.TGetTablesReq({ sessionHandle }), 'session');
    await refused('CloseSession', new T.TCloseSessionReq({ sessionHandle }), 'session');
  }
  async function operationRefused(operationHandle) {
    await refused('GetOperationStatus', new T.TGetOperationStatusReq({ operationHandle }), 'operation');
    await refused('FetchResults', new T.TFetchResultsReq({
      operationHandle, orientation: T.TFetchOrientation.FETCH_NEXT, maxRows: 10 }), 'operation');
    await refused('GetResultSetMetadata', new T.TGetResultSetMetadataReq({ operationHandle }), 'operation');
    await refused('CancelOperation', new T.TCancelOperationReq({ operationHandle }), 'operation');
    await refused('CloseOperation', new T.TCloseOperationReq({ operationHandle }), 'operation');
  }
  await sessionRefused(new T.TSessionHandle({ sessionId: forged() }));
  await sessionRefused(new T.TSessionHandle({ sessionId: forged(s.sessionHandle.sessionId.guid) }));
  await operationRefused(new T.TOperationHandle({
    operationId: forged(), operationType: T.TOperationType.EXECUTE_STATEMENT, hasResultSet: true }));
  const closing = await open(client);
  const left = await closing.executeStatement('SELECT 1 AS one');
  await closing.close();
  await sessionRefused(closing.sessionHandle);
  await operationRefused(left.operationHandle);
  ({ rows } = await run(s, 'SELECT count(*) AS n FROM big'));
  assert.equal(Number(rows[0].n), 2500);
  ok('handles never given, with a wrong secret, or closed (and after CloseSession) get INVALID_HANDLE_STATUS');

  // a call without the session handle it must have (written by hand:
  // the generated client will not send one): the server hangs up on that
  // connection and serves the others
  const closed = await new Promise((resolve, reject) => {
    const sock = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => reject(new Error('the server kept the connection')), 10000);
    sock.on('error', () => {});
    sock.on('close', () => { clearTimeout(timer); resolve(true); });
    sock.write(handlessCall());
  });
  assert.ok(closed);
  ({ rows } = await run(s, 'SELECT 1 AS one'));
  assert.deepEqual(rows, [{ one: 1 }]);
  ok('a call without its handle ends its connection only');

  // a client that hangs up inside a transaction: rolled back at once
  const quitter = await connect();
  const q = await open(quitter);
  await run(q, 'BEGIN');
  await run(q, 'INSERT INTO t (id) VALUES (99)');
  quitter.close();   /* ends the connection, no CloseSession */
  await new Promise(r => setTimeout(r, 500));
  ({ rows } = await run(s, 'SELECT count(*) AS n FROM t WHERE id = 99'));
  assert.equal(Number(rows[0].n), 0);
  await run(s, 'INSERT INTO t (id) VALUES (100)');
  ({ rows } = await run(s, 'SHOW TRANSACTIONS'));
  assert.ok(!rows.some(r => /OPEN/.test(JSON.stringify(r))), 'no open transaction left');
  ok('a client gone mid-transaction leaves nothing open and nothing visible');

  await s.close();
  await client.close();
  ok('sessions close');
});
