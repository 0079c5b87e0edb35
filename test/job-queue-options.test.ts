/**
 * A queue keeps the options it was created with unless the service brings them back: a release
 * that changes a queue's retries or expiry must reach an existing installation at its next start
 * (src/jobs/queue.ts, `start`).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/connect.ts';
import { type JobDefinition, JobQueue } from '../src/jobs/queue.ts';
import { scratchDatabase } from './helpers/scratch-database.ts';

const silent = pino({ level: 'silent' });

describe('job queue options on an existing installation', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  async function options(handle: DatabaseHandle) {
    const { rows } = await sql<{ retry_limit: number; retry_delay: number; expire_seconds: number }>`
      select retry_limit, retry_delay, expire_seconds from pgboss.queue where name = 'test.options'`.execute(
      handle.db,
    );
    return rows[0];
  }

  async function startWith(handle: DatabaseHandle, def: Partial<JobDefinition>) {
    const jobs = new JobQueue(handle, silent, { pollMs: 60_000 });
    jobs.define({ name: 'test.options', handler: async () => {}, ...def });
    await jobs.start();
    await jobs.stop();
  }

  test("a start brings an existing queue's retries and expiry to what the code declares", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-queue-options-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    let databaseUrl: string | null = null;
    if (process.env.DATABASE_URL) {
      const db = await scratchDatabase(process.env.DATABASE_URL, `test_queue_options_${process.pid}`);
      cleanups.push(db.drop);
      databaseUrl = db.url;
    }
    const handle = await openDatabase({ ...loadConfig({ DATA_DIR: dir }), databaseUrl });
    cleanups.push(() => handle.close());

    await startWith(handle, { retryLimit: 2, retryDelaySeconds: 3, expireInSeconds: 60 });
    assert.deepEqual(await options(handle), { retry_limit: 2, retry_delay: 3, expire_seconds: 60 });
    // the next release retries more and lets a job run longer
    await startWith(handle, { retryLimit: 7, retryDelaySeconds: 3, expireInSeconds: 300 });
    assert.deepEqual(await options(handle), { retry_limit: 7, retry_delay: 3, expire_seconds: 300 });
    // and a start with the same declaration changes nothing
    await startWith(handle, { retryLimit: 7, retryDelaySeconds: 3, expireInSeconds: 300 });
    assert.deepEqual(await options(handle), { retry_limit: 7, retry_delay: 3, expire_seconds: 300 });
  });
});
