/**
 * Issues 2 and 17: ping, create case (the sample graph), get case, list cases with a filter and a
 * sort over 100,000 cases, against the real server in its own process (`vericase serve`, workers
 * in-process, as `npm start` runs it); a bare Fastify route configured like the service as the
 * ceiling; and, on PostgreSQL, the floor: the rows the service stored for one create of the sample
 * graph, written again straight through `pg` in one statement (rawInsertFloor).
 *
 * Fairness: both sides of a ratio run in the same session, alternating round by round (A B A B ...,
 * BENCH_ROUNDS of BENCH_ROUND_SECONDS each, after a warm-up), and each figure is the median of its
 * rounds with the spread beside it. The ping ratio is taken over several pairs of fresh processes
 * (pingPairs). The ratios and verdicts go to bench/goals.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { sampleCaseBody } from '../test/helpers/harness.ts';
import { type DbLabel, printVerdicts, recordFigure } from './goals.ts';
import {
  alternate,
  ensureServerBundle,
  type Figures,
  freePort,
  httpTarget,
  percentile,
  printSeries,
  ROUND_SECONDS,
  ROUNDS,
  ratio,
  SEED_LIST_CASES_SQL,
  type Series,
  spread,
  startProcess,
  startService,
  stopProcess,
  summarise,
  withPinnedCpus,
} from './lib.ts';

const LIST_CASES = Number(process.env.BENCH_LIST_CASES ?? 100_000);
/** Process pairs and rounds per pair of the ping ratio (pingPairs). */
const PING_PAIRS = Number(process.env.BENCH_PING_PAIRS ?? 5);
const PING_ROUNDS = Number(process.env.BENCH_PING_ROUNDS ?? 3);

async function seed(env: NodeJS.ProcessEnv) {
  const config = loadConfig({ ...process.env, ...env, VERICASE_RUN_WORKERS: 'false', LOG_LEVEL: 'warn' });
  const rt = await openRuntime(config, pino({ level: 'warn' }));
  try {
    const main = await createWorkspace(rt.ctx.db, 'bench-main');
    const list = await createWorkspace(rt.ctx.db, 'bench-list');
    await rt.ctx.db.executeQuery(CompiledQuery.raw(SEED_LIST_CASES_SQL, [list.id, LIST_CASES]));
    await sql`vacuum analyze cases`.execute(rt.ctx.db); // as autovacuum would: visibility map for index-only counts
    return { mainKey: main.api_key, listKey: list.api_key };
  } finally {
    await rt.close();
  }
}

/** The tables a case create writes, in the order the floor writes them. */
const FLOOR_TABLES = ['cases', 'companies', 'individuals', 'relations', 'events', 'audit_log'] as const;
type FloorTable = (typeof FLOOR_TABLES)[number];

/** Rows of a table as the database's text of each column (sequence-numbered columns left out). */
interface TemplateRows {
  columns: string[];
  rows: (string | null)[][];
}

/**
 * What the service stored for one create of the sample graph, column by column as text: the case,
 * its companies, individuals and relations, its events (with the actor and activity columns their
 * indexes cover) and its audit entry. The floor writes copies of these rows, so it does the same
 * inserts as the service: the same columns, payloads and index entries.
 */
async function storedCreate(databaseUrl: string, caseId: string): Promise<Record<FloorTable, TemplateRows>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const out = {} as Record<FloorTable, TemplateRows>;
    for (const table of FLOOR_TABLES) {
      const { rows: cols } = await client.query<{ column_name: string }>(
        `select column_name from information_schema.columns
         where table_schema = 'public' and table_name = $1 and coalesce(column_default, '') not like 'nextval%'
         order by ordinal_position`,
        [table],
      );
      const columns = cols.map((c) => c.column_name);
      const where =
        table === 'cases'
          ? 'id = $1'
          : table === 'audit_log'
            ? `resource_id = $1 and action = 'case.create'`
            : 'case_id = $1';
      const order = table === 'events' ? 'seq' : columns.includes('created_at') ? 'created_at, id' : 'id';
      const { rows } = await client.query({
        text: `select ${columns.map((c) => `"${c}"::text`).join(', ')} from ${table} where ${where} order by ${order}`,
        values: [caseId],
        rowMode: 'array',
      });
      out[table] = { columns, rows };
    }
    return out;
  } finally {
    await client.end();
  }
}

/**
 * The floor of the create ratio: the rows the service stored for one create of the sample graph
 * (storedCreate) written again with new ids, straight through pg with no HTTP, validation or
 * presentation, in the fewest round trips: begin, one statement, commit. The statement inserts
 * every table's rows (data-modifying CTEs), the events' outbox rows with them, and reads the graph
 * back as JSON, as the service does.
 */
async function rawInsertFloor(
  databaseUrl: string,
  template: Record<FloorTable, TemplateRows>,
  seconds: number,
  connections: number,
): Promise<Figures> {
  let n = 1;
  const ctes = FLOOR_TABLES.map((table) => {
    const t = template[table];
    const tuples = t.rows.map(() => `(${t.columns.map(() => `$${n++}`).join(', ')})`);
    const insert = `insert into ${table} (${t.columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`;
    return `new_${table} as (${insert} returning ${table === 'events' ? 'seq, workspace_id' : '*'})`;
  });
  const statement = `with ${ctes.join(', ')},
    outbox as (insert into event_outbox (seq, workspace_id) select seq, workspace_id from new_events)
    select (select to_json(x) from new_cases x) as case_row, (select json_agg(x) from new_companies x) as companies,
      (select json_agg(x) from new_individuals x) as individuals, (select json_agg(x) from new_relations x) as relations`;
  // every id of the template (the case's, its entities', its events', the audit entry's) is replaced
  const templateIds = new Set(
    FLOOR_TABLES.flatMap((t) => {
      const at = template[t].columns.indexOf('id');
      return template[t].rows.map((r) => r[at] as string);
    }),
  );
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const ids = new Map([...templateIds].map((id) => [id, randomUUID()]));
      const values = FLOOR_TABLES.flatMap((t) =>
        template[t].rows.flatMap((row) => row.map((v) => (v !== null && ids.has(v) ? ids.get(v) : v))),
      );
      const client = await pool.connect();
      try {
        await client.query('begin');
        await client.query(statement, values);
        await client.query('commit');
      } finally {
        client.release();
      }
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  await pool.end();
  latencies.sort((a, b) => a - b);
  return {
    name: 'create case: raw inserts via pg (floor)',
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors: 0,
  };
}

/**
 * Process pairs for the ping ratio: BENCH_PING_PAIRS (default 5) times, a fresh bare process and a
 * fresh service process, both on CPU 0 with the load generator on CPU 1, measured in alternation
 * (BENCH_PING_ROUNDS rounds, default 3, after the warm-up), then stopped. The ratio is the median of
 * the pairs' ratios, its spread their min-max. Why pairs: two processes of the same build, started
 * the same way, settle at per-request costs up to 10-15% apart and keep them for their whole life
 * (session 18: three pairs in a row gave 87%, 89% and 72%), so one pair's ratio was a draw of two
 * processes, not a measure of the code. On PGlite the service's data directory allows one process
 * at a time: each pair's service is stopped before the next starts, and before the main one.
 */
async function pingPairs(
  serverEnv: NodeJS.ProcessEnv,
  logEnv: NodeJS.ProcessEnv,
  key: string,
  label: DbLabel,
): Promise<Series[]> {
  const ceilingRuns: Figures[] = [];
  const pingRuns: Figures[] = [];
  const ratios: number[] = [];
  let allPinned = true;
  for (let pair = 0; pair < PING_PAIRS; pair++) {
    const barePort = await freePort();
    const bare = await startProcess(
      ['bench/bare-server.ts'],
      { ...logEnv, PORT: String(barePort) },
      `http://127.0.0.1:${barePort}/ping`,
    );
    // the bare route is stopped whatever happens next: a service that fails to start (a build
    // changed under the bench) left it running idle after the bench had ended
    let server: Awaited<ReturnType<typeof startService>>['server'] | undefined;
    try {
      // measured once ready (/readyz 200): the sanctions lists load in the background after the
      // port opens, on the CPU the bare route is measured on, for a few seconds into the first round
      const started = await startService(serverEnv, { ready: true });
      server = started.server;
      const base = started.base;
      const { result, pinned } = await withPinnedCpus([bare, server], () =>
        alternate(
          [
            httpTarget('bare Fastify route (ceiling), 20 connections', {
              url: `http://127.0.0.1:${barePort}/ping`,
            }),
            httpTarget('GET /v1/ping, 20 connections', {
              url: `${base}/v1/ping`,
              headers: { 'x-service-api-key': key },
            }),
          ],
          PING_ROUNDS,
        ),
      );
      allPinned &&= pinned;
      const [ceiling, ping] = result;
      ceilingRuns.push(...ceiling.runs);
      pingRuns.push(...ping.runs);
      ratios.push(ratio(ping, ceiling).median);
    } finally {
      if (server) await stopProcess(server);
      await stopProcess(bare);
    }
  }
  const where = `${PING_PAIRS} process pairs x ${PING_ROUNDS} round${PING_ROUNDS === 1 ? '' : 's'}${allPinned ? ', servers on CPU 0, load on CPU 1' : ''}`;
  const ceiling = summarise(`bare Fastify route (ceiling), 20 connections, ${where}`, ceilingRuns);
  const ping = summarise(`GET /v1/ping, 20 connections, ${where}`, pingRuns);
  const r = spread(ratios);
  console.log(
    `ping / bare route on ${label}, per process pair: ${ratios.map((x) => `${(x * 100).toFixed(0)}%`).join(', ')} (median ${(r.median * 100).toFixed(0)}%)`,
  );
  recordFigure('ping-ratio', label, r.median * 100, [r.min * 100, r.max * 100]);
  return [ceiling, ping];
}

export async function runFoundationBench(databaseUrl: string | null): Promise<Series[]> {
  ensureServerBundle();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-'));
  const env: NodeJS.ProcessEnv = databaseUrl
    ? { DATABASE_URL: databaseUrl }
    : { DATABASE_URL: '', DATA_DIR: dataDir };
  const label: DbLabel = databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(`\nSeeding ${LIST_CASES} cases on ${label}...`);
  const { mainKey, listKey } = await seed(env);
  const series: Series[] = [];
  // Both processes get the same logging configuration: the service's defaults (LOG_LEVEL info, one
  // request line each, stdout to /dev/null), unless the environment of the bench sets them.
  const logEnv = {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    LOG_REQUESTS: process.env.LOG_REQUESTS ?? 'all',
  };

  const serverEnv = { ...env, ...logEnv, VERICASE_RATE_LIMIT_PER_MINUTE: '0' };
  series.push(...(await pingPairs(serverEnv, logEnv, mainKey, label)));

  const { base, server } = await startService(serverEnv);
  try {
    const h = { 'x-service-api-key': mainKey, 'content-type': 'application/json' };
    const create = httpTarget('POST /v1/cases (3 companies, 3 individuals, relations), 10 connections', {
      url: `${base}/v1/cases`,
      method: 'POST',
      headers: h,
      body: JSON.stringify(sampleCaseBody()),
      connections: 10,
    });
    if (databaseUrl) {
      const sample: any = await (
        await fetch(`${base}/v1/cases`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify(sampleCaseBody()),
        })
      ).json();
      const template = await storedCreate(databaseUrl, sample.id);
      const [service, floor] = await alternate([
        create,
        {
          name: 'create-case inserts straight through `pg` (floor), 10 connections',
          run: (seconds) => rawInsertFloor(databaseUrl, template, seconds, 10),
        },
      ]);
      series.push(service, floor);
      const r = ratio(service, floor);
      recordFigure('create-ratio', label, r.median * 100, [r.min * 100, r.max * 100]);
      recordFigure('create-rps', label, service.rps.median, [service.rps.min, service.rps.max]);
    } else {
      const [service] = await alternate([create]);
      series.push(service);
      recordFigure('create-rps', label, service.rps.median, [service.rps.min, service.rps.max]);
    }

    const created: any = await (
      await fetch(`${base}/v1/cases`, { method: 'POST', headers: h, body: JSON.stringify(sampleCaseBody()) })
    ).json();
    const listHeaders = { 'x-service-api-key': listKey };
    const [getCase, list, listAtRest, deep] = await alternate([
      httpTarget('GET /v1/cases/{id}, 20 connections', { url: `${base}/v1/cases/${created.id}`, headers: h }),
      httpTarget(
        `GET /v1/cases?status=open&tags=vip&sort=name.desc over ${LIST_CASES} cases, 10 connections`,
        {
          url: `${base}/v1/cases?status=open&tags=vip&sort=name.desc`,
          headers: listHeaders,
          connections: 10,
        },
      ),
      httpTarget('same list, 1 connection (latency at rest)', {
        url: `${base}/v1/cases?status=open&tags=vip&sort=name.desc`,
        headers: listHeaders,
        connections: 1,
      }),
      httpTarget(`GET /v1/cases?status.in=open,draft&sort=last_activity_at.desc&page=50, 10 connections`, {
        url: `${base}/v1/cases?status.in=open,draft&sort=last_activity_at.desc&page=50`,
        headers: listHeaders,
        connections: 10,
      }),
    ]);
    series.push(getCase, list, listAtRest, deep);
    recordFigure('list-p99', label, list.p99.median, [list.p99.min, list.p99.max]);
    recordFigure('list-deep-p99', label, deep.p99.median, [deep.p99.min, deep.p99.max]);
  } finally {
    await stopProcess(server);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  printSeries(
    `Foundation on ${label} (2 cores; autocannon; ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s per measurement)`,
    series,
  );
  return series;
}

if (import.meta.main) {
  await runFoundationBench(process.env.DATABASE_URL || null);
  printVerdicts();
}
