/**
 * Several processes starting together on one empty database, as `compose.yaml` starts them: two API
 * processes (no workers), one worker and a `vericase migrate`, all spawned through bin/vericase.js at
 * the same moment. On PostgreSQL every migration is applied once (by whichever process took the
 * migration lock), the first-start workspace is created once, and every process becomes ready.
 * On the embedded database (PGlite, one process per data directory) the first process serves and
 * the others are refused cleanly (exit 3, naming the holder), leaving the data directory intact.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { freePorts } from './helpers/child-process.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
// this file's ports (3180-3189 belong to it on the shared test machine)
// free ports, not fixed ones: the suite's two runs (PGlite, PostgreSQL) go at the same time
const [api1Port, api2Port, workerPort] = (await freePorts(3)) as [number, number, number];
const PORTS = { api1: api1Port, api2: api2Port, worker: workerPort };
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

interface Proc {
  name: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(name: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, ['bin/vericase.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', LOG_FORMAT: 'json', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
  return { name, child, stdout: () => out, stderr: () => err, exited };
}

async function readyz(port: number): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    return { status: res.status, body: await res.json() };
  } catch {
    return null;
  }
}

/** Polls /readyz until 200; fails with the process's output when it exits or takes too long. */
async function untilReady(p: Proc, port: number, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) {
      throw new Error(`${p.name} exited (${p.child.exitCode}):\n${p.stdout()}\n${p.stderr()}`);
    }
    const r = await readyz(port);
    if (r?.status === 200) return r.body;
    last = r?.body ?? last;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${p.name} not ready: ${JSON.stringify(last)}\n${p.stdout()}\n${p.stderr()}`);
}

/** The JSON log lines of a process (stdout and stderr: one-shot commands log on stderr). */
function logLines(p: Proc): Record<string, any>[] {
  return `${p.stdout()}\n${p.stderr()}`
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

const serverUrl = process.env.DATABASE_URL;

async function onPostgres(): Promise<void> {
  const dbName = `${new URL(serverUrl as string).pathname.slice(1) || 'test'}_start`;
  const db = await scratchDatabase(serverUrl as string, dbName);
  cleanups.push(db.drop);
  const dataDirs = Object.keys(PORTS).map((n) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `vericase-start-${n}-`));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  const common = { DATABASE_URL: db.url, VERICASE_RATE_LIMIT_PER_MINUTE: '0' };

  // all four at once, on the same empty database
  const procs = [
    start('api1', ['serve'], {
      ...common,
      PORT: String(PORTS.api1),
      VERICASE_RUN_WORKERS: 'false',
      DATA_DIR: dataDirs[0],
    }),
    start('api2', ['serve'], {
      ...common,
      PORT: String(PORTS.api2),
      VERICASE_RUN_WORKERS: 'false',
      DATA_DIR: dataDirs[1],
    }),
    start('worker', ['worker'], {
      ...common,
      VERICASE_WORKER_PORT: String(PORTS.worker),
      DATA_DIR: dataDirs[2],
    }),
    start('migrate', ['migrate'], { ...common, DATA_DIR: dataDirs[2] }),
  ];
  const [api1, api2, worker, migrate] = procs;

  const ready1 = await untilReady(api1, PORTS.api1);
  const ready2 = await untilReady(api2, PORTS.api2);
  const readyWorker = await untilReady(worker, PORTS.worker);
  assert.equal(await migrate.exited, 0, migrate.stderr());
  for (const r of [ready1, ready2]) {
    assert.equal(r.checks.migrations.status, 'ok');
    assert.equal(r.checks.workers.status, 'skipped');
  }
  assert.deepEqual(readyWorker.checks.workers, { status: 'ok', jobs: true, webhooks: true });

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  cleanups.push(() => client.end());
  // each migration recorded once, and each applied by exactly one process
  const { rows: recorded } = await client.query<{ name: string }>(
    'select name from kysely_migration order by name',
  );
  const names = recorded.map((r) => r.name);
  assert.equal(new Set(names).size, names.length);
  assert.ok(names.length >= 22, names.join(', '));
  const appliedBy = new Map<string, string[]>();
  for (const p of procs) {
    for (const line of logLines(p).filter((l) => l.msg === 'database migrated')) {
      for (const m of line.migrations as string[]) appliedBy.set(m, [...(appliedBy.get(m) ?? []), p.name]);
    }
  }
  assert.deepEqual([...appliedBy.keys()].sort(), names, 'every migration applied, none missing');
  for (const [m, by] of appliedBy) assert.equal(by.length, 1, `${m} applied by ${by.join(' and ')}`);

  // the first-start workspace: created once, its key printed by one process only
  const { rows: workspaces } = await client.query<{ name: string }>('select name from workspaces');
  assert.deepEqual(
    workspaces.map((w) => w.name),
    ['default'],
  );
  const printed = procs.flatMap((p) =>
    [...p.stdout().matchAll(/Created workspace "default"[^\n]*\n\n\s+(\S+)/g)].map((m) => m[1]),
  );
  assert.equal(printed.length, 1, `keys printed: ${printed.length}`);
  for (const port of [PORTS.api1, PORTS.api2]) {
    const ping = await fetch(`http://127.0.0.1:${port}/v1/ping`, {
      headers: { 'x-service-api-key': printed[0] },
    });
    assert.equal(ping.status, 200);
  }
  // with it, one console admin, its password printed by the same single process
  const { rows: admins } = await client.query<{ email: string; role: string }>(
    `select email, role from users where email = 'admin@localhost'`,
  );
  assert.deepEqual(admins, [{ email: 'admin@localhost', role: 'admin' }]);
  const signIns = procs.filter((p) => p.stdout().includes('Sign in as admin@localhost'));
  assert.equal(signIns.length, 1);
  // pg-boss installed its schema once; the generated service secrets exist once each
  const { rows: boss } = await client.query<{ n: number }>('select count(*)::int as n from pgboss.version');
  assert.equal(boss[0].n, 1);
  const { rows: secrets } = await client.query<{ name: string; n: number }>(
    'select name, count(*)::int as n from service_secrets group by name',
  );
  assert.ok(secrets.length > 0);
  for (const s of secrets) assert.equal(s.n, 1, `service secret ${s.name}`);

  // the worker serves its own metrics and version on VERICASE_WORKER_PORT (nothing else)
  const workerMetrics = await (await fetch(`http://127.0.0.1:${PORTS.worker}/metrics`)).text();
  assert.match(workerMetrics, /^vericase_queue_depth\{queue="checks\.process",state="ready"\} \d+$/m);
  assert.match(workerMetrics, /^vericase_build_info\{/m);
  const version = (await (await fetch(`http://127.0.0.1:${PORTS.worker}/version`)).json()) as {
    name: string;
  };
  assert.equal(version.name, 'vericase');
  assert.equal((await fetch(`http://127.0.0.1:${PORTS.worker}/v1/ping`)).status, 404);

  // a graceful stop of everything: exit 0
  for (const p of [api1, api2, worker]) p.child.kill('SIGTERM');
  for (const p of [api1, api2, worker]) assert.equal(await p.exited, 0, `${p.name}: ${p.stderr()}`);
}

async function onPglite(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-start-pglite-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env = { DATABASE_URL: '', DATA_DIR: dataDir, VERICASE_RATE_LIMIT_PER_MINUTE: '0' };
  const procs = [
    start('api1', ['serve'], { ...env, PORT: String(PORTS.api1) }),
    start('api2', ['serve'], { ...env, PORT: String(PORTS.api2) }),
    start('worker', ['worker'], { ...env, VERICASE_WORKER_PORT: String(PORTS.worker) }),
  ];
  const ports = [PORTS.api1, PORTS.api2, PORTS.worker];
  // exactly one ends up serving; the others exit 3 naming the process that holds the directory
  const outcome = await Promise.all(
    procs.map(async (p, i) => {
      const deadline = Date.now() + 180_000;
      while (Date.now() < deadline) {
        if (p.child.exitCode !== null) return { p, exit: p.child.exitCode };
        if ((await readyz(ports[i]))?.status === 200) return { p, exit: null, port: ports[i] };
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`${p.name} neither served nor exited:\n${p.stderr()}`);
    }),
  );
  const serving = outcome.filter((o) => o.exit === null);
  const refused = outcome.filter((o) => o.exit !== null);
  assert.equal(serving.length, 1, outcome.map((o) => `${o.p.name}: ${o.exit}`).join(', '));
  for (const r of refused) {
    assert.equal(r.exit, 3, r.p.stderr());
    assert.match(r.p.stderr(), /is already in use by process \d+/);
    assert.equal(
      r.p
        .stderr()
        .split('\n')
        .filter((l) => /^\s+at /.test(l)).length,
      0,
      'no stack trace',
    );
  }
  const holder = serving[0];
  const ready = await untilReady(holder.p, holder.port as number);
  assert.equal(ready.checks.migrations.status, 'ok');
  holder.p.child.kill('SIGTERM');
  assert.equal(await holder.p.exited, 0);
}

// the suite's database decides which start-up is exercised (each suite runs one of them)
if (serverUrl) {
  test(
    'several processes starting together on one PostgreSQL database migrate once and all become ready',
    {
      timeout: 240_000,
    },
    onPostgres,
  );
} else {
  test(
    'several processes starting together on one embedded data directory: one serves, the others are refused',
    {
      timeout: 240_000,
    },
    onPglite,
  );
}
