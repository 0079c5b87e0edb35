/**
 * Issue 17: the query plans of the case list (GET /v1/cases) over many cases on PostgreSQL.
 *
 *   node bench/list-plans.ts [--cases 100000|1000000] [--reuse] [--before] [--runs 3] [--only text]
 *
 * Recreates the database PLANS_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/plans_helper),
 * migrates it with the project's migrations and seeds N cases (bench/seed-cases.ts); `--reuse` keeps
 * a database already seeded with N cases. `--before` drops the indexes of migration
 * 0027_case_list_indexes first, to measure the plans without them.
 *
 * For each combination of filter and sort (bench/seed-cases.ts), it calls the endpoint's own
 * listCases (src/cases/list-cases.ts) through a Kysely that records the SQL it runs, then runs that
 * exact SQL, with its parameters, under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): the page (page 1,
 * limit 20) and the capped count (`count=auto`: at most 1001 rows counted). Each is run `--runs`
 * times (default 3) and the run with the median execution time is reported.
 */
import { parseArgs } from 'node:util';
import { CompiledQuery, sql } from 'kysely';
import { listCases } from '../src/cases/list-cases.ts';
import { countEstimates } from '../src/http/count-estimates.ts';
import { type ListCombination, listCombinations, openDb, seedCasesDatabase } from './seed-cases.ts';

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
) {
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) {
    const out = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`explain (analyze, buffers, format json) ${text}`, [...params]),
    );
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
      if (n['Node Type'].includes('Seq Scan') && n['Relation Name'] === 'cases') flags.add('SEQ SCAN');
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

/** Runs listCases for one combination and returns the page and capped-count SQL it ran. */
async function capture(
  databaseUrl: string,
  workspaceId: string,
  combo: ListCombination,
): Promise<{ page: Captured; count: Captured; db: ReturnType<typeof openDb> }> {
  const seen: Captured[] = [];
  const db = openDb(databaseUrl, (event) => {
    if (event.level === 'query') seen.push({ sql: event.query.sql, parameters: event.query.parameters });
  });
  await listCases(db, workspaceId, combo.query);
  const page = seen.find((q) => /^select \*/.test(q.sql) && / order by /.test(q.sql));
  const count = seen.find((q) => /^select count\(\*\)/.test(q.sql));
  if (!page || !count) throw new Error(`${combo.label}: listCases ran ${seen.map((q) => q.sql).join(' / ')}`);
  return { page, count, db };
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

async function main() {
  // every combination's count statement is captured: no estimate reused from the one before it
  countEstimates.ttlMs = 0;
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '100000' },
      reuse: { type: 'boolean', default: false },
      before: { type: 'boolean', default: false },
      runs: { type: 'string', default: '3' },
      only: { type: 'string' },
    },
  });
  const n = Number(values.cases);
  const runs = Number(values.runs);
  const databaseUrl = process.env.PLANS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/plans_helper';

  let workspaceId: string | undefined;
  if (values.reuse) {
    const db = openDb(databaseUrl);
    try {
      const row = await sql<{ id: string; n: number }>`
        select w.id, (select count(*)::int from cases c where c.workspace_id = w.id) as n
        from workspaces w where w.name = 'list-bench-main'`
        .execute(db)
        .catch(() => ({ rows: [] as { id: string; n: number }[] }));
      if (row.rows[0] && row.rows[0].n === n) workspaceId = row.rows[0].id;
    } finally {
      await db.destroy();
    }
  }
  if (!workspaceId) {
    console.error(`seeding ${n.toLocaleString('en-US')} cases into ${databaseUrl}...`);
    workspaceId = (await seedCasesDatabase(databaseUrl, n, { log: (l) => console.error(l) })).workspaceId;
  } else {
    console.error(`reusing the ${n.toLocaleString('en-US')} cases of ${databaseUrl}`);
  }

  const admin = openDb(databaseUrl);
  if (values.before) {
    const { down } = await import('../src/db/migrations/0027_case_list_indexes.ts');
    await down(admin as never).catch((err) => console.error(`(--before: ${err.message})`));
    await sql`analyze cases`.execute(admin);
  } else if (values.reuse) {
    // a reused database last measured --before lost them: put them back (an error when present)
    const { up } = await import('../src/db/migrations/0027_case_list_indexes.ts');
    await up(admin as never).catch(() => {});
  }
  const indexes = await sql<{ indexname: string }>`
    select indexname from pg_indexes where tablename = 'cases' order by indexname`.execute(admin);

  let combos = await listCombinations(admin, workspaceId);
  if (values.only) combos = combos.filter((c) => c.label.includes(values.only as string));

  const pages: { combo: ListCombination; m: Measured }[] = [];
  const counts = new Map<string, Measured>();
  for (const combo of combos) {
    const { page, count, db } = await capture(databaseUrl, workspaceId, combo);
    try {
      pages.push({ combo, m: await explain(db, page.sql, page.parameters, runs) });
      if (!counts.has(combo.filter))
        counts.set(combo.filter, await explain(db, count.sql, count.parameters, runs));
    } finally {
      await db.destroy();
    }
    console.error(`  ${combo.label}: ${pages[pages.length - 1].m.ms.toFixed(2)} ms`);
  }
  await admin.destroy();

  console.log(
    `\n## GET /v1/cases query plans: ${n.toLocaleString('en-US')} cases in one workspace${values.before ? ' (without 0027_case_list_indexes)' : ''}\n`,
  );
  console.log(`Indexes on cases: ${indexes.rows.map((r) => r.indexname).join(', ')}.\n`);
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
  const flagged = [
    ...pages.filter((p) => p.m.flags.length).map((p) => `page ${p.combo.label}: ${p.m.flags.join(', ')}`),
    ...[...counts].filter(([, m]) => m.flags.length).map(([f, m]) => `count ${f}: ${m.flags.join(', ')}`),
  ];
  console.log(
    `\n### Flagged (Seq Scan on cases, a sort of more than ${BIG_SORT_ROWS} rows, or over ${SLOW_MS} ms)\n`,
  );
  console.log(flagged.length ? flagged.map((f) => `- ${f}`).join('\n') : 'None.');
}

await main();
