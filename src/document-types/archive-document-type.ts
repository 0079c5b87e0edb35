import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/**
 * `DELETE /document_types/{id}`: archives one of the workspace's own types. It leaves the list and
 * can no longer be used by new checks; checks already made keep it (their data names it). A
 * built-in type → 400; an archived, unknown or another workspace's type → 404.
 */
export async function archiveDocumentType(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!UUID_RE.test(id)) throw notFound('Document type');
  const row = await db
    .selectFrom('document_types')
    .select(['workspace_id', 'archived_at'])
    .where('id', '=', id)
    .where((eb) => eb.or([eb('workspace_id', 'is', null), eb('workspace_id', '=', workspaceId)]))
    .executeTakeFirst();
  if (!row || row.archived_at) throw notFound('Document type');
  if (row.workspace_id === null) throw badRequest('Built-in document types cannot be archived', 'id');
  await db
    .updateTable('document_types')
    .set({ archived_at: sql`now()`, updated_at: sql`now()` })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .execute();
}
