/**
 * PostgreSQL ends every connection of a running service: a restart, a failover, an administrator's
 * pg_terminate_backend, a proxy's idle cut. The process must stay up and go on: the pool drops the
 * dead idle connections and opens new ones, the job queue and the work listener reconnect. Before,
 * the pool's 'error' event for an idle connection had no listener, and Node made it an uncaught
 * exception: the service stopped. PostgreSQL only (the embedded database has no connections to
 * lose): it runs in the PostgreSQL pass of the suite.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { HttpClient, newWorkspace, startServer, waitUntil } from '../drills/_lib.ts';
import { ownDatabaseEnv } from './helpers/own-server.ts';
import { relayTo } from './helpers/tcp-relay.ts';

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Ends every connection to `databaseUrl`'s database but the caller's own; how many it ended. */
async function terminateAll(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
       where datname = current_database() and pid <> pg_backend_pid()`,
    );
    return rows.filter((r) => r.ended).length;
  } finally {
    await client.end();
  }
}

if (process.env.DATABASE_URL) {
  test('PostgreSQL ends every connection, then is unreachable for a while: the process stays up, answers 503 meanwhile, then answers and runs its jobs again', {
    timeout: 120_000,
  }, async () => {
    const dbEnv = await ownDatabaseEnv('connection-loss', cleanups);
    // the service reaches PostgreSQL through a relay, which the outage below takes down
    const { relay, url } = await relayTo(dbEnv.DATABASE_URL as string, 5432);
    cleanups.push(() => relay.down());
    const env = { ...dbEnv, DATABASE_URL: url, LOG_LEVEL: 'info' };
    const server = await startServer({ env });
    cleanups.push(() => server.kill9());
    const ws = await newWorkspace(server, 'connection loss');
    const api = new HttpClient(server.base, ws.client.headers);
    // a few requests at once: the pool holds several idle connections afterwards
    const created = await Promise.all(
      Array.from({ length: 4 }, (_, n) =>
        api.post('/v1/cases', { name: `Before ${n}`, companies: [{ name: `Before ${n} SAS` }] }),
      ),
    );
    assert.deepEqual(
      created.map((r) => r.status),
      [201, 201, 201, 201],
    );

    const ended = await terminateAll(dbEnv.DATABASE_URL as string);
    assert.ok(ended >= 2, `${ended} connections ended`);
    assert.ok(
      await waitUntil(
        async () => server.output().includes('a database connection was closed by the server'),
        30_000,
      ),
      server.output().slice(-4000),
    );
    assert.equal(server.child.exitCode, null, server.output().slice(-4000));

    // the API answers again with new connections (a request that had taken a connection about to be
    // ended may fail once, hence the wait)
    assert.ok(
      await waitUntil(async () => (await api.get('/v1/cases')).status === 200, 30_000),
      server.output().slice(-4000),
    );
    const list = await api.get('/v1/cases');
    assert.equal(list.body.pagination.count, 4, JSON.stringify(list.body));

    // a check is created, and its provider job runs through the reconnected queue to a result
    const companyId = created[0].body.companies[0].id;
    const check = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.ok(
      await waitUntil(
        async () =>
          (await api.get(`/v1/checks/online_reputation/${check.body.id}`)).body.status !== 'processing',
        60_000,
      ),
      'the check left processing',
    );
    const done = await api.get(`/v1/checks/online_reputation/${check.body.id}`);
    assert.equal(done.body.status, 'approved', JSON.stringify(done.body));

    // an outage: every connection cut and none taken. Requests are answered 503 with retry-after
    // (not 500, not left hanging), readiness says the database fails, liveness stays 200
    await relay.down();
    const during = await fetch(`${server.base}/v1/cases`, { headers: ws.client.headers });
    const duringBody = (await during.json()) as { code: string; message: string };
    assert.equal(during.status, 503, JSON.stringify(duringBody));
    assert.equal(duringBody.code, 'SERVICE_UNAVAILABLE');
    assert.equal(duringBody.message, 'The database is unavailable; try again shortly');
    assert.equal(during.headers.get('retry-after'), '5');
    const stranger = await new HttpClient(server.base, {
      'x-service-api-key': 'vk_not_cached_0123456789abcdefghijklmn',
    }).get('/v1/cases');
    assert.equal(stranger.status, 503, JSON.stringify(stranger.body));
    const ready = await fetch(`${server.base}/readyz`);
    assert.equal(ready.status, 503);
    assert.equal(
      ((await ready.json()) as { checks: { database: { status: string } } }).checks.database.status,
      'fail',
    );
    assert.equal((await fetch(`${server.base}/healthz`)).status, 200);

    // the background loops keep trying meanwhile (the webhook loop every half second, the work
    // listener every second, the due-job sweep every 2 s): each failure episode is logged once
    await new Promise((r) => setTimeout(r, 3000));

    // back: the same process answers again, nothing restarted
    await relay.up();
    assert.ok(
      await waitUntil(async () => (await api.get('/v1/cases')).status === 200, 30_000),
      server.output().slice(-4000),
    );
    assert.ok(await waitUntil(async () => (await fetch(`${server.base}/readyz`)).status === 200, 30_000));
    const after = await api.post('/v1/cases', { name: 'After the outage' });
    assert.equal(after.status, 201, JSON.stringify(after.body));

    assert.ok(
      await waitUntil(
        async () => server.output().includes('work listener lost its connection: reconnecting: recovered'),
        30_000,
      ),
      'the work listener logs its recovery',
    );
    // two episodes (the connections ended, then the outage), one line each at most per loop
    const lines = server.output().split('\n');
    for (const loop of [
      'work listener lost its connection: reconnecting (repeats',
      'webhook delivery loop error (repeats',
      'job queue: the sweep for due jobs failed (repeats',
      'job queue error (repeats',
    ]) {
      const n = lines.filter((l) => l.includes(loop)).length;
      assert.ok(n <= 2, `${loop}: ${n} lines`);
    }

    assert.equal(server.child.exitCode, null);
    assert.equal(await server.stop(), 0, server.output().slice(-4000));
  });
}

if (process.env.DATABASE_URL) {
  test('PostgreSQL stalls (connections open, nothing answered): requests are answered 503 once their time is up, not held for the stall, logged once, and the service goes on when it ends', {
    timeout: 120_000,
  }, async () => {
    const dbEnv = await ownDatabaseEnv('connection-stall', cleanups);
    const { relay, url } = await relayTo(dbEnv.DATABASE_URL as string, 5432);
    cleanups.push(() => relay.down());
    const env = {
      ...dbEnv,
      DATABASE_URL: url,
      LOG_LEVEL: 'info',
      VERICASE_DB_CONNECT_TIMEOUT_MS: '1000',
      VERICASE_DB_QUERY_TIMEOUT_MS: '1500',
    };
    const server = await startServer({ env });
    cleanups.push(() => server.kill9());
    const ws = await newWorkspace(server, 'connection stall');
    const api = new HttpClient(server.base, ws.client.headers);
    const before = await api.post('/v1/cases', {
      name: 'Before the stall',
      companies: [{ name: 'Before SAS' }],
    });
    assert.equal(before.status, 201, JSON.stringify(before.body));

    relay.stall();
    // more requests than the pool has connections (4 on a local database): some wait for a statement
    // that is never answered, the others for a connection that never comes free or never opens. A
    // request still held when the stall ends would fail this test on fetch's own deadline, not wait.
    const held = async (init: RequestInit & { path: string }) => {
      const res = await fetch(`${server.base}${init.path}`, {
        ...init,
        headers: { ...ws.client.headers, 'content-type': 'application/json' },
        signal: AbortSignal.timeout(20_000),
      });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as any,
      };
    };
    const during = await Promise.all([
      ...Array.from({ length: 8 }, () => held({ path: '/v1/cases' })),
      held({
        path: '/v1/cases',
        method: 'POST',
        body: JSON.stringify({ name: 'During the stall', companies: [{ name: 'During SAS' }] }),
      }),
    ]);
    for (const r of during) {
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.equal(r.body.code, 'SERVICE_UNAVAILABLE');
      assert.equal(r.body.message, 'The database did not answer in time; try again shortly');
      assert.equal(r.retryAfter, '5');
    }
    // one line with the error for the whole episode, then the count of the others in one line
    assert.ok(
      await waitUntil(async () => server.output().includes('more requests answered 503'), 30_000),
      server.output().slice(-4000),
    );
    const lines = server.output().split('\n');
    const first = lines.filter((l) =>
      l.includes('the database did not answer in time (the requests it refuses'),
    );
    assert.equal(first.length, 1, first.join('\n'));
    assert.match(first[0], /"code":"VERICASE_DB_TIMEOUT"/);
    const counted = lines.filter((l) => l.includes('the database did not answer in time: '));
    assert.equal(counted.length, 1, counted.join('\n'));
    assert.equal(JSON.parse(counted[0]).refused, during.length - 1);
    // the connections the deadline cut are not reported as closed by the server
    assert.ok(!server.output().includes('a database connection was closed by the server'));

    relay.flow();
    assert.ok(
      await waitUntil(async () => (await api.get('/v1/cases')).status === 200, 30_000),
      server.output().slice(-4000),
    );
    // the create refused during the stall wrote nothing: its transaction never committed
    const list = await api.get('/v1/cases');
    assert.deepEqual(
      list.body.data.map((c: { name: string }) => c.name),
      ['Before the stall'],
    );
    const after = await api.post('/v1/cases', { name: 'After the stall' });
    assert.equal(after.status, 201, JSON.stringify(after.body));
    assert.ok(await waitUntil(async () => (await fetch(`${server.base}/readyz`)).status === 200, 30_000));
    assert.equal(server.child.exitCode, null);
    assert.equal(await server.stop(), 0, server.output().slice(-4000));
  });
}

if (process.env.DATABASE_URL) {
  test('a COMMIT PostgreSQL does not confirm in time is a 503 saying the change may have been recorded, and it may have been', {
    timeout: 120_000,
  }, async () => {
    const dbEnv = await ownDatabaseEnv('slow-commit', cleanups);
    const env = { ...dbEnv, LOG_LEVEL: 'info', VERICASE_DB_QUERY_TIMEOUT_MS: '1500' };
    const server = await startServer({ env });
    cleanups.push(() => server.kill9());
    const ws = await newWorkspace(server, 'slow commit');
    const api = new HttpClient(server.base, ws.client.headers);
    // A COMMIT that takes 4 s for one case (a synchronous standby that lags does the same to every
    // COMMIT): a deferred trigger sleeps at commit time. PostgreSQL finishes it even though the
    // client has gone, so the case is recorded after its request was answered 503.
    const admin = new pg.Client({ connectionString: dbEnv.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`
        create function test_slow_commit() returns trigger language plpgsql as $$
        begin if new.name = 'Slow commit' then perform pg_sleep(4); end if; return null; end $$;
        create constraint trigger test_slow_commit after insert on cases
          deferrable initially deferred for each row execute function test_slow_commit();`);
    } finally {
      await admin.end();
    }
    const res = await fetch(`${server.base}/v1/cases`, {
      method: 'POST',
      headers: { ...ws.client.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Slow commit', external_id: 'slow-commit-1' }),
      signal: AbortSignal.timeout(20_000),
    });
    const slow = (await res.json()) as { message: string };
    assert.equal(res.status, 503, JSON.stringify(slow));
    assert.equal(
      slow.message,
      'The database did not confirm the change in time: it may or may not have been recorded. Read it back before trying again',
    );
    assert.equal(res.headers.get('retry-after'), '5');
    // read back, as the message says: it was recorded once the COMMIT finished
    assert.ok(
      await waitUntil(
        async () => (await api.get('/v1/cases?external_id=slow-commit-1')).body.data?.length === 1,
        30_000,
      ),
      server.output().slice(-4000),
    );
    const quick = await api.post('/v1/cases', { name: 'Quick commit' });
    assert.equal(quick.status, 201, JSON.stringify(quick.body));
    assert.equal(await server.stop(), 0, server.output().slice(-4000));
  });
}
