import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { confirmCaseReview } from './confirm-case-review.ts';
import type { CaseReviewCreate } from './schemas.ts';

/** POST /v1/cases/{id}/reviews: a review recorded through the API (reviewer_type `api`). */
export async function createCaseReview(
  db: Db,
  workspaceId: string,
  caseId: string,
  input: Static<typeof CaseReviewCreate>,
) {
  const { review } = await db.transaction().execute((trx) =>
    confirmCaseReview(trx, {
      workspaceId,
      caseId,
      status: input.status,
      comment: input.comment,
      reviewerType: 'api',
      nextReviewAt: input.next_review_at,
      reviewedAt: input.reviewed_at ? new Date(input.reviewed_at) : undefined,
    }),
  );
  return review;
}
