import { sql } from 'kysely';
import { keepWithdrawnLinks, revokeLinks } from '../client-portals/links.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';
import type { FileStorage } from '../files/storage.ts';
import { notFound } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { caseFileIds, deleteCaseFiles, removeStoredFiles, withholdCaseFiles } from './case-files.ts';
import { presentCase } from './present.ts';
import { findCase } from './repository.ts';

export interface DeleteCaseDeps {
  db: Db;
  storage: () => FileStorage;
  onFileError: (err: unknown, key: string) => void;
}

/**
 * Soft delete hides the case from every read, its files included (withheld: `withholdCaseFiles`);
 * `permanent` erases it and everything under it, its files included (their bytes are removed once
 * the erasure has committed). A case already soft deleted can still be erased by its internal id.
 */
export async function deleteCase(
  deps: DeleteCaseDeps,
  workspaceId: string,
  idOrExternal: string,
  permanent: boolean,
) {
  const { db } = deps;
  const found =
    (await findCase(db, workspaceId, idOrExternal)) ??
    (permanent ? await findSoftDeleted(db, workspaceId, idOrExternal) : undefined);
  if (!found) throw notFound('Case');
  const erasedKeys = await db.transaction().execute(async (trx) => {
    // the case locked and read again first: of concurrent deletes, one deletes it (one 204, one
    // Case.Deleted), the others find it gone (404), as when they come one after the other
    const locked = await trx
      .selectFrom('cases')
      .select(['id', 'deleted_at'])
      .where('id', '=', found.id)
      .forUpdate()
      .executeTakeFirst();
    if (!locked || (!permanent && locked.deleted_at !== null)) throw notFound('Case');
    let keys: string[] = [];
    if (permanent) {
      const fileIds = await caseFileIds(trx, workspaceId, found.id);
      // its portal links go with it: only their tokens' hashes are kept (no case id, no person), so
      // that their pages say the link was withdrawn rather than that it never existed
      await keepWithdrawnLinks(trx, workspaceId, { caseId: found.id });
      await trx.deleteFrom('cases').where('id', '=', found.id).execute();
      keys = await deleteCaseFiles(trx, workspaceId, fileIds);
      await eraseCaseHistory(trx, workspaceId, found.id);
    } else {
      await trx.updateTable('cases').set({ deleted_at: sql`now()` }).where('id', '=', found.id).execute();
      // its files stop being served with it (those a live case or a portal still uses excepted)
      await withholdCaseFiles(trx, workspaceId, await caseFileIds(trx, workspaceId, found.id));
      // a deleted case's portal links stop working (a permanent delete removes them with the case,
      // keeping their hashes as withdrawn links)
      await revokeLinks(trx, { caseId: found.id });
    }
    await recordEvents(trx, workspaceId, [
      { type: 'Case.Deleted', case_id: found.id, payload: { case: { ...presentCase(found), permanent } } },
    ]);
    return keys;
  });
  if (erasedKeys.length > 0) await removeStoredFiles(deps.storage(), erasedKeys, deps.onFileError);
}

/**
 * An erased case leaves no copy of its data in the event history: its events (the activity list,
 * webhook replay), those not yet dispatched, and the webhook deliveries that carry its payloads
 * (the delivery logs) go with it. The `Case.Deleted` recorded after this is kept and delivered:
 * receivers learn of the erasure. The audit log keeps who erased what, without the data.
 */
async function eraseCaseHistory(trx: Db, workspaceId: string, caseId: string) {
  const erased = await trx
    .deleteFrom('events')
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .returning('seq')
    .execute();
  if (erased.length > 0) {
    await trx
      .deleteFrom('event_outbox')
      .where(
        'seq',
        'in',
        erased.map((e) => e.seq),
      )
      .execute();
  }
  await trx
    .deleteFrom('webhook_deliveries')
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .execute();
  // stored Idempotency-Key answers carry the case too: blanked, their keys kept (a retry is not
  // made again; it answers 404, src/http/idempotency.ts)
  await trx
    .updateTable('idempotency_keys')
    .set({ response_body: '' })
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .execute();
}

function findSoftDeleted(db: Db, workspaceId: string, id: string): Promise<CaseRow | undefined> {
  if (!UUID_RE.test(id)) return Promise.resolve(undefined);
  return db
    .selectFrom('cases')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is not', null)
    .executeTakeFirst();
}
