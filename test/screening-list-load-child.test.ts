/**
 * The service loads the sanctions lists in a child process (src/screening/service/list-load.ts): the
 * service's event loop keeps answering during a load, the index that comes back answers as one built
 * in the service's process (through a temporary file, removed once read, whose buffer the index does
 * not keep), and a child that fails (a broken file) or dies is reported as a load error.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NODE_FLAGS } from '../bin/node-flags.js';
import type { App } from '../src/app-context.ts';
import { buildApp } from '../src/http/app.ts';
import { indexTransfer } from '../src/screening/engine/build.ts';
import { ScreeningRegistry } from '../src/screening/engine/registry.ts';
import type { ScreeningQuery } from '../src/screening/engine/search.ts';
import {
  type DirectoryLoad,
  type LoadDirectory,
  loadDirectoryInChild,
  loadDirectoryInProcess,
  removeStaleIndexFiles,
} from '../src/screening/service/list-load.ts';
import { ScreeningService } from '../src/screening/service/screening-service.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { type Client, clientFor, getHarness, SHARED_DATA_DIR } from './helpers/harness.ts';

/** The index files this process's loads left in the temporary directory (none once each load settled). */
async function indexFilesLeft(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((f) => f.startsWith(`vericase-list-index-${process.pid}-`));
}

/** Each typed array of the registry's index has a buffer of its own, with bytes in it. */
function assertOwnBuffers(registry: ScreeningRegistry): void {
  const { data } = indexTransfer(registry.snapshot!.index);
  const views = [data, data.postings, data.identifiers].flatMap((part) =>
    Object.values(part).filter((v): v is Int32Array => ArrayBuffer.isView(v)),
  );
  assert.ok(views.length >= 10, `${views.length} typed arrays`);
  for (const v of views) {
    assert.ok(v.byteLength > 0);
    assert.equal(v.byteLength, v.buffer.byteLength);
  }
}

/** An app of the shared harness answering with its own screening service. */
async function appWith(service: ScreeningService): Promise<{ app: App; api: Client }> {
  const h = await getHarness();
  const app = await buildApp({ ...h.ctx, screening: service });
  await app.ready();
  const ws = await createWorkspace(h.ctx.db, `list-load-worker-${Math.random().toString(36).slice(2, 8)}`);
  return { app, api: clientFor(app, ws.api_key, ws.id) };
}

/** Loads with `service` while pinging the app; the slowest ping and how many were answered. */
async function pingDuringLoad(service: ScreeningService, ping: () => Promise<number>) {
  let done = false;
  const loading = service.load().finally(() => {
    done = true;
  });
  let slowest = 0;
  let answered = 0;
  while (!done) {
    const t = performance.now();
    assert.equal(await ping(), 200);
    slowest = Math.max(slowest, performance.now() - t);
    answered++;
    await new Promise((r) => setImmediate(r));
  }
  await loading;
  return { slowest, answered };
}

describe('sanctions lists loaded in a child process', () => {
  let app: App;
  let api: Client;
  const pids: number[] = [];
  const recording: LoadDirectory = async (dir, options) => {
    const load: DirectoryLoad = await loadDirectoryInChild(dir, options);
    pids.push(load.pid);
    return load;
  };
  const worker = new ScreeningService({ resolveDir: () => SHARED_DATA_DIR, loadDirectory: recording });
  const inProcess = new ScreeningService({
    resolveDir: () => SHARED_DATA_DIR,
    loadDirectory: loadDirectoryInProcess,
  });

  before(async () => {
    ({ app, api } = await appWith(worker));
  });
  after(async () => {
    worker.stop();
    await app?.close();
  });

  test('the event loop keeps answering /v1/ping during the load; the lists are those of an in-process load', async () => {
    const ping = async () => (await api.get('/v1/ping')).status;
    const off = await pingDuringLoad(worker, ping);
    assert.equal(pids.length, 1);
    assert.notEqual(pids[0], process.pid, 'the lists were loaded in the service process');
    assert.equal(worker.state, 'ready');
    // in the service's process, parsing blocks: pings wait for it. Compared by the pings answered
    // during the load (2,691 against 63 in one run): the slowest single ping is no measure, since
    // the in-process load blocks in many short chunks while the child's index arrives in one
    // message whose decoding alone took 30 ms on a loaded machine (against 10 ms for the chunks)
    const on = await pingDuringLoad(inProcess, ping);
    assert.ok(
      off.answered > on.answered * 2,
      `child: ${JSON.stringify(off)}, in process: ${JSON.stringify(on)}`,
    );

    assert.deepEqual(worker.versions, inProcess.versions);
    assert.equal(worker.versionsKey, inProcess.versionsKey);
    assert.equal(worker.registry.snapshot?.legalForms, inProcess.registry.snapshot?.legalForms);
    const queries: ScreeningQuery[] = [
      { name: 'Saddam Husein al-Tikriti' },
      { name: 'Eric Badege', kind: 'person' },
      { name: 'Mohammed Ali', fuzziness: 1 },
      { name: 'Bank', limit: 50 },
    ];
    for (const q of queries) {
      assert.equal(JSON.stringify(worker.search(q)), JSON.stringify(inProcess.search(q)));
    }
    const found = await api.get('/v1/screening/search?name=Eric%20Badege');
    assert.equal(found.status, 200);
    assert.ok(found.body.data.some((m: { id: string }) => m.id === 'un_sc:CDi.001'));
    // unchanged directory: the periodic check does not reload
    assert.equal(await worker.checkForChanges(), null);
  });

  test('the same directory gives the same index through the registry, in this process or not', async () => {
    const a = new ScreeningRegistry();
    await a.load(SHARED_DATA_DIR);
    const b = new ScreeningRegistry();
    await b.loadPrepared(async (options) => (await loadDirectoryInChild(SHARED_DATA_DIR, options)).prepared);
    assert.deepEqual(b.versions, a.versions);
    assert.deepEqual({ ...b.snapshot!.index.stats, buildMs: 0 }, { ...a.snapshot!.index.stats, buildMs: 0 });
    assert.deepEqual(b.snapshot!.index.legalForms, a.snapshot!.index.legalForms);
    assert.deepEqual(b.snapshot!.index.entities, a.snapshot!.index.entities);
    // the index came through a file, read into one buffer and released: each of its typed arrays
    // has a buffer of its own (a view into the released buffer would have no bytes left)
    assertOwnBuffers(b);
    assert.deepEqual(await indexFilesLeft(), []);

    // a child that cannot write the file (its directory does not exist) sends the index through
    // the IPC channel: the same index, its arrays copied out of the message
    const c = new ScreeningRegistry();
    const missing = join(tmpdir(), `vericase-no-such-dir-${process.pid}`);
    await c.loadPrepared(
      async (options) =>
        (await loadDirectoryInChild(SHARED_DATA_DIR, options, { indexDir: missing })).prepared,
    );
    assert.deepEqual(c.versions, a.versions);
    assert.deepEqual({ ...c.snapshot!.index.stats, buildMs: 0 }, { ...a.snapshot!.index.stats, buildMs: 0 });
    assert.deepEqual(c.snapshot!.index.entities, a.snapshot!.index.entities);
    assertOwnBuffers(c);
  });
});

describe('a failing list-load child is a load error', () => {
  let dir: string;
  before(async () => {
    // a broken reference directory: the UN list's file is a directory (EISDIR when it is read)
    dir = await mkdtemp(join(tmpdir(), 'vericase-broken-ref-'));
    await mkdir(join(dir, 'sanctions', 'un', 'consolidated.xml'), { recursive: true });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function logged() {
    const errors: { obj: Record<string, unknown>; msg?: string }[] = [];
    const logger = {
      info() {},
      warn() {},
      error: (obj: object, msg?: string) => errors.push({ obj: obj as Record<string, unknown>, msg }),
    };
    return { errors, logger };
  }

  test('an error thrown in the child: the same state, message and logged error as in the service process', async () => {
    const w = logged();
    const worker = new ScreeningService({ resolveDir: () => dir, logger: w.logger });
    const m = logged();
    const main = new ScreeningService({
      resolveDir: () => dir,
      logger: m.logger,
      loadDirectory: loadDirectoryInProcess,
    });
    const report = await worker.load();
    await main.load();
    assert.equal(worker.state, 'failed');
    assert.equal(worker.state, main.state);
    assert.match(worker.lastError ?? '', /^EISDIR/);
    assert.equal(worker.lastError, main.lastError);
    assert.equal(worker.unavailableMessage(), main.unavailableMessage());
    assert.deepEqual(report, { versions: [], versionsKey: null, loadedAt: null, dir, changed: false });
    assert.equal(w.errors.length, 1);
    assert.equal(w.errors[0].msg, 'loading the sanctions lists failed');
    const [we, me] = [
      w.errors[0].obj.err as NodeJS.ErrnoException,
      m.errors[0].obj.err as NodeJS.ErrnoException,
    ];
    assert.ok(we instanceof Error);
    for (const k of ['name', 'message', 'code', 'errno', 'syscall'] as const) assert.equal(we[k], me[k], k);
    assert.equal(w.errors[0].obj.dir, dir);

    const { app, api } = await appWith(worker);
    try {
      const res = await api.get('/v1/screening/search?name=Eric%20Badege');
      assert.equal(res.status, 503);
      assert.match(res.body.message, /Loading the sanctions lists failed \(EISDIR/);
      const ready = await app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.equal(ready.json().checks.screening.state, 'failed');
    } finally {
      await app.close();
    }
  });

  test('a child that dies (heap limit): failed, with its error; a later load succeeds', async () => {
    const w = logged();
    let limited = true;
    const service = new ScreeningService({
      resolveDir: () => SHARED_DATA_DIR,
      logger: w.logger,
      loadDirectory: (d, options) =>
        loadDirectoryInChild(d, options, limited ? { maxOldGenerationSizeMb: 8 } : {}),
    });
    await service.load();
    assert.equal(service.state, 'failed');
    assert.match(service.lastError ?? '', /memory/);
    assert.match(service.unavailableMessage(), /^Loading the sanctions lists failed \(.*memory/);
    assert.equal(w.errors.length, 1);
    assert.equal((w.errors[0].obj.err as NodeJS.ErrnoException).code, 'ERR_LIST_LOAD_OUT_OF_MEMORY');

    limited = false;
    await service.load();
    assert.equal(service.state, 'ready');
    assert.deepEqual(await indexFilesLeft(), [], 'the index files of both loads are removed');
    assert.equal(service.lastError, null);
    assert.ok(service.available);
  });
});

describe('the index file is not left behind', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vericase-index-files-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Whether the process is gone (or a zombie, which has exited). */
  function gone(pid: number): boolean {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].startsWith('Z');
    } catch {
      return true;
    }
  }

  test('a service killed during a load: its loader stops and removes the index file', async () => {
    const parent = spawn(
      process.execPath,
      [...NODE_FLAGS, join(import.meta.dirname, 'helpers', 'list-load-parent.ts'), SHARED_DATA_DIR, dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [line] = (await once(parent.stdout!, 'data')) as [Buffer];
    const { children } = JSON.parse(line.toString()) as { children: number[] };
    assert.equal(children.length, 1, 'one loader');
    parent.kill('SIGKILL');
    await once(parent, 'exit');
    // the loader notices that its service has gone and exits; without that, it would finish the
    // load (seconds), write the file and fail to answer
    const deadline = Date.now() + 60_000;
    while (!gone(children[0])) {
      assert.ok(Date.now() < deadline, 'the loader is still running a minute after its service died');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual(await readdir(dir), []);
  });

  test('index files older than ten minutes are removed by the next load; a recent one is not', async () => {
    const stale = join(dir, 'vericase-list-index-999999-00000000-0000-4000-8000-000000000000.bin');
    const recent = join(dir, 'vericase-list-index-999999-11111111-1111-4111-8111-111111111111.bin');
    const other = join(dir, 'unrelated.bin');
    for (const f of [stale, recent, other]) await writeFile(f, 'x');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(stale, hourAgo, hourAgo);
    await utimes(other, hourAgo, hourAgo);
    assert.equal(await removeStaleIndexFiles(dir), 1);
    assert.deepEqual((await readdir(dir)).sort(), [
      'unrelated.bin',
      'vericase-list-index-999999-11111111-1111-4111-8111-111111111111.bin',
    ]);

    // through a load
    await writeFile(stale, 'x');
    await utimes(stale, hourAgo, hourAgo);
    await loadDirectoryInChild(SHARED_DATA_DIR, {}, { indexDir: dir });
    assert.deepEqual((await readdir(dir)).sort(), [
      'unrelated.bin',
      'vericase-list-index-999999-11111111-1111-4111-8111-111111111111.bin',
    ]);
  });
});
