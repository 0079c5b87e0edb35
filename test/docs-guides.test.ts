import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GUIDES } from '../src/http/docs-guides.ts';
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
  for (const url of linked) assert.equal((await get(url)).statusCode, 200, url);
  for (const bad of ['nope', '..%2FREADME', 'README', '.hidden', 'a'.repeat(100)]) {
    assert.equal((await get(`/docs/guides/${bad}`)).statusCode, 404, bad);
  }
});
