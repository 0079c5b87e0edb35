/**
 * The due-job sweep (src/jobs/due-sweep.ts): one statement every `jobPollMs` finds the queues with
 * a job due that nobody announced, and wakes only their workers. The workers' own poll is five
 * minutes, past every time limit here, so a retry found late fails the test instead of slowing it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/connect.ts';
import { DueJobSweep, type SweptQueue } from '../src/jobs/due-sweep.ts';
import { JobQueue } from '../src/jobs/queue.ts';
import { eventually } from './helpers/harness.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

const silent = pino({ level: 'silent' });

describe('job workers with the due-job sweep, on the suite database kind', () => {
  let handle: DatabaseHandle;
  let jobs: JobQueue;
  const cleanups: (() => Promise<void> | void)[] = [];
  /** Attempts of each queue's jobs, as `retryCount` values. */
  const attempts: Record<string, number[]> = { 'test.flaky': [], 'test.steady': [] };

  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-due-sweep-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    let databaseUrl: string | null = null;
    if (process.env.DATABASE_URL) {
      const db = await scratchDatabase(process.env.DATABASE_URL, `test_due_sweep_${process.pid}`);
      cleanups.push(db.drop);
      databaseUrl = db.url;
    }
    handle = await openDatabase({ ...loadConfig({ DATA_DIR: dir }), databaseUrl });
    cleanups.push(() => handle.close());
    jobs = new JobQueue(handle, silent, { pollMs: 500 });
    jobs.define({
      name: 'test.flaky',
      retryLimit: 2,
      retryDelaySeconds: 1,
      handler: async (_data, meta) => {
        attempts['test.flaky']?.push(meta.retryCount);
        if (meta.retryCount === 0) throw new Error('the first attempt fails');
      },
    });
    jobs.define({
      name: 'test.steady',
      handler: async (_data, meta) => {
        attempts['test.steady']?.push(meta.retryCount);
      },
    });
    await jobs.start();
    await jobs.startWorkers();
    cleanups.push(() => jobs.stop());
  });
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  test('a retry pg-boss schedules after a failure runs when due, found by the sweep', async () => {
    await jobs.sendNow('test.flaky', { n: 1 });
    await eventually(async () => (attempts['test.flaky']?.length ?? 0) >= 2, 30_000);
    assert.deepEqual(attempts['test.flaky'], [0, 1]);
    // the other queue had nothing to do and ran nothing
    assert.deepEqual(attempts['test.steady'], []);
  });

  test('a job sent now still runs at once (NOTIFY), and only once', async () => {
    await jobs.sendNow('test.steady', { n: 2 });
    await eventually(async () => (attempts['test.steady']?.length ?? 0) >= 1, 10_000);
    await new Promise((r) => setTimeout(r, 1200)); // two more sweeps
    assert.deepEqual(attempts['test.steady'], [0]);
  });
});

describe('the sweep on its own', () => {
  /** A target answering `due` to each query, recording queries and wakes; `held`: the answers wait for `release`. */
  function fakeTarget(due: string[], held = false) {
    const calls = { queries: [] as unknown[][], wakes: [] as string[] };
    let release = () => {};
    const answered = new Promise<void>((r) => {
      release = r;
    });
    const target: SweptQueue = {
      async query(_text, values) {
        calls.queries.push(values);
        if (held) await answered;
        return { rows: due.map((name) => ({ name })) };
      },
      wake: (queue) => calls.wakes.push(queue),
    };
    return { target, calls, release };
  }

  test('one statement per interval for all the queues; only the queues it names are woken', async () => {
    const { target, calls } = fakeTarget(['b']);
    const sweep = new DueJobSweep(['a', 'b', 'c'], target, silent, 20);
    sweep.start();
    await eventually(async () => calls.queries.length >= 3, 5_000);
    await sweep.stop();
    const n = calls.queries.length;
    assert.deepEqual(calls.queries[0], [['a', 'b', 'c']]);
    assert.deepEqual(calls.wakes, Array(n).fill('b'));
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(calls.queries.length, n, 'no sweep after stop');
  });

  test('stop waits for the statement in flight and wakes nobody with its answer', async () => {
    const { target, calls, release } = fakeTarget(['a'], true);
    const sweep = new DueJobSweep(['a'], target, silent, 10);
    sweep.start();
    await eventually(async () => calls.queries.length === 1, 5_000);
    let stopped = false;
    const stopping = sweep.stop().then(() => {
      stopped = true;
    });
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(stopped, false, 'stop returned while the statement ran');
    release();
    await stopping;
    assert.deepEqual(calls.wakes, []);
  });

  test('a failing statement is logged and the next interval sweeps again', async () => {
    let n = 0;
    const woken: string[] = [];
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    const sweep = new DueJobSweep(
      ['a'],
      {
        async query() {
          n++;
          if (n === 1) throw new Error('connection lost');
          return { rows: [{ name: 'a' }] };
        },
        wake: (q) => woken.push(q),
      },
      logger,
      10,
    );
    sweep.start();
    await eventually(async () => woken.length >= 1, 5_000);
    await sweep.stop();
    assert.match(lines[0] ?? '', /the sweep for due jobs failed/);
    assert.match(lines[0] ?? '', /connection lost/);
  });
});
