// A local copy of a prefix of the test S3 server, for the golden tests
// whose "-- @sh" lines look at or change the warehouse's files with find,
// ls, cat, cp, printf...: pull before such a line, push what it changed
// after it.
//   mirror(op, endpoint, bucket, prefix, dir[, creds]), op 'pull' or
//     'push' (server.mjs runs it for POST /__harness/mirror, so a test's
//     many pulls and pushes cost no node start each), or from the shell:
//   node mirror.mjs pull|push ENDPOINT BUCKET PREFIX DIR
// pull: DIR becomes the objects under PREFIX/ (directory markers, keys
//   ending in "/", as empty directories); DIR.manifest.json records what
//   was pulled
// push: uploads the files of DIR that are new or changed since the pull,
//   deletes the objects whose files are gone, adds a marker for every new
//   directory and removes those of removed ones
// The warehouse's metastore (metastore.db*, at its top) is local: a pull
// keeps it, a push leaves it alone.
// Requests are signed with aws4 (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_REGION), so they pass the harness's proxy like comb's.
import aws4 from 'aws4';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { pathToFileURL } from 'node:url';

export async function mirror(op, endpoint, bucket, prefixArg, dir,
                             creds = { accessKeyId: process.env.AWS_ACCESS_KEY_ID,
                                       secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY }) {
  const prefix = prefixArg.replace(/\/*$/, '/');
  const base = new URL(endpoint);
  const manifestPath = `${dir}.manifest.json`;

  const localOnly = rel => /^metastore\.db/.test(rel);
  const encodeKey = key => key.split('/').map(encodeURIComponent).join('/');

  async function request(method, key, query = '', body = null) {
    const opts = aws4.sign({
      host: base.host, method, service: 's3', region: process.env.AWS_REGION || 'us-east-1',
      path: `/${bucket}/${encodeKey(key)}${query}`, ...(body ? { body } : {}),
      headers: { 'x-amz-content-sha256': crypto.createHash('sha256').update(body || '').digest('hex') },
    }, creds);
    const res = await fetch(`${base.protocol}//${base.host}${opts.path}`, {
      method, headers: opts.headers, body: body || undefined,
    });
    const data = Buffer.from(await res.arrayBuffer());
    if (!res.ok) throw new Error(`${method} ${key}: HTTP ${res.status} ${data}`);
    return data;
  }

  const unescape = s => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'").replace(/&#(\d+);/g, (_, n) => String.fromCharCode(n))
    .replace(/&amp;/g, '&');

  async function listKeys() {
    const keys = [];
    let token = null;
    do {
      const q = `?list-type=2&prefix=${encodeURIComponent(prefix)}` +
        (token ? `&continuation-token=${encodeURIComponent(token)}` : '');
      const xml = (await request('GET', '', q)).toString();
      for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(unescape(m[1]));
      const next = /<NextContinuationToken>([^<]*)</.exec(xml);
      token = /<IsTruncated>true</.test(xml) && next ? unescape(next[1]) : null;
    } while (token);
    return keys;
  }

  const md5 = file => crypto.createHash('md5').update(fs.readFileSync(file)).digest('hex');

  // files (relative path -> md5) and directories (relative, ending in "/")
  function scan() {
    const files = {}, dirs = [];
    const walk = rel => {
      for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const r = rel + e.name;
        if (localOnly(r)) continue;
        if (e.isDirectory()) { dirs.push(r + '/'); walk(r + '/'); }
        else if (e.isFile()) files[r] = md5(path.join(dir, r));
      }
    };
    if (fs.existsSync(dir)) walk('');
    return { files, dirs };
  }

  async function pull() {
    fs.mkdirSync(dir, { recursive: true });
    for (const name of fs.readdirSync(dir))
      if (!localOnly(name)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
    for (const key of await listKeys()) {
      const rel = key.slice(prefix.length);
      if (rel === '') continue;
      const target = path.join(dir, rel);
      if (rel.endsWith('/')) { fs.mkdirSync(target, { recursive: true }); continue; }
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, await request('GET', key));
    }
    fs.writeFileSync(manifestPath, JSON.stringify(scan()));
  }

  async function push() {
    const was = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
    const now = scan();
    for (const [rel, sum] of Object.entries(now.files))
      if (was.files[rel] !== sum) await request('PUT', prefix + rel, '', fs.readFileSync(path.join(dir, rel)));
    for (const rel of Object.keys(was.files))
      if (!(rel in now.files)) await request('DELETE', prefix + rel);
    const had = new Set(was.dirs), has = new Set(now.dirs);
    for (const d of now.dirs) if (!had.has(d)) await request('PUT', prefix + d, '', Buffer.alloc(0));
    for (const d of was.dirs) if (!has.has(d)) await request('DELETE', prefix + d);
    fs.writeFileSync(manifestPath, JSON.stringify(now));
  }

  if (op === 'pull') return pull();
  if (op === 'push') return push();
  throw new Error(`unknown mirror operation '${op}'`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [op, ...args] = process.argv.slice(2);
  if (!['pull', 'push'].includes(op) || args.length !== 4) {
    console.error('usage: node mirror.mjs pull|push ENDPOINT BUCKET PREFIX DIR');
    process.exit(2);
  }
  try {
    await mirror(op, ...args);
  } catch (e) {
    console.error(`mirror ${op}: ${e.message}`);
    process.exit(1);
  }
}
