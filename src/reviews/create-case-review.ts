import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { toUtcDate } from '../http/common-schemas.ts';
import type { IfMatch } from '../http/conditional.ts';
import { currentUserId } from '../shared/request-scope.ts';
import { confirmCaseReview } from './confirm-case-review.ts';
import type { CaseReviewCreate } from './schemas.ts';

/**
 * POST /v1/cases/{id}/reviews: a review recorded through the API (reviewer_type `api`), or by the
 * console user whose session made the request (reviewer_type `user`, `user` naming them).
 */
export async function createCaseReview(
  db: Db,
  workspaceId: string,
  caseId: string,
  input: Static<typeof CaseReviewCreate>,
  /** The request's If-Match (the case's ETag as the reviewer read it). */
  condition?: IfMatch,
) {
  const userId = currentUserId();
  const { review } = await db.transaction().execute((trx) =>
    confirmCaseReview(trx, {
      workspaceId,
      caseId,
      status: input.status,
      comment: input.comment,
      reviewerType: userId ? 'user' : 'api',
      userId,
      nextReviewAt: input.next_review_at ? toUtcDate(input.next_review_at) : input.next_review_at,
      reviewedAt: input.reviewed_at ? new Date(input.reviewed_at) : undefined,
      condition,
    }),
  );
  return review;
}
