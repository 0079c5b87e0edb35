import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GUIDES, linkGuides } from '../src/http/docs-guides.ts';
import { getHarness } from './helpers/harness.ts';

// The guides are the docs' Markdown rendered; their links to each other (`fraud-database.md`) were
// relative file names, 404s once served under /docs/guides/.
test('every link between guides leads to a page; only docs/<name>.md is served', async () => {
  const { app } = await getHarness();
  const get = (url: string) => app.inject({ method: 'GET', url });
  const linked = new Set<string>();
  for (const g of GUIDES) {
    const res = await get(`/docs/guides/${g.name}`);
    assert.equal(res.statusCode, 200, g.name);
    assert.doesNotMatch(res.body, /href="[a-z0-9-]+\.md/, `${g.name} still links a .md file`);
    for (const m of res.body.matchAll(/href="(\/docs\/guides\/[^"#]+)/g)) linked.add(m[1]);
  }
  assert.ok(linked.has('/docs/guides/fraud-database'), [...linked].join(' '));
  // a doc named by its repository path (`docs/id-verification.md`) links to its page too
  assert.ok(linked.has('/docs/guides/id-verification'), [...linked].join(' '));
  // and every page those link to, all the way: no link out of the served docs (`../README.md`
  // was a 404 from the compatibility guide)
  const seen = new Set<string>();
  const queue = [...linked];
  while (queue.length) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await get(url);
    assert.equal(res.statusCode, 200, url);
    assert.doesNotMatch(res.body, /href="(\.\.\/|[^"#:]*\.md)/, `${url} links outside the served docs`);
    for (const m of res.body.matchAll(/href="(\/docs\/guides\/[^"#]+)/g)) queue.push(m[1]);
  }
  // the index lists every guide a user looks for (five of them were listed; templates, the CLI,
  // deployment... were reachable only through links inside other guides)
  const index = await get('/docs/guides');
  for (const name of [
    'templates',
    'cli',
    'deployment',
    'backup',
    'id-verification',
    'electronic-signature',
  ]) {
    assert.match(index.body, new RegExp(`href="/docs/guides/${name}"`), name);
  }
  for (const bad of ['nope', '..%2FREADME', 'README', '.hidden', 'a'.repeat(100)]) {
    assert.equal((await get(`/docs/guides/${bad}`)).statusCode, 404, bad);
  }
});

test('a doc named by its path becomes a link where it exists, never inside a link or a code block', () => {
  const exists = (name: string) => name === 'files';
  assert.equal(
    linkGuides('<p>see docs/files.md and <code>docs/files.md</code>; docs/nope.md stays</p>', exists),
    '<p>see <a href="/docs/guides/files">docs/files.md</a> and <code><a href="/docs/guides/files">docs/files.md</a></code>; docs/nope.md stays</p>',
  );
  const untouched = '<p><a href="/x">docs/files.md</a></p><pre><code>cat docs/files.md</code></pre>';
  assert.equal(linkGuides(untouched, exists), untouched);
  assert.equal(
    linkGuides('<a href="webhooks.md#verifying">w</a>', exists),
    '<a href="/docs/guides/webhooks#verifying">w</a>',
  );
});

// The reference's document is over 1 MB of JSON and swagger-ui's script about as much: both were
// sent uncompressed to every browser opening /docs.
test('the API reference, its script and the OpenAPI document are compressed for clients that take it', async () => {
  const { app } = await getHarness();
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  const plain = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(plain.statusCode, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  const doc = plain.json();
  for (const [encoding, decode] of [
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const) {
    for (const url of ['/v1/openapi.json', '/docs/json']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.headers['content-encoding'], encoding, url);
      assert.match(String(res.headers.vary), /accept-encoding/i, url);
      const body = JSON.parse(decode(res.rawPayload).toString('utf8'));
      assert.deepEqual(Object.keys(body.paths), Object.keys(doc.paths), url);
      assert.ok(
        res.rawPayload.length * 5 < plain.rawPayload.length,
        `${url}: ${res.rawPayload.length} bytes`,
      );
    }
  }
  const script = await app.inject({
    method: 'GET',
    url: '/docs/static/swagger-ui-bundle.js',
    headers: { 'accept-encoding': 'gzip' },
  });
  assert.equal(script.statusCode, 200);
  assert.equal(script.headers['content-encoding'], 'gzip');
  assert.match(gunzipSync(script.rawPayload).toString('utf8').slice(0, 2000), /swagger|function|!/i);
  const guide = await app.inject({
    method: 'GET',
    url: '/docs/guides/sandbox',
    headers: { 'accept-encoding': 'gzip' },
  });
  assert.equal(guide.headers['content-encoding'], 'gzip');
  assert.match(gunzipSync(guide.rawPayload).toString('utf8'), /<h1/);
  // the API itself is not compressed (no per-request cost outside the reference)
  const health = await app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'gzip' } });
  assert.equal(health.headers['content-encoding'], undefined);
});
