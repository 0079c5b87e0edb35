/**
 * Issue 17: the list endpoints (GET /v1/cases, /v1/companies, /v1/individuals, /v1/checks,
 * /v1/webhook-logs, /v1/activities, /v1/audit-log, /v1/review-queue/checks and /cases) over
 * 1,000,000 cases of one main company, one individual, two checks, three webhook deliveries, about
 * 7.5 events and 3.4 audit entries each on PostgreSQL, every filter crossed with every sort
 * (the combinations of bench/list-plans.ts), through the real server in its own process
 * (`vericase serve`, as bench/foundation.ts runs it).
 *
 *   node bench/lists-1m.ts                 (recreates LIST_1M_DATABASE_URL, default
 *                                           postgres://postgres@127.0.0.1:5432/plans_helper)
 *   BENCH_1M=1 BENCH_ONLY=list-1m npm run bench     (on the bench database)
 *
 * BENCH_DURATION seconds (default 5) at 10 connections per combination, after 1 s of warm-up: 521
 * combinations, about 52 minutes. BENCH_LIST_1M_LISTS picks lists (default all of LISTS in
 * bench/seed-cases.ts); BENCH_LIST_1M_CASES overrides the number of cases; BENCH_LIST_BEFORE=1 drops
 * the indexes of the selected lists' index migrations first (0027, 0030, 0031, 0032, 0033:
 * LIST_INDEX_MIGRATIONS; the figures before them). Seeding a million cases and the rest takes
 * 10–25 minutes; BENCH_LIST_1M_REUSE=1 (run directly) keeps a database that bench/list-plans.ts or
 * an earlier run seeded with as many cases, and gives its workspace a new API key.
 */
import { sql } from 'kysely';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createApiKey } from '../src/workspaces/repository.ts';
import { load, startService, stopProcess } from './lib.ts';
import {
  findSeeded,
  LIST_INDEX_MIGRATIONS,
  LIST_TABLES,
  LISTS,
  type ListCombination,
  type ListName,
  listCombinations,
  openDb,
  type SeededCases,
  seedCasesDatabase,
} from './seed-cases.ts';

const CASES = Number(process.env.BENCH_LIST_1M_CASES ?? 1_000_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = 10;
const SELECTED = (process.env.BENCH_LIST_1M_LISTS ?? LISTS.join(','))
  .split(',')
  .filter(Boolean) as ListName[];

export interface ListFigures {
  combo: ListCombination;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** pagination.count of one response, with `~` when estimated. */
  count: string;
}

/**
 * Seeds `databaseUrl` (an empty database, or with `recreate`, one dropped and created first),
 * starts the service on it and loads each list combination in turn.
 */
export async function runLists1mBench(
  databaseUrl: string,
  opts: { recreate?: boolean; reuse?: boolean } = {},
): Promise<ListFigures[]> {
  for (const list of SELECTED)
    if (!LISTS.includes(list)) throw new Error(`BENCH_LIST_1M_LISTS: no list ${list}`);
  const seeded = (opts.reuse && (await seededBefore(databaseUrl))) || (await seed(databaseUrl, opts));
  const db = openDb(databaseUrl);
  if (process.env.BENCH_LIST_BEFORE === '1') {
    // the figures before the selected lists' index migrations (their indexes dropped, the earlier
    // ones back), the latest first
    const names = [...new Set(SELECTED.map((list) => LIST_INDEX_MIGRATIONS[list]))].sort().reverse();
    for (const name of names) {
      const { down } = await import(`../src/db/migrations/${name}.ts`);
      await down(db as never);
    }
    await sql`analyze`.execute(db);
  }
  const combos: ListCombination[] = [];
  const indexes = new Map<ListName, string[]>();
  try {
    for (const list of SELECTED) {
      combos.push(...(await listCombinations(db, seeded.workspaceId, list)));
      const { rows } = await sql<{ indexname: string }>`
        select indexname from pg_indexes where tablename = ${LIST_TABLES[list]} order by indexname`.execute(
        db,
      );
      indexes.set(
        list,
        rows.map((r) => r.indexname),
      );
    }
  } finally {
    await db.destroy();
  }

  const { base, server } = await startService({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    LOG_REQUESTS: process.env.LOG_REQUESTS ?? 'all',
    VERICASE_RATE_LIMIT_PER_MINUTE: '0',
  });
  const headers = { 'x-service-api-key': seeded.apiKey };
  const results: ListFigures[] = [];
  try {
    // the process's first seconds (JIT, pool) on a cheap list, unmeasured
    await load('warm-up', {
      url: `${base}/v1/cases`,
      headers,
      connections: CONNECTIONS,
      duration: 3,
      warmup: 0,
    });
    for (const combo of combos) {
      const url = `${base}/v1/${combo.list}?${new URLSearchParams(combo.query)}`;
      const res = await fetch(url, { headers });
      const body = (await res.json()) as { pagination?: { count: number; count_estimated?: boolean } };
      if (res.status !== 200) throw new Error(`${combo.label}: ${res.status} ${JSON.stringify(body)}`);
      const p = body.pagination;
      const count = p ? `${p.count_estimated ? '~' : ''}${p.count.toLocaleString('en-US')}` : '?';
      const f = await load(combo.label, {
        url,
        headers,
        connections: CONNECTIONS,
        duration: DURATION,
        warmup: 1,
      });
      results.push({ combo, rps: f.rps, p50: f.p50, p99: f.p99, errors: f.errors, count });
      console.error(
        `  ${combo.list} ${combo.label}: p50 ${f.p50} ms, p99 ${f.p99} ms, ${Math.round(f.rps)} req/s`,
      );
    }
  } finally {
    await stopProcess(server);
  }

  for (const list of SELECTED) {
    console.log(
      `\n## GET /v1/${list} over ${CASES.toLocaleString('en-US')} cases on PostgreSQL (${CONNECTIONS} connections, ${DURATION} s each)\n`,
    );
    console.log(`Indexes on ${LIST_TABLES[list]}: ${indexes.get(list)?.join(', ')}.\n`);
    console.log('| filter | sort | count | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---|---:|---:|---:|---:|---:|');
    for (const r of results.filter((x) => x.combo.list === list)) {
      // autocannon gives up on a request after 10 s and counts it apart from errors: none answered
      const figures =
        r.rps > 0
          ? `${Math.round(r.rps)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)}`
          : '0 | > 10,000 | > 10,000';
      console.log(
        `| ${r.combo.filter.replace(/\|/g, '\\|')} | ${r.combo.sort} | ${r.count} | ${figures} | ${r.errors} |`,
      );
    }
  }
  return results;
}

async function seed(databaseUrl: string, opts: { recreate?: boolean }): Promise<SeededCases> {
  console.log(`\nSeeding ${CASES.toLocaleString('en-US')} cases on PostgreSQL...`);
  return seedCasesDatabase(databaseUrl, CASES, {
    recreate: opts.recreate ?? false,
    log: (line) => console.log(line),
  });
}

/** A database seeded before with CASES cases (findSeeded), migrated, with a new key for its workspace. */
async function seededBefore(databaseUrl: string): Promise<SeededCases | undefined> {
  const found = await findSeeded(databaseUrl, CASES);
  if (!found) return undefined;
  const db = openDb(databaseUrl);
  try {
    // migrations added since it was seeded (an index build over millions of rows: before the service)
    await migrateToLatest(db as never);
    const key = await createApiKey(db, found.workspaceId, undefined, { name: 'lists-1m' });
    console.log(`\nReusing the ${CASES.toLocaleString('en-US')} cases of ${databaseUrl}`);
    return { ...found, apiKey: key.api_key, cases: CASES };
  } finally {
    await db.destroy();
  }
}

if (import.meta.main) {
  const url = process.env.LIST_1M_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/plans_helper';
  await runLists1mBench(url, { recreate: true, reuse: process.env.BENCH_LIST_1M_REUSE === '1' });
  process.exit(0);
}
