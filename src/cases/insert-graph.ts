import { type QueryCreator, sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type {
  CaseRow,
  CompanyRow,
  Database,
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
  // the chain's CTE names are not part of the table types: one shape for every optional step
  let q = trx.with('c', (db) =>
    db.insertInto('cases').values(values.case).returningAll(),
  ) as unknown as QueryCreator<Database>;
  const parts = [
    ['co', 'companies', values.companies],
    ['i', 'individuals', values.individuals],
    ['r', 'relations', values.relations],
  ] as const;
  for (const [cte, table, rows] of parts) {
    if (!rows.length) continue;
    q = q.with(cte, (db) =>
      db
        .insertInto(table)
        .values(rows as never)
        .returningAll(),
    ) as unknown as QueryCreator<Database>;
  }
  const list = (cte: string, present: boolean) =>
    present ? sql`(select json_agg(x) from ${sql.table(cte)} x)` : sql`null`;
  const row = (await q
    .selectNoFrom([
      sql`(select to_json(x) from c x)`.as('case_row'),
      list('co', values.companies.length > 0).as('companies'),
      list('i', values.individuals.length > 0).as('individuals'),
      list('r', values.relations.length > 0).as('relations'),
    ])
    .executeTakeFirstOrThrow()) as {
    case_row: Record<string, unknown>;
    companies: Record<string, unknown>[] | null;
    individuals: Record<string, unknown>[] | null;
    relations: Record<string, unknown>[] | null;
  };
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
