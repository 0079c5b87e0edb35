import type { Outcome } from '../../check-type.ts';
import { reviewNeeded, systemReview } from '../../review-data.ts';
import { expiryOf } from '../id_document/decide.ts';
import type { AnalysisOutcome } from './analysis/index.ts';
import type { DocumentCheckData, DocumentInternal, SubmissionResolution } from './check-data.ts';

/** What the job learnt about the files: the analysis, a sandbox outcome, or a failure. */
export type Finding =
  | { kind: 'analysis'; analysis: AnalysisOutcome }
  | { kind: 'sandbox'; outcome: 'approved' | 'rejected' | 'undecided' | 'error' }
  | { kind: 'error'; detail: string };

const SANDBOX_COMMENTS = {
  approved: null,
  rejected: 'The document was rejected (sandbox_outcome rejected)',
  undecided: 'The document could not be decided (sandbox_outcome undecided)',
  error: 'The document analysis failed (sandbox_outcome error)',
} as const;

/**
 * The automatic rules applied to a finding (transitions.ts lists the rows):
 * - approved + automatic_approval → approved (reviewer `system`, comment saying why);
 * - rejected + automatic_rejection → rejected (reviewer `system`, the failed criteria as comment);
 * - otherwise need_review, the reason in data.review.comment (no reviewer yet);
 * - an analysis failure → need_review with data.result `error`.
 */
export function decide(
  finding: Finding,
  check: { attempt: number; data: DocumentCheckData; internal: DocumentInternal },
): Outcome {
  const data = check.data;
  const auto = data.settings.document_analysis;
  let verdict: 'approved' | 'rejected' | 'need_review' | 'error';
  let comment: string | null;
  let information = data.information;
  let detailed = data.detailed_results;
  if (finding.kind === 'analysis') {
    verdict = finding.analysis.verdict;
    comment = finding.analysis.comment;
    information = finding.analysis.information;
    detailed = finding.analysis.detailedResults;
  } else if (finding.kind === 'sandbox') {
    const o = finding.outcome;
    verdict = o === 'undecided' ? 'need_review' : o;
    comment = SANDBOX_COMMENTS[o];
  } else {
    verdict = 'error';
    comment = `The document analysis failed: ${finding.detail}`;
  }

  let status: 'approved' | 'rejected' | 'need_review' = 'need_review';
  // a sandbox outcome decides without any analysis: the comment says so rather than invent criteria
  // files that could not be read are named on an approval too (only a review's comment said them)
  const notRead =
    verdict === 'approved' && comment?.startsWith('Not read: ') ? comment.slice(10).replace(/\.$/, '') : null;
  const approvedBy =
    finding.kind === 'sandbox'
      ? 'the document was approved (sandbox_outcome approved)'
      : notRead
        ? `every criterion of the document analysis passed on the files it read; not read: ${notRead}`
        : 'every criterion of the document analysis passed';
  // why a person must look, in the frame every type uses (src/checks/review-data.ts), else who decided
  let review: ReturnType<typeof reviewNeeded> | ReturnType<typeof systemReview>;
  if (verdict === 'approved' && auto.automatic_approval) {
    status = 'approved';
    review = systemReview(`Approved automatically (automatic_approval): ${approvedBy}`);
  } else if (verdict === 'approved') {
    review = reviewNeeded(approvedBy, 'automatic_approval');
  } else if (verdict === 'rejected' && auto.automatic_rejection) {
    status = 'rejected';
    review = systemReview(
      `Rejected automatically (automatic_rejection): ${comment ?? 'a criterion of the document analysis failed'}`,
    );
  } else if (verdict === 'rejected') {
    review = reviewNeeded(comment ?? 'a criterion of the document analysis failed', 'automatic_rejection');
  } else {
    review = reviewNeeded(
      comment ??
        (verdict === 'error' ? 'the document analysis failed' : 'the document analysis could not decide'),
    );
  }
  const decided = status !== 'need_review';
  const resolution: SubmissionResolution =
    status === 'approved'
      ? 'approved_automatically'
      : status === 'rejected'
        ? 'rejected_automatically'
        : 'need_review';
  return {
    trigger: 'analysis_result',
    status,
    data: {
      ...data,
      result: verdict === 'error' ? 'error' : decided ? status : null,
      review,
      detailed_results: detailed,
      information,
    },
    internal: {
      ...check.internal,
      submissions: [
        ...(check.internal.submissions ?? []),
        {
          attempt: check.attempt,
          resolution,
          ...(finding.kind === 'sandbox' ? { sandbox: finding.outcome } : {}),
        },
      ],
    } as unknown as Record<string, unknown>,
    expiresAt: expiryOf(information.expiration_date),
  };
}
