import { sql } from 'kysely';
import { revokeLinks } from '../client-portals/links.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';
import { notFound } from '../http/errors.ts';
import { presentCase } from './present.ts';
import { findCase } from './repository.ts';

/** Soft delete hides the case from every read; `permanent` erases it and everything under it. */
export async function deleteCase(db: Db, workspaceId: string, idOrExternal: string, permanent: boolean) {
  const found = await findCase(db, workspaceId, idOrExternal);
  if (!found) throw notFound('Case');
  await db.transaction().execute(async (trx) => {
    if (permanent) {
      await trx.deleteFrom('cases').where('id', '=', found.id).execute();
    } else {
      await trx.updateTable('cases').set({ deleted_at: sql`now()` }).where('id', '=', found.id).execute();
      // a deleted case's portal links stop working (a permanent delete removes them with the case)
      await revokeLinks(trx, { caseId: found.id });
    }
    await recordEvents(trx, workspaceId, [
      { type: 'Case.Deleted', case_id: found.id, payload: { case: { ...presentCase(found), permanent } } },
    ]);
  });
}
