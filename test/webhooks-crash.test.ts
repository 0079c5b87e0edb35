import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { freePort } from './helpers/child-process.ts';
import { Receiver } from './helpers/receiver.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

/**
 * `kill -9` of the real service while webhook events are pending: after a restart every event is
 * delivered. Runs the CLI (`vericase serve`) on its own database: a fresh PGlite data directory, or
 * under the PostgreSQL suite a fresh database on the same server.
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const ADMIN = 'crash-test-admin-token';
const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function databaseEnv(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-crash-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return { DATABASE_URL: '', DATA_DIR: dataDir };
  const db = await scratchDatabase(serverUrl, `vericase_crash_${process.pid}_${Date.now()}`);
  cleanups.push(db.drop);
  return { DATABASE_URL: db.url, DATA_DIR: dataDir };
}

async function startServer(env: Record<string, string>, port: number) {
  const child: ChildProcess = spawn(process.execPath, ['bin/vericase.js', 'serve'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${out}`);
}

async function call(
  base: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

test('kill -9 with webhook events pending, restart: every event is delivered', {
  timeout: 120_000,
}, async () => {
  const env = {
    ...(await databaseEnv()),
    VERICASE_ADMIN_TOKEN: ADMIN,
    VERICASE_WEBHOOK_ALLOW_PRIVATE: 'true',
    VERICASE_WEBHOOK_RETRY_BASE_MS: '100',
    VERICASE_WEBHOOK_RETRY_MAX_MS: '1000',
    VERICASE_WEBHOOK_TIMEOUT_MS: '1000',
    VERICASE_WEBHOOK_LEASE_MS: '2000',
    VERICASE_RATE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
  };
  const receiverPort = await freePort(); // the receiver is down for now
  const port = await freePort();
  const first = await startServer(env, port);

  const ws = await call(
    first.base,
    'POST',
    '/admin/workspaces',
    { name: 'crash' },
    { authorization: `Bearer ${ADMIN}` },
  );
  assert.equal(ws.status, 201, JSON.stringify(ws.body));
  const key = { 'x-service-api-key': ws.body.api_key };
  const hook = await call(
    first.base,
    'POST',
    '/v1/webhooks',
    { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['*'] },
    key,
  );
  assert.equal(hook.status, 201, JSON.stringify(hook.body));

  const created = await call(first.base, 'POST', '/v1/cases', { name: 'Crash case', status: 'draft' }, key);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const changes = 40;
  for (let i = 0; i < changes; i++) {
    const res = await call(first.base, 'PATCH', `/v1/cases/${created.body.id}`, { name: `Name ${i}` }, key);
    assert.equal(res.status, 200);
  }
  const expected = changes + 1;
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));

  const second = await startServer(env, port);
  const receiver = await new Receiver().start(receiverPort);
  cleanups.push(() => receiver.stop());
  await receiver.waitFor(
    () => new Set(receiver.deliveries().map((r) => r.json.context.event_id)).size >= expected,
    60_000,
  );
  const wh = new StandardWebhook(hook.body.secret);
  for (const r of receiver.deliveries()) {
    wh.verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
  }
  const ids = new Set(receiver.deliveries().map((r) => r.json.context.event_id));
  assert.equal(ids.size, expected);
  const names = receiver.deliveries().map((r) => r.json.case?.name);
  for (let i = 0; i < changes; i++) assert.ok(names.includes(`Name ${i}`), `Name ${i} delivered`);

  // the logs agree: one delivery per event, all delivered
  let logs: {
    status: number;
    body: { data: { status: string; event_id: string }[]; pagination: { count: number } };
  };
  for (let i = 0; ; i++) {
    logs = await call(second.base, 'GET', '/v1/webhook-logs?status=delivered&limit=50', undefined, key);
    // the page and the total are two queries: wait until the page itself holds every event
    const seen = new Set(logs.body.data.map((l) => l.event_id));
    if ((logs.body.pagination.count === expected && seen.size === expected) || i > 100) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(logs.body.pagination.count, expected);
  assert.deepEqual(new Set(logs.body.data.map((l) => l.event_id)), ids);
  second.child.kill('SIGTERM');
  await new Promise((r) => second.child.once('exit', r));
});
