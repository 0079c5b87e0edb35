import type { DocumentTypeRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';

export function presentDocumentType(t: DocumentTypeRow) {
  return {
    id: t.id,
    label: t.label,
    key: t.key,
    target_entities: t.target_entities as ('company' | 'individual')[],
    is_internal: t.is_internal,
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
    archived_at: t.archived_at ? iso(t.archived_at) : null,
  };
}

export type DocumentTypeOut = ReturnType<typeof presentDocumentType>;
