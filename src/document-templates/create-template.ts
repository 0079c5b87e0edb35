import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { conflict } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { presentTemplate } from './present.ts';
import type { DocumentTemplateCreate } from './schemas.ts';

/** `POST /document-templates`: a template without versions (add one, then publish it). */
export async function createDocumentTemplate(
  db: Db,
  workspaceId: string,
  input: Static<typeof DocumentTemplateCreate>,
) {
  try {
    const row = await db
      .insertInto('document_templates')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        key: input.key,
        name: input.name,
        kind: input.kind,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentTemplate(row, []);
  } catch (err) {
    if (isUniqueViolation(err, 'document_templates_key'))
      throw conflict(`key: a document template with key "${input.key}" already exists`, 'key');
    throw err;
  }
}
