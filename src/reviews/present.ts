import type { CaseReviewRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { NestedUserOut } from '../users/nested-user.ts';

/** `user` is the console user who reviewed (null for API and system reviews). */
export function presentCaseReview(r: CaseReviewRow, user: NestedUserOut | null = null) {
  return {
    id: r.id,
    status: r.status as 'approved' | 'rejected' | 'closed',
    comment: r.comment,
    reviewer_type: r.reviewer_type as 'user' | 'system' | 'api',
    user,
    reviewed_at: iso(r.reviewed_at),
    next_review_at: r.next_review_at,
  };
}
