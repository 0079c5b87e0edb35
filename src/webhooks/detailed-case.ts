import { sql } from 'kysely';
import { presentDetailedCase } from '../cases/present-detailed.ts';
import type { CaseGraph } from '../cases/repository.ts';
import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import { presentCheckEnvelope } from '../checks/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
import { presentNestedUser } from '../users/nested-user.ts';

/**
 * Events whose payload `case` the reference sends as the detailed case (its CaseWebhook):
 * companies and individuals with their checks, controls, assignee and client portal.
 */
export const DETAILED_CASE_EVENTS: ReadonlySet<string> = new Set([
  'Case.Created',
  'Case.Updated',
  'Case.ReviewConfirmed',
  'Case.ReviewDue',
  'Case.ReviewUpdated',
  'Case.ClientPortalWaitStepTriggered',
]);

/** The parts the detailed case adds to the case object. */
export type DetailedParts = Pick<
  ReturnType<typeof presentDetailedCase>,
  'companies' | 'individuals' | 'controls' | 'assignee' | 'client_portal'
>;

/**
 * The detailed parts of several cases as they are now (relevant companies and individuals, with
 * their relations, document orders and check envelopes, as GET /v1/cases/{id} shows them by
 * default), in three queries whatever the number of cases. `assigneeIds`: the assignee each
 * payload names, by case id.
 */
export async function detailedParts(
  db: Db,
  cases: CaseRow[],
  assigneeIds: Map<string, string | null>,
): Promise<Map<string, DetailedParts>> {
  const out = new Map<string, DetailedParts>();
  if (!cases.length) return out;
  const ids = cases.map((c) => c.id);
  // the same JSON-aggregated rows as loadCaseGraph, one row per case
  const { rows: graphs } = await sql<CaseGraph & { case_id: string }>`
    select
      k.id as case_id,
      (select coalesce(json_agg(c order by c.created_at, c.id), '[]') from companies c
        where c.case_id = k.id and c.is_relevant) as companies,
      (select coalesce(json_agg(i order by i.created_at, i.id), '[]') from individuals i
        where i.case_id = k.id and i.is_relevant) as individuals,
      (select coalesce(json_agg(r order by r.created_at, r.id), '[]') from relations r
        where r.case_id = k.id) as relations,
      (select coalesce(json_agg(o order by o.created_at, o.id), '[]') from document_orders o
        where o.case_id = k.id) as document_orders
    from cases k where k.id in (${sql.join(ids)})
  `.execute(db);
  const checks = await db
    .selectFrom('checks')
    .selectAll()
    .where('case_id', 'in', ids)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const checksByCase = new Map<string, Map<string, CheckEnvelopeOut[]>>();
  for (const c of checks) {
    const byEntity = checksByCase.get(c.case_id) ?? new Map<string, CheckEnvelopeOut[]>();
    const key = (c.company_id ?? c.individual_id) as string;
    byEntity.set(key, [...(byEntity.get(key) ?? []), presentCheckEnvelope(c)]);
    checksByCase.set(c.case_id, byEntity);
  }
  const wantedUsers = [...new Set([...assigneeIds.values()].filter((v): v is string => !!v))];
  const users = wantedUsers.length
    ? await db
        .selectFrom('users')
        .select(['id', 'workspace_id', 'first_name', 'last_name', 'email'])
        .where(sql<boolean>`id::text in (${sql.join(wantedUsers)})`)
        .execute()
    : [];
  const caseById = new Map(cases.map((c) => [c.id, c]));
  for (const g of graphs) {
    const c = caseById.get(g.case_id);
    if (!c) continue;
    const assigneeId = assigneeIds.get(c.id) ?? null;
    const user = users.find((u) => u.id === assigneeId && u.workspace_id === c.workspace_id);
    const detailed = presentDetailedCase(
      c,
      g,
      checksByCase.get(c.id) ?? new Map(),
      user ? presentNestedUser(user) : null,
    );
    out.set(c.id, {
      companies: detailed.companies,
      individuals: detailed.individuals,
      controls: detailed.controls,
      assignee: detailed.assignee,
      client_portal: detailed.client_portal,
    });
  }
  return out;
}
