import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/**
 * `DELETE /document_types/{id}`: archives one of the workspace's own types. It leaves the list and
 * can no longer be used by new checks; checks already made keep it (their data names it). A
 * built-in type → 400; an archived, unknown or another workspace's type → 404. A type a template's
 * document check asks for → 400 CONFLICT naming the templates: archived, it would make every case
 * of those templates refused (their document check could not be created).
 */
export async function archiveDocumentType(db: Db, workspaceId: string, id: string): Promise<void> {
  if (!UUID_RE.test(id)) throw notFound('Document type');
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('document_types')
      .select(['key', 'workspace_id', 'archived_at'])
      .where('id', '=', id)
      .where((eb) => eb.or([eb('workspace_id', 'is', null), eb('workspace_id', '=', workspaceId)]))
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.archived_at) throw notFound('Document type');
    if (row.workspace_id === null) throw badRequest('Built-in document types cannot be archived', 'id');
    const users = await trx
      .selectFrom('templates')
      .select('key')
      .where('workspace_id', '=', workspaceId)
      .where('deleted_at', 'is', null)
      .where(
        sql<boolean>`checks @> ${JSON.stringify([{ type: 'document', settings: { document_type_key: row.key } }])}::jsonb`,
      )
      .orderBy('key')
      .execute();
    if (users.length) {
      const keys = users.map((t) => t.key).join(', ');
      const message = `Document type ${row.key} is used by the document checks of template${users.length > 1 ? 's' : ''} ${keys}: take it out of ${users.length > 1 ? 'them' : 'it'} first (PATCH /v1/templates/{id})`;
      throw new ApiError(400, message, [{ path: 'id', message }], 'CONFLICT');
    }
    await trx
      .updateTable('document_types')
      .set({ archived_at: sql`now()`, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .where('archived_at', 'is', null)
      .execute();
  });
}
