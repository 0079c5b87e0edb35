/**
 * Issues 2 and 17: ping, create case (the sample graph), get case, list cases with a filter and a
 * sort over 100,000 cases, against the real server in its own process (`vericase serve`, workers
 * in-process, as `npm start` runs it); a bare Fastify route configured like the service as the
 * ceiling; and, on PostgreSQL, the same create-case inserts straight through `pg` as the floor.
 *
 * Fairness: both sides of a ratio run in the same session, alternating round by round (A B A B ...,
 * BENCH_ROUNDS of BENCH_ROUND_SECONDS each, after a warm-up), and each figure is the median of its
 * rounds with the spread beside it. The ratios and verdicts go to bench/goals.ts.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
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
  type Series,
  startProcess,
  stopProcess,
} from './lib.ts';

const LIST_CASES = Number(process.env.BENCH_LIST_CASES ?? 100_000);

async function seed(env: NodeJS.ProcessEnv) {
  const config = loadConfig({ ...process.env, ...env, VERICASE_RUN_WORKERS: 'false', LOG_LEVEL: 'warn' });
  const rt = await openRuntime(config, pino({ level: 'warn' }));
  try {
    const main = await createWorkspace(rt.ctx.db, 'bench-main');
    const list = await createWorkspace(rt.ctx.db, 'bench-list');
    await sql`
      insert into cases (id, workspace_id, name, status, tags, created_at, updated_at, last_activity_at)
      select gen_random_uuid(), ${list.id}, 'Case ' || lpad(g::text, 6, '0'),
        (array['open','draft','approved','rejected','closed'])[1 + g % 5],
        case when g % 3 = 0 then array['vip'] else array[]::text[] end,
        now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
      from generate_series(1, ${LIST_CASES}) g
    `.execute(rt.ctx.db);
    await sql`vacuum analyze cases`.execute(rt.ctx.db); // as autovacuum would: visibility map for index-only counts
    return { mainKey: main.api_key, listKey: list.api_key, mainWorkspaceId: main.id };
  } finally {
    await rt.close();
  }
}

/**
 * The create-case inserts of the sample graph, in one transaction, straight through pg: the case,
 * companies, individuals, relations and the outbox events (same row counts and payload sizes).
 */
async function rawInsertFloor(
  databaseUrl: string,
  workspaceId: string,
  seconds: number,
  connections: number,
): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  const latencies: number[] = [];
  const end = Date.now() + seconds * 1000;
  const worker = async () => {
    while (Date.now() < end) {
      const t0 = performance.now();
      const client = await pool.connect();
      try {
        await client.query('begin');
        const caseId = randomUUID();
        await client.query(
          `insert into cases (id, workspace_id, name, status, custom_properties) values ($1, $2, $3, 'open', '{}') returning *`,
          [caseId, workspaceId, 'Acme onboarding'],
        );
        const co = [randomUUID(), randomUUID(), randomUUID()];
        await client.query(
          `insert into companies (id, workspace_id, case_id, type, name, country, status, address, classifications, custom_properties)
           values ($1,$4,$5,'main','Acme SAS','FR','not_reported','{}','[]','{}'),
                  ($2,$4,$5,'affiliated','Acme Holding GmbH','DE','not_reported','{}','[]','{}'),
                  ($3,$4,$5,'affiliated','Fund LP','GB','not_reported','{}','[]','{}') returning *`,
          [...co, workspaceId, caseId],
        );
        const ind = [randomUUID(), randomUUID(), randomUUID()];
        await client.query(
          `insert into individuals (id, workspace_id, case_id, first_name, last_name, is_beneficial_owner, is_controlling_person,
             is_business_contact, is_delegator, is_signatory, address, custom_properties)
           values ($1,$4,$5,'Ada','Lovelace',false,false,true,false,false,'{}','{}'),
                  ($2,$4,$5,'Alan','Turing',true,false,false,false,false,'{}','{}'),
                  ($3,$4,$5,'Grace','Hopper',false,false,false,false,false,'{}','{}') returning *`,
          [...ind, workspaceId, caseId],
        );
        await client.query(
          `insert into relations (id, workspace_id, case_id, from_company_id, from_individual_id, to_company_id, roles)
           values ($1,$6,$7,$8,null,$9,'{shareholder}'), ($2,$6,$7,$10,null,$8,'{shareholder}'),
                  ($3,$6,$7,null,$11,$9,'{legal_representative}'), ($4,$6,$7,null,$12,$8,'{shareholder}'),
                  ($5,$6,$7,null,$13,$9,'{legal_representative}') returning *`,
          [
            randomUUID(),
            randomUUID(),
            randomUUID(),
            randomUUID(),
            randomUUID(),
            workspaceId,
            caseId,
            co[1],
            co[0],
            co[2],
            ind[0],
            ind[1],
            ind[2],
          ],
        );
        // the transactional outbox: the service writes these events in the same transaction
        const payload = (kind: string, size: number) =>
          JSON.stringify({ [kind]: { id: randomUUID(), case_id: caseId, padding: 'x'.repeat(size) } });
        await client.query(
          `insert into events (id, workspace_id, case_id, type, payload)
           select gen_random_uuid(), $1, $2, t, p::jsonb from unnest($3::text[], $4::text[]) as u(t, p)`,
          [
            workspaceId,
            caseId,
            ['Case.Created', ...Array(3).fill('Company.Created'), ...Array(3).fill('Individual.Created')],
            [payload('case', 450), ...Array.from({ length: 6 }, () => payload('entity', 950))],
          ],
        );
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

export async function runFoundationBench(databaseUrl: string | null): Promise<Series[]> {
  ensureServerBundle();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-'));
  const env: NodeJS.ProcessEnv = databaseUrl
    ? { DATABASE_URL: databaseUrl }
    : { DATABASE_URL: '', DATA_DIR: dataDir };
  const label: DbLabel = databaseUrl ? 'PostgreSQL' : 'PGlite';
  console.log(`\nSeeding ${LIST_CASES} cases on ${label}...`);
  const { mainKey, listKey, mainWorkspaceId } = await seed(env);
  const series: Series[] = [];
  // Both processes get the same logging configuration: the service's defaults (LOG_LEVEL info, one
  // request line each, stdout to /dev/null), unless the environment of the bench sets them.
  const logEnv = {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    LOG_REQUESTS: process.env.LOG_REQUESTS ?? 'all',
  };

  const barePort = await freePort();
  const bare = await startProcess(
    ['bench/bare-server.ts'],
    { ...logEnv, PORT: String(barePort) },
    `http://127.0.0.1:${barePort}/ping`,
  );
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    ['bin/vericase.js', 'serve'],
    { ...env, ...logEnv, PORT: String(port), HOST: '127.0.0.1', VERICASE_RATE_LIMIT_PER_MINUTE: '0' },
    `${base}/healthz`,
  );
  try {
    const h = { 'x-service-api-key': mainKey, 'content-type': 'application/json' };
    const [ceiling, ping] = await alternate([
      httpTarget('bare Fastify route (ceiling), 20 connections', {
        url: `http://127.0.0.1:${barePort}/ping`,
      }),
      httpTarget('GET /v1/ping, 20 connections', { url: `${base}/v1/ping`, headers: h }),
    ]);
    series.push(ceiling, ping);
    const pingRatio = ratio(ping, ceiling);
    recordFigure('ping-ratio', label, pingRatio.median * 100, [pingRatio.min * 100, pingRatio.max * 100]);

    const create = httpTarget('POST /v1/cases (3 companies, 3 individuals, relations), 10 connections', {
      url: `${base}/v1/cases`,
      method: 'POST',
      headers: h,
      body: JSON.stringify(sampleCaseBody()),
      connections: 10,
    });
    if (databaseUrl) {
      const [service, floor] = await alternate([
        create,
        {
          name: 'create-case inserts straight through `pg` (floor), 10 connections',
          run: (seconds) => rawInsertFloor(databaseUrl, mainWorkspaceId, seconds, 10),
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
    await stopProcess(bare);
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
