import { sql } from 'kysely';
import { type TObject, type TSchema, Type } from 'typebox';
import { caseListSpec } from '../cases/list-cases.ts';
import { CASE_STATUSES } from '../cases/schemas.ts';
import type { Db } from '../db/connect.ts';
import {
  applyFilters,
  EXACT_COUNT_UP_TO,
  estimatedTotal,
  type ListSpec,
  listQuerySchema,
  parseListQuery,
  plannedTop,
} from '../http/list-query.ts';
import { withTagSpellings } from '../tags/tag-filter-spellings.ts';

/** The cases list's filters but status (the counts are per status). */
export const caseCountSpec: ListSpec = {
  ...caseListSpec,
  filters: Object.fromEntries(Object.entries(caseListSpec.filters).filter(([k]) => k !== 'status')),
};

/** The query string: the filters and `count` (no sort, page or limit: there is no page). */
export function caseCountQuery(): TObject {
  const full = listQuerySchema(caseCountSpec);
  const { sort: _s, page: _p, limit: _l, ...props } = full.properties;
  const { patternProperties } = full as unknown as { patternProperties: Record<string, TSchema> };
  return Type.Object(props, { additionalProperties: false, patternProperties });
}

/**
 * Below this many matching cases (the planner's estimate), every figure is counted exactly: one
 * grouped count of at most this many index entries costs a few milliseconds.
 */
export const EXACT_CASE_COUNTS_BELOW = 10_000;

const COUNT_KEYS = ['all', ...CASE_STATUSES] as const;

export const CaseCounts = Type.Object(
  {
    all: Type.Integer({ description: 'Cases matching the filters, every status' }),
    ...Object.fromEntries(CASE_STATUSES.map((s) => [s, Type.Integer()])),
    estimated: Type.Optional(
      Type.Array(Type.Enum(COUNT_KEYS), {
        description: `Present only when some figures are the database's estimates rather than exact counts: the keys of those figures. With \`count=auto\` (the default), when more than ${EXACT_CASE_COUNTS_BELOW.toLocaleString('en-US')} cases match and the database prices an exact count higher, a status with more than ${EXACT_COUNT_UP_TO.toLocaleString('en-US')} matching cases is estimated, and \`all\` with it; \`count=exact\` counts every figure exactly.`,
      }),
    ),
  },
  { description: 'How many cases match the filters, in all and per status' },
);

type CountKey = (typeof COUNT_KEYS)[number];
type Counts = Record<CountKey, number> & { estimated?: CountKey[] };

/**
 * GET /v1/case-counts: every status's count in one call instead of one list call per status.
 *
 * `count=exact`: one grouped count, reading every matching case (150-350 ms for a workspace of
 * 1,000,000 cases). `count=auto` (the default) asks the planner first (EXPLAIN, no scan): when at
 * most EXACT_CASE_COUNTS_BELOW cases match, or when the grouped count is priced no dearer than the
 * capped one (a filter an index serves better without the status: one assignee's cases), the exact
 * grouped count runs. Otherwise one statement counts each status up to EXACT_COUNT_UP_TO + 1 cases
 * (at most that many entries of an index that starts with the status, per status), and a status
 * past that gets the planner's estimate (reused a few seconds, like a list's), never less than
 * EXACT_COUNT_UP_TO + 1. `estimated` names the figures that are estimates, and `all` with them.
 */
export async function countCases(
  db: Db,
  workspaceId: string,
  query: Record<string, unknown>,
): Promise<Counts> {
  const parsed = await withTagSpellings(db, workspaceId, parseListQuery(caseCountSpec, query));
  const matching = (status?: string) => {
    let q = db.selectFrom('cases').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
    if (status !== undefined) q = q.where('status', '=', status as never);
    return applyFilters(q, parsed);
  };
  const exact = async () => {
    const rows = await matching()
      .select((eb) => ['status', eb.fn.countAll<string>().as('n')])
      .groupBy('status')
      .execute();
    const out = zeroCounts();
    for (const r of rows) {
      out[r.status as CountKey] = Number(r.n);
      out.all += Number(r.n);
    }
    return out;
  };
  if (parsed.count === 'exact') return exact();

  const whole = await plannedTop(db, matching().select(sql<number>`1`.as('one')).compile());
  if (whole.rows <= EXACT_CASE_COUNTS_BELOW) return exact();
  const ofStatus = (status: string) => matching(status).select(sql<number>`1`.as('one'));
  const cappedOne = (status: string) =>
    db
      .selectFrom(
        ofStatus(status)
          .limit(EXACT_COUNT_UP_TO + 1)
          .as('matching'),
      )
      .select((eb) => [sql<string>`${status}::text`.as('status'), eb.fn.countAll<string>().as('n')]);
  let capped = cappedOne(CASE_STATUSES[0]);
  for (const status of CASE_STATUSES.slice(1)) capped = capped.unionAll(cappedOne(status));
  const cappedQuery = capped.compile();
  if (whole.cost <= (await plannedTop(db, cappedQuery)).cost) return exact();
  const { rows } = await db.executeQuery<{ status: string; n: string }>(cappedQuery);

  const out = zeroCounts();
  const estimated: CountKey[] = [];
  await Promise.all(
    rows.map(async (r) => {
      const status = r.status as CountKey;
      const n = Number(r.n);
      if (n <= EXACT_COUNT_UP_TO) {
        out[status] = n;
        return;
      }
      out[status] = await estimatedTotal(db, ofStatus(status).compile());
      estimated.push(status);
    }),
  );
  for (const s of CASE_STATUSES) out.all += out[s];
  if (estimated.length > 0) {
    // in the order of the response's keys, whatever order the estimates came back in
    out.estimated = COUNT_KEYS.filter((k) => k === 'all' || estimated.includes(k));
  }
  return out;
}

function zeroCounts(): Counts {
  return Object.fromEntries(COUNT_KEYS.map((k) => [k, 0])) as unknown as Counts;
}
