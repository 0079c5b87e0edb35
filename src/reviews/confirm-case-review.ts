import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { presentCase } from '../cases/present.ts';
import { lockCase } from '../cases/repository.ts';
import { contactHasActionsFor } from '../checks/engine/case-effects.ts';
import { revokeLinks } from '../client-portals/links.ts';
import type { Db } from '../db/connect.ts';
import { transactionNow } from '../db/transaction-now.ts';
import { nextVersionStamp } from '../db/version-stamp.ts';
import { type DomainEvent, recordEvents, SYSTEM } from '../events/record-event.ts';
import { assertVersion, type IfMatch } from '../http/conditional.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { getSettings } from '../settings/repository.ts';
import { commentOrNull } from '../shared/comment-or-null.ts';
import { noteAuditBefore } from '../shared/request-scope.ts';
import { nestedUserById } from '../users/nested-user.ts';
import { computeNextReviewAt } from './next-review-date.ts';
import { presentCaseReview } from './present.ts';

export type CaseReviewStatus = 'approved' | 'rejected' | 'closed';

export interface ConfirmCaseReviewInput {
  workspaceId: string;
  caseId: string;
  status: CaseReviewStatus;
  comment?: string | null;
  reviewerType: 'api' | 'system' | 'user';
  /** The console user who reviewed (reviewerType `user`): a user of the workspace. */
  userId?: string | null;
  /** Approved only: overrides the computed date; null schedules no next review. */
  nextReviewAt?: string | null;
  /** Defaults to now; may be in the past (anti-dated review). */
  reviewedAt?: Date;
  /**
   * The version of the case the reviewer decided on (a request's If-Match): another decision, or a
   * change of its checks' flags, recorded since is a 412, not overwritten by a stale tab.
   */
  condition?: IfMatch;
}

/** Tolerated clock skew for a reviewed_at given by the caller. */
const FUTURE_SKEW_MS = 5 * 60_000;

/**
 * Decides a case: records the review, sets the case status, its review snapshot and
 * next_review_at, and emits `Case.ReviewConfirmed` (+ `Case.Updated`/`Case.StatusUpdated` when the
 * status changes). Runs inside the caller's transaction (`trx`), so the check engine can call it
 * with reviewerType 'system' for template auto-approval. The workspace `comment_mandatory` setting
 * applies to human and API reviews, not to system ones.
 */
export async function confirmCaseReview(trx: Db, input: ConfirmCaseReviewInput) {
  const { workspaceId, status, reviewerType } = input;
  const kase = await lockCase(trx, workspaceId, input.caseId);
  if (!kase) throw notFound('Case');
  // the audit entry of a person's review says the status it replaced; an automatic approval is not
  // the request's decision (a check's review sets it off: its entry speaks of the check)
  if (reviewerType !== 'system') noteAuditBefore({ status: kase.status });
  assertVersion(input.condition, kase.updated_at, 'case');

  const settings = await getSettings(trx, workspaceId);
  const comment = commentOrNull(input.comment);
  if (reviewerType !== 'system' && settings.case_review.comment_mandatory && comment === null) {
    throw badRequest('comment is required: the workspace requires a comment on every case review', 'comment');
  }
  const user = reviewerType === 'user' ? await nestedUserById(trx, workspaceId, input.userId) : null;
  if (reviewerType === 'user' && !user)
    throw badRequest('The reviewer is not a user of this workspace', 'user_id');
  const reviewedAt = input.reviewedAt ?? (await transactionNow(trx));
  if (reviewedAt.getTime() > Date.now() + FUTURE_SKEW_MS) {
    throw badRequest('reviewed_at must not be in the future', 'reviewed_at');
  }
  // a review decides the case's status from now on: one dated before the case's latest review would
  // make an older decision the current one (history is imported oldest first)
  const latest = (kase.review as { reviewed_at?: string } | null)?.reviewed_at;
  if (input.reviewedAt && latest && reviewedAt.getTime() < Date.parse(latest)) {
    throw badRequest(
      `reviewed_at must not be before the case's latest review (${latest}): it is ${reviewedAt.toISOString()}`,
      'reviewed_at',
    );
  }

  // every variant (approved, rejected, closed) takes next_review_at, computed from the workspace's
  // frequencies and the case's risk level unless the review gives it (the spec's case transitions)
  const riskLevel = (kase.risk as { level?: string } | null)?.level;
  const nextReviewAt =
    input.nextReviewAt !== undefined
      ? input.nextReviewAt
      : computeNextReviewAt(settings, riskLevel, reviewedAt);
  // a next review before this one is a typo (2025 for 2026), not a plan: the case would be overdue
  // at once. A backdated review (reviewed_at, an import) may set any date from its own day on.
  const reviewDay = reviewedAt.toISOString().slice(0, 10);
  if (input.nextReviewAt && input.nextReviewAt < reviewDay) {
    throw badRequest(
      `next_review_at must not be before the review (${reviewDay}): it is ${input.nextReviewAt}`,
      'next_review_at',
    );
  }

  const reviewRow = await trx
    .insertInto('case_reviews')
    .values({
      id: randomUUID(),
      workspace_id: workspaceId,
      case_id: kase.id,
      status,
      comment,
      reviewer_type: reviewerType,
      user_id: user?.id ?? null,
      reviewed_at: reviewedAt,
      next_review_at: nextReviewAt,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // the case keeps a copy of its latest review, reviewer included (as the user was named then)
  const review = presentCaseReview(reviewRow, user);

  // closing revokes the portal links (below), so nothing is awaited from the contact any more;
  // deciding a closed case again brings back what its checks wait for
  const contactHasActions = await contactHasActionsFor(trx, kase, status);
  const caseRow = await trx
    .updateTable('cases')
    .set({
      status,
      contact_has_actions: contactHasActions,
      review: JSON.stringify(review),
      next_review_at: nextReviewAt,
      updated_at: nextVersionStamp(),
      last_activity_at: sql`now()`,
    })
    .where('id', '=', kase.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const presented = presentCase(caseRow);
  // a closed case's portal links stop working with the review that closes it
  if (status === 'closed') await revokeLinks(trx, { caseId: kase.id });

  const events: DomainEvent[] = [];
  if (kase.status !== status) {
    events.push({
      type: 'Case.Updated',
      sub_event: 'Case.StatusUpdated',
      case_id: kase.id,
      payload: { case: presented },
      actor: { type: reviewerType, id: user?.id ?? null },
    });
  }
  if (kase.contact_has_actions !== contactHasActions) {
    events.push({
      type: 'Case.Updated',
      sub_event: 'Case.ContactHasActionsUpdated',
      case_id: kase.id,
      payload: { case: presented },
      actor: SYSTEM,
    });
  }
  events.push({
    type: 'Case.ReviewConfirmed',
    case_id: kase.id,
    payload: { case: presented, case_review: review },
    actor: { type: reviewerType, id: user?.id ?? null },
  });
  await recordEvents(trx, workspaceId, events);
  return { review, case: presented };
}
