import { type Static, Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';

export const CHECK_TYPES = [
  'id_verification',
  'id_document',
  'aml',
  'company_monitoring',
  'document',
  'ekyc',
  'electronic_signature',
  'fraud_database',
  'online_reputation',
] as const;
export const CHECK_STATUSES = [
  'in_progress',
  'processing',
  'need_review',
  'approved',
  'rejected',
  'expired',
] as const;

/** The check envelope: what lists and the detailed case show (no `data`). */
export const CheckEnvelope = Type.Object({
  id: Uuid,
  type: Type.Enum(CHECK_TYPES),
  status: Type.Enum(CHECK_STATUSES),
  subtype: Nullable(Type.String()),
  document_type_key: Nullable(
    Type.String({ description: 'The document type of a document check (its subtype `document_type:{key}`)' }),
  ),
  company_id: Nullable(Uuid),
  individual_id: Nullable(Uuid),
  is_internal: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  last_activity_at: DateTime,
});

export type CheckEnvelopeOut = Static<typeof CheckEnvelope>;
