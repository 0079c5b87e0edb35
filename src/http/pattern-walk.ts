import { type AliasedSelectQueryBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { CountEstimates } from './count-estimates.ts';
import {
  applyFilters,
  applyList,
  applyOrder,
  type ListSpec,
  type ParsedFilter,
  type ParsedList,
} from './list-query.ts';

/**
 * The page of a list filtered by a pattern (`like`, `ilike`) over a large table.
 *
 * No index can test `%wonka%`, so PostgreSQL walks the index of the sort order and tests each row
 * until the page is full. It assumes the matches are spread over that order. When they are not,
 * the walk reads the whole workspace: at 1,000,000 cases, 2 s for `name.ilike=%wonka%&sort=name`
 * (every Wonka sorts near the end) and 1 s for a pattern that names one company, whatever the sort.
 * Reading every row once and sorting the few that match (the fenced query below) takes 280 ms
 * there, a little more than walking a tenth of the rows in order takes; where the matches are
 * spread, the walk answers in a millisecond.
 *
 * So the page walks in order at most a budget of rows (a twentieth of the table, at least
 * WALK_MIN_ROWS, plus the rows of the pages before) and, when the page is not full within it, asks
 * the fenced query: at worst half again the fenced query's time, without knowing in advance which
 * of the two is the cheaper. Both give the same rows: the first matches of a prefix of the order that
 * holds a whole page are the first matches of the order.
 */
export interface PatternWalk {
  /** The table the list walks: its size sets the budget. */
  table: string;
  /** The name the list's columns give it: `co` for `co.name`; the table's own when unqualified. */
  alias: string;
  /** Its rows alone, every column, under `alias`, with the conditions on its own columns. */
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  rows: SelectQueryBuilder<any, any, any>;
  /** The list's base query with `from` in place of the table. */
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  over: (from: AliasedSelectQueryBuilder<any, any>) => SelectQueryBuilder<any, any, any>;
}

export const WALK_MIN_ROWS = 2000;
/** The budget's share of the table: 20 is a twentieth of its rows. */
const WALK_SHARE = 20;

export const isPattern = (f: ParsedFilter) => f.op === 'like' || f.op === 'ilike';

/** Table sizes from the planner's statistics, kept a minute: a budget needs no more precision. */
const tableSizes = new CountEstimates(60_000, 100);

async function tableRows(db: Db, table: string): Promise<number> {
  const known = tableSizes.get(table);
  if (known !== undefined) return known;
  const { rows } = await sql<{ n: number }>`
    select greatest(reltuples, 0)::float8 as n from pg_class where oid = to_regclass(${table})`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  tableSizes.set(table, n);
  return n;
}

/** The walk's budget of rows for a page: exported for the tests, which seed more than it. */
export async function walkBudget(db: Db, table: string, parsed: Pick<ParsedList, 'page' | 'limit'>) {
  const share = Math.round((await tableRows(db, table)) / WALK_SHARE);
  return parsed.page * parsed.limit + Math.max(WALK_MIN_ROWS, share);
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
  const over = (from: Parameters<PatternWalk['over']>[0]) => walk.over(from) as QB;

  // the budget bounds the rows read: every filter applies to the walk's rows, none inside it (with
  // `status=open` inside, a prefix of 100,000 open cases read 400,000)
  const budget = await walkBudget(db, walk.table, parsed);
  const prefix = applyOrder(walk.rows, spec, parsed).limit(budget);
  const bounded = await applyList(select(over(prefix.as(walk.alias))), spec, parsed).execute();
  if (bounded.length === parsed.limit) return bounded;

  // not a full page within the budget: the matches lie further, or there are fewer than a page.
  // OFFSET 0 keeps the planner from merging the subquery into the outer, ordered one: it reads the
  // matching rows by the cheapest way (a sequential or bitmap scan), then sorts them. The table's
  // own filters go inside, where an index may serve them; a joined table's stay outside.
  const column = (f: ParsedFilter) => f.spec.column ?? f.field;
  const own = (f: ParsedFilter) => !column(f).includes('.') || column(f).startsWith(`${walk.alias}.`);
  const fenced = applyFilters(walk.rows, { filters: parsed.filters.filter(own) }).offset(0);
  return applyList(select(over(fenced.as(walk.alias))), spec, {
    ...parsed,
    filters: parsed.filters.filter((f) => !own(f)),
  }).execute();
}
