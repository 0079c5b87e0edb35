import { CompiledQuery } from 'kysely';
import type { Db } from '../db/connect.ts';
import { type InsertText, insertValues } from '../db/insert-values.ts';
import { PREPARE_MARK } from '../db/pglite-prepared-inserts.ts';
import type {
  CaseRow,
  CompanyRow,
  IndividualRow,
  NewCase,
  NewCompany,
  NewIndividual,
  NewRelation,
  RelationRow,
} from '../db/schema.ts';

/** The rows of a new case graph, as the tables take them. */
export interface GraphValues {
  case: NewCase;
  companies: NewCompany[];
  individuals: NewIndividual[];
  relations: NewRelation[];
}

export interface GraphRows {
  case: CaseRow;
  companies: CompanyRow[];
  individuals: IndividualRow[];
  relations: RelationRow[];
}

/**
 * The `timestamptz` columns of the four tables. The rows come back as JSON (below), where a
 * timestamp is an ISO string; they are turned into Dates as the drivers' own parsers would (to the
 * millisecond). test/create-case-statement.test.ts checks this list against the database's columns.
 */
export const GRAPH_TIMESTAMP_COLUMNS = {
  cases: [
    'created_at',
    'deleted_at',
    'last_activity_at',
    'last_contact_action_at',
    'template_check_deleted_at',
    'updated_at',
  ],
  companies: ['created_at', 'last_activity_at', 'registry_linked_at', 'updated_at'],
  individuals: ['created_at', 'last_activity_at', 'updated_at'],
  relations: ['created_at', 'updated_at'],
} as const;

function revive<T>(row: Record<string, unknown>, columns: readonly string[]): T {
  for (const c of columns) {
    const v = row[c];
    if (typeof v === 'string') row[c] = new Date(v);
  }
  return row as T;
}

/** Rows in the order of `ids` (the order of the request), whatever order the database gave. */
function inOrder<T extends { id: string }>(rows: T[], ids: string[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}

/**
 * The most values one statement binds. The protocol counts a statement's parameters in 16 bits:
 * PostgreSQL takes up to 65,535, the embedded database's one-trip writer (src/db/pglite-one-trip.ts)
 * writes the count as a signed 16-bit integer, so 32,767. A graph within the body's limits (500
 * companies, 500 individuals, each relating to up to every company) can need far more.
 */
export const MAX_STATEMENT_PARAMS = 32_767;

/**
 * Inserts a case with its companies, individuals and relations in one statement (data-modifying
 * CTEs; the foreign keys are checked at the end of the statement, when every row is in) and reads
 * the stored rows back in the same answer, as JSON: one round trip instead of four. Round trips
 * are what a create pays most for (docs/performance.md, "Creating a case"). A graph with more
 * values than a statement may bind is written table by table in as many statements as it takes
 * (same transaction, same rows read back the same way).
 */
export async function insertGraph(trx: Db, values: GraphValues): Promise<GraphRows> {
  const once = await insertGraphOnce(trx, values);
  if (once) return once;
  const head = await insertGraphOnce(trx, {
    case: values.case,
    companies: [],
    individuals: [],
    relations: [],
  });
  if (!head) throw new Error('insert into cases: one row cannot exceed the parameter limit');
  const t = GRAPH_TIMESTAMP_COLUMNS;
  return {
    case: head.case,
    companies: inOrder(
      await insertInChunks<CompanyRow>(trx, 'companies', values.companies, t.companies),
      values.companies.map((c) => c.id),
    ),
    individuals: inOrder(
      await insertInChunks<IndividualRow>(trx, 'individuals', values.individuals, t.individuals),
      values.individuals.map((p) => p.id),
    ),
    relations: inOrder(
      await insertInChunks<RelationRow>(trx, 'relations', values.relations, t.relations),
      values.relations.map((r) => r.id),
    ),
  };
}

/**
 * Rows of one table, in statements of at most MAX_STATEMENT_PARAMS values, read back as JSON as the
 * one-statement insert reads them (so dates and numbers come back alike on both databases). Tables
 * go in foreign-key order: companies and individuals before the relations between them.
 */
async function insertInChunks<T>(
  trx: Db,
  table: 'companies' | 'individuals' | 'relations',
  rows: (NewCompany | NewIndividual | NewRelation)[],
  timestampColumns: readonly string[],
): Promise<T[]> {
  if (!rows.length) return [];
  // a loop, not Math.max(...rows): a spread of tens of thousands of arguments overflows the stack
  let width = 1;
  for (const r of rows) width = Math.max(width, Object.keys(r).length);
  const perStatement = Math.max(1, Math.floor(MAX_STATEMENT_PARAMS / width));
  const out: T[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const insert = insertValues(table, rows.slice(i, i + perStatement) as never[]);
    const result = await trx.executeQuery<{ rows: Record<string, unknown>[] }>(
      CompiledQuery.raw(
        `with x as (${insert.text} returning *) select json_agg(x) as rows from x`,
        insert.params,
      ),
    );
    for (const row of result.rows[0].rows) out.push(revive<T>(row, timestampColumns));
  }
  return out;
}

/** The graph in one statement, or null (nothing sent) when it binds too many values for one. */
async function insertGraphOnce(trx: Db, values: GraphValues): Promise<GraphRows | null> {
  const ctes: string[] = [];
  const params: unknown[] = [];
  let next = 1;
  const add = (cte: string, insert: InsertText) => {
    ctes.push(`${cte} as (${insert.text} returning *)`);
    // one by one: spreading a large graph's hundreds of thousands of values overflowed the stack
    // (a RangeError, answered 500) before the size check below could choose the chunked insert
    for (const p of insert.params) params.push(p);
    next = insert.next;
  };
  add('c', insertValues('cases', [values.case], next));
  if (values.companies.length) add('co', insertValues('companies', values.companies, next));
  if (values.individuals.length) add('i', insertValues('individuals', values.individuals, next));
  if (values.relations.length) add('r', insertValues('relations', values.relations, next));
  if (params.length > MAX_STATEMENT_PARAMS) return null;
  const list = (cte: string, present: boolean) => (present ? `(select json_agg(x) from ${cte} x)` : 'null');
  // prepared once on the embedded database (src/db/pglite-prepared-inserts.ts): only values are parameters
  const text = `${PREPARE_MARK}with ${ctes.join(', ')} select (select to_json(x) from c x) as case_row, ${list('co', values.companies.length > 0)} as companies, ${list('i', values.individuals.length > 0)} as individuals, ${list('r', values.relations.length > 0)} as relations`;
  const result = await trx.executeQuery<{
    case_row: Record<string, unknown>;
    companies: Record<string, unknown>[] | null;
    individuals: Record<string, unknown>[] | null;
    relations: Record<string, unknown>[] | null;
  }>(CompiledQuery.raw(text, params));
  const row = result.rows[0];
  const t = GRAPH_TIMESTAMP_COLUMNS;
  return {
    case: revive<CaseRow>(row.case_row, t.cases),
    companies: inOrder(
      (row.companies ?? []).map((r) => revive<CompanyRow>(r, t.companies)),
      values.companies.map((c) => c.id),
    ),
    individuals: inOrder(
      (row.individuals ?? []).map((r) => revive<IndividualRow>(r, t.individuals)),
      values.individuals.map((p) => p.id),
    ),
    relations: inOrder(
      (row.relations ?? []).map((r) => revive<RelationRow>(r, t.relations)),
      values.relations.map((r) => r.id),
    ),
  };
}
