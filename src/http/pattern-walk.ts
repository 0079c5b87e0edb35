import type { AliasedSelectQueryBuilder, SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/connect.ts';
import {
  applyFilters,
  applyList,
  applyOrder,
  type ListSpec,
  type ParsedFilter,
  type ParsedList,
  plannedTop,
} from './list-query.ts';

/**
 * The page of a list filtered by a pattern (`like`, `ilike`) over a large table.
 *
 * No btree can test `%wonka%`, so PostgreSQL walks the index of the sort order and tests each row
 * until the page is full. It assumes the matches are spread over that order. When they are not,
 * the walk reads the whole workspace: at 1,000,000 cases, 2 s for `name.ilike=%wonka%&sort=name`
 * (every Wonka sorts near the end) and 1 s for a pattern that names one company, whatever the sort.
 * Reading the matching rows and sorting them (the fenced query below) takes 280 ms there with a
 * sequential scan, and a millisecond where a trigram index can find them (docs/performance.md);
 * where the matches are spread, the walk answers in a millisecond.
 *
 * Which is cheaper cannot be known in advance, so the page rents before it buys: it walks the order
 * for WALK_MIN_ROWS (plus the rows of the earlier pages), which fills the page when the matches are
 * spread; then, unless the planner expects fewer matches than a page, for at most the rows whose
 * walk it costs at a quarter of the fenced query; and when the page is still not full, runs the
 * fenced query. At worst that is the fenced query, a quarter more and a short walk. Every way gives
 * the same rows: the first matches of a prefix of the order that holds a whole page are the first
 * matches of the order.
 *
 * A list takes a walk only when an index gives each of its sorts in order (cases: migration 0027;
 * companies and individuals: 0029, extended by 0030; the audit log's occurred_at: 0022): sorted without one, every
 * walk would read and sort the whole workspace.
 */
export interface PatternWalk {
  /** The name the list's columns give the table: `co` for `co.name`; the table's own when unqualified. */
  alias: string;
  /** Its rows alone, every column, under `alias`, with the conditions on its own columns. */
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  rows: SelectQueryBuilder<any, any, any>;
  /** The list's base query with `from` in place of the table. */
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  over: (from: AliasedSelectQueryBuilder<any, any>) => SelectQueryBuilder<any, any, any>;
}

/**
 * The walk of a list over a table of a case's members (companies, individuals): `rows` are the
 * workspace's, shown while their case is not deleted.
 */
export function caseMemberWalk(
  db: Db,
  alias: string,
  // biome-ignore lint/suspicious/noExplicitAny: generic over the member tables' query builders
  rows: SelectQueryBuilder<any, any, any>,
): PatternWalk {
  return {
    alias,
    rows,
    over: (from) => {
      // biome-ignore lint/suspicious/noExplicitAny: the member tables differ, the join to the case does not
      const members: SelectQueryBuilder<any, any, any> = db.selectFrom(from);
      return members.innerJoin('cases as c', 'c.id', `${alias}.case_id`).where('c.deleted_at', 'is', null);
    },
  };
}

const WALK_MIN_ROWS = 1000;
/**
 * What the planner charges for one row of an ordered walk (an index entry and its heap row): 0.14
 * to 0.16 for the case list's sort indexes at 1,000,000 cases, with PostgreSQL's default costs.
 */
const WALK_ROW_COST = 0.15;
/** The walk may cost this share of the fenced query. */
const RENT_SHARE = 0.25;

/** Whether a page is read by walking (see PatternWalk): it is filtered by a pattern. */
export const isPatterned = (parsed: ParsedList) =>
  parsed.filters.some((f) => f.op === 'like' || f.op === 'ilike' || f.op === 'search');

/** The rows the walk may read for a page, from the planner's cost of the fenced query. */
export function walkBudget(fencedCost: number, parsed: Pick<ParsedList, 'page' | 'limit'>): number {
  const rented = Math.round((fencedCost * RENT_SHARE) / WALK_ROW_COST);
  return parsed.page * parsed.limit + Math.max(WALK_MIN_ROWS, rented);
}

/** The fenced query of a page: every matching row read, then sorted (see PatternWalk). */
// biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
function fencedPage<QB extends SelectQueryBuilder<any, any, any>>(
  spec: ListSpec,
  parsed: ParsedList,
  walk: PatternWalk,
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  select: (qb: QB) => SelectQueryBuilder<any, any, any>,
) {
  // OFFSET 0 keeps the planner from merging the subquery into the outer, ordered query: it reads the
  // matching rows by the cheapest way (a sequential, bitmap or trigram index scan), then sorts them.
  // The table's own filters go inside, where an index may serve them; a joined table's stay outside.
  const column = (f: ParsedFilter) => f.spec.column ?? f.field;
  const own = (f: ParsedFilter) => !column(f).includes('.') || column(f).startsWith(`${walk.alias}.`);
  const fenced = applyFilters(walk.rows, { filters: parsed.filters.filter(own) }).offset(0);
  return applyList(select(walk.over(fenced.as(walk.alias)) as QB), spec, {
    ...parsed,
    filters: parsed.filters.filter((f) => !own(f)),
  });
}

// biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
export async function patternPage<R, QB extends SelectQueryBuilder<any, any, any>>(
  spec: ListSpec,
  parsed: ParsedList,
  walk: PatternWalk,
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  select: (qb: QB) => SelectQueryBuilder<any, any, R>,
  db: Db,
): Promise<R[]> {
  // the budget bounds the rows read: every filter applies to the walk's rows, none inside it (with
  // `status=open` inside, a prefix of 100,000 open cases read 400,000)
  const walkUpTo = async (budget: number) => {
    const prefix = applyOrder(walk.rows, spec, parsed).limit(budget);
    const rows = await applyList(select(walk.over(prefix.as(walk.alias)) as QB), spec, parsed).execute();
    return rows.length === parsed.limit ? rows : undefined;
  };
  // spread matches fill the page within the least budget: one statement, no planning round trip
  const least = walkBudget(0, parsed);
  const early = await walkUpTo(least);
  if (early) return early;
  const fenced = fencedPage(spec, parsed, walk, select).compile();
  const planned = await plannedTop(db, fenced);
  // fewer matches than a page, to the planner's statistics: a walk would read to the end to find them
  const budget = planned.rows < parsed.limit ? 0 : walkBudget(planned.cost, parsed);
  const bounded = budget > least ? await walkUpTo(budget) : undefined;
  if (bounded) return bounded;
  // not a full page within the budget: the matches lie further, or there are fewer than a page
  return (await db.executeQuery(fenced)).rows as R[];
}
