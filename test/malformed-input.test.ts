import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * Bad input never hurts: every route of the OpenAPI document gets a set of malformed bodies,
 * parameters and query strings, and must answer with a 4xx and the error body, never a 5xx.
 */
const BODIES: unknown[] = [
  null,
  [],
  'text',
  42,
  { id: 'x' },
  { name: 123, case_id: 'not-a-uuid', individual_id: {}, company_id: [], tags: 'a', status: 7 },
  { case_id: '00000000-0000-4000-8000-000000000000', individual_id: '00000000-0000-4000-8000-000000000000' },
  { name: 'x'.repeat(100_000) },
  { a: { b: { c: { d: { e: { f: [1, [2, [3, [4]]]] } } } } } },
  { settings: { vendor: 'nope' }, data: { front_upload_ref: 12 } },
  { action: 'approve', hit_ids: 'h1', since: 'yesterday', url: 'ftp://x', events: ['Nope.Event'] },
];

describe('malformed input', () => {
  test('never a 5xx, always the error body', async () => {
    const { app } = await getHarness();
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const ids = ['not-a-uuid', '00000000-0000-4000-8000-000000000000', c.id, "1' or '1'='1", '%00'];
    let calls = 0;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!path.startsWith('/v1/')) continue;
      for (const method of Object.keys(ops)) {
        const m = method.toUpperCase();
        for (const id of path.includes('{') ? ids : ['']) {
          const url = path.replace(/\{\w+\}/g, encodeURIComponent(id));
          const variants: { url: string; body?: unknown; raw?: string }[] = [
            { url: `${url}?page=-1&limit=abc&sort=;drop&created_at.gt=never&name.regex=x&tags.in=` },
          ];
          if (m !== 'GET') {
            for (const body of BODIES) variants.push({ url, body });
            variants.push({ url, raw: '{"unterminated": ' });
          }
          for (const v of variants) {
            const res = await app.inject({
              method: m as 'POST',
              url: v.url,
              headers: { 'x-service-api-key': api.key, 'content-type': 'application/json' },
              ...(v.raw !== undefined
                ? { payload: v.raw }
                : v.body !== undefined
                  ? { payload: JSON.stringify(v.body) }
                  : {}),
            });
            calls++;
            assert.ok(
              res.statusCode < 500,
              `${m} ${v.url} ${JSON.stringify(v.body ?? v.raw)?.slice(0, 80)} → ${res.statusCode} ${res.body.slice(0, 300)}`,
            );
            if (res.statusCode >= 400) {
              const body = res.json();
              assert.equal(body.status_code, res.statusCode, `${m} ${v.url}`);
              assert.ok(body.code && body.message && body.timestamp, `${m} ${v.url}: ${res.body}`);
            }
          }
        }
      }
    }
    assert.ok(calls > 500, `${calls} calls`);
  });
});
