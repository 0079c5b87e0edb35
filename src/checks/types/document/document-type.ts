import type { Db } from '../../../db/connect.ts';
import type { DocumentTypeRow } from '../../../db/schema.ts';
import { presentDocumentType } from '../../../document-types/present.ts';
import { findDocumentTypeByKey } from '../../../document-types/repository.ts';
import { badRequest } from '../../../http/errors.ts';

const FIELD = 'settings.document_type_key';

/**
 * The document type a check asks for: it must exist for the workspace (built-in or its own), not
 * be archived, and target the check's kind of entity; else 400 naming the key.
 */
export async function usableDocumentType(
  trx: Db,
  workspaceId: string,
  key: string,
  kind: 'company' | 'individual',
): Promise<ReturnType<typeof presentDocumentType>> {
  const row: DocumentTypeRow | undefined = await findDocumentTypeByKey(trx, workspaceId, key);
  if (!row) throw badRequest(`Unknown document type ${key}; see GET /v1/document_types`, FIELD);
  if (row.archived_at) throw badRequest(`Document type ${key} is archived and cannot be used`, FIELD);
  if (!row.target_entities.includes(kind)) {
    throw badRequest(
      `Document type ${key} is for ${row.target_entities.join(' and ')} entities, not ${kind} entities`,
      FIELD,
    );
  }
  return presentDocumentType(row);
}
