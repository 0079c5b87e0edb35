import type { Outcome } from '../../check-type.ts';
import { reviewNeeded, systemReview } from '../../review-data.ts';
import type { IdDocumentInternal, IdDocumentSettings, SubmissionResolution } from './check-data.ts';
import { emptyDetailedResults } from './check-data.ts';
import type { ProviderAnswer } from './provider.ts';

/** Refusal comments (spec, Errors): provider refusals are not HTTP errors. */
export const REFUSAL_COMMENTS = {
  size: 'the file exceeds the maximum allowed size; upload a smaller file',
  unprocessable: 'the document could not be processed; try a different document',
} as const;

/** The reason of a rejection the provider gave no comment for. */
const REJECTED_BY_PROVIDER = 'the document provider rejected the document';

/** The check expires the day after the document's expiration date (UTC), when that is in the future. */
export function expiryOf(expirationDate: string | null | undefined, now = new Date()): Date | null {
  if (!expirationDate || !/^\d{4}-\d{2}-\d{2}$/.test(expirationDate)) return null;
  const end = new Date(`${expirationDate}T00:00:00Z`);
  if (Number.isNaN(end.getTime())) return null;
  end.setUTCDate(end.getUTCDate() + 1);
  return end > now ? end : null;
}

/**
 * The spec's result rules, applied to a provider answer (transitions.ts lists the rows):
 * - approved + automatic_approval → approved (reviewer `system`);
 * - rejected + automatic_rejection → rejected; approved but data comparison failed +
 *   automatic_rejection → rejected;
 * - no result, or the matching automatic setting false → need_review;
 * - refusal → rejected with the refusal comment when automatic_rejection, else need_review;
 * - provider error → need_review with data.result `error`;
 * - an automatic rejection whose two preceding submissions on the check were both rejected
 *   automatically → need_review (automatic_rejection disregarded).
 */
export function decide(
  answer: Exclude<ProviderAnswer, { kind: 'pending' }>,
  check: { attempt: number; data: Record<string, unknown>; internal: IdDocumentInternal },
): Outcome {
  const data = check.data;
  const settings = data.settings as IdDocumentSettings;
  const vendor = data.vendor as Record<string, unknown>;
  const information = data.information as Record<string, unknown>;
  // the submission decided here was logged `pending` when sent (checks from before that: not at all)
  const all = check.internal.submissions ?? [];
  const last = all.at(-1);
  const log = last?.resolution === 'pending' && last.attempt === check.attempt ? all.slice(0, -1) : all;

  let trigger: string;
  let status: 'approved' | 'rejected' | 'need_review';
  let result: 'approved' | 'rejected' | 'error' | null;
  let verificationStatus: string;
  let comment: string | null = null;
  let nextInformation = information;
  let detailed = emptyDetailedResults();
  // why a person must look when nothing is decided automatically (data.review.comment)
  let pending: ReturnType<typeof reviewNeeded>;

  if (answer.kind === 'refused') {
    trigger = 'provider_refusal';
    verificationStatus = 'refused';
    comment = REFUSAL_COMMENTS[answer.reason];
    status = settings.automatic_rejection ? 'rejected' : 'need_review';
    pending = reviewNeeded(comment, 'automatic_rejection');
  } else if (answer.kind === 'error') {
    trigger = 'provider_result';
    verificationStatus = 'error';
    status = 'need_review';
    pending = reviewNeeded('the document provider failed to verify the document');
  } else {
    trigger = 'provider_result';
    nextInformation = {
      ...answer.information,
      front_file_id: information.front_file_id,
      back_file_id: information.back_file_id,
    };
    detailed = answer.detailed;
    comment = answer.comment;
    verificationStatus = answer.decision ?? 'undecided';
    const comparisonFailed = answer.detailed.data_comparison === 'rejected';
    if (answer.decision === 'approved' && !comparisonFailed) {
      status = settings.automatic_approval ? 'approved' : 'need_review';
      pending = reviewNeeded('the document provider approved the document', 'automatic_approval');
    } else if (answer.decision === 'approved' && comparisonFailed) {
      comment ??= 'The document data does not match the individual (data comparison failed)';
      status = settings.automatic_rejection ? 'rejected' : 'need_review';
      pending = reviewNeeded(comment, 'automatic_rejection');
    } else if (answer.decision === 'rejected') {
      status = settings.automatic_rejection ? 'rejected' : 'need_review';
      pending = reviewNeeded(comment ?? REJECTED_BY_PROVIDER, 'automatic_rejection');
    } else {
      status = 'need_review';
      // the provider's reason, when it gives one, is what the reviewer needs first
      pending = reviewNeeded(
        answer.comment
          ? `the document provider could not decide on the document: ${answer.comment}`
          : 'the document provider could not decide on the document',
      );
    }
  }

  // the third automatic rejection in a row goes to a person instead
  const lastTwo = log.slice(-2);
  let thirdRejection = false;
  if (
    status === 'rejected' &&
    lastTwo.length === 2 &&
    lastTwo.every((s) => s.resolution === 'rejected_automatically')
  ) {
    thirdRejection = true;
    trigger = 'automatic_rejection';
    status = 'need_review';
    pending = reviewNeeded(
      `a third automatic rejection in a row is left to a person: ${comment ?? REJECTED_BY_PROVIDER}`,
    );
  }

  result = status === 'approved' ? 'approved' : status === 'rejected' ? 'rejected' : null;
  if (answer.kind === 'error') result = 'error';

  const resolution: SubmissionResolution =
    status === 'approved'
      ? 'approved_automatically'
      : status === 'rejected'
        ? 'rejected_automatically'
        : 'need_review';
  const decided = status === 'approved' || status === 'rejected';
  return {
    trigger,
    status,
    data: {
      ...data,
      result,
      vendor: { ...vendor, verification_status: verificationStatus, comment },
      review: decided ? systemReview() : pending,
      detailed_results: { document: detailed },
      information: nextInformation,
    },
    internal: {
      ...check.internal,
      submissions: [...log, { attempt: check.attempt, resolution }],
      ...(thirdRejection ? { third_automatic_rejection: true } : {}),
    },
    expiresAt: expiryOf(nextInformation.expiration_date as string | null),
  };
}
