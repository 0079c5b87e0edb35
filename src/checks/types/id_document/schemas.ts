import { Type } from 'typebox';
import { Country, DateOnly, DateTime, Nullable, Uuid } from '../../../http/common-schemas.ts';
import { CheckReview } from '../../review-data.ts';

export const IDD_VENDORS = ['idd_provider_1', 'idd_provider_2'] as const;

const UploadRef = Type.String({ minLength: 1, maxLength: 200 });

/** The files of a submission (reference IdDocumentCheckDataFile): create `data` and add_files body. */
export const IdDocumentFiles = Type.Object({
  front_upload_ref: UploadRef,
  back_upload_ref: Type.Optional(Nullable(UploadRef)),
});

export const IdDocumentCreateBody = Type.Object({
  individual_id: Uuid,
  settings: Type.Optional(
    Type.Object({
      vendor: Type.Optional(Type.Enum(IDD_VENDORS)),
      automatic_approval: Type.Optional(Type.Boolean()),
      automatic_rejection: Type.Optional(Type.Boolean()),
    }),
  ),
  data: Type.Optional(IdDocumentFiles),
});

/** A provider's verdict on one aspect, or null before any. */
export const Verdict = Nullable(Type.Enum(['approved', 'rejected', 'error']));

/** `detailed_results.document`: the document's aspects, shared with id_verification. */
export const DocumentDetailedResults = Type.Object({
  data_validation: Verdict,
  data_consistency: Verdict,
  image_integrity: Verdict,
  visual_authenticity: Verdict,
  compromised_document: Verdict,
  data_comparison: Verdict,
});

/** The kinds of identity document read (`information.document_type`). */
export const IdDocumentKind = Nullable(
  Type.Enum(['passport', 'identity_card', 'driving_license', 'residence_permit', 'visa', 'other']),
);

export const IdDocumentData = Type.Object({
  result: Verdict,
  settings: Type.Object({
    vendor: Type.Enum(IDD_VENDORS),
    automatic_approval: Type.Boolean(),
    automatic_rejection: Type.Boolean(),
  }),
  vendor: Type.Object({
    name: Type.Enum(IDD_VENDORS),
    verification_ref: Nullable(Type.String()),
    verification_group_ref: Nullable(Type.String()),
    verification_status: Nullable(Type.String()),
    started_at: Nullable(DateTime),
    comment: Nullable(Type.String({ description: 'The provider reason on rejection or refusal' })),
  }),
  review: CheckReview,
  detailed_results: Type.Object(
    {
      document: DocumentDetailedResults,
    },
    { deprecated: true },
  ),
  information: Type.Object({
    document_type: IdDocumentKind,
    document_number: Nullable(Type.String()),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    maiden_name: Nullable(Type.String()),
    gender: Nullable(Type.String()),
    nationality: Nullable(Country),
    birth_date: Nullable(DateOnly),
    birth_country: Nullable(Country),
    expiration_date: Nullable(DateOnly),
    issuing_date: Nullable(DateOnly),
    issuing_country: Nullable(Country),
    front_file_id: Nullable(Type.String()),
    back_file_id: Nullable(Type.String()),
  }),
});
