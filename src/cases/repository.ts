import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type {
  CaseRow,
  CompanyRow,
  Database,
  DocumentOrderRow,
  IndividualRow,
  RelationRow,
} from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/** A row read by primary key alone is the workspace's, and live (findCase says why). */
function liveInWorkspace(row: CaseRow | undefined, workspaceId: string): boolean {
  return row !== undefined && row.workspace_id === workspaceId && row.deleted_at === null;
}

/**
 * Finds a live case of the workspace by internal id first, then by external_id. A uuid may be
 * either: two lookups joined by UNION ALL, each by its own index. The id's looks up the primary key
 * alone, and the workspace and liveness are checked on the row it returns: with the workspace in its
 * WHERE, a planner whose statistics predate a workspace's growth chose the narrower
 * `(workspace_id, external_id)` index and read every case of the workspace (58 ms at 37,000 cases;
 * one `id = $1 or external_id = $1` filter did the same). A row of another workspace never leaves
 * this function.
 */
export async function findCase(
  db: Db,
  workspaceId: string,
  idOrExternal: string,
): Promise<CaseRow | undefined> {
  const byExternalId = db
    .selectFrom('cases')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('external_id', '=', idOrExternal)
    .where('deleted_at', 'is', null);
  if (!UUID_RE.test(idOrExternal)) return byExternalId.executeTakeFirst();
  const rows = await db
    .selectFrom('cases')
    .selectAll()
    .select(sql<number>`0`.as('lookup_rank'))
    .where('id', '=', idOrExternal)
    .unionAll(byExternalId.select(sql<number>`1`.as('lookup_rank')))
    .orderBy('lookup_rank')
    .execute();
  const found = rows.find((r) => liveInWorkspace(r, workspaceId));
  if (!found) return undefined;
  const { lookup_rank: _rank, ...row } = found;
  return row as CaseRow;
}

/** A live case of the workspace by internal id only (paths that take a uuid). */
export async function findCaseById(
  db: Db,
  workspaceId: string,
  caseId: string,
): Promise<CaseRow | undefined> {
  if (!UUID_RE.test(caseId)) return undefined;
  // by the primary key alone, the workspace checked on the row (findCase says why)
  const row = await db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirst();
  return liveInWorkspace(row, workspaceId) ? row : undefined;
}

/**
 * Locks a live case row (by internal id) for a write in this transaction. NO KEY UPDATE, not
 * UPDATE: rows inserted with a foreign key to the case take KEY SHARE on it, which UPDATE would
 * conflict with (two check creations in one case then deadlock on PostgreSQL).
 */
export async function lockCase(trx: Db, workspaceId: string, caseId: string): Promise<CaseRow | undefined> {
  if (!UUID_RE.test(caseId)) return undefined;
  return trx
    .selectFrom('cases')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', caseId)
    .where('deleted_at', 'is', null)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

type CaseOwnedTable = 'companies' | 'individuals' | 'relations' | 'notes' | 'checks';

/**
 * A row of a table owned by cases, in the workspace, whose case is live: a soft-deleted case hides
 * everything under it. `caseId` also requires the row to belong to that case.
 */
export async function findInLiveCase<T extends CaseOwnedTable>(
  db: Db,
  table: T,
  workspaceId: string,
  id: string,
  opts: { caseId?: string; forUpdate?: boolean } = {},
): Promise<Selectable<Database[T]> | undefined> {
  if (!UUID_RE.test(id)) return undefined;
  // the table is a parameter: Kysely cannot type a dynamic table name, the return type says what comes back
  // biome-ignore lint/suspicious/noExplicitAny: see above
  let q = (db as any)
    .selectFrom(`${table} as e`)
    .innerJoin('cases as c', 'c.id', 'e.case_id')
    .selectAll('e')
    .where('e.workspace_id', '=', workspaceId)
    .where('e.id', '=', id)
    .where('c.deleted_at', 'is', null);
  if (opts.caseId) q = q.where('e.case_id', '=', opts.caseId);
  if (opts.forUpdate) q = q.forUpdate('e');
  return q.executeTakeFirst();
}

/**
 * Whether the case is live (neither soft deleted nor erased), its row locked as a change of the
 * case locks it (FOR NO KEY UPDATE, as its flags' update does). Background work about to record
 * the case's events calls it in its transaction: a deletion committed meanwhile is seen, and one
 * that comes later waits, so nothing of the case follows its `Case.Deleted`.
 */
export async function lockLiveCase(trx: Db, caseId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('cases')
    .select('deleted_at')
    .where('id', '=', caseId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  return row !== undefined && row.deleted_at === null;
}

/** Marks activity on the case; returns the case as it now is (an event's snapshot). */
export async function touchCase(trx: Db, caseId: string): Promise<CaseRow> {
  return trx
    .updateTable('cases')
    .set({ last_activity_at: sql`now()` })
    .where('id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface CaseGraph {
  companies: CompanyRow[];
  individuals: IndividualRow[];
  relations: RelationRow[];
  /** Document orders of the case's companies (JSON-aggregated: timestamps are strings). */
  document_orders?: DocumentOrderRow[];
  /** The client portal the case's last link was shared through (its detailed `client_portal`). */
  client_portal?: { id: string; name: string } | null;
}

/** The companies, individuals and relations of a case and its document orders, in one round trip. */
export async function loadCaseGraph(db: Db, caseId: string, includeNotRelevant: boolean): Promise<CaseGraph> {
  const graphs = await loadCaseGraphs(db, [caseId], includeNotRelevant);
  return (
    graphs.get(caseId) ?? {
      companies: [],
      individuals: [],
      relations: [],
      document_orders: [],
      client_portal: null,
    }
  );
}

/** The graphs (see loadCaseGraph) of several cases, by case id, in one query whatever their number. */
export async function loadCaseGraphs(
  db: Db,
  caseIds: string[],
  includeNotRelevant: boolean,
): Promise<Map<string, CaseGraph>> {
  if (!caseIds.length) return new Map();
  const relevant = (alias: string) => (includeNotRelevant ? sql`` : sql` and ${sql.ref(alias)}.is_relevant`);
  // a relation pointing at a hidden company would name an id the answer does not hold: hidden with it
  const relevantTarget = includeNotRelevant
    ? sql``
    : sql` and exists (select 1 from companies t where t.id = r.to_company_id and t.is_relevant)`;
  const { rows } = await sql<Required<CaseGraph> & { case_id: string }>`
    select
      k.id as case_id,
      (select coalesce(json_agg(c order by c.created_at, c.id), '[]') from companies c
        where c.case_id = k.id${relevant('c')}) as companies,
      (select coalesce(json_agg(i order by i.created_at, i.id), '[]') from individuals i
        where i.case_id = k.id${relevant('i')}) as individuals,
      (select coalesce(json_agg(r order by r.created_at, r.id), '[]') from relations r
        where r.case_id = k.id${relevantTarget}) as relations,
      (select coalesce(json_agg(o order by o.created_at, o.id), '[]') from document_orders o
        where o.case_id = k.id) as document_orders,
      (select json_build_object('id', p.id, 'name', p.name) from client_portals p
        where p.id = k.client_portal_id) as client_portal
    from cases k where k.id in (${sql.join(caseIds)})
  `.execute(db);
  return new Map(rows.map(({ case_id, ...graph }) => [case_id, graph]));
}

export async function findMainCompanyId(db: Db, caseId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('companies')
    .select('id')
    .where('case_id', '=', caseId)
    .where('type', '=', 'main')
    .executeTakeFirst();
  return row?.id;
}
