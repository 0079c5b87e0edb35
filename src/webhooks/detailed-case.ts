import { presentDetailedCase } from '../cases/present-detailed.ts';
import { loadCaseGraphs } from '../cases/repository.ts';
import { envelopesByEntity } from '../checks/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow, CheckRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
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
  const graphs = await loadCaseGraphs(db, ids, false);
  const checks = await db
    .selectFrom('checks')
    .selectAll()
    .where('case_id', 'in', ids)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const checksByCase = new Map<string, CheckRow[]>();
  for (const c of checks) {
    const list = checksByCase.get(c.case_id);
    if (list) list.push(c);
    else checksByCase.set(c.case_id, [c]);
  }
  // assignee ids are free text: only uuids can be users (and then the primary key finds them)
  const wantedUsers = [
    ...new Set([...assigneeIds.values()].filter((v): v is string => !!v && UUID_RE.test(v))),
  ];
  const users = new Map(
    (wantedUsers.length
      ? await db
          .selectFrom('users')
          .select(['id', 'workspace_id', 'first_name', 'last_name', 'email'])
          .where('id', 'in', wantedUsers)
          .execute()
      : []
    ).map((u) => [u.id, u]),
  );
  for (const c of cases) {
    const g = graphs.get(c.id);
    if (!g) continue;
    const assigneeId = assigneeIds.get(c.id) ?? null;
    const found = assigneeId ? users.get(assigneeId) : undefined;
    const user = found?.workspace_id === c.workspace_id ? found : undefined;
    const detailed = presentDetailedCase(
      c,
      g,
      envelopesByEntity(checksByCase.get(c.id) ?? []),
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
