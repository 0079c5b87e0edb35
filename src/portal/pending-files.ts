import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

// Pending files: uploads the contact made for a check and has not submitted yet. Their upload
// rows (files) stay unattached, so the hourly purge would drop them after the usual 24 hours: a
// pending file's upload lives as long as the link instead, and one the contact removes or replaces
// expires at once (the purge then deletes its bytes).

/** Keeps a pending file's upload until `until` (the link's expiry) when that is later than its own. */
export async function keepUploadUntil(trx: Db, fileId: string, until: Date): Promise<void> {
  await trx
    .updateTable('files')
    .set({ expires_at: sql`greatest(expires_at, ${until})` })
    .where('id', '=', fileId)
    .where('attached_at', 'is', null)
    .execute();
}

/** Removes pending files (by id, of one check) and lets their uploads expire unless a check took them. */
export async function dropPendingFiles(trx: Db, checkId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  const dropped = await trx
    .deleteFrom('client_portal_pending_files')
    .where('check_id', '=', checkId)
    .where('id', 'in', ids)
    .returning('file_id')
    .execute();
  if (!dropped.length) return;
  await trx
    .updateTable('files')
    .set({ expires_at: sql`now()` })
    .where(
      'id',
      'in',
      dropped.map((d) => d.file_id),
    )
    .where('attached_at', 'is', null)
    .execute();
}
