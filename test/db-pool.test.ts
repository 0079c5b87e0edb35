import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { HttpClient, newWorkspace } from '../drills/_lib.ts';
import { startOwnServer } from './helpers/own-server.ts';

/**
 * VERICASE_DB_POOL_MAX bounds the application's PostgreSQL pool: under more concurrent requests
 * than connections, every request is answered and the pool never grows past the setting, as
 * `GET /metrics` reports it. The embedded database is one connection whatever the setting.
 */
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** `vericase_db_pool_connections{state=...}` from the metrics text. */
async function poolGauges(base: string): Promise<Record<string, number>> {
  const res = await fetch(`${base}/metrics`);
  assert.equal(res.status, 200);
  const gauges: Record<string, number> = {};
  for (const m of (await res.text()).matchAll(/^vericase_db_pool_connections\{state="(\w+)"\} (\d+)$/gm))
    gauges[m[1] as string] = Number(m[2]);
  return gauges;
}

test('VERICASE_DB_POOL_MAX=3: 24 concurrent requests all answered, the pool stays at 3 connections', {
  timeout: 120_000,
}, async () => {
  const server = await startOwnServer('db-pool', { VERICASE_DB_POOL_MAX: '3' }, cleanups);
  const ws = await newWorkspace(server, 'pool');
  const api = new HttpClient(server.base, ws.client.headers);
  const created = await Promise.all(
    Array.from({ length: 12 }, (_, n) =>
      api.post('/v1/cases', { name: `Pool ${n}`, external_id: `pool-${n}` }),
    ),
  );
  assert.deepEqual(
    created.map((r) => r.status),
    Array(12).fill(201),
  );
  const listed = await Promise.all(Array.from({ length: 12 }, () => api.get('/v1/cases?limit=50')));
  for (const r of listed) assert.equal(r.body.pagination.count, 12);

  const gauges = await poolGauges(server.base);
  const expectedMax = process.env.DATABASE_URL ? 3 : 1;
  assert.equal(gauges.max, expectedMax, JSON.stringify(gauges));
  assert.ok(gauges.total !== undefined && gauges.total <= expectedMax, JSON.stringify(gauges));
  assert.equal(await server.stop(), 0, server.output().slice(-4000));
});
