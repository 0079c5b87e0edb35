/**
 * Issue 17: the query plans of the list endpoints (GET /v1/cases, /v1/companies, /v1/individuals,
 * /v1/checks, /v1/webhook-logs, /v1/activities, /v1/audit-log, /v1/review-queue/checks and
 * /v1/review-queue/cases) over many cases on PostgreSQL.
 *
 *   node bench/list-plans.ts [--list cases|companies|individuals|checks|webhook-logs|activities|
 *                                    audit-log|review-queue/checks|review-queue/cases]
 *                            [--cases 100000|1000000] [--reuse]
 *                            [--before] [--runs 3] [--only text]
 *
 * Recreates the database PLANS_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/plans_helper),
 * migrates it with the project's migrations and seeds N cases (bench/seed-cases.ts); `--reuse` keeps
 * a database already seeded with N cases. Each case has one main company and one individual, a
 * check on each, the webhook deliveries of its creation, its events and its audit entries.
 * `--before` drops the indexes of the list's last index migration first (LIST_INDEX_MIGRATIONS in
 * bench/seed-cases.ts), to measure the plans without them.
 *
 * For each combination of filter and sort (bench/seed-cases.ts), it calls the endpoint's own list
 * function (src/<list>/list-<list>.ts) through a Kysely that records the SQL it runs, then runs that
 * exact SQL, with its parameters, under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): the page (page 1,
 * limit 20; every statement it ran: a pattern filter may run two or three, see
 * src/http/pattern-walk.ts) and the capped count (`count=auto`: at most 1001 rows counted). Each is
 * run `--runs` times (default 3) and the run with the median execution time is reported.
 */
import { parseArgs } from 'node:util';
import { CompiledQuery, sql } from 'kysely';
import { listActivities } from '../src/activities/list-activities.ts';
import { listAuditLog } from '../src/audit-log/list.ts';
import { listCases } from '../src/cases/list-cases.ts';
import { listChecks } from '../src/checks/list-checks.ts';
import { listCompanies } from '../src/companies/list-companies.ts';
import { countEstimates } from '../src/http/count-estimates.ts';
import { listIndividuals } from '../src/individuals/list-individuals.ts';
import { listQueueCases, listQueueChecks } from '../src/review-queue/queue.ts';
import { listWebhookLogs } from '../src/webhooks/list-webhook-logs.ts';
import {
  findSeeded,
  LIST_INDEX_MIGRATIONS,
  LIST_TABLES,
  LISTS,
  type ListCombination,
  type ListName,
  listCombinations,
  openDb,
  seedCasesDatabase,
} from './seed-cases.ts';

const LIST_FUNCTIONS = {
  cases: listCases,
  companies: listCompanies,
  individuals: listIndividuals,
  checks: listChecks,
  'webhook-logs': listWebhookLogs,
  activities: listActivities,
  'audit-log': listAuditLog,
  'review-queue/checks': listQueueChecks,
  'review-queue/cases': listQueueCases,
} as const;
/** A Seq Scan on one of the tables the lists read is flagged. */
const LISTED_TABLES = new Set(Object.values(LIST_TABLES));

const SLOW_MS = 10;
/** A Sort (not incremental) whose input has more rows than this sorts "the whole set". */
const BIG_SORT_ROWS = 5000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Sort Method'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

interface Measured {
  plan: string;
  ms: number;
  planningMs: number;
  buffers: string;
  /** Rows the scans returned or filtered out (a filter checked inside an index shows in buffers only). */
  rowsRead: number;
  flags: string[];
}

function shape(node: PlanNode): string {
  let s = node['Node Type'];
  if (node['Scan Direction'] === 'Backward') s += ' Backward';
  if (node['Index Name']) s += ` ${node['Index Name']}`;
  else if (node['Relation Name'] && /Scan/.test(node['Node Type'])) s += ` ${node['Relation Name']}`;
  if (node['Sort Method']) s += ` [${node['Sort Method']}]`;
  const kids = node.Plans ?? [];
  if (kids.length === 1) return `${s} > ${shape(kids[0])}`;
  if (kids.length > 1) return `${s} (${kids.map(shape).join(', ')})`;
  return s;
}

function walk(node: PlanNode, visit: (n: PlanNode) => void): void {
  visit(node);
  for (const k of node.Plans ?? []) walk(k, visit);
}

async function explain(
  db: ReturnType<typeof openDb>,
  text: string,
  params: readonly unknown[],
  runs: number,
  settings: Captured[] = [],
) {
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    // under the settings the list function gave its transaction (src/db/serial-plans.ts), if any
    const out = await db.transaction().execute(async (trx) => {
      for (const setting of settings) await trx.executeQuery(CompiledQuery.raw(setting.sql));
      return trx.executeQuery<Record<string, unknown>>(
        CompiledQuery.raw(`explain (analyze, buffers, format json) ${text}`, [...params]),
      );
    });
    const raw = Object.values(out.rows[0] ?? {})[0];
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
      Plan: PlanNode;
      'Execution Time': number;
      'Planning Time': number;
    }[];
    const top = doc[0];
    let rowsRead = 0;
    const flags = new Set<string>();
    walk(top.Plan, (n) => {
      if (n['Node Type'].includes('Scan') && !n['Node Type'].startsWith('Bitmap Index')) {
        rowsRead +=
          ((n['Actual Rows'] ?? 0) +
            (n['Rows Removed by Filter'] ?? 0) +
            (n['Rows Removed by Index Recheck'] ?? 0)) *
          (n['Actual Loops'] ?? 1);
      }
      if (n['Node Type'].includes('Seq Scan') && LISTED_TABLES.has(n['Relation Name'] ?? ''))
        flags.add(`SEQ SCAN ${n['Relation Name']}`);
      if (n['Node Type'] === 'Sort') {
        const input = n.Plans?.[0];
        const rows = (input?.['Actual Rows'] ?? 0) * (input?.['Actual Loops'] ?? 1);
        if (rows > BIG_SORT_ROWS) flags.add(`SORT ${rows.toLocaleString('en-US')} rows`);
      }
    });
    const hit = top.Plan['Shared Hit Blocks'] ?? 0;
    const read = top.Plan['Shared Read Blocks'] ?? 0;
    if (top['Execution Time'] > SLOW_MS) flags.add(`> ${SLOW_MS} ms`);
    results.push({
      plan: shape(top.Plan),
      ms: top['Execution Time'],
      planningMs: top['Planning Time'],
      buffers: `${hit}+${read}`,
      rowsRead,
      flags: [...flags],
    });
  }
  results.sort((a, b) => a.ms - b.ms);
  return results[Math.floor(results.length / 2)];
}

interface Captured {
  sql: string;
  parameters: readonly unknown[];
}

/** Several statements measured as one: plans chained with `;`, times and rows added up. */
function combine(parts: Measured[]): Measured {
  if (parts.length === 1) return parts[0];
  const sum = (pick: (m: Measured) => number) => parts.reduce((a, m) => a + pick(m), 0);
  const hit = sum((m) => Number(m.buffers.split('+')[0]));
  const read = sum((m) => Number(m.buffers.split('+')[1]));
  const ms = sum((m) => m.ms);
  const flags = new Set(parts.flatMap((m) => m.flags.filter((f) => !f.startsWith('>'))));
  if (ms > SLOW_MS) flags.add(`> ${SLOW_MS} ms`);
  return {
    plan: parts.map((m, i) => `(${i + 1}) ${m.plan}`).join(' ; '),
    ms,
    planningMs: sum((m) => m.planningMs),
    buffers: `${hit}+${read}`,
    rowsRead: sum((m) => m.rowsRead),
    flags: [...flags],
  };
}

/**
 * Runs the list function for one combination and returns the SQL it ran: the page's statements (one,
 * or a pattern walk's two or three; its EXPLAIN of the fenced query, planning only, is left out) and
 * the capped count, unless a page that was not full proved the total.
 */
async function capture(
  databaseUrl: string,
  workspaceId: string,
  combo: ListCombination,
): Promise<{ page: Captured[]; count?: Captured; settings: Captured[]; db: ReturnType<typeof openDb> }> {
  const seen: Captured[] = [];
  const db = openDb(databaseUrl, (event) => {
    if (event.level === 'query') seen.push({ sql: event.query.sql, parameters: event.query.parameters });
  });
  await LIST_FUNCTIONS[combo.list](db, workspaceId, combo.query);
  const isCount = (q: Captured) => /^select count\(\*\)/.test(q.sql);
  const page = seen.filter((q) => !isCount(q) && !/^explain/.test(q.sql) && / order by /.test(q.sql));
  const count = seen.find(isCount);
  const settings = seen.filter((q) => /^set local /.test(q.sql));
  // no count statement: the page was not full, so it proves the total (src/http/list-query.ts)
  if (!page.length)
    throw new Error(`${combo.label}: ${combo.list} ran ${seen.map((q) => q.sql).join(' / ')}`);
  return { page, count, settings, db };
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

async function main() {
  // every combination's count statement is captured: no estimate reused from the one before it
  countEstimates.ttlMs = 0;
  const { values } = parseArgs({
    options: {
      list: { type: 'string', default: 'cases' },
      cases: { type: 'string', default: '100000' },
      reuse: { type: 'boolean', default: false },
      before: { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
      only: { type: 'string' },
    },
  });
  const list = values.list as ListName;
  if (!LISTS.includes(list)) throw new Error(`--list must be one of ${LISTS.join(', ')}`);
  const n = Number(values.cases);
  const runs = Number(values.runs);
  const databaseUrl = process.env.PLANS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/plans_helper';

  let workspaceId: string | undefined;
  if (values.reuse) workspaceId = (await findSeeded(databaseUrl, n))?.workspaceId;
  if (!workspaceId) {
    console.error(`seeding ${n.toLocaleString('en-US')} cases into ${databaseUrl}...`);
    workspaceId = (await seedCasesDatabase(databaseUrl, n, { log: (l) => console.error(l) })).workspaceId;
  } else {
    console.error(`reusing the ${n.toLocaleString('en-US')} cases of ${databaseUrl}`);
  }

  const admin = openDb(databaseUrl);
  const migrationName = LIST_INDEX_MIGRATIONS[list];
  const migration = await import(`../src/db/migrations/${migrationName}.ts`);
  const table = LIST_TABLES[list];
  if (values.before) {
    await migration.down(admin as never).catch((err: Error) => console.error(`(--before: ${err.message})`));
    await sql`analyze ${sql.table(table)}`.execute(admin);
  } else if (values.reuse) {
    // a reused database last measured --before lost them: put them back (an error when present)
    await migration.up(admin as never).catch(() => {});
  }
  const indexes = await sql<{ indexname: string }>`
    select indexname from pg_indexes where tablename = ${table} order by indexname`.execute(admin);

  let combos = await listCombinations(admin, workspaceId, list);
  if (values.only) combos = combos.filter((c) => c.label.includes(values.only as string));

  const pages: { combo: ListCombination; m: Measured }[] = [];
  const counts = new Map<string, Measured>();
  for (const combo of combos) {
    const { page, count, settings, db } = await capture(databaseUrl, workspaceId, combo);
    try {
      const parts: Measured[] = [];
      for (const statement of page)
        parts.push(await explain(db, statement.sql, statement.parameters, runs, settings));
      pages.push({ combo, m: combine(parts) });
      if (count && !counts.has(combo.filter))
        counts.set(combo.filter, await explain(db, count.sql, count.parameters, runs, settings));
    } finally {
      await db.destroy();
    }
    console.error(`  ${combo.label}: ${pages[pages.length - 1].m.ms.toFixed(2)} ms`);
  }
  await admin.destroy();

  console.log(
    `\n## GET /v1/${list} query plans: ${n.toLocaleString('en-US')} cases in one workspace${list === 'cases' ? '' : ' (one main company, one individual, two checks, three deliveries, its events and audit entries each)'}${values.before ? ` (without ${migrationName})` : ''}\n`,
  );
  console.log(`Indexes on ${table}: ${indexes.rows.map((r) => r.indexname).join(', ')}.\n`);
  console.log('### Page (page 1, limit 20)\n');
  console.log('| filter | sort | plan | ms | buffers hit+read | rows read | flags |');
  console.log('|---|---|---|---:|---:|---:|---|');
  for (const { combo, m } of pages) {
    console.log(
      `| ${cell(combo.filter)} | ${combo.sort} | ${cell(m.plan)} | ${m.ms.toFixed(2)} | ${m.buffers} | ${m.rowsRead.toLocaleString('en-US')} | ${m.flags.join(', ')} |`,
    );
  }
  console.log(`\n### Capped count (count=auto: count(*) over at most 1001 rows), per filter\n`);
  console.log('| filter | plan | ms | buffers hit+read | rows read | flags |');
  console.log('|---|---|---|---:|---:|---|');
  for (const [filter, m] of counts) {
    console.log(
      `| ${cell(filter)} | ${cell(m.plan)} | ${m.ms.toFixed(2)} | ${m.buffers} | ${m.rowsRead.toLocaleString('en-US')} | ${m.flags.join(', ')} |`,
    );
  }
  const proven = [...new Set(pages.map((p) => p.combo.filter))].filter((f) => !counts.has(f));
  if (proven.length)
    console.log(
      `\nNo count statement (page 1 was not full, so it proves the total): ${proven.map(cell).join('; ')}.`,
    );
  const flagged = [
    ...pages.filter((p) => p.m.flags.length).map((p) => `page ${p.combo.label}: ${p.m.flags.join(', ')}`),
    ...[...counts].filter(([, m]) => m.flags.length).map(([f, m]) => `count ${f}: ${m.flags.join(', ')}`),
  ];
  console.log(
    `\n### Flagged (Seq Scan on a listed table, a sort of more than ${BIG_SORT_ROWS} rows, or over ${SLOW_MS} ms)\n`,
  );
  console.log(flagged.length ? flagged.map((f) => `- ${f}`).join('\n') : 'None.');
}

await main();
