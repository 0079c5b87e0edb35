import { randomUUID } from 'node:crypto';
import type { StoredFile } from '../../../files/attach-upload.ts';
import { emptyReview } from '../../review-data.ts';
import type { DocumentDetailedResults, DocumentInformation } from './provider.ts';

export type IdDocumentSettings = {
  vendor: string;
  automatic_approval: boolean;
  automatic_rejection: boolean;
};

export interface AttemptFiles {
  front: StoredFile;
  back: StoredFile | null;
}

/**
 * How one submission ended; the log lives in `internal.submissions` across attempts. A submission
 * is logged `pending` when its files are sent, and the provider's result replaces that; one whose
 * result never applied (pushed to review, or decided by a person while processing) stays `pending`:
 * it was a submission, not an automatic rejection.
 */
export type SubmissionResolution =
  | 'pending'
  | 'approved_automatically'
  | 'rejected_automatically'
  | 'need_review';

/** The check's `internal` (never shown): the files of the current attempt and the submission log. */
export interface IdDocumentInternal {
  files: AttemptFiles | null;
  submissions: { attempt: number; resolution: SubmissionResolution }[];
  forced_review?: boolean;
}

/** The log with a submission of `attempt` just sent to the provider. */
export function withSubmissionSent(internal: Partial<IdDocumentInternal> | null, attempt: number) {
  return [...(internal?.submissions ?? []), { attempt, resolution: 'pending' as const }];
}

export const emptyDetailedResults = (): DocumentDetailedResults => ({
  data_validation: null,
  data_consistency: null,
  image_integrity: null,
  visual_authenticity: null,
  compromised_document: null,
  data_comparison: null,
});

export const emptyInformation = (files: AttemptFiles | null): DocumentInformation => ({
  document_type: null,
  document_number: null,
  first_name: null,
  last_name: null,
  maiden_name: null,
  gender: null,
  nationality: null,
  birth_date: null,
  birth_country: null,
  issuing_date: null,
  issuing_country: null,
  expiration_date: null,
  front_file_id: files?.front.id ?? null,
  back_file_id: files?.back?.id ?? null,
});

export { emptyReview };

/** The vendor block: empty until a submission, then the provider's reference and start time. */
export function vendorBlock(settings: IdDocumentSettings, checkId: string, submitted: boolean) {
  return {
    name: settings.vendor,
    verification_ref: submitted ? `sbx_${randomUUID()}` : null,
    verification_group_ref: submitted ? checkId : null,
    verification_status: submitted ? 'submitted' : null,
    started_at: submitted ? new Date().toISOString() : null,
    comment: null,
  };
}

/** The data of an attempt before any provider answer. */
export function attemptData(
  settings: IdDocumentSettings,
  checkId: string,
  files: AttemptFiles | null,
): Record<string, unknown> {
  return {
    result: null,
    settings,
    vendor: vendorBlock(settings, checkId, files !== null),
    review: emptyReview(),
    detailed_results: { document: emptyDetailedResults() },
    information: emptyInformation(files),
  };
}
