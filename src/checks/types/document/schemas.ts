import { Type } from 'typebox';
import { DocumentType } from '../../../document-types/schemas.ts';
import { DateTime, Nullable, Uuid } from '../../../http/common-schemas.ts';
import { NullableNestedUser } from '../../../users/nested-user.ts';
import { DocumentCheckDataDetailedResults, DocumentCheckDataInformation } from './analysis/schemas.ts';

/** Files a document check holds per attempt (spec, Limits). */
export const MAX_DOCUMENT_FILES = 10;

const UploadRef = Type.String({ minLength: 1, maxLength: 200 });
const FileIn = Type.Object({ upload_ref: UploadRef });

/** `settings.document_analysis` as the reference takes it (parameters: none are read, so null only). */
const DocumentAnalysisIn = Type.Object({
  automatic_approval: Type.Optional(Type.Boolean()),
  automatic_rejection: Type.Optional(Type.Boolean()),
  parameters: Type.Optional(Type.Null()),
});

/**
 * `settings.fraud_analysis` as the reference takes it: null or `{enabled: false}` (off, what
 * vericase does), so a generated client sending its nullable field is not refused; enabling it is.
 */
const FraudAnalysisIn = Nullable(
  Type.Object({
    enabled: Type.Literal(false, {
      description: 'Document fraud analysis is not offered: false (or the whole field null or absent)',
    }),
  }),
);

export const DocumentCreateBody = Type.Object({
  company_id: Type.Optional(Uuid),
  individual_id: Type.Optional(Uuid),
  settings: Type.Object({
    document_type_key: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A built-in or custom document type key (GET /v1/document_types) for the target kind',
    }),
    automatic_approval: Type.Optional(
      Type.Boolean({ description: 'Approve when the analysis approves (default true)' }),
    ),
    automatic_rejection: Type.Optional(
      Type.Boolean({ description: 'Reject when the analysis rejects (default false: review instead)' }),
    ),
    document_analysis: Type.Optional(Nullable(DocumentAnalysisIn)),
    fraud_analysis: Type.Optional(FraudAnalysisIn),
  }),
  data: Type.Optional(
    Type.Object({
      files: Type.Array(FileIn, {
        maxItems: MAX_DOCUMENT_FILES,
        description: 'At most 10; none: the check waits in_progress for add_files',
      }),
    }),
  ),
});

export const DocumentAddFilesBody = Type.Object({
  files: Type.Array(FileIn, {
    minItems: 1,
    maxItems: MAX_DOCUMENT_FILES,
    description: 'With the files already in the attempt, at most 10',
  }),
  settings: Type.Optional(
    Nullable(Type.Object({ document_analysis: Type.Optional(Nullable(DocumentAnalysisIn)) })),
  ),
});

export const DocumentSettings = Type.Object({
  document_type: DocumentType,
  document_type_key: Type.String(),
  document_analysis: Type.Object({
    automatic_approval: Type.Boolean(),
    automatic_rejection: Type.Boolean(),
    parameters: Type.Null(),
  }),
});

export const DocumentData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  settings: DocumentSettings,
  review: Type.Object({
    comment: Nullable(
      Type.String({
        description: 'The reviewer’s comment; before a review, why the analysis did not decide',
      }),
    ),
    reviewed_at: Nullable(DateTime),
    reviewer_type: Nullable(Type.Enum(['user', 'system', 'api'])),
    user: NullableNestedUser,
  }),
  detailed_results: DocumentCheckDataDetailedResults,
  document_file_ids: Type.Array(Uuid),
  information: DocumentCheckDataInformation,
});
