import assert from 'node:assert/strict';
import os from 'node:os';
import { test } from 'node:test';
import { HttpClient, newWorkspace } from '../drills/_lib.ts';
import { defaultPoolMax, isLocalDatabase } from '../src/db/pool-size.ts';
import { cleanupsAfter, startOwnServer } from './helpers/own-server.ts';

/**
 * VERICASE_DB_POOL_MAX bounds the application's PostgreSQL pool: under more concurrent requests
 * than connections, every request is answered and the pool never grows past the setting, as
 * `GET /metrics` reports it. The embedded database is one connection whatever the setting.
 * Unset, the pool has two connections per CPU (at most 10) for a database on this machine, and 10
 * for one elsewhere (src/db/pool-size.ts).
 */

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
}, async (t) => {
  const cleanups = cleanupsAfter((fn) => t.after(fn));
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

test('the default pool: two connections per CPU, at most 10, for a database on this machine; 10 for one elsewhere', () => {
  const cases: [url: string, pgHost: string | undefined, local: boolean][] = [
    ['postgres://postgres@127.0.0.1:5432/test', undefined, true],
    ['postgresql://u:p@localhost/db', undefined, true],
    ['postgres://LOCALHOST/db', undefined, true],
    ['postgres://127.1.2.3/db', undefined, true],
    ['postgres://[::1]:5432/db', undefined, true],
    ['postgres://%2Fvar%2Frun%2Fpostgresql/db', undefined, true],
    ['postgres:///db?host=/var/run/postgresql', undefined, true],
    ['postgres:///db', undefined, true],
    ['postgres:///db', '/tmp', true],
    ['postgres:///db', 'db.internal', false],
    ['postgres://db.internal:5432/db', undefined, false],
    ['postgres://db/db', undefined, false],
    ['postgres://10.0.0.7/db', undefined, false],
    ['postgres://128.0.0.1/db', undefined, false],
    ['postgres://localhost.example.com/db', undefined, false],
    ['postgres://127.0.0.1/db?host=db.internal', undefined, false],
  ];
  for (const [url, pgHost, local] of cases) {
    assert.equal(isLocalDatabase(url, pgHost), local, `${url} PGHOST=${pgHost}`);
  }
  const local = 'postgres://127.0.0.1/db';
  assert.deepEqual(
    [1, 2, 3, 5, 8, 64].map((cpus) => defaultPoolMax(local, undefined, cpus)),
    [2, 4, 6, 10, 10, 10],
  );
  assert.deepEqual(
    [1, 2, 64].map((cpus) => defaultPoolMax('postgres://db.internal/db', undefined, cpus)),
    [10, 10, 10],
  );
});

test('VERICASE_DB_POOL_MAX unset: the pool of a server on this machine holds two connections per CPU, at most 10', {
  timeout: 120_000,
}, async (t) => {
  const cleanups = cleanupsAfter((fn) => t.after(fn));
  const server = await startOwnServer('db-pool-default', {}, cleanups);
  const ws = await newWorkspace(server, 'pool-default');
  const api = new HttpClient(server.base, ws.client.headers);
  const listed = await Promise.all(Array.from({ length: 24 }, () => api.get('/v1/cases?limit=5')));
  assert.deepEqual(
    listed.map((r) => r.status),
    Array(24).fill(200),
  );
  const gauges = await poolGauges(server.base);
  // the suite's PostgreSQL is on this machine unless TEST_DATABASE_URL says otherwise; the embedded
  // database is one connection
  const url = process.env.DATABASE_URL;
  const onThisMachine = url && ['127.0.0.1', 'localhost'].includes(new URL(url).hostname);
  const expectedMax = url ? (onThisMachine ? Math.min(10, 2 * os.availableParallelism()) : 10) : 1;
  assert.equal(gauges.max, expectedMax, JSON.stringify(gauges));
  assert.ok(gauges.total !== undefined && gauges.total <= expectedMax, JSON.stringify(gauges));
  assert.equal(await server.stop(), 0, server.output().slice(-4000));
});
