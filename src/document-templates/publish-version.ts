import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentVersion } from './present.ts';
import { lockTemplateByKey } from './repository.ts';

/**
 * `POST /document-templates/{key}/versions/{n}/publish`: the version becomes the one in use (the
 * one published last is used, so publishing an older version again rolls back to it). Publishing
 * the version already in use changes nothing.
 */
export async function publishDocumentTemplateVersion(db: Db, workspaceId: string, key: string, n: number) {
  return db.transaction().execute(async (trx) => {
    const template = await lockTemplateByKey(trx, workspaceId, key);
    if (!template) throw notFound('Document template');
    const version = await trx
      .selectFrom('document_template_versions')
      .selectAll()
      .where('template_id', '=', template.id)
      .where('number', '=', n)
      .executeTakeFirst();
    if (!version) throw notFound(`Version ${n} of document template "${key}"`);
    const current = await trx
      .selectFrom('document_template_versions')
      .select('id')
      .where('template_id', '=', template.id)
      .where('status', '=', 'published')
      .orderBy('published_at', 'desc')
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (current?.id === version.id) return presentVersion(template, version);
    const now = new Date();
    const published = await trx
      .updateTable('document_template_versions')
      .set({ status: 'published', published_at: now })
      .where('id', '=', version.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('document_templates')
      .set({ updated_at: now })
      .where('id', '=', template.id)
      .execute();
    return presentVersion(template, published);
  });
}
