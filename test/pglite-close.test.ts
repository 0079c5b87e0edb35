/**
 * A request still running at a shutdown may begin a transaction on the embedded database after its
 * close has begun. Kysely's PGlite driver waits for PGlite to call back before it goes on, and
 * PGlite, closing, rejected without calling back: the transaction hung for ever and the rejection,
 * which nothing handled, stopped the process ("PGlite is closing", seen when a load test's clients
 * left just before a SIGTERM). src/db/pglite-one-trip.ts now lets such a transaction fail with
 * PGlite's error. Runs in both passes of the suite, on an embedded database of its own.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connect.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** What a promise came to within `ms`: its value, its error's message, or that it still waits. */
function settled<T>(promise: Promise<T>, ms = 5000): Promise<string> {
  return Promise.race([
    promise.then(
      (v) => `resolved: ${JSON.stringify(v)}`,
      (e: Error) => `rejected: ${e.message}`,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve(`still waiting after ${ms} ms`), ms).unref()),
  ]);
}

test('a transaction begun while the embedded database closes fails with the reason: no hang, no unhandled rejection', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-pglite-close-'));
  dirs.push(dir);
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    const handle = await openDatabase({ ...loadConfig({ DATA_DIR: dir }), databaseUrl: null });
    await sql`create table t (k int primary key)`.execute(handle.db);
    // one transaction under way when the close begins, one begun just after
    let release!: () => void;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let begun!: () => void;
    const underWay = new Promise<void>((resolve) => {
      begun = resolve;
    });
    const first = handle.db.transaction().execute(async (trx) => {
      await sql`insert into t values (1)`.execute(trx);
      begun();
      await holding;
      await sql`insert into t values (2)`.execute(trx);
      return 'committed';
    });
    await underWay;
    const closing = handle.close();
    const late = handle.db.transaction().execute(async (trx) => {
      await sql`insert into t values (3)`.execute(trx);
      return 'committed';
    });
    release();
    // the one under way finishes: the close waits for it
    assert.equal(await settled(first), 'resolved: "committed"');
    assert.equal(await settled(late), 'rejected: PGlite is closing');
    await closing;
    // let a rejection nobody handled surface (Node reports them after the microtasks of a turn)
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(unhandled.map(String), []);

    // opened again: the first transaction's rows, none of the late one's
    const again = await openDatabase({ ...loadConfig({ DATA_DIR: dir }), databaseUrl: null });
    try {
      const rows = await sql<{ k: number }>`select k from t order by k`.execute(again.db);
      assert.deepEqual(
        rows.rows.map((r) => r.k),
        [1, 2],
      );
    } finally {
      await again.close();
    }
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
