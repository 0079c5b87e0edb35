import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { templateSyntaxError } from '../pdf-render/handlebars.ts';
import { presentVersion } from './present.ts';
import { lockTemplateByKey } from './repository.ts';
import { MAX_CONTENT_BYTES } from './schemas.ts';

/**
 * `POST /document-templates/{key}/versions`: a new draft numbered after the last one. The content is
 * compiled first, so a template that cannot run is refused now rather than when a signer arrives.
 */
export async function createDocumentTemplateVersion(
  db: Db,
  workspaceId: string,
  key: string,
  content: string,
) {
  if (Buffer.byteLength(content, 'utf8') > MAX_CONTENT_BYTES) {
    throw badRequest(`content: at most ${MAX_CONTENT_BYTES} bytes (1 MB)`, 'content');
  }
  const syntax = templateSyntaxError(content);
  if (syntax) throw badRequest(`content: not a valid template: ${syntax}`, 'content');
  return db.transaction().execute(async (trx) => {
    // the lock allots version numbers one at a time (two concurrent drafts get 1 and 2)
    const template = await lockTemplateByKey(trx, workspaceId, key);
    if (!template) throw notFound('Document template');
    const last = await trx
      .selectFrom('document_template_versions')
      .select((eb) => eb.fn.max('number').as('n'))
      .where('template_id', '=', template.id)
      .executeTakeFirst();
    const version = await trx
      .insertInto('document_template_versions')
      .values({
        id: randomUUID(),
        template_id: template.id,
        number: Number(last?.n ?? 0) + 1,
        content,
        status: 'draft',
        published_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('document_templates')
      .set({ updated_at: new Date() })
      .where('id', '=', template.id)
      .execute();
    return presentVersion(template, version);
  });
}
