/**
 * The webhook loop and the job workers at rest: they poll slowly when nothing happens, and what
 * appears (events recorded, a retry falling due, a delayed job, another process's events) wakes
 * them without waiting for the slow poll. Each test makes the slow poll far longer than its own
 * time limit, so a missing wake fails it instead of slowing it down.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import type { App } from '../src/app-context.ts';
import { signalWebhookWork } from '../src/events/outbox-signal.ts';
import { buildApp } from '../src/http/app.ts';
import { WorkListener } from '../src/jobs/work-channel.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { webhookEngineOf } from '../src/webhooks/module.ts';
import { announceWebhookWork, WEBHOOK_TOPIC } from '../src/webhooks/outbox-notify.ts';
import { webhookTuning } from '../src/webhooks/tuning.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import {
  type Client,
  clientFor,
  eventually,
  getHarness,
  SHARED_DATA_DIR,
  testConfig,
} from './helpers/harness.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

const defaults = { ...webhookTuning };
/** The slow poll of these tests: ten minutes, far past any of their time limits. */
const SLOW = 600_000;
let receiver: Receiver;

/**
 * A runtime of its own (its own embedded database, workers running) whose job workers' backstop
 * poll is SLOW: the suite's shared database holds the other tests' leftovers (backlogs to hanging
 * endpoints, retries due later), with which a loop is never at rest.
 */
let own: { runtime: Runtime; app: App; dataDir: string };

before(async () => {
  receiver = await startReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-idle-'));
  const config = testConfig({
    databaseUrl: null,
    dataDir,
    referenceDir: SHARED_DATA_DIR,
    jobPollMs: SLOW,
    sandboxDelayMs: 200,
  });
  const runtime = await openRuntime(config, pino({ level: 'silent' }));
  const app = await buildApp(runtime.ctx);
  await app.ready();
  own = { runtime, app, dataDir };
});
after(async () => {
  Object.assign(webhookTuning, defaults);
  await receiver.stop();
  await own?.app.close();
  await own?.runtime.close();
  if (own) fs.rmSync(own.dataDir, { recursive: true, force: true });
});

async function ownWorkspace(name: string): Promise<Client> {
  const ws = await createWorkspace(own.runtime.ctx.db, name);
  return clientFor(own.app, ws.api_key, ws.id);
}

function ownEngine() {
  const engine = webhookEngineOf(own.runtime.ctx);
  assert.ok(engine, 'the runtime runs the webhook loop');
  return engine;
}

async function hook(api: Client, url: string) {
  const res = await api.post('/v1/webhooks', { url, events: ['Case.*'] });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string };
}

describe('the webhook loop at rest', () => {
  test('sleeps its slow poll, and an event recorded in its process wakes it at once', async () => {
    Object.assign(webhookTuning, { idlePollMs: SLOW });
    try {
      const api = await ownWorkspace('idle-events');
      const path = `/idle/${Math.random().toString(36).slice(2)}`;
      await hook(api, `http://127.0.0.1:${receiver.port}${path}`);
      const engine = ownEngine();
      // nothing to do and nothing due: the slow poll
      await eventually(async () => engine.sleepingMs === SLOW, 30_000);
      const created = await api.post('/v1/cases', { name: 'After a quiet spell', status: 'draft' });
      assert.equal(created.status, 201);
      // the request's own event shortened the sleep before the answer left (or the loop is awake)
      assert.ok((engine.sleepingMs ?? 0) <= webhookTuning.pollMs, `sleeping ${engine.sleepingMs} ms`);
      const got = await receiver.waitFor((r) => r.some((x) => x.path === path), 10_000);
      const delivered = got.filter((x) => x.path === path);
      assert.equal(delivered.length, 1);
      assert.equal(delivered[0].json.event, 'Case.Created');
      assert.equal(delivered[0].json.case.id, created.body.id);
    } finally {
      Object.assign(webhookTuning, defaults);
    }
  });

  test('a retry falling due wakes it: the sleep ends at the retry, not at the slow poll', async () => {
    // the first attempt fails; its retry comes ~2.5 s later, after the loop's fast second
    Object.assign(webhookTuning, { idlePollMs: SLOW, retryBaseMs: 2500, retryMaxMs: 2500 });
    const failing = await startReceiver();
    failing.mode = { kind: 'fail', status: 503 };
    try {
      const api = await ownWorkspace('idle-retry');
      await hook(api, `http://127.0.0.1:${failing.port}/retry`);
      await api.post('/v1/cases', { name: 'Retried', status: 'draft' });
      await failing.waitFor((r) => r.length >= 1, 10_000);
      failing.mode = { kind: 'ok' };
      const engine = ownEngine();
      // at rest until the retry: a sleep longer than the fast poll and no longer than the retry's delay
      await eventually(async () => (engine.sleepingMs ?? 0) > webhookTuning.pollMs, 10_000);
      assert.ok((engine.sleepingMs ?? SLOW) <= 2500 * 1.2 + webhookTuning.pollMs, `${engine.sleepingMs}`);
      const got = await failing.waitFor((r) => r.length >= 2, 15_000);
      assert.equal(got[1].json.event, 'Case.Created');
      assert.equal(got[1].json.context.retry_count, 1);
    } finally {
      Object.assign(webhookTuning, defaults);
      await failing.stop();
    }
  });
});

// what a process without workers does reaches the workers of the others by NOTIFY: PostgreSQL
// only (the embedded database has one process)
if (process.env.DATABASE_URL) {
  describe('announcements between processes', () => {
    test('a process without the loop announces its events; the loops of the others hear it', async () => {
      const { ctx } = await getHarness();
      let heard = 0;
      const listener = new WorkListener(ctx.config.databaseUrl as string, pino({ level: 'silent' }));
      listener.on(WEBHOOK_TOPIC, () => {
        heard++;
      });
      listener.start();
      const stopAnnouncing = announceWebhookWork(ctx.db, pino({ level: 'silent' }));
      try {
        // once when it starts listening (what was announced before is looked for at once)
        await eventually(async () => heard >= 1);
        const before = heard;
        signalWebhookWork();
        await eventually(async () => heard > before, 10_000);
        // hints closer together than the announcement period make one NOTIFY
        const after = heard;
        await new Promise((r) => setTimeout(r, 300));
        signalWebhookWork();
        signalWebhookWork();
        signalWebhookWork();
        await eventually(async () => heard > after, 10_000);
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(heard, after + 1);
      } finally {
        stopAnnouncing();
        await listener.stop();
      }
    });

    test('a delayed job sent by a process without workers is announced as it falls due', async () => {
      const { ctx } = await getHarness();
      const heardAt: number[] = [];
      const listener = new WorkListener(ctx.config.databaseUrl as string, pino({ level: 'silent' }));
      listener.on('job:checks.process', () => {
        heardAt.push(Date.now());
      });
      listener.start();
      await eventually(async () => heardAt.length >= 1);
      // an API-only process: it enqueues provider work delayed by the sandbox's 1.5 s
      const runtime = await openRuntime(
        testConfig({ runWorkers: false, sandboxDelayMs: 1500 }),
        pino({ level: 'silent' }),
      );
      const app = await buildApp(runtime.ctx);
      try {
        await app.ready();
        const ws = await createWorkspace(runtime.ctx.db, 'api-only');
        const api = clientFor(app, ws.api_key, ws.id);
        const created = await api.post('/v1/cases', {
          name: 'Announced job',
          companies: [{ type: 'main', name: 'Loud SAS', country: 'FR' }],
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const heardBefore = heardAt.length;
        const sentAt = Date.now();
        const check = await api.post('/v1/checks/online_reputation', {
          company_id: created.body.companies[0].id,
        });
        assert.equal(check.status, 201, JSON.stringify(check.body));
        await eventually(async () => heardAt.length > heardBefore, 10_000);
        // announced when due, not when sent
        assert.ok(heardAt[heardBefore] - sentAt >= 1400, `${heardAt[heardBefore] - sentAt} ms`);
        // and the workers of the harness (another process, as far as the job is concerned) ran it
        await eventually(
          async () =>
            (await api.get(`/v1/checks/online_reputation/${check.body.id}`)).body.status !== 'processing',
          15_000,
        );
      } finally {
        await app.close();
        await runtime.close();
        await listener.stop();
      }
    });
  });
}

describe('job workers at rest', () => {
  test('a delayed job sent by the process runs when due, not at the next poll', async () => {
    // the runtime's workers look for delayed jobs every ten minutes on their own
    const api = await ownWorkspace('idle-jobs');
    const created = await api.post('/v1/cases', {
      name: 'Delayed job',
      companies: [{ type: 'main', name: 'Quiet SAS', country: 'FR' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const companyId = created.body.companies[0].id as string;
    const check = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.status, 'processing');
    // the sandbox provider answers after its 200 ms delay: the job is delayed, so no NOTIFY
    await eventually(
      async () =>
        (await api.get(`/v1/checks/online_reputation/${check.body.id}`)).body.status !== 'processing',
      15_000,
    );
  });
});
