import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentTemplate, presentVersion } from './present.ts';
import { findTemplateByKey, versionsOf } from './repository.ts';

/** `GET /document-templates/{key}`: the template and its versions (without their content). */
export async function getDocumentTemplate(db: Db, workspaceId: string, key: string) {
  const template = await findTemplateByKey(db, workspaceId, key);
  if (!template) throw notFound('Document template');
  return presentTemplate(template, await versionsOf(db, [template.id]));
}

/** `GET /document-templates/{key}/versions/{n}`: one version with its content. */
export async function getDocumentTemplateVersion(db: Db, workspaceId: string, key: string, n: number) {
  const template = await findTemplateByKey(db, workspaceId, key);
  if (!template) throw notFound('Document template');
  const version = await db
    .selectFrom('document_template_versions')
    .selectAll()
    .where('template_id', '=', template.id)
    .where('number', '=', n)
    .executeTakeFirst();
  if (!version) throw notFound('Document template version');
  return presentVersion(template, version);
}
