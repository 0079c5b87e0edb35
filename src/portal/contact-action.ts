import { sql } from 'kysely';
import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';

/**
 * Every write through the portal is a contact action: the case's `last_contact_action_at` moves
 * to now and `Case.Updated` carries the case, in the write's transaction (the case is already
 * locked by the check lookup). The actor is the contact (the request's scope).
 */
export async function recordContactAction(trx: Db, workspaceId: string, caseId: string): Promise<void> {
  const row = await trx
    .updateTable('cases')
    .set({ last_contact_action_at: sql`now()`, last_activity_at: sql`now()` })
    .where('id', '=', caseId)
    .where('workspace_id', '=', workspaceId)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordEvents(trx, workspaceId, [
    { type: 'Case.Updated', case_id: caseId, payload: { case: presentCase(row) } },
  ]);
}
