import { CompiledQuery, type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import { type TObject, type TSchema, Type } from 'typebox';
import type { Db } from '../db/connect.ts';
import { foldText } from '../shared/fold-text.ts';
import { validDateTime, validDay } from '../shared/time.ts';
import { countEstimates } from './count-estimates.ts';
import { ApiError, type ErrorDetail } from './errors.ts';
import { isPatterned, type PatternWalk, patternPage } from './pattern-walk.ts';
import { customFormats, FORMAT_MESSAGES } from './schema-formats.ts';

/**
 * The one implementation of list filtering, sorting and pagination (spec: "Conventions for all
 * list endpoints"). Each endpoint declares its fields; this module validates the query against
 * the declaration and compiles it to SQL with bound parameters only.
 */
export type FilterKind = 'text' | 'set' | 'array' | 'date' | 'day' | 'uuid';
export type FilterOp =
  | 'eq'
  | 'not_eq'
  | 'like'
  | 'ilike'
  /** Words anywhere in the text, whatever their case and accents (a vericase extension). */
  | 'search'
  | 'in'
  | 'not_in'
  | 'array_contains'
  | 'array_not_contains'
  | 'array_overlap'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte';

export interface FilterSpec {
  kind: FilterKind;
  /** Column reference in the query (defaults to the field name). */
  column?: string;
  /** Operators allowed; defaults by kind. */
  ops?: readonly FilterOp[];
  /** Allowed values (set kind; or a text or array filter over a closed list of names). */
  values?: readonly string[];
  /**
   * A format each value must have (src/http/schema-formats.ts): the column only holds such values,
   * so any other (`country=fr`, `country=FRA`) is an invalid value, not a filter that matches nothing.
   */
  format?: 'alpha-2';
  /**
   * A value that stands for several stored ones (text filters with eq, not_eq, in, not_in): the
   * filter matches any of them, `eq` and `not_eq` becoming `in` and `not_in`.
   */
  expand?: (value: string) => readonly string[];
  /** Values of the column are equal whatever their case (tag labels): eq and not_eq compare so. */
  caseInsensitive?: true;
}

export interface ListSpec {
  filters: Record<string, FilterSpec>;
  sort: readonly string[];
  /** Column per sortable field (defaults to the field name). */
  sortColumns?: Record<string, string>;
  /** Column used as the final tie-breaker, so pages never overlap. */
  idColumn: string;
  maxLimit?: number;
  /**
   * The order without `sort`. The spec's convention for every list is `created_at` ascending (it wins
   * over the reference, which orders checks, templates and webhooks by `updated_at` and logs newest
   * first); only lists without a `created_at` set their own (the audit log, the review queues).
   */
  defaultSort?: SortTerm;
}

interface SortTerm {
  field: string;
  desc: boolean;
}
const CREATED_ASC: SortTerm = { field: 'created_at', desc: false };

const DEFAULT_OPS: Record<FilterKind, readonly FilterOp[]> = {
  text: ['eq', 'not_eq'],
  set: ['eq', 'not_eq', 'in', 'not_in'],
  array: ['array_contains', 'array_not_contains', 'array_overlap'],
  date: ['eq', 'not_eq', 'gt', 'gte', 'lt', 'lte'],
  day: ['eq', 'not_eq', 'gt', 'gte', 'lt', 'lte'],
  uuid: ['eq', 'not_eq', 'in', 'not_in'],
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MULTI: ReadonlySet<FilterOp> = new Set([
  'in',
  'not_in',
  'array_contains',
  'array_not_contains',
  'array_overlap',
]);

export const opsOf = (f: FilterSpec) => f.ops ?? DEFAULT_OPS[f.kind];

export interface ParsedFilter {
  field: string;
  spec: FilterSpec;
  op: FilterOp;
  values: string[];
}

export interface ParsedList {
  filters: ParsedFilter[];
  sort: { field: string; desc: boolean }[];
  page: number;
  limit: number;
  /** How `pagination.count` is computed (the `count` parameter): see fetchPage. */
  count: CountMode;
}

export const COUNT_MODES = ['auto', 'exact'] as const;
export type CountMode = (typeof COUNT_MODES)[number];

/**
 * `count=auto` counts exactly up to this many matching items; above it, `pagination.count` is the
 * planner's estimate and `pagination.count_estimated` is true. An exact count reads every matching
 * index entry (5 ms for 40,000 cases on PostgreSQL, the dominant cost of a list page); a capped one
 * reads at most this many, and the estimate costs one planning round trip.
 */
export const EXACT_COUNT_UP_TO = 1000;

// an offset's `+` written as is in a URL arrives as a space (`...T10:00:00 02:00`): the usual
// mistake with curl, worth naming in the answer
const PLUS_AS_SPACE = /T[\d:.]+ \d{2}(:?\d{2})?$/;
const PLUS_HINT = ' (a + in a URL reads as a space: write the offset as %2B02:00)';

/** Query-string schema for the OpenAPI document and for rejecting unknown parameters. */
export function listQuerySchema(spec: ListSpec, extra: Record<string, TSchema> = {}): TObject {
  const props: Record<string, TSchema> = {};
  const patterns: Record<string, TSchema> = {};
  for (const [field, f] of Object.entries(spec.filters)) {
    const ops = opsOf(f);
    const multi = ops.some((o) => MULTI.has(o));
    props[field] = Type.Optional(
      Type.String({
        description:
          `Filter on ${field}; also \`${field}.{operator}\` with operator one of ${ops.map((o) => `\`${o}\``).join(', ')}` +
          ` (default \`${ops[0]}\`).${multi ? ' Comma-separated values for multi-value operators.' : ''}` +
          (f.values ? ` Values: ${f.values.join(', ')}.` : '') +
          (f.kind === 'date' ? ' Values: yyyy-MM-dd or ISO 8601 date-time.' : '') +
          (f.kind === 'day'
            ? ' Values: yyyy-MM-dd, or an ISO 8601 date-time standing for the date it is written on.'
            : '') +
          (f.format ? ` Each value ${FORMAT_MESSAGES[f.format]}.` : '') +
          (ops.includes('search')
            ? ` \`search\` (vericase extension): the text anywhere in ${field}, whatever its case and accents (\`${field}.search=societe\` finds "Société"); % and _ are plain characters there.`
            : ''),
      }),
    );
    // each operator's spelling declared too: a client generated from the OpenAPI document can then
    // send `status.in` or `created_at.gte` without a cast (a pattern is no query parameter there)
    for (const op of ops) {
      props[`${field}.${op}`] = Type.Optional(
        Type.String({ description: `Filter on ${field} with the \`${op}\` operator (see \`${field}\`).` }),
      );
    }
    // other operators still reach parseListQuery, which names the ones the field takes
    patterns[`^${field.replace(/[.]/g, '\\.')}\\.[a-z_]+$`] = Type.String();
  }
  const sortDesc = `Comma-separated fields among ${spec.sort.join(', ')}; suffix \`.desc\` for descending. Default ${describeSort(spec.defaultSort ?? CREATED_ASC)}.`;
  return Type.Object(
    {
      ...props,
      ...extra,
      sort: Type.Optional(Type.String({ description: sortDesc })),
      page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1.' })),
      count: Type.Optional(
        // an enum, not a union of literals: a wrong value is refused naming the allowed ones
        Type.Enum([...COUNT_MODES], {
          default: 'auto',
          description: `How \`pagination.count\` is computed. \`auto\` (default): exact up to ${EXACT_COUNT_UP_TO} matching items; above that, the database's estimate, and \`pagination.count_estimated\` is true. \`exact\`: always the exact number (it reads every matching item: slower on large results).`,
        }),
      ),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: spec.maxLimit ?? 100,
          default: 20,
          description: 'Items per page.',
        }),
      ),
    },
    { additionalProperties: false, patternProperties: patterns },
  );
}

const describeSort = (s: SortTerm) => `${s.field} ${s.desc ? 'descending' : 'ascending'}`;

export function parseListQuery(spec: ListSpec, query: Record<string, unknown>): ParsedList {
  const details: ErrorDetail[] = [];
  const filters: ParsedFilter[] = [];
  // `name` and `name.eq` are one filter spelled two ways: given both, it is given twice (as
  // `name=a&name=b` is, which the query-string check refuses), not two conditions to combine
  const spelled = new Map<string, string>();
  for (const [key, raw] of Object.entries(query)) {
    if (key === 'sort' || key === 'page' || key === 'limit' || key === 'count') continue;
    const dot = key.indexOf('.');
    const field = dot === -1 ? key : key.slice(0, dot);
    const f = spec.filters[field];
    if (!f) continue; // not a filter: another declared parameter of the route
    const ops = opsOf(f);
    const op = (dot === -1 ? ops[0] : key.slice(dot + 1)) as FilterOp;
    if (!ops.includes(op)) {
      details.push({ path: key, message: `${key}: operator must be one of ${ops.join(', ')}` });
      continue;
    }
    if (typeof raw !== 'string') {
      details.push({ path: key, message: `${key} must be given once` });
      continue;
    }
    const other = spelled.get(`${field}.${op}`);
    if (other !== undefined) {
      details.push({ path: key, message: `${key} is the same filter as ${other}: send it once` });
      continue;
    }
    spelled.set(`${field}.${op}`, key);
    const values = MULTI.has(op) ? raw.split(',').map((v) => v.trim()) : [raw];
    if (values.some((v) => v === '') && (MULTI.has(op) || f.kind !== 'text' || op === 'search')) {
      // `open,` is a list with an empty item (a trailing comma), not an empty value
      const empty = values.indexOf('');
      details.push({
        path: key,
        message:
          values.length > 1
            ? `${key} has an empty value (item ${empty + 1} of ${values.length}: a comma too many?)`
            : `${key} must not be empty`,
      });
      continue;
    }
    let bad: string | undefined;
    for (const v of values) {
      if (f.values && !f.values.includes(v)) bad = `must be one of ${f.values.join(', ')}`;
      // a day and a time that exist: Date.parse rolled 2024-02-31 over into March, and the day
      // columns' check read only the date of `…T25:00:00Z`
      if ((f.kind === 'date' || f.kind === 'day') && !(validDay(v) || validDateTime(v)))
        bad = `must be a date (yyyy-MM-dd) or an ISO 8601 date-time${PLUS_AS_SPACE.test(v) ? PLUS_HINT : ''}`;
      if (f.kind === 'uuid' && !UUID.test(v)) bad = 'must be a UUID';
      if (f.format && !customFormats[f.format](v)) bad = FORMAT_MESSAGES[f.format];
      // a backslash escapes the next character of a pattern (`\%` is a literal %); one left at the
      // end escapes nothing, and the database refuses the pattern when it reaches it
      if ((op === 'like' || op === 'ilike') && (v.match(/\\+$/)?.[0].length ?? 0) % 2 === 1)
        bad = 'must not end with an unpaired backslash (the escape character: write \\\\ for a backslash)';
    }
    if (bad) {
      details.push({ path: key, message: `${key} ${bad}` });
      continue;
    }
    if (f.expand && (op === 'eq' || op === 'not_eq' || op === 'in' || op === 'not_in')) {
      const expand = f.expand;
      filters.push({
        field,
        spec: f,
        op: op === 'eq' || op === 'in' ? 'in' : 'not_in',
        values: [...new Set(values.flatMap((v) => expand(v)))],
      });
      continue;
    }
    // a date column (a birth date) given a date-time, as the reference's date pattern allows:
    // the calendar date it is written on (no time zone moves a birth date)
    filters.push({
      field,
      spec: f,
      op,
      values: f.kind === 'day' ? values.map((v) => v.slice(0, 10)) : values,
    });
  }

  const sort: ParsedList['sort'] = [];
  if (query.sort !== undefined) {
    const seen = new Set<string>();
    const rawSort = String(query.sort);
    for (const part of rawSort.split(',')) {
      const term = part.trim();
      const desc = term.endsWith('.desc');
      const asc = term.endsWith('.asc');
      const field = desc || asc ? term.slice(0, term.lastIndexOf('.')) : term;
      // an empty term (`sort=name,`) is refused as an empty entry of a filter is
      if (term === '') {
        details.push({ path: 'sort', message: 'sort must not have an empty entry' });
        break;
      }
      if (!spec.sort.includes(field)) {
        details.push({
          path: 'sort',
          message: `sort: "${term}" is not sortable; use ${spec.sort.join(', ')}`,
        });
        break;
      }
      if (seen.has(field)) {
        details.push({ path: 'sort', message: `sort: ${field} appears more than once` });
        break;
      }
      seen.add(field);
      sort.push({ field, desc });
    }
  }
  if (details.length) throw new ApiError(400, details[0].message, details);
  return {
    filters,
    sort: sort.length ? sort : [spec.defaultSort ?? CREATED_ASC],
    page: Number(query.page ?? 1),
    limit: Number(query.limit ?? 20),
    count: query.count === 'exact' ? 'exact' : 'auto',
  };
}

function dayBounds(v: string): [Date, Date] {
  const start = new Date(`${v}T00:00:00Z`);
  return [start, new Date(start.getTime() + 86_400_000)];
}

function filterExpression(f: ParsedFilter): Expression<SqlBool> {
  const col = sql.ref(f.spec.column ?? f.field);
  const v = f.values;
  switch (f.spec.kind) {
    case 'array': {
      const arr = sql`cast(${sql.val(v)} as text[])`;
      if (f.op === 'array_contains') return sql<SqlBool>`${col} @> ${arr}`;
      if (f.op === 'array_not_contains') return sql<SqlBool>`not (${col} @> ${arr})`;
      return sql<SqlBool>`${col} && ${arr}`;
    }
    case 'date': {
      const value = v[0];
      // a day denotes its 24 hours; a date-time denotes its millisecond: timestamps are stored in
      // microseconds but shown in milliseconds (JavaScript dates), so `created_at.eq=<a value the
      // API returned>` has to match that item, and `created_at.gt=<it>` must not return it again
      if (validDay(value)) return inInterval(col, f.op, ...dayBounds(value));
      const start = new Date(value);
      const millisecond = inInterval(col, f.op, start, new Date(start.getTime() + 1));
      // not_eq with a date-time has always kept items without the date (is distinct from)
      return f.op === 'not_eq' ? sql<SqlBool>`(${col} is null or ${millisecond})` : millisecond;
    }
    default:
      if (f.op === 'in') return sql<SqlBool>`${col}::text = any(cast(${sql.val(v)} as text[]))`;
      if (f.op === 'not_in')
        return sql<SqlBool>`(${col} is null or not (${col}::text = any(cast(${sql.val(v)} as text[]))))`;
      if (f.op === 'like') return sql<SqlBool>`${col} like ${v[0]}`;
      if (f.op === 'ilike') return sql<SqlBool>`${col} ilike ${v[0]}`;
      if (f.op === 'search') return sql<SqlBool>`vericase_fold(${col}) ilike ${searchPattern(v[0])}`;
      if (f.spec.caseInsensitive && f.op === 'eq') return sql<SqlBool>`lower(${col}) = lower(${v[0]})`;
      if (f.spec.caseInsensitive && f.op === 'not_eq')
        return sql<SqlBool>`lower(${col}) is distinct from lower(${v[0]})`;
      return compare(col, f.op, v[0]);
  }
}

/** `search`'s pattern: the text folded as vericase_fold folds the column, its % _ \ taken literally. */
function searchPattern(text: string): string {
  return `%${foldText(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A comparison with a value that stands for the interval [start, end). */
function inInterval(
  col: ReturnType<typeof sql.ref>,
  op: FilterOp,
  start: Date,
  end: Date,
): Expression<SqlBool> {
  switch (op) {
    case 'eq':
      return sql<SqlBool>`(${col} >= ${start} and ${col} < ${end})`;
    case 'not_eq':
      return sql<SqlBool>`(${col} < ${start} or ${col} >= ${end})`;
    case 'gt':
      return sql<SqlBool>`${col} >= ${end}`;
    case 'gte':
      return sql<SqlBool>`${col} >= ${start}`;
    case 'lt':
      return sql<SqlBool>`${col} < ${start}`;
    default:
      return sql<SqlBool>`${col} < ${end}`;
  }
}

function compare(col: ReturnType<typeof sql.ref>, op: FilterOp, value: unknown): Expression<SqlBool> {
  switch (op) {
    case 'eq':
      return sql<SqlBool>`${col} = ${value}`;
    case 'not_eq':
      return sql<SqlBool>`${col} is distinct from ${value}`;
    case 'gt':
      return sql<SqlBool>`${col} > ${value}`;
    case 'gte':
      return sql<SqlBool>`${col} >= ${value}`;
    case 'lt':
      return sql<SqlBool>`${col} < ${value}`;
    default:
      return sql<SqlBool>`${col} <= ${value}`;
  }
}

/** Applies filters (where), sort (order by, id last) and the page window to a select. */
// biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
export function applyList<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  spec: ListSpec,
  parsed: ParsedList,
): QB {
  return applyOrder(applyFilters(qb, parsed), spec, parsed)
    .limit(parsed.limit)
    .offset((parsed.page - 1) * parsed.limit) as QB;
}

/** Applies only the order (the sort, then the id, so pages never overlap). */
// biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
export function applyOrder<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  spec: ListSpec,
  parsed: Pick<ParsedList, 'sort'>,
): QB {
  let q = qb;
  for (const s of parsed.sort) {
    const col = spec.sortColumns?.[s.field] ?? s.field;
    q = q.orderBy(sql.ref(col), s.desc ? 'desc' : 'asc') as QB;
  }
  return q.orderBy(sql.ref(spec.idColumn), parsed.sort[0]?.desc ? 'desc' : 'asc') as QB;
}

/** Applies only the filters (for the total count). */
// biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
export function applyFilters<QB extends SelectQueryBuilder<any, any, any>>(
  qb: QB,
  parsed: Pick<ParsedList, 'filters'>,
): QB {
  let q = qb;
  for (const f of parsed.filters) q = q.where(filterExpression(f)) as QB;
  return q;
}

export const paginationSchema = Type.Object({
  page: Type.Integer(),
  limit: Type.Integer(),
  count: Type.Integer({
    description: `Total number of items matching the filters: exact up to ${EXACT_COUNT_UP_TO}, or when \`count=exact\` is asked; otherwise an estimate (see \`count_estimated\`).`,
  }),
  count_estimated: Type.Optional(
    Type.Boolean({
      description:
        "Present (true) only when `count` is the database's estimate rather than an exact count: more than " +
        `${EXACT_COUNT_UP_TO} items match and \`count=exact\` was not asked.`,
    }),
  ),
});

export const paginated = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), pagination: paginationSchema });

export interface Pagination {
  page: number;
  limit: number;
  count: number;
  count_estimated?: true;
}

/**
 * Runs a declared list over a base query (already scoped to the workspace): the page and the count
 * in parallel. `select` picks the columns of the page.
 *
 * The count (`parsed.count`): `exact` counts every matching row. `auto` counts at most
 * EXACT_COUNT_UP_TO + 1 of them; past that, it asks the planner for its estimate (EXPLAIN, no scan)
 * and says so with `count_estimated`; the estimate is reused for the same query for a few seconds
 * (src/http/count-estimates.ts). A page that is not full proves the total by itself. Without
 * `db` (lists over small tables), the count is always exact. With `walk` (large tables whose text
 * filters take patterns), a page filtered by a pattern is read as src/http/pattern-walk.ts says.
 */
// biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
export async function fetchPage<QB extends SelectQueryBuilder<any, any, any>, R>(
  spec: ListSpec,
  parsed: ParsedList,
  base: QB,
  // biome-ignore lint/suspicious/noExplicitAny: generic over every table's query builder
  select: (qb: QB) => SelectQueryBuilder<any, any, R>,
  db?: Db,
  walk?: PatternWalk,
): Promise<{ rows: R[]; pagination: Pagination }> {
  const patterned = walk !== undefined && db !== undefined && isPatterned(parsed);
  const page = patterned
    ? patternPage(spec, parsed, walk, select, db)
    : applyList(select(base), spec, parsed).execute();
  if (parsed.count === 'exact' || !db) {
    const [rows, total] = await Promise.all([
      page,
      applyFilters(
        base.select((eb) => eb.fn.countAll<string>().as('n')),
        parsed,
      ).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows as R[], pagination: pagination(parsed, Number(total.n)) };
  }
  if (patterned) {
    // a pattern's count reads the table until 1,001 match, all of it for a rare pattern (250 ms at
    // 1,000,000 cases): the page comes first, and a page that is not full makes the count needless
    const rows = await page;
    const proven = provenTotal(parsed, rows);
    if (proven !== undefined) return { rows: rows as R[], pagination: pagination(parsed, proven) };
  }
  const matching = applyFilters(base.select(sql<number>`1`.as('one')), parsed);
  const compiled = matching.compile();
  const key = estimateKey(compiled);
  // above EXACT_COUNT_UP_TO: a page that is not full proves the total; otherwise the estimate, never
  // less than what is known to exist. A full page does not end the list, so its count is at least
  // one more than it shows: an estimate below the truth (PGlite never analyzes by itself, and an
  // estimate is kept for seconds) must not stop a client that pages until it holds `count` items,
  // as reference clients do; the page that is not full then gives the exact total.
  const estimated = async (rows: unknown[], estimate: number) => {
    const proven = provenTotal(parsed, rows);
    if (proven !== undefined) return { rows: rows as R[], pagination: pagination(parsed, proven) };
    // an empty page past the first is past the end: it shows nothing, so nothing it could claim
    // ((page - 1) × limit items "seen") is known, and page=100 of 2,982 cases said 9,900. The exact
    // total instead, counted: a rare request, and its offset already read every matching row
    if (rows.length === 0)
      return { rows: rows as R[], pagination: pagination(parsed, await countAll(db, compiled)) };
    const seen = (parsed.page - 1) * parsed.limit + rows.length;
    // a full page ending exactly at a counted estimate (plannedEstimate counts when the planner has
    // no statistics): the list ends there, and its last page said one more. A planner's estimate
    // equal to what was seen says nothing of the rows after (rows added since its ANALYZE)
    const atLeast = rows.length > 0 && !(seen === estimate && countEstimates.counted(key)) ? seen + 1 : seen;
    return {
      rows: rows as R[],
      pagination: { ...pagination(parsed, Math.max(estimate, atLeast)), count_estimated: true as const },
    };
  };
  const known = countEstimates.claim(key);
  // estimated moments ago for this very query (or being estimated again by another request, whose
  // previous estimate serves meanwhile): the page alone answers
  if (known !== undefined) return estimated(await page, known);
  // no estimate kept, and another request counting this query: its estimate serves this one too
  const inFlight = countEstimates.countInFlight(key);
  // (the page's failure, while this waits, is reported when it is awaited below, not as unhandled)
  if (inFlight) page.catch(() => undefined);
  const shared = inFlight ? await inFlight : undefined;
  if (shared !== undefined) return estimated(await page, shared);
  const endCount = countEstimates.startCount(key);
  let counted: number | undefined;
  try {
    const [rows, capped] = await Promise.all([
      page,
      // from the query compiled once for the cache's key, not built and compiled again
      db.executeQuery<{ n: number }>(
        CompiledQuery.raw(
          `select count(*)::int as n from (${compiled.sql} limit ${EXACT_COUNT_UP_TO + 1}) as matching`,
          [...compiled.parameters],
        ),
      ),
    ]);
    const upTo = Number(capped.rows[0]?.n ?? 0);
    if (upTo <= EXACT_COUNT_UP_TO) {
      countEstimates.forget(key);
      return { rows: rows as R[], pagination: pagination(parsed, upTo) };
    }
    // a page that is not full (or one past the end) needs no estimate
    if (rows.length < parsed.limit) return await estimated(rows, 0);
    counted = await plannedEstimate(db, compiled, key);
    return await estimated(rows, counted);
  } finally {
    countEstimates.release(key);
    endCount(counted);
  }
}

/** A query's key in countEstimates: its SQL and its parameters (the workspace among them). */
function estimateKey(query: CompiledQuery): string {
  return `${query.sql}\u0000${JSON.stringify(query.parameters)}`;
}

/**
 * The total of a query known to match more than EXACT_COUNT_UP_TO rows: the planner's estimate,
 * never less than EXACT_COUNT_UP_TO + 1, reused for the same query for a few seconds
 * (countEstimates). Used by fetchPage and by GET /v1/case-counts for each status past the cap.
 */
export async function estimatedTotal(
  db: Db,
  query: CompiledQuery,
  key = estimateKey(query),
): Promise<number> {
  const known = countEstimates.get(key);
  if (known !== undefined) return known;
  return plannedEstimate(db, query, key);
}

/** Every row the query matches, counted (no cap). */
async function countAll(db: Db, query: CompiledQuery): Promise<number> {
  const counted = await db.executeQuery<{ n: number }>(
    CompiledQuery.raw(`select count(*)::int as n from (${query.sql}) as matching`, [...query.parameters]),
  );
  return Number(counted.rows[0]?.n ?? 0);
}

/**
 * The planner's estimate of a query known to match more than EXACT_COUNT_UP_TO rows, kept. A planner
 * that expects no more than that has no statistics of the table, or stale ones (a table filled since
 * its last ANALYZE, a server whose autovacuum is off): its figure is no estimate, and the count was
 * EXACT_COUNT_UP_TO + 1 for 1,100 cases (a client computing its pages from it read 11 pages of 12).
 * The query is then counted, once per estimate's life (countEstimates keeps it as its estimate).
 */
async function plannedEstimate(db: Db, query: CompiledQuery, key: string): Promise<number> {
  const planned = (await plannedTop(db, query)).rows;
  const estimate = planned > EXACT_COUNT_UP_TO ? planned : await countAll(db, query);
  const kept = Math.max(estimate, EXACT_COUNT_UP_TO + 1);
  countEstimates.set(key, kept, planned <= EXACT_COUNT_UP_TO);
  return kept;
}

/**
 * The total a page proves by itself: one that is not full ends the list. An empty page proves it
 * only as the first (beyond the first, the list may end before it: fetchPage counts it then).
 */
function provenTotal(parsed: ParsedList, rows: unknown[]): number | undefined {
  if (rows.length >= parsed.limit || (rows.length === 0 && parsed.page > 1)) return undefined;
  return (parsed.page - 1) * parsed.limit + rows.length;
}

function pagination(parsed: ParsedList, count: number): Pagination {
  return { page: parsed.page, limit: parsed.limit, count };
}

/**
 * The planner's estimates for a query, its rows and its total cost (in the planner's units): EXPLAIN
 * only plans it, reading no rows.
 */
export async function plannedTop(db: Db, query: CompiledQuery): Promise<{ rows: number; cost: number }> {
  const result = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
  );
  const raw = Object.values(result.rows[0] ?? {})[0];
  const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as {
    Plan?: { 'Plan Rows'?: number; 'Total Cost'?: number };
  }[];
  const top = plan?.[0]?.Plan;
  return { rows: Math.round(Number(top?.['Plan Rows'] ?? 0)), cost: Number(top?.['Total Cost'] ?? 0) };
}
