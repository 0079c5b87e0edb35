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

/**
 * Keeps the pending uploads a new link shows (its check's, or every check's of its case for a
 * case-wide link) until that link's expiry: they were kept as long as the link they were uploaded
 * with, and the new one (the earlier revoked, or replaced once expired) would otherwise lose them to
 * the purge while it is still valid.
 */
export async function keepPendingUploadsFor(
  trx: Db,
  link: { workspaceId: string; caseId: string; checkId: string | null; expiresAt: Date },
): Promise<void> {
  let pending = trx
    .selectFrom('client_portal_pending_files as p')
    .innerJoin('checks as k', 'k.id', 'p.check_id')
    .select('p.file_id')
    .where('p.workspace_id', '=', link.workspaceId)
    .where('k.case_id', '=', link.caseId);
  if (link.checkId) pending = pending.where('p.check_id', '=', link.checkId);
  await trx
    .updateTable('files')
    .set({ expires_at: sql`greatest(expires_at, ${link.expiresAt})` })
    .where('id', 'in', pending)
    .where('attached_at', 'is', null)
    .execute();
}
