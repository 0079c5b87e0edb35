/**
 * Start-up order (issue 17): the port opens once the database is migrated; the workers and the
 * sanctions lists start after it. Until the lists are in, screening answers 503 with `retry-after`
 * and /readyz is not_ready; heavy packages (PDF, OCR, browser, mail, templates) are not loaded by a
 * start, only by their first use.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { KEEP_EXTERNAL } from '../bin/server-bundle.js';
import type { App } from '../src/app-context.ts';
import { buildApp } from '../src/http/app.ts';
import { openRuntime, type Runtime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { captureOutput, freePort } from './helpers/child-process.ts';
import { type Client, clientFor, SHARED_DATA_DIR, testConfig } from './helpers/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * A runtime on its own embedded database (the shared harness started its background work long ago)
 * whose background work (workers, sanctions lists) waits for `startBackground()`, its app and a
 * workspace's client.
 */
async function deferredRuntime(name: string, overrides: Parameters<typeof testConfig>[0]) {
  const config = testConfig({
    databaseUrl: null,
    dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-deferred-')),
    referenceDir: SHARED_DATA_DIR,
    ...overrides,
  });
  const runtime = await openRuntime(config, pino({ level: 'silent' }), { deferBackground: true });
  const app = await buildApp(runtime.ctx);
  await app.ready();
  const ws = await createWorkspace(runtime.ctx.db, name);
  return { runtime, app, api: clientFor(app, ws.api_key, ws.id) };
}

describe('a runtime whose background work has not started yet', () => {
  let runtime: Runtime;
  let app: App;
  let api: Client;
  before(async () => {
    // no workers: on PostgreSQL they would take the other tests' jobs. The spawned server below runs them.
    ({ runtime, app, api } = await deferredRuntime('deferred', { runWorkers: false }));
  });
  after(async () => {
    await app?.close();
    await runtime?.close();
  });

  test('serves at once; screening is 503 with retry-after and /readyz not_ready until the lists load', async () => {
    const ping = await api.get('/v1/ping');
    assert.equal(ping.status, 200);

    const search = await api.get('/v1/screening/search?name=Eric%20Badege');
    assert.equal(search.status, 503, JSON.stringify(search.body));
    assert.equal(search.headers['retry-after'], '5');
    assert.equal(search.body.status_code, 503);
    assert.match(search.body.message, /still loading/);

    const notReady = await app.inject({ url: '/readyz' });
    assert.equal(notReady.statusCode, 503);
    const checks = notReady.json().checks;
    assert.equal(notReady.json().status, 'not_ready');
    assert.equal(checks.screening.status, 'fail');
    assert.equal(checks.screening.state, 'idle');

    await runtime.startBackground();
    // the lists load in the background: readiness follows
    for (let i = 0; i < 600 && !runtime.ctx.screening?.available; i++)
      await new Promise((r) => setTimeout(r, 100));
    const ready = await app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 200, ready.body);
    assert.equal(ready.json().checks.screening.state, 'ready');
    const found = await api.get('/v1/screening/search?name=Eric%20Badege');
    assert.equal(found.status, 200);
    assert.equal(found.headers['retry-after'], undefined);
    assert.ok(found.body.data.some((m: { id: string }) => m.id === 'un_sc:CDi.001'));
  });
});

describe('a worker that starts with aml jobs waiting', () => {
  let runtime: Runtime;
  let app: App;
  let api: Client;
  before(async () => {
    // its workers not started: the jobs wait as they do for a worker added or restarted while the
    // API processes queued work
    ({ runtime, app, api } = await deferredRuntime('waiting jobs', { runWorkers: true, sandboxDelayMs: 0 }));
  });
  after(async () => {
    await app?.close();
    await runtime?.close();
  });

  test('screens them with the lists it loads, none sent to review in error', async () => {
    const kase = await api.post('/v1/cases', {
      name: 'Waiting jobs',
      companies: [{ name: 'Acme Waiting SAS', country: 'FR' }],
      individuals: Array.from({ length: 4 }, (_, n) => ({
        first_name: ['Eric', 'Ada', 'Alan', 'Grace'][n],
        last_name: ['Badege', 'Lovelace', 'Turing', 'Hopper'][n],
        relations: [{ roles: ['legal_representative'] }],
      })),
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const ids: string[] = [];
    for (const individual of kase.body.individuals as { id: string }[]) {
      const check = await api.post('/v1/checks/aml', { individual_id: individual.id });
      assert.equal(check.status, 201, JSON.stringify(check.body));
      ids.push(check.body.id);
    }
    await runtime.startBackground();
    const settled = async () => {
      const all = await Promise.all(ids.map((id) => api.get(`/v1/checks/aml/${id}`)));
      return all.every((c) => c.body.status !== 'processing') ? all : null;
    };
    let done: Awaited<ReturnType<typeof settled>> = null;
    for (let i = 0; i < 900 && !done; i++) {
      done = await settled();
      if (!done) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(done, 'the checks left processing');
    for (const c of done) assert.notEqual(c.body.data.result, 'error', JSON.stringify(c.body.data.review));
    // Eric Badege is on the UN list of the shared reference data: found, so the lists were used
    const eric = done[0].body;
    assert.ok(eric.data.hits.length > 0, JSON.stringify(eric.data));
  });
});

describe('vericase serve', () => {
  test('answers before the lists are loaded (listening is logged first); start-up loads no heavy package; then gives memory back when asked to', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-start-'));
    const recorded = path.join(dir, 'modules.json');
    const port = await freePort();
    const key = 'vk_startup_test_key_0123456789';
    const child = spawn(
      process.execPath,
      ['--import', path.join(ROOT, 'test/helpers/record-modules.mjs'), 'bin/vericase.js', 'serve'],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          DATA_DIR: dir,
          // embedded on both runs: on the suite's PostgreSQL its workers would take other tests' jobs
          DATABASE_URL: '',
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          VERICASE_REFERENCE_DIR: SHARED_DATA_DIR,
          VERICASE_BOOTSTRAP_API_KEY: key,
          RECORD_MODULES_FILE: recorded,
          // opt-in (src/ops/settle-memory.ts)
          VERICASE_SETTLE_MEMORY: 'true',
        },
      },
    );
    const output = captureOutput(child);
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready = false;
      for (let i = 0; i < 1200 && !ready; i++) {
        if (child.exitCode !== null) throw new Error(`server exited: ${output.text}`);
        ready = await fetch(`${base}/readyz`).then(
          (r) => r.status === 200,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(ready, `never ready: ${output.text}`);
      const ping = await fetch(`${base}/v1/ping`, { headers: { 'x-service-api-key': key } });
      assert.equal(ping.status, 200);
      // once everything is loaded, start-up's memory is given back (src/ops/settle-memory.ts)
      for (let i = 0; i < 300 && !output.text.includes('start-up memory given back'); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      child.kill('SIGTERM');
      // 'close': the process exited and its output streams are drained
      await new Promise((r) => child.once('close', r));
    }
    // read once the process has exited: the server's log writer is asynchronous, flushed at exit
    const lines = output.text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string });
    const messages = lines.map((l) => l.msg);
    const listening = messages.indexOf('vericase listening');
    const loaded = messages.indexOf('sanctions lists loaded');
    assert.ok(listening >= 0 && loaded >= 0, output.text);
    assert.ok(listening < loaded, `the lists were loaded before the port opened:\n${messages.join('\n')}`);
    const settled = lines.findIndex((l) => l.msg === 'start-up memory given back');
    assert.ok(settled > loaded, `memory not given back after the lists loaded:\n${messages.join('\n')}`);
    const { rssMb } = lines[settled] as unknown as { rssMb: { before: number; after: number } };
    assert.ok(rssMb.after < rssMb.before, JSON.stringify(rssMb));
    const packages: string[] = JSON.parse(fs.readFileSync(recorded, 'utf8'));
    // the recorder sees packages imported from node_modules: pino is, from the sources and from the
    // bundle alike (bin/server-bundle.js keeps it out of the bundle)
    assert.ok(packages.includes('pino'), packages.join(' '));
    for (const heavy of [
      'pdf-lib',
      'playwright-core',
      'tesseract.js',
      'nodemailer',
      'sanitize-html',
      'handlebars',
      'libphonenumber-js',
      '@signpdf/signpdf',
      '@pdf-lib/fontkit',
      '@aws-sdk/client-s3',
      'unpdf',
    ]) {
      // bundled, a package would not be seen here: the heavy ones must stay imports from node_modules
      assert.ok(KEEP_EXTERNAL.has(heavy), `${heavy} is bundled: this test could not see it loaded`);
      assert.ok(!packages.includes(heavy), `${heavy} was loaded at start-up`);
    }
  });
});
