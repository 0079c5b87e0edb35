import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow, ClientPortalRow, ClientPortalWaitStep } from '../db/schema.ts';
import { type DomainEvent, SYSTEM } from '../events/record-event.ts';

// Wait steps: a portal's ordered list of points where the contact, having submitted everything
// asked, waits for the operator (who reviews, then may ask for more). The case remembers the step
// it waits on (client_portal_wait_step_key, so the event is emitted once) and the steps completed
// (completed_wait_step_keys); POST /v1/cases/{id}/complete-client-portal-wait-step releases one.

/** The portal's first wait step the case has not completed, if any. */
export function nextWaitStep(
  portal: Pick<ClientPortalRow, 'wait_steps'>,
  completed: readonly string[],
): ClientPortalWaitStep | undefined {
  return portal.wait_steps.find((s) => !completed.includes(s.key));
}

/**
 * Called when the contact has just run out of things to supply (contact_has_actions true → false),
 * in that transaction: when the case was shared through a portal, waits on no step yet and the
 * portal has a step not completed, the case now waits on it and `Case.ClientPortalWaitStepTriggered`
 * is returned to be recorded with the change. Otherwise nothing changes.
 */
export async function triggerWaitStep(
  trx: Db,
  caseRow: CaseRow,
): Promise<{
  caseRow: CaseRow;
  event: DomainEvent | null;
}> {
  if (!caseRow.client_portal_id || caseRow.client_portal_wait_step_key) return { caseRow, event: null };
  const portal = await trx
    .selectFrom('client_portals')
    .select(['id', 'name', 'wait_steps'])
    .where('id', '=', caseRow.client_portal_id)
    .executeTakeFirst();
  const step = portal && nextWaitStep(portal, caseRow.completed_wait_step_keys);
  if (!portal || !step) return { caseRow, event: null };
  const after = await trx
    .updateTable('cases')
    .set({ client_portal_wait_step_key: step.key })
    .where('id', '=', caseRow.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return {
    caseRow: after,
    event: {
      type: 'Case.ClientPortalWaitStepTriggered',
      case_id: after.id,
      payload: {
        case: presentCase(after),
        client_portal: { id: portal.id, name: portal.name, wait_step: step },
      },
      actor: SYSTEM,
    },
  };
}
