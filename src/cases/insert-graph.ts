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
  cases: ['created_at', 'deleted_at', 'last_activity_at', 'last_contact_action_at', 'updated_at'],
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
 * Inserts a case with its companies, individuals and relations in one statement (data-modifying
 * CTEs; the foreign keys are checked at the end of the statement, when every row is in) and reads
 * the stored rows back in the same answer, as JSON: one round trip instead of four. Round trips
 * are what a create pays most for (docs/performance.md, "Creating a case").
 */
export async function insertGraph(trx: Db, values: GraphValues): Promise<GraphRows> {
  const ctes: string[] = [];
  const params: unknown[] = [];
  let next = 1;
  const add = (cte: string, insert: InsertText) => {
    ctes.push(`${cte} as (${insert.text} returning *)`);
    params.push(...insert.params);
    next = insert.next;
  };
  add('c', insertValues('cases', [values.case], next));
  if (values.companies.length) add('co', insertValues('companies', values.companies, next));
  if (values.individuals.length) add('i', insertValues('individuals', values.individuals, next));
  if (values.relations.length) add('r', insertValues('relations', values.relations, next));
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
