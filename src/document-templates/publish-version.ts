import type { Db } from '../db/connect.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { templateSyntaxError } from '../pdf-render/handlebars.ts';
import { presentVersion } from './present.ts';
import { lockTemplateByKey } from './repository.ts';

/**
 * `POST /document-templates/{key}/versions/{n}/publish`: the version becomes the one in use (the
 * one published last is used, so publishing an older version again rolls back to it). Publishing
 * the version already in use changes nothing. A version that cannot run (saved before a check was
 * added, see create-version.ts) is refused (400 naming `content`): published, it would fail every
 * signer who opens it.
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
    const problem = templateSyntaxError(version.content);
    if (problem) {
      throw badRequest(
        `Version ${n} cannot be published: its content is not a valid template: ${problem}. Create a corrected version and publish that one`,
        'content',
      );
    }
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
