import { type Static, type TSchema, Type } from 'typebox';
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
  document_type_key: Type.Optional(
    Type.String({
      description:
        'Only on a document check: its document type (its subtype `document_type:{key}`); absent on other types, as in the reference',
    }),
  ),
  company_id: Nullable(Uuid),
  individual_id: Nullable(Uuid),
  is_internal: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  last_activity_at: DateTime,
});

export type CheckEnvelopeOut = Static<typeof CheckEnvelope>;

/**
 * The full check of one type, as its own endpoints answer it: the envelope with `type` fixed, the
 * target id non-null for a type with one kind of target (ekyc, id_document: individual_id;
 * online_reputation: company_id), and the type's `data`.
 */
export function fullCheckSchema(
  type: string,
  targets: readonly ('individual' | 'company')[],
  data: TSchema,
): TSchema {
  const props: Record<string, TSchema> = { ...CheckEnvelope.properties, type: Type.Enum([type]), data };
  if (targets.length === 1) props[`${targets[0]}_id`] = Uuid;
  return Type.Object(props);
}
