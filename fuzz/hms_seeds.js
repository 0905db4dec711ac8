// The seeds of fuzz/corpus/hms_decode: a proxy between the tests'
// metastore client (tests/server/hms.js) and `comb metastore` that keeps
// what each connection's client sent, as DIR/PREFIX_N (one connection's
// calls, framed or buffered as the client spoke them).
//   node fuzz/hms_seeds.js LISTEN_PORT SERVICE_PORT DIR PREFIX
// It prints "listening" once ready and runs until killed.
const net = require('net');
const fs = require('fs');
const path = require('path');

const [listenPort, servicePort, dir, prefix] = process.argv.slice(2);
let n = 0;
net.createServer((client) => {
  const chunks = [];
  const file = path.join(dir, `${prefix}_${++n}`);
  const service = net.connect(Number(servicePort), '127.0.0.1');
  client.on('data', (d) => { chunks.push(d); service.write(d); });
  service.on('data', (d) => client.write(d));
  // the file is written when the client hangs up: the whole conversation
  client.on('close', () => { fs.writeFileSync(file, Buffer.concat(chunks)); service.destroy(); });
  service.on('close', () => client.destroy());
  client.on('error', () => {});
  service.on('error', () => {});
}).listen(Number(listenPort), '127.0.0.1', () => console.log('listening'));
