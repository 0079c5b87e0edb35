/**
 * PostgreSQL behind PgBouncer in transaction mode, which hands each transaction a different server
 * connection: processes starting together on an empty database all get ready, create one `default`
 * workspace and leave no advisory lock behind. Before, Kysely's migration lock (a session lock taken
 * and released in two transactions) was left held by a pooled connection, so one start waited for it
 * and another failed creating the migration table (src/db/migrate.ts). Then requests and a check's
 * job go through the pooler. PostgreSQL pass only; needs the `pgbouncer` binary (.ci/run installs
 * Debian's).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { freePort, HttpClient, type ServerProcess, startServer, waitUntil } from '../drills/_lib.ts';
import { ownDatabaseEnv } from './helpers/own-server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function pgbouncerBinary(): string | null {
  for (const candidate of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'])
    if (fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync('which', ['pgbouncer'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/** PgBouncer in transaction mode in front of `databaseUrl`'s server; its URL for the same database. */
async function startPgbouncer(binary: string, databaseUrl: string): Promise<string> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-pgbouncer-'));
  fs.chmodSync(dir, 0o777);
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const user = decodeURIComponent(target.username || 'postgres');
  fs.writeFileSync(path.join(dir, 'users.txt'), `"${user}" ""\n`);
  fs.writeFileSync(
    path.join(dir, 'pgbouncer.ini'),
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'auth_type = trust',
      `auth_file = ${path.join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'max_client_conn = 500',
      'default_pool_size = 20',
      'ignore_startup_parameters = extra_float_digits,options',
      'unix_socket_dir =',
      '',
    ].join('\n'),
  );
  // PgBouncer refuses to run as root: it then takes the PostgreSQL user's identity
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    binary,
    [...(asRoot ? ['-u', 'postgres'] : []), path.join(dir, 'pgbouncer.ini')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  cleanups.push(() => void child.kill('SIGTERM'));
  const up = await waitUntil(
    () =>
      new Promise<boolean>((resolve) => {
        const s = net.connect(port, '127.0.0.1', () => {
          s.destroy();
          resolve(true);
        });
        s.on('error', () => resolve(false));
      }),
    10_000,
    100,
  );
  assert.ok(up, `pgbouncer did not listen: ${stderr}`);
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return url.toString();
}

if (process.env.DATABASE_URL) {
  test('through PgBouncer in transaction mode: four processes start together on an empty database, one workspace, no lock left; requests and jobs served', {
    timeout: 180_000,
  }, async (t) => {
    const binary = pgbouncerBinary();
    if (!binary) {
      assert.notEqual(process.env.CI, 'true', 'CI needs pgbouncer (.ci/run installs it)');
      t.diagnostic('pgbouncer is not installed: the pooler was not exercised');
      return;
    }
    const dbEnv = await ownDatabaseEnv('pooler', cleanups);
    const pooled = await startPgbouncer(binary, dbEnv.DATABASE_URL as string);
    const env = {
      ...dbEnv,
      DATABASE_URL: pooled,
      VERICASE_BOOTSTRAP_API_KEY: 'vk_pooler_0123456789abcdefghijklmnopqrstuv',
    };
    const servers: ServerProcess[] = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const server = await startServer({ env });
        cleanups.push(() => server.kill9());
        return server;
      }),
    );
    for (const server of servers) {
      assert.ok(
        await waitUntil(async () => (await fetch(`${server.base}/readyz`)).status === 200, 60_000),
        server.output().slice(-3000),
      );
    }
    const direct = new pg.Client({ connectionString: dbEnv.DATABASE_URL });
    await direct.connect();
    try {
      const { rows: ws } = await direct.query(`select name from workspaces`);
      assert.deepEqual(
        ws.map((r) => r.name),
        ['default'],
      );
      const { rows: locks } = await direct.query(
        `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
         where l.locktype = 'advisory' and d.datname = current_database()`,
      );
      assert.equal(locks[0].n, 0, 'no advisory lock left held');
    } finally {
      await direct.end();
    }

    // every process serves, and a check's job runs (woken by the due-job sweep: NOTIFY does not hold)
    const key = env.VERICASE_BOOTSTRAP_API_KEY;
    for (const server of servers)
      assert.equal(
        (await new HttpClient(server.base, { 'x-service-api-key': key }).get('/v1/ping')).status,
        200,
      );
    const api = new HttpClient(servers[0]?.base as string, { 'x-service-api-key': key });
    const created = await api.post('/v1/cases', { name: 'Pooled', companies: [{ name: 'Pooled SAS' }] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const check = await api.post('/v1/checks/online_reputation', {
      company_id: created.body.companies[0].id,
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.ok(
      await waitUntil(
        async () =>
          (await api.get(`/v1/checks/online_reputation/${check.body.id}`)).body.status === 'approved',
        60_000,
      ),
      'the check was approved',
    );
    for (const server of servers) assert.equal(await server.stop(), 0, server.output().slice(-3000));
  });
}
