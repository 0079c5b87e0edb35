/**
 * The embedded database's autovacuum (src/embedded-maintenance): PostgreSQL's autovacuum rules with
 * their default settings, a pass that runs what each table is due, and the running service doing it
 * by itself. PGlite has no autovacuum process: before this module, nothing ever analyzed its tables
 * and every list was planned without statistics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { startServer } from '../drills/_lib.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connect.ts';
import { checkpointIfWritten } from '../src/embedded-maintenance/checkpoint.ts';
import { runMaintenancePass } from '../src/embedded-maintenance/pass.ts';
import { maintenanceDue, type TableActivity } from '../src/embedded-maintenance/thresholds.ts';
import { eventually, sampleCaseBody } from './helpers/harness.ts';
import { ownPglite } from './helpers/own-pglite.ts';
import { type Cleanups, cleanupsAfter, ownDatabaseEnv } from './helpers/own-server.ts';

const quiet: TableActivity = {
  reltuples: 1000,
  deadTuples: 0,
  insertsSinceVacuum: 0,
  modificationsSinceAnalyze: 0,
  neverAnalyzed: false,
  bytes: 8192,
};

describe('embedded maintenance: when a table is due', () => {
  const cases: [string, Partial<TableActivity>, ReturnType<typeof maintenanceDue>][] = [
    ['nothing changed', {}, null],
    // 50 + 0.1 x 1000 = 150 changes before an ANALYZE
    ['150 changes: not yet analyzed', { modificationsSinceAnalyze: 150 }, null],
    ['151 changes: analyzed', { modificationsSinceAnalyze: 151 }, 'analyze'],
    // 50 + 0.2 x 1000 = 250 dead rows before a VACUUM
    ['250 dead rows: not yet vacuumed', { deadTuples: 250 }, null],
    ['251 dead rows: vacuumed', { deadTuples: 251 }, 'vacuum'],
    // 1000 + 0.2 x 1000 = 1200 inserts before a VACUUM (the visibility map of index-only scans)
    ['1200 inserts: not yet vacuumed', { insertsSinceVacuum: 1200 }, null],
    [
      '1201 inserts, as many changes: both',
      { insertsSinceVacuum: 1201, modificationsSinceAnalyze: 1201 },
      'vacuum (analyze)',
    ],
    ['never analyzed, holding rows', { neverAnalyzed: true }, 'analyze'],
    ['never analyzed, empty', { neverAnalyzed: true, bytes: 0 }, null],
    // never vacuumed nor analyzed: reltuples -1 counts as no rows, so the bare thresholds apply
    ['reltuples -1, 51 changes', { reltuples: -1, modificationsSinceAnalyze: 51 }, 'analyze'],
    ['reltuples -1, 50 changes', { reltuples: -1, modificationsSinceAnalyze: 50 }, null],
  ];
  for (const [name, activity, expected] of cases) {
    test(name, () => assert.equal(maintenanceDue({ ...quiet, ...activity }), expected));
  }
});

describe('embedded maintenance: one pass over a database', () => {
  const handle = ownPglite('maintenance');
  const db = () => handle().db as unknown as Kysely<{ t: { k: number; v: string } }>;
  const statistics = async () =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_statistic where starelid = 't'::regclass`.execute(db())
      ).rows[0].n,
    );
  /**
   * The table's counters once PGlite has published them: a backend reports its changes when it goes
   * idle, at most once a second, so the caller polls with a statement in between.
   */
  const counters = (ready: (c: { dead: number; modified: number }) => boolean) =>
    eventually(async () => {
      await sql`select 1`.execute(db());
      const c = (
        await sql<{ dead: number; modified: number }>`
          select n_dead_tup::int as dead, n_mod_since_analyze::int as modified
          from pg_stat_user_tables where relname = 't'`.execute(db())
      ).rows[0];
      return ready(c) ? c : null;
    }, 20_000);

  before(async () => {
    await sql`create table t (k int primary key, v text not null)`.execute(db());
  });

  test('an empty table is left alone', async () => {
    assert.deepEqual(await runMaintenancePass(handle().db), []);
  });

  test('a filled table is analyzed once; a second pass has nothing to do', async () => {
    await sql`insert into t select g, 'row ' || g from generate_series(1, 500) g`.execute(db());
    await counters((c) => c.modified === 500);
    const done = await runMaintenancePass(handle().db);
    assert.deepEqual(
      done.map(({ table, action }) => ({ table, action })),
      [{ table: 'public.t', action: 'analyze' }],
    );
    assert.ok(done[0].ms >= 0);
    assert.equal(await statistics(), 2, 'one row of statistics per column');
    const { rows } = await sql<{ reltuples: number }>`
      select reltuples::int as reltuples from pg_class where relname = 't'`.execute(db());
    assert.equal(rows[0].reltuples, 500);
    await counters((c) => c.modified === 0);
    assert.deepEqual(await runMaintenancePass(handle().db), []);
  });

  test('dead rows past the threshold are vacuumed, and the changes analyzed with them', async () => {
    // 50 + 0.2 x 500 = 150 dead rows, 50 + 0.1 x 500 = 100 changes
    await sql`delete from t where k <= 200`.execute(db());
    await counters((c) => c.dead === 200 && c.modified === 200);
    const done = await runMaintenancePass(handle().db);
    assert.deepEqual(
      done.map(({ table, action }) => ({ table, action })),
      [{ table: 'public.t', action: 'vacuum (analyze)' }],
    );
    const after = await counters((c) => c.dead === 0 && c.modified === 0);
    assert.deepEqual(after, { dead: 0, modified: 0 });
    const { rows } = await sql<{ reltuples: number }>`
      select reltuples::int as reltuples from pg_class where relname = 't'`.execute(db());
    assert.equal(rows[0].reltuples, 300);
  });

  test('a pass told the process stops runs nothing more', async () => {
    await sql`update t set v = v || '!'`.execute(db());
    await counters((c) => c.modified === 300);
    assert.deepEqual(await runMaintenancePass(handle().db, () => true), []);
    const done = await runMaintenancePass(handle().db);
    assert.deepEqual(
      done.map(({ action }) => action),
      ['vacuum (analyze)'],
    );
  });

  test('between two statements the pass pauses as long as the first took, and not after the last', async () => {
    await sql`create table u (k int primary key)`.execute(db());
    await sql`insert into u select g from generate_series(1, 300) g`.execute(db());
    await sql`update t set v = v || '?'`.execute(db());
    await counters((c) => c.modified === 300);
    const pauses: number[] = [];
    const done = await runMaintenancePass(
      handle().db,
      () => false,
      async (ms) => {
        pauses.push(ms);
      },
    );
    assert.deepEqual(
      done.map(({ table }) => table),
      ['public.t', 'public.u'],
    );
    assert.deepEqual(pauses, [done[0]?.ms]);
    // a stop during the pause: the statement after it is not run (u changed first: its counters
    // are published by the time t's are)
    await sql`update u set k = k + 1000`.execute(db());
    await sql`update t set v = v || '?'`.execute(db());
    await counters((c) => c.modified === 300);
    let stopping = false;
    let paused = 0;
    const stopped = await runMaintenancePass(
      handle().db,
      () => stopping,
      async () => {
        paused++;
        stopping = true;
      },
    );
    assert.equal(paused, 1, 'u was due after t');
    assert.deepEqual(
      stopped.map(({ table }) => table),
      ['public.t'],
    );
  });

  test('a statement that fails is recorded with its message, and the pass goes on', async () => {
    // three tables due, in the pass's order t, u, w; u is dropped during the pause after t, so its
    // statement fails after the counters said it was due
    await sql`create table w (k int primary key)`.execute(db());
    await sql`insert into w select g from generate_series(1, 300) g`.execute(db());
    await sql`update u set k = k + 1000`.execute(db());
    await sql`update t set v = v || '#'`.execute(db());
    await counters((c) => c.modified === 300);
    const done = await runMaintenancePass(
      handle().db,
      () => false,
      async () => {
        await sql`drop table if exists u`.execute(db());
      },
    );
    assert.deepEqual(
      done.map(({ table, failed }) => ({ table, failed: failed === undefined ? undefined : 'failed' })),
      [
        { table: 'public.t', failed: undefined },
        { table: 'public.u', failed: 'failed' },
        { table: 'public.w', failed: undefined },
      ],
    );
    assert.match(done[1].failed ?? '', /relation "public\.u" does not exist/);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_statistic where starelid = 'w'::regclass`.execute(db());
    assert.equal(rows[0].n, 1, 'w was analyzed after the failure');
  });

  test('on PostgreSQL: only the named schemas, and a table maintained meanwhile by another process is skipped', async () => {
    // what a PostgreSQL server with autovacuum off gets (module.ts): our schema and the job queue's,
    // and each due table read again before its statement
    await sql`create schema other`.execute(db());
    for (const t of ['other.x', 'public.a1', 'public.a2']) {
      await sql`create table ${sql.raw(t)} (k int primary key)`.execute(db());
      await sql`insert into ${sql.raw(t)} select g from generate_series(1, 300) g`.execute(db());
    }
    // published counters (see `counters`): an ANALYZE before they are would see them come in after it
    await eventually(async () => {
      await sql`select 1`.execute(db());
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_user_tables
        where relname in ('a1', 'a2', 'x') and n_mod_since_analyze = 300`.execute(db());
      return rows[0].n === 3 || null;
    }, 20_000);
    const ours = (done: { table: string; action: string }[]) =>
      done
        .filter(({ table }) => ['public.a1', 'public.a2', 'other.x'].includes(table))
        .map(({ table, action }) => ({ table, action }));
    let pauses = 0;
    const done = await runMaintenancePass(
      handle().db,
      () => false,
      async () => {
        // another process analyzes a2 while this pass pauses after a1
        if (pauses++ === 0) await sql`analyze a2`.execute(db());
      },
      { schemas: ['public'], recheck: true },
    );
    assert.deepEqual(ours(done), [{ table: 'public.a1', action: 'analyze' }]);
    // unscoped (the embedded database: every table is ours), the other schema's table is maintained
    assert.deepEqual(
      ours(
        await runMaintenancePass(
          handle().db,
          () => false,
          async () => {},
        ),
      ),
      [{ table: 'other.x', action: 'analyze' }],
    );
  });
});

describe('embedded maintenance: the checkpoint', () => {
  const handle = ownPglite('checkpoint');
  const checkpointLsn = async () =>
    (
      await sql<{ lsn: string }>`select checkpoint_lsn::text as lsn from pg_control_checkpoint()`.execute(
        handle().db,
      )
    ).rows[0].lsn;

  test('runs when anything was written since the last one, and only then', async () => {
    await sql`create table c (k int primary key)`.execute(handle().db);
    await sql`insert into c select generate_series(1, 1000)`.execute(handle().db);
    const before = await checkpointLsn();
    const ms = await checkpointIfWritten(handle().db);
    assert.equal(typeof ms, 'number');
    const after = await checkpointLsn();
    assert.notEqual(after, before);
    assert.equal(await checkpointIfWritten(handle().db), null);
    assert.equal(await checkpointLsn(), after, 'no checkpoint without writes');
  });
});

// The service on the embedded database; on PostgreSQL, after this block, the service with the server's
// autovacuum off (or on: then it does nothing).

interface LogLine {
  msg: string;
  tables?: { table: string; action: string }[];
  checkpointMs?: number;
}

/**
 * `vericase serve` on `env` with a maintenance check every second, logging at info, and 60 cases
 * created through the API. Returns the server and its JSON log lines so far (complete lines only:
 * the output arrives in chunks).
 */
async function maintainedServer(env: Record<string, string>, key: string, cleanups: Cleanups) {
  const server = await startServer({
    env: {
      ...env,
      VERICASE_BOOTSTRAP_API_KEY: key,
      VERICASE_EMBEDDED_MAINTENANCE_SECONDS: '1',
      LOG_LEVEL: 'info',
      LOG_REQUESTS: 'off',
    },
  });
  cleanups.push(() => server.kill9());
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${server.base}/v1/cases`, {
      method: 'POST',
      headers: { 'x-service-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify(sampleCaseBody()),
    });
    assert.equal(res.status, 201, await res.text());
  }
  const lines = (): LogLine[] =>
    server
      .output()
      .split('\n')
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as LogLine];
        } catch {
          return [];
        }
      });
  return { server, lines };
}

if (!process.env.DATABASE_URL) {
  describe('embedded maintenance: the running service', () => {
    const cleanups = cleanupsAfter(after);

    test('analyzes the cases table by itself, and checkpoints', async () => {
      const key = 'vk_test_maintenance_key_0123456789';
      const env = await ownDatabaseEnv('maintenance', cleanups);
      // 60 cases. A pass analyzes the table as soon as it holds a row and has no statistics; the
      // next ANALYZE needs 50 + 10% more changes, so the last one saw between 1 and 60 cases
      const { server, lines } = await maintainedServer(env, key, cleanups);
      const maintained = () => lines().filter((l) => l.msg === 'embedded database maintained');
      const line = await eventually(
        async () => maintained().find((l) => l.tables?.some((t) => t.table === 'public.cases')),
        60_000,
      );
      const cases = line.tables?.find((t) => t.table === 'public.cases');
      assert.match(cases?.action ?? '', /analyze/);
      // every fifth pass (every 5 s here), a checkpoint of what the creates wrote
      const checkpoint = await eventually(
        async () => maintained().find((l) => l.checkpointMs !== undefined),
        60_000,
      );
      assert.ok((checkpoint.checkpointMs ?? -1) >= 0);
      assert.equal(await server.stop(), 0);
      // what the ANALYZE stored is in the catalog, there after a restart
      const handle = await openDatabase({ ...loadConfig({ DATA_DIR: env.DATA_DIR }), databaseUrl: null });
      try {
        const { rows } = await sql<{ reltuples: number; columns: number }>`
          select c.reltuples::int as reltuples,
            (select count(*)::int from pg_statistic s where s.starelid = c.oid) as columns
          from pg_class c where c.oid = 'cases'::regclass`.execute(handle.db);
        assert.ok(rows[0].reltuples >= 1 && rows[0].reltuples <= 60, `reltuples ${rows[0].reltuples}`);
        assert.ok(rows[0].columns > 10, `statistics on ${rows[0].columns} columns`);
      } finally {
        await handle.close();
      }
    });
  });
} else {
  describe('database maintenance: the service on PostgreSQL', () => {
    const cleanups = cleanupsAfter(after);

    test("with the server's autovacuum off, analyzes its own tables (and only them); with it on, does nothing", async () => {
      const key = 'vk_test_pg_maintenance_key_0123456789';
      const env = await ownDatabaseEnv('pg-maintenance', cleanups);
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      cleanups.push(() => client.end());
      // a server-wide setting (postgresql.conf): this test cannot change it, so it checks what the
      // service does with the server it has (CI's runs with autovacuum off)
      const autovacuumOff = (await client.query('show autovacuum')).rows[0].autovacuum !== 'on';
      // a table of somebody else's in the same database: not ours to maintain
      await client.query('create schema theirs; create table theirs.t (k int primary key)');
      await client.query('insert into theirs.t select g from generate_series(1, 500) g');
      const service = await maintainedServer(env, key, cleanups);
      const server = service.server;
      const lines = () => service.lines().filter((l) => /maintain|autovacuum/.test(l.msg));
      const casesStatistics = async () =>
        (
          await client.query<{ n: number }>(
            "select count(*)::int as n from pg_statistic where starelid = 'public.cases'::regclass",
          )
        ).rows[0].n;
      if (autovacuumOff) {
        const line = await eventually(
          async () =>
            lines().find(
              (l) =>
                l.msg === 'PostgreSQL tables maintained' && l.tables?.some((t) => t.table === 'public.cases'),
            ),
          60_000,
        );
        assert.match(line.tables?.find((t) => t.table === 'public.cases')?.action ?? '', /analyze/);
        assert.ok((await casesStatistics()) > 10, 'the ANALYZE stored statistics of the cases');
        // a few more passes: none touched another schema's table, and the notice came once
        await eventually(
          async () => lines().filter((l) => l.msg === 'PostgreSQL tables maintained').length >= 2 || null,
          60_000,
        );
        const tables = lines().flatMap((l) => l.tables?.map((t) => t.table) ?? []);
        assert.deepEqual(
          tables.filter((t) => !t.startsWith('public.') && !t.startsWith('pgboss.')),
          [],
          'only our tables and the job queue’s',
        );
        assert.equal(lines().filter((l) => /autovacuum is off/.test(l.msg)).length, 1);
      } else {
        await new Promise((r) => setTimeout(r, 3000)); // three passes' time
        assert.deepEqual(lines(), [], 'the server maintains its tables: the service runs nothing');
      }
      assert.equal(await server.stop(), 0);
    });
  });
}
