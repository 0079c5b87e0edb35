import type { Db } from '../db/connect.ts';
import type { DocumentTemplateRow, DocumentTemplateVersionRow } from '../db/schema.ts';
import { findTemplateByKey, latestPublishedVersion } from './repository.ts';

export type DocumentTemplateKind = 'electronic_signature' | 'report';

/**
 * The template's latest published version, or why it cannot be used (a sentence for a 400: the
 * caller names its own field). Drafts are never used: a template with only drafts is refused.
 */
export async function publishedVersionOf(
  db: Db,
  workspaceId: string,
  key: string,
  kind?: DocumentTemplateKind,
): Promise<
  | { ok: true; template: DocumentTemplateRow; version: DocumentTemplateVersionRow }
  | { ok: false; reason: string }
> {
  const template = await findTemplateByKey(db, workspaceId, key);
  if (!template) return { ok: false, reason: `no document template with key "${key}"` };
  if (kind && template.kind !== kind) {
    return { ok: false, reason: `document template "${key}" is of kind ${template.kind}, not ${kind}` };
  }
  const version = await latestPublishedVersion(db, template.id);
  if (!version) return { ok: false, reason: `document template "${key}" has no published version` };
  return { ok: true, template, version };
}
