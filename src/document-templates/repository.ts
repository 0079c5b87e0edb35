import type { Db } from '../db/connect.ts';
import type { DocumentTemplateRow, DocumentTemplateVersionRow } from '../db/schema.ts';

export async function findTemplateByKey(
  db: Db,
  workspaceId: string,
  key: string,
): Promise<DocumentTemplateRow | undefined> {
  return db
    .selectFrom('document_templates')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** The template row locked for this transaction (version numbers are allotted one at a time). */
export async function lockTemplateByKey(
  trx: Db,
  workspaceId: string,
  key: string,
): Promise<DocumentTemplateRow | undefined> {
  return trx
    .selectFrom('document_templates')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirst();
}

export async function versionsOf(db: Db, templateIds: string[]): Promise<DocumentTemplateVersionRow[]> {
  if (!templateIds.length) return [];
  return db
    .selectFrom('document_template_versions')
    .selectAll()
    .where('template_id', 'in', templateIds)
    .orderBy('template_id')
    .orderBy('number')
    .execute();
}

export async function latestPublishedVersion(
  db: Db,
  templateId: string,
): Promise<DocumentTemplateVersionRow | undefined> {
  return (
    db
      .selectFrom('document_template_versions')
      .selectAll()
      .where('template_id', '=', templateId)
      .where('status', '=', 'published')
      // the version published last is the one in use (re-publishing an old one is a roll-back)
      .orderBy('published_at', 'desc')
      .orderBy('number', 'desc')
      .limit(1)
      .executeTakeFirst()
  );
}
