import type { Outcome } from '../../check-type.ts';
import { reviewNeeded, systemReview } from '../../review-data.ts';
import { expiryOf } from '../id_document/decide.ts';
import type { IdVerificationInternal, IdVerificationSettings } from './check-data.ts';
import { mayApproveAutomatically, mayRejectAutomatically } from './modes.ts';
import type { VerifierRun } from './verify.ts';

/** Why a result the rules did not decide goes to a person (the verifier's reason named). */
function pendingReview(run: VerifierRun, settings: IdVerificationSettings) {
  const why = run.comment ? `: ${run.comment}` : '';
  if (run.decision === 'approved')
    return mayApproveAutomatically(settings.mode)
      ? reviewNeeded('the verifier approved the identity', 'automatic_approval')
      : reviewNeeded(`the verifier approved the identity; mode ${settings.mode} has a person decide`);
  if (run.decision === 'rejected')
    return mayRejectAutomatically(settings.mode)
      ? reviewNeeded(`the verifier rejected the identity${why}`, 'automatic_rejection')
      : reviewNeeded(`the verifier rejected the identity${why}; mode ${settings.mode} has a person decide`);
  // the run's own comment says what failed (`The verification could not run: ...`)
  if (run.decision === 'error') return reviewNeeded(run.comment ?? 'the verification could not run');
  return reviewNeeded(`the verifier could not decide${why}`);
}

/**
 * The check's status from a verifier run (transitions.ts lists the rows): approved or rejected
 * only when the matching automatic setting is on and the mode lets it happen without a person;
 * anything else (undecided, error) goes to need_review. `data.result` says what was decided
 * (`error` when the run failed), the vendor block what the verifier said.
 */
export function decide(
  run: VerifierRun,
  check: { data: Record<string, unknown>; internal: IdVerificationInternal },
  reportFileId: string | null,
): Outcome {
  const data = check.data;
  const settings = data.settings as IdVerificationSettings;
  let status: 'approved' | 'rejected' | 'need_review' = 'need_review';
  if (run.decision === 'approved' && settings.automatic_approval && mayApproveAutomatically(settings.mode))
    status = 'approved';
  if (run.decision === 'rejected' && settings.automatic_rejection && mayRejectAutomatically(settings.mode))
    status = 'rejected';
  const information = data.information as Record<string, unknown>;
  const decided = status !== 'need_review';
  return {
    trigger: 'verifier_result',
    status,
    data: {
      ...data,
      result: run.decision === 'error' ? 'error' : decided ? status : null,
      vendor: {
        ...(data.vendor as Record<string, unknown>),
        verification_status: run.decision ?? 'undecided',
        ended_at: new Date().toISOString(),
        comment: run.comment,
        report_file_id: reportFileId,
      },
      review: decided ? systemReview() : pendingReview(run, settings),
      detailed_results: { document: run.document, face: run.face },
      information: { ...information, ...run.information },
    },
    internal: { ...check.internal, analysis: run.analysis } as unknown as Record<string, unknown>,
    expiresAt: status === 'rejected' ? null : expiryOf(run.information.expiration_date),
  };
}
