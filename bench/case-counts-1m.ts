/**
 * GET /v1/case-counts at 1,000,000 cases: `count=exact` against `count=auto` (the default) for a
 * few filters, through the use case itself (src/review-queue/case-counts.ts), median of 5 runs each,
 * the estimates cache cleared before every run. Seeds PLANS_DATABASE_URL (default plans_helper,
 * dropped and recreated) like bench/list-plans.ts unless it already holds the 1M seed. Not part of
 * `npm run bench`: run by hand, `node bench/case-counts-1m.ts`. Figures: docs/list-plans.md.
 */
import { sql } from 'kysely';
import { countEstimates } from '../src/http/count-estimates.ts';
import { countCases } from '../src/review-queue/case-counts.ts';
import { findSeeded, openDb, seedCasesDatabase } from './seed-cases.ts';

const N = 1_000_000;
const RUNS = 5;
const url = process.env.PLANS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/plans_helper';
const workspaceId =
  (await findSeeded(url, N))?.workspaceId ??
  (await seedCasesDatabase(url, N, { log: (l) => console.error(l) })).workspaceId;
const db = openDb(url);
const { rows } = await sql<{ a: string }>`
  select assignee_id as a from cases where workspace_id = ${workspaceId} and assignee_id is not null
  order by assignee_id limit 1`.execute(db);
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const filters: [string, Record<string, string>][] = [
  ['(none)', {}],
  ['tags=vip', { tags: 'vip' }],
  ['assignee_id', { assignee_id: rows[0].a }],
  ['created_at.gte=90 days ago', { 'created_at.gte': daysAgo(90) }],
  ['updated_at.gte=30 days ago', { 'updated_at.gte': daysAgo(30) }],
  ['name.ilike=%north%', { 'name.ilike': '%north%' }],
  ['tags=vip&created_at.gte=90 days ago', { tags: 'vip', 'created_at.gte': daysAgo(90) }],
];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`\n## GET /v1/case-counts, ${N.toLocaleString('en-US')} cases (median of ${RUNS})\n`);
console.log('| filters | count=exact ms | count=auto ms | estimated |');
console.log('|---|---:|---:|---|');
for (const [label, query] of filters) {
  const ms = { exact: [] as number[], auto: [] as number[] };
  let estimated: string[] | undefined;
  for (let i = 0; i < RUNS; i++) {
    for (const count of ['exact', 'auto'] as const) {
      countEstimates.clear();
      const start = performance.now();
      const counts = await countCases(db, workspaceId, { ...query, count });
      ms[count].push(performance.now() - start);
      if (count === 'auto') estimated = counts.estimated;
    }
  }
  console.log(
    `| ${label} | ${median(ms.exact).toFixed(1)} | ${median(ms.auto).toFixed(1)} | ${estimated?.join(', ') ?? '(none: exact)'} |`,
  );
}
await db.destroy();
