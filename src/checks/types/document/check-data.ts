import type { Static } from 'typebox';
import type { StoredFile } from '../../../files/attach-upload.ts';
import { emptyReview } from '../../review-data.ts';
import type { DocumentData, DocumentSettings } from './schemas.ts';

export type DocumentCheckSettings = Static<typeof DocumentSettings>;
export type DocumentCheckData = Static<typeof DocumentData>;

/** The automatic rules, resolved: request, then workspace (`settings.checks.document`), then these. */
export const DOCUMENT_DEFAULTS = { automatic_approval: true, automatic_rejection: false };

/** How one analysis ended; the log lives in `internal.submissions` across attempts. */
export type SubmissionResolution = 'approved_automatically' | 'rejected_automatically' | 'need_review';

/** The check's `internal` (never shown): the files of the current attempt and the submission log. */
export interface DocumentInternal {
  files: StoredFile[];
  submissions: { attempt: number; resolution: SubmissionResolution; sandbox?: string }[];
  forced_review?: boolean;
}

export { emptyReview };

/** The data of an attempt before its analysis. */
export function attemptData(settings: DocumentCheckSettings, files: StoredFile[]): DocumentCheckData {
  return {
    result: null,
    settings,
    review: emptyReview(),
    detailed_results: { document_analysis: null },
    document_file_ids: files.map((f) => f.id),
    information: { expiration_date: null, document_analysis: null },
  };
}
