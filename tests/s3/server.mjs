// The object-store tests' S3 server: s3rver on a fresh temporary directory,
// and in front of it a proxy that
//  - checks every request's AWS Signature Version 4 with aws4 (an
//    implementation independent of comb's libcurl), and the payload hash
//    against the body; a mismatch is answered 403 and recorded;
//  - counts requests by kind and bytes each way, and the most in flight
//    at once;
//  - injects faults on request: 503 SlowDown, slow answers, dropped
//    connections (before or after the request reached the server).
// Control (not forwarded): GET /__harness/stats, POST /__harness/reset,
// POST /__harness/faults?spec=503=0.1,slow=0.05,drop=0.05,put503=0.2,seed=7
// (or off) [&only=REGEX: only to the requests whose "METHOD URL" matches],
// POST /__harness/mirror?op=pull|push&bucket=B&prefix=P&dir=D (mirror.mjs,
// its requests through this proxy like any client's).
//   node --openssl-legacy-provider server.mjs BUCKET...
// (s3rver's continuation tokens use DES, which OpenSSL 3 keeps in its
// legacy provider.)  Prints "ready <proxy port> <s3rver port>".
import S3rver from 's3rver';
import aws4 from 'aws4';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { mirror } from './mirror.mjs';

const KEY = 'S3RVER';
const SECRET = 'S3RVER';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comb-s3-'));
const s3 = new S3rver({
  port: 0, address: '127.0.0.1', directory: dir, silent: true,
  configureBuckets: process.argv.slice(2).map(name => ({ name })),
});
const { port: s3port } = await s3.run();

let stats, faults = null, rnd = null, inFlight = 0, only = null;
function reset() {
  stats = { requests: 0, kinds: {}, bytes_in: 0, bytes_out: 0, max_in_flight: 0,
            injected: { '503': 0, slow: 0, drop: 0 }, mismatches: [],
            recent: [] };
}
reset();

// mulberry32: a small seeded generator, so a failing run can be repeated
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function setFaults(spec) {
  if (!spec || spec === 'off') { faults = null; return; }
  const f = { '503': 0, slow: 0, drop: 0, put503: 0, seed: 1 };
  for (const part of spec.split(',')) {
    const [k, v] = part.split('=');
    if (!(k in f) || Number.isNaN(Number(v))) throw new Error(`bad fault ${part}`);
    f[k] = Number(v);
  }
  faults = f;
  rnd = seeded(f.seed);
}

function kindOf(req) {
  const q = new URL(req.url, 'http://x').searchParams;
  const m = req.method;
  if (m === 'GET') return q.has('list-type') || q.has('prefix') ? 'list'
    : req.headers.range ? 'get_range' : 'get';
  if (m === 'PUT') return req.headers['x-amz-copy-source'] ? 'copy'
    : q.has('partNumber') ? 'put_part' : 'put';
  if (m === 'POST') return q.has('uploads') ? 'mpu_start'
    : q.has('uploadId') ? 'mpu_complete' : q.has('delete') ? 'delete_many' : 'post';
  if (m === 'DELETE') return q.has('uploadId') ? 'mpu_abort' : 'delete';
  return m.toLowerCase();
}

const AUTH = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^, ]+), ?Signature=([0-9a-f]{64})$/;

// Why the request's signature is wrong, or null when it is right.
function badSignature(req, body) {
  const auth = req.headers.authorization;
  if (!auth) return 'no Authorization header';
  const m = AUTH.exec(auth);
  if (!m) return `malformed Authorization: ${auth.replace(/Signature=.*/, '')}`;
  const [, key, date, region, service, signedList, signature] = m;
  if (key !== KEY || service !== 's3') return `credential ${key}/${service}`;
  const names = signedList.split(';');
  const headers = {};
  for (const n of names) {
    if (req.headers[n] === undefined) return `signed header ${n} is missing`;
    headers[n] = req.headers[n];
  }
  for (const need of ['host', 'x-amz-date', 'x-amz-content-sha256'])
    if (!names.includes(need)) return `${need} is not signed`;
  if (!headers['x-amz-date'].startsWith(date)) return 'x-amz-date and credential date differ';
  const hash = crypto.createHash('sha256').update(body).digest('hex');
  if (headers['x-amz-content-sha256'] !== hash)
    return `x-amz-content-sha256 ${headers['x-amz-content-sha256']} is not the body's ${hash}`;
  const signer = new aws4.RequestSigner({
    method: req.method, host: req.headers.host, path: req.url, headers, body,
    service, region, doNotModifyHeaders: true,
    extraHeadersToInclude: Object.fromEntries(names.map(n => [n, true])),
  }, { accessKeyId: KEY, secretAccessKey: SECRET });
  signer.datetime = headers['x-amz-date'];
  if (signer.signedHeaders() !== signedList) return `signed headers ${signedList} vs ${signer.signedHeaders()}`;
  const want = signer.signature();
  return want === signature ? null : `signature ${signature} is not aws4's ${want}`;
}

function control(req, res) {
  const u = new URL(req.url, 'http://x');
  const reply = (code, obj) => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(obj));
  };
  if (u.pathname === '/__harness/mirror' && req.method === 'POST') {
    const q = u.searchParams;
    mirror(q.get('op'), `http://127.0.0.1:${proxy.address().port}`, q.get('bucket'),
           q.get('prefix'), q.get('dir'), { accessKeyId: KEY, secretAccessKey: SECRET })
      .then(() => reply(200, {}), e => reply(500, { error: String(e.message) }));
    return;
  }
  try {
    if (u.pathname === '/__harness/stats') return reply(200, stats);
    if (u.pathname === '/__harness/reset' && req.method === 'POST') { reset(); return reply(200, {}); }
    if (u.pathname === '/__harness/faults' && req.method === 'POST') {
      setFaults(u.searchParams.get('spec'));
      only = u.searchParams.get('only') ? new RegExp(u.searchParams.get('only')) : null;
      return reply(200, { faults });
    }
  } catch (e) { return reply(400, { error: String(e.message) }); }
  return reply(404, { error: 'unknown control' });
}

function slowDown(res) {
  res.writeHead(503, { 'content-type': 'application/xml' });
  res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SlowDown</Code>' +
          '<Message>Please reduce your request rate.</Message></Error>');
}

function forward(req, res, body, dropAfter) {
  const up = http.request({ host: '127.0.0.1', port: s3port, method: req.method,
                            path: req.url, headers: req.headers }, ur => {
    const chunks = [];
    ur.on('data', c => chunks.push(c));
    ur.on('end', () => {
      const out = Buffer.concat(chunks);
      if (dropAfter) { req.socket.destroy(); return; }
      stats.bytes_out += out.length;
      res.writeHead(ur.statusCode, ur.headers);
      res.end(out);
    });
  });
  up.on('error', e => { res.writeHead(502); res.end(String(e.message)); });
  up.end(body);
}

function handle(req, res, body) {
  if (req.url.startsWith('/__harness/')) return control(req, res);
  stats.requests++;
  const kind = kindOf(req);
  stats.kinds[kind] = (stats.kinds[kind] || 0) + 1;
  stats.bytes_in += body.length;
  // the last requests, for a failing test to show
  stats.recent.push(`${req.method} ${req.url}${req.headers.range ? ' ' + req.headers.range : ''}`);
  if (stats.recent.length > 200) stats.recent.shift();
  const bad = badSignature(req, body);
  if (bad) {
    stats.mismatches.push(`${req.method} ${req.url}: ${bad}`);
    res.writeHead(403, { 'content-type': 'application/xml' });
    return res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch' +
                   `</Code><Message>harness: ${bad}</Message></Error>`);
  }
  if (faults && (!only || only.test(`${req.method} ${req.url}`))) {
    // put503: uploads alone fail, so that a lost upload cannot hide
    if (req.method === 'PUT' && rnd() < faults.put503) {
      stats.injected['503']++;
      return slowDown(res);
    }
    const r = rnd();
    if (r < faults['503']) { stats.injected['503']++; return slowDown(res); }
    if (r < faults['503'] + faults.drop) {
      stats.injected.drop++;
      // half before the server saw the request, half after it acted on it
      if (rnd() < 0.5) { req.socket.destroy(); return; }
      return forward(req, res, body, true);
    }
    if (r < faults['503'] + faults.drop + faults.slow) {
      stats.injected.slow++;
      return setTimeout(() => forward(req, res, body, false), 200 + Math.floor(rnd() * 800));
    }
  }
  forward(req, res, body, false);
}

const proxy = http.createServer((req, res) => {
  if (!req.url.startsWith('/__harness/')) {
    inFlight++;
    stats.max_in_flight = Math.max(stats.max_in_flight, inFlight);
    res.on('close', () => inFlight--);
  }
  const chunks = [];
  req.on('data', c => chunks.push(c));
  req.on('end', () => handle(req, res, Buffer.concat(chunks)));
});
proxy.listen(0, '127.0.0.1', () => {
  console.log(`ready ${proxy.address().port} ${s3port}`);
});

async function stop() {
  proxy.close();
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
