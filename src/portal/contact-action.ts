import { sql } from 'kysely';
import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';

/**
 * Every write through the portal is a contact action: the case's `last_contact_action_at` moves
 * to now, and with it `updated_at` (a field of the case changed: receivers and `updated_at.gt`
 * pollers go by it), and `Case.Updated` carries the case, in the write's transaction (the case is
 * already locked by the check lookup). The actor is the contact (the request's scope). Recorded
 * before the check change the write causes, so that the events of that change (a status, the
 * case's flags, a case approved by its template) carry the new `last_contact_action_at` too.
 */
export async function recordContactAction(trx: Db, workspaceId: string, caseId: string): Promise<void> {
  const row = await trx
    .updateTable('cases')
    .set({ last_contact_action_at: sql`now()`, last_activity_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', caseId)
    .where('workspace_id', '=', workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvents(trx, workspaceId, [
    { type: 'Case.Updated', case_id: caseId, payload: { case: presentCase(row) } },
  ]);
}
