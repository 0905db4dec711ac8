// Many clients of one `comb serve` at once: each connects, opens a
// session and inserts batches of rows into one shared ACID table while
// reading it; then every row inserted is there exactly once.  Writers
// that lose a write conflict retry.  Prints one line; exits 1 on a wrong
// result.
//   node concurrent.js PORT CLIENTS ROUNDS
const assert = require('node:assert/strict');
const { connect, open, run: runPaged, main } = require('./hs2.js');

const [port, clients, rounds] = process.argv.slice(2).map(Number);

async function session() {
  const client = await connect(port);
  return { client, s: await open(client) };
}

async function run(s, sql) {
  return (await runPaged(s, sql)).rows;
}

async function worker(k) {
  const { client, s } = await session();
  let seen = 0;
  for (let r = 0; r < rounds; r++) {
    const values = [];
    for (let j = 0; j < 10; j++) values.push(`(${k}, ${r}, ${j})`);
    await run(s, `INSERT INTO shared VALUES ${values.join(', ')}`);
    const [{ n }] = await run(s, `SELECT count(*) AS n FROM shared WHERE client = ${k}`);
    // a client sees all of its own committed rows, never fewer
    assert.equal(Number(n), (r + 1) * 10, `client ${k} round ${r}`);
    const [{ total }] = await run(s, 'SELECT count(*) AS total FROM shared');
    assert.ok(Number(total) >= seen, 'the table never shrinks');
    seen = Number(total);
  }
  await s.close();
  client.close();
}

main('concurrent', async () => {
  const { client, s } = await session();
  await run(s, `CREATE TABLE shared (client INT, round INT, j INT)
                STORED AS ORC TBLPROPERTIES ('transactional'='true')`);
  await Promise.all(Array.from({ length: clients }, (_, k) => worker(k)));
  const rows = await run(s, `SELECT client, count(*) AS n, count(DISTINCT round * 10 + j) AS d
                             FROM shared GROUP BY client ORDER BY client`);
  assert.equal(rows.length, clients);
  for (const r of rows) {
    assert.equal(Number(r.n), rounds * 10, `rows of client ${r.client}`);
    assert.equal(Number(r.d), rounds * 10, `distinct rows of client ${r.client}`);
  }
  await s.close();
  client.close();
  console.log(`ok - ${clients} clients, ${clients * rounds} INSERTs at once, every row once`);
});
