import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../../http/common-schemas.ts';

export const CASE_DOCUMENT_TYPES = [
  'case_report',
  'document_order',
  'check__document',
  'check__id_document',
  'check__id_verification',
  'check__electronic_signature',
] as const;
export type CaseDocumentType = (typeof CASE_DOCUMENT_TYPES)[number];

export const CaseDocumentsQuery = Type.Object({
  company_id: Type.Optional(Uuid),
  individual_id: Type.Optional(Uuid),
  type: Type.Optional(
    Type.String({ description: `Comma-separated, among: ${CASE_DOCUMENT_TYPES.join(', ')}` }),
  ),
  include_check_history: Type.Optional(Type.Boolean()),
  include_not_relevant: Type.Optional(Type.Boolean()),
});

export const CaseDocument = Type.Object({
  company_id: Type.Optional(Uuid),
  individual_id: Type.Optional(Uuid),
  name: Type.String(),
  type: Type.Enum(CASE_DOCUMENT_TYPES),
  document_order: Type.Optional(Type.Object({ id: Uuid })),
  check: Type.Optional(
    Type.Object({
      id: Uuid,
      subtype: Nullable(Type.String()),
      document_type_key: Type.Optional(Type.String()),
      type: Type.Enum(['document', 'id_document', 'id_verification', 'electronic_signature']),
      version: Type.Enum(['current', 'history']),
    }),
  ),
  file_ids: Type.Array(Type.String(), { description: 'Download each with GET /v1/files/{id}' }),
  updated_at: DateTime,
});

export const CaseDocumentList = Type.Object({ data: Type.Array(CaseDocument) });

export type CaseDocumentOut = Static<typeof CaseDocument>;
