import { Type } from 'typebox';
import { Country, DateOnly, DateTime, Nullable, Uuid } from '../../../http/common-schemas.ts';
import { CheckReview } from '../../review-data.ts';
import { DocumentDetailedResults, IdDocumentKind, Verdict } from '../id_document/schemas.ts';

/**
 * Vendor identifiers, after the spec's convention for id_document (`idd_provider_1`): the spec
 * names no id_verification provider, so ours is `idv_provider_1`, the on-device verifier
 * (docs/id-verification.md).
 */
export const IDV_VENDORS = ['idv_provider_1'] as const;
export const IDV_MODES = ['liveness', 'auto', 'expert', 'certified', 'default'] as const;

export const IdVerificationCreateBody = Type.Object({
  individual_id: Uuid,
  settings: Type.Optional(
    Type.Object({
      vendor: Type.Optional(Type.Enum(IDV_VENDORS)),
      mode: Type.Optional(Type.Enum(IDV_MODES)),
      automatic_approval: Type.Optional(Type.Boolean()),
      automatic_rejection: Type.Optional(Type.Boolean()),
      redirect_url: Type.Optional(
        Nullable(Type.String({ minLength: 1, maxLength: 2000, description: 'An http or https URL' })),
      ),
    }),
  ),
});

export const IdVerificationData = Type.Object({
  result: Verdict,
  settings: Type.Object({
    vendor: Type.Enum(IDV_VENDORS),
    mode: Type.Enum(IDV_MODES),
    automatic_approval: Type.Boolean(),
    automatic_rejection: Type.Boolean(),
    redirect_url: Nullable(Type.String()),
  }),
  vendor: Type.Object({
    name: Type.Enum(IDV_VENDORS),
    verification_ref: Type.String(),
    verification_url: Nullable(
      Type.String({ description: 'The client portal page of this check (the token is in the fragment)' }),
    ),
    verification_url_expires_at: Nullable(
      Type.String({ format: 'date-time', description: 'When verification_url stops working' }),
    ),
    verification_status: Type.String({
      description: 'awaiting_capture, submitted, approved, rejected, undecided or error',
    }),
    started_at: Nullable(DateTime),
    ended_at: Nullable(DateTime),
    comment: Nullable(Type.String()),
    report_file_id: Nullable(Type.String()),
    sdk_token: Nullable(
      Type.String({
        description: 'Always null: the capture runs in our client portal page, which needs no vendor SDK',
      }),
    ),
  }),
  review: CheckReview,
  detailed_results: Type.Object(
    {
      document: DocumentDetailedResults,
      face: Type.Object({
        face_comparison: Verdict,
        image_integrity: Verdict,
        visual_authenticity: Verdict,
      }),
    },
    { deprecated: true },
  ),
  information: Type.Object({
    document_type: IdDocumentKind,
    document_number: Nullable(Type.String()),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    gender: Nullable(Type.String()),
    nationality: Nullable(Country),
    birth_date: Nullable(DateOnly),
    birth_place: Nullable(Type.String()),
    birth_country: Nullable(Country),
    expiration_date: Nullable(DateOnly),
    issuing_date: Nullable(DateOnly),
    issuing_country: Nullable(Country),
    mrz: Nullable(Type.String()),
    ip_address: Nullable(Type.String()),
    front_file_id: Nullable(Type.String()),
    back_file_id: Nullable(Type.String()),
    signature_file_id: Nullable(Type.String()),
    face_file_id: Nullable(Type.String()),
    video_file_id: Nullable(Type.String()),
  }),
});
