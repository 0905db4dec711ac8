// A result bigger than the server's memory budget for it
// (comb.server.result.memory; tests/integration/server_big_result.sh), of
// table big: rows id 0.., name 'name-<id>', x id / 2.
//   node bigresult.js PORT ROWS fetch  SELECT of its first ROWS rows, run
//       asynchronously (on a thread of the server's own), fetched in pages
//       of 10,000 and never kept whole here either: the count, the sums,
//       every name, the first and the last row
//   node bigresult.js PORT ROWS fail   the same SELECT fails with the spill
//       file's error (a server whose comb.exec.spill.dir does not exist)
const assert = require('node:assert/strict');
const { utils, connect, open, fails, main } = require('./hs2');

const [port, rows, mode] = [Number(process.argv[2]), Number(process.argv[3]),
                            process.argv[4]];
const SQL = `SELECT id, name, x FROM big WHERE id < ${rows}`;
const PAGE = 10000;

// The rows of the pages fetched so far, dropped from the operation.
function take(op) {
  const got = utils.getResult(op).getValue();
  op.flush();
  return got;
}

async function fetchChecked(session) {
  const op = await session.executeStatement(SQL, { runAsync: true });
  await utils.waitUntilReady(op, false, () => {});
  op.setMaxRows(PAGE);
  let n = 0, ids = 0, xs = 0, first = null, last = null, pages = 0;
  do {
    await op.fetch();
    for (const r of take(op)) {
      const id = Number(r.id);
      assert.equal(r.name, `name-${id}`, `row ${n}: the name`);
      if (first === null) first = r;
      last = r;
      ids += id;
      xs += Number(r.x);
      n++;
    }
    pages++;
  } while (op.hasMoreRows());
  await op.close();
  assert.equal(n, rows, 'the rows');
  assert.equal(ids, rows * (rows - 1) / 2, 'the sum of id');
  assert.equal(xs, rows * (rows - 1) / 4, 'the sum of x');
  assert.deepEqual([Number(first.id), first.name, Number(first.x)], [0, 'name-0', 0]);
  assert.deepEqual([Number(last.id), last.name, Number(last.x)],
                   [rows - 1, `name-${rows - 1}`, (rows - 1) / 2]);
  assert.ok(pages >= rows / PAGE, `pages of ${PAGE} rows: ${pages}`);
  console.log(`ok - ${n} rows in ${pages} pages, their sums, first and last row as made`);
}

main('bigresult', async () => {
  const client = await connect(port);
  const session = await open(client);
  if (mode === 'fetch') {
    await fetchChecked(session);
  } else {
    await fails(session, SQL, /the result's spill file in \S*no-such-dir \(create\): No such file or directory/);
    console.log('ok - a spill file that cannot be made fails the statement');
  }
  await session.close();
  await client.close();
});
