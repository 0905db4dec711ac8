// Tables and column statistics through `comb metastore`, with the client
// generated from Hive's published interface (see hms.js), as
// tests/integration/hms_tables.sh drives it:
//   node hms_tables.js GEN PORT create DIR    create_table: plain (text),
//                                             partitioned ACID, bucketed
//                                             ACID, insert-only, external
//                                             (in DIR), typed; get_table of
//                                             each is what was created
//   node hms_tables.js GEN PORT errors DIR    what create_table refuses; an
//                                             external table by its
//                                             parameter (in DIR), dropped
//   node hms_tables.js GEN PORT alter DIR     a column and a parameter
//                                             added, a rename, a new
//                                             location (DIR); what comb
//                                             cannot do refused
//   node hms_tables.js GEN PORT stats_read    the statistics comb's ANALYZE
//                                             wrote, read back
//   node hms_tables.js GEN PORT stats_write   statistics of every kind
//                                             written, read back, refused
//   node hms_tables.js GEN PORT drop          drop_table with and without
//                                             deleteData, unknown tables
// Every check that fails throws; the last line says all of them ran.
const assert = require('assert');
const [gen, port, mode, arg] = process.argv.slice(2);
const { T, connect, fails } = require('./hms_lib.js')(gen, port);

const ORC = {
  inputFormat: 'org.apache.hadoop.hive.ql.io.orc.OrcInputFormat',
  outputFormat: 'org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat',
  serde: 'org.apache.hadoop.hive.ql.io.orc.OrcSerde',
};
const TEXT = {
  inputFormat: 'org.apache.hadoop.mapred.TextInputFormat',
  outputFormat: 'org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat',
  serde: 'org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe',
};

function cols(list) {
  return list.map(([name, type]) => new T.FieldSchema({ name, type, comment: null }));
}

// A Table as Trino's ThriftMetastoreUtil sends one.
function table(name, { columns, format = ORC, keys = [], params = {}, type = 'MANAGED_TABLE',
                       location, buckets = 0, bucketCols = [], db = 'default' }) {
  return new T.Table({
    dbName: db, tableName: name, owner: 'trino', createTime: 0, lastAccessTime: 0, retention: 0,
    tableType: type, parameters: params, partitionKeys: cols(keys),
    sd: new T.StorageDescriptor({
      cols: cols(columns), location, inputFormat: format.inputFormat,
      outputFormat: format.outputFormat, compressed: false, numBuckets: buckets,
      serdeInfo: new T.SerDeInfo({ name, serializationLib: format.serde, parameters: {} }),
      bucketCols, sortCols: [], parameters: {},
    }),
  });
}

const ACID = { transactional: 'true' };
const tables = (dir) => ({
  plain: table('plain', { columns: [['id', 'int'], ['name', 'string']], format: TEXT,
                          params: { comment: 'made by trino' } }),
  parts: table('parts', { columns: [['id', 'bigint'], ['v', 'string']], keys: [['day', 'string']], params: ACID }),
  acid: table('acid', { columns: [['id', 'int'], ['name', 'varchar(10)']], params: { ...ACID, bucketing_version: '2' },
                        buckets: 2, bucketCols: ['id'] }),
  mm: table('mm', { columns: [['a', 'int']], format: TEXT,
                    params: { transactional: 'true', transactional_properties: 'insert_only' } }),
  ext: table('ext', { columns: [['a', 'int']], type: 'EXTERNAL_TABLE', params: { EXTERNAL: 'TRUE' },
                      location: `file:${dir}` }),
  typed: table('typed', { columns: [['d', 'decimal(10,2)'], ['dt', 'date'], ['b', 'boolean'], ['bin', 'binary'],
                                    ['dbl', 'double'], ['ts', 'timestamp'], ['s', 'string'], ['l', 'bigint']] }),
});

async function create(dir) {
  const { conn, client } = connect();
  const want = tables(dir);
  // Hive's own clients send the call with a context
  for (const [name, t] of Object.entries(want))
    await (name === 'mm' ? client.create_table_with_environment_context(t, new T.EnvironmentContext({ properties: {} }))
                         : client.create_table(t));
  const plain = await client.get_table('default', 'plain');
  assert.strictEqual(plain.owner, 'trino');
  assert.strictEqual(plain.tableType, 'MANAGED_TABLE');
  assert.deepStrictEqual(plain.sd.cols.map((c) => [c.name, c.type]), [['id', 'int'], ['name', 'string']]);
  assert.strictEqual(plain.sd.inputFormat, TEXT.inputFormat);
  assert.strictEqual(plain.sd.serdeInfo.serializationLib, TEXT.serde);
  assert.ok(plain.sd.location.endsWith('/plain'), plain.sd.location);
  assert.ok(Number(plain.parameters.transient_lastDdlTime) > 0, 'the DDL time');
  assert.strictEqual(plain.parameters.transactional, undefined);
  assert.strictEqual(plain.parameters.comment, 'made by trino');

  const parts = await client.get_table('default', 'parts');
  assert.deepStrictEqual(parts.partitionKeys.map((c) => [c.name, c.type]), [['day', 'string']]);
  assert.strictEqual(parts.parameters.transactional, 'true');
  assert.strictEqual(parts.parameters.transactional_properties, 'default');
  assert.strictEqual(parts.sd.serdeInfo.serializationLib, ORC.serde);

  const acid = await client.get_table('default', 'acid');
  assert.strictEqual(acid.sd.numBuckets, 2);
  assert.deepStrictEqual(acid.sd.bucketCols, ['id']);
  assert.strictEqual(acid.parameters.bucketing_version, '2');
  assert.strictEqual(acid.sd.cols[1].type, 'varchar(10)');

  const mm = await client.get_table('default', 'mm');
  assert.strictEqual(mm.parameters.transactional_properties, 'insert_only');
  const ext = await client.get_table('default', 'ext');
  assert.strictEqual(ext.tableType, 'EXTERNAL_TABLE');
  assert.strictEqual(ext.sd.location, dir);
  const typed = await client.get_table('default', 'typed');
  assert.deepStrictEqual(typed.sd.cols.map((c) => c.type),
                         ['decimal(10,2)', 'date', 'boolean', 'binary', 'double', 'timestamp', 'string', 'bigint']);
  const names = await client.get_all_tables('default');
  for (const n of Object.keys(want))
    assert.ok(names.includes(n), `${n} in ${names}`);
  conn.end();
}

async function errors(dir) {
  const { conn, client } = connect();
  const cs = [['a', 'int']];
  await fails(client.create_table(table('acid', { columns: cs })), T.AlreadyExistsException,
              'Table hive.default.acid already exists');
  await fails(client.create_table(table('x', { columns: cs, db: 'nodb' })), T.InvalidObjectException,
              'database hive.nodb');
  const bad = await fails(client.create_table(table('x', { columns: [['a', 'integr']] })), T.InvalidObjectException);
  assert.ok(bad.message.startsWith('Invalid column type: integr of column a'), bad.message);
  await fails(client.create_table(table('x', { columns: [['a', 'uniontype<int,string>']] })), T.InvalidObjectException,
              'Invalid column type: uniontype<int,string> of column a (comb does not store union types)');
  await fails(client.create_table(table('bad-name', { columns: cs })), T.InvalidObjectException,
              'bad-name is not a valid object name');
  const parquet = {
    inputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat',
    outputFormat: 'org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat',
    serde: 'org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe',
  };
  await fails(client.create_table(table('x', { columns: cs, format: parquet })), T.InvalidObjectException,
              'comb stores ORC and text tables only, not input format ' + parquet.inputFormat);
  await fails(client.create_table(table('x', { columns: cs, format: { ...ORC, serde: TEXT.serde } })),
              T.InvalidObjectException,
              `SerDe ${TEXT.serde} is not supported for ORC tables (theirs is ${ORC.serde})`);
  await fails(client.create_table(table('x', { columns: cs, format: TEXT, params: ACID })), T.MetaException,
              'The table must be stored using an ACID compliant format (such as ORC): default.x');
  await fails(client.create_table(table('x', { columns: cs, type: 'EXTERNAL_TABLE', params: ACID, location: '/tmp/x' })),
              T.MetaException, "default.x cannot be declared transactional because it's an external table");
  await fails(client.create_table(table('x', { columns: cs, type: 'VIRTUAL_VIEW' })), T.InvalidObjectException,
              "views are made with comb's CREATE VIEW, not through the metastore service");
  await fails(client.create_table(table('x', { columns: cs, params: { bucketing_version: '3' } })),
              T.InvalidObjectException, 'bucketing_version 3 is not supported (1 and 2 are)');
  await fails(client.create_table(table('x', { columns: [['a', 'int'], ['A', 'string']] })),
              T.InvalidObjectException);
  assert.ok(!(await client.get_all_tables('default')).includes('x'), 'a refused table was made');
  // EXTERNAL=TRUE makes a table external whatever type it names, as in Hive
  await client.create_table(table('flagged', { columns: cs, params: { EXTERNAL: 'TRUE' }, location: dir }));
  assert.strictEqual((await client.get_table('default', 'flagged')).tableType, 'EXTERNAL_TABLE');
  await client.drop_table('default', 'flagged', true);
  conn.end();
}

async function alter(dir) {
  const { conn, client } = connect();
  const plain = await client.get_table('default', 'plain');
  plain.sd.cols.push(new T.FieldSchema({ name: 'extra', type: 'double', comment: 'added' }));
  plain.parameters.owner_note = 'from trino';
  await client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'plain', table: plain }));
  let got = await client.get_table('default', 'plain');
  assert.deepStrictEqual(got.sd.cols.map((c) => c.name), ['id', 'name', 'extra']);
  assert.strictEqual(got.parameters.owner_note, 'from trino');

  got.tableName = 'plain2';
  await client.alter_table_with_environment_context('default', 'plain', got,
                                                   new T.EnvironmentContext({ properties: {} }));
  await fails(client.get_table('default', 'plain'), T.NoSuchObjectException, 'hive.default.plain table not found');
  got = await client.get_table('default', 'plain2');
  assert.ok(got.sd.location.endsWith('/plain2'), got.sd.location);
  assert.strictEqual(got.parameters.owner_note, 'from trino');

  const ext = await client.get_table('default', 'ext');
  ext.sd.location = dir;
  await client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'ext', table: ext }));
  assert.strictEqual((await client.get_table('default', 'ext')).sd.location, dir);

  const acid = await client.get_table('default', 'acid');
  const dropped = await client.get_table('default', 'acid');
  dropped.sd.cols.pop();
  await fails(client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'acid', table: dropped })),
              T.InvalidOperationException,
              'comb cannot drop columns of default.acid through the metastore (columns may only be added at the end)');
  const retyped = await client.get_table('default', 'acid');
  retyped.sd.cols[0].type = 'string';
  await fails(client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'acid', table: retyped })),
              T.InvalidOperationException,
              'comb cannot change column id int of default.acid into id string (columns may only be added at the end)');
  const unset = await client.get_table('default', 'acid');
  unset.parameters.transactional = 'false';
  await fails(client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'acid', table: unset })),
              T.InvalidOperationException, "TBLPROPERTIES with 'transactional'='true' cannot be unset");
  await fails(client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'nosuch', table: acid })),
              T.InvalidOperationException, 'hive.default.nosuch table not found');
  const taken = await client.get_table('default', 'acid');
  taken.tableName = 'mm';
  taken.parameters.note = 'renamed';
  await fails(client.alter_table_req(new T.AlterTableRequest({ dbName: 'default', tableName: 'acid', table: taken })),
              T.InvalidOperationException, 'new table default.mm already exists');
  // a refused alter changes nothing, not even the part it could have done
  const after = await client.get_table('default', 'acid');
  assert.deepStrictEqual(after.sd.cols.map((c) => c.type), ['int', 'varchar(10)']);
  assert.strictEqual(after.parameters.note, undefined);
  conn.end();
}

// what comb's ANALYZE wrote for acid: ids 1, 2, 3, names 'a', 'bb', NULL
async function statsRead() {
  const { conn, client } = connect();
  const r = await client.get_table_statistics_req(new T.TableStatsRequest({
    dbName: 'default', tblName: 'acid', colNames: ['id', 'name', 'nosuch'] }));
  const by = Object.fromEntries(r.tableStats.map((o) => [o.colName, o]));
  assert.deepStrictEqual(Object.keys(by).sort(), ['id', 'name']);
  assert.strictEqual(by.id.colType, 'int');
  const id = by.id.statsData.longStats;
  assert.deepStrictEqual([Number(id.lowValue), Number(id.highValue), Number(id.numNulls), Number(id.numDVs)],
                         [1, 3, 0, 3]);
  const name = by.name.statsData.stringStats;
  assert.deepStrictEqual([Number(name.maxColLen), name.avgColLen, Number(name.numNulls), Number(name.numDVs)],
                         [2, 1.5, 1, 2]);
  await fails(client.get_table_statistics_req(new T.TableStatsRequest({ dbName: 'default', tblName: 'nosuch', colNames: ['a'] })),
              T.NoSuchObjectException, 'Specified catalog.database.table does not exist : hive.default.nosuch');
  conn.end();
}

function desc(table, objs, part) {
  return new T.ColumnStatistics({
    statsDesc: new T.ColumnStatisticsDesc({ isTblLevel: !part, dbName: 'default', tableName: table, partName: part }),
    statsObj: objs,
  });
}
const obj = (colName, colType, data) =>
  new T.ColumnStatisticsObj({ colName, colType, statsData: new T.ColumnStatisticsData(data) });

// decimal's unscaled value as BigInteger.toByteArray gives it
function unscaled(n) {
  let hex = BigInt.asUintN(64, BigInt(n)).toString(16).padStart(16, '0');
  let bytes = Buffer.from(hex, 'hex');
  while (bytes.length > 1 && ((bytes[0] === 0 && !(bytes[1] & 0x80)) || (bytes[0] === 0xff && (bytes[1] & 0x80))))
    bytes = bytes.subarray(1);
  return bytes;
}

async function statsWrite() {
  const { conn, client } = connect();
  const typed = [
    obj('d', 'decimal(10,2)', { decimalStats: new T.DecimalColumnStatsData({
      lowValue: new T.Decimal({ scale: 2, unscaled: unscaled(-1250) }),
      highValue: new T.Decimal({ scale: 2, unscaled: unscaled(99999) }), numNulls: 1, numDVs: 7 }) }),
    obj('dt', 'date', { dateStats: new T.DateColumnStatsData({
      lowValue: new T.Date({ daysSinceEpoch: 0 }), highValue: new T.Date({ daysSinceEpoch: 19000 }), numNulls: 0, numDVs: 3 }) }),
    obj('b', 'boolean', { booleanStats: new T.BooleanColumnStatsData({ numTrues: 4, numFalses: 5, numNulls: 6 }) }),
    obj('bin', 'binary', { binaryStats: new T.BinaryColumnStatsData({ maxColLen: 9, avgColLen: 4.5, numNulls: 2 }) }),
    obj('dbl', 'double', { doubleStats: new T.DoubleColumnStatsData({ lowValue: -0.5, highValue: 1e10, numNulls: 0, numDVs: 11 }) }),
    obj('ts', 'timestamp', { timestampStats: new T.TimestampColumnStatsData({
      lowValue: new T.Timestamp({ secondsSinceEpoch: 86400 }), highValue: new T.Timestamp({ secondsSinceEpoch: 1700000000 }),
      numNulls: 3, numDVs: 2 }) }),
    obj('s', 'string', { stringStats: new T.StringColumnStatsData({ maxColLen: 20, avgColLen: 6.25, numNulls: 1, numDVs: 12 }) }),
    obj('l', 'bigint', { longStats: new T.LongColumnStatsData({ lowValue: -5, highValue: 123456789012, numNulls: 0, numDVs: 100 }) }),
  ];
  assert.strictEqual(await client.update_table_column_statistics(desc('typed', typed)), true);
  const r = await client.get_table_statistics_req(new T.TableStatsRequest({
    dbName: 'default', tblName: 'typed', colNames: typed.map((o) => o.colName) }));
  const by = Object.fromEntries(r.tableStats.map((o) => [o.colName, o.statsData]));
  const d = by.d.decimalStats;
  // kept as text in Hive's normalized form: -12.50 comes back as -12.5
  assert.deepStrictEqual([d.lowValue.scale, Buffer.from(d.lowValue.unscaled).toString('hex')], [1, unscaled(-125).toString('hex')]);
  assert.deepStrictEqual([d.highValue.scale, Buffer.from(d.highValue.unscaled).toString('hex')], [2, unscaled(99999).toString('hex')]);
  assert.deepStrictEqual([Number(d.numNulls), Number(d.numDVs)], [1, 7]);
  assert.deepStrictEqual([Number(by.dt.dateStats.lowValue.daysSinceEpoch), Number(by.dt.dateStats.highValue.daysSinceEpoch)], [0, 19000]);
  assert.deepStrictEqual([by.b.booleanStats.numTrues, by.b.booleanStats.numFalses, by.b.booleanStats.numNulls].map(Number), [4, 5, 6]);
  assert.deepStrictEqual([Number(by.bin.binaryStats.maxColLen), by.bin.binaryStats.avgColLen], [9, 4.5]);
  assert.deepStrictEqual([by.dbl.doubleStats.lowValue, by.dbl.doubleStats.highValue, Number(by.dbl.doubleStats.numDVs)], [-0.5, 1e10, 11]);
  assert.deepStrictEqual([Number(by.ts.timestampStats.lowValue.secondsSinceEpoch),
                          Number(by.ts.timestampStats.highValue.secondsSinceEpoch)], [86400, 1700000000]);
  assert.deepStrictEqual([Number(by.s.stringStats.maxColLen), by.s.stringStats.avgColLen, Number(by.s.stringStats.numDVs)], [20, 6.25, 12]);
  assert.deepStrictEqual([Number(by.l.longStats.lowValue), Number(by.l.longStats.highValue)], [-5, 123456789012]);

  // a partition's (comb's SQL inserted into day='d1' and day='d2')
  const part = [obj('id', 'bigint', { longStats: new T.LongColumnStatsData({ lowValue: 10, highValue: 20, numNulls: 0, numDVs: 2 }) })];
  assert.strictEqual(await client.update_partition_column_statistics(desc('parts', part, 'day=d1')), true);
  const p = await client.get_partitions_statistics_req(new T.PartitionsStatsRequest({
    dbName: 'default', tblName: 'parts', colNames: ['id', 'v'], partNames: ['day=d1', 'day=d2', 'day=none'] }));
  // d2's are those comb's INSERT gathered; d1's id is the one just written
  assert.deepStrictEqual(Object.keys(p.partStats).sort(), ['day=d1', 'day=d2']);
  const d1 = Object.fromEntries(p.partStats['day=d1'].map((o) => [o.colName, o.statsData]));
  assert.deepStrictEqual([Number(d1.id.longStats.lowValue), Number(d1.id.longStats.highValue)], [10, 20]);
  const d2 = Object.fromEntries(p.partStats['day=d2'].map((o) => [o.colName, o.statsData]));
  assert.deepStrictEqual([Number(d2.id.longStats.lowValue), Number(d2.id.longStats.highValue)], [30, 30]);
  assert.strictEqual(Number(d2.v.stringStats.maxColLen), 1);

  const long = (lo, hi) => ({ longStats: new T.LongColumnStatsData({ lowValue: lo, highValue: hi, numNulls: 0, numDVs: 1 }) });
  await fails(client.update_table_column_statistics(desc('typed', [obj('nosuch', 'int', long(1, 2))])),
              T.MetaException, 'Column nosuch doesn\'t exist in table typed in database default');
  await fails(client.update_table_column_statistics(desc('typed', [obj('s', 'string', long(1, 2))])),
              T.InvalidObjectException, 'column s of type string takes stringStats, not longStats');
  await fails(client.update_table_column_statistics(desc('nosuch', [obj('a', 'int', long(1, 2))])),
              T.NoSuchObjectException, 'Specified catalog.database.table does not exist : hive.default.nosuch');
  await fails(client.update_partition_column_statistics(desc('parts', part, 'day=none')),
              T.NoSuchObjectException, 'Partition for which stats is gathered doesn\'t exist.');
  // a refused call stores nothing, also of its good columns
  await fails(client.update_table_column_statistics(desc('typed', [obj('l', 'bigint', long(7, 8)), obj('s', 'string', long(1, 2))])),
              T.InvalidObjectException);
  const l = await client.get_table_statistics_req(new T.TableStatsRequest({ dbName: 'default', tblName: 'typed', colNames: ['l'] }));
  assert.strictEqual(Number(l.tableStats[0].statsData.longStats.lowValue), -5);
  conn.end();
}

async function drop() {
  const { conn, client } = connect();
  await client.drop_table('default', 'mm', true);
  await client.drop_table('default', 'acid', false);
  await client.drop_table_with_environment_context('default', 'ext', true, new T.EnvironmentContext({ properties: {} }));
  await fails(client.drop_table('default', 'mm', true), T.NoSuchObjectException, 'hive.default.mm table not found');
  await fails(client.get_table('default', 'acid'), T.NoSuchObjectException, 'hive.default.acid table not found');
  const names = await client.get_all_tables('default');
  assert.ok(!names.includes('mm') && !names.includes('ext') && names.includes('plain2'), `${names}`);
  conn.end();
}

const modes = { create: () => create(arg), errors: () => errors(arg), alter: () => alter(arg), stats_read: statsRead,
                stats_write: statsWrite, drop };
(async () => {
  if (!modes[mode])
    throw new Error(`unknown mode ${mode}`);
  await modes[mode]();
  console.log('# hms_tables: every check ran');
})().catch((e) => { console.error(e); process.exit(1); });
